//! Front-end tests: small C programs compiled with clang-19 and checked after lowering.

use std::path::PathBuf;

use crate::config::Config;
use crate::error::InputError;
use crate::ir::*;

/// Writes `files` into a fresh directory and returns it (kept alive by the guard).
fn write(files: &[(&str, &[u8])]) -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().expect("tempdir");
    let paths = files
        .iter()
        .map(|(name, text)| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).expect("write");
            p
        })
        .collect();
    (dir, paths)
}

fn load_files(files: &[(&str, &[u8])], args: &[&str]) -> Result<Program, InputError> {
    let (_dir, paths) = write(files);
    let mut config = Config::new(paths);
    config.clang_args = args.iter().map(|s| s.to_string()).collect();
    super::load(&config)
}

fn lower_c(src: &str) -> Program {
    match load_files(&[("t.c", src.as_bytes())], &[]) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    }
}

fn func<'p>(p: &'p Program, name: &str) -> &'p Function {
    p.funcs
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn insts(f: &Function) -> impl Iterator<Item = &InstKind> {
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| &i.kind))
}

fn only_assert(p: &Program) -> &AssertInfo {
    assert_eq!(p.asserts.len(), 1, "{}", super::dump(p));
    &p.asserts[0]
}

/// The block of `f` holding the `Assert` instruction of `id`, and the instruction's index.
fn assert_site(f: &Function, id: AssertId) -> (usize, usize) {
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if matches!(inst.kind, InstKind::Assert { id: x, .. } if x == id) {
                return (b, i);
            }
        }
    }
    panic!("no Assert {id:?}");
}

#[test]
fn global_initializers_have_cells_at_offsets() {
    let p = lower_c(
        "struct S { int a; char c; long f; };\n\
         struct S s = { 1, 'x', -7 };\n\
         int arr[4] = { 5, 0, 6 };\n\
         char str[] = \"hi\";\n\
         int *pa = &arr[2];\n\
         struct S zero;\n\
         extern int ext;\n\
         int f(void) { return ext; }\n\
         int (*fp)(void) = f;\n",
    );
    let g = |name: &str| p.globals.iter().position(|g| g.name == name).expect(name);
    let cells = |name: &str| p.globals[g(name)].init.clone().expect("defined");
    let cell = |offset, size, value| InitCell {
        offset,
        size,
        value,
    };
    assert_eq!(
        cells("s"),
        vec![
            cell(0, 4, InitValue::Int(1)),
            cell(4, 1, InitValue::Int(120)),
            cell(8, 8, InitValue::Int(-7))
        ]
    );
    assert_eq!(
        cells("arr"),
        vec![cell(0, 4, InitValue::Int(5)), cell(8, 4, InitValue::Int(6))]
    );
    assert_eq!(
        cells("str"),
        vec![
            cell(0, 1, InitValue::Int(104)),
            cell(1, 1, InitValue::Int(105))
        ]
    );
    assert_eq!(
        cells("pa"),
        vec![cell(
            0,
            8,
            InitValue::GlobalAddr(GlobalId::from(g("arr")), 8)
        )]
    );
    assert_eq!(cells("zero"), vec![]);
    assert!(p.globals[g("ext")].init.is_none());
    let f = p.funcs.iter().position(|f| f.name == "f").expect("f");
    assert_eq!(
        cells("fp"),
        vec![cell(0, 8, InitValue::FuncAddr(FuncId::from(f)))]
    );
    // Layouts.
    let s_obj = &p.objects[p.globals[g("s")].obj.index()];
    assert_eq!(s_obj.kind, ObjectKind::Global(GlobalId::from(g("s"))));
    let Some(Layout::Struct {
        size: 16, fields, ..
    }) = &s_obj.layout
    else {
        panic!("{:?}", s_obj.layout)
    };
    let offsets: Vec<u64> = fields.iter().map(|(o, _)| *o).collect();
    assert_eq!(offsets, vec![0, 4, 8]);
    assert_eq!(fields[2].1, Layout::scalar(8, ScalarKind::Int));
    let arr = &p.objects[p.globals[g("arr")].obj.index()];
    assert_eq!(
        arr.layout,
        Some(Layout::Array {
            elem: Box::new(Layout::scalar(4, ScalarKind::Int)),
            stride: 4,
            count: 4
        })
    );
    let pa = &p.objects[p.globals[g("pa")].obj.index()];
    assert_eq!(pa.layout, Some(Layout::scalar(8, ScalarKind::Ptr)));
    assert_eq!(p.pointer_size, 8);
}

#[test]
fn assert_macro_is_one_macro_assertion() {
    let p = lower_c(
        "#include <assert.h>\n\
         int g;\n\
         int main(void) {\n\
         \x20 int x = g + 1;\n\
         \x20 assert(x > 0);\n\
         \x20 return 0;\n\
         }\n",
    );
    let a = only_assert(&p);
    assert_eq!(a.kind, AssertKind::Macro);
    assert_eq!(a.condition, "x > 0");
    let main = func(&p, "main");
    assert_eq!(p.funcs[a.func.index()].name, "main");
    let span = a.span.expect("span");
    assert_eq!((span.line, span.col), (5, 3));
    assert!(p.files[span.file.0 as usize].path.ends_with("t.c"));
    assert!(p.files[span.file.0 as usize]
        .text
        .as_deref()
        .unwrap_or("")
        .contains("assert(x > 0)"));
    let (b, i) = assert_site(main, AssertId(0));
    assert!(matches!(
        main.blocks[b].insts[i].kind,
        InstKind::Assert { cond: None, .. }
    ));
    assert_eq!(
        i,
        main.blocks[b].insts.len() - 1,
        "the Assert ends the block"
    );
    assert_eq!(
        main.blocks[b].term,
        Terminator::Stop {
            reason: StopReason::ProcessExit
        }
    );
    assert!(!a.guard_blocks.is_empty());
    for g in &a.guard_blocks {
        let Terminator::CondBr { then_, else_, .. } = main.blocks[g.index()].term else {
            panic!("guard without CondBr")
        };
        assert!(then_.index() == b || else_.index() == b);
    }
    assert_eq!(
        a.cond_vars
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        vec!["x"]
    );
    let x = a.cond_vars[0].var;
    assert_eq!(main.vars[x.index()].name.as_deref(), Some("x"));
    // The __assert_fail declaration is there, but not called.
    assert!(!insts(main).any(|k| matches!(k, InstKind::Call { .. })));
}

#[test]
fn verifier_assert_keeps_condition_and_text() {
    let p = lower_c(
        "extern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_assert(int);\n\
         int main(void) {\n\
         \x20 int n = __VERIFIER_nondet_int();\n\
         \x20 __VERIFIER_assert( n != 3 &&\n\
         \x20     n < (4 * 2) );\n\
         \x20 return 0;\n\
         }\n",
    );
    let a = only_assert(&p);
    assert_eq!(a.kind, AssertKind::VerifierAssert);
    assert_eq!(a.condition, "n != 3 && n < (4 * 2)");
    assert!(a.guard_blocks.is_empty());
    assert_eq!(
        a.cond_vars
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        vec!["n"]
    );
    let main = func(&p, "main");
    let (b, i) = assert_site(main, AssertId(0));
    assert!(matches!(
        main.blocks[b].insts[i].kind,
        InstKind::Assert {
            cond: Some(Operand::Var(_)),
            ..
        }
    ));
    // Declared only: no call after it.
    assert!(!insts(main).any(|k| matches!(k, InstKind::Call { .. })));
    assert!(insts(main).any(|k| matches!(
        k,
        InstKind::Nondet {
            ty: Ty::Int(32),
            is_bool: false,
            ..
        }
    )));
}

#[test]
fn reach_error_is_an_assertion_and_helper_bodies_are_not() {
    let p = lower_c(
        "#include <assert.h>\n\
         void reach_error() { assert(0); }\n\
         void __VERIFIER_assert(int c) { if (!c) { ERROR: { reach_error(); } } return; }\n\
         int g;\n\
         int main(void) {\n\
         \x20 if (g > 5) reach_error();\n\
         \x20 __VERIFIER_assert(g != 7);\n\
         \x20 g = 1;\n\
         \x20 return 0;\n\
         }\n",
    );
    assert_eq!(p.asserts.len(), 2, "{}", super::dump(&p));
    let main = func(&p, "main");
    let r = &p.asserts[0];
    assert_eq!(r.kind, AssertKind::ReachError);
    assert_eq!(r.condition, "reach_error()");
    assert_eq!(r.span.map(|s| s.line), Some(6));
    let (b, i) = assert_site(main, AssertId(0));
    // Defined: the call follows, and the block goes on.
    assert!(matches!(
        main.blocks[b].insts[i + 1].kind,
        InstKind::Call { .. }
    ));
    assert!(matches!(main.blocks[b].term, Terminator::Br(_)));
    let v = &p.asserts[1];
    assert_eq!(v.kind, AssertKind::VerifierAssert);
    assert_eq!(v.condition, "g != 7");
    assert_eq!(
        v.cond_vars
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        vec!["g"]
    );
    // The bodies hold no Assert; reach_error's assert(0) just stops.
    let re = func(&p, "reach_error");
    assert!(!insts(re).any(|k| matches!(k, InstKind::Assert { .. })));
    assert!(re.blocks.iter().any(|b| b.term
        == Terminator::Stop {
            reason: StopReason::ProcessExit
        }));
    let va = func(&p, "__VERIFIER_assert");
    assert!(!insts(va).any(|k| matches!(k, InstKind::Assert { .. })));
    assert!(insts(va).any(|k| matches!(k, InstKind::Call { .. })));
}

#[test]
fn pthread_create_is_a_thread_creation() {
    let p = lower_c(
        "#include <pthread.h>\n\
         pthread_mutex_t m;\n\
         int shared;\n\
         void *f(void *p) { pthread_mutex_lock(&m); shared += *(int *)p; pthread_mutex_unlock(&m); return 0; }\n\
         int main(void) {\n\
         \x20 pthread_t t; int arg = 1;\n\
         \x20 pthread_create(&t, 0, f, &arg);\n\
         \x20 pthread_join(t, 0);\n\
         \x20 return shared;\n\
         }\n",
    );
    let main = func(&p, "main");
    let fid = FuncId::from(p.funcs.iter().position(|f| f.name == "f").expect("f"));
    let create = insts(main)
        .find(|k| matches!(k, InstKind::ThreadCreate { .. }))
        .expect("create");
    let InstKind::ThreadCreate {
        entry, handle, arg, ..
    } = create
    else {
        unreachable!()
    };
    assert_eq!(*entry, Operand::FuncAddr(fid));
    let alloca_obj = |v: &Operand| {
        let Operand::Var(v) = v else { panic!("{v:?}") };
        insts(main)
            .find_map(|k| match k {
                InstKind::Alloca { dst, obj } if dst == v => {
                    Some(p.objects[obj.index()].name.clone())
                }
                _ => None,
            })
            .expect("alloca")
    };
    assert_eq!(alloca_obj(handle), "main::t");
    assert_eq!(alloca_obj(arg), "main::arg");
    assert!(insts(main).any(|k| matches!(
        k,
        InstKind::ThreadJoin {
            retval: Operand::Null,
            ..
        }
    )));
    let fb = func(&p, "f");
    let m = GlobalId::from(p.globals.iter().position(|g| g.name == "m").expect("m"));
    assert!(insts(fb)
        .any(|k| matches!(k, InstKind::Lock { lock: Operand::GlobalAddr(g, 0), .. } if *g == m)));
    assert!(insts(fb)
        .any(|k| matches!(k, InstKind::Unlock { lock: Operand::GlobalAddr(g, 0), .. } if *g == m)));
}

/// C11 threads: `thrd_create(thr, func, arg)` and `thrd_join(thr, res)` are a creation and a
/// join whose result is an `int`, `mtx_lock` and `mtx_unlock` a lock and an unlock, and
/// `thrd_exit` ends the thread alone; the sizes of `mtx_t` and `cnd_t` are the mutex's and
/// the condition's.
#[test]
fn c11_threads_are_threads_and_locks() {
    let p = lower_c(
        "#include <threads.h>\n\
         mtx_t m; cnd_t c;\n\
         int shared;\n\
         int f(void *p) { mtx_lock(&m); shared += *(int *)p; mtx_unlock(&m); thrd_exit(3); }\n\
         int main(void) {\n\
         \x20 thrd_t t; int arg = 1, res;\n\
         \x20 cnd_init(&c);\n\
         \x20 thrd_create(&t, f, &arg);\n\
         \x20 thrd_join(t, &res);\n\
         \x20 return shared + res;\n\
         }\n",
    );
    let main = func(&p, "main");
    let fid = FuncId::from(p.funcs.iter().position(|f| f.name == "f").expect("f"));
    assert!(insts(main).any(|k| matches!(
        k,
        InstKind::ThreadCreate { entry: Operand::FuncAddr(g), .. } if *g == fid
    )));
    assert!(insts(main).any(|k| matches!(
        k,
        InstKind::ThreadJoin {
            retval: Operand::Var(_),
            result_bits: 32,
            ..
        }
    )));
    let fb = func(&p, "f");
    assert!(insts(fb).any(|k| matches!(k, InstKind::Lock { .. })));
    assert!(insts(fb).any(|k| matches!(k, InstKind::Unlock { .. })));
    assert!(fb.blocks.iter().any(|b| b.term
        == Terminator::Stop {
            reason: StopReason::ThreadExit
        }));
    assert!(p.sync_sizes.mutex.is_some_and(|n| n > 0));
    assert!(p.sync_sizes.cond.is_some_and(|n| n > 0));
}

#[test]
fn gep_into_array_of_structs() {
    let p = lower_c(
        "struct S { int a; char c; long f; };\n\
         struct S a[10];\n\
         long get(int i) { return a[i].f; }\n",
    );
    let f = func(&p, "get");
    let geps: Vec<_> = insts(f)
        .filter_map(|k| match k {
            InstKind::Gep {
                offset, indices, ..
            } => Some((*offset, indices.clone())),
            _ => None,
        })
        .collect();
    // clang emits `gep [10 x S], @a, 0, idx` then `gep S, p, 0, 2`; or one of them folded.
    let total: i64 = geps.iter().map(|(o, _)| *o).sum();
    let strides: Vec<u64> = geps
        .iter()
        .flat_map(|(_, i)| i.iter().map(|(_, s)| *s))
        .collect();
    assert_eq!(total, 8, "{geps:?}");
    assert_eq!(strides, vec![16]);
    let Some((_, idx)) = geps.iter().find(|(_, i)| !i.is_empty()) else {
        panic!()
    };
    assert!(matches!(idx[0].0, Operand::Var(_)));
}

#[test]
fn invalid_ll_is_invalid_ir() {
    let r = load_files(
        &[("bad.ll", b"define i32 @main() {\n  ret i32 %nope\n}\n")],
        &[],
    );
    match r {
        Err(InputError::InvalidIr { message, .. }) => {
            assert!(message.contains("nope"), "{message}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn garbage_bitcode_is_invalid_ir() {
    for bytes in [
        &b"\x00\x01garbage\xff\xfe"[..],
        &b"BC\xC0\xDE\x35\x14\x00\x00\x05\x00\x00\x00\x62\x0C\x30"[..],
    ] {
        match load_files(&[("bad.bc", bytes)], &[]) {
            Err(InputError::InvalidIr { .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn c_syntax_error_is_compile_failed() {
    match load_files(&[("bad.c", b"int main(void) { return 0 }\n")], &[]) {
        Err(InputError::CompileFailed { diagnostics, .. }) => {
            assert!(diagnostics.contains("expected ';'"), "{diagnostics}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn missing_and_unknown_files() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nope.c");
    match super::load(&Config::new(vec![missing.clone()])) {
        Err(InputError::MissingFile(p)) => assert_eq!(p, missing),
        other => panic!("{other:?}"),
    }
    match load_files(&[("x.txt", b"int main;")], &[]) {
        Err(InputError::UnknownFileType(_)) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn m32_has_four_byte_pointers() {
    let src = b"int *p; struct T { char c; int *q; } t; int main(void) { return 0; }\n";
    let p = load_files(&[("t.c", src)], &["-m32"]).expect("compiles");
    assert_eq!(p.pointer_size, 4);
    let t = p.globals.iter().find(|g| g.name == "t").expect("t");
    let Some(Layout::Struct { size, fields, .. }) = &p.objects[t.obj.index()].layout else {
        panic!()
    };
    assert_eq!((*size, fields[1].0), (8, 4));
}

#[test]
fn ll_input_is_promoted_and_linked() {
    // Unpromoted IR, as clang -O0 writes it: mem2reg must turn the alloca into SSA values.
    let lib = b"define i32 @twice(i32 %x) #0 {\n\
        entry:\n\
        \x20 %p = alloca i32\n\
        \x20 store i32 %x, ptr %p\n\
        \x20 %v = load i32, ptr %p\n\
        \x20 %r = mul i32 %v, 2\n\
        \x20 ret i32 %r\n\
        }\n\
        attributes #0 = { noinline nounwind optnone }\n";
    let main = b"int twice(int);\nint main(void) { return twice(21); }\n";
    let p = load_files(&[("main.c", main), ("lib.ll", lib)], &[]).expect("loads");
    let twice = func(&p, "twice");
    assert!(twice.is_defined);
    let kinds: Vec<_> = insts(twice).collect();
    assert!(
        matches!(
            kinds.as_slice(),
            [InstKind::Bin {
                op: BinOp::Mul,
                bits: 32,
                ..
            }]
        ),
        "{kinds:?}"
    );
    let main = func(&p, "main");
    let tid = FuncId::from(
        p.funcs
            .iter()
            .position(|f| f.name == "twice")
            .expect("twice"),
    );
    assert!(insts(main)
        .any(|k| matches!(k, InstKind::Call { callee: Callee::Direct(f), .. } if *f == tid)));
}

#[test]
fn atomics_nondet_heap_and_noreturn() {
    let p = lower_c(
        "#include <stdatomic.h>\n\
         #include <stdlib.h>\n\
         #include <string.h>\n\
         extern _Bool __VERIFIER_nondet_bool(void);\n\
         extern void *__VERIFIER_nondet_pointer(void);\n\
         extern void assume_abort_if_not(int);\n\
         extern void die(void) __attribute__((noreturn));\n\
         atomic_int ai;\n\
         int main(void) {\n\
         \x20 int old = 0;\n\
         \x20 int ok = atomic_compare_exchange_strong(&ai, &old, 1);\n\
         \x20 atomic_fetch_add(&ai, 2);\n\
         \x20 _Bool b = __VERIFIER_nondet_bool();\n\
         \x20 void *q = __VERIFIER_nondet_pointer();\n\
         \x20 assume_abort_if_not(b);\n\
         \x20 int *h = calloc(4, sizeof(int));\n\
         \x20 memset(h, 1, 4);\n\
         \x20 __asm__ volatile(\"\" ::: \"memory\");\n\
         \x20 if (ok) die();\n\
         \x20 return q != 0;\n\
         }\n",
    );
    let main = func(&p, "main");
    let all: Vec<_> = insts(main).collect();
    let (old, okv) = all
        .iter()
        .find_map(|k| match k {
            InstKind::CmpXchg {
                old, ok, bits: 32, ..
            } => Some((*old, *ok)),
            _ => None,
        })
        .expect("cmpxchg");
    assert!(all
        .iter()
        .any(|k| matches!(k, InstKind::Copy { src: Operand::Var(v), .. } if *v == old)));
    assert!(all
        .iter()
        .any(|k| matches!(k, InstKind::Copy { src: Operand::Var(v), .. } if *v == okv)));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::AtomicRmw {
            op: RmwOp::Add,
            bits: 32,
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Nondet {
            ty: Ty::Int(1),
            is_bool: true,
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Nondet {
            ty: Ty::Ptr,
            is_bool: false,
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(k, InstKind::Assume { .. })));
    let heap = all
        .iter()
        .find_map(|k| match k {
            InstKind::HeapAlloc {
                obj,
                zeroed: true,
                from: None,
                ..
            } => Some(*obj),
            _ => None,
        })
        .expect("calloc");
    assert_eq!(
        p.objects[heap.index()].kind,
        ObjectKind::Heap(FuncId::from(
            p.funcs.iter().position(|f| f.name == "main").expect("main")
        ))
    );
    assert_eq!(p.objects[heap.index()].name, "heap@t.c:16");
    assert!(all.iter().any(|k| matches!(k, InstKind::MemSet { .. })));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Havoc {
            clobbers_memory: true,
            ..
        }
    )));
    // die() is declared noreturn: the call, then the path ends.
    let die = main
        .blocks
        .iter()
        .find(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i.kind, InstKind::Call { .. }))
        })
        .expect("call to die");
    assert_eq!(
        die.term,
        Terminator::Stop {
            reason: StopReason::ProcessExit
        }
    );
}

#[test]
fn defined_assume_and_atomic_functions_stay_calls() {
    let p = lower_c(
        "#include <stdlib.h>\n\
         void assume_abort_if_not(int c) { if (!c) abort(); }\n\
         int x;\n\
         void __VERIFIER_atomic_inc(void) { x++; }\n\
         int main(void) { assume_abort_if_not(x < 3); __VERIFIER_atomic_inc(); return 0; }\n",
    );
    let main = func(&p, "main");
    let all: Vec<_> = insts(main).collect();
    assert!(!all.iter().any(|k| matches!(k, InstKind::Assume { .. })));
    let n = all
        .iter()
        .filter(|k| matches!(k, InstKind::Call { .. }))
        .count();
    assert_eq!(n, 2);
    let pos = |f: fn(&&&InstKind) -> bool| all.iter().position(|k| f(&k)).expect("present");
    let begin = pos(|k| matches!(k, InstKind::AtomicBegin));
    let end = pos(|k| matches!(k, InstKind::AtomicEnd));
    assert_eq!(end, begin + 2);
    let assume = func(&p, "assume_abort_if_not");
    assert!(assume.blocks.iter().any(|b| b.term
        == Terminator::Stop {
            reason: StopReason::ProcessExit
        }));
}

#[test]
fn switch_phi_and_indirect_calls() {
    let p = lower_c(
        "int h(int);\n\
         int main(int argc, char **argv) {\n\
         \x20 int (*fp)(int) = argc > 1 ? h : 0;\n\
         \x20 int r;\n\
         \x20 switch (argc) { case -1: r = 1; break; case 5: r = 2; break; default: r = fp(argc); }\n\
         \x20 return r;\n\
         }\n",
    );
    let main = func(&p, "main");
    assert_eq!(main.params.len(), 2);
    assert_eq!(
        main.vars[main.params[0].index()].name.as_deref(),
        Some("argc")
    );
    let sw = main.blocks.iter().find_map(|b| match &b.term {
        Terminator::Switch { cases, bits, .. } => Some((cases.clone(), *bits)),
        _ => None,
    });
    let (cases, bits) = sw.expect("switch");
    assert_eq!(bits, 32);
    assert_eq!(cases.iter().map(|c| c.0).collect::<Vec<_>>(), vec![-1, 5]);
    assert!(main.blocks.iter().any(|b| !b.phis.is_empty()));
    assert!(insts(main).any(|k| matches!(
        k,
        InstKind::Call {
            callee: Callee::Indirect(Operand::Var(_)),
            ..
        }
    )));
}

#[test]
fn preprocessed_input_and_dump() {
    let src = b"# 1 \"orig.c\"\nint g = 2;\nint main(void) { return g; }\n";
    let p = load_files(&[("t.i", src)], &[]).expect("compiles");
    let main = func(&p, "main");
    let span = main.span.expect("span");
    let file = &p.files[span.file.0 as usize];
    assert!(file.path.ends_with("orig.c"), "{}", file.path);
    assert!(file.text.is_none());
    let text = super::dump(&p);
    assert!(text.contains("define Int(32) main()"), "{text}");
    assert!(text.contains("load Int(32) 4B @g"), "{text}");
}

#[test]
fn bitcode_input_and_two_c_files() {
    let clang = super::clang::find(&Config::new(Vec::new())).expect("clang-19");
    let (_dir, paths) = write(&[(
        "lib.c",
        b"int counter = 4;\nint bump(void) { return ++counter; }\n",
    )]);
    let roots = crate::confine::SourceRoots::new(std::iter::empty());
    let bc = super::clang::compile(&clang, &paths[0], &[], &roots)
        .expect("compiles")
        .bitcode;
    let main =
        b"extern int counter; int bump(void);\nint main(void) { return bump() + counter; }\n";
    let p = load_files(&[("lib.bc", &bc), ("main.c", main)], &[]).expect("loads");
    assert!(func(&p, "bump").is_defined);
    assert!(func(&p, "main").is_defined);
    let g = p
        .globals
        .iter()
        .find(|g| g.name == "counter")
        .expect("counter");
    assert_eq!(
        g.init.as_deref(),
        Some(
            &[InitCell {
                offset: 0,
                size: 4,
                value: InitValue::Int(4)
            }][..]
        )
    );
    // Spans of both files are there.
    assert!(p.files.iter().any(|f| f.path.ends_with("lib.c")));
    assert!(p.files.iter().any(|f| f.path.ends_with("main.c")));
}

/// A `__thread` variable whose address is only dereferenced (directly or through an array or
/// struct index) is marked thread-local and accessed at its global's address; one whose address
/// goes anywhere else (a call, a stored pointer) is not, and each access goes through an unknown
/// pointer.
#[test]
fn thread_local_globals_are_marked_only_when_their_address_stays() {
    let p = lower_c(
        r#"
        #include <pthread.h>
        __thread int own;
        static __thread int arr[4];
        static __thread struct { int a; long b; } rec = {1, 2};
        __thread int given;
        static __thread int published;
        int *where;
        static void *f(void *p) { *(int *)p = 1; return 0; }
        int main(void) {
            pthread_t t;
            own++;
            arr[own] = 3;
            rec.b = arr[1] + rec.a;
            where = &published;
            pthread_create(&t, 0, f, &given);
            given = 2;
            return 0;
        }
        "#,
    );
    let flag = |n: &str| {
        let g = p.globals.iter().find(|g| g.name == n).expect(n);
        g.thread_local
    };
    assert!(flag("own") && flag("arr") && flag("rec"));
    assert!(!flag("given") && !flag("published") && !flag("where"));
    let main = func(&p, "main");
    let havocs: Vec<_> = insts(main)
        .filter(|k| matches!(k, InstKind::Havoc { reason, .. } if reason.contains("thread-local")))
        .collect();
    assert_eq!(havocs.len(), 3, "{havocs:?}"); // &published, &given, given = 2
}

#[test]
fn exotic_ir_degrades_to_havoc_and_conservative_branches() {
    let ll = br#"
@g = global i32 0
@big = global i128 -5
@al = alias i32, ptr @g
@u = global { i32, double } undef
@tls = internal thread_local global i32 7

declare i32 @__gxx_personality_v0(...)
declare void @may_throw()

define i32 @ib(ptr %p) {
entry:
  indirectbr ptr %p, [label %l1, label %l2]
l1:
  ret i32 1
l2:
  %q = load i32, ptr @al
  ret i32 %q
}

define i32 @inv() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw() to label %ok unwind label %lp
ok:
  ret i32 0
lp:
  %e = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %e
}

define i32 @misc(<4 x i32> %v, ptr %p, float %f, i128 %w) {
entry:
  %a = add <4 x i32> %v, %v
  %x = extractelement <4 x i32> %a, i32 0
  %s = call i32 asm sideeffect "mov $1, $0", "=r,r"(i32 %x)
  %fa = fadd float %f, 1.0
  %fi = fptosi float %fa to i32
  %t = call ptr @llvm.threadlocal.address.p0(ptr @tls)
  store i32 %fi, ptr %t
  %k = add i128 %w, 340282366920938463463374607431768211455
  %r = add i32 %s, undef
  ret i32 %r
}

declare ptr @llvm.threadlocal.address.p0(ptr)
"#;
    let p = load_files(&[("x.ll", ll)], &[]).expect("loads");
    let gi = |n: &str| GlobalId::from(p.globals.iter().position(|g| g.name == n).expect(n));
    assert_eq!(
        p.globals[gi("big").index()].init,
        Some(vec![InitCell {
            offset: 0,
            size: 16,
            value: InitValue::Int(-5)
        }])
    );
    let u = p.globals[gi("u").index()].init.clone().expect("defined");
    assert_eq!(
        u.iter().map(|c| (c.offset, c.size)).collect::<Vec<_>>(),
        vec![(0, 4), (8, 8)]
    );
    assert!(u.iter().all(|c| c.value == InitValue::Unknown));

    let ib = func(&p, "ib");
    assert!(matches!(ib.blocks[0].insts[0].kind, InstKind::Havoc { .. }));
    let Terminator::Switch {
        value: Operand::Unknown(_),
        cases,
        default,
        ..
    } = &ib.blocks[0].term
    else {
        panic!("{:?}", ib.blocks[0].term)
    };
    assert_eq!((cases.len(), *default), (1, BlockId(2)));
    let g = gi("g");
    assert!(insts(ib)
        .any(|k| matches!(k, InstKind::Load { ptr: Operand::GlobalAddr(x, 0), .. } if *x == g)));

    let inv = func(&p, "inv");
    assert!(matches!(
        inv.blocks[0].insts[0].kind,
        InstKind::Call {
            callee: Callee::Direct(_),
            ..
        }
    ));
    assert!(matches!(inv.blocks[0].term, Terminator::Switch { .. }));
    assert!(matches!(
        inv.blocks[2].term,
        Terminator::Ret(Some(Operand::Unknown(Ty::Int(32))))
    ));

    let misc = func(&p, "misc");
    let all: Vec<_> = insts(misc).collect();
    let havocs = all
        .iter()
        .filter(|k| matches!(k, InstKind::Havoc { dst: Some(_), .. }))
        .count();
    assert_eq!(havocs, 4, "{all:?}"); // vector add, extractelement, asm, fadd
                                      // The thread-local global is only stored to: its address is the global's.
    assert!(p.globals[gi("tls").index()].thread_local);
    assert!(all.iter().any(
        |k| matches!(k, InstKind::Copy { src: Operand::GlobalAddr(x, 0), .. } if *x == gi("tls"))
    ));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Havoc {
            clobbers_memory: true,
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Cast {
            op: CastOp::Other,
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Bin {
            b: Operand::Int {
                value: -1,
                bits: 128
            },
            ..
        }
    )));
    assert!(all.iter().any(|k| matches!(
        k,
        InstKind::Bin {
            b: Operand::Unknown(Ty::Int(32)),
            ..
        }
    )));
}

#[test]
fn clang_of_another_version_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, paths) = write(&[
        ("clang", b"#!/bin/sh\necho 'clang version 14.0.6'\n"),
        ("t.c", b"int main(void) { return 0; }\n"),
    ]);
    std::fs::set_permissions(&paths[0], std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut config = Config::new(vec![paths[1].clone()]);
    config.clang = Some(paths[0].clone());
    match super::load(&config) {
        // (Another test forking while the script is being written can make exec fail with
        // ETXTBSY; that is still a refusal.)
        Err(InputError::ClangNotFound(why)) => {
            assert!(why.contains("LLVM 19") || why.contains("busy"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    config.clang = Some(paths[0].with_file_name("no-such-clang"));
    assert!(matches!(
        super::load(&config),
        Err(InputError::ClangNotFound(_))
    ));
}

#[test]
fn struct_fields_are_named_from_debug_info() {
    let p = lower_c(
        "struct inner { short lo; int hi; };\n\
         struct device { int open; struct inner regs[2]; long count; } dev;\n\
         typedef struct { int a, b; } pair_t;\n\
         pair_t pair;\n\
         union word { int i; char c[4]; } w;\n\
         struct flags { unsigned ready : 1; unsigned err : 1; int n; } fl;\n\
         static struct { int x; long y; } single;\n\
         static struct { char k; int m; } other;\n\
         int main(void) { return dev.open + pair.b + w.i + fl.n + single.x + other.m; }\n",
    );
    let cells = crate::memory::Cells::build(&p, Default::default());
    let names: Vec<&str> = cells.cells.iter().map(|c| c.name.as_str()).collect();
    for expected in [
        "dev.open",
        "dev.regs[].lo",
        "dev.regs[].hi",
        "dev.count",
        "pair.a",
        "pair.b",
        // Structs without a tag or a typedef, matched through their globals.
        "single.x",
        "single.y",
        "other.k",
        "other.m",
    ] {
        assert!(names.contains(&expected), "{expected} not in {names:?}");
    }
    // A union and a struct with bit-fields cannot be matched field by field: numbers stay.
    assert!(names.iter().any(|n| n.starts_with("w.")), "{names:?}");
    assert!(!names.contains(&"w.i"), "{names:?}");
    assert!(names.contains(&"fl.1"), "{names:?}");
}

/// The field names read from the module's metadata are those read from its textual form, on
/// linked files with clashing and renamed structs, typedefs, unions, bit-fields, anonymous
/// members, nested and non-ASCII names.
#[test]
fn field_names_from_metadata_are_those_of_the_text() {
    let a = "struct dev { int open; struct { short lo, hi; } regs; long count; } d;\n\
             typedef struct { int a, b; } pair_t;\n\
             typedef pair_t pair2_t;\n\
             pair2_t pair;\n\
             union word { int i; char c[4]; } w;\n\
             struct flags { unsigned ready : 1; unsigned err : 1; int n; } fl;\n\
             struct anon { int x; union { int u; float f; }; } an;\n\
             struct caf\u{e9} { int \u{e9}t\u{e9}; } c;\n\
             struct empty { } e;\n\
             typedef unsigned long ulong_t;\n\
             struct uns { ulong_t a; const volatile unsigned char b[2]; _Bool c; enum { A, B } d; signed char s; } un;\n\
             static int get(struct dev *p, pair_t *q) { struct local { int z; } l = {1}; return p->open + q->b + l.z; }\n\
             int main(void) { return get(&d, &pair) + w.i + fl.n + an.x + c.\u{e9}t\u{e9}; }\n";
    let b = "struct dev { int other; } d2;\n\
             typedef struct { long a; } pair_t;\n\
             pair_t p2;\n\
             int use(void) { return d2.other + (int)p2.a; }\n";
    let (_dir, paths) = write(&[("a.c", a.as_bytes()), ("b.c", b.as_bytes())]);
    for inputs in [&paths[..1], &paths[..]] {
        let config = Config::new(inputs.to_vec());
        let context = inkwell::context::Context::create();
        let module = super::load::load_module(&context, &config, &mut Vec::new()).expect("load");
        let text = module.print_to_string().to_string();
        let from_text = super::field_names::FieldNames::from_module_text(&text);
        let from_metadata = super::field_names::FieldNames::from_module(module.as_mut_ptr());
        assert_eq!(from_metadata, from_text);
        // Not vacuous: structs were found (`dev` clashes once `b.c` is linked).
        let shown = format!("{from_text:?}");
        assert!(shown.contains("local") && shown.contains("C3"), "{shown}");
        assert!(
            shown.contains("Unsigned") && shown.contains("Signed"),
            "{shown}"
        );
        assert_eq!(shown.contains("regs"), inputs.len() == 1, "{shown}");
    }
}

/// The objects the points-to analysis exposes, by name.
fn exposed_names(p: &Program) -> Vec<String> {
    let pt = crate::memory::PointsTo::compute(p, &[]);
    pt.exposed
        .iter()
        .map(|o| p.objects[o.index()].name.clone())
        .collect()
}

#[test]
fn addresses_hidden_in_integers_are_exposed() {
    let p = lower_c(
        "#include <stdint.h>\n\
         static int a, b, c, d, e, keep;\n\
         long la = (long)&a;\n\
         static const uintptr_t tbl[] = {0, (uintptr_t)&b};\n\
         static void f(void) {}\n\
         uintptr_t lf = (uintptr_t)&f;\n\
         int main(void) {\n\
         \x20 uintptr_t v = (uintptr_t)&c;\n\
         \x20 keep = 1;\n\
         \x20 return (int)v + (int)tbl[1] + *(int *)la + d + e;\n\
         }\n",
    );
    let ex = exposed_names(&p);
    for n in ["a", "b", "c"] {
        assert!(ex.iter().any(|x| x == n), "{n} not exposed: {ex:?}");
    }
    for n in ["d", "e", "keep"] {
        assert!(!ex.iter().any(|x| x == n), "{n} exposed: {ex:?}");
    }
    let f = p.funcs.iter().position(|f| f.name == "f").expect("f");
    assert!(p.hidden_addrs.contains(&Operand::FuncAddr(FuncId::from(f))));
}

#[test]
fn asm_operands_named_symbols_and_thread_results_are_exposed() {
    let p = lower_c(
        "#include <pthread.h>\n\
         static int m, r, named, res, ex, keep;\n\
         static void *t1(void *a) { return &res; }\n\
         static void *t2(void *a) { pthread_exit(&ex); }\n\
         int main(void) {\n\
         \x20 pthread_t x, y;\n\
         \x20 __asm__ volatile(\"movl $1, %0\" : \"=m\"(m));\n\
         \x20 __asm__ volatile(\"movl $5, (%0)\" : : \"r\"(&r) : \"memory\");\n\
         \x20 __asm__ volatile(\"movl $3, named(%%rip)\" : : : \"memory\");\n\
         \x20 pthread_create(&x, 0, t1, 0);\n\
         \x20 pthread_create(&y, 0, t2, 0);\n\
         \x20 keep = 2;\n\
         \x20 return keep + named;\n\
         }\n",
    );
    let ex = exposed_names(&p);
    for n in ["m", "r", "named", "res", "ex"] {
        assert!(ex.iter().any(|x| x == n), "{n} not exposed: {ex:?}");
    }
    assert!(!ex.iter().any(|x| x == "keep"), "{ex:?}");
}

#[test]
fn inline_only_definitions_are_kept_and_dropped_ones_guarded() {
    let src = "int g;\n\
               inline void release(void) { if (g) g = 2; }\n\
               __attribute__((gnu_inline)) extern inline void check(void) { g = 3; }\n\
               int main(void) { release(); check(); return 0; }\n";
    let p = lower_c(src);
    assert!(func(&p, "release").is_defined);
    assert!(func(&p, "check").is_defined);
    assert!(p.asserts.is_empty());
    let p = load_files(&[("t.c", src.as_bytes())], &["-O0"]).expect("compiles");
    assert!(!func(&p, "release").is_defined);
    let names: Vec<&str> = p.asserts.iter().map(|a| a.condition.as_str()).collect();
    assert_eq!(
        names,
        [
            "the missing body of `release`",
            "the missing body of `check`"
        ]
    );
    assert!(super::lower::defines(
        "void f (int a,\n int (*b)(void))\n{",
        "f"
    ));
    assert!(!super::lower::defines("if (f(x)) { g(); }", "f"));
    assert!(!super::lower::defines("int f(int);", "f"));
}

#[test]
fn setjmp_is_a_resume_point_and_longjmp_a_jump() {
    let p = lower_c(
        "#include <setjmp.h>\n\
         jmp_buf env;\n\
         int other(int a) { int y = a; return y + 1; }\n\
         int main(void) {\n\
           int x = 0;\n\
           if (setjmp(env) == 0) { x = 1; longjmp(env, 1); }\n\
           return x + other(2);\n\
         }\n",
    );
    let main = func(&p, "main");
    let calls_setjmp = insts(main).any(
        |k| matches!(k, InstKind::Call { callee: Callee::Direct(f), .. } if p.is_returns_twice(*f)),
    );
    assert!(calls_setjmp, "{}", super::dump(&p));
    assert!(main.blocks.iter().any(|b| b.term
        == Terminator::Stop {
            reason: StopReason::LongJmp
        }));
    // `main` calls setjmp: its locals stay in memory; `other` does not: promoted.
    assert!(insts(main).any(|k| matches!(k, InstKind::Alloca { .. })));
    assert!(!insts(func(&p, "other")).any(|k| matches!(k, InstKind::Alloca { .. })));
}

/// The signedness of every integer the source declares, from the debug info: parameters,
/// SSA locals, globals through typedefs and qualifiers, enums, struct fields, array elements,
/// locals kept in memory; `char` as the target (or `-funsigned-char`) makes it.
#[test]
fn signedness_from_debug_info() {
    use Signedness::{Signed, Unsigned};
    let src = "typedef unsigned int u32;\n\
               struct dev { u32 count; int mode; unsigned char buf[4]; };\n\
               struct dev d;\n\
               unsigned long g;\n\
               const volatile u32 cg = 1;\n\
               int si;\n\
               enum color { RED, GREEN } col;\n\
               int f(unsigned cmd, int k, char c) {\n\
               \x20 unsigned char b = (unsigned char)cmd;\n\
               \x20 unsigned short arr[3];\n\
               \x20 arr[k & 1] = b;\n\
               \x20 return b + arr[0] + c + k + d.mode + (int)g + (int)cg + si + (int)col;\n\
               }\n";
    for (args, char_sign) in [(&[][..], Signed), (&["-funsigned-char"][..], Unsigned)] {
        let p = match load_files(&[("t.c", src.as_bytes())], args) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        let f = func(&p, "f");
        let sign_of = |name: &str| {
            (f.vars.iter())
                .find(|v| v.name.as_deref() == Some(name))
                .unwrap_or_else(|| panic!("no var {name}: {}", super::dump(&p)))
                .sign
        };
        assert_eq!(
            (sign_of("cmd"), sign_of("k"), sign_of("c"), sign_of("b")),
            (Unsigned, Signed, char_sign, Unsigned)
        );
        let layout = |name: &str| {
            let o = (p.objects.iter()).find(|o| o.name == name);
            o.and_then(|o| o.layout.clone())
                .unwrap_or_else(|| panic!("no layout of {name}"))
        };
        for (name, sign) in [
            ("g", Unsigned),
            ("cg", Unsigned),
            ("si", Signed),
            ("col", Unsigned),
        ] {
            assert_eq!(layout(name).sign_at(0, layout(name).size()), sign, "{name}");
        }
        let d = layout("d");
        assert_eq!(
            [
                d.sign_at(0, 4),
                d.sign_at(4, 4),
                d.sign_at(8, 1),
                d.sign_at(11, 1)
            ],
            [Unsigned, Signed, Unsigned, Unsigned]
        );
        // Not a scalar of that size there.
        assert_eq!(d.sign_at(0, 1), Signed);
        assert_eq!(layout("f::arr").sign_at(4, 2), Unsigned);
    }
}

/// The front end names `main`, the arrays the runtime reads at exit, and the library function
/// of every function's name (`Function::lib`, for definitions too).
#[test]
fn main_exit_arrays_and_library_functions_are_found_once() {
    let p = lower_c(
        "#include <pthread.h>\n#include <stdio.h>\n\
         static void bye(void) { puts(\"bye\"); }\n\
         __attribute__((section(\".fini_array\"), used)) static void (*fini)(void) = bye;\n\
         static pthread_mutex_t m;\n\
         int pthread_yield(void) { return 0; }\n\
         int main(void) { pthread_mutex_trylock(&m); return pthread_yield(); }\n",
    );
    let main = p.main.expect("main");
    assert_eq!(p.funcs[main.index()].name, "main");
    let arrays: Vec<&str> = (p.exit_arrays.iter())
        .map(|g| p.globals[g.index()].name.as_str())
        .collect();
    assert_eq!(arrays, ["fini"]);
    use crate::ir::lib::LibFn;
    let puts = func(&p, "puts");
    assert_eq!(puts.library(), Some(LibFn::Puts));
    assert_eq!(
        func(&p, "pthread_mutex_trylock").library(),
        Some(LibFn::PthreadMutexTrylock)
    );
    // A definition keeps the classification of its name, but calls of it run its body.
    let own = func(&p, "pthread_yield");
    assert_eq!((own.lib, own.library()), (Some(LibFn::PthreadYield), None));
    assert_eq!(func(&p, "bye").lib, None);
    assert!(super::lower::is_exit_array("x", Some(".fini_array.101")));
    assert!(!super::lower::is_exit_array("x", Some(".fini_arrays")));
    assert!(super::lower::is_exit_array("llvm.global_dtors", None));
}
