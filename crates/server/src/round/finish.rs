//! How games end, and the one event that says so.
//!
//! Every ending goes one way: a change planned by [`super::Round`] (a move
//! that ends the game on the board, or [`super::Round::finish`] for an
//! ending off it), stored, then applied; applying it yields a
//! [`GameEnded`], which the game's owner hands to the [`Finisher`]. Ratings,
//! tournaments and notifications subscribe there (lila's `Finisher`).

use serde::Serialize;
use std::sync::Arc;
use tokio::sync::broadcast;

use crate::protocol::PlayerInfo;

pub use tabula_core::{EndReason, Ending};

/// A game has just ended (emitted once per ending).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameEnded {
    pub id: String,
    pub spec: String,
    pub ending: Ending,
    /// The seats as they were at the end.
    pub seats: Vec<PlayerInfo>,
    /// Seats whose player left before the end (they rank last).
    pub left: Vec<u8>,
    pub ply: usize,
    /// A rated game (ratings subscribe to endings).
    pub rated: bool,
    /// Its time control is by correspondence (its own rating pools).
    pub correspondence: bool,
}

/// Where game endings are announced. Subscribers that fall behind lose the
/// oldest events (and are told so by the channel), never block a game.
#[derive(Clone)]
pub struct Finisher {
    tx: broadcast::Sender<Arc<GameEnded>>,
}

impl Default for Finisher {
    fn default() -> Self {
        Finisher {
            tx: broadcast::channel(1024).0,
        }
    }
}

impl Finisher {
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<GameEnded>> {
        self.tx.subscribe()
    }

    pub(crate) fn announce(&self, ended: GameEnded) {
        let _ = self.tx.send(Arc::new(ended));
    }
}
