//! Why a command was refused. Each refusal changes nothing; the HTTP status
//! of each is decided in one place (`crate::error`).

use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum RoundError {
    /// No game with this id.
    NoGame(String),
    /// The token holds no seat in this game.
    NoSeat,
    NotYourTurn {
        side: String,
        seat: u8,
    },
    /// The move was made on an older board.
    Stale {
        now: usize,
        asked: usize,
    },
    Over,
    /// The dice are rolling or the game is decided.
    NoPlayerToMove,
    /// The rules refused it (an illegal action, a bad spec or position).
    Rules(tabula_core::Error),
    /// A request that is malformed whatever the game's state.
    BadRequest(String),
    /// The seat is played by the AI.
    AiSeat,
    AiDeclinesDraw,
    ResignThreePlayers,
    NothingToUndo,
    UndoNotAllowed,
    EndedOffBoard,
    HintNotYourTurn,
    /// The mover's time ran out before the move arrived.
    Flagged,
    /// Take-backs would let the clocks lie.
    UndoTimed,
    /// Nobody has abandoned the game (or it has a running clock).
    NoClaim,
    /// Hints are for games against the AI or with help agreed.
    HintsNotAllowed,
    /// The invite link was claimed by someone else.
    InviteClaimed,
    /// Only the players write in the players' chat.
    PlayersChat,
    /// Players write in their own chat, not the spectators'.
    SpectatorsChat,
    /// Spectators chat from a session (signed in or guest).
    ChatNeedsSession,
    /// The game was changed elsewhere at the same moment: try again.
    Busy,
    /// Too many hints wait for the AI workers: ask again in a moment.
    AiBusy,
    /// The database cannot be written or read now (down, restarting, a
    /// full disk): nothing was changed, try again in a few seconds.
    Unavailable,
    /// The server could not do it (a failed task).
    Internal(String),
}

/// What a person is told while the database cannot be used (the cause is
/// in the logs and `/healthz`, not in the answer).
pub const UNAVAILABLE: &str =
    "the server cannot use its database right now: nothing was changed, try again in a few seconds";

impl From<tabula_core::Error> for RoundError {
    fn from(e: tabula_core::Error) -> Self {
        RoundError::Rules(e)
    }
}

impl fmt::Display for RoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundError::NoGame(id) => write!(f, "no game `{id}`"),
            RoundError::NoSeat => f.write_str("this link holds no seat in this game"),
            RoundError::NotYourTurn { side, seat } => {
                write!(f, "it is not your turn: {side} ({}) is to move", seat + 1)
            }
            RoundError::Stale { now, asked } => write!(
                f,
                "the board has changed (ply {now} now, not {asked}): reload"
            ),
            RoundError::Over => f.write_str("the game is over"),
            RoundError::NoPlayerToMove => f.write_str("no player is to move"),
            RoundError::Rules(e) => write!(f, "{e}"),
            RoundError::BadRequest(m) | RoundError::Internal(m) => f.write_str(m),
            RoundError::Unavailable => f.write_str(UNAVAILABLE),
            RoundError::AiSeat => f.write_str("the AI plays this seat now"),
            RoundError::AiDeclinesDraw => f.write_str("the AI does not accept draws"),
            RoundError::ResignThreePlayers => {
                f.write_str("in a three-player game, leave instead: the AI takes your seat")
            }
            RoundError::NothingToUndo => f.write_str("you have no move to take back"),
            RoundError::UndoNotAllowed => {
                f.write_str("take-backs are for games against the AI, or inside your own turn")
            }
            RoundError::EndedOffBoard => f.write_str("the game has ended off the board"),
            RoundError::HintNotYourTurn => f.write_str("hints are for the player to move"),
            RoundError::Flagged => f.write_str("your time ran out before this move arrived"),
            RoundError::UndoTimed => f.write_str("no take-backs in a game with a clock"),
            RoundError::NoClaim => f.write_str(
                "nothing to claim: the other player is connected or has not been away long enough",
            ),
            RoundError::HintsNotAllowed => f.write_str(
                "hints are for games against the AI or games created with hints allowed",
            ),
            RoundError::InviteClaimed => {
                f.write_str("this invite link was already used: the seat belongs to its claimant")
            }
            RoundError::PlayersChat => f.write_str("only the players write in the players' chat"),
            RoundError::SpectatorsChat => {
                f.write_str("players write in the players' chat, not the spectators'")
            }
            RoundError::ChatNeedsSession => {
                f.write_str("open the game in a browser session (or sign in) to chat")
            }
            RoundError::Busy => f.write_str("the game changed at the same moment: try again"),
            RoundError::AiBusy => f.write_str("the AI is busy: ask again in a moment"),
        }
    }
}

impl std::error::Error for RoundError {}
