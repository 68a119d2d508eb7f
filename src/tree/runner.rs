//! Runs the programs of a tree side by side: each program's run is a child process (this
//! watts, `analyze --tree-child`), so that its budgets (`--max-memory` split between the
//! running programs, the per-program `--timeout`), its process-wide state and a crash stay its
//! own; `--jobs` of them at once, with one progress bar over the tree.
//!
//! Invariant: the results come back in the order of the jobs, whatever order they finish in;
//! a child that fails, crashes or is stopped is that job's outcome, never the tree's.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// One child run: its arguments and its own time limit.
pub struct ChildRun {
    /// What it does, in messages (`analysing wdt`).
    pub what: String,
    /// The arguments after the program.
    pub args: Vec<String>,
    /// Stopped (and reported so) past this.
    pub limit: Option<Duration>,
}

/// How one child ended.
pub enum Ended {
    /// It exited (any status), with its output.
    Exited(Output),
    /// It was stopped at its own limit.
    Stopped,
    /// It could not run, or ran out of a budget (the message).
    Failed(String),
}

/// Runs `jobs` with `workers` at a time (at least 1), showing a bar on stderr when `progress`.
pub fn run_all(exe: &Path, jobs: Vec<ChildRun>, workers: usize, progress: bool) -> Vec<Ended> {
    let bar = if progress && !jobs.is_empty() {
        let bar = indicatif::ProgressBar::new(jobs.len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed:>4} [{bar:30}] {pos}/{len} programs {msg}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Some(bar)
    } else {
        None
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Ended>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..workers.max(1).min(jobs.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                if let Some(b) = &bar {
                    b.set_message(job.what.clone());
                }
                let ended = run_one(exe, job);
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(ended);
                }
                if let Some(b) = &bar {
                    b.inc(1);
                }
            });
        }
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    (results.into_inner().unwrap_or_default().into_iter())
        .map(|r| r.unwrap_or_else(|| Ended::Failed("the job did not run".to_string())))
        .collect()
}

fn run_one(exe: &Path, job: &ChildRun) -> Ended {
    let mut cmd = Command::new(exe);
    cmd.args(&job.args);
    let spec = crate::budget::Job {
        program: "watts",
        what: &job.what,
        stdin: None,
        own_limit: job.limit,
    };
    match crate::budget::run(&mut cmd, spec) {
        Ok(Ok((_, true))) => Ended::Stopped,
        Ok(Ok((out, false))) => Ended::Exited(out),
        Ok(Err(e)) => Ended::Failed(format!("cannot run {}: {e}", exe.display())),
        Err(e) => Ended::Failed(e.to_string()),
    }
}
