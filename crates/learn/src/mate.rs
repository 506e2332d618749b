//! Forced wins in a few actions: the search behind the `mate2` and `mate3`
//! puzzles (Dragonchess mates in 2 and 3, Phylde surrounds in 2 and 3).
//!
//! A win "within `k`" counts the solver's actions. Between two of them the
//! other seats may play anything legal: every defence must lose. In a game
//! whose turns hold several actions (Phylde: up to five), the win must come
//! within the solver's current turn: a defender's whole turn there is
//! millions of action sequences, out of a generator's reach, so Phylde's
//! 2 and 3 are wins built over two or three actions of one turn (a surround,
//! or the turn's `end` when it leaves the enemy without a move).

use crate::replay::play;
use std::collections::HashSet;
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
    let line = if solver.within_turn {
        within_turn_line(&mut solver, game, n)?
    } else if solver.wins(game, n - 1)? {
        None
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
/// actions that wins ends in one position, and none wins sooner; the line
/// is one of them.
///
/// One walk over the turn's states, each expanded once: the same actions in
/// another order reach the same state (the game's hash covers the turn in
/// progress: its kind, count and the pieces that acted), so a three-action
/// turn of twenty soldiers is some 250,000 states instead of 7 million
/// orders.
fn within_turn_line(
    solver: &mut Solver,
    game: &dyn AnyGame,
    k: u32,
) -> Result<Option<Vec<String>>, OutOfBudget> {
    let mut expanded = HashSet::new();
    let mut end: Option<(String, Vec<String>)> = None;
    let mut stack = vec![(game.clone_box(), Vec::<String>::new())];
    while let Some((g, line)) = stack.pop() {
        for a in g.legal_actions() {
            let Some((next, played)) = solver.step(g.as_ref(), &a)? else {
                continue;
            };
            let mut l = line.clone();
            l.push(played.text);
            let depth = l.len() as u32;
            match next.outcome() {
                Some(Outcome::Win(p)) if p == solver.mover => {
                    if depth < k {
                        return Ok(None);
                    }
                    let pos = next.position();
                    match &end {
                        Some((e, _)) if *e != pos => return Ok(None),
                        Some(_) => {}
                        None => end = Some((pos, l)),
                    }
                }
                Some(_) => {}
                None => {
                    if depth < k
                        && next.turn() == Turn::Player(solver.mover)
                        && expanded.insert(next.hash())
                    {
                        stack.push((next, l));
                    }
                }
            }
        }
    }
    Ok(end.map(|(_, l)| l))
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

    /// Every winning sequence of at most `k` actions within the turn, in
    /// every order, none skipped: the shortest one's length and the
    /// distinct positions the wins of that length end in.
    fn every_order(game: &dyn AnyGame, k: u32) -> (u32, HashSet<String>) {
        let Turn::Player(mover) = game.turn() else {
            return (0, HashSet::new());
        };
        let mut best = (u32::MAX, HashSet::new());
        let mut walk = vec![(game.clone_box(), 0)];
        while let Some((g, depth)) = walk.pop() {
            for a in g.legal_actions() {
                let mut next = g.clone_box();
                next.play_text(&a).unwrap();
                match next.outcome() {
                    Some(Outcome::Win(p)) if p == mover => {
                        let d = depth + 1;
                        if d < best.0 {
                            best = (d, HashSet::new());
                        }
                        if d == best.0 {
                            best.1.insert(next.position());
                        }
                    }
                    Some(_) => {}
                    None if depth + 1 < k && next.turn() == Turn::Player(mover) => {
                        walk.push((next, depth + 1))
                    }
                    None => {}
                }
            }
        }
        best
    }

    /// The one walk over the turn's states gives the verdict of trying
    /// every order of actions, on each stored Phylde surround in 2 or 3
    /// and on the position after its first action (a surround in one
    /// fewer), asked for 1, 2 and 3 actions.
    #[test]
    fn a_surround_within_the_turn_is_judged_as_by_every_order() {
        let reg = tabula_games::registry();
        let puzzles = &crate::data::library().puzzles["phylde"];
        let mut checked = 0;
        for p in puzzles
            .iter()
            .filter(|p| p.nodes.is_some_and(|n| n < 20_000))
        {
            let start = p.start(&reg).unwrap();
            let mut after = start.clone_box();
            after.play_text(&p.line[0]).unwrap();
            for game in [start.as_ref(), after.as_ref()] {
                for k in 1..=3 {
                    let (shortest, ends) = every_order(game, k);
                    let expected = shortest == k && ends.len() == 1;
                    let found = unique_line(game, k, 10_000_000).unwrap();
                    assert_eq!(found.is_some(), expected, "{} in {k}", p.id);
                    if let Some((line, _)) = found {
                        let mut end = game.clone_box();
                        for a in &line {
                            end.play_text(a).unwrap();
                        }
                        assert!(ends.contains(&end.position()), "{} in {k}", p.id);
                    }
                }
            }
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} short surrounds stored");
    }

    /// A stored surround in three is found as its line, and no surround
    /// in two is there.
    #[test]
    fn a_phylde_surround_in_three_is_its_line_and_none_in_two() {
        let reg = tabula_games::registry();
        let puzzles = &crate::data::library().puzzles["phylde"];
        let p = puzzles.iter().find(|p| p.theme == "mate3").unwrap();
        let game = p.start(&reg).unwrap();
        let (line, _) = unique_line(game.as_ref(), 3, 10_000_000).unwrap().unwrap();
        assert_eq!(line, p.line);
        assert_eq!(unique_line(game.as_ref(), 2, 10_000_000).unwrap(), None);
    }
}
