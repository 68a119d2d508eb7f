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
//! (`Interp::concolic`) is in `shadow`.
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

mod addr;
mod arith;
mod events;
mod inputs;
mod library;
mod naming;
mod race;

pub use race::{RaceMemory, RaceTarget};
pub(crate) mod memory;
mod pvec;
mod shadow;
mod stack;
mod system;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::sync::Arc;

use self::arith::{binop, bits_of, cast, rmw};
use self::inputs::{fill_candidates, input_candidates, int_of, operands};
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
/// `EBUSY`, what a trylock of a held lock returns.
const EBUSY: i128 = 16;

/// Per global: whether code that is given its address can change nothing through it: a
/// constant whose initialiser holds only integers, harness entries and addresses of sealed
/// globals (a greatest fixpoint: a cycle of constant tables is sealed).
///
/// Soundness (no false violation): writing a constant object is undefined (it lives in
/// read-only memory), and a harness entry runs as the harness's threads only (the harness
/// contract), so handing such an address to an unknown function lets it do nothing the
/// execution leaves out.
fn sealed_globals(program: &Program) -> Vec<bool> {
    let mut sealed: Vec<bool> = program.globals.iter().map(|g| g.is_constant).collect();
    loop {
        let mut changed = false;
        for (gi, g) in program.globals.iter().enumerate() {
            if !sealed[gi] {
                continue;
            }
            let ok = (g.init.iter().flatten()).all(|c| match c.value {
                crate::ir::InitValue::Int(_) | crate::ir::InitValue::Unknown => true,
                crate::ir::InitValue::FuncAddr(f) => {
                    program.harness_entries.binary_search(&f).is_ok()
                }
                crate::ir::InitValue::GlobalAddr(h, _) => sealed[h.index()],
            }) && g.init.is_some();
            if !ok {
                sealed[gi] = false;
                changed = true;
            }
        }
        if !changed {
            return sealed;
        }
    }
}

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

/// One function activation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Frame {
    func: FuncId,
    block: BlockId,
    /// The next instruction of `block` (its terminator when past the instructions).
    pc: u32,
    vars: Vec<Value>,
    /// How many times each block was entered in this activation (the loop bound).
    visits: Vec<u32>,
    /// The allocations of its `alloca`s, which die when it returns.
    allocas: Vec<u32>,
}

/// Where a thread stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum At {
    /// Before its first step.
    Start,
    /// At the instruction its top frame's `pc` names, a visible one.
    Inst,
    /// In `pthread_cond_wait` (at that call) after releasing the mutex: waits to lock it.
    Relock { alloc: u32, off: i64 },
    /// Finished (returned from its entry or called `pthread_exit`).
    Finished,
    /// Went past the loop bound: never scheduled again. The other threads go on (a real
    /// execution in which this thread is slow); the execution ends `Cut` when nothing else
    /// can move.
    Cut,
    /// Exact mode only: its local code came back to a state it had been in, so it loops
    /// there forever and never does anything another thread sees (`while (f == 1) {}` after
    /// reading `f` once): never scheduled again, and no assertion of it fails later.
    Spins,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Thread {
    entry: FuncId,
    /// The argument of its entry (its frame is made at its start).
    arg: Value,
    /// Which thread of its entry function it is (1 for the first), for its name.
    instance: u32,
    /// Its call stack: persistent, so that a step of a thread deep in recursion copies and
    /// hashes its top frame, not all of them.
    frames: Stack<Frame>,
    at: At,
    /// The entry's result, once finished.
    ret: Value,
    joined: bool,
    /// How many allocations (stack and heap) the thread made, for their stable keys.
    allocs: u32,
    /// How many inputs the thread took (counted only with forced inputs).
    inputs: u32,
    /// Its copies of the thread-local globals: (global, allocation); empty for `main`, which
    /// uses the globals' own allocations.
    tls: Vec<(u32, u32)>,
    /// Its values of the keys of thread-specific data that it set, by key.
    specific: Vec<(u32, Value)>,
    /// While it runs the destructors of its keys' values after its end: its result.
    ending: Option<Value>,
    /// How many destructors it ran (at most [`DESTRUCTOR_ITERATIONS`] rounds over the keys).
    destructors: u32,
}

/// POSIX's `PTHREAD_DESTRUCTOR_ITERATIONS` (glibc's value): rounds of destructors a thread runs
/// at its end while values remain.
const DESTRUCTOR_ITERATIONS: u32 = 4;

/// One execution prefix: memory, threads, locks, atomic section, status and budget.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Allocations by id; globals first (allocation `g` is global `g`). Shared between the
    /// states of a search until written (the state is cloned at every branch): a persistent
    /// vector whose clone, change and digest cost nothing per allocation left alone.
    mem: PVec<Alloc>,
    /// Threads, shared between states until written, like allocations: a deep search keeps
    /// one state per level, and most steps change one thread.
    threads: PVec<Thread>,
    /// How many threads are finished, and how many were cut (`At::Finished`, `At::Cut`):
    /// counted as they change, so that a step never looks at every thread.
    finished: u32,
    cut: u32,
    /// How many threads have not started (`At::Start`): each can move outside another
    /// thread's atomic section.
    unstarted: u32,
    /// A thread that could move when last looked at, where the next search for one starts
    /// (not part of the state's meaning: ignored by `==` and the hash).
    hint: Hint,
    /// How many threads each entry function has started (by `FuncId`), for their names.
    instances: BTreeMap<u32, u32>,
    /// How many blocks each heap allocation site has made (by `ObjId`), for their names.
    heap_blocks: BTreeMap<u32, u32>,
    /// The objects given an address (`addr`), by address, and the next free address.
    addrs: BTreeMap<u64, u32>,
    next_addr: u64,
    /// The keys of thread-specific data created (`pthread_key_create`), by key: the
    /// destructor, and whether the key is not deleted.
    keys: Vec<(Value, bool)>,
    /// Held locks (allocation, offset) and their owner.
    locks: BTreeMap<(u32, i64), Tid>,
    /// The thread inside an `__VERIFIER_atomic_begin` section, and its nesting depth.
    atomic: Option<(Tid, u32)>,
    status: Status,
    /// Instructions executed so far.
    steps: u64,
    /// The concolic shadow (equal in every state, `None` unless the interpreter is concolic).
    shadow: shadow::ShadowCell,
}

/// A thread that could move when last looked at: where `Interp::any_enabled` starts. Not part
/// of a state's meaning: every hint equals every other and hashes to nothing.
#[derive(Debug, Default)]
struct Hint(std::sync::atomic::AtomicUsize);

impl Hint {
    fn get(&self) -> Tid {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn set(&self, t: Tid) {
        self.0.store(t, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Clone for Hint {
    fn clone(&self) -> Self {
        Hint(std::sync::atomic::AtomicUsize::new(self.get()))
    }
}

impl PartialEq for Hint {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Hint {}

impl std::hash::Hash for Hint {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

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

    /// Restarts the loop counts of thread `t`'s top activation (`InterpOptions::thread_loops`),
    /// while the execution has fewer than [`MAX_LOOP_THREADS`] threads.
    fn thread_loop_round(&self, s: &mut State, t: Tid) {
        if self.options.thread_loops && !self.options.exact && s.threads.len() < MAX_LOOP_THREADS {
            for v in &mut self.top_mut(s, t).visits {
                *v = 0;
            }
        }
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

    /// The forced value of thread `t`'s next input, if any.
    fn forced_input(&self, s: &State, t: Tid) -> Option<i128> {
        let f = self.forced.as_ref()?;
        f.get(&(t, s.threads[t].inputs)).copied()
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
        let blocking = program.funcs.iter().flat_map(|f| &f.blocks).any(|b| {
            b.insts.iter().any(|i| match &i.kind {
                InstKind::Lock { .. } | InstKind::AtomicBegin => true,
                InstKind::Call {
                    callee: Callee::Direct(f),
                    ..
                } => ext[f.index()] == Ext::Lib(Run::CondWait),
                // An indirect call may reach `pthread_cond_wait`.
                InstKind::Call { .. } => true,
                _ => false,
            })
        });
        let mut constants = Vec::new();
        // Constants an input is compared with (`assume(n >= 20)`, `if (x == 7)`) come first:
        // their neighbourhoods are where the branches change.
        let mut compared = Vec::new();
        let mut widths = Vec::new();
        for f in &program.funcs {
            for b in &f.blocks {
                for phi in &b.phis {
                    phi.incoming
                        .iter()
                        .for_each(|(_, o)| int_of(o, &mut constants));
                }
                for i in &b.insts {
                    operands(&i.kind, &mut |o| int_of(o, &mut constants));
                    if let InstKind::Cmp { a, b, .. } = &i.kind {
                        int_of(a, &mut compared);
                        int_of(b, &mut compared);
                    }
                    match &i.kind {
                        InstKind::Nondet {
                            ty: Ty::Int(bits), ..
                        } => widths.push(*bits),
                        // The result of an unknown function is an input too.
                        InstKind::Call {
                            dst: Some(_),
                            callee: Callee::Direct(g),
                            ..
                        } if ext[g.index()] == Ext::Lib(Run::Unknown) => {
                            if let Some(Ty::Int(bits)) = program.funcs[g.index()].ret {
                                widths.push(bits);
                            }
                        }
                        _ => {}
                    }
                }
                match &b.term {
                    Terminator::CondBr { cond, .. } => int_of(cond, &mut constants),
                    Terminator::Switch { cases, .. } => compared.extend(cases.iter().map(|c| c.0)),
                    Terminator::Ret(Some(o)) => int_of(o, &mut constants),
                    _ => {}
                }
            }
        }
        constants.sort_unstable();
        constants.dedup();
        compared.sort_unstable();
        compared.dedup();
        let inputs = widths
            .into_iter()
            .map(|bits| (bits, input_candidates(&compared, &constants, bits)))
            .collect();
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

    /// With `options.exact`, the execution ends as unsupported with `why`: the interpreter
    /// would restrict the program's behaviours here (`malloc` succeeds, a read lock is
    /// exclusive, a result is success), which a proof by exploration must not.
    fn restricted(&self, why: impl FnOnce() -> String) -> Exec<()> {
        if self.options.exact {
            return unsupported(why());
        }
        Ok(())
    }

    /// `restricted` when the result `dst` of a call the interpreter takes as a success is read
    /// by the program (a real call may fail).
    fn result_restricted(&self, s: &State, t: Tid, dst: Option<VarId>, call: &str) -> Exec<()> {
        let read = |d: VarId| {
            let f = self.top(s, t).func;
            (self.used.get(f.index())).is_some_and(|u| u.get(d.index()) != Some(&false))
        };
        match dst {
            Some(d) if self.options.exact && read(d) => unsupported(format!(
                "the result of `{call}` is read, and it is taken as success"
            )),
            _ => Ok(()),
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

    /// Whether the input of thread `t`'s top function into `dst` fills a user buffer.
    fn is_fill(&self, s: &State, t: Tid, dst: VarId) -> bool {
        !self.fills.is_empty()
            && (s.threads[t].frames.last()).is_some_and(|fr| self.fills.contains(&(fr.func, dst)))
    }

    /// The candidate values of the input of thread `t` into `dst`, of type `ty` (in the order
    /// of its alternatives).
    fn input_values_of(&self, s: &State, t: Tid, dst: VarId, ty: Ty, is_bool: bool) -> Vec<Value> {
        if !is_bool && self.is_fill(s, t, dst) {
            return self.fill_values.iter().map(|&c| Value::int(c, 8)).collect();
        }
        self.input_values(ty, is_bool)
    }

    /// The candidate values of an input of type `ty` (in the order of its alternatives).
    fn input_values(&self, ty: Ty, is_bool: bool) -> Vec<Value> {
        match ty {
            _ if is_bool => vec![Value::int(0, bits_of(ty)), Value::int(1, bits_of(ty))],
            Ty::Int(bits) => self.inputs[&bits]
                .iter()
                .map(|&c| Value::int(c, bits))
                .collect(),
            // Any pointer may be returned: null is one of them.
            Ty::Ptr => vec![Value::NULL],
            Ty::Other => vec![Value::Unknown],
        }
    }

    // ---- Threads and frames -------------------------------------------------------------

    /// A fresh copy of global `g` holding its initial contents.
    fn global_alloc(&self, g: GlobalId, kind: AllocKind) -> Alloc {
        let p = self.program;
        let global = &p.globals[g.index()];
        let size = p.objects[global.obj.index()]
            .layout
            .as_ref()
            .map(Layout::size);
        let Some(cells) = &global.init else {
            return Alloc::new(kind, size, Byte::Unknown);
        };
        let extent = cells
            .iter()
            .map(|c| c.offset + u64::from(c.size))
            .max()
            .unwrap_or(0);
        let size = size.filter(|&n| n > 0).map(|n| n.max(extent));
        let mut a = Alloc::new(kind, size, Byte::Data(0));
        for c in cells {
            let v = match c.value {
                crate::ir::InitValue::Int(v) => Value::int(v, c.size * 8),
                crate::ir::InitValue::GlobalAddr(h, off) => {
                    Value::Ptr(Ptr::Mem { alloc: h.0, off })
                }
                crate::ir::InitValue::FuncAddr(f) => Value::Ptr(Ptr::Func(f)),
                crate::ir::InitValue::Unknown => Value::Unknown,
            };
            let _ = a.write(c.offset as i64, &encode(v, c.size, p.pointer_size));
        }
        a
    }

    /// Gives thread `t` (not `main`, whose copies are the globals' own allocations) a fresh
    /// copy of every thread-local global with its initial contents: allocations it owns, like
    /// its stack, that no other thread can reach (`ir::Global::thread_local`).
    fn thread_local_copies(&self, s: &mut State, t: Tid) {
        for &g in self.thread_locals.iter() {
            let global = &self.program.globals[g.index()];
            let kind = AllocKind::Stack {
                obj: global.obj,
                owner: t,
            };
            let mut a = self.global_alloc(g, kind);
            a.key = self.alloc_key(s, t);
            let id = s.mem.len() as u32;
            s.mem.push(a);
            s.threads.focus_mut(t).tls.push((g.0, id));
        }
    }

    fn frame(&self, f: FuncId, args: &[Value]) -> Frame {
        let func = &self.program.funcs[f.index()];
        let mut vars = vec![Value::Unknown; func.vars.len()];
        for (p, a) in func.params.iter().zip(args) {
            vars[p.index()] = *a;
        }
        let mut visits = vec![0; func.blocks.len()];
        visits[0] = 1;
        Frame {
            func: f,
            block: BlockId(0),
            pc: 0,
            vars,
            visits,
            allocas: Vec::new(),
        }
    }

    fn top<'s>(&self, s: &'s State, t: Tid) -> &'s Frame {
        s.threads[t]
            .frames
            .last()
            .expect("a running thread has a frame")
    }

    fn top_mut<'s>(&self, s: &'s mut State, t: Tid) -> &'s mut Frame {
        s.threads
            .make_mut(t)
            .frames
            .last_mut()
            .expect("a running thread has a frame")
    }

    /// The instruction thread `t` is at, if it is at one (not at a terminator).
    fn cur_inst(&self, s: &State, t: Tid) -> Option<&'p Inst> {
        let fr = s.threads[t].frames.last()?;
        self.program.funcs[fr.func.index()].blocks[fr.block.index()]
            .insts
            .get(fr.pc as usize)
    }

    fn eval(&self, s: &State, t: Tid, op: &Operand) -> Value {
        match *op {
            Operand::Var(v) => self.top(s, t).vars[v.index()],
            Operand::Int { value, bits } => Value::int(value, bits),
            Operand::Null => Value::NULL,
            Operand::GlobalAddr(g, off) => {
                // A thread-local global names the running thread's copy.
                let own = (s.threads[t].tls.iter()).find_map(|&(h, a)| (h == g.0).then_some(a));
                Value::Ptr(Ptr::Mem {
                    alloc: own.unwrap_or(g.0),
                    off,
                })
            }
            Operand::FuncAddr(f) => Value::Ptr(Ptr::Func(f)),
            Operand::Unknown(_) => Value::Unknown,
        }
    }

    fn op_ty(&self, s: &State, t: Tid, op: &Operand) -> Ty {
        match *op {
            Operand::Var(v) => self.program.funcs[self.top(s, t).func.index()].vars[v.index()].ty,
            Operand::Int { bits, .. } => Ty::Int(bits),
            Operand::Null | Operand::GlobalAddr(..) | Operand::FuncAddr(_) => Ty::Ptr,
            Operand::Unknown(ty) => ty,
        }
    }

    fn set(&self, s: &mut State, t: Tid, dst: VarId, v: Value) {
        self.top_mut(s, t).vars[dst.index()] = v;
    }

    fn set_opt(&self, s: &mut State, t: Tid, dst: Option<VarId>, v: Value) {
        if let Some(d) = dst {
            self.set(s, t, d, v);
        }
    }

    fn advance(&self, s: &mut State, t: Tid) {
        self.top_mut(s, t).pc += 1;
    }

    /// The defined or declared function a call reaches, if known.
    fn callee(&self, s: &State, t: Tid, callee: &Callee) -> Option<FuncId> {
        match callee {
            Callee::Direct(f) => Some(*f),
            Callee::Indirect(op) => match self.eval(s, t, op) {
                Value::Ptr(Ptr::Func(f)) => Some(f),
                _ => None,
            },
        }
    }

    fn thread_ready(&self, s: &State, t: Tid) -> bool {
        let th = &s.threads[t];
        match th.at {
            At::Finished | At::Cut | At::Spins => false,
            At::Start => true,
            At::Relock { alloc, off } => !s.locks.contains_key(&(alloc, off)),
            At::Inst => match self.cur_inst(s, t).map(|i| &i.kind) {
                Some(InstKind::Lock { lock, .. }) => match self.eval(s, t, lock) {
                    // Exact: a relock by the owner runs, and stops as unsupported (a recursive
                    // mutex would take it, a normal one waits forever).
                    Value::Ptr(Ptr::Mem { alloc, off }) => match s.locks.get(&(alloc, off)) {
                        None => true,
                        Some(&owner) => self.options.exact && owner == t,
                    },
                    // Runs, and stops as unsupported.
                    _ => true,
                },
                Some(InstKind::ThreadJoin { handle, .. }) => match self.join_target(s, t, handle) {
                    Ok(c) => s.threads[c].at == At::Finished,
                    Err(_) => true,
                },
                // Soundness (no false violation): the `main` of a driver harness is no code
                // of the program; it ends the process only once every entry it started ended,
                // a restriction of the runs to those in which the kernel lets them finish.
                None if t == 0 && self.harness && self.ends_process(s, t) => {
                    (s.finished + s.cut) as usize + 1 >= s.threads.len()
                }
                _ => true,
            },
        }
    }

    /// Whether some thread can move (`!enabled_raw(s).is_empty()`, without building the list),
    /// looking at thread `from` first (the thread that just moved usually still can), then at
    /// whether a thread has not started, then from the last thread found ready on.
    fn any_enabled(&self, s: &State, from: Tid) -> bool {
        match s.atomic {
            Some((a, _)) => self.thread_ready(s, a),
            None => {
                if self.thread_ready(s, from) || s.unstarted > 0 {
                    return true;
                }
                let n = s.threads.len();
                let start = s.hint.get().min(n);
                match (start..n)
                    .chain(0..start)
                    .find(|&t| self.thread_ready(s, t))
                {
                    Some(t) => {
                        s.hint.set(t);
                        true
                    }
                    None => false,
                }
            }
        }
    }

    /// Whether thread `t` can move in `s` (it is ready, and no other thread is inside an
    /// atomic section).
    pub fn ready(&self, s: &State, t: Tid) -> bool {
        s.status == Status::Running
            && t < s.threads.len()
            && s.atomic.is_none_or(|(a, _)| a == t)
            && self.thread_ready(s, t)
    }

    fn enabled_raw(&self, s: &State) -> Vec<Tid> {
        if let Some((a, _)) = s.atomic {
            return if self.thread_ready(s, a) {
                vec![a]
            } else {
                Vec::new()
            };
        }
        (0..s.threads.len())
            .filter(|&t| self.thread_ready(s, t))
            .collect()
    }

    fn join_target(&self, s: &State, t: Tid, handle: &Operand) -> Exec<Tid> {
        match self.eval(s, t, handle) {
            Value::Int { v, .. }
                if usize::try_from(v).is_ok_and(|c| c > 0 && c < s.threads.len() && c != t) =>
            {
                Ok(v as usize)
            }
            Value::Unknown => unsupported("pthread_join of an unknown thread handle"),
            other => unsupported(format!(
                "pthread_join of an invalid thread handle {}",
                self.show(s, other)
            )),
        }
    }

    /// Pops thread `t`'s top frame; its stack allocations die.
    fn pop_frame(&self, s: &mut State, t: Tid) {
        if s.shadow.on() {
            self.sh_pop(s, t);
        }
        if let Some(fr) = s.threads.focus_mut(t).frames.pop() {
            for a in fr.allocas {
                s.mem.make_mut(a as usize).kill();
            }
        }
    }

    /// Unsupported when a key destructor may run at the end of thread `t`
    /// (`Program::key_destructors`) and the interpreter does not know which function it is,
    /// so that what follows could not happen.
    fn destructors_unsupported(&self, t: Tid) -> Result<(), Status> {
        let known = self
            .program
            .key_slot
            .is_some_and(|k| k.destructor.is_some());
        if self.program.key_destructors && !known {
            return unsupported(format!(
                "thread {t} ends, and a key destructor may run (not modelled)"
            ));
        }
        Ok(())
    }

    /// Thread `t`'s value of the one key of `harness::keys` (its copy of the slot), when the
    /// program gives a destructor: the destructor and the value (as a pointer), unless NULL.
    fn slot_destructor(&self, s: &mut State, t: Tid) -> Exec<Option<(FuncId, Value)>> {
        let Some(crate::ir::KeySlot {
            slot,
            destructor: Some(f),
        }) = self.program.key_slot
        else {
            return Ok(None);
        };
        let size = self.program.pointer_size;
        let p = self.eval(s, t, &Operand::GlobalAddr(slot, 0));
        match self.load(s, p, Ty::Int(size * 8), size)? {
            Value::Int { v: 0, .. } => Ok(None),
            Value::Int { v, .. } => {
                // POSIX: the value becomes NULL before the destructor runs.
                self.store(s, p, Value::int(0, size * 8), size)?;
                Ok(Some((f, Value::Ptr(self.ptr_of_int(s, v as u64)))))
            }
            _ => unsupported(format!(
                "thread {t} ends with an unknown value of thread-specific data, whose destructor \
                 may run"
            )),
        }
    }

    /// Thread `t`'s entry returned `v`, or it called `pthread_exit`: it runs the destructors
    /// of its keys' values that are not NULL (POSIX: the value becomes NULL, then the
    /// destructor runs with it, in rounds while values remain, at most
    /// [`DESTRUCTOR_ITERATIONS`]), then ends.
    fn end_thread(&self, s: &mut State, t: Tid, v: Value) -> Exec<()> {
        self.destructors_unsupported(t)?;
        while !s.threads[t].frames.is_empty() {
            self.pop_frame(s, t);
        }
        let th = &s.threads[t];
        let rounds = DESTRUCTOR_ITERATIONS * (s.keys.len() as u32);
        let mut due = Vec::new();
        if th.destructors < rounds {
            for &(k, value) in &th.specific {
                let (dtor, live) = s.keys[k as usize];
                if !live || dtor == Value::NULL || value == Value::NULL {
                    continue;
                }
                match (dtor, value) {
                    (Value::Ptr(Ptr::Func(f)), Value::Ptr(_) | Value::Int { .. })
                        if self.program.funcs[f.index()].is_defined =>
                    {
                        due.push((k, f, value))
                    }
                    _ => {
                        return unsupported(format!(
                            "thread {t} ends, and a destructor of thread-specific data with an \
                             unknown function or value runs"
                        ))
                    }
                }
            }
        }
        if due.len() > 1 {
            self.restricted(|| {
                "destructors of thread-specific data run in the order of their keys".to_string()
            })?;
        }
        let Some(&(k, f, value)) = due.first() else {
            // The one key of `harness::keys`, in rounds as well.
            if s.threads[t].destructors < DESTRUCTOR_ITERATIONS {
                if let Some((f, value)) = self.slot_destructor(s, t)? {
                    let th = s.threads.focus_mut(t);
                    th.ending.get_or_insert(v);
                    th.destructors += 1;
                    let frame = self.frame(f, &[value]);
                    s.threads.focus_mut(t).frames.push(frame);
                    return Ok(());
                }
            }
            let v = s.threads.focus_mut(t).ending.take().unwrap_or(v);
            self.finish_thread(s, t, v);
            return Ok(());
        };
        let th = s.threads.focus_mut(t);
        th.ending.get_or_insert(v);
        th.destructors += 1;
        if let Some(e) = th.specific.iter_mut().find(|e| e.0 == k) {
            e.1 = Value::NULL;
        }
        let frame = self.frame(f, &[value]);
        s.threads.focus_mut(t).frames.push(frame);
        Ok(())
    }

    /// Thread `t` ends with result `v` (its entry returned or it called `pthread_exit`).
    fn finish_thread(&self, s: &mut State, t: Tid, v: Value) {
        while !s.threads[t].frames.is_empty() {
            self.pop_frame(s, t);
        }
        self.escape(s, v);
        s.finished += 1;
        let th = s.threads.focus_mut(t);
        th.at = At::Finished;
        th.ret = v;
        if matches!(s.atomic, Some((a, _)) if a == t) {
            s.atomic = None;
        }
    }

    // ---- Memory -------------------------------------------------------------------------

    /// Whether `p` is in an allocation thread `t` alone can reach: its own stack, not
    /// escaped (or, for reads, a constant global, which nobody writes).
    fn is_local(&self, s: &State, t: Tid, p: Value, write: bool) -> bool {
        let Value::Ptr(Ptr::Mem { alloc, .. }) = p else {
            return false;
        };
        let Some(a) = s.mem.get(alloc as usize) else {
            return false;
        };
        a.live
            && match a.kind {
                AllocKind::Stack { owner, .. } | AllocKind::Buffer { owner, .. } => {
                    owner == t && !a.escaped
                }
                AllocKind::Global(g) => !write && self.program.globals[g.index()].is_constant,
                AllocKind::Heap(_) => false,
            }
    }

    /// A pointer into a stack allocation becomes known outside its frame's registers: it
    /// may reach another thread from now on.
    fn escape(&self, s: &mut State, v: Value) {
        if let Value::Ptr(Ptr::Mem { alloc, .. }) = v {
            let stack = (s.mem.get(alloc as usize)).is_some_and(|a| {
                matches!(a.kind, AllocKind::Stack { .. } | AllocKind::Buffer { .. }) && !a.escaped
            });
            if stack {
                s.mem.make_mut(alloc as usize).escaped = true;
            }
        }
    }

    /// The allocation and offset of an access of `n` bytes through `p`.
    fn resolve(&self, s: &State, p: Value, write: bool) -> Exec<(u32, i64)> {
        match p {
            Value::Ptr(Ptr::Mem { alloc, off }) => {
                let a = &s.mem[alloc as usize];
                if let AllocKind::Global(g) = a.kind {
                    if write && self.program.globals[g.index()].is_constant {
                        return unsupported(format!(
                            "write to the constant `{}`",
                            self.program.globals[g.index()].name
                        ));
                    }
                }
                if !a.live {
                    return unsupported(format!(
                        "access to `{}` after its lifetime ended",
                        self.describe_location(s, alloc, off)
                    ));
                }
                Ok((alloc, off))
            }
            Value::Ptr(Ptr::Raw(0)) => unsupported("null pointer dereference"),
            Value::Ptr(Ptr::Raw(_)) => unsupported("access through an integer address"),
            Value::Ptr(Ptr::Func(_)) => unsupported("access to a function's code as data"),
            Value::Unknown => unsupported("access through an unknown address"),
            Value::Int { .. } => unsupported("access through an integer"),
        }
    }

    fn read(&self, s: &State, p: Value, n: u64) -> Exec<Vec<Byte>> {
        let (alloc, off) = self.resolve(s, p, false)?;
        s.mem[alloc as usize]
            .read(off, n)
            .or_else(|e| unsupported(format!("{e} of `{}`", self.describe_object(s, alloc, 0))))
    }

    fn write(&self, s: &mut State, p: Value, data: &[Byte]) -> Exec<()> {
        let (alloc, off) = self.resolve(s, p, true)?;
        for b in data {
            if let Byte::Frag { target, .. } = *b {
                self.escape(s, Value::Ptr(target));
            }
        }
        match s.mem.make_mut(alloc as usize).write(off, data) {
            Ok(()) => Ok(()),
            Err(e) => unsupported(format!("{e} of `{}`", self.describe_object(s, alloc, 0))),
        }
    }

    fn load(&self, s: &mut State, p: Value, ty: Ty, size: u32) -> Exec<Value> {
        let bytes = self.read(s, p, u64::from(size))?;
        let v = decode(&bytes, ty, self.program.pointer_size);
        if self.options.exact {
            return Ok(v);
        }
        // Outside the exact mode, addresses are integers (`addr`): pointer bytes read as an
        // integer give the address, integer bytes read as a pointer the object there.
        Ok(match (v, ty) {
            (Value::Ptr(Ptr::Raw(x)), Ty::Ptr) => Value::Ptr(self.ptr_of_int(s, x)),
            (Value::Unknown, Ty::Int(_) | Ty::Ptr) if bytes.len() <= 8 => {
                match self.bytes_as_int(s, &bytes) {
                    Some(x) => match ty {
                        Ty::Int(bits) => Value::int(x as i128, bits),
                        _ if bytes.len() == self.program.pointer_size as usize => {
                            Value::Ptr(self.ptr_of_int(s, x))
                        }
                        _ => Value::Unknown,
                    },
                    None => Value::Unknown,
                }
            }
            _ => v,
        })
    }

    /// The little-endian integer that `bytes` hold when pointer fragments count as the bytes of
    /// their address (`addr`); `None` when a byte is unknown or a pointer has no address.
    fn bytes_as_int(&self, s: &mut State, bytes: &[Byte]) -> Option<u64> {
        let mut x = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            let byte = match *b {
                Byte::Data(d) => d,
                Byte::Frag { target, idx } => {
                    (self.int_of_ptr(s, target)? >> (8 * u32::from(idx).min(7))) as u8
                }
                Byte::Unknown => return None,
            };
            x |= u64::from(byte) << (8 * i);
        }
        Some(x)
    }

    /// LLVM's cast `op` of `v` from `from` to `to` bits; outside the exact mode, a pointer cast
    /// to an integer is its address and an integer cast to a pointer points to the object there
    /// (`addr`).
    fn cast(&self, s: &mut State, op: CastOp, v: Value, from: u32, to: u32) -> Value {
        let pbits = self.program.pointer_size * 8;
        match (op, v) {
            (CastOp::PtrToInt, Value::Ptr(p @ (Ptr::Mem { .. } | Ptr::Func(_)))) => {
                match self.int_of_ptr(s, p) {
                    Some(x) => Value::int(x as i128, to),
                    None => Value::Unknown,
                }
            }
            (CastOp::IntToPtr, Value::Int { v, .. }) => {
                Value::Ptr(self.ptr_of_int(s, mask(v, pbits) as u64))
            }
            _ => cast(op, v, from, to, self.program.pointer_size),
        }
    }

    fn store(&self, s: &mut State, p: Value, v: Value, size: u32) -> Exec<()> {
        self.write(s, p, &encode(v, size, self.program.pointer_size))
    }

    /// A known length of a memory operation.
    fn length(&self, v: Value, what: &str) -> Exec<u64> {
        match v {
            Value::Int { v, .. } if v <= 1 << 20 => Ok(v as u64),
            Value::Int { .. } => unsupported(format!("{what} of a huge length")),
            _ => unsupported(format!("{what} of an unknown length")),
        }
    }

    // ---- Execution ----------------------------------------------------------------------

    /// Whether instruction `inst` of thread `t` is a scheduling point. Instructions that will
    /// stop as unsupported are visible too, so that other threads may move before them.
    fn is_visible(&self, s: &State, t: Tid, inst: &Inst) -> bool {
        let local = |op: &Operand, write| self.is_local(s, t, self.eval(s, t, op), write);
        match &inst.kind {
            InstKind::Load { ptr, .. } => !local(ptr, false),
            InstKind::Store { ptr, .. }
            | InstKind::AtomicRmw { ptr, .. }
            | InstKind::CmpXchg { ptr, .. }
            | InstKind::MemSet { ptr, .. } => !local(ptr, true),
            InstKind::MemCopy { dst, src, .. } => !(local(dst, true) && local(src, false)),
            // Exact: whether the allocation fails is a choice.
            InstKind::HeapAlloc { .. } if self.options.exact => true,
            InstKind::HeapAlloc { from: Some(p), .. } => self.eval(s, t, p) != Value::NULL,
            InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::ThreadCreate { .. }
            | InstKind::ThreadJoin { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Nondet { .. } => true,
            InstKind::Havoc {
                clobbers_memory, ..
            } => *clobbers_memory,
            // A false assumption ends the execution: other threads may move before it.
            InstKind::Assume { cond } => {
                !matches!(self.eval(s, t, cond), Value::Int { v, .. } if v != 0)
            }
            InstKind::Call { callee, args, .. } => match self.callee(s, t, callee) {
                None => true,
                Some(f) => match self.ext[f.index()] {
                    Ext::Defined
                    | Ext::Lib(Run::Zero)
                    | Ext::Lib(Run::NoEffect)
                    | Ext::Lib(Run::SelfTid)
                    | Ext::Lib(Run::Equal) => false,
                    Ext::Lib(Run::TryLock) | Ext::Lib(Run::CondWait) | Ext::Lib(Run::Free) => true,
                    Ext::Lib(Run::KeyCreate) | Ext::Lib(Run::KeyDelete) => true,
                    Ext::Lib(Run::GetSpecific) | Ext::Lib(Run::SetSpecific) => false,
                    Ext::Lib(Run::Strlen) => args.first().is_none_or(|a| !local(a, false)),
                    Ext::Lib(Run::Unknown) => {
                        self.unknown_call_check(s, t, f, args).is_err()
                            || self.unknown_result(f, &inst.kind).is_some()
                    }
                    Ext::ReturnsTwice => true,
                },
            },
            _ => false,
        }
    }

    /// Whether thread `t`'s terminator ends the process (`exit`, `main` returning): a
    /// scheduling point, so that other threads may move between the thread's last visible
    /// operation and the end of every thread.
    fn ends_process(&self, s: &State, t: Tid) -> bool {
        let th = &s.threads[t];
        let fr = self.top(s, t);
        match self.program.funcs[fr.func.index()].blocks[fr.block.index()].term {
            Terminator::Stop {
                reason: StopReason::ProcessExit,
            } => true,
            Terminator::Ret(_) => t == 0 && th.frames.len() == 1,
            _ => false,
        }
    }

    /// Whether thread `t`'s next step ends the process (`main` returning, `exit`).
    pub fn ends_process_next(&self, s: &State, t: Tid) -> bool {
        s.threads[t].at == At::Inst && self.cur_inst(s, t).is_none() && self.ends_process(s, t)
    }

    /// An unknown external function may write what its pointer arguments reach: refused
    /// unless every argument is an integer, null, data given to a function assumed to write
    /// nothing (`--assume-no-write`), a harness entry (the harness runs it; a
    /// driver's `request_irq(irq, handler, ...)`) or a sealed global (`sealed_globals`: a
    /// name string, a `const` ops table of entries).
    fn unknown_call_check(&self, s: &State, t: Tid, f: FuncId, args: &[Operand]) -> Exec<()> {
        // `--assume-no-write`: the user says it changes no memory, so data it is given may
        // be handed over (a callback still may not: it may be called back).
        let writes_nothing = self.program.assumed_no_write.binary_search(&f).is_ok();
        for a in args {
            match (self.eval(s, t, a), self.op_ty(s, t, a)) {
                (Value::Int { .. }, _) | (Value::Unknown, Ty::Int(_)) => {}
                (Value::NULL, _) => {}
                (Value::Ptr(Ptr::Mem { .. } | Ptr::Raw(_)), _) if writes_nothing => {}
                (Value::Ptr(Ptr::Func(f)), _)
                    if self.program.harness_entries.binary_search(&f).is_ok() => {}
                (Value::Ptr(Ptr::Mem { alloc, .. }), _)
                    if matches!(s.mem[alloc as usize].kind,
                        AllocKind::Global(g) if self.sealed[g.index()]) => {}
                _ => return unsupported("a pointer passed to an unknown function"),
            }
        }
        Ok(())
    }

    /// Thread `t` takes its next input into `dst` (of type `ty`): the forced value, else
    /// alternative `alt` of the candidates; the step shows it in the C type of `dst`, named
    /// `name` or else after `dst`.
    #[allow(clippy::too_many_arguments)]
    fn take_input(
        &self,
        s: &mut State,
        t: Tid,
        dst: VarId,
        ty: Ty,
        is_bool: bool,
        alt: usize,
        name: Option<String>,
    ) -> StepKind {
        let v = match (self.forced_input(s, t), ty) {
            (Some(f), Ty::Int(bits)) if is_bool => Value::int((f != 0) as i128, bits),
            (Some(f), Ty::Int(bits)) => Value::int(f, bits),
            _ => {
                let values = self.input_values_of(s, t, dst, ty, is_bool);
                values[alt.min(values.len() - 1)]
            }
        };
        if self.forced.is_some() {
            s.threads.focus_mut(t).inputs += 1;
        }
        let func = s.threads[t].frames.last().map(|fr| fr.func);
        self.set(s, t, dst, v);
        let (value, bits) = match v {
            Value::Int { v, bits } if is_bool || bits == 1 => (v as i128, 1),
            Value::Int { v, bits } => (sext(v, bits), bits),
            _ => (0, 128),
        };
        let var = func.and_then(|f| self.program.funcs[f.index()].vars.get(dst.index()));
        StepKind::Input(InputValue {
            value,
            name: name.or_else(|| var.and_then(|i| i.name.clone())),
            ty: CInt::new(bits, var.map_or(Signedness::Signed, |i| i.sign)),
        })
    }

    /// The integer type of the result of `inst`, a call of the unknown function `f`, when it
    /// is an input (its candidate values are alternatives, or the forced value): the function
    /// is not known, so any value it returns is a possible execution, and `if (register(..))`
    /// must be decided. `None` for no result or a result of another type (`Unknown`).
    fn unknown_result(&self, f: FuncId, inst: &InstKind) -> Option<Ty> {
        let InstKind::Call { dst: Some(_), .. } = inst else {
            return None;
        };
        match self.program.funcs[f.index()].ret {
            Some(ty @ Ty::Int(bits)) if self.inputs.contains_key(&bits) => Some(ty),
            _ => None,
        }
    }

    /// Runs thread `t`'s next visible operation (alternative `alt`). The thread is enabled.
    fn exec_pending(&self, s: &mut State, t: Tid, alt: usize) -> (Option<Span>, Exec<StepKind>) {
        match s.threads[t].at {
            At::Start => {
                let th = s.threads.focus_mut(t);
                th.at = At::Inst;
                if th.frames.is_empty() {
                    let frame = self.frame(th.entry, &[th.arg]);
                    th.frames.push(frame);
                }
                s.unstarted -= 1;
                let span = self.program.funcs[s.threads[t].entry.index()].span;
                (span, Ok(StepKind::Start))
            }
            At::Relock { alloc, off } => {
                let inst = self.cur_inst(s, t).expect("cond_wait call");
                s.locks.insert((alloc, off), t);
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                if let InstKind::Call { dst, .. } = &inst.kind {
                    self.set_opt(s, t, *dst, Value::int(0, 32));
                }
                s.threads.focus_mut(t).at = At::Inst;
                if s.shadow.on() {
                    if let InstKind::Call { dst, .. } = &inst.kind {
                        self.sh_extern(s, t, *dst, &[], None);
                    }
                    self.sh_relock(s, alloc, off);
                }
                self.advance(s, t);
                let name = self.describe_lock(s, alloc, off);
                (inst.span, Ok(StepKind::Lock(name)))
            }
            At::Inst => {
                let Some(inst) = self.cur_inst(s, t) else {
                    // A pending terminator ends the process: its step never precedes a
                    // violation, so its kind is never shown.
                    let fr = self.top(s, t);
                    let span =
                        self.program.funcs[fr.func.index()].blocks[fr.block.index()].term_span;
                    let r = self.count(s).and_then(|()| self.exec_term(s, t));
                    return (span, r.map(|()| placeholder_kind()));
                };
                let r = self
                    .count(s)
                    .and_then(|()| self.exec_inst(s, t, inst, alt, true));
                (inst.span, r.map(|k| k.unwrap_or_else(placeholder_kind)))
            }
            At::Finished | At::Cut | At::Spins => {
                (None, unsupported("a finished thread was scheduled"))
            }
        }
    }

    fn count(&self, s: &mut State) -> Exec<()> {
        s.steps += 1;
        if s.steps > self.options.max_steps {
            return Err(Status::Cut);
        }
        Ok(())
    }

    /// Runs thread `t`'s local code up to its next visible operation, its end, or the end
    /// of the execution.
    fn run_local(&self, s: &mut State, t: Tid) -> Exec<()> {
        let mut spin = self.options.exact.then(SpinCheck::default);
        while s.threads[t].at == At::Inst && s.status == Status::Running {
            match self.cur_inst(s, t) {
                Some(inst) => {
                    if self.is_visible(s, t, inst) {
                        return Ok(());
                    }
                    self.count(s)?;
                    self.exec_inst(s, t, inst, 0, false)?;
                }
                None => {
                    if self.ends_process(s, t) {
                        return Ok(());
                    }
                    self.count(s)?;
                    self.exec_term(s, t)?;
                    // Soundness: local code reads and writes only what this thread alone
                    // reaches, so it is a function of the memory and the thread's own state:
                    // when both come back, it loops forever.
                    if let Some(c) = spin.as_mut() {
                        if c.repeats(|| fingerprint(&(&s.mem, &s.threads[t]))) {
                            s.threads.focus_mut(t).at = At::Spins;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Moves thread `t`'s top frame along the edge to `target`: phis in parallel, then the
    /// loop bound.
    fn goto(&self, s: &mut State, t: Tid, target: BlockId) -> Exec<()> {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[target.index()];
        let from = fr.block;
        let values: Vec<(VarId, Value)> = block
            .phis
            .iter()
            .map(|phi| {
                let v = phi
                    .incoming
                    .iter()
                    .find(|(p, _)| *p == from)
                    .map_or(Value::Unknown, |(_, o)| self.eval(s, t, o));
                (phi.dst, v)
            })
            .collect();
        let phis = s.shadow.on().then(|| self.sh_phis(s, t, target));
        if let Some(p) = phis {
            self.sh_set_phis(s, t, p);
        }
        let bound = self.options.bound;
        let fr = self.top_mut(s, t);
        for (d, v) in values {
            fr.vars[d.index()] = v;
        }
        fr.block = target;
        fr.pc = 0;
        if self.options.exact {
            // Unbounded: a state must not remember how often a loop went round.
            return Ok(());
        }
        let n = &mut fr.visits[target.index()];
        *n += 1;
        if *n > bound.saturating_add(1) {
            s.threads.focus_mut(t).at = At::Cut;
            s.cut += 1;
        }
        Ok(())
    }

    fn exec_term(&self, s: &mut State, t: Tid) -> Exec<()> {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[fr.block.index()];
        let here = self.here(block.term_span);
        if s.shadow.on() {
            self.sh_term(s, t);
        }
        match &block.term {
            Terminator::Br(b) => self.goto(s, t, *b),
            Terminator::CondBr { cond, then_, else_ } => match self.eval(s, t, cond) {
                Value::Int { v, .. } => self.goto(s, t, if v != 0 { *then_ } else { *else_ }),
                _ => unsupported(format!("an unknown value decides a branch{here}")),
            },
            Terminator::Switch {
                value,
                bits,
                cases,
                default,
            } => match self.eval(s, t, value) {
                Value::Int { v, .. } => {
                    let target = cases
                        .iter()
                        .find(|(c, _)| mask(*c as u128, *bits) == v)
                        .map_or(*default, |(_, b)| *b);
                    self.goto(s, t, target)
                }
                _ => unsupported(format!("an unknown value decides a switch{here}")),
            },
            Terminator::Ret(op) => {
                let v = op.as_ref().map_or(Value::Unknown, |o| self.eval(s, t, o));
                let sym = match op {
                    Some(o) if s.shadow.on() => self.sh_sym(s, t, o),
                    _ => None,
                };
                self.pop_frame(s, t);
                if s.threads[t].frames.is_empty() {
                    if t == 0 && s.threads[t].ending.is_none() {
                        // `main` returned: the process exits.
                        return Err(Status::Done);
                    }
                    return self.end_thread(s, t, v);
                }
                if let Some(InstKind::Call { dst, .. }) = self.cur_inst(s, t).map(|i| &i.kind) {
                    self.set_opt(s, t, *dst, v);
                    if s.shadow.on() {
                        self.sh_ret(s, t, *dst, sym);
                    }
                }
                self.advance(s, t);
                Ok(())
            }
            Terminator::Stop { reason } => match reason {
                StopReason::ProcessExit => Err(Status::Done),
                StopReason::ThreadExit => {
                    // The IR keeps no operand of `pthread_exit`: its result is unknown.
                    self.end_thread(s, t, Value::Unknown)
                }
                StopReason::Unreachable => {
                    unsupported(format!("reached `unreachable` (undefined behaviour){here}"))
                }
                // Soundness: a `longjmp` continues at a `setjmp`, not here; stopping the thread
                // would be an execution no program has, so the run is abandoned.
                StopReason::LongJmp => unsupported(format!("`longjmp` is not executed{here}")),
            },
        }
    }

    /// Executes `inst` of thread `t`, advancing its position. Returns the step kind when
    /// `visible` (the kind of a local instruction is not needed).
    fn exec_inst(
        &self,
        s: &mut State,
        t: Tid,
        inst: &'p Inst,
        alt: usize,
        visible: bool,
    ) -> Exec<Option<StepKind>> {
        let here = || self.at(inst.span);
        let ev = |s: &State, o: &Operand| self.eval(s, t, o);
        let mut kind = None;
        if visible && s.shadow.on() {
            self.sh_pre_visible(s, t, inst);
        }
        match &inst.kind {
            InstKind::Bin {
                dst,
                op,
                a,
                b,
                bits,
            } => {
                let v = binop(*op, ev(s, a), ev(s, b), *bits).map_err(|e| {
                    Status::Unsupported(Abandon::Unmodelled(format!("{e}{}", here())))
                })?;
                self.set(s, t, *dst, v);
            }
            InstKind::Cmp {
                dst,
                pred,
                a,
                b,
                bits,
            } => {
                let (a, b) = (ev(s, a), ev(s, b));
                let v = self.compare(s, *pred, a, b, *bits);
                self.set(
                    s,
                    t,
                    *dst,
                    v.map_or(Value::Unknown, |c| Value::int(c as i128, 1)),
                );
            }
            InstKind::Cast {
                dst,
                op,
                src,
                from,
                to,
            } => {
                let v = self.cast(s, *op, ev(s, src), *from, *to);
                self.set(s, t, *dst, v);
            }
            InstKind::Select { dst, cond, t: a, f } => {
                let (a, f) = (ev(s, a), ev(s, f));
                let v = match ev(s, cond) {
                    Value::Int { v, .. } => {
                        if v != 0 {
                            a
                        } else {
                            f
                        }
                    }
                    _ if a == f => a,
                    _ => Value::Unknown,
                };
                self.set(s, t, *dst, v);
            }
            InstKind::Copy { dst, src } => {
                let v = ev(s, src);
                self.set(s, t, *dst, v);
            }
            InstKind::Gep {
                dst,
                base,
                offset,
                indices,
            } => {
                let mut delta = Some(*offset);
                for (i, stride) in indices {
                    delta = match (delta, ev(s, i)) {
                        (Some(d), Value::Int { v, bits }) => Some(
                            d.wrapping_add((sext(v, bits) as i64).wrapping_mul(*stride as i64)),
                        ),
                        _ => None,
                    };
                }
                let v = match (ev(s, base), delta) {
                    (Value::Ptr(Ptr::Mem { alloc, off }), Some(d)) => Value::Ptr(Ptr::Mem {
                        alloc,
                        off: off.wrapping_add(d),
                    }),
                    (Value::Ptr(Ptr::Raw(x)), Some(d)) => Value::Ptr(Ptr::Raw(mask(
                        x.wrapping_add(d as u64) as u128,
                        self.program.pointer_size * 8,
                    )
                        as u64)),
                    _ => Value::Unknown,
                };
                self.set(s, t, *dst, v);
            }
            InstKind::Alloca { dst, obj } => {
                let size = self.program.objects[obj.index()]
                    .layout
                    .as_ref()
                    .map(Layout::size);
                let id = s.mem.len() as u32;
                let mut a = Alloc::new(
                    AllocKind::Stack {
                        obj: *obj,
                        owner: t,
                    },
                    size,
                    Byte::Unknown,
                );
                a.key = self.alloc_key(s, t);
                s.mem.push(a);
                self.top_mut(s, t).allocas.push(id);
                self.set(s, t, *dst, Value::Ptr(Ptr::Mem { alloc: id, off: 0 }));
            }
            InstKind::HeapAlloc {
                dst,
                obj,
                zeroed,
                from,
            } => {
                if self.options.exact {
                    // Alternative 1: the allocation fails (null; a `realloc` keeps its block).
                    kind = Some(StepKind::Input(InputValue {
                        value: i128::from(alt == 0),
                        name: Some("the allocation succeeds".to_string()),
                        ty: CInt::new(1, Signedness::Unsigned),
                    }));
                    if alt == 1 {
                        self.set(s, t, *dst, Value::NULL);
                        self.advance(s, t);
                        return Ok(kind);
                    }
                }
                // Soundness (no false violation): a block fresh from the system holds zeros, one
                // of the contents a real `malloc` may hand out (a restriction, like the input
                // candidates); the exact mode keeps every content possible (unknown bytes).
                let fill = if *zeroed || !self.options.exact {
                    Byte::Data(0)
                } else {
                    Byte::Unknown
                };
                let mut block = Alloc::new(AllocKind::Heap(*obj), None, fill);
                if let Some(p) = from {
                    match ev(s, p) {
                        Value::NULL => {}
                        Value::Ptr(Ptr::Mem { alloc, off: 0 })
                            if matches!(s.mem[alloc as usize].kind, AllocKind::Heap(_))
                                && s.mem[alloc as usize].live =>
                        {
                            let old = s.mem.make_mut(alloc as usize);
                            block.bytes = std::mem::take(&mut old.bytes);
                            block.fill = old.fill;
                            old.kill();
                            if visible {
                                kind = Some(StepKind::Write {
                                    loc: self.describe_object(s, alloc, 0),
                                    value: "(moved by realloc)".into(),
                                });
                            }
                        }
                        _ => {
                            return unsupported(format!(
                                "realloc of a pointer that is not a live heap block{}",
                                here()
                            ))
                        }
                    }
                }
                let id = s.mem.len() as u32;
                block.key = self.alloc_key(s, t);
                let n = s.heap_blocks.entry(obj.0).or_insert(0);
                block.ordinal = *n;
                *n += 1;
                s.mem.push(block);
                self.set(s, t, *dst, Value::Ptr(Ptr::Mem { alloc: id, off: 0 }));
            }
            InstKind::Load {
                dst, ptr, ty, size, ..
            } => {
                let p = ev(s, ptr);
                let v = self.load(s, p, *ty, *size)?;
                self.set(s, t, *dst, v);
                if visible {
                    kind = Some(StepKind::Read {
                        loc: self.loc(s, p),
                        value: self.show_at(s, p, *size, v),
                    });
                }
            }
            InstKind::Store { ptr, val, size, .. } => {
                let (p, v) = (ev(s, ptr), ev(s, val));
                self.store(s, p, v, *size)?;
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: self.show_at(s, p, *size, v),
                    });
                }
            }
            InstKind::AtomicRmw {
                dst,
                op,
                ptr,
                val,
                bits,
            } => {
                let (p, operand) = (ev(s, ptr), ev(s, val));
                let (ty, size) = self.access_ty(*bits);
                let old = self.load(s, p, ty, size)?;
                let new = rmw(*op, old, operand, *bits);
                self.store(s, p, new, size)?;
                self.set(s, t, *dst, old);
                if visible {
                    kind = Some(StepKind::Update {
                        loc: self.loc(s, p),
                        read: self.show_at(s, p, size, old),
                        written: Some(self.show_at(s, p, size, new)),
                    });
                }
            }
            InstKind::CmpXchg {
                old,
                ok,
                ptr,
                expected,
                new,
                bits,
            } => {
                let (p, e, n) = (ev(s, ptr), ev(s, expected), ev(s, new));
                let (ty, size) = self.access_ty(*bits);
                let cur = self.load(s, p, ty, size)?;
                let Some(equal) = self.compare(s, CmpPred::Eq, cur, e, *bits) else {
                    return unsupported(format!(
                        "an unknown value decides a compare-exchange{}",
                        here()
                    ));
                };
                if equal {
                    self.store(s, p, n, size)?;
                }
                self.set(s, t, *old, cur);
                self.set(s, t, *ok, Value::int(equal as i128, 1));
                if visible {
                    kind = Some(StepKind::Update {
                        loc: self.loc(s, p),
                        read: self.show_at(s, p, size, cur),
                        written: equal.then(|| self.show_at(s, p, size, n)),
                    });
                }
            }
            InstKind::MemSet { ptr, val, len } => {
                let p = ev(s, ptr);
                let n = self.length(ev(s, len), "memset")?;
                let byte = match ev(s, val) {
                    Value::Int { v, .. } => Byte::Data(v as u8),
                    _ => Byte::Unknown,
                };
                if n > 0 {
                    self.write(s, p, &vec![byte; n as usize])?;
                }
                if visible {
                    let b = match byte {
                        Byte::Data(d) => d.to_string(),
                        _ => "?".into(),
                    };
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: format!("{b} ({n} bytes, memset)"),
                    });
                }
            }
            InstKind::MemCopy { dst, src, len } => {
                let (d, from) = (ev(s, dst), ev(s, src));
                let n = self.length(ev(s, len), "memcpy")?;
                if n > 0 {
                    let bytes = self.read(s, from, n)?;
                    self.write(s, d, &bytes)?;
                }
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, d),
                        value: format!("{n} bytes from {}", self.loc(s, from)),
                    });
                }
            }
            InstKind::Call { dst, callee, args } => {
                return self.exec_call(s, t, inst, *dst, callee, args, alt, visible);
            }
            InstKind::ThreadCreate {
                dst,
                handle,
                entry,
                arg,
            } => {
                let f = match ev(s, entry) {
                    Value::Ptr(Ptr::Func(f)) if self.program.funcs[f.index()].is_defined => f,
                    _ => {
                        return unsupported(format!(
                            "pthread_create of an unknown entry function{}",
                            here()
                        ))
                    }
                };
                self.result_restricted(s, t, *dst, "pthread_create")?;
                let a = ev(s, arg);
                self.escape(s, a);
                let child = s.threads.len();
                let instance = s.instances.entry(f.0).or_insert(0);
                *instance += 1;
                let instance = *instance;
                s.unstarted += 1;
                s.threads.push(Thread {
                    entry: f,
                    instance,
                    // Its frame is made when it starts: a thread that never starts (one of
                    // 10,000 parked) costs its slot alone.
                    frames: Stack::default(),
                    arg: a,
                    at: At::Start,
                    ret: Value::Unknown,
                    joined: false,
                    allocs: 0,
                    inputs: 0,
                    tls: Vec::new(),
                    specific: Vec::new(),
                    ending: None,
                    destructors: 0,
                });
                self.thread_local_copies(s, child);
                // A null handle (the driver harness) names no thread to join.
                let h = ev(s, handle);
                if h != Value::NULL {
                    let bits = self.program.pointer_size * 8;
                    self.store(s, h, Value::int(child as i128, bits), bits / 8)?;
                }
                self.set_opt(s, t, *dst, Value::int(0, 32));
                self.thread_loop_round(s, t);
                kind = Some(StepKind::Spawn {
                    child,
                    entry: self.program.funcs[f.index()].name.clone(),
                });
            }
            InstKind::ThreadJoin {
                dst,
                handle,
                retval,
            } => {
                self.result_restricted(s, t, *dst, "pthread_join")?;
                let c = self.join_target(s, t, handle)?;
                if s.threads[c].joined {
                    return unsupported(format!("a thread joined twice{}", here()));
                }
                s.threads.focus_mut(c).joined = true;
                let r = ev(s, retval);
                if r != Value::NULL {
                    let v = s.threads[c].ret;
                    self.store(s, r, v, self.program.pointer_size)?;
                }
                self.set_opt(s, t, *dst, Value::int(0, 32));
                self.thread_loop_round(s, t);
                kind = Some(StepKind::Join(c));
            }
            InstKind::Lock {
                dst,
                lock,
                exclusive,
            } => {
                // Soundness: read locks are taken exclusively, a restriction of the real
                // behaviours (every schedule shown is still possible).
                if !exclusive {
                    self.restricted(|| format!("a read lock is taken exclusively{}", here()))?;
                }
                self.result_restricted(s, t, *dst, "pthread_mutex_lock")?;
                let (alloc, off) = self.lock_addr(s, t, lock)?;
                if s.locks.get(&(alloc, off)) == Some(&t) {
                    self.restricted(|| {
                        format!(
                            "a thread locks a mutex it holds, which its type decides{}",
                            here()
                        )
                    })?;
                }
                s.locks.insert((alloc, off), t);
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                self.set_opt(s, t, *dst, Value::int(0, 32));
                kind = Some(StepKind::Lock(self.describe_lock(s, alloc, off)));
            }
            InstKind::Unlock { dst, lock } => {
                self.result_restricted(s, t, *dst, "pthread_mutex_unlock")?;
                let (alloc, off) = self.lock_addr(s, t, lock)?;
                self.release(s, t, alloc, off)?;
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                self.set_opt(s, t, *dst, Value::int(0, 32));
                kind = Some(StepKind::Unlock(self.describe_lock(s, alloc, off)));
            }
            InstKind::AtomicBegin => {
                let depth = match s.atomic {
                    Some((a, d)) if a == t => d + 1,
                    _ => 1,
                };
                s.atomic = Some((t, depth));
                kind = Some(StepKind::AtomicBegin);
            }
            InstKind::AtomicEnd => {
                s.atomic = match s.atomic {
                    Some((a, d)) if a == t && d > 1 => Some((a, d - 1)),
                    Some((a, _)) if a == t => None,
                    _ => {
                        return unsupported(format!(
                            "__VERIFIER_atomic_end outside an atomic section{}",
                            here()
                        ))
                    }
                };
                kind = Some(StepKind::AtomicEnd);
            }
            InstKind::Assert { id, cond } => {
                if let (true, Some(c)) = (s.shadow.on(), cond) {
                    self.sh_check(s, t, c, Some(*id));
                }
                let failed = match (self.program.asserts[id.index()].kind, cond) {
                    (AssertKind::VerifierAssert, Some(c)) => match ev(s, c) {
                        Value::Int { v, .. } => v == 0,
                        _ => {
                            return unsupported(format!(
                                "an unknown value decides an assertion{}",
                                here()
                            ))
                        }
                    },
                    // Reaching the instruction is the failure.
                    _ => true,
                };
                if failed {
                    return Err(Status::Violated(*id));
                }
            }
            InstKind::Assume { cond } => {
                if s.shadow.on() {
                    self.sh_check(s, t, cond, None);
                }
                match ev(s, cond) {
                    Value::Int { v: 0, .. } => return Err(Status::Discarded),
                    Value::Int { .. } => {}
                    _ => {
                        return unsupported(format!(
                            "an unknown value decides an assumption{}",
                            here()
                        ))
                    }
                }
            }
            InstKind::Nondet { dst, ty, is_bool } => {
                if !(*is_bool || *ty == Ty::Int(1)) {
                    self.restricted(|| {
                        format!("an input takes only a few candidate values{}", here())
                    })?;
                }
                // Named after the variable that gets it: a parameter of an `--entry` function
                // (the harness names the input after it) or the variable a
                // `__VERIFIER_nondet_*` result is assigned to.
                kind = Some(self.take_input(s, t, *dst, *ty, *is_bool, alt, None));
            }
            InstKind::Havoc {
                dst,
                clobbers_memory,
                reason,
            } => {
                if *clobbers_memory {
                    return unsupported(format!("{reason}{}", here()));
                }
                let func = self.top(s, t).func;
                let v = match dst.and_then(|d| self.tls_addrs.get(&(func, d))) {
                    // `llvm.threadlocal.address`: the running thread's copy (C's meaning).
                    Some(&g) => self.eval(s, t, &Operand::GlobalAddr(g, 0)),
                    None => Value::Unknown,
                };
                self.set_opt(s, t, *dst, v);
            }
        }
        if s.shadow.on() {
            self.sh_inst(s, t, inst, visible);
        }
        self.advance(s, t);
        Ok(kind)
    }

    fn access_ty(&self, bits: u32) -> (Ty, u32) {
        if bits == 0 {
            (Ty::Ptr, self.program.pointer_size)
        } else {
            (Ty::Int(bits), bits.div_ceil(8))
        }
    }

    fn lock_addr(&self, s: &State, t: Tid, lock: &Operand) -> Exec<(u32, i64)> {
        match self.eval(s, t, lock) {
            Value::Ptr(Ptr::Mem { alloc, off }) if s.mem[alloc as usize].live => Ok((alloc, off)),
            v => unsupported(format!(
                "a lock at an unknown address ({})",
                self.show(s, v)
            )),
        }
    }

    /// A synchronisation function changed the bytes of its object (`size` bytes,
    /// `sizeof(pthread_mutex_t)` and friends; 64 when the module does not say), which the
    /// interpreter does not model, so a read of them as data is unknown.
    ///
    /// Soundness (no false violation, issue 20): a read of a mutex's bytes after a lock must
    /// not see what was there before (the C library wrote its lock word and owner).
    fn sync_object_written(&self, s: &mut State, alloc: u32, off: i64, size: Option<u64>) {
        self.sync_object_filled(s, alloc, off, size, Byte::Unknown);
    }

    /// As `sync_object_written`, every byte set to `fill`.
    fn sync_object_filled(
        &self,
        s: &mut State,
        alloc: u32,
        off: i64,
        size: Option<u64>,
        fill: Byte,
    ) {
        let a = &s.mem[alloc as usize];
        let end = a.size.unwrap_or(u64::MAX);
        let n = size
            .unwrap_or(64)
            .min(end.saturating_sub(off.max(0) as u64));
        let _ = s
            .mem
            .make_mut(alloc as usize)
            .write(off, &vec![fill; n as usize]);
    }

    fn release(&self, s: &mut State, t: Tid, alloc: u32, off: i64) -> Exec<()> {
        if s.locks.get(&(alloc, off)) != Some(&t) {
            return unsupported(format!(
                "unlock of `{}`, which this thread does not hold",
                self.describe_location(s, alloc, off)
            ));
        }
        s.locks.remove(&(alloc, off));
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_call(
        &self,
        s: &mut State,
        t: Tid,
        inst: &'p Inst,
        dst: Option<VarId>,
        callee: &Callee,
        args: &[Operand],
        alt: usize,
        visible: bool,
    ) -> Exec<Option<StepKind>> {
        let here = self.here(inst.span);
        let Some(f) = self.callee(s, t, callee) else {
            return unsupported(format!("a call through an unknown function pointer{here}"));
        };
        let func = &self.program.funcs[f.index()];
        let vals: Vec<Value> = args.iter().map(|a| self.eval(s, t, a)).collect();
        let int32 = |v: i128| {
            Value::int(
                v,
                match func.ret {
                    Some(Ty::Int(b)) => b,
                    _ => 32,
                },
            )
        };
        let mut kind = None;
        // The result variable when it is an input (an unknown function's integer result).
        let mut input = None;
        // The library function, for a declared one.
        let lib = func.library();
        let sync_op = lib.and_then(|l| l.props().sync_op);
        let written_by = |arg: usize| lib.and_then(|l| self.program.sync_sizes.written_by(l, arg));
        match self.ext[f.index()] {
            // Soundness: the second return (after a `longjmp`) is not executed; an execution
            // that went on past `setjmp` without it would not be faithful, so none does.
            Ext::ReturnsTwice => {
                return unsupported(format!(
                    "`{}` may return twice: setjmp and longjmp are not executed{here}",
                    func.name
                ))
            }
            Ext::Defined => {
                // Soundness: the execution is abandoned, so nothing is claimed about it.
                if s.threads[t].frames.len() >= MAX_FRAMES {
                    return unsupported(format!(
                        "a thread's calls nest more than {MAX_FRAMES} deep{here}"
                    ));
                }
                let syms = s.shadow.on().then(|| self.sh_args(s, t, args));
                let caller = self.top(s, t).func;
                let mut vals = vals;
                for (b, ub) in (self.program.user_buffers.iter().enumerate())
                    .filter(|(_, ub)| ub.caller == caller && ub.callee == f)
                {
                    let arg = ub.arg as usize;
                    if !matches!(args.get(arg), Some(Operand::Unknown(Ty::Ptr))) {
                        continue;
                    }
                    // Soundness (no false violation): the harness passes any pointer; a fresh
                    // buffer whose bytes all hold one input value is one of them (a user's
                    // buffer), a restriction the exact mode does not make.
                    self.restricted(|| {
                        format!("a pointer argument is taken as a fresh buffer{here}")
                    })?;
                    let fill = match self.top(s, t).vars[ub.fill.index()] {
                        Value::Int { v, .. } => Byte::Data(v as u8),
                        _ => Byte::Unknown,
                    };
                    let mut a = Alloc::new(
                        AllocKind::Buffer {
                            buffer: b as u32,
                            owner: t,
                        },
                        None,
                        fill,
                    );
                    a.key = self.alloc_key(s, t);
                    let id = s.mem.len() as u32;
                    s.mem.push(a);
                    vals[arg] = Value::Ptr(Ptr::Mem { alloc: id, off: 0 });
                }
                let frame = self.frame(f, &vals);
                s.threads.focus_mut(t).frames.push(frame);
                if let Some(syms) = syms {
                    self.sh_push(s, t, f, syms);
                }
                // The caller stays at the call until the callee returns.
                return Ok(None);
            }
            Ext::Lib(Run::TryLock) => {
                if sync_op == Some(SyncOp::TryLock { exclusive: false }) {
                    self.restricted(|| format!("a read lock is taken exclusively{here}"))?;
                }
                let (alloc, off) = self.lock_addr(s, t, args.first().unwrap_or(&Operand::Null))?;
                if s.locks.get(&(alloc, off)) == Some(&t) {
                    self.restricted(|| {
                        format!("a thread tries a mutex it holds, which its type decides{here}")
                    })?;
                }
                let name = self.describe_lock(s, alloc, off);
                self.sync_object_written(s, alloc, off, written_by(0));
                let taken = match s.locks.entry((alloc, off)) {
                    std::collections::btree_map::Entry::Vacant(e) => {
                        e.insert(t);
                        true
                    }
                    std::collections::btree_map::Entry::Occupied(_) => false,
                };
                if taken {
                    self.set_opt(s, t, dst, int32(0));
                    kind = Some(StepKind::Lock(name));
                } else {
                    self.set_opt(s, t, dst, int32(EBUSY));
                    kind = Some(StepKind::TryLockFailed(name));
                }
            }
            Ext::Lib(Run::CondWait) => {
                if sync_op == Some(SyncOp::CondWait { timed: true }) {
                    self.restricted(|| format!("a timed wait never times out{here}"))?;
                }
                self.result_restricted(s, t, dst, &func.name)?;
                // Releases the mutex, then waits to take it again: a spurious wake-up, which
                // POSIX allows, so no signal is needed.
                let (alloc, off) = self.lock_addr(s, t, args.get(1).unwrap_or(&Operand::Null))?;
                self.release(s, t, alloc, off)?;
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                if let Some(Value::Ptr(Ptr::Mem { alloc, off })) = vals.first().copied() {
                    self.sync_object_written(s, alloc, off, self.program.sync_sizes.cond);
                }
                if s.shadow.on() {
                    let loc = self.sh_object_loc(s, t, args.get(1), false);
                    self.sh_extern(s, t, None, args, loc.map(shadow_unlock));
                }
                s.threads.focus_mut(t).at = At::Relock { alloc, off };
                return Ok(Some(StepKind::Unlock(
                    self.describe_location(s, alloc, off),
                )));
            }
            Ext::Lib(Run::Zero) => {
                if lib == Some(LibFn::PthreadMutexattrSettype) {
                    self.restricted(|| format!("mutex types are not modelled{here}"))?;
                }
                self.result_restricted(s, t, dst, &func.name)?;
                if let (Some(n), Some(Value::Ptr(Ptr::Mem { alloc, off }))) =
                    (written_by(0), vals.first().copied())
                {
                    if s.mem[alloc as usize].live {
                        // glibc and musl: `pthread_mutex_init(m, NULL)` zeroes the mutex, a
                        // real content; the exact mode keeps every C library's possible.
                        let zeroed = lib == Some(LibFn::PthreadMutexInit)
                            && vals.get(1) == Some(&Value::NULL)
                            && !self.options.exact;
                        let fill = if zeroed { Byte::Data(0) } else { Byte::Unknown };
                        self.sync_object_filled(s, alloc, off, Some(n), fill);
                    }
                }
                self.set_opt(s, t, dst, int32(0))
            }
            Ext::Lib(Run::NoEffect) => {
                // Output may write through a pointer (`%n`): only constants may be handed over.
                if self.options.exact {
                    if let Err(Status::Unsupported(_)) = self.unknown_call_check(s, t, f, args) {
                        return Err(Status::Unsupported(Abandon::PointerToUnknown {
                            function: func.name.clone(),
                            at: here.to_string(),
                        }));
                    }
                }
                for v in vals {
                    self.escape(s, v);
                }
                self.set_opt(s, t, dst, Value::Unknown);
            }
            Ext::Lib(Run::Free) => match vals.first().copied().unwrap_or(Value::Unknown) {
                Value::NULL => {}
                Value::Ptr(Ptr::Mem { alloc, off: 0 })
                    if matches!(s.mem[alloc as usize].kind, AllocKind::Heap(_))
                        && s.mem[alloc as usize].live =>
                {
                    if visible {
                        kind = Some(StepKind::Write {
                            loc: self.describe_location(s, alloc, 0),
                            value: "(freed)".into(),
                        });
                    }
                    s.mem.make_mut(alloc as usize).kill();
                }
                _ => {
                    return unsupported(format!(
                        "free of a pointer that is not a live heap block{here}"
                    ))
                }
            },
            // Exact: the value is the thread's number, not the C library's.
            Ext::Lib(Run::SelfTid) if self.options.exact && dst.is_some() => {
                self.result_restricted(s, t, dst, &func.name)?;
            }
            Ext::Lib(Run::SelfTid) => self.set_opt(
                s,
                t,
                dst,
                Value::int(t as i128, self.program.pointer_size * 8),
            ),
            Ext::Lib(Run::Equal) => {
                let eq = match (vals.first(), vals.get(1)) {
                    (Some(Value::Int { v: a, .. }), Some(Value::Int { v: b, .. })) => a == b,
                    _ => return unsupported(format!("pthread_equal of unknown handles{here}")),
                };
                self.set_opt(s, t, dst, int32(eq as i128));
            }
            Ext::Lib(Run::Strlen) => {
                let p = vals.first().copied().unwrap_or(Value::Unknown);
                let (alloc, off) = self.resolve(s, p, false)?;
                let mut n = 0i64;
                loop {
                    let b = s.mem[alloc as usize]
                        .read(off + n, 1)
                        .or_else(|e| unsupported(format!("strlen: {e}{here}")))?;
                    match b[0] {
                        Byte::Data(0) => break,
                        Byte::Data(_) => n += 1,
                        _ => return unsupported(format!("strlen of unknown bytes{here}")),
                    }
                }
                let len = Value::int(n as i128, self.program.pointer_size * 8);
                self.set_opt(s, t, dst, len);
                if visible {
                    kind = Some(StepKind::Read {
                        loc: self.loc(s, p),
                        value: format!("a string of length {n}"),
                    });
                }
            }
            Ext::Lib(Run::KeyCreate) => {
                self.result_restricted(s, t, dst, &func.name)?;
                let k = s.keys.len() as u32;
                let dtor = vals.get(1).copied().unwrap_or(Value::NULL);
                s.keys.push((dtor, true));
                let p = vals.first().copied().unwrap_or(Value::Unknown);
                self.store(s, p, Value::int(i128::from(k), 32), 4)?;
                if visible {
                    kind = Some(StepKind::Write {
                        loc: self.loc(s, p),
                        value: format!("{k} (a new key)"),
                    });
                }
                self.set_opt(s, t, dst, int32(0));
            }
            Ext::Lib(Run::KeyDelete) | Ext::Lib(Run::GetSpecific) | Ext::Lib(Run::SetSpecific) => {
                let k = match vals.first() {
                    Some(Value::Int { v, .. })
                        if (*v as usize) < s.keys.len() && s.keys[*v as usize].1 =>
                    {
                        *v as u32
                    }
                    _ => {
                        return unsupported(format!(
                            "`{}` of a key that was not created{here}",
                            func.name
                        ))
                    }
                };
                match self.ext[f.index()] {
                    Ext::Lib(Run::KeyDelete) => {
                        self.result_restricted(s, t, dst, &func.name)?;
                        s.keys[k as usize].1 = false;
                        if visible {
                            kind = Some(StepKind::Write {
                                loc: format!("key {k}"),
                                value: "(deleted)".into(),
                            });
                        }
                        self.set_opt(s, t, dst, int32(0));
                    }
                    Ext::Lib(Run::GetSpecific) => {
                        let v = (s.threads[t].specific.iter())
                            .find(|e| e.0 == k)
                            .map_or(Value::NULL, |e| e.1);
                        self.set_opt(s, t, dst, v);
                    }
                    _ => {
                        self.result_restricted(s, t, dst, &func.name)?;
                        let v = vals.get(1).copied().unwrap_or(Value::Unknown);
                        let th = s.threads.focus_mut(t);
                        match th.specific.iter_mut().find(|e| e.0 == k) {
                            Some(e) => e.1 = v,
                            None => th.specific.push((k, v)),
                        }
                        self.set_opt(s, t, dst, int32(0));
                    }
                }
            }
            Ext::Lib(Run::Unknown) => {
                // A function the program does not define may write any global it names.
                self.restricted(|| {
                    format!("a call of the unknown function `{}`{here}", func.name)
                })?;
                if let Err(Status::Unsupported(_)) = self.unknown_call_check(s, t, f, args) {
                    return Err(Status::Unsupported(Abandon::PointerToUnknown {
                        function: func.name.clone(),
                        at: here.to_string(),
                    }));
                }
                match (self.unknown_result(f, &inst.kind), dst) {
                    (Some(ty), Some(d)) => {
                        // Named after the call (`register_chrdev()`).
                        let name = Some(format!("{}()", func.name));
                        kind = Some(self.take_input(s, t, d, ty, false, alt, name));
                        input = Some(d);
                    }
                    _ => self.set_opt(s, t, dst, Value::Unknown),
                }
            }
        }
        if s.shadow.on() {
            let event = match (&kind, self.ext[f.index()]) {
                (Some(StepKind::Lock(_)), _) => self
                    .sh_object_loc(s, t, args.first(), false)
                    .map(crate::explore::symbolic::trace::EventKind::Lock),
                (Some(StepKind::Write { .. }), Ext::Lib(Run::Free)) => self
                    .sh_object_loc(s, t, args.first(), true)
                    .map(|loc| crate::explore::symbolic::trace::EventKind::Clobber { loc }),
                _ => None,
            };
            self.sh_extern(s, t, dst, args, event);
            if let Some(d) = input {
                self.sh_input(s, t, d, false);
            }
        }
        self.advance(s, t);
        Ok(kind)
    }

    /// `a pred b`, or `None` when it depends on something unknown (addresses of distinct
    /// objects, unknown values).
    fn compare(&self, s: &mut State, pred: CmpPred, a: Value, b: Value, bits: u32) -> Option<bool> {
        use CmpPred::*;
        let ints =
            |x: u128, y: u128, bits: u32| crate::explore::symbolic::expr::cmp(pred, x, y, bits);
        let pbits = self.program.pointer_size * 8;
        // Distinct objects, or an object and null: only equality is known.
        let distinct = || match pred {
            Eq => Some(false),
            Ne => Some(true),
            _ => None,
        };
        match (a, b) {
            (Value::Int { v: x, .. }, Value::Int { v: y, .. }) => Some(ints(x, y, bits.max(1))),
            (Value::Ptr(p), Value::Ptr(q)) => match (p, q) {
                (Ptr::Raw(x), Ptr::Raw(y)) => Some(ints(x.into(), y.into(), pbits)),
                (Ptr::Mem { alloc: a1, off: o1 }, Ptr::Mem { alloc: a2, off: o2 }) => {
                    if a1 == a2 {
                        // Same object: the base address cancels out.
                        let (x, y) = (o1, o2);
                        Some(match pred {
                            Eq => x == y,
                            Ne => x != y,
                            Ugt | Sgt => x > y,
                            Uge | Sge => x >= y,
                            Ult | Slt => x < y,
                            Ule | Sle => x <= y,
                        })
                    } else if s.mem[a1 as usize].in_bounds(o1) && s.mem[a2 as usize].in_bounds(o2) {
                        distinct()
                    } else {
                        // One past the end of one object may be the start of another.
                        None
                    }
                }
                (Ptr::Func(f), Ptr::Func(g)) => match pred {
                    Eq => Some(f == g),
                    Ne => Some(f != g),
                    _ => None,
                },
                (Ptr::Raw(0), _) | (_, Ptr::Raw(0)) => distinct(),
                (Ptr::Func(_), Ptr::Mem { .. }) | (Ptr::Mem { .. }, Ptr::Func(_)) => distinct(),
                _ => None,
            }
            .or_else(|| {
                // Outside the exact mode, the addresses decide (`addr`).
                let x = self.int_of_ptr(s, p)?;
                let y = self.int_of_ptr(s, q)?;
                Some(ints(x.into(), y.into(), pbits))
            }),
            _ => None,
        }
    }
}

/// Brent's cycle detection over the states a thread's local code passes at its jumps, from
/// the `START`-th jump of one step on (a short loop costs nothing).
#[derive(Default)]
struct SpinCheck {
    jumps: u64,
    saved: Option<u128>,
    power: u64,
    length: u64,
}

impl SpinCheck {
    const START: u64 = 1000;

    /// Whether the state `now` gives was seen before in this step.
    fn repeats(&mut self, now: impl FnOnce() -> u128) -> bool {
        self.jumps += 1;
        if self.jumps < Self::START {
            return false;
        }
        let now = now();
        if self.saved == Some(now) {
            return true;
        }
        self.length += 1;
        if self.length >= self.power {
            self.saved = Some(now);
            self.power = (self.power * 2).max(1);
            self.length = 0;
        }
        false
    }
}

/// A 128-bit fingerprint of `x` (two independent 64-bit hashes).
fn fingerprint<T: std::hash::Hash>(x: &T) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u8| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        x.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// Per function, per variable: whether an instruction, a phi or a terminator reads it.
fn used_vars(program: &Program) -> Vec<Vec<bool>> {
    (program.funcs.iter())
        .map(|f| {
            let mut used = vec![false; f.vars.len()];
            let mut mark = |o: &Operand| {
                if let Operand::Var(v) = o {
                    used[v.index()] = true;
                }
            };
            for b in &f.blocks {
                b.phis
                    .iter()
                    .flat_map(|p| &p.incoming)
                    .for_each(|(_, o)| mark(o));
                b.insts.iter().for_each(|i| i.kind.for_each_use(&mut mark));
                match &b.term {
                    Terminator::CondBr { cond: o, .. }
                    | Terminator::Switch { value: o, .. }
                    | Terminator::Ret(Some(o)) => mark(o),
                    Terminator::Br(_) | Terminator::Ret(None) | Terminator::Stop { .. } => {}
                }
            }
            used
        })
        .collect()
}

/// The kind of a step whose visible operation has no kind of its own (it ends the execution:
/// a process exit, a false assumption, an unsupported operation), so no witness shows it.
fn placeholder_kind() -> StepKind {
    StepKind::End
}

fn shadow_unlock(loc: Loc) -> crate::explore::symbolic::trace::EventKind {
    crate::explore::symbolic::trace::EventKind::Unlock(loc)
}
