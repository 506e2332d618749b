//! How games are kept (lila's `GameRepo`): a game is its start, its
//! actions and its meta; it is rebuilt by replaying them, and every change
//! is written (with the facts queries need) before it is taken in.

use super::service::store_error;
use super::state::{ai_to_move, ending_of, to_move, Change, Entry, Meta, CHAT_KEPT};
use super::{ChatLine, Round, RoundError, Rounds, SeatKind};
use crate::store::{
    Doc, Note, SeatResult, SeatRow, Status, StoreError, StoredAction, StoredGame, Tail, Write,
};
use tabula_core::{AnyGame, EndReason, Player};

impl Rounds {
    /// Games written by an older version have no stored status yet: replay
    /// each once to fill it in.
    pub(crate) async fn fill_in_status(&self) -> Result<(), String> {
        let text = |e: StoreError| e.to_string();
        for id in self.store.ids_with_ai_turn(None).await.map_err(text)? {
            let Some(stored) = self.store.load(&id).await.map_err(text)? else {
                continue;
            };
            match self.restore(&stored) {
                Ok(round) => {
                    let write = Write {
                        game: id,
                        version: round.stored,
                        keep: round.history.len(),
                        truncate: false,
                        actions: Vec::new(),
                        meta: None,
                        status: status_of(round.game.as_ref(), &round.meta),
                    };
                    // A conflict means another instance filled it in.
                    match self.store.write(write).await {
                        Ok(_) | Err(StoreError::Conflict) => {}
                        Err(e) => return Err(e.to_string()),
                    }
                }
                Err(e) => tracing::error!(game = %id, "cannot be read: {e}"),
            }
        }
        Ok(())
    }

    /// Game `id` as stored now.
    pub(crate) async fn load(&self, id: &str) -> Result<Round, RoundError> {
        let stored = self
            .store
            .load(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| RoundError::NoGame(id.to_string()))?;
        let mut round = self.restore(&stored).map_err(RoundError::Internal)?;
        round.chat = self.load_chat(id).await?;
        Ok(round)
    }

    /// Game `id`'s chat lines as stored now, oldest first.
    pub(crate) async fn load_chat(&self, id: &str) -> Result<Vec<ChatLine>, RoundError> {
        let lines = self
            .store
            .doc_list("chat", Some(id), 0, CHAT_KEPT)
            .await
            .map_err(store_error)?;
        Ok(lines
            .iter()
            .filter_map(|d| serde_json::from_str(&d.body).ok())
            .collect())
    }

    /// Game `id` as stored now from ply `from` on (`None`: the game is
    /// gone), with its meta read.
    pub(crate) async fn load_tail(
        &self,
        id: &str,
        from: usize,
    ) -> Result<Option<(Tail, Meta)>, RoundError> {
        let Some(tail) = self.store.load_tail(id, from).await.map_err(store_error)? else {
            return Ok(None);
        };
        let mut meta: Meta = serde_json::from_str(&tail.meta)
            .map_err(|e| RoundError::Internal(format!("bad meta: {e}")))?;
        meta.upgrade();
        Ok(Some((tail, meta)))
    }

    /// Store a chat line of game `id` (number `seq`) and tell the other
    /// instances.
    pub(crate) async fn store_chat(
        &self,
        id: &str,
        seq: usize,
        line: &ChatLine,
    ) -> Result<(), RoundError> {
        let doc = Doc {
            kind: "chat",
            id: format!("{id}:{seq:06}"),
            owner: Some(id.to_string()),
            body: serde_json::to_string(line).unwrap_or_default(),
            version: 0,
            created: line.at,
            expires: None,
        };
        self.store.doc_insert(doc).await.map_err(store_error)?;
        let _ = self.store.notify(&Note::Chat(id.to_string())).await;
        Ok(())
    }

    /// Store a new game without opening it (nobody plays it before it is
    /// opened: see [`Rounds::open_round`]).
    pub(crate) async fn store_new(&self, round: &Round) -> Result<(), RoundError> {
        let stored = StoredGame {
            id: round.id.clone(),
            created: round.created,
            spec: round.spec.clone(),
            start: round.start.clone(),
            seed: round.seed,
            meta: meta_json(&round.meta),
            actions: round.history.iter().map(stored_action).collect(),
            version: 0,
        };
        let status = status_of(round.game.as_ref(), &round.meta);
        self.store.insert(stored, status).await.map_err(store_error)
    }

    /// Store `change` to `round` (not yet applied); the game's new row
    /// version.
    pub(crate) async fn store_change(
        &self,
        round: &Round,
        change: &Change,
    ) -> Result<u64, StoreError> {
        let game = change.game.as_deref().unwrap_or(round.game.as_ref());
        let meta = change.meta.as_ref().unwrap_or(&round.meta);
        let write = Write {
            game: round.id.clone(),
            version: round.stored,
            keep: change.keep,
            truncate: change.truncate,
            actions: change.entries.iter().map(stored_action).collect(),
            meta: change.meta.as_ref().map(meta_json),
            status: status_of(game, meta),
        };
        self.store.write(write).await
    }

    /// Rebuild a stored game by replaying its actions.
    fn restore(&self, g: &StoredGame) -> Result<Round, String> {
        let mut meta: Meta = serde_json::from_str(&g.meta).map_err(|e| format!("bad meta: {e}"))?;
        meta.upgrade();
        let start = self
            .registry
            .create(&g.spec, g.start.as_deref())
            .map_err(|e| e.to_string())?;
        let title = self
            .registry
            .entry(start.name())
            .map_err(|e| e.to_string())?
            .title;
        if meta.seats.len() != start.num_players() {
            return Err("wrong number of seats".into());
        }
        let mut round = Round::new(
            g.id.clone(),
            g.created,
            title,
            start,
            g.start.clone(),
            g.seed,
            meta,
        );
        round.replay(g.actions.iter().map(|a| (a.actor, a.text.as_str())))?;
        round.stored = g.version;
        Ok(round)
    }
}

fn stored_action(e: &Entry) -> StoredAction {
    StoredAction {
        actor: e.actor,
        text: e.text.clone(),
    }
}

fn meta_json(meta: &Meta) -> String {
    serde_json::to_string(meta).unwrap_or_else(|_| "{}".into())
}

/// The stored facts of a game in state `game` with `meta`.
fn status_of(game: &dyn AnyGame, meta: &Meta) -> Status {
    let ending = ending_of(game, meta);
    let outcome = |seat: u8| {
        let e = ending.as_ref()?;
        Some(match e.outcome {
            // Anyone can write a record: an import proves nothing of anyone.
            _ if e.reason == EndReason::Aborted || meta.imported => return None,
            // A leaver ranks last, whatever their AI stand-in achieved.
            _ if meta.left.contains(&seat) => SeatResult::Loss,
            tabula_core::Outcome::Win(p) if p.0 == seat => SeatResult::Win,
            tabula_core::Outcome::Draw(set) if set.contains(Player(seat)) => SeatResult::Draw,
            _ => SeatResult::Loss,
        })
    };
    let players = meta
        .seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            Some(SeatRow {
                seat: i as u8,
                player: s.owner.clone()?,
                outcome: outcome(i as u8),
            })
        })
        .collect();
    let to_move = to_move(game, meta).filter(|&s| {
        meta.seats
            .get(s as usize)
            .is_some_and(|x| x.kind == SeatKind::Human)
    });
    Status {
        result: ending.map(|e| e.outcome.to_text()),
        // An AI-only game is driven only where someone watches it: the
        // sweep that resumes AI turns leaves it alone.
        ai_turn: ai_to_move(game, meta).is_some() && super::has_human_seat(&meta.seats),
        to_move,
        players,
        deadline: super::clock::deadline_of(game, meta),
        rating_due: ending.is_some_and(|e| e.reason != EndReason::Aborted)
            && meta.rated
            && meta.rating_diff.is_empty(),
    }
}
