//! ThreadSanitizer as an oracle for the race check (issue 35): every program of the race corpus
//! (`tests/corpus/20-races`) is built with `gcc -fsanitize=thread` and run a few times; every
//! pair of accesses ThreadSanitizer reports as a data race must be a pair of some race that
//! `watts analyze --check race` reports. ThreadSanitizer sees only the executions it runs, so
//! this checks that no race it finds is missed (the `NO-RACE` marks of the corpus check the
//! other side).
//!
//! A pair is the two source lines, in the program's file, of the innermost frames of the two
//! stacks of a report (a race inside a library call, `free` or `memcpy`, is named by the line
//! of the program that called it). Without gcc's ThreadSanitizer the test fails under
//! `WATTS_REQUIRE_TOOLS` (as `.ci/run` sets it) and says it checked nothing otherwise.

mod common;

use common::{json_in, missing};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How many times each program runs (ThreadSanitizer sees the interleavings it runs).
const RUNS: usize = 3;
/// How long one run may take: programs whose threads loop forever are stopped, and what
/// ThreadSanitizer printed until then counts.
const RUN_LIMIT: Duration = Duration::from_secs(5);

/// Whether gcc builds and runs a ThreadSanitizer program here.
fn tsan_works(dir: &Path) -> bool {
    let src = dir.join("probe.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").expect("write probe");
    let bin = dir.join("probe");
    let built = Command::new("gcc")
        .args(["-fsanitize=thread", "-o"])
        .arg(&bin)
        .arg(&src)
        .output();
    matches!(built, Ok(o) if o.status.success())
        && Command::new(&bin)
            .output()
            .is_ok_and(|o| o.status.success())
}

/// Runs `bin` once, stopped after `RUN_LIMIT`, and returns what it wrote to standard error.
fn run_once(bin: &Path) -> String {
    let mut child = Command::new(bin)
        .env(
            "TSAN_OPTIONS",
            "halt_on_error=0 exitcode=0 report_signal_unsafe=0 history_size=7",
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the ThreadSanitizer build");
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    reader.join().expect("reader")
}

/// The pairs of lines (of `file_name`) of every data race in ThreadSanitizer's output.
fn tsan_pairs(output: &str, file_name: &str) -> BTreeSet<(u64, u64)> {
    let mut pairs = BTreeSet::new();
    for report in output.split("WARNING: ThreadSanitizer: data race").skip(1) {
        let mut lines: Vec<u64> = Vec::new();
        let mut in_stack = false;
        let mut found = false;
        for l in report.lines() {
            let t = l.trim();
            if t.contains(" of size ") && t.ends_with(':') {
                if lines.len() == 2 {
                    break;
                }
                in_stack = true;
                found = false;
                continue;
            }
            if !t.starts_with('#') {
                in_stack = false;
                continue;
            }
            if !in_stack || found {
                continue;
            }
            // `#1 main /path/file.c:35 (bin+0x1234)`
            let Some(at) = (t.split_whitespace()).find(|w| w.contains(&format!("{file_name}:")))
            else {
                continue;
            };
            let line = at.rsplit(':').next().and_then(|n| n.parse::<u64>().ok());
            if let Some(n) = line {
                lines.push(n);
                found = true;
            }
        }
        if let [a, b] = lines[..] {
            pairs.insert((a.min(b), a.max(b)));
        }
    }
    pairs
}

/// The pairs of lines of every pair of accesses of every race watts reports on `path`.
fn watts_pairs(path: &Path) -> BTreeSet<(u64, u64)> {
    let dir = path.parent().expect("dir");
    let (doc, _) = json_in(
        dir,
        &["--check", "race", path.to_str().expect("utf-8 path")],
    );
    let mut out = BTreeSet::new();
    let table = doc["race_accesses"].as_array().cloned().unwrap_or_default();
    for r in doc["races"].as_array().into_iter().flatten() {
        // Every access, from `access_ids` into the document's table (`accesses` lists the
        // first ones in full).
        let ids = r["access_ids"].as_array().cloned().unwrap_or_default();
        let line = |i: &serde_json::Value| -> Option<u64> {
            let i = usize::try_from(i.as_u64()?).ok()?;
            let id = usize::try_from(ids.get(i)?.as_u64()?).ok()?;
            table.get(id)?["line"].as_u64()
        };
        // Every pair, from the products of `pair_groups` (`pairs` lists only the first ones).
        for g in r["pair_groups"].as_array().into_iter().flatten() {
            let side = |k: &str| g[k].as_array().cloned().unwrap_or_default();
            for x in &side("first") {
                for y in &side("second") {
                    if let (Some(a), Some(b)) = (line(x), line(y)) {
                        out.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_race_thread_sanitizer_reports_on_the_race_corpus_is_reported() {
    let work = tempfile::tempdir().expect("temp dir");
    if !tsan_works(work.path()) {
        missing("gcc with ThreadSanitizer (-fsanitize=thread)");
        return;
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/20-races");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .expect("race corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    paths.sort();
    let (mut seen, mut missed) = (0, Vec::new());
    for path in &paths {
        let name = path.file_name().and_then(|n| n.to_str()).expect("name");
        let bin = work.path().join(name.trim_end_matches(".c"));
        let built = Command::new("gcc")
            .args(["-g", "-O0", "-fsanitize=thread", "-pthread", "-o"])
            .arg(&bin)
            .arg(path)
            // libatomic, for the generic atomics of `_Atomic` structs (ra-66).
            .arg("-latomic")
            .output()
            .expect("run gcc");
        assert!(
            built.status.success(),
            "{name}: gcc -fsanitize=thread failed:\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let mut tsan = BTreeSet::new();
        for _ in 0..RUNS {
            tsan.extend(tsan_pairs(&run_once(&bin), name));
        }
        if tsan.is_empty() {
            continue;
        }
        let ours = watts_pairs(path);
        println!("{name}: ThreadSanitizer's pairs of lines {tsan:?}");
        for pair in &tsan {
            seen += 1;
            if !ours.contains(pair) {
                missed.push(format!(
                    "{name}: ThreadSanitizer reports a race between lines {} and {}, watts \
                     reports no race with that pair",
                    pair.0, pair.1
                ));
            }
        }
    }
    println!("ThreadSanitizer: {seen} racing pairs on the race corpus");
    assert!(
        seen > 0,
        "ThreadSanitizer reported no race on the whole race corpus"
    );
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}
