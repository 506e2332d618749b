//! The bots' work on the store and the live games: declining challenges
//! and the two streams of the bot API.

use super::BotError;
use super::{changes, ndjson_line, offered, BotEvent, GameEvent, EVENT_POLL, KEEP_ALIVE};
use crate::lobby::{Lobby, SeekDoc};
use crate::protocol::{GameView, SeekId, ServerMessage, TurnInfo};
use crate::round::actor::Msg;
use crate::round::Rounds;
use crate::store::{Doc, StoreError};
use crate::user::session::Visitor;
use crate::user::Users;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The document kind of a bot's "not for me" on an open seek.
const DECLINED: &str = "seek_declined";

/// The bots: their challenges and streams.
pub struct Bots {
    rounds: Arc<Rounds>,
    lobby: Arc<Lobby>,
    users: Arc<Users>,
}

impl Bots {
    pub fn new(rounds: Arc<Rounds>, lobby: Arc<Lobby>, users: Arc<Users>) -> Self {
        Bots {
            rounds,
            lobby,
            users,
        }
    }

    /// Whether the identities `ids` have ever held a seat.
    pub(crate) async fn has_games(
        &self,
        ids: &[crate::common::PlayerId],
    ) -> Result<bool, BotError> {
        for over in [false, true] {
            let games = self.rounds.store.player_games(ids, over, 1, 0).await?;
            if !games.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Decline seek `id` for the bot `visitor`: a challenge addressed to
    /// it is withdrawn (its creator sees it go from the lobby); an open
    /// seek is no longer offered to this bot.
    pub async fn decline_seek(&self, visitor: &Visitor, id: &str) -> Result<(), BotError> {
        let Some((key, _)) = &visitor.account else {
            return Err(BotError::NotSignedIn);
        };
        let (doc, seek): (Doc, SeekDoc) = self.lobby.load_seek(id).await?;
        if seek.game.is_some() {
            return Err(BotError::Started);
        }
        if seek.to.as_deref() == Some(key.as_str()) {
            self.rounds.store.doc_delete("seek", id).await?;
            self.lobby.changed().await;
            return Ok(());
        }
        if seek.to.is_some() {
            return Err(BotError::NotForYou);
        }
        let mark = Doc {
            kind: DECLINED,
            id: format!("{id}:{key}"),
            owner: Some(key.clone()),
            body: "{}".into(),
            version: 0,
            created: self.rounds.now(),
            // Seeks live at most this long once started; a lapsed mark is
            // harmless (the seek is gone too).
            expires: Some(
                doc.expires.unwrap_or(self.rounds.now()) + crate::lobby::service::STARTED_KEPT_MS,
            ),
        };
        match self.rounds.store.doc_insert(mark).await {
            Ok(()) | Err(StoreError::Conflict) => {}
            Err(e) => return Err(e.into()),
        }
        // Only this bot's stream cares: ring it like any lobby change.
        self.lobby.ring();
        Ok(())
    }
}

/// Send `line` to the stream; false once the client has gone.
async fn send(tx: &mpsc::Sender<String>, line: String) -> bool {
    tx.send(line).await.is_ok()
}

/// What the event stream knows it has told the bot.
#[derive(Default)]
struct Told {
    games: BTreeSet<String>,
    seeks: BTreeSet<String>,
}

/// The events due since `told`, and `told` brought up to date.
async fn look(bots: &Bots, visitor: &Visitor, key: &str, told: &mut Told) -> Vec<BotEvent> {
    let ids = visitor.ids();
    let mut events = Vec::new();
    let playing = match bots.rounds.store.player_games(&ids, false, 100, 0).await {
        Ok(heads) => heads,
        Err(e) => {
            tracing::warn!("bot events: {e}");
            return events;
        }
    };
    let now: BTreeSet<String> = playing.iter().map(|h| h.id.clone()).collect();
    let (started, gone) = changes(&told.games, &now);
    for h in playing.iter().filter(|h| started.contains(&h.id)) {
        if let Some(game) = bots.rounds.summary(h) {
            events.push(BotEvent::GameStart { game });
        }
    }
    if !gone.is_empty() {
        let finished = bots
            .rounds
            .store
            .player_games(&ids, true, 50, 0)
            .await
            .unwrap_or_default();
        for h in finished.iter().filter(|h| gone.contains(&h.id)) {
            if let Some(game) = bots.rounds.summary(h) {
                events.push(BotEvent::GameFinish { game });
            }
        }
    }
    told.games = now;

    let declined: BTreeSet<String> = bots
        .rounds
        .store
        .doc_list(DECLINED, Some(key), bots.rounds.now(), 1000)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| d.id.split_once(':').map(|(seek, _)| seek.to_string()))
        .collect();
    let Ok(seeks) = bots.lobby.seeks_for(visitor).await else {
        return events;
    };
    let offers: Vec<_> = seeks
        .into_iter()
        .filter(|s| offered(s, key) && !declined.contains(&s.id))
        .collect();
    let now: BTreeSet<String> = offers.iter().map(|s| s.id.clone()).collect();
    let (new, gone) = changes(&told.seeks, &now);
    for challenge in offers.into_iter().filter(|s| new.contains(&s.id)) {
        events.push(BotEvent::Challenge { challenge });
    }
    for id in gone {
        events.push(BotEvent::ChallengeCanceled {
            challenge: SeekId { id },
        });
    }
    told.seeks = now;
    events
}

/// Feed the event stream of the bot `visitor` until it closes: its games
/// on now, then every game started or finished and every challenge
/// offered or withdrawn. The store is looked at when the lobby rings, a
/// game ends, or every [`EVENT_POLL`].
pub(crate) async fn run_events(bots: Arc<Bots>, visitor: Visitor, tx: mpsc::Sender<String>) {
    let Some(key) = visitor.account.as_ref().map(|(k, _)| k.clone()) else {
        return;
    };
    let mut lobby = bots.lobby.subscribe();
    let mut ended = bots.rounds.finisher.subscribe();
    let mut closing = bots.rounds.closing();
    let mut revoked = bots.users.revocation(&visitor);
    let mut told = Told::default();
    let mut last_sent = Instant::now();
    loop {
        for event in look(&bots, &visitor, &key, &mut told).await {
            if !send(&tx, ndjson_line(&event)).await {
                return;
            }
            last_sent = Instant::now();
        }
        let poll = Instant::now() + EVENT_POLL;
        loop {
            let quiet = last_sent + KEEP_ALIVE;
            tokio::select! {
                _ = crate::common::closed(&mut closing) => return,
                _ = revoked.fired() => return,
                _ = tx.closed() => return,
                r = lobby.recv() => {
                    if matches!(r, Err(RecvError::Closed)) { return }
                    break;
                }
                r = ended.recv() => {
                    if matches!(r, Err(RecvError::Closed)) { return }
                    break;
                }
                _ = tokio::time::sleep_until(poll) => break,
                _ = tokio::time::sleep_until(quiet) => {
                    if !send(&tx, "\n".into()).await { return }
                    last_sent = Instant::now();
                }
            }
        }
    }
}

fn is_over(view: &GameView) -> bool {
    view.state.turn == TurnInfo::Over
}

/// Feed the stream of game `id` for `caller` until the game ends or the
/// client goes: `snapshot` as `gameFull`, then every change as
/// `gameState` and every chat line the caller may read.
pub(crate) async fn run_game(
    bots: Arc<Bots>,
    id: String,
    visitor: Visitor,
    snapshot: GameView,
    mut updates: tokio::sync::broadcast::Receiver<crate::round::actor::Published>,
    tx: mpsc::Sender<String>,
) {
    let caller = visitor.caller("");
    let mut revoked = bots.users.revocation(&visitor);
    let seats = snapshot.you.clone();
    let player = !seats.is_empty();
    let mut over = is_over(&snapshot);
    let mut last_sent = Instant::now();
    let mut closing = bots.rounds.closing();
    let mut open = send(&tx, ndjson_line(&GameEvent::GameFull(snapshot))).await;
    while open && !over {
        let event = tokio::select! {
            _ = crate::common::closed(&mut closing) => break,
            _ = revoked.fired() => break,
            _ = tx.closed() => break,
            _ = tokio::time::sleep_until(last_sent + KEEP_ALIVE) => {
                open = send(&tx, "\n".into()).await;
                last_sent = Instant::now();
                continue;
            }
            update = updates.recv() => match update {
                Ok(p) if p.hidden_from_players && player => continue,
                Ok(p) => match serde_json::from_str::<ServerMessage>(&p.text) {
                    Ok(ServerMessage::Update(v)) => GameEvent::GameState(v),
                    Ok(ServerMessage::Snapshot(v)) => GameEvent::GameFull(v),
                    Ok(ServerMessage::Chat(line)) => GameEvent::ChatLine(line),
                    _ => continue,
                },
                // Fell behind: start again from the whole game.
                Err(RecvError::Lagged(_)) => match bots.rounds.view_for(&id, &caller).await {
                    Ok(v) => GameEvent::GameFull(v),
                    Err(_) => break,
                },
                // The game's owner retired or was replaced: watch the new one.
                Err(RecvError::Closed) => match bots.rounds.watch(&id, &caller).await {
                    Ok((v, rx)) => {
                        updates = rx;
                        GameEvent::GameFull(v)
                    }
                    Err(_) => break,
                },
            },
        };
        if let GameEvent::GameFull(v) | GameEvent::GameState(v) = &event {
            over = is_over(v);
        }
        open = send(&tx, ndjson_line(&event)).await;
        last_sent = Instant::now();
    }
    // The bot's stream closed: the game counts it away, as a closed page.
    if player {
        if let Some(h) = bots.rounds.live().get(&id) {
            let _ = h.tx.send(Msg::Unwatch { seats }).await;
        }
    }
}
