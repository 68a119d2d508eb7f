//! The thread-modular composition (FSE'16, Alg. 2 and 3): every thread analysed under the
//! interference of the others, round after round, until nothing grows; per mode, how a load
//! reads the stores of other threads.
//!
//! - `fixpoint`: the rounds, thread discovery at `pthread_create`, the change clock.
//! - `step`: one thread's analysis in one round, one implementation per mode.
//! - `combinations`: the store-to-load combinations of the flow-sensitive modes (Alg. 3, 4);
//!   `publisher`: the publisher's view of a load in a combination.
//! - `families`: the optimized mode's families of combinations, one per cluster of loads.
//! - `replay`, `results`: what the replays observe and what the fixpoint keeps per thread.
//!
//! Invariant: interference and entry states only grow, and at the end every thread's last
//! analysis ran under the final inputs (see `fixpoint`).

pub mod combinations;
pub mod families;
mod fixpoint;
mod publisher;
mod replay;
mod results;
mod step;

pub use fixpoint::{initial_state, inputs_for, interference_for, run};
pub use replay::{AssertObs, LoadReads};
pub use results::{CellBits, StoreEv, ThreadResults, Threads};

use crate::analysis::sync::protection::Protection;
use crate::config::Mode;
use crate::ir::FuncId;
use crate::threads::Thread;
use std::collections::BTreeSet;

/// Counters of the flow-sensitive modes.
#[derive(Clone, Debug, Default)]
pub struct ComboStats {
    /// Combinations enumerated.
    pub enumerated: usize,
    /// Combinations analysed.
    pub analysed: usize,
    /// Combinations pruned by the oracle.
    pub pruned: usize,
    /// Oracle queries.
    pub queries: usize,
    /// Thread analyses that exceeded the combination budget.
    pub fallbacks: usize,
    /// Time in the oracle (building facts and answering queries), in milliseconds.
    pub datalog_ms: u64,
    /// Threads whose budget was exceeded in the last round.
    pub fallback_threads: BTreeSet<String>,
    /// The events of the threads, when they were too many for the oracle (which then pruned
    /// nothing).
    pub oracle_too_big: Option<usize>,
}

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
        }
    }

    /// Whether loads read combinations of store-to-load flows (FSE'16 Alg. 3) instead of
    /// joins (Alg. 2); then the fixpoint keeps store events.
    pub fn flow_sensitive(&self) -> bool {
        self.mode != Mode::FlowInsensitive
    }
}

impl<D> Fixpoint<D> {
    /// The threads with their results.
    pub fn view(&self) -> Threads<'_, D> {
        Threads {
            info: &self.threads,
            results: &self.results,
        }
    }
}

/// The result of the fixpoint.
pub struct Fixpoint<D> {
    /// Every thread (detached functions included): its static facts.
    pub threads: Vec<Thread>,
    /// What the fixpoint found of each thread, at the same index as `threads`.
    pub results: Vec<ThreadResults<D>>,
    /// Rounds run.
    pub rounds: usize,
    /// Whether the round budget ran out (results are then not trustworthy).
    pub gave_up: bool,
    /// Whether the heap grew past `--max-memory` (then `gave_up` too).
    pub over_memory: bool,
    /// Per assertion.
    pub asserts: Vec<AssertObs>,
    /// Declared functions called somewhere reachable.
    pub unknown_calls: BTreeSet<FuncId>,
    /// Counters of the flow-sensitive modes (last round for pruning, all rounds for work).
    pub combos: ComboStats,
    /// Whether some cell is lock-protected (so that a run with `Composition::protection` may
    /// prove more).
    pub protectable: bool,
    /// The lock-protected cells the last round ran under (none without
    /// `Composition::protection`).
    pub protection: Protection,
}
