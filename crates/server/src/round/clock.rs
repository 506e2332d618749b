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
    /// or a first move never came (the game is aborted).
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
            let mut change = self.leave(seat).ok()?;
            if let Some(meta) = change.meta.as_mut() {
                if let Some(c) = meta.clock.as_mut() {
                    let _ = c.set_untimed(seat as usize);
                }
            }
            return Some(change);
        }
        let seat = self.to_move()?;
        let human = self.meta.seats.get(seat as usize)?.kind == SeatKind::Human;
        let first_move = clocks.turns(seat as usize) == 0;
        let started = self.meta.turn_started? as u64;
        let control = clocks.control();
        if human && first_move && abandon::abort_due(Some(&control), 0, started, now) {
            let all = Outcome::Draw(PlayerSet::all(self.game.num_players()));
            return Some(self.finish(all, EndReason::Aborted));
        }
        None
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
            running: if self.is_over() { None } else { snap.running.map(|s| s as u8) },
            at: self.now,
            first_move_by: self
                .deadline()
                .filter(|_| snap.running.is_none() && !self.is_over()),
        })
    }

    /// The seats' presence for abandonment rules (AI seats always here).
    fn presence(&self) -> Vec<Presence> {
        (0..self.meta.seats.len())
            .map(|i| {
                // A seat nobody has opened yet is away since the start.
                let away = self.meta.away.get(i).copied().unwrap_or(Some(self.created));
                let ai = self.meta.seats[i].kind == SeatKind::Ai;
                Presence {
                    connected: ai || away.is_none(),
                    last_seen_ms: away.unwrap_or(self.now).max(0) as u64,
                }
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
            let absent = gone.into_iter().find(|&s| s != seat as usize).ok_or(RoundError::NoClaim)?;
            return self.leave(absent as u8);
        }
        let outcome = if draw {
            Outcome::Draw(PlayerSet::all(2))
        } else {
            Outcome::Win(Player(seat))
        };
        Ok(self.finish(outcome, EndReason::Abandoned))
    }

    /// The meta with `seat`'s presence changed (`here`), if it changes.
    pub fn presence_change(&self, seat: u8, here: bool) -> Option<Change> {
        if self.is_over() || self.meta.seats.get(seat as usize)?.kind != SeatKind::Human {
            return None;
        }
        let mut away = self.meta.away.clone();
        away.resize(self.meta.seats.len(), Some(self.created));
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
    flag.into_iter().chain(abort).min()
}
