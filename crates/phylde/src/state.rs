//! The position: a mailbox with per-kind bit sets, the Kings' points, the
//! turn in progress (spec §8 `TurnState`), the draw counters, and a fixed
//! history of turn-boundary hashes for the repetition rule. No heap: a clone
//! is one memcpy.

use crate::action::Action;
use crate::geometry::{Pt, SQUARES, WALL};
use crate::options::{Options, MAX_NO_CAPTURE_TURNS};
use crate::pieces::{
    cell_kind, cell_side, is_piece, quad_cell, Bits, Cell, Kind, Side, EMPTY, WALL_CELL,
};
use crate::surround::near_quad;
use crate::zobrist;
use tabula_core::{Outcome, Player, PlayerSet};

/// The turn in progress: its kind, how many actions it has had, and the
/// squares of the pieces that acted (a King's acted square is the south-west
/// square of its point). All empty at a turn boundary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnState {
    pub kind: Option<Kind>,
    pub count: u8,
    pub acted: Bits,
}

/// Hashes of the turn-boundary positions since the last capture. A capture
/// makes every earlier position unreachable, and the no-capture rule ends
/// the game before the array overflows.
#[derive(Clone, Copy)]
pub(crate) struct History {
    hashes: [u64; MAX_NO_CAPTURE_TURNS as usize],
    len: u8,
    /// The sum of the recorded hashes, mixed: the same for the same hashes
    /// in any order, which is all the repetition rule reads of them.
    key: u64,
}

/// Seed of the keys that mix the recorded hashes into `History::key`.
const HISTORY_SEED: u64 = 0x7E1A_90D3_4B2C_5F61;

impl History {
    pub(crate) const fn new() -> History {
        History {
            hashes: [0; MAX_NO_CAPTURE_TURNS as usize],
            len: 0,
            key: 0,
        }
    }
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.key = 0;
    }
    /// A hash of the recorded positions (see `Game::exact_hash`).
    pub(crate) fn key(&self) -> u64 {
        self.key
    }
    /// Record `h`; returns how many times it has now occurred.
    pub(crate) fn push(&mut self, h: u64) -> usize {
        let seen = self.hashes[..self.len as usize]
            .iter()
            .filter(|&&x| x == h)
            .count();
        if (self.len as usize) < self.hashes.len() {
            self.hashes[self.len as usize] = h;
            self.len += 1;
            self.key = self
                .key
                .wrapping_add(tabula_core::zobrist::key(HISTORY_SEED, h));
        }
        seen + 1
    }
}

/// A Phylde position (one value of the `Game` trait).
#[derive(Clone)]
pub struct Phylde {
    /// One cell per square, plus a wall cell at index `WALL` that
    /// off-board neighbours point to.
    pub(crate) board: [Cell; SQUARES + 1],
    /// Squares of each side's soldiers, archers and cavaliers.
    pub(crate) pieces: [[Bits; 3]; 2],
    pub(crate) kings: [Pt; 2],
    pub(crate) side: Side,
    pub(crate) turn: TurnState,
    /// Turns without a capture, counting the turn in progress once it has
    /// acted (see `docs/rules/phylde.md`).
    pub(crate) no_capture: u16,
    /// Completed turns.
    pub(crate) turn_number: u32,
    /// Zobrist of pieces, Kings and side.
    pub(crate) board_hash: u64,
    /// Zobrist of the turn state.
    pub(crate) turn_hash: u64,
    pub(crate) history: History,
    pub(crate) result: Option<Outcome>,
    pub(crate) options: Options,
}

impl std::fmt::Debug for Phylde {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Phylde({})", self.fen())
    }
}

pub(crate) fn player(side: Side) -> Player {
    Player(side as u8)
}

impl Phylde {
    /// An empty board (Kings still to place), South to move.
    pub(crate) fn empty(options: Options) -> Phylde {
        Phylde {
            board: {
                let mut b = [EMPTY; SQUARES + 1];
                b[WALL] = WALL_CELL;
                b
            },
            pieces: [[Bits::EMPTY; 3]; 2],
            kings: [Pt(0); 2],
            side: Side::South,
            turn: TurnState::default(),
            no_capture: 0,
            turn_number: 0,
            board_hash: 0,
            turn_hash: 0,
            history: History::new(),
            result: None,
            options,
        }
    }

    // ----- read access (public for tools and tests) -----

    /// The piece on a square, if any (quad squares are empty).
    pub fn piece(&self, sq: crate::Sq) -> Option<(Side, Kind)> {
        let c = self.board[sq.index()];
        is_piece(c).then(|| (cell_side(c), cell_kind(c)))
    }
    /// The point of a side's King.
    pub fn king(&self, side: Side) -> Pt {
        self.kings[side.index()]
    }
    pub fn side_to_move(&self) -> Side {
        self.side
    }
    /// The turn in progress (empty at a turn boundary).
    pub fn turn_state(&self) -> TurnState {
        self.turn
    }
    /// Turns without capture and completed turns (the FEN draw counters).
    pub fn counters(&self) -> (u16, u32) {
        (self.no_capture, self.turn_number)
    }
    /// The kind of piece making `action` here (`None` for `end`).
    pub fn action_kind(&self, action: Action) -> Option<Kind> {
        match action {
            Action::Step { from, .. } | Action::Shot { from, .. } => {
                self.piece(from).map(|(_, k)| k)
            }
            Action::King { .. } => Some(Kind::King),
            Action::EndTurn => None,
        }
    }
    /// Non-King pieces of a side.
    pub fn material(&self, side: Side) -> usize {
        self.pieces[side.index()].iter().map(Bits::len).sum()
    }

    // ----- board edits, keeping bit sets and hash in step -----

    pub(crate) fn put(&mut self, sq: usize, c: Cell) {
        self.board[sq] = c;
        self.pieces[cell_side(c).index()][cell_kind(c).index()].insert(sq);
        self.board_hash ^= zobrist::piece(c, sq);
    }
    pub(crate) fn take(&mut self, sq: usize) {
        let c = self.board[sq];
        self.board[sq] = EMPTY;
        self.pieces[cell_side(c).index()][cell_kind(c).index()].remove(sq);
        self.board_hash ^= zobrist::piece(c, sq);
    }
    pub(crate) fn set_king(&mut self, side: Side, p: Pt) {
        for q in p.quad() {
            self.board[q.index()] = quad_cell(side);
        }
        self.kings[side.index()] = p;
        self.board_hash ^= zobrist::king(side, p);
    }
    fn lift_king(&mut self, side: Side) {
        let p = self.kings[side.index()];
        for q in p.quad() {
            self.board[q.index()] = EMPTY;
        }
        self.board_hash ^= zobrist::king(side, p);
    }
    pub(crate) fn set_side(&mut self, side: Side) {
        if side != self.side {
            self.side = side;
            self.board_hash ^= zobrist::NORTH_TO_MOVE;
        }
    }
    /// Record one action of `kind` by the piece now on `acted` in the turn state.
    pub(crate) fn mark_acted(&mut self, kind: Kind, acted: usize) {
        if self.turn.kind.is_none() {
            self.turn.kind = Some(kind);
            self.turn_hash ^= zobrist::turn_kind(kind);
        }
        self.turn_hash ^= zobrist::turn_count(self.turn.count);
        self.turn.count += 1;
        self.turn_hash ^= zobrist::turn_count(self.turn.count);
        self.turn.acted.insert(acted);
        self.turn_hash ^= zobrist::acted(acted);
    }

    // ----- playing -----

    /// Play a legal action (spec §8 `apply`).
    pub(crate) fn play(&mut self, action: Action) {
        let mover = self.side;
        let first = self.turn.count == 0;
        let king = self.kings[mover.other().index()];
        // `near`: whether the action changed a square that can matter to the
        // attacks on the opponent's quad.
        let (kind, acted, captured, near) = match action {
            Action::Step { from, to } => {
                let c = self.board[from.index()];
                let captured = self.board[to.index()] != EMPTY;
                if captured {
                    self.capture(to.index());
                }
                self.take(from.index());
                self.put(to.index(), c);
                let near = near_quad(king, from) || near_quad(king, to);
                (cell_kind(c), to.index(), captured, near)
            }
            Action::Shot { from, target } => {
                self.capture(target.index());
                (Kind::Archer, from.index(), true, near_quad(king, target))
            }
            Action::King { to, .. } => {
                self.lift_king(mover);
                self.set_king(mover, to);
                // The King's quad walls rays, so moving it may open some.
                (Kind::King, to.sw().index(), false, true)
            }
            Action::EndTurn => return self.end_turn(),
        };
        if first && !captured {
            self.no_capture = self.no_capture.saturating_add(1);
        }
        self.mark_acted(kind, acted);
        // The opponent's King was not surrounded before this action (the
        // game would be over), so only a change near its quad can do it.
        if near && self.is_surrounded(mover.other()) {
            self.result = Some(Outcome::Win(player(mover)));
        } else if self.turn.count == kind.turn_limit() {
            self.end_turn();
        }
    }

    fn capture(&mut self, sq: usize) {
        self.take(sq);
        self.no_capture = 0;
        self.history.clear();
    }

    /// Close the turn, pass the move, and judge the new boundary in the
    /// order of spec §7: self-exposure, draws, immobility.
    fn end_turn(&mut self) {
        self.turn = TurnState::default();
        self.turn_hash = 0;
        self.turn_number = self.turn_number.saturating_add(1);
        self.set_side(self.side.other());
        if self.is_surrounded(self.side.other()) {
            self.result = Some(Outcome::Win(player(self.side)));
            return;
        }
        let seen = self.history.push(self.board_hash);
        let o = &self.options;
        let draw = seen >= o.repetition as usize
            || self.no_capture >= o.no_capture_turns
            || (o.material_draw
                && self.material(Side::South) < 4
                && self.material(Side::North) < 4);
        if draw {
            self.result = Some(Outcome::Draw(PlayerSet::all(2)));
        } else if !self.has_any_action() {
            self.result = Some(Outcome::Win(player(self.side.other())));
        }
    }

    /// Judge a position just read from text (spec §9): a surrounded King of
    /// the side not to move loses; a `draw` mark draws; a boundary with no
    /// legal action loses. Draw rules are not re-checked.
    pub(crate) fn judge_read(&mut self, drawn: bool) {
        self.history.clear();
        if self.turn.count == 0 {
            self.history.push(self.board_hash);
        }
        self.result = if self.is_surrounded(self.side.other()) {
            Some(Outcome::Win(player(self.side)))
        } else if drawn {
            Some(Outcome::Draw(PlayerSet::all(2)))
        } else if self.turn.count == 0 && !self.has_any_action() {
            Some(Outcome::Win(player(self.side.other())))
        } else {
            None
        };
    }
}
