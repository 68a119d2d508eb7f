//! The command line: [`Cli`] is what the user typed (clap, [`args`]), [`AnalyzeArgs::to_config`]
//! ([`resolve`]) turns it into a validated [`Config`](crate::Config) with every default
//! resolved.
//!
//! Invariant: a `Config` that comes out of here names only implemented modes, domains and
//! formats; the lists of what is implemented live in the constants of [`args`] and nowhere else.
//!
//! Resolved here: the defaults (from `limits`), the project (`project`: `watts.toml` or a
//! compilation database), the clang to run (`--clang`, else `WATTS_CLANG`), the solver of
//! `--strategy symbolic` (`WATTS_Z3`), the debugging output (`WATTS_TRACE`, `WATTS_SYM_DEBUG`),
//! `--color auto` (`NO_COLOR`, `TERM`), the progress delay (`WATTS_PROGRESS_AFTER_MS`) and the
//! harness spec of `--init`/`--entry`. No other module reads an environment variable
//! (`tests/layering.rs`, rule `env`).
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

pub mod args;
pub mod resolve;

pub use args::*;
