//! Bots, after Lichess's Bot API: personal API tokens that let a program
//! act as an account (`Authorization: Bearer tbl_…`), and bot accounts
//! that play through a streaming HTTP API (`docs/bots.md`). Pure rules and
//! the bot API's messages here; the streams in `service`; the tokens are
//! account credentials (`user::tokens`).
//!
//! A token is shown once and stored only as its SHA-256 (`docs` of kind
//! `api_token`, id = the hash, owner = the account key), as session cookies
//! are. A bot account is an [`Account`](crate::user::Account) with `bot`
//! set; its seats carry `bot` too, so every list of players marks it.

pub mod error;
pub mod service;

pub use error::BotError;
pub use service::Bots;

pub use crate::user::tokens::{
    check_description, last_used_stale, new_token, NewToken, TokenCreated, TokenDoc, TokenInfo,
    DESCRIPTION_MAX, LAST_USED_EVERY_MS, TOKENS_PER_ACCOUNT, TOKEN_PREFIX,
};

use crate::protocol::{GameView, Seek, SeekId, Summary};
use crate::round::{ChatLine, Seat, SeatKind};
use crate::user::session::Visitor;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::time::Duration;

/// A stream with nothing to say sends an empty line this often, so that
/// proxies keep it open and the bot sees a dead connection.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// How often the event stream looks for games started or finished in ways
/// that ring no bell here (an invite link claimed, another instance).
pub const EVENT_POLL: Duration = Duration::from_secs(5);
/// Why a bot may not do something as a person.
pub const USE_THE_BOT_API: &str =
    "bot accounts play through the bot API (/api/bot/…), not the lobby";

/// Refuse a bot in the people's lobby (it accepts through the bot API).
pub fn refuse_lobby(visitor: &Visitor) -> Result<(), BotError> {
    if visitor.is_bot() {
        return Err(BotError::UseTheBotApi);
    }
    Ok(())
}

/// Whether a game with `seats` may be rated: not when a bot and a person
/// play each other (bots are rated among bots, people among people; the
/// AI seats of the server count as neither) unless a tournament that takes
/// bots says so. Decided when the game is made (`Meta::rated`; the lobby
/// refuses such a rated seek), and the ratings trust that decision.
pub fn may_rate(seats: &[Seat]) -> bool {
    apart(
        seats
            .iter()
            .filter(|s| s.kind == SeatKind::Human)
            .map(|s| s.bot),
    )
}

/// Whether the players (`true`: a bot) are all bots or all people.
fn apart(mut bots: impl Iterator<Item = bool>) -> bool {
    match bots.next() {
        Some(first) => bots.all(|b| b == first),
        None => true,
    }
}

/// Whether `seek` (as the bot with account key `key` sees it) is a
/// challenge the bot may accept: addressed to it or open to all, not its
/// own, not started, with an open seat.
pub fn offered(seek: &Seek, key: &str) -> bool {
    let for_me = seek.to.as_deref().is_none_or(|to| to == key);
    let open = seek.seats.iter().any(|s| s.state == "open");
    for_me && open && !seek.mine && seek.game.is_none()
}

/// What appeared in `after` and what left since `before`.
pub fn changes(before: &BTreeSet<String>, after: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    (
        after.difference(before).cloned().collect(),
        before.difference(after).cloned().collect(),
    )
}

// ------------------------------------------------------------ messages

/// A line of `GET /api/bot/stream/event`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum BotEvent {
    /// A game of the bot is on (sent for each one when the stream opens).
    GameStart { game: Summary },
    /// A game of the bot has ended.
    GameFinish { game: Summary },
    /// A seek the bot may accept: addressed to it, or open to all.
    Challenge { challenge: Seek },
    /// A seek offered before is gone (taken, cancelled, expired, declined).
    ChallengeCanceled { challenge: SeekId },
}

/// A line of `GET /api/bot/game/stream/{id}`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GameEvent {
    /// The whole game as the bot sees it (first, and after falling behind).
    GameFull(GameView),
    /// A change: the actions from ply `from` on and the new state.
    GameState(GameView),
    /// A chat line the bot may read.
    ChatLine(ChatLine),
}

/// One line of a newline-delimited JSON stream.
pub fn ndjson_line(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SeekSeat;

    fn seat(bot: bool) -> Seat {
        Seat {
            owner: Some(crate::common::PlayerId::account("x")),
            bot,
            ..Seat::default()
        }
    }

    #[test]
    fn bots_are_not_rated_against_people() {
        let ai = Seat {
            kind: SeatKind::Ai,
            ..Seat::default()
        };
        assert!(may_rate(&[seat(false), seat(false)]));
        assert!(may_rate(&[seat(true), seat(true)]));
        assert!(!may_rate(&[seat(true), seat(false)]));
        assert!(!may_rate(&[seat(false), seat(true), ai.clone()]));
        assert!(may_rate(&[seat(true), ai]));
    }

    #[test]
    fn tokens_are_long_and_prefixed_descriptions_checked() {
        let t = new_token();
        assert!(t.starts_with(TOKEN_PREFIX) && t.len() == 4 + 64, "{t}");
        assert_ne!(t, new_token());
        assert_eq!(check_description("  my bot "), Ok("my bot".into()));
        assert!(check_description("   ").is_err());
        assert!(check_description("a\nb").is_err());
        assert!(check_description(&"x".repeat(DESCRIPTION_MAX + 1)).is_err());
        assert!(last_used_stale(None, 0));
        assert!(!last_used_stale(
            Some(1_000),
            1_000 + LAST_USED_EVERY_MS - 1
        ));
        assert!(last_used_stale(Some(1_000), 1_000 + LAST_USED_EVERY_MS));
    }

    #[test]
    fn a_bot_is_offered_open_seeks_and_its_own_challenges() {
        let open = SeekSeat {
            state: "open".into(),
            name: None,
            level: None,
            bot: false,
        };
        let mut s = Seek {
            id: "s".into(),
            spec: "stelpur".into(),
            title: "T".into(),
            creator: "Ann".into(),
            created: 0,
            seats: vec![open.clone()],
            hints: false,
            rated: false,
            clock: None,
            to: None,
            unlisted: false,
            mine: false,
            game: None,
        };
        assert!(offered(&s, "robo"));
        s.to = Some("robo".into());
        assert!(offered(&s, "robo"));
        assert!(!offered(&s, "other"));
        s.game = Some("g".into());
        assert!(!offered(&s, "robo"));
        s.game = None;
        s.seats[0].state = "taken".into();
        assert!(!offered(&s, "robo"));
    }

    #[test]
    fn changes_are_what_came_and_what_went() {
        let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
        let (came, went) = changes(&set(&["a", "b"]), &set(&["b", "c"]));
        assert_eq!((came, went), (vec!["c".to_string()], vec!["a".to_string()]));
    }
}
