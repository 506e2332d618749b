//! Glicko-2 updates through `skillratings`, on [`Rating`].

use crate::{Outcome, Rating};
use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use std::cmp::Ordering;
use std::fmt;

/// The system constant of Glicko-2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// How fast volatility may change. Lichess's 0.75 by default; Glickman's
    /// paper uses 0.5 (and suggests 0.3 to 1.2).
    pub tau: f64,
}

impl Config {
    pub const LICHESS_TAU: f64 = 0.75;
    /// The constant of Glickman's worked example.
    pub const GLICKMAN_TAU: f64 = 0.5;

    fn glicko2(&self) -> Glicko2Config {
        Glicko2Config {
            tau: self.tau,
            ..Glicko2Config::new()
        }
    }

    /// See [`update_two`].
    pub fn update_two(&self, a: &Rating, b: &Rating, outcome: Outcome) -> (Rating, Rating) {
        let (na, nb) = glicko2(&to_g2(a), &to_g2(b), &outcomes(outcome), &self.glicko2());
        (played(a, na), played(b, nb))
    }

    /// See [`update_period`].
    pub fn update_period(&self, player: &Rating, results: &[(Rating, Outcome)]) -> Rating {
        let results: Vec<(Glicko2Rating, Outcomes)> = results
            .iter()
            .map(|(opponent, outcome)| (to_g2(opponent), outcomes(*outcome)))
            .collect();
        if results.is_empty() {
            return *player;
        }
        let mut next = played(
            player,
            glicko2_rating_period(&to_g2(player), &results, &self.glicko2()),
        );
        next.games = player.games + results.len() as u32;
        next
    }

    /// See [`update_ranking`].
    pub fn update_ranking(
        &self,
        players: &[Rating],
        ranks: &[u32],
    ) -> Result<Vec<Rating>, RatingError> {
        if players.len() < 2 {
            return Err(RatingError::Players(players.len()));
        }
        if ranks.len() != players.len() {
            return Err(RatingError::Ranks {
                players: players.len(),
                ranks: ranks.len(),
            });
        }
        Ok(players
            .iter()
            .enumerate()
            .map(|(i, player)| {
                let results: Vec<(Rating, Outcome)> = players
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(j, opponent)| {
                        let outcome = match ranks[i].cmp(&ranks[j]) {
                            Ordering::Less => Outcome::Win,
                            Ordering::Equal => Outcome::Draw,
                            Ordering::Greater => Outcome::Loss,
                        };
                        (*opponent, outcome)
                    })
                    .collect();
                // One game, however many opponents it had.
                Rating {
                    games: player.games + 1,
                    ..self.update_period(player, &results)
                }
            })
            .collect())
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tau: Self::LICHESS_TAU,
        }
    }
}

/// Both ratings after one two-player game (`outcome` is `a`'s result), as
/// Lichess rates: each game is a rating period of its own.
pub fn update_two(a: &Rating, b: &Rating, outcome: Outcome) -> (Rating, Rating) {
    Config::default().update_two(a, b, outcome)
}

/// `player`'s rating after a Glicko-2 rating period holding `results`
/// (opponents at their ratings before the period). The batch form of
/// Glickman's paper; the server rates per game instead. Unchanged when
/// `results` is empty (no deviation growth for idle periods here).
pub fn update_period(player: &Rating, results: &[(Rating, Outcome)]) -> Rating {
    Config::default().update_period(player, results)
}

/// Every player's rating after a game ending in a ranking: `ranks[i]` is
/// player `i`'s place, lower is better, equal places are a tie. Each player
/// scores a win, draw or loss against every other by place (see the crate
/// doc). Two players give exactly [`update_two`].
pub fn update_ranking(players: &[Rating], ranks: &[u32]) -> Result<Vec<Rating>, RatingError> {
    Config::default().update_ranking(players, ranks)
}

/// Why a ranking could not be rated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatingError {
    /// Fewer than two players.
    Players(usize),
    /// Not one rank per player.
    Ranks { players: usize, ranks: usize },
}

impl fmt::Display for RatingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RatingError::Players(n) => write!(f, "a rated game needs 2 players or more, not {n}"),
            RatingError::Ranks { players, ranks } => {
                write!(
                    f,
                    "{ranks} ranks for {players} players: one rank per player"
                )
            }
        }
    }
}

impl std::error::Error for RatingError {}

fn to_g2(r: &Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.rd,
        volatility: r.volatility,
    }
}

/// `before` after one more game, at the new values `after`.
fn played(before: &Rating, after: Glicko2Rating) -> Rating {
    Rating {
        rating: after.rating,
        rd: after.deviation,
        volatility: after.volatility,
        games: before.games + 1,
    }
}

fn outcomes(o: Outcome) -> Outcomes {
    match o {
        Outcome::Win => Outcomes::WIN,
        Outcome::Draw => Outcomes::DRAW,
        Outcome::Loss => Outcomes::LOSS,
    }
}
