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
