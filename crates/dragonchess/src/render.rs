//! A terminal picture: the three levels side by side, Gold at the bottom.
//!
//! ```text
//!    Sky (3)                  Ground (2)               Underworld (1)
//!    a b c d e f g h i j k l  a b c d e f g h i j k l  a b c d e f g h i j k l
//!  8 . . g . . . r . . . g .  o u h t c m k p t h u o  . . b . . . e . . . b . 8
//! ```

use crate::geometry::{Side, Square, FILES, LEVELS, RANKS};
use crate::position::side_name;
use crate::rules::Status;
use crate::state::Dragonchess;

const TITLES: [&str; LEVELS] = ["Underworld (1)", "Ground (2)", "Sky (3)"];

impl Dragonchess {
    pub(crate) fn picture(&self) -> String {
        let files: String = (0..FILES)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let width = 2 * FILES - 1;
        let mut out = String::new();
        let titles: Vec<String> = (0..LEVELS)
            .rev()
            .map(|l| format!("{:width$}", TITLES[l]))
            .collect();
        out.push_str(&format!("   {}\n", titles.join("  ").trim_end()));
        let letters = format!("   {}\n", [files.as_str(); LEVELS].join("  "));
        out.push_str(&letters);
        for rank in (0..RANKS).rev() {
            let boards: Vec<String> = (0..LEVELS)
                .rev()
                .map(|level| {
                    (0..FILES)
                        .map(|file| {
                            self.piece_at(Square::new(level, file, rank))
                                .map_or('.', |p| p.letter())
                                .to_string()
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            out.push_str(&format!(
                " {} {} {}\n",
                rank + 1,
                boards.join("  "),
                rank + 1
            ));
        }
        out.push_str(&letters);
        let frozen: Vec<String> = Side::BOTH
            .iter()
            .flat_map(|&s| self.frozen(s).iter())
            .map(|sq| sq.to_string())
            .collect();
        if !frozen.is_empty() {
            out.push_str(&format!("Frozen: {}\n", frozen.join(" ")));
        }
        let mover = side_name(self.side);
        let state = match self.status() {
            Status::Playing if self.in_check => format!("{mover} to move, in check"),
            Status::Playing => format!("{mover} to move"),
            Status::Checkmate => format!("{mover} is checkmated"),
            Status::Stalemate => "Draw by stalemate".to_string(),
            Status::Repetition => "Draw by threefold repetition".to_string(),
            Status::NoCapture => format!(
                "Draw: {} plies without capture or Warrior move",
                self.options.no_capture_plies
            ),
        };
        out.push_str(&format!(
            "{state} (move {}, halfmove clock {})\n",
            self.fullmove, self.halfmove
        ));
        out
    }
}
