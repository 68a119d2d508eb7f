//! The happens-before order that separates two accesses of different threads: thread
//! creation, joins (one thread, or every instance of a create loop by a join loop), and the
//! flags that publish data (the exit read of a wait loop that only one store can release).
//!
//! The order is kept over a few *sync points* per thread: its start, its end, its creates, its
//! joins, the exits of its join loops and wait loops, and its publishing stores. An edge
//! `x → y` says: every occurrence of `y` is preceded by an occurrence of `x`. Edges are
//! dominance inside a thread (an instruction that dominates another, for each instance), a
//! create before the created thread's start, a thread's end before a join that must wait for
//! it, the end of every instance before the exit of a join loop that joins them all, and a
//! publishing store before the exit of a wait loop that only it can release.
//!
//! An access `a` happens before an access `b` when some sync point `x` follows every
//! occurrence of `a` ("first hop": `x` cannot reach `a` in a thread that runs once, or `x` is
//! the end of `a`'s thread or of all its instances) and a chain of edges leads from `x` to a
//! sync point that dominates `b` (or to the start of `b`'s thread). Then in every execution
//! where both occur, every occurrence of `a` precedes the occurrence of `x` that precedes the
//! occurrence of the chain's last point, which precedes `b`.
//!
//! Soundness: each edge holds in every execution (the arguments of `sync::feasibility` for
//! create and join order, of `sync::join_loops` for join loops, of `publishing` below for
//! flags); a thread that stands for several instances gets first hops only from the end of all
//! of them (a join loop), never from its places, since another instance's points follow none
//! of this one's accesses.
//!
//! Besides creation (before the create in the parent, ancestors single-instance), joins and join
//! loops (`sync::join_loops`): `main` before its first create; flags published through wait loops
//! (`facts::exit_reads`: the writer's accesses before a store whose value passes the exit test,
//! `exit_reads::may_exit_with`, `Facts::writers`); `pthread_once` routines before every return of
//! `pthread_once`; the first post of a semaphore that one thread posts before every wait of it
//! that succeeds (`sync::semaphores`); the `k`-th wait of a barrier in each thread before the
//! return of the `k`-th in every other, when the barrier's count is its number of waiting
//! threads (`sync::barriers`); a parent's first release of a lock it held at a create before every
//! place where the created thread or one of its descendants holds that lock (`release`).

use super::contexts::Place;
use crate::analysis::sync::locks::ThreadLocks;
use crate::analysis::sync::semaphores::Succeeded;
use crate::analysis::sync::{barriers, feasibility, join_loops, semaphores};
use crate::facts::exit_reads::ExitRead;
use crate::facts::Facts;
use crate::ir::{BlockId, FuncId, InitValue, InstKind, ObjectKind};
use crate::threads::{NodeId, Origin, Thread};
use fixedbitset::FixedBitSet;
use rustc_hash::FxHashMap as HashMap;
use std::cell::RefCell;
use std::collections::BTreeSet;

/// An instruction of a thread's CFG: its node and its index in the node's block.
type Site = (NodeId, u32);

/// Where a sync point is: positions inside a node are doubled, so that a point at the start of
/// a node (`2 * start`) comes before its first instruction (`2 * start + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    /// At a place of a thread's CFG.
    At {
        thread: usize,
        node: NodeId,
        pos: u32,
    },
    /// The end of a thread (of one instance, for a thread that runs once).
    End,
    /// The moment every instance of a multi-instance thread has ended (also the end of the one
    /// run of a `pthread_once` routine).
    AllEnded,
    /// A parent's first release of a lock it held when it created a thread (`release`).
    Released,
}

/// The order, over the threads of one fixpoint.
pub struct Order<'a> {
    threads: &'a [Thread],
    points: Vec<Point>,
    /// Per point, the points of its edges.
    succ: Vec<Vec<usize>>,
    /// Per thread: its start, its end, and the end of all its instances (when a join loop
    /// joins them).
    start: Vec<Option<usize>>,
    end: Vec<Option<usize>>,
    all_ended: Vec<Option<usize>>,
    /// Per thread, per node: its points, by position.
    in_node: Vec<HashMap<NodeId, Vec<(u32, usize)>>>,
    /// Per thread, its points at places (for first hops).
    placed: Vec<Vec<usize>>,
    /// Per `pthread_once` routine, the point where its one run has ended.
    once: std::collections::BTreeMap<FuncId, usize>,
    /// Per thread: its `Released` points, each with the places where that release may happen.
    released: Vec<Vec<(usize, Vec<Site>)>>,
    /// Per thread and node: the nodes the thread can reach after it, computed when asked.
    node_reach: RefCell<HashMap<(usize, NodeId), FixedBitSet>>,
    /// Per point: the points reachable from it (itself included), computed when asked.
    reach: RefCell<HashMap<usize, FixedBitSet>>,
    /// Per point at a place: the nodes its thread can reach after it, computed when asked.
    cfg_reach: RefCell<HashMap<usize, FixedBitSet>>,
    /// Per thread and node: the last point of its nearest strict dominator with points.
    dom_last: RefCell<HashMap<(usize, NodeId), Option<usize>>>,
    /// The wait loops that would publish but for the flag's memory order (for the reports).
    pub weak_flags: Vec<WeakFlag>,
}

/// A wait loop on a flag that only one store releases, which orders nothing because the flag
/// is not accessed with a synchronising order (C11 5.1.2.4: a plain or relaxed flag).
#[derive(Clone, Debug)]
pub struct WeakFlag {
    /// The flag's name (the cell's).
    pub name: String,
    /// The thread of the store, and of the wait loop.
    pub writer: usize,
    /// The thread of the wait loop.
    pub reader: usize,
    /// Whether the flag is atomic (relaxed on a side) rather than plain.
    pub atomic: bool,
}

impl<'a> Order<'a> {
    /// The sync points and edges of `threads` (`reached`: per thread, its reached nodes).
    /// `locks`: per thread, its lock facts (a flag read and written under one lock publishes).
    pub fn of(
        facts: &Facts<'_>,
        threads: &'a [Thread],
        reached: &[Vec<bool>],
        locks: &[ThreadLocks],
    ) -> Order<'a> {
        let n = threads.len();
        let mut o = Order {
            threads,
            points: Vec::new(),
            succ: Vec::new(),
            start: vec![None; n],
            end: vec![None; n],
            all_ended: vec![None; n],
            in_node: vec![HashMap::default(); n],
            placed: vec![Vec::new(); n],
            once: std::collections::BTreeMap::new(),
            released: vec![Vec::new(); n],
            node_reach: RefCell::new(HashMap::default()),
            reach: RefCell::new(HashMap::default()),
            cfg_reach: RefCell::new(HashMap::default()),
            dom_last: RefCell::new(HashMap::default()),
            weak_flags: Vec::new(),
        };
        let program = facts.program;
        let is_reached = |k: usize, node: usize| reached[k].get(node).copied().unwrap_or(true);
        for (k, t) in threads.iter().enumerate() {
            // Functions analysed on their own run inside other threads, at their calls: their
            // places order nothing (`contexts` gives their accesses the call's place).
            if t.origin == Origin::Detached {
                continue;
            }
            let entry = t.cfg.contexts[0].entry;
            let entry_start = t.cfg.nodes[entry.index()].start;
            o.start[k] = Some(o.at(k, entry, 2 * entry_start));
            o.end[k] = Some(o.add(Point::End));
        }
        // Joins: the end of the one thread a join must wait for precedes it.
        for (k, t) in threads.iter().enumerate() {
            if t.origin == Origin::Detached {
                continue;
            }
            for (node, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[node] == u32::MAX || !is_reached(k, node) {
                    continue;
                }
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
                for idx in nd.start..nd.end {
                    if let InstKind::ThreadJoin { .. } = insts[idx as usize].kind {
                        let node = NodeId(node as u32);
                        let child = feasibility::must_joined(facts, threads, t, node, idx);
                        if let Some(e) = child.and_then(|c| o.end[c]) {
                            let j = o.at(k, node, 2 * idx + 1);
                            o.edge(e, j);
                        }
                    }
                }
            }
        }
        // Creates: the create of a thread precedes its start.
        for (k, t) in threads.iter().enumerate() {
            let Origin::Created { parent, node, inst } = t.origin else {
                continue;
            };
            let (Some(s), false) = (o.start[k], threads[parent].origin == Origin::Detached) else {
                continue;
            };
            let c = o.at(parent, node, 2 * inst + 1);
            o.edge(c, s);
        }
        // Join loops: every instance ended before the loop's exit.
        for j in join_loops::find(facts, threads) {
            if threads[j.parent].origin == Origin::Detached {
                continue;
            }
            let exit_start = threads[j.parent].cfg.nodes[j.exit.index()].start;
            let p = o.at(j.parent, j.exit, 2 * exit_start);
            let all = *o.all_ended[j.child].get_or_insert_with(|| {
                o.points.push(Point::AllEnded);
                o.succ.push(Vec::new());
                o.points.len() - 1
            });
            o.edge(all, p);
        }
        o.once_edges(facts, reached);
        o.publishing_edges(facts, reached, locks);
        o.semaphore_edges(facts, reached);
        o.barrier_edges(facts, reached);
        o.release_edges(reached, locks);
        o.dominance_edges();
        o
    }

    /// `pthread_once`: the one run of a routine (`contexts::once_routines`) ends before any
    /// call of `pthread_once` with it returns. A point `Once(f)` stands for that end, before
    /// the place right after each such call.
    fn once_edges(&mut self, facts: &Facts<'_>, reached: &[Vec<bool>]) {
        let routines = super::contexts::once_routines(facts);
        if routines.is_empty() {
            return;
        }
        let program = facts.program;
        for (k, t) in self.threads.iter().enumerate() {
            if t.origin == Origin::Detached {
                continue;
            }
            for (node, _, idx, inst) in super::reached_insts(program, t, &reached[k]) {
                let InstKind::Call {
                    callee: crate::ir::Callee::Direct(g),
                    args,
                    ..
                } = &inst.kind
                else {
                    continue;
                };
                let Some(crate::ir::Operand::FuncAddr(f)) = args.get(1) else {
                    continue;
                };
                if !program.funcs[g.index()].lib.is_some_and(|l| l.props().once)
                    || !routines.contains_key(f)
                {
                    continue;
                }
                let done = match self.once.get(f) {
                    Some(&p) => p,
                    None => {
                        let p = self.add(Point::AllEnded);
                        self.once.insert(*f, p);
                        p
                    }
                };
                let after = self.at(k, node, 2 * idx + 2);
                self.edge(done, after);
            }
        }
    }

    /// The points every access of the one run of the `pthread_once` routine `f` precedes.
    pub fn once_follows(&self, f: FuncId) -> FixedBitSet {
        match self.once.get(&f) {
            Some(&p) => self.reach(p),
            None => FixedBitSet::with_capacity(self.points.len()),
        }
    }

    /// Flags that publish: the exit read of a wait loop (`while (!flag) {}`, a condition
    /// variable's `while (!ready) pthread_cond_wait(..)`) that only one store of the program
    /// can release is preceded by that store.
    ///
    /// Soundness: the loop leaves only when its last load reads a value that passes the exit
    /// test (`facts::exit_reads`); the cell is one slot for the whole run, its initial value
    /// does not pass, and of every instruction of the program that may write it (stores,
    /// copies, atomics, unknown calls, writes through unknown pointers: `Facts::writers`) only
    /// one may write a passing value, so the value read was written by an occurrence of that
    /// store. Reading its value orders what came before the store before what follows the
    /// read only when the two synchronise (C11 5.1.2.4p11, 7.17.3): the store a release
    /// (`release`, `acq_rel`, `seq_cst`) and the load an acquire, or both under one lock (the
    /// load's critical section cannot come first, since it reads the value written inside the
    /// store's: so the store's unlock happens before the load's lock). A plain flag (also
    /// `volatile`) or a relaxed one orders nothing: the loop is only recorded in `weak_flags`,
    /// so the report can say why. The store must stand at one place of one thread of the
    /// program (not also in a function analysed on its own, not inlined twice), so that the
    /// edge names it.
    fn publishing_edges(
        &mut self,
        facts: &Facts<'_>,
        reached: &[Vec<bool>],
        locks: &[ThreadLocks],
    ) {
        let threads = self.threads;
        for (k, t) in threads.iter().enumerate() {
            if t.origin == Origin::Detached {
                continue;
            }
            for x in crate::facts::exit_reads::exit_reads(facts, &t.cfg, &t.shape) {
                if !reached[k].get(x.exit.index()).copied().unwrap_or(true)
                    || !feasibility::single_slot(facts, threads, x.cell)
                    || initial_passes(facts, &t.cfg, &x)
                {
                    continue;
                }
                let passing: Vec<_> = (facts.writers(x.cell).into_iter())
                    .filter(|&(f, b, i)| {
                        let inst =
                            &facts.program.funcs[f.index()].blocks[b.index()].insts[i as usize];
                        let value = match &inst.kind {
                            InstKind::Store {
                                val: crate::ir::Operand::Int { value, .. },
                                ..
                            } => Some(*value),
                            InstKind::Store {
                                val: crate::ir::Operand::Null,
                                ..
                            } => Some(0),
                            _ => None,
                        };
                        crate::facts::exit_reads::may_exit_with(facts, &t.cfg, &x, value)
                    })
                    .collect();
                let [(f, b, i)] = passing[..] else {
                    continue;
                };
                let Some((w, node)) = only_place(threads, f, b, i) else {
                    continue;
                };
                let func = t.cfg.contexts[t.cfg.nodes[x.node.index()].ctx.0 as usize].func;
                let load = &facts.program.funcs[func.index()].blocks
                    [t.cfg.nodes[x.node.index()].block.index()]
                .insts[x.load as usize]
                    .kind;
                let store = &facts.program.funcs[f.index()].blocks[b.index()].insts[i as usize];
                let (InstKind::Load { order: read, .. }, InstKind::Store { order: written, .. }) =
                    (load, &store.kind)
                else {
                    continue;
                };
                let locked = |k: usize, at: (NodeId, u32)| -> BTreeSet<u32> {
                    let l = &locks[k];
                    let mut set = l.held.get(&at).cloned().unwrap_or_default();
                    set.extend(l.held_shared.get(&at).into_iter().flatten());
                    set
                };
                let common_lock = (locks[w].held.get(&(node, i)))
                    .is_some_and(|held| !held.is_disjoint(&locked(k, (x.node, x.load))));
                if !(common_lock || written.releases() && read.acquires()) {
                    self.weak_flags.push(WeakFlag {
                        name: facts.memory.cells.cells[x.cell.index()].name.clone(),
                        writer: w,
                        reader: k,
                        atomic: written.is_atomic() || read.is_atomic(),
                    });
                    continue;
                }
                let exit_start = t.cfg.nodes[x.exit.index()].start;
                let from = self.at(w, node, 2 * i + 1);
                let to = self.at(k, x.exit, 2 * exit_start);
                self.edge(from, to);
            }
        }
    }

    /// Semaphores that hand over (`sync::semaphores`, whose argument this is): the post that
    /// precedes every post of the semaphore precedes every place where a wait of it has
    /// returned 0.
    fn semaphore_edges(&mut self, facts: &Facts<'_>, reached: &[Vec<bool>]) {
        for h in semaphores::find(facts, self.threads) {
            let (node, idx) = h.post;
            let from = self.at(h.poster, node, 2 * idx + 1);
            for (k, at) in h.waits {
                let to = match at {
                    Succeeded::After { node, idx } if is_reached(reached, k, node) => {
                        self.at(k, node, 2 * idx + 2)
                    }
                    Succeeded::Entry(node) if is_reached(reached, k, node) => {
                        let start = self.threads[k].cfg.nodes[node.index()].start;
                        self.at(k, node, 2 * start)
                    }
                    _ => continue,
                };
                self.edge(from, to);
            }
        }
    }

    /// Barrier phases (`sync::barriers`, whose argument this is): the `k`-th wait of each
    /// participant precedes the place right after the `k`-th wait of every other.
    fn barrier_edges(&mut self, facts: &Facts<'_>, reached: &[Vec<bool>]) {
        for p in barriers::find(facts, self.threads) {
            for (a, wa) in &p.waits {
                for (b, wb) in &p.waits {
                    if a == b {
                        continue;
                    }
                    for (&(na, ia), &(nb, ib)) in wa.iter().zip(wb) {
                        if !is_reached(reached, *a, na) || !is_reached(reached, *b, nb) {
                            continue;
                        }
                        let from = self.at(*a, na, 2 * ia + 1);
                        let to = self.at(*b, nb, 2 * ib + 2);
                        self.edge(from, to);
                    }
                }
            }
        }
    }

    /// Creates inside a critical section (`release`, whose argument this is): the parent's
    /// first release of the lock after the create precedes every place where the created
    /// thread or a descendant of it has taken the lock.
    fn release_edges(&mut self, reached: &[Vec<bool>], locks: &[ThreadLocks]) {
        for h in super::release::find(self.threads, reached, locks) {
            let v = self.add(Point::Released);
            for (d, node, idx) in h.holding {
                let to = self.at(d, node, 2 * idx);
                self.edge(v, to);
            }
            self.released[h.parent].push((v, h.releases));
        }
    }

    fn add(&mut self, p: Point) -> usize {
        self.points.push(p);
        self.succ.push(Vec::new());
        self.points.len() - 1
    }

    fn edge(&mut self, from: usize, to: usize) {
        if !self.succ[from].contains(&to) {
            self.succ[from].push(to);
        }
    }

    /// The point at `pos` of `node` of thread `k`, made once.
    fn at(&mut self, k: usize, node: NodeId, pos: u32) -> usize {
        if let Some(&(_, p)) =
            (self.in_node[k].get(&node)).and_then(|v| v.iter().find(|(q, _)| *q == pos))
        {
            return p;
        }
        let p = self.add(Point::At {
            thread: k,
            node,
            pos,
        });
        let v = self.in_node[k].entry(node).or_default();
        v.push((pos, p));
        v.sort_unstable();
        self.placed[k].push(p);
        p
    }

    /// Dominance inside each thread: every point's nearest dominating point (the one before it
    /// in its node, else the last one of the nearest dominator that has points) precedes it.
    fn dominance_edges(&mut self) {
        for k in 0..self.threads.len() {
            let mut edges = Vec::new();
            for (node, pts) in &self.in_node[k] {
                for w in pts.windows(2) {
                    edges.push((w[0].1, w[1].1));
                }
                if let Some(d) = self.dominating_before(k, *node, 0) {
                    edges.push((d, pts[0].1));
                }
            }
            for (a, b) in edges {
                if a != b {
                    self.edge(a, b);
                }
            }
        }
    }

    /// The last point of thread `k` that dominates position `pos` of `node`: one of `node`
    /// before `pos`, else the last one of the nearest strict dominator that has points.
    fn dominating_before(&self, k: usize, node: NodeId, pos: u32) -> Option<usize> {
        if let Some(v) = self.in_node[k].get(&node) {
            if let Some(&(_, p)) = v.iter().rev().find(|(q, _)| *q < pos) {
                return Some(p);
            }
        }
        if let Some(&p) = self.dom_last.borrow().get(&(k, node)) {
            return p;
        }
        let shape = &self.threads[k].shape;
        let mut cur = node;
        let mut found = None;
        while let Some(d) = shape.idom[cur.index()] {
            if d == cur {
                break;
            }
            if let Some(&(_, p)) = self.in_node[k].get(&d).and_then(|v| v.last()) {
                found = Some(p);
                break;
            }
            cur = d;
        }
        self.dom_last.borrow_mut().insert((k, node), found);
        found
    }

    /// The points reachable from `from` by edges, itself included.
    fn reach(&self, from: usize) -> FixedBitSet {
        if let Some(r) = self.reach.borrow().get(&from) {
            return r.clone();
        }
        let mut seen = FixedBitSet::with_capacity(self.points.len());
        let mut stack = vec![from];
        while let Some(p) = stack.pop() {
            if seen.put(p) {
                continue;
            }
            stack.extend(self.succ[p].iter().copied());
        }
        self.reach.borrow_mut().insert(from, seen.clone());
        seen
    }

    /// Whether thread `k` can reach `place` after the point `x` of it (at `node`, `pos`):
    /// later in the same node, or through its successors.
    fn can_reach(&self, k: usize, x: usize, node: NodeId, pos: u32, place: Place) -> bool {
        if place.node == node && pos < 2 * place.idx + 1 {
            return true;
        }
        let mut memo = self.cfg_reach.borrow_mut();
        let seen = memo.entry(x).or_insert_with(|| {
            let shape = &self.threads[k].shape;
            let mut seen = FixedBitSet::with_capacity(shape.succ.len());
            let mut stack: Vec<NodeId> = shape.succ[node.index()].clone();
            while let Some(n) = stack.pop() {
                if seen.put(n.index()) {
                    continue;
                }
                stack.extend(shape.succ[n.index()].iter().copied());
            }
            seen
        });
        seen.contains(place.node.index())
    }

    /// The number of points: the length of the sets of [`Order::follows`].
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// The last point that precedes every occurrence of an access of thread `b` at `b_place`
    /// (`None`: anywhere in it): a point of `b` that dominates it, or `b`'s start. `None` when
    /// no point does (a function analysed on its own).
    pub fn precedes(&self, b: usize, b_place: Option<Place>) -> Option<usize> {
        let before = b_place.and_then(|p| self.dominating_before(b, p.node, 2 * p.idx + 1));
        before.or(self.start[b])
    }

    /// The points that follow every occurrence of an access of thread `a` at `a_place`
    /// (`None`: anywhere in it), with every point they lead to: the access happens before
    /// every access whose [`Order::precedes`] is among them.
    pub fn follows(&self, a: usize, a_place: Option<Place>) -> FixedBitSet {
        let mut out = FixedBitSet::with_capacity(self.points.len());
        if let Some(e) = self.all_ended[a] {
            out.union_with(&self.reach(e));
        }
        if self.threads[a].multi || self.threads[a].origin == Origin::Detached {
            return out;
        }
        if let Some(e) = self.end[a] {
            out.union_with(&self.reach(e));
        }
        let Some(place) = a_place else {
            return out;
        };
        for &x in &self.placed[a] {
            let Point::At { node, pos, .. } = self.points[x] else {
                continue;
            };
            if Some(x) != self.start[a]
                && !out.contains(x)
                && !self.can_reach(a, x, node, pos, place)
            {
                out.union_with(&self.reach(x));
            }
        }
        // A release no place of which can reach the access follows it (`release`).
        for (v, releases) in &self.released[a] {
            if !out.contains(*v)
                && !(releases.iter()).any(|&(n, i)| self.reaches_after(a, n, i, place))
            {
                out.union_with(&self.reach(*v));
            }
        }
        out
    }

    /// Whether thread `k` can reach `place` from instruction `idx` of `node` (that instruction
    /// included: a call that releases a lock may access memory before it does).
    fn reaches_after(&self, k: usize, node: NodeId, idx: u32, place: Place) -> bool {
        if place.node == node && place.idx >= idx {
            return true;
        }
        let mut memo = self.node_reach.borrow_mut();
        let seen = memo.entry((k, node)).or_insert_with(|| {
            let shape = &self.threads[k].shape;
            let mut seen = FixedBitSet::with_capacity(shape.succ.len());
            let mut stack: Vec<NodeId> = shape.succ[node.index()].clone();
            while let Some(n) = stack.pop() {
                if seen.put(n.index()) {
                    continue;
                }
                stack.extend(shape.succ[n.index()].iter().copied());
            }
            seen
        });
        seen.contains(place.node.index())
    }
}

/// Whether the fixpoint reached `node` of thread `k` (true past the end of its list).
fn is_reached(reached: &[Vec<bool>], k: usize, node: NodeId) -> bool {
    reached[k].get(node.index()).copied().unwrap_or(true)
}

/// The one place of instruction `idx` of block `b` of `f` among the threads: `None` when it
/// stands in a function analysed on its own or at several places.
fn only_place(threads: &[Thread], f: FuncId, b: BlockId, idx: u32) -> Option<(usize, NodeId)> {
    let mut found = None;
    for (k, t) in threads.iter().enumerate() {
        for (n, nd) in t.cfg.nodes.iter().enumerate() {
            let func = t.cfg.contexts[nd.ctx.0 as usize].func;
            if func == f && nd.block == b && nd.start <= idx && idx < nd.end {
                if t.origin == Origin::Detached || found.is_some() {
                    return None;
                }
                found = Some((k, NodeId(n as u32)));
            }
        }
    }
    found
}

/// Whether the cell of `x` may start with a value that leaves the loop: its initial value is
/// known only for a global with an initialiser.
fn initial_passes(facts: &Facts<'_>, cfg: &crate::threads::ThreadCfg, x: &ExitRead) -> bool {
    let info = facts.memory.cells.info(x.cell);
    let program = facts.program;
    let value = match program.objects[info.obj.index()].kind {
        ObjectKind::Global(g) => match &program.globals[g.index()].init {
            Some(cells) => {
                let at = cells.iter().find(|c| {
                    c.offset < info.offset + u64::from(info.size)
                        && info.offset < c.offset + u64::from(c.size)
                });
                match at {
                    // Bytes no initialiser cell covers are zero.
                    None => Some(0),
                    Some(c) if c.offset == info.offset && c.size == info.size => match c.value {
                        InitValue::Int(v) => Some(v),
                        _ => None,
                    },
                    Some(_) => None,
                }
            }
            None => None,
        },
        _ => None,
    };
    crate::facts::exit_reads::may_exit_with(facts, cfg, x, value)
}
