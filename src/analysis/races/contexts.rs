//! Where each access runs: in which thread, at which point of it, holding which locks.
//!
//! A thread's own accesses run at their place in its CFG. A function analysed on its own
//! (a callee that was not inlined, a target of a call through a pointer) runs inside the
//! threads that call it, at the call: its accesses take the caller's thread, the call's place
//! (for the order between threads) and the locks held there that the function never releases,
//! besides the locks it takes itself. A function that code outside the analysed files may
//! call (a callback, a signal handler) also runs in *any* thread, at any time, holding only
//! what it takes itself.
//!
//! Soundness: the contexts of a function are every call of it that some thread reaches (and
//! "any thread" when unknown code may call it), followed through the functions analysed on
//! their own that call each other; past `MAX_CONTEXTS` a function's contexts become its
//! threads alone (no place, no lock held by the caller), and past that again "any thread".
//! A context has fewer locks and knows less of its place than the calls it stands for, which
//! only keeps more pairs.
//!
//! The contexts: a thread's own code in its context; a function analysed on its own
//! (`Thread::detached`) in the contexts of its calls (thread, place, locks held by the caller, from
//! `sync::locks`, exclusive and shared); functions code the analysis does not see may call
//! (`points_to::called_back`) in any thread with no lock; `pthread_once` routines once, at the
//! calls of `pthread_once`; callbacks of the functions whose row says `synchronous_callbacks`
//! at their call; exit-time functions (destructors, `atexit` handlers: `exit_functions`) at the
//! exits of the process, in the exiting thread (`Walk::exit_contexts`), and anywhere too when
//! code outside the program may call them otherwise.
//! `MAX_CONTEXTS` is 64.

use crate::analysis::sync::locks::{LockEffect, LockNames, ThreadLocks};
use crate::facts::Facts;
use crate::ir::lib::Ends;
use crate::ir::{Callee, FuncId, InitValue, InstKind, Operand, StopReason, Terminator};
use crate::threads::{Exit, NodeId, Origin, Thread};
use std::collections::{BTreeMap, BTreeSet};

use crate::limits::RACE_MAX_CONTEXTS as MAX_CONTEXTS;

/// A place in a thread's CFG: instruction `idx` of `node`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The node.
    pub node: NodeId,
    /// The instruction's index in the node's block.
    pub idx: u32,
}

/// Where an access runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ctx {
    /// The thread class (an index of the fixpoint's threads, never a detached function);
    /// `None`: any thread (code outside the analysed files calls it).
    pub thread: Option<usize>,
    /// Where in the thread's CFG (the access itself, or the call that runs it); `None` when
    /// unknown.
    pub place: Option<Place>,
    /// Locks held for sure, exclusively.
    pub excl: BTreeSet<u32>,
    /// Read locks held for sure (not also held exclusively).
    pub shared: BTreeSet<u32>,
    /// Inside the one run of this `pthread_once` routine (see [`once_routines`]).
    pub once: Option<FuncId>,
    /// Inside the exit-time code (destructors, `atexit` handlers) of the one exit of the
    /// process, which runs in the exiting thread at `place` (see `Walk::exit_contexts`).
    pub at_exit: bool,
}

/// The contexts of every function analysed on its own, and the lock facts of every thread.
pub struct Contexts {
    /// Per thread index: its lock facts.
    pub locks: Vec<ThreadLocks>,
    /// The names of the locks.
    pub names: LockNames,
    /// Per thread index of a detached function: the contexts its body runs in (empty for a
    /// thread of the program, whose accesses run where they are).
    pub detached: Vec<Vec<Ctx>>,
    /// The functions handed to code outside the program that run in the program's threads
    /// only, by the assumption of [`callback_contexts`] (empty when they run anywhere).
    pub callbacks_in_threads: Vec<FuncId>,
}

impl Contexts {
    /// Computes the lock facts of every thread, and where each detached function runs.
    pub fn of(facts: &Facts<'_>, threads: &[Thread], reached: &[Vec<bool>]) -> Contexts {
        let mut names = LockNames::for_race_check();
        let locks: Vec<ThreadLocks> = (threads.iter())
            .map(|t| ThreadLocks::of(facts, t, &mut names))
            .collect();
        let by_func: BTreeMap<FuncId, usize> = (threads.iter().enumerate())
            .filter(|(_, t)| t.origin == Origin::Detached)
            .map(|(k, t)| (t.entry, k))
            .collect();
        // Per detached function: the locks it may release (`None`: any).
        let released: Vec<Option<BTreeSet<u32>>> = (threads.iter().enumerate())
            .map(|(k, t)| releases(&locks[k], t))
            .collect();
        let mut detached = Sets {
            sets: vec![BTreeSet::new(); threads.len()],
            level: vec![0; threads.len()],
        };
        let exposed = &facts.memory.pts.called_back;
        let once = once_routines(facts);
        let at_exit = exit_functions(facts);
        let mut work: Vec<usize> = Vec::new();
        let callbacks = callback_contexts(facts, threads);
        let mut callbacks_in_threads = Vec::new();
        for (k, t) in threads.iter().enumerate() {
            // A `pthread_once` routine runs where `pthread_once` is called (below), not at
            // any time: the library calls it from there, once. An exit-time function that
            // nothing else hands out runs at the exits of the process (below).
            if t.origin == Origin::Detached
                && exposed.contains(&t.entry)
                && !once.contains_key(&t.entry)
                && at_exit.get(&t.entry) != Some(&true)
            {
                if facts.memory.pts.called_anywhere.contains(&t.entry) {
                    detached.insert(k, Ctx::anywhere());
                } else {
                    for c in &callbacks {
                        detached.insert(k, c.clone());
                    }
                    if callbacks.iter().all(|c| c.thread.is_some()) {
                        callbacks_in_threads.push(t.entry);
                    }
                }
                work.push(k);
            }
        }
        for (k, t) in threads.iter().enumerate() {
            if t.origin == Origin::Detached {
                continue;
            }
            for_calls(facts, &once, t, &reached[k], |node, idx, callee| {
                let Some(&d) = by_func.get(&callee) else {
                    return;
                };
                let at = (node, idx);
                let c = Ctx {
                    thread: Some(k),
                    place: Some(Place { node, idx }),
                    excl: locks[k].held.get(&at).cloned().unwrap_or_default(),
                    shared: locks[k].held_shared.get(&at).cloned().unwrap_or_default(),
                    once: once.contains_key(&callee).then_some(callee),
                    at_exit: false,
                };
                if detached.insert(d, c) {
                    work.push(d);
                }
            });
        }
        let walk = Walk {
            facts,
            threads,
            reached,
            once: &once,
            locks: &locks,
            released: &released,
            by_func: &by_func,
        };
        walk.propagate(&mut detached, work);
        // Exit-time functions run at the exits of the process, in the exiting thread: where
        // the threads and every other function (which may call `exit`) run is known now.
        if !at_exit.is_empty() {
            let exits = walk.exit_contexts(&detached.sets, &at_exit);
            let mut work = Vec::new();
            for (k, t) in threads.iter().enumerate() {
                if t.origin == Origin::Detached && at_exit.contains_key(&t.entry) {
                    for c in &exits {
                        detached.insert(k, c.clone());
                    }
                    work.push(k);
                }
            }
            walk.propagate(&mut detached, work);
        }
        Contexts {
            locks,
            names,
            callbacks_in_threads,
            detached: (detached.sets.into_iter())
                .map(|s| s.into_iter().collect())
                .collect(),
        }
    }

    /// The contexts of an access at `idx` of `node` of thread `k`.
    pub fn of_access(&self, threads: &[Thread], k: usize, node: NodeId, idx: u32) -> Vec<Ctx> {
        let at = (node, idx);
        if threads[k].origin != Origin::Detached {
            return vec![Ctx {
                thread: Some(k),
                place: Some(Place { node, idx }),
                excl: self.locks[k].held.get(&at).cloned().unwrap_or_default(),
                shared: self.locks[k]
                    .held_shared
                    .get(&at)
                    .cloned()
                    .unwrap_or_default(),
                once: None,
                at_exit: false,
            }];
        }
        let released = releases(&self.locks[k], &threads[k]);
        (self.detached[k].iter())
            .map(|c| within(c, &self.locks[k], released.as_ref(), node, idx))
            .collect()
    }
}

/// What the propagation of contexts through detached functions reads.
struct Walk<'w, 'f> {
    facts: &'w Facts<'f>,
    threads: &'w [Thread],
    reached: &'w [Vec<bool>],
    once: &'w BTreeMap<FuncId, OnceObject>,
    locks: &'w [ThreadLocks],
    released: &'w [Option<BTreeSet<u32>>],
    by_func: &'w BTreeMap<FuncId, usize>,
}

impl Walk<'_, '_> {
    /// Carries the contexts of the detached functions in `work` to the detached functions
    /// they call, and on, until nothing grows.
    fn propagate(&self, detached: &mut Sets, mut work: Vec<usize>) {
        while let Some(d) = work.pop() {
            let ctxs: Vec<Ctx> = detached.sets[d].iter().cloned().collect();
            let mut calls = Vec::new();
            for_calls(
                self.facts,
                self.once,
                &self.threads[d],
                &self.reached[d],
                |node, idx, callee| {
                    if let Some(&e) = self.by_func.get(&callee) {
                        calls.push((node, idx, e, callee));
                    }
                },
            );
            for (node, idx, e, callee) in calls {
                let mut grew = false;
                for c in &ctxs {
                    let mut inner = within(c, &self.locks[d], self.released[d].as_ref(), node, idx);
                    if self.once.contains_key(&callee) {
                        inner.once = Some(callee);
                    }
                    grew |= detached.insert(e, inner);
                }
                if grew {
                    work.push(e);
                }
            }
        }
    }

    /// Where exit-time code runs: at every call that ends the process and runs it (`exit`,
    /// `Props::runs_exit_handlers`, or a `noreturn` function the table does not know, which
    /// may call `exit`), in the thread that calls it and holding the locks it holds there
    /// (in the contexts `sets` of a detached function that calls it), and at every return of
    /// `main`'s entry function (C11 5.1.2.2.3: it is a call of `exit`). After `main` itself
    /// may end as a thread (`pthread_exit`), the process exits when the last thread ends, in
    /// that thread: then anywhere, as also when code outside the program runs as a thread.
    ///
    /// Soundness: the C runtime runs destructors and `atexit` handlers only in `exit` (C11
    /// 7.22.4.4, POSIX `atexit`), which a return from `main` and the end of the last thread
    /// call; `_exit`, `_Exit`, `abort` and a fatal signal run none. A library function that
    /// returns (is not `noreturn`) is assumed not to call `exit` (README: what a declared
    /// function may do). A call of `exit` inside exit-time code is undefined (C11 7.22.4.4),
    /// so the exit-time functions' own calls are not exits.
    fn exit_contexts(&self, sets: &[BTreeSet<Ctx>], at_exit: &BTreeMap<FuncId, bool>) -> Vec<Ctx> {
        let program = self.facts.program;
        let may_end = self.facts.may_end();
        let mut anywhere = may_end.anywhere
            || program.unknown_code.is_some_and(|u| {
                (self.threads.iter()).any(|t| t.entry == u && t.origin != Origin::Detached)
            });
        let mut out: BTreeSet<Ctx> = BTreeSet::new();
        for (k, t) in self.threads.iter().enumerate() {
            let detached = t.origin == Origin::Detached;
            if detached && at_exit.contains_key(&t.entry) {
                continue;
            }
            let main = t.origin == Origin::Main;
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[n] == u32::MAX || !self.reached[k].get(n).copied().unwrap_or(true) {
                    continue;
                }
                let node = NodeId(n as u32);
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let block = &program.funcs[func.index()].blocks[nd.block.index()];
                let ends_block = nd.exit == Exit::Term;
                let mut points: Vec<u32> = (nd.start..nd.end)
                    .filter(|&idx| runs_exit_code(program, block, idx, ends_block))
                    .collect();
                if ends_block && main {
                    match block.term {
                        Terminator::Ret(_) if nd.ctx.0 == 0 => points.push(nd.end),
                        Terminator::Stop {
                            reason: StopReason::ThreadExit,
                        } => anywhere = true,
                        _ => {}
                    }
                }
                if main && (may_end.node_exit(self.facts, t, n)).is_some_and(|i| i < nd.end) {
                    anywhere = true;
                }
                for idx in points {
                    if detached {
                        for c in &sets[k] {
                            let mut inner =
                                within(c, &self.locks[k], self.released[k].as_ref(), node, idx);
                            inner.once = None;
                            inner.at_exit = true;
                            out.insert(inner);
                        }
                    } else {
                        let at = (node, idx);
                        out.insert(Ctx {
                            thread: Some(k),
                            place: Some(Place { node, idx }),
                            excl: self.locks[k].held.get(&at).cloned().unwrap_or_default(),
                            shared: (self.locks[k].held_shared.get(&at).cloned())
                                .unwrap_or_default(),
                            once: None,
                            at_exit: true,
                        });
                    }
                }
            }
        }
        if anywhere {
            out.insert(Ctx::anywhere());
        }
        out.into_iter().collect()
    }
}

/// Whether instruction `idx` of `block` is a call that ends the process running the exit-time
/// code: a function whose row says so (`exit`), or, as the block's last instruction before a
/// process stop (`ends_block`: the node ends with the block), a function that may (a `noreturn`
/// function the table does not know, a call through a pointer), not one that ends the process
/// without it (`abort`, `_exit`, `__assert_fail`).
fn runs_exit_code(
    program: &crate::ir::Program,
    block: &crate::ir::Block,
    idx: u32,
    ends_block: bool,
) -> bool {
    let InstKind::Call { callee, .. } = &block.insts[idx as usize].kind else {
        return false;
    };
    let props = match callee {
        Callee::Direct(g) if !program.funcs[g.index()].is_defined => {
            program.funcs[g.index()].library_props()
        }
        Callee::Direct(_) => return false,
        Callee::Indirect(_) => None,
    };
    if props.is_some_and(|p| p.runs_exit_handlers) {
        return true;
    }
    let last = ends_block && idx as usize + 1 == block.insts.len();
    last && matches!(
        block.term,
        Terminator::Stop {
            reason: StopReason::ProcessExit
        }
    ) && !props.is_some_and(|p| p.ends == Ends::Process)
}

/// The functions the C library runs at exit: those of the exit-time arrays
/// (`Program::exit_arrays`: destructors, `.fini_array`) and those handed to `atexit` and its
/// kin (`Props::exit_handler`), each with whether the exit is its only way to be called by
/// code the analysis does not see: no other mention of its address (a call of it by the
/// program is no mention: it runs there too).
///
/// Soundness: a function whose address reaches only the runtime's exit arrays and the
/// registration functions is called by code outside the program only at exit (C11 7.22.4.2,
/// 7.22.4.4; POSIX `atexit`): the race check runs it there (`Walk::exit_contexts`) instead of
/// anywhere; any other mention keeps it anywhere as well.
pub fn exit_functions(facts: &Facts<'_>) -> BTreeMap<FuncId, bool> {
    let program = facts.program;
    let mut found: BTreeSet<FuncId> = BTreeSet::new();
    let mut other: BTreeSet<FuncId> = BTreeSet::new();
    for &g in &program.exit_arrays {
        for c in program.globals[g.index()].init.iter().flatten() {
            if let InitValue::FuncAddr(f) = c.value {
                found.insert(f);
            }
        }
    }
    for (gi, g) in program.globals.iter().enumerate() {
        if program.exit_arrays.contains(&crate::ir::GlobalId::from(gi)) {
            continue;
        }
        for c in g.init.iter().flatten() {
            if let InitValue::FuncAddr(f) = c.value {
                other.insert(f);
            }
        }
    }
    for op in &program.hidden_addrs {
        if let Operand::FuncAddr(f) = op {
            other.insert(*f);
        }
    }
    for (fi, f) in program.funcs.iter().enumerate() {
        let func = FuncId(fi as u32);
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            let handler = match &inst.kind {
                InstKind::Call {
                    callee: Callee::Direct(g),
                    args,
                    ..
                } => (program.funcs[g.index()].library_props())
                    .and_then(|p| p.exit_handler)
                    .and_then(|i| args.get(i)),
                _ => None,
            };
            if let Some(a) = handler {
                let named: Vec<FuncId> = facts.memory.pts.of(program, func, a).funcs().collect();
                found.extend(named.iter().copied());
                // A handler that comes through a variable may have been handed out elsewhere.
                if !matches!(a, Operand::FuncAddr(_)) {
                    other.extend(named);
                }
            }
            inst.kind.for_each_use(|op| {
                if let Operand::FuncAddr(g) = op {
                    if !handler.is_some_and(|a| std::ptr::eq(a, op)) {
                        other.insert(*g);
                    }
                }
            });
        }
    }
    (found.into_iter())
        .filter(|f| program.funcs[f.index()].is_defined)
        .map(|f| (f, !other.contains(&f)))
        .collect()
}

/// The context of instruction `idx` of `node` of a detached function that runs in `c`: the
/// locks it holds itself there, and those of the caller it never releases.
fn within(
    c: &Ctx,
    own: &ThreadLocks,
    released: Option<&BTreeSet<u32>>,
    node: NodeId,
    idx: u32,
) -> Ctx {
    let kept = |set: &BTreeSet<u32>| -> BTreeSet<u32> {
        match released {
            Some(r) => set.difference(r).copied().collect(),
            None => BTreeSet::new(),
        }
    };
    let mut excl = kept(&c.excl);
    excl.extend(own.held.get(&(node, idx)).into_iter().flatten().copied());
    let mut shared = kept(&c.shared);
    shared.extend(
        own.held_shared
            .get(&(node, idx))
            .into_iter()
            .flatten()
            .copied(),
    );
    shared.retain(|m| !excl.contains(m));
    Ctx {
        thread: c.thread,
        place: c.place,
        excl,
        shared,
        once: c.once,
        at_exit: c.at_exit,
    }
}

/// The locks a function's body may release (`None`: any, an unknown call or an unlock through
/// a pointer that may name several).
fn releases(locks: &ThreadLocks, t: &Thread) -> Option<BTreeSet<u32>> {
    let mut out = BTreeSet::new();
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        for idx in nd.start..nd.end {
            match locks.effect(NodeId(n as u32), idx) {
                LockEffect::Release(m) => {
                    out.insert(m);
                }
                LockEffect::ReleaseAll => return None,
                _ => {}
            }
        }
    }
    Some(out)
}

/// Calls `f(node, idx, callee)` for every call of a defined function that thread `t` makes
/// without inlining it, in reached nodes, and for every `pthread_once` of one of the `once`
/// routines (which runs it there).
fn for_calls(
    facts: &Facts<'_>,
    once: &BTreeMap<FuncId, OnceObject>,
    t: &Thread,
    reached: &[bool],
    mut f: impl FnMut(NodeId, u32, FuncId),
) {
    let program = facts.program;
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        if !reached.get(n).copied().unwrap_or(true) {
            continue;
        }
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            let InstKind::Call { callee, .. } = &insts[idx as usize].kind else {
                continue;
            };
            let targets = match callee {
                // A library function that calls what it is given during the call runs it
                // here (`Props::synchronous_callbacks`).
                Callee::Direct(g)
                    if program.funcs[g.index()]
                        .library_props()
                        .is_some_and(|p| p.synchronous_callbacks) =>
                {
                    let InstKind::Call { args, .. } = &insts[idx as usize].kind else {
                        continue;
                    };
                    (args.iter())
                        .flat_map(|a| {
                            facts
                                .memory
                                .pts
                                .of(program, func, a)
                                .funcs()
                                .collect::<Vec<_>>()
                        })
                        .collect()
                }
                // (`lib`, not `library()`: also a definition of the program's of that name.)
                Callee::Direct(g)
                    if program.funcs[g.index()].lib.is_some_and(|l| l.props().once) =>
                {
                    match once_routine_of(insts[idx as usize].kind.clone()) {
                        Some(r) if once.contains_key(&r) => vec![r],
                        _ => Vec::new(),
                    }
                }
                Callee::Direct(g) => vec![*g],
                Callee::Indirect(op) => facts.memory.pts.callees(program, func, op).0,
            };
            for g in targets {
                if program.funcs[g.index()].is_defined {
                    f(NodeId(n as u32), idx, g);
                }
            }
        }
    }
}

impl Ctx {
    /// Any thread, anywhere, holding nothing.
    pub fn anywhere() -> Ctx {
        Ctx {
            thread: None,
            place: None,
            excl: BTreeSet::new(),
            shared: BTreeSet::new(),
            once: None,
            at_exit: false,
        }
    }
}

/// Where a function handed to code outside the program runs: in each thread of the program,
/// at any point of it, holding no lock (`Ctx::thread` set, no place); or, with
/// `--callbacks-anywhere`, or when the program calls a function that may run what it is given
/// in a thread of its own (`Props::callbacks_elsewhere`) or starts a thread in code outside it
/// (a thread whose entry it does not define), in any thread ([`Ctx::anywhere`]).
///
/// Assumption (README's "What race-free means"): code outside the program calls the program's
/// functions only in threads of the program: the thread that handed them over, during its later
/// calls into that code, or a thread a signal is delivered to. Each thread, at any point,
/// covers every such run, so the contexts below over-approximate them; a run in a thread of
/// the outside code itself is what the assumption rules out, and where the program lets such
/// threads exist (the cases above) the old contexts stay. A signal handler that interrupts
/// the thread it runs in is then not a data race with that thread's code (C11 5.1.2.3: it is
/// not another thread), though it still races with every other thread.
fn callback_contexts(facts: &Facts<'_>, threads: &[Thread]) -> Vec<Ctx> {
    let program = facts.program;
    let defined =
        |o: &Operand| matches!(o, Operand::FuncAddr(f) if program.funcs[f.index()].is_defined);
    let foreign_thread = (program.funcs.iter().flat_map(|f| &f.blocks))
        .flat_map(|b| &b.insts)
        .any(|i| matches!(&i.kind, InstKind::ThreadCreate { entry, .. } if !defined(entry)));
    let elsewhere = program.callbacks_anywhere
        || foreign_thread
        || (program.funcs.iter()).any(|f| f.library_props().is_some_and(|p| p.callbacks_elsewhere));
    if elsewhere {
        return vec![Ctx::anywhere()];
    }
    // The stand-in for code outside the program running beside it (`dlopen`'s) is that code's
    // own thread: no callback runs there.
    (threads.iter().enumerate())
        .filter(|(_, t)| t.origin != Origin::Detached && Some(t.entry) != program.unknown_code)
        .map(|(k, _)| Ctx {
            thread: Some(k),
            place: None,
            excl: BTreeSet::new(),
            shared: BTreeSet::new(),
            once: None,
            at_exit: false,
        })
        .collect()
}

/// The once-control object of a `pthread_once` routine: a global, and the offset in it.
pub type OnceObject = (crate::ir::ObjId, u64);

/// The routine `pthread_once(o, f)` names, when it is a function's address.
fn once_routine_of(kind: InstKind) -> Option<FuncId> {
    match kind {
        InstKind::Call { args, .. } => match args.get(1) {
            Some(crate::ir::Operand::FuncAddr(f)) => Some(*f),
            _ => None,
        },
        _ => None,
    }
}

/// The routines of `pthread_once` that run at most once per execution, each with its one
/// once-control object: every mention of the function's address in the program is the routine
/// argument of a `pthread_once` call, and every such call passes the same once-control object,
/// one global at one offset. Nothing when the program may cancel threads (a cancelled routine
/// lets a later `pthread_once` run it again).
///
/// Soundness: POSIX (and C11 for `call_once`, whose row has `Props::once` too) runs the routine
/// the first time `pthread_once` is called with that control object, and no call returns
/// before it completed; the routine is called nowhere
/// else (no other mention of its address, no direct call), so its body runs at most once, at
/// one of those calls, in the thread that made it.
pub fn once_routines(facts: &Facts<'_>) -> BTreeMap<FuncId, OnceObject> {
    let program = facts.program;
    let mut objects: BTreeMap<FuncId, Option<OnceObject>> = BTreeMap::new();
    let mut other_uses: BTreeSet<FuncId> = BTreeSet::new();
    if facts.may_end().cancel {
        return BTreeMap::new();
    }
    for (fi, f) in program.funcs.iter().enumerate() {
        let func = FuncId(fi as u32);
        for b in &f.blocks {
            for inst in &b.insts {
                let once_call = match &inst.kind {
                    InstKind::Call {
                        callee: Callee::Direct(g),
                        args,
                        ..
                    } if program.funcs[g.index()].lib.is_some_and(|l| l.props().once) => {
                        once_routine_of(inst.kind.clone()).map(|r| (r, args[0]))
                    }
                    _ => None,
                };
                if let Some((r, o)) = once_call {
                    let pts = facts.memory.pts.of(program, func, &o);
                    let target = match pts.targets.iter().collect::<Vec<_>>()[..] {
                        [crate::memory::points_to::Target::Obj(obj, Some(off))]
                            if !pts.unknown
                                && matches!(
                                    program.objects[obj.index()].kind,
                                    crate::ir::ObjectKind::Global(_)
                                ) =>
                        {
                            Some((*obj, *off))
                        }
                        _ => None,
                    };
                    let slot = objects.entry(r).or_insert(target);
                    if *slot != target {
                        *slot = None;
                    }
                }
                let mut mentioned: Vec<FuncId> = Vec::new();
                let mut mention = |op: &crate::ir::Operand| {
                    if let crate::ir::Operand::FuncAddr(g) = op {
                        mentioned.push(*g);
                    }
                };
                match &inst.kind {
                    InstKind::Call {
                        callee: Callee::Direct(g),
                        args,
                        ..
                    } => {
                        mention(&crate::ir::Operand::FuncAddr(*g));
                        for (i, a) in args.iter().enumerate() {
                            if !(once_call.is_some() && i == 1) {
                                mention(a);
                            }
                        }
                    }
                    k => k.for_each_use(&mut mention),
                }
                other_uses.extend(mentioned);
            }
        }
    }
    // Addresses in initialisers and those the lowering hides.
    for g in &program.globals {
        for c in g.init.iter().flatten() {
            if let crate::ir::InitValue::FuncAddr(f) = c.value {
                other_uses.insert(f);
            }
        }
    }
    for op in &program.hidden_addrs {
        if let crate::ir::Operand::FuncAddr(f) = op {
            other_uses.insert(*f);
        }
    }
    (objects.into_iter())
        .filter(|(f, o)| {
            o.is_some() && !other_uses.contains(f) && program.funcs[f.index()].is_defined
        })
        .map(|(f, o)| (f, o.expect("filtered")))
        .collect()
}

/// The contexts of each detached function, coarsened per function past `MAX_CONTEXTS`: at
/// level 1 a context keeps only its thread, at level 2 it is any thread. Levels only grow, so
/// the propagation ends.
struct Sets {
    sets: Vec<BTreeSet<Ctx>>,
    level: Vec<u8>,
}

impl Sets {
    /// Adds `c` (coarsened to `d`'s level) to `d`'s contexts; whether they grew.
    fn insert(&mut self, d: usize, c: Ctx) -> bool {
        let grew = self.sets[d].insert(coarse(c, self.level[d]));
        while self.sets[d].len() > MAX_CONTEXTS && self.level[d] < 2 {
            self.level[d] += 1;
            let level = self.level[d];
            self.sets[d] = std::mem::take(&mut self.sets[d])
                .into_iter()
                .map(|c| coarse(c, level))
                .collect();
        }
        grew
    }
}

/// `c` at a coarsening level (0: as it is).
fn coarse(c: Ctx, level: u8) -> Ctx {
    match level {
        0 => c,
        1 => Ctx {
            thread: c.thread,
            ..Ctx::anywhere()
        },
        _ => Ctx::anywhere(),
    }
}
