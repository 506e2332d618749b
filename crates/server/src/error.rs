//! API errors: a status and one clear line, sent as `{"error": "..."}`.
//! The one place where a refusal becomes an HTTP status.

use crate::protocol::ErrorBody;
use crate::round::RoundError;
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
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }
    /// 429, with `Retry-After`.
    pub fn too_many(what: &str, retry_after: std::time::Duration) -> Self {
        let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        ApiError {
            retry_after: Some(secs.max(1)),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many {what}: try again in {} s", secs.max(1)),
            )
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
        | RoundError::Busy => StatusCode::CONFLICT,
        RoundError::Rules(e) if e.kind == ErrorKind::Illegal => StatusCode::UNPROCESSABLE_ENTITY,
        RoundError::Rules(_) | RoundError::BadRequest(_) => StatusCode::BAD_REQUEST,
        RoundError::AiBusy => StatusCode::TOO_MANY_REQUESTS,
        RoundError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<RoundError> for ApiError {
    fn from(e: RoundError) -> Self {
        let retry_after = (e == RoundError::AiBusy).then_some(1);
        ApiError {
            retry_after,
            ..ApiError::new(status_of(&e), e.to_string())
        }
    }
}

impl From<tabula_core::Error> for ApiError {
    fn from(e: tabula_core::Error) -> Self {
        RoundError::from(e).into()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.status.as_u16())
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.message,
        };
        let mut res = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        res
    }
}
