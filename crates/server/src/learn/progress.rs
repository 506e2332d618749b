//! A signed-in player's learning progress, kept on the server: the stars
//! of each lesson and the puzzle rating of each game, in one `learn`
//! document per account. It is written only from the engine's own
//! verdicts (`POST /api/learn/check`, `/api/puzzles/check`), so the rating
//! a browser sends counts for guests only. Guests keep theirs in the
//! browser. Each game's puzzles have live ratings too, moved by the first
//! try of each signed-in solver (`puzzle_ratings`).

use super::error::LearnError;
use crate::store::typed::{update_json, ChangeError};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tabula_learn::Puzzle;
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
/// wants back. `now`: the time of a first write (ms since 1970).
pub async fn change<T>(
    store: &Store,
    now: i64,
    key: &str,
    edit: impl Fn(&mut Progress) -> T,
) -> Result<T, LearnError> {
    change_doc(store, now, (KIND, key), |p: &mut Progress| {
        p.signed_in = true;
        edit(p)
    })
    .await
}

/// The live ratings of one game's puzzles, by id: only those a signed-in
/// solver has tried (the others are at their file's rating). One
/// document a game, as long as its puzzle file at most.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRatings {
    #[serde(default)]
    pub ratings: BTreeMap<String, Rating>,
}

const RATINGS: &str = "puzzle_ratings";

/// The live ratings of `game`'s puzzles.
pub async fn puzzle_ratings(store: &Store, game: &str) -> Result<PuzzleRatings, LearnError> {
    Ok(store
        .read_json::<PuzzleRatings>(RATINGS, game)
        .await?
        .map(|(_, r)| r)
        .unwrap_or_default())
}

/// A puzzle's live rating: its stored one, else the one it was made with.
pub fn live_rating(ratings: &PuzzleRatings, puzzle: &Puzzle) -> Rating {
    ratings
        .ratings
        .get(&puzzle.id)
        .copied()
        .unwrap_or_else(|| puzzle.base_rating())
}

/// Move `puzzle`'s live rating by one signed-in solver's first try
/// (`solver`: their rating before it); returns the new one.
pub async fn rerate(
    store: &Store,
    now: i64,
    game: &str,
    puzzle: &Puzzle,
    solver: &Rating,
    solved: bool,
) -> Result<Rating, LearnError> {
    change_doc(store, now, (RATINGS, game), |r: &mut PuzzleRatings| {
        let next = puzzle.rerate(&live_rating(r, puzzle), solver, solved);
        r.ratings.insert(puzzle.id.clone(), next);
        next
    })
    .await
}

/// Change the document `(kind, key)` with `edit`: the store's one
/// compare-and-set loop, a missing document starting empty.
async fn change_doc<D, T>(
    store: &Store,
    now: i64,
    (kind, key): (&'static str, &str),
    edit: impl Fn(&mut D) -> T,
) -> Result<T, LearnError>
where
    D: Default + Serialize + serde::de::DeserializeOwned,
{
    let fresh = || (None, D::default());
    let changed = update_json(store, (kind, key), TRIES, now, Some(&fresh), |d: &mut D| {
        Ok::<_, LearnError>(Some(edit(d)))
    })
    .await;
    match changed {
        Ok(Some((out, _))) => Ok(out),
        Ok(None) => Err(LearnError::NotWritten),
        Err(ChangeError::Refused(e)) => Err(e),
        Err(ChangeError::Store(e)) => Err(e.into()),
    }
}
