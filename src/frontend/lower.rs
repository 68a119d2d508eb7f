//! Lowering a whole module: symbol tables, globals with their objects and initial contents,
//! and the driver that lowers each function block by block.
//!
//! Invariant: every function the source defines has its body in `ir::Program`; a call to one that
//! clang dropped anyway (a user's `-- -O0`) is preceded by a memory-clobbering `Havoc` and an
//! assertion that fails when reached (`guard_dropped_definitions`, which recognises definitions in
//! the source text).
//!
//! A `__thread` global whose every use is an `llvm.threadlocal.address` whose result is only
//! dereferenced (the address of a load or store, directly or through `getelementptr`:
//! `private_thread_local`) is marked `Global::thread_local`, and the intrinsic is lowered to the
//! global's address; any other thread-local global keeps the intrinsic as a `Havoc` (an unknown
//! pointer). Invariant: the address of a `thread_local` global reaches no instruction but the loads
//! and stores that dereference it, so each access touches the copy of the thread that runs it and
//! no other thread can name that copy.
//!
//! `Program::sync_sizes` records the sizes of `pthread_mutex_t`, `pthread_cond_t` and
//! `pthread_rwlock_t` as the module's C library and target define them (`sync_sizes`).

use std::collections::{HashMap, HashSet};

use inkwell::module::Module;
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};

use super::consts::Symbols;
use super::debuginfo::{self, Files, Names};
use super::ffi::{self, Bb, DataLayout, Val};
use super::field_names::FieldNames;
use super::layout::{layout_of, ty_of};
use super::signedness::TypeSigns;
use crate::confine::SourceRoots;
use crate::ir::lib::LibFn;
use crate::ir::{
    AssertId, AssertInfo, AssertKind, Block, BlockId, Callee, FuncId, Function, Global, GlobalId,
    Inst, InstKind, ObjId, Object, ObjectKind, Operand, Program, Span, Terminator, Ty, VarId,
    VarInfo,
};

/// Program-wide lowering state.
pub(crate) struct Ctx {
    /// Symbol tables and the data layout.
    pub syms: Symbols,
    /// Source files.
    pub files: Files,
    /// The program being built (functions are appended as they are lowered).
    pub program: Program,
    /// The library function each function's name is (`Function::lib`), classified once.
    /// Indexed by `FuncId`.
    pub libs: Vec<Option<LibFn>>,
}

/// Lowers a prepared module into a program.
/// Source text is read only as `roots` allow.
pub(crate) fn lower_module(module: &Module<'_>, roots: SourceRoots) -> Program {
    let m = module.as_mut_ptr();
    let dl = DataLayout(ffi::data_layout(m));
    let fvals = ffi::functions(m);
    let gvals = ffi::globals(m);
    let funcs = fvals
        .iter()
        .enumerate()
        .map(|(i, &f)| (f, FuncId::from(i)))
        .collect();
    let globals = gvals
        .iter()
        .enumerate()
        .map(|(i, &g)| (g, GlobalId::from(i)))
        .collect();
    // SAFETY: `m` is a live module.
    let llvm_ctx = unsafe { llvm_sys::core::LLVMGetModuleContext(m) };
    let nodes = ffi::metadata_nodes(m);
    let type_signs = TypeSigns::from_nodes(llvm_ctx, &nodes);
    let mut cx = Ctx {
        syms: Symbols {
            dl,
            funcs,
            func_vals: fvals.clone(),
            globals,
            field_names: {
                let mut names = FieldNames::from_nodes(llvm_ctx, &nodes, &type_signs);
                names.add_globals(llvm_ctx, &gvals, &type_signs);
                names
            },
            type_signs,
        },
        files: Files::new(roots),
        program: Program {
            pointer_size: dl.pointer_size(),
            ..Program::default()
        },
        libs: fvals
            .iter()
            .map(|f| super::library::classify(&f.name()))
            .collect(),
    };
    for (i, &g) in gvals.iter().enumerate() {
        lower_global(&mut cx, GlobalId::from(i), g);
    }
    for (i, &f) in fvals.iter().enumerate() {
        // Past the run's deadline the program is left partial: `frontend::load` then reports
        // the timeout, and a partial program is never analysed.
        if crate::budget::expired() {
            return cx.program;
        }
        let func = FnLower::lower(&mut cx, FuncId::from(i), f);
        cx.program.funcs.push(func);
    }
    let hidden = hidden_addrs(&cx.syms, &gvals, &fvals);
    cx.program.hidden_addrs.extend(hidden);
    let Ctx {
        files, mut program, ..
    } = cx;
    program.files = files.finish();
    program.sync_sizes = sync_sizes(m, dl);
    program.main = (program.funcs.iter())
        .position(|f| f.name == "main" && f.is_defined)
        .map(FuncId::from);
    program.exit_arrays = (program.globals.iter().enumerate())
        .filter(|(_, g)| is_exit_array(&g.name, g.section.as_deref()))
        .map(|(i, _)| GlobalId::from(i))
        .collect();
    guard_dropped_definitions(&mut program);
    program
}

/// Whether the C runtime reads this global at exit (destructors): `llvm.global_dtors`, or a
/// global in `.fini_array` or `.dtors` (with a suffix: `.fini_array.100`).
pub(super) fn is_exit_array(name: &str, section: Option<&str>) -> bool {
    name == "llvm.global_dtors"
        || section.is_some_and(|s| {
            [".fini_array", ".dtors"]
                .iter()
                .any(|b| s == *b || s.strip_prefix(b).is_some_and(|r| r.starts_with('.')))
        })
}

/// The sizes of the pthread synchronisation types as the module's C library and target define
/// them (glibc names them `union.pthread_mutex_t`, musl `struct.pthread_mutex_t`; C11's
/// `union.mtx_t` and `union.cnd_t` are the same objects); absent
/// when the module has no such type (nothing but pointers to one).
fn sync_sizes(m: llvm_sys::prelude::LLVMModuleRef, dl: DataLayout) -> crate::ir::SyncSizes {
    let size = |name: &str| {
        ["union.", "struct."]
            .iter()
            .find_map(|kind| ffi::named_type(m, &format!("{kind}{name}")))
            .map(|ty| dl.alloc_size(ty))
            .filter(|&n| n > 0)
    };
    // C11's `mtx_t` and `cnd_t` are unions of the sizes of `pthread_mutex_t` and
    // `pthread_cond_t` in glibc and musl (`__SIZEOF_PTHREAD_MUTEX_T`): a program of C11 threads
    // alone has only them.
    crate::ir::SyncSizes {
        mutex: size("pthread_mutex_t").or_else(|| size("mtx_t")),
        cond: size("pthread_cond_t").or_else(|| size("cnd_t")),
        rwlock: size("pthread_rwlock_t"),
    }
}

/// Makes every call to a function that the source defines but the module only declares an
/// assertion that may fail.
///
/// Soundness: such a definition was dropped by clang (an inline-only definition compiled at
/// -O0, which a user's `-- -O0` brings back; see `clang::compile`), so its body and every
/// assertion in it are missing, and treating the call as an unknown function would prove the
/// program with its errors unseen. The call becomes a `Havoc` that clobbers memory (so that
/// `confirm` abandons the execution there instead of claiming a violation) followed by an
/// assertion that fails when reached. A definition is recognised in the text of the program's
/// files (`name (...) {`), which may also match what is not one (a macro): that only costs a
/// may-fail.
fn guard_dropped_definitions(program: &mut Program) {
    let texts: Vec<&str> = program
        .files
        .iter()
        .filter_map(|f| f.text.as_deref())
        .collect();
    let dropped: Vec<bool> = program
        .funcs
        .iter()
        .map(|f| {
            !f.is_defined
                && !f.name.starts_with("llvm.")
                && !f.name.is_empty()
                && texts.iter().any(|t| defines(t, &f.name))
        })
        .collect();
    if !dropped.iter().any(|&d| d) {
        return;
    }
    for fi in 0..program.funcs.len() {
        for bi in 0..program.funcs[fi].blocks.len() {
            let insts = std::mem::take(&mut program.funcs[fi].blocks[bi].insts);
            let mut out = Vec::with_capacity(insts.len());
            for inst in insts {
                if let InstKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } = &inst.kind
                {
                    if dropped[g.index()] {
                        let name = program.funcs[g.index()].name.clone();
                        out.push(Inst {
                            kind: InstKind::Havoc {
                                dst: None,
                                clobbers_memory: true,
                                reason: format!(
                                    "the source defines `{name}`, but clang dropped its body \
                                     (an inline-only definition compiled at -O0)"
                                ),
                            },
                            span: inst.span,
                        });
                        let id = AssertId::from(program.asserts.len());
                        program.asserts.push(AssertInfo {
                            func: FuncId::from(fi),
                            kind: AssertKind::ReachError,
                            span: inst.span,
                            condition: format!("the missing body of `{name}`"),
                            cond_vars: Vec::new(),
                            guard_blocks: Vec::new(),
                        });
                        out.push(Inst {
                            kind: InstKind::Assert { id, cond: None },
                            span: inst.span,
                        });
                    }
                }
                out.push(inst);
            }
            program.funcs[fi].blocks[bi].insts = out;
        }
    }
}

/// Whether `text` holds what looks like a definition of function `name`: the name as a whole
/// identifier, a balanced parameter list, then `{`.
pub(crate) fn defines(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let mut from = 0;
    while let Some(pos) = text[from..].find(name) {
        let start = from + pos;
        let end = start + name.len();
        from = end;
        if (start > 0 && is_ident(bytes[start - 1])) || bytes.get(end).is_some_and(|&b| is_ident(b))
        {
            continue;
        }
        let mut i = end;
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'(') {
            continue;
        }
        let mut depth = 0usize;
        while let Some(&b) = bytes.get(i) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b';' | b'{' | b'}' => break,
                _ => {}
            }
            i += 1;
        }
        if bytes.get(i) != Some(&b')') {
            continue;
        }
        i += 1;
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if bytes.get(i) == Some(&b'{') {
            return true;
        }
    }
    false
}

/// Every address that a constant of the module hides in an integer or an untracked value
/// (see `Symbols::hidden_addrs`), in code operands and in global initialisers.
fn hidden_addrs(syms: &Symbols, gvals: &[Val], fvals: &[Val]) -> Vec<Operand> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for &g in gvals {
        if !g.is_declaration() {
            syms.hidden_addrs(g.initializer(), false, &mut seen, &mut out);
        }
    }
    for &f in fvals {
        if f.is_declaration() {
            continue;
        }
        for bb in f.blocks() {
            for inst in bb.instructions() {
                for i in 0..inst.num_operands() {
                    let v = inst.operand(i);
                    if v.is_null() {
                        continue;
                    }
                    // A pointer-typed constant operand is tracked when `const_addr` resolves it;
                    // an integer, aggregate or vector constant reaches the analysis as unknown.
                    let hidden = v.ty().kind() != LLVMTypeKind::LLVMPointerTypeKind;
                    syms.hidden_addrs(v, hidden, &mut seen, &mut out);
                }
            }
        }
    }
    let mut unique: Vec<Operand> = Vec::new();
    for o in out {
        if !unique.contains(&o) {
            unique.push(o);
        }
    }
    unique
}

fn lower_global(cx: &mut Ctx, id: GlobalId, g: Val) {
    let name = g.name();
    let span = cx.files.span_of_global(g);
    let obj = ObjId::from(cx.program.objects.len());
    let mut layout = layout_of(g.global_value_type(), cx.syms.dl, &cx.syms.field_names);
    if let (Some(l), Some(sign)) = (&mut layout, cx.syms.type_signs.of_global(g)) {
        l.set_sign(sign);
    }
    cx.program.objects.push(Object {
        kind: ObjectKind::Global(id),
        name: name.clone(),
        layout,
        span,
    });
    let init = if g.is_declaration() {
        None
    } else {
        let init = g.initializer();
        Some(if init.is_null() {
            Vec::new()
        } else {
            cx.syms.init_cells(init)
        })
    };
    cx.program.globals.push(Global {
        name,
        obj,
        init,
        is_internal: g.is_internal(),
        is_constant: g.is_global_constant(),
        thread_local: g.is_thread_local() && private_thread_local(g),
        section: g.section(),
        span,
    });
}

/// Whether every use of the thread-local global `g` is the argument of
/// `llvm.threadlocal.address` whose result is only dereferenced (`only_dereferenced`): then each
/// access reaches the copy of the thread that runs it, and no other thread can reach that copy.
///
/// Soundness: an address that goes anywhere else (a call, a store of the pointer, a cast, a
/// comparison, a phi, a constant expression, `memcpy`) may reach another thread, which then
/// accesses this thread's copy; such a variable is not marked, and its accesses stay unknown.
fn private_thread_local(g: Val) -> bool {
    g.users().into_iter().all(|u| {
        u.is_instruction()
            && u.opcode() == llvm_sys::LLVMOpcode::LLVMCall
            && u.called_value()
                .name()
                .starts_with("llvm.threadlocal.address")
            && only_dereferenced(u, 0)
    })
}

/// Whether every use of the address `p` is the address operand of a load or a store (not the
/// stored value), or the base of a `getelementptr` whose result is only dereferenced.
pub(super) fn only_dereferenced(p: Val, depth: u32) -> bool {
    use llvm_sys::LLVMOpcode::{LLVMGetElementPtr, LLVMLoad, LLVMStore};
    depth < 16
        && p.users().into_iter().all(|u| {
            if !u.is_instruction() {
                return false;
            }
            let others = |from: u32| (from..u.num_operands()).all(|i| u.operand(i) != p);
            match u.opcode() {
                LLVMLoad => u.operand(0) == p,
                LLVMStore => u.operand(0) != p && u.operand(1) == p,
                LLVMGetElementPtr => {
                    u.operand(0) == p && others(1) && only_dereferenced(u, depth + 1)
                }
                _ => false,
            }
        })
}

/// Whether a function of this library row has a body that is an assertion helper
/// (`reach_error`, `__VERIFIER_error`, `__VERIFIER_assert`): assertion sites inside it are not
/// registered, because calls to it are the assertion sites.
fn is_assert_helper(lib: Option<LibFn>) -> bool {
    lib.and_then(|l| l.props().assertion)
        .is_some_and(|k| matches!(k, AssertKind::ReachError | AssertKind::VerifierAssert))
}

/// An assertion whose guard blocks and condition variables are filled in after the function.
pub(crate) struct PendingAssert {
    /// Its id.
    pub id: AssertId,
    /// The IR block holding the `Assert` (for `Macro`: its predecessors are the guards).
    pub block: BlockId,
    /// LLVM values the condition starts from (`__VERIFIER_assert`'s argument); empty for
    /// `Macro`, whose roots are the guards' branch conditions.
    pub roots: Vec<Val>,
}

/// The lowering of one function.
pub(crate) struct FnLower<'a> {
    /// Program-wide state.
    pub cx: &'a mut Ctx,
    /// This function.
    pub fid: FuncId,
    /// Its LLVM name.
    pub fname: String,
    /// Its vars.
    pub vars: Vec<VarInfo>,
    /// LLVM value to var.
    pub var_of: HashMap<Val, VarId>,
    /// `cmpxchg` instruction to its (old, ok) vars.
    pub cmpxchg: HashMap<Val, (VarId, VarId)>,
    /// LLVM block to IR block.
    pub block_of: HashMap<Bb, BlockId>,
    /// LLVM blocks in IR order.
    pub llvm_blocks: Vec<Bb>,
    /// Source names.
    pub names: Names,
    /// Whether this is the body of an assertion helper.
    pub in_assert_helper: bool,
    /// Assertions to finish.
    pub pending: Vec<PendingAssert>,
    /// The IR block being lowered.
    pub cur_block: BlockId,
    /// The function's return type (`None` for void).
    pub ret_ty: Option<Ty>,
}

/// What the lowering of a non-terminator instruction means for the rest of the block.
pub(crate) enum Flow {
    /// Go on with the next instruction.
    Next,
    /// The block ends here (a call that does not return): the rest is dead.
    End(Terminator),
}

impl<'a> FnLower<'a> {
    fn lower(cx: &'a mut Ctx, fid: FuncId, f: Val) -> Function {
        let fname = f.name();
        let fty = f.global_value_type();
        let ret_ty = fty.return_type();
        let ret = (ret_ty.kind() != LLVMTypeKind::LLVMVoidTypeKind).then(|| ty_of(ret_ty));
        let is_defined = !f.is_declaration();
        let span = cx.files.span_of_global(f);
        let names = if is_defined {
            debuginfo::names(f, &cx.syms.type_signs)
        } else {
            Names::default()
        };
        let in_assert_helper = is_assert_helper(cx.libs[fid.index()]);
        let mut this = FnLower {
            cx,
            fid,
            in_assert_helper,
            fname,
            vars: Vec::new(),
            var_of: HashMap::new(),
            cmpxchg: HashMap::new(),
            block_of: HashMap::new(),
            llvm_blocks: Vec::new(),
            names,
            pending: Vec::new(),
            cur_block: BlockId(0),
            ret_ty: ret,
        };
        let mut params = Vec::new();
        for p in f.params() {
            params.push(this.new_var_for(p));
        }
        let mut blocks = Vec::new();
        let mut first_span = None;
        if is_defined {
            this.number(f);
            for (i, bb) in this.llvm_blocks.clone().into_iter().enumerate() {
                this.cur_block = BlockId::from(i);
                let block = this.lower_block(bb);
                if first_span.is_none() {
                    first_span = block.insts.iter().find_map(|i| i.span).or(block.term_span);
                }
                blocks.push(block);
            }
            this.finish_asserts(&blocks);
        }
        Function {
            lib: this.cx.libs[fid.index()],
            name: this.fname,
            params,
            vars: this.vars,
            blocks,
            ret,
            is_defined,
            is_internal: f.is_internal(),
            is_variadic: fty.is_vararg(),
            span: span.or(first_span),
        }
    }

    /// A fresh var for an LLVM value (named from the debug info if possible).
    fn new_var_for(&mut self, v: Val) -> VarId {
        let id = VarId::from(self.vars.len());
        let source = self.names.values.get(&v);
        self.vars.push(VarInfo {
            ty: ty_of(v.ty()),
            name: source.map(|s| s.name.clone()),
            sign: source.map(|s| s.sign).unwrap_or_default(),
        });
        self.var_of.insert(v, id);
        id
    }

    /// A fresh var of type `ty` that holds no source variable.
    pub fn fresh_var(&mut self, ty: Ty) -> VarId {
        let id = VarId::from(self.vars.len());
        self.vars.push(VarInfo::unnamed(ty));
        id
    }

    /// Numbers blocks and gives every value-producing instruction a var (operands may refer
    /// forward, through phis).
    fn number(&mut self, f: Val) {
        self.llvm_blocks = f.blocks();
        for (i, &bb) in self.llvm_blocks.iter().enumerate() {
            self.block_of.insert(bb, BlockId::from(i));
        }
        for bb in self.llvm_blocks.clone() {
            for inst in bb.instructions() {
                let t = inst.ty();
                if t.kind() == LLVMTypeKind::LLVMVoidTypeKind || debuginfo::is_dbg_call(inst) {
                    continue;
                }
                if inst.opcode() == LLVMOpcode::LLVMAtomicCmpXchg {
                    let fields = t.struct_fields();
                    let old_ty = fields.first().map(|&t| ty_of(t)).unwrap_or(Ty::Other);
                    let old = self.fresh_var(old_ty);
                    let ok = self.fresh_var(Ty::Int(1));
                    self.cmpxchg.insert(inst, (old, ok));
                    continue;
                }
                self.new_var_for(inst);
            }
        }
    }

    /// The var of a value-producing instruction (numbered beforehand).
    pub fn var(&mut self, inst: Val) -> VarId {
        match self.var_of.get(&inst) {
            Some(&v) => v,
            None => self.new_var_for(inst),
        }
    }

    /// The var of a call's result if the call produces a used value.
    pub fn used_result(&mut self, inst: Val) -> Option<VarId> {
        (inst.ty().kind() != LLVMTypeKind::LLVMVoidTypeKind && inst.has_uses())
            .then(|| self.var(inst))
    }

    /// The var of an instruction's result if it is not void.
    pub fn result(&mut self, inst: Val) -> Option<VarId> {
        (inst.ty().kind() != LLVMTypeKind::LLVMVoidTypeKind).then(|| self.var(inst))
    }

    /// An LLVM value as an operand.
    pub fn op(&self, v: Val) -> Operand {
        if v.is_null() {
            return Operand::Unknown(Ty::Other);
        }
        match v.kind() {
            LLVMValueKind::LLVMArgumentValueKind | LLVMValueKind::LLVMInstructionValueKind => {
                match self.var_of.get(&v) {
                    Some(&id) => Operand::Var(id),
                    None => Operand::Unknown(ty_of(v.ty())),
                }
            }
            _ => self.cx.syms.const_operand(v),
        }
    }

    /// The IR block of an LLVM block.
    pub fn block(&self, bb: Bb) -> BlockId {
        // Every successor is a block of this function (the module verified).
        self.block_of.get(&bb).copied().unwrap_or(BlockId(0))
    }

    /// The span of an instruction.
    pub fn span(&mut self, inst: Val) -> Option<Span> {
        self.cx.files.span_of_inst(inst)
    }

    fn lower_block(&mut self, bb: Bb) -> Block {
        let mut phis = Vec::new();
        let mut insts: Vec<Inst> = Vec::new();
        for inst in bb.instructions() {
            if inst.opcode() == LLVMOpcode::LLVMPHI {
                let dst = self.var(inst);
                let incoming = inst
                    .incoming()
                    .into_iter()
                    .map(|(v, b)| (self.block(b), self.op(v)))
                    .collect();
                phis.push(crate::ir::Phi { dst, incoming });
                continue;
            }
            let span = self.span(inst);
            if is_terminator(inst.opcode()) {
                let term = self.lower_terminator(inst, &mut insts, span);
                return Block {
                    phis,
                    insts,
                    term,
                    term_span: span,
                };
            }
            let mut out = Vec::new();
            let flow = self.lower_inst(inst, &mut out);
            insts.extend(out.into_iter().map(|kind| Inst { kind, span }));
            if let Flow::End(term) = flow {
                return Block {
                    phis,
                    insts,
                    term,
                    term_span: span,
                };
            }
        }
        // A block without terminator does not verify; be defensive anyway.
        let reason = "block without terminator".to_string();
        insts.push(Inst {
            kind: InstKind::Havoc {
                dst: None,
                clobbers_memory: true,
                reason,
            },
            span: None,
        });
        Block {
            phis,
            insts,
            term: Terminator::Stop {
                reason: crate::ir::StopReason::Unreachable,
            },
            term_span: None,
        }
    }

    /// Registers an assertion site and returns its id.
    pub fn new_assert(&mut self, info: AssertInfo, roots: Vec<Val>) -> AssertId {
        let id = AssertId::from(self.cx.program.asserts.len());
        self.cx.program.asserts.push(info);
        self.pending.push(PendingAssert {
            id,
            block: self.cur_block,
            roots,
        });
        id
    }
}

/// Whether an opcode ends a block.
pub(crate) fn is_terminator(op: LLVMOpcode) -> bool {
    use LLVMOpcode::*;
    matches!(
        op,
        LLVMRet
            | LLVMBr
            | LLVMSwitch
            | LLVMIndirectBr
            | LLVMInvoke
            | LLVMUnreachable
            | LLVMCallBr
            | LLVMResume
            | LLVMCleanupRet
            | LLVMCatchRet
            | LLVMCatchSwitch
    )
}
