//! The strategies of `watts confirm` behind one trait, [`Explorer`]: the exhaustive search
//! ([`Exhaustive`]: RVF-SMC or the reduced search, with iterative deepening of the loop bound),
//! the samplers ([`Sampling`]: seeded runs under the schedulers of [`super::sample`]) and the
//! symbolic-input search ([`Symbolic`], [`super::symbolic`]);
//! and the plan `--strategy` makes of them ([`plan`]; `auto` chains several).
//!
//! Invariant: explorers only add to a [`Confirmation`], and every violation they add carries
//! its schedule from the initial state and the loop bound it replays with. Only [`Exhaustive`]
//! sets `outcome.complete`; a sampler (or the symbolic search) never does, and nothing runs
//! after an exhaustive search that covered every execution ([`SearchResult::exhaustive`]), so a
//! search that sampled never claims that every execution was run. After one that completed
//! only within limits (input candidates, abandoned executions), the later phases may still
//! find violations; the claim stays "every execution within those limits".
//!
//! `Explorer` explores a `Bounded` system (one whose loop bound can be changed) for the targets
//! without a violation until a deadline. `Exhaustive` is random walks, then RVF or the reduced
//! search, with iterative deepening of the bound; `Sampling` runs seeded executions under
//! `sample::Scheduler`s in turn; `Symbolic` runs the symbolic-input search with a speed scheduler
//! after each prefix (`SpeedAfter`, a new vector per run). `plan` turns `--strategy` into phases,
//! each with a share of the budget (`auto`: a burst of one round of speed vectors, the exhaustive
//! search until half the budget, the symbolic search until 80% (nothing without z3), then speed
//! sampling), and `run` executes them, stopping after an exhaustive phase that covered every
//! execution (`Outcome::exhaustive`: not limited by the bound, the input candidates or abandoned
//! executions). `limits` names the samplers whenever sampling ran in a search that did not
//! complete.

use super::sample::{self, Scheduler};
use super::search::{self, SearchResult};
use super::{Confirmation, Interp, System};
use crate::config::{ConfirmOptions, ConfirmStrategy};
use crate::ir::AssertId;
use std::collections::BTreeSet;
use std::time::Instant;

pub use crate::limits::{
    BURST_RUNS, BURST_SHARE, EXHAUSTIVE_SHARE, FOCUS_SHARE, MANY_THREADS, MAX_BOUND, RANDOM_WALKS,
    SYMBOLIC_SHARE, WALK_BOUND,
};

/// A [`System`] whose loop bound can be changed: what the explorers run on.
pub trait Bounded: System + Sized {
    /// The same system with loop bound `bound`.
    fn with_bound(&self, bound: u32) -> Self;

    /// The same system for sampled runs with loop bound `bound` (which need not be
    /// exhaustive: the interpreter lets loops that create threads run to their end).
    fn sampled(&self, bound: u32) -> Self {
        self.with_bound(bound)
    }
}

impl Bounded for Interp<'_> {
    fn with_bound(&self, bound: u32) -> Self {
        Interp::with_bound(self, bound)
    }

    fn sampled(&self, bound: u32) -> Self {
        Interp::sampled(self, bound)
    }
}

/// A way of searching the executions of a system for violations.
pub trait Explorer<S: Bounded> {
    /// What the reports call it (`exhaustive`, `speed`).
    fn name(&self) -> String;

    /// Searches `system` for violations of the assertions of `targets` that `found` has none
    /// of, until each has one, `deadline` passes, or the explorer has nothing left to try;
    /// adds what it finds (violations, counters, limits) to `found`. May be called again with
    /// a later deadline, and goes on where it stopped when it can.
    fn explore(
        &mut self,
        system: &S,
        targets: &BTreeSet<AssertId>,
        deadline: Instant,
        found: &mut Confirmation,
    );
}

/// Whether every assertion of `targets` has a violation in `found`.
fn all_found(targets: &BTreeSet<AssertId>, found: &Confirmation) -> bool {
    targets
        .iter()
        .all(|a| found.outcome.violations.contains_key(a))
}

/// The exhaustive search: random executions, then every execution with loop bound `bound`,
/// then, while some execution was cut by the bound and the search was otherwise complete,
/// with twice the bound (iterative deepening). The searches are RVF-SMC
/// ([`search::Strategy::Rvf`]), or the reduced search once the RVF event model gives up on the
/// program.
#[derive(Clone, Debug)]
pub struct Exhaustive {
    /// The first loop bound.
    pub bound: u32,
}

impl<S: Bounded> Explorer<S> for Exhaustive {
    fn name(&self) -> String {
        "exhaustive".to_string()
    }

    fn explore(
        &mut self,
        system: &S,
        targets: &BTreeSet<AssertId>,
        deadline: Instant,
        found: &mut Confirmation,
    ) {
        // Random executions with a large loop bound first (a budget of no exhaustive
        // execution).
        let walk_bound = self.bound.max(WALK_BOUND);
        let walks = search::Budget {
            deadline: Some(deadline),
            random_walks: RANDOM_WALKS,
            executions: 0,
            ..search::Budget::default()
        };
        let remaining = |found: &Confirmation| -> BTreeSet<AssertId> {
            targets
                .iter()
                .filter(|a| !found.outcome.violations.contains_key(a))
                .copied()
                .collect()
        };
        let out = search::explore(
            &system.with_bound(walk_bound),
            search::Strategy::Reduced,
            walks,
            Some(&remaining(found)),
        );
        merge(
            &mut found.outcome,
            out,
            walk_bound,
            false,
            "exhaustive search",
        );
        let mut bound = self.bound;
        // The RVF search, until its event model gives up on the program: then the reduced
        // search, for this bound and the next ones.
        let mut strategy = search::Strategy::Rvf;
        // The random executions of this bound ran already (before the RVF search gave up).
        let mut walked = false;
        loop {
            // The time budget is the limit (and the states kept, for memory), not a count of
            // executions.
            let budget = search::Budget {
                deadline: Some(deadline),
                random_walks: if walked { 0 } else { RANDOM_WALKS },
                executions: u64::MAX,
                ..search::Budget::default()
            };
            let mut out = search::explore(
                &system.with_bound(bound),
                strategy,
                budget,
                Some(&remaining(found)),
            );
            let label = match strategy {
                search::Strategy::Rvf => "exhaustive search (RVF-SMC)",
                _ => "exhaustive search (reduced)",
            };
            if strategy == search::Strategy::Rvf && out.unsupported.rvf_gave_up() {
                // What it found is real; that it gave up is not a property of the program.
                out.unsupported
                    .retain(|u| !matches!(u, super::Abandon::RvfGaveUp(_)));
                out.complete = false;
                merge(&mut found.outcome, out, bound, false, label);
                strategy = search::Strategy::Reduced;
                walked = true;
                continue;
            }
            walked = false;
            let (complete, cut) = (out.complete, out.cut);
            merge(&mut found.outcome, out, bound, false, label);
            found.outcome.complete = complete;
            found.outcome.cut = cut;
            found.bound = bound;
            if all_found(targets, found) || !cut || !complete || bound >= MAX_BOUND {
                return;
            }
            bound = bound.saturating_mul(2).min(MAX_BOUND);
        }
    }
}

/// Adds the results of a search run with loop `bound` (and unbounded thread loops, with
/// `thread_loops`) to `total`: its violations not found before (each with that bound, and
/// `by` as who found it unless the search said), its counters, and the reasons it abandoned
/// executions. `complete` and `cut` are the caller's.
fn merge(total: &mut SearchResult, out: SearchResult, bound: u32, thread_loops: bool, by: &str) {
    for (id, mut v) in out.violations {
        v.bound = bound;
        v.thread_loops = thread_loops;
        v.found_by = if v.found_by.is_empty() {
            format!("the {by}, loop bound {bound}")
        } else {
            format!("{} of the {by}, loop bound {bound}", v.found_by)
        };
        total.violations.entry(id).or_insert(v);
    }
    total.executions += out.executions;
    total.steps += out.steps;
    total.unsupported.extend(out.unsupported);
    total.threads = total.threads.max(out.threads);
    total.restricted_inputs |= out.restricted_inputs;
}

/// Sampled executions: runs of its schedulers in turn (one run each), every run seeded from the
/// user's seed, the scheduler and the scheduler's run index, with a large loop bound.
pub struct Sampling {
    /// Each scheduler with the index of its next run.
    schedulers: Vec<(Box<dyn Scheduler>, u64)>,
    /// Whose turn it is.
    turn: usize,
    /// The user's seed (`--seed`).
    seed: u64,
    /// The loop bound of every run.
    bound: u32,
    /// Most runs per call of `explore`.
    max_runs: u64,
}

impl Sampling {
    /// Runs of `schedulers` in turn, seeded by `seed`, with loop bound `bound`.
    pub fn new(schedulers: Vec<Box<dyn Scheduler>>, seed: u64, bound: u32) -> Sampling {
        assert!(!schedulers.is_empty());
        Sampling {
            schedulers: schedulers.into_iter().map(|s| (s, 0)).collect(),
            turn: 0,
            seed,
            bound,
            max_runs: u64::MAX,
        }
    }

    /// At most `runs` runs per call of `explore`.
    pub fn with_max_runs(mut self, runs: u64) -> Sampling {
        self.max_runs = runs;
        self
    }
}

impl<S: Bounded> Explorer<S> for Sampling {
    fn name(&self) -> String {
        let names: Vec<&str> = self.schedulers.iter().map(|(s, _)| s.name()).collect();
        names.join("+")
    }

    fn explore(
        &mut self,
        system: &S,
        targets: &BTreeSet<AssertId>,
        deadline: Instant,
        found: &mut Confirmation,
    ) {
        let bounded = system.with_bound(self.bound);
        // Few-threads-far runs follow the loops that create threads to their end: their steps
        // cost nothing per waiting thread.
        let sampled = system.sampled(self.bound);
        let mut runs = 0;
        while runs < self.max_runs && !all_found(targets, found) && Instant::now() < deadline {
            let turn = self.turn % self.schedulers.len();
            self.turn += 1;
            let (scheduler, next) = &mut self.schedulers[turn];
            let run = *next;
            *next += 1;
            let name = scheduler.name();
            scheduler.reset(run, sample::run_seed(self.seed, name, run));
            let mut out = SearchResult::default();
            let thread_loops = scheduler.few_threads();
            let system = if thread_loops { &sampled } else { &bounded };
            sample::run(system, scheduler.as_mut(), Some(deadline), &mut out);
            runs += 1;
            if !found.samplers.contains(&name) {
                found.samplers.push(name);
            }
            found.sampled += out.executions;
            if out.cut {
                found.sample_cut = Some(self.bound);
            }
            for (id, mut v) in std::mem::take(&mut out.violations) {
                v.bound = self.bound;
                v.thread_loops = thread_loops;
                let how = scheduler.describe();
                v.found_by = format!(
                    "{name} sampling, run {run} of seed {}{}",
                    self.seed,
                    if how.is_empty() {
                        String::new()
                    } else {
                        format!(" ({how})")
                    }
                );
                found.outcome.violations.entry(id).or_insert(v);
            }
            found.outcome.executions += out.executions;
            found.outcome.steps += out.steps;
            found.outcome.unsupported.extend(out.unsupported);
            found.outcome.restricted_inputs |= out.restricted_inputs;
            found.outcome.threads = found.outcome.threads.max(out.threads);
        }
    }
}

/// The symbolic-input search ([`super::symbolic`], maximal path causality): runs whose inputs
/// and schedule prefix z3 chose to reach a new path, each continued under thread speed control
/// after its prefix. Never complete; without z3 it runs nothing (see [`Symbolic::available`]).
pub struct Symbolic {
    /// The user's seed (`--seed`).
    pub seed: u64,
    /// The loop bound of every run.
    pub bound: u32,
    /// The solver binary (`ConfirmOptions::z3`).
    pub z3: std::path::PathBuf,
    /// Where the search's debugging output goes (`ConfirmOptions::symbolic_debug`).
    pub debug: Option<std::path::PathBuf>,
}

impl Symbolic {
    /// Whether the solver `z3` runs here; `Err` says why not.
    pub fn available(z3: &std::path::Path) -> Result<(), String> {
        super::symbolic::solver::Z3::at(z3).map(|_| ())
    }
}

/// The speed scheduler after the prefix of each symbolic run, a new vector per run.
struct SpeedAfter {
    speed: sample::Speed,
    seed: u64,
    run: u64,
}

impl super::symbolic::Scheduler for SpeedAfter {
    fn new_run(&mut self) {
        if self.run > 0 {
            self.speed.finished(0);
        }
        self.speed
            .reset(self.run, sample::run_seed(self.seed, "symbolic", self.run));
        self.run += 1;
    }

    fn pick(&mut self, enabled: &[super::Tid]) -> super::Tid {
        let choices: Vec<sample::Choice> = enabled
            .iter()
            .map(|&tid| sample::Choice {
                tid,
                alternatives: 1,
            })
            .collect();
        self.speed.pick(&choices).0
    }

    fn stepped(&mut self, info: &super::StepInfo) {
        self.speed.stepped(info);
    }
}

impl<'p> Explorer<Interp<'p>> for Symbolic {
    fn name(&self) -> String {
        "symbolic".to_string()
    }

    fn explore(
        &mut self,
        system: &Interp<'p>,
        targets: &BTreeSet<AssertId>,
        deadline: Instant,
        found: &mut Confirmation,
    ) {
        if Instant::now() >= deadline || all_found(targets, found) {
            return;
        }
        let remaining: BTreeSet<AssertId> = targets
            .iter()
            .filter(|a| !found.outcome.violations.contains_key(a))
            .copied()
            .collect();
        let config = super::symbolic::SymbolicConfig {
            deadline: Some(deadline),
            max_runs: u64::MAX,
            seed: self.seed,
            z3: self.z3.clone(),
            debug: self.debug.clone(),
            ..super::symbolic::SymbolicConfig::default()
        };
        let mut after = SpeedAfter {
            speed: sample::Speed::new(),
            seed: self.seed,
            run: 0,
        };
        let interp = system.with_bound(self.bound);
        let (out, stats) =
            super::symbolic::explore_with(&interp, &config, Some(&remaining), &mut after);
        if stats.runs == 0 {
            // No solver (or no time): nothing ran, nothing to say about the program.
            return;
        }
        if !found.samplers.contains(&"symbolic") {
            found.samplers.push("symbolic");
        }
        found.sampled += out.executions;
        if out.cut {
            found.sample_cut = Some(self.bound);
        }
        for (id, mut v) in out.violations {
            v.bound = self.bound;
            v.found_by = format!(
                "the symbolic-input search (inputs and schedule prefix from z3, speed control \
                 after it), seed {}, {} runs, {} paths, {} solver queries",
                self.seed, stats.runs, stats.paths, stats.queries
            );
            found.outcome.violations.entry(id).or_insert(v);
        }
        found.outcome.executions += out.executions;
        found.outcome.steps += out.steps;
        found.outcome.unsupported.extend(out.unsupported);
        found.outcome.threads = found.outcome.threads.max(out.threads);
    }
}

/// The scheduler named by `strategy` (a sampling one).
fn scheduler(strategy: ConfirmStrategy, options: &ConfirmOptions) -> Box<dyn Scheduler> {
    match strategy {
        ConfirmStrategy::Pct => Box::new(sample::Pct::new(options.pct_depth)),
        ConfirmStrategy::Random => Box::new(sample::Random::new()),
        ConfirmStrategy::Focus => Box::new(super::focus::Focus::new()),
        _ => Box::new(sample::Speed::new()),
    }
}

/// One phase of a plan: an explorer, and the share of the budget at whose end its deadline
/// falls.
pub struct Phase<S: Bounded> {
    /// The explorer.
    pub explorer: Box<dyn Explorer<S>>,
    /// Its deadline, as a share of the budget from the start (at most 1).
    pub until: f64,
    /// Skipped once an execution created more than [`MANY_THREADS`] threads: its steps cost
    /// more with every thread.
    pub few_threads: bool,
}

/// The phases `options.strategy` runs, in order.
///
/// `auto`: what is small enough is searched exhaustively, the rest is sampled. Small enough is
/// decided by running, not by a size measure:
/// 1. a burst of [`BURST_RUNS`] speed-controlled runs (one systematic round of speed vectors,
///    at most [`BURST_SHARE`] of the budget) finds shallow bugs at once;
/// 2. the exhaustive search, until [`EXHAUSTIVE_SHARE`] of the budget: if it completes, the
///    result is as exhaustive as with `--strategy exhaustive` and nothing else runs;
/// 3. otherwise the symbolic-input search ([`Symbolic`]) until [`SYMBOLIC_SHARE`] of the
///    budget (inputs beyond the candidate values, schedules toward new paths), then sampling
///    (speed control) for the rest of the budget, while assertions remain unviolated.
pub fn plan<'p>(options: &ConfirmOptions) -> Vec<Phase<Interp<'p>>> {
    let sampling = |strategy| -> Box<dyn Explorer<Interp<'p>>> {
        Box::new(Sampling::new(
            vec![scheduler(strategy, options)],
            options.seed,
            options.bound.max(WALK_BOUND),
        ))
    };
    let exhaustive = || -> Box<dyn Explorer<Interp<'p>>> {
        Box::new(Exhaustive {
            bound: options.bound,
        })
    };
    let burst = |strategy, runs| -> Box<dyn Explorer<Interp<'p>>> {
        Box::new(
            Sampling::new(
                vec![scheduler(strategy, options)],
                options.seed,
                options.bound.max(WALK_BOUND),
            )
            .with_max_runs(runs),
        )
    };
    let phase = |explorer, until, few_threads| Phase {
        explorer,
        until,
        few_threads,
    };
    match options.strategy {
        ConfirmStrategy::Auto => vec![
            phase(sampling(ConfirmStrategy::Focus), FOCUS_SHARE, false),
            phase(burst(ConfirmStrategy::Speed, BURST_RUNS), BURST_SHARE, true),
            phase(exhaustive(), EXHAUSTIVE_SHARE, true),
            // Inputs beyond the candidates, and schedules toward new paths; speed sampling
            // after each prefix. Without z3 it runs nothing and the next phase takes its time.
            phase(
                Box::new(Symbolic {
                    seed: options.seed,
                    bound: options.bound.max(WALK_BOUND),
                    z3: options.z3.clone(),
                    debug: options.symbolic_debug.clone(),
                }),
                SYMBOLIC_SHARE,
                true,
            ),
            // Speed and few-threads-far runs in turn; with many threads, the latter alone.
            phase(
                Box::new(Sampling::new(
                    vec![
                        scheduler(ConfirmStrategy::Speed, options),
                        scheduler(ConfirmStrategy::Focus, options),
                    ],
                    options.seed,
                    options.bound.max(WALK_BOUND),
                )),
                1.0,
                true,
            ),
            phase(sampling(ConfirmStrategy::Focus), 1.0, false),
        ],
        ConfirmStrategy::Exhaustive => vec![phase(exhaustive(), 1.0, false)],
        ConfirmStrategy::Symbolic => vec![phase(
            Box::new(Symbolic {
                seed: options.seed,
                bound: options.bound.max(WALK_BOUND),
                z3: options.z3.clone(),
                debug: options.symbolic_debug.clone(),
            }),
            1.0,
            false,
        )],
        s @ (ConfirmStrategy::Speed
        | ConfirmStrategy::Pct
        | ConfirmStrategy::Random
        | ConfirmStrategy::Focus) => vec![phase(sampling(s), 1.0, false)],
    }
}

/// Whether an execution created more than [`MANY_THREADS`] threads and its loops that create
/// threads ended by themselves (before [`super::interp::MAX_LOOP_THREADS`]): the phases whose
/// loops are bounded cut such a loop before the code after it, so only few-threads-far runs
/// reach that code. (A loop that creates threads forever is better cut: the bounded phases
/// explore its first rounds.)
fn many_threads(found: &Confirmation) -> bool {
    (MANY_THREADS + 1..super::interp::MAX_LOOP_THREADS).contains(&found.outcome.threads)
}

/// Runs the phases of `plan` on `system` within `options.timeout`, until every assertion of
/// `targets` is violated, a phase is an exhaustive search that completed without limits (see
/// [`SearchResult::exhaustive`]), or the phases end.
pub fn run<S: Bounded>(
    system: &S,
    plan: Vec<Phase<S>>,
    options: &ConfirmOptions,
    targets: &BTreeSet<AssertId>,
) -> Confirmation {
    let start = Instant::now();
    let mut found = Confirmation {
        outcome: SearchResult::default(),
        bound: options.bound,
        sampled: 0,
        sample_cut: None,
        samplers: Vec::new(),
    };
    for mut phase in plan {
        if all_found(targets, &found) {
            break;
        }
        if phase.few_threads && many_threads(&found) {
            continue;
        }
        let deadline = start + options.timeout.mul_f64(phase.until.clamp(0.0, 1.0));
        phase
            .explorer
            .explore(system, targets, deadline, &mut found);
        // Soundness of the claim: a completed exhaustive search that was not limited (by
        // the loop bound, the input candidates or abandoned executions) covered every
        // execution; no later phase can add a violation. A limited one leaves work to the
        // later phases (inputs beyond the candidates), which never set `complete`.
        if found.outcome.exhaustive() {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::search::tests::{Op, Toy};
    use crate::explore::{ExecStatus, Inconclusive};
    use std::time::Duration;

    impl Bounded for Toy {
        fn with_bound(&self, _: u32) -> Self {
            Toy {
                threads: self.threads.clone(),
            }
        }
    }

    fn options(strategy: ConfirmStrategy) -> ConfirmOptions {
        ConfirmOptions {
            strategy,
            timeout: Duration::from_millis(300),
            ..ConfirmOptions::default()
        }
    }

    fn sampling(strategy: ConfirmStrategy, o: &ConfirmOptions) -> Phase<Toy> {
        Phase {
            explorer: Box::new(Sampling::new(
                vec![scheduler(strategy, o)],
                o.seed,
                WALK_BOUND,
            )),
            until: 1.0,
            few_threads: false,
        }
    }

    fn targets(ids: &[u32]) -> BTreeSet<AssertId> {
        ids.iter().map(|&i| AssertId(i)).collect()
    }

    #[test]
    fn samplers_find_violations_but_never_complete() {
        // t0: x = 1; x = 2.   t1: fail A0 if x == 1; fail A1 (never) if x == 5.
        let toy = Toy {
            threads: vec![
                vec![Op::Store(0, 1), Op::Store(0, 2)],
                vec![Op::LoadFailIf(0, 1), Op::Check(0, 5, 1)],
            ],
        };
        for s in [
            ConfirmStrategy::Speed,
            ConfirmStrategy::Pct,
            ConfirmStrategy::Random,
            ConfirmStrategy::Focus,
        ] {
            let o = options(s);
            let found = run(&toy, vec![sampling(s, &o)], &o, &targets(&[0, 1]));
            let v = &found.outcome.violations[&AssertId(0)];
            assert!(v.found_by.starts_with(s.name()), "{}", v.found_by);
            assert_eq!(v.bound, WALK_BOUND);
            let (end, _) = search::replay(&toy, &v.choices).expect("replays");
            assert_eq!(toy.status(&end), ExecStatus::Violated(AssertId(0)));
            // A1 holds: sampling ran out of time, and says it only sampled.
            assert!(!found.outcome.violations.contains_key(&AssertId(1)));
            assert!(!found.outcome.complete && !found.outcome.exhaustive());
            assert!(found.sampled > 0 && found.samplers == vec![s.name()]);
            let why = Inconclusive::of(&found, &o);
            assert!(
                why.sampled.is_some() && why.budget_ran_out.is_some(),
                "{why:?}"
            );
        }
    }

    #[test]
    fn the_exhaustive_explorer_completes_and_nothing_runs_after_it() {
        let toy = Toy {
            threads: vec![vec![Op::Store(0, 2)], vec![Op::LoadFailIf(0, 1)]],
        };
        let o = options(ConfirmStrategy::Auto);
        let plan = vec![
            Phase {
                explorer: Box::new(Exhaustive { bound: 10 }) as Box<dyn Explorer<Toy>>,
                until: 0.5,
                few_threads: true,
            },
            sampling(ConfirmStrategy::Speed, &o),
        ];
        let t0 = Instant::now();
        let found = run(&toy, plan, &o, &targets(&[0]));
        assert!(found.outcome.exhaustive(), "{:?}", found.outcome);
        assert!(found.outcome.violations.is_empty());
        assert_eq!((found.sampled, found.samplers.len()), (0, 0));
        assert!(t0.elapsed() < Duration::from_millis(300));
        assert_eq!(Inconclusive::of(&found, &o), Inconclusive::default());
    }

    #[test]
    fn the_same_seed_finds_the_same_witness() {
        let toy = Toy {
            threads: vec![
                vec![Op::Store(0, 1), Op::Store(1, 1), Op::Store(0, 2)],
                vec![Op::Store(2, 1), Op::LoadFailIf(0, 1)],
                vec![Op::Store(1, 2), Op::Store(2, 2)],
            ],
        };
        for s in [
            ConfirmStrategy::Speed,
            ConfirmStrategy::Pct,
            ConfirmStrategy::Random,
        ] {
            let witness = |seed| {
                let o = ConfirmOptions { seed, ..options(s) };
                let found = run(&toy, vec![sampling(s, &o)], &o, &targets(&[0]));
                let v = found.outcome.violations[&AssertId(0)].clone();
                (v.choices, v.found_by)
            };
            assert_eq!(witness(3), witness(3));
        }
    }
}
