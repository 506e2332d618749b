//! A signed-in player's learning progress, kept on the server: the stars
//! of each lesson and the puzzle rating of each game, in one `learn`
//! document per account. It is written only from the engine's own
//! verdicts (`POST /api/learn/check`, `/api/puzzles/check`), so the rating
//! a browser sends counts for guests only. Guests keep theirs in the
//! browser.

use crate::app::App;
use crate::error::ApiError;
use crate::store::{Doc, StoreError};
use crate::user::session;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_rating::Rating;

const KIND: &str = "learn";
/// Tries of a read-modify-write before giving up to a busier writer.
const TRIES: usize = 4;

/// One game's puzzles for one player.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PuzzleProgress {
    pub rating: Rating,
    /// Each puzzle tried: 1 solved, 0 failed (the first try counts).
    #[serde(default)]
    pub done: BTreeMap<String, u8>,
}

/// `GET /api/learn/progress`: the account's progress (empty for a guest).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// Whether the answer comes from an account (else it is empty: a
    /// guest's progress is in their browser).
    #[serde(default)]
    pub signed_in: bool,
    /// Best stars of each lesson done, by lesson id.
    #[serde(default)]
    pub lessons: BTreeMap<String, u8>,
    /// By game.
    #[serde(default)]
    pub puzzles: BTreeMap<String, PuzzleProgress>,
}

/// The account of a request, if signed in. For a request that writes,
/// `writes`: the cookie must come with the page's own Origin (as every
/// state change), else the request is answered as a guest's.
pub async fn account(app: &App, headers: &HeaderMap, writes: bool) -> Option<String> {
    if writes && session::check_origin(headers, &app.config.guard.allowed_origins).is_err() {
        return None;
    }
    let visitor = session::visitor(&app.store, headers).await.ok()?;
    visitor.account.map(|(key, _)| key)
}

/// The stored progress of `key` (empty if none yet).
pub async fn load(app: &App, key: &str) -> Result<Progress, ApiError> {
    Ok(match app.store.doc_get(KIND, key).await? {
        Some(doc) => read(&doc),
        None => Progress::default(),
    })
}

fn read(doc: &Doc) -> Progress {
    // A body that no longer reads starts afresh rather than locking the player out.
    serde_json::from_str(&doc.body).unwrap_or_default()
}

/// Change the progress of `key` with `edit`, which returns what the caller
/// wants back; retried when another request wrote in between.
pub async fn change<T>(
    app: &App,
    key: &str,
    edit: impl Fn(&mut Progress) -> T,
) -> Result<T, ApiError> {
    for _ in 0..TRIES {
        let found = app.store.doc_get(KIND, key).await?;
        let mut progress = found.as_ref().map(read).unwrap_or_default();
        let out = edit(&mut progress);
        progress.signed_in = true;
        let body = serde_json::to_string(&progress).map_err(|e| {
            ApiError::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
        })?;
        let written = match found {
            Some(mut doc) => {
                doc.body = body;
                app.store.doc_update(&doc).await.map(|_| ())
            }
            None => {
                app.store
                    .doc_insert(Doc {
                        kind: KIND,
                        id: key.to_string(),
                        owner: None,
                        body,
                        version: 0,
                        created: app.now(),
                        expires: None,
                    })
                    .await
            }
        };
        match written {
            Ok(()) => return Ok(out),
            Err(StoreError::Conflict) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::unavailable(
        "the progress is being written elsewhere: try again",
        1,
    ))
}
