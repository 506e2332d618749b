//! Dragonchess (Gary Gygax, Dragon #100, 1985), as specified in
//! `docs/rules/reference/dragonchess.md`: three 12x8 levels (Sky, Ground,
//! Underworld), 42 pieces a side of 15 kinds, check across levels, the
//! Basilisk's freeze and the Dragon's capture from afar.
//!
//! `Dragonchess` implements [`tabula_core::Game`] (name `dragonchess`,
//! `Player(0)` = Gold, `Player(1)` = Scarlet) and [`tabula_core::Evaluate`].
//! Positions use the spec's FEN-like string, moves the long notation
//! `W2e2-2e3`. Move generation is exact and fast: 288-bit square sets (a
//! `u128` per level), precomputed step tables, pins instead of replaying
//! most moves, and an incremental Zobrist hash.

mod attack;
mod eval;
mod game;
pub mod geometry;
mod history;
mod movegen;
pub mod moves;
mod options;
pub mod piece;
mod position;
mod render;
mod rules;
mod setwise;
mod state;
mod tables;

pub use eval::value;
pub use geometry::{Bits, Side, Square};
pub use moves::Move;
pub use options::Options;
pub use piece::{Kind, Piece};
pub use position::START;
pub use rules::Status;
pub use state::Dragonchess;

/// Display title for menus.
pub const TITLE: &str = "Dragonchess";
/// One or two sentences for menus and `tabula games`.
pub const DESCRIPTION: &str = "Gary Gygax's three-level chess (1985): Sky, Ground and \
    Underworld boards, 42 pieces a side from Sylphs to Dragons, checkmate the King across levels.";
