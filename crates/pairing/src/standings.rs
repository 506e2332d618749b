//! Standings with tie-breaks, shared by every format: each game is a table
//! of two or three seats with a finishing place per seat, so one definition
//! of Buchholz and Sonneborn–Berger serves two-player and three-player play.

use crate::player::{Player, PlayerId};
use crate::score::Score;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// A tie-break, applied in the order given after the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Sum of the final scores of every opponent met (each table opponent
    /// counts once per table; AI seats and byes add nothing).
    Buchholz,
    /// Buchholz without the single lowest opponent score.
    BuchholzCut1,
    /// Sum over opponents of their final score times 1 if the player finished
    /// ahead of them, ½ if level, 0 if behind.
    SonnebornBerger,
    /// Number of games won (first place alone), in whole points.
    Wins,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub id: PlayerId,
    /// 1-based; players equal on score and every tie-break share a rank.
    pub rank: u32,
    pub score: Score,
    /// The values of the requested tie-breaks, in the order requested.
    pub tiebreaks: Vec<Score>,
    /// Games played (byes excluded).
    pub played: u32,
    pub withdrawn: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Versus {
    Ahead,
    Level,
    Behind,
}

#[derive(Clone, Debug)]
struct Meeting {
    /// `None` for an AI seat.
    opponent: Option<usize>,
    versus: Versus,
}

/// Everything standings and pairings need to know about past games.
#[derive(Clone, Debug)]
pub(crate) struct Ledger {
    pub(crate) score: Vec<Score>,
    meetings: Vec<Vec<Meeting>>,
    wins: Vec<u32>,
    pub(crate) byes: Vec<u32>,
}

/// One seat of a finished table: a player (or `None` for an AI), its place
/// (0 is first; equal places are a tie) and the points it earned.
pub(crate) struct SeatResult {
    pub(crate) player: Option<usize>,
    pub(crate) place: u8,
    pub(crate) points: Score,
}

impl Ledger {
    pub(crate) fn new(n: usize) -> Ledger {
        Ledger {
            score: vec![Score::ZERO; n],
            meetings: vec![Vec::new(); n],
            wins: vec![0; n],
            byes: vec![0; n],
        }
    }

    pub(crate) fn record_table(&mut self, seats: &[SeatResult]) {
        for (k, me) in seats.iter().enumerate() {
            let Some(i) = me.player else { continue };
            self.score[i] += me.points;
            let alone_first = me.place == 0 && seats.iter().filter(|s| s.place == 0).count() == 1;
            if alone_first {
                self.wins[i] += 1;
            }
            for (l, other) in seats.iter().enumerate() {
                if l != k {
                    let versus = match me.place.cmp(&other.place) {
                        Ordering::Less => Versus::Ahead,
                        Ordering::Equal => Versus::Level,
                        Ordering::Greater => Versus::Behind,
                    };
                    self.meetings[i].push(Meeting {
                        opponent: other.player,
                        versus,
                    });
                }
            }
        }
    }

    pub(crate) fn record_bye(&mut self, i: usize, points: Score) {
        self.score[i] += points;
        self.byes[i] += 1;
    }

    /// Tables played (each table shows up once per opponent seat).
    fn played(&self, i: usize, seats_per_table: usize) -> u32 {
        (self.meetings[i].len() / (seats_per_table - 1).max(1)) as u32
    }

    fn tiebreak(&self, i: usize, tb: TieBreak) -> Score {
        let opp_score = |m: &Meeting| m.opponent.map_or(Score::ZERO, |o| self.score[o]);
        match tb {
            TieBreak::Buchholz => self.meetings[i].iter().map(opp_score).sum(),
            TieBreak::BuchholzCut1 => {
                let all: Vec<Score> = self.meetings[i].iter().map(opp_score).collect();
                let lowest = all.iter().copied().min().unwrap_or(Score::ZERO);
                all.into_iter().sum::<Score>() - lowest
            }
            TieBreak::SonnebornBerger => self.meetings[i]
                .iter()
                .map(|m| match m.versus {
                    Versus::Ahead => opp_score(m),
                    Versus::Level => opp_score(m).half(),
                    Versus::Behind => Score::ZERO,
                })
                .sum(),
            TieBreak::Wins => Score::points(i64::from(self.wins[i])),
        }
    }

    /// Standings ordered by score, then the tie-breaks, then rating, then
    /// registration order.
    pub(crate) fn standings(
        &self,
        players: &[Player],
        tiebreaks: &[TieBreak],
        seats_per_table: usize,
    ) -> Vec<Standing> {
        let keys: Vec<Vec<Score>> = (0..players.len())
            .map(|i| tiebreaks.iter().map(|&tb| self.tiebreak(i, tb)).collect())
            .collect();
        let mut order: Vec<usize> = (0..players.len()).collect();
        let merit = |a: usize, b: usize| {
            self.score[b]
                .cmp(&self.score[a])
                .then_with(|| keys[b].cmp(&keys[a]))
        };
        order.sort_by(|&a, &b| {
            merit(a, b)
                .then_with(|| players[b].rating.cmp(&players[a].rating))
                .then_with(|| a.cmp(&b))
        });
        let mut out: Vec<Standing> = Vec::with_capacity(order.len());
        for (pos, &i) in order.iter().enumerate() {
            let rank = match pos {
                0 => 1,
                _ if merit(order[pos - 1], i) == Ordering::Equal => out[pos - 1].rank,
                _ => pos as u32 + 1,
            };
            out.push(Standing {
                id: players[i].id.clone(),
                rank,
                score: self.score[i],
                tiebreaks: keys[i].clone(),
                played: self.played(i, seats_per_table),
                withdrawn: players[i].withdrawn,
            });
        }
        out
    }
}
