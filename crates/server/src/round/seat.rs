//! Seats and who holds them: a person by token or by their session's
//! identity, an AI by its level; how seats are shown to everyone.

use super::state::Meta;
use crate::common::{hash_token, random_token, PlayerId};
use crate::protocol::{PlayerInfo, SeatKind};
use serde::{Deserialize, Serialize};
use tabula_ai::AiLevel;

/// The AI level that takes a seat when a player leaves a three-player game.
pub const STAND_IN_LEVEL: AiLevel = AiLevel::Level3;

/// One seat. Its token is the seat's secret, given once and stored only
/// as a hash: whoever holds it plays the seat; so does its owner's session.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Seat {
    pub kind: SeatKind,
    /// The AI level of an AI seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<AiLevel>,
    /// SHA-256 of the seat's token, in hex.
    #[serde(default)]
    pub token_hash: String,
    /// A token in the clear, as older versions stored it: hashed when the
    /// game is read ([`Meta::upgrade`]) and never written again.
    #[serde(default, skip_serializing)]
    pub token: String,
    #[serde(default)]
    pub name: String,
    /// Someone opened the seat's link (or created the game holding it).
    #[serde(default)]
    pub joined: bool,
    /// Who plays it: an account or a guest's browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<PlayerId>,
    /// The hash of the seat's invite token once claimed, to tell whoever
    /// holds it still that the link is spent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed: Option<String>,
    /// Its owner is a bot account (set when the seat is bound to it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// Who plays a seat now, from its kind, level and owner read together.
/// A seat whose player left keeps its owner (the game stays theirs, ranked
/// last) while an AI plays it: its holder is the AI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatHolder<'a> {
    /// The AI, at its level.
    Ai(AiLevel),
    /// A person bound to an identity: an account or a guest's browser.
    Player(&'a PlayerId),
    /// A person known only by the seat's token (an invite link nobody
    /// opened from a session yet, a script).
    Token,
}

/// What becomes of the seats [`Round::rename`] renames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rebind {
    /// A guest made an account: its seats are the account's (`u:<name>`),
    /// so they link to its profile and follow it to other browsers.
    To(PlayerId),
    /// The account was deleted: nobody owns its seats any more.
    Release,
}

impl Seat {
    /// Who plays the seat now.
    pub fn holder(&self) -> SeatHolder<'_> {
        match (self.kind, &self.owner) {
            (SeatKind::Ai, _) => SeatHolder::Ai(self.level.unwrap_or(STAND_IN_LEVEL)),
            (SeatKind::Human, Some(id)) => SeatHolder::Player(id),
            (SeatKind::Human, None) => SeatHolder::Token,
        }
    }

    /// A human seat played with `token`.
    pub fn human(token: &str) -> Seat {
        Seat {
            token_hash: hash_token(token),
            joined: true,
            ..Seat::default()
        }
    }

    /// Give the seat a fresh token; the token.
    pub(crate) fn new_token(&mut self) -> String {
        let token = random_token();
        self.token_hash = hash_token(&token);
        token
    }
}

/// Who sends a command: the seat token in the request, if any, and the
/// identities of their session (an account, a guest's browser).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caller {
    pub token: String,
    pub ids: Vec<PlayerId>,
    /// The account's name, for seats they claim.
    pub name: Option<String>,
}

impl Caller {
    /// A caller known only by a seat token (scripts, older links).
    pub fn token(token: &str) -> Caller {
        Caller {
            token: token.to_string(),
            ..Caller::default()
        }
    }
}

/// The seats as everyone sees them (never their tokens); `side` names a
/// seat in its game.
pub fn players(seats: &[Seat], side: impl Fn(u8) -> &'static str) -> Vec<PlayerInfo> {
    seats
        .iter()
        .enumerate()
        .map(|(i, s)| PlayerInfo {
            seat: i as u8,
            side: side(i as u8).to_string(),
            kind: s.kind,
            level: s.level,
            name: seat_label(s, side(i as u8)),
            joined: s.joined || s.kind == SeatKind::Ai,
            user: match s.holder() {
                SeatHolder::Player(id) => account_of(id),
                SeatHolder::Ai(_) | SeatHolder::Token => None,
            },
            bot: s.bot && s.kind == SeatKind::Human,
        })
        .collect()
}

/// The seats as lists and endings show them: as [`players`], but a seat
/// whose player left still names that player's account (`user`), though an
/// AI plays it: the game stays on their profile, said as left, and ratings
/// rank them (last) rather than skip the game.
pub fn players_and_leavers(meta: &Meta, side: impl Fn(u8) -> &'static str) -> Vec<PlayerInfo> {
    let mut infos = players(&meta.seats, side);
    for &s in &meta.left {
        let owner = meta
            .seats
            .get(usize::from(s))
            .and_then(|x| x.owner.as_ref());
        if let (Some(info), Some(owner)) = (infos.get_mut(usize::from(s)), owner) {
            info.user = account_of(owner);
        }
    }
    infos
}

/// Who plays a seat, as shown: the player's name, the side, or the AI.
pub(crate) fn seat_label(seat: &Seat, side: &str) -> String {
    match seat.holder() {
        SeatHolder::Ai(level) => format!("AI {level}"),
        _ if seat.name.is_empty() => side.to_string(),
        _ => seat.name.clone(),
    }
}

/// A player name as shown: one line, at most 32 characters.
pub fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(32)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The account key of an owner identity (`None`: a guest).
fn account_of(owner: &PlayerId) -> Option<String> {
    owner.account_key().map(str::to_string)
}
