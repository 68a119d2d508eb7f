//! Threads: per-thread inlined CFGs and their shapes (orderings, loops), the calls whose callee
//! is known though not written (`resolve`), and the static facts of one thread (`Thread`: name,
//! origin, entry, CFG).
//!
//! Which threads exist is discovered by the analysis as it reaches `pthread_create` calls
//! (`analysis::compose`); this module only builds the graphs they run on.

pub mod cfg;
pub mod resolve;
mod thread;

pub use cfg::{Context, CtxId, Exit, InlineBudget, Node, NodeId, Shape, ThreadCfg};
pub use resolve::Resolution;
pub use thread::{Origin, Thread};
