//! The resolved configuration of one run.
//!
//! `Config` carries the inputs and per-unit clang flags (`units`), the mode, domain and format, the
//! harness spec, `--assume-no-write`, the baseline path, the timeout, the memory and combination
//! budgets, `--confirm`'s options and the checks to run. `cli` resolves it and every stage reads
//! it; besides the types, this module parses `--property` files and reads the machine's memory size
//! (`/proc/meminfo`) for the default budget.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

/// How interferences between threads are composed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Every load may read every store of another thread, joined per location (FSE'16, Alg. 2).
    FlowInsensitive,
    /// Combinations of store-to-load flows, analysed one by one (FSE'16, Alg. 3).
    FlowSensitive,
    /// Flow-sensitive, with infeasible combinations pruned by Datalog rules (FSE'16, Alg. 4).
    Constraints,
    /// Constraints plus slicing and clustering (FSE'16, Sec. 6).
    Optimized,
}

impl Mode {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Mode::FlowInsensitive => "flow-insensitive",
            Mode::FlowSensitive => "flow-sensitive",
            Mode::Constraints => "constraints",
            Mode::Optimized => "optimized",
        }
    }

    /// Every mode, weakest first.
    pub const ALL: [Mode; 4] = [
        Mode::FlowInsensitive,
        Mode::FlowSensitive,
        Mode::Constraints,
        Mode::Optimized,
    ];
}

/// The numeric abstract domain of the per-thread analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DomainKind {
    /// Intervals over machine integers.
    Interval,
    /// Octagons (relations `±x ± y <= c`).
    Octagon,
}

impl DomainKind {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            DomainKind::Interval => "interval",
            DomainKind::Octagon => "octagon",
        }
    }
}

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Compiler-style diagnostics with source snippets.
    Human,
    /// One line per finding: `file:line:col: warning: ...`.
    Gnu,
    /// The JSON v1 contract of the design guide.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

/// Everything one `watts analyze` run needs, validated.
#[derive(Clone, Debug)]
pub struct Config {
    /// Input files (`.c`, `.i`, `.ll`, `.bc`).
    pub inputs: Vec<PathBuf>,
    /// The clang binary to use, if given (`--clang` or `WATTS_CLANG`, resolved by `cli`); else
    /// `clang-19`, then `clang`, on PATH.
    pub clang: Option<PathBuf>,
    /// Extra arguments for clang (after `--`).
    pub clang_args: Vec<String>,
    /// Interference mode.
    pub mode: Mode,
    /// Numeric domain.
    pub domain: DomainKind,
    /// Output format.
    pub format: Format,
    /// List proved assertions too.
    pub verbose: bool,
    /// Use colors in human output.
    pub color: bool,
    /// Most interference combinations per thread and round in the flow-sensitive modes; past
    /// it, the thread's shared loads read the join of their stores (sound, less precise).
    pub max_combinations: usize,
    /// Worker threads for the optimized mode's combinations (0: one per core). The output does
    /// not depend on it.
    pub jobs: usize,
    /// Per-input compile flags (from a compilation database), keyed by the input path as it
    /// appears in `inputs`; inputs not listed get `clang_args` only.
    pub units: BTreeMap<PathBuf, UnitFlags>,
    /// The driver harness to synthesize (`--init`, `--entry`), if any.
    pub harness: Option<HarnessSpec>,
    /// Declared functions assumed to change no memory of the program (`--assume-no-write`).
    pub assume_no_write: Vec<String>,
    /// `--callbacks-anywhere`: functions handed to code outside the program run in any thread
    /// at any time (without it: in the program's own threads, README's "What race-free means").
    pub callbacks_anywhere: bool,
    /// A JSON or SARIF report of an earlier run: findings in it do not count for the exit
    /// status.
    pub baseline: Option<PathBuf>,
    /// Wall-time budget of the whole run (`crate::budget`: clang, the analysis, --confirm);
    /// past it every assertion not yet decided is may-fail, or, in the front end, the run ends
    /// with an input error.
    pub timeout: Option<Duration>,
    /// Heap budget of the analysis in bytes (`--max-memory`); past it a flow-sensitive mode
    /// falls back to the flow-insensitive one, and that one to may-fail for everything.
    pub max_memory: u64,
    /// Print findings only: no notes, no summary, no progress.
    pub quiet: bool,
    /// Show a progress indicator on stderr (only when stderr is a terminal).
    pub progress: bool,
    /// After how long the progress indicator appears (`WATTS_PROGRESS_AFTER_MS`, a second by
    /// default).
    pub progress_after: std::time::Duration,
    /// Confirm may-fail assertions by executing the program (`--confirm`, `watts confirm`).
    pub confirm: Option<ConfirmOptions>,
    /// What resolving the inputs changed, in words (compilation-database flags clang does not
    /// know, dropped): shown with the analysis's notes, never silently.
    pub notes: Vec<String>,
    /// What is checked (`--check`): assertions, data races.
    pub checks: Checks,
    /// The SV-COMP property whose answer `--svcomp` prints (`None` without `--svcomp`).
    pub property: Option<Property>,
    /// Keep the line invariants of the verdicts' fixpoints in the outcome (`--html` shows
    /// them; the JSON report then has `invariants`).
    pub invariants: bool,
    /// Write the HTML report into this directory (`--html DIR`).
    pub html: Option<PathBuf>,
    /// Print the happens-before oracle's facts and queries on stderr (`WATTS_TRACE`, resolved
    /// by `cli`; for debugging the constraint modes).
    pub trace: bool,
}

/// An SV-COMP property `--svcomp` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// `unreach-call`: no error call (`reach_error`, a failing assertion) is reached.
    UnreachCall,
    /// `no-data-race`: no execution has two conflicting accesses that may run at once.
    NoDataRace,
}

impl Property {
    /// `unreach-call`, `no-data-race`, or the path of a `.prp` file that states one of them
    /// (SV-COMP's `LTL(G ! call(reach_error()))`, `LTL(G ! data-race)`).
    pub fn parse(text: &str) -> Result<Property, String> {
        match text {
            "unreach-call" => return Ok(Property::UnreachCall),
            "no-data-race" => return Ok(Property::NoDataRace),
            _ => {}
        }
        let path = std::path::Path::new(text);
        if !path.exists() {
            return Err(format!(
                "--property {text}: expected unreach-call, no-data-race or a .prp file"
            ));
        }
        // A property file is a line or two; a larger one is not one.
        let body =
            std::fs::read(path).map_err(|e| format!("--property {text}: cannot read it: {e}"))?;
        let body =
            String::from_utf8_lossy(&body[..body.len().min(crate::limits::PROPERTY_FILE_BYTES)])
                .replace(' ', "");
        if body.contains("G!call(reach_error())") {
            Ok(Property::UnreachCall)
        } else if body.contains("G!data-race") {
            Ok(Property::NoDataRace)
        } else {
            Err(format!(
                "--property {text}: the file states no property watts answers (unreach-call, \
                 no-data-race)"
            ))
        }
    }

    /// What must be checked to answer it.
    pub fn checks(self) -> Checks {
        match self {
            Property::UnreachCall => Checks {
                asserts: true,
                races: false,
            },
            Property::NoDataRace => Checks {
                asserts: false,
                races: true,
            },
        }
    }
}

/// What `watts analyze` checks (`--check assert,race`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Checks {
    /// Assertions (`assert`, `reach_error`, `__VERIFIER_assert`).
    pub asserts: bool,
    /// Data races.
    pub races: bool,
}

impl Default for Checks {
    /// Both.
    fn default() -> Self {
        Checks {
            asserts: true,
            races: true,
        }
    }
}

/// How `--confirm` explores executions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfirmOptions {
    /// Most times a thread may enter one block in one function activation, beyond the first
    /// (a loop bound); an execution past it is cut short.
    pub bound: u32,
    /// Wall-time budget of the exploration (`--confirm-budget`).
    pub timeout: Duration,
    /// Write one witness file per violated assertion into this directory.
    pub witness_dir: Option<PathBuf>,
    /// How executions are chosen (`--strategy`).
    pub strategy: ConfirmStrategy,
    /// The seed of every sampled execution (`--seed`): the same seed gives the same
    /// executions, hence the same output.
    pub seed: u64,
    /// The depth of probabilistic concurrency testing (`--pct-depth`, at least 1): the
    /// number of ordering constraints a bug needs that PCT finds with probability at least
    /// 1/(n k^(d-1)).
    pub pct_depth: u32,
    /// The SMT solver of the symbolic search (`WATTS_Z3`, resolved by `cli`; else `z3` on PATH).
    pub z3: PathBuf,
    /// Print every run and query of the symbolic search on stderr and write each query script
    /// into this directory (`WATTS_SYM_DEBUG=DIR`, resolved by `cli`; for debugging).
    pub symbolic_debug: Option<PathBuf>,
}

impl Default for ConfirmOptions {
    fn default() -> Self {
        ConfirmOptions {
            bound: crate::limits::DEFAULT_BOUND,
            timeout: crate::limits::DEFAULT_CONFIRM_BUDGET,
            witness_dir: None,
            strategy: ConfirmStrategy::Auto,
            seed: 0,
            pct_depth: crate::limits::DEFAULT_PCT_DEPTH,
            z3: PathBuf::from("z3"),
            symbolic_debug: None,
        }
    }
}

/// How `--confirm` chooses the executions it runs (see `explore::strategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConfirmStrategy {
    /// A burst of speed-controlled samples, the exhaustive search with part of the budget,
    /// then symbolic inputs and speed sampling for the rest while assertions remain
    /// unviolated.
    Auto,
    /// Only the exhaustive search (RVF-SMC, or the reduced search; iterative deepening of the
    /// loop bound): when it completes, no execution within the bounds fails.
    Exhaustive,
    /// Sampled executions under thread speed control (FSE'18).
    Speed,
    /// Sampled executions under probabilistic concurrency testing (ASPLOS'10).
    Pct,
    /// Sampled executions under a uniformly random scheduler.
    Random,
    /// Sampled executions that run a few threads far: `main` and at most two others, the rest
    /// eagerly or only when those cannot move (`explore::focus`).
    Focus,
    /// Symbolic inputs (maximal path causality, FSE'18): runs whose inputs and schedule
    /// prefix z3 chose to reach a new path, speed-controlled after the prefix.
    Symbolic,
}

impl ConfirmStrategy {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ConfirmStrategy::Auto => "auto",
            ConfirmStrategy::Exhaustive => "exhaustive",
            ConfirmStrategy::Speed => "speed",
            ConfirmStrategy::Pct => "pct",
            ConfirmStrategy::Random => "random",
            ConfirmStrategy::Focus => "focus",
            ConfirmStrategy::Symbolic => "symbolic",
        }
    }
}

/// How one input of a compilation database is compiled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitFlags {
    /// The flags that matter to the analysis (`-I`, `-D`, `-U`, `-std`, `-include`, target
    /// flags...), in order, with relative paths made absolute; output and code-generation
    /// flags are dropped.
    pub args: Vec<String>,
}

/// The entry points of driver code that has no `main`: an optional init function runs first,
/// then every entry runs as concurrent threads with arguments of any value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarnessSpec {
    /// Runs first, once, before any entry point.
    pub init: Option<String>,
    /// The entry points, in the order given.
    pub entries: Vec<EntrySpec>,
    /// Ops tables (`--entries-from`): every function whose address the global's initialiser
    /// holds (nested tables included) is an entry with the table's instance count, unless
    /// `entries` names it.
    pub tables: Vec<EntrySpec>,
    /// Every exported (non-`static`) defined function is an entry of any number of instances
    /// (`--entries-exported`: how a library's users call it), unless named otherwise.
    pub exported: bool,
}

impl HarnessSpec {
    /// Whether the harness replaces `main` (anything is asked of it).
    pub fn is_active(&self) -> bool {
        self.init.is_some() || !self.entries.is_empty() || !self.tables.is_empty() || self.exported
    }
}

impl EntrySpec {
    /// As `--entries-from` takes it back ([`parse_table`]): the count always written, since a
    /// table without one has any number of instances (`fops:1`, `fops:*`).
    pub fn table_text(&self) -> String {
        match self.instances {
            Instances::Exactly(n) => format!("{}:{n}", self.name),
            Instances::Any => format!("{}:*", self.name),
        }
    }
}

/// An ops table of `--entries-from SYMBOL[:N|*]`: without a count, any number of instances of
/// each function, as the kernel calls a driver's file operations.
pub fn parse_table(s: &str) -> Result<EntrySpec, String> {
    let mut spec: EntrySpec = s
        .parse()
        .map_err(|e: String| e.replace("a function name", "a global variable's name"))?;
    if !s.contains(':') {
        spec.instances = Instances::Any;
    }
    Ok(spec)
}

/// One entry point of a harness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrySpec {
    /// The function's name.
    pub name: String,
    /// How many instances run concurrently.
    pub instances: Instances,
}

/// How many instances of an entry point run concurrently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instances {
    /// Exactly this many (at least 1).
    Exactly(u32),
    /// Any number (`*`).
    Any,
}

impl std::str::FromStr for EntrySpec {
    type Err = String;

    /// `write`, `write:2`, `write:*`.
    fn from_str(s: &str) -> Result<EntrySpec, String> {
        let (name, count) = match s.rsplit_once(':') {
            Some((n, c)) => (n, Some(c)),
            None => (s, None),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if !valid_name {
            return Err(format!(
                "`{s}`: expected a function name, optionally followed by `:N` or `:*`"
            ));
        }
        let instances = match count {
            None => Instances::Exactly(1),
            Some("*") => Instances::Any,
            Some(n) => match n.parse::<u32>() {
                Ok(k) if k >= 1 => Instances::Exactly(k),
                _ => {
                    return Err(format!(
                        "`{s}`: the instance count must be a positive number or `*`"
                    ))
                }
            },
        };
        Ok(EntrySpec {
            name: name.to_string(),
            instances,
        })
    }
}

impl std::fmt::Display for EntrySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.instances {
            Instances::Exactly(1) => write!(f, "{}", self.name),
            Instances::Exactly(n) => write!(f, "{}:{n}", self.name),
            Instances::Any => write!(f, "{}:*", self.name),
        }
    }
}

pub use crate::limits::DEFAULT_MAX_COMBINATIONS;

impl Config {
    /// A configuration with defaults for everything but the inputs.
    pub fn new(inputs: Vec<PathBuf>) -> Self {
        Config {
            inputs,
            clang: None,
            clang_args: Vec::new(),
            mode: Mode::Optimized,
            domain: DomainKind::Interval,
            format: Format::Human,
            verbose: false,
            color: false,
            max_combinations: DEFAULT_MAX_COMBINATIONS,
            jobs: 0,
            units: BTreeMap::new(),
            harness: None,
            assume_no_write: Vec::new(),
            callbacks_anywhere: false,
            baseline: None,
            timeout: None,
            max_memory: default_max_memory(),
            quiet: false,
            progress: false,
            progress_after: std::time::Duration::from_secs(1),
            confirm: None,
            notes: Vec::new(),
            checks: Checks::default(),
            property: None,
            invariants: false,
            html: None,
            trace: false,
        }
    }
}

/// The default `--max-memory`: a quarter of the physical memory, at most 1.5 GiB (a pre-commit
/// hook shares the machine; a larger budget is one option away).
pub fn default_max_memory() -> u64 {
    use crate::limits::MAX_MEMORY_DEFAULT_CAP as CAP;
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb.saturating_mul(1024))
    });
    total.map_or(CAP, |t| (t / 4).min(CAP))
}
