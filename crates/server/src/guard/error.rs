//! Why a guard refused: each refusal changes nothing, and `crate::error`
//! alone says how the API answers it.

use crate::common::limits::Limited;
use crate::round::RoundError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    #[error(transparent)]
    TooMany(#[from] Limited),
    #[error(
        "a game without a human seat needs a session (POST /api/session): \
         its creator is the one who can stop it"
    )]
    AiOnlyNeedsSession,
    /// The creator holds this many games in progress already.
    #[error("too many games in progress ({0}): finish or resign some first")]
    GamesInProgress(usize),
    /// The address holds this many live channels already.
    #[error("too many live channels from your address (at most {0}): close a page")]
    Channels(usize),
    #[error("only a game without a human seat is stopped this way (players resign or leave)")]
    NotAiOnly,
    #[error("only the game's creator may stop it")]
    NotCreator,
    #[error(transparent)]
    Round(#[from] RoundError),
    #[error(transparent)]
    Store(#[from] StoreError),
}
