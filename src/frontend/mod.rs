//! The front end: runs clang, loads LLVM IR with inkwell, and lowers it once into [`crate::ir`].
//!
//! Invariant: the only module that imports inkwell or llvm-sys; everything it returns is plain data.
//!
//! - `clang`: finding clang-19 and compiling C to bitcode.
//! - `load`: parsing, verifying and linking the inputs; mem2reg; debug-info format.
//! - `ir_check`: reading each untrusted IR input (`.ll`, `.bc`) in a child process first.
//! - `lower`, `lower_inst`, `calls`, `asserts`: lowering functions, instructions, calls and
//!   assertion sites.
//! - `library`: the classifier of library functions (`Function::lib`, rows of `ir::lib`).
//! - `consts`, `layout`, `debuginfo`: constants and initializers, type layouts, spans and names.
//! - `field_names`, `signedness`: struct field names and the signedness of C integer types,
//!   from the debug info (display only).
//! - `ffi`: small handles over llvm-sys references.
//! - [`dump`]: a readable text form of the result.
//!
//! What the pipeline is: find and run clang-19 (per-unit flags from `Config::units`), load
//! `.ll`/`.bc` with inkwell (each first read by a child process, `ir_check`), link several inputs,
//! run mem2reg in process, lower the module into `ir::Program`, and hand over the notes
//! (`Program::frontend_notes`, which `watts::run` adds to the report).
//!
//! Library calls of threads, assertions, nondeterminism, locks and allocation are recognised here
//! (`calls`) and become `InstKind`s; other library functions are still matched by name in later
//! stages (`memory::points_to`'s tables, `analysis::sync::locks`, `analysis::races::touch`,
//! `facts::ends`, `harness::keys`, `explore::interp::library`). One table of the C library,
//! classified once here, is issue 34's goal (`ir::lib`).
//!
//! Invariant: what the analysis cannot model becomes `InstKind::Havoc` or `Operand::Unknown`, never
//! a dropped instruction. Inline asm is a `Havoc` that clobbers every exposed cell, after the
//! exposure of its pointer operands and of the symbols its text names: the model of a call to an
//! unknown function.
//!
//! Invariant: an address the lowering turns into a value the analysis does not track is exposed:
//! constants in `Program::hidden_addrs` (under `ptrtoint` or another untracked constant expression,
//! in code or initialisers, or named by inline asm text), and, as a `ptrtoint` into a fresh var,
//! the pointer operands of inline asm, of clobbering intrinsics, of aggregate and vector
//! operations, and the argument of `pthread_exit`.
//!
//! Invariant: every walk over debug metadata is iterative with a visited set
//! (`ffi::metadata_nodes`, `load::check_debug_types`) or bounded (`signedness::MAX_DEPTH`, 32, past
//! which a type's signedness is unknown); a cycle of derived types through `baseType` is refused
//! before mem2reg.

mod asserts;
mod calls;
mod clang;
mod consts;
mod debuginfo;
mod dump;
mod ffi;
mod field_names;
mod gcc_attrs;
mod ir_check;
mod layout;
mod library;
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

/// The clang the front end compiles with (`config.clang`, else `clang-19`, else `clang`),
/// checked to be of [`LLVM_MAJOR`]; for other runs of it that must match the front end's (the
/// preprocessing of `--per-program`'s cache keys).
pub fn clang_program(config: &Config) -> Result<std::path::PathBuf, InputError> {
    clang::find(config).map(|c| c.program)
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
