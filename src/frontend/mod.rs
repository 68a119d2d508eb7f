//! The front end: runs clang, loads LLVM IR with inkwell, and lowers it once into [`crate::ir`].
//!
//! Invariant: the only module that imports inkwell or llvm-sys; everything it returns is plain data.
//!
//! - `clang`: finding clang-19 and compiling C to bitcode.
//! - `load`: parsing, verifying and linking the inputs; mem2reg; debug-info format.
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

/// The major LLVM version clang must have (the one watts links with).
pub const LLVM_MAJOR: u32 = clang::LLVM_MAJOR;

/// Compiles (if needed), loads and lowers every input of `config` into one program.
pub fn load(config: &Config) -> Result<Program, InputError> {
    let context = inkwell::context::Context::create();
    let mut notes = Vec::new();
    let module = load::load_module(&context, config, &mut notes)?;
    crate::budget::check("loading the LLVM module")?;
    let mut program = lower::lower_module(&module);
    crate::budget::check("lowering the program")?;
    program.frontend_notes = notes;
    Ok(program)
}
