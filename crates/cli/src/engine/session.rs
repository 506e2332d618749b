//! The engine's state machine: the options, the game and the AI player,
//! changed by one command at a time. It does no I/O and starts no thread:
//! it answers with [`Reply`]s, and a `go` hands a [`Job`] to the caller,
//! which gives the agent back with [`Session::search_done`].
//!
//! A command that fails changes nothing and answers one error line.

use super::command::{self, Command, Go, Query};
use std::time::Duration;
use tabula_ai::{AiLevel, AnyAgent, Limits};
use tabula_core::{AnyGame, Player, Turn};

/// The prefix of every error line.
pub const ERROR: &str = "info string error";

/// Share of the remaining clock one decision may use at most.
const MAX_CLOCK_SHARE: f64 = 0.5;
/// Decisions the clock is spread over when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u64 = 30;
/// Kept off every clock-based budget for the answer to travel back.
const CLOCK_MARGIN_MS: u64 = 20;

/// What the caller does after a command.
pub enum Reply {
    /// Write this line.
    Line(String),
    /// Run this search (the session is searching until `search_done`).
    Search(Job),
    /// Stop the running search now.
    Stop,
    /// Stop any search and end the session.
    Quit,
}

/// One search: a copy of the position, the agent, its budget.
pub struct Job {
    pub game: Box<dyn AnyGame>,
    pub agent: Box<dyn AnyAgent>,
    pub limits: Limits,
}

/// The options a driver can set (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Options {
    level: AiLevel,
    seed: u64,
    threads: u64,
    hash_mb: u64,
}

/// Defaults and ranges of the options, as the handshake lists them.
const LEVEL_DEFAULT: u8 = 8;
const SEED_DEFAULT: u64 = 1;
const THREADS_DEFAULT: u64 = 1;
const THREADS_MAX: u64 = crate::hint::MAX_THREADS as u64;
/// The built-in size of the transposition table (2^19 entries of 16 bytes).
const HASH_DEFAULT: u64 = 8;
const HASH_MAX: u64 = crate::hint::MAX_HASH_MB as u64;

pub struct Session {
    options: Options,
    game: Option<Box<dyn AnyGame>>,
    /// Kept from one `go` to the next within a game (its tables and tree
    /// carry over); rebuilt after `newgame`, another game or new options.
    agent: Option<Box<dyn AnyAgent>>,
    searching: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Self {
        Session {
            options: Options {
                level: AiLevel::from_number(LEVEL_DEFAULT).unwrap_or(AiLevel::Random),
                seed: SEED_DEFAULT,
                threads: THREADS_DEFAULT,
                hash_mb: HASH_DEFAULT,
            },
            game: None,
            agent: None,
            searching: false,
        }
    }

    #[cfg(test)]
    pub fn searching(&self) -> bool {
        self.searching
    }

    /// The search of the last [`Reply::Search`] ended; its agent comes back
    /// (`None` when it was lost: the next `go` builds a new one).
    pub fn search_done(&mut self, agent: Option<Box<dyn AnyAgent>>) {
        self.agent = agent;
        self.searching = false;
    }

    /// Answer one input line.
    pub fn handle(&mut self, line: &str) -> Vec<Reply> {
        let result = command::parse(line).and_then(|cmd| match cmd {
            None => Ok(Vec::new()),
            Some(cmd) => self.execute(cmd),
        });
        result.unwrap_or_else(|e| vec![error(&e)])
    }

    fn execute(&mut self, cmd: Command) -> Result<Vec<Reply>, String> {
        let changes_state = matches!(
            cmd,
            Command::SetOption { .. }
                | Command::NewGame { .. }
                | Command::Position { .. }
                | Command::Go(_)
        );
        if self.searching && changes_state {
            return Err("searching: wait for `bestmove` (or send `stop`) first".into());
        }
        Ok(match cmd {
            Command::Ugi => handshake(),
            Command::IsReady => vec![line("readyok")],
            Command::SetOption { name, value } => {
                self.set_option(&name, &value)?;
                Vec::new()
            }
            Command::NewGame { spec } => {
                self.game = Some(crate::open_game(&spec, None)?);
                self.agent = None;
                Vec::new()
            }
            Command::Position {
                spec,
                position,
                moves,
            } => {
                self.set_position(&spec, position.as_deref(), &moves)?;
                Vec::new()
            }
            Command::Go(go) => vec![Reply::Search(self.start_search(&go)?)],
            Command::Stop if self.searching => vec![Reply::Stop],
            Command::Stop => Vec::new(),
            Command::Quit => vec![Reply::Quit],
            Command::Query(q) => {
                // An empty answer (no legal action, no chance outcome) is
                // the bare word, without a trailing space.
                vec![line(format!("response {}", self.query(q)?).trim_end())]
            }
            Command::Show => self
                .current()?
                .render()
                .lines()
                .map(|l| line(&format!("info string {l}")))
                .collect(),
        })
    }

    fn current(&self) -> Result<&dyn AnyGame, String> {
        self.game
            .as_deref()
            .ok_or_else(|| "no game yet: send `newgame SPEC` or `position SPEC ...`".into())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("option {name}: `{value}` is not a number from 0 to {max}"))
        };
        let in_range = |max: u64| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("option {name}: `{value}` is not a number from 1 to {max}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "level" => {
                let n = u8::try_from(number(u64::from(u8::MAX))?).unwrap_or(0);
                let level =
                    AiLevel::from_number(n).map_err(|e| format!("option {name}: {}", e.message))?;
                self.options.level = level;
                self.agent = None;
            }
            "seed" => {
                self.options.seed = number(u64::MAX)?;
                self.agent = None;
            }
            // Both apply from the next `go`; the agent keeps its tables
            // unless the size changes.
            "threads" => self.options.threads = in_range(THREADS_MAX)?,
            "hash" => self.options.hash_mb = in_range(HASH_MAX)?,
            _ => {
                return Err(format!(
                    "unknown option `{name}` (valid: Level, Seed, Threads, Hash)"
                ))
            }
        }
        Ok(())
    }

    /// Build the whole position first: a bad spec, position or move keeps
    /// the old one. The agent is kept while the game stays the same.
    fn set_position(
        &mut self,
        spec: &str,
        position: Option<&str>,
        moves: &[String],
    ) -> Result<(), String> {
        let mut game = crate::open_game(spec, position)?;
        for (i, m) in moves.iter().enumerate() {
            if game.turn() == Turn::Over {
                return Err(format!("move {} `{m}`: the game is already over", i + 1));
            }
            game.apply_text(m)
                .map_err(|e| format!("move {} `{m}`: {e}", i + 1))?;
        }
        let same_game = self.game.as_ref().is_some_and(|g| g.spec() == game.spec());
        if !same_game {
            self.agent = None;
        }
        self.game = Some(game);
        Ok(())
    }

    fn start_search(&mut self, go: &Go) -> Result<Job, String> {
        let game = self.current()?;
        let mover =
            match game.turn() {
                Turn::Player(p) => p,
                Turn::Chance => return Err(
                    "the position waits for a chance outcome: play one (`query chance` lists them)"
                        .into(),
                ),
                Turn::Over => return Err("the game is over".into()),
            };
        let seats = game.num_players();
        if let Some(&seat) = go.time.keys().chain(go.inc.keys()).find(|&&s| s > seats) {
            return Err(format!(
                "seat {seat} does not exist: this game has {seats} seats"
            ));
        }
        let limits = Limits {
            threads: Some(self.options.threads as usize),
            hash_mb: Some(self.options.hash_mb as usize),
            ..limits(go, mover)
        };
        let game = game.clone_box();
        let agent = match self.agent.take() {
            Some(agent) => agent,
            None => tabula_games::make_agent(game.as_ref(), self.options.level, self.options.seed)
                .map_err(|e| e.to_string())?,
        };
        self.searching = true;
        Ok(Job {
            game,
            agent,
            limits,
        })
    }

    fn query(&self, q: Query) -> Result<String, String> {
        let game = self.current()?;
        let turn = game.turn();
        Ok(match q {
            Query::GameOver => (turn == Turn::Over).to_string(),
            Query::Turn => match turn {
                Turn::Player(p) => (p.index() + 1).to_string(),
                Turn::Chance => "chance".into(),
                Turn::Over => "over".into(),
            },
            Query::SeatTurn(seat) => {
                if seat > game.num_players() {
                    return Err(format!(
                        "seat {seat} does not exist: this game has {} seats",
                        game.num_players()
                    ));
                }
                (turn == Turn::Player(Player((seat - 1) as u8))).to_string()
            }
            Query::Result => game.outcome().map_or("none".into(), |o| o.to_text()),
            Query::Legal => game.legal_actions().join(" "),
            Query::Chance => game
                .chance_outcomes()
                .iter()
                .map(|(o, p)| format!("{o}={p}"))
                .collect::<Vec<_>>()
                .join(" "),
            Query::Position => game.position(),
            Query::Seats => game.num_players().to_string(),
        })
    }
}

fn line(text: &str) -> Reply {
    Reply::Line(text.to_string())
}

fn error(message: &str) -> Reply {
    // One line whatever the message holds.
    line(&format!("{ERROR} {}", message.replace(['\n', '\r'], " ")))
}

fn handshake() -> Vec<Reply> {
    let mut out = vec![
        line(&format!("id name Tabula {}", env!("CARGO_PKG_VERSION"))),
        line("id author the Tabula contributors"),
    ];
    out.extend(
        [
            format!("option name Level type spin default {LEVEL_DEFAULT} min 1 max 8"),
            format!(
                "option name Seed type spin default {SEED_DEFAULT} min 0 max {}",
                u64::MAX
            ),
            format!(
                "option name Threads type spin default {THREADS_DEFAULT} min 1 max {THREADS_MAX}"
            ),
            format!("option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}"),
        ]
        .iter()
        .map(|l| line(l)),
    );
    out.push(line("ugiok"));
    out
}

/// The budget of one `go` for `mover`: `movetime` and `nodes` as given;
/// otherwise a share of the mover's clock (its time over the moves to go,
/// plus most of its increment, never more than half the clock); with
/// nothing given, the level's own time.
pub fn limits(go: &Go, mover: Player) -> Limits {
    let seat = mover.index() + 1;
    let from_clock = go.time.get(&seat).map(|&left| {
        let inc = go.inc.get(&seat).copied().unwrap_or(0);
        let moves = go.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO);
        let share = left / moves + inc * 3 / 4;
        let cap = (left as f64 * MAX_CLOCK_SHARE) as u64;
        share.min(cap).saturating_sub(CLOCK_MARGIN_MS).max(1)
    });
    Limits {
        time: go.movetime.or(from_clock).map(Duration::from_millis),
        iterations: go.nodes,
        depth: go.depth,
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(replies: &[Reply]) -> Vec<String> {
        replies
            .iter()
            .map(|r| match r {
                Reply::Line(l) => l.clone(),
                Reply::Search(_) => "<search>".into(),
                Reply::Stop => "<stop>".into(),
                Reply::Quit => "<quit>".into(),
            })
            .collect()
    }

    fn ask(s: &mut Session, input: &str) -> Vec<String> {
        lines(&s.handle(input))
    }

    fn one(s: &mut Session, input: &str) -> String {
        let out = ask(s, input);
        assert_eq!(out.len(), 1, "{input}: {out:?}");
        out[0].clone()
    }

    fn is_error(l: &str) -> bool {
        l.starts_with(ERROR)
    }

    #[test]
    fn the_handshake_lists_the_options() {
        let mut s = Session::new();
        let out = ask(&mut s, "ugi");
        assert!(out[0].starts_with("id name Tabula "));
        assert!(out[1].starts_with("id author "));
        assert!(out
            .iter()
            .any(|l| l.starts_with("option name Level type spin")));
        assert_eq!(out.last().map(String::as_str), Some("ugiok"));
        assert_eq!(one(&mut s, "isready"), "readyok");
    }

    #[test]
    fn bad_lines_answer_one_error_and_keep_the_state() {
        let mut s = Session::new();
        assert!(ask(&mut s, "position stelpur startpos moves 6-1").is_empty());
        let before = one(&mut s, "query position");
        for bad in [
            "fly away",
            "position stelpur startpos moves 6-1 9:9-9",
            "position nosuchgame startpos",
            "position stelpur(preset=nope) startpos",
            "position stelpur garbage here",
            "newgame nosuchgame",
            "setoption name Level value 9",
            "setoption name Level value x",
            "setoption name Threads value 0",
            "setoption name Threads value 100000",
            "setoption name Hash value 0",
            "setoption name Colour value red",
            "go time3 100",
            "go movetime",
            "query p3turn",
            "\u{0}\u{1b}[2J",
        ] {
            let out = ask(&mut s, bad);
            assert_eq!(out.len(), 1, "{bad}: {out:?}");
            assert!(is_error(&out[0]), "{bad}: {out:?}");
            assert_eq!(one(&mut s, "query position"), before, "{bad}");
        }
        assert!(ask(&mut s, "").is_empty());
        assert!(ask(&mut s, "setoption name threads value 1").is_empty());
        assert!(ask(&mut s, "setoption name Threads value 2").is_empty());
        assert!(ask(&mut s, "setoption name Hash value 32").is_empty());
        assert_eq!((s.options.threads, s.options.hash_mb), (2, 32));
    }

    #[test]
    fn queries_follow_the_game_through_chance_and_turns() {
        let mut s = Session::new();
        assert!(is_error(&one(&mut s, "query turn")));
        assert!(ask(&mut s, "newgame stelpur").is_empty());
        assert_eq!(one(&mut s, "query turn"), "response chance");
        assert_eq!(one(&mut s, "query p1turn"), "response false");
        assert_eq!(one(&mut s, "query gameover"), "response false");
        assert_eq!(one(&mut s, "query result"), "response none");
        assert_eq!(one(&mut s, "query seats"), "response 2");
        let chance = one(&mut s, "query chance");
        let total: f64 = chance
            .split_whitespace()
            .skip(1)
            .map(|o| o.split_once('=').and_then(|(_, p)| p.parse::<f64>().ok()))
            .map(|p| p.expect("outcome=probability"))
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "{chance}");
        assert!(chance.contains(" 6-1="), "{chance}");
        assert!(is_error(&one(&mut s, "go movetime 10")));
        assert!(ask(&mut s, "position stelpur startpos moves 6-1").is_empty());
        assert_eq!(one(&mut s, "query turn"), "response 1");
        assert_eq!(one(&mut s, "query p1turn"), "response true");
        let legal = one(&mut s, "query legal");
        assert!(legal.split_whitespace().count() > 2, "{legal}");

        assert!(ask(&mut s, "newgame gildervaik").is_empty());
        assert_eq!(one(&mut s, "query seats"), "response 3");
        assert_eq!(one(&mut s, "query p3turn"), "response false");
        assert_eq!(one(&mut s, "query chance"), "response");
    }

    #[test]
    fn a_finished_game_reports_its_result_and_refuses_to_search() {
        let mut s = Session::new();
        // Fool's mate needs many plies in Dragonchess; a Gildervaik warrior
        // game with one pawn left for A is over from the start.
        assert!(ask(&mut s, "position gildervaik(mode=warrior) A:e5 / A").is_empty());
        assert_eq!(one(&mut s, "query gameover"), "response true");
        assert_eq!(one(&mut s, "query turn"), "response over");
        assert_eq!(one(&mut s, "query result"), "response win 1");
        assert!(is_error(&one(&mut s, "go nodes 10")));
    }

    #[test]
    fn go_hands_out_the_agent_and_blocks_changes_until_it_is_back() {
        let mut s = Session::new();
        assert!(ask(&mut s, "newgame phylde").is_empty());
        let mut replies = s.handle("go nodes 50");
        let Some(Reply::Search(job)) = replies.pop() else {
            panic!("no search");
        };
        assert!(s.searching());
        assert_eq!(job.limits.iterations, Some(50));
        assert!(is_error(&one(&mut s, "position phylde startpos")));
        assert!(is_error(&one(&mut s, "go")));
        assert_eq!(one(&mut s, "isready"), "readyok");
        assert_eq!(one(&mut s, "query turn"), "response 1");
        assert_eq!(ask(&mut s, "stop"), vec!["<stop>".to_string()]);
        s.search_done(Some(job.agent));
        assert!(!s.searching());
        assert!(ask(&mut s, "stop").is_empty());
        assert!(ask(&mut s, "position phylde startpos").is_empty());
        assert_eq!(ask(&mut s, "quit"), vec!["<quit>".to_string()]);
    }

    #[test]
    fn clock_budgets_take_a_share_of_the_movers_clock() {
        let ms = |go: &Go, seat: u8| limits(go, Player(seat)).time.map(|t| t.as_millis());
        let Ok(Some(Command::Go(go))) =
            command::parse("go time1 60000 time2 1000 time3 30 inc2 400 movestogo 10")
        else {
            panic!("bad go");
        };
        assert_eq!(ms(&go, 0), Some(6000 - 20));
        // 100 + 300 of the increment, capped at half the clock.
        assert_eq!(ms(&go, 1), Some(400 - 20));
        assert_eq!(ms(&go, 2), Some(1));
        let fixed = Go {
            movetime: Some(70),
            ..go.clone()
        };
        assert_eq!(ms(&fixed, 2), Some(70));
        assert_eq!(ms(&Go::default(), 0), None);
    }
}
