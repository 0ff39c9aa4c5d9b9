//! A transaction dependency graph (Adya's DSG) and the cycle searches that decide which
//! anomalies it contains.
//!
//! Edges are `ww` (T1 installed a version T2 overwrote), `wr` (T2 read what T1 wrote) and
//! `rw` (T1 read a version T2 overwrote: an anti-dependency). Snapshot isolation forbids
//! every cycle except those with two *adjacent* `rw` edges (write skew, G2): so a cycle of
//! only `ww` edges (G0), of `ww`/`wr` edges (G1c), with exactly one `rw` edge (G-single,
//! which is where lost updates show) or with several `rw` edges none adjacent
//! (G-nonadjacent) is a violation. The search runs per strongly connected component, and a
//! cycle found is returned edge by edge so the report can show it.

use std::collections::VecDeque;

/// The kind of a dependency edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dep {
    /// Write-write.
    Ww,
    /// Write-read.
    Wr,
    /// Read-write (anti-dependency).
    Rw,
}

impl Dep {
    fn name(self) -> &'static str {
        match self {
            Dep::Ww => "ww",
            Dep::Wr => "wr",
            Dep::Rw => "rw",
        }
    }
}

/// A directed graph over transactions `0..n`.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    adj: Vec<Vec<(usize, Dep)>>,
}

/// A cycle: `(from, dep)` pairs; each edge goes to the next pair's node, the last one back
/// to the first.
pub type Cycle = Vec<(usize, Dep)>;

impl Graph {
    /// An empty graph on `n` transactions.
    pub fn new(n: usize) -> Graph {
        Graph {
            adj: vec![Vec::new(); n],
        }
    }

    /// Adds `from -dep-> to` (self-loops are ignored: a transaction may read its own write).
    pub fn edge(&mut self, from: usize, to: usize, dep: Dep) {
        if from != to && !self.adj[from].contains(&(to, dep)) {
            self.adj[from].push((to, dep));
        }
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.adj.iter().map(Vec::len).sum()
    }

    /// Strongly connected components with more than one node (Tarjan, iterative), over
    /// the edges `keep` accepts.
    pub fn components(&self, keep: impl Fn(Dep) -> bool) -> Vec<Vec<usize>> {
        let n = self.adj.len();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut out = Vec::new();
        let mut next = 0;
        for root in 0..n {
            if index[root] != usize::MAX {
                continue;
            }
            // (node, next edge to look at)
            let mut work = vec![(root, 0usize)];
            index[root] = next;
            low[root] = next;
            next += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (v, ref mut i)) = work.last_mut() {
                if let Some(&(w, dep)) = self.adj[v].get(*i) {
                    *i += 1;
                    if !keep(dep) {
                        continue;
                    }
                    if index[w] == usize::MAX {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w] = true;
                        work.push((w, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        out.push(comp);
                    }
                }
            }
        }
        out
    }

    /// A cycle of `ww`/`wr` edges only, if any (G0 or G1c).
    pub fn cycle_without_rw(&self) -> Vec<Cycle> {
        let keep = |d: Dep| d != Dep::Rw;
        self.components(keep)
            .into_iter()
            .filter_map(|comp| {
                let mut member = vec![false; self.adj.len()];
                comp.iter().for_each(|&v| member[v] = true);
                let start = comp[0];
                // Any edge out of `start` inside the component, then back to `start`.
                self.adj[start]
                    .iter()
                    .filter(|(w, d)| member[*w] && keep(*d))
                    .find_map(|&(w, d)| {
                        let mut path = self.path(w, start, &member, false)?;
                        path.insert(0, (start, d));
                        Some(path)
                    })
            })
            .collect()
    }

    /// Cycles snapshot isolation forbids that contain at least one `rw` edge: no two
    /// `rw` edges adjacent (G-single, G-nonadjacent). At most `limit` cycles; `budget`
    /// bounds the search steps (false in the second value when it ran out).
    pub fn si_cycles_with_rw(&self, limit: usize, mut budget: u64) -> (Vec<Cycle>, bool) {
        let mut found = Vec::new();
        let mut seen_comp = Vec::new();
        for comp in self.components(|_| true) {
            let mut member = vec![false; self.adj.len()];
            comp.iter().for_each(|&v| member[v] = true);
            for &a in &comp {
                for &(b, d) in &self.adj[a] {
                    if d != Dep::Rw || !member[b] {
                        continue;
                    }
                    let cost = (comp.len() * 2) as u64;
                    if budget < cost {
                        return (found, false);
                    }
                    budget -= cost;
                    if let Some(mut path) = self.path(b, a, &member, true) {
                        path.insert(0, (a, Dep::Rw));
                        found.push(path);
                        seen_comp.push(comp[0]);
                        if found.len() >= limit {
                            return (found, true);
                        }
                        break;
                    }
                }
                if seen_comp.last() == Some(&comp[0]) {
                    break;
                }
            }
        }
        (found, true)
    }

    /// A shortest path `from` ⇝ `to` inside `member` (as `(node, dep)` edges). With
    /// `after_rw` the path starts right after an `rw` edge and must end with a non-`rw`
    /// edge, and never takes two `rw` edges in a row; without it, `rw` edges are not used.
    fn path(&self, from: usize, to: usize, member: &[bool], after_rw: bool) -> Option<Cycle> {
        let n = self.adj.len();
        // State: node * 2 + (last edge was rw).
        let start = from * 2 + after_rw as usize;
        let goal = to * 2;
        let mut parent: Vec<Option<(usize, Dep)>> = vec![None; n * 2];
        let mut seen = vec![false; n * 2];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            if s == goal {
                let mut edges = Vec::new();
                let mut cur = s;
                while cur != start {
                    let (prev, dep) = parent[cur].expect("on the path");
                    edges.push((prev / 2, dep));
                    cur = prev;
                }
                edges.reverse();
                return Some(edges);
            }
            let (v, last_rw) = (s / 2, s % 2 == 1);
            for &(w, d) in &self.adj[v] {
                if !member[w] {
                    continue;
                }
                let rw = d == Dep::Rw;
                if rw && (!after_rw || last_rw) {
                    continue;
                }
                let t = w * 2 + rw as usize;
                if !seen[t] {
                    seen[t] = true;
                    parent[t] = Some((s, d));
                    queue.push_back(t);
                }
            }
        }
        None
    }
}

/// The anomaly class of a forbidden cycle.
pub fn classify(cycle: &Cycle) -> &'static str {
    let rw = cycle.iter().filter(|(_, d)| *d == Dep::Rw).count();
    match rw {
        0 if cycle.iter().all(|(_, d)| *d == Dep::Ww) => "G0",
        0 => "G1c",
        1 => "G-single",
        _ => "G-nonadjacent",
    }
}

/// `T3 -ww-> T7 -rw-> T3`, with the caller's names for transactions.
pub fn describe(cycle: &Cycle, name: impl Fn(usize) -> String) -> String {
    let mut s = String::new();
    for (v, d) in cycle {
        s.push_str(&format!("{} -{}-> ", name(*v), d.name()));
    }
    s.push_str(&name(cycle[0].0));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(c: &Cycle) -> String {
        describe(c, |v| format!("T{v}"))
    }

    #[test]
    fn write_skew_is_allowed_lost_update_is_not() {
        // Write skew: T0 -rw-> T1 -rw-> T0 (adjacent rw edges): allowed under SI.
        let mut g = Graph::new(2);
        g.edge(0, 1, Dep::Rw);
        g.edge(1, 0, Dep::Rw);
        assert!(g.cycle_without_rw().is_empty());
        assert!(g.si_cycles_with_rw(10, 1_000).0.is_empty());
        // Lost update: T0 -rw-> T1 -ww-> T0.
        let mut g = Graph::new(2);
        g.edge(0, 1, Dep::Rw);
        g.edge(1, 0, Dep::Ww);
        let (c, complete) = g.si_cycles_with_rw(10, 1_000);
        assert!(complete);
        assert_eq!(c.len(), 1);
        assert_eq!(classify(&c[0]), "G-single");
        assert_eq!(names(&c[0]), "T0 -rw-> T1 -ww-> T0");
    }

    #[test]
    fn g0_g1c_and_nonadjacent() {
        let mut g = Graph::new(3);
        g.edge(0, 1, Dep::Ww);
        g.edge(1, 0, Dep::Ww);
        g.edge(1, 2, Dep::Wr);
        let c = g.cycle_without_rw();
        assert_eq!(c.len(), 1);
        assert_eq!(classify(&c[0]), "G0");

        let mut g = Graph::new(3);
        g.edge(0, 1, Dep::Ww);
        g.edge(1, 2, Dep::Wr);
        g.edge(2, 0, Dep::Wr);
        assert_eq!(classify(&g.cycle_without_rw()[0]), "G1c");

        // T0 -rw-> T1 -wr-> T2 -rw-> T3 -ww-> T0: two rw edges, not adjacent.
        let mut g = Graph::new(4);
        g.edge(0, 1, Dep::Rw);
        g.edge(1, 2, Dep::Wr);
        g.edge(2, 3, Dep::Rw);
        g.edge(3, 0, Dep::Ww);
        assert!(g.cycle_without_rw().is_empty());
        let (c, _) = g.si_cycles_with_rw(10, 1_000);
        assert_eq!(classify(&c[0]), "G-nonadjacent");
        // The same with the two rw edges adjacent is allowed.
        let mut g = Graph::new(4);
        g.edge(0, 1, Dep::Rw);
        g.edge(1, 2, Dep::Rw);
        g.edge(2, 3, Dep::Wr);
        g.edge(3, 0, Dep::Ww);
        assert!(g.si_cycles_with_rw(10, 1_000).0.is_empty());
    }

    #[test]
    fn acyclic_graphs_are_clean_and_budget_is_reported() {
        let mut g = Graph::new(50);
        for i in 0..49 {
            g.edge(i, i + 1, Dep::Rw);
            g.edge(i, i + 1, Dep::Ww);
        }
        assert!(g.components(|_| true).is_empty());
        let mut g = Graph::new(3);
        g.edge(0, 1, Dep::Rw);
        g.edge(1, 2, Dep::Ww);
        g.edge(2, 0, Dep::Wr);
        assert!(!g.si_cycles_with_rw(10, 1).1, "out of budget is reported");
    }
}
