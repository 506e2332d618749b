//! Move ordering: the table's move, then tactical actions (best playout
//! weight first), then killers, then the history heuristic.

use tabula_core::{Evaluate, Player};

const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// History scores are halved when one reaches this, to stay below killers.
const HISTORY_CAP: i32 = 1 << 24;

pub struct Ordering<A> {
    killers: Vec<[Option<A>; 2]>,
    /// Indexed by `player * key_space + action_key`.
    history: Vec<i32>,
    key_space: usize,
}

impl<A: Copy + PartialEq> Ordering<A> {
    pub fn new(key_space: usize, max_ply: usize) -> Self {
        Ordering {
            killers: vec![[None, None]; max_ply + 1],
            history: vec![0; 2 * key_space.max(1)],
            key_space: key_space.max(1),
        }
    }

    /// Forget killers and age history between searches.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h /= 8);
    }

    fn history_index<G: Evaluate<Action = A>>(&self, g: &G, a: A, p: Player) -> usize {
        (p.index() & 1) * self.key_space + g.action_key(a).min(self.key_space - 1)
    }

    /// Fill `scores` with one ordering score per action (higher first).
    pub fn score<G: Evaluate<Action = A>>(
        &self,
        g: &G,
        moves: &[A],
        tt_move: Option<A>,
        ply: usize,
        p: Player,
        scores: &mut Vec<i32>,
    ) {
        scores.clear();
        let killers = self.killers.get(ply).copied().unwrap_or([None, None]);
        scores.extend(moves.iter().map(|&a| {
            if Some(a) == tt_move {
                TT_MOVE
            } else if g.is_tactical(a) {
                TACTICAL + tactical_rank(g, a)
            } else if Some(a) == killers[0] {
                KILLER + 1
            } else if Some(a) == killers[1] {
                KILLER
            } else {
                self.history[self.history_index(g, a, p)]
            }
        }));
    }

    /// A quiet action caused a cutoff at `ply` with `depth` to go.
    pub fn reward<G: Evaluate<Action = A>>(
        &mut self,
        g: &G,
        a: A,
        ply: usize,
        p: Player,
        depth: i32,
    ) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(a) {
                k[1] = k[0];
                k[0] = Some(a);
            }
        }
        let i = self.history_index(g, a, p);
        self.history[i] += depth * depth;
        if self.history[i] >= HISTORY_CAP {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }
}

/// Order among tactical actions: the game's playout weight says which
/// capture is juiciest.
pub fn tactical_rank<G: Evaluate>(g: &G, a: G::Action) -> i32 {
    (g.playout_weight(a).clamp(0.0, 1000.0) * 1000.0) as i32
}

/// Move the best-scored remaining action to position `i` (selection sort:
/// a cutoff usually comes early, so sorting everything is wasted).
pub fn pick_next<A>(moves: &mut [A], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
