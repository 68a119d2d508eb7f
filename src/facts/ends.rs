//! Where a thread may end besides the returns of its entry function: thread exits inside
//! callees, cancellation, callbacks that exit (a program fact the happens-before facts need).
//!
//! `MayEnd` counts as possible ends: calls that may reach `pthread_exit` through pointers or
//! un-inlined callees, `noreturn` library calls other than process exits (`thrd_exit`), `syscall`,
//! inline assembly, cancellation points when the program calls `pthread_cancel`; and anywhere,
//! under asynchronous cancellation or when a callback may end the thread. An event precedes a
//! thread's end only if it precedes every possible end.

use super::Facts;
use crate::ir::effects::Effect;
use crate::ir::lib::{Ends, LibFn};
use crate::ir::{Callee, InstKind, StopReason, Terminator};
use crate::threads::Thread;

/// How a call of the declared function `f` may end (`Props::ends`): the process (never the
/// calling thread alone: `exit`, `abort`; the front end lowers `noreturn` library calls as
/// process stops, and the others of them, such as `thrd_exit` or `longjmp`, may leave the
/// thread or the function), the calling thread alone (`pthread_exit`, also when called through
/// a pointer, C11's `thrd_exit`, the raw `syscall(SYS_exit, ..)`, glibc's internals), or
/// nothing known.
fn ends(f: &crate::ir::Function) -> Ends {
    f.library_props().map_or(Ends::Unknown, |p| p.ends)
}

/// Where a thread may end besides the returns of its entry function and its visible
/// `pthread_exit`s: the facts about "the thread's end" hold only if every such point counts.
///
/// Soundness: a thread ends by returning from its entry function, by `pthread_exit` (or
/// `thrd_exit`, or the raw exit system call), or by cancellation; `exit` and its kin end the
/// process, after which no joiner runs, so they need not count. A call ends the thread inside
/// when its callee may (transitively): a defined function not inlined here (recursion, the
/// inline budget) whose body may, a call through a pointer that may reach such a function or
/// a thread-ending library function (or an unknown pointer), a `noreturn` library function
/// that is not a known process exit (the front end lowers it as a process stop). An unknown
/// library function runs no code of the program except callbacks it was given, so it ends
/// the thread only if a function whose address reached unknown code (`exposed_funcs`) may end
/// it; then a signal handler may also run at any instruction, so the thread may end anywhere.
/// When the program calls `pthread_cancel`, every unknown library call and every
/// `pthread_join` is a possible cancellation point (POSIX lists `pthread_join`,
/// `pthread_cond_wait`, `sleep`, `read`, `write`, `pthread_testcancel` and many more; locks
/// are not), and with `pthread_setcanceltype` cancellation may be asynchronous: anywhere.
/// Inline assembly may make the exit system call.
pub(crate) struct MayEnd {
    /// Per function: whether a call of it may end the calling thread.
    func: Vec<bool>,
    /// Whether the program may cancel threads (deferred cancellation).
    pub cancel: bool,
    /// Whether an unknown library call may call back a function that ends the thread.
    callbacks: bool,
    /// Whether a thread may end at any instruction.
    pub anywhere: bool,
}

impl MayEnd {
    /// Computes where threads may end, for the whole program.
    pub(crate) fn of(facts: &Facts<'_>) -> MayEnd {
        let program = facts.program;
        // Any function of that name (`lib`, not `library()`: a definition of the program's
        // counts too).
        let named = |l: LibFn| program.funcs.iter().any(|f| f.lib == Some(l));
        let cancel = named(LibFn::PthreadCancel);
        let mut me = MayEnd {
            func: vec![false; program.funcs.len()],
            cancel,
            callbacks: false,
            anywhere: false,
        };
        // Least fixpoint: a function may end the thread if one of its instructions or
        // terminators may; callbacks may end it if an exposed function may.
        loop {
            let mut changed = false;
            for (fi, f) in program.funcs.iter().enumerate() {
                if me.func[fi] {
                    continue;
                }
                let func = crate::ir::FuncId(fi as u32);
                let may = if f.is_defined {
                    f.blocks.iter().any(|b| {
                        b.insts.iter().any(|i| me.inst(facts, func, &i.kind)) || me.term(facts, b)
                    })
                } else {
                    ends(f) == Ends::Thread
                };
                if may {
                    me.func[fi] = true;
                    changed = true;
                }
            }
            let callbacks = facts
                .memory
                .pts
                .exposed_funcs
                .iter()
                .any(|f| me.func[f.index()]);
            changed |= callbacks != me.callbacks;
            me.callbacks = callbacks;
            if !changed {
                break;
            }
        }
        me.anywhere = me.callbacks || (cancel && named(LibFn::PthreadSetcanceltype));
        me
    }

    /// Whether a call of the library function `g` may end the calling thread.
    fn library(&self, facts: &Facts<'_>, g: crate::ir::FuncId) -> bool {
        match ends(&facts.program.funcs[g.index()]) {
            Ends::Process => false,
            Ends::Thread => true,
            Ends::Unknown => self.cancel || self.callbacks,
        }
    }

    /// Whether executing `inst` (not inlined) may end the thread before it completes.
    fn inst(&self, facts: &Facts<'_>, func: crate::ir::FuncId, inst: &InstKind) -> bool {
        let program = facts.program;
        let mut ends = false;
        inst.effects(|e| {
            ends |= match e {
                Effect::Call {
                    callee: Callee::Direct(g),
                    ..
                } => {
                    if program.funcs[g.index()].is_defined {
                        self.func[g.index()]
                    } else {
                        self.library(facts, *g)
                    }
                }
                Effect::Call {
                    callee: Callee::Indirect(op),
                    ..
                } => {
                    let (targets, unknown) = facts.memory.pts.callees(program, func, op);
                    unknown
                        || targets.iter().any(|g| {
                            if program.funcs[g.index()].is_defined {
                                self.func[g.index()]
                            } else {
                                self.library(facts, *g)
                            }
                        })
                }
                // `pthread_join` is a cancellation point.
                Effect::JoinsThread { .. } => self.cancel,
                Effect::Clobbers => true,
                // No cancellation point (POSIX: `pthread_mutex_lock` and `pthread_create` are
                // none) and no code that may call `pthread_exit`.
                Effect::Mem(_)
                | Effect::Allocates
                | Effect::Zeroes { .. }
                | Effect::CreatesThread { .. }
                | Effect::Locks { .. }
                | Effect::Unlocks { .. }
                | Effect::AtomicSection(_)
                | Effect::Asserts
                | Effect::Assumes => false,
            };
        });
        ends
    }

    /// Whether the block's terminator ends the thread inside a callee (so not counting the
    /// return of an entry function): `pthread_exit`, or a `noreturn` library call that is not
    /// a known process exit.
    fn term(&self, facts: &Facts<'_>, b: &crate::ir::Block) -> bool {
        match &b.term {
            Terminator::Stop {
                reason: StopReason::ThreadExit,
            } => true,
            Terminator::Stop {
                reason: StopReason::ProcessExit,
            } => {
                matches!(
                    b.insts.last().map(|i| &i.kind),
                    Some(InstKind::Call { callee: Callee::Direct(g), .. })
                        if !facts.program.funcs[g.index()].is_defined
                            && ends(&facts.program.funcs[g.index()]) != Ends::Process
                ) || matches!(
                    b.insts.last().map(|i| &i.kind),
                    Some(InstKind::Call {
                        callee: Callee::Indirect(_),
                        ..
                    })
                )
            }
            Terminator::Stop {
                reason: StopReason::Unreachable | StopReason::LongJmp,
            }
            | Terminator::Br(_)
            | Terminator::CondBr { .. }
            | Terminator::Switch { .. }
            | Terminator::Ret(_) => false,
        }
    }

    /// The first point of node `n` where the thread may end: the index of an instruction
    /// that may end it, or the node's end when its terminator does.
    pub(crate) fn node_exit(&self, facts: &Facts<'_>, t: &Thread, n: usize) -> Option<u32> {
        let nd = &t.cfg.nodes[n];
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
        if let Some(i) =
            (nd.start..nd.end).find(|i| self.inst(facts, func, &block.insts[*i as usize].kind))
        {
            return Some(i);
        }
        if nd.exit != crate::threads::Exit::Term {
            return None;
        }
        (ends_thread(&block.term, nd.ctx.0 == 0) || self.term(facts, block)).then_some(nd.end)
    }
}

/// Whether the terminator ends the thread (a return of its entry function, `pthread_exit`).
pub fn ends_thread(term: &Terminator, in_entry_context: bool) -> bool {
    match term {
        Terminator::Ret(_) => in_entry_context,
        Terminator::Stop { reason } => *reason == StopReason::ThreadExit,
        Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Switch { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::facts::testing::{func, with_facts};

    const HEADER: &str = "#include <pthread.h>\n#include <string.h>\n\
        static void *f(void *a) { return a; }\n";

    #[test]
    fn threads_may_end_inside_calls() {
        let src = format!(
            "{HEADER}#include <threads.h>\n#include <unistd.h>\n\
             static void leave(void) {{ pthread_exit(0); }}\n\
             static void via(void) {{ leave(); }}\n\
             static void c11(void) {{ thrd_exit(0); }}\n\
             static void quiet(void) {{ sleep(1); }}\n\
             static void (*ptr)(void) = via;\n\
             static void indirect(void) {{ ptr(); }}\n\
             int main(void) {{ via(); c11(); quiet(); indirect(); return 0; }}\n"
        );
        with_facts(&src, |program, facts| {
            let me = facts.may_end();
            assert!(!me.cancel && !me.anywhere);
            for f in ["leave", "via", "c11", "indirect"] {
                assert!(me.func[func(program, f).index()], "{f} may end the thread");
            }
            assert!(!me.func[func(program, "quiet").index()]);
            assert!(
                !me.func[func(program, "main").index()] || me.func[func(program, "via").index()]
            );
        });
    }

    #[test]
    fn cancellation_and_callbacks_widen_the_ends() {
        let cancel = format!(
            "{HEADER}#include <unistd.h>\n\
             static void quiet(void) {{ sleep(1); }}\n\
             int main(void) {{ pthread_t t; pthread_create(&t, 0, f, 0);\n\
               quiet(); pthread_cancel(t); pthread_join(t, 0); return 0; }}\n"
        );
        with_facts(&cancel, |program, facts| {
            let me = facts.may_end();
            assert!(me.cancel && !me.anywhere);
            assert!(
                me.func[func(program, "quiet").index()],
                "sleep is a cancellation point"
            );
        });
        let asynchronous = format!(
            "{HEADER}int main(void) {{ pthread_t t; pthread_create(&t, 0, f, 0);\n\
               pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, 0);\n\
               pthread_cancel(t); pthread_join(t, 0); return 0; }}\n"
        );
        with_facts(&asynchronous, |_, facts| assert!(facts.may_end().anywhere));
        let handler = format!(
            "{HEADER}#include <signal.h>\n\
             static void on_signal(int s) {{ (void)s; pthread_exit(0); }}\n\
             int main(void) {{ signal(SIGUSR1, on_signal); return 0; }}\n"
        );
        with_facts(&handler, |_, facts| assert!(facts.may_end().anywhere));
    }
}
