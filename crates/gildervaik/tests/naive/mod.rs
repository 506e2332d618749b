//! A second move generator, written as plainly as possible from the spec
//! text: `(row, column)` pairs, the direction table of §1 walked one cell at
//! a time, hash maps for the board, recursion over whole board copies. It
//! shares nothing with the engine but the position string and the options.

use gildervaik::options::{Continuation, Mode, Removal, Untouchable};
use gildervaik::Options;
use std::collections::{BTreeSet, HashMap, HashSet};

type Cell = (i32, i32);

/// Pawns by cell (value: seat 0..3) and the side to move.
#[derive(Clone, Debug)]
pub struct Naive {
    pub board: HashMap<Cell, usize>,
    pub to_move: usize,
}

fn on_board((r, c): Cell) -> bool {
    (0..10).contains(&r) && c >= 0 && c <= 2 * r
}

pub fn name((r, c): Cell) -> String {
    format!("{}{}", (b'a' + r as u8) as char, c + 1)
}

fn parse_cell(s: &str) -> Cell {
    let r = i32::from(s.as_bytes()[0] - b'a');
    let c: i32 = s[1..].parse().expect("cell number");
    (r, c - 1)
}

/// The position part of a position string (counters are not needed here).
pub fn parse(position: &str) -> Naive {
    let (left, right) = position.split_once('/').expect("a slash");
    let mut board = HashMap::new();
    for group in left.split_whitespace() {
        let (p, cells) = group.split_once(':').expect("a colon");
        let seat = usize::from(p.as_bytes()[0] - b'A');
        for cell in cells.split(',').filter(|s| !s.is_empty()) {
            board.insert(parse_cell(cell), seat);
        }
    }
    let side = right.split_whitespace().next().expect("side to move");
    Naive {
        board,
        to_move: usize::from(side.as_bytes()[0] - b'A'),
    }
}

/// Spec §1 direction table: E, W, NE, SW, NW, SE.
fn next(d: usize, (r, c): Cell) -> Option<Cell> {
    let up = c % 2 == 0;
    let n = match (d, up) {
        (0, _) => (r, c + 1),
        (1, _) => (r, c - 1),
        (2, true) => (r, c + 1),
        (2, false) => (r - 1, c - 1),
        (3, true) => (r + 1, c + 1),
        (3, false) => (r, c - 1),
        (4, true) => (r, c - 1),
        (4, false) => (r - 1, c - 1),
        (5, true) => (r + 1, c + 1),
        (5, false) => (r, c + 1),
        _ => unreachable!(),
    };
    on_board(n).then_some(n)
}

fn ray(x: Cell, d: usize) -> Vec<Cell> {
    let mut out = Vec::new();
    let mut cur = next(d, x);
    while let Some(y) = cur {
        out.push(y);
        cur = next(d, y);
    }
    out
}

/// Spec §1 zone tests.
pub fn zone((r, c): Cell) -> Option<usize> {
    if r <= 3 {
        Some(0)
    } else if c >= 12 {
        Some(1)
    } else if r >= 6 && c <= 2 * (r - 6) {
        Some(2)
    } else {
        None
    }
}

fn neighbours(x: Cell) -> Vec<Cell> {
    let mut v: Vec<Cell> = (0..6).filter_map(|d| next(d, x)).collect();
    v.sort();
    v.dedup();
    v
}

/// Spec §2 segments from `x` over `board` (the mover's pawn already lifted):
/// `(centre, landing)` for each direction with a segment.
fn segments(board: &HashMap<Cell, usize>, x: Cell, long: bool) -> Vec<(Cell, Cell)> {
    let mut out = Vec::new();
    for d in 0..6 {
        let cells = ray(x, d);
        let max_k = if long { cells.len() } else { 1 };
        for k in 0..max_k {
            if 2 * k + 1 >= cells.len() {
                break;
            }
            let ok = (0..=2 * k + 1).all(|i| board.contains_key(&cells[i]) == (i == k));
            if ok {
                out.push((cells[k], cells[2 * k + 1]));
            }
        }
    }
    out
}

/// Every legal move as text, `pass` when there is none.
pub fn moves(n: &Naive, o: &Options) -> Vec<String> {
    let mut out: Vec<String> = match o.mode {
        Mode::Conquest => conquest(n, o).into_iter().collect(),
        Mode::Warrior => warrior(n, o),
    };
    if out.is_empty() {
        out.push("pass".into());
    }
    out.sort();
    out
}

fn own_cells(n: &Naive) -> Vec<Cell> {
    let mut v: Vec<Cell> = n
        .board
        .iter()
        .filter(|(_, &s)| s == n.to_move)
        .map(|(&c, _)| c)
        .collect();
    v.sort();
    v
}

fn conquest(n: &Naive, o: &Options) -> BTreeSet<String> {
    let me = n.to_move;
    let may_land = |x: Cell, to: Cell| match zone(x) {
        Some(z) if o.confine_in_target && z != me => zone(to) == Some(z),
        _ => true,
    };
    let mut out = BTreeSet::new();
    for from in own_cells(n) {
        let mut board = n.board.clone();
        board.remove(&from);
        for y in neighbours(from) {
            if !n.board.contains_key(&y) && may_land(from, y) {
                out.insert(format!("{}-{}", name(from), name(y)));
            }
        }
        // Every jump sequence, landing on no cell twice (start included).
        let mut reached = HashSet::new();
        let mut stack = vec![(from, vec![from])];
        while let Some((x, visited)) = stack.pop() {
            for (centre, land) in segments(&board, x, o.conquest_long_jumps) {
                let centre_ok = o.jump_own_pawns || board[&centre] != me;
                if !centre_ok || visited.contains(&land) || !may_land(x, land) {
                    continue;
                }
                reached.insert(land);
                if o.chain_jumps {
                    let mut v = visited.clone();
                    v.push(land);
                    stack.push((land, v));
                }
            }
        }
        for land in reached {
            out.insert(format!("{}-{}", name(from), name(land)));
        }
    }
    out
}

fn capturable(o: &Options, me: usize, owner: usize, at: Cell) -> bool {
    owner != me
        && match zone(at) {
            None => true,
            Some(z) => o.home_capturable && z == owner,
        }
}

/// A capture sequence in progress.
struct Seq {
    from: Cell,
    at: Cell,
    board: HashMap<Cell, usize>,
    taken: HashSet<Cell>,
    path: Vec<Cell>,
}

fn capture_paths(o: &Options, me: usize, s: Seq, out: &mut Vec<Vec<Cell>>) {
    let mut continued = false;
    for (centre, land) in segments(&s.board, s.at, o.warrior_long_jumps) {
        if s.taken.contains(&centre) || !capturable(o, me, s.board[&centre], centre) {
            continue;
        }
        continued = true;
        let mut board = s.board.clone();
        if o.capture_removal == Removal::Immediate {
            board.remove(&centre);
        }
        let mut taken = s.taken.clone();
        taken.insert(centre);
        let mut path = s.path.clone();
        path.push(land);
        if o.capture_continuation == Continuation::Optional {
            out.push(path.clone());
        }
        let next = Seq {
            from: s.from,
            at: land,
            board,
            taken,
            path,
        };
        capture_paths(o, me, next, out);
    }
    if !continued && !s.path.is_empty() && o.capture_continuation == Continuation::Mandatory {
        out.push(s.path);
    }
}

/// Whether a pawn of `owner` on `at` stands in one of his opposing zones.
fn untouchable_spot(owner: usize, at: Cell) -> bool {
    matches!(zone(at), Some(z) if z != owner)
}

fn warrior(n: &Naive, o: &Options) -> Vec<String> {
    let me = n.to_move;
    let mut paths: Vec<(Cell, Vec<Cell>)> = Vec::new();
    for from in own_cells(n) {
        let mut board = n.board.clone();
        board.remove(&from);
        let mut found = Vec::new();
        let seq = Seq {
            from,
            at: from,
            board,
            taken: HashSet::new(),
            path: Vec::new(),
        };
        capture_paths(o, me, seq, &mut found);
        paths.extend(found.into_iter().map(|p| (from, p)));
    }
    if !paths.is_empty() {
        if o.majority_capture {
            let most = paths.iter().map(|p| p.1.len()).max().unwrap_or(0);
            paths.retain(|p| p.1.len() == most);
        }
        return paths
            .into_iter()
            .map(|(from, path)| {
                let mut t = name(from);
                for c in path {
                    t.push('x');
                    t.push_str(&name(c));
                }
                t
            })
            .collect();
    }
    let mut out = BTreeSet::new();
    for from in own_cells(n) {
        for y in neighbours(from) {
            if !n.board.contains_key(&y) {
                out.insert(format!("{}-{}", name(from), name(y)));
            }
        }
        let mut board = n.board.clone();
        board.remove(&from);
        for (centre, land) in segments(&board, from, o.warrior_long_jumps) {
            let owner = board[&centre];
            let allowed = if owner == me {
                o.jump_own_pawns
            } else {
                !capturable(o, me, owner, centre)
            };
            let blocked = o.untouchable == Untouchable::NoJump && untouchable_spot(owner, centre);
            if allowed && !blocked {
                out.insert(format!("{}-{}", name(from), name(land)));
            }
        }
    }
    out.into_iter().collect()
}

/// The pawns after playing `text` (captures removed), as sorted names per seat.
pub fn after(n: &Naive, o: &Options, text: &str) -> [Vec<String>; 3] {
    let mut board = n.board.clone();
    if text != "pass" {
        let capture = text.contains('x');
        let cells: Vec<Cell> = text
            .split(if capture { 'x' } else { '-' })
            .map(parse_cell)
            .collect();
        let seat = board.remove(&cells[0]).expect("mover");
        if capture {
            let mut lifted = board.clone();
            let mut at = cells[0];
            for &land in &cells[1..] {
                let (centre, _) = segments(&lifted, at, o.warrior_long_jumps)
                    .into_iter()
                    .find(|&(_, l)| l == land)
                    .expect("a segment of the path");
                if o.capture_removal == Removal::Immediate {
                    lifted.remove(&centre);
                }
                board.remove(&centre);
                at = land;
            }
        }
        board.insert(*cells.last().expect("a landing"), seat);
    }
    let mut out: [Vec<Cell>; 3] = Default::default();
    for (&c, &s) in &board {
        out[s].push(c);
    }
    out.map(|mut v| {
        v.sort();
        v.into_iter().map(name).collect()
    })
}
