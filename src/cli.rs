//! The command line: [`Cli`] is what the user typed (clap), [`AnalyzeArgs::to_config`] turns it
//! into a validated [`Config`] with every default and environment variable resolved.
//!
//! Invariant: a `Config` that comes out of here names only implemented modes, domains and
//! formats; the lists of what is implemented live in the constants below and nowhere else.

use crate::config::{Config, DomainKind, Format, Mode};
use crate::error::InputError;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::PathBuf;

/// The mode used when `--mode` is not given: the design guide's default. Until slicing and
/// clustering land, `optimized` runs the same analysis as `constraints`.
pub const DEFAULT_MODE: Mode = Mode::Optimized;

/// Modes the analysis implements; `--mode` rejects the others.
pub const IMPLEMENTED_MODES: &[Mode] = &[
    Mode::FlowInsensitive,
    Mode::FlowSensitive,
    Mode::Constraints,
    Mode::Optimized,
];

/// Domains the analysis implements; `--domain` rejects the others.
pub const IMPLEMENTED_DOMAINS: &[DomainKind] = &[DomainKind::Interval];

/// Output formats `report` implements; `--format` rejects the others.
pub const IMPLEMENTED_FORMATS: &[Format] =
    &[Format::Human, Format::Gnu, Format::Json, Format::Sarif];

/// The environment variable that names the clang binary when `--clang` is not given.
pub const CLANG_ENV: &str = "WATTS_CLANG";

/// watts proves assertions in multithreaded C programs.
#[derive(Debug, Parser)]
#[command(name = "watts", version, about, propagate_version = true)]
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
    /// Exit status: 0 every assertion proved or unreachable, 1 some assertion may fail,
    /// 2 usage or input error, 3 internal error.
    Analyze(AnalyzeArgs),
}

/// The options of `watts analyze`, as typed.
#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Input files: C sources (.c, .i) or LLVM IR (.ll, .bc), analysed as one program.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Extra arguments passed to clang (e.g. `-- -DNDEBUG=0 -Iinclude`).
    #[arg(last = true, value_name = "CLANG_ARGS")]
    pub clang_args: Vec<String>,

    /// How interferences between threads are composed [default: flow-insensitive for now].
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<ModeArg>,

    /// Numeric abstract domain.
    #[arg(long, value_enum, value_name = "DOMAIN", default_value_t = DomainArg::Interval)]
    pub domain: DomainArg,

    /// Output format.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Human)]
    pub format: FormatArg,

    /// Also list proved and unreachable assertions, and timings.
    #[arg(short, long)]
    pub verbose: bool,

    /// The clang binary to use [env: WATTS_CLANG; default: found on PATH].
    #[arg(long, value_name = "PATH")]
    pub clang: Option<PathBuf>,

    /// When to use colors in human output.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorArg::Auto)]
    pub color: ColorArg,

    /// Most interference combinations per thread and round in the flow-sensitive modes; past
    /// it, that thread's shared loads read the join of all stores (sound, less precise).
    #[arg(long, value_name = "N", default_value_t = crate::config::DEFAULT_MAX_COMBINATIONS)]
    pub max_combinations: usize,

    /// Print the lowered watts IR instead of analysing (for debugging watts).
    #[arg(long)]
    pub dump_ir: bool,
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
    /// Resolves defaults, `WATTS_CLANG` and `--color auto`, and rejects what is not implemented
    /// yet. The error is the message for `error: ...` (a usage error, exit status 2).
    pub fn to_config(self) -> Result<Config, String> {
        let mode = self.mode.map_or(DEFAULT_MODE, Mode::from);
        let domain = DomainKind::from(self.domain);
        let format = Format::from(self.format);
        check("--mode", mode, IMPLEMENTED_MODES, |m| m.name())?;
        check("--domain", domain, IMPLEMENTED_DOMAINS, |d| d.name())?;
        check("--format", format, IMPLEMENTED_FORMATS, format_name)?;
        // Checked here too (the front end would say the same later) so that a typo costs no
        // clang run over the other inputs.
        if let Some(missing) = self.files.iter().find(|p| !p.exists()) {
            return Err(InputError::MissingFile(missing.clone()).to_string());
        }
        let clang = self.clang.or_else(|| {
            std::env::var_os(CLANG_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        });
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
        let mut config = Config::new(self.files);
        config.clang = clang;
        config.clang_args = self.clang_args;
        config.mode = mode;
        config.domain = domain;
        config.max_combinations = self.max_combinations;
        config.format = format;
        config.verbose = self.verbose;
        config.color = color;
        Ok(config)
    }
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
    use clap::CommandFactory;

    /// Parses `watts analyze ARGS` (with an input that exists) into a config.
    fn config(args: &[&str]) -> Result<Config, String> {
        let input = env!("CARGO_MANIFEST_DIR");
        let argv = ["watts", "analyze"].iter().chain(args).chain([&input]);
        let Command::Analyze(a) = Cli::try_parse_from(argv)
            .map_err(|e| e.to_string())?
            .command;
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
        ])
        .expect("valid");
        assert!(c.verbose && c.color);
        assert_eq!(c.format, Format::Gnu);
        assert_eq!(c.clang, Some(PathBuf::from("/opt/clang")));
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
        let r = config(&["--mode", "optimized"]).map(|_| ());
        let want = "--mode optimized is not implemented yet (available: flow-insensitive)";
        assert_eq!(r, Err(want.to_string()));
        let r = config(&["--domain", "octagon"]).map(|_| ());
        let want = "--domain octagon is not implemented yet (available: interval)";
        assert_eq!(r, Err(want.to_string()));
    }

    #[test]
    fn missing_input_is_reported() {
        let argv = ["watts", "analyze", "/no/such/input.c"];
        let Command::Analyze(a) = Cli::try_parse_from(argv).expect("parses").command;
        assert_eq!(
            a.to_config().map(|_| ()),
            Err("no such file: /no/such/input.c".to_string())
        );
    }
}
