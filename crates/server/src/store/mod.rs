//! Durable storage: one interface, two engines. SQLite (a file, the
//! embedded default) or PostgreSQL (`postgres://…`, for several server
//! instances on one database). Both keep the same schema, migrated at
//! start-up (`migrations/<engine>/`), and behave the same: the store tests
//! run against both.
//!
//! Every write to a game names the row version it was planned on and raises
//! it; a write planned on an older version is refused ([`StoreError::Conflict`])
//! and changes nothing, so two writers (two tasks, two instances) can never
//! both extend a game. Besides its actions, each game keeps its result once
//! over and whether an AI seat is to move, for queries that must not replay
//! games.

mod postgres;
mod sqlite;

use std::fmt;

/// A stored action: seat (`None` = chance) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    pub actor: Option<u8>,
    pub text: String,
}

/// The facts kept beside a game for queries.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Status {
    /// `win N` / `draw N,M` once the game is over.
    pub result: Option<String>,
    /// An AI seat is to move.
    pub ai_turn: bool,
}

/// A stored game.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    pub id: String,
    pub created: i64,
    pub spec: String,
    pub start: Option<String>,
    pub seed: u64,
    /// Seats, off-board endings and the like, as JSON (`round::Meta`).
    pub meta: String,
    pub actions: Vec<StoredAction>,
    /// The row version (0 when inserted, one more per write).
    pub version: u64,
}

/// A game as listed, without its actions.
#[derive(Clone, Debug, PartialEq)]
pub struct GameHead {
    pub id: String,
    pub created: i64,
    pub spec: String,
    pub meta: String,
    pub plies: usize,
    pub result: Option<String>,
}

/// One write to a game planned on row `version`: drop its actions from ply
/// `keep` on (when `truncate`), append `actions` there, replace the meta if
/// given, set the status.
#[derive(Clone, Debug, PartialEq)]
pub struct Write {
    pub game: String,
    pub version: u64,
    pub keep: usize,
    pub truncate: bool,
    pub actions: Vec<StoredAction>,
    pub meta: Option<String>,
    pub status: Status,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The game changed since the write was planned: reload and retry.
    Conflict,
    /// No such game.
    Missing,
    /// The database failed (or is out of reach).
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict => f.write_str("the game was changed by another request"),
            StoreError::Missing => f.write_str("no such game in the database"),
            StoreError::Failed(e) => write!(f, "database: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// A database: which engine is chosen by the address.
#[derive(Clone)]
pub enum Store {
    Sqlite(sqlite::Sqlite),
    Postgres(postgres::Postgres),
}

impl Store {
    /// Open (or create, or upgrade) the database at `address`: a
    /// `postgres://` or `postgresql://` URL, else a SQLite file path.
    pub async fn open(address: &str) -> Result<Store, String> {
        if address.starts_with("postgres://") || address.starts_with("postgresql://") {
            Ok(Store::Postgres(postgres::Postgres::open(address).await?))
        } else {
            let path = std::path::PathBuf::from(address);
            tokio::task::spawn_blocking(move || sqlite::Sqlite::open(&path))
                .await
                .map_err(|e| format!("cannot open the database: {e}"))?
                .map(Store::Sqlite)
        }
    }

    /// The engine's name, for logs.
    pub fn engine(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    /// Store a new game (row version 0).
    pub async fn insert(&self, game: StoredGame, status: Status) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.insert(game, status).await,
            Store::Postgres(p) => p.insert(game, status).await,
        }
    }

    /// Apply `write` if the game is still at its version; the new version.
    pub async fn write(&self, write: Write) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.write(write).await,
            Store::Postgres(p) => p.write(write).await,
        }
    }

    /// One game with its actions.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load(id).await,
            Store::Postgres(p) => p.load(id).await,
        }
    }

    /// The newest `limit` games, newest first.
    pub async fn recent(&self, limit: usize) -> Result<Vec<GameHead>, StoreError> {
        match self {
            Store::Sqlite(s) => s.recent(limit).await,
            Store::Postgres(p) => p.recent(limit).await,
        }
    }

    /// Games whose AI seat is to move (`Some(true)`), or whose status is not
    /// known yet (`None`: written by an older version).
    pub async fn ids_with_ai_turn(&self, ai_turn: Option<bool>) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.ids_with_ai_turn(ai_turn).await,
            Store::Postgres(p) => p.ids_with_ai_turn(ai_turn).await,
        }
    }

    /// Every write of every instance as `(game, new version)`; `("", 0)`
    /// when some may have been missed. Listening has begun on return. `None` for SQLite, which one process
    /// owns.
    pub async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::Receiver<(String, u64)>>, String> {
        match self {
            Store::Sqlite(_) => Ok(None),
            Store::Postgres(p) => p.listen().await.map(Some),
        }
    }

    /// Let instance `me` drive the AI turn of game `game` at row `version`
    /// until `until` (ms): false while another instance's claim runs, or
    /// once the game has moved past that version. Any write to the game
    /// ends the claim.
    pub async fn claim_ai(
        &self,
        game: &str,
        version: u64,
        me: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Sqlite(s) => s.claim_ai(game, version, me, now, until).await,
            Store::Postgres(p) => p.claim_ai(game, version, me, now, until).await,
        }
    }

    /// Claim for `me` up to `limit` games whose AI seat is to move and
    /// whose claim is missing or ran out (its instance died); their ids.
    pub async fn claim_orphans(
        &self,
        me: &str,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.claim_orphans(me, now, until, limit).await,
            Store::Postgres(p) => p.claim_orphans(me, now, until, limit).await,
        }
    }

    /// The number of stored games (also a health check: it reads the
    /// database).
    pub async fn count(&self) -> Result<u64, StoreError> {
        match self {
            Store::Sqlite(s) => s.count().await,
            Store::Postgres(p) => p.count().await,
        }
    }
}
