//! One thread's analysis in one round, one implementation per mode of how its loads read the
//! stores of other threads:
//!
//! - [`Joined`]: every load reads its own view joined with every store of the others (FSE'16,
//!   Alg. 2): the flow-insensitive mode, and functions analysed on their own in every mode;
//! - [`Combinations`]: one analysis per combination of store-to-load flows (Alg. 3), pruned by
//!   the Datalog oracle in the constraints mode (Alg. 4);
//! - [`Families`]: one family of combinations per cluster of dependent loads, analysed in
//!   parallel and combined by meet (Sec. 6): the optimized mode.
//!
//! Invariant: each implementation's states, stores and observations over-approximate every
//! execution of the thread under the round's interference (the argument is in `combinations`
//! and `families`).
//!
//! The mode is `Composition::mode` (a `config::Mode`): `Joined` for flow-insensitive,
//! `Combinations` for flow-sensitive and (with the oracle) constraints, `Families` for optimized.

use super::combinations::{self, Plan, SourceCache};
use super::composition::Composition;
use super::families;
use super::replay::{mark_guards, solve_and_replay, Inputs, Records, Sink};
use super::results::{AssertObs, ComboStats, Threads};
use crate::analysis::engine::Choices;
use crate::analysis::engine::Relations;
use crate::analysis::sync::feasibility::LazyOracle;
use crate::analysis::sync::protection::Protection;
use crate::config::Mode;
use crate::facts::Facts;
use crate::ir::FuncId;
use crate::pdg::Clusters;
use std::collections::BTreeSet;
use std::time::Instant;
use watts_domains::{Interval, NumDomain};

/// What thread `i` is analysed under in one round.
pub(super) struct Context<'a, 'f, D> {
    pub facts: &'a Facts<'f>,
    pub threads: Threads<'a, D>,
    pub i: usize,
    /// Per cell, what the other threads store (or published, for protected cells).
    pub interference: &'a [Interval],
    pub protection: &'a Protection,
    /// Per lock, the relations among its cells the threads published (relational domains).
    pub relations: &'a Relations<D>,
    /// Whether the replays record what each load reads (`Composition::keep_states`).
    pub keep_reads: bool,
}

impl<D: NumDomain> Context<'_, '_, D> {
    fn inputs(&self) -> Inputs<'_, D> {
        Inputs {
            thread: &self.threads.info[self.i],
            tid: self.i,
            entry_state: &self.threads.results[self.i].entry_state,
            interference: self.interference,
            protection: self.protection.any().then_some(self.protection),
            relations: (D::RELATIONAL && self.protection.any()).then_some(self.relations),
            skip: None,
            keep_reads: self.keep_reads,
        }
    }
}

/// What one analysis of a thread found.
pub(super) struct Round<D> {
    /// The state at every node entry.
    pub states: Vec<D>,
    /// Its stores, publications and creations.
    pub sink: Sink<D>,
    pub observed: Vec<AssertObs>,
    pub called: BTreeSet<FuncId>,
    /// Combinations the oracle refuted.
    pub pruned: usize,
    /// Whether the combination budget ran out and loads were joined instead.
    pub fell_back: bool,
    /// Whether the memory budget ran out during the analysis: the round is incomplete, and the
    /// fixpoint must give up.
    pub over_memory: bool,
}

/// One mode's analysis of one thread in one round.
pub(super) trait Step<D: NumDomain> {
    /// Analyses thread `cx.i`; adds the work done to `stats`.
    fn analyse(&mut self, cx: &Context<'_, '_, D>, stats: &mut ComboStats) -> Round<D>;

    /// The oracle, in the modes that consult one.
    fn oracle(&mut self) -> Option<&mut LazyOracle> {
        None
    }
}

/// The step of `how.mode` for threads created by `pthread_create` (and `main`).
pub(super) fn for_mode<D: NumDomain>(how: Composition) -> Box<dyn Step<D>> {
    let max = how.max_combinations;
    match how.mode {
        Mode::FlowInsensitive => Box::new(Joined {
            record_events: false,
        }),
        Mode::FlowSensitive => Box::new(Combinations::new(max, None)),
        Mode::Constraints => Box::new(Combinations::new(
            max,
            Some(LazyOracle::default().tracing(how.trace)),
        )),
        Mode::Optimized => Box::new(Families {
            oracle: LazyOracle::default().tracing(how.trace),
            sources: SourceCache::default(),
            max,
            clusters: Vec::new(),
            pool: families::pool(how.jobs),
        }),
    }
}

/// Every load reads its own view joined with the interference (FSE'16, Alg. 2).
pub(super) struct Joined {
    /// Whether store events are kept: the flow-sensitive modes read them from every thread,
    /// including the functions analysed on their own, which take this step.
    pub record_events: bool,
}

impl<D: NumDomain> Step<D> for Joined {
    fn analyse(&mut self, cx: &Context<'_, '_, D>, stats: &mut ComboStats) -> Round<D> {
        analyse_plan(cx, None, self.record_events, stats)
    }
}

/// One analysis per combination of store-to-load flows (Alg. 3), with the oracle's pruning
/// when there is one (Alg. 4).
pub(super) struct Combinations {
    oracle: Option<LazyOracle>,
    sources: SourceCache,
    max: usize,
}

impl Combinations {
    fn new(max: usize, oracle: Option<LazyOracle>) -> Combinations {
        Combinations {
            oracle,
            sources: SourceCache::default(),
            max,
        }
    }
}

impl<D: NumDomain> Step<D> for Combinations {
    fn analyse(&mut self, cx: &Context<'_, '_, D>, stats: &mut ComboStats) -> Round<D> {
        let t0 = Instant::now();
        let plan = combinations::plan(
            cx.facts,
            cx.threads,
            cx.i,
            self.oracle.as_mut(),
            self.max,
            &mut self.sources,
            cx.protection,
        );
        if self.oracle.is_some() {
            stats.datalog_ms += t0.elapsed().as_millis() as u64;
        }
        stats.enumerated += plan.enumerated;
        stats.queries += plan.queries;
        stats.pruned += plan.pruned;
        analyse_plan(cx, Some(&plan), true, stats)
    }

    fn oracle(&mut self) -> Option<&mut LazyOracle> {
        self.oracle.as_mut()
    }
}

/// Analyses thread `cx.i` under every combination of `plan` (`None`: one analysis with
/// joined interference) and joins the results.
fn analyse_plan<D: NumDomain>(
    cx: &Context<'_, '_, D>,
    plan: Option<&Plan>,
    record_events: bool,
    stats: &mut ComboStats,
) -> Round<D> {
    let t = &cx.threads.info[cx.i];
    let mut observed = vec![AssertObs::default(); cx.facts.program.asserts.len()];
    let mut called = BTreeSet::new();
    let mut sink = Sink::new(cx.facts.ncells as usize, cx.keep_reads);
    sink.record_events = record_events;
    let single = [Choices::default()];
    let no_flows = [Vec::new()];
    let (choice_sets, flow_sets): (&[_], &[_]) = match plan {
        Some(p) => (&p.combos, &p.flows),
        None => (&single, &no_flows),
    };
    let mut states: Vec<D> = vec![D::bottom(); t.cfg.nodes.len()];
    let mut over_memory = plan.is_some_and(|p| p.over_memory);
    for (choices, flows) in choice_sets.iter().zip(flow_sets) {
        // Soundness: the states stay partial; `over_memory` makes the fixpoint give up.
        if crate::error::over_memory_budget() {
            over_memory = true;
            break;
        }
        let records = Records {
            sink: &mut sink,
            observed: &mut observed,
            called: &mut called,
        };
        let choices = plan.map(|_| choices);
        let one = solve_and_replay(cx.facts, cx.inputs(), choices, flows, records);
        for (j, s) in states.iter_mut().zip(&one) {
            j.join_with(s);
        }
        stats.analysed += 1;
    }
    mark_guards(cx.facts, &t.cfg, &states, cx.i, &mut observed);
    Round {
        states,
        sink,
        observed,
        called,
        pruned: plan.map_or(0, |p| p.pruned),
        fell_back: plan.is_some_and(|p| p.fallback),
        over_memory,
    }
}

/// One family of combinations per cluster of dependent loads, combined by meet (Sec. 6).
pub(super) struct Families {
    oracle: LazyOracle,
    sources: SourceCache,
    max: usize,
    /// Per thread, its clusters, built when its loads are first clustered (they depend on the
    /// thread's CFG only, and thread indices are stable).
    clusters: Vec<Option<Clusters>>,
    pool: std::sync::Arc<rayon::ThreadPool>,
}

impl<D: NumDomain> Step<D> for Families {
    fn analyse(&mut self, cx: &Context<'_, '_, D>, stats: &mut ComboStats) -> Round<D> {
        self.clusters
            .resize(cx.threads.len().max(self.clusters.len()), None);
        let t0 = Instant::now();
        let families = combinations::plan_families(
            cx.facts,
            cx.threads,
            cx.i,
            Some(&mut self.oracle),
            self.max,
            &mut self.sources,
            &mut self.clusters[cx.i],
            cx.protection,
        );
        stats.datalog_ms += t0.elapsed().as_millis() as u64;
        let pruned: usize = families.iter().map(|p| p.pruned).sum();
        stats.enumerated += families.iter().map(|p| p.enumerated).sum::<usize>();
        stats.queries += families.iter().map(|p| p.queries).sum::<usize>();
        stats.pruned += pruned;
        let inputs = Inputs {
            skip: self.clusters[cx.i].as_ref().map(|c| &c.irrelevant),
            ..cx.inputs()
        };
        let out = families::analyse(cx.facts, inputs, &families, &self.pool);
        stats.analysed += out.analysed;
        Round {
            states: out.states,
            sink: out.sink,
            observed: out.observed,
            called: out.called,
            pruned,
            fell_back: families.iter().any(|p| p.fallback),
            over_memory: out.over_memory || families.iter().any(|p| p.over_memory),
        }
    }

    fn oracle(&mut self) -> Option<&mut LazyOracle> {
        Some(&mut self.oracle)
    }
}
