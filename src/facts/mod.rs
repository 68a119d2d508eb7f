//! Facts about the program computed once and shared by every thread's analysis: memory
//! accesses of every load and store, the definition of every SSA value, the writers of every
//! cell, where threads may end.
//!
//! Invariant: every fact holds of the whole program, whatever threads exist and whatever the
//! analysis later finds; nothing here depends on an abstract domain or on the fixpoint.
//! What each instruction reads and writes is read from `InstKind::effects` (`ir::effects`), never
//! from a match of instruction kinds.
//!
//! - `access`: the cells of every load and store, resolved once; `def`: the defining instruction of
//!   every SSA value.
//! - `loaded_cell_until_end`: when a branch on a loaded value may refine the cell (no later load of
//!   it, lock operation or write in the block; atomic sections, calls, creates and joins count as
//!   well).
//! - `call_clobbers`: per call site of a declared function, the cells the call may change (equal
//!   sets shared). The pthread synchronisation functions (`LibFn::is_sync`)
//!   write only their synchronisation objects (POSIX), not what those objects' pointer fields
//!   reach, nor the rest of a struct that holds the mutex: `sync_object_cells` takes the bytes of
//!   the object's type from the pointer (`Program::sync_sizes`; the whole object when a size or the
//!   offset is unknown).
//! - `written_cells`: every cell an instruction may write; `span`: the cells of each
//!   `memset`/`memcpy` (`MemoryModel::span`).
//! - `write_counts`: how many instructions of the whole program may write each cell (stores,
//!   `memcpy`, atomics, joins, unknown calls, writes through unknown pointers, bodies of every
//!   function); computed when first asked for.
//! - `thresholds`: per cell, the constants a value loaded from it is compared with and their
//!   neighbours, computed when first asked for (the fixpoint's widening thresholds).
//! - `exit_reads`: the wait loops of a thread CFG and their exit reads; `ends::MayEnd`: where
//!   threads may end.
//! - `testing` (tests only): compiles a C string and builds its facts, for the unit tests of every
//!   layer from `threads` up.

pub mod ends;
pub mod exit_reads;
#[cfg(test)]
pub(crate) mod testing;

use crate::ir::effects::{Access as Use, Bytes, Effect, MemAccess, Via};
use crate::ir::{BlockId, Callee, FuncId, InstKind, Operand, Program, VarId};
use crate::memory::{CellAccess, CellId, MemoryModel, RangeWrite};
use std::collections::{BTreeSet, HashMap};

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
    accesses: HashMap<(FuncId, BlockId, u32), CellAccess>,
    /// The cells each `memset`/`memcpy` writes (`MemoryModel::span`).
    spans: HashMap<(FuncId, BlockId, u32), RangeWrite>,
    defs: Vec<Vec<Option<(BlockId, u32)>>>,
    /// Per function and block: the index of the last instruction that may write memory.
    last_writer: Vec<Vec<Option<u32>>>,
    /// Where threads may end out of sight, computed when the oracle first needs it.
    may_end: std::sync::OnceLock<ends::MayEnd>,
    /// Per cell, how many instructions of the program may write it, computed when first needed.
    write_counts: std::sync::OnceLock<Vec<u32>>,
    /// Per cell, the constants its loaded values are compared with (`Facts::thresholds`).
    thresholds: std::sync::OnceLock<Vec<Vec<i128>>>,
    /// The calls known to run one function (`threads::resolve`), computed when first needed.
    resolution: std::sync::OnceLock<crate::threads::Resolution>,
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
        let mut spans = HashMap::new();
        let mut defs = Vec::with_capacity(program.funcs.len());
        let mut last_writer = Vec::with_capacity(program.funcs.len());
        for (fi, f) in program.funcs.iter().enumerate() {
            let fid = FuncId(fi as u32);
            let mut d = vec![None; f.vars.len()];
            let mut lw = vec![None; f.blocks.len()];
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    let key = (fid, BlockId(bi as u32), ii as u32);
                    for dst in inst.kind.defs() {
                        if let Some(slot) = d.get_mut(dst.index()) {
                            *slot = Some((BlockId(bi as u32), ii as u32));
                        }
                    }
                    // The typed accesses are resolved to cells, the byte writes to spans.
                    inst.kind.effects(|e| {
                        let Effect::Mem(MemAccess {
                            ptr,
                            bytes,
                            access,
                            via,
                            ..
                        }) = e
                        else {
                            return;
                        };
                        match via {
                            Via::Direct => {
                                if let Some(n) = bytes.fixed(program.pointer_size) {
                                    let size = u32::try_from(n).unwrap_or(u32::MAX);
                                    accesses.insert(key, memory.access(program, fid, ptr, size));
                                }
                            }
                            Via::Bytes => {
                                if let (Bytes::Len(len), true) = (bytes, access.writes()) {
                                    let len = crate::memory::constant_len(len);
                                    spans.insert(key, memory.span(program, fid, ptr, len));
                                }
                            }
                            // Issue 35: the thread handles and results, and `realloc`'s read
                            // of its old block, are not resolved (`access` says `read_unknown`).
                            Via::Threads | Via::Realloc => {}
                        }
                    });
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
            spans,
            defs,
            last_writer,
            may_end: std::sync::OnceLock::new(),
            write_counts: std::sync::OnceLock::new(),
            thresholds: std::sync::OnceLock::new(),
            resolution: std::sync::OnceLock::new(),
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
        let mut callee = None;
        let kind = &self.program.funcs[func.index()].blocks[block.index()].insts[idx as usize].kind;
        kind.effects(|e| {
            if let Effect::Call {
                callee: Callee::Direct(g),
                ..
            } = e
            {
                callee = Some(*g);
            }
        });
        let sync = callee
            .and_then(|g| self.program.funcs[g.index()].library())
            .filter(|l| l.is_sync());
        let mut cells = if let Some(l) = sync {
            // The pthread synchronisation functions touch only their synchronisation objects
            // (POSIX), not what else the objects' pointer fields may reach.
            self.sync_object_cells(func, l, args)
        } else if callee.is_some_and(|g| self.program.assumed_no_write.binary_search(&g).is_ok()) {
            // The user's assumption (`--assume-no-write`): it writes nothing.
            Vec::new()
        } else {
            self.memory.reachable(self.program, func, args)
        };
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

    /// The cells a call in `func` of the synchronisation function `f` (`LibFn::is_sync`) with
    /// `args` may touch: the bytes of its objects' types from each pointer (a mutex inside a
    /// struct leaves the struct's other fields alone), or the whole objects when the size or
    /// the offset is unknown. Sorted, each once.
    pub fn sync_object_cells(
        &self,
        func: FuncId,
        f: crate::ir::lib::LibFn,
        args: &[crate::ir::Operand],
    ) -> Vec<CellId> {
        let sizes = &self.program.sync_sizes;
        let mut v: Vec<CellId> = (args.iter().enumerate())
            .flat_map(|(i, a)| match sizes.written_by(f, i) {
                Some(len) => self.memory.span(self.program, func, a, Some(len)).written(),
                None => self.memory.region(self.program, func, a),
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn lock_clobbers(&self) -> std::sync::MutexGuard<'_, CallClobbers> {
        // A panic while holding the lock leaves a consistent memo (inserts are single steps).
        self.call_clobbers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The cells instruction `idx` of `block` of `func` reads or writes.
    pub fn access(&self, func: FuncId, block: BlockId, idx: u32) -> &CellAccess {
        static NONE: std::sync::OnceLock<CellAccess> = std::sync::OnceLock::new();
        self.accesses.get(&(func, block, idx)).unwrap_or_else(|| {
            NONE.get_or_init(|| CellAccess {
                read_unknown: true,
                ..CellAccess::default()
            })
        })
    }

    /// The cells the `memset` or `memcpy` at instruction `idx` of `block` of `func` writes
    /// (empty for any other instruction).
    pub fn span(&self, func: FuncId, block: BlockId, idx: u32) -> &RangeWrite {
        static NONE: std::sync::OnceLock<RangeWrite> = std::sync::OnceLock::new();
        (self.spans.get(&(func, block, idx)))
            .unwrap_or_else(|| NONE.get_or_init(RangeWrite::default))
    }

    /// Where threads may end besides their visible exits (see `ends::MayEnd`).
    pub(crate) fn may_end(&self) -> &ends::MayEnd {
        self.may_end.get_or_init(|| ends::MayEnd::of(self))
    }

    /// The calls through pointers and of `pthread_once` that run one known function, which
    /// the thread CFGs inline (`threads::Resolution`).
    pub fn resolution(&self) -> &crate::threads::Resolution {
        (self.resolution)
            .get_or_init(|| crate::threads::Resolution::compute(self.program, &self.memory.pts))
    }

    /// Per cell, how many instructions of the whole program may write it (see
    /// [`write_counts`]).
    pub fn write_counts(&self) -> &[u32] {
        self.write_counts.get_or_init(|| write_counts(self))
    }

    /// Every instruction of the whole program that may write cell `c` (the writers
    /// [`Facts::write_counts`] counts), as (function, block, index). A scan of the program.
    pub fn writers(&self, c: CellId) -> Vec<(FuncId, BlockId, u32)> {
        let mut out = Vec::new();
        for_each_writer(self, |site, cells| {
            if cells.contains(&c) {
                out.push(site);
            }
        });
        out
    }

    /// The widening thresholds of cell `c` (ascending): each constant `k` that a value loaded
    /// from `c` alone is compared with (`if (count > 4)`), with `k - 1` and `k + 1`. The
    /// fixpoint widens what threads store and publish to the next threshold before infinity.
    pub fn thresholds(&self, c: CellId) -> &[i128] {
        let all = self.thresholds.get_or_init(|| thresholds(self));
        all.get(c.index()).map_or(&[], Vec::as_slice)
    }

    /// Where the instruction that defines `v` in `func` is (block, index), if any.
    pub fn def_site(&self, func: FuncId, v: VarId) -> Option<(BlockId, u32)> {
        *self.defs[func.index()].get(v.index())?
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
        let changes_view = |k: u32| {
            let mut changes = false;
            insts[k as usize].kind.effects(|e| {
                changes |= match e {
                    Effect::Mem(MemAccess {
                        access: Use::Read,
                        via: Via::Direct,
                        ..
                    }) => self.access(func, b, k).exact.contains(&cell),
                    // Writes are the last writer's (above). Issue 35: `realloc`'s read of its
                    // old block and a `memcpy`'s read of its source do not count here.
                    Effect::Mem(_) => false,
                    Effect::Locks { .. }
                    | Effect::Unlocks { .. }
                    | Effect::AtomicSection(_)
                    | Effect::Call { .. }
                    | Effect::JoinsThread { .. }
                    | Effect::CreatesThread { .. } => true,
                    Effect::Allocates
                    | Effect::Zeroes { .. }
                    | Effect::Clobbers
                    | Effect::Asserts
                    | Effect::Assumes => false,
                };
            });
            changes
        };
        if (i + 1..insts.len() as u32).any(changes_view) {
            return None;
        }
        Some(cell)
    }
}

/// Whether the instruction may write memory for [`Facts::loaded_cell_until_end`]: a write
/// access, a call, a thread creation or join, memory-clobbering assembly.
fn may_write(k: &InstKind) -> bool {
    let mut writes = false;
    k.effects(|e| {
        writes |= match e {
            Effect::Mem(m) => m.access.writes(),
            Effect::Call { .. }
            | Effect::CreatesThread { .. }
            | Effect::JoinsThread { .. }
            | Effect::Clobbers => true,
            // Issue 35: a lock operation writes its lock object (`for_each_writer` counts it;
            // `loaded_cell_until_end` stops at it anyway) and `calloc` its fresh block.
            Effect::Locks { .. } | Effect::Unlocks { .. } | Effect::Zeroes { .. } => false,
            Effect::Allocates | Effect::AtomicSection(_) | Effect::Asserts | Effect::Assumes => {
                false
            }
        };
    });
    writes
}

impl Facts<'_> {
    /// Every cell instruction `idx` of `block` of `func` may write (when it is executed, not
    /// inlined).
    pub fn written_cells(&self, func: FuncId, block: BlockId, idx: u32) -> Vec<CellId> {
        let program = self.program;
        let memory = self.memory;
        let inst = &program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
        let mut out = Vec::new();
        inst.kind.effects(|e| match e {
            Effect::Mem(MemAccess {
                ptr, access, via, ..
            }) if access.writes() => match via {
                Via::Direct => {
                    let a = self.access(func, block, idx);
                    out.extend(a.exact.iter().copied());
                    out.extend(a.clobber.iter().copied());
                }
                Via::Bytes => out.extend(self.span(func, block, idx).written()),
                Via::Threads => out.extend(memory.region(program, func, ptr)),
                // Issue 35: `realloc` only reads through its operand; the copy into its new
                // block is not counted as a write.
                Via::Realloc => {}
            },
            Effect::Mem(_) => {}
            Effect::Zeroes { obj } => out.extend(memory.zeroed_block(obj)),
            Effect::Call { callee, args } => match callee {
                Callee::Direct(g) if !program.funcs[g.index()].is_defined => {
                    let only_args = memory.pts.writes_only_args(*g, &program.funcs[g.index()]);
                    out.extend(self.call_clobbers(func, block, idx, args, only_args).iter());
                }
                Callee::Direct(_) | Callee::Indirect(_) => out.extend(self.all_cells.iter()),
            },
            Effect::Clobbers => out.extend(memory.exposed_cells.iter().copied()),
            // Issue 35: a lock operation writes its lock object (`for_each_writer` counts it).
            Effect::Locks { .. } | Effect::Unlocks { .. } => {}
            Effect::Allocates
            | Effect::CreatesThread { .. }
            | Effect::JoinsThread { .. }
            | Effect::AtomicSection(_)
            | Effect::Asserts
            | Effect::Assumes => {}
        });
        out
    }
}

/// [`Facts::thresholds`] of every cell, from the comparisons of every function.
fn thresholds(facts: &Facts<'_>) -> Vec<Vec<i128>> {
    let program = facts.program;
    let mut out: Vec<Vec<i128>> = vec![Vec::new(); facts.ncells as usize];
    for (fi, f) in program.funcs.iter().enumerate() {
        let func = FuncId(fi as u32);
        for b in &f.blocks {
            for inst in &b.insts {
                let InstKind::Cmp { a, b: rhs, .. } = &inst.kind else {
                    continue;
                };
                let ((Operand::Var(v), Operand::Int { value, .. })
                | (Operand::Int { value, .. }, Operand::Var(v))) = (a, rhs)
                else {
                    continue;
                };
                let Some((lb, li)) = facts.defs[fi].get(v.index()).copied().flatten() else {
                    continue;
                };
                let def = &program.funcs[fi].blocks[lb.index()].insts[li as usize].kind;
                if !matches!(def, InstKind::Load { .. }) {
                    continue;
                }
                if let [c] = facts.access(func, lb, li).exact[..] {
                    let t = &mut out[c.index()];
                    t.extend([value - 1, *value, value + 1]);
                }
            }
        }
    }
    for t in &mut out {
        t.sort_unstable();
        t.dedup();
    }
    out
}

/// How many instructions of the whole program may write each cell, whether or not a thread
/// reaches them: stores, atomics, `memset`/`memcpy` (struct copies), thread creations and
/// joins, lock operations, writes through unknown pointers (`clobber`), inline assembly and
/// unknown calls (what their arguments reach, and every exposed cell unless the function is
/// known to write only through its arguments).
///
/// Soundness: every write of a cell in an execution is made by one of these instructions. A
/// call of a defined function writes nothing itself: its body's instructions are counted
/// (in every function, inlined or not, reached or not), and so are the bodies of the
/// defined targets of a call through a pointer; the pointer may also name a library
/// function (or be unknown), so such a call counts as an unknown call, unless it resolves to
/// one defined function (`threads::resolve`), when it writes nothing itself either. A
/// `pthread_once` that runs its routine there (`threads::resolve`) writes its once-control
/// object; the routine's body counts. Exposed cells are written by unknown code only through
/// these calls and `Havoc`s, which count them.
fn write_counts(facts: &Facts<'_>) -> Vec<u32> {
    let mut count = vec![0u32; facts.ncells as usize];
    for_each_writer(facts, |_, cells| {
        for c in cells {
            count[c.index()] += 1;
        }
    });
    count
}

/// Calls `f(site, cells)` for every instruction of the whole program, with the cells it may
/// write when it runs (see [`write_counts`] for what counts).
fn for_each_writer(facts: &Facts<'_>, mut f: impl FnMut((FuncId, BlockId, u32), BTreeSet<CellId>)) {
    let program = facts.program;
    let memory = facts.memory;
    let resolved = facts.resolution();
    for (fi, fun) in program.funcs.iter().enumerate() {
        let func = FuncId(fi as u32);
        for (bi, b) in fun.blocks.iter().enumerate() {
            for (idx, inst) in b.insts.iter().enumerate() {
                let mut own: Option<BTreeSet<CellId>> = None;
                let known = resolved.resolves(func, BlockId(bi as u32), idx as u32);
                inst.kind.effects(|e| match e {
                    Effect::Call {
                        callee: Callee::Direct(g),
                        args,
                    } => {
                        if program.funcs[g.index()].is_defined {
                            own = Some(BTreeSet::new());
                        } else if known {
                            // A `pthread_once` that runs its routine: its control object.
                            let control = args.first().map(|o| memory.region(program, func, o));
                            own = Some(control.into_iter().flatten().collect());
                        }
                    }
                    Effect::Call {
                        callee: Callee::Indirect(_),
                        ..
                    } if known => own = Some(BTreeSet::new()),
                    Effect::Call {
                        callee: Callee::Indirect(_),
                        args,
                    } => {
                        let mut v: BTreeSet<CellId> =
                            memory.reachable(program, func, args).into_iter().collect();
                        v.extend(memory.exposed_cells.iter().copied());
                        own = Some(v);
                    }
                    // Soundness: a lock operation writes its lock object; a handle that shares
                    // its bytes with one (a union) is overwritten by it.
                    Effect::Locks { lock, .. } | Effect::Unlocks { lock } => {
                        own = Some(memory.region(program, func, lock).into_iter().collect());
                    }
                    Effect::Mem(_)
                    | Effect::Allocates
                    | Effect::Zeroes { .. }
                    | Effect::CreatesThread { .. }
                    | Effect::JoinsThread { .. }
                    | Effect::AtomicSection(_)
                    | Effect::Clobbers
                    | Effect::Asserts
                    | Effect::Assumes => {}
                });
                let cells = own.unwrap_or_else(|| {
                    (facts.written_cells(func, BlockId(bi as u32), idx as u32))
                        .into_iter()
                        .collect()
                });
                if !cells.is_empty() {
                    f((func, BlockId(bi as u32), idx as u32), cells);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::with_facts;

    /// The count of writers of the (one-cell) global `name`.
    fn writers(program: &crate::ir::Program, facts: &Facts<'_>, name: &str) -> u32 {
        let g = (program.globals.iter())
            .find(|g| g.name == name)
            .unwrap_or_else(|| panic!("no global {name}"));
        let cells: Vec<CellId> = facts.memory.cells.of(g.obj).collect();
        assert_eq!(cells.len(), 1, "{name} is one cell");
        facts.write_counts()[cells[0].index()]
    }

    const HEADER: &str = "#include <pthread.h>\n#include <string.h>\n\
        static void *f(void *a) { return a; }\n";

    #[test]
    fn every_writer_of_a_handle_counts() {
        let src = format!(
            "{HEADER}pthread_t a, b, c, d, e, u, v;\n\
             static void put(pthread_t *p, pthread_t q) {{ *p = q; }}\n\
             static void only_reads(pthread_t q) {{ (void)q; }}\n\
             int main(void) {{\n\
               pthread_create(&a, 0, f, 0); pthread_create(&b, 0, f, 0);\n\
               pthread_create(&c, 0, f, 0); c = b;\n\
               pthread_create(&d, 0, f, 0); memcpy(&d, &b, sizeof d);\n\
               pthread_create(&e, 0, f, 0); put(&e, b);\n\
               pthread_create(&u, 0, f, 0); only_reads(u);\n\
               pthread_create(&v, 0, f, 0); pthread_create(&v, 0, f, 0);\n\
               return 0; }}\n"
        );
        with_facts(&src, |program, facts| {
            // A call of a defined function writes nothing itself; its body counts.
            assert_eq!(writers(program, facts, "a"), 1);
            assert_eq!(writers(program, facts, "u"), 1);
            for copied in ["c", "d", "e", "v"] {
                assert_eq!(writers(program, facts, copied), 2, "{copied}");
            }
        });
    }

    /// `InstKind::defs` and `for_each_use` are the one def/use description: every variable an
    /// instruction uses is a parameter, a phi or defined by an instruction, and every defined
    /// variable has its definition in `Facts::def` (a compare-and-swap defines two).
    #[test]
    fn every_used_variable_has_a_definition() {
        let src = "#include <pthread.h>\n#include <stdatomic.h>\n\
            atomic_int a; int g[4]; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
            static void *f(void *p) { int e = 0; _Bool ok = atomic_compare_exchange_strong(&a, &e, 1);\n\
              pthread_mutex_lock(&m); g[ok] += *(int *)p; pthread_mutex_unlock(&m); return p; }\n\
            int main(void) { pthread_t t; int x = 1; pthread_create(&t, 0, f, &x);\n\
              void *r; pthread_join(t, &r); return g[1] > 0 ? 0 : (int)(long)r; }\n";
        with_facts(src, |program, facts| {
            let mut cas = 0;
            for (fi, f) in program
                .funcs
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_defined)
            {
                let func = FuncId(fi as u32);
                let mut defined: BTreeSet<VarId> = f.params.iter().copied().collect();
                for b in &f.blocks {
                    defined.extend(b.phis.iter().map(|p| p.dst));
                    for i in &b.insts {
                        for d in i.kind.defs() {
                            assert!(facts.def(func, d).is_some(), "{}: {d:?}", f.name);
                            defined.insert(d);
                        }
                        cas += usize::from(matches!(i.kind, InstKind::CmpXchg { .. }));
                    }
                }
                for b in &f.blocks {
                    for i in &b.insts {
                        i.kind.for_each_use(|o| {
                            if let crate::ir::Operand::Var(v) = o {
                                assert!(
                                    defined.contains(v),
                                    "{}: {v:?} used, never defined",
                                    f.name
                                );
                            }
                        });
                    }
                }
            }
            assert!(cas > 0, "the program has a compare-and-swap");
        });
    }
}
