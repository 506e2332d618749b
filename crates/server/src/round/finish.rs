//! How games end, and the one event that says so.
//!
//! Every ending goes one way: a change planned by [`super::Round`] (a move
//! that ends the game on the board, or [`super::Round::finish`] for an
//! ending off it), stored, then applied; applying it yields a
//! [`GameEnded`], which the game's owner hands to the [`Finisher`]. Ratings,
//! tournaments and notifications subscribe there (lila's `Finisher`).

use serde::Serialize;
use std::sync::Arc;
use tokio::sync::broadcast;

use crate::protocol::PlayerInfo;

pub use tabula_core::{EndReason, Ending};

/// A game has just ended (emitted once per ending).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameEnded {
    pub id: String,
    pub spec: String,
    pub ending: Ending,
    /// The seats as they were at the end; a leaver's seat still names
    /// their account (`user`: see [`super::state::players_and_leavers`]).
    pub seats: Vec<PlayerInfo>,
    /// Seats whose player left before the end (they rank last).
    pub left: Vec<u8>,
    /// Each seat's place (see [`places`]): what ratings and tournaments
    /// rank by.
    pub places: Vec<u8>,
    /// Seats whose player walked away (left, or never moved): a
    /// tournament withdraws them.
    pub absent: Vec<u8>,
    pub ply: usize,
    /// A rated game (ratings subscribe to endings).
    pub rated: bool,
    /// Its time control is by correspondence (its own rating pools).
    pub correspondence: bool,
}

/// How a game's end ranks its seats, and why.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing<'a> {
    /// Seats whose player left the game (an AI stand-in played on).
    pub left: &'a [u8],
    /// The seat that never made its first move (an aborted game).
    pub no_show: Option<u8>,
    /// The ply at which each seat was eliminated, if it was.
    pub out: &'a [Option<usize>],
}

/// Each seat's place at the end, 0 best; seats that share a place share
/// its number and the next is skipped ([0, 0, 2]). The winner (or the
/// seats sharing a draw) first; then the seats still in the game; then the
/// eliminated, the later out ahead; last, whoever left or never moved. In
/// an aborted game everyone but the no-show shares first.
pub fn places(ending: &Ending, seats: usize, how: &Standing) -> Vec<u8> {
    let key = |seat: u8| -> (u8, i64) {
        let p = tabula_core::Player(seat);
        if how.left.contains(&seat) || how.no_show == Some(seat) {
            return (3, 0);
        }
        let top = match ending.outcome {
            _ if ending.reason == EndReason::Aborted => true,
            tabula_core::Outcome::Win(w) => w == p,
            tabula_core::Outcome::Draw(set) => set.contains(p),
        };
        match how.out.get(usize::from(seat)).copied().flatten() {
            _ if top => (0, 0),
            Some(ply) => (2, -(ply as i64)),
            None => (1, 0),
        }
    };
    let keys: Vec<(u8, i64)> = (0..seats as u8).map(key).collect();
    keys.iter()
        .map(|k| keys.iter().filter(|o| *o < k).count() as u8)
        .collect()
}

/// Where game endings are announced. Subscribers that fall behind lose the
/// oldest events (and are told so by the channel), never block a game.
#[derive(Clone)]
pub struct Finisher {
    tx: broadcast::Sender<Arc<GameEnded>>,
}

impl Default for Finisher {
    fn default() -> Self {
        Finisher {
            tx: broadcast::channel(1024).0,
        }
    }
}

impl Finisher {
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<GameEnded>> {
        self.tx.subscribe()
    }

    pub(crate) fn announce(&self, ended: GameEnded) {
        let _ = self.tx.send(Arc::new(ended));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Outcome, Player, PlayerSet};

    fn ending(outcome: Outcome, reason: EndReason) -> Ending {
        Ending { outcome, reason }
    }

    #[test]
    fn places_rank_the_winner_then_who_stayed_longest() {
        let win = |p| ending(Outcome::Win(Player(p)), EndReason::Board);
        let plain = Standing::default();
        assert_eq!(places(&win(1), 2, &plain), vec![1, 0]);
        assert_eq!(places(&win(0), 3, &plain), vec![0, 1, 1]);
        // Seat 2 was eliminated at ply 40, seat 1 at ply 90: 1 is second.
        let out = [None, Some(90), Some(40)];
        let elim = Standing {
            out: &out,
            ..Standing::default()
        };
        assert_eq!(places(&win(0), 3, &elim), vec![0, 1, 2]);
        // One eliminated, one still in when the winner conquered.
        let out = [Some(12), None, None];
        let one = Standing {
            out: &out,
            ..Standing::default()
        };
        assert_eq!(places(&win(2), 3, &one), vec![2, 1, 0]);
        // Who left ranks last, behind even the eliminated.
        let out = [None, None, Some(5)];
        let left = Standing {
            out: &out,
            left: &[1],
            ..Standing::default()
        };
        assert_eq!(places(&win(0), 3, &left), vec![0, 2, 1]);
    }

    #[test]
    fn places_of_draws_and_aborted_games() {
        let mut set = PlayerSet::default();
        set.insert(Player(0));
        set.insert(Player(2));
        let draw = ending(Outcome::Draw(set), EndReason::Board);
        assert_eq!(places(&draw, 3, &Standing::default()), vec![0, 2, 0]);
        let all = ending(Outcome::Draw(PlayerSet::all(2)), EndReason::Agreement);
        assert_eq!(places(&all, 2, &Standing::default()), vec![0, 0]);
        // Seat 1 never made its first move: it loses, the others share first.
        let aborted = ending(Outcome::Draw(PlayerSet::all(3)), EndReason::Aborted);
        let no_show = Standing {
            no_show: Some(1),
            ..Standing::default()
        };
        assert_eq!(places(&aborted, 3, &no_show), vec![0, 2, 0]);
        assert_eq!(places(&aborted, 2, &Standing::default()), vec![0, 0]);
    }
}
