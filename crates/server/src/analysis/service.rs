//! `Analyses`, the module's door: request an analysis, read where it
//! stands, and the worker that serves the queue on this process's AI pool.

use super::AnalysisError;
use super::{
    Job, Refusal, State, Stored, CLAIM_STALE_MS, JOB_KIND, KIND, MAX_ACTIONS, PER_PLAYER, QUEUED,
};
use crate::ai::{Class, Full};
use crate::common::random_id;
use crate::round::Rounds;
use crate::store::typed::{claim_jobs, update_json, ChangeError, Claimable};
use crate::store::{Doc, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tabula_ai::analysis::{analyse, positions, Verdict};

/// How often an idle worker looks at the queue (a request here wakes it
/// at once; this finds the jobs queued through other instances and the
/// claims of workers that died).
const SWEEP: Duration = Duration::from_secs(5);
/// A worker renews its claim this often (well within `CLAIM_STALE_MS`).
const RENEW_MS: i64 = CLAIM_STALE_MS / 4;

/// The analyses: the queue, the results, and this process's worker.
pub struct Analyses {
    rounds: Arc<Rounds>,
    /// This worker's name in claims.
    instance: String,
    /// Rings when a job is queued here.
    wake: tokio::sync::Notify,
    /// Positions done and in all, of the job this worker is on.
    progress: Mutex<HashMap<String, (usize, usize)>>,
}

impl Analyses {
    pub fn new(rounds: Arc<Rounds>) -> Self {
        Analyses {
            rounds,
            instance: format!("analysis-{}", random_id()),
            wake: tokio::sync::Notify::new(),
            progress: Mutex::default(),
        }
    }

    /// Start this process's worker; it stops when the service is dropped.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(serve(Arc::downgrade(self)));
    }

    /// Another instance queued an analysis: look at the queue now (a
    /// worker not started here, on an instance without AI, ignores it).
    pub fn queued_elsewhere(&self) {
        self.wake.notify_one();
    }

    fn now(&self) -> i64 {
        self.rounds.now()
    }

    /// Where game `id`'s analysis stands; `None` if nobody asked for it.
    pub async fn state(&self, id: &str) -> Result<Option<State>, AnalysisError> {
        let store = &self.rounds.store;
        if let Some((_, stored)) = store.read_json::<Stored>(KIND, id).await? {
            return Ok(Some(State::Done(Box::new(stored))));
        }
        let Some((_, job)) = store.read_json::<Job>(JOB_KIND, id).await? else {
            return Ok(None);
        };
        let (done, total) = self
            .progress_lock()
            .get(id)
            .copied()
            .unwrap_or((0, job.actions.len() + 1));
        Ok(Some(State::Pending {
            running: !job.free(self.now()),
            done,
            total,
        }))
    }

    fn progress_lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (usize, usize)>> {
        self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ask for game `id`'s analysis on behalf of `requester` (an identity,
    /// or a client address): where it stands afterwards. A game already
    /// analysed or queued is answered as it stands, counting nothing.
    pub async fn request(&self, id: &str, requester: &str) -> Result<State, AnalysisError> {
        if let Some(state) = self.state(id).await? {
            return Ok(state);
        }
        let view = self.rounds.view(id, 0).await?;
        if view.state.result.is_none() && !view.state.imported {
            return Err(AnalysisError::Refused(Refusal::NotOver));
        }
        let actions: Vec<String> = view.history.iter().map(|h| h.text.clone()).collect();
        if actions.len() > MAX_ACTIONS {
            return Err(AnalysisError::Refused(Refusal::TooLong(actions.len())));
        }
        let store = &self.rounds.store;
        let now = self.now();
        if store
            .doc_list(JOB_KIND, Some(requester), now, PER_PLAYER)
            .await?
            .len()
            >= PER_PLAYER
        {
            return Err(AnalysisError::Refused(Refusal::Quota));
        }
        if store.doc_list(JOB_KIND, None, now, QUEUED).await?.len() >= QUEUED {
            return Err(AnalysisError::Refused(Refusal::Busy));
        }
        let total = actions.len() + 1;
        let job = Job {
            spec: view.spec,
            start: Some(view.start),
            actions,
            requested: now,
            claim: None,
        };
        let doc = Doc {
            kind: JOB_KIND,
            id: id.to_string(),
            owner: Some(requester.to_string()),
            body: serde_json::to_string(&job)
                .map_err(|e| StoreError::Failed(format!("analysis job: {e}")))?,
            version: 0,
            created: now,
            expires: None,
        };
        match store.doc_insert(doc).await {
            // Asked at the same moment by someone else: queued all the same.
            Ok(()) | Err(StoreError::Conflict) => {}
            Err(e) => return Err(e.into()),
        }
        self.wake.notify_one();
        // The workers of other processes (`tabula worker`) too.
        if let Err(e) = store.notify(&crate::store::Note::WorkQueued).await {
            tracing::warn!(game = %id, "analysis not announced: {e}");
        }
        Ok(State::Pending {
            running: false,
            done: 0,
            total,
        })
    }

    /// Record `text` with game `id`'s analysis as a comment after each
    /// action, when it is done; as it is otherwise.
    pub async fn annotate(&self, id: &str, text: String) -> Result<String, AnalysisError> {
        let Some((
            _,
            Stored {
                analysis: Some(analysis),
                ..
            },
        )) = self.rounds.store.read_json::<Stored>(KIND, id).await?
        else {
            return Ok(text);
        };
        let Ok(mut record) = tabula_core::Record::parse(&text) else {
            return Ok(text);
        };
        if record.actions.len() != analysis.plies.len() {
            return Ok(text);
        }
        for (action, ply) in record.actions.iter_mut().zip(&analysis.plies) {
            action.comment = Some(ply.comment());
        }
        Ok(record.to_text())
    }

    /// Take the oldest job no live worker holds, by compare-and-set on its
    /// claim: `None` when there is none.
    async fn claim_next(&self) -> Result<Option<(String, Job)>, StoreError> {
        let store = &self.rounds.store;
        let taken = claim_jobs::<Job>(store, JOB_KIND, &self.instance, self.now(), (QUEUED, 1));
        Ok(taken.await?.pop())
    }

    /// Renew this worker's claim on job `id`: `false` when it is no longer
    /// this worker's (it was too slow and another took it).
    async fn renew(&self, id: &str) -> Result<bool, StoreError> {
        let now = self.now();
        let me = &self.instance;
        let renewed =
            update_json::<Job, (), ()>(&self.rounds.store, (JOB_KIND, id), 3, now, None, |j| {
                match &mut j.claim {
                    Some(c) if &c.by == me => {
                        c.at = now;
                        Ok(Some(()))
                    }
                    _ => Err(()),
                }
            })
            .await;
        match renewed {
            Ok(_) => Ok(true),
            Err(ChangeError::Refused(())) | Err(ChangeError::Store(StoreError::Missing)) => {
                Ok(false)
            }
            Err(ChangeError::Store(e)) => Err(e),
        }
    }

    /// Analyse job `id`, one position per AI pool job, and store the
    /// result; the job is done with either way.
    async fn work(&self, id: &str, job: Job) -> Result<(), StoreError> {
        let result = self.compute(id, &job).await;
        self.progress_lock().remove(id);
        let stored = match result {
            Ok(Some(analysis)) => Stored {
                analysis: Some(analysis),
                error: None,
                done: self.now(),
            },
            // Another worker holds it now: it will finish it.
            Ok(None) => return Ok(()),
            Err(e) => {
                tracing::warn!("analysis of `{id}` failed: {e}");
                Stored {
                    analysis: None,
                    error: Some(e.message),
                    done: self.now(),
                }
            }
        };
        let doc = Doc {
            kind: KIND,
            id: id.to_string(),
            owner: None,
            body: serde_json::to_string(&stored)
                .map_err(|e| StoreError::Failed(format!("analysis: {e}")))?,
            version: 0,
            created: self.now(),
            expires: None,
        };
        match self.rounds.store.doc_insert(doc).await {
            Ok(()) | Err(StoreError::Conflict) => {}
            Err(e) => return Err(e),
        }
        self.rounds.store.doc_delete(JOB_KIND, id).await?;
        Ok(())
    }

    /// The analysis of `job`; `None` if the claim was lost on the way.
    async fn compute(
        &self,
        id: &str,
        job: &Job,
    ) -> Result<Option<tabula_ai::analysis::Analysis>, tabula_core::Error> {
        let start = self
            .rounds
            .registry
            .create(&job.spec, job.start.as_deref())?;
        let ty = start.game_type();
        let all = positions(start.as_ref(), &job.actions)?;
        let total = all.len();
        let mut verdicts: Vec<Verdict> = Vec::with_capacity(total);
        let mut renewed = self.now();
        for (i, game) in all.into_iter().enumerate() {
            self.progress_lock().insert(id.to_string(), (i, total));
            if self.now() - renewed >= RENEW_MS {
                match self.renew(id).await {
                    Ok(true) => renewed = self.now(),
                    Ok(false) => return Ok(None),
                    Err(e) => tracing::warn!("analysis of `{id}`: claim not renewed: {e}"),
                }
            }
            let answer = loop {
                let g = game.clone_box();
                let task = move || tabula_games::analyse_position(g.as_ref());
                match self.rounds.ai.run(Class::Analysis, id, task) {
                    Ok((_, answer)) => break answer,
                    // Every slot of the class is taken: wait a little.
                    Err(Full) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            };
            let verdict = answer
                .await
                .map_err(|_| tabula_core::Error::illegal("the engine's worker stopped"))??;
            verdicts.push(verdict);
        }
        analyse(ty, &job.actions, &verdicts).map(Some)
    }
}

/// The worker: claim a job, analyse it, again; between jobs, wait for a
/// request or the sweep. Ends when the service is gone.
async fn serve(me: Weak<Analyses>) {
    loop {
        let Some(analyses) = me.upgrade() else { return };
        let idle = match analyses.claim_next().await {
            Ok(Some((id, job))) => {
                if let Err(e) = analyses.work(&id, job).await {
                    tracing::warn!("analysis of `{id}` not stored: {e}");
                }
                false
            }
            Ok(None) => true,
            Err(e) => {
                tracing::warn!("analysis queue: {e}");
                true
            }
        };
        if idle {
            let _ = tokio::time::timeout(SWEEP, analyses.wake.notified()).await;
        }
    }
}
