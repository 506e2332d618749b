//! Personal API tokens (`Authorization: Bearer tbl_…`): credentials that
//! let a program act as an account, shown once and stored only as their
//! SHA-256 (`docs` of kind `api_token`, id = the hash, owner = the account
//! key), as session cookies are.

use super::revoke::Revoked;
use super::session::{load_account, Visitor};
use super::UserError;
use super::Users;
use crate::common::{hash_token, random_id, random_token};
use crate::store::{Doc, Store, StoreError};
use serde::{Deserialize, Serialize};

/// The document kind of tokens.
const KIND: &str = "api_token";

/// What every personal API token starts with (secret scanners key on it).
pub const TOKEN_PREFIX: &str = "tbl_";
/// The most live tokens an account may hold.
pub const TOKENS_PER_ACCOUNT: usize = 20;
/// The longest token description, in characters.
pub const DESCRIPTION_MAX: usize = 100;
/// A token's `last_used` is written at most this often (not on every move).
pub const LAST_USED_EVERY_MS: i64 = 60_000;
/// A personal API token as stored (`docs` kind `api_token`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TokenDoc {
    /// The token's public id, to list and revoke it.
    pub id: String,
    pub description: String,
    pub created: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used: Option<i64>,
}

/// A new secret token: the prefix and 256 random bits in hex.
pub fn new_token() -> String {
    let r = random_token;
    format!("{TOKEN_PREFIX}{}{}", r(), r())
}

/// A token description as kept (trimmed), or why it cannot be one.
pub fn check_description(text: &str) -> Result<String, String> {
    let text = text.trim();
    let n = text.chars().count();
    if n == 0 || n > DESCRIPTION_MAX {
        return Err(format!(
            "a token's description has 1 to {DESCRIPTION_MAX} characters"
        ));
    }
    if text.chars().any(char::is_control) {
        return Err("a token's description is one line of text".into());
    }
    Ok(text.to_string())
}

/// Whether `last_used` is old enough to be written again at `now`.
pub fn last_used_stale(last_used: Option<i64>, now: i64) -> bool {
    last_used.is_none_or(|t| now - t >= LAST_USED_EVERY_MS)
}

/// `POST /api/account/tokens`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    pub description: String,
}

/// Answer to `POST /api/account/tokens`: the only time the token is shown.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TokenCreated {
    pub id: String,
    /// The secret: `Authorization: Bearer <token>`.
    pub token: String,
    pub description: String,
    pub created: i64,
}

/// A line of `GET /api/account/tokens` (never the token itself).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TokenInfo {
    pub id: String,
    pub description: String,
    /// Milliseconds since 1970.
    pub created: i64,
    /// The last request it signed (to the minute), if any.
    pub last_used: Option<i64>,
}

impl From<TokenDoc> for TokenInfo {
    fn from(t: TokenDoc) -> Self {
        TokenInfo {
            id: t.id,
            description: t.description,
            created: t.created,
            last_used: t.last_used,
        }
    }
}

/// A token document this version cannot read.
fn unreadable(e: serde_json::Error) -> UserError {
    UserError::Unreadable(format!("API token ({e})"))
}

/// The visitor a bearer `token` signs in: its account (never a guest).
/// An unknown or revoked token, or one of a deleted account, is a 401.
pub async fn token_visitor(store: &Store, now: i64, token: &str) -> Result<Visitor, UserError> {
    if !token.starts_with(TOKEN_PREFIX) || token.len() > 128 {
        return Err(UserError::UnknownToken);
    }
    let hash = hash_token(token);
    let doc = store
        .doc_get(KIND, &hash)
        .await?
        .ok_or(UserError::UnknownToken)?;
    let mut body: TokenDoc = serde_json::from_str(&doc.body).map_err(unreadable)?;
    let key = doc.owner.clone().ok_or(UserError::UnknownToken)?;
    let (_, account) = load_account(store, &key)
        .await?
        .filter(|(_, a)| !a.deleted)
        .ok_or(UserError::UnknownToken)?;
    if last_used_stale(body.last_used, now) {
        body.last_used = Some(now);
        let doc = Doc {
            body: serde_json::to_string(&body).map_err(unreadable)?,
            ..doc
        };
        // Two requests at once: one write is enough.
        if let Err(e) = store.doc_update(&doc).await {
            if !matches!(e, StoreError::Conflict | StoreError::Missing) {
                tracing::warn!("token last used: {e}");
            }
        }
    }
    Ok(Visitor {
        session: None,
        guest: None,
        account: Some((key, account)),
        token: Some(body.id),
    })
}

/// The tokens of account `key`, with their documents' ids (the hashes).
async fn tokens_of(
    store: &Store,
    now: i64,
    key: &str,
) -> Result<Vec<(String, TokenDoc)>, UserError> {
    let docs = store.doc_list(KIND, Some(key), now, 1000).await?;
    Ok(docs
        .into_iter()
        .filter_map(|d| Some((d.id, serde_json::from_str(&d.body).ok()?)))
        .collect())
}

impl Users {
    /// A new token for account `key`; the only time it is shown.
    pub async fn create_token(
        &self,
        key: &str,
        description: &str,
    ) -> Result<TokenCreated, UserError> {
        let description = check_description(description).map_err(UserError::BadDescription)?;
        if tokens_of(&self.store, self.clock.now(), key).await?.len() >= TOKENS_PER_ACCOUNT {
            return Err(UserError::TooManyTokens);
        }
        let token = new_token();
        let body = TokenDoc {
            id: random_id(),
            description,
            created: self.clock.now(),
            last_used: None,
        };
        let doc = Doc {
            kind: KIND,
            id: hash_token(&token),
            owner: Some(key.to_string()),
            body: serde_json::to_string(&body).map_err(unreadable)?,
            version: 0,
            created: body.created,
            expires: None,
        };
        self.store.doc_insert(doc).await?;
        Ok(TokenCreated {
            id: body.id,
            token,
            description: body.description,
            created: body.created,
        })
    }

    /// The tokens of account `key`, oldest first (never the secrets).
    pub async fn list_tokens(&self, key: &str) -> Result<Vec<TokenInfo>, UserError> {
        Ok(tokens_of(&self.store, self.clock.now(), key)
            .await?
            .into_iter()
            .map(|(_, t)| t.into())
            .collect())
    }

    /// Revoke token `id` of account `key`: it signs nothing from now on.
    pub async fn revoke_token(&self, key: &str, id: &str) -> Result<(), UserError> {
        let found = tokens_of(&self.store, self.clock.now(), key)
            .await?
            .into_iter()
            .find(|(_, t)| t.id == id);
        let Some((hash, _)) = found else {
            return Err(UserError::NoToken(id.to_string()));
        };
        self.store.doc_delete(KIND, &hash).await?;
        self.revoke(Revoked::Token(id.to_string())).await;
        Ok(())
    }
}
