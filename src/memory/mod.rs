//! Memory: a sound points-to analysis and the abstract cells that loads and stores touch.
//!
//! Invariant: for every memory access of every execution, the concrete bytes touched belong to
//! the cells of its [`CellAccess`], or the access says `read_unknown` (reads give any value) and its
//! `clobber` list covers every cell a write may change.
//!
//! `MemoryModel::access` maps a load or store to the cells it touches (`exact`, `clobber`,
//! `strong`, `read_unknown`); a dereferenced variable with an empty points-to set is taken as
//! `unknown`, not as null.
//!
//! `MemoryModel::span` maps a `memset`/`memcpy` of a constant length through an address with known
//! offsets to the cells it touches, each with the offset of its first byte when it lies wholly
//! inside (a strong write when that cell is singular and the address names one object), else every
//! cell of the region (a `RangeWrite`); `Facts::span` keeps it per instruction, computed once, for
//! `Facts::written_cells`, the engine (`Transfer::write_bytes`: the bytes of a constant source or
//! the `memset` byte) and the feasibility facts (a strong store of each cell it surely replaces).
//!
//! `MemoryModel::per_thread(c)`: `c` belongs to a `thread_local` global (one copy per thread, which
//! starts with the initial value); `thread_private(c)`: moreover no thread but the copy's own
//! writes it, which holds unless the global has external linkage and the program may run code the
//! analysis does not see (`runs_foreign_code`: a call of a declared function other than
//! `writes_only_args`, through a pointer that may name one, a creation of one, inline assembly),
//! since such code may name the variable and hand the running thread's copy to another thread.
//!
//! Invariant: no address reaches a pointer without passing through a points-to set, a non-pointer
//! read that exposes it, or an `unknown` set.

pub mod cells;
pub mod heap;
pub mod points_to;

pub use cells::{CellId, CellInfo, Cells, Lookup};
pub use points_to::{PointsTo, PtsSet, Target};

use crate::ir::{FuncId, ObjId, Operand, Program, ScalarKind};
use std::collections::BTreeSet;

use crate::limits::MAX_SPAN_CELLS;

/// The cells one load or store may touch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellAccess {
    /// Cells whose whole value the access reads or writes (same offset and size).
    pub exact: Vec<CellId>,
    /// Cells a write changes only in part (or whose bytes it may touch without matching them):
    /// they become unknown after a write.
    pub clobber: Vec<CellId>,
    /// Whether a write replaces the value of `exact[0]`, the only cell it can touch.
    pub strong: bool,
    /// Whether a read may see bytes that are not one of `exact` (partial overlap, heap, unknown
    /// pointer): the value read is then any value.
    pub read_unknown: bool,
}

/// The length operand of a `memset` or `memcpy` when it is a constant.
pub fn constant_len(len: &Operand) -> Option<u64> {
    match len {
        Operand::Int { value, .. } => u64::try_from(*value).ok(),
        _ => None,
    }
}

/// The value of a `size`-byte integer cell made of these bytes (little-endian), sign-extended
/// as the analysis keeps integers.
pub fn int_of_bytes(bytes: &[u8]) -> i128 {
    let mut v: i128 = 0;
    for (i, b) in bytes.iter().enumerate().take(16) {
        v |= i128::from(*b) << (8 * i);
    }
    let bits = 8 * bytes.len().min(16) as u32;
    if bits == 0 || bits == 128 {
        return v;
    }
    (v << (128 - bits)) >> (128 - bits)
}

/// The cells a `memset` or `memcpy` writes ([`MemoryModel::span`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeWrite {
    /// The cells, in the order of the bytes.
    pub cells: Vec<RangeCell>,
}

/// One cell a `memset` or `memcpy` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeCell {
    /// The cell.
    pub cell: CellId,
    /// The offset of its first byte in the range, when it lies wholly inside.
    pub at: Option<u64>,
    /// Whether the write replaces its value: it lies wholly inside, it is the one concrete cell
    /// (singular) of the one object the address names, and the range covers it once.
    pub strong: bool,
}

impl RangeWrite {
    /// The cells, each once.
    pub fn written(&self) -> Vec<CellId> {
        let mut v: Vec<CellId> = self.cells.iter().map(|c| c.cell).collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// The memory model of a program: cells and points-to facts.
#[derive(Clone, Debug)]
pub struct MemoryModel {
    /// Every cell.
    pub cells: Cells,
    /// Points-to facts.
    pub pts: PointsTo,
    /// Cells of exposed objects, which unknown code and unknown pointers may touch.
    pub exposed_cells: Vec<CellId>,
    /// The cells of thread-local variables, one copy per thread, ascending (see
    /// [`MemoryModel::per_thread`]).
    per_thread: Vec<CellId>,
    /// `thread_private[c]`: moreover, no thread but the copy's own writes it (see
    /// [`MemoryModel::thread_private`]).
    thread_private: Vec<bool>,
}

impl MemoryModel {
    /// Builds cells and runs the points-to analysis.
    pub fn build(program: &Program) -> MemoryModel {
        let once = heap::allocated_once(program);
        let pts = PointsTo::compute(program, &once);
        let cells = Cells::build(program, heap::layouts(program, &pts, &once));
        let exposed_cells = pts.exposed.iter().flat_map(|o| cells.of(*o)).collect();
        let mut per_thread = Vec::new();
        let mut thread_private = vec![false; cells.len()];
        let foreign = runs_foreign_code(program, &pts);
        for g in program.globals.iter().filter(|g| g.thread_local) {
            for c in cells.of(g.obj) {
                per_thread.push(c);
                // Soundness: code the analysis does not see may name a thread-local variable
                // of external linkage, take the address of the running thread's copy and hand
                // it to code in another thread, which writes it: then every thread's stores
                // count for the others. The program's own code never does (the address of a
                // marked variable is only dereferenced, `ir::Global::thread_local`).
                thread_private[c.index()] = g.is_internal || !foreign;
            }
        }
        per_thread.sort_unstable();
        MemoryModel {
            cells,
            pts,
            exposed_cells,
            per_thread,
            thread_private,
        }
    }

    /// Whether `c` is a cell of a thread-local variable (`ir::Global::thread_local`): each
    /// thread has its own copy, which starts with the initial value; `c` is one slot per
    /// thread, not one for the whole run.
    pub fn per_thread(&self, c: CellId) -> bool {
        self.per_thread.binary_search(&c).is_ok()
    }

    /// Every cell of which each thread has its own copy ([`MemoryModel::per_thread`]).
    pub fn per_thread_cells(&self) -> &[CellId] {
        &self.per_thread
    }

    /// Whether `c` is a cell of a thread-local variable whose copy no other thread writes: a
    /// store of one thread is never read by another. Only functions analysed on their own (they
    /// run inside any thread) write a copy for the thread that runs them.
    pub fn thread_private(&self, c: CellId) -> bool {
        self.thread_private.get(c.index()).copied().unwrap_or(false)
    }

    /// The points-to set of an address operand that is dereferenced.
    ///
    /// Soundness: an empty set on a variable means null only if the analysis saw every flow of
    /// addresses; a pointer it missed (bytes the front end does not track) would then be
    /// dereferenced without touching any cell. As a defence in depth such an access is taken to
    /// reach every exposed object (`unknown`); a dereference of a real null crashes anyway.
    fn deref_pts(&self, program: &Program, f: FuncId, ptr: &Operand) -> PtsSet {
        let mut pts = self.pts.of(program, f, ptr);
        if pts.targets.is_empty() && matches!(ptr, Operand::Var(_)) {
            pts.unknown = true;
        }
        pts
    }

    /// The cells an access of `size` bytes through `ptr` (an operand of function `f`) touches.
    pub fn access(&self, program: &Program, f: FuncId, ptr: &Operand, size: u32) -> CellAccess {
        let pts = self.deref_pts(program, f, ptr);
        let mut exact = BTreeSet::new();
        let mut clobber = BTreeSet::new();
        let mut read_unknown = pts.unknown;
        let mut strong_candidate = None;
        let whole = |o: ObjId, exact: &mut BTreeSet<CellId>, clobber: &mut BTreeSet<CellId>| {
            for c in self.cells.of(o) {
                if self.cells.info(c).size == size {
                    exact.insert(c);
                } else {
                    clobber.insert(c);
                }
            }
        };
        for t in pts.targets.iter() {
            match t {
                Target::Obj(o, Some(off)) => {
                    let layout = self.cells.layout(program, *o);
                    match self.cells.lookup(layout, *o, *off, size) {
                        Some(Lookup::Exact(c)) => {
                            exact.insert(c);
                            strong_candidate = Some(c);
                        }
                        Some(Lookup::Overlap(cs)) => {
                            clobber.extend(cs);
                            read_unknown = true;
                        }
                        None => read_unknown = true,
                    }
                }
                Target::Obj(o, None) => {
                    whole(*o, &mut exact, &mut clobber);
                    read_unknown |= self.cells.of(*o).next().is_none();
                }
                Target::Func(_) => read_unknown = true,
            }
        }
        if pts.unknown {
            for c in &self.exposed_cells {
                if self.cells.info(*c).size == size {
                    exact.insert(*c);
                } else {
                    clobber.insert(*c);
                }
            }
        }
        if pts.targets.is_empty() && !pts.unknown {
            // Soundness: only a constant (null) address reaches here (`deref_pts`); the access
            // would crash, and reading any value is the safe answer.
            read_unknown = true;
        }
        for c in &exact {
            clobber.remove(c);
        }
        let strong = pts.targets.len() == 1
            && !pts.unknown
            && exact.len() == 1
            && clobber.is_empty()
            && strong_candidate.is_some_and(|c| self.cells.info(c).singular);
        read_unknown |= !clobber.is_empty();
        CellAccess {
            exact: exact.into_iter().collect(),
            clobber: clobber.into_iter().collect(),
            strong,
            read_unknown,
        }
    }

    /// Every cell of every object `ptr` may point into (for `memset`, `memcpy`).
    pub fn region(&self, program: &Program, f: FuncId, ptr: &Operand) -> Vec<CellId> {
        let pts = self.deref_pts(program, f, ptr);
        let mut out: BTreeSet<CellId> = pts.objects().flat_map(|o| self.cells.of(o)).collect();
        if pts.unknown {
            out.extend(self.exposed_cells.iter().copied());
        }
        out.into_iter().collect()
    }

    /// The cells that `len` bytes from `ptr` touch (`memset`, `memcpy`), each with the
    /// offset from `ptr` of its first byte when all its bytes lie in the range (`Some(k)`: it
    /// receives bytes `k..k + size`), or `None` when the range covers it only in part or the
    /// bytes are not known (an unknown length or target: every cell of [`MemoryModel::region`]).
    /// A summary cell appears once per element the range covers. A singular cell appears at
    /// most once.
    pub fn span(
        &self,
        program: &Program,
        f: FuncId,
        ptr: &Operand,
        len: Option<u64>,
    ) -> RangeWrite {
        let pts = self.deref_pts(program, f, ptr);
        let exact = |t: &Target| matches!(t, Target::Obj(o, Some(_)) if self.cells.by_obj[o.index()].len() <= MAX_SPAN_CELLS);
        let len = len.filter(|n| *n <= heap::MAX_SPAN);
        let (Some(len), false, true) = (len, pts.unknown, pts.targets.iter().all(exact)) else {
            let region = self.region(program, f, ptr);
            let whole = |cell| RangeCell {
                cell,
                at: None,
                strong: false,
            };
            return RangeWrite {
                cells: region.into_iter().map(whole).collect(),
            };
        };
        let mut out = Vec::new();
        for (o, off) in pts.objects_at() {
            let (Some(off), Some(layout)) = (off, self.cells.layout(program, o)) else {
                continue;
            };
            let mut p = off;
            while p < off + len {
                let Some(n) = cells::normalize(layout, p) else {
                    // Past the end of the object: no cell.
                    break;
                };
                let hit = self.cells.of(o).find(|c| {
                    let i = self.cells.info(*c);
                    i.offset <= n && n < i.offset + u64::from(i.size)
                });
                let Some(c) = hit else {
                    p += 1;
                    continue;
                };
                let info = self.cells.info(c);
                let start = p - (n - info.offset);
                let end = start + u64::from(info.size);
                let inside = start >= off && end <= off + len;
                out.push(RangeCell {
                    cell: c,
                    at: inside.then(|| start - off),
                    strong: inside && info.singular && pts.targets.len() == 1,
                });
                p = end;
            }
        }
        // Soundness: a summary cell the range covers more than once keeps the older values of
        // the elements the range does not cover.
        for i in 0..out.len() {
            if out.iter().filter(|d| d.cell == out[i].cell).count() > 1 {
                out[i].strong = false;
            }
        }
        RangeWrite { cells: out }
    }

    /// The cells a `calloc` sets to zero: those of its block when it is allocated once (the
    /// other heap objects have no cells).
    pub fn zeroed_block(&self, obj: ObjId) -> Vec<CellId> {
        let cells: Vec<CellId> = self.cells.of(obj).collect();
        if cells.iter().all(|c| self.cells.info(*c).singular) {
            cells
        } else {
            Vec::new()
        }
    }

    /// Every cell reachable from the pointer arguments, transitively through stored pointers
    /// (what a library function that writes only through its arguments may change).
    pub fn reachable(&self, program: &Program, f: FuncId, args: &[Operand]) -> Vec<CellId> {
        let mut seen = BTreeSet::new();
        let mut unknown = false;
        let mut stack: Vec<ObjId> = Vec::new();
        for a in args {
            let pts = self.pts.of(program, f, a);
            unknown |= pts.unknown;
            stack.extend(pts.objects());
        }
        while let Some(o) = stack.pop() {
            if seen.insert(o) {
                let c = self.pts.contents(o);
                unknown |= c.unknown;
                stack.extend(c.objects());
            }
        }
        let mut out: BTreeSet<CellId> = seen.iter().flat_map(|o| self.cells.of(*o)).collect();
        if unknown {
            out.extend(self.exposed_cells.iter().copied());
        }
        out.into_iter().collect()
    }

    /// Whether the cell holds an integer the analysis tracks.
    pub fn is_int(&self, c: CellId) -> bool {
        self.cells.info(c).kind == ScalarKind::Int
    }
}

/// Whether the program may run code the analysis does not see: a call of a declared function
/// other than the argument-only library functions ([`PointsTo::writes_only_args`]), a call or
/// creation through a pointer that may name such a function, or memory-clobbering code it does
/// not model (inline assembly).
fn runs_foreign_code(program: &Program, pts: &PointsTo) -> bool {
    use crate::ir::effects::Effect;
    use crate::ir::Callee;
    let foreign = |g: FuncId| {
        let f = &program.funcs[g.index()];
        !f.is_defined && !pts.writes_only_args(g, f)
    };
    program.funcs.iter().enumerate().any(|(i, func)| {
        let f = FuncId::from(i);
        (func.blocks.iter().flat_map(|b| &b.insts)).any(|inst| {
            let mut runs = false;
            inst.kind.effects(|e| {
                runs |= match e {
                    Effect::Call {
                        callee: Callee::Direct(g),
                        ..
                    } => foreign(*g),
                    Effect::Call {
                        callee: Callee::Indirect(op),
                        ..
                    }
                    | Effect::CreatesThread { entry: op, .. } => {
                        let (targets, unknown) = pts.callees(program, f, op);
                        unknown || targets.into_iter().any(foreign)
                    }
                    Effect::Clobbers => true,
                    Effect::Mem(_)
                    | Effect::Allocates
                    | Effect::Zeroes { .. }
                    | Effect::JoinsThread { .. }
                    | Effect::Locks { .. }
                    | Effect::Unlocks { .. }
                    | Effect::AtomicSection(_)
                    | Effect::Asserts
                    | Effect::Assumes => false,
                };
            });
            runs
        })
    })
}
