//! Clusters of shared loads: the loads in the backward slice of one target belong together.
//!
//! Targets are what a thread's result is read for: every assertion (its condition, and the
//! branch of each guard block of an `assert()` expansion), every write to memory (another
//! thread or instance may load it), and every thread creation (the child starts from the
//! parent's memory). A load in no target's slice influences none of them: the optimized mode
//! gives it no choices (it reads the join of its candidates).
//!
//! Code after an assertion is not control dependent on its condition (the failing branch stops the
//! process), so the loads before and after an assertion may form separate clusters; the loads of
//! each target's backward slice are unioned (`ena`).
//!
//! All slices at once, in linear time: the vertices in some slice (one backward closure from every
//! target), the vertices whose slice holds a load (one forward closure from the loads), and a union
//! of each such pair joined by an edge, which connects two loads exactly when overlapping target
//! slices do. `Clusters::irrelevant`: register computations in no slice; the optimized mode gives
//! them the identity transfer (their result becomes any value; loads, stores, calls and thread
//! operations always run).

use super::graph::Pdg;
use crate::facts::Facts;
use crate::ir::InstKind;
use crate::threads::{CtxId, NodeId, Shape, ThreadCfg};
use ena::unify::{InPlaceUnificationTable, UnifyKey};

/// A load: `(node, instruction index)`.
pub type LoadAt = (NodeId, u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key(u32);

impl UnifyKey for Key {
    type Value = ();
    fn index(&self) -> u32 {
        self.0
    }
    fn from_index(u: u32) -> Key {
        Key(u)
    }
    fn tag() -> &'static str {
        "load"
    }
}

/// The clusters of one thread's loads, in program order of their first load.
#[derive(Clone, Debug, Default)]
pub struct Clusters {
    /// Each cluster: its loads, ascending.
    pub groups: Vec<Vec<LoadAt>>,
    /// Register computations (arithmetic, comparisons, casts, selects, copies, address
    /// arithmetic) in no slice: no target depends on their value, and they have no other
    /// effect, so the optimized mode gives them the identity transfer (their result is any
    /// value).
    pub irrelevant: std::collections::BTreeSet<LoadAt>,
}

impl Clusters {
    /// The cluster of a load, if it is in some slice.
    pub fn of(&self, at: LoadAt) -> Option<usize> {
        self.groups
            .iter()
            .position(|g| g.binary_search(&at).is_ok())
    }
}

/// Computes the clusters of the loads of a thread.
pub fn clusters_of(facts: &Facts<'_>, cfg: &ThreadCfg, shape: &Shape) -> Clusters {
    let program = facts.program;
    let pdg = Pdg::build(facts, cfg, shape);
    let nv = pdg.deps.len();
    // Loads and targets, by vertex.
    let mut load_of: Vec<Option<u32>> = vec![None; nv];
    let mut loads: Vec<LoadAt> = Vec::new();
    let mut targets: Vec<u32> = Vec::new();
    for (n, nd) in cfg.nodes.iter().enumerate() {
        let node = NodeId(n as u32);
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            let v = pdg.inst(node, nd.start, idx) as usize;
            match &insts[idx as usize].kind {
                InstKind::Load { .. } => {
                    load_of[v] = Some(loads.len() as u32);
                    loads.push((node, idx));
                }
                InstKind::Assert { .. } => {
                    targets.push(v as u32);
                    // What decides that a failing assertion is reached (see `fails_here`).
                    targets.extend(shape.pred[n].iter().map(|p| pdg.term(cfg, *p)));
                }
                InstKind::ThreadCreate { .. } => targets.push(v as u32),
                _ => {}
            }
            if !facts.written_cells(func, nd.block, idx).is_empty() {
                targets.push(v as u32);
            }
        }
    }
    for info in &program.asserts {
        for (ci, ctx) in cfg.contexts.iter().enumerate() {
            if ctx.func != info.func {
                continue;
            }
            for b in &info.guard_blocks {
                let n = cfg.block_end_node(CtxId(ci as u32), *b);
                targets.push(pdg.term(cfg, n));
            }
        }
    }
    // The loads of each target's backward slice are one cluster. Computed in time linear in
    // the graph rather than one walk per target:
    // - `relevant`: the vertices in some target's slice;
    // - `feeds`: the vertices whose own slice holds a load;
    // - union every relevant vertex with each dependency that feeds: a relevant vertex's slice
    //   lies in a target's slice, whose loads are all one cluster, so it joins the clusters of
    //   its dependencies exactly when they hold loads, and two loads end up connected iff some
    //   chain of overlapping target slices joins them.
    let mut relevant = vec![false; nv];
    let mut stack: Vec<u32> = Vec::new();
    for &t in &targets {
        if !relevant[t as usize] {
            relevant[t as usize] = true;
            stack.push(t);
        }
    }
    while let Some(v) = stack.pop() {
        for &d in &pdg.deps[v as usize] {
            if !relevant[d as usize] {
                relevant[d as usize] = true;
                stack.push(d);
            }
        }
    }
    let mut users: Vec<Vec<u32>> = vec![Vec::new(); nv];
    for (v, ds) in pdg.deps.iter().enumerate() {
        for &d in ds {
            users[d as usize].push(v as u32);
        }
    }
    let mut feeds = vec![false; nv];
    for (v, l) in load_of.iter().enumerate() {
        if l.is_some() {
            feeds[v] = true;
            stack.push(v as u32);
        }
    }
    while let Some(v) = stack.pop() {
        for &u in &users[v as usize] {
            if !feeds[u as usize] {
                feeds[u as usize] = true;
                stack.push(u);
            }
        }
    }
    drop(users);
    let mut table: InPlaceUnificationTable<Key> = InPlaceUnificationTable::new();
    table.reserve(nv);
    for _ in 0..nv {
        table.new_key(());
    }
    for v in 0..nv {
        if !relevant[v] || !feeds[v] {
            continue;
        }
        for &d in &pdg.deps[v] {
            if feeds[d as usize] {
                table.union(Key(v as u32), Key(d));
            }
        }
    }
    let mut by_root: std::collections::BTreeMap<u32, Vec<LoadAt>> = Default::default();
    for (v, l) in load_of.iter().enumerate() {
        if let (Some(l), true) = (l, relevant[v]) {
            let root = table.find(Key(v as u32)).0;
            by_root.entry(root).or_default().push(loads[*l as usize]);
        }
    }
    let mut groups: Vec<Vec<LoadAt>> = by_root.into_values().collect();
    for g in &mut groups {
        g.sort();
    }
    groups.sort();
    let mut irrelevant = std::collections::BTreeSet::new();
    for (n, nd) in cfg.nodes.iter().enumerate() {
        let node = NodeId(n as u32);
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            let pure = matches!(
                insts[idx as usize].kind,
                InstKind::Bin { .. }
                    | InstKind::Cmp { .. }
                    | InstKind::Cast { .. }
                    | InstKind::Select { .. }
                    | InstKind::Copy { .. }
                    | InstKind::Gep { .. }
            );
            if pure && !relevant[pdg.inst(node, nd.start, idx) as usize] {
                irrelevant.insert((node, idx));
            }
        }
    }
    Clusters { groups, irrelevant }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threads::InlineBudget;

    const SRC: &str = r#"
        #include <assert.h>
        int flag, x, ready, y, noise, seen;
        void reader(void) {
            int n = noise; (void)n;
            int junk = noise * 3 + 7; (void)junk;
            int b = flag;
            int r = ready;
            if (b) { int t = x; assert(t == 5); }
            seen = r;
            int s = seen;
            if (s) { int u = y; assert(u >= 1); }
        }
        int main(void) { reader(); return 0; }
    "#;

    /// The names of the cells the loads of each cluster read, in cluster order.
    fn clusters_by_name() -> Vec<Vec<String>> {
        with_reader(|facts, cfg, shape| {
            let name = |(n, idx): LoadAt| {
                let nd = &cfg.nodes[n.index()];
                let func = cfg.contexts[nd.ctx.0 as usize].func;
                let a = facts.access(func, nd.block, idx);
                facts.memory.cells.info(a.exact[0]).name.clone()
            };
            let mut out: Vec<Vec<String>> = clusters_of(facts, cfg, shape)
                .groups
                .into_iter()
                .map(|g| {
                    let mut v: Vec<String> = g.into_iter().map(name).collect();
                    v.sort();
                    v
                })
                .collect();
            out.sort();
            out
        })
    }

    /// Compiles `SRC` and runs `f` on the inlined CFG of its `reader` function.
    fn with_reader<R>(run: impl FnOnce(&Facts<'_>, &ThreadCfg, &Shape) -> R) -> R {
        use crate::facts::testing::{func, with_facts};
        with_facts(SRC, |program, facts| {
            let cfg = ThreadCfg::build(program, func(program, "reader"), InlineBudget::default());
            let shape = Shape::of(&cfg, program);
            run(facts, &cfg, &shape)
        })
    }

    #[test]
    fn loads_cluster_by_slice_and_unused_loads_are_left_out() {
        let clusters = clusters_by_name();
        // `flag` decides whether `x` is read and asserted; `ready` reaches the second assertion
        // through memory (`seen`), together with `y`; `noise` is in no slice.
        assert_eq!(
            clusters,
            vec![
                vec!["flag".to_string(), "x".to_string()],
                vec!["ready".to_string(), "seen".to_string(), "y".to_string()],
            ],
            "{clusters:?}"
        );
    }

    #[test]
    fn computations_no_target_reads_are_irrelevant_and_the_others_are_not() {
        with_reader(|facts, cfg, shape| {
            let program = facts.program;
            let irrelevant = clusters_of(facts, cfg, shape).irrelevant;
            // `junk = noise * 3 + 7`: a multiplication and an addition that nothing reads.
            let kinds: Vec<&InstKind> = (irrelevant.iter())
                .map(|(n, idx)| {
                    let nd = &cfg.nodes[n.index()];
                    let func = cfg.contexts[nd.ctx.0 as usize].func;
                    &program.funcs[func.index()].blocks[nd.block.index()].insts[*idx as usize].kind
                })
                .collect();
            let bins = kinds
                .iter()
                .filter(|k| matches!(k, InstKind::Bin { .. }))
                .count();
            assert_eq!(bins, 2, "{kinds:?}");
            // The comparisons the assertions and branches read are in slices.
            assert!(
                !kinds.iter().any(|k| matches!(k, InstKind::Cmp { .. })),
                "{kinds:?}"
            );
        })
    }
}
