//! Witnesses as data: the steps of an execution that fails an assertion (or reaches a race),
//! which `explore` produces and `report` renders, and the witness file (`--witness-dir`, the
//! `witness` of the JSON report) that `watts replay` reads.
//!
//! Invariant: data and its serde form only (no wording, no replay, no file system): a witness
//! file holds everything replay needs besides the program's sources (inputs, clang arguments,
//! harness, bound, the (thread, alternative) of every step) and names its assertion by id,
//! line and condition, so that a witness of another version of the program is rejected rather
//! than misread.
//!
//! The file (`--witness-dir`; `witness` in JSON): version 2 records each input step's value
//! (`StepOut::input`), which `watts replay` forces; version 1 files still replay by
//! alternatives; version 3 marks runs that follow thread loops (`thread_loops`). Each step also
//! carries its operation as data (`Action`: `op`, `memory`, `value`, `written`, `thread`, and
//! `reads_from`, the last earlier step that wrote the same memory when it wrote the value read),
//! which the HTML report draws; replay ignores it. Inputs are stored absolute and, in a file,
//! also relative to the file (`inputs_from_witness`), with per-input compilation-database flags
//! (`input_args`); `watts replay` looks for each input next to the witness first, so it works
//! from any directory and after the tree moves.
//!
//! Invariant: a witness file is untrusted: `watts replay` (`crate::replay`) passes to clang only
//! the flags that `project::gate` accepts for a witness (include paths, macros, standard,
//! target, and flags that change what C means), and refuses anything else (`-o`, `-fplugin=`,
//! `-Xclang`, `-B`, `--config`, `@file`, `-Wl,`) with exit 2 before clang runs; the writer keeps
//! only those flags (path values absolute).

use crate::ir::{AssertId, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// The version of the witness file format. Version 2 records the value of every input step
/// ([`StepOut::input`]), which replay forces (the symbolic search chooses values outside the
/// candidate set); version 3 says whether loops that create threads were bounded
/// ([`WitnessFile::thread_loops`]); version 1 and 2 files are still read.
pub const VERSION: u32 = 3;

/// The oldest witness file version this watts replays.
pub const OLDEST_VERSION: u32 = 1;

/// A violated assertion and the execution that fails it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The assertion.
    pub assertion: AssertId,
    /// (thread, alternative) of every step, from the initial state.
    pub choices: Vec<(Tid, usize)>,
    /// What each step did.
    pub steps: Vec<StepInfo>,
    /// Thread names by `Tid`.
    pub threads: Vec<String>,
    /// The loop bound it was found with.
    pub bound: u32,
    /// Whether loops that create or join threads were unbounded (a sampled run).
    pub thread_loops: bool,
}

impl Witness {
    /// The name of thread `t`.
    pub fn thread(&self, t: Tid) -> &str {
        self.threads.get(t).map_or("?", String::as_str)
    }
}

/// The witness file (`--witness-dir`, and `witness` in the JSON report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessFile {
    /// [`VERSION`].
    pub version: u32,
    /// The program: inputs as given, and how they were compiled.
    pub program: ProgramRef,
    /// The violated assertion.
    pub assertion: AssertionRef,
    /// The loop bound the explorer ran with (replay uses the same).
    pub bound: u32,
    /// Version 3: loops that create or join threads were not bounded by `bound` (a sampled
    /// run; replay runs the same way).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub thread_loops: bool,
    /// Every step, in order.
    pub steps: Vec<StepOut>,
}

/// How to rebuild the program of a witness.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramRef {
    /// Input files, absolute (version 1 files: as given, relative to where watts ran).
    pub inputs: Vec<String>,
    /// The same files relative to the witness file's directory (only in witness files), so
    /// that a tree moved or copied together with its witnesses still replays.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs_from_witness: Vec<String>,
    /// Per-input flags of a compilation database (`-p`), by index into `inputs`; empty when
    /// there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_args: Vec<Vec<String>>,
    /// Extra clang arguments: only those [`check_clang_args`] accepts, path values absolute.
    pub clang_args: Vec<String>,
    /// `--init` of a driver harness.
    #[serde(default)]
    pub init: Option<String>,
    /// `--entry` of a driver harness, as typed (`FN`, `FN:N`, `FN:*`).
    #[serde(default)]
    pub entries: Vec<String>,
    /// `--entries-from` of a driver harness, as typed (`TABLE`, `TABLE:N`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries_from: Vec<String>,
    /// `--entries-exported` of a harness.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entries_exported: bool,
    /// `--assume-no-write`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assume_no_write: Vec<String>,
}

/// Which assertion a witness fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssertionRef {
    /// `A1` is the first assertion of the program.
    pub id: String,
    /// Source file, line and condition, checked on replay.
    pub file: String,
    pub line: Option<u32>,
    pub condition: String,
}

/// One step of a witness file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepOut {
    /// 1-based.
    pub step: usize,
    /// The thread that moved: its id (0 is main) and name.
    pub tid: Tid,
    pub thread: String,
    /// Which alternative of a nondeterministic input (0 otherwise).
    pub alternative: usize,
    /// The value an input step returned (version 2): replay forces it, whatever the
    /// alternative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<i128>,
    /// What it did, in words.
    pub event: String,
    /// What it did, as data (`event` says the same in words): for tools that draw the
    /// execution, such as the HTML report. Absent from files of watts before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    /// Where, when known.
    pub file: Option<String>,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// A step's operation as data.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// `read`, `write`, `update`, `lock`, `unlock`, `trylock-failed`, `spawn`, `join`,
    /// `atomic-begin`, `atomic-end`, `input`, `start` or `end`.
    pub op: String,
    /// The memory read or written, or the lock (as `event` names them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<String>,
    /// The value read (or written, for `write`; or given, for `input`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The value an `update` wrote (none when its compare-exchange failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<String>,
    /// The thread a `spawn` created or a `join` waited for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<Tid>,
    /// For a `read` or an `update`: the step (1-based) whose write it saw, the last earlier
    /// write of the same memory, when that write wrote the value read; none when it read the
    /// initial value (or a write the execution does not list as a step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads_from: Option<usize>,
}

impl Action {
    fn of(kind: &StepKind) -> Action {
        let mut a = Action {
            op: String::new(),
            memory: None,
            value: None,
            written: None,
            thread: None,
            reads_from: None,
        };
        let op = match kind {
            StepKind::Read { loc, value } => {
                (a.memory, a.value) = (Some(loc.clone()), Some(value.clone()));
                "read"
            }
            StepKind::Write { loc, value } => {
                (a.memory, a.value) = (Some(loc.clone()), Some(value.clone()));
                "write"
            }
            StepKind::Update { loc, read, written } => {
                (a.memory, a.value) = (Some(loc.clone()), Some(read.clone()));
                a.written = written.clone();
                "update"
            }
            StepKind::Lock(m) => {
                a.memory = Some(m.clone());
                "lock"
            }
            StepKind::Unlock(m) => {
                a.memory = Some(m.clone());
                "unlock"
            }
            StepKind::TryLockFailed(m) => {
                a.memory = Some(m.clone());
                "trylock-failed"
            }
            StepKind::Spawn { child, .. } => {
                a.thread = Some(*child);
                "spawn"
            }
            StepKind::Join(t) => {
                a.thread = Some(*t);
                "join"
            }
            StepKind::AtomicBegin => "atomic-begin",
            StepKind::AtomicEnd => "atomic-end",
            StepKind::Input(v) => {
                a.value = Some(v.ty.show_value(v.value));
                "input"
            }
            StepKind::Start => "start",
            StepKind::End => "end",
        };
        a.op = op.to_string();
        a
    }
}

/// The actions of `kinds`, each read and update with the step it read from: the last earlier
/// step that wrote the same memory, if it wrote the value read. (Under sequential consistency
/// a read sees the last write before it; a name shared by two objects, such as one local of
/// two instances of a thread, or a write that is no step, shows as a different value, and
/// then no step is named.)
pub fn actions<'a>(kinds: impl Iterator<Item = &'a StepKind>) -> Vec<Action> {
    let mut last: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, kind) in kinds.enumerate() {
        let mut a = Action::of(kind);
        if matches!(kind, StepKind::Read { .. } | StepKind::Update { .. }) {
            if let (Some(m), Some(v)) = (&a.memory, &a.value) {
                a.reads_from = (last.get(m))
                    .filter(|(_, w)| w == v)
                    .map(|(step, _)| step + 1);
            }
        }
        let wrote = match kind {
            StepKind::Write { value, .. } => Some(value),
            StepKind::Update {
                written: Some(w), ..
            } => Some(w),
            _ => None,
        };
        if let (Some(m), Some(v)) = (&a.memory, wrote) {
            last.insert(m.clone(), (i, v.clone()));
        }
        out.push(a);
    }
    out
}

/// The assertion's reference in a witness file.
pub fn assertion_ref(
    program: &crate::ir::Program,
    id: AssertId,
    path_of: &dyn Fn(Span) -> String,
) -> AssertionRef {
    // A confirmed race (`crate::explore::RaceTarget`) has an id past the assertions.
    let Some(info) = program.asserts.get(id.index()) else {
        return AssertionRef {
            id: format!("R{}", id.index() - program.asserts.len() + 1),
            file: String::new(),
            line: None,
            condition: "data race".to_string(),
        };
    };
    AssertionRef {
        id: format!("A{}", id.index() + 1),
        file: info.span.map(path_of).unwrap_or_default(),
        line: info.span.map(|s| s.line),
        condition: info.condition.clone(),
    }
}

impl WitnessFile {
    /// Reads a witness file's text (untrusted: any malformed text is an error, never a panic).
    pub fn from_json(text: &str) -> Result<WitnessFile, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The (thread, alternative) schedule and the forced input values: [`schedule`].
    pub fn schedule(&self) -> Schedule {
        schedule(self.steps.iter().map(|s| (s.tid, s.alternative, s.input)))
    }

    /// Whether it is the witness of a data race (`R1`), whose last two steps are the accesses.
    pub fn is_race(&self) -> bool {
        self.assertion.id.starts_with('R') && self.assertion.condition == "data race"
    }

    /// The assertion id (`A3` → 2), if well formed.
    pub fn assertion_id(&self) -> Option<AssertId> {
        let n: usize = self.assertion.id.strip_prefix('A')?.parse().ok()?;
        n.checked_sub(1).map(AssertId::from)
    }
}

/// A replayable execution: the (thread, alternative) of every step, and the forced input
/// values by (thread, n-th input of the thread).
pub type Schedule = (Vec<(Tid, usize)>, BTreeMap<(Tid, u32), i128>);

/// The schedule of steps given as (thread, alternative, input value), and the input values
/// it forces: the `n`-th input step of thread `t` returns `inputs[(t, n)]`. An input step with
/// a value has one alternative, 0 (the value is forced); steps without one (version 1 files,
/// which replay by alternatives) keep their alternative.
pub fn schedule(steps: impl Iterator<Item = (Tid, usize, Option<i128>)>) -> Schedule {
    let mut count: BTreeMap<Tid, u32> = BTreeMap::new();
    let mut inputs = BTreeMap::new();
    let choices = steps
        .map(|(tid, alternative, input)| match input {
            Some(v) => {
                let n = count.entry(tid).or_default();
                inputs.insert((tid, *n), v);
                *n += 1;
                (tid, 0)
            }
            None => (tid, alternative),
        })
        .collect();
    (choices, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(loc: &str, value: &str) -> StepKind {
        StepKind::Read {
            loc: loc.to_string(),
            value: value.to_string(),
        }
    }

    fn write(loc: &str, value: &str) -> StepKind {
        StepKind::Write {
            loc: loc.to_string(),
            value: value.to_string(),
        }
    }

    #[test]
    fn a_read_names_the_last_write_of_its_value() {
        let steps = [
            read("count", "0"),
            write("count", "1"),
            read("count", "1"),
            write("flag", "1"),
            write("count", "2"),
            read("count", "1"),
            StepKind::Update {
                loc: "count".to_string(),
                read: "2".to_string(),
                written: Some("3".to_string()),
            },
            read("count", "3"),
        ];
        let a = actions(steps.iter());
        let from: Vec<Option<usize>> = a.iter().map(|a| a.reads_from).collect();
        // The initial value; step 2's write; step 5's write of 2 does not give 1 (another
        // object of the same name), so nothing; the update read step 5; the read, the update.
        assert_eq!(
            from,
            [None, None, Some(2), None, None, None, Some(5), Some(7)]
        );
        assert_eq!(a[6].op, "update");
        assert_eq!(a[6].written.as_deref(), Some("3"));
    }

    #[test]
    fn spawns_and_joins_name_their_thread() {
        let a = actions(
            [
                StepKind::Spawn {
                    child: 2,
                    entry: "inc".to_string(),
                },
                StepKind::Join(2),
                StepKind::Lock("m".to_string()),
            ]
            .iter(),
        );
        assert_eq!((a[0].op.as_str(), a[0].thread), ("spawn", Some(2)));
        assert_eq!((a[1].op.as_str(), a[1].thread), ("join", Some(2)));
        assert_eq!(
            (a[2].op.as_str(), a[2].memory.as_deref()),
            ("lock", Some("m"))
        );
    }
}
