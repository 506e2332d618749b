//! One action: a piece action or `end` (spec §8). A turn is 1..L of them.

use crate::geometry::{ray_between, Pt, Sq, KING_DIRS, SQUARES};

/// One decision of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A move (soldier, archer or cavalier); a capture iff `to` holds an enemy.
    Step { from: Sq, to: Sq },
    /// An archer's shot: `target` is removed, the archer stays on `from`.
    Shot { from: Sq, target: Sq },
    /// A King step from point to point.
    King { from: Pt, to: Pt },
    /// Stop the turn before its limit (legal after at least one action).
    EndTurn,
}

/// Keys: steps by (origin, direction, distance 1..5), shots by (origin,
/// direction, distance 1..2), King steps by (point, direction), then `end`.
const STEP_KEYS: usize = SQUARES * 8 * 5;
const SHOT_KEYS: usize = SQUARES * 8 * 2;
const KING_KEYS: usize = crate::geometry::POINTS * 4;
pub const KEY_SPACE: usize = STEP_KEYS + SHOT_KEYS + KING_KEYS + 1;

impl Action {
    /// A compact key, distinct for distinct actions, below `KEY_SPACE`.
    pub fn key(self) -> usize {
        let ray = |from: Sq, to: Sq, max: usize| {
            let (d, dist) = ray_between(from, to).unwrap_or((0, 1));
            from.index() * 8 * max + d * max + (dist.clamp(1, max) - 1)
        };
        match self {
            Action::Step { from, to } => ray(from, to, 5),
            Action::Shot { from, target } => STEP_KEYS + ray(from, target, 2),
            Action::King { from, to } => {
                let (dx, dy) = (
                    to.x() as i32 - from.x() as i32,
                    to.y() as i32 - from.y() as i32,
                );
                let k = KING_DIRS.iter().position(|&v| v == (dx, dy)).unwrap_or(0);
                STEP_KEYS + SHOT_KEYS + from.index() * 4 + k
            }
            Action::EndTurn => KEY_SPACE - 1,
        }
    }
}
