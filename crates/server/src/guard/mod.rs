//! What protects the server and its players from a client who asks for a
//! lot: rate limits on moves, chat and hints, live channels per address
//! ([`sockets`]), and quotas on new games ([`quota`]). The HTTP layers
//! (headers, JSON-only bodies, client addresses) are the edge's
//! (`http::guard`). `docs/security.md` lists every limit and how to change
//! it.

pub mod quota;
pub mod sockets;

pub use quota::Creations;
pub use sockets::{SocketCounts, SocketSlot};

use crate::common::limits::{Limit, Limits};
use crate::error::ApiError;
use crate::round::{sender_key, Caller};

/// Count one request against a limit keyed by `key`.
pub(crate) fn count(limit: &Limit, key: &str) -> Result<(), ApiError> {
    limit
        .check(key)
        .map_err(|wait| ApiError::too_many(limit.what(), wait))
}

/// Count a move of `caller` from `addr`.
pub(crate) fn allow_move(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&limits.moves_address, addr)?;
    count(&limits.moves, &sender_key(caller))
}

/// Count a chat line of `caller` from `addr`.
pub(crate) fn allow_chat(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&limits.chat_address, addr)?;
    count(&limits.chat, &sender_key(caller))
}

/// Count a hint asked by `caller` from `addr`.
pub(crate) fn allow_hint(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), ApiError> {
    count(&limits.hints_address, addr)?;
    count(&limits.hints, &sender_key(caller))
}
