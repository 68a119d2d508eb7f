//! The publisher's view: a load that reads a cell only one other thread writes, after reading a
//! flag that thread raised, reads what that thread held when it raised the flag.
//!
//! Let load `l` of thread `U` read a cell `x` that is one slot for the whole run, and let the
//! combination make an earlier load `l'` of `U` (one that dominates `l`, both on no cycle of
//! `U`) read store `E` of a single-instance thread `T`. When no thread but `T` writes `x` (no
//! instruction of any other thread, detached functions and `U` included), `T` writes `x` nowhere
//! after `E` (no write reachable from `E`, nor later in `E`'s node), and nothing before `E` in
//! its node writes `x`, then in every execution the combination stands for, `E` happens before
//! `l'` (it reads `E`), which precedes `l`; every write to `x` before `l` is `T`'s, made before
//! `E`, or the initial value; so `l` reads the value `x` has in `T` at `E`, which `T`'s state at
//! the entry of `E`'s node holds (`T` is the only writer, so its view of `x` is memory's).
//!
//! This gives the value of a loop's last iteration, which no single store holds:
//! `for (i = 0; i <= 42; i++) x = i; x_set = 1;` against `while (!x_set) wait(); assert(x == 42)`
//! (SV-COMP's `condvar`, with octagons, which relate `x` to `i` at the loop's exit).

use super::Threads;
use crate::facts::Facts;
use crate::ir::{Callee, InstKind};
use crate::memory::CellId;
use crate::threads::{NodeId, Origin, Thread};
use rustc_hash::FxHashMap as HashMap;
use watts_domains::{Interval, NumDomain};

/// A load (or exit read) of the thread analysed, by `(node, instruction)`.
pub(super) type Key = (NodeId, u32);

/// The static facts the reduction needs, computed once per plan and cached per cell.
pub(super) struct Publishers<'a, 'f, D> {
    facts: &'a Facts<'f>,
    threads: Threads<'a, D>,
    /// Per cell: the one thread whose instructions write it (`None`: none or several).
    writer: HashMap<CellId, Option<usize>>,
    /// Per (thread, store, cell): whether the thread may write the cell from the store on.
    after: HashMap<(usize, Key, CellId), bool>,
}

impl<'a, 'f, D: NumDomain> Publishers<'a, 'f, D> {
    pub(super) fn new(facts: &'a Facts<'f>, threads: Threads<'a, D>) -> Self {
        Publishers {
            facts,
            threads,
            writer: HashMap::default(),
            after: HashMap::default(),
        }
    }

    /// What load `l` (of thread `u`, reading the one cell `x`) reads when the earlier load `l'`
    /// reads store `e` of thread `t` in the combination, if the reduction applies. Loads are
    /// given by where they happen: an instruction, or `(node, EXIT_READ)` for an exit read at
    /// the start of `node`.
    pub(super) fn view(
        &mut self,
        u: usize,
        l: Key,
        x: CellId,
        l2: Key,
        (t, e): (usize, Key),
    ) -> Option<Interval> {
        let info = self.threads.info;
        let (tu, tt) = (&info[u], &info[t]);
        if t == u || tt.multi || tt.origin == Origin::Detached || l == l2 {
            return None;
        }
        // `l'` precedes `l`: it dominates it, and neither repeats.
        let shape = &tu.shape;
        if shape.in_cycle[l.0.index()] || shape.in_cycle[l2.0.index()] {
            return None;
        }
        let before = if l2.0 == l.0 {
            l2.1 == crate::facts::exit_reads::EXIT_READ || l2.1 < l.1
        } else {
            shape.dominates(l2.0, l.0)
        };
        if !before || self.only_writer(x)? != t {
            return None;
        }
        let facts = self.facts;
        let after = *(self.after.entry((t, e, x))).or_insert_with(|| writes_after(facts, tt, e, x));
        if after {
            return None;
        }
        let states = &self.threads.results[t].states;
        let v = states.get(e.0.index())?.interval(watts_domains::Var(x.0));
        (!v.is_bottom()).then_some(v)
    }

    /// The one thread whose instructions may write `x`, when there is exactly one and every
    /// thread's entry function is defined (a thread of code the analysis does not see writes
    /// what it wants).
    fn only_writer(&mut self, x: CellId) -> Option<usize> {
        if let Some(w) = self.writer.get(&x) {
            return *w;
        }
        let program = self.facts.program;
        let unseen = (self.threads.info.iter()).any(|t| !program.funcs[t.entry.index()].is_defined);
        let mut writers = (self.threads.info.iter().enumerate())
            .filter(|(_, t)| writes_in(self.facts, t, &all_nodes(t), x))
            .map(|(k, _)| k);
        let w = match (unseen, writers.next(), writers.next()) {
            (false, Some(k), None) => Some(k),
            _ => None,
        };
        self.writer.insert(x, w);
        w
    }
}

fn all_nodes(t: &Thread) -> Vec<NodeId> {
    (0..t.cfg.nodes.len()).map(|n| NodeId(n as u32)).collect()
}

/// Whether thread `t` may write `x` in `e`'s node (before `e`, its node's entry state would not
/// be its state at `e`; after, a later write) or in a node reachable from it.
fn writes_after(facts: &Facts<'_>, t: &Thread, e: Key, x: CellId) -> bool {
    if writes_in(facts, t, &[e.0], x) {
        return true;
    }
    let mut seen = vec![false; t.cfg.nodes.len()];
    let mut stack: Vec<NodeId> = t.shape.succ[e.0.index()].clone();
    let mut reach = Vec::new();
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        reach.push(n);
        stack.extend(t.shape.succ[n.index()].iter().copied());
    }
    writes_in(facts, t, &reach, x)
}

/// Whether an instruction of `nodes` of `t` may write `x`. A call of a defined function writes
/// nothing itself: an inlined callee's instructions are nodes of the thread, and one that is
/// not inlined is a detached function, another writer.
fn writes_in(facts: &Facts<'_>, t: &Thread, nodes: &[NodeId], x: CellId) -> bool {
    let program = facts.program;
    nodes.iter().any(|n| {
        let nd = &t.cfg.nodes[n.index()];
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        (nd.start..nd.end).any(|idx| {
            if let InstKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &insts[idx as usize].kind
            {
                if program.funcs[g.index()].is_defined {
                    return false;
                }
            }
            facts.written_cells(func, nd.block, idx).contains(&x)
        })
    })
}
