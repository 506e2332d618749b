//! The clocks of one game: remaining time per seat and the running seat.

use crate::control::TimeControl;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Every seat's clock. Pure: each method takes `now_ms` explicitly, and the
/// whole state is serde-serialisable so a stored game keeps its clocks across
/// a restart (the running seat's time keeps going while the server is down,
/// since only `since_ms` is stored; call [`Clocks::pause`] on a planned stop
/// to spare the players that time).
///
/// How the server drives it:
/// - a turn begins: [`start`](Clocks::start)`(seat, now)`; the turn ends
///   (after its last action, however many a turn has):
///   [`end_turn`](Clocks::end_turn)`(now)`, which adds the increment (or
///   resets the days) and refuses a move that came on or after the flag;
/// - a chance action (a server dice roll) costs no time: [`pause`](Clocks::pause)
///   before it, `start` the same seat after it;
/// - a timer or sweep asks [`deadline`](Clocks::deadline) and [`check`](Clocks::check).
///
/// A seat's first turn is not timed (Lichess's rule): the first-move limit of
/// [`crate::abandon`] covers it, so a slow first move aborts the game instead
/// of eating the clock. Untimed seats (AI players) never lose time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ClocksData")]
pub struct Clocks {
    control: TimeControl,
    /// Each seat's time; for the running seat, its time at `running.1`.
    remaining_ms: Vec<u64>,
    untimed: Vec<bool>,
    /// Turns each seat has ended.
    turns: Vec<u32>,
    /// The seat whose turn it is and since when its clock runs.
    running: Option<(usize, u64)>,
}

/// What a client is told: each seat's time at the snapshot instant (`None`
/// for an untimed seat) and the seat whose time is going down, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    pub remaining_ms: Vec<Option<u64>>,
    pub running: Option<usize>,
}

/// Why a clock operation was refused. A refused operation changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// `seat`'s time ran out at `at_ms`; the move that asked is too late.
    Flagged {
        seat: usize,
        at_ms: u64,
    },
    /// No turn is running.
    NotRunning,
    /// `seat`'s turn is still running.
    AlreadyRunning {
        seat: usize,
    },
    NoSeat {
        seat: usize,
        seats: usize,
    },
    /// A seat count outside `2..=MAX_SEATS`.
    Seats(usize),
    /// A stored state whose parts do not agree.
    Inconsistent(&'static str),
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::Flagged { seat, at_ms } => {
                write!(f, "seat {seat} ran out of time at {at_ms} ms")
            }
            ClockError::NotRunning => write!(f, "no clock is running"),
            ClockError::AlreadyRunning { seat } => {
                write!(f, "the clock of seat {seat} is still running")
            }
            ClockError::NoSeat { seat, seats } => {
                write!(f, "no seat {seat}: seats are 0..{seats}")
            }
            ClockError::Seats(n) => {
                write!(f, "{n} seats: a game has 2..={} seats", Clocks::MAX_SEATS)
            }
            ClockError::Inconsistent(what) => write!(f, "inconsistent clocks: {what}"),
        }
    }
}

impl std::error::Error for ClockError {}

impl Clocks {
    /// Most seats a game may have (as `tabula_core::Player`).
    pub const MAX_SEATS: usize = 8;

    /// Stopped clocks, every seat with the initial time and timed.
    pub fn new(control: TimeControl, seats: usize) -> Result<Clocks, ClockError> {
        if !(2..=Self::MAX_SEATS).contains(&seats) {
            return Err(ClockError::Seats(seats));
        }
        Ok(Clocks {
            control,
            remaining_ms: vec![control.initial_ms(); seats],
            untimed: vec![false; seats],
            turns: vec![0; seats],
            running: None,
        })
    }

    /// Mark `seat` untimed (an AI): its clock never runs down.
    pub fn set_untimed(&mut self, seat: usize) -> Result<(), ClockError> {
        self.seat(seat)?;
        self.untimed[seat] = true;
        Ok(())
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }
    pub fn seats(&self) -> usize {
        self.remaining_ms.len()
    }
    pub fn is_untimed(&self, seat: usize) -> bool {
        self.untimed.get(seat).copied().unwrap_or(false)
    }
    /// Turns `seat` has ended (0 for an unknown seat).
    pub fn turns(&self, seat: usize) -> u32 {
        self.turns.get(seat).copied().unwrap_or(0)
    }
    /// The seat whose turn is running (its time may not be going down: see
    /// [`Clocks::ticking`]).
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(seat, _)| seat)
    }

    /// The seat whose time is going down: the running seat, unless it is
    /// untimed or on its first turn.
    pub fn ticking(&self) -> Option<usize> {
        self.running
            .map(|(seat, _)| seat)
            .filter(|&seat| !self.untimed[seat] && self.turns[seat] > 0)
    }

    /// Start `seat`'s turn (or resume it after [`Clocks::pause`]).
    pub fn start(&mut self, seat: usize, now_ms: u64) -> Result<(), ClockError> {
        self.seat(seat)?;
        if let Some((running, _)) = self.running {
            return Err(ClockError::AlreadyRunning { seat: running });
        }
        self.running = Some((seat, now_ms));
        Ok(())
    }

    /// End the running turn at `now_ms`: charge the time used, then add the
    /// increment (real time) or give the full days again (correspondence).
    /// Returns the seat whose turn ended. A turn ending at or after the
    /// flag is refused with [`ClockError::Flagged`].
    pub fn end_turn(&mut self, now_ms: u64) -> Result<usize, ClockError> {
        let seat = self.stop(now_ms)?;
        if self.turns[seat] > 0 && !self.untimed[seat] {
            self.remaining_ms[seat] = self.control.after_turn_ms(self.remaining_ms[seat]);
        }
        self.turns[seat] += 1;
        Ok(seat)
    }

    /// Stop the running clock at `now_ms` without ending the turn: no
    /// increment, and `start` of the same seat resumes it. For chance
    /// actions the server makes, and for a planned server stop.
    pub fn pause(&mut self, now_ms: u64) -> Result<usize, ClockError> {
        self.stop(now_ms)
    }

    /// The seat whose flag has fallen at `now_ms` (its time reached zero), if any.
    pub fn check(&self, now_ms: u64) -> Option<usize> {
        let deadline = self.deadline()?;
        let seat = self.ticking()?;
        (now_ms >= deadline).then_some(seat)
    }

    /// `seat`'s time at `now_ms` (0 once fallen).
    pub fn remaining(&self, seat: usize, now_ms: u64) -> u64 {
        let Some(&left) = self.remaining_ms.get(seat) else {
            return 0;
        };
        match (self.ticking(), self.running) {
            (Some(ticking), Some((_, since))) if ticking == seat => {
                left.saturating_sub(now_ms.saturating_sub(since))
            }
            _ => left,
        }
    }

    /// The instant (ms) the ticking seat's flag falls, for a timer or sweep.
    pub fn deadline(&self) -> Option<u64> {
        let seat = self.ticking()?;
        let (_, since) = self.running?;
        Some(since.saturating_add(self.remaining_ms[seat]))
    }

    /// Every seat's time at `now_ms`, for the wire.
    pub fn snapshot(&self, now_ms: u64) -> Snapshot {
        Snapshot {
            remaining_ms: (0..self.seats())
                .map(|s| (!self.untimed[s]).then(|| self.remaining(s, now_ms)))
                .collect(),
            running: self.ticking(),
        }
    }

    /// Charge the running seat up to `now_ms` and stop its clock.
    /// A clock read earlier than `since` (another instance's clock a little
    /// behind) charges nothing rather than failing.
    fn stop(&mut self, now_ms: u64) -> Result<usize, ClockError> {
        let (seat, _) = self.running.ok_or(ClockError::NotRunning)?;
        if let Some(deadline) = self.deadline() {
            if now_ms >= deadline {
                return Err(ClockError::Flagged {
                    seat,
                    at_ms: deadline,
                });
            }
        }
        self.remaining_ms[seat] = self.remaining(seat, now_ms);
        self.running = None;
        Ok(seat)
    }

    fn seat(&self, seat: usize) -> Result<(), ClockError> {
        if seat < self.seats() {
            Ok(())
        } else {
            Err(ClockError::NoSeat {
                seat,
                seats: self.seats(),
            })
        }
    }
}

/// The stored form, checked before it becomes [`Clocks`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClocksData {
    control: TimeControl,
    remaining_ms: Vec<u64>,
    untimed: Vec<bool>,
    turns: Vec<u32>,
    running: Option<(usize, u64)>,
}

impl TryFrom<ClocksData> for Clocks {
    type Error = ClockError;
    fn try_from(d: ClocksData) -> Result<Clocks, ClockError> {
        let seats = d.remaining_ms.len();
        if !(2..=Self::MAX_SEATS).contains(&seats) {
            return Err(ClockError::Seats(seats));
        }
        if d.untimed.len() != seats || d.turns.len() != seats {
            return Err(ClockError::Inconsistent("one entry per seat in every list"));
        }
        if d.running.is_some_and(|(seat, _)| seat >= seats) {
            return Err(ClockError::Inconsistent("the running seat does not exist"));
        }
        Ok(Clocks {
            control: d.control,
            remaining_ms: d.remaining_ms,
            untimed: d.untimed,
            turns: d.turns,
            running: d.running,
        })
    }
}
