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
        if self.turn() == Turn::Over {
            return Err(Error::illegal(format!(
                "`{}`: the game is over",
                text.trim()
            )));
        }
        let illegal = |why: String| Error::illegal(format!("`{}`: {why}", text.trim()));
        let piece = self
            .piece_at(w.from)
            .ok_or_else(|| illegal(format!("no piece on {}", w.from)))?;
        if piece.side != self.side {
            return Err(illegal(format!(
                "the piece on {} is not {}'s",
                w.from,
                side_name(self.side)
            )));
        }
        if piece.kind != w.kind {
            return Err(illegal(format!(
                "{} holds piece `{}` ({}), not `{}`",
                w.from,
                piece.kind.letter(),
                piece.kind.name(),
                w.kind.letter()
            )));
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let m = legal
            .into_iter()
            .find(|m| m.from == w.from && m.to == w.to)
            .ok_or_else(|| illegal(format!("{} cannot go to {} here", w.from, w.to)))?;
        if m.is_capture() != w.capture {
            return Err(illegal(if m.is_capture() {
                "a capture is written with `x`".to_string()
            } else {
                "a move without capture is written with `-`".to_string()
            }));
        }
        if m.is_promotion() != w.promotion {
            return Err(illegal(if m.is_promotion() {
                "the Warrior promotes: write `=H`".to_string()
            } else {
                "only a Warrior reaching its last rank promotes".to_string()
            }));
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
