//! The engine protocol's input lines, parsed into commands with no I/O and
//! no game knowledge: what a line means is checked here, whether it makes
//! sense in the current state is the session's business.

use std::collections::BTreeMap;

/// The longest thinking time a `go` may ask for: one hour, as `tabula hint`.
pub const MAX_MILLIS: u64 = 3_600_000;

/// Seats a `go` may give a clock to (the registry's limit on players).
pub const MAX_SEATS: usize = 8;

/// One input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi`: the handshake.
    Ugi,
    /// `isready`.
    IsReady,
    /// `setoption name NAME value VALUE`.
    SetOption {
        name: String,
        value: String,
    },
    /// `newgame SPEC` (`uginewgame SPEC` too).
    NewGame {
        spec: String,
    },
    /// `position SPEC startpos|POSITION [moves A B ...]`.
    Position {
        spec: String,
        /// `None` for `startpos`.
        position: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    Quit,
    Query(Query),
    /// `show`: the board as `info string` lines.
    Show,
}

/// What a `go` allows the search. Every field is optional; an empty `go`
/// thinks for the level's own time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub movetime: Option<u64>,
    /// Playouts (MCTS) or nodes (tree search): with no time given, the
    /// answer depends only on the position, the options and the seed.
    pub nodes: Option<u64>,
    /// Stop a tree search after this iteration (time to depth).
    pub depth: Option<u32>,
    /// Remaining clock per seat, milliseconds, keyed by 1-based seat.
    pub time: BTreeMap<usize, u64>,
    /// Increment per move per seat, milliseconds, keyed by 1-based seat.
    pub inc: BTreeMap<usize, u64>,
    pub movestogo: Option<u64>,
}

/// `query WHAT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `gameover`: `true` or `false`.
    GameOver,
    /// `turn`: the seat to act (1-based), `chance` or `over`.
    Turn,
    /// `pNturn` (UGI's `p1turn` for any seat): whether seat N acts.
    SeatTurn(usize),
    /// `result`: `none`, `win N` or `draw N,M`.
    Result,
    /// `legal`: the legal actions (the chance outcomes at a chance node).
    Legal,
    /// `chance`: the chance outcomes with their probabilities.
    Chance,
    /// `position`: the position string.
    Position,
    /// `seats`: the number of seats.
    Seats,
}

/// Parse one line (already trimmed of its line ending). `Ok(None)` for a
/// blank line, which is ignored.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!("`{word}` takes no arguments"))
        }
    };
    match word {
        "" => Ok(None),
        "ugi" => no_args(Command::Ugi),
        "isready" => no_args(Command::IsReady),
        "stop" => no_args(Command::Stop),
        "quit" => no_args(Command::Quit),
        "show" => no_args(Command::Show),
        "setoption" => parse_setoption(rest).map(Some),
        "newgame" | "uginewgame" => {
            let (spec, after) = split_spec(rest);
            if spec.is_empty() {
                return Err(format!(
                    "`{word}` needs a game spec, e.g. `{word} dragonchess`"
                ));
            }
            if !after.is_empty() {
                return Err(format!("unexpected `{after}` after the game spec"));
            }
            Ok(Some(Command::NewGame {
                spec: spec.to_string(),
            }))
        }
        "position" => parse_position(rest).map(Some),
        "go" => parse_go(rest).map(|g| Some(Command::Go(g))),
        "query" => parse_query(rest).map(|q| Some(Command::Query(q))),
        other => Err(format!("unknown command `{other}`")),
    }
}

/// Split a game spec off the front of `text`. A spec is one word, except
/// that spaces inside its parentheses belong to it
/// (`gildervaik(mode=warrior, first_player=b)`).
pub fn split_spec(text: &str) -> (&str, &str) {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => return (&text[..i], text[i..].trim_start()),
            _ => {}
        }
    }
    (text, "")
}

fn parse_setoption(rest: &str) -> Result<Command, String> {
    let usage = "usage: setoption name NAME value VALUE";
    let rest = rest.strip_prefix("name").ok_or(usage)?;
    let mut words = rest.split_whitespace();
    let name: Vec<&str> = words.by_ref().take_while(|w| *w != "value").collect();
    let value: Vec<&str> = words.collect();
    if name.is_empty() || value.is_empty() {
        return Err(usage.to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.join(" "),
    })
}

fn parse_position(rest: &str) -> Result<Command, String> {
    let usage = "usage: position SPEC startpos|POSITION [moves A B ...]";
    let (spec, rest) = split_spec(rest);
    if spec.is_empty() || rest.is_empty() {
        return Err(usage.to_string());
    }
    // Position strings contain spaces but never the word `moves`.
    let words: Vec<&str> = rest.split_whitespace().collect();
    let cut = words.iter().position(|w| *w == "moves");
    let (board, moves) = match cut {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let position = match board {
        [] => return Err(usage.to_string()),
        ["startpos"] => None,
        _ => Some(board.join(" ")),
    };
    Ok(Command::Position {
        spec: spec.to_string(),
        position,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

fn parse_go(rest: &str) -> Result<Go, String> {
    let mut go = Go::default();
    let mut words = rest.split_whitespace();
    while let Some(key) = words.next() {
        let value = words
            .next()
            .ok_or_else(|| format!("`go {key}` needs a number"))?;
        let number = value
            .parse::<u64>()
            .map_err(|_| format!("`go {key}`: `{value}` is not a whole number"))?;
        let millis = |n: u64| {
            if n <= MAX_MILLIS {
                Ok(n)
            } else {
                Err(format!("`go {key}`: at most {MAX_MILLIS} ms"))
            }
        };
        let slot = match key {
            "movetime" if number == 0 => return Err("`go movetime` must be at least 1".into()),
            "movetime" => &mut go.movetime,
            "nodes" if number == 0 => return Err("`go nodes` must be at least 1".into()),
            "nodes" => {
                go.nodes = Some(number);
                continue;
            }
            "depth" => {
                let max = tabula_ai::MAX_DEPTH;
                go.depth = Some(
                    u32::try_from(number)
                        .ok()
                        .filter(|d| (1..=max).contains(d))
                        .ok_or_else(|| format!("`go depth` must be from 1 to {max}"))?,
                );
                continue;
            }
            "movestogo" if number == 0 => return Err("`go movestogo` must be at least 1".into()),
            "movestogo" => {
                go.movestogo = Some(number);
                continue;
            }
            _ => {
                let (clock, seat) = seat_key(key)?;
                clock_of(&mut go, clock).insert(seat, millis(number)?);
                continue;
            }
        };
        *slot = Some(millis(number)?);
    }
    Ok(go)
}

/// `time2` is ("time", 2); seats are 1-based.
fn seat_key(key: &str) -> Result<(&'static str, usize), String> {
    let unknown = || {
        format!("unknown `go` parameter `{key}` (valid: movetime, nodes, depth, movestogo, timeN, incN)")
    };
    let (clock, digits) = if let Some(d) = key.strip_prefix("time") {
        ("time", d)
    } else if let Some(d) = key.strip_prefix("inc") {
        ("inc", d)
    } else {
        return Err(unknown());
    };
    match digits.parse::<usize>() {
        Ok(seat) if (1..=MAX_SEATS).contains(&seat) && !digits.starts_with('0') => {
            Ok((clock, seat))
        }
        _ => Err(unknown()),
    }
}

fn clock_of<'a>(go: &'a mut Go, clock: &str) -> &'a mut BTreeMap<usize, u64> {
    if clock == "time" {
        &mut go.time
    } else {
        &mut go.inc
    }
}

fn parse_query(rest: &str) -> Result<Query, String> {
    let q = match rest {
        "gameover" => Query::GameOver,
        "turn" => Query::Turn,
        "result" => Query::Result,
        "legal" => Query::Legal,
        "chance" => Query::Chance,
        "position" => Query::Position,
        "seats" => Query::Seats,
        other => {
            let seat = other
                .strip_prefix('p')
                .and_then(|s| s.strip_suffix("turn"))
                .and_then(|d| d.parse::<usize>().ok())
                .filter(|s| (1..=MAX_SEATS).contains(s));
            match seat {
                Some(s) => Query::SeatTurn(s),
                None => {
                    return Err(format!(
                        "unknown query `{other}` (valid: gameover, turn, pNturn, result, \
                         legal, chance, position, seats)"
                    ))
                }
            }
        }
    };
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line)
            .unwrap_or_else(|e| panic!("`{line}`: {e}"))
            .unwrap_or_else(|| panic!("`{line}` is blank"))
    }

    #[test]
    fn simple_commands_and_blank_lines() {
        assert_eq!(ok("ugi"), Command::Ugi);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(parse("   "), Ok(None));
        assert!(parse("isready now").is_err());
        assert!(parse("uci").is_err());
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            ok("setoption name Level value 3"),
            Command::SetOption {
                name: "Level".into(),
                value: "3".into()
            }
        );
        assert_eq!(
            ok("setoption name Some Name value a b"),
            Command::SetOption {
                name: "Some Name".into(),
                value: "a b".into()
            }
        );
        assert!(parse("setoption Level 3").is_err());
        assert!(parse("setoption name Level").is_err());
        assert!(parse("setoption name value 3").is_err());
    }

    #[test]
    fn a_spec_keeps_the_spaces_inside_its_parentheses() {
        assert_eq!(
            split_spec("gildervaik(mode=warrior, first_player=b) startpos"),
            ("gildervaik(mode=warrior, first_player=b)", "startpos")
        );
        assert_eq!(split_spec("phylde"), ("phylde", ""));
        assert_eq!(
            ok("newgame stelpur( preset = ludii )"),
            Command::NewGame {
                spec: "stelpur( preset = ludii )".into()
            }
        );
        assert!(parse("newgame").is_err());
        assert!(parse("newgame dragonchess extra").is_err());
    }

    #[test]
    fn positions_with_spaces_and_moves() {
        assert_eq!(
            ok("position stelpur startpos moves 6-1 1:6-7"),
            Command::Position {
                spec: "stelpur".into(),
                position: None,
                moves: vec!["6-1".into(), "1:6-7".into()],
            }
        );
        assert_eq!(
            ok("position gildervaik(mode=warrior) A:e5,h3 B:e6 C:f8,h2 / A moves e5-f6"),
            Command::Position {
                spec: "gildervaik(mode=warrior)".into(),
                position: Some("A:e5,h3 B:e6 C:f8,h2 / A".into()),
                moves: vec!["e5-f6".into()],
            }
        );
        assert_eq!(
            ok("position phylde startpos moves"),
            Command::Position {
                spec: "phylde".into(),
                position: None,
                moves: vec![],
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position dragonchess").is_err());
        assert!(parse("position dragonchess moves a").is_err());
    }

    #[test]
    fn go_takes_a_clock_for_every_seat() {
        let Command::Go(go) = ok("go time1 1000 time2 2000 time3 3000 inc1 10 inc3 30 movestogo 5")
        else {
            panic!("not a go");
        };
        assert_eq!(go.time, BTreeMap::from([(1, 1000), (2, 2000), (3, 3000)]));
        assert_eq!(go.inc, BTreeMap::from([(1, 10), (3, 30)]));
        assert_eq!(go.movestogo, Some(5));
        assert_eq!(ok("go"), Command::Go(Go::default()));
        assert_eq!(
            ok("go movetime 50 nodes 100"),
            Command::Go(Go {
                movetime: Some(50),
                nodes: Some(100),
                ..Go::default()
            })
        );
        assert_eq!(
            ok("go depth 6"),
            Command::Go(Go {
                depth: Some(6),
                ..Go::default()
            })
        );
        for bad in [
            "go depth 0",
            "go depth 65",
            "go movetime",
            "go movetime -5",
            "go movetime 0",
            "go movetime 99999999999",
            "go nodes x",
            "go time0 100",
            "go time9 100",
            "go time01 100",
            "go wtime 100",
            "go infinite",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn queries() {
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(ok("query p1turn"), Command::Query(Query::SeatTurn(1)));
        assert_eq!(ok("query p3turn"), Command::Query(Query::SeatTurn(3)));
        assert_eq!(ok("query chance"), Command::Query(Query::Chance));
        assert!(parse("query").is_err());
        assert!(parse("query p0turn").is_err());
        assert!(parse("query colour").is_err());
    }
}
