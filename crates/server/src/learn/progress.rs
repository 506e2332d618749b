//! A signed-in player's learning progress, kept on the server: the stars
//! of each lesson and the puzzle rating of each game, in one `learn`
//! document per account. It is written only from the engine's own
//! verdicts (`POST /api/learn/check`, `/api/puzzles/check`), so the rating
//! a browser sends counts for guests only. Guests keep theirs in the
//! browser.

use super::error::LearnError;
use crate::store::typed::{update_json, ChangeError};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_rating::Rating;

const KIND: &str = "learn";
/// Tries of the compare-and-set before giving up to a busier writer.
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

/// The stored progress of `key` (empty if none yet).
pub async fn load(store: &Store, key: &str) -> Result<Progress, LearnError> {
    Ok(store
        .read_json::<Progress>(KIND, key)
        .await?
        .map(|(_, progress)| progress)
        .unwrap_or_default())
}

/// Change the progress of `key` with `edit`, which returns what the caller
/// wants back: the store's one compare-and-set loop, a missing document
/// starting empty. `now`: the time of a first write (ms since 1970).
pub async fn change<T>(
    store: &Store,
    now: i64,
    key: &str,
    edit: impl Fn(&mut Progress) -> T,
) -> Result<T, LearnError> {
    let fresh = || (None, Progress::default());
    let changed = update_json(
        store,
        (KIND, key),
        TRIES,
        now,
        Some(&fresh),
        |p: &mut Progress| {
            p.signed_in = true;
            Ok::<_, LearnError>(Some(edit(p)))
        },
    )
    .await;
    match changed {
        Ok(Some((out, _))) => Ok(out),
        Ok(None) => Err(LearnError::NotWritten),
        Err(ChangeError::Refused(e)) => Err(e),
        Err(ChangeError::Store(e)) => Err(e.into()),
    }
}
