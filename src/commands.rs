//! What each subcommand does, from parsed options to bytes on stdout and an exit status: the
//! binary's logic, kept out of `main.rs` so that it is testable and `main` stays a shell.
//!
//! Invariant: nothing here exits the process or panics on bad input; every error becomes
//! `error: ...` on stderr and status 2.
//!
//! The subcommands: `analyze` (with `--dump-ir`, `--suggest-harness` and `--svcomp`), `confirm`,
//! `replay`, `invariants` and `completions`.

use crate::cli::{Cli, Command};
use clap::CommandFactory;
use std::io::{self, Write};

/// Runs `cli` and returns the process exit status: 0 all proved, 1 some may fail, 2 usage or
/// input error.
pub fn run(cli: Cli) -> u8 {
    let mut out = io::stdout().lock();
    let (written, code) = match cli.command {
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "watts", &mut out);
            (Ok(()), 0)
        }
        Command::Invariants(args) => {
            let thread = args.thread.clone();
            let config = match args.to_config() {
                Ok(config) => config,
                Err(message) => return fail(&message),
            };
            let mut inv = match crate::invariants(&config) {
                Ok(inv) => inv,
                Err(err) => return fail(&err.to_string()),
            };
            if let Some(name) = thread {
                let names: Vec<String> = inv.threads.iter().map(|t| t.name.clone()).collect();
                inv.threads.retain(|t| t.name == name);
                if inv.threads.is_empty() {
                    return fail(&format!(
                        "--thread {name}: no such thread ({})",
                        names.join(", ")
                    ));
                }
            }
            (
                crate::report::render_invariants(&inv, config.format, &mut out),
                0,
            )
        }
        Command::Replay(args) => match crate::replay(&args.witness, args.clang().as_deref()) {
            Ok((code, message)) => (writeln!(out, "{message}"), code),
            Err(message) => return fail(&message),
        },
        Command::Confirm(mut args) => {
            args.confirm = true;
            match analyze(args, &mut out) {
                Ok(done) => done,
                Err(message) => return fail(&message),
            }
        }
        Command::Analyze(args) => match analyze(args, &mut out) {
            Ok(done) => done,
            Err(message) => return fail(&message),
        },
    };
    match written.and_then(|()| out.flush()) {
        // The reader went away (`watts ... | head`): the verdict still stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            fail(&format!("cannot write the report: {e}"))
        }
        _ => code,
    }
}

/// `watts analyze` (and `confirm`): the report and its exit status, or the error message.
fn analyze(
    args: crate::cli::AnalyzeArgs,
    out: &mut dyn Write,
) -> Result<(io::Result<()>, u8), String> {
    let dump_ir = args.dump_ir;
    let svcomp = args.svcomp;
    let suggest = args.suggest_harness;
    let config = args.to_config()?;
    if suggest {
        // The program as the sources define it, before any harness replaces its `main`.
        let p = crate::frontend::load(&config).map_err(|e| e.to_string())?;
        let found = crate::harness::discover::Suggestion::of(&p);
        let inputs: Vec<String> = (config.inputs.iter())
            .map(|i| i.display().to_string())
            .collect();
        let written = crate::report::render_suggestion(&p, &found, &inputs, config.format, out);
        return Ok((written, 0));
    }
    if dump_ir {
        let p = crate::load_program(&config).map_err(|e| e.to_string())?;
        return Ok((write!(out, "{}", crate::frontend::dump(&p)), 0));
    }
    let report = crate::run(&config).map_err(|e| e.to_string())?;
    if let Some(dir) = &config.html {
        crate::report::html::write(&report, dir)
            .map_err(|e| format!("--html {}: {e}", dir.display()))?;
    }
    let mut written = report.render(config.format, out);
    if svcomp {
        let line = format!("SV-COMP result: {}", report.svcomp_result());
        // Machine formats stay parseable: the line goes to stderr then.
        if matches!(config.format, crate::Format::Json | crate::Format::Sarif) {
            let _ = writeln!(io::stderr(), "{line}");
        } else {
            written = written.and_then(|()| writeln!(out, "{line}"));
        }
    }
    Ok((written, report.exit_code()))
}

/// Prints `error: {message}` and returns the exit status of usage and input errors. The
/// message may quote a file (a path from a project file, clang's diagnostics of the source):
/// its control characters are escaped, so it cannot drive the terminal.
fn fail(message: &str) -> u8 {
    let message = crate::report::printable::escape_keeping_lines(message);
    let _ = writeln!(io::stderr(), "error: {message}");
    2
}
