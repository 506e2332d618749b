//! The AI seats and hints: the one place that asks an agent for a move.
//! Called on a blocking thread (an agent thinks for up to its level's
//! budget).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use tabula_ai::{AiLevel, Limits};
use tabula_core::{AnyGame, Error};

/// Hints come from the strongest level, which never blunders on purpose
/// (lower levels do, in dice games at every level but the top), given
/// less time than a level 8 move.
const HINT_TIME: Duration = Duration::from_millis(400);

/// An agent's answer: its move and its ranking of the moves it considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    pub action: String,
    /// Moves with their expected score for the mover, best first.
    pub ranked: Vec<(String, f32)>,
}

/// The move of the agent `level` in `game`. A game without an AI (one
/// outside `tabula_games`, as in tests), or whose agent fails, gets a
/// uniformly random move: an AI seat never leaves a game stuck.
pub fn choose(game: &dyn AnyGame, level: AiLevel, seed: u64) -> Result<Pick, Error> {
    choose_within(game, level, seed, &Limits::default())
}

/// The best moves for the player to move, for a hint.
pub fn hint(game: &dyn AnyGame, seed: u64) -> Result<Pick, Error> {
    choose_within(game, AiLevel::STRONGEST, seed, &Limits::time(HINT_TIME))
}

fn choose_within(
    game: &dyn AnyGame,
    level: AiLevel,
    seed: u64,
    limits: &Limits,
) -> Result<Pick, Error> {
    let chosen = tabula_games::make_agent(game, level, seed)
        .and_then(|mut agent| agent.choose(game, limits));
    match chosen {
        Ok(c) => Ok(Pick {
            action: c.action,
            ranked: c.ranked,
        }),
        Err(e) => {
            if !e.message.starts_with("no AI player") {
                tracing::warn!("AI {level} failed ({e}); playing a random move");
            }
            random_pick(game, seed)
        }
    }
}

/// The outcome of the chance node `game` is at, drawn with `seed`.
pub fn roll(game: &dyn AnyGame, seed: u64) -> Option<String> {
    game.sample_chance(&mut SmallRng::seed_from_u64(seed))
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
