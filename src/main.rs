//! The `watts` binary: command line → [`watts::Config`] → [`watts::run`] → report on stdout.
//! The only place that exits: 0 all proved, 1 some may fail, 2 usage or input error, 3 bug.

use clap::{CommandFactory, FromArgMatches};
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use watts::cli::{Cli, Command};

fn main() -> ExitCode {
    // A panic is a bug in watts: say so in one line, without a backtrace, and exit with 3.
    panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = (payload.downcast_ref::<&str>().copied())
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("panic");
        let at =
            (info.location()).map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        let _ = writeln!(
            io::stderr(),
            "error: internal error: {message}{at} (this is a bug in watts; please report it)"
        );
    }));
    ExitCode::from(panic::catch_unwind(AssertUnwindSafe(dispatch)).unwrap_or(3))
}

fn dispatch() -> u8 {
    // clap exits by itself: 2 on a usage error, 0 after --help or --version.
    let (major, minor, patch) = watts::frontend::llvm_version();
    let version = format!(
        "{} (LLVM {major}.{minor}.{patch})",
        env!("CARGO_PKG_VERSION")
    );
    let version: &'static str = Box::leak(version.into_boxed_str());
    let matches = Cli::command().version(version).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
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
            let mut inv = match watts::invariants(&config) {
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
                watts::report::render_invariants(&inv, config.format, &mut out),
                0,
            )
        }
        Command::Analyze(args) => {
            let dump_ir = args.dump_ir;
            let svcomp = args.svcomp;
            let config = match args.to_config() {
                Ok(config) => config,
                Err(message) => return fail(&message),
            };
            match (dump_ir, dump_ir.then(|| watts::load_program(&config))) {
                (true, Some(Ok(p))) => (write!(out, "{}", watts::frontend::dump(&p)), 0),
                (true, Some(Err(err))) => return fail(&err.to_string()),
                _ => match watts::run(&config) {
                    Ok(report) => {
                        let mut written = report.render(config.format, &mut out);
                        if svcomp {
                            let line = format!("SV-COMP result: {}", report.svcomp_result());
                            // Machine formats stay parseable: the line goes to stderr then.
                            if matches!(config.format, watts::Format::Json | watts::Format::Sarif) {
                                let _ = writeln!(io::stderr(), "{line}");
                            } else {
                                written = written.and_then(|()| writeln!(out, "{line}"));
                            }
                        }
                        (written, report.exit_code())
                    }
                    Err(err) => return fail(&err.to_string()),
                },
            }
        }
    };
    match written.and_then(|()| out.flush()) {
        // The reader went away (`watts ... | head`): the verdict still stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            fail(&format!("cannot write the report: {e}"))
        }
        _ => code,
    }
}

/// Prints `error: {message}` and returns the exit status of usage and input errors.
fn fail(message: &str) -> u8 {
    let _ = writeln!(io::stderr(), "error: {message}");
    2
}
