//! Project input: a clang compilation database (`compile_commands.json`) and the `watts.toml`
//! project file. Both only produce inputs and flags for [`crate::Config`]; nothing here runs
//! clang.

pub mod compile_commands;
pub mod gate;
pub mod manifest;

pub use compile_commands::Unit;
pub use manifest::{Manifest, Project};
