//! The bots' work on the store and the live games: tokens (create, list,
//! revoke, authenticate), the upgrade to a bot account, and the two
//! streams of the bot API.

use super::{
    changes, check_description, last_used_stale, ndjson_line, new_token, offered, BotEvent,
    GameEvent, TokenCreated, TokenDoc, TokenInfo, EVENT_POLL, KEEP_ALIVE, TOKENS_PER_ACCOUNT,
};
use crate::app::App;
use crate::error::ApiError;
use crate::lobby::SeekDoc;
use crate::protocol::{GameView, SeekId, ServerMessage, TurnInfo};
use crate::round::actor::Msg;
use crate::round::state::hash_token;
use crate::round::{now_ms, random_id};
use crate::store::{Doc, Store, StoreError};
use crate::user::revoke::Revoked;
use crate::user::session::{load_account, Visitor};
use axum::http::StatusCode;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The document kind of tokens.
const KIND: &str = "api_token";
/// The document kind of a bot's "not for me" on an open seek.
const DECLINED: &str = "seek_declined";

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

fn unknown_token() -> ApiError {
    ApiError::unauthorized("unknown or revoked API token")
}

/// The visitor a bearer `token` signs in: its account (never a guest).
/// An unknown or revoked token, or one of a deleted account, is a 401.
pub async fn token_visitor(store: &Store, token: &str) -> Result<Visitor, ApiError> {
    if !token.starts_with(super::TOKEN_PREFIX) || token.len() > 128 {
        return Err(unknown_token());
    }
    let hash = hash_token(token);
    let doc = store
        .doc_get(KIND, &hash)
        .await
        .map_err(internal)?
        .ok_or_else(unknown_token)?;
    let mut body: TokenDoc = serde_json::from_str(&doc.body).map_err(internal)?;
    let key = doc.owner.clone().ok_or_else(unknown_token)?;
    let (_, account) = load_account(store, &key)
        .await?
        .filter(|(_, a)| !a.deleted)
        .ok_or_else(unknown_token)?;
    let now = now_ms();
    if last_used_stale(body.last_used, now) {
        body.last_used = Some(now);
        let doc = Doc {
            body: serde_json::to_string(&body).map_err(internal)?,
            ..doc
        };
        // Two requests at once: one write is enough.
        if let Err(e) = store.doc_update(&doc).await {
            if !matches!(e, StoreError::Conflict | StoreError::Missing) {
                tracing::warn!("token last used: {e}");
            }
        }
    }
    Ok(Visitor {
        session: None,
        guest: None,
        account: Some((key, account)),
        token: Some(body.id),
    })
}

/// The tokens of account `key`, with their documents' ids (the hashes).
async fn tokens_of(app: &App, key: &str) -> Result<Vec<(String, TokenDoc)>, ApiError> {
    let docs = app
        .store
        .doc_list(KIND, Some(key), now_ms(), 1000)
        .await
        .map_err(ApiError::from)?;
    Ok(docs
        .into_iter()
        .filter_map(|d| Some((d.id, serde_json::from_str(&d.body).ok()?)))
        .collect())
}

impl App {
    /// A new token for account `key`; the only time it is shown.
    pub async fn create_token(
        &self,
        key: &str,
        description: &str,
    ) -> Result<TokenCreated, ApiError> {
        let description = check_description(description).map_err(ApiError::bad_request)?;
        if tokens_of(self, key).await?.len() >= TOKENS_PER_ACCOUNT {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("an account holds at most {TOKENS_PER_ACCOUNT} tokens: revoke one"),
            ));
        }
        let token = new_token();
        let body = TokenDoc {
            id: random_id(),
            description,
            created: now_ms(),
            last_used: None,
        };
        let doc = Doc {
            kind: KIND,
            id: hash_token(&token),
            owner: Some(key.to_string()),
            body: serde_json::to_string(&body).map_err(internal)?,
            version: 0,
            created: body.created,
            expires: None,
        };
        self.store.doc_insert(doc).await.map_err(ApiError::from)?;
        Ok(TokenCreated {
            id: body.id,
            token,
            description: body.description,
            created: body.created,
        })
    }

    /// The tokens of account `key`, oldest first (never the secrets).
    pub async fn list_tokens(&self, key: &str) -> Result<Vec<TokenInfo>, ApiError> {
        Ok(tokens_of(self, key)
            .await?
            .into_iter()
            .map(|(_, t)| t.into())
            .collect())
    }

    /// Revoke token `id` of account `key`: it signs nothing from now on.
    pub async fn revoke_token(&self, key: &str, id: &str) -> Result<(), ApiError> {
        let found = tokens_of(self, key)
            .await?
            .into_iter()
            .find(|(_, t)| t.id == id);
        let Some((hash, _)) = found else {
            return Err(ApiError::not_found(format!("no token `{id}`")));
        };
        self.store
            .doc_delete(KIND, &hash)
            .await
            .map_err(ApiError::from)?;
        self.revoke(Revoked::Token(id.to_string())).await;
        Ok(())
    }

    /// Whether the identities `ids` have ever held a seat.
    pub(crate) async fn has_games(&self, ids: &[String]) -> Result<bool, ApiError> {
        for over in [false, true] {
            let games = self
                .store
                .player_games(ids, over, 1, 0)
                .await
                .map_err(ApiError::from)?;
            if !games.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Decline seek `id` for the bot `visitor`: a challenge addressed to
    /// it is withdrawn (its creator sees it go from the lobby); an open
    /// seek is no longer offered to this bot.
    pub async fn decline_seek(&self, visitor: &Visitor, id: &str) -> Result<(), ApiError> {
        let Some((key, _)) = &visitor.account else {
            return Err(ApiError::unauthorized("not signed in"));
        };
        let (doc, seek): (Doc, SeekDoc) = self.load_seek(id).await?;
        if seek.game.is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this challenge has started",
            ));
        }
        if seek.to.as_deref() == Some(key.as_str()) {
            self.store
                .doc_delete("seek", id)
                .await
                .map_err(ApiError::from)?;
            self.lobby_changed().await;
            return Ok(());
        }
        if seek.to.is_some() {
            return Err(ApiError::forbidden("this challenge is for another player"));
        }
        let mark = Doc {
            kind: DECLINED,
            id: format!("{id}:{key}"),
            owner: Some(key.clone()),
            body: "{}".into(),
            version: 0,
            created: now_ms(),
            // Seeks live at most this long once started; a lapsed mark is
            // harmless (the seek is gone too).
            expires: Some(doc.expires.unwrap_or(now_ms()) + crate::lobby::service::STARTED_KEPT_MS),
        };
        match self.store.doc_insert(mark).await {
            Ok(()) | Err(StoreError::Conflict) => {}
            Err(e) => return Err(internal(e)),
        }
        // Only this bot's stream cares: ring it like any lobby change.
        let _ = self.lobby.send(());
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
async fn look(app: &App, visitor: &Visitor, key: &str, told: &mut Told) -> Vec<BotEvent> {
    let ids = visitor.ids();
    let mut events = Vec::new();
    let playing = match app.store.player_games(&ids, false, 100, 0).await {
        Ok(heads) => heads,
        Err(e) => {
            tracing::warn!("bot events: {e}");
            return events;
        }
    };
    let now: BTreeSet<String> = playing.iter().map(|h| h.id.clone()).collect();
    let (started, gone) = changes(&told.games, &now);
    for h in playing.iter().filter(|h| started.contains(&h.id)) {
        if let Some(game) = app.summary(h) {
            events.push(BotEvent::GameStart { game });
        }
    }
    if !gone.is_empty() {
        let finished = app
            .store
            .player_games(&ids, true, 50, 0)
            .await
            .unwrap_or_default();
        for h in finished.iter().filter(|h| gone.contains(&h.id)) {
            if let Some(game) = app.summary(h) {
                events.push(BotEvent::GameFinish { game });
            }
        }
    }
    told.games = now;

    let declined: BTreeSet<String> = app
        .store
        .doc_list(DECLINED, Some(key), now_ms(), 1000)
        .await
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| d.id.split_once(':').map(|(seek, _)| seek.to_string()))
        .collect();
    let Ok(seeks) = app.seeks_for(visitor).await else {
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
pub(crate) async fn run_events(app: Arc<App>, visitor: Visitor, tx: mpsc::Sender<String>) {
    let Some(key) = visitor.account.as_ref().map(|(k, _)| k.clone()) else {
        return;
    };
    let mut lobby = app.lobby.subscribe();
    let mut ended = app.finisher.subscribe();
    let mut closing = app.closing();
    let mut revoked = app.revocation(&visitor);
    let mut told = Told::default();
    let mut last_sent = Instant::now();
    loop {
        for event in look(&app, &visitor, &key, &mut told).await {
            if !send(&tx, ndjson_line(&event)).await {
                return;
            }
            last_sent = Instant::now();
        }
        let poll = Instant::now() + EVENT_POLL;
        loop {
            let quiet = last_sent + KEEP_ALIVE;
            tokio::select! {
                _ = crate::ws::closed(&mut closing) => return,
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
    app: Arc<App>,
    id: String,
    visitor: Visitor,
    snapshot: GameView,
    mut updates: tokio::sync::broadcast::Receiver<crate::round::actor::Published>,
    tx: mpsc::Sender<String>,
) {
    let caller = visitor.caller("");
    let mut revoked = app.revocation(&visitor);
    let seats = snapshot.you.clone();
    let player = !seats.is_empty();
    let mut over = is_over(&snapshot);
    let mut last_sent = Instant::now();
    let mut closing = app.closing();
    let mut open = send(&tx, ndjson_line(&GameEvent::GameFull(snapshot))).await;
    while open && !over {
        let event = tokio::select! {
            _ = crate::ws::closed(&mut closing) => break,
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
                Err(RecvError::Lagged(_)) => match app.view_for(&id, &caller).await {
                    Ok(v) => GameEvent::GameFull(v),
                    Err(_) => break,
                },
                // The game's owner retired or was replaced: watch the new one.
                Err(RecvError::Closed) => match app.watch(&id, &caller).await {
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
        if let Some(h) = app.rounds.get(&id) {
            let _ = h.tx.send(Msg::Unwatch { seats }).await;
        }
    }
}
