//! Game writes committed in groups. Each write to a game is a
//! compare-and-set on its row version and a `NOTIFY`; PostgreSQL holds one
//! lock across the commit of every transaction that notifies, so one
//! transaction per move meant one fsync per move, one after the other.
//! Here the writes that arrive while a group commits wait together and go
//! into the next group: one transaction and one fsync for all of them,
//! their statements pipelined on one connection. Nothing is acknowledged
//! before its group has committed, and each write keeps its own outcome: a
//! conflict refuses that write only.

use super::{append, exec, failed, game_note, set_players, stopped, CHANNEL};
use crate::store::{StoreError, Write};
use deadpool_postgres::{Pool, Transaction};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, Mutex};
use tokio_postgres::types::ToSql;

/// The most writes in one group.
const GROUP_MAX: usize = 64;
/// Groups in flight at once: while some commit, the next one gathers.
const COMMITTERS: usize = 2;
/// Writes that may wait for a group; a writer beyond that waits its turn.
const QUEUE: usize = 1024;

type Job = (Write, oneshot::Sender<Result<u64, StoreError>>);

/// The queue of writes to commit; its tasks stop when it is dropped.
#[derive(Clone)]
pub(super) struct GroupCommit {
    queue: mpsc::Sender<Job>,
}

impl GroupCommit {
    /// Start the committers on `pool`.
    pub(super) fn start(pool: Pool) -> GroupCommit {
        let (queue, rx) = mpsc::channel(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..COMMITTERS {
            let (rx, pool) = (Arc::clone(&rx), pool.clone());
            tokio::spawn(async move {
                while let Some(group) = next_group(&rx).await {
                    commit(&pool, group).await;
                }
            });
        }
        GroupCommit { queue }
    }

    /// Apply `write` if its game is still at its version, once it is
    /// durable; the new version.
    pub(super) async fn write(&self, write: Write) -> Result<u64, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.queue
            .send((write, reply))
            .await
            .map_err(|_| stopped("the database writer stopped"))?;
        answer
            .await
            .map_err(|_| stopped("the database writer stopped"))?
    }
}

/// The writes waiting now (at least one; `None` once nobody can write).
async fn next_group(rx: &Mutex<mpsc::Receiver<Job>>) -> Option<Vec<Job>> {
    let mut rx = rx.lock().await;
    let first = rx.recv().await?;
    let mut group = vec![first];
    while group.len() < GROUP_MAX {
        match rx.try_recv() {
            Ok(job) => group.push(job),
            Err(_) => break,
        }
    }
    Some(group)
}

/// Commit `group` and answer each write. If the group fails as a whole
/// (one write broke the transaction, or the database), each write is tried
/// alone, so only a write that fails by itself is refused.
async fn commit(pool: &Pool, mut group: Vec<Job>) {
    // Rows are locked in the order of their ids in every group, so two
    // groups (of this instance or another) never wait on each other in a
    // circle.
    group.sort_by(|a, b| a.0.game.cmp(&b.0.game));
    let writes: Vec<&Write> = group.iter().map(|(w, _)| w).collect();
    match run(pool, &writes).await {
        Ok(outcomes) => {
            for ((_, reply), outcome) in group.into_iter().zip(outcomes) {
                let _ = reply.send(outcome);
            }
        }
        Err(e) if group.len() == 1 => {
            for (_, reply) in group {
                let _ = reply.send(Err(e.clone()));
            }
        }
        Err(_) => {
            for (write, reply) in group {
                let outcome = match run(pool, &[&write]).await {
                    Ok(mut outcomes) => outcomes.pop().unwrap_or(Err(stopped("no outcome"))),
                    Err(e) => Err(e),
                };
                let _ = reply.send(outcome);
            }
        }
    }
}

/// Run `writes` in one transaction; each write's outcome once it has
/// committed, or the error that rolled them all back.
async fn run(pool: &Pool, writes: &[&Write]) -> Result<Vec<Result<u64, StoreError>>, StoreError> {
    let mut client = pool.get().await.map_err(failed)?;
    let tx = client.transaction().await.map_err(failed)?;
    // Polled together: the statements of all writes share each round trip.
    let outcomes = futures_util::future::join_all(writes.iter().map(|w| write_one(&tx, w))).await;
    if let Some(Err(e)) = outcomes
        .iter()
        .find(|o| matches!(o, Err(StoreError::Failed(_))))
    {
        return Err(e.clone());
    }
    tx.commit().await.map_err(failed)?;
    Ok(outcomes)
}

/// The common write (actions appended, the same players) in one statement:
/// check and raise the version, append, notify.
const APPEND: &str = "WITH u AS (
        UPDATE games SET result = $3, ai_turn = $4, version = version + 1,
            meta = COALESCE($5, meta), ai_claim = NULL, ai_claim_until = NULL,
            to_move = $6, deadline = $7, rating_due = $8
        WHERE id = $1 AND version = $2
        RETURNING id
    ), a AS (
        INSERT INTO actions (game, ply, actor, text)
        SELECT u.id, x.ply, x.actor, x.text
        FROM u, UNNEST($9::int[], $10::smallint[], $11::text[]) AS x (ply, actor, text)
    )
    SELECT pg_notify($12, $13) FROM u";

/// Check and raise the version (any write).
const UPDATE: &str = "UPDATE games SET result = $3, ai_turn = $4, version = version + 1,
        meta = COALESCE($5, meta), ai_claim = NULL, ai_claim_until = NULL,
        to_move = $6, deadline = $7, rating_due = $8,
        cut = CASE WHEN $9 THEN version + 1 ELSE cut END
    WHERE id = $1 AND version = $2";

/// One write inside a group's transaction: its new version, a conflict or
/// a missing game (the transaction goes on), or a failure (it must not).
async fn write_one(tx: &Transaction<'_>, w: &Write) -> Result<u64, StoreError> {
    // Delivered to the listeners when (and only if) the group commits.
    let note = game_note(&w.game, w.version + 1, Some(w.keep));
    let version = w.version as i64;
    let to_move = w.status.to_move.map(i16::from);
    // The parameters both statements begin with: the game, its version,
    // the status and the meta.
    let status: [&(dyn ToSql + Sync); 8] = [
        &w.game,
        &version,
        &w.status.result,
        &w.status.ai_turn,
        &w.meta,
        &to_move,
        &w.status.deadline,
        &w.status.rating_due,
    ];
    let changed = if !w.truncate && !w.players_changed() {
        let plies: Vec<i32> = (0..w.actions.len()).map(|i| (w.keep + i) as i32).collect();
        let actors: Vec<Option<i16>> = w.actions.iter().map(|a| a.actor.map(i16::from)).collect();
        let texts: Vec<&str> = w.actions.iter().map(|a| a.text.as_str()).collect();
        let mut params = status.to_vec();
        let tail: [&(dyn ToSql + Sync); 5] = [&plies, &actors, &texts, &CHANNEL, &note];
        params.extend(tail);
        let statement = tx.prepare_cached(APPEND).await.map_err(failed)?;
        let rows = tx.query(&statement, &params).await.map_err(failed)?;
        !rows.is_empty()
    } else {
        let mut params = status.to_vec();
        params.push(&w.truncate);
        let changed = exec(tx, UPDATE, &params).await? == 1;
        if changed {
            if w.truncate {
                let sql = "DELETE FROM actions WHERE game = $1 AND ply >= $2";
                exec(tx, sql, &[&w.game, &(w.keep as i32)]).await?;
            }
            append(tx, &w.game, w.keep, &w.actions).await?;
            if w.players_changed() {
                set_players(tx, &w.game, &w.status.players).await?;
            }
            exec(tx, "SELECT pg_notify($1, $2)", &[&CHANNEL, &note]).await?;
        }
        changed
    };
    if changed {
        return Ok(w.version + 1);
    }
    let statement = tx
        .prepare_cached("SELECT 1 FROM games WHERE id = $1")
        .await
        .map_err(failed)?;
    let exists = tx.query_opt(&statement, &[&w.game]).await.map_err(failed)?;
    Err(match exists {
        Some(_) => StoreError::Conflict,
        None => StoreError::Missing,
    })
}
