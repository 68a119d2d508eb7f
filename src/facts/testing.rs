//! Test support: a C program compiled once, with its facts, for the unit tests of every layer
//! from the thread CFGs up.

use super::Facts;
use crate::ir::{FuncId, Program};
use crate::memory::MemoryModel;

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
