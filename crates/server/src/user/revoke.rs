//! Revocation of what signs requests: a streaming connection (a live
//! channel, a bot stream) checks its credentials once, when it opens, so a
//! revoked token, a deleted account or a changed password must also end
//! the connections opened with them. Every such change is announced here
//! (and to the other instances, through the store's notes); each stream
//! watches for one that concerns it and closes.

use super::session::Visitor;
use tokio::sync::broadcast::{self, error::RecvError};

/// What was revoked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Revoked {
    /// Every session and token of account `key` (its password changed, or
    /// it was deleted), but session `keep` (the one that changed it).
    Account { key: String, keep: Option<String> },
    /// The personal API token with this public id.
    Token(String),
}

impl Revoked {
    /// Whether a stream opened by `visitor` must end.
    pub fn ends(&self, visitor: &Visitor) -> bool {
        match self {
            Revoked::Account { key, keep } => {
                visitor.account.as_ref().is_some_and(|(k, _)| k == key)
                    && (keep.is_none() || visitor.session != *keep || visitor.token.is_some())
            }
            Revoked::Token(id) => visitor.token.as_deref() == Some(id.as_str()),
        }
    }

    /// As a note between instances (no spaces in keys, ids or session ids).
    pub fn to_note(&self) -> String {
        match self {
            Revoked::Account { key, keep } => {
                format!("account {key} {}", keep.as_deref().unwrap_or("-"))
            }
            Revoked::Token(id) => format!("token {id}"),
        }
    }

    /// A note of [`Revoked::to_note`] read back.
    pub fn from_note(note: &str) -> Option<Revoked> {
        let mut words = note.split(' ');
        match (words.next()?, words.next()?, words.next()) {
            ("account", key, Some(keep)) => Some(Revoked::Account {
                key: key.to_string(),
                keep: (keep != "-").then(|| keep.to_string()),
            }),
            ("token", id, None) => Some(Revoked::Token(id.to_string())),
            _ => None,
        }
    }
}

/// A stream's watch for its own revocation.
pub struct Watch {
    rx: broadcast::Receiver<Revoked>,
    visitor: Visitor,
}

impl Watch {
    pub fn new(rx: broadcast::Receiver<Revoked>, visitor: &Visitor) -> Watch {
        Watch {
            rx,
            visitor: visitor.clone(),
        }
    }

    /// Resolves when the stream's credentials are revoked. A visitor with
    /// neither account nor token has nothing to revoke; a watch that fell
    /// behind resolves too (the client reconnects and is checked afresh).
    pub async fn fired(&mut self) {
        if self.visitor.account.is_none() && self.visitor.token.is_none() {
            return std::future::pending().await;
        }
        loop {
            match self.rx.recv().await {
                Ok(r) if r.ends(&self.visitor) => return,
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => return,
                Err(RecvError::Closed) => return std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::user::Account;

    fn visitor(key: &str, session: Option<&str>, token: Option<&str>) -> Visitor {
        Visitor {
            session: session.map(str::to_string),
            guest: None,
            account: Some((key.to_string(), Account::default())),
            token: token.map(str::to_string),
        }
    }

    #[test]
    fn a_revocation_ends_the_streams_it_names_and_no_others() {
        let ann_here = visitor("ann", Some("s1"), None);
        let ann_there = visitor("ann", Some("s2"), None);
        let ann_bot = visitor("ann", None, Some("t1"));
        let bob = visitor("bob", Some("s3"), None);
        let changed = Revoked::Account {
            key: "ann".into(),
            keep: Some("s1".into()),
        };
        assert!(
            !changed.ends(&ann_here),
            "the session that changed it stays"
        );
        assert!(changed.ends(&ann_there));
        assert!(changed.ends(&ann_bot));
        assert!(!changed.ends(&bob));
        let deleted = Revoked::Account {
            key: "ann".into(),
            keep: None,
        };
        assert!(deleted.ends(&ann_here) && deleted.ends(&ann_bot));
        let token = Revoked::Token("t1".into());
        assert!(token.ends(&ann_bot));
        assert!(!token.ends(&ann_here) && !token.ends(&bob));
        for r in [changed, deleted, token] {
            assert_eq!(Revoked::from_note(&r.to_note()), Some(r));
        }
        assert_eq!(Revoked::from_note("account ann"), None);
        assert_eq!(Revoked::from_note("token a b"), None);
    }
}
