//! Move notation (spec §6): `d7-e8` (step or jump move), `e5xe7xf9`
//! (warrior capture path), `pass`. On input a conquest jump may also be
//! given by its full path, `e5-e7-g7` for `e5-g7`.

use crate::geometry::{Cell, Cells, CELLS, NEIGHBOURS};
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
            return Err(Error::empty_action());
        }
        if self.result.is_some() {
            return Err(Error::game_over(&text));
        }
        let mut legal = Vec::new();
        self.generate(&mut legal);
        let illegal = || Error::not_legal(&text);
        if text == "pass" {
            return legal.iter().copied().find(Move::is_pass).ok_or_else(|| {
                Error::illegal("`pass` is only legal without any other move")
                    .because("pass_not_alone", [])
            });
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
                    .because("unreadable", [("action", text.clone())])
                })
            })
            .collect::<Result<_, _>>()?;
        if cells.len() < 2 {
            return Err(Error::notation(format!(
                "`{text}`: expected a move like `d7-e8` or `e5xe7xf9`"
            ))
            .because("unreadable", [("action", text.clone())]));
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

    /// The conquest jumps of the side to move's pawn on `from`: the pawn
    /// lifted, the pawns it may jump over.
    fn jump_board(&self, from: Cell) -> JumpBoard {
        let occ = self.occupied() & !from.bit();
        let centres = if self.opts.jump_own_pawns {
            occ
        } else {
            occ & !self.pawns[self.to_move]
        };
        JumpBoard::new(occ, centres, self.opts.conquest_long_jumps)
    }

    /// Every cell of conquest jump move `m` in order, when it is a chain of
    /// two jumps or more (its notation names only its ends, spec §6): a
    /// shortest chain the rules allow. Empty for any other move.
    pub(crate) fn jump_route(&self, m: Move) -> Vec<Cell> {
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return Vec::new();
        };
        if self.opts.mode != Mode::Conquest
            || !self.opts.chain_jumps
            || m.is_capture()
            || NEIGHBOURS[from.id()] & to.bit() != 0
        {
            return Vec::new();
        }
        let board = self.jump_board(from);
        // Breadth first from `from`: `came[y]` is the cell a jump to y left.
        let mut came = [u8::MAX; CELLS];
        let mut seen = from.bit();
        let mut layer = vec![from];
        while !layer.is_empty() && seen & to.bit() == 0 {
            let mut next = Vec::new();
            for &x in &layer {
                for y in Cells(board.landings(x) & !seen) {
                    if self.may_land(x, y) {
                        seen |= y.bit();
                        came[y.id()] = x.id() as u8;
                        next.push(y);
                    }
                }
            }
            layer = next;
        }
        if seen & to.bit() == 0 {
            return Vec::new();
        }
        let mut route = vec![to];
        while let Some(&x) = route.last().filter(|&&x| x != from) {
            route.push(Cell::of(came[x.id()]));
        }
        route.reverse();
        if route.len() > 2 {
            route
        } else {
            Vec::new()
        }
    }

    /// Whether `cells` is a chain of legal conquest jump segments by the
    /// side to move's pawn on `cells[0]`, never landing twice on a cell.
    fn is_jump_path(&self, cells: &[Cell]) -> bool {
        let seat = self.to_move;
        if self.pawns[seat] & cells[0].bit() == 0 || !self.opts.chain_jumps {
            return false;
        }
        let board = self.jump_board(cells[0]);
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
