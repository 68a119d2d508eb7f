//! The command line: [`Cli`] is what the user typed (clap, [`args`]), [`AnalyzeArgs::to_config`]
//! ([`resolve`]) turns it into a validated [`Config`](crate::Config) with every default and
//! environment variable resolved.
//!
//! Invariant: a `Config` that comes out of here names only implemented modes, domains and
//! formats; the lists of what is implemented live in the constants of [`args`] and nowhere else.

pub mod args;
pub mod resolve;

pub use args::*;
