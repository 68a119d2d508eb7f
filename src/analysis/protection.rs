//! Lock-protected cells (beyond the paper; the protection-based interference of Miné's and
//! Goblint's thread-modular analyses). A cell is protected by lock `m` when every access to it,
//! in every thread, happens while the accessing thread holds `m` for sure — except accesses of
//! `main` before it creates any thread, when no other thread exists.
//!
//! For such a cell no other thread can write it while a thread holds `m`, so a thread's loads
//! of it read its own view, and other threads' writes reach it only when it takes `m`: at each
//! acquisition of `m` (after `main` created its first thread) its view of the cell becomes what
//! some thread *published*: the value a thread held when it released `m` (or may have released
//! it) or created a thread; and the initial value when a function analysed on its own (which
//! may run before any thread exists) is part of the program.
//!
//! Soundness: at the moment a thread acquires `m`, the last write to the cell was made either
//! before any thread existed (then `main`'s view at its first `pthread_create` holds it, and that
//! is published) or by a thread holding `m`, which released `m` since (publishing its view, which
//! holds its own last write) — the current value is among the published ones. Between acquiring
//! and releasing `m`, only the holder writes the cell. Protection is recomputed every round over
//! every thread known; cells only lose it as threads appear, and the fixpoint does not end until
//! a round ran under the final protection.

use super::locks::{Effect, LockNames, ThreadLocks};
use super::modular::{Origin, Thread};
use super::program_facts::Facts;
use crate::ir::InstKind;
use crate::memory::CellId;
use crate::threads::NodeId;
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
    /// Per thread: the instructions that run before any other thread exists (`main`'s, before
    /// its first `pthread_create`); a lock taken there hands nothing over.
    single: Vec<BTreeSet<(NodeId, u32)>>,
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
    pub fn compute<D>(facts: &Facts<'_>, threads: &[Thread<D>]) -> Protection {
        let ncells = facts.ncells as usize;
        let mut names = LockNames::default();
        // Per cell: the locks held at every multi-threaded access so far (`None`: none yet).
        let mut common: Vec<Option<BTreeSet<u32>>> = vec![None; ncells];
        let mut effects = Vec::new();
        let mut singles = Vec::new();
        for t in threads {
            let locks = ThreadLocks::of(facts, t, &mut names);
            let single = single_threaded(facts, t);
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
                        let slot = &mut common[c.index()];
                        *slot = Some(match slot.take() {
                            None => held.clone(),
                            Some(s) => s.intersection(&held).copied().collect(),
                        });
                    }
                }
            }
            effects.push(mine);
            singles.push(single);
        }
        let mut lock_of = vec![None; ncells];
        let mut cells_of: HashMap<u32, Vec<CellId>> = HashMap::new();
        for (c, held) in common.iter().enumerate() {
            let cell = CellId(c as u32);
            let info = facts.memory.cells.info(cell);
            // Only one concrete integer cell keeps a published value exactly.
            if !info.singular || !facts.memory.is_int(cell) {
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
    /// release their lock there, or creates a thread), and the cells it refreshes after it
    /// (it acquires their lock).
    pub fn at(
        &self,
        tid: usize,
        node: NodeId,
        idx: u32,
        creates: bool,
    ) -> (Vec<CellId>, &[CellId]) {
        let e = self
            .effects
            .get(tid)
            .and_then(|m| m.get(&(node, idx)).copied())
            .unwrap_or(Effect::None);
        let all = || -> Vec<CellId> { self.cells_of.values().flatten().copied().collect() };
        let alone = self
            .single
            .get(tid)
            .is_some_and(|s| s.contains(&(node, idx)));
        match e {
            _ if creates => (all(), &[]),
            // No other thread exists yet: the thread's own view is the value.
            Effect::Acquire(_) | Effect::TryAcquire(_) if alone => (Vec::new(), &[]),
            Effect::Release(m) => (self.cells_of.get(&m).cloned().unwrap_or_default(), &[]),
            Effect::ReleaseAll => (all(), &[]),
            // A trylock refreshes too: on failure the thread does not read protected cells
            // before it takes the lock again, so the refresh is harmless.
            Effect::Acquire(m) | Effect::TryAcquire(m) => {
                (Vec::new(), self.cells_of.get(&m).map_or(&[], Vec::as_slice))
            }
            Effect::None => (Vec::new(), &[]),
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
        } if is_sync_function(&program.funcs[g.index()].name) => args
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

/// The instructions of `main` that run before it may have created a thread (none for other
/// threads).
fn single_threaded<D>(facts: &Facts<'_>, t: &Thread<D>) -> BTreeSet<(NodeId, u32)> {
    let mut out = BTreeSet::new();
    if t.origin != Origin::Main {
        return out;
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
    // May-analysis: `created[n]` if some path to the end of node `n` passed a create (or a
    // call that is not inlined, which might create one).
    let mut order: Vec<usize> = (0..cfg.nodes.len())
        .filter(|n| t.shape.rpo[*n] != u32::MAX)
        .collect();
    order.sort_by_key(|n| t.shape.rpo[*n]);
    let mut created = vec![false; cfg.nodes.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for &n in &order {
            let nd = &cfg.nodes[n];
            let into = t.shape.pred[n].iter().any(|p| created[p.index()]);
            let out = into || (nd.start..nd.end).any(|k| is_create(n, k));
            if out && !created[n] {
                created[n] = true;
                changed = true;
            }
        }
    }
    for &n in &order {
        if t.shape.pred[n].iter().any(|p| created[p.index()]) {
            continue;
        }
        let nd = &cfg.nodes[n];
        for k in nd.start..nd.end {
            if is_create(n, k) {
                break;
            }
            out.insert((NodeId(n as u32), k));
        }
    }
    out
}

/// `pthread_mutex_*`, `pthread_spin_*`, `pthread_rwlock_*` and `pthread_cond_*`.
fn is_sync_function(name: &str) -> bool {
    [
        "pthread_mutex_",
        "pthread_spin_",
        "pthread_rwlock_",
        "pthread_cond_",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}
