//! Durable storage in SQLite (one file, WAL mode).
//!
//! All writes go through one writer thread that owns the connection and
//! commits in groups: every job waiting when a transaction starts joins it,
//! and each job is acknowledged only after the commit (`synchronous=FULL`).
//! So a move is on disk before anyone hears of it, and a thousand busy
//! games cost one fsync per batch rather than one per move.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::mpsc;
use tokio::sync::oneshot;

/// The most jobs folded into one transaction.
const MAX_BATCH: usize = 512;

/// A stored action: seat (`None` = chance) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    pub actor: Option<u8>,
    pub text: String,
}

/// A stored game, as read back at start-up.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    pub created: i64,
    pub spec: String,
    pub start: Option<String>,
    pub seed: u64,
    /// Seats, off-board results and the like, as JSON (see `session::Meta`).
    pub meta: String,
    pub actions: Vec<StoredAction>,
}

/// One write.
#[derive(Debug)]
pub enum Op {
    /// A new game with its first actions (an imported record has some).
    Insert(StoredGame),
    /// Drop the actions from ply `keep` on, then append `actions` there,
    /// then replace the meta if given.
    Write {
        game: String,
        keep: usize,
        truncate: bool,
        actions: Vec<StoredAction>,
        meta: Option<String>,
    },
}

struct Job {
    op: Op,
    done: oneshot::Sender<Result<(), String>>,
}

/// Handle to the writer thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Job>,
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

impl Store {
    /// Open (or create) the database and read every game back.
    pub fn open(path: &Path) -> Result<(Store, Vec<StoredGame>), String> {
        let err = |e: rusqlite::Error| format!("database {}: {e}", path.display());
        let conn = Connection::open(path).map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(err)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(err)?;
        conn.execute_batch(SCHEMA).map_err(err)?;
        let games = load_all(&conn).map_err(err)?;
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok((Store { tx }, games))
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
}

fn load_all(conn: &Connection) -> rusqlite::Result<Vec<StoredGame>> {
    let mut games = Vec::new();
    let mut stmt =
        conn.prepare("SELECT id, created, spec, start, seed, meta FROM games ORDER BY created")?;
    let rows = stmt.query_map([], |r| {
        Ok(StoredGame {
            id: r.get(0)?,
            created: r.get(1)?,
            spec: r.get(2)?,
            start: r.get(3)?,
            seed: r.get::<_, i64>(4)? as u64,
            meta: r.get(5)?,
            actions: Vec::new(),
        })
    })?;
    for g in rows {
        games.push(g?);
    }
    let mut stmt = conn.prepare("SELECT actor, text FROM actions WHERE game = ?1 ORDER BY ply")?;
    for g in &mut games {
        let rows = stmt.query_map([&g.id], |r| {
            Ok(StoredAction {
                actor: r.get::<_, Option<i64>>(0)?.map(|a| a as u8),
                text: r.get(1)?,
            })
        })?;
        for a in rows {
            g.actions.push(a?);
        }
    }
    Ok(games)
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
        Op::Insert(g) => {
            tx.prepare_cached(
                "INSERT INTO games (id, created, spec, start, seed, meta) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![g.id, g.created, g.spec, g.start, g.seed as i64, g.meta])?;
            append(tx, &g.id, 0, &g.actions)
        }
        Op::Write {
            game,
            keep,
            truncate,
            actions,
            meta,
        } => {
            let exists: Option<i64> = tx
                .prepare_cached("SELECT 1 FROM games WHERE id = ?1")?
                .query_row([game], |r| r.get(0))
                .optional()?;
            if exists.is_none() {
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
