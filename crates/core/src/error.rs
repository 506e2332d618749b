//! One error type for every way user input can be wrong.

use std::fmt;

/// What kind of input was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A malformed game spec string or an unknown option/value.
    Spec,
    /// A malformed or impossible position string.
    Position,
    /// Action text that does not parse.
    Notation,
    /// Action text that parses but is not legal here.
    Illegal,
    /// A broken game record.
    Record,
}

/// A one-line, user-facing error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
    pub fn spec(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Spec, message)
    }
    pub fn position(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Position, message)
    }
    pub fn notation(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Notation, message)
    }
    pub fn illegal(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Illegal, message)
    }
    pub fn bad_record(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Record, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Spec => "bad game spec",
            ErrorKind::Position => "bad position",
            ErrorKind::Notation => "bad action",
            ErrorKind::Illegal => "illegal action",
            ErrorKind::Record => "bad record",
        };
        write!(f, "{what}: {}", self.message)
    }
}

impl std::error::Error for Error {}
