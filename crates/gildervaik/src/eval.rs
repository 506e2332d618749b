//! Static evaluation for the AI agents. With three players a position is
//! worth a player's own score minus the mean score of the others still in.

use crate::geometry::{
    opposing_seats, opposing_zones, Cells, Seat, ALL_BOARD, DISTANCES, EXITS, NEAR_ZONES,
    NEIGHBOURS, ZONES,
};
use crate::moves::Move;
use crate::options::{Mode, WinZone};
use crate::state::Gildervaik;
use tabula_core::{Evaluate, Player};

/// Worth of a player who has left the game.
const ELIMINATED: f32 = -50.0;
/// Steps of progress worth one pawn unit of the AI's scale, on which 4
/// units give a 73 % expected score: a race lead of 8 steps (turns) is that
/// decisive, and a coarser scale leaves every move looking alike to MCTS.
const STEPS_PER_PAWN: f32 = 2.0;
/// Turns of slack (turns left minus the steps to empty the home) below
/// which every missing turn costs `SLACK_COST`.
const SLACK_MARGIN: i64 = 10;
const SLACK_COST: f32 = 2.0;
/// Extra cost of a home that can no longer be emptied one step a turn.
const LATE: f32 = 5.0;
/// The threat stays short of elimination itself.
const MOST_THREAT: f32 = 45.0;
/// Cells of a zone left over when ten pawns fill it.
const ZONE_ROOM: i32 = 6;
/// Steps one rival pawn in or near a target zone costs.
const RIVAL_STEPS: i32 = 3;
/// Steps a target zone costs when rivals leave no room for ten.
const BLOCKED_STEPS: i32 = 60;
/// Bonus of a warrior pawn that cannot be captured where it stands.
const SAFE_BONUS: f32 = 0.5;

/// Steps of a pawn on `cell` to the deep end of zone `z`: the steps to
/// reach the zone, less how deep inside it the pawn already stands. A pawn
/// only counted as "in" rests at the door, where it blocks the way in of
/// the last ones, and a won race shuffles; with depth every step inwards
/// pays (Chinese-checkers programs measure to the far corner for the same
/// reason). Measured on won races from self-play (docs/benchmarks.md):
/// depth at full weight converts more of them than at a half or a quarter.
fn target_steps(z: Seat, cell: usize) -> i32 {
    i32::from(DISTANCES[z][cell]) - i32::from(EXITS[z][cell])
}

impl Gildervaik {
    /// Conquest: distance of the pawns to their best opposing zone, and the
    /// evacuation threat growing with the turn count.
    fn conquest_score(&self, seat: Seat) -> f32 {
        let own = self.pawns[seat];
        let [z1, z2] = opposing_seats(seat);
        let steps = match self.opts.win_zone {
            WinZone::Same => self.zone_cost(seat, z1).min(self.zone_cost(seat, z2)),
            WinZone::Either => Cells(own)
                .map(|x| target_steps(z1, x.id()).min(target_steps(z2, x.id())))
                .sum(),
        };
        let mut score = -(steps as f32) / STEPS_PER_PAWN;
        if let Some(turn) = self.opts.evacuation_turn {
            score -= self.evacuation_threat(seat, turn);
        }
        score
    }

    /// Steps for `seat` to fill zone `z` (`target_steps`), plus the cost of
    /// a rival: the third player's pawns in or near `z` take cells for good
    /// (its owner's pawns must leave anyway), and ten of the sixteen are
    /// needed. Two players heading for the same zone both stall, which no
    /// search horizon shows, so the rival's presence must weigh here.
    fn zone_cost(&self, seat: Seat, z: Seat) -> i32 {
        let steps: i32 = Cells(self.pawns[seat])
            .map(|x| target_steps(z, x.id()))
            .sum();
        let rival = (self.pawns[3 - seat - z] & NEAR_ZONES[z]).count_ones() as i32;
        let blocked = if rival > ZONE_ROOM { BLOCKED_STEPS } else { 0 };
        steps + RIVAL_STEPS * rival + blocked
    }

    /// Pawns still at home weigh more as the evacuation turn nears, and a
    /// home that cannot be emptied in the turns left (one step a turn)
    /// is close to elimination.
    fn evacuation_threat(&self, seat: Seat, turn: u32) -> f32 {
        let home = self.pawns[seat] & ZONES[seat];
        if home == 0 {
            return 0.0;
        }
        let played = self.counters.turns[seat];
        let urgency = (played as f32 / turn as f32).min(1.0);
        let empty = ALL_BOARD & !self.occupied();
        let steps: u32 = Cells(home)
            .map(|x| {
                let exit = EXITS[seat][x.id()];
                // A pawn whose every way out is taken needs a turn more.
                let open = Cells(NEIGHBOURS[x.id()] & empty).any(|y| EXITS[seat][y.id()] < exit);
                u32::from(exit) + u32::from(!open)
            })
            .sum();
        let slack = i64::from(turn.saturating_sub(played)) - i64::from(steps);
        // Steeper as the slack runs out, and still sloped past it (a jump
        // may save the day), but short of elimination.
        let squeeze = (SLACK_MARGIN - slack).max(0) as f32 * SLACK_COST;
        let late = if slack < 0 { LATE } else { 0.0 };
        let squeeze = (squeeze + late).min(MOST_THREAT);
        home.count_ones() as f32 * urgency + squeeze
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

    /// A conquest race's shortest finish (`finish.rs`).
    fn endgame_action(&self) -> Option<Move> {
        self.finishing_move()
    }

    /// A pawn running back in a won race (`finish.rs`).
    fn is_retreat(&self, action: Move) -> bool {
        Gildervaik::is_retreat(self, action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::CELLS;
    use crate::options::Options;
    use tabula_core::Game;

    fn at(text: &str) -> Gildervaik {
        Gildervaik::from_position(&Options::default(), text).expect("position")
    }

    #[test]
    fn a_rival_in_the_target_zone_turns_a_player_away() {
        // A stands next to zone 1 (B's home), far from zone 2.
        let alone = at("A:h12,i12 B:a1 C:j1 / A");
        let crowded = at("A:h12,i12 B:a1 C:j1,g13,h13,h15,i13,i15,i17,j13 / A");
        assert!(alone.zone_cost(0, 1) < alone.zone_cost(0, 2));
        let extra = crowded.zone_cost(0, 1) - alone.zone_cost(0, 1);
        assert_eq!(extra, 7 * RIVAL_STEPS + BLOCKED_STEPS);
        // Zone 2 is untouched and now the better target.
        assert_eq!(crowded.zone_cost(0, 2), alone.zone_cost(0, 2));
        assert!(crowded.zone_cost(0, 2) < crowded.zone_cost(0, 1));
    }

    #[test]
    fn every_pawn_short_of_the_deepest_cells_has_a_step_that_pays() {
        for z in 0..3 {
            let deepest = (0..CELLS).map(|x| target_steps(z, x)).min().expect("cells");
            for x in (0..CELLS).filter(|&x| target_steps(z, x) > deepest) {
                let better =
                    Cells(NEIGHBOURS[x]).any(|y| target_steps(z, y.id()) < target_steps(z, x));
                assert!(better, "zone {z}: no step from cell {x} pays");
            }
        }
        // Ten pawns in with the last at the door: still a step to take.
        let door = at("A:g13,h13,h15,i13,i15,i17,j13,j15,j17,h14 B:a1 C:j1 / A");
        let deep = at("A:g13,h13,h15,i13,i15,i17,j13,j15,j17,j19 B:a1 C:j1 / A");
        assert!(door.zone_cost(0, 1) > deep.zone_cost(0, 1));
    }

    #[test]
    fn a_home_pawn_weighs_more_as_the_evacuation_turn_nears() {
        let a = Player(0);
        let eval = |cell: &str, turns: u32| {
            at(&format!(
                "A:{cell},f6 B:j19 C:j1 / A ply={} turns={turns},{turns},{turns}",
                3 * turns
            ))
            .evaluate(a)
        };
        // Early on a home pawn costs little; near turn 60 it costs a lot,
        // and more the further it is from the way out.
        assert!(eval("e4", 10) - eval("d3", 10) < 1.0);
        assert!(eval("e4", 58) - eval("d3", 58) > 10.0);
        assert!(eval("d3", 59) > eval("d2", 59));
        assert!(eval("d2", 59) > ELIMINATED);
    }
}
