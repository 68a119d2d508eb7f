//! A thread of the program as the analysis found it: how it came to be, its entry function
//! and its inlined CFG. These facts do not depend on any abstract domain; the fixpoint keeps
//! its per-thread results beside them (`analysis::compose::ThreadResults`).
//!
//! Invariant: `cfg` and `shape` never change once the thread exists; `multi` only goes from
//! `false` to `true` (a create site found to run more than once).
//!
//! A `Thread` holds its name, `Origin`, entry function, CFG, shape and whether it stands for
//! several instances; no domain, so the synchronisation facts read it without knowing the analysis.
//! A function analysed on its own from the start (a target of a call through a pointer, an exposed
//! function) does not inline the others of its kind either (`Thread::detached`,
//! `ThreadCfg::build_leaving`): they are analysed on their own anyway, and inlining them gave every
//! such function its own copy of the same callees (D23).

use super::{InlineBudget, Resolution, Shape, ThreadCfg};
use crate::ir::{FuncId, Program};

/// How a thread came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The program's `main`.
    Main,
    /// A `pthread_create` in thread `parent`, at instruction `inst` of `node`.
    Created {
        /// The creating thread.
        parent: usize,
        /// Node of the call in the parent's CFG.
        node: super::NodeId,
        /// Instruction index in the node's block.
        inst: u32,
    },
    /// A function analysed on its own from an unknown state: a call that was not inlined
    /// (recursion, size budget, a call through a pointer that may name several functions) or a
    /// function unknown code may call.
    Detached,
}

/// One thread (or class of thread instances) of the program.
pub struct Thread {
    /// A readable name (`main`, `reader`, `reader#2`).
    pub name: String,
    /// How it came to be.
    pub origin: Origin,
    /// Its entry function.
    pub entry: FuncId,
    /// Its inlined CFG.
    pub cfg: ThreadCfg,
    /// Orderings of the CFG.
    pub shape: Shape,
    /// Whether it stands for several instances running at once.
    pub multi: bool,
}

impl Thread {
    /// Builds the CFG of `entry` (inlining within `budget`, the calls `resolved` knows the
    /// callee of included) and its shape.
    pub fn new(
        program: &Program,
        name: String,
        origin: Origin,
        entry: FuncId,
        multi: bool,
        budget: InlineBudget,
        resolved: &Resolution,
    ) -> Thread {
        let cfg = ThreadCfg::build_leaving(program, entry, budget, &[], resolved);
        Self::of_cfg(program, name, origin, entry, multi, cfg)
    }

    /// A function analysed on its own, from an unknown state, standing for all its runs: the
    /// calls of `apart` (sorted: the other functions analysed on their own from the start) stay
    /// calls (see `ThreadCfg::build_leaving`).
    ///
    /// Cost: a program with hundreds of functions called through pointers (an interpreter's
    /// verb table, a driver's ops) otherwise analyses each with a copy of everything it calls,
    /// up to the inlining budget: hundreds of copies of the same callees (kona, 830 KB: 420
    /// functions of 24,000 nodes each, 150 s a round of the fixpoint).
    pub fn detached(
        program: &Program,
        entry: FuncId,
        budget: InlineBudget,
        apart: &[FuncId],
        resolved: &Resolution,
    ) -> Thread {
        let name = format!("{} (not inlined)", program.funcs[entry.index()].name);
        let cfg = ThreadCfg::build_leaving(program, entry, budget, apart, resolved);
        Self::of_cfg(program, name, Origin::Detached, entry, true, cfg)
    }

    fn of_cfg(
        program: &Program,
        name: String,
        origin: Origin,
        entry: FuncId,
        multi: bool,
        cfg: ThreadCfg,
    ) -> Thread {
        let shape = Shape::of(&cfg, program);
        Thread {
            name,
            origin,
            entry,
            cfg,
            shape,
            multi,
        }
    }
}
