//! `watts confirm`: concrete executions of the program under a controlled scheduler, to turn a
//! `may-fail` into `violated` with the interleaving that breaks the assertion.
//!
//! - `interp`: the concrete interpreter over [`crate::ir`]; implements [`System`].
//! - `search`: exhaustive exploration of a [`System`] (all interleavings, or with visited-state
//!   pruning), bounded by `--bound`.
//! - `proof`: proofs by exploration: every execution of a small program, in the interpreter's
//!   exact mode; the assertions none fails are proved.
//! - `rvf`: the reads-value-from (RVF-SMC) and reads-from searches, one execution per class.
//! - `sample`: sampled executions under a seeded scheduler (random, PCT, thread speed control).
//! - `focus`: the few-threads-far sampler (a few focus threads, the others eager or parked).
//! - `strategy`: the strategies of `confirm` behind one `Explorer` trait (exhaustive, samplers)
//!   and the plan `--strategy` makes of them.
//! - `witness`: the schedule of a violation, as data (JSON) and as a diagnostic; replay.
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

pub mod classes;
pub mod focus;
pub mod interp;
pub mod proof;
pub mod rvf;
pub mod sample;
pub mod search;
pub mod strategy;
pub mod symbolic;
pub mod witness;

use crate::ir::{AssertId, Span};

pub use interp::{Interp, InterpOptions, RaceMemory, RaceTarget};

/// A thread of one execution: 0 is `main`, then in creation order.
pub type Tid = usize;

/// One scheduling step as the witness shows it: the visible operation a thread executed
/// (local steps that followed it up to its next visible operation are not listed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StepInfo {
    /// The thread that moved.
    pub tid: Tid,
    /// Where the visible operation is in the source, if known.
    pub span: Option<Span>,
    /// What it did.
    pub kind: StepKind,
}

/// The visible operation of a step. Locations are named as the user wrote them (`x`,
/// `t[2]`, `dev.count`, `heap@f.c:12+4`); values are the integers read or written (pointers
/// are shown as `&name+offset`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StepKind {
    /// A load of shared memory.
    Read { loc: String, value: String },
    /// A store to shared memory.
    Write { loc: String, value: String },
    /// An atomic read-modify-write (or a successful or failed compare-exchange).
    Update {
        loc: String,
        read: String,
        written: Option<String>,
    },
    /// `pthread_mutex_lock` and friends (the lock's name).
    Lock(String),
    /// `pthread_mutex_unlock` and friends.
    Unlock(String),
    /// `pthread_create`: the new thread and its entry function.
    Spawn { child: Tid, entry: String },
    /// `pthread_join` of that thread returned.
    Join(Tid),
    /// `__VERIFIER_atomic_begin` (or the entry of a `__VERIFIER_atomic_*` function).
    AtomicBegin,
    /// `__VERIFIER_atomic_end`.
    AtomicEnd,
    /// `__VERIFIER_nondet_*` (or the harness, for a parameter of an `--entry` function)
    /// returned this value.
    Input(InputValue),
    /// The thread started: the pseudo-operation every thread (main included) begins with;
    /// its step runs the thread's local code up to its first visible operation.
    Start,
    /// A `pthread_mutex_trylock` that found the lock taken (returned `EBUSY`).
    TryLockFailed(String),
    /// An operation that ends the execution without a violation: the process exits, an
    /// assumption is false, or the operation is not modelled.
    End,
}

/// The value an input step returned, and what it is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InputValue {
    /// The value in the IR's reading (sign-extended from its width): what replay forces.
    pub value: i128,
    /// The parameter or variable that gets it, when the debug info names one.
    pub name: Option<String>,
    /// Its C type, in which the value is shown.
    pub ty: crate::ir::CInt,
}

impl InputValue {
    /// `value` for no named variable, shown as a signed 128-bit integer (the IR's reading).
    pub fn unnamed(value: i128) -> InputValue {
        InputValue {
            value,
            name: None,
            ty: crate::ir::CInt::new(128, crate::ir::Signedness::Signed),
        }
    }
}

/// How an execution stands after a step.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
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
    Unsupported(String),
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
    fn status(&self, s: &Self::State) -> Status;

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
    pub outcome: search::Outcome,
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

/// Why a search that found nothing is not conclusive, in words (`, bound 3 reached`).
pub fn limits(found: &Confirmation, options: &crate::config::ConfirmOptions) -> String {
    let out = &found.outcome;
    let mut why = Vec::new();
    if !out.complete {
        // Tenths under 10 s: a share of a short --timeout is not "0 s".
        let secs = options.timeout.as_secs_f64();
        let digits = if secs < 10.0 { 1 } else { 0 };
        why.push(format!("the budget of {secs:.digits$} s ran out"));
    }
    if out.cut {
        why.push(format!(
            "some executions hit the loop bound {}",
            found.bound
        ));
    }
    if let Some(bound) = found.sample_cut {
        why.push(format!(
            "some sampled executions hit the loop bound {bound}"
        ));
    }
    if found.sampled > 0 && !out.complete {
        // Soundness: sampling shows failures, never their absence.
        why.push(format!(
            "{} of them sampled ({}), which never covers every execution",
            found.sampled,
            found.samplers.join(", ")
        ));
    }
    if out.restricted_inputs {
        why.push("inputs were taken from a few candidate values".to_string());
    }
    if let Some((construct, _)) = out.unsupported.by_count().first() {
        let n = out.unsupported.total();
        why.push(format!(
            "{n} execution{} abandoned, most often because {construct}",
            if n == 1 { " was" } else { "s were" }
        ));
    }
    if why.is_empty() {
        String::new()
    } else {
        format!("; {}", why.join(", "))
    }
}

/// How many executions `out` abandoned and why, the most common reason first (at most three,
/// each with its count), as a note of the report; `None` when none was.
pub fn abandoned_note(out: &search::Outcome) -> Option<String> {
    let reasons = out.unsupported.by_count();
    if reasons.is_empty() {
        return None;
    }
    let total = out.unsupported.total();
    let shown: Vec<String> = (reasons.iter().take(3))
        .map(|(why, n)| format!("{why} ({n})"))
        .collect();
    let mut more = match reasons.len() {
        n if n > 3 => format!("; and {} other reasons", n - 3),
        _ => String::new(),
    };
    // What the user can do about the most common one.
    let top = reasons[0].0;
    if let Some(name) = (top.split_once("unknown function (`"))
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(name, _)| name)
    {
        more += &format!(
            " (if `{name}` changes no memory of the program, say so with --assume-no-write {name})"
        );
    }
    Some(format!(
        "--confirm: {total} of {} executions were abandoned, most often because {}{}{more}",
        out.executions.max(total),
        shown[0],
        if shown.len() > 1 {
            format!("; also {}", shown[1..].join("; "))
        } else {
            String::new()
        }
    ))
}

/// Replays violation `v` on `program` (its schedule, bound and input values):
/// [`witness::replay_with_inputs`].
pub fn replay(program: &crate::ir::Program, v: &search::Violation) -> Result<(u8, String), String> {
    let (choices, inputs) = v.schedule();
    witness::replay_with_inputs(
        program,
        v.bound,
        v.thread_loops,
        v.assertion,
        &choices,
        inputs,
    )
}

/// The witness of a confirmed race ([`RaceTarget`]): the execution of `v`, which ends where
/// two threads are about to run the race's accesses, followed by those two accesses. `None`
/// when `v` does not replay to such a state (which would be a bug).
pub fn race_witness(
    program: &crate::ir::Program,
    races: &[RaceTarget],
    v: &search::Violation,
) -> Option<witness::Witness> {
    let (choices, inputs) = v.schedule();
    let bound = if v.bound == 0 {
        InterpOptions::default().bound
    } else {
        v.bound
    };
    let plain = witness::replay_interp(program, bound, v.thread_loops, inputs).ok()?;
    let (state, steps) = search::replay(&plain, &choices).ok()?;
    let (id, a, b) = plain.with_races(races.to_vec()).race_at(&state)?;
    if id != v.assertion {
        return None;
    }
    // Both accesses, each as it runs from this state; the read first, so that the values
    // shown are those of one execution (the read, then the write, which reads nothing the
    // other thread writes; or two writes).
    let run = |t: Tid| (t, plain.step(&mut state.clone(), t, 0));
    let (x, y) = (run(a), run(b));
    let ran = if matches!(y.1.kind, StepKind::Read { .. }) {
        [y, x]
    } else {
        [x, y]
    };
    let mut choices = choices;
    let mut steps = steps;
    for (t, step) in ran {
        choices.push((t, 0));
        steps.push(step);
    }
    Some(witness::Witness {
        assertion: v.assertion,
        choices,
        steps,
        threads: v.threads.clone(),
        bound: v.bound,
        thread_loops: v.thread_loops,
    })
}

/// Replays a race witness: `choices` up to its last two steps, after which the threads of
/// those two steps must be about to run conflicting accesses of one object (exit status 1 and
/// a message), else 0 and why not; `Err` when the schedule does not fit the program.
pub fn replay_race(
    program: &crate::ir::Program,
    bound: u32,
    thread_loops: bool,
    choices: &[(Tid, usize)],
    inputs: std::collections::BTreeMap<(Tid, u32), i128>,
) -> Result<(u8, String), String> {
    let [prefix @ .., (a, _), (b, _)] = choices else {
        return Err("a race witness ends with the two accesses: it has fewer steps".into());
    };
    let plain = witness::replay_interp(program, bound, thread_loops, inputs)?;
    let (state, steps) = search::replay(&plain, prefix)?;
    let spans = [*a, *b].map(|t| plain.next_span(&state, t));
    let [Some(x), Some(y)] = spans else {
        return Ok((
            0,
            "the two last steps are not accesses of the source".into(),
        ));
    };
    let target = RaceTarget {
        id: AssertId::from(program.asserts.len()),
        spans: [x, y].into_iter().collect(),
        memory: RaceMemory::Any,
    };
    Ok(match plain.with_races(vec![target]).race_at(&state) {
        Some((_, p, q)) if [p, q] == [*a.min(b), *a.max(b)] => (
            1,
            format!(
                "the race happens again: after {} steps, both accesses are next",
                steps.len()
            ),
        ),
        _ => (
            0,
            "the race does not happen: the two last steps are not conflicting accesses that are both next".into(),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 20, point 6: the report says how many executions were abandoned and names the
    /// most common reason first, with a hint for an unknown function.
    #[test]
    fn abandoned_executions_are_counted_by_reason() {
        let mut out = search::Outcome {
            executions: 10,
            ..search::Outcome::default()
        };
        assert_eq!(abandoned_note(&out), None);
        for _ in 0..3 {
            out.unsupported
                .insert("an unknown value decides a branch at f.c:3".to_string());
        }
        for _ in 0..5 {
            out.unsupported.insert(
                "a pointer passed to an unknown function (`request_irq`) at f.c:9".to_string(),
            );
        }
        out.unsupported
            .insert("access through an integer address".to_string());
        assert_eq!(out.unsupported.total(), 9);
        let note = abandoned_note(&out).expect("a note");
        assert!(
            note.starts_with(
                "--confirm: 9 of 10 executions were abandoned, most often because a pointer \
                 passed to an unknown function (`request_irq`) at f.c:9 (5); also an unknown \
                 value decides a branch at f.c:3 (3); access through an integer address (1)"
            ),
            "{note}"
        );
        assert!(note.ends_with("--assume-no-write request_irq)"), "{note}");
        // Counts add up across searches.
        let mut more = search::Abandoned::default();
        more.insert("access through an integer address".to_string());
        out.unsupported.extend(more);
        assert_eq!(
            out.unsupported.by_count()[2],
            ("access through an integer address", 2)
        );
    }
}
