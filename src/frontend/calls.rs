//! Calls: intrinsics, library functions (threads, locks, allocation, nondeterminism), assertion
//! sites, and calls that do not return.
//!
//! `setjmp` and its kin (`_setjmp`, `sigsetjmp`, `__sigsetjmp`, `__builtin_setjmp`, anything LLVM
//! marks `returns_twice`) stay calls and are listed in `Program::returns_twice`; `longjmp` and its
//! kin (`siglongjmp`, `_longjmp`, `__longjmp_chk`, `__builtin_longjmp`) end their block with `Stop
//! { LongJmp }`, a jump whose edges the thread CFG adds, not an end of the process.
//!
//! A `memcpy` from a constant global of at most 64 scalars, copied whole (clang's code for a local
//! struct with an initialiser), is lowered as one store per scalar of the constant
//! (`copy_of_constant`), so every stage sees the values; padding keeps what it held, which no typed
//! cell reads.

use llvm_sys::{LLVMTypeKind, LLVMValueKind};

use super::consts::Addr;
use super::ffi::Val;
use super::layout::ty_of;
use super::lower::{Flow, FnLower};
use crate::ir::lib::{LibFn, SyncOp};
use crate::ir::{
    AssertInfo, AssertKind, Callee, CastOp, InitValue, InstKind, Layout, ObjId, Object, ObjectKind,
    Operand, ScalarKind, StopReason, Terminator, Ty,
};

use crate::limits::MAX_COPIED_SCALARS;

/// Appends the scalars of `layout` (at `base`) as (offset, size, kind); false when there are
/// more than `MAX_COPIED_SCALARS` or an array of unknown length.
fn scalar_leaves(layout: &Layout, base: u64, out: &mut Vec<(u64, u32, ScalarKind)>) -> bool {
    match layout {
        Layout::Scalar { size, kind, .. } => {
            out.push((base, *size, *kind));
            out.len() <= MAX_COPIED_SCALARS
        }
        Layout::Struct { fields, .. } => fields
            .iter()
            .all(|(off, f)| scalar_leaves(f, base + off, out)),
        Layout::Array {
            elem,
            stride,
            count,
        } => *count > 0 && (0..*count).all(|k| scalar_leaves(elem, base + k * stride, out)),
    }
}

impl FnLower<'_> {
    /// Lowers a call (also the call part of `invoke` / `callbr`).
    pub fn lower_call(&mut self, inst: Val, out: &mut Vec<InstKind>) -> Flow {
        let callee = inst.called_value();
        let args = inst.call_args();
        if callee.is_null() || callee.kind() == LLVMValueKind::LLVMInlineAsmValueKind {
            // Soundness: inline assembly may write any memory it has an address of: what its
            // pointer operands point to (memory operands `"=m"`, `"+m"` are pointer arguments
            // with an `elementtype`; `"r"(&x)` too), every exposed object (a `"memory"`
            // clobber, or an address it got elsewhere), and the globals and functions its text
            // names (`movl $1, g(%rip)`). The pointer operands are converted to integers, which
            // exposes them (and what they reach) in the points-to analysis, the named symbols
            // join `Program::hidden_addrs`, and the `Havoc` that follows clobbers every exposed
            // cell and gives the result any value. This is the model of a call to an unknown
            // function, without a function to name.
            self.expose_pointer_args(&args, out);
            if !callee.is_null() {
                let text = callee.inline_asm_text();
                let named = self.cx.syms.named_in_asm(&text);
                self.cx.program.hidden_addrs.extend(named);
            }
            out.push(self.havoc(inst, true, "inline assembly is not modelled"));
            return Flow::Next;
        }
        let direct = match self.cx.syms.const_addr(callee) {
            Some(Addr::Func(f, 0)) => Some(f),
            _ => None,
        };
        let Some(fid) = direct else {
            let dst = self.used_result(inst);
            let args = args.iter().map(|&a| self.op(a)).collect();
            out.push(InstKind::Call {
                dst,
                callee: Callee::Indirect(self.op(callee)),
                args,
            });
            return Flow::Next;
        };
        let fval = self.cx.syms.func_vals[fid.index()];
        let name = fval.name();
        let declared = fval.is_declaration();
        // The callee's row of the library table (`ir::lib`), classified once per function.
        let lib = self.cx.libs[fid.index()];
        let props = lib.map(LibFn::props);
        if declared && props.is_some_and(|p| p.longjmp) {
            // Soundness: the call (which may touch what its arguments reach) and then no
            // successor in this function; the thread CFG continues at every resume point of
            // the thread (`threads::ThreadCfg`), so the state here flows to the second return
            // of every `setjmp` this `longjmp` may target.
            let args = args.iter().map(|&a| self.op(a)).collect();
            out.push(InstKind::Call {
                dst: None,
                callee: Callee::Direct(fid),
                args,
            });
            return Flow::End(Terminator::Stop {
                reason: StopReason::LongJmp,
            });
        }
        if declared
            && (props.is_some_and(|p| p.returns_twice)
                || fval.has_fn_attr("returns_twice", false)
                || inst.has_fn_attr("returns_twice", true))
        {
            // A resume point: the call stays a call to an unknown function (any result, its
            // buffer written); `threads::ThreadCfg` ends a node after it and adds the edges
            // from every `longjmp` of the thread.
            if let Err(at) = self.cx.program.returns_twice.binary_search(&fid) {
                self.cx.program.returns_twice.insert(at, fid);
            }
            let dst = self.used_result(inst);
            let args = args.iter().map(|&a| self.op(a)).collect();
            out.push(InstKind::Call {
                dst,
                callee: Callee::Direct(fid),
                args,
            });
            return Flow::Next;
        }
        if name.starts_with("llvm.") {
            self.intrinsic(inst, &name, lib, &args, out);
            return Flow::Next;
        }
        let ops: Vec<Operand> = args.iter().map(|&a| self.op(a)).collect();
        let call = |this: &mut Self| InstKind::Call {
            dst: this.used_result(inst),
            callee: Callee::Direct(fid),
            args: ops.clone(),
        };

        // Assertion sites.
        if declared {
            if let Some(text_args) = props
                .filter(|p| p.assertion == Some(AssertKind::Macro))
                .map(|p| p.assert_text)
            {
                if !self.in_assert_helper {
                    let condition = text_args
                        .iter()
                        .filter_map(|&i| args.get(i))
                        .find_map(|&a| self.cx.syms.const_string(a))
                        .unwrap_or_else(|| "assert(...)".to_string());
                    let span = self.span(inst);
                    let id = self.new_assert(
                        self.assert_info(AssertKind::Macro, span, condition),
                        Vec::new(),
                    );
                    out.push(InstKind::Assert { id, cond: None });
                }
                return Flow::End(Terminator::Stop {
                    reason: StopReason::ProcessExit,
                });
            }
        }
        if !self.in_assert_helper {
            match props.and_then(|p| p.assertion) {
                Some(AssertKind::ReachError) => {
                    let span = self.span(inst);
                    let info = self.assert_info(AssertKind::ReachError, span, format!("{name}()"));
                    let id = self.new_assert(info, Vec::new());
                    out.push(InstKind::Assert { id, cond: None });
                    if !declared {
                        out.push(call(self));
                    }
                    return Flow::Next;
                }
                Some(AssertKind::VerifierAssert) => {
                    let span = self.span(inst);
                    let condition = span
                        .and_then(|s| self.source_call_args(s, &name))
                        .unwrap_or_else(|| "__VERIFIER_assert(...)".to_string());
                    let cond = ops
                        .first()
                        .copied()
                        .unwrap_or(Operand::Unknown(Ty::Int(32)));
                    let info = self.assert_info(AssertKind::VerifierAssert, span, condition);
                    let id = self.new_assert(info, args.first().copied().into_iter().collect());
                    out.push(InstKind::Assert {
                        id,
                        cond: Some(cond),
                    });
                    if !declared {
                        out.push(call(self));
                    }
                    return Flow::Next;
                }
                Some(AssertKind::Macro) | None => {}
            }
        }

        if !declared {
            // SV-COMP convention: a function named `__VERIFIER_atomic_*` (but `_begin` and
            // `_end`) runs atomically.
            if lib == Some(LibFn::VerifierAtomic) {
                out.push(InstKind::AtomicBegin);
                out.push(call(self));
                out.push(InstKind::AtomicEnd);
                return Flow::Next;
            }
            out.push(call(self));
            return Flow::Next;
        }

        // Library functions (declared only).
        let arg = |i: usize| ops.get(i).copied();
        let sync_op = props.and_then(|p| p.sync_op);
        if let (Some(SyncOp::Lock { exclusive }), Some(&lock)) = (sync_op, ops.first()) {
            out.push(InstKind::Lock {
                dst: self.used_result(inst),
                lock,
                exclusive,
            });
            return Flow::Next;
        }
        if let (Some(SyncOp::Unlock), Some(&lock)) = (sync_op, ops.first()) {
            out.push(InstKind::Unlock {
                dst: self.used_result(inst),
                lock,
            });
            return Flow::Next;
        }
        match lib {
            Some(LibFn::PthreadCreate) if ops.len() >= 4 => {
                let arg = self.int_as_pointer(args[3], out).unwrap_or(ops[3]);
                out.push(InstKind::ThreadCreate {
                    dst: self.used_result(inst),
                    handle: ops[0],
                    entry: ops[2],
                    arg,
                });
                return Flow::Next;
            }
            Some(LibFn::PthreadSetspecific) if ops.len() >= 2 => {
                // The value as a cast when it is an integer made a pointer, so that
                // `harness::keys` keeps the integer the thread's slot receives.
                let value = self.int_as_pointer(args[1], out).unwrap_or(ops[1]);
                out.push(InstKind::Call {
                    dst: self.used_result(inst),
                    callee: Callee::Direct(fid),
                    args: vec![ops[0], value],
                });
                return Flow::Next;
            }
            // `thrd_create(thr, func, arg)`: no attributes, and `func` returns an `int`.
            Some(LibFn::ThrdCreate) if ops.len() >= 3 => {
                let arg = self.int_as_pointer(args[2], out).unwrap_or(ops[2]);
                out.push(InstKind::ThreadCreate {
                    dst: self.used_result(inst),
                    handle: ops[0],
                    entry: ops[1],
                    arg,
                });
                return Flow::Next;
            }
            Some(LibFn::PthreadJoin) if ops.len() >= 2 => {
                let dst = self.used_result(inst);
                out.push(InstKind::ThreadJoin {
                    dst,
                    handle: ops[0],
                    retval: ops[1],
                    result_bits: 0,
                });
                return Flow::Next;
            }
            // `thrd_join(thr, res)` writes the thread's `int` result into `*res`.
            Some(LibFn::ThrdJoin) if ops.len() >= 2 => {
                let dst = self.used_result(inst);
                out.push(InstKind::ThreadJoin {
                    dst,
                    handle: ops[0],
                    retval: ops[1],
                    result_bits: 32,
                });
                return Flow::Next;
            }
            Some(LibFn::VerifierAtomicBegin) => {
                out.push(InstKind::AtomicBegin);
                return Flow::Next;
            }
            Some(LibFn::VerifierAtomicEnd) => {
                out.push(InstKind::AtomicEnd);
                return Flow::Next;
            }
            Some(LibFn::VerifierAssume | LibFn::AssumeAbortIfNot) if !ops.is_empty() => {
                out.push(InstKind::Assume { cond: ops[0] });
                return Flow::Next;
            }
            Some(LibFn::Memset) if ops.len() >= 3 => {
                out.push(InstKind::MemSet {
                    ptr: ops[0],
                    val: ops[1],
                    len: ops[2],
                });
                self.copy_result(inst, ops[0], out);
                return Flow::Next;
            }
            // A copy of a string constant is a `memcpy` of its bytes and its terminating zero,
            // whose values the analysis then knows.
            Some(LibFn::Strcpy) if ops.len() >= 2 => {
                if let Operand::GlobalAddr(g, off) = ops[1] {
                    let size = u64::try_from(off)
                        .ok()
                        .and_then(|off| self.cx.program.constant_string_size(g, off));
                    if let Some(n) = size {
                        out.push(InstKind::MemCopy {
                            dst: ops[0],
                            src: ops[1],
                            len: Operand::Int {
                                value: i128::from(n),
                                bits: self.cx.program.pointer_size * 8,
                            },
                        });
                        self.copy_result(inst, ops[0], out);
                        return Flow::Next;
                    }
                }
            }
            // libatomic's generic atomics copy `size` bytes atomically: a copy inside an atomic
            // section. Soundness: libatomic makes them atomic with respect to each other (by a
            // lock per address), not to plain accesses; the section excludes only other atomic
            // sections and atomics, so a plain access of the object still races with them.
            Some(f) if generic_atomic_copies(f).is_some_and(|c| fits(c, ops.len())) => {
                let copies = generic_atomic_copies(f).unwrap_or_default();
                out.push(InstKind::AtomicBegin);
                for &(dst, src) in copies {
                    out.push(InstKind::MemCopy {
                        dst: ops[dst],
                        src: ops[src],
                        len: ops[0],
                    });
                }
                out.push(InstKind::AtomicEnd);
                return Flow::Next;
            }
            Some(LibFn::Memcpy | LibFn::Memmove) if ops.len() >= 3 => {
                out.push(InstKind::MemCopy {
                    dst: ops[0],
                    src: ops[1],
                    len: ops[2],
                });
                self.copy_result(inst, ops[0], out);
                return Flow::Next;
            }
            // `thrd_exit(res)` ends the thread as `pthread_exit` does (its `int` result exposes
            // nothing).
            Some(LibFn::PthreadExit | LibFn::ThrdExit) => {
                // Soundness: the argument is the thread's result, which `pthread_join` hands to
                // the joiner as a pointer the analysis sees as `unknown`. Converting it to an
                // integer exposes what it points to in the points-to analysis; the thread ends
                // right after, so the unused integer changes nothing else.
                self.expose_pointer_args(&args[..args.len().min(1)], out);
                return Flow::End(Terminator::Stop {
                    reason: StopReason::ThreadExit,
                });
            }
            // These run no user code: the process just ends.
            Some(LibFn::Abort | LibFn::UnderscoreExit | LibFn::UnderscoreCapitalExit) => {
                return Flow::End(Terminator::Stop {
                    reason: StopReason::ProcessExit,
                })
            }
            _ => {}
        }
        let returns_ptr = inst.ty().kind() == LLVMTypeKind::LLVMPointerTypeKind;
        let nondet = (name.strip_prefix(LibFn::VerifierNondet.name()))
            .filter(|_| lib == Some(LibFn::VerifierNondet));
        if let Some(suffix) = nondet {
            if inst.ty().kind() != LLVMTypeKind::LLVMVoidTypeKind {
                let is_bool = matches!(suffix, "bool" | "_Bool");
                out.push(InstKind::Nondet {
                    dst: self.var(inst),
                    ty: ty_of(inst.ty()),
                    is_bool,
                });
                return Flow::Next;
            }
        }
        if props.is_some_and(|p| p.allocates) && returns_ptr {
            let obj = self.heap_object(inst);
            let from = if lib == Some(LibFn::Realloc) {
                arg(0)
            } else {
                None
            };
            out.push(InstKind::HeapAlloc {
                dst: self.var(inst),
                obj,
                zeroed: lib == Some(LibFn::Calloc),
                from,
            });
            return Flow::Next;
        }
        out.push(call(self));
        if matches!(lib, Some(LibFn::Exit | LibFn::QuickExit))
            || fval.has_fn_attr("noreturn", false)
            || inst.has_fn_attr("noreturn", true)
        {
            return Flow::End(Terminator::Stop {
                reason: StopReason::ProcessExit,
            });
        }
        Flow::Next
    }

    fn assert_info(
        &self,
        kind: AssertKind,
        span: Option<crate::ir::Span>,
        condition: String,
    ) -> AssertInfo {
        AssertInfo {
            func: self.fid,
            kind,
            span,
            condition,
            cond_vars: Vec::new(),
            guard_blocks: Vec::new(),
        }
    }

    /// A constant integer made a pointer (`(void *)5L`, an `inttoptr` constant expression) as
    /// a cast into a fresh var, so that the analysis sees the integer it carries: as an operand
    /// it would be an unknown pointer of unknown value. `None` for anything else.
    fn int_as_pointer(&mut self, v: Val, out: &mut Vec<InstKind>) -> Option<Operand> {
        let Some(Addr::Null(k)) = self.cx.syms.const_addr(v) else {
            return None;
        };
        if k == 0 || v.ty().kind() != LLVMTypeKind::LLVMPointerTypeKind {
            return None;
        }
        let bits = self.cx.program.pointer_size * 8;
        let dst = self.fresh_var(Ty::Ptr);
        out.push(InstKind::Cast {
            dst,
            op: CastOp::IntToPtr,
            src: Operand::Int {
                value: i128::from(k),
                bits,
            },
            from: bits,
            to: 0,
        });
        Some(Operand::Var(dst))
    }

    /// A copy of constant bytes (`struct job j = {3, 0};`, which clang compiles to a `memcpy`
    /// from a constant global) as what it writes: a store of each scalar of the constant's
    /// type, with the value its initialiser gives (zero where it gives none). Every later stage
    /// then sees the values and the stores. False (nothing emitted) unless the source is a
    /// typed constant global of at most `MAX_COPIED_SCALARS` scalars, copied whole from its
    /// start by a constant length, whose initialiser is known scalar by scalar.
    ///
    /// Soundness: the stores write the bytes the copy writes, except padding, which keeps what
    /// it held (C leaves padding unspecified after an initialisation; clang copies zeros). The
    /// caller copies only into a local of the constant's type, whose typed cells cover no
    /// padding, so the analysis reads padding as any value either way.
    fn copy_of_constant(
        &mut self,
        dst: Operand,
        src: Operand,
        len: Operand,
        out: &mut Vec<InstKind>,
    ) -> bool {
        let (Operand::GlobalAddr(g, 0), Operand::Int { value: n, .. }) = (src, len) else {
            return false;
        };
        let global = &self.cx.program.globals[g.index()];
        let (Some(init), true) = (&global.init, global.is_constant) else {
            return false;
        };
        let Some(layout) = &self.cx.program.objects[global.obj.index()].layout else {
            return false;
        };
        if u64::try_from(n).ok() != Some(layout.size()) {
            return false;
        }
        let mut leaves = Vec::new();
        if !scalar_leaves(layout, 0, &mut leaves) {
            return false;
        }
        let ptr_bytes = self.cx.program.pointer_size;
        let mut stores = Vec::new();
        for &(offset, size, kind) in &leaves {
            let end = offset + u64::from(size);
            let mut given = init
                .iter()
                .filter(|c| c.offset < end && offset < c.offset + u64::from(c.size));
            let value = match (given.next(), given.next()) {
                (None, _) => InitValue::Int(0),
                (Some(c), None) if c.offset == offset && c.size == size => c.value.clone(),
                _ => return false,
            };
            let (val, ty) = match (value, kind) {
                (InitValue::Int(0), ScalarKind::Ptr) => (Operand::Null, Ty::Ptr),
                (InitValue::Int(v), _) => (
                    Operand::Int {
                        value: v,
                        bits: size * 8,
                    },
                    Ty::Int(size * 8),
                ),
                (InitValue::GlobalAddr(h, off), _) if size == ptr_bytes => {
                    (Operand::GlobalAddr(h, off), Ty::Ptr)
                }
                (InitValue::FuncAddr(f), _) if size == ptr_bytes => (Operand::FuncAddr(f), Ty::Ptr),
                _ => return false,
            };
            let Ok(at) = i64::try_from(offset) else {
                return false;
            };
            stores.push((at, val, ty, size));
        }
        for (at, val, ty, size) in stores {
            let ptr = if at == 0 {
                dst
            } else {
                let p = self.fresh_var(Ty::Ptr);
                out.push(InstKind::Gep {
                    dst: p,
                    base: dst,
                    offset: at,
                    indices: Vec::new(),
                });
                Operand::Var(p)
            };
            out.push(InstKind::Store {
                ptr,
                val,
                ty,
                size,
                order: crate::ir::MemOrder::NotAtomic,
            });
        }
        true
    }

    /// `dst := first argument` for libc functions that return their destination.
    /// Converts every pointer argument to an integer (a `ptrtoint` into a fresh var): the
    /// points-to analysis then exposes what each points to, so that a `Havoc` that clobbers
    /// memory after it covers those objects, and an unknown pointer may name them.
    pub(crate) fn expose_pointer_args(&mut self, args: &[Val], out: &mut Vec<InstKind>) {
        let bits = self.cx.program.pointer_size * 8;
        for &a in args {
            if a.ty().kind() == LLVMTypeKind::LLVMPointerTypeKind {
                let dst = self.fresh_var(Ty::Int(bits));
                out.push(InstKind::Cast {
                    dst,
                    op: CastOp::PtrToInt,
                    src: self.op(a),
                    from: 0,
                    to: bits,
                });
            }
        }
    }

    fn copy_result(&mut self, inst: Val, src: Operand, out: &mut Vec<InstKind>) {
        if let Some(dst) = self.used_result(inst) {
            out.push(InstKind::Copy { dst, src });
        }
    }

    /// A fresh heap object for an allocation site.
    fn heap_object(&mut self, inst: Val) -> ObjId {
        let span = self.span(inst);
        let name = match span {
            Some(s) => format!("heap@{}:{}", self.cx.files.short_name(s), s.line),
            None => format!("heap@{}", self.fname),
        };
        let obj = ObjId::from(self.cx.program.objects.len());
        self.cx.program.objects.push(Object {
            kind: ObjectKind::Heap(self.fid),
            name,
            layout: None,
            span,
        });
        obj
    }

    fn intrinsic(
        &mut self,
        inst: Val,
        name: &str,
        lib: Option<LibFn>,
        args: &[Val],
        out: &mut Vec<InstKind>,
    ) {
        if lib.is_some_and(|l| l.props().ignored) {
            if inst.ty().kind() != LLVMTypeKind::LLVMVoidTypeKind && inst.has_uses() {
                out.push(self.havoc(inst, false, format!("result of {name}")));
            }
            return;
        }
        let op = |this: &Self, i: usize| args.get(i).map(|&a| this.op(a));
        if lib == Some(LibFn::LlvmMemset) {
            if let (Some(ptr), Some(val), Some(len)) = (op(self, 0), op(self, 1), op(self, 2)) {
                out.push(InstKind::MemSet { ptr, val, len });
                return;
            }
        }
        if matches!(lib, Some(LibFn::LlvmMemcpy | LibFn::LlvmMemmove)) {
            if let (Some(dst), Some(src), Some(len)) = (op(self, 0), op(self, 1), op(self, 2)) {
                // Only into a local of the constant's own type (clang's code for an
                // initialiser): the stores then write every byte a typed cell covers.
                let own_type = args[0].is_instruction()
                    && args[0].opcode() == llvm_sys::LLVMOpcode::LLVMAlloca
                    && args[1].kind() == LLVMValueKind::LLVMGlobalVariableValueKind
                    && args[0].allocated_type() == args[1].global_value_type();
                if !(own_type && self.copy_of_constant(dst, src, len, out)) {
                    out.push(InstKind::MemCopy { dst, src, len });
                }
                return;
            }
        }
        if lib == Some(LibFn::LlvmThreadlocalAddress) {
            // Every access to a `__thread` variable goes through this intrinsic. A variable
            // whose address is only dereferenced (`Global::thread_local`) is its global: the
            // analysis keeps one copy per thread of its cells.
            if let Some(Operand::GlobalAddr(g, 0)) = op(self, 0) {
                if self.cx.program.globals[g.index()].thread_local {
                    self.copy_result(inst, Operand::GlobalAddr(g, 0), out);
                    return;
                }
            }
            // Soundness: the address of any other one may reach another thread, which then
            // accesses this thread's copy; an unknown pointer makes each access unknown.
            let havoc = self.havoc(inst, false, "thread-local storage is not modelled");
            // `watts confirm` executes it: the address of the running thread's copy.
            if let (InstKind::Havoc { dst: Some(d), .. }, Some(Operand::GlobalAddr(g, 0))) =
                (&havoc, op(self, 0))
            {
                self.cx
                    .program
                    .thread_local_addrs
                    .push(crate::ir::ThreadLocalAddr {
                        func: self.fid,
                        dst: *d,
                        global: g,
                        escapes: !super::lower::only_dereferenced(inst, 0),
                    });
            }
            out.push(havoc);
            return;
        }
        if lib == Some(LibFn::LlvmExpect) {
            // `__builtin_expect(v, c)` is `v` (emitted from -O1 on; see `clang::compile`).
            if let Some(v) = op(self, 0) {
                self.copy_result(inst, v, out);
                return;
            }
        }
        let clobbers = args.iter().any(|a| {
            let t = a.ty();
            t.kind() == LLVMTypeKind::LLVMPointerTypeKind
                || (super::layout::is_vector(t)
                    && t.element().kind() == LLVMTypeKind::LLVMPointerTypeKind)
        });
        // Soundness: a clobbering intrinsic (`llvm.va_start`, ...) writes what its pointer
        // arguments point to; exposing them puts those objects among the cells the `Havoc`
        // clobbers. (A vector of pointers is an unknown value whose targets are already exposed,
        // see `Symbols::hidden_addrs` and the points-to analysis.)
        if clobbers {
            self.expose_pointer_args(args, out);
        }
        out.push(self.havoc(inst, clobbers, format!("intrinsic {name} is not modelled")));
    }
}

/// The copies of one of libatomic's generic atomics, as (destination, source) operand indices
/// (operand 0 is the size): `__atomic_load(size, src, ret)`, `__atomic_store(size, dst, val)`,
/// `__atomic_exchange(size, ptr, val, ret)` (the old value out, then the new one in).
fn generic_atomic_copies(f: LibFn) -> Option<&'static [(usize, usize)]> {
    match f {
        LibFn::AtomicLoadGeneric => Some(&[(2, 1)]),
        LibFn::AtomicStoreGeneric => Some(&[(1, 2)]),
        LibFn::AtomicExchangeGeneric => Some(&[(3, 1), (1, 2)]),
        _ => None,
    }
}

/// Whether every operand index of `copies` is among `n` operands.
fn fits(copies: &[(usize, usize)], n: usize) -> bool {
    copies.iter().all(|&(d, s)| d.max(s) < n)
}
