//! Rating each rated game once it ends: a subscriber of the finisher (only
//! the instance that ended a game announces it), ratings stored per player
//! and pool with a version every update checks, the change shown on the
//! game. A game's id is kept with each rating, so a game is never rated
//! twice.

use super::{rate, rated_players, RatingDoc};
use crate::protocol::{Leader, PoolRating};
use crate::round::GameEnded;
use crate::round::Rounds;
use crate::store::{update_json, ChangeError};
use std::sync::Arc;
use tabula_rating::Rating;
use tokio::sync::broadcast::error::RecvError;

/// How many times a rating update is tried again when another game of the
/// same player was rated at the same moment.
const TRIES: usize = 5;
/// Players on a leaderboard.
pub const LEADERS: usize = 100;

/// How many games still to rate one sweep takes on.
const SWEEP_BATCH: usize = 50;

/// Rate every rated game that ends here as it ends, and every few seconds
/// every ended rated game still unrated (`rating_due` in the store: its
/// announcement was missed, or its instance died first), until the app is
/// gone. A game is rated exactly once: each rating document keeps the ids
/// of the games it took in, and its writes are compare-and-set.
async fn follow(app: std::sync::Weak<Ratings>) {
    let Some((mut rx, period, live)) = app.upgrade().map(|a| {
        (
            a.rounds.finisher.subscribe(),
            a.rounds.config.rating_sweep,
            a.rounds.config.rate_on_finish,
        )
    }) else {
        return;
    };
    let mut sweep = tokio::time::interval(period);
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let ended = tokio::select! {
            _ = sweep.tick() => None,
            e = rx.recv() => match e {
                Ok(e) => Some(e),
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!("ratings fell behind by {n} endings: the sweep rates them");
                    None
                }
                Err(RecvError::Closed) => return,
            },
        };
        let Some(app) = app.upgrade() else { return };
        match ended {
            Some(ended) if live => {
                if let Err(e) = rate_game(&app, &ended).await {
                    tracing::error!(game = %ended.id, "not rated yet: {e}");
                }
            }
            Some(_) => {}
            None => catch_up(&app).await,
        }
    }
}

/// Rate the ended rated games that are still unrated.
async fn catch_up(app: &Ratings) {
    let before = app.rounds.now() - app.rounds.config.rating_grace.as_millis() as i64;
    let ids = match app.rounds.store.ids_rating_due(before, SWEEP_BATCH).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!("rating sweep: {e}");
            return;
        }
    };
    for id in ids {
        let rated = match app.rounds.ended(&id).await {
            Ok(Some(ended)) => rate_game(app, &ended).await,
            Ok(None) => Err("the game is not over".into()),
            Err(e) => Err(e.to_string()),
        };
        match rated {
            Ok(()) => tracing::info!(game = %id, "rated by the catch-up sweep"),
            Err(e) => tracing::error!(game = %id, "not rated yet: {e}"),
        }
    }
}

fn doc_id(user: &str, pool: &str) -> String {
    format!("{user}|{pool}")
}

/// A player's rating document before their first game in a pool.
fn fresh(user: &str) -> RatingDoc {
    RatingDoc {
        user: user.to_string(),
        ..RatingDoc::default()
    }
}

/// A player's rating document in a pool (a fresh one if they have none).
async fn load(app: &Ratings, user: &str, pool: &str) -> Result<RatingDoc, String> {
    let found = app
        .rounds
        .store
        .read_json("rating", &doc_id(user, pool))
        .await
        .map_err(|e| e.to_string())?;
    Ok(found.map_or_else(|| fresh(user), |(_, doc)| doc))
}

/// Rate game `ended` if it is rated: each player's new rating from their
/// rating now and the others' before the game; then show the changes on
/// the game.
pub async fn rate_game(app: &Ratings, ended: &GameEnded) -> Result<(), String> {
    let Some(users) = rated_players(ended) else {
        if ended.rated && ended.ending.reason != tabula_core::EndReason::Aborted {
            // Rated, but a seat has no account any more (deleted): nothing
            // to rate, and nothing left to do for it.
            let none = vec![None; ended.seats.len()];
            return app
                .rounds
                .rated(&ended.id, none)
                .await
                .map_err(|e| e.to_string());
        }
        return Ok(());
    };
    let pool = app
        .rounds
        .registry
        .pool_of(&ended.spec, ended.correspondence)
        .map_err(|e| e.to_string())?;
    let mut before = Vec::new();
    for u in &users {
        before.push(load(app, u, &pool).await?.rating);
    }
    let mut diffs = vec![None; users.len()];
    for (i, user) in users.iter().enumerate() {
        let fresh = || (Some(pool.clone()), fresh(user));
        let now = app.rounds.now();
        let changed = update_json(
            &app.rounds.store,
            ("rating", &doc_id(user, &pool)),
            TRIES,
            now,
            Some(&fresh),
            |doc: &mut RatingDoc| {
                let mut inputs = before.clone();
                inputs[i] = doc.rating;
                let new = rate(ended, &inputs).map(|r| r[i]).ok_or(Unrateable)?;
                let diff = (new.rating.round() - doc.rating.rating.round()) as i32;
                // Already rated with this game: nothing to write.
                Ok(doc.record(&ended.id, new, now).then_some(diff))
            },
        )
        .await;
        match changed {
            Ok(Some((diff, _))) => {
                diffs[i] = Some(diff);
                remember_pool(app, user, &pool).await;
            }
            Ok(None) => {}
            Err(ChangeError::Refused(Unrateable)) => {
                // Never rateable: recorded as rated with no change, so the
                // sweep does not try it for ever.
                tracing::error!(game = %ended.id, "cannot rate this ranking");
                let none = vec![None; users.len()];
                return app
                    .rounds
                    .rated(&ended.id, none)
                    .await
                    .map_err(|e| e.to_string());
            }
            Err(ChangeError::Store(e)) => return Err(e.to_string()),
        }
    }
    app.rounds
        .rated(&ended.id, diffs)
        .await
        .map_err(|e| e.to_string())
}

/// Add `pool` to the pools `user` has a rating in (for their profile).
async fn remember_pool(app: &Ratings, user: &str, pool: &str) {
    let fresh = || (None, Vec::<String>::new());
    let added = update_json(
        &app.rounds.store,
        ("rating_pools", user),
        TRIES,
        app.rounds.now(),
        Some(&fresh),
        |pools: &mut Vec<String>| {
            if pools.iter().any(|p| p == pool) {
                return Ok::<_, std::convert::Infallible>(None);
            }
            pools.push(pool.to_string());
            Ok(Some(()))
        },
    )
    .await;
    if let Err(ChangeError::Store(e)) = added {
        tracing::warn!("rating pools of {user}: {e}");
    }
}

/// A ranking the rating system cannot take (a change refuses itself).
struct Unrateable;

fn pool_rating(doc: &RatingDoc) -> PoolRating {
    PoolRating {
        rating: doc.rating.rating.round() as i32,
        rd: doc.rating.rd.round() as i32,
        games: doc.rating.games,
        provisional: doc.rating.provisional(),
        history: doc.history.clone(),
    }
}

/// Ratings per player and pool.
pub struct Ratings {
    rounds: Arc<Rounds>,
}

impl Ratings {
    pub fn new(rounds: Arc<Rounds>) -> Self {
        Ratings { rounds }
    }

    /// Rate games as they end here, and catch up on those missed, until
    /// the ratings are gone.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(follow(Arc::downgrade(self)));
    }

    /// `user`'s rating in `pool`, rounded (1500 when they have none yet or
    /// it cannot be read: a seed, never a reason to refuse).
    pub async fn rating_in(&self, user: &str, pool: &str) -> i32 {
        match load(self, user, pool).await {
            Ok(doc) => doc.rating.rating.round() as i32,
            Err(e) => {
                tracing::warn!("rating of {user} in {pool}: {e}");
                Rating::new().rating.round() as i32
            }
        }
    }

    /// `user`'s ratings, by pool.
    pub async fn ratings_of(
        &self,
        user: &str,
    ) -> Result<std::collections::BTreeMap<String, PoolRating>, String> {
        let pools: Vec<String> = match self.rounds.store.doc_get("rating_pools", user).await {
            Ok(Some(d)) => serde_json::from_str(&d.body).unwrap_or_default(),
            Ok(None) => Vec::new(),
            Err(e) => return Err(e.to_string()),
        };
        let mut out = std::collections::BTreeMap::new();
        for pool in pools {
            let doc = load(self, user, &pool).await?;
            out.insert(pool, pool_rating(&doc));
        }
        Ok(out)
    }

    /// The best established ratings of `pool` (provisional ones are not
    /// listed), best first.
    pub async fn leaderboard(&self, pool: &str) -> Result<Vec<Leader>, String> {
        let docs = self
            .rounds
            .store
            .doc_list("rating", Some(pool), 0, 10_000)
            .await
            .map_err(|e| e.to_string())?;
        let mut rows: Vec<RatingDoc> = docs
            .iter()
            .filter_map(|d| serde_json::from_str(&d.body).ok())
            .filter(|d: &RatingDoc| !d.rating.provisional())
            .collect();
        rows.sort_by(|a, b| b.rating.rating.total_cmp(&a.rating.rating));
        rows.truncate(LEADERS);
        Ok(rows
            .iter()
            .map(|d| Leader {
                username: d.user.clone(),
                rating: d.rating.rating.round() as i32,
                rd: d.rating.rd.round() as i32,
                games: d.rating.games,
            })
            .collect())
    }
}

/// A new player's rating, for views before any game.
pub fn initial() -> Rating {
    Rating::new()
}
