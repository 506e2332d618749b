//! API errors: a status, one clear line and a stable code, sent as
//! `{"error": "...", "code": "..."}`. The one place where a refusal becomes
//! an HTTP status and a code: every module refuses in its own terms
//! (`RoundError`, `LobbyError`, ...), and this edge maps each.

use crate::analysis::{AnalysisError, Refusal, MAX_ACTIONS, PER_PLAYER, RETRY_S};
use crate::bot::BotError;
use crate::common::limits::{wait_secs, Limited};
use crate::guard::GuardError;
use crate::learn::error::LearnError;
use crate::lobby::{LobbyError, SeekError};
use crate::protocol::{ErrorBody, RequestId, ServerMessage};
use crate::round::RoundError;
use crate::store::StoreError;
use crate::tournament::{EntryError, TournamentError};
use crate::user::UserError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tabula_core::ErrorKind;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    /// Seconds to wait before asking again (429 answers).
    pub retry_after: Option<u64>,
    /// The machine name of the refusal (`not_your_turn`): clients translate it.
    pub code: &'static str,
    /// The values the message names, for a translated message.
    pub vars: Vec<(&'static str, String)>,
}

impl ApiError {
    /// A refusal known only by its status: its code is the status's
    /// (`bad_request`, `not_found`, ...).
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
            code: code_of_status(status),
            vars: Vec::new(),
        }
    }
    /// 429, with `Retry-After`.
    pub fn too_many(what: &str, retry_after: std::time::Duration) -> Self {
        let secs = wait_secs(retry_after);
        ApiError {
            retry_after: Some(secs),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many {what}: try again in {secs} s"),
            )
        }
    }

    /// A module's refusal `e`, answered with `status` and its own words.
    fn refusal(status: StatusCode, e: &impl std::fmt::Display) -> Self {
        Self::new(status, e.to_string())
    }

    /// The same, asking the client to wait `secs` before trying again.
    fn retry_in(self, secs: u64) -> Self {
        ApiError {
            retry_after: Some(secs),
            ..self
        }
    }
    /// 503, with `Retry-After`: the server cannot do it now, but will.
    pub fn unavailable(message: impl Into<String>, retry_after_secs: u64) -> Self {
        ApiError {
            retry_after: Some(retry_after_secs.max(1)),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
}

/// The status of each refusal.
pub fn status_of(e: &RoundError) -> StatusCode {
    match e {
        RoundError::NoGame(_) => StatusCode::NOT_FOUND,
        RoundError::NoSeat
        | RoundError::NotYourTurn { .. }
        | RoundError::UndoNotAllowed
        | RoundError::HintsNotAllowed
        | RoundError::InviteClaimed
        | RoundError::PlayersChat
        | RoundError::SpectatorsChat => StatusCode::FORBIDDEN,
        RoundError::ChatNeedsSession => StatusCode::UNAUTHORIZED,
        RoundError::Stale { .. }
        | RoundError::Over
        | RoundError::NoPlayerToMove
        | RoundError::AiSeat
        | RoundError::AiDeclinesDraw
        | RoundError::ResignThreePlayers
        | RoundError::NothingToUndo
        | RoundError::EndedOffBoard
        | RoundError::HintNotYourTurn
        | RoundError::Flagged
        | RoundError::UndoTimed
        | RoundError::NoClaim
        | RoundError::Busy => StatusCode::CONFLICT,
        RoundError::Rules(e) if e.kind == ErrorKind::Illegal => StatusCode::UNPROCESSABLE_ENTITY,
        RoundError::Rules(_) | RoundError::BadRequest(_) => StatusCode::BAD_REQUEST,
        RoundError::AiBusy => StatusCode::TOO_MANY_REQUESTS,
        RoundError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        RoundError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The code of a refusal that has no more specific one.
fn code_of_status(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::UNAUTHORIZED => "unauthorized",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::CONFLICT => "conflict",
        StatusCode::UNPROCESSABLE_ENTITY => "illegal_move",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "not_json",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "internal",
        _ => "error",
    }
}

/// The stable code of each refusal (part of the API: rename none) and the
/// values its message names.
pub fn code_of(e: &RoundError) -> (&'static str, Vec<(&'static str, String)>) {
    let code = match e {
        RoundError::NoGame(id) => return ("no_game", vec![("id", id.clone())]),
        RoundError::NoSeat => "no_seat",
        RoundError::NotYourTurn { side, seat } => {
            let vars = vec![("side", side.clone()), ("seat", (seat + 1).to_string())];
            return ("not_your_turn", vars);
        }
        RoundError::Stale { now, asked } => {
            let vars = vec![("now", now.to_string()), ("asked", asked.to_string())];
            return ("stale", vars);
        }
        RoundError::Over => "game_over",
        RoundError::NoPlayerToMove => "no_player_to_move",
        RoundError::Rules(e) => {
            let code = match e.kind {
                ErrorKind::Spec => "bad_spec",
                ErrorKind::Position => "bad_position",
                ErrorKind::Notation => "bad_notation",
                ErrorKind::Illegal => "illegal_move",
                ErrorKind::Record => "bad_record",
            };
            return (code, rules_vars(e));
        }
        RoundError::BadRequest(_) => "bad_request",
        RoundError::AiSeat => "ai_seat",
        RoundError::AiDeclinesDraw => "ai_declines_draw",
        RoundError::ResignThreePlayers => "resign_three_players",
        RoundError::NothingToUndo => "nothing_to_undo",
        RoundError::UndoNotAllowed => "undo_only_vs_ai",
        RoundError::EndedOffBoard => "ended_off_board",
        RoundError::HintNotYourTurn => "hint_not_your_turn",
        RoundError::HintsNotAllowed => "hints_not_allowed",
        RoundError::InviteClaimed => "invite_claimed",
        RoundError::PlayersChat => "players_chat",
        RoundError::SpectatorsChat => "spectators_chat",
        RoundError::ChatNeedsSession => "chat_needs_session",
        RoundError::Flagged => "flagged",
        RoundError::UndoTimed => "undo_timed",
        RoundError::NoClaim => "no_claim",
        RoundError::AiBusy => "ai_busy",
        RoundError::Busy => "busy",
        RoundError::Unavailable => "unavailable",
        RoundError::Internal(_) => "internal",
    };
    (code, Vec::new())
}

impl From<RoundError> for ApiError {
    fn from(e: RoundError) -> Self {
        let (code, vars) = code_of(&e);
        ApiError {
            status: status_of(&e),
            message: e.to_string(),
            retry_after: match e {
                RoundError::AiBusy => Some(1),
                RoundError::Unavailable => Some(STORE_RETRY_S),
                _ => None,
            },
            code,
            vars,
        }
    }
}

/// Seconds a client waits before asking again while the database is out
/// of reach.
pub const STORE_RETRY_S: u64 = 5;

/// A store failure as answered: a conflict is 409, a fault 503 with
/// `Retry-After` and words a person understands (the driver's own are
/// logged, not sent).
impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => ApiError::new(
                StatusCode::CONFLICT,
                "it changed at the same moment elsewhere: try again",
            ),
            StoreError::Missing => RoundError::Internal(e.to_string()).into(),
            StoreError::Failed(cause) => {
                tracing::debug!("database: {cause}");
                RoundError::Unavailable.into()
            }
        }
    }
}

impl From<tabula_core::Error> for ApiError {
    fn from(e: tabula_core::Error) -> Self {
        RoundError::from(e).into()
    }
}

impl From<Limited> for ApiError {
    fn from(e: Limited) -> Self {
        ApiError::too_many(e.what, e.wait)
    }
}

impl From<UserError> for ApiError {
    fn from(e: UserError) -> Self {
        let status = match e {
            UserError::Store(e) => return e.into(),
            UserError::Unreadable(_) => return RoundError::Internal(e.to_string()).into(),
            UserError::NoOrigin | UserError::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            UserError::UnknownToken => StatusCode::UNAUTHORIZED,
            UserError::BadDescription(_) => StatusCode::BAD_REQUEST,
            UserError::TooManyTokens => StatusCode::CONFLICT,
            UserError::NoToken(_) => StatusCode::NOT_FOUND,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<GuardError> for ApiError {
    fn from(e: GuardError) -> Self {
        let (status, retry) = match e {
            GuardError::TooMany(e) => return e.into(),
            GuardError::Round(e) => return e.into(),
            GuardError::Store(e) => return e.into(),
            GuardError::GamesInProgress(_) => (StatusCode::TOO_MANY_REQUESTS, Some(60)),
            GuardError::Channels(_) => (StatusCode::TOO_MANY_REQUESTS, Some(10)),
            GuardError::AiOnlyNeedsSession | GuardError::NotAiOnly | GuardError::NotCreator => {
                (StatusCode::FORBIDDEN, None)
            }
        };
        ApiError {
            retry_after: retry,
            ..ApiError::refusal(status, &e)
        }
    }
}

impl From<SeekError> for ApiError {
    fn from(e: SeekError) -> Self {
        let status = match e {
            SeekError::NotForYou | SeekError::BotRated => StatusCode::FORBIDDEN,
            SeekError::SignIn => StatusCode::UNAUTHORIZED,
            SeekError::Own | SeekError::Already | SeekError::Started => StatusCode::CONFLICT,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<LobbyError> for ApiError {
    fn from(e: LobbyError) -> Self {
        let status = match e {
            LobbyError::TooMany(e) => return e.into(),
            LobbyError::Seek(e) => return e.into(),
            LobbyError::Round(e) => return e.into(),
            LobbyError::User(e) => return e.into(),
            LobbyError::Store(e) => return e.into(),
            LobbyError::NoSession => StatusCode::UNAUTHORIZED,
            LobbyError::SelfChallenge | LobbyError::BadSeek(_) => StatusCode::BAD_REQUEST,
            LobbyError::NoPlayer(_) | LobbyError::Gone => StatusCode::NOT_FOUND,
            LobbyError::NotCreator => StatusCode::FORBIDDEN,
            LobbyError::Started => StatusCode::CONFLICT,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<BotError> for ApiError {
    fn from(e: BotError) -> Self {
        let status = match e {
            BotError::Lobby(e) => return e.into(),
            BotError::Store(e) => return e.into(),
            BotError::NotSignedIn => StatusCode::UNAUTHORIZED,
            BotError::UseTheBotApi | BotError::NotForYou => StatusCode::FORBIDDEN,
            BotError::Started => StatusCode::CONFLICT,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<EntryError> for ApiError {
    fn from(e: EntryError) -> Self {
        let status = match e {
            EntryError::NotIn => StatusCode::NOT_FOUND,
            EntryError::NoBots => StatusCode::FORBIDDEN,
            EntryError::Finished | EntryError::Full => StatusCode::CONFLICT,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> Self {
        let status = match e {
            TournamentError::Entry(e) => return e.into(),
            TournamentError::TooMany(e) => return e.into(),
            TournamentError::Round(e) => return e.into(),
            TournamentError::Store(e) => return e.into(),
            TournamentError::Unreadable(..) => return RoundError::Internal(e.to_string()).into(),
            TournamentError::SignIn => StatusCode::UNAUTHORIZED,
            TournamentError::BadRequest(_) => StatusCode::BAD_REQUEST,
            TournamentError::Gone(_) => StatusCode::NOT_FOUND,
        };
        ApiError::refusal(status, &e)
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> Self {
        match e {
            AnalysisError::Refused(r) => analysis_refused(r),
            AnalysisError::Round(e) => e.into(),
            AnalysisError::Store(e) => e.into(),
        }
    }
}

/// A refusal as the API answers it (`docs/api.md`, "Analysis").
fn analysis_refused(r: Refusal) -> ApiError {
    let (status, code, message, vars) = match r {
        Refusal::NotOver => (
            StatusCode::CONFLICT,
            "analysis_not_over",
            "a game is analysed once it is over (or imported)".to_string(),
            vec![],
        ),
        Refusal::TooLong(n) => (
            StatusCode::PAYLOAD_TOO_LARGE,
            "analysis_too_long",
            format!("a record of {n} actions is longer than the {MAX_ACTIONS} analysed"),
            vec![("max", MAX_ACTIONS.to_string())],
        ),
        Refusal::Quota => (
            StatusCode::TOO_MANY_REQUESTS,
            "analysis_quota",
            format!("you have {PER_PLAYER} analyses waiting: wait for them to finish"),
            vec![("max", PER_PLAYER.to_string())],
        ),
        Refusal::Busy => (
            StatusCode::SERVICE_UNAVAILABLE,
            "analysis_busy",
            "too many analyses are waiting: try again later".to_string(),
            vec![],
        ),
    };
    let retry = matches!(r, Refusal::Quota | Refusal::Busy).then_some(RETRY_S);
    ApiError {
        code,
        vars,
        retry_after: retry,
        ..ApiError::new(status, message)
    }
}

impl From<LearnError> for ApiError {
    fn from(e: LearnError) -> Self {
        match e {
            LearnError::NotWritten => {
                ApiError::refusal(StatusCode::SERVICE_UNAVAILABLE, &e).retry_in(1)
            }
            LearnError::Store(e) => e.into(),
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.status.as_u16())
    }
}

impl std::error::Error for ApiError {}

/// The most characters of a client's input that an error quotes.
pub const QUOTE_MAX: usize = 200;

/// `text` with every quoted stretch (between backticks or double quotes,
/// as our messages and serde's quote input) cut to [`QUOTE_MAX`]
/// characters, an ellipsis marking the cut: a refusal never echoes a large
/// body back.
pub fn cap_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * QUOTE_MAX));
    let mut quote: Option<(char, usize)> = None;
    for c in text.chars() {
        match quote {
            Some((q, _)) if c == q => {
                quote = None;
                out.push(c);
            }
            Some((q, n)) => {
                if n < QUOTE_MAX {
                    out.push(c);
                } else if n == QUOTE_MAX {
                    out.push('…');
                }
                quote = Some((q, n + 1));
            }
            None => {
                if c == '`' || c == '"' {
                    quote = Some((c, 0));
                }
                out.push(c);
            }
        }
    }
    out
}

/// A value a message names (`vars`), cut as a quote is: they come from
/// the input (a game id, the rules' words about an action).
fn cap_var(value: &str) -> String {
    match value.char_indices().nth(QUOTE_MAX) {
        Some((cut, _)) => format!("{}…", cap_quotes(&value[..cut])),
        None => cap_quotes(value),
    }
}

/// A request body that could not be read: 413 when it is longer than
/// `limit` bytes, 400 otherwise.
pub fn body_error(e: axum::Error, limit: usize) -> ApiError {
    let inner = e.into_inner();
    if inner.is::<http_body_util::LengthLimitError>() {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is too large (at most {} KB)",
                limit / 1024
            ),
        );
    }
    ApiError::bad_request(format!("the request body cannot be read: {inner}"))
}

impl ApiError {
    /// What a client is sent: the line, the code and the values, each
    /// quote capped.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: cap_quotes(&self.message),
            code: self.code.to_string(),
            vars: self
                .vars
                .iter()
                .map(|(k, v)| (k.to_string(), cap_var(v)))
                .collect(),
        }
    }

    /// The refusal of request `rid` on a live channel: the same body and
    /// status as over HTTP, so clients translate both alike.
    pub fn to_message(&self, rid: Option<RequestId>) -> ServerMessage {
        ServerMessage::Error {
            rid,
            refusal: self.body(),
            status: Some(self.status.as_u16()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        res
    }
}

/// The values of a refusal by the rules: their own words, in English, and
/// their reason's code with its values, for clients that word it
/// themselves.
pub(crate) fn rules_vars(e: &tabula_core::Error) -> Vec<(&'static str, String)> {
    let mut vars = vec![("detail", e.message.clone())];
    if let Some(why) = &e.reason {
        vars.push(("reason", why.code.to_string()));
        vars.extend(why.vars.iter().cloned());
    }
    vars
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_quote_at_most_200_characters_of_the_input() {
        let long = "x".repeat(1000);
        let capped = cap_quotes(&format!("bad spec `{long}`: no \"{long}\" here"));
        let cut = format!("{}…", "x".repeat(QUOTE_MAX));
        assert_eq!(capped, format!("bad spec `{cut}`: no \"{cut}\" here"));
        // An unclosed quote is cut too; short ones are left alone.
        assert_eq!(cap_quotes(&format!("`{long}")), format!("`{cut}"));
        assert_eq!(
            cap_quotes("the name `ana` is taken"),
            "the name `ana` is taken"
        );
    }
}
