//! Where a thread's own view of a cell comes from at some point: the first instructions before
//! it, backwards on every path (a strong store of its own, a load it made, its entry state), and
//! through the entry state the parent's view at the create call. It gives the oracle the store
//! that an `Own` choice reads from, and the reductions the ancestor store a view must hold.
//!
//! Invariant: an answer holds on every path to the point (several sources, or a write that is
//! not a strong store, give `Source::Unknown`); a walk depends only on a thread's CFG and the
//! program, so `SourceCache` keeps the walks for the whole fixpoint.

use super::candidates::candidates_for;
use super::choices::{Key, Pick, SharedLoad};
use crate::analysis::compose::results::Threads;
use crate::analysis::sync::feasibility::Feasibility;
use crate::facts::exit_reads::ExitRead;
use crate::facts::Facts;
use crate::ir::InstKind;
use crate::memory::CellId;
use crate::threads::{NodeId, Origin, Thread};
use rustc_hash::FxHashMap as HashMap;
use watts_rules::Event;

/// Where a thread's own view of a cell at some point comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// This thread's strong store.
    Store(Key),
    /// What this thread's load read.
    LoadOf(Key),
    /// The thread's entry state.
    Entry,
    /// Several places, or a write that is not a strong store.
    Unknown,
}

/// What the backward walks of [`SourceFinder`] learn, kept for the whole fixpoint: a walk
/// depends only on a thread's CFG and the program (static), and thread indices are stable.
#[derive(Default)]
pub struct SourceCache {
    memo: HashMap<(usize, Key, CellId), Source>,
    /// Per thread, the exit reads of its wait loops (static, like the walks).
    exits: HashMap<usize, Vec<ExitRead>>,
    /// Per thread and node: for each cell, the instructions (ascending) that may set the
    /// thread's view of it, so that a walk skips the others without classifying them.
    touched: HashMap<(usize, NodeId), HashMap<CellId, Vec<u32>>>,
}

impl SourceCache {
    /// The exit reads of thread `i` (`facts::exit_reads`), computed once.
    pub(super) fn exit_reads(&mut self, facts: &Facts<'_>, i: usize, t: &Thread) -> Vec<ExitRead> {
        self.exits
            .entry(i)
            .or_insert_with(|| crate::facts::exit_reads::exit_reads(facts, &t.cfg, &t.shape))
            .clone()
    }
}

/// Finds where a thread's own view of a cell comes from, by walking its CFG backwards.
pub(super) struct SourceFinder<'a, 'f, D> {
    facts: &'a Facts<'f>,
    threads: Threads<'a, D>,
    pub(super) i: usize,
    cache: &'a mut SourceCache,
}

impl<'a, 'f, D> SourceFinder<'a, 'f, D> {
    pub(super) fn new(
        facts: &'a Facts<'f>,
        threads: Threads<'a, D>,
        i: usize,
        cache: &'a mut SourceCache,
    ) -> Self {
        SourceFinder {
            facts,
            threads,
            i,
            cache,
        }
    }

    /// The instructions of node `n` of thread `t` that may set its view of `cell` (those
    /// for which `classify` is not `None`), ascending.
    fn touching(&mut self, t: usize, n: NodeId, cell: CellId) -> Vec<u32> {
        let facts = self.facts;
        let th = &self.threads.info[t];
        let per_cell = self.cache.touched.entry((t, n)).or_insert_with(|| {
            let nd = &th.cfg.nodes[n.index()];
            let func = th.cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
            let mut out: HashMap<CellId, Vec<u32>> = HashMap::default();
            for idx in nd.start..nd.end {
                // What it writes, and for a load what it reads (`classify` looks at both).
                let mut cells = facts.written_cells(func, nd.block, idx);
                if let InstKind::Load { .. } = insts[idx as usize].kind {
                    cells.extend(facts.access(func, nd.block, idx).exact.iter().copied());
                }
                for c in cells {
                    let v = out.entry(c).or_default();
                    if v.last() != Some(&idx) {
                        v.push(idx);
                    }
                }
            }
            out
        });
        per_cell.get(&cell).cloned().unwrap_or_default()
    }

    /// The store the own view of `cell` at load `at` holds, in the combination `chosen`.
    pub(super) fn own_source(
        &mut self,
        f: &Feasibility,
        at: Key,
        cell: CellId,
        chosen: &HashMap<Key, Pick>,
        loads: &[SharedLoad],
        depth: u32,
    ) -> Option<Event> {
        if depth > 8 {
            return None;
        }
        match self.walk(self.i, at, cell) {
            Source::Store(k) => f.event(self.i, k.0, k.1),
            Source::LoadOf(k) => match chosen.get(&k) {
                Some(Pick::Cand(r)) => {
                    let l = loads.iter().find(|l| l.at == k)?;
                    let c = &l.candidates[*r];
                    f.event(c.thread, c.at.0, c.at.1)
                }
                Some(Pick::Own) => self.own_source(f, k, cell, chosen, loads, depth + 1),
                // A load that no other thread's store can reach reads the own view too.
                None if !self.threads.info[self.i].shape.in_cycle[k.0.index()]
                    && candidates_for(self.facts, self.threads, self.i, &[cell])
                        .is_some_and(|c| c.is_empty()) =>
                {
                    self.own_source(f, k, cell, chosen, loads, depth + 1)
                }
                _ => None,
            },
            Source::Entry => self.entry_source(f, self.i, cell, 0),
            Source::Unknown => None,
        }
    }

    /// The strong store of an ancestor that thread `t`'s entry view of `cell` must hold, if
    /// one must (as `entry_source`, by thread and instruction).
    pub(super) fn inherited_store(
        &mut self,
        t: usize,
        cell: CellId,
        depth: u32,
    ) -> Option<(usize, Key)> {
        if depth > 8 {
            return None;
        }
        match self.threads.info[t].origin {
            Origin::Created { parent, node, inst } => match self.walk(parent, (node, inst), cell) {
                Source::Store(k) => Some((parent, k)),
                Source::Entry => self.inherited_store(parent, cell, depth + 1),
                _ => None,
            },
            Origin::Main | Origin::Detached => None,
        }
    }

    /// Where thread `t`'s entry view of `cell` comes from: the initial value for `main`, the
    /// parent's view at the create call for a created thread.
    fn entry_source(
        &mut self,
        f: &Feasibility,
        t: usize,
        cell: CellId,
        depth: u32,
    ) -> Option<Event> {
        if depth > 8 {
            return None;
        }
        // Soundness: a thread's view of a thread-local cell at its entry is its own copy's
        // initial value, which no single event of the oracle stands for.
        if self.facts.memory.per_thread(cell) {
            return None;
        }
        match self.threads.info[t].origin {
            Origin::Main => f.init(cell),
            Origin::Created { parent, node, inst } => match self.walk(parent, (node, inst), cell) {
                Source::Store(k) => f.event(parent, k.0, k.1),
                Source::Entry => self.entry_source(f, parent, cell, depth + 1),
                _ => None,
            },
            Origin::Detached => None,
        }
    }

    /// The first instructions before `at` (backwards, on every path) that set thread `t`'s
    /// view of `cell`.
    pub(super) fn walk(&mut self, t: usize, at: Key, cell: CellId) -> Source {
        if let Some(s) = self.cache.memo.get(&(t, at, cell)) {
            return *s;
        }
        let th = &self.threads.info[t];
        let entry = th.cfg.contexts[0].entry;
        let mut result: Option<Source> = None;
        let mut visited = vec![false; th.cfg.nodes.len()];
        let mut stack = vec![(at.0, at.1)];
        'outer: while let Some((n, upto)) = stack.pop() {
            let nd = &th.cfg.nodes[n.index()];
            let func = th.cfg.contexts[nd.ctx.0 as usize].func;
            let touching = self.touching(t, n, cell);
            for &idx in touching.iter().rev().filter(|&&k| k < upto) {
                if let Some(src) = self.classify(t, n, func, nd.block, idx, cell) {
                    match result {
                        None => result = Some(src),
                        Some(r) if r == src => {}
                        Some(_) => {
                            result = Some(Source::Unknown);
                            break 'outer;
                        }
                    }
                    continue 'outer;
                }
            }
            if n == entry && th.shape.pred[n.index()].is_empty() {
                match result {
                    None => result = Some(Source::Entry),
                    Some(Source::Entry) => {}
                    Some(_) => {
                        result = Some(Source::Unknown);
                        break;
                    }
                }
                continue;
            }
            for p in &th.shape.pred[n.index()] {
                if !visited[p.index()] {
                    visited[p.index()] = true;
                    let pn = &th.cfg.nodes[p.index()];
                    stack.push((*p, pn.end));
                }
            }
        }
        let src = result.unwrap_or(Source::Unknown);
        self.cache.memo.insert((t, at, cell), src);
        src
    }

    fn classify(
        &self,
        t: usize,
        n: NodeId,
        func: crate::ir::FuncId,
        block: crate::ir::BlockId,
        idx: u32,
        cell: CellId,
    ) -> Option<Source> {
        let inst =
            &self.facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
        match &inst.kind {
            InstKind::Load { .. } => {
                let a = self.facts.access(func, block, idx);
                if !a.exact.contains(&cell) {
                    return None;
                }
                let in_loop = self.threads.info[t].shape.in_cycle[n.index()];
                Some(if a.exact.len() == 1 && !a.read_unknown && !in_loop {
                    Source::LoadOf((n, idx))
                } else {
                    Source::Unknown
                })
            }
            InstKind::Store { .. } => {
                let a = self.facts.access(func, block, idx);
                if a.exact.contains(&cell) && a.strong {
                    Some(Source::Store((n, idx)))
                } else if a.exact.contains(&cell) || a.clobber.contains(&cell) {
                    Some(Source::Unknown)
                } else {
                    None
                }
            }
            _ => self
                .facts
                .written_cells(func, block, idx)
                .contains(&cell)
                .then_some(Source::Unknown),
        }
    }
}
