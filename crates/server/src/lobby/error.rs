//! Why the lobby refused: each refusal changes nothing, and `crate::error`
//! alone says how the API answers it.

use super::SeekError;
use crate::common::limits::Limited;
use crate::round::RoundError;
use crate::store::StoreError;
use crate::user::UserError;

#[derive(Debug, thiserror::Error)]
pub enum LobbyError {
    #[error("open a session first (POST /api/session) or sign in")]
    NoSession,
    #[error(transparent)]
    TooMany(#[from] Limited),
    #[error("you cannot challenge yourself")]
    SelfChallenge,
    #[error("no player `{0}`")]
    NoPlayer(String),
    /// The seek asked for cannot be one (why).
    #[error("{0}")]
    BadSeek(String),
    #[error("this challenge is gone (cancelled, expired or taken)")]
    Gone,
    /// The seek cannot be accepted.
    #[error(transparent)]
    Seek(#[from] SeekError),
    #[error("only its creator cancels a challenge")]
    NotCreator,
    #[error("this challenge has started")]
    Started,
    #[error(transparent)]
    Round(#[from] RoundError),
    #[error(transparent)]
    User(#[from] UserError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<tabula_core::Error> for LobbyError {
    fn from(e: tabula_core::Error) -> Self {
        LobbyError::Round(e.into())
    }
}
