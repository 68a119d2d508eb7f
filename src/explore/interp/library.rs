//! How the interpreter treats the functions a call may run: a body, or a declared function
//! executed as its row of the library table says (`ir::lib::Props::run`).

use crate::ir::lib::Run;

/// How the interpreter treats a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    /// Defined in the program: its body runs.
    Defined,
    /// Only declared: executed as the library table says (`Run::Unknown` for a function the
    /// table does not know).
    Lib(Run),
    /// `setjmp` and every function that may return twice (`Program::returns_twice`): not
    /// executed, the execution is abandoned.
    ReturnsTwice,
}

pub(super) fn classify(f: &crate::ir::Function) -> Ext {
    if f.is_defined {
        return Ext::Defined;
    }
    Ext::Lib(f.library_props().map_or(Run::Unknown, |p| p.run))
}
