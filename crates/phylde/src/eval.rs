//! Static evaluation for the AI agents: material plus the surround threat
//! on each King (how many of its quad squares have distinct attackers).

use crate::action::Action;
use crate::geometry::{ray_between, step, Sq};
use crate::pieces::{quad_cell, Class, Kind, Side, CLASS, EMPTY};
use crate::state::Phylde;
use tabula_core::{Evaluate, Player};

/// Piece values in soldiers: a cavalier's reach makes it the best attacker.
const VALUE: [f32; 3] = [1.0, 2.0, 3.0];

/// Value of having k of the enemy quad's squares matched to distinct
/// attackers; 4 is a win and never evaluated.
const PRESSURE: [f32; 5] = [0.0, 0.3, 1.0, 3.0, 3.0];

impl Phylde {
    fn material_value(&self, side: Side) -> f32 {
        Kind::ON_SQUARES
            .iter()
            .map(|k| self.pieces[side.index()][k.index()].len() as f32 * VALUE[k.index()])
            .sum()
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
        let them = me.other();
        self.material_value(me) - self.material_value(them) + PRESSURE[self.surround_pressure(them)]
            - PRESSURE[self.surround_pressure(me)]
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
