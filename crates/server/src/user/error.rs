//! Why the accounts' service refused: each refusal changes nothing, and
//! `crate::error` alone says how the API answers it.

use super::tokens::TOKENS_PER_ACCOUNT;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum UserError {
    /// A request signed by the session cookie came without an Origin.
    #[error("a request signed by the session cookie needs an Origin header")]
    NoOrigin,
    /// A page of another site used the session (cross-site forgery).
    #[error("requests from {0} may not use this site's session")]
    ForeignOrigin(String),
    #[error("unknown or revoked API token")]
    UnknownToken,
    /// A token's description is not one (its reason).
    #[error("{0}")]
    BadDescription(String),
    #[error("an account holds at most {TOKENS_PER_ACCOUNT} tokens: revoke one")]
    TooManyTokens,
    #[error("no token `{0}`")]
    NoToken(String),
    /// A stored document this version cannot read (what, and why).
    #[error("a stored {0} cannot be read")]
    Unreadable(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}
