//! What one thread sees of the others while it is analysed: the interference per cell, the
//! choices of the current combination, the lock-protected cells.

use crate::analysis::sync::protection::Protection;
use crate::memory::CellId;
use crate::threads::{NodeId, ThreadCfg};
use std::collections::BTreeSet;
use watts_domains::Interval;

/// The loads of one combination and what each reads, by `(node, instruction)`. Looked up at
/// every load the analysis of a combination visits: a fast hash (keys are small integers that
/// no input chooses adversarially; iteration order is never observed).
pub type Choices = rustc_hash::FxHashMap<(NodeId, u32), LoadRead>;

/// What one load reads in one interference combination (FSE'16, Alg. 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadRead {
    /// Whether it may read the thread's own view of memory.
    pub own: bool,
    /// What it may read from stores of other threads (bottom: none).
    pub others: Interval,
    /// Whether this combination stands for executions that never reach the load.
    pub cut: bool,
}

/// What one thread sees of the others.
pub struct ThreadView<'a> {
    /// Its CFG.
    pub cfg: &'a ThreadCfg,
    /// For each cell, the join of what other threads may store into it (bottom: nothing).
    pub interference: &'a [Interval],
    /// Per load `(node, instruction)`, what it reads in the current combination; loads not in
    /// the map read their own view joined with `interference`.
    pub choices: Option<&'a Choices>,
    /// The lock-protected cells and this thread's index among the fixpoint's threads; for
    /// protected cells, `interference` holds what was published (see `analysis::sync::protection`).
    pub protection: Option<(&'a Protection, usize)>,
    /// Register computations no target depends on (optimized mode, `pdg::Clusters`): their
    /// result becomes any value instead of being computed.
    pub skip: Option<&'a BTreeSet<(NodeId, u32)>>,
}

impl ThreadView<'_> {
    /// The choice of the current combination for a load, if any.
    pub fn choice(&self, node: NodeId, inst: u32) -> Option<&LoadRead> {
        self.choices.and_then(|m| m.get(&(node, inst)))
    }

    /// What other threads may have stored into `c`.
    pub fn interference(&self, c: CellId) -> Interval {
        self.interference
            .get(c.index())
            .copied()
            .unwrap_or_else(Interval::bottom)
    }
}
