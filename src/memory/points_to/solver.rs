//! The fixpoint of the points-to analysis: its state (`Solver`: the result being built and what
//! only the solving needs), the worklist of functions (`Schedule`), and the basic moves of
//! pointers through memory (loads, stores, byte copies, address arithmetic).
//!
//! Invariant: the fixpoint is the one a round-robin over every function until nothing changes
//! would reach: a function is visited again whenever something its last visit read grew (its
//! variables, the contents and integer-written ranges of the objects it read, its callees'
//! results, the exposed functions when it calls through an unknown pointer).
//!
//! Precision and cost: a set keeps at most `MAX_OFFSETS` (8) known offsets into one object, then
//! "anywhere in it" (`set`); an object keeps at most `MAX_INT_RANGES` integer-written ranges with
//! a known offset. Pointers into a heap object allocated once keep exact byte offsets below
//! `memory::heap::MAX_SPAN`, whose layout `memory::heap` then infers.

use super::{PointsTo, PtsSet, Reach, Target};
use crate::ir::{FuncId, InitValue, ObjId, Program, VarId};
use crate::memory::cells::normalize_array_step;
use std::collections::BTreeSet;

/// The state of the fixpoint: the result it builds and what only the solving reads.
#[derive(Clone, Debug, Default)]
pub(super) struct Solver {
    /// The result.
    pub(super) pt: PointsTo,
    /// Return values of each function.
    pub(super) rets: Vec<PtsSet>,
    /// The exposed objects that code the analysis does not see is given (`Reach::called`): the
    /// functions they hold are called back.
    pub(super) called_exposed: BTreeSet<ObjId>,
    /// `leaks[o]`: an integer read of `o` exposed what it contains (`expose_bytes_read`).
    /// Invariant (outside `visit_inst`): what a leaking object contains is exposed;
    /// `close_exposed` restores it when the contents grow.
    pub(super) leaks: Vec<bool>,
    /// `int_written[o]`: the byte ranges (offset, or anywhere, and size) of `o` that a
    /// non-pointer store may have written.
    /// Invariant: a pointer load that overlaps one of them gets `unknown` (see `laundered_load`).
    pub(super) int_written: Vec<BTreeSet<(Option<u64>, u64)>>,
    /// Which functions to visit again.
    pub(super) sched: Schedule,
    /// `exact_bytes[o]`: `o` has no layout but keeps exact byte offsets (`memory::heap`).
    pub(super) exact_bytes: Vec<bool>,
    /// `heap_fields[o]`: `o` is a heap site without a layout whose pointers keep a constant
    /// offset taken from a block's start (`gep`), so that the race check tells its fields apart.
    pub(super) heap_fields: Vec<bool>,
    /// Whether memory may be written in ways the analysis does not follow: code it does not see
    /// runs (an unknown function, a thread of unknown code, memory-clobbering assembly), or the
    /// program writes through an `unknown` pointer. Only then may exposed objects contain
    /// anything exposed (`close_exposed`).
    pub(super) untracked_writes: bool,
    /// `movers[f][v]`: var `v` of `f` is an integer that moves an address (`movers`).
    pub(super) movers: Vec<Vec<bool>>,
}

/// The worklist of the fixpoint: a function is visited again only when something it read
/// changed. Cost: a round over the whole program per new fact made large programs take
/// minutes (kona, 830 KB); most rounds change a few functions.
///
/// Soundness (the fixpoint is the same): a visit of `f` reads only `f`'s variables, the
/// contents and integer-written ranges of the objects its accesses name (`readers`), the
/// results of its callees (`callers`), and the exposed functions when it calls through an
/// unknown pointer (`unknown_callers`); each of those marks its readers dirty when it grows.
/// Exposed objects are closed again (`close_exposed`) whenever one is added or the contents of
/// one grow.
#[derive(Clone, Debug, Default)]
pub(super) struct Schedule {
    pub(super) dirty: Vec<bool>,
    pub(super) cur: usize,
    pub(super) readers: Vec<BTreeSet<u32>>,
    pub(super) callers: Vec<BTreeSet<u32>>,
    pub(super) unknown_callers: BTreeSet<u32>,
    pub(super) exposed_funcs_changed: bool,
    pub(super) reclose: bool,
}

impl PointsTo {
    /// Runs the analysis to its fixpoint. Pointers into an object `o` without a layout keep
    /// their byte offsets when `exact_bytes[o]` (a heap object allocated once, whose layout
    /// `memory::heap` then infers from the offsets its accesses use).
    pub fn compute(program: &Program, exact_bytes: &[bool]) -> PointsTo {
        let mut solver = Solver {
            pt: PointsTo {
                vars: program
                    .funcs
                    .iter()
                    .map(|f| vec![PtsSet::default(); f.vars.len()])
                    .collect(),
                contents: vec![PtsSet::default(); program.objects.len()],
                fields: vec![std::collections::BTreeMap::new(); program.objects.len()],
                anywhere: vec![PtsSet::default(); program.objects.len()],
                stdio_buffers: (program.funcs.iter())
                    .any(|f| f.library_props().is_some_and(|p| p.stdio_buffer)),
                no_write: program.assumed_no_write.clone(),
                ..PointsTo::default()
            },
            exact_bytes: exact_bytes.to_vec(),
            heap_fields: (program.objects.iter())
                .map(|o| matches!(o.kind, crate::ir::ObjectKind::Heap(_)) && o.layout.is_none())
                .collect(),
            rets: vec![PtsSet::default(); program.funcs.len()],
            leaks: vec![false; program.objects.len()],
            int_written: vec![BTreeSet::new(); program.objects.len()],
            movers: program.funcs.iter().map(super::movers::movers).collect(),
            ..Solver::default()
        };
        // Soundness: `dlsym` hands out any function of external linkage by its name, so code
        // the analysis does not see may call every one of them.
        let by_name =
            (program.funcs.iter()).any(|f| f.library_props().is_some_and(|p| p.finds_functions));
        if by_name {
            for (i, f) in program.funcs.iter().enumerate() {
                if f.is_defined && !f.is_internal {
                    solver.pt.exposed_funcs.insert(FuncId::from(i));
                    solver.pt.called_back.insert(FuncId::from(i));
                }
            }
        }
        for g in &program.globals {
            if !g.is_internal {
                solver.pt.exposed.insert(g.obj);
            }
            match &g.init {
                None => solver.pt.contents[g.obj.index()].unknown = true,
                Some(cells) => {
                    for c in cells {
                        let t = match c.value {
                            InitValue::GlobalAddr(h, off) => Some(Target::Obj(
                                program.globals[h.index()].obj,
                                u64::try_from(off).ok(),
                            )),
                            InitValue::FuncAddr(f) => Some(Target::Func(f)),
                            // Soundness: an untracked constant (`(long)&x`) may hold an address
                            // that a pointer load reads back: its bytes count as written by a
                            // non-pointer store (`laundered_load`).
                            InitValue::Unknown => {
                                solver.int_written[g.obj.index()]
                                    .insert((Some(c.offset), u64::from(c.size)));
                                None
                            }
                            InitValue::Int(_) => None,
                        };
                        if let Some(t) = t {
                            let val = PtsSet {
                                targets: std::sync::Arc::new([t].into_iter().collect()),
                                unknown: false,
                            };
                            solver.store_at(program, g.obj, Some(c.offset), &val);
                        }
                    }
                }
            }
        }
        // Soundness: an address that a constant hides in an integer (`(long)&x`, in code or in
        // an initialiser) or in a value the lowering does not track comes back, if ever, as a
        // pointer the analysis sees as `unknown`; exposing it puts it in what `unknown` covers.
        for op in &program.hidden_addrs {
            let s = solver.pt.of(program, FuncId(0), op);
            solver.expose_to(&s, Reach::LEAKED);
        }
        // Soundness: the front end leaves the address of a thread-local variable that may
        // escape unknown (`Program::thread_local_addrs`), so that `unknown`, which is every
        // exposed object, must cover its copies; the race check tells the running thread's
        // own copy apart (`races::touch::OwnCopies`).
        for a in &program.thread_local_addrs {
            let obj = program.globals[a.global.index()].obj;
            let s = PtsSet {
                targets: std::sync::Arc::new([Target::Obj(obj, None)].into_iter().collect()),
                unknown: false,
            };
            solver.expose_to(&s, Reach::LEAKED);
        }
        // Soundness: `main` may be given pointers (argv) by the environment.
        if let Some(main) = program.main {
            for p in &program.funcs[main.index()].params {
                solver.pt.vars[main.index()][p.index()] = PtsSet::unknown();
            }
        }
        solver.sched = Schedule {
            dirty: vec![true; program.funcs.len()],
            readers: vec![BTreeSet::new(); program.objects.len()],
            callers: vec![BTreeSet::new(); program.funcs.len()],
            reclose: true,
            ..Schedule::default()
        };
        loop {
            let mut visited = false;
            for fi in 0..program.funcs.len() {
                if std::mem::take(&mut solver.sched.dirty[fi]) {
                    solver.sched.cur = fi;
                    solver.visit_function(program, FuncId(fi as u32));
                    visited = true;
                }
            }
            if std::mem::take(&mut solver.sched.reclose) {
                solver.close_exposed(program);
                solver.sched.reclose = false;
            }
            if std::mem::take(&mut solver.sched.exposed_funcs_changed) {
                for f in std::mem::take(&mut solver.sched.unknown_callers) {
                    solver.sched.dirty[f as usize] = true;
                }
            }
            if !visited && !solver.sched.dirty.iter().any(|d| *d) {
                break;
            }
        }
        solver.pt
    }
}

impl Solver {
    /// A write through `ptr`: one through an `unknown` pointer may change any exposed object.
    pub(super) fn write_through(&mut self, ptr: &PtsSet) -> bool {
        if ptr.unknown {
            self.writes_untracked()
        } else {
            false
        }
    }

    /// Memory may now be written untracked (see `untracked_writes`).
    pub(super) fn writes_untracked(&mut self) -> bool {
        if self.untracked_writes {
            return false;
        }
        self.untracked_writes = true;
        self.sched.reclose = true;
        true
    }

    /// Records that a non-pointer write of `size` bytes through `ptr` may put pointer bytes
    /// into the objects it names.
    pub(super) fn int_write(&mut self, ptr: &PtsSet, size: u64) -> bool {
        let mut changed = self.write_through(ptr);
        for (o, off) in ptr.objects_with_offsets() {
            changed |= self.add_int_range(o, off, size);
        }
        changed
    }

    /// Records that a non-pointer store may have written `size` bytes of `o` at `off`.
    /// Termination: a copy inside an object in a loop (`memmove(b + 1, b, n)`) shifts a range
    /// again on every visit; once an object has `MAX_INT_RANGES` ranges, new ones are recorded
    /// at "anywhere" (which covers them), so the set stays finite and only grows.
    pub(super) fn add_int_range(&mut self, o: ObjId, off: Option<u64>, size: u64) -> bool {
        let ranges = &mut self.int_written[o.index()];
        let off = if ranges.len() >= MAX_INT_RANGES {
            None
        } else {
            off
        };
        let new = ranges.insert((off, size));
        if new {
            self.touch(o);
        }
        new
    }

    /// The points-to set of a pointer load of `size` bytes through `ptr`.
    ///
    /// Soundness: bytes written by a non-pointer store (an integer holding an address, a union
    /// member, a byte-by-byte copy) may form a pointer the contents do not name. Such an
    /// integer carries an exposed address (`ptrtoint` and integer reads of pointer bytes expose
    /// their targets), so a load that overlaps those bytes also gets `unknown`. Integer
    /// constants are not recorded as such writes: an address forged from a constant is outside
    /// what the analysis proves.
    pub(super) fn laundered_load(&self, program: &Program, ptr: &PtsSet, size: u64) -> PtsSet {
        let mut out = self.load_from(program, ptr);
        let overlaps = |&(w_off, w_size): &(Option<u64>, u64), off: Option<u64>| match (w_off, off)
        {
            (Some(a), Some(b)) => a < b + size && b < a + w_size,
            _ => true,
        };
        if ptr
            .objects_with_offsets()
            .into_iter()
            .any(|(o, off)| self.int_written[o.index()].iter().any(|w| overlaps(w, off)))
        {
            out.unknown = true;
        }
        out
    }

    /// A copy of bytes from `src` to `dst` (`memcpy`, `strcpy`, `realloc`): the pointers it
    /// moves and the integer-written ranges it carries.
    ///
    /// Soundness: the copy's length and the places it moves pointers to are not followed: what
    /// the source objects contain anywhere lands anywhere in the destinations.
    pub(super) fn copy_bytes(&mut self, dst: &PtsSet, src: &PtsSet) -> bool {
        let moved = self.load_whole(src);
        let mut changed = self.store_anywhere(dst, &moved);
        let mut shifted = BTreeSet::new();
        let dsts = dst.objects_with_offsets();
        for (s, s_off) in src.objects_with_offsets() {
            for &(w_off, w_size) in &self.int_written[s.index()] {
                for &(_, d_off) in &dsts {
                    // Soundness: a range is moved by the distance between the two offsets when
                    // both are known, and becomes "anywhere" otherwise.
                    let off = match (w_off, s_off, d_off) {
                        (Some(w), Some(so), Some(d)) if w >= so => d.checked_add(w - so),
                        _ => None,
                    };
                    shifted.insert((off, w_size));
                }
            }
        }
        for &(d, _) in &dsts {
            for &(off, size) in &shifted {
                changed |= self.add_int_range(d, off, size);
            }
        }
        changed
    }

    pub(super) fn add(&mut self, f: FuncId, dst: VarId, set: &PtsSet) -> bool {
        let changed = self.pt.vars[f.index()][dst.index()].union_with(set);
        if changed {
            self.mark(f.index());
        }
        changed
    }

    pub(super) fn mark(&mut self, f: usize) {
        if let Some(d) = self.sched.dirty.get_mut(f) {
            *d = true;
        }
    }

    /// The contents or integer-written ranges of `o` grew: its readers run again.
    pub(super) fn touch(&mut self, o: ObjId) {
        if self.sched.readers.is_empty() {
            return;
        }
        for &f in &self.sched.readers[o.index()] {
            self.sched.dirty[f as usize] = true;
        }
        if self.leaks[o.index()] || self.pt.exposed.contains(&o) {
            self.sched.reclose = true;
        }
    }

    /// The function being visited reads the contents of the objects `p` names.
    pub(super) fn reads(&mut self, p: &PtsSet) {
        if self.sched.readers.is_empty() {
            return;
        }
        let cur = self.sched.cur as u32;
        for o in p.objects() {
            self.sched.readers[o.index()].insert(cur);
        }
    }

    /// The function being visited reads the result of `callee`.
    pub(super) fn reads_result_of(&mut self, callee: FuncId) {
        if let Some(c) = self.sched.callers.get_mut(callee.index()) {
            c.insert(self.sched.cur as u32);
        }
    }

    /// What a pointer load through `ptr` reads: at a known place of an object, the pointers
    /// stored at that place or at places not known (and `unknown` when the object may contain
    /// anything); elsewhere, all the object may contain.
    ///
    /// Soundness: every store puts its value in `contents` and, by the place its pointer names,
    /// in that place's field or in `anywhere` (`store_at`); two pointers to one byte that both
    /// know their place name the same key (`field_key`), so a load at a known place sees every
    /// store to that byte. Whatever else makes an object contain something (exposure: `unknown`)
    /// is in `contents`, whose `unknown` the load takes.
    pub(super) fn load_from(&self, program: &Program, ptr: &PtsSet) -> PtsSet {
        let mut out = PtsSet {
            unknown: ptr.unknown,
            ..PtsSet::default()
        };
        for t in ptr.targets.iter() {
            let Target::Obj(o, off) = *t else {
                continue;
            };
            match off.and_then(|off| self.field_key(program, o, off)) {
                Some(k) => {
                    if let Some(s) = self.pt.fields[o.index()].get(&k) {
                        out.union_with(s);
                    }
                    out.union_with(&self.pt.anywhere[o.index()]);
                    out.unknown |= self.pt.contents[o.index()].unknown;
                }
                None => {
                    out.union_with(&self.pt.contents[o.index()]);
                }
            }
        }
        out
    }

    /// All that the objects `ptr` names may contain, anywhere in them (what a byte copy moves).
    pub(super) fn load_whole(&self, ptr: &PtsSet) -> PtsSet {
        let mut out = PtsSet {
            unknown: ptr.unknown,
            ..PtsSet::default()
        };
        for o in ptr.objects() {
            out.union_with(&self.pt.contents[o.index()]);
        }
        out
    }

    /// A pointer store of `val` through `ptr`, at the places `ptr` names.
    pub(super) fn store_into(&mut self, program: &Program, ptr: &PtsSet, val: &PtsSet) -> bool {
        self.store(Some(program), ptr, val)
    }

    /// A store of `val` through `ptr` at places not known (a byte copy).
    pub(super) fn store_anywhere(&mut self, ptr: &PtsSet, val: &PtsSet) -> bool {
        self.store(None, ptr, val)
    }

    /// `store_into` with `program`, `store_anywhere` without.
    fn store(&mut self, program: Option<&Program>, ptr: &PtsSet, val: &PtsSet) -> bool {
        let mut changed = self.write_through(ptr);
        if ptr.unknown {
            changed |= self.expose(val);
        }
        let targets: Vec<(ObjId, Option<u64>)> = ptr.objects_with_offsets();
        for (o, off) in targets {
            let off = if program.is_some() { off } else { None };
            if self.store_at_key(program, o, off, val) {
                changed = true;
            }
        }
        changed
    }

    /// Puts `val` into what `o` may contain at byte `off` (`None`: a place not known).
    pub(super) fn store_at(&mut self, program: &Program, o: ObjId, off: Option<u64>, val: &PtsSet) {
        self.store_at_key(Some(program), o, off, val);
    }

    fn store_at_key(
        &mut self,
        program: Option<&Program>,
        o: ObjId,
        off: Option<u64>,
        val: &PtsSet,
    ) -> bool {
        let key = match (program, off) {
            (Some(p), Some(off)) => self.field_key(p, o, off),
            _ => None,
        };
        let mut grew = self.pt.contents[o.index()].union_with(val);
        grew |= match key {
            Some(k) => (self.pt.fields[o.index()].entry(k).or_default()).union_with(val),
            None => self.pt.anywhere[o.index()].union_with(val),
        };
        if grew {
            self.touch(o);
        }
        grew
    }

    /// The key of byte `off` of `o` in `PointsTo::fields`: the offset with each array index
    /// taken to the first element, so that `&a[1].p` (a constant offset) and `&a[i].p` (an
    /// offset `gep` normalised over the array) name one key; `None` (a place not known) past
    /// the end of an array of the layout. An object without a layout keeps exact offsets
    /// (`exact_bytes`, `gep`), which are their own keys.
    fn field_key(&self, program: &Program, o: ObjId, off: u64) -> Option<u64> {
        match program
            .objects
            .get(o.index())
            .and_then(|x| x.layout.as_ref())
        {
            Some(layout) => canonical_offset(layout, off),
            None => Some(off),
        }
    }

    pub(super) fn gep(
        &self,
        program: &Program,
        base: &PtsSet,
        offset: i64,
        steps: &[u64],
    ) -> PtsSet {
        let mut out = PtsSet {
            unknown: base.unknown,
            ..PtsSet::default()
        };
        for t in base.targets.iter() {
            if let Target::Obj(o, off) = t {
                let layout = program.objects[o.index()].layout.as_ref();
                let new_off = match (off, layout) {
                    (Some(off), Some(layout)) => {
                        let mut cur = i128::from(*off) + i128::from(offset);
                        let mut ok = cur >= 0 && (cur as u64) < layout.size().max(1);
                        for stride in steps {
                            if !ok {
                                break;
                            }
                            match normalize_array_step(layout, cur as u64, *stride) {
                                Some(n) => cur = i128::from(n),
                                None => ok = false,
                            }
                        }
                        ok.then_some(cur as u64)
                    }
                    // A field of a block allocated more than once (`heap_fields`): a
                    // constant offset from the block's start is that field in every block the
                    // site makes; anything further (a walk with `p++`) goes anywhere, so a set
                    // holds at most the block's field offsets.
                    (Some(0), None)
                        if self.heap_fields.get(o.index()) == Some(&true) && steps.is_empty() =>
                    {
                        u64::try_from(offset)
                            .ok()
                            .filter(|&o| o < crate::limits::MAX_SPAN)
                    }
                    (Some(off), None) if self.exact_bytes.get(o.index()) == Some(&true) => {
                        // Untyped bytes: a constant step stays exact within the bound that
                        // the heap layouts use; an array step goes anywhere.
                        let cur = i128::from(*off) + i128::from(offset);
                        (steps.is_empty()
                            && (0..i128::from(crate::limits::MAX_SPAN)).contains(&cur))
                        .then_some(cur as u64)
                    }
                    _ => None,
                };
                out.insert(Target::Obj(*o, new_off));
            }
        }
        out
    }
}

use crate::limits::MAX_INT_RANGES;

/// `off` with every array index of `layout` taken to the first element (see
/// `Solver::field_key`); `None` past the end of an array, or in an array of no stride.
fn canonical_offset(layout: &crate::ir::Layout, off: u64) -> Option<u64> {
    use crate::ir::Layout;
    match layout {
        Layout::Scalar { .. } => Some(off),
        Layout::Struct { fields, .. } => {
            for (foff, f) in fields.iter().rev() {
                if off >= *foff && off - foff < f.size() {
                    return canonical_offset(f, off - foff).map(|n| n + foff);
                }
            }
            // Padding, or past the struct: no field's key.
            Some(off)
        }
        Layout::Array {
            elem,
            stride,
            count,
        } => {
            if *stride == 0 || (*count != 0 && off >= stride.saturating_mul(*count)) {
                return None;
            }
            canonical_offset(elem, off % stride)
        }
    }
}
