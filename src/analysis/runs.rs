//! The fixpoints one analysis computes (the mode's, and the one with lock protection) and the
//! functions it analyses on their own: shared by the verdicts and `watts invariants`, so that
//! a range shown never contradicts a verdict.
//!
//! Invariant: both runs are sound; the one with lock protection is made only when some cell
//! is protectable and the plain run stayed within the memory budget.

use super::compose::{self, Composition};
use crate::facts::Facts;
use crate::ir::{BlockId, Callee, FuncId, InstKind};
use std::collections::BTreeSet;
use watts_domains::NumDomain;

/// The fixpoints a run computes: the mode's, and the one with lock protection.
pub(crate) struct Runs<D> {
    /// The run of the mode (of the flow-insensitive mode when `degraded`).
    pub plain: compose::Fixpoint<D>,
    /// The run with lock protection, when some cell is protectable, it was asked for, and the
    /// plain run stayed within the memory budget.
    pub guarded: Option<compose::Fixpoint<D>>,
    /// Whether the mode went past the memory budget, so that `plain` is the flow-insensitive
    /// run.
    pub degraded: bool,
}

/// Runs the fixpoint of `how` (degraded to the flow-insensitive mode past the memory budget)
/// and, when some cell is protectable and `protect`, the same with lock protection.
///
/// Lock protection hands protected cells over as joined values at lock operations, which is
/// more precise for values guarded by locks and less precise than the store-by-store
/// combinations elsewhere: both runs are sound, so each assertion takes the stronger verdict
/// (and `watts invariants` the meet of their ranges).
pub(crate) fn runs<D: NumDomain>(
    facts: &Facts<'_>,
    main: FuncId,
    detached: &[FuncId],
    how: Composition,
    protect: bool,
) -> Runs<D> {
    let mut how = how;
    let mut fix = compose::run::<D>(facts, main, detached, how);
    let mut degraded = false;
    if fix.over_memory && how.flow_sensitive() {
        // Degrades soundly: the flow-insensitive fixpoint over-approximates every mode and
        // needs far less memory (no combinations, no store events).
        drop(fix);
        how.mode = crate::config::Mode::FlowInsensitive;
        fix = compose::run::<D>(facts, main, detached, how);
        degraded = true;
    }
    let guarded = (fix.protectable && protect && !fix.over_memory).then(|| {
        let how = Composition {
            protection: true,
            ..how
        };
        compose::run::<D>(facts, main, detached, how)
    });
    Runs {
        plain: fix,
        guarded,
        degraded,
    }
}

/// Defined functions that must be analysed on their own: targets of calls through pointers
/// that may name several functions, and functions whose address reached code the analysis
/// cannot see (callbacks) other than the harness's entries and the `pthread_once` routines run
/// at their one call.
///
/// Soundness: a call `facts.resolution()` resolves runs its one callee, which every thread CFG
/// inlines there (`ThreadCfg::build_leaving`) or, past the inlining budget or in a recursion,
/// lists as an opaque callee, which the fixpoint then analyses on its own; so the call is
/// covered either way. A routine run at its one `pthread_once` call is handed to the C library
/// there only, which runs it during that call (`ir::once::routines_at_their_call`): no code
/// outside the program calls it at any other time, though its address counts as exposed.
pub(crate) fn detached_roots(facts: &Facts<'_>) -> Vec<FuncId> {
    let (program, memory) = (facts.program, facts.memory);
    let resolved = facts.resolution();
    let mut out = BTreeSet::new();
    for (fi, f) in program.funcs.iter().enumerate() {
        let func = FuncId(fi as u32);
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                if let InstKind::Call {
                    callee: Callee::Indirect(op),
                    ..
                } = &inst.kind
                {
                    if resolved.resolves(func, BlockId(bi as u32), ii as u32) {
                        continue;
                    }
                    let (targets, _) = memory.pts.callees(program, func, op);
                    out.extend(targets);
                }
            }
        }
    }
    // Harness contract: the environment (the kernel behind `register_chrdev`) runs an entry
    // only as the harness's threads, which already stand for those runs with their calling
    // context; a copy from an unknown state stays only where the program's own code calls it
    // through a pointer (above).
    out.extend((memory.pts.exposed_funcs.iter()).filter(|f| {
        program.harness_entries.binary_search(f).is_err()
            && resolved.routines().binary_search(f).is_err()
    }));
    out.into_iter()
        .filter(|f| program.funcs[f.index()].is_defined)
        .collect()
}
