//! Legal moves (spec §2, C1, W1–W4), generated from the precomputed rays
//! with 100-bit sets and no allocation.
//!
//! A jump segment from `x` is decided by the first pawn met on a ray: only
//! it can be the centre (§10), so each cell has at most one segment per
//! direction.

use crate::geometry::{
    opposing_zones, zone_of, Cell, Cells, Ray, Seat, ALL_BOARD, MINEFIELD, NEIGHBOURS, RAYS, ZONES,
};
use crate::moves::{Move, MAX_PATH};
use crate::options::{Continuation, Mode, Removal, Untouchable};
use crate::state::Gildervaik;

/// The jump segment along `ray` over the pawns `occ`: `(centre, landing)`
/// when the first pawn met, `y_{k+1}`, is followed by `k` empty cells and
/// then an empty landing cell `y_{2k+2}`. Without `long`, only `k = 0`.
#[inline(always)]
pub(crate) fn segment(ray: &Ray, occ: u128, long: bool) -> Option<(Cell, Cell)> {
    if ray.mask & occ == 0 || ray.len() < 2 {
        return None;
    }
    let mut k = 0;
    while occ & ray.cell(k).bit() == 0 {
        if !long {
            return None;
        }
        k += 1;
    }
    let land = 2 * k + 1;
    if land >= ray.len() {
        return None;
    }
    for i in k + 1..=land {
        if occ & ray.cell(i).bit() != 0 {
            return None;
        }
    }
    Some((ray.cell(k), ray.cell(land)))
}

/// Where a pawn of `seat` on `x` may land under `confine_in_target`: inside
/// the opposing zone it stands in, or anywhere.
#[inline]
fn fence(seat: Seat, x: Cell) -> u128 {
    match zone_of(x) {
        Some(z) if z != seat => ZONES[z],
        _ => ALL_BOARD,
    }
}

/// Pawns of each player standing in one of their owner's opposing zones.
fn in_opposing_zones(pawns: &[u128; 3]) -> u128 {
    (0..3).fold(0, |m, s| m | (pawns[s] & opposing_zones(s)))
}

impl Gildervaik {
    /// Whether `confine_in_target` lets the side to move's pawn on `x` land on `to`.
    pub(crate) fn may_land(&self, x: Cell, to: Cell) -> bool {
        !self.opts.confine_in_target || fence(self.to_move, x) & to.bit() != 0
    }

    /// The legal moves of the side to move, `pass` if there is none.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        self.generate_moves(out);
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    /// The legal moves proper (empty when the side to move is blocked).
    pub(crate) fn generate_moves(&self, out: &mut Vec<Move>) {
        match self.opts.mode {
            Mode::Conquest => self.conquest_moves(out),
            Mode::Warrior => self.warrior_moves(out),
        }
    }

    /// Whether the side to move has a legal move other than `pass`. A free
    /// neighbour settles it at once; only a pawn-locked side needs the full
    /// generator (rare, so its buffer may allocate).
    pub(crate) fn can_move(&self) -> bool {
        let seat = self.to_move;
        let all = self.occupied();
        let confine = self.opts.confine_in_target && self.opts.mode == Mode::Conquest;
        let free_step = Cells(self.pawns[seat]).any(|x| {
            let room = if confine { fence(seat, x) } else { ALL_BOARD };
            NEIGHBOURS[x.id()] & !all & room != 0
        });
        free_step || {
            let mut buf = Vec::new();
            self.generate_moves(&mut buf);
            !buf.is_empty()
        }
    }

    /// Conquest (C1): steps, and jump moves listed once per reachable cell.
    fn conquest_moves(&self, out: &mut Vec<Move>) {
        let seat = self.to_move;
        let own = self.pawns[seat];
        let all = self.occupied();
        let centres = if self.opts.jump_own_pawns {
            all
        } else {
            all & !own
        };
        let long = self.opts.conquest_long_jumps;
        let chain = self.opts.chain_jumps;
        let confine = self.opts.confine_in_target;
        let mut stack = [Cell::of(0); 100];
        for from in Cells(own) {
            // The start cell counts as empty during the move.
            let occ = all & !from.bit();
            let fenced = |x: Cell| if confine { fence(seat, x) } else { ALL_BOARD };
            let mut targets = NEIGHBOURS[from.id()] & !all & fenced(from);
            if centres != 0 {
                let mut visited = from.bit();
                stack[0] = from;
                let mut sp = 1;
                while sp > 0 {
                    sp -= 1;
                    let x = stack[sp];
                    let allowed = fenced(x) & !visited;
                    for ray in &RAYS[x.id()] {
                        if let Some((c, l)) = segment(ray, occ, long) {
                            if centres & c.bit() != 0 && allowed & l.bit() != 0 {
                                visited |= l.bit();
                                if chain {
                                    stack[sp] = l;
                                    sp += 1;
                                }
                            }
                        }
                    }
                }
                targets |= visited & !from.bit();
            }
            out.extend(Cells(targets).map(|to| Move::quiet(from, to)));
        }
    }

    /// Warrior (W1–W4): capture sequences if any exist, else steps and
    /// single non-capturing jumps.
    fn warrior_moves(&self, out: &mut Vec<Move>) {
        let seat = self.to_move;
        let own = self.pawns[seat];
        let all = self.occupied();
        let long = self.opts.warrior_long_jumps;
        let mut capturable = 0;
        for s in (0..3).filter(|&s| s != seat) {
            let exposed = if self.opts.home_capturable {
                MINEFIELD | ZONES[s]
            } else {
                MINEFIELD
            };
            capturable |= self.pawns[s] & exposed;
        }
        if capturable != 0 {
            let mut search = CaptureSearch {
                long,
                optional: self.opts.capture_continuation == Continuation::Optional,
                end_of_move: self.opts.capture_removal == Removal::EndOfMove,
                from: Cell::of(0),
                path: [Cell::of(0); MAX_PATH],
                out,
            };
            for from in Cells(own) {
                search.from = from;
                search.extend(from, 0, all & !from.bit(), capturable);
            }
            if !out.is_empty() {
                if self.opts.majority_capture {
                    let most = out.iter().map(Move::captures).max().unwrap_or(0);
                    out.retain(|m| m.captures() == most);
                }
                return;
            }
        }
        let mut centres = all & !own & !capturable;
        if self.opts.jump_own_pawns {
            centres |= own;
        }
        if self.opts.untouchable == Untouchable::NoJump {
            centres &= !in_opposing_zones(&self.pawns);
        }
        for from in Cells(own) {
            let mut targets = NEIGHBOURS[from.id()] & !all;
            if centres != 0 {
                for ray in &RAYS[from.id()] {
                    if let Some((c, l)) = segment(ray, all, long) {
                        if centres & c.bit() != 0 {
                            targets |= l.bit();
                        }
                    }
                }
            }
            out.extend(Cells(targets).map(|to| Move::quiet(from, to)));
        }
    }
}

/// Depth-first search of warrior capture sequences for one pawn (W4).
struct CaptureSearch<'a> {
    long: bool,
    optional: bool,
    end_of_move: bool,
    from: Cell,
    path: [Cell; MAX_PATH],
    out: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    /// Continue from `x` after `depth` captures; `occ` holds the pawns that
    /// block (the mover excluded), `capturable` those that may still be taken.
    fn extend(&mut self, x: Cell, depth: usize, occ: u128, capturable: u128) {
        let mut continued = false;
        for ray in &RAYS[x.id()] {
            let Some((c, l)) = segment(ray, occ, self.long) else {
                continue;
            };
            if capturable & c.bit() == 0 {
                continue;
            }
            continued = true;
            self.path[depth] = l;
            if self.optional {
                self.emit(depth + 1);
            }
            let occ = if self.end_of_move {
                occ
            } else {
                occ & !c.bit()
            };
            self.extend(l, depth + 1, occ, capturable & !c.bit());
        }
        if !continued && depth > 0 && !self.optional {
            self.emit(depth);
        }
    }

    fn emit(&mut self, len: usize) {
        self.out.push(Move::capture(self.from, &self.path[..len]));
    }
}
