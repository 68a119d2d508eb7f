//! Calls whose callee is not written at the call but known for sure, which the thread CFGs inline
//! like direct calls (`ThreadCfg::build_leaving`): a call through a pointer that can name only one
//! defined function, and a `pthread_once` (or `call_once`) that runs its routine there
//! (`ir::once::routines_at_their_call`).
//!
//! Invariant: `callee(f, b, i)` is `Some(g)` only when every execution of instruction `i` of
//! block `b` of `f` that returns ran exactly one activation of `g`, started at the call with the
//! call's arguments as `g`'s parameters (none for a once routine), and nothing but `g` (besides
//! the once-control object, which no other code names).
//!
//! The functions only called there are then analysed where they run instead of on their own
//! from an unknown state (`analysis::runs::detached_roots` leaves them out), so the threads
//! they create are children of the thread that calls them, and its joins order them.

use crate::ir::{BlockId, Callee, FuncId, InstKind, Program};
use crate::memory::points_to::{PointsTo, Target};

/// The calls resolved to one callee, and the once routines among those callees.
#[derive(Clone, Debug, Default)]
pub struct Resolution {
    /// (function, block, instruction) of each resolved call and its callee, sorted.
    calls: Vec<((FuncId, BlockId, u32), FuncId)>,
    /// The routines run at their one `pthread_once` call, sorted.
    routines: Vec<FuncId>,
}

impl Resolution {
    /// Resolves every call through a pointer and every call of `pthread_once` of `program`.
    ///
    /// Soundness (calls through a pointer): the points-to set of the called pointer holds every
    /// function the pointer may name in any execution, or is marked `unknown` (`points_to`'s
    /// invariant); a set of exactly one defined function, not `unknown`, with no object and no
    /// declared function in it, means the call calls that function (or a null or dangling
    /// pointer, which is undefined behaviour and which no execution returns from). An empty set
    /// (a pointer whose value the analysis lost, a parameter no call reaches) resolves nothing.
    pub fn compute(program: &Program, pts: &PointsTo) -> Resolution {
        let mut calls = Vec::new();
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId::from(fi);
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    let InstKind::Call {
                        callee: Callee::Indirect(op),
                        ..
                    } = &inst.kind
                    else {
                        continue;
                    };
                    let set = pts.of(program, func, op);
                    if set.unknown {
                        continue;
                    }
                    if let [Target::Func(g)] = set.targets.iter().copied().collect::<Vec<_>>()[..] {
                        let gf = &program.funcs[g.index()];
                        if gf.is_defined && !program.is_returns_twice(g) {
                            calls.push(((func, BlockId::from(bi), ii as u32), g));
                        }
                    }
                }
            }
        }
        let mut routines = Vec::new();
        for c in crate::ir::once::routines_at_their_call(program) {
            calls.push(((c.func, c.block, c.inst), c.routine));
            routines.push(c.routine);
        }
        calls.sort_unstable();
        routines.sort_unstable();
        Resolution { calls, routines }
    }

    /// The one function the call at instruction `inst` of `block` of `func` runs, when it is a
    /// call through a pointer or of `pthread_once` that resolves.
    pub fn callee(&self, func: FuncId, block: BlockId, inst: u32) -> Option<FuncId> {
        (self.calls)
            .binary_search_by_key(&(func, block, inst), |(at, _)| *at)
            .ok()
            .map(|i| self.calls[i].1)
    }

    /// Whether the call at instruction `inst` of `block` of `func` resolves.
    pub fn resolves(&self, func: FuncId, block: BlockId, inst: u32) -> bool {
        self.callee(func, block, inst).is_some()
    }

    /// The `pthread_once` routines that run at their one call (sorted): they run there, never
    /// when code outside the program calls them.
    pub fn routines(&self) -> &[FuncId] {
        &self.routines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::{func, with_facts};

    fn resolved(src: &str, caller: &str) -> Vec<FuncId> {
        let mut out = Vec::new();
        with_facts(src, |program, facts| {
            let r = Resolution::compute(program, &facts.memory.pts);
            let f = func(program, caller);
            for (bi, b) in program.funcs[f.index()].blocks.iter().enumerate() {
                for ii in 0..b.insts.len() {
                    out.extend(r.callee(f, BlockId::from(bi), ii as u32));
                }
            }
        });
        out
    }

    /// A pointer that names one function resolves; one that names two does not.
    #[test]
    fn one_target_resolves_two_do_not() {
        let src = "int g;\n\
                   void a(void) { g = 1; }\n\
                   void b(void) { g = 2; }\n\
                   void one(void (*f)(void)) { f(); }\n\
                   void two(void (*f)(void)) { f(); }\n\
                   int main(int c, char **v) { one(a); two(a); two(b); return g; }\n";
        assert_eq!(resolved(src, "one").len(), 1);
        assert!(resolved(src, "two").is_empty());
    }

    /// A pointer that may come from code the analysis does not see resolves nothing.
    #[test]
    fn unknown_pointer_does_not_resolve() {
        let src = "void (*get(void))(void);\n\
                   void a(void) {}\n\
                   int main(void) { void (*f)(void) = get(); f(); a(); return 0; }\n";
        assert!(resolved(src, "main").is_empty());
    }

    /// A lone `pthread_once` in `main` resolves to its routine; one in a loop, a second call with
    /// the same control object, or a routine also called directly does not.
    #[test]
    fn lone_once_call_resolves() {
        let lone = "#include <pthread.h>\n\
                    pthread_once_t o = PTHREAD_ONCE_INIT;\n\
                    int g;\n\
                    void init(void) { g = 1; }\n\
                    int main(void) { pthread_once(&o, init); return g; }\n";
        assert_eq!(resolved(lone, "main").len(), 1);
        let looped = "#include <pthread.h>\n\
                      pthread_once_t o = PTHREAD_ONCE_INIT;\n\
                      int g;\n\
                      void init(void) { g = 1; }\n\
                      int main(void) { for (int i = 0; i < 2; i++) pthread_once(&o, init); return g; }\n";
        assert!(resolved(looped, "main").is_empty());
        let twice = "#include <pthread.h>\n\
                     pthread_once_t o = PTHREAD_ONCE_INIT;\n\
                     int g;\n\
                     void init(void) { g = 1; }\n\
                     void other(void) { g = 2; }\n\
                     int main(void) { pthread_once(&o, init); pthread_once(&o, other); return g; }\n";
        assert!(resolved(twice, "main").is_empty());
        let direct = "#include <pthread.h>\n\
                      pthread_once_t o = PTHREAD_ONCE_INIT;\n\
                      int g;\n\
                      void init(void) { g = 1; }\n\
                      int main(void) { pthread_once(&o, init); init(); return g; }\n";
        assert!(resolved(direct, "main").is_empty());
    }
}
