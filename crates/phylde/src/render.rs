//! The terminal picture: squares in ranks, each King drawn on its goban
//! point between the ranks and files of its quad (`#` marks quad squares).
//!
//! ```text
//!      a b c d e f g h i j k l m n o p q r
//!  18  . . . . . . . . # # . . . . . . . .  18
//!                       r
//!  17  . . . . . . . . # # . . . . . . . .  17
//! ```

use crate::geometry::{Sq, SIDE};
use crate::pieces::{cell_kind, cell_side, is_piece, Side, QUAD};
use crate::state::Phylde;
use tabula_core::Outcome;

const FILES: &str = "     a b c d e f g h i j k l m n o p q r\n";

impl Phylde {
    /// The board, the Kings on their points, and the game status.
    pub fn picture(&self) -> String {
        let mut s = String::from(FILES);
        for y in (0..SIDE).rev() {
            s += &format!("{:>3}  ", y + 1);
            for x in 0..SIDE {
                let c = self.board[Sq::new(x, y).index()];
                let ch = if is_piece(c) {
                    let l = cell_kind(c).letter();
                    match cell_side(c) {
                        Side::South => l,
                        Side::North => l.to_ascii_lowercase(),
                    }
                } else if c >= QUAD {
                    '#'
                } else {
                    '.'
                };
                s.push(ch);
                s.push(' ');
            }
            s += &format!(" {}\n", y + 1);
            // Kings whose point lies between this rank and the one below.
            let mut line = vec![b' '; 5 + 2 * SIDE];
            for (side, letter) in [(Side::South, b'R'), (Side::North, b'r')] {
                let p = self.kings[side.index()];
                if p.y() == y {
                    line[4 + 2 * p.x()] = letter;
                }
            }
            if line.iter().any(|&b| b != b' ') {
                s += String::from_utf8_lossy(&line).trim_end();
                s.push('\n');
            }
        }
        s += FILES;
        s += &self.status();
        s
    }

    fn status(&self) -> String {
        let kings = format!("Kings: South {}, North {}", self.kings[0], self.kings[1]);
        let play = match self.result {
            Some(Outcome::Win(p)) => format!("{} wins", Side::from_index(p.index()).name()),
            Some(Outcome::Draw(_)) => "draw".to_string(),
            None => {
                let mut t = format!("{} to move", self.side.name());
                if let Some(kind) = self.turn.kind {
                    let acted: Vec<String> =
                        self.turn.acted.squares().map(|q| q.to_string()).collect();
                    t += &format!(
                        ", turn of {} {}/{} (acted: {})",
                        kind.letter(),
                        self.turn.count,
                        kind.turn_limit(),
                        acted.join(" ")
                    );
                }
                t
            }
        };
        format!(
            "{kings}. {play}. Turns played {}; {}.\n",
            self.turn_number,
            self.no_capture_text()
        )
    }

    /// The no-capture count as a player reads it: completed turns only (the
    /// position string also counts the turn in progress once it has acted),
    /// and a warning when this turn, ending without a capture, makes the draw.
    /// The draw is judged at the turn end, so a later capture still avoids it.
    pub fn no_capture_text(&self) -> String {
        let limit = self.options.no_capture_turns;
        let acted = self.turn.count > 0;
        // Mid-turn the count is 0 exactly when this turn has captured.
        if acted && self.no_capture == 0 {
            return format!("turns without capture: 0/{limit} (this turn has captured)");
        }
        let completed = self.no_capture - u16::from(acted);
        let mut t = format!("turns without capture: {completed}/{limit}");
        if self.result.is_none() && completed + 1 >= limit {
            t += " \u{2014} a draw if this turn ends without a capture";
        }
        t
    }
}
