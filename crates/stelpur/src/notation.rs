//! Action text and roll records (spec §7).
//!
//! - a roll (chance outcome): `6-1`, high die first;
//! - a die-use: `6:6-12`, or `6:9x13` when it captures (the die is part of the
//!   id: with bumps `1:1-7` and `6:1-7` are different actions);
//! - `pass` under `forced_play=free`;
//! - a roll record: `r=6-1: 6-7, 7x13`, or `r=3-2: -` when nothing moved.

use crate::board::Cell;
use crate::dice::Roll;
use crate::movegen::Use;
use crate::state::{Action, Stelpur};
use std::fmt;
use tabula_core::{Error, Turn};

impl Stelpur {
    /// Whether `u` lands on an enemy pawn here (a bump never does).
    pub fn captures(&self, u: Use) -> bool {
        self.pawns[1 - self.mover()] & u.to.bit() != 0
    }

    pub fn action_string(&self, action: Action) -> String {
        match action {
            Action::Roll(r) => r.to_string(),
            Action::Pass => "pass".into(),
            Action::Use(u) => format!("{}:{}", u.die, self.step(u)),
        }
    }

    /// The use as a record step (`f-t` or `fxt`).
    pub fn step(&self, u: Use) -> Step {
        Step {
            from: u.from,
            to: u.to,
            capture: self.captures(u),
        }
    }

    /// Read an action: a roll at a chance node; `d:f-t`, `d:fxt`, `f-t` (when
    /// only one die fits) or `pass` for the player to move.
    pub fn parse_action_text(&self, text: &str) -> Result<Action, Error> {
        let t = text.trim();
        if t.is_empty() {
            return Err(Error::empty_action());
        }
        match self.turn() {
            Turn::Over => Err(Error::game_over(t)),
            Turn::Chance => parse_roll(t).map(Action::Roll).ok_or_else(|| {
                Error::notation(format!("`{t}`: expected a roll of two dice like `6-1`"))
                    .because("unreadable", [("action", t.into())])
            }),
            Turn::Player(_) => self.parse_player_action(t),
        }
    }

    fn parse_player_action(&self, t: &str) -> Result<Action, Error> {
        let mut legal = Vec::new();
        self.legal_actions_into(&mut legal);
        if t.eq_ignore_ascii_case("pass") {
            return legal
                .contains(&Action::Pass)
                .then_some(Action::Pass)
                .ok_or_else(|| Error::not_legal("pass"));
        }
        let (die, step_text) = match t.split_once(':') {
            Some((d, s)) => (Some(parse_num(d).ok_or_else(|| shape(t))?), s),
            None => (None, t),
        };
        let step = Step::parse(step_text).ok_or_else(|| shape(t))?;
        let matches: Vec<Action> = legal
            .into_iter()
            .filter(|a| match a {
                Action::Use(u) => {
                    u.from == step.from && u.to == step.to && die.is_none_or(|d| d == u.die)
                }
                _ => false,
            })
            .collect();
        match matches.as_slice() {
            [a] => Ok(*a),
            [] => Err(Error::not_legal(t)),
            several => {
                let ids: Vec<String> = several.iter().map(|&a| self.action_string(a)).collect();
                Err(Error::notation(format!(
                    "`{t}` is ambiguous: write the die, e.g. {}",
                    ids.join(" or ")
                ))
                .because(
                    "which_die",
                    [("action", t.into()), ("choices", ids.join(", "))],
                ))
            }
        }
    }

    /// Play one whole roll record (`r=6-1: 6-7, 7x13`) from a chance node.
    /// The record must be complete: when it ends, the roll must be over
    /// (under `forced_play=free` a short record passes). When a step fits
    /// several dice (bumps), the first die that lets the rest of the record
    /// be played is chosen. On error nothing changes.
    pub fn apply_roll_record(&mut self, rec: &RollRecord) -> Result<(), Error> {
        if self.turn() != Turn::Chance {
            return Err(Error::illegal(format!(
                "`{rec}`: a roll record starts when the dice are to be rolled"
            )));
        }
        let mut g = self.clone();
        g.apply(Action::Roll(rec.roll));
        let mover = self.to_move;
        let done = g
            .play_steps(mover, &rec.uses)
            .ok_or_else(|| Error::illegal(format!("`{rec}` cannot be played here")))?;
        *self = done;
        Ok(())
    }

    /// Play `steps` by the player `mover` (backtracking over dice); the roll
    /// must be over at the end.
    fn play_steps(&self, mover: u8, steps: &[Step]) -> Option<Stelpur> {
        let in_roll = self.roll.is_some() && self.to_move == mover;
        let Some((first, rest)) = steps.split_first() else {
            if !in_roll {
                return Some(self.clone());
            }
            // A short record ends with a pass: legal only under free play.
            let mut legal = Vec::new();
            self.legal_actions_into(&mut legal);
            if !legal.contains(&Action::Pass) {
                return None;
            }
            let mut g = self.clone();
            g.apply(Action::Pass);
            return Some(g);
        };
        if !in_roll {
            return None;
        }
        let mut legal = Vec::new();
        self.legal_actions_into(&mut legal);
        legal.into_iter().find_map(|a| match a {
            Action::Use(u) if self.step(u) == *first => {
                let mut g = self.clone();
                g.apply(a);
                g.play_steps(mover, rest)
            }
            _ => None,
        })
    }
}

fn shape(t: &str) -> Error {
    Error::notation(format!(
        "`{t}`: expected a die-use like `6:6-12`, `6:9x13` or `6-12`, or `pass`"
    ))
    .because("unreadable", [("action", t.into())])
}

fn parse_num(t: &str) -> Option<u8> {
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `a-b` (either order) with both dice in 1..=6.
pub fn parse_roll(t: &str) -> Option<Roll> {
    let (a, b) = t.trim().split_once('-')?;
    Roll::new(parse_num(a.trim())?, parse_num(b.trim())?)
}

/// One die-use in a record: `f-t`, or `fxt` when it captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub from: Cell,
    pub to: Cell,
    pub capture: bool,
}

impl Step {
    /// Read `f-t` or `fxt` (the capture mark is not checked here).
    pub fn parse(t: &str) -> Option<Step> {
        let t = t.trim();
        let i = t.find(['-', 'x', 'X'])?;
        let cell = |s: &str| parse_num(s).and_then(Cell::from_number);
        Some(Step {
            from: cell(&t[..i])?,
            to: cell(&t[i + 1..])?,
            capture: t.as_bytes()[i] != b'-',
        })
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{sep}{}", self.from, self.to)
    }
}

/// One roll and its die-uses in the order played: `r=6-1: 6-7, 7x13`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollRecord {
    pub roll: Roll,
    pub uses: Vec<Step>,
}

impl RollRecord {
    /// Read `r=A-B: u1, u2, ...` or `r=A-B: -`.
    pub fn parse(text: &str) -> Result<RollRecord, Error> {
        let t = text.trim();
        let bad = || {
            Error::notation(format!(
                "`{t}`: expected a roll record like `r=6-1: 6-7, 7x13` or `r=3-2: -`"
            ))
        };
        let body = t.strip_prefix("r=").ok_or_else(bad)?;
        let (roll, uses) = body.split_once(':').ok_or_else(bad)?;
        let roll = parse_roll(roll).ok_or_else(bad)?;
        let uses = match uses.trim() {
            "-" => Vec::new(),
            list => list
                .split(',')
                .map(|s| Step::parse(s).ok_or_else(bad))
                .collect::<Result<_, _>>()?,
        };
        Ok(RollRecord { roll, uses })
    }
}

impl fmt::Display for RollRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r={}: ", self.roll)?;
        if self.uses.is_empty() {
            return write!(f, "-");
        }
        let parts: Vec<String> = self.uses.iter().map(Step::to_string).collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// Group a game's actions, played from `start`, into roll records (one per
/// roll, extra rolls included); a roll still in progress is left out.
pub fn roll_records(start: &Stelpur, actions: &[Action]) -> Vec<RollRecord> {
    let mut g = start.clone();
    let mut out = Vec::new();
    let mut open: Option<RollRecord> = None;
    for &a in actions {
        match a {
            Action::Roll(roll) => {
                out.extend(open.take());
                open = Some(RollRecord {
                    roll,
                    uses: Vec::new(),
                });
            }
            Action::Use(u) => {
                if let Some(rec) = open.as_mut() {
                    rec.uses.push(g.step(u));
                }
            }
            Action::Pass => {}
        }
        g.apply(a);
        if g.roll.is_none() {
            out.extend(open.take());
        }
    }
    out
}
