//! Player ratings for Tabula, game-agnostic: Glicko-2 as Lichess uses it,
//! one update per game, with the maths of the `skillratings` crate.
//!
//! - Two players: [`update_two`], a Glicko-2 rating period of one game.
//! - Three players or more (Gildervaik): [`update_ranking`], Glicko-2 over
//!   the pairwise results of the final ranking. Each player's update is one
//!   rating period holding a result against every other player, rated at
//!   their ratings before the game: the computation of Glickman's own
//!   worked example ([`update_period`]), with one scale, one volatility and
//!   one provisional mark for every pool. Weng-Lin (OpenSkill), the other
//!   candidate, was set aside: on this scale a new player stays above the
//!   provisional deviation for 37 three-player games (8 here),
//!   and it has no volatility. `docs/ratings.md` gives the numbers.
//!
//! Which games share a rating is decided elsewhere (rating pools, in
//! `tabula-games`): this crate only knows numbers.

mod update;

pub use update::{update_period, update_ranking, update_two, Config, RatingError};

use serde::{Deserialize, Serialize};
use std::fmt;

/// One player's rating in one pool (Glicko-2 scale: 1500 is the start).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    /// Rating deviation: how unsure the rating still is.
    pub rd: f64,
    pub volatility: f64,
    /// Rated games played in the pool.
    pub games: u32,
}

impl Rating {
    /// Where everyone starts.
    pub const INITIAL: f64 = 1500.0;
    /// Starting deviation: Glickman's 350 (Lichess uses 500, which makes a
    /// newcomer's first results swing the rating by hundreds of points).
    pub const INITIAL_RD: f64 = 350.0;
    /// Starting volatility (Glickman's paper; Lichess uses 0.09).
    pub const INITIAL_VOLATILITY: f64 = 0.06;
    /// Above this deviation a rating is provisional and shown as `1500?`
    /// (Lichess's threshold).
    pub const PROVISIONAL_RD: f64 = 110.0;

    /// A new player's rating.
    pub const fn new() -> Rating {
        Rating {
            rating: Self::INITIAL,
            rd: Self::INITIAL_RD,
            volatility: Self::INITIAL_VOLATILITY,
            games: 0,
        }
    }

    /// Whether the rating is still too unsure to show plainly (`1500?`).
    pub fn provisional(&self) -> bool {
        self.rd > Self::PROVISIONAL_RD
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating::new()
    }
}

/// The rounded rating, with `?` when provisional: `1500?`, `1712`.
impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.provisional() { "?" } else { "" };
        write!(f, "{}{mark}", self.rating.round())
    }
}

/// A two-player game's result, for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// The same result seen by the other player.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}
