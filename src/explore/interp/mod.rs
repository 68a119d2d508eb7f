//! The concrete interpreter of `watts confirm`: executes the IR under sequential consistency,
//! one thread at a time, as a [`System`] the search drives.
//!
//! Invariants:
//! - Every step is a real behaviour of the C program (as clang lowers it at -O0). Where the
//!   interpreter would have to guess (an unknown value deciding a branch, an address, a lock,
//!   an assertion or a division; an unknown external function that may write memory; inline
//!   asm clobbering memory; `unreachable`), the status becomes [`Status::Unsupported`] and the
//!   execution stops. Restricted but real choices are allowed: `malloc` never fails, read
//!   locks are exclusive, mutex operations succeed, `pthread_cond_wait` wakes up spuriously,
//!   `main` gets `argc == 1`, nondeterministic inputs come from a small candidate set.
//! - A step runs one *visible* operation of a thread (shared memory, locks, threads, atomic
//!   sections, inputs, its `Start`) and then its *local* code up to the next visible
//!   operation. Local code touches only the thread's registers and its own stack allocations
//!   no other thread can know (not *escaped*), so running it at once hides no interleaving.
//! - Bounds: a thread that enters a block of one activation more than `bound + 1` times stops
//!   there for good (`At::Cut`) while the others go on, which is still a real execution (that
//!   thread is merely slow); the execution ends `Cut` when nothing else can move, or at once
//!   past `max_steps` instructions.
//! - The state is plain data (`Clone + Eq + Hash`, no maps with random order): equal states
//!   have equal futures, including the bound counters and the step budget.
//!
//! Inputs and unknown functions: an unknown function's integer result is an input too (its
//! candidates are alternatives, so `if (register_chrdev(..) < 0)` is decided); an unknown function
//! may receive integers, null, harness entries and sealed globals (`sealed_globals`: constants
//! holding only integers, harness entries and sealed globals, such as a name string or a `const`
//! ops table of entries); any other pointer makes the execution unsupported (it may be written or
//! called back). A pointer parameter of a harness entry or init is a user buffer
//! (`Program::user_buffers`: a fresh block every byte of which holds the harness' 8-bit input), and
//! the harness' `main` ends the process only once every entry ended. Forced input values
//! (`Interp::with_inputs`: the n-th input of thread t, threads by creation index, has one
//! alternative, the forced value; threads count their inputs only then, so the states of the
//! exhaustive searches are unchanged) serve replay and the symbolic search; the concolic shadow
//! (`Interp::concolic`) is in `shadow`, an observer behind the `hooks::ExecHooks` trait that the
//! interpreter calls at each event (never a call of the shadow's own).
//!
//! Thread-local storage: every created thread gets its own copy of each `thread_local` global (an
//! allocation it owns, like its stack, with the initial contents; `Thread::tls`), and `GlobalAddr`
//! of such a global names the running thread's copy (`main` uses the global's own allocation), as
//! does an `llvm.threadlocal.address` the front end recorded (`Program::thread_local_addrs`).
//! Thread-specific data runs with one value per thread and key, and at a thread's end the
//! destructors of its non-NULL values run in POSIX rounds (at most 4), also the one named
//! destructor of the key `harness::keys` rewrites (`Program::key_slot`).
//!
//! Programs of realistic shape (issue 20): the state's allocations and threads are `pvec::PVec`s;
//! the thread a step changes is taken out of the tree (`focus_mut`) and put back (`settle`) before
//! the state is hashed; a thread's frame is made when it starts; counts of finished, cut and
//! unstarted threads replace scans, so a step costs nothing per thread that does not take part. A
//! call past `MAX_FRAMES` (100,000) abandons the execution.
//!
//! The module map (each part's `//!` says what it owns and its invariant): this file holds the
//! interpreter ([`Interp`], its options and the public entry points); `state` the state of one
//! execution and a thread's frame; `system` the interpreter as a [`System`]; `step` one step
//! (pending operation, local code, terminators, edges, visibility); `exec` one instruction;
//! `threads` thread creation, join, locks, atomic sections and a thread's end; `library` calls
//! (a body, a row of `ir::lib`, an unknown function); `access` memory through pointers; `addr`
//! addresses as integers; `arith` the pure value functions; `memory` values, bytes and
//! allocations; `inputs` input candidates and taking an input; `exact` the exact mode's
//! refusals; `events` and `race` what the reads-from search and the race confirmation ask;
//! `naming` what a witness shows; `hooks` the observer trait and `shadow` its concolic
//! implementation; `pvec` and `stack` the persistent containers of the state.

mod access;
mod addr;
mod arith;
mod events;
mod exact;
mod exec;
mod hooks;
mod inputs;
mod library;
pub(crate) mod memory;
mod naming;
mod pvec;
mod race;
mod shadow;
mod stack;
mod state;
mod step;
mod system;
#[cfg(test)]
mod tests;
mod threads;

use self::exact::used_vars;
use self::inputs::input_table;
use self::library::sealed_globals;
use self::step::placeholder_kind;
use self::threads::may_block;
pub use race::{RaceMemory, RaceTarget};
pub use state::State;
use state::{call_result, At, Hint, Thread};

use std::collections::BTreeMap;
use std::sync::Arc;

use self::arith::{binop, bits_of, cast, rmw};
use self::inputs::fill_candidates;
use self::library::{classify, Ext};
use self::memory::{decode, encode, mask, sext, Alloc, AllocKind, Byte, Ptr, Value};
use self::naming::PathCache;
use self::pvec::PVec;
use self::stack::Stack;
// `ExecStatus` keeps its short local name in the interpreter.
use super::{
    Abandon, ExecStatus as Status, InputValue, Loc, Next, StepInfo, StepKind, System, Tid,
};
use crate::ir::lib::{LibFn, Run, SyncOp};
use crate::ir::{
    AssertKind, BlockId, CInt, Callee, CastOp, CmpPred, FuncId, GlobalId, Inst, InstKind, Layout,
    Operand, Program, Signedness, Span, StopReason, Terminator, Ty, VarId,
};

/// Bounds of one execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterpOptions {
    /// How many times a function activation may enter one block beyond the first (a loop
    /// bound): a thread entering it more than `bound + 1` times stops there (cut).
    pub bound: u32,
    /// Most instructions executed in one execution (all threads) before it is cut; with
    /// `exact`, in one step (a thread's local code that never reaches a visible operation).
    pub max_steps: u64,
    /// Every behaviour of the program and nothing else, for proofs by exploration
    /// (`super::proof`): no loop bound and no step budget in the state (a spin loop returns to
    /// a state already explored), `malloc` may fail, and every choice the interpreter would
    /// otherwise restrict (a read lock, a result taken as success, an input beyond the
    /// candidates, argv, an unknown function) ends the execution as unsupported.
    pub exact: bool,
    /// Loops that create or join a thread are bounded by the threads, not by `bound`: a
    /// thread's `pthread_create` or `pthread_join` restarts the loop counts of its function's
    /// activation. Sampled runs, which need not be exhaustive, so follow
    /// `for (i = 0; i < 10000; i++) pthread_create(...)` to its end; a loop that creates
    /// threads forever ends at `max_steps`.
    pub thread_loops: bool,
}

impl Default for InterpOptions {
    fn default() -> Self {
        InterpOptions {
            bound: crate::limits::INTERP_BOUND,
            max_steps: crate::limits::INTERP_MAX_STEPS,
            exact: false,
            thread_loops: false,
        }
    }
}

pub use crate::limits::{MAX_FRAMES, MAX_LOOP_THREADS, SAMPLED_MAX_STEPS};

use crate::limits::MAX_NONDET_CANDIDATES as MAX_INPUTS;

/// The concrete interpreter of one program.
#[derive(Clone)]
pub struct Interp<'p> {
    program: &'p Program,
    options: InterpOptions,
    main: FuncId,
    /// How each function is called (by `FuncId`).
    ext: Vec<Ext>,
    /// Per global: whether unknown code given its address can change nothing through it
    /// (`sealed_globals`).
    sealed: Vec<bool>,
    /// The candidate values of an integer input, by width.
    inputs: BTreeMap<u32, Vec<i128>>,
    /// The candidate values of the byte a user buffer is filled with (`fill_candidates`), and
    /// the variables that hold one, by function.
    fill_values: Arc<Vec<i128>>,
    fills: Arc<std::collections::BTreeSet<(FuncId, VarId)>>,
    /// Whether the program locks a mutex or enters an atomic section anywhere.
    blocking: bool,
    /// Whether `main` is the one a driver harness synthesized (`harness::synthesize`).
    harness: bool,
    /// Forced input values: the `n`-th integer input of thread `t` (0-based, by creation
    /// index) is `forced[(t, n)]` and has one alternative. When set, threads count their
    /// inputs (otherwise the count stays 0, so states are as without it).
    forced: Option<Arc<BTreeMap<(Tid, u32), i128>>>,
    /// Whether states carry the concolic shadow ([`shadow`]).
    concolic: bool,
    /// With `options.exact`: per function, per variable, whether any instruction, phi or
    /// terminator reads it (a library result taken as success matters only when read).
    used: Arc<Vec<Vec<bool>>>,
    /// Races to confirm (`race`), and the places of their accesses.
    races: Arc<Vec<RaceTarget>>,
    race_spans: Arc<std::collections::BTreeSet<crate::ir::Span>>,
    /// The thread-local globals, each copied into every new thread.
    thread_locals: Arc<Vec<GlobalId>>,
    /// The `Havoc`s that stand for the address of a thread-local global's copy of the running
    /// thread (`Program::thread_local_addrs`), by function and defined variable.
    tls_addrs: Arc<BTreeMap<(FuncId, VarId), GlobalId>>,
    /// The layout paths of locations named so far (`describe`), by object, offset and naming.
    paths: Arc<std::sync::Mutex<PathCache>>,
}

/// POSIX's `PTHREAD_DESTRUCTOR_ITERATIONS` (glibc's value): rounds of destructors a thread runs
/// at its end while values remain.
const DESTRUCTOR_ITERATIONS: u32 = 4;

/// ` at file:line` of a span, as `Interp::at` writes it, when displayed.
struct Here<'i, 'p>(&'i Interp<'p>, Option<Span>);

impl std::fmt::Display for Here<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.at(self.1))
    }
}

/// The result of executing something: `Err` ends the execution with that status.
type Exec<T> = Result<T, Status>;

fn unsupported<T>(what: impl Into<String>) -> Exec<T> {
    Err(Status::Unsupported(Abandon::Unmodelled(what.into())))
}

impl<'p> Interp<'p> {
    /// The same interpreter with another loop bound (the program's tables are kept).
    pub fn with_bound(&self, bound: u32) -> Interp<'p> {
        let mut i = self.clone();
        i.options.bound = bound;
        i
    }

    /// The same interpreter for sampled runs with loop bound `bound`: loops that create or join
    /// threads are not bounded by it, and the step budget is [`SAMPLED_MAX_STEPS`].
    pub fn sampled(&self, bound: u32) -> Interp<'p> {
        let mut i = self.with_bound(bound);
        i.options.thread_loops = true;
        i.options.max_steps = i.options.max_steps.max(SAMPLED_MAX_STEPS);
        i
    }

    /// The same interpreter with forced input values: the `n`-th integer (or boolean) input of
    /// thread `t` (0-based; threads by creation index, as [`Tid`]) returns `inputs[(t, n)]`,
    /// wrapped to its type, as its only alternative; inputs without a value keep their
    /// candidates.
    pub fn with_inputs(&self, inputs: Arc<BTreeMap<(Tid, u32), i128>>) -> Interp<'p> {
        let mut i = self.clone();
        i.forced = Some(inputs);
        i
    }

    /// The same interpreter ending `Violated` with a race's id in a state where two threads
    /// are about to run conflicting accesses of that race ([`RaceTarget`]).
    pub fn with_races(&self, races: Vec<RaceTarget>) -> Interp<'p> {
        let mut i = self.clone();
        i.race_spans = Arc::new(races.iter().flat_map(|r| r.spans.iter().copied()).collect());
        i.races = Arc::new(races);
        i
    }

    /// The same interpreter recording the concolic shadow of its executions
    /// ([`Interp::trace`]).
    pub fn concolic(&self) -> Interp<'p> {
        let mut i = self.clone();
        i.concolic = true;
        i
    }

    /// An interpreter of `program`. Errors (a readable message) when the program has no `main`
    /// defined.
    pub fn new(program: &'p Program, options: InterpOptions) -> Result<Interp<'p>, String> {
        let main = program.main.ok_or_else(|| {
            "the program defines no `main` function to execute (for driver code, give \
                 --entry)"
                .to_string()
        })?;
        let mut ext: Vec<Ext> = program.funcs.iter().map(classify).collect();
        for f in &program.returns_twice {
            ext[f.index()] = Ext::ReturnsTwice;
        }
        let blocking = may_block(program, &ext);
        let inputs = input_table(program, &ext);
        let harness = !program.harness_entries.is_empty()
            && program.funcs[main.index()].is_internal
            && program.funcs[main.index()].span.is_none();
        Ok(Interp {
            program,
            options,
            main,
            ext,
            sealed: sealed_globals(program),
            inputs,
            harness,
            fill_values: Arc::new(fill_candidates(program)),
            fills: Arc::new(
                (program.user_buffers.iter())
                    .map(|b| (b.caller, b.fill))
                    .collect(),
            ),
            // `main` of a harness waits for the entries before it ends the process.
            blocking: blocking || harness,
            forced: None,
            concolic: false,
            paths: Arc::default(),
            thread_locals: Arc::new({
                let mut tls: Vec<GlobalId> = (program.globals.iter().enumerate())
                    .filter(|(_, g)| g.thread_local)
                    .map(|(g, _)| GlobalId::from(g))
                    .chain(program.thread_local_addrs.iter().map(|a| a.global))
                    .collect();
                tls.sort_unstable();
                tls.dedup();
                tls
            }),
            tls_addrs: Arc::new(
                (program.thread_local_addrs.iter())
                    .map(|a| ((a.func, a.dst), a.global))
                    .collect(),
            ),
            used: Arc::new(if options.exact {
                used_vars(program)
            } else {
                Vec::new()
            }),
            races: Arc::default(),
            race_spans: Arc::default(),
        })
    }

    /// The observer of `s` ([`hooks`]): the concolic shadow when `s` carries one, else
    /// nobody.
    #[inline]
    fn hooks(&self, s: &State) -> &'static dyn hooks::ExecHooks {
        if s.shadow.on() {
            &shadow::Concolic
        } else {
            &hooks::NoHooks
        }
    }

    /// The bounds of its executions.
    pub fn options(&self) -> InterpOptions {
        self.options
    }

    /// The program being executed.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    // ---- Threads and frames -------------------------------------------------------------

    /// Whether thread `t` can move in `s` (it is ready, and no other thread is inside an
    /// atomic section).
    pub fn ready(&self, s: &State, t: Tid) -> bool {
        s.status == Status::Running
            && t < s.threads.len()
            && s.atomic.is_none_or(|(a, _)| a == t)
            && self.thread_ready(s, t)
    }

    // ---- Memory -------------------------------------------------------------------------

    // ---- Execution ----------------------------------------------------------------------

    /// Whether thread `t`'s next step ends the process (`main` returning, `exit`).
    pub fn ends_process_next(&self, s: &State, t: Tid) -> bool {
        s.threads[t].at == At::Inst && self.cur_inst(s, t).is_none() && self.ends_process(s, t)
    }
}
