//! The puzzle generator (`tabula puzzles generate`): self-play games, and
//! in each position the one test of its game's theme that finds a clearly
//! best answer, with its checks:
//!
//! - `mate1` (Dragonchess, Phylde): exactly one action wins at once
//!   (checkmate, a surround), and in Phylde no other first action wins with
//!   the next action of the same turn either;
//! - `mate2`, `mate3` (Dragonchess, Phylde, asked with `--theme`): a forced
//!   win in exactly 2 or 3 of the solver's actions with one answer at each
//!   step ([`crate::mate::unique_line`]; Phylde's within one turn), proved
//!   only where a cheap pre-search finds a win, and one a game;
//! - `chain` (Gildervaik warrior): captures are compulsory; one set of
//!   pawns, two or more, is taken by the longest capture, strictly more
//!   than any other (its landings on other cells are accepted too);
//! - `race` (Gildervaik conquest): exactly one action wins at once (the
//!   last pawn into the zone);
//! - `roll` (Ad Elta Stelpur): of every way to use the roll (distinct end
//!   positions), the best by the evaluation's win chance beats the second
//!   by at least [`ROLL_MARGIN`]; the dice are in the position, so the
//!   puzzle is the decision, not the luck.

use crate::mate::{unique_line, Solver};
use crate::puzzle::Puzzle;
use crate::replay::play;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::{HashMap, HashSet};
use std::time::Instant;
use tabula_ai::Limits;
use tabula_core::{AnyGame, Erased, Error, Game, Outcome, Player, Registry, Turn};

/// The least win-chance gap between the best use of a roll and the next.
pub const ROLL_MARGIN: f64 = 0.08;
/// Positions the proof of one mate in 2 or 3 may visit by default; a
/// stored puzzle is checked within its own proof's count (`nodes`), the
/// search being deterministic.
pub const MATE_NODES: u64 = 400_000;
/// The share of the proof's budget the generator's cheap pre-search
/// (forcing actions only) may visit before the full proof is tried.
const PRE_SHARE: u64 = 20;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game spec self-play uses (e.g. `gildervaik(mode=warrior)`).
    pub spec: String,
    /// Stop after this many puzzles.
    pub count: usize,
    /// Stop after this many seconds, whatever the count.
    pub seconds: f64,
    pub seed: u64,
    /// The agent of the self-play games (`greedy`, `level2`, ...).
    pub agent: String,
    /// The chance in each position of a random action instead of the
    /// agent's, so that games differ.
    pub noise: f64,
    /// Another theme than the game's own ([`Theme::of`]): `mate2`, `mate3`.
    pub theme: Option<Theme>,
    /// Positions the proof of one mate in 2 or 3 may visit.
    pub proof_nodes: u64,
}

/// What a run produced, with its numbers.
#[derive(Debug, Default)]
pub struct Report {
    pub puzzles: Vec<Puzzle>,
    pub games: usize,
    pub positions: usize,
    pub seconds: f64,
}

/// Which test a game's positions get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Mate1,
    Mate2,
    Mate3,
    Chain,
    Race,
    Roll,
}

impl Theme {
    pub fn name(self) -> &'static str {
        match self {
            Theme::Mate1 => "mate1",
            Theme::Mate2 => "mate2",
            Theme::Mate3 => "mate3",
            Theme::Chain => "chain",
            Theme::Race => "race",
            Theme::Roll => "roll",
        }
    }

    /// A theme by its name.
    pub fn parse(name: &str) -> Option<Theme> {
        [
            Theme::Mate1,
            Theme::Mate2,
            Theme::Mate3,
            Theme::Chain,
            Theme::Race,
            Theme::Roll,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }

    /// Whether positions of `game` can have puzzles of this theme: its own,
    /// or a longer mate where mates in one are its own.
    pub fn fits(self, game: &dyn AnyGame) -> bool {
        let own = Theme::of(game);
        self == own || (own == Theme::Mate1 && matches!(self, Theme::Mate2 | Theme::Mate3))
    }

    /// The theme of a game spec: by the game's declared kind and facts.
    pub fn of(game: &dyn AnyGame) -> Theme {
        let kind = game.game_type();
        if kind.chance {
            Theme::Roll
        } else if kind.players == 3 && game.spec().contains("mode=warrior") {
            Theme::Chain
        } else if kind.players == 3 {
            Theme::Race
        } else {
            Theme::Mate1
        }
    }

    /// The solver's actions a mate theme asks the win in; `None` for the
    /// other themes.
    fn mate_depth(self) -> Option<u32> {
        match self {
            Theme::Mate2 => Some(2),
            Theme::Mate3 => Some(3),
            _ => None,
        }
    }

    /// Whether a game gives at most one puzzle of this theme: a forced win
    /// found once is found again in the next positions of the same game
    /// (the same line, a move later or with a move to spare).
    fn one_per_game(self) -> bool {
        matches!(self, Theme::Mate2 | Theme::Mate3)
    }

    /// The rating a puzzle of this theme starts at, from its `depth`
    /// (captures of a chain, ways to use a roll).
    fn rating(self, depth: usize) -> f64 {
        let d = depth as f64;
        match self {
            Theme::Mate1 => 1300.0,
            Theme::Mate2 => 1600.0,
            Theme::Mate3 => 1900.0,
            Theme::Race => 1100.0,
            Theme::Chain => (900.0 + 150.0 * d).min(2000.0),
            Theme::Roll => (1000.0 + 25.0 * d).min(2000.0),
        }
    }
}

/// The actions of the player to move that win the game at once.
fn winning_actions(game: &dyn AnyGame, mover: Player) -> Vec<String> {
    game.legal_actions()
        .into_iter()
        .filter(|a| {
            let mut next = game.clone_box();
            next.apply_text(a).is_ok() && next.outcome() == Some(Outcome::Win(mover))
        })
        .collect()
}

/// Whether the mover of a Phylde position surrounds the enemy King within
/// `n` actions of its turn, each raising the pressure on it (the quad
/// squares given distinct attackers): Phylde's cheap pre-search, as the
/// forcing-only one is Dragonchess's. It may miss a surround prepared by a
/// quiet action, never invents one. `None` for other games.
fn phylde_pressing_win(game: &dyn AnyGame, n: u32) -> Option<bool> {
    let state = &game
        .as_any()
        .downcast_ref::<Erased<phylde::Phylde>>()?
        .state;
    Some(pressing_win(state, n))
}

fn pressing_win(g: &phylde::Phylde, n: u32) -> bool {
    let mover = g.side_to_move();
    let pressure = g.surround_pressure(mover.other());
    let mut actions = Vec::new();
    g.legal_actions(&mut actions);
    actions.into_iter().any(|a| {
        let mut next = g.clone();
        next.apply(a);
        match next.outcome() {
            Some(Outcome::Win(p)) => p == Player(mover.index() as u8),
            Some(_) => false,
            None => {
                n > 1
                    && next.side_to_move() == mover
                    && next.surround_pressure(mover.other()) > pressure
                    && pressing_win(&next, n - 1)
            }
        }
    })
}

/// The one action that wins at once, when exactly one does; with
/// `same_turn`, no other first action may win with the next action of the
/// same turn either.
fn only_win(game: &dyn AnyGame, mover: Player, same_turn: bool) -> Option<String> {
    let wins = winning_actions(game, mover);
    let [win] = wins.as_slice() else { return None };
    if same_turn {
        for a in game.legal_actions().iter().filter(|a| *a != win) {
            let mut next = game.clone_box();
            if next.apply_text(a).is_ok()
                && next.turn() == Turn::Player(mover)
                && !winning_actions(next.as_ref(), mover).is_empty()
            {
                return None;
            }
        }
    }
    Some(win.clone())
}

/// The cells of the other players' pawns in a Gildervaik position
/// (`A:e3,e5 B:f6 C:f7 / A`): what a capture takes away.
fn others_cells(position: &str, mover: &str) -> HashSet<String> {
    let board = position.split('/').next().unwrap_or("");
    board
        .split_whitespace()
        .filter_map(|part| part.split_once(':'))
        .filter(|(seat, _)| *seat != mover)
        .flat_map(|(seat, cells)| cells.split(',').map(move |c| format!("{seat}:{c}")))
        .collect()
}

/// The capture of the most pawns, when it takes two or more and strictly
/// more than every capture of other pawns: its text, the other actions
/// taking the same pawns (landing elsewhere), the count and the margin.
fn best_chain(game: &dyn AnyGame, mover: Player) -> Option<(String, Vec<String>, usize, usize)> {
    let name = game.player_name(mover);
    let before = others_cells(&game.position(), name);
    let mut by_taken: HashMap<Vec<String>, Vec<String>> = HashMap::new();
    for a in game.legal_actions() {
        let mut next = game.clone_box();
        let Ok(played) = next.play_text(&a) else {
            continue;
        };
        if !played.facts.capture {
            continue;
        }
        let after = others_cells(&next.position(), name);
        let mut taken: Vec<String> = before.difference(&after).cloned().collect();
        taken.sort();
        by_taken.entry(taken).or_default().push(played.text);
    }
    let mut groups: Vec<(Vec<String>, Vec<String>)> = by_taken.into_iter().collect();
    groups.sort_by_key(|(taken, _)| std::cmp::Reverse(taken.len()));
    let (taken, actions) = groups.first()?;
    let next = groups.get(1).map_or(0, |g| g.0.len());
    if taken.len() < 2 || taken.len() <= next {
        return None;
    }
    let mut actions = actions.clone();
    actions.sort();
    let first = actions.remove(0);
    Some((first, actions, taken.len(), taken.len() - next))
}

/// The mover's win chance after using a roll, at the next chance node (or
/// when the game ends). Only Ad Elta Stelpur has rolls.
fn roll_value(game: &dyn AnyGame, mover: Player) -> Option<f64> {
    if let Some(outcome) = game.outcome() {
        return Some(outcome.score(mover));
    }
    let stelpur = game.as_any().downcast_ref::<Erased<stelpur::Stelpur>>()?;
    let p = 1.0 / (1.0 + f64::from(-stelpur.state.eval_logit()).exp());
    Some(if stelpur.state.to_move() == mover {
        p
    } else {
        1.0 - p
    })
}

/// Every way to use the roll in front of `mover`: distinct end positions,
/// each with one line of actions reaching it.
fn roll_uses(game: &dyn AnyGame, mover: Player) -> HashMap<String, (Vec<String>, f64)> {
    let mut ends = HashMap::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(game.clone_box(), Vec::<String>::new())];
    while let Some((g, line)) = stack.pop() {
        if g.turn() != Turn::Player(mover) {
            if let Some(v) = roll_value(g.as_ref(), mover) {
                ends.entry(g.position()).or_insert((line, v));
            }
            continue;
        }
        for a in g.legal_actions() {
            let mut next = g.clone_box();
            let Ok(text) = next.apply_text(&a) else {
                continue;
            };
            if seen.insert(next.position()) && seen.len() < 50_000 {
                let mut l = line.clone();
                l.push(text);
                stack.push((next, l));
            }
        }
    }
    ends
}

/// The best use of the roll by win chance, when it beats the next by the
/// margin: its line, the number of distinct uses and the margin.
fn best_roll(game: &dyn AnyGame, mover: Player) -> Option<(Vec<String>, usize, f64)> {
    let uses = roll_uses(game, mover);
    let mut values: Vec<&(Vec<String>, f64)> = uses.values().collect();
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (best, second) = (values.first()?, values.get(1)?);
    let margin = best.1 - second.1;
    (margin >= ROLL_MARGIN && !best.0.is_empty()).then(|| (best.0.clone(), uses.len(), margin))
}

/// Whether a cheap pre-search finds the forced win a mate theme asks for,
/// so that the generator tries the proof (most positions have none):
/// Dragonchess's tries only forcing actions, Phylde's only actions that
/// each raise the pressure on the King. Either may miss a win, never
/// invents one; a stored puzzle is rechecked by the proof alone.
fn worth_proving(game: &dyn AnyGame, theme: Theme, budget: u64) -> bool {
    let Some(n) = theme.mate_depth() else {
        return true;
    };
    let Turn::Player(mover) = game.turn() else {
        return false;
    };
    if let Some(found) = phylde_pressing_win(game, n) {
        return found;
    }
    game.game_type().multi_action_turns
        || Solver::new(game, mover, budget / PRE_SHARE)
            .forcing_only()
            .wins(game, n)
            == Ok(true)
}

/// The puzzle in this position, if its theme finds one. `fresh_roll`: the
/// mover has not used any die of the roll yet.
pub fn find(game: &dyn AnyGame, theme: Theme, fresh_roll: bool) -> Option<Puzzle> {
    find_within(game, theme, fresh_roll, MATE_NODES)
}

/// [`find`], a mate's proof within `budget` positions.
pub fn find_within(
    game: &dyn AnyGame,
    theme: Theme,
    fresh_roll: bool,
    budget: u64,
) -> Option<Puzzle> {
    let Turn::Player(mover) = game.turn() else {
        return None;
    };
    let mut also = Vec::new();
    let mut nodes = None;
    let (line, depth, margin) = match theme {
        Theme::Mate2 | Theme::Mate3 => {
            let n = theme.mate_depth()?;
            let (line, proof) = unique_line(game, n, budget).ok()??;
            nodes = Some(proof);
            (line, n as usize, 1.0)
        }
        Theme::Mate1 => {
            let multi = game.game_type().multi_action_turns;
            (vec![only_win(game, mover, multi)?], 1, 1.0)
        }
        Theme::Race => (vec![only_win(game, mover, false)?], 1, 1.0),
        Theme::Chain => {
            let (a, others, n, m) = best_chain(game, mover)?;
            also = others;
            (vec![a], n, m as f64)
        }
        Theme::Roll => {
            if !fresh_roll {
                return None;
            }
            best_roll(game, mover)?
        }
    };
    Some(Puzzle {
        id: String::new(),
        spec: game.spec().to_string(),
        position: game.position(),
        line,
        also,
        theme: theme.name().to_string(),
        rating: theme.rating(depth),
        margin: (margin * 1000.0).round() / 1000.0,
        nodes,
    })
}

/// Check a stored puzzle against the engine: its line plays, and its
/// theme's test finds the same answer (same end position) in its position.
pub fn recheck(registry: &Registry, puzzle: &Puzzle) -> Result<(), String> {
    let game = puzzle
        .start(registry)
        .map_err(|e| format!("{}: {}", puzzle.id, e.message))?;
    let theme = Theme::parse(&puzzle.theme)
        .filter(|t| t.fits(game.as_ref()))
        .ok_or_else(|| format!("{}: no theme {} in this game", puzzle.id, puzzle.theme))?;
    let budget = puzzle.nodes.map_or(MATE_NODES, |n| n.max(MATE_NODES));
    let found = find_within(game.as_ref(), theme, true, budget)
        .ok_or_else(|| format!("{}: no clear answer in this position any more", puzzle.id))?;
    let end = |line: &[String]| -> Result<String, String> {
        let mut g = game.clone_box();
        for a in line {
            play(g.as_mut(), a).map_err(|e| format!("{}: `{a}`: {}", puzzle.id, e.message))?;
        }
        Ok(g.position())
    };
    let mut also = found.also.clone();
    also.push(found.line[0].clone());
    let mut file_also = puzzle.also.clone();
    file_also.push(puzzle.line[0].clone());
    also.sort();
    file_also.sort();
    if end(&found.line)? != end(&puzzle.line)? && also != file_also {
        return Err(format!(
            "{}: the engine's answer is {:?}, the file's {:?}",
            puzzle.id, found.line, puzzle.line
        ));
    }
    let run = puzzle
        .solver_actions(registry)
        .and_then(|actions| puzzle.check(registry, &actions))
        .map_err(|e| format!("{}: {}", puzzle.id, e.message))?;
    if run.status != crate::puzzle::PuzzleStatus::Solved {
        return Err(format!("{}: its own line does not solve it", puzzle.id));
    }
    Ok(())
}

/// What a run tells its caller as it goes: a long run (mates in three take
/// many minutes) shows progress and keeps each puzzle as soon as it is found.
pub enum Event<'a> {
    Found(&'a Puzzle),
    /// Every [`PROGRESS_EVERY`] seconds.
    Progress(&'a Report),
}

/// Seconds between two [`Event::Progress`].
const PROGRESS_EVERY: f64 = 5.0;

/// Self-play until `count` puzzles or the time is up. Each position is
/// tested once over the whole run, known by its hash (8 bytes: a run for
/// mates in three sees millions of positions).
pub fn generate(
    registry: &Registry,
    config: &Config,
    prefix: &str,
    mut tell: impl FnMut(Event<'_>) -> Result<(), Error>,
) -> Result<Report, Error> {
    let started = Instant::now();
    let mut next_progress = PROGRESS_EVERY;
    let mut report = Report::default();
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let mut seen = HashSet::new();
    let limits = Limits::default();
    'games: while report.puzzles.len() < config.count {
        let mut game = registry.create(&config.spec, None)?;
        let theme = config.theme.unwrap_or_else(|| Theme::of(game.as_ref()));
        if !theme.fits(game.as_ref()) {
            return Err(Error::illegal(format!(
                "no {} puzzles in {}",
                theme.name(),
                config.spec
            )));
        }
        let mut agents = Vec::new();
        for seat in 0..game.num_players() {
            let seed = config.seed ^ (report.games as u64 * 7 + seat as u64);
            agents.push(tabula_games::agent(game.as_ref(), &config.agent, seed)?);
        }
        report.games += 1;
        let mut fresh_roll = false;
        for _ in 0..game.max_game_actions() {
            let elapsed = started.elapsed().as_secs_f64();
            if elapsed > config.seconds {
                break 'games;
            }
            if elapsed >= next_progress {
                report.seconds = elapsed;
                tell(Event::Progress(&report))?;
                next_progress = elapsed + PROGRESS_EVERY;
            }
            match game.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let roll = game
                        .sample_chance(&mut rng)
                        .ok_or_else(|| Error::illegal("no roll"))?;
                    game.apply_text(&roll)?;
                    fresh_roll = true;
                }
                Turn::Player(p) => {
                    report.positions += 1;
                    if seen.insert(game.hash())
                        && worth_proving(game.as_ref(), theme, config.proof_nodes)
                    {
                        if let Some(mut puzzle) =
                            find_within(game.as_ref(), theme, fresh_roll, config.proof_nodes)
                        {
                            puzzle.id = format!("{prefix}-{:04}", report.puzzles.len() + 1);
                            tell(Event::Found(&puzzle))?;
                            report.puzzles.push(puzzle);
                            if report.puzzles.len() >= config.count {
                                break 'games;
                            }
                            if theme.one_per_game() {
                                continue 'games;
                            }
                        }
                    }
                    let action = if rng.gen_bool(config.noise.clamp(0.0, 1.0)) {
                        let legal = game.legal_actions();
                        legal[rng.gen_range(0..legal.len())].clone()
                    } else {
                        agents[p.index()].choose(game.as_ref(), &limits)?.action
                    };
                    game.apply_text(&action)?;
                    fresh_roll = false;
                }
            }
        }
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_double_capture_is_a_chain_puzzle_and_a_single_one_is_not() {
        let reg = tabula_games::registry();
        let spec = "gildervaik(mode=warrior)";
        let two = reg
            .create(spec, Some("A:e5,e3 B:f6,g8,j19 C:j1,j3 / A"))
            .unwrap();
        let found = find(two.as_ref(), Theme::Chain, false).expect("a chain");
        eprintln!("{found:?}");
        assert_eq!(found.theme, "chain");
        let one = reg
            .create(spec, Some("A:e5,e3 B:f6,j19 C:j1,j3 / A"))
            .unwrap();
        assert!(find(one.as_ref(), Theme::Chain, false).is_none());
    }

    /// Phylde's cheap pre-search finds the stored surrounds in three (the
    /// generator asked it first), and nothing at the start.
    #[test]
    fn the_pressing_search_finds_the_stored_surrounds_in_three() {
        let reg = tabula_games::registry();
        let stored: Vec<_> = crate::data::library().puzzles["phylde"]
            .iter()
            .filter(|p| p.theme == "mate3")
            .collect();
        assert!(!stored.is_empty());
        for p in stored {
            let game = p.start(&reg).unwrap();
            assert_eq!(
                phylde_pressing_win(game.as_ref(), 3),
                Some(true),
                "{}",
                p.id
            );
            assert_eq!(
                phylde_pressing_win(game.as_ref(), 2),
                Some(false),
                "{}",
                p.id
            );
        }
        let start = reg.create("phylde", None).unwrap();
        assert_eq!(phylde_pressing_win(start.as_ref(), 3), Some(false));
        let other = reg.create("dragonchess", None).unwrap();
        assert_eq!(phylde_pressing_win(other.as_ref(), 3), None);
    }
}
