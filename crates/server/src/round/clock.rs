//! Time in a game: the clocks of its time control, first-move limits
//! (aborts), and abandonment claims, as pure methods of [`Round`] over
//! `round.now` (the owner sets it before planning). The arithmetic is
//! `tabula_clock`'s; this is where the game says when a turn ends: after
//! the mover's last action of the turn, with the server's dice rolls in
//! between costing nothing.

use super::state::{Change, Meta, Round, SeatKind};
use super::{EndReason, RoundError};
use crate::protocol::ClockInfo;
use tabula_clock::abandon::{self, Presence};
use tabula_clock::Clocks;
use tabula_core::{AnyGame, Outcome, Player, PlayerSet};

impl Round {
    /// Refuse a move that comes on or after the mover's flag.
    pub(crate) fn check_flag(&self) -> Result<(), RoundError> {
        match &self.meta.clock {
            Some(c) if c.check(self.now as u64).is_some() => Err(RoundError::Flagged),
            _ => Ok(()),
        }
    }

    /// The clocks after `seat` played `entries` (reaching `game`), when its
    /// turn ended: its time charged and the increment added, the next
    /// seat's clock started; with when that turn began. `None`: no clock,
    /// or the turn goes on (several actions a turn).
    pub(crate) fn clocks_after(
        &self,
        seat: u8,
        entries: &[super::Entry],
        game: &dyn AnyGame,
    ) -> Result<Option<(Clocks, Option<i64>)>, RoundError> {
        let Some(clocks) = &self.meta.clock else {
            return Ok(None);
        };
        let next = super::state::to_move(game, &self.meta);
        let rolled = entries.iter().any(|e| e.actor.is_none());
        if next == Some(seat) && !rolled {
            return Ok(None);
        }
        let mut clocks = clocks.clone();
        let now = self.now as u64;
        clocks.end_turn(now).map_err(|_| RoundError::Flagged)?;
        let started = match next {
            Some(n) => {
                let _ = clocks.start(n as usize, now);
                Some(self.now)
            }
            None => None,
        };
        Ok(Some((clocks, started)))
    }

    /// The clocks stopped now (the game ends).
    pub(crate) fn stopped_clocks(&self) -> Option<Clocks> {
        let mut clocks = self.meta.clock.clone()?;
        let _ = clocks.pause(self.now as u64);
        Some(clocks)
    }

    /// What must happen at `self.now` on time: a flag fell (two players:
    /// the other wins; three: the flagged player leaves and an AI plays on),
    /// a first move never came (the game is aborted), or every player left
    /// a real-time game (a draw for all, reason `abandoned`).
    pub fn timeout(&self) -> Option<Change> {
        if self.is_over() {
            return None;
        }
        let now = self.now as u64;
        let clocks = self.meta.clock.as_ref()?;
        if let Some(seat) = clocks.check(now) {
            let seat = seat as u8;
            if self.meta.seats.len() == 2 {
                return Some(self.finish(Outcome::Win(Player(1 - seat)), EndReason::Time));
            }
            return self.leave(seat).ok();
        }
        let all = || Outcome::Draw(PlayerSet::all(self.game.num_players()));
        if self.first_move_missed(clocks, now) {
            return Some(self.finish(all(), EndReason::Aborted));
        }
        let gone = all_away_deadline(self.game.as_ref(), &self.meta, clocks);
        if gone.is_some_and(|d| self.now >= d) {
            return Some(self.finish(all(), EndReason::Abandoned));
        }
        None
    }

    /// Whether the human seat to move has missed its first-move limit.
    fn first_move_missed(&self, clocks: &Clocks, now: u64) -> bool {
        let Some(seat) = self.to_move() else {
            return false;
        };
        let human = self
            .meta
            .seats
            .get(seat as usize)
            .is_some_and(|s| s.kind == SeatKind::Human);
        let first_move = clocks.turns(seat as usize) == 0;
        let Some(started) = self.meta.turn_started else {
            return false;
        };
        let control = clocks.control();
        human && first_move && abandon::abort_due(Some(&control), 0, started as u64, now)
    }

    /// The next instant something happens on time (a flag, an abort), if
    /// any; stored with the game so a sweep finds it when nobody watches.
    pub fn deadline(&self) -> Option<i64> {
        deadline_of(self.game.as_ref(), &self.meta)
    }

    /// The clocks as clients see them now.
    pub fn clock_info(&self) -> Option<ClockInfo> {
        let clocks = self.meta.clock.as_ref()?;
        let snap = clocks.snapshot(self.now.max(0) as u64);
        Some(ClockInfo {
            control: clocks.control(),
            remaining_ms: snap.remaining_ms,
            running: if self.is_over() {
                None
            } else {
                snap.running.map(|s| s as u8)
            },
            at: self.now,
            first_move_by: self
                .deadline()
                .filter(|_| snap.running.is_none() && !self.is_over()),
        })
    }

    /// Since when each seat's player has been away (`None`: connected),
    /// one entry per seat: a seat nobody has opened yet is away since the
    /// start.
    fn away_by_seat(&self) -> Vec<Option<i64>> {
        let mut away = self.meta.away.clone();
        away.resize(self.meta.seats.len(), Some(self.created));
        away
    }

    /// The seats' presence for abandonment rules (AI seats always here).
    fn presence(&self) -> Vec<Presence> {
        self.away_by_seat()
            .into_iter()
            .zip(&self.meta.seats)
            .map(|(away, seat)| Presence {
                connected: seat.kind == SeatKind::Ai || away.is_none(),
                last_seen_ms: away.unwrap_or(self.now).max(0) as u64,
            })
            .collect()
    }

    /// Claim the win (or a draw) of a game the other player abandoned: in
    /// a game without a clock or by correspondence, the other player has
    /// been away for the silence limit.
    pub(crate) fn claim(&self, seat: u8, draw: bool) -> Result<Change, RoundError> {
        if self.is_over() {
            return Err(RoundError::Over);
        }
        let control = self.meta.clock.as_ref().map(Clocks::control);
        let presence = self.presence();
        if !abandon::may_claim(control.as_ref(), &presence, seat as usize, self.now as u64) {
            return Err(RoundError::NoClaim);
        }
        if self.meta.seats.len() != 2 {
            // Three players: the absent one leaves; an AI plays on.
            let gone = abandon::abandoned(control.as_ref(), &presence, self.now as u64);
            let absent = gone
                .into_iter()
                .find(|&s| s != seat as usize)
                .ok_or(RoundError::NoClaim)?;
            return self.leave(absent as u8);
        }
        let outcome = if draw {
            Outcome::Draw(PlayerSet::all(2))
        } else {
            Outcome::Win(Player(seat))
        };
        Ok(self.finish(outcome, EndReason::Abandoned))
    }

    /// The seats' absences once `seat` has been heard from now (a move is
    /// not silence, even without a live channel: a player moving by token
    /// has not abandoned the game); `None` if nothing changes.
    pub(crate) fn heard_from(&self, seat: u8) -> Option<Vec<Option<i64>>> {
        if self.meta.seats.get(seat as usize)?.kind != SeatKind::Human {
            return None;
        }
        let mut away = self.away_by_seat();
        let slot = away.get_mut(seat as usize)?;
        // Connected, or already heard from now: nothing changes.
        if !slot.is_some_and(|since| since < self.now) {
            return None;
        }
        *slot = Some(self.now);
        Some(away)
    }

    /// The meta with `seat`'s presence changed (`here`), if it changes.
    pub fn presence_change(&self, seat: u8, here: bool) -> Option<Change> {
        if self.is_over() || self.meta.seats.get(seat as usize)?.kind != SeatKind::Human {
            return None;
        }
        let mut away = self.away_by_seat();
        let slot = away.get_mut(seat as usize)?;
        let next = if here { None } else { Some(self.now) };
        if slot.is_none() == here {
            return None;
        }
        *slot = next;
        let meta = Meta {
            away,
            ..self.meta.clone()
        };
        Some(self.meta_change(meta, super::Reply::Done))
    }
}

impl Round {
    /// Start the clocks of `control` now: AI seats untimed, the seat to
    /// move (if any) running.
    pub fn start_clocks(&mut self, control: tabula_clock::TimeControl) {
        let Ok(mut clocks) = Clocks::new(control, self.meta.seats.len()) else {
            return;
        };
        for (i, seat) in self.meta.seats.iter().enumerate() {
            if seat.kind == SeatKind::Ai {
                let _ = clocks.set_untimed(i);
            }
        }
        if let Some(seat) = self.to_move() {
            let _ = clocks.start(seat as usize, self.now.max(0) as u64);
            self.meta.turn_started = Some(self.now);
        }
        self.meta.clock = Some(clocks);
    }
}

/// The next instant something happens on time in `game` with `meta`.
pub fn deadline_of(game: &dyn AnyGame, meta: &Meta) -> Option<i64> {
    if meta.end.is_some() || game.turn() == tabula_core::Turn::Over {
        return None;
    }
    let clocks = meta.clock.as_ref()?;
    let flag = clocks.deadline().map(|d| d as i64);
    let abort = super::state::to_move(game, meta).and_then(|seat| {
        let human = meta.seats.get(seat as usize)?.kind == SeatKind::Human;
        let started = meta.turn_started?.max(0) as u64;
        let control = clocks.control();
        let d = abandon::abort_deadline(Some(&control), clocks.turns(seat as usize), started)?;
        human.then_some(d as i64)
    });
    flag.into_iter()
        .chain(abort)
        .chain(all_away_deadline(game, meta, clocks))
        .min()
}

/// When a real-time game every player has left ends
/// ([`abandon::all_away_deadline`]), over the human seats of `meta`; a
/// seat never connected counts as away since before the turn began. Only
/// while a person is to move: an AI seat ends its turn by itself.
fn all_away_deadline(game: &dyn AnyGame, meta: &Meta, clocks: &Clocks) -> Option<i64> {
    let mover = super::state::to_move(game, meta)?;
    if meta.seats.get(mover as usize)?.kind != SeatKind::Human {
        return None;
    }
    let started = meta.turn_started?.max(0) as u64;
    let away: Vec<Option<u64>> = meta
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == SeatKind::Human)
        .map(|(i, _)| match meta.away.get(i) {
            Some(since) => since.map(|t| t.max(0) as u64),
            None => Some(0),
        })
        .collect();
    let control = clocks.control();
    abandon::all_away_deadline(Some(&control), started, &away).map(|d| d as i64)
}

#[cfg(test)]
mod tests {
    use super::super::state::{Caller, Command, Plan, Seat};
    use super::*;
    use tabula_clock::TimeControl;

    fn round(spec: &str) -> Round {
        let game = tabula_games::registry()
            .create(spec, None)
            .expect("a registered game");
        let seats = (0..game.num_players())
            .map(|i| Seat::human(&format!("t{i}")))
            .collect();
        let meta = Meta {
            seats,
            ..Meta::default()
        };
        let mut r = Round::new("g".into(), 0, "Game", game, None, 1, meta);
        r.roll_dice();
        r
    }

    fn timed(spec: &str, control: TimeControl) -> Round {
        let mut r = round(spec);
        r.start_clocks(control);
        r
    }

    /// Play the first legal action of the seat to move at `now`.
    fn play(r: &mut Round, now: i64) -> Result<(), RoundError> {
        r.now = now;
        let seat = r.to_move().expect("someone to move");
        let action = r.game.legal_actions()[0].clone();
        let caller = Caller::token(&format!("t{seat}"));
        match r.plan(&caller, Command::Play { action, ply: None })? {
            Plan::Change(c) => {
                r.apply(*c);
                Ok(())
            }
            _ => panic!("a move is a change"),
        }
    }

    fn left(r: &Round, seat: usize) -> u64 {
        r.meta
            .clock
            .as_ref()
            .expect("clocks")
            .remaining(seat, r.now as u64)
    }

    #[test]
    fn a_turn_costs_its_time_and_earns_the_increment_first_turns_are_free() {
        let mut r = timed("dragonchess", TimeControl::realtime(180, 2).expect("3+2"));
        play(&mut r, 1_000).expect("gold's first move");
        play(&mut r, 2_500).expect("scarlet's first move");
        // Gold's clock runs from 2.5 s; 5 s later: 180 - 5 + 2.
        play(&mut r, 7_500).expect("gold's second move");
        assert_eq!(left(&r, 0), 177_000);
        assert_eq!(left(&r, 1), 180_000);
        r.now = 8_500;
        assert_eq!(left(&r, 1), 179_000, "scarlet's time goes down now");
        let info = r.clock_info().expect("clock info");
        assert_eq!(info.running, Some(1));
        assert_eq!(info.remaining_ms, vec![Some(177_000), Some(179_000)]);
    }

    #[test]
    fn the_flag_falls_at_exactly_zero_and_a_move_one_ms_late_is_refused() {
        let mut r = timed("dragonchess", TimeControl::realtime(60, 0).expect("1+0"));
        play(&mut r, 0).expect("first");
        play(&mut r, 0).expect("first");
        // Gold has 60 s from t = 0.
        assert_eq!(r.deadline(), Some(60_000));
        let mut late = r.clone_for_test();
        assert!(play(&mut late, 60_001).is_err_and(|e| e == RoundError::Flagged));
        let mut exact = r.clone_for_test();
        assert_eq!(play(&mut exact, 60_000), Err(RoundError::Flagged));
        let mut in_time = r.clone_for_test();
        play(&mut in_time, 59_999).expect("1 ms to spare");
        assert_eq!(left(&in_time, 0), 1);
        r.now = 59_999;
        assert!(r.timeout().is_none());
        r.now = 60_000;
        let change = r.timeout().expect("the flag fell");
        let ended = r.apply(change).expect("the game ends");
        assert_eq!(ended.ending.outcome, Outcome::Win(Player(1)));
        assert_eq!(ended.ending.reason, EndReason::Time);
        assert_eq!(r.clock_info().and_then(|c| c.running), None);
        assert_eq!(r.deadline(), None);
    }

    #[test]
    fn a_turn_of_several_actions_is_charged_once_and_dice_cost_nothing() {
        // Phylde: up to five pieces a turn, one clock charge.
        let mut r = timed("phylde", TimeControl::realtime(300, 5).expect("5+5"));
        for t in [0, 0] {
            let seat = r.to_move();
            while r.to_move() == seat {
                play(&mut r, t).expect("first turn");
            }
        }
        // Find a turn of several actions (early turns may have one).
        let mut t = 0;
        let mut checked = false;
        for _ in 0..20 {
            let mover = r.to_move().expect("a seat");
            let before = left(&r, mover as usize);
            t += 10_000;
            play(&mut r, t).expect("the turn's first action");
            if r.to_move() != Some(mover) {
                continue;
            }
            let running = r.meta.clock.as_ref().and_then(Clocks::running);
            assert_eq!(running, Some(mover as usize), "the turn goes on");
            t += 10_000;
            while r.to_move() == Some(mover) {
                play(&mut r, t).expect("the turn's other actions");
            }
            assert_eq!(left(&r, mover as usize), before - 20_000 + 5_000);
            checked = true;
            break;
        }
        assert!(checked, "no turn of several actions in 20 turns");

        // Ad Elta Stelpur: the server's roll between turns takes no time.
        let mut r = timed("stelpur", TimeControl::realtime(60, 1).expect("1+1"));
        t = 0;
        for _ in 0..6 {
            t += 1_000;
            let seat = r.to_move();
            while r.to_move() == seat && !r.is_over() {
                play(&mut r, t).expect("a move");
            }
            if r.is_over() {
                break;
            }
            let next = r.to_move().expect("after the roll, a player");
            let c = r.meta.clock.as_ref().expect("clocks");
            assert_eq!(c.running(), Some(next as usize));
            // Its clock started at the move before the roll: the roll took
            // none of its time.
            if let Some(deadline) = c.deadline() {
                assert_eq!(deadline, t as u64 + c.remaining(next as usize, t as u64));
            }
            assert_eq!(r.meta.turn_started, Some(t));
        }
    }

    #[test]
    fn a_restart_in_the_middle_of_a_turn_keeps_the_time() {
        let mut r = timed("dragonchess", TimeControl::realtime(180, 2).expect("3+2"));
        play(&mut r, 0).expect("first");
        play(&mut r, 0).expect("first");
        play(&mut r, 4_000).expect("gold");
        // Scarlet thinks; the server stops and starts again (the meta is
        // what the store keeps).
        let stored = serde_json::to_string(&r.meta).expect("json");
        let mut back = round("dragonchess");
        back.meta = serde_json::from_str(&stored).expect("meta");
        back.game = r.game.clone();
        back.history = r.history.clone();
        back.now = 9_000;
        r.now = 9_000;
        assert_eq!(left(&back, 1), left(&r, 1));
        play(&mut back, 9_000).expect("scarlet, after the restart");
        play(&mut r, 9_000).expect("scarlet, without");
        assert_eq!(back.meta.clock, r.meta.clock);
        assert_eq!(left(&back, 1), 180_000 - 5_000 + 2_000);
    }

    #[test]
    fn a_first_move_that_never_comes_aborts_the_game() {
        let mut r = timed("dragonchess", TimeControl::realtime(300, 3).expect("5+3"));
        assert_eq!(r.deadline(), Some(30_000));
        r.now = 29_999;
        assert!(r.timeout().is_none());
        r.now = 30_000;
        let ended = r.apply(r.timeout().expect("aborted")).expect("over");
        assert_eq!(ended.ending.reason, EndReason::Aborted);
        // Correspondence: the first move has the control's days.
        let mut r = timed("phylde", TimeControl::correspondence(2).expect("2 days"));
        assert_eq!(r.deadline(), Some(2 * 86_400_000));
        r.now = 86_400_000;
        assert!(r.timeout().is_none());
    }

    #[test]
    fn a_correspondence_turn_has_the_full_days_again() {
        let day = 86_400_000;
        let mut r = timed("phylde", TimeControl::correspondence(2).expect("2 days"));
        let mut t = 0;
        // A week of turns, each well inside its two days.
        for _ in 0..14 {
            t += day / 2;
            let seat = r.to_move();
            while r.to_move() == seat && !r.is_over() {
                play(&mut r, t).expect("a turn");
            }
            let next = r.to_move().expect("a seat") as usize;
            r.now = t;
            assert_eq!(left(&r, next), 2 * day as u64);
        }
        assert!(t >= 7 * day);
        // Three days of silence: the flag falls.
        r.now = t + 2 * day;
        assert!(r.timeout().is_some());
    }

    #[test]
    fn a_flagged_player_of_three_leaves_and_an_ai_plays_on() {
        let mut r = timed("gildervaik", TimeControl::realtime(60, 0).expect("1+0"));
        for _ in 0..3 {
            play(&mut r, 0).expect("first moves");
        }
        let seat = r.to_move().expect("a seat");
        r.now = 60_000;
        let change = r.timeout().expect("a flag");
        assert!(r.apply(change).is_none(), "the game goes on");
        assert_eq!(r.meta.seats[seat as usize].kind, SeatKind::Ai);
        assert_eq!(r.meta.left, vec![seat]);
        assert!(r
            .meta
            .clock
            .as_ref()
            .is_some_and(|c| c.is_untimed(seat as usize)));
        assert_eq!(r.deadline(), None, "the AI has no clock pressure");
    }

    #[test]
    fn abandonment_is_claimed_after_two_minutes_away() {
        let mut r = round("dragonchess");
        r.now = 1_000;
        let here = r.presence_change(0, true).expect("seat 1 connects");
        r.apply(here);
        r.now = 119_999;
        assert_eq!(r.claim(0, false).err(), Some(RoundError::NoClaim));
        assert_eq!(
            r.claim(1, false).err(),
            Some(RoundError::NoClaim),
            "the absent one cannot"
        );
        r.now = 120_000;
        let ended = r.apply(r.claim(0, false).expect("claimed")).expect("over");
        assert_eq!(ended.ending.outcome, Outcome::Win(Player(0)));
        assert_eq!(ended.ending.reason, EndReason::Abandoned);
        // In real time the clock decides: no claims.
        let mut r = timed("dragonchess", TimeControl::realtime(60, 0).expect("1+0"));
        r.now = 1_000;
        let here = r.presence_change(0, true).expect("connects");
        r.apply(here);
        r.now = 10_000_000;
        assert_eq!(r.claim(0, true).err(), Some(RoundError::NoClaim));
    }

    #[test]
    fn a_move_without_a_live_channel_is_not_silence() {
        let mut r = round("dragonchess");
        let here = r.presence_change(0, true).expect("seat 0 connects");
        r.apply(here);
        play(&mut r, 1_000).expect("gold");
        // Scarlet plays by its token, never connected.
        play(&mut r, 100_000).expect("scarlet");
        r.now = 120_000;
        assert_eq!(
            r.claim(0, false).err(),
            Some(RoundError::NoClaim),
            "scarlet was heard from at 100 s"
        );
        r.now = 220_000;
        assert!(r.claim(0, false).is_ok());
    }

    #[test]
    fn a_real_time_game_everyone_left_is_ended_an_hour_after_the_last_one() {
        const HOUR: i64 = 3_600_000;
        let mut r = timed(
            "dragonchess",
            TimeControl::realtime(3 * 3600, 0).expect("180+0"),
        );
        play(&mut r, 0).expect("first");
        play(&mut r, 1_000).expect("first");
        for (seat, here, at) in [(0, true, 2_000), (1, true, 2_000), (0, false, 5_000)] {
            r.now = at;
            r.apply(r.presence_change(seat, here).expect("a change"));
        }
        // One player is still here: only the flag, three hours on.
        assert_eq!(r.deadline(), Some(1_000 + 3 * 3600 * 1000));
        r.now = 9_000;
        r.apply(r.presence_change(1, false).expect("the last one leaves"));
        assert_eq!(r.deadline(), Some(9_000 + HOUR));
        r.now = 9_000 + HOUR - 1;
        assert!(r.timeout().is_none());
        // Coming back cancels it; leaving again starts the hour again.
        r.apply(r.presence_change(0, true).expect("back"));
        assert_eq!(r.deadline(), Some(1_000 + 3 * 3600 * 1000));
        let back = r.now;
        r.apply(r.presence_change(0, false).expect("away again"));
        assert_eq!(r.deadline(), Some(back + HOUR));
        r.now = back + HOUR;
        let ended = r
            .apply(r.timeout().expect("abandoned by all"))
            .expect("over");
        assert_eq!(ended.ending.reason, EndReason::Abandoned);
        assert_eq!(ended.ending.outcome, Outcome::Draw(PlayerSet::all(2)));
        // Without a clock the 30-day expiry applies instead.
        let mut r = round("dragonchess");
        r.now = 1_000;
        r.apply(r.presence_change(0, true).expect("connects"));
        r.apply(r.presence_change(0, false).expect("leaves"));
        assert_eq!(r.deadline(), None);
    }

    impl Round {
        fn clone_for_test(&self) -> Round {
            let mut r = Round::new(
                self.id.clone(),
                self.created,
                self.title,
                self.start_game.clone(),
                None,
                self.seed,
                self.meta.clone(),
            );
            r.game = self.game.clone();
            r.history = self.history.clone();
            r.now = self.now;
            r
        }
    }
}
