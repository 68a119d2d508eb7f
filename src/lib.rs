//! watts: proves assertions in multithreaded C programs by thread-modular abstract
//! interpretation over LLVM IR.
//!
//! Module map (see ARCHITECTURE.md):
//! - [`cli`]: command-line options to a validated [`Config`].
//! - [`frontend`]: clang and inkwell; lowers LLVM IR once into [`ir`]. The only inkwell user.
//! - [`ir`]: the program as plain, `Send` data with dense ids.
//! - [`memory`]: points-to analysis and the abstract memory cells loads and stores touch.
//! - [`threads`]: which functions run as threads, inlined per thread, and how many instances.
//! - [`analysis`]: the per-thread worklist interpreter and the thread-modular fixpoint.
//! - [`report`]: verdicts rendered for people (human, gnu) and tools (json).

pub mod analysis;
pub mod cli;
pub mod config;
pub mod error;
pub mod frontend;
pub mod ir;
pub mod memory;
pub mod report;
pub mod threads;

pub use config::{Config, DomainKind, Format, Mode};
pub use error::InputError;

use std::time::Instant;

/// Runs the whole pipeline on `config`: front end, analysis, verdicts. Rendering is left to
/// [`report::render`], so that callers may choose the format.
pub fn run(config: &Config) -> Result<report::Report, InputError> {
    let t0 = Instant::now();
    let program = frontend::load(config)?;
    let frontend_ms = t0.elapsed().as_millis() as u64;
    let t1 = Instant::now();
    let outcome = analysis::analyze(&program, config)?;
    let analysis_ms = t1.elapsed().as_millis() as u64;
    Ok(report::Report::new(
        config,
        program,
        outcome,
        frontend_ms,
        analysis_ms,
    ))
}
