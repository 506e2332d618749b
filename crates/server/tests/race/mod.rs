//! A tiny dice race used to test the server without depending on the real
//! games: a roll of 1..=3 opens every turn (a chance node), then the player
//! moves `run` (the roll) or `walk` (1 step). First to 10 wins. Two or
//! three seats (`players=3`).

use tabula_core::options::{OptionDef, OptionKind, OptionValues};
use tabula_core::{Error, Game, Outcome, Player, Turn};

const GOAL: u8 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    Roll(u8),
    Run,
    Walk,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Opts {
    players: u8,
}

#[derive(Clone, Debug)]
pub struct Race {
    opts: Opts,
    at: [u8; 3],
    to_move: u8,
    roll: Option<u8>,
}

const DEFS: &[OptionDef] = &[OptionDef {
    key: "players",
    kind: OptionKind::Int { min: 2, max: 3 },
    default: "2",
    help: "seats",
}];

impl Game for Race {
    type Action = Act;
    type Options = Opts;
    const NAME: &'static str = "race";

    fn option_defs() -> &'static [OptionDef] {
        DEFS
    }
    fn options_from(v: &OptionValues) -> Result<Opts, Error> {
        Ok(Opts {
            players: v.int("players").unwrap_or(2) as u8,
        })
    }
    fn new_game(o: &Opts) -> Result<Self, Error> {
        Ok(Race {
            opts: o.clone(),
            at: [0; 3],
            to_move: 0,
            roll: None,
        })
    }
    fn from_position(o: &Opts, text: &str) -> Result<Self, Error> {
        let bad = || Error::position(format!("`{text}`: expected `a,b[,c] seat roll|-`"));
        let f: Vec<&str> = text.split_whitespace().collect();
        let [at, seat, roll] = f[..] else {
            return Err(bad());
        };
        let mut g = Race::new_game(o)?;
        let at: Vec<u8> = at
            .split(',')
            .map(|s| s.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        if at.len() != o.players as usize || at.iter().any(|&a| a > GOAL + 3) {
            return Err(bad());
        }
        g.at[..at.len()].copy_from_slice(&at);
        g.to_move = seat
            .parse::<u8>()
            .ok()
            .filter(|s| (1..=o.players).contains(s))
            .ok_or_else(bad)?
            - 1;
        g.roll = match roll {
            "-" => None,
            r => Some(
                r.parse()
                    .ok()
                    .filter(|r| (1..=3).contains(r))
                    .ok_or_else(bad)?,
            ),
        };
        Ok(g)
    }
    fn position(&self) -> String {
        let at: Vec<String> = self.at[..self.opts.players as usize]
            .iter()
            .map(u8::to_string)
            .collect();
        let roll = self.roll.map_or("-".to_string(), |r| r.to_string());
        format!("{} {} {roll}", at.join(","), self.to_move + 1)
    }
    fn options(&self) -> &Opts {
        &self.opts
    }
    fn num_players(&self) -> usize {
        self.opts.players as usize
    }
    fn player_name(&self, p: Player) -> &'static str {
        ["Red", "Blue", "Green"][p.index()]
    }
    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else if self.roll.is_none() {
            Turn::Chance
        } else {
            Turn::Player(Player(self.to_move))
        }
    }
    fn legal_actions(&self, out: &mut Vec<Act>) {
        out.clear();
        if matches!(self.turn(), Turn::Player(_)) {
            out.extend([Act::Run, Act::Walk]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(Act, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend((1..=3).map(|r| (Act::Roll(r), 1.0 / 3.0)));
        }
    }
    fn apply(&mut self, a: Act) {
        let p = self.to_move as usize;
        match a {
            Act::Roll(r) => return self.roll = Some(r),
            Act::Run => self.at[p] += self.roll.unwrap_or(1),
            Act::Walk => self.at[p] += 1,
        }
        self.roll = None;
        self.to_move = (self.to_move + 1) % self.opts.players;
    }
    fn outcome(&self) -> Option<Outcome> {
        let w = self.at.iter().position(|&a| a >= GOAL)?;
        Some(Outcome::Win(Player(w as u8)))
    }
    fn action_text(&self, a: Act) -> String {
        match a {
            Act::Roll(r) => format!("roll{r}"),
            Act::Run => "run".into(),
            Act::Walk => "walk".into(),
        }
    }
    fn action_key(&self, a: Act) -> usize {
        match a {
            Act::Roll(r) => r as usize,
            Act::Run => 4,
            Act::Walk => 5,
        }
    }
    fn action_key_space(&self) -> usize {
        6
    }
    fn hash(&self) -> u64 {
        let mut h = 0u64;
        for b in self.position().bytes() {
            h = h.wrapping_mul(31).wrapping_add(b as u64);
        }
        h
    }
    fn max_game_actions(&self) -> u64 {
        2 * GOAL as u64 * self.opts.players as u64
    }
    fn render(&self) -> String {
        self.position()
    }
}
