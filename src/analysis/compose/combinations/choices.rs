//! The vocabulary of a thread's combinations: a shared load, the stores of other threads it may
//! read (its candidates, grouped by value), its choices (its own view, one group, not reached),
//! the store picked inside a group, and the plan of combinations they make.
//!
//! Invariant: a load's `groups` partition the indices of its `candidates` by value, and every
//! `Choice::Remote(g)` names one of them: the analysis of a combination depends on a group's
//! value only.

use crate::analysis::engine::LoadRead;
use crate::analysis::Flow;
use crate::facts::exit_reads::EXIT_READ;
use crate::memory::CellId;
use crate::threads::NodeId;
use rustc_hash::FxHashMap as HashMap;
use watts_domains::{Interval, Lattice};

/// An instruction of a thread, by node and index in the node's block: a load, a store, a create
/// call; `(node, EXIT_READ)` for the exit read of a wait loop whose load is in `node`.
pub(super) type Key = (NodeId, u32);

/// A store of some thread that a load may read.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) thread: usize,
    pub(super) at: Key,
    pub(super) value: Interval,
}

#[derive(Clone, Debug)]
pub(super) enum Choice {
    /// The thread's own view of memory.
    Own,
    /// Group `i` of the load's candidates (stores of one value).
    Remote(usize),
    /// The load is not reached.
    Cut,
}

/// One store chosen for a load, inside a group.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pick {
    Own,
    Cand(usize),
    Cut,
}

#[derive(Clone)]
pub(super) struct SharedLoad {
    /// The load's instruction, or `(node, EXIT_READ)` for the exit read of a wait loop whose
    /// load is in `node` (`facts::exit_reads`).
    pub(super) at: Key,
    /// The instruction whose source position names it.
    pub(super) site: Key,
    /// Where it happens in the thread's program order: its instruction, or `(exit,
    /// EXIT_READ)` for an exit read, which happens at the start of the loop's exit node.
    pub(super) place: Key,
    /// For an exit read, what reading the thread's own view means there: the view of the cell
    /// where the loop is entered (`None`: unknown, the state is not narrowed).
    pub(super) own_value: Option<Interval>,
    pub(super) cell: Option<CellId>,
    pub(super) candidates: Vec<Candidate>,
    /// Candidates of equal value: the analysis of a combination depends on the value only.
    pub(super) groups: Vec<Vec<usize>>,
    pub(super) options: Vec<Choice>,
}

impl SharedLoad {
    /// Whether it is the exit read of a wait loop rather than a load instruction.
    pub(super) fn is_exit_read(&self) -> bool {
        self.at.1 == EXIT_READ
    }

    /// What it reads without choices: its own view joined with every candidate store.
    pub(super) fn joined(&self) -> LoadRead {
        let mut others = Interval::bottom();
        for c in &self.candidates {
            others.join_with(&c.value);
        }
        LoadRead {
            own: true,
            others,
            cut: false,
        }
    }
}

/// The combinations to analyse for one thread in one round.
#[derive(Default)]
pub struct Plan {
    /// One choice map per combination.
    pub combos: Vec<HashMap<Key, LoadRead>>,
    /// For each combination, the remote reads it assumes (for explanations).
    pub flows: Vec<Vec<Flow>>,
    /// Combinations enumerated.
    pub enumerated: usize,
    /// Combinations the oracle refuted.
    pub pruned: usize,
    /// Combinations with a cut that a kept combination covers (not analysed).
    pub covered: usize,
    /// Oracle queries.
    pub queries: usize,
    /// Whether the budget was exceeded and loads were joined instead.
    pub fallback: bool,
    /// Whether the memory budget (`--max-memory`) ran out while the combinations were made:
    /// the plan is then the joined fallback, and the fixpoint must give up (`compose::run`).
    pub over_memory: bool,
}

/// Loads of given options, for the unit tests of the enumeration and its reductions.
#[cfg(test)]
pub(super) mod testing {
    use super::*;

    fn load(options: Vec<Choice>) -> SharedLoad {
        SharedLoad {
            at: (NodeId(0), 0),
            site: (NodeId(0), 0),
            place: (NodeId(0), 0),
            own_value: None,
            cell: None,
            candidates: Vec::new(),
            groups: Vec::new(),
            options,
        }
    }

    pub(in super::super) fn three() -> Vec<SharedLoad> {
        // Own, Remote(0), Cut for each of two loads.
        (0..2)
            .map(|_| load(vec![Choice::Own, Choice::Remote(0), Choice::Cut]))
            .collect()
    }
}
