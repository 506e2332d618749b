//! How games end, and the one event that says so.
//!
//! Every ending goes one way: a change planned by [`super::Round`] (a move
//! that ends the game on the board, or [`super::Round::finish`] for an
//! ending off it), stored, then applied; applying it yields a
//! [`GameEnded`], which the game's owner hands to the [`Finisher`]. Ratings,
//! tournaments and notifications subscribe there (lila's `Finisher`).

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabula_core::Outcome;
use tokio::sync::broadcast;

use crate::protocol::PlayerInfo;

/// Why a game ended.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// The rules ended it (mate, a race won, a draw by a counter…).
    Board,
    Resign,
    /// Every seat agreed to a draw.
    Agreement,
    /// A player left a two-player game.
    Left,
    /// A clock ran out (time controls).
    Time,
    /// A player stayed away and the other claimed the game.
    Abandoned,
}

impl EndReason {
    /// The word used in the API and in records' `end:` line.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Board => "board",
            EndReason::Resign => "resign",
            EndReason::Agreement => "agreement",
            EndReason::Left => "left",
            EndReason::Time => "time",
            EndReason::Abandoned => "abandoned",
        }
    }

    /// Every reason, for lookups and tests.
    pub const ALL: [EndReason; 6] = [
        EndReason::Board,
        EndReason::Resign,
        EndReason::Agreement,
        EndReason::Left,
        EndReason::Time,
        EndReason::Abandoned,
    ];
}

impl std::str::FromStr for EndReason {
    type Err = String;

    fn from_str(word: &str) -> Result<Self, String> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == word)
            .ok_or_else(|| format!("unknown end `{word}`"))
    }
}

/// A game's end: who won and why. Stored as `{"result": "win 2",
/// "reason": "resign"}` (the result in record notation).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ending {
    #[serde(rename = "result", with = "outcome_text")]
    pub outcome: Outcome,
    pub reason: EndReason,
}

mod outcome_text {
    use serde::{Deserialize, Deserializer, Serializer};
    use tabula_core::Outcome;

    pub fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&o.to_text())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        Outcome::parse(&text).map_err(serde::de::Error::custom)
    }
}

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
