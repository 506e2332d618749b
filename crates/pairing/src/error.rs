//! Bad input is reported, never guessed around: nothing is paired from it.

use crate::player::PlayerId;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// Two registered players share an id.
    DuplicatePlayer(PlayerId),
    /// A round names an id that is not registered.
    UnknownPlayer(PlayerId),
    /// A player appears twice in one round (or plays himself).
    PlayedTwice { round: usize, player: PlayerId },
    /// A table has no result yet, or a malformed one.
    BadResult { round: usize, detail: String },
    /// Too few active players to make one game.
    NotEnoughPlayers,
    /// The configuration cannot be used (for example a bad AI level).
    BadConfig(String),
    /// The combined pairing weights would overflow (thousands of players).
    TooLarge,
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::DuplicatePlayer(id) => write!(f, "player {id} is registered twice"),
            PairingError::UnknownPlayer(id) => write!(f, "unknown player {id}"),
            PairingError::PlayedTwice { round, player } => {
                write!(f, "player {player} appears twice in round {}", round + 1)
            }
            PairingError::BadResult { round, detail } => {
                write!(f, "round {}: {detail}", round + 1)
            }
            PairingError::NotEnoughPlayers => write!(f, "not enough active players to pair"),
            PairingError::BadConfig(why) => write!(f, "bad configuration: {why}"),
            PairingError::TooLarge => write!(f, "too many players for exact pairing weights"),
        }
    }
}

impl std::error::Error for PairingError {}
