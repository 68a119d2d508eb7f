//! What each subcommand does, from parsed options to bytes on stdout and an exit status: the
//! binary's logic, kept out of `main.rs` so that it is testable and `main` stays a shell.
//!
//! Invariant: nothing here exits the process or panics on bad input; every error becomes
//! `error: ...` on stderr and status 2.
//!
//! The subcommands: `analyze` (with `--dump-ir`, `--suggest-harness` and `--svcomp`), `confirm`,
//! `replay`, `invariants` and `completions`.

use crate::cli::{Cli, Command};
use clap::CommandFactory;
use std::io::{self, Write};

/// Runs `cli` and returns the process exit status: 0 all proved, 1 some may fail, 2 usage or
/// input error.
pub fn run(cli: Cli) -> u8 {
    let mut out = io::stdout().lock();
    let (written, code) = match cli.command {
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "watts", &mut out);
            (Ok(()), 0)
        }
        Command::Invariants(args) => {
            let thread = args.thread.clone();
            let config = match args.to_config() {
                Ok(config) => config,
                Err(message) => return fail(&message),
            };
            let mut inv = match crate::invariants(&config) {
                Ok(inv) => inv,
                Err(err) => return fail(&err.to_string()),
            };
            if let Some(name) = thread {
                let names: Vec<String> = inv.threads.iter().map(|t| t.name.clone()).collect();
                inv.threads.retain(|t| t.name == name);
                if inv.threads.is_empty() {
                    return fail(&format!(
                        "--thread {name}: no such thread ({})",
                        names.join(", ")
                    ));
                }
            }
            (
                crate::report::render_invariants(&inv, config.format, &mut out),
                0,
            )
        }
        Command::Replay(args) => match crate::replay(&args.witness, args.clang().as_deref()) {
            Ok((code, message)) => (writeln!(out, "{message}"), code),
            Err(message) => return fail(&message),
        },
        Command::Confirm(mut args) => {
            args.confirm = true;
            match analyze(args, &mut out) {
                Ok(done) => done,
                Err(message) => return fail(&message),
            }
        }
        Command::Merge(args) => match merge(args, &mut out) {
            Ok(done) => done,
            Err(message) => return fail(&message),
        },
        Command::Analyze(args) if args.tree_child => match tree_child(args, &mut out) {
            Ok(done) => done,
            Err(message) => return fail(&message),
        },
        Command::Analyze(args) if args.per_program.is_some() => match tree(args, &mut out) {
            Ok(done) => done,
            Err(message) => return fail(&message),
        },
        Command::Analyze(args) => match analyze(args, &mut out) {
            Ok(done) => done,
            Err(message) => return fail(&message),
        },
    };
    match written.and_then(|()| out.flush()) {
        // The reader went away (`watts ... | head`): the verdict still stands.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            fail(&format!("cannot write the report: {e}"))
        }
        _ => code,
    }
}

/// `watts analyze` (and `confirm`): the report and its exit status, or the error message.
fn analyze(
    args: crate::cli::AnalyzeArgs,
    out: &mut dyn Write,
) -> Result<(io::Result<()>, u8), String> {
    let dump_ir = args.dump_ir;
    let svcomp = args.svcomp;
    let suggest = args.suggest_harness;
    let config = args.to_config()?;
    if suggest {
        // The program as the sources define it, before any harness replaces its `main`.
        let p = crate::frontend::load(&config).map_err(|e| e.to_string())?;
        let found = crate::harness::discover::Suggestion::of(&p);
        let inputs: Vec<String> = (config.inputs.iter())
            .map(|i| i.display().to_string())
            .collect();
        let written = crate::report::render_suggestion(&p, &found, &inputs, config.format, out);
        return Ok((written, 0));
    }
    if dump_ir {
        let p = crate::load_program(&config).map_err(|e| e.to_string())?;
        return Ok((write!(out, "{}", crate::frontend::dump(&p)), 0));
    }
    let report = crate::run(&config).map_err(|e| e.to_string())?;
    if let Some(dir) = &config.html {
        crate::report::html::write(&report, dir)
            .map_err(|e| format!("--html {}: {e}", dir.display()))?;
    }
    let mut written = report.render(config.format, out);
    if svcomp {
        let line = format!("SV-COMP result: {}", report.svcomp_result());
        // Machine formats stay parseable: the line goes to stderr then.
        if matches!(config.format, crate::Format::Json | crate::Format::Sarif) {
            let _ = writeln!(io::stderr(), "{line}");
        } else {
            written = written.and_then(|()| writeln!(out, "{line}"));
        }
    }
    Ok((written, report.exit_code()))
}

/// `watts merge`: the shards' reports as one report of the tree, and its exit status.
fn merge(args: crate::cli::MergeArgs, out: &mut dyn Write) -> Result<(io::Result<()>, u8), String> {
    let format = crate::Format::from(args.format);
    let mut tree = crate::report::merge::read(&args.files)?;
    tree.quiet = args.quiet;
    if format == crate::Format::Json && !tree.has_json() {
        return Err(
            "a JSON report needs the JSON documents of every program, which SARIF \
                    reports do not carry: write the shards with --format json"
                .to_string(),
        );
    }
    Ok((tree.render(format, out), tree.exit_code()))
}

/// `watts analyze --per-program`: every program of the compilation database on its own.
fn tree(
    mut args: crate::cli::AnalyzeArgs,
    out: &mut dyn Write,
) -> Result<(io::Result<()>, u8), String> {
    for (given, flag) in [
        (args.html.is_some(), "--html"),
        (args.witness_dir.is_some(), "--witness-dir"),
        (args.svcomp, "--svcomp"),
        (args.dump_ir, "--dump-ir"),
        (args.suggest_harness, "--suggest-harness"),
    ] {
        if given {
            return Err(format!("{flag} does not go with --per-program"));
        }
    }
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    // Files given (pre-commit's staged files) choose the programs to analyse again; the units
    // of the tree are those of the database.
    let (trailing, clang_args) =
        crate::cli::resolve::split_trailing_inputs(std::mem::take(&mut args.input.clang_args));
    args.input.clang_args = clang_args;
    let mut staged = std::mem::take(&mut args.input.files);
    staged.extend(trailing);
    let project = match (&args.input.config, args.input.no_config) {
        (_, true) => None,
        (Some(p), false) => {
            Some(crate::project::manifest::read(p, &cwd).map_err(|e| e.to_string())?)
        }
        (None, false) => match crate::project::manifest::find(&cwd) {
            Some(p) => Some(crate::project::manifest::read(&p, &cwd).map_err(|e| e.to_string())?),
            None => None,
        },
    };
    let database = match (
        &args.input.build_dir,
        &args.input.compile_commands,
        &project,
    ) {
        (Some(dir), _, _) => dir.join("compile_commands.json"),
        (None, Some(f), _) => f.clone(),
        (None, None, Some(p)) if p.manifest.compile_commands.is_some() => {
            let f = p.manifest.compile_commands.clone().unwrap_or_default();
            crate::project::compile_commands::absolute(&p.dir, std::path::Path::new(&f))
        }
        _ => {
            return Err("--per-program needs a compilation database (-p BUILD_DIR, \
                        --compile-commands FILE, or `compile-commands` in watts.toml)"
                .to_string())
        }
    };
    let database = crate::project::compile_commands::absolute(&cwd, &database);
    let selection = match args.per_program {
        Some(crate::cli::PerProgramArg::All) => crate::tree::Selection::All,
        _ => crate::tree::Selection::Drivers,
    };
    let cache = match (args.no_cache, &args.cache) {
        (true, _) => None,
        (false, Some(dir)) => Some(dir.clone()),
        (false, None) => Some(crate::tree::default_cache(&database)),
    };
    let shard = args.shard;
    let exe = std::env::current_exe().map_err(|e| format!("cannot find watts itself: {e}"))?;
    let format_given = args.format;
    let config = args.to_config()?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = crate::tree::TreeOptions {
        selection,
        cache,
        shard,
        jobs: if config.jobs == 0 { cores } else { config.jobs },
        staged,
        database,
        tables: project
            .as_ref()
            .map(|p| p.manifest.program.clone())
            .unwrap_or_default(),
        tables_dir: project.as_ref().map_or(cwd.clone(), |p| p.dir.clone()),
        exe,
        progress: config.progress,
        quiet: config.quiet,
    };
    let (tree, counts) = crate::tree::run(&opts, &config)?;
    if !config.quiet {
        let _ = writeln!(
            io::stderr(),
            "watts: {} of {} analysed, the others from the cache",
            counts.analysed,
            crate::report::plural(counts.programs, "program")
        );
    }
    let format = crate::Format::from(format_given);
    Ok((tree.render(format, out), tree.exit_code()))
}

/// One program's run inside `--per-program`: its bundle (report, SARIF run, exit status, and
/// what its preprocessing read), or with `--suggest-harness` its harness facts.
fn tree_child(
    args: crate::cli::AnalyzeArgs,
    out: &mut dyn Write,
) -> Result<(io::Result<()>, u8), String> {
    let suggest = args.suggest_harness;
    let config = args.to_config()?;
    let mut bundle = if suggest {
        let p = crate::frontend::load(&config).map_err(|e| e.to_string())?;
        let found = crate::harness::discover::Suggestion::of(&p);
        crate::report::merge::suggestion_bundle(&p, &found)
    } else {
        let report = crate::run(&config).map_err(|e| e.to_string())?;
        crate::report::merge::child_bundle(&report)
    };
    let code = crate::report::merge::bundle_exit(&bundle);
    bundle["inputs"] = crate::tree::inputs_value(&config);
    Ok((crate::report::merge::write_bundle(&bundle, out), code))
}

/// Prints `error: {message}` and returns the exit status of usage and input errors. The
/// message may quote a file (a path from a project file, clang's diagnostics of the source):
/// its control characters are escaped, so it cannot drive the terminal.
fn fail(message: &str) -> u8 {
    let message = crate::report::printable::escape_keeping_lines(message);
    let _ = writeln!(io::stderr(), "error: {message}");
    2
}
