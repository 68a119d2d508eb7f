//! The data the concolic shadow keeps in a state ([`ShadowCell`]): symbolic registers and
//! local cells, inputs taken, and the trace so far. It names nothing of the interpreter, so the
//! state can hold it while the shadow's code (`shadow`) reads the state.
//!
//! Invariant: a [`ShadowCell`] equals every other and hashes to nothing, so the shadow is never
//! part of a state's meaning.

use crate::explore::symbolic::expr::E;
use crate::explore::symbolic::trace::{ThreadTrace, Trace};
use std::collections::BTreeMap;

/// The shadow of a state: equal to every other, hashed to nothing.
#[derive(Clone, Default)]
pub struct ShadowCell(pub(in crate::explore::interp) Option<Box<Shadow>>);

impl PartialEq for ShadowCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for ShadowCell {}
impl std::hash::Hash for ShadowCell {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl std::fmt::Debug for ShadowCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "shadow" } else { "-" })
    }
}

impl ShadowCell {
    /// Whether the state carries a shadow (the interpreter is concolic).
    #[inline]
    pub(in crate::explore::interp) fn on(&self) -> bool {
        self.0.is_some()
    }
}

/// A symbolic local cell: bytes, expression at `8 * bytes` bits, concrete value.
pub(super) type Cell = (u64, E, u128);

/// The symbolic side of one execution.
#[derive(Clone, Default)]
pub(in crate::explore::interp) struct Shadow {
    pub(super) trace: Trace,
    /// Symbolic registers: thread → frames → variables (`None`: concrete).
    pub(super) regs: Vec<Vec<Vec<Option<E>>>>,
    /// Symbolic local memory cells: (allocation, offset) → (bytes, expression at `8 * bytes`
    /// bits, concrete value).
    pub(super) local: BTreeMap<(u32, i64), Cell>,
    /// Inputs taken so far, by thread.
    pub(super) inputs: Vec<u32>,
}

impl Shadow {
    /// The shadow of an execution not yet started: `main` alone, no input taken.
    pub(in crate::explore::interp) fn new() -> Shadow {
        Shadow {
            trace: Trace {
                threads: vec![ThreadTrace::default()],
                ..Trace::default()
            },
            regs: vec![vec![Vec::new()]],
            local: BTreeMap::new(),
            inputs: vec![0],
        }
    }
}
