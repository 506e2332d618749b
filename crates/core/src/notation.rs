//! Generic helpers for action text.

use crate::error::Error;
use crate::game::{Game, Turn};

/// Find the legal action (or chance outcome) whose text is `text`.
/// Comparison ignores surrounding white space and ASCII case.
pub fn parse_by_listing<G: Game>(game: &G, text: &str) -> Result<G::Action, Error> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::empty_action());
    }
    if game.turn() == Turn::Over {
        return Err(Error::game_over(text));
    }
    game.actions_here()
        .into_iter()
        .find(|&a| game.action_text(a).eq_ignore_ascii_case(text))
        .ok_or_else(|| Error::not_legal(text))
}
