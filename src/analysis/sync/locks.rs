//! Lock facts for the oracle's mutual-exclusion rules (`rules/README.md`, LockedOverwrite and
//! LockedOwnStore): which locks a thread holds for sure at each instruction, whether, after a
//! store, it stores to the same cell again before releasing a lock, and whether, before a load,
//! it stored to the cell since it last acquired a lock.
//!
//! Invariant (soundness): a lock is named only when it is one concrete mutex for the whole run
//! (a global object without arrays at a known offset), or the one lock of atomic sections;
//! "held" is a must-property (an intersection over paths, from nothing at the thread's start);
//! anything that may release a lock (an unlock through a pointer that may name it, the end of
//! an atomic section, a call that is not inlined and not known to leave locks alone) ends it.
//!
//! Facts per call: its `LockEffect` on locks (acquire; acquire shared, for a read lock; release;
//! `Reacquire` for `pthread_cond_wait`, which gives its mutex back before it returns). `LockNames`
//! names the locks (a global mutex, or one in a heap block or local of a function that runs once,
//! `ir::once`) and describes them in source terms; `ThreadLocks::held` and `held_shared` are the
//! locks held for sure at each call (read locks apart: they exclude only writers).
//!
//! Per thread: a forward must-analysis of the locks held at each instruction and, per lock, cell
//! and point, whether every path "stores the cell again before anything may release the lock" (a
//! greatest fixpoint: false exactly when a path of nodes that decide nothing reaches one that
//! releases first or ends the thread, found by a forward search from the point that stops at each
//! decision, over per-node lists of acquisitions, releases and strong stores; a thread's end counts
//! as a release). Its duals: `stored_since_acquire` (LockedOwnStore: every path back from a load to
//! the last acquisition of the lock passes a strong store to the cell; a backward search that fails
//! at an acquisition or trylock of the lock, a release, anything that may release every lock, or
//! the thread's start) and `released_before_end` (for `protection`: every path from a write reaches
//! a release of the lock, or a call that may release every lock, before any point where the thread
//! may end, `facts::ends::MayEnd`; false when it may end anywhere).
//!
//! Boundary: a lock is one concrete mutex for the whole run when its object is global, at a known
//! offset, and its first bytes lie in singular cells (every byte of an array's element lies in a
//! summary cell, so no array folds mutexes there, while an array elsewhere in the struct, a
//! driver's ring buffer, does not matter), or it is the atomic-section lock; a program that makes a
//! mutex robust names no lock (EOWNERDEAD). Read locks are not exclusive, and may fail (EAGAIN); a
//! read lock or a trylock holds its lock only on the edge where its result compares equal to 0 (`trylock_edges`: the call, the comparison
//! and the branch in one node). Unlocks through pointers that may name several mutexes,
//! `pthread_*`/`sem_*` calls and every call that is neither inlined nor a known argument-only
//! library function release every lock. Detached functions get no lock facts (they run inside
//! another thread).

use crate::facts::Facts;
use crate::ir::effects::{Access, Effect as InstEffect, MemAccess, Via};
use crate::ir::lib::{Api, SyncOp};
use crate::ir::{Callee, FuncId, InstKind, ObjectKind, Operand};
use crate::memory::points_to::Target;
use crate::memory::CellId;
use crate::threads::NodeId;
use crate::threads::Thread;
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;

/// The lock of `__VERIFIER_atomic_begin/end` (and `__VERIFIER_atomic_*` functions).
pub const ATOMIC_LOCK: u32 = 0;

/// The bit that marks a shared (read) hold of a lock inside the must-analysis of
/// `ThreadLocks::of`; lock ids stay below it.
const SHARED: u32 = 1 << 31;

/// Dense ids for the locks a program names (0 is [`ATOMIC_LOCK`]).
#[derive(Default)]
pub struct LockNames {
    ids: HashMap<(crate::ir::ObjId, u64), u32>,
    /// Whether the program makes a mutex robust (looked up once, at the first name).
    robust: Option<bool>,
    /// The code that runs at most once (computed at the first local mutex).
    once: Option<crate::ir::once::RunsOnce>,
    /// The race check's assumption about functions without a definition (README "Data
    /// races": one touches only what its arguments point to, during the call): one given no
    /// pointer releases no lock (`LockNames::for_race_check`).
    args_only: bool,
}

/// What an instruction does to the locks its thread holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockEffect {
    /// Nothing.
    None,
    /// Takes the lock exclusively.
    Acquire(u32),
    /// `pthread_rwlock_rdlock`: takes the lock shared with other readers, only when it returns
    /// 0 (POSIX: it fails with `EAGAIN` when the maximum number of readers is reached, so an
    /// unchecked read lock protects nothing: held on the branch where its result is 0, as a
    /// trylock's). Only the race check reads it (`ThreadLocks::held_shared`);
    /// [`ThreadLocks::effect`] shows it as `None`.
    AcquireShared(u32),
    /// `pthread_mutex_trylock` and friends: takes the lock only when it returns 0 (the lock is
    /// held on that branch, see `ThreadLocks::of`).
    TryAcquire(u32),
    /// Releases the lock.
    Release(u32),
    /// `pthread_cond_wait`: releases the lock, then takes it again before it returns (every
    /// other thread may run in between).
    Reacquire(u32),
    /// May release any lock (an unlock through an unknown pointer, an unknown call).
    ReleaseAll,
}

impl LockNames {
    /// The source name of lock `id`: the field or variable that holds it (`dev.lock`, `m`),
    /// or `an atomic section`.
    pub fn describe(&self, program: &crate::ir::Program, id: u32) -> String {
        if id == ATOMIC_LOCK {
            return "an atomic section".to_string();
        }
        let Some((&(obj, off), _)) = self.ids.iter().find(|(_, v)| **v == id) else {
            return format!("lock {id}");
        };
        let object = &program.objects[obj.index()];
        let mut name = match object.kind {
            ObjectKind::Global(g) => program.globals[g.index()].name.clone(),
            _ => object.name.clone(),
        };
        let sizes = program.sync_sizes;
        let whole = [sizes.mutex, sizes.rwlock, Some(4)]
            .into_iter()
            .flatten()
            .max();
        if let Some(l) = &object.layout {
            if !(off == 0 && whole.is_some_and(|n| l.size() <= n)) {
                name += &l.path(off, whole, false);
            }
        }
        name
    }

    /// Lock names for the race check, under its assumption that a function without a
    /// definition touches only what its arguments point to: a call of one given no pointer
    /// into the program's memory, when no function of the program is handed to code the
    /// analysis does not see (which such a call might run) and no object is kept by such code,
    /// releases no lock.
    pub fn for_race_check() -> LockNames {
        LockNames {
            args_only: true,
            ..LockNames::default()
        }
    }

    /// The lock `op` names in `func`, if it is one concrete mutex.
    fn name(&mut self, facts: &Facts<'_>, func: FuncId, op: &Operand) -> Option<u32> {
        // Soundness: mutual exclusion holds only for a lock call that acquires and a thread
        // that releases what it acquired. A robust mutex breaks both (a lock may fail to
        // acquire, an owner may end without releasing), so a program that makes any mutex
        // robust names no lock at all: every lock fact and every protected cell is dropped.
        // A robust mutex whose owner died is acquired with `EOWNERDEAD` (the dead owner never
        // released it) and, left inconsistent, is never acquired again (`ENOTRECOVERABLE`: a
        // lock call that returns without the lock). (`Props::robust` of any function of the
        // program, by its name: `lib`, not `library()`.)
        let robust = *self.robust.get_or_insert_with(|| {
            (facts.program.funcs.iter()).any(|f| f.lib.is_some_and(|l| l.props().robust))
        });
        if robust {
            return None;
        }
        // A lock named once keeps its id at every later site that names its object alone.
        let pts = facts.memory.pts.of(facts.program, func, op);
        if let ([Target::Obj(o, Some(off))], false) =
            (&pts.targets.iter().collect::<Vec<_>>()[..], pts.unknown)
        {
            if let Some(&id) = self.ids.get(&(*o, *off)) {
                return Some(id);
            }
        }
        let once = &mut self.once;
        let (o, off) = one_object(facts, once, func, op)?;
        let id = self.ids.len() as u32 + 1;
        self.ids.insert((o, off), id);
        Some(id)
    }

    fn effect(
        &mut self,
        facts: &Facts<'_>,
        func: FuncId,
        kind: &InstKind,
        opaque: &[FuncId],
    ) -> LockEffect {
        let mut out = LockEffect::None;
        kind.effects(|e| {
            let this = match e {
                InstEffect::Locks { lock, exclusive } => {
                    self.name(facts, func, lock).map_or(LockEffect::None, |m| {
                        if exclusive {
                            LockEffect::Acquire(m)
                        } else {
                            LockEffect::AcquireShared(m)
                        }
                    })
                }
                InstEffect::Unlocks { lock } => self
                    .name(facts, func, lock)
                    .map_or(LockEffect::ReleaseAll, LockEffect::Release),
                InstEffect::AtomicSection(true) => LockEffect::Acquire(ATOMIC_LOCK),
                InstEffect::AtomicSection(false) => LockEffect::Release(ATOMIC_LOCK),
                InstEffect::Call { callee, args } => {
                    self.call_effect(facts, func, callee, args, opaque)
                }
                // Issue 35: memory-clobbering assembly is taken to leave the locks alone.
                InstEffect::Clobbers => LockEffect::None,
                InstEffect::Mem(_)
                | InstEffect::Allocates
                | InstEffect::Zeroes { .. }
                | InstEffect::CreatesThread { .. }
                | InstEffect::JoinsThread { .. }
                | InstEffect::Asserts
                | InstEffect::Assumes => LockEffect::None,
            };
            // An instruction has at most one effect on locks.
            if this != LockEffect::None {
                out = this;
            }
        });
        out
    }

    /// What a call does to the locks its thread holds.
    fn call_effect(
        &mut self,
        facts: &Facts<'_>,
        func: FuncId,
        callee: &Callee,
        args: &[Operand],
        opaque: &[FuncId],
    ) -> LockEffect {
        match callee {
            // A function that takes a lock exclusively when it returns 0 (`lib`, not
            // `library()`: also a definition of the program's under such a name).
            Callee::Direct(g)
                if facts.program.funcs[g.index()].lib.is_some_and(|l| {
                    l.props().sync_op == Some(SyncOp::TryLock { exclusive: true })
                }) =>
            {
                // A trylock never releases anything; it acquires only on success.
                args.first()
                    .and_then(|op| self.name(facts, func, op))
                    .map_or(LockEffect::None, LockEffect::TryAcquire)
            }
            Callee::Direct(g)
                if facts.program.funcs[g.index()]
                    .library_props()
                    .is_some_and(|p| matches!(p.sync_op, Some(SyncOp::CondWait { .. }))) =>
            {
                // `pthread_cond_wait(c, m)` releases `m` while it waits and takes it again
                // before it returns, also on a timeout; it touches no other lock.
                args.get(1)
                    .and_then(|op| self.name(facts, func, op))
                    .map_or(LockEffect::ReleaseAll, LockEffect::Reacquire)
            }
            Callee::Direct(g) => {
                let f = &facts.program.funcs[g.index()];
                // Soundness: a library function known to touch only its arguments leaves
                // locks alone, except the synchronisation ones (`pthread_cond_wait`
                // releases its mutex while it waits). Of C11's `<threads.h>` (7.26) only
                // `mtx_unlock` (an `Unlock`) and `cnd_wait`/`cnd_timedwait` (above) release a
                // mutex; `thrd_exit` ends the thread; every other function of it that is known
                // (`mtx_init`, `cnd_signal`, `thrd_sleep`, ...) releases none.
                let sync = (f.library_props())
                    .is_some_and(|p| matches!(p.api, Some(Api::Pthread | Api::Semaphore)));
                // Nor does one that calls no code of the program and no lock function, even if
                // it keeps a pointer (`strtok`) or returns the library's memory (`localtime`):
                // `Props::leaves_locks`.
                let leaves = f.library_props().is_some_and(|p| p.leaves_locks);
                let known =
                    !f.is_defined && (facts.memory.pts.writes_only_args(*g, f) || leaves) && !sync;
                if known && !opaque.contains(g) {
                    LockEffect::None
                } else if self.args_only && !f.is_defined && !sync && !opaque.contains(g) && {
                    let pts = &facts.memory.pts;
                    pts.called_back.is_empty()
                        && pts.thread_exposed.is_empty()
                        && args.iter().all(|a| {
                            let s = pts.of(facts.program, func, a);
                            !s.unknown && s.targets.is_empty()
                        })
                } {
                    // Soundness (the race check's assumption, README "Data races"): it
                    // reaches no mutex, runs no code of the program, and no code it might call
                    // keeps a pointer into the program's memory.
                    LockEffect::None
                } else {
                    LockEffect::ReleaseAll
                }
            }
            Callee::Indirect(_) => LockEffect::ReleaseAll,
        }
    }
}

/// The one object `op` (an operand of `func`) points to for the whole run, and the offset in it:
/// a global, a heap block allocated once, or a local of a function whose allocation runs at
/// most once (`ir::once`, computed into `once` when first needed), whose first 4 bytes (the
/// smallest synchronisation object, a spinlock) lie in singular cells. `None` when `op` may
/// point elsewhere or the object may stand for several.
pub fn one_object(
    facts: &Facts<'_>,
    once: &mut Option<crate::ir::once::RunsOnce>,
    func: FuncId,
    op: &Operand,
) -> Option<(crate::ir::ObjId, u64)> {
    let pts = facts.memory.pts.of(facts.program, func, op);
    let [Target::Obj(o, Some(off))] = pts.targets.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if pts.unknown {
        return None;
    }
    // Soundness: one object for the whole run: a global, a heap block allocated once (its
    // cells are singular, checked below, only then: `memory::heap`), or a local of a
    // function whose allocation runs at most once (`main`'s mutex handed to its threads).
    match facts.program.objects[o.index()].kind {
        ObjectKind::Global(_) | ObjectKind::Heap(_) => {}
        ObjectKind::Stack(f) => {
            let once =
                once.get_or_insert_with(|| crate::ir::once::RunsOnce::compute(facts.program));
            let func = &facts.program.funcs[f.index()];
            let allocated_once = (func.blocks.iter().enumerate()).all(|(b, block)| {
                !block
                    .insts
                    .iter()
                    .any(|i| matches!(i.kind, InstKind::Alloca { obj, .. } if obj == *o))
                    || once.block(facts.program, f, crate::ir::BlockId(b as u32))
            });
            if !allocated_once {
                return None;
            }
        }
    }
    // Soundness: an array folds several mutexes onto one offset, and every byte of an
    // array's element lies in a summary cell. So the cells of the lock's first bytes (the
    // smallest lock type, a 4-byte spinlock) must be singular; an array elsewhere in the
    // object (a driver's ring buffer beside its mutex) folds nothing.
    let cells: Vec<CellId> = (facts.memory.span(facts.program, func, op, Some(4)).cells)
        .iter()
        .map(|c| c.cell)
        .collect();
    if cells.is_empty() || !cells.iter().all(|&c| facts.memory.cells.info(c).singular) {
        return None;
    }
    Some((*o, *off))
}

/// The lock facts of one thread.
pub struct ThreadLocks {
    /// Per node and instruction index: the locks held for sure before it runs.
    pub held: HashMap<(NodeId, u32), BTreeSet<u32>>,
    /// Per node and instruction index: the read locks held for sure (shared with other
    /// readers, `pthread_rwlock_rdlock`) before it runs, when not also held exclusively.
    pub held_shared: HashMap<(NodeId, u32), BTreeSet<u32>>,
    /// What each instruction does to the locks, shared acquisitions left out (they exclude
    /// no other reader, so the oracle's rules and lock protection ignore them).
    effects: HashMap<(NodeId, u32), LockEffect>,
    /// Per node, the search of `overwritten_before_release` that last visited it (`stamp`).
    visited: Vec<u32>,
    /// The number of the current search.
    stamp: u32,
    /// Per node, the instructions that acquire or release a lock or store strongly to one
    /// cell, in order: all that `overwritten_before_release` and `stored_since_acquire` look
    /// at (built when first asked).
    events: Option<Vec<Vec<(u32, Event)>>>,
}

/// What an instruction does for `overwritten_before_release` and `stored_since_acquire`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// A lock call or a trylock of the lock.
    Acquire(u32),
    Release(u32),
    ReleaseAll,
    StrongStore(CellId),
}

impl ThreadLocks {
    /// Runs the must-held analysis of thread `t`.
    pub fn of(facts: &Facts<'_>, t: &Thread, names: &mut LockNames) -> ThreadLocks {
        let cfg = &t.cfg;
        let mut effects = HashMap::default();
        for (n, nd) in cfg.nodes.iter().enumerate() {
            let func = cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
            for idx in nd.start..nd.end {
                let e = names.effect(facts, func, &insts[idx as usize].kind, &cfg.opaque_callees);
                if !matches!(e, LockEffect::None) {
                    effects.insert((NodeId(n as u32), idx), e);
                }
            }
        }
        // A thread that takes no lock holds none anywhere: the sets start empty at its entry
        // and grow only at acquisitions and successful trylocks (exactly the result below,
        // without running the analysis).
        if !effects.values().any(|e| {
            matches!(
                e,
                LockEffect::Acquire(_) | LockEffect::TryAcquire(_) | LockEffect::AcquireShared(_)
            )
        }) {
            return ThreadLocks {
                held: HashMap::default(),
                held_shared: HashMap::default(),
                effects,
                visited: Vec::new(),
                stamp: 0,
                events: None,
            };
        }
        // A shared hold of `m` is the element `m | SHARED` of the same must-set, so that one
        // analysis finds both; a release of `m` ends either.
        let apply = |set: &mut BTreeSet<u32>, n: usize, idx: u32| match effects
            .get(&(NodeId(n as u32), idx))
        {
            Some(LockEffect::Acquire(m)) => {
                set.insert(*m);
            }
            Some(LockEffect::Release(m)) => {
                set.remove(m);
                set.remove(&(*m | SHARED));
            }
            Some(LockEffect::Reacquire(m)) => {
                set.insert(*m);
            }
            Some(LockEffect::ReleaseAll) => set.clear(),
            _ => {}
        };
        let gains = trylock_edges(facts, t, &effects);
        // The locks held on entry to `n` from its predecessor `p`, given `p`'s exit set.
        let via = |p: usize, n: usize, o: &BTreeSet<u32>| -> BTreeSet<u32> {
            let mut s = o.clone();
            if let Some(&(to, m)) = gains.get(&p) {
                if to == n {
                    s.insert(m);
                }
            }
            s
        };
        // Forward must-analysis: `None` is "not reached yet" (the top of the intersection).
        let entry = cfg.contexts[0].entry.index();
        let mut order: Vec<usize> = (0..cfg.nodes.len())
            .filter(|n| t.shape.rpo[*n] != u32::MAX)
            .collect();
        order.sort_by_key(|n| t.shape.rpo[*n]);
        let mut out: Vec<Option<BTreeSet<u32>>> = vec![None; cfg.nodes.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for &n in &order {
                let mut set = if n == entry {
                    Some(BTreeSet::new())
                } else {
                    None
                };
                for p in &t.shape.pred[n] {
                    if let Some(o) = &out[p.index()] {
                        let o = via(p.index(), n, o);
                        set = Some(match set {
                            None => o,
                            Some(s) => s.intersection(&o).copied().collect(),
                        });
                    }
                }
                let Some(mut set) = set else {
                    continue;
                };
                let nd = &cfg.nodes[n];
                for idx in nd.start..nd.end {
                    apply(&mut set, n, idx);
                }
                if out[n].as_ref() != Some(&set) {
                    out[n] = Some(set);
                    changed = true;
                }
            }
        }
        // Per instruction: replay each node from its entry set.
        let mut held = HashMap::default();
        let mut held_shared = HashMap::default();
        for &n in &order {
            let mut set = if n == entry {
                BTreeSet::new()
            } else {
                let mut acc: Option<BTreeSet<u32>> = None;
                for p in &t.shape.pred[n] {
                    if let Some(o) = &out[p.index()] {
                        let o = via(p.index(), n, o);
                        acc = Some(match acc {
                            None => o,
                            Some(s) => s.intersection(&o).copied().collect(),
                        });
                    }
                }
                acc.unwrap_or_default()
            };
            let nd = &cfg.nodes[n];
            for idx in nd.start..nd.end {
                let at = (NodeId(n as u32), idx);
                let exclusive: BTreeSet<u32> =
                    set.iter().copied().filter(|m| m & SHARED == 0).collect();
                let shared: BTreeSet<u32> = (set.iter())
                    .filter(|m| *m & SHARED != 0 && !exclusive.contains(&(*m & !SHARED)))
                    .map(|m| m & !SHARED)
                    .collect();
                if !exclusive.is_empty() {
                    held.insert(at, exclusive);
                }
                if !shared.is_empty() {
                    held_shared.insert(at, shared);
                }
                apply(&mut set, n, idx);
            }
        }
        // Shared acquisitions are not effects for the other consumers (see `effects`).
        effects.retain(|_, e| !matches!(e, LockEffect::AcquireShared(_)));
        ThreadLocks {
            held,
            held_shared,
            effects,
            visited: Vec::new(),
            stamp: 0,
            events: None,
        }
    }

    /// What instruction `idx` of `node` does to the held locks.
    pub fn effect(&self, node: NodeId, idx: u32) -> LockEffect {
        self.effects
            .get(&(node, idx))
            .copied()
            .unwrap_or(LockEffect::None)
    }

    /// Per node, the lock operations and strong stores, once.
    fn build_events(&mut self, facts: &Facts<'_>, t: &Thread) {
        if self.events.is_some() {
            return;
        }
        let cfg = &t.cfg;
        let mut events = vec![Vec::new(); cfg.nodes.len()];
        for (n, nd) in cfg.nodes.iter().enumerate() {
            let func = cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
            for idx in nd.start..nd.end {
                match self.effects.get(&(NodeId(n as u32), idx)) {
                    Some(LockEffect::Acquire(m) | LockEffect::TryAcquire(m)) => {
                        events[n].push((idx, Event::Acquire(*m)))
                    }
                    Some(LockEffect::Release(m)) => events[n].push((idx, Event::Release(*m))),
                    Some(LockEffect::Reacquire(m)) => {
                        events[n].push((idx, Event::Release(*m)));
                        events[n].push((idx, Event::Acquire(*m)));
                    }
                    Some(LockEffect::ReleaseAll) => events[n].push((idx, Event::ReleaseAll)),
                    _ => {}
                }
                // A plain store (not an update, not a byte write) that surely replaces one cell.
                let mut stores = false;
                insts[idx as usize].kind.effects(|e| {
                    stores |= matches!(
                        e,
                        InstEffect::Mem(MemAccess {
                            access: Access::Write,
                            via: Via::Direct,
                            ..
                        })
                    );
                });
                if stores {
                    let a = facts.access(func, nd.block, idx);
                    if let (true, [c]) = (a.strong, a.exact.as_slice()) {
                        events[n].push((idx, Event::StrongStore(*c)));
                    }
                }
            }
        }
        self.events = Some(events);
    }

    /// A fresh stamp for `visited` (sized for `nodes`).
    fn next_stamp(&mut self, nodes: usize) -> u32 {
        if self.visited.len() != nodes {
            self.visited = vec![0; nodes];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.iter_mut().for_each(|v| *v = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Whether, on every path from the thread's start to instruction `at` (a load holding
    /// `lock`), the thread stored strongly to `cell` after it last acquired `lock` (so it held
    /// `lock` without a break from that store to `at`). The fact of `rules/README.md`,
    /// LockedOwnStore.
    ///
    /// Soundness: a backward search from `at` that succeeds on a path only at a strong store to
    /// the one cell, and fails at an acquisition of `lock` (a lock call, or a trylock whether
    /// it succeeded or not), a release of `lock`, anything that may release every lock, or the
    /// thread's start; nodes that decide nothing are searched through (a cycle that decides
    /// nothing adds no path that does not enter it from outside). Jumps are CFG edges.
    pub fn stored_since_acquire(
        &mut self,
        facts: &Facts<'_>,
        t: &Thread,
        at: (NodeId, u32),
        lock: u32,
        cell: CellId,
    ) -> bool {
        let cfg = &t.cfg;
        let nodes = cfg.nodes.len();
        self.build_events(facts, t);
        // What node n decides before instruction `until` (exclusive), from the last event
        // back: Some(true) a store first, Some(false) an acquisition or a release first.
        let decide = |events: &[Vec<(u32, Event)>], n: usize, until: u32| -> Option<bool> {
            events[n]
                .iter()
                .rev()
                .filter(|(i, _)| *i < until)
                .find_map(|(_, e)| match *e {
                    Event::StrongStore(c) if c == cell => Some(true),
                    Event::Acquire(m) | Event::Release(m) if m == lock => Some(false),
                    Event::ReleaseAll => Some(false),
                    _ => None,
                })
        };
        let entry = cfg.contexts[0].entry.index();
        let (node, idx) = at;
        let n = node.index();
        if let Some(d) = decide(self.events.as_ref().expect("built"), n, idx) {
            return d;
        }
        let stamp = self.next_stamp(nodes);
        let events = self.events.as_ref().expect("built");
        let reached = |p: usize| t.shape.rpo[p] != u32::MAX;
        let mut stack: Vec<usize> = vec![n];
        // The load's own node is searched from its start only if a path re-enters it.
        let mut first = true;
        while let Some(m) = stack.pop() {
            if !first {
                match decide(events, m, cfg.nodes[m].end) {
                    Some(true) => continue,
                    Some(false) => return false,
                    None => {}
                }
            }
            first = false;
            let preds: Vec<usize> = (t.shape.pred[m].iter())
                .map(|p| p.index())
                .filter(|&p| reached(p))
                .collect();
            if m == entry || preds.is_empty() {
                return false;
            }
            for p in preds {
                if self.visited[p] != stamp {
                    self.visited[p] = stamp;
                    stack.push(p);
                }
            }
        }
        true
    }

    /// Whether the thread, right after instruction `at`, reaches on every path a release of
    /// `lock` (or a call that may release every lock) before any point where it may end: then
    /// what it held after `at` is published (`protection`), before it may end.
    ///
    /// Soundness: the points where the thread may end are those of `facts::ends::MayEnd`
    /// (returns of its entry, `pthread_exit` anywhere, calls that may end it inside,
    /// cancellation points when the program cancels threads); when it may end anywhere, the
    /// answer is false. An instruction that both releases and may end publishes first
    /// (publication happens before the instruction). A node that ends without successors for
    /// another reason (`exit`, a path the analysis cut) counts as an end.
    pub fn released_before_end(
        &mut self,
        facts: &Facts<'_>,
        t: &Thread,
        at: (NodeId, u32),
        lock: u32,
    ) -> bool {
        let ends = facts.may_end();
        if ends.anywhere {
            return false;
        }
        let nodes = t.cfg.nodes.len();
        self.build_events(facts, t);
        let stamp = self.next_stamp(nodes);
        let events = self.events.as_ref().expect("built above");
        // What node n decides from instruction `from` on: Some(true) releases first,
        // Some(false) may end first, None neither.
        let decide = |n: usize, from: u32| -> Option<bool> {
            let exit = ends.node_exit(facts, t, n);
            // `node_exit` names the first point only: an earlier one hides later ones.
            if exit.is_some_and(|x| x < from && x < t.cfg.nodes[n].end) {
                return Some(false);
            }
            let release =
                (events[n].iter())
                    .filter(|(i, _)| *i >= from)
                    .find_map(|(i, e)| match *e {
                        Event::Release(m) if m == lock => Some(*i),
                        Event::ReleaseAll => Some(*i),
                        _ => None,
                    });
            match (release, exit) {
                (Some(r), Some(x)) => Some(x >= r),
                (Some(_), None) => Some(true),
                (None, Some(_)) => Some(false),
                (None, None) => None,
            }
        };
        let (node, idx) = at;
        if let Some(d) = decide(node.index(), idx + 1) {
            return d;
        }
        every_path_decides(t, &mut self.visited, stamp, node.index(), |m| {
            decide(m, t.cfg.nodes[m].start)
        })
    }

    /// Whether the thread, right after instruction `at`, stores strongly to `cell` again on
    /// every path before anything may release `lock` (paths that never release it count, a
    /// thread's end does not).
    pub fn overwritten_before_release(
        &mut self,
        facts: &Facts<'_>,
        t: &Thread,
        at: (NodeId, u32),
        lock: u32,
        cell: CellId,
    ) -> bool {
        let cfg = &t.cfg;
        let nodes = cfg.nodes.len();
        self.build_events(facts, t);
        let stamp = self.next_stamp(nodes);
        let events = self.events.as_ref().expect("built above");
        // What node n decides from instruction `from` on: Some(true) overwrites first,
        // Some(false) may release first, None neither.
        let decide = |n: usize, from: u32| -> Option<bool> {
            events[n]
                .iter()
                .filter(|(i, _)| *i >= from)
                .find_map(|(_, e)| match *e {
                    Event::Release(m) if m == lock => Some(false),
                    Event::ReleaseAll => Some(false),
                    Event::StrongStore(c) if c == cell => Some(true),
                    _ => None,
                })
        };
        let (node, idx) = at;
        if let Some(d) = decide(node.index(), idx + 1) {
            return d;
        }
        every_path_decides(t, &mut self.visited, stamp, node.index(), |m| {
            decide(m, cfg.nodes[m].start)
        })
    }
}

/// Whether every path from the successors of node `n` reaches a node that `decide`s `true`
/// before one that decides `false` or one without successors (the thread's end). A greatest
/// fixpoint: cycles that decide nothing count as true. Searched forwards from the successors,
/// so the work is the part of the graph before the next decision, not the whole thread;
/// `visited`/`stamp` are the caller's marks ([`ThreadLocks::next_stamp`]).
fn every_path_decides(
    t: &Thread,
    visited: &mut [u32],
    stamp: u32,
    n: usize,
    decide: impl Fn(usize) -> Option<bool>,
) -> bool {
    let succ = &t.shape.succ;
    if succ[n].is_empty() {
        return false;
    }
    let mut stack: Vec<usize> = Vec::new();
    let mut push = |m: usize, stack: &mut Vec<usize>| {
        for s in &succ[m] {
            if visited[s.index()] != stamp {
                visited[s.index()] = stamp;
                stack.push(s.index());
            }
        }
    };
    push(n, &mut stack);
    while let Some(m) = stack.pop() {
        match decide(m) {
            Some(true) => continue,
            Some(false) => return false,
            None if succ[m].is_empty() => return false,
            None => push(m, &mut stack),
        }
    }
    true
}

/// The branches on a trylock's result: for a node that calls a trylock of lock `m`, compares the
/// result with 0 and branches on that comparison (all in the node, as clang emits
/// `if (pthread_mutex_trylock(&m) == 0)` and `while (pthread_mutex_trylock(&m))`), the
/// successor node on the "returned 0" edge and `m` (`m | SHARED` for a read lock, which may
/// fail too: `LockEffect::AcquireShared`).
///
/// Soundness: the trylock returned 0 on that edge, so the thread holds `m` there; the other
/// edge gains nothing. Anything less recognisable gains nothing either.
fn trylock_edges(
    facts: &Facts<'_>,
    t: &Thread,
    effects: &HashMap<(NodeId, u32), LockEffect>,
) -> HashMap<usize, (usize, u32)> {
    use crate::ir::{Operand, Terminator};
    use crate::threads::Exit;
    use watts_domains::CmpPred;
    let cfg = &t.cfg;
    let mut out = HashMap::default();
    for (n, nd) in cfg.nodes.iter().enumerate() {
        if nd.exit != Exit::Term {
            continue;
        }
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
        let Terminator::CondBr {
            cond: Operand::Var(c),
            then_,
            else_,
        } = block.term
        else {
            continue;
        };
        if then_ == else_ {
            continue;
        }
        let insts = &block.insts;
        let zero = |o: &Operand| matches!(o, Operand::Int { value: 0, .. });
        let cmp = (nd.start..nd.end).find_map(|k| match &insts[k as usize].kind {
            InstKind::Cmp {
                dst, pred, a, b, ..
            } if *dst == c => match (a, b) {
                (Operand::Var(r), z) | (z, Operand::Var(r)) if zero(z) => Some((*pred, *r)),
                _ => None,
            },
            _ => None,
        });
        let Some((pred, r)) = cmp else {
            continue;
        };
        let lock = (nd.start..nd.end).find_map(|k| {
            match (&insts[k as usize].kind, effects.get(&(NodeId(n as u32), k))) {
                (InstKind::Call { dst: Some(d), .. }, Some(LockEffect::TryAcquire(m)))
                    if *d == r =>
                {
                    Some(*m)
                }
                (InstKind::Lock { dst: Some(d), .. }, Some(LockEffect::AcquireShared(m)))
                    if *d == r =>
                {
                    Some(*m | SHARED)
                }
                _ => None,
            }
        });
        let Some(m) = lock else {
            continue;
        };
        let success = match pred {
            CmpPred::Eq => then_,
            CmpPred::Ne => else_,
            _ => continue,
        };
        let to = cfg.first[nd.ctx.0 as usize][success.index()];
        out.insert(n, (to.index(), m));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The locks `worker` holds at its store to `x`, and at its other instructions.
    fn held_in_worker(src: &str) -> (Vec<u32>, usize) {
        use crate::analysis::testing::{with_fixpoint, FLOW_INSENSITIVE};
        with_fixpoint(src, FLOW_INSENSITIVE, |program, facts, fix| {
            let t = (fix.threads.iter())
                .find(|t| t.name == "worker")
                .expect("worker");
            let locks = ThreadLocks::of(facts, t, &mut LockNames::default());
            let mut at_store = Vec::new();
            for (&(n, idx), held) in &locks.held {
                let nd = &t.cfg.nodes[n.index()];
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let block = &program.funcs[func.index()].blocks[nd.block.index()];
                if matches!(block.insts[idx as usize].kind, InstKind::Store { .. }) {
                    at_store.extend(held.iter().copied());
                }
            }
            (at_store, locks.held.len())
        })
    }

    /// For each load of `x` in `worker` that holds a lock, whether the worker stored `x` on
    /// every path since it took that lock (in the order of the loads).
    fn stored_since_in_worker(body: &str) -> Vec<bool> {
        use crate::analysis::testing::{with_fixpoint, FLOW_INSENSITIVE};
        let src = format!(
            r#"
            #include <pthread.h>
            int x, v;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            static void *worker(void *a) {{ {body} return 0; }}
            int main(void) {{ pthread_t t; pthread_create(&t, 0, worker, 0); return 0; }}
            "#
        );
        with_fixpoint(&src, FLOW_INSENSITIVE, |program, facts, fix| {
            let t = (fix.threads.iter())
                .find(|t| t.name == "worker")
                .expect("worker");
            let x = (program.globals.iter()).find(|g| g.name == "x").expect("x");
            let x = facts.memory.cells.of(x.obj).next().expect("a cell");
            let mut locks = ThreadLocks::of(facts, t, &mut LockNames::default());
            let mut loads: Vec<((NodeId, u32), u32)> = Vec::new();
            for (&(n, idx), held) in &locks.held {
                let nd = &t.cfg.nodes[n.index()];
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let block = &program.funcs[func.index()].blocks[nd.block.index()];
                let is_x = matches!(block.insts[idx as usize].kind, InstKind::Load { .. })
                    && facts.access(func, nd.block, idx).exact == [x];
                if is_x {
                    loads.extend(held.iter().map(|m| ((n, idx), *m)));
                }
            }
            loads.sort_by_key(|((n, idx), _)| (t.shape.rpo[n.index()], *idx));
            (loads.into_iter())
                .map(|(at, m)| locks.stored_since_acquire(facts, t, at, m, x))
                .collect()
        })
    }

    #[test]
    fn a_load_after_its_own_store_in_the_section_follows_it() {
        let lock = "pthread_mutex_lock(&m);";
        let unlock = "pthread_mutex_unlock(&m);";
        assert_eq!(
            stored_since_in_worker(&format!("{lock} x = 1; v = x; {unlock}")),
            [true]
        );
        assert_eq!(
            stored_since_in_worker(&format!("{lock} if (a) x = 1; else x = 2; v = x; {unlock}")),
            [true]
        );
        // On one branch only; before the lock; in an earlier section.
        for body in [
            format!("{lock} if (a) x = 1; v = x; {unlock}"),
            format!("x = 1; {lock} v = x; {unlock}"),
            format!("{lock} x = 1; {unlock} {lock} v = x; {unlock}"),
        ] {
            assert_eq!(stored_since_in_worker(&body), [false], "{body}");
        }
    }

    #[test]
    fn a_thread_that_takes_no_lock_holds_none() {
        let (at_store, held) = held_in_worker(
            r#"
            #include <pthread.h>
            int x;
            static void *worker(void *a) { (void)a; x = 1; return 0; }
            int main(void) { pthread_t t; pthread_create(&t, 0, worker, 0); return 0; }
            "#,
        );
        assert!(at_store.is_empty());
        assert_eq!(held, 0);
    }

    #[test]
    fn a_thread_that_takes_a_lock_holds_it_at_its_store() {
        // The shortcut for lock-free threads must not fire here.
        let (at_store, _) = held_in_worker(
            r#"
            #include <pthread.h>
            int x;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            static void *worker(void *a) { (void)a;
                pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
            int main(void) { pthread_t t; pthread_create(&t, 0, worker, 0); return 0; }
            "#,
        );
        assert_eq!(at_store.len(), 1, "{at_store:?}");
    }
}
