//! The optimized mode's analysis of one thread: one family of combinations per cluster of
//! loads (see `combinations::plan_families`), combinations analysed in parallel, families
//! combined by meet.
//!
//! Soundness of the meet: every family alone over-approximates every execution of the thread
//! (its combinations cover all of them), so the concrete states, stores, creations and failing
//! assertions lie in the intersection of the families' results, which the meet
//! over-approximates. Bottom in one family means "no execution" and wins. In particular an
//! assertion may fail only if it may fail in every family, and is reached only if it is reached
//! in every family.
//!
//! Determinism: combinations are analysed in parallel in chunks and folded in their order, so
//! the result (and the first explanation) does not depend on the number of jobs.
//!
//! Parallelism: rayon, `--jobs` (on the calling thread with `--jobs 1`). `constraints` runs the
//! code path it always ran: it is the reference the corpus compares `optimized` with (same proved
//! set per site).

use super::combinations::Plan;
use super::replay::{mark_guards, solve_and_replay, Inputs, Records, Sink};
use super::results::{AssertObs, StoreEv};
use crate::analysis::engine::Choices;
use crate::analysis::Flow;
use crate::facts::Facts;
use crate::ir::FuncId;
use crate::threads::NodeId;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Lattice, NumDomain};

use crate::limits::COMBINATION_CHUNK as CHUNK;
/// Fewest combinations in a chunk worth analysing in parallel.
const PARALLEL_FROM: usize = 4;

/// What the analysis of a thread under one family yields (its combinations joined), or under
/// several (the families met): states, records and observations, as `step::Round` takes them.
pub(crate) struct FamilyResults<D> {
    pub states: Vec<D>,
    pub sink: Sink<D>,
    pub observed: Vec<AssertObs>,
    pub called: BTreeSet<FuncId>,
    pub analysed: usize,
    /// Whether the memory budget ran out before every combination was analysed (the result
    /// is then partial, and the fixpoint gives up).
    pub over_memory: bool,
}

struct One<D> {
    states: Vec<D>,
    sink: Sink<D>,
    observed: Vec<AssertObs>,
    called: BTreeSet<FuncId>,
}

/// The worker pool for `jobs` threads (0: one per core), built once per process: spawning
/// threads for every analysis would cost more than small programs take.
pub(crate) fn pool(jobs: usize) -> std::sync::Arc<rayon::ThreadPool> {
    use std::sync::{Arc, Mutex, OnceLock};
    static POOLS: OnceLock<Mutex<BTreeMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = (POOLS.get_or_init(Default::default).lock()).unwrap_or_else(|e| e.into_inner());
    pools
        .entry(jobs)
        .or_insert_with(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(jobs)
                    .build()
                    .expect("a thread pool"),
            )
        })
        .clone()
}

/// Analyses every combination of every family of thread `tid` and combines the results.
pub(crate) fn analyse<D: NumDomain>(
    facts: &Facts<'_>,
    inputs: Inputs<'_, D>,
    families: &[Plan],
    pool: &rayon::ThreadPool,
) -> FamilyResults<D> {
    let (t, tid) = (inputs.thread, inputs.tid);
    let mut outs: Vec<FamilyResults<D>> = Vec::with_capacity(families.len());
    let mut analysed = 0;
    // With one worker (`--jobs 1`) the pool would run the combinations one after another
    // anyway, on another thread: they run here, as a small chunk does.
    let parallel_from = if pool.current_num_threads() > 1 {
        PARALLEL_FROM
    } else {
        usize::MAX
    };
    for plan in families {
        let mut acc = FamilyResults {
            states: vec![D::bottom(); t.cfg.nodes.len()],
            sink: Sink::new(facts.ncells as usize, inputs.keep_reads),
            observed: vec![AssertObs::default(); facts.program.asserts.len()],
            called: BTreeSet::new(),
            analysed: 0,
            over_memory: false,
        };
        let work: Vec<_> = plan.combos.iter().zip(&plan.flows).collect();
        for chunk in work.chunks(CHUNK) {
            // Soundness: a partial result, which `over_memory` makes the fixpoint discard.
            if crate::error::over_memory_budget() {
                acc.over_memory = true;
                break;
            }
            type Work<'w> = (&'w Choices, &'w Vec<Flow>);
            let run = |w: &Work<'_>| one(facts, inputs, w.0, w.1);
            // Handing a few small analyses to the pool costs more than it saves: they replay
            // straight into the family's result, as the constraints mode does (the same fold,
            // without a sink and observation vector per combination; the result is the same as
            // the pool's, which folds in the same order).
            if chunk.len() < parallel_from {
                for (choices, flows) in chunk {
                    let records = Records {
                        sink: &mut acc.sink,
                        observed: &mut acc.observed,
                        called: &mut acc.called,
                    };
                    let states = solve_and_replay(facts, inputs, Some(choices), flows, records);
                    if acc.analysed == 0 {
                        acc.states = states;
                    } else {
                        for (j, s) in acc.states.iter_mut().zip(&states) {
                            j.join_with(s);
                        }
                    }
                    acc.analysed += 1;
                }
                continue;
            }
            let ones: Vec<One<D>> = pool.install(|| chunk.par_iter().map(run).collect());
            for o in ones {
                if acc.analysed == 0 {
                    // Joining into bottom is a copy: take the first result as it is.
                    acc.states = o.states;
                    acc.sink = o.sink;
                    acc.observed = o.observed;
                    acc.called = o.called;
                    acc.analysed = 1;
                    continue;
                }
                for (j, s) in acc.states.iter_mut().zip(&o.states) {
                    j.join_with(s);
                }
                acc.sink.absorb(o.sink);
                // Most assertions are not in this thread: merging nothing is skipped.
                for (a, b) in acc.observed.iter_mut().zip(&o.observed) {
                    if !b.reached_in.is_empty() {
                        a.merge(b);
                    }
                }
                acc.called.extend(o.called);
                acc.analysed += 1;
            }
        }
        mark_guards(facts, &t.cfg, &acc.states, tid, &mut acc.observed);
        analysed += acc.analysed;
        outs.push(acc);
    }
    let over_memory = outs.iter().any(|o| o.over_memory);
    let mut it = outs.into_iter();
    let mut out = it.next().expect("at least one family");
    for o in it {
        meet_into(&mut out, o);
    }
    out.over_memory = over_memory;
    out.analysed = analysed;
    out
}

/// Analyses one combination and replays it into a fresh sink.
fn one<D: NumDomain>(
    facts: &Facts<'_>,
    inputs: Inputs<'_, D>,
    choices: &Choices,
    flows: &[Flow],
) -> One<D> {
    let mut sink = Sink::new(facts.ncells as usize, inputs.keep_reads);
    let mut observed = vec![AssertObs::default(); facts.program.asserts.len()];
    let mut called = BTreeSet::new();
    let records = Records {
        sink: &mut sink,
        observed: &mut observed,
        called: &mut called,
    };
    let states = solve_and_replay(facts, inputs, Some(choices), flows, records);
    One {
        states,
        sink,
        observed,
        called,
    }
}

/// `acc := acc ⊓ o` (see the module comment for why the meet is sound).
fn meet_into<D: NumDomain>(acc: &mut FamilyResults<D>, o: FamilyResults<D>) {
    for (a, b) in acc.states.iter_mut().zip(&o.states) {
        a.meet_with(b);
        if a.is_bottom() {
            *a = D::bottom();
        }
    }
    for (a, b) in acc.sink.stores.iter_mut().zip(&o.sink.stores) {
        a.meet_with(b);
    }
    for (a, b) in acc.sink.published.iter_mut().zip(&o.sink.published) {
        a.meet_with(b);
    }
    // A load one family never reached (no entry) is reached in no execution.
    if let Some(reads) = &mut acc.sink.reads {
        let theirs = o.sink.reads.as_ref();
        reads.retain(|at, v| {
            theirs.and_then(|t| t.get(at)).is_some_and(|w| {
                v.meet_with(w);
                true
            })
        });
    }
    // A lock one family never saw published (bottom) stays unpublished.
    acc.sink.published_rel.retain(|m, r| {
        o.sink.published_rel.get(m).is_some_and(|other| {
            r.meet_with(other);
            !r.is_bottom()
        })
    });
    let mut events: BTreeMap<(NodeId, u32), StoreEv> = BTreeMap::new();
    for (k, mut ev) in std::mem::take(&mut acc.sink.events) {
        let Some(other) = o.sink.events.get(&k) else {
            continue;
        };
        ev.cells.retain(|c, v| {
            other.cells.get(c).is_some_and(|w| {
                v.meet_with(w);
                !v.is_bottom()
            })
        });
        if !ev.cells.is_empty() {
            events.insert(k, ev);
        }
    }
    acc.sink.events = events;
    // Soundness: a cell marked wide only makes its loads read the joined interference.
    acc.sink.wide.union_with(&o.sink.wide);
    let mine = by_site(std::mem::take(&mut acc.sink.creates));
    let theirs = by_site(o.sink.creates);
    for (k, mut s) in mine {
        if let Some(other) = theirs.get(&k) {
            s.meet_with(other);
            if !s.is_bottom() {
                acc.sink.creates.push((k.0, k.1, s));
            }
        }
    }
    for (a, b) in acc.observed.iter_mut().zip(&o.observed) {
        a.reached_in.retain(|t| b.reached_in.contains(t));
        a.fails_in.retain(|t| b.fails_in.contains(t));
        if a.fails_in.is_empty() {
            a.values.clear();
            a.explanation = None;
        }
    }
    // Unknown calls only feed notes: keep every one some family reached.
    acc.called.extend(o.called);
}

/// Creation states joined per create site.
fn by_site<D: NumDomain>(creates: Vec<(NodeId, u32, D)>) -> BTreeMap<(NodeId, u32), D> {
    let mut out: BTreeMap<(NodeId, u32), D> = BTreeMap::new();
    for (n, i, s) in creates {
        match out.get_mut(&(n, i)) {
            Some(x) => {
                x.join_with(&s);
            }
            None => {
                out.insert((n, i), s);
            }
        }
    }
    out
}
