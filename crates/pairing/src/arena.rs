//! Arena: players are paired again as soon as they are free, for a fixed
//! time, as in Lichess arenas (lila's `modules/tournament` arena pairing and
//! sheet). Pairing takes the waiting players at one instant and matches them
//! by standing (close ranks, close ratings), avoiding an immediate rematch;
//! scoring gives 2 for a win and 1 for a draw, doubled while a player is "on
//! fire" after two wins in a row.

use crate::error::PairingError;
use crate::matching::{max_weight_matching, Weight};
use crate::player::{Player, PlayerId, Roster};
use crate::score::Score;
use crate::standings::Standing;
use crate::swiss::{Board, GameResult};
use serde::{Deserialize, Serialize};

/// A player free to play, as the server sees him at this instant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    pub id: PlayerId,
    /// Current place in the arena standings (1 is the leader).
    pub rank: u32,
    pub rating: i32,
    /// Opponent of his last game, if any.
    #[serde(default)]
    pub last_opponent: Option<PlayerId>,
    /// Games in the first seat minus games in the second.
    #[serde(default)]
    pub seat_balance: i32,
}

/// Players matched at once; larger waiting lists are split by rank into
/// groups of this size (lila uses 100), which keeps pairing fast.
pub const MAX_GROUP: usize = 100;

/// Pairing cost terms, as in lila: rank distance weighted more near the top,
/// rating distance, and a penalty that outweighs both for a rematch.
const REMATCH: Weight = 8_000_000;

/// The pairings for the waiting players; with an odd number the player who
/// has been waiting least (the last of the list) waits for the next wave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaPairing {
    pub boards: Vec<Board>,
    pub waiting: Option<PlayerId>,
}

/// Pairs the waiting players, given oldest waiter first.
pub fn pair(waiting: &[Waiting]) -> Result<ArenaPairing, PairingError> {
    let mut seen = std::collections::HashSet::new();
    for w in waiting {
        if !seen.insert(&w.id) {
            return Err(PairingError::DuplicatePlayer(w.id.clone()));
        }
    }
    let (pool, left) = if waiting.len() % 2 == 1 {
        (&waiting[..waiting.len() - 1], waiting.last())
    } else {
        (waiting, None)
    };
    let mut order: Vec<&Waiting> = pool.iter().collect();
    order.sort_by_key(|w| w.rank);
    let max_rank = order.iter().map(|w| w.rank).max().unwrap_or(1).max(1);
    let mut boards = Vec::with_capacity(pool.len() / 2);
    for group in order.chunks(MAX_GROUP) {
        let weights: Vec<Vec<Option<Weight>>> = group
            .iter()
            .enumerate()
            .map(|(i, a)| {
                group
                    .iter()
                    .enumerate()
                    .map(|(j, b)| (i != j).then(|| -cost(a, b, max_rank)))
                    .collect()
            })
            .collect();
        let mate = max_weight_matching(&weights, true);
        for (i, m) in mate.iter().enumerate() {
            if let Some(j) = *m {
                if i < j {
                    boards.push(seats(group[i], group[j]));
                }
            }
        }
    }
    Ok(ArenaPairing {
        boards,
        waiting: left.map(|w| w.id.clone()),
    })
}

fn cost(a: &Waiting, b: &Waiting, max_rank: u32) -> Weight {
    // lila: 300 at the bottom of the table up to 2000 for the leader.
    let top = a.rank.min(b.rank).min(max_rank);
    let factor = 300 + 1700 * Weight::from(max_rank - top) / Weight::from(max_rank);
    let rematches = Weight::from(a.last_opponent.as_ref() == Some(&b.id))
        + Weight::from(b.last_opponent.as_ref() == Some(&a.id));
    Weight::from(a.rank.abs_diff(b.rank)) * factor
        + Weight::from(a.rating.abs_diff(b.rating))
        + rematches * REMATCH
}

/// The player who has had the first seat less often takes it; when equal,
/// the better-ranked player.
fn seats(a: &Waiting, b: &Waiting) -> Board {
    let a_first = (a.seat_balance, a.rank) <= (b.seat_balance, b.rank);
    let (f, s) = if a_first { (a, b) } else { (b, a) };
    Board {
        first: f.id.clone(),
        second: s.id.clone(),
    }
}

/// A player's own result in one arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// Points of each game in order and the total: a win is 2 and a draw 1,
/// both doubled while on fire (the two previous games were wins); a draw or
/// loss puts the fire out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sheet {
    pub points: Vec<Score>,
    pub total: Score,
    /// Whether the next game would count double.
    pub on_fire: bool,
}

pub fn sheet(results: &[Outcome]) -> Sheet {
    let mut points = Vec::with_capacity(results.len());
    for (k, &r) in results.iter().enumerate() {
        let fire = on_fire(&results[..k]);
        let base = match r {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        };
        points.push(Score::points(if fire { 2 * base } else { base }));
    }
    Sheet {
        total: points.iter().copied().sum(),
        on_fire: on_fire(results),
        points,
    }
}

fn on_fire(before: &[Outcome]) -> bool {
    before.len() >= 2 && before[before.len() - 2..] == [Outcome::Win, Outcome::Win]
}

/// A finished arena game, given in the order games finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    pub first: PlayerId,
    pub second: PlayerId,
    pub result: GameResult,
}

/// Standings by arena score, then rating, then registration (no other
/// tie-break: streaks already reward consistency).
pub fn standings(players: &[Player], games: &[ArenaGame]) -> Result<Vec<Standing>, PairingError> {
    let roster = Roster::new(players)?;
    let mut results: Vec<Vec<Outcome>> = vec![Vec::new(); players.len()];
    for g in games {
        let a = roster.get(&g.first)?;
        let b = roster.get(&g.second)?;
        if a == b {
            return Err(PairingError::PlayedTwice {
                round: 0,
                player: g.first.clone(),
            });
        }
        let (ra, rb) = match g.result {
            GameResult::FirstWins => (Outcome::Win, Outcome::Loss),
            GameResult::SecondWins => (Outcome::Loss, Outcome::Win),
            GameResult::Draw => (Outcome::Draw, Outcome::Draw),
        };
        results[a].push(ra);
        results[b].push(rb);
    }
    let totals: Vec<Score> = results.iter().map(|r| sheet(r).total).collect();
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        totals[b]
            .cmp(&totals[a])
            .then_with(|| players[b].rating.cmp(&players[a].rating))
            .then_with(|| a.cmp(&b))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(order.len());
    for (pos, &i) in order.iter().enumerate() {
        let rank = match out.last() {
            Some(prev) if prev.score == totals[i] => prev.rank,
            _ => pos as u32 + 1,
        };
        out.push(Standing {
            id: players[i].id.clone(),
            rank,
            score: totals[i],
            tiebreaks: Vec::new(),
            played: results[i].len() as u32,
            withdrawn: players[i].withdrawn,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Outcome::*;

    #[test]
    fn streaks_double_after_two_wins() {
        let s = sheet(&[Win, Win, Win, Draw, Win, Loss, Win, Win, Draw]);
        let pts: Vec<i64> = s.points.iter().map(|p| p.0 / Score::UNIT).collect();
        assert_eq!(pts, vec![2, 2, 4, 2, 2, 0, 2, 2, 2]);
        assert_eq!(s.total, Score::points(18));
        assert!(!s.on_fire);
        assert!(sheet(&[Loss, Win, Win]).on_fire);
    }
}
