//! The shadow of control flow: the branches, switches, assertions and assumptions a symbolic
//! value decides join the deciding thread's path condition.
//!
//! Invariant: a branch is recorded only when its condition is symbolic, with the direction the
//! execution took; it is flippable only when the other direction is an execution that goes on.

use super::super::memory::Value;
use super::super::{Interp, State};
use crate::explore::symbolic::expr;
use crate::explore::Tid;
use crate::ir::{
    AssertId, BinOp, BlockId, Callee, CmpPred, FuncId, Inst, InstKind, Operand, Terminator,
};

impl Interp<'_> {
    /// Thread `t`'s terminator is about to branch on a symbolic value: records the branch.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_term(&self, s: &mut State, t: Tid) {
        let fr = self.top(s, t);
        let (func, block) = (fr.func, fr.block);
        let b = &self.program.funcs[func.index()].blocks[block.index()];
        let site = (func.index() as u64) << 40 | (block.index() as u64) << 20 | 0xf_ffff;
        match &b.term {
            Terminator::CondBr { cond, then_, else_ } => {
                let (Some(e), Value::Int { v, .. }) =
                    (self.sh_sym(s, t, cond), self.eval(s, t, cond))
                else {
                    return;
                };
                let taken = v != 0;
                let other = if taken { *else_ } else { *then_ };
                let leads = self.leads_to(func, other);
                let c = expr::compare(CmpPred::Ne, e.clone(), expr::konst(0, e.bits()));
                self.sh_branch(s, t, c, taken, true, site, leads);
            }
            Terminator::Switch {
                value, bits, cases, ..
            } => {
                let (Some(e), Value::Int { v, .. }) =
                    (self.sh_sym(s, t, value), self.eval(s, t, value))
                else {
                    return;
                };
                let k = |c: i128| expr::konst(c as u128, *bits);
                let c = match cases
                    .iter()
                    .find(|(c, _)| expr::mask(*c as u128, *bits) == v)
                {
                    Some((c, _)) => expr::compare(CmpPred::Eq, e.clone(), k(*c)),
                    None => cases.iter().fold(expr::konst(1, 1), |acc, (c, _)| {
                        let ne = expr::compare(CmpPred::Ne, e.clone(), k(*c));
                        expr::binop(BinOp::And, acc, ne, 1)
                    }),
                };
                self.sh_branch(s, t, c, true, true, site, None);
            }
            Terminator::Br(_) | Terminator::Ret(_) | Terminator::Stop { .. } => {}
        }
    }

    /// Before thread `t` executes `inst`: an assertion or assumption decided by a symbolic
    /// value joins the path condition (before it may end the execution).
    #[cold]
    #[inline(never)]
    pub(super) fn sh_decides(&self, s: &mut State, t: Tid, inst: &Inst) {
        use InstKind::*;
        match &inst.kind {
            Assert { id, cond: Some(c) } => self.sh_check(s, t, c, Some(*id)),
            Assume { cond } => self.sh_check(s, t, cond, None),
            // Reaching the instruction is the failure: nothing decides it.
            Assert { cond: None, .. } => {}
            Bin { .. } | Cmp { .. } | Cast { .. } | Select { .. } | Copy { .. } | Gep { .. } => {}
            Alloca { .. } | HeapAlloc { .. } | Load { .. } | Store { .. } | AtomicRmw { .. } => {}
            CmpXchg { .. } | MemSet { .. } | MemCopy { .. } | Call { .. } | Nondet { .. } => {}
            ThreadCreate { .. } | ThreadJoin { .. } | Lock { .. } | Unlock { .. } => {}
            AtomicBegin | AtomicEnd | Havoc { .. } => {}
        }
    }

    /// An `assert` or `assume` whose condition is symbolic: the branch it decides.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_check(&self, s: &mut State, t: Tid, cond: &Operand, assert: Option<AssertId>) {
        let (Some(e), Value::Int { v, .. }) = (self.sh_sym(s, t, cond), self.eval(s, t, cond))
        else {
            return;
        };
        let holds = v != 0;
        let c = expr::compare(CmpPred::Ne, e.clone(), expr::konst(0, e.bits()));
        let site = self.sh_site(s, t);
        // A failed assertion ends the execution; an assumption that held cannot fail in an
        // execution that goes on, but one that failed is worth making true.
        let flippable = match assert {
            Some(_) => holds,
            None => !holds,
        };
        self.sh_branch(s, t, c, holds, flippable, site, assert);
    }

    /// The assertion that fails soon after entering `block` of `func` (a few unconditional
    /// jumps and calls of functions that fail an assertion), if any.
    pub(super) fn leads_to(&self, func: FuncId, mut block: BlockId) -> Option<AssertId> {
        let f = &self.program.funcs[func.index()];
        for _ in 0..6 {
            let b = &f.blocks[block.index()];
            for i in &b.insts {
                if let Some(id) = assertion(&i.kind) {
                    return Some(id);
                }
                if let InstKind::Call {
                    callee: Callee::Direct(g),
                    ..
                } = &i.kind
                {
                    let g = &self.program.funcs[g.index()];
                    let inner =
                        (g.blocks.iter().flat_map(|b| &b.insts)).find_map(|i| assertion(&i.kind));
                    if inner.is_some() {
                        return inner;
                    }
                }
            }
            // Only an unconditional jump surely leads on.
            let Terminator::Br(n) = b.term else {
                return None;
            };
            block = n;
        }
        None
    }
}

/// The assertion `kind` is, if it is one.
fn assertion(kind: &InstKind) -> Option<AssertId> {
    if let InstKind::Assert { id, .. } = kind {
        Some(*id)
    } else {
        None
    }
}
