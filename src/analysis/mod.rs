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
mod runs;
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

/// What the analysis concluded about one assertion: its own verdict, which knows nothing of
/// executions (`--confirm` adds those above the analysis, in `crate::verdicts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssertVerdict {
    /// No execution reaches the assertion with a false condition: it holds in every state
    /// of every thread that reaches it.
    Proved {
        /// Proved only by the run with lock protection (`runs::runs`).
        lock_protection: bool,
    },
    /// No execution reaches the assertion at all.
    Unreachable {
        /// Shown unreachable only by the run with lock protection.
        lock_protection: bool,
    },
    /// The analysis could not exclude a failure, for this reason.
    MayFail(Reason),
}

impl AssertVerdict {
    /// Whether the assertion is proved or unreachable (it never fails).
    pub fn holds(&self) -> bool {
        matches!(
            self,
            AssertVerdict::Proved { .. } | AssertVerdict::Unreachable { .. }
        )
    }

    /// Whether the analysis could not exclude a failure.
    pub fn may_fail(&self) -> bool {
        matches!(self, AssertVerdict::MayFail(_))
    }
}

/// Why the analysis could not exclude that an assertion fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// Some abstract state reaches the failure (the call, for `reach_error`): in the threads
    /// of `only_in`, or in every thread that reaches it when `only_in` is empty.
    CannotExclude {
        /// A `reach_error` call (reached), rather than a condition (false).
        reach_error: bool,
        /// The threads in which it may fail, when not all that reach it.
        only_in: Vec<String>,
    },
    /// The fixpoint went past the memory budget (`--max-memory`, in bytes) before it ended.
    OverMemory {
        /// The budget.
        budget: usize,
    },
    /// The fixpoint stopped before its end (round budget exhausted).
    StoppedEarly,
    /// The analysis did not finish within the `--timeout`.
    TimedOut {
        /// The timeout.
        budget: std::time::Duration,
    },
}

/// What the analysis concluded about one assertion site.
#[derive(Clone, Debug)]
pub struct AssertResult {
    /// Which assertion.
    pub id: AssertId,
    /// The verdict, with why.
    pub verdict: AssertVerdict,
    /// Values of the condition's named variables where it may fail (empty otherwise).
    pub values: Vec<NamedRange>,
    /// Names of the threads in which the assertion is reachable.
    pub threads: Vec<String>,
    /// For a may-fail assertion in a flow-sensitive mode: one combination of store-to-load
    /// flows under which the failure is reached (empty otherwise).
    pub explanation: Vec<Flow>,
    /// Interference combinations pruned as infeasible for the threads that reach it.
    pub pruned: usize,
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
    /// What.
    pub kind: NoteKind,
}

impl Note {
    /// A note without a position.
    pub fn new(kind: NoteKind) -> Note {
        Note { span: None, kind }
    }
}

/// What a note of the analysis says, as data (the report words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A called function has no definition: a call may change any memory it can reach and
    /// return any value.
    Undefined(crate::ir::FuncId),
    /// A function is not inlined (recursion, a call through a pointer, the size budget): it
    /// is analysed once from an unknown state.
    NotInlined(crate::ir::FuncId),
    /// The threads perform `events` memory and thread operations, more than the
    /// happens-before rules are checked on (`limit`): no combination was ruled out by them.
    OracleTooBig {
        /// Operations of the threads.
        events: usize,
        /// The most the rules are checked on.
        limit: usize,
    },
    /// A thread has more interference combinations than `--max-combinations`: its shared
    /// loads read the join of all stores instead.
    CombinationsJoined {
        /// The thread.
        thread: String,
    },
    /// An instruction is not modelled (any value assumed), for this reason of the front end.
    Havoc(String),
    /// The race check assumes that these functions without a definition access only what
    /// their arguments point to, during the call, and keep no pointer.
    RacesAssume(Vec<String>),
    /// The race check ran these functions, which the program hands to code outside it, in the
    /// program's own threads only (`--callbacks-anywhere` runs them in any thread).
    CallbacksInProgramThreads(Vec<String>),
    /// The fixpoint went past the memory budget (`--max-memory`, in bytes) and stopped.
    StoppedOverMemory {
        /// The budget.
        budget: usize,
    },
    /// The fixpoint stopped after `rounds` rounds without reaching its end.
    StoppedAfterRounds {
        /// Rounds run.
        rounds: usize,
    },
    /// The mode went past the memory budget: the verdicts are the flow-insensitive mode's.
    Degraded {
        /// The mode asked for.
        mode: crate::config::Mode,
        /// The budget, in bytes.
        budget: usize,
    },
    /// The analysis did not finish within the `--timeout`: every assertion is reported as
    /// may fail.
    TimedOut {
        /// The timeout.
        budget: std::time::Duration,
    },
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
}

/// The result of analysing a program.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// One result per assertion, indexed like `Program::asserts`.
    pub verdicts: Vec<AssertResult>,
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
pub fn analyze(program: &Program, config: &Config) -> Result<Analysis, InputError> {
    match config.domain {
        DomainKind::Interval => {
            verdict::analyze_with::<watts_domains::IntervalEnv>(program, config)
        }
        DomainKind::Octagon => verdict::analyze_with::<watts_domains::OctagonEnv>(program, config),
    }
}
