//! Forced wins in a few actions: the search behind the `mate2` and `mate3`
//! puzzles (Dragonchess mates in 2 and 3, Phylde surrounds in 2 and 3).
//!
//! A win "within `k`" counts the solver's actions. Between two of them the
//! other seats may play anything legal: every defence must lose. In a game
//! whose turns hold several actions (Phylde: up to five), the win must come
//! within the solver's current turn: a defender's whole turn there is
//! millions of action sequences, out of a generator's reach, so Phylde's
//! 2 and 3 are surrounds built over two or three actions of one turn.

use crate::replay::play;
use tabula_core::{AnyGame, Outcome, Played, Player, Turn};

/// The search ran out of its node budget: no verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// A bounded forced-win search for `mover`.
pub struct Solver {
    pub mover: Player,
    /// Positions visited so far (one per action played).
    pub nodes: u64,
    pub budget: u64,
    /// Wins must come before the turn passes (games of several actions a turn).
    within_turn: bool,
    /// Only these first actions of the solver count at inner steps (a
    /// cheap pre-search: checks and captures); `None`: every action.
    filter: Option<fn(&Played) -> bool>,
    /// The defence that refuted the last attacker action: tried first.
    killer: Option<String>,
}

type Found = Result<bool, OutOfBudget>;
/// The position after an action, and what the action did.
type Next = Option<(Box<dyn AnyGame>, Played)>;
/// A line of actions and the positions its proof visited.
pub type Proof = (Vec<String>, u64);

impl Solver {
    pub fn new(game: &dyn AnyGame, mover: Player, budget: u64) -> Solver {
        Solver {
            mover,
            nodes: 0,
            budget,
            within_turn: game.game_type().multi_action_turns,
            filter: None,
            killer: None,
        }
    }

    /// A cheaper search that tries only forcing actions (check, capture,
    /// a win) of the solver before the last: it may miss a quiet win, never
    /// invents one; the generator asks it first.
    pub fn forcing_only(mut self) -> Solver {
        self.filter = Some(|p| p.facts.check || p.facts.capture || p.facts.mate);
        self
    }

    fn step(&mut self, game: &dyn AnyGame, action: &str) -> Result<Next, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(OutOfBudget);
        }
        let mut next = game.clone_box();
        Ok(next.play_text(action).ok().map(|p| (next, p)))
    }

    /// Whether the solver, to act in `game`, wins within `k` actions.
    pub fn wins(&mut self, game: &dyn AnyGame, k: u32) -> Found {
        if k == 0 {
            return Ok(false);
        }
        for a in game.legal_actions() {
            if self.forces(game, &a, k)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the solver's action `action` in `game` starts a win within
    /// `k` actions (itself included) against every defence.
    pub fn forces(&mut self, game: &dyn AnyGame, action: &str, k: u32) -> Found {
        let Some((next, played)) = self.step(game, action)? else {
            return Ok(false);
        };
        match next.outcome() {
            Some(Outcome::Win(p)) => return Ok(p == self.mover),
            Some(_) => return Ok(false),
            None => {}
        }
        if k <= 1 || self.filter.is_some_and(|f| !f(&played)) {
            return Ok(false);
        }
        match next.turn() {
            Turn::Player(p) if p == self.mover => self.wins(next.as_ref(), k - 1),
            Turn::Player(_) if !self.within_turn => self.every_defence_loses(next.as_ref(), k - 1),
            _ => Ok(false),
        }
    }

    /// Whether every action of the defender to act in `game` loses within
    /// `k` more actions of the solver.
    pub fn every_defence_loses(&mut self, game: &dyn AnyGame, k: u32) -> Found {
        let mut defences = game.legal_actions();
        if let Some(at) = self
            .killer
            .as_ref()
            .and_then(|k| defences.iter().position(|d| d == k))
        {
            defences.swap(0, at);
        }
        for d in defences {
            if !self.defence_loses(game, &d, k)? {
                self.killer = Some(d);
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether the defence `action` in `game` loses within `k` more solver actions.
    pub fn defence_loses(&mut self, game: &dyn AnyGame, action: &str, k: u32) -> Found {
        let Some((next, _)) = self.step(game, action)? else {
            return Ok(true);
        };
        match next.outcome() {
            Some(Outcome::Win(p)) if p == self.mover => return Ok(true),
            Some(_) => return Ok(false),
            None => {}
        }
        match next.turn() {
            Turn::Player(p) if p == self.mover => self.wins(next.as_ref(), k),
            Turn::Player(_) => self.every_defence_loses(next.as_ref(), k),
            _ => Ok(false),
        }
    }

    /// The solver's actions in `game` that win within `k`.
    pub fn winning_firsts(
        &mut self,
        game: &dyn AnyGame,
        k: u32,
    ) -> Result<Vec<String>, OutOfBudget> {
        let mut out = Vec::new();
        for a in game.legal_actions() {
            if self.forces(game, &a, k)? {
                out.push(a);
            }
        }
        Ok(out)
    }
}

/// A forced win in exactly `n` solver actions with one answer at each
/// step: the line (solver actions and the defences between them), or
/// `None` when there is none, it is shorter, or some step has two answers.
///
/// One answer: in a game of one action a turn, exactly one action wins
/// within what is left; in one of several (the win within the turn), every
/// winning sequence ends in the same position (the same actions in another
/// order are the same answer, as the puzzle check accepts them). The
/// defence the line follows holds out longest (no faster loss), the first
/// such one in the engine's order whose continuation has one answer.
pub fn unique_line(game: &dyn AnyGame, n: u32, budget: u64) -> Result<Option<Proof>, OutOfBudget> {
    let Turn::Player(mover) = game.turn() else {
        return Ok(None);
    };
    let mut solver = Solver::new(game, mover, budget);
    if solver.wins(game, n - 1)? {
        return Ok(None);
    }
    let line = if solver.within_turn {
        within_turn_line(&mut solver, game, n)?
    } else {
        line_from(&mut solver, game, n)?
    };
    Ok(line.map(|l| (l, solver.nodes)))
}

/// [`unique_line`] for a game of one action a turn, the solver to act.
fn line_from(
    solver: &mut Solver,
    game: &dyn AnyGame,
    k: u32,
) -> Result<Option<Vec<String>>, OutOfBudget> {
    let firsts = solver.winning_firsts(game, k)?;
    let [first] = firsts.as_slice() else {
        return Ok(None);
    };
    let mut next = game.clone_box();
    let first = play(next.as_mut(), first).map_err(|_| OutOfBudget)?.action;
    if next.outcome().is_some() {
        return Ok(Some(vec![first]));
    }
    for d in next.legal_actions() {
        let mut after = next.clone_box();
        let Ok(step) = play(after.as_mut(), &d) else {
            continue;
        };
        // The longest defence: no win for the solver sooner than k - 1.
        if after.outcome().is_some()
            || after.turn() != Turn::Player(solver.mover)
            || solver.wins(after.as_ref(), k - 2)?
        {
            continue;
        }
        if let Some(rest) = line_from(solver, after.as_ref(), k - 1)? {
            let mut line = vec![first, step.action];
            line.extend(rest);
            return Ok(Some(line));
        }
    }
    Ok(None)
}

/// [`unique_line`] within the solver's turn: every sequence of at most `k`
/// actions that wins ends in one position; the line is one of them.
fn within_turn_line(
    solver: &mut Solver,
    game: &dyn AnyGame,
    k: u32,
) -> Result<Option<Vec<String>>, OutOfBudget> {
    let mut ends: Vec<(String, Vec<String>)> = Vec::new();
    let mut stack = vec![(game.clone_box(), Vec::<String>::new())];
    while let Some((g, line)) = stack.pop() {
        for a in g.legal_actions() {
            let Some((next, played)) = solver.step(g.as_ref(), &a)? else {
                continue;
            };
            let mut l = line.clone();
            l.push(played.text);
            match next.outcome() {
                Some(Outcome::Win(p)) if p == solver.mover => {
                    let pos = next.position();
                    if !ends.iter().any(|(e, _)| *e == pos) {
                        if !ends.is_empty() {
                            return Ok(None);
                        }
                        ends.push((pos, l));
                    }
                }
                Some(_) => {}
                None => {
                    if (l.len() as u32) < k && next.turn() == Turn::Player(solver.mover) {
                        stack.push((next, l));
                    }
                }
            }
        }
    }
    Ok(ends.pop().map(|(_, l)| l))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stored mate in one (`dc-0001`): its one mate is found as a line
    /// of one, and it is no mate in two (there is a shorter one).
    #[test]
    fn a_mate_in_one_is_a_line_of_one_and_no_mate_in_two() {
        let reg = tabula_games::registry();
        let p = &crate::data::library().puzzles["dragonchess"][0];
        let game = p.start(&reg).unwrap();
        let (line, nodes) = unique_line(game.as_ref(), 1, 100_000).unwrap().unwrap();
        assert_eq!(line, p.line);
        assert!(nodes > 0);
        assert_eq!(unique_line(game.as_ref(), 2, 1_000_000).unwrap(), None);
        // Out of budget is no verdict, not a "no".
        assert_eq!(unique_line(game.as_ref(), 2, 10), Err(OutOfBudget));
    }

    /// The same in Phylde, whose wins come within the turn.
    #[test]
    fn a_phylde_surround_in_one_is_no_surround_in_two() {
        let reg = tabula_games::registry();
        let p = &crate::data::library().puzzles["phylde"][0];
        let game = p.start(&reg).unwrap();
        let (line, _) = unique_line(game.as_ref(), 1, 1_000_000).unwrap().unwrap();
        assert_eq!(line, p.line);
        assert_eq!(unique_line(game.as_ref(), 2, 1_000_000).unwrap(), None);
    }
}
