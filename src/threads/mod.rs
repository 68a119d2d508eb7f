//! Threads: per-thread inlined CFGs and their shapes (orderings, loops).
//!
//! Which threads exist is discovered by the analysis as it reaches `pthread_create` calls
//! (`analysis::modular`); this module only builds the graphs they run on.

pub mod cfg;

pub use cfg::{Context, CtxId, Exit, InlineBudget, Node, NodeId, Shape, ThreadCfg};
