//! Learning to play (issue 40): lessons, puzzles and the stateless
//! position endpoint over `tabula-learn` (the edge is `http/learn.rs`).
//! A guest's progress and puzzle rating live in the browser; an account's
//! in one document of the store (`progress`).

pub mod error;
pub mod progress;

use serde::{Deserialize, Serialize};
use tabula_learn::{Lesson, PuzzleRun};
use tabula_rating::Rating;

/// `POST /api/position`: a game from a position, actions played on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    pub spec: String,
    /// The start when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub actions: Vec<String>,
}

/// `POST /api/position/lines`: the engine's best moves where `actions`
/// lead from `position` (the start when left out), as for
/// [`PositionRequest`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinesRequest {
    pub spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    /// How many moves to value exactly, 1 to `crate::ai::MAX_LINES`
    /// (3 when left out, as a hint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<usize>,
}

/// The engine's lines in a position: only a player's turn has any (a
/// chance node waits for its roll, a game over for nobody).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lines {
    /// The position searched.
    pub position: String,
    /// `player`, `chance` or `over`.
    pub turn: String,
    /// The seat to move (from 0) when a player is.
    pub to_move: Option<usize>,
    /// Seats in the game: a fair share is `1 / players`.
    pub players: usize,
    /// Best first, each valued exactly.
    pub lines: Vec<Line>,
    /// Deepest completed search iteration, for agents that deepen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// One move of the engine's lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub action: String,
    /// The mover's expected score in `[0, 1]`, as a hint's.
    pub value: f32,
    /// The line the search expects, from this move on: only the best
    /// move's (the search follows one line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv: Vec<String>,
}

/// One game's lessons and puzzles, counted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnGame {
    pub game: String,
    pub lessons: usize,
    pub puzzles: usize,
}

/// `GET /api/learn`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnOverview {
    pub games: Vec<LearnGame>,
}

/// `GET /api/learn/{game}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonList {
    pub game: String,
    /// Without their answers (`Lesson` does not serialize them).
    pub lessons: Vec<Lesson>,
}

/// `POST /api/learn/check`: the learner's actions from the lesson's start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonCheck {
    /// `<game>/<nn>-<slug>`.
    pub lesson: String,
    #[serde(default)]
    pub actions: Vec<String>,
}

/// A puzzle as the browser gets it, without its solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleView {
    pub id: String,
    pub spec: String,
    pub position: String,
    pub theme: String,
    pub rating: f64,
}

/// `GET /api/puzzles/{game}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleList {
    pub game: String,
    pub puzzles: Vec<PuzzleView>,
}

/// `POST /api/puzzles/check`: the solver's actions from the puzzle's
/// position, and their puzzle rating to update once it is decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleCheck {
    pub game: String,
    pub id: String,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

/// The verdict on a puzzle attempt; once solved or failed, its solution and
/// the solver's new rating (when they sent one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleAnswer {
    #[serde(flatten)]
    pub run: PuzzleRun,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}
