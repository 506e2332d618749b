//! Playout policies: uniformly random to the end (plain UCT), or guided by
//! the game's playout weights and cut off by its evaluation.

use crate::value::{eval_returns, outcome_returns, Centre, Returns};
use rand::Rng;
use tabula_core::{Evaluate, Turn};

/// Player actions of a guided playout before the evaluation takes over.
/// Short on purpose: in race games (Gildervaik) a few random actions
/// already drown the evaluation in noise (measured: 2 beats 0, 4 and 16).
const GUIDED_CUTOFF: u32 = 2;

#[derive(Clone, Debug)]
pub struct Playout {
    /// Pick actions in proportion to `Evaluate::playout_weight`.
    weighted: bool,
    /// Player actions before the evaluation replaces the rest of the game.
    cutoff: Option<u32>,
}

impl Playout {
    pub fn random() -> Self {
        Playout {
            weighted: false,
            cutoff: None,
        }
    }

    pub fn guided() -> Self {
        Playout {
            weighted: true,
            cutoff: Some(GUIDED_CUTOFF),
        }
    }

    pub fn uses_knowledge(&self) -> bool {
        self.weighted
    }

    /// Play `g` out and return every seat's points (estimated at a cutoff,
    /// measured from `centre`).
    pub fn run<G: Evaluate, R: Rng>(
        &self,
        g: &mut G,
        players: usize,
        centre: &Centre,
        rng: &mut R,
        actions: &mut Vec<G::Action>,
        outcomes: &mut Vec<(G::Action, f64)>,
    ) -> Returns {
        let mut decisions = 0;
        for _ in 0..g.max_game_actions() {
            match g.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    // The draw of `rng.gen::<f64>()`, as its bits (no floating point).
                    let Some(a) = g.pick_chance_bits(rng.next_u64(), outcomes) else {
                        break;
                    };
                    g.apply(a);
                }
                Turn::Player(_) => {
                    if self.cutoff.is_some_and(|c| decisions >= c) {
                        return eval_returns(g, players, centre);
                    }
                    g.legal_actions(actions);
                    if actions.is_empty() {
                        break;
                    }
                    let a = if self.weighted {
                        weighted_pick(g, actions, rng)
                    } else {
                        actions[rng.gen_range(0..actions.len())]
                    };
                    g.apply(a);
                    decisions += 1;
                }
            }
        }
        match g.outcome() {
            Some(o) => outcome_returns(o, players),
            None => eval_returns(g, players, centre),
        }
    }
}

fn weighted_pick<G: Evaluate, R: Rng>(g: &G, actions: &[G::Action], rng: &mut R) -> G::Action {
    let total: f32 = actions.iter().map(|&a| g.playout_weight(a).max(0.0)).sum();
    if total > 0.0 {
        let mut x = rng.gen_range(0.0..total);
        for &a in actions {
            x -= g.playout_weight(a).max(0.0);
            if x < 0.0 {
                return a;
            }
        }
    }
    actions[rng.gen_range(0..actions.len())]
}
