//! Accounts, after lila's `user` and `security` modules: names, password
//! hashes and sessions. Pure rules here (names, passwords); the documents
//! live in the store (`docs` of kind `user` and `session`).
//!
//! Every person has an identity: an account (`u:<name in lower case>`) or,
//! as a guest, their browser's (`g:<random>`, kept in the session). Seats
//! are bound to identities; an account made from a guest session keeps the
//! guest's identity as well, so the guest's games follow it.

pub mod device;
pub mod error;
pub mod hasher;
pub mod revoke;
pub mod service;
pub mod session;
pub mod tokens;

pub use error::UserError;
pub use service::Users;

use serde::{Deserialize, Serialize};

/// The shortest and longest user names, in characters.
pub const NAME_LEN: std::ops::RangeInclusive<usize> = 2..=20;
/// The shortest and longest passwords, in characters.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 8..=128;

/// Names nobody may take: they would read as something else.
const RESERVED: &[&str] = &["deleted", "guest", "anonymous", "admin", "tabula", "ai"];

/// An account as stored (`docs` kind `user`, id = the name in lower case).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Account {
    /// As the player wrote it.
    pub name: String,
    /// Argon2id, PHC string format; empty once deleted.
    pub password: String,
    pub created: i64,
    /// The guest identity the account was made from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guest: Option<crate::common::PlayerId>,
    /// Deleted: the name stays taken, games show "deleted".
    #[serde(default)]
    pub deleted: bool,
    /// A bot account: it plays through the bot API (`crate::bot`), is
    /// marked as a bot wherever it shows, and is not rated against people.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The browsers it was signed in from (hashes of their device cookies,
    /// oldest first; `device`): they are not held back by others' guesses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub devices: Vec<String>,
}

impl Account {
    /// The identities whose seats this account plays.
    pub fn identities(&self) -> Vec<crate::common::PlayerId> {
        let mut ids = vec![crate::common::PlayerId::account(&self.name)];
        ids.extend(self.guest.clone());
        ids
    }
}

/// The account key of `name`, or why it cannot be one.
pub fn check_name(name: &str) -> Result<String, String> {
    let n = name.chars().count();
    if !NAME_LEN.contains(&n) {
        return Err(format!(
            "a user name has {} to {} characters",
            NAME_LEN.start(),
            NAME_LEN.end()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("a user name has only letters, digits, `_` and `-`".into());
    }
    let key = name.to_ascii_lowercase();
    if RESERVED.contains(&key.as_str()) {
        return Err(format!("`{name}` is reserved"));
    }
    Ok(key)
}

/// Why a password cannot be one, if it cannot.
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if !PASSWORD_LEN.contains(&n) {
        return Err(format!(
            "a password has {} to {} characters",
            PASSWORD_LEN.start(),
            PASSWORD_LEN.end()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_compared_without_case() {
        assert_eq!(check_name("Alice_2-b"), Ok("alice_2-b".into()));
        for bad in [
            "a",
            "abcdefghijklmnopqrstu",
            "al ice",
            "élise",
            "",
            "Deleted",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert_eq!(check_name("BoB"), check_name("bob"));
    }
}
