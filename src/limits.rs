//! Every budget and limit of watts, in one place (MIRAI's `k_limits.rs`): what each bounds,
//! and what is lost when it is reached.
//!
//! Invariant: this module names nothing of the crate (a leaf, like `config`), and a limit is
//! defined here and only used elsewhere; the defaults of the options a user can set
//! (`--max-combinations`, `--bound`, `--confirm-budget`, `--pct-depth`, `--max-memory`) are
//! here too, and the command line takes them from here.
//!
//! Soundness: reaching a limit of the analysis loses precision (a join, a widening, a coarser
//! object, `may-fail` with a reason), never a verdict's soundness; reaching a limit of the
//! exploration ends an execution or a search early, so it finds fewer failures and proves
//! fewer assertions by exploration, and never makes it claim more. Limits of reports only
//! shorten what is shown (a count says how much more there is).
//!
//! Two limits live elsewhere: `watts_domains::octagon::MAX_PACK` (the octagon's pack size: the
//! `domains` crate imports nothing from `watts`), and the delay of the progress indicator
//! (`cli`, a second, `WATTS_PROGRESS_AFTER_MS`), which bounds nothing.

use std::time::Duration;

// ---------------------------------------------------------------------------------------
// The per-thread fixpoint (`analysis::engine`).

/// Joins at a widening point before it starts widening: a loop that stabilises within this
/// many iterations keeps its exact bounds; past it the bound that still grows goes to
/// infinity (precision lost, recovered in part by narrowing).
pub const WIDEN_DELAY: u32 = 3;

/// Decreasing (narrowing) passes after the increasing iteration: after them the result is the
/// post-fixpoint reached so far (sound; later passes could only have made it more precise).
pub const NARROW_PASSES: usize = 3;

/// Most phis given constants on one edge that are related to each other in the octagon: a
/// pack holds few variables, and a dozen counters set to 0 would evict every other relation;
/// past it the other phis get their constant without a relation (precision lost).
pub const MAX_RELATED_PHIS: usize = 4;

// ---------------------------------------------------------------------------------------
// Thread CFGs (`threads::cfg`).

/// Deepest call chain inlined into a thread's CFG: a deeper call stays a call analysed on its
/// own from an unknown state (precision lost, noted).
pub const INLINE_MAX_DEPTH: usize = 48;

/// Most instructions in one thread's CFG: past it calls are no longer inlined (as past
/// [`INLINE_MAX_DEPTH`]).
pub const INLINE_MAX_INSTS: usize = 60_000;

// ---------------------------------------------------------------------------------------
// The thread-modular composition (`analysis::compose`, `analysis::sync`).

/// The default of `--max-combinations` (and `max_combinations` of watts.toml): most
/// interference combinations per thread and round in the flow-sensitive modes; past it the
/// thread's shared loads read the join of their stores (flow-insensitive there: precision
/// lost, noted).
pub const DEFAULT_MAX_COMBINATIONS: usize = 4096;

/// Most oracle queries spent looking for a feasible choice of stores inside the groups of one
/// combination; past it the combination is kept unchecked (sound: it is analysed as if
/// feasible).
pub const INNER_LIMIT: usize = 8;

/// Combinations analysed at once (bounds the states held in memory); more are analysed in
/// further chunks, so nothing is lost but parallelism between chunks.
pub const COMBINATION_CHUNK: usize = 32;

/// Most cells one store instruction's event keeps. A store through an unknown pointer (in a
/// function analysed on its own, every store through a parameter) or an unknown call writes
/// every exposed cell: thousands per event, per combination, per thread. Past this, the store
/// goes into `Sink::wide` instead (its values still go into `stores`: precision lost, not
/// soundness).
pub const WIDE_STORE: usize = 256;

/// Rounds of the thread-modular fixpoint after which interference is widened instead of
/// joined (a value that still grows goes to infinity: precision lost).
pub const JOIN_ROUNDS: usize = 2;

/// A safety net: rounds of the thread-modular fixpoint after which the analysis gives up
/// (every verdict still open becomes may-fail, with a reason).
pub const MAX_ROUNDS: usize = 200;

/// Most events the happens-before oracle is built for. Its closures take a bit per pair of
/// events (and event classes): 40,000 events take 200 MB each; pigz's 180 threads had 125,000
/// (1.9 GB each).
///
/// Soundness: without the oracle, the constraint modes prune nothing (as the flow-sensitive
/// mode), which only costs precision.
pub const MAX_ORACLE_EVENTS: usize = 40_000;

// ---------------------------------------------------------------------------------------
// The race check (`analysis::races`).

/// Most calling contexts one function keeps in the race check; past it its contexts become
/// its threads alone (no place, no lock held by the caller), which only keeps more pairs
/// (more may-race reports, never fewer).
pub const RACE_MAX_CONTEXTS: usize = 64;

/// Most pairs of accesses one race report lists one by one for the human notes (every access
/// that takes part is listed, and every pair as products of sets, `Race::pair_groups`).
pub const RACE_MAX_PAIRS: usize = 64;

/// Most accesses the report of lost addresses lists besides its own; the others are counted.
pub const RACE_MAX_COUNTERPARTS: usize = 16;

// ---------------------------------------------------------------------------------------
// Memory (`memory`).

/// Most known offsets into one object that a points-to set keeps before it says "anywhere in
/// it" (precision lost).
///
/// Termination and cost: a pointer walked through an array (`p++` over a 64 KB buffer) or a
/// struct gains one offset per visit of its loop; without a limit the fixpoint takes one round
/// of the whole program per byte (fzy and EasyLogger never finished). "Anywhere" covers every
/// offset, and a walk to the end of its object reaches it anyway.
pub const MAX_OFFSETS: usize = 8;

/// Most byte ranges with a known offset recorded per object in the points-to analysis's
/// `int_written`; past it new ones are recorded at an unknown offset (precision lost).
pub const MAX_INT_RANGES: usize = 16;

/// Offsets into an object allocated once are tracked exactly below this many bytes; a larger
/// object is one cell (its fields are joined: precision lost).
pub const MAX_SPAN: u64 = 4096;

/// Most scalars a layout inferred for a heap object has; a bigger object stays untyped (one
/// cell: precision lost).
pub const HEAP_MAX_FIELDS: usize = 64;

/// Objects with more cells than this are written whole by `memset`/`memcpy` (every cell may
/// be written: precision lost), since finding the cell of each byte is a scan.
pub const MAX_SPAN_CELLS: usize = 256;

// ---------------------------------------------------------------------------------------
// Driver harnesses (`harness`).

/// Above this many instances, an entry is created in a loop (any number of instances, which
/// includes the requested count) instead of once per instance, to bound the analysis work
/// (sound: more instances than asked).
pub const MAX_UNROLLED_INSTANCES: u32 = 8;

// ---------------------------------------------------------------------------------------
// The front end (`frontend`).

/// Most scalars a copy of a constant is lowered into; a bigger constant (a table, a string
/// buffer) stays one copy (precision lost on its elements).
pub const MAX_COPIED_SCALARS: usize = 64;

/// Arrays longer than this are not walked element by element when their contents are unknown
/// (`undef`); the rest is one `Unknown` cell.
pub const MAX_UNKNOWN_ELEMS: u64 = 4096;

/// Deepest chain of typedefs and qualifiers followed to find a type's signedness (the walk
/// recurses; the bound keeps a chain of any length in an untrusted module from exhausting the
/// stack, and ends a cycle). Past it the type has no signedness: its values are shown as
/// signed, as the IR reads them.
pub const SIGNEDNESS_MAX_DEPTH: u32 = 32;

/// How far back from an assertion's condition the walk for named values goes; past it the
/// condition's variables are unnamed in reports.
pub const ASSERT_NAME_MAX_DEPTH: u32 = 4;

/// At most this many values are visited per assertion when naming its condition's variables.
pub const ASSERT_NAME_MAX_VISITS: usize = 64;

/// Source text scanned for an assertion call's arguments, in bytes; the scan stops there (a
/// longer call's arguments are not read from the source).
pub const ASSERT_MAX_SOURCE: usize = 4096;

/// How many times a compile is retried with more `-fno-builtin-NAME` flags; past it clang's
/// error is the input error.
pub const MAX_BUILTIN_RETRIES: usize = 3;

/// The time a child process may take to read one IR input: this many seconds, and
/// [`READ_SECONDS_PER_MIB`] more per MiB of input. Past it the child is killed and the input is
/// an error (a module LLVM takes that long to parse, verify and lower is a pathological one:
/// watts reads the bitcode of an 800 KB C program, 1.8 MB, in under a second).
pub const READ_SECONDS_BASE: u64 = 10;

/// See [`READ_SECONDS_BASE`].
pub const READ_SECONDS_PER_MIB: u64 = 10;

/// How much of an IR-reading child's stderr is kept (its end, where LLVM's and Rust's last
/// words are); the rest is dropped.
pub const STDERR_KEPT_BYTES: usize = 64 * 1024;

/// How many of the last lines of a crashed child's stderr the message quotes.
pub const QUOTED_LINES: usize = 4;

// ---------------------------------------------------------------------------------------
// The whole run: time, memory, files (`cli`, `config`, `budget`, `confine`).

/// The longest time `--timeout` and `--confirm-budget` accept: one year (a longer value is a
/// usage error). A bound is needed because a deadline is an `Instant` plus the budget, and
/// `Instant` panics past its range (`1e308` seconds); a year is longer than any run anyone
/// waits for.
pub const MAX_SECONDS: u64 = 365 * 24 * 60 * 60;

/// The largest default of `--max-memory` (1.5 GiB; the default is a quarter of the physical
/// memory, at most this): a pre-commit hook shares the machine, and a larger budget is one
/// option away. Past the budget a flow-sensitive mode falls back to the flow-insensitive one,
/// and that one to may-fail for everything.
pub const MAX_MEMORY_DEFAULT_CAP: u64 = 3 << 29;

/// The address space a child process may have beyond `--max-memory`: its code and libraries
/// (clang-19 maps about 300 MiB before it reads anything). What is lost: a file whose
/// compilation needs more than this plus the budget is not analysed (an input error).
pub const CHILD_CODE_ALLOWANCE: u64 = 512 << 20;

/// The largest source file whose text a report shows. A larger file (or one that grows past it
/// while read) is shown by name only: its findings keep their positions, without the lines.
/// It bounds the memory a named file can take (`/dev/zero` is refused before, as no regular
/// file).
pub const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The part of a `--property` file read (a property file is a line or two); the rest is
/// ignored.
pub const PROPERTY_FILE_BYTES: usize = 4096;

/// Temporary names tried when an output file is written (each taken name, one more); past it
/// the write fails with the error of the last try.
pub const TEMP_NAME_ATTEMPTS: u32 = 100;

// ---------------------------------------------------------------------------------------
// Trees of programs (`tree`, `report::merge`).

/// The largest cache entry read, and the largest input hashed: a larger one is a cache miss
/// (the program is analysed again).
pub const MAX_CACHE_ENTRY_BYTES: u64 = 256 << 20;

/// The grace a program's run gets past its `--timeout` before it is stopped: its own deadline
/// ends its analysis with may-fail verdicts and a report; this only catches a run that hangs
/// (stopped, it is reported as not analysed).
pub const STOP_GRACE: Duration = Duration::from_secs(30);

/// The most shards `--shard I/N` accepts (a larger N is a usage error).
pub const MAX_SHARDS: usize = 10_000;

/// The largest report file `watts merge` reads; a larger one is an input error.
pub const MAX_MERGE_INPUT_BYTES: u64 = 1 << 30;

// ---------------------------------------------------------------------------------------
// `--confirm` and its budget (`confirm`, `explore::strategy`).

/// The default of `--bound`: most times a thread may enter one block in one function
/// activation beyond the first (a loop bound); an execution past it is cut short (the
/// exhaustive search then deepens it, up to [`MAX_BOUND`]).
pub const DEFAULT_BOUND: u32 = 10;

/// The default of `--confirm-budget`: the wall time of the exploration; past it the
/// assertions not violated yet stay may-fail (with the search's statistics).
pub const DEFAULT_CONFIRM_BUDGET: Duration = Duration::from_secs(10);

/// The default of `--pct-depth`: the ordering constraints a bug may need that PCT finds with
/// its probability guarantee (a deeper bug is found with a lower probability).
pub const DEFAULT_PCT_DEPTH: u32 = 3;

/// The share of `--confirm`'s budget a proof by exploration may take; past it the proof is
/// abandoned and the rest goes to confirming failures.
pub const PROOF_SHARE: f64 = 0.3;

/// The share of `--confirm`'s budget, after the proof, that confirming assertions may take
/// when there are races to confirm too; the rest is the races'.
pub const ASSERTION_SHARE: f64 = 0.6;

/// Random executions the exhaustive search runs first (at the sampling bound, then again at
/// each bound it searches).
pub const RANDOM_WALKS: u64 = 200;

/// The largest loop bound the iterative deepening of the exhaustive search tries; past it the
/// search ends incomplete (no claim that no execution fails).
pub const MAX_BOUND: u32 = 1 << 16;

/// The loop bound of sampled (and random) executions: they need not be exhaustive, so they can
/// afford to go around loops far more often than the exhaustive search; a run past it is cut.
pub const WALK_BOUND: u32 = 1024;

/// Sampled runs of one systematic round of the speed vectors (FSE'18, Algorithm 1): `auto`'s
/// second burst.
pub const BURST_RUNS: u64 = 42;

/// Past this many threads in one execution, `auto` skips the phases whose steps cost more with
/// every thread (the exhaustive search, speed sampling, the symbolic search) and gives their
/// budget to few-threads-far sampling, whose steps cost the same with 10,000 threads as with
/// ten (so no proof by exhaustion there).
pub const MANY_THREADS: usize = 256;

/// The share of the budget at which `auto`'s first phase ends: the few-threads-far runs
/// (`explore::focus`: `main` first, newest first, then drawn focus threads).
pub const FOCUS_SHARE: f64 = 0.1;

/// The share of the budget at which `auto`'s speed burst ends.
pub const BURST_SHARE: f64 = 0.2;

/// The share of the budget at which `auto`'s exhaustive search ends (incomplete, if it had
/// not finished).
pub const EXHAUSTIVE_SHARE: f64 = 0.5;

/// The share of the budget at which `auto`'s symbolic search ends (speed sampling has the
/// rest).
pub const SYMBOLIC_SHARE: f64 = 0.8;

// ---------------------------------------------------------------------------------------
// The interpreter (`explore::interp`).

/// The default loop bound of the interpreter (`InterpOptions::default`, for library users and
/// tests; `--confirm` passes its own): an execution past it is cut short.
pub const INTERP_BOUND: u32 = 3;

/// The default step budget of one execution (`InterpOptions::default`): an execution past it
/// is cut short (it shows no failure past that point).
pub const INTERP_MAX_STEPS: u64 = 200_000;

/// The step budget of a sampled run: enough for 10,000 threads of a few dozen instructions
/// each and the loops that create and join them; a run past it is cut short.
pub const SAMPLED_MAX_STEPS: u64 = 4_000_000;

/// Past this many threads, loops that create threads are bounded again
/// (`InterpOptions::thread_loops`): a loop that creates threads forever is cut by the loop
/// bound soon after, as every other loop, rather than filling memory with threads.
pub const MAX_LOOP_THREADS: usize = 1 << 15;

/// Most frames on one thread's call stack: a call past it abandons the execution (as
/// unsupported), so that deep recursion costs at most this many frames of memory per thread
/// and state. What is lost: executions that recurse deeper are never run, so they show no
/// failure and allow no proof by exploration. (A real thread's 8 MB stack overflows at a
/// depth of the same order for frames of 80 bytes.)
pub const MAX_FRAMES: usize = 100_000;

/// At most this many candidate values for an integer `__VERIFIER_nondet_*`; other values are
/// not tried (a failure that needs one is not found by the interpreter).
pub const MAX_NONDET_CANDIDATES: usize = 12;

/// The most candidate values of the byte a user buffer is filled with; other bytes are not
/// tried.
pub const MAX_FILLS: usize = 6;

/// Growable allocations never grow past this many bytes (a runaway `memset` is not a real
/// program): a write past it fails the execution as out of bounds.
pub const MAX_GROWTH: u64 = 1 << 20;

// ---------------------------------------------------------------------------------------
// Proofs by exploration (`explore::proof`).

/// Instructions one step may run (a thread's local code up to its next visible operation)
/// before the execution is cut: a local loop that never ends, or runs too long to follow. The
/// proof attempt then ends without a proof.
pub const PROOF_STEP_LIMIT: u64 = 5_000_000;

/// Steps of one execution the proof search follows: its stack holds a state per step, so a
/// longer execution (a loop over shared memory that runs a million times) ends the attempt
/// without a proof.
pub const PROOF_MAX_DEPTH: usize = 20_000;

/// Threads of one execution the proof search follows: every state branches over the threads
/// that can move, so the executions of more (a loop that creates 10,000 threads) cannot all be
/// run, and the attempt ends at once (without a proof) rather than with the budget.
pub const PROOF_MAX_THREADS: usize = 64;

// ---------------------------------------------------------------------------------------
// Few-threads-far sampling (`explore::focus`).

/// The most threads besides `main` a run focuses on.
pub const MAX_FOCUS: usize = 2;

/// In a run whose other threads run eagerly, only the first this many do; later ones are
/// parked (a program that creates 10,000 threads would otherwise run them all).
pub const MAX_EAGER: usize = 256;

/// One run in this many is patient: it runs parked threads to their end (a failure after
/// `main` joined thousands of threads needs them all).
pub const PATIENT_RUNS: u64 = 16;

/// A run (but a patient one) ends when running parked threads (while no focus thread could
/// move) cost this much work: the focus threads are done (waiting, say, to join every parked
/// thread), and what is left is the parked threads one after another.
pub const PARKED_TAIL: u64 = 4096;

// ---------------------------------------------------------------------------------------
// The symbolic search (`explore::symbolic`).

/// Concrete runs of one symbolic search (`SymbolicConfig::default`); past it the search ends
/// incomplete.
pub const SYMBOLIC_MAX_RUNS: u64 = 1000;

/// Budget of one solver query (`SymbolicConfig::default`); past it the query is `unknown` and
/// its path is not followed.
pub const SOLVER_TIMEOUT: Duration = Duration::from_secs(10);

/// The most terms of Φ_dc a trace may need before the search stops solving over it: the
/// read-from disjunction is cubic in the accesses of one location, so a large trace would give
/// a script of gigabytes that no solver answers within a budget (the trace is counted as too
/// large and not solved).
pub const MAX_DC_TERMS: u64 = 400_000;

/// The most threads of a trace the search solves over (the encoding's lock and read-from
/// terms grow with every pair of threads); a trace with more is not solved.
pub const SYMBOLIC_MAX_THREADS: usize = 64;

/// The most events of a trace the search solves over; a longer trace is not solved.
pub const SYMBOLIC_MAX_EVENTS: usize = 20_000;

// ---------------------------------------------------------------------------------------
// Reports (`report`, `error`): how much is shown; nothing is lost but words.

/// Most witness steps labelled in a human report's source snippet (all of them are listed in
/// the notes).
pub const MAX_STEP_LABELS: usize = 12;

/// Most accesses of one race labelled in a human report's source snippet.
pub const MAX_ACCESS_LABELS: usize = 8;

/// Most accesses of one race a human report shows at all (labels, then notes); JSON lists
/// every one.
pub const MAX_ACCESS_NOTES: usize = 16;

/// Most pairs of accesses a human report names in the notes.
pub const MAX_PAIR_NOTES: usize = 16;

/// A race's accesses written as HTML; the page's script adds the rest the JSON lists.
pub const HTML_ACCESSES_SHOWN: usize = 12;

/// A race's accesses the JSON's `accesses` and SARIF's `relatedLocations` write in full; the
/// JSON's `access_ids` has every one (kona: 114 races of 10,000 accesses each, which in full
/// made a 333 MB JSON document and an 8 GB SARIF run).
pub const REPORT_ACCESSES_LISTED: usize = 48;

/// How many names a grouped note lists before "and N more".
pub const NOTE_NAMES: usize = 10;

/// How many names a note about the race check's assumption lists before "and N more".
pub const ASSUMED_NAMES: usize = 10;

/// How many names a list in an error message shows before "and N more".
pub const LIST_BOUND: usize = 10;

/// How far a call's parentheses are followed in the source before giving up (bounds the work
/// on unbalanced text); past it the call's end is not found and its snippet falls back to its
/// line.
pub const MAX_CALL_BYTES: usize = 8 * 1024;
