//! watts: proves assertions in multithreaded C programs by thread-modular abstract
//! interpretation over LLVM IR.
//!
//! Module map (see ARCHITECTURE.md):
//! - [`cli`]: command-line options to a validated [`Config`].
//! - [`commands`]: what each subcommand does, from parsed options to output and exit status.
//! - [`project`]: compilation databases and `watts.toml`, turned into inputs and flags.
//! - [`frontend`]: clang and inkwell; lowers LLVM IR once into [`ir`]. The only inkwell user.
//! - [`harness`]: a synthetic `main` for driver code (`--init`, `--entry`).
//! - [`ir`]: the program as plain, `Send` data with dense ids.
//! - [`memory`]: points-to analysis and the abstract memory cells loads and stores touch.
//! - [`threads`]: which functions run as threads, inlined per thread, and how many instances.
//! - [`analysis`]: the per-thread worklist interpreter and the thread-modular fixpoint.
//! - [`report`]: verdicts rendered for people (human, gnu) and tools (json, sarif).

pub mod analysis;
pub mod cli;
pub mod commands;
pub mod config;
pub mod error;
pub mod frontend;
pub mod harness;
pub mod ir;
pub mod memory;
pub mod pdg;
pub mod project;
pub mod report;
pub mod threads;

pub use config::{Config, DomainKind, Format, Mode};
pub use error::InputError;

use analysis::{AssertVerdict, Note, Outcome, Stats, Status};
use ir::{AssertId, Program};
use std::time::{Duration, Instant};

/// Runs the whole pipeline on `config`: front end, harness, analysis (within
/// `config.timeout`), verdicts, suppressions and baseline. Rendering is left to
/// [`report::Report::render`], so that callers may choose the format.
///
/// With a timeout, the analysis runs on its own thread; when the time is up, every assertion is
/// reported as may-fail and that thread is left running until the process exits.
pub fn run(config: &Config) -> Result<report::Report, InputError> {
    let baseline = match &config.baseline {
        Some(path) => Some(report::Baseline::read(path)?),
        None => None,
    };
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
    let outcome = analyze_within(&program, config, budget)?;
    let analysis_ms = t1.elapsed().as_millis() as u64;
    progress.finish();
    let mut report = report::Report::new(config, program, outcome, frontend_ms, analysis_ms);
    if let Some(b) = &baseline {
        report.apply_baseline(b);
    }
    Ok(report)
}

/// The front end, then the driver harness of `config`, if any.
pub fn load_program(config: &Config) -> Result<Program, InputError> {
    let mut program = frontend::load(config)?;
    if let Some(spec) = &config.harness {
        harness::synthesize(&mut program, spec)?;
    }
    Ok(program)
}

/// The invariants of every thread at every source line (`watts invariants`).
pub fn invariants(config: &Config) -> Result<analysis::invariants::Invariants, InputError> {
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
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            Ok(timed_out(program, config.timeout.unwrap_or(budget)))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            // The analysis panicked: a bug; the hook has reported it, now exit like it.
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(()) => panic!("the analysis thread ended without a result"),
        },
    }
}

/// The outcome when the analysis ran out of time.
// Soundness: nothing was concluded, so nothing is proved.
fn timed_out(program: &Program, budget: Duration) -> Outcome {
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
            })
            .collect(),
        notes: vec![Note {
            span: None,
            message: format!("{reason}: every assertion is reported as may fail"),
        }],
        stats: Stats::default(),
    }
}
