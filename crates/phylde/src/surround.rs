//! Attacks on a King's quad and the surround test (spec §7): the four quad
//! squares must be matched to four distinct attackers.
//!
//! Rays are walked outward from each quad square, so each square costs at
//! most 8 short walks, and the test stops at the first unattacked square.
//! The attacked King's own quad squares let rays through; the other King's
//! quad blocks them.

use crate::geometry::{step, Pt, Sq, EDGE};
use crate::pieces::{cell_side, is_piece, quad_cell, Cell, Side, EMPTY};
use crate::state::Phylde;

/// Attack range of each cell (0 for non-pieces).
static RANGE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut c = 1;
    while c < 8 {
        if c != 4 {
            t[c] = crate::pieces::cell_kind(c as Cell).range() as u8;
        }
        c += 1;
    }
    t
};

/// `NEAR[dy + 6][dx + 6]`: whether a square at (dx, dy) from a King's point
/// lies on a ray within 5 squares of one of its quad squares, the only
/// squares where a change can alter the attacks on that quad.
static NEAR: [[bool; 12]; 12] = {
    let mut t = [[false; 12]; 12];
    let mut i = 0;
    while i < 144 {
        let (dx, dy) = ((i % 12) as i32 - 6, (i / 12) as i32 - 6);
        let mut q = 0;
        while q < 4 {
            // Quad squares sit at (-1 | 0, -1 | 0) from the point.
            let (ex, ey) = (dx - q % 2 + 1, dy - q / 2 + 1);
            let (ax, ay) = (ex.abs(), ey.abs());
            if (ex == 0 || ey == 0 || ax == ay) && ax <= 5 && ay <= 5 {
                t[i / 12][i % 12] = true;
            }
            q += 1;
        }
        i += 1;
    }
    t
};

/// Whether a change on `sq` can alter the attacks on the quad of `king`.
#[inline]
pub(crate) fn near_quad(king: Pt, sq: Sq) -> bool {
    let dx = sq.x() as i32 - king.x() as i32 + 6;
    let dy = sq.y() as i32 - king.y() as i32 + 6;
    (0..12).contains(&dx) && (0..12).contains(&dy) && NEAR[dy as usize][dx as usize]
}

/// Attackers (their squares) of each quad square: at most one per ray.
type Lists = [[u16; 8]; 4];

impl Phylde {
    /// The pieces of `victim`'s enemy attacking square `q` of its quad.
    fn attackers_of(&self, q: usize, victim: Side, out: &mut [u16; 8]) -> usize {
        let own_quad = quad_cell(victim);
        let enemy = victim.other();
        let mut n = 0;
        for (d, &edge) in EDGE[q].iter().enumerate() {
            for k in 1..=(edge as usize).min(5) {
                let sq = step(q, d, k);
                let c = self.board[sq];
                if c == EMPTY || c == own_quad {
                    continue;
                }
                if is_piece(c) && cell_side(c) == enemy && RANGE[c as usize] as usize >= k {
                    out[n] = sq as u16;
                    n += 1;
                }
                break;
            }
        }
        n
    }

    /// Whether `victim`'s King is surrounded by four distinct attackers.
    pub fn is_surrounded(&self, victim: Side) -> bool {
        let mut lists: Lists = [[0; 8]; 4];
        let mut lens = [0usize; 4];
        for (i, q) in self.kings[victim.index()].quad().iter().enumerate() {
            lens[i] = self.attackers_of(q.index(), victim, &mut lists[i]);
            if lens[i] == 0 {
                return false;
            }
        }
        best_matching(&lists, &lens, 0, &mut [0; 4]) == 4
    }

    /// How many of `victim`'s quad squares can be given distinct attackers
    /// (0..=4): the surround threat, for evaluation.
    pub fn surround_pressure(&self, victim: Side) -> usize {
        let mut lists: Lists = [[0; 8]; 4];
        let mut lens = [0usize; 4];
        for (i, q) in self.kings[victim.index()].quad().iter().enumerate() {
            lens[i] = self.attackers_of(q.index(), victim, &mut lists[i]);
        }
        best_matching(&lists, &lens, 0, &mut [0; 4])
    }
}

/// Largest matching of quad squares `i..4` to attackers not in `used[..i]`
/// (brute force with backtracking; stops once all remaining are matched).
fn best_matching(lists: &Lists, lens: &[usize; 4], i: usize, used: &mut [u16; 4]) -> usize {
    if i == 4 {
        return 0;
    }
    let mut best = 0;
    for &a in &lists[i][..lens[i]] {
        if !used[..i].contains(&a) {
            used[i] = a;
            best = best.max(1 + best_matching(lists, lens, i + 1, used));
            if best == 4 - i {
                return best;
            }
        }
    }
    // Leaving square i unmatched can only help if the rest may still gain.
    if best < 3 - i {
        used[i] = u16::MAX;
        best = best.max(best_matching(lists, lens, i + 1, used));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_squares_are_those_on_short_rays_to_the_quad() {
        let king = Pt::parse("j10+").unwrap();
        let quad = king.quad();
        for i in 0..crate::geometry::SQUARES {
            let sq = Sq(i as u16);
            let expected = quad
                .iter()
                .any(|&q| crate::geometry::ray_between(sq, q).is_some_and(|(_, dist)| dist <= 5));
            assert_eq!(near_quad(king, sq), expected || quad.contains(&sq), "{sq}");
        }
    }

    #[test]
    fn matching_needs_distinct_attackers() {
        let mut lists: Lists = [[0; 8]; 4];
        // Squares 0 and 1 share their only attacker 7: at most 3 matched.
        lists[0][0] = 7;
        lists[1][0] = 7;
        lists[2][..2].copy_from_slice(&[7, 8]);
        lists[3][..2].copy_from_slice(&[8, 9]);
        assert_eq!(best_matching(&lists, &[1, 1, 2, 2], 0, &mut [0; 4]), 3);
        lists[1][1] = 10;
        assert_eq!(best_matching(&lists, &[1, 2, 2, 2], 0, &mut [0; 4]), 4);
        assert_eq!(best_matching(&lists, &[0, 0, 0, 0], 0, &mut [0; 4]), 0);
    }
}
