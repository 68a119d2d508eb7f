//! Test support: the fixpoint of a C program, for the unit tests of the analysis.
//!
//! The interval fixpoint of a C string, compiled by the real front end (`facts::testing`).

use super::compose::{run, Composition, Fixpoint};
use crate::config::Mode;
pub(crate) use crate::facts::testing::{func, with_facts};
use crate::facts::Facts;
use crate::ir::Program;
use watts_domains::IntervalEnv;

/// Compiles `src` and runs `f` on its facts and the interval fixpoint of `how` from `main`.
pub(crate) fn with_fixpoint<R>(
    src: &str,
    how: Composition,
    f: impl FnOnce(&Program, &Facts<'_>, Fixpoint<IntervalEnv>) -> R,
) -> R {
    with_facts(src, |program, facts| {
        let fix = run::<IntervalEnv>(facts, func(program, "main"), &[], how);
        f(program, facts, fix)
    })
}

/// The flow-sensitive composition (store events kept) without protection, one job.
pub(crate) const FLOW_SENSITIVE: Composition = Composition {
    mode: Mode::FlowSensitive,
    ..FLOW_INSENSITIVE
};

/// The flow-insensitive composition without protection, one job.
pub(crate) const FLOW_INSENSITIVE: Composition = Composition {
    mode: Mode::FlowInsensitive,
    max_combinations: 1,
    protection: false,
    jobs: 1,
    keep_states: true,
    trace: false,
};
