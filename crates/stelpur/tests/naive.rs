//! A second, deliberately plain move generator (arrays, vectors, full
//! enumeration of every line of a roll) compared with the engine on random
//! positions of every preset and of mixed options: same legal actions, same
//! end of roll, same next player and same no-capture counter.

mod common;
use common::{game, play};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use stelpur::Stelpur;
use tabula_core::{sample_chance, Game, Turn};

/// Options as plain flags, read from the spec string by the test itself.
#[derive(Clone, Debug, Default)]
struct Rules {
    one_pawn: bool,
    sct: bool,
    ludii_doubled: bool,
    bump: bool,
    forced: String,
    protection: String,
    nearest: bool,
    last_move: bool,
    normal_last: bool,
    first_turn: bool,
    literal: bool,
    mutual: bool,
}

fn rules(spec: &str) -> Rules {
    let g = game(spec, "start");
    let o = g.options();
    Rules {
        one_pawn: o.nondouble_one_pawn,
        sct: o.six_counts_twice,
        ludii_doubled: o.doubles == stelpur::Doubles::LudiiDoubled,
        bump: o.own_landing == stelpur::OwnLanding::Bump,
        forced: format!("{:?}", o.forced_play),
        protection: format!("{:?}", o.protection),
        nearest: o.between == stelpur::Between::Nearest,
        last_move: o.last_doubles == stelpur::LastDoubles::Move11_66,
        normal_last: o.last_pawn_normal_moves,
        first_turn: o.ludii_first_turn,
        literal: o.ludii_literal,
        mutual: o.mutual_last_pawn_draw,
    }
}

const CORNER_CELLS: [usize; 8] = [1, 6, 7, 12, 13, 18, 19, 24];

fn wrap(c: usize) -> usize {
    (c - 1) % 24 + 1
}

/// A decision node: board[1..=24] holds 0 (empty), 1 or 2.
#[derive(Clone, Debug)]
struct Naive {
    board: [u8; 25],
    mover: u8,
    roll: (usize, usize),
    vals: Vec<usize>,
    pin: Option<usize>,
    turn: u32,
}

type Mv = (usize, usize, usize);
type Memo = std::collections::HashMap<([u8; 25], Vec<usize>, Option<usize>), (usize, usize)>;

impl Naive {
    fn count(&self, p: u8) -> usize {
        self.board[1..].iter().filter(|&&x| x == p).count()
    }
    fn enemy(&self) -> u8 {
        3 - self.mover
    }

    fn protected(&self, r: &Rules, c: usize) -> bool {
        let owner = self.board[c];
        if r.protection == "None" || !CORNER_CELLS.contains(&c) {
            return false;
        }
        if r.protection == "LastPawnOnly" && self.count(owner) != 1 {
            return false;
        }
        let attacker = 3 - owner;
        if !r.nearest {
            return self.board[wrap(c + 23)] == attacker && self.board[wrap(c + 1)] == attacker;
        }
        let scan = |step: usize| {
            (1..24)
                .map(|k| wrap(c + step * k))
                .find(|&x| self.board[x] != 0)
        };
        match (scan(1), scan(23)) {
            (Some(a), Some(b)) => a != b && self.board[a] == attacker && self.board[b] == attacker,
            _ => false,
        }
    }

    fn uses(&self, r: &Rules) -> BTreeSet<Mv> {
        let mut out = BTreeSet::new();
        let sixes = self.vals.iter().filter(|&&v| v == 6).count();
        let last = self.count(self.mover) == 1;
        let region = if self.mover == 1 { [1, 2] } else { [13, 14] };
        let in_region = region.iter().any(|&c| self.board[c] == self.mover);
        for &v in &self.vals {
            if r.sct && sixes % 2 == 1 && v != 6 {
                continue;
            }
            for f in 1..=24 {
                if self.board[f] != self.mover || self.pin.is_some_and(|p| p != f) {
                    continue;
                }
                // With `normal_last`, the corner step is only from a corner (§11).
                if last && (!r.normal_last || CORNER_CELLS.contains(&f)) {
                    let k = match v {
                        6 => 2,
                        12 => 4,
                        x => x,
                    };
                    let mut t = f;
                    for _ in 0..k {
                        t = wrap(t + 1);
                        while !CORNER_CELLS.contains(&t) {
                            t = wrap(t + 1);
                        }
                    }
                    if self.board[t] != self.mover
                        && !(self.board[t] == self.enemy() && self.protected(r, t))
                    {
                        out.insert((v, f, t));
                    }
                }
                if last && !r.normal_last {
                    continue;
                }
                if r.first_turn
                    && self.turn == 1
                    && (v == 6 || v == 12)
                    && in_region
                    && !region.contains(&f)
                {
                    continue;
                }
                let mut t = wrap(f + v);
                if self.board[t] == self.mover {
                    if !r.bump {
                        continue;
                    }
                    while self.board[t] != 0 {
                        t = wrap(t + 1);
                    }
                } else if self.board[t] == self.enemy() && self.protected(r, t) {
                    continue;
                }
                out.insert((v, f, t));
            }
        }
        out
    }

    /// Play a use; returns whether it captured.
    fn play(&mut self, r: &Rules, (v, f, t): Mv) -> bool {
        let cap = self.board[t] == self.enemy();
        self.board[f] = 0;
        self.board[t] = self.mover;
        let i = self.vals.iter().position(|&x| x == v).expect("value");
        self.vals.remove(i);
        if r.one_pawn && self.roll.0 != self.roll.1 {
            self.pin = Some(t);
        }
        cap
    }

    fn game_ends(&self, r: &Rules) -> bool {
        let (a, b) = (self.count(1), self.count(2));
        a == 0 || b == 0 || (r.mutual && a == 1 && b == 1)
    }

    /// Best (uses, sixes) over every complete line; a game-ending capture
    /// counts as using everything left.
    /// (Memoised on the node, so that eight 6s stay affordable.)
    fn best_line(&self, r: &Rules, memo: &mut Memo) -> (usize, usize) {
        let key = (self.board, self.vals.clone(), self.pin);
        if let Some(&b) = memo.get(&key) {
            return b;
        }
        let mut best = (0, 0);
        for m in self.uses(r) {
            best = best.max(self.line_after(r, m, memo));
        }
        memo.insert(key, best);
        best
    }

    fn line_after(&self, r: &Rules, m: Mv, memo: &mut Memo) -> (usize, usize) {
        let mut c = self.clone();
        let cap = c.play(r, m);
        if cap && c.game_ends(r) {
            full(&self.vals)
        } else {
            let (n, s) = c.best_line(r, memo);
            (n + 1, s + usize::from(m.0 == 6))
        }
    }

    fn legal(&self, r: &Rules) -> BTreeSet<Mv> {
        let all = self.uses(r);
        if r.forced != "Max" {
            return all;
        }
        let mut memo = Memo::new();
        let scores: Vec<(Mv, (usize, usize))> = all
            .iter()
            .map(|&m| (m, self.line_after(r, m, &mut memo)))
            .collect();
        let best = scores.iter().map(|s| s.1).max().unwrap_or((0, 0));
        scores
            .into_iter()
            .filter(|s| s.1 == best)
            .map(|s| s.0)
            .collect()
    }
}

fn full(vals: &[usize]) -> (usize, usize) {
    (vals.len(), vals.iter().filter(|&&v| v == 6).count())
}

/// The values of a roll, from the table of §11 written out again.
fn roll_values(r: &Rules, hi: usize, lo: usize, last: bool) -> Vec<usize> {
    let six = if r.sct { 2 } else { 1 };
    let mut v = Vec::new();
    if hi != lo {
        if lo == 1 {
            v.push(1);
        }
        if hi == 6 {
            v.extend(std::iter::repeat_n(6, six));
        }
        return v;
    }
    let (one, six_val) = if r.ludii_doubled { (2, 12) } else { (1, 6) };
    if last {
        if r.last_move {
            match hi {
                1 => v.extend([one, one]),
                6 => v.extend(std::iter::repeat_n(six_val, 2 * six)),
                _ => {}
            }
        }
        return v;
    }
    match (hi, r.ludii_doubled) {
        (6, false) => v.extend(std::iter::repeat_n(6, 4 * six)),
        (n, false) => v.extend([n, n]),
        (1, true) => v.extend([2, 2]),
        (6, true) => v.extend(std::iter::repeat_n(12, 2 * six)),
        _ => {}
    }
    v
}

/// Read the engine's position string the plain way.
fn naive_of(pos: &str) -> (Naive, u32) {
    let f: Vec<&str> = pos.split(' ').collect();
    let mut board = [0u8; 25];
    let (a, b) = f[0].split_once('/').expect("slash");
    for (p, list) in [(1u8, a), (2, b)] {
        for c in list.split(',').filter(|s| !s.is_empty()) {
            board[c.parse::<usize>().expect("cell")] = p;
        }
    }
    let mover = f[1].parse().expect("mover");
    let (mut roll, mut vals, mut pin) = ((0, 0), Vec::new(), None);
    if f[2] != "-" {
        let (rt, rest) = f[2].split_once(':').expect("dice");
        let (h, l) = rt.split_once('-').expect("roll");
        roll = (h.parse().expect("hi"), l.parse().expect("lo"));
        let rest = rest.trim_end_matches('x');
        let (vs, p) = match rest.split_once('@') {
            Some((v, p)) => (v, Some(p.parse().expect("pin"))),
            None => (rest, None),
        };
        vals = vs.split(',').map(|v| v.parse().expect("value")).collect();
        pin = p;
    }
    let n = Naive {
        board,
        mover,
        roll,
        vals,
        pin,
        turn: f[4].parse().expect("turn"),
    };
    (n, f[3].parse().expect("counter"))
}

fn engine_uses(g: &Stelpur) -> BTreeSet<Mv> {
    g.actions_here()
        .into_iter()
        .filter_map(|a| match a {
            stelpur::Action::Use(u) => Some((
                u.die as usize,
                u.from.number() as usize,
                u.to.number() as usize,
            )),
            _ => None,
        })
        .collect()
}

/// What the naive rules predict after `mv` (or after the roll when `mv` is
/// `None`): `Some(legal set)` if the roll goes on, else the next player and counter.
enum Next {
    Continue(BTreeSet<Mv>),
    Over,
    Passes { mover: u8, counter: u32 },
}

fn predict(r: &Rules, n: &Naive, counter: u32, captured_before: bool, mv: Option<Mv>) -> Next {
    let mut c = n.clone();
    let mut captured = captured_before;
    let last = c.count(c.mover) == 1;
    let given = roll_values(r, c.roll.0, c.roll.1, last);
    if let Some(m) = mv {
        if c.play(r, m) {
            captured = true;
            if c.game_ends(r) {
                return Next::Over;
            }
        }
    } else {
        c.vals = given.clone();
        c.pin = None;
    }
    if !c.vals.is_empty() {
        let legal = c.legal(r);
        if !legal.is_empty() {
            return Next::Continue(legal);
        }
    }
    let double = c.roll.0 == c.roll.1;
    let again = double && (!r.literal || (!given.is_empty() && c.vals.is_empty()));
    Next::Passes {
        mover: if again { c.mover } else { 3 - c.mover },
        counter: if captured { 0 } else { counter + 1 },
    }
}

/// A random position waiting for a roll: 1-6 pawns a side anywhere, either
/// player to move, in turn 1 or later.
fn random_position(rng: &mut SmallRng) -> String {
    let mut cells: Vec<u8> = (1..=24).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, rng.gen_range(0..=i));
    }
    let (na, nb) = (rng.gen_range(1..=6), rng.gen_range(1..=6));
    let list = |v: &[u8]| {
        let mut v = v.to_vec();
        v.sort();
        v.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
    };
    format!(
        "{}/{} {} - 0 {}",
        list(&cells[..na]),
        list(&cells[na..na + nb]),
        rng.gen_range(1..=2),
        rng.gen_range(1..=2)
    )
}

/// Play `games` random games from the start, then three random rolls from
/// each of `10 * games` random positions, comparing every step with the
/// naive rules.
fn compare(spec: &str, games: usize, seed: u64) -> usize {
    let r = rules(spec);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut checked = 0;
    for i in 0..11 * games {
        let from_start = i < games;
        let mut g = if from_start {
            game(spec, "start")
        } else {
            game(spec, &random_position(&mut rng))
        };
        let mut chances = Vec::new();
        let mut rolls = 0;
        while g.turn() != Turn::Over && (from_start || rolls < 3) {
            let pos = g.position();
            let (mut n, counter) = naive_of(&pos);
            let action = if g.turn() == Turn::Chance {
                rolls += 1;
                g.chance_outcomes(&mut chances);
                let a = sample_chance::<Stelpur, _>(&chances, &mut rng);
                if let stelpur::Action::Roll(roll) = a {
                    n.roll = (roll.hi() as usize, roll.lo() as usize);
                }
                a
            } else {
                let legal = engine_uses(&g);
                assert_eq!(legal, n.legal(&r), "{spec}: legal uses at {pos}");
                checked += 1;
                let acts = g.actions_here();
                acts[rng.gen_range(0..acts.len())]
            };
            let mv = match action {
                stelpur::Action::Use(u) => Some((
                    u.die as usize,
                    u.from.number() as usize,
                    u.to.number() as usize,
                )),
                _ => None,
            };
            let captured_before = pos.split(' ').nth(2).is_some_and(|d| d.ends_with('x'));
            let predicted = match action {
                stelpur::Action::Pass => None,
                _ => Some(predict(&r, &n, counter, captured_before, mv)),
            };
            let text = g.action_text(action);
            g.apply(action);
            let ctx = format!("{spec}: `{text}` at {pos} -> {}", g.position());
            match predicted {
                Some(Next::Continue(set)) => {
                    assert!(matches!(g.turn(), Turn::Player(_)), "{ctx}");
                    assert_eq!(engine_uses(&g), set, "{ctx}");
                }
                Some(Next::Over) => assert_eq!(g.turn(), Turn::Over, "{ctx}"),
                Some(Next::Passes { mover, counter }) => {
                    let (after, c) = naive_of(&g.position());
                    assert!(!matches!(g.turn(), Turn::Player(_)), "{ctx}");
                    assert_eq!((after.mover, c), (mover, counter), "{ctx}");
                }
                None => {}
            }
        }
    }
    checked
}

const SPECS: &[&str] = &[
    "stelpur",
    "stelpur(preset=tablesites)",
    "stelpur(preset=ludii)",
    "stelpur(nondouble_one_pawn,six_counts_twice)",
    "stelpur(between=nearest,first_player=2,mutual_last_pawn_draw)",
    "stelpur(forced_play=free,own_landing=bump,doubles=ludii_doubled)",
    "stelpur(preset=ludii,forced_play=max,protection=all,no_capture_roll_limit=40)",
    "stelpur(last_pawn_normal_moves,last_doubles=move11_66,protection=last_pawn_only)",
    "stelpur(ludii_first_turn,nondouble_one_pawn,forced_play=stepwise,between=nearest)",
];

#[test]
fn naive_generator_agrees_on_random_games() {
    for (i, spec) in SPECS.iter().enumerate() {
        let n = compare(spec, 40, 100 + i as u64);
        assert!(n > 200, "{spec}: only {n} decision nodes compared");
    }
}

/// Perft with the naive rules choosing every step: the 21 rolls at a chance
/// node, the naive legal uses (and `pass` under `forced_play=free` once a
/// value is used) at a decision node; the engine only applies them. A use
/// that ends the game counts when it is the last step (depth 0 is 1).
fn naive_perft(r: &Rules, g: &Stelpur, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let texts: Vec<String> = match g.turn() {
        Turn::Over => return 0,
        Turn::Chance => (1..=6)
            .flat_map(|hi| (1..=hi).map(move |lo| format!("{hi}-{lo}")))
            .collect(),
        Turn::Player(_) => {
            let (n, _) = naive_of(&g.position());
            let given = roll_values(r, n.roll.0, n.roll.1, n.count(n.mover) == 1);
            let mut t: Vec<String> = n
                .legal(r)
                .into_iter()
                .map(|(v, f, to)| {
                    let sep = if n.board[to] == n.enemy() { 'x' } else { '-' };
                    format!("{v}:{f}{sep}{to}")
                })
                .collect();
            if r.forced == "Free" && n.vals.len() < given.len() {
                t.push("pass".into());
            }
            t
        }
    };
    texts
        .iter()
        .map(|t| {
            let mut child = g.clone();
            play(&mut child, &[t]);
            naive_perft(r, &child, depth - 1)
        })
        .sum()
}

/// Every count of the perft table, up to depth 3, from the naive rules.
#[test]
fn naive_perft_matches_the_table() {
    let table = include_str!("data/stelpur.perft");
    let mut errors = Vec::new();
    for row in tabula_core::perft_data::parse(table) {
        let g: Stelpur = tabula_core::perft_data::game_of(&row);
        let r = rules(&row.spec);
        for &(d, n) in row.counts.iter().filter(|c| c.0 <= 3) {
            let got = naive_perft(&r, &g, d);
            if got != n {
                errors.push(format!("`{}` depth {d}: table {n}, naive {got}", row.name));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// Prints naive counts to depth 4 (to regenerate the table independently):
/// `cargo test --release -p tabula-stelpur --test naive -- --ignored --nocapture`.
#[test]
#[ignore]
fn print_naive_perft_rows() {
    for row in tabula_core::perft_data::parse(include_str!("data/stelpur.perft")) {
        let g: Stelpur = tabula_core::perft_data::game_of(&row);
        let r = rules(&row.spec);
        let counts: Vec<String> = (1..=4)
            .map(|d| format!("{d}:{}", naive_perft(&r, &g, d)))
            .collect();
        println!("{}: {}", row.name, counts.join(" "));
    }
}
