//! Sessions: a random cookie (`tabula_session`, HttpOnly, SameSite=Lax,
//! Secure over HTTPS) whose SHA-256 names a `session` document holding the
//! browser's guest identity and, once signed in, its account. Requests that
//! rely on the cookie to change something must come from the server's own
//! pages: their `Origin` must name the host they were sent to.

use super::Account;
use super::UserError;
use crate::common::{hash_token, random_token, PlayerId};
use crate::round::Caller;
use crate::store::{Doc, Store};
use axum::http::{header, HeaderMap, HeaderValue};
use serde::{Deserialize, Serialize};

/// The session cookie's name.
pub const COOKIE: &str = "tabula_session";
/// How long a session lasts.
pub const SESSION_DAYS: i64 = 365;

/// A session as stored (`docs` kind `session`, id = SHA-256 of the cookie).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SessionDoc {
    /// This browser's guest identity.
    pub guest: PlayerId,
    /// The account signed in, by key (lower-case name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
}

/// Who sends a request, as their session cookie says.
#[derive(Clone, Debug, Default)]
pub struct Visitor {
    /// The session document's id, when the cookie named a live session.
    pub session: Option<String>,
    pub guest: Option<PlayerId>,
    /// The account signed in: its key and document.
    pub account: Option<(String, Account)>,
    /// Signed in by a personal API token (`Authorization: Bearer`): the
    /// token's public id, which rate limits count by.
    pub token: Option<String>,
}

impl Visitor {
    /// The identities whose seats this visitor plays, the one new seats
    /// are bound to first.
    pub fn ids(&self) -> Vec<PlayerId> {
        let mut ids = self
            .account
            .as_ref()
            .map(|(_, a)| a.identities())
            .unwrap_or_default();
        if let Some(g) = &self.guest {
            if !ids.contains(g) {
                ids.push(g.clone());
            }
        }
        ids
    }

    /// A bot account (it plays through the bot API, rated among bots).
    pub fn is_bot(&self) -> bool {
        self.account.as_ref().is_some_and(|(_, a)| a.bot)
    }

    /// The visitor as the creator of a game: the seats they take are
    /// bound to their first identity and show their name.
    pub fn creator(&self) -> crate::round::Creator {
        crate::round::Creator {
            id: self.ids().into_iter().next(),
            name: self.name(),
            bot: self.is_bot(),
        }
    }

    /// The account's name as written, if signed in.
    pub fn name(&self) -> Option<String> {
        self.account.as_ref().map(|(_, a)| a.name.clone())
    }

    /// A command's sender: their seat token (if any) and identities.
    pub fn caller(&self, token: &str) -> Caller {
        Caller {
            token: token.to_string(),
            ids: self.ids(),
            name: self.name(),
        }
    }
}

/// The session cookie's value in `headers`, if any.
pub fn cookie(headers: &HeaderMap) -> Option<String> {
    cookie_named(headers, COOKIE)
}

/// The value of cookie `name` in `headers`, if any (our cookies are at
/// most 64 characters: a longer value is no cookie of ours).
pub fn cookie_named(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
        .filter(|v| !v.is_empty() && v.len() <= 64)
}

/// The personal API token of `Authorization: Bearer TOKEN`, if any. Such a
/// request carries no cookie a browser adds by itself, so it needs no
/// `Origin` check.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// Whether the page that sent this request was served over HTTPS.
fn https(headers: &HeaderMap) -> bool {
    headers
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .is_some_and(|o| o.starts_with("https://"))
}

/// The `Set-Cookie` value of a new session cookie.
pub fn set_cookie(value: &str, headers: &HeaderMap) -> HeaderValue {
    set_cookie_named(COOKIE, value, headers)
}

/// The `Set-Cookie` value of our cookie `name` (HttpOnly, SameSite=Lax, a
/// year, Secure over HTTPS).
pub fn set_cookie_named(name: &str, value: &str, headers: &HeaderMap) -> HeaderValue {
    let secure = if https(headers) { "; Secure" } else { "" };
    let max_age = SESSION_DAYS * 86_400;
    let text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that removes the cookie.
pub fn clear_cookie() -> HeaderValue {
    HeaderValue::from_static("tabula_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Refuse a request that relies on the session cookie but does not come
/// from one of this server's pages (cross-site request forgery).
/// `allowed` names other origins whose pages may do so (`--allowed-origin`).
pub fn check_origin(headers: &HeaderMap, allowed: &[String]) -> Result<(), UserError> {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let Some(origin) = origin else {
        return Err(UserError::NoOrigin);
    };
    let origin_host = origin.split_once("://").map(|(_, h)| h).unwrap_or("");
    if host.is_some_and(|h| h.eq_ignore_ascii_case(origin_host)) || origin_allowed(allowed, origin)
    {
        Ok(())
    } else {
        Err(UserError::ForeignOrigin(origin.to_string()))
    }
}

/// The visitor of a request with `headers` (a guest without a session when
/// the cookie is missing or names no session).
pub async fn visitor(store: &Store, now: i64, headers: &HeaderMap) -> Result<Visitor, UserError> {
    if let Some(token) = bearer(headers) {
        return super::tokens::token_visitor(store, now, &token).await;
    }
    let Some(value) = cookie(headers) else {
        return Ok(Visitor::default());
    };
    let id = hash_token(&value);
    let Some(doc) = store.doc_get("session", &id).await? else {
        return Ok(Visitor::default());
    };
    if doc.expires.is_some_and(|e| e < now) {
        return Ok(Visitor::default());
    }
    let Ok(session) = serde_json::from_str::<SessionDoc>(&doc.body) else {
        return Ok(Visitor::default());
    };
    let account = match &session.user {
        Some(key) => load_account(store, key)
            .await?
            .filter(|(_, a)| !a.deleted)
            .map(|(_, a)| (key.clone(), a)),
        None => None,
    };
    Ok(Visitor {
        session: Some(id),
        guest: Some(session.guest),
        account,
        token: None,
    })
}

/// Account `key` and its document version.
pub async fn load_account(store: &Store, key: &str) -> Result<Option<(u64, Account)>, UserError> {
    let Some(doc) = store.doc_get("user", key).await? else {
        return Ok(None);
    };
    let account = serde_json::from_str(&doc.body)
        .map_err(|e| UserError::Unreadable(format!("account `{key}` ({e})")))?;
    Ok(Some((doc.version, account)))
}

/// Start a session for `guest` (a new guest identity when `None`) signed in
/// as `user`; the cookie value to set.
pub async fn start(
    store: &Store,
    now: i64,
    guest: Option<PlayerId>,
    user: Option<String>,
) -> Result<String, UserError> {
    let value = random_token() + &random_token();
    let body = SessionDoc {
        guest: guest.unwrap_or_else(PlayerId::new_guest),
        user,
    };
    let doc = Doc {
        kind: "session",
        id: hash_token(&value),
        owner: body.user.clone(),
        body: serde_json::to_string(&body).unwrap_or_default(),
        version: 0,
        created: now,
        expires: Some(now + SESSION_DAYS * 86_400_000),
    };
    store.doc_insert(doc).await?;
    Ok(value)
}

/// End session `id` (its document's id).
pub async fn end(store: &Store, id: &str) -> Result<(), UserError> {
    store.doc_delete("session", id).await?;
    Ok(())
}

/// End every session signed in to account `key` but `keep` (a password
/// change signs out the other browsers); how many ended.
pub async fn end_all(store: &Store, key: &str, keep: Option<&str>) -> Result<u64, UserError> {
    let mut ended = 0;
    loop {
        let docs = store.doc_list("session", Some(key), 0, 500).await?;
        let others: Vec<_> = docs
            .iter()
            .filter(|d| Some(d.id.as_str()) != keep)
            .collect();
        if others.is_empty() {
            return Ok(ended);
        }
        for d in others {
            if store.doc_delete("session", &d.id).await? {
                ended += 1;
            }
        }
    }
}

/// Whether `origin` is one of the extra origins allowed to use the session.
pub fn origin_allowed(allowed: &[String], origin: &str) -> bool {
    allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}
