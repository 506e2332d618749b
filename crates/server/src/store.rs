//! Durable storage in SQLite (one file, WAL mode).
//!
//! All writes go through one writer thread that owns its connection and
//! commits in groups: every job waiting when a transaction starts joins it,
//! and each job is acknowledged only after the commit (`synchronous=FULL`).
//! So a move is on disk before anyone hears of it, and a thousand busy
//! games cost one fsync per batch rather than one per move. Reads use a
//! second connection, so a game is loaded only when someone needs it.
//!
//! Besides its actions, each game keeps two facts for queries that must not
//! replay games: its result once over, and whether an AI seat is to move
//! (the games to resume at start-up).

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use tokio::sync::oneshot;

/// The most jobs folded into one transaction.
const MAX_BATCH: usize = 512;

/// A stored action: seat (`None` = chance) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    pub actor: Option<u8>,
    pub text: String,
}

/// The facts kept beside a game for queries (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Status {
    /// `win N` / `draw N,M` once the game is over.
    pub result: Option<String>,
    /// An AI seat is to move.
    pub ai_turn: bool,
}

/// A stored game.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    pub created: i64,
    pub spec: String,
    pub start: Option<String>,
    pub seed: u64,
    /// Seats, off-board endings and the like, as JSON (`round::Meta`).
    pub meta: String,
    pub actions: Vec<StoredAction>,
}

/// A game as listed, without its actions.
#[derive(Clone, Debug)]
pub struct GameHead {
    pub id: String,
    pub created: i64,
    pub spec: String,
    pub meta: String,
    pub plies: usize,
    pub result: Option<String>,
}

/// One write.
#[derive(Debug)]
pub enum Op {
    /// A new game with its first actions (an imported record has some).
    Insert(StoredGame, Status),
    /// Drop the actions from ply `keep` on (when `truncate`), append
    /// `actions` there, replace the meta if given, set the status.
    Write {
        game: String,
        keep: usize,
        truncate: bool,
        actions: Vec<StoredAction>,
        meta: Option<String>,
        status: Status,
    },
}

struct Job {
    op: Op,
    done: oneshot::Sender<Result<(), String>>,
}

/// Handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Job>,
    reader: Arc<Mutex<Connection>>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    spec TEXT NOT NULL,
    start TEXT,
    seed INTEGER NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL,
    ply INTEGER NOT NULL,
    actor INTEGER,
    text TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
";

/// Version 1: each game's result and AI turn (NULL = not yet known: a game
/// written by an older version, filled in at start-up), the newest first.
const MIGRATE_1: &str = "
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN ai_turn INTEGER;
CREATE INDEX IF NOT EXISTS games_created ON games (created);
CREATE INDEX IF NOT EXISTS games_ai_turn ON games (ai_turn);
";

fn open_connection(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

/// Bring the schema to the version this build writes (`PRAGMA
/// user_version`), one step at a time, each step in a transaction.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if version < 1 {
        let tx = conn.transaction()?;
        tx.execute_batch(MIGRATE_1)?;
        tx.pragma_update(None, "user_version", 1)?;
        tx.commit()?;
    }
    Ok(())
}

impl Store {
    /// Open (or create, or upgrade) the database.
    pub fn open(path: &Path) -> Result<Store, String> {
        let err = |e: rusqlite::Error| format!("database {}: {e}", path.display());
        let mut conn = open_connection(path).map_err(err)?;
        migrate(&mut conn).map_err(err)?;
        let reader = open_connection(path).map_err(err)?;
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok(Store {
            tx,
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// Run `op` and wait until it is committed.
    pub async fn write(&self, op: Op) -> Result<(), String> {
        let (done, wait) = oneshot::channel();
        self.tx
            .send(Job { op, done })
            .map_err(|_| "the database thread has stopped".to_string())?;
        wait.await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// Run a read on the reading connection, off the async threads.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        let reader = Arc::clone(&self.reader);
        tokio::task::spawn_blocking(move || {
            let conn = reader.lock().unwrap_or_else(|e| e.into_inner());
            f(&conn).map_err(|e| format!("database: {e}"))
        })
        .await
        .map_err(|e| format!("database read failed: {e}"))?
    }

    /// One game with its actions.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, String> {
        let id = id.to_string();
        self.read(move |c| load_game(c, &id)).await
    }

    /// The newest `limit` games.
    pub async fn recent(&self, limit: usize) -> Result<Vec<GameHead>, String> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, created, spec, meta, result,
                        (SELECT COUNT(*) FROM actions a WHERE a.game = g.id)
                 FROM games g ORDER BY created DESC, id LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit as i64], |r| {
                Ok(GameHead {
                    id: r.get(0)?,
                    created: r.get(1)?,
                    spec: r.get(2)?,
                    meta: r.get(3)?,
                    result: r.get(4)?,
                    plies: r.get::<_, i64>(5)? as usize,
                })
            })?;
            rows.collect()
        })
        .await
    }

    /// Games whose status is `ai_turn` (true), or not yet known (false:
    /// written by an older version).
    pub async fn ids_where(&self, ai_turn: bool) -> Result<Vec<String>, String> {
        self.read(move |c| {
            let sql = if ai_turn {
                "SELECT id FROM games WHERE ai_turn = 1"
            } else {
                "SELECT id FROM games WHERE ai_turn IS NULL"
            };
            let mut stmt = c.prepare_cached(sql)?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    /// The number of stored games.
    pub async fn count(&self) -> Result<u64, String> {
        self.read(|c| c.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0)))
            .await
            .map(|n| n as u64)
    }
}

fn load_game(conn: &Connection, id: &str) -> rusqlite::Result<Option<StoredGame>> {
    let game = conn
        .prepare_cached("SELECT id, created, spec, start, seed, meta FROM games WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                created: r.get(1)?,
                spec: r.get(2)?,
                start: r.get(3)?,
                seed: r.get::<_, i64>(4)? as u64,
                meta: r.get(5)?,
                actions: Vec::new(),
            })
        })
        .optional()?;
    let Some(mut game) = game else {
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT actor, text FROM actions WHERE game = ?1 ORDER BY ply")?;
    let rows = stmt.query_map([id], |r| {
        Ok(StoredAction {
            actor: r.get::<_, Option<i64>>(0)?.map(|a| a as u8),
            text: r.get(1)?,
        })
    })?;
    game.actions = rows.collect::<rusqlite::Result<_>>()?;
    Ok(Some(game))
}

fn writer(mut conn: Connection, rx: mpsc::Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let together = run_batch(&mut conn, batch.iter().map(|j| &j.op));
        for job in batch {
            // A failed batch is retried job by job, so one bad write fails
            // alone.
            let result = match &together {
                Ok(()) => Ok(()),
                Err(_) => run_batch(&mut conn, std::iter::once(&job.op)),
            };
            let _ = job.done.send(result.map_err(|e| format!("database: {e}")));
        }
    }
}

fn run_batch<'a>(conn: &mut Connection, ops: impl Iterator<Item = &'a Op>) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for op in ops {
        apply(&tx, op)?;
    }
    tx.commit()
}

fn apply(tx: &rusqlite::Transaction, op: &Op) -> rusqlite::Result<()> {
    match op {
        Op::Insert(g, status) => {
            tx.prepare_cached(
                "INSERT INTO games (id, created, spec, start, seed, meta, result, ai_turn)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                g.id,
                g.created,
                g.spec,
                g.start,
                g.seed as i64,
                g.meta,
                status.result,
                status.ai_turn
            ])?;
            append(tx, &g.id, 0, &g.actions)
        }
        Op::Write {
            game,
            keep,
            truncate,
            actions,
            meta,
            status,
        } => {
            let changed = tx
                .prepare_cached("UPDATE games SET result = ?2, ai_turn = ?3 WHERE id = ?1")?
                .execute(params![game, status.result, status.ai_turn])?;
            if changed == 0 {
                return Err(rusqlite::Error::QueryReturnedNoRows);
            }
            if *truncate {
                tx.prepare_cached("DELETE FROM actions WHERE game = ?1 AND ply >= ?2")?
                    .execute(params![game, *keep as i64])?;
            }
            append(tx, game, *keep, actions)?;
            if let Some(meta) = meta {
                tx.prepare_cached("UPDATE games SET meta = ?2 WHERE id = ?1")?
                    .execute(params![game, meta])?;
            }
            Ok(())
        }
    }
}

fn append(
    tx: &rusqlite::Transaction,
    game: &str,
    first_ply: usize,
    actions: &[StoredAction],
) -> rusqlite::Result<()> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO actions (game, ply, actor, text) VALUES (?1, ?2, ?3, ?4)")?;
    for (i, a) in actions.iter().enumerate() {
        stmt.execute(params![
            game,
            (first_ply + i) as i64,
            a.actor.map(i64::from),
            a.text
        ])?;
    }
    Ok(())
}
