//! Games in progress, after lila's `round` module.
//!
//! - [`state`]: one game as pure logic: commands planned into changes;
//! - [`finish`]: how games end, and the one event that says so;
//! - [`actor`]: the one owner of each live game, a task fed by a channel;
//! - [`live`]: the live games by id, loaded on demand and dropped when
//!   idle (lila's `GameProxy`);
//! - [`repo`]: how games are stored and rebuilt (lila's `GameRepo`);
//! - [`service`]: the module's door, [`Rounds`] (lila's `RoundApi`).

pub mod actor;
pub mod clock;
pub mod error;
pub mod finish;
mod hints;
pub mod live;
pub mod repo;
pub mod seat;
pub mod service;
pub mod state;
pub mod view;

pub use error::RoundError;
pub use finish::{EndReason, Ending, Finisher, GameEnded};
pub use state::{Caller, ChatLine, Command, Entry, Meta, Reply, Room, Round, Seat, SeatKind};

pub use live::{RoundHandle, INBOX};
pub use service::{Creator, Rounds, LIST_LIMIT};
pub use state::Rebind;

/// Whether a person plays one of `seats` (else the game is a demo: AI
/// against AI, which thinks only while watched).
pub fn has_human_seat(seats: &[Seat]) -> bool {
    seats.iter().any(|s| s.kind == SeatKind::Human)
}

/// The key that names a command's sender in rate limits and the AI pool's
/// fair share: their first identity, else their seat token's hash.
pub fn sender_key(caller: &Caller) -> String {
    caller
        .ids
        .first()
        .map(|id| id.to_string())
        .unwrap_or_else(|| crate::common::hash_token(&caller.token))
}
