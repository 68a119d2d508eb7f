//! The front end: runs clang, loads LLVM IR with inkwell, and lowers it once into [`crate::ir`].
//!
//! Invariant: the only module that imports inkwell or llvm-sys; everything it returns is plain data.
//!
//! - `clang`: finding clang-19 and compiling C to bitcode.
//! - `load`: parsing, verifying and linking the inputs; mem2reg; debug-info format.
//! - `ir_check`: reading each untrusted IR input (`.ll`, `.bc`) in a child process first.
//! - `lower`, `lower_inst`, `calls`, `asserts`: lowering functions, instructions, calls and
//!   assertion sites.
//! - `consts`, `layout`, `debuginfo`: constants and initializers, type layouts, spans and names.
//! - `field_names`, `signedness`: struct field names and the signedness of C integer types,
//!   from the debug info (display only).
//! - `ffi`: small handles over llvm-sys references.
//! - [`dump`]: a readable text form of the result.

mod asserts;
mod calls;
mod clang;
mod consts;
mod debuginfo;
mod dump;
mod ffi;
mod field_names;
mod ir_check;
mod layout;
mod load;
mod lower;
mod lower_inst;
mod signedness;
#[cfg(test)]
mod tests;

pub use dump::dump;

use crate::config::Config;
use crate::error::InputError;
use crate::ir::Program;

/// The version of the LLVM library watts is linked with (`(19, 1, 7)`), as LLVM reports it.
pub fn llvm_version() -> (u32, u32, u32) {
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    // SAFETY: writes three integers; no other effect.
    unsafe { llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    (major, minor, patch)
}

/// The first argument of the child process that reads an IR input (`.ll`, `.bc`) before watts
/// does: `watts __watts-read-ir NAME`, the input's bytes on stdin. See [`read_ir_child`].
pub const READ_IR_ARG: &str = ir_check::CHILD_ARG;

/// Makes every IR input be read first by a child process running `exe` (the watts binary) with
/// [`READ_IR_ARG`]; a child that rejects the input, crashes or runs out of time makes it an
/// input error. Without it (library use), IR inputs are read in-process only.
pub fn read_ir_in_child_processes(exe: std::path::PathBuf) {
    ir_check::register(exe);
}

/// The child process: reads an IR input named `name` from stdin as `load` would and returns
/// the exit status (0 read, 2 rejected, with LLVM's message on stderr).
pub fn read_ir_child(name: &std::path::Path) -> u8 {
    ir_check::child_main(name, load::read_ir_alone)
}

/// The major LLVM version clang must have (the one watts links with).
pub const LLVM_MAJOR: u32 = clang::LLVM_MAJOR;

/// Compiles (if needed), loads and lowers every input of `config` into one program.
pub fn load(config: &Config) -> Result<Program, InputError> {
    let context = inkwell::context::Context::create();
    let mut notes = Vec::new();
    let module = load::load_module(&context, config, &mut notes)?;
    crate::budget::check("loading the LLVM module")?;
    let mut program = lower::lower_module(&module, crate::confine::SourceRoots::of(config));
    crate::budget::check("lowering the program")?;
    program.frontend_notes = notes;
    Ok(program)
}
