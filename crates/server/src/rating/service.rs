//! Rating each rated game once it ends: a subscriber of the finisher (only
//! the instance that ended a game announces it), ratings stored per player
//! and pool with a version every update checks, the change shown on the
//! game. A game's id is kept with each rating, so a game is never rated
//! twice.

use super::{rate, rated_players, RatingDoc};
use crate::app::App;
use crate::protocol::{Leader, PoolRating};
use crate::round::GameEnded;
use crate::store::{Doc, StoreError};
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
pub(crate) async fn follow(app: std::sync::Weak<App>) {
    let Some((mut rx, period, live)) = app.upgrade().map(|a| {
        (
            a.finisher.subscribe(),
            a.config.rating_sweep,
            a.config.rate_on_finish,
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
async fn catch_up(app: &Arc<App>) {
    let before = crate::round::now_ms() - app.config.rating_grace.as_millis() as i64;
    let ids = match app.store.ids_rating_due(before, SWEEP_BATCH).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!("rating sweep: {e}");
            return;
        }
    };
    for id in ids {
        let rated = match app.ended(&id).await {
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

/// A player's rating document in a pool and its version (`None`: new).
async fn load(app: &App, user: &str, pool: &str) -> Result<(Option<u64>, RatingDoc), String> {
    let doc = app
        .store
        .doc_get("rating", &doc_id(user, pool))
        .await
        .map_err(|e| e.to_string())?;
    Ok(match doc {
        Some(d) => (
            Some(d.version),
            serde_json::from_str(&d.body).map_err(|e| e.to_string())?,
        ),
        None => (
            None,
            RatingDoc {
                user: user.to_string(),
                ..RatingDoc::default()
            },
        ),
    })
}

async fn save(
    app: &App,
    pool: &str,
    version: Option<u64>,
    doc: &RatingDoc,
) -> Result<(), StoreError> {
    let d = Doc {
        kind: "rating",
        id: doc_id(&doc.user, pool),
        owner: Some(pool.to_string()),
        body: serde_json::to_string(doc).unwrap_or_default(),
        version: version.unwrap_or(0),
        created: app.now(),
        expires: None,
    };
    match version {
        Some(_) => app.store.doc_update(&d).await.map(|_| ()),
        None => app.store.doc_insert(d).await,
    }
}

/// Rate game `ended` if it is rated: each player's new rating from their
/// rating now and the others' before the game; then show the changes on
/// the game.
pub async fn rate_game(app: &Arc<App>, ended: &GameEnded) -> Result<(), String> {
    let Some(users) = rated_players(ended) else {
        if ended.rated && ended.ending.reason != tabula_core::EndReason::Aborted {
            // Rated, but a seat has no account any more (deleted): nothing
            // to rate, and nothing left to do for it.
            let none = vec![None; ended.seats.len()];
            return app.rated(&ended.id, none).await.map_err(|e| e.to_string());
        }
        return Ok(());
    };
    let pool = app
        .registry
        .pool_of(&ended.spec, ended.correspondence)
        .map_err(|e| e.to_string())?;
    let mut before = Vec::new();
    for u in &users {
        before.push(load(app, u, &pool).await?.1.rating);
    }
    let mut diffs = vec![None; users.len()];
    for (i, user) in users.iter().enumerate() {
        for _ in 0..TRIES {
            let (version, mut doc) = load(app, user, &pool).await?;
            let mut inputs = before.clone();
            inputs[i] = doc.rating;
            let Some(new) = rate(ended, &inputs).map(|r| r[i]) else {
                // Never rateable: recorded as rated with no change, so the
                // sweep does not try it for ever.
                tracing::error!(game = %ended.id, "cannot rate this ranking");
                let none = vec![None; users.len()];
                return app.rated(&ended.id, none).await.map_err(|e| e.to_string());
            };
            let diff = (new.rating.round() - doc.rating.rating.round()) as i32;
            if !doc.record(&ended.id, new, app.now()) {
                break;
            }
            match save(app, &pool, version, &doc).await {
                Ok(()) => {
                    diffs[i] = Some(diff);
                    if version.is_none() {
                        remember_pool(app, user, &pool).await;
                    }
                    break;
                }
                Err(StoreError::Conflict) => continue,
                Err(e) => return Err(e.to_string()),
            }
        }
    }
    app.rated(&ended.id, diffs).await.map_err(|e| e.to_string())
}

/// Add `pool` to the pools `user` has a rating in (for their profile).
async fn remember_pool(app: &App, user: &str, pool: &str) {
    for _ in 0..TRIES {
        let found = app.store.doc_get("rating_pools", user).await;
        let (version, mut pools): (Option<u64>, Vec<String>) = match found {
            Ok(Some(d)) => (
                Some(d.version),
                serde_json::from_str(&d.body).unwrap_or_default(),
            ),
            Ok(None) => (None, Vec::new()),
            Err(e) => {
                tracing::warn!("rating pools of {user}: {e}");
                return;
            }
        };
        if pools.iter().any(|p| p == pool) {
            return;
        }
        pools.push(pool.to_string());
        let d = Doc {
            kind: "rating_pools",
            id: user.to_string(),
            owner: None,
            body: serde_json::to_string(&pools).unwrap_or_default(),
            version: version.unwrap_or(0),
            created: app.now(),
            expires: None,
        };
        let saved = match version {
            Some(_) => app.store.doc_update(&d).await.map(|_| ()),
            None => app.store.doc_insert(d).await,
        };
        if !matches!(saved, Err(StoreError::Conflict)) {
            return;
        }
    }
}

fn pool_rating(doc: &RatingDoc) -> PoolRating {
    PoolRating {
        rating: doc.rating.rating.round() as i32,
        rd: doc.rating.rd.round() as i32,
        games: doc.rating.games,
        provisional: doc.rating.provisional(),
        history: doc.history.clone(),
    }
}

impl App {
    /// `user`'s rating in `pool`, rounded (1500 when they have none yet or
    /// it cannot be read: a seed, never a reason to refuse).
    pub async fn rating_in(&self, user: &str, pool: &str) -> i32 {
        match load(self, user, pool).await {
            Ok((_, doc)) => doc.rating.rating.round() as i32,
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
        let pools: Vec<String> = match self.store.doc_get("rating_pools", user).await {
            Ok(Some(d)) => serde_json::from_str(&d.body).unwrap_or_default(),
            Ok(None) => Vec::new(),
            Err(e) => return Err(e.to_string()),
        };
        let mut out = std::collections::BTreeMap::new();
        for pool in pools {
            let (_, doc) = load(self, user, &pool).await?;
            out.insert(pool, pool_rating(&doc));
        }
        Ok(out)
    }

    /// The best established ratings of `pool` (provisional ones are not
    /// listed), best first.
    pub async fn leaderboard(&self, pool: &str) -> Result<Vec<Leader>, String> {
        let docs = self
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
