//! Tournaments (lila's `modules/swiss` and `modules/tournament`): the pure
//! state of one tournament, stored as a document. Its players, its rounds
//! (for an arena, each wave of pairings is a round) with their games and
//! results, and what comes next, decided by [`Tournament::step`]: pairings
//! and standings come from `tabula-pairing`, so the same state always gives
//! the same next round. The service (`service.rs`) stores the state, starts
//! the games it names and feeds back their results; `api.rs` serves it.

pub mod error;
pub mod service;

pub use error::TournamentError;
pub use service::Tournaments;

use crate::common::PlayerId;
use crate::protocol::{
    TournamentFormat, TournamentGame, TournamentRound, TournamentSeat, TournamentStanding,
    TournamentStatus, TournamentSummary, TournamentView,
};
use pairing::swiss::{self, GameResult, SwissConfig};
use pairing::tables::{self, Leftover, PlayedTable, TableRound, TablesConfig};
use pairing::{arena, PairingError, Player, PlayerId as PairId, Score, Standing, TieBreak};
use serde::{Deserialize, Serialize};
use tabula_clock::TimeControl;

/// The document kind of a tournament.
pub const KIND: &str = "tournament";
/// The seed of a player without a rating in the tournament's pool (and of
/// entries stored before seeds were kept).
pub const SEED_RATING: i32 = 1500;

fn seed_rating() -> i32 {
    SEED_RATING
}
/// Most rounds of a Swiss or tables tournament.
pub const MAX_ROUNDS: u32 = 30;
/// How long two arena players who just met wait for someone else to come
/// free before they are paired again.
pub const REMATCH_WAIT_MS: i64 = 15_000;
/// Longest arena, in minutes.
pub const MAX_MINUTES: u32 = 24 * 60;
/// How long a tournament whose start time has come waits for enough
/// players (it starts as soon as they are there); then it finishes empty.
pub const START_GRACE_MS: i64 = 10 * 60_000;
/// Most players of one tournament.
pub const MAX_PLAYERS: usize = 500;

/// A registered player: their account and the name shown.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Entrant {
    pub id: PlayerId,
    pub name: String,
    #[serde(default)]
    pub withdrawn: bool,
    /// Rating in the tournament's pool when they joined: the seed that
    /// pairing ranks by.
    #[serde(default = "seed_rating")]
    pub rating: i32,
    /// A bot account: its seats are marked as a bot's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// A seat of a tournament game: a player's id, or an AI of a level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum SeatOf {
    Player(PlayerId),
    Ai(u8),
}

/// A game of a round; `places` once it is over (0 is first, ties share).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Game {
    pub id: String,
    pub seats: Vec<SeatOf>,
    #[serde(default)]
    pub places: Option<Vec<u8>>,
    /// When its result was recorded (ms), for the arena's order of games.
    #[serde(default)]
    pub ended: Option<i64>,
}

impl Game {
    fn players(&self) -> impl Iterator<Item = &PlayerId> {
        self.seats.iter().filter_map(|s| match s {
            SeatOf::Player(p) => Some(p),
            SeatOf::Ai(_) => None,
        })
    }
}

/// A round: published pairings, then results as games end.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Round {
    pub started: i64,
    pub games: Vec<Game>,
    #[serde(default)]
    pub byes: Vec<PlayerId>,
}

impl Round {
    fn over(&self) -> bool {
        self.games.iter().all(|g| g.places.is_some())
    }
}

/// One tournament, as stored.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tournament {
    pub name: String,
    pub spec: String,
    pub title: String,
    pub format: TournamentFormat,
    pub clock: TimeControl,
    /// Start time (ms since 1970).
    pub starts: i64,
    /// Swiss and tables: the number of rounds.
    #[serde(default)]
    pub rounds_total: Option<u32>,
    /// Arena: its length in minutes (its end is `starts` plus that).
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Tables: points for first, second and third place.
    #[serde(default)]
    pub points: Option<[u32; 3]>,
    /// Tables: what the one or two players left over get.
    #[serde(default)]
    pub leftover: Option<Leftover>,
    /// The creator's identity and name.
    pub creator: PlayerId,
    pub creator_name: String,
    /// Its games are rated (tables with AI seats never are).
    #[serde(default)]
    pub rated: bool,
    /// Bot accounts may enter; their games with people are rated too.
    #[serde(default)]
    pub bots: bool,
    pub status: TournamentStatus,
    pub players: Vec<Entrant>,
    pub rounds: Vec<Round>,
    /// When it finished (ms).
    #[serde(default)]
    pub finished: Option<i64>,
}

/// A game the service must create: its id, seats and names.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    pub id: String,
    pub seats: Vec<SeatOf>,
}

/// Why a join or withdrawal is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    Finished,
    Full,
    NotIn,
    NoBots,
}

impl std::error::Error for EntryError {}

impl std::fmt::Display for EntryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EntryError::Finished => "this tournament is over",
            EntryError::Full => "this tournament is full",
            EntryError::NotIn => "you are not in this tournament",
            EntryError::NoBots => "this tournament does not take bots",
        })
    }
}

impl Tournament {
    /// Arena: when pairing stops (ms).
    pub fn ends(&self) -> Option<i64> {
        self.minutes.map(|m| self.starts + i64::from(m) * 60_000)
    }

    /// Join (or rejoin after a withdrawal) while it is not over; a bot
    /// account (`bot`) only where bots are allowed.
    pub fn join(
        &mut self,
        id: &PlayerId,
        name: &str,
        rating: i32,
        bot: bool,
    ) -> Result<(), EntryError> {
        if self.status == TournamentStatus::Finished {
            return Err(EntryError::Finished);
        }
        if bot && !self.bots {
            return Err(EntryError::NoBots);
        }
        if let Some(e) = self.players.iter_mut().find(|e| e.id == *id) {
            e.withdrawn = false;
            e.rating = rating;
            return Ok(());
        }
        if self.players.len() >= MAX_PLAYERS {
            return Err(EntryError::Full);
        }
        self.players.push(Entrant {
            id: id.clone(),
            name: name.into(),
            withdrawn: false,
            rating,
            bot,
        });
        Ok(())
    }

    /// Leave: before the start the entry is removed; after it the player
    /// is withdrawn (never paired again, past games kept).
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), EntryError> {
        if self.status == TournamentStatus::Finished {
            return Err(EntryError::Finished);
        }
        let at = self
            .players
            .iter()
            .position(|e| e.id == *id && !e.withdrawn)
            .ok_or(EntryError::NotIn)?;
        if self.status == TournamentStatus::Upcoming {
            self.players.remove(at);
        } else {
            self.players[at].withdrawn = true;
        }
        Ok(())
    }

    /// Record the places of game `game`, and withdraw the players of its
    /// `absent` seats (who left it or never moved: not paired again, as
    /// one who walks out of the tavern); whether that changed anything (a
    /// result is final: a second one is ignored).
    pub fn record(&mut self, game: &str, places: Vec<u8>, absent: &[u8], now: i64) -> bool {
        let mut gone = Vec::new();
        let mut found = false;
        for g in self.rounds.iter_mut().flat_map(|r| r.games.iter_mut()) {
            if g.id == game && g.places.is_none() && places.len() == g.seats.len() {
                g.places = Some(places);
                g.ended = Some(now);
                for &seat in absent {
                    if let Some(SeatOf::Player(p)) = g.seats.get(usize::from(seat)) {
                        gone.push(p.clone());
                    }
                }
                found = true;
                break;
            }
        }
        if found {
            for e in self.players.iter_mut().filter(|e| gone.contains(&e.id)) {
                e.withdrawn = true;
            }
            return true;
        }
        false
    }

    /// Games without a result yet.
    pub fn pending(&self) -> impl Iterator<Item = &Game> {
        self.rounds
            .iter()
            .flat_map(|r| r.games.iter())
            .filter(|g| g.places.is_none())
    }

    fn pairing_players(&self) -> Vec<Player> {
        self.players
            .iter()
            .map(|e| Player {
                id: pair_id(&e.id),
                rating: e.rating,
                withdrawn: e.withdrawn,
            })
            .collect()
    }

    fn swiss_config(&self) -> SwissConfig {
        SwissConfig::default()
    }

    fn tables_config(&self) -> TablesConfig {
        let mut c = TablesConfig::default();
        if let Some(p) = self.points {
            c.points = p.map(|x| Score::points(i64::from(x)));
            // A bye is worth the second place's points.
            c.bye = c.points[1];
        }
        if let Some(l) = &self.leftover {
            c.leftover = l.clone();
        }
        c
    }

    /// The finished games of `rounds` as Swiss rounds.
    fn swiss_rounds(&self) -> Vec<swiss::Round> {
        self.rounds
            .iter()
            .map(|r| swiss::Round {
                games: r
                    .games
                    .iter()
                    .filter_map(|g| {
                        two_player_game(g).map(|(first, second, result)| swiss::Game {
                            first,
                            second,
                            result,
                        })
                    })
                    .collect(),
                byes: r.byes.iter().map(pair_id).collect(),
            })
            .collect()
    }

    fn table_rounds(&self) -> Vec<TableRound> {
        self.rounds
            .iter()
            .map(|r| TableRound {
                tables: r
                    .games
                    .iter()
                    .filter_map(|g| {
                        Some(PlayedTable {
                            seats: g.seats.iter().map(table_seat).collect(),
                            places: g.places.clone()?,
                        })
                    })
                    .collect(),
                byes: r.byes.iter().map(pair_id).collect(),
            })
            .collect()
    }

    /// Finished arena games in the order they ended.
    fn arena_games(&self) -> Vec<arena::ArenaGame> {
        let mut done: Vec<(i64, usize, &Game)> = self
            .rounds
            .iter()
            .flat_map(|r| r.games.iter())
            .enumerate()
            .filter_map(|(k, g)| Some((g.ended?, k, g)))
            .collect();
        done.sort_by_key(|&(t, k, _)| (t, k));
        done.into_iter()
            .filter_map(|(_, _, g)| {
                let (first, second, result) = two_player_game(g)?;
                Some(arena::ArenaGame {
                    first,
                    second,
                    result,
                })
            })
            .collect()
    }

    /// The tie-breaks the standings show, in order.
    pub fn tiebreaks(&self) -> Vec<TieBreak> {
        match self.format {
            TournamentFormat::Swiss => self.swiss_config().tiebreaks,
            TournamentFormat::Tables => self.tables_config().tiebreaks,
            TournamentFormat::Arena => Vec::new(),
        }
    }

    /// Standings over the games finished so far.
    pub fn standings(&self) -> Result<Vec<Standing>, PairingError> {
        let players = self.pairing_players();
        match self.format {
            TournamentFormat::Swiss => {
                swiss::standings(&players, &self.swiss_rounds(), &self.swiss_config())
            }
            TournamentFormat::Tables => {
                tables::standings(&players, &self.table_rounds(), &self.tables_config())
            }
            TournamentFormat::Arena => arena::standings(&players, &self.arena_games()),
        }
    }

    fn active(&self) -> usize {
        self.players.iter().filter(|e| !e.withdrawn).count()
    }

    /// Fewest active players to pair a round.
    fn enough(&self) -> bool {
        let n = self.active();
        match (&self.format, &self.leftover) {
            (TournamentFormat::Tables, Some(Leftover::Bye)) => n >= tables::SEATS,
            _ => n >= 2,
        }
    }

    /// Move the tournament on at `now`: start it, pair the next round or
    /// arena wave, or finish it. The games to create (with ids from `ids`);
    /// `None` when nothing changed.
    pub fn step(
        &mut self,
        now: i64,
        ids: &mut dyn FnMut() -> String,
    ) -> Result<Option<Vec<NewGame>>, PairingError> {
        match self.status {
            TournamentStatus::Finished => Ok(None),
            TournamentStatus::Upcoming if now < self.starts => Ok(None),
            TournamentStatus::Upcoming => {
                if !self.enough() {
                    if now < self.starts + START_GRACE_MS {
                        return Ok(None);
                    }
                    self.finish(now);
                    return Ok(Some(Vec::new()));
                }
                self.status = TournamentStatus::Running;
                self.pair(now, ids).map(Some)
            }
            TournamentStatus::Running if self.format == TournamentFormat::Arena => {
                self.arena_step(now, ids)
            }
            TournamentStatus::Running => {
                if !self.rounds.last().is_none_or(Round::over) {
                    return Ok(None);
                }
                let all_played = self.rounds.len() as u32 >= self.rounds_total.unwrap_or(0);
                if all_played || !self.enough() {
                    self.finish(now);
                    return Ok(Some(Vec::new()));
                }
                self.pair(now, ids).map(Some)
            }
        }
    }

    fn finish(&mut self, now: i64) {
        self.status = TournamentStatus::Finished;
        self.finished = Some(now);
    }

    /// Pair the next Swiss or tables round (or the arena's first wave).
    fn pair(
        &mut self,
        now: i64,
        ids: &mut dyn FnMut() -> String,
    ) -> Result<Vec<NewGame>, PairingError> {
        let players = self.pairing_players();
        let (seatings, byes): (Vec<Vec<SeatOf>>, Vec<PlayerId>) = match self.format {
            TournamentFormat::Swiss => {
                let p = swiss::pair(&players, &self.swiss_rounds(), &self.swiss_config())?;
                let boards = p.boards.into_iter().map(|b| seats_of([b.first, b.second]));
                (
                    boards.collect(),
                    p.bye.into_iter().filter_map(our_id).collect(),
                )
            }
            TournamentFormat::Tables => {
                let p = tables::pair(&players, &self.table_rounds(), &self.tables_config())?;
                let seats = p.tables.into_iter().map(|t| {
                    t.seats
                        .into_iter()
                        .filter_map(|s| match s {
                            tables::Seat::Player(id) => our_id(id).map(SeatOf::Player),
                            tables::Seat::Ai { level } => Some(SeatOf::Ai(level)),
                        })
                        .collect()
                });
                (
                    seats.collect(),
                    p.byes.into_iter().filter_map(our_id).collect(),
                )
            }
            TournamentFormat::Arena => return self.arena_wave(now, ids),
        };
        Ok(self.publish(now, seatings, byes, ids))
    }

    fn publish(
        &mut self,
        now: i64,
        seatings: Vec<Vec<SeatOf>>,
        byes: Vec<PlayerId>,
        ids: &mut dyn FnMut() -> String,
    ) -> Vec<NewGame> {
        let games: Vec<Game> = seatings
            .into_iter()
            .map(|seats| Game {
                id: ids(),
                seats,
                places: None,
                ended: None,
            })
            .collect();
        let new = games
            .iter()
            .map(|g| NewGame {
                id: g.id.clone(),
                seats: g.seats.clone(),
            })
            .collect();
        self.rounds.push(Round {
            started: now,
            games,
            byes,
        });
        new
    }

    fn arena_step(
        &mut self,
        now: i64,
        ids: &mut dyn FnMut() -> String,
    ) -> Result<Option<Vec<NewGame>>, PairingError> {
        if now >= self.ends().unwrap_or(now) {
            // Games in progress at the end still count.
            if self.pending().next().is_none() {
                self.finish(now);
                return Ok(Some(Vec::new()));
            }
            return Ok(None);
        }
        let games = self.arena_wave(now, ids)?;
        Ok((!games.is_empty()).then_some(games))
    }

    /// Whether the only two players free are the two who just met, and
    /// others still play: they wait for them (an arena is not a match),
    /// up to [`REMATCH_WAIT_MS`].
    fn rematch_can_wait(
        &self,
        now: i64,
        waiting: &[(i64, usize, arena::Waiting)],
        others_playing: bool,
    ) -> bool {
        let [(since_a, _, a), (since_b, _, b)] = waiting else {
            return false;
        };
        let met =
            a.last_opponent.as_ref() == Some(&b.id) && b.last_opponent.as_ref() == Some(&a.id);
        met && others_playing && now - (*since_a).max(*since_b) < REMATCH_WAIT_MS
    }

    /// Pair the arena players free now, the longest waiting first.
    fn arena_wave(
        &mut self,
        now: i64,
        ids: &mut dyn FnMut() -> String,
    ) -> Result<Vec<NewGame>, PairingError> {
        let busy: std::collections::HashSet<&PlayerId> =
            self.pending().flat_map(Game::players).collect();
        let standings = self.standings()?;
        let rank = |id: &PairId| {
            standings
                .iter()
                .find(|s| s.id == *id)
                .map_or(u32::MAX, |s| s.rank)
        };
        let mut waiting: Vec<(i64, usize, arena::Waiting)> = Vec::new();
        for (k, e) in self.players.iter().enumerate() {
            if e.withdrawn || busy.contains(&e.id) {
                continue;
            }
            let mut last: Option<&Game> = None;
            let mut balance = 0;
            for g in self.rounds.iter().flat_map(|r| r.games.iter()) {
                match g
                    .seats
                    .iter()
                    .position(|s| *s == SeatOf::Player(e.id.clone()))
                {
                    Some(0) => balance += 1,
                    Some(_) => balance -= 1,
                    None => continue,
                }
                if last.is_none_or(|l| l.ended <= g.ended) {
                    last = Some(g);
                }
            }
            let since = last.and_then(|g| g.ended).unwrap_or(self.starts);
            let last_opponent = last.and_then(|g| g.players().find(|p| **p != e.id).map(pair_id));
            waiting.push((
                since,
                k,
                arena::Waiting {
                    id: pair_id(&e.id),
                    rank: rank(&pair_id(&e.id)),
                    rating: e.rating,
                    last_opponent,
                    seat_balance: balance,
                },
            ));
        }
        if waiting.len() < 2 || self.rematch_can_wait(now, &waiting, !busy.is_empty()) {
            return Ok(Vec::new());
        }
        waiting.sort_by_key(|(since, k, _)| (*since, *k));
        let waiting: Vec<arena::Waiting> = waiting.into_iter().map(|(_, _, w)| w).collect();
        let p = arena::pair(&waiting)?;
        let seatings = p
            .boards
            .into_iter()
            .map(|b| seats_of([b.first, b.second]))
            .collect();
        Ok(self.publish(now, seatings, Vec::new(), ids))
    }

    /// The game `player` is playing now, if any.
    pub fn current_game(&self, player: &PlayerId) -> Option<&str> {
        self.pending()
            .find(|g| g.players().any(|p| p == player))
            .map(|g| g.id.as_str())
    }

    fn rating_of(&self, id: &PlayerId) -> i32 {
        self.players
            .iter()
            .find(|e| e.id == *id)
            .map_or(SEED_RATING, |e| e.rating)
    }

    /// The name shown for `id`: as entered, else the account's key.
    fn name_of(&self, id: &PlayerId) -> String {
        self.players.iter().find(|e| e.id == *id).map_or_else(
            || id.account_key().unwrap_or("?").to_string(),
            |e| e.name.clone(),
        )
    }

    pub fn summary(&self, id: &str) -> TournamentSummary {
        TournamentSummary {
            id: id.to_string(),
            name: self.name.clone(),
            spec: self.spec.clone(),
            title: self.title.clone(),
            format: self.format,
            clock: self.clock,
            starts: self.starts,
            ends: self.ends(),
            rounds_total: self.rounds_total,
            minutes: self.minutes,
            status: self.status,
            count: self.players.iter().filter(|e| !e.withdrawn).count(),
            round: self.rounds.len(),
            creator: self.creator_name.clone(),
            rated: self.rated,
            bots: self.bots,
        }
    }

    /// Everything the standings page shows, for the visitor with `ids`.
    pub fn view(&self, id: &str, visitor: &[PlayerId]) -> Result<TournamentView, PairingError> {
        let me = self.players.iter().find(|e| visitor.contains(&e.id));
        let standings = self
            .standings()?
            .into_iter()
            .filter_map(|s| Some((our_id(s.id.clone())?, s)))
            .map(|(who, s)| TournamentStanding {
                rank: s.rank,
                name: self.name_of(&who),
                rating: self.rating_of(&who),
                score: s.score.as_f64(),
                tiebreaks: s.tiebreaks.iter().map(|t| t.as_f64()).collect(),
                played: s.played,
                withdrawn: s.withdrawn,
            })
            .collect();
        let rounds = self
            .rounds
            .iter()
            .enumerate()
            .map(|(k, r)| TournamentRound {
                number: k as u32 + 1,
                started: r.started,
                games: r
                    .games
                    .iter()
                    .map(|g| TournamentGame {
                        id: g.id.clone(),
                        seats: g
                            .seats
                            .iter()
                            .map(|s| match s {
                                SeatOf::Player(p) => TournamentSeat {
                                    name: Some(self.name_of(p)),
                                    ai: None,
                                },
                                SeatOf::Ai(level) => TournamentSeat {
                                    name: None,
                                    ai: Some(*level),
                                },
                            })
                            .collect(),
                        places: g.places.clone(),
                    })
                    .collect(),
                byes: r.byes.iter().map(|b| self.name_of(b)).collect(),
            })
            .collect();
        Ok(TournamentView {
            summary: self.summary(id),
            points: self.points,
            leftover: self.leftover.clone(),
            tiebreaks: self.tiebreaks(),
            players: self.players.iter().map(|e| e.name.clone()).collect(),
            withdrawn: self
                .players
                .iter()
                .filter(|e| e.withdrawn)
                .map(|e| e.name.clone())
                .collect(),
            rounds,
            standings,
            joined: me.is_some_and(|e| !e.withdrawn),
            my_game: me.and_then(|e| self.current_game(&e.id)).map(String::from),
        })
    }
}

fn table_seat(s: &SeatOf) -> tables::Seat {
    match s {
        SeatOf::Player(p) => tables::Seat::Player(pair_id(p)),
        SeatOf::Ai(level) => tables::Seat::Ai { level: *level },
    }
}

/// A finished two-player game in pairing terms.
fn two_player_game(g: &Game) -> Option<(PairId, PairId, GameResult)> {
    let places = g.places.as_ref()?;
    let (SeatOf::Player(a), SeatOf::Player(b)) = (g.seats.first()?, g.seats.get(1)?) else {
        return None;
    };
    let result = match places[..] {
        [0, 0] => GameResult::Draw,
        [0, _] => GameResult::FirstWins,
        _ => GameResult::SecondWins,
    };
    Some((pair_id(a), pair_id(b), result))
}

/// A player as the pairing crate knows them: by their identity's text.
fn pair_id(id: &PlayerId) -> PairId {
    PairId::new(id.to_string())
}

/// A pairing's player back as an identity (every one was made by
/// [`pair_id`]).
fn our_id(id: PairId) -> Option<PlayerId> {
    PlayerId::parse(&id.0)
}

/// The seats of a two-player board.
fn seats_of(players: [PairId; 2]) -> Vec<SeatOf> {
    players
        .into_iter()
        .filter_map(our_id)
        .map(SeatOf::Player)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(name: &str) -> PlayerId {
        PlayerId::account(name)
    }

    fn tournament(format: TournamentFormat, n: usize, rounds: u32) -> Tournament {
        let mut t = Tournament {
            name: "Tavern".into(),
            spec: "race".into(),
            title: "Race".into(),
            format,
            clock: TimeControl::Realtime {
                initial_s: 60,
                increment_s: 0,
            },
            starts: 1000,
            rounds_total: Some(rounds),
            minutes: Some(10),
            points: None,
            leftover: None,
            creator: u("p0"),
            creator_name: "p0".into(),
            rated: true,
            bots: false,
            status: TournamentStatus::Upcoming,
            players: Vec::new(),
            rounds: Vec::new(),
            finished: None,
        };
        for i in 0..n {
            t.join(&u(&format!("p{i}")), &format!("p{i}"), SEED_RATING, false)
                .expect("join");
        }
        t
    }

    fn counter() -> impl FnMut() -> String {
        let mut n = 0;
        move || {
            n += 1;
            format!("g{n}")
        }
    }

    /// Seat 0 wins every game.
    fn finish_round(t: &mut Tournament, now: i64) {
        let ids: Vec<(String, usize)> =
            t.pending().map(|g| (g.id.clone(), g.seats.len())).collect();
        for (id, n) in ids {
            let places = (0..n).map(|s| u8::from(s > 0)).collect();
            assert!(t.record(&id, places, &[], now));
        }
    }

    #[test]
    fn swiss_runs_its_rounds_without_repeats() {
        let mut t = tournament(TournamentFormat::Swiss, 8, 3);
        let mut ids = counter();
        assert_eq!(t.step(999, &mut ids).expect("step"), None, "not yet");
        let games = t.step(1000, &mut ids).expect("step").expect("round 1");
        assert_eq!(games.len(), 4);
        assert_eq!(t.status, TournamentStatus::Running);
        assert_eq!(t.step(1001, &mut ids).expect("step"), None, "round on");
        let mut met = std::collections::HashSet::new();
        for r in 0..3 {
            for g in &t.rounds[r].games {
                let mut p: Vec<String> = g.players().map(PlayerId::to_string).collect();
                p.sort();
                assert!(met.insert(p.join("-")), "repeat {p:?}");
            }
            finish_round(&mut t, 2000 + r as i64);
            let next = t.step(3000, &mut ids).expect("step").expect("changed");
            assert_eq!(next.len(), if r < 2 { 4 } else { 0 });
        }
        assert_eq!(t.status, TournamentStatus::Finished);
        let s = t.standings().expect("standings");
        let total: Score = s.iter().map(|x| x.score).sum();
        assert_eq!(total, Score::points(12), "one point a game");
        assert_eq!(s[0].tiebreaks.len(), 3);
        // A result is final.
        assert!(!t.record("g1", vec![1, 0], &[], 9000));
    }

    #[test]
    fn players_are_seeded_by_their_ratings() {
        let mut t = tournament(TournamentFormat::Swiss, 0, 3);
        for (name, rating) in [("low", 1400), ("mid", 1600), ("top", 1800), ("new", 1500)] {
            t.join(&u(name), name, rating, false).expect("join");
        }
        let mut ids = counter();
        t.step(1000, &mut ids).expect("step").expect("round 1");
        let mut boards: Vec<Vec<&PlayerId>> = t.rounds[0]
            .games
            .iter()
            .map(|g| g.players().collect())
            .collect();
        boards.iter_mut().for_each(|b| b.sort());
        boards.sort();
        // Seeds top, mid, new, low: 1 v 3 and 2 v 4.
        assert_eq!(
            boards,
            vec![vec![&u("low"), &u("mid")], vec![&u("new"), &u("top")]]
        );
        let view = t.view("t", &[]).expect("view");
        let seeded: Vec<(String, i32)> = view
            .standings
            .iter()
            .map(|s| (s.name.clone(), s.rating))
            .collect();
        assert!(seeded.contains(&("top".to_string(), 1800)), "{seeded:?}");
        // Joining again refreshes the seed.
        t.join(&u("low"), "low", 1450, false).expect("join again");
        assert_eq!(t.rating_of(&u("low")), 1450);
    }

    #[test]
    fn tables_of_nine_never_meet_twice_and_withdrawn_are_not_paired() {
        let mut t = tournament(TournamentFormat::Tables, 9, 3);
        let mut ids = counter();
        let mut met = std::collections::HashSet::new();
        t.step(1000, &mut ids).expect("step");
        for r in 0..3 {
            assert_eq!(t.rounds[r].games.len(), 3);
            for g in &t.rounds[r].games {
                let p: Vec<String> = g.players().map(PlayerId::to_string).collect();
                for a in 0..3 {
                    for b in a + 1..3 {
                        let mut pair = [&p[a], &p[b]];
                        pair.sort();
                        assert!(
                            met.insert(format!("{}-{}", pair[0], pair[1])),
                            "met twice: {pair:?}"
                        );
                    }
                }
            }
            finish_round(&mut t, 2000);
            t.step(3000, &mut ids).expect("step");
        }
        assert_eq!(t.status, TournamentStatus::Finished);
        let s = t.standings().expect("standings");
        assert_eq!(s.len(), 9);
        assert_eq!(s.iter().map(|x| x.played).sum::<u32>(), 27);

        let mut t = tournament(TournamentFormat::Tables, 4, 2);
        t.step(1000, &mut ids).expect("step");
        // Four players: one table of three and one with two AI seats.
        let ai = t.rounds[0]
            .games
            .iter()
            .filter(|g| g.seats.iter().any(|s| matches!(s, SeatOf::Ai(_))))
            .count();
        assert_eq!(ai, 1);
        t.withdraw(&u("p3")).expect("withdraw");
        finish_round(&mut t, 2000);
        t.step(3000, &mut ids).expect("step");
        assert!(t.rounds[1]
            .games
            .iter()
            .all(|g| g.players().all(|p| *p != u("p3"))));
        assert_eq!(t.withdraw(&u("p3")), Err(EntryError::NotIn));
    }

    #[test]
    fn a_player_who_leaves_a_game_is_withdrawn() {
        let mut t = tournament(TournamentFormat::Tables, 6, 3);
        let mut ids = counter();
        t.step(1000, &mut ids).expect("step").expect("round 1");
        let g = t.rounds[0].games[0].clone();
        let SeatOf::Player(gone) = g.seats[2].clone() else {
            panic!("no AI seat with six players")
        };
        // The seat-2 player left: an AI stand-in finished, he ranks last.
        assert!(t.record(&g.id, vec![0, 1, 2], &[2], 2000));
        let other = t.rounds[0].games[1].id.clone();
        assert!(t.record(&other, vec![0, 1, 2], &[], 2000));
        t.step(3000, &mut ids).expect("step").expect("round 2");
        assert!(t.players.iter().any(|e| e.id == gone && e.withdrawn));
        assert!(t.rounds[1]
            .games
            .iter()
            .all(|g| g.players().all(|p| *p != gone)));
        let view = t.view("t", &[]).expect("view");
        assert_eq!(view.withdrawn.len(), 1);
    }

    #[test]
    fn arena_pairs_free_players_until_the_end() {
        let mut t = tournament(TournamentFormat::Arena, 4, 0);
        let mut ids = counter();
        let first = t.step(1000, &mut ids).expect("step").expect("wave");
        assert_eq!(first.len(), 2);
        // Nobody free: nothing to do.
        assert_eq!(t.step(1500, &mut ids).expect("step"), None);
        let g = first[0].id.clone();
        assert!(t.record(&g, vec![0, 1], &[], 2000));
        // Two free players who just met, while the others play: they wait
        // for them a while rather than play again at once...
        assert_eq!(t.step(2001, &mut ids).expect("step"), None);
        // ...and when the others come free, nobody meets the same again.
        let h = first[1].id.clone();
        assert!(t.record(&h, vec![1, 0], &[], 3000));
        let wave = t.step(3001, &mut ids).expect("step").expect("wave");
        assert_eq!(wave.len(), 2);
        let pair = |g: &NewGame| {
            let mut p: Vec<String> = g.seats.iter().map(|s| format!("{s:?}")).collect();
            p.sort();
            p
        };
        for old in &first {
            assert!(
                wave.iter().all(|w| pair(w) != pair(old)),
                "a rematch: {wave:?}"
            );
        }
        // Two who just met, with the others busy, meet again after the wait.
        let g = wave[0].id.clone();
        assert!(t.record(&g, vec![0, 1], &[], 4000));
        assert_eq!(
            t.step(4000 + REMATCH_WAIT_MS - 1, &mut ids).expect("step"),
            None
        );
        let again = t
            .step(4000 + REMATCH_WAIT_MS, &mut ids)
            .expect("step")
            .expect("wave");
        assert_eq!(again.len(), 1);
        let end = t.ends().expect("end");
        // Games in progress at the end count: it waits for them.
        assert_eq!(t.step(end, &mut ids).expect("step"), None);
        finish_round(&mut t, end + 1);
        assert!(t.step(end + 2, &mut ids).expect("step").is_some());
        assert_eq!(t.status, TournamentStatus::Finished);
        let s = t.standings().expect("standings");
        assert_eq!(s.iter().map(|x| x.played).sum::<u32>(), 10);
        assert_eq!(
            t.join(&u("late"), "late", SEED_RATING, false),
            Err(EntryError::Finished)
        );
    }

    #[test]
    fn too_few_players_are_waited_for_then_it_finishes_empty() {
        let mut t = tournament(TournamentFormat::Swiss, 1, 3);
        assert_eq!(t.step(1000, &mut counter()).expect("step"), None);
        assert_eq!(t.status, TournamentStatus::Upcoming);
        let games = t.step(1000 + START_GRACE_MS, &mut counter()).expect("step");
        assert_eq!(games, Some(Vec::new()));
        assert_eq!(t.status, TournamentStatus::Finished);
        assert!(t.rounds.is_empty());
    }
}
