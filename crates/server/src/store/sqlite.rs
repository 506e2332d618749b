//! The SQLite engine: one file in WAL mode.
//!
//! All writes go through one writer thread that owns its connection and
//! commits in groups: every job waiting when a transaction starts joins it,
//! and each job is acknowledged only after the commit (`synchronous=FULL`).
//! So a move is on disk before anyone hears of it, and a thousand busy
//! games cost one fsync per batch rather than one per move. Reads use a
//! second connection.

use super::{
    Doc, GameHead, SeatResult, SeatRow, Status, StoreError, StoredAction, StoredGame, Tail, Write,
    HEAD_COLUMNS,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use tokio::sync::oneshot;

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// The most jobs folded into one transaction.
const MAX_BATCH: usize = 512;

/// One write job.
enum Op {
    Insert(StoredGame, Status),
    Write(Write),
    Delete(String),
}

struct Job {
    op: Op,
    done: oneshot::Sender<Result<u64, StoreError>>,
}

/// Handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Sqlite {
    tx: mpsc::Sender<Job>,
    reader: Arc<Mutex<Connection>>,
}

fn open_connection(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(conn)
}

fn failed(e: impl std::fmt::Display) -> StoreError {
    StoreError::Failed(e.to_string())
}

impl Sqlite {
    /// Open (or create, or upgrade) the database file.
    pub fn open(path: &Path) -> Result<Sqlite, String> {
        let err = |e: &dyn std::fmt::Display| format!("database {}: {e}", path.display());
        let mut conn = open_connection(path).map_err(|e| err(&e))?;
        embedded::migrations::runner()
            .run(&mut conn)
            .map_err(|e| err(&e))?;
        let reader = open_connection(path).map_err(|e| err(&e))?;
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("tabula-store".into())
            .spawn(move || writer(conn, rx))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok(Sqlite {
            tx,
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    /// Run `op` and wait until it is committed.
    async fn run(&self, op: Op) -> Result<u64, StoreError> {
        let (done, wait) = oneshot::channel();
        let stopped = || failed("the database thread has stopped");
        self.tx.send(Job { op, done }).map_err(|_| stopped())?;
        wait.await.map_err(|_| stopped())?
    }

    pub async fn insert(&self, game: StoredGame, status: Status) -> Result<(), StoreError> {
        self.run(Op::Insert(game, status)).await.map(|_| ())
    }

    pub async fn write(&self, write: Write) -> Result<u64, StoreError> {
        self.run(Op::Write(write)).await
    }

    pub async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        self.run(Op::Delete(id.to_string())).await.map(|_| ())
    }

    /// Run a statement on the second connection, off the async threads:
    /// reads, and the one-row AI claims (which need no group commit).
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let reader = Arc::clone(&self.reader);
        tokio::task::spawn_blocking(move || {
            let conn = reader.lock().unwrap_or_else(|e| e.into_inner());
            f(&conn).map_err(failed)
        })
        .await
        .map_err(failed)?
    }

    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = id.to_string();
        self.read(move |c| load_game(c, &id)).await
    }

    pub async fn load_tail(&self, id: &str, from: usize) -> Result<Option<Tail>, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT g.version, g.meta, g.cut, a.actor, a.text FROM games g
                 LEFT JOIN actions a ON a.game = g.id AND a.ply >= ?2
                 WHERE g.id = ?1 ORDER BY a.ply",
            )?;
            let mut rows = stmt.query(params![id, from as i64])?;
            let mut tail: Option<Tail> = None;
            while let Some(r) = rows.next()? {
                let t = match &mut tail {
                    Some(t) => t,
                    None => tail.insert(Tail {
                        version: r.get::<_, i64>(0)? as u64,
                        meta: r.get(1)?,
                        cut: r.get::<_, i64>(2)? as u64,
                        actions: Vec::new(),
                    }),
                };
                if let Some(text) = r.get::<_, Option<String>>(4)? {
                    t.actions.push(StoredAction {
                        actor: r.get::<_, Option<i64>>(3)?.map(|a| a as u8),
                        text,
                    });
                }
            }
            Ok(tail)
        })
        .await
    }

    pub async fn recent(&self, limit: usize) -> Result<Vec<GameHead>, StoreError> {
        let sql =
            format!("SELECT {HEAD_COLUMNS} FROM games g ORDER BY g.created DESC, g.id LIMIT ?1");
        self.read(move |c| heads(c, &sql, vec![(limit as i64).into()]))
            .await
    }

    pub async fn ids_with_ai_turn(&self, ai_turn: Option<bool>) -> Result<Vec<String>, StoreError> {
        self.read(move |c| {
            let sql = match ai_turn {
                Some(true) => "SELECT id FROM games WHERE ai_turn = 1",
                Some(false) => "SELECT id FROM games WHERE ai_turn = 0",
                None => "SELECT id FROM games WHERE ai_turn IS NULL",
            };
            let mut stmt = c.prepare_cached(sql)?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    pub async fn stale_games(&self, before: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE result IS NULL
                   AND COALESCE(touched, created) < ?1 LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![before, limit as i64], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    /// One process owns a SQLite file: its claims always succeed (a
    /// claim left by a process that died is simply taken over).
    pub async fn claim_ai(
        &self,
        game: &str,
        version: u64,
        me: &str,
        _now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let (game, me) = (game.to_string(), me.to_string());
        self.read(move |c| {
            c.prepare_cached(
                "UPDATE games SET ai_claim = ?3, ai_claim_until = ?4 WHERE id = ?1 AND version = ?2",
            )?
            .execute(params![game, version as i64, me, until])
                .map(|n| n == 1)
        })
        .await
    }

    /// Every game whose AI is to move and not claimed by this process.
    pub async fn claim_orphans(
        &self,
        me: &str,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let me = me.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "UPDATE games SET ai_claim = ?1, ai_claim_until = ?3
                 WHERE id IN (SELECT id FROM games WHERE ai_turn = 1
                              AND (ai_claim IS NOT ?1 OR ai_claim_until < ?2) LIMIT ?4)
                 RETURNING id",
            )?;
            let rows = stmt.query_map(params![me, now, until, limit as i64], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    pub async fn player_games(
        &self,
        players: Vec<String>,
        over: bool,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<GameHead>, StoreError> {
        let sql = format!(
            "SELECT {HEAD_COLUMNS} FROM games g WHERE (g.result IS NOT NULL) = ?1 AND g.id IN
               (SELECT game FROM game_players WHERE player IN ({}))
             ORDER BY g.created DESC, g.id LIMIT ?2 OFFSET ?3",
            placeholders(4, players.len())
        );
        self.read(move |c| {
            let mut values: Vec<rusqlite::types::Value> =
                vec![over.into(), (limit as i64).into(), (offset as i64).into()];
            values.extend(players.into_iter().map(Into::into));
            heads(c, &sql, values)
        })
        .await
    }

    pub async fn ids_due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= ?1 AND result IS NULL LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![now, limit as i64], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    pub async fn ids_rating_due(
        &self,
        before: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE rating_due = 1
                   AND COALESCE(touched, created) < ?1 LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![before, limit as i64], |r| r.get(0))?;
            rows.collect()
        })
        .await
    }

    pub async fn your_turn(&self, players: Vec<String>) -> Result<Vec<GameHead>, StoreError> {
        let sql = format!(
            "SELECT {HEAD_COLUMNS} FROM games g WHERE g.result IS NULL AND EXISTS
               (SELECT 1 FROM game_players p WHERE p.game = g.id AND p.seat = g.to_move
                AND p.player IN ({}))
             ORDER BY g.created, g.id LIMIT 200",
            placeholders(1, players.len())
        );
        self.read(move |c| heads(c, &sql, players.into_iter().map(Into::into).collect()))
            .await
    }

    pub async fn player_record(
        &self,
        players: Vec<String>,
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        let sql = format!(
            "SELECT g.spec, p.outcome, COUNT(*) FROM game_players p JOIN games g ON g.id = p.game
             WHERE p.outcome IS NOT NULL AND p.player IN ({}) GROUP BY g.spec, p.outcome",
            placeholders(1, players.len())
        );
        self.read(move |c| {
            let mut stmt = c.prepare(&sql)?;
            let rows = stmt.query_map(rusqlite::params_from_iter(players), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? as u64))
            })?;
            rows.collect()
        })
        .await
    }

    pub async fn doc_insert(&self, d: Doc) -> Result<(), StoreError> {
        let inserted = self
            .read(move |c| {
                c.prepare_cached(
                    "INSERT INTO docs (kind, id, owner, body, version, created, expires)
                     VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6) ON CONFLICT DO NOTHING",
                )?
                .execute(params![d.kind, d.id, d.owner, d.body, d.created, d.expires])
            })
            .await?;
        if inserted == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    pub async fn doc_get(&self, kind: &'static str, id: &str) -> Result<Option<Doc>, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            c.prepare_cached(
                "SELECT id, owner, body, version, created, expires FROM docs
                 WHERE kind = ?1 AND id = ?2",
            )?
            .query_row(params![kind, id], |r| doc_row(kind, r))
            .optional()
        })
        .await
    }

    pub async fn doc_update(&self, d: Doc) -> Result<u64, StoreError> {
        let (kind, id, version) = (d.kind, d.id.clone(), d.version);
        let changed = self
            .read(move |c| {
                c.prepare_cached(
                    "UPDATE docs SET body = ?4, expires = ?5, version = version + 1
                     WHERE kind = ?1 AND id = ?2 AND version = ?3",
                )?
                .execute(params![
                    d.kind,
                    d.id,
                    d.version as i64,
                    d.body,
                    d.expires
                ])
            })
            .await?;
        if changed == 1 {
            return Ok(version + 1);
        }
        match self.doc_get(kind, &id).await? {
            Some(_) => Err(StoreError::Conflict),
            None => Err(StoreError::Missing),
        }
    }

    pub async fn doc_delete(&self, kind: &'static str, id: &str) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            c.prepare_cached("DELETE FROM docs WHERE kind = ?1 AND id = ?2")?
                .execute(params![kind, id])
                .map(|n| n > 0)
        })
        .await
    }

    pub async fn doc_list(
        &self,
        kind: &'static str,
        owner: Option<String>,
        now: i64,
        limit: usize,
    ) -> Result<Vec<Doc>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, owner, body, version, created, expires FROM docs
                 WHERE kind = ?1 AND (?2 IS NULL OR owner = ?2)
                   AND (expires IS NULL OR expires >= ?3)
                 ORDER BY created, id LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![kind, owner, now, limit as i64], |r| {
                doc_row(kind, r)
            })?;
            rows.collect()
        })
        .await
    }

    pub async fn doc_touch(
        &self,
        kind: &'static str,
        owner: String,
        expires: i64,
    ) -> Result<u64, StoreError> {
        self.read(move |c| {
            c.prepare_cached(
                "UPDATE docs SET expires = ?3 WHERE kind = ?1 AND owner = ?2 AND expires IS NOT NULL",
            )?
            .execute(params![kind, owner, expires])
            .map(|n| n as u64)
        })
        .await
    }

    pub async fn doc_purge(&self, kind: &'static str, now: i64) -> Result<u64, StoreError> {
        self.read(move |c| {
            c.prepare_cached("DELETE FROM docs WHERE kind = ?1 AND expires < ?2")?
                .execute(params![kind, now])
                .map(|n| n as u64)
        })
        .await
    }

    pub async fn count(&self) -> Result<u64, StoreError> {
        self.read(|c| c.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0)))
            .await
            .map(|n| n as u64)
    }
}

/// `?first, ?first+1, …`: `n` numbered placeholders.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn heads(
    c: &Connection,
    sql: &str,
    values: Vec<rusqlite::types::Value>,
) -> rusqlite::Result<Vec<GameHead>> {
    let mut stmt = c.prepare(sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(values), |r| {
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
}

fn doc_row(kind: &'static str, r: &rusqlite::Row) -> rusqlite::Result<Doc> {
    Ok(Doc {
        kind,
        id: r.get(0)?,
        owner: r.get(1)?,
        body: r.get(2)?,
        version: r.get::<_, i64>(3)? as u64,
        created: r.get(4)?,
        expires: r.get(5)?,
    })
}

fn load_game(conn: &Connection, id: &str) -> rusqlite::Result<Option<StoredGame>> {
    let game = conn
        .prepare_cached(
            "SELECT id, created, spec, start, seed, meta, version FROM games WHERE id = ?1",
        )?
        .query_row([id], |r| {
            Ok(StoredGame {
                id: r.get(0)?,
                created: r.get(1)?,
                spec: r.get(2)?,
                start: r.get(3)?,
                seed: r.get::<_, i64>(4)? as u64,
                meta: r.get(5)?,
                actions: Vec::new(),
                version: r.get::<_, i64>(6)? as u64,
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

/// Why a job failed inside a transaction (rolled back).
enum Fail {
    Store(StoreError),
    Db(rusqlite::Error),
}

impl From<rusqlite::Error> for Fail {
    fn from(e: rusqlite::Error) -> Self {
        Fail::Db(e)
    }
}

impl From<Fail> for StoreError {
    fn from(f: Fail) -> Self {
        match f {
            Fail::Store(e) => e,
            Fail::Db(e) => failed(e),
        }
    }
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
        match together {
            Ok(versions) => {
                for (job, v) in batch.into_iter().zip(versions) {
                    let _ = job.done.send(Ok(v));
                }
            }
            // A failed batch is retried job by job, so one bad write fails
            // alone.
            Err(_) => {
                for job in batch {
                    let result = run_batch(&mut conn, std::iter::once(&job.op))
                        .map(|v| v.first().copied().unwrap_or(0))
                        .map_err(StoreError::from);
                    let _ = job.done.send(result);
                }
            }
        }
    }
}

/// Run `ops` in one transaction; the new row version of each.
fn run_batch<'a>(
    conn: &mut Connection,
    ops: impl Iterator<Item = &'a Op>,
) -> Result<Vec<u64>, Fail> {
    let tx = conn.transaction()?;
    let mut versions = Vec::new();
    for op in ops {
        versions.push(apply(&tx, op)?);
    }
    tx.commit()?;
    Ok(versions)
}

fn apply(tx: &rusqlite::Transaction, op: &Op) -> Result<u64, Fail> {
    match op {
        Op::Delete(id) => {
            for sql in [
                "DELETE FROM actions WHERE game = ?1",
                "DELETE FROM game_players WHERE game = ?1",
                "DELETE FROM games WHERE id = ?1",
            ] {
                tx.prepare_cached(sql)?.execute([id])?;
            }
            Ok(0)
        }
        Op::Insert(g, status) => {
            tx.prepare_cached(
                "INSERT INTO games (id, created, spec, start, seed, meta, result, ai_turn, to_move, deadline, rating_due, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0)",
            )?
            .execute(params![
                g.id,
                g.created,
                g.spec,
                g.start,
                g.seed as i64,
                g.meta,
                status.result,
                status.ai_turn,
                status.to_move,
                status.deadline,
                status.rating_due
            ])?;
            append(tx, &g.id, 0, &g.actions)?;
            set_players(tx, &g.id, &status.players)?;
            Ok(0)
        }
        Op::Write(w) => {
            let changed = tx
                .prepare_cached(
                    "UPDATE games SET result = ?3, ai_turn = ?4, version = version + 1,
                         meta = COALESCE(?5, meta), ai_claim = NULL, ai_claim_until = NULL,
                         to_move = ?6, deadline = ?7, rating_due = ?8,
                         cut = CASE WHEN ?9 THEN version + 1 ELSE cut END
                     WHERE id = ?1 AND version = ?2",
                )?
                .execute(params![
                    w.game,
                    w.version as i64,
                    w.status.result,
                    w.status.ai_turn,
                    w.meta,
                    w.status.to_move,
                    w.status.deadline,
                    w.status.rating_due,
                    w.truncate
                ])?;
            if changed == 0 {
                let exists: Option<i64> = tx
                    .prepare_cached("SELECT 1 FROM games WHERE id = ?1")?
                    .query_row([&w.game], |r| r.get(0))
                    .optional()?;
                return Err(Fail::Store(if exists.is_some() {
                    StoreError::Conflict
                } else {
                    StoreError::Missing
                }));
            }
            if w.truncate {
                tx.prepare_cached("DELETE FROM actions WHERE game = ?1 AND ply >= ?2")?
                    .execute(params![w.game, w.keep as i64])?;
            }
            append(tx, &w.game, w.keep, &w.actions)?;
            if w.players_changed() {
                set_players(tx, &w.game, &w.status.players)?;
            }
            Ok(w.version + 1)
        }
    }
}

/// Replace the rows of who plays game `game`.
fn set_players(tx: &rusqlite::Transaction, game: &str, rows: &[SeatRow]) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM game_players WHERE game = ?1")?
        .execute([game])?;
    let mut stmt = tx.prepare_cached(
        "INSERT INTO game_players (game, seat, player, outcome) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for r in rows {
        stmt.execute(params![
            game,
            r.seat,
            r.player.to_string(),
            r.outcome.map(SeatResult::as_str)
        ])?;
    }
    Ok(())
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
