//! The budgets of one whole run, front end included: the deadline of `--timeout` (kept per
//! thread) and the memory of `--max-memory` (process-wide, as the allocator reads it,
//! [`crate::error::set_memory_budget`]), and the programs watts runs (clang) run under them.
//!
//! Invariant: no child process outlives the deadline (it is killed, with its process group),
//! and none has more address space than [`child_address_space`]; a child stopped by either is
//! an input error ([`InputError::Budget`]), never a result.
//!
//! The deadline is per thread: the front end and `--confirm` run on the caller's thread; with a
//! timeout the analysis runs on a worker thread, which `watts::run` stops waiting for at the
//! deadline (every assertion may-fail, the worker left running). A child runs in its own process
//! group, killed at the deadline, under `RLIMIT_AS` = `--max-memory` + `CHILD_CODE_ALLOWANCE` (512
//! MiB), never above a limit already set.

use std::cell::Cell;
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::error::InputError;

thread_local! {
    /// The deadline of the run on this thread (`--timeout`) and the timeout it came from, if
    /// any. Per thread, so that runs of the library on several threads (the corpus tests) keep
    /// their own; the front end and `--confirm` run on the thread that called `watts::run`.
    static DEADLINE: Cell<Option<(Instant, Duration)>> = const { Cell::new(None) };
}

/// Sets the deadline of the run: `timeout` from now (`None`: no deadline).
pub fn set_timeout(timeout: Option<Duration>) {
    DEADLINE.set(timeout.map(|t| (Instant::now() + t, t)));
}

/// The deadline of the run and the `--timeout` it came from, if any.
pub fn deadline() -> Option<(Instant, Duration)> {
    DEADLINE.get()
}

/// The time left before the deadline (`None`: no deadline).
pub fn remaining() -> Option<Duration> {
    deadline().map(|(at, _)| at.saturating_duration_since(Instant::now()))
}

pub use crate::limits::CHILD_CODE_ALLOWANCE;

/// The address-space limit (`RLIMIT_AS`) of a child process: `--max-memory` plus
/// [`CHILD_CODE_ALLOWANCE`].
pub fn child_address_space() -> u64 {
    (crate::error::memory_budget() as u64).saturating_add(CHILD_CODE_ALLOWANCE)
}

/// Whether the run is past its deadline.
pub fn expired() -> bool {
    deadline().is_some_and(|(at, _)| Instant::now() >= at)
}

/// An error when the run is past its deadline, after `phase` (`"lowering the program"`); the
/// front end checks it between its phases.
///
/// The heap budget is not checked here: past it the analysis degrades to may-fail for every
/// assertion, which needs the program, so the in-process front end finishes (its memory follows
/// the bitcode, which a clang bounded by [`child_address_space`] produced).
pub fn check(phase: &str) -> Result<(), InputError> {
    match deadline() {
        Some((at, timeout)) if Instant::now() >= at => Err(InputError::Budget(format!(
            "the run did not finish within the --timeout ({:.1} s): it ran out while {phase}",
            timeout.as_secs_f64()
        ))),
        _ => Ok(()),
    }
}

/// How a child ran out of its budget, if it did.
enum Stopped {
    Deadline(Duration),
    /// At the job's own time limit.
    OwnLimit,
}

/// Runs `cmd` to its end, as [`Command::output`] does, within the run's budgets: it is killed
/// (with every process it started) at the deadline, and runs with the address space of
/// [`child_address_space`]. `what` names the work in messages (`compiling big.c`). Errors:
/// `InputError::Budget` when it was stopped at the deadline or ran out of memory; the
/// `io::Error` of starting it otherwise (for the caller's own message).
pub fn output(cmd: &mut Command, what: &str) -> Result<Result<Output, std::io::Error>, InputError> {
    let job = Job {
        program: "clang",
        what,
        stdin: None,
        own_limit: None,
    };
    Ok(run(cmd, job)?.map(|(out, _)| out))
}

/// A child process for [`run`].
pub struct Job<'a> {
    /// Which program it is, in messages (`clang`).
    pub program: &'a str,
    /// What it does, in messages (`compiling big.c`).
    pub what: &'a str,
    /// Bytes written to its standard input (closed after them); none: no input.
    pub stdin: Option<Vec<u8>>,
    /// A time limit of its own, besides the run's deadline.
    pub own_limit: Option<Duration>,
}

/// Runs `cmd` as [`output`] does, with `job`'s input and own time limit; the output, and
/// whether the child was stopped at its own limit (not the run's deadline, which is an error).
pub fn run(
    cmd: &mut Command,
    job: Job,
) -> Result<Result<(Output, bool), std::io::Error>, InputError> {
    limit(cmd);
    let stdin = if job.stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    };
    cmd.stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    // The input is written and both pipes are drained while the child runs, so that it never
    // blocks on a full one.
    let writer = (child.stdin.take()).zip(job.stdin).map(|(mut pipe, data)| {
        std::thread::spawn(move || {
            // A child that died early closed the pipe: its status says why.
            let _ = std::io::Write::write_all(&mut pipe, &data);
        })
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let own = job.own_limit.map(|l| Instant::now() + l);
    let mut pause = Duration::from_millis(1);
    let mut stopped = None;
    let status = loop {
        let run_deadline = deadline();
        let at = match (run_deadline.map(|(at, _)| at), own) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => match a.or(b) {
                Some(at) => at,
                None => match child.wait() {
                    Ok(status) => break status,
                    Err(e) => return Ok(Err(e)),
                },
            },
        };
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Ok(Err(e)),
        }
        let now = Instant::now();
        if now >= at {
            kill_group(&mut child);
            stopped = Some(match run_deadline {
                Some((d, timeout)) if d <= now => Stopped::Deadline(timeout),
                _ => Stopped::OwnLimit,
            });
            break child
                .wait()
                .map_err(|e| InputError::Budget(e.to_string()))?;
        }
        // A few milliseconds at most past the child's end or the deadline.
        std::thread::sleep(pause.min(at - now));
        pause = (pause * 2).min(Duration::from_millis(5));
    };
    if let Some(w) = writer {
        let _ = w.join();
    }
    let out = Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    let (program, what) = (job.program, job.what);
    match stopped {
        Some(Stopped::Deadline(timeout)) => {
            return Err(InputError::Budget(format!(
                "the run did not finish within the --timeout ({:.1} s): {program} was stopped \
                 while {what}",
                timeout.as_secs_f64()
            )))
        }
        Some(Stopped::OwnLimit) => return Ok(Ok((out, true))),
        None => {}
    }
    if !out.status.success() && ran_out_of_memory(&out.stderr) {
        return Err(InputError::Budget(format!(
            "{program} ran out of memory while {what}: it may use the memory budget \
             (--max-memory {}) and {} MiB for its code",
            crate::error::budget_text(),
            CHILD_CODE_ALLOWANCE >> 20
        )));
    }
    Ok(Ok((out, false)))
}

/// Whether a failed child's stderr says that an allocation failed (LLVM's and the C++ runtime's
/// messages).
fn ran_out_of_memory(stderr: &[u8]) -> bool {
    let text = String::from_utf8_lossy(stderr);
    [
        "LLVM ERROR: out of memory",
        "Allocation failed",
        "std::bad_alloc",
    ]
    .iter()
    .any(|m| text.contains(m))
}

#[cfg(unix)]
fn limit(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let bytes = child_address_space() as libc::rlim_t;
    // SAFETY: between fork and exec the closure calls only async-signal-safe functions
    // (`setpgid`, `getrlimit`, `setrlimit`) and allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            // Its own process group, so that the deadline kills whatever it starts too. Both
            // calls only lower what the child may do: their failure leaves it as it was.
            libc::setpgid(0, 0);
            let mut lim = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_AS, &mut lim) == 0 {
                // A limit set on watts (`ulimit -v`) is never raised.
                let at_most = bytes.min(lim.rlim_cur).min(lim.rlim_max);
                lim.rlim_cur = at_most;
                lim.rlim_max = at_most;
                libc::setrlimit(libc::RLIMIT_AS, &lim);
            }
            Ok(())
        });
    }
}

#[cfg(not(unix))]
fn limit(_: &mut Command) {}

/// Kills `child` and its process group.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    // SAFETY: sends a signal to the group `limit` made for the child; no memory is involved.
    unsafe {
        libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL);
    }
    let _ = child.kill();
}
