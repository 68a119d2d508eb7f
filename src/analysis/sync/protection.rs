//! Lock-protected cells (beyond the paper; the protection-based interference of Miné's and
//! Goblint's thread-modular analyses). A cell is protected by lock `m` when every access to it,
//! in every thread, happens while the accessing thread holds `m` for sure — except accesses of
//! `main` that no path reaches after a thread creation, when no other thread exists.
//!
//! For such a cell no other thread can write it while a thread holds `m`, so a thread's loads
//! of it read its own view, and other threads' writes reach it only when it takes `m`: at each
//! acquisition of `m` (after `main` may have created a thread) its view of the cell becomes what
//! some thread *published*: the value a thread held when it released `m` (or may have released
//! it) or created a thread; and the initial value when a function analysed on its own (which
//! may run before any thread exists) is part of the program. Where `main` takes `m` on some
//! paths after a creation and on others before any, its own view is kept too (joined).
//!
//! Soundness: at the moment a thread acquires `m`, the last write to the cell was made either
//! by `main` while no thread existed, or by a thread holding `m`, which released `m` since
//! (publishing its view, which holds its own last write). In the first case, if `main` passed
//! the end of its single-threaded phase since (a creation, or a call that is not inlined and
//! might create a thread: `ends`), its view there holds the write and is published; if it did
//! not (a path without one yet: `mixed` acquisitions), the acquirer is `main` itself and its
//! own view holds the write, which the refresh keeps. So the current value is among the
//! published ones or, on such a path, in `main`'s own view. Between acquiring and releasing
//! `m`, only the holder writes the cell. "No thread exists before `main` creates one" holds
//! because the constructors are part of `main` (`harness::startup`); a thread that a function
//! analysed on its own created (it may run before `main`: a start-up array the analysis does
//! not know, a callback) leaves `main` no single-threaded phase at all. Protection is
//! recomputed every round over every thread known; cells only lose it as threads appear, and
//! the fixpoint does not end until a round ran under the final protection.

use super::locks::{Effect, LockNames, ThreadLocks};
use crate::facts::Facts;
use crate::ir::InstKind;
use crate::memory::CellId;
use crate::threads::NodeId;
use crate::threads::{Origin, Thread};
use std::collections::{BTreeSet, HashMap};

/// Which cells are protected, and what each thread's instructions do to locks.
#[derive(Default)]
pub struct Protection {
    /// Per cell: the lock protecting it.
    pub lock_of: Vec<Option<u32>>,
    /// Per lock: the cells it protects.
    cells_of: HashMap<u32, Vec<CellId>>,
    /// Per thread (indexed like the fixpoint's threads): lock effects by instruction.
    effects: Vec<HashMap<(NodeId, u32), Effect>>,
    /// Per thread: the instructions that run before any other thread exists (`main`'s that no
    /// path reaches after a `pthread_create`); a lock taken there hands nothing over.
    single: Vec<BTreeSet<(NodeId, u32)>>,
    /// Per thread: the instructions of `main` that some path reaches after a creation and some
    /// path reaches before any; a lock taken there keeps the own view besides the published
    /// values.
    mixed: Vec<BTreeSet<(NodeId, u32)>>,
    /// Per thread: the instructions of `main` that end its single-threaded phase on some path
    /// (a creation, or a call that is not inlined and might create a thread); it publishes
    /// every protected cell there, as at a creation.
    ends: Vec<BTreeSet<(NodeId, u32)>>,
}

/// What a thread does with lock-protected cells around one instruction.
pub struct Handover<'a> {
    /// The cells whose view it publishes before the instruction.
    pub publish: Vec<CellId>,
    /// The cells whose view it refreshes after the instruction from what was published.
    pub refresh: &'a [CellId],
    /// Whether the refresh keeps the thread's own view too (joined with the published values):
    /// `main` may still be alone on some path to the instruction.
    pub keep_own: bool,
}

/// Equal when the same cells are protected by the same locks for the same threads (a thread's
/// lock effects depend only on its CFG, so the number of threads stands for them).
impl PartialEq for Protection {
    fn eq(&self, other: &Self) -> bool {
        self.lock_of == other.lock_of && self.effects.len() == other.effects.len()
    }
}

impl Protection {
    /// Computes protection over `threads`.
    pub fn compute(facts: &Facts<'_>, threads: &[Thread]) -> Protection {
        let ncells = facts.ncells as usize;
        let mut names = LockNames::default();
        // Per cell: the locks held at every multi-threaded access so far (`None`: none yet).
        let mut common: Vec<Option<BTreeSet<u32>>> = vec![None; ncells];
        let mut effects = Vec::new();
        let mut singles = Vec::new();
        let mut mixeds = Vec::new();
        let mut endss = Vec::new();
        // Soundness: a thread whose creation a detached function made may exist before `main`
        // starts (that function may run from start-up code the analysis does not model) or
        // at any time: then `main` is never alone.
        let foreign = (0..threads.len()).any(|i| created_by_detached(threads, i));
        for t in threads {
            let locks = ThreadLocks::of(facts, t, &mut names);
            let (single, mixed, ends) = if foreign {
                Default::default()
            } else {
                single_threaded(facts, t)
            };
            let mut mine = HashMap::new();
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[n] == u32::MAX {
                    continue;
                }
                let node = NodeId(n as u32);
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                for idx in nd.start..nd.end {
                    let e = locks.effect(node, idx);
                    if e != Effect::None {
                        mine.insert((node, idx), e);
                    }
                    if single.contains(&(node, idx)) {
                        continue;
                    }
                    let held = locks.held.get(&(node, idx)).cloned().unwrap_or_default();
                    for c in accessed(facts, func, nd.block, idx) {
                        match &mut common[c.index()] {
                            // Nothing left to intersect (most cells: accessed without a lock).
                            Some(s) if s.is_empty() => {}
                            Some(s) => s.retain(|m| held.contains(m)),
                            slot @ None => *slot = Some(held.clone()),
                        }
                    }
                }
            }
            effects.push(mine);
            singles.push(single);
            mixeds.push(mixed);
            endss.push(ends);
        }
        let mut lock_of = vec![None; ncells];
        let mut cells_of: HashMap<u32, Vec<CellId>> = HashMap::new();
        for (c, held) in common.iter().enumerate() {
            let cell = CellId(c as u32);
            let info = facts.memory.cells.info(cell);
            // Only one concrete integer cell keeps a published value exactly.
            // Soundness: a thread-local cell is one copy per thread: what another thread
            // published is not in this thread's copy, and a new thread's copy starts with the
            // initial value, not with what its creator published.
            if !info.singular || !facts.memory.is_int(cell) || facts.memory.per_thread(cell) {
                continue;
            }
            if let Some(m) = held.as_ref().and_then(|s| s.first().copied()) {
                lock_of[c] = Some(m);
                cells_of.entry(m).or_default().push(cell);
            }
        }
        Protection {
            lock_of,
            cells_of,
            effects,
            single: singles,
            mixed: mixeds,
            ends: endss,
        }
    }

    /// Whether cell `c` is protected.
    pub fn is_protected(&self, c: CellId) -> bool {
        self.lock_of.get(c.index()).is_some_and(Option::is_some)
    }

    /// Whether any cell is protected.
    pub fn any(&self) -> bool {
        self.lock_of.iter().any(Option::is_some)
    }

    /// The cells that thread `tid` publishes at instruction `idx` of `node` (it releases or may
    /// release their lock there, creates a thread, or may end `main`'s single-threaded phase),
    /// the cells it refreshes after it (it acquires their lock), and whether the refresh keeps
    /// its own view.
    pub fn at(&self, tid: usize, node: NodeId, idx: u32, creates: bool) -> Handover<'_> {
        let e = self
            .effects
            .get(tid)
            .and_then(|m| m.get(&(node, idx)).copied())
            .unwrap_or(Effect::None);
        let all = || -> Vec<CellId> { self.cells_of.values().flatten().copied().collect() };
        let marked = |sets: &[BTreeSet<(NodeId, u32)>]| {
            sets.get(tid).is_some_and(|s| s.contains(&(node, idx)))
        };
        let alone = marked(&self.single);
        let (publish, refresh) = match e {
            // No other thread exists yet: the thread's own view is the value.
            Effect::Acquire(_) | Effect::TryAcquire(_) if alone => (Vec::new(), &[][..]),
            Effect::Release(m) => (self.cells_of.get(&m).cloned().unwrap_or_default(), &[][..]),
            Effect::ReleaseAll => (all(), &[][..]),
            // A trylock refreshes too: on failure the thread does not read protected cells
            // before it takes the lock again, so the refresh is harmless.
            Effect::Acquire(m) | Effect::TryAcquire(m) => (
                Vec::new(),
                self.cells_of.get(&m).map_or(&[][..], Vec::as_slice),
            ),
            Effect::None => (Vec::new(), &[][..]),
        };
        // Soundness: where `main`'s single-threaded phase may end, its view holds what it wrote
        // while alone; after it, every access to a protected cell holds the lock, so what a
        // later acquisition reads is published (see the module's argument).
        let publish = if creates || marked(&self.ends) {
            all()
        } else {
            publish
        };
        Handover {
            publish,
            refresh,
            // Soundness: on a path where `main` created no thread yet, its own view is the
            // value (it may hold a write made while alone, which no one published).
            keep_own: !refresh.is_empty() && marked(&self.mixed),
        }
    }
}

/// The cells instruction `idx` may read or write.
fn accessed(
    facts: &Facts<'_>,
    func: crate::ir::FuncId,
    block: crate::ir::BlockId,
    idx: u32,
) -> Vec<CellId> {
    let program = facts.program;
    let inst = &program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
    let mut out: Vec<CellId> = match &inst.kind {
        InstKind::Load { .. }
        | InstKind::Store { .. }
        | InstKind::AtomicRmw { .. }
        | InstKind::CmpXchg { .. } => {
            let a = facts.access(func, block, idx);
            let mut v: Vec<CellId> = a.exact.iter().chain(&a.clobber).copied().collect();
            if a.read_unknown {
                v.extend(facts.memory.exposed_cells.iter().copied());
            }
            v
        }
        // The pthread synchronisation functions touch only their synchronisation objects
        // (POSIX), whatever else their arguments may reach.
        InstKind::Call {
            callee: crate::ir::Callee::Direct(g),
            args,
            ..
        } if crate::memory::points_to::is_sync_function(&program.funcs[g.index()].name) => args
            .iter()
            .flat_map(|a| facts.memory.region(program, func, a))
            .collect(),
        InstKind::MemCopy { src, .. } => {
            let mut v = facts.written_cells(func, block, idx);
            v.extend(facts.memory.region(program, func, src));
            v
        }
        _ => facts.written_cells(func, block, idx),
    };
    out.sort();
    out.dedup();
    out
}

/// Whether thread `i` descends from a detached function (a function analysed on its own).
fn created_by_detached(threads: &[Thread], mut i: usize) -> bool {
    // The parent chain is acyclic (a parent is known before its child); bounded anyway.
    for _ in 0..=threads.len() {
        match threads[i].origin {
            Origin::Created { parent, .. } => {
                if threads[parent].origin == Origin::Detached {
                    return true;
                }
                i = parent;
            }
            Origin::Main | Origin::Detached => return false,
        }
    }
    true
}

/// Instructions of one thread: `main`'s single-threaded ones, its mixed ones, and those that
/// end its single-threaded phase on some path.
type Phases = (
    BTreeSet<(NodeId, u32)>,
    BTreeSet<(NodeId, u32)>,
    BTreeSet<(NodeId, u32)>,
);

/// The instructions of `main` that run before it may have created a thread (`single`: no path
/// from the entry to them passes a creation), and those that some path reaches after a
/// creation and some path without one (`mixed`), and the first creation (or call) of a node
/// that some path reaches without one (`ends`). All are empty for other threads.
fn single_threaded(facts: &Facts<'_>, t: &Thread) -> Phases {
    let mut single = BTreeSet::new();
    let mut mixed = BTreeSet::new();
    let mut ends = BTreeSet::new();
    if t.origin != Origin::Main {
        return (single, mixed, ends);
    }
    let cfg = &t.cfg;
    let program = facts.program;
    let is_create = |n: usize, idx: u32| {
        let nd = &cfg.nodes[n];
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        matches!(
            program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize].kind,
            InstKind::ThreadCreate { .. } | InstKind::Call { .. }
        )
    };
    let mut order: Vec<usize> = (0..cfg.nodes.len())
        .filter(|n| t.shape.rpo[*n] != u32::MAX)
        .collect();
    order.sort_by_key(|n| t.shape.rpo[*n]);
    let has_create: Vec<bool> = (0..cfg.nodes.len())
        .map(|n| {
            let nd = &cfg.nodes[n];
            t.shape.rpo[n] != u32::MAX && (nd.start..nd.end).any(|k| is_create(n, k))
        })
        .collect();
    // May-analysis: `created[n]` if some path to the end of node `n` passed a create (or a
    // call that is not inlined, which might create one). Must-analysis (greatest fixpoint):
    // `surely[n]` if every path to the end of node `n` did.
    let entry = order.first().copied();
    let mut created = vec![false; cfg.nodes.len()];
    let mut surely = vec![true; cfg.nodes.len()];
    let reached = |p: usize| t.shape.rpo[p] != u32::MAX;
    let mut changed = true;
    while changed {
        changed = false;
        for &n in &order {
            let preds = t.shape.pred[n]
                .iter()
                .map(|p| p.index())
                .filter(|&p| reached(p));
            let may_in = preds.clone().any(|p| created[p]);
            let must_in = Some(n) != entry && preds.clone().all(|p| surely[p]);
            let may_out = may_in || has_create[n];
            let must_out = must_in || has_create[n];
            if may_out && !created[n] {
                created[n] = true;
                changed = true;
            }
            if !must_out && surely[n] {
                surely[n] = false;
                changed = true;
            }
        }
    }
    for &n in &order {
        let preds = t.shape.pred[n]
            .iter()
            .map(|p| p.index())
            .filter(|&p| reached(p));
        let may_in = preds.clone().any(|p| created[p]);
        let must_in = Some(n) != entry && preds.clone().all(|p| surely[p]);
        if must_in {
            continue;
        }
        let nd = &cfg.nodes[n];
        for k in nd.start..nd.end {
            let at = (NodeId(n as u32), k);
            if is_create(n, k) {
                ends.insert(at);
                break;
            }
            if may_in {
                mixed.insert(at);
            } else {
                single.insert(at);
            }
        }
    }
    (single, mixed, ends)
}
