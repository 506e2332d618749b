//! Monte-Carlo tree search for any game: UCT over single actions (a turn
//! of several actions is the same player moving again), chance nodes
//! expanded with their probabilities and sampled, max^n returns (each
//! player maximises his own points, so three players need nothing
//! special), a solver that proves wins and losses near the end, and tree
//! reuse between moves.
//!
//! Transpositions are not merged: the games here rarely transpose within
//! the horizon MCTS reaches, and a DAG would cost a hash table per node.
//!
//! With several threads, each grows its own tree with its own seed (root
//! parallelism) and the root statistics are summed: no locks, and the
//! trees' differing samples make the sum more reliable than one tree.

mod playout;
mod tree;

use crate::agent::{Agent, Decision};
use crate::budget::{Budget, Limits, StopOnDrop};
use crate::value::{check_players, eval_returns, outcome_returns, Centre, Returns, MAX_PLAYERS};
use playout::Playout;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use tabula_core::{Error, Evaluate, Turn};
use tree::{Actor, NodeId, Tree};

/// Longest principal line reported.
const MAX_PV: usize = 24;
/// How far below the old root the new position is looked for.
const REUSE_DEPTH: usize = 8;

#[derive(Clone, Debug)]
pub struct MctsConfig {
    /// UCB exploration constant (returns are in `[0, 1]`).
    pub exploration: f32,
    /// Visits a leaf needs before it gets children (saves memory on
    /// wide games).
    pub expand_after: u32,
    pub playout: Playout,
    /// Each new child starts with this many virtual visits worth the
    /// game's evaluation (progressive bias: the search starts from what
    /// one-ply greedy play knows); 0 for none.
    pub prior_visits: u32,
    pub solver: bool,
    pub reuse: bool,
    /// Most nodes in the tree; beyond it leaves stop growing.
    pub max_nodes: usize,
}

impl MctsConfig {
    /// Plain UCT: random playouts to the end, nothing else.
    pub fn uct() -> Self {
        MctsConfig {
            exploration: std::f32::consts::SQRT_2,
            expand_after: 1,
            playout: Playout::random(),
            prior_visits: 0,
            solver: false,
            reuse: false,
            max_nodes: 1 << 20,
        }
    }

    /// The full agent: evaluation priors on new children, short playouts
    /// guided by the game's playout weights and ended by the evaluation,
    /// the solver and tree reuse.
    pub fn mcts() -> Self {
        MctsConfig {
            exploration: 0.7,
            expand_after: 2,
            playout: Playout::guided(),
            prior_visits: 4,
            solver: true,
            reuse: true,
            max_nodes: 1 << 20,
        }
    }
}

pub struct MctsAgent<G: Evaluate> {
    name: String,
    cfg: MctsConfig,
    limits: Limits,
    rng: SmallRng,
    tree: Option<Tree<G::Action>>,
    /// What the kept tree's evaluations are measured from.
    centre: Centre,
    /// The agents of the helper threads, made on the first search with
    /// more than one thread (each with its own seed and kept tree).
    helpers: Vec<MctsAgent<G>>,
}

impl<G: Evaluate> MctsAgent<G> {
    pub fn new(name: &str, cfg: MctsConfig, limits: Limits, seed: u64) -> Self {
        MctsAgent {
            name: name.to_string(),
            cfg,
            limits,
            rng: SmallRng::seed_from_u64(seed),
            tree: None,
            centre: Centre::default(),
            helpers: Vec::new(),
        }
    }

    /// Visits of the root of the last search, reused ones included.
    pub fn root_visits(&self) -> u32 {
        self.tree.as_ref().map_or(0, |t| t.node(0).visits)
    }

    /// The tree for `root`: the old one re-rooted when allowed, found,
    /// and searched from nearly the same centre (its values are measured
    /// from it); then `self.centre` is the tree's.
    fn take_tree(&mut self, root: &G, players: usize) -> Tree<G::Action> {
        let centre = Centre::of(root, players);
        let old = self
            .tree
            .take()
            .filter(|_| self.cfg.reuse && self.centre.near(&centre));
        match old.and_then(|t| t.reroot(root.hash(), Actor::of(root.turn()), REUSE_DEPTH)) {
            Some(t) => t,
            None => {
                self.centre = centre;
                Tree::new(root, self.cfg.max_nodes)
            }
        }
    }
}

/// One search: the tree plus scratch buffers.
struct Search<'a, G: Evaluate> {
    cfg: &'a MctsConfig,
    rng: &'a mut SmallRng,
    tree: Tree<G::Action>,
    players: usize,
    centre: Centre,
    actions: Vec<G::Action>,
    outcomes: Vec<(G::Action, f64)>,
    children: Vec<(G::Action, f32)>,
    path: Vec<NodeId>,
}

impl<G: Evaluate> Search<'_, G> {
    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self, root: &G) {
        let mut g = root.clone();
        let mut id: NodeId = 0;
        self.path.clear();
        self.path.push(0);
        // At most one expansion per iteration: below it, a playout.
        let mut grown = false;
        let returns = loop {
            let node = self.tree.node(id);
            if node.proven {
                break node.sum;
            }
            if node.actor == Actor::Over {
                let r = g
                    .outcome()
                    .map_or([0.0; MAX_PLAYERS], |o| outcome_returns(o, self.players));
                if self.cfg.solver {
                    let n = self.tree.node_mut(id);
                    n.proven = true;
                    n.sum = r;
                }
                break r;
            }
            if !node.expanded {
                let ripe = id == 0 || node.visits >= self.expand_threshold();
                if !grown && ripe && self.expand(id, &g) {
                    grown = true;
                    continue;
                }
                break self.cfg.playout.run(
                    &mut g,
                    self.players,
                    &self.centre,
                    self.rng,
                    &mut self.actions,
                    &mut self.outcomes,
                );
            }
            id = self.select(id);
            if let Some(a) = self.tree.node(id).action {
                g.apply(a);
            }
            self.path.push(id);
        };
        self.back_up(&returns);
    }

    /// Visits a leaf needs before it is expanded. The bar rises as the tree
    /// fills (up to 16 times at full), so that long searches keep deepening
    /// the lines that matter instead of stopping at the node limit.
    fn expand_threshold(&self) -> u32 {
        let scale = 1 + (self.tree.fill() * 15.0) as u32;
        self.cfg.prior_visits + self.cfg.expand_after * scale
    }

    /// Create the children of `id`; false when the tree is full.
    fn expand(&mut self, id: NodeId, g: &G) -> bool {
        self.children.clear();
        match g.turn() {
            Turn::Player(_) => {
                g.legal_actions(&mut self.actions);
                self.children.extend(self.actions.iter().map(|&a| (a, 1.0)));
                if self.cfg.playout.uses_knowledge() {
                    // Unvisited children are tried in this order.
                    self.children
                        .sort_by(|a, b| g.playout_weight(b.0).total_cmp(&g.playout_weight(a.0)));
                }
            }
            Turn::Chance => {
                g.chance_outcomes(&mut self.outcomes);
                self.children
                    .extend(self.outcomes.iter().map(|&(a, p)| (a, p as f32)));
            }
            Turn::Over => return false,
        }
        if self.children.is_empty() || !self.tree.has_room(self.children.len()) {
            return false;
        }
        let (k, n, centre) = (self.cfg.prior_visits, self.players, self.centre);
        self.tree.expand(id, g, &self.children, |child| {
            if k == 0 {
                return (0, [0.0; MAX_PLAYERS]);
            }
            let r = match child.outcome() {
                Some(o) => outcome_returns(o, n),
                None => eval_returns(child, n, &centre),
            };
            (k, r.map(|x| x * k as f32))
        });
        true
    }

    /// The child to descend into: UCB for the player to move, a sample by
    /// probability at a chance node.
    fn select(&mut self, id: NodeId) -> NodeId {
        let node = self.tree.node(id);
        let range = node.child_ids();
        match node.actor {
            Actor::Player(p) => {
                let p = p as usize;
                let log_n = (node.visits.max(1) as f32).ln();
                let mut best = range.start;
                let mut best_score = f32::NEG_INFINITY;
                for c in range {
                    let child = self.tree.node(c);
                    if child.visits == 0 && !child.proven {
                        return c;
                    }
                    let explore = if child.proven {
                        0.0
                    } else {
                        self.cfg.exploration * (log_n / child.visits as f32).sqrt()
                    };
                    let score = child.mean(p) + explore;
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
                best
            }
            _ => {
                let mut x: f32 = self.rng.gen();
                for c in range.clone() {
                    x -= self.tree.node(c).prob;
                    if x < 0.0 {
                        return c;
                    }
                }
                range.end - 1
            }
        }
    }

    fn back_up(&mut self, returns: &Returns) {
        for &id in &self.path {
            let n = self.tree.node_mut(id);
            n.visits += 1;
            if !n.proven {
                for (s, r) in n.sum.iter_mut().zip(returns) {
                    *s += r;
                }
            }
        }
        if self.cfg.solver {
            for i in (0..self.path.len().saturating_sub(1)).rev() {
                if !self.prove(self.path[i]) {
                    break;
                }
            }
        }
    }

    /// Mark `id` proven when its children settle its value: a child that
    /// wins outright for the mover, or all children proven (the mover
    /// takes the best; chance takes the average).
    fn prove(&mut self, id: NodeId) -> bool {
        let node = self.tree.node(id);
        if node.proven {
            return true;
        }
        let mut value: Option<Returns> = None;
        let mut all = true;
        let mut average = [0.0; MAX_PLAYERS];
        for c in node.child_ids() {
            let child = self.tree.node(c);
            if !child.proven {
                all = false;
                continue;
            }
            match node.actor {
                Actor::Player(p) => {
                    let p = p as usize;
                    if child.sum[p] >= 1.0 {
                        value = Some(child.sum);
                        break;
                    }
                    if value.is_none_or(|v| child.sum[p] > v[p]) {
                        value = Some(child.sum);
                    }
                }
                _ => {
                    for (a, s) in average.iter_mut().zip(child.sum) {
                        *a += child.prob * s;
                    }
                }
            }
        }
        let settled = match node.actor {
            Actor::Player(p) => value.filter(|v| all || v[p as usize] >= 1.0),
            _ => all.then_some(average),
        };
        match settled {
            Some(v) if node.expanded => {
                let n = self.tree.node_mut(id);
                n.proven = true;
                n.sum = v;
                true
            }
            _ => false,
        }
    }
}

/// How a root action ranks for the mover: a proven win first, then not a
/// proven loss, then visits, then the mean return.
fn root_key(
    certain_win: bool,
    certain_loss: bool,
    visits: u64,
    mean: f32,
) -> (bool, bool, u64, i64) {
    (certain_win, !certain_loss, visits, (mean * 1e6) as i64)
}

/// The root child of `tree` to play for seat `me` (see [`root_key`]).
fn best_child<A: Copy + PartialEq>(tree: &Tree<A>, me: usize) -> NodeId {
    let key = |c: NodeId| {
        let n = tree.node(c);
        let certain_win = n.proven && n.sum[me] >= 1.0;
        let certain_loss = n.proven && n.sum[me] <= 0.0;
        root_key(certain_win, certain_loss, u64::from(n.visits), n.mean(me))
    };
    tree.node(0)
        .child_ids()
        .max_by_key(|&c| key(c))
        .unwrap_or(0)
}

/// The most visited line of `tree` from node `first` (its action first).
fn principal_line<A: Copy + PartialEq>(tree: &Tree<A>, first: NodeId) -> Vec<A> {
    let mut pv = Vec::new();
    let mut id = first;
    while pv.len() < MAX_PV {
        let n = tree.node(id);
        match n.action {
            Some(a) => pv.push(a),
            None => break,
        }
        match n.child_ids().max_by_key(|&c| tree.node(c).visits) {
            Some(c) if tree.node(c).visits > 0 => id = c,
            _ => break,
        }
    }
    pv
}

/// One root action over the trees of all threads.
struct RootStats<A> {
    action: A,
    visits: u64,
    /// Sum of `mean * visits` of seat `me`.
    weighted: f64,
    /// The exact return of seat `me`, once one tree proved it.
    proven: Option<f32>,
}

impl<A> RootStats<A> {
    fn mean(&self) -> f32 {
        match self.proven {
            Some(v) => v,
            None if self.visits == 0 => 0.5,
            None => (self.weighted / self.visits as f64) as f32,
        }
    }

    fn key(&self) -> (bool, bool, u64, i64) {
        let certain_win = self.proven.is_some_and(|v| v >= 1.0);
        let certain_loss = self.proven.is_some_and(|v| v <= 0.0);
        root_key(certain_win, certain_loss, self.visits, self.mean())
    }
}

/// The root children of all `trees` merged by action, for seat `me`. A
/// proof in one tree holds for all.
fn merge_roots<A: Copy + PartialEq>(trees: &[&Tree<A>], me: usize) -> Vec<RootStats<A>> {
    let mut out: Vec<RootStats<A>> = Vec::new();
    for tree in trees {
        for c in tree.node(0).child_ids() {
            let n = tree.node(c);
            let Some(action) = n.action else { continue };
            let i = match out.iter().position(|r| r.action == action) {
                Some(i) => i,
                None => {
                    out.push(RootStats {
                        action,
                        visits: 0,
                        weighted: 0.0,
                        proven: None,
                    });
                    out.len() - 1
                }
            };
            let r = &mut out[i];
            r.visits += u64::from(n.visits);
            r.weighted += f64::from(n.mean(me)) * f64::from(n.visits);
            if n.proven {
                r.proven = Some(n.sum[me]);
            }
        }
    }
    out
}

impl<G: Evaluate> MctsAgent<G> {
    /// Grow this agent's tree for `state` within `budget`; the number of
    /// iterations. The tree is kept in `self.tree`.
    fn grow(&mut self, state: &G, players: usize, budget: &Budget) -> Result<u64, Error> {
        let tree = self.take_tree(state, players);
        let mut search = Search {
            cfg: &self.cfg,
            rng: &mut self.rng,
            tree,
            players,
            centre: self.centre,
            actions: Vec::new(),
            outcomes: Vec::new(),
            children: Vec::new(),
            path: Vec::new(),
        };
        if !search.tree.node(0).expanded && !search.expand(0, state) {
            return Err(Error::illegal("no legal action"));
        }
        let mut iterations = 0;
        while !budget.exhausted(iterations) && !search.tree.node(0).proven {
            search.iterate(state);
            iterations += 1;
        }
        self.tree = Some(search.tree);
        Ok(iterations)
    }

    /// Root parallelism: this agent and `threads - 1` helpers grow their
    /// trees at once; the decision sums their root statistics.
    fn decide_parallel(
        &mut self,
        state: &G,
        players: usize,
        me: usize,
        budget: &Budget,
    ) -> Result<Decision<G>, Error> {
        let threads = budget.threads();
        while self.helpers.len() < threads - 1 {
            let seed = self.rng.gen();
            let helper = MctsAgent::new(&self.name, self.cfg.clone(), self.limits.clone(), seed);
            self.helpers.push(helper);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let helper_budget = budget.helper(Arc::clone(&stop));
        let mut helpers = std::mem::take(&mut self.helpers);
        let (main, helped) = std::thread::scope(|s| {
            let runs: Vec<_> = helpers[..threads - 1]
                .iter_mut()
                .map(|h| {
                    let b = &helper_budget;
                    s.spawn(move || h.grow(state, players, b).unwrap_or(0))
                })
                .collect();
            // Stop the helpers however the main search ends, even by a panic.
            let stopper = StopOnDrop(Arc::clone(&stop));
            let main = self.grow(state, players, budget);
            drop(stopper);
            let helped: u64 = runs.into_iter().filter_map(|r| r.join().ok()).sum();
            (main, helped)
        });
        self.helpers = helpers;
        let nodes = main? + helped;
        let trees: Vec<&Tree<G::Action>> = std::iter::once(&self.tree)
            .chain(self.helpers[..threads - 1].iter().map(|h| &h.tree))
            .filter_map(Option::as_ref)
            .collect();
        let mut roots = merge_roots(&trees, me);
        let best = roots
            .iter()
            .max_by_key(|r| r.key())
            .ok_or_else(|| Error::illegal("no legal action"))?;
        let (action, value) = (best.action, best.mean());
        // The line of the tree that visited the chosen action most.
        let pv = trees
            .iter()
            .filter_map(|t| {
                let c = t
                    .node(0)
                    .child_ids()
                    .find(|&c| t.node(c).action == Some(action))?;
                Some((t.node(c).visits, principal_line(t, c)))
            })
            .max_by_key(|(visits, _)| *visits)
            .map_or_else(|| vec![action], |(_, pv)| pv);
        roots.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean().total_cmp(&a.mean())));
        Ok(Decision {
            action,
            value,
            pv,
            nodes,
            depth: None,
            ranked: roots.iter().map(|r| (r.action, r.mean())).collect(),
            exact: roots.len(),
            seats: None,
        })
    }
}

impl<G: Evaluate> Agent<G> for MctsAgent<G> {
    fn name(&self) -> &str {
        &self.name
    }

    fn default_limits(&self) -> Limits {
        self.limits.clone()
    }

    fn decide(&mut self, state: &G, budget: &Budget) -> Result<Decision<G>, Error> {
        let decision = self.decide_by_search(state, budget)?;
        Ok(decision
            .avoid(|a| state.is_retreat(a))
            .prefer(state.endgame_action()))
    }
}

impl<G: Evaluate> MctsAgent<G> {
    /// The tree's choice (one tree, or the sum of the threads' roots).
    fn decide_by_search(&mut self, state: &G, budget: &Budget) -> Result<Decision<G>, Error> {
        if budget.depth().is_some() {
            return Err(Error::spec(
                "MCTS has no search depth: give it a time or a number of playouts",
            ));
        }
        let players = check_players(state)?;
        let Turn::Player(me) = state.turn() else {
            return Err(Error::illegal("no player to move"));
        };
        if budget.threads() > 1 {
            return self.decide_parallel(state, players, me.index(), budget);
        }
        let iterations = self.grow(state, players, budget)?;
        let tree = self.tree.as_ref().expect("grown");
        let me = me.index();
        let best = best_child(tree, me);
        let mut ranked: Vec<(G::Action, f32, u32)> = tree
            .node(0)
            .child_ids()
            .filter_map(|c| {
                let n = tree.node(c);
                Some((n.action?, n.mean(me), n.visits))
            })
            .collect();
        ranked.sort_by(|a, b| b.2.cmp(&a.2).then(b.1.total_cmp(&a.1)));
        let node = tree.node(best);
        let action = node
            .action
            .ok_or_else(|| Error::illegal("no legal action"))?;
        let mut seats = [0.0; MAX_PLAYERS];
        for (p, slot) in seats.iter_mut().enumerate().take(players) {
            *slot = node.mean(p);
        }
        Ok(Decision {
            action,
            value: node.mean(me),
            seats: Some(seats),
            pv: principal_line(tree, best),
            nodes: iterations,
            depth: None,
            exact: ranked.len(),
            ranked: ranked.into_iter().map(|(a, v, _)| (a, v)).collect(),
        })
    }
}
