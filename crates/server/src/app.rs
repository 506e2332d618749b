//! The games the server holds, and every change to them: each change is
//! checked, stored, then committed in memory and published to the game's
//! watchers, all under the game's lock so changes to one game are serial.

use crate::ai::{self, Pick};
use crate::error::ApiError;
use crate::session::{Entry, Meta, Seat, SeatKind, Session};
use crate::store::{Op, Store, StoredAction, StoredGame};
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tabula_core::{AnyGame, EndReason, Outcome, Player, Record, Registry, Replayed};
use tokio::sync::{broadcast, Mutex};

/// The level an AI seat gets when a player leaves a game.
const STAND_IN_LEVEL: &str = "level3";

/// One game and the channel its watchers listen on (JSON messages).
pub struct Handle {
    pub session: Mutex<Session>,
    pub tx: broadcast::Sender<Arc<str>>,
}

pub struct App {
    pub registry: Registry,
    store: Store,
    games: RwLock<HashMap<String, Arc<Handle>>>,
    /// Pause before each AI action, so people can follow the AI's moves.
    ai_pause: Duration,
}

/// A seat as asked for when creating a game.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatRequest {
    #[serde(rename = "type")]
    pub kind: SeatKind,
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// A seat for a friend, joined when the invite link is opened (the
    /// creator's own seats are joined at once).
    #[serde(default)]
    pub invite: bool,
}

/// A new game: a spec string, optionally a start position, the seats.
#[derive(Clone, Debug, Deserialize)]
pub struct NewGame {
    pub spec: String,
    #[serde(default)]
    pub position: Option<String>,
    /// One per seat; empty = every seat human.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    #[serde(default)]
    pub seed: Option<u64>,
}

/// What the creator of a game gets back: the id and the human seats' tokens.
pub struct Created {
    pub id: String,
    pub tokens: Vec<(u8, String)>,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn random_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::thread_rng();
    (0..10)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}

fn random_token() -> String {
    format!("{:032x}", rand::thread_rng().gen::<u128>())
}

fn meta_json(meta: &Meta) -> String {
    serde_json::to_string(meta).unwrap_or_else(|_| "{}".into())
}

impl App {
    /// Open the database and bring every stored game back, replayed
    /// action by action from its start.
    pub fn open(registry: Registry, db: &Path, ai_pause: Duration) -> Result<Arc<App>, String> {
        let (store, stored) = Store::open(db)?;
        let mut games = HashMap::new();
        for g in stored {
            match restore(&registry, &g) {
                Ok(session) => {
                    games.insert(g.id.clone(), Arc::new(handle(session)));
                }
                Err(e) => eprintln!("tabula: game {} not restored: {e}", g.id),
            }
        }
        Ok(Arc::new(App {
            registry,
            store,
            games: RwLock::new(games),
            ai_pause,
        }))
    }

    /// Let every AI seat that is to move think (after a restart).
    pub fn resume_ai(self: &Arc<Self>) {
        let ids: Vec<String> = self.read_games().keys().cloned().collect();
        for id in ids {
            self.kick_ai(id);
        }
    }

    fn read_games(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Arc<Handle>>> {
        self.games.read().unwrap_or_else(|e| e.into_inner())
    }

    pub fn handle(&self, id: &str) -> Result<Arc<Handle>, ApiError> {
        self.read_games()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("no game `{id}`")))
    }

    /// The registry's games with what the UI needs to offer them.
    pub fn catalog(&self) -> Value {
        let games: Vec<Value> = self
            .registry
            .entries()
            .iter()
            .filter_map(|e| {
                let g = self.registry.create(e.name, None).ok()?;
                let options: Vec<Value> = e
                    .options
                    .iter()
                    .map(|o| {
                        json!({"key": o.key, "values": o.values_text(), "default": o.default, "help": o.help})
                    })
                    .collect();
                let sides: Vec<&str> = (0..g.num_players())
                    .map(|i| g.player_name(Player(i as u8)))
                    .collect();
                Some(json!({
                    "name": e.name,
                    "title": e.title,
                    "description": e.description,
                    "players": g.num_players(),
                    "sides": sides,
                    "options": options,
                    "start": g.position(),
                }))
            })
            .collect();
        json!({"games": games, "levels": ai::LEVELS})
    }

    fn seats_for(&self, game: &dyn AnyGame, asked: &[SeatRequest]) -> Result<Vec<Seat>, ApiError> {
        let n = game.num_players();
        if !asked.is_empty() && asked.len() != n {
            return Err(ApiError::bad_request(format!(
                "{} has {n} seats, {} given",
                game.name(),
                asked.len()
            )));
        }
        (0..n)
            .map(|i| {
                let req = asked.get(i);
                let kind = req.map_or(SeatKind::Human, |r| r.kind.clone());
                let level = match kind {
                    SeatKind::Ai => {
                        let l = req
                            .and_then(|r| r.level.clone())
                            .unwrap_or_else(|| STAND_IN_LEVEL.into());
                        ai::check_level(&l)?;
                        Some(l)
                    }
                    SeatKind::Human => None,
                };
                let name = req
                    .and_then(|r| r.name.clone())
                    .map(|n| clean_name(&n))
                    .unwrap_or_default();
                Ok(Seat {
                    joined: !req.is_some_and(|r| r.invite),
                    kind,
                    level,
                    token: random_token(),
                    name,
                })
            })
            .collect()
    }

    /// Create a game; the opening chance actions (if any) are rolled at once.
    pub async fn create(self: &Arc<Self>, req: NewGame) -> Result<Created, ApiError> {
        let game = self.registry.create(&req.spec, req.position.as_deref())?;
        let seats = self.seats_for(game.as_ref(), &req.seats)?;
        let seed = req.seed.unwrap_or_else(|| rand::thread_rng().gen());
        let session = self.new_session(game, req.position, seed, seats, Vec::new())?;
        self.insert(session).await
    }

    /// Continue a game from a record file, with new seats.
    pub async fn import(
        self: &Arc<Self>,
        text: &str,
        seats: &[SeatRequest],
    ) -> Result<Created, ApiError> {
        let rec = Record::parse(text)?;
        let mut positions = Vec::new();
        let Replayed { game, ending } = rec.replay_checked(&self.registry, |g, i| {
            if i > 0 {
                positions.push(g.position());
            }
        })?;
        let start = self.registry.create(&rec.game, rec.start.as_deref())?;
        let history: Vec<Entry> = rec
            .actions
            .iter()
            .zip(positions)
            .map(|(a, pos)| Entry {
                actor: a.actor.map(|p| p.0),
                text: a.text.clone(),
                pos,
            })
            .collect();
        let seats = self.seats_for(game.as_ref(), seats)?;
        let seed = rec
            .meta("seed")
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| rand::thread_rng().gen());
        let mut session = self.new_session(start, rec.start.clone(), seed, seats, history)?;
        session.game = game;
        if let Some(end) = ending.filter(|e| e.reason != EndReason::Board) {
            session.meta = session.meta.ended(end.outcome, end.reason.as_str());
        }
        self.insert(session).await
    }

    fn new_session(
        &self,
        game: Box<dyn AnyGame>,
        start: Option<String>,
        seed: u64,
        seats: Vec<Seat>,
        history: Vec<Entry>,
    ) -> Result<Session, ApiError> {
        let title = self.registry.entry(game.name())?.title;
        Ok(Session {
            id: random_id(),
            created: now_ms(),
            title,
            spec: game.spec().to_string(),
            start,
            seed,
            meta: Meta {
                seats,
                ..Meta::default()
            },
            start_game: game.clone(),
            game,
            history,
            thinking: false,
            version: 0,
        })
    }

    async fn insert(self: &Arc<Self>, mut session: Session) -> Result<Created, ApiError> {
        let (game, rolls) = session.opening_rolls();
        session.commit(game, rolls);
        self.store
            .write(Op::Insert(StoredGame {
                id: session.id.clone(),
                created: session.created,
                spec: session.spec.clone(),
                start: session.start.clone(),
                seed: session.seed,
                meta: meta_json(&session.meta),
                actions: session.history.iter().map(Entry::stored).collect(),
            }))
            .await
            .map_err(ApiError::internal)?;
        let created = Created {
            id: session.id.clone(),
            tokens: session
                .meta
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.kind == SeatKind::Human)
                .map(|(i, s)| (i as u8, s.token.clone()))
                .collect(),
        };
        self.games
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(session.id.clone(), Arc::new(handle(session)));
        self.kick_ai(created.id.clone());
        Ok(created)
    }

    /// Recent games, newest first.
    pub async fn list(&self) -> Value {
        let handles: Vec<Arc<Handle>> = self.read_games().values().cloned().collect();
        let mut rows = Vec::with_capacity(handles.len());
        for h in handles {
            let s = h.session.lock().await;
            rows.push((s.created, s.summary()));
        }
        rows.sort_by_key(|r| std::cmp::Reverse(r.0));
        Value::Array(rows.into_iter().take(100).map(|r| r.1).collect())
    }

    async fn save(
        &self,
        s: &Session,
        keep: usize,
        truncate: bool,
        entries: &[Entry],
        meta: Option<&Meta>,
    ) -> Result<(), ApiError> {
        self.store
            .write(Op::Write {
                game: s.id.clone(),
                keep,
                truncate,
                actions: entries.iter().map(Entry::stored).collect(),
                meta: meta.map(meta_json),
            })
            .await
            .map_err(ApiError::internal)
    }

    fn publish(h: &Handle, s: &Session, from: usize) {
        let _ = h.tx.send(Arc::from(s.update_json(from).to_string()));
    }

    /// Play `action` for the seat holding `token`. `ply`, when given, must
    /// be the current ply (guards against acting on a stale board).
    /// Returns the ply after the move and its chance follow-ups.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: &str,
        ply: Option<usize>,
    ) -> Result<usize, ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        if let Some(p) = ply {
            if p != s.history.len() {
                return Err(ApiError::conflict(format!(
                    "the board has changed (ply {} now, not {p}): reload",
                    s.history.len()
                )));
            }
        }
        self.play_locked(&h, &mut s, seat, action).await?;
        let now = s.history.len();
        drop(s);
        self.kick_ai(id.to_string());
        Ok(now)
    }

    async fn play_locked(
        &self,
        h: &Handle,
        s: &mut Session,
        seat: u8,
        action: &str,
    ) -> Result<(), ApiError> {
        let (game, entries) = s.try_play(seat, action)?;
        let meta = (!s.meta.draw_offer.is_empty()).then(|| Meta {
            draw_offer: Vec::new(),
            ..s.meta.clone()
        });
        let from = s.history.len();
        self.save(s, from, false, &entries, meta.as_ref()).await?;
        s.commit(game, entries);
        Self::publish(h, s, from);
        Ok(())
    }

    /// Store a new meta, then take it in and tell the watchers.
    async fn set_meta(&self, h: &Handle, s: &mut Session, meta: Meta) -> Result<(), ApiError> {
        self.save(s, s.history.len(), false, &[], Some(&meta))
            .await?;
        s.meta = meta;
        Self::publish(h, s, s.history.len());
        Ok(())
    }

    /// Claim a seat by its token (from an invite link); returns the seat.
    pub async fn join(&self, id: &str, token: &str, name: Option<&str>) -> Result<u8, ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        let mut meta = s.meta.clone();
        let slot = &mut meta.seats[seat as usize];
        if slot.kind == SeatKind::Ai {
            return Err(ApiError::conflict("the AI plays this seat now"));
        }
        let name = name.map(clean_name).filter(|n| !n.is_empty());
        if slot.joined && (name.is_none() || name.as_ref() == Some(&slot.name)) {
            return Ok(seat);
        }
        slot.joined = true;
        if let Some(n) = name {
            slot.name = n;
        }
        self.set_meta(&h, &mut s, meta).await?;
        Ok(seat)
    }

    /// Take back the requester's last action (and what followed it).
    pub async fn undo(self: &Arc<Self>, id: &str, token: &str) -> Result<usize, ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        let ply = s.undo_point(seat)?;
        let game = s.rewound(ply)?;
        let meta = Meta {
            draw_offer: Vec::new(),
            ..s.meta.clone()
        };
        self.save(&s, ply, true, &[], Some(&meta)).await?;
        s.truncate(ply, game);
        Self::publish(&h, &s, ply);
        drop(s);
        self.kick_ai(id.to_string());
        Ok(ply)
    }

    /// Resign a two-player game: the opponent wins.
    pub async fn resign(&self, id: &str, token: &str) -> Result<(), ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        if s.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        if s.meta.seats.len() != 2 {
            return Err(ApiError::conflict(
                "in a three-player game, leave instead: the AI takes your seat",
            ));
        }
        let meta = s.meta.ended(Outcome::Win(Player(1 - seat)), "resign");
        self.set_meta(&h, &mut s, meta).await
    }

    /// Offer a draw, accept one (`accept` = true) or decline (`false`).
    /// When every human seat agrees the game is drawn; the AI never does.
    pub async fn draw(&self, id: &str, token: &str, accept: bool) -> Result<(), ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        if s.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        let mut meta = s.meta.clone();
        if !accept {
            meta.draw_offer.clear();
            return self.set_meta(&h, &mut s, meta).await;
        }
        if meta.seats.iter().any(|x| x.kind == SeatKind::Ai) {
            return Err(ApiError::conflict("the AI does not accept draws"));
        }
        if !meta.draw_offer.contains(&seat) {
            meta.draw_offer.push(seat);
        }
        if meta.draw_offer.len() == meta.seats.len() {
            meta = meta.ended(Outcome::Draw(s.all_seats()), "agreement");
        }
        self.set_meta(&h, &mut s, meta).await
    }

    /// Leave the game: the AI takes the seat.
    pub async fn leave(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        let seat = s.seat_of(token)?;
        let mut meta = s.meta.clone();
        let slot = &mut meta.seats[seat as usize];
        slot.kind = SeatKind::Ai;
        slot.level = Some(STAND_IN_LEVEL.into());
        slot.token = random_token();
        meta.draw_offer.retain(|&x| x != seat);
        self.set_meta(&h, &mut s, meta).await?;
        drop(s);
        self.kick_ai(id.to_string());
        Ok(())
    }

    /// A new game with the same rules, the seats moved round by one (the
    /// players keep their tokens). Asking twice gives the same game.
    pub async fn rematch(self: &Arc<Self>, id: &str, token: &str) -> Result<String, ApiError> {
        let h = self.handle(id)?;
        let mut s = h.session.lock().await;
        s.seat_of(token)?;
        if let Some(r) = &s.meta.rematch {
            return Ok(r.clone());
        }
        let mut seats = s.meta.seats.clone();
        seats.rotate_right(1);
        for seat in &mut seats {
            seat.joined = seat.kind == SeatKind::Ai;
        }
        let game = s.start_game.clone();
        let session = self.new_session(
            game,
            s.start.clone(),
            rand::thread_rng().gen(),
            seats,
            Vec::new(),
        )?;
        let created = self.insert(session).await?;
        let mut meta = s.meta.clone();
        meta.rematch = Some(created.id.clone());
        self.set_meta(&h, &mut s, meta).await?;
        Ok(created.id)
    }

    /// The AI's advice for the seat to move (the seat's holder only).
    pub async fn hint(&self, id: &str, token: &str) -> Result<Pick, ApiError> {
        let h = self.handle(id)?;
        let (game, seed) = {
            let s = h.session.lock().await;
            let seat = s.seat_of(token)?;
            if s.to_move() != Some(seat) {
                return Err(ApiError::conflict("hints are for the player to move"));
            }
            (
                s.game.clone(),
                s.seed ^ (s.history.len() as u64).rotate_left(17),
            )
        };
        tokio::task::spawn_blocking(move || ai::hint(game.as_ref(), seed))
            .await
            .map_err(|e| ApiError::internal(format!("the hint failed: {e}")))?
            .map_err(ApiError::from)
    }

    /// Let the AI play while an AI seat is to move (one driver per game).
    fn kick_ai(self: &Arc<Self>, id: String) {
        let app = Arc::clone(self);
        tokio::spawn(async move { app.drive_ai(&id).await });
    }

    async fn drive_ai(self: Arc<Self>, id: &str) {
        let Ok(h) = self.handle(id) else { return };
        loop {
            let (game, seat, level, version, seed) = {
                let mut s = h.session.lock().await;
                if s.thinking {
                    return;
                }
                let Some((seat, level)) = s.ai_to_move() else {
                    return;
                };
                s.thinking = true;
                Self::publish(&h, &s, s.history.len());
                let seed = s.seed ^ (s.history.len() as u64).rotate_left(29);
                (s.game.clone(), seat, level, s.version, seed)
            };
            if !self.ai_pause.is_zero() {
                tokio::time::sleep(self.ai_pause).await;
            }
            let pick =
                tokio::task::spawn_blocking(move || ai::choose(game.as_ref(), &level, seed)).await;
            let mut s = h.session.lock().await;
            s.thinking = false;
            let played = match pick {
                Ok(Ok(p)) if s.version == version && s.ai_to_move().map(|a| a.0) == Some(seat) => {
                    self.play_locked(&h, &mut s, seat, &p.action).await
                }
                Ok(Ok(_)) => {
                    // The game moved on (a take-back, a resignation, the
                    // seat changed hands): show it, look again.
                    Self::publish(&h, &s, s.history.len());
                    Ok(())
                }
                Ok(Err(e)) => Err(ApiError::from(e)),
                Err(e) => Err(ApiError::internal(e.to_string())),
            };
            if let Err(e) = played {
                eprintln!("tabula: AI in game {id}: {e}");
                Self::publish(&h, &s, s.history.len());
                return;
            }
        }
    }
}

fn handle(session: Session) -> Handle {
    let (tx, _) = broadcast::channel(64);
    Handle {
        session: Mutex::new(session),
        tx,
    }
}

/// A player name as shown: one line, at most 32 characters.
fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(32)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Rebuild a stored game by replaying its actions.
fn restore(registry: &Registry, g: &StoredGame) -> Result<Session, String> {
    let meta: Meta = serde_json::from_str(&g.meta).map_err(|e| format!("bad meta: {e}"))?;
    let start = registry
        .create(&g.spec, g.start.as_deref())
        .map_err(|e| e.to_string())?;
    let title = registry
        .entry(start.name())
        .map_err(|e| e.to_string())?
        .title;
    let mut game = start.clone();
    let mut history = Vec::with_capacity(g.actions.len());
    for (i, StoredAction { actor, text }) in g.actions.iter().enumerate() {
        let text = game
            .apply_text(text)
            .map_err(|e| format!("action {}: {e}", i + 1))?;
        history.push(Entry {
            actor: *actor,
            text,
            pos: game.position(),
        });
    }
    if meta.seats.len() != game.num_players() {
        return Err("wrong number of seats".into());
    }
    Ok(Session {
        id: g.id.clone(),
        created: g.created,
        title,
        spec: g.spec.clone(),
        start: g.start.clone(),
        seed: g.seed,
        meta,
        start_game: start,
        game,
        history,
        thinking: false,
        version: 0,
    })
}
