//! Uniformly random play: the floor every other agent must beat.

use crate::agent::{Agent, Decision};
use crate::budget::{Budget, Limits};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use tabula_core::{Error, Game};

pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn default_limits(&self) -> Limits {
        Limits::iterations(1)
    }

    fn decide(&mut self, state: &G, _budget: &Budget) -> Result<Decision<G>, Error> {
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let &a = actions
            .choose(&mut self.rng)
            .ok_or_else(|| Error::illegal("no legal action"))?;
        Ok(Decision::bare(a, 0.5, 1))
    }
}
