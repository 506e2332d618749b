//! The position string of spec §2: levels 3|2|1, ranks 8 to 1 separated by
//! `/`, digits for runs of empty squares (`12` is one number), uppercase
//! Gold, lowercase Scarlet, then the side to move (`g`/`s`), the halfmove
//! clock and the fullmove number.

use crate::geometry::{Side, Square, FILES, LEVELS, RANKS};
use crate::options::Options;
use crate::piece::{Kind, Piece};
use crate::state::Dragonchess;
use tabula_core::Error;

/// The start position (spec §2).
pub const START: &str = "2g3r3g1/s1s1s1s1s1s1/12/12/12/12/S1S1S1S1S1S1/2G3R3G1|ouhtcmkpthuo/wwwwwwwwwwww/12/12/12/12/WWWWWWWWWWWW/OUHTCMKPTHUO|2b3e3b1/1d1d1d1d1d1d/12/12/12/12/1D1D1D1D1D1D/2B3E3B1 g 0 1";

impl Dragonchess {
    /// Read a position string; every error names what is wrong.
    pub fn from_position_string(options: Options, text: &str) -> Result<Dragonchess, Error> {
        let bad = |m: String| Error::position(m);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [placement, side, halfmove, fullmove] = fields[..] else {
            return Err(bad(format!(
                "expected 4 fields (placement, side, halfmove clock, fullmove number), got {}",
                fields.len()
            )));
        };
        let mut g = Dragonchess::empty(options);
        let levels: Vec<&str> = placement.split('|').collect();
        if levels.len() != LEVELS {
            return Err(bad(format!(
                "expected 3 levels separated by `|`, got {}",
                levels.len()
            )));
        }
        for (i, level_text) in levels.iter().enumerate() {
            let level = LEVELS - 1 - i;
            let ranks: Vec<&str> = level_text.split('/').collect();
            if ranks.len() != RANKS {
                return Err(bad(format!(
                    "level {} has {} ranks, expected 8",
                    level + 1,
                    ranks.len()
                )));
            }
            for (j, rank_text) in ranks.iter().enumerate() {
                let rank = RANKS - 1 - j;
                let at = format!("level {} rank {}", level + 1, rank + 1);
                for (file, piece) in parse_rank(rank_text).map_err(|m| bad(format!("{at}: {m}")))? {
                    g.put(Square::new(level, file, rank), piece);
                }
            }
        }
        for s in Side::BOTH {
            let kings = g.pieces(s, Kind::King).count();
            if kings != 1 {
                return Err(bad(format!(
                    "{} has {kings} Kings, expected 1",
                    side_name(s)
                )));
            }
        }
        g.set_side(match side {
            "g" => Side::Gold,
            "s" => Side::Scarlet,
            _ => return Err(bad(format!("side to move `{side}`: expected `g` or `s`"))),
        });
        g.halfmove = halfmove
            .parse()
            .map_err(|_| bad(format!("halfmove clock `{halfmove}` is not a number")))?;
        g.fullmove = fullmove
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| bad(format!("fullmove number `{fullmove}` is not a number >= 1")))?;
        if g.king_in_danger(g.side.other()) {
            return Err(bad(format!(
                "{} is in check but it is {}'s turn",
                side_name(g.side.other()),
                side_name(g.side)
            )));
        }
        g.in_check = g.king_in_danger(g.side);
        Ok(g)
    }

    /// Write the position string (reads back identically).
    pub fn position_string(&self) -> String {
        let mut out = String::with_capacity(200);
        for level in (0..LEVELS).rev() {
            for rank in (0..RANKS).rev() {
                let mut run = 0;
                for file in 0..FILES {
                    match self.piece_at(Square::new(level, file, rank)) {
                        None => run += 1,
                        Some(p) => {
                            if run > 0 {
                                out.push_str(&run.to_string());
                                run = 0;
                            }
                            out.push(p.letter());
                        }
                    }
                }
                if run > 0 {
                    out.push_str(&run.to_string());
                }
                if rank > 0 {
                    out.push('/');
                }
            }
            if level > 0 {
                out.push('|');
            }
        }
        let side = match self.side {
            Side::Gold => 'g',
            Side::Scarlet => 's',
        };
        out.push_str(&format!(" {side} {} {}", self.halfmove, self.fullmove));
        out
    }
}

pub fn side_name(s: Side) -> &'static str {
    match s {
        Side::Gold => "Gold",
        Side::Scarlet => "Scarlet",
    }
}

/// The pieces of one rank with their files.
fn parse_rank(text: &str) -> Result<Vec<(usize, Piece)>, String> {
    let mut out = Vec::new();
    let mut file = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(d) = c.to_digit(10) {
            // Greedy: consecutive digits are one number, so runs never touch.
            let bad_run = || format!("bad run of empty squares in `{text}`");
            let mut n = d as usize;
            while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                // Stop before a long run of digits overflows.
                n = n * 10 + d2 as usize;
                if n > FILES {
                    return Err(bad_run());
                }
                chars.next();
            }
            if d == 0 || n > FILES {
                return Err(bad_run());
            }
            file += n;
        } else {
            let p = Piece::from_letter(c).ok_or_else(|| format!("unknown piece `{c}`"))?;
            out.push((file, p));
            file += 1;
        }
        if file > FILES {
            return Err(format!("`{text}` has more than 12 squares"));
        }
    }
    if file != FILES {
        return Err(format!("`{text}` has {file} squares, expected 12"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Dragonchess, Error> {
        Dragonchess::from_position_string(Options::default(), text)
    }

    #[test]
    fn start_round_trips_with_42_pieces_a_side() {
        let g = read(START).unwrap();
        assert_eq!(g.position_string(), START);
        assert_eq!(g.sides[0].count(), 42);
        assert_eq!(g.sides[1].count(), 42);
        assert_eq!(
            g.piece_at(Square::parse("2g8").unwrap()),
            Some(Piece::new(Side::Scarlet, Kind::King))
        );
        assert_eq!(
            g.piece_at(Square::parse("1g1").unwrap()),
            Some(Piece::new(Side::Gold, Kind::Elemental))
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let kings = "12/12/12/12/12/12/12/12|7k4/12/12/12/12/12/12/K11|12/12/12/12/12/12/12/12";
        assert!(read(&format!("{kings} g 0 1")).is_ok());
        let cases = [
            ("", "expected 4 fields"),
            (&format!("{kings} x 0 1"), "side to move"),
            (&format!("{kings} g -1 1"), "halfmove"),
            (&format!("{kings} g 0 0"), "fullmove"),
            (
                &format!("{} g 0 1", kings.replace("K11", "K10")),
                "11 squares",
            ),
            (&format!("{} g 0 1", kings.replace("K11", "K56")), "bad run"),
            (
                &format!("{} g 0 1", kings.replace("K11", "K99999999999999999999999")),
                "bad run",
            ),
            (
                &format!("{} g 0 1", kings.replace("K11", "K011")),
                "bad run",
            ),
            (
                &format!("{} g 0 1", kings.replace("K11", "K11Z")),
                "unknown piece",
            ),
            (
                &format!("{} g 0 1", kings.replace("K11", "K12")),
                "more than 12",
            ),
            (
                &format!("{} g 0 1", kings.replace("K11", "12")),
                "Gold has 0 Kings",
            ),
            (
                &format!("{} g 0 1", kings.replacen("12/", "", 1)),
                "7 ranks",
            ),
            (
                &format!("{} g 0 1", kings.replacen("|", "/", 1)),
                "3 levels",
            ),
            // Scarlet's King in check with Gold to move.
            (
                &format!("{} g 0 1", kings.replace("7k4", "7kQ3")),
                "unknown piece",
            ),
            (
                &format!("{} g 0 1", kings.replace("7k4", "7kO3")),
                "Scarlet is in check",
            ),
        ];
        for (text, expected) in cases {
            let e = read(text)
                .err()
                .unwrap_or_else(|| panic!("accepted `{text}`"));
            assert!(e.message.contains(expected), "`{text}`: {e}");
        }
    }
}
