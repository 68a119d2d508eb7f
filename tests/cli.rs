//! The command-line contract: exit statuses, error messages and output formats of the `watts`
//! binary, run as a user would run it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `watts` with `args` in `dir`.
fn watts_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watts"))
        .args(args)
        .current_dir(dir)
        .env_remove("WATTS_CLANG")
        .env_remove("NO_COLOR")
        .output()
        .expect("run the watts binary")
}

fn watts(args: &[&str]) -> Output {
    watts_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit status, showing both streams when it differs.
#[track_caller]
fn assert_status(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A temporary directory holding one file `name` with `contents`.
fn file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("write test input");
    (dir, path)
}

const SAFE: &str = r#"#include <assert.h>
#include <pthread.h>
int x = 0;
void *writer(void *arg) { x = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  pthread_join(t, 0);
  assert(x <= 1);
  return 0;
}
"#;

const UNSAFE: &str = r#"#include <assert.h>
#include <pthread.h>
int x = 0;
void *writer(void *arg) { x = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  assert(x == 0);
  pthread_join(t, 0);
  return 0;
}
"#;

/// `watts analyze [extra...] NAME` on a file with `contents`.
fn analyze(name: &str, contents: &str, extra: &[&str]) -> Output {
    let (dir, path) = file(name, contents.as_bytes());
    let path = path.to_str().expect("utf-8 temp path");
    let mut args = vec!["analyze"];
    args.extend_from_slice(extra);
    args.push(path);
    watts_in(dir.path(), &args)
}

// Usage: these do not need the front end or the analysis.

#[test]
fn help_and_version_exit_0() {
    let o = watts(&["--help"]);
    assert_status(&o, 0);
    assert!(stdout(&o).contains("analyze"), "{}", stdout(&o));
    let o = watts(&["analyze", "--help"]);
    assert_status(&o, 0);
    for flag in [
        "--mode",
        "--domain",
        "--format",
        "--verbose",
        "--clang",
        "--color",
        "CLANG_ARGS",
    ] {
        assert!(stdout(&o).contains(flag), "{flag} in {}", stdout(&o));
    }
    let o = watts(&["--version"]);
    assert_status(&o, 0);
    let version = stdout(&o);
    assert!(
        version.starts_with(&format!("watts {} (LLVM 19.", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
}

/// `--help` reads like a man page: every option group, the exit statuses, examples.
#[test]
fn long_help_documents_workflow_options() {
    let o = watts(&["analyze", "--help"]);
    assert_status(&o, 0);
    let help = stdout(&o);
    for needle in [
        "--entry <FN[:N|*]>",
        "--init <FN>",
        "--build-dir <DIR>",
        "--compile-commands <FILE>",
        "--config <FILE>",
        "--baseline <FILE>",
        "--timeout <SECS>",
        "--max-memory <SIZE>",
        "--quiet",
        "EXIT STATUS:",
        "EXAMPLES:",
        "watts-ignore",
    ] {
        assert!(help.contains(needle), "{needle} in {help}");
    }
    let o = watts(&["invariants", "--help"]);
    assert_status(&o, 0);
    assert!(stdout(&o).contains("--thread"), "{}", stdout(&o));
}

#[test]
fn shell_completions() {
    for shell in ["bash", "zsh", "fish"] {
        let o = watts(&["completions", shell]);
        assert_status(&o, 0);
        let script = stdout(&o);
        assert!(
            script.contains("entry") && script.contains("invariants"),
            "{shell}"
        );
    }
    assert_status(&watts(&["completions", "tcsh"]), 2);
}

#[test]
fn no_input_file_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = watts_in(dir.path(), &["analyze", "--no-config"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("no input files"), "{}", stderr(&o));
    assert_status(&watts(&[]), 2);
}

#[test]
fn unknown_option_exits_2() {
    let (_dir, path) = file("ok.c", SAFE.as_bytes());
    let path = path.to_str().expect("utf-8 temp path");
    let o = watts(&["analyze", "--frobnicate", path]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("--frobnicate"), "{}", stderr(&o));
    let o = watts(&["analyze", "--mode", "fast", path]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("flow-insensitive"), "{}", stderr(&o));
}

#[test]
fn every_mode_and_domain_runs() {
    for mode in [
        "flow-insensitive",
        "flow-sensitive",
        "constraints",
        "optimized",
    ] {
        for domain in ["interval", "octagon"] {
            let o = analyze("ok.c", SAFE, &["--mode", mode, "--domain", domain]);
            assert_status(&o, 0);
        }
    }
    let o = analyze("ok.c", SAFE, &["--domain", "polyhedra"]);
    assert_status(&o, 2);
}

#[test]
fn missing_file_exits_2() {
    let o = watts(&["analyze", "no/such/file.c"]);
    assert_status(&o, 2);
    assert_eq!(stderr(&o).trim(), "error: no such file: no/such/file.c");
}

// Input errors: these need the front end (clang and LLVM).

#[test]
fn c_syntax_error_exits_2_with_clangs_message() {
    let o = analyze("bad.c", "int main(void) { return 0 }\n", &[]);
    assert_status(&o, 2);
    let err = stderr(&o);
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains("bad.c:1:") && err.contains("error: expected ';'"),
        "{err}"
    );
    assert!(!err.contains("internal error"), "{err}");
}

#[test]
fn garbage_ir_exits_2() {
    let o = analyze("bad.ll", "this is not LLVM IR\n", &[]);
    assert_status(&o, 2);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    let (dir, path) = file(
        "bad.bc",
        &[0xde, 0xc0, 0x17, 0x0b, 0xff, 0x00, 0x13, 0x37, 0x42],
    );
    let o = watts_in(
        dir.path(),
        &["analyze", path.to_str().expect("utf-8 temp path")],
    );
    assert_status(&o, 2);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

#[test]
fn unusable_clang_exits_2() {
    let o = analyze("ok.c", SAFE, &["--clang", "/nonexistent/clang-19"]);
    assert_status(&o, 2);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

// Verdicts: these need the front end and the analysis.

#[test]
fn proved_program_exits_0() {
    let o = analyze("safe.c", SAFE, &[]);
    assert_status(&o, 0);
    assert!(
        stdout(&o).ends_with("1 assertion: 1 proved; no data race\n"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn failing_program_exits_1_with_a_warning() {
    let o = analyze("unsafe.c", UNSAFE, &["--color", "never"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains("warning[assert-may-fail]: assertion may fail"),
        "{out}"
    );
    assert!(out.contains("unsafe.c:8:3"), "{out}");
    assert!(out.contains("`x == 0` may be false"), "{out}");
    assert!(
        out.ends_with("1 assertion: 0 proved, 1 may fail; 1 data race\n"),
        "{out}"
    );
}

#[test]
fn json_output_has_version_1() {
    let o = analyze("unsafe.c", UNSAFE, &["--format", "json"]);
    assert_status(&o, 1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON on stdout");
    assert_eq!(v["version"], 1);
    assert_eq!(v["config"]["mode"], "optimized");
    assert_eq!(v["assertions"][0]["id"], "A1");
    assert_eq!(v["assertions"][0]["status"], "may-fail");
    assert_eq!(v["assertions"][0]["line"], 8);
    assert_eq!(v["summary"]["may_fail"], 1);
}

#[test]
fn gnu_output_lines() {
    let o = analyze("unsafe.c", UNSAFE, &["--format", "gnu"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].ends_with("unsafe.c:8:3: warning: assertion `x == 0` may fail [assert-may-fail]"),
        "{out}"
    );
    // The race: at its first access, with the other access of its first pair in the message.
    assert!(
        lines[1].contains("unsafe.c:4:29: warning: data race on `x`: write in `writer`"),
        "{out}"
    );
    assert!(lines[1].contains("and read in `main`"), "{out}");
    assert!(lines[1].contains("unsafe.c:8:3 [data-race]"), "{out}");
    assert_eq!(lines[2], "1 assertion: 0 proved, 1 may fail; 1 data race");
}

#[test]
fn clang_args_after_double_dash() {
    // Without -DBAD the file compiles and the assertion holds.
    let src = "#include <assert.h>\nint main(void) {\n#ifdef BAD\n  syntax error\n#endif\n  int y = 5;\n  assert(y == 5);\n  return 0;\n}\n";
    assert_status(&analyze("d.c", src, &[]), 0);
    let (dir, path) = file("d.c", src.as_bytes());
    let path = path.to_str().expect("utf-8 temp path");
    let o = watts_in(dir.path(), &["analyze", path, "--", "-DBAD"]);
    assert_status(&o, 2);
}

#[test]
fn closed_stdout_is_not_an_internal_error() {
    let (dir, path) = file("unsafe.c", UNSAFE.as_bytes());
    let mut child = Command::new(env!("CARGO_BIN_EXE_watts"))
        .args([
            "analyze",
            "--verbose",
            path.to_str().expect("utf-8 temp path"),
        ])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the watts binary");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("wait for watts");
    assert_status(&o, 1);
    assert!(!stderr(&o).contains("internal error"), "{}", stderr(&o));
}

/// Past `--max-combinations`, a thread's loads are joined instead: a note says so, and an
/// assertion that needs the combinations is no longer proved (soundly).
#[test]
fn combination_budget_falls_back_with_a_note() {
    const FLAG: &str = r#"#include <assert.h>
#include <pthread.h>
int flag = 0, x = 0;
void *w(void *a) { x = 5; flag = 1; return 0; }
void *r(void *a) { if (flag) { int t = x; assert(t == 0 || t == 5); } return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, r, 0);
  return 0;
}
"#;
    // The flag and `x` race: only the assertion matters here.
    let o = analyze(
        "flag.c",
        FLAG,
        &["--mode", "flow-sensitive", "--check", "assert"],
    );
    assert_status(&o, 0);
    let o = analyze(
        "flag.c",
        FLAG,
        &[
            "--mode",
            "flow-sensitive",
            "--max-combinations",
            "1",
            "--check",
            "assert",
        ],
    );
    assert_status(&o, 1);
    assert!(stdout(&o).contains("--max-combinations"), "{}", stdout(&o));
}

// Long runs: --quiet, --timeout, the progress indicator.

#[test]
fn quiet_prints_findings_only() {
    let o = analyze("unsafe.c", UNSAFE, &["--quiet"]);
    assert_status(&o, 1);
    assert!(stdout(&o).contains("assertion may fail"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("assertions:"), "{}", stdout(&o));
    let o = analyze("ok.c", SAFE, &["--quiet", "--format", "gnu"]);
    assert_status(&o, 0);
    assert_eq!(stdout(&o), "");
}

/// `SAFE` under `args` (a budget too small) exits 1 with its assertion may-fail, for a reason
/// that names `flag`.
fn may_fail_naming(args: &[&str], flag: &str) {
    let o = analyze("ok.c", SAFE, &[args, &["--format", "json"]].concat());
    assert_status(&o, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let a = &doc["assertions"][0];
    assert_eq!(a["status"], "may-fail", "{doc}");
    assert!(
        a["reason"].as_str().is_some_and(|r| r.contains(flag)),
        "{doc}"
    );
}

/// A timeout degrades to may-fail with a reason, never to proved. It bounds the whole run
/// (issue 33): one that ends in the front end, before there is any assertion, ends the run
/// with status 2 and says so.
#[test]
fn timeout_degrades_to_may_fail() {
    let o = analyze("ok.c", SAFE, &["--timeout", "0.000001"]);
    assert_status(&o, 2);
    assert!(
        stderr(&o).contains("did not finish within the --timeout"),
        "{}",
        stderr(&o)
    );
    // An analysis far longer than the timeout (a reader of 12 globals that two threads write:
    // millions of combinations), after a quick front end.
    let n = 12;
    let mut c = String::from("#include <assert.h>\n#include <pthread.h>\n");
    c += &(0..n).map(|i| format!("int g{i};\n")).collect::<String>();
    for (w, base) in [("w1", 1), ("w2", 100)] {
        c += &format!("void *{w}(void *a) {{\n");
        c += &(0..n)
            .map(|i| format!("  g{i} = {};\n", base + i))
            .collect::<String>();
        c += "  return 0;\n}\n";
    }
    c += "void *r(void *a) {\n  int s = 0;\n";
    c += &(0..n)
        .map(|i| format!("  s += g{i};\n"))
        .collect::<String>();
    c += "  assert(s != 7);\n  return 0;\n}\nint main(void) {\n  pthread_t t[3];\n";
    c += "  pthread_create(&t[0], 0, w1, 0);\n  pthread_create(&t[1], 0, w2, 0);\n";
    c += "  pthread_create(&t[2], 0, r, 0);\n  for (int i = 0; i < 3; i++)\n";
    c += "    pthread_join(t[i], 0);\n  return 0;\n}\n";
    let o = analyze(
        "many.c",
        &c,
        &[
            "--timeout",
            "3",
            "--max-combinations",
            "100000000",
            "--format",
            "json",
        ],
    );
    assert_status(&o, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let a = &doc["assertions"][0];
    assert_eq!(a["status"], "may-fail", "{doc}");
    assert!(
        a["reason"]
            .as_str()
            .is_some_and(|r| r.contains("--timeout")),
        "{doc}"
    );
    // A generous timeout changes nothing.
    assert_status(&analyze("ok.c", SAFE, &["--timeout", "600"]), 0);
    assert_status(&analyze("ok.c", SAFE, &["--timeout", "-1"]), 2);
}

/// A memory budget too small for anything degrades to may-fail with a reason and a complete
/// report in every format, never to a proof or a crash.
#[test]
fn a_tiny_memory_budget_degrades_to_may_fail() {
    may_fail_naming(&["--max-memory", "1K"], "--max-memory");
    for format in ["human", "gnu", "sarif"] {
        let o = analyze("ok.c", SAFE, &["--max-memory", "1K", "--format", format]);
        assert_status(&o, 1);
        assert!(stdout(&o).contains("may"), "{format}: {}", stdout(&o));
    }
    let o = analyze("ok.c", SAFE, &["--max-memory", "1K", "--format", "sarif"]);
    let _: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("sarif is json");
    // A failing assertion stays unproved under any budget.
    let o = analyze(
        "unsafe.c",
        UNSAFE,
        &["--max-memory", "1K", "--format", "gnu"],
    );
    assert_status(&o, 1);
    assert!(stdout(&o).contains("may fail"), "{}", stdout(&o));
    // Without an assertion, the report still says the analysis stopped (its notes may be
    // incomplete).
    let no_assert = SAFE.replace("assert(x <= 1);", "");
    let o = analyze(
        "plain.c",
        &no_assert,
        &["--max-memory", "1K", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert!(
        (doc["notes"].as_array().expect("notes").iter()).any(|n| n["message"]
            .as_str()
            .is_some_and(|m| m.contains("--max-memory"))),
        "{doc}"
    );
    let o = analyze("plain.c", &no_assert, &["--format", "json"]);
    assert!(!stdout(&o).contains("--max-memory"), "{}", stdout(&o));
    // A budget that fits changes nothing; sizes are checked.
    assert_status(&analyze("ok.c", SAFE, &["--max-memory", "8G"]), 0);
    for bad in ["0", "12X", "-1G", "100", ""] {
        assert_status(&analyze("ok.c", SAFE, &["--max-memory", bad]), 2);
    }
}

/// Runs `watts ARGS` under `script`, so that stderr is a terminal.
fn watts_in_terminal(dir: &Path, args: &[&str], after_ms: &str) -> String {
    let mut cmd = String::from(env!("CARGO_BIN_EXE_watts"));
    for a in args {
        cmd.push_str(&format!(" '{a}'"));
    }
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .current_dir(dir)
        .env("WATTS_PROGRESS_AFTER_MS", after_ms)
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("run `script` (util-linux)");
    stdout(&o)
}

#[test]
fn progress_only_on_a_terminal_and_not_when_quiet() {
    let (dir, path) = file("ok.c", SAFE.as_bytes());
    let path = path.to_str().expect("utf-8 temp path");
    let shown = watts_in_terminal(dir.path(), &["analyze", path], "0");
    assert!(
        shown.contains("compiling") || shown.contains("analysing"),
        "{shown}"
    );
    assert!(shown.contains("1 assertion: 1 proved"), "{shown}");
    let quiet = watts_in_terminal(dir.path(), &["analyze", "--quiet", path], "0");
    assert!(
        !quiet.contains("analysing") && !quiet.contains("compiling"),
        "{quiet}"
    );
    // Not past the delay: nothing but the report.
    let fast = watts_in_terminal(dir.path(), &["analyze", path], "60000");
    assert!(!fast.contains("analysing"), "{fast}");
    // Not a terminal: stderr stays empty.
    let o = analyze("ok.c", SAFE, &[]);
    assert_eq!(stderr(&o), "");
}

#[test]
fn svcomp_result_line() {
    let o = analyze("safe.c", SAFE, &["--svcomp"]);
    assert_status(&o, 0);
    assert!(
        stdout(&o).ends_with("SV-COMP result: true\n"),
        "{}",
        stdout(&o)
    );
    // --svcomp confirms: the failing interleaving makes the answer `false`.
    let o = analyze("unsafe.c", UNSAFE, &["--svcomp", "--quiet"]);
    assert_status(&o, 1);
    assert!(
        stdout(&o).ends_with("SV-COMP result: false\n"),
        "{}",
        stdout(&o)
    );
    // True, but neither proved by the analysis (a product) nor by running every execution
    // (the input has more values than a run can try).
    const OPEN: &str = "extern int __VERIFIER_nondet_int(void);\n\
        extern void __VERIFIER_assert(int);\n\
        int main(void) { int a = __VERIFIER_nondet_int(); __VERIFIER_assert(a * a != 3); return 0; }\n";
    let budget = ["--svcomp", "--confirm-budget", "1"];
    let o = analyze("open.c", OPEN, &[&budget[..], &["--quiet"]].concat());
    assert_status(&o, 1);
    assert!(
        stdout(&o).ends_with("SV-COMP result: unknown\n"),
        "{}",
        stdout(&o)
    );
    // JSON stays parseable: the line goes to stderr.
    let o = analyze(
        "open.c",
        OPEN,
        &[&budget[..], &["--format", "json"]].concat(),
    );
    serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("valid JSON on stdout");
    assert!(
        stderr(&o).contains("SV-COMP result: unknown"),
        "{}",
        stderr(&o)
    );
}

/// The optimized mode analyses combinations in parallel; the result must not depend on it.
#[test]
fn parallel_and_single_threaded_runs_print_the_same_json() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "tests/corpus/12-clusters/01-two-pairs.c",
        "tests/corpus/12-clusters/03-real-failures.c",
        "tests/corpus/12-clusters/04-many-combinations.c",
        "tests/corpus/10-flow/05-driver.c",
        "tests/corpus/00-readme/example.c",
    ] {
        let path = root.join(file);
        let path = path.to_str().expect("utf-8 path");
        let run = |jobs: &str| {
            let o = watts(&["analyze", "--format", "json", "--jobs", jobs, path]);
            let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON output");
            // Timings differ from run to run; everything else must be identical.
            v["stats"]["time_ms"] = serde_json::Value::Null;
            v["stats"]["datalog_ms"] = serde_json::Value::Null;
            (o.status.code(), v)
        };
        assert_eq!(run("1"), run("2"), "{file}");
        assert_eq!(run("1"), run("4"), "{file}");
    }
}

// Numbers (issue 18, 9): bounds of --timeout, --confirm-budget and --jobs; out of memory.

/// Seconds out of range are a usage error naming the bound, never a crash (`1e308` and
/// `u64::MAX` panicked in `Duration::from_secs_f64`, exit 3).
#[test]
fn out_of_range_seconds_exit_2_with_the_bound() {
    for bad in [
        "1e308",
        "18446744073709551615",
        "-1",
        "NaN",
        "inf",
        "0",
        "5m",
    ] {
        for flag in [
            &["--timeout", bad][..],
            &["--confirm", "--confirm-budget", bad],
        ] {
            let o = analyze("ok.c", SAFE, flag);
            assert_status(&o, 2);
            let err = stderr(&o);
            assert!(
                err.contains("at most 31536000") && !err.contains("internal error"),
                "{flag:?}: {err}"
            );
        }
    }
    let o = analyze("ok.c", SAFE, &["--confirm", "--confirm-budget", "31536000"]);
    assert_status(&o, 0);
}

/// The timeout of watts.toml is bounded like the option.
#[test]
fn out_of_range_timeout_in_watts_toml_exits_2() {
    let (dir, path) = file("ok.c", SAFE.as_bytes());
    std::fs::write(
        dir.path().join("watts.toml"),
        "timeout = 18446744073709551615\n",
    )
    .expect("write watts.toml");
    let o = watts_in(dir.path(), &["analyze", path.to_str().expect("utf-8")]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("watts.toml: timeout"), "{}", stderr(&o));
}

/// More workers than cores cannot help: `--jobs 100000` is lowered to the cores, without
/// an error, and runs as fast as the default (it took over a minute before).
#[test]
fn huge_jobs_is_capped_at_the_cores() {
    let start = std::time::Instant::now();
    let o = analyze("ok.c", SAFE, &["--jobs", "100000"]);
    assert_status(&o, 0);
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
}

/// A program that needs more memory than allowed ends with a message and status 3, not with
/// SIGABRT (status 134 through the shell).
#[test]
fn out_of_memory_is_reported_not_aborted() {
    // 4,000 of these lines need about 600 MB (1,200 needed 2.8 GB before states shared
    // structure, and fit in 120 MB since).
    let n = 4000;
    let mut c = format!("#include <assert.h>\nint g[{n}];\nint main(void) {{\n");
    for i in 0..n {
        c.push_str(&format!(
            "  int x{i} = g[{i}]; if (x{i} > {i}) x{i} = {i};\n"
        ));
    }
    c.push_str("  int t = 0;\n");
    for i in 0..n {
        c.push_str(&format!("  if (x{i} < 0) t++;\n"));
    }
    c.push_str("  assert(t >= 0);\n  return 0;\n}\n");
    let (dir, path) = file("big.c", c.as_bytes());
    let script = format!(
        "ulimit -v 400000; exec '{}' analyze '{}'",
        env!("CARGO_BIN_EXE_watts"),
        path.display()
    );
    let o = Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir.path())
        .env_remove("WATTS_CLANG")
        .output()
        .expect("run sh");
    // Needs well over 400 MB: it must not succeed either.
    assert_status(&o, 3);
    assert!(
        stderr(&o).contains("error: out of memory"),
        "{}",
        stderr(&o)
    );
}

/// Issue 16: a program whose assertions no call or creation reaches needs no flow-sensitive
/// work (nothing enumerated), and one whose assertion runs only in a thread started from an
/// ops table still gets it (the shortcut must not fire there).
#[test]
fn no_flow_sensitive_work_when_no_assertion_may_run() {
    let enumerated = |file: &str, status: &str| {
        let path = format!("tests/corpus/16-edges/{file}");
        let o = watts(&[
            "analyze",
            &path,
            "--mode",
            "constraints",
            "--format",
            "json",
        ]);
        let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
        assert_eq!(doc["assertions"][0]["status"], status, "{file}: {doc}");
        doc["stats"]["enumerated"]
            .as_u64()
            .expect("stats.enumerated")
    };
    assert_eq!(enumerated("mp-11-no-assertion-runs.c", "unreachable"), 0);
    assert!(enumerated("mp-12-assertion-runs-through-a-table.c", "may-fail") > 0);
}

// Values (issue 18, 4): shown in the signedness the C source declares.

/// A driver entry with values of unsigned and signed C types: each assertion may fail, and
/// its note shows the values in the variable's C type.
const VALUES: &str = r#"#include <assert.h>
#include <stddef.h>

unsigned int count;

int my_ioctl(unsigned int cmd, unsigned long arg) {
  unsigned char b = (unsigned char)arg;
  assert(b != 200);
  size_t n = arg + 1;
  assert(n <= 100);
  char c = (char)cmd;
  assert(c != 5);
  int k = (int)arg + 1;
  assert(k < 100);
  unsigned int u = cmd % 3 - 1;
  count = u;
  unsigned int left = 0;
  left--;
  assert(left == 0);
  return (int)u;
}
"#;

#[test]
fn values_are_shown_in_the_signedness_of_their_c_type() {
    let o = analyze("values.c", VALUES, &["--entry", "my_ioctl"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    for note in [
        // An `unsigned char`: [0, 255], not [-128, 127].
        "note: in thread my_ioctl: b ∈ [0, 255]",
        // A `size_t`: the unsigned 64-bit range.
        "note: in thread my_ioctl: n ∈ [0, 18446744073709551615]",
        // An `unsigned int` counter that wrapped below zero.
        "note: in thread my_ioctl: left = 4294967295",
        // Signed types stay signed (`char` is signed on x86-64).
        "note: in thread my_ioctl: c ∈ [-128, 127]",
        "note: in thread my_ioctl: k ∈ [100, 2147483647]",
    ] {
        assert!(out.contains(note), "missing `{note}`:\n{out}");
    }
    let o = analyze(
        "values.c",
        VALUES,
        &["--entry", "my_ioctl", "--format", "json"],
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let values = |condition: &str| {
        let a = doc["assertions"].as_array().expect("assertions");
        let a = a.iter().find(|a| a["condition"] == condition);
        a.map(|a| a["values"].clone())
            .unwrap_or_else(|| panic!("no `{condition}` in {doc}"))
    };
    assert_eq!(values("b != 200")["b"], "[0, 255]");
    assert_eq!(values("n <= 100")["n"], "[0, 18446744073709551615]");
    assert_eq!(values("left == 0")["left"], "4294967295");
    assert_eq!(values("c != 5")["c"], "[-128, 127]");
    assert_eq!(values("k < 100")["k"], "[100, 2147483647]");
    // `-funsigned-char` makes `char` unsigned, and its values with it.
    let o = analyze(
        "values.c",
        VALUES,
        &["--entry", "my_ioctl", "--", "-funsigned-char"],
    );
    assert!(
        stdout(&o).contains("note: in thread my_ioctl: c ∈ [0, 255]"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn invariants_are_shown_in_the_signedness_of_their_c_type() {
    let (dir, path) = file("values.c", VALUES.as_bytes());
    let path = path.to_str().expect("utf-8 temp path");
    let o = watts_in(dir.path(), &["invariants", "--entry", "my_ioctl", path]);
    assert_status(&o, 0);
    let out = stdout(&o);
    let line = |n: u32| {
        let at = format!("values.c:{n} ");
        out.lines()
            .find(|l| l.contains(&at))
            .unwrap_or_else(|| panic!("no line {n}:\n{out}"))
    };
    // `cmd % 3 - 1` is -1, 0 or 1 as the analysis holds it: 0, 1 or 4294967295 in C, never a
    // range that leaves out 4294967295 or takes in the values between.
    let l18 = line(18);
    for part in [
        "u ∈ [0, 1] or 4294967295",
        "cmd ∈ [0, 4294967295]",
        "arg ∈ [0, 18446744073709551615]",
        "b ∈ [0, 255]",
        "c ∈ [-128, 127]",
        "k ∈ [-2147483648, 99]",
    ] {
        assert!(l18.contains(part), "missing `{part}`: {l18}");
    }
    // The unsigned global (a memory cell) before the store of line 16 wrote it.
    assert!(line(16).contains("count = 0"), "{out}");
    let o = watts_in(
        dir.path(),
        &[
            "invariants",
            "--entry",
            "my_ioctl",
            "--format",
            "json",
            "--thread",
            "my_ioctl",
            path,
        ],
    );
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let lines = doc["threads"][0]["lines"].as_array().expect("lines");
    let l19 = lines.iter().find(|l| l["line"] == 19).expect("line 19");
    assert_eq!(l19["values"]["u"], "[0, 1] or 4294967295", "{l19}");
    assert_eq!(l19["values"]["left"], "4294967295", "{l19}");
    assert_eq!(l19["values"]["k"], "[-2147483648, 99]", "{l19}");
}

/// A temporary directory holding `files`.
fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write test input");
    }
    dir
}

/// C that gcc accepts and clang rejects or only warns about does not stop a GCC-built project:
/// a global named like a C library function (`int free;`) is compiled with
/// `-fno-builtin-free`, an undeclared function is taken as C89 did; each with a note that
/// names what was done and where, and the assertions are analysed as gcc builds them.
#[test]
fn gcc_accepted_c_is_analysed_with_a_note() {
    let dir = project(&[
        (
            "g1.c",
            "#include <assert.h>\nint free;\nint index = 3;\n\
             int main(void) { free = 2; assert(free == 2); assert(index == 3); return 0; }\n",
        ),
        (
            "g2.c",
            "#include <assert.h>\nint main(void) { int r = helper(3); assert(r == 4); return 0; }\n\
             int helper(int x) { return x + 1; }\n",
        ),
    ]);
    let o = watts_in(dir.path(), &["analyze", "g1.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("`free`, `index` are defined as a variable")
            && out.contains("compiled with -fno-builtin-free -fno-builtin-index")
            && out.contains("2 assertions: 2 proved"),
        "{out}"
    );
    let o = watts_in(dir.path(), &["analyze", "g2.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("a call of an undeclared function, taken as returning `int`")
            && out.contains("in 1 place; first at g2.c:2:26: call to undeclared function 'helper'"),
        "{out}"
    );
    // GCC 11's `malloc(deallocator)` (here from a header, through a macro, on the line of a
    // failing assertion's call): dropped with a note, every place where it was.
    let dir = project(&[
        (
            "alloc.h",
            "#include <stdlib.h>\nvoid pool_free(void *p);\n\
             #define DEALLOC(f, i) __attribute__ ((__malloc__ (f, i)))\n\
             __attribute__((malloc, malloc(pool_free, 1))) void *pool_new(int n);\n",
        ),
        (
            "g3.c",
            "#include <assert.h>\n#include \"alloc.h\"\n\
             int *cell(void) DEALLOC(pool_free, 1);\n\
             void pool_free(void *p) { free(p); }\nvoid *pool_new(int n) { return malloc(n); }\n\
             int *cell(void) { return pool_new(4); }\n\
             int main(void) { int *c = cell(); int v = c ? 1 : 2; assert(v == 1); pool_free(c); return 0; }\n",
        ),
    ]);
    let o = watts_in(dir.path(), &["analyze", "g3.c"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    assert!(
        out.contains(
            "g3.c: GCC's `malloc(deallocator)` attribute, which clang does not take, \
             was dropped at 2 places (first at ./alloc.h:4:24)"
        ),
        "{out}"
    );
    let o = watts_in(dir.path(), &["analyze", "--format", "gnu", "g3.c"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("g3.c:7:54: warning: assertion `v == 1` may fail"),
        "{out}"
    );
    // A real redefinition is still clang's error, exit 2.
    let bad = "int f(void) { return 0; }\nint f;\nint main(void) { return f; }\n";
    let dir = project(&[("bad.c", bad)]);
    let o = watts_in(dir.path(), &["analyze", "bad.c"]);
    assert_status(&o, 2);
    assert!(stderr(&o).contains("redefinition of 'f'"), "{}", stderr(&o));
}

/// Unknown code never writes a `const` global (writing an object defined `const` is
/// undefined; it lives in read-only memory), so a `const` table of pointers handed to it keeps
/// pointing where the program pointed it. The same table without `const` may be redirected by
/// the unknown `reg` (as `b.c` below does in a real build, where the assertion fails).
#[test]
fn unknown_code_rewrites_a_pointer_unless_it_is_const() {
    // The index comes from an unknown function, so clang cannot fold the load of the table.
    let a = |qualifier: &str| {
        format!(
            "#include <assert.h>\n\
             extern void reg(int **slot, int *spare);\n\
             extern int pick(void);\n\
             static int x, y;\n\
             static int *{qualifier} tbl[2] = {{ &x, &x }};\n\
             int main(void) {{ reg((int **)tbl, &y); int i = pick() & 1; y = 0; *tbl[i] = 5;\n\
             assert(y == 0); return 0; }}\n"
        )
    };
    let b = "void reg(int **slot, int *spare) { *slot = spare; }\nint pick(void) { return 0; }\n";
    let dir = project(&[("c.c", &a("const")), ("m.c", &a("")), ("b.c", b)]);
    let o = watts_in(dir.path(), &["analyze", "c.c"]);
    assert_status(&o, 0);
    let o = watts_in(dir.path(), &["analyze", "m.c"]);
    assert_status(&o, 1);
    // With b.c the non-const program really fails, and the analysis sees it.
    let o = watts_in(dir.path(), &["analyze", "m.c", "b.c"]);
    assert_status(&o, 1);
}
