//! `watts confirm`: concrete executions of the program under a controlled scheduler, to turn a
//! `may-fail` into `violated` with the interleaving that breaks the assertion.
//!
//! - `interp`: the concrete interpreter over [`crate::ir`]; implements [`System`].
//! - `search`: exhaustive exploration of a [`System`] (all interleavings, or with visited-state
//!   pruning), bounded by `--bound`.
//! - `found`: what one search is given (its budget) and finds (violations, counters), shared by
//!   every search.
//! - `proof`: proofs by exploration: every execution of a small program, in the interpreter's
//!   exact mode; the assertions none fails are proved.
//! - `rvf`: the reads-value-from (RVF-SMC) and reads-from searches, one execution per class.
//! - `sample`: sampled executions under a seeded scheduler (random, PCT, thread speed control).
//! - `focus`: the few-threads-far sampler (a few focus threads, the others eager or parked).
//! - `strategy`: the strategies of `confirm` behind one `Explorer` trait (exhaustive, samplers)
//!   and the plan `--strategy` makes of them.
//! - `replay`: a recorded schedule run again to the failure it claims (`watts replay`, and the
//!   check of every witness before it is reported).
//! - `abandon`: why executions were abandoned, as data, with their counts.
//! - `symbolic`: symbolic inputs (MPC): solver-proposed inputs and schedule prefixes, run concretely.
//! - `classes`: reads-from and reads-value-from classes of executions, for measurements.
//!
//! Invariant: an assertion is reported violated only with a witness: a schedule that, replayed
//! from the initial state, executes only modelled steps (no unknown value ever decides a branch,
//! an address or an assertion) and fails that assertion.
//!
//! This file defines the `System` trait (initial state, enabled threads, alternatives of a
//! nondeterministic input, `step`: one visible operation and the local code after it),
//! `StepInfo`/`StepKind` (what a witness shows) and `Status`, and `confirm`/`replay`,
//! `race_witness` and `replay_race`. Abandoned executions are counted by reason
//! (`Outcome::unsupported`) and `abandoned_note` names the most common in the report.
//!
//! Whenever a step would need a guess (an unknown value decides a branch, an address, a lock or an
//! assertion; an unknown function may write memory; `unreachable`; a function that may return
//! twice, `setjmp`, or a `longjmp`), the execution is abandoned (`Status::Unsupported`) and no
//! claim is made from it. Restricting behaviour is allowed (malloc succeeds, read locks are
//! exclusive, inputs come from a few candidate values, one address layout, user buffers);
//! over-approximating is not. `watts::run` replays every witness (`replay`) before it makes an
//! assertion `violated`, and drops one that does not fail the same assertion again. The absence of
//! a witness never changes a verdict, except through a proof by exploration (`proof`). Races are
//! confirmed in executions of their own, after the assertions (a race state ends an execution,
//! which must not hide a failing assertion).

pub mod abandon;
pub mod classes;
pub mod focus;
pub mod found;
pub mod interp;
pub mod proof;
pub mod replay;
pub mod rvf;
pub mod sample;
pub mod search;
pub mod strategy;
pub mod symbolic;

use crate::ir::AssertId;

pub use abandon::{Abandon, Abandoned};
pub use found::Misfit;
pub use interp::{Interp, InterpOptions, RaceMemory, RaceTarget};
pub use replay::{race_witness, replay, replay_race, Replayed};
// The steps of an execution are witness data, which the report renders.
pub use crate::witness::{InputValue, StepInfo, StepKind, Tid};

/// How an execution stands after a step.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    /// Some thread can still move.
    Running,
    /// An assertion failed (the last step).
    Violated(AssertId),
    /// Every thread finished, or the process exited.
    Done,
    /// Every live thread waits (a deadlock): no assertion fails later.
    Deadlock,
    /// A loop bound or the step budget was hit: the execution was cut short.
    Cut,
    /// An `__VERIFIER_assume` (or `assume_abort_if_not`) condition was false: the execution
    /// does not count (nothing after it is checked).
    Discarded,
    /// A step needs something the interpreter does not model (an unknown value deciding a
    /// branch, an address or an assertion; a call to an unknown function whose result is used;
    /// floats): the execution is abandoned, and no claim is made about it.
    Unsupported(Abandon),
}

/// A program under a controlled scheduler. A state is a whole execution prefix: memory,
/// every thread's stack, and the status.
pub trait System {
    /// The state of an execution prefix. `Hash + Eq` over everything that determines the
    /// future (memory, threads, bounds counters), so that equal states may be explored once.
    type State: Clone + Eq + std::hash::Hash;

    /// The state before the first step: every global holds its initial value, and `main`
    /// (thread 0) waits at its `Start` pseudo-operation.
    fn initial(&self) -> Self::State;

    /// The status of `s`.
    fn status(&self, s: &Self::State) -> ExecStatus;

    /// The threads whose next visible operation can run in `s` (not blocked on a lock, a join
    /// or another thread's atomic section), in increasing order. Empty unless `status` is
    /// `Running`.
    fn enabled(&self, s: &Self::State) -> Vec<Tid>;

    /// How many alternatives thread `t`'s next operation has in `s` (the candidate values of a
    /// `__VERIFIER_nondet_*`; 1 for every other operation).
    fn alternatives(&self, s: &Self::State, t: Tid) -> usize;

    /// Runs thread `t`'s next visible operation with alternative `alt`, then its local code up
    /// to its next visible operation (or its end). `t` must be enabled and `alt` below
    /// `alternatives`.
    fn step(&self, s: &mut Self::State, t: Tid, alt: usize) -> StepInfo;

    /// A readable name of thread `t` in `s` (`main`, `worker#2`).
    fn thread_name(&self, s: &Self::State, t: Tid) -> String;

    /// Whether thread `t` can move in `s` (`enabled(s).contains(&t)`), at a cost that does not
    /// grow with the other threads (the default builds the list).
    fn ready(&self, s: &Self::State, t: Tid) -> bool {
        self.enabled(s).contains(&t)
    }

    /// Whether thread `t`'s next step in `s` touches nothing another thread sees and has one
    /// alternative (its `Start`: local code up to its first visible operation), so that it
    /// commutes with every step of another thread and stays enabled until taken. The default,
    /// `false`, is always safe.
    fn local_next(&self, s: &Self::State, t: Tid) -> bool {
        let _ = (s, t);
        false
    }

    /// Whether thread `t` will never move again in `s` (finished, or stopped for good); the
    /// default, `false`, is always safe.
    fn done(&self, s: &Self::State, t: Tid) -> bool {
        let _ = (s, t);
        false
    }

    /// Whether thread `t`'s next step ends the process (`main` returning, `exit`); the
    /// default, `false`, is always safe.
    fn ends_process_next(&self, s: &Self::State, t: Tid) -> bool {
        let _ = (s, t);
        false
    }

    /// Whether a thread may ever wait for a mutex or for another thread's atomic section
    /// (then a read may never run in a maximal execution, which the reads-value-from search
    /// must allow for). The default, `true`, is always safe.
    fn may_block(&self) -> bool {
        true
    }

    /// How many threads `s` has created (main included); the reads-value-from search asks
    /// each of them for its [`System::next_op`]. The default, 0, models nothing.
    fn thread_count(&self, s: &Self::State) -> usize {
        let _ = s;
        0
    }

    /// Thread `t`'s next visible operation in `s` as the reads-value-from search models it,
    /// whether or not the thread can move now (a lock held, a join of a live thread, another
    /// thread's atomic section). The default models nothing: that search then gives up.
    fn next_op(&self, s: &Self::State, t: Tid) -> Next {
        let _ = (s, t);
        Next::Op(Op::Opaque("operations of this system".into()))
    }

    /// An encoding of what `loc` holds in `s`: two encodings are equal exactly when a load of
    /// `loc` gives the same value (pointers named by stable object keys, see [`Loc`]).
    fn content(&self, s: &Self::State, loc: &Loc) -> Vec<u8> {
        let _ = (s, loc);
        Vec::new()
    }

    /// The content `loc` had before any visible operation wrote it (the initial value of a
    /// global, the fill of a heap block), or `None` when unknown (a stack object written while
    /// it was still local): such a value then equals no other.
    fn fresh_content(&self, s: &Self::State, loc: &Loc) -> Option<Vec<u8>> {
        let _ = (s, loc);
        None
    }
}

/// A range of bytes of one object, named the same in every execution: `object` is a stable
/// key (a global, or the n-th allocation of a thread), not an allocation order, which depends
/// on the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub object: u64,
    pub offset: i64,
    pub size: u64,
}

impl Loc {
    /// The bit of `object` that marks an object a thread allocated; without it, the object
    /// exists in every execution (a global) and its fresh content is always the same.
    pub const BY_THREAD: u64 = 1 << 63;
}

/// Where a thread stands, for the reads-value-from search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Its next visible operation.
    Op(Op),
    /// It finished (returned from its entry, or `pthread_exit`).
    Finished,
    /// It went past the loop bound and is never scheduled again.
    Cut,
}

/// A visible operation, by what it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Touches nothing other threads see (a thread's start, a nested atomic begin or end, an
    /// operation that ends the execution: an exit, a false assumption, an unmodelled call).
    Local,
    /// A `__VERIFIER_nondet_*` (its alternatives are the values).
    Input,
    /// A load.
    Load(Loc),
    /// A store.
    Store(Loc),
    /// An atomic read-modify-write or compare-exchange (which may not write).
    Update(Loc),
    /// A mutex acquisition (the mutex at that address); also the relock of a condition wait.
    Lock(Loc),
    /// A trylock: acquires the mutex if free, else fails without effect.
    TryLock(Loc),
    /// A mutex release (also the release of a condition wait).
    Unlock(Loc),
    /// `pthread_create`, which also stores the new thread's handle (at `handle`, unless
    /// only the creating thread can see it).
    Spawn { handle: Option<Loc> },
    /// `pthread_join` of thread `child`, which also stores its result (at `result`, unless
    /// null or only the joining thread can see it).
    Join { child: Tid, result: Option<Loc> },
    /// The outermost `__VERIFIER_atomic_begin` of the thread.
    AtomicBegin,
    /// The outermost `__VERIFIER_atomic_end` of the thread.
    AtomicEnd,
    /// Something the event model cannot express (several locations at once, a free): the
    /// reason.
    Opaque(String),
}

/// What `confirm` found.
#[derive(Clone, Debug)]
pub struct Confirmation {
    /// The searches' results, merged: the first violation of each assertion (with the bound
    /// it was found with and who found it), counters summed; `complete` and `cut` are those
    /// of the last exhaustive search (`complete` is false when none ran).
    pub outcome: search::SearchResult,
    /// The loop bound of the last exhaustive search (`--bound` when none ran).
    pub bound: u32,
    /// Executions run by samplers (counted in `outcome.executions` too).
    pub sampled: u64,
    /// Some sampled execution was cut by the loop bound of sampling (this one).
    pub sample_cut: Option<u32>,
    /// The samplers that ran, in the order they first ran (`speed`, `pct`, `random`).
    pub samplers: Vec<&'static str>,
}

/// Explores the executions of `program` until every assertion of `targets` is violated or the
/// budget `options.timeout` runs out, as `options.strategy` says ([`strategy::plan`]).
/// `Err` when the program cannot be executed at all (no `main`).
///
/// `races` are races to confirm as well ([`RaceTarget`]): their ids are among `targets`.
pub fn confirm(
    program: &crate::ir::Program,
    options: &crate::config::ConfirmOptions,
    targets: &std::collections::BTreeSet<AssertId>,
    races: Vec<RaceTarget>,
) -> Result<Confirmation, String> {
    let interp = Interp::new(program, InterpOptions::default())?.with_races(races);
    Ok(strategy::run(
        &interp,
        strategy::plan(options),
        options,
        targets,
    ))
}

/// Why a search that found no failure is not conclusive, as data (the report words it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inconclusive {
    /// The search stopped before it covered every execution: the budget it had.
    pub budget_ran_out: Option<std::time::Duration>,
    /// Some executions of the exhaustive search hit this loop bound.
    pub cut_at: Option<u32>,
    /// Some sampled executions hit this loop bound.
    pub sample_cut_at: Option<u32>,
    /// With an incomplete search: how many executions were sampled, and by which samplers
    /// (in the order they first ran). Soundness: sampling shows failures, never their
    /// absence.
    pub sampled: Option<(u64, Vec<&'static str>)>,
    /// Inputs were taken from a few candidate values.
    pub restricted_inputs: bool,
    /// Why executions were abandoned.
    pub abandoned: Abandoned,
}

impl Inconclusive {
    /// What `found` did not cover, with `options` its budget.
    pub fn of(found: &Confirmation, options: &crate::config::ConfirmOptions) -> Inconclusive {
        let out = &found.outcome;
        Inconclusive {
            budget_ran_out: (!out.complete).then_some(options.timeout),
            cut_at: out.cut.then_some(found.bound),
            sample_cut_at: found.sample_cut,
            sampled: (found.sampled > 0 && !out.complete)
                .then(|| (found.sampled, found.samplers.clone())),
            restricted_inputs: out.restricted_inputs,
            abandoned: out.unsupported.clone(),
        }
    }
}
