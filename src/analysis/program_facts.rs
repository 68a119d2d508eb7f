//! Facts about the program computed once and shared by every thread's analysis: memory
//! accesses of every load and store, the definition of every SSA value.

use crate::ir::{BlockId, FuncId, InstKind, Program, VarId};
use crate::memory::{Access, CellId, MemoryModel};
use crate::threads::ThreadCfg;
use std::collections::HashMap;
use watts_domains::Interval;

/// Program-wide facts.
pub struct Facts<'a> {
    /// The program.
    pub program: &'a Program,
    /// Its memory model.
    pub memory: &'a MemoryModel,
    /// Number of cells; SSA vars of a thread come after them in a state.
    pub ncells: u32,
    /// Every cell, for havoc.
    pub all_cells: Vec<CellId>,
    accesses: HashMap<(FuncId, BlockId, u32), Access>,
    defs: Vec<Vec<Option<(BlockId, u32)>>>,
    /// Per function and block: the index of the last instruction that may write memory.
    last_writer: Vec<Vec<Option<u32>>>,
    /// Where threads may end out of sight, computed when the oracle first needs it.
    may_end: std::sync::OnceLock<super::feasibility::MayEnd>,
    /// Per cell, how many instructions of the program may write it, computed when first needed.
    write_counts: std::sync::OnceLock<Vec<u32>>,
    /// The cells each library call may change, by call site, computed at its first transfer;
    /// equal sets are shared (most unknown calls clobber exactly the exposed cells).
    call_clobbers: std::sync::Mutex<CallClobbers>,
}

/// The memo of [`Facts::call_clobbers`].
#[derive(Default)]
struct CallClobbers {
    by_site: HashMap<(FuncId, BlockId, u32), std::sync::Arc<[CellId]>>,
    interned: std::collections::HashSet<std::sync::Arc<[CellId]>>,
}

impl<'a> Facts<'a> {
    /// Computes the facts.
    pub fn new(program: &'a Program, memory: &'a MemoryModel) -> Facts<'a> {
        let mut accesses = HashMap::new();
        let mut defs = Vec::with_capacity(program.funcs.len());
        let mut last_writer = Vec::with_capacity(program.funcs.len());
        for (fi, f) in program.funcs.iter().enumerate() {
            let fid = FuncId(fi as u32);
            let mut d = vec![None; f.vars.len()];
            let mut lw = vec![None; f.blocks.len()];
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    let key = (fid, BlockId(bi as u32), ii as u32);
                    if let Some(dst) = inst.kind.defined() {
                        if let Some(slot) = d.get_mut(dst.index()) {
                            *slot = Some((BlockId(bi as u32), ii as u32));
                        }
                    }
                    let ptr_size = match &inst.kind {
                        InstKind::Load { ptr, size, .. } | InstKind::Store { ptr, size, .. } => {
                            Some((ptr, *size))
                        }
                        InstKind::AtomicRmw { ptr, bits, .. }
                        | InstKind::CmpXchg { ptr, bits, .. } => {
                            let size = if *bits == 0 {
                                program.pointer_size
                            } else {
                                bits.div_ceil(8)
                            };
                            Some((ptr, size))
                        }
                        _ => None,
                    };
                    if let Some((ptr, size)) = ptr_size {
                        accesses.insert(key, memory.access(program, fid, ptr, size));
                    }
                    if may_write(&inst.kind) {
                        lw[bi] = Some(ii as u32);
                    }
                }
            }
            defs.push(d);
            last_writer.push(lw);
        }
        Facts {
            program,
            memory,
            ncells: memory.cells.len() as u32,
            all_cells: (0..memory.cells.len() as u32).map(CellId).collect(),
            accesses,
            defs,
            last_writer,
            may_end: std::sync::OnceLock::new(),
            write_counts: std::sync::OnceLock::new(),
            call_clobbers: Default::default(),
        }
    }

    /// The cells a call of a declared function at instruction `idx` of `block` of `func` may
    /// change: what its pointer arguments reach, and every exposed cell unless it writes only
    /// through its arguments. Static, so computed once per call site (a call's transfer runs on
    /// every visit of every inlined copy).
    pub fn call_clobbers(
        &self,
        func: FuncId,
        block: BlockId,
        idx: u32,
        args: &[crate::ir::Operand],
        only_args: bool,
    ) -> std::sync::Arc<[CellId]> {
        let key = (func, block, idx);
        if let Some(c) = self.lock_clobbers().by_site.get(&key) {
            return c.clone();
        }
        let mut cells = self.memory.reachable(self.program, func, args);
        if !only_args {
            cells.extend(self.memory.exposed_cells.iter().copied());
            cells.sort_unstable();
            cells.dedup();
        }
        let mut memo = self.lock_clobbers();
        let shared: std::sync::Arc<[CellId]> = match memo.interned.get(cells.as_slice()) {
            Some(c) => c.clone(),
            None => {
                let c: std::sync::Arc<[CellId]> = cells.into();
                memo.interned.insert(c.clone());
                c
            }
        };
        memo.by_site.insert(key, shared.clone());
        shared
    }

    fn lock_clobbers(&self) -> std::sync::MutexGuard<'_, CallClobbers> {
        // A panic while holding the lock leaves a consistent memo (inserts are single steps).
        self.call_clobbers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cells instruction `idx` of `block` of `func` reads or writes.
    pub fn access(&self, func: FuncId, block: BlockId, idx: u32) -> &Access {
        static NONE: std::sync::OnceLock<Access> = std::sync::OnceLock::new();
        self.accesses.get(&(func, block, idx)).unwrap_or_else(|| {
            NONE.get_or_init(|| Access {
                read_unknown: true,
                ..Access::default()
            })
        })
    }

    /// Where threads may end besides their visible exits (see `feasibility::MayEnd`).
    pub(crate) fn may_end(&self) -> &super::feasibility::MayEnd {
        self.may_end
            .get_or_init(|| super::feasibility::MayEnd::of(self))
    }

    /// Per cell, how many instructions of the whole program may write it (see
    /// `join_loops::write_counts`).
    pub fn write_counts(&self) -> &[u32] {
        self.write_counts
            .get_or_init(|| super::join_loops::write_counts(self))
    }

    /// The instruction that defines `v` in `func`, if any.
    pub fn def(&self, func: FuncId, v: VarId) -> Option<&'a InstKind> {
        let (b, i) = (*self.defs[func.index()].get(v.index())?)?;
        Some(&self.program.funcs[func.index()].blocks[b.index()].insts[i as usize].kind)
    }

    /// The cell `v` was loaded from, when the load is in `block` at or after `start` and no
    /// instruction after it in the block may write memory or change the thread's view of the
    /// cell, so that at the end of the block the cell (as this thread last saw it) still holds
    /// `v`.
    pub fn loaded_cell_until_end(
        &self,
        func: FuncId,
        block: BlockId,
        start: u32,
        v: VarId,
    ) -> Option<CellId> {
        let (b, i) = (*self.defs[func.index()].get(v.index())?)?;
        if b != block || i < start {
            return None;
        }
        if let Some(w) = self.last_writer[func.index()][b.index()] {
            if w >= i {
                return None;
            }
        }
        let kind = &self.program.funcs[func.index()].blocks[b.index()].insts[i as usize].kind;
        if !matches!(kind, InstKind::Load { .. }) {
            return None;
        }
        // Soundness: refining a summary cell (array elements, heap) by the value of one of the
        // concrete cells it stands for would be wrong; only a cell the load must have read is.
        let a = self.access(func, b, i);
        if !a.strong || a.read_unknown {
            return None;
        }
        let cell = a.exact[0];
        // Soundness: a later load of the cell reads it again, and what it reads (another
        // thread's store) becomes the thread's view of the cell; a lock operation may refresh a
        // protected cell from what other threads published. After either, the cell need not
        // hold `v` any more (`x = g; y = g; assert(x <= y)` fails when another thread stores
        // between the loads: tests/corpus/07-fails/08-reload.c). Every instruction that may
        // take a lock refreshes: a lock, the start of an atomic section (lock 0), a trylock or
        // any other call (a call may be a lock operation the front end left a call).
        let insts = &self.program.funcs[func.index()].blocks[b.index()].insts;
        let changes_view = |k: u32| match &insts[k as usize].kind {
            InstKind::Load { .. } => self.access(func, b, k).exact.contains(&cell),
            InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Call { .. }
            | InstKind::ThreadJoin { .. }
            | InstKind::ThreadCreate { .. } => true,
            _ => false,
        };
        if (i + 1..insts.len() as u32).any(changes_view) {
            return None;
        }
        Some(cell)
    }
}

/// The loads of one combination and what each reads, by `(node, instruction)`. Looked up at
/// every load the analysis of a combination visits: a fast hash (keys are small integers that
/// no input chooses adversarially; iteration order is never observed).
pub type Choices = rustc_hash::FxHashMap<(crate::threads::NodeId, u32), LoadRead>;

/// What one load reads in one interference combination (FSE'16, Alg. 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadRead {
    /// Whether it may read the thread's own view of memory.
    pub own: bool,
    /// What it may read from stores of other threads (bottom: none).
    pub others: Interval,
    /// Whether this combination stands for executions that never reach the load.
    pub cut: bool,
}

/// What one thread sees of the others.
pub struct ThreadView<'a> {
    /// Its CFG.
    pub cfg: &'a ThreadCfg,
    /// For each cell, the join of what other threads may store into it (bottom: nothing).
    pub interference: &'a [Interval],
    /// Per load `(node, instruction)`, what it reads in the current combination; loads not in
    /// the map read their own view joined with `interference`.
    pub choices: Option<&'a Choices>,
    /// The lock-protected cells and this thread's index among the fixpoint's threads; for
    /// protected cells, `interference` holds what was published (see `analysis::protection`).
    pub protection: Option<(&'a super::protection::Protection, usize)>,
    /// Register computations no target depends on (optimized mode, `pdg::Clusters`): their
    /// result becomes any value instead of being computed.
    pub skip: Option<&'a std::collections::BTreeSet<(crate::threads::NodeId, u32)>>,
}

impl ThreadView<'_> {
    /// The choice of the current combination for a load, if any.
    pub fn choice(&self, node: crate::threads::NodeId, inst: u32) -> Option<&LoadRead> {
        self.choices.and_then(|m| m.get(&(node, inst)))
    }

    /// What other threads may have stored into `c`.
    pub fn interference(&self, c: CellId) -> Interval {
        self.interference
            .get(c.index())
            .copied()
            .unwrap_or_else(Interval::bottom)
    }
}

fn may_write(k: &InstKind) -> bool {
    match k {
        InstKind::Store { .. }
        | InstKind::AtomicRmw { .. }
        | InstKind::CmpXchg { .. }
        | InstKind::MemSet { .. }
        | InstKind::MemCopy { .. }
        | InstKind::Call { .. }
        | InstKind::ThreadCreate { .. }
        | InstKind::ThreadJoin { .. } => true,
        InstKind::Havoc {
            clobbers_memory, ..
        } => *clobbers_memory,
        _ => false,
    }
}

impl Facts<'_> {
    /// Every cell instruction `idx` of `block` of `func` may write (when it is executed, not
    /// inlined).
    pub fn written_cells(&self, func: FuncId, block: BlockId, idx: u32) -> Vec<CellId> {
        let program = self.program;
        let memory = self.memory;
        let inst = &program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
        match &inst.kind {
            InstKind::Store { .. } | InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. } => {
                let a = self.access(func, block, idx);
                let mut v = a.exact.clone();
                v.extend(a.clobber.iter().copied());
                v
            }
            InstKind::MemSet { ptr, .. } => memory.region(program, func, ptr),
            InstKind::MemCopy { dst, .. } => memory.region(program, func, dst),
            InstKind::ThreadCreate { handle, .. } => memory.region(program, func, handle),
            InstKind::ThreadJoin { retval, .. } => memory.region(program, func, retval),
            InstKind::Call { callee, args, .. } => match callee {
                crate::ir::Callee::Direct(g) if !program.funcs[g.index()].is_defined => {
                    let only_args = memory.pts.writes_only_args(&program.funcs[g.index()].name);
                    self.call_clobbers(func, block, idx, args, only_args)
                        .to_vec()
                }
                _ => self.all_cells.clone(),
            },
            InstKind::Havoc {
                clobbers_memory: true,
                ..
            } => memory.exposed_cells.clone(),
            _ => Vec::new(),
        }
    }
}
