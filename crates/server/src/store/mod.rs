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

pub mod health;
mod postgres;
mod sqlite;
pub mod typed;

pub use typed::{retry_on_conflict, update_json, ChangeError};

/// The columns a game list reads, with the game's plies counted (`g` is
/// the games table); shared by both engines' list queries.
const HEAD_COLUMNS: &str =
    "g.id, g.created, g.spec, g.meta, g.result, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id)";

use crate::common::PlayerId;
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
    /// The seat to move when a person is to move.
    pub to_move: Option<u8>,
    /// Who plays the seats and how it went for them: written with the
    /// game, and again when a write changes the meta or ends the game.
    pub players: Vec<SeatRow>,
    /// When something happens on time (a flag, an abort; ms since 1970).
    pub deadline: Option<i64>,
    /// A rated game that ended and whose rating changes are not recorded
    /// yet (`rating::service` rates every such game, across crashes).
    pub rating_due: bool,
}

/// A seat's player, for profiles and "your turn" lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: u8,
    pub player: PlayerId,
    /// How the game went for them, once it is over.
    pub outcome: Option<SeatResult>,
}

/// How a finished game went for one seat, as its `players` row keeps it
/// (`win`, `draw`, `loss`): what profiles count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

impl SeatResult {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatResult::Win => "win",
            SeatResult::Draw => "draw",
            SeatResult::Loss => "loss",
        }
    }

    /// A stored text read back; `None` for anything else.
    pub fn parse(text: &str) -> Option<SeatResult> {
        [SeatResult::Win, SeatResult::Draw, SeatResult::Loss]
            .into_iter()
            .find(|r| r.as_str() == text)
    }
}

/// Identities as the store's columns hold them.
fn texts(ids: &[PlayerId]) -> Vec<String> {
    ids.iter().map(PlayerId::to_string).collect()
}

/// A small document of the platform: an account, a session, a seek, a
/// chat line. Its body is JSON; updates name the version they were read at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doc {
    pub kind: &'static str,
    pub id: String,
    /// What it is listed by (a seek's creator, a chat line's game).
    pub owner: Option<String>,
    pub body: String,
    pub version: u64,
    /// Milliseconds since 1970.
    pub created: i64,
    /// Gone after this time (ms since 1970), if set.
    pub expires: Option<i64>,
}

/// What another instance announced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// Game `id` was written at row version `version`; the write changed
    /// its actions from ply `from` on (`None`: not said, look at the whole
    /// game). An instance holding the version before reads only that tail.
    Game {
        id: String,
        version: u64,
        from: Option<usize>,
    },
    /// Game `id` has a new chat line.
    Chat(String),
    /// The open seeks changed.
    Lobby,
    /// Credentials were revoked (`user::revoke::Revoked::to_note`).
    Revoked(String),
    /// Notes may have been missed: everything should look again.
    Missed,
    /// Game `id` at row version `version` has an AI seat to move and the
    /// instance that wrote it computes no AI (`--ai-workers 0`): an
    /// instance that does (a `tabula worker`) claims the turn.
    AiTurn(String, u64),
    /// A job for the instances that compute AI was queued: a hint
    /// (`round/hints.rs`) or an analysis (`analysis/`).
    WorkQueued,
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

/// What a game's write left from ply `from` on: read by an instance that
/// holds the game as it was just before, so a move made elsewhere costs it
/// the new actions, not the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Tail {
    /// The row version read (the note's, unless the game was written again).
    pub version: u64,
    /// The meta as JSON.
    pub meta: String,
    /// The row version of the last write that dropped actions (0: none):
    /// the actions before `from` are those of any version since.
    pub cut: u64,
    /// The actions from ply `from` on.
    pub actions: Vec<StoredAction>,
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

impl Write {
    /// Whether this write may change who plays or how it went for them.
    pub fn players_changed(&self) -> bool {
        self.meta.is_some() || self.status.result.is_some()
    }
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

/// A database: which engine is chosen by the address; cheap to clone.
#[derive(Clone)]
pub struct Store {
    engine: Engine,
    /// Whether writes succeed, shared by every clone.
    health: std::sync::Arc<health::Health>,
}

#[derive(Clone)]
enum Engine {
    Sqlite(sqlite::Sqlite),
    Postgres(postgres::Postgres),
}

impl Store {
    /// Open (or create, or upgrade) the database at `address`: a
    /// `postgres://` or `postgresql://` URL, else a SQLite file path.
    pub async fn open(address: &str) -> Result<Store, String> {
        let engine = if address.starts_with("postgres://") || address.starts_with("postgresql://") {
            Engine::Postgres(postgres::Postgres::open(address).await?)
        } else {
            let path = std::path::PathBuf::from(address);
            tokio::task::spawn_blocking(move || sqlite::Sqlite::open(&path))
                .await
                .map_err(|e| format!("cannot open the database: {e}"))?
                .map(Engine::Sqlite)?
        };
        Ok(Store {
            engine,
            health: Default::default(),
        })
    }

    /// The engine's name, for logs.
    pub fn engine(&self) -> &'static str {
        match &self.engine {
            Engine::Sqlite(_) => "sqlite",
            Engine::Postgres(_) => "postgres",
        }
    }

    /// Store a new game (row version 0).
    pub async fn insert(&self, game: StoredGame, status: Status) -> Result<(), StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.insert(game, status).await,
            Engine::Postgres(p) => p.insert(game, status).await,
        };
        self.health.observe(result)
    }

    /// Apply `write` if the game is still at its version; the new version.
    pub async fn write(&self, write: Write) -> Result<u64, StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.write(write).await,
            Engine::Postgres(p) => p.write(write).await,
        };
        self.health.observe(result)
    }

    /// Remove a game that was stored but never opened (its seek was taken
    /// by someone else meanwhile).
    pub async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.delete_game(id).await,
            Engine::Postgres(p) => p.delete_game(id).await,
        };
        self.health.observe(result)
    }

    /// One game with its actions.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.load(id).await,
            Engine::Postgres(p) => p.load(id).await,
        }
    }

    /// Game `id`'s row version, meta and actions from ply `from` on, read
    /// together (one snapshot).
    pub async fn load_tail(&self, id: &str, from: usize) -> Result<Option<Tail>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.load_tail(id, from).await,
            Engine::Postgres(p) => p.load_tail(id, from).await,
        }
    }

    /// The newest `limit` games, newest first.
    pub async fn recent(&self, limit: usize) -> Result<Vec<GameHead>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.recent(limit).await,
            Engine::Postgres(p) => p.recent(limit).await,
        }
    }

    /// Games whose AI seat is to move (`Some(true)`), or whose status is not
    /// known yet (`None`: written by an older version).
    pub async fn ids_with_ai_turn(&self, ai_turn: Option<bool>) -> Result<Vec<String>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.ids_with_ai_turn(ai_turn).await,
            Engine::Postgres(p) => p.ids_with_ai_turn(ai_turn).await,
        }
    }

    /// Every note of every instance (game writes, lobby changes).
    /// Listening has begun on return. `None` for SQLite, which one process
    /// owns.
    pub async fn listen(&self) -> Result<Option<tokio::sync::mpsc::Receiver<Note>>, String> {
        match &self.engine {
            Engine::Sqlite(_) => Ok(None),
            Engine::Postgres(p) => p.listen().await.map(Some),
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
        match &self.engine {
            Engine::Sqlite(s) => s.claim_ai(game, version, me, now, until).await,
            Engine::Postgres(p) => p.claim_ai(game, version, me, now, until).await,
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
        match &self.engine {
            Engine::Sqlite(s) => s.claim_orphans(me, now, until, limit).await,
            Engine::Postgres(p) => p.claim_orphans(me, now, until, limit).await,
        }
    }

    /// Game `id`'s row version as another instance may have written it
    /// (PostgreSQL); `None` on SQLite, which no other process writes, and
    /// for a missing game.
    pub async fn version_elsewhere(&self, id: &str) -> Result<Option<u64>, StoreError> {
        match &self.engine {
            Engine::Sqlite(_) => Ok(None),
            Engine::Postgres(p) => p.version(id).await,
        }
    }

    /// Tell the other instances (PostgreSQL; one SQLite process has none).
    pub async fn notify(&self, note: &Note) -> Result<(), StoreError> {
        match &self.engine {
            Engine::Sqlite(_) => Ok(()),
            Engine::Postgres(p) => p.notify(note).await,
        }
    }

    /// Games of `players` (any of the ids), over or not, newest first.
    pub async fn player_games(
        &self,
        players: &[PlayerId],
        over: bool,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<GameHead>, StoreError> {
        let players = texts(players);
        match &self.engine {
            Engine::Sqlite(s) => s.player_games(players, over, limit, offset).await,
            Engine::Postgres(p) => p.player_games(&players, over, limit, offset).await,
        }
    }

    /// Up to `limit` unfinished games whose deadline is at or before `now`.
    pub async fn ids_due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.ids_due(now, limit).await,
            Engine::Postgres(p) => p.ids_due(now, limit).await,
        }
    }

    /// Up to `limit` games still to rate whose last write was before
    /// `before` (ms since 1970).
    pub async fn ids_rating_due(
        &self,
        before: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.ids_rating_due(before, limit).await,
            Engine::Postgres(p) => p.ids_rating_due(before, limit).await,
        }
    }

    /// Games where one of `players` is to move, oldest move first.
    pub async fn your_turn(&self, players: &[PlayerId]) -> Result<Vec<GameHead>, StoreError> {
        let players = texts(players);
        match &self.engine {
            Engine::Sqlite(s) => s.your_turn(players).await,
            Engine::Postgres(p) => p.your_turn(&players).await,
        }
    }

    /// How finished games went for `players`: `(spec, result, count)`; a
    /// stored result this version does not know is left out.
    pub async fn player_record(
        &self,
        players: &[PlayerId],
    ) -> Result<Vec<(String, SeatResult, u64)>, StoreError> {
        let players = texts(players);
        let rows = match &self.engine {
            Engine::Sqlite(s) => s.player_record(players).await,
            Engine::Postgres(p) => p.player_record(&players).await,
        }?;
        Ok(rows
            .into_iter()
            .filter_map(|(spec, result, n)| Some((spec, SeatResult::parse(&result)?, n)))
            .collect())
    }

    /// Store a new document; [`StoreError::Conflict`] if its id is taken.
    pub async fn doc_insert(&self, doc: Doc) -> Result<(), StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.doc_insert(doc).await,
            Engine::Postgres(p) => p.doc_insert(doc).await,
        };
        self.health.observe(result)
    }

    pub async fn doc_get(&self, kind: &'static str, id: &str) -> Result<Option<Doc>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.doc_get(kind, id).await,
            Engine::Postgres(p) => p.doc_get(kind, id).await,
        }
    }

    /// Replace a document's body and expiry if it is still at `doc.version`;
    /// the new version.
    pub async fn doc_update(&self, doc: &Doc) -> Result<u64, StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.doc_update(doc.clone()).await,
            Engine::Postgres(p) => p.doc_update(doc).await,
        };
        self.health.observe(result)
    }

    /// Delete a document; whether it existed.
    pub async fn doc_delete(&self, kind: &'static str, id: &str) -> Result<bool, StoreError> {
        self.health.before_write()?;
        let result = match &self.engine {
            Engine::Sqlite(s) => s.doc_delete(kind, id).await,
            Engine::Postgres(p) => p.doc_delete(kind, id).await,
        };
        self.health.observe(result)
    }

    /// Documents of `kind` (of `owner` if given) not expired at `now`,
    /// oldest first.
    pub async fn doc_list(
        &self,
        kind: &'static str,
        owner: Option<&str>,
        now: i64,
        limit: usize,
    ) -> Result<Vec<Doc>, StoreError> {
        let owner = owner.map(str::to_string);
        match &self.engine {
            Engine::Sqlite(s) => s.doc_list(kind, owner, now, limit).await,
            Engine::Postgres(p) => p.doc_list(kind, owner, now, limit).await,
        }
    }

    /// Set the expiry of every document of `kind` owned by `owner` that
    /// has one; how many.
    pub async fn doc_touch(
        &self,
        kind: &'static str,
        owner: &str,
        expires: i64,
    ) -> Result<u64, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.doc_touch(kind, owner.to_string(), expires).await,
            Engine::Postgres(p) => p.doc_touch(kind, owner, expires).await,
        }
    }

    /// Delete the documents of `kind` that expired before `now`; how many.
    pub async fn doc_purge(&self, kind: &'static str, now: i64) -> Result<u64, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.doc_purge(kind, now).await,
            Engine::Postgres(p) => p.doc_purge(kind, now).await,
        }
    }

    /// Up to `limit` unfinished games last written before `before` (ms
    /// since 1970), for the expiry of abandoned games.
    pub async fn stale_games(&self, before: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.stale_games(before, limit).await,
            Engine::Postgres(p) => p.stale_games(before, limit).await,
        }
    }

    /// Make the next `n` writes fail as a database fault would (fault
    /// tests).
    pub fn inject_faults(&self, n: usize) {
        self.health.inject(n);
    }

    /// Why writes fail, while they do (for `/healthz`).
    pub fn failing(&self) -> Option<String> {
        self.health.failing()
    }

    /// While writes fail, try one (a small document written and removed):
    /// its success clears the failure, so `/healthz` recovers without
    /// waiting for a player's write.
    pub async fn probe_writes(&self, now: i64) {
        if self.failing().is_none() {
            return;
        }
        let doc = Doc {
            kind: "probe",
            id: format!("probe-{now}-{}", rand::random::<u32>()),
            owner: None,
            body: format!("\"{}\"", "x".repeat(4096)),
            version: 0,
            created: now,
            expires: Some(now + 60_000),
        };
        if self.doc_insert(doc.clone()).await.is_ok() {
            let _ = self.doc_delete(doc.kind, &doc.id).await;
        }
    }

    /// The number of stored games (also a health check: it reads the
    /// database).
    pub async fn count(&self) -> Result<u64, StoreError> {
        match &self.engine {
            Engine::Sqlite(s) => s.count().await,
            Engine::Postgres(p) => p.count().await,
        }
    }
}
