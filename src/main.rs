//! The `watts` binary: command line → [`watts::Config`] → [`watts::run`] → report on stdout.
//! The only place that exits: 0 all proved, 1 some may fail, 2 usage or input error, 3 bug.

use clap::Parser;
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
    ExitCode::from(panic::catch_unwind(AssertUnwindSafe(analyze)).unwrap_or(3))
}

fn analyze() -> u8 {
    // clap exits by itself: 2 on a usage error, 0 after --help or --version.
    let Command::Analyze(args) = Cli::parse().command;
    let dump_ir = args.dump_ir;
    let config = match args.to_config() {
        Ok(config) => config,
        Err(message) => return fail(&message),
    };
    let mut out = io::stdout().lock();
    if dump_ir {
        return match watts::frontend::load(&config) {
            Ok(p) => u8::from(write!(out, "{}", watts::frontend::dump(&p)).is_err()) * 2,
            Err(err) => fail(&err.to_string()),
        };
    }
    let (written, code) = match watts::run(&config) {
        Ok(report) => (report.render(config.format, &mut out), report.exit_code()),
        Err(err) => return fail(&err.to_string()),
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
