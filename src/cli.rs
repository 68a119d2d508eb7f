//! The command line: [`Cli`] is what the user typed (clap), [`AnalyzeArgs::to_config`] turns it
//! into a validated [`Config`] with every default resolved.
//!
//! Invariant: a `Config` that comes out of here names only implemented modes, domains and
//! formats; the lists of what is implemented live in the constants below and nowhere else.
//!
//! Resolved here: the defaults, the project (`project`: `watts.toml` or a compilation database),
//! the clang to run (`--clang`, else `WATTS_CLANG`), `--color auto` (`NO_COLOR`, `TERM`), the
//! progress delay (`WATTS_PROGRESS_AFTER_MS`) and the harness spec of `--init`/`--entry`. The
//! environment variables read elsewhere are listed in ARCHITECTURE.md ("Invariants"); resolving
//! them here too is issue 34's goal.
//!
//! Numbers are bounded where they are parsed: `--timeout` and `--confirm-budget` (and `timeout` of
//! watts.toml) lie in (0, one year] (`parse_seconds`: a deadline past `Instant`'s range panics),
//! and `--jobs` above the number of cores is lowered to it (`cap_jobs`; the result does not depend
//! on it).
//!
//! Existing `.c`/`.i`/`.ll`/`.bc` files after `--` are inputs, not clang arguments
//! (`split_trailing_inputs`): pre-commit appends the staged files after a hook's `args`. The flags
//! of a compilation database that clang rejects (`project::compile_commands::drop_unknown_flags`)
//! become one note in `Config::notes`, which `watts::run` adds to the report's notes.

use crate::config::{
    Config, ConfirmOptions, ConfirmStrategy, DomainKind, EntrySpec, Format, HarnessSpec, Mode,
};
use crate::error::InputError;
use crate::project::gate::Gate;
use crate::project::{compile_commands, manifest};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The mode used when `--mode` is not given: the design guide's default (slicing, clustering
/// and the Datalog oracle).
pub const DEFAULT_MODE: Mode = Mode::Optimized;

/// Modes the analysis implements; `--mode` rejects the others.
pub const IMPLEMENTED_MODES: &[Mode] = &[
    Mode::FlowInsensitive,
    Mode::FlowSensitive,
    Mode::Constraints,
    Mode::Optimized,
];

/// Domains the analysis implements; `--domain` rejects the others.
pub const IMPLEMENTED_DOMAINS: &[DomainKind] = &[DomainKind::Interval, DomainKind::Octagon];

/// Output formats `report` implements; `--format` rejects the others.
pub const IMPLEMENTED_FORMATS: &[Format] =
    &[Format::Human, Format::Gnu, Format::Json, Format::Sarif];

/// The environment variable that names the clang binary when `--clang` is not given.
pub const CLANG_ENV: &str = "WATTS_CLANG";

/// The environment variable that sets after how many milliseconds the progress indicator
/// appears (default 1000); for tests and slow terminals.
pub const PROGRESS_AFTER_ENV: &str = "WATTS_PROGRESS_AFTER_MS";

const AFTER_HELP: &str = "\
EXIT STATUS:
    0  every assertion is proved or unreachable (or suppressed, or in the baseline)
    1  at least one assertion may fail (or, with --confirm, is violated)
    2  usage or input error (missing file, C that does not compile: clang's message is shown)
    3  internal error (a bug in watts), or out of memory (with a message)

ENVIRONMENT:
    WATTS_CLANG  the clang binary (as --clang); otherwise clang-19, then clang (version 19)
    NO_COLOR     no colors in human output when set

EXAMPLES:
    watts analyze tests/corpus/00-readme/example.c
    watts analyze --entry wdt_open --entry wdt_write:2 --entry wdt_irq:* --init wdt_init wdt.c
    watts analyze -p build --format sarif > watts.sarif
    watts analyze --baseline old.json src/*.c -- -Iinclude -DCONFIG_SMP
    watts confirm --witness-dir witnesses tests/corpus/00-readme/counter.c
    watts replay witnesses/A1.json
    watts invariants --format json example.c
    watts completions bash > /etc/bash_completion.d/watts

See README.md for watts.toml, suppressions (// watts-ignore(assert-may-fail)) and pre-commit.";

/// watts proves assertions in multithreaded C programs.
///
/// It compiles C with clang-19 (the LLVM version it links with), analyses every thread with an
/// abstract interpreter, composes the threads thread-modularly, and reports, like a compiler,
/// which assert() calls it proved and which may fail. A proof holds for every execution under
/// sequential consistency; whatever is not modelled is over-approximated, never ignored.
#[derive(Debug, Parser)]
#[command(name = "watts", version, about, long_about, propagate_version = true)]
#[command(after_long_help = AFTER_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse C programs (or LLVM IR) and report which assertions may fail.
    ///
    /// Inputs are C files (.c, .i) or LLVM IR (.ll, .bc), linked into one program; or the
    /// files of a compilation database (-p BUILD_DIR); or the `files` of a watts.toml found in
    /// the current directory or an ancestor. Driver code without `main` is analysed through a
    /// synthesized harness: --init runs first, then every --entry runs as concurrent threads
    /// with arguments of any value.
    ///
    /// Exit status: 0 every assertion proved or unreachable, 1 some assertion may fail,
    /// 2 usage or input error, 3 internal error.
    #[command(after_long_help = AFTER_HELP)]
    Analyze(AnalyzeArgs),
    /// Analyse, then execute the program to confirm the assertions that may fail.
    ///
    /// The same as `watts analyze --confirm`: every assertion the analysis cannot prove is
    /// searched for a real failing interleaving by executing the program under a controlled
    /// scheduler (all interleavings with loops bounded by --bound, or sampled interleavings,
    /// as --strategy says; inputs from a small set of candidate values, or solved for by z3
    /// under `--strategy symbolic` and `auto`). A failure found is
    /// reported as `violated`, with the numbered steps of the interleaving; none found leaves
    /// the assertion `may fail`.
    ///
    /// Exit status: as `analyze`.
    #[command(after_long_help = AFTER_HELP)]
    Confirm(AnalyzeArgs),
    /// Re-execute a witness file written by --witness-dir.
    ///
    /// Exit status: 1 when the witnessed assertion fails again, 0 when the execution does not
    /// fail it, 2 when the witness does not fit the program (or cannot be read).
    Replay(ReplayArgs),
    /// Print the invariant the analysis computed at each source line of each thread.
    ///
    /// For every thread and every source line it reaches, the ranges of the named variables
    /// (locals and globals) before the line executes: the primary output of thread-modular
    /// abstract interpretation, and the way to understand why an assertion is not proved.
    /// A line a thread never reaches is not listed for it.
    Invariants(InvariantsArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    ///
    /// Example: `watts completions bash > ~/.local/share/bash-completion/completions/watts`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// What to analyse and how: the options `analyze` and `invariants` share.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input files: C sources (.c, .i) or LLVM IR (.ll, .bc), analysed as one program
    /// [default: the files of -p or of watts.toml].
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Extra arguments passed to clang (e.g. `-- -DNDEBUG=0 -Iinclude`).
    #[arg(last = true, value_name = "CLANG_ARGS")]
    pub clang_args: Vec<String>,

    /// Read compile_commands.json from this build directory: every C file in it is an input
    /// (or only the FILEs given), compiled with its own flags.
    #[arg(
        short = 'p',
        long = "build-dir",
        value_name = "DIR",
        help_heading = "Project"
    )]
    pub build_dir: Option<PathBuf>,

    /// Read this compilation database (as -p, naming the file).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "build_dir",
        help_heading = "Project"
    )]
    pub compile_commands: Option<PathBuf>,

    /// Read this project file instead of looking for watts.toml in the current directory and
    /// its ancestors.
    #[arg(long, value_name = "FILE", help_heading = "Project")]
    pub config: Option<PathBuf>,

    /// Ignore any watts.toml.
    #[arg(long, conflicts_with = "config", help_heading = "Project")]
    pub no_config: bool,

    /// An entry point of driver code: runs as a thread concurrently with the other entries,
    /// with arguments of any value. `FN:N` runs N instances, `FN:*` any number. Repeatable.
    #[arg(long = "entry", value_name = "FN[:N|*]", help_heading = "Harness")]
    pub entries: Vec<EntrySpec>,

    /// A function that runs once, before the entry points (the driver's init).
    #[arg(long, value_name = "FN", help_heading = "Harness")]
    pub init: Option<String>,

    /// An ops table: every function pointer in the initialiser of this global (nested tables
    /// included, as in `struct file_operations`) is an entry, of any number of instances or of
    /// N with `TABLE:N`. An --entry of the same function overrides it. Repeatable.
    #[arg(long = "entries-from", value_name = "TABLE[:N|*]", value_parser = crate::config::parse_table, help_heading = "Harness")]
    pub entries_from: Vec<EntrySpec>,

    /// A library: every exported (non-static) function is an entry of any number of
    /// instances, as the library's users may call it; --entry and --entries-from override.
    #[arg(long, help_heading = "Harness")]
    pub entries_exported: bool,

    /// Assume that this function, which the analysed files declare but do not define (a
    /// kernel's `request_irq`, `register_chrdev`), changes no memory of the program and
    /// returns normally; it may keep the pointers it gets. Without it, such a call may change
    /// everything it can reach. Repeatable.
    #[arg(long = "assume-no-write", value_name = "FN", help_heading = "Harness")]
    pub assume_no_write: Vec<String>,

    /// What to check: `assert` (assertions, `reach_error`), `race` (data races), or both,
    /// comma-separated [default: assert,race].
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "CHECKS",
        help_heading = "Analysis"
    )]
    pub check: Vec<CheckArg>,

    /// How interferences between threads are composed [default: optimized].
    #[arg(long, value_enum, value_name = "MODE", help_heading = "Analysis")]
    pub mode: Option<ModeArg>,

    /// Numeric abstract domain [default: interval].
    #[arg(long, value_enum, value_name = "DOMAIN", help_heading = "Analysis")]
    pub domain: Option<DomainArg>,

    /// Most interference combinations per thread and round in the flow-sensitive modes; past
    /// it, that thread's shared loads read the join of all stores (sound, less precise)
    /// [default: 4096].
    #[arg(long, value_name = "N", help_heading = "Analysis")]
    pub max_combinations: Option<usize>,

    /// Worker threads that analyse combinations in parallel in the optimized mode; the output
    /// is the same for every value. More workers than cores cannot help, so a larger N is
    /// lowered to the number of cores [default: one per core].
    #[arg(long, value_name = "N", help_heading = "Analysis")]
    pub jobs: Option<usize>,

    /// Stop the whole run after this many seconds (more than 0, at most one year), clang and
    /// --confirm included: assertions are then reported as may fail (never as proved), or,
    /// when clang had not finished, the run ends with status 2.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true, value_parser = parse_seconds, help_heading = "Analysis")]
    pub timeout: Option<Duration>,

    /// Heap budget of the analysis (`512M`, `4G`, or bytes); past it a flow-sensitive mode
    /// falls back to the flow-insensitive one (coarser, noted in the report) and that one to
    /// may-fail. clang runs with this much address space plus 512M for its code (status 2 when
    /// it needs more) [default: a quarter of the memory, at most 1.5G].
    #[arg(long, value_name = "SIZE", value_parser = parse_size, help_heading = "Analysis")]
    pub max_memory: Option<u64>,

    /// The clang binary to use [env: WATTS_CLANG; default: clang-19, then clang].
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
}

/// The options of `watts analyze`, as typed.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Inputs and analysis options.
    #[command(flatten)]
    pub input: InputArgs,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human, help_heading = "Output")]
    pub format: FormatArg,

    /// Also list proved and unreachable assertions, pruning counts, and timings.
    #[arg(short, long, help_heading = "Output")]
    pub verbose: bool,

    /// Print findings only: no notes, no summary line, no progress indicator.
    #[arg(short, long, conflicts_with = "verbose", help_heading = "Output")]
    pub quiet: bool,

    /// A JSON or SARIF report of an earlier run: its findings are still shown but do not make
    /// the exit status 1 (matched by rule, file and fingerprint, not by line).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub baseline: Option<PathBuf>,

    /// When to use colors in human output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto, help_heading = "Output")]
    pub color: ColorArg,

    /// Print the lowered watts IR instead of analysing (for debugging watts).
    #[arg(long, hide_short_help = true)]
    pub dump_ir: bool,

    /// List the ops tables, init functions, callbacks and exported functions of the program
    /// and the command that analyses it through them, instead of analysing.
    #[arg(long, help_heading = "Harness")]
    pub suggest_harness: bool,

    /// Run as a verifier in SV-COMP: analyse, then --confirm what the analysis leaves open,
    /// and end the report with `SV-COMP result: true` (every error call and assertion proved
    /// or unreachable), `false` (one is violated, with its interleaving) or `unknown` (on
    /// stderr with the JSON and SARIF formats). For ILP32 tasks pass `-- -m32`.
    #[arg(long, help_heading = "Output")]
    pub svcomp: bool,

    /// The SV-COMP property of --svcomp: `unreach-call` (no error call or assertion fails;
    /// the default), `no-data-race` (no two accesses race), or a `.prp` file that states one
    /// of them. It chooses what is checked, unless --check says otherwise.
    #[arg(
        long,
        value_name = "PROPERTY",
        requires = "svcomp",
        help_heading = "Output"
    )]
    pub property: Option<String>,

    /// Execute the program to confirm the assertions that may fail: a real failing
    /// interleaving makes the assertion `violated` and is shown step by step.
    #[arg(long, help_heading = "Confirm")]
    pub confirm: bool,

    /// First loop bound of --confirm: how many times a thread may go around one loop in one
    /// call; a thread past it stops there. While executions were cut and time remains, the
    /// search starts again with twice the bound [default: 10].
    #[arg(long, value_name = "K", help_heading = "Confirm")]
    pub bound: Option<u32>,

    /// Time budget of --confirm, in seconds [default: 10]. (`--confirm-timeout` is an older
    /// name of it.)
    #[arg(
        long = "confirm-budget",
        alias = "confirm-timeout",
        value_name = "SECS",
        allow_negative_numbers = true,
        value_parser = parse_seconds,
        help_heading = "Confirm"
    )]
    pub confirm_budget: Option<Duration>,

    /// How --confirm chooses executions: `exhaustive` runs every execution within the loop
    /// bound (and says so when it finishes); `speed`, `pct` and `random` sample executions
    /// (thread speed control, probabilistic concurrency testing, uniform; `focus` runs main
    /// and a few other threads far, the rest newest first or only when those wait), which finds deep
    /// bugs sooner but never shows their absence; `symbolic` asks z3 for inputs and a schedule
    /// that reach a new path (bugs that need specific input values); `auto` samples a little,
    /// searches exhaustively with half the budget, then runs symbolic inputs and speed
    /// sampling for the rest [default: auto].
    #[arg(long, value_enum, value_name = "STRATEGY", help_heading = "Confirm")]
    pub strategy: Option<StrategyArg>,

    /// Seed of the sampled executions of --confirm: the same seed gives the same executions
    /// and the same report [default: 0].
    #[arg(long, value_name = "N", help_heading = "Confirm")]
    pub seed: Option<u64>,

    /// Depth of `--strategy pct` (and of PCT runs in `auto`): how many ordering constraints
    /// a bug may need, at least 1 [default: 3].
    #[arg(long, value_name = "D", help_heading = "Confirm")]
    pub pct_depth: Option<u32>,

    /// Write one witness file per violated assertion into DIR (`A3.json`), for `watts replay`.
    #[arg(long, value_name = "DIR", help_heading = "Confirm")]
    pub witness_dir: Option<PathBuf>,

    /// Also write a static HTML report into DIR (`DIR/index.html`: the summary, the sources
    /// annotated with every assertion and race, the invariants of each line, every witness
    /// drawn as swim lanes); open it from disk, nothing is fetched.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub html: Option<PathBuf>,
}

/// The options of `watts replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A witness file (written by --witness-dir).
    #[arg(value_name = "WITNESS")]
    pub witness: PathBuf,

    /// The clang binary to use [env: WATTS_CLANG; default: clang-19, then clang].
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,
}

impl ReplayArgs {
    /// The clang binary: `--clang`, else `WATTS_CLANG`, else `None` (found on PATH).
    pub fn clang(&self) -> Option<PathBuf> {
        resolve_clang(self.clang.clone())
    }
}

/// The clang binary of `--clang`, else of `WATTS_CLANG` when set and not empty.
fn resolve_clang(flag: Option<PathBuf>) -> Option<PathBuf> {
    flag.or_else(|| {
        std::env::var_os(CLANG_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// The options of `watts invariants`, as typed.
#[derive(Debug, Args)]
pub struct InvariantsArgs {
    /// Inputs and analysis options.
    #[command(flatten)]
    pub input: InputArgs,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = InvariantFormatArg::Human)]
    pub format: InvariantFormatArg,

    /// Only this thread (as named in the output: `main`, `reader`, `reader#2`).
    #[arg(long, value_name = "NAME")]
    pub thread: Option<String>,
}

/// `watts invariants --format`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InvariantFormatArg {
    /// One block per thread, one line per source line.
    Human,
    /// One JSON object.
    Json,
}

/// `--check`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckArg {
    /// Assertions: `assert`, `reach_error`, `__VERIFIER_assert`.
    Assert,
    /// Data races: accesses of two threads to the same memory that nothing orders.
    Race,
}

/// `--mode`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// Every load may read every store of another thread.
    FlowInsensitive,
    /// Combinations of store-to-load flows, one by one.
    FlowSensitive,
    /// Flow-sensitive, pruned by Datalog happens-before rules.
    Constraints,
    /// Constraints plus slicing and clustering.
    Optimized,
}

/// `--strategy`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Sample a little, search exhaustively with part of the budget, then sample.
    Auto,
    /// Every execution within the loop bound (iterative deepening).
    Exhaustive,
    /// Sampled executions under thread speed control.
    Speed,
    /// Sampled executions under probabilistic concurrency testing.
    Pct,
    /// Sampled executions under a uniformly random scheduler.
    Random,
    /// Sampled executions that run a few threads far (main and at most two others; the rest
    /// newest first, or only when those cannot move).
    Focus,
    /// Inputs and schedule prefixes solved by z3 to reach new paths (symbolic inputs).
    Symbolic,
}

impl From<StrategyArg> for ConfirmStrategy {
    fn from(s: StrategyArg) -> Self {
        match s {
            StrategyArg::Auto => ConfirmStrategy::Auto,
            StrategyArg::Exhaustive => ConfirmStrategy::Exhaustive,
            StrategyArg::Speed => ConfirmStrategy::Speed,
            StrategyArg::Pct => ConfirmStrategy::Pct,
            StrategyArg::Random => ConfirmStrategy::Random,
            StrategyArg::Focus => ConfirmStrategy::Focus,
            StrategyArg::Symbolic => ConfirmStrategy::Symbolic,
        }
    }
}

/// `--domain`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DomainArg {
    /// Intervals over machine integers.
    Interval,
    /// Octagons (relations `±x ± y <= c`).
    Octagon,
}

/// `--format`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Compiler-style diagnostics with source snippets.
    Human,
    /// One line per finding: `file:line:col: warning: ... [code]`.
    Gnu,
    /// One JSON object (version 1).
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

/// `--color`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// When stdout is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::FlowInsensitive => Mode::FlowInsensitive,
            ModeArg::FlowSensitive => Mode::FlowSensitive,
            ModeArg::Constraints => Mode::Constraints,
            ModeArg::Optimized => Mode::Optimized,
        }
    }
}

impl From<DomainArg> for DomainKind {
    fn from(d: DomainArg) -> DomainKind {
        match d {
            DomainArg::Interval => DomainKind::Interval,
            DomainArg::Octagon => DomainKind::Octagon,
        }
    }
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Human => Format::Human,
            FormatArg::Gnu => Format::Gnu,
            FormatArg::Json => Format::Json,
            FormatArg::Sarif => Format::Sarif,
        }
    }
}

/// The command-line name of a format.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Human => "human",
        Format::Gnu => "gnu",
        Format::Json => "json",
        Format::Sarif => "sarif",
    }
}

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
        Ok(config)
    }
}

/// The longest time `--timeout` and `--confirm-budget` accept: one year. A bound is needed
/// because a deadline is an `Instant` plus the budget, and `Instant` panics past its range
/// (`1e308` seconds); a year is longer than any run anyone waits for.
pub const MAX_SECONDS: u64 = 365 * 24 * 60 * 60;

/// A number of seconds (`1.5`, `600`), checked: finite, more than 0, at most [`MAX_SECONDS`].
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let bound =
        || format!("expected a number of seconds more than 0 and at most {MAX_SECONDS} (one year)");
    let t: f64 = s.trim().parse().map_err(|_| bound())?;
    if !(t > 0.0 && t <= MAX_SECONDS as f64) {
        return Err(bound());
    }
    Ok(Duration::from_secs_f64(t))
}

/// A size in bytes: a number with an optional `K`, `M`, `G` or `T` (powers of 1024, with or
/// without `iB`/`B`), at least 1 KiB.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let bad = || format!("expected a size such as 512M or 4G (at least 1K), not `{s}`");
    let t = s.trim();
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: f64 = num.parse().map_err(|_| bad())?;
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches('B')
        .trim_end_matches('I')
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return Err(bad()),
    };
    let bytes = n * f64::from(1u32 << (shift.min(30))) * f64::from(1u32 << (shift - shift.min(30)));
    if !(1024.0..1.8e19).contains(&bytes) {
        return Err(bad());
    }
    Ok(bytes as u64)
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
fn split_trailing_inputs(args: Vec<String>) -> (Vec<PathBuf>, Vec<String>) {
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
    use crate::config::Instances;
    use clap::CommandFactory;

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
        assert_eq!(c.confirm, Some(ConfirmOptions::default()));
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
