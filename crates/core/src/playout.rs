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

/// The chance outcome where the uniform number `x` in `[0, 1)` falls when
/// the outcomes' probabilities are laid end to end in their order; the last
/// outcome when rounding leaves `x` past the end. `None` without outcomes.
///
/// This is Tabula's one way to roll dice: stored games replay their dice
/// from seeds through it, so it must never change.
pub fn pick_chance<A: Copy>(outcomes: &[(A, f64)], x: f64) -> Option<A> {
    let mut x = x;
    for &(a, p) in outcomes {
        if x < p {
            return Some(a);
        }
        x -= p;
    }
    outcomes.last().map(|o| o.0)
}

/// Pick a chance outcome according to its probability, with one uniform
/// draw `rng.gen::<f64>()` (see [`pick_chance`]).
pub fn sample_chance<G: Game, R: Rng + ?Sized>(
    outcomes: &[(G::Action, f64)],
    rng: &mut R,
) -> G::Action {
    pick_chance(outcomes, rng.gen()).expect("a chance node has outcomes")
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

#[cfg(test)]
mod tests {
    use super::pick_chance;

    #[test]
    fn outcomes_are_laid_end_to_end_in_order() {
        let outs = [('a', 0.25), ('b', 0.5), ('c', 0.25)];
        assert_eq!(pick_chance(&outs, 0.0), Some('a'));
        assert_eq!(pick_chance(&outs, 0.249), Some('a'));
        assert_eq!(pick_chance(&outs, 0.25), Some('b'));
        assert_eq!(pick_chance(&outs, 0.75), Some('c'));
        assert_eq!(pick_chance(&outs, 0.999_999), Some('c'));
        // Rounding past the end gives the last outcome; no outcome, none.
        assert_eq!(pick_chance(&[('a', 0.3), ('b', 0.3)], 0.9), Some('b'));
        assert_eq!(pick_chance::<char>(&[], 0.5), None);
    }
}
