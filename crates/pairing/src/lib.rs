//! Tournament pairing and standings for Tabula, independent of any game and of
//! the server: Swiss for two-player games, Arena (pair players as they become
//! free, Lichess-style scoring with streaks), and rounds of three-player tables
//! for Gildervaik. Every function is pure: the same players and past rounds
//! always give the same pairing, so a pairing can be tested and audited.
//! `docs/tournaments.md` describes the algorithms, tie-breaks and byes.

pub mod arena;
pub mod error;
mod matching;
pub mod player;
pub mod score;
pub mod standings;
pub mod swiss;
pub mod tables;

pub use error::PairingError;
pub use player::{Player, PlayerId};
pub use score::Score;
pub use standings::{Standing, TieBreak};
