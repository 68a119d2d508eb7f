//! The program's entry as the C runtime runs it: constructors first, then `main`.
//!
//! Before `main`, the runtime calls every function of the start-up arrays, in the thread that
//! then runs `main`: `.preinit_array`, then the constructors (`__attribute__((constructor))`,
//! which clang lists in `llvm.global_ctors` with their priorities, and the functions a source
//! places in `.init_array`/`.ctors` itself), by ascending priority. [`compose`] makes the
//! analysed `main` call them, in that order, at its start: so a thread a constructor creates
//! is discovered like any other (its creation is one of `main`'s), `main`'s entry state is
//! the initial contents of memory, and `main`'s single-threaded phase (see
//! `analysis::sync::protection`) ends at the first creation of a constructor.
//!
//! Destructors (`llvm.global_dtors`, `.fini_array`, `.dtors`) and `atexit` handlers run when
//! `main` returns or any thread calls `exit`, while other threads may still run. They stay
//! functions that code the analysis does not see may call at any time: the analysis runs each
//! on its own from an unknown state (a detached function, `verdict::detached_roots`), so their
//! assertions are checked and their stores are part of every thread's interference.
//! `atexit` handlers are that already (their address reaches an unknown function); the arrays
//! of destructors are made exposed here. The race check runs them where the process exits
//! instead (`analysis::races::contexts::exit_functions`): at `main`'s returns and the calls of
//! `exit`, in the exiting thread.
//!
//! Invariant: after [`compose`], no function is called by the start-up code that `main` does
//! not call at its start, and every exit-time function is exposed.
//!
//! `compose` runs in `watts::load_program` after the harness, so also for a synthesized `main`. The
//! constructors are called with arguments of any value; their entries in `llvm.global_ctors` are
//! dropped (only the runtime reads that array), while a user's own start-up array keeps its
//! contents (the program may read it).
//!
//! `UNKNOWN_CODE` is the function that stands for code outside the program running concurrently
//! with it: a thread whose entry function the program does not define, and what `ASYNC_APIS`
//! (`dlsym`, `dlopen`, asynchronous I/O) hand out; it writes any escaped memory at any time.

use crate::ir::{
    BlockId, FuncId, Function, InitValue, Inst, InstKind, Operand, Program, Terminator, Ty,
};

/// The name of the function that stands for code outside the program running concurrently
/// with it: a thread whose entry function the program does not define (found with `dlsym`, a
/// library function), or a library that writes memory after the call that handed it over
/// returned (asynchronous I/O). No C identifier has a space, so it names nothing else.
pub const UNKNOWN_CODE: &str = "unknown code";

/// The default priority of a constructor (clang's `llvm.global_ctors` entry of a
/// `__attribute__((constructor))` without a number; `.init_array` without a suffix).
const DEFAULT_PRIORITY: u32 = 65535;

/// Makes `main` (the program's or the harness's) call the constructors first, and exposes the
/// exit-time arrays. Without a defined `main` it does nothing (the analysis then reports that
/// there is no entry point).
pub fn compose(program: &mut Program) {
    for &g in &program.exit_arrays {
        // Soundness: the runtime reads these arrays at exit, from whichever thread exits:
        // code the analysis does not see, so what they point to is exposed, and the
        // functions become detached (analysed on their own, from an unknown state).
        program.globals[g.index()].is_internal = false;
    }
    let Some(main) = program.main else {
        return;
    };
    let ctors = constructors(program);
    let unknown = unknown_code(program);
    let mut starts = Vec::new();
    if let Some(u) = unknown.filter(|_| calls_async_api(program)) {
        // Soundness: the program calls a library function after which code it cannot see may
        // run concurrently (`dlsym`, asynchronous I/O); that code starts with `main` (it is
        // created first, before anything the program does) and writes any memory whose
        // address escaped, again and again, until the process ends.
        starts.push(Inst {
            kind: InstKind::ThreadCreate {
                dst: None,
                handle: Operand::Null,
                entry: Operand::FuncAddr(u),
                arg: Operand::Unknown(Ty::Ptr),
            },
            span: None,
        });
    }
    if ctors.is_empty() && starts.is_empty() {
        return;
    }
    let mut vars = program.funcs[main.index()].vars.clone();
    let mut calls = Vec::new();
    for f in ctors {
        let mut buffers = Vec::new();
        calls.extend(super::call_with_any_args(program, f, &mut vars, &mut buffers).0);
        super::add_buffers(program, main, f, buffers);
    }
    let func = &mut program.funcs[main.index()];
    func.vars = vars;
    // Soundness: the entry block has no phis (LLVM), so the calls run first on every path.
    let entry = &mut func.blocks[0].insts;
    entry.splice(0..0, starts.into_iter().chain(calls));
}

/// Whether the program declares a function after whose call code outside the program may run
/// concurrently with it (`Props::foreign_code_after`: `dlsym` and `dlopen` hand out functions,
/// and constructors, the analysis does not see; asynchronous I/O writes its buffer after the
/// call returns).
fn calls_async_api(program: &Program) -> bool {
    (program.funcs.iter()).any(|f| f.library_props().is_some_and(|p| p.foreign_code_after))
}

/// Adds the function [`UNKNOWN_CODE`] when code outside the program may run as a thread: a
/// thread creation whose entry is not a function the program defines (the analysis starts
/// this function instead, `compose::fixpoint::spawn`), or a call of such an API (`calls_async_api`) (`compose` starts
/// it). Its body writes any memory whose address escaped, in a loop that may run any number
/// of times.
fn unknown_code(program: &mut Program) -> Option<FuncId> {
    let defined =
        |o: &Operand| matches!(o, Operand::FuncAddr(f) if program.funcs[f.index()].is_defined);
    let foreign_entry = program.funcs.iter().any(|f| {
        f.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(&i.kind, InstKind::ThreadCreate { entry, .. } if !defined(entry)))
        })
    });
    if !foreign_entry && !calls_async_api(program) {
        return None;
    }
    let write_anything = Inst {
        kind: InstKind::Havoc {
            dst: None,
            clobbers_memory: true,
            reason: "code outside the program runs concurrently with it (a thread whose entry \
                     function is not in the program, or asynchronous I/O)"
                .to_string(),
        },
        span: None,
    };
    let blocks = vec![
        super::block(Vec::new(), Terminator::Br(BlockId(1))),
        super::block(
            vec![write_anything],
            Terminator::CondBr {
                cond: Operand::Unknown(Ty::Int(1)),
                then_: BlockId(1),
                else_: BlockId(2),
            },
        ),
        super::block(Vec::new(), Terminator::Ret(Some(Operand::Null))),
    ];
    program.funcs.push(Function {
        name: UNKNOWN_CODE.to_string(),
        params: Vec::new(),
        vars: Vec::new(),
        blocks,
        ret: Some(Ty::Ptr),
        is_defined: true,
        is_internal: true,
        is_variadic: false,
        span: None,
        lib: None,
    });
    program.unknown_code = Some(FuncId::from(program.funcs.len() - 1));
    program.unknown_code
}

/// The constructors in the order the runtime calls them. Those of `llvm.global_ctors` are
/// removed from its initialiser: only the start-up code reads that array (C cannot name it),
/// and `main` now calls them, so they are not functions unknown code may call.
fn constructors(program: &mut Program) -> Vec<FuncId> {
    let ptr = u64::from(program.pointer_size);
    // (rank, priority, order of appearance, function)
    let mut found: Vec<(u32, u32, usize, FuncId)> = Vec::new();
    for g in program.globals.iter_mut() {
        let Some(cells) = g.init.as_mut() else {
            continue;
        };
        if g.name == "llvm.global_ctors" {
            // `{ i32 priority, ptr function, ptr data }` per entry (the function one pointer
            // after the start of its entry, since the priority is padded to a pointer).
            let prio_at = |off: u64| {
                (cells.iter())
                    .find(|c| c.offset + ptr == off)
                    .and_then(|c| match c.value {
                        InitValue::Int(p) => u32::try_from(p).ok(),
                        _ => None,
                    })
                    .unwrap_or(DEFAULT_PRIORITY)
            };
            let mut entries: Vec<(u32, u32, usize, FuncId)> = Vec::new();
            for c in cells.iter() {
                if let InitValue::FuncAddr(f) = c.value {
                    entries.push((1, prio_at(c.offset), 0, f));
                }
            }
            cells.retain(|c| !matches!(c.value, InitValue::FuncAddr(_)));
            for (rank, prio, _, f) in entries {
                let n = found.len();
                found.push((rank, prio, n, f));
            }
            continue;
        }
        let Some((rank, prio, reversed)) = g.section.as_deref().and_then(start_section) else {
            continue;
        };
        let mut funcs: Vec<(u64, FuncId)> = (cells.iter())
            .filter_map(|c| match c.value {
                InitValue::FuncAddr(f) => Some((c.offset, f)),
                _ => None,
            })
            .collect();
        funcs.sort_by_key(|(off, _)| *off);
        if reversed {
            funcs.reverse();
        }
        for (_, f) in funcs {
            let n = found.len();
            found.push((rank, prio, n, f));
        }
    }
    // Soundness (order): the runtime runs `.preinit_array`, then `.init_array` sorted by
    // priority (GNU ld's `SORT_BY_INIT_PRIORITY`, `.ctors.N` counting as `65535 - N` and
    // reversed, as ld maps it), within one priority in link order, which is the order the
    // linked modules list them. A wrong order among constructors of one priority would only
    // matter if they depend on each other, which C leaves to the link order anyway.
    found.sort_by_key(|&(rank, prio, n, _)| (rank, prio, n));
    found.into_iter().map(|(_, _, _, f)| f).collect()
}

/// For a start-up section: its rank (`.preinit_array` before the rest), the priority of its
/// functions, and whether they run in reverse order (`.ctors`).
fn start_section(section: &str) -> Option<(u32, u32, bool)> {
    let suffix = |s: &str, base: &str| -> Option<Option<u32>> {
        if s == base {
            return Some(None);
        }
        s.strip_prefix(base)?
            .strip_prefix('.')
            .map(|n| n.parse::<u32>().ok())
    };
    if suffix(section, ".preinit_array").is_some() {
        return Some((0, 0, false));
    }
    if let Some(n) = suffix(section, ".init_array") {
        return Some((1, n.unwrap_or(DEFAULT_PRIORITY), false));
    }
    if let Some(n) = suffix(section, ".ctors") {
        let prio = n.map_or(DEFAULT_PRIORITY, |n| DEFAULT_PRIORITY.saturating_sub(n));
        return Some((1, prio, true));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Function, Global, InitCell, InstKind, ObjId, Terminator};

    fn func(name: &str) -> Function {
        Function {
            name: name.to_string(),
            blocks: vec![Block {
                phis: Vec::new(),
                insts: Vec::new(),
                term: Terminator::Ret(None),
                term_span: None,
            }],
            is_defined: true,
            ..Function::default()
        }
    }

    fn global(name: &str, section: Option<&str>, cells: Vec<InitCell>) -> Global {
        Global {
            name: name.to_string(),
            obj: ObjId(0),
            init: Some(cells),
            is_internal: true,
            is_constant: false,
            thread_local: false,
            section: section.map(str::to_string),
            span: None,
        }
    }

    fn cell(offset: u64, value: InitValue) -> InitCell {
        InitCell {
            offset,
            size: 8,
            value,
        }
    }

    fn called(p: &Program) -> Vec<FuncId> {
        let main = p.funcs.iter().find(|f| f.name == "main").expect("main");
        (main.blocks[0].insts.iter())
            .filter_map(|i| match &i.kind {
                InstKind::Call {
                    callee: crate::ir::Callee::Direct(f),
                    ..
                } => Some(*f),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn constructors_run_first_by_priority_and_destructors_are_exposed() {
        let mut p = Program {
            funcs: vec![func("main"), func("a"), func("b"), func("c"), func("d")],
            pointer_size: 8,
            ..Program::default()
        };
        p.globals = vec![
            // a at the default priority, b at 101: b first.
            global(
                "llvm.global_ctors",
                None,
                vec![
                    cell(0, InitValue::Int(65535)),
                    cell(8, InitValue::FuncAddr(FuncId(1))),
                    cell(24, InitValue::Int(101)),
                    cell(32, InitValue::FuncAddr(FuncId(2))),
                ],
            ),
            global(
                "init_p",
                Some(".init_array"),
                vec![cell(0, InitValue::FuncAddr(FuncId(3)))],
            ),
            global(
                "pre_p",
                Some(".preinit_array"),
                vec![cell(0, InitValue::FuncAddr(FuncId(4)))],
            ),
            global(
                "fini_p",
                Some(".fini_array"),
                vec![cell(0, InitValue::FuncAddr(FuncId(1)))],
            ),
        ];
        p.main = Some(FuncId(0));
        // What the front end finds (`lower::is_exit_array`).
        p.exit_arrays = vec![crate::ir::GlobalId(3)];
        compose(&mut p);
        assert_eq!(called(&p), vec![FuncId(4), FuncId(2), FuncId(1), FuncId(3)]);
        // Only the runtime reads `llvm.global_ctors`; a user array keeps its contents.
        let ctors = p.globals[0].init.as_ref().expect("init");
        assert!(!(ctors.iter()).any(|c| matches!(c.value, InitValue::FuncAddr(_))));
        assert_eq!(p.globals[1].init.as_ref().map(Vec::len), Some(1));
        assert!(!p.globals[3].is_internal);
        assert!(p.globals[1].is_internal);
    }

    #[test]
    fn nothing_without_main_or_constructors() {
        let mut p = Program {
            funcs: vec![func("main")],
            ..Program::default()
        };
        compose(&mut p);
        assert!(called(&p).is_empty());
        assert_eq!(start_section(".ctors.100"), Some((1, 65435, true)));
        assert_eq!(start_section(".init_array.00101"), Some((1, 101, false)));
        assert_eq!(start_section(".init_arrayx"), None);
    }
}
