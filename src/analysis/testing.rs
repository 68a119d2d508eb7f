//! Test support: a C program compiled once, with its facts, for the unit tests of the analysis
//! and the dependence graph.

use super::modular::{run, Composition, Fixpoint};
use super::program_facts::Facts;
use crate::ir::{FuncId, Program};
use crate::memory::MemoryModel;
use watts_domains::IntervalEnv;

/// Compiles `src` and runs `f` on the program and its facts.
pub(crate) fn with_facts<R>(src: &str, f: impl FnOnce(&Program, &Facts<'_>) -> R) -> R {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t.c");
    std::fs::write(&path, src).expect("write");
    let program = crate::frontend::load(&crate::config::Config::new(vec![path])).expect("C");
    let memory = MemoryModel::build(&program);
    let facts = Facts::new(&program, &memory);
    f(&program, &facts)
}

/// The id of the defined function `name`.
pub(crate) fn func(program: &Program, name: &str) -> FuncId {
    (program.funcs.iter())
        .position(|f| f.name == name && f.is_defined)
        .map(|i| FuncId(i as u32))
        .unwrap_or_else(|| panic!("no function {name}"))
}

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

/// The flow-insensitive composition without protection, one job.
pub(crate) const FLOW_INSENSITIVE: Composition = Composition {
    flow_sensitive: false,
    constraints: false,
    max_combinations: 1,
    protection: false,
    optimized: false,
    jobs: 1,
};
