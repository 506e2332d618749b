//! What protects the server and its players from a client who asks for a
//! lot: rate limits on moves, chat and hints, live channels per address
//! ([`sockets`]), and quotas on new games ([`quota`]). The HTTP layers
//! (headers, JSON-only bodies, client addresses) are the edge's
//! (`http::guard`). `docs/security.md` lists every limit and how to change
//! it.

pub mod error;
pub mod quota;
pub mod sockets;

pub use error::GuardError;
pub use quota::Creations;
pub use sockets::{SocketCounts, SocketSlot};

use crate::common::limits::{Limited, Limits};
use crate::round::{sender_key, Caller};

/// Count a move of `caller` from `addr`.
pub(crate) fn allow_move(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), Limited> {
    limits.moves_address.count(addr)?;
    limits.moves.count(&sender_key(caller))
}

/// Count a chat line of `caller` from `addr`.
pub(crate) fn allow_chat(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), Limited> {
    limits.chat_address.count(addr)?;
    limits.chat.count(&sender_key(caller))
}

/// Count a hint asked by `caller` from `addr`.
pub(crate) fn allow_hint(limits: &Limits, addr: &str, caller: &Caller) -> Result<(), Limited> {
    limits.hints_address.count(addr)?;
    limits.hints.count(&sender_key(caller))
}
