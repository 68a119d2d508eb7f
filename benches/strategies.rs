//! How fast each sampler of `watts confirm` finds a witness: on every SV-COMP task of
//! `../shared/svcomp/INDEX.tsv` (or `$WATTS_SVCOMP`) whose expected verdict is false, the
//! `speed`, `pct` and `random` schedulers run with 5 seeds each, up to
//! `$WATTS_BENCH_RUNS` runs (default 2000) or `$WATTS_BENCH_SECS` seconds (default 10) per
//! seed; the table gives the runs and seconds to the first witness (median of the 5 seeds,
//! counting a seed that found none as infinite) and how many seeds found one. Every witness is
//! replayed before it counts. Run with `cargo bench --bench strategies`; under `cargo test` it
//! runs one task briefly.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use watts::explore::sample::{self, Scheduler};
use watts::explore::search::SearchResult;
use watts::explore::{Interp, InterpOptions};

const SEEDS: u64 = 5;

struct Task {
    input: PathBuf,
    ilp32: bool,
}

fn tasks(dir: &Path) -> Vec<Task> {
    let Ok(index) = std::fs::read_to_string(dir.join("INDEX.tsv")) else {
        return Vec::new();
    };
    index
        .lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let [_, input, model, verdict, folder, ..] = cols[..] else {
                return None;
            };
            (verdict == "false").then(|| Task {
                input: dir.join(folder).join(input),
                ilp32: model == "ILP32",
            })
        })
        .collect()
}

/// The first witness of one seed: (runs, seconds), or `None`.
fn first_witness(
    interp: &Interp,
    program: &watts::ir::Program,
    scheduler: &mut dyn Scheduler,
    seed: u64,
    max_runs: u64,
    max_time: Duration,
) -> Option<(u64, f64)> {
    let t0 = Instant::now();
    let deadline = t0 + max_time;
    let mut out = SearchResult::default();
    for run in 0..max_runs {
        if Instant::now() >= deadline {
            return None;
        }
        scheduler.reset(run, sample::run_seed(seed, scheduler.name(), run));
        if let Some(id) = sample::run(interp, scheduler, Some(deadline), &mut out) {
            // `sample::run` leaves the bound to its caller, here the walks' bound.
            let v = watts::explore::search::Violation {
                bound: watts::explore::strategy::WALK_BOUND,
                ..out.violations[&id].clone()
            };
            let replayed = watts::explore::replay(program, &v);
            assert!(
                matches!(replayed, Ok(watts::explore::Replayed::Fails { .. })),
                "{} seed {seed} run {run}: the witness does not replay: {replayed:?}",
                scheduler.name()
            );
            return Some((run + 1, t0.elapsed().as_secs_f64()));
        }
    }
    None
}

/// The median of `xs` (5 values; `None` is infinite).
fn median(mut xs: Vec<Option<f64>>) -> Option<f64> {
    xs.sort_by(|a, b| match (a, b) {
        (Some(a), Some(b)) => a.total_cmp(b),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    xs[xs.len() / 2]
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let dir = std::env::var_os("WATTS_SVCOMP")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/svcomp"));
    let mut tasks = tasks(&dir);
    if tasks.is_empty() {
        println!("skipped: no SV-COMP subset at {}", dir.display());
        return;
    }
    let (max_runs, secs, seeds) = if bench {
        (
            env_or("WATTS_BENCH_RUNS", 2000u64),
            env_or("WATTS_BENCH_SECS", 10.0f64),
            SEEDS,
        )
    } else {
        tasks.truncate(1);
        (20, 1.0, 1)
    };
    let max_time = Duration::from_secs_f64(secs);
    println!(
        "{} expected-false tasks; up to {max_runs} runs or {secs} s per seed, {seeds} seeds; \
         runs and seconds to the first witness: median over the seeds (— when most found none), \
         and how many seeds found one\n",
        tasks.len()
    );
    println!("| task | speed runs | speed s | speed found | pct runs | pct s | pct found | random runs | random s | random found |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut totals = [(0u64, 0u64); 3];
    for task in &tasks {
        let name = task
            .input
            .strip_prefix(&dir)
            .unwrap_or(&task.input)
            .display()
            .to_string();
        let mut config = watts::Config::new(vec![task.input.clone()]);
        if task.ilp32 {
            config.clang_args = vec!["-m32".to_string()];
        }
        let Ok(program) = watts::load_program(&config) else {
            println!("| {name} | does not compile |||||||||");
            continue;
        };
        let Ok(interp) = Interp::new(
            &program,
            InterpOptions {
                bound: watts::explore::strategy::WALK_BOUND,
                ..InterpOptions::default()
            },
        ) else {
            println!("| {name} | cannot be executed |||||||||");
            continue;
        };
        let mut row = format!("| {name} |");
        let make = |i: usize| -> Box<dyn Scheduler> {
            match i {
                0 => Box::new(sample::Speed::new()),
                1 => Box::new(sample::Pct::new(3)),
                _ => Box::new(sample::Random::new()),
            }
        };
        for (i, total) in totals.iter_mut().enumerate() {
            let results: Vec<Option<(u64, f64)>> = (0..seeds)
                .map(|seed| {
                    // A fresh scheduler per seed: nothing learnt from another seed's runs.
                    let mut scheduler = make(i);
                    first_witness(
                        &interp,
                        &program,
                        scheduler.as_mut(),
                        seed,
                        max_runs,
                        max_time,
                    )
                })
                .collect();
            let found = results.iter().filter(|r| r.is_some()).count() as u64;
            total.0 += found;
            total.1 += u64::from(found * 2 > seeds);
            let runs = median(results.iter().map(|r| r.map(|(n, _)| n as f64)).collect());
            let time = median(results.iter().map(|r| r.map(|(_, s)| s)).collect());
            let show = |x: Option<f64>, digits: usize| {
                x.map_or("—".to_string(), |x| format!("{x:.digits$}"))
            };
            row.push_str(&format!(
                " {} | {} | {found}/{seeds} |",
                show(runs, 0),
                show(time, 3)
            ));
        }
        println!("{row}");
    }
    println!(
        "\nseeds that found a witness (tasks where most seeds did): speed {} ({}), pct {} ({}), random {} ({})",
        totals[0].0, totals[0].1, totals[1].0, totals[1].1, totals[2].0, totals[2].1
    );
}
