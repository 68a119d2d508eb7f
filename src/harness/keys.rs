//! Thread-specific data (`pthread_key_create`, `pthread_setspecific`, `pthread_getspecific`)
//! in programs that create one key: the key's value in each thread is one thread-local global,
//! `pthread_specific`, an integer of pointer width that starts at 0 (NULL) in every thread.
//!
//! After `model_keys`, `pthread_getspecific(k)` loads the slot (and casts it to a pointer),
//! `pthread_setspecific(k, v)` stores `(uintptr_t)v` into it and returns 0, and
//! `pthread_key_create(&k, dtor)` writes any value into `k`, exposes `dtor` (the destructor runs
//! at some thread's exit: it is analysed on its own) and returns 0.
//!
//! Invariant: the rewriting is done only when every execution creates at most one key and no
//! code the analysis does not see runs, so that every key the program passes is that key (a key
//! not made by `pthread_key_create`, or deleted, is undefined behaviour in POSIX) and nothing
//! but these instructions sets a thread's value; otherwise the calls stay calls of unknown
//! functions, which keep and hand back pointers soundly.
//!
//! Soundness of the values: a pointer given to `pthread_setspecific` becomes an integer
//! (`ptrtoint`), which exposes what it points to, and what `pthread_getspecific` returns is
//! made from an integer (`inttoptr`), which points to any exposed object: the points-to
//! analysis loses nothing that comes back. The results 0 assume that the calls succeed
//! (`pthread_key_create` fails only past `PTHREAD_KEYS_MAX` keys, `pthread_setspecific` only
//! for an invalid key or out of memory), as lock calls are assumed to succeed.
//!
//! Conditions (`model_keys`, last in `watts::load_program`): one `pthread_key_create` call, in
//! `main`, outside every cycle of its blocks; `main` neither called nor named, without `setjmp` or
//! calls through pointers; the key functions called only by name; no unknown code.
//! `pthread_key_create` exposes its destructor (analysed on its own) and `Program::key_destructors`
//! tells the interpreter that a destructor exists.

use crate::ir::lib::LibFn;
use crate::ir::once::RunsOnce;
use crate::ir::{
    BlockId, Callee, CastOp, FuncId, Global, GlobalId, Inst, InstKind, Layout, ObjId, Object,
    ObjectKind, Operand, Program, ScalarKind, Ty, VarId, VarInfo,
};

/// The name of the slot global.
pub const SLOT: &str = "pthread_specific";

/// The functions of thread-specific data.
const KEY_FUNCTIONS: [LibFn; 4] = [
    LibFn::PthreadKeyCreate,
    LibFn::PthreadGetspecific,
    LibFn::PthreadSetspecific,
    LibFn::PthreadKeyDelete,
];

/// Whether `func` is a declared function of thread-specific data.
fn is_key_function(func: &crate::ir::Function) -> bool {
    func.library().is_some_and(|l| KEY_FUNCTIONS.contains(&l))
}

/// Rewrites the calls of thread-specific data into accesses of one thread-local slot when the
/// program creates at most one key (see the module documentation); returns whether it did.
pub fn model_keys(program: &mut Program) -> bool {
    let find = |l: LibFn| {
        (program.funcs.iter())
            .position(|f| f.library() == Some(l))
            .map(FuncId::from)
    };
    let [create, get, set, _] = KEY_FUNCTIONS.map(find);
    let Some(create) = create else {
        return false;
    };
    if !creates_once(program, create) || !only_called(program) || runs_foreign_code(program) {
        return false;
    }
    let bytes = program.pointer_size;
    let bits = bytes * 8;
    let slot = GlobalId::from(program.globals.len());
    let obj = ObjId::from(program.objects.len());
    program.objects.push(Object {
        kind: ObjectKind::Global(slot),
        name: SLOT.to_string(),
        layout: Some(Layout::scalar(bytes, ScalarKind::Int)),
        span: None,
    });
    program.globals.push(Global {
        name: SLOT.to_string(),
        obj,
        // Every thread's value of the key starts as NULL.
        init: Some(Vec::new()),
        is_internal: true,
        is_constant: false,
        // Only the instructions below access it, each as the address of a load or a store.
        thread_local: true,
        section: None,
        span: None,
    });
    let at = Operand::GlobalAddr(slot, 0);
    let mut destructors = false;
    // The destructors given by name (for `watts confirm`, which runs them).
    let mut dtors: Vec<FuncId> = Vec::new();
    let mut unknown_dtor = false;
    for func in &mut program.funcs {
        for bi in 0..func.blocks.len() {
            let insts = std::mem::take(&mut func.blocks[bi].insts);
            let mut out = Vec::with_capacity(insts.len());
            for inst in insts {
                let span = inst.span;
                let InstKind::Call {
                    dst,
                    callee: Callee::Direct(f),
                    args,
                } = inst.kind
                else {
                    out.push(inst);
                    continue;
                };
                let mut kinds = Vec::new();
                let succeeded = |kinds: &mut Vec<InstKind>| {
                    if let Some(d) = dst {
                        let value = Operand::Int { value: 0, bits: 32 };
                        kinds.push(InstKind::Copy { dst: d, src: value });
                    }
                };
                if f == create && !args.is_empty() {
                    // The key: any value (`pthread_key_t` is an `unsigned int`).
                    kinds.push(InstKind::Store {
                        ptr: args[0],
                        val: Operand::Unknown(Ty::Int(32)),
                        ty: Ty::Int(32),
                        size: 4,
                        order: crate::ir::MemOrder::NotAtomic,
                    });
                    // Soundness: the destructor runs at a thread's exit; exposed, it is
                    // analysed on its own, from an unknown state, at any time.
                    destructors |= args[1..].iter().any(|a| *a != Operand::Null);
                    for a in &args[1..] {
                        match a {
                            Operand::Null => {}
                            Operand::FuncAddr(d) if !dtors.contains(d) => dtors.push(*d),
                            Operand::FuncAddr(_) => {}
                            _ => unknown_dtor = true,
                        }
                    }
                    for a in &args[1..] {
                        let v = fresh(func, Ty::Int(bits));
                        kinds.push(InstKind::Cast {
                            dst: v,
                            op: CastOp::PtrToInt,
                            src: *a,
                            from: 0,
                            to: bits,
                        });
                    }
                    succeeded(&mut kinds);
                } else if Some(f) == get {
                    if let Some(d) = dst {
                        let v = fresh(func, Ty::Int(bits));
                        kinds.push(InstKind::Load {
                            dst: v,
                            ptr: at,
                            ty: Ty::Int(bits),
                            size: bytes,
                            order: crate::ir::MemOrder::NotAtomic,
                        });
                        kinds.push(InstKind::Cast {
                            dst: d,
                            op: CastOp::IntToPtr,
                            src: Operand::Var(v),
                            from: bits,
                            to: 0,
                        });
                    }
                } else if Some(f) == set && args.len() >= 2 {
                    let v = fresh(func, Ty::Int(bits));
                    kinds.push(InstKind::Cast {
                        dst: v,
                        op: CastOp::PtrToInt,
                        src: args[1],
                        from: 0,
                        to: bits,
                    });
                    kinds.push(InstKind::Store {
                        ptr: at,
                        val: Operand::Var(v),
                        ty: Ty::Int(bits),
                        size: bytes,
                        order: crate::ir::MemOrder::NotAtomic,
                    });
                    succeeded(&mut kinds);
                } else {
                    out.push(Inst {
                        kind: InstKind::Call {
                            dst,
                            callee: Callee::Direct(f),
                            args,
                        },
                        span,
                    });
                    continue;
                }
                out.extend(kinds.into_iter().map(|kind| Inst { kind, span }));
            }
            func.blocks[bi].insts = out;
        }
    }
    program.key_destructors = destructors;
    program.key_slot = Some(crate::ir::KeySlot {
        slot,
        destructor: match dtors[..] {
            [d] if !unknown_dtor => Some(d),
            _ => None,
        },
    });
    true
}

/// A fresh variable of `func`.
fn fresh(func: &mut crate::ir::Function, ty: Ty) -> VarId {
    func.vars.push(VarInfo::unnamed(ty));
    VarId::from(func.vars.len() - 1)
}

/// Whether every execution calls `pthread_key_create` (`create`) at most once: it has one call
/// site, in a block that runs at most once (`ir::once`).
fn creates_once(program: &Program, create: FuncId) -> bool {
    let mut sites = Vec::new();
    for (fi, func) in program.funcs.iter().enumerate() {
        for (bi, b) in func.blocks.iter().enumerate() {
            for inst in &b.insts {
                if let InstKind::Call {
                    callee: Callee::Direct(f),
                    ..
                } = &inst.kind
                {
                    if *f == create {
                        sites.push((FuncId::from(fi), BlockId::from(bi)));
                    }
                }
            }
        }
    }
    let [(f, b)] = sites[..] else {
        return false;
    };
    RunsOnce::compute(program).block(program, f, b)
}

/// Whether the functions of thread-specific data are only called by name (a call through a
/// pointer to one would not be rewritten).
fn only_called(program: &Program) -> bool {
    let taken = crate::ir::once::address_taken(program);
    !(program.funcs.iter().enumerate()).any(|(i, f)| is_key_function(f) && taken[i])
}

/// Whether code the analysis does not see may run (and hand the program a key it made): a
/// call of a declared function other than the argument-only library functions and those of
/// thread-specific data, the address of such a function, or memory-clobbering code the
/// lowering does not model (inline assembly).
fn runs_foreign_code(program: &Program) -> bool {
    let foreign = |f: FuncId| {
        let func = &program.funcs[f.index()];
        !func.is_defined
            && !func.library_props().is_some_and(|p| p.writes_only_args)
            && !is_key_function(func)
    };
    let in_init = (program.globals.iter())
        .filter_map(|g| g.init.as_ref())
        .flatten()
        .any(|c| matches!(c.value, crate::ir::InitValue::FuncAddr(f) if foreign(f)));
    let hidden =
        (program.hidden_addrs.iter()).any(|o| matches!(o, Operand::FuncAddr(f) if foreign(*f)));
    in_init
        || hidden
        || (program
            .funcs
            .iter()
            .flat_map(|g| &g.blocks)
            .flat_map(|b| &b.insts))
        .any(|inst| {
            let mut hit = match &inst.kind {
                InstKind::Call {
                    callee: Callee::Direct(f),
                    ..
                } => foreign(*f),
                InstKind::Havoc {
                    clobbers_memory, ..
                } => *clobbers_memory,
                _ => false,
            };
            inst.kind
                .for_each_use(|o| hit |= matches!(o, Operand::FuncAddr(f) if foreign(*f)));
            hit
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn modelled(src: &str) -> Option<Program> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.c");
        std::fs::write(
            &path,
            format!("#include <pthread.h>\n#include <stdlib.h>\n{src}"),
        )
        .expect("write");
        let mut p = crate::frontend::load(&Config::new(vec![path])).expect("compiles");
        model_keys(&mut p).then_some(p)
    }

    fn calls(p: &Program, name: &str) -> usize {
        let f = p.funcs.iter().position(|f| f.name == name);
        (p.funcs.iter().flat_map(|g| &g.blocks).flat_map(|b| &b.insts))
            .filter(|i| matches!(&i.kind, InstKind::Call { callee: Callee::Direct(g), .. } if Some(g.index()) == f))
            .count()
    }

    /// One key created once in `main`: the calls become accesses of the thread-local slot.
    #[test]
    fn one_key_made_once_is_a_thread_local_slot() {
        let p = modelled(
            "static pthread_key_t k;\n\
             static void dtor(void *v) { (void)v; }\n\
             static void *f(void *a) { (void)a; pthread_setspecific(k, (void *)3);\n\
               return pthread_getspecific(k); }\n\
             int main(void) { pthread_t t; pthread_key_create(&k, dtor);\n\
               pthread_create(&t, 0, f, 0); pthread_join(t, 0); return 0; }",
        )
        .expect("modelled");
        let slot = p.globals.iter().find(|g| g.name == SLOT).expect("slot");
        assert!(slot.thread_local && slot.is_internal);
        for name in [
            "pthread_key_create",
            "pthread_setspecific",
            "pthread_getspecific",
        ] {
            assert_eq!(calls(&p, name), 0, "{name}");
        }
        assert!(p.key_destructors);
    }

    /// Several keys (a loop, two sites, a creating function called twice), a function of
    /// thread-specific data named as a pointer, or unknown code: the calls stay calls.
    #[test]
    fn several_keys_or_unknown_code_leave_the_calls_alone() {
        let declined = [
            "int main(void) { pthread_key_t k[2]; for (int i = 0; i < 2; i++)\n\
               pthread_key_create(&k[i], 0); return 0; }",
            "int main(void) { pthread_key_t a, b; pthread_key_create(&a, 0);\n\
               pthread_key_create(&b, 0); return 0; }",
            "static pthread_key_t k; static void make(void) { pthread_key_create(&k, 0); }\n\
             int main(void) { make(); make(); return 0; }",
            "int (*set)(pthread_key_t, const void *) = pthread_setspecific;\n\
             int main(void) { pthread_key_t k; pthread_key_create(&k, 0);\n\
               set(k, 0); return 0; }",
            "int main(void) { pthread_key_t k; pthread_key_create(&k, 0);\n\
               return getenv(\"K\") != 0; }",
        ];
        for src in declined {
            assert!(modelled(src).is_none(), "{src}");
        }
    }
}
