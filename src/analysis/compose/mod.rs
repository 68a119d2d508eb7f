//! The thread-modular composition (FSE'16, Alg. 2 and 3): every thread analysed under the
//! interference of the others, round after round, until nothing grows; per mode, how a load
//! reads the stores of other threads.
//!
//! - `composition`: how a run composes the threads (the mode and its budgets).
//! - `fixpoint`: the rounds, thread discovery at `pthread_create`, the change clock.
//! - `interference`: what a thread reads of the others' stores in a round (joined, or published
//!   at locks).
//! - `step`: one thread's analysis in one round, one implementation per mode.
//! - `combinations`: the store-to-load combinations of the flow-sensitive modes (Alg. 3, 4);
//!   `publisher`: the publisher's view of a load in a combination.
//! - `families`: the optimized mode's families of combinations, one per cluster of loads.
//! - `replay`: one analysis under one combination, and what it records.
//! - `results`: what the fixpoint finds, per thread and in all.
//!
//! Invariant: interference and entry states only grow, and at the end every thread's last
//! analysis ran under the final inputs (see `fixpoint`).

pub mod combinations;
mod composition;
pub mod families;
mod fixpoint;
mod interference;
mod replay;
mod results;
mod step;

pub use composition::Composition;
pub use fixpoint::{initial_state, run};
pub use interference::{inputs_for, interference_for};
pub use results::{
    AssertObs, CellBits, ComboStats, Fixpoint, LoadReads, StoreEv, ThreadResults, Threads,
};
