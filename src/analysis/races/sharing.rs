//! Which objects two threads may both reach: globals, what escapes to code the analysis cannot
//! see other than as an argument of a library call (`PointsTo::thread_exposed`), what a thread
//! is given when it is created, and everything whose address is stored in one of those. Every other object (a local whose address never leaves its function's
//! registers and calls, a heap block a thread keeps to itself) belongs to one activation of
//! one thread, so its accesses never race.
//!
//! Soundness: an address reaches another thread only through memory both can read (a
//! global, or an object whose address reached the other thread: the points-to analysis's
//! `contents`), through a thread's argument or result, or through code the analysis cannot see
//! (exposed objects, which include whatever integers and inline assembly carry). A call passes
//! addresses to code of the same thread; a function without a definition keeps none (the
//! race check's assumption, stated in its report: it touches what its arguments point to
//! during the call). So an object outside the
//! closure of those roots under `contents` is reached only by the thread, and the activation,
//! that made it; every copy of it (each activation of a function, each run of an allocation
//! site) is a different object that no other thread can name.
//!
//! Not shared: thread-locals, and stack or heap objects whose address stays in one thread; per
//! shared object, the accesses that matter.

use crate::facts::Facts;
use crate::ir::{BlockId, FuncId, InstKind, ObjId, ObjectKind};

/// The objects that more than one thread may reach.
pub struct Sharing {
    shared: Vec<bool>,
}

impl Sharing {
    /// Computes the shared objects of the program.
    pub fn of(facts: &Facts<'_>) -> Sharing {
        Self::closure(facts, None)
    }

    /// The objects other threads may reach when the thread creation at instruction `skip`
    /// (function, block, index) is left out as a root (`ownership`).
    pub fn without(facts: &Facts<'_>, skip: (FuncId, BlockId, u32)) -> Sharing {
        Self::closure(facts, Some(skip))
    }

    fn closure(facts: &Facts<'_>, skip: Option<(FuncId, BlockId, u32)>) -> Sharing {
        let program = facts.program;
        let pts = &facts.memory.pts;
        let mut shared = vec![false; program.objects.len()];
        let mut stack: Vec<ObjId> = Vec::new();
        for (i, o) in program.objects.iter().enumerate() {
            // Soundness: a thread-local global has one copy per thread, and the front end
            // marks it so only when its address goes nowhere but the loads and stores that
            // dereference it (`lower::private_thread_local`).
            let root = match o.kind {
                ObjectKind::Global(g) => !program.globals[g.index()].thread_local,
                _ => false,
            };
            if root {
                stack.push(ObjId(i as u32));
            }
        }
        // Soundness: a thread-local global is exposed only by its linkage, which no code of
        // the program uses to take its address (the front end marks it so only then), and no
        // library function does (the race check's assumption).
        let thread_local = |o: &ObjId| match program.objects[o.index()].kind {
            ObjectKind::Global(g) => program.globals[g.index()].thread_local,
            _ => false,
        };
        stack.extend(
            pts.thread_exposed
                .iter()
                .copied()
                .filter(|o| !thread_local(o)),
        );
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId(fi as u32);
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    if skip == Some((func, BlockId(bi as u32), ii as u32)) {
                        continue;
                    }
                    if let InstKind::ThreadCreate { arg, .. } = &inst.kind {
                        stack.extend(pts.of(program, func, arg).objects());
                    }
                }
            }
        }
        while let Some(o) = stack.pop() {
            if std::mem::replace(&mut shared[o.index()], true) {
                continue;
            }
            stack.extend(pts.contents(o).objects());
        }
        Sharing { shared }
    }

    /// Whether another thread than the one that made it may reach `o`.
    pub fn shared(&self, o: ObjId) -> bool {
        self.shared.get(o.index()).copied().unwrap_or(true)
    }
}
