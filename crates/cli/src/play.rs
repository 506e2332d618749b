//! `tabula play`: a game in the terminal. Human seats type actions; computer
//! seats and dice are played by the program, with a seed that is recorded so
//! the game can be replayed exactly.

use crate::inspect::status_line;
use crate::legend::legend;
use crate::{open_game, CmdResult};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::io::{BufRead, Write};
use tabula_ai::{AiLevel, AnyAgent, Limits};
use tabula_core::{AnyGame, Player, Record, Turn};

#[derive(clap::Args)]
pub struct Args {
    /// Game spec, e.g. `dragonchess` or `stelpur(preset=ludii)`.
    spec: String,
    /// Who sits where, comma-separated in seat order: `human`, `computer`,
    /// `computer:N` for level N, or `random` (default: seat 1 human, the
    /// others computer).
    #[arg(long)]
    seats: Option<String>,
    /// Strength of the computer seats, 1 (beginner) to 8 (about 2 s a move).
    #[arg(long, default_value_t = 3)]
    level: u8,
    /// Seed for dice and computer players (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Save the record to this file when the game ends, or as far as it
    /// went on `quit`.
    #[arg(long)]
    save: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Seat {
    Human,
    /// A computer player of this level (`random` chooses uniformly at
    /// random: fast, reproducible).
    Computer(AiLevel),
}

fn parse_seats(text: Option<&str>, n: usize, level: u8) -> Result<Vec<Seat>, String> {
    let check = |l: u8| {
        AiLevel::from_number(l)
            .map(Seat::Computer)
            .map_err(|e| e.message)
    };
    let Some(text) = text else {
        return (0..n)
            .map(|i| {
                if i == 0 {
                    Ok(Seat::Human)
                } else {
                    check(level)
                }
            })
            .collect();
    };
    let seats = text
        .split(',')
        .map(|s| match s.trim().to_ascii_lowercase().as_str() {
            "human" | "h" => Ok(Seat::Human),
            "random" => Ok(Seat::Computer(AiLevel::Random)),
            "computer" | "c" | "ai" => check(level),
            other => match other.strip_prefix("computer:").map(str::parse::<u8>) {
                Some(Ok(l)) => check(l),
                _ => Err(format!(
                    "bad seat `{other}` (valid: human, computer, computer:N, random)"
                )),
            },
        })
        .collect::<Result<Vec<_>, _>>()?;
    if seats.len() != n {
        return Err(format!(
            "--seats lists {} seats but the game has {n}",
            seats.len()
        ));
    }
    Ok(seats)
}

const HELP: &str =
    "type an action (see `moves`), or: moves, show, legend, undo, save FILE, help, quit";

/// The state of a terminal game: the record is the truth, the game is the
/// record replayed.
struct Session {
    game: Box<dyn AnyGame>,
    record: Record,
    seats: Vec<Seat>,
    /// The AI of each computer seat.
    agents: Vec<Option<Box<dyn AnyAgent>>>,
    rng: SmallRng,
    /// Dice outcomes taken back by `undo`, replayed before new rolls so an
    /// undo cannot be used to re-roll.
    undone_rolls: Vec<String>,
}

impl Session {
    fn actor(&self) -> Option<Player> {
        match self.game.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let actor = self.actor();
        let canonical = self.game.apply_text(text).map_err(|e| e.to_string())?;
        self.record.push(actor, canonical.clone());
        Ok(canonical)
    }

    /// Who the dice are thrown for: the player to move after some outcome
    /// (the games name no roller; a roll that moves nothing passes on, so
    /// every outcome is tried until one leaves a player to move).
    fn roller(&self) -> Option<Player> {
        self.game
            .chance_outcomes()
            .into_iter()
            .find_map(|(outcome, _)| {
                let mut g = self.game.clone_box();
                g.apply_text(&outcome).ok()?;
                match g.turn() {
                    Turn::Player(p) => Some(p),
                    _ => None,
                }
            })
    }

    fn roll(&mut self) -> Result<String, String> {
        if let Some(r) = self.undone_rolls.pop() {
            if self.game.chance_outcomes().iter().any(|(a, _)| *a == r) {
                return self.play(&r);
            }
            self.undone_rolls.clear();
        }
        let pick = self
            .game
            .sample_chance(&mut self.rng)
            .ok_or("no chance outcome")?;
        self.play(&pick)
    }

    fn computer_action(&mut self, p: Player) -> Result<String, String> {
        let agent = self.agents[p.index()]
            .as_mut()
            .ok_or("no computer player in this seat")?;
        let choice = agent
            .choose(self.game.as_ref(), &Limits::default())
            .map_err(|e| e.to_string())?;
        self.play(&choice.action)
    }

    /// Take back everything since (and including) the last human action.
    fn undo(&mut self) -> Result<(), String> {
        let last_human = self
            .record
            .actions
            .iter()
            .rposition(|a| {
                a.actor
                    .is_some_and(|p| self.seats[p.index()] == Seat::Human)
            })
            .ok_or("nothing to undo")?;
        for a in self.record.actions.drain(last_human..).rev() {
            if a.actor.is_none() {
                self.undone_rolls.push(a.text);
            }
        }
        self.game = self
            .record
            .replay(&tabula_games::registry())
            .map_err(|e| e.to_string())?;
        Ok(())
    }

    fn save(&mut self, path: &str) -> Result<(), String> {
        self.record.result = self.game.outcome();
        std::fs::write(path, self.record.to_text()).map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// Save to `--save`'s file, if given, and say so: at the end, and on
    /// `quit` (an unfinished game is kept as far as it went).
    fn save_asked(&mut self, path: Option<&str>) -> Result<(), String> {
        if let Some(path) = path {
            self.save(path)?;
            println!("record saved to {path}");
        }
        Ok(())
    }
}

pub fn run(args: Args) -> CmdResult {
    let game = open_game(&args.spec, args.position.as_deref())?;
    let seats = parse_seats(args.seats.as_deref(), game.num_players(), args.level)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let start = args.position.as_ref().map(|_| game.position());
    let mut record = Record::new(game.spec(), start);
    record.set_meta("seed", seed.to_string());
    for (i, s) in seats.iter().enumerate() {
        let who = match s {
            Seat::Human => "human".to_string(),
            Seat::Computer(level) => match level.number() {
                Some(n) => format!("computer level {n}"),
                None => format!("computer {level}"),
            },
        };
        record.set_meta(
            &format!("player {}", i + 1),
            format!("{} ({who})", game.player_name(Player(i as u8))),
        );
    }
    let agents = seats
        .iter()
        .enumerate()
        .map(|(i, seat)| match seat {
            Seat::Human => Ok(None),
            Seat::Computer(level) => {
                tabula_games::make_agent(game.as_ref(), *level, seed ^ i as u64).map(Some)
            }
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut s = Session {
        game,
        record,
        seats,
        agents,
        rng: SmallRng::seed_from_u64(seed),
        undone_rolls: Vec::new(),
    };
    println!("{HELP}");
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut shown = false;
    loop {
        match s.game.turn() {
            Turn::Over => {
                println!("{}", s.game.render().trim_end());
                println!("{}", status_line(s.game.as_ref()));
                s.save_asked(args.save.as_deref())?;
                return Ok(());
            }
            Turn::Chance => {
                let roller = s.roller();
                let r = s.roll()?;
                match roller {
                    Some(p) => println!("{} rolls {r}", s.game.player_name(p)),
                    None => println!("roll: {r}"),
                }
                shown = false;
            }
            Turn::Player(p) if s.seats[p.index()] != Seat::Human => {
                let a = s.computer_action(p)?;
                println!("{} plays {a}", s.game.player_name(p));
                shown = false;
            }
            Turn::Player(p) => {
                // The prompt names the side to move: the board is shown without
                // a status line saying it again.
                if !shown {
                    println!("{}", s.game.render().trim_end());
                    shown = true;
                }
                print!("{}> ", s.game.player_name(p));
                let _ = std::io::stdout().flush();
                let Some(line) = lines.next() else {
                    println!();
                    return Err("input closed before the game ended".into());
                };
                let line = line.map_err(|e| format!("cannot read input: {e}"))?;
                let line = line.trim();
                let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                match cmd {
                    "" => {}
                    "help" | "?" => println!("{HELP}"),
                    "quit" | "exit" => return s.save_asked(args.save.as_deref()),
                    "moves" => println!("{}", s.game.legal_actions().join(" ")),
                    "show" => shown = false,
                    "legend" => match legend(s.game.name()) {
                        Some(text) => println!("{text}"),
                        None => println!("no legend for {}", s.game.name()),
                    },
                    "undo" => match s.undo() {
                        Ok(()) => shown = false,
                        Err(e) => println!("{e}"),
                    },
                    "save" if rest.trim().is_empty() => println!("usage: save FILE"),
                    "save" => match s.save(rest.trim()) {
                        Ok(()) => println!("record saved to {}", rest.trim()),
                        Err(e) => println!("{e}"),
                    },
                    _ => match s.play(line) {
                        Ok(a) => {
                            println!("{} plays {a}", s.game.player_name(p));
                            shown = false;
                        }
                        Err(e) => println!("{e}"),
                    },
                }
            }
        }
    }
}
