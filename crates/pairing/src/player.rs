//! Who takes part. Players are given in registration order; that order is the
//! last tie-break everywhere, so every result is a function of the input alone.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The server's id for a participant (a user id or a guest name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl PlayerId {
    pub fn new(id: impl Into<String>) -> PlayerId {
        PlayerId(id.into())
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A registered participant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    /// Seeds the initial ranking (higher first).
    pub rating: i32,
    /// A withdrawn player is never paired again; past games still count.
    #[serde(default)]
    pub withdrawn: bool,
}

impl Player {
    pub fn new(id: impl Into<String>, rating: i32) -> Player {
        Player {
            id: PlayerId::new(id),
            rating,
            withdrawn: false,
        }
    }
}

/// Registered ids to their positions, checked once.
pub(crate) struct Roster {
    index: std::collections::HashMap<PlayerId, usize>,
}

impl Roster {
    pub(crate) fn new(players: &[Player]) -> Result<Roster, crate::PairingError> {
        let mut index = std::collections::HashMap::with_capacity(players.len());
        for (i, p) in players.iter().enumerate() {
            if index.insert(p.id.clone(), i).is_some() {
                return Err(crate::PairingError::DuplicatePlayer(p.id.clone()));
            }
        }
        Ok(Roster { index })
    }

    pub(crate) fn get(&self, id: &PlayerId) -> Result<usize, crate::PairingError> {
        self.index
            .get(id)
            .copied()
            .ok_or_else(|| crate::PairingError::UnknownPlayer(id.clone()))
    }
}

/// Marks each player of a round once; a second sighting is an error.
pub(crate) struct RoundSeen {
    seen: Vec<bool>,
    round: usize,
}

impl RoundSeen {
    pub(crate) fn new(n: usize, round: usize) -> RoundSeen {
        RoundSeen {
            seen: vec![false; n],
            round,
        }
    }

    pub(crate) fn mark(&mut self, i: usize, players: &[Player]) -> Result<(), crate::PairingError> {
        if std::mem::replace(&mut self.seen[i], true) {
            return Err(crate::PairingError::PlayedTwice {
                round: self.round,
                player: players[i].id.clone(),
            });
        }
        Ok(())
    }
}
