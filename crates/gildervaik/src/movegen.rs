//! Legal moves (spec C1, W1–W4), generated with 100-bit sets and no
//! allocation: conquest jump chains as a flood fill of landing cells, warrior
//! capture sequences as a depth-first search.

use crate::geometry::{
    centre, opposing_zones, zone_of, Cell, Cells, Seat, ALL_BOARD, MINEFIELD, NEIGHBOURS,
    STEP_LISTS, ZONES,
};
use crate::jumps::{cell_bit_if, JumpBoard, Strips, MAX_FIRSTS};
use crate::moves::{Move, MAX_PATH};
use crate::options::{Continuation, Mode, Removal, Untouchable};
use crate::state::{Gildervaik, PAWNS};
use rand::Rng;

/// Where a pawn of `seat` on `x` may land under `confine_in_target`: inside
/// the opposing zone it stands in, or anywhere.
#[inline]
fn fence(seat: Seat, x: Cell) -> u128 {
    match zone_of(x) {
        Some(z) if z != seat => ZONES[z],
        _ => ALL_BOARD,
    }
}

/// One quiet move from `from` to each cell of `targets`, in id order.
#[inline]
fn push_quiet(out: &mut Vec<Move>, from: Cell, targets: u128) {
    for to in Cells(targets) {
        out.push(Move::quiet(from, to));
    }
}

/// The steps from `from` to the cells of `steps` (its free neighbours), in
/// id order: every neighbour is written and dropped again unless free, so no
/// branch depends on the board (most pawns have only steps).
#[inline]
fn push_steps(out: &mut Vec<Move>, from: Cell, steps: u128) {
    for &to in &STEP_LISTS[from.id()] {
        let to = Cell::of(to);
        out.push(Move::quiet(from, to));
        let taken = usize::from(steps & to.bit() == 0);
        out.truncate(out.len() - taken);
    }
}

/// Room for every pawn of one player (at most [`PAWNS`]), a power of two
/// so that indexing needs no bounds check.
const SLOTS: usize = 16;
const _: () = assert!(PAWNS as usize <= SLOTS);

/// The size of a set of at most three cells (a pawn's steps): three
/// lowest-bit clears, cheaper than a 128-bit population count.
#[inline]
fn small_set_len(set: u128) -> u32 {
    let two = set & set.wrapping_sub(1);
    let three = two & two.wrapping_sub(1);
    u32::from(set != 0) + u32::from(two != 0) + u32::from(three != 0)
}

/// The `i`-th cell of `set` in id order (`i` below its size).
#[inline]
fn nth_cell(mut set: u128, i: u32) -> Cell {
    for _ in 0..i {
        set &= set.wrapping_sub(1);
    }
    Cell::of(set.trailing_zeros() as u8)
}

/// Pawns of each player standing in one of their owner's opposing zones.
fn in_opposing_zones(pawns: &[u128; 3]) -> u128 {
    (0..3).fold(0, |m, s| m | (pawns[s] & opposing_zones(s)))
}

/// The conquest targets of the side to move's pawns, listed by
/// [`Gildervaik::conquest_targets`].
struct Targets {
    /// The pawns in id order (the first `len`).
    pawns: [Cell; SLOTS],
    /// `jumps[j]`: every cell a chain of the pawn `pawns[j]` reaches.
    jumps: [u128; SLOTS],
    /// `leaps[j]`: the size of `jumps[j]`.
    leaps: [u32; SLOTS],
    len: usize,
    /// The empty cells.
    free: u128,
    /// The seat whose pawns `confine_in_target` fences, if it applies.
    fence: Option<Seat>,
}

impl Targets {
    /// No pawns yet, for [`Gildervaik::conquest_targets`] to fill.
    fn new() -> Targets {
        Targets {
            pawns: [Cell::of(0); SLOTS],
            jumps: [0; SLOTS],
            leaps: [0; SLOTS],
            len: 0,
            free: 0,
            fence: None,
        }
    }

    /// Where the pawn on `x` may land.
    #[inline(always)]
    fn room(&self, x: Cell) -> u128 {
        match self.fence {
            Some(seat) => fence(seat, x),
            None => ALL_BOARD,
        }
    }

    /// The step targets of the pawn on `from`.
    #[inline(always)]
    fn steps(&self, from: Cell) -> u128 {
        NEIGHBOURS[from.id()] & self.free & self.room(from)
    }

    /// Every cell a chain from `from` reaches whose first landings are
    /// `first`, and how many: each reached cell is expanded once (the
    /// flood's loop runs once per cell, so it counts them). Layer by layer:
    /// the cells of a layer do not wait for each other's landings, so their
    /// table loads overlap (measured faster than cell by cell).
    #[inline(always)]
    fn chain_reach<const LONG: bool>(
        &self,
        board: &mut JumpBoard,
        from: Cell,
        first: u128,
    ) -> (u128, u32) {
        // The start cell counts as empty during the move.
        board.occupied.toggle(from);
        let mut reached = from.bit() | first;
        let (mut layer, mut count) = (first, 0);
        while layer != 0 {
            let mut next = 0;
            let mut todo = layer;
            while todo != 0 {
                let x = Cell::of(todo.trailing_zeros() as u8);
                todo &= todo - 1;
                count += 1;
                next |= board.landings_of::<LONG>(x) & self.room(x);
            }
            layer = next & !reached;
            reached |= layer;
        }
        board.occupied.toggle(from);
        (reached & !from.bit(), count)
    }
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
        let mut t = Targets::new();
        self.conquest_targets(&mut t);
        for (j, &from) in t.pawns[..t.len].iter().enumerate() {
            let steps = t.steps(from);
            if t.jumps[j] == 0 {
                push_steps(out, from, steps);
            } else {
                push_quiet(out, from, steps | t.jumps[j]);
            }
        }
    }

    /// A uniformly random conquest move, as a random playout picks it from
    /// the list of [`Gildervaik::generate`] (index `rng.gen_range(0..n)`, the
    /// same draw), without listing it: the list is the pawns in id order,
    /// each with its targets in id order, so counting targets finds the move.
    /// Not inlined: its large frame would burden warrior playouts.
    #[inline(never)]
    pub(crate) fn random_conquest_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Move {
        let mut t = Targets::new();
        self.conquest_targets(&mut t);
        // Each pawn's number of targets; only the drawn pawn's are listed.
        let mut counts = [0u32; SLOTS];
        let mut total = 0;
        for (j, &from) in t.pawns[..t.len].iter().enumerate() {
            let n = small_set_len(t.steps(from)) + t.leaps[j];
            counts[j] = n;
            total += n;
        }
        // A blocked side's list is `pass` alone, still drawn from.
        let i = rng.gen_range(0..total.max(1));
        if total == 0 {
            return Move::PASS;
        }
        // The pawns whose targets all come before `i` (a prefix of the list),
        // counted without branches: where `i` falls is unpredictable.
        let (mut skip, mut before, mut end) = (0, 0, 0);
        for &n in &counts[..t.len] {
            end += n;
            let past = u32::from(end <= i);
            skip += past as usize;
            before += n & past.wrapping_neg();
        }
        let j = skip % SLOTS;
        let from = t.pawns[j];
        Move::quiet(from, nth_cell(t.steps(from) | t.jumps[j], i - before))
    }

    /// The pawns of the side to move in id order, each with its jump targets
    /// (every cell some chain reaches) and their number, into `t` (empty).
    #[inline(always)]
    fn conquest_targets(&self, t: &mut Targets) {
        let seat = self.to_move;
        let chain = self.opts.chain_jumps;
        t.free = !self.occupied();
        t.fence = self.opts.confine_in_target.then_some(seat);
        let mut board = JumpBoard {
            occupied: self.strips,
            centres: if self.opts.jump_own_pawns {
                self.strips
            } else {
                self.strips.without(&self.seat_strips[seat])
            },
            long: self.opts.conquest_long_jumps,
        };
        // First segments of all pawns at once (a pawn's own cell is not on
        // its rays, so they need no change to the board); few pawns have one.
        let mut firsts = [(Cell::of(0), Cell::of(0)); MAX_FIRSTS];
        let count = board.first_segments(&self.seat_strips[seat], &mut firsts);
        // The pawns in id order, and each cell's place in that order.
        let mut place = [0u8; 128];
        for from in Cells(self.pawns[seat]) {
            t.pawns[t.len % SLOTS] = from;
            place[from.id() % 128] = t.len as u8;
            t.len += 1;
        }
        // Each pawn's first landings (kept in `jumps` until its flood), and
        // which pawns have one.
        let mut jumpers = 0u32;
        for &(from, to) in &firsts[..count] {
            let j = usize::from(place[from.id() % 128]) % SLOTS;
            t.jumps[j] |= cell_bit_if(to, true);
            jumpers |= 1 << j;
        }
        // The jump targets of those pawns: every cell a chain reaches.
        while jumpers != 0 {
            let j = jumpers.trailing_zeros() as usize % SLOTS;
            jumpers &= jumpers - 1;
            let from = t.pawns[j];
            let first = t.jumps[j] & t.room(from);
            (t.jumps[j], t.leaps[j]) = if !chain {
                (first, first.count_ones())
            } else if board.long {
                t.chain_reach::<true>(&mut board, from, first)
            } else {
                t.chain_reach::<false>(&mut board, from, first)
            };
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
        // Cells a jump could start over: neighbours, or anything for long jumps.
        let near = if long {
            ALL_BOARD
        } else {
            Cells(own).fold(0, |m, x| m | NEIGHBOURS[x.id()])
        };
        if capturable & near != 0 {
            let mut search = CaptureSearch {
                board: JumpBoard {
                    occupied: self.strips,
                    centres: Strips::new(capturable),
                    long,
                },
                optional: self.opts.capture_continuation == Continuation::Optional,
                end_of_move: self.opts.capture_removal == Removal::EndOfMove,
                from: Cell::of(0),
                path: [Cell::of(0); MAX_PATH],
                out,
            };
            for from in Cells(own) {
                search.from = from;
                search.board.occupied.toggle(from);
                search.extend(from, 0);
                search.board.occupied.toggle(from);
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
        let any_jump = centres & near != 0;
        let board = JumpBoard {
            occupied: self.strips,
            centres: if any_jump {
                Strips::new(centres)
            } else {
                Strips::default()
            },
            long,
        };
        for from in Cells(own) {
            let steps = NEIGHBOURS[from.id()] & !all;
            let jumps = if any_jump { board.landings(from) } else { 0 };
            push_quiet(out, from, steps | jumps);
        }
    }
}

/// Depth-first search of warrior capture sequences for one pawn (W4).
struct CaptureSearch<'a> {
    /// The pawns that block (the mover excluded) and those still capturable.
    board: JumpBoard,
    optional: bool,
    end_of_move: bool,
    from: Cell,
    path: [Cell; MAX_PATH],
    out: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    /// Continue from `x` after `depth` captures.
    fn extend(&mut self, x: Cell, depth: usize) {
        let landings = self.board.landings(x);
        for l in Cells(landings) {
            let Some(c) = centre(x, l) else { continue };
            self.path[depth] = l;
            if self.optional {
                self.emit(depth + 1);
            }
            // A captured pawn cannot be jumped again; removed at once, it
            // stops blocking too.
            self.board.centres.toggle(c);
            if !self.end_of_move {
                self.board.occupied.toggle(c);
            }
            self.extend(l, depth + 1);
            self.board.centres.toggle(c);
            if !self.end_of_move {
                self.board.occupied.toggle(c);
            }
        }
        if landings == 0 && depth > 0 && !self.optional {
            self.emit(depth);
        }
    }

    fn emit(&mut self, len: usize) {
        self.out.push(Move::capture(self.from, &self.path[..len]));
    }
}
