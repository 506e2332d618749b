//! Race endgames solved at the root, as a chess engine probes a tablebase.
//!
//! Near the end of a conquest race the evaluation (a sum of steps) cannot
//! tell the leader's useful moves from mere deepening: with two pawns at a
//! door that his own pawns block, three or four moves win and any shuffle
//! inside the zone scores the same, and MCTS at three players sees one or
//! two own moves ahead. So when the mover, with at most [`MAX_OUTSIDE`]
//! pawns still outside a target zone, can fill it within [`MAX_MOVES`] of
//! his own moves, the others' pawns held still, and no
//! rival can fill one sooner the same way, the first move of the shortest
//! such plan is the answer. The plan is searched again every turn, so a
//! rival's block only changes the plan.
//!
//! The search is an iterative-deepening depth-first search over the mover's
//! own moves that make progress: an outside pawn coming nearer to the zone,
//! an inside one going deeper (to make room at the door). Sideways moves
//! inside the zone are left out: with them, 17 of the 21 races of
//! `won-gildervaik.txt` were still won and one fewer of a held-out set, at
//! a higher cost. The depth is bounded below by the pawns still outside
//! (one move brings in at most one pawn), and a table keeps the positions
//! already searched in vain with as many moves left. A node budget keeps
//! it to milliseconds; past it, no answer.

use crate::geometry::{opposing_seats, Cells, Seat, CELLS, DISTANCES, EXITS, NEIGHBOURS, ZONES};
use crate::moves::Move;
use crate::options::{Mode, WinZone};
use crate::state::{Gildervaik, PAWNS};
use std::collections::HashMap;

/// Longest plan looked for, in the mover's own moves.
pub const MAX_MOVES: u32 = 6;
/// Plans are looked for only with this many pawns outside the zone at
/// most: the end of the race. Earlier, plans lean on jumps over rival pawns
/// that move away, and following them cost level 8 games against itself
/// (with up to six outside, the new build lost points in 4 of 36 games and
/// gained in none; with two, one each way; docs/benchmarks.md).
pub const MAX_OUTSIDE: u32 = 2;
/// Positions visited at most per question (a plan, or a rival's plan).
/// About 2 µs each: at most some 40 ms, where plans of six moves take
/// up to 11,000 (measured on the races of `won-gildervaik.txt`).
const MAX_NODES: u32 = 20_000;

/// The cells a seat may fill to win: one zone, or both opposing zones.
#[derive(Clone, Copy)]
struct Goal {
    cells: u128,
    /// The zones of `cells` (one or two), for the distances.
    zones: [Seat; 2],
}

impl Goal {
    /// The goals of `seat`: each opposing zone, or both as one.
    fn of(seat: Seat, win_zone: WinZone) -> Vec<Goal> {
        let [a, b] = opposing_seats(seat);
        match win_zone {
            WinZone::Same => vec![
                Goal {
                    cells: ZONES[a],
                    zones: [a, a],
                },
                Goal {
                    cells: ZONES[b],
                    zones: [b, b],
                },
            ],
            WinZone::Either => vec![Goal {
                cells: ZONES[a] | ZONES[b],
                zones: [a, b],
            }],
        }
    }

    /// Steps from `cell` to the goal, other pawns ignored.
    fn distance(&self, cell: usize) -> u8 {
        DISTANCES[self.zones[0]][cell].min(DISTANCES[self.zones[1]][cell])
    }

    /// Steps from `cell` (in the goal) to the nearest cell outside it.
    fn depth(&self, cell: usize) -> u8 {
        EXITS[self.zones[0]][cell].max(EXITS[self.zones[1]][cell])
    }

    /// Whether `m` belongs to the plans searched: an outside pawn comes
    /// nearer, an inside one goes deeper (making room at the door).
    fn useful(&self, m: Move) -> bool {
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return false;
        };
        if self.cells & from.bit() != 0 {
            self.cells & to.bit() != 0 && self.depth(to.id()) > self.depth(from.id())
        } else {
            self.distance(to.id()) < self.distance(from.id())
        }
    }
}

/// One question: can `seat` reach `goal` within a number of own moves?
struct Solver {
    state: Gildervaik,
    seat: Seat,
    goal: Goal,
    nodes: u32,
    /// Moves left with which a position was already searched in vain.
    seen: HashMap<u64, u32>,
    /// One move list per depth.
    buffers: Vec<Vec<Move>>,
}

impl Solver {
    fn new(root: &Gildervaik, seat: Seat, goal: Goal) -> Solver {
        let mut state = root.clone();
        state.set_side(seat);
        Solver {
            state,
            seat,
            goal,
            nodes: 0,
            seen: HashMap::new(),
            buffers: vec![Vec::new(); MAX_MOVES as usize + 1],
        }
    }

    fn outside(&self) -> u32 {
        (self.state.pawns[self.seat] & !self.goal.cells).count_ones()
    }

    /// The first move and length of a shortest plan of at most `most`
    /// moves; `None` if there is none, or the node budget ran out.
    fn shortest(&mut self, most: u32) -> Option<(Move, u32)> {
        for bound in self.outside().max(1)..=most.min(MAX_MOVES) {
            self.seen.clear();
            if let Some(m) = self.first_move(0, bound) {
                return Some((m, bound));
            }
            if self.nodes >= MAX_NODES {
                return None;
            }
        }
        None
    }

    /// A move from the current position that fills the goal within `left`
    /// moves (at depth `depth` of the plan).
    fn first_move(&mut self, depth: usize, left: u32) -> Option<Move> {
        let mut moves = std::mem::take(&mut self.buffers[depth]);
        moves.clear();
        self.state.generate_moves(&mut moves);
        moves.retain(|&m| self.goal.useful(m));
        // Entering moves first: they end most plans.
        moves.sort_by_key(|m| {
            m.to()
                .map_or(1, |to| u8::from(self.goal.cells & to.bit() == 0))
        });
        let found = moves
            .iter()
            .copied()
            .find(|&m| self.leads_to_goal(m, depth, left));
        self.buffers[depth] = moves;
        found
    }

    /// Whether playing `m` with `left` moves left reaches the goal in time.
    fn leads_to_goal(&mut self, m: Move, depth: usize, left: u32) -> bool {
        if self.nodes >= MAX_NODES {
            return false;
        }
        self.nodes += 1;
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return false;
        };
        self.state.toggle_pawn(self.seat, from);
        self.state.toggle_pawn(self.seat, to);
        let outside = self.outside();
        let done = outside == 0
            || (outside < left && {
                let key = self.state.key;
                let fresh = self.seen.get(&key).is_none_or(|&l| l < left - 1);
                fresh && {
                    self.seen.insert(key, left - 1);
                    self.first_move(depth + 1, left - 1).is_some()
                }
            });
        self.state.toggle_pawn(self.seat, to);
        self.state.toggle_pawn(self.seat, from);
        done
    }
}

impl Gildervaik {
    /// The shortest plan of `seat` to fill one of its goals within `most`
    /// own moves, the others held still, for the goals with at most
    /// `outside` of his pawns outside: its first move and length.
    fn shortest_finish(&self, seat: Seat, most: u32, outside: u32) -> Option<(Move, u32)> {
        if self.pawns[seat].count_ones() != PAWNS {
            return None;
        }
        Goal::of(seat, self.opts.win_zone)
            .into_iter()
            .filter(|g| (self.pawns[seat] & !g.cells).count_ones() <= outside)
            .filter_map(|g| Solver::new(self, seat, g).shortest(most))
            .min_by_key(|&(_, len)| len)
    }

    /// Conquest: the first move of the mover's shortest finish (see the
    /// module doc), when no rival finishes as soon.
    pub(crate) fn finishing_move(&self) -> Option<Move> {
        if self.opts.mode != Mode::Conquest || self.result.is_some() {
            return None;
        }
        let seat = self.to_move;
        // A pawn at home may face the evacuation rule along the plan.
        if self.pawns[seat] & ZONES[seat] != 0 {
            return None;
        }
        let (first, len) = self.shortest_finish(seat, MAX_MOVES, MAX_OUTSIDE)?;
        // A rival moving after us wins first with fewer moves than ours.
        let rival_first = len > 1
            && self
                .remaining()
                .filter(|&r| r != seat)
                .any(|r| self.shortest_finish(r, len - 1, len - 1).is_some());
        (!rival_first).then_some(first)
    }
}

impl Goal {
    /// Steps that bring `pawns` into the goal, other pawns ignored.
    fn race(&self, pawns: u128) -> u32 {
        Cells(pawns).map(|x| u32::from(self.distance(x.id()))).sum()
    }

    /// Steps from every cell to a cell of the goal that no wall fills,
    /// never through a wall (`u8::MAX`: no way).
    fn distances_around(&self, walls: u128) -> [u8; CELLS] {
        let mut dist = [u8::MAX; CELLS];
        let mut front = self.cells & !walls;
        let mut reached = front;
        let mut d = 0;
        while front != 0 {
            let mut next = 0;
            for x in Cells(front) {
                dist[x.id()] = d;
                next |= NEIGHBOURS[x.id()];
            }
            front = next & !reached & !walls;
            reached |= front;
            d += 1;
        }
        dist
    }

    /// Whether `m` gives ground: a pawn outside the goal goes farther from
    /// its free cells, every other pawn counted as a wall. A pawn stepping
    /// back to go round a pawn, its own ones included, does not: with the
    /// distance that ignores pawns, races of the 21 that were won no
    /// longer were (a pawn facing a crowded door must take another). Pawns
    /// inside may go anywhere: one may have to step aside, even out, to
    /// let the last ones in.
    fn gives_ground(&self, m: Move, occupied: u128) -> bool {
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return false;
        };
        if self.cells & from.bit() != 0 {
            return false;
        }
        let dist = self.distances_around(occupied & !from.bit());
        dist[from.id()] != u8::MAX && dist[to.id()] > dist[from.id()]
    }
}

impl Gildervaik {
    /// The goal of `seat` with the shortest race (see [`Goal::race`]) and
    /// that race.
    fn best_race(&self, seat: Seat) -> Option<(Goal, u32)> {
        Goal::of(seat, self.opts.win_zone)
            .into_iter()
            .map(|g| (g, g.race(self.pawns[seat])))
            .min_by_key(|&(_, race)| race)
    }

    /// Conquest: whether `m` gives ground (see [`Goal::gives_ground`]) in a
    /// race the mover has won: every rival's race (in steps) more than
    /// twice his. The mover needs at most a move a step, unblocked; a
    /// rival at least a move for two steps, unless his jumps chain. In such
    /// a race a pawn never needs to run back (sideways moves stay allowed),
    /// yet MCTS, seeing every move win, ranked some first, for what they
    /// did to a rival's race or by noise, and won races took more than
    /// their 24 turns (docs/benchmarks.md).
    pub(crate) fn is_retreat(&self, m: Move) -> bool {
        if self.opts.mode != Mode::Conquest || self.result.is_some() {
            return false;
        }
        let seat = self.to_move;
        if self.pawns[seat].count_ones() != PAWNS {
            return false;
        }
        let Some((goal, mine)) = self.best_race(seat) else {
            return false;
        };
        let won = self
            .remaining()
            .filter(|&r| r != seat)
            .all(|r| self.best_race(r).is_none_or(|(_, race)| race > 2 * mine));
        won && goal.gives_ground(m, self.occupied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use tabula_core::{Game, Outcome, Player};

    fn at(text: &str) -> Gildervaik {
        Gildervaik::from_position(&Options::default(), text).expect("position")
    }

    /// Play the finishing moves of `seat` alone (the others pass in
    /// thought): the number of moves to the win.
    fn moves_to_win(mut g: Gildervaik) -> Option<u32> {
        let seat = g.to_move;
        for n in 1..=MAX_MOVES {
            let m = g.finishing_move()?;
            assert!(g.actions_here().contains(&m), "{m:?} illegal");
            g.play(m);
            if g.outcome() == Some(Outcome::Win(Player(seat as u8))) {
                return Some(n);
            }
            g.set_side(seat);
        }
        None
    }

    #[test]
    fn the_one_winning_step_is_found() {
        // Spec example E5: h12-h13 puts the tenth pawn in zone B.
        let g = at("A:g13,h12,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / A");
        let m = g.finishing_move().expect("a finish");
        assert_eq!(g.action_text(m), "h12-h13");
    }

    #[test]
    fn a_door_blocked_by_own_pawns_is_cleared_in_the_fewest_moves() {
        // B (zone C: g1, h1-h3, i1-i5, j1-j7) has eight pawns in; g2 waits
        // behind its own g1 and h2, h4 at the free door h3 (the position
        // where MCTS shuffled for 24 turns). Three moves: g2-i6 (a long
        // jump over C's g4), i6-i5 and h4-h3; clearing g1 would take four.
        let g = at("A:e9,h12,h13,h14,h15,i14,i16,j15,j16,j18 \
                    B:g1,g2,h2,h4,i1,i2,i4,j1,j3,j6 \
                    C:b1,c2,c3,c4,c5,e5,e7,g4,g9,i8 / B ply=217 turns=73,72,72");
        let (_, len) = g
            .shortest_finish(1, MAX_MOVES, MAX_OUTSIDE)
            .expect("a plan");
        assert_eq!(len, 3);
        assert_eq!(moves_to_win(g), Some(3));
    }

    #[test]
    fn a_rival_who_finishes_sooner_leaves_the_choice_to_the_search() {
        // A needs two moves (h12-h13 and j12-j13 into zone B); C, moving
        // after A, needs one (e6-d5 into zone A): no plan is played for A.
        let g = at("A:g13,h12,h14,h15,i14,i15,i16,i17,j12,j15 \
                    B:a1 C:c1,c2,c3,c4,c5,d1,d2,d3,d4,e6 / A");
        assert_eq!(
            g.shortest_finish(0, MAX_MOVES, MAX_OUTSIDE).map(|p| p.1),
            Some(2)
        );
        assert_eq!(g.shortest_finish(2, 1, 1).map(|p| p.1), Some(1));
        assert_eq!(g.finishing_move(), None);
    }

    #[test]
    fn in_a_won_race_running_back_is_a_retreat() {
        // A (zone C: g1, h1-h3, i1-i5, j1-j7) is 7 steps from the win; B,
        // 22 from zone A, is out of the race, and C is gone.
        let won = "A:j9,j10,h5,i1,j1,j2,j3,j4,j5,j6 B:a1,c3,d1,d3,e6,e9,f2,f5,g10,h2 \
                   / A ply=326 turns=119,119,88";
        let retreat = |g: &Gildervaik, text: &str| {
            let m = g.parse_action(text).expect("legal");
            g.is_retreat(m)
        };
        let g = at(won);
        assert!(retreat(&g, "j10-j11"), "an outside pawn goes farther");
        assert!(retreat(&g, "h5-h6"), "an outside pawn goes farther");
        for nearer in ["j9-j8", "h5-h4", "h5-i6"] {
            assert!(!retreat(&g, nearer), "{nearer} comes nearer");
        }
        for aside in ["j6-j7", "i1-i2"] {
            assert!(!retreat(&g, aside), "{aside}: an inside pawn makes way");
        }
        // B's last pawn, j8, faces A's j7 and its own i5: going round by i7
        // and h5 to the free h3 is no retreat.
        let walled = at("A:e8,g13,h15,i14,i16,j6,j7,j14,j16,j19 \
                         B:h1,h2,i1,i3,i5,j1,j3,j4,j5,j8 \
                         C:b1,b2,c3,d5,f8,g4,g8,h7,h11,i10 / B ply=217 turns=73,72,72");
        assert!(!retreat(&walled, "j8-i7"));
        assert!(retreat(&walled, "j8-j9"));
        // B 9 steps from zone A: the race is not won, nothing is ruled out.
        let close = at("A:j9,j10,h5,i1,j1,j2,j3,j4,j5,j6 B:a1,b1,b2,b3,c1,c2,c3,d1,f6,g9 / A");
        assert!(!retreat(&close, "j10-j11"));
        // Warrior mode knows no races.
        let warrior = Options {
            mode: Mode::Warrior,
            ..Options::default()
        };
        let warrior = Gildervaik::from_position(&warrior, won).expect("position");
        assert!(!retreat(&warrior, "j10-j11"));
    }

    /// Along random games, in both win-zone rules: every plan's first
    /// move is legal, and a plan of one move wins at once.
    #[test]
    fn every_plan_starts_with_a_legal_move_and_one_move_plans_win() {
        use rand::{rngs::SmallRng, Rng, SeedableRng};
        use tabula_core::Evaluate;
        for (seed, win_zone) in [(1, WinZone::Same), (2, WinZone::Either)] {
            let opts = Options {
                win_zone,
                ..Options::default()
            };
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut g = Gildervaik::start(opts);
            let mut plans = 0;
            while g.outcome().is_none() {
                if let Some(m) = g.finishing_move() {
                    plans += 1;
                    assert!(g.actions_here().contains(&m), "{}", g.position());
                    let seat = g.side_to_move();
                    if g.shortest_finish(seat, 1, 1).is_some() {
                        let mut won = g.clone();
                        won.play(m);
                        assert_eq!(won.outcome(), Some(Outcome::Win(Player(seat as u8))));
                    }
                }
                // Greedy on the evaluation, one move in four random:
                // races that reach their ends.
                let moves = g.actions_here();
                let me = Player(g.side_to_move() as u8);
                let a = if rng.gen_range(0..4) == 0 {
                    moves[rng.gen_range(0..moves.len())]
                } else {
                    let after = |&m: &Move| {
                        let mut next = g.clone();
                        next.apply(m);
                        next.evaluate(me)
                    };
                    *moves
                        .iter()
                        .max_by(|x, y| after(x).total_cmp(&after(y)))
                        .expect("a move")
                };
                g.apply(a);
            }
            assert!(plans > 0, "{win_zone:?}: no plan in a whole game");
        }
    }

    #[test]
    fn no_plan_beyond_the_horizon_nor_in_warrior_mode() {
        assert_eq!(Gildervaik::start(Options::default()).finishing_move(), None);
        let warrior = Options {
            mode: Mode::Warrior,
            ..Options::default()
        };
        let g = Gildervaik::from_position(
            &warrior,
            "A:g13,h12,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / A",
        )
        .expect("position");
        assert_eq!(g.finishing_move(), None);
    }
}
