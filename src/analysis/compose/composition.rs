//! How a run composes the threads: the mode that says how a load reads the stores of other
//! threads, and the budgets and options of the composition.
//!
//! Invariant: the options change precision, time and what the result keeps, never soundness;
//! `jobs` changes nothing of the result (`families` folds the combinations in order).

use crate::config::Mode;

/// How interference is composed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Composition {
    /// How a load reads the stores of other threads (`step` has one implementation per mode).
    pub mode: Mode,
    /// Most combinations per thread and round before falling back to joins.
    pub max_combinations: usize,
    /// Hand lock-protected cells over at lock operations only (see `analysis::sync::protection`).
    pub protection: bool,
    /// Worker threads for the combinations of the optimized mode (0: one per core).
    pub jobs: usize,
    /// Keep every thread's node states in the result (`ThreadResults::states`) even when the
    /// mode does not read them (the flow-insensitive one), and what each load read
    /// (`ThreadResults::reads`): `watts invariants` shows them. Otherwise a thread's states are
    /// dropped after its replay, so that the peak holds the states of one thread, not of all
    /// of them.
    pub keep_states: bool,
    /// Print the happens-before oracle's facts and queries on stderr (`Config::trace`).
    pub trace: bool,
}

impl Composition {
    /// The composition of `mode`, without lock protection.
    pub fn of(mode: Mode, max_combinations: usize, jobs: usize) -> Composition {
        Composition {
            mode,
            max_combinations: max_combinations.max(1),
            protection: false,
            jobs,
            keep_states: false,
            trace: false,
        }
    }

    /// Whether loads read combinations of store-to-load flows (FSE'16 Alg. 3) instead of
    /// joins (Alg. 2); then the fixpoint keeps store events.
    pub fn flow_sensitive(&self) -> bool {
        self.mode != Mode::FlowInsensitive
    }
}
