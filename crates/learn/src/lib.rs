//! Learning to play: lessons (one short exercise per idea of a game) and
//! puzzles (positions from self-play with one clearly best line), as data
//! files under `learn/`, and the engine's checks of an answer.
//!
//! Everything here speaks the type-erased layer (`AnyGame`, the registry of
//! `tabula-games`), so the CLI, the tests and the server share one reading
//! of the files and one verdict. Only the puzzle generator looks inside a
//! concrete game: Ad Elta Stelpur's, for the AI's evaluation of a roll,
//! and Phylde's, for the pressure on a King that picks the positions worth
//! proving a surround in.

pub mod data;
pub mod generate;
pub mod lesson;
pub mod mate;
pub mod puzzle;
pub mod replay;
pub mod solve;

pub use lesson::{Goal, Lesson, Run, Status, Why, Wrong};
pub use puzzle::{Puzzle, PuzzleRun, PuzzleStatus};
pub use replay::{replay, Replayed, Step};

use serde::{Deserialize, Serialize};

/// A text for people in each language of the web app. Both are required:
/// a lesson file without its French words does not load.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub fr: String,
}

/// The games that have lessons and puzzles, in menu order.
pub const GAMES: [&str; 4] = ["dragonchess", "gildervaik", "phylde", "stelpur"];

/// Most actions a client may send to be replayed in one request: enough
/// for any lesson or puzzle, and for a long game from a position.
pub const MAX_ACTIONS: usize = 1024;
/// Longest action text accepted (Gildervaik's longest chain is far below).
pub const MAX_ACTION_LEN: usize = 128;
/// Longest position string accepted (Phylde's mid-turn FEN is ~200).
pub const MAX_POSITION_LEN: usize = 4096;
/// Longest spec string accepted.
pub const MAX_SPEC_LEN: usize = 256;

/// The destination of an action in its notation: the text after its last
/// `-` or `x`, without a mate mark or a promotion (`G3d5-3b8+` is `3b8+`,
/// `e5xe7xf9` is `f9`, `6:6-12` is `12`, `i1+-i2+` is `i2+`). `None` for an
/// action that moves nothing (a Phylde shot `c3*c5`, `pass`, `end`).
pub fn destination(action: &str) -> Option<&str> {
    if action.contains('*') {
        return None;
    }
    let cut = action.rfind(['-', 'x'])?;
    let to = action[cut + 1..].trim_end_matches('#');
    let to = to.split('=').next().unwrap_or(to);
    (!to.is_empty()).then_some(to)
}

/// Whether `cell` (as a lesson file writes it) is the destination `to`:
/// a check mark `+` may follow a Dragonchess square (`3b8`, which starts
/// with its level), while a Phylde point (`i2+`) keeps its own `+`.
pub fn same_cell(to: &str, cell: &str) -> bool {
    let chess_square = cell.starts_with(|c: char| c.is_ascii_digit()) && !cell.contains('+');
    to.eq_ignore_ascii_case(cell)
        || chess_square
            && to
                .strip_suffix('+')
                .is_some_and(|t| t.eq_ignore_ascii_case(cell))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations() {
        assert_eq!(destination("G3d5-3b8+"), Some("3b8+"));
        assert_eq!(destination("W2c7-2c8=H"), Some("2c8"));
        assert_eq!(destination("e5xe7xf9"), Some("f9"));
        assert_eq!(destination("6:6-12"), Some("12"));
        assert_eq!(destination("i1+-i2+"), Some("i2+"));
        assert_eq!(destination("c3*c5"), None);
        assert_eq!(destination("pass"), None);
        assert!(same_cell("3b8+", "3b8"));
        assert!(same_cell("i2+", "i2+"));
        assert!(!same_cell("i2+", "i2"));
    }
}
