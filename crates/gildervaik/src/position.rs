//! The position string of spec §6:
//!
//! ```text
//! A:e3,e5 B:e6,f5 C:f7,g6 / A
//! A:e3 B:j19 C:j1 / B ply=178 turns=60,59,59
//! ```
//!
//! Players with pawns, cells in id order, the side to move after `/`, then
//! the non-zero counters in the order `ply turns nocap passes caps`.

use crate::geometry::{Cell, Cells, Seat, ZONES};
use crate::options::{Blocked, Options, StartCells};
use crate::state::{Counters, Gildervaik, PAWNS, SEAT_NAMES};
use tabula_core::Error;

/// Counter values above this are rejected (keeps every increment in range).
const MAX_COUNTER: u32 = 1_000_000_000;

fn seat_of(letter: &str) -> Option<Seat> {
    SEAT_NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(letter))
}

fn cell_list(cells: Cells) -> String {
    cells.map(|c| c.to_string()).collect::<Vec<_>>().join(",")
}

fn number(text: &str, key: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| n <= MAX_COUNTER)
        .ok_or_else(|| format!("bad number `{text}` for `{key}`"))
}

fn triple(text: &str, key: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 3 {
        return Err(format!("`{key}` needs three numbers (A,B,C), got `{text}`"));
    }
    Ok([
        number(parts[0], key)?,
        number(parts[1], key)?,
        number(parts[2], key)?,
    ])
}

/// The counters suffix, `key=value` fields in the canonical order.
fn parse_counters<'a>(fields: impl Iterator<Item = &'a str>) -> Result<Counters, String> {
    const KEYS: [&str; 5] = ["ply", "turns", "nocap", "passes", "caps"];
    let mut c = Counters::default();
    let mut seen = [false; 5];
    for field in fields {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| format!("expected `key=value` after the side to move, got `{field}`"))?;
        let key = key.to_ascii_lowercase();
        let i = KEYS
            .iter()
            .position(|&k| k == key)
            .ok_or_else(|| format!("unknown counter `{key}` (valid: {})", KEYS.join(", ")))?;
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!("counter `{key}` given twice"));
        }
        match i {
            0 => c.ply = number(value, &key)?,
            1 => c.turns = triple(value, &key)?,
            2 => c.nocap = number(value, &key)?,
            3 => c.passes = number(value, &key)?,
            _ => c.caps = triple(value, &key)?,
        }
    }
    if c.passes > 3 {
        return Err("`passes` counts at most 3 players".into());
    }
    Ok(c)
}

/// The pawn groups before `/`: `A:e3,e5 B:e6`.
fn parse_pawns(text: &str) -> Result<[u128; 3], String> {
    let mut pawns = [0u128; 3];
    let mut seen = [false; 3];
    for group in text.split_whitespace() {
        let (letter, cells) = group
            .split_once(':')
            .ok_or_else(|| format!("expected `A:cell,cell`, got `{group}`"))?;
        let seat = seat_of(letter).ok_or_else(|| format!("unknown player `{letter}`"))?;
        if std::mem::replace(&mut seen[seat], true) {
            return Err(format!("player {} listed twice", SEAT_NAMES[seat]));
        }
        for name in cells.split(',').filter(|s| !s.is_empty()) {
            let x = Cell::parse(name).ok_or_else(|| format!("bad cell `{name}`"))?;
            if (pawns[0] | pawns[1] | pawns[2]) & x.bit() != 0 {
                return Err(format!("cell {x} holds two pawns"));
            }
            pawns[seat] |= x.bit();
        }
        if pawns[seat].count_ones() > PAWNS {
            return Err(format!(
                "player {} has more than {PAWNS} pawns",
                SEAT_NAMES[seat]
            ));
        }
    }
    Ok(pawns)
}

impl Gildervaik {
    /// Read a position string (see the module doc).
    pub(crate) fn parse_position(opts: Options, text: &str) -> Result<Gildervaik, Error> {
        Self::parse_inner(opts, text).map_err(|m| Error::position(format!("`{text}`: {m}")))
    }

    fn parse_inner(opts: Options, text: &str) -> Result<Gildervaik, String> {
        let (left, right) = text
            .split_once('/')
            .ok_or("expected `/` and the side to move, e.g. `A:e3 B:e6 C:f7 / A`")?;
        let pawns = parse_pawns(left)?;
        let mut fields = right.split_whitespace();
        let side = fields.next().ok_or("missing the side to move after `/`")?;
        let to_move = seat_of(side).ok_or_else(|| format!("bad side to move `{side}`"))?;
        let counters = parse_counters(fields)?;
        if pawns[to_move] == 0 {
            return Err(format!(
                "the side to move, {}, has no pawns",
                SEAT_NAMES[to_move]
            ));
        }
        if opts.start_cells == StartCells::Free && counters == Counters::default() {
            // A start placement: ten pawns per player in his own zone.
            for (seat, &set) in pawns.iter().enumerate() {
                if set.count_ones() != PAWNS || set & !ZONES[seat] != 0 {
                    return Err(format!(
                        "start_cells=free: player {} must place {PAWNS} pawns in his own zone",
                        SEAT_NAMES[seat]
                    ));
                }
            }
        }
        let mut game = Gildervaik::assemble(opts, pawns, to_move, counters);
        game.result = game.readable_result();
        if opts.blocked_player == Blocked::Eliminated {
            game.eliminate_blocked();
        }
        Ok(game)
    }

    /// Write the canonical position string.
    pub(crate) fn write_position(&self) -> String {
        let mut out: Vec<String> = (0..3)
            .filter(|&s| self.pawns[s] != 0)
            .map(|s| format!("{}:{}", SEAT_NAMES[s], cell_list(Cells(self.pawns[s]))))
            .collect();
        out.push("/".into());
        out.push(SEAT_NAMES[self.to_move].into());
        let c = &self.counters;
        let triple = |t: [u32; 3]| format!("{},{},{}", t[0], t[1], t[2]);
        if c.ply != 0 {
            out.push(format!("ply={}", c.ply));
        }
        if c.turns != [0; 3] {
            out.push(format!("turns={}", triple(c.turns)));
        }
        if c.nocap != 0 {
            out.push(format!("nocap={}", c.nocap));
        }
        if c.passes != 0 {
            out.push(format!("passes={}", c.passes));
        }
        if c.caps != [0; 3] {
            out.push(format!("caps={}", triple(c.caps)));
        }
        out.join(" ")
    }
}
