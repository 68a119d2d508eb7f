//! A developer's workflow (issue 7): suppressions (point 4), baselines (point 5), pre-commit
//! (point 6) and `watts invariants` (point 7), each run end to end through the binary.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Two assertions that really fail (a stale value, a racy counter) and one that holds.
const RACY: &str = r#"#include <assert.h>
#include <pthread.h>
int count, ready;
void *worker(void *arg) { count = count + 1; ready = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  assert(count <= 1);
  assert(ready == 1);
  assert(ready <= 1);
  return 0;
}
"#;

/// `RACY` fixed: the workers update under a mutex and `main` joins them before it looks, and
/// only the assertion that holds is left.
const FIXED: &str = r#"#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count, ready;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  count = count + 1;
  ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(ready <= 1);
  return 0;
}
"#;

fn finding<'a>(doc: &'a serde_json::Value, cond: &str) -> &'a serde_json::Value {
    doc["assertions"]
        .as_array()
        .expect("assertions")
        .iter()
        .find(|a| a["condition"] == cond)
        .unwrap_or_else(|| panic!("no `{cond}` in {doc}"))
}

// Suppressions.

#[test]
fn suppression_hides_a_finding_but_never_proves_it() {
    let text = RACY
        .replace(
            "  assert(count <= 1);",
            "  // watts-ignore(assert-may-fail): reviewed, see issue 12\n  assert(count <= 1);",
        )
        .replace(
            "assert(ready == 1);",
            "assert(ready == 1); /* watts-ignore(assert-may-fail) */",
        )
        // The races on `count` and `ready`: one comment on a line of one of their accesses.
        .replace(
            "ready = 1; return 0; }",
            "ready = 1; return 0; } // watts-ignore(data-race)",
        );
    let dir = project(&[("racy.c", &text)]);
    let o = watts_in(dir.path(), &["analyze", "racy.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(!out.contains("assertion may fail"), "{out}");
    assert!(!out.contains("data race on"), "{out}");
    assert!(
        out.contains(
            "3 assertions: 1 proved, 2 may fail (2 suppressed); 2 data races (2 suppressed or in \
             the baseline)"
        ),
        "{out}"
    );
    // JSON keeps both findings as may-fail, flagged.
    let (doc, code) = json_in(dir.path(), &["racy.c"]);
    assert_eq!(code, 0);
    for cond in ["count <= 1", "ready == 1"] {
        assert_eq!(finding(&doc, cond)["status"], "may-fail");
        assert_eq!(finding(&doc, cond)["suppressed"], true);
    }
    assert_eq!(finding(&doc, "ready <= 1")["suppressed"], false);
    assert_eq!(doc["summary"]["may_fail"], 2);
    assert_eq!(doc["summary"]["suppressed"], 2);
    // The races too: still listed, flagged.
    let races = doc["races"].as_array().expect("races");
    assert_eq!(races.len(), 2, "{doc}");
    assert!(races.iter().all(|r| r["suppressed"] == true), "{doc}");
    // --verbose shows them, marked.
    let o = watts_in(dir.path(), &["analyze", "-v", "racy.c"]);
    assert!(stdout(&o).contains("suppressed by a `watts-ignore` comment (not proved)"));
}

#[test]
fn suppression_names_the_code_and_the_line() {
    // Wrong code, and a comment two lines above: nothing is suppressed, both are unused.
    let text = RACY
        .replace(
            "  assert(count <= 1);",
            "  // watts-ignore(assert-violated)\n  assert(count <= 1);",
        )
        .replace(
            "  pthread_t a, b;",
            "  pthread_t a, b; // watts-ignore(assert-may-fail)",
        );
    let dir = project(&[("racy.c", &text)]);
    let o = watts_in(dir.path(), &["analyze", "--format", "gnu", "racy.c"]);
    assert_status(&o, 1);
    let out = stdout(&o);
    assert_eq!(out.matches("[unused-suppression]").count(), 2, "{out}");
    assert!(out.contains("racy.c:9:6: warning: `watts-ignore(assert-violated)` suppresses nothing [unused-suppression]"), "{out}");
    assert_eq!(out.matches("[assert-may-fail]").count(), 2, "{out}");
    let (doc, _) = json_in(dir.path(), &["racy.c"]);
    assert_eq!(doc["unused_suppressions"].as_array().map(Vec::len), Some(2));
}

// Baselines.

#[test]
fn baseline_excuses_old_findings_by_fingerprint_not_line() {
    let dir = project(&[("racy.c", RACY)]);
    for format in ["json", "sarif"] {
        let o = watts_in(dir.path(), &["analyze", "--format", format, "racy.c"]);
        assert_status(&o, 1);
        std::fs::write(dir.path().join(format!("base.{format}")), &o.stdout).expect("write");
    }
    // Lines move (a comment on top), nothing new: exit 0; both findings still listed in JSON.
    write(dir.path(), "racy.c", &format!("// moved\n\n{RACY}"));
    for base in ["base.json", "base.sarif"] {
        let o = watts_in(dir.path(), &["analyze", "--baseline", base, "racy.c"]);
        assert_status(&o, 0);
        assert!(stdout(&o).contains("(2 in the baseline)"), "{}", stdout(&o));
        let (doc, code) = json_in(dir.path(), &["--baseline", base, "racy.c"]);
        assert_eq!(code, 0);
        assert_eq!(finding(&doc, "count <= 1")["in_baseline"], true);
        assert_eq!(finding(&doc, "count <= 1")["status"], "may-fail");
    }
    // A new finding fails the build, and only it is shown.
    let newer = RACY.replace(
        "  return 0;\n}\n",
        "  assert(count == 2);\n  return 0;\n}\n",
    );
    write(dir.path(), "racy.c", &newer);
    let o = watts_in(
        dir.path(),
        &[
            "analyze",
            "--format",
            "gnu",
            "--baseline",
            "base.sarif",
            "racy.c",
        ],
    );
    assert_status(&o, 1);
    let out = stdout(&o);
    assert_eq!(out.matches("[assert-may-fail]").count(), 1, "{out}");
    assert!(out.contains("`count == 2`"), "{out}");
    let (doc, _) = {
        let o = watts_in(
            dir.path(),
            &[
                "analyze",
                "--format",
                "sarif",
                "--baseline",
                "base.json",
                "racy.c",
            ],
        );
        (
            serde_json::from_str::<serde_json::Value>(&stdout(&o)).expect("sarif"),
            (),
        )
    };
    let states: Vec<&str> = doc["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["baselineState"].as_str())
        .collect();
    // Two assertions and the two races (`count`, `ready`: the same memory and functions).
    assert_eq!(
        states.iter().filter(|s| **s == "unchanged").count(),
        4,
        "{states:?}"
    );
    assert_eq!(
        states.iter().filter(|s| **s == "new").count(),
        1,
        "{states:?}"
    );
}

#[test]
fn bad_baselines_are_input_errors() {
    let dir = project(&[
        ("racy.c", RACY),
        ("junk.json", "{\"x\": 1}"),
        ("text.json", "nope"),
    ]);
    for (base, needle) in [
        ("junk.json", "expected the JSON"),
        ("text.json", "not JSON"),
        ("none.json", "no such file"),
    ] {
        let o = watts_in(dir.path(), &["analyze", "--baseline", base, "racy.c"]);
        assert_status(&o, 2);
        assert!(stderr(&o).contains(needle), "{base}: {}", stderr(&o));
    }
}

// Invariants.

#[test]
fn invariants_per_thread_and_line() {
    let dir = project(&[(
        "inv.c",
        r#"#include <pthread.h>
int shared;
void *bump(void *arg) {
  int i;
  for (i = 0; i < 10; i++)
    shared = i;
  return 0;
}
int main(void) {
  pthread_t t;
  int k = 3;
  pthread_create(&t, 0, bump, 0);
  k = k + shared;
  return k;
}
"#,
    )]);
    let o = watts_in(dir.path(), &["invariants", "inv.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("thread main (entry main):"), "{out}");
    assert!(out.contains("thread bump (entry bump):"), "{out}");
    // Inside the loop, i is in [0, 9] and the store writes it to `shared`.
    assert!(
        out.lines()
            .any(|l| l.contains("inv.c:6") && l.contains("i ∈ [0, 9]")),
        "{out}"
    );
    // In main, `shared` may be anything bump stores (or its initial 0).
    assert!(
        out.lines()
            .any(|l| l.contains("inv.c:13") && l.contains("shared ∈ [0, 9]")),
        "{out}"
    );
    let o = watts_in(
        dir.path(),
        &[
            "invariants",
            "--format",
            "json",
            "--thread",
            "bump",
            "inv.c",
        ],
    );
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let threads = doc["threads"].as_array().expect("threads");
    assert_eq!(threads.len(), 1, "{doc}");
    let line6 = threads[0]["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .find(|l| l["line"] == 6)
        .expect("line 6");
    assert_eq!(line6["values"]["i"], "[0, 9]");
    assert_eq!(line6["functions"][0], "bump");
    // Bad input: same errors as analyze.
    assert_status(&watts_in(dir.path(), &["invariants", "nope.c"]), 2);
}

/// Issue 18, point 5: a global that two threads bound under a mutex. `analyze` proves both
/// assertions with lock protection; `watts invariants` must show the values those proofs use
/// on their lines, not every value any thread ever stores (it once showed `m` as any `int`).
#[test]
fn invariants_show_a_protected_global_as_the_proof_uses_it() {
    let dir = project(&[(
        "bounded.c",
        r#"#include <assert.h>
#include <pthread.h>
int m = 0;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  if (m < 1)
    m++;
  assert(m <= 1);
  pthread_mutex_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_mutex_lock(&lock);
  assert(m <= 1);
  pthread_mutex_unlock(&lock);
  return 0;
}
"#,
    )]);
    let (doc, code) = json_in(dir.path(), &["bounded.c"]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["summary"]["proved"], 2, "{doc}");
    let o = watts_in(dir.path(), &["invariants", "bounded.c"]);
    assert_status(&o, 0);
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "invariants of the optimized mode, interval domain, with lock protection\n"
        ),
        "{out}"
    );
    // Under the lock a worker reads 0 or 1, and is past `m++` with 1 at its assertion; main
    // takes the lock before or after the workers.
    let shows = |thread: &str, line: u32| -> String {
        let block = (out.split("\n\n"))
            .find(|b| b.starts_with(&format!("thread {thread} ")))
            .unwrap_or_else(|| panic!("no thread {thread}:\n{out}"));
        let at = format!("bounded.c:{line} ");
        let l = (block.lines().find(|l| l.contains(&at)))
            .unwrap_or_else(|| panic!("no line {line} in thread {thread}:\n{out}"));
        l.split_once(&at).expect("the line").1.trim().to_string()
    };
    for worker in ["worker", "worker#2"] {
        assert_eq!(shows(worker, 8), "m ∈ [0, 1]", "{out}");
        assert_eq!(shows(worker, 10), "m = 1", "{out}");
    }
    assert_eq!(shows("main", 19), "m ∈ [0, 1]", "{out}");
    let o = watts_in(dir.path(), &["invariants", "--format", "json", "bounded.c"]);
    assert_status(&o, 0);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(doc["config"]["lock_protection"], true, "{doc}");
    let main = &doc["threads"][0];
    assert_eq!(main["name"], "main", "{doc}");
    let line19 = (main["lines"].as_array().expect("lines").iter())
        .find(|l| l["line"] == 19)
        .expect("line 19");
    assert_eq!(line19["values"]["m"], "[0, 1]", "{line19}");
}

// pre-commit.

/// The `pre-commit` executable: `$WATTS_PRE_COMMIT`, else on PATH, else in ~/.local/bin.
fn pre_commit() -> PathBuf {
    if let Some(p) = std::env::var_os("WATTS_PRE_COMMIT") {
        return PathBuf::from(p);
    }
    let on_path = Command::new("pre-commit").arg("--version").output();
    if on_path.is_ok_and(|o| o.status.success()) {
        return PathBuf::from("pre-commit");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_default();
    let local = home.join(".local/bin/pre-commit");
    assert!(
        local.exists(),
        "pre-commit is not installed: run .ci/setup (it installs pre-commit from PyPI)"
    );
    local
}

/// Runs `program args` in `dir` with a clean git identity and `watts` on PATH.
fn run_in(dir: &Path, program: &Path, args: &[&str], home: &Path) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_watts"))
        .parent()
        .expect("bin dir");
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("PATH");
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home.join("cache"))
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env_remove("WATTS_CLANG")
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", program.display()))
}

#[track_caller]
fn ok(o: std::process::Output) -> String {
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    stdout(&o)
}

/// The real pre-commit tool runs the hook of `.pre-commit-hooks.yaml` on a throwaway repo:
/// a commit with an assertion that may fail is rejected, the fixed commit goes through.
#[test]
fn pre_commit_hook_rejects_a_failing_commit_and_accepts_a_passing_one() {
    let pc = pre_commit();
    let git = Path::new("git");
    let home = tempfile::tempdir().expect("temp home");
    std::fs::write(
        home.path().join("gitconfig"),
        "[init]\n\tdefaultBranch = main\n",
    )
    .expect("gitconfig");
    // A repository that publishes the hooks file, as watts' own repository does.
    let hooks = home.path().join("hooks");
    std::fs::create_dir_all(&hooks).expect("hooks dir");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .expect("copy .pre-commit-hooks.yaml");
    ok(run_in(&hooks, git, &["init", "-q"], home.path()));
    ok(run_in(&hooks, git, &["add", "."], home.path()));
    ok(run_in(
        &hooks,
        git,
        &["commit", "-qm", "hooks"],
        home.path(),
    ));
    let rev = ok(run_in(&hooks, git, &["rev-parse", "HEAD"], home.path()));
    // The user's project.
    let repo = home.path().join("project");
    std::fs::create_dir_all(&repo).expect("project dir");
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {}\n    hooks:\n      - id: watts\n",
            hooks.display(),
            rev.trim()
        ),
    )
    .expect("config");
    ok(run_in(&repo, git, &["init", "-q"], home.path()));
    ok(run_in(&repo, &pc, &["install"], home.path()));
    std::fs::write(repo.join("racy.c"), RACY).expect("racy.c");
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "racy"], home.path());
    assert!(
        !o.status.success(),
        "the commit must be rejected:\n{}",
        stdout(&o)
    );
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        out.contains("racy.c:9:3: warning: assertion `count <= 1` may fail"),
        "{out}"
    );
    // Fixed: only assertions that hold, and no race.
    std::fs::write(repo.join("racy.c"), FIXED).expect("racy.c");
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "fixed"], home.path());
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let log = ok(run_in(&repo, git, &["log", "--oneline"], home.path()));
    assert_eq!(log.lines().count(), 1, "{log}");
}

/// A throwaway git repository `project` in `home` whose `.pre-commit-config.yaml` uses the
/// hooks of this checkout with `hooks_yaml` (the `hooks:` list).
fn hook_repo(home: &Path, hooks_yaml: &str) -> PathBuf {
    let git = Path::new("git");
    std::fs::write(home.join("gitconfig"), "[init]\n\tdefaultBranch = main\n").expect("gitconfig");
    let hooks = home.join("hooks");
    std::fs::create_dir_all(&hooks).expect("hooks dir");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .expect("copy .pre-commit-hooks.yaml");
    ok(run_in(&hooks, git, &["init", "-q"], home));
    ok(run_in(&hooks, git, &["add", "."], home));
    ok(run_in(&hooks, git, &["commit", "-qm", "hooks"], home));
    let rev = ok(run_in(&hooks, git, &["rev-parse", "HEAD"], home));
    let repo = home.join("project");
    std::fs::create_dir_all(&repo).expect("project dir");
    std::fs::write(
        repo.join(".pre-commit-config.yaml"),
        format!(
            "repos:\n  - repo: {}\n    rev: {}\n    hooks:\n{hooks_yaml}",
            hooks.display(),
            rev.trim()
        ),
    )
    .expect("config");
    ok(run_in(&repo, git, &["init", "-q"], home));
    ok(run_in(&repo, &pre_commit(), &["install"], home));
    repo
}

/// The hook with include paths after `--` (issue 18, 3): pre-commit appends the staged files
/// after the args, and watts takes them as inputs, not as clang arguments.
#[test]
fn pre_commit_hook_with_include_paths_after_double_dash() {
    let home = tempfile::tempdir().expect("temp home");
    let repo = hook_repo(
        home.path(),
        "      - id: watts\n        args: [--, -I, include, -DLIMIT=1]\n",
    );
    let git = Path::new("git");
    let text = FIXED
        .replace(
            "#include <assert.h>",
            "#include <assert.h>\n#include \"limits.h\"",
        )
        .replace("assert(ready <= 1)", "assert(ready <= MAX)");
    write(&repo, "include/limits.h", "#define MAX LIMIT\n");
    write(&repo, "racy.c", &text);
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "ok"], home.path());
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    // The include path and the macro still count: below `MAX`, the commit is rejected. (The
    // per-file hook runs when a C file is staged, not for a header alone: `watts-project`
    // is the hook that reruns on headers.)
    write(
        &repo,
        "racy.c",
        &text.replace("ready <= MAX", "ready <= MAX - 1"),
    );
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "racy"], home.path());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains("assertion `ready <= MAX - 1` may fail"),
        "{out}"
    );
}

/// A driver split over files: the per-file hook run on a staged file without the init says
/// what to do (the project hook) instead of failing with a bare error; the `watts-project`
/// hook analyses the whole driver from watts.toml whatever file is staged.
#[test]
fn multi_file_driver_in_pre_commit() {
    let driver = r#"#include <assert.h>
#include <pthread.h>
extern int users;
extern pthread_mutex_t lock;
void dev_release(void) {
  pthread_mutex_lock(&lock);
  users = 1;
  assert(users == 1);
  pthread_mutex_unlock(&lock);
}
"#;
    let init = "#include <pthread.h>\nint users;\npthread_mutex_t lock;\nvoid dev_init(void) { users = 0; pthread_mutex_init(&lock, 0); }\n";
    // The per-file hook, with the init of a file that is not staged.
    let home = tempfile::tempdir().expect("temp home");
    let repo = hook_repo(
        home.path(),
        "      - id: watts\n        args: [--init, dev_init, --entry, dev_release]\n",
    );
    let git = Path::new("git");
    write(&repo, "init.c", init);
    write(&repo, "release.c", driver);
    ok(run_in(&repo, git, &["add", "init.c"], home.path()));
    ok(run_in(
        &repo,
        git,
        &["commit", "-qm", "init", "--no-verify"],
        home.path(),
    ));
    ok(run_in(&repo, git, &["add", "release.c"], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "release"], home.path());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("use the `watts-project` hook"), "{out}");
    // The project hook: watts.toml names the files and the harness.
    let home = tempfile::tempdir().expect("temp home");
    let repo = hook_repo(home.path(), "      - id: watts-project\n");
    write(&repo, "init.c", init);
    write(&repo, "release.c", driver);
    write(
        &repo,
        "watts.toml",
        "files = [\"*.c\"]\ninit = \"dev_init\"\nentries = [\"dev_release\"]\n",
    );
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "driver"], home.path());
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
}

/// Issue 33, 3: a pull request that stages `@x.c` (a program), `x.c` (clang flags that make it
/// run `tools/as` as the assembler) and `tools/as` (executable): the hook's watts gets
/// `@x.c` as a staged file, and clang must not read `x.c` as its arguments. The commit is
/// refused with a message naming the file, and the script never runs.
#[test]
fn pre_commit_hook_with_a_file_named_like_a_response_file() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().expect("temp home");
    let repo = hook_repo(home.path(), "      - id: watts\n");
    let git = Path::new("git");
    write(&repo, "@x.c", FIXED);
    write(
        &repo,
        "x.c",
        "-x assembler -fno-integrated-as -Btools/ y.s\n",
    );
    write(&repo, "y.s", "nop\n");
    let script = write(
        &repo,
        "tools/as",
        "#!/bin/sh\ntouch \"$(dirname \"$0\")/../MARKER\"\nexit 1\n",
    );
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // The payload is real: clang given `@x.c` runs the script.
    let _ = Command::new("clang-19")
        .args(["-c", "@x.c", "-o", "/dev/null"])
        .current_dir(&repo)
        .output()
        .expect("run clang-19");
    assert!(repo.join("MARKER").exists(), "the payload does not run");
    std::fs::remove_file(repo.join("MARKER")).expect("remove marker");
    ok(run_in(&repo, git, &["add", "."], home.path()));
    let o = run_in(&repo, git, &["commit", "-qm", "evil"], home.path());
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(!repo.join("MARKER").exists(), "the payload ran:\n{out}");
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("@x.c"), "{out}");
}

/// A race's JSON has every access, however many, through `access_ids` into the document's
/// `race_accesses` (each access once), and every pair through `pair_groups` (issue 36): 70
/// writes in `worker` each race with main's one write; `accesses` lists the first 48 in full,
/// `pairs` the first 64 pairs, for the human notes.
#[test]
fn json_race_lists_every_access_and_pair() {
    let writes: String = (1..=70).map(|i| format!("    g = {i};\n")).collect();
    let src = format!(
        "#include <pthread.h>\nint g;\nvoid *worker(void *a) {{\n{writes}    return a;\n}}\n\
         int main(void) {{\n    pthread_t t;\n    pthread_create(&t, 0, worker, 0);\n    g = 0;\n\
         \x20   pthread_join(t, 0);\n    return 0;\n}}\n"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    common::write(dir.path(), "many.c", &src);
    let (doc, code) = common::json_in(dir.path(), &["--check", "race", "many.c"]);
    assert_eq!(code, 1, "a race makes the status 1");
    let races = doc["races"].as_array().expect("races");
    assert_eq!(races.len(), 1, "{doc}");
    let r = &races[0];
    // `accesses` lists the first 48 in full and counts the rest; `access_ids` has all 71, as
    // indices into the document's `race_accesses`, the first of them those `accesses` lists.
    let listed = r["accesses"].as_array().expect("accesses");
    assert_eq!(listed.len(), 48);
    assert_eq!(r["more_accesses"], 23);
    let table = doc["race_accesses"].as_array().expect("race_accesses");
    let ids = r["access_ids"].as_array().expect("access_ids");
    assert_eq!(ids.len(), 71);
    let accesses: Vec<&serde_json::Value> = (ids.iter())
        .map(|i| &table[i.as_u64().expect("index") as usize])
        .collect();
    assert!(listed.iter().zip(&accesses).all(|(a, b)| a == *b));
    let distinct: std::collections::BTreeSet<String> =
        accesses.iter().map(|a| a.to_string()).collect();
    assert_eq!(distinct.len(), 71, "each access once");
    // `pairs`, the first 64 for the human notes, index `access_ids` too.
    let first_pairs = r["pairs"].as_array().expect("pairs");
    assert_eq!(first_pairs.len(), 64);
    assert!(first_pairs
        .iter()
        .flat_map(|p| p.as_array().expect("pair"))
        .all(|i| i.as_u64().expect("index") < 71));
    let mut pairs = std::collections::BTreeSet::new();
    for g in r["pair_groups"].as_array().expect("pair_groups") {
        for x in g["first"].as_array().expect("first") {
            for y in g["second"].as_array().expect("second") {
                let (x, y) = (x.as_u64().expect("index"), y.as_u64().expect("index"));
                pairs.insert((x.min(y), x.max(y)));
            }
        }
    }
    assert_eq!(pairs.len(), 70);
    let line = |i: u64| accesses[i as usize]["line"].as_u64().expect("line");
    // The products are joined where they share a side: one group here.
    assert_eq!(r["pair_groups"].as_array().expect("pair_groups").len(), 1);
    // Each pair is main's write (line 79) with one of the worker's.
    assert!(pairs
        .iter()
        .all(|&(x, y)| (line(x) == 79) != (line(y) == 79)));
}
