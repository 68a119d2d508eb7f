//! The `watts` binary: command line → [`watts::cli::Cli`] → [`watts::commands::run`] → exit.
//! The only place that exits: 0 all proved, 1 some may fail, 2 usage or input error, 3 bug.
//!
//! `--version` names the LLVM version watts links with. A panic prints one line (`error: internal
//! error: ...`, no backtrace) and the status is 3. Besides `main`, only clap (a usage error,
//! `--help`, `--version`) and `watts::error::out_of_memory` end the process.
//!
//! Memory: `watts::error::OutOfMemory` is the global allocator and, through `install_cxx_handler`,
//! C++'s new handler (looked up with `dlsym`, for LLVM and z3): running out of memory prints
//! `error: out of memory: ...` and ends the process with `_exit(3)`, never SIGABRT.
//!
//! IR inputs: run with `watts::frontend::READ_IR_ARG` as its first argument, the binary is the
//! child that reads one IR input (`frontend::read_ir_child`); otherwise it registers its own
//! executable for those children (`frontend::read_ir_in_child_processes`).

use clap::{CommandFactory, FromArgMatches};
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use watts::cli::Cli;

/// Out of memory ends watts with a message and status 3, not with SIGABRT.
#[global_allocator]
static ALLOCATOR: watts::error::OutOfMemory = watts::error::OutOfMemory;

fn main() -> ExitCode {
    watts::error::OutOfMemory::install_cxx_handler();
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
    ExitCode::from(panic::catch_unwind(AssertUnwindSafe(parse_and_run)).unwrap_or(3))
}

fn parse_and_run() -> u8 {
    // Each IR input is read first by a child process running this binary (`watts::frontend::
    // read_ir_child`); whatever makes LLVM crash or hang there is an input error here.
    let mut args = std::env::args_os().skip(1);
    if args.next().as_deref() == Some(std::ffi::OsStr::new(watts::frontend::READ_IR_ARG)) {
        return watts::frontend::read_ir_child(std::path::Path::new(
            &args.next().unwrap_or_default(),
        ));
    }
    if let Ok(exe) = std::env::current_exe() {
        watts::frontend::read_ir_in_child_processes(exe);
    }
    // clap exits by itself: 2 on a usage error, 0 after --help or --version.
    let (major, minor, patch) = watts::frontend::llvm_version();
    let version = format!(
        "{} (LLVM {major}.{minor}.{patch})",
        env!("CARGO_PKG_VERSION")
    );
    let version: &'static str = Box::leak(version.into_boxed_str());
    let matches = Cli::command().version(version).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    watts::commands::run(cli)
}
