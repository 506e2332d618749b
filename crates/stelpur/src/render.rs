//! A text picture of the 2x12 board for terminals (`tabula show`).
//!
//! ```text
//!       24  23  22  21  20  19   18  17  16  15  14  13
//!  N    ᚹ·   ·   ·   ·   ·  ᚷ· | ᚲO   O   O   O   O  ᚱO
//!  S    ᚠX   X   X   X   X  ᚢX | ᚦ·   ·   ·   ·   ·  ᚨ·
//!        1   2   3   4   5   6    7   8   9  10  11  12
//! ```
//!
//! Rune corners carry their rune; X is player 1 (South), O player 2 (North).

use crate::board::{Cell, CORNERS};
use crate::state::Stelpur;
use tabula_core::{Outcome, Turn};

/// Runes of the corners 1, 6, 7, 12, 13, 18, 19, 24 (Younger Futhark).
const RUNES: [char; 8] = ['ᚠ', 'ᚢ', 'ᚦ', 'ᚨ', 'ᚱ', 'ᚲ', 'ᚷ', 'ᚹ'];
const MARKS: [char; 2] = ['X', 'O'];

impl Stelpur {
    pub fn picture(&self) -> String {
        let row = |first: u8, step: i8, label: &str, numbers: bool| {
            let mut s = format!(" {label}   ");
            for col in 0..12i8 {
                if col == 6 {
                    s.push_str(if numbers { "  " } else { " |" });
                }
                let n = (first as i8 + step * col) as u8;
                let c = Cell::from_number(n).unwrap_or(Cell::from_index(0));
                if numbers {
                    s.push_str(&format!(" {n:>3}"));
                } else {
                    s.push_str(&format!("  {}{}", self.rune(c), self.mark(c)));
                }
            }
            s.trim_end().to_string()
        };
        let mut out = [
            row(24, -1, " ", true),
            row(24, -1, "N", false),
            row(1, 1, "S", false),
            row(1, 1, " ", true),
        ]
        .join("\n");
        out.push('\n');
        out.push_str(&self.status_line());
        out.push('\n');
        out
    }

    fn rune(&self, c: Cell) -> char {
        if CORNERS & c.bit() == 0 {
            return ' ';
        }
        let k = (CORNERS & (c.bit() - 1)).count_ones() as usize;
        RUNES[k]
    }

    fn mark(&self, c: Cell) -> char {
        (0..2)
            .find(|&p| self.pawns[p] & c.bit() != 0)
            .map_or('·', |p| MARKS[p])
    }

    fn status_line(&self) -> String {
        const NAMES: [&str; 2] = ["South (X)", "North (O)"];
        let tail = format!(
            "{} rolls without capture, turn {}",
            self.no_capture, self.turn
        );
        match (self.turn(), self.outcome()) {
            (_, Some(Outcome::Win(p))) => format!("{} wins. {tail}", NAMES[p.index()]),
            (_, Some(Outcome::Draw(_))) => format!("Drawn. {tail}"),
            (Turn::Player(p), _) => {
                let (roll, left) = self
                    .dice()
                    .map_or((String::new(), String::new()), |(r, l)| {
                        let v: Vec<String> = l.each().map(|v| v.to_string()).collect();
                        (r.to_string(), v.join(","))
                    });
                let pin = self
                    .pin
                    .map(|c| format!(" by the pawn on {c}"))
                    .unwrap_or_default();
                format!(
                    "{} to move: dice {roll}, values to use {left}{pin}. {tail}",
                    NAMES[p.index()]
                )
            }
            _ => format!("{} to roll. {tail}", NAMES[self.mover()]),
        }
    }
}
