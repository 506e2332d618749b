//! Random names and secrets, and how secrets are kept.

use rand::Rng;

/// A short random name (games, seeks, tournaments): 10 letters and digits
/// that cannot be misread.
pub fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..10)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A secret of 128 random bits, in hex.
pub fn random_token() -> String {
    format!("{:032x}", rand::thread_rng().gen::<u128>())
}

/// A token as stored: SHA-256 in hex (tokens are 128 random bits, so a
/// fast hash is enough: there is nothing to guess).
pub fn hash_token(token: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Who holds a seat, plays in a tournament or owns a seek: an account or a
/// guest's browser. Stored and sent as text (`u:<account key>`,
/// `g:<browser id>`), and this type is the only place that knows the text:
/// documents hold it typed, and a text that is neither refuses to load.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "String", into = "String")]
pub enum PlayerId {
    /// An account, by its key (its name in lower case).
    Account(String),
    /// A guest, by the random id of their browser's session.
    Guest(String),
}

impl PlayerId {
    /// The identity of the account named `name` (any case).
    pub fn account(name: &str) -> PlayerId {
        PlayerId::Account(name.to_lowercase())
    }

    /// A new guest's identity.
    pub fn new_guest() -> PlayerId {
        PlayerId::Guest(random_id())
    }

    /// An identity read back from its text; `None` for anything else.
    pub fn parse(text: &str) -> Option<PlayerId> {
        match text.split_once(':')? {
            ("u", key) if !key.is_empty() => Some(PlayerId::Account(key.to_string())),
            ("g", id) if !id.is_empty() => Some(PlayerId::Guest(id.to_string())),
            _ => None,
        }
    }

    /// The account's key, if it is one.
    pub fn account_key(&self) -> Option<&str> {
        match self {
            PlayerId::Account(key) => Some(key),
            PlayerId::Guest(_) => None,
        }
    }
}

impl TryFrom<String> for PlayerId {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        PlayerId::parse(&text).ok_or_else(|| format!("`{text}` is not a player's identity"))
    }
}

impl From<PlayerId> for String {
    fn from(id: PlayerId) -> String {
        id.to_string()
    }
}

impl std::fmt::Display for PlayerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerId::Account(key) => write!(f, "u:{key}"),
            PlayerId::Guest(id) => write!(f, "g:{id}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_reads_back_as_written_and_nothing_else_reads() {
        for id in [PlayerId::account("Ana"), PlayerId::new_guest()] {
            assert_eq!(PlayerId::parse(&id.to_string()), Some(id.clone()));
        }
        assert_eq!(PlayerId::account("Ana").to_string(), "u:ana");
        assert_eq!(PlayerId::account("Ana").account_key(), Some("ana"));
        for bad in ["", "u:", "ana", "x:ana", "g:"] {
            assert_eq!(PlayerId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn documents_hold_an_identity_as_its_text_and_refuse_any_other() {
        let id = PlayerId::account("Ana");
        assert_eq!(
            serde_json::to_string(&id).ok().as_deref(),
            Some("\"u:ana\"")
        );
        let back: Result<PlayerId, _> = serde_json::from_str("\"g:k3v9\"");
        assert_eq!(back.ok(), Some(PlayerId::Guest("k3v9".into())));
        for bad in ["\"ana\"", "\"u:\"", "3"] {
            assert!(serde_json::from_str::<PlayerId>(bad).is_err(), "{bad}");
        }
    }
}
