//! Legal action generation (spec §6, §8), straight into the caller's buffer
//! in the canonical order of spec §9: by origin square, then destination,
//! step before shot; King steps after pieces; `end` last.
//!
//! Each piece first measures how far it can go along its 8 rays, then
//! writes every candidate of a table of (direction, distance) pairs sorted
//! by index offset (= destination order) and keeps the reachable ones by
//! advancing the write index on a condition: no unpredictable branches.

use crate::action::Action;
use crate::geometry::{Sq, EDGE, KING_STEPS, NEIGHBOURS, OFFSETS, WALL};
use crate::pieces::{cell_kind, Class, Kind, CLASS, EMPTY};
use crate::state::Phylde;

/// A candidate destination: direction, distance, index offset.
type Ray = (u8, u8, i16);

/// All (direction, distance) pairs up to `range`, sorted by index offset.
const fn rays_by_offset<const N: usize>(range: usize) -> [Ray; N] {
    let mut t = [(0u8, 0u8, 0i16); N];
    let mut n = 0;
    let mut dist = 1;
    while dist <= range {
        let mut d = 0;
        while d < 8 {
            t[n] = (d as u8, dist as u8, (OFFSETS[d] * dist as i32) as i16);
            n += 1;
            d += 1;
        }
        dist += 1;
    }
    // Insertion sort by offset (all offsets are distinct up to range 5).
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && t[j - 1].2 > t[j].2 {
            let tmp = t[j];
            t[j] = t[j - 1];
            t[j - 1] = tmp;
            j -= 1;
        }
        i += 1;
    }
    t
}

static ARCHER_RAYS: [Ray; 16] = rays_by_offset(2);
static CAVALIER_RAYS: [Ray; 40] = rays_by_offset(5);

/// Room for one piece's actions: a cavalier's 40 moves, or an archer's 16
/// moves and at most 8 shots.
const PIECE_MAX: usize = 40;

impl Phylde {
    /// The legal actions here (empty once the game is over).
    pub(crate) fn generate(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let me = self.side.index();
        let mut buf = [Action::EndTurn; PIECE_MAX];
        match self.turn.kind {
            None => {
                let [s, a, c] = &self.pieces[me];
                for from in s.union(a).union(c).iter() {
                    let n = self.piece_actions(from, cell_kind(self.board[from]), &mut buf);
                    out.extend(buf[..n].iter().copied());
                }
                self.king_actions(out);
            }
            Some(kind) => {
                if kind != Kind::King {
                    let ready = self.pieces[me][kind.index()].minus(&self.turn.acted);
                    for from in ready.iter() {
                        let n = self.piece_actions(from, kind, &mut buf);
                        out.extend(buf[..n].iter().copied());
                    }
                }
                out.push(Action::EndTurn);
            }
        }
    }

    /// Write the actions of the piece on `from` to `buf`; returns how many.
    #[inline]
    fn piece_actions(&self, from: usize, kind: Kind, buf: &mut [Action; PIECE_MAX]) -> usize {
        match kind {
            Kind::Soldier => self.soldier_actions(from, buf),
            Kind::Archer => self.ray_actions::<2, true>(from, &ARCHER_RAYS, buf),
            _ => self.ray_actions::<5, false>(from, &CAVALIER_RAYS, buf),
        }
    }

    fn soldier_actions(&self, from: usize, buf: &mut [Action; PIECE_MAX]) -> usize {
        let class = &CLASS[self.side.index()];
        let origin = Sq(from as u16);
        let mut n = 0;
        for &to in &NEIGHBOURS[from] {
            buf[n] = Action::Step {
                from: origin,
                to: Sq(to),
            };
            n += usize::from(class[self.board[to as usize] as usize] != Class::Blocked);
        }
        n
    }

    /// Moves (and shots, for archers) of a piece sliding up to `RANGE`.
    fn ray_actions<const RANGE: usize, const SHOOTS: bool>(
        &self,
        from: usize,
        rays: &[Ray],
        buf: &mut [Action; PIECE_MAX],
    ) -> usize {
        let class = &CLASS[self.side.index()];
        // Squares reachable along each ray, and whether the last one is an
        // enemy; walked without branching (off-board squares read the wall).
        let mut reach = [0u8; 8];
        let mut hit = [false; 8];
        for (d, &edge) in EDGE[from].iter().enumerate() {
            let (mut open, mut r, mut h) = (true, 0u8, false);
            for k in 1..=RANGE {
                let sq = if k <= edge as usize {
                    (from as isize + OFFSETS[d] as isize * k as isize) as usize
                } else {
                    WALL
                };
                let c = class[self.board[sq] as usize];
                let empty = open & (c == Class::Empty);
                let enemy = open & (c == Class::Enemy);
                r += u8::from(empty | enemy);
                h |= enemy;
                open = empty;
            }
            reach[d] = r;
            hit[d] = h;
        }
        let origin = Sq(from as u16);
        let mut n = 0;
        for &(d, dist, off) in rays {
            let d = d as usize;
            let to = Sq((from as i32 + off as i32) as u16);
            buf[n] = Action::Step { from: origin, to };
            n += usize::from(dist <= reach[d]);
            if SHOOTS {
                buf[n] = Action::Shot {
                    from: origin,
                    target: to,
                };
                n += usize::from(hit[d] & (dist == reach[d]));
            }
        }
        n
    }

    fn king_actions(&self, out: &mut Vec<Action>) {
        let from = self.kings[self.side.index()];
        for (to, fresh) in KING_STEPS[from.index()].iter().flatten() {
            if fresh.iter().all(|s| self.board[s.index()] == EMPTY) {
                out.push(Action::King { from, to: *to });
            }
        }
    }

    /// Whether the side to move has any action at the start of a turn: a
    /// piece with a free or enemy neighbour (every move and shot passes
    /// there first), or a King step.
    pub(crate) fn has_any_action(&self) -> bool {
        let me = self.side.index();
        let class = &CLASS[me];
        let [s, a, c] = &self.pieces[me];
        let piece_can_act = s.union(a).union(c).iter().any(|from| {
            NEIGHBOURS[from]
                .iter()
                .any(|&to| class[self.board[to as usize] as usize] != Class::Blocked)
        });
        piece_can_act || {
            let from = self.kings[me];
            KING_STEPS[from.index()]
                .iter()
                .flatten()
                .any(|(_, fresh)| fresh.iter().all(|s| self.board[s.index()] == EMPTY))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ray_tables_are_in_destination_order() {
        for rays in [&ARCHER_RAYS[..], &CAVALIER_RAYS[..]] {
            let offs: Vec<i16> = rays.iter().map(|r| r.2).collect();
            assert!(offs.windows(2).all(|w| w[0] < w[1]), "{offs:?}");
        }
    }
}
