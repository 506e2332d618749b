//! Move notation (spec §6): `d7-e8` (step or jump move), `e5xe7xf9`
//! (warrior capture path), `pass`. On input a conquest jump may also be
//! given by its full path, `e5-e7-g7` for `e5-g7`.

use crate::geometry::Cell;
use crate::jumps::JumpBoard;
use crate::moves::Move;
use crate::options::Mode;
use crate::state::Gildervaik;
use tabula_core::Error;

impl Gildervaik {
    /// The text of a move.
    pub(crate) fn move_text(m: Move) -> String {
        let Some(from) = m.from() else {
            return "pass".into();
        };
        let sep = if m.is_capture() { "x" } else { "-" };
        let mut text = from.to_string();
        for x in m.landings() {
            text.push_str(sep);
            text.push_str(&x.to_string());
        }
        text
    }

    /// Read a move and check it is legal here.
    pub(crate) fn read_move(&self, text: &str) -> Result<Move, Error> {
        let text = text.trim().to_ascii_lowercase();
        if text.is_empty() {
            return Err(Error::notation("empty action"));
        }
        if self.result.is_some() {
            return Err(Error::illegal(format!("`{text}`: the game is over")));
        }
        let mut legal = Vec::new();
        self.generate(&mut legal);
        let illegal = || Error::illegal(format!("`{text}` is not legal here"));
        if text == "pass" {
            return legal
                .iter()
                .copied()
                .find(Move::is_pass)
                .ok_or_else(|| Error::illegal("`pass` is only legal without any other move"));
        }
        let capture = text.contains('x');
        let sep = if capture { 'x' } else { '-' };
        let cells: Vec<Cell> = text
            .split(sep)
            .map(|name| {
                Cell::parse(name).ok_or_else(|| {
                    Error::notation(format!(
                        "`{text}`: bad cell `{name}` (expected e.g. `d7-e8`, `e5xe7xf9` or `pass`)"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        if cells.len() < 2 {
            return Err(Error::notation(format!(
                "`{text}`: expected a move like `d7-e8` or `e5xe7xf9`"
            )));
        }
        let path_matches =
            |m: &Move| m.from() == Some(cells[0]) && m.landings().eq(cells[1..].iter().copied());
        if let Some(&m) = legal
            .iter()
            .find(|m| m.is_capture() == capture && path_matches(m))
        {
            return Ok(m);
        }
        if capture {
            return Err(illegal());
        }
        // A warrior capture written with `-`, or a conquest jump by its path.
        if let Some(&m) = legal.iter().find(|m| path_matches(m)) {
            return Ok(m);
        }
        if cells.len() > 2 && self.opts.mode == Mode::Conquest && self.is_jump_path(&cells) {
            let (from, to) = (cells[0], cells[cells.len() - 1]);
            if let Some(&m) = legal
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == Some(to))
            {
                return Ok(m);
            }
        }
        Err(illegal())
    }

    /// Whether `cells` is a chain of legal conquest jump segments by the
    /// side to move's pawn on `cells[0]`, never landing twice on a cell.
    fn is_jump_path(&self, cells: &[Cell]) -> bool {
        let seat = self.to_move;
        if self.pawns[seat] & cells[0].bit() == 0 || !self.opts.chain_jumps {
            return false;
        }
        let occ = self.occupied() & !cells[0].bit();
        let centres = if self.opts.jump_own_pawns {
            occ
        } else {
            occ & !self.pawns[seat]
        };
        let board = JumpBoard::new(occ, centres, self.opts.conquest_long_jumps);
        let mut visited = cells[0].bit();
        cells.windows(2).all(|pair| {
            let (x, to) = (pair[0], pair[1]);
            let segment_ok = board.landings(x) & to.bit() != 0;
            let fresh = visited & to.bit() == 0;
            visited |= to.bit();
            segment_ok && fresh && self.may_land(x, to)
        })
    }
}
