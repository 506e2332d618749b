//! The action type: one move, and its long notation (spec §7).
//!
//! `<Piece><from><-|x><to>[=H][+|#]`, e.g. `W2e2-2e3`, `R3f5x2f4` (the
//! Dragon captures from afar and stays), `W2c7-2c8=H`.

use crate::geometry::Square;
use crate::piece::Kind;
use tabula_core::Error;

/// One move: squares plus what kind of move it is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub flags: u8,
}

impl Move {
    /// An enemy piece is taken on `to`.
    pub const CAPTURE: u8 = 1;
    /// A Warrior reaches its last rank and becomes a Hero.
    pub const PROMOTION: u8 = 2;
    /// The Dragon captures on `to` from afar without moving.
    pub const REMOTE: u8 = 4;

    pub fn is_capture(self) -> bool {
        self.flags & Move::CAPTURE != 0
    }
    pub fn is_promotion(self) -> bool {
        self.flags & Move::PROMOTION != 0
    }
    pub fn is_remote(self) -> bool {
        self.flags & Move::REMOTE != 0
    }

    /// The long notation, without the check suffix.
    pub fn text(self, kind: Kind) -> String {
        format!(
            "{}{}{}{}{}",
            kind.letter(),
            self.from,
            if self.is_capture() { 'x' } else { '-' },
            self.to,
            if self.is_promotion() { "=H" } else { "" }
        )
    }
}

/// A move as written, before it is matched with the legal moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Written {
    pub kind: Kind,
    pub from: Square,
    pub to: Square,
    pub capture: bool,
    pub promotion: bool,
}

/// The short form chess programs use (UCI's `e2e4`): the from and to
/// squares, `2e22e3`, optionally `2e2-2e3` / `3f5x2f4`, and `h` or `=H` for a
/// promotion. The two squares name at most one legal move, so the piece
/// letter, the capture mark and the promotion are read from it.
pub fn parse_short(text: &str) -> Option<(Square, Square)> {
    let t = text.trim().to_ascii_lowercase();
    if !t.is_ascii() {
        return None;
    }
    let t = t.strip_suffix(['+', '#']).unwrap_or(&t);
    let t = t
        .strip_suffix("=h")
        .or_else(|| t.strip_suffix('h'))
        .unwrap_or(t);
    let (from, to) = match t.len() {
        6 => (&t[..3], &t[3..]),
        7 if matches!(&t[3..4], "-" | "x") => (&t[..3], &t[4..]),
        _ => return None,
    };
    Some((Square::parse(from)?, Square::parse(to)?))
}

/// Parse the long notation (case-insensitive; a trailing `+` or `#` is
/// accepted and ignored).
pub fn parse(text: &str) -> Result<Written, Error> {
    let t = text.trim();
    let bad = || {
        Error::notation(format!(
            "`{t}`: expected a move like `W2e2-2e3`, `R3f5x2f4`, `W2c7-2c8=H` or `2e22e3`"
        ))
        .because("unreadable", [("action", t.into())])
    };
    // Only ASCII from here on, so byte offsets are char boundaries.
    if !t.is_ascii() {
        return Err(bad());
    }
    let core = t.strip_suffix(['+', '#']).unwrap_or(t);
    let (core, promotion) = match core.strip_suffix("=H").or(core.strip_suffix("=h")) {
        Some(head) => (head, true),
        None => (core, false),
    };
    if core.len() != 8 {
        return Err(bad());
    }
    let kind = core
        .chars()
        .next()
        .and_then(Kind::from_letter)
        .ok_or_else(bad)?;
    let lower = core.to_ascii_lowercase();
    let from = Square::parse(&lower[1..4]).ok_or_else(bad)?;
    let capture = match &lower[4..5] {
        "-" => false,
        "x" => true,
        _ => return Err(bad()),
    };
    let to = Square::parse(&lower[5..8]).ok_or_else(bad)?;
    Ok(Written {
        kind,
        from,
        to,
        capture,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_spec_examples() {
        for text in [
            "W2e2-2e3",
            "R3g1x3a7",
            "H2c1-3b2",
            "P2h1-1f1",
            "E1g1-1g3",
            "S2j4-3a2",
            "W2c7-2c8=H",
            "D1e4x2e4",
            "R3f5x2f4",
        ] {
            let w = parse(text).unwrap();
            let m = Move {
                from: w.from,
                to: w.to,
                flags: (u8::from(w.capture) * Move::CAPTURE)
                    | (u8::from(w.promotion) * Move::PROMOTION),
            };
            assert_eq!(m.text(w.kind), text);
        }
        let w = parse(" r3f5X2F4# ").unwrap();
        assert_eq!((w.kind, w.capture), (Kind::Dragon, true));
    }

    #[test]
    fn rejects_malformed_text() {
        for text in [
            "",
            "W2e2",
            "W2e22e3",
            "Q2e2-2e3",
            "W2e2*2e3",
            "W4e2-2e3",
            "W2e2-2e3=Q",
            "W2e2-2e3+#",
            "W2m2-2e3",
            "é2e2-2e3",
            "S😀",
            "W2e2-2é3",
            "W2e2-2e😀",
            "😀",
            "é",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
