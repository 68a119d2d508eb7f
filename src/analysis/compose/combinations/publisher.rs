//! The publisher's view: a load that reads a cell only one other thread writes, after reading a
//! flag that thread raised, reads what that thread held when it raised the flag.
//!
//! Let load `l` of thread `U` read a cell `x` that is one slot for the whole run, and let the
//! combination make an earlier load `l'` of `U` (one that dominates `l`, both on no cycle of
//! `U`) read store `E` of a single-instance thread `T`. When no thread but `T` writes `x` (no
//! store of any other thread, detached functions and `U` included), `T` writes `x` nowhere
//! after `E` (no store in a node reachable from `E`, nor later in `E`'s node), and nothing
//! before `E` in its node writes `x`, then in every execution the combination stands for, `E` happens before
//! `l'` (it reads `E`), which precedes `l`; every write to `x` before `l` is `T`'s, made before
//! `E`, or the initial value; so `l` reads the value `x` has in `T` at `E`, which `T`'s state at
//! the entry of `E`'s node holds (`T` is the only writer, so its view of `x` is memory's).
//!
//! This gives the value of a loop's last iteration, which no single store holds:
//! `for (i = 0; i <= 42; i++) x = i; x_set = 1;` against `while (!x_set) wait(); assert(x == 42)`
//! (SV-COMP's `condvar`, with octagons, which relate `x` to `i` at the loop's exit).
//!
//! Which threads write a cell and where comes from the fixpoint's results (`ThreadResults::stores`,
//! `stores_to`, `wide`), as the candidates do; `Publishers` caches per plan the nodes reachable
//! from each publishing store.

use super::choices::Key;
use crate::analysis::compose::results::Threads;
use crate::memory::CellId;
use crate::threads::{NodeId, Origin};
use rustc_hash::FxHashMap as HashMap;
use watts_domains::{Interval, NumDomain};

/// The threads' results, with the nodes reachable from each publishing store's node, computed
/// once per plan.
pub(super) struct Publishers<'a, D> {
    program: &'a crate::ir::Program,
    threads: Threads<'a, D>,
    /// Per (thread, node): whether each node of the thread is reachable from that node.
    reach: HashMap<(usize, NodeId), Vec<bool>>,
}

impl<'a, D: NumDomain> Publishers<'a, D> {
    pub(super) fn new(program: &'a crate::ir::Program, threads: Threads<'a, D>) -> Self {
        Publishers {
            program,
            threads,
            reach: HashMap::default(),
        }
    }

    /// What load `l` (of thread `u`, reading the one cell `x`) reads when the earlier load `l'`
    /// reads store `e` of thread `t` in the combination, if the reduction applies. Loads are
    /// given by where they happen: an instruction, or `(node, EXIT_READ)` for an exit read at
    /// the start of `node`.
    ///
    /// Which threads write `x`, and where, comes from what the fixpoint found: every thread's
    /// stores (`ThreadResults::stores`, wide ones included) and store events. A thread that
    /// starts writing `x` in a later round changes the cell, so the plans that read it are made
    /// again; the final round's plan sees every write.
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
        if !before || !self.only_writer(t, x) || self.writes_after(t, e.0, x) {
            return None;
        }
        let states = &self.threads.results[t].states;
        let v = states.get(e.0.index())?.interval(watts_domains::Var(x.0));
        (!v.is_bottom()).then_some(v)
    }

    /// Whether `t` is the one thread that writes `x`, and every thread's entry function is
    /// defined (a thread of code the analysis does not see writes what it wants).
    fn only_writer(&self, t: usize, x: CellId) -> bool {
        let funcs = &self.program.funcs;
        let unseen = (self.threads.info.iter()).any(|th| !funcs[th.entry.index()].is_defined);
        !unseen
            && (self.threads.results.iter().enumerate())
                .all(|(k, r)| k == t || r.stores[x.index()].is_bottom())
    }

    /// Whether `t` may write `x` in `node` (before the store, its node's entry state would not
    /// be its state there; after, a later write) or in a node reachable from it: a store event
    /// there, or a wide store of `x` anywhere.
    fn writes_after(&mut self, t: usize, node: NodeId, x: CellId) -> bool {
        let r = &self.threads.results[t];
        if r.wide.contains(x) {
            return true;
        }
        let succ = &self.threads.info[t].shape.succ;
        let reach = self.reach.entry((t, node)).or_insert_with(|| {
            let mut seen = vec![false; succ.len()];
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                if !std::mem::replace(&mut seen[n.index()], true) {
                    stack.extend(succ[n.index()].iter().copied());
                }
            }
            seen
        });
        (r.stores_to(x).iter()).any(|((n, _), _)| reach[n.index()])
    }
}
