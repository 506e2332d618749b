//! Phylde: two armies of 37 on an 18×18 goban. A turn moves up to five
//! soldiers, two archers, one cavalier, or the King (which stands on a
//! point and keeps its four squares free); a King falls when four distinct
//! enemies attack its four squares. Rules: `docs/rules/reference/phylde.md`.
//!
//! One `Action` is one piece action or `end`; the turn in progress is part
//! of the position (`TurnState`), so search sees a turn as several plies of
//! the same player.

mod action;
mod eval;
mod fen;
mod game;
mod geometry;
mod movegen;
mod notation;
mod options;
mod pieces;
mod render;
mod state;
mod surround;
mod turns;
mod zobrist;

pub use action::Action;
pub use geometry::{Pt, Sq};
pub use notation::{format_turn, parse_turn, turn_records};
pub use options::{Options, Setup};
pub use pieces::{Bits, Kind, Side};
pub use state::{Phylde, TurnState};
pub use turns::{whole_turns, TurnList, WholeTurn};

/// Display title for menus.
pub const TITLE: &str = "Phylde";

/// One or two sentences for `tabula games`.
pub const DESCRIPTION: &str = "Two armies on an 18x18 goban: each turn moves up to 5 soldiers, \
     2 archers, 1 cavalier or the King; surround the enemy King's four squares with four attackers.";
