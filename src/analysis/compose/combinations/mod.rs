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
//! The choices of each shared load outside loops, per thread and round: its own view, one group per
//! distinct value of the candidate stores, and (constraint modes) "not reached"; loads in loops
//! read the join of the stores that need not follow them; in the constraint modes the exit read of
//! a wait loop gets choices of its own (its own view is the view where the loop is entered,
//! `own_at_entry`), in every family of the optimized mode. Past `--max-combinations` every load
//! reads the join of its candidates.
//!
//! In the constraint modes an inner search picks one store per chosen group and asks the oracle;
//! the first feasible choice is the combination's witness (and its explanation), a combination
//! whose choices are all refuted is pruned, and after `INNER_LIMIT` (8) queries it is kept
//! unchecked (D7).
//!
//! Three reductions drop choices or combinations another one covers (D9; rules/README.md
//! "Reductions of the enumeration"): covered cuts (`by_cuts` enumerates fewer cuts first,
//! `covered_by_kept` skips a cut whose reading counterpart is kept), the inherited own view
//! (`drop_redundant_own`), and inherited stores (in `collect`: a store a single-instance ancestor
//! made before creating the thread is not a candidate of a load of a one-slot cell,
//! `sync::feasibility::single_slot`, since the thread's entry state holds it). A load of a
//! `thread_private` cell has as candidates only the stores of functions analysed on their own (a
//! load of several such cells, none: it reads the joined interference), and the own view of a
//! `per_thread` cell at a thread's entry has no oracle event (it is the copy's initial value, not
//! the parent's store).
//!
//! `SourceCache` memoizes the backward walks that find where a thread's own view of a cell comes
//! from, and indexes each node's instructions by the cells they may set; it lives for the whole
//! fixpoint, because a walk depends only on the static CFG and thread indices are stable. Optimized
//! mode (`plan_families`): one family per cluster of loads (`pdg`): the cluster's loads get
//! choices, every other load reads the join of its own view and all its candidates (as in the
//! budget fallback); families are replaced by their product while that costs no more analyses (as
//! sound, at least as precise). `WATTS_TRACE` prints each oracle query and its answer on stderr.
//!
//! Invariant: a combination is dropped only when the oracle refutes it or a kept combination covers
//! its executions.
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
