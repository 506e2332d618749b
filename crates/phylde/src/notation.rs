//! Action tokens and turn records (spec §9).
//!
//! ```text
//! e5-e6    step to an empty square      i1+-i2+   King step
//! e5xe6    step capture                 end       end the turn early
//! c3*c5    archer shot (stays on c3)
//! S e6-e7, g6-g7, i6-i7                 turn record (`end` implicit)
//! ```

use crate::action::Action;
use crate::geometry::{Pt, Sq};
use crate::pieces::{Class, CLASS};
use crate::state::Phylde;
use tabula_core::Error;

impl Phylde {
    /// The token of a legal action in this position.
    pub fn action_token(&self, action: Action) -> String {
        match action {
            Action::Step { from, to } => {
                let sep = match CLASS[self.side.index()][self.board[to.index()] as usize] {
                    Class::Enemy => 'x',
                    _ => '-',
                };
                format!("{from}{sep}{to}")
            }
            Action::Shot { from, target } => format!("{from}*{target}"),
            Action::King { from, to } => format!("{from}-{to}"),
            Action::EndTurn => "end".to_string(),
        }
    }

    /// Read one action token; the result is legal here. `-` and `x` must
    /// match the board.
    pub fn parse_token(&self, text: &str) -> Result<Action, Error> {
        let action = read_token(text)?;
        let shown = text.trim();
        if self.result.is_some() {
            return Err(Error::game_over(shown));
        }
        let mut legal = Vec::new();
        self.generate(&mut legal);
        if !legal.contains(&action) {
            return Err(Error::not_legal(shown));
        }
        let wanted = self.action_token(action);
        if !wanted.eq_ignore_ascii_case(shown) {
            return Err(Error::illegal(format!(
                "`{shown}` does not match the board: write `{wanted}`"
            ))
            .because(
                "write_instead",
                [("action", shown.into()), ("wanted", wanted)],
            ));
        }
        Ok(action)
    }
}

/// The syntax of a token, before any legality check.
fn read_token(text: &str) -> Result<Action, Error> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        Error::notation(format!(
            "`{}`: expected e.g. `e5-e6`, `e5xe6`, `c3*c5`, `i1+-i2+` or `end`",
            text.trim()
        ))
        .because("unreadable", [("action", text.trim().into())])
    };
    if t == "end" {
        return Ok(Action::EndTurn);
    }
    let i = t.find(['-', 'x', '*']).ok_or_else(bad)?;
    let (left, sep, right) = (&t[..i], &t[i..i + 1], &t[i + 1..]);
    if left.ends_with('+') {
        return match (sep, Pt::parse(left), Pt::parse(right)) {
            ("-", Some(from), Some(to)) => Ok(Action::King { from, to }),
            _ => Err(bad()),
        };
    }
    let (from, to) = Sq::parse(left).zip(Sq::parse(right)).ok_or_else(bad)?;
    Ok(match sep {
        "*" => Action::Shot { from, target: to },
        _ => Action::Step { from, to },
    })
}

/// The record of one whole turn played from `start` (a turn boundary):
/// `T act1, act2, ...`, without `end`.
pub fn format_turn(start: &Phylde, actions: &[Action]) -> Result<String, Error> {
    if start.turn.count != 0 {
        return Err(Error::illegal("a turn record starts at a turn boundary"));
    }
    let mut g = start.clone();
    let mut tokens = Vec::new();
    for (i, &a) in actions.iter().enumerate() {
        if a == Action::EndTurn && i + 1 == actions.len() && i > 0 {
            break;
        }
        if g.turn.count == 0 && i > 0 {
            return Err(Error::illegal("these actions span more than one turn"));
        }
        let token = g.action_token(a);
        g.parse_token(&token)?;
        tokens.push(token);
        g.play(a);
    }
    let first = *actions
        .first()
        .ok_or_else(|| Error::illegal("a turn has at least one action"))?;
    Ok(format!(
        "{} {}",
        start_kind(start, first),
        tokens.join(", ")
    ))
}

/// Kind letter of the piece making `first` in `start`.
fn start_kind(start: &Phylde, first: Action) -> char {
    start.action_kind(first).map_or('?', |k| k.letter())
}

/// Read a turn record played from `start` (a turn boundary). Returns the
/// whole action stream of the turn, with `end` when the turn needs it.
pub fn parse_turn(start: &Phylde, text: &str) -> Result<Vec<Action>, Error> {
    let bad = |m: &str| Error::notation(format!("turn record `{}`: {m}", text.trim()));
    if start.turn.count != 0 {
        return Err(bad("a turn record starts at a turn boundary"));
    }
    let (body, end_written) = match text.split_once(';') {
        None => (text, false),
        Some((b, e)) if e.trim().eq_ignore_ascii_case("end") => (b, true),
        Some(_) => return Err(bad("only `; end` may follow the actions")),
    };
    let (letter, rest) = body
        .trim()
        .split_once(char::is_whitespace)
        .ok_or_else(|| bad("expected `T act1, act2, ...`"))?;
    let mut g = start.clone();
    let mut actions = Vec::new();
    for token in rest.split(',').map(str::trim) {
        if g.result.is_some() || (g.turn.count == 0 && !actions.is_empty()) {
            return Err(bad(&format!("`{token}` comes after the turn is over")));
        }
        let a = g.parse_token(token)?;
        if a == Action::EndTurn {
            return Err(bad("write `end` as `; end` after the actions"));
        }
        if actions.is_empty() && !letter.eq_ignore_ascii_case(&start_kind(&g, a).to_string()) {
            return Err(bad(&format!(
                "the first action moves a `{}`, not `{letter}`",
                start_kind(&g, a)
            )));
        }
        g.play(a);
        actions.push(a);
    }
    let open = g.result.is_none() && g.turn.count != 0;
    if open {
        g.play(Action::EndTurn);
        actions.push(Action::EndTurn);
    } else if end_written {
        return Err(bad("`end` is only written when the turn could go on"));
    }
    Ok(actions)
}

/// Split an action stream played from `start` (a turn boundary) into turn
/// records. A turn still open at the end of the stream is recorded as is.
pub fn turn_records(start: &Phylde, stream: &[Action]) -> Result<Vec<String>, Error> {
    let mut g = start.clone();
    let mut records = Vec::new();
    let mut turn_start = g.clone();
    let mut current = Vec::new();
    for &a in stream {
        let token = g.action_token(a);
        g.parse_token(&token)?;
        g.play(a);
        current.push(a);
        if g.turn.count == 0 || g.result.is_some() {
            records.push(format_turn(&turn_start, &current)?);
            current.clear();
            turn_start = g.clone();
        }
    }
    if !current.is_empty() {
        records.push(format_turn(&turn_start, &current)?);
    }
    Ok(records)
}
