//! The happens-before facts of the program, as the Datalog oracle of `watts-rules` reads them
//! (FSE'16, Alg. 4): events, program order, create and join order, strong stores.
//!
//! Invariant: every fact given to the oracle holds in every execution (sequential
//! consistency); what cannot be established (a join whose handle may denote several threads,
//! a store into a summary cell) is left out, which only makes combinations more often feasible.
//!
//! The facts (constraints and optimized modes): events of all thread CFGs; program order along the
//! dominator tree; create and must-join order; strong stores and initial values only for cells that
//! are one slot for the whole run (`single_slot`: never a `per_thread` cell), with a pseudo-thread
//! storing the initial values; and the lock facts of `locks` (locks held, stores overwritten before
//! the release, loads after their own store since the acquisition). The exit read of a wait loop
//! (`facts::exit_reads`) is one more load event at the start of the loop's exit node, with the
//! load's locks (rules/README.md, "Exit reads of wait loops").
//!
//! Boundaries: a join waits for a thread only when the handle cell is one slot that no instruction
//! of the program but one create may write (`Facts::write_counts`) and that create starts one
//! single-instance thread (`join_order`), or when the joining thread's last write of the handle
//! before its load is always one create (`last_create`: a handle reused after a join). An event
//! precedes its thread's end only when it dominates every point where the thread may end, visible
//! or not (`facts::ends::MayEnd`). With `pthread_cancel` there are no overwritten-before-release
//! facts (a cleanup handler may unlock).
//!
//! The oracle (`Feasibility::build(facts, threads, previous, max_events, trace)`) is built lazily
//! (`LazyOracle`): when a plan first needs it (a load with candidate stores), and again only when
//! the number of threads or of multi-instance threads changed since; it keeps the previous oracle,
//! with its verdict cache, when the facts and the event numbering are equal. Past
//! `MAX_ORACLE_EVENTS` (40,000) events it is not built (its closures take a bit per pair of
//! events): the constraint modes then prune nothing, with a note. `trace` (`WATTS_TRACE`, read by
//! `cli`) prints the facts on stderr (`compose::combinations` prints the queries).

use crate::facts::exit_reads::EXIT_READ;
use crate::facts::Facts;
use crate::ir::{InstKind, Operand};
use crate::memory::CellId;
use crate::threads::NodeId;
use crate::threads::{Origin, Thread};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use watts_rules::{Event, Loc, LockId, Oracle, StaticFacts, ThreadId};

pub use crate::limits::MAX_ORACLE_EVENTS;

/// Events of one round and the oracle over them.
pub struct Feasibility {
    /// The oracle.
    pub oracle: Oracle,
    events: HashMap<(usize, NodeId, u32), Event>,
    init: HashMap<CellId, Event>,
    /// The facts the oracle was built from.
    facts: StaticFacts,
    /// Print the facts and every query on stderr (`Config::trace`).
    pub trace: bool,
}

impl Feasibility {
    /// The event of instruction `inst` of `node` in thread `tid`, if it has one.
    pub fn event(&self, tid: usize, node: NodeId, inst: u32) -> Option<Event> {
        self.events.get(&(tid, node, inst)).copied()
    }

    /// The pseudo-store that puts the initial value into `c` before `main` starts.
    pub fn init(&self, c: CellId) -> Option<Event> {
        self.init.get(&c).copied()
    }

    /// Collects the facts of every thread analysed so far and closes them; keeps `previous`
    /// (and the verdicts its oracle cached) when the facts and event numbering are the same.
    /// The flag says whether it did. `Err(events)` when there are more than
    /// `MAX_ORACLE_EVENTS` events.
    pub fn build(
        facts: &Facts<'_>,
        threads: &[Thread],
        previous: Option<Feasibility>,
        max_events: usize,
        trace: bool,
    ) -> Result<(Feasibility, bool), usize> {
        let program = facts.program;
        let mut sf = StaticFacts::new();
        let mut next = 0u32;
        let mut fresh = || {
            next += 1;
            Event(next - 1)
        };
        let mut events = HashMap::default();
        let mut starts = Vec::new();
        let mut ends = Vec::new();
        let mut loaded: BTreeSet<CellId> = BTreeSet::new();
        for t in threads {
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                for idx in nd.start..nd.end {
                    let inst =
                        &program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize];
                    if let InstKind::Load { .. } = inst.kind {
                        let a = facts.access(func, nd.block, idx);
                        if a.exact.len() == 1 && !a.read_unknown {
                            loaded.insert(a.exact[0]);
                        }
                    }
                    // Soundness: a stack cell stands for one slot per activation (two inlined
                    // calls, two threads running one function); only cells that are one slot
                    // for the whole run get strong-store facts (see `single_slot`).
                    let _ = n;
                }
            }
        }
        let single: BTreeSet<CellId> = loaded
            .iter()
            .copied()
            .filter(|c| single_slot(facts, threads, *c))
            .collect();
        let mut lock_names = super::locks::LockNames::default();
        let join_loops = super::join_loops::find(facts, threads);
        let ends_at = facts.may_end();
        // (join loop, the pseudo-event at the start of its exit node).
        let mut joined_at: Vec<(usize, Event)> = Vec::new();
        for (tid, t) in threads.iter().enumerate() {
            let th = ThreadId(tid as u32);
            let start = fresh();
            let end = fresh();
            sf.thread_of(start, th).thread_of(end, th);
            starts.push(start);
            ends.push(end);
            if t.multi || t.origin == Origin::Detached {
                sf.multi_instance(th);
            }
            // Lock facts: not for functions analysed on their own, which run inside some
            // other thread (the mutual-exclusion rule needs two different threads).
            let mut locks = (t.origin != Origin::Detached)
                .then(|| super::locks::ThreadLocks::of(facts, t, &mut lock_names));
            // Events per node, in instruction order.
            let mut per_node: Vec<Vec<(u32, Event)>> = vec![Vec::new(); t.cfg.nodes.len()];
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[n] == u32::MAX {
                    continue;
                }
                let node = NodeId(n as u32);
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let here = |j: &&super::join_loops::JoinLoop| j.parent == tid && j.exit == node;
                if join_loops.iter().any(|j| here(&j)) {
                    // The point after a join loop: a pseudo-event before the node's own events.
                    let e = fresh();
                    sf.thread_of(e, th);
                    per_node[n].push((2 * nd.start, e));
                    for (k, _) in join_loops.iter().enumerate().filter(|(_, j)| here(j)) {
                        joined_at.push((k, e));
                    }
                }
                for idx in nd.start..nd.end {
                    let inst =
                        &program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize];
                    // The cells it may write, from the program alone (not from what the last
                    // analysis recorded), so that the facts depend only on the threads' CFGs
                    // and stay the same from round to round. A write the analysis finds
                    // unreachable gives an event that never occurs: program order comes from
                    // dominance, so the facts about it hold vacuously.
                    let mut written = facts.written_cells(func, nd.block, idx);
                    written.sort();
                    written.dedup();
                    // The one cell (one slot for the whole run) a load reads, for LockedOwnStore.
                    let mut load_cell = None;
                    let e = match &inst.kind {
                        InstKind::Load { .. } => {
                            let a = facts.access(func, nd.block, idx);
                            if a.exact.is_empty() || a.read_unknown {
                                continue;
                            }
                            let e = fresh();
                            if a.exact.len() == 1 {
                                sf.load(e, Loc(a.exact[0].0));
                                load_cell = Some(a.exact[0]).filter(|c| single.contains(c));
                            }
                            e
                        }
                        InstKind::ThreadCreate { .. } | InstKind::ThreadJoin { .. } => fresh(),
                        _ if !written.is_empty() => fresh(),
                        _ => continue,
                    };
                    let mut strong_cell = None;
                    if !written.is_empty() {
                        let a = facts.access(func, nd.block, idx);
                        let strong = matches!(inst.kind, InstKind::Store { .. })
                            && a.strong
                            && written.len() == 1
                            && single.contains(&written[0]);
                        if strong && loaded.contains(&written[0]) {
                            strong_cell = Some(written[0]);
                        }
                        // The cells a `memset`, `memcpy` or `calloc` surely writes.
                        let replaced = match &inst.kind {
                            InstKind::MemSet { .. } | InstKind::MemCopy { .. } => {
                                let span = facts.span(func, nd.block, idx);
                                (span.cells.iter())
                                    .filter(|w| w.strong && single.contains(&w.cell))
                                    .map(|w| w.cell)
                                    .collect()
                            }
                            InstKind::HeapAlloc { zeroed: true, .. } => (written.iter())
                                .filter(|c| single.contains(c))
                                .copied()
                                .collect(),
                            _ => Vec::new(),
                        };
                        for c in &written {
                            if !loaded.contains(c) {
                                continue;
                            }
                            if strong || replaced.contains(c) {
                                sf.store(e, Loc(c.0));
                            } else {
                                sf.may_store(e, Loc(c.0));
                            }
                        }
                    }
                    sf.thread_of(e, th);
                    if let Some(l) = locks.as_mut() {
                        let held = l.held.get(&(node, idx)).cloned().unwrap_or_default();
                        for m in held {
                            sf.held(e, LockId(m));
                            if let Some(c) = load_cell {
                                if l.stored_since_acquire(facts, t, (node, idx), m, c) {
                                    sf.stored_since_acquire(e, LockId(m), Loc(c.0));
                                }
                            }
                            let Some(c) = strong_cell else { continue };
                            // Soundness: a thread cancelled at a cancellation point runs its
                            // cleanup handlers, which may unlock `m` (`pthread_cleanup_push`);
                            // the lock facts see unknown calls as releases, not `pthread_join`,
                            // so when the program cancels threads, no store is said to be
                            // overwritten before a release.
                            if ends_at.cancel {
                                continue;
                            }
                            if l.overwritten_before_release(facts, t, (node, idx), m, c) {
                                sf.overwritten_before_release(e, LockId(m), Loc(c.0));
                            }
                        }
                    }
                    if t.shape.in_cycle[n] {
                        sf.repeats(e);
                    }
                    events.insert((tid, node, idx), e);
                    per_node[n].push((2 * idx + 1, e));
                }
            }
            // The exit read of a wait loop: one event at the start of the exit node, which only
            // the loop's exit edge enters (`facts::exit_reads`); it holds the load's locks.
            for x in crate::facts::exit_reads::exit_reads(facts, &t.cfg, &t.shape) {
                let e = fresh();
                sf.thread_of(e, th);
                if loaded.contains(&x.cell) {
                    sf.load(e, Loc(x.cell.0));
                }
                if let Some(l) = locks.as_ref() {
                    for m in l.held.get(&(x.node, x.load)).cloned().unwrap_or_default() {
                        sf.held(e, LockId(m));
                    }
                }
                let start = t.cfg.nodes[x.exit.index()].start;
                per_node[x.exit.index()].insert(0, (2 * start, e));
                events.insert((tid, x.node, EXIT_READ), e);
            }
            program_order(facts, ends_at, &mut sf, t, &per_node, end);
        }
        // Create order: the create call precedes the child's start.
        for (tid, t) in threads.iter().enumerate() {
            if let Origin::Created { parent, node, inst } = t.origin {
                if let Some(c) = events.get(&(parent, node, inst)) {
                    sf.creates(*c, starts[tid]);
                }
            }
        }
        join_order(facts, threads, &events, &ends, &mut sf);
        for (k, at) in joined_at {
            let j = &join_loops[k];
            let all_ended = fresh();
            sf.joins_all(ends[j.child], all_ended, at, j.at_least_one);
        }
        // Initial values: a pseudo-thread stores them, then creates `main`.
        let init_thread = ThreadId(threads.len() as u32);
        let init_create = fresh();
        sf.thread_of(init_create, init_thread);
        let mut init = HashMap::default();
        for c in loaded.iter().filter(|c| single.contains(*c)) {
            let e = fresh();
            sf.thread_of(e, init_thread)
                .store(e, Loc(c.0))
                .program_order(e, init_create);
            init.insert(*c, e);
        }
        if let Some(main_start) = starts.first() {
            sf.creates(init_create, *main_start);
        }
        if trace {
            eprintln!("facts: {sf:?}");
        }
        if let Some(p) = previous {
            if p.facts == sf && p.events == events && p.init == init {
                return Ok((p, true));
            }
        }
        if next as usize > max_events {
            return Err(next as usize);
        }
        let f = Feasibility {
            oracle: Oracle::new(&sf),
            events,
            init,
            facts: sf,
            trace,
        };
        Ok((f, false))
    }
}

/// Whether the (singular) cell is one concrete cell for the whole run: a global (not
/// thread-local), a cell of a heap object allocated once, or a local of a function that runs
/// in exactly one inlined context of one single-instance thread.
pub(crate) fn single_slot(facts: &Facts<'_>, threads: &[Thread], c: CellId) -> bool {
    let info = facts.memory.cells.info(c);
    if !info.singular {
        return false;
    }
    match facts.program.objects[info.obj.index()].kind {
        // A thread-local variable is one slot per thread.
        crate::ir::ObjectKind::Global(_) => !facts.memory.per_thread(c),
        crate::ir::ObjectKind::Stack(f) => {
            let mut activations = 0;
            for t in threads {
                let n = t.cfg.contexts.iter().filter(|x| x.func == f).count();
                if n > 0 && (t.multi || t.origin == Origin::Detached) {
                    return false;
                }
                activations += n;
            }
            activations == 1
        }
        // A singular heap cell is one of an object allocated once (`memory::heap`).
        crate::ir::ObjectKind::Heap(_) => true,
    }
}

/// Program order inside one thread: a chain along the dominator tree, skipping pairs that a
/// cycle could reorder, and every event that precedes each point where the thread may end
/// before the thread's end.
fn program_order(
    facts: &Facts<'_>,
    ends_at: &crate::facts::ends::MayEnd,
    sf: &mut StaticFacts,
    t: &Thread,
    per_node: &[Vec<(u32, Event)>],
    end: Event,
) {
    let shape = &t.shape;
    for (n, evs) in per_node.iter().enumerate() {
        if evs.is_empty() {
            continue;
        }
        // Soundness: in a node on a cycle, a later instruction of one iteration precedes an
        // earlier one of the next. A thread that ends between two events (inside a call that
        // is not inlined, say) never runs the second: the fact holds vacuously.
        if !shape.in_cycle[n] {
            for w in evs.windows(2) {
                sf.program_order(w[0].1, w[1].1);
            }
        }
        // The nearest strict dominator with events.
        let mut cur = n;
        while let Some(d) = shape.idom[cur] {
            let d = d.index();
            if d == cur {
                break;
            }
            if let Some(last) = per_node[d].last() {
                // Soundness: `d` dominates `n`; it cannot run after `n` unless both lie on one
                // cycle.
                let same_cycle = shape.in_cycle[n] && shape.scc[d] == shape.scc[n];
                if !same_cycle {
                    sf.program_order(last.1, evs[0].1);
                }
                break;
            }
            cur = d;
        }
    }
    // Soundness: the thread ends after every event that dominates every point where it may
    // end, visible (a return of its entry function, `pthread_exit`) or not (`MayEnd`: a call
    // that may end it inside, a cancellation point, ...), and that comes before that point in
    // its own node. An event after a point where the thread may end need not happen before
    // the end: the thread may have ended before it. When the thread may end anywhere, no event
    // is known to precede its end.
    if ends_at.anywhere {
        return;
    }
    let exit_at: Vec<Option<u32>> = (0..t.cfg.nodes.len())
        .map(|n| {
            (shape.rpo[n] != u32::MAX)
                .then(|| ends_at.node_exit(facts, t, n))
                .flatten()
        })
        .collect();
    let program_exits: Vec<usize> = (0..exit_at.len())
        .filter(|n| exit_at[*n].is_some())
        .collect();
    if program_exits.is_empty() {
        return;
    }
    let mut best: Option<(u32, u32, Event)> = None;
    for (n, evs) in per_node.iter().enumerate() {
        if evs.is_empty() || shape.in_cycle[n] || shape.rpo[n] == u32::MAX {
            continue;
        }
        let dominates_all = program_exits
            .iter()
            .all(|x| shape.dominates(NodeId(n as u32), NodeId(*x as u32)));
        if !dominates_all {
            continue;
        }
        // Positions are doubled: a pseudo-event at the node's start is at `2 * start`,
        // instruction `i` at `2 * i + 1`, so the instruction that may end the thread does not
        // precede its end.
        let limit = exit_at[n].map_or(u32::MAX, |k| 2 * k + 1);
        if let Some(&(pos, e)) = evs.iter().rev().find(|(pos, _)| *pos < limit) {
            if best.is_none_or(|(r, p, _)| (shape.rpo[n], pos) > (r, p)) {
                best = Some((shape.rpo[n], pos, e));
            }
        }
    }
    if let Some((_, _, e)) = best {
        sf.program_order(e, end);
    }
}

/// `pthread_join(h)` waits for the one thread whose handle `h` must hold: `h` is loaded from a
/// single cell (directly, or by a helper that returns it: `handle_cell`), one slot for the whole
/// run, that no instruction of the program but one `pthread_create` may write, and that site
/// starts exactly one single-instance thread; or the cell has several writers and
/// [`last_create`] finds the create whose write the load must read.
///
/// Soundness: every writer of the cell counts, not only the creates (`join_loops::write_counts`:
/// plain and atomic stores, stores through pointers and unknown pointers, `memcpy` and struct
/// copies, helpers inlined or not, unknown calls that receive the cell's address or may reach
/// an exposed cell, inline assembly). A handle copied or swapped in (`a = b`, `*p = b`,
/// `memcpy(&a, &b, ..)`) is such a writer, so the cell has two and gets no fact. With the
/// create the only writer, the cell holds either its initial contents (joining those is
/// undefined behaviour: no thread has that id) or the id the create wrote. The create starts
/// one single-instance thread only if it runs at most once per execution: a create reached in
/// two inlined contexts, by two threads, or in a multi-instance or detached (not inlined)
/// function gives two thread classes or a multi-instance one (`compose::fixpoint::spawn`), which get
/// no fact. The thread's end pseudo-event stands for its termination however it happens
/// (return, `pthread_exit` anywhere, cancellation), which is what the join waits for.
fn join_order(
    facts: &Facts<'_>,
    threads: &[Thread],
    events: &HashMap<(usize, NodeId, u32), Event>,
    ends: &[Event],
    sf: &mut StaticFacts,
) {
    for (tid, t) in threads.iter().enumerate() {
        for (n, nd) in t.cfg.nodes.iter().enumerate() {
            for idx in nd.start..nd.end {
                let Some(join_event) = events.get(&(tid, NodeId(n as u32), idx)) else {
                    continue;
                };
                if let Some(k) = must_joined(facts, threads, t, NodeId(n as u32), idx) {
                    sf.joins(ends[k], *join_event);
                }
            }
        }
    }
}

/// The single-instance thread that the join at instruction `idx` of `node` of `t` must wait
/// for, if it is a join and the conditions of [`join_order`] hold (also used by
/// `protection`).
pub(crate) fn must_joined(
    facts: &Facts<'_>,
    threads: &[Thread],
    t: &Thread,
    node: NodeId,
    idx: u32,
) -> Option<usize> {
    let program = facts.program;
    let nd = &t.cfg.nodes[node.index()];
    let func = t.cfg.contexts[nd.ctx.0 as usize].func;
    let inst = &program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize];
    let InstKind::ThreadJoin {
        handle: Operand::Var(h),
        ..
    } = &inst.kind
    else {
        return None;
    };
    let cell = handle_cell(facts, func, *h, MAX_HANDLE_CALLS)?;
    if !single_slot(facts, threads, cell) {
        return None;
    }
    let writers = facts.write_counts();
    if writers[cell.index()] != 1 {
        return last_create(facts, threads, t, node, *h, cell);
    }
    let children: Vec<usize> = threads
        .iter()
        .enumerate()
        .filter(|(_, c)| match c.origin {
            Origin::Created { parent, node, inst } => {
                let p = &threads[parent];
                let pn = &p.cfg.nodes[node.index()];
                let pf = p.cfg.contexts[pn.ctx.0 as usize].func;
                match &program.funcs[pf.index()].blocks[pn.block.index()].insts[inst as usize].kind
                {
                    InstKind::ThreadCreate { handle, .. } => {
                        facts.memory.region(program, pf, handle).contains(&cell)
                    }
                    _ => false,
                }
            }
            _ => false,
        })
        .map(|(k, _)| k)
        .collect();
    match children[..] {
        [k] if !threads[k].multi => Some(k),
        _ => None,
    }
}

/// How many calls deep [`handle_cell`] follows a handle returned by a helper.
const MAX_HANDLE_CALLS: u32 = 4;

/// The single cell the handle `v` holds the contents of: the cell `v` was loaded from by a
/// strong access, or, for the result of a direct call of a function of the program
/// (`pthread_t spawn(void) { pthread_t t; pthread_create(&t, ..); return t; }`), the one cell
/// every return of the callee returns the contents of (at most `calls` calls deep).
///
/// Soundness: `v` is a value read from the cell (by the load, or by the load whose value the
/// callee returned, every return alike), so whatever the cell may hold at that read, `v` may
/// be; [`must_joined`]'s one-writer argument needs no more. Its same-thread argument
/// ([`last_create`]) needs the place of the load, so it takes only a load in the join's
/// function.
fn handle_cell(
    facts: &Facts<'_>,
    func: crate::ir::FuncId,
    v: crate::ir::VarId,
    calls: u32,
) -> Option<CellId> {
    let program = facts.program;
    let (b, i) = facts.def_site(func, v)?;
    match &program.funcs[func.index()].blocks[b.index()].insts[i as usize].kind {
        InstKind::Load { .. } => {
            let a = facts.access(func, b, i);
            (a.strong && !a.read_unknown).then(|| a.exact[0])
        }
        InstKind::Call {
            callee: crate::ir::Callee::Direct(g),
            ..
        } => {
            let callee = &program.funcs[g.index()];
            if calls == 0 || !callee.is_defined {
                return None;
            }
            let mut cell = None;
            for b in &callee.blocks {
                match &b.term {
                    crate::ir::Terminator::Ret(Some(Operand::Var(r))) => {
                        let c = handle_cell(facts, *g, *r, calls - 1)?;
                        if cell.is_some_and(|x| x != c) {
                            return None;
                        }
                        cell = Some(c);
                    }
                    crate::ir::Terminator::Ret(_) => return None,
                    _ => {}
                }
            }
            cell
        }
        _ => None,
    }
}

/// The nodes of `th` where instruction `site` (function, block, index) runs, in any context.
fn occurrences(
    th: &Thread,
    (f, b, i): (crate::ir::FuncId, crate::ir::BlockId, u32),
) -> Vec<NodeId> {
    (th.cfg.nodes.iter().enumerate())
        .filter(|(_, n)| n.block == b && n.start <= i && i < n.end)
        .filter(|(_, n)| th.cfg.contexts[n.ctx.0 as usize].func == f)
        .map(|(k, _)| NodeId(k as u32))
        .collect()
}

/// The single-instance thread the join at `node` of `t` (whose handle `h` is loaded from
/// `cell`, one slot for the whole run, in the join's function) must wait for when the cell
/// has several writers: a handle variable reused for a second create after the first thread
/// was joined (`pthread_create(&t, ..); pthread_join(t, 0); pthread_create(&t, ..);
/// pthread_join(t, 0);`).
///
/// Soundness: the load `L` of `h` (in the join's context) is dominated, in `t`, by an
/// occurrence `C` of a create whose handle points to `cell` alone (so it writes the cell
/// whenever it runs), and no occurrence of any writer of the cell (`Facts::writers`: every
/// instruction of the program that may write it, creates, stores, copies and unknown calls
/// alike) but `C` lies on a path of `t` from `C` to `L`, nor in any other thread (a writer
/// found in no thread of `t`'s CFG gives no answer). Then on every path to `L` the last write
/// of the cell is the one `C` made, in `t` itself: `h` is the id of the thread that occurrence
/// started. It stands for one thread only when `t` runs once and the create makes one
/// single-instance thread (a create in a cycle or in two contexts makes a multi-instance
/// thread or two thread classes, which give nothing).
fn last_create(
    facts: &Facts<'_>,
    threads: &[Thread],
    t: &Thread,
    join_node: NodeId,
    h: crate::ir::VarId,
    cell: CellId,
) -> Option<usize> {
    let program = facts.program;
    let me = threads.iter().position(|x| std::ptr::eq(x, t))?;
    if t.multi || t.origin == Origin::Detached {
        return None;
    }
    let ctx = t.cfg.nodes[join_node.index()].ctx;
    let func = t.cfg.contexts[ctx.0 as usize].func;
    let (lb, li) = facts.def_site(func, h)?;
    // The place of the read is that of a load in the join's function (not that of a helper's
    // return, which may come after a create that follows the helper's own read).
    let def = &program.funcs[func.index()].blocks[lb.index()].insts[li as usize].kind;
    if !matches!(def, InstKind::Load { .. }) {
        return None;
    }
    let load = (occurrences(t, (func, lb, li)).into_iter())
        .find(|n| t.cfg.nodes[n.index()].ctx == ctx)
        .map(|n| (n, li))?;
    // Every occurrence of every writer of the cell, in `t`; none elsewhere.
    let mut in_t: Vec<(NodeId, u32, bool)> = Vec::new();
    for (wf, wb, wi) in facts.writers(cell) {
        let kind = &program.funcs[wf.index()].blocks[wb.index()].insts[wi as usize].kind;
        let strong_create = match kind {
            InstKind::ThreadCreate { handle, .. } => {
                !facts.memory.pts.of(program, wf, handle).unknown
                    && facts.memory.region(program, wf, handle) == [cell]
            }
            _ => false,
        };
        let mut found = false;
        for (k, th) in threads.iter().enumerate() {
            for n in occurrences(th, (wf, wb, wi)) {
                if k != me {
                    return None;
                }
                found = true;
                in_t.push((n, wi, strong_create));
            }
        }
        if !found {
            return None;
        }
    }
    let shape = &t.shape;
    let after = |from: (NodeId, u32)| {
        let mut seen = vec![false; t.cfg.nodes.len()];
        let mut stack: Vec<NodeId> = shape.succ[from.0.index()].clone();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n.index()], true) {
                stack.extend(shape.succ[n.index()].iter().copied());
            }
        }
        seen
    };
    let before = |to: (NodeId, u32)| {
        let mut seen = vec![false; t.cfg.nodes.len()];
        let mut stack: Vec<NodeId> = shape.pred[to.0.index()].clone();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n.index()], true) {
                stack.extend(shape.pred[n.index()].iter().copied());
            }
        }
        seen
    };
    let to_load = before(load);
    let reaches_load = |w: (NodeId, u32)| to_load[w.0.index()] || (w.0 == load.0 && w.1 < load.1);
    let dominates_load = |c: (NodeId, u32)| {
        if c.0 == load.0 {
            c.1 < load.1
        } else {
            shape.dominates(c.0, load.0)
        }
    };
    let mut found = None;
    for &(n, i, strong_create) in &in_t {
        if !strong_create || !dominates_load((n, i)) {
            continue;
        }
        let from_c = after((n, i));
        let between = in_t.iter().any(|&(wn, wi, _)| {
            let after_c = from_c[wn.index()] || (wn == n && wi > i);
            (wn, wi) != (n, i) && after_c && reaches_load((wn, wi))
        });
        if !between {
            if found.is_some() {
                return None;
            }
            found = Some((n, i));
        }
    }
    let (cn, ci) = found?;
    let children: Vec<usize> = (threads.iter().enumerate())
        .filter(|(_, c)| {
            c.origin
                == Origin::Created {
                    parent: me,
                    node: cn,
                    inst: ci,
                }
        })
        .map(|(k, _)| k)
        .collect();
    match children[..] {
        [k] if !threads[k].multi => Some(k),
        _ => None,
    }
}

/// The oracle of the current threads, built when a plan first needs it: a thread whose loads
/// have no candidate store asks nothing, so `main`, analysed before any other thread exists,
/// does not make the fixpoint build an oracle for itself alone and rebuild it once its threads
/// are known.
pub struct LazyOracle {
    /// Most events it builds an oracle for (`MAX_ORACLE_EVENTS`).
    max_events: usize,
    current: Option<Feasibility>,
    /// `(threads, multi-instance threads)` when `current` was built: the facts depend only
    /// on the threads' CFGs and instance counts.
    built_for: Option<(usize, usize)>,
    /// Whether `get` was called since the last `take_used`.
    used: bool,
    /// Whether a build since the last `take_rebuilt` gave new facts.
    rebuilt: bool,
    /// The events of the last build, when there were too many for the oracle.
    too_big: Option<usize>,
    /// Print the facts and queries of every oracle built (`Config::trace`).
    trace: bool,
}

impl Default for LazyOracle {
    fn default() -> Self {
        LazyOracle::with_max_events(MAX_ORACLE_EVENTS)
    }
}

impl LazyOracle {
    /// No oracle yet; at most `max_events` events.
    pub fn with_max_events(max_events: usize) -> LazyOracle {
        LazyOracle {
            max_events,
            current: None,
            built_for: None,
            used: false,
            rebuilt: false,
            too_big: None,
            trace: false,
        }
    }

    /// The same, printing the facts and queries of every oracle it builds when `trace` is set.
    pub fn tracing(self, trace: bool) -> LazyOracle {
        LazyOracle { trace, ..self }
    }

    /// The oracle of `threads`, (re)built when their number or instance counts changed since
    /// the last build (keeping the old one, and its verdict cache, when the facts are equal);
    /// `None` when they have more than `MAX_ORACLE_EVENTS` events.
    pub fn get(&mut self, facts: &Facts<'_>, threads: &[Thread]) -> Option<&Feasibility> {
        self.used = true;
        let shape = (threads.len(), threads.iter().filter(|t| t.multi).count());
        if self.built_for != Some(shape) {
            match Feasibility::build(
                facts,
                threads,
                self.current.take(),
                self.max_events,
                self.trace,
            ) {
                Ok((f, kept)) => {
                    self.rebuilt |= !kept;
                    self.current = Some(f);
                    self.too_big = None;
                }
                Err(events) => {
                    // No oracle is new facts too: plans that read the old one are redone.
                    self.rebuilt = true;
                    self.too_big = Some(events);
                }
            }
            self.built_for = Some(shape);
        }
        self.current.as_ref()
    }

    /// The events of the threads when they were too many for the oracle (at the last build).
    pub fn too_big(&self) -> Option<usize> {
        self.too_big
    }

    /// Whether `get` was called since the last call (the plan read the oracle).
    pub fn take_used(&mut self) -> bool {
        std::mem::take(&mut self.used)
    }

    /// Whether the facts changed since the last call.
    pub fn take_rebuilt(&mut self) -> bool {
        std::mem::take(&mut self.rebuilt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::{func, with_facts};
    use crate::threads::{InlineBudget, Origin};

    /// Past its budget of events the lazy oracle gives none (combinations are then not
    /// pruned), says how many there were, and counts as new facts for the plans that read it.
    #[test]
    fn an_oracle_over_its_budget_is_not_built() {
        let src = "#include <pthread.h>\nint x;\n\
            static void *f(void *a) { x = 1; return a; }\n\
            int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); int v = x; return v; }\n";
        with_facts(src, |program, facts| {
            let thread = |name: &str, origin| {
                let entry = func(program, name);
                Thread::new(
                    program,
                    name.into(),
                    origin,
                    entry,
                    false,
                    InlineBudget::default(),
                    &crate::threads::Resolution::default(),
                )
            };
            let threads = [thread("main", Origin::Main), thread("f", Origin::Detached)];
            let mut roomy = LazyOracle::default();
            assert!(roomy.get(facts, &threads).is_some());
            assert_eq!(roomy.too_big(), None);
            let mut tight = LazyOracle::with_max_events(2);
            assert!(tight.get(facts, &threads).is_none());
            assert!(tight.too_big().is_some_and(|n| n > 2));
            assert!(tight.take_used() && tight.take_rebuilt());
            // The same threads: no second build, still none.
            assert!(tight.get(facts, &threads).is_none());
            assert!(!tight.take_rebuilt());
        });
    }
}
