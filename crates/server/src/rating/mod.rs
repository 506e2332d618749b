//! Ratings, after lila's `rating` module: one Glicko-2 rating per player
//! and *pool* (a game kind with the options that change it, and the time
//! class: `dragonchess`, `gildervaik(mode=warrior)/correspondence`; see
//! `docs/ratings.md`). The maths is `tabula_rating`'s; this module decides
//! who is rated and how a game's end ranks its players, and `service`
//! subscribes to the finisher to rate each rated game once it ends.

pub mod service;

pub use service::Ratings;

use crate::round::GameEnded;
use serde::{Deserialize, Serialize};
use tabula_core::{EndReason, Outcome};
use tabula_rating::Rating;

/// Rating points kept per player and pool, for the profile's graph.
pub const HISTORY_KEPT: usize = 500;
/// Recent games of a rating, so a game is never rated twice.
const RECENT_KEPT: usize = 32;

/// A player's rating in one pool, as stored (`docs` kind `rating`, id
/// `<user>|<pool>`, owner = the pool, for its leaderboard).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct RatingDoc {
    pub user: String,
    pub rating: Rating,
    /// `(ms since 1970, rating)` after each game, oldest first.
    #[serde(default)]
    pub history: Vec<(i64, i32)>,
    /// The last games rated here.
    #[serde(default)]
    pub recent: Vec<String>,
}

impl RatingDoc {
    /// Take game `id`'s new rating in, unless it was already.
    pub fn record(&mut self, id: &str, rating: Rating, at: i64) -> bool {
        if self.recent.iter().any(|g| g == id) {
            return false;
        }
        self.rating = rating;
        self.history.push((at, rating.rating.round() as i32));
        if self.history.len() > HISTORY_KEPT {
            self.history.remove(0);
        }
        self.recent.push(id.to_string());
        if self.recent.len() > RECENT_KEPT {
            self.recent.remove(0);
        }
        true
    }
}

/// The accounts of a rated game, in seat order, or `None` when it is not
/// to be rated (not rated, aborted, a seat without an account). Whether a
/// bot and a person are rated together was decided with `rated` when the
/// game was made ([`crate::bot::may_rate`]).
pub fn rated_players(ended: &GameEnded) -> Option<Vec<String>> {
    if !ended.rated || ended.ending.reason == EndReason::Aborted {
        return None;
    }
    ended.seats.iter().map(|s| s.user.clone()).collect()
}

/// The new ratings of the seats, given their ratings before.
pub fn rate(ended: &GameEnded, before: &[Rating]) -> Option<Vec<Rating>> {
    if before.len() == 2 {
        let outcome = match ended.ending.outcome {
            Outcome::Win(p) if p.0 == 0 => tabula_rating::Outcome::Win,
            Outcome::Win(_) => tabula_rating::Outcome::Loss,
            Outcome::Draw(_) => tabula_rating::Outcome::Draw,
        };
        let (a, b) = tabula_rating::update_two(&before[0], &before[1], outcome);
        return Some(vec![a, b]);
    }
    let ranks: Vec<u32> = ended.places.iter().map(|&p| u32::from(p)).collect();
    tabula_rating::update_ranking(before, &ranks).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PlayerInfo;
    use crate::round::{Ending, SeatKind};
    use tabula_core::{Player, PlayerSet};

    fn ended(n: usize, outcome: Outcome, places: Vec<u8>) -> GameEnded {
        GameEnded {
            places,
            absent: Vec::new(),
            id: "g".into(),
            spec: "gildervaik".into(),
            ending: Ending {
                outcome,
                reason: EndReason::Board,
            },
            seats: (0..n)
                .map(|i| PlayerInfo {
                    seat: i as u8,
                    side: String::new(),
                    kind: SeatKind::Human,
                    level: None,
                    name: format!("p{i}"),
                    joined: true,
                    user: Some(format!("p{i}")),
                    bot: false,
                })
                .collect(),
            left: Vec::new(),
            ply: 10,
            rated: true,
            correspondence: false,
        }
    }

    #[test]
    fn a_game_of_three_is_rated_by_its_places() {
        let e = ended(3, Outcome::Win(Player(1)), vec![1, 0, 2]);
        let after = rate(&e, &[Rating::new(), Rating::new(), Rating::new()]).expect("rated");
        assert!(after[1].rating > after[0].rating && after[0].rating > after[2].rating);
        assert!(after[2].rating < 1500.0 && after[1].rating > 1500.0);
        // Two sharing first gain alike.
        let mut set = PlayerSet::default();
        set.insert(Player(0));
        set.insert(Player(2));
        let e = ended(3, Outcome::Draw(set), vec![0, 2, 0]);
        let after = rate(&e, &[Rating::new(), Rating::new(), Rating::new()]).expect("rated");
        assert!((after[0].rating - after[2].rating).abs() < 1e-9);
        assert!(after[1].rating < 1500.0);
    }

    #[test]
    fn a_win_raises_the_winner_and_a_game_is_rated_once() {
        let e = ended(2, Outcome::Win(Player(0)), vec![0, 1]);
        let after = rate(&e, &[Rating::new(), Rating::new()]).expect("rated");
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert_eq!(after[0].games, 1);
        let mut doc = RatingDoc::default();
        assert!(doc.record("g", after[0], 1));
        assert!(!doc.record("g", after[0], 2), "the same game again");
        assert_eq!(doc.history, vec![(1, after[0].rating.round() as i32)]);
    }

    #[test]
    fn unrated_aborted_and_guest_games_are_not_rated() {
        let mut e = ended(2, Outcome::Win(Player(0)), vec![0, 1]);
        assert!(rated_players(&e).is_some());
        e.seats[1].user = None;
        assert!(rated_players(&e).is_none());
        let mut e = ended(2, Outcome::Win(Player(0)), vec![0, 1]);
        e.ending.reason = EndReason::Aborted;
        assert!(rated_players(&e).is_none());
        e.ending.reason = EndReason::Board;
        e.rated = false;
        assert!(rated_players(&e).is_none());
    }
}
