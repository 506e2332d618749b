//! The `tabula_core::Game` implementation.

use crate::geometry::{Side, Square, SQUARES};
use crate::moves::{self, Move};
use crate::options::{Options, OPTION_DEFS};
use crate::piece::Kind;
use crate::position::{side_name, START};
use crate::rules::Status;
use crate::state::Dragonchess;
use tabula_core::options::{OptionDef, OptionValues};
use tabula_core::zobrist;
use tabula_core::{ActionFacts, Error, Game, GameType, Outcome, Player, PlayerSet, Turn};

/// Seed of the keys that mix the halfmove clock into `exact_hash`.
const HALFMOVE_SEED: u64 = 0x4A1F_70C5_2D6B_9E13;

fn player(s: Side) -> Player {
    Player(s.index() as u8)
}

impl Game for Dragonchess {
    type Action = Move;
    type Options = Options;
    const NAME: &'static str = "dragonchess";
    /// Every option settles an ambiguous rule or a draw threshold: one pool.
    const RATING_POOL_OPTIONS: &'static [&'static str] = &[];

    fn option_defs() -> &'static [OptionDef] {
        OPTION_DEFS
    }
    fn options_from(values: &OptionValues) -> Result<Options, Error> {
        Options::from_values(values)
    }
    fn new_game(options: &Options) -> Result<Self, Error> {
        Dragonchess::from_position_string(*options, START)
    }
    fn from_position(options: &Options, text: &str) -> Result<Self, Error> {
        Dragonchess::from_position_string(*options, text)
    }
    fn position(&self) -> String {
        self.position_string()
    }
    fn options(&self) -> &Options {
        &self.options
    }
    fn game_type(&self) -> GameType {
        GameType {
            players: 2,
            chance: false,
            multi_action_turns: false,
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &'static str {
        side_name(if p.0 == 0 { Side::Gold } else { Side::Scarlet })
    }
    fn turn(&self) -> Turn {
        if self.draw_by_count() || !self.has_legal_move() {
            Turn::Over
        } else {
            Turn::Player(player(self.side))
        }
    }
    fn legal_actions(&self, out: &mut Vec<Move>) {
        // Without legal moves the game is over anyway: one generation suffices.
        self.legal_moves(out);
        if self.draw_by_count() {
            out.clear();
        }
    }
    /// Counted by popcounts where no move needs a replay.
    fn count_steps(&self, _: &mut Vec<Move>, _: &mut Vec<(Move, f64)>) -> u64 {
        if self.draw_by_count() {
            0
        } else {
            self.count_legal_moves()
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(Move, f64)>) {
        out.clear();
    }
    fn apply(&mut self, action: Move) {
        self.play(action);
    }
    fn outcome(&self) -> Option<Outcome> {
        match self.status() {
            Status::Playing => None,
            Status::Checkmate => Some(Outcome::Win(player(self.side.other()))),
            Status::Stalemate | Status::Repetition | Status::NoCapture => {
                Some(Outcome::Draw(PlayerSet::all(2)))
            }
        }
    }

    /// Mate, stalemate, or a draw rule: the status says which.
    fn end_reason(&self) -> Option<&'static str> {
        match self.status() {
            Status::Playing => None,
            Status::Checkmate => Some("checkmate"),
            Status::Stalemate => Some("stalemate"),
            Status::Repetition => Some("repetition"),
            Status::NoCapture => Some("no_capture"),
        }
    }

    /// The long notation with `+` for check and `#` for mate.
    fn action_text(&self, m: Move) -> String {
        let Some(piece) = self.piece_at(m.from) else {
            return format!("?{}-{}", m.from, m.to);
        };
        let mut text = m.text(piece.kind);
        let facts = self.action_facts(m);
        if facts.mate {
            text.push('#');
        } else if facts.check {
            text.push('+');
        }
        text
    }

    /// A capture takes a piece (from afar too); check and mate are judged
    /// by playing the move on a copy (spec §5: mate is the only win).
    fn action_facts(&self, m: Move) -> ActionFacts {
        let mut after = self.clone();
        after.play(m);
        ActionFacts {
            capture: m.is_capture(),
            check: after.in_check,
            mate: after.in_check && !after.has_legal_move(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Move, Error> {
        let w = match (moves::parse(text), moves::parse_short(text)) {
            (Ok(w), _) => w,
            (Err(_), Some((from, to))) => self.written(from, to),
            (Err(e), None) => return Err(e),
        };
        let text = text.trim();
        if self.turn() == Turn::Over {
            return Err(Error::game_over(text));
        }
        let illegal = |why: String| Error::illegal(format!("`{text}`: {why}"));
        let act = || ("action", text.to_string());
        let (from, to) = (w.from.to_string(), w.to.to_string());
        let piece = self.piece_at(w.from).ok_or_else(|| {
            illegal(format!("no piece on {from}"))
                .because("no_piece", [act(), ("square", from.clone())])
        })?;
        if piece.side != self.side {
            let side = side_name(self.side);
            return Err(
                illegal(format!("the piece on {from} is not {side}'s")).because(
                    "not_yours",
                    [act(), ("square", from), ("side", side.into())],
                ),
            );
        }
        if piece.kind != w.kind {
            let (held, written) = (piece.kind.letter(), w.kind.letter());
            let name = piece.kind.name();
            return Err(illegal(format!(
                "{from} holds piece `{held}` ({name}), not `{written}`"
            ))
            .because(
                "wrong_piece",
                [
                    act(),
                    ("square", from),
                    ("piece", held.into()),
                    ("written", written.into()),
                ],
            ));
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let m = legal
            .into_iter()
            .find(|m| m.from == w.from && m.to == w.to)
            .ok_or_else(|| {
                illegal(format!("{from} cannot go to {to} here"))
                    .because("cannot_reach", [act(), ("from", from), ("to", to)])
            })?;
        if m.is_capture() != w.capture {
            return Err(if m.is_capture() {
                illegal("a capture is written with `x`".into()).because("write_x", [act()])
            } else {
                illegal("a move without capture is written with `-`".into())
                    .because("write_dash", [act()])
            });
        }
        if m.is_promotion() != w.promotion {
            return Err(if m.is_promotion() {
                illegal("the Warrior promotes: write `=H`".into())
                    .because("write_promotion", [act()])
            } else {
                illegal("only a Warrior reaching its last rank promotes".into())
                    .because("no_promotion", [act()])
            });
        }
        Ok(m)
    }

    fn action_key(&self, m: Move) -> usize {
        m.from.index() * SQUARES + m.to.index()
    }
    fn action_key_space(&self) -> usize {
        SQUARES * SQUARES
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    /// The placement hash, plus what the draw rules read: the halfmove
    /// clock and the positions since the last irreversible move.
    fn exact_hash(&self) -> u64 {
        self.hash ^ zobrist::key(HALFMOVE_SEED, u64::from(self.halfmove)) ^ self.history.key()
    }
    fn max_game_actions(&self) -> u64 {
        self.max_plies_left()
    }
    fn render(&self) -> String {
        self.picture()
    }
}

impl Dragonchess {
    /// The long form of the short move `from` `to`: the piece standing
    /// there, and the capture and promotion of the legal move they name (if
    /// none, `parse_action` says why with the long form's checks).
    fn written(&self, from: Square, to: Square) -> moves::Written {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let m = legal.into_iter().find(|m| m.from == from && m.to == to);
        moves::Written {
            kind: self.piece_at(from).map_or(Kind::Warrior, |p| p.kind),
            from,
            to,
            capture: m.is_some_and(|m| m.is_capture()),
            promotion: m.is_some_and(|m| m.is_promotion()),
        }
    }
}
