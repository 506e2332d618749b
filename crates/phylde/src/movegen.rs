//! Legal action generation (spec §6, §8), straight into the caller's buffer
//! in the canonical order of spec §9: by origin square, then destination,
//! step before shot; King steps after pieces; `end` last.
//!
//! Each piece first measures how far it can go along its 8 rays (one walk
//! per ray), then emits its destinations from a table of (direction,
//! distance) pairs sorted by index offset, which is destination order.

use crate::action::Action;
use crate::geometry::{step, Sq, EDGE, KING_STEPS, OFFSETS};
use crate::pieces::{cell_kind, Class, Kind, CLASS, EMPTY};
use crate::state::Phylde;

/// All (direction, distance) pairs up to `range`, sorted by index offset.
const fn rays_by_offset<const N: usize>(range: usize) -> [(u8, u8); N] {
    let mut t = [(0u8, 0u8); N];
    let mut n = 0;
    let mut dist = 1;
    while dist <= range {
        let mut d = 0;
        while d < 8 {
            t[n] = (d as u8, dist as u8);
            n += 1;
            d += 1;
        }
        dist += 1;
    }
    // Insertion sort by offset (all offsets are distinct up to range 5).
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && offset(t[j - 1]) > offset(t[j]) {
            let tmp = t[j];
            t[j] = t[j - 1];
            t[j - 1] = tmp;
            j -= 1;
        }
        i += 1;
    }
    t
}

const fn offset((d, dist): (u8, u8)) -> i32 {
    OFFSETS[d as usize] * dist as i32
}

static ARCHER_RAYS: [(u8, u8); 16] = rays_by_offset(2);
static CAVALIER_RAYS: [(u8, u8); 40] = rays_by_offset(5);

impl Phylde {
    /// The legal actions here (empty once the game is over).
    pub(crate) fn generate(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let me = self.side.index();
        match self.turn.kind {
            None => {
                let [s, a, c] = &self.pieces[me];
                for from in s.union(a).union(c).iter() {
                    self.piece_actions(from, cell_kind(self.board[from]), out);
                }
                self.king_actions(out);
            }
            Some(kind) => {
                if kind != Kind::King {
                    let ready = self.pieces[me][kind.index()].minus(&self.turn.acted);
                    for from in ready.iter() {
                        self.piece_actions(from, kind, out);
                    }
                }
                out.push(Action::EndTurn);
            }
        }
    }

    #[inline]
    fn piece_actions(&self, from: usize, kind: Kind, out: &mut Vec<Action>) {
        match kind {
            Kind::Soldier => self.soldier_actions(from, out),
            Kind::Archer => self.ray_actions(from, 2, &ARCHER_RAYS, true, out),
            _ => self.ray_actions(from, 5, &CAVALIER_RAYS, false, out),
        }
    }

    fn soldier_actions(&self, from: usize, out: &mut Vec<Action>) {
        let class = &CLASS[self.side.index()];
        for (d, &edge) in EDGE[from].iter().enumerate() {
            if edge > 0 {
                let to = step(from, d, 1);
                if class[self.board[to] as usize] != Class::Blocked {
                    out.push(Action::Step {
                        from: Sq(from as u16),
                        to: Sq(to as u16),
                    });
                }
            }
        }
    }

    /// Moves (and shots) of a piece sliding up to `range` squares.
    fn ray_actions(
        &self,
        from: usize,
        range: usize,
        rays: &[(u8, u8)],
        shoots: bool,
        out: &mut Vec<Action>,
    ) {
        let class = &CLASS[self.side.index()];
        // Squares reachable along each ray, and whether the last one is an enemy.
        let mut reach = [0u8; 8];
        let mut hit = [false; 8];
        for (d, &edge) in EDGE[from].iter().enumerate() {
            let max = (edge as usize).min(range);
            let mut k = 0;
            while k < max {
                match class[self.board[step(from, d, k + 1)] as usize] {
                    Class::Empty => k += 1,
                    Class::Enemy => {
                        k += 1;
                        hit[d] = true;
                        break;
                    }
                    Class::Blocked => break,
                }
            }
            reach[d] = k as u8;
        }
        let origin = Sq(from as u16);
        for &(d, dist) in rays {
            let d = d as usize;
            if dist <= reach[d] {
                let to = Sq(step(from, d, dist as usize) as u16);
                out.push(Action::Step { from: origin, to });
                if shoots && hit[d] && dist == reach[d] {
                    out.push(Action::Shot {
                        from: origin,
                        target: to,
                    });
                }
            }
        }
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
            EDGE[from].iter().enumerate().any(|(d, &edge)| {
                edge > 0 && class[self.board[step(from, d, 1)] as usize] != Class::Blocked
            })
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
            let offs: Vec<i32> = rays.iter().map(|&r| offset(r)).collect();
            assert!(offs.windows(2).all(|w| w[0] < w[1]), "{offs:?}");
        }
    }
}
