//! watts: proves assertions in multithreaded C programs by thread-modular abstract
//! interpretation over LLVM IR.
//!
//! Module map (see ARCHITECTURE.md):
//! - [`cli`]: command-line options to a validated [`Config`].
//! - [`confine`]: what a file analysed makes watts read (source text only under the inputs'
//!   directories) and where reports are written (never through a planted symbolic link).
//! - [`commands`]: what each subcommand does, from parsed options to output and exit status.
//! - [`budget`]: the deadline of `--timeout` for the whole run, and clang run under it and
//!   under `--max-memory`.
//! - [`project`]: compilation databases and `watts.toml`, turned into inputs and flags.
//! - [`frontend`]: clang and inkwell; lowers LLVM IR once into [`ir`]. The only inkwell user.
//! - [`harness`]: a synthetic `main` for driver code (`--init`, `--entry`).
//! - [`ir`]: the program as plain, `Send` data with dense ids.
//! - [`memory`]: points-to analysis and the abstract memory cells loads and stores touch.
//! - [`threads`]: which functions run as threads, inlined per thread, and how many instances.
//! - [`analysis`]: the per-thread worklist interpreter and the thread-modular fixpoint.
//! - [`explore`]: concrete executions under a controlled scheduler (`watts confirm`): witnesses
//!   of violated assertions.
//! - [`report`]: verdicts rendered for people (human, gnu) and tools (json, sarif).
//! - [`tree`]: a whole compilation database, one program at a time (`--per-program`): the
//!   programs, the result cache, shards and the parallel runs.

pub mod analysis;
pub mod budget;
pub mod cli;
pub mod commands;
pub mod config;
pub mod confine;
pub mod error;
pub mod explore;
pub mod facts;
pub mod frontend;
pub mod harness;
pub mod ir;
pub mod memory;
pub mod pdg;
pub mod project;
pub mod report;
pub mod threads;
pub mod tree;

pub use config::{Config, DomainKind, Format, Mode};
pub use error::InputError;

use analysis::{AssertVerdict, Note, Outcome, Stats, Status};
use ir::{AssertId, Program};
use std::time::{Duration, Instant};

/// Runs the whole pipeline on `config`: front end, harness, analysis, `--confirm` (all within
/// `config.timeout`, [`budget`]), verdicts, suppressions and baseline. Rendering is left to
/// [`report::Report::render`], so that callers may choose the format.
///
/// With a timeout, the analysis runs on its own thread; when the time is up, every assertion is
/// reported as may-fail and that thread is left running until the process exits.
pub fn run(config: &Config) -> Result<report::Report, InputError> {
    let baseline = match &config.baseline {
        Some(path) => Some(report::Baseline::read(path)?),
        None => None,
    };
    if let Some(c) = &config.confirm {
        if c.strategy == config::ConfirmStrategy::Symbolic {
            explore::strategy::Symbolic::available().map_err(|why| {
                InputError::Unsupported(format!("--strategy symbolic needs z3: {why}"))
            })?;
        }
    }
    error::set_memory_budget(config.max_memory);
    budget::set_timeout(config.timeout);
    let progress = report::Progress::start(config);
    let t0 = Instant::now();
    progress.stage(format!(
        "compiling {}",
        report::plural(config.inputs.len(), "file")
    ));
    let program = load_program(config)?;
    let frontend_ms = t0.elapsed().as_millis() as u64;
    let t1 = Instant::now();
    progress.stage(format!(
        "analysing ({}, {})",
        config.mode.name(),
        config.domain.name()
    ));
    let budget = config.timeout.map(|t| t.saturating_sub(t0.elapsed()));
    let mut outcome = analyze_within(&program, config, budget)?;
    (outcome.notes).extend(
        (config.notes.iter())
            .chain(&program.frontend_notes)
            .map(|message| Note {
                span: None,
                message: message.clone(),
            }),
    );
    if let Some(options) = &config.confirm {
        progress.stage("executing to confirm failures".to_string());
        // `--timeout` bounds the whole run: --confirm gets at most what is left of it.
        let options = config::ConfirmOptions {
            timeout: (budget::remaining())
                .map_or(options.timeout, |left| options.timeout.min(left)),
            ..options.clone()
        };
        confirm(&program, &options, &mut outcome);
    }
    let analysis_ms = t1.elapsed().as_millis() as u64;
    progress.finish();
    let mut report = report::Report::new(config, program, outcome, frontend_ms, analysis_ms);
    if let Some(b) = &baseline {
        report.apply_baseline(b);
    }
    if let Some(dir) = config.confirm.as_ref().and_then(|c| c.witness_dir.as_ref()) {
        write_witnesses(&report, dir)?;
    }
    Ok(report)
}

/// The share of `--confirm`'s budget a proof by exploration may take (`explore::proof`).
const PROOF_SHARE: f64 = 0.3;

/// `--confirm`: first tries to run every execution of the program (`explore::proof`), which
/// proves the assertions none of them fails; then executes it under many schedules (within
/// the bounds) to find real failures of the assertions still open.
///
/// Soundness: a witness makes an assertion `violated` (it is a real execution); a proof needs
/// every execution run, with nothing restricted or abandoned; otherwise the absence of a
/// witness never changes a verdict. A witness for an assertion the analysis proved means one
/// of the two is wrong: both facts are reported.
fn confirm(program: &Program, options: &config::ConfirmOptions, outcome: &mut Outcome) {
    let mut targets: std::collections::BTreeSet<AssertId> = (outcome.verdicts.iter())
        .filter(|v| v.status == Status::MayFail)
        .map(|v| v.id)
        .collect();
    let races = race_targets(program, outcome);
    if targets.is_empty() && races.is_empty() {
        return;
    }
    let start = std::time::Instant::now();
    if !targets.is_empty() {
        prove_by_exploration(program, options, outcome, &mut targets);
    }
    let remaining = options.timeout.saturating_sub(start.elapsed());
    if !targets.is_empty() {
        // Races are confirmed by executions of their own: a state where a race's accesses
        // are both next ends the execution, which must not hide a failing assertion further on.
        let share = if races.is_empty() {
            remaining
        } else {
            remaining.mul_f64(ASSERTION_SHARE)
        };
        let options = config::ConfirmOptions {
            timeout: share,
            ..options.clone()
        };
        confirm_assertions(program, &options, &targets, outcome);
    }
    if !races.is_empty() {
        let options = config::ConfirmOptions {
            timeout: options.timeout.saturating_sub(start.elapsed()),
            ..options.clone()
        };
        confirm_races(program, &options, races, outcome);
    }
}

/// The share of `--confirm`'s budget, after the proof, that confirming assertions may take
/// when there are races to confirm too.
const ASSERTION_SHARE: f64 = 0.6;

/// `--confirm` of the assertions of `targets`: executions that fail them.
fn confirm_assertions(
    program: &Program,
    options: &config::ConfirmOptions,
    targets: &std::collections::BTreeSet<AssertId>,
    outcome: &mut Outcome,
) {
    let confirmation = match explore::confirm(program, options, targets, Vec::new()) {
        Ok(found) => found,
        Err(why) => {
            outcome.notes.push(Note {
                span: None,
                message: format!("--confirm: the program cannot be executed: {why}"),
            });
            return;
        }
    };
    let found = &confirmation.outcome;
    outcome.stats.executions += found.executions;
    // Soundness: a witness is reported only once it replayed, from the start, through the
    // same interpreter `watts replay` runs, to the same failure: a search that recorded a
    // schedule its replay does not follow (a bug of watts) loses the witness, never reports a
    // failure no execution has.
    let mut replayed = std::collections::BTreeSet::new();
    for (id, violation) in &found.violations {
        match explore::replay(program, violation) {
            Ok((1, _)) => {
                replayed.insert(*id);
            }
            other => outcome.notes.push(Note {
                span: program.asserts[id.index()].span,
                message: format!(
                    "internal error: the witness found for assertion A{} does not replay ({}), so it is not reported (please report this bug)",
                    id.index() + 1,
                    match other {
                        Ok((_, why)) | Err(why) => why,
                    }
                ),
            }),
        }
    }
    let mut found_proved = Vec::new();
    for v in &mut outcome.verdicts {
        if let Some(violation) = (found.violations.get(&v.id)).filter(|_| replayed.contains(&v.id))
        {
            if matches!(v.status, Status::Proved | Status::Unreachable) {
                found_proved.push(v.id);
            }
            v.status = Status::Violated;
            v.reason = if violation.found_by.is_empty() {
                "an execution fails it (--confirm): the interleaving is below".to_string()
            } else {
                format!(
                    "an execution fails it (--confirm, found by {}): the interleaving is below",
                    violation.found_by
                )
            };
            v.found_by = (!violation.found_by.is_empty()).then(|| violation.found_by.clone());
            // The analysis's view (possible values, one combination of flows) gives way to the
            // concrete execution.
            v.values.clear();
            v.explanation.clear();
            v.witness = Some(violation.clone().into());
        } else if v.status == Status::MayFail {
            v.reason = if found.exhaustive() {
                format!(
                    "{}; no execution fails it (every execution was run)",
                    v.reason
                )
            } else {
                format!(
                    "{}; no failing execution found ({} explored{})",
                    v.reason,
                    report::plural(found.executions as usize, "execution"),
                    explore::limits(&confirmation, options)
                )
            };
        }
    }
    for id in found_proved {
        outcome.notes.push(Note {
            span: program.asserts[id.index()].span,
            message: format!(
                "internal error: assertion A{} was proved, yet an execution fails it (please report this bug)",
                id.index() + 1
            ),
        });
    }
    if let Some(note) = explore::abandoned_note(found) {
        outcome.notes.push(Note {
            span: None,
            message: note,
        });
    }
}

/// `--confirm` of the race check's races: executions that reach a state where two threads
/// are about to run two conflicting accesses of one race (`explore::RaceTarget`).
fn confirm_races(
    program: &Program,
    options: &config::ConfirmOptions,
    races: Vec<explore::RaceTarget>,
    outcome: &mut Outcome,
) {
    let targets = races.iter().map(|r| r.id).collect();
    let confirmation = match explore::confirm(program, options, &targets, races.clone()) {
        Ok(found) => found,
        Err(why) => {
            let message = format!("--confirm: the program cannot be executed: {why}");
            if !outcome.notes.iter().any(|n| n.message == message) {
                outcome.notes.push(Note {
                    span: None,
                    message,
                });
            }
            return;
        }
    };
    let found = &confirmation.outcome;
    outcome.stats.executions += found.executions;
    let Some(check) = &mut outcome.races else {
        return;
    };
    for (k, race) in check.races.iter_mut().enumerate() {
        let id = AssertId::from(program.asserts.len() + k);
        let Some(v) = found.violations.get(&id) else {
            continue;
        };
        // Soundness: the witness is a replayed execution that reaches both accesses at once
        // (`explore::race_witness`); without it, the race stays `may-race`.
        if let Some(w) = explore::race_witness(program, &races, v) {
            race.status = analysis::races::RaceStatus::Violated;
            race.witness = Some(w);
            race.found_by = (!v.found_by.is_empty()).then(|| v.found_by.clone());
        }
    }
}

/// The proof by exploration of `--confirm` (`explore::proof`) on the assertions of `targets`;
/// those it proves leave `targets`.
fn prove_by_exploration(
    program: &Program,
    options: &config::ConfirmOptions,
    outcome: &mut Outcome,
    targets: &mut std::collections::BTreeSet<AssertId>,
) {
    let start = std::time::Instant::now();
    let proof = explore::proof::prove(
        program,
        targets,
        start + options.timeout.mul_f64(PROOF_SHARE),
    );
    for v in &mut outcome.verdicts {
        if proof.proved.contains(&v.id) {
            // Soundness: `explore::proof` ran every execution of the program, and none fails
            // this assertion.
            v.status = Status::Proved;
            v.reason = format!(
                "every execution was run ({}, --confirm) and none fails it",
                report::plural(proof.executions as usize, "execution")
            );
            v.values.clear();
            v.explanation.clear();
            targets.remove(&v.id);
        }
    }
    outcome.stats.executions = proof.executions;
    if let (false, Some(gap)) = (targets.is_empty(), &proof.gap) {
        outcome.notes.push(Note {
            span: None,
            message: format!("--confirm: not every execution could be run for a proof: {gap}"),
        });
    }
}

/// The races of the race check as targets of `--confirm`, with ids past the assertions'.
fn race_targets(program: &Program, outcome: &Outcome) -> Vec<explore::RaceTarget> {
    let Some(check) = &outcome.races else {
        return Vec::new();
    };
    let global_of = |memory: &str| {
        (program.globals.iter().enumerate())
            .filter(|(_, g)| {
                memory.strip_prefix(g.name.as_str()).is_some_and(|rest| {
                    rest.is_empty() || rest.starts_with('.') || rest.starts_with('[')
                })
            })
            .max_by_key(|(_, g)| g.name.len())
            .map(|(i, _)| i as u32)
    };
    (check.races.iter().enumerate())
        .map(|(k, race)| explore::RaceTarget {
            id: AssertId::from(program.asserts.len() + k),
            spans: race.accesses.iter().filter_map(|a| a.span).collect(),
            memory: match global_of(&race.memory.name) {
                Some(g) => explore::RaceMemory::Global(g),
                None => explore::RaceMemory::NotGlobal,
            },
        })
        .collect()
}

/// `--witness-dir`: one file per violated assertion, `A3.json`.
fn write_witnesses(report: &report::Report, dir: &std::path::Path) -> Result<(), InputError> {
    let io = |e: std::io::Error| {
        InputError::Unsupported(format!("--witness-dir {}: {e}", dir.display()))
    };
    crate::confine::check_output_dir("--witness-dir", dir).map_err(InputError::Unsupported)?;
    std::fs::create_dir_all(dir).map_err(io)?;
    // Also relative to the witness file: a tree moved with its witnesses replays.
    let at = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let races = (report.outcome.races.iter()).flat_map(|c| c.races.iter().enumerate());
    let witnesses = (report.outcome.verdicts.iter())
        .filter_map(|v| Some((format!("A{}", v.id.index() + 1), v.witness.as_ref()?)))
        .chain(races.filter_map(|(k, r)| Some((format!("R{}", k + 1), r.witness.as_ref()?))));
    for (name, w) in witnesses {
        let mut file = report.witness_file(w);
        file.program.inputs_from_witness = (file.program.inputs.iter())
            .map(|p| explore::witness::relative_to(std::path::Path::new(p), &at))
            .collect::<Option<Vec<_>>>()
            .unwrap_or_default();
        let text = serde_json::to_string_pretty(&file).expect("witness serialises");
        let text = text + "\n";
        confine::write_in(
            "--witness-dir",
            dir,
            &format!("{name}.json"),
            text.as_bytes(),
        )
        .map_err(io)?;
    }
    Ok(())
}

/// `watts replay`: re-executes a witness file, compiled with `clang` (`None`: found on PATH).
/// Returns the exit status (1 the assertion fails again, 0 it does not) and a message; `Err`
/// when the witness does not fit the program.
pub fn replay(
    path: &std::path::Path,
    clang: Option<&std::path::Path>,
) -> Result<(u8, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file: explore::witness::WitnessFile = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a watts witness: {e}", path.display()))?;
    if !(explore::witness::OLDEST_VERSION..=explore::witness::VERSION).contains(&file.version) {
        return Err(format!(
            "{}: witness version {} (this watts reads versions {} to {})",
            path.display(),
            file.version,
            explore::witness::OLDEST_VERSION,
            explore::witness::VERSION
        ));
    }
    // Files watts reads are untrusted: nothing from the witness reaches clang unchecked.
    let at = |e: String| format!("{}: {e}", path.display());
    let cwd = std::env::current_dir().map_err(|e| at(format!("no current directory: {e}")))?;
    let clang_args =
        explore::witness::check_clang_args(&file.program.clang_args, &cwd).map_err(at)?;
    let input_args = (file.program.input_args.iter())
        .map(|args| explore::witness::check_clang_args(args, &cwd))
        .collect::<Result<Vec<_>, _>>()
        .map_err(at)?;
    let inputs = (0..file.program.inputs.len())
        .map(|i| explore::witness::resolve_input(&file.program, i, path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(at)?;
    // A witness names its inputs: each must be a regular file that stays in its own project
    // (the repository of its folder) once links are followed, not a link shipped beside the
    // witness to a secret elsewhere (clang's diagnostics would quote it), nor a FIFO.
    for input in &inputs {
        let abs = project::compile_commands::absolute(&cwd, input);
        let own = project::gate::Gate::new(abs.parent());
        if !abs.is_file() || !own.inside(&abs) {
            return Err(at(format!(
                "the witness names {}, which is not a regular file of the project",
                input.display()
            )));
        }
    }
    if inputs.is_empty() {
        return Err(at("the witness names no input file".to_string()));
    }
    let mut config = Config::new(inputs.clone());
    for (input, args) in inputs.iter().zip(input_args) {
        config
            .units
            .insert(input.clone(), config::UnitFlags { args });
    }
    config.clang_args = clang_args;
    config.clang = clang.map(Into::into);
    let entries = (file.program.entries.iter())
        .map(|e| e.parse())
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    let tables = (file.program.entries_from.iter())
        .map(|e| config::parse_table(e))
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    let harness = config::HarnessSpec {
        init: file.program.init.clone(),
        entries,
        tables,
        exported: file.program.entries_exported,
    };
    if harness.is_active() {
        config.harness = Some(harness);
    }
    config.assume_no_write = file.program.assume_no_write.clone();
    let program = load_program(&config).map_err(|e| e.to_string())?;
    if file.is_race() {
        let (choices, inputs) = file.schedule();
        return explore::replay_race(&program, file.bound, file.thread_loops, &choices, inputs)
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    let id = file
        .assertion_id()
        .filter(|id| id.index() < program.asserts.len())
        .ok_or_else(|| at(format!("no assertion {} in the program", file.assertion.id)))?;
    let info = &program.asserts[id.index()];
    let line = |l: Option<u32>| l.map_or("an unknown line".to_string(), |l| format!("line {l}"));
    if info.condition != file.assertion.condition
        || info.span.map(|s| s.line) != file.assertion.line
    {
        return Err(at(format!(
            "assertion {} is `{}` at {} in the program, not `{}` at {}: the program changed",
            file.assertion.id,
            info.condition,
            line(info.span.map(|s| s.line)),
            file.assertion.condition,
            line(file.assertion.line)
        )));
    }
    let (choices, inputs) = file.schedule();
    explore::witness::replay_with_inputs(
        &program,
        file.bound,
        file.thread_loops,
        id,
        &choices,
        inputs,
    )
    .map_err(|e| format!("{}: {e}", path.display()))
}

/// The front end, then the driver harness of `config`, if any, then the start-up code of the C
/// runtime (constructors) at the start of the resulting `main` (`harness::startup`).
pub fn load_program(config: &Config) -> Result<Program, InputError> {
    let mut program = frontend::load(config)?;
    if let Some(spec) = config.harness.as_ref().filter(|h| h.is_active()) {
        harness::synthesize(&mut program, spec)?;
    }
    harness::startup::compose(&mut program);
    harness::keys::model_keys(&mut program);
    assume_no_write(&mut program, &config.assume_no_write);
    Ok(program)
}

/// Marks the declared functions of `names` as writing no memory (`--assume-no-write`), with a
/// note naming them, and one for the names that are no declared function of the program.
fn assume_no_write(program: &mut Program, names: &[String]) {
    if names.is_empty() {
        return;
    }
    let mut marked = Vec::new();
    let mut absent = Vec::new();
    for n in names {
        match (program.funcs.iter()).position(|f| &f.name == n && !f.is_defined) {
            Some(i) => marked.push(ir::FuncId::from(i)),
            None => absent.push(n.as_str()),
        }
    }
    marked.sort_unstable();
    marked.dedup();
    if !marked.is_empty() {
        let shown: Vec<&str> = (marked.iter())
            .map(|f| program.funcs[f.index()].name.as_str())
            .collect();
        program.frontend_notes.push(format!(
            "assumed (--assume-no-write) to change no memory of the program, to return \
             normally, and to keep and call back only what they are given: {}",
            error::name_list(&shown)
        ));
    }
    if !absent.is_empty() {
        program.frontend_notes.push(format!(
            "--assume-no-write names no function the analysed files declare without defining: {}",
            error::name_list(&absent)
        ));
    }
    program.assumed_no_write = marked;
}

/// The invariants of every thread at every source line (`watts invariants`).
pub fn invariants(config: &Config) -> Result<analysis::invariants::Invariants, InputError> {
    budget::set_timeout(config.timeout);
    let progress = report::Progress::start(config);
    progress.stage("compiling".to_string());
    let program = load_program(config)?;
    progress.stage("analysing".to_string());
    let out = analysis::invariants::compute(&program, config);
    progress.finish();
    out
}

/// [`analysis::analyze`], degraded to may-fail for every assertion when it takes longer than
/// `budget`.
fn analyze_within(
    program: &Program,
    config: &Config,
    budget: Option<Duration>,
) -> Result<Outcome, InputError> {
    let Some(budget) = budget else {
        return analysis::analyze(program, config);
    };
    // The front end used the whole budget: the analysis has no time at all. (Racing a zero
    // timeout against the analysis thread would make the answer depend on the scheduler.)
    if budget.is_zero() {
        return Ok(timed_out(
            program,
            config.timeout.unwrap_or(budget),
            config.checks.races,
        ));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let (p, c) = (program.clone(), config.clone());
    let worker = std::thread::Builder::new()
        .name("watts-analysis".to_string())
        // The main thread's stack size, so that the analysis behaves as without --timeout.
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(analysis::analyze(&p, &c));
        })
        .map_err(|e| InputError::Unsupported(format!("cannot start the analysis: {e}")))?;
    match rx.recv_timeout(budget) {
        Ok(result) => result,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Ok(timed_out(
            program,
            config.timeout.unwrap_or(budget),
            config.checks.races,
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            // The analysis panicked: a bug; the hook has reported it, now exit like it.
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(()) => panic!("the analysis thread ended without a result"),
        },
    }
}

/// The outcome when the analysis ran out of time.
// Soundness: nothing was concluded, so nothing is proved.
fn timed_out(program: &Program, budget: Duration, config_races: bool) -> Outcome {
    let reason = format!(
        "the analysis did not finish within the --timeout ({:.1} s)",
        budget.as_secs_f64()
    );
    Outcome {
        verdicts: (0..program.asserts.len())
            .map(|i| AssertVerdict {
                id: AssertId::from(i),
                status: Status::MayFail,
                reason: reason.clone(),
                values: Vec::new(),
                threads: Vec::new(),
                explanation: Vec::new(),
                pruned: 0,
                witness: None,
                found_by: None,
            })
            .collect(),
        notes: vec![Note {
            span: None,
            message: format!("{reason}: every assertion is reported as may fail"),
        }],
        stats: Stats::default(),
        // Soundness: no race was excluded either.
        races: config_races.then(|| analysis::races::RaceCheck {
            incomplete: Some(reason.clone()),
            ..Default::default()
        }),
        invariants: None,
    }
}
