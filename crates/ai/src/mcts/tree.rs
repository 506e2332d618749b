//! The MCTS tree: nodes in one arena, each node's children contiguous.

use crate::value::{Returns, MAX_PLAYERS};
use tabula_core::{Game, Turn};

pub type NodeId = u32;
/// No node: the root's parent.
pub const NONE: NodeId = u32::MAX;

/// Who acts at a node, packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    Player(u8),
    Chance,
    Over,
}

impl Actor {
    pub fn of(turn: Turn) -> Actor {
        match turn {
            Turn::Player(p) => Actor::Player(p.0),
            Turn::Chance => Actor::Chance,
            Turn::Over => Actor::Over,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Node<A> {
    /// The action that led here (`None` at the root).
    pub action: Option<A>,
    pub parent: NodeId,
    pub first_child: NodeId,
    pub children: u32,
    pub expanded: bool,
    pub actor: Actor,
    pub visits: u32,
    /// Sum of returns per seat; once proven, the exact returns instead.
    pub sum: Returns,
    pub proven: bool,
    /// Probability of a chance outcome (1 otherwise).
    pub prob: f32,
    /// State hash, to find the new root when the tree is reused.
    pub hash: u64,
}

impl<A> Node<A> {
    /// Mean (or proven) return of seat `p`.
    pub fn mean(&self, p: usize) -> f32 {
        if self.proven {
            self.sum[p]
        } else if self.visits == 0 {
            0.5
        } else {
            self.sum[p] / self.visits as f32
        }
    }

    pub fn child_ids(&self) -> std::ops::Range<NodeId> {
        self.first_child..self.first_child + self.children
    }
}

pub struct Tree<A> {
    pub nodes: Vec<Node<A>>,
    capacity: usize,
}

impl<A: Copy + PartialEq> Tree<A> {
    pub fn new<G: Game<Action = A>>(root: &G, capacity: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity.min(1 << 16));
        nodes.push(Node {
            action: None,
            parent: NONE,
            first_child: 0,
            children: 0,
            expanded: false,
            actor: Actor::of(root.turn()),
            visits: 0,
            sum: [0.0; MAX_PLAYERS],
            proven: false,
            prob: 1.0,
            hash: root.hash(),
        });
        Tree { nodes, capacity }
    }

    pub fn node(&self, id: NodeId) -> &Node<A> {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<A> {
        &mut self.nodes[id as usize]
    }

    /// Share of the node limit in use, 0 to 1.
    pub fn fill(&self) -> f32 {
        self.nodes.len() as f32 / self.capacity as f32
    }

    /// Whether `extra` more nodes fit.
    pub fn has_room(&self, extra: usize) -> bool {
        self.nodes.len() + extra <= self.capacity
    }

    /// Give `id` (whose position is `g`) one child per action, with the
    /// probability of each (1 for player actions); `prior` gives each new
    /// child's starting visits and summed returns.
    pub fn expand<G: Game<Action = A>>(
        &mut self,
        id: NodeId,
        g: &G,
        actions: &[(A, f32)],
        prior: impl Fn(&G) -> (u32, Returns),
    ) {
        let first = self.nodes.len() as NodeId;
        for &(a, prob) in actions {
            let mut child = g.clone();
            child.apply(a);
            let (visits, sum) = prior(&child);
            self.nodes.push(Node {
                action: Some(a),
                parent: id,
                first_child: 0,
                children: 0,
                expanded: false,
                actor: Actor::of(child.turn()),
                visits,
                sum,
                proven: false,
                prob,
                hash: child.hash(),
            });
        }
        let n = self.node_mut(id);
        n.first_child = first;
        n.children = actions.len() as u32;
        n.expanded = true;
    }

    /// The subtree under the node reached from the root whose position
    /// hash is `hash` (breadth first, at most `depth` levels down), as a
    /// new tree rooted there; `None` when there is no such node.
    pub fn reroot(self, hash: u64, actor: Actor, depth: usize) -> Option<Self> {
        let mut level = vec![0 as NodeId];
        let mut found = None;
        'search: for _ in 0..=depth {
            let mut next = Vec::new();
            for &id in &level {
                let n = self.node(id);
                if n.hash == hash && n.actor == actor {
                    found = Some(id);
                    break 'search;
                }
                next.extend(n.child_ids());
            }
            level = next;
        }
        let old_root = found?;
        if old_root == 0 {
            return Some(self);
        }
        // Copy the subtree breadth first so children stay contiguous.
        let mut nodes = Vec::with_capacity(self.nodes.capacity());
        let mut root = self.nodes[old_root as usize].clone();
        root.parent = NONE;
        root.action = None;
        nodes.push(root);
        let mut i = 0;
        while i < nodes.len() {
            let (first, count) = (nodes[i].first_child, nodes[i].children);
            if nodes[i].expanded {
                let new_first = nodes.len() as NodeId;
                for c in first..first + count {
                    let mut child = self.nodes[c as usize].clone();
                    child.parent = i as NodeId;
                    nodes.push(child);
                }
                nodes[i].first_child = new_first;
            }
            i += 1;
        }
        Some(Tree {
            nodes,
            capacity: self.capacity,
        })
    }
}
