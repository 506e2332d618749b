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
    /// The English line (the CLI shows it; the server sends it as `error`).
    pub message: String,
    /// Why, as a stable code with the values it names, for clients that say
    /// it in their own language (docs/api.md lists the codes); `None` when
    /// only the English line says it.
    pub reason: Option<Reason>,
}

/// A refusal's stable code (`cannot_reach`) and the values it names
/// (`from`, `to`), so that a client can word it in any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub code: &'static str,
    pub vars: Vec<(&'static str, String)>,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            reason: None,
        }
    }
    /// This error with its reason: `code` and the values it names.
    pub fn because<const N: usize>(
        mut self,
        code: &'static str,
        vars: [(&'static str, String); N],
    ) -> Self {
        self.reason = Some(Reason {
            code,
            vars: vars.into(),
        });
        self
    }
    /// No action was written (reason `empty`).
    pub fn empty_action() -> Self {
        Self::notation("empty action").because("empty", [])
    }
    /// `action` cannot be played: the game is over (reason `over`).
    pub fn game_over(action: &str) -> Self {
        Self::illegal(format!("`{action}`: the game is over"))
            .because("over", [("action", action.into())])
    }
    /// `action` reads well but is not a legal action here (reason `not_legal`).
    pub fn not_legal(action: &str) -> Self {
        Self::illegal(format!("`{action}` is not legal here"))
            .because("not_legal", [("action", action.into())])
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
