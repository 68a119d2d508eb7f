//! Project input: a clang compilation database (`compile_commands.json`) and the `watts.toml`
//! project file. Both only produce inputs and flags for [`crate::Config`]; nothing here compiles:
//! the one clang run is `compile_commands::drop_unknown_flags`, which asks clang once
//! (`-fsyntax-only` on an empty input, nothing written) which kept flags it rejects (the
//! GCC-only machine flags of a GCC build, such as `-mrecord-mcount`) and drops exactly those.
//!
//! `manifest::find` looks for `watts.toml` in the current directory and its ancestors, up to the
//! repository root. `compile_commands` makes relative paths absolute against each entry's directory
//! and refuses a file outside the project.

pub mod compile_commands;
pub mod gate;
pub mod manifest;

pub use compile_commands::Unit;
pub use manifest::{Manifest, Project};
