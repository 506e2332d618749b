//! A lesson: one exercise on one idea of a game, as a data file
//! `learn/lessons/<game>/<nn>-<slug>.json`, and the engine's verdict on an
//! answer (the learner's actions from the lesson's position).
//!
//! The learner plays one seat (the one to move in the position). Whenever
//! another seat is to move, it plays its first legal action in the
//! engine's order: a fixed reply, so that an exercise is a puzzle for one
//! and the search in [`crate::solve`] can prove it solvable. A roll of the
//! dice ends the exercise (a lesson with dice is about the roll in its
//! position).

use crate::replay::{describe, play, Replayed, Step};
use crate::{destination, same_cell, Text};
use serde::{Deserialize, Serialize};
use tabula_core::{AnyGame, Error, Outcome, Player, Registry, Turn};

/// What the learner must achieve; checked after each of their actions (and
/// the fixed replies it brings).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// Play one of these actions (canonical text) as the first action.
    Play { actions: Vec<String> },
    /// Capture at least `count` enemy pieces (actions the engine says capture).
    Capture { count: u32 },
    /// Give check.
    Check,
    /// Win at once: checkmate, a Phylde surround.
    Mate,
    /// Win the game (any way the rules allow).
    Win,
    /// Bring pieces to every one of these cells (each the destination of
    /// one of the learner's actions, in any order).
    Reach { cells: Vec<String> },
}

impl Goal {
    /// The translation key of the generic reason a move falls short of this
    /// goal (`learn.why.<kind>` in `web/locales/*.json`).
    pub fn why_key(&self) -> &'static str {
        match self {
            Goal::Play { .. } => "learn.why.play",
            Goal::Capture { .. } => "learn.why.capture",
            Goal::Check => "learn.why.check",
            Goal::Mate => "learn.why.mate",
            Goal::Win => "learn.why.win",
            Goal::Reach { .. } => "learn.why.reach",
        }
    }
}

/// A wrong answer the file foresees, with the words that say why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wrong {
    /// The learner's actions (canonical), from the lesson's position.
    pub actions: Vec<String>,
    pub reason: Text,
}

/// One exercise.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// `<game>/<file name without .json>`, set when the file is read.
    #[serde(default)]
    pub id: String,
    /// The game and its options, e.g. `gildervaik(mode=warrior)`.
    pub spec: String,
    pub title: Text,
    /// The idea, told before the board: what to know and what to do.
    pub text: Text,
    pub position: String,
    pub goal: Goal,
    /// The learner's actions of the shortest solution: three stars.
    pub par: u32,
    /// The most learner actions allowed (at least `par`).
    pub limit: u32,
    #[serde(default)]
    pub hints: Vec<Text>,
    /// Said when the goal is reached.
    pub success: Text,
    /// One intended solution (canonical actions). Never sent to a browser
    /// (not serialized), as the wrong answers are not.
    #[serde(default, skip_serializing)]
    pub answer: Vec<String>,
    #[serde(default, skip_serializing)]
    pub wrong: Vec<Wrong>,
}

/// Why an answer was refused: the file's words, or a translation key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// A wrong answer the lesson foresees.
    Text(Text),
    /// A generic reason: `learn.why.illegal`, `learn.why.limit`, or the
    /// goal's (`Goal::why_key`).
    Key(String),
}

/// Where an answer stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Status {
    /// The goal is not reached yet and still can be.
    Going,
    /// The goal is reached: 1 to 3 stars.
    Done { stars: u8 },
    /// The learner's action number `at` (from 0) was refused; the state
    /// shown is the one before it.
    Refused { at: usize, why: Why },
}

/// The verdict on an answer and the state it leads to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    #[serde(flatten)]
    pub status: Status,
    /// The learner's actions accepted so far.
    pub moves: u32,
    /// The state after the accepted actions and their replies.
    pub state: Replayed,
}

/// What the learner's actions have done so far.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub moves: u32,
    pub captures: u32,
    pub check: bool,
    pub mate: bool,
    pub first: Option<String>,
    pub reached: Vec<String>,
}

impl Progress {
    pub(crate) fn note(&mut self, step: &Step) {
        self.moves += 1;
        self.captures += u32::from(step.facts.capture);
        self.check |= step.facts.check;
        self.mate |= step.facts.mate;
        if self.first.is_none() {
            self.first = Some(step.action.clone());
        }
        if let Some(to) = destination(&step.action) {
            self.reached.push(to.to_string());
        }
    }
}

/// Most fixed replies played in a row (a Phylde turn is at most six).
const MAX_REPLIES: usize = 64;

impl Lesson {
    /// The seat the learner plays: the one to move in the position.
    pub fn learner(&self, game: &dyn AnyGame) -> Option<Player> {
        match game.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    /// The lesson's position as a game.
    pub fn start(&self, registry: &Registry) -> Result<Box<dyn AnyGame>, Error> {
        registry.create(&self.spec, Some(&self.position))
    }

    /// Whether the goal is met.
    pub fn met(&self, progress: &Progress, game: &dyn AnyGame, learner: Player) -> bool {
        match &self.goal {
            Goal::Play { actions } => progress
                .first
                .as_ref()
                .is_some_and(|f| actions.iter().any(|a| a == f)),
            Goal::Capture { count } => progress.captures >= *count,
            Goal::Check => progress.check,
            Goal::Mate => progress.mate,
            Goal::Win => game.outcome() == Some(Outcome::Win(learner)),
            Goal::Reach { cells } => cells
                .iter()
                .all(|c| progress.reached.iter().any(|to| same_cell(to, c))),
        }
    }

    /// Stars for reaching the goal in `moves` learner actions: three at
    /// par, two up to twice par, one beyond.
    pub fn stars(&self, moves: u32) -> u8 {
        if moves <= self.par {
            3
        } else if moves <= 2 * self.par {
            2
        } else {
            1
        }
    }

    /// Play the fixed replies until the learner is to move again (or the
    /// game waits for dice or is over).
    pub fn replies(game: &mut dyn AnyGame, learner: Player, steps: &mut Vec<Step>) {
        for _ in 0..MAX_REPLIES {
            match game.turn() {
                Turn::Player(p) if p != learner => {
                    let Some(first) = game.legal_actions().into_iter().next() else {
                        return;
                    };
                    match play(game, &first) {
                        Ok(step) => steps.push(step),
                        Err(_) => return,
                    }
                }
                _ => return,
            }
        }
    }

    /// Whether the learner may still act in the exercise.
    pub fn open(game: &dyn AnyGame, learner: Player) -> bool {
        game.turn() == Turn::Player(learner)
    }

    /// The reason for refusing the answer `actions` (canonical texts) whose
    /// last action could not lead to the goal.
    fn why(&self, actions: &[String]) -> Why {
        self.wrong
            .iter()
            .find(|w| w.actions == actions)
            .map(|w| Why::Text(w.reason.clone()))
            .unwrap_or_else(|| Why::Key(self.goal.why_key().to_string()))
    }

    /// The verdict on the learner's `actions` from the lesson's position.
    /// Each action is checked by the engine; the first that is illegal or
    /// from which the goal can no longer be reached within `limit` is
    /// refused (the state returned is the one before it).
    pub fn check(&self, registry: &Registry, actions: &[String]) -> Result<Run, Error> {
        crate::replay::check_bounds(&self.spec, Some(&self.position), actions)?;
        let mut game = self.start(registry)?;
        let learner = self
            .learner(game.as_ref())
            .ok_or_else(|| Error::position("a lesson starts with a player to move"))?;
        let mut progress = Progress::default();
        let mut steps = Vec::new();
        let mut canonical = Vec::new();
        for (at, action) in actions.iter().enumerate() {
            if !Self::open(game.as_ref(), learner) {
                return Err(Error::illegal("the exercise is over"));
            }
            let refuse = |why: Why, game: &dyn AnyGame, steps: Vec<Step>, moves| Run {
                status: Status::Refused { at, why },
                moves,
                state: describe(game, steps),
            };
            let mut next = game.clone_box();
            let step = match play(next.as_mut(), action) {
                Ok(step) => step,
                Err(_) => {
                    let why = Why::Key("learn.why.illegal".to_string());
                    return Ok(refuse(why, game.as_ref(), steps, progress.moves));
                }
            };
            let mut after = progress.clone();
            after.note(&step);
            canonical.push(step.action.clone());
            let mut next_steps = steps.clone();
            next_steps.push(step);
            Self::replies(next.as_mut(), learner, &mut next_steps);
            if self.met(&after, next.as_ref(), learner) {
                if at + 1 < actions.len() {
                    return Err(Error::illegal("the exercise is over"));
                }
                return Ok(Run {
                    status: Status::Done {
                        stars: self.stars(after.moves),
                    },
                    moves: after.moves,
                    state: describe(next.as_ref(), next_steps),
                });
            }
            let left = self.limit.saturating_sub(after.moves);
            if left == 0 {
                // A one-move exercise says what the move lacks; a longer one
                // that the moves ran out on says so, unless foreseen.
                let listed = self.wrong.iter().any(|w| w.actions == canonical);
                let why = if listed || self.limit == 1 {
                    self.why(&canonical)
                } else {
                    Why::Key("learn.why.limit".to_string())
                };
                return Ok(refuse(why, game.as_ref(), steps, progress.moves));
            }
            if crate::solve::reachable(self, next.as_ref(), learner, &after, left) == Some(false) {
                return Ok(refuse(
                    self.why(&canonical),
                    game.as_ref(),
                    steps,
                    progress.moves,
                ));
            }
            game = next;
            steps = next_steps;
            progress = after;
        }
        Ok(Run {
            status: Status::Going,
            moves: progress.moves,
            state: describe(game.as_ref(), steps),
        })
    }
}
