//! Files from a pull request never run code, write files or leak secrets (issue 33): one
//! reproducer per way an untrusted file (`watts.toml`, a compile database, a file name, a
//! `#line` directive, a witness, a bitcode file) could make watts run, read or write more than
//! the user asked for. Each checks that the payload did not run (the marker file it would
//! write stays absent), that nothing was written outside the asked directories, that the
//! report does not carry the planted secret, and the exit status with its message.

#[path = "../common/mod.rs"]
mod common;

mod budgets;
mod clang_args;
mod ir_inputs;
mod reads_and_writes;
