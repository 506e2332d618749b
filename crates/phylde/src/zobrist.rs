//! Zobrist keys (compile-time tables). The board part (pieces, Kings, side)
//! identifies a turn-boundary position for the repetition rule; the turn
//! part (kind, count, acted squares) is kept apart so a turn end clears it
//! in one step.

use crate::geometry::{Pt, POINTS, SQUARES};
use crate::pieces::{Cell, Kind, Side};
use tabula_core::zobrist::keys;

static PIECES: [u64; 8 * SQUARES] = keys(0x5068_796c_6465_0001);
static KINGS: [u64; 2 * POINTS] = keys(0x5068_796c_6465_0002);
static ACTED: [u64; SQUARES] = keys(0x5068_796c_6465_0003);
static TURN: [u64; 12] = keys(0x5068_796c_6465_0004);

/// Toggled when North is to move.
pub const NORTH_TO_MOVE: u64 = tabula_core::zobrist::key(0x5068_796c_6465_0005, 0);

#[inline]
pub fn piece(c: Cell, sq: usize) -> u64 {
    PIECES[c as usize * SQUARES + sq]
}
#[inline]
pub fn king(side: Side, p: Pt) -> u64 {
    KINGS[side.index() * POINTS + p.index()]
}
#[inline]
pub fn acted(sq: usize) -> u64 {
    ACTED[sq]
}
#[inline]
pub fn turn_kind(k: Kind) -> u64 {
    TURN[k.index()]
}
/// Key of an action count 1..=5 (0 has no key).
#[inline]
pub fn turn_count(n: u8) -> u64 {
    if n == 0 {
        0
    } else {
        TURN[4 + n as usize]
    }
}
