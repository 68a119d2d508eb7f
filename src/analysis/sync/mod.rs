//! Synchronisation facts of the threads found so far, which do not depend on the abstract
//! domain: which locks each thread holds where (`locks`), which cells are lock-protected
//! (`protection`), which join loops wait for every thread of a create loop (`join_loops`), which
//! semaphores hand over from one thread (`semaphores`) and which barriers order by phases
//! (`barriers`), and the happens-before facts the Datalog oracle reads (`feasibility`).
//!
//! Invariant: every fact holds in every execution (sequential consistency); what cannot be
//! established is left out, which only loses precision.

pub mod barriers;
pub mod feasibility;
pub mod join_loops;
pub mod locks;
pub mod protection;
pub mod semaphores;
