//! The generic agent interface, in the game's own types.

use crate::budget::{Budget, Limits};
use crate::Choice;
use tabula_core::{Error, Game, Turn};

/// A search result for one decision.
#[derive(Clone, Debug)]
pub struct Decision<G: Game> {
    pub action: G::Action,
    /// Expected score of the player to move, in `[0, 1]`.
    pub value: f32,
    /// Principal line from the root, starting with `action` (may contain
    /// chance outcomes).
    pub pv: Vec<G::Action>,
    pub nodes: u64,
    /// Deepest completed iteration, in player actions, for the searches
    /// that deepen step by step; `None` for the others (MCTS, random).
    pub depth: Option<u32>,
    /// Root actions, best first, with their values.
    pub ranked: Vec<(G::Action, f32)>,
    /// Leading entries of `ranked` whose values are the search's own;
    /// after them alpha-beta's values are upper bounds (the action is no
    /// better than that, but may be worse), see `Limits::multipv`.
    pub exact: usize,
    /// Expected score of every seat after `action`, when the search knows
    /// them apart (MCTS on one thread); `None` otherwise (two players
    /// derive them from `value`).
    pub seats: Option<crate::value::Returns>,
}

impl<G: Game> Decision<G> {
    /// A decision without search information.
    pub fn bare(action: G::Action, value: f32, nodes: u64) -> Self {
        Decision {
            action,
            value,
            pv: vec![action],
            nodes,
            depth: None,
            ranked: vec![(action, value)],
            exact: 1,
            seats: None,
        }
    }

    /// The same decision with the best ranked action that is not a
    /// retreat in first place, when its own action is one
    /// (`Evaluate::is_retreat`); unchanged when every ranked action is.
    pub fn avoid(self, is_retreat: impl Fn(G::Action) -> bool) -> Self {
        if !is_retreat(self.action) {
            return self;
        }
        let other = self
            .ranked
            .iter()
            .map(|&(a, _)| a)
            .find(|&a| !is_retreat(a));
        self.prefer(other)
    }

    /// The same decision with `action` in first place when there is one
    /// (the game's own endgame knowledge, `Evaluate::endgame_action`): its
    /// value is what the search found for it (a bound, for alpha-beta's
    /// actions other than its best), its line starts afresh.
    pub fn prefer(mut self, action: Option<G::Action>) -> Self {
        let Some(action) = action.filter(|&a| a != self.action) else {
            return self;
        };
        let value = match self.ranked.iter().position(|&(a, _)| a == action) {
            Some(i) => {
                self.exact = if i < self.exact { self.exact } else { 0 };
                self.ranked.remove(i).1
            }
            None => {
                self.exact = 0;
                self.value
            }
        };
        self.ranked.insert(0, (action, value));
        self.seats = None;
        self.action = action;
        self.value = value;
        self.pv = vec![action];
        self
    }

    /// The same decision in notation; the principal line is cut where it
    /// stops being legal (it never should) or the game ends.
    pub fn to_choice(&self, root: &G) -> Choice {
        let mut pv = Vec::with_capacity(self.pv.len());
        let mut g = root.clone();
        for &a in &self.pv {
            if g.turn() == Turn::Over || !g.actions_here().contains(&a) {
                break;
            }
            pv.push(g.action_text(a));
            g.apply(a);
        }
        Choice {
            action: root.action_text(self.action),
            value: self.value,
            pv,
            nodes: self.nodes,
            depth: self.depth,
            ranked: self
                .ranked
                .iter()
                .map(|&(a, v)| (root.action_text(a), v))
                .collect(),
            exact: self.exact.min(self.ranked.len()),
            values: self.values_of_seats(root),
        }
    }

    /// Every seat's expected score: the search's own when it has them,
    /// else `[value, 1 - value]` turned to the seats' order for two
    /// players, else empty.
    fn values_of_seats(&self, root: &G) -> Vec<f32> {
        let n = root.num_players();
        if let Some(seats) = self.seats {
            return seats.iter().take(n).copied().collect();
        }
        match root.turn() {
            Turn::Player(me) if n == 2 => {
                let mine = self.value;
                (0..2)
                    .map(|p| if p == me.index() { mine } else { 1.0 - mine })
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// An agent for game `G`. Called only when a player is to move.
pub trait Agent<G: Game>: Send {
    fn name(&self) -> &str;
    /// The budget used where the caller's [`Limits`] leave a field unset.
    fn default_limits(&self) -> Limits;
    fn decide(&mut self, state: &G, budget: &Budget) -> Result<Decision<G>, Error>;
}
