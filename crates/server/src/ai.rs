//! The AI seats and hints: the one place that asks an agent for a move.
//! Called on a blocking thread (an agent thinks for up to its level's
//! budget).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use tabula_ai::Limits;
use tabula_core::{AnyGame, Error};

/// Levels offered in the UI, weakest first.
pub const LEVELS: &[&str] = &[
    "random", "level1", "level2", "level3", "level4", "level5", "level6", "level7", "level8",
];

/// Hints come from the strongest level, which never blunders on purpose
/// (lower levels do, in dice games at every level but the top), given
/// less time than a level 8 move.
const HINT_LEVEL: &str = "level8";
const HINT_TIME: Duration = Duration::from_millis(400);

/// An agent's answer: its move and its ranking of the moves it considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub action: String,
    /// Moves with their expected score for the mover, best first.
    pub ranked: Vec<(String, f32)>,
}

pub fn check_level(level: &str) -> Result<(), Error> {
    if LEVELS.contains(&level) {
        Ok(())
    } else {
        Err(Error::spec(format!(
            "unknown AI level `{level}` (valid: {})",
            LEVELS.join(", ")
        )))
    }
}

/// The move of the agent `level` in `game`. A game without an AI (one
/// outside `tabula_games`, as in tests), or whose agent fails, gets a
/// uniformly random move: an AI seat never leaves a game stuck.
pub fn choose(game: &dyn AnyGame, level: &str, seed: u64) -> Result<Pick, Error> {
    choose_within(game, level, seed, &Limits::default())
}

/// The best moves for the player to move, for a hint.
pub fn hint(game: &dyn AnyGame, seed: u64) -> Result<Pick, Error> {
    choose_within(game, HINT_LEVEL, seed, &Limits::time(HINT_TIME))
}

fn choose_within(
    game: &dyn AnyGame,
    level: &str,
    seed: u64,
    limits: &Limits,
) -> Result<Pick, Error> {
    check_level(level)?;
    let chosen =
        tabula_games::agent(game, level, seed).and_then(|mut agent| agent.choose(game, limits));
    match chosen {
        Ok(c) => Ok(Pick {
            action: c.action,
            ranked: c.ranked,
        }),
        Err(e) => {
            if !e.message.starts_with("no AI player") {
                eprintln!("tabula: AI {level} failed ({e}); playing a random move");
            }
            random_pick(game, seed)
        }
    }
}

/// The outcome of the chance node `game` is at, drawn with `seed`.
pub fn roll(game: &dyn AnyGame, seed: u64) -> Option<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let outcomes = game.chance_outcomes();
    let mut x: f64 = rng.gen();
    for (text, p) in &outcomes {
        if x < *p {
            return Some(text.clone());
        }
        x -= p;
    }
    outcomes.last().map(|o| o.0.clone())
}

fn random_pick(game: &dyn AnyGame, seed: u64) -> Result<Pick, Error> {
    let legal = game.legal_actions();
    if legal.is_empty() {
        return Err(Error::illegal("no legal action to choose from"));
    }
    let action = legal[SmallRng::seed_from_u64(seed).gen_range(0..legal.len())].clone();
    Ok(Pick {
        ranked: vec![(action.clone(), 0.5)],
        action,
    })
}
