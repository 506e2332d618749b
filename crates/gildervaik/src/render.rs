//! The terminal picture (spec §1 diagram): one line per row, `.` an empty
//! minefield cell, `:` an empty zone cell, `A` `B` `C` the pawns, then the
//! pawn counts and the counters that end the game (the caller prints whose
//! turn it is).

use crate::geometry::{zone_of, Cell, ROWS};
use crate::options::Mode;
use crate::state::{Gildervaik, SEAT_NAMES};

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
        let c = &self.counters;
        let limits = match self.opts.mode {
            Mode::Conquest => {
                let evacuation = match self.opts.evacuation_turn {
                    Some(t) => format!(", evacuation from turn {t}"),
                    None => String::new(),
                };
                format!(
                    "ply {}/{}; turns {},{},{}{evacuation}",
                    c.ply, self.opts.max_plies, c.turns[0], c.turns[1], c.turns[2]
                )
            }
            Mode::Warrior => format!(
                "plies without capture {}/{}; captures {},{},{}",
                c.nocap, self.opts.no_capture_limit, c.caps[0], c.caps[1], c.caps[2]
            ),
        };
        out.push_str(&format!("pawns {}; {limits}\n", counts.join(", ")));
        out
    }
}
