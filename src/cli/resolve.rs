//! The typed command line resolved into a validated [`Config`]: the project (watts.toml, the
//! compilation database, through the gate), defaults, and the environment: `WATTS_CLANG`,
//! `WATTS_Z3`, `WATTS_TRACE`, `WATTS_SYM_DEBUG`, `WATTS_PROGRESS_AFTER_MS` and `--color auto`
//! (`NO_COLOR`, `TERM`).
//!
//! Invariant: a `Config` that comes out of here names only implemented modes, domains and
//! formats ([`super::args`] lists them); no module outside `cli` reads an environment variable
//! (`tests/layering.rs`), so a library user who builds a `Config` gets what watts does without
//! them.

use super::args::*;
use crate::config::{Config, ConfirmOptions, DomainKind, EntrySpec, Format, HarnessSpec, Mode};
use crate::error::InputError;
use crate::project::gate::Gate;
use crate::project::{compile_commands, manifest};
use clap::ValueEnum;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

impl AnalyzeArgs {
    /// Resolves the project, defaults, `WATTS_CLANG` and `--color auto`, and rejects what is
    /// not implemented yet. The error is the message for `error: ...` (exit status 2).
    pub fn to_config(self) -> Result<Config, String> {
        let format = Format::from(self.format);
        check("--format", format, IMPLEMENTED_FORMATS, format_name)?;
        let explicit_check = !self.input.check.is_empty();
        let mut config = self.input.to_config()?;
        let color = match self.color {
            ColorArg::Always => true,
            ColorArg::Never => false,
            // Reports go to stdout, so that is the stream whose terminal-ness counts.
            ColorArg::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
                std::io::stdout().is_terminal() && !no_color && !dumb
            }
        };
        config.format = format;
        config.verbose = self.verbose;
        config.quiet = self.quiet;
        config.color = color;
        config.baseline = self.baseline;
        // The HTML report shows the line invariants of the verdicts' own fixpoints.
        config.invariants = self.html.is_some();
        if let Some(dir) = &self.html {
            // A file there would fail only after the whole analysis.
            crate::confine::check_output_dir("--html", dir)?;
        }
        config.html = self.html;
        config.progress = !self.quiet && std::io::stderr().is_terminal();
        config.progress_after = progress_after();
        if self.svcomp {
            let property = match self.property.as_deref() {
                None => crate::config::Property::UnreachCall,
                Some(p) => crate::config::Property::parse(p)?,
            };
            // The property decides what is checked, unless --check said so.
            if !explicit_check {
                config.checks = property.checks();
            }
            config.property = Some(property);
        }
        if self.confirm || self.svcomp {
            let mut c = ConfirmOptions::default();
            if let Some(k) = self.bound {
                c.bound = k;
            }
            if let Some(t) = self.confirm_budget {
                c.timeout = t;
            }
            if let Some(s) = self.strategy {
                c.strategy = s.into();
            }
            if let Some(seed) = self.seed {
                c.seed = seed;
            }
            if let Some(d) = self.pct_depth {
                if d == 0 {
                    return Err("--pct-depth 0: expected a depth of at least 1".to_string());
                }
                c.pct_depth = d;
            }
            if let Some(dir) = &self.witness_dir {
                crate::confine::check_output_dir("--witness-dir", dir)?;
            }
            c.witness_dir = self.witness_dir;
            if let Some(z3) = std::env::var_os(Z3_ENV) {
                c.z3 = PathBuf::from(z3);
            }
            c.symbolic_debug = std::env::var_os(SYM_DEBUG_ENV).map(PathBuf::from);
            config.confirm = Some(c);
        } else if self.bound.is_some()
            || self.confirm_budget.is_some()
            || self.witness_dir.is_some()
            || self.strategy.is_some()
            || self.seed.is_some()
            || self.pct_depth.is_some()
        {
            return Err(
                "--bound, --confirm-budget, --strategy, --seed, --pct-depth and --witness-dir need --confirm (or `watts confirm`, or --svcomp)"
                    .to_string(),
            );
        }
        Ok(config)
    }
}

impl InvariantsArgs {
    /// Resolves the inputs and analysis options like `analyze` does.
    pub fn to_config(self) -> Result<Config, String> {
        let mut config = self.input.to_config()?;
        config.format = match self.format {
            InvariantFormatArg::Human => Format::Human,
            InvariantFormatArg::Json => Format::Json,
        };
        config.progress = std::io::stderr().is_terminal();
        Ok(config)
    }
}

/// After how long the progress indicator appears.
fn progress_after() -> std::time::Duration {
    let ms = std::env::var(PROGRESS_AFTER_ENV)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    std::time::Duration::from_millis(ms)
}

impl InputArgs {
    /// The inputs (command line, compilation database, watts.toml, in that order of
    /// precedence) and the analysis options, resolved.
    pub fn to_config(mut self) -> Result<Config, String> {
        let cwd = std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?;
        let (trailing, clang_args) = split_trailing_inputs(std::mem::take(&mut self.clang_args));
        self.files.extend(trailing);
        self.clang_args = clang_args;
        let project = match (&self.config, self.no_config) {
            (_, true) => None,
            (Some(p), false) => Some(manifest::read(p, &cwd).map_err(|e| e.to_string())?),
            (None, false) => match manifest::find(&cwd) {
                Some(p) => Some(manifest::read(&p, &cwd).map_err(|e| e.to_string())?),
                None => None,
            },
        };
        let m = project.as_ref().map(|p| &p.manifest);
        let db_path = match (&self.build_dir, &self.compile_commands, &project) {
            (Some(dir), _, _) => Some(dir.join("compile_commands.json")),
            (None, Some(f), _) => Some(f.clone()),
            (None, None, Some(p)) => (p.manifest.compile_commands.as_ref())
                .map(|f| compile_commands::absolute(&p.dir, Path::new(f))),
            (None, None, None) => None,
        };
        // Every clang argument read from a file passes the gate; a file it pastes into the
        // program must lie in the project: the repositories of the current directory, of
        // watts.toml and of the database.
        let db_dir = (db_path.as_deref())
            .map(|p| compile_commands::absolute(&cwd, p.parent().unwrap_or(Path::new("."))));
        let gate = Gate::new(
            std::iter::once(cwd.as_path())
                .chain(project.as_ref().map(|p| p.dir.as_path()))
                .chain(db_dir.as_deref()),
        );
        let database = match &db_path {
            Some(p) => compile_commands::read(p, &cwd, &gate).map_err(|e| e.to_string())?,
            None => compile_commands::Database::default(),
        };
        let units = database.units;
        let excluded = |file: &Path| {
            project
                .as_ref()
                .is_some_and(|p| p.excluded(&compile_commands::absolute(&cwd, file)))
        };
        let inputs: Vec<PathBuf> = if !self.files.is_empty() {
            self.files.clone()
        } else if db_path.is_some() {
            let c_files: Vec<PathBuf> = (units.iter())
                .map(|u| u.file.clone())
                .filter(|f| matches!(f.extension().and_then(|e| e.to_str()), Some("c" | "i")))
                .filter(|f| !excluded(f))
                .collect();
            if c_files.is_empty() {
                return Err(format!(
                    "the compilation database {} lists no C file to analyse",
                    db_path
                        .as_ref()
                        .map_or(String::new(), |p| p.display().to_string())
                ));
            }
            c_files
        } else if let Some(p) = project.as_ref().filter(|p| !p.manifest.files.is_empty()) {
            let files = p.files().map_err(|e| e.to_string())?;
            if files.is_empty() {
                return Err(format!("the `files` of {} match no file", p.path.display()));
            }
            (files.iter())
                .map(|f| compile_commands::display_path(f, &cwd))
                .collect()
        } else {
            return Err(
                "no input files: give FILE..., -p BUILD_DIR (a directory with \
                        compile_commands.json), or a watts.toml with `files`"
                    .to_string(),
            );
        };
        let mode = match (self.mode, m.and_then(|m| m.mode.as_deref())) {
            (Some(a), _) => Mode::from(a),
            (None, Some(s)) => Mode::from(parse_value::<ModeArg>("mode", s)?),
            (None, None) => DEFAULT_MODE,
        };
        let domain = match (self.domain, m.and_then(|m| m.domain.as_deref())) {
            (Some(a), _) => DomainKind::from(a),
            (None, Some(s)) => DomainKind::from(parse_value::<DomainArg>("domain", s)?),
            (None, None) => DomainKind::Interval,
        };
        let checks = if !self.check.is_empty() {
            self.check
        } else {
            (m.map(|m| m.check.as_slice()).unwrap_or_default().iter())
                .map(|s| parse_value::<CheckArg>("check", s))
                .collect::<Result<Vec<_>, _>>()?
        };
        let checks = if checks.is_empty() {
            crate::config::Checks::default()
        } else {
            crate::config::Checks {
                asserts: checks.contains(&CheckArg::Assert),
                races: checks.contains(&CheckArg::Race),
            }
        };
        check("--mode", mode, IMPLEMENTED_MODES, |m| m.name())?;
        check("--domain", domain, IMPLEMENTED_DOMAINS, |d| d.name())?;
        // Checked here too (the front end would say the same later) so that a typo costs no
        // clang run over the other inputs.
        if let Some(missing) = inputs.iter().find(|p| !p.exists()) {
            return Err(InputError::MissingFile(missing.clone()).to_string());
        }
        // A FIFO or a device would hang or flood clang and the reports that read it back.
        if let Some(odd) = inputs.iter().find(|p| !p.is_file()) {
            return Err(format!(
                "{} is not a regular file (watts reads sources from files only)",
                odd.display()
            ));
        }
        let clang = resolve_clang(self.clang);
        // The command line's list wins; else the file's, parsed as the option would be.
        let or_listed = |given: Vec<EntrySpec>,
                         listed: Option<&Vec<String>>,
                         key: &str,
                         parse: fn(&str) -> Result<EntrySpec, String>| {
            if !given.is_empty() {
                return Ok(given);
            }
            (listed.into_iter().flatten())
                .map(|e| parse(e).map_err(|why| format!("watts.toml: {key}: {why}")))
                .collect::<Result<Vec<_>, _>>()
        };
        let entries = or_listed(self.entries, m.map(|m| &m.entries), "entries", |e| {
            e.parse()
        })?;
        let init = self.init.or_else(|| m.and_then(|m| m.init.clone()));
        let tables = or_listed(
            self.entries_from,
            m.map(|m| &m.entries_from),
            "entries-from",
            crate::config::parse_table,
        )?;
        let exported = self.entries_exported || m.is_some_and(|m| m.entries_exported);
        let callbacks_anywhere = self.callbacks_anywhere || m.is_some_and(|m| m.callbacks_anywhere);
        let mut assume_no_write = m.map(|m| m.assume_no_write.clone()).unwrap_or_default();
        assume_no_write.extend(self.assume_no_write);
        let timeout = match (self.timeout, m.and_then(|m| m.timeout)) {
            (Some(t), _) => Some(t),
            (None, Some(t)) => Some(
                parse_seconds(&t.to_string())
                    .map_err(|why| format!("watts.toml: timeout = {t}: {why}"))?,
            ),
            (None, None) => None,
        };
        let mut config = Config::new(inputs);
        config.clang = clang;
        let mut units = units;
        if !units.is_empty() {
            // GCC-only flags of a GCC build's database: dropped with one note naming them.
            // The clang the front end will use (it checks the version; a probe only asks).
            let clang = (config.clang.clone()).unwrap_or_else(|| PathBuf::from("clang-19"));
            let dropped = compile_commands::drop_unknown_flags(&mut units, &clang)
                .or_else(|| compile_commands::drop_unknown_flags(&mut units, Path::new("clang")));
            if let Some(dropped) = dropped {
                if !dropped.is_empty() {
                    config.notes.push(format!(
                        "the compilation database has flags clang does not know (GCC-only \
                         code-generation flags, which do not change what the program means); \
                         they are ignored: {}",
                        dropped.join(" ")
                    ));
                }
            }
        }
        for u in units {
            config.units.insert(u.file, u.flags);
        }
        if !database.dropped.is_empty() {
            config.notes.push(format!(
                "the compilation database has flags that watts does not pass on to clang (only \
                 include paths, macros, the standard, the target and flags that change what C \
                 means are; the others could make clang run or write something, or do not \
                 change the program): {}",
                database.dropped.join(" ")
            ));
        }
        if let Some(p) = &project {
            let admitted = p.clang_args(&gate).map_err(|e| e.to_string())?;
            if !admitted.dropped.is_empty() || !admitted.strays.is_empty() {
                config.notes.push(format!(
                    "{}: clang arguments not passed on to clang (a project file may only give \
                     include paths, macros, the standard, the target and flags that change \
                     what C means; give others after `--` on the command line): {}",
                    p.path.display(),
                    (admitted.dropped.iter().chain(&admitted.strays))
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            config.clang_args = admitted.args;
        }
        config.clang_args.extend(self.clang_args);
        config.mode = mode;
        config.domain = domain;
        config.checks = checks;
        config.max_combinations = (self.max_combinations)
            .or(m.and_then(|m| m.max_combinations))
            .unwrap_or(crate::config::DEFAULT_MAX_COMBINATIONS);
        config.jobs = self.jobs.map_or(0, cap_jobs);
        config.timeout = timeout;
        if let Some(m) = self.max_memory {
            config.max_memory = m;
        }
        let harness = HarnessSpec {
            init,
            entries,
            tables,
            exported,
        };
        if harness.is_active() {
            config.harness = Some(harness);
        }
        config.assume_no_write = assume_no_write;
        config.callbacks_anywhere = callbacks_anywhere;
        config.trace = std::env::var_os(TRACE_ENV).is_some();
        Ok(config)
    }
}

/// `--jobs N` as the pool gets it: 0 stays 0 (one worker per core), and more workers than
/// cores are lowered to the number of cores, silently, as the help says. Each worker is an OS
/// thread with its own stack and its own share of the combinations, so past the cores they only
/// add scheduling and memory (`--jobs 100000` spent a minute starting threads on a 0.07 s run);
/// the result is the same for every N, so lowering it changes nothing but the time.
fn cap_jobs(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    jobs.min(cores)
}

/// clang flags whose value is the next argument: that argument is never an input file.
const CLANG_FLAGS_WITH_VALUE: [&str; 20] = [
    "-I",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-isysroot",
    "--sysroot",
    "-D",
    "-U",
    "-o",
    "-x",
    "-MF",
    "-MT",
    "-MQ",
    "-target",
    "-Xclang",
    "-mllvm",
    "-Xpreprocessor",
    "-Xassembler",
];

/// Splits the arguments after `--` into input files and clang arguments. pre-commit appends
/// the staged files after a hook's `args`, so `args: [--, -I, include]` puts them after `--`:
/// an argument there that names an existing file watts reads (`.c`, `.i`, `.ll`, `.bc`), and
/// is not the value of a flag (`-include x.c`), is an input, as if given before `--`. clang
/// could not use it anyway: watts compiles each input alone, so a second source file after
/// `-o` is an error.
pub fn split_trailing_inputs(args: Vec<String>) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut rest = Vec::new();
    let mut value_next = false;
    for a in args {
        // A staged file named `-fplugin=x.c` (pre-commit appends staged files after a hook's
        // `--`) is an input, not a flag for clang: existing files count whatever their name.
        let is_input = !value_next
            && matches!(
                Path::new(&a).extension().and_then(|e| e.to_str()),
                Some("c" | "i" | "ll" | "bc")
            )
            && Path::new(&a).is_file();
        value_next = CLANG_FLAGS_WITH_VALUE.contains(&a.as_str());
        if is_input {
            files.push(PathBuf::from(a));
        } else {
            rest.push(a);
        }
    }
    (files, rest)
}

/// A `ValueEnum` from its command-line name, for values read from watts.toml.
fn parse_value<T: ValueEnum>(key: &str, s: &str) -> Result<T, String> {
    T::from_str(s, false).map_err(|_| {
        let names: Vec<String> = (T::value_variants().iter())
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        format!(
            "watts.toml: {key} = \"{s}\": expected one of {}",
            names.join(", ")
        )
    })
}

/// `Err("--mode constraints is not implemented yet (available: flow-insensitive)")` when
/// `value` is not in `implemented`.
fn check<T: Copy + PartialEq>(
    flag: &str,
    value: T,
    implemented: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<(), String> {
    if implemented.contains(&value) {
        return Ok(());
    }
    let available: Vec<&str> = implemented.iter().map(|&v| name(v)).collect();
    Err(format!(
        "{flag} {} is not implemented yet (available: {})",
        name(value),
        available.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ConfirmStrategy, Instances};
    use clap::{CommandFactory, Parser};
    use std::time::Duration;

    /// Parses `watts analyze ARGS` (with an input that exists) into a config.
    fn config(args: &[&str]) -> Result<Config, String> {
        let input = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/corpus/00-readme/example.c"
        );
        let argv = ["watts", "analyze", "--no-config"]
            .iter()
            .chain(args)
            .chain([&input]);
        let Command::Analyze(a) = Cli::try_parse_from(argv)
            .map_err(|e| e.to_string())?
            .command
        else {
            return Err("not analyze".to_string());
        };
        a.to_config()
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults() {
        let c = config(&["--color", "never"]).expect("valid");
        assert_eq!(c.mode, DEFAULT_MODE);
        assert_eq!((c.domain, c.format), (DomainKind::Interval, Format::Human));
        assert!(!c.verbose && !c.color && c.clang_args.is_empty());
        assert!(c.harness.is_none() && c.timeout.is_none() && !c.quiet);
    }

    #[test]
    fn options() {
        let c = config(&[
            "-v",
            "--format",
            "gnu",
            "--clang",
            "/opt/clang",
            "--color",
            "always",
            "--entry",
            "dev_write:2",
            "--entry",
            "irq:*",
            "--init",
            "dev_init",
            "--timeout",
            "1.5",
        ])
        .expect("valid");
        assert!(c.verbose && c.color);
        assert_eq!(c.format, Format::Gnu);
        assert_eq!(c.clang, Some(PathBuf::from("/opt/clang")));
        let h = c.harness.expect("harness");
        assert_eq!(h.init.as_deref(), Some("dev_init"));
        assert_eq!(h.entries[0].instances, Instances::Exactly(2));
        assert_eq!(h.entries[1].instances, Instances::Any);
        assert_eq!(c.timeout, Some(Duration::from_millis(1500)));
        assert!(config(&["--timeout", "0"]).is_err());
        for bad in [
            "1e308",
            "-1",
            "NaN",
            "inf",
            "-inf",
            "18446744073709551615",
            "1s",
            "",
        ] {
            assert!(config(&["--timeout", bad]).is_err(), "--timeout {bad}");
            assert!(
                config(&["--confirm", "--confirm-budget", bad]).is_err(),
                "--confirm-budget {bad}"
            );
        }
        let year = MAX_SECONDS.to_string();
        let c = config(&["--timeout", &year]).expect("one year is accepted");
        assert_eq!(c.timeout, Some(Duration::from_secs(MAX_SECONDS)));
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(config(&["--jobs", "100000"]).expect("valid").jobs, cores);
        assert_eq!(config(&["--jobs", "1"]).expect("valid").jobs, 1);
        assert_eq!(config(&["--jobs", "0"]).expect("valid").jobs, 0);
        assert!(config(&["--entry", "w:0"]).is_err());
        assert!(config(&["-q", "-v"]).is_err());
    }

    #[test]
    fn confirm_options() {
        let c = config(&["--confirm"]).expect("valid");
        // The solver and the debugging directory come from the environment of the test run.
        let o = c.confirm.expect("confirm");
        let env = ConfirmOptions {
            z3: o.z3.clone(),
            symbolic_debug: o.symbolic_debug.clone(),
            ..ConfirmOptions::default()
        };
        assert_eq!(o, env);
        let c = config(&[
            "--confirm",
            "--strategy",
            "pct",
            "--seed",
            "42",
            "--pct-depth",
            "5",
            "--confirm-budget",
            "2.5",
        ])
        .expect("valid");
        let o = c.confirm.expect("confirm");
        assert_eq!(o.strategy, ConfirmStrategy::Pct);
        assert_eq!((o.seed, o.pct_depth), (42, 5));
        assert_eq!(o.timeout, Duration::from_millis(2500));
        // The older name of the budget.
        let c = config(&["--confirm", "--confirm-timeout", "3"]).expect("valid");
        assert_eq!(c.confirm.expect("confirm").timeout, Duration::from_secs(3));
        for s in ["auto", "exhaustive", "speed", "pct", "random", "symbolic"] {
            let c = config(&["--confirm", "--strategy", s]).expect("valid");
            assert_eq!(c.confirm.expect("confirm").strategy.name(), s);
        }
        assert!(config(&["--confirm", "--strategy", "smt"]).is_err());
        assert!(config(&["--confirm", "--pct-depth", "0"]).is_err());
        assert!(config(&["--strategy", "speed"]).is_err());
    }

    #[test]
    fn unimplemented_choices_are_rejected() {
        for mode in Mode::ALL {
            let r = config(&["--mode", mode.name()]);
            assert_eq!(
                r.is_ok(),
                IMPLEMENTED_MODES.contains(&mode),
                "{mode:?}: {r:?}"
            );
        }
        let r = check("--mode", Mode::Optimized, &[Mode::FlowInsensitive], |m| {
            m.name()
        });
        let want = "--mode optimized is not implemented yet (available: flow-insensitive)";
        assert_eq!(r, Err(want.to_string()));
    }

    #[test]
    fn missing_input_is_reported() {
        let argv = ["watts", "analyze", "--no-config", "/no/such/input.c"];
        let Command::Analyze(a) = Cli::try_parse_from(argv).expect("parses").command else {
            panic!("analyze")
        };
        assert_eq!(
            a.to_config().map(|_| ()),
            Err("no such file: /no/such/input.c".to_string())
        );
    }
}
