//! Reading untrusted LLVM IR (`.ll`, `.bc`) in a child process first: the watts binary
//! re-executes itself on the bytes of each IR input, and the child parses, verifies, checks the
//! debug types, runs mem2reg and lowers them exactly as the parent then does. LLVM's parsers and
//! verifier trust their input (a mutated bitcode file crashes them; a deep metadata chain
//! overflows their recursion; a cyclic debug type makes mem2reg loop), so whatever would crash
//! or hang watts crashes or hangs the child instead, and the parent reports an input error
//! (exit status 2) naming the file.
//!
//! Invariant: when the binary registered itself ([`register`]), the parent parses no IR input in
//! its own process before a child has read the same bytes to the end and exited with status 0.
//! Used as a library (tests, no registration), IR inputs are read in-process only.
//!
//! The child's verdict: exit 0 is read; exit 2 with LLVM's message, a signal, another status, or
//! the time limit (`READ_SECONDS_BASE` + `READ_SECONDS_PER_MIB` per MiB: 10 s + 10 s per MiB) make
//! the input an `InputError::InvalidIr` naming the file. The child runs under `budget::run`, so the
//! run's `--timeout` and memory limit hold for it too.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::OnceLock;
use std::time::Duration;

use crate::error::InputError;

/// The first argument that makes the watts binary the child that reads one IR input from
/// stdin (its second argument is the input's name, for messages).
pub(crate) const CHILD_ARG: &str = "__watts-read-ir";

use crate::limits::{QUOTED_LINES, READ_SECONDS_BASE, READ_SECONDS_PER_MIB, STDERR_KEPT_BYTES};

/// The executable a child runs (the watts binary), once [`register`]ed.
static READER: OnceLock<PathBuf> = OnceLock::new();

/// Registers `exe` (the watts binary) as the program a child runs to read each IR input.
pub(crate) fn register(exe: PathBuf) {
    let _ = READER.set(exe);
}

/// The child (`watts __watts-read-ir NAME`): reads stdin whole, then has `read` do with it
/// what the parent will do (`load::read_ir_alone`, passed in by the caller so that this module,
/// which `load` calls, names nothing of `load`). The exit status is 0 when it read, 2 when it
/// rejected the input, with LLVM's message on stderr.
pub(crate) fn child_main(
    name: &Path,
    read: impl FnOnce(&Path, &[u8]) -> Result<(), InputError>,
) -> u8 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
        eprint!("cannot read the input from the parent process: {e}");
        return 2;
    }
    match read(name, &bytes) {
        Ok(()) => 0,
        Err(InputError::InvalidIr { message, .. }) => {
            eprint!("{message}");
            2
        }
        Err(e) => {
            eprint!("{e}");
            2
        }
    }
}

/// Has a child read `bytes` (the contents of the IR input `path`) first, when the binary
/// registered itself; an error when the child rejected them, crashed or ran out of time.
pub(crate) fn read_in_child(path: &Path, bytes: &[u8]) -> Result<(), InputError> {
    let Some(exe) = READER.get() else {
        return Ok(());
    };
    let invalid = |message: String| InputError::InvalidIr {
        path: path.to_path_buf(),
        message,
    };
    let limit =
        Duration::from_secs(READ_SECONDS_BASE + READ_SECONDS_PER_MIB * (bytes.len() as u64 >> 20));
    let what = format!("reading {}", path.display());
    // The run's deadline and memory budget hold for the child too (`budget::run`), besides
    // its own time limit.
    let job = crate::budget::Job {
        program: "the process reading LLVM IR",
        what: &what,
        stdin: Some(bytes.to_vec()),
        own_limit: Some(limit),
    };
    let (out, stopped) = crate::budget::run(Command::new(exe).arg(CHILD_ARG).arg(path), job)?
        .map_err(|e| invalid(format!("cannot start a process to read it: {e}")))?;
    if stopped {
        return Err(invalid(format!(
            "LLVM could not read it within {} s (the process reading it was stopped)",
            limit.as_secs()
        )));
    }
    let said = tail_of(&out.stderr);
    let status = out.status;
    match status.code() {
        Some(0) => Ok(()),
        Some(2) if !said.trim().is_empty() => Err(invalid(said)),
        _ => Err(invalid(format!(
            "LLVM could not read it: the process reading it {}{}",
            how_it_ended(status),
            quoted(&said)
        ))),
    }
}

/// The last [`STDERR_KEPT_BYTES`] of a child's stderr (where LLVM's and Rust's last words are).
fn tail_of(stderr: &[u8]) -> String {
    let kept = &stderr[stderr.len().saturating_sub(STDERR_KEPT_BYTES)..];
    String::from_utf8_lossy(kept).into_owned()
}

/// "was killed by signal 11 (SIGSEGV)", "exited with status 3".
fn how_it_ended(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                _ => "",
            };
            return format!("was killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("ended ({status})"),
    }
}

/// The last lines a crashed child wrote (`LLVM ERROR: ...`, `thread 'main' has overflowed its
/// stack`), each cut to 200 characters, after "; it said: "; empty when it said nothing.
fn quoted(said: &str) -> String {
    let lines: Vec<String> = said
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.chars().take(200).collect())
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let from = lines.len().saturating_sub(QUOTED_LINES);
    format!("; it said: {}", lines[from..].join(" / "))
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn quotes_the_last_lines() {
        assert_eq!(quoted(""), "");
        assert_eq!(quoted("\n  \n"), "");
        assert_eq!(
            quoted("a\n\nb\nc\nd\nLLVM ERROR: Broken module found\n"),
            "; it said: b / c / d / LLVM ERROR: Broken module found"
        );
        assert_eq!(quoted(&"x".repeat(300)).len(), "; it said: ".len() + 200);
    }
}
