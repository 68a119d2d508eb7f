//! Witnesses: the schedule of a violation, as the report shows it (numbered steps with their
//! source positions), as a JSON file, and replayed (`watts replay`).
//!
//! Invariant: a witness file holds everything replay needs besides the program's sources
//! (inputs, clang arguments, harness, bound, the (thread, alternative) of every step) and names
//! its assertion by id, line and condition, so that a witness of another version of the
//! program is rejected rather than misread.
//!
//! The file (`--witness-dir`; `witness` in JSON): version 2 records each input step's value
//! (`StepOut::input`), which `watts replay` forces (`replay_with_inputs`); version 1 files still
//! replay by alternatives; version 3 marks runs that follow thread loops (`thread_loops`). Each
//! step also carries its operation as data (`Action`: `op`, `memory`, `value`, `written`, `thread`,
//! and `reads_from`, the last earlier step that wrote the same memory when it wrote the value read;
//! `actions`), which the HTML report draws; replay ignores it. Inputs are stored absolute and, in a
//! file, also relative to the file (`inputs_from_witness`), with per-input compilation-database
//! flags (`input_args`); `watts replay` looks for each input next to the witness first
//! (`resolve_input`), so it works from any directory and after the tree moves.
//!
//! Invariant: a witness file is untrusted: `watts replay` passes to clang only the flags
//! `check_clang_args` accepts (include paths, macros, standard, target, and flags that change what
//! C means, through `project::gate`), and refuses anything else (`-o`, `-fplugin=`, `-Xclang`,
//! `-B`, `--config`, `@file`, `-Wl,`) with exit 2 before clang runs; the writer keeps only those
//! flags (`witness_clang_args`, path values absolute).

use super::search::Violation;
use super::{InputValue, StepInfo, StepKind, Tid};
use crate::ir::{AssertId, Program, Span};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

impl From<Violation> for Witness {
    fn from(v: Violation) -> Self {
        Witness {
            assertion: v.assertion,
            choices: v.choices,
            steps: v.steps,
            threads: v.threads,
            bound: v.bound,
            thread_loops: v.thread_loops,
        }
    }
}

impl Witness {
    /// The name of thread `t`.
    pub fn thread(&self, t: Tid) -> &str {
        self.threads.get(t).map_or("?", String::as_str)
    }

    /// The steps people see, each with its line: `(3) worker: writes x = 1`. A thread's
    /// `Start` step (which carries no access) is left out, and the rest are numbered in order.
    pub fn lines(&self) -> Vec<(&StepInfo, String)> {
        self.steps
            .iter()
            .filter(|s| s.kind != StepKind::Start)
            .enumerate()
            .map(|(i, s)| {
                let text = format!("({}) {}: {}", i + 1, self.thread(s.tid), event(&s.kind));
                (s, text)
            })
            .collect()
    }
}

/// A step's operation in words.
pub fn event(kind: &StepKind) -> String {
    match kind {
        StepKind::Read { loc, value } => format!("reads {loc} = {value}"),
        StepKind::Write { loc, value } => format!("writes {loc} = {value}"),
        StepKind::Update {
            loc,
            read,
            written: Some(w),
        } => format!("updates {loc} from {read} to {w}"),
        StepKind::Update {
            loc,
            read,
            written: None,
        } => format!("reads {loc} = {read} (compare-exchange fails)"),
        StepKind::Lock(m) => format!("locks {m}"),
        StepKind::Unlock(m) => format!("unlocks {m}"),
        StepKind::TryLockFailed(m) => format!("fails to trylock {m}"),
        StepKind::Spawn { child, entry } => format!("creates thread {child} ({entry})"),
        StepKind::Join(t) => format!("joins thread {t}"),
        StepKind::AtomicBegin => "enters an atomic section".to_string(),
        StepKind::AtomicEnd => "leaves the atomic section".to_string(),
        StepKind::Input(InputValue {
            value,
            name: Some(name),
            ty,
        }) => format!("gets the input {name} = {}", ty.show_value(*value)),
        StepKind::Input(InputValue {
            value,
            name: None,
            ty,
        }) => format!("gets the input {}", ty.show_value(*value)),
        StepKind::Start => "starts".to_string(),
        StepKind::End => "ends the execution".to_string(),
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    program: &Program,
    id: AssertId,
    path_of: &dyn Fn(Span) -> String,
) -> AssertionRef {
    // A confirmed race (`super::RaceTarget`) has an id past the assertions.
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
    /// The file of witness `w`.
    pub fn new(
        w: &Witness,
        program: &Program,
        program_ref: ProgramRef,
        path_of: &dyn Fn(Span) -> String,
    ) -> WitnessFile {
        let actions = actions(w.steps.iter().map(|s| &s.kind));
        WitnessFile {
            version: VERSION,
            program: program_ref,
            assertion: assertion_ref(program, w.assertion, path_of),
            bound: w.bound,
            thread_loops: w.thread_loops,
            steps: w
                .steps
                .iter()
                .zip(&w.choices)
                .zip(actions)
                .enumerate()
                .map(|(i, ((s, &(tid, alternative)), action))| StepOut {
                    step: i + 1,
                    tid,
                    thread: w.thread(s.tid).to_string(),
                    alternative,
                    input: match &s.kind {
                        StepKind::Input(v) => Some(v.value),
                        _ => None,
                    },
                    event: event(&s.kind),
                    action: Some(action),
                    file: s.span.map(path_of),
                    line: s.span.map(|s| s.line),
                    column: s.span.map(|s| s.col),
                })
                .collect(),
        }
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

/// Replays `choices` on `program` with loop bound `bound` (and loops that create threads
/// unbounded, with `thread_loops`) and the forced `inputs`
/// ([`super::Interp::with_inputs`]; none: the alternatives choose): exit status 1 and a
/// message when assertion `id` fails at the end, 0 when the execution does not fail it; `Err`
/// when the schedule does not fit the program.
pub fn replay_with_inputs(
    program: &Program,
    bound: u32,
    thread_loops: bool,
    id: AssertId,
    choices: &[(Tid, usize)],
    inputs: BTreeMap<(Tid, u32), i128>,
) -> Result<(u8, String), String> {
    use super::{search, Status, System};
    let interp = replay_interp(program, bound, thread_loops, inputs)?;
    let (end, steps) = search::replay(&interp, choices)?;
    let name = format!("A{}", id.index() + 1);
    Ok(match interp.status(&end) {
        Status::Violated(v) if v == id => {
            (1, format!("{name} fails again after {} steps", steps.len()))
        }
        Status::Violated(v) => (
            0,
            format!("the execution fails A{} instead of {name}", v.index() + 1),
        ),
        other => (0, format!("{name} does not fail: {}", ending(&other))),
    })
}

/// The interpreter that replays a witness: its loop bound, the sampled runs' way with loops
/// that create threads when it was found by one (`thread_loops`; the step budget only cuts, so
/// a larger one replays every witness the same way), and its forced input values.
pub fn replay_interp(
    program: &Program,
    bound: u32,
    thread_loops: bool,
    inputs: BTreeMap<(Tid, u32), i128>,
) -> Result<super::Interp<'_>, String> {
    use super::{Interp, InterpOptions};
    let interp = Interp::new(
        program,
        InterpOptions {
            bound,
            ..InterpOptions::default()
        },
    )?;
    let interp = if thread_loops {
        interp.sampled(bound)
    } else {
        interp
    };
    Ok(if inputs.is_empty() {
        interp
    } else {
        interp.with_inputs(std::sync::Arc::new(inputs))
    })
}

/// How an execution that fails no assertion ended, in words.
pub(crate) fn ending(status: &super::Status) -> String {
    use super::Status;
    match status {
        Status::Running => "the schedule ends before the execution does".to_string(),
        Status::Violated(v) => format!("the execution fails A{}", v.index() + 1),
        Status::Done => "the execution ends normally".to_string(),
        Status::Deadlock => "the execution deadlocks".to_string(),
        Status::Cut => "the execution is cut by the loop bound".to_string(),
        Status::Discarded => "an assumption of the execution is false".to_string(),
        Status::Unsupported(why) => format!("the execution cannot go on ({why})"),
    }
}

/// Checks the clang arguments of a witness file before anything runs: files watts reads are
/// untrusted, so a witness may only carry what the [`crate::project::gate`] lets through
/// (include paths, macros, the standard, the target, flags that change what C means); any
/// other flag (`-o FILE`, `-fplugin=`, `-Xclang -load`, `-B DIR`, `--config FILE`, `@FILE`,
/// `-Wl,...`, `-mllvm`, a stray input file) would make `watts replay` run or write more than
/// the user asked for, and is refused with its name. Relative paths are read against `cwd`,
/// as clang would read them; a file pasted into the program must lie in `cwd`'s repository.
pub fn check_clang_args(args: &[String], cwd: &std::path::Path) -> Result<Vec<String>, String> {
    (crate::project::gate::Gate::new([cwd]))
        .admit_witness(args, cwd)
        .map_err(|r| r.to_string())
}

/// The clang arguments of `args` that a witness keeps, with relative path values made
/// absolute against `cwd` (where watts runs): those the gate lets through. The others
/// (warnings, optimisation, debug flags...) do not change what the program means, or would be
/// refused on replay.
pub fn witness_clang_args(args: &[String], cwd: &std::path::Path) -> Vec<String> {
    crate::project::gate::Gate::new([cwd]).filter(args, cwd)
}

/// The input file `i` of a witness read from `witness`: relative to the witness file first
/// (a tree moved with its witnesses), then the absolute path it was written with; a version 1
/// relative path is tried against the witness's directory, then the current directory.
pub fn resolve_input(
    program: &ProgramRef,
    i: usize,
    witness: &std::path::Path,
) -> Result<std::path::PathBuf, String> {
    use std::path::{Path, PathBuf};
    let dir = witness.parent().unwrap_or(Path::new("."));
    let stored = Path::new(&program.inputs[i]);
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(rel) = program.inputs_from_witness.get(i) {
        tried.push(dir.join(rel));
    }
    if stored.is_absolute() {
        tried.push(stored.to_path_buf());
    } else {
        tried.push(dir.join(stored));
        tried.push(stored.to_path_buf());
    }
    if let Some(found) = tried.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let shown: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "the program's file {} is not found (looked for {})",
        program.inputs[i],
        shown.join(", ")
    ))
}

/// `path` relative to the directory `base` (both absolute), with `..` where needed; `None`
/// when they share no prefix (other drives).
pub fn relative_to(path: &std::path::Path, base: &std::path::Path) -> Option<String> {
    let p: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut out = std::path::PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    Some(out.to_string_lossy().into_owned())
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
