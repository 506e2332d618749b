//! What kind of game a state belongs to, found by looking at play rather
//! than at the game's name: the number of seats and whether dice are
//! thrown. Levels pick their agent from it, and agents that cannot play a
//! kind of game say so.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabula_core::{Error, Game, Turn};

/// How many actions of random play are watched for a chance node: dice
/// games throw them from the first turn, and the probe runs inside the
/// first decision's time budget.
const PROBE_ACTIONS: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClass {
    pub players: usize,
    pub chance: bool,
}

impl GameClass {
    /// Probe a random game from the start position (or from `state` when
    /// the start cannot be built).
    pub fn of<G: Game>(state: &G) -> GameClass {
        let mut rng = SmallRng::seed_from_u64(0x5eed);
        let start = G::new_game(state.options()).unwrap_or_else(|_| state.clone());
        GameClass {
            players: state.num_players(),
            chance: meets_chance(start, &mut rng),
        }
    }

    /// Whether the two-player deterministic searcher (alpha-beta) fits.
    pub fn require_two_player(self, agent: &str, deterministic: bool) -> Result<(), Error> {
        if self.players != 2 {
            return Err(Error::spec(format!(
                "agent `{agent}` needs a two-player game; this one has {} players (try `mcts`)",
                self.players
            )));
        }
        if deterministic && self.chance {
            return Err(Error::spec(format!(
                "agent `{agent}` needs a game without dice (try `expectimax` or `mcts`)"
            )));
        }
        Ok(())
    }
}

fn meets_chance<G: Game>(mut g: G, rng: &mut SmallRng) -> bool {
    let mut actions = Vec::new();
    for _ in 0..PROBE_ACTIONS {
        match g.turn() {
            Turn::Chance => return true,
            Turn::Over => return false,
            Turn::Player(_) => {
                g.legal_actions(&mut actions);
                if actions.is_empty() {
                    return false;
                }
                g.apply(actions[rng.gen_range(0..actions.len())]);
            }
        }
    }
    false
}
