//! Integers that move an address (`movers`): clang moves a C11 atomic pointer (`_Atomic(T *)`
//! with `atomic_load`, `atomic_store`) and a pointer copied through `__atomic_load`'s generic
//! form as a pointer-sized integer: a `load i64` of a pointer's bytes whose value is only
//! stored again (`store i64`, plain or atomic) or turned back into a pointer (`inttoptr`).
//! Such an integer gets the points-to set of the pointer it reads, and its store is a pointer
//! store, instead of exposing the address and losing the pointer.
//!
//! Soundness: a mover's value is never computed with, compared, passed, returned or branched
//! on: it is the loaded bytes, unchanged, at every use. So it names exactly the object of the
//! pointer whose bytes it read (or the bytes an integer store wrote, which `laundered_load`
//! marks `unknown`), and a store of it puts that pointer's bytes back: where the address goes
//! is followed like a pointer's, and no integer that code could turn into another address is
//! made from it.

use crate::ir::{CastOp, Function, InstKind, Operand, Terminator, Ty};

/// The size of the integers that move an address: a pointer's.
use super::POINTER_SIZE;

/// `movers(f)[v]`: whether var `v` of `f` is a mover (see the module header).
pub(super) fn movers(f: &Function) -> Vec<bool> {
    let mut loaded = vec![false; f.vars.len()];
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::Load { dst, ty, size, .. } = &i.kind {
                if *ty != Ty::Ptr && u64::from(*size) == POINTER_SIZE {
                    loaded[dst.index()] = true;
                }
            }
        }
    }
    let mut ok = loaded;
    let mut spoil = |op: &Operand| {
        if let Operand::Var(v) = op {
            ok[v.index()] = false;
        }
    };
    for b in &f.blocks {
        for i in &b.insts {
            match &i.kind {
                // Stored whole: the value of a store of a pointer's size, at an address that
                // is not the mover itself.
                InstKind::Store { ptr, size, .. } if u64::from(*size) == POINTER_SIZE => spoil(ptr),
                InstKind::Cast {
                    op: CastOp::IntToPtr,
                    ..
                } => {}
                kind => kind.for_each_use(&mut spoil),
            }
        }
        match &b.term {
            Terminator::CondBr { cond, .. } => spoil(cond),
            Terminator::Switch { value, .. } => spoil(value),
            Terminator::Ret(Some(op)) => spoil(op),
            Terminator::Ret(None) | Terminator::Br(_) | Terminator::Stop { .. } => {}
        }
    }
    ok
}

/// Whether `op` is a mover of a function whose movers are `m`.
pub(super) fn is_mover(m: &[bool], op: &Operand) -> bool {
    matches!(op, Operand::Var(v) if m.get(v.index()).copied().unwrap_or(false))
}
