//! The door of the `user` module: who a request comes from (session
//! cookie or API token), passwords hashed on their own threads, and the
//! revocation of credentials (here and, through the store's notes, on the
//! other instances).

use super::hasher::Hasher;
use super::revoke::{Revoked, Watch};
use super::session::{self, Visitor};
use super::UserError;
use crate::common::{Clock, GuardConfig};
use crate::store::{Note, Store};
use axum::http::HeaderMap;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// How long a request's visitor is remembered: a signed-in player's moves
/// cost no database read for the session and the account in that time.
/// Revocations (password changes, deleted accounts, revoked tokens) drop
/// it at once on every instance; a sign-out drops it here (elsewhere the
/// cookie is gone from the browser anyway).
pub const VISITOR_CACHE_MS: i64 = 5_000;
/// The most visitors remembered (more: all are forgotten, and reading
/// resumes from the store).
pub const VISITOR_CACHE_MAX: usize = 10_000;

/// Accounts, sessions and their credentials.
pub struct Users {
    pub(crate) store: Store,
    pub(crate) clock: Arc<Clock>,
    /// The threads that hash and check passwords.
    pub(crate) hasher: Hasher,
    /// Recent visitors by the hash of their cookie or token, with the time
    /// they are remembered until.
    visitors: Mutex<HashMap<String, (i64, Visitor)>>,
    /// Rings when a token, an account's sessions or an account end: the
    /// streams opened with them close (`user::revoke`).
    revoked: broadcast::Sender<Revoked>,
}

impl Users {
    pub fn new(store: Store, clock: Arc<Clock>, guard: &GuardConfig) -> Self {
        Users {
            store,
            clock,
            hasher: Hasher::new(guard.hash_workers, guard.hash_queue),
            visitors: Mutex::default(),
            revoked: broadcast::channel(256).0,
        }
    }

    /// The visitor of a request with `headers`: an API token's account, a
    /// session's guest and account, or a guest without a session.
    pub async fn visitor(&self, headers: &HeaderMap) -> Result<Visitor, UserError> {
        let now = self.clock.now();
        let Some(secret) = session::bearer(headers).or_else(|| session::cookie(headers)) else {
            return Ok(Visitor::default());
        };
        let key = crate::common::hash_token(&secret);
        if let Some((until, v)) = self.cache().get(&key) {
            if *until > now {
                return Ok(v.clone());
            }
        }
        let visitor = session::visitor(&self.store, now, headers).await?;
        let mut cache = self.cache();
        if cache.len() >= VISITOR_CACHE_MAX {
            cache.clear();
        }
        cache.insert(key, (now + VISITOR_CACHE_MS, visitor.clone()));
        Ok(visitor)
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, (i64, Visitor)>> {
        self.visitors.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forget the remembered visitors that `gone` says are out of date.
    fn forget(&self, gone: impl Fn(&Visitor) -> bool) {
        self.cache().retain(|_, (_, v)| !gone(v));
    }

    /// Forget the visitors signed in as account `key` (it changed).
    pub(crate) fn forget_account(&self, key: &str) {
        self.forget(|v| v.account.as_ref().is_some_and(|(k, _)| k == key));
    }

    /// End session `id` (signing in or out replaces it).
    pub(crate) async fn end_session(&self, id: &str) -> Result<(), UserError> {
        self.forget(|v| v.session.as_deref() == Some(id));
        session::end(&self.store, id).await
    }

    /// End every stream opened with what `r` revokes, on every instance.
    pub(crate) async fn revoke(&self, r: Revoked) {
        let note = Note::Revoked(r.to_note());
        self.forget(|v| r.ends(v));
        let _ = self.revoked.send(r);
        if let Err(e) = self.store.notify(&note).await {
            tracing::error!("telling the other instances of a revocation: {e}");
        }
    }

    /// Another instance revoked `r`: end the streams here.
    pub(crate) fn revoked_elsewhere(&self, r: Revoked) {
        self.forget(|v| r.ends(v));
        let _ = self.revoked.send(r);
    }

    /// A watch that fires when the credentials of `visitor` are revoked.
    pub(crate) fn revocation(&self, visitor: &Visitor) -> Watch {
        Watch::new(self.revoked.subscribe(), visitor)
    }
}
