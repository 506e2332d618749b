//! Legal move generation.
//!
//! Destinations come from the tables (steps, leaps, captures from afar) plus
//! slides and the blockable two-square moves. Legality: a move can only
//! expose its own King if the King moves, a Basilisk leaves the square under
//! an enemy piece (thawing it; freezing only ever removes attackers), the
//! Dragon removes a piece from afar without taking its square, or the piece leaves a square on a blockable line between the
//! King and an enemy attacker ("pinned"). Only those moves, and every move
//! when in check, are tested by replaying the placement; the rest are legal
//! as generated. Untested Warriors, Dwarves and Sky Sylphs are generated a
//! whole set at a time (`setwise`).

use crate::geometry::{cells, Bits, Square, FILES, GROUND, LEVELS, SKY, UNDERWORLD};
use crate::moves::Move;
use crate::piece::Kind;
use crate::state::Dragonchess;
use crate::tables::{first_blocker, pattern, tables, Tables, DIAGONAL, NO_CELL, ORTHOGONAL};
use std::ops::ControlFlow;

/// Where generated moves go; `Break` stops the generation.
pub(crate) trait Sink {
    /// Whether the sink only counts: then the moves that need no replay
    /// come as one number per set of targets (`add`) instead of one by one.
    const COUNTS: bool = false;
    fn accept(&mut self, m: Move) -> ControlFlow<()>;
    /// `n` more legal moves (only called when `COUNTS`).
    #[inline]
    fn add(&mut self, _n: u32) {}
}

impl Sink for Vec<Move> {
    #[inline]
    fn accept(&mut self, m: Move) -> ControlFlow<()> {
        self.push(m);
        ControlFlow::Continue(())
    }
}

/// Stops at the first legal move.
pub(crate) struct AnyMove;

impl Sink for AnyMove {
    fn accept(&mut self, _: Move) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// Counts the legal moves without writing them (perft's last ply).
pub(crate) struct Count(pub(crate) u64);

impl Sink for Count {
    const COUNTS: bool = true;
    #[inline]
    fn accept(&mut self, _: Move) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
    #[inline]
    fn add(&mut self, n: u32) {
        self.0 += u64::from(n);
    }
}

/// What the generation of every piece needs, computed once per position.
pub(crate) struct Frame<'a> {
    t: &'a Tables,
    own: Bits,
    pub(crate) enemy: Bits,
    pub(crate) occ: Bits,
    /// Own pieces that are not frozen.
    movable: Bits,
    /// Own pieces whose moves must be replayed (see the module doc).
    tested: Bits,
}

#[inline]
fn bit(b: u128, cell: usize) -> bool {
    b >> cell & 1 != 0
}

impl Dragonchess {
    /// Feed every legal move of the side to move to `sink`. Inlined into
    /// its callers, one per sink, so the counting one gets POPCNT.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) -> ControlFlow<()> {
        let t = tables();
        let us = self.side;
        let own = self.sides[us.index()];
        let enemy = self.sides[us.other().index()];
        let occ = own | enemy;
        let f = Frame {
            t,
            own,
            enemy,
            occ,
            movable: own.without(self.frozen(us)),
            tested: if self.in_check {
                Bits::ALL
            } else {
                self.pinned(t, own, occ, enemy.without(self.frozen(us.other())))
            },
        };
        // One copy of the loop per kind (`K` indexes `Kind::ALL`), so each
        // kind's rules are resolved when compiling: about 7 % faster.
        macro_rules! each_kind {
            ($($k:literal)*) => { $( self.generate_kind::<$k, S>(&f, sink)?; )* };
        }
        const _: () = assert!(Kind::COUNT == 15, "list every kind below");
        each_kind!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14);
        ControlFlow::Continue(())
    }

    /// The moves of the pieces of kind `Kind::ALL[K]`.
    #[inline(always)]
    fn generate_kind<const K: usize, S: Sink>(&self, f: &Frame, sink: &mut S) -> ControlFlow<()> {
        let kind = Kind::ALL[K];
        let mut pieces = self.kinds[K] & f.movable;
        if pieces.is_empty() {
            return ControlFlow::Continue(());
        }
        if matches!(kind, Kind::Warrior | Kind::Dwarf | Kind::Sylph) {
            let free = pieces.without(f.tested);
            let left = self.generate_setwise(f, kind, free.0, sink)?;
            pieces = pieces.without(free) | Bits(left);
        }
        let pat = pattern(kind, self.options.hero_vertical);
        // Warriors promote on their last rank, on the Ground.
        let promote = if kind == Kind::Warrior {
            Bits([0, 0xFFF << (self.side.last_rank() * FILES), 0])
        } else {
            Bits::EMPTY
        };
        for level in 0..LEVELS {
            for cell in cells(pieces.0[level]) {
                let from = Square::at(level, cell);
                let test = match kind {
                    Kind::King => true,
                    // Leaving its square thaws the enemy piece above it.
                    Kind::Basilisk => {
                        bit(f.tested.0[level], cell)
                            || (level == UNDERWORLD && bit(f.enemy.0[GROUND], cell))
                    }
                    _ => bit(f.tested.0[level], cell),
                };
                let mut dest = self.destinations(f, kind, pat, from);
                if kind == Kind::Dragon && dest.0[GROUND] != 0 {
                    // Its only destinations off the Sky: captures from afar,
                    // which leave it in place: always tested.
                    let remote = Bits([0, dest.0[GROUND], 0]);
                    dest.0[GROUND] = 0;
                    self.emit(f, kind, from, remote, promote, true, sink)?;
                }
                if dest.any() {
                    self.emit(f, kind, from, dest, promote, test, sink)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Feed the moves from `from` to each of `targets` (captures where
    /// `enemy` stands, promotions in `promote`), tested if asked.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn emit<S: Sink>(
        &self,
        f: &Frame,
        kind: Kind,
        from: Square,
        targets: Bits,
        promote: Bits,
        test: bool,
        sink: &mut S,
    ) -> ControlFlow<()> {
        if S::COUNTS && !test {
            sink.add(targets.count());
            return ControlFlow::Continue(());
        }
        // The caller passes a Dragon's captures from afar on their own.
        let remote = if kind == Kind::Dragon && targets.0[GROUND] != 0 {
            Move::REMOTE
        } else {
            0
        };
        for level in 0..LEVELS {
            for cell in cells(targets.0[level]) {
                // Branch-free flags: one bit test each.
                let capture = u8::from(bit(f.enemy.0[level], cell)) * Move::CAPTURE;
                let promotion = u8::from(bit(promote.0[level], cell)) * Move::PROMOTION;
                let m = Move {
                    from,
                    to: Square::at(level, cell),
                    flags: capture | promotion | remote,
                };
                if test && !self.is_safe(f.t, kind, m) {
                    continue;
                }
                sink.accept(m)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Pseudo-legal destinations of one piece.
    #[inline(always)]
    fn destinations(&self, f: &Frame, kind: Kind, pat: usize, from: Square) -> Bits {
        let (t, own, enemy, occ) = (f.t, f.own, f.enemy, f.occ);
        let mut d = t.steps(self.side, pat, from, own, enemy);
        let cell = from.cell();
        let level = from.level();
        let slides = |rook: bool, bishop: bool| {
            let o = occ.0[level];
            let mut s = 0;
            if rook {
                s |= t.rook(cell, o);
            }
            if bishop {
                s |= t.bishop(cell, o);
            }
            s & !own.0[level]
        };
        match (kind, level) {
            (Kind::Dragon, SKY) => d.0[SKY] |= slides(false, true),
            (Kind::Oliphant, GROUND) => d.0[GROUND] |= slides(true, false),
            (Kind::Thief, GROUND) => d.0[GROUND] |= slides(false, true),
            (Kind::Mage, GROUND) => d.0[GROUND] |= slides(true, true),
            (Kind::Mage, _) => {
                // Two levels straight up or down over an empty Ground square.
                let far = SKY - level;
                if !bit(occ.0[GROUND], cell) && !bit(own.0[far], cell) {
                    d.0[far] |= 1 << cell;
                }
            }
            (Kind::Elemental, UNDERWORLD) => {
                let free = t.orth[cell] & !occ.0[UNDERWORLD];
                let climb = if self.options.elemental_climb_quiet {
                    !own.0[GROUND]
                } else {
                    enemy.0[GROUND]
                };
                d.0[GROUND] |= free & climb;
                for dir in 0..4 {
                    let mid = t.step[dir][cell];
                    if mid != NO_CELL && bit(free, mid as usize) {
                        let far = t.step[dir][mid as usize];
                        if far != NO_CELL && !bit(own.0[UNDERWORLD], far as usize) {
                            d.0[UNDERWORLD] |= 1 << far;
                        }
                    }
                }
            }
            // Down and one step aside, over the empty square below.
            (Kind::Elemental, GROUND) if !bit(occ.0[UNDERWORLD], cell) => {
                d.0[UNDERWORLD] |= t.orth[cell] & !own.0[UNDERWORLD];
            }
            _ => {}
        }
        d
    }

    /// Own pieces that stand alone on a blockable line from an active enemy
    /// attacker to the King: moving them may expose it. `active` are the
    /// enemy pieces that are not frozen.
    fn pinned(&self, t: &Tables, own: Bits, occ: Bits, active: Bits) -> Bits {
        let king = self.kings[self.side.index()];
        let (level, cell) = (king.level(), king.cell());
        let of = |k: Kind| self.kinds[k.index()] & active;
        let mut pinned = Bits::EMPTY;
        let o = occ.0[level];
        let mine = own.0[level];
        let mut lines = |dirs: [usize; 4], rays: u128, sliders: u128| {
            if rays & sliders != 0 {
                for d in dirs {
                    pinned.0[level] |= pin_along(t, d, cell, o, mine, sliders);
                }
            }
        };
        match level {
            GROUND => {
                let mages = of(Kind::Mage).0[GROUND];
                lines(
                    ORTHOGONAL,
                    t.rook_rays[cell],
                    of(Kind::Oliphant).0[GROUND] | mages,
                );
                lines(
                    DIAGONAL,
                    t.bishop_rays[cell],
                    of(Kind::Thief).0[GROUND] | mages,
                );
                // An Elemental would climb onto the King through the square below.
                if bit(own.0[UNDERWORLD], cell)
                    && t.orth[cell] & of(Kind::Elemental).0[UNDERWORLD] != 0
                {
                    pinned.0[UNDERWORLD] |= 1 << cell;
                }
            }
            SKY => {
                lines(DIAGONAL, t.bishop_rays[cell], of(Kind::Dragon).0[SKY]);
                if bit(of(Kind::Mage).0[UNDERWORLD], cell) && bit(own.0[GROUND], cell) {
                    pinned.0[GROUND] |= 1 << cell;
                }
            }
            _ => {
                if bit(of(Kind::Mage).0[SKY], cell) && bit(own.0[GROUND], cell) {
                    pinned.0[GROUND] |= 1 << cell;
                }
                let elementals = of(Kind::Elemental);
                // Descents over an own piece beside the King.
                pinned.0[UNDERWORLD] |= t.orth[cell] & mine & elementals.0[GROUND];
                // Two-square moves over an own piece.
                for d in 0..4 {
                    let mid = t.step[d][cell];
                    if mid != NO_CELL && bit(mine, mid as usize) {
                        let far = t.step[d][mid as usize];
                        if far != NO_CELL && bit(elementals.0[UNDERWORLD], far as usize) {
                            pinned.0[UNDERWORLD] |= 1 << mid;
                        }
                    }
                }
            }
        }
        pinned
    }

    /// Whether the mover's King is safe after `m` (placement replayed).
    fn is_safe(&self, t: &Tables, kind: Kind, m: Move) -> bool {
        let us = self.side;
        let mut occ = self.occupied();
        let mut enemies = self.sides[us.other().index()];
        let mut basilisks = self.pieces(us, Kind::Basilisk);
        let mut king = self.kings[us.index()];
        enemies.clear(m.to);
        if m.is_remote() {
            occ.clear(m.to);
        } else {
            occ.clear(m.from);
            occ.set(m.to);
            match kind {
                Kind::King => king = m.to,
                Kind::Basilisk => {
                    basilisks.clear(m.from);
                    basilisks.set(m.to);
                }
                _ => {}
            }
        }
        !self.king_attacked_after(t, us, king, occ, enemies, basilisks)
    }

    /// Whether the side to move has a legal move.
    pub(crate) fn has_legal_move(&self) -> bool {
        self.generate(&mut AnyMove).is_break()
    }

    /// How many legal moves the side to move has.
    ///
    /// Counting is mostly popcounts, which baseline x86-64 lacks as an
    /// instruction (about a dozen instructions each without it). So on
    /// x86-64 the count is compiled a second time with POPCNT (nearly every
    /// x86-64 CPU since 2008 has it) and chosen at run time: perft about a
    /// third faster.
    pub(crate) fn count_legal_moves(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has POPCNT, checked just above.
            return unsafe { self.count_with_popcnt() };
        }
        self.count_portable()
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn count_with_popcnt(&self) -> u64 {
        self.count_portable()
    }

    /// Inlined into both versions of `count_legal_moves`, with `generate`.
    #[inline(always)]
    fn count_portable(&self) -> u64 {
        let mut count = Count(0);
        let _ = self.generate(&mut count);
        count.0
    }

    /// Every legal move (cleared first).
    pub(crate) fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let _ = self.generate(out);
    }
}

/// The own piece pinned along `dir` from the King's cell, as a bit.
#[inline]
fn pin_along(t: &Tables, dir: usize, cell: usize, occ: u128, own: u128, sliders: u128) -> u128 {
    let blockers = t.rays[dir][cell] & occ;
    if blockers == 0 {
        return 0;
    }
    let first = first_blocker(dir, blockers);
    if !bit(own, first) {
        return 0;
    }
    let beyond = t.rays[dir][first] & occ;
    if beyond != 0 && bit(sliders, first_blocker(dir, beyond)) {
        1 << first
    } else {
        0
    }
}
