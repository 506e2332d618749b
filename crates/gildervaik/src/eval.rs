//! Static evaluation for the AI agents. With three players a position is
//! worth a player's own score minus the mean score of the others still in.

use crate::geometry::{opposing_zones, Cells, Seat, DISTANCES, ZONES};
use crate::moves::Move;
use crate::options::Mode;
use crate::state::Gildervaik;
use tabula_core::{Evaluate, Player};

/// Worth of a player who has left the game.
const ELIMINATED: f32 = -50.0;
/// Steps of progress worth one pawn: a pawn needs about this many to cross.
const STEPS_PER_PAWN: f32 = 8.0;
/// Bonus of a warrior pawn that cannot be captured where it stands.
const SAFE_BONUS: f32 = 0.5;

impl Gildervaik {
    /// Conquest: distance of the pawns to their best opposing zone, and the
    /// evacuation threat growing with the turn count.
    fn conquest_score(&self, seat: Seat) -> f32 {
        let own = self.pawns[seat];
        let best = (0..3)
            .filter(|&z| z != seat)
            .map(|z| {
                Cells(own)
                    .map(|x| u32::from(DISTANCES[z][x.id()]))
                    .sum::<u32>()
            })
            .min()
            .unwrap_or(0);
        let mut score = -(best as f32) / STEPS_PER_PAWN;
        if let Some(turn) = self.opts.evacuation_turn {
            let home = (own & ZONES[seat]).count_ones() as f32;
            let urgency = (self.counters.turns[seat] as f32 / turn as f32).min(1.0);
            score -= home * urgency;
        }
        score
    }

    /// Warrior: pawns, with a bonus for those that cannot be captured.
    fn warrior_score(&self, seat: Seat) -> f32 {
        let own = self.pawns[seat];
        let mut safe = own & opposing_zones(seat);
        if !self.opts.home_capturable {
            safe |= own & ZONES[seat];
        }
        own.count_ones() as f32 + SAFE_BONUS * safe.count_ones() as f32
    }

    fn score(&self, seat: Seat) -> f32 {
        if self.pawns[seat] == 0 {
            return ELIMINATED;
        }
        match self.opts.mode {
            Mode::Conquest => self.conquest_score(seat),
            Mode::Warrior => self.warrior_score(seat),
        }
    }
}

impl Evaluate for Gildervaik {
    fn evaluate(&self, p: Player) -> f32 {
        let seat = p.index();
        if self.pawns[seat] == 0 {
            return ELIMINATED;
        }
        let (sum, n) = self
            .remaining()
            .filter(|&s| s != seat)
            .fold((0.0, 0.0), |(sum, n), s| (sum + self.score(s), n + 1.0));
        let mean = if n > 0.0 { sum / n } else { 0.0 };
        self.score(seat) - mean
    }

    fn is_tactical(&self, action: Move) -> bool {
        action.is_capture()
    }
}
