//! One game in progress as pure logic: the rules object, its history, the
//! seats, and every decision about them. Nothing here knows HTTP, storage
//! or tasks: a command is *planned* into a [`Change`] (or refused with a
//! [`RoundError`]), the owner stores the change, then *applies* it.

use super::error::RoundError;
use super::finish::{EndReason, Ending, GameEnded};
pub use super::seat::{
    clean_name, players, players_and_leavers, Caller, Rebind, Seat, STAND_IN_LEVEL,
};
use super::seat::{seat_label, SeatHolder};
pub use crate::common::hash_token;
use crate::common::PlayerId;
pub use crate::protocol::{ChatLine, Room, SeatKind};
use serde::{Deserialize, Serialize};
use tabula_ai::AiLevel;
use tabula_core::{ActionFacts, AnyGame, Outcome, Player, PlayerSet, Turn};

/// The longest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 140;
/// The most chat lines a game keeps (both rooms); later lines are refused.
pub const CHAT_KEPT: usize = 1000;

/// Everything about a game besides its actions, stored as JSON.
#[derive(Clone, Debug, Serialize, Deserialize, Default, PartialEq)]
pub struct Meta {
    pub seats: Vec<Seat>,
    /// An ending decided off the board (the board's own result is not
    /// stored: the replay knows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<Ending>,
    /// Seats (0-based) that offer a draw now.
    #[serde(default)]
    pub draw_offer: Vec<u8>,
    /// The game that follows this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// Seats whose player left (an AI stand-in plays on), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left: Vec<u8>,
    /// The players agreed to play with hints ("casual with help").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// The clocks of a game with a time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<tabula_clock::Clocks>,
    /// When the turn of the seat to move began (ms), for first-move limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_started: Option<i64>,
    /// Per seat: since when its player has had no live channel open
    /// (`None`: connected now), for abandonment claims.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub away: Vec<Option<i64>>,
    /// A rated game: every seat an account; no hints, no take-backs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Each seat's rating change, once the game is rated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rating_diff: Vec<Option<i32>>,
    /// Imported from a record file: anyone can write one, so the game
    /// counts on no profile, rating or leaderboard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub imported: bool,
    /// The ending an imported record declares but cannot prove (see
    /// [`proved_by_record`]): kept and shown as its claim; the game is
    /// not over by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Ending>,
}

/// Whether a record file proves an ending of this kind: the board's (the
/// moves reach it) or a player's own word written in it (resignation,
/// agreement). Time, leaving, abandonment and aborts are what the server
/// saw happen: a record can only claim them.
pub fn proved_by_record(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Board | EndReason::Resign | EndReason::Agreement
    )
}

impl Meta {
    /// Bring a meta written by an older version up to date: clear tokens
    /// become hashes.
    pub fn upgrade(&mut self) {
        for seat in &mut self.seats {
            if !seat.token.is_empty() {
                if seat.token_hash.is_empty() {
                    seat.token_hash = hash_token(&seat.token);
                }
                seat.token.clear();
            }
        }
    }

    /// Hints are for games against the AI, or where the players agreed.
    pub fn hints_allowed(&self) -> bool {
        self.hints
            || self
                .seats
                .iter()
                .enumerate()
                .any(|(i, s)| s.kind == SeatKind::Ai && !self.left.contains(&(i as u8)))
    }
}

/// One played action and the position after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub actor: Option<u8>,
    pub text: String,
    pub pos: String,
    /// What it did, for people (captures, check).
    pub facts: ActionFacts,
    /// The cells it passed through, when its text names only some.
    pub route: Vec<String>,
}

/// A command of a seat's holder.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play {
        action: String,
        ply: Option<usize>,
    },
    Join {
        name: Option<String>,
    },
    Undo,
    Resign,
    /// Offer or accept (`true`), or decline (`false`).
    Draw {
        accept: bool,
    },
    Leave,
    Rematch,
    Hint,
    /// Claim a game the other player abandoned: the win, or a draw.
    Claim {
        draw: bool,
    },
}

impl Command {
    /// Commands that change the game and so wake its AI seats.
    pub fn may_change_turn(&self) -> bool {
        !matches!(
            self,
            Command::Hint | Command::Rematch | Command::Join { .. }
        )
    }
}

/// The answer to a command, once carried out.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The ply after the change (`move`, `undo`).
    Ply(usize),
    /// The seat joined, and its new token when an invite was claimed.
    Seat(u8, Option<String>),
    Done,
    /// The rematch's id.
    Game(String),
    Hint(crate::ai::Pick),
}

/// A change to store, then apply: drop the history from `keep` on (when
/// `truncate`), append `entries`, take `game` as the new state and `meta`
/// as the new meta.
pub struct Change {
    pub keep: usize,
    pub truncate: bool,
    pub entries: Vec<Entry>,
    pub game: Option<Box<dyn AnyGame>>,
    pub meta: Option<Meta>,
    pub reply: Reply,
}

/// What a command needs from its owner beyond the round itself.
pub enum Plan {
    /// Store this change, then apply it.
    Change(Box<Change>),
    /// Nothing to store; answer at once.
    Answer(Reply),
    /// Start this new game, then record it as the rematch.
    Rematch(Box<Round>),
    /// Ask the AI about this position.
    Hint { game: Box<dyn AnyGame>, seed: u64 },
}

impl Plan {
    pub fn change(change: Change) -> Plan {
        Plan::Change(Box::new(change))
    }
}

/// A game in progress.
pub struct Round {
    pub id: String,
    pub created: i64,
    pub title: &'static str,
    pub spec: String,
    pub start: Option<String>,
    pub seed: u64,
    pub meta: Meta,
    pub game: Box<dyn AnyGame>,
    /// The game before any action, to replay from on a take-back.
    pub start_game: Box<dyn AnyGame>,
    pub history: Vec<Entry>,
    /// The chat, both rooms, oldest first.
    pub chat: Vec<ChatLine>,
    /// An AI seat is computing its move.
    pub thinking: bool,
    /// Rises on every change of the position; an AI answer computed for an
    /// older version is dropped.
    pub version: u64,
    /// The game's row version in the store, which the next write names.
    pub stored: u64,
    /// The instant (ms) of the command being planned: the owner sets it
    /// before planning, so the clocks are pure arithmetic (tests set it).
    pub now: i64,
}

/// Play `text` on `game`; its canonical text and the entry to keep.
pub fn play_entry(
    game: &mut Box<dyn AnyGame>,
    actor: Option<u8>,
    text: &str,
) -> Result<Entry, tabula_core::Error> {
    let played = game.play_text(text)?;
    Ok(Entry {
        actor,
        text: played.text,
        pos: game.position(),
        facts: played.facts,
        route: played.route,
    })
}

impl Round {
    /// A new game: `game` is the start, `history` what was played on it
    /// (an imported record).
    pub fn new(
        id: String,
        created: i64,
        title: &'static str,
        start_game: Box<dyn AnyGame>,
        start: Option<String>,
        seed: u64,
        meta: Meta,
    ) -> Round {
        Round {
            id,
            created,
            title,
            spec: start_game.spec().to_string(),
            start,
            seed,
            meta,
            game: start_game.clone(),
            start_game,
            history: Vec::new(),
            chat: Vec::new(),
            thinking: false,
            version: 0,
            stored: 0,
            now: 0,
        }
    }

    /// Replay `actions` (each with its actor) from the start; fails on the
    /// first bad one.
    pub fn replay<'a>(
        &mut self,
        actions: impl IntoIterator<Item = (Option<u8>, &'a str)>,
    ) -> Result<(), String> {
        for (i, (actor, text)) in actions.into_iter().enumerate() {
            let entry = play_entry(&mut self.game, actor, text)
                .map_err(|e| format!("action {}: {e}", i + 1))?;
            self.history.push(entry);
        }
        Ok(())
    }

    /// Take in a write made elsewhere: the actions from ply `from` on
    /// (those held from there are dropped: a take-back) and the meta. The
    /// game is rebuilt from the start only when `from` cuts into it. On an
    /// error the round is half-changed: the caller loads it whole.
    pub fn take_in(
        &mut self,
        from: usize,
        meta: Meta,
        actions: &[crate::store::StoredAction],
    ) -> Result<(), String> {
        if from > self.history.len() {
            return Err(format!(
                "ply {from} is past the {} held",
                self.history.len()
            ));
        }
        let moved = from < self.history.len() || !actions.is_empty();
        if from < self.history.len() {
            let kept: Vec<Entry> = self.history.drain(..).take(from).collect();
            self.game = self.start_game.clone();
            self.replay(kept.iter().map(|e| (e.actor, e.text.as_str())))?;
        }
        self.replay(actions.iter().map(|a| (a.actor, a.text.as_str())))?;
        self.meta = meta;
        if moved {
            // An AI answer computed for the position before is stale.
            self.version += 1;
        }
        Ok(())
    }

    /// How the game ended, on the board or off it.
    pub fn ending(&self) -> Option<Ending> {
        ending_of(self.game.as_ref(), &self.meta)
    }

    pub fn is_over(&self) -> bool {
        self.meta.end.is_some() || self.game.turn() == Turn::Over
    }

    /// The seat `caller` plays: the one of their token, else one their
    /// session owns (the seat to move first, when they own several).
    pub fn seat_of(&self, caller: &Caller) -> Result<u8, RoundError> {
        let seats = &self.meta.seats;
        if !caller.token.is_empty() {
            let hash = hash_token(&caller.token);
            if let Some(i) = seats.iter().position(|s| s.token_hash == hash) {
                return Ok(i as u8);
            }
            if seats.iter().any(|s| s.claimed.as_ref() == Some(&hash)) {
                return Err(RoundError::InviteClaimed);
            }
            return Err(RoundError::NoSeat);
        }
        let owned = self.owned_by(caller);
        match self.to_move() {
            Some(s) if owned.contains(&s) => Ok(s),
            _ => owned.first().copied().ok_or(RoundError::NoSeat),
        }
    }

    /// The seats whose owner is one of the caller's identities.
    pub fn owned_by(&self, caller: &Caller) -> Vec<u8> {
        self.meta
            .seats
            .iter()
            .enumerate()
            .filter(
                |(_, s)| matches!(s.holder(), SeatHolder::Player(id) if caller.ids.contains(id)),
            )
            .map(|(i, _)| i as u8)
            .collect()
    }

    /// The seats `caller` plays (by token or by session).
    pub fn seats_of(&self, caller: &Caller) -> Vec<u8> {
        let mut seats = self.owned_by(caller);
        if let Ok(s) = self.seat_of(&Caller::token(&caller.token)) {
            if !seats.contains(&s) {
                seats.push(s);
            }
        }
        seats.sort_unstable();
        seats
    }

    /// The seat to move, if a player is to move and the game is on.
    pub fn to_move(&self) -> Option<u8> {
        to_move(self.game.as_ref(), &self.meta)
    }

    /// The AI seat to move and its level.
    pub fn ai_to_move(&self) -> Option<(u8, AiLevel)> {
        ai_to_move(self.game.as_ref(), &self.meta)
    }

    pub fn side(&self, seat: u8) -> &'static str {
        self.game.player_name(Player(seat))
    }

    /// Plan `command` for the seat `caller` plays.
    pub fn plan(&self, caller: &Caller, command: Command) -> Result<Plan, RoundError> {
        let seat = self.seat_of(caller)?;
        if let Command::Join { name } = command {
            return self.join(seat, name, caller);
        }
        self.plan_for(seat, command)
    }

    /// Plan `command` for `seat` (the AI's moves come this way too).
    pub fn plan_for(&self, seat: u8, command: Command) -> Result<Plan, RoundError> {
        match command {
            Command::Play { action, ply } => {
                if let Some(asked) = ply {
                    if asked != self.history.len() {
                        return Err(RoundError::Stale {
                            now: self.history.len(),
                            asked,
                        });
                    }
                }
                self.play(seat, &action).map(Plan::change)
            }
            Command::Join { name } => self.join(seat, name, &Caller::default()),
            Command::Undo => self.undo(seat).map(Plan::change),
            Command::Resign => self.resign(seat).map(Plan::change),
            Command::Draw { accept } => self.draw(seat, accept).map(Plan::change),
            Command::Leave => self.leave(seat).map(Plan::change),
            Command::Claim { draw } => self.claim(seat, draw).map(Plan::change),
            Command::Rematch => Ok(match &self.meta.rematch {
                Some(id) => Plan::Answer(Reply::Game(id.clone())),
                None => Plan::Rematch(Box::new(self.rematch_round())),
            }),
            Command::Hint => {
                if !self.meta.hints_allowed() {
                    return Err(RoundError::HintsNotAllowed);
                }
                if self.to_move() != Some(seat) {
                    return Err(RoundError::HintNotYourTurn);
                }
                Ok(Plan::Hint {
                    game: self.game.clone(),
                    seed: self.seed ^ (self.history.len() as u64).rotate_left(17),
                })
            }
        }
    }

    /// Play `text` for `seat` on a copy, then roll every chance node that
    /// follows with the game's seeded dice.
    fn play(&self, seat: u8, text: &str) -> Result<Change, RoundError> {
        if self.is_over() {
            return Err(RoundError::Over);
        }
        match self.to_move() {
            Some(s) if s == seat => {}
            Some(s) => {
                return Err(RoundError::NotYourTurn {
                    side: self.side(s).to_string(),
                    seat: s,
                })
            }
            None => return Err(RoundError::NoPlayerToMove),
        }
        self.check_flag()?;
        let mut game = self.game.clone();
        let mut entries = vec![play_entry(&mut game, Some(seat), text)?];
        self.roll_chance(&mut game, &mut entries);
        let ply = self.history.len() + entries.len();
        let clocks = self.clocks_after(seat, &entries, game.as_ref())?;
        let heard = self.heard_from(seat);
        let changes = !self.meta.draw_offer.is_empty() || clocks.is_some() || heard.is_some();
        let meta = changes.then(|| {
            let mut meta = Meta {
                draw_offer: Vec::new(),
                ..self.meta.clone()
            };
            if let Some(away) = heard {
                meta.away = away;
            }
            if let Some((c, started)) = clocks {
                meta.clock = Some(c);
                meta.turn_started = started;
            }
            meta
        });
        Ok(Change {
            keep: self.history.len(),
            truncate: false,
            entries,
            game: Some(game),
            meta,
            reply: Reply::Ply(ply),
        })
    }

    /// Roll the dice while nature is to act. Each roll is seeded by the
    /// game's seed and the ply, so a take-back replays the same dice.
    fn roll_chance(&self, game: &mut Box<dyn AnyGame>, entries: &mut Vec<Entry>) {
        while game.turn() == Turn::Chance {
            let ply = (self.history.len() + entries.len()) as u64;
            let seed = self.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let Some(text) = crate::ai::roll(game.as_ref(), seed) else {
                return;
            };
            match play_entry(game, None, &text) {
                Ok(entry) => entries.push(entry),
                Err(_) => return,
            }
        }
    }

    /// Roll the dice due now (a game that opens with a roll, an imported
    /// record that stops before one).
    pub fn roll_dice(&mut self) {
        if self.meta.end.is_some() {
            return;
        }
        let mut game = self.game.clone();
        let mut entries = Vec::new();
        self.roll_chance(&mut game, &mut entries);
        self.game = game;
        self.history.extend(entries);
    }

    /// Take a seat: claiming an invite binds the seat to the caller and
    /// gives them a new token (the link is spent); joining a seat already
    /// held may rename it.
    fn join(&self, seat: u8, name: Option<String>, caller: &Caller) -> Result<Plan, RoundError> {
        let mut meta = self.meta.clone();
        let slot = &mut meta.seats[seat as usize];
        if slot.kind == SeatKind::Ai {
            return Err(RoundError::AiSeat);
        }
        let name = name
            .as_deref()
            .map(clean_name)
            .filter(|n| !n.is_empty())
            .or_else(|| caller.name.clone());
        if !slot.joined {
            slot.joined = true;
            slot.claimed = Some(std::mem::take(&mut slot.token_hash));
            slot.owner = caller.ids.first().cloned();
            if let Some(n) = name {
                slot.name = n;
            }
            let token = slot.new_token();
            return Ok(Plan::change(
                self.meta_change(meta, Reply::Seat(seat, Some(token))),
            ));
        }
        match name {
            Some(n) if n != slot.name => {
                slot.name = n;
                Ok(Plan::change(
                    self.meta_change(meta, Reply::Seat(seat, None)),
                ))
            }
            _ => Ok(Plan::Answer(Reply::Seat(seat, None))),
        }
    }

    /// Show `name` on the seats of `owners` and rebind them (an account was
    /// made from a guest, or deleted). `None`: nothing to do.
    pub fn rename(&self, owners: &[PlayerId], name: &str, rebind: &Rebind) -> Option<Change> {
        let mut meta = self.meta.clone();
        let mut changed = false;
        for seat in &mut meta.seats {
            if seat.owner.as_ref().is_some_and(|o| owners.contains(o)) {
                seat.name = name.to_string();
                match rebind {
                    Rebind::To(owner) => seat.owner = Some(owner.clone()),
                    Rebind::Release => {
                        seat.owner = None;
                        seat.token_hash.clear();
                    }
                }
                changed = true;
            }
        }
        changed.then(|| self.meta_change(meta, Reply::Done))
    }

    /// Check a chat line of `caller` for `room`: players write in theirs,
    /// signed-in or guest spectators in theirs.
    pub fn chat_line(
        &self,
        caller: &Caller,
        room: Room,
        text: &str,
        now: i64,
    ) -> Result<ChatLine, RoundError> {
        if self.chat.len() >= CHAT_KEPT {
            return Err(RoundError::BadRequest(format!(
                "this game's chat is full ({CHAT_KEPT} messages)"
            )));
        }
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        let text = text.trim();
        if text.is_empty() {
            return Err(RoundError::BadRequest("an empty chat message".into()));
        }
        if text.chars().count() > CHAT_MAX_CHARS {
            return Err(RoundError::BadRequest(format!(
                "a chat message has at most {CHAT_MAX_CHARS} characters"
            )));
        }
        let seat = self.seat_of(caller).ok();
        let name = match (room, seat) {
            (Room::Players, Some(s)) => seat_label(&self.meta.seats[s as usize], self.side(s)),
            (Room::Players, None) => return Err(RoundError::PlayersChat),
            (Room::Spectators, Some(_)) => return Err(RoundError::SpectatorsChat),
            (Room::Spectators, None) if caller.ids.is_empty() => {
                return Err(RoundError::ChatNeedsSession)
            }
            (Room::Spectators, None) => caller.name.clone().unwrap_or_else(|| "Guest".into()),
        };
        Ok(ChatLine {
            room,
            at: now,
            name,
            user: caller.name.as_ref().map(|n| n.to_lowercase()),
            text: text.to_string(),
        })
    }

    /// Whether the players may read spectators' line `line` now.
    pub fn hidden_from_players(&self, line: &ChatLine) -> bool {
        line.room == Room::Spectators && !self.is_over()
    }

    /// The chat as `player` (or a spectator) may read it.
    pub fn chat_for(&self, player: bool) -> Vec<ChatLine> {
        self.chat
            .iter()
            .filter(|l| !(player && self.hidden_from_players(l)))
            .cloned()
            .collect()
    }

    /// Take back the requester's last action (and what followed it): only
    /// the AI or chance may have acted since, unless another human plays
    /// here: then only inside the requester's own turn.
    fn undo(&self, seat: u8) -> Result<Change, RoundError> {
        if self.meta.end.is_some() {
            return Err(RoundError::EndedOffBoard);
        }
        let last = self
            .history
            .iter()
            .rposition(|e| e.actor == Some(seat))
            .ok_or(RoundError::NothingToUndo)?;
        let other_humans = self
            .meta
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| i != seat as usize && s.kind == SeatKind::Human);
        let since_ok = self.history[last + 1..].iter().all(|e| match e.actor {
            None => true,
            Some(a) => self.meta.seats[a as usize].kind == SeatKind::Ai,
        });
        let own_turn = last + 1 == self.history.len() && self.to_move() == Some(seat);
        if !(own_turn || (!other_humans && since_ok)) {
            return Err(RoundError::UndoNotAllowed);
        }
        if self.meta.clock.is_some() {
            return Err(RoundError::UndoTimed);
        }
        if self.meta.rated {
            return Err(RoundError::UndoNotAllowed);
        }
        let mut game = self.start_game.clone();
        for e in &self.history[..last] {
            game.apply_text(&e.text)?;
        }
        Ok(Change {
            keep: last,
            truncate: true,
            entries: Vec::new(),
            game: Some(game),
            meta: Some(Meta {
                draw_offer: Vec::new(),
                ..self.meta.clone()
            }),
            reply: Reply::Ply(last),
        })
    }

    pub(crate) fn resign(&self, seat: u8) -> Result<Change, RoundError> {
        if self.is_over() {
            return Err(RoundError::Over);
        }
        if self.meta.seats.len() != 2 {
            return Err(RoundError::ResignThreePlayers);
        }
        Ok(self.finish(Outcome::Win(Player(1 - seat)), EndReason::Resign))
    }

    /// When every seat agrees the game is drawn; the AI never does.
    fn draw(&self, seat: u8, accept: bool) -> Result<Change, RoundError> {
        if self.is_over() {
            return Err(RoundError::Over);
        }
        let mut meta = self.meta.clone();
        if !accept {
            meta.draw_offer.clear();
            return Ok(self.meta_change(meta, Reply::Done));
        }
        if meta.seats.iter().any(|x| x.kind == SeatKind::Ai) {
            return Err(RoundError::AiDeclinesDraw);
        }
        if !meta.draw_offer.contains(&seat) {
            meta.draw_offer.push(seat);
        }
        if meta.draw_offer.len() == meta.seats.len() {
            return Ok(self.finish(
                Outcome::Draw(PlayerSet::all(self.game.num_players())),
                EndReason::Agreement,
            ));
        }
        Ok(self.meta_change(meta, Reply::Done))
    }

    /// Leave: a two-player game ends (the other side wins); in a game of
    /// three an AI stand-in takes the seat and plays on, without a clock
    /// (the AI owes nobody time, and its flag must not end the game).
    pub(crate) fn leave(&self, seat: u8) -> Result<Change, RoundError> {
        if self.is_over() {
            return Err(RoundError::Over);
        }
        if self.meta.seats.len() == 2 {
            return Ok(self.finish(Outcome::Win(Player(1 - seat)), EndReason::Left));
        }
        let mut meta = self.meta.clone();
        let slot = &mut meta.seats[seat as usize];
        slot.kind = SeatKind::Ai;
        slot.level = Some(STAND_IN_LEVEL);
        slot.new_token();
        meta.draw_offer.retain(|&x| x != seat);
        if !meta.left.contains(&seat) {
            meta.left.push(seat);
        }
        if let Some(c) = meta.clock.as_mut() {
            let _ = c.set_untimed(seat as usize);
        }
        Ok(self.meta_change(meta, Reply::Done))
    }

    /// The one way a game ends off the board: every off-board ending is
    /// this change (the board's own endings need no change: the position
    /// says it). [`Round::apply`] then reports it as [`GameEnded`].
    pub fn finish(&self, outcome: Outcome, reason: EndReason) -> Change {
        let meta = Meta {
            end: Some(Ending { outcome, reason }),
            draw_offer: Vec::new(),
            clock: self.stopped_clocks(),
            ..self.meta.clone()
        };
        self.meta_change(meta, Reply::Done)
    }

    pub(crate) fn meta_change(&self, meta: Meta, reply: Reply) -> Change {
        Change {
            keep: self.history.len(),
            truncate: false,
            entries: Vec::new(),
            game: None,
            meta: Some(meta),
            reply,
        }
    }

    /// A new game with the same rules, the seats moved round by one (the
    /// players keep their tokens and owners).
    fn rematch_round(&self) -> Round {
        let mut seats = self.meta.seats.clone();
        seats.rotate_right(1);
        for seat in &mut seats {
            seat.joined = seat.kind == SeatKind::Ai || seat.owner.is_some();
            seat.claimed = None;
        }
        Round::new(
            crate::common::random_id(),
            self.now,
            self.title,
            self.start_game.clone(),
            self.start.clone(),
            rand::random(),
            Meta {
                seats,
                hints: self.meta.hints,
                rated: self.meta.rated,
                clock: self
                    .meta
                    .clock
                    .as_ref()
                    .and_then(|c| tabula_clock::Clocks::new(c.control(), c.seats()).ok()),
                ..Meta::default()
            },
        )
    }

    /// Take a stored change in; the game's end if this change ended it.
    pub fn apply(&mut self, change: Change) -> Option<GameEnded> {
        let was_over = self.is_over();
        if change.truncate {
            self.history.truncate(change.keep);
        }
        let moved = change.game.is_some();
        if let Some(game) = change.game {
            self.game = game;
        }
        self.history.extend(change.entries);
        if let Some(meta) = change.meta {
            self.meta = meta;
        }
        if moved {
            self.meta.draw_offer.clear();
            self.version += 1;
        }
        if was_over {
            return None;
        }
        self.ending().map(|ending| self.ended(ending))
    }

    /// The seat that never made its first move, in an aborted game.
    fn no_show(&self, ending: &Ending) -> Option<u8> {
        match (ending.reason, self.game.turn()) {
            (EndReason::Aborted, Turn::Player(p)) => Some(p.0),
            _ => None,
        }
    }

    /// Seats whose player walked away: left the game (an AI stand-in
    /// finished it) or never made a first move. A tournament withdraws them.
    pub fn absent(&self, ending: &Ending) -> Vec<u8> {
        let mut seats = self.meta.left.clone();
        seats.extend(self.no_show(ending).filter(|s| !seats.contains(s)));
        seats
    }

    /// Each seat's place in the game's `ending` (see [`super::finish::places`]).
    pub fn places(&self, ending: &Ending) -> Vec<u8> {
        let no_show = self.no_show(ending);
        let out = self.eliminations();
        let how = super::finish::Standing {
            left: &self.meta.left,
            no_show,
            out: &out,
        };
        super::finish::places(ending, self.meta.seats.len(), &how)
    }

    /// The ply at which each seat dropped out of the game, if it did: the
    /// history replayed, only when someone is out at the end.
    fn eliminations(&self) -> Vec<Option<usize>> {
        let n = self.meta.seats.len();
        let mut out = vec![None; n];
        let seat = |i: usize| tabula_core::Player(i as u8);
        if (0..n).all(|i| self.game.in_play(seat(i))) {
            return out;
        }
        let mut game = self.start_game.clone_box();
        for (ply, entry) in self.history.iter().enumerate() {
            if game.apply_text(&entry.text).is_err() {
                break;
            }
            for (i, o) in out.iter_mut().enumerate() {
                if o.is_none() && !game.in_play(seat(i)) {
                    *o = Some(ply + 1);
                }
            }
        }
        out
    }

    /// The game's ending as announced when it ended, if it is over.
    pub fn ended_now(&self) -> Option<GameEnded> {
        ending_of(self.game.as_ref(), &self.meta).map(|e| self.ended(e))
    }

    fn ended(&self, ending: Ending) -> GameEnded {
        GameEnded {
            id: self.id.clone(),
            spec: self.spec.clone(),
            places: self.places(&ending),
            absent: self.absent(&ending),
            ending,
            seats: players_and_leavers(&self.meta, |i| self.side(i)),
            left: self.meta.left.clone(),
            ply: self.history.len(),
            rated: self.meta.rated,
            correspondence: self
                .meta
                .clock
                .as_ref()
                .is_some_and(|c| c.control().is_correspondence()),
        }
    }
}

/// How a game in state `game` with `meta` ended, on the board or off it.
pub fn ending_of(game: &dyn AnyGame, meta: &Meta) -> Option<Ending> {
    meta.end.or_else(|| {
        game.outcome().map(|outcome| Ending {
            outcome,
            reason: EndReason::Board,
        })
    })
}

/// The seat to move in `game` with `meta`, if a player is to move and the
/// game is on.
pub fn to_move(game: &dyn AnyGame, meta: &Meta) -> Option<u8> {
    match (meta.end.is_some(), game.turn()) {
        (false, Turn::Player(p)) => Some(p.0),
        _ => None,
    }
}

/// The AI seat to move in `game` with `meta`, and its level.
pub fn ai_to_move(game: &dyn AnyGame, meta: &Meta) -> Option<(u8, AiLevel)> {
    let seat = to_move(game, meta)?;
    let s = meta.seats.get(seat as usize)?;
    (s.kind == SeatKind::Ai).then(|| (seat, s.level.unwrap_or(STAND_IN_LEVEL)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round(spec: &str, seats: usize) -> Round {
        let game = tabula_games::registry()
            .create(spec, None)
            .expect("a registered game");
        let seats = (0..seats).map(|i| Seat::human(&format!("t{i}"))).collect();
        let meta = Meta {
            seats,
            ..Meta::default()
        };
        Round::new("g".into(), 0, "Game", game, None, 1, meta)
    }

    fn change(plan: Result<Plan, RoundError>) -> Change {
        match plan {
            Ok(Plan::Change(c)) => *c,
            Err(e) => panic!("refused: {e}"),
            Ok(_) => panic!("not a change"),
        }
    }

    #[test]
    fn every_end_reason_ends_the_game_once() {
        for reason in EndReason::ALL
            .into_iter()
            .filter(|&r| r != EndReason::Board)
        {
            let mut r = round("phylde", 2);
            let ended = r.apply(r.finish(Outcome::Win(Player(1)), reason));
            let ended = ended.expect("the game ended");
            assert_eq!(ended.ending.reason, reason);
            assert_eq!(r.state().result.map(|x| x.reason), Some(reason));
            assert!(r.is_over() && r.to_move().is_none());
            // Already over: nothing more ends it, nothing more is played.
            assert!(r.apply(r.finish(Outcome::Win(Player(0)), reason)).is_none());
            let legal = r.game.legal_actions();
            let play = Command::Play {
                action: legal[0].clone(),
                ply: None,
            };
            assert!(matches!(
                r.plan(&Caller::token("t0"), play),
                Err(RoundError::Over)
            ));
            assert_eq!(reason.as_str().parse::<EndReason>(), Ok(reason));
        }
    }

    #[test]
    fn an_eliminated_seat_ranks_behind_those_still_in() {
        // Gildervaik warrior: every move of A takes B's last pawn (spec E3).
        let game = tabula_games::registry()
            .create("gildervaik(mode=warrior)", Some("A:e5,h3 B:e6 C:f8,h2 / A"))
            .expect("position");
        let mut r = round("gildervaik(mode=warrior)", 3);
        r.game = game.clone();
        r.start_game = game;
        let action = r.game.legal_actions()[0].clone();
        let c = change(r.plan(&Caller::token("t0"), Command::Play { action, ply: None }));
        assert!(r.apply(c).is_none(), "the game goes on");
        assert_eq!(r.eliminations(), vec![None, Some(1), None]);
        let ended = r.apply(r.finish(Outcome::Win(Player(0)), EndReason::Agreement));
        assert_eq!(ended.expect("over").places, vec![0, 2, 1]);
        let c_won = Ending {
            outcome: Outcome::Win(Player(2)),
            reason: EndReason::Agreement,
        };
        assert_eq!(r.places(&c_won), vec![1, 2, 0]);
    }

    #[test]
    fn a_board_ending_is_announced_by_the_move_that_makes_it() {
        // Dragonchess, Gold to mate in one (29 moves, one mates).
        let position =
            "12/12/12/3r8/12/12/12/12|7k4/12/12/12/4W7/12/2w9/K11|12/12/12/12/12/12/1b10/12 s 0 1";
        let game = tabula_games::registry()
            .create("dragonchess", Some(position))
            .expect("position");
        let mut mates = 0;
        for action in game.legal_actions() {
            let mut r = round("dragonchess", 2);
            r.game = game.clone();
            r.start_game = game.clone();
            let mover = r.to_move().expect("a player to move");
            let token = format!("t{mover}");
            let c = change(r.plan(&Caller::token(&token), Command::Play { action, ply: None }));
            if let Some(ended) = r.apply(c) {
                mates += 1;
                assert_eq!(ended.ending.reason, EndReason::Board);
                assert_eq!(ended.ending.outcome, Outcome::Win(Player(mover)));
            }
        }
        assert_eq!(mates, 1);
    }

    #[test]
    fn refusals_change_nothing_and_say_why() {
        let r = round("phylde", 2);
        let before = r.view(0);
        let cases = [
            ("nobody", Command::Undo, RoundError::NoSeat),
            ("t1", Command::Undo, RoundError::NothingToUndo),
            ("t1", Command::Hint, RoundError::HintsNotAllowed),
        ];
        for (token, command, expected) in cases {
            assert_eq!(r.plan(&Caller::token(token), command).err(), Some(expected));
        }
        let play = Command::Play {
            action: "zz".into(),
            ply: Some(3),
        };
        assert!(matches!(
            r.plan(&Caller::token("t0"), play),
            Err(RoundError::Stale { now: 0, asked: 3 })
        ));
        let play = Command::Play {
            action: "zz".into(),
            ply: None,
        };
        assert!(matches!(
            r.plan(&Caller::token("t0"), play),
            Err(RoundError::Rules(_))
        ));
        assert!(matches!(
            r.plan(
                &Caller::token("t1"),
                Command::Play {
                    action: r.game.legal_actions()[0].clone(),
                    ply: None
                }
            ),
            Err(RoundError::NotYourTurn { seat: 0, .. })
        ));
        assert_eq!(r.view(0), before);
    }

    /// A copy kept up to date only by the deltas of another's writes (what
    /// an instance does with the notes of another) stays equal to it,
    /// through moves, a take-back and a bad delta that changes nothing.
    #[test]
    fn a_round_kept_by_deltas_equals_the_original() {
        use crate::store::StoredAction;
        let mut original = round("dragonchess", 2);
        let mut copy = round("dragonchess", 2);
        let tail = |r: &Round, from: usize| -> Vec<StoredAction> {
            r.history[from..]
                .iter()
                .map(|e| StoredAction {
                    actor: e.actor,
                    text: e.text.clone(),
                })
                .collect()
        };
        for i in 0..40 {
            let from = original.history.len();
            let legal = original.game.legal_actions();
            let action = legal[(i * 7) % legal.len()].clone();
            let token = format!("t{}", original.to_move().expect("a player to move"));
            let c =
                change(original.plan(&Caller::token(&token), Command::Play { action, ply: None }));
            original.apply(c);
            let before = copy.version;
            copy.take_in(from, original.meta.clone(), &tail(&original, from))
                .expect("a delta");
            assert!(copy.version > before, "an AI answer for before is stale");
            assert_eq!(copy.view(0), original.view(0));
        }
        // A take-back: the actions from ply 31 on are dropped.
        original.history.truncate(31);
        original.game = original.start_game.clone();
        let kept: Vec<_> = original.history.drain(..).collect();
        original
            .replay(kept.iter().map(|e| (e.actor, e.text.as_str())))
            .expect("replay");
        copy.take_in(31, original.meta.clone(), &[])
            .expect("a take-back");
        assert_eq!(copy.view(0), original.view(0));
        assert_eq!(copy.game.position(), original.game.position());
        // A delta from past what is held is refused.
        assert!(copy.take_in(40, original.meta.clone(), &[]).is_err());
        let bad = [StoredAction {
            actor: Some(0),
            text: "zz".into(),
        }];
        assert!(copy.take_in(31, original.meta.clone(), &bad).is_err());
    }

    /// What a watcher gets for one move stays small at any ply, in every
    /// game: the new actions and the state, never the history. Random
    /// games up to 2,000 plies (the largest update is printed). Besides
    /// the legal actions (and Gildervaik's `routes`, the cells of each
    /// legal chain jump), which are the position's and do not grow with
    /// the game, it stays under 4 KB; with them, a crowded Phylde or
    /// Gildervaik position can pass it.
    #[test]
    fn one_move_updates_stay_under_4_kb_at_any_ply() {
        use rand::{Rng, SeedableRng};
        let registry = tabula_games::registry();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for entry in registry.entries() {
            let players = registry
                .create(entry.name, None)
                .expect("a game")
                .num_players();
            let (mut largest, mut at, mut with_legal) = (0, 0, 0);
            for _ in 0..3 {
                let mut r = round(entry.name, players);
                r.roll_dice();
                while r.history.len() < 2_000 {
                    let Some(seat) = r.to_move() else { break };
                    let legal = r.game.legal_actions();
                    let from = r.history.len();
                    let action = legal[rng.gen_range(0..legal.len())].clone();
                    let play = Command::Play { action, ply: None };
                    let c = change(r.plan(&Caller::token(&format!("t{seat}")), play));
                    r.apply(c);
                    let mut view = r.view(from);
                    let text = crate::protocol::ServerMessage::Update(view.clone()).to_json();
                    with_legal = with_legal.max(text.len());
                    view.state.routes.clear();
                    view.state.legal.clear();
                    let text = crate::protocol::ServerMessage::Update(view).to_json();
                    if text.len() > largest {
                        (largest, at) = (text.len(), from);
                    }
                }
            }
            eprintln!(
                "{}: largest one-move update {with_legal} bytes; without the legal actions {largest} (at ply {at})",
                entry.name
            );
            assert!(
                largest <= 4096,
                "{}: {largest} bytes at ply {at}",
                entry.name
            );
        }
    }
}
