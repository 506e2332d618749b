//! The position: one 100-bit set of pawns per player, the side to move and
//! the counters the end-of-game rules read. No heap: cloning is a copy.

use crate::geometry::{Cell, Cells, Seat, CELLS, UP_CELLS, ZONES};
use crate::jumps::Strips;
use crate::options::{Mode, Options};
use tabula_core::zobrist;
use tabula_core::Outcome;

/// Seat letters, in turn order.
pub const SEAT_NAMES: [&str; 3] = ["A", "B", "C"];

/// Pawns per player at the start (and at most, in any position).
pub const PAWNS: u32 = 10;

/// The counters of the position string (spec §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Plies played, forced passes included (`max_plies`).
    pub ply: u32,
    /// Turns played by A, B, C, passes included (`evacuation_turn`).
    pub turns: [u32; 3],
    /// Consecutive plies without a capture (warrior limit).
    pub nocap: u32,
    /// Remaining players who have passed in succession since the last move.
    pub passes: u32,
    /// Pawns captured by A, B, C (`limit_rank=captures`).
    pub caps: [u32; 3],
}

const PAWN_KEYS: [[u64; CELLS]; 3] = [
    zobrist::keys(0x6769_6c64_0000_0001),
    zobrist::keys(0x6769_6c64_0000_0002),
    zobrist::keys(0x6769_6c64_0000_0003),
];
const SIDE_KEYS: [u64; 3] = zobrist::keys(0x6769_6c64_0000_0004);
const COUNTER_SEED: u64 = 0x6769_6c64_0000_0005;

/// A Gildervaik position with its rule options.
#[derive(Clone, Debug)]
pub struct Gildervaik {
    pub(crate) opts: Options,
    /// `pawns[seat]`: bit `id` set iff that player has a pawn on cell `id`.
    pub(crate) pawns: [u128; 3],
    pub(crate) to_move: Seat,
    pub(crate) counters: Counters,
    /// Zobrist key of the pawns and the side to move (kept incrementally).
    pub(crate) key: u64,
    /// Every pawn along the strips, for jump generation (kept incrementally).
    pub(crate) strips: Strips,
    /// Each seat's pawns along the strips: jump centres in one pass.
    pub(crate) seat_strips: [Strips; 3],
    /// Set once the game is over.
    pub(crate) result: Option<Outcome>,
}

impl Gildervaik {
    /// A position from its parts, with its key computed; the result is left
    /// for the caller to settle.
    pub(crate) fn assemble(
        opts: Options,
        pawns: [u128; 3],
        to_move: Seat,
        counters: Counters,
    ) -> Gildervaik {
        let mut key = SIDE_KEYS[to_move];
        for (seat, &set) in pawns.iter().enumerate() {
            for x in Cells(set) {
                key ^= PAWN_KEYS[seat][x.id()];
            }
        }
        Gildervaik {
            opts,
            pawns,
            to_move,
            counters,
            key,
            strips: Strips::new(pawns[0] | pawns[1] | pawns[2]),
            seat_strips: pawns.map(Strips::new),
            result: None,
        }
    }

    /// The start: ten pawns on the up cells of each zone.
    pub(crate) fn start(opts: Options) -> Gildervaik {
        let pawns = [0, 1, 2].map(|s| ZONES[s] & UP_CELLS);
        Gildervaik::assemble(opts, pawns, opts.first_player.index(), Counters::default())
    }

    /// The cells of one player's pawns.
    pub fn pawns_of(&self, seat: Seat) -> Cells {
        Cells(self.pawns[seat])
    }

    /// The seat to move (meaningful while the game is not over).
    pub fn side_to_move(&self) -> Seat {
        self.to_move
    }

    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Every pawn on the board.
    #[inline]
    pub(crate) fn occupied(&self) -> u128 {
        self.pawns[0] | self.pawns[1] | self.pawns[2]
    }

    /// The seat owning the pawn on `x`, if any.
    #[inline]
    pub(crate) fn owner(&self, x: Cell) -> Option<Seat> {
        (0..3).find(|&s| self.pawns[s] & x.bit() != 0)
    }

    /// The seats that still have pawns.
    pub(crate) fn remaining(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..3).filter(|&s| self.pawns[s] != 0)
    }

    pub(crate) fn remaining_count(&self) -> u32 {
        self.remaining().count() as u32
    }

    #[inline(always)]
    pub(crate) fn toggle_pawn(&mut self, seat: Seat, x: Cell) {
        self.pawns[seat] ^= x.bit();
        self.key ^= PAWN_KEYS[seat][x.id()];
        Strips::toggle_both(&mut self.strips, &mut self.seat_strips[seat], x);
    }

    pub(crate) fn set_side(&mut self, seat: Seat) {
        self.key ^= SIDE_KEYS[self.to_move] ^ SIDE_KEYS[seat];
        self.to_move = seat;
    }

    /// Remove all of a player's pawns: he takes no further turns.
    pub(crate) fn eliminate(&mut self, seat: Seat) {
        for x in Cells(self.pawns[seat]) {
            self.toggle_pawn(seat, x);
        }
    }

    /// The full hash: pawns, side to move, and the counters the mode reads.
    pub(crate) fn full_hash(&self) -> u64 {
        let c = &self.counters;
        let fields: [u32; 6] = match self.opts.mode {
            Mode::Conquest => [c.ply, c.turns[0], c.turns[1], c.turns[2], c.passes, 0],
            Mode::Warrior => [c.nocap, c.passes, c.caps[0], c.caps[1], c.caps[2], 0],
        };
        fields
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .fold(self.key, |h, (i, &v)| {
                h ^ zobrist::key(COUNTER_SEED ^ i as u64, u64::from(v))
            })
    }
}
