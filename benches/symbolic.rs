//! Symbolic inputs (MPC-style search of `watts confirm`) against input-blind baselines, on
//! programs whose failure needs specific input values together with an interleaving: the
//! programs of `tests/corpus/15-inputs` and the SV-COMP task `nondet-loop-bound-1` (from
//! `../shared/svcomp`, when present). For each, the runs (and distinct paths) and seconds to
//! the first witness of:
//! - the symbolic search (z3 as a process, 2 workers);
//! - uniformly random input values under seeded random schedules, with the same budget;
//! - the candidate input values of the exhaustive searches (their random walks).
//!
//! Prints a markdown table. Run with `cargo bench --bench symbolic`; under `cargo test` it runs
//! the smallest program only.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use watts::explore::search::{self, Budget, Strategy};
use watts::explore::symbolic::{self, solver::Z3, SymbolicConfig};
use watts::explore::{Interp, InterpOptions};

const RUNS: u64 = 2000;
const SECONDS: u64 = 60;

fn cell(found: Option<(u64, Duration)>, runs: u64, extra: &str) -> String {
    match found {
        Some((r, t)) => format!("run {r}{extra}, {:.2} s", t.as_secs_f64()),
        None => format!("not found in {runs} runs"),
    }
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join("tests/corpus/15-inputs");
    let mut programs: Vec<(String, PathBuf, Vec<String>)> = [
        "01-linear-input.c",
        "02-mpc-figure1.c",
        "03-mpc-m0.c",
        "04-loop-bound.c",
    ]
    .iter()
    .map(|f| (f.to_string(), corpus.join(f), Vec::new()))
    .collect();
    let task = root.join("../shared/svcomp/pthread-nondet/nondet-loop-bound-1.i");
    if task.is_file() {
        programs.push((
            "svcomp nondet-loop-bound-1".into(),
            task,
            vec!["-m32".into()],
        ));
    }
    if !bench {
        programs.truncate(1);
    }
    if let Err(e) = Z3::locate() {
        println!("skipped: {e}");
        return;
    }
    println!("| program | symbolic: first witness (paths) | symbolic: solver queries (sat/unsat) | random inputs | candidate inputs |");
    println!("|---|---|---|---|---|");
    for (name, path, clang) in programs {
        let mut config = watts::Config::new(vec![path.clone()]);
        config.clang_args = clang;
        let program = match watts::load_program(&config) {
            Ok(p) => p,
            Err(e) => {
                println!("| {name} | front end failed: {e} | | | |");
                continue;
            }
        };
        let interp = Interp::new(
            &program,
            InterpOptions {
                bound: 1024,
                ..InterpOptions::default()
            },
        )
        .expect("main");
        let deadline = || Some(Instant::now() + Duration::from_secs(SECONDS));
        let sym_config = SymbolicConfig {
            max_runs: RUNS,
            deadline: deadline(),
            ..SymbolicConfig::default()
        };
        let (_, s) = symbolic::explore(&interp, &sym_config, None);
        let sym = cell(s.first_witness, s.runs, &format!(" ({} paths)", s.paths));
        let queries = format!(
            "{} ({}/{}), {:.2} s in z3",
            s.queries,
            s.sat,
            s.unsat,
            s.solver_time.as_secs_f64()
        );
        let (_, r) = symbolic::random_search(&interp, RUNS, deadline(), 7, None);
        let random = cell(r.first_witness, r.runs, "");
        let start = Instant::now();
        let walks = Budget {
            random_walks: RUNS,
            executions: 0,
            deadline: deadline(),
            ..Budget::default()
        };
        let out = search::explore(&interp, Strategy::Reduced, walks, None);
        let candidates = if out.violations.is_empty() {
            format!("not found in {} runs", out.executions)
        } else {
            format!("found, {:.2} s", start.elapsed().as_secs_f64())
        };
        println!("| {name} | {sym} | {queries} | {random} | {candidates} |");
    }
}
