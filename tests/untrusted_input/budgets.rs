//! Budgets that hold (issue 33, point 7): a file from a pull request cannot make watts run
//! past `--timeout`, `--confirm-budget` or `--max-memory`, whatever it holds: deep recursion
//! for the explorer, many shared loads with a large `--max-combinations` for the analysis, a
//! file too large to compile for the front end. Each test runs the binary with a bound on its
//! wall time (it is killed past it, which fails the test) and reads its peak memory (the
//! largest resident size of watts and of the clang it ran, from `wait4`).
//!
//! The bounds are generous for a noisy 2-core machine; the figures measured on one are in the
//! comments (before the fix, then after).

#[allow(unused_imports)]
use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of watts: exit status (`None`: killed at the wall-time bound), output, wall time
/// and peak resident memory in bytes.
struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
    wall: Duration,
    peak: u64,
}

impl Run {
    /// Asserts that it ended by itself within `bound` with `status`.
    #[track_caller]
    fn assert_ended(&self, bound: Duration, status: i32) {
        assert!(
            self.wall < bound && self.status == Some(status),
            "expected status {status} within {bound:?}, got {:?} after {:?}\nstdout:\n{}\nstderr:\n{}",
            self.status,
            self.wall,
            self.stdout,
            self.stderr
        );
    }
}

/// Runs `watts ARGS` in `dir`, killed after `bound`.
// The child is reaped by `wait4`, which also gives its peak memory.
#[allow(clippy::zombie_processes)]
fn watts_bounded(dir: &Path, args: &[&str], bound: Duration) -> Run {
    let out = dir.join("watts.stdout");
    let err = dir.join("watts.stderr");
    let t0 = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_watts"))
        .args(args)
        .current_dir(dir)
        .env_remove("WATTS_CLANG")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("stdout file"))
        .stderr(std::fs::File::create(&err).expect("stderr file"))
        .spawn()
        .expect("run the watts binary");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    loop {
        // SAFETY: waits for our own child; the pointers are to locals that outlive the call.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        assert!(r == 0, "wait4: {}", std::io::Error::last_os_error());
        if t0.elapsed() >= bound && !killed {
            // SAFETY: signals our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let wall = t0.elapsed();
    Run {
        status: (!killed && libc::WIFEXITED(status)).then(|| libc::WEXITSTATUS(status)),
        stdout: std::fs::read_to_string(&out).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err).unwrap_or_default(),
        wall,
        // Kilobytes on Linux.
        peak: usage.ru_maxrss as u64 * 1024,
    }
}

const MIB: u64 = 1 << 20;

/// A recursion `depth` calls deep in a thread, under an assertion that fails.
fn recursion(depth: u32) -> String {
    format!(
        "#include <assert.h>\n#include <pthread.h>\nint g;\n\
         int h(int n) {{ return n == 0 ? 0 : 1 + h(n - 1); }}\n\
         void *t(void *a) {{ (void)a; g = 1; return 0; }}\n\
         int main(void) {{\n  pthread_t x;\n  pthread_create(&x, 0, t, 0);\n  \
         int r = h({depth});\n  assert(r == {depth} && g == 0);\n  pthread_join(x, 0);\n  \
         return 0;\n}}\n"
    )
}

/// `watts confirm --confirm-budget 2` on `h(10000)`: 24 s before (hashing the whole call stack
/// at every step), 0.3 s after, and the failing interleaving is found.
#[test]
fn a_recursion_10000_deep_is_explored_within_the_confirm_budget() {
    let dir = common::project(&[("deep.c", &recursion(10_000))]);
    let run = watts_bounded(
        dir.path(),
        &["confirm", "--confirm-budget", "2", "deep.c"],
        Duration::from_secs(60),
    );
    run.assert_ended(Duration::from_secs(12), 1);
}

/// `h(1000000)` never ended before (it was killed here after 60 s); now calls nested past
/// the interpreter's limit abandon the execution, with the reason in the report: 2.1 s with
/// `--timeout 2` (which now bounds --confirm too), about 100 MB.
#[test]
fn a_recursion_a_million_deep_ends_within_the_timeout_and_says_why() {
    let dir = common::project(&[("deep.c", &recursion(1_000_000))]);
    let run = watts_bounded(
        dir.path(),
        &["analyze", "--confirm", "--timeout", "2", "deep.c"],
        Duration::from_secs(60),
    );
    run.assert_ended(Duration::from_secs(15), 1);
    assert!(
        run.stdout.contains("calls nest more than"),
        "{}",
        run.stdout
    );
    assert!(run.peak < 600 * MIB, "peak {} MiB", run.peak / MIB);
}

/// A reader of 12 globals that two threads write: 4^12 combinations. With
/// `--max-combinations 100000000 --max-memory 100M` the run reached 2.6 GB before, and ends
/// now in under a second at about 180 MB (the heap budget plus the code of watts and LLVM),
/// falling back to the flow-insensitive mode with a note.
#[test]
fn max_memory_holds_with_a_large_max_combinations() {
    let n = 12;
    let globals: String = (0..n).map(|i| format!("int g{i};\n")).collect();
    let writer = |name: &str, base: i32| {
        let body: String = (0..n)
            .map(|i| format!("  g{i} = {};\n", base + i))
            .collect();
        format!("void *{name}(void *a) {{\n  (void)a;\n{body}  return 0;\n}}\n")
    };
    let reads: String = (0..n).map(|i| format!("  s += g{i};\n")).collect();
    let text = format!(
        "#include <assert.h>\n#include <pthread.h>\n{globals}{}{}\
         void *r(void *a) {{\n  (void)a;\n  int s = 0;\n{reads}  assert(s != 7);\n  return 0;\n}}\n\
         int main(void) {{\n  pthread_t t[3];\n  pthread_create(&t[0], 0, w1, 0);\n  \
         pthread_create(&t[1], 0, w2, 0);\n  pthread_create(&t[2], 0, r, 0);\n  \
         for (int i = 0; i < 3; i++)\n    pthread_join(t[i], 0);\n  return 0;\n}}\n",
        writer("w1", 1),
        writer("w2", 100),
    );
    let dir = common::project(&[
        ("many.c", &text),
        ("tiny.c", "int main(void) { return 0; }\n"),
    ]);
    // The resident size of watts itself (its code, LLVM's, clang's) on a trivial program.
    let base = watts_bounded(dir.path(), &["analyze", "tiny.c"], Duration::from_secs(60));
    base.assert_ended(Duration::from_secs(30), 0);
    let budget = 100 * MIB;
    let run = watts_bounded(
        dir.path(),
        &[
            "analyze",
            "--mode",
            "flow-sensitive",
            "--max-combinations",
            "100000000",
            "--max-memory",
            "100M",
            "--timeout",
            "30",
            "many.c",
        ],
        Duration::from_secs(60),
    );
    run.assert_ended(Duration::from_secs(45), 1);
    assert!(run.stdout.contains("--max-memory"), "{}", run.stdout);
    assert!(
        run.peak < budget + base.peak + 64 * MIB,
        "peak {} MiB, budget 100 MiB, watts alone {} MiB",
        run.peak / MIB,
        base.peak / MIB
    );
}

/// A 5 MB one-line C file of 150,000 functions: clang alone takes 9 to 38 s and 700 MB on it.
fn big_file() -> String {
    let mut text = String::from("#include <assert.h>\n");
    for i in 0..150_000 {
        text.push_str(&format!("int f{i}(int x){{return x+{i};}} "));
    }
    text.push_str("\nint main(void) { assert(f1(1) == 2); return 0; }\n");
    text
}

/// `--timeout` bounds the front end: clang is stopped at the deadline, and the run ends with
/// exit status 2 and a message (25 to 74 s and 780 MB before, 2.1 s after).
#[test]
fn the_timeout_stops_clang() {
    let dir = common::project(&[("big.c", &big_file())]);
    let run = watts_bounded(
        dir.path(),
        &["analyze", "--timeout", "2", "big.c"],
        Duration::from_secs(120),
    );
    run.assert_ended(Duration::from_secs(15), 2);
    assert!(
        run.stderr
            .contains("did not finish within the --timeout (2.0 s)")
            && run
                .stderr
                .contains("clang was stopped while compiling big.c"),
        "{}",
        run.stderr
    );
}

/// `--max-memory` bounds clang too: it runs with the budget plus 512 MiB of address space
/// for its code, and a file that needs more is an input error with a message (before: 700 MB
/// for clang, then 780 MB for watts, and a verdict; after: about 4 s and 420 MB).
#[test]
fn the_memory_budget_bounds_clang() {
    let dir = common::project(&[("big.c", &big_file())]);
    let run = watts_bounded(
        dir.path(),
        &[
            "analyze",
            "--max-memory",
            "64M",
            "--timeout",
            "100",
            "big.c",
        ],
        Duration::from_secs(120),
    );
    run.assert_ended(Duration::from_secs(100), 2);
    assert!(
        run.stderr
            .contains("clang ran out of memory while compiling big.c"),
        "{}",
        run.stderr
    );
    assert!(
        run.peak < 64 * MIB + 512 * MIB,
        "peak {} MiB",
        run.peak / MIB
    );
}
