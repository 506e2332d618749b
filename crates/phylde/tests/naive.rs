//! A second, deliberately naive reading of spec §6–§7 (coordinates and
//! explicit path checks, no tables, brute-force surround), compared with the
//! engine on thousands of random positions: sparse random boards (Kings
//! crowded by enemies, so surrounds happen) and positions from random games,
//! mid-turn ones included.

use phylde::{Action, Kind, Options, Phylde, Pt, Setup, Side, Sq};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;
use tabula_core::{perft, Game, Outcome, Player};

const N: i32 = 18;
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn sq(x: i32, y: i32) -> Sq {
    Sq((y * N + x) as u16)
}

fn on_board(x: i32, y: i32) -> bool {
    (0..N).contains(&x) && (0..N).contains(&y)
}

/// The quad of a King as coordinates.
fn quad(p: Pt) -> Vec<(i32, i32)> {
    let (x, y) = (p.x() as i32, p.y() as i32);
    vec![(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
}

fn in_quad(g: &Phylde, side: Side, at: (i32, i32)) -> bool {
    quad(g.king(side)).contains(&at)
}

fn in_any_quad(g: &Phylde, at: (i32, i32)) -> bool {
    in_quad(g, Side::South, at) || in_quad(g, Side::North, at)
}

fn piece(g: &Phylde, (x, y): (i32, i32)) -> Option<(Side, Kind)> {
    g.piece(sq(x, y))
}

fn range(kind: Kind) -> i32 {
    match kind {
        Kind::Soldier => 1,
        Kind::Archer => 2,
        Kind::Cavalier => 5,
        Kind::King => 0,
    }
}

fn limit(kind: Kind) -> u8 {
    match kind {
        Kind::Soldier => 5,
        Kind::Archer => 2,
        _ => 1,
    }
}

/// Spec §6 and §8, read literally.
fn naive_actions(g: &Phylde) -> HashSet<Action> {
    if g.outcome().is_some() {
        return HashSet::new();
    }
    actions_on_board(g, false)
}

/// The actions the board allows the side to move, game over or not (only
/// the first piece's with `first_only`).
fn actions_on_board(g: &Phylde, first_only: bool) -> HashSet<Action> {
    let mut out = HashSet::new();
    let me = g.side_to_move();
    let ts = g.turn_state();
    for y in 0..N {
        for x in 0..N {
            let Some((side, kind)) = piece(g, (x, y)) else {
                continue;
            };
            if first_only && !out.is_empty() {
                return out;
            }
            if side != me
                || ts.kind.is_some_and(|k| k != kind)
                || ts.acted.contains(sq(x, y).index())
            {
                continue;
            }
            for (dx, dy) in DIRS {
                for dist in 1..=range(kind) {
                    let t = (x + dx * dist, y + dy * dist);
                    if !on_board(t.0, t.1) || in_any_quad(g, t) {
                        continue;
                    }
                    let path_clear = (1..dist).all(|k| {
                        let m = (x + dx * k, y + dy * k);
                        piece(g, m).is_none() && !in_any_quad(g, m)
                    });
                    if !path_clear {
                        continue;
                    }
                    let (from, to) = (sq(x, y), sq(t.0, t.1));
                    match piece(g, t) {
                        None => {
                            out.insert(Action::Step { from, to });
                        }
                        Some((s, _)) if s != me => {
                            out.insert(Action::Step { from, to });
                            if kind == Kind::Archer {
                                out.insert(Action::Shot { from, target: to });
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
        }
    }
    if ts.kind.is_none() {
        let k = g.king(me);
        let (x, y) = (k.x() as i32, k.y() as i32);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if !(1..N).contains(&nx) || !(1..N).contains(&ny) {
                continue;
            }
            let to = Pt((ny * 19 + nx) as u16);
            let old = quad(k);
            let fine = quad(to)
                .into_iter()
                .filter(|s| !old.contains(s))
                .all(|s| piece(g, s).is_none() && !in_quad(g, me.other(), s));
            if fine {
                out.insert(Action::King { from: k, to });
            }
        }
    }
    if ts.count >= 1 {
        out.insert(Action::EndTurn);
    }
    out
}

/// Spec §7, read literally: enemy pieces attacking each quad square, then
/// every way of picking four distinct ones.
fn naive_surrounded(g: &Phylde, victim: Side) -> bool {
    let enemy = victim.other();
    let lists: Vec<Vec<(i32, i32)>> = quad(g.king(victim))
        .into_iter()
        .map(|(qx, qy)| {
            let mut attackers = Vec::new();
            // Nothing attacks from farther than 5 squares.
            for y in (qy - 5).max(0)..(qy + 6).min(N) {
                for x in (qx - 5).max(0)..(qx + 6).min(N) {
                    let Some((side, kind)) = piece(g, (x, y)) else {
                        continue;
                    };
                    let (dx, dy) = (qx - x, qy - y);
                    let dist = dx.abs().max(dy.abs());
                    let aligned = dx == 0 || dy == 0 || dx.abs() == dy.abs();
                    if side != enemy || !aligned || dist > range(kind) {
                        continue;
                    }
                    let (sx, sy) = (dx.signum(), dy.signum());
                    let clear = (1..dist).all(|k| {
                        let m = (x + sx * k, y + sy * k);
                        piece(g, m).is_none() && !in_quad(g, enemy, m)
                    });
                    if clear {
                        attackers.push((x, y));
                    }
                }
            }
            attackers
        })
        .collect();
    for a in &lists[0] {
        for b in &lists[1] {
            for c in &lists[2] {
                for d in &lists[3] {
                    let set: HashSet<_> = [a, b, c, d].into_iter().collect();
                    if set.len() == 4 {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Compare one position: the action sets, and after each action the
/// surround state of both Kings and the mid-turn win.
fn compare(g: &Phylde) -> usize {
    let fast = g.actions_here();
    let fast_set: HashSet<Action> = fast.iter().copied().collect();
    assert_eq!(fast.len(), fast_set.len(), "duplicates in {}", g.position());
    let naive = naive_actions(g);
    if fast_set != naive {
        let missing: Vec<String> = naive
            .difference(&fast_set)
            .map(|a| format!("{a:?}"))
            .collect();
        let extra: Vec<String> = fast_set
            .difference(&naive)
            .map(|a| format!("{a:?}"))
            .collect();
        panic!(
            "generators differ at {}\nmissing {missing:?}\nextra {extra:?}",
            g.position()
        );
    }
    let mover = g.side_to_move();
    for &a in &fast {
        let mut child = g.clone();
        child.apply(a);
        for side in [Side::South, Side::North] {
            assert_eq!(
                child.is_surrounded(side),
                naive_surrounded(&child, side),
                "surround of {side:?} after {} at {}",
                g.action_text(a),
                g.position()
            );
        }
        let still_mid_turn = child.side_to_move() == mover;
        if !still_mid_turn {
            // Between turns, the mover wins only by immobility (self-exposure
            // loses, draws draw), and the next player has an action otherwise.
            let immobile = actions_on_board(&child, true).is_empty();
            match child.outcome() {
                Some(Outcome::Win(p)) if p == Player(mover as u8) => assert!(immobile),
                None => assert!(!immobile, "no action left at {}", child.position()),
                _ => {}
            }
        }
        if still_mid_turn && a != Action::EndTurn {
            let won = child.outcome() == Some(Outcome::Win(Player(mover as u8)));
            assert_eq!(
                won,
                naive_surrounded(&child, mover.other()),
                "mid-turn win after {} at {}",
                g.action_text(a),
                g.position()
            );
        }
        let count = child.turn_state().count;
        if let Some(kind) = child.turn_state().kind {
            assert!(count < limit(kind) || child.outcome().is_some());
        }
    }
    fast.len()
}

fn fen_char(side: Side, kind: Kind) -> char {
    let c = match kind {
        Kind::Soldier => 'S',
        Kind::Archer => 'A',
        Kind::Cavalier => 'C',
        Kind::King => 'R',
    };
    match side {
        Side::South => c,
        Side::North => c.to_ascii_lowercase(),
    }
}

/// A random sparse board: two Kings, and pieces crowding the North King so
/// that surrounds and near-surrounds are common.
fn random_position(rng: &mut SmallRng, options: &Options) -> Option<Phylde> {
    let mut cells = vec![vec![None; 18]; 18];
    let mut taken = HashSet::new();
    let mut kings = Vec::new();
    for side in [Side::South, Side::North] {
        let (x, y) = (rng.gen_range(1..18), rng.gen_range(1..18));
        let q = quad(Pt((y * 19 + x) as u16));
        if q.iter().any(|s| taken.contains(s)) {
            return None;
        }
        taken.extend(q);
        cells[(y - 1) as usize][(x - 1) as usize] = Some(fen_char(side, Kind::King));
        kings.push((x, y));
    }
    let (kx, ky) = kings[1];
    let pieces = rng.gen_range(2..40);
    let mut counts = [[0u8; 3]; 2];
    for i in 0..pieces {
        let (x, y) = if i % 2 == 0 {
            (
                (kx + rng.gen_range(-6..6)).clamp(0, 17),
                (ky + rng.gen_range(-6..6)).clamp(0, 17),
            )
        } else {
            (rng.gen_range(0..18), rng.gen_range(0..18))
        };
        if taken.contains(&(x, y)) {
            continue;
        }
        let side = if rng.gen_bool(0.6) {
            Side::South
        } else {
            Side::North
        };
        let k = rng.gen_range(0..3);
        if counts[side as usize][k] >= [20, 10, 6][k] {
            continue;
        }
        counts[side as usize][k] += 1;
        let kind = [Kind::Soldier, Kind::Archer, Kind::Cavalier][k];
        taken.insert((x, y));
        cells[y as usize][x as usize] = Some(fen_char(side, kind));
    }
    let mut fen = String::new();
    for (y, row) in cells.iter().enumerate().rev() {
        let mut empty = 0;
        for cell in row {
            match *cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen += &empty.to_string();
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen += &empty.to_string();
        }
        if y > 0 {
            fen.push('/');
        }
    }
    fen += if rng.gen_bool(0.5) { " S" } else { " N" };
    Phylde::from_position(options, &fen).ok()
}

#[test]
fn naive_and_fast_generators_agree_on_random_boards() {
    let options = Options {
        material_draw: false,
        ..Options::default()
    };
    let mut rng = SmallRng::seed_from_u64(5);
    let (mut positions, mut actions, mut wins) = (0, 0, 0);
    while positions < 3000 {
        let Some(mut g) = random_position(&mut rng, &options) else {
            continue;
        };
        // A few random actions, so mid-turn states are covered too.
        for _ in 0..rng.gen_range(0..4) {
            let acts = g.actions_here();
            if acts.is_empty() {
                break;
            }
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
        actions += compare(&g);
        wins += usize::from(matches!(g.outcome(), Some(Outcome::Win(_))));
        positions += 1;
    }
    assert!(actions > 30_000, "too few actions checked: {actions}");
    assert!(wins > 50, "too few surrounds met: {wins}");
}

#[test]
fn naive_and_fast_generators_agree_in_random_games() {
    let mut rng = SmallRng::seed_from_u64(6);
    let mut positions = 0;
    let setups = [
        Setup::Lines,
        Setup::Block,
        Setup::Corners,
        Setup::CornersDrawn,
    ];
    for (i, setup) in setups.into_iter().cycle().take(12).enumerate() {
        let options = Options {
            setup,
            first_player: if i % 2 == 0 { Side::South } else { Side::North },
            ..Options::default()
        };
        let mut g = Phylde::new_game(&options).unwrap();
        let mut ply = 0;
        while g.outcome().is_none() {
            if ply % 7 == 0 {
                compare(&g);
                positions += 1;
            }
            let acts = g.actions_here();
            g.apply(acts[rng.gen_range(0..acts.len())]);
            ply += 1;
        }
    }
    assert!(positions > 2000, "too few positions: {positions}");
}

/// Perft with the naive generator (the engine still applies the actions).
/// Depth 0 is 1 even once the game is over: an action that ends the game
/// counts when it is the last of the sequence.
fn naive_perft(g: &Phylde, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let acts = naive_actions(g);
    if depth == 1 {
        return acts.len() as u64;
    }
    acts.iter()
        .map(|&a| {
            let mut child = g.clone();
            child.apply(a);
            naive_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn naive_perft_agrees_at_the_end_of_random_games() {
    // The last actions of a game end it: both generators count them as the
    // last step of a sequence, and depth 0 of a finished game is 1.
    let mut rng = SmallRng::seed_from_u64(13);
    for _ in 0..6 {
        let mut g = Phylde::new_game(&Options::default()).unwrap();
        let mut trail = Vec::new();
        while g.outcome().is_none() {
            trail.push(g.clone());
            let acts = g.actions_here();
            g.apply(acts[rng.gen_range(0..acts.len())]);
        }
        trail.push(g);
        for (back, state) in trail.iter().rev().take(3).enumerate() {
            for d in 0..=2 {
                assert_eq!(
                    naive_perft(state, d),
                    perft(state, d),
                    "{} steps before the end, depth {d}: {}",
                    back,
                    state.position()
                );
            }
        }
    }
}

fn check_table_naively(max_depth: u32) {
    let table = include_str!("data/phylde.perft");
    for row in tabula_core::perft_data::parse(table) {
        let g: Phylde = tabula_core::perft_data::game_of(&row);
        for &(d, n) in row.counts.iter().filter(|c| c.0 <= max_depth) {
            assert_eq!(naive_perft(&g, d), n, "`{}` depth {d}", row.name);
        }
    }
}

#[test]
fn naive_perft_matches_the_table_to_depth_3() {
    check_table_naively(3);
}
