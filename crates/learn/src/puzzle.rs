//! A puzzle: a position from self-play with one clearly best line, found
//! and checked by the engine (`learn/puzzles/<game>.jsonl`, written by
//! `tabula puzzles generate`), and the verdict on a solver's actions.

use crate::replay::{describe, play, Replayed, Step};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use tabula_core::{AnyGame, Error, Player, Registry, Turn};
use tabula_rating::{update_two, Outcome as Result3, Rating};

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    /// Unique within its game's file, e.g. `dc-m1-0042`.
    pub id: String,
    pub spec: String,
    pub position: String,
    /// The solution from the position, canonical: the solver's actions and,
    /// between them, the other seats' replies.
    pub line: Vec<String>,
    /// Other first actions as good as the line's (a capture chain taking
    /// the same pawns, landing elsewhere).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// What it trains: `mate1`, `mate2`, `mate3`, `chain`, `race`, `roll`.
    pub theme: String,
    /// The puzzle's rating (Glicko-2 scale), from how deep its line is.
    pub rating: f64,
    /// The margin by which the best answer beats the next (win chance for
    /// a roll, pawns for a chain; 1 for a mate or a win: the only one).
    pub margin: f64,
    /// A mate in 2 or 3: the positions its proof visited, for the cost of
    /// checking it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

/// Where a solver's attempt stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PuzzleStatus {
    Going,
    Solved,
    /// The solver's action number `at` (from 0) is not the solution;
    /// `expected` is the line's action there.
    Failed {
        at: usize,
        expected: String,
    },
}

/// The verdict and the state reached (after the replies of the line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRun {
    #[serde(flatten)]
    pub status: PuzzleStatus,
    pub state: Replayed,
}

/// Positions the check of one answer may visit to accept another order
/// of the same actions (the dice of one roll used in another order).
const ORDER_NODES: usize = 20_000;

impl Puzzle {
    pub fn start(&self, registry: &Registry) -> Result<Box<dyn AnyGame>, Error> {
        registry.create(&self.spec, Some(&self.position))
    }

    /// The seat that solves: the one to move in the position.
    pub fn solver(game: &dyn AnyGame) -> Option<Player> {
        match game.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    /// The verdict on the solver's `actions`. An action is right when it is
    /// the line's, or when the solver's run of actions it belongs to can
    /// still end in the same position as the line's run (the same moves in
    /// another order). After each right run the line's replies are played.
    pub fn check(&self, registry: &Registry, actions: &[String]) -> Result<PuzzleRun, Error> {
        crate::replay::check_bounds(&self.spec, Some(&self.position), actions)?;
        let mut game = self.start(registry)?;
        let solver =
            Self::solver(game.as_ref()).ok_or_else(|| Error::position("no player to move"))?;
        let mut steps: Vec<Step> = Vec::new();
        let mut line_at = 0;
        let mut given = actions.iter().enumerate().peekable();
        while line_at < self.line.len() {
            if game.turn() != Turn::Player(solver) {
                steps.push(play(game.as_mut(), &self.line[line_at])?);
                line_at += 1;
                continue;
            }
            // The line's run of solver actions and the position it ends in.
            let mut target = game.clone_box();
            let mut run = 0;
            while line_at + run < self.line.len() && target.turn() == Turn::Player(solver) {
                play(target.as_mut(), &self.line[line_at + run])?;
                run += 1;
            }
            let goal = target.position();
            let mut done = 0;
            while done < run {
                let Some((at, action)) = given.next() else {
                    return Ok(PuzzleRun {
                        status: PuzzleStatus::Going,
                        state: describe(game.as_ref(), steps),
                    });
                };
                let expected = &self.line[line_at + done];
                let mut next = game.clone_box();
                let step = match play(next.as_mut(), action) {
                    Ok(s)
                        if &s.action == expected
                            || (at == 0 && self.also.contains(&s.action))
                            || can_end_in(next.as_ref(), solver, &goal) =>
                    {
                        s
                    }
                    _ => {
                        return Ok(PuzzleRun {
                            status: PuzzleStatus::Failed {
                                at,
                                expected: expected.clone(),
                            },
                            state: describe(game.as_ref(), steps),
                        })
                    }
                };
                steps.push(step);
                game = next;
                done += 1;
            }
            line_at += run;
        }
        if given.peek().is_some() {
            return Err(Error::illegal("the puzzle is solved: no more actions"));
        }
        Ok(PuzzleRun {
            status: PuzzleStatus::Solved,
            state: describe(game.as_ref(), steps),
        })
    }

    /// The line's actions the solver plays (the others' replies are the
    /// check's to play): what a solver sends to solve it.
    pub fn solver_actions(&self, registry: &Registry) -> Result<Vec<String>, Error> {
        let mut game = self.start(registry)?;
        let solver =
            Self::solver(game.as_ref()).ok_or_else(|| Error::position("no player to move"))?;
        let mut out = Vec::new();
        for a in &self.line {
            let mine = game.turn() == Turn::Player(solver);
            let step = play(game.as_mut(), a)?;
            if mine {
                out.push(step.action);
            }
        }
        Ok(out)
    }

    /// The puzzle's rating before any solver moved it: the one it was
    /// made with, at [`PUZZLE_RD`].
    pub fn base_rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            rd: PUZZLE_RD,
            ..Rating::new()
        }
    }

    /// The solver's rating after this puzzle (Glicko-2, a period of one
    /// game against the puzzle at its `live` rating).
    pub fn rate(&self, player: &Rating, live: &Rating, solved: bool) -> Rating {
        let outcome = if solved { Result3::Win } else { Result3::Loss };
        update_two(player, live, outcome).0
    }

    /// The puzzle's `live` rating after one solver's first try (the
    /// solver's rating before it): the other side of [`Puzzle::rate`],
    /// kept within [`PUZZLE_DRIFT`] of the rating it was made with and at
    /// least [`PUZZLE_MIN_RD`] unsure, so that solvers tune a puzzle but
    /// cannot make an easy one hard, and it never stops listening.
    pub fn rerate(&self, live: &Rating, player: &Rating, solved: bool) -> Rating {
        let outcome = if solved { Result3::Loss } else { Result3::Win };
        let mut next = update_two(live, player, outcome).0;
        next.rating = next
            .rating
            .clamp(self.rating - PUZZLE_DRIFT, self.rating + PUZZLE_DRIFT);
        next.rd = next.rd.max(PUZZLE_MIN_RD);
        next
    }
}

/// The deviation a puzzle's rating starts with: its rating is settled
/// by its construction, not by a few solvers.
pub const PUZZLE_RD: f64 = 80.0;
/// The most solvers may move a puzzle's rating from the one it was made with.
pub const PUZZLE_DRIFT: f64 = 400.0;
/// The least deviation a puzzle's rating keeps.
pub const PUZZLE_MIN_RD: f64 = 50.0;

/// Whether the solver, still to move, can end their run of actions in
/// the position `goal` (a bounded search; false when it runs out).
fn can_end_in(game: &dyn AnyGame, solver: Player, goal: &str) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![game.clone_box()];
    while let Some(g) = stack.pop() {
        if g.turn() != Turn::Player(solver) {
            if g.position() == goal {
                return true;
            }
            continue;
        }
        if g.position() == goal {
            return true;
        }
        for a in g.legal_actions() {
            if seen.len() >= ORDER_NODES {
                return false;
            }
            let mut next = g.clone_box();
            if next.apply_text(&a).is_ok() && seen.insert(next.position()) {
                stack.push(next);
            }
        }
    }
    false
}
