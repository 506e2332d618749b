//! Static evaluation for the AI agents, in soldiers, from one side's point
//! of view and zero-sum by construction (each term is mine minus theirs):
//!
//! - material (a cavalier's reach makes it the best attacker);
//! - approach: every piece earns a little for each step it is closer to
//!   the enemy King's quad, so the search has a gradient to climb long
//!   before any piece is in range (without it the pieces never converge
//!   and games end by the no-capture rule);
//! - pressure: how many of the enemy quad's squares have distinct
//!   attackers (four is a win), counted both ways, so an attack on one's
//!   own King is a penalty.

use crate::action::Action;
use crate::geometry::{ray_between, step, Sq};
use crate::pieces::{quad_cell, Class, Kind, Side, CLASS, EMPTY};
use crate::state::Phylde;
use tabula_core::{Evaluate, Player};

/// Piece values in soldiers.
const VALUE: [f32; 3] = [1.0, 2.5, 4.0];

/// Bonus per step of approach to the enemy quad, by kind: small against
/// material, so a piece is never traded for a few steps.
const APPROACH: [f32; 3] = [0.02, 0.03, 0.04];

/// Farthest Chebyshev distance from a square to a quad.
const FAR: usize = 16;

/// Value of having k of the enemy quad's squares matched to distinct
/// attackers; 4 is a surround (a win, normally decided before evaluation).
const PRESSURE: [f32; 5] = [0.0, 0.4, 1.2, 3.5, 8.0];

impl Phylde {
    fn material_value(&self, side: Side) -> f32 {
        Kind::ON_SQUARES
            .iter()
            .map(|k| self.pieces[side.index()][k.index()].len() as f32 * VALUE[k.index()])
            .sum()
    }

    /// Sum over `side`'s pieces of their approach to the enemy King's
    /// quad: `FAR` minus the Chebyshev distance, weighted by kind.
    fn approach_value(&self, side: Side) -> f32 {
        let king = self.kings[side.other().index()];
        // The quad spans files x-1..=x and ranks y-1..=y.
        let (kx, ky) = (king.x(), king.y());
        let gap = |v: usize, k: usize| (k - 1).saturating_sub(v).max(v.saturating_sub(k));
        Kind::ON_SQUARES
            .iter()
            .map(|k| {
                let near: usize = self.pieces[side.index()][k.index()]
                    .squares()
                    .map(|sq| FAR - gap(sq.x(), kx).max(gap(sq.y(), ky)).min(FAR))
                    .sum();
                near as f32 * APPROACH[k.index()]
            })
            .sum()
    }

    /// Everything `side` has, before subtracting the other side's.
    fn side_value(&self, side: Side) -> f32 {
        self.material_value(side)
            + self.approach_value(side)
            + PRESSURE[self.surround_pressure(side.other())]
    }

    /// Whether the piece stepping `from`→`to` attacks a square of the enemy
    /// King's quad once there.
    fn step_attacks_enemy_quad(&self, from: Sq, to: Sq) -> bool {
        let Some((_, kind)) = self.piece(from) else {
            return false;
        };
        let enemy = self.side.other();
        let enemy_quad = quad_cell(enemy);
        self.kings[enemy.index()].quad().iter().any(|&q| {
            ray_between(to, q).is_some_and(|(d, dist)| {
                dist <= kind.range()
                    && (1..dist).all(|k| {
                        let s = step(to.index(), d, k);
                        s == from.index() || self.board[s] == EMPTY || self.board[s] == enemy_quad
                    })
            })
        })
    }
}

impl Evaluate for Phylde {
    fn evaluate(&self, p: Player) -> f32 {
        let me = Side::from_index(p.index());
        self.side_value(me) - self.side_value(me.other())
    }

    /// Captures, shots, and steps that bring an attacker onto the enemy quad.
    fn is_tactical(&self, action: Action) -> bool {
        match action {
            Action::Shot { .. } => true,
            Action::Step { from, to } => {
                CLASS[self.side.index()][self.board[to.index()] as usize] == Class::Enemy
                    || self.step_attacks_enemy_quad(from, to)
            }
            Action::King { .. } | Action::EndTurn => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::options::Options;
    use crate::state::Phylde;
    use tabula_core::{Evaluate, Game, Player};

    /// Kings on j15+ (North) and j3+ (South), a South soldier on `rank`
    /// of file a (rank 1 is the last FEN row).
    fn soldier_on_rank(rank: usize) -> Phylde {
        let rows: Vec<&str> = (1..=18)
            .rev()
            .map(|r| match r {
                15 => "9r8",
                3 => "9R8",
                _ if r == rank => "S17",
                _ => "18",
            })
            .collect();
        let fen = format!("{} S", rows.join("/"));
        Phylde::from_position(&Options::default(), &fen).unwrap()
    }

    #[test]
    fn approaching_the_enemy_king_scores_and_stays_zero_sum() {
        let (far, near) = (soldier_on_rank(1), soldier_on_rank(9));
        let (f, n) = (far.evaluate(Player(0)), near.evaluate(Player(0)));
        assert_eq!(f, -far.evaluate(Player(1)));
        assert_eq!(n, -near.evaluate(Player(1)));
        // The North quad is j15 k15 j16 k16: a1 is 14 steps away (FAR - 2),
        // a9 is 9 (6 ranks, but 9 files): 5 steps closer.
        assert!((f - (1.0 + 0.02 * 2.0)).abs() < 1e-5, "{f}");
        assert!((n - f - 0.02 * 5.0).abs() < 1e-5, "{n} vs {f}");
    }
}
