//! A deliberately naive second move generator, written straight from the
//! spec's piece texts: a vector of 288 cells, loops over offsets, and
//! legality by playing the move on a copy and asking every enemy piece
//! whether it could capture the King. No bitboards, no tables, no pins.
#![allow(dead_code)]

use dragonchess::{Dragonchess, Move, Options, Square};
use tabula_core::Game;

pub type Cell = Option<(usize, char)>; // (side 0 Gold / 1 Scarlet, uppercase letter)

#[derive(Clone)]
pub struct Naive {
    pub cells: Vec<Cell>,
    pub side: usize,
    pub halfmove: u32,
    pub opts: Options,
}

/// A generated move: from, to (indices), capture, promotion, remote.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Mv {
    pub from: usize,
    pub to: usize,
    pub capture: bool,
    pub promotion: bool,
    pub remote: bool,
}

fn idx(l: i32, f: i32, r: i32) -> usize {
    (l * 96 + r * 12 + f) as usize
}

fn inside(l: i32, f: i32, r: i32) -> bool {
    (0..3).contains(&l) && (0..12).contains(&f) && (0..8).contains(&r)
}

fn coords(i: usize) -> (i32, i32, i32) {
    let i = i as i32;
    (i / 96, i % 12, (i % 96) / 12)
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Mc,
    M,
    C,
}

impl Naive {
    pub fn from_game(g: &Dragonchess) -> Naive {
        let cells = (0..288)
            .map(|i| {
                g.piece_at(Square::from_index(i))
                    .map(|p| (p.side as usize, p.kind.letter()))
            })
            .collect();
        let fields: Vec<String> = g.position().split(' ').map(String::from).collect();
        Naive {
            cells,
            side: if fields[1] == "g" { 0 } else { 1 },
            halfmove: fields[2].parse().unwrap(),
            opts: *g.options(),
        }
    }

    fn at(&self, l: i32, f: i32, r: i32) -> Cell {
        if inside(l, f, r) {
            self.cells[idx(l, f, r)]
        } else {
            None
        }
    }

    /// Whether the piece at index i is frozen (on the Ground above an enemy Basilisk).
    fn frozen(&self, i: usize) -> bool {
        let (l, f, r) = coords(i);
        let Some((s, _)) = self.cells[i] else {
            return false;
        };
        l == 1 && self.at(0, f, r) == Some((1 - s, 'B'))
    }

    /// Candidate moves of the piece on index i, ignoring its own King's safety.
    fn piece_moves(&self, i: usize, out: &mut Vec<Mv>) {
        let Some((side, letter)) = self.cells[i] else {
            return;
        };
        let (l, f, r) = coords(i);
        let fwd = if side == 0 { 1 } else { -1 };
        let add = |out: &mut Vec<Mv>, dl: i32, df: i32, dr: i32, mode: Mode| {
            let (tl, tf, tr) = (l + dl, f + df, r + dr * fwd);
            if !inside(tl, tf, tr) {
                return;
            }
            let to = idx(tl, tf, tr);
            let promotion = letter == 'W' && tr == if side == 0 { 7 } else { 0 };
            match self.cells[to] {
                None if mode != Mode::C => out.push(Mv {
                    from: i,
                    to,
                    capture: false,
                    promotion,
                    remote: false,
                }),
                Some((s, _)) if s != side && mode != Mode::M => out.push(Mv {
                    from: i,
                    to,
                    capture: true,
                    promotion,
                    remote: false,
                }),
                _ => {}
            }
        };
        let slide = |out: &mut Vec<Mv>, df: i32, dr: i32| {
            let mut k = 1;
            while inside(l, f + k * df, r + k * dr) {
                let to = idx(l, f + k * df, r + k * dr);
                match self.cells[to] {
                    None => out.push(Mv {
                        from: i,
                        to,
                        capture: false,
                        promotion: false,
                        remote: false,
                    }),
                    Some((s, _)) => {
                        if s != side {
                            out.push(Mv {
                                from: i,
                                to,
                                capture: true,
                                promotion: false,
                                remote: false,
                            });
                        }
                        break;
                    }
                }
                k += 1;
            }
        };
        let signs = [-1, 1];
        let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let kings8: Vec<(i32, i32)> = orth.iter().chain(diag.iter()).copied().collect();
        let knight = [
            (1, 2),
            (1, -2),
            (-1, 2),
            (-1, -2),
            (2, 1),
            (2, -1),
            (-2, 1),
            (-2, -1),
        ];
        // Towards the Ground from an outer level.
        let home = if l == 0 { 1 } else { -1 };
        use Mode::*;
        match (letter, l) {
            ('S', 2) => {
                add(out, 0, -1, 1, M);
                add(out, 0, 1, 1, M);
                add(out, 0, 0, 1, C);
                add(out, -1, 0, 0, C);
            }
            ('S', 1) => {
                add(out, 1, 0, 0, M);
                let hr = if side == 0 { 1 } else { 6 };
                for hf in (0..12).step_by(2) {
                    let to = idx(2, hf, hr);
                    let dup = hf == f && hr == r;
                    if self.cells[to].is_none() && !dup {
                        out.push(Mv {
                            from: i,
                            to,
                            capture: false,
                            promotion: false,
                            remote: false,
                        });
                    }
                }
            }
            ('G', 2) => {
                for a in signs {
                    for b in signs {
                        add(out, 0, 2 * a, 3 * b, Mc);
                        add(out, 0, 3 * a, 2 * b, Mc);
                        add(out, -1, a, b, Mc);
                    }
                }
            }
            ('G', 1) => {
                for a in signs {
                    for b in signs {
                        add(out, 0, a, b, Mc);
                        add(out, 1, a, b, Mc);
                    }
                }
            }
            ('R', 2) => {
                for (df, dr) in diag {
                    slide(out, df, dr);
                }
                for (df, dr) in orth {
                    add(out, 0, df, dr, Mc);
                }
                for (df, dr) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                    if let Some((s, _)) = self.at(1, f + df, r + dr) {
                        if s != side {
                            out.push(Mv {
                                from: i,
                                to: idx(1, f + df, r + dr),
                                capture: true,
                                promotion: false,
                                remote: true,
                            });
                        }
                    }
                }
            }
            ('W', 1) => {
                add(out, 0, 0, 1, M);
                add(out, 0, 1, 1, C);
                add(out, 0, -1, 1, C);
            }
            ('O', 1) => {
                for (df, dr) in orth {
                    slide(out, df, dr);
                }
            }
            ('U', 1) => {
                for (df, dr) in knight {
                    add(out, 0, df, dr, Mc);
                }
            }
            ('H', 1) => {
                for a in signs {
                    for b in signs {
                        add(out, 0, a, b, Mc);
                        add(out, 0, 2 * a, 2 * b, Mc);
                    }
                }
                for dl in signs {
                    if self.opts.hero_vertical {
                        add(out, dl, 0, 0, Mc);
                    } else {
                        for (df, dr) in diag {
                            add(out, dl, df, dr, Mc);
                        }
                    }
                }
            }
            ('H', _) => {
                if self.opts.hero_vertical {
                    add(out, home, 0, 0, Mc);
                } else {
                    for (df, dr) in diag {
                        add(out, home, df, dr, Mc);
                    }
                }
            }
            ('T', 1) => {
                for (df, dr) in diag {
                    slide(out, df, dr);
                }
            }
            ('C', _) => {
                for &(df, dr) in &kings8 {
                    add(out, 0, df, dr, Mc);
                }
                add(out, 1, 0, 0, Mc);
                add(out, -1, 0, 0, Mc);
            }
            ('M', 1) => {
                for &(df, dr) in &kings8 {
                    slide(out, df, dr);
                }
                add(out, 1, 0, 0, Mc);
                add(out, -1, 0, 0, Mc);
            }
            ('M', _) => {
                for (df, dr) in orth {
                    add(out, 0, df, dr, Mc);
                }
                add(out, home, 0, 0, Mc);
                if self.at(1, f, r).is_none() {
                    add(out, 2 * home, 0, 0, Mc);
                }
            }
            ('K', 1) => {
                for &(df, dr) in &kings8 {
                    add(out, 0, df, dr, Mc);
                }
                add(out, 1, 0, 0, Mc);
                add(out, -1, 0, 0, Mc);
            }
            ('K', _) => add(out, home, 0, 0, Mc),
            ('P', 1) => {
                for &(df, dr) in kings8.iter().chain(knight.iter()) {
                    add(out, 0, df, dr, Mc);
                }
                for dl in signs {
                    for s in signs {
                        add(out, dl, 2 * s, 0, Mc);
                        add(out, dl, 0, 2 * s, Mc);
                    }
                }
            }
            ('P', _) => {
                for &(df, dr) in &kings8 {
                    add(out, 0, df, dr, Mc);
                }
                for s in signs {
                    add(out, home, 2 * s, 0, Mc);
                    add(out, home, 0, 2 * s, Mc);
                    add(out, 2 * home, s, 0, Mc);
                    add(out, 2 * home, 0, s, Mc);
                }
            }
            ('D', 0) => {
                add(out, 0, 0, 1, M);
                add(out, 0, 1, 0, M);
                add(out, 0, -1, 0, M);
                add(out, 0, 1, 1, C);
                add(out, 0, -1, 1, C);
                add(out, 1, 0, 0, C);
            }
            ('D', 1) => {
                add(out, 0, 0, 1, M);
                add(out, 0, 1, 0, M);
                add(out, 0, -1, 0, M);
                add(out, -1, 0, 0, M);
                add(out, 0, 1, 1, C);
                add(out, 0, -1, 1, C);
            }
            ('B', 0) => {
                add(out, 0, 0, 1, Mc);
                add(out, 0, 1, 1, Mc);
                add(out, 0, -1, 1, Mc);
                add(out, 0, 0, -1, M);
            }
            ('E', 0) => {
                for (df, dr) in orth {
                    add(out, 0, df, dr, Mc);
                    // `add` turns `dr` for Scarlet: look at the same square.
                    let (mf, mr) = (f + df, r + dr * fwd);
                    if inside(0, mf, mr) && self.at(0, mf, mr).is_none() {
                        add(out, 0, 2 * df, 2 * dr, Mc);
                        let climb = if self.opts.elemental_climb_quiet {
                            Mc
                        } else {
                            C
                        };
                        add(out, 1, df, dr, climb);
                    }
                }
                for (df, dr) in diag {
                    add(out, 0, df, dr, M);
                }
            }
            ('E', 1) if self.at(0, f, r).is_none() => {
                for (df, dr) in orth {
                    add(out, -1, df, dr, Mc);
                }
            }
            _ => {}
        }
    }

    fn king(&self, side: usize) -> usize {
        (0..288)
            .find(|&i| self.cells[i] == Some((side, 'K')))
            .expect("a King")
    }

    /// Whether `side`'s King is in check (a frozen King too, under the option).
    pub fn in_check(&self, side: usize) -> bool {
        let k = self.king(side);
        if self.opts.basilisk_freeze_is_check && self.frozen(k) {
            return true;
        }
        let mut buf = Vec::new();
        for i in 0..288 {
            match self.cells[i] {
                Some((s, _)) if s != side && !self.frozen(i) => {
                    buf.clear();
                    self.piece_moves(i, &mut buf);
                    if buf.iter().any(|m| m.capture && m.to == k) {
                        return true;
                    }
                }
                _ => {}
            }
        }
        false
    }

    pub fn play(&mut self, m: Mv) {
        let moving = self.cells[m.from].expect("a piece");
        let warrior = moving.1 == 'W';
        self.cells[m.to] = None;
        if !m.remote {
            self.cells[m.from] = None;
            self.cells[m.to] = Some(if m.promotion { (moving.0, 'H') } else { moving });
        }
        self.halfmove = if m.capture || warrior {
            0
        } else {
            self.halfmove + 1
        };
        self.side = 1 - self.side;
    }

    /// Legal moves, sorted; none once the no-capture draw applies.
    pub fn legal(&self) -> Vec<Mv> {
        if self.halfmove >= self.opts.no_capture_plies {
            return Vec::new();
        }
        let mut cands = Vec::new();
        for i in 0..288 {
            if matches!(self.cells[i], Some((s, _)) if s == self.side) && !self.frozen(i) {
                self.piece_moves(i, &mut cands);
            }
        }
        cands.sort();
        cands.dedup();
        cands
            .into_iter()
            .filter(|&m| {
                let mut after = self.clone();
                after.play(m);
                !after.in_check(self.side)
            })
            .collect()
    }

    /// Sequences of exactly `depth` moves; a move that ends the game counts
    /// when it is the last one (none follow it: `legal` is then empty).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut c = self.clone();
                c.play(m);
                c.perft(depth - 1)
            })
            .sum()
    }
}

/// The engine's legal moves in the naive form, sorted.
pub fn engine_moves(g: &Dragonchess) -> Vec<Mv> {
    let mut v: Vec<Mv> = g
        .actions_here()
        .into_iter()
        .map(|m: Move| Mv {
            from: m.from.index(),
            to: m.to.index(),
            capture: m.is_capture(),
            promotion: m.is_promotion(),
            remote: m.is_remote(),
        })
        .collect();
    v.sort();
    v
}
