//! The door of the `round` module (lila's `RoundApi` and `GameProxy`):
//! create and import games, send a live game's owner its commands, load
//! games on demand, and drive the AI turns and clocks that nobody watches.
//! Other modules reach games only through [`Rounds`].

use super::actor::{self, Msg, Published};
use super::live::Live;
use super::state::{clean_name, hash_token, players_and_leavers, proved_by_record, STAND_IN_LEVEL};
use super::{
    Caller, Command, Finisher, GameEnded, Meta, Rebind, Reply, Room, Round, RoundError,
    RoundHandle, Seat, SeatKind,
};
use crate::ai::AiPool;
use crate::common::{random_id, random_token, Clock, PlayerId, RoundConfig};
use crate::protocol::{
    Catalog, CatalogGame, CatalogOption, Created, GameView, ImportGame, NewGame, SeatRequest,
    SeatToken, Summary,
};
use crate::store::{GameHead, Store, StoreError};
use rand::Rng;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tabula_ai::AiLevel;
use tabula_core::{AnyGame, EndReason, Player, Record, Registry, Replayed};
use tokio::sync::{broadcast, oneshot, watch};

/// How many games `GET /api/games` lists.
pub const LIST_LIMIT: usize = 100;

/// Who creates a game: the seats they ask for are theirs, unless invites.
#[derive(Clone, Debug, Default)]
pub struct Creator {
    /// Their first identity, if any.
    pub id: Option<crate::common::PlayerId>,
    /// Their account's name, if signed in.
    pub name: Option<String>,
    /// A bot account (bots are rated among bots).
    pub bot: bool,
}

/// The games: the live ones by id, the store they are kept in, the AI pool
/// that plays their AI seats, and where their ends are announced.
pub struct Rounds {
    pub registry: Registry,
    pub(crate) store: Store,
    live: Live,
    /// Where every game's end is announced.
    pub finisher: Finisher,
    pub(crate) config: RoundConfig,
    /// The server's one clock.
    pub(crate) clock: Arc<Clock>,
    /// Turns true when the server shuts down: live channels close.
    pub(crate) closing: watch::Sender<bool>,
    /// This instance's name in AI claims.
    pub(crate) instance: String,
    /// AI moves this instance has started computing.
    ai_jobs: AtomicU64,
    /// AI turns claimed here and not yet stored or given up.
    ai_thinking: AtomicUsize,
    /// The threads that think for AI seats and hints.
    pub(crate) ai: AiPool,
    /// Rung when an instance without AI asks for a hint (`round/hints.rs`).
    pub(crate) hints_wanted: tokio::sync::Notify,
}

impl Rounds {
    /// The games kept in `store`, with no game loaded yet (see
    /// [`Rounds::start`]).
    pub fn new(registry: Registry, store: Store, config: RoundConfig, clock: Arc<Clock>) -> Self {
        // Without AI (`--ai-workers 0`) one thread is kept for the learning
        // pages' engine checks; no AI move or hint is queued on it.
        let ai = AiPool::new(config.guard.ai_workers);
        Rounds {
            registry,
            store,
            live: Live::default(),
            finisher: Finisher::default(),
            config,
            clock,
            closing: watch::channel(false).0,
            instance: random_id(),
            ai_jobs: AtomicU64::new(0),
            ai_thinking: AtomicUsize::new(0),
            hints_wanted: tokio::sync::Notify::new(),
            ai,
        }
    }

    /// Bring older stored games up to date, then run the sweeps that drive
    /// games nobody watches (AI turns, clocks, expiry) until `self` is gone.
    pub async fn start(self: &Arc<Self>) -> Result<(), String> {
        self.fill_in_status().await?;
        // Only PostgreSQL is shared with instances that compute no AI.
        if self.computes_ai() && self.store_engine() == "postgres" {
            self.serve_hints();
        }
        spawn_sweep(
            self,
            |r| r.config.ai_sweep,
            "AI sweep",
            |r| async move {
                if r.computes_ai() {
                    r.resume_ai().await.map(|_| ())
                } else {
                    r.announce_ai_turns();
                    Ok(())
                }
            },
        );
        spawn_sweep(
            self,
            |r| r.config.clock_sweep,
            "clock sweep",
            |r| async move { r.wake_due_games().await.map(|_| ()) },
        );
        spawn_sweep(
            self,
            |r| r.config.guard.expiry_sweep,
            "expiry sweep",
            |r| async move {
                match r.expire_games().await {
                    Ok(0) => Ok(()),
                    Ok(n) => {
                        tracing::info!("{n} abandoned games ended");
                        Ok(())
                    }
                    Err(e) => Err(e.to_string()),
                }
            },
        );
        Ok(())
    }

    /// The live games' addresses (for their owners).
    pub(crate) fn live(&self) -> &Live {
        &self.live
    }

    /// The server's time (ms since 1970): the clocks' time.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Tell the owner of game `id`, if it is live here, that another
    /// instance stored row `version`, changing its actions from ply `from`
    /// on (`None` for both: every live game looks at the store).
    pub(crate) fn stored_elsewhere(&self, id: Option<&str>, version: u64, from: Option<usize>) {
        let targets = match id {
            Some(id) => self.live.get(id).into_iter().collect(),
            None => self.live.all(),
        };
        for h in targets {
            // A full inbox is busy anyway: the next note finds a gap and
            // the owner reads the whole game.
            let _ = h.tx.try_send(Msg::Stored { version, from });
        }
    }

    /// Tell the owner of game `id`, if it is live here, that another
    /// instance stored a chat line.
    pub(crate) fn chatted_elsewhere(&self, id: &str) {
        if let Some(h) = self.live.get(id) {
            // Not dropped when the inbox is full: no later note would bring
            // the line (chat is rate-limited, so these are few).
            tokio::spawn(async move { h.tx.send(Msg::Chatted).await });
        }
    }

    /// End game `id` now (a draw for all, reason `abandoned`).
    pub async fn stop(self: &Arc<Self>, id: &str) -> Result<(), RoundError> {
        self.ask(id, |reply| Msg::Stop { reply }).await?
    }

    /// End the unfinished games nobody wrote to for `expiry`; how many.
    pub async fn expire_games(self: &Arc<Self>) -> Result<usize, RoundError> {
        const BATCH: usize = 100;
        let before = self.now() - self.config.guard.expiry.as_millis() as i64;
        let mut ended = 0;
        loop {
            let ids = self
                .store
                .stale_games(before, BATCH)
                .await
                .map_err(store_error)?;
            let mut progress = false;
            for id in &ids {
                match self.stop(id).await {
                    Ok(()) => {
                        ended += 1;
                        progress = true;
                    }
                    Err(e) => tracing::warn!(game = %id, "not expired: {e}"),
                }
            }
            if ids.len() < BATCH || !progress {
                return Ok(ended);
            }
        }
    }

    /// Whether this instance thinks for AI seats and hints; one started
    /// with `--ai-workers 0` leaves every AI turn to the instances that do
    /// (`tabula worker`), announcing each with a [`Note::AiTurn`].
    ///
    /// [`Note::AiTurn`]: crate::store::Note::AiTurn
    pub fn computes_ai(&self) -> bool {
        self.config.guard.ai_workers > 0
    }

    /// Tell the instances that compute AI that game `id` at row `version`
    /// has an AI seat to move.
    pub(crate) async fn announce_ai_turn(&self, id: &str, version: u64) {
        let note = crate::store::Note::AiTurn(id.to_string(), version);
        if let Err(e) = self.store.notify(&note).await {
            tracing::warn!(game = %id, "AI turn not announced: {e}");
        }
    }

    /// Announce again the AI turns of the games live here (a worker may
    /// have missed the note, or died while thinking: its claim runs out and
    /// another takes the turn).
    fn announce_ai_turns(&self) {
        for h in self.live.all() {
            let _ = h.tx.try_send(Msg::Wake);
        }
    }

    /// Another instance, which computes no AI, left game `id`'s turn at
    /// row `version` to us: claim it and think, unless another instance
    /// has claimed it (only the claimant loads the game).
    pub(crate) fn ai_turn_elsewhere(self: &Arc<Self>, id: &str, version: u64) {
        if !self.computes_ai() || *self.closing.borrow() {
            return;
        }
        if let Some(h) = self.live.get(id) {
            if h.tx.try_send(Msg::AiWanted { version }).is_ok() {
                return;
            }
        }
        let rounds = Arc::clone(self);
        let id = id.to_string();
        tokio::spawn(async move {
            if !rounds.claim_ai(&id, version).await {
                return;
            }
            match rounds.handle(&id).await {
                Ok(h) => {
                    let _ = h.tx.send(Msg::AiWanted { version }).await;
                }
                Err(e) => tracing::error!(game = %id, "AI turn not taken: {e}"),
            }
        });
    }

    /// Claim and wake every game whose AI seat is to move and that no
    /// instance drives (after a restart, or when an instance died); how
    /// many. An instance that computes no AI claims none.
    pub async fn resume_ai(self: &Arc<Self>) -> Result<usize, String> {
        const BATCH: usize = 100;
        if !self.computes_ai() || *self.closing.borrow() {
            return Ok(0);
        }
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
        let now = self.now();
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
        self.ai_jobs.fetch_add(1, Ordering::Relaxed);
    }

    /// AI moves this instance has started computing.
    pub fn ai_jobs(&self) -> u64 {
        self.ai_jobs.load(Ordering::Relaxed)
    }

    /// An AI turn claimed here starts (`true`) or is over (stored, given
    /// up, or voided).
    pub(crate) fn ai_turn_held(&self, held: bool) {
        if held {
            self.ai_thinking.fetch_add(1, Ordering::Relaxed);
        } else {
            self.ai_thinking.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// AI turns this instance holds now (claimed, not yet stored).
    pub fn ai_turns_held(&self) -> usize {
        self.ai_thinking.load(Ordering::Relaxed)
    }

    /// Whether the instance is stopping (no new AI turn is claimed).
    pub(crate) fn is_closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Close every live channel (the server is stopping).
    pub fn close_channels(&self) {
        self.closing.send_replace(true);
    }

    /// Turns true when the live channels must close.
    pub(crate) fn closing(&self) -> watch::Receiver<bool> {
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
        self.live.len()
    }

    /// The owner of game `id`, loading the game from the store if needed.
    pub(crate) async fn handle(self: &Arc<Self>, id: &str) -> Result<RoundHandle, RoundError> {
        if let Some(h) = self.live.get(id) {
            if !h.tx.is_closed() {
                return Ok(h);
            }
            self.live.forget_closed(id);
        }
        let round = self.load(id).await?;
        let loaded = round.stored;
        let h = actor::start(self, round);
        // A note of another instance's write that came while the game was
        // loading went to nobody: look once more (the owner reloads only
        // if the row moved on; a worker's AI move right after a game is
        // created or opened would otherwise stay unseen here).
        if let Ok(Some(version)) = self.store.version_elsewhere(id).await {
            if version > loaded {
                let _ = h.tx.try_send(Msg::Stored {
                    version,
                    from: None,
                });
            }
        }
        Ok(h)
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
                self.live.forget_closed(id);
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
    ) -> Result<(GameView, broadcast::Receiver<Published>), RoundError> {
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
        owners: &[PlayerId],
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

    /// The seats asked for, bound to their creator unless they
    /// are invites; with each human seat's token.
    fn seats_for(
        &self,
        game: &dyn AnyGame,
        asked: &[SeatRequest],
        creator: &Creator,
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
                .or_else(|| creator.name.clone().filter(|_| mine))
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
                owner: creator.id.clone().filter(|_| mine),
                bot: mine && creator.bot,
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

    /// Create a game for `creator`; the opening chance actions (if any) are
    /// rolled at once.
    pub async fn create(
        self: &Arc<Self>,
        req: NewGame,
        creator: &Creator,
    ) -> Result<Created, RoundError> {
        let game = self.registry.create(&req.spec, req.position.as_deref())?;
        let (seats, tokens) = self.seats_for(game.as_ref(), &req.seats, creator)?;
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
        creator: &Creator,
    ) -> Result<Created, RoundError> {
        let rec = Record::parse(&req.record)?;
        // The declared result must be the replay's (or an ending off the
        // board that agrees with it).
        let Replayed { game, ending } = rec.replay_checked(&self.registry, |_, _| {})?;
        let start = self.registry.create(&rec.game, rec.start.as_deref())?;
        let (seats, tokens) = self.seats_for(game.as_ref(), &req.seats, creator)?;
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

    /// Give a stored game its owner task (its clocks, its watchers).
    pub(crate) fn open_round(self: &Arc<Self>, round: Round) {
        actor::start(self, round);
    }

    /// Remove a game stored by [`Rounds::store_new`] that never opened (its
    /// seek was taken by someone else meanwhile).
    pub(crate) async fn discard_new(&self, id: &str) {
        if let Err(e) = self.store.delete_game(id).await {
            tracing::error!(game = id, "removing a game whose seek was taken: {e}");
        }
    }
}

/// Every `period(rounds)`, run `job` on the rounds until they are gone;
/// a failure is logged as `what`.
fn spawn_sweep<F, Fut>(
    rounds: &Arc<Rounds>,
    period: fn(&Rounds) -> Duration,
    what: &'static str,
    job: F,
) where
    F: Fn(Arc<Rounds>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<(), String>> + Send,
{
    let weak = Arc::downgrade(rounds);
    tokio::spawn(async move {
        loop {
            let Some(pause) = weak.upgrade().map(|r| period(&r)) else {
                return;
            };
            tokio::time::sleep(pause).await;
            let Some(rounds) = weak.upgrade() else { return };
            if let Err(e) = job(rounds).await {
                tracing::warn!("{what}: {e}");
            }
        }
    });
}

/// A store failure as the caller sees it.
pub(crate) fn store_error(e: StoreError) -> RoundError {
    match e {
        StoreError::Conflict => RoundError::Busy,
        StoreError::Missing => RoundError::Internal("the game is missing from the database".into()),
        StoreError::Failed(_) => RoundError::Unavailable,
    }
}
