//! The terminal picture (spec §1 diagram): one line per row, `.` an empty
//! minefield cell, `:` an empty zone cell, `A` `B` `C` the pawns, then who
//! is to move (or the result) and the counters.

use crate::geometry::{zone_of, Cell, ROWS};
use crate::state::{Gildervaik, SEAT_NAMES};
use tabula_core::Outcome;

impl Gildervaik {
    pub(crate) fn picture(&self) -> String {
        let mut out = String::new();
        for r in 0..ROWS as i32 {
            out.push((b'a' + r as u8) as char);
            out.push_str(&" ".repeat(10 - r as usize));
            for c in 0..=2 * r {
                let Some(x) = Cell::at(r, c) else { continue };
                let ch = match self.owner(x) {
                    Some(s) => SEAT_NAMES[s].chars().next().unwrap_or('?'),
                    None if zone_of(x).is_some() => ':',
                    None => '.',
                };
                out.push(ch);
            }
            out.push('\n');
        }
        let counts: Vec<String> = (0..3)
            .map(|s| format!("{} {}", SEAT_NAMES[s], self.pawns[s].count_ones()))
            .collect();
        let status = match self.result {
            None => format!("{} to move", SEAT_NAMES[self.to_move]),
            Some(Outcome::Win(p)) => format!("{} wins", SEAT_NAMES[p.index()]),
            Some(Outcome::Draw(set)) => {
                let names: Vec<&str> = set.iter().map(|p| SEAT_NAMES[p.index()]).collect();
                format!("draw between {}", names.join(", "))
            }
        };
        out.push_str(&format!(
            "{status}; pawns {}; ply {}",
            counts.join(", "),
            self.counters.ply
        ));
        out.push('\n');
        out
    }
}
