//! Gildervaik, the three-player "jeu de dames" of the Danoks, on a triangle
//! of 100 triangular cells (rules: `docs/rules/reference/gildervaik.md`).
//!
//! Three players A, B, C start with ten pawns in their corner zones. In
//! **conquest** mode a pawn steps to a free neighbour or jumps (in chains,
//! long jumps included) over opposing pawns, and the first player to gather
//! all ten pawns in one opposing zone wins. In **warrior** mode jumping over
//! a pawn in the neutral minefield captures it, captures are compulsory and
//! continued, and the last player with pawns wins.
//!
//! Cells are named `a1` (apex) to `j19` (bottom right); moves are written
//! `d7-e8`, `e5xe7xf9` or `pass`.

mod eval;
mod finish;
mod game;
pub mod geometry;
mod jumps;
mod movegen;
mod moves;
mod notation;
pub mod options;
mod position;
mod render;
mod rules;
mod state;

pub use geometry::Cell;
pub use moves::Move;
pub use options::{Mode, Options};
pub use state::{Counters, Gildervaik};

/// Display title for menus.
pub const TITLE: &str = "Gildervaik";

/// One or two sentences for menus and `tabula games`.
pub const DESCRIPTION: &str = "Three players on a triangle of 100 cells. Conquest: jump over \
     opposing pawns to gather all ten of yours in an opposing corner. Warrior: capture in the \
     minefield until you are the last one standing.";
