//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm with
//! the primal-dual method, after Galil's 1986 survey, in the array layout made
//! popular by Joris van Rantwijk's reference implementation), O(n³).
//!
//! Swiss pairing needs it because a complete pairing under hard constraints
//! must be found whenever one exists, which no greedy or bounded backtracking
//! can promise; the pairing criteria are folded into one integer weight per
//! edge (see `swiss`). Integer weights keep everything exact: vertex duals are
//! stored doubled so every quantity stays an integer.

/// A weight; `i128` so that lexicographic criteria fit in one number.
pub type Weight = i128;

const NONE: usize = usize::MAX;
/// Labels of top-level blossoms (and of vertices inside T-blossoms).
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
/// Breadcrumb bit used while scanning for a blossom.
const CRUMB: u8 = 4;

type Edge = (usize, usize);

/// Returns `mate[v]` (the partner of `v`, or `None`) of a matching of maximum
/// weight among those of maximum cardinality (when `max_cardinality`), else of
/// maximum weight. `weights[v][w]` is `None` where there is no edge; the
/// matrix must be symmetric. Ties are broken deterministically.
pub fn max_weight_matching(
    weights: &[Vec<Option<Weight>>],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    let n = weights.len();
    if n == 0 {
        return Vec::new();
    }
    let mut m = Matcher::new(weights, max_cardinality);
    m.solve();
    m.mate
        .iter()
        .map(|&w| if w == NONE { None } else { Some(w) })
        .collect()
}

struct Matcher<'a> {
    w: &'a [Vec<Option<Weight>>],
    n: usize,
    max_cardinality: bool,
    neighbours: Vec<Vec<usize>>,
    mate: Vec<usize>,
    /// Indexed by vertex (< n) or blossom (>= n).
    label: Vec<u8>,
    labeledge: Vec<Option<Edge>>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossombase: Vec<usize>,
    childs: Vec<Vec<usize>>,
    edges: Vec<Vec<Edge>>,
    mybestedges: Vec<Option<Vec<Edge>>>,
    bestedge: Vec<Option<Edge>>,
    /// Twice the vertex duals.
    dualvar: Vec<Weight>,
    blossomdual: Vec<Weight>,
    unused_blossoms: Vec<usize>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

impl<'a> Matcher<'a> {
    fn new(w: &'a [Vec<Option<Weight>>], max_cardinality: bool) -> Self {
        let n = w.len();
        let maxweight = w
            .iter()
            .flat_map(|row| row.iter().flatten())
            .copied()
            .fold(0, Weight::max);
        let neighbours = (0..n)
            .map(|v| (0..n).filter(|&u| u != v && w[v][u].is_some()).collect())
            .collect();
        Matcher {
            w,
            n,
            max_cardinality,
            neighbours,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            labeledge: vec![None; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            childs: vec![Vec::new(); 2 * n],
            edges: vec![Vec::new(); 2 * n],
            mybestedges: vec![None; 2 * n],
            bestedge: vec![None; 2 * n],
            dualvar: vec![maxweight; n],
            blossomdual: vec![0; 2 * n],
            unused_blossoms: (n..2 * n).rev().collect(),
            allowedge: vec![false; n * n],
            queue: Vec::new(),
        }
    }

    fn weight(&self, v: usize, w: usize) -> Weight {
        self.w[v][w].unwrap_or(0)
    }

    /// Twice the slack of edge (v, w); not valid inside blossoms.
    fn slack(&self, (v, w): Edge) -> Weight {
        self.dualvar[v] + self.dualvar[w] - 2 * self.weight(v, w)
    }

    fn is_blossom(&self, b: usize) -> bool {
        b >= self.n
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &c in &self.childs[b] {
                self.leaves(c, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.leaves(b, &mut out);
        out
    }

    fn allow(&mut self, v: usize, w: usize) {
        self.allowedge[v * self.n + w] = true;
        self.allowedge[w * self.n + v] = true;
    }

    fn assign_label(&mut self, w: usize, t: u8, v: usize) {
        let b = self.inblossom[w];
        debug_assert!(self.label[w] == FREE && self.label[b] == FREE);
        self.label[w] = t;
        self.label[b] = t;
        let edge = if v == NONE { None } else { Some((v, w)) };
        self.labeledge[w] = edge;
        self.labeledge[b] = edge;
        self.bestedge[w] = None;
        self.bestedge[b] = None;
        if t == S {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.blossombase[b];
            let mate = self.mate[base];
            self.assign_label(mate, S, base);
        }
    }

    /// Traces back from v and w; returns the base of a new blossom, or NONE
    /// when an augmenting path was found.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & CRUMB != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = S | CRUMB;
            match self.labeledge[b] {
                None => v = NONE,
                Some((from, _)) => {
                    v = from;
                    b = self.inblossom[v];
                    v = self.labeledge[b].map_or(NONE, |e| e.0);
                }
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, mut v: usize, mut w: usize) {
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unused_blossoms.pop().expect("at most n blossoms");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut edgs = vec![(v, w)];
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            let e = self.labeledge[bv].expect("labelled");
            edgs.push(e);
            v = e.0;
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        edgs.reverse();
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            let e = self.labeledge[bw].expect("labelled");
            edgs.push((e.1, e.0));
            w = e.0;
            bw = self.inblossom[w];
        }
        self.label[b] = S;
        self.labeledge[b] = self.labeledge[bb];
        self.blossomdual[b] = 0;
        self.childs[b] = path.clone();
        self.edges[b] = edgs;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == T {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        // Least-slack edges from the new blossom to every other S-blossom.
        let mut bestedgeto: Vec<Option<Edge>> = vec![None; 2 * self.n];
        for &sub in &path {
            let nblist: Vec<Edge> = if let Some(list) = self.mybestedges[sub].take() {
                list
            } else {
                self.leaves_of(sub)
                    .into_iter()
                    .flat_map(|v| self.neighbours[v].iter().map(move |&w| (v, w)))
                    .collect()
            };
            for k in nblist {
                let (mut i, mut j) = k;
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == S
                    && bestedgeto[bj].is_none_or(|e| self.slack((i, j)) < self.slack(e))
                {
                    bestedgeto[bj] = Some((i, j));
                }
            }
            self.bestedge[sub] = None;
        }
        let list: Vec<Edge> = bestedgeto.into_iter().flatten().collect();
        let mut best: Option<Edge> = None;
        for &k in &list {
            if best.is_none_or(|e| self.slack(k) < self.slack(e)) {
                best = Some(k);
            }
        }
        self.mybestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.childs[b].clone() {
            self.blossomparent[s] = NONE;
            if self.is_blossom(s) {
                if endstage && self.blossomdual[s] == 0 {
                    self.expand_blossom(s, endstage);
                } else {
                    for leaf in self.leaves_of(s) {
                        self.inblossom[leaf] = s;
                    }
                }
            } else {
                self.inblossom[s] = s;
            }
        }
        if !endstage && self.label[b] == T {
            let (lv, lw) = self.labeledge[b].expect("T-blossom has a label edge");
            let entrychild = self.inblossom[lw];
            let len = self.childs[b].len() as isize;
            let mut j = self.childs[b]
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let jstep: isize = if j & 1 == 1 {
                j -= len;
                1
            } else {
                -1
            };
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let (mut v, mut w) = (lv, lw);
            while j != 0 {
                let (p, q) = if jstep == 1 {
                    self.edges[b][at(j)]
                } else {
                    let (a, c) = self.edges[b][at(j - 1)];
                    (c, a)
                };
                self.label[w] = FREE;
                self.label[q] = FREE;
                self.assign_label(w, T, v);
                self.allow(p, q);
                j += jstep;
                if jstep == 1 {
                    (v, w) = self.edges[b][at(j)];
                } else {
                    let (a, c) = self.edges[b][at(j - 1)];
                    (v, w) = (c, a);
                }
                self.allow(v, w);
                j += jstep;
            }
            let bw = self.childs[b][at(j)];
            self.label[w] = T;
            self.label[bw] = T;
            self.labeledge[w] = Some((v, w));
            self.labeledge[bw] = Some((v, w));
            self.bestedge[bw] = None;
            j += jstep;
            while self.childs[b][at(j)] != entrychild {
                let bv = self.childs[b][at(j)];
                if self.label[bv] == S {
                    j += jstep;
                    continue;
                }
                let reached = self
                    .leaves_of(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != FREE);
                if let Some(v) = reached {
                    self.label[v] = FREE;
                    let mate = self.mate[self.blossombase[bv]];
                    self.label[mate] = FREE;
                    let from = self.labeledge[v].expect("reached vertex").0;
                    self.assign_label(v, T, from);
                }
                j += jstep;
            }
        }
        self.label[b] = FREE;
        self.labeledge[b] = None;
        self.bestedge[b] = None;
        self.blossomparent[b] = NONE;
        self.blossombase[b] = NONE;
        self.blossomdual[b] = 0;
        self.childs[b].clear();
        self.edges[b].clear();
        self.mybestedges[b] = None;
        self.unused_blossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if self.is_blossom(t) {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b].iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let jstep: isize = if i & 1 == 1 {
            j -= len;
            1
        } else {
            -1
        };
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        while j != 0 {
            j += jstep;
            let t = self.childs[b][at(j)];
            let (w, x) = if jstep == 1 {
                self.edges[b][at(j)]
            } else {
                let (a, c) = self.edges[b][at(j - 1)];
                (c, a)
            };
            if self.is_blossom(t) {
                self.augment_blossom(t, w);
            }
            j += jstep;
            let t = self.childs[b][at(j)];
            if self.is_blossom(t) {
                self.augment_blossom(t, x);
            }
            self.mate[w] = x;
            self.mate[x] = w;
        }
        let i = i as usize;
        self.childs[b].rotate_left(i);
        self.edges[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.childs[b][0]];
        debug_assert_eq!(self.blossombase[b], v);
    }

    fn augment_matching(&mut self, v: usize, w: usize) {
        for (mut s, mut j) in [(v, w), (w, v)] {
            loop {
                let bs = self.inblossom[s];
                if self.is_blossom(bs) {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = j;
                let Some((t, _)) = self.labeledge[bs] else {
                    break;
                };
                let bt = self.inblossom[t];
                let (ns, nj) = self.labeledge[bt].expect("T-blossom label edge");
                s = ns;
                j = nj;
                if self.is_blossom(bt) {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = s;
            }
        }
    }

    fn top_blossoms(&self) -> impl Iterator<Item = usize> + '_ {
        (self.n..2 * self.n)
            .filter(|&b| self.blossombase[b] != NONE && self.blossomparent[b] == NONE)
    }

    fn solve(&mut self) {
        let n = self.n;
        loop {
            // One stage: find an augmenting path.
            self.label.fill(FREE);
            self.labeledge.fill(None);
            self.bestedge.fill(None);
            for b in n..2 * n {
                self.mybestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == FREE {
                    self.assign_label(v, S, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for idx in 0..self.neighbours[v].len() {
                        let w = self.neighbours[v][idx];
                        let bv = self.inblossom[v];
                        let bw = self.inblossom[w];
                        if bv == bw {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[v * n + w] {
                            kslack = self.slack((v, w));
                            if kslack <= 0 {
                                self.allow(v, w);
                            }
                        }
                        if self.allowedge[v * n + w] {
                            if self.label[bw] == FREE {
                                self.assign_label(w, T, v);
                            } else if self.label[bw] == S {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, v, w);
                                } else {
                                    self.augment_matching(v, w);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == FREE {
                                self.label[w] = T;
                                self.labeledge[w] = Some((v, w));
                            }
                        } else if self.label[bw] == S {
                            if self.bestedge[bv].is_none_or(|e| kslack < self.slack(e)) {
                                self.bestedge[bv] = Some((v, w));
                            }
                        } else if self.label[w] == FREE
                            && self.bestedge[w].is_none_or(|e| kslack < self.slack(e))
                        {
                            self.bestedge[w] = Some((v, w));
                        }
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with tight edges: adjust the duals.
                let mut deltatype = 0u8;
                let mut delta: Weight = 0;
                let mut deltaedge: Option<Edge> = None;
                let mut deltablossom = NONE;
                if !self.max_cardinality {
                    deltatype = 1;
                    delta = self.dualvar.iter().copied().min().unwrap_or(0);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == FREE {
                        if let Some(e) = self.bestedge[v] {
                            let d = self.slack(e);
                            if deltatype == 0 || d < delta {
                                delta = d;
                                deltatype = 2;
                                deltaedge = Some(e);
                            }
                        }
                    }
                }
                let tops: Vec<usize> = (0..n)
                    .filter(|&v| self.blossomparent[v] == NONE)
                    .chain(self.top_blossoms())
                    .collect();
                for &b in &tops {
                    if self.label[b] == S {
                        if let Some(e) = self.bestedge[b] {
                            let d = self.slack(e) / 2;
                            if deltatype == 0 || d < delta {
                                delta = d;
                                deltatype = 3;
                                deltaedge = Some(e);
                            }
                        }
                    }
                }
                for &b in &tops {
                    if self.is_blossom(b)
                        && self.label[b] == T
                        && (deltatype == 0 || self.blossomdual[b] < delta)
                    {
                        delta = self.blossomdual[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Maximum cardinality reached; final update for optimality.
                    deltatype = 1;
                    delta = self.dualvar.iter().copied().min().unwrap_or(0).max(0);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        S => self.dualvar[v] -= delta,
                        T => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for &b in &tops {
                    if self.is_blossom(b) {
                        match self.label[b] {
                            S => self.blossomdual[b] += delta,
                            T => self.blossomdual[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 | 3 => {
                        let (v, w) = deltaedge.expect("delta edge");
                        self.allow(v, w);
                        self.queue.push(v);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            let ends: Vec<usize> = self
                .top_blossoms()
                .filter(|&b| self.label[b] == S && self.blossomdual[b] == 0)
                .collect();
            for b in ends {
                if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Best (cardinality, weight) by exhaustive search.
    fn brute(w: &[Vec<Option<Weight>>], used: &mut Vec<bool>, max_card: bool) -> (usize, Weight) {
        let n = w.len();
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return (0, 0);
        };
        used[v] = true;
        let mut best = brute(w, used, max_card);
        for u in v + 1..n {
            if !used[u] {
                if let Some(wt) = w[v][u] {
                    used[u] = true;
                    let (c, s) = brute(w, used, max_card);
                    used[u] = false;
                    let cand = (c + 1, s + wt);
                    let better = if max_card {
                        cand > best
                    } else {
                        cand.1 > best.1
                    };
                    if better {
                        best = cand;
                    }
                }
            }
        }
        used[v] = false;
        best
    }

    fn score(w: &[Vec<Option<Weight>>], mate: &[Option<usize>]) -> (usize, Weight) {
        let mut c = 0;
        let mut s = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "mate is symmetric");
                if v < u {
                    c += 1;
                    s += w[v][u].expect("matched along an edge");
                }
            }
        }
        (c, s)
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn matches_brute_force_on_random_graphs() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for case in 0..3000 {
            let n = 1 + (case % 11);
            let mut w = vec![vec![None; n]; n];
            let density = 1 + next(4);
            for v in 0..n {
                for u in v + 1..n {
                    if next(4) < density {
                        let wt = next(21) as Weight - 6;
                        w[v][u] = Some(wt);
                        w[u][v] = Some(wt);
                    }
                }
            }
            for max_card in [false, true] {
                let mate = max_weight_matching(&w, max_card);
                let got = score(&w, &mate);
                let want = brute(&w, &mut vec![false; n], max_card);
                if max_card {
                    assert_eq!(got, want, "case {case} {w:?}");
                } else {
                    assert_eq!(got.1, want.1, "case {case} {w:?}");
                }
            }
        }
    }

    #[test]
    fn known_small_case() {
        // Edges (1,2,6) (1,3,2) (2,3,1) (2,4,7) (3,5,9) (4,5,3), 0-based.
        let mut w = vec![vec![None; 5]; 5];
        for (a, b, x) in [
            (0, 1, 6),
            (0, 2, 2),
            (1, 2, 1),
            (1, 3, 7),
            (2, 4, 9),
            (3, 4, 3),
        ] {
            w[a][b] = Some(x);
            w[b][a] = Some(x);
        }
        let mate = max_weight_matching(&w, false);
        assert_eq!(mate[1], Some(3));
        assert_eq!(mate[2], Some(4));
    }
}
