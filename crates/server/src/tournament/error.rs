//! Why the tournaments' service refused: each refusal changes nothing, and
//! `crate::error` alone says how the API answers it.

use super::EntryError;
use crate::common::limits::Limited;
use crate::round::RoundError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    #[error("sign in to create or join tournaments")]
    SignIn,
    /// The tournament asked for cannot be one (why).
    #[error("{0}")]
    BadRequest(String),
    #[error("no tournament `{0}`")]
    Gone(String),
    /// Its stored document cannot be read (the id, and why).
    #[error("tournament {0}: {1}")]
    Unreadable(String, String),
    /// A join or a withdrawal refused.
    #[error(transparent)]
    Entry(#[from] EntryError),
    #[error(transparent)]
    TooMany(#[from] Limited),
    #[error(transparent)]
    Round(#[from] RoundError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<tabula_core::Error> for TournamentError {
    fn from(e: tabula_core::Error) -> Self {
        TournamentError::Round(e.into())
    }
}
