//! The lobby, after lila's `lobby` module: open challenges ("seeks") that
//! people accept to start a game. Pure rules here ([`SeekDoc`]); stored as
//! documents of kind `seek` (`service`), served by `api`.
//!
//! A seek names the game, its seats (the creator's, open ones filled in the
//! order people accept, AI seats) and whether hints are agreed; a direct
//! challenge names the one user who may accept, an unlisted one is shared
//! by link. It lives while its creator keeps a lobby page open.

pub mod error;
pub mod service;

pub use error::LobbyError;
pub use service::Lobby;

use crate::common::PlayerId;
use crate::protocol::{NewSeek, Seek, SeekSeat, SeekSeatRequest};
use crate::round::state::STAND_IN_LEVEL;
use crate::round::{Seat, SeatKind};
use serde::{Deserialize, Serialize};
use tabula_ai::AiLevel;

/// A seat of a stored seek.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Slot {
    /// Taken by a player (the creator, or who accepted).
    Player {
        id: PlayerId,
        name: String,
        /// A bot account.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bot: bool,
    },
    Open,
    Ai {
        level: AiLevel,
    },
}

/// A seek as stored.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeekDoc {
    pub spec: String,
    pub title: String,
    /// The creator's identity and name.
    pub creator: PlayerId,
    pub creator_name: String,
    pub seats: Vec<Slot>,
    #[serde(default)]
    pub hints: bool,
    /// A direct challenge: the account key that may accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default)]
    pub unlisted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<tabula_clock::TimeControl>,
    #[serde(default)]
    pub rated: bool,
    /// The game, once every seat is filled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// Why a seek cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeekError {
    Own,
    Already,
    Started,
    NotForYou,
    /// Rated games are between signed-in players.
    SignIn,
    /// A bot and a person do not play rated games together.
    BotRated,
}

impl std::error::Error for SeekError {}

impl std::fmt::Display for SeekError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SeekError::Own => "this is your own challenge",
            SeekError::Already => "you already hold a seat in this challenge",
            SeekError::Started => "this challenge has been taken",
            SeekError::NotForYou => "this challenge is for another player",
            SeekError::SignIn => "sign in to play rated games",
            SeekError::BotRated => "bots and people do not play rated games together",
        })
    }
}

impl SeekDoc {
    /// A seek of `creator` (identity, name) for a game of `players` seats
    /// named `title`; why not, if the request cannot be one.
    pub fn new(
        req: &NewSeek,
        creator: (&PlayerId, &str),
        players: usize,
        title: &str,
    ) -> Result<SeekDoc, String> {
        let asked = if req.seats.is_empty() {
            let mut seats = vec![SeekSeatRequest::Open; players];
            seats[0] = SeekSeatRequest::Me;
            seats
        } else {
            req.seats.clone()
        };
        if asked.len() != players {
            return Err(format!(
                "this game has {players} seats, {} given",
                asked.len()
            ));
        }
        let mine = asked.iter().filter(|s| **s == SeekSeatRequest::Me).count();
        if mine != 1 {
            return Err("exactly one seat is the creator's (`me`)".into());
        }
        if !asked.contains(&SeekSeatRequest::Open) {
            return Err("a challenge needs at least one open seat".into());
        }
        if req.rated {
            if creator.0.account_key().is_none() {
                return Err("sign in to play rated games".into());
            }
            if req.hints
                || asked
                    .iter()
                    .any(|s| matches!(s, SeekSeatRequest::Ai { .. }))
            {
                return Err("a rated game has no AI seat and no hints".into());
            }
        }
        let seats = asked
            .iter()
            .map(|s| match s {
                SeekSeatRequest::Me => Slot::Player {
                    id: creator.0.clone(),
                    name: creator.1.to_string(),
                    bot: false,
                },
                SeekSeatRequest::Open => Slot::Open,
                SeekSeatRequest::Ai { level } => Slot::Ai {
                    level: level.unwrap_or(STAND_IN_LEVEL),
                },
            })
            .collect();
        Ok(SeekDoc {
            spec: req.spec.clone(),
            title: title.to_string(),
            creator: creator.0.clone(),
            creator_name: creator.1.to_string(),
            seats,
            hints: req.hints,
            to: req.to.as_ref().map(|t| t.to_ascii_lowercase()),
            unlisted: req.unlisted,
            clock: req.clock,
            rated: req.rated,
            game: None,
        })
    }

    /// Whether `ids` (one visitor's identities) hold a seat.
    pub fn holds(&self, ids: &[PlayerId]) -> bool {
        self.seats
            .iter()
            .any(|s| matches!(s, Slot::Player { id, .. } if ids.contains(id)))
    }

    /// Whether every seat is filled.
    pub fn full(&self) -> bool {
        !self.seats.contains(&Slot::Open)
    }

    /// Take the first open seat for `ids` (the first is bound to the
    /// seat) showing `name`; `account` is the visitor's account key, `bot`
    /// whether it is a bot's.
    pub fn accept(
        &mut self,
        ids: &[PlayerId],
        account: Option<&str>,
        name: &str,
        bot: bool,
    ) -> Result<(), SeekError> {
        if ids.contains(&self.creator) {
            return Err(SeekError::Own);
        }
        if self.holds(ids) {
            return Err(SeekError::Already);
        }
        if self.game.is_some() || self.full() {
            return Err(SeekError::Started);
        }
        // A direct challenge: its addressee first; then (a game of three)
        // anyone with the link.
        if let Some(to) = &self.to {
            let addressee_in = self.holds(&[PlayerId::account(to)]);
            if !addressee_in && Some(to.as_str()) != account {
                return Err(SeekError::NotForYou);
            }
        }
        let Some(id) = ids.first() else {
            return Err(SeekError::NotForYou);
        };
        if self.rated && account.is_none() {
            return Err(SeekError::SignIn);
        }
        // Bots and people are not rated against each other.
        let bots_in = self
            .seats
            .iter()
            .any(|s| matches!(s, Slot::Player { bot: true, .. }));
        let people_in = self
            .seats
            .iter()
            .any(|s| matches!(s, Slot::Player { bot: false, .. }));
        if self.rated && ((bot && people_in) || (!bot && bots_in)) {
            return Err(SeekError::BotRated);
        }
        if let Some(slot) = self.seats.iter_mut().find(|s| **s == Slot::Open) {
            *slot = Slot::Player {
                id: id.clone(),
                name: name.to_string(),
                bot,
            };
        }
        Ok(())
    }

    /// The game's seats once full: players bound to their identities.
    pub fn game_seats(&self) -> Vec<Seat> {
        self.seats
            .iter()
            .map(|s| match s {
                Slot::Player { id, name, bot } => Seat {
                    kind: SeatKind::Human,
                    name: name.clone(),
                    owner: Some(id.clone()),
                    joined: true,
                    bot: *bot,
                    ..Seat::default()
                },
                Slot::Open => Seat::default(),
                Slot::Ai { level } => Seat {
                    kind: SeatKind::Ai,
                    level: Some(*level),
                    joined: true,
                    ..Seat::default()
                },
            })
            .collect()
    }

    /// Whether the visitor with `ids` (and account key `account`) sees it.
    pub fn visible_to(&self, ids: &[PlayerId], account: Option<&str>) -> bool {
        let mine = self.holds(ids);
        let for_me = self.to.is_some() && self.to.as_deref() == account;
        let open = self.game.is_none() && !self.unlisted && self.to.is_none();
        mine || for_me || open
    }

    /// The seek as the visitor with `ids` sees it.
    pub fn view(&self, id: &str, created: i64, ids: &[PlayerId]) -> Seek {
        Seek {
            id: id.to_string(),
            spec: self.spec.clone(),
            title: self.title.clone(),
            creator: self.creator_name.clone(),
            created,
            seats: self
                .seats
                .iter()
                .map(|s| match s {
                    Slot::Player { name, bot, .. } => SeekSeat {
                        state: "taken".into(),
                        name: Some(name.clone()),
                        level: None,
                        bot: *bot,
                    },
                    Slot::Open => SeekSeat {
                        state: "open".into(),
                        name: None,
                        level: None,
                        bot: false,
                    },
                    Slot::Ai { level } => SeekSeat {
                        state: "ai".into(),
                        name: None,
                        level: Some(*level),
                        bot: false,
                    },
                })
                .collect(),
            hints: self.hints,
            rated: self.rated,
            clock: self.clock,
            to: self.to.clone(),
            unlisted: self.unlisted,
            mine: self.holds(ids),
            game: self.game.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(seats: Vec<SeekSeatRequest>) -> NewSeek {
        NewSeek {
            spec: "gildervaik".into(),
            clock: None,
            rated: false,
            seats,
            hints: false,
            to: None,
            unlisted: false,
        }
    }

    fn u(name: &str) -> PlayerId {
        PlayerId::account(name)
    }

    fn g(id: &str) -> PlayerId {
        PlayerId::Guest(id.into())
    }

    fn ids(id: PlayerId) -> Vec<PlayerId> {
        vec![id]
    }

    #[test]
    fn seats_fill_in_order_of_acceptance() {
        let mut s = SeekDoc::new(&req(vec![]), (&u("ann"), "Ann"), 3, "Gildervaik").expect("seek");
        assert_eq!(
            s.accept(&ids(u("ann")), Some("ann"), "Ann", false),
            Err(SeekError::Own)
        );
        assert_eq!(s.accept(&ids(g("bob")), None, "Bob", false), Ok(()));
        assert!(!s.full());
        assert_eq!(
            s.accept(&ids(g("bob")), None, "Bob", false),
            Err(SeekError::Already)
        );
        assert_eq!(s.accept(&ids(u("cy")), Some("cy"), "Cy", false), Ok(()));
        assert!(s.full());
        assert_eq!(
            s.accept(&ids(u("dee")), Some("dee"), "Dee", false),
            Err(SeekError::Started)
        );
        let seats = s.game_seats();
        let owners: Vec<_> = seats.iter().map(|x| x.owner.clone()).collect();
        assert_eq!(owners, [Some(u("ann")), Some(g("bob")), Some(u("cy"))]);
    }

    #[test]
    fn requests_are_checked() {
        let two_me = req(vec![
            SeekSeatRequest::Me,
            SeekSeatRequest::Me,
            SeekSeatRequest::Open,
        ]);
        assert!(SeekDoc::new(&two_me, (&u("a"), "A"), 3, "G").is_err());
        let no_open = req(vec![
            SeekSeatRequest::Me,
            SeekSeatRequest::Ai { level: None },
            SeekSeatRequest::Ai { level: None },
        ]);
        assert!(SeekDoc::new(&no_open, (&u("a"), "A"), 3, "G").is_err());
        assert!(SeekDoc::new(&req(vec![]), (&u("a"), "A"), 3, "G").is_ok());
        let wrong = req(vec![SeekSeatRequest::Me, SeekSeatRequest::Open]);
        assert!(SeekDoc::new(&wrong, (&u("a"), "A"), 3, "G").is_err());
    }

    #[test]
    fn a_direct_challenge_is_for_its_addressee_only() {
        let mut r = req(vec![]);
        r.to = Some("Bob".into());
        let mut s = SeekDoc::new(&r, (&u("ann"), "Ann"), 3, "G").expect("seek");
        assert!(!s.visible_to(&ids(u("cy")), Some("cy")));
        assert!(s.visible_to(&ids(u("bob")), Some("bob")));
        assert_eq!(
            s.accept(&ids(u("cy")), Some("cy"), "Cy", false),
            Err(SeekError::NotForYou)
        );
        assert_eq!(s.accept(&ids(u("bob")), Some("bob"), "Bob", false), Ok(()));
    }
}
