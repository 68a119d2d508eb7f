//! Helpers shared by the workflow tests: run the `watts` binary in a directory of test files;
//! `params`: the `//PARAM:` lines of the annotated corpus.

#![allow(dead_code)]

pub mod params;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `watts ARGS` in `dir`, with no project file from the environment.
pub fn watts_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watts"))
        .args(args)
        .current_dir(dir)
        .env_remove("WATTS_CLANG")
        .env_remove("NO_COLOR")
        .output()
        .expect("run the watts binary")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit status, showing both streams when it differs.
#[track_caller]
pub fn assert_status(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A temporary directory with `files` (path relative to it, contents).
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        write(dir.path(), name, text);
    }
    dir
}

/// Writes `text` to `dir/name`, creating directories.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create directories");
    }
    std::fs::write(&path, text).expect("write a test file");
    path
}

/// The JSON output of `watts analyze --format json ARGS` in `dir`, and the exit status.
pub fn json_in(dir: &Path, args: &[&str]) -> (serde_json::Value, i32) {
    let mut all = vec!["analyze", "--format", "json"];
    all.extend_from_slice(args);
    let o = watts_in(dir, &all);
    let doc = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\nstderr:\n{}", stdout(&o), stderr(&o)));
    (doc, o.status.code().unwrap_or(-1))
}

/// `status` of each assertion of a JSON report, by condition.
pub fn statuses(doc: &serde_json::Value) -> Vec<(String, String)> {
    doc["assertions"]
        .as_array()
        .expect("assertions")
        .iter()
        .map(|a| {
            (
                a["condition"].as_str().unwrap_or_default().to_string(),
                a["status"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// Every `.c` file below `dir`, in path order.
pub fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

/// Whether this run must check everything: `WATTS_REQUIRE_TOOLS` is set (`.ci/run` sets it), or
/// `CI` is (as CI services set it). Then a missing tool or data set fails the test.
pub fn tools_required() -> bool {
    let set = |name: &str| {
        std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0" && v != "false")
    };
    set("WATTS_REQUIRE_TOOLS") || set("CI")
}

/// A test that needs a tool or data set which is missing: on a developer's machine it says so
/// and checks nothing; where tools are required ([`tools_required`], as `.ci/run` runs) it
/// fails, so that a run that checked nothing is never green there (`.ci/setup` installs every
/// tool; the SV-COMP subset and the real programs are read from `../shared` beside the
/// checkout).
#[track_caller]
pub fn missing(what: &str) {
    if tools_required() {
        panic!(
            "{what} is missing, and this run requires it (WATTS_REQUIRE_TOOLS or CI is set, as \
             .ci/run sets it): .ci/setup installs the tools; the SV-COMP subset is read from \
             $WATTS_SVCOMP or ../shared/svcomp, the real programs from ../shared/realprograms"
        );
    }
    println!("skipped: {what} is missing: nothing checked");
}
