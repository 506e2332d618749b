//! Tournaments on the store: create, list, show, join, withdraw, and the
//! scheduler that moves them on. A tournament is one document; every change
//! is a compare-and-set on its version, so when several instances tick the
//! same tournament exactly one of them pairs a round and starts its games.
//! A second document (`tournament_live`, same id) marks the tournaments not
//! finished yet, so the scheduler never reads the finished ones.

use super::{NewGame, SeatOf, Tournament, TournamentError, KIND, MAX_MINUTES, MAX_ROUNDS};
use crate::common::limits::Limits;
use crate::common::{random_id, PlayerId};
use crate::protocol::{
    NewTournament, StartTime, TournamentFormat, TournamentId, TournamentList, TournamentStatus,
    TournamentView,
};
use crate::rating::Ratings;
use crate::round::{RoundError, Rounds, Seat, SeatKind};
use crate::store::{update_json, ChangeError, Doc, StoreError};
use crate::user::session::Visitor;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use tabula_ai::AiLevel;
use tabula_clock::TimeControl;

/// The marker of a tournament not finished yet.
const LIVE: &str = "tournament_live";
/// How many tournaments are read at most (live ones; finished ones listed).
const LIST_LIMIT: usize = 1000;
/// Finished tournaments listed by `GET /api/tournaments`.
const FINISHED_LISTED: usize = 50;
/// Longest name.
const MAX_NAME: usize = 80;
/// How often the scheduler also reads the stored results of the games it
/// has no result for (in case an announcement was missed).
const RESULT_CHECK_EVERY: u32 = 10;
/// A published game not in the store after this long is created again
/// (the instance that published it died first).
const RECREATE_AFTER_MS: i64 = 10_000;

fn gone(id: &str) -> TournamentError {
    TournamentError::Gone(id.to_string())
}

/// A signed-in visitor's identity and name: only accounts take part.
fn account(visitor: &Visitor) -> Result<(PlayerId, String), TournamentError> {
    let (_, a) = visitor.account.as_ref().ok_or(TournamentError::SignIn)?;
    Ok((PlayerId::account(&a.name), a.name.clone()))
}

/// The tournaments: created, joined, run by a scheduler that starts their
/// games and records their results.
pub struct Tournaments {
    rounds: Arc<Rounds>,
    ratings: Arc<Ratings>,
    limits: Arc<Limits>,
}

impl Tournaments {
    pub fn new(rounds: Arc<Rounds>, ratings: Arc<Ratings>, limits: Arc<Limits>) -> Self {
        Tournaments {
            rounds,
            ratings,
            limits,
        }
    }

    /// Run the scheduler until the tournaments are gone.
    pub fn start(self: &Arc<Self>) {
        tokio::spawn(scheduler(Arc::downgrade(self)));
    }

    pub async fn create_tournament(
        &self,
        visitor: &Visitor,
        req: NewTournament,
    ) -> Result<TournamentId, TournamentError> {
        let (me, my_name) = account(visitor)?;
        let name = req.name.trim();
        if name.is_empty() || name.chars().count() > MAX_NAME {
            return Err(bad_request(format!("a name of 1 to {MAX_NAME} characters")));
        }
        let game = self.rounds.registry.create(&req.spec, None)?;
        let title = self.rounds.registry.entry(game.name())?.title;
        let seats = game.num_players();
        match (req.format, seats) {
            (TournamentFormat::Tables, 3) => {}
            (TournamentFormat::Tables, _) => {
                return Err(bad_request("tables are for three-player games"));
            }
            (_, 2) => {}
            _ => return Err(bad_request("swiss and arena are for two-player games")),
        }
        if !matches!(req.clock, TimeControl::Realtime { .. }) {
            return Err(bad_request(
                "tournaments need a real-time clock (initial_s, increment_s)",
            ));
        }
        let arena = req.format == TournamentFormat::Arena;
        let (rounds, minutes) = match (arena, req.rounds, req.minutes) {
            (false, Some(r), None) if (1..=MAX_ROUNDS).contains(&r) => (Some(r), None),
            (true, None, Some(m)) if (1..=MAX_MINUTES).contains(&m) => (None, Some(m)),
            (false, _, _) => {
                return Err(bad_request(format!(
                    "rounds: 1 to {MAX_ROUNDS} (and no minutes)"
                )))
            }
            (true, _, _) => {
                return Err(bad_request(format!(
                    "minutes: 1 to {MAX_MINUTES} (and no rounds)"
                )))
            }
        };
        let tables = req.format == TournamentFormat::Tables;
        if !tables && (req.leftover.is_some() || req.points.is_some()) {
            return Err(bad_request("leftover and points are for tables"));
        }
        if let Some(p) = req.points {
            if p[0] < p[1] || p[1] < p[2] || p[0] == 0 || p[0] > 100 {
                return Err(bad_request(
                    "points: first ≥ second ≥ third, first 1 to 100",
                ));
            }
        }
        if let Some(pairing::tables::Leftover::Ai { level }) = req.leftover {
            AiLevel::from_number(level).map_err(|e| bad_request(e.message))?;
        }
        let now = self.rounds.now();
        let starts = match req.starts {
            StartTime::Now(_) => now,
            StartTime::At(t) if t >= now - 60_000 && t <= now + 90 * 86_400_000 => t,
            StartTime::At(_) => {
                return Err(bad_request("starts: \"now\" or a time within 90 days"))
            }
        };
        // Counted once the request is known to be good.
        self.limits.tournaments.count(&me.to_string())?;
        let t = Tournament {
            name: name.to_string(),
            spec: game.spec().to_string(),
            title: title.to_string(),
            format: req.format,
            clock: req.clock,
            starts,
            rounds_total: rounds,
            minutes,
            points: req.points.filter(|_| tables),
            leftover: req.leftover.clone(),
            creator: me.clone(),
            creator_name: my_name,
            rated: req.rated,
            bots: req.bots,
            status: TournamentStatus::Upcoming,
            players: Vec::new(),
            rounds: Vec::new(),
            finished: None,
        };
        let id = random_id();
        let doc = Doc {
            kind: KIND,
            id: id.clone(),
            owner: Some(me.to_string()),
            body: serde_json::to_string(&t).unwrap_or_default(),
            version: 0,
            created: now,
            expires: None,
        };
        self.rounds.store.doc_insert(doc).await?;
        let marker = Doc {
            kind: LIVE,
            id: id.clone(),
            owner: None,
            body: String::new(),
            version: 0,
            created: starts,
            expires: None,
        };
        self.rounds.store.doc_insert(marker).await?;
        Ok(TournamentId { id })
    }

    async fn load_tournament(&self, id: &str) -> Result<(Doc, Tournament), TournamentError> {
        let doc = self
            .rounds
            .store
            .doc_get(KIND, id)
            .await?
            .ok_or_else(|| gone(id))?;
        let t = serde_json::from_str(&doc.body)
            .map_err(|e| TournamentError::Unreadable(id.to_string(), e.to_string()))?;
        Ok((doc, t))
    }

    /// Apply `change` to tournament `id` and store it if it says so
    /// (`Ok(Some(_))`), retrying on a concurrent change.
    async fn change_tournament<R>(
        &self,
        id: &str,
        change: impl Fn(&mut Tournament) -> Result<Option<R>, TournamentError>,
    ) -> Result<Option<(R, Tournament)>, TournamentError> {
        let now = self.rounds.now();
        update_json(&self.rounds.store, (KIND, id), 8, now, None, change)
            .await
            .map_err(|e| match e {
                ChangeError::Refused(e) => e,
                ChangeError::Store(StoreError::Missing) => gone(id),
                ChangeError::Store(e) => e.into(),
            })
    }

    /// Upcoming, running and the latest finished tournaments.
    pub async fn tournaments(&self) -> Result<TournamentList, TournamentError> {
        let docs = self
            .rounds
            .store
            .doc_list(KIND, None, 0, LIST_LIMIT)
            .await?;
        let mut list = TournamentList {
            upcoming: Vec::new(),
            running: Vec::new(),
            finished: Vec::new(),
        };
        for d in &docs {
            let Ok(t) = serde_json::from_str::<Tournament>(&d.body) else {
                continue;
            };
            let s = t.summary(&d.id);
            match t.status {
                TournamentStatus::Upcoming => list.upcoming.push(s),
                TournamentStatus::Running => list.running.push(s),
                TournamentStatus::Finished => list.finished.push(s),
            }
        }
        list.upcoming.sort_by_key(|s| s.starts);
        list.finished.reverse();
        list.finished.truncate(FINISHED_LISTED);
        Ok(list)
    }

    pub async fn tournament(
        &self,
        visitor: &Visitor,
        id: &str,
    ) -> Result<TournamentView, TournamentError> {
        let (_, t) = self.load_tournament(id).await?;
        let mut view = t
            .view(id, &visitor.ids())
            .map_err(|e| TournamentError::Unreadable(id.to_string(), e.to_string()))?;
        // A wave is stored before its games are (so that only the instance
        // whose write wins creates them): a game not created yet is not
        // shown, or a player (a bot) polling it would get 404s.
        if let Some(game) = &view.my_game {
            if self.rounds.live().get(game).is_none()
                && self.rounds.store.load(game).await?.is_none()
            {
                view.my_game = None;
            }
        }
        Ok(view)
    }

    pub async fn join_tournament(
        &self,
        visitor: &Visitor,
        id: &str,
    ) -> Result<(), TournamentError> {
        let (me, name) = account(visitor)?;
        let (_, t) = self.load_tournament(id).await?;
        let pool = self.rounds.registry.pool_of(&t.spec, false)?;
        let user = me.account_key().unwrap_or_default();
        let rating = self.ratings.rating_in(user, &pool).await;
        let bot = visitor.is_bot();
        self.change_tournament(id, |t| {
            t.join(&me, &name, rating, bot)
                .map(Some)
                .map_err(Into::into)
        })
        .await?;
        Ok(())
    }

    pub async fn withdraw_tournament(
        &self,
        visitor: &Visitor,
        id: &str,
    ) -> Result<(), TournamentError> {
        let (me, _) = account(visitor)?;
        self.change_tournament(id, |t| t.withdraw(&me).map(Some).map_err(Into::into))
            .await?;
        Ok(())
    }

    /// Move tournament `id` on (start, pair, finish) and start the games
    /// of a new round; only the instance whose write wins does so.
    /// The tournament as it stands after.
    async fn step_tournament(self: &Arc<Self>, id: &str) -> Result<Tournament, TournamentError> {
        let now = self.rounds.now();
        // The tournament as last read, for when there is nothing to write.
        let seen = std::sync::Mutex::new(None);
        let stepped = self
            .change_tournament(id, |t| {
                *seen.lock().unwrap_or_else(|e| e.into_inner()) = Some(t.clone());
                t.step(now, &mut random_id)
                    .map_err(|e| TournamentError::Unreadable(id.to_string(), e.to_string()))
            })
            .await?;
        let Some((games, t)) = stepped else {
            let seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
            return seen.ok_or_else(|| gone(id));
        };
        for g in &games {
            if let Err(e) = self.start_tournament_game(&t, g).await {
                tracing::error!(tournament = %id, game = %g.id, "not started: {e}");
            }
        }
        if t.status == TournamentStatus::Finished {
            self.rounds.store.doc_delete(LIVE, id).await?;
        }
        Ok(t)
    }

    /// Create a game of a tournament: its seats bound to the players'
    /// accounts, the tournament's clock, no hints.
    async fn start_tournament_game(
        self: &Arc<Self>,
        t: &Tournament,
        g: &NewGame,
    ) -> Result<(), RoundError> {
        let game = self.rounds.registry.create(&t.spec, None)?;
        let seats = g
            .seats
            .iter()
            .map(|s| match s {
                SeatOf::Player(p) => {
                    let entrant = t.players.iter().find(|e| e.id == *p);
                    Seat {
                        kind: SeatKind::Human,
                        name: entrant.map(|e| e.name.clone()).unwrap_or_default(),
                        owner: Some(p.clone()),
                        joined: true,
                        bot: entrant.is_some_and(|e| e.bot),
                        ..Seat::default()
                    }
                }
                SeatOf::Ai(level) => Seat {
                    kind: SeatKind::Ai,
                    level: AiLevel::from_number(*level).ok(),
                    joined: true,
                    ..Seat::default()
                },
            })
            .collect();
        let mut round = self.rounds.new_round(game, None, rand::random(), seats)?;
        round.id = g.id.clone();
        round.meta.hints = false;
        // Bots and people are rated against each other only where the
        // tournament takes bots.
        round.meta.rated = t.rated
            && g.seats.iter().all(|s| matches!(s, SeatOf::Player(_)))
            && (t.bots || crate::bot::may_rate(&round.meta.seats));
        round.roll_dice();
        round.now = self.rounds.now();
        round.start_clocks(t.clock);
        self.rounds.insert(round, Vec::new()).await?;
        Ok(())
    }

    /// The places of game `id` if it is over, read from the store; `None`
    /// while it goes on (or if it is missing).
    async fn stored_places(&self, id: &str) -> Result<Option<(Vec<u8>, Vec<u8>)>, RoundError> {
        let round = match self.rounds.load(id).await {
            Ok(r) => r,
            Err(RoundError::NoGame(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let Some(ending) = crate::round::state::ending_of(round.game.as_ref(), &round.meta) else {
            return Ok(None);
        };
        Ok(Some((round.places(&ending), round.absent(&ending))))
    }

    /// Record the result of game `game` of tournament `id` if it is over,
    /// read from the store.
    async fn check_tournament_game(&self, id: &str, game: &str) -> Result<bool, TournamentError> {
        let Some((places, absent)) = self.stored_places(game).await? else {
            return Ok(false);
        };
        self.record_tournament_game(id, game, places, &absent).await
    }

    /// Record game `game`'s places in tournament `id` and withdraw its
    /// `absent` seats' players; whether that changed anything.
    async fn record_tournament_game(
        &self,
        id: &str,
        game: &str,
        places: Vec<u8>,
        absent: &[u8],
    ) -> Result<bool, TournamentError> {
        let now = self.rounds.now();
        let recorded = self
            .change_tournament(id, |t| {
                Ok(t.record(game, places.clone(), absent, now).then_some(()))
            })
            .await?;
        Ok(recorded.is_some())
    }

    /// Recreate the games of tournament `t` that were published long ago
    /// and are not in the store (their publisher died before creating them).
    async fn restore_tournament_games(self: &Arc<Self>, t: &Tournament) {
        let now = self.rounds.now();
        for r in t
            .rounds
            .iter()
            .filter(|r| now - r.started > RECREATE_AFTER_MS)
        {
            for g in r.games.iter().filter(|g| g.places.is_none()) {
                if matches!(self.rounds.store.load(&g.id).await, Ok(None)) {
                    let new = NewGame {
                        id: g.id.clone(),
                        seats: g.seats.clone(),
                    };
                    // A conflict: another instance created it meanwhile.
                    let _ = self.start_tournament_game(t, &new).await;
                }
            }
        }
    }
}

/// A tournament asked for that cannot be one, and why.
fn bad_request(why: impl Into<String>) -> TournamentError {
    TournamentError::BadRequest(why.into())
}

/// Every `tournament_tick`, move every live tournament on; record results as games
/// end (announced here) and, every few ticks, from the store (in case an
/// announcement was missed or made by another instance that died).
async fn scheduler(app: Weak<Tournaments>) {
    let Some((mut ended, period)) = app.upgrade().map(|a| {
        (
            a.rounds.finisher.subscribe(),
            a.rounds.config.tournament_tick,
        )
    }) else {
        return;
    };
    let mut tick = tokio::time::interval(period);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Which live tournament each pending game belongs to, as of the last tick.
    let mut owners: HashMap<String, String> = HashMap::new();
    let mut ticks: u32 = 0;
    loop {
        let event = tokio::select! {
            _ = tick.tick() => None,
            e = ended.recv() => match e {
                Ok(e) => Some(e),
                // Missed some: the next check of stored results finds them.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    ticks = RESULT_CHECK_EVERY;
                    None
                }
                Err(_) => return,
            },
        };
        let Some(app) = app.upgrade() else { return };
        if let Some(e) = event {
            if let Some(tid) = owners.get(&e.id).cloned() {
                // The ending carries its places: no need to read the game back.
                let recorded = app
                    .record_tournament_game(&tid, &e.id, e.places.clone(), &e.absent)
                    .await;
                if let Err(err) = recorded {
                    tracing::warn!(tournament = %tid, "result of {}: {err}", e.id);
                }
                match app.step_tournament(&tid).await {
                    Ok(t) => {
                        for g in t.pending() {
                            owners.insert(g.id.clone(), tid.clone());
                        }
                    }
                    Err(err) => tracing::warn!(tournament = %tid, "step: {err}"),
                }
            }
            continue;
        }
        ticks += 1;
        let check_results = ticks >= RESULT_CHECK_EVERY;
        if check_results {
            ticks = 0;
        }
        owners = app.tick_tournaments(check_results).await;
    }
}

impl Tournaments {
    /// One scheduler tick now, results checked in the store too (what the
    /// scheduler does every `tournament_tick`; tests call it to choose when).
    pub async fn tick(self: &Arc<Self>) {
        self.tick_tournaments(true).await;
    }

    /// One scheduler tick over the live tournaments; which tournament each
    /// pending game belongs to.
    async fn tick_tournaments(self: &Arc<Self>, check_results: bool) -> HashMap<String, String> {
        let mut owners = HashMap::new();
        let live = match self.rounds.store.doc_list(LIVE, None, 0, LIST_LIMIT).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!("tournaments: {e}");
                return owners;
            }
        };
        let now = self.rounds.now();
        for marker in live.iter().filter(|m| m.created <= now) {
            let id = &marker.id;
            let t = match self.rounds.store.doc_get(KIND, id).await {
                Ok(Some(doc)) => match serde_json::from_str::<Tournament>(&doc.body) {
                    Ok(t) => t,
                    Err(e) => {
                        tracing::error!(tournament = %id, "unreadable: {e}");
                        continue;
                    }
                },
                Ok(None) => {
                    // Its tournament is gone: so is the marker.
                    let _ = self.rounds.store.doc_delete(LIVE, id).await;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(tournament = %id, "{e}");
                    continue;
                }
            };
            if check_results {
                for g in t.pending() {
                    if let Err(e) = self.check_tournament_game(id, &g.id).await {
                        tracing::warn!(tournament = %id, "result of {}: {e}", g.id);
                    }
                }
                self.restore_tournament_games(&t).await;
            }
            let t = match self.step_tournament(id).await {
                Ok(after) => after,
                Err(e) => {
                    tracing::warn!(tournament = %id, "step: {e}");
                    t
                }
            };
            for g in t.pending() {
                owners.insert(g.id.clone(), id.clone());
            }
        }
        owners
    }
}
