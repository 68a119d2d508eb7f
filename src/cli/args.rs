//! The command line as typed: the clap [`Cli`], its subcommands and option groups, the value
//! enums, and the parsers of typed values (seconds, sizes). Nothing here reads a file.
//!
//! Invariant: the lists of implemented modes, domains and formats live in the constants below
//! and nowhere else.

use crate::config::{ConfirmStrategy, DomainKind, EntrySpec, Format, Mode};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
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

/// The environment variable that names the SMT solver of `--strategy symbolic` (default `z3`
/// on PATH).
pub const Z3_ENV: &str = "WATTS_Z3";

/// The environment variable that, when set, prints the happens-before oracle's facts and
/// queries on stderr (debugging the constraint modes).
pub const TRACE_ENV: &str = "WATTS_TRACE";

/// The environment variable that, when set to a directory, prints every run and query of the
/// symbolic search on stderr and writes each query script there (debugging).
pub const SYM_DEBUG_ENV: &str = "WATTS_SYM_DEBUG";

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
    /// Merge the reports of the shards of a tree (`analyze --per-program --shard I/N`) into one.
    ///
    /// Reads the JSON or SARIF reports of the shards and writes the report of the whole tree,
    /// with the findings, suppressions, baselines and exit status an unsharded run gives.
    /// JSON reports merge into every format; SARIF reports into SARIF, GNU and human.
    ///
    /// Exit status: as `analyze` on the whole tree; 2 when a file is not such a report.
    Merge(MergeArgs),
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

    /// Functions handed to code outside the program (callbacks, signal handlers) may run in
    /// any thread at any time, also in threads of that code. Without it they run in the
    /// program's own threads (the threads that call into that code), as C libraries run them.
    #[arg(long, help_heading = "Analysis")]
    pub callbacks_anywhere: bool,

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

    /// Analyse each program of the compilation database on its own: the `[[program]]`s of
    /// watts.toml, every unit that defines `main` or has entry points (`--suggest-harness`),
    /// and with `=all` every other unit as a library. Results are cached (--cache); --jobs
    /// programs run at once, each within its share of --max-memory and within --timeout.
    #[arg(long, value_enum, value_name = "WHICH", num_args = 0..=1, require_equals = true, default_missing_value = "drivers", help_heading = "Tree")]
    pub per_program: Option<PerProgramArg>,

    /// The result cache of --per-program [default: .watts-cache beside the database].
    #[arg(
        long,
        value_name = "DIR",
        requires = "per_program",
        help_heading = "Tree"
    )]
    pub cache: Option<PathBuf>,

    /// Do not read or write the result cache.
    #[arg(
        long,
        conflicts_with = "cache",
        requires = "per_program",
        help_heading = "Tree"
    )]
    pub no_cache: bool,

    /// Analyse only share I of N of the programs (deterministic, balanced by size); `watts
    /// merge` puts the shards' reports together.
    #[arg(
        long,
        value_name = "I/N",
        requires = "per_program",
        help_heading = "Tree"
    )]
    pub shard: Option<crate::tree::shard::Shard>,

    /// One program's run inside --per-program: print its bundle (for watts itself).
    #[arg(long = "tree-child", hide = true)]
    pub tree_child: bool,

    /// Also write a static HTML report into DIR (`DIR/index.html`: the summary, the sources
    /// annotated with every assertion and race, the invariants of each line, every witness
    /// drawn as swim lanes); open it from disk, nothing is fetched.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub html: Option<PathBuf>,
}

/// The options of `watts merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shards' reports (`--format json` or `--format sarif` of `analyze --per-program`).
    #[arg(value_name = "REPORT", required = true)]
    pub files: Vec<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human)]
    pub format: FormatArg,

    /// Print findings only: no notes, no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--per-program`, as typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PerProgramArg {
    /// Units that define `main` or have entry points, and the `[[program]]`s of watts.toml.
    Drivers,
    /// Those, and every other unit as a library (`--entries-exported`).
    All,
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
pub(super) fn resolve_clang(flag: Option<PathBuf>) -> Option<PathBuf> {
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

pub use crate::limits::MAX_SECONDS;

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
