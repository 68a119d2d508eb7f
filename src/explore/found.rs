//! What one search is given (its [`Budget`]) and what it finds ([`SearchResult`]: the first
//! [`Violation`] of each assertion, counters, why executions were abandoned): shared by every
//! search ([`super::search`], [`super::rvf`], [`super::sample`], [`super::symbolic`]), and why a
//! schedule does not fit the program ([`Misfit`], for every replay).
//!
//! Invariant: a violation holds the schedule that produced it, from the initial state, and
//! the steps that schedule ran; nothing else makes an assertion violated.

use super::{ExecStatus, StepInfo, StepKind, System, Tid};
use crate::ir::AssertId;
use std::collections::BTreeMap;
use std::time::Instant;

/// Why a schedule does not fit the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// The program cannot be executed at all (the interpreter's reason).
    CannotExecute(String),
    /// Step `step` (1-based) comes after the execution ended, as `end` says.
    Ended { step: usize, end: ExecStatus },
    /// Thread `tid` cannot move at step `step`.
    CannotMove { step: usize, tid: Tid },
    /// Step `step` names an alternative its operation does not have.
    NoAlternative { step: usize, alt: usize },
    /// A race witness ends with the two accesses: this one has fewer steps.
    RaceTooShort,
}

/// Budgets of one search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Most executions (maximal schedules, or schedules that end in a known state).
    pub executions: u64,
    /// Most distinct states kept by `Strategy::Cached`.
    pub states: usize,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Count the reads-from and reads-value-from classes of the complete executions (for
    /// measurements; meaningful with `Strategy::Naive`, which completes every execution).
    pub classes: bool,
    /// Random executions (deterministic seed) before the exhaustive search: they reach deep
    /// program points at once, where the depth-first search may spend its budget on the
    /// interleavings of an early part of the program.
    pub random_walks: u64,
    /// Stop at the first execution that was cut or abandoned (a proof by exploration needs
    /// none: `super::proof`), with `complete` false.
    pub stop_at_first_gap: bool,
    /// Most steps of one execution the depth-first search follows (each keeps a state on its
    /// stack); a deeper execution stops the search, with `complete` false.
    pub max_depth: usize,
    /// Most threads of one execution the depth-first search follows (each state branches over
    /// every thread that can move); more stop the search, with `complete` false.
    pub max_threads: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            executions: 1_000_000,
            states: 2_000_000,
            deadline: None,
            classes: false,
            random_walks: 0,
            stop_at_first_gap: false,
            max_depth: usize::MAX,
            max_threads: usize::MAX,
        }
    }
}

/// A schedule that fails an assertion: replaying `choices` from the initial state gives
/// `steps`, and the last step fails `assertion`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The assertion.
    pub assertion: AssertId,
    /// (thread, alternative) of every step.
    pub choices: Vec<(Tid, usize)>,
    /// What each step did.
    pub steps: Vec<StepInfo>,
    /// The name of every thread of the execution, by `Tid`.
    pub threads: Vec<String>,
    /// The loop bound the execution was found with (replay needs at least this one); 0 when
    /// the caller did not say.
    pub bound: u32,
    /// Whether it was found by a sampled run, whose loops that create or join threads are not
    /// bounded (`InterpOptions::thread_loops`): replay runs the same way.
    pub thread_loops: bool,
    /// Which search found it, for people (`exhaustive search (RVF, bound 10)`, `speed run 3,
    /// seed 0x…`); empty when the caller did not say. Replay does not need it: `choices` is
    /// the whole witness.
    pub found_by: String,
}

impl Violation {
    /// Its replayable schedule: every step's (thread, alternative) and the input values it
    /// forces ([`crate::witness::schedule`]).
    pub fn schedule(&self) -> crate::witness::Schedule {
        crate::witness::schedule(self.choices.iter().zip(&self.steps).map(|(&(t, alt), s)| {
            let input = match &s.kind {
                super::StepKind::Input(x) => Some(x.value),
                _ => None,
            };
            (t, alt, input)
        }))
    }
}

impl From<Violation> for crate::witness::Witness {
    fn from(v: Violation) -> Self {
        crate::witness::Witness {
            assertion: v.assertion,
            choices: v.choices,
            steps: v.steps,
            threads: v.threads,
            bound: v.bound,
            thread_loops: v.thread_loops,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The first violation found of each assertion.
    pub violations: BTreeMap<AssertId, Violation>,
    /// Executions explored to an end (or to a state explored before).
    pub executions: u64,
    /// Steps executed.
    pub steps: u64,
    /// Every execution within the bounds was explored.
    pub complete: bool,
    /// Some execution was cut by a loop bound or the step budget.
    pub cut: bool,
    /// Some execution chose a `__VERIFIER_nondet_*` value from the small candidate set (so
    /// not every input was tried).
    pub restricted_inputs: bool,
    /// Why executions were abandoned (unmodelled operations), each with how many were.
    pub unsupported: super::Abandoned,
    /// The most threads an execution created (main included).
    pub threads: usize,
    /// With `Budget::classes`: (reads-from classes, reads-value-from classes) of the complete
    /// executions.
    pub classes: Option<(usize, usize)>,
}

impl SearchResult {
    /// Whether the search covered every execution of the program: complete, never cut,
    /// never abandoned, and without restricted inputs.
    pub fn exhaustive(&self) -> bool {
        self.complete && !self.cut && !self.restricted_inputs && self.unsupported.is_empty()
    }
}

/// Records what an execution that ended with `status` after `path` means: its violation (the
/// first of each assertion), the cut, the reason it was abandoned.
pub(crate) fn record_status<S: System>(
    system: &S,
    state: &S::State,
    status: &ExecStatus,
    path: &[(Tid, usize, StepInfo)],
    out: &mut SearchResult,
) {
    out.threads = out.threads.max(system.thread_count(state));
    match status {
        ExecStatus::Violated(id) => {
            out.violations.entry(*id).or_insert_with(|| {
                let threads = path.iter().map(|(t, _, _)| *t).max().unwrap_or(0);
                Violation {
                    assertion: *id,
                    choices: path.iter().map(|(t, a, _)| (*t, *a)).collect(),
                    steps: path.iter().map(|(_, _, i)| i.clone()).collect(),
                    threads: (0..=threads.max(spawned(path)))
                        .map(|t| system.thread_name(state, t))
                        .collect(),
                    bound: 0,
                    thread_loops: false,
                    found_by: String::new(),
                }
            });
        }
        ExecStatus::Cut => out.cut = true,
        ExecStatus::Unsupported(why) => {
            out.unsupported.insert(why.clone());
        }
        ExecStatus::Running | ExecStatus::Done | ExecStatus::Deadlock | ExecStatus::Discarded => {}
    }
}

/// The largest thread id a step of `path` created.
fn spawned(path: &[(Tid, usize, StepInfo)]) -> Tid {
    path.iter()
        .filter_map(|(_, _, i)| match i.kind {
            StepKind::Spawn { child, .. } => Some(child),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}
