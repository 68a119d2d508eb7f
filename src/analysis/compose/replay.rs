//! One analysis of a thread under one combination (or under joined interference): solve its
//! states, then replay them to record what it does: its stores, the threads it creates, the
//! assertions it reaches and may fail, the library functions it calls.
//!
//! `solve_and_replay` is one analysis under one combination; what it records goes to `Sink`,
//! `Observer` and `AssertObs`, and `mark_guards` marks the guard branches of assertions.

use super::results::{AssertObs, CellBits, LoadReads, StoreEv};
use crate::analysis::engine::{self, Choices, Recorder, Relations, ThreadView, Transfer};
use crate::analysis::sync::protection::Protection;
use crate::analysis::Flow;
use crate::facts::Facts;
use crate::ir::{AssertId, FuncId, Operand};
use crate::memory::CellId;
use crate::threads::{CtxId, NodeId, Thread, ThreadCfg};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, Lattice, NumDomain, Truth};

pub(crate) use crate::limits::WIDE_STORE;

/// What the replays of one thread in one round observed.
pub(crate) struct Sink<D> {
    pub(crate) stores: Vec<Interval>,
    pub(crate) published: Vec<Interval>,
    /// Per lock, the relations among its cells published (see `Transfer::inst`).
    pub(crate) published_rel: BTreeMap<u32, D>,
    pub(crate) events: BTreeMap<(NodeId, u32), StoreEv>,
    /// The cells of stores wider than `WIDE_STORE` (not in `events`), and those stores.
    pub(crate) wide: CellBits,
    wide_at: rustc_hash::FxHashSet<(NodeId, u32)>,
    /// Whether `at` is in `wide_at`.
    at_wide: bool,
    pub(crate) creates: Vec<(NodeId, u32, D)>,
    pub(crate) at: (NodeId, u32),
    /// Whether store events are kept: only the flow-sensitive modes read them (a store through
    /// an unknown pointer writes thousands of cells, so keeping them costs).
    pub(crate) record_events: bool,
    /// Per integer load `(node, instruction)` replayed, what it read (`Recorder::load`), joined;
    /// `None` unless kept for `watts invariants` (`Composition::keep_states`).
    pub(crate) reads: Option<LoadReads>,
}

impl<D: NumDomain> Sink<D> {
    /// An empty sink; `keep_reads`: whether it records what each load reads (`reads`).
    pub(crate) fn new(ncells: usize, keep_reads: bool) -> Self {
        Sink {
            stores: vec![Interval::bottom(); ncells],
            published: vec![Interval::bottom(); ncells],
            published_rel: BTreeMap::new(),
            events: BTreeMap::new(),
            wide: CellBits::default(),
            wide_at: Default::default(),
            at_wide: false,
            creates: Vec::new(),
            at: (NodeId(0), 0),
            record_events: true,
            reads: keep_reads.then(LoadReads::default),
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
        for (m, r) in other.published_rel {
            join_relation(&mut self.published_rel, m, r);
        }
        if let (Some(mine), Some(theirs)) = (&mut self.reads, other.reads) {
            for (at, v) in theirs {
                mine.entry(at)
                    .or_insert_with(Interval::bottom)
                    .join_with(&v);
            }
        }
        self.wide.union_with(&other.wide);
        // A store wide in one replay is wide in both (its cells are static); should one
        // replay have kept it, its cells go to `wide` all the same.
        for k in &other.wide_at {
            if let Some(ev) = self.events.remove(k) {
                self.wide.extend(ev.cells.into_keys());
            }
        }
        self.wide_at.extend(other.wide_at);
        for (k, ev) in other.events {
            if self.wide_at.contains(&k) {
                self.wide.extend(ev.cells.into_keys());
                continue;
            }
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
    pub(crate) flows: &'a [Flow],
    pub(crate) asserts: &'a mut Vec<AssertObs>,
    pub(crate) unknown_calls: &'a mut BTreeSet<FuncId>,
}

impl<D: NumDomain> Recorder<D> for Observer<'_, '_, D> {
    fn at(&mut self, node: NodeId, inst: u32) {
        self.sink.at = (node, inst);
        // Looked up once per instruction, not once per cell it stores.
        self.sink.at_wide = self.sink.wide_at.contains(&self.sink.at);
    }

    fn store(&mut self, c: CellId, value: Interval) {
        self.sink.stores[c.index()].join_with(&value);
        if !self.sink.record_events {
            return;
        }
        let sink = &mut *self.sink;
        if sink.at_wide {
            sink.wide.insert(c);
            return;
        }
        let ev = sink.events.entry(sink.at).or_default();
        ev.add(c, value);
        // Soundness: the store's values are in `stores`; a load that may read one of its
        // cells is left out of the combinations (`combinations::candidates_for` says so) and
        // reads the joined interference, which holds them.
        if ev.cells.len() > WIDE_STORE {
            let ev = sink.events.remove(&sink.at).unwrap_or_default();
            sink.wide.extend(ev.cells.into_keys());
            sink.wide_at.insert(sink.at);
            sink.at_wide = true;
        }
    }

    fn records_loads(&self) -> bool {
        self.sink.reads.is_some()
    }

    fn load(&mut self, value: Interval) {
        if let Some(reads) = &mut self.sink.reads {
            (reads.entry(self.sink.at).or_insert_with(Interval::bottom)).join_with(&value);
        }
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
            for c in &info.cond_vars {
                let iv = state.interval(self.transfer.ssa_var(ctx, c.var));
                obs.values
                    .entry(c.name.clone())
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

    fn publish_relation(&mut self, lock: u32, state: D) {
        join_relation(&mut self.sink.published_rel, lock, state);
    }
}

/// `rel[lock] := rel[lock] ⊔ state`.
pub(crate) fn join_relation<D: NumDomain>(rel: &mut BTreeMap<u32, D>, lock: u32, state: D) {
    match rel.get_mut(&lock) {
        Some(r) => {
            r.join_with(&state);
        }
        None => {
            rel.insert(lock, state);
        }
    }
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

/// What every combination of a thread reads besides its own choices.
pub(crate) struct Inputs<'a, D> {
    /// The thread, its index and its entry state.
    pub thread: &'a Thread,
    pub tid: usize,
    pub entry_state: &'a D,
    /// Per cell, what other threads store (or published, for protected cells).
    pub interference: &'a [Interval],
    /// The lock-protected cells, if any.
    pub protection: Option<&'a Protection>,
    /// Per lock, the relations among its cells that the threads published (relational
    /// domains, with protection).
    pub relations: Option<&'a Relations<D>>,
    /// Register computations in no slice (`pdg::Clusters::irrelevant`).
    pub skip: Option<&'a BTreeSet<(NodeId, u32)>>,
    /// Whether the replays record what each load reads (`Sink::reads`).
    pub keep_reads: bool,
}

impl<D> Clone for Inputs<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D> Copy for Inputs<'_, D> {}

/// Where a replay records what it observes: a running result, or a fresh one.
pub(crate) struct Records<'a, D> {
    pub sink: &'a mut Sink<D>,
    pub observed: &'a mut Vec<AssertObs>,
    pub called: &'a mut BTreeSet<FuncId>,
}

/// Analyses thread `tid` under one combination (`None`: every load reads its own view joined
/// with the interference) and replays its states into `records`; returns the states.
pub(crate) fn solve_and_replay<D: NumDomain>(
    facts: &Facts<'_>,
    inputs: Inputs<'_, D>,
    choices: Option<&Choices>,
    flows: &[Flow],
    records: Records<'_, D>,
) -> Vec<D> {
    let t = inputs.thread;
    let tid = inputs.tid;
    let view = ThreadView {
        cfg: &t.cfg,
        interference: inputs.interference,
        choices,
        protection: inputs.protection.map(|p| (p, inputs.tid)),
        skip: inputs.skip,
    };
    let transfer = Transfer {
        facts,
        view: &view,
        relations: inputs
            .relations
            .map(|r| r as &(dyn std::any::Any + Send + Sync)),
    };
    let states = engine::solve(&transfer, &t.shape, inputs.entry_state.clone());
    let mut obs = Observer {
        facts,
        transfer: &transfer,
        tid,
        sink: records.sink,
        flows,
        asserts: records.observed,
        unknown_calls: records.called,
    };
    engine::replay(&transfer, &states, &mut obs);
    states
}
