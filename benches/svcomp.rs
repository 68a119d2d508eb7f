//! The SV-COMP concurrency subset as a benchmark: runs `watts analyze --svcomp` with the default
//! settings on every task of `$WATTS_SVCOMP` (else `../shared/svcomp` beside the checkout),
//! with `-m32` for ILP32 tasks, and prints each task's answer and time, then the SV-COMP score
//! (+2 for a correct `true`, -32 for a wrong one; +1 for a correct `false`, -16 for a wrong
//! one; `unknown` scores 0) and the true tasks not
//! proved. Run with `cargo bench --bench svcomp`; under `cargo test` it does nothing (the
//! soundness check of the same tasks is `tests/svcomp.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let dir = std::env::var_os("WATTS_SVCOMP")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp"));
    let Ok(index) = std::fs::read_to_string(dir.join("INDEX.tsv")) else {
        println!("no SV-COMP subset at {} (set WATTS_SVCOMP)", dir.display());
        return;
    };
    let (mut score, mut proved, mut wrong, mut total) = (0i64, 0, 0, 0);
    let mut confirmed = 0;
    let mut missed = Vec::new();
    let mut times = Vec::new();
    println!(
        "{:<56} {:>8} {:>8} {:>9}",
        "task", "expected", "answer", "time (s)"
    );
    for line in index.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [_, input, model, expected, folder, ..] = cols[..] else {
            continue;
        };
        let task = format!("{folder}/{input}");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_watts"));
        cmd.args(["analyze", "--svcomp", "--quiet"])
            .arg(dir.join(&task));
        if model == "ILP32" {
            cmd.args(["--", "-m32"]);
        }
        let t0 = Instant::now();
        let out = cmd.output().expect("run watts");
        let secs = t0.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let answer = if stdout.contains("SV-COMP result: true") {
            "true"
        } else if stdout.contains("SV-COMP result: false") {
            "false"
        } else if out.status.code().is_some_and(|c| c <= 1) {
            "unknown"
        } else {
            "error"
        };
        total += 1;
        match (answer, expected) {
            ("true", "true") => {
                score += 2;
                proved += 1;
            }
            ("true", _) => {
                score -= 32;
                wrong += 1;
            }
            ("false", "false") => {
                score += 1;
                confirmed += 1;
            }
            ("false", _) => {
                score -= 16;
                wrong += 1;
            }
            (_, "true") => missed.push(task.clone()),
            _ => {}
        }
        println!("{task:<56} {expected:>8} {answer:>8} {secs:>9.2}");
        times.push((secs, task));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!();
    println!(
        "score {score}: {proved} true tasks proved, {confirmed} false tasks confirmed, {wrong} wrong, {total} tasks"
    );
    println!("slowest: {:?}", &times[..times.len().min(3)]);
    println!("true tasks not proved: {}", missed.join(", "));
}
