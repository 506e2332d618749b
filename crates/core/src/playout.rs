//! Seeded random playouts: the workhorse of benchmarks and of MCTS.

use crate::game::{Game, Outcome, Turn};
use rand::Rng;

/// Statistics of one playout.
#[derive(Clone, Copy, Debug)]
pub struct PlayoutStats {
    /// Actions played, chance outcomes included.
    pub actions: u64,
    /// Player actions only.
    pub decisions: u64,
    pub outcome: Option<Outcome>,
}

/// Pick a chance outcome according to its probability.
pub fn sample_chance<G: Game, R: Rng + ?Sized>(
    outcomes: &[(G::Action, f64)],
    rng: &mut R,
) -> G::Action {
    let mut x: f64 = rng.gen();
    for &(a, p) in outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// Play uniformly random legal actions (chance by its probabilities) until
/// the game ends or `max_actions` have been played.
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    max_actions: u64,
) -> PlayoutStats {
    let mut actions = Vec::with_capacity(256);
    let mut chances = Vec::with_capacity(32);
    let mut stats = PlayoutStats {
        actions: 0,
        decisions: 0,
        outcome: None,
    };
    while stats.actions < max_actions {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                game.chance_outcomes(&mut chances);
                let a = sample_chance::<G, R>(&chances, rng);
                game.apply(a);
            }
            Turn::Player(_) => {
                game.legal_actions(&mut actions);
                let a = actions[rng.gen_range(0..actions.len())];
                game.apply(a);
                stats.decisions += 1;
            }
        }
        stats.actions += 1;
    }
    stats.outcome = game.outcome();
    stats
}
