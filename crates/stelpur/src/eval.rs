//! Static evaluation for the AI: pawns, exposure to the next roll, protection.
//!
//! A pawn is worth 1. Each unprotected pawn loses its chance of being hit on
//! the attacker's next roll (weighted more when the attacker is to move), and
//! each pawn sitting protected on a rune corner gains a little.

use crate::board::{cells, single, Cell};
use crate::movegen::protected;
use crate::options::Options;
use crate::state::{Action, Stelpur};
use tabula_core::{Evaluate, Player};

/// Chance (in 36ths) that one pawn `d` cells behind lands on a target with
/// one roll under the standard dice: any 1 (11), any 6 or 3-3 (12), 6-1
/// (2), and the doubles that add up.
const HIT_BY_DISTANCE: [u8; 13] = [0, 11, 2, 1, 2, 1, 12, 2, 1, 0, 1, 0, 1];
/// The same for a last pawn, by corners ahead: a 1 (11), a 6 (11), 6-1 (2).
const HIT_BY_CORNERS: [u8; 4] = [0, 11, 11, 2];

const WEIGHT_TO_MOVE: f32 = 0.6;
const WEIGHT_WAITING: f32 = 0.3;
const PROTECTED_BONUS: f32 = 0.15;

/// Expected pawns of `target` lost to `attacker`'s next roll (each pawn's
/// chance capped at 1).
fn exposure(attacker: u32, target: u32, o: &Options) -> f32 {
    let safe = protected(target, attacker, o);
    let last = single(attacker);
    cells(target & !safe)
        .map(|t| {
            let hits: u32 = cells(attacker).map(|a| hit_chance(a, t, last)).sum();
            (hits as f32 / 36.0).min(1.0)
        })
        .sum()
}

fn hit_chance(from: Cell, to: Cell, last: bool) -> u32 {
    if last {
        let mut c = from;
        for &hit in &HIT_BY_CORNERS[1..] {
            c = c.corner_ahead(1);
            if c == to {
                return u32::from(hit);
            }
        }
        return 0;
    }
    let d = (to.index() + 24 - from.index()) % 24;
    HIT_BY_DISTANCE.get(d as usize).map_or(0, |&h| u32::from(h))
}

impl Evaluate for Stelpur {
    fn evaluate(&self, p: Player) -> f32 {
        let [a, b] = self.pawns;
        let o = &self.opts;
        let (wa, wb) = if self.to_move == 0 {
            (WEIGHT_TO_MOVE, WEIGHT_WAITING)
        } else {
            (WEIGHT_WAITING, WEIGHT_TO_MOVE)
        };
        let pawns = a.count_ones() as f32 - b.count_ones() as f32;
        let threats = wa * exposure(a, b, o) - wb * exposure(b, a, o);
        let shelter = PROTECTED_BONUS
            * (protected(a, b, o).count_ones() as f32 - protected(b, a, o).count_ones() as f32);
        let for_p1 = pawns + threats + shelter;
        if p.0 == 0 {
            for_p1
        } else {
            -for_p1
        }
    }

    fn is_tactical(&self, action: Action) -> bool {
        matches!(action, Action::Use(u) if self.captures(u))
    }

    fn playout_weight(&self, action: Action) -> f32 {
        if self.is_tactical(action) {
            4.0
        } else {
            1.0
        }
    }
}
