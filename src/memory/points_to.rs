//! A flow- and context-insensitive, inclusion-based points-to analysis over the whole program.
//!
//! Invariant: for every pointer value of every execution, the object it points into is in the
//! value's points-to set, or the set is marked `unknown`, which stands for every *exposed* object
//! (one whose address reached code the analysis cannot see: unknown functions, integers, memory
//! written through unknown pointers, non-static globals).
//!
//! `unknown` is every exposed object; an exposed object may contain anything exposed only when
//! memory may be written untracked (`untracked_writes`: a call of a declared function other than
//! `writes_only_args`, a call or creation through a pointer that may name one or be unknown,
//! memory-clobbering assembly, a write through an `unknown` pointer); otherwise its contents are
//! what the program's stores put there.
//!
//! Precision and cost: a set keeps at most `MAX_OFFSETS` (8) known offsets into one object, then
//! "anywhere in it"; the fixpoint is a worklist of functions (`Schedule`): a function is visited
//! again only when something its last visit read grew (its variables, the contents and
//! integer-written ranges of the objects it read, its callees' results, the exposed functions when
//! it calls through an unknown pointer).
//!
//! Exposure: an address becomes an integer through a `ptrtoint` (instruction or constant,
//! `Program::hidden_addrs`), a bitcast to a non-pointer, a non-pointer load that may read pointer
//! bytes (an untyped heap object, an unknown offset, or a range that overlaps a pointer scalar), a
//! pointer stored outside a pointer scalar of a typed object, or a `memcpy` that does not keep
//! layouts; each exposes what it carries. The results of threads (what every thread entry returns,
//! the arguments of `pthread_exit`) are exposed, since `pthread_join` writes them into `*retval` as
//! an unknown pointer. A non-pointer load of an object's pointer bytes exposes its contents (once:
//! the object is marked `leaks`, and `close_exposed` exposes what it gains later), and a pointer
//! load that overlaps bytes a non-constant non-pointer store wrote (`int_written`, moved by
//! `memcpy`/`realloc`/`strcpy`) is `unknown`. Aggregate and vector values are not tracked: what
//! goes into them is exposed and what comes out is `unknown`.
//!
//! Reach (`Reach`): `exposed` is every object code the analysis does not see may get;
//! `thread_exposed` (for the race check) leaves out globals exposed by their linkage alone and
//! arguments of declared functions that keep nothing, since such a function touches its arguments
//! only during the call; `called_back` are the functions that code the analysis does not see is
//! given (an argument, or held one level inside an argument's objects: a `struct sigaction`), which
//! may run at any time in any thread, not those only exposed by linkage, turned into data the
//! program uses, or given to `SYNCHRONOUS_CALLBACKS` (`qsort`, `bsearch`, ...), which call them
//! during the call.
//!
//! The library table: `writes_only_args` lists the library functions that write only through their
//! arguments and keep, call back and leak nothing; `PointsTo::writes_only_args` drops the output
//! functions from it in programs that hand a buffer to stdio (`setvbuf`, `fmemopen`); the variadic
//! arguments of the known ones are exposed (`%p`); `is_sync_function` names the pthread
//! synchronisation functions. Moving these tables into one table of the C library is issue 34's
//! goal.

use super::cells::normalize_array_step;
use crate::ir::{
    Callee, FuncId, Function, InitValue, InstKind, Layout, ObjId, Operand, Program, ScalarKind,
    Terminator, Ty, VarId,
};
use std::collections::BTreeSet;
use std::sync::Arc;

/// What a pointer may point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// Into an object, at a known byte offset (normalized over arrays) or anywhere (`None`).
    Obj(ObjId, Option<u64>),
    /// A function.
    Func(FuncId),
}

/// A points-to set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtsSet {
    /// Known targets, shared between the sets a propagation copies until one of them grows
    /// (most of the fixpoint passes sets along unchanged: copies, phis, arguments, loads).
    pub targets: Arc<BTreeSet<Target>>,
    /// Whether it may also point to any exposed object or function.
    pub unknown: bool,
}

use crate::limits::MAX_OFFSETS;

impl PtsSet {
    fn union_with(&mut self, other: &PtsSet) -> bool {
        let mut changed = false;
        if other.unknown && !self.unknown {
            self.unknown = true;
            changed = true;
        }
        if Arc::ptr_eq(&self.targets, &other.targets) || other.targets.is_empty() {
            return changed;
        }
        if self.targets.is_empty() {
            self.targets = Arc::clone(&other.targets);
            return true;
        }
        let missing = self.missing(other);
        for t in missing {
            changed |= self.insert(t);
        }
        changed
    }

    /// The targets of `other` that this set does not cover, found by one merge of the two
    /// sorted sets (or by lookups when `other` is much smaller).
    fn missing(&self, other: &PtsSet) -> Vec<Target> {
        if other.targets.len().saturating_mul(8) < self.targets.len() {
            return (other.targets.iter())
                .filter(|t| !self.contains(**t))
                .copied()
                .collect();
        }
        let mut out = Vec::new();
        let mut mine = self.targets.iter().peekable();
        // The last object this set holds "anywhere in" that the merge went past.
        let mut anywhere: Option<ObjId> = None;
        for &t in other.targets.iter() {
            while let Some(&&x) = mine.peek() {
                if x >= t {
                    break;
                }
                if let Target::Obj(o, None) = x {
                    anywhere = Some(o);
                }
                mine.next();
            }
            let covered = mine.peek() == Some(&&t)
                || matches!(t, Target::Obj(o, Some(_)) if anywhere == Some(o));
            if !covered {
                out.push(t);
            }
        }
        out
    }

    /// Whether `t` is in the set, or covered by "anywhere in its object".
    fn contains(&self, t: Target) -> bool {
        self.targets.contains(&t)
            || matches!(t, Target::Obj(o, Some(_)) if self.targets.contains(&Target::Obj(o, None)))
    }

    /// Adds a target; whether the set grew. A set holds `Obj(o, None)` or offsets into `o`,
    /// never both, and at most `MAX_OFFSETS` of those.
    fn insert(&mut self, t: Target) -> bool {
        let Target::Obj(o, off) = t else {
            if self.targets.contains(&t) {
                return false;
            }
            return Arc::make_mut(&mut self.targets).insert(t);
        };
        if self.targets.contains(&Target::Obj(o, None)) {
            return false;
        }
        let known = Target::Obj(o, Some(0))..=Target::Obj(o, Some(u64::MAX));
        if off.is_some() {
            if self.targets.contains(&t) {
                return false;
            }
            if self.targets.range(known.clone()).count() < MAX_OFFSETS {
                return Arc::make_mut(&mut self.targets).insert(t);
            }
        }
        let offsets: Vec<Target> = self.targets.range(known).copied().collect();
        let targets = Arc::make_mut(&mut self.targets);
        for k in offsets {
            targets.remove(&k);
        }
        targets.insert(Target::Obj(o, None))
    }

    fn unknown() -> PtsSet {
        PtsSet {
            targets: Arc::default(),
            unknown: true,
        }
    }

    /// The objects (not functions) it names.
    pub fn objects(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Obj(o, _) => Some(*o),
            Target::Func(_) => None,
        })
    }

    /// The objects it names, with their offsets.
    pub fn objects_at(&self) -> impl Iterator<Item = (ObjId, Option<u64>)> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Obj(o, off) => Some((*o, *off)),
            Target::Func(_) => None,
        })
    }

    /// The objects it names, with their offsets (collected, so that the set may be changed).
    fn objects_with_offsets(&self) -> Vec<(ObjId, Option<u64>)> {
        self.targets
            .iter()
            .filter_map(|t| match t {
                Target::Obj(o, off) => Some((*o, *off)),
                Target::Func(_) => None,
            })
            .collect()
    }

    /// The functions it names.
    pub fn funcs(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Func(f) => Some(*f),
            Target::Obj(..) => None,
        })
    }
}

/// How far an exposure reaches: whether other threads may get the objects (`shared`) and
/// whether code the analysis does not see may call the functions, at any time (`called`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    shared: bool,
    called: bool,
}

impl Reach {
    /// A global's linkage, or an argument of a declared function that keeps nothing (whose
    /// callbacks `call_back` finds): neither.
    const LINKAGE: Reach = Reach {
        shared: false,
        called: false,
    };
    /// An address turned into data the program itself uses (an integer, the bytes of a copy, a
    /// thread's result, a variadic argument): it may reach another thread, but comes back to
    /// the program's own code (a call through it is a call of the program).
    const LEAKED: Reach = Reach {
        shared: true,
        called: false,
    };
    /// Code the analysis does not see gets it (an unknown call target or thread, memory written
    /// through an unknown pointer, a kept argument): both.
    const THREAD: Reach = Reach {
        shared: true,
        called: true,
    };
}

/// The points-to facts of a program.
#[derive(Clone, Debug, Default)]
pub struct PointsTo {
    /// `vars[f][v]`: the points-to set of var `v` of function `f`.
    vars: Vec<Vec<PtsSet>>,
    /// What each object may contain (pointers stored into it).
    contents: Vec<PtsSet>,
    /// Return values of each function.
    rets: Vec<PtsSet>,
    /// Objects whose address is exposed to code the analysis cannot see.
    pub exposed: BTreeSet<ObjId>,
    /// The exposed objects whose address may reach another thread: all of `exposed` but the
    /// globals exposed by their linkage alone, those exposed only as arguments of declared
    /// functions that keep no pointer (`call`), and what only such objects contain. The race
    /// check's sharing starts from these (a library function touches what its arguments point
    /// to during the call and keeps nothing, the assumption its report states).
    pub thread_exposed: BTreeSet<ObjId>,
    /// The exposed objects that code the analysis does not see is given (`Reach::called`): the
    /// functions they hold are called back.
    called_exposed: BTreeSet<ObjId>,
    /// Defined functions whose address is exposed.
    pub exposed_funcs: BTreeSet<FuncId>,
    /// The exposed functions that code the analysis does not see may call at any time, in any
    /// thread (`Reach::called`): those given to it (an argument, or memory an argument reaches),
    /// not those exposed only as a global's linkage (no other code names the program's globals,
    /// README's "the program is all the code that calls it"), nor callbacks of the functions
    /// that call them during the call (`Props::synchronous_callbacks`), nor addresses turned into data
    /// the program itself uses (`Reach::LEAKED`: a call through them is the program's). The
    /// race check runs these in any thread.
    pub called_back: BTreeSet<FuncId>,
    /// `leaks[o]`: an integer read of `o` exposed what it contains (`expose_bytes_read`).
    /// Invariant (outside `visit_inst`): what a leaking object contains is exposed;
    /// `close_exposed` restores it when the contents grow.
    leaks: Vec<bool>,
    /// `int_written[o]`: the byte ranges (offset, or anywhere, and size) of `o` that a
    /// non-pointer store may have written.
    /// Invariant: a pointer load that overlaps one of them gets `unknown` (see `laundered_load`).
    int_written: Vec<BTreeSet<(Option<u64>, u64)>>,
    /// Whether the program may hand its own memory to stdio (`setvbuf`, `fmemopen`).
    stdio_buffers: bool,
    /// The declared functions assumed to write no memory (`--assume-no-write`), sorted.
    no_write: Vec<FuncId>,
    /// Which functions to visit again (empty after `compute`).
    sched: Schedule,
    /// `exact_bytes[o]`: `o` has no layout but keeps exact byte offsets (`memory::heap`).
    exact_bytes: Vec<bool>,
    /// Whether memory may be written in ways the analysis does not follow: code it does not see
    /// runs (an unknown function, a thread of unknown code, memory-clobbering assembly), or the
    /// program writes through an `unknown` pointer. Only then may exposed objects contain
    /// anything exposed (`close_exposed`).
    untracked_writes: bool,
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
struct Schedule {
    dirty: Vec<bool>,
    cur: usize,
    readers: Vec<BTreeSet<u32>>,
    callers: Vec<BTreeSet<u32>>,
    unknown_callers: BTreeSet<u32>,
    exposed_funcs_changed: bool,
    reclose: bool,
}

impl PointsTo {
    /// Runs the analysis to its fixpoint. Pointers into an object `o` without a layout keep
    /// their byte offsets when `exact_bytes[o]` (a heap object allocated once, whose layout
    /// `memory::heap` then infers from the offsets its accesses use).
    pub fn compute(program: &Program, exact_bytes: &[bool]) -> PointsTo {
        let mut pt = PointsTo {
            exact_bytes: exact_bytes.to_vec(),
            vars: program
                .funcs
                .iter()
                .map(|f| vec![PtsSet::default(); f.vars.len()])
                .collect(),
            contents: vec![PtsSet::default(); program.objects.len()],
            rets: vec![PtsSet::default(); program.funcs.len()],
            leaks: vec![false; program.objects.len()],
            int_written: vec![BTreeSet::new(); program.objects.len()],
            stdio_buffers: (program.funcs.iter())
                .any(|f| f.library_props().is_some_and(|p| p.stdio_buffer)),
            no_write: program.assumed_no_write.clone(),
            ..PointsTo::default()
        };
        // Soundness: `dlsym` hands out any function of external linkage by its name, so code
        // the analysis does not see may call every one of them.
        let by_name =
            (program.funcs.iter()).any(|f| f.library_props().is_some_and(|p| p.finds_functions));
        if by_name {
            for (i, f) in program.funcs.iter().enumerate() {
                if f.is_defined && !f.is_internal {
                    pt.exposed_funcs.insert(FuncId::from(i));
                    pt.called_back.insert(FuncId::from(i));
                }
            }
        }
        for g in &program.globals {
            if !g.is_internal {
                pt.exposed.insert(g.obj);
            }
            match &g.init {
                None => pt.contents[g.obj.index()].unknown = true,
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
                                pt.int_written[g.obj.index()]
                                    .insert((Some(c.offset), u64::from(c.size)));
                                None
                            }
                            InitValue::Int(_) => None,
                        };
                        if let Some(t) = t {
                            pt.contents[g.obj.index()].insert(t);
                        }
                    }
                }
            }
        }
        // Soundness: an address that a constant hides in an integer (`(long)&x`, in code or in
        // an initialiser) or in a value the lowering does not track comes back, if ever, as a
        // pointer the analysis sees as `unknown`; exposing it puts it in what `unknown` covers.
        for op in &program.hidden_addrs {
            let s = pt.of(program, FuncId(0), op);
            pt.expose_to(&s, Reach::LEAKED);
        }
        // Soundness: `main` may be given pointers (argv) by the environment.
        if let Some(main) = program.main {
            for p in &program.funcs[main.index()].params {
                pt.vars[main.index()][p.index()] = PtsSet::unknown();
            }
        }
        pt.sched = Schedule {
            dirty: vec![true; program.funcs.len()],
            readers: vec![BTreeSet::new(); program.objects.len()],
            callers: vec![BTreeSet::new(); program.funcs.len()],
            reclose: true,
            ..Schedule::default()
        };
        loop {
            let mut visited = false;
            for fi in 0..program.funcs.len() {
                if std::mem::take(&mut pt.sched.dirty[fi]) {
                    pt.sched.cur = fi;
                    pt.visit_function(program, FuncId(fi as u32));
                    visited = true;
                }
            }
            if std::mem::take(&mut pt.sched.reclose) {
                pt.close_exposed(program);
                pt.sched.reclose = false;
            }
            if std::mem::take(&mut pt.sched.exposed_funcs_changed) {
                for f in std::mem::take(&mut pt.sched.unknown_callers) {
                    pt.sched.dirty[f as usize] = true;
                }
            }
            if !visited && !pt.sched.dirty.iter().any(|d| *d) {
                break;
            }
        }
        pt.sched = Schedule::default();
        pt
    }

    /// The points-to set of an operand of function `f`.
    pub fn of(&self, program: &Program, f: FuncId, op: &Operand) -> PtsSet {
        match op {
            Operand::Var(v) => self.vars[f.index()][v.index()].clone(),
            Operand::GlobalAddr(g, off) => {
                let obj = program.globals[g.index()].obj;
                let t = Target::Obj(obj, u64::try_from(*off).ok());
                PtsSet {
                    targets: Arc::new([t].into_iter().collect()),
                    unknown: false,
                }
            }
            Operand::FuncAddr(func) => PtsSet {
                targets: Arc::new([Target::Func(*func)].into_iter().collect()),
                unknown: false,
            },
            Operand::Null | Operand::Int { .. } => PtsSet::default(),
            Operand::Unknown(_) => PtsSet::unknown(),
        }
    }

    /// The functions a call through `op` in `f` may reach (exposed functions when unknown).
    pub fn callees(&self, program: &Program, f: FuncId, op: &Operand) -> (Vec<FuncId>, bool) {
        let pts = self.of(program, f, op);
        let mut out: BTreeSet<FuncId> = pts.funcs().collect();
        if pts.unknown {
            out.extend(self.exposed_funcs.iter().copied());
        }
        (out.into_iter().collect(), pts.unknown)
    }

    /// Whether the declared function `g` (`func`) writes only what its pointer arguments
    /// reach, in this program (`Props::writes_only_args`), or is assumed to write nothing.
    ///
    /// Soundness: once the program may have handed a buffer of its own to stdio (a call of, or
    /// a pointer to, `setvbuf`, `fmemopen`...), an output function may write that buffer, which
    /// none of its arguments reaches: output functions are then unknown functions, which may
    /// write every exposed object (the buffer reached an unknown function, so it is exposed).
    pub fn writes_only_args(&self, g: FuncId, func: &Function) -> bool {
        (func.library_props())
            .is_some_and(|p| p.writes_only_args && !(self.stdio_buffers && p.stdio_output))
            || self.writes_nothing(g)
    }

    /// Whether the declared function `g` is assumed to write no memory of the program
    /// (`--assume-no-write`, `Program::assumed_no_write`): a user's assumption about code
    /// the analysis does not see, like the harness.
    pub fn writes_nothing(&self, g: FuncId) -> bool {
        self.no_write.binary_search(&g).is_ok()
    }

    /// A write through `ptr`: one through an `unknown` pointer may change any exposed object.
    fn write_through(&mut self, ptr: &PtsSet) -> bool {
        if ptr.unknown {
            self.writes_untracked()
        } else {
            false
        }
    }

    /// Memory may now be written untracked (see `untracked_writes`).
    fn writes_untracked(&mut self) -> bool {
        if self.untracked_writes {
            return false;
        }
        self.untracked_writes = true;
        self.sched.reclose = true;
        true
    }

    /// Records that a non-pointer write of `size` bytes through `ptr` may put pointer bytes
    /// into the objects it names.
    fn int_write(&mut self, ptr: &PtsSet, size: u64) -> bool {
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
    fn add_int_range(&mut self, o: ObjId, off: Option<u64>, size: u64) -> bool {
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
    fn laundered_load(&self, ptr: &PtsSet, size: u64) -> PtsSet {
        let mut out = self.load_from(ptr);
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
    fn copy_bytes(&mut self, dst: &PtsSet, src: &PtsSet) -> bool {
        let moved = self.load_from(src);
        let mut changed = self.store_into(dst, &moved);
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

    fn add(&mut self, f: FuncId, dst: VarId, set: &PtsSet) -> bool {
        let changed = self.vars[f.index()][dst.index()].union_with(set);
        if changed {
            self.mark(f.index());
        }
        changed
    }

    fn mark(&mut self, f: usize) {
        if let Some(d) = self.sched.dirty.get_mut(f) {
            *d = true;
        }
    }

    /// The contents or integer-written ranges of `o` grew: its readers run again.
    fn touch(&mut self, o: ObjId) {
        if self.sched.readers.is_empty() {
            return;
        }
        for &f in &self.sched.readers[o.index()] {
            self.sched.dirty[f as usize] = true;
        }
        if self.leaks[o.index()] || self.exposed.contains(&o) {
            self.sched.reclose = true;
        }
    }

    /// The function being visited reads the contents of the objects `p` names.
    fn reads(&mut self, p: &PtsSet) {
        if self.sched.readers.is_empty() {
            return;
        }
        let cur = self.sched.cur as u32;
        for o in p.objects() {
            self.sched.readers[o.index()].insert(cur);
        }
    }

    /// The function being visited reads the result of `callee`.
    fn reads_result_of(&mut self, callee: FuncId) {
        if let Some(c) = self.sched.callers.get_mut(callee.index()) {
            c.insert(self.sched.cur as u32);
        }
    }

    fn expose(&mut self, set: &PtsSet) -> bool {
        self.expose_to(set, Reach::THREAD)
    }

    /// Exposes what `set` names, as far as `reach` says (see [`Reach`]).
    fn expose_to(&mut self, set: &PtsSet, reach: Reach) -> bool {
        let mut changed = false;
        for t in set.targets.iter() {
            changed |= match t {
                Target::Obj(o, _) => {
                    let mut new = self.exposed.insert(*o);
                    new |= reach.called && self.called_exposed.insert(*o);
                    new |= reach.shared && self.thread_exposed.insert(*o);
                    self.sched.reclose |= new;
                    new
                }
                Target::Func(func) => {
                    let mut new = self.exposed_funcs.insert(*func);
                    let cb = reach.called && self.called_back.insert(*func);
                    new |= cb;
                    self.sched.exposed_funcs_changed |= new;
                    new
                }
            };
        }
        changed
    }

    /// A declared function that keeps nothing gets `set`: it may call the functions `set`
    /// names, and those the objects it names hold (a `struct sigaction`'s handler, an
    /// allocator's table), at any time (`called_back`).
    fn call_back(&mut self, set: &PtsSet) -> bool {
        self.reads(set);
        let mut funcs: Vec<FuncId> = set.funcs().collect();
        for o in set.objects() {
            funcs.extend(self.contents[o.index()].funcs());
        }
        let mut changed = false;
        for f in funcs {
            let new = self.called_back.insert(f);
            self.sched.exposed_funcs_changed |= new;
            changed |= new;
        }
        changed
    }

    /// How far an exposed object reaches (what its contents are exposed as).
    fn reach_of(&self, o: ObjId) -> Reach {
        Reach {
            shared: self.thread_exposed.contains(&o),
            called: self.called_exposed.contains(&o),
        }
    }

    /// Exposed objects expose what they contain, and may contain anything exposed when memory
    /// may be written untracked (`untracked_writes`).
    ///
    /// Soundness: only code the analysis does not see and writes through an `unknown` pointer
    /// put pointers into an exposed object without a store the analysis follows into that
    /// object; without either, its contents are what the program's own stores put there. A
    /// constant global (a `const` ops table handed to `register_chrdev`) is never written:
    /// writing an object defined `const` is undefined, and it lives in read-only memory.
    fn close_exposed(&mut self, program: &Program) -> bool {
        let constant = |o: usize| match program.objects[o].kind {
            crate::ir::ObjectKind::Global(g) => program.globals[g.index()].is_constant,
            _ => false,
        };
        let mut changed = false;
        loop {
            let mut round = false;
            let exposed: Vec<ObjId> = self.exposed.iter().copied().collect();
            for o in exposed {
                let c = self.contents[o.index()].clone();
                round |= self.expose_to(&c, self.reach_of(o));
                if self.untracked_writes
                    && !self.contents[o.index()].unknown
                    && !constant(o.index())
                {
                    self.contents[o.index()].unknown = true;
                    self.touch(o);
                    round = true;
                }
            }
            for o in 0..self.leaks.len() {
                if self.leaks[o] {
                    let c = self.contents[o].clone();
                    round |= self.expose_to(&c, Reach::LEAKED);
                }
            }
            if !round {
                break;
            }
            changed = true;
        }
        changed
    }

    /// A load of `size` bytes that is not a pointer load: every object it may read pointer
    /// bytes from exposes its contents.
    ///
    /// Soundness: an integer (or aggregate, or float) read of a pointer's bytes carries its
    /// address, which may come back as a pointer the analysis sees as `unknown`. A read that
    /// covers no pointer scalar of a typed object reads only bytes that no pointer was stored
    /// into without exposure (`expose_if_untyped_store`, `MemCopy`); an untyped object (heap
    /// memory), an unknown offset or a read that overlaps a pointer scalar exposes everything
    /// the object may hold.
    fn expose_bytes_read(&mut self, program: &Program, ptr: &PtsSet, size: u64) -> bool {
        let mut changed = false;
        for t in ptr.targets.iter().copied().collect::<Vec<_>>() {
            let Target::Obj(o, off) = t else { continue };
            if self.contents[o.index()].targets.is_empty() {
                continue;
            }
            let layout = program.objects[o.index()].layout.as_ref();
            let clean = match (layout, off) {
                (Some(l), Some(off)) => !overlaps_ptr(l, i128::from(off), i128::from(size)),
                _ => false,
            };
            // Cost: an object read as integers on every visit of its readers (kona reads
            // its big tables so) is exposed once, then again only when its contents grow.
            if !clean && !self.leaks[o.index()] {
                self.leaks[o.index()] = true;
                let c = self.contents[o.index()].clone();
                changed |= self.expose_to(&c, Reach::LEAKED);
            }
        }
        changed
    }

    /// A pointer store: its value is exposed where it lands outside a pointer scalar of a typed
    /// object (a `long` cell written through `*(int **)&l`), since integer loads of typed bytes
    /// do not look for pointers. Untyped objects are left to `expose_bytes_read`.
    fn expose_if_untyped_store(
        &mut self,
        program: &Program,
        ptr: &PtsSet,
        val: &PtsSet,
        size: u64,
    ) -> bool {
        if val.targets.is_empty() {
            return false;
        }
        let misplaced = ptr.objects_at().any(|(o, off)| {
            match (program.objects[o.index()].layout.as_ref(), off) {
                (None, _) => false,
                (Some(l), Some(off)) => !is_ptr_scalar_at(l, off, size),
                (Some(_), None) => true,
            }
        });
        if misplaced {
            self.expose_to(val, Reach::LEAKED)
        } else {
            false
        }
    }

    fn load_from(&self, ptr: &PtsSet) -> PtsSet {
        let mut out = PtsSet {
            unknown: ptr.unknown,
            ..PtsSet::default()
        };
        for o in ptr.objects() {
            out.union_with(&self.contents[o.index()]);
        }
        out
    }

    fn store_into(&mut self, ptr: &PtsSet, val: &PtsSet) -> bool {
        let mut changed = self.write_through(ptr);
        if ptr.unknown {
            changed |= self.expose(val);
        }
        for o in ptr.objects().collect::<Vec<_>>() {
            if self.contents[o.index()].union_with(val) {
                self.touch(o);
                changed = true;
            }
        }
        changed
    }

    fn gep(&self, program: &Program, base: &PtsSet, offset: i64, steps: &[u64]) -> PtsSet {
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
                    (Some(off), None) if self.exact_bytes.get(o.index()) == Some(&true) => {
                        // Untyped bytes: a constant step stays exact within the bound that
                        // the heap layouts use; an array step goes anywhere.
                        let cur = i128::from(*off) + i128::from(offset);
                        (steps.is_empty() && (0..i128::from(super::heap::MAX_SPAN)).contains(&cur))
                            .then_some(cur as u64)
                    }
                    _ => None,
                };
                out.insert(Target::Obj(*o, new_off));
            }
        }
        out
    }

    fn visit_function(&mut self, program: &Program, f: FuncId) -> bool {
        let func = &program.funcs[f.index()];
        let mut changed = false;
        for block in &func.blocks {
            for phi in &block.phis {
                for (_, op) in &phi.incoming {
                    let s = self.of(program, f, op);
                    changed |= self.add(f, phi.dst, &s);
                }
            }
            for inst in &block.insts {
                changed |= self.visit_inst(program, f, &inst.kind);
            }
            if let Terminator::Ret(Some(op)) = &block.term {
                let s = self.of(program, f, op);
                if self.rets[f.index()].union_with(&s) {
                    changed = true;
                    let callers: Vec<u32> = self.sched.callers[f.index()].iter().copied().collect();
                    for c in callers {
                        self.mark(c as usize);
                    }
                }
            }
        }
        changed
    }

    fn call(
        &mut self,
        program: &Program,
        f: FuncId,
        callee: FuncId,
        dst: Option<VarId>,
        args: &[Operand],
    ) -> bool {
        let mut changed = false;
        let target = &program.funcs[callee.index()];
        if target.is_defined {
            for (i, a) in args.iter().enumerate() {
                let s = self.of(program, f, a);
                match target.params.get(i) {
                    Some(p) => changed |= self.add(callee, *p, &s),
                    // Soundness: extra variadic arguments are read through `va_arg`, which the
                    // front end lowers to unknown values; their targets escape.
                    None => changed |= self.expose_to(&s, Reach::LEAKED),
                }
            }
            if let Some(d) = dst {
                self.reads_result_of(callee);
                let r = self.rets[callee.index()].clone();
                changed |= self.add(f, d, &r);
            }
        } else {
            let known = self.writes_only_args(callee, target);
            let props = target.library_props();
            if !known {
                changed |= self.writes_untracked();
            }
            for (i, a) in args.iter().enumerate() {
                let s = self.of(program, f, a);
                // Soundness: a variadic argument of a known function (`printf("%p", &x)`,
                // `sprintf`) may be turned into data (text) that comes back as a pointer the
                // analysis sees as `unknown` (`sscanf("%p")`): its targets are exposed.
                // A function assumed to write nothing may still keep a pointer and hand it to
                // a callback (`request_irq(irq, handler, .., dev)`): its targets are exposed.
                // For the race check, such a function touches its arguments only during the
                // call and keeps nothing (its stated assumption): the exposure reaches no
                // other thread, unless the user said the function keeps its pointers.
                let kept = self.writes_nothing(callee);
                if !known || kept || (target.is_variadic && i >= target.params.len()) {
                    if kept {
                        changed |= self.expose(&s);
                    } else {
                        changed |= self.expose_to(&s, Reach::LINKAGE);
                        if !props.is_some_and(|p| p.synchronous_callbacks) {
                            changed |= self.call_back(&s);
                        }
                    }
                }
            }
            if known && props.is_some_and(|p| p.copies_bytes) {
                if let [d, s, ..] = args {
                    // Soundness: `strcpy` and friends copy bytes, which may be a pointer's
                    // (`strncpy((char *)&q, (char *)&p, 8)`): they move points-to contents like
                    // `MemCopy`. The copied bytes may also be read back as an integer of a
                    // character array, which no pointer scalar marks: they are exposed.
                    let (d, s) = (self.of(program, f, d), self.of(program, f, s));
                    self.reads(&s);
                    changed |= self.copy_bytes(&d, &s);
                    let moved = self.load_from(&s);
                    changed |= self.expose_to(&moved, Reach::LEAKED);
                }
            }
            if let Some(d) = dst {
                if func_returns_ptr(program, callee) || !known {
                    // Soundness: a known function may return a pointer into its arguments
                    // (`strchr`, `strcpy`); an unknown one anything exposed.
                    let mut s = PtsSet::unknown();
                    for a in args {
                        s.union_with(&self.of(program, f, a));
                    }
                    changed |= self.add(f, d, &s);
                }
            }
        }
        changed
    }

    fn visit_inst(&mut self, program: &Program, f: FuncId, kind: &InstKind) -> bool {
        let mut changed = false;
        match kind {
            InstKind::Copy { dst, src } => {
                let s = self.of(program, f, src);
                changed |= self.add(f, *dst, &s);
            }
            InstKind::Select { dst, t, f: e, .. } => {
                let mut s = self.of(program, f, t);
                s.union_with(&self.of(program, f, e));
                changed |= self.add(f, *dst, &s);
            }
            InstKind::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let b = self.of(program, f, base);
                let steps: Vec<u64> = indices.iter().map(|(_, s)| *s).collect();
                let s = self.gep(program, &b, *offset, &steps);
                changed |= self.add(f, *dst, &s);
            }
            InstKind::Alloca { dst, obj }
            | InstKind::HeapAlloc {
                dst,
                obj,
                from: None,
                ..
            } => {
                let s = PtsSet {
                    targets: Arc::new([Target::Obj(*obj, Some(0))].into_iter().collect()),
                    unknown: false,
                };
                changed |= self.add(f, *dst, &s);
            }
            InstKind::HeapAlloc {
                dst,
                obj,
                from: Some(old),
                ..
            } => {
                let s = PtsSet {
                    targets: Arc::new([Target::Obj(*obj, Some(0))].into_iter().collect()),
                    unknown: false,
                };
                changed |= self.add(f, *dst, &s);
                let old = self.of(program, f, old);
                self.reads(&old);
                changed |= self.copy_bytes(&s, &old);
            }
            InstKind::Load {
                dst, ptr, ty, size, ..
            } => {
                let p = self.of(program, f, ptr);
                self.reads(&p);
                if *ty == Ty::Ptr {
                    let s = self.laundered_load(&p, u64::from(*size));
                    changed |= self.add(f, *dst, &s);
                } else {
                    changed |= self.expose_bytes_read(program, &p, u64::from(*size));
                }
            }
            InstKind::Store {
                ptr, val, ty, size, ..
            } => {
                let p = self.of(program, f, ptr);
                let v = self.of(program, f, val);
                changed |= self.store_into(&p, &v);
                if *ty != Ty::Ptr && !is_constant(val) {
                    changed |= self.int_write(&p, u64::from(*size));
                }
                if *ty == Ty::Ptr {
                    changed |= self.expose_if_untyped_store(program, &p, &v, u64::from(*size));
                }
            }
            InstKind::AtomicRmw {
                dst,
                ptr,
                val,
                bits,
                ..
            } => {
                let p = self.of(program, f, ptr);
                self.reads(&p);
                let size = u64::from(bits.div_ceil(8));
                let old = match bits {
                    0 => self.laundered_load(&p, POINTER_SIZE),
                    _ => self.load_from(&p),
                };
                changed |= self.add(f, *dst, &old);
                let v = self.of(program, f, val);
                changed |= self.store_into(&p, &v);
                if *bits != 0 {
                    changed |= self.expose_bytes_read(program, &p, size);
                    if !is_constant(val) {
                        changed |= self.int_write(&p, size);
                    }
                }
            }
            InstKind::CmpXchg {
                old,
                ptr,
                new,
                bits,
                ..
            } => {
                let p = self.of(program, f, ptr);
                self.reads(&p);
                let size = u64::from(bits.div_ceil(8));
                let o = match bits {
                    0 => self.laundered_load(&p, POINTER_SIZE),
                    _ => self.load_from(&p),
                };
                changed |= self.add(f, *old, &o);
                let v = self.of(program, f, new);
                changed |= self.store_into(&p, &v);
                if *bits != 0 {
                    changed |= self.expose_bytes_read(program, &p, size);
                    if !is_constant(new) {
                        changed |= self.int_write(&p, size);
                    }
                }
            }
            InstKind::MemCopy { dst, src, .. } => {
                let d = self.of(program, f, dst);
                let s = self.of(program, f, src);
                self.reads(&s);
                changed |= self.copy_bytes(&d, &s);
                let moved = self.load_from(&s);
                if !moved.targets.is_empty() && !copy_keeps_types(program, &d, &s) {
                    // Soundness: pointer bytes copied where the layout does not put a pointer
                    // (`memcpy(&l, &p, 8)` into a `long`) may be read back as an integer, which
                    // a later integer load does not see: they are exposed here.
                    changed |= self.expose_to(&moved, Reach::LEAKED);
                }
            }
            InstKind::Cast { dst, op, src, .. } => match op {
                // Soundness: `Other` from a pointer (a bitcast to a vector) hides the address
                // like `ptrtoint`; `Other` to a pointer rebuilds one like `inttoptr`.
                crate::ir::CastOp::PtrToInt | crate::ir::CastOp::Other => {
                    let s = self.of(program, f, src);
                    changed |= self.expose_to(&s, Reach::LEAKED);
                    if program.funcs[f.index()].vars[dst.index()].ty == Ty::Ptr {
                        changed |= self.add(f, *dst, &PtsSet::unknown());
                    }
                }
                crate::ir::CastOp::IntToPtr => {
                    changed |= self.add(f, *dst, &PtsSet::unknown());
                }
                _ => {}
            },
            InstKind::Call { dst, callee, args } => match callee {
                Callee::Direct(g) => changed |= self.call(program, f, *g, *dst, args),
                Callee::Indirect(op) => {
                    let (targets, unknown) = self.callees(program, f, op);
                    if unknown {
                        self.sched.unknown_callers.insert(self.sched.cur as u32);
                    }
                    for g in targets {
                        changed |= self.call(program, f, g, *dst, args);
                    }
                    if unknown {
                        changed |= self.writes_untracked();
                        for a in args {
                            let s = self.of(program, f, a);
                            changed |= self.expose(&s);
                        }
                        if let Some(d) = dst {
                            changed |= self.add(f, *d, &PtsSet::unknown());
                        }
                    }
                }
            },
            InstKind::ThreadCreate { entry, arg, .. } => {
                let (targets, unknown) = self.callees(program, f, entry);
                if unknown {
                    self.sched.unknown_callers.insert(self.sched.cur as u32);
                }
                let a = self.of(program, f, arg);
                // Soundness: an entry the analysis does not see (declared only, or an unknown
                // pointer that may name one) gets the argument as unknown code does.
                if unknown || targets.iter().any(|g| !program.funcs[g.index()].is_defined) {
                    changed |= self.writes_untracked();
                    changed |= self.expose(&a);
                }
                for g in targets {
                    let func = &program.funcs[g.index()];
                    if let Some(p) = func.params.first() {
                        changed |= self.add(g, *p, &a);
                    }
                    // Soundness: what the entry returns is the thread's result, which
                    // `pthread_join` writes into the joiner's `*retval` as a pointer the analysis
                    // sees as `unknown` (below); exposing it puts it in what `unknown` covers.
                    // The argument of `pthread_exit`, the other way a thread's result leaves it,
                    // is exposed by the front end (a `ptrtoint` before the thread's end).
                    self.reads_result_of(g);
                    let r = self.rets[g.index()].clone();
                    changed |= self.expose_to(&r, Reach::LEAKED);
                }
            }
            InstKind::ThreadJoin { retval, .. } => {
                // Soundness: the joined thread's result is any pointer: every thread's results
                // (entry returns, `pthread_exit` arguments) are exposed.
                let p = self.of(program, f, retval);
                changed |= self.store_into(&p, &PtsSet::unknown());
            }
            InstKind::Nondet {
                dst, ty: Ty::Ptr, ..
            } => {
                changed |= self.add(f, *dst, &PtsSet::unknown());
            }
            InstKind::Havoc {
                dst,
                clobbers_memory,
                ..
            } => {
                if let Some(d) = dst {
                    if program.funcs[f.index()].vars[d.index()].ty == Ty::Ptr {
                        changed |= self.add(f, *d, &PtsSet::unknown());
                    }
                }
                if *clobbers_memory {
                    changed |= self.writes_untracked();
                }
            }
            _ => {}
        }
        changed
    }
}

/// Whether bytes `[off, off + size)` of an object of this layout overlap a pointer scalar
/// (conservatively true for a range across array elements that hold pointers).
fn overlaps_ptr(layout: &Layout, off: i128, size: i128) -> bool {
    let total = i128::from(layout.size().min(i64::MAX as u64));
    if off + size <= 0 || (off >= total && total > 0) {
        return false;
    }
    match layout {
        Layout::Scalar { kind, .. } => *kind == ScalarKind::Ptr,
        Layout::Struct { fields, .. } => fields
            .iter()
            .any(|(fo, fl)| overlaps_ptr(fl, off - i128::from(*fo), size)),
        Layout::Array { elem, stride, .. } => {
            let stride = i128::from(*stride);
            if stride > 0 && off >= 0 && size <= stride && off % stride + size <= stride {
                overlaps_ptr(elem, off % stride, size)
            } else {
                has_ptr(layout)
            }
        }
    }
}

/// Whether a layout holds a pointer scalar anywhere.
fn has_ptr(layout: &Layout) -> bool {
    match layout {
        Layout::Scalar { kind, .. } => *kind == ScalarKind::Ptr,
        Layout::Struct { fields, .. } => fields.iter().any(|(_, l)| has_ptr(l)),
        Layout::Array { elem, .. } => has_ptr(elem),
    }
}

/// Whether a pointer scalar of `size` bytes starts exactly at `off`.
fn is_ptr_scalar_at(layout: &Layout, off: u64, size: u64) -> bool {
    match layout {
        Layout::Scalar { size: s, kind, .. } => {
            off == 0 && u64::from(*s) == size && *kind == ScalarKind::Ptr
        }
        Layout::Struct { fields, .. } => fields.iter().any(|(fo, fl)| {
            off >= *fo && off < fo + fl.size().max(1) && is_ptr_scalar_at(fl, off - fo, size)
        }),
        Layout::Array { elem, stride, .. } => {
            *stride > 0 && is_ptr_scalar_at(elem, off % stride, size)
        }
    }
}

/// Whether a copy from `src` to `dst` keeps pointer bytes where integer loads look for them:
/// into untyped memory only (whose integer loads `expose_bytes_read` checks), or between
/// places of one layout at one offset (a struct assignment), where pointer bytes stay in
/// pointer scalars.
fn copy_keeps_types(program: &Program, dst: &PtsSet, src: &PtsSet) -> bool {
    if dst.unknown || src.unknown {
        return false;
    }
    let layout = |o: ObjId| program.objects[o.index()].layout.as_ref();
    if dst.objects_at().all(|(o, _)| layout(o).is_none()) {
        return true;
    }
    let mut all = (dst.objects_at().chain(src.objects_at())).map(|(o, off)| (layout(o), off));
    let Some(first) = all.next() else {
        return true;
    };
    let same = |(l, off): (Option<&Layout>, Option<u64>)| {
        off == first.1 && l.zip(first.0).is_some_and(|(l, f)| l.same_shape(f))
    };
    first.0.is_some() && first.1.is_some() && all.all(same)
}

use crate::limits::MAX_INT_RANGES;

/// The size of a pointer in bytes (the targets are 64-bit).
const POINTER_SIZE: u64 = 8;

/// Whether a stored operand is a constant, which carries no address.
fn is_constant(op: &Operand) -> bool {
    matches!(op, Operand::Int { .. } | Operand::Null)
}

fn func_returns_ptr(program: &Program, f: FuncId) -> bool {
    program.funcs[f.index()].ret == Some(Ty::Ptr)
}

impl PointsTo {
    /// What object `o` may contain.
    pub fn contents(&self, o: ObjId) -> &PtsSet {
        &self.contents[o.index()]
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::testing::{func, with_facts};
    use crate::ir::{BlockId, InstKind, Operand};
    use crate::memory::CellId;

    /// An object read as integers exposes what it holds then (`a`) and what it gains later
    /// (`b`, stored after the read's function was visited), though the read is not visited again
    /// for it.
    #[test]
    fn what_an_integer_read_exposes_grows_with_the_contents() {
        let src = "static int a, b;\n\
                   static int *box[2] = {&a, 0};\n\
                   long peek(void) { return *(volatile long *)box; }\n\
                   void put(void) { box[1] = &b; }\n\
                   int main(void) { long v = peek(); put(); return (int)v; }\n";
        with_facts(src, |program, facts| {
            let obj = |n: &str| program.globals.iter().find(|g| g.name == n).unwrap().obj;
            assert!(facts.memory.pts.exposed.contains(&obj("a")));
            assert!(facts.memory.pts.exposed.contains(&obj("b")));
            assert!(!facts.memory.pts.exposed.contains(&obj("box")));
        });
    }

    /// The cells that the stores of `size` bytes of a constant in `main` may write.
    fn stores_of_constants(src: &str, size: u32) -> Vec<Vec<String>> {
        with_facts(src, |program, facts| {
            let main = func(program, "main");
            let mut out = Vec::new();
            for (bi, b) in program.funcs[main.index()].blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    if let InstKind::Store {
                        val: Operand::Int { .. },
                        size: s,
                        ..
                    } = inst.kind
                    {
                        if s == size {
                            let a = facts.access(main, BlockId(bi as u32), ii as u32);
                            let name = |c: &CellId| facts.memory.cells.info(*c).name.clone();
                            out.push(a.exact.iter().chain(&a.clobber).map(name).collect());
                        }
                    }
                }
            }
            out
        })
    }

    #[test]
    fn a_pointer_walked_past_a_buffer_may_reach_the_next_field() {
        // The walk gains an offset per visit; past `MAX_OFFSETS` it is "anywhere in `b`",
        // which must still cover `len` (gcc -O0 writes `len` when `data` has no zero).
        let src = r#"
            static struct buf { char data[4096]; int len; } b;
            int main(void) {
                char *p = b.data;
                while (*p) p++;
                *p = 'x';
                return b.len;
            }
        "#;
        let stores = stores_of_constants(src, 1);
        assert_eq!(stores.len(), 1, "{stores:?}");
        assert!(stores[0].iter().any(|n| n == "b.len"), "{stores:?}");
    }

    #[test]
    fn a_result_that_grows_later_reaches_the_caller() {
        // `&y` reaches `q` through two copies in functions visited after the ones that read
        // their results, so it arrives in `get`'s result passes after `main` settled: the
        // worklist must visit `main` again because its callee's result grew.
        let src = r#"
            static int x, y, *q = &x, *q2, *q3;
            static int *get(void);
            static void h2(void);
            static void h1(void);
            static void set(void);
            int main(void) { int *p = get(); *p = 1; h2(); h1(); set(); return 0; }
            static int *get(void) { return q; }
            static void h2(void) { q = q2; }
            static void h1(void) { q2 = q3; }
            static void set(void) { q3 = &y; }
        "#;
        let stores = stores_of_constants(src, 4);
        assert!(
            stores
                .iter()
                .any(|s| s.iter().any(|n| n == "y") && s.iter().any(|n| n == "x")),
            "{stores:?}"
        );
    }
}
