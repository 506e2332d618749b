//! Tiny games for testing the agents, small enough to solve by brute force:
//! Nim (two or three players, one action per turn or one stone per action),
//! tic-tac-toe, and a dice race with chance nodes.
#![allow(dead_code)]

use std::hash::{Hash, Hasher};
use tabula_core::options::{OptionDef, OptionValues};
use tabula_core::{Error, Evaluate, Game, GameType, Outcome, Player, PlayerSet, Turn};

fn hash_of(x: impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    x.hash(&mut h);
    h.finish()
}

fn parse_fields<const N: usize>(text: &str) -> Result<[u8; N], Error> {
    let v: Vec<u8> = text
        .split_whitespace()
        .map(|f| {
            f.parse()
                .map_err(|_| Error::position(format!("bad field `{f}`")))
        })
        .collect::<Result<_, _>>()?;
    v.try_into()
        .map_err(|_| Error::position(format!("expected {N} numbers")))
}

// ---------------------------------------------------------------- Nim

/// Nim: take 1 to 3 stones; whoever takes the last stone wins. With
/// `multi`, a turn is up to three `take` actions of one stone, ended by
/// `end` (or automatically after the third).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NimOpts {
    pub players: u8,
    pub multi: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NimAct {
    Take(u8),
    End,
}

#[derive(Clone, Debug)]
pub struct Nim {
    opts: NimOpts,
    pub pile: u8,
    to_move: u8,
    taken: u8,
    last: u8,
    /// What `Evaluate::endgame_action` answers, to test that agents obey.
    pub oracle: Option<NimAct>,
    /// What `Evaluate::is_retreat` rules out, to test that agents obey.
    pub retreat: Option<NimAct>,
}

impl Nim {
    pub fn new(players: u8, multi: bool, pile: u8) -> Nim {
        Nim {
            opts: NimOpts { players, multi },
            pile,
            to_move: 0,
            taken: 0,
            last: 0,
            oracle: None,
            retreat: None,
        }
    }

    /// A position in the middle of a turn (multi mode).
    pub fn mid_turn(pile: u8, taken: u8) -> Nim {
        Nim {
            taken,
            ..Nim::new(2, true, pile)
        }
    }

    fn next_turn(&mut self) {
        self.taken = 0;
        self.to_move = (self.to_move + 1) % self.opts.players;
    }
}

impl Game for Nim {
    type Action = NimAct;
    type Options = NimOpts;
    const NAME: &'static str = "nim";

    fn option_defs() -> &'static [OptionDef] {
        &[]
    }
    fn options_from(_: &OptionValues) -> Result<NimOpts, Error> {
        Ok(NimOpts {
            players: 2,
            multi: false,
        })
    }
    fn new_game(o: &NimOpts) -> Result<Self, Error> {
        Ok(Nim::new(o.players, o.multi, 12))
    }
    fn from_position(o: &NimOpts, text: &str) -> Result<Self, Error> {
        let [pile, to_move, taken, last] = parse_fields::<4>(text)?;
        Ok(Nim {
            oracle: None,
            retreat: None,
            opts: o.clone(),
            pile,
            to_move,
            taken,
            last,
        })
    }
    fn position(&self) -> String {
        format!(
            "{} {} {} {}",
            self.pile, self.to_move, self.taken, self.last
        )
    }
    fn options(&self) -> &NimOpts {
        &self.opts
    }
    fn game_type(&self) -> GameType {
        GameType {
            players: self.num_players(),
            chance: false,
            multi_action_turns: self.opts.multi,
        }
    }
    fn num_players(&self) -> usize {
        self.opts.players as usize
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["A", "B", "C"][p.index()]
    }
    fn turn(&self) -> Turn {
        if self.pile == 0 {
            Turn::Over
        } else {
            Turn::Player(Player(self.to_move))
        }
    }
    fn legal_actions(&self, out: &mut Vec<NimAct>) {
        out.clear();
        if self.pile == 0 {
            return;
        }
        if self.opts.multi {
            out.push(NimAct::Take(1));
            if self.taken > 0 {
                out.push(NimAct::End);
            }
        } else {
            out.extend((1..=self.pile.min(3)).map(NimAct::Take));
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(NimAct, f64)>) {
        out.clear();
    }
    fn apply(&mut self, a: NimAct) {
        match a {
            NimAct::Take(n) => {
                self.pile -= n;
                self.last = self.to_move;
                self.taken += 1;
                if self.pile > 0 && (!self.opts.multi || self.taken == 3) {
                    self.next_turn();
                }
            }
            NimAct::End => self.next_turn(),
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then_some(Outcome::Win(Player(self.last)))
    }
    fn action_text(&self, a: NimAct) -> String {
        match a {
            NimAct::Take(n) => format!("take{n}"),
            NimAct::End => "end".into(),
        }
    }
    fn action_key(&self, a: NimAct) -> usize {
        match a {
            NimAct::Take(n) => n as usize,
            NimAct::End => 0,
        }
    }
    fn action_key_space(&self) -> usize {
        4
    }
    fn hash(&self) -> u64 {
        hash_of((self.pile, self.to_move, self.taken, self.last))
    }
    fn max_game_actions(&self) -> u64 {
        2 * self.pile as u64 + 2
    }
    fn render(&self) -> String {
        self.position()
    }
}

impl Evaluate for Nim {
    fn evaluate(&self, _p: Player) -> f32 {
        0.0
    }

    fn endgame_action(&self) -> Option<NimAct> {
        self.oracle
    }

    fn is_retreat(&self, action: NimAct) -> bool {
        self.retreat == Some(action)
    }
}

// ---------------------------------------------------------------- tic-tac-toe

#[derive(Clone, Debug)]
pub struct Ttt {
    cells: [u8; 9],
    to_move: u8,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Ttt {
    pub fn start() -> Ttt {
        Ttt {
            cells: [0; 9],
            to_move: 0,
        }
    }

    /// From a picture like `"x.o/.x./..."`, with `x` to move when the
    /// counts are equal.
    pub fn from_rows(rows: &str) -> Ttt {
        let mut g = Ttt::start();
        for (i, c) in rows.chars().filter(|&c| c != '/').enumerate() {
            g.cells[i] = match c {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
        }
        let xs = g.cells.iter().filter(|&&c| c == 1).count();
        let os = g.cells.iter().filter(|&&c| c == 2).count();
        g.to_move = u8::from(xs > os);
        g
    }

    fn winner(&self) -> Option<u8> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c - 1)
        })
    }
}

impl Game for Ttt {
    type Action = u8;
    type Options = ();
    const NAME: &'static str = "ttt";

    fn option_defs() -> &'static [OptionDef] {
        &[]
    }
    fn options_from(_: &OptionValues) -> Result<(), Error> {
        Ok(())
    }
    fn new_game(_: &()) -> Result<Self, Error> {
        Ok(Ttt::start())
    }
    fn from_position(_: &(), text: &str) -> Result<Self, Error> {
        if text.len() != 11 {
            return Err(Error::position("expected 3 rows of 3"));
        }
        Ok(Ttt::from_rows(text))
    }
    fn position(&self) -> String {
        let s: String = self
            .cells
            .iter()
            .map(|&c| ['.', 'x', 'o'][c as usize])
            .collect();
        format!("{}/{}/{}", &s[0..3], &s[3..6], &s[6..9])
    }
    fn options(&self) -> &() {
        &()
    }
    fn game_type(&self) -> GameType {
        GameType {
            players: 2,
            chance: false,
            multi_action_turns: false,
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["x", "o"][p.index()]
    }
    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else {
            Turn::Player(Player(self.to_move))
        }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
    }
    fn apply(&mut self, a: u8) {
        self.cells[a as usize] = self.to_move + 1;
        self.to_move ^= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner() {
            return Some(Outcome::Win(Player(w)));
        }
        self.cells
            .iter()
            .all(|&c| c != 0)
            .then_some(Outcome::Draw(PlayerSet::all(2)))
    }
    fn action_text(&self, a: u8) -> String {
        format!("c{a}")
    }
    fn action_key(&self, a: u8) -> usize {
        a as usize
    }
    fn action_key_space(&self) -> usize {
        9
    }
    fn hash(&self) -> u64 {
        hash_of((self.cells, self.to_move))
    }
    fn max_game_actions(&self) -> u64 {
        9
    }
    fn render(&self) -> String {
        self.position()
    }
}

impl Evaluate for Ttt {
    /// Open lines weighted by how full they are, plus the centre.
    fn evaluate(&self, p: Player) -> f32 {
        let me = p.0 + 1;
        let mut v = 0.0;
        for l in LINES {
            let mine = l.iter().filter(|&&i| self.cells[i] == me).count();
            let theirs = l.iter().filter(|&&i| self.cells[i] == 3 - me).count();
            match (mine, theirs) {
                (m, 0) => v += [0.0, 0.3, 1.1][m.min(2)],
                (0, t) => v -= [0.0, 0.3, 1.1][t.min(2)],
                _ => {}
            }
        }
        if self.cells[4] == me {
            v += 0.25;
        } else if self.cells[4] == 3 - me {
            v -= 0.25;
        }
        v
    }
}

// ---------------------------------------------------------------- dice race

/// Two runners `GOAL` steps from home. A turn: roll a die whose faces read
/// 1, 1, 1, 2, 2, 3 (six outcomes, several leading to the same position,
/// as Ad Elta Stelpur's rolls do), then either `run` (advance by the roll;
/// reaching home wins) or `push` (the opponent goes back by the roll, at
/// most to `FAR`). After `MAX_TURNS` turns the game is a draw.
#[derive(Clone, Debug)]
pub struct DiceRace {
    pub dist: [u8; 2],
    to_move: u8,
    roll: u8,
    turns: u8,
}

pub const GOAL: u8 = 5;
/// The steps each face of the die gives.
const FACES: [u8; 6] = [1, 1, 1, 2, 2, 3];
const FAR: u8 = 7;
const MAX_TURNS: u8 = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceAct {
    /// A roll of `r` steps (tests set one directly).
    Roll(u8),
    /// The die's face `f` (1 to 6): the chance outcomes.
    Face(u8),
    Run,
    Push,
}

impl DiceRace {
    pub fn at(dist: [u8; 2], to_move: u8, turns: u8) -> DiceRace {
        DiceRace {
            dist,
            to_move,
            roll: 0,
            turns,
        }
    }
}

impl Game for DiceRace {
    type Action = RaceAct;
    type Options = ();
    const NAME: &'static str = "race";

    fn option_defs() -> &'static [OptionDef] {
        &[]
    }
    fn options_from(_: &OptionValues) -> Result<(), Error> {
        Ok(())
    }
    fn new_game(_: &()) -> Result<Self, Error> {
        Ok(DiceRace::at([GOAL, GOAL], 0, 0))
    }
    fn from_position(_: &(), text: &str) -> Result<Self, Error> {
        let [a, b, to_move, roll, turns] = parse_fields::<5>(text)?;
        Ok(DiceRace {
            dist: [a, b],
            to_move,
            roll,
            turns,
        })
    }
    fn position(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.dist[0], self.dist[1], self.to_move, self.roll, self.turns
        )
    }
    fn options(&self) -> &() {
        &()
    }
    fn game_type(&self) -> GameType {
        GameType {
            players: 2,
            chance: true,
            multi_action_turns: false,
        }
    }
    fn num_players(&self) -> usize {
        2
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["red", "blue"][p.index()]
    }
    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else if self.roll == 0 {
            Turn::Chance
        } else {
            Turn::Player(Player(self.to_move))
        }
    }
    fn legal_actions(&self, out: &mut Vec<RaceAct>) {
        out.clear();
        if matches!(self.turn(), Turn::Player(_)) {
            out.extend([RaceAct::Run, RaceAct::Push]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(RaceAct, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend((1..=6).map(|f| (RaceAct::Face(f), 1.0 / 6.0)));
        }
    }
    fn apply(&mut self, a: RaceAct) {
        let me = self.to_move as usize;
        match a {
            RaceAct::Roll(r) => {
                self.roll = r;
                return;
            }
            RaceAct::Face(f) => {
                self.roll = FACES[usize::from(f - 1)];
                return;
            }
            RaceAct::Run => self.dist[me] = self.dist[me].saturating_sub(self.roll),
            RaceAct::Push => self.dist[1 - me] = (self.dist[1 - me] + self.roll).min(FAR),
        }
        self.roll = 0;
        self.turns += 1;
        self.to_move ^= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.dist.iter().position(|&d| d == 0) {
            return Some(Outcome::Win(Player(w as u8)));
        }
        (self.turns >= MAX_TURNS).then_some(Outcome::Draw(PlayerSet::all(2)))
    }
    fn action_text(&self, a: RaceAct) -> String {
        match a {
            RaceAct::Roll(r) => format!("roll{r}"),
            RaceAct::Face(f) => format!("face{f}"),
            RaceAct::Run => "run".into(),
            RaceAct::Push => "push".into(),
        }
    }
    fn action_key(&self, a: RaceAct) -> usize {
        match a {
            RaceAct::Roll(r) => r as usize,
            RaceAct::Run => 4,
            RaceAct::Push => 5,
            RaceAct::Face(f) => 5 + f as usize,
        }
    }
    fn action_key_space(&self) -> usize {
        12
    }
    fn hash(&self) -> u64 {
        hash_of((self.dist, self.to_move, self.roll, self.turns))
    }
    fn max_game_actions(&self) -> u64 {
        2 * MAX_TURNS as u64
    }
    fn render(&self) -> String {
        self.position()
    }
}

impl Evaluate for DiceRace {
    fn evaluate(&self, p: Player) -> f32 {
        let me = p.index();
        (f32::from(self.dist[1 - me]) - f32::from(self.dist[me])) * 0.7
    }
}
