//! The lobby's work on the store: post, list, accept and cancel seeks;
//! keep them alive while their creator is in the lobby; start the game when
//! the last seat is filled. Seeks are documents with a row version, so two
//! people accepting the last seat at once (on two instances) cannot both
//! get it.

use super::{LobbyError, SeekDoc};
use crate::common::limits::Limits;
use crate::common::{random_id, PlayerId};
use crate::protocol::{Accepted, NewSeek, Seek, SeekId};
use crate::round::{Round, RoundError, Rounds};
use crate::store::{retry_on_conflict, Doc, Note, StoreError};
use crate::user::session::Visitor;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// A seek lives this long after its creator was last seen in the lobby.
pub const SEEK_ALIVE_MS: i64 = 30_000;
/// How often an open lobby page keeps its creator's seeks alive.
pub const RENEW_EVERY: Duration = Duration::from_secs(10);
/// A seek whose game started stays listed this long, for its players.
pub const STARTED_KEPT_MS: i64 = 600_000;
/// The most seeks listed.
pub const LIST_LIMIT: usize = 200;

/// The name a visitor shows: their account's, else "Guest".
fn shown_name(visitor: &Visitor) -> String {
    visitor.name().unwrap_or_else(|| "Guest".into())
}

/// A visitor who can hold seats: signed in, or a guest with a session.
fn identity(visitor: &Visitor) -> Result<PlayerId, LobbyError> {
    visitor
        .ids()
        .into_iter()
        .next()
        .ok_or(LobbyError::NoSession)
}

/// The open seeks, and a bell that rings when they may have changed.
pub struct Lobby {
    rounds: Arc<Rounds>,
    limits: Arc<Limits>,
    /// Rings when the open seeks may have changed (here or, through the
    /// store's notes, on another instance).
    bell: broadcast::Sender<()>,
}

impl Lobby {
    pub fn new(rounds: Arc<Rounds>, limits: Arc<Limits>) -> Self {
        Lobby {
            rounds,
            limits,
            bell: broadcast::channel(16).0,
        }
    }

    /// Drop expired seeks and idle rate-limit keys every `seek_sweep`,
    /// until the lobby is gone.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(sweep(Arc::downgrade(self)));
    }

    /// A receiver that rings when the seeks may have changed.
    pub fn subscribe(&self) -> broadcast::Receiver<()> {
        self.bell.subscribe()
    }

    /// Ring the lobby here only: a change only this instance's streams
    /// care about, or one another instance made.
    pub(crate) fn ring(&self) {
        let _ = self.bell.send(());
    }

    /// Ring the lobby here and on the other instances.
    pub(crate) async fn changed(&self) {
        self.ring();
        let _ = self.rounds.store.notify(&Note::Lobby).await;
    }

    pub async fn post_seek(&self, visitor: &Visitor, req: NewSeek) -> Result<SeekId, LobbyError> {
        let me = identity(visitor)?;
        self.limits.seeks.count(&me.to_string())?;
        let game = self.rounds.registry.create(&req.spec, None)?;
        let title = self.rounds.registry.entry(game.name())?.title;
        if let Some(to) = &req.to {
            let key = to.to_ascii_lowercase();
            if visitor.account.as_ref().is_some_and(|(k, _)| *k == key) {
                return Err(LobbyError::SelfChallenge);
            }
            match crate::user::session::load_account(&self.rounds.store, &key).await? {
                Some((_, a)) if !a.deleted => {}
                _ => return Err(LobbyError::NoPlayer(to.clone())),
            }
        }
        let seek = SeekDoc::new(&req, (&me, &shown_name(visitor)), game.num_players(), title)
            .map_err(LobbyError::BadSeek)?;
        let now = self.rounds.now();
        let id = random_id();
        let doc = Doc {
            kind: "seek",
            id: id.clone(),
            owner: Some(me.to_string()),
            body: serde_json::to_string(&seek).unwrap_or_default(),
            version: 0,
            created: now,
            expires: Some(now + SEEK_ALIVE_MS),
        };
        self.rounds.store.doc_insert(doc).await?;
        self.changed().await;
        Ok(SeekId { id })
    }

    /// The seeks `visitor` may see: open ones, their own, those for them.
    pub async fn seeks_for(&self, visitor: &Visitor) -> Result<Vec<Seek>, LobbyError> {
        let ids = visitor.ids();
        let account = visitor.account.as_ref().map(|(k, _)| k.as_str());
        let docs = self
            .rounds
            .store
            .doc_list("seek", None, self.rounds.now(), LIST_LIMIT)
            .await?;
        Ok(docs
            .iter()
            .filter_map(|d| Some((d, serde_json::from_str::<SeekDoc>(&d.body).ok()?)))
            .filter(|(_, s)| s.visible_to(&ids, account))
            .map(|(d, s)| s.view(&d.id, d.created, &ids))
            .collect())
    }

    /// One seek, for whoever has its link.
    pub async fn seek(&self, visitor: &Visitor, id: &str) -> Result<Seek, LobbyError> {
        let (doc, seek) = self.load_seek(id).await?;
        Ok(seek.view(&doc.id, doc.created, &visitor.ids()))
    }

    pub(crate) async fn load_seek(&self, id: &str) -> Result<(Doc, SeekDoc), LobbyError> {
        let doc = self
            .rounds
            .store
            .doc_get("seek", id)
            .await?
            .filter(|d| d.expires.is_none_or(|e| e >= self.rounds.now()))
            .ok_or(LobbyError::Gone)?;
        let seek = serde_json::from_str(&doc.body).map_err(|_| LobbyError::Gone)?;
        Ok((doc, seek))
    }

    /// Take a seat of seek `id`; the game once every seat is filled.
    pub async fn accept_seek(&self, visitor: &Visitor, id: &str) -> Result<Accepted, LobbyError> {
        identity(visitor)?;
        let ids = visitor.ids();
        let account = visitor.account.as_ref().map(|(k, _)| k.clone());
        let (ids, account) = (&ids, &account);
        retry_on_conflict(
            5,
            || RoundError::Busy.into(),
            || async move {
                let (mut doc, mut seek) = self.load_seek(id).await?;
                let bot = visitor.is_bot();
                seek.accept(ids, account.as_deref(), &shown_name(visitor), bot)?;
                let game_id = seek.full().then(random_id);
                seek.game = game_id.clone();
                // The game first, then the seek marked started (as lila
                // does): a crash in between leaves a stored game, never a
                // started seek without one.
                let round = match &game_id {
                    Some(game) => Some(self.store_seek_game(game, &seek).await?),
                    None => None,
                };
                doc.body = serde_json::to_string(&seek).unwrap_or_default();
                if game_id.is_some() {
                    doc.expires = Some(self.rounds.now() + STARTED_KEPT_MS);
                }
                let marked = self.rounds.store.doc_update(&doc).await;
                if marked.is_err() {
                    if let Some(game) = &game_id {
                        self.rounds.discard_new(game).await;
                    }
                }
                match marked {
                    Ok(_) => {}
                    // Someone else accepted at the same moment: look again.
                    Err(StoreError::Conflict) => return Ok(None),
                    Err(StoreError::Missing) => return Err(LobbyError::Gone),
                    Err(e) => return Err(e.into()),
                }
                if let Some(round) = round {
                    self.rounds.open_round(round);
                }
                self.changed().await;
                Ok(Some(Accepted { game: game_id }))
            },
        )
        .await
    }

    /// Store the game of a full seek, under the id the seek names; the
    /// round, to open once the seek is marked started.
    async fn store_seek_game(&self, id: &str, seek: &SeekDoc) -> Result<Round, LobbyError> {
        let game = self.rounds.registry.create(&seek.spec, None)?;
        let seed = rand::random();
        let mut round = self.rounds.new_round(game, None, seed, seek.game_seats())?;
        round.id = id.to_string();
        round.meta.hints = seek.hints;
        round.meta.rated = seek.rated;
        round.roll_dice();
        if let Some(control) = seek.clock {
            round.now = self.rounds.now();
            round.start_clocks(control);
        }
        self.rounds.store_new(&round).await?;
        Ok(round)
    }

    /// Cancel seek `id` (its creator only, before it starts).
    pub async fn cancel_seek(&self, visitor: &Visitor, id: &str) -> Result<(), LobbyError> {
        let (_, seek) = self.load_seek(id).await?;
        if !visitor.ids().contains(&seek.creator) {
            return Err(LobbyError::NotCreator);
        }
        if seek.game.is_some() {
            return Err(LobbyError::Started);
        }
        self.rounds.store.doc_delete("seek", id).await?;
        self.changed().await;
        Ok(())
    }

    /// Keep the seeks of `visitor` alive for `ms` more (their lobby page is
    /// open), or let them lapse soon (it closed).
    pub async fn keep_seeks(&self, visitor: &Visitor, ms: i64) {
        let Some(me) = visitor.ids().into_iter().next() else {
            return;
        };
        match self
            .rounds
            .store
            .doc_touch("seek", &me.to_string(), self.rounds.now() + ms)
            .await
        {
            Ok(n) if n > 0 && ms < SEEK_ALIVE_MS => self.changed().await,
            Ok(_) => {}
            Err(e) => tracing::warn!("keeping seeks: {e}"),
        }
    }
}

/// Every `seek_sweep`, drop expired seeks (and tell the lobby) and forget
/// rate-limit keys at rest, until the lobby is gone.
async fn sweep(lobby: std::sync::Weak<Lobby>) {
    loop {
        let Some(period) = lobby.upgrade().map(|l| l.rounds.config.seek_sweep) else {
            return;
        };
        tokio::time::sleep(period).await;
        let Some(lobby) = lobby.upgrade() else { return };
        match lobby
            .rounds
            .store
            .doc_purge("seek", lobby.rounds.now())
            .await
        {
            Ok(n) if n > 0 => lobby.changed().await,
            Ok(_) => {}
            Err(e) => tracing::warn!("lobby sweep: {e}"),
        }
        lobby.limits.prune();
    }
}
