//! Position strings (spec §9):
//!
//! ```text
//! <ranks 18..1 joined by '/'> <side S|N> [<turn state> [<no-capture> <turn> [draw]]]
//! 18/8r9/18/.../7S10/18/8R9 S                     a turn boundary
//! 18/8r9/18/.../7S10/18/8R9 S S1:h4 3 10          mid-turn, with counters
//! ```
//!
//! Digits are runs of empty squares; `R`/`r` marks a King on the south-west
//! square of its quad (its other quad squares count as empty). The turn
//! state is `-` or `<kind><count>:<acted squares>`. The trailing `draw`
//! (an extension) marks a game drawn at this boundary, since draws cannot be
//! judged from the board alone.

use crate::geometry::{Pt, Sq, SIDE};
use crate::options::{Options, Setup};
use crate::pieces::{cell_kind, cell_side, is_piece, piece_cell, Kind, Side, QUAD};
use crate::state::{Phylde, TurnState};
use crate::zobrist;
use tabula_core::{Error, Outcome};

impl Phylde {
    /// The position string (read back identically by `from_fen`).
    pub fn fen(&self) -> String {
        let mut s = String::with_capacity(128);
        for y in (0..SIDE).rev() {
            let mut empties = 0;
            for x in 0..SIDE {
                match self.fen_char(Sq::new(x, y)) {
                    None => empties += 1,
                    Some(ch) => {
                        if empties > 0 {
                            s += &empties.to_string();
                            empties = 0;
                        }
                        s.push(ch);
                    }
                }
            }
            if empties > 0 {
                s += &empties.to_string();
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.letter());
        let drawn = matches!(self.result, Some(Outcome::Draw(_)));
        let counters = self.no_capture != 0 || self.turn_number != 0 || drawn;
        if self.turn.count > 0 {
            let kind = self.turn.kind.map_or('?', Kind::letter);
            let acted: Vec<String> = self.turn.acted.squares().map(|q| q.to_string()).collect();
            s += &format!(" {kind}{}:{}", self.turn.count, acted.join(","));
        } else if counters {
            s += " -";
        }
        if counters {
            s += &format!(" {} {}", self.no_capture, self.turn_number);
        }
        if drawn {
            s += " draw";
        }
        s
    }

    fn fen_char(&self, sq: Sq) -> Option<char> {
        let c = self.board[sq.index()];
        if is_piece(c) {
            let ch = cell_kind(c).letter();
            return Some(match cell_side(c) {
                Side::South => ch,
                Side::North => ch.to_ascii_lowercase(),
            });
        }
        if c >= QUAD {
            let side = Side::from_index((c - QUAD) as usize);
            if self.kings[side.index()].sw() == sq {
                return Some(match side {
                    Side::South => 'R',
                    Side::North => 'r',
                });
            }
        }
        None
    }

    /// Read a position string, validating it (and, under `setup=free`, a
    /// start position as a free placement of spec §4).
    pub fn from_fen(options: Options, text: &str) -> Result<Phylde, Error> {
        let bad = |msg: String| Error::position(format!("`{}`: {msg}", text.trim()));
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !matches!(fields.len(), 2 | 3 | 5 | 6) {
            return Err(bad(
                "expected `<board> <S|N> [<turn state> [<no-capture> <turn> [draw]]]`".into(),
            ));
        }
        let mut g = Phylde::empty(options);
        let kings = read_board(&mut g, fields[0]).map_err(bad)?;
        place_kings(&mut g, kings).map_err(bad)?;
        for side in [Side::South, Side::North] {
            for kind in Kind::ON_SQUARES {
                let n = g.pieces[side.index()][kind.index()].len();
                if n > kind.full_count() as usize {
                    return Err(bad(format!(
                        "{} has {n} pieces `{}` (at most {})",
                        side.name(),
                        kind.letter(),
                        kind.full_count()
                    )));
                }
            }
        }
        g.set_side(match fields[1] {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            f => return Err(bad(format!("side to move `{f}` is not S or N"))),
        });
        if let Some(&ts) = fields.get(2) {
            read_turn_state(&mut g, ts).map_err(bad)?;
        }
        if fields.len() >= 5 {
            g.no_capture = fields[3]
                .parse()
                .map_err(|_| bad(format!("bad no-capture count `{}`", fields[3])))?;
            g.turn_number = fields[4]
                .parse()
                .map_err(|_| bad(format!("bad turn number `{}`", fields[4])))?;
        }
        let drawn = match fields.get(5) {
            None => false,
            Some(&"draw") if g.turn.count == 0 => true,
            Some(&"draw") => return Err(bad("a draw happens only at a turn boundary".into())),
            Some(f) => return Err(bad(format!("unexpected `{f}` (only `draw` may follow)"))),
        };
        let placement = g.turn.count == 0 && g.turn_number == 0 && g.no_capture == 0 && !drawn;
        if options.setup == Setup::Free && placement {
            check_free_placement(&g).map_err(bad)?;
        }
        g.judge_read(drawn);
        if drawn && !matches!(g.result, Some(Outcome::Draw(_))) {
            return Err(bad("a drawn position cannot have a surrounded King".into()));
        }
        if let Some(kind) = g.turn.kind {
            if g.turn.count >= kind.turn_limit() && g.result.is_none() {
                return Err(bad(format!(
                    "a turn of `{}` ends after {} action(s)",
                    kind.letter(),
                    kind.turn_limit()
                )));
            }
        }
        Ok(g)
    }
}

/// Fill the pieces of the board field; returns the King markers' squares.
fn read_board(g: &mut Phylde, field: &str) -> Result<[Option<Sq>; 2], String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != SIDE {
        return Err(format!("expected 18 ranks, found {}", ranks.len()));
    }
    let mut kings = [None; 2];
    for (i, rank) in ranks.iter().enumerate() {
        let y = SIDE - 1 - i;
        let mut x = 0;
        let mut run = 0usize;
        let width_error = || format!("rank {} is not 18 squares wide", y + 1);
        for ch in rank.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                if run == 0 || run > SIDE {
                    return Err(format!("bad run of empty squares in rank {}", y + 1));
                }
                continue;
            }
            x += std::mem::take(&mut run);
            if x >= SIDE {
                return Err(width_error());
            }
            let side = if ch.is_ascii_uppercase() {
                Side::South
            } else {
                Side::North
            };
            let sq = Sq::new(x, y);
            match Kind::from_letter(ch) {
                Some(Kind::King) => {
                    if kings[side.index()].replace(sq).is_some() {
                        return Err(format!("{} has two Kings", side.name()));
                    }
                }
                Some(kind) => g.put(sq.index(), piece_cell(side, kind)),
                None => return Err(format!("unknown piece `{ch}` (use S A C R, s a c r)")),
            }
            x += 1;
        }
        if x + run != SIDE {
            return Err(width_error());
        }
    }
    Ok(kings)
}

fn place_kings(g: &mut Phylde, kings: [Option<Sq>; 2]) -> Result<(), String> {
    for side in [Side::South, Side::North] {
        let sq = kings[side.index()].ok_or_else(|| format!("{} has no King", side.name()))?;
        let p = Pt::from_sw(sq).ok_or_else(|| {
            format!(
                "King on {sq}: a King stands on an interior point, so never on file r or rank 18"
            )
        })?;
        for q in p.quad() {
            match g.board[q.index()] {
                0 => {}
                c if c >= QUAD => return Err("the two Kings' quads overlap".into()),
                _ => {
                    return Err(format!(
                        "the quad of the King on {p} must be empty ({q} is not)"
                    ))
                }
            }
        }
        g.set_king(side, p);
    }
    Ok(())
}

fn read_turn_state(g: &mut Phylde, field: &str) -> Result<(), String> {
    if field == "-" {
        return Ok(());
    }
    let bad = || format!("bad turn state `{field}` (expected `-` or e.g. `S2:e6,g7`)");
    let (head, list) = field.split_once(':').ok_or_else(bad)?;
    let mut chars = head.chars();
    let kind = chars.next().and_then(Kind::from_letter).ok_or_else(bad)?;
    let count: u8 = chars.as_str().parse().map_err(|_| bad())?;
    if count == 0 || count > kind.turn_limit() {
        return Err(format!(
            "a turn of `{}` has 1 to {} action(s), not {count}",
            kind.letter(),
            kind.turn_limit()
        ));
    }
    let me = g.side;
    let mut state = TurnState {
        kind: Some(kind),
        count,
        ..TurnState::default()
    };
    for name in list.split(',') {
        let sq = Sq::parse(name).ok_or_else(|| format!("bad acted square `{name}`"))?;
        let holds_it = match kind {
            Kind::King => g.kings[me.index()].sw() == sq,
            _ => g.board[sq.index()] == piece_cell(me, kind),
        };
        if !holds_it {
            return Err(format!(
                "acted square {sq} does not hold a {} piece `{}`",
                me.name(),
                kind.letter()
            ));
        }
        if state.acted.contains(sq.index()) {
            return Err(format!("acted square {sq} listed twice"));
        }
        state.acted.insert(sq.index());
    }
    if state.acted.len() != count as usize {
        return Err(format!(
            "turn state counts {count} action(s) but lists {} square(s)",
            state.acted.len()
        ));
    }
    g.turn = state;
    g.turn_hash = zobrist::turn_kind(kind)
        ^ zobrist::turn_count(count)
        ^ state.acted.iter().fold(0, |h, q| h ^ zobrist::acted(q));
    Ok(())
}

/// Spec §4: each side places its whole army in its own half (South ranks
/// 1–9, North ranks 10–18), its King's quad included.
fn check_free_placement(g: &Phylde) -> Result<(), String> {
    let half = |side: Side, y: usize| match side {
        Side::South => y < SIDE / 2,
        Side::North => y >= SIDE / 2,
    };
    for side in [Side::South, Side::North] {
        let ranks = match side {
            Side::South => "1-9",
            Side::North => "10-18",
        };
        for kind in Kind::ON_SQUARES {
            let set = g.pieces[side.index()][kind.index()];
            if set.len() != kind.full_count() as usize {
                return Err(format!(
                    "setup=free: {} must place {} pieces `{}`, not {} (a later position needs its counters, e.g. `- 0 1`)",
                    side.name(),
                    kind.full_count(),
                    kind.letter(),
                    set.len()
                ));
            }
            if let Some(sq) = set.squares().find(|s| !half(side, s.y())) {
                return Err(format!(
                    "setup=free: {} piece on {sq} is outside its half (ranks {ranks})",
                    side.name()
                ));
            }
        }
        let king = g.kings[side.index()];
        if king.quad().iter().any(|q| !half(side, q.y())) {
            return Err(format!(
                "setup=free: the {} King's quad at {king} is outside its half (ranks {ranks})",
                side.name()
            ));
        }
    }
    Ok(())
}
