//! Quotas on new games: how many games in progress one guest, account or
//! address may hold, and who created each (only the creator of a game
//! without a human seat may stop it). Each creation is a document in
//! `CREATED`, forgotten when its game ends or expires.

use super::GuardError;
use crate::common::limits::Limits;
use crate::common::PlayerId;
use crate::protocol::SeatRequest;
use crate::round::{RoundError, Rounds, SeatKind};
use crate::store::Doc;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// The documents that remember who created each game in progress (its
/// owner is the creator's address): the per-address quota counts them.
const CREATED: &str = "created";

/// Who created a game: its document in `CREATED`.
#[derive(serde::Serialize, serde::Deserialize)]
struct CreatorDoc {
    /// The creator's first identity, if they had a session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<PlayerId>,
    /// No seat is a person's.
    #[serde(default)]
    ai_only: bool,
}

/// Whether no seat asked for is a person's.
fn ai_only(seats: &[SeatRequest]) -> bool {
    !seats.is_empty() && seats.iter().all(|s| s.kind == SeatKind::Ai)
}

/// The games created and still in progress, per creator.
pub struct Creations {
    rounds: Arc<Rounds>,
    limits: Arc<Limits>,
}

impl Creations {
    pub fn new(rounds: Arc<Rounds>, limits: Arc<Limits>) -> Self {
        Creations { rounds, limits }
    }

    /// Forget creations as their games end here, and purge those that
    /// expired, until `self` is gone.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(forget_finished(Arc::downgrade(self)));
        tokio::spawn(purge(Arc::downgrade(self)));
    }

    /// May a creator with identities `ids` (the first is theirs; `session`:
    /// they have one) at `addr` create a game with `seats`? Counts the
    /// creation against the rate limits; refuses an AI-only game without a
    /// session and a creator over their quota of games in progress.
    pub async fn allow(
        &self,
        addr: &str,
        ids: &[PlayerId],
        session: bool,
        seats: &[SeatRequest],
    ) -> Result<(), GuardError> {
        if ai_only(seats) && !session {
            return Err(GuardError::AiOnlyNeedsSession);
        }
        self.limits.create_address.count(addr)?;
        if let Some(id) = ids.first() {
            self.limits.create.count(&id.to_string())?;
        }
        let cap = self.rounds.config.guard.games_in_progress;
        let store = &self.rounds.store;
        let held = if ids.is_empty() {
            store
                .doc_list(CREATED, Some(addr), self.rounds.now(), cap)
                .await?
                .len()
        } else {
            store.player_games(ids, false, cap, 0).await?.len()
        };
        if held >= cap {
            return Err(GuardError::GamesInProgress(cap));
        }
        Ok(())
    }

    /// Remember that `by` at `addr` created game `id` with `seats` (for the
    /// per-address quota and to know who may stop an AI-only game).
    pub async fn remember(
        &self,
        id: &str,
        addr: &str,
        by: Option<PlayerId>,
        seats: &[SeatRequest],
    ) -> Result<(), GuardError> {
        let creator = CreatorDoc {
            by,
            ai_only: ai_only(seats),
        };
        let now = self.rounds.now();
        let doc = Doc {
            kind: CREATED,
            id: id.to_string(),
            owner: Some(addr.to_string()),
            body: serde_json::to_string(&creator).unwrap_or_default(),
            version: 0,
            created: now,
            expires: Some(now + self.rounds.config.guard.expiry.as_millis() as i64),
        };
        Ok(self.rounds.store.doc_insert(doc).await?)
    }

    /// End game `id` for someone with identities `ids`: only a game
    /// without a human seat, and only by its creator (a draw, reason
    /// `abandoned`).
    pub async fn stop(&self, id: &str, ids: &[PlayerId]) -> Result<(), GuardError> {
        let doc = self.rounds.store.doc_get(CREATED, id).await?;
        let creator = doc.and_then(|d| serde_json::from_str::<CreatorDoc>(&d.body).ok());
        let Some(creator) = creator.filter(|c| c.ai_only) else {
            // Its creator is forgotten once it ends.
            if self
                .rounds
                .view(id, usize::MAX)
                .await?
                .state
                .result
                .is_some()
            {
                return Err(RoundError::Over.into());
            }
            return Err(GuardError::NotAiOnly);
        };
        if !creator.by.is_some_and(|by| ids.contains(&by)) {
            return Err(GuardError::NotCreator);
        }
        Ok(self.rounds.stop(id).await?)
    }
}

/// Forget the creator of every game that ends here (the quota counts games
/// in progress), until the creations are gone.
async fn forget_finished(creations: std::sync::Weak<Creations>) {
    let Some(mut ends) = creations.upgrade().map(|c| c.rounds.finisher.subscribe()) else {
        return;
    };
    loop {
        let ended = match ends.recv().await {
            Ok(e) => e,
            Err(RecvError::Lagged(_)) => continue,
            Err(_) => return,
        };
        let Some(c) = creations.upgrade() else { return };
        let _ = c.rounds.store.doc_delete(CREATED, &ended.id).await;
    }
}

/// Every `expiry_sweep`, drop the creations whose games expired (the
/// round's own sweep ends those games), until the creations are gone.
async fn purge(creations: std::sync::Weak<Creations>) {
    loop {
        let Some(period) = creations
            .upgrade()
            .map(|c| c.rounds.config.guard.expiry_sweep)
        else {
            return;
        };
        tokio::time::sleep(period).await;
        let Some(c) = creations.upgrade() else { return };
        let _ = c.rounds.store.doc_purge(CREATED, c.rounds.now()).await;
    }
}
