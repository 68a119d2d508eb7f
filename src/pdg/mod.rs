//! Program dependence graph of one thread, backward slices, and clusters of shared loads
//! (FSE'16, section 6).
//!
//! `control`: control dependence from post-dominance. `graph`: the dependence graph of a
//! thread's inlined CFG (control, SSA def-use, memory). `clusters`: the loads in the backward
//! slice of each target (assertion, shared store, thread creation), unioned per target.
//!
//! The result only decides how the optimized mode groups loads into families of combinations;
//! any grouping is sound (see `analysis::compose::families`), so a dependence missed here costs
//! precision, never soundness. Where in doubt, the graph has an edge.
//!
//! Computed once per thread (it depends only on the CFG), and only for threads with at least two
//! loads to choose for.

pub mod clusters;
pub mod control;
pub mod graph;

pub use clusters::{clusters_of, Clusters};
