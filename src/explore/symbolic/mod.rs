//! Symbolic inputs for `watts confirm`: maximal path causality (MPC, Yi & Huang, FSE'18;
//! `papers/notes/mpc.md`). Finds failing executions whose bug needs specific input values
//! together with a specific interleaving.
//!
//! - `expr`: symbolic bit-vector expressions (inputs, values of shared reads).
//! - `trace`: what the concolic shadow of the interpreter records of one execution.
//! - `smt`: SMT-LIB text of expressions.
//! - `encode`: the formula Φ_sync ∧ Φ_dc ∧ Φ_pc of a path prefix over a trace.
//! - `solver`: the `z3` binary as a process (hard timeout, parallel queries).
//! - `paths`: path keys (each path class solved once) and the worklist.
//!
//! Debugging: with `SymbolicConfig::debug` (`WATTS_SYM_DEBUG=DIR`, read by `cli`), every run and
//! query is printed to stderr and each query script is written to `DIR/q<n>.smt2`.
//!
//! # Contract of [`explore`]
//!
//! Input: an interpreter (its loop bound and step budget bound every run: give a large loop
//! bound, e.g. 1024, since the search is not exhaustive), a [`SymbolicConfig`] (deadline, most
//! runs, seed, workers), the target assertions (`None`: all). Output: a [`SearchResult`] whose
//! `violations` are recorded exactly as the other searches record them (a
//! [`super::search::Violation`] whose `choices` replay from the initial state, with the interpreter's
//! loop bound in `bound`; its input steps carry their values, which witness files record and
//! `watts replay` forces), and [`Stats`].
//!
//! Invariants:
//! - The solver only proposes (inputs, schedule prefix); every violation comes from a concrete
//!   run of the interpreter with forced inputs ([`Interp::with_inputs`]). Imprecision of the
//!   symbolic side (concretised values, left-out writes, approximate locks) costs runs, never
//!   soundness.
//! - The search is never complete: `SearchResult::complete` is false and nothing is ever proved
//!   from it.
//! - Without a solver (`z3` not on `PATH`, nor `WATTS_Z3`), it runs nothing and says why in
//!   `SearchResult::unsupported`.
//!
//! The search (`explore`): a first run newest-thread-first, then batches of queries solved in
//! parallel processes (`std::thread::scope`), each sat model run with its inputs forced and its
//! events in the model's order (a thread that cannot move is skipped: a deviation), then a
//! pluggable `Scheduler` (seeded random; a step that ends the process waits while another thread
//! can move). Every run's branches are flipped (children may flip any thread that was not flipped);
//! keys of executed prefixes and queued ones are never solved again; an unsat flip is retried with
//! the other threads relaxed to the parent prefix; an empty worklist restarts from a fresh random
//! run.
//!
//! Budgets: runs stop at the deadline, each query's `:timeout` is cut to the time left, and a trace
//! too large to solve over (`too_large`: over 64 threads, 20,000 events or 400,000 read-from terms,
//! `encode::dc_terms`, since Φ_dc is cubic per location) is run but not expanded, so programs with
//! thousands of threads cost the search its runs, never gigabytes. `random_search` is the
//! random-input baseline of the tests and `benches/symbolic.rs`.

pub mod encode;
pub mod expr;
pub mod paths;
pub mod smt;
pub mod solver;
pub mod trace;

#[cfg(test)]
mod tests;

use self::encode::{Cut, Index, Prefix, Query};
use self::paths::{Hashes, Key, Priority, Worklist};
use self::solver::{Answer, Val, Z3};
use self::trace::Trace;
use super::found::SearchResult;
use super::{ExecStatus, Interp, System, Tid};
use crate::ir::AssertId;
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Forced input values: (thread, n-th input of the thread) → value.
pub type Inputs = BTreeMap<(Tid, u32), i128>;

/// Budgets and knobs of the symbolic search.
#[derive(Clone, Debug)]
pub struct SymbolicConfig {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Most concrete runs.
    pub max_runs: u64,
    /// Seed of the schedules after each prefix (and of the first run's inputs when
    /// `random_first`).
    pub seed: u64,
    /// Solver processes at once.
    pub workers: usize,
    /// Budget of one solver query.
    pub solver_timeout: Duration,
    /// The first run takes uniformly random input values (else the first candidates).
    pub random_first: bool,
    /// The solver binary (`ConfirmOptions::z3`; `z3` on PATH by default).
    pub z3: std::path::PathBuf,
    /// Print every run and query on stderr and write each query script into this directory
    /// (`ConfirmOptions::symbolic_debug`).
    pub debug: Option<std::path::PathBuf>,
}

impl Default for SymbolicConfig {
    fn default() -> Self {
        SymbolicConfig {
            deadline: None,
            max_runs: crate::limits::SYMBOLIC_MAX_RUNS,
            seed: 1,
            workers: 2,
            solver_timeout: crate::limits::SOLVER_TIMEOUT,
            random_first: false,
            z3: std::path::PathBuf::from("z3"),
            debug: None,
        }
    }
}

/// What the search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Concrete runs.
    pub runs: u64,
    /// Distinct paths among them (path keys).
    pub paths: u64,
    /// Solver queries, and their answers.
    pub queries: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Time spent waiting for the solver (wall clock, parallel queries counted once).
    pub solver_time: Duration,
    /// Scheduled events whose thread could not move (the encoding was imprecise).
    pub deviations: u64,
    /// The run that found the first violation (1-based), and when.
    pub first_witness: Option<(u64, Duration)>,
    /// Runs whose traces were too large to solve over ([`too_large`]): they count as runs,
    /// no prefix of them is solved.
    pub too_large: u64,
}

pub use crate::limits::{SYMBOLIC_MAX_EVENTS as MAX_EVENTS, SYMBOLIC_MAX_THREADS as MAX_THREADS};

/// Why the search does not solve over `trace`: it is too large for a query to be answered
/// within a budget (more than [`MAX_THREADS`] threads, [`MAX_EVENTS`] events or
/// [`encode::MAX_DC_TERMS`] read-from terms). Such programs are left to the run's scheduler.
pub fn too_large(trace: &Trace) -> Option<String> {
    if trace.threads.len() > MAX_THREADS {
        return Some(format!("{} threads", trace.threads.len()));
    }
    if trace.events.len() > MAX_EVENTS {
        return Some(format!("{} events", trace.events.len()));
    }
    let terms = encode::dc_terms(trace);
    (terms > encode::MAX_DC_TERMS).then(|| format!("{terms} read-from terms"))
}

/// Picks the thread to move among the enabled ones, after a run's prefix.
pub trait Scheduler {
    /// One of `enabled` (never empty).
    fn pick(&mut self, enabled: &[Tid]) -> Tid;

    /// A new run starts (before its prefix).
    fn new_run(&mut self) {}

    /// A step ran (of the prefix or after it).
    fn stepped(&mut self, info: &crate::explore::StepInfo) {
        let _ = info;
    }
}

/// Uniformly random choices (xorshift, deterministic seed).
#[derive(Clone, Debug)]
pub struct RandomScheduler(pub u64);

impl RandomScheduler {
    /// The next pseudo-random number.
    pub fn next_u64(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }
}

impl Scheduler for RandomScheduler {
    fn pick(&mut self, enabled: &[Tid]) -> Tid {
        enabled[(self.next_u64() % enabled.len() as u64) as usize]
    }
}

/// Runs the newest enabled thread.
pub struct Newest;

impl Scheduler for Newest {
    fn pick(&mut self, enabled: &[Tid]) -> Tid {
        enabled[enabled.len() - 1]
    }
}

fn seeded(seed: u64) -> RandomScheduler {
    RandomScheduler(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
}

/// Runs one execution: `schedule` first (a thread that cannot move is skipped, the next
/// scheduled one that can moves: a deviation), then `after` picks; inputs forced to `inputs`
/// (alternative 0 for the others). Records its end in `out` and returns its trace.
pub fn run(
    interp: &Interp,
    inputs: Inputs,
    schedule: &[Tid],
    after: &mut dyn Scheduler,
    deadline: Option<Instant>,
    out: &mut SearchResult,
    stats: &mut Stats,
) -> Option<Trace> {
    let it = interp.with_inputs(Arc::new(inputs)).concolic();
    let (state, path) = drive(&it, schedule, after, deadline, stats);
    let status = it.status(&state);
    out.executions += 1;
    out.steps += path.len() as u64;
    super::found::record_status(&it, &state, &status, &path, out);
    stats.runs += 1;
    let trace = it.into_trace(state)?;
    if too_large(&trace).is_some() {
        stats.too_large += 1;
        return None;
    }
    Some(trace)
}

type Path = Vec<(Tid, usize, crate::explore::StepInfo)>;

fn drive(
    it: &Interp,
    schedule: &[Tid],
    after: &mut dyn Scheduler,
    deadline: Option<Instant>,
    stats: &mut Stats,
) -> (crate::explore::interp::State, Path) {
    let mut state = it.initial();
    let mut path = Vec::new();
    let mut queue: VecDeque<Tid> = schedule.iter().copied().collect();
    after.new_run();
    while it.status(&state) == ExecStatus::Running {
        // A run past the deadline stops where it is (an execution cut short, as a loop bound
        // cuts one).
        if path.len() % 1024 == 1023 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let enabled = it.enabled(&state);
        if enabled.is_empty() {
            break;
        }
        let t = match queue.front() {
            Some(t) if enabled.contains(t) => {
                let t = *t;
                queue.pop_front();
                t
            }
            Some(_) => {
                stats.deviations += 1;
                match queue.iter().position(|u| enabled.contains(u)) {
                    Some(i) => queue.remove(i).unwrap_or(enabled[0]),
                    None => {
                        queue.clear();
                        after.pick(&enabled)
                    }
                }
            }
            None => {
                // After the prefix, a step that ends the process (`main` returning, `exit`)
                // waits while another thread can move: it would cut them short before they
                // reach their branches.
                let going: Vec<Tid> = enabled
                    .iter()
                    .copied()
                    .filter(|&t| !it.ends_process_next(&state, t))
                    .collect();
                after.pick(if going.is_empty() { &enabled } else { &going })
            }
        };
        let info = it.step(&mut state, t, 0);
        after.stepped(&info);
        path.push((t, 0, info));
    }
    (state, path)
}

/// A prefix to solve over a trace.
struct Candidate {
    trace: Arc<(Trace, Index, Hashes)>,
    prefix: Prefix,
    /// The cuts of the parent prefix (what the flip must not re-split), per thread.
    pre: Vec<usize>,
    generation: u32,
    relaxed: bool,
}

/// The symbolic search (see the module's contract).
pub fn explore(
    interp: &Interp,
    config: &SymbolicConfig,
    targets: Option<&BTreeSet<AssertId>>,
) -> (SearchResult, Stats) {
    let mut seed = seeded(config.seed);
    explore_with(interp, config, targets, &mut seed)
}

/// What one search has found, solved and queued.
struct Search<'a> {
    out: SearchResult,
    stats: Stats,
    /// Keys of the prefixes solved, queued, or executed: never solved (again).
    seen: HashSet<Key>,
    /// Keys of the whole paths executed.
    paths: HashSet<Key>,
    work: Worklist<Candidate>,
    targets: Option<&'a BTreeSet<AssertId>>,
    every: BTreeSet<AssertId>,
    config: &'a SymbolicConfig,
    start: Instant,
}

impl Search<'_> {
    fn all_found(&self) -> bool {
        (self.targets.unwrap_or(&self.every).iter()).all(|a| self.out.violations.contains_key(a))
    }

    fn out_of_budget(&self) -> bool {
        self.stats.runs >= self.config.max_runs
            || self.config.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether `a` is a target without a violation yet.
    fn remaining(&self, a: AssertId) -> bool {
        !self.out.violations.contains_key(&a) && self.targets.is_none_or(|t| t.contains(&a))
    }

    /// Runs `inputs` with `schedule` first, then `sched`, and queues the new prefixes of its
    /// trace ([`Search::expand`]).
    fn run_and_expand(
        &mut self,
        interp: &Interp,
        inputs: Inputs,
        schedule: &[Tid],
        sched: &mut dyn Scheduler,
        pre: Option<Vec<usize>>,
        generation: u32,
    ) {
        let trace = run(
            interp,
            inputs,
            schedule,
            sched,
            self.config.deadline,
            &mut self.out,
            &mut self.stats,
        );
        let bound = interp.options().bound;
        for v in self.out.violations.values_mut() {
            v.bound = bound;
        }
        if self.stats.first_witness.is_none() && !self.out.violations.is_empty() {
            self.stats.first_witness = Some((self.stats.runs, self.start.elapsed()));
        }
        if let Some(trace) = trace {
            let pre = pre.unwrap_or_else(|| vec![0; trace.threads.len()]);
            self.expand(trace, pre, generation);
        }
    }

    /// Queues the new prefixes of a run's trace: for each thread, each branch past the parent
    /// prefix flipped, the branches before it kept, every other thread keeping its whole path.
    fn expand(&mut self, trace: Trace, pre: Vec<usize>, generation: u32) {
        if self.config.debug.is_some() {
            let paths: Vec<Vec<(bool, bool)>> = trace
                .threads
                .iter()
                .map(|t| t.branches.iter().map(|b| (b.taken, b.flippable)).collect())
                .collect();
            eprintln!("run: inputs {:?} paths {:?}", trace.inputs, paths);
        }
        let index = Index::new(&trace);
        let hashes = Hashes::new(&trace);
        self.paths.insert(hashes.path_key(&trace));
        self.seen.extend(hashes.executed(&trace));
        let whole = paths::full(&trace);
        let mut new = Vec::new();
        for (t, th) in trace.threads.iter().enumerate() {
            let from = pre.get(t).copied().unwrap_or(0);
            for (j, b) in th.branches.iter().enumerate().skip(from) {
                if !b.flippable {
                    continue;
                }
                let mut prefix = whole.clone();
                prefix.cuts[t] = Cut {
                    keep: j,
                    flip: true,
                };
                if self.seen.insert(hashes.key(&trace, &prefix)) {
                    new.push(prefix);
                }
            }
        }
        let shared = Arc::new((trace, index, hashes));
        for prefix in new {
            self.queue(&shared, prefix, pre.clone(), generation, false);
        }
    }

    /// Queues `prefix` over `trace` (its key is in `seen` already), flips toward a remaining
    /// target first.
    fn queue(
        &mut self,
        trace: &Arc<(Trace, Index, Hashes)>,
        prefix: Prefix,
        pre: Vec<usize>,
        generation: u32,
        relaxed: bool,
    ) {
        let target = flipped_target(&trace.0, &prefix).is_some_and(|a| self.remaining(a));
        let p = Priority {
            not_target: !target,
            generation,
            relaxed,
            seq: self.work.next_seq(),
        };
        let candidate = Candidate {
            trace: trace.clone(),
            prefix,
            pre,
            generation,
            relaxed,
        };
        self.work.push(p, candidate);
    }
}

/// [`explore`] with another scheduler after each prefix.
pub fn explore_with(
    interp: &Interp,
    config: &SymbolicConfig,
    targets: Option<&BTreeSet<AssertId>>,
    after: &mut dyn Scheduler,
) -> (SearchResult, Stats) {
    let mut search = Search {
        out: SearchResult {
            restricted_inputs: true,
            ..SearchResult::default()
        },
        stats: Stats::default(),
        seen: HashSet::new(),
        paths: HashSet::new(),
        work: Worklist::default(),
        targets,
        every: (0..interp.program().asserts.len())
            .map(AssertId::from)
            .collect(),
        config,
        start: Instant::now(),
    };
    let z3 = match Z3::at(&config.z3) {
        Ok(z) => z,
        Err(why) => {
            search.out.unsupported.insert(super::Abandon::NoSolver(why));
            return (search.out, search.stats);
        }
    };
    let first = if config.random_first {
        random_inputs(&mut seeded(config.seed ^ 0x5eed))
    } else {
        Inputs::new()
    };
    // The first run runs the newest thread first (a created thread runs to its end before
    // its creator goes on), so that every thread reaches its branches before `main` exits.
    search.run_and_expand(interp, first, &[], &mut Newest, None, 0);
    let mut restarts = 0u64;
    while !search.all_found() && !search.out_of_budget() {
        if search.work.is_empty() {
            // Every prefix of these traces is solved: start again from a run with another
            // schedule (and, every other time, random inputs).
            restarts += 1;
            if restarts > 64 {
                break;
            }
            let inputs = if restarts.is_multiple_of(2) {
                random_inputs(&mut seeded(config.seed ^ restarts))
            } else {
                Inputs::new()
            };
            search.run_and_expand(interp, inputs, &[], after, None, 0);
            continue;
        }
        let mut batch = Vec::new();
        while batch.len() < config.workers.max(1) {
            match search.work.pop() {
                Some(c) => batch.push(c),
                None => break,
            }
        }
        // No query outlives the deadline by more than the solver's start-up.
        let budget = config.deadline.map_or(config.solver_timeout, |d| {
            config
                .solver_timeout
                .min(d.saturating_duration_since(Instant::now()))
        });
        let timeout_ms = (budget.as_millis() as u64).max(50);
        let queries: Vec<Query> = batch
            .iter()
            .map(|c| encode::encode(&c.trace.0, &c.trace.1, &c.prefix, timeout_ms))
            .collect();
        let t0 = Instant::now();
        let hard = Duration::from_millis(timeout_ms) + Duration::from_millis(500);
        let answers: Vec<Answer> = if queries.len() == 1 {
            vec![z3.solve(&queries[0].script, hard)]
        } else {
            std::thread::scope(|sc| {
                let hs: Vec<_> = queries
                    .iter()
                    .map(|q| {
                        let z3 = &z3;
                        sc.spawn(move || z3.solve(&q.script, hard))
                    })
                    .collect();
                hs.into_iter()
                    .map(|h| h.join().unwrap_or(Answer::Unknown("solver thread".into())))
                    .collect()
            })
        };
        search.stats.solver_time += t0.elapsed();
        for ((cand, query), answer) in batch.into_iter().zip(queries).zip(answers) {
            search.stats.queries += 1;
            if let Some(dir) = &search.config.debug {
                let _ = std::fs::write(
                    dir.join(format!("q{}.smt2", search.stats.queries)),
                    &query.script,
                );
                eprintln!(
                    "query {} over {:?}: {:?} relaxed {} -> {}",
                    search.stats.queries,
                    cand.trace.0.inputs,
                    cand.prefix
                        .cuts
                        .iter()
                        .map(|c| (c.keep, c.flip))
                        .collect::<Vec<_>>(),
                    cand.relaxed,
                    match &answer {
                        Answer::Sat(_) => "sat",
                        Answer::Unsat => "unsat",
                        Answer::Unknown(_) => "unknown",
                    }
                );
            }
            match answer {
                Answer::Sat(model) => {
                    search.stats.sat += 1;
                    if search.all_found() || search.out_of_budget() {
                        continue;
                    }
                    let (inputs, schedule) = solution(&cand.trace.0, &query, &model);
                    // The flipped thread's branches up to the flip were split already; every
                    // other thread's may be flipped again in the new context (generational
                    // search: MPC's cross-thread combinations of flips arise over
                    // generations; the path keys keep each prefix class solved once).
                    let pre: Vec<usize> = cand
                        .prefix
                        .cuts
                        .iter()
                        .map(|c| if c.flip { c.keep + 1 } else { 0 })
                        .collect();
                    let generation = cand.generation + 1;
                    search.run_and_expand(interp, inputs, &schedule, after, Some(pre), generation);
                }
                Answer::Unsat => {
                    search.stats.unsat += 1;
                    // Other threads' whole paths may be what makes the flip impossible:
                    // try again with them kept only as far as the parent prefix (MPC's S2,
                    // without unsat cores).
                    if !cand.relaxed {
                        let (tr, _, hashes) = &*cand.trace;
                        let cuts: Vec<Cut> = cand
                            .prefix
                            .cuts
                            .iter()
                            .enumerate()
                            .map(|(t, c)| {
                                if c.flip {
                                    *c
                                } else {
                                    Cut {
                                        keep: cand.pre.get(t).copied().unwrap_or(0).min(c.keep),
                                        flip: false,
                                    }
                                }
                            })
                            .collect();
                        let prefix = Prefix { cuts };
                        if prefix != cand.prefix && search.seen.insert(hashes.key(tr, &prefix)) {
                            let pre = cand.pre.clone();
                            search.queue(&cand.trace, prefix, pre, cand.generation, true);
                        }
                    }
                }
                Answer::Unknown(_) => search.stats.unknown += 1,
            }
        }
    }
    search.stats.paths = search.paths.len() as u64;
    search.out.complete = false;
    (search.out, search.stats)
}

/// The assertion the flipped branch of `prefix` aims at.
fn flipped_target(trace: &Trace, prefix: &Prefix) -> Option<AssertId> {
    prefix.cuts.iter().enumerate().find_map(|(t, c)| {
        c.flip
            .then(|| trace.threads[t].branches.get(c.keep)?.leads_to)
            .flatten()
    })
}

/// The inputs and the schedule a model gives: the model's inputs over the parent run's, and
/// the prefix's events in the model's order.
fn solution(trace: &Trace, query: &Query, model: &[(String, Val)]) -> (Inputs, Vec<Tid>) {
    let mut inputs: Inputs = trace.inputs.iter().map(|(k, (_, v))| (*k, *v)).collect();
    let mut order: Vec<(i128, usize)> = Vec::new();
    let values: BTreeMap<&str, Val> = model.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    for &e in &query.events {
        if let Some(Val::Int(o)) = values.get(format!("o{e}").as_str()) {
            order.push((*o, e));
        }
    }
    order.sort_unstable();
    for (&(tid, n), &bits) in &query.inputs {
        let name = smt::sym_name(expr::Sym::Input { tid, n });
        if let Some(Val::Bv(v)) = values.get(name.as_str()) {
            inputs.insert((tid, n), expr::sext(*v, bits));
        }
    }
    // The process exit is left to the scheduler after the prefix (which lets every other
    // thread move first): ordered last, it would still cut short the threads the prefix
    // leaves unfinished.
    let schedule = order
        .iter()
        .filter(|&&(_, e)| trace.events[e].kind != trace::EventKind::Exit)
        .map(|&(_, e)| trace.events[e].tid)
        .collect();
    (inputs, schedule)
}

/// Uniformly random values for the first inputs of the first threads (each wraps to its
/// type, so a value is uniform over the type's range).
pub fn random_inputs(rng: &mut RandomScheduler) -> Inputs {
    let mut m = Inputs::new();
    for t in 0..16 {
        for n in 0..256 {
            let v = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) as i128;
            m.insert((t, n), v);
        }
    }
    m
}

/// The baseline the symbolic search is measured against: `runs` executions, each with
/// uniformly random input values and a seeded random schedule.
pub fn random_search(
    interp: &Interp,
    runs: u64,
    deadline: Option<Instant>,
    seed: u64,
    targets: Option<&BTreeSet<AssertId>>,
) -> (SearchResult, Stats) {
    let start = Instant::now();
    let mut out = SearchResult {
        restricted_inputs: true,
        ..SearchResult::default()
    };
    let mut stats = Stats::default();
    let mut rng = seeded(seed);
    let bound = interp.options().bound;
    for _ in 0..runs {
        if deadline.is_some_and(|d| Instant::now() >= d)
            || targets.is_some_and(|t| t.iter().all(|a| out.violations.contains_key(a)))
        {
            break;
        }
        let it = interp.with_inputs(Arc::new(random_inputs(&mut rng)));
        let (state, path) = drive(&it, &[], &mut rng, deadline, &mut stats);
        let status = it.status(&state);
        out.executions += 1;
        out.steps += path.len() as u64;
        super::found::record_status(&it, &state, &status, &path, &mut out);
        stats.runs += 1;
        if stats.first_witness.is_none() && !out.violations.is_empty() {
            stats.first_witness = Some((stats.runs, start.elapsed()));
        }
    }
    for v in out.violations.values_mut() {
        v.bound = bound;
    }
    stats.paths = stats.runs;
    (out, stats)
}
