//! The movement rules of spec §4 as data, and the tables built from them once.
//!
//! Every rule that no piece can block (steps and leaps, the Dragon's capture
//! from afar) becomes three 288-bit sets per side, pattern and square: where
//! the piece may move or capture (`mc`), only move (`m`), only capture (`c`).
//! The reverse sets (`attackers`) answer "from where can this pattern capture
//! on that square", which makes check detection a few table look-ups.
//! Blockable rules (slides, the Mage's and the Elemental's two-square moves)
//! are computed by the move generator from rays and neighbour tables.

use crate::geometry::{Bits, Side, Square, CELLS, FILES, GROUND, RANKS, SKY, SQUARES, UNDERWORLD};
use crate::piece::Kind;
use std::sync::LazyLock;

/// Pattern ids: one per `Kind`, plus the Hero under the `hero_vertical` option.
pub const PATTERNS: usize = Kind::COUNT + 1;
pub const HERO_VERTICAL: usize = Kind::COUNT;

/// How a rule may be used.
#[derive(Clone, Copy)]
enum Mode {
    MoveOrCapture,
    MoveOnly,
    CaptureOnly,
}

/// The unblockable destinations of one pattern from one square, by mode
/// (used while building).
#[derive(Clone, Copy, Default)]
struct Reach {
    mc: Bits,
    m: Bits,
    c: Bits,
}

/// The eight slide directions `(dfile, drank)`: orthogonal first, and within
/// each group the two that increase the square index first.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];
pub const ORTHOGONAL: [usize; 4] = [0, 1, 2, 3];
pub const DIAGONAL: [usize; 4] = [4, 5, 6, 7];

/// Marks a missing neighbour in `Tables::step`.
pub const NO_CELL: u8 = u8::MAX;

pub struct Tables {
    /// `[side][pattern][square]`: every unblockable destination, any mode.
    /// One 48-byte row per piece keeps the generator's working set small.
    reach: Box<[Bits]>,
    /// Same indexing: the move-only and capture-only parts of `reach`, read
    /// only for the patterns flagged in `restricted`.
    move_only: Box<[Bits]>,
    capture_only: Box<[Bits]>,
    restricted: [bool; PATTERNS],
    /// `[side][pattern][target]`: squares capturing on `target` (mc or c).
    attackers: Box<[Bits]>,
    /// `[side][target]`: the union of `attackers` over all patterns, to skip
    /// the per-kind look-ups when no piece stands on any of those squares.
    any_attacker: Box<[Bits]>,
    /// `[dir][cell]`: the cells strictly beyond `cell` in direction `dir`.
    pub rays: [[u128; CELLS]; 8],
    /// Union of the four orthogonal / diagonal rays of a cell.
    pub rook_rays: [u128; CELLS],
    pub bishop_rays: [u128; CELLS],
    /// The (up to four) orthogonal neighbours of a cell.
    pub orth: [u128; CELLS],
    /// `[orthogonal dir][cell]`: the neighbour cell or `NO_CELL`.
    pub step: [[u8; CELLS]; 4],
}

/// The tables, built on first use (well under a millisecond).
pub fn tables() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(build);
    &TABLES
}

/// Pattern id of a kind under the `hero_vertical` option.
pub fn pattern(kind: Kind, hero_vertical: bool) -> usize {
    if hero_vertical && kind == Kind::Hero {
        HERO_VERTICAL
    } else {
        kind.index()
    }
}

impl Tables {
    /// The unblockable destinations of a piece: any square of its rules
    /// not held by `own`, minus occupied move-only and empty capture-only ones.
    #[inline]
    pub fn steps(&self, side: Side, pattern: usize, from: Square, own: Bits, enemy: Bits) -> Bits {
        let i = (side.index() * PATTERNS + pattern) * SQUARES + from.index();
        let d = self.reach[i].without(own);
        if !self.restricted[pattern] {
            return d;
        }
        d.without(self.move_only[i] & enemy)
            .without(self.capture_only[i].without(enemy))
    }
    #[inline]
    pub fn attackers(&self, side: Side, pattern: usize, target: Square) -> Bits {
        self.attackers[(side.index() * PATTERNS + pattern) * SQUARES + target.index()]
    }
    #[inline]
    pub fn any_attacker(&self, side: Side, target: Square) -> Bits {
        self.any_attacker[side.index() * SQUARES + target.index()]
    }
    /// Cells reached sliding from `cell` in `dir` over the empty cells of
    /// `occ`, the first occupied one included.
    #[inline]
    pub fn slide(&self, dir: usize, cell: usize, occ: u128) -> u128 {
        let ray = self.rays[dir][cell];
        let blockers = ray & occ;
        if blockers == 0 {
            return ray;
        }
        ray ^ self.rays[dir][first_blocker(dir, blockers)]
    }
    #[inline]
    pub fn rook(&self, cell: usize, occ: u128) -> u128 {
        ORTHOGONAL
            .iter()
            .fold(0, |a, &d| a | self.slide(d, cell, occ))
    }
    #[inline]
    pub fn bishop(&self, cell: usize, occ: u128) -> u128 {
        DIAGONAL
            .iter()
            .fold(0, |a, &d| a | self.slide(d, cell, occ))
    }
}

/// The blocker nearest to the origin of a ray in `dir`.
#[inline]
pub fn first_blocker(dir: usize, blockers: u128) -> usize {
    if dir % 4 < 2 {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

const PM1: &[i32] = &[-1, 1];
const PM2: &[i32] = &[-2, 2];
const Z: &[i32] = &[0];
const UP_DOWN: &[i32] = &[-1, 1];

/// Every `(dlevel, dfile, drank)` combining the given components.
fn vecs(dl: &[i32], df: &[i32], dr: &[i32]) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for &l in dl {
        for &f in df {
            for &r in dr {
                out.push([l, f, r]);
            }
        }
    }
    out
}

/// The 8 in-plane King vectors.
fn king8() -> Vec<[i32; 3]> {
    [vecs(Z, PM1, Z), vecs(Z, Z, PM1), vecs(Z, PM1, PM1)].concat()
}

fn orth4() -> Vec<[i32; 3]> {
    [vecs(Z, PM1, Z), vecs(Z, Z, PM1)].concat()
}

/// Spec §4, for Gold (Scarlet negates `drank`): the unblockable rules of a
/// kind on a level. Slides and two-square blockable moves are in `movegen`.
fn rules(kind: Kind, hero_vertical: bool, level: usize) -> Vec<(Mode, Vec<[i32; 3]>)> {
    use Mode::*;
    // Off the Ground, the level change back towards it.
    let to_ground: &[i32] = if level == UNDERWORLD { &[1] } else { &[-1] };
    let to_far: &[i32] = if level == UNDERWORLD { &[2] } else { &[-2] };
    let on_ground = level == GROUND;
    match kind {
        Kind::Sylph if level == SKY => vec![
            (MoveOnly, vecs(Z, PM1, &[1])),
            (CaptureOnly, [vecs(Z, Z, &[1]), vecs(&[-1], Z, Z)].concat()),
        ],
        // Plus the six home squares, added by `build`.
        Kind::Sylph if on_ground => vec![(MoveOnly, vecs(&[1], Z, Z))],
        Kind::Griffin if level == SKY => vec![(
            MoveOrCapture,
            [
                vecs(Z, PM2, &[-3, 3]),
                vecs(Z, &[-3, 3], PM2),
                vecs(&[-1], PM1, PM1),
            ]
            .concat(),
        )],
        Kind::Griffin if on_ground => vec![(
            MoveOrCapture,
            [vecs(Z, PM1, PM1), vecs(&[1], PM1, PM1)].concat(),
        )],
        // Plus the diagonal slides.
        Kind::Dragon if level == SKY => vec![
            (MoveOrCapture, orth4()),
            (
                CaptureOnly,
                [vecs(&[-1], Z, Z), vecs(&[-1], PM1, Z), vecs(&[-1], Z, PM1)].concat(),
            ),
        ],
        Kind::Warrior if on_ground => vec![
            (MoveOnly, vecs(Z, Z, &[1])),
            (CaptureOnly, vecs(Z, PM1, &[1])),
        ],
        Kind::Unicorn if on_ground => {
            vec![(
                MoveOrCapture,
                [vecs(Z, PM1, PM2), vecs(Z, PM2, PM1)].concat(),
            )]
        }
        Kind::Hero if on_ground => {
            let change = if hero_vertical {
                vecs(UP_DOWN, Z, Z)
            } else {
                vecs(UP_DOWN, PM1, PM1)
            };
            vec![(
                MoveOrCapture,
                [vecs(Z, PM1, PM1), vecs(Z, PM2, PM2), change].concat(),
            )]
        }
        Kind::Hero if hero_vertical => vec![(MoveOrCapture, vecs(to_ground, Z, Z))],
        Kind::Hero => vec![(MoveOrCapture, vecs(to_ground, PM1, PM1))],
        // Off-board levels are dropped by `build`.
        Kind::Cleric => vec![(MoveOrCapture, [king8(), vecs(UP_DOWN, Z, Z)].concat())],
        // Plus the Queen slides on the Ground, the blockable jump elsewhere.
        Kind::Mage if on_ground => vec![(MoveOrCapture, vecs(UP_DOWN, Z, Z))],
        Kind::Mage => vec![(MoveOrCapture, [orth4(), vecs(to_ground, Z, Z)].concat())],
        Kind::King if on_ground => {
            vec![(MoveOrCapture, [king8(), vecs(UP_DOWN, Z, Z)].concat())]
        }
        Kind::King => vec![(MoveOrCapture, vecs(to_ground, Z, Z))],
        Kind::Paladin if on_ground => vec![(
            MoveOrCapture,
            [
                king8(),
                vecs(Z, PM1, PM2),
                vecs(Z, PM2, PM1),
                vecs(UP_DOWN, PM2, Z),
                vecs(UP_DOWN, Z, PM2),
            ]
            .concat(),
        )],
        Kind::Paladin => vec![(
            MoveOrCapture,
            [
                king8(),
                vecs(to_ground, PM2, Z),
                vecs(to_ground, Z, PM2),
                vecs(to_far, PM1, Z),
                vecs(to_far, Z, PM1),
            ]
            .concat(),
        )],
        Kind::Dwarf if level == UNDERWORLD => vec![
            (MoveOnly, [vecs(Z, Z, &[1]), vecs(Z, PM1, Z)].concat()),
            (CaptureOnly, [vecs(Z, PM1, &[1]), vecs(&[1], Z, Z)].concat()),
        ],
        Kind::Dwarf if on_ground => vec![
            (
                MoveOnly,
                [vecs(Z, Z, &[1]), vecs(Z, PM1, Z), vecs(&[-1], Z, Z)].concat(),
            ),
            (CaptureOnly, vecs(Z, PM1, &[1])),
        ],
        Kind::Basilisk if level == UNDERWORLD => vec![
            (
                MoveOrCapture,
                [vecs(Z, Z, &[1]), vecs(Z, PM1, &[1])].concat(),
            ),
            (MoveOnly, vecs(Z, Z, &[-1])),
        ],
        // Plus the blockable two-square moves and climbs.
        Kind::Elemental if level == UNDERWORLD => {
            vec![(MoveOrCapture, orth4()), (MoveOnly, vecs(Z, PM1, PM1))]
        }
        // Oliphant and Thief only slide; every other case has no move.
        _ => Vec::new(),
    }
}

/// The six Sky squares a side's Sylphs start on (and may return to).
pub fn sylph_homes(side: Side) -> Bits {
    let rank = match side {
        Side::Gold => 1,
        Side::Scarlet => RANKS - 2,
    };
    let mut b = Bits::EMPTY;
    for file in (0..FILES).step_by(2) {
        b.set(Square::new(SKY, file, rank));
    }
    b
}

fn build() -> Tables {
    let n = 2 * PATTERNS * SQUARES;
    let mut reach = vec![Bits::EMPTY; n];
    let mut move_only = vec![Bits::EMPTY; n];
    let mut capture_only = vec![Bits::EMPTY; n];
    let mut attackers = vec![Bits::EMPTY; n];
    let mut any_attacker = vec![Bits::EMPTY; 2 * SQUARES];
    for side in Side::BOTH {
        for pat in 0..PATTERNS {
            let (kind, vertical) = if pat == HERO_VERTICAL {
                (Kind::Hero, true)
            } else {
                (Kind::ALL[pat], false)
            };
            let base = (side.index() * PATTERNS + pat) * SQUARES;
            for from in Square::all() {
                let mut r = Reach::default();
                for (mode, vs) in rules(kind, vertical, from.level()) {
                    for [dl, df, dr] in vs {
                        let Some(to) = from.offset(dl, df, dr * side.forward()) else {
                            continue;
                        };
                        match mode {
                            Mode::MoveOrCapture => r.mc.set(to),
                            Mode::MoveOnly => r.m.set(to),
                            Mode::CaptureOnly => r.c.set(to),
                        }
                    }
                }
                if kind == Kind::Sylph && from.level() == GROUND {
                    r.m |= sylph_homes(side);
                }
                // A square allowed in both restricted modes is a plain one.
                r.mc |= r.m & r.c;
                let i = base + from.index();
                reach[i] = r.mc | r.m | r.c;
                move_only[i] = r.m.without(r.mc);
                capture_only[i] = r.c.without(r.mc);
                for to in (r.mc | r.c).iter() {
                    attackers[base + to.index()].set(from);
                    any_attacker[side.index() * SQUARES + to.index()].set(from);
                }
            }
        }
    }
    let restricted = std::array::from_fn(|pat| {
        Side::BOTH.iter().any(|side| {
            let base = (side.index() * PATTERNS + pat) * SQUARES;
            (base..base + SQUARES).any(|i| (move_only[i] | capture_only[i]).any())
        })
    });
    let mut rays = [[0u128; CELLS]; 8];
    let mut step = [[NO_CELL; CELLS]; 4];
    for (d, &(df, dr)) in DIRS.iter().enumerate() {
        for cell in 0..CELLS {
            let from = Square::at(0, cell);
            let mut k = 1;
            while let Some(to) = from.offset(0, df * k, dr * k) {
                rays[d][cell] |= 1 << to.cell();
                if k == 1 && d < 4 {
                    step[d][cell] = to.cell() as u8;
                }
                k += 1;
            }
        }
    }
    let mut rook_rays = [0u128; CELLS];
    let mut bishop_rays = [0u128; CELLS];
    let mut orth = [0u128; CELLS];
    for cell in 0..CELLS {
        for d in ORTHOGONAL {
            rook_rays[cell] |= rays[d][cell];
            if step[d][cell] != NO_CELL {
                orth[cell] |= 1 << step[d][cell];
            }
        }
        for d in DIAGONAL {
            bishop_rays[cell] |= rays[d][cell];
        }
    }
    Tables {
        reach: reach.into_boxed_slice(),
        move_only: move_only.into_boxed_slice(),
        capture_only: capture_only.into_boxed_slice(),
        restricted,
        attackers: attackers.into_boxed_slice(),
        any_attacker: any_attacker.into_boxed_slice(),
        rays,
        rook_rays,
        bishop_rays,
        orth,
        step,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: Bits) -> Vec<String> {
        b.iter().map(|s| s.to_string()).collect()
    }

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn griffin_and_paladin_reach() {
        let t = tables();
        let none = Bits::EMPTY;
        let g = t.steps(Side::Gold, Kind::Griffin.index(), sq("3d5"), none, none);
        assert_eq!(
            names(g),
            ["2c4", "2e4", "2c6", "2e6", "3b2", "3f2", "3a3", "3g3", "3a7", "3g7", "3b8", "3f8"]
        );
        let p = t.steps(Side::Gold, Kind::Paladin.index(), sq("2h1"), none, none);
        // 5 King steps, 4 in-plane knight leaps, 6 3-D knight leaps.
        assert_eq!(p.count(), 15);
        // A Warrior moves ahead onto an empty square, diagonally only to capture.
        let w = sq("2e4");
        let ahead = Bits::single(sq("2e5"));
        let diagonal = Bits::single(sq("2d5"));
        let pat = Kind::Warrior.index();
        assert_eq!(names(t.steps(Side::Gold, pat, w, none, none)), ["2e5"]);
        assert_eq!(
            names(t.steps(Side::Gold, pat, w, none, ahead | diagonal)),
            ["2d5"]
        );
    }

    #[test]
    fn attackers_are_the_reverse_of_captures() {
        let t = tables();
        for side in Side::BOTH {
            for pat in 0..PATTERNS {
                for from in Square::all() {
                    // With enemies everywhere, the destinations are the captures.
                    let captures = t.steps(side, pat, from, Bits::EMPTY, Bits::ALL);
                    for to in Square::all() {
                        assert_eq!(t.attackers(side, pat, to).has(from), captures.has(to));
                    }
                }
            }
        }
    }

    #[test]
    fn slides_stop_on_the_first_blocker() {
        let t = tables();
        let e5 = sq("1e5").cell();
        let occ = (1u128 << sq("1e7").cell()) | (1u128 << sq("1b2").cell());
        let rook = t.rook(e5, occ);
        assert_eq!(rook.count_ones(), 11 + 2 + 4);
        let bishop = t.bishop(e5, occ);
        assert!(bishop >> sq("1b2").cell() & 1 == 1);
        assert!(bishop >> sq("1a1").cell() & 1 == 0);
        assert_eq!(t.orth[0].count_ones(), 2);
    }
}
