//! Few threads far (issue 20): a sampler for programs whose bug needs a few threads and a few
//! steps, however many other threads the program creates (SV-COMP's `28-race_reach_*` tasks
//! create 10,000 threads in a loop; the bug needs `main` and one of them).
//!
//! Each run picks a small *focus*: `main` and at most two other threads (by creation index,
//! among the threads earlier runs saw: the first thread of an entry function, the last thread
//! created, or any), ordered by a random priority. The focus threads run as PCT runs its
//! threads (ASPLOS'10): the ready one of highest priority moves, and at most one *change point*
//! per focus thread drops it below the others; a change point falls right after one of the
//! thread's accesses to shared memory or locks, or right before it ends the process, and is
//! counted in the thread's own accesses, not in the steps of the run: a preemption between
//! two creations of threads changes nothing the focus threads see, and `main`'s 10,000
//! creations do not dilute the few places that matter. Every other thread runs either *eagerly* (when it is
//! created, before the focus threads, to its end or until it blocks: the newest-first
//! schedule) or *parked* (only when no focus thread can move, one at a time, lowest first),
//! as the run draws.
//!
//! The cost of a step is that of the focus threads and the thread that runs, never of the
//! threads that wait or have not started: the scheduler asks [`View`] about the threads it
//! cares about, not for the list of every thread that can move. Runs 0 and 1 are the two
//! deterministic schedules `main` first (every thread parked) and newest first (every thread
//! eager); later runs draw.
//!
//! Invariant: a run is a function of the run index, its seed and what earlier runs saw (the
//! threads, their entry functions, how many accesses each made), as for every
//! [`Scheduler`].
//!
//! Its runs follow loops that create or join threads to their end (`InterpOptions::thread_loops`,
//! witness version 3).

use super::sample::{Choice, Rng, Scheduler, View};
use super::{StepInfo, StepKind, Tid};

pub use crate::limits::{MAX_EAGER, MAX_FOCUS};

/// Where a focus thread drops below the other focus threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// Right after its n-th access to shared memory or a lock (0: before its first step).
    After(u32),
    /// Right before a step that ends the process.
    BeforeExit,
}

/// The few-threads-far sampler (see the module doc).
#[derive(Clone, Debug)]
pub struct Focus {
    rng: Rng,
    // What earlier runs saw.
    /// The entry function of each thread seen, by `Tid` (`main` for thread 0).
    entries: Vec<String>,
    /// The first thread seen of each entry function but `main`'s, in the order they appeared,
    /// and the last one of each, by entry.
    firsts: Vec<Tid>,
    lasts: std::collections::BTreeMap<String, Tid>,
    /// The first two threads of each entry function that has two, in the order they appeared.
    pairs: Vec<(Tid, Tid)>,
    /// The most accesses to shared memory and locks each thread made in a run.
    accesses_seen: Vec<u32>,
    // This run.
    /// The focus threads, highest priority first.
    focus: Vec<Tid>,
    /// The change point of each focus thread, if any (by position in `focus` at reset).
    changes: Vec<(Tid, Change)>,
    /// Whether threads outside the focus run eagerly (else they are parked).
    eager: bool,
    /// The eager threads created and not yet seen blocked or finished, newest last.
    stack: Vec<Tid>,
    /// The parked thread now running to its end or until it blocks.
    current: Option<Tid>,
    /// The parked threads not run yet are those from here on (a thread that has not started
    /// can always move, outside another thread's atomic section).
    frontier: Tid,
    /// Parked threads that ran and were seen blocked, in the order they were seen: looked at
    /// again only when no thread of the frontier can move, so that a step never passes over
    /// every waiting thread while new ones can run.
    waiting: std::collections::VecDeque<Tid>,
    /// Accesses to shared memory and locks of each thread in this run.
    accesses: Vec<u32>,
    /// This run's choices, for people.
    plan: String,
    /// Steps of this run so far, and the work of finding parked threads to run while no focus
    /// or eager thread could move (a step, and one more for each thread looked at).
    steps: u64,
    parked_work: u64,
    /// Whether this run goes on to its end however long the parked threads run (one run in
    /// [`PATIENT_RUNS`]): a failure after `main` joined thousands of threads needs them all.
    patient: bool,
}

pub use crate::limits::{PARKED_TAIL, PATIENT_RUNS};

impl Focus {
    /// A few-threads-far sampler (seeded by `reset`).
    pub fn new() -> Focus {
        Focus {
            rng: Rng::new(0),
            entries: vec!["main".to_string()],
            firsts: Vec::new(),
            lasts: std::collections::BTreeMap::new(),
            pairs: Vec::new(),
            accesses_seen: Vec::new(),
            focus: vec![0],
            changes: Vec::new(),
            eager: false,
            stack: Vec::new(),
            current: None,
            frontier: 0,
            waiting: std::collections::VecDeque::new(),
            accesses: Vec::new(),
            plan: String::new(),
            steps: 0,
            parked_work: 0,
            patient: false,
        }
    }

    /// The focus threads of this run, highest priority first.
    pub fn focus(&self) -> &[Tid] {
        &self.focus
    }

    /// Whether the threads outside the focus run eagerly in this run.
    pub fn eager(&self) -> bool {
        self.eager
    }

    /// A thread to focus on, drawn among the threads seen (not `main`, not in `taken`).
    fn draw_thread(&mut self, taken: &[Tid]) -> Option<Tid> {
        let n = self.entries.len();
        if n <= 1 {
            return None;
        }
        for _ in 0..8 {
            let t = match self.rng.below(4) {
                // The first thread of an entry function (one instance of each first).
                0 | 1 if !self.firsts.is_empty() => self.firsts[self.rng.below(self.firsts.len())],
                // The last thread of an entry function: created late, it has the least to
                // wait for.
                2 if !self.firsts.is_empty() => {
                    let first = self.firsts[self.rng.below(self.firsts.len())];
                    self.lasts
                        .get(&self.entries[first])
                        .copied()
                        .unwrap_or(first)
                }
                _ => 1 + self.rng.below(n - 1),
            };
            if !taken.contains(&t) {
                return Some(t);
            }
        }
        None
    }

    /// The ready focus thread of highest priority, after dropping those whose change point
    /// has come.
    fn focus_pick(&mut self, view: &dyn View) -> Option<Tid> {
        let mut i = 0;
        // Each focus thread drops at most once: the loop ends.
        while i < self.focus.len() {
            let t = self.focus[i];
            if t >= view.threads() || !view.ready(t) {
                i += 1;
                continue;
            }
            let due = self.changes.iter().position(|&(u, c)| {
                u == t
                    && match c {
                        Change::After(n) => self.accesses.get(t).copied().unwrap_or(0) >= n,
                        Change::BeforeExit => view.ends_process_next(t),
                    }
            });
            match due {
                Some(k) => {
                    // The change point: the thread drops below every other focus thread.
                    self.changes.remove(k);
                    self.focus.remove(i);
                    self.focus.push(t);
                }
                None => return Some(t),
            }
        }
        None
    }

    /// A parked thread that can move: the one running, else the lowest not run yet that can,
    /// else the first waiting one that can.
    fn parked_pick(&mut self, view: &dyn View) -> Option<Tid> {
        if let Some(t) = self.current.take() {
            if view.ready(t) {
                self.current = Some(t);
                return Some(t);
            }
            if !view.done(t) {
                self.waiting.push_back(t);
            }
        }
        let n = view.threads();
        while self.frontier < n {
            let t = self.frontier;
            self.frontier += 1;
            self.parked_work += 1;
            if self.focus.contains(&t) || view.done(t) {
                continue;
            }
            if view.ready(t) {
                self.current = Some(t);
                return Some(t);
            }
            self.waiting.push_back(t);
        }
        // Every parked thread has run: the waiting ones, in turn.
        for _ in 0..self.waiting.len() {
            let t = self.waiting.pop_front()?;
            self.parked_work += 1;
            if view.ready(t) {
                self.current = Some(t);
                return Some(t);
            }
            if !view.done(t) {
                self.waiting.push_back(t);
            }
        }
        None
    }

    /// An alternative of a step with `n`: the first (0, for an input) a quarter of the time,
    /// else any.
    fn alternative(&mut self, n: usize) -> usize {
        if n <= 1 || self.rng.below(4) == 0 {
            0
        } else {
            self.rng.below(n)
        }
    }
}

impl Default for Focus {
    fn default() -> Self {
        Focus::new()
    }
}

impl Scheduler for Focus {
    fn name(&self) -> &'static str {
        "focus"
    }

    fn reset(&mut self, run: u64, seed: u64) {
        self.rng = Rng::new(seed);
        self.stack.clear();
        self.current = None;
        self.frontier = 0;
        self.waiting.clear();
        self.accesses.clear();
        self.changes.clear();
        self.steps = 0;
        self.parked_work = 0;
        self.patient = run % PATIENT_RUNS == PATIENT_RUNS - 1;
        self.focus = vec![0];
        match run {
            // `main` first: every other thread runs only when `main` cannot.
            0 => self.eager = false,
            // Newest first: a thread runs to its end (or until it blocks) when created.
            1 => self.eager = true,
            _ => {
                self.eager = self.rng.below(2) == 0;
                let mode = self.rng.below(3);
                if mode == 0 && !self.firsts.is_empty() {
                    // One thread of each entry function (a random few when there are more).
                    let mut firsts = self.firsts.clone();
                    for i in (1..firsts.len()).rev() {
                        let j = self.rng.below(i + 1);
                        firsts.swap(i, j);
                    }
                    self.focus.extend(firsts.into_iter().take(MAX_FOCUS));
                } else if mode == 1 && !self.pairs.is_empty() {
                    // Two threads of one entry function (two instances of a handler).
                    let (a, b) = self.pairs[self.rng.below(self.pairs.len())];
                    self.focus.extend([a, b]);
                } else {
                    let k = 1 + self.rng.below(MAX_FOCUS);
                    for _ in 0..k {
                        if let Some(t) = self.draw_thread(&self.focus.clone()) {
                            self.focus.push(t);
                        }
                    }
                }
                // A random priority order.
                for i in (1..self.focus.len()).rev() {
                    let j = self.rng.below(i + 1);
                    self.focus.swap(i, j);
                }
                // PCT's small depth: one change point per focus thread half the time, else
                // any number up to that.
                let points = if self.rng.below(2) == 0 {
                    self.focus.len()
                } else {
                    self.rng.below(self.focus.len() + 1)
                };
                let mut order = self.focus.clone();
                for i in (1..order.len()).rev() {
                    let j = self.rng.below(i + 1);
                    order.swap(i, j);
                }
                for &t in order.iter().take(points) {
                    let seen = self.accesses_seen.get(t).copied().unwrap_or(0);
                    let k = self.rng.below(seen as usize + 2) as u32;
                    let change = if k == seen + 1 {
                        Change::BeforeExit
                    } else {
                        Change::After(k)
                    };
                    self.changes.push((t, change));
                }
            }
        }
        self.plan = self.plan_text();
    }

    fn pick(&mut self, enabled: &[Choice]) -> (Tid, usize) {
        // The list of every thread that can move is asked for when no thread this scheduler
        // follows can move, or by a system that cannot answer for a single thread.
        let view = Listed(enabled);
        match self.pick_lazy(&view) {
            Some(c) => c,
            None => {
                let c = enabled[0];
                (c.tid, self.alternative(c.alternatives))
            }
        }
    }

    fn pick_lazy(&mut self, view: &dyn View) -> Option<(Tid, usize)> {
        let mut picked = None;
        if self.eager {
            while let Some(&t) = self.stack.last() {
                if view.ready(t) {
                    picked = Some(t);
                    break;
                }
                // Blocked or finished: from now on it runs as a parked thread.
                self.stack.pop();
                if !view.done(t) {
                    self.waiting.push_back(t);
                }
            }
        }
        let t = match picked {
            Some(t) => t,
            None => match self.focus_pick(view) {
                Some(t) => t,
                None => {
                    self.parked_work += 1;
                    self.parked_pick(view)?
                }
            },
        };
        self.steps += 1;
        let alt = self.alternative(view.alternatives(t));
        Some((t, alt))
    }

    fn stepped(&mut self, info: &StepInfo) {
        let t = info.tid;
        if self.accesses.len() <= t {
            self.accesses.resize(t + 1, 0);
        }
        // A thread seen to move is a thread to focus on, even if its creation was not seen
        // (a system whose threads all exist from the start).
        if self.entries.len() <= t {
            self.entries.resize(t + 1, String::new());
        }
        match &info.kind {
            StepKind::Read { .. }
            | StepKind::Write { .. }
            | StepKind::Update { .. }
            | StepKind::Lock(_)
            | StepKind::Unlock(_)
            | StepKind::TryLockFailed(_) => self.accesses[t] += 1,
            StepKind::Spawn { child, entry } => {
                let child = *child;
                if self.entries.len() <= child {
                    self.entries.resize(child + 1, String::new());
                }
                if self.entries[child] != *entry {
                    self.entries[child] = entry.clone();
                    // Threads are numbered by creation: the first of its entry appears first.
                    match self.lasts.get_mut(entry) {
                        Some(last) => {
                            let first = *last;
                            *last = (*last).max(child);
                            if !self.pairs.iter().any(|&(a, _)| self.entries[a] == *entry) {
                                // The thread before it of the entry is its first one.
                                self.pairs.push((first, child));
                            }
                        }
                        None => {
                            self.firsts.push(child);
                            self.lasts.insert(entry.clone(), child);
                        }
                    }
                }
                if self.eager && !self.focus.contains(&child) && child <= MAX_EAGER {
                    self.stack.push(child);
                    // It runs from the stack, not from the frontier of parked threads.
                    self.frontier = self.frontier.max(child + 1);
                }
            }
            _ => {}
        }
    }

    fn few_threads(&self) -> bool {
        true
    }

    fn give_up(&self) -> bool {
        !self.patient && self.parked_work > PARKED_TAIL
    }

    fn finished(&mut self, _steps: u64) {
        if self.accesses_seen.len() < self.accesses.len() {
            self.accesses_seen.resize(self.accesses.len(), 0);
        }
        for (seen, &now) in self.accesses_seen.iter_mut().zip(&self.accesses) {
            *seen = (*seen).max(now);
        }
    }

    fn describe(&self) -> String {
        self.plan.clone()
    }
}

/// A [`View`] of the list of every thread that can move.
struct Listed<'a>(&'a [Choice]);

impl View for Listed<'_> {
    fn threads(&self) -> usize {
        self.0.iter().map(|c| c.tid + 1).max().unwrap_or(0)
    }
    fn ready(&self, t: Tid) -> bool {
        self.0.iter().any(|c| c.tid == t)
    }
    fn done(&self, _: Tid) -> bool {
        false
    }
    fn alternatives(&self, t: Tid) -> usize {
        (self.0.iter())
            .find(|c| c.tid == t)
            .map_or(1, |c| c.alternatives)
    }
    fn ends_process_next(&self, _: Tid) -> bool {
        false
    }
}

impl Focus {
    /// This run's focus, order, change points and mode, in words.
    fn plan_text(&self) -> String {
        let mut parts = vec![format!(
            "focus on thread{} {}",
            if self.focus.len() > 1 { "s" } else { "" },
            (self.focus.iter())
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )];
        for &(t, c) in &self.changes {
            parts.push(match c {
                Change::After(0) => format!("thread {t} yields at once"),
                Change::After(n) => format!("thread {t} yields after {n} accesses"),
                Change::BeforeExit => format!("thread {t} yields before it ends the process"),
            });
        }
        parts.push(
            if self.eager {
                "the others newest first"
            } else {
                "the others when these cannot move"
            }
            .to_string(),
        );
        parts.join(", ")
    }
}
