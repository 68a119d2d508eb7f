//! Calls: how the interpreter treats the functions a call may run (a body, or a declared
//! function executed as its row of the library table says, `ir::lib::Props::run`), and their
//! execution (`exec_call`); what an unknown function may be given (`unknown_call_check`,
//! `sealed_globals`) and when its result is an input.
//!
//! Invariant: a declared function runs only as its `Run` says; one the table does not know
//! (`Run::Unknown`) is given only what it can change nothing through, or the execution is
//! abandoned.

use super::*;
use crate::ir::lib::{Ends, Run};

/// How the interpreter treats a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    /// Defined in the program: its body runs.
    Defined,
    /// Only declared: executed as the library table says (`Run::Unknown` for a function the
    /// table does not know).
    Lib(Run),
    /// `setjmp` and every function that may return twice (`Program::returns_twice`): not
    /// executed, the execution is abandoned.
    ReturnsTwice,
}

pub(super) fn classify(f: &crate::ir::Function) -> Ext {
    if f.is_defined {
        return Ext::Defined;
    }
    Ext::Lib(f.library_props().map_or(Run::Unknown, |p| p.run))
}

impl<'p> Interp<'p> {
    /// An unknown external function may write what its pointer arguments reach: refused
    /// unless every argument is an integer, null, data given to a function assumed to write
    /// nothing (`--assume-no-write`), a harness entry (the harness runs it; a
    /// driver's `request_irq(irq, handler, ...)`) or a sealed global (`sealed_globals`: a
    /// name string, a `const` ops table of entries).
    pub(super) fn unknown_call_check(
        &self,
        s: &State,
        t: Tid,
        f: FuncId,
        args: &[Operand],
    ) -> Exec<()> {
        // `--assume-no-write`: the user says it changes no memory, so data it is given may
        // be handed over (a callback still may not: it may be called back).
        let writes_nothing = self.program.assumed_no_write.binary_search(&f).is_ok();
        for a in args {
            match (self.eval(s, t, a), self.op_ty(s, t, a)) {
                (Value::Int { .. }, _) | (Value::Unknown, Ty::Int(_)) => {}
                (Value::NULL, _) => {}
                (Value::Ptr(Ptr::Mem { .. } | Ptr::Raw(_)), _) if writes_nothing => {}
                (Value::Ptr(Ptr::Func(f)), _)
                    if self.program.harness_entries.binary_search(&f).is_ok() => {}
                (Value::Ptr(Ptr::Mem { alloc, .. }), _)
                    if matches!(s.mem[alloc as usize].kind,
                        AllocKind::Global(g) if self.sealed[g.index()]) => {}
                _ => return unsupported("a pointer passed to an unknown function"),
            }
        }
        Ok(())
    }

    /// The integer type of the result of `inst`, a call of the unknown function `f`, when it
    /// is an input (its candidate values are alternatives, or the forced value): the function
    /// is not known, so any value it returns is a possible execution, and `if (register(..))`
    /// must be decided. `None` for no result or a result of another type (`Unknown`).
    pub(super) fn unknown_result(&self, f: FuncId, inst: &InstKind) -> Option<Ty> {
        let InstKind::Call { dst: Some(_), .. } = inst else {
            return None;
        };
        match self.program.funcs[f.index()].ret {
            Some(ty @ Ty::Int(bits)) if self.inputs.contains_key(&bits) => Some(ty),
            _ => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_call(
        &self,
        s: &mut State,
        t: Tid,
        inst: &'p Inst,
        dst: Option<VarId>,
        callee: &Callee,
        args: &[Operand],
        alt: usize,
        visible: bool,
    ) -> Exec<Option<StepKind>> {
        let here = self.here(inst.span);
        let Some(f) = self.callee(s, t, callee) else {
            return unsupported(format!("a call through an unknown function pointer{here}"));
        };
        let func = &self.program.funcs[f.index()];
        let vals: Vec<Value> = args.iter().map(|a| self.eval(s, t, a)).collect();
        let int32 = |v: i128| {
            Value::int(
                v,
                match func.ret {
                    Some(Ty::Int(b)) => b,
                    _ => 32,
                },
            )
        };
        let mut kind = None;
        // Whether the result is an input (an unknown function's integer result).
        let mut input = false;
        // The library function, for a declared one.
        let lib = func.library();
        let sync_op = lib.and_then(|l| l.props().sync_op);
        let written_by = |arg: usize| lib.and_then(|l| self.program.sync_sizes.written_by(l, arg));
        match self.ext[f.index()] {
            // Soundness: the second return (after a `longjmp`) is not executed; an execution
            // that went on past `setjmp` without it would not be faithful, so none does.
            Ext::ReturnsTwice => {
                return unsupported(format!(
                    "`{}` may return twice: setjmp and longjmp are not executed{here}",
                    func.name
                ))
            }
            Ext::Defined => {
                // Soundness: the execution is abandoned, so nothing is claimed about it.
                if s.threads[t].frames.len() >= MAX_FRAMES {
                    return unsupported(format!(
                        "a thread's calls nest more than {MAX_FRAMES} deep{here}"
                    ));
                }
                let caller = self.top(s, t).func;
                let mut vals = vals;
                for (b, ub) in (self.program.user_buffers.iter().enumerate())
                    .filter(|(_, ub)| ub.caller == caller && ub.callee == f)
                {
                    let arg = ub.arg as usize;
                    if !matches!(args.get(arg), Some(Operand::Unknown(Ty::Ptr))) {
                        continue;
                    }
                    // Soundness (no false violation): the harness passes any pointer; a fresh
                    // buffer whose bytes all hold one input value is one of them (a user's
                    // buffer), a restriction the exact mode does not make.
                    self.restricted(|| {
                        format!("a pointer argument is taken as a fresh buffer{here}")
                    })?;
                    let fill = match self.top(s, t).vars[ub.fill.index()] {
                        Value::Int { v, .. } => Byte::Data(v as u8),
                        _ => Byte::Unknown,
                    };
                    let mut a = Alloc::new(
                        AllocKind::Buffer {
                            buffer: b as u32,
                            owner: t,
                        },
                        None,
                        fill,
                    );
                    a.key = self.alloc_key(s, t);
                    let id = s.mem.len() as u32;
                    s.mem.push(a);
                    vals[arg] = Value::Ptr(Ptr::Mem { alloc: id, off: 0 });
                }
                let frame = self.frame(f, &vals);
                s.threads.focus_mut(t).frames.push(frame);
                self.hooks(s).frame_pushed(self, s, t, f, args);
                // The caller stays at the call until the callee returns.
                return Ok(None);
            }
            Ext::Lib(Run::TryLock { busy }) => {
                if sync_op == Some(SyncOp::TryLock { exclusive: false }) {
                    self.restricted(|| format!("a read lock is taken exclusively{here}"))?;
                }
                // Soundness (no false violation): a timed lock of a held mutex fails at once,
                // as when its holder keeps it past the time point; the executions in which it
                // waits and takes the lock are left out, a restriction the exact mode does not
                // make.
                if lib == Some(LibFn::MtxTimedlock) {
                    self.restricted(|| format!("a timed lock never waits{here}"))?;
                }
                let (alloc, off) = self.lock_addr(s, t, args.first().unwrap_or(&Operand::Null))?;
                if s.locks.get(&(alloc, off)) == Some(&t) {
                    self.restricted(|| {
                        format!("a thread tries a mutex it holds, which its type decides{here}")
                    })?;
                }
                let name = self.describe_lock(s, alloc, off);
                self.sync_object_written(s, alloc, off, written_by(0));
                let taken = match s.locks.entry((alloc, off)) {
                    std::collections::btree_map::Entry::Vacant(e) => {
                        e.insert(t);
                        true
                    }
                    std::collections::btree_map::Entry::Occupied(_) => false,
                };
                if taken {
                    self.set_opt(s, t, dst, int32(0));
                    kind = Some(StepKind::Lock(name));
                } else {
                    self.set_opt(s, t, dst, int32(i128::from(busy)));
                    kind = Some(StepKind::TryLockFailed(name));
                }
            }
            Ext::Lib(Run::CondWait) => {
                if sync_op == Some(SyncOp::CondWait { timed: true }) {
                    self.restricted(|| format!("a timed wait never times out{here}"))?;
                }
                self.result_restricted(s, t, dst, &func.name)?;
                // Releases the mutex, then waits to take it again: a spurious wake-up, which
                // POSIX allows, so no signal is needed.
                let (alloc, off) = self.lock_addr(s, t, args.get(1).unwrap_or(&Operand::Null))?;
                self.release(s, t, alloc, off)?;
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                if let Some(Value::Ptr(Ptr::Mem { alloc, off })) = vals.first().copied() {
                    self.sync_object_written(s, alloc, off, self.program.sync_sizes.cond);
                }
                // The wait's result comes at its relock.
                self.hooks(s)
                    .library_call(self, s, t, f, None, args, None, false);
                s.threads.focus_mut(t).at = At::Relock { alloc, off };
                return Ok(Some(StepKind::Unlock(
                    self.describe_location(s, alloc, off),
                )));
            }
            Ext::Lib(Run::Zero) => {
                if lib == Some(LibFn::PthreadMutexattrSettype) {
                    self.restricted(|| format!("mutex types are not modelled{here}"))?;
                }
                self.result_restricted(s, t, dst, &func.name)?;
                if let (Some(n), Some(Value::Ptr(Ptr::Mem { alloc, off }))) =
                    (written_by(0), vals.first().copied())
                {
                    if s.mem[alloc as usize].live {
                        // glibc and musl: `pthread_mutex_init(m, NULL)` zeroes the mutex, a
                        // real content; the exact mode keeps every C library's possible.
                        let zeroed = lib == Some(LibFn::PthreadMutexInit)
                            && vals.get(1) == Some(&Value::NULL)
                            && !self.options.exact;
                        let fill = if zeroed { Byte::Data(0) } else { Byte::Unknown };
                        self.sync_object_filled(s, alloc, off, Some(n), fill);
                    }
                }
                self.set_opt(s, t, dst, int32(0))
            }
            Ext::Lib(Run::NoEffect) => {
                // Output may write through a pointer (`%n`): only constants may be handed over.
                if self.options.exact {
                    if let Err(Status::Unsupported(_)) = self.unknown_call_check(s, t, f, args) {
                        return Err(Status::Unsupported(Abandon::PointerToUnknown {
                            function: func.name.clone(),
                            at: here.to_string(),
                        }));
                    }
                }
                for v in vals {
                    self.escape(s, v);
                }
                self.set_opt(s, t, dst, Value::Unknown);
            }
            Ext::Lib(Run::Free) => match vals.first().copied().unwrap_or(Value::Unknown) {
                Value::NULL => {}
                Value::Ptr(Ptr::Mem { alloc, off: 0 })
                    if matches!(s.mem[alloc as usize].kind, AllocKind::Heap(_))
                        && s.mem[alloc as usize].live =>
                {
                    if visible {
                        kind = Some(StepKind::Write {
                            loc: self.describe_location(s, alloc, 0),
                            value: "(freed)".into(),
                        });
                    }
                    s.mem.make_mut(alloc as usize).kill();
                }
                _ => {
                    return unsupported(format!(
                        "free of a pointer that is not a live heap block{here}"
                    ))
                }
            },
            // Exact: the value is the thread's number, not the C library's.
            Ext::Lib(Run::SelfTid) if self.options.exact && dst.is_some() => {
                self.result_restricted(s, t, dst, &func.name)?;
            }
            Ext::Lib(Run::SelfTid) => self.set_opt(
                s,
                t,
                dst,
                Value::int(t as i128, self.program.pointer_size * 8),
            ),
            Ext::Lib(Run::Equal) => {
                let eq = match (vals.first(), vals.get(1)) {
                    (Some(Value::Int { v: a, .. }), Some(Value::Int { v: b, .. })) => a == b,
                    _ => return unsupported(format!("pthread_equal of unknown handles{here}")),
                };
                self.set_opt(s, t, dst, int32(eq as i128));
            }
            Ext::Lib(Run::Strlen) => {
                let p = vals.first().copied().unwrap_or(Value::Unknown);
                let (alloc, off) = self.resolve(s, p, false)?;
                let mut n = 0i64;
                loop {
                    let b = s.mem[alloc as usize]
                        .read(off + n, 1)
                        .or_else(|e| unsupported(format!("strlen: {e}{here}")))?;
                    match b[0] {
                        Byte::Data(0) => break,
                        Byte::Data(_) => n += 1,
                        _ => return unsupported(format!("strlen of unknown bytes{here}")),
                    }
                }
                let len = Value::int(n as i128, self.program.pointer_size * 8);
                self.set_opt(s, t, dst, len);
                if visible {
                    kind = Some(StepKind::Read {
                        loc: self.loc(s, p),
                        value: format!("a string of length {n}"),
                    });
                }
            }
            Ext::Lib(Run::KeyCreate) => {
                self.result_restricted(s, t, dst, &func.name)?;
                let k = s.keys.len() as u32;
                let dtor = vals.get(1).copied().unwrap_or(Value::NULL);
                s.keys.push((dtor, true));
                let p = vals.first().copied().unwrap_or(Value::Unknown);
                self.store(s, p, Value::int(i128::from(k), 32), 4)?;
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: format!("{k} (a new key)"),
                    });
                }
                self.set_opt(s, t, dst, int32(0));
            }
            Ext::Lib(Run::KeyDelete) | Ext::Lib(Run::GetSpecific) | Ext::Lib(Run::SetSpecific) => {
                let k = match vals.first() {
                    Some(Value::Int { v, .. })
                        if (*v as usize) < s.keys.len() && s.keys[*v as usize].1 =>
                    {
                        *v as u32
                    }
                    _ => {
                        return unsupported(format!(
                            "`{}` of a key that was not created{here}",
                            func.name
                        ))
                    }
                };
                match self.ext[f.index()] {
                    Ext::Lib(Run::KeyDelete) => {
                        self.result_restricted(s, t, dst, &func.name)?;
                        s.keys[k as usize].1 = false;
                        if visible {
                            kind = Some(StepKind::Write {
                                loc: format!("key {k}"),
                                value: "(deleted)".into(),
                            });
                        }
                        self.set_opt(s, t, dst, int32(0));
                    }
                    Ext::Lib(Run::GetSpecific) => {
                        let v = (s.threads[t].specific.iter())
                            .find(|e| e.0 == k)
                            .map_or(Value::NULL, |e| e.1);
                        self.set_opt(s, t, dst, v);
                    }
                    _ => {
                        self.result_restricted(s, t, dst, &func.name)?;
                        let v = vals.get(1).copied().unwrap_or(Value::Unknown);
                        let th = s.threads.focus_mut(t);
                        match th.specific.iter_mut().find(|e| e.0 == k) {
                            Some(e) => e.1 = v,
                            None => th.specific.push((k, v)),
                        }
                        self.set_opt(s, t, dst, int32(0));
                    }
                }
            }
            Ext::Lib(Run::Unknown) => {
                // Soundness: a function that may end the calling thread alone (the raw exit
                // system call) is not run as one that returns: an execution that went on past
                // it would not be faithful, so none does.
                if lib.is_some_and(|l| l.props().ends == Ends::Thread) {
                    return unsupported(format!(
                        "`{}` may end its thread, which is not executed{here}",
                        func.name
                    ));
                }
                // A function the program does not define may write any global it names.
                self.restricted(|| {
                    format!("a call of the unknown function `{}`{here}", func.name)
                })?;
                if let Err(Status::Unsupported(_)) = self.unknown_call_check(s, t, f, args) {
                    return Err(Status::Unsupported(Abandon::PointerToUnknown {
                        function: func.name.clone(),
                        at: here.to_string(),
                    }));
                }
                match (self.unknown_result(f, &inst.kind), dst) {
                    (Some(ty), Some(d)) => {
                        // Named after the call (`register_chrdev()`).
                        let name = Some(format!("{}()", func.name));
                        kind = Some(self.take_input(s, t, d, ty, false, alt, name));
                        input = true;
                    }
                    _ => self.set_opt(s, t, dst, Value::Unknown),
                }
            }
        }
        self.hooks(s)
            .library_call(self, s, t, f, dst, args, kind.as_ref(), input);
        self.advance(s, t);
        Ok(kind)
    }
}

/// Per global: whether code that is given its address can change nothing through it: a
/// constant whose initialiser holds only integers, harness entries and addresses of sealed
/// globals (a greatest fixpoint: a cycle of constant tables is sealed).
///
/// Soundness (no false violation): writing a constant object is undefined (it lives in
/// read-only memory), and a harness entry runs as the harness's threads only (the harness
/// contract), so handing such an address to an unknown function lets it do nothing the
/// execution leaves out.
pub(super) fn sealed_globals(program: &Program) -> Vec<bool> {
    let mut sealed: Vec<bool> = program.globals.iter().map(|g| g.is_constant).collect();
    loop {
        let mut changed = false;
        for (gi, g) in program.globals.iter().enumerate() {
            if !sealed[gi] {
                continue;
            }
            let ok = (g.init.iter().flatten()).all(|c| match c.value {
                crate::ir::InitValue::Int(_) | crate::ir::InitValue::Unknown => true,
                crate::ir::InitValue::FuncAddr(f) => {
                    program.harness_entries.binary_search(&f).is_ok()
                }
                crate::ir::InitValue::GlobalAddr(h, _) => sealed[h.index()],
            }) && g.init.is_some();
            if !ok {
                sealed[gi] = false;
                changed = true;
            }
        }
        if !changed {
            return sealed;
        }
    }
}
