//! Check detection: is a square attacked, given a placement?
//!
//! Attacks are captures (spec §5 "Check"): every mc or c rule with its
//! blocking conditions, across levels, the Dragon's capture from afar
//! included. Frozen pieces attack nothing, so callers pass the attacking
//! side's *active* pieces (alive and not frozen) separately from the
//! occupancy that blocks.

use crate::geometry::{Bits, Side, Square, GROUND, SKY, UNDERWORLD};
use crate::piece::Kind;
use crate::state::Dragonchess;
use crate::tables::{pattern, tables, Tables, NO_CELL};

#[inline]
fn bit(b: u128, cell: usize) -> bool {
    b >> cell & 1 != 0
}

impl Dragonchess {
    /// Whether `by`'s pieces in `active` capture on `target` with the board
    /// occupied as in `occ`.
    pub(crate) fn attacked(
        &self,
        t: &Tables,
        target: Square,
        by: Side,
        occ: Bits,
        active: Bits,
    ) -> bool {
        let of = |k: Kind| self.kinds[k.index()] & active;
        // Unblockable rules: the few pieces standing where some rule could
        // capture from are checked one by one against their own rule.
        for from in (t.any_attacker(by, target) & active).iter() {
            if let Some(p) = self.piece_at(from) {
                let pat = pattern(p.kind, self.options.hero_vertical);
                if t.attackers(by, pat, target).has(from) {
                    return true;
                }
            }
        }
        let cell = target.cell();
        match target.level() {
            GROUND => {
                let o = occ.0[GROUND];
                let mages = of(Kind::Mage).0[GROUND];
                let rooks = of(Kind::Oliphant).0[GROUND] | mages;
                let bishops = of(Kind::Thief).0[GROUND] | mages;
                if (t.rook_rays[cell] & rooks != 0 && t.rook(cell, o) & rooks != 0)
                    || (t.bishop_rays[cell] & bishops != 0 && t.bishop(cell, o) & bishops != 0)
                {
                    return true;
                }
                // An Elemental climbs onto the target over the empty square below it.
                !bit(occ.0[UNDERWORLD], cell)
                    && t.orth[cell] & of(Kind::Elemental).0[UNDERWORLD] != 0
            }
            SKY => {
                let dragons = of(Kind::Dragon).0[SKY];
                (t.bishop_rays[cell] & dragons != 0 && t.bishop(cell, occ.0[SKY]) & dragons != 0)
                    || mage_jumps(of(Kind::Mage).0[UNDERWORLD], occ, cell)
            }
            _ => {
                if mage_jumps(of(Kind::Mage).0[SKY], occ, cell) {
                    return true;
                }
                let elementals = of(Kind::Elemental);
                let below_free = !occ.0[UNDERWORLD];
                // Descent from the Ground over the empty square below it.
                if t.orth[cell] & below_free & elementals.0[GROUND] != 0 {
                    return true;
                }
                // Two orthogonal squares over an empty one.
                (0..4).any(|d| {
                    let mid = t.step[d][cell];
                    if mid == NO_CELL || !bit(below_free, mid as usize) {
                        return false;
                    }
                    let far = t.step[d][mid as usize];
                    far != NO_CELL && bit(elementals.0[UNDERWORLD], far as usize)
                })
            }
        }
    }

    /// Whether `side`'s King would be in check with this placement, seen
    /// with the given occupancy, enemy pieces and own Basilisks (the
    /// placement after a move under test).
    pub(crate) fn king_attacked_after(
        &self,
        t: &Tables,
        side: Side,
        king: Square,
        occ: Bits,
        enemies: Bits,
        own_basilisks: Bits,
    ) -> bool {
        let mut active = enemies;
        active.0[GROUND] &= !own_basilisks.0[UNDERWORLD];
        if self.options.basilisk_freeze_is_check
            && king.level() == GROUND
            && bit(
                (self.kinds[Kind::Basilisk.index()] & enemies).0[UNDERWORLD],
                king.cell(),
            )
        {
            return true;
        }
        self.attacked(t, king, side.other(), occ, active)
    }

    /// Whether `side`'s King is in check now.
    pub(crate) fn king_in_danger(&self, side: Side) -> bool {
        self.king_attacked_after(
            tables(),
            side,
            self.kings[side.index()],
            self.occupied(),
            self.sides[side.other().index()],
            self.pieces(side, Kind::Basilisk),
        )
    }
}

/// A Mage on the far outer level jumps to `cell` over the empty Ground.
#[inline]
fn mage_jumps(mages_far: u128, occ: Bits, cell: usize) -> bool {
    bit(mages_far, cell) && !bit(occ.0[GROUND], cell)
}
