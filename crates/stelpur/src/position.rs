//! The position string (`docs/rules/reference/README.md`, spec §7):
//!
//! ```text
//! <p1 cells>/<p2 cells> <to move: 1|2> <dice> <rolls without capture> [<turn>]
//! 1,2,3,4,5,6/13,14,15,16,17,18 1 6-1:1,6 0 1
//! ```
//!
//! `<dice>` is `-` or `a-b:<values>[@<cell>][x]`. Reading accepts only
//! positions the engine itself could reach in one stable state, so every
//! string it writes reads back to the same position and is written again
//! identically.

use crate::board::{cells, single, Cell};
use crate::dice::{Left, Roll};
use crate::state::Stelpur;
use tabula_core::{Error, Outcome, Player};

impl Stelpur {
    /// Write the position string.
    pub fn position_string(&self) -> String {
        let list = |mask: u32| {
            cells(mask)
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let dice = match self.roll {
            None => "-".to_string(),
            Some(r) => {
                let vals: Vec<String> = self.left.each().map(|v| v.to_string()).collect();
                let pin = self.pin.map(|c| format!("@{c}")).unwrap_or_default();
                let x = if self.captured { "x" } else { "" };
                format!("{r}:{}{pin}{x}", vals.join(","))
            }
        };
        format!(
            "{}/{} {} {dice} {} {}",
            list(self.pawns[0]),
            list(self.pawns[1]),
            self.to_move + 1,
            self.no_capture,
            self.turn
        )
    }

    /// Read a position string under `opts`.
    pub fn from_position_string(opts: &crate::Options, text: &str) -> Result<Stelpur, Error> {
        let bad = |m: &str| Error::position(format!("`{}`: {m}", text.trim()));
        let f: Vec<&str> = text.split_whitespace().collect();
        if !(4..=5).contains(&f.len()) {
            return Err(bad(
                "expected `<p1 cells>/<p2 cells> <to move> <dice> <rolls without capture> [<turn>]`",
            ));
        }
        let (a, b) = f[0]
            .split_once('/')
            .ok_or_else(|| bad("expected `/` between the two players' cells"))?;
        let mut g = Stelpur::start(opts);
        g.pawns = [
            parse_cells(a).map_err(|m| bad(&m))?,
            parse_cells(b).map_err(|m| bad(&m))?,
        ];
        if g.pawns[0] & g.pawns[1] != 0 {
            return Err(bad("a cell holds pawns of both players"));
        }
        if g.pawns.iter().all(|&m| m == 0) {
            return Err(bad("both players have no pawn"));
        }
        g.to_move = match f[1] {
            "1" => 0,
            "2" => 1,
            _ => return Err(bad("the player to move must be 1 or 2")),
        };
        g.no_capture = f[3]
            .parse()
            .map_err(|_| bad("the rolls without capture must be a number"))?;
        let limit = opts.no_capture_roll_limit;
        if limit > 0 && g.no_capture > limit {
            return Err(bad(&format!(
                "{} rolls without capture is over the limit of {limit}",
                g.no_capture
            )));
        }
        g.turn = match f.get(4) {
            None => 1,
            Some(t) => t
                .parse()
                .ok()
                .filter(|&t| t >= 1)
                .ok_or_else(|| bad("the turn must be a number from 1"))?,
        };
        if f[2] != "-" {
            parse_dice(&mut g, f[2]).map_err(|m| bad(&m))?;
        }
        check_end(&g).map_err(|m| bad(&m))?;
        Ok(g)
    }
}

/// A comma-separated increasing list of cells (possibly empty), at most six.
fn parse_cells(text: &str) -> Result<u32, String> {
    if text.is_empty() {
        return Ok(0);
    }
    let mut mask = 0u32;
    let mut prev = 0;
    for item in text.split(',') {
        let c = item
            .parse::<u8>()
            .ok()
            .and_then(Cell::from_number)
            .ok_or_else(|| format!("bad cell `{item}` (cells are 1 to 24)"))?;
        if c.number() <= prev {
            return Err("cells must be listed in increasing order, each once".into());
        }
        prev = c.number();
        mask |= c.bit();
    }
    if mask.count_ones() > 6 {
        return Err("a player has at most six pawns".into());
    }
    Ok(mask)
}

/// The dice field `a-b:<values>[@<cell>][x]` of a roll in progress.
fn parse_dice(g: &mut Stelpur, text: &str) -> Result<(), String> {
    let shape = || format!("bad dice `{text}` (expected `-` or e.g. `6-1:1,6`)");
    let (roll_text, rest) = text.split_once(':').ok_or_else(shape)?;
    let (hi, lo) = roll_text.split_once('-').ok_or_else(shape)?;
    let (hi, lo): (u8, u8) = (
        hi.parse().map_err(|_| shape())?,
        lo.parse().map_err(|_| shape())?,
    );
    let roll = Roll::new(hi, lo).ok_or_else(shape)?;
    if hi < lo {
        return Err(format!("write the roll high die first: `{roll}`"));
    }
    let (rest, captured) = match rest.strip_suffix('x') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (vals_text, pin) = match rest.split_once('@') {
        Some((v, p)) => (v, Some(p)),
        None => (rest, None),
    };
    let m = g.mover();
    let last = single(g.pawns[m]);
    let full = roll.values(last, &g.opts);
    let not_given = || {
        let all: Vec<String> = full.each().map(|v| v.to_string()).collect();
        format!(
            "roll {roll} does not give the values `{vals_text}` here (it gives [{}])",
            all.join(",")
        )
    };
    let mut left = Left::EMPTY;
    let mut prev = 0;
    for item in vals_text.split(',') {
        let v: u8 = item
            .parse()
            .map_err(|_| format!("bad die value `{item}` in `{text}`"))?;
        if v < prev {
            return Err(format!(
                "die values must be in increasing order in `{text}`"
            ));
        }
        // Each value must be one the roll gives, at most as often: this
        // keeps `left` a sub-multiset of `full` (two distinct values at most).
        if left.count(v) >= full.count(v) {
            return Err(not_given());
        }
        prev = v;
        left = left.with(v, 1);
    }
    let used = left.total() < full.total();
    if captured && (!used || g.no_capture != 0) {
        return Err("`x` needs a die-use made in this roll and 0 rolls without capture".into());
    }
    let needs_pin = g.opts.nondouble_one_pawn && !roll.is_double() && used;
    g.pin = match (pin, needs_pin) {
        (None, false) => None,
        (Some(p), true) => {
            let c = p
                .parse::<u8>()
                .ok()
                .and_then(Cell::from_number)
                .filter(|c| g.pawns[m] & c.bit() != 0)
                .ok_or_else(|| format!("`@{p}` must name a cell of the player to move"))?;
            Some(c)
        }
        (None, true) => {
            return Err(
                "under nondouble_one_pawn a roll in progress names its pawn: `@<cell>`".into(),
            )
        }
        (Some(_), false) => {
            return Err(
                "`@<cell>` only follows a used value of a non-double under nondouble_one_pawn"
                    .into(),
            )
        }
    };
    g.roll = Some(roll);
    g.left = left;
    g.captured = captured;
    if !g.can_use(roll) {
        return Err(format!(
            "no die-use is possible with `{text}`: the roll would already be over"
        ));
    }
    Ok(())
}

/// A finished game shows no dice and names the winner as the side to move.
fn check_end(g: &Stelpur) -> Result<(), String> {
    let limit = g.opts.no_capture_roll_limit;
    if g.roll.is_some() && limit > 0 && g.no_capture >= limit {
        return Err("a roll cannot be in progress at the no-capture limit".into());
    }
    match g.outcome() {
        Some(_) if g.roll.is_some() => Err("the game is over: the dice must be `-`".into()),
        Some(Outcome::Win(w)) if w != Player(g.to_move) => Err(format!(
            "the game is won: the winner ({}) is written as the side to move",
            w.0 + 1
        )),
        _ => Ok(()),
    }
}
