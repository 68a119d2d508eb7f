//! What the fixpoint finds: of each thread its entry state, its states, what it stores (per
//! cell, and per store instruction for the flow-sensitive modes) and what its replays observed
//! of the assertions; in all, the threads, the rounds and the counters of the combinations.
//!
//! Invariant: a thread's static facts and its results are at the same index (`Fixpoint`,
//! `Threads`); `ThreadResults::written` lists exactly the cells whose `stores` are not bottom.
//!
//! A thread's store events (`ThreadResults::events`, one `StoreEv` per store instruction) keep the
//! values written per cell: one instruction may write the stored value into some cells and any
//! value into cells it overlaps only in part (`Access::clobber`). A store that writes more than
//! `replay::WIDE_STORE` (256) cells (through an unknown pointer, an unknown call: every exposed
//! cell) keeps no event; its cells go into `ThreadResults::wide`, and a load of one of them gets no
//! candidate list and reads the joined interference, which holds the store's values. The candidate
//! stores of a load of one cell come from `ThreadResults::stores_to` (a thread's store events by
//! cell, rebuilt after its events change); a load of several cells reads from a store what it wrote
//! into any of them (`StoreEv::value_into`).

use crate::analysis::sync::protection::Protection;
use crate::analysis::Flow;
use crate::ir::FuncId;
use crate::memory::CellId;
use crate::threads::{NodeId, Thread};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, Lattice};

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

impl<D> Fixpoint<D> {
    /// The threads with their results.
    pub fn view(&self) -> Threads<'_, D> {
        Threads {
            info: &self.threads,
            results: &self.results,
        }
    }
}

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

/// What the fixpoint found of one thread (`Fixpoint::threads` has its static facts, at the
/// same index).
pub struct ThreadResults<D> {
    /// Entry state (joined over every time the create site is reached).
    pub entry_state: D,
    /// Per cell, what this thread may store (bottom: nothing).
    pub stores: Vec<Interval>,
    /// Per cell, the views of lock-protected cells it published (see `analysis::sync::protection`).
    pub published: Vec<Interval>,
    /// Per lock, the relations among the lock's cells it published, joined (relational
    /// domains only; see `Transfer::inst`).
    pub published_rel: BTreeMap<u32, D>,
    /// The cells whose entry in `stores` is not bottom, ascending: interference is joined over
    /// these only, so a round costs the written cells, not every cell, per pair of threads.
    pub written: Vec<usize>,
    /// Per store instruction `(node, instruction)`: the cells it writes and the values it
    /// writes into each (flow-sensitive modes only).
    pub events: BTreeMap<(NodeId, u32), StoreEv>,
    /// The state at every node entry, from the last round (empty in the flow-insensitive mode
    /// unless `Composition::keep_states`).
    pub states: Vec<D>,
    /// Per integer load its last analysis reached, what the load read there (joined over the
    /// combinations, met over the families); empty unless `Composition::keep_states`.
    pub reads: LoadReads,
    /// Combinations pruned as infeasible in the last round.
    pub pruned: usize,
    /// What its last analysis observed of the assertions and unknown calls.
    pub observed: Vec<AssertObs>,
    /// Declared functions its last analysis called.
    pub unknown_calls: BTreeSet<FuncId>,
    /// Whether its last analysis fell back to joining (over the combination budget).
    pub fell_back: bool,
    /// Whether its last plan read the oracle (constraint modes: it had a load with candidate
    /// stores); a plan that did not is the same under other facts.
    pub reads_oracle: bool,
    /// Per node with a load (`fixpoint::load_reach`), whether some analysis so far reached it.
    pub reached_loads: Vec<bool>,
    /// Per node, whether its last analysis reached it (a state that is not bottom): what the
    /// race check takes as the accesses that may run (`analysis::races`).
    pub reached: Vec<bool>,
    /// The cells written by stores too wide to keep as events (see `replay::WIDE_STORE`):
    /// a load of one of them has no list of candidate stores and reads the joined interference.
    pub wide: CellBits,
    /// `events` by cell, built when first asked for (`stores_to`) and dropped whenever
    /// `events` changes.
    pub(crate) events_by_cell: std::sync::OnceLock<EventsByCell>,
}

impl<D> ThreadResults<D> {
    /// Nothing found yet, from `entry_state`.
    pub(crate) fn new(entry_state: D, ncells: usize) -> Self {
        ThreadResults {
            entry_state,
            stores: vec![Interval::bottom(); ncells],
            published: vec![Interval::bottom(); ncells],
            published_rel: BTreeMap::new(),
            written: Vec::new(),
            events: BTreeMap::new(),
            states: Vec::new(),
            reads: LoadReads::default(),
            pruned: 0,
            observed: Vec::new(),
            unknown_calls: BTreeSet::new(),
            fell_back: false,
            reads_oracle: false,
            reached_loads: Vec::new(),
            reached: Vec::new(),
            wide: CellBits::default(),
            events_by_cell: std::sync::OnceLock::new(),
        }
    }
}

/// Each store instruction of a thread under every cell it may write, with its value, in the
/// order of `ThreadResults::events`.
pub(crate) type EventsByCell = rustc_hash::FxHashMap<CellId, Vec<((NodeId, u32), Interval)>>;

impl<D> ThreadResults<D> {
    /// The stores (instruction and value) of this thread that may write `c`, in the order of
    /// `events`.
    pub(crate) fn stores_to(&self, c: CellId) -> &[((NodeId, u32), Interval)] {
        let by_cell = self.events_by_cell.get_or_init(|| {
            let mut m = EventsByCell::default();
            for (at, ev) in &self.events {
                // `ev.cells` has no duplicates: a store appears once under each cell, with the
                // values it writes into that cell.
                for (c, value) in &ev.cells {
                    m.entry(*c).or_default().push((*at, *value));
                }
            }
            m
        });
        by_cell.get(&c).map_or(&[], Vec::as_slice)
    }
}

/// What one store instruction of a thread writes.
///
/// Soundness: one instruction may write different values into different cells: through an
/// unknown pointer, a cell of the store's size gets the stored value and a cell it overlaps
/// only in part (a pointer, a `long`) gets any value (`MemoryModel::access`, `clobber`). A load
/// of a cell that reads this store reads what it wrote into *that* cell; that value is what the
/// flow-insensitive interference (`ThreadResults::stores`) holds for the cell too, so every mode reads
/// the same values from a store (joining the values over the cells, as this type once did,
/// made the flow-sensitive modes read any value where flow-insensitive reads the stored one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreEv {
    /// The cells it may write, each with the values it may write there.
    pub cells: BTreeMap<CellId, Interval>,
}

impl StoreEv {
    /// Joins `value` into what the store writes to `c`; true iff that grew (or `c` is new).
    pub(crate) fn add(&mut self, c: CellId, value: Interval) -> bool {
        match self.cells.get_mut(&c) {
            Some(v) => v.join_with(&value),
            None => {
                self.cells.insert(c, value);
                true
            }
        }
    }

    /// What the store may write into any of `cells` (bottom: none of them).
    pub(crate) fn value_into(&self, cells: &[CellId]) -> Interval {
        let mut v = Interval::bottom();
        for c in cells {
            if let Some(x) = self.cells.get(c) {
                v.join_with(x);
            }
        }
        v
    }
}

/// A set of cells as one bit per cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellBits(Vec<u64>);

impl CellBits {
    /// Adds `c`; true iff it was not in.
    pub fn insert(&mut self, c: CellId) -> bool {
        let (w, b) = (c.index() / 64, c.index() % 64);
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        let new = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        new
    }

    /// Whether `c` is in.
    pub fn contains(&self, c: CellId) -> bool {
        let (w, b) = (c.index() / 64, c.index() % 64);
        self.0.get(w).is_some_and(|x| x & (1 << b) != 0)
    }

    /// Adds every cell of `other`; returns the cells that were not in.
    pub fn union_with(&mut self, other: &CellBits) -> Vec<usize> {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut added = Vec::new();
        for (w, (a, b)) in self.0.iter_mut().zip(&other.0).enumerate() {
            let mut new = *b & !*a;
            *a |= b;
            while new != 0 {
                added.push(w * 64 + new.trailing_zeros() as usize);
                new &= new - 1;
            }
        }
        added
    }

    /// Adds every cell of `cells`.
    pub fn extend(&mut self, cells: impl IntoIterator<Item = CellId>) {
        for c in cells {
            self.insert(c);
        }
    }

    /// Whether no cell is in.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
}

/// The threads found so far with what the fixpoint found of each, at the same indices.
pub struct Threads<'a, D> {
    /// Their static facts.
    pub info: &'a [Thread],
    /// Their results.
    pub results: &'a [ThreadResults<D>],
}

impl<D> Clone for Threads<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D> Copy for Threads<'_, D> {}

impl<D> Threads<'_, D> {
    /// How many threads.
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// Whether there is none (never, once `main` is in).
    pub fn is_empty(&self) -> bool {
        self.info.is_empty()
    }
}

/// What one assertion looked like in the final round.
#[derive(Clone, Debug, Default)]
pub struct AssertObs {
    /// Threads that reach it.
    pub reached_in: BTreeSet<usize>,
    /// Threads where it may fail.
    pub fails_in: BTreeSet<usize>,
    /// Values of the condition's named variables where it may fail.
    pub values: BTreeMap<String, Interval>,
    /// The remote reads of the first combination in which it may fail.
    pub explanation: Option<Vec<Flow>>,
}

impl AssertObs {
    /// Adds what `other` observed.
    pub(crate) fn merge(&mut self, other: &AssertObs) {
        self.reached_in.extend(other.reached_in.iter().copied());
        self.fails_in.extend(other.fails_in.iter().copied());
        for (name, v) in &other.values {
            self.values
                .entry(name.clone())
                .and_modify(|x| {
                    x.join_with(v);
                })
                .or_insert(*v);
        }
        if self.explanation.is_none() {
            self.explanation.clone_from(&other.explanation);
        }
    }
}

/// Per integer load `(node, instruction)`, the values it read.
pub type LoadReads = rustc_hash::FxHashMap<(NodeId, u32), Interval>;
