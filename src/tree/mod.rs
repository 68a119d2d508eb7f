//! A whole source tree (`watts analyze -p BUILD --per-program`): the programs of a compilation
//! database ([`partition`]), each analysed on its own by a run of watts in a child process
//! ([`runner`]) that calls the library pipeline (`crate::run`) as `watts analyze` on that
//! program alone would, its result kept in a cache ([`cache`]) keyed by what its preprocessing
//! read ([`deps`]) and the options that change it, a share of them with `--shard` ([`shard`]);
//! the results are put together by `report::merge`.
//!
//! Invariant: a program's result is the one its own run gives, whether it comes from a run or
//! from the cache (the cache stores that run's bundle); a unit that does not compile, a run that
//! fails or is stopped is that program's finding or note, never the tree's failure.

pub mod cache;
pub mod deps;
pub mod partition;
pub mod runner;
pub mod shard;

use crate::config::Config;
use crate::report::merge::{self, ProgramOutcome, ProgramResult, TreeReport};
use cache::{Cache, Inputs};
use partition::UnitFacts;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The argument that makes `watts analyze` print one program's bundle (its JSON document, its
/// SARIF run, its exit status and what its preprocessing read) for the tree.
pub const CHILD_FLAG: &str = "--tree-child";

/// Which units without a `[[program]]` table are programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Units with `main` or entry points (`--per-program`).
    Drivers,
    /// Every unit; those without are libraries (`--per-program=all`).
    All,
}

/// How to analyse the tree.
pub struct TreeOptions {
    /// Which units are programs.
    pub selection: Selection,
    /// The cache directory (`None`: `--no-cache`).
    pub cache: Option<PathBuf>,
    /// `--shard I/N`.
    pub shard: Option<shard::Shard>,
    /// Programs run at once.
    pub jobs: usize,
    /// Files given (pre-commit's staged files): only programs with one of them are analysed;
    /// the others come from the cache or are left out.
    pub staged: Vec<PathBuf>,
    /// The compilation database (absolute).
    pub database: PathBuf,
    /// watts.toml's `[[program]]` tables and its directory.
    pub tables: Vec<crate::project::manifest::ProgramTable>,
    /// The directory of watts.toml (or the current one).
    pub tables_dir: PathBuf,
    /// This watts binary, run for each program.
    pub exe: PathBuf,
    /// Show a progress bar on stderr.
    pub progress: bool,
    /// `--quiet`.
    pub quiet: bool,
}

/// A size in bytes a program weighs besides its sources when shards are balanced: the cost of
/// one run (a process, clang's start, the harness), as much as this much C.
const RUN_WEIGHT: u64 = 8 << 10;

use crate::limits::STOP_GRACE;

/// Analyses the tree of `config` (whose inputs are the database's units and whose options are
/// the analysis options of every program).
pub fn run(opts: &TreeOptions, config: &Config) -> Result<(TreeReport, Counts), String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let cache = match &opts.cache {
        Some(dir) => Some(Cache::open(dir)?),
        None => None,
    };
    let clang = crate::frontend::clang_program(config).map_err(|e| e.to_string())?;
    let clang_version = std::process::Command::new(&clang)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let common = common_args(config, opts);
    let identity = |kind: &str, name: &str, files: &[PathBuf], options: &[String]| {
        let flags: Vec<Value> = (files.iter())
            .map(|f| {
                json!([
                    f.to_string_lossy(),
                    config.units.get(f).map(|u| u.args.clone())
                ])
            })
            .collect();
        cache::sha256(
            json!({"kind": kind, "name": name, "units": flags, "options": options,
                   "common": common, "clang_args": config.clang_args,
                   "database": opts.database.to_string_lossy(), "clang": clang_version,
                   "watts": env!("CARGO_PKG_VERSION")})
            .to_string()
            .as_bytes(),
        )
    };
    let units: Vec<PathBuf> = config.inputs.clone();
    let (mut programs, rest) = partition::tables(&opts.tables, &units, &opts.tables_dir, &cwd)?;

    // The facts of every unit outside the tables, from the cache or a `--suggest-harness` run.
    let mut facts: Vec<Option<UnitFacts>> = vec![None; rest.len()];
    let mut jobs = Vec::new();
    let mut waiting = Vec::new();
    for (i, unit) in rest.iter().enumerate() {
        let id = identity("unit", "", std::slice::from_ref(unit), &[]);
        let cached = (cache.as_ref())
            .and_then(|c| c.get(&id))
            .and_then(|v| UnitFacts::of_suggestion(&v));
        match cached {
            Some(f) => facts[i] = Some(f),
            None => {
                let mut args = vec!["analyze".to_string(), "--suggest-harness".to_string()];
                args.extend(child_prefix(opts));
                args.push("--".to_string());
                args.push(unit.to_string_lossy().into_owned());
                args.extend(config.clang_args.iter().cloned());
                jobs.push(runner::ChildRun {
                    what: format!("reading {}", unit.display()),
                    args,
                    limit: config.timeout.map(|t| t + STOP_GRACE),
                });
                waiting.push((i, id));
            }
        }
    }
    let ended = runner::run_all(&opts.exe, jobs, opts.jobs, opts.progress);
    for ((i, id), ended) in waiting.into_iter().zip(ended) {
        facts[i] = Some(match bundle_of(ended) {
            Ok(b) => match b.get("suggestion").and_then(UnitFacts::of_suggestion) {
                Some(f) => {
                    if let (Some(c), Some(inputs)) = (&cache, inputs_of(&b)) {
                        c.put(&id, &inputs, b["suggestion"].clone());
                    }
                    f
                }
                None => UnitFacts::Broken("its harness could not be read".to_string()),
            },
            Err(why) => UnitFacts::Broken(why),
        });
    }
    let mut libraries = 0;
    for (unit, f) in rest.iter().zip(&facts) {
        let f = f.clone().unwrap_or(UnitFacts::Library);
        match partition::of_unit(unit, &f, opts.selection == Selection::All) {
            Some(p) => programs.push(p),
            None => libraries += 1,
        }
    }
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    partition::unique_names(&mut programs);
    programs.sort_by(|a, b| a.name.cmp(&b.name));
    let mut tree = TreeReport {
        quiet: opts.quiet,
        ..TreeReport::default()
    };
    if libraries > 0 {
        tree.notes.push(format!(
            "{} of the compilation database define no `main` and no entry point the harness \
             discovery finds, and are in no [[program]] of watts.toml: not analysed \
             (--per-program=all analyses each as a library)",
            crate::report::plural(libraries, "unit")
        ));
    }
    if let Some(s) = opts.shard {
        let weights: Vec<u64> = (programs.iter())
            .map(|p| {
                (p.files.iter())
                    .map(|f| std::fs::metadata(f).map_or(0, |m| m.len()))
                    .sum::<u64>()
                    + RUN_WEIGHT
            })
            .collect();
        let mine = s.select(&weights);
        programs = (programs.into_iter().zip(mine))
            .filter(|(_, m)| *m)
            .map(|(p, _)| p)
            .collect();
    }

    // Each program: from the cache, else a run.
    let staged: Vec<PathBuf> = (opts.staged.iter())
        .map(|f| crate::project::compile_commands::absolute(&cwd, f))
        .collect();
    let header_staged = staged
        .iter()
        .any(|f| !matches!(f.extension().and_then(|e| e.to_str()), Some("c" | "i")));
    let mut jobs = Vec::new();
    let mut waiting = Vec::new();
    let mut skipped = 0;
    for p in &programs {
        let files: Vec<String> = p.files.iter().map(|f| f.display().to_string()).collect();
        if let Some(why) = &p.broken {
            tree.programs.push(ProgramResult {
                name: p.name.clone(),
                files,
                outcome: ProgramOutcome::NotAnalysed { why: why.clone() },
            });
            continue;
        }
        let id = identity("program", &p.name, &p.files, &p.options);
        let cached = (cache.as_ref())
            .and_then(|c| c.get(&id))
            .and_then(|b| merge::from_bundle(&p.name, files.clone(), &b));
        if let Some(r) = cached {
            tree.programs.push(r);
            continue;
        }
        let touched = staged.is_empty()
            || header_staged
            || (p.files.iter())
                .any(|f| staged.contains(&crate::project::compile_commands::absolute(&cwd, f)));
        if !touched {
            skipped += 1;
            continue;
        }
        let mut args = vec!["analyze".to_string()];
        args.extend(child_prefix(opts));
        args.extend(common.iter().cloned());
        args.extend(p.options.iter().cloned());
        args.push("--".to_string());
        args.extend(files.iter().cloned());
        args.extend(config.clang_args.iter().cloned());
        jobs.push(runner::ChildRun {
            what: format!("analysing {}", p.name),
            args,
            limit: config.timeout.map(|t| t + STOP_GRACE),
        });
        waiting.push((p, id, files));
    }
    if skipped > 0 {
        tree.notes.push(format!(
            "{} contain no staged file and have no cached result: not analysed",
            crate::report::plural(skipped, "program")
        ));
    }
    let ran = jobs.len();
    let ended = runner::run_all(&opts.exe, jobs, opts.jobs, opts.progress);
    for ((p, id, files), ended) in waiting.into_iter().zip(ended) {
        let result = bundle_of(ended).and_then(|b| {
            let r = merge::from_bundle(&p.name, files.clone(), &b)
                .ok_or_else(|| "its run gave no report".to_string())?;
            if let (Some(c), Some(inputs)) = (&cache, inputs_of(&b)) {
                let mut stored = b.clone();
                if let Some(o) = stored.as_object_mut() {
                    o.remove("inputs");
                }
                c.put(&id, &inputs, stored);
            }
            Ok(r)
        });
        tree.programs
            .push(result.unwrap_or_else(|why| ProgramResult {
                name: p.name.clone(),
                files,
                outcome: ProgramOutcome::NotAnalysed { why },
            }));
    }
    if let Some(c) = &cache {
        tree.notes.extend(c.notes());
    }
    tree.normalize();
    let counts = Counts {
        programs: tree.programs.len(),
        analysed: ran,
    };
    Ok((tree, counts))
}

/// How a tree's results were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Programs in the report.
    pub programs: usize,
    /// Of them, those analysed by a run now (the others came from the cache, or could not be
    /// compiled).
    pub analysed: usize,
}

/// The arguments every child run starts with: no project file (the tree resolved it), the
/// bundle, the database.
fn child_prefix(opts: &TreeOptions) -> Vec<String> {
    vec![
        "--no-config".to_string(),
        CHILD_FLAG.to_string(),
        "--color=never".to_string(),
        "--format=json".to_string(),
        format!("--compile-commands={}", opts.database.display()),
    ]
}

/// The analysis options of `config` as a program's run takes them: everything that changes a
/// result (and so is part of its cache key), and one worker per run (the runs are parallel).
fn common_args(config: &Config, opts: &TreeOptions) -> Vec<String> {
    let mut a = vec![
        format!("--mode={}", config.mode.name()),
        format!("--domain={}", config.domain.name()),
        format!("--max-combinations={}", config.max_combinations),
        // The memory budget is shared by the programs that run at once.
        format!(
            "--max-memory={}",
            (config.max_memory / opts.jobs.max(1) as u64).max(64 << 20)
        ),
        "--jobs=1".to_string(),
    ];
    let checks: Vec<&str> = [
        (config.checks.asserts, "assert"),
        (config.checks.races, "race"),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| *n)
    .collect();
    a.push(format!("--check={}", checks.join(",")));
    if let Some(t) = config.timeout {
        a.push(format!("--timeout={}", t.as_secs_f64()));
    }
    if let Some(c) = &config.clang {
        a.push(format!("--clang={}", c.display()));
    }
    a.extend(
        config
            .assume_no_write
            .iter()
            .map(|f| format!("--assume-no-write={f}")),
    );
    if config.callbacks_anywhere {
        a.push("--callbacks-anywhere".to_string());
    }
    if let Some(b) = &config.baseline {
        let cwd = std::env::current_dir().unwrap_or_default();
        a.push(format!(
            "--baseline={}",
            crate::project::compile_commands::absolute(&cwd, b).display()
        ));
    }
    if config.verbose {
        a.push("--verbose".to_string());
    }
    if let Some(c) = &config.confirm {
        a.push("--confirm".to_string());
        a.push(format!("--bound={}", c.bound));
        a.push(format!("--confirm-budget={}", c.timeout.as_secs_f64()));
        a.push(format!("--strategy={}", c.strategy.name()));
        a.push(format!("--seed={}", c.seed));
        a.push(format!("--pct-depth={}", c.pct_depth));
    }
    a
}

/// The bundle a child printed, or why there is none (`clang said ...` for a unit that does
/// not compile).
fn bundle_of(ended: runner::Ended) -> Result<Value, String> {
    match ended {
        runner::Ended::Exited(out) => {
            if let Ok(b) = serde_json::from_slice::<Value>(&out.stdout) {
                if b.is_object() && out.status.code().is_some_and(|c| c <= 1) {
                    return Ok(b);
                }
            }
            let text = String::from_utf8_lossy(&out.stderr).into_owned();
            let message = text.trim().strip_prefix("error: ").unwrap_or(text.trim());
            if let Some(rest) = message.strip_prefix("clang could not compile ") {
                let said = (rest.lines().skip(1))
                    .find(|l| l.contains("error:"))
                    .or_else(|| rest.lines().nth(1))
                    .unwrap_or(rest);
                return Err(format!("clang said: {}", said.trim()));
            }
            let first = message.lines().next().unwrap_or_default();
            Err(match out.status.code() {
                Some(c) => format!("{first} (status {c})"),
                None => format!("{first} (its run was killed: {})", out.status),
            })
        }
        runner::Ended::Stopped => {
            Err("its run did not finish within the --timeout and was stopped".to_string())
        }
        runner::Ended::Failed(why) => Err(why),
    }
}

/// The inputs a bundle says its run's preprocessing read.
fn inputs_of(bundle: &Value) -> Option<Inputs> {
    let paths = |k: &str| -> Option<Vec<PathBuf>> {
        (bundle.pointer(&format!("/inputs/{k}"))?.as_array()?.iter())
            .map(|v| v.as_str().map(PathBuf::from))
            .collect()
    };
    Some(Inputs {
        files: paths("files")?,
        dirs: paths("dirs")?,
    })
}

/// The `inputs` of a bundle: what `config`'s preprocessing reads (none when it cannot be
/// found, so that the result is not cached).
pub fn inputs_value(config: &Config) -> Value {
    match deps::scan(config) {
        Ok(i) => json!({
            "files": i.files.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
            "dirs": i.dirs.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
        }),
        Err(_) => Value::Null,
    }
}

/// The default cache directory: `.watts-cache` beside the database.
pub fn default_cache(database: &Path) -> PathBuf {
    database
        .parent()
        .unwrap_or(Path::new("."))
        .join(".watts-cache")
}
