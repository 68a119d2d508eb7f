//! Interference combinations of one thread (FSE'16, Alg. 3 and 4): for every shared load
//! outside loops, which store it reads (another thread's, or its own view); loads in loops read
//! the join of the stores that need not happen after them. With the oracle, combinations whose
//! reads-from pairs contradict happens-before are dropped.
//!
//! Invariant (soundness): every execution of the thread agrees, on the loads it executes, with
//! some combination that is kept. Loads an execution does not reach are covered by the `cut`
//! choice (the combination stands for executions that stop before the load), so a rule that
//! refutes every other choice of such a load drops nothing real.
//!
//! - `choices`: a shared load, its candidate stores and choices, and the plan they make.
//! - `candidates`: the stores of other threads that a load may read.
//! - `sources`: where a thread's own view of a cell comes from (backward walks, memoized).
//! - `loads`: which loads of a thread get choices, and which read a fixed join.
//! - `reductions`: choices and combinations a kept one covers, candidates ruled out by creation.
//! - `publisher`: the publisher's view, a value a load reads after a flag.
//! - `enumeration`: the combinations of one plan, checked by the oracle.
//! - `plans`: one plan, or the optimized mode's families.

mod candidates;
mod choices;
mod enumeration;
mod loads;
mod plans;
mod publisher;
mod reductions;
mod sources;

pub use choices::Plan;
pub use plans::{plan, plan_families};
pub use sources::SourceCache;
