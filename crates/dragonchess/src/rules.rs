//! Playing a move and the end of the game (spec §5 and §10).
//!
//! Checkmate is the only win. Draws: stalemate, threefold repetition of a
//! placement with the same side to move, and `no_capture_plies` plies
//! without a capture (from afar too) or a Warrior move. Mate takes
//! precedence over the two counting draws when both happen on one move.

use crate::geometry::{Side, GROUND};
use crate::moves::Move;
use crate::piece::{Kind, Piece};
use crate::state::Dragonchess;

/// How a position stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Status {
    Playing,
    /// The side to move is checkmated.
    Checkmate,
    Stalemate,
    Repetition,
    NoCapture,
}

impl Dragonchess {
    /// Play a legal move.
    pub(crate) fn play(&mut self, m: Move) {
        let us = self.side;
        let Some(moving) = self.piece_at(m.from) else {
            debug_assert!(false, "no piece on {}", m.from);
            return;
        };
        let before = self.hash;
        let mut irreversible = moving.kind == Kind::Warrior;
        if m.is_remote() {
            self.remove(m.to);
            irreversible = true;
        } else {
            if self.remove(m.to).is_some() {
                irreversible = true;
            }
            self.remove(m.from);
            let kind = if m.is_promotion() {
                Kind::Hero
            } else {
                moving.kind
            };
            self.put(m.to, Piece::new(us, kind));
        }
        if irreversible {
            self.halfmove = 0;
            self.history.clear();
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
            self.history.push(before);
        }
        if us == Side::Scarlet {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.set_side(us.other());
        self.threefold = self.history.repetitions(self.hash) >= 2;
        self.in_check = self.king_in_danger(self.side);
    }

    /// Whether the game goes on, and if not why.
    pub fn status(&self) -> Status {
        if !self.has_legal_move() {
            if self.in_check {
                Status::Checkmate
            } else {
                Status::Stalemate
            }
        } else if self.halfmove >= self.options.no_capture_plies {
            Status::NoCapture
        } else if self.threefold {
            Status::Repetition
        } else {
            Status::Playing
        }
    }

    /// Whether one of the counting draws (repetition, no capture) applies.
    pub(crate) fn draw_by_count(&self) -> bool {
        self.threefold || self.halfmove >= self.options.no_capture_plies
    }

    /// An upper bound on the plies left: the clock resets at most once per
    /// capture and per Warrior step still possible, and at most
    /// `no_capture_plies` plies pass between resets.
    pub(crate) fn max_plies_left(&self) -> u64 {
        let captures = u64::from(self.occupied().count().saturating_sub(2));
        let warrior_steps: u64 = Side::BOTH
            .iter()
            .map(|&s| {
                self.pieces(s, Kind::Warrior)
                    .iter()
                    .filter(|sq| sq.level() == GROUND)
                    .map(|sq| sq.rank().abs_diff(s.last_rank()) as u64)
                    .sum::<u64>()
            })
            .sum();
        (captures + warrior_steps + 1) * (u64::from(self.options.no_capture_plies) + 1)
    }
}
