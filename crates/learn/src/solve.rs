//! Bounded search for a lesson's goal: the learner's actions only, the
//! other seats playing their fixed replies (see [`crate::lesson`]). The
//! test of every lesson file solves it with this; the check of an answer
//! asks it whether the goal is still within reach.

use crate::lesson::{Lesson, Progress};
use crate::replay::play;
use tabula_core::{AnyGame, Error, Player, Registry};

/// Positions a check of one answer may visit before it gives the learner
/// the benefit of the doubt (a request must stay cheap).
pub const CHECK_NODES: u64 = 20_000;
/// Positions the file test may visit to solve one lesson.
pub const SOLVE_NODES: u64 = 2_000_000;

struct Search<'a> {
    lesson: &'a Lesson,
    learner: Player,
    nodes: u64,
    budget: u64,
}

impl Search<'_> {
    /// A shortest line of at most `left` learner actions reaching the goal
    /// (`Ok(None)`: there is none), or `Err(())` when the budget ran out.
    fn line(
        &mut self,
        game: &dyn AnyGame,
        progress: &Progress,
        left: u32,
    ) -> Result<Option<Vec<String>>, ()> {
        if left == 0 || !Lesson::open(game, self.learner) {
            return Ok(None);
        }
        let mut unknown = false;
        for action in game.legal_actions() {
            self.nodes += 1;
            if self.nodes > self.budget {
                return Err(());
            }
            let mut next = game.clone_box();
            let Ok(step) = play(next.as_mut(), &action) else {
                continue;
            };
            let mut after = progress.clone();
            let text = step.action.clone();
            after.note(&step);
            let mut replies = Vec::new();
            Lesson::replies(next.as_mut(), self.learner, &mut replies);
            if self.lesson.met(&after, next.as_ref(), self.learner) {
                return Ok(Some(vec![text]));
            }
            match self.line(next.as_ref(), &after, left - 1) {
                Ok(Some(mut rest)) => {
                    rest.insert(0, text);
                    return Ok(Some(rest));
                }
                Ok(None) => {}
                Err(()) => unknown = true,
            }
        }
        if unknown {
            Err(())
        } else {
            Ok(None)
        }
    }
}

/// Whether the goal can still be reached from `game` in `left` learner
/// actions; `None` when the search ran out of its budget.
pub fn reachable(
    lesson: &Lesson,
    game: &dyn AnyGame,
    learner: Player,
    progress: &Progress,
    left: u32,
) -> Option<bool> {
    let mut search = Search {
        lesson,
        learner,
        nodes: 0,
        budget: CHECK_NODES,
    };
    // Deepen one action at a time: a near goal is found without walking the
    // whole tree of the longer lines.
    let mut out = Some(false);
    for depth in 1..=left {
        match search.line(game, progress, depth) {
            Ok(Some(_)) => return Some(true),
            Ok(None) => {}
            Err(()) => out = None,
        }
        if out.is_none() {
            break;
        }
    }
    out
}

/// A shortest solution of the lesson (learner actions, canonical), by
/// iterative deepening up to its limit; `Ok(None)` when there is none,
/// an error when the file's game or position does not load or the search
/// exceeds `budget` positions.
pub fn solve(
    lesson: &Lesson,
    registry: &Registry,
    budget: u64,
) -> Result<Option<Vec<String>>, Error> {
    let game = lesson.start(registry)?;
    let learner = lesson
        .learner(game.as_ref())
        .ok_or_else(|| Error::position("a lesson starts with a player to move"))?;
    let mut search = Search {
        lesson,
        learner,
        nodes: 0,
        budget,
    };
    for depth in 1..=lesson.limit {
        match search.line(game.as_ref(), &Progress::default(), depth) {
            Ok(Some(line)) => return Ok(Some(line)),
            Ok(None) => {}
            Err(()) => {
                return Err(Error::illegal(format!(
                    "{}: no solution within {budget} positions",
                    lesson.id
                )))
            }
        }
    }
    Ok(None)
}
