//! The distinct whole turns from a position (spec §8), for UIs and tests.
//!
//! A depth-first search over actions that visits each mid-turn state once
//! (many orders of the same soldier steps transpose) and keeps one turn per
//! resulting position. Soldier turns can still number in the millions from
//! a full army, hence the `limit`.

use crate::action::Action;
use crate::pieces::Kind;
use crate::state::Phylde;
use std::collections::HashSet;

/// One whole turn: its actions (without `end`) and the position after it.
#[derive(Clone, Debug)]
pub struct WholeTurn {
    pub actions: Vec<Action>,
    pub result: Phylde,
}

/// Distinct whole turns; `complete` is false when `limit` cut the list.
#[derive(Clone, Debug)]
pub struct TurnList {
    pub turns: Vec<WholeTurn>,
    pub complete: bool,
}

/// The distinct whole turns from `game` (the rest of the turn when one is
/// in progress), only those of `kind` if given, at most `limit` of them.
pub fn whole_turns(game: &Phylde, kind: Option<Kind>, limit: usize) -> TurnList {
    let mut search = Search {
        kind,
        limit,
        visited: HashSet::new(),
        results: HashSet::new(),
        list: TurnList {
            turns: Vec::new(),
            complete: true,
        },
        path: Vec::new(),
    };
    if game.result.is_none() {
        search.visit(game);
    }
    search.list
}

struct Search {
    kind: Option<Kind>,
    limit: usize,
    /// Mid-turn states already expanded.
    visited: HashSet<u64>,
    /// Positions already reached by a whole turn.
    results: HashSet<u64>,
    list: TurnList,
    path: Vec<Action>,
}

impl Search {
    /// Expand every action from `g`; false once the limit is reached.
    fn visit(&mut self, g: &Phylde) -> bool {
        let mut actions = Vec::new();
        g.generate(&mut actions);
        for a in actions {
            if g.turn.count == 0 && self.kind.is_some_and(|k| Some(k) != g.action_kind(a)) {
                continue;
            }
            let mut child = g.clone();
            child.play(a);
            if a != Action::EndTurn {
                self.path.push(a);
            }
            let going = if child.turn.count == 0 || child.result.is_some() {
                self.record(child)
            } else if self.visited.insert(child.board_hash ^ child.turn_hash) {
                self.visit(&child)
            } else {
                true
            };
            if a != Action::EndTurn {
                self.path.pop();
            }
            if !going {
                return false;
            }
        }
        true
    }

    fn record(&mut self, result: Phylde) -> bool {
        if self.results.insert(result.board_hash ^ result.turn_hash) {
            if self.list.turns.len() == self.limit {
                self.list.complete = false;
                return false;
            }
            self.list.turns.push(WholeTurn {
                actions: self.path.clone(),
                result,
            });
        }
        true
    }
}
