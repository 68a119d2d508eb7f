//! What each instruction and call adds to the points-to sets: the constraints of the analysis,
//! applied in place by the solver's visits of a function.
//!
//! Invariant: every instruction kind is named (no wildcard arm): one that moves no pointer says
//! so and why, so a new kind does not compile until its effect on the sets is written down.

use super::exposure::copy_keeps_types;
use super::movers::is_mover;
use super::solver::Solver;
use super::{PtsSet, Reach, Target, POINTER_SIZE};
use crate::ir::lib::{CallbackArgs, ParamFrom};
use crate::ir::{Callee, FuncId, InstKind, Operand, Program, Terminator, Ty, VarId};
use std::sync::Arc;

impl Solver {
    pub(super) fn visit_function(&mut self, program: &Program, f: FuncId) -> bool {
        let func = &program.funcs[f.index()];
        let mut changed = false;
        for block in &func.blocks {
            for phi in &block.phis {
                for (_, op) in &phi.incoming {
                    let s = self.pt.of(program, f, op);
                    changed |= self.add(f, phi.dst, &s);
                }
            }
            for inst in &block.insts {
                changed |= self.visit_inst(program, f, &inst.kind);
            }
            if let Terminator::Ret(Some(op)) = &block.term {
                let s = self.pt.of(program, f, op);
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

    pub(super) fn call(
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
                let s = self.pt.of(program, f, a);
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
            let known = self.pt.writes_only_args(callee, target);
            let props = target.library_props();
            if !known {
                changed |= self.writes_untracked();
            }
            for (i, a) in args.iter().enumerate() {
                let s = self.pt.of(program, f, a);
                // Soundness: a variadic argument of a known function (`printf("%p", &x)`,
                // `sprintf`) may be turned into data (text) that comes back as a pointer the
                // analysis sees as `unknown` (`sscanf("%p")`): its targets are exposed.
                // A function assumed to write nothing may still keep a pointer and hand it to
                // a callback (`request_irq(irq, handler, .., dev)`): its targets are exposed.
                // For the race check, such a function touches its arguments only during the
                // call and keeps nothing (its stated assumption): the exposure reaches no
                // other thread, unless the user said the function keeps its pointers.
                let kept = self.pt.writes_nothing(callee);
                if !known || kept || (target.is_variadic && i >= target.params.len()) {
                    if kept {
                        changed |= self.expose(&s);
                    } else {
                        changed |= self.expose_to(&s, Reach::LINKAGE);
                        if !props.is_some_and(|p| p.synchronous_callbacks) {
                            // A row known by its exact name says where its callbacks
                            // run; a function without one, or one only of a family by its
                            // name (`pthread_create_N`), may run them in threads of its own.
                            let anywhere = props.is_none_or(|p| {
                                p.callbacks_elsewhere || p.named != crate::ir::lib::Named::Exact
                            });
                            changed |= self.call_back(&s, anywhere);
                        }
                    }
                }
            }
            if let Some(cb) = props.and_then(|p| p.callback_args) {
                changed |= self.bind_callback_params(program, f, cb, args);
            }
            if known && props.is_some_and(|p| p.copies_bytes) {
                if let [d, s, ..] = args {
                    // Soundness: `strcpy` and friends copy bytes, which may be a pointer's
                    // (`strncpy((char *)&q, (char *)&p, 8)`): they move points-to contents like
                    // `MemCopy`. The copied bytes may also be read back as an integer of a
                    // character array, which no pointer scalar marks: they are exposed.
                    let (d, s) = (self.pt.of(program, f, d), self.pt.of(program, f, s));
                    self.reads(&s);
                    changed |= self.copy_bytes(&d, &s);
                    let moved = self.load_whole(&s);
                    changed |= self.expose_to(&moved, Reach::LEAKED);
                }
            }
            if let Some(d) = dst {
                if func_returns_ptr(program, callee) || !known {
                    // Soundness: a known function may return a pointer into its arguments
                    // (`strchr`, `strcpy`); an unknown one anything exposed.
                    let mut s = PtsSet::unknown();
                    for a in args {
                        s.union_with(&self.pt.of(program, f, a));
                    }
                    changed |= self.add(f, d, &s);
                }
            }
        }
        changed
    }

    /// A call of a library function that calls back during the call with pointers into its
    /// arguments (`Props::callback_args`: `qsort`'s comparator gets pointers to elements of
    /// `base`): the callback's pointer parameters get the points-to sets of those arguments,
    /// anywhere in their objects for `ParamFrom::Within`, as they are for `ParamFrom::Arg`.
    ///
    /// Soundness: C11 7.22.5p2 has `qsort`'s comparator get pointers to elements of the
    /// array, and `bsearch`'s the key (equal to it) and an element; glibc's `qsort_r` passes its
    /// last argument on unchanged, and `lfind`/`lsearch` the key and an element (in an order
    /// POSIX does not give, so each parameter gets both). An element lies in the objects `base`
    /// points into, at an offset the call chooses: anywhere in them. A callback the argument
    /// may name without the analysis knowing which (`unknown`) may be any exposed function,
    /// as for a call through an unknown pointer: each gets the sets too (the visit reads the
    /// exposed functions, `unknown_callers`). A callback that code the analysis does not see
    /// may also call (`called_back`) may get any exposed pointer there: its parameters are
    /// also `unknown` (without this binding an empty set stood for that, `MemoryModel::access`;
    /// the visit is repeated when `called_back` grows, as the caller is in `unknown_callers`).
    /// A parameter past the row's list, or of a callback called with fewer arguments than
    /// the row says, gets nothing here (an empty set: lost, `MemoryModel::access`).
    fn bind_callback_params(
        &mut self,
        program: &Program,
        f: FuncId,
        cb: CallbackArgs,
        args: &[Operand],
    ) -> bool {
        let Some(op) = args.get(cb.callback) else {
            return false;
        };
        let (targets, unknown) = self.pt.callees(program, f, op);
        if unknown || !targets.is_empty() {
            self.sched.unknown_callers.insert(self.sched.cur as u32);
        }
        if targets.is_empty() {
            return false;
        }
        let arg = |i: usize| args.get(i).map(|a| self.pt.of(program, f, a));
        let sets: Vec<PtsSet> = (cb.params.iter())
            .map(|from| match from {
                ParamFrom::Arg(i) => arg(*i).unwrap_or_default(),
                ParamFrom::Within(is) => {
                    let mut s = PtsSet::default();
                    for set in is.iter().filter_map(|&i| arg(i)) {
                        s.union_with(&anywhere_in(&set));
                    }
                    s
                }
            })
            .collect();
        let mut changed = false;
        for g in targets {
            let func = &program.funcs[g.index()];
            if !func.is_defined {
                continue;
            }
            let called_back = self.pt.called_back.contains(&g);
            for (p, s) in func.params.iter().zip(&sets) {
                if func.vars[p.index()].ty != Ty::Ptr {
                    continue;
                }
                let mut s = s.clone();
                s.unknown |= called_back;
                changed |= self.add(g, *p, &s);
            }
        }
        changed
    }

    pub(super) fn visit_inst(&mut self, program: &Program, f: FuncId, kind: &InstKind) -> bool {
        let mut changed = false;
        match kind {
            InstKind::Copy { dst, src } => {
                let s = self.pt.of(program, f, src);
                changed |= self.add(f, *dst, &s);
            }
            InstKind::Select { dst, t, f: e, .. } => {
                let mut s = self.pt.of(program, f, t);
                s.union_with(&self.pt.of(program, f, e));
                changed |= self.add(f, *dst, &s);
            }
            InstKind::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let b = self.pt.of(program, f, base);
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
                let old = self.pt.of(program, f, old);
                self.reads(&old);
                changed |= self.copy_bytes(&s, &old);
            }
            InstKind::Load {
                dst, ptr, ty, size, ..
            } => {
                let p = self.pt.of(program, f, ptr);
                self.reads(&p);
                if *ty == Ty::Ptr || is_mover(&self.movers[f.index()], &Operand::Var(*dst)) {
                    let s = self.laundered_load(program, &p, u64::from(*size));
                    changed |= self.add(f, *dst, &s);
                } else {
                    changed |= self.expose_bytes_read(program, &p, u64::from(*size));
                }
            }
            InstKind::Store {
                ptr, val, ty, size, ..
            } => {
                let p = self.pt.of(program, f, ptr);
                let v = self.pt.of(program, f, val);
                changed |= self.store_into(program, &p, &v);
                let moves = *ty == Ty::Ptr || is_mover(&self.movers[f.index()], val);
                if !moves && !is_constant(val) {
                    changed |= self.int_write(&p, u64::from(*size));
                }
                if moves {
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
                let p = self.pt.of(program, f, ptr);
                self.reads(&p);
                let size = u64::from(bits.div_ceil(8));
                let old = match bits {
                    0 => self.laundered_load(program, &p, POINTER_SIZE),
                    _ => self.load_from(program, &p),
                };
                changed |= self.add(f, *dst, &old);
                let v = self.pt.of(program, f, val);
                changed |= self.store_into(program, &p, &v);
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
                let p = self.pt.of(program, f, ptr);
                self.reads(&p);
                let size = u64::from(bits.div_ceil(8));
                let o = match bits {
                    0 => self.laundered_load(program, &p, POINTER_SIZE),
                    _ => self.load_from(program, &p),
                };
                changed |= self.add(f, *old, &o);
                let v = self.pt.of(program, f, new);
                changed |= self.store_into(program, &p, &v);
                if *bits != 0 {
                    changed |= self.expose_bytes_read(program, &p, size);
                    if !is_constant(new) {
                        changed |= self.int_write(&p, size);
                    }
                }
            }
            InstKind::MemCopy { dst, src, .. } => {
                let d = self.pt.of(program, f, dst);
                let s = self.pt.of(program, f, src);
                self.reads(&s);
                changed |= self.copy_bytes(&d, &s);
                let moved = self.load_whole(&s);
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
                    let s = self.pt.of(program, f, src);
                    changed |= self.expose_to(&s, Reach::LEAKED);
                    if program.funcs[f.index()].vars[dst.index()].ty == Ty::Ptr {
                        changed |= self.add(f, *dst, &PtsSet::unknown());
                    }
                }
                // An integer that moved an address unchanged gives it back (`movers`).
                crate::ir::CastOp::IntToPtr if is_mover(&self.movers[f.index()], src) => {
                    let s = self.pt.of(program, f, src);
                    changed |= self.add(f, *dst, &s);
                }
                crate::ir::CastOp::IntToPtr => {
                    changed |= self.add(f, *dst, &PtsSet::unknown());
                }
                // Integer to integer: no address (an address hidden in an integer was exposed
                // where it became one).
                crate::ir::CastOp::Trunc | crate::ir::CastOp::ZExt | crate::ir::CastOp::SExt => {}
            },
            InstKind::Call { dst, callee, args } => match callee {
                Callee::Direct(g) => changed |= self.call(program, f, *g, *dst, args),
                Callee::Indirect(op) => {
                    let (targets, unknown) = self.pt.callees(program, f, op);
                    if unknown {
                        self.sched.unknown_callers.insert(self.sched.cur as u32);
                    }
                    for g in targets {
                        changed |= self.call(program, f, g, *dst, args);
                    }
                    if unknown {
                        changed |= self.writes_untracked();
                        for a in args {
                            let s = self.pt.of(program, f, a);
                            changed |= self.expose(&s);
                        }
                        if let Some(d) = dst {
                            changed |= self.add(f, *d, &PtsSet::unknown());
                        }
                    }
                }
            },
            InstKind::ThreadCreate { entry, arg, .. } => {
                let (targets, unknown) = self.pt.callees(program, f, entry);
                if unknown {
                    self.sched.unknown_callers.insert(self.sched.cur as u32);
                }
                let a = self.pt.of(program, f, arg);
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
                let p = self.pt.of(program, f, retval);
                changed |= self.store_into(program, &p, &PtsSet::unknown());
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
            InstKind::Nondet { .. } => {
                // Soundness: a fresh non-pointer value holds no address the analysis tracks (a
                // pointer made from it is an `inttoptr`, which is `unknown`).
            }
            // Integer arithmetic and comparisons: no address flows into an integer result (an
            // address becomes an integer only through a cast, which exposes it).
            InstKind::Bin { .. } | InstKind::Cmp { .. } => {}
            InstKind::MemSet { .. } => {
                // `memset` writes one byte value over the range: no pointer moves. The old
                // contents stay in the flow-insensitive sets, and a pointer loaded from the
                // bytes is the byte value repeated, never a tracked address. Issue 35: a
                // non-constant byte is not recorded in `int_written`, unlike a store's.
            }
            // Synchronisation, atomic sections, assertions and assumptions move no pointer
            // (the lock object's bytes are the library's, `ir::lib`).
            InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Assert { .. }
            | InstKind::Assume { .. } => {}
        }
        changed
    }
}

/// Whether a stored operand is a constant, which carries no address.
fn is_constant(op: &Operand) -> bool {
    matches!(op, Operand::Int { .. } | Operand::Null)
}

/// `set` with every object's offset made "anywhere in it".
fn anywhere_in(set: &PtsSet) -> PtsSet {
    let mut out = PtsSet {
        unknown: set.unknown,
        ..PtsSet::default()
    };
    for t in set.targets.iter() {
        out.insert(match *t {
            Target::Obj(o, _) => Target::Obj(o, None),
            Target::Func(g) => Target::Func(g),
        });
    }
    out
}

fn func_returns_ptr(program: &Program, f: FuncId) -> bool {
    program.funcs[f.index()].ret == Some(Ty::Ptr)
}
