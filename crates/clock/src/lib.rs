//! Game clocks for Tabula, game-agnostic and free of any server or timer.
//!
//! Every function takes the time as `now_ms` (milliseconds since the Unix
//! epoch, or any monotonic origin shared by the caller): nothing here reads a
//! clock or sleeps, so every rule is tested with exact timestamps and the
//! state ([`Clocks`]) can be stored and reloaded after a restart.
//!
//! - [`TimeControl`]: real time (base + Fischer increment) or correspondence
//!   (days per turn), with its wire form and limits.
//! - [`Clocks`]: the remaining time of every seat and the running seat.
//! - [`abandon`]: when a silent player's opponent may claim, and when a game
//!   whose first moves never came is aborted.
//!
//! One rule holds everywhere: a limit that ends at instant `t` has passed at
//! `now_ms >= t`. A clock at exactly zero has fallen, and a move that arrives
//! at that very millisecond is refused.

pub mod abandon;
mod clocks;
mod control;

pub use clocks::{ClockError, Clocks, Snapshot};
pub use control::{TimeControl, TimeControlError, CORRESPONDENCE_DAYS, DAY_MS};
