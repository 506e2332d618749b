//! Depth-first search for two-player games: alpha-beta with iterative
//! deepening, a transposition table, move ordering and quiescence, and
//! with chance nodes searched as expectimax with Star1 pruning.
//!
//! Principal variation search: after an action with the whole window, the
//! others only test with a null window whether they beat it (exact: the
//! same value as plain alpha-beta, in fewer nodes). Without dice and with
//! one action a turn, late quiet actions are first searched shallower
//! (late move reductions).
//!
//! A drawn end (by the game's rules, or a position repeating along the
//! searched line) is not scored 0 but `-contempt * root score`: the side
//! that is ahead sees a draw as a loss of part of its lead and avoids it,
//! the side behind seeks it (zero-sum), and an even root keeps 0.
//!
//! Such draws depend on the path, which the table's key leaves out (the
//! graph-history interaction: issue 39 lost a won game to an entry stored
//! before a position had occurred twice). As in Stockfish, repetition is
//! checked before the table, and principal-variation nodes (full window)
//! take no cutoffs from the table, so the line reported is always searched
//! to its end; beyond Stockfish, a score that depended on a draw by the
//! history (a repetition of a position above the node, or a draw rule that
//! counts the game's history) is not stored, only its move.
//!
//! Scores are always those of player 0 (max nodes where player 0 acts, min
//! nodes where player 1 acts), so a turn of several actions by the same
//! player needs no sign bookkeeping: the sign "flips" only when the player
//! to move changes. Depth counts player actions; chance nodes are free.
//!
//! With several threads (Lazy SMP) every thread searches the same root
//! with its own move ordering, all sharing one lock-free transposition
//! table. The helpers skip iterations by Stockfish 8's pattern (the first
//! searches the even depths, the second the odd ones, later ones in
//! pairs...), so that while the main thread searches depth d most helpers
//! search d + 1 and fill the table ahead of it, rather than repeat its
//! work. The main thread goes on while a helper is on a deeper iteration,
//! and the answer is that of the thread that completed the deepest
//! iteration (the main one on a tie). A thread leaves a child another
//! thread is searching for after its other children: see [`smp`].

mod check;
mod order;
mod smp;
mod tt;

use crate::agent::{Agent, Decision};
use crate::budget::{Budget, Limits, StopOnDrop};
use crate::class::require_two_player;
use crate::value::{eval_score, expected, outcome_score, static_score, DECIDED, WIN};
pub use check::LineCheck;
use order::{pick_next, tactical_rank, Ordering};
use smp::{deepest, next_depth, skips, Deferring, Shared, DEFER_DEPTH};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tabula_core::{Error, Evaluate, Player, Turn};
use tt::{Bound, MoveTag, Table};

const INF: i32 = WIN + 1;
/// Deepest ply any line may reach (main search plus quiescence).
const MAX_PLY: usize = 128;
/// Longest capture sequence quiescence follows.
const MAX_QUIESCENCE: usize = 12;
/// Longest principal line reported.
const MAX_PV: usize = 24;
/// Budget polls happen every this many nodes (a power of two).
const POLL: u64 = 256;
/// Default [`SearchConfig::contempt`]: half the lead, so a side far ahead
/// rather gives up a piece than a won game, while near equality (where
/// the root score is small) draws stay close to 0.
const CONTEMPT: f32 = 0.5;

/// How a searcher searches.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Deepest iteration, in player actions.
    pub max_depth: i32,
    pub quiescence: bool,
    /// The transposition table has `2^tt_bits` slots; 0 disables it.
    pub tt_bits: u32,
    /// Search chance nodes (expectimax); otherwise meeting one is an error.
    pub chance: bool,
    /// Share of the root's static score (player 0) a draw costs player 0:
    /// the draw score is `-contempt * root score`. 0 scores draws 0.
    pub contempt: f32,
    /// Count depth in rolls of the dice rather than in player actions:
    /// every roll is searched to its end and leaves are the positions
    /// before a roll, so a roll of four moves costs no more depth than a
    /// roll of one, and the evaluation never meets a roll half played.
    pub depth_in_rolls: bool,
    /// Late move reductions: quiet actions ordered late are searched
    /// shallower first, and again at full depth only if they beat the
    /// bound. Not exact (a fixed depth no longer equals minimax), so off
    /// where exactness is tested, and off with dice, where depth was
    /// measured to buy little; ignored in games of several actions a turn.
    pub reductions: bool,
    /// Score leaves with the game's previous evaluation
    /// (`Evaluate::evaluate_previous`): the `classic` agent, kept to
    /// measure a new evaluation against.
    pub previous_evaluation: bool,
}

impl SearchConfig {
    pub fn alphabeta() -> Self {
        SearchConfig {
            max_depth: crate::MAX_DEPTH as i32,
            quiescence: true,
            tt_bits: 19,
            chance: false,
            contempt: CONTEMPT,
            depth_in_rolls: false,
            reductions: true,
            previous_evaluation: false,
        }
    }

    pub fn expectimax() -> Self {
        SearchConfig {
            chance: true,
            depth_in_rolls: true,
            reductions: false,
            ..SearchConfig::alphabeta()
        }
    }
}

/// The result of one root search.
pub struct RootResult<A> {
    /// Root actions, best first for the player to move, with player 0 scores.
    pub ranked: Vec<(A, i32)>,
    /// Leading entries of `ranked` with exact values (at least the
    /// budget's `multipv`); the values after them are upper bounds for
    /// the mover.
    pub exact: usize,
    pub pv: Vec<A>,
    pub nodes: u64,
    /// Deepest iteration searched to the end (0 when stopped in the first).
    pub depth: u32,
}

/// One search engine with its tables, kept between moves.
pub struct Searcher<G: Evaluate> {
    cfg: SearchConfig,
    /// Shared with the searchers of the helper threads.
    tt: Arc<Table>,
    order: Ordering<G::Action>,
    moves: Vec<Vec<G::Action>>,
    scores: Vec<Vec<i32>>,
    /// The order of each ply's actions, some left for last (see [`Deferring`]).
    deferring: Vec<Deferring>,
    outcomes: Vec<Vec<(G::Action, f64)>>,
    /// The distinct positions a chance node leads to, with their shares.
    children: Vec<Vec<(G, f64, u64)>>,
    budget: Budget,
    /// This thread's part in the current search.
    part: Part,
    /// The iteration under way.
    iteration: i32,
    nodes: u64,
    stopped: bool,
    met_chance: bool,
    /// Score of a draw for player 0 in the current search (see contempt).
    draw: i32,
    /// Hashes of the player nodes on the line being searched, root first.
    line: Vec<u64>,
    /// The smallest index into `line` of a position that a draw by history
    /// met in the current subtree depended on (`usize::MAX`: none; 0 for a
    /// draw rule reading the game's history before the root).
    cycle_top: usize,
    /// The principal line below each ply (the triangular table).
    pv: Vec<Vec<G::Action>>,
}

impl<G: Evaluate> Searcher<G> {
    /// The static score of a live position, by the configured evaluation.
    fn leaf_score(&self, g: &G) -> i32 {
        if self.cfg.previous_evaluation {
            eval_score(g.evaluate_previous(Player(0)))
        } else {
            static_score(g)
        }
    }

    pub fn new(cfg: SearchConfig, sample: &G) -> Self {
        let tt = Arc::new(Table::new(cfg.tt_bits));
        Searcher::with_table(cfg, sample, tt)
    }

    fn with_table(mut cfg: SearchConfig, sample: &G, tt: Arc<Table>) -> Self {
        // Within a turn of several actions a reduction cuts the rest of
        // the mover's own turn and the reply: measured weaker in Phylde.
        cfg.reductions &= !sample.game_type().multi_action_turns;
        Searcher {
            tt,
            order: Ordering::new(sample.action_key_space(), MAX_PLY),
            moves: vec![Vec::new(); MAX_PLY + 1],
            scores: vec![Vec::new(); MAX_PLY + 1],
            deferring: (0..=MAX_PLY).map(|_| Deferring::default()).collect(),
            outcomes: vec![Vec::new(); MAX_PLY + 1],
            children: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            budget: Budget::unlimited(),
            part: Part::Alone,
            iteration: 0,
            nodes: 0,
            stopped: false,
            met_chance: false,
            draw: 0,
            line: Vec::with_capacity(MAX_PLY + 1),
            cycle_top: usize::MAX,
            pv: vec![Vec::new(); MAX_PLY + 2],
            cfg,
        }
    }

    /// A searcher for a helper thread: its own ordering and buffers, the
    /// table of this one (never a table of its own: building one, then
    /// dropping it, cost every helper the table's size in page faults,
    /// which at 16 threads of 256 MB took the whole budget).
    fn helper(&self, sample: &G) -> Self {
        Searcher::with_table(self.cfg.clone(), sample, Arc::clone(&self.tt))
    }

    /// Iterative deepening from `g` (a player to move) within `budget`,
    /// a new search for the table (see [`Table::new_search`]).
    pub fn search(&mut self, g: &G, budget: &Budget) -> Result<RootResult<G::Action>, Error> {
        self.tt.new_search();
        self.search_from(g, budget, Part::Alone)
    }

    /// [`Searcher::search`] without a new search for the table, as `part`
    /// of it: a helper skips the iterations [`skips`] gives it and deepens
    /// until stopped; the main thread decides by [`next_depth`] how deep
    /// to go.
    fn search_from(
        &mut self,
        g: &G,
        budget: &Budget,
        part: Part,
    ) -> Result<RootResult<G::Action>, Error> {
        let Turn::Player(me) = g.turn() else {
            return Err(Error::illegal("no player to move"));
        };
        let sign = if me == Player(0) { 1 } else { -1 };
        self.budget = budget.clone();
        self.part = part;
        self.nodes = 0;
        self.stopped = false;
        self.met_chance = false;
        self.order.new_search();
        self.draw = (-self.cfg.contempt * self.leaf_score(g) as f32).round() as i32;
        self.line.clear();
        self.line.push(g.hash());
        self.cycle_top = usize::MAX;

        let mut moves = Vec::new();
        g.legal_actions(&mut moves);
        if moves.is_empty() {
            return Err(Error::illegal("no legal action"));
        }
        let tt_move = self.tt_move(g.hash(), g, &moves);
        let mut keys = Vec::new();
        self.order.score(g, &moves, tt_move, 0, me, &mut keys);
        let mut ranked: Vec<(G::Action, i32)> = moves.iter().copied().zip(keys).collect();
        ranked.sort_by_key(|&(_, k)| std::cmp::Reverse(k));
        ranked.iter_mut().for_each(|r| r.1 = 0);
        let mut depth_done = 0;
        // Leading entries of `ranked` whose values are exact (the others
        // are bounds); the first `multipv` of each iteration always are.
        let multipv = self.budget.multipv().min(ranked.len());
        let mut exact = 1;
        // The searched line of `ranked[0]`, and of this iteration's best.
        let mut pv = vec![ranked[0].0];
        let mut iter_pv = Vec::new();

        let max_depth = self.budget.depth().map_or(self.cfg.max_depth, |d| {
            i32::try_from(d).map_or(self.cfg.max_depth, |d| d.min(self.cfg.max_depth))
        });
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if let Part::Helper(h, _) = self.part {
                if skips(h, depth) && depth < max_depth {
                    continue;
                }
            }
            self.iteration = depth;
            if let Part::Helper(_, p) = &self.part {
                p.start(depth);
            }
            // Root values from the mover's side. Each action is searched
            // above the `multipv`-th best value so far (`floor`): those
            // that beat it are exact, the others fail low with bounds.
            let mut top: Vec<i32> = Vec::with_capacity(multipv + 1);
            let mut iter_best: Option<(usize, i32)> = None;
            let mut values = vec![-INF; ranked.len()];
            let mut is_exact = vec![false; ranked.len()];
            // With helpers, an action another thread is searching goes last.
            let mut order = Deferring::default();
            while let Some(i) =
                order.next(ranked.len(), |i| i > 0 && self.child_busy(g, ranked[i].0))
            {
                let a = ranked[i].0;
                let floor = if top.len() < multipv {
                    -INF
                } else {
                    top[multipv - 1]
                };
                let mut child = g.clone();
                child.apply(a);
                let below = self.child_depth(depth, false);
                let (lo, hi) = if sign == 1 {
                    (floor, INF)
                } else {
                    (-INF, -floor)
                };
                // Once `multipv` actions are valued, a null window asks
                // only whether an action beats the floor; those that do
                // are searched again.
                let v = if floor == -INF {
                    sign * self.node(&child, below, 1, lo, hi)
                } else {
                    let (nlo, nhi) = if sign == 1 {
                        (floor, floor + 1)
                    } else {
                        (-floor - 1, -floor)
                    };
                    let v = sign * self.node(&child, below, 1, nlo, nhi);
                    if v > floor && !self.stopped {
                        sign * self.node(&child, below, 1, lo, hi)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    break;
                }
                values[i] = v;
                is_exact[i] = v > floor;
                let at = top.partition_point(|&t| t >= v);
                top.insert(at, v);
                top.truncate(multipv);
                if iter_best.is_none_or(|(_, b)| v > b) {
                    iter_best = Some((i, v));
                    // A new best was searched with a window it beat: its line is exact.
                    iter_pv.clear();
                    iter_pv.push(a);
                    iter_pv.extend_from_slice(&self.pv[1]);
                }
            }
            if self.met_chance {
                return Err(Error::spec(
                    "alpha-beta needs a game without dice (try `expectimax` or `mcts`)",
                ));
            }
            if self.stopped {
                // A move that finished this deeper iteration ahead of the
                // previous best is trusted; the rest keep older values.
                if let Some((i, v)) = iter_best.filter(|&(i, _)| i > 0 || depth_done == 0) {
                    let mut m = ranked.remove(i);
                    m.1 = sign * v;
                    ranked.insert(0, m);
                    exact = if depth_done == 0 {
                        1
                    } else {
                        exact + usize::from(i >= exact)
                    };
                    pv = std::mem::take(&mut iter_pv);
                }
                // The main thread outrun by a helper goes on above it.
                if let Part::Main(p) = &self.part {
                    if !self.budget.exhausted(self.nodes) {
                        let used = self.budget.time_used();
                        if let Some(next) = next_depth(depth_done, used, Some(p)) {
                            self.stopped = false;
                            depth = next - 1;
                            continue;
                        }
                    }
                }
                break;
            }
            // Best first; on a tie an exact value before a bound, so that
            // the first `multipv` are exact (every bound is at most the
            // floor it failed, at most the final `multipv`-th value).
            let mut order: Vec<usize> = (0..ranked.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse((values[i], is_exact[i])));
            ranked = order
                .iter()
                .map(|&i| (ranked[i].0, sign * values[i]))
                .collect();
            exact = order.iter().take_while(|&&i| is_exact[i]).count();
            pv = std::mem::take(&mut iter_pv);
            depth_done = depth;
            if let Part::Helper(_, p) = &self.part {
                p.finish(depth);
            }
            let best = sign * ranked[0].1;
            let mate_seen = best.abs() >= DECIDED && WIN - best.abs() <= depth;
            if ranked.len() == 1 || mate_seen || self.budget.exhausted(self.nodes) {
                break;
            }
            // Only the main thread stops short of its time; a helper goes
            // on filling the table until the main one is done.
            let helpers = match &self.part {
                Part::Helper(..) => continue,
                Part::Alone => None,
                Part::Main(p) => Some(&**p),
            };
            match next_depth(depth, self.budget.time_used(), helpers) {
                Some(next) => depth = next - 1,
                None => break,
            }
        }
        pv.truncate(MAX_PV);
        Ok(RootResult {
            ranked,
            exact,
            pv,
            nodes: self.nodes,
            depth: u32::try_from(depth_done).unwrap_or(0),
        })
    }

    /// The depth left below a node: a player's action takes one, unless
    /// depth counts rolls, and then a chance node takes it instead.
    fn child_depth(&self, depth: i32, at_chance: bool) -> i32 {
        depth - i32::from(at_chance == self.cfg.depth_in_rolls)
    }

    /// Count a node; poll the budget now and then. True when stopping.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL) && (self.budget.exhausted(self.nodes) || self.outrun()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether another thread is searching the position `a` leads to from `g`.
    fn child_busy(&self, g: &G, a: G::Action) -> bool {
        self.shared().is_some_and(|p| {
            let mut child = g.clone();
            child.apply(a);
            p.is_busy(child.hash())
        })
    }

    /// What this search's threads share, if it has helpers.
    fn shared(&self) -> Option<&Shared> {
        match &self.part {
            Part::Alone => None,
            Part::Main(p) | Part::Helper(_, p) => Some(p),
        }
    }

    /// Whether this is a main thread whose current iteration a helper has
    /// already finished (or passed).
    fn outrun(&self) -> bool {
        matches!(&self.part, Part::Main(p) if p.outruns(self.iteration))
    }

    /// Score of `g` for player 0, searched `depth` actions deep.
    fn node(&mut self, g: &G, depth: i32, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.pv[ply].clear();
        let p = match g.turn() {
            Turn::Over => return self.end_score(g, ply),
            Turn::Chance => return self.chance(g, depth, ply, alpha, beta),
            Turn::Player(p) => p,
        };
        let key = g.hash();
        if let Some(at) = self.line.iter().position(|&h| h == key) {
            self.cycle_top = self.cycle_top.min(at);
            return self.draw;
        }
        if (depth <= 0 && !self.cfg.depth_in_rolls) || ply >= MAX_PLY {
            return if self.cfg.quiescence {
                self.quiesce(g, ply, alpha, beta, 0)
            } else {
                self.tick();
                self.leaf_score(g)
            };
        }
        if self.tick() {
            return 0;
        }
        let entry = self.tt.probe(key);
        // With dice, Star1 gives most nodes wide windows (and those games
        // have no repetition): the table cuts everywhere there.
        let pv_node = beta - alpha > 1 && !self.cfg.chance;
        if let Some(v) = entry
            .filter(|_| !pv_node)
            .and_then(|e| e.cutoff(depth, ply, alpha, beta))
        {
            return v;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.scores[ply]);
        g.legal_actions(&mut moves);
        let tt_move = entry.and_then(|e| e.best).and_then(|t| t.find(g, &moves));
        self.order.score(g, &moves, tt_move, ply, p, &mut keys);
        let maximizing = p == Player(0);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = None;
        let here = self.line.len();
        let outer_top = std::mem::replace(&mut self.cycle_top, usize::MAX);
        self.line.push(key);
        // With helpers, a deep node marks itself busy, and leaves the
        // children another thread is searching for last.
        let shared = self.shared().filter(|_| depth >= DEFER_DEPTH);
        let marked = shared.is_some_and(|p| p.enter(key));
        let defer = shared.is_some();
        let mut order = std::mem::take(&mut self.deferring[ply]);
        order.clear();
        while let Some(i) = order.next(moves.len(), |i| {
            pick_next(&mut moves, &mut keys, i);
            i > 0 && defer && self.child_busy(g, moves[i])
        }) {
            let a = moves[i];
            let mut child = g.clone();
            child.apply(a);
            let v = self.child_value(g, &child, a, i, depth, ply, (alpha, beta), maximizing);
            if self.stopped {
                break;
            }
            if (maximizing && v > best) || (!maximizing && v < best) {
                best = v;
                best_move = Some(a);
                if alpha < v && v < beta {
                    self.extend_pv(ply, a);
                }
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if !g.is_tactical(a) {
                    self.order.reward(g, a, ply, p, depth);
                }
                break;
            }
        }
        self.line.pop();
        if marked {
            self.shared().inspect(|p| p.leave(key));
        }
        self.deferring[ply] = order;
        self.moves[ply] = moves;
        self.scores[ply] = keys;
        let bound = self.path_bound(here, outer_top, Bound::of(best, alpha0, beta0));
        if self.stopped {
            return 0;
        }
        if best_move.is_none() {
            // A player to move always has an action; be safe anyway.
            return self.leaf_score(g);
        }
        self.tt.store(
            key,
            best,
            ply,
            depth,
            bound,
            best_move.map(|a| MoveTag::of(g, a)),
        );
        best
    }

    /// The bound to store for a node at `line` index `here` whose subtree
    /// is done: [`Bound::Path`] if a draw below it depended on a position
    /// above it. Hands what the subtree met on to the node's parent
    /// (`outer_top`: what the parent's earlier children met).
    fn path_bound(&mut self, here: usize, outer_top: usize, bound: Bound) -> Bound {
        let path = self.cycle_top < here;
        self.cycle_top = self.cycle_top.min(outer_top);
        if path {
            Bound::Path
        } else {
            bound
        }
    }

    /// The principal line at `ply` is `a`, then the line below it.
    fn extend_pv(&mut self, ply: usize, a: G::Action) {
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(a);
        line.extend_from_slice(&below[0]);
    }

    /// The value of `child`, reached from `g` by its `index`-th action `a`
    /// in move order (principal variation search): the first action gets
    /// the whole window; the others a null window at the mover's bound,
    /// first at a reduced depth if they are late and quiet, and are
    /// searched again, deeper and then wider, only if they beat it.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        g: &G,
        child: &G,
        a: G::Action,
        index: usize,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        maximizing: bool,
    ) -> i32 {
        let below = self.child_depth(depth, false);
        if index == 0 {
            return self.node(child, below, ply + 1, alpha, beta);
        }
        let (na, nb) = if maximizing {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let beats = |v: i32| if maximizing { v > alpha } else { v < beta };
        let r = if self.cfg.reductions && !g.is_tactical(a) {
            reduction(depth, index)
        } else {
            0
        };
        let mut v = self.node(child, below - r, ply + 1, na, nb);
        if r > 0 && beats(v) && !self.stopped {
            v = self.node(child, below, ply + 1, na, nb);
        }
        if beats(v) && beta - alpha > 1 && !self.stopped {
            v = self.node(child, below, ply + 1, alpha, beta);
        }
        v
    }

    /// Expectimax with Star1 pruning: scores lie in `[-WIN, WIN]`, so once
    /// the outcomes searched so far bound the average outside the window,
    /// the rest need not be searched.
    fn chance(&mut self, g: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        // The principal line stops at the dice.
        self.pv[ply].clear();
        if !self.cfg.chance {
            self.met_chance = true;
            self.stopped = true;
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.tick();
            return self.leaf_score(g);
        }
        if self.tick() {
            return 0;
        }
        let key = g.hash();
        if let Some(v) = self
            .tt
            .probe(key)
            .and_then(|e| e.cutoff(depth, ply, alpha, beta))
        {
            return v;
        }
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        g.chance_outcomes(&mut outcomes);
        let mut children = std::mem::take(&mut self.children[ply]);
        merge_outcomes(g, &outcomes, &mut children);
        let (lo, hi) = (-f64::from(WIN), f64::from(WIN));
        let (fa, fb) = (f64::from(alpha), f64::from(beta));
        let mut sum = 0.0;
        let mut rest = 1.0;
        let mut cut = None;
        let here = self.line.len();
        let outer_top = std::mem::replace(&mut self.cycle_top, usize::MAX);
        for &(ref child, prob, _) in &children {
            let after = (rest - prob).max(0.0);
            let ca = ((fa - sum - after * hi) / prob)
                .floor()
                .max(-f64::from(INF));
            let cb = ((fb - sum - after * lo) / prob).ceil().min(f64::from(INF));
            let below = self.child_depth(depth, true);
            let v = self.node(child, below, ply + 1, ca as i32, cb as i32);
            if self.stopped {
                break;
            }
            sum += prob * f64::from(v);
            rest = after;
            if sum + rest * hi <= fa {
                cut = Some(sum + rest * hi);
                break;
            }
            if sum + rest * lo >= fb {
                cut = Some(sum + rest * lo);
                break;
            }
        }
        self.outcomes[ply] = outcomes;
        self.children[ply] = children;
        let v = cut.unwrap_or(sum).round() as i32;
        let bound = self.path_bound(here, outer_top, Bound::of(v, alpha, beta));
        if self.stopped {
            return 0;
        }
        self.tt.store(key, v, ply, depth, bound, None);
        v
    }

    /// Search tactical actions only, until the position is quiet.
    fn quiesce(&mut self, g: &G, ply: usize, mut alpha: i32, mut beta: i32, q: usize) -> i32 {
        let p = match g.turn() {
            Turn::Over => return self.end_score(g, ply),
            Turn::Chance => {
                self.met_chance |= !self.cfg.chance;
                return self.leaf_score(g);
            }
            Turn::Player(p) => p,
        };
        if self.tick() {
            return 0;
        }
        let stand = self.leaf_score(g);
        if q >= MAX_QUIESCENCE || ply >= MAX_PLY {
            return stand;
        }
        let maximizing = p == Player(0);
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.scores[ply]);
        g.legal_actions(&mut moves);
        moves.retain(|&a| g.is_tactical(a));
        keys.clear();
        keys.extend(moves.iter().map(|&a| tactical_rank(g, a)));
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let mut child = g.clone();
            child.apply(moves[i]);
            let v = self.quiesce(&child, ply + 1, alpha, beta, q + 1);
            if self.stopped {
                break;
            }
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = keys;
        best
    }

    /// Score of the finished game `g` reached `ply` actions below the root:
    /// a win sooner scores higher, a shared draw is the contempt draw. A
    /// draw where the game's state holds more than its hash (the history
    /// and clocks its draw rules read: [`Game::exact_hash`]) may be one by
    /// those rules, and so depends on the path down to it.
    ///
    /// [`Game::exact_hash`]: tabula_core::Game::exact_hash
    fn end_score(&mut self, g: &G, ply: usize) -> i32 {
        match g.outcome().map(|o| outcome_score(o, ply)) {
            Some(v) if v != 0 => v,
            _ => {
                if g.exact_hash() != g.hash() {
                    self.cycle_top = 0;
                }
                self.draw
            }
        }
    }

    /// The best action the table holds for `g` (hash `key`), if it is
    /// among `moves`.
    fn tt_move(&self, key: u64, g: &G, moves: &[G::Action]) -> Option<G::Action> {
        self.tt.probe(key)?.best?.find(g, moves)
    }
}

/// The positions the outcomes of chance node `g` lead to, outcomes that
/// lead to the same position (by hash) merged into one with their summed
/// share, most likely first. Ad Elta Stelpur's 21 rolls are 10 positions
/// (its rules spec's roll classes: 3-2 to 5-4 all pass, 2-1 to 5-1 all
/// leave one 1, ...), so a chance node costs half the subtrees.
fn merge_outcomes<G: Evaluate>(g: &G, outcomes: &[(G::Action, f64)], out: &mut Vec<(G, f64, u64)>) {
    out.clear();
    for &(a, prob) in outcomes {
        let mut child = g.clone();
        child.apply(a);
        let h = child.hash();
        match out.iter_mut().find(|c| c.2 == h) {
            Some(c) => c.1 += prob,
            None => out.push((child, prob, h)),
        }
    }
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
}

/// Plies taken off a quiet action searched `index`-th at `depth`: none
/// for the first few or near the leaves, then growing with the logarithm
/// of both (the usual late-move-reduction shape), always leaving one ply.
fn reduction(depth: i32, index: usize) -> i32 {
    if depth < 3 || index < 3 {
        return 0;
    }
    let r = 0.75 + (depth as f32).ln() * (index as f32).ln() / 2.25;
    (r as i32).min(depth - 2)
}

/// A searcher's part in one search.
enum Part {
    /// The only thread.
    Alone,
    /// The main thread, watching its helpers' progress and the nodes under search.
    Main(Arc<Shared>),
    /// Helper number `.0` (from 0), reporting its progress.
    Helper(usize, Arc<Shared>),
}

/// The alpha-beta and expectimax agents: one searcher per thread (the
/// first is the main one), kept between moves.
pub struct SearchAgent<G: Evaluate> {
    name: String,
    cfg: SearchConfig,
    limits: Limits,
    searchers: Vec<Searcher<G>>,
}

impl<G: Evaluate> SearchAgent<G> {
    pub fn new(name: &str, cfg: SearchConfig, limits: Limits) -> Self {
        SearchAgent {
            name: name.to_string(),
            cfg,
            limits,
            searchers: Vec::new(),
        }
    }

    /// Search `state` on `budget.threads()` threads: the main searcher on
    /// this one, helpers on scoped threads stopped when it is done. The
    /// node count is that of all threads.
    fn search(&mut self, state: &G, budget: &Budget) -> Result<RootResult<G::Action>, Error> {
        let threads = budget.threads();
        let bits = budget.hash_mb().map_or(self.cfg.tt_bits, tt::bits_for_mb);
        if self
            .searchers
            .first()
            .is_some_and(|s| s.cfg.tt_bits != bits)
        {
            self.searchers.clear();
        }
        if self.searchers.is_empty() {
            let cfg = SearchConfig {
                tt_bits: bits,
                ..self.cfg.clone()
            };
            self.searchers.push(Searcher::new(cfg, state));
        }
        while self.searchers.len() < threads {
            let helper = self.searchers[0].helper(state);
            self.searchers.push(helper);
        }
        let (main, helpers) = self.searchers.split_first_mut().expect("a main searcher");
        let helpers = &mut helpers[..threads - 1];
        if helpers.is_empty() {
            return main.search(state, budget);
        }
        // One new search for the shared table, before any thread stores.
        main.tt.new_search();
        let stop = Arc::new(AtomicBool::new(false));
        let helper_budget = budget.helper(Arc::clone(&stop));
        let shared = Arc::new(Shared::default());
        let (main_result, helper_results) = std::thread::scope(|s| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let b = &helper_budget;
                    let part = Part::Helper(i, Arc::clone(&shared));
                    s.spawn(move || h.search_from(state, b, part).ok())
                })
                .collect();
            let main_result = {
                // Stop the helpers however the main search ends, even by a panic.
                let _stop = StopOnDrop(Arc::clone(&stop));
                main.search_from(state, budget, Part::Main(Arc::clone(&shared)))
            };
            let helper_results: Vec<_> = handles
                .into_iter()
                .filter_map(|h| h.join().ok().flatten())
                .collect();
            (main_result, helper_results)
        });
        let nodes = main.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        let mut r = deepest(main_result?, helper_results);
        r.nodes = nodes;
        Ok(r)
    }
}

impl<G: Evaluate> Agent<G> for SearchAgent<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn default_limits(&self) -> Limits {
        self.limits.clone()
    }

    fn decide(&mut self, state: &G, budget: &Budget) -> Result<Decision<G>, Error> {
        if self.searchers.is_empty() {
            require_two_player(state.game_type(), &self.name, !self.cfg.chance)?;
        }
        let Turn::Player(me) = state.turn() else {
            return Err(Error::illegal("no player to move"));
        };
        let r = self.search(state, budget)?;
        let (action, score) = r.ranked[0];
        let decision = Decision {
            action,
            value: expected(score, me),
            pv: r.pv,
            nodes: r.nodes,
            depth: Some(r.depth),
            ranked: r
                .ranked
                .iter()
                .map(|&(a, s)| (a, expected(s, me)))
                .collect(),
            exact: r.exact,
            seats: None,
        };
        Ok(decision
            .avoid(|a| state.is_retreat(a))
            .prefer(state.endgame_action()))
    }
}

#[cfg(test)]
mod tests {
    use super::reduction;

    #[test]
    fn reductions_spare_early_moves_and_shallow_nodes_and_leave_a_ply() {
        for depth in 0..3 {
            assert_eq!(reduction(depth, 40), 0, "depth {depth}");
        }
        for index in 0..3 {
            assert_eq!(reduction(8, index), 0, "index {index}");
        }
        assert_eq!(reduction(3, 3), 1);
        assert!(reduction(6, 30) > reduction(6, 4));
        for depth in 3..20 {
            for index in 3..200 {
                let r = reduction(depth, index);
                assert!((1..=depth - 2).contains(&r), "{depth} {index}: {r}");
                assert!(r >= reduction(depth, index - 1) && r >= reduction(depth - 1, index));
            }
        }
    }
}
