//! The PostgreSQL engine: a pool of connections; each write is one
//! transaction whose first statement checks and raises the game's row
//! version, so of two instances writing the same game one wins and the
//! other is told to reload.

use super::{
    Doc, GameHead, Note, SeatResult, SeatRow, Status, StoreError, StoredAction, StoredGame, Tail,
    Write, HEAD_COLUMNS,
};
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::mpsc;
use tokio_postgres::{AsyncMessage, NoTls};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// Connections in the pool: enough for the writes and reads in flight of
/// one instance; PostgreSQL's own limit is shared by every instance.
const POOL_SIZE: usize = 16;

/// The channel on which every write announces `<game> <version>`, so other
/// instances show it to their watchers; `~lobby` announces a change of
/// the open seeks.
const CHANNEL: &str = "tabula_games";

/// The note of a change of the open seeks (game ids never start with `~`).
const LOBBY_NOTE: &str = "~lobby 0";
/// The prefix of a revocation's note (no game id starts with `!`).
const REVOKED_NOTE: &str = "!";
/// The prefix of a chat line's note: `#<game>`.
const CHAT_NOTE: &str = "#";
/// The prefix of an AI turn left to workers: `?<game> <version>`.
const AI_TURN_NOTE: &str = "?";
/// A job queued for the workers (no game id starts with `%`).
const WORK_NOTE: &str = "%work";

mod group_commit;

#[derive(Clone)]
pub struct Postgres {
    pool: Pool,
    writes: group_commit::GroupCommit,
    config: std::sync::Arc<tokio_postgres::Config>,
}

/// A database failure, with its causes: the driver's own text is only
/// "db error", PostgreSQL's message is its source.
fn failed(e: impl std::error::Error) -> StoreError {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text = format!("{text}: {cause}");
        source = cause.source();
    }
    StoreError::Failed(text)
}

/// A failure of this engine's own making.
fn stopped(what: &str) -> StoreError {
    StoreError::Failed(what.to_string())
}

impl Postgres {
    /// Connect to `url` and bring its schema up to date.
    pub async fn open(url: &str) -> Result<Postgres, String> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| format!("bad database address: {e}"))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .build()
            .map_err(|e| format!("database pool: {e}"))?;
        let mut client = pool
            .get()
            .await
            .map_err(|e| format!("cannot connect to the database: {e}"))?;
        // Several instances may start at once: one migrates at a time.
        client
            .batch_execute("SELECT pg_advisory_lock(7243)")
            .await
            .map_err(|e| format!("database: {e}"))?;
        let migrated = embedded::migrations::runner()
            .run_async(&mut **client)
            .await
            .map_err(|e| format!("database migration: {e}"));
        let _ = client
            .batch_execute("SELECT pg_advisory_unlock(7243)")
            .await;
        migrated?;
        Ok(Postgres {
            writes: group_commit::GroupCommit::start(pool.clone()),
            pool,
            config: std::sync::Arc::new(config),
        })
    }

    /// Every write of every instance, as `(game, new version)`, for as long
    /// as the receiver lives; listening has begun when this returns. The
    /// listening connection is made again when it drops, and the pause is
    /// reported as `("", 0)`: something may have been missed.
    pub async fn listen(&self) -> Result<mpsc::Receiver<Note>, String> {
        let (tx, rx) = mpsc::channel(1024);
        let config = std::sync::Arc::clone(&self.config);
        let first = Listening::start(&config).await?;
        tokio::spawn(async move {
            let mut listening = Some(first);
            while !tx.is_closed() {
                if let Some(l) = listening.take() {
                    l.forward(&tx).await;
                    tracing::warn!("database notifications stopped; listening again");
                }
                tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                match Listening::start(&config).await {
                    Ok(l) => {
                        if tx.send(Note::Missed).await.is_err() {
                            return;
                        }
                        listening = Some(l);
                    }
                    Err(e) => tracing::warn!("database notifications: {e}"),
                }
            }
        });
        Ok(rx)
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(failed)
    }

    pub async fn insert(&self, g: StoredGame, status: Status) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(failed)?;
        tx.execute(
            "INSERT INTO games (id, created, spec, start, seed, meta, result, ai_turn, to_move, deadline, rating_due, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0)",
            &[
                &g.id,
                &g.created,
                &g.spec,
                &g.start,
                &(g.seed as i64),
                &g.meta,
                &status.result,
                &status.ai_turn,
                &status.to_move.map(i16::from),
                &status.deadline,
                &status.rating_due,
            ],
        )
        .await
        .map_err(failed)?;
        append(&tx, &g.id, 0, &g.actions).await?;
        set_players(&tx, &g.id, &status.players).await?;
        tx.commit().await.map_err(failed)
    }

    pub async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(failed)?;
        for sql in [
            "DELETE FROM actions WHERE game = $1",
            "DELETE FROM game_players WHERE game = $1",
            "DELETE FROM games WHERE id = $1",
        ] {
            tx.execute(sql, &[&id]).await.map_err(failed)?;
        }
        tx.commit().await.map_err(failed)
    }

    /// Store `w` once it is durable: committed with the writes of other
    /// games that arrived meanwhile ([`group_commit`]).
    pub async fn write(&self, w: Write) -> Result<u64, StoreError> {
        self.writes.write(w).await
    }

    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let client = self.client().await?;
        let Some(row) = client
            .query_opt(
                "SELECT id, created, spec, start, seed, meta, version FROM games WHERE id = $1",
                &[&id],
            )
            .await
            .map_err(failed)?
        else {
            return Ok(None);
        };
        let actions = client
            .query(
                "SELECT actor, text FROM actions WHERE game = $1 ORDER BY ply",
                &[&id],
            )
            .await
            .map_err(failed)?
            .iter()
            .map(|r| StoredAction {
                actor: r.get::<_, Option<i16>>(0).map(|a| a as u8),
                text: r.get(1),
            })
            .collect();
        Ok(Some(StoredGame {
            id: row.get(0),
            created: row.get(1),
            spec: row.get(2),
            start: row.get(3),
            seed: row.get::<_, i64>(4) as u64,
            meta: row.get(5),
            actions,
            version: row.get::<_, i64>(6) as u64,
        }))
    }

    pub async fn load_tail(&self, id: &str, from: usize) -> Result<Option<Tail>, StoreError> {
        let client = self.client().await?;
        // One statement, so the version, meta and actions are of one
        // snapshot; a game without actions from `from` gives one row.
        let rows = client
            .query(
                "SELECT g.version, g.meta, g.cut, a.actor, a.text FROM games g
                 LEFT JOIN actions a ON a.game = g.id AND a.ply >= $2
                 WHERE g.id = $1 ORDER BY a.ply",
                &[&id, &(from as i32)],
            )
            .await
            .map_err(failed)?;
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        Ok(Some(Tail {
            version: first.get::<_, i64>(0) as u64,
            meta: first.get(1),
            cut: first.get::<_, i64>(2) as u64,
            actions: rows
                .iter()
                .filter_map(|r| {
                    Some(StoredAction {
                        actor: r.get::<_, Option<i16>>(3).map(|a| a as u8),
                        text: r.get::<_, Option<String>>(4)?,
                    })
                })
                .collect(),
        }))
    }

    pub async fn recent(&self, limit: usize) -> Result<Vec<GameHead>, StoreError> {
        let sql =
            format!("SELECT {HEAD_COLUMNS} FROM games g ORDER BY g.created DESC, g.id LIMIT $1");
        self.heads(&sql, &[&(limit as i64)]).await
    }

    async fn heads(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<GameHead>, StoreError> {
        let client = self.client().await?;
        let rows = client.query(sql, params).await.map_err(failed)?;
        Ok(rows
            .iter()
            .map(|r| GameHead {
                id: r.get(0),
                created: r.get(1),
                spec: r.get(2),
                meta: r.get(3),
                result: r.get(4),
                plies: r.get::<_, i64>(5) as usize,
            })
            .collect())
    }

    pub async fn notify(&self, note: &Note) -> Result<(), StoreError> {
        let Some(payload) = payload_of(note) else {
            return Ok(());
        };
        let client = self.client().await?;
        client
            .execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
            .await
            .map_err(failed)?;
        Ok(())
    }

    pub async fn player_games(
        &self,
        players: &[String],
        over: bool,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<GameHead>, StoreError> {
        let sql = format!(
            "SELECT {HEAD_COLUMNS} FROM games g WHERE (g.result IS NOT NULL) = $1 AND g.id IN
               (SELECT game FROM game_players WHERE player = ANY($4))
             ORDER BY g.created DESC, g.id LIMIT $2 OFFSET $3"
        );
        self.heads(&sql, &[&over, &(limit as i64), &(offset as i64), &players])
            .await
    }

    pub async fn ids_due(&self, now: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id FROM games WHERE deadline IS NOT NULL AND deadline <= $1 AND result IS NULL LIMIT $2",
                &[&now, &(limit as i64)],
            )
            .await
            .map_err(failed)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn ids_rating_due(
        &self,
        before: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id FROM games WHERE rating_due AND COALESCE(touched, created) < $1 LIMIT $2",
                &[&before, &(limit as i64)],
            )
            .await
            .map_err(failed)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn your_turn(&self, players: &[String]) -> Result<Vec<GameHead>, StoreError> {
        let sql = format!(
            "SELECT {HEAD_COLUMNS} FROM games g WHERE g.result IS NULL AND EXISTS
               (SELECT 1 FROM game_players p WHERE p.game = g.id AND p.seat = g.to_move
                AND p.player = ANY($1))
             ORDER BY g.created, g.id LIMIT 200"
        );
        self.heads(&sql, &[&players]).await
    }

    pub async fn player_record(
        &self,
        players: &[String],
    ) -> Result<Vec<(String, String, u64)>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT g.spec, p.outcome, COUNT(*) FROM game_players p JOIN games g ON g.id = p.game
                 WHERE p.outcome IS NOT NULL AND p.player = ANY($1) GROUP BY g.spec, p.outcome",
                &[&players],
            )
            .await
            .map_err(failed)?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get::<_, i64>(2) as u64))
            .collect())
    }

    pub async fn doc_insert(&self, d: Doc) -> Result<(), StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO docs (kind, id, owner, body, version, created, expires)
                 VALUES ($1, $2, $3, $4, 0, $5, $6) ON CONFLICT DO NOTHING",
                &[&d.kind, &d.id, &d.owner, &d.body, &d.created, &d.expires],
            )
            .await
            .map_err(failed)?;
        if n == 1 {
            Ok(())
        } else {
            Err(StoreError::Conflict)
        }
    }

    pub async fn doc_get(&self, kind: &'static str, id: &str) -> Result<Option<Doc>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT id, owner, body, version, created, expires FROM docs
                 WHERE kind = $1 AND id = $2",
                &[&kind, &id],
            )
            .await
            .map_err(failed)?;
        Ok(row.map(|r| doc_row(kind, &r)))
    }

    pub async fn doc_update(&self, d: &Doc) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE docs SET body = $4, expires = $5, version = version + 1
                 WHERE kind = $1 AND id = $2 AND version = $3",
                &[&d.kind, &d.id, &(d.version as i64), &d.body, &d.expires],
            )
            .await
            .map_err(failed)?;
        if n == 1 {
            return Ok(d.version + 1);
        }
        match self.doc_get(d.kind, &d.id).await? {
            Some(_) => Err(StoreError::Conflict),
            None => Err(StoreError::Missing),
        }
    }

    pub async fn doc_delete(&self, kind: &'static str, id: &str) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "DELETE FROM docs WHERE kind = $1 AND id = $2",
                &[&kind, &id],
            )
            .await
            .map_err(failed)?;
        Ok(n > 0)
    }

    pub async fn doc_list(
        &self,
        kind: &'static str,
        owner: Option<String>,
        now: i64,
        limit: usize,
    ) -> Result<Vec<Doc>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id, owner, body, version, created, expires FROM docs
                 WHERE kind = $1 AND ($2::text IS NULL OR owner = $2)
                   AND (expires IS NULL OR expires >= $3)
                 ORDER BY created, id LIMIT $4",
                &[&kind, &owner, &now, &(limit as i64)],
            )
            .await
            .map_err(failed)?;
        Ok(rows.iter().map(|r| doc_row(kind, r)).collect())
    }

    pub async fn doc_touch(
        &self,
        kind: &'static str,
        owner: &str,
        expires: i64,
    ) -> Result<u64, StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE docs SET expires = $3 WHERE kind = $1 AND owner = $2 AND expires IS NOT NULL",
                &[&kind, &owner, &expires],
            )
            .await
            .map_err(failed)
    }

    pub async fn doc_purge(&self, kind: &'static str, now: i64) -> Result<u64, StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM docs WHERE kind = $1 AND expires < $2",
                &[&kind, &now],
            )
            .await
            .map_err(failed)
    }

    pub async fn ids_with_ai_turn(&self, ai_turn: Option<bool>) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = match ai_turn {
            Some(flag) => {
                client
                    .query("SELECT id FROM games WHERE ai_turn = $1", &[&flag])
                    .await
            }
            None => {
                client
                    .query("SELECT id FROM games WHERE ai_turn IS NULL", &[])
                    .await
            }
        }
        .map_err(failed)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn stale_games(&self, before: i64, limit: usize) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                "SELECT id FROM games WHERE result IS NULL
                   AND COALESCE(touched, created) < $1 LIMIT $2",
                &[&before, &(limit as i64)],
            )
            .await
            .map_err(failed)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn claim_ai(
        &self,
        game: &str,
        version: u64,
        me: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE games SET ai_claim = $3, ai_claim_until = $5
                 WHERE id = $1 AND version = $2
                   AND (ai_claim IS NULL OR ai_claim = $3 OR ai_claim_until < $4)",
                &[&game, &(version as i64), &me, &now, &until],
            )
            .await
            .map_err(failed)?;
        Ok(n == 1)
    }

    pub async fn claim_orphans(
        &self,
        me: &str,
        now: i64,
        until: i64,
        limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        // SKIP LOCKED: instances sweeping at once each take other games.
        let rows = client
            .query(
                "UPDATE games SET ai_claim = $1, ai_claim_until = $3
                 WHERE id IN (SELECT id FROM games WHERE ai_turn
                              AND (ai_claim_until IS NULL OR ai_claim_until < $2)
                              LIMIT $4 FOR UPDATE SKIP LOCKED)
                 RETURNING id",
                &[&me, &now, &until, &(limit as i64)],
            )
            .await
            .map_err(failed)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub async fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt("SELECT version FROM games WHERE id = $1", &[&id])
            .await
            .map_err(failed)?;
        Ok(row.map(|r| r.get::<_, i64>(0) as u64))
    }

    pub async fn count(&self) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one("SELECT COUNT(*) FROM games", &[])
            .await
            .map_err(failed)?;
        Ok(row.get::<_, i64>(0) as u64)
    }
}

/// One connection that `LISTEN`s, driven by its own task.
struct Listening {
    /// Kept so the connection stays open.
    _client: tokio_postgres::Client,
    notes: mpsc::UnboundedReceiver<String>,
    driver: tokio::task::JoinHandle<()>,
}

impl Listening {
    async fn start(config: &tokio_postgres::Config) -> Result<Listening, String> {
        let (client, mut connection) = config.connect(NoTls).await.map_err(|e| e.to_string())?;
        let (notes_tx, notes) = mpsc::unbounded_channel();
        let driver = tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            while let Some(message) = futures_util::StreamExt::next(&mut messages).await {
                match message {
                    Ok(AsyncMessage::Notification(n)) => {
                        if notes_tx.send(n.payload().to_string()).is_err() {
                            return;
                        }
                    }
                    Ok(_) => {}
                    Err(_) => return,
                }
            }
        });
        client
            .batch_execute(&format!("LISTEN {CHANNEL}"))
            .await
            .map_err(|e| e.to_string())?;
        Ok(Listening {
            _client: client,
            notes,
            driver,
        })
    }

    /// Pass the notes on until the connection fails or nobody reads them.
    async fn forward(mut self, tx: &mpsc::Sender<Note>) {
        while let Some(payload) = self.notes.recv().await {
            let Some(note) = parse_note(&payload) else {
                tracing::warn!("an unknown database notification: {payload:?}");
                continue;
            };
            if tx.send(note).await.is_err() {
                break;
            }
        }
        self.driver.abort();
    }
}

/// A game write's note: `<game> <version> [<from>]`.
fn game_note(id: &str, version: u64, from: Option<usize>) -> String {
    match from {
        Some(from) => format!("{id} {version} {from}"),
        None => format!("{id} {version}"),
    }
}

/// A note's payload (`None`: a note no instance sends).
fn payload_of(note: &Note) -> Option<String> {
    Some(match note {
        Note::Game { id, version, from } => game_note(id, *version, *from),
        Note::Chat(id) => format!("{CHAT_NOTE}{id}"),
        Note::Lobby => LOBBY_NOTE.to_string(),
        Note::Revoked(text) => format!("{REVOKED_NOTE}{text}"),
        Note::AiTurn(id, version) => format!("{AI_TURN_NOTE}{id} {version}"),
        Note::WorkQueued => WORK_NOTE.to_string(),
        Note::Missed => return None,
    })
}

/// Read a note's payload (`None`: not one this version knows).
fn parse_note(payload: &str) -> Option<Note> {
    if payload == LOBBY_NOTE {
        return Some(Note::Lobby);
    }
    if payload == WORK_NOTE {
        return Some(Note::WorkQueued);
    }
    if let Some(text) = payload.strip_prefix(REVOKED_NOTE) {
        return Some(Note::Revoked(text.to_string()));
    }
    if let Some(id) = payload.strip_prefix(CHAT_NOTE) {
        return Some(Note::Chat(id.to_string()));
    }
    if let Some(turn) = payload.strip_prefix(AI_TURN_NOTE) {
        let (id, version) = turn.split_once(' ')?;
        return Some(Note::AiTurn(id.to_string(), version.parse().ok()?));
    }
    let mut fields = payload.split(' ');
    let id = fields.next().filter(|id| !id.is_empty())?.to_string();
    let version = fields.next()?.parse().ok()?;
    let from = match fields.next() {
        Some(f) => Some(f.parse().ok()?),
        None => None,
    };
    if fields.next().is_some() {
        return None;
    }
    Some(Note::Game { id, version, from })
}

fn doc_row(kind: &'static str, r: &tokio_postgres::Row) -> Doc {
    Doc {
        kind,
        id: r.get(0),
        owner: r.get(1),
        body: r.get(2),
        version: r.get::<_, i64>(3) as u64,
        created: r.get(4),
        expires: r.get(5),
    }
}

/// Replace the rows of who plays game `game`.
async fn set_players(
    tx: &deadpool_postgres::Transaction<'_>,
    game: &str,
    rows: &[SeatRow],
) -> Result<(), StoreError> {
    exec(tx, "DELETE FROM game_players WHERE game = $1", &[&game]).await?;
    if rows.is_empty() {
        return Ok(());
    }
    let seats: Vec<i16> = rows.iter().map(|r| i16::from(r.seat)).collect();
    let players: Vec<String> = rows.iter().map(|r| r.player.to_string()).collect();
    let outcomes: Vec<Option<&str>> = rows
        .iter()
        .map(|r| r.outcome.map(SeatResult::as_str))
        .collect();
    exec(
        tx,
        "INSERT INTO game_players (game, seat, player, outcome)
         SELECT $1, * FROM UNNEST($2::smallint[], $3::text[], $4::text[])",
        &[&game, &seats, &players, &outcomes],
    )
    .await?;
    Ok(())
}

/// Append `actions` from ply `first_ply` on, in one statement.
async fn append(
    tx: &deadpool_postgres::Transaction<'_>,
    game: &str,
    first_ply: usize,
    actions: &[StoredAction],
) -> Result<(), StoreError> {
    if actions.is_empty() {
        return Ok(());
    }
    let plies: Vec<i32> = (0..actions.len()).map(|i| (first_ply + i) as i32).collect();
    let actors: Vec<Option<i16>> = actions.iter().map(|a| a.actor.map(i16::from)).collect();
    let texts: Vec<&str> = actions.iter().map(|a| a.text.as_str()).collect();
    exec(
        tx,
        "INSERT INTO actions (game, ply, actor, text)
         SELECT $1, * FROM UNNEST($2::int[], $3::smallint[], $4::text[])",
        &[&game, &plies, &actors, &texts],
    )
    .await?;
    Ok(())
}

/// Run `sql` in `tx` as a statement prepared once per connection (a
/// statement given as text is prepared again each time: one more round
/// trip); the rows it changed.
async fn exec(
    tx: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<u64, StoreError> {
    let statement = tx.prepare_cached(sql).await.map_err(failed)?;
    tx.execute(&statement, params).await.map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_read_back_as_written() {
        let notes = [
            Note::Game {
                id: "abc123".into(),
                version: 7,
                from: Some(12),
            },
            Note::Game {
                id: "abc123".into(),
                version: 7,
                from: None,
            },
            Note::Chat("abc123".into()),
            Note::Lobby,
            Note::Revoked("u:ana 5".into()),
            Note::AiTurn("abc123".into(), 7),
            Note::WorkQueued,
        ];
        for note in notes {
            let payload = payload_of(&note).expect("a payload");
            assert_eq!(parse_note(&payload), Some(note), "{payload}");
        }
        for bad in [
            "",
            "abc",
            "abc x",
            "abc 7 x",
            "abc 7 1 2",
            " 7",
            "?abc",
            "?abc x",
        ] {
            assert_eq!(parse_note(bad), None, "{bad:?}");
        }
    }
}
