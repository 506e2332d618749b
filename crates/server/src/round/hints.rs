//! Hints asked of an instance that thinks for nobody (`tabula serve
//! --ai-workers 0`), after lila's fishnet: the position is a job document
//! (`hint_job`: the game, its row version, the seed) that an instance
//! computing AI (a `tabula worker`) claims by compare-and-set, answers on
//! its pool in the hints' class and writes back; the asking instance reads
//! the answer, replies to the player and deletes the job. A job nobody
//! answers within [`WAIT`] is refused as "the AI is busy" and expires.

use super::{sender_key, Caller, Reply, RoundError, Rounds};
use crate::ai::{self, Class, Pick};
use crate::common::random_id;
use crate::store::typed::{claim_jobs, update_json, Claimable};
use crate::store::{Doc, Note, StoreError};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;

/// The documents' kind.
const KIND: &str = "hint_job";
/// How long the asking instance waits for an answer.
const WAIT: Duration = Duration::from_secs(15);
/// How often it looks.
const POLL: Duration = Duration::from_millis(40);
/// How long a worker's claim holds (a hint thinks for 0.4 s).
const CLAIM_MS: i64 = 10_000;
/// How often a worker looks for jobs when no note woke it.
const SWEEP: Duration = Duration::from_secs(1);
/// Jobs a worker takes per look.
const BATCH: usize = 32;

/// A hint to compute: game `game` as stored at row `version`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Job {
    game: String,
    version: u64,
    seed: u64,
    /// Who asked, for the pool's turn-taking between people.
    key: String,
    #[serde(default)]
    claim: Option<(String, i64)>,
    #[serde(default)]
    answer: Option<Answer>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Answer {
    Pick {
        action: String,
        ranked: Vec<(String, f32)>,
    },
    /// The game had moved on: the hint would be for another position.
    Stale,
    Failed {
        reason: String,
    },
}

impl Claimable for Job {
    fn free(&self, now: i64) -> bool {
        self.answer.is_none() && self.claim.as_ref().is_none_or(|c| c.1 < now)
    }

    fn take(&mut self, by: &str, now: i64) {
        self.claim = Some((by.to_string(), now + CLAIM_MS));
    }
}

impl Rounds {
    /// Ask the workers for a hint on game `id` at row `version`, and wait
    /// for it (at most [`WAIT`]).
    pub(crate) async fn hint_from_worker(
        &self,
        id: &str,
        version: u64,
        seed: u64,
        caller: &Caller,
    ) -> Result<Reply, RoundError> {
        let store = &self.store;
        let now = self.now();
        let job = Job {
            game: id.to_string(),
            version,
            seed,
            key: sender_key(caller),
            claim: None,
            answer: None,
        };
        let doc = Doc {
            kind: KIND,
            id: random_id(),
            owner: Some(id.to_string()),
            body: serde_json::to_string(&job).unwrap_or_default(),
            version: 0,
            created: now,
            expires: Some(now + 2 * WAIT.as_millis() as i64),
        };
        let job_id = doc.id.clone();
        store
            .doc_insert(doc)
            .await
            .map_err(super::service::store_error)?;
        if let Err(e) = store.notify(&Note::WorkQueued).await {
            tracing::warn!(game = %id, "hint not announced: {e}");
        }
        let waited = tokio::time::timeout(WAIT, async {
            loop {
                tokio::time::sleep(POLL).await;
                match store.read_json::<Job>(KIND, &job_id).await {
                    Ok(Some((
                        _,
                        Job {
                            answer: Some(a), ..
                        },
                    ))) => return Ok(a),
                    Ok(_) => {}
                    Err(e) => return Err(super::service::store_error(e)),
                }
            }
        })
        .await;
        let _ = store.doc_delete(KIND, &job_id).await;
        match waited {
            Ok(Ok(Answer::Pick { action, ranked })) => Ok(Reply::Hint(Pick { action, ranked })),
            Ok(Ok(Answer::Stale)) => Err(RoundError::Busy),
            Ok(Ok(Answer::Failed { reason })) => Err(RoundError::Internal(reason)),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(RoundError::AiBusy),
        }
    }

    /// Answer the hint jobs of the instances that compute no AI, until
    /// `self` is gone; a note wakes it ([`Rounds::hint_wanted_elsewhere`]),
    /// a sweep catches what a lost note left.
    pub(crate) fn serve_hints(self: &Arc<Self>) {
        let me = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                // Held for one wait at most once the service is dropped.
                let Some(rounds) = me.upgrade() else { return };
                let _ = tokio::time::timeout(SWEEP, rounds.hints_wanted.notified()).await;
                if *rounds.closing.borrow() {
                    return;
                }
                if let Err(e) = rounds.take_hint_jobs().await {
                    tracing::warn!("hint jobs: {e}");
                }
            }
        });
    }

    /// An instance without AI asked for a hint.
    pub(crate) fn hint_wanted_elsewhere(&self) {
        if self.computes_ai() {
            self.hints_wanted.notify_one();
        }
    }

    /// Claim the waiting hint jobs no live worker holds and answer each on
    /// the AI pool.
    async fn take_hint_jobs(self: &Arc<Self>) -> Result<(), StoreError> {
        let now = self.now();
        let _ = self.store.doc_purge(KIND, now).await;
        let jobs =
            claim_jobs::<Job>(&self.store, KIND, &self.instance, now, (BATCH, BATCH)).await?;
        for (id, job) in jobs {
            let rounds = Arc::clone(self);
            tokio::spawn(async move { rounds.answer_hint_job(&id, job).await });
        }
        Ok(())
    }

    /// Compute the hint of `job` (claimed) and write the answer.
    async fn answer_hint_job(self: Arc<Self>, job_id: &str, job: Job) {
        let answer = match self.load(&job.game).await {
            Ok(round) if round.stored != job.version => Answer::Stale,
            Ok(round) => {
                let (game, seed) = (round.game, job.seed);
                match self
                    .ai
                    .run(Class::Hint, &job.key, move || ai::hint(game.as_ref(), seed))
                {
                    Ok((_, pick)) => match pick.await {
                        Ok(Ok(p)) => Answer::Pick {
                            action: p.action,
                            ranked: p.ranked,
                        },
                        Ok(Err(e)) => Answer::Failed { reason: e.message },
                        Err(_) => Answer::Failed {
                            reason: "the AI worker stopped".into(),
                        },
                    },
                    // The pool is full: leave the job to another worker
                    // (or to this one once its claim runs out).
                    Err(ai::Full) => return,
                }
            }
            Err(e) => Answer::Failed {
                reason: e.to_string(),
            },
        };
        let now = self.now();
        let written = update_json::<Job, (), ()>(&self.store, (KIND, job_id), 3, now, None, |j| {
            j.answer = Some(answer.clone());
            Ok(Some(()))
        })
        .await;
        if let Err(crate::store::ChangeError::Store(e)) = written {
            // Missing: the asker gave up and deleted it.
            if e != StoreError::Missing {
                tracing::warn!(game = %job.game, "hint not stored: {e}");
            }
        }
    }
}
