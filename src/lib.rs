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
//! - [`limits`]: every budget and limit, each with what it bounds and what is lost past it (a
//!   leaf).
//! - [`project`]: compilation databases and `watts.toml`, turned into inputs and flags.
//! - [`frontend`]: clang and inkwell; lowers LLVM IR once into [`ir`]. The only inkwell user.
//! - [`harness`]: a synthetic `main` for driver code (`--init`, `--entry`).
//! - [`ir`]: the program as plain, `Send` data with dense ids.
//! - [`memory`]: points-to analysis and the abstract memory cells loads and stores touch.
//! - [`threads`]: which functions run as threads, inlined per thread, and how many instances.
//! - [`analysis`]: the per-thread worklist interpreter and the thread-modular fixpoint.
//! - [`explore`]: concrete executions under a controlled scheduler (`watts confirm`): witnesses
//!   of violated assertions.
//! - [`witness`]: the steps of an execution and the witness file, as data (a leaf).
//! - [`verdicts`]: what a run concludes: the analysis's verdicts merged with `--confirm`'s.
//! - [`confirm`]: `--confirm`, the analysis's open verdicts checked by executing the program.
//! - [`replay`]: `watts replay`, a witness file checked and run again.
//! - [`paths`]: path arithmetic without the file system (a leaf).
//! - [`report`]: verdicts rendered for people (human, gnu) and tools (json, sarif).
//! - [`tree`]: a whole compilation database, one program at a time (`--per-program`): the
//!   programs, the result cache, shards and the parallel runs.

pub mod analysis;
pub mod budget;
pub mod cli;
pub mod commands;
pub mod config;
pub mod confine;
pub mod confirm;
pub mod error;
pub mod explore;
pub mod facts;
pub mod frontend;
pub mod harness;
pub mod ir;
pub mod limits;
pub mod memory;
pub mod paths;
pub mod pdg;
pub mod project;
pub mod replay;
pub mod report;
pub mod threads;
pub mod tree;
pub mod verdicts;
pub mod witness;

pub use config::{Config, DomainKind, Format, Mode};
pub use error::InputError;
pub use replay::replay;

use analysis::{Analysis, AssertResult, AssertVerdict, Note, NoteKind, Reason, Stats};
use ir::{AssertId, FuncId, Program};
use std::time::{Duration, Instant};
use verdicts::{Notice, Verdicts};

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
            explore::strategy::Symbolic::available(&c.z3).map_err(|why| {
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
    let mut verdicts = Verdicts::analysed(analyze_within(&program, config, budget)?);
    (verdicts.notes)
        .extend((config.notes.iter()).map(|message| Notice::Configuration(message.clone())));
    (verdicts.notes).extend(program.frontend_notes.iter().cloned().map(Notice::Frontend));
    verdicts
        .notes
        .extend(assume_no_write_notes(&program, &config.assume_no_write));
    if let Some(options) = &config.confirm {
        progress.stage("executing to confirm failures".to_string());
        // `--timeout` bounds the whole run: --confirm gets at most what is left of it.
        let options = config::ConfirmOptions {
            timeout: (budget::remaining())
                .map_or(options.timeout, |left| options.timeout.min(left)),
            ..options.clone()
        };
        confirm::run(&program, config, &options, &mut verdicts);
    }
    let analysis_ms = t1.elapsed().as_millis() as u64;
    progress.finish();
    let mut report = report::Report::new(
        config,
        program,
        verdicts,
        report::Timing {
            frontend_ms,
            analysis_ms,
        },
        frontend::llvm_version(),
    );
    if let Some(b) = &baseline {
        report.apply_baseline(b);
    }
    if let Some(dir) = config.confirm.as_ref().and_then(|c| c.witness_dir.as_ref()) {
        report::write_witnesses(&report, dir)?;
    }
    Ok(report)
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
    program.assumed_no_write = assumed_no_write(&program, &config.assume_no_write).0;
    program.callbacks_anywhere = config.callbacks_anywhere;
    Ok(program)
}

/// The declared functions of `names` (`--assume-no-write`), sorted, and the names that are no
/// declared function of the program, in the order given.
fn assumed_no_write<'a>(program: &Program, names: &'a [String]) -> (Vec<FuncId>, Vec<&'a str>) {
    let mut marked = Vec::new();
    let mut absent = Vec::new();
    for n in names {
        match (program.funcs.iter()).position(|f| &f.name == n && !f.is_defined) {
            Some(i) => marked.push(FuncId::from(i)),
            None => absent.push(n.as_str()),
        }
    }
    marked.sort_unstable();
    marked.dedup();
    (marked, absent)
}

/// The notes of `--assume-no-write`: the functions it marks as writing no memory, and the
/// names that are no declared function of the program.
fn assume_no_write_notes(program: &Program, names: &[String]) -> Vec<Notice> {
    let (marked, absent) = assumed_no_write(program, names);
    let mut notes = Vec::new();
    if !marked.is_empty() {
        notes.push(Notice::AssumedNoWrite(marked));
    }
    if !absent.is_empty() {
        notes.push(Notice::NoWriteUnknown(
            absent.into_iter().map(str::to_string).collect(),
        ));
    }
    notes
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
) -> Result<Analysis, InputError> {
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

/// The analysis when it ran out of time.
// Soundness: nothing was concluded, so nothing is proved.
fn timed_out(program: &Program, budget: Duration, config_races: bool) -> Analysis {
    Analysis {
        verdicts: (0..program.asserts.len())
            .map(|i| AssertResult {
                id: AssertId::from(i),
                verdict: AssertVerdict::MayFail(Reason::TimedOut { budget }),
                values: Vec::new(),
                threads: Vec::new(),
                explanation: Vec::new(),
                pruned: 0,
            })
            .collect(),
        notes: vec![Note::new(NoteKind::TimedOut { budget })],
        stats: Stats::default(),
        // Soundness: no race was excluded either.
        races: config_races.then(|| analysis::races::RaceCheck {
            incomplete: Some(analysis::races::Incomplete::TimedOut { budget }),
            ..Default::default()
        }),
        invariants: None,
    }
}
