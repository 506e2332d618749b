//! Stateless replay: a game spec, a position and actions in, the state
//! they lead to out. The server's `POST /api/position` answers with it, and
//! the lessons and puzzles build on it.

use crate::{MAX_ACTIONS, MAX_ACTION_LEN, MAX_POSITION_LEN, MAX_SPEC_LEN};
use serde::{Deserialize, Serialize};
use tabula_core::{ActionFacts, AnyGame, Error, ErrorKind, Outcome, Registry, Turn};

/// One action played, with what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Its canonical text.
    pub action: String,
    /// The seat that played it (from 0); `None` for a roll of the dice.
    pub seat: Option<usize>,
    pub facts: ActionFacts,
}

/// The state a replay reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replayed {
    /// The canonical spec of the game.
    pub spec: String,
    pub position: String,
    /// `player`, `chance` or `over`.
    pub turn: String,
    /// The seat to move (from 0) when a player is.
    pub to_move: Option<usize>,
    /// The legal actions of the player to move (empty otherwise).
    pub legal: Vec<String>,
    /// The dice's outcomes with their probabilities at a chance node.
    pub chance: Vec<(String, f64)>,
    /// The result once over, as records write it (`win 1`, `draw 1,2`).
    pub result: Option<String>,
    /// The actions given, canonical, with their facts.
    pub steps: Vec<Step>,
}

/// Refuse input beyond the documented bounds before any work is done.
pub fn check_bounds(spec: &str, position: Option<&str>, actions: &[String]) -> Result<(), Error> {
    let too_long = |what: &str, max: usize| {
        Error::new(
            ErrorKind::Spec,
            format!("{what} is too long (at most {max})"),
        )
    };
    if spec.len() > MAX_SPEC_LEN {
        return Err(too_long("the spec", MAX_SPEC_LEN));
    }
    if position.is_some_and(|p| p.len() > MAX_POSITION_LEN) {
        return Err(too_long("the position", MAX_POSITION_LEN));
    }
    if actions.len() > MAX_ACTIONS {
        return Err(too_long("the list of actions", MAX_ACTIONS));
    }
    if actions.iter().any(|a| a.len() > MAX_ACTION_LEN) {
        return Err(too_long("an action", MAX_ACTION_LEN));
    }
    Ok(())
}

/// The seat to move, if a player is.
pub fn seat_to_move(game: &dyn AnyGame) -> Option<usize> {
    match game.turn() {
        Turn::Player(p) => Some(p.index()),
        _ => None,
    }
}

/// Play one action (a player's or a roll), returning its step. On error
/// nothing changes.
pub fn play(game: &mut dyn AnyGame, action: &str) -> Result<Step, Error> {
    let seat = seat_to_move(game);
    let played = game.play_text(action)?;
    Ok(Step {
        action: played.text,
        seat,
        facts: played.facts,
    })
}

/// What `game` looks like now, with `steps` the actions that led here.
pub fn describe(game: &dyn AnyGame, steps: Vec<Step>) -> Replayed {
    let turn = match game.turn() {
        Turn::Player(_) => "player",
        Turn::Chance => "chance",
        Turn::Over => "over",
    };
    Replayed {
        spec: game.spec().to_string(),
        position: game.position(),
        turn: turn.to_string(),
        to_move: seat_to_move(game),
        legal: if seat_to_move(game).is_some() {
            game.legal_actions()
        } else {
            Vec::new()
        },
        chance: game.chance_outcomes(),
        result: game.outcome().map(Outcome::to_text),
        steps,
    }
}

/// Replay `actions` from `position` (the start when `None`) of the game
/// `spec`. An illegal action is an error naming its index (from 0).
pub fn replay(
    registry: &Registry,
    spec: &str,
    position: Option<&str>,
    actions: &[String],
) -> Result<Replayed, Error> {
    let (game, steps) = reach(registry, spec, position, actions)?;
    Ok(describe(game.as_ref(), steps))
}

/// The game `actions` lead to from `position`, and their steps: what
/// [`replay`] describes, kept as a game for callers that search it (the
/// analysis board's engine lines).
pub fn reach(
    registry: &Registry,
    spec: &str,
    position: Option<&str>,
    actions: &[String],
) -> Result<(Box<dyn AnyGame>, Vec<Step>), Error> {
    check_bounds(spec, position, actions)?;
    let mut game = registry.create(spec, position)?;
    let mut steps = Vec::with_capacity(actions.len());
    for (i, action) in actions.iter().enumerate() {
        let step = play(game.as_mut(), action)
            .map_err(|e| Error::new(e.kind, format!("action {i} `{action}`: {}", e.message)))?;
        steps.push(step);
    }
    Ok((game, steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_and_refuses() {
        let reg = tabula_games::registry();
        let r = replay(&reg, "gildervaik", None, &[]).unwrap();
        assert_eq!(r.turn, "player");
        assert_eq!(r.to_move, Some(0));
        assert!(!r.legal.is_empty());
        let first = r.legal[0].clone();
        let r2 = replay(&reg, "gildervaik", None, std::slice::from_ref(&first)).unwrap();
        assert_eq!(r2.steps[0].action, first);
        assert_eq!(r2.to_move, Some(1));
        let bad = replay(&reg, "gildervaik", None, &["zz9-zz10".to_string()]).unwrap_err();
        assert!(bad.message.starts_with("action 0"));
        let long = vec!["pass".to_string(); MAX_ACTIONS + 1];
        assert!(replay(&reg, "gildervaik", None, &long).is_err());
    }
}
