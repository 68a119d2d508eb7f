//! The thread-modular fixpoint (FSE'16, Alg. 2): analyse every thread under the interference of
//! the others, recompute what each thread stores, repeat until nothing grows.
//!
//! Threads are discovered as the analysis reaches `pthread_create`: each create site (in one
//! inlined context of one thread) with one entry function is one thread, which starts from the
//! abstract state at the call. A site on a cycle of its thread, or in a thread that runs many
//! times, stands for many instances, which interfere with each other.
//!
//! Invariant: interference and entry states only grow (joins, then widening), so the rounds
//! terminate; at the end, every thread's last analysis ran under the final inputs (a thread is
//! skipped in a round only when none of its inputs changed since its last analysis, see
//! `Thread::quiet_since`).

use super::program_facts::{Facts, ThreadView};
use super::protection::Protection;
use super::transfer::{Recorder, Transfer};
use crate::ir::{AssertId, FuncId, InitValue, InstKind, ObjectKind, Operand, Ty};
use crate::memory::{cells::normalize, CellId, Lookup};
use crate::threads::{CtxId, InlineBudget, NodeId, Shape, ThreadCfg};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, Lattice, NumDomain, Truth};

/// Rounds after which interference is widened instead of joined.
const JOIN_ROUNDS: usize = 2;
/// A safety net: rounds after which the analysis gives up (results become may-fail).
const MAX_ROUNDS: usize = 200;

/// How a thread came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The program's `main`.
    Main,
    /// A `pthread_create` in thread `parent`, at instruction `inst` of `node`.
    Created {
        /// The creating thread.
        parent: usize,
        /// Node of the call in the parent's CFG.
        node: NodeId,
        /// Instruction index in the node's block.
        inst: u32,
    },
    /// A function analysed on its own from an unknown state: a call that was not inlined
    /// (recursion, size budget, call through a pointer) or a function unknown code may call.
    Detached,
}

/// One analysed thread.
pub struct Thread<D> {
    /// A readable name (`main`, `reader`, `reader#2`).
    pub name: String,
    /// How it came to be.
    pub origin: Origin,
    /// Its entry function.
    pub entry: FuncId,
    /// Its inlined CFG.
    pub cfg: ThreadCfg,
    /// Orderings of the CFG.
    pub shape: Shape,
    /// Whether it stands for several instances running at once.
    pub multi: bool,
    /// Entry state (joined over every time the create site is reached).
    pub entry_state: D,
    /// Per cell, what this thread may store (bottom: nothing).
    pub stores: Vec<Interval>,
    /// Per cell, the views of lock-protected cells it published (see `analysis::protection`).
    pub published: Vec<Interval>,
    /// The cells whose entry in `stores` is not bottom, ascending: interference is joined over
    /// these only, so a round costs the written cells, not every cell, per pair of threads.
    pub written: Vec<usize>,
    /// Per store instruction `(node, instruction)`: the cells it writes and the values it
    /// writes into each.
    pub events: BTreeMap<(NodeId, u32), StoreEv>,
    /// The state at every node entry, from the last round.
    pub states: Vec<D>,
    /// Combinations pruned as infeasible in the last round.
    pub pruned: usize,
    /// What its last analysis observed of the assertions and unknown calls.
    pub observed: Vec<AssertObs>,
    /// Declared functions its last analysis called.
    pub unknown_calls: BTreeSet<FuncId>,
    /// Whether its last analysis fell back to joining (over the combination budget).
    pub fell_back: bool,
    /// `Some(e)`: its last analysis ended when the change counter was `e`, and nothing that
    /// analysis changed is an input of this thread itself (it has one instance, published no
    /// new protected value, and the nodes with loads stayed as reachable). While no input of it
    /// changed after `e` (see `is_quiet`), analysing it again would give the same result.
    pub quiet_since: Option<u64>,
    /// When its entry state last changed.
    pub entry_epoch: u64,
    /// The cells its loads may read (`None`: any cell), computed once.
    pub reads: Option<Option<Vec<usize>>>,
    /// Whether its last plan read the oracle (constraint modes: it had a load with candidate
    /// stores); a plan that did not is the same under other facts.
    pub reads_oracle: bool,
    /// `events` by cell, built when first asked for (`stores_to`) and dropped whenever
    /// `events` changes.
    pub(crate) events_by_cell: std::sync::OnceLock<EventsByCell>,
}

/// Each store instruction of a thread under every cell it may write, with its value, in the
/// order of `Thread::events`.
pub(crate) type EventsByCell = rustc_hash::FxHashMap<CellId, Vec<((NodeId, u32), Interval)>>;

impl<D> Thread<D> {
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
/// flow-insensitive interference (`Thread::stores`) holds for the cell too, so every mode reads
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
}

/// How interference is composed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Composition {
    /// Combinations of store-to-load flows (FSE'16 Alg. 3) instead of joins (Alg. 2).
    pub flow_sensitive: bool,
    /// Prune combinations with the Datalog rules (Alg. 4).
    pub constraints: bool,
    /// Most combinations per thread and round before falling back to joins.
    pub max_combinations: usize,
    /// Hand lock-protected cells over at lock operations only (see `analysis::protection`).
    pub protection: bool,
    /// Slicing and clustering (FSE'16, section 6): one family of combinations per cluster of
    /// dependent loads, analysed in parallel (`analysis::families`).
    pub optimized: bool,
    /// Worker threads for the combinations of the optimized mode (0: one per core).
    pub jobs: usize,
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
    pub explanation: Option<Vec<super::Flow>>,
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

/// The result of the fixpoint.
pub struct Fixpoint<D> {
    /// Every thread (detached functions included).
    pub threads: Vec<Thread<D>>,
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
}

/// What the replays of one thread in one round observed.
pub(crate) struct Sink<D> {
    pub(crate) stores: Vec<Interval>,
    pub(crate) published: Vec<Interval>,
    pub(crate) events: BTreeMap<(NodeId, u32), StoreEv>,
    pub(crate) creates: Vec<(NodeId, u32, D)>,
    pub(crate) at: (NodeId, u32),
    /// Whether store events are kept: only the flow-sensitive modes read them (a store through
    /// an unknown pointer writes thousands of cells, so keeping them costs).
    pub(crate) record_events: bool,
}

impl<D> Sink<D> {
    pub(crate) fn new(ncells: usize) -> Self {
        Sink {
            stores: vec![Interval::bottom(); ncells],
            published: vec![Interval::bottom(); ncells],
            events: BTreeMap::new(),
            creates: Vec::new(),
            at: (NodeId(0), 0),
            record_events: true,
        }
    }

    /// Adds what another replay observed (as if it had replayed into `self`).
    pub(crate) fn absorb(&mut self, other: Sink<D>) {
        for (a, b) in self.stores.iter_mut().zip(&other.stores) {
            a.join_with(b);
        }
        for (a, b) in self.published.iter_mut().zip(&other.published) {
            a.join_with(b);
        }
        for (k, ev) in other.events {
            match self.events.get_mut(&k) {
                None => {
                    self.events.insert(k, ev);
                }
                Some(old) => {
                    for (c, v) in ev.cells {
                        old.add(c, v);
                    }
                }
            }
        }
        self.creates.extend(other.creates);
    }
}

pub(crate) struct Observer<'a, 'f, D> {
    pub(crate) facts: &'a Facts<'f>,
    pub(crate) transfer: &'a Transfer<'a>,
    pub(crate) tid: usize,
    pub(crate) sink: &'a mut Sink<D>,
    pub(crate) flows: &'a [super::Flow],
    pub(crate) asserts: &'a mut Vec<AssertObs>,
    pub(crate) unknown_calls: &'a mut BTreeSet<FuncId>,
}

impl<D: NumDomain> Recorder<D> for Observer<'_, '_, D> {
    fn at(&mut self, node: NodeId, inst: u32) {
        self.sink.at = (node, inst);
    }

    fn store(&mut self, c: CellId, value: Interval) {
        self.sink.stores[c.index()].join_with(&value);
        if !self.sink.record_events {
            return;
        }
        self.sink
            .events
            .entry(self.sink.at)
            .or_default()
            .add(c, value);
    }

    fn create(&mut self, node: NodeId, inst: u32, state: &D) {
        self.sink.creates.push((node, inst, state.clone()));
    }

    fn assertion(&mut self, id: AssertId, ctx: CtxId, cond: Option<&Operand>, state: &D) {
        let obs = &mut self.asserts[id.index()];
        obs.reached_in.insert(self.tid);
        if self.transfer.holds(state, ctx, cond) != Truth::True {
            obs.fails_in.insert(self.tid);
            if obs.explanation.is_none() {
                obs.explanation = Some(self.flows.to_vec());
            }
            let info = &self.facts.program.asserts[id.index()];
            for (name, v) in &info.cond_vars {
                let iv = state.interval(self.transfer.ssa_var(ctx, *v));
                obs.values
                    .entry(name.clone())
                    .and_modify(|x| {
                        x.join_with(&iv);
                    })
                    .or_insert(iv);
            }
        }
    }

    fn unknown_call(&mut self, f: FuncId) {
        self.unknown_calls.insert(f);
    }

    fn publish(&mut self, c: CellId, value: Interval) {
        self.sink.published[c.index()].join_with(&value);
    }
}

/// Runs the thread-modular analysis from `main`.
pub fn run<D: NumDomain>(
    facts: &Facts<'_>,
    main: FuncId,
    detached: &[FuncId],
    how: Composition,
) -> Fixpoint<D> {
    let program = facts.program;
    let ncells = facts.ncells as usize;
    let budget = InlineBudget::default();
    let mut threads: Vec<Thread<D>> = Vec::new();
    threads.push(new_thread(
        facts,
        "main".into(),
        Origin::Main,
        main,
        false,
        initial_state(facts),
        budget,
    ));
    let mut detached_queue: Vec<FuncId> = detached.to_vec();
    let mut detached_done: BTreeSet<FuncId> = BTreeSet::new();
    let mut rounds = 0;
    let mut gave_up = false;
    let mut over_memory = false;
    let mut combos = ComboStats::default();
    // A clock of changes (see `Thread::quiet_since`): when the structure last changed (threads,
    // instances, protection, the oracle's facts), and when each cell's stores last changed.
    let mut epoch: u64 = 0;
    let mut struct_epoch: u64 = 0;
    let mut cell_epoch: Vec<u64> = vec![0; ncells];
    // The oracle (constraint modes), built when a plan first needs it; when new facts replace
    // it, the threads whose plans read it are analysed again (`Thread::reads_oracle`).
    let mut oracle =
        (how.flow_sensitive && how.constraints).then(super::feasibility::LazyOracle::default);
    let mut oracle_epoch: u64 = 0;
    let mut source_cache = super::combinations::SourceCache::default();
    let mut protection = Protection::default();
    let mut next_protection: Option<Protection> = None;
    let initial: Vec<Interval> = {
        let s: D = initial_state(facts);
        (0..facts.ncells)
            .map(|c| s.interval(watts_domains::Var(c)))
            .collect()
    };
    // Clusters depend on a thread's CFG only (thread indices are stable).
    let mut clusters: Vec<Option<crate::pdg::Clusters>> = Vec::new();
    let pool = how.optimized.then(|| super::families::pool(how.jobs));
    loop {
        rounds += 1;
        combos.fallback_threads.clear();
        let mut changed = false;
        // Functions not inlined somewhere are analysed on their own, from an unknown state.
        for t in &threads {
            detached_queue.extend(t.cfg.opaque_callees.iter().copied());
        }
        while let Some(f) = detached_queue.pop() {
            if detached_done.insert(f) {
                let name = format!("{} (not inlined)", program.funcs[f.index()].name);
                threads.push(new_thread(
                    facts,
                    name,
                    Origin::Detached,
                    f,
                    true,
                    D::top(),
                    budget,
                ));
                changed = true;
            }
        }
        // Computed at the end of the last round, unless detached functions came in since.
        let now = match next_protection.take() {
            Some(p) if !changed => p,
            _ if how.protection => Protection::compute(facts, &threads),
            _ => Protection::default(),
        };
        if now != protection {
            // Loads and lock hand-overs of every thread change with it.
            changed = true;
            protection = now;
        }
        if changed {
            epoch += 1;
            struct_epoch = epoch;
        }
        let mut i = 0;
        while i < threads.len() {
            if crate::error::over_memory_budget() {
                over_memory = true;
                break;
            }
            super::progress::set(Some(super::progress::Position {
                round: rounds,
                thread: i + 1,
                threads: threads.len(),
                name: threads[i].name.clone(),
            }));
            if threads[i].reads.is_none() {
                threads[i].reads = Some(cells_read(facts, &threads[i]));
            }
            let epochs = Epochs {
                structure: struct_epoch,
                oracle: oracle_epoch,
                cells: &cell_epoch,
            };
            if is_quiet(&threads[i], epochs, &protection) {
                if threads[i].fell_back {
                    combos.fallbacks += 1;
                    combos.fallback_threads.insert(threads[i].name.clone());
                }
                i += 1;
                continue;
            }
            let mut interference = interference_for(&threads, i, ncells);
            protected_interference(&mut interference, &threads, &protection, &initial);
            let (states, sink, observed, called) = if let (Some(pool), true) =
                (&pool, threads[i].origin != Origin::Detached)
            {
                clusters.resize(threads.len().max(clusters.len()), None);
                // Built by `plan_families` when the thread has loads to cluster.
                let cl = &mut clusters[i];
                let t0 = std::time::Instant::now();
                let families = super::combinations::plan_families(
                    facts,
                    &threads,
                    i,
                    oracle.as_mut(),
                    how.max_combinations,
                    &mut source_cache,
                    cl,
                    &protection,
                );
                combos.datalog_ms += t0.elapsed().as_millis() as u64;
                let fell_back = families.iter().any(|p| p.fallback);
                threads[i].fell_back = fell_back;
                if fell_back {
                    combos.fallbacks += 1;
                    combos.fallback_threads.insert(threads[i].name.clone());
                }
                let pruned: usize = families.iter().map(|p| p.pruned).sum();
                combos.enumerated += families.iter().map(|p| p.enumerated).sum::<usize>();
                combos.queries += families.iter().map(|p| p.queries).sum::<usize>();
                combos.pruned += pruned;
                threads[i].pruned = pruned;
                let inputs = super::families::Inputs {
                    interference: &interference,
                    protection: protection.any().then_some(&protection),
                    skip: clusters[i].as_ref().map(|c| &c.irrelevant),
                };
                let out = super::families::analyse(facts, &threads[i], i, inputs, &families, pool);
                combos.analysed += out.analysed;
                (out.states, out.sink, out.observed, out.called)
            } else {
                let plan = if how.flow_sensitive && threads[i].origin != Origin::Detached {
                    let t0 = std::time::Instant::now();
                    let p = super::combinations::plan(
                        facts,
                        &threads,
                        i,
                        oracle.as_mut(),
                        how.max_combinations,
                        &mut source_cache,
                        &protection,
                    );
                    if oracle.is_some() {
                        combos.datalog_ms += t0.elapsed().as_millis() as u64;
                    }
                    combos.enumerated += p.enumerated;
                    combos.queries += p.queries;
                    threads[i].fell_back = p.fallback;
                    if p.fallback {
                        combos.fallbacks += 1;
                        combos.fallback_threads.insert(threads[i].name.clone());
                    }
                    Some(p)
                } else {
                    None
                };
                let mut observed = vec![AssertObs::default(); program.asserts.len()];
                let mut called = BTreeSet::new();
                let (states, sink) = {
                    let t = &threads[i];
                    let mut sink = Sink::new(ncells);
                    sink.record_events = how.flow_sensitive;
                    let single = [super::program_facts::Choices::default()];
                    let no_flows = [Vec::new()];
                    let (choice_sets, flow_sets): (&[_], &[_]) = match &plan {
                        Some(p) => (&p.combos, &p.flows),
                        None => (&single, &no_flows),
                    };
                    let mut joined: Vec<D> = vec![D::bottom(); t.cfg.nodes.len()];
                    for (choices, flows) in choice_sets.iter().zip(flow_sets) {
                        let inputs = super::families::Inputs {
                            interference: &interference,
                            protection: protection.any().then_some(&protection),
                            skip: None,
                        };
                        let records = super::families::Records {
                            sink: &mut sink,
                            observed: &mut observed,
                            called: &mut called,
                        };
                        let choices = plan.as_ref().map(|_| choices);
                        let states = super::families::solve_and_replay(
                            facts, t, i, inputs, choices, flows, records,
                        );
                        for (j, s) in joined.iter_mut().zip(&states) {
                            j.join_with(s);
                        }
                        combos.analysed += 1;
                    }
                    mark_guards(facts, &t.cfg, &joined, i, &mut observed);
                    (joined, sink)
                };
                threads[i].pruned = plan.as_ref().map_or(0, |p| p.pruned);
                if let Some(p) = &plan {
                    combos.pruned += p.pruned;
                }
                (states, sink, observed, called)
            };
            if let Some(o) = oracle.as_mut() {
                threads[i].reads_oracle = o.take_used();
                // New facts are a new input of every plan that read the oracle (this one
                // read the new facts already: its `quiet_since` comes later).
                if o.take_rebuilt() {
                    epoch += 1;
                    oracle_epoch = epoch;
                }
            }
            let stores = sink.stores;
            let published = sink.published;
            let creates = sink.creates;
            let widen = rounds > JOIN_ROUNDS;
            let mut changed_cells = accumulate(&mut threads[i].stores, &stores, widen);
            let t = &mut threads[i];
            changed_cells.extend(accumulate_events(
                &mut t.events,
                sink.events,
                widen,
                &t.stores,
            ));
            threads[i].events_by_cell = std::sync::OnceLock::new();
            // What of its own result a thread reads in the next round: its stores if it has
            // several instances, the oracle's facts (built from every thread's store events),
            // and the plan skips loads at nodes unreachable in this round.
            let moved = how.flow_sensitive
                && load_reach(facts, &threads[i], &threads[i].states)
                    != load_reach(facts, &threads[i], &states);
            let reads_itself = moved;
            threads[i].states = states;
            threads[i].observed = observed;
            threads[i].unknown_calls = called;
            // A thread reads what it published itself when it takes the lock again.
            let republished = accumulate(&mut threads[i].published, &published, widen);
            let republished = !republished.is_empty() && {
                changed_cells.extend(republished);
                true
            };
            threads[i].written = written_cells(&threads[i].stores);
            let mut spawned = false;
            for (node, inst, state) in creates {
                spawned |= spawn(facts, &mut threads, i, node, inst, &state, rounds, budget);
            }
            let own = !changed_cells.is_empty() || spawned;
            if own {
                changed = true;
                epoch += 1;
                for c in changed_cells {
                    cell_epoch[c] = epoch;
                }
                if spawned {
                    // New threads, new instances or new entry states.
                    struct_epoch = epoch;
                }
            }
            let reads_itself = reads_itself || republished || (own && threads[i].multi);
            threads[i].quiet_since = (!reads_itself).then_some(epoch);
            i += 1;
        }
        // Threads created in this round may take protection away: run another round then.
        if how.protection {
            let next = Protection::compute(facts, &threads);
            changed |= next != protection;
            next_protection = Some(next);
        }
        if over_memory || crate::error::over_memory_budget() {
            over_memory = true;
            gave_up = true;
            break;
        }
        if !changed {
            break;
        }
        if rounds >= MAX_ROUNDS {
            gave_up = true;
            break;
        }
    }
    super::progress::set(None);
    // The observations of the last analysis of every thread, in thread order (the first
    // explanation found wins, as when every thread ran in the last round).
    let mut asserts = vec![AssertObs::default(); program.asserts.len()];
    let mut unknown_calls = BTreeSet::new();
    for t in &threads {
        for (acc, o) in asserts.iter_mut().zip(&t.observed) {
            acc.merge(o);
        }
        unknown_calls.extend(t.unknown_calls.iter().copied());
    }
    let protectable = how.protection || Protection::compute(facts, &threads).any();
    Fixpoint {
        protectable,
        threads,
        rounds,
        gave_up,
        over_memory,
        asserts,
        unknown_calls,
        combos,
    }
}

fn new_thread<D: NumDomain>(
    facts: &Facts<'_>,
    name: String,
    origin: Origin,
    entry: FuncId,
    multi: bool,
    entry_state: D,
    budget: InlineBudget,
) -> Thread<D> {
    let cfg = ThreadCfg::build(facts.program, entry, budget);
    let shape = Shape::of(&cfg, facts.program);
    Thread {
        name,
        origin,
        entry,
        cfg,
        shape,
        multi,
        entry_state,
        stores: vec![Interval::bottom(); facts.ncells as usize],
        published: vec![Interval::bottom(); facts.ncells as usize],
        written: Vec::new(),
        events: BTreeMap::new(),
        states: Vec::new(),
        pruned: 0,
        observed: Vec::new(),
        unknown_calls: BTreeSet::new(),
        fell_back: false,
        quiet_since: None,
        entry_epoch: 0,
        reads: None,
        reads_oracle: false,
        events_by_cell: std::sync::OnceLock::new(),
    }
}

/// What thread `i` may read from the others: every store of every other thread, and its own
/// stores when it has several instances.
pub(crate) fn interference_for<D>(threads: &[Thread<D>], i: usize, ncells: usize) -> Vec<Interval> {
    let mut out = vec![Interval::bottom(); ncells];
    for (j, t) in threads.iter().enumerate() {
        if j == i && !t.multi {
            continue;
        }
        for &c in &t.written {
            out[c].join_with(&t.stores[c]);
        }
    }
    out
}

/// For each node of `t` with a load, whether `states` may reach it (all of them before the
/// first analysis): the part of the states that the next round's plan reads.
fn load_reach<D: NumDomain>(facts: &Facts<'_>, t: &Thread<D>, states: &[D]) -> Vec<bool> {
    let program = facts.program;
    (t.cfg.nodes.iter().enumerate())
        .filter(|(_, nd)| {
            let func = t.cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
            (nd.start..nd.end).any(|k| matches!(insts[k as usize].kind, InstKind::Load { .. }))
        })
        .map(|(n, _)| states.get(n).is_none_or(|s| !s.is_bottom()))
        .collect()
}

/// For lock-protected cells, replaces the interference by what may be there when the lock is
/// taken: every view any thread (this one included) published, and the initial value when a
/// detached function might take the lock before any thread exists.
fn protected_interference<D>(
    interference: &mut [Interval],
    threads: &[Thread<D>],
    protection: &Protection,
    initial: &[Interval],
) {
    // Before `main` creates its first thread, it publishes its view (the initial value, unless
    // it wrote the cell); only a detached function may take the lock earlier, from another view.
    let detached = threads.iter().any(|t| t.origin == Origin::Detached);
    for (c, slot) in interference.iter_mut().enumerate() {
        if protection.lock_of.get(c).is_none_or(Option::is_none) {
            continue;
        }
        let mut v = if detached {
            initial[c]
        } else {
            Interval::bottom()
        };
        for t in threads {
            v.join_with(&t.published[c]);
        }
        *slot = v;
    }
}

/// The cells `stores` does not map to bottom.
fn written_cells(stores: &[Interval]) -> Vec<usize> {
    (stores.iter().enumerate())
        .filter(|(_, s)| !s.is_bottom())
        .map(|(c, _)| c)
        .collect()
}

/// `acc := acc ⊔ new` (or `acc ∇ (acc ⊔ new)` once `widen`); true iff `acc` grew.
fn accumulate(acc: &mut [Interval], new: &[Interval], widen: bool) -> Vec<usize> {
    let mut changed = Vec::new();
    for (c, (a, n)) in acc.iter_mut().zip(new).enumerate() {
        let mut j = *a;
        if j.join_with(n) {
            changed.push(c);
            if widen {
                a.widen_with(&j);
            } else {
                *a = j;
            }
        }
    }
    changed
}

/// Accumulates per-store values like `accumulate`, each kept within what the thread may store
/// into the cell (`bound`, its `stores` already accumulated this round); returns the cells of
/// the stores that grew or appeared (what other threads' candidate stores are made of).
///
/// Soundness: `bound[c]` holds every value any round recorded into `c`, so the meet keeps every
/// value the store wrote. It is what keeps the modes ordered: widened on their own, the values
/// of one store may grow past the thread's `stores` (a store that grows within the range of
/// another store of the cell is widened, the thread's `stores` is not), and a flow-sensitive
/// load reading the store would see more than the flow-insensitive interference
/// (tests/corpus/16-edges/mo-03-widened-store.c).
/// Termination: between two changes of `bound`, a bound of a value that grows is widened to
/// infinity and clipped to `bound`'s, which no new value exceeds, so it grows at most once;
/// `bound` itself changes finitely often (`accumulate` widens).
fn accumulate_events(
    acc: &mut BTreeMap<(NodeId, u32), StoreEv>,
    new: BTreeMap<(NodeId, u32), StoreEv>,
    widen: bool,
    bound: &[Interval],
) -> Vec<usize> {
    let mut changed: Vec<usize> = Vec::new();
    for (k, ev) in new {
        let old = acc.entry(k).or_default();
        // Only the cells whose values grew change what loads of them may read.
        for (c, v) in ev.cells {
            match old.cells.get_mut(&c) {
                None => {
                    old.cells.insert(c, v);
                    changed.push(c.index());
                }
                Some(a) => {
                    let mut j = *a;
                    if j.join_with(&v) {
                        changed.push(c.index());
                        if widen {
                            a.widen_with(&j);
                            a.meet_with(&bound[c.index()]);
                        } else {
                            *a = j;
                        }
                    }
                }
            }
        }
    }
    changed
}

/// When things last changed (see `Thread::quiet_since`).
#[derive(Clone, Copy)]
struct Epochs<'a> {
    /// Threads, instances, entry states, protection.
    structure: u64,
    /// The oracle's facts.
    oracle: u64,
    /// Per cell, its stores or store events.
    cells: &'a [u64],
}

/// Whether thread `t` may be skipped: its last analysis read nothing of itself, and since it
/// ended no structure changed (threads, instances, entry states, protection; the oracle's
/// facts if its plan read the oracle) and no cell it may read (for protected cells: any, since
/// it refreshes them at its locks) got a new store.
///
/// Soundness: a thread's analysis is a deterministic function of exactly these inputs (D8).
/// A plan that did not read the oracle (no load had a candidate store: `collect` asks for the
/// oracle whenever one has) is the same whatever its facts; whether a load has candidates
/// depends on the threads (structure) and the store events of the cells it reads (cells).
fn is_quiet<D>(t: &Thread<D>, epochs: Epochs<'_>, protection: &Protection) -> bool {
    let Some(seen) = t.quiet_since else {
        return false;
    };
    let cell_epoch = epochs.cells;
    if epochs.structure > seen || t.entry_epoch > seen {
        return false;
    }
    if t.reads_oracle && epochs.oracle > seen {
        return false;
    }
    let protected = (protection.lock_of.iter().enumerate())
        .filter(|(_, l)| l.is_some())
        .map(|(c, _)| c);
    match t.reads.as_ref().and_then(|r| r.as_ref()) {
        Some(cells) => cells
            .iter()
            .copied()
            .chain(protected)
            .all(|c| cell_epoch[c] <= seen),
        None => cell_epoch.iter().all(|e| *e <= seen),
    }
}

/// The cells the loads (and atomic read-modify-writes) of thread `t` may read; `None` when one
/// may read a cell the points-to analysis cannot name.
fn cells_read<D>(facts: &Facts<'_>, t: &Thread<D>) -> Option<Vec<usize>> {
    let mut out = BTreeSet::new();
    for nd in &t.cfg.nodes {
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            if let InstKind::Load { .. } | InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. } =
                insts[idx as usize].kind
            {
                let a = facts.access(func, nd.block, idx);
                if a.read_unknown {
                    return None;
                }
                out.extend(a.exact.iter().map(|c| c.index()));
            }
        }
    }
    Some(out.into_iter().collect())
}

/// Registers (or updates) the threads a `pthread_create` reached by thread `parent` starts.
#[allow(clippy::too_many_arguments)]
fn spawn<D: NumDomain>(
    facts: &Facts<'_>,
    threads: &mut Vec<Thread<D>>,
    parent: usize,
    node: NodeId,
    inst: u32,
    state: &D,
    rounds: usize,
    budget: InlineBudget,
) -> bool {
    let program = facts.program;
    let (ctx, block) = {
        let n = &threads[parent].cfg.nodes[node.index()];
        (n.ctx, n.block)
    };
    let func = threads[parent].cfg.contexts[ctx.0 as usize].func;
    let InstKind::ThreadCreate { entry, arg, .. } =
        &program.funcs[func.index()].blocks[block.index()].insts[inst as usize].kind
    else {
        return false;
    };
    let (mut entries, unknown) = facts.memory.pts.callees(program, func, entry);
    // Soundness: an entry the program does not define (a pointer from `dlsym`, a library
    // function) runs code the analysis cannot see; the function that stands for such code
    // (`harness::startup::UNKNOWN_CODE`, added whenever a creation names an entry that is not
    // a defined function) runs instead, writing any memory whose address escaped.
    if unknown || entries.iter().any(|g| !program.funcs[g.index()].is_defined) {
        let stand_in = program
            .funcs
            .iter()
            .position(|f| f.name == crate::harness::startup::UNKNOWN_CODE && f.is_defined);
        entries.extend(stand_in.map(crate::ir::FuncId::from));
    }
    let arg_value = {
        let view = ThreadView {
            cfg: &threads[parent].cfg,
            interference: &[],
            choices: None,
            protection: None,
            skip: None,
        };
        let t = Transfer { facts, view: &view };
        t.value(state, ctx, arg)
    };
    let many = threads[parent].multi || threads[parent].shape.in_cycle[node.index()];
    let mut changed = false;
    for g in entries {
        let gf = &program.funcs[g.index()];
        if !gf.is_defined {
            continue;
        }
        // Child entry: the parent's memory, and the argument in the first parameter.
        let mut child_state = D::top();
        for c in 0..facts.ncells {
            let v = watts_domains::Var(c);
            child_state.set(v, state.interval(v));
        }
        if let Some(p) = gf.params.first() {
            let var = watts_domains::Var(facts.ncells + p.0);
            match gf.vars[p.index()].ty {
                Ty::Int(bits) => child_state.set(
                    var,
                    watts_domains::machine::clamp(arg_value, watts_domains::IntTy::new(bits)),
                ),
                _ => child_state.forget(var),
            }
        }
        let origin = Origin::Created { parent, node, inst };
        // A thread that (transitively) creates its own kind from the same site is one
        // multi-instance thread, so that thread creation chains stay finite.
        let existing = threads
            .iter()
            .position(|t| t.origin == origin && t.entry == g)
            .or_else(|| same_site_ancestor(threads, parent, g, func, block, inst));
        match existing {
            Some(k) => {
                let t = &mut threads[k];
                let mut joined = t.entry_state.clone();
                if joined.join_with(&child_state) {
                    if rounds > JOIN_ROUNDS {
                        t.entry_state.widen_with(&joined);
                    } else {
                        t.entry_state = joined;
                    }
                    changed = true;
                }
                let recreated = !matches!(&t.origin, Origin::Created { parent: p, node: n, inst: i } if *p == parent && *n == node && *i == inst);
                if (many || recreated) && !t.multi {
                    t.multi = true;
                    changed = true;
                }
            }
            None => {
                let count = threads.iter().filter(|t| t.entry == g).count();
                let name = if count == 0 {
                    gf.name.clone()
                } else {
                    format!("{}#{}", gf.name, count + 1)
                };
                threads.push(new_thread(
                    facts,
                    name,
                    origin,
                    g,
                    many,
                    child_state,
                    budget,
                ));
                changed = true;
            }
        }
    }
    changed
}

/// An ancestor of `parent` (or `parent` itself) that runs `g` and was created by the same
/// source-level `pthread_create` instruction.
fn same_site_ancestor<D>(
    threads: &[Thread<D>],
    parent: usize,
    g: FuncId,
    func: FuncId,
    block: crate::ir::BlockId,
    inst: u32,
) -> Option<usize> {
    let mut cur = Some(parent);
    while let Some(k) = cur {
        let t = &threads[k];
        if t.entry == g {
            if let Origin::Created {
                parent: p,
                node,
                inst: i,
            } = &t.origin
            {
                let pn = &threads[*p].cfg.nodes[node.index()];
                let pf = threads[*p].cfg.contexts[pn.ctx.0 as usize].func;
                if pf == func && pn.block == block && *i == inst {
                    return Some(k);
                }
            }
        }
        cur = match &t.origin {
            Origin::Created { parent: p, .. } => Some(*p),
            _ => None,
        };
    }
    None
}

/// `assert()` is reached when one of its guard blocks is (in any context of its function).
pub(crate) fn mark_guards<D: NumDomain>(
    facts: &Facts<'_>,
    cfg: &ThreadCfg,
    states: &[D],
    tid: usize,
    asserts: &mut [AssertObs],
) {
    for (id, info) in facts.program.asserts.iter().enumerate() {
        if info.guard_blocks.is_empty() {
            continue;
        }
        for (ci, ctx) in cfg.contexts.iter().enumerate() {
            if ctx.func != info.func {
                continue;
            }
            let reached = info.guard_blocks.iter().any(|b| {
                // The check is the block's terminator: the node that ends the block must be
                // reached, and its instructions must not all stop (an inlined call may not
                // return).
                let n = cfg.block_end_node(CtxId(ci as u32), *b);
                states.get(n.index()).is_some_and(|s| !s.is_bottom())
            });
            if reached {
                asserts[id].reached_in.insert(tid);
            }
        }
    }
}

/// The state of memory when `main` starts: globals hold their initializers, everything else
/// (uninitialized locals, external globals) any value.
pub fn initial_state<D: NumDomain>(facts: &Facts<'_>) -> D {
    let program = facts.program;
    let cells = &facts.memory.cells;
    let mut s = D::top();
    for g in &program.globals {
        let obj = &program.objects[g.obj.index()];
        let Some(init) = &g.init else { continue };
        let Some(layout) = obj.layout.as_ref() else {
            continue;
        };
        let mut vals: BTreeMap<CellId, (Interval, u64)> = BTreeMap::new();
        let mut spoiled: BTreeSet<CellId> = BTreeSet::new();
        for ic in init {
            let v = match ic.value {
                InitValue::Int(x) => Interval::constant(x),
                _ => Interval::top(),
            };
            match cells.lookup(Some(layout), g.obj, ic.offset, ic.size) {
                Some(Lookup::Exact(c)) => {
                    let e = vals.entry(c).or_insert((Interval::bottom(), 0));
                    e.0.join_with(&v);
                    e.1 += 1;
                }
                Some(Lookup::Overlap(cs)) => spoiled.extend(cs),
                None => {}
            }
        }
        let _ = normalize;
        for c in cells.of(g.obj) {
            let info = cells.info(c);
            let v = if spoiled.contains(&c) || info.kind != crate::ir::ScalarKind::Int {
                Interval::top()
            } else {
                match vals.get(&c) {
                    // Every instance of the cell has an initializer.
                    Some((v, n)) if *n >= info.instances => *v,
                    // Soundness: uncovered bytes of a defined global are zero.
                    Some((v, _)) => v.join(&Interval::constant(0)),
                    None => Interval::constant(0),
                }
            };
            s.set(watts_domains::Var(c.0), v);
        }
    }
    let _ = ObjectKind::Heap;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use watts_domains::IntervalEnv;

    /// One store that writes 2 into one cell and any value into another keeps the two apart,
    /// and its widened values stay within the thread's values of the cell (mode order:
    /// tests/corpus/16-edges/mo-01 and mo-03).
    #[test]
    fn store_events_keep_values_per_cell_within_the_thread_stores() {
        let k = (NodeId(3), 1);
        let (c0, c1) = (CellId(0), CellId(1));
        let event = |cells: &[(CellId, Interval)]| {
            let mut ev = StoreEv::default();
            for (c, v) in cells {
                ev.add(*c, *v);
            }
            BTreeMap::from([(k, ev)])
        };
        let bound = [Interval::new(0, 5), Interval::top()];
        let mut acc = BTreeMap::new();
        let changed = accumulate_events(
            &mut acc,
            event(&[(c0, Interval::constant(2)), (c1, Interval::top())]),
            false,
            &bound,
        );
        assert_eq!(changed, vec![0, 1]);
        assert_eq!(acc[&k].value_into(&[c0]), Interval::constant(2));
        assert_eq!(acc[&k].value_into(&[c1]), Interval::top());
        // Widening sends the upper bound to infinity; the thread's values of c0 bring it back.
        let changed =
            accumulate_events(&mut acc, event(&[(c0, Interval::new(0, 3))]), true, &bound);
        assert_eq!(changed, vec![0]);
        assert_eq!(acc[&k].value_into(&[c0]), Interval::new(0, 5));
        // Nothing new: nothing changes.
        let changed =
            accumulate_events(&mut acc, event(&[(c0, Interval::new(1, 5))]), true, &bound);
        assert!(changed.is_empty());
    }

    /// `main` stores and creates a reader, whose loads have `main`'s stores as candidates.
    const SRC: &str = r#"
        #include <assert.h>
        #include <pthread.h>
        int ready, x;
        static void *reader(void *a) { (void)a;
            int r = ready;
            if (r) { int v = x; assert(v == 1); }
            return 0; }
        int main(void) {
            pthread_t t;
            x = 1; ready = 1;
            pthread_create(&t, 0, reader, 0);
            pthread_join(t, 0);
            return 0; }
    "#;

    /// Compiles `SRC` and runs the fixpoint in the constraints mode on it.
    fn with_fixpoint<R>(run: impl FnOnce(&Facts<'_>, Fixpoint<IntervalEnv>) -> R) -> R {
        let how = Composition {
            flow_sensitive: true,
            constraints: true,
            max_combinations: 1000,
            protection: false,
            optimized: false,
            jobs: 1,
        };
        crate::analysis::testing::with_fixpoint(SRC, how, |_, facts, fix| run(facts, fix))
    }

    #[test]
    fn only_plans_with_candidate_stores_read_the_oracle() {
        with_fixpoint(|_, fix| {
            let by_name = |n: &str| (fix.threads.iter()).find(|t| t.name == n).expect(n);
            // `main` loads no cell another thread stores: its plan never needs the oracle.
            assert!(!by_name("main").reads_oracle);
            // The reader's loads may read `main`'s stores: its plan asked the oracle.
            assert!(by_name("reader").reads_oracle);
            assert!(fix.combos.queries > 0);
        });
    }

    #[test]
    fn new_oracle_facts_wake_exactly_the_threads_that_read_the_oracle() {
        with_fixpoint(|_, mut fix| {
            let protection = Protection::default();
            let cells = vec![0u64; fix.threads[0].stores.len()];
            let t = fix
                .threads
                .iter_mut()
                .find(|t| t.name == "reader")
                .expect("reader");
            t.quiet_since = Some(5);
            t.entry_epoch = 0;
            let epochs = |oracle| Epochs {
                structure: 5,
                oracle,
                cells: &cells,
            };
            t.reads_oracle = true;
            assert!(is_quiet(t, epochs(5), &protection));
            // Soundness: the shortcut must not fire for a plan that read the oracle.
            assert!(!is_quiet(t, epochs(6), &protection));
            t.reads_oracle = false;
            assert!(is_quiet(t, epochs(6), &protection));
            // Other structural changes still wake it.
            let moved = Epochs {
                structure: 6,
                ..epochs(0)
            };
            assert!(!is_quiet(t, moved, &protection));
        });
    }
}
