//! The app: the registry, the store, the live games and the finisher, and
//! the entry points the HTTP and WebSocket handlers call. Handlers never
//! touch a game's state: they send its owner a command and await the answer.

use crate::protocol::{
    Catalog, CatalogGame, CatalogOption, Created, GameView, ImportGame, NewGame, SeatRequest,
    SeatToken, Summary,
};
use crate::round::actor::{self, Msg};
use crate::round::state::{
    ai_to_move, clean_name, ending_of, hash_token, players_and_leavers, proved_by_record, to_move,
    Change, Rebind, STAND_IN_LEVEL,
};
use crate::round::{
    now_ms, random_id, random_token, Caller, ChatLine, Command, Finisher, GameEnded, Meta, Reply,
    Room, Round, RoundError, RoundHandle, Rounds, Seat, SeatKind,
};
use crate::store::{
    Doc, GameHead, Note, SeatRow, Status, Store, StoreError, StoredAction, StoredGame, Write,
};
use crate::user::limits::Limits;
use crate::user::revoke::{Revoked, Watch};
use crate::user::session::Visitor;
use rand::Rng;
use std::sync::Arc;
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_core::{AnyGame, EndReason, Player, Record, Registry, Replayed};
use tokio::sync::{broadcast, oneshot};

/// How many games `GET /api/games` lists.
pub const LIST_LIMIT: usize = 100;

/// How the games are run.
#[derive(Clone, Debug)]
pub struct RoundConfig {
    /// Pause before each AI action, so people can follow the AI's moves.
    pub ai_pause: Duration,
    /// A game nobody has used or watched for this long leaves memory (it
    /// is read back from the store when someone opens it).
    pub idle: Duration,
    /// How long an instance's claim on a game's AI turn lasts: another
    /// instance takes over a turn whose claim ran out (its instance died).
    pub ai_claim: Duration,
    /// How often to look for AI turns nobody drives.
    pub ai_sweep: Duration,
    /// Limits, quotas, AI workers, origins (`guard`).
    pub guard: crate::guard::GuardConfig,
    /// Rate each rated game as it ends here. Off, only the catch-up sweep
    /// rates games (as after a crash between a game's end and its rating).
    pub rate_on_finish: bool,
    /// How often to look for ended rated games not rated yet, and how long
    /// after its last write such a game is left to the live path.
    pub rating_sweep: Duration,
    pub rating_grace: Duration,
}

impl Default for RoundConfig {
    fn default() -> Self {
        RoundConfig {
            ai_pause: Duration::from_millis(300),
            idle: Duration::from_secs(60),
            ai_claim: Duration::from_secs(30),
            ai_sweep: Duration::from_secs(5),
            guard: Default::default(),
            rate_on_finish: true,
            rating_sweep: Duration::from_secs(10),
            rating_grace: Duration::from_secs(10),
        }
    }
}

pub struct App {
    pub registry: Registry,
    pub(crate) store: Store,
    pub(crate) rounds: Rounds,
    /// Where every game's end is announced.
    pub finisher: Finisher,
    pub(crate) config: RoundConfig,
    /// Turns true when the server shuts down: live channels close.
    closing: tokio::sync::watch::Sender<bool>,
    /// This instance's name in AI claims.
    instance: String,
    /// AI moves this instance has started computing.
    ai_jobs: std::sync::atomic::AtomicU64,
    /// The threads that think for AI seats and hints.
    pub(crate) ai: crate::ai::AiPool,
    /// Rate limits of sign-in, chat, seeks.
    pub(crate) limits: Limits,
    /// The threads that hash and check passwords.
    pub(crate) hasher: crate::user::hasher::Hasher,
    /// Live channels open per client address.
    pub(crate) sockets: Arc<crate::guard::SocketCounts>,
    /// Rings when a token, an account's sessions or an account end: the
    /// streams opened with them close (`user::revoke`).
    revoked: broadcast::Sender<Revoked>,
    /// Rings when the open seeks may have changed (here or, through the
    /// store's notes, on another instance).
    pub(crate) lobby: broadcast::Sender<()>,
    /// Added to the system time (tests move time forward).
    clock_offset: std::sync::atomic::AtomicI64,
}

impl App {
    /// Open (or create, or upgrade) the database at `db` (a SQLite file or
    /// a `postgres://` URL). Games stay in the store until someone opens
    /// them.
    pub async fn open(
        registry: Registry,
        db: &str,
        config: RoundConfig,
    ) -> Result<Arc<App>, String> {
        let store = Store::open(db).await?;
        let ai_workers = config.guard.ai_workers;
        let hasher =
            crate::user::hasher::Hasher::new(config.guard.hash_workers, config.guard.hash_queue);
        let app = Arc::new(App {
            registry,
            store,
            rounds: Rounds::default(),
            finisher: Finisher::default(),
            config,
            closing: tokio::sync::watch::channel(false).0,
            instance: random_id(),
            ai_jobs: Default::default(),
            ai: crate::ai::AiPool::new(ai_workers),
            limits: Limits::default(),
            hasher,
            sockets: Default::default(),
            revoked: broadcast::channel(256).0,
            lobby: broadcast::channel(16).0,
            clock_offset: Default::default(),
        });
        app.fill_in_status().await?;
        if let Some(notes) = app.store.listen().await? {
            tokio::spawn(follow_other_instances(Arc::downgrade(&app), notes));
        }
        tokio::spawn(sweep_ai_turns(Arc::downgrade(&app)));
        tokio::spawn(crate::lobby::service::sweep(Arc::downgrade(&app)));
        tokio::spawn(sweep_due_games(Arc::downgrade(&app)));
        tokio::spawn(crate::rating::service::follow(Arc::downgrade(&app)));
        tokio::spawn(crate::guard::forget_finished(Arc::downgrade(&app)));
        tokio::spawn(crate::guard::expire(Arc::downgrade(&app)));
        tokio::spawn(crate::tournament::service::scheduler(Arc::downgrade(&app)));
        Ok(app)
    }

    /// End every stream opened with what `r` revokes, on every instance.
    pub(crate) async fn revoke(&self, r: Revoked) {
        let note = Note::Revoked(r.to_note());
        let _ = self.revoked.send(r);
        if let Err(e) = self.store.notify(&note).await {
            tracing::error!("telling the other instances of a revocation: {e}");
        }
    }

    /// A watch that fires when the credentials of `visitor` are revoked.
    pub(crate) fn revocation(&self, visitor: &Visitor) -> Watch {
        Watch::new(self.revoked.subscribe(), visitor)
    }

    /// Games written by an older version have no stored status yet: replay
    /// each once to fill it in.
    async fn fill_in_status(&self) -> Result<(), String> {
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

    /// Claim and wake every game whose AI seat is to move and that no
    /// instance drives (after a restart, or when an instance died); how
    /// many.
    pub async fn resume_ai(self: &Arc<Self>) -> Result<usize, String> {
        const BATCH: usize = 100;
        let mut n = 0;
        loop {
            let (now, until) = self.claim_window();
            let ids = self
                .store
                .claim_orphans(&self.instance, now, until, BATCH)
                .await
                .map_err(|e| e.to_string())?;
            n += ids.len();
            for id in &ids {
                match self.handle(id).await {
                    Ok(h) => {
                        let _ = h.tx.try_send(Msg::Wake);
                    }
                    Err(e) => tracing::error!(game = %id, "not resumed: {e}"),
                }
            }
            if ids.len() < BATCH {
                return Ok(n);
            }
        }
    }

    /// The server's time (ms since 1970): the clocks' time.
    pub fn now(&self) -> i64 {
        now_ms() + self.clock_offset.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Move the server's time forward by `ms` (tests of clocks, without
    /// sleeping).
    pub fn advance_clock(&self, ms: i64) {
        self.clock_offset
            .fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }

    /// Wake the owners of games whose time is up (a flag, a first move),
    /// loading them if needed; how many.
    pub async fn wake_due_games(self: &Arc<Self>) -> Result<usize, String> {
        let ids = self
            .store
            .ids_due(self.now(), 200)
            .await
            .map_err(|e| e.to_string())?;
        for id in &ids {
            match self.handle(id).await {
                Ok(h) => {
                    let _ = h.tx.try_send(Msg::Wake);
                }
                Err(e) => tracing::error!(game = %id, "not woken: {e}"),
            }
        }
        Ok(ids.len())
    }

    /// Now and the end of a claim made now (ms since 1970).
    fn claim_window(&self) -> (i64, i64) {
        let now = now_ms();
        (now, now + self.config.ai_claim.as_millis() as i64)
    }

    /// Claim game `id`'s AI turn at row `version` for this instance: false
    /// while another instance drives it, or once the game has moved on.
    pub(crate) async fn claim_ai(&self, id: &str, version: u64) -> bool {
        let (now, until) = self.claim_window();
        match self
            .store
            .claim_ai(id, version, &self.instance, now, until)
            .await
        {
            Ok(claimed) => claimed,
            Err(e) => {
                tracing::warn!(game = %id, "AI claim failed: {e}");
                false
            }
        }
    }

    /// Count an AI move started here (for tests and metrics).
    pub(crate) fn ai_job_started(&self) {
        self.ai_jobs
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// AI moves this instance has started computing.
    pub fn ai_jobs(&self) -> u64 {
        self.ai_jobs.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Close every live channel (the server is stopping).
    pub fn close_channels(&self) {
        self.closing.send_replace(true);
    }

    /// Turns true when the live channels must close.
    pub(crate) fn closing(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }

    /// How many games the store holds (reads the database).
    pub async fn stored_games(&self) -> Result<u64, StoreError> {
        self.store.count().await
    }

    /// Why the database's writes fail, if they do (after trying one).
    pub async fn failing_writes(&self) -> Option<String> {
        self.store.probe_writes(self.now()).await;
        self.store.failing()
    }

    /// `sqlite` or `postgres`.
    pub fn store_engine(&self) -> &'static str {
        self.store.engine()
    }

    /// How many games are in memory now.
    pub fn live_games(&self) -> usize {
        self.rounds.len()
    }

    /// The owner of game `id`, loading the game from the store if needed.
    pub(crate) async fn handle(self: &Arc<Self>, id: &str) -> Result<RoundHandle, RoundError> {
        if let Some(h) = self.rounds.get(id) {
            if !h.tx.is_closed() {
                return Ok(h);
            }
            self.rounds.forget_closed(id);
        }
        let round = self.load(id).await?;
        Ok(actor::start(self, round))
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
        let lines = self
            .store
            .doc_list("chat", Some(id), 0, crate::round::state::CHAT_KEPT)
            .await
            .map_err(store_error)?;
        round.chat = lines
            .iter()
            .filter_map(|d| serde_json::from_str(&d.body).ok())
            .collect();
        Ok(round)
    }

    /// Send game `id`'s owner a message built around a reply channel, and
    /// await the reply. An owner that has just retired is replaced.
    pub(crate) async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(oneshot::Sender<T>) -> Msg,
    ) -> Result<T, RoundError> {
        for _ in 0..3 {
            let h = self.handle(id).await?;
            let (tx, rx) = oneshot::channel();
            if h.tx.send(make(tx)).await.is_err() {
                self.rounds.forget_closed(id);
                continue;
            }
            return rx
                .await
                .map_err(|_| RoundError::Internal("the game's task stopped".into()));
        }
        Err(RoundError::Internal(format!(
            "game `{id}` cannot be reached"
        )))
    }

    /// Carry out a seat holder's command.
    pub async fn command(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
        command: Command,
    ) -> Result<Reply, RoundError> {
        // The command is cloned only if the owner retired under us.
        self.ask(id, |reply| Msg::Command {
            caller: caller.clone(),
            command: command.clone(),
            reply,
        })
        .await?
    }

    /// The game from ply `from` on (`0`: everything).
    pub async fn view(self: &Arc<Self>, id: &str, from: usize) -> Result<GameView, RoundError> {
        self.ask(id, |reply| Msg::View { from, reply }).await
    }

    /// The whole game as `caller` sees it (their seats, the chat they may
    /// read).
    pub async fn view_for(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
    ) -> Result<GameView, RoundError> {
        self.ask(id, |reply| Msg::ViewFor {
            caller: caller.clone(),
            reply,
        })
        .await
    }

    /// The snapshot for `caller` and every later update of game `id`.
    pub async fn watch(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
    ) -> Result<(GameView, broadcast::Receiver<actor::Published>), RoundError> {
        self.ask(id, |reply| Msg::Watch {
            caller: caller.clone(),
            reply,
        })
        .await
    }

    /// Post a chat line of `caller` in `room`.
    pub async fn chat(
        self: &Arc<Self>,
        id: &str,
        caller: &Caller,
        room: Room,
        text: &str,
    ) -> Result<(), RoundError> {
        self.ask(id, |reply| Msg::Chat {
            caller: caller.clone(),
            room,
            text: text.to_string(),
            reply,
        })
        .await?
    }

    /// Show `name` on the seats of `owners` in game `id` and rebind them.
    pub async fn rename(
        self: &Arc<Self>,
        id: &str,
        owners: &[String],
        name: &str,
        rebind: &Rebind,
    ) -> Result<(), RoundError> {
        self.ask(id, |reply| Msg::Rename {
            owners: owners.to_vec(),
            name: name.to_string(),
            rebind: rebind.clone(),
            reply,
        })
        .await?
    }

    /// Show game `id`'s rating changes (it was rated).
    pub async fn rated(
        self: &Arc<Self>,
        id: &str,
        diffs: Vec<Option<i32>>,
    ) -> Result<(), RoundError> {
        self.ask(id, |reply| Msg::Rated {
            diffs: diffs.clone(),
            reply,
        })
        .await?
    }

    /// Make the next `n` writes to the store fail as a database fault
    /// would (fault tests of what players see meanwhile).
    #[doc(hidden)]
    pub fn inject_store_faults(&self, n: usize) {
        self.store.inject_faults(n);
    }

    /// How game `id` ended, if it has.
    pub(crate) async fn ended(self: &Arc<Self>, id: &str) -> Result<Option<GameEnded>, RoundError> {
        self.ask(id, |reply| Msg::Ended { reply }).await
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
        let _ = self.store.notify(&Note::Game(id.to_string(), 0)).await;
        Ok(())
    }

    /// The game as a record file: (file name, text).
    pub async fn record(self: &Arc<Self>, id: &str) -> Result<(String, String), RoundError> {
        self.ask(id, |reply| Msg::Record { reply }).await
    }

    /// Recent games, newest first, read from the store (no game is loaded).
    pub async fn list(&self) -> Result<Vec<Summary>, RoundError> {
        let heads = self.store.recent(LIST_LIMIT).await.map_err(store_error)?;
        Ok(heads.iter().filter_map(|h| self.summary(h)).collect())
    }

    pub(crate) fn summary(&self, head: &GameHead) -> Option<Summary> {
        let meta: Meta = serde_json::from_str(&head.meta).ok()?;
        let game = self.registry.create(&head.spec, None).ok()?;
        let title = self.registry.entry(game.name()).ok()?.title;
        let players = players_and_leavers(&meta, |i| game.player_name(Player(i)));
        Some(Summary {
            id: head.id.clone(),
            game: game.name().to_string(),
            title: title.to_string(),
            spec: head.spec.clone(),
            created: head.created,
            ply: head.plies,
            over: head.result.is_some(),
            players,
            result: head.result.clone(),
            // The stored result is the board's unless the meta says otherwise.
            reason: head
                .result
                .as_ref()
                .map(|_| meta.end.map_or(EndReason::Board, |e| e.reason)),
            left: meta.left,
            imported: meta.imported,
        })
    }

    /// The registry's games with what the UI needs to offer them.
    pub fn catalog(&self) -> Catalog {
        let games = self
            .registry
            .entries()
            .iter()
            .filter_map(|e| {
                let g = self.registry.create(e.name, None).ok()?;
                Some(CatalogGame {
                    name: e.name.to_string(),
                    title: e.title.to_string(),
                    description: e.description.to_string(),
                    players: g.num_players(),
                    sides: (0..g.num_players())
                        .map(|i| g.player_name(Player(i as u8)).to_string())
                        .collect(),
                    options: e
                        .options
                        .iter()
                        .map(|o| CatalogOption {
                            key: o.key.to_string(),
                            values: o.values_text(),
                            default: o.default.to_string(),
                            help: o.help.to_string(),
                            kind: o.kind.into(),
                        })
                        .collect(),
                    start: g.position(),
                    game_type: g.game_type(),
                })
            })
            .collect();
        Catalog {
            games,
            levels: AiLevel::ALL.to_vec(),
        }
    }

    /// The seats asked for, bound to `visitor` (the creator) unless they
    /// are invites; with each human seat's token.
    fn seats_for(
        &self,
        game: &dyn AnyGame,
        asked: &[SeatRequest],
        visitor: &Visitor,
    ) -> Result<(Vec<Seat>, Vec<SeatToken>), RoundError> {
        let n = game.num_players();
        if !asked.is_empty() && asked.len() != n {
            return Err(RoundError::BadRequest(format!(
                "{} has {n} seats, {} given",
                game.name(),
                asked.len()
            )));
        }
        let mut seats = Vec::with_capacity(n);
        let mut tokens = Vec::new();
        for i in 0..n {
            let req = asked.get(i);
            let kind = req.map_or(SeatKind::Human, |r| r.kind);
            let invite = req.is_some_and(|r| r.invite);
            let level = match kind {
                SeatKind::Ai => Some(req.and_then(|r| r.level).unwrap_or(STAND_IN_LEVEL)),
                SeatKind::Human => None,
            };
            let mine = kind == SeatKind::Human && !invite;
            let name = req
                .and_then(|r| r.name.as_deref())
                .map(clean_name)
                .filter(|n| !n.is_empty())
                .or_else(|| visitor.name().filter(|_| mine))
                .unwrap_or_default();
            let token = random_token();
            if kind == SeatKind::Human {
                tokens.push(SeatToken {
                    seat: i as u8,
                    token: token.clone(),
                });
            }
            seats.push(Seat {
                joined: !invite,
                kind,
                level,
                token_hash: hash_token(&token),
                name,
                owner: visitor.ids().first().cloned().filter(|_| mine),
                bot: mine && crate::bot::is_bot(visitor),
                ..Seat::default()
            });
        }
        Ok((seats, tokens))
    }

    pub(crate) fn new_round(
        &self,
        start_game: Box<dyn AnyGame>,
        start: Option<String>,
        seed: u64,
        seats: Vec<Seat>,
    ) -> Result<Round, RoundError> {
        let title = self.registry.entry(start_game.name())?.title;
        Ok(Round::new(
            random_id(),
            self.now(),
            title,
            start_game,
            start,
            seed,
            Meta {
                seats,
                ..Meta::default()
            },
        ))
    }

    /// Create a game for `visitor`; the opening chance actions (if any) are
    /// rolled at once.
    pub async fn create(
        self: &Arc<Self>,
        req: NewGame,
        visitor: &Visitor,
    ) -> Result<Created, RoundError> {
        let game = self.registry.create(&req.spec, req.position.as_deref())?;
        let (seats, tokens) = self.seats_for(game.as_ref(), &req.seats, visitor)?;
        let seed = req.seed.unwrap_or_else(|| rand::thread_rng().gen());
        let mut round = self.new_round(game, req.position, seed, seats)?;
        if req.rated {
            return Err(RoundError::BadRequest(
                "rated games start from the lobby (POST /api/seeks with \"rated\": true)".into(),
            ));
        }
        round.meta.hints = req.hints;
        round.roll_dice();
        if let Some(control) = req.clock {
            round.now = self.now();
            round.start_clocks(control);
        }
        self.insert(round, tokens).await
    }

    /// Continue a game from a record file, with new seats.
    pub async fn import(
        self: &Arc<Self>,
        req: ImportGame,
        visitor: &Visitor,
    ) -> Result<Created, RoundError> {
        let rec = Record::parse(&req.record)?;
        // The declared result must be the replay's (or an ending off the
        // board that agrees with it).
        let Replayed { game, ending } = rec.replay_checked(&self.registry, |_, _| {})?;
        let start = self.registry.create(&rec.game, rec.start.as_deref())?;
        let (seats, tokens) = self.seats_for(game.as_ref(), &req.seats, visitor)?;
        // The dice ahead follow from the seed: a bad one is refused, never
        // replaced (another seed would play another game).
        let seed = match rec.meta("seed") {
            None => rand::thread_rng().gen(),
            Some(s) => s.trim().parse().map_err(|_| {
                RoundError::BadRequest(format!(
                    "the record's seed `{s}` is not a whole number from 0 to {}",
                    u64::MAX
                ))
            })?,
        };
        let mut round = self.new_round(start, rec.start.clone(), seed, seats)?;
        round.meta.imported = true;
        let actions = rec
            .actions
            .iter()
            .map(|a| (a.actor.map(|p| p.0), a.text.as_str()));
        round.replay(actions).map_err(RoundError::BadRequest)?;
        match ending.filter(|e| e.reason != EndReason::Board) {
            Some(end) if proved_by_record(end.reason) => {
                let change = round.finish(end.outcome, end.reason);
                round.apply(change);
            }
            claim => round.meta.claim = claim,
        }
        round.roll_dice();
        self.insert(round, tokens).await
    }

    /// Store a new game and start its owner; `tokens` are the human seats'
    /// tokens, given once.
    pub(crate) async fn insert(
        self: &Arc<Self>,
        round: Round,
        tokens: Vec<SeatToken>,
    ) -> Result<Created, RoundError> {
        self.store_new(&round).await?;
        let created = Created {
            id: round.id.clone(),
            tokens,
        };
        actor::start(self, round);
        Ok(created)
    }

    /// Store a new game without opening it (nobody plays it before it is
    /// opened: see [`App::open_round`]).
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

    /// Give a stored game its owner task (its clocks, its watchers).
    pub(crate) fn open_round(self: &Arc<Self>, round: Round) {
        actor::start(self, round);
    }

    /// Remove a game stored by [`App::store_new`] that never opened (its
    /// seek was taken by someone else meanwhile).
    pub(crate) async fn discard_new(&self, id: &str) {
        if let Err(e) = self.store.delete_game(id).await {
            tracing::error!(game = id, "removing a game whose seek was taken: {e}");
        }
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

fn stored_action(e: &crate::round::Entry) -> StoredAction {
    StoredAction {
        actor: e.actor,
        text: e.text.clone(),
    }
}

/// Tell the owners of live games about writes by other instances, and
/// the lobby about their seeks, until the app is gone.
async fn follow_other_instances(
    app: std::sync::Weak<App>,
    mut notes: tokio::sync::mpsc::Receiver<Note>,
) {
    while let Some(note) = notes.recv().await {
        let Some(app) = app.upgrade() else { return };
        let (targets, version) = match note {
            Note::Game(id, version) => (app.rounds.get(&id).into_iter().collect(), version),
            Note::Lobby => {
                let _ = app.lobby.send(());
                continue;
            }
            Note::Revoked(text) => {
                if let Some(r) = Revoked::from_note(&text) {
                    let _ = app.revoked.send(r);
                }
                continue;
            }
            // Notes may have been missed: every live game checks.
            Note::Missed => {
                let _ = app.lobby.send(());
                (app.rounds.all(), 0)
            }
        };
        for h in targets {
            // A full inbox is busy anyway: it will see the store at its next write.
            let _ = h.tx.try_send(Msg::Stored { version });
        }
    }
}

/// Every second, end the games whose time is up, even when nobody watches
/// them (every instance looks; the store's row versions let one win).
async fn sweep_due_games(app: std::sync::Weak<App>) {
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let Some(app) = app.upgrade() else { return };
        if let Err(e) = app.wake_due_games().await {
            tracing::warn!("clock sweep: {e}");
        }
    }
}

/// Every `ai_sweep`, take over the AI turns nobody drives, until the app
/// is gone.
async fn sweep_ai_turns(app: std::sync::Weak<App>) {
    loop {
        let Some(period) = app.upgrade().map(|a| a.config.ai_sweep) else {
            return;
        };
        tokio::time::sleep(period).await;
        let Some(app) = app.upgrade() else { return };
        if let Err(e) = app.resume_ai().await {
            tracing::warn!("AI sweep: {e}");
        }
    }
}

/// A store failure as the caller sees it.
pub(crate) fn store_error(e: StoreError) -> RoundError {
    match e {
        StoreError::Conflict => RoundError::Busy,
        StoreError::Missing => RoundError::Internal("the game is missing from the database".into()),
        StoreError::Failed(_) => RoundError::Unavailable,
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
            _ if meta.left.contains(&seat) => "loss",
            tabula_core::Outcome::Win(p) if p.0 == seat => "win",
            tabula_core::Outcome::Draw(set) if set.contains(Player(seat)) => "draw",
            _ => "loss",
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
        ai_turn: ai_to_move(game, meta).is_some() && crate::guard::has_human_seat(&meta.seats),
        to_move,
        players,
        deadline: crate::round::clock::deadline_of(game, meta),
        rating_due: ending.is_some_and(|e| e.reason != EndReason::Aborted)
            && meta.rated
            && meta.rating_diff.is_empty(),
    }
}
