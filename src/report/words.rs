//! The words of every reason, note and cause the layers below give as data: one function per
//! type, so that a sentence is written once and every format shows the same one.
//!
//! Invariant: the only place that turns these types into text; nothing here decides
//! anything (the data says what happened, this says it in English).

use super::plural;
use crate::analysis::races::Incomplete;
use crate::analysis::{AssertVerdict, NoteKind, Reason};
use crate::error::{bytes_text, name_list};
use crate::explore::proof::Gap;
use crate::explore::{Abandon, Abandoned, ExecStatus, Inconclusive, Misfit, Replayed};
use crate::ir::{AssertId, FrontendNote, FuncId, Lenient, Program};
use crate::verdicts::{Assertion, Confirmed, Notice, Search};
use crate::witness::{InputValue, StepKind};

use crate::limits::ASSUMED_NAMES;

/// `A3`: an assertion as every message names it.
fn assertion(id: AssertId) -> String {
    format!("A{}", id.index() + 1)
}

/// `thread main`, `threads t1, t2`, `no thread`.
fn threads(names: &[String]) -> String {
    match names.len() {
        0 => "no thread".to_string(),
        1 => format!("thread {}", names[0]),
        _ => format!("threads {}", names.join(", ")),
    }
}

/// A timeout as the messages show it: `2.0 s`.
fn seconds(d: std::time::Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// The name of function `f` of `program` (`?` for an id it does not have).
fn function(program: &Program, f: FuncId) -> &str {
    program
        .funcs
        .get(f.index())
        .map_or("?", |f| f.name.as_str())
}

/// Why the analysis concluded `verdict` for an assertion reached in `reached` (the threads).
pub fn verdict(verdict: &AssertVerdict, reached: &[String]) -> String {
    let protected = |text: String, lock_protection: bool| {
        if lock_protection {
            text + " (with lock protection)"
        } else {
            text
        }
    };
    match verdict {
        AssertVerdict::Proved { lock_protection } => protected(
            format!("the condition holds in every state of {}", threads(reached)),
            *lock_protection,
        ),
        AssertVerdict::Unreachable { lock_protection } => protected(
            "no analysed execution reaches it".to_string(),
            *lock_protection,
        ),
        AssertVerdict::MayFail(why) => reason(why),
    }
}

/// Why the analysis could not exclude a failure.
pub fn reason(why: &Reason) -> String {
    match why {
        Reason::CannotExclude {
            reach_error,
            only_in,
        } => {
            let why = if *reach_error {
                "the analysis cannot exclude that the call is reached"
            } else {
                "the analysis cannot exclude that the condition is false"
            };
            if only_in.is_empty() {
                why.to_string()
            } else {
                format!("{why} in {}", threads(only_in))
            }
        }
        Reason::OverMemory { budget } => format!(
            "the analysis went past its memory budget ({}, --max-memory) before its fixpoint",
            bytes_text(*budget)
        ),
        Reason::StoppedEarly => {
            "the analysis stopped before its fixpoint (round budget exhausted)".to_string()
        }
        Reason::TimedOut { budget } => timed_out(*budget),
    }
}

fn timed_out(budget: std::time::Duration) -> String {
    format!(
        "the analysis did not finish within the --timeout ({})",
        seconds(budget)
    )
}

/// Why assertion `a` has the status it is reported with: the analysis's reason, or what
/// `--confirm` found.
pub fn assertion_reason(a: &Assertion) -> String {
    let analysed = || verdict(&a.result.verdict, &a.result.threads);
    match &a.confirmed {
        None => analysed(),
        Some(Confirmed::Violated(found)) => match &found.found_by {
            None => "an execution fails it (--confirm): the interleaving is below".to_string(),
            Some(by) => format!(
                "an execution fails it (--confirm, found by {by}): the interleaving is below"
            ),
        },
        Some(Confirmed::ProvedByRunning { executions }) => format!(
            "every execution was run ({}, --confirm) and none fails it",
            plural(*executions as usize, "execution")
        ),
        Some(Confirmed::NotFound(Search::Exhaustive)) => format!(
            "{}; no execution fails it (every execution was run)",
            analysed()
        ),
        Some(Confirmed::NotFound(Search::Bounded { executions, why })) => format!(
            "{}; no failing execution found ({} explored{})",
            analysed(),
            plural(*executions as usize, "execution"),
            inconclusive(why)
        ),
    }
}

/// Why a search that found nothing is not conclusive (`, bound 3 reached`), or nothing.
pub fn inconclusive(limits: &Inconclusive) -> String {
    let mut why = Vec::new();
    if let Some(budget) = limits.budget_ran_out {
        // Tenths under 10 s: a share of a short --timeout is not "0 s".
        let secs = budget.as_secs_f64();
        let digits = if secs < 10.0 { 1 } else { 0 };
        why.push(format!("the budget of {secs:.digits$} s ran out"));
    }
    if let Some(bound) = limits.cut_at {
        why.push(format!("some executions hit the loop bound {bound}"));
    }
    if let Some(bound) = limits.sample_cut_at {
        why.push(format!(
            "some sampled executions hit the loop bound {bound}"
        ));
    }
    if let Some((sampled, samplers)) = &limits.sampled {
        // Soundness: sampling shows failures, never their absence.
        why.push(format!(
            "{sampled} of them sampled ({}), which never covers every execution",
            samplers.join(", ")
        ));
    }
    if limits.restricted_inputs {
        why.push("inputs were taken from a few candidate values".to_string());
    }
    if let Some((construct, _, _)) = by_count(&limits.abandoned).first() {
        let n = limits.abandoned.total();
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

/// Why an execution was abandoned.
pub fn abandon(why: &Abandon) -> String {
    match why {
        Abandon::Unmodelled(what) => what.clone(),
        Abandon::PointerToUnknown { function, at } => {
            format!("a pointer passed to an unknown function (`{function}`){at}")
        }
        Abandon::RvfGaveUp(what) => {
            format!("the reads-value-from search does not model {what}")
        }
        Abandon::NoSolver(why) => why.clone(),
    }
}

/// The causes of `abandoned` in words with their counts, the most common first (ties in the
/// order of their words).
fn by_count(abandoned: &Abandoned) -> Vec<(String, u64, &Abandon)> {
    let mut v: Vec<(String, u64, &Abandon)> = (abandoned.counts())
        .map(|(why, n)| (abandon(why), n, why))
        .collect();
    v.sort_by(|a, b| (std::cmp::Reverse(a.1), &a.0).cmp(&(std::cmp::Reverse(b.1), &b.0)));
    v
}

/// How many of `executions` were abandoned and why, the most common cause first (at most
/// three, each with its count), with what the user can do about the most common one.
pub fn abandoned(executions: u64, abandoned: &Abandoned) -> String {
    let causes = by_count(abandoned);
    let total = abandoned.total();
    let shown: Vec<String> = (causes.iter().take(3))
        .map(|(why, n, _)| format!("{why} ({n})"))
        .collect();
    let mut more = match causes.len() {
        n if n > 3 => format!("; and {} other reasons", n - 3),
        _ => String::new(),
    };
    // What the user can do about the most common one.
    if let Some((_, _, Abandon::PointerToUnknown { function, .. })) = causes.first() {
        more += &format!(
            " (if `{function}` changes no memory of the program, say so with --assume-no-write \
             {function})"
        );
    }
    format!(
        "--confirm: {total} of {} executions were abandoned, most often because {}{}{more}",
        executions.max(total),
        shown.first().map_or("", String::as_str),
        if shown.len() > 1 {
            format!("; also {}", shown[1..].join("; "))
        } else {
            String::new()
        }
    )
}

/// Why a proof by exploration could not run every execution.
pub fn gap(gap: &Gap) -> String {
    match gap {
        Gap::Harness => "the entries of a driver harness run on inputs of any value".to_string(),
        Gap::ExitTimeFunctions => {
            "destructors run at exit, which the interpreter does not run".to_string()
        }
        Gap::CannotExecute(why) => why.clone(),
        Gap::Abandoned(why) => format!("an execution was abandoned: {}", abandon(why)),
        Gap::LongLocalRun { step_limit } => format!(
            "a thread ran more than {step_limit} instructions without touching shared memory"
        ),
        Gap::OutOfTime => "its share of the --confirm budget ran out".to_string(),
        Gap::TooLarge {
            max_depth,
            max_threads,
        } => format!(
            "it reached two million states, an execution of {max_depth} steps or one of more \
             than {max_threads} threads"
        ),
    }
}

/// How an execution that fails no assertion ended.
pub fn ending(status: &ExecStatus) -> String {
    match status {
        ExecStatus::Running => "the schedule ends before the execution does".to_string(),
        ExecStatus::Violated(v) => format!("the execution fails {}", assertion(*v)),
        ExecStatus::Done => "the execution ends normally".to_string(),
        ExecStatus::Deadlock => "the execution deadlocks".to_string(),
        ExecStatus::Cut => "the execution is cut by the loop bound".to_string(),
        ExecStatus::Discarded => "an assumption of the execution is false".to_string(),
        ExecStatus::Unsupported(why) => {
            format!("the execution cannot go on ({})", abandon(why))
        }
    }
}

/// What a replay showed (`watts replay`'s message).
pub fn replayed(r: &Replayed) -> String {
    match r {
        Replayed::Fails { id, steps } => {
            format!("{} fails again after {steps} steps", assertion(*id))
        }
        Replayed::FailsOther { id, other } => format!(
            "the execution fails {} instead of {}",
            assertion(*other),
            assertion(*id)
        ),
        Replayed::Holds { id, end } => {
            format!("{} does not fail: {}", assertion(*id), ending(end))
        }
        Replayed::Races { steps } => {
            format!("the race happens again: after {steps} steps, both accesses are next")
        }
        Replayed::NotAccesses => "the two last steps are not accesses of the source".to_string(),
        Replayed::NoRace => "the race does not happen: the two last steps are not conflicting \
                             accesses that are both next"
            .to_string(),
    }
}

/// Why a schedule does not fit the program.
pub fn misfit(m: &Misfit) -> String {
    match m {
        Misfit::CannotExecute(why) => why.clone(),
        Misfit::Ended { step, end } => {
            format!("step {step}: the execution already ended ({})", ending(end))
        }
        Misfit::CannotMove { step, tid } => format!("step {step}: thread {tid} cannot move"),
        Misfit::NoAlternative { step, alt } => format!("step {step}: no alternative {alt}"),
        Misfit::RaceTooShort => {
            "a race witness ends with the two accesses: it has fewer steps".to_string()
        }
    }
}

/// Why the race check could not consider every execution.
pub fn incomplete(why: &Incomplete) -> String {
    match why {
        Incomplete::StoppedEarly => {
            "the analysis stopped before its fixpoint, so it may not know every thread".to_string()
        }
        Incomplete::TimedOut { budget } => timed_out(*budget),
    }
}

/// A note of the analysis about `program`.
pub fn note(kind: &NoteKind, program: &Program) -> String {
    match kind {
        NoteKind::Undefined(f) => format!(
            "`{}` {}",
            function(program, *f),
            FunctionNote::Undefined.rest()
        ),
        NoteKind::NotInlined(f) => format!(
            "`{}` {}",
            function(program, *f),
            FunctionNote::NotInlined.rest()
        ),
        NoteKind::OracleTooBig { events, limit } => format!(
            "the threads perform {events} memory and thread operations, more than the \
             happens-before rules are checked on ({limit}): no interference combination was \
             ruled out by them (sound, less precise)"
        ),
        NoteKind::CombinationsJoined { thread } => format!(
            "thread {thread} has more interference combinations than --max-combinations: its \
             shared loads read the join of all stores instead (sound, less precise)"
        ),
        NoteKind::Havoc(reason) => format!("not modelled, any value assumed: {reason}"),
        NoteKind::RacesAssume(functions) => races_assume(functions),
        NoteKind::CallbacksInProgramThreads(functions) => callbacks_in_threads(functions),
        NoteKind::StoppedOverMemory { budget } => format!(
            "the analysis went past its memory budget ({}, --max-memory) and stopped before its \
             fixpoint: every assertion is reported as may fail, and these notes may be \
             incomplete",
            bytes_text(*budget)
        ),
        NoteKind::StoppedAfterRounds { rounds } => format!(
            "the analysis stopped after {rounds} rounds without reaching its fixpoint: every \
             assertion is reported as may fail, and these notes may be incomplete"
        ),
        NoteKind::Degraded { mode, budget } => format!(
            "the {} mode went past the memory budget ({}, --max-memory): the verdicts are those \
             of the flow-insensitive mode, which is coarser and needs less memory",
            mode.name(),
            bytes_text(*budget)
        ),
        NoteKind::TimedOut { budget } => format!(
            "{}: every assertion is reported as may fail",
            timed_out(*budget)
        ),
    }
}

/// The notes that name one function and say the same of it, which the report groups into one
/// note per kind (`report::group_notes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FunctionNote {
    /// [`NoteKind::Undefined`].
    Undefined,
    /// [`NoteKind::NotInlined`].
    NotInlined,
}

impl FunctionNote {
    /// What the note says of the function it names.
    pub(super) fn rest(self) -> &'static str {
        match self {
            FunctionNote::Undefined => {
                "has no definition in the analysed program: a call may change any memory it can \
                 reach (every non-static global, and what its arguments point to) and return \
                 any value"
            }
            FunctionNote::NotInlined => {
                "is not inlined (recursion, a call through a pointer, or the size budget): it is \
                 analysed once from an unknown state, and a call to it may change any memory"
            }
        }
    }

    /// The kind of `notice` and the function it names, when it is one of these.
    pub(super) fn of<'p>(notice: &Notice, program: &'p Program) -> Option<(FunctionNote, &'p str)> {
        match notice {
            Notice::Analysis(n) => match n.kind {
                NoteKind::Undefined(f) => Some((FunctionNote::Undefined, function(program, f))),
                NoteKind::NotInlined(f) => Some((FunctionNote::NotInlined, function(program, f))),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The note of the race check's assumption about functions without a definition.
fn races_assume(assumed: &[String]) -> String {
    let mut names: Vec<String> = (assumed.iter().take(ASSUMED_NAMES))
        .map(|n| format!("`{n}`"))
        .collect();
    if assumed.len() > ASSUMED_NAMES {
        names.push(format!("and {} more", assumed.len() - ASSUMED_NAMES));
    }
    let (what, access, its, keeps) = if assumed.len() == 1 {
        ("a function", "accesses", "its", "keeps")
    } else {
        ("functions", "access", "their", "keep")
    };
    format!(
        "the race check assumes that {what} without a definition ({}) {access} only what {its} \
         arguments point to, during the call, and {keeps} no pointer",
        names.join(", ")
    )
}

fn callbacks_in_threads(functions: &[String]) -> String {
    let mut names: Vec<String> = (functions.iter().take(ASSUMED_NAMES))
        .map(|n| format!("`{n}`"))
        .collect();
    if functions.len() > ASSUMED_NAMES {
        names.push(format!("and {} more", functions.len() - ASSUMED_NAMES));
    }
    let (what, runs) = if functions.len() == 1 {
        ("a function", "runs")
    } else {
        ("functions", "run")
    };
    format!(
        "the race check assumes that {what} the program hands to code outside it ({}) {runs} \
         only in the program's own threads, as C libraries and signals run them \
         (--callbacks-anywhere runs them in any thread at any time)",
        names.join(", ")
    )
}

/// A note of the run about `program`.
pub fn notice(n: &Notice, program: &Program) -> String {
    match n {
        Notice::Analysis(note) => self::note(&note.kind, program),
        Notice::Configuration(text) => text.clone(),
        Notice::Frontend(note) => frontend(note),
        Notice::AssumedNoWrite(functions) => {
            let names: Vec<&str> = functions.iter().map(|f| function(program, *f)).collect();
            format!(
                "assumed (--assume-no-write) to change no memory of the program, to return \
                 normally, and to keep and call back only what they are given: {}",
                name_list(&names)
            )
        }
        Notice::NoWriteUnknown(names) => {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            format!(
                "--assume-no-write names no function the analysed files declare without \
                 defining: {}",
                name_list(&names)
            )
        }
        Notice::CannotExecute(why) => {
            format!("--confirm: the program cannot be executed: {why}")
        }
        Notice::NoReplay { id, replayed } => format!(
            "internal error: the witness found for assertion {} does not replay ({}), so it is \
             not reported (please report this bug)",
            assertion(*id),
            match replayed {
                Ok(r) => self::replayed(r),
                Err(m) => misfit(m),
            }
        ),
        Notice::ProvedYetFails(id) => format!(
            "internal error: assertion {} was proved, yet an execution fails it (please report \
             this bug)",
            assertion(*id)
        ),
        Notice::Abandoned {
            executions,
            abandoned: causes,
        } => abandoned(*executions, causes),
        Notice::NoProof(why) => format!(
            "--confirm: not every execution could be run for a proof: {}",
            gap(why)
        ),
    }
}

/// A note of the front end.
pub fn frontend(note: &FrontendNote) -> String {
    match note {
        FrontendNote::ShadowedBuiltins { input, names } => {
            let shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let flags: Vec<String> = names.iter().map(|n| format!("-fno-builtin-{n}")).collect();
            format!(
                "{input}: {} {} as a variable or with another type, which clang takes for the C \
                 library's function (gcc accepts it): compiled with {}",
                shown.join(", "),
                if names.len() == 1 {
                    "is defined"
                } else {
                    "are defined"
                },
                flags.join(" ")
            )
        }
        FrontendNote::DroppedMallocArguments {
            input,
            places,
            first,
        } => format!(
            "{input}: GCC's `malloc(deallocator)` attribute, which clang does not take, was \
             dropped at {} ({}{first}): it pairs an allocator with its deallocator for gcc's \
             warnings and changes nothing watts analyses",
            crate::report::plural(*places, "place"),
            if *places == 1 { "" } else { "first at " }
        ),
        FrontendNote::Lenient {
            kind,
            places,
            first,
            message,
        } => {
            let what = match kind {
                Lenient::ImplicitFunctionDeclaration => {
                    "a call of an undeclared function, taken as returning `int` (C89; gcc accepts \
                     it)"
                }
                Lenient::ImplicitInt => {
                    "a declaration without a type, taken as `int` (C89; gcc accepts it)"
                }
                Lenient::IntConversion => {
                    "an implicit conversion between a pointer and an integer (gcc accepts it): \
                     the integer is any value"
                }
                Lenient::IncompatibleFunctionPointerTypes => {
                    "a function pointer of another type (gcc accepts it)"
                }
            };
            format!(
                "{what}, in {}; first at {first}: {message}",
                plural(*places, "place")
            )
        }
    }
}

/// A step's operation in words (`writes x = 1`).
pub fn step(kind: &StepKind) -> String {
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
