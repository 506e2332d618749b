//! One-ply greedy play: the action whose resulting position the game's
//! evaluation likes best for the mover (a win beats everything).

use crate::agent::{Agent, Decision};
use crate::budget::{Budget, Limits};
use crate::value::win_probability;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Error, Evaluate, Turn};

/// Random noise added to values so that equal actions are picked evenly.
const TIE_NOISE: f32 = 1e-4;

pub struct GreedyAgent {
    rng: SmallRng,
}

impl GreedyAgent {
    pub fn new(seed: u64) -> Self {
        GreedyAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Evaluate> Agent<G> for GreedyAgent {
    fn name(&self) -> &str {
        "greedy"
    }

    fn default_limits(&self) -> Limits {
        Limits::default()
    }

    fn decide(&mut self, state: &G, _budget: &Budget) -> Result<Decision<G>, Error> {
        let Turn::Player(me) = state.turn() else {
            return Err(Error::illegal("no player to move"));
        };
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        // (action, rank key, value): a decided game ranks outside the
        // evaluations, whose win probability can round to exactly 0 or 1.
        let mut scored: Vec<(G::Action, f32, f32)> = actions
            .iter()
            .map(|&a| {
                let mut child = state.clone();
                child.apply(a);
                let (key, value) = match child.outcome() {
                    Some(o) => {
                        let v = o.score(me) as f32;
                        let key = if v >= 1.0 {
                            2.0
                        } else if v <= 0.0 {
                            -1.0
                        } else {
                            v
                        };
                        (key, v)
                    }
                    None => {
                        let v = win_probability(child.evaluate(me));
                        (v, v)
                    }
                };
                (a, key + self.rng.gen_range(0.0..TIE_NOISE), value)
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        let &(action, _, value) = scored
            .first()
            .ok_or_else(|| Error::illegal("no legal action"))?;
        Ok(Decision {
            action,
            value,
            pv: vec![action],
            nodes: actions.len() as u64,
            depth: Some(1),
            exact: scored.len(),
            ranked: scored.into_iter().map(|(a, _, v)| (a, v)).collect(),
            seats: None,
        })
    }
}
