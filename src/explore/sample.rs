//! Sampled executions: one run of a [`System`] from its initial state to its end, each step
//! chosen by a seeded [`Scheduler`]: uniformly at random ([`Random`]), by probabilistic
//! concurrency testing ([`Pct`], ASPLOS'10) or by thread speed control ([`Speed`], FSE'18).
//! The samplers of `watts confirm` ([`super::strategy`]) run them one after another.
//!
//! Invariant: a run is a function of the system, the scheduler's parameters, the run index and
//! the run seed (no clock, no address, no hash-map order decides a step), and a violation it
//! finds is recorded exactly as the exhaustive searches record theirs: with the (thread,
//! alternative) of every step from the initial state, so that replay needs no seed. Sampling
//! never makes a search complete.
//!
//! `Scheduler`: `reset` per run with the run index and a seed derived from `--seed`, the sampler
//! and the run index; `pick` among the enabled threads and their alternatives; told each step
//! (hence each spawn) and each run's length. `Random` is uniform; `Pct` gives random distinct
//! priorities of at least d and d-1 change points over the longest run so far; `Speed` advances a
//! virtual time by 1/θ per step and runs the smallest first (a thread that was blocked or is new
//! starts at the runnable threads' time), with vectors from Algorithm 1 over `main` and its first
//! two children, then random pairs with log-uniform speeds. `Rng` is a small SplitMix64, no
//! dependency.

use super::found::{record_status, SearchResult};
use super::{ExecStatus, StepInfo, StepKind, System, Tid};
use crate::ir::AssertId;
use std::time::Instant;

/// A small deterministic generator (SplitMix64): the same seed gives the same numbers on every
/// platform and in every version of the dependencies (there are none).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose numbers are determined by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A number in `0..n` (`n > 0`), uniformly (up to a bias below 2^-32 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)`, uniformly.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The SplitMix64 finalizer: a bijection that scrambles every bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of run `run` of the sampler named `name` under the user's `seed` (`--seed`):
/// distinct runs and distinct samplers get unrelated seeds, and the same triple always gets the
/// same one.
pub fn run_seed(seed: u64, name: &str, run: u64) -> u64 {
    let tag = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    mix(mix(seed ^ mix(tag)).wrapping_add(run))
}

/// A thread that can move, and how many alternatives its next step has (the candidate values
/// of an input; 1 for every other step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The thread.
    pub tid: Tid,
    /// How many alternatives its next step has (at least 1).
    pub alternatives: usize,
}

/// Chooses the steps of sampled runs. Threads are named by creation index (`Tid`: 0 is `main`,
/// then in creation order), which is the same in every run.
pub trait Scheduler {
    /// The name used in `--strategy` and in reports (`speed`).
    fn name(&self) -> &'static str;

    /// Prepares the `run`-th run (counted from 0 by the caller) with a fresh seed. Everything
    /// the scheduler decides during that run depends only on `run`, `seed` and what it was
    /// told about earlier runs (their lengths).
    fn reset(&mut self, run: u64, seed: u64);

    /// The (thread, alternative) to run next among `enabled` (non-empty, threads increasing).
    fn pick(&mut self, enabled: &[Choice]) -> (Tid, usize);

    /// The (thread, alternative) to run next, chosen by asking `view` about the threads the
    /// scheduler cares about, without the list of every thread that can move (whose cost grows
    /// with the threads); `None` to be given that list ([`Scheduler::pick`]). It must name a
    /// thread `view` says is ready, and an alternative below its count.
    fn pick_lazy(&mut self, view: &dyn View) -> Option<(Tid, usize)> {
        let _ = view;
        None
    }

    /// The step just picked ran and did `info` (a `Spawn` tells of a new thread).
    fn stepped(&mut self, info: &StepInfo) {
        let _ = info;
    }

    /// The run ended after `steps` steps.
    fn finished(&mut self, steps: u64) {
        let _ = steps;
    }

    /// Whether the scheduler's steps cost nothing per thread that waits or has not started
    /// (it asks [`Scheduler::pick_lazy`] about a few threads): then its runs follow the loops
    /// that create threads to their end (`InterpOptions::thread_loops`).
    fn few_threads(&self) -> bool {
        false
    }

    /// Whether to end this run now, before it ends by itself: what is left of it is not what
    /// the scheduler is after (threads it parked, running one after another). Such a run
    /// counts as an execution and ends with no status.
    fn give_up(&self) -> bool {
        false
    }

    /// What this run's parameters were, for people (`speeds main 1, #1 1/8`); may be empty.
    fn describe(&self) -> String {
        String::new()
    }
}

/// What a scheduler may ask about the state of a run, thread by thread, at a cost that does not
/// grow with the other threads.
pub trait View {
    /// How many threads were created (main included): threads are `0..threads()`.
    fn threads(&self) -> usize;
    /// Whether thread `t` can move now.
    fn ready(&self, t: Tid) -> bool;
    /// Whether thread `t` will never move again (finished, or stopped for good).
    fn done(&self, t: Tid) -> bool;
    /// How many alternatives thread `t`'s next step has (it is ready).
    fn alternatives(&self, t: Tid) -> usize;
    /// Whether thread `t`'s next step ends the process (`main` returning, `exit`).
    fn ends_process_next(&self, t: Tid) -> bool;
}

/// A [`View`] of one state of a system.
struct StateView<'a, S: System> {
    system: &'a S,
    state: &'a S::State,
}

impl<S: System> View for StateView<'_, S> {
    fn threads(&self) -> usize {
        self.system.thread_count(self.state)
    }
    fn ready(&self, t: Tid) -> bool {
        self.system.ready(self.state, t)
    }
    fn done(&self, t: Tid) -> bool {
        self.system.done(self.state, t)
    }
    fn alternatives(&self, t: Tid) -> usize {
        self.system.alternatives(self.state, t).max(1)
    }
    fn ends_process_next(&self, t: Tid) -> bool {
        self.system.ends_process_next(self.state, t)
    }
}

/// Runs one execution of `system` under `scheduler` (already reset) to its end, or until
/// `deadline` (then it is dropped and not counted). Its end is recorded in `out` as the
/// exhaustive searches record theirs; returns the assertion it violated, if that assertion had
/// no violation in `out` before.
pub fn run<S: System>(
    system: &S,
    scheduler: &mut dyn Scheduler,
    deadline: Option<Instant>,
    out: &mut SearchResult,
) -> Option<AssertId> {
    let mut state = system.initial();
    let mut path: Vec<(Tid, usize, StepInfo)> = Vec::new();
    let mut enabled: Vec<Choice> = Vec::new();
    loop {
        let status = system.status(&state);
        if status != ExecStatus::Running {
            let new = match status {
                ExecStatus::Violated(id) if !out.violations.contains_key(&id) => Some(id),
                _ => None,
            };
            out.executions += 1;
            record_status(system, &state, &status, &path, out);
            scheduler.finished(path.len() as u64);
            return new;
        }
        if deadline.is_some_and(|d| path.len() % 64 == 63 && Instant::now() >= d) {
            return None;
        }
        if scheduler.give_up() {
            out.executions += 1;
            out.threads = out.threads.max(system.thread_count(&state));
            scheduler.finished(path.len() as u64);
            return None;
        }
        let view = StateView {
            system,
            state: &state,
        };
        let (t, alt) = match scheduler.pick_lazy(&view) {
            Some((t, alt)) => {
                // Invariant: the scheduler picks among what can move; a bug there must not
                // make a witness that does not replay.
                assert!(
                    view.ready(t) && alt < view.alternatives(t),
                    "{} picked ({t}, {alt}), which cannot move",
                    scheduler.name()
                );
                (t, alt)
            }
            None => {
                enabled.clear();
                enabled.extend(system.enabled(&state).into_iter().map(|t| Choice {
                    tid: t,
                    alternatives: system.alternatives(&state, t).max(1),
                }));
                if enabled.is_empty() {
                    return None;
                }
                let (t, alt) = scheduler.pick(&enabled);
                assert!(
                    enabled.iter().any(|c| c.tid == t && alt < c.alternatives),
                    "{} picked ({t}, {alt}) outside {enabled:?}",
                    scheduler.name()
                );
                (t, alt)
            }
        };
        let info = system.step(&mut state, t, alt);
        out.steps += 1;
        if matches!(info.kind, StepKind::Input(_)) {
            out.restricted_inputs = true;
        }
        scheduler.stepped(&info);
        path.push((t, alt, info));
    }
}

/// A uniformly random alternative of `c`.
fn alternative(rng: &mut Rng, c: &Choice) -> usize {
    rng.below(c.alternatives.max(1))
}

/// Uniformly random scheduling: each step, every thread that can move is equally likely, then
/// every alternative of its step.
#[derive(Clone, Debug)]
pub struct Random {
    rng: Rng,
}

impl Random {
    /// A random scheduler (seeded by `reset`).
    pub fn new() -> Random {
        Random { rng: Rng::new(0) }
    }
}

impl Default for Random {
    fn default() -> Self {
        Random::new()
    }
}

impl Scheduler for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn reset(&mut self, _run: u64, seed: u64) {
        self.rng = Rng::new(seed);
    }

    fn pick(&mut self, enabled: &[Choice]) -> (Tid, usize) {
        let c = enabled[self.rng.below(enabled.len())];
        (c.tid, alternative(&mut self.rng, &c))
    }
}

/// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS'10):
/// every thread gets a distinct random priority at least `depth` when it appears; each step
/// runs the enabled thread of highest priority; at `depth - 1` change points drawn uniformly
/// over the expected run length k, the thread about to run drops to priority i (the i-th
/// point drawn), below every initial priority. A bug of depth d (d ordering constraints) is
/// found by one run with probability at least 1/(n k^(d-1)) for n threads.
#[derive(Clone, Debug)]
pub struct Pct {
    depth: u32,
    rng: Rng,
    /// Invariant: distinct among the threads seen this run; initial ones are `>= depth`.
    priority: Vec<Option<u64>>,
    /// The step (1-based) of each change point; the i-th (0-based) lowers to priority i + 1.
    change_points: Vec<u64>,
    /// Steps picked so far in this run.
    step: u64,
    /// The estimated run length k: the longest run so far, or [`Pct::DEFAULT_LENGTH`] before
    /// any run ended.
    length: u64,
    /// Whether a run ended (so that `length` is measured).
    measured: bool,
}

impl Pct {
    /// The estimated run length before any run ended.
    pub const DEFAULT_LENGTH: u64 = 100;

    /// A PCT scheduler of depth `depth` (at least 1).
    pub fn new(depth: u32) -> Pct {
        Pct {
            depth: depth.max(1),
            rng: Rng::new(0),
            priority: Vec::new(),
            change_points: Vec::new(),
            step: 0,
            length: Pct::DEFAULT_LENGTH,
            measured: false,
        }
    }

    /// The estimated run length k the change points of the next run are drawn over.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The change points of this run (1-based steps), the i-th lowering to priority i + 1.
    pub fn change_points(&self) -> &[u64] {
        &self.change_points
    }

    /// The priority of thread `t` now, if it has one.
    pub fn priority(&self, t: Tid) -> Option<u64> {
        self.priority.get(t).copied().flatten()
    }

    /// Gives thread `t` a random initial priority, distinct from every other's, if it has none.
    fn appear(&mut self, t: Tid) {
        if self.priority.len() <= t {
            self.priority.resize(t + 1, None);
        }
        if self.priority[t].is_some() {
            return;
        }
        loop {
            let p = u64::from(self.depth) + (self.rng.next_u64() >> 16);
            if !self.priority.contains(&Some(p)) {
                self.priority[t] = Some(p);
                return;
            }
        }
    }

    /// The enabled thread of highest priority.
    fn highest(&self, enabled: &[Choice]) -> Choice {
        *enabled
            .iter()
            .max_by_key(|c| self.priority[c.tid])
            .expect("a thread can move")
    }
}

impl Scheduler for Pct {
    fn name(&self) -> &'static str {
        "pct"
    }

    fn reset(&mut self, _run: u64, seed: u64) {
        self.rng = Rng::new(seed);
        self.priority.clear();
        self.step = 0;
        self.change_points.clear();
        // d - 1 distinct points in 1..=k (fewer when the run is expected to be shorter).
        let wanted = (self.depth as usize - 1).min(self.length as usize);
        while self.change_points.len() < wanted {
            let k = 1 + self.rng.below(self.length as usize) as u64;
            if !self.change_points.contains(&k) {
                self.change_points.push(k);
            }
        }
    }

    fn pick(&mut self, enabled: &[Choice]) -> (Tid, usize) {
        self.step += 1;
        for c in enabled {
            self.appear(c.tid);
        }
        if let Some(i) = self.change_points.iter().position(|&k| k == self.step) {
            let t = self.highest(enabled).tid;
            self.priority[t] = Some(i as u64 + 1);
        }
        let c = self.highest(enabled);
        (c.tid, alternative(&mut self.rng, &c))
    }

    fn stepped(&mut self, info: &StepInfo) {
        if let StepKind::Spawn { child, .. } = info.kind {
            self.appear(child);
        }
    }

    fn finished(&mut self, steps: u64) {
        self.length = if self.measured {
            self.length.max(steps)
        } else {
            steps
        }
        .max(1);
        self.measured = true;
    }

    fn describe(&self) -> String {
        format!(
            "depth {}, change points {:?}",
            self.depth, self.change_points
        )
    }
}

/// The speed exponent range of [`Speed`]: speeds go from 2^-K to 1 (FSE'18 uses k = 7).
pub const SPEED_K: u32 = 7;

/// How many basis threads [`Speed`]'s systematic round covers: `main` and the first two
/// threads it creates (FSE'18, |T_s| = 3).
pub const SPEED_BASIS: usize = 3;

/// The systematic round of speed vectors (FSE'18, Algorithm 1): for each unordered pair of the
/// `basis` first threads, one thread at full speed 1 and the other at 2^-1 .. 2^-k, in both
/// orientations; 2k vectors per pair. Each vector gives the speeds of its pair; every other
/// thread gets a random speed when the vector is used.
pub fn algorithm1(basis: usize, k: u32) -> Vec<[(Tid, f64); 2]> {
    let mut vectors = Vec::new();
    for i in 0..basis {
        for j in i + 1..basis {
            for (fast, slow) in [(i, j), (j, i)] {
                for m in 1..=k {
                    vectors.push([(fast, 1.0), (slow, (-f64::from(m)).exp2())]);
                }
            }
        }
    }
    vectors
}

/// Thread speed control (Wen et al., FSE'18), as a virtual-time scheduler: each thread t has a
/// speed θ_t in [2^-k, 1] and a virtual time vt_t that each of its steps advances by 1/θ_t;
/// each step runs the enabled thread of smallest virtual time (ties broken at random), so over
/// a long stretch a thread makes steps in proportion to its speed. A thread that appears, or
/// that was blocked and can move again, starts from the virtual time of the runnable threads
/// (it does not catch up in a burst, as the paper's blocked threads burn no-ops).
///
/// Speed vectors: the runs of the first round follow [`algorithm1`] over the basis threads
/// (`main` and its first two children), every other thread at a uniformly random speed; later
/// runs draw a random pair of the threads seen so far, one at speed 1 and the other at a
/// log-uniform speed, and log-uniform speeds for the rest. Inputs take random alternatives.
#[derive(Clone, Debug)]
pub struct Speed {
    rng: Rng,
    /// The systematic round.
    round: Vec<[(Tid, f64); 2]>,
    /// Speeds fixed for every run (tests, measurements), instead of the vectors.
    fixed: Option<Vec<f64>>,
    /// Whether this run is past the systematic round (other speeds log-uniform).
    later: bool,
    /// The speeds set by this run's vector.
    pair: Vec<(Tid, f64)>,
    /// The most threads a run has had.
    threads_seen: usize,
    /// Invariant: `theta[t] > 0`, `vt[t]` and `was_enabled[t]` exist for every thread seen in
    /// this run.
    theta: Vec<f64>,
    vt: Vec<f64>,
    was_enabled: Vec<bool>,
    /// The virtual time of the last step picked.
    now: f64,
}

impl Speed {
    /// A speed scheduler with the vectors of FSE'18 (k = [`SPEED_K`], [`SPEED_BASIS`] basis
    /// threads).
    pub fn new() -> Speed {
        Speed {
            rng: Rng::new(0),
            round: algorithm1(SPEED_BASIS, SPEED_K),
            fixed: None,
            later: false,
            pair: Vec::new(),
            threads_seen: 0,
            theta: Vec::new(),
            vt: Vec::new(),
            was_enabled: Vec::new(),
            now: 0.0,
        }
    }

    /// A speed scheduler whose every run uses speeds `theta` (by thread; threads beyond it run
    /// at speed 1).
    pub fn fixed(theta: Vec<f64>) -> Speed {
        Speed {
            fixed: Some(theta),
            ..Speed::new()
        }
    }

    /// The speed of thread `t` in this run, if it appeared.
    pub fn speed(&self, t: Tid) -> Option<f64> {
        self.theta.get(t).copied()
    }

    /// The speed vector of this run as set for its pair (systematic or random); other threads
    /// get theirs when they appear.
    pub fn vector(&self) -> &[(Tid, f64)] {
        &self.pair
    }

    /// A random speed in [2^-k, 1]: uniform in the first round (the paper's "uniformly at
    /// random"), log-uniform later (so that slow threads are as likely as fast ones).
    fn random_speed(&mut self) -> f64 {
        let low = (-f64::from(SPEED_K)).exp2();
        if self.later {
            (-f64::from(SPEED_K) * self.rng.unit()).exp2()
        } else {
            low + (1.0 - low) * self.rng.unit()
        }
    }

    /// Thread `t` appears at virtual time `at`.
    fn appear(&mut self, t: Tid, at: f64) {
        while self.theta.len() <= t {
            let u = self.theta.len();
            let speed = match &self.fixed {
                Some(f) => f.get(u).copied().unwrap_or(1.0),
                None => match self.pair.iter().find(|(p, _)| *p == u) {
                    Some(&(_, s)) => s,
                    None => self.random_speed(),
                },
            };
            self.theta.push(speed);
            self.vt.push(at);
            self.was_enabled.push(false);
        }
    }
}

/// A speed for people: `1`, `1/8`, `2^-4.3`.
fn speed_text(s: f64) -> String {
    let e = -s.log2();
    if (e - e.round()).abs() < 1e-9 {
        match e.round() as i64 {
            0 => "1".to_string(),
            e => format!("1/{}", 1u64 << e.clamp(0, 63)),
        }
    } else {
        format!("2^-{e:.1}")
    }
}

impl Default for Speed {
    fn default() -> Self {
        Speed::new()
    }
}

impl Scheduler for Speed {
    fn name(&self) -> &'static str {
        "speed"
    }

    fn reset(&mut self, run: u64, seed: u64) {
        self.rng = Rng::new(seed);
        self.theta.clear();
        self.vt.clear();
        self.was_enabled.clear();
        self.now = 0.0;
        self.later = run >= self.round.len() as u64;
        self.pair = match self.round.get(run as usize) {
            Some(v) => v.to_vec(),
            None => {
                let n = self.threads_seen.max(2);
                let a = self.rng.below(n);
                let b = (a + 1 + self.rng.below(n - 1)) % n;
                let slow = (-f64::from(SPEED_K) * self.rng.unit()).exp2();
                vec![(a, 1.0), (b, slow)]
            }
        };
    }

    fn pick(&mut self, enabled: &[Choice]) -> (Tid, usize) {
        let newest = enabled.iter().map(|c| c.tid).max().unwrap_or(0);
        let now = self.now;
        self.appear(newest, now);
        // The virtual time of the threads that could already move at the last step.
        let runnable = enabled
            .iter()
            .filter(|c| self.was_enabled[c.tid])
            .map(|c| self.vt[c.tid])
            .fold(f64::INFINITY, f64::min);
        let floor = if runnable.is_finite() { runnable } else { now };
        for w in self.was_enabled.iter_mut() {
            *w = false;
        }
        for c in enabled {
            if !self.was_enabled[c.tid] && self.vt[c.tid] < floor {
                // It was blocked (or is new): it does not catch up in a burst.
                self.vt[c.tid] = floor;
            }
            self.was_enabled[c.tid] = true;
        }
        let least = enabled
            .iter()
            .map(|c| self.vt[c.tid])
            .fold(f64::INFINITY, f64::min);
        // Ties (within rounding) are broken at random.
        let tied: Vec<&Choice> = enabled
            .iter()
            .filter(|c| self.vt[c.tid] <= least + 1e-9)
            .collect();
        let c = *tied[self.rng.below(tied.len())];
        self.now = self.vt[c.tid];
        self.vt[c.tid] += 1.0 / self.theta[c.tid];
        (c.tid, alternative(&mut self.rng, &c))
    }

    fn stepped(&mut self, info: &StepInfo) {
        if let StepKind::Spawn { child, .. } = info.kind {
            let now = self.now;
            self.appear(child, now);
        }
    }

    fn finished(&mut self, _steps: u64) {
        self.threads_seen = self.threads_seen.max(self.theta.len());
    }

    fn describe(&self) -> String {
        let speeds: Vec<String> = self
            .pair
            .iter()
            .map(|&(t, s)| format!("thread {t} at speed {}", speed_text(s)))
            .collect();
        speeds.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::search::replay;
    use crate::explore::search::tests::{Op, Toy};

    /// The (thread, alternative) of every step of run `run` of `scheduler` with `seed`, and the
    /// end status.
    fn schedule(
        toy: &Toy,
        scheduler: &mut dyn Scheduler,
        run: u64,
        seed: u64,
    ) -> (Vec<(Tid, usize)>, ExecStatus) {
        scheduler.reset(run, seed);
        let mut state = toy.initial();
        let mut picks = Vec::new();
        while toy.status(&state) == ExecStatus::Running {
            let enabled: Vec<Choice> = toy
                .enabled(&state)
                .into_iter()
                .map(|t| Choice {
                    tid: t,
                    alternatives: toy.alternatives(&state, t).max(1),
                })
                .collect();
            let (t, alt) = scheduler.pick(&enabled);
            let info = toy.step(&mut state, t, alt);
            scheduler.stepped(&info);
            picks.push((t, alt));
        }
        scheduler.finished(picks.len() as u64);
        (picks, toy.status(&state))
    }

    /// `n` threads of `len` stores each, with inputs among them.
    fn busy(n: usize, len: usize) -> Toy {
        let thread = |t: usize| -> Vec<Op> {
            (0..len)
                .map(|i| {
                    if i % 5 == 4 {
                        Op::Input
                    } else {
                        Op::Store(t % 3, i as i64)
                    }
                })
                .collect()
        };
        Toy {
            threads: (0..n).map(thread).collect(),
        }
    }

    fn schedulers() -> Vec<Box<dyn Scheduler>> {
        vec![
            Box::new(Random::new()),
            Box::new(Pct::new(3)),
            Box::new(Speed::new()),
        ]
    }

    #[test]
    fn the_same_seed_gives_the_same_schedule_and_others_differ() {
        let toy = busy(3, 30);
        for mut s in schedulers() {
            for run in [0, 5, 100] {
                let seed = run_seed(7, s.name(), run);
                let (a, _) = schedule(&toy, s.as_mut(), run, seed);
                let (b, _) = schedule(&toy, s.as_mut(), run, seed);
                assert_eq!(a, b, "{} run {run}", s.name());
                assert_eq!(a.len(), 90);
                let name = s.name();
                let others: BTreeSet<Vec<(Tid, usize)>> = (0..8)
                    .map(|x| schedule(&toy, s.as_mut(), run, run_seed(x, name, run)).0)
                    .collect();
                assert!(
                    others.len() >= 4,
                    "{} run {run}: {}",
                    s.name(),
                    others.len()
                );
            }
        }
        // Run seeds: distinct per run, per sampler and per user seed.
        let seeds: BTreeSet<u64> = ["speed", "pct", "random"]
            .iter()
            .flat_map(|n| (0..2).flat_map(move |s| (0..50).map(move |r| run_seed(s, n, r))))
            .collect();
        assert_eq!(seeds.len(), 3 * 2 * 50);
    }

    use std::collections::BTreeSet;

    #[test]
    fn algorithm1_gives_42_distinct_vectors_for_3_basis_threads() {
        let vectors = algorithm1(3, 7);
        assert_eq!(vectors.len(), 42);
        let distinct: BTreeSet<[(Tid, u64); 2]> = vectors
            .iter()
            .map(|v| [(v[0].0, v[0].1.to_bits()), (v[1].0, v[1].1.to_bits())])
            .collect();
        assert_eq!(distinct.len(), 42);
        for [(fast, one), (slow, s)] in &vectors {
            assert!(fast != slow && *fast < 3 && *slow < 3);
            assert_eq!(*one, 1.0);
            let m = -s.log2();
            assert!((1.0..=7.0).contains(&m) && m.fract() == 0.0, "{s}");
        }
        // Every unordered pair, both orientations, every exponent.
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            for (f, w) in [(a, b), (b, a)] {
                let ms: BTreeSet<i32> = vectors
                    .iter()
                    .filter(|v| v[0].0 == f && v[1].0 == w)
                    .map(|v| -v[1].1.log2() as i32)
                    .collect();
                assert_eq!(ms, (1..=7).collect());
            }
        }
        assert_eq!(algorithm1(2, 7).len(), 14);
    }

    #[test]
    fn speed_runs_the_round_then_random_pairs() {
        let toy = busy(4, 10);
        let mut s = Speed::new();
        let round = algorithm1(SPEED_BASIS, SPEED_K);
        for (run, v) in round.iter().enumerate() {
            schedule(&toy, &mut s, run as u64, run as u64);
            assert_eq!(s.vector(), &v[..]);
            // The pair runs at its speeds; the others got random speeds in [2^-7, 1].
            for &(t, theta) in v {
                assert_eq!(s.speed(t), Some(theta));
            }
            for t in 0..4 {
                let theta = s.speed(t).expect("appeared");
                assert!((1.0 / 128.0..=1.0).contains(&theta), "{theta}");
            }
        }
        // Later runs: a random pair among the 4 threads seen, one at full speed.
        let mut pairs = BTreeSet::new();
        for run in 42..142u64 {
            schedule(&toy, &mut s, run, run_seed(0, "speed", run));
            let v = s.vector();
            assert_eq!(v.len(), 2);
            assert_eq!(v[0].1, 1.0);
            assert!(v[1].1 >= 1.0 / 128.0 && v[1].1 <= 1.0);
            pairs.insert((v[0].0, v[1].0));
        }
        assert!(pairs.len() >= 10, "{pairs:?}");
        assert!(pairs.iter().any(|&(a, b)| a == 3 || b == 3));
    }

    #[test]
    fn speed_makes_threads_step_in_proportion_to_their_speeds() {
        // θ = (1, 1/8): while both can move, the fast thread makes about 8 steps per step of
        // the slow one.
        let toy = busy(2, 400);
        let mut s = Speed::fixed(vec![1.0, 0.125]);
        for seed in 0..5 {
            let (picks, _) = schedule(&toy, &mut s, 0, seed);
            let prefix = &picks[..360];
            let slow = prefix.iter().filter(|(t, _)| *t == 1).count();
            let fast = prefix.len() - slow;
            let ratio = fast as f64 / slow as f64;
            assert!((7.5..=8.5).contains(&ratio), "{fast}/{slow}");
            // And the slow thread is never starved for long.
            let longest = prefix
                .split(|(t, _)| *t == 1)
                .map(<[_]>::len)
                .max()
                .unwrap_or(0);
            assert!(longest <= 9, "{longest}");
        }
        assert_eq!(
            [speed_text(1.0), speed_text(0.125), speed_text(0.3)],
            ["1", "1/8", "2^-1.7"]
        );
        // Equal speeds alternate.
        let mut s = Speed::fixed(vec![1.0, 1.0]);
        let (picks, _) = schedule(&toy, &mut s, 0, 3);
        let zeros = picks[..100].iter().filter(|(t, _)| *t == 0).count();
        assert_eq!(zeros, 50);
    }

    #[test]
    fn a_thread_that_was_blocked_does_not_catch_up_in_a_burst() {
        // t1 waits for t0 (a join), then both... t2 runs all along at the same speed as t1:
        // once t1 can move, the two alternate rather than t1 running alone.
        let toy = Toy {
            threads: vec![
                vec![Op::Store(0, 1); 20],
                std::iter::once(Op::Join(0))
                    .chain(std::iter::repeat_n(Op::Store(1, 1), 40))
                    .collect(),
                vec![Op::Store(2, 1); 80],
            ],
        };
        let mut s = Speed::fixed(vec![1.0, 1.0, 1.0]);
        let (picks, _) = schedule(&toy, &mut s, 0, 1);
        let joined = picks.iter().position(|&(t, _)| t == 1).expect("t1 moves");
        let after = &picks[joined..joined + 40];
        let t1 = after.iter().filter(|(t, _)| *t == 1).count();
        assert!((18..=22).contains(&t1), "{t1} of 40: {after:?}");
    }

    #[test]
    fn pct_priorities_and_change_points() {
        let toy = busy(3, 20);
        // Depth 1: no change point, so each thread runs to its end in priority order.
        let mut p = Pct::new(1);
        let (picks, _) = schedule(&toy, &mut p, 0, 11);
        assert!(p.change_points().is_empty());
        let order: Vec<Tid> = picks.chunks(20).map(|c| c[0].0).collect();
        for (i, c) in picks.chunks(20).enumerate() {
            assert!(c.iter().all(|(t, _)| *t == order[i]), "{picks:?}");
        }
        let mut by_priority = order.clone();
        by_priority.sort_by_key(|&t| std::cmp::Reverse(p.priority(t)));
        assert_eq!(order, by_priority);
        // The run length estimate is the longest run.
        assert_eq!(p.length(), 60);
        let long = busy(3, 60);
        schedule(&long, &mut p, 1, 12);
        assert_eq!(p.length(), 180);
        schedule(&toy, &mut p, 2, 13);
        assert_eq!(p.length(), 180);
        assert_eq!(Pct::new(2).length(), Pct::DEFAULT_LENGTH);
        // Depth 3: two distinct change points within the estimate; initial priorities are
        // distinct and at least 3; at the i-th point the running thread drops to i.
        let mut p = Pct::new(3);
        for seed in 0..50 {
            p.reset(0, seed);
            let points = p.change_points().to_vec();
            assert_eq!(points.len(), 2);
            assert_ne!(points[0], points[1]);
            assert!(points
                .iter()
                .all(|&k| (1..=Pct::DEFAULT_LENGTH).contains(&k)));
            let (picks, _) = {
                let mut state = toy.initial();
                let mut picks = Vec::new();
                while toy.status(&state) == ExecStatus::Running {
                    let enabled: Vec<Choice> = toy
                        .enabled(&state)
                        .into_iter()
                        .map(|t| Choice {
                            tid: t,
                            alternatives: toy.alternatives(&state, t),
                        })
                        .collect();
                    let (t, alt) = p.pick(&enabled);
                    let step = picks.len() as u64 + 1;
                    if step == 1 {
                        let initial: BTreeSet<u64> =
                            (0..3).map(|t| p.priority(t).expect("seen")).collect();
                        let lowered = points.contains(&1) as usize;
                        assert_eq!(initial.len(), 3);
                        assert!(initial.iter().filter(|&&q| q >= 3).count() >= 3 - lowered);
                    }
                    if let Some(i) = points.iter().position(|&k| k == step) {
                        // The thread that ran before the change (if it can still move) was
                        // the one lowered, unless it is the only one that can move.
                        let lowered: Vec<Tid> = (0..3)
                            .filter(|&u| p.priority(u) == Some(i as u64 + 1))
                            .collect();
                        assert_eq!(lowered.len(), 1, "seed {seed} step {step}");
                        let above = enabled
                            .iter()
                            .any(|c| c.tid != lowered[0] && p.priority(c.tid) > Some(i as u64 + 1));
                        if above {
                            assert_ne!(lowered[0], t, "seed {seed}: the lowered thread ran");
                        }
                    }
                    toy.step(&mut state, t, alt);
                    picks.push((t, alt));
                }
                (picks, ())
            };
            assert_eq!(picks.len(), 60);
        }
    }

    #[test]
    fn every_scheduler_finds_the_bug_with_a_replayable_schedule() {
        // t0: x = 1; x = 2.   t1: fail if x == 1.
        let toy = Toy {
            threads: vec![
                vec![Op::Store(0, 1), Op::Store(0, 2)],
                vec![Op::LoadFailIf(0, 1)],
            ],
        };
        for mut s in schedulers() {
            let mut out = SearchResult::default();
            let mut found = None;
            for r in 0..50 {
                s.reset(r, run_seed(0, s.name(), r));
                if let Some(id) = run(&toy, s.as_mut(), None, &mut out) {
                    found = Some((r, id));
                    break;
                }
            }
            let (_, id) = found.unwrap_or_else(|| panic!("{} found nothing", s.name()));
            let v = &out.violations[&id];
            let (end, steps) = replay(&toy, &v.choices).expect("replays");
            assert_eq!(toy.status(&end), ExecStatus::Violated(id));
            assert_eq!(steps, v.steps);
            assert!(!out.complete, "sampling never completes a search");
        }
    }

    #[test]
    fn no_scheduler_violates_an_assertion_that_holds() {
        let toy = Toy {
            threads: vec![vec![Op::Store(0, 2)], vec![Op::LoadFailIf(0, 1)]],
        };
        for mut s in schedulers() {
            let mut out = SearchResult::default();
            for r in 0..100 {
                s.reset(r, run_seed(0, s.name(), r));
                assert_eq!(run(&toy, s.as_mut(), None, &mut out), None);
            }
            assert!(out.violations.is_empty() && !out.complete);
            assert_eq!(out.executions, 100);
        }
    }
}
