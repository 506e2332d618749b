//! A check of the lines the search reports, for the games' tests (issue
//! 39): a line that ends in a draw, by the game's rules or by a position
//! repeating along it (which the search scores as a draw), must carry the
//! draw's score, never a win that an entry of the table stored under
//! another history made up.

use super::{SearchConfig, Searcher};
use crate::budget::{Budget, Limits};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Evaluate, Turn};

/// One searcher kept from decision to decision, as a player keeps it
/// through a game (its table carries over), checking every line it reports.
pub struct LineCheck<G: Evaluate> {
    searcher: Searcher<G>,
    limits: Limits,
    /// Lines seen ending in a draw (each scored as the draw).
    pub drawn: usize,
}

impl<G: Evaluate> LineCheck<G> {
    /// The game's two-player search (alpha-beta, or expectimax with dice)
    /// at `nodes` nodes a decision, on one thread: the same on any machine.
    pub fn new(sample: &G, nodes: u64) -> Self {
        let cfg = if sample.game_type().chance {
            SearchConfig::expectimax()
        } else {
            SearchConfig::alphabeta()
        };
        LineCheck {
            searcher: Searcher::new(cfg, sample),
            limits: Limits::iterations(nodes),
            drawn: 0,
        }
    }

    /// Search `g` (a player to move): its best action, or what is wrong
    /// with the line reported.
    pub fn search(&mut self, g: &G) -> Result<G::Action, String> {
        let budget = Budget::new(&self.limits, &Limits::default());
        let r = self
            .searcher
            .search(g, &budget)
            .map_err(|e| e.to_string())?;
        let (best, score) = r.ranked[0];
        if ends_in_draw(g, &r.pv) {
            self.drawn += 1;
            if score != self.searcher.draw {
                let line: Vec<String> = line_text(g, &r.pv);
                return Err(format!(
                    "at `{}` the line `{}` ends in a draw (score {}) but is scored {score}",
                    g.position(),
                    line.join(" "),
                    self.searcher.draw
                ));
            }
        }
        Ok(best)
    }

    /// Play `plies` actions from `start`, this searcher choosing every
    /// player's action and `seed` the dice: the number of searches, or the
    /// first wrong line.
    pub fn self_play(&mut self, start: &G, plies: usize, seed: u64) -> Result<usize, String> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = start.clone();
        let mut buf = Vec::new();
        let mut searches = 0;
        for _ in 0..plies {
            let a = match g.turn() {
                Turn::Over => break,
                Turn::Chance => match g.pick_chance_at(rng.gen(), &mut buf) {
                    Some(a) => a,
                    None => break,
                },
                Turn::Player(_) => {
                    searches += 1;
                    self.search(&g)?
                }
            };
            g.apply(a);
        }
        Ok(searches)
    }
}

/// Whether `line` from `root` ends in a draw by the rules, or in a player
/// position met before on it (the root included), as the search sees it.
fn ends_in_draw<G: Evaluate>(root: &G, line: &[G::Action]) -> bool {
    let mut g = root.clone();
    let mut seen = vec![root.hash()];
    for &a in line {
        g.apply(a);
        match g.turn() {
            Turn::Over => {
                return g.outcome().is_none_or(|o| {
                    o.score(tabula_core::Player(0)) == o.score(tabula_core::Player(1))
                })
            }
            Turn::Chance => return false,
            Turn::Player(_) if seen.contains(&g.hash()) => return true,
            Turn::Player(_) => seen.push(g.hash()),
        }
    }
    false
}

fn line_text<G: Evaluate>(root: &G, line: &[G::Action]) -> Vec<String> {
    let mut g = root.clone();
    line.iter()
        .map(|&a| {
            let t = g.action_text(a);
            g.apply(a);
            t
        })
        .collect()
}
