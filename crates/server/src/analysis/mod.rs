//! Game analysis on request (issue 41): a finished game, or any imported
//! record, valued position by position by the engine
//! (`tabula_ai::analysis`), stored once per game and shared by everyone
//! who opens it (lila's analysis and fishnet queue).
//!
//! Two kinds of store documents, both keyed by the game's id:
//! - `analysis_job`, the durable queue: the record to analyse, who asked
//!   (the document's owner, which the per-player bound counts), and the
//!   claim of the instance working on it. A worker takes a job by
//!   compare-and-set on its claim, renews the claim as it goes, and a
//!   claim not renewed for [`CLAIM_STALE_MS`] may be taken by another
//!   (a worker that died), so separate worker processes can serve the
//!   queue as well as the server's own AI pool does today;
//! - `analysis`, the result: written once, never changed.
//!
//! The limits (`docs/security.md`): [`PER_PLAYER`] analyses waiting or
//! running per person, [`QUEUED`] in all, records of at most
//! [`MAX_ACTIONS`] actions.

pub mod error;
mod service;

pub use error::AnalysisError;
pub use service::Analyses;

use crate::store::typed::Claimable;
use serde::{Deserialize, Serialize};
use tabula_ai::analysis::Analysis;

/// Document kind of the queue's jobs.
pub const JOB_KIND: &str = "analysis_job";
/// Document kind of the finished analyses.
pub const KIND: &str = "analysis";

/// Analyses one person may have waiting or running at once.
pub const PER_PLAYER: usize = 2;
/// Analyses waiting or running at once, everyone's together.
pub const QUEUED: usize = 32;
/// Longest record analysed, in actions (chance outcomes included).
pub const MAX_ACTIONS: usize = 1_000;
/// A claim not renewed for this long is free for another worker.
pub const CLAIM_STALE_MS: i64 = 120_000;

/// A job of the queue: the record to analyse and who works on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub spec: String,
    pub start: Option<String>,
    pub actions: Vec<String>,
    /// When it was asked for (ms since 1970).
    pub requested: i64,
    pub claim: Option<Claim>,
}

/// The worker holding a job, and when it last said so.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub by: String,
    pub at: i64,
}

impl Claimable for Job {
    fn free(&self, now: i64) -> bool {
        self.claim
            .as_ref()
            .is_none_or(|c| now - c.at >= CLAIM_STALE_MS)
    }

    fn take(&mut self, by: &str, now: i64) {
        self.claim = Some(Claim {
            by: by.to_string(),
            at: now,
        });
    }
}

/// A finished analysis as stored: the engine's analysis, or why the engine
/// could not make one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stored {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Analysis>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// When it was finished (ms since 1970).
    pub done: i64,
}

/// The answer of `GET /api/games/{id}/analysis` while it waits (202).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    /// `queued` (no worker holds it) or `running`.
    pub status: String,
    /// Positions valued so far, and in all (one more than the actions).
    pub done: usize,
    pub total: usize,
}

/// The answer once done (200): `status` `done` and the analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finished {
    pub status: String,
    #[serde(flatten)]
    pub analysis: Analysis,
}

/// Where a game's analysis stands.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// Waiting for a worker, or being computed: positions done of all.
    Pending {
        running: bool,
        done: usize,
        total: usize,
    },
    Done(Box<Stored>),
}

/// Seconds a person refused for the queue's bounds is asked to wait.
pub const RETRY_S: u64 = 30;

/// Why an analysis was not queued.
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// The game goes on (and was not imported).
    NotOver,
    /// The record is longer than [`MAX_ACTIONS`].
    TooLong(usize),
    /// The person has [`PER_PLAYER`] analyses pending.
    Quota,
    /// [`QUEUED`] analyses are pending.
    Busy,
}
