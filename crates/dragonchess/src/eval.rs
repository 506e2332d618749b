//! Static evaluation for the AI agents: material, Warrior advance, frozen
//! pieces and a stranded King, in Warrior units.

use crate::geometry::{Side, GROUND};
use crate::moves::Move;
use crate::piece::Kind;
use crate::state::Dragonchess;
use tabula_core::{Evaluate, Player};

/// Piece values in Warriors, indexed by `Kind` (the King is never traded).
const VALUES: [f32; Kind::COUNT] = [
    1.0,  // Sylph
    5.0,  // Griffin
    8.0,  // Dragon
    1.0,  // Warrior
    5.0,  // Oliphant
    2.5,  // Unicorn
    4.5,  // Hero
    4.0,  // Thief
    9.0,  // Cleric
    11.0, // Mage
    0.0,  // King
    10.0, // Paladin
    2.0,  // Dwarf
    3.0,  // Basilisk
    4.0,  // Elemental
];

/// Value of a piece kind in Warriors.
pub fn value(kind: Kind) -> f32 {
    VALUES[kind.index()]
}

/// Share of its value a frozen piece loses (it can neither move nor defend).
const FROZEN_LOSS: f32 = 0.3;
const WARRIOR_STEP: f32 = 0.05;
/// Off the Ground the King has a single move.
const KING_OFF_GROUND: f32 = 0.3;

impl Dragonchess {
    /// Gold's score minus Scarlet's.
    fn gold_score(&self) -> f32 {
        let mut score = 0.0;
        for side in Side::BOTH {
            let sign = if side == Side::Gold { 1.0 } else { -1.0 };
            let mut s = 0.0;
            for kind in Kind::ALL {
                s += value(kind) * self.pieces(side, kind).count() as f32;
            }
            for sq in self.pieces(side, Kind::Warrior).iter() {
                let start = side.other().last_rank();
                s += WARRIOR_STEP * sq.rank().abs_diff(start) as f32;
            }
            for sq in self.frozen(side).iter() {
                if let Some(p) = self.piece_at(sq) {
                    s -= FROZEN_LOSS * value(p.kind);
                }
            }
            if self.kings[side.index()].level() != GROUND {
                s -= KING_OFF_GROUND;
            }
            score += sign * s;
        }
        score
    }
}

impl Evaluate for Dragonchess {
    fn evaluate(&self, p: Player) -> f32 {
        let s = self.gold_score();
        if p.0 == 0 {
            s
        } else {
            -s
        }
    }

    fn is_tactical(&self, m: Move) -> bool {
        m.is_capture() || m.is_promotion()
    }

    /// Playouts prefer captures of valuable pieces and promotions.
    fn playout_weight(&self, m: Move) -> f32 {
        let taken = self.piece_at(m.to).map_or(0.0, |p| value(p.kind));
        let promotion = if m.is_promotion() { 3.0 } else { 0.0 };
        1.0 + taken + promotion
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Game;

    #[test]
    fn start_is_balanced_and_zero_sum() {
        let g = Dragonchess::new_game(&Default::default()).unwrap();
        assert_eq!(g.evaluate(Player(0)), 0.0);
        let g = Dragonchess::from_position(
            &Default::default(),
            "12/12/12/12/12/12/12/12|7k4/12/12/12/12/12/12/K1M9|12/12/12/12/12/12/12/12 g 0 1",
        )
        .unwrap();
        assert_eq!(g.evaluate(Player(0)), 11.0);
        assert_eq!(g.evaluate(Player(1)), -11.0);
    }
}
