//! What a game looks like from outside: its record file, its state as
//! players and watchers see it, and its line in lists.

use super::finish::{EndReason, Ending};
use super::seat::{players, players_and_leavers, seat_label, STAND_IN_LEVEL};
use super::state::{Entry, Round};
use super::{Caller, Room, SeatKind};
use crate::protocol::{
    GameState, GameView, HistoryEntry, PlayerInfo, ResultInfo, Summary, TurnInfo,
};
use tabula_core::{Outcome, Player, Record, Turn};

impl Round {
    /// The whole game as a record file.
    pub fn record(&self) -> Record {
        let mut rec = Record::new(self.spec.clone(), self.start.clone());
        rec.set_meta("seed", self.seed.to_string());
        rec.set_meta("site", format!("tabula game {}", self.id));
        for (i, s) in self.meta.seats.iter().enumerate() {
            rec.set_meta(
                &format!("player {}", i + 1),
                seat_label(s, self.side(i as u8)),
            );
            if s.kind == SeatKind::Ai {
                rec.set_meta(
                    &format!("ai {}", i + 1),
                    s.level.unwrap_or(STAND_IN_LEVEL).name(),
                );
            }
        }
        if let Some(ending) = self.ending() {
            rec.result = Some(ending.outcome);
            if ending.reason != EndReason::Board {
                rec.end = Some(ending.reason.as_str().to_string());
            }
        }
        for e in &self.history {
            rec.push(e.actor.map(Player), e.text.clone());
        }
        rec
    }

    /// The record file, with the chat after the moves as comment lines.
    pub fn export(&self) -> String {
        let mut text = self.record().to_text();
        if !self.chat.is_empty() {
            text.push_str("\n# chat\n");
            for line in &self.chat {
                let room = match line.room {
                    Room::Players => "players",
                    Room::Spectators => "spectators",
                };
                text.push_str(&format!("# [{room}] {}: {}\n", line.name, line.text));
            }
        }
        text
    }

    /// The seats, without their tokens.
    pub fn players(&self) -> Vec<PlayerInfo> {
        players(&self.meta.seats, |i| self.side(i))
    }

    /// What changes move by move: whose turn, legal actions, result.
    pub fn state(&self) -> GameState {
        let turn = match (self.meta.end.is_some(), self.game.turn()) {
            (true, _) | (_, Turn::Over) => TurnInfo::Over,
            (false, Turn::Chance) => TurnInfo::Chance,
            (false, Turn::Player(p)) => TurnInfo::Player { seat: p.0 },
        };
        let (legal, routes, captures) = match self.to_move() {
            Some(_) => (
                self.game.legal_actions(),
                self.game.legal_routes(),
                self.game.legal_captures(),
            ),
            None => (Vec::new(), Vec::new(), Vec::new()),
        };
        GameState {
            ply: self.history.len(),
            position: self.game.position(),
            turn,
            legal,
            routes: routes.into_iter().collect(),
            captures,
            result: self.ending().map(|e| ResultInfo {
                how: (e.reason == EndReason::Board)
                    .then(|| self.game.end_reason())
                    .flatten()
                    .map(str::to_string),
                ..result_info(&e)
            }),
            players: self.players(),
            draw_offer: self.meta.draw_offer.clone(),
            thinking: self.thinking,
            rematch: self.meta.rematch.clone(),
            hints: self.meta.hints_allowed(),
            clock: self.clock_info(),
            away: self.meta.away.clone(),
            rated: self.meta.rated,
            rating_diff: self.meta.rating_diff.clone(),
            imported: self.meta.imported,
            claim: self.meta.claim.as_ref().map(result_info),
        }
    }

    /// The history from ply `from` on, plus the current state.
    pub fn view(&self, from: usize) -> GameView {
        let from = from.min(self.history.len());
        GameView {
            id: self.id.clone(),
            game: self.game.name().to_string(),
            title: self.title.to_string(),
            spec: self.spec.clone(),
            num_players: self.game.num_players(),
            start: self.start_game.position(),
            from,
            history: self.history[from..].iter().map(history_entry).collect(),
            state: self.state(),
            you: Vec::new(),
            chat: Vec::new(),
        }
    }

    /// The whole game as `caller` sees it: their seats and the chat they
    /// may read.
    pub fn view_for(&self, caller: &Caller) -> GameView {
        let you = self.seats_of(caller);
        let chat = self.chat_for(!you.is_empty());
        GameView {
            you,
            chat,
            ..self.view(0)
        }
    }

    /// A line for the list of games.
    pub fn summary(&self) -> Summary {
        Summary {
            id: self.id.clone(),
            game: self.game.name().to_string(),
            title: self.title.to_string(),
            spec: self.spec.clone(),
            created: self.created,
            ply: self.history.len(),
            over: self.is_over(),
            players: players_and_leavers(&self.meta, |i| self.side(i)),
            result: self.ending().map(|e| e.outcome.to_text()),
            reason: self.ending().map(|e| e.reason),
            left: self.meta.left.clone(),
            imported: self.meta.imported,
        }
    }
}

fn history_entry(e: &Entry) -> HistoryEntry {
    HistoryEntry {
        actor: e.actor,
        text: e.text.clone(),
        pos: e.pos.clone(),
        capture: e.facts.capture,
        check: e.facts.check,
        mate: e.facts.mate,
        route: e.route.clone(),
    }
}

fn result_info(e: &Ending) -> ResultInfo {
    let (draw, winners) = match e.outcome {
        Outcome::Win(p) => (false, vec![p.0]),
        Outcome::Draw(set) => (true, set.iter().map(|p| p.0).collect()),
    };
    ResultInfo {
        text: e.outcome.to_text(),
        draw,
        winners,
        reason: e.reason,
        how: None,
    }
}
