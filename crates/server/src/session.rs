//! One game in progress: the rules object, its history, the seats, and
//! everything decided off the board (resignation, agreed draw). Pure and
//! synchronous: the caller persists a change before it commits it here.

use crate::error::ApiError;
use crate::store::StoredAction;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_core::{AnyGame, Outcome, Player, PlayerSet, Record, Turn};

/// Who sits in a seat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SeatKind {
    Human,
    Ai,
}

/// One seat. The token is the seat's secret: whoever holds it plays it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Seat {
    pub kind: SeatKind,
    /// AI level (`level1`..`level8`, `random`) for an AI seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    pub token: String,
    #[serde(default)]
    pub name: String,
    /// Someone opened the seat's link (or created the game holding it).
    #[serde(default)]
    pub joined: bool,
}

/// A result decided off the board.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OffBoard {
    /// `win N` / `draw N,M`, as in records.
    pub result: String,
    /// `resign` or `agreement`.
    pub reason: String,
}

/// Everything about a game besides its actions, stored as JSON.
#[derive(Clone, Debug, Serialize, Deserialize, Default)]
pub struct Meta {
    pub seats: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<OffBoard>,
    /// Seats (0-based) that offer a draw now.
    #[serde(default)]
    pub draw_offer: Vec<u8>,
    /// The game that follows this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
}

impl Meta {
    /// This meta with the game ended off the board.
    pub fn ended(&self, outcome: Outcome, reason: &str) -> Meta {
        Meta {
            end: Some(OffBoard {
                result: outcome.to_text(),
                reason: reason.to_string(),
            }),
            draw_offer: Vec::new(),
            ..self.clone()
        }
    }
}

/// One played action and the position after it (for replay in the UI).
#[derive(Clone, Debug)]
pub struct Entry {
    pub actor: Option<u8>,
    pub text: String,
    pub pos: String,
}

impl Entry {
    pub fn stored(&self) -> StoredAction {
        StoredAction {
            actor: self.actor,
            text: self.text.clone(),
        }
    }
}

/// A game in progress.
pub struct Session {
    pub id: String,
    pub created: i64,
    pub title: &'static str,
    pub spec: String,
    pub start: Option<String>,
    pub seed: u64,
    pub meta: Meta,
    pub game: Box<dyn AnyGame>,
    /// The game before any action, to replay from on a take-back.
    pub start_game: Box<dyn AnyGame>,
    pub history: Vec<Entry>,
    /// An AI seat is computing its move.
    pub thinking: bool,
    /// Rises on every change of the position; an AI answer for an older
    /// version is dropped.
    pub version: u64,
}

/// The outcome of the game as a whole, on or off the board.
pub fn result_of(game: &dyn AnyGame, meta: &Meta) -> Option<(Outcome, &'static str)> {
    if let Some(end) = &meta.end {
        let reason = if end.reason == "resign" {
            "resign"
        } else {
            "agreement"
        };
        return Outcome::parse(&end.result).ok().map(|o| (o, reason));
    }
    game.outcome().map(|o| (o, "board"))
}

impl Session {
    pub fn is_over(&self) -> bool {
        self.meta.end.is_some() || self.game.turn() == Turn::Over
    }

    /// The seat whose token this is.
    pub fn seat_of(&self, token: &str) -> Result<u8, ApiError> {
        self.meta
            .seats
            .iter()
            .position(|s| !token.is_empty() && s.token == token)
            .map(|i| i as u8)
            .ok_or_else(|| ApiError::forbidden("this link holds no seat in this game"))
    }

    /// The seat to move, if a player is to move and the game is on.
    pub fn to_move(&self) -> Option<u8> {
        match (self.meta.end.is_some(), self.game.turn()) {
            (false, Turn::Player(p)) => Some(p.0),
            _ => None,
        }
    }

    pub fn ai_to_move(&self) -> Option<(u8, String)> {
        let seat = self.to_move()?;
        let s = &self.meta.seats[seat as usize];
        (s.kind == SeatKind::Ai).then(|| (seat, s.level.clone().unwrap_or_default()))
    }

    /// Play `text` for `seat` on a copy, then roll every chance node that
    /// follows with the game's seeded dice. Returns the new state and the
    /// entries to store; the session itself is unchanged.
    pub fn try_play(
        &self,
        seat: u8,
        text: &str,
    ) -> Result<(Box<dyn AnyGame>, Vec<Entry>), ApiError> {
        if self.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        match self.to_move() {
            Some(s) if s == seat => {}
            Some(s) => {
                return Err(ApiError::forbidden(format!(
                    "it is not your turn: {} ({}) is to move",
                    self.player_name(s),
                    s + 1
                )))
            }
            None => return Err(ApiError::conflict("no player is to move")),
        }
        let mut game = self.game.clone();
        let canonical = game.apply_text(text).map_err(ApiError::from)?;
        let mut entries = vec![Entry {
            actor: Some(seat),
            text: canonical,
            pos: game.position(),
        }];
        self.roll_chance(&mut game, &mut entries);
        Ok((game, entries))
    }

    /// Roll the dice while nature is to act. Each roll is seeded by the
    /// game's seed and the ply, so a take-back replays the same dice.
    fn roll_chance(&self, game: &mut Box<dyn AnyGame>, entries: &mut Vec<Entry>) {
        while game.turn() == Turn::Chance {
            let ply = (self.history.len() + entries.len()) as u64;
            let mut rng =
                SmallRng::seed_from_u64(self.seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let outcomes = game.chance_outcomes();
            let mut x: f64 = rng.gen();
            let mut pick = outcomes.last().map(|o| o.0.clone());
            for (text, p) in &outcomes {
                if x < *p {
                    pick = Some(text.clone());
                    break;
                }
                x -= p;
            }
            let Some(text) = pick else { return };
            match game.apply_text(&text) {
                Ok(canonical) => entries.push(Entry {
                    actor: None,
                    text: canonical,
                    pos: game.position(),
                }),
                Err(_) => return,
            }
        }
    }

    /// The chance actions due at the start (a game that opens with a roll).
    pub fn opening_rolls(&self) -> (Box<dyn AnyGame>, Vec<Entry>) {
        let mut game = self.game.clone();
        let mut entries = Vec::new();
        self.roll_chance(&mut game, &mut entries);
        (game, entries)
    }

    /// Take a computed change in.
    pub fn commit(&mut self, game: Box<dyn AnyGame>, entries: Vec<Entry>) {
        self.game = game;
        self.history.extend(entries);
        self.meta.draw_offer.clear();
        self.version += 1;
    }

    /// Where a take-back by `seat` goes back to: just before its last action.
    /// Only the AI or chance may have acted since, unless another human
    /// plays here: then only inside the requester's own turn.
    pub fn undo_point(&self, seat: u8) -> Result<usize, ApiError> {
        if self.meta.end.is_some() {
            return Err(ApiError::conflict("the game has ended off the board"));
        }
        let last = self
            .history
            .iter()
            .rposition(|e| e.actor == Some(seat))
            .ok_or_else(|| ApiError::conflict("you have no move to take back"))?;
        let other_humans = self
            .meta
            .seats
            .iter()
            .enumerate()
            .any(|(i, s)| i != seat as usize && s.kind == SeatKind::Human);
        let since_ok = self.history[last + 1..].iter().all(|e| match e.actor {
            None => true,
            Some(a) => self.meta.seats[a as usize].kind == SeatKind::Ai,
        });
        let own_turn = last + 1 == self.history.len() && self.to_move() == Some(seat);
        if own_turn || (!other_humans && since_ok) {
            Ok(last)
        } else {
            Err(ApiError::forbidden(
                "take-backs are for games against the AI, or inside your own turn",
            ))
        }
    }

    /// The game replayed up to `ply` (exclusive).
    pub fn rewound(&self, ply: usize) -> Result<Box<dyn AnyGame>, ApiError> {
        let mut game = self.start_game.clone();
        for e in &self.history[..ply] {
            game.apply_text(&e.text).map_err(ApiError::from)?;
        }
        Ok(game)
    }

    pub fn truncate(&mut self, ply: usize, game: Box<dyn AnyGame>) {
        self.history.truncate(ply);
        self.game = game;
        self.meta.draw_offer.clear();
        self.version += 1;
    }

    pub fn player_name(&self, seat: u8) -> &'static str {
        self.game.player_name(Player(seat))
    }

    /// The whole game as a record file.
    pub fn record(&self) -> Record {
        let mut rec = Record::new(self.spec.clone(), self.start.clone());
        rec.set_meta("seed", self.seed.to_string());
        rec.set_meta("site", format!("tabula game {}", self.id));
        for (i, s) in self.meta.seats.iter().enumerate() {
            rec.set_meta(&format!("player {}", i + 1), self.seat_label(i));
            if s.kind == SeatKind::Ai {
                rec.set_meta(
                    &format!("ai {}", i + 1),
                    s.level.clone().unwrap_or_default(),
                );
            }
        }
        if let Some((outcome, _)) = result_of(self.game.as_ref(), &self.meta) {
            rec.result = Some(outcome);
        }
        rec.end = self.meta.end.as_ref().map(|e| e.reason.clone());
        for e in &self.history {
            rec.push(e.actor.map(Player), e.text.clone());
        }
        rec
    }

    fn seat_label(&self, i: usize) -> String {
        let s = &self.meta.seats[i];
        match s.kind {
            SeatKind::Ai => format!("AI {}", s.level.as_deref().unwrap_or("")),
            SeatKind::Human if s.name.is_empty() => {
                self.game.player_name(Player(i as u8)).to_string()
            }
            SeatKind::Human => s.name.clone(),
        }
    }

    /// The seats, without their tokens.
    fn seats_json(&self) -> Value {
        let seats: Vec<Value> = self
            .meta
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "seat": i,
                    "side": self.game.player_name(Player(i as u8)),
                    "kind": s.kind,
                    "level": s.level,
                    "name": self.seat_label(i),
                    "joined": s.joined || s.kind == SeatKind::Ai,
                })
            })
            .collect();
        Value::Array(seats)
    }

    /// What changes move by move: whose turn, legal actions, result.
    pub fn state_json(&self) -> Value {
        let turn = match (self.meta.end.is_some(), self.game.turn()) {
            (true, _) | (_, Turn::Over) => json!({"kind": "over"}),
            (false, Turn::Chance) => json!({"kind": "chance"}),
            (false, Turn::Player(p)) => json!({"kind": "player", "seat": p.0}),
        };
        let legal = match self.to_move() {
            Some(_) => self.game.legal_actions(),
            None => Vec::new(),
        };
        let result = result_of(self.game.as_ref(), &self.meta).map(|(o, reason)| {
            let winners: Vec<u8> = match o {
                Outcome::Win(p) => vec![p.0],
                Outcome::Draw(set) => set.iter().map(|p| p.0).collect(),
            };
            json!({
                "text": o.to_text(),
                "draw": matches!(o, Outcome::Draw(_)),
                "winners": winners,
                "reason": reason,
            })
        });
        json!({
            "ply": self.history.len(),
            "position": self.game.position(),
            "turn": turn,
            "legal": legal,
            "result": result,
            "players": self.seats_json(),
            "draw_offer": self.meta.draw_offer,
            "thinking": self.thinking,
            "rematch": self.meta.rematch,
        })
    }

    /// Everything a new viewer needs.
    pub fn snapshot(&self) -> Value {
        let mut v = self.update_json(0);
        v["type"] = json!("snapshot");
        v
    }

    /// History from ply `from` on, plus the current state.
    pub fn update_json(&self, from: usize) -> Value {
        let history: Vec<Value> = self.history[from.min(self.history.len())..]
            .iter()
            .map(|e| json!({"actor": e.actor, "text": e.text, "pos": e.pos}))
            .collect();
        json!({
            "type": "update",
            "id": self.id,
            "game": self.game.name(),
            "title": self.title,
            "spec": self.spec,
            "num_players": self.game.num_players(),
            "start": self.start_game.position(),
            "from": from,
            "history": history,
            "state": self.state_json(),
        })
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Value {
        json!({
            "id": self.id,
            "game": self.game.name(),
            "title": self.title,
            "spec": self.spec,
            "created": self.created,
            "ply": self.history.len(),
            "over": self.is_over(),
            "players": self.seats_json(),
            "result": result_of(self.game.as_ref(), &self.meta).map(|(o, _)| o.to_text()),
        })
    }

    /// Every seat shares the draw.
    pub fn all_seats(&self) -> PlayerSet {
        PlayerSet::all(self.game.num_players())
    }
}
