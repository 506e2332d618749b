//! Static evaluation for the AI agents: material, Warrior advance, frozen
//! pieces and a stranded King, in Warrior units; far ahead, also how
//! cornered the enemy King is (mop-up), so that a won game is driven to
//! mate instead of shuffled into a draw.

use crate::geometry::{Side, Square, FILES, GROUND, RANKS};
use crate::moves::Move;
use crate::piece::Kind;
use crate::state::Dragonchess;
use crate::tables::{pattern, tables};
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
/// Material lead (Warriors) where the mop-up terms start, and where they
/// reach full weight: below it play is unchanged.
const MOPUP_FROM: f32 = 8.0;
const MOPUP_FULL: f32 = 20.0;
/// Mop-up weights: per King step taken away (of at most 10), per step of
/// the King from the centre of its level, per step the own King stands
/// nearer (it must help to mate), per step the other pieces stand nearer
/// on average.
const MOPUP_ESCAPE: f32 = 0.3;
const MOPUP_EDGE: f32 = 0.3;
const MOPUP_KING: f32 = 0.2;
const MOPUP_NEAR: f32 = 0.1;

impl Dragonchess {
    /// Material of `side` in Warriors.
    fn material(&self, side: Side) -> f32 {
        Kind::ALL
            .iter()
            .map(|&k| value(k) * self.pieces(side, k).count() as f32)
            .sum()
    }

    /// The mop-up bonus of the side far ahead (Gold positive): fewer safe
    /// steps for the enemy King, the King nearer an edge, the attackers
    /// nearer to it; scaled from 0 at a lead of `MOPUP_FROM` to 1 at
    /// `MOPUP_FULL`.
    fn mopup(&self, lead: f32) -> f32 {
        let scale = ((lead.abs() - MOPUP_FROM) / (MOPUP_FULL - MOPUP_FROM)).min(1.0);
        if scale <= 0.0 {
            return 0.0;
        }
        let strong = if lead > 0.0 {
            Side::Gold
        } else {
            Side::Scarlet
        };
        let weak = strong.other();
        let king = self.kings[weak.index()];
        let escapes = self.king_escapes(weak) as f32;
        let edge = (king.file().abs_diff(FILES - 1 - king.file())
            + king.rank().abs_diff(RANKS - 1 - king.rank())) as f32
            / 2.0;
        let far = (FILES - 1) as f32;
        let own_king = far - distance(self.kings[strong.index()], king) as f32;
        let attackers = self.sides[strong.index()];
        let near = attackers
            .iter()
            .map(|sq| far - distance(sq, king) as f32)
            .sum::<f32>()
            / attackers.count().max(1) as f32;
        let bonus = scale
            * (MOPUP_ESCAPE * (10.0 - escapes)
                + MOPUP_EDGE * edge
                + MOPUP_KING * own_king
                + MOPUP_NEAR * near);
        if strong == Side::Gold {
            bonus
        } else {
            -bonus
        }
    }

    /// The King steps of `side` onto squares it does not occupy and the
    /// enemy does not attack (the King itself not blocking). Off the Ground
    /// they are counted from the Ground square it must step back to: a
    /// King hiding there is no nearer to mate.
    fn king_escapes(&self, side: Side) -> usize {
        let king = self.kings[side.index()];
        let from = Square::new(GROUND, king.file(), king.rank());
        let enemy = side.other();
        let mut occ = self.occupied();
        occ.clear(king);
        let active = self.sides[enemy.index()].without(self.frozen(enemy));
        let mut own = self.sides[side.index()];
        own.clear(king);
        let king_on_ground = pattern(Kind::King, false);
        tables()
            .steps(side, king_on_ground, from, own, self.sides[enemy.index()])
            .iter()
            .filter(|&sq| !self.attacked(tables(), sq, enemy, occ, active))
            .count()
    }

    /// Gold's score minus Scarlet's.
    fn gold_score(&self) -> f32 {
        let mut score = self.mopup(self.material(Side::Gold) - self.material(Side::Scarlet));
        for side in Side::BOTH {
            let sign = if side == Side::Gold { 1.0 } else { -1.0 };
            let mut s = self.material(side);
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

/// King steps between two squares, levels counted as steps.
fn distance(a: Square, b: Square) -> usize {
    a.file()
        .abs_diff(b.file())
        .max(a.rank().abs_diff(b.rank()))
        .max(a.level().abs_diff(b.level()))
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

    fn position(text: &str) -> Dragonchess {
        Dragonchess::from_position(&Default::default(), text).unwrap()
    }

    #[test]
    fn start_is_balanced_and_zero_sum() {
        let g = Dragonchess::new_game(&Default::default()).unwrap();
        assert_eq!(g.evaluate(Player(0)), 0.0);
        // A Hero ahead is below the mop-up lead: material alone.
        let g = position(
            "12/12/12/12/12/12/12/12|7k4/12/12/12/12/12/12/K1H9|12/12/12/12/12/12/12/12 g 0 1",
        );
        assert_eq!(g.evaluate(Player(0)), 4.5);
        assert_eq!(g.evaluate(Player(1)), -4.5);
    }

    #[test]
    fn far_ahead_a_cornered_king_scores_more_and_stays_zero_sum() {
        // Gold: Mage, Paladin, Oliphant, King 2a1 (a lead of 26);
        // the Scarlet King in the centre, then in a corner.
        let empty = "12/12/12/12/12/12/12/12";
        let with_king =
            |top: &str| position(&format!("{empty}|{top}/12/12/12/K1MPO7|{empty} g 0 1"));
        let (centre, corner) = (with_king("12/12/12/5k6"), with_king("11k/12/12/12"));
        for g in [&centre, &corner] {
            assert!(g.evaluate(Player(0)) > 26.0);
            assert_eq!(g.evaluate(Player(0)), -g.evaluate(Player(1)));
        }
        assert!(corner.evaluate(Player(0)) > centre.evaluate(Player(0)));
    }
}
