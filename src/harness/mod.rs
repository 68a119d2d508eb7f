//! Driver harnesses: driver code has no `main` and creates no thread; its entry points (open,
//! write, ioctl, an interrupt handler) are called concurrently by the kernel. From `--init` and
//! `--entry` this module adds a synthetic `main` to the lowered program that calls the init
//! function once, then starts every entry point as threads, with arguments of any value
//! (integers as inputs, `Nondet`, so that `watts confirm` enumerates or solves for them;
//! pointers `Unknown`).
//!
//! Invariant: the harness over-approximates every way the entry points can run concurrently
//! after the init function: every parameter is any value of its type (a pointer may point to
//! any memory whose address escaped), and an entry with `N` instances is created `N` times (or
//! in a loop, which the analysis treats as any number of instances, when `N` is `*` or large).
//!
//! `synthesize(&mut Program, &HarnessSpec)` runs after lowering: it renames the program's own
//! `main` to `main.original` (`RENAMED_MAIN`) and adds a synthetic `main` that calls `--init` once,
//! then, only if the init returned no negative `int` or `long` (a kernel init's -errno), creates
//! every `--entry FN[:N|*]` as threads. The rounds of entries of any number of instances repeat on
//! an input (`more instances`), so that `confirm` runs one, two, ... rounds.
//!
//! Each entry runs through a wrapper that calls it with arguments of any value (an integer is a
//! `Nondet`; a pointer is `Unknown`; a pointer parameter of an entry or the init is a user buffer,
//! `Program::user_buffers`, whose bytes `confirm` fills). `N` instances are `N` create calls; `*`
//! or more than `MAX_UNROLLED_INSTANCES` (8) is one create in a loop (any number of instances).
//! Entries also come from ops tables (`--entries-from TABLE[:N|*]`: `discover::table_functions`,
//! nested tables followed; any number of instances by default) and from a library's exported
//! functions (`--entries-exported`: `discover::exported_functions`, any number); an `--entry`
//! overrides a table's count, and the init is never an entry.
//!
//! `Program::harness_entries` lists the entry functions (the harness contract: the environment runs
//! them only as these threads): `analysis::verdict::detached_roots` therefore leaves them out of
//! the exposed functions analysed on their own (they remain detached where the program's own code
//! calls them through a pointer), and the interpreter lets an unknown function receive them. The
//! thread handles are null, so no join ever names these threads.
//!
//! `--assume-no-write FN` is the user's assumption, like the harness: `assume_no_write` in `lib.rs`
//! marks those declared functions (`Program::assumed_no_write`, with a note);
//! `PointsTo::writes_nothing` then exposes their pointer arguments (as kept) but lets them write
//! nothing untracked, `Facts::call_clobbers` gives them no cell, and the interpreter lets them
//! receive data pointers.

pub mod discover;
pub mod keys;
pub mod startup;

use crate::config::{HarnessSpec, Instances};
use crate::error::InputError;
use crate::ir::{
    Block, BlockId, Callee, FuncId, Function, Inst, InstKind, Operand, Program, Span, Terminator,
    Ty, VarId, VarInfo,
};

/// The name the synthesized entry function gets; the analysis starts there.
pub const MAIN: &str = "main";

/// The name the program's own `main` gets when a harness replaces it (it then runs only when
/// `--init` or `--entry` names it).
pub const RENAMED_MAIN: &str = "main.original";

pub use crate::limits::MAX_UNROLLED_INSTANCES;

/// Adds the harness of `spec` to `program` as a new `main`. The program's own `main`, if any,
/// is renamed to [`RENAMED_MAIN`] and runs only if `spec` names it.
pub fn synthesize(program: &mut Program, spec: &HarnessSpec) -> Result<(), InputError> {
    if !spec.is_active() {
        return Ok(());
    }
    let init = spec
        .init
        .as_deref()
        .map(|n| resolve(program, n, "--init"))
        .transpose()?;
    let mut entries: Vec<(FuncId, Instances)> = Vec::new();
    for e in &spec.entries {
        entries.push((resolve(program, &e.name, "--entry")?, e.instances));
    }
    // Tables and exported functions add entries that no --entry names; a function in two
    // tables runs as many instances as the larger count says.
    let named: Vec<FuncId> = entries.iter().map(|(f, _)| *f).chain(init).collect();
    let mut implied: Vec<(FuncId, Instances)> = Vec::new();
    let mut imply = |f: FuncId, n: Instances| {
        if named.contains(&f) {
            return;
        }
        match implied.iter_mut().find(|(g, _)| *g == f) {
            Some((_, m)) => *m = more(*m, n),
            None => implied.push((f, n)),
        }
    };
    for t in &spec.tables {
        for f in resolve_table(program, &t.name)? {
            imply(f, t.instances);
        }
    }
    if spec.exported {
        let exported = discover::exported_functions(program);
        if exported.is_empty() && spec.entries.is_empty() && spec.tables.is_empty() {
            return Err(InputError::Harness(
                "--entries-exported: the analysed files export no function (every defined \
                 function is `static`, or there is only `main`)"
                    .to_string(),
            ));
        }
        for f in exported {
            imply(f, Instances::Any);
        }
    }
    entries.extend(implied);
    for f in program.funcs.iter_mut() {
        if f.name == MAIN {
            f.name = RENAMED_MAIN.to_string();
        }
    }
    // One wrapper per distinct entry function: it calls the entry with arguments of any value,
    // so that every parameter (not only the first, which `pthread_create` would pass) is
    // unknown. The wrapper carries the entry's name, which becomes the thread's name.
    let mut wrappers: Vec<(FuncId, FuncId)> = Vec::new();
    for &(f, _) in &entries {
        if !wrappers.iter().any(|(g, _)| *g == f) {
            let w = wrapper(program, f);
            wrappers.push((f, w));
        }
    }
    program.harness_entries = wrappers.iter().map(|&(f, _)| f).collect();
    program.harness_entries.sort_unstable();
    let wrapper_of = |f: FuncId| wrappers.iter().find(|(g, _)| *g == f).map(|(_, w)| *w);
    let create = |w: FuncId, span: Option<Span>| Inst {
        kind: InstKind::ThreadCreate {
            dst: None,
            // Soundness: no `pthread_t` is written anywhere (a null handle points to nothing);
            // no join names these threads, so they run to their end concurrently with all.
            handle: Operand::Null,
            entry: Operand::FuncAddr(w),
            arg: Operand::Unknown(Ty::Ptr),
        },
        span,
    };
    let mut vars = Vec::new();
    // The blocks: 0 the init, 1 the single instances, 2 the rounds of many (if any), then the
    // exit.
    let mut first = Vec::new();
    let mut init_ok = None;
    let mut init_buffers = Vec::new();
    if let Some(i) = init {
        let (insts, result) = call_with_any_args(program, i, &mut vars, &mut init_buffers);
        first.extend(insts);
        // Harness contract: the entries run only after an init that succeeded; an init
        // returning an `int` or a `long` failed when it is negative (a kernel init's -errno).
        // Narrower results are not read so: a `_Bool` true is the 1-bit pattern of -1.
        if let Some((r, bits)) = result.filter(|&(_, bits)| bits >= 32) {
            let ok = VarId::from(vars.len());
            vars.push(VarInfo {
                ty: Ty::Int(1),
                name: None,
                sign: crate::ir::Signedness::Unsigned,
            });
            first.push(Inst {
                kind: InstKind::Cmp {
                    dst: ok,
                    pred: crate::ir::CmpPred::Sge,
                    a: Operand::Var(r),
                    b: Operand::Int { value: 0, bits },
                    bits,
                },
                span: None,
            });
            init_ok = Some(ok);
        }
    }
    let mut straight = Vec::new();
    let mut looped = Vec::new();
    for &(f, instances) in &entries {
        let Some(w) = wrapper_of(f) else { continue };
        // No span: the harness has no source line of its own.
        let span = None;
        match instances {
            Instances::Exactly(n) if n <= MAX_UNROLLED_INSTANCES => {
                straight.extend((0..n).map(|_| create(w, span)));
            }
            // Soundness: a create site in a loop stands for any number of instances, N too.
            Instances::Exactly(_) | Instances::Any => looped.push(create(w, span)),
        }
    }
    let exit = BlockId(if looped.is_empty() { 2 } else { 3 });
    let mut blocks = vec![block(
        first,
        match init_ok {
            Some(ok) => Terminator::CondBr {
                cond: Operand::Var(ok),
                then_: BlockId(1),
                else_: exit,
            },
            None => Terminator::Br(BlockId(1)),
        },
    )];
    if looped.is_empty() {
        blocks.push(block(straight, Terminator::Br(exit)));
    } else {
        // Whether to start one more round of instances: an input, so that `watts confirm`
        // runs one, two, ... rounds (an unknown value would decide nothing and end its runs).
        let more = VarId::from(vars.len());
        vars.push(VarInfo {
            ty: Ty::Int(1),
            name: Some("more instances".to_string()),
            sign: crate::ir::Signedness::Unsigned,
        });
        looped.push(Inst {
            kind: InstKind::Nondet {
                dst: more,
                ty: Ty::Int(1),
                is_bool: true,
            },
            span: None,
        });
        blocks.push(block(straight, Terminator::Br(BlockId(2))));
        blocks.push(block(
            looped,
            Terminator::CondBr {
                cond: Operand::Var(more),
                then_: BlockId(2),
                else_: exit,
            },
        ));
    }
    let ret = Terminator::Ret(Some(Operand::Int { value: 0, bits: 32 }));
    blocks.push(block(Vec::new(), ret));
    if let Some(i) = init {
        let main = FuncId::from(program.funcs.len());
        add_buffers(program, main, i, init_buffers);
    }
    program.main = Some(FuncId::from(program.funcs.len()));
    program.funcs.push(Function {
        name: MAIN.to_string(),
        params: Vec::new(),
        vars,
        blocks,
        ret: Some(Ty::Int(32)),
        is_defined: true,
        is_internal: true,
        is_variadic: false,
        span: None,
        lib: None,
    });
    Ok(())
}

/// The larger of two instance counts.
fn more(a: Instances, b: Instances) -> Instances {
    match (a, b) {
        (Instances::Exactly(m), Instances::Exactly(n)) => Instances::Exactly(m.max(n)),
        _ => Instances::Any,
    }
}

/// The defined functions the ops table `name` holds, or an error that says what is wrong.
fn resolve_table(program: &Program, name: &str) -> Result<Vec<FuncId>, InputError> {
    let Some(g) = discover::global_named(program, name) else {
        let tables = discover::Suggestion::of(program).tables;
        let mut names: Vec<&str> = (tables.iter())
            .map(|t| program.globals[t.global.index()].name.as_str())
            .collect();
        names.sort_unstable();
        return Err(InputError::HarnessName(format!(
            "--entries-from {name}: no global `{name}` in the analysed files (globals that hold \
             function pointers: {})",
            crate::error::name_list(&names)
        )));
    };
    let funcs: Vec<FuncId> = (discover::table_functions(program, g).into_iter())
        .filter(|f| program.funcs[f.index()].is_defined)
        .collect();
    if funcs.is_empty() {
        return Err(InputError::HarnessName(format!(
            "--entries-from {name}: `{name}` holds no pointer to a function defined in the \
             analysed files"
        )));
    }
    Ok(funcs)
}

/// The defined function called `name`, or an error that says what is wrong.
fn resolve(program: &Program, name: &str, flag: &str) -> Result<FuncId, InputError> {
    let found: Vec<usize> = (program.funcs.iter().enumerate())
        .filter(|(_, f)| f.name == name)
        .map(|(i, _)| i)
        .collect();
    if let Some(&i) = found.iter().find(|&&i| program.funcs[i].is_defined) {
        return Ok(FuncId::from(i));
    }
    if !found.is_empty() {
        return Err(InputError::HarnessName(format!(
            "{flag} {name}: `{name}` is declared but not defined in the analysed files"
        )));
    }
    let mut defined: Vec<&str> = (program.funcs.iter())
        .filter(|f| f.is_defined)
        .map(|f| f.name.as_str())
        .collect();
    defined.sort_unstable();
    Err(InputError::HarnessName(format!(
        "{flag} {name}: no function `{name}` in the analysed files (defined: {})",
        crate::error::name_list(&defined)
    )))
}

/// A call of `f` with every parameter any value of its type: an integer parameter takes the
/// value of a `Nondet` (an input, which `watts confirm` enumerates or solves for, as it does
/// `__VERIFIER_nondet_*`), any other parameter is `Unknown`. The `Nondet` results are new
/// variables of the caller, added to `vars`, and so is the call's integer result, returned with
/// its width.
fn call_with_any_args(
    program: &Program,
    f: FuncId,
    vars: &mut Vec<VarInfo>,
    buffers: &mut Vec<(u32, VarId)>,
) -> (Vec<Inst>, Option<(VarId, u32)>) {
    let func = &program.funcs[f.index()];
    let mut insts = Vec::new();
    let mut args = Vec::new();
    for (i, p) in func.params.iter().enumerate() {
        let info = &func.vars[p.index()];
        if info.ty == Ty::Ptr {
            // What the user's buffer holds: an input that only `watts confirm` reads (the
            // bytes of the fresh buffer it passes, `Program::user_buffers`); the analysis
            // passes any pointer.
            let fill = VarId::from(vars.len());
            vars.push(VarInfo {
                ty: Ty::Int(8),
                name: Some(format!("*{}", info.name.as_deref().unwrap_or("arg"))),
                sign: crate::ir::Signedness::Unsigned,
            });
            insts.push(Inst {
                kind: InstKind::Nondet {
                    dst: fill,
                    ty: Ty::Int(8),
                    is_bool: false,
                },
                span: func.span,
            });
            buffers.push((i as u32, fill));
        }
        match info.ty {
            Ty::Int(_) => {
                let dst = VarId::from(vars.len());
                // The input is named after the parameter, in its C type (for `confirm`'s traces).
                vars.push(info.clone());
                insts.push(Inst {
                    kind: InstKind::Nondet {
                        dst,
                        ty: info.ty,
                        is_bool: false,
                    },
                    span: func.span,
                });
                args.push(Operand::Var(dst));
            }
            ty => args.push(Operand::Unknown(ty)),
        }
    }
    // The integer result, in a new variable of the caller.
    let result = match func.ret {
        Some(Ty::Int(bits)) => {
            vars.push(VarInfo {
                ty: Ty::Int(bits),
                name: None,
                sign: crate::ir::Signedness::Signed,
            });
            Some((VarId::from(vars.len() - 1), bits))
        }
        _ => None,
    };
    insts.push(Inst {
        kind: InstKind::Call {
            dst: result.map(|(r, _)| r),
            callee: Callee::Direct(f),
            args,
        },
        span: func.span,
    });
    (insts, result)
}

/// Adds `void *NAME(void *)` that calls `f` with arguments of any value; returns its id.
fn wrapper(program: &mut Program, f: FuncId) -> FuncId {
    let mut vars = vec![VarInfo::unnamed(Ty::Ptr)];
    let mut buffers = Vec::new();
    let (body, _) = call_with_any_args(program, f, &mut vars, &mut buffers);
    let id = FuncId::from(program.funcs.len());
    add_buffers(program, id, f, buffers);
    let entry = &program.funcs[f.index()];
    let func = Function {
        name: entry.name.clone(),
        params: vec![VarId(0)],
        vars,
        blocks: vec![block(body, Terminator::Ret(Some(Operand::Null)))],
        ret: Some(Ty::Ptr),
        is_defined: true,
        is_internal: true,
        is_variadic: false,
        span: entry.span,
        // The entry's name, so the classification of that name.
        lib: entry.lib,
    };
    program.funcs.push(func);
    id
}

/// Records the user buffers of `caller`'s call of `callee` (`Program::user_buffers`).
fn add_buffers(program: &mut Program, caller: FuncId, callee: FuncId, buffers: Vec<(u32, VarId)>) {
    program.user_buffers.extend(
        buffers
            .into_iter()
            .map(|(arg, fill)| crate::ir::UserBuffer {
                caller,
                callee,
                arg,
                fill,
            }),
    );
    program.user_buffers.sort_unstable();
}

fn block(insts: Vec<Inst>, term: Terminator) -> Block {
    Block {
        phis: Vec::new(),
        insts,
        term,
        term_span: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EntrySpec;
    use crate::ir::{Global, InitCell, InitValue};

    fn program() -> Program {
        let defined = |name: &str, params: Vec<Ty>| Function {
            name: name.to_string(),
            params: (0..params.len()).map(VarId::from).collect(),
            vars: params.into_iter().map(VarInfo::unnamed).collect(),
            blocks: vec![block(Vec::new(), Terminator::Ret(None))],
            is_defined: true,
            ..Function::default()
        };
        Program {
            funcs: vec![
                defined("init", vec![]),
                defined("dev_write", vec![Ty::Ptr, Ty::Int(64)]),
                defined("main", vec![]),
                Function {
                    name: "ext".to_string(),
                    ..Function::default()
                },
            ],
            ..Program::default()
        }
    }

    fn spec(init: Option<&str>, entries: &[&str]) -> HarnessSpec {
        HarnessSpec {
            init: init.map(str::to_string),
            entries: entries.iter().map(|e| e.parse().expect("entry")).collect(),
            ..HarnessSpec::default()
        }
    }

    fn creates(b: &Block) -> usize {
        (b.insts.iter())
            .filter(|i| matches!(i.kind, InstKind::ThreadCreate { .. }))
            .count()
    }

    #[test]
    fn init_then_instances_then_loop() {
        let mut p = program();
        synthesize(&mut p, &spec(Some("init"), &["dev_write:2", "init:*"])).expect("harness");
        let main = p.funcs.last().expect("main");
        assert_eq!(main.name, MAIN);
        assert_eq!(p.funcs[2].name, RENAMED_MAIN);
        assert!(matches!(
            main.blocks[0].insts[0].kind,
            InstKind::Call {
                callee: Callee::Direct(FuncId(0)),
                ..
            }
        ));
        // Blocks: the init, the single instances, the rounds of many, the exit.
        assert_eq!(main.blocks.len(), 4);
        assert_eq!(main.blocks[0].term, Terminator::Br(BlockId(1)));
        assert_eq!(creates(&main.blocks[1]), 2);
        assert_eq!(creates(&main.blocks[2]), 1);
        assert!(matches!(
            main.blocks[2].term,
            Terminator::CondBr {
                then_: BlockId(2),
                else_: BlockId(3),
                ..
            }
        ));
        // The wrapper of dev_write passes an unknown pointer and an input integer; for
        // `confirm`, an 8-bit input fills the buffer it passes instead of the pointer.
        let (wi, w) = (p.funcs.iter().enumerate())
            .find(|(_, f)| f.name == "dev_write" && f.params.len() == 1)
            .expect("wrapper");
        let insts = &w.blocks[0].insts;
        assert!(matches!(
            insts[0].kind,
            InstKind::Nondet {
                dst: VarId(1),
                ty: Ty::Int(8),
                is_bool: false
            }
        ));
        assert!(matches!(
            insts[1].kind,
            InstKind::Nondet {
                dst: VarId(2),
                ty: Ty::Int(64),
                is_bool: false
            }
        ));
        assert_eq!(w.vars[2].ty, Ty::Int(64));
        let InstKind::Call { args, .. } = &insts[2].kind else {
            panic!("the wrapper calls the entry")
        };
        assert_eq!(
            args,
            &vec![Operand::Unknown(Ty::Ptr), Operand::Var(VarId(2))]
        );
        assert_eq!(
            p.user_buffers,
            vec![crate::ir::UserBuffer {
                caller: FuncId::from(wi),
                callee: FuncId(1),
                arg: 0,
                fill: VarId(1),
            }]
        );
    }

    #[test]
    fn many_instances_become_a_loop() {
        let mut p = program();
        synthesize(&mut p, &spec(None, &["dev_write:100"])).expect("harness");
        let main = p.funcs.last().expect("main");
        assert_eq!((creates(&main.blocks[1]), creates(&main.blocks[2])), (0, 1));
    }

    /// Harness contract: the entries run only after an init that returned a non-negative
    /// `int` (a kernel init returns -errno when it fails); a `_Bool` result decides nothing.
    #[test]
    fn entries_run_only_after_an_init_that_succeeded() {
        let mut p = program();
        p.funcs[0].ret = Some(Ty::Int(1));
        synthesize(&mut p, &spec(Some("init"), &["dev_write"])).expect("harness");
        let main = p.funcs.last().expect("main");
        assert_eq!(main.blocks[0].term, Terminator::Br(BlockId(1)));
        let mut p = program();
        p.funcs[0].ret = Some(Ty::Int(32));
        synthesize(&mut p, &spec(Some("init"), &["dev_write"])).expect("harness");
        let main = p.funcs.last().expect("main");
        let InstKind::Call { dst: Some(r), .. } = main.blocks[0].insts[0].kind else {
            panic!("the init's result is kept")
        };
        assert!(matches!(
            &main.blocks[0].insts[1].kind,
            InstKind::Cmp { pred: crate::ir::CmpPred::Sge, a, b: Operand::Int { value: 0, .. }, .. }
                if *a == Operand::Var(r)
        ));
        assert!(matches!(
            main.blocks[0].term,
            Terminator::CondBr {
                then_: BlockId(1),
                else_: BlockId(2),
                ..
            }
        ));
        assert_eq!(creates(&main.blocks[1]), 1);
        assert!(matches!(main.blocks[2].term, Terminator::Ret(_)));
    }

    #[test]
    fn unknown_and_undefined_functions_are_errors() {
        let e = synthesize(&mut program(), &spec(None, &["nope"])).unwrap_err();
        assert!(e.to_string().contains("no function `nope`"), "{e}");
        assert!(e.to_string().contains("dev_write, init, main"), "{e}");
        let e = synthesize(&mut program(), &spec(Some("ext"), &[])).unwrap_err();
        assert!(e.to_string().contains("declared but not defined"), "{e}");
    }

    #[test]
    fn entry_specs_parse() {
        let e: EntrySpec = "write:*".parse().expect("valid");
        assert_eq!(e.instances, Instances::Any);
        assert_eq!(e.to_string(), "write:*");
        assert!("write:0".parse::<EntrySpec>().is_err());
        assert!(":3".parse::<EntrySpec>().is_err());
        assert!("a b".parse::<EntrySpec>().is_err());
    }

    /// `program()` with an ops table `fops` = { &init, &sub } and `sub` = { &dev_write }.
    fn with_tables() -> Program {
        let mut p = program();
        let table = |name: &str, cells: Vec<InitValue>| Global {
            name: name.to_string(),
            obj: crate::ir::ObjId(0),
            init: Some(
                (cells.into_iter().enumerate())
                    .map(|(i, value)| InitCell {
                        offset: 8 * i as u64,
                        size: 8,
                        value,
                    })
                    .collect(),
            ),
            is_internal: true,
            is_constant: true,
            thread_local: false,
            section: None,
            span: None,
        };
        p.globals.push(table(
            "fops",
            vec![
                InitValue::Int(0),
                InitValue::FuncAddr(FuncId(0)),
                InitValue::GlobalAddr(crate::ir::GlobalId(1), 0),
                InitValue::FuncAddr(FuncId(3)),
            ],
        ));
        p.globals
            .push(table("sub", vec![InitValue::FuncAddr(FuncId(1))]));
        p
    }

    fn entry_names(p: &Program) -> Vec<(String, usize)> {
        let main = p.funcs.last().expect("main");
        let mut out = Vec::new();
        for (bi, b) in main.blocks.iter().enumerate() {
            for i in &b.insts {
                if let InstKind::ThreadCreate {
                    entry: Operand::FuncAddr(w),
                    ..
                } = &i.kind
                {
                    out.push((p.funcs[w.index()].name.clone(), bi));
                }
            }
        }
        out
    }

    #[test]
    fn a_table_gives_its_defined_functions_nested_tables_included() {
        let p = with_tables();
        let g = discover::global_named(&p, "fops").expect("fops");
        // init, then dev_write through `sub`, then the undeclared `ext` (its caller filters).
        assert_eq!(
            discover::table_functions(&p, g),
            vec![FuncId(0), FuncId(3), FuncId(1)]
        );
        let mut p = with_tables();
        let mut spec = spec(None, &[]);
        spec.tables
            .push(crate::config::parse_table("fops").expect("table"));
        synthesize(&mut p, &spec).expect("harness");
        // Any number of instances: each entry is created in the block of rounds.
        assert_eq!(
            entry_names(&p),
            vec![("init".to_string(), 2), ("dev_write".to_string(), 2)]
        );
        assert_eq!(p.harness_entries, vec![FuncId(0), FuncId(1)]);
    }

    #[test]
    fn an_entry_overrides_the_table_and_the_init_is_no_entry() {
        let mut p = with_tables();
        let mut spec = spec(Some("init"), &["dev_write:2"]);
        spec.tables
            .push(crate::config::parse_table("fops").expect("table"));
        synthesize(&mut p, &spec).expect("harness");
        assert_eq!(
            entry_names(&p),
            vec![("dev_write".to_string(), 1), ("dev_write".to_string(), 1)]
        );
    }

    #[test]
    fn tables_that_are_not_are_errors() {
        let mut spec = spec(None, &[]);
        spec.tables
            .push(crate::config::parse_table("nope").expect("table"));
        let e = synthesize(&mut with_tables(), &spec).unwrap_err();
        assert!(
            e.to_string().contains("function pointers: fops, sub"),
            "{e}"
        );
        let mut p = with_tables();
        p.globals[1].init = Some(Vec::new());
        let mut spec = spec.clone();
        spec.tables[0].name = "sub".to_string();
        let e = synthesize(&mut p, &spec).unwrap_err();
        assert!(e.to_string().contains("holds no pointer"), "{e}");
    }

    #[test]
    fn exported_functions_are_entries_of_any_number() {
        let mut p = program();
        p.funcs[0].is_internal = true;
        let spec = HarnessSpec {
            exported: true,
            ..HarnessSpec::default()
        };
        synthesize(&mut p, &spec).expect("harness");
        // `init` is static, `main` is the program's own, `ext` is not defined.
        assert_eq!(entry_names(&p), vec![("dev_write".to_string(), 2)]);
        let mut p = program();
        for f in &mut p.funcs {
            f.is_internal = true;
        }
        assert!(synthesize(&mut p, &spec).is_err());
    }
}
