//! The resolved configuration of one run.

use std::path::PathBuf;

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
    /// The clang binary to use, if given (`--clang` or `WATTS_CLANG`); else found on PATH.
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
}

/// The default of [`Config::max_combinations`].
pub const DEFAULT_MAX_COMBINATIONS: usize = 4096;

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
        }
    }
}
