//! The analysis: the per-thread worklist interpreter and the thread-modular fixpoint, and the
//! verdict of every assertion.
//!
//! Invariant: `proved` is reported only when no abstract state of any thread reaches the
//! assertion's failure; whatever is not modelled was over-approximated, never skipped.
//!
//! - `sync/`: synchronisation facts of the threads found so far, over `threads::Thread` (no
//!   domain).
//! - `engine/`: the abstract interpreter of one thread (transfer functions, worklist, replay).
//! - `compose/`: the thread-modular fixpoint and the four modes' ways of reading interference.
//! - `races/`: the data-race check, over a fixpoint's reached nodes and the synchronisation facts.
//! - `verdict`, `invariants`: from fixpoints to verdicts and notes (`verdict` calls `races::find`),
//!   or to per-line ranges; `progress`: where a long fixpoint is. Each part names only the parts
//!   before it in this list (`progress` below them all; tests/layering.rs).
//!
//! This file holds the public result types (`Status`, `AssertVerdict`, `Outcome`, `Flow`, `Note`,
//! `NamedRange`) and `analyze`, which picks the domain. A program without an assertion that may run
//! (none, or only in functions that no call or creation reaches from `main` or a detached root:
//! `verdict::assertion_may_run`) runs the flow-insensitive fixpoint only (nothing to report but
//! notes and "unreachable", which it finds as well). A budget that runs out yields `may-fail` with
//! a reason.

pub mod compose;
pub mod engine;
pub mod invariants;
pub mod progress;
pub mod races;
pub mod sync;
#[cfg(test)]
pub(crate) mod testing;
mod verdict;

use crate::config::{Config, DomainKind};
use crate::error::InputError;
use crate::ir::{AssertId, CInt, Program, Span};
use watts_domains::Interval;

/// The range of a named value where it is shown (an assertion that may fail, a line of
/// `watts invariants`), with the C type its values are shown in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedRange {
    /// The source name (`x`, `dev.count`).
    pub name: String,
    /// Its values, in the analysis' form (an interval of the signed reading of its width).
    pub range: Interval,
    /// The C type its values are shown in; `None` when it is not an integer (the range is
    /// shown as the analysis holds it).
    pub ty: Option<CInt>,
}

impl NamedRange {
    /// Joins `range` of type `ty` into it: the type becomes one in which both are shown
    /// soundly (`CInt::join`).
    pub fn join(&mut self, range: &Interval, ty: Option<CInt>) {
        watts_domains::Lattice::join_with(&mut self.range, range);
        self.ty = match (self.ty, ty) {
            (Some(a), Some(b)) => Some(a.join(b)),
            _ => None,
        };
    }
}

/// The verdict of one assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// No execution reaches the assertion with a false condition.
    Proved,
    /// No execution reaches the assertion at all.
    Unreachable,
    /// The analysis could not exclude a failure.
    MayFail,
    /// A concrete execution fails it (needs a witness; not produced yet).
    Violated,
}

impl Status {
    /// The name used in JSON and listings.
    pub fn name(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::Unreachable => "unreachable",
            Status::MayFail => "may-fail",
            Status::Violated => "violated",
        }
    }
}

/// What the analysis concluded about one assertion site.
#[derive(Clone, Debug)]
pub struct AssertVerdict {
    /// Which assertion.
    pub id: AssertId,
    /// The verdict.
    pub status: Status,
    /// Why, in one sentence (`"the condition holds in every state of threads main, t1"`).
    pub reason: String,
    /// Values of the condition's named variables where it may fail (empty otherwise).
    pub values: Vec<NamedRange>,
    /// Names of the threads in which the assertion is reachable.
    pub threads: Vec<String>,
    /// For a may-fail assertion in a flow-sensitive mode: one combination of store-to-load
    /// flows under which the failure is reached (empty otherwise).
    pub explanation: Vec<Flow>,
    /// Interference combinations pruned as infeasible for the threads that reach it.
    pub pruned: usize,
    /// For a violated assertion: the execution that fails it (`--confirm`).
    pub witness: Option<crate::explore::witness::Witness>,
    /// For a violated assertion: which search of `--confirm` found the execution
    /// (`speed sampling, run 3 of seed 0`).
    pub found_by: Option<String>,
}

/// One store-to-load flow of an explanation: a load of the failing thread read a store of
/// another thread (or its own state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Where the load is.
    pub load: Option<Span>,
    /// Where the store it read is (`None`: the thread's own state, or the initial value).
    pub store: Option<Span>,
    /// The thread of the store (`None`: the thread's own state).
    pub store_thread: Option<String>,
    /// The name of the location (`dev.count`, `x`).
    pub location: String,
}

/// Something the user should know about how the program was modelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Where, if it has a position.
    pub span: Option<Span>,
    /// The message (`"call to unknown function `foo`: it may change ..."`).
    pub message: String,
}

/// Counters of one run (the `stats` object of the JSON output).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Threads analysed (main included; a multi-instance thread counts once).
    pub threads: usize,
    /// Rounds of the thread-modular fixpoint.
    pub iterations: usize,
    /// Interference combinations analysed (flow-sensitive modes).
    pub combinations: usize,
    /// Combinations pruned as infeasible.
    pub infeasible: usize,
    /// Feasibility queries asked of the Datalog rules.
    pub datalog_queries: usize,
    /// Combinations enumerated before pruning.
    pub enumerated: usize,
    /// Threads whose combinations exceeded `--max-combinations` and were joined instead.
    pub budget_fallbacks: usize,
    /// Milliseconds spent in the Datalog oracle.
    pub datalog_ms: u64,
    /// Executions explored by `--confirm` (0 without it).
    pub executions: u64,
}

/// The result of analysing a program.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// One verdict per assertion, indexed like `Program::asserts`.
    pub verdicts: Vec<AssertVerdict>,
    /// Modelling notes (unknown functions, unsupported instructions, budgets hit).
    pub notes: Vec<Note>,
    /// Counters.
    pub stats: Stats,
    /// The data races, when they were checked (`--check race`).
    pub races: Option<races::RaceCheck>,
    /// The invariants of every line per thread, from the verdicts' own fixpoints, when
    /// `Config::invariants` asked for them (`--html`).
    pub invariants: Option<invariants::Invariants>,
}

/// Analyses `program` in the mode and domain of `config`.
pub fn analyze(program: &Program, config: &Config) -> Result<Outcome, InputError> {
    match config.domain {
        DomainKind::Interval => {
            verdict::analyze_with::<watts_domains::IntervalEnv>(program, config)
        }
        DomainKind::Octagon => verdict::analyze_with::<watts_domains::OctagonEnv>(program, config),
    }
}
