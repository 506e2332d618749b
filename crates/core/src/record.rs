//! Game records: one plain-text file for a whole game.
//!
//! ```text
//! [Tabula record]
//! game: stelpur(preset=ludii)
//! seed: 42
//! player 1: Alice
//! date: 2026-11-21
//! result: win 1
//!
//! * 6-1
//! 1 6:6-12
//! 1 1:12x13
//! ```
//!
//! Header lines are `key: value` (`game` required; `start` is the start
//! position when it is not the standard one; `result` is `win N` or
//! `draw N,M`; `end: resign`, `agreement`, `left`, `time`, `abandoned` or `aborted`
//! marks a result decided off the board; any other key is free metadata). A declared result is
//! checked against the replay (see [`Record::replay_checked`]). After a blank line comes one
//! action per line: the acting seat (1-based) or `*` for a chance outcome,
//! then the action in the game's notation. `#` starts a comment line.

use crate::erased::AnyGame;
use crate::error::Error;
use crate::game::{Outcome, Player, PlayerSet, Turn};
use crate::registry::Registry;
use serde::{Deserialize, Serialize};

const MAGIC: &str = "[Tabula record]";

/// The `end:` words a record may carry.
const END_WORDS: &str = "`resign`, `agreement`, `left`, `time`, `abandoned` or `aborted`";

/// One recorded action: who acted (`None` = chance) and the action text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAction {
    pub actor: Option<Player>,
    pub text: String,
    /// A note written after it as a `#` line (an analysis's verdict); a
    /// record read back has none: comments are for people.
    pub comment: Option<String>,
    /// Line number in the file it was read from (0 when built in memory).
    pub line: usize,
}

/// Why a game is over. The words are API values (records' `end:` line, the
/// server's JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// The rules ended it: the replayed game is over.
    Board,
    /// A player of a two-player game resigned (`end: resign`).
    Resign,
    /// Every seat agreed to a draw (`end: agreement`).
    Agreement,
    /// A player left a two-player game (`end: left`).
    Left,
    /// A player's clock ran out in a two-player game (`end: time`).
    Time,
    /// A player stayed away and the other claimed the game, won or drawn
    /// (`end: abandoned`).
    Abandoned,
    /// A player never made a first move in time: the game does not count
    /// (`end: aborted`, recorded as a draw of every seat).
    Aborted,
}

impl EndReason {
    /// Every reason, for lookups and tests.
    pub const ALL: [EndReason; 7] = [
        EndReason::Board,
        EndReason::Resign,
        EndReason::Agreement,
        EndReason::Left,
        EndReason::Time,
        EndReason::Abandoned,
        EndReason::Aborted,
    ];

    /// The word used in records (`end: ...`) and by the server.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Board => "board",
            EndReason::Resign => "resign",
            EndReason::Agreement => "agreement",
            EndReason::Left => "left",
            EndReason::Time => "time",
            EndReason::Abandoned => "abandoned",
            EndReason::Aborted => "aborted",
        }
    }

    /// An `end:` header value; only the off-board reasons are written.
    fn parse(text: &str) -> Option<EndReason> {
        let word = text.trim().to_ascii_lowercase();
        EndReason::ALL
            .into_iter()
            .find(|r| *r != EndReason::Board && r.as_str() == word)
    }

    /// One player of two lost off the board (any reason but the board and
    /// an agreement).
    fn is_a_loss(self) -> bool {
        !matches!(
            self,
            EndReason::Board | EndReason::Agreement | EndReason::Aborted
        )
    }

    /// It may be a draw of every seat (an agreement, an abort, a claimed
    /// draw of an abandoned game).
    fn may_be_a_draw(self) -> bool {
        matches!(
            self,
            EndReason::Agreement | EndReason::Aborted | EndReason::Abandoned
        )
    }
}

impl std::str::FromStr for EndReason {
    type Err = Error;

    fn from_str(word: &str) -> Result<Self, Error> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.as_str() == word)
            .ok_or_else(|| Error::bad_record(format!("unknown end `{word}`")))
    }
}

/// How a game ended. Stored by the server as `{"result": "win 2",
/// "reason": "resign"}` (the result in record notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    #[serde(rename = "result", with = "outcome_text")]
    pub outcome: Outcome,
    pub reason: EndReason,
}

mod outcome_text {
    use crate::game::Outcome;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&o.to_text())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        Outcome::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A record replayed and checked: the game after the last action and how
/// it ended (`None` while it goes on).
pub struct Replayed {
    pub game: Box<dyn AnyGame>,
    pub ending: Option<Ending>,
}

/// A whole game as text.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    pub game: String,
    pub start: Option<String>,
    /// Free metadata in file order (`seed`, `player 1`, `date`, ...).
    pub meta: Vec<(String, String)>,
    pub result: Option<Outcome>,
    /// `resign` / `agreement` when the result was not reached on the board.
    pub end: Option<String>,
    pub actions: Vec<RecordedAction>,
}

impl Record {
    pub fn new(game: impl Into<String>, start: Option<String>) -> Self {
        Record {
            game: game.into(),
            start,
            ..Default::default()
        }
    }

    pub fn push(&mut self, actor: Option<Player>, text: impl Into<String>) {
        self.actions.push(RecordedAction {
            actor,
            text: text.into(),
            comment: None,
            line: 0,
        });
    }

    pub fn set_meta(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into().replace(['\n', '\r'], " ");
        match self.meta.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.meta.push((key.to_string(), value)),
        }
    }

    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    pub fn to_text(&self) -> String {
        let mut s = format!("{MAGIC}\ngame: {}\n", self.game);
        if let Some(start) = &self.start {
            s += &format!("start: {start}\n");
        }
        for (k, v) in &self.meta {
            s += &format!("{k}: {v}\n");
        }
        if let Some(r) = self.result {
            s += &format!("result: {}\n", r.to_text());
        }
        if let Some(e) = &self.end {
            s += &format!("end: {e}\n");
        }
        s.push('\n');
        for a in &self.actions {
            match a.actor {
                Some(p) => s += &format!("{} {}\n", p.0 + 1, a.text),
                None => s += &format!("* {}\n", a.text),
            }
            if let Some(c) = &a.comment {
                s += &format!("# {}\n", c.replace(['\n', '\r'], " "));
            }
        }
        s
    }

    /// Read the syntax of a record (actions are checked by `replay`).
    pub fn parse(text: &str) -> Result<Record, Error> {
        let mut rec = Record::default();
        let mut in_body = false;
        let mut seen_magic = false;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            let err = |msg: String| Error::bad_record(format!("line {n}: {msg}"));
            if line.starts_with('#') {
                continue;
            }
            if !seen_magic {
                if line.is_empty() {
                    continue;
                }
                if line != MAGIC {
                    return Err(err(format!("expected `{MAGIC}` as the first line")));
                }
                seen_magic = true;
                continue;
            }
            if line.is_empty() {
                in_body = true;
                continue;
            }
            if !in_body {
                let (k, v) = line
                    .split_once(':')
                    .ok_or_else(|| err(format!("expected `key: value`, got `{line}`")))?;
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
                match k.as_str() {
                    "game" => rec.game = v,
                    "start" => rec.start = Some(v),
                    "result" => rec.result = Some(Outcome::parse(&v).map_err(|e| err(e.message))?),
                    "end" => {
                        let reason = EndReason::parse(&v).ok_or_else(|| {
                            err(format!("bad end `{v}` (expected {})", END_WORDS))
                        })?;
                        rec.end = Some(reason.as_str().to_string());
                    }
                    _ => rec.meta.push((k, v)),
                }
                continue;
            }
            let (who, action) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| err(format!("expected `<seat> <action>`, got `{line}`")))?;
            let actor = if who == "*" {
                None
            } else {
                match who.parse::<u8>() {
                    Ok(s) if (1..=8).contains(&s) => Some(Player(s - 1)),
                    _ => return Err(err(format!("bad seat `{who}` (expected 1, 2, 3 or *)"))),
                }
            };
            rec.actions.push(RecordedAction {
                actor,
                text: action.trim().to_string(),
                comment: None,
                line: n,
            });
        }
        if !seen_magic {
            return Err(Error::bad_record(format!(
                "empty file (expected `{MAGIC}`)"
            )));
        }
        if rec.game.is_empty() {
            return Err(Error::bad_record("missing `game:` line"));
        }
        Ok(rec)
    }

    /// Replay every action, checking each, then check the declared result
    /// (see [`Record::ending`]); `visit(game, index)` sees the state after
    /// each action (index 0 = the start, before any action). The first bad
    /// action is reported with its line.
    pub fn replay_checked(
        &self,
        registry: &Registry,
        mut visit: impl FnMut(&dyn AnyGame, usize),
    ) -> Result<Replayed, Error> {
        let mut game = registry
            .create(&self.game, self.start.as_deref())
            .map_err(|e| Error::bad_record(e.to_string()))?;
        visit(game.as_ref(), 0);
        for (i, a) in self.actions.iter().enumerate() {
            let at = if a.line > 0 {
                format!("line {}", a.line)
            } else {
                format!("action {}", i + 1)
            };
            let expected = match game.turn() {
                Turn::Over => {
                    return Err(Error::bad_record(format!(
                        "{at}: `{}` after the game ended",
                        a.text
                    )))
                }
                Turn::Chance => None,
                Turn::Player(p) => Some(p),
            };
            if expected != a.actor {
                let who = |p: Option<Player>| {
                    p.map_or("chance (*)".to_string(), |p| format!("seat {}", p.0 + 1))
                };
                return Err(Error::bad_record(format!(
                    "{at}: `{}` is played by {}, but {} is to act",
                    a.text,
                    who(a.actor),
                    who(expected)
                )));
            }
            game.apply_text(&a.text)
                .map_err(|e| Error::bad_record(format!("{at}: {e}")))?;
            visit(game.as_ref(), i + 1);
        }
        let ending = self.ending(game.as_ref())?;
        Ok(Replayed { game, ending })
    }

    /// [`Record::replay_checked`] for callers that only need the game.
    pub fn replay_with(
        &self,
        registry: &Registry,
        visit: impl FnMut(&dyn AnyGame, usize),
    ) -> Result<Box<dyn AnyGame>, Error> {
        self.replay_checked(registry, visit).map(|r| r.game)
    }

    pub fn replay(&self, registry: &Registry) -> Result<Box<dyn AnyGame>, Error> {
        self.replay_with(registry, |_, _| {})
    }

    /// How the game ended, given `game` replayed from this record: the
    /// declared `result` must be the board's outcome when the game is over
    /// (and may be left out), and a result is declared while the game goes
    /// on only with the off-board end that explains it, as Tabula records
    /// them: `end: resign` is a win in a two-player game (either seat may
    /// resign), `end: agreement` a draw of every seat.
    pub fn ending(&self, game: &dyn AnyGame) -> Result<Option<Ending>, Error> {
        let bad = |m: String| Err(Error::bad_record(m));
        let reason = match self.end.as_deref().map(|e| (e, EndReason::parse(e))) {
            None => None,
            Some((_, Some(r))) => Some(r),
            Some((e, None)) => return bad(format!("bad end `{e}` (expected {END_WORDS})")),
        };
        let ending = |outcome, reason| Ok(Some(Ending { outcome, reason }));
        match (reason, self.result, game.outcome()) {
            (None, None, board) => Ok(board.map(|outcome| Ending {
                outcome,
                reason: EndReason::Board,
            })),
            (None, Some(claimed), Some(actual)) if claimed == actual => {
                ending(actual, EndReason::Board)
            }
            (None, Some(claimed), Some(actual)) => bad(format!(
                "result says `{}` but the game ended `{}`",
                claimed.to_text(),
                actual.to_text()
            )),
            (None, Some(claimed), None) => bad(format!(
                "result `{}` is given but the game is not over (a result off the board needs `end: resign` or `end: agreement`)",
                claimed.to_text()
            )),
            (Some(r), _, Some(actual)) => bad(format!(
                "`end: {}` but the game ended on the board (`{}`)",
                r.as_str(),
                actual.to_text()
            )),
            (Some(r), None, None) => bad(format!("`end: {}` needs a `result:` line", r.as_str())),
            (Some(r), Some(claimed), None)
                if r.may_be_a_draw()
                    && claimed == Outcome::Draw(PlayerSet::all(game.num_players())) =>
            {
                ending(claimed, r)
            }
            (Some(r), Some(claimed), None) if r.is_a_loss() => match claimed {
                _ if game.num_players() != 2 => bad(format!(
                    "only a two-player game ends by `end: {}`",
                    r.as_str()
                )),
                Outcome::Win(p) if p.index() < 2 => ending(claimed, r),
                _ => bad(format!(
                    "`end: {}` is a win of the other player (`win 1` or `win 2`), not `{}`",
                    r.as_str(),
                    claimed.to_text()
                )),
            },
            // `end: agreement` or `aborted` with another result (`Board` is
            // never read from an `end:` line).
            (Some(r), Some(claimed), None) => {
                let all = Outcome::Draw(PlayerSet::all(game.num_players()));
                if claimed == all {
                    ending(claimed, r)
                } else {
                    bad(format!(
                        "`end: {}` is a draw of every seat (`{}`), not `{}`",
                        r.as_str(),
                        all.to_text(),
                        claimed.to_text()
                    ))
                }
            }
        }
    }
}
