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
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
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
        RoundError::NoSeat | RoundError::NotYourTurn { .. } | RoundError::UndoNotAllowed => {
            StatusCode::FORBIDDEN
        }
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
        RoundError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<RoundError> for ApiError {
    fn from(e: RoundError) -> Self {
        ApiError::new(status_of(&e), e.to_string())
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
        (self.status, Json(body)).into_response()
    }
}
