//! Die-uses (R3), protection (R6), bumps (R7), the last pawn's corner steps
//! (§5) and the forced-play filter (R5), all on 24-bit masks.
//!
//! Generation fills a fixed-size list on the stack: nothing here allocates.
//! The R5 look-ahead is a depth-first search over at most eight values that
//! stops as soon as a line uses every value.

use crate::board::{backward, cells, count, forward, nth_cell, single, Cell, CORNERS, FULL};
use crate::dice::{Left, Roll};
use crate::options::{Between, ForcedPlay, Options, OwnLanding, Protection};

/// One die-use: the value `die` moves the pawn on `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Use {
    pub die: u8,
    pub from: Cell,
    pub to: Cell,
}

/// The part of a position a roll in progress works on, seen from the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub mine: u32,
    pub theirs: u32,
    pub left: Left,
    /// Under `nondouble_one_pawn`: the pawn that must use the remaining values.
    pub pin: Option<Cell>,
}

/// What stays fixed during one roll.
#[derive(Clone, Copy, Debug)]
pub struct RollRules<'a> {
    pub o: &'a Options,
    /// The mover has one pawn (read once per roll: it cannot change).
    pub last_pawn: bool,
    /// The mover's cells a 6-value must start from in turn 1 (`ludii_first_turn`), else 0.
    pub first_turn_cells: u32,
    /// A non-double under `nondouble_one_pawn`: the first pawn moved is pinned.
    pub pins: bool,
}

impl<'a> RollRules<'a> {
    #[inline(always)]
    pub fn new(o: &'a Options, roll: Roll, mine: u32, mover: usize, turn: u32) -> Self {
        // Ludii's regions: P1's leftmost cells 1-2, P2's 13-14 (the same after a half turn).
        const FIRST_CELLS: [u32; 2] = [0b11, 0b11 << 12];
        RollRules {
            o,
            last_pawn: single(mine),
            first_turn_cells: if o.ludii_first_turn && turn == 1 {
                FIRST_CELLS[mover]
            } else {
                0
            },
            pins: o.nondouble_one_pawn && !roll.is_double(),
        }
    }
}

/// Room for every use of one node: 2 values x 6 pawns x 2 targets.
pub const MAX_USES: usize = 24;

/// A fixed-capacity list of uses.
#[derive(Clone, Copy)]
pub struct UseList {
    items: [Use; MAX_USES],
    len: usize,
}

impl UseList {
    fn new() -> Self {
        UseList {
            items: [Use {
                die: 0,
                from: Cell::from_index(0),
                to: Cell::from_index(0),
            }; MAX_USES],
            len: 0,
        }
    }
    fn push(&mut self, u: Use) {
        self.items[self.len] = u;
        self.len += 1;
    }
    pub fn as_slice(&self) -> &[Use] {
        &self.items[..self.len]
    }
}

/// The pawns of `theirs` that the mover (`mine`) may not capture (R6).
#[inline(always)]
pub fn protected(theirs: u32, mine: u32, o: &Options) -> u32 {
    match o.protection {
        Protection::None => return 0,
        Protection::LastPawnOnly if !single(theirs) => return 0,
        _ => {}
    }
    let on_corners = theirs & CORNERS;
    match o.between {
        Between::Track => on_corners & forward(mine, 1) & backward(mine, 1),
        Between::Nearest => cells(on_corners)
            .filter(|&c| framed_by_nearest(c, mine, theirs))
            .fold(0, |m, c| m | c.bit()),
    }
}

/// Whether the nearest pawns before and after `c` are two distinct pawns of `mine`.
fn framed_by_nearest(c: Cell, mine: u32, theirs: u32) -> bool {
    let others = (mine | theirs) & !c.bit();
    if others.count_ones() < 2 {
        return false;
    }
    // Rotate so that `c` sits at index 0: the lowest bit is then the next
    // pawn ahead, the highest the nearest one behind.
    let i = c.index();
    let (rel, rel_mine) = if i == 0 {
        (others, mine)
    } else {
        (backward(others, i), backward(mine, i))
    };
    let next = 1u32 << rel.trailing_zeros();
    let prev = 1u32 << (31 - rel.leading_zeros());
    rel_mine & next != 0 && rel_mine & prev != 0
}

/// Corners a last-pawn value moves: 1 -> 1, 2 -> 2, 6 -> 2, 12 -> 4.
#[inline(always)]
fn corner_steps(value: u8) -> u8 {
    match value {
        6 => 2,
        12 => 4,
        v => v,
    }
}

/// The cells from which a last pawn may take a corner step: any cell, but
/// with `last_pawn_normal_moves` only a rune corner (a last pawn on a plain
/// cell then makes the normal step only, as Ludii plays it; §11).
#[inline(always)]
fn corner_steppers(r: &RollRules) -> u32 {
    if r.o.last_pawn_normal_moves {
        CORNERS
    } else {
        FULL
    }
}

/// Where a normal step of `d` from `from` ends under a bump: the first empty
/// cell from `from + d` on (one always exists within 12 cells).
fn bump_target(from: Cell, d: u8, occupied: u32) -> Cell {
    let mut t = from.ahead(d);
    while occupied & t.bit() != 0 {
        t = t.ahead(1);
    }
    t
}

/// The pawns that may use value `v` (pending six, pin and first-turn rules
/// applied), or `None` when `v` may not be used now.
#[inline(always)]
fn movable(node: &Node, r: &RollRules, v: u8) -> Option<u32> {
    if r.o.six_counts_twice && v != 6 && node.left.count(6) % 2 == 1 {
        return None;
    }
    Some(match node.pin {
        Some(c) => node.mine & c.bit(),
        None => node.mine,
    })
}

/// The pawns that may make a normal (cell by cell) step with `v`.
#[inline(always)]
fn normal_movers(node: &Node, r: &RollRules, v: u8, movable: u32) -> u32 {
    if (v == 6 || v == 12) && r.first_turn_cells & node.mine != 0 {
        movable & r.first_turn_cells
    } else {
        movable
    }
}

/// The R3-legal uses of one value of a node, as masks: a lone pawn's corner
/// step (one cell at most, listed first), the normal steps by the cell they
/// land on, and the own pawns a normal step meets (each a bump under
/// `own_landing=bump`, else no use).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueUses {
    pub value: u8,
    pub corner: u32,
    pub normal: u32,
    pub blocked: u32,
}

impl ValueUses {
    /// The corner and normal steps: the uses [`each_use`] lists for this
    /// value before any bump.
    #[inline(always)]
    pub fn steps(&self) -> u32 {
        u32::from(self.corner != 0) + count(self.normal)
    }

    /// The `k`-th of [`ValueUses::steps`] (k below their count) in
    /// [`each_use`]'s order, without the list: the corner step of the lone
    /// pawn `mine`, then the normal steps by the cell they land on.
    #[inline(always)]
    pub fn nth_step(&self, k: u32, mine: u32) -> Use {
        let die = self.value;
        let corner = u32::from(self.corner != 0);
        if k < corner {
            return Use {
                die,
                from: nth_cell(mine, 0),
                to: nth_cell(self.corner, 0),
            };
        }
        let to = nth_cell(self.normal, k - corner);
        Use {
            die,
            from: to.ahead(24 - die),
            to,
        }
    }
}

/// The uses of each value of `node.left`, the smaller value first (an
/// empty slot has none). Every question about a node's uses starts here.
#[inline(always)]
pub fn value_uses(node: &Node, r: &RollRules) -> [ValueUses; 2] {
    let prot = protected(node.theirs, node.mine, r.o);
    let [(v0, c0), (v1, c1)] = node.left.slots();
    [
        uses_of_value(node, r, v0, c0, prot),
        uses_of_value(node, r, v1, c1, prot),
    ]
}

#[inline(always)]
fn uses_of_value(node: &Node, r: &RollRules, value: u8, count: u8, prot: u32) -> ValueUses {
    let none = ValueUses {
        value,
        ..ValueUses::default()
    };
    let Some(movable) = movable(node, r, value).filter(|_| count > 0) else {
        return none;
    };
    // A lone pawn's corner step lands where its normal step may too: one use.
    let mut corner = 0;
    if r.last_pawn {
        let from = movable & corner_steppers(r);
        if from != 0 {
            let to =
                Cell::from_index(from.trailing_zeros() as u8).corner_ahead(corner_steps(value));
            corner = to.bit() & !(node.mine | prot);
        }
        if !r.o.last_pawn_normal_moves {
            return ValueUses { corner, ..none };
        }
    }
    let landing = forward(normal_movers(node, r, value, movable), value);
    ValueUses {
        value,
        corner,
        normal: landing & !node.mine & !prot & !corner,
        blocked: landing & node.mine,
    }
}

/// Whether `uses` hold an R3-legal use: the roll goes on (under R5 a line
/// of length 1 or more then exists too).
#[inline(always)]
pub fn any_use(uses: &[ValueUses; 2], o: &Options) -> bool {
    let [a, b] = uses;
    let bumps = if o.own_landing == OwnLanding::Bump {
        a.blocked | b.blocked
    } else {
        0
    };
    a.corner | a.normal | b.corner | b.normal | bumps != 0
}

/// Whether [`legal_uses`] lists exactly the corner and normal steps of
/// [`value_uses`] with `left` to use: the forced-play rule keeps every
/// R3-legal use (stepwise play, or one value left under `max`) and no use
/// is a bump. It lists them value by value, the corner step first, then
/// the normal steps by the cell they land on, each from `to - value`.
#[inline(always)]
pub fn lists_plain_steps(left: Left, o: &Options) -> bool {
    let keeps_all = match o.forced_play {
        ForcedPlay::Stepwise => true,
        ForcedPlay::Max => left.total() == 1,
        ForcedPlay::Free => false,
    };
    keeps_all && o.own_landing != OwnLanding::Bump
}

/// Every R3-legal use of `node` (pin, pending six and first-turn rules applied).
pub fn uses(node: &Node, r: &RollRules) -> UseList {
    let mut out = UseList::new();
    each_use(node, r, |u| out.push(u));
    out
}

/// Call `emit` for every R3-legal use of `node`, in a fixed order: value by
/// value, the corner step, the normal steps, then the bumps.
#[inline]
fn each_use(node: &Node, r: &RollRules, mut emit: impl FnMut(Use)) {
    for u in value_uses(node, r) {
        let die = u.value;
        // Only a lone pawn has a corner step.
        for to in cells(u.corner) {
            let from = nth_cell(node.mine, 0);
            emit(Use { die, from, to });
        }
        for to in cells(u.normal) {
            emit(Use {
                die,
                from: to.ahead(24 - die),
                to,
            });
        }
        if r.o.own_landing == OwnLanding::Bump {
            let occupied = node.mine | node.theirs;
            for blocked in cells(u.blocked) {
                let from = blocked.ahead(24 - die);
                let to = bump_target(from, die, occupied);
                emit(Use { die, from, to });
            }
        }
    }
}

/// The node after `u`, and whether `u` captured.
#[inline(always)]
pub fn apply_use(node: &Node, u: Use, r: &RollRules) -> (Node, bool) {
    let captured = node.theirs & u.to.bit() != 0;
    let next = Node {
        mine: (node.mine & !u.from.bit()) | u.to.bit(),
        theirs: node.theirs & !u.to.bit(),
        left: node.left.take(u.die),
        pin: r.pins.then_some(u.to),
    };
    (next, captured)
}

/// Whether a capture leaving `theirs` ends the game (win, or the optional
/// draw when both sides are down to one pawn).
#[inline(always)]
pub fn ends_game(mine: u32, theirs: u32, o: &Options) -> bool {
    theirs == 0 || (o.mutual_last_pawn_draw && single(mine) && single(theirs))
}

/// R5 rank of a line: uses first, then 6-values (the higher die when only one can be played).
fn rank(left: Left) -> u8 {
    left.total() * 16 + left.count(6)
}

fn step_rank(u: Use) -> u8 {
    16 + u8::from(u.die == 6)
}

/// Best rank reachable from `node`, stopping early at the full rank.
fn best(node: &Node, r: &RollRules) -> u8 {
    let full = rank(node.left);
    if full == 0 {
        return 0;
    }
    let mut best = 0;
    for &u in uses(node, r).as_slice() {
        best = best.max(rank_of(node, u, r));
        if best == full {
            break;
        }
    }
    best
}

/// Rank of the best line starting with `u`; a game-ending capture counts as
/// completing a maximal line.
fn rank_of(node: &Node, u: Use, r: &RollRules) -> u8 {
    let (next, captured) = apply_use(node, u, r);
    if captured && ends_game(next.mine, next.theirs, r.o) {
        rank(node.left)
    } else {
        step_rank(u) + best(&next, r)
    }
}

/// The legal uses of `node` under the forced-play rule, given to `emit`.
pub fn legal_uses(node: &Node, r: &RollRules, mut emit: impl FnMut(Use)) {
    if r.o.forced_play != ForcedPlay::Max || node.left.total() == 1 {
        each_use(node, r, emit);
        return;
    }
    let all = uses(node, r);
    let list = all.as_slice();
    if let [only] = list {
        emit(*only);
        return;
    }
    let mut ranks = [0u8; MAX_USES];
    for (i, &u) in list.iter().enumerate() {
        ranks[i] = rank_of(node, u, r);
    }
    let m = ranks[..list.len()].iter().copied().max().unwrap_or(0);
    for (&u, k) in list.iter().zip(ranks) {
        if k == m {
            emit(u);
        }
    }
}
