//! Playing a move and the end-of-turn order: conquest C6 (win, evacuation,
//! last player, everyone passed, ply cap) and warrior W8 (removals,
//! eliminations, last player, no-capture counter, limits).
//!
//! `readable_result` decides the same ends from a position string alone, so
//! a position read back has the result the game reached.

use crate::geometry::{centre, opposing_zones, Seat, ZONES};
use crate::moves::Move;
use crate::options::{Blocked, CapResult, LimitRank, Mode, WinZone};
use crate::state::{Gildervaik, PAWNS};
use tabula_core::{Outcome, Player, PlayerSet};

/// The best players by `score` among `seats`: a win if alone, else a
/// shared draw.
fn rank(seats: impl Iterator<Item = Seat>, score: impl Fn(Seat) -> u32) -> Option<Outcome> {
    let mut best = 0;
    let mut top = PlayerSet::default();
    for s in seats {
        let v = score(s);
        if top.is_empty() || v > best {
            best = v;
            top = PlayerSet::default();
        }
        if v == best {
            top.insert(Player(s as u8));
        }
    }
    match top.len() {
        0 => None,
        1 => top.iter().next().map(Outcome::Win),
        _ => Some(Outcome::Draw(top)),
    }
}

impl Gildervaik {
    /// Play a legal move (or `pass`) and settle the end of the turn.
    pub(crate) fn play(&mut self, m: Move) {
        let seat = self.to_move;
        let mut captured = false;
        if let Some(from) = m.from() {
            self.counters.passes = 0;
            let mut x = from;
            for land in m.landings() {
                if m.is_capture() {
                    if let Some(c) = centre(x, land) {
                        if let Some(owner) = self.owner(c) {
                            self.toggle_pawn(owner, c);
                            self.counters.caps[seat] += 1;
                            captured = true;
                        }
                    }
                }
                x = land;
            }
            self.toggle_pawn(seat, from);
            self.toggle_pawn(seat, x);
        } else {
            self.counters.passes += 1;
        }
        self.counters.ply += 1;
        self.counters.turns[seat] += 1;
        self.result = match self.opts.mode {
            Mode::Conquest => self.end_conquest_turn(seat, m.is_pass()),
            Mode::Warrior => {
                self.counters.nocap = if captured { 0 } else { self.counters.nocap + 1 };
                self.warrior_limits()
            }
        };
        self.pass_turn_on(seat);
    }

    /// C6 after the mover's turn: win, evacuation, then the common ends.
    fn end_conquest_turn(&mut self, seat: Seat, passed: bool) -> Option<Outcome> {
        if !passed && self.has_conquered(seat) {
            return Some(Outcome::Win(Player(seat as u8)));
        }
        if let Some(turn) = self.opts.evacuation_turn {
            if self.counters.turns[seat] >= turn && self.pawns[seat] & ZONES[seat] != 0 {
                self.eliminate(seat);
                if passed {
                    // He no longer counts among the remaining players who passed.
                    self.counters.passes -= 1;
                }
            }
        }
        self.conquest_limits()
    }

    /// C3: all ten pawns in one opposing zone (or across both, `win_zone=either`).
    /// The zones are tested first and without branches (almost never all
    /// in), the pawns counted only then.
    pub(crate) fn has_conquered(&self, seat: Seat) -> bool {
        let own = self.pawns[seat];
        let inside = match self.opts.win_zone {
            WinZone::Same => (0..3).fold(false, |m, z| m | ((z != seat) & (own & !ZONES[z] == 0))),
            WinZone::Either => own & !opposing_zones(seat) == 0,
        };
        inside && own.count_ones() == PAWNS
    }

    /// C6 steps 3–5: last player, everyone passed, ply cap.
    fn conquest_limits(&self) -> Option<Outcome> {
        let remaining = self.remaining_count();
        if remaining == 1 {
            return rank(self.remaining(), |_| 0);
        }
        if self.counters.passes >= remaining {
            return rank(self.remaining(), |_| 0);
        }
        if self.counters.ply >= self.opts.max_plies {
            return match self.opts.cap_result {
                CapResult::Draw => rank(self.remaining(), |_| 0),
                CapResult::Progress => rank(self.remaining(), |s| {
                    let own = self.pawns[s];
                    let best = (0..3)
                        .filter(|&z| z != s)
                        .map(|z| (own & ZONES[z]).count_ones())
                        .max()
                        .unwrap_or(0);
                    let both = (own & opposing_zones(s)).count_ones();
                    // Lexicographic: best zone first, then both zones (<= 10).
                    best * 16 + both
                }),
            };
        }
        None
    }

    /// W7/W8 after removals: last player, then the no-capture and
    /// everyone-passed limits, ranked by pawns or captures.
    fn warrior_limits(&self) -> Option<Outcome> {
        let remaining = self.remaining_count();
        if remaining == 1 {
            return rank(self.remaining(), |_| 0);
        }
        if self.counters.nocap >= self.opts.no_capture_limit || self.counters.passes >= remaining {
            return match self.opts.limit_rank {
                LimitRank::Pawns => rank(self.remaining(), |s| self.pawns[s].count_ones()),
                LimitRank::Captures => rank(self.remaining(), |s| self.counters.caps[s]),
            };
        }
        None
    }

    /// The end a position shows by itself (spec §6): a conquest winner, one
    /// player left, everyone passed, the ply cap or the no-capture limit.
    pub(crate) fn readable_result(&self) -> Option<Outcome> {
        match self.opts.mode {
            Mode::Conquest => {
                // Most recent mover first: only he can have just won.
                let winner = (1..=3)
                    .map(|back| (self.to_move + 3 - back) % 3)
                    .find(|&s| self.has_conquered(s));
                match winner {
                    Some(s) => Some(Outcome::Win(Player(s as u8))),
                    None => self.conquest_limits(),
                }
            }
            Mode::Warrior => self.warrior_limits(),
        }
    }

    /// Why the game is over (read from the position, as
    /// [`Self::readable_result`]): `conquest` (ten pawns gathered),
    /// `last_player` (the others eliminated or captured), `all_passed`,
    /// `move_limit` (conquest's ply cap) or `no_capture_limit` (warrior).
    pub(crate) fn why_over(&self) -> &'static str {
        let conquered = (0..3).any(|s| self.has_conquered(s));
        if self.opts.mode == Mode::Conquest && conquered {
            "conquest"
        } else if self.remaining_count() == 1 {
            "last_player"
        } else if self.counters.passes >= self.remaining_count() {
            "all_passed"
        } else if self.opts.mode == Mode::Conquest {
            "move_limit"
        } else {
            "no_capture_limit"
        }
    }

    /// Hand the turn to the next player with pawns after `seat`; with
    /// `blocked_player=eliminated`, remove blocked players on the way.
    pub(crate) fn pass_turn_on(&mut self, seat: Seat) {
        self.set_side(self.next_remaining(seat));
        if self.opts.blocked_player == Blocked::Eliminated {
            self.eliminate_blocked();
        }
    }

    /// The next seat after `seat` in turn order that still has pawns.
    fn next_remaining(&self, seat: Seat) -> Seat {
        (1..=3)
            .map(|i| (seat + i) % 3)
            .find(|&s| self.pawns[s] != 0)
            .unwrap_or(seat)
    }

    /// `blocked_player=eliminated`: while the side to move cannot move, he
    /// leaves the game at once, without a ply.
    pub(crate) fn eliminate_blocked(&mut self) {
        while self.result.is_none() && !self.can_move() {
            let seat = self.to_move;
            self.eliminate(seat);
            if self.remaining_count() == 1 {
                self.result = rank(self.remaining(), |_| 0);
            }
            self.set_side(self.next_remaining(seat));
        }
    }
}
