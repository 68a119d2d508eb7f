//! Errors caused by the input (exit status 2). Internal errors are bugs and exit with 3.

use std::fmt;
use std::path::PathBuf;

/// Why an input could not be analysed.
#[derive(Debug)]
pub enum InputError {
    /// The file does not exist.
    MissingFile(PathBuf),
    /// The file exists but could not be read.
    Unreadable(PathBuf, std::io::Error),
    /// No usable clang was found.
    ClangNotFound(String),
    /// clang rejected the program; `diagnostics` is what it printed.
    CompileFailed {
        /// The input.
        path: PathBuf,
        /// clang's stderr.
        diagnostics: String,
    },
    /// LLVM could not parse the IR or bitcode.
    InvalidIr {
        /// The input.
        path: PathBuf,
        /// LLVM's message.
        message: String,
    },
    /// The file type is not one watts reads.
    UnknownFileType(PathBuf),
    /// There is nothing to analyse: no `main` and no thread.
    NoEntryPoint,
    /// The mode or domain is not implemented yet.
    Unsupported(String),
    /// A project file (`compile_commands.json`, `watts.toml`) is invalid.
    Project {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The harness cannot be built (`--entry`/`--init` names no defined function, ...).
    Harness(String),
    /// The baseline file cannot be read.
    Baseline {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::MissingFile(p) => write!(f, "no such file: {}", p.display()),
            InputError::Unreadable(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            InputError::ClangNotFound(why) => write!(f, "cannot run clang: {why}"),
            InputError::CompileFailed { path, diagnostics } => write!(
                f,
                "clang could not compile {}:\n{}",
                path.display(),
                diagnostics.trim_end()
            ),
            InputError::InvalidIr { path, message } => {
                write!(
                    f,
                    "invalid LLVM input {}: {}",
                    path.display(),
                    message.trim_end()
                )
            }
            InputError::UnknownFileType(p) => write!(
                f,
                "cannot analyse {}: expected a .c, .i, .ll or .bc file",
                p.display()
            ),
            InputError::NoEntryPoint => write!(
                f,
                "nothing to analyse: the program has no `main` function; for driver code, name its \
                 entry points with `--entry FN` (and `--init FN`)"
            ),
            InputError::Unsupported(what) => write!(f, "{what}"),
            InputError::Project { path, message } => {
                write!(f, "invalid project file {}: {message}", path.display())
            }
            InputError::Harness(message) => write!(f, "cannot build the harness: {message}"),
            InputError::Baseline { path, message } => {
                write!(f, "cannot use the baseline {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for InputError {}
