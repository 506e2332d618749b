//! Typed documents and the one compare-and-set loop. A document is a JSON
//! value with a row version; a read-change-write reads it, changes it and
//! writes it back only if nobody wrote it meanwhile, else reads it again
//! and retries. Every such loop of the server (tournaments, seeks,
//! ratings) is [`retry_on_conflict`] or [`update_json`].

use super::{Doc, Store, StoreError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::future::Future;

/// Run a compare-and-set `attempt` until it lands: `Ok(Some(r))` is done,
/// `Ok(None)` means another writer came first (it is tried again, at most
/// `tries` times in all, then `busy()` is the answer), `Err` stops.
pub async fn retry_on_conflict<R, E, F, Fut>(
    tries: usize,
    busy: impl FnOnce() -> E,
    mut attempt: F,
) -> Result<R, E>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Option<R>, E>>,
{
    for _ in 0..tries {
        if let Some(r) = attempt().await? {
            return Ok(r);
        }
    }
    Err(busy())
}

/// Why a typed change did not land.
#[derive(Debug, PartialEq)]
pub enum ChangeError<E> {
    /// The change refused itself.
    Refused(E),
    /// The document is missing (and there was no fresh value to start from),
    /// unreadable, or the store failed; `Conflict` after every try lost.
    Store(StoreError),
}

impl<E> From<StoreError> for ChangeError<E> {
    fn from(e: StoreError) -> Self {
        ChangeError::Store(e)
    }
}

impl Store {
    /// Document `(kind, id)` and its value, if it exists. An unreadable
    /// body is a failure, never a missing document (that would be
    /// overwritten).
    pub async fn read_json<T: DeserializeOwned>(
        &self,
        kind: &'static str,
        id: &str,
    ) -> Result<Option<(Doc, T)>, StoreError> {
        let Some(doc) = self.doc_get(kind, id).await? else {
            return Ok(None);
        };
        let value = serde_json::from_str(&doc.body)
            .map_err(|e| StoreError::Failed(format!("{kind} `{id}` cannot be read: {e}")))?;
        Ok(Some((doc, value)))
    }
}

/// A new document's owner and value, for [`update_json`] on a document
/// that may not exist yet.
pub type Fresh<'a, T> = &'a (dyn Fn() -> (Option<String>, T) + Sync);

/// Change document `(kind, id)` by compare-and-set: read it (a missing one
/// starts from `fresh`, or is `Missing` without it), let `change` decide
/// (`Ok(Some(r))`: write and answer `r` with the value written; `Ok(None)`:
/// nothing to write), and write it back unless another writer came first,
/// in which case all starts again (at most `tries` times). `now` stamps a
/// new document.
pub async fn update_json<T, R, E>(
    store: &Store,
    (kind, id): (&'static str, &str),
    tries: usize,
    now: i64,
    fresh: Option<Fresh<'_, T>>,
    change: impl Fn(&mut T) -> Result<Option<R>, E>,
) -> Result<Option<(R, T)>, ChangeError<E>>
where
    T: Serialize + DeserializeOwned,
{
    let change = &change;
    retry_on_conflict(
        tries,
        || ChangeError::Store(StoreError::Conflict),
        || async move {
            let (mut doc, mut value, new) = match store.read_json::<T>(kind, id).await? {
                Some((doc, value)) => (doc, value, false),
                None => {
                    let fresh = fresh.ok_or(ChangeError::Store(StoreError::Missing))?;
                    let (owner, value) = fresh();
                    let doc = Doc {
                        kind,
                        id: id.to_string(),
                        owner,
                        body: String::new(),
                        version: 0,
                        created: now,
                        expires: None,
                    };
                    (doc, value, true)
                }
            };
            let Some(r) = change(&mut value).map_err(ChangeError::Refused)? else {
                return Ok(Some(None));
            };
            doc.body = serde_json::to_string(&value)
                .map_err(|e| StoreError::Failed(format!("{kind} `{id}`: {e}")))?;
            let written = if new {
                store.doc_insert(doc).await
            } else {
                store.doc_update(&doc).await.map(|_| ())
            };
            match written {
                Ok(()) => Ok(Some(Some((r, value)))),
                // Another writer came first (or made it first): read again.
                Err(StoreError::Conflict) => Ok(None),
                Err(e) => Err(e.into()),
            }
        },
    )
    .await
}

/// A job document that workers take by compare-and-set (a hint, an
/// analysis: lila's fishnet, the queue being the documents themselves).
pub trait Claimable: Serialize + DeserializeOwned {
    /// Whether a worker may take it at `now` (nobody holds it, or its
    /// holder's claim ran out).
    fn free(&self, now: i64) -> bool;
    /// Mark it taken by worker `by` at `now`.
    fn take(&mut self, by: &str, now: i64);
}

/// Take for worker `by` up to `want` of the jobs of `kind` free at `now`
/// (the oldest `limit` looked at); each job as taken. A job another worker
/// takes first is left to it; one that cannot be read is dropped.
pub async fn claim_jobs<T: Claimable>(
    store: &Store,
    kind: &'static str,
    by: &str,
    now: i64,
    (limit, want): (usize, usize),
) -> Result<Vec<(String, T)>, StoreError> {
    let mut taken = Vec::new();
    for doc in store.doc_list(kind, None, now, limit).await? {
        if taken.len() >= want {
            break;
        }
        let Ok(job) = serde_json::from_str::<T>(&doc.body) else {
            tracing::warn!("{kind} `{}` cannot be read: dropped", doc.id);
            store.doc_delete(kind, &doc.id).await?;
            continue;
        };
        if !job.free(now) {
            continue;
        }
        let claimed = update_json::<T, (), ()>(store, (kind, &doc.id), 1, now, None, |j| {
            Ok(j.free(now).then(|| j.take(by, now)))
        })
        .await;
        match claimed {
            Ok(Some(((), job))) => taken.push((doc.id, job)),
            // Another worker came first, or the job is gone.
            Ok(None) | Err(ChangeError::Refused(())) => {}
            Err(ChangeError::Store(StoreError::Conflict | StoreError::Missing)) => {}
            Err(ChangeError::Store(e)) => return Err(e),
        }
    }
    Ok(taken)
}
