//! Lowering of single instructions and terminators (calls are in `calls`).

use llvm_sys::{LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};

use super::ffi::Val;
use super::layout::{cast_width, const_int, gep_offsets, is_vector, layout_of, ty_of};
use super::lower::{Flow, FnLower};
use crate::ir::{
    BinOp, CastOp, CmpPred, Inst, InstKind, Layout, ObjId, Object, ObjectKind, Operand, RmwOp,
    Span, StopReason, Terminator, Ty,
};

impl FnLower<'_> {
    /// `Havoc` of an instruction's result (if any).
    pub fn havoc(
        &mut self,
        inst: Val,
        clobbers_memory: bool,
        reason: impl Into<String>,
    ) -> InstKind {
        InstKind::Havoc {
            dst: self.result(inst),
            clobbers_memory,
            reason: reason.into(),
        }
    }

    /// Lowers a non-terminator, non-phi instruction into `out`.
    pub fn lower_inst(&mut self, inst: Val, out: &mut Vec<InstKind>) -> Flow {
        use LLVMOpcode::*;
        let op = inst.opcode();
        let ty = inst.ty();
        match op {
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor => {
                let Ty::Int(bits) = ty_of(ty) else {
                    out.push(self.havoc(
                        inst,
                        false,
                        format!("{} on {} is not modelled", opname(op), ty.print()),
                    ));
                    return Flow::Next;
                };
                let bin = match op {
                    LLVMAdd => BinOp::Add,
                    LLVMSub => BinOp::Sub,
                    LLVMMul => BinOp::Mul,
                    LLVMUDiv => BinOp::UDiv,
                    LLVMSDiv => BinOp::SDiv,
                    LLVMURem => BinOp::URem,
                    LLVMSRem => BinOp::SRem,
                    LLVMShl => BinOp::Shl,
                    LLVMLShr => BinOp::LShr,
                    LLVMAShr => BinOp::AShr,
                    LLVMAnd => BinOp::And,
                    LLVMOr => BinOp::Or,
                    _ => BinOp::Xor,
                };
                let (a, b) = (self.op(inst.operand(0)), self.op(inst.operand(1)));
                out.push(InstKind::Bin {
                    dst: self.var(inst),
                    op: bin,
                    a,
                    b,
                    bits,
                });
            }
            LLVMFNeg | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFRem | LLVMFCmp => {
                out.push(self.havoc(inst, false, "floating-point arithmetic is not modelled"));
            }
            LLVMICmp => {
                let at = inst.operand(0).ty();
                let bits = match ty_of(at) {
                    Ty::Int(b) => b,
                    Ty::Ptr => 0,
                    Ty::Other => {
                        out.push(self.havoc(inst, false, "vector comparison is not modelled"));
                        return Flow::Next;
                    }
                };
                let pred = match inst.icmp_predicate() {
                    LLVMIntPredicate::LLVMIntEQ => CmpPred::Eq,
                    LLVMIntPredicate::LLVMIntNE => CmpPred::Ne,
                    LLVMIntPredicate::LLVMIntUGT => CmpPred::Ugt,
                    LLVMIntPredicate::LLVMIntUGE => CmpPred::Uge,
                    LLVMIntPredicate::LLVMIntULT => CmpPred::Ult,
                    LLVMIntPredicate::LLVMIntULE => CmpPred::Ule,
                    LLVMIntPredicate::LLVMIntSGT => CmpPred::Sgt,
                    LLVMIntPredicate::LLVMIntSGE => CmpPred::Sge,
                    LLVMIntPredicate::LLVMIntSLT => CmpPred::Slt,
                    LLVMIntPredicate::LLVMIntSLE => CmpPred::Sle,
                };
                let (a, b) = (self.op(inst.operand(0)), self.op(inst.operand(1)));
                out.push(InstKind::Cmp {
                    dst: self.var(inst),
                    pred,
                    a,
                    b,
                    bits,
                });
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMPtrToInt | LLVMIntToPtr | LLVMFPToUI
            | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc | LLVMFPExt => {
                let src_v = inst.operand(0);
                if is_vector(ty) || is_vector(src_v.ty()) {
                    self.expose_operands(inst, out);
                    out.push(self.havoc(inst, false, "vector conversion is not modelled"));
                    return Flow::Next;
                }
                let cop = match op {
                    LLVMTrunc => CastOp::Trunc,
                    LLVMZExt => CastOp::ZExt,
                    LLVMSExt => CastOp::SExt,
                    LLVMPtrToInt => CastOp::PtrToInt,
                    LLVMIntToPtr => CastOp::IntToPtr,
                    _ => CastOp::Other,
                };
                out.push(self.cast(inst, cop));
            }
            LLVMBitCast | LLVMAddrSpaceCast | LLVMFreeze => {
                let src_v = inst.operand(0);
                let st = src_v.ty();
                let same = st == ty
                    || (st.kind() == LLVMTypeKind::LLVMPointerTypeKind
                        && ty.kind() == LLVMTypeKind::LLVMPointerTypeKind);
                if same {
                    out.push(InstKind::Copy {
                        dst: self.var(inst),
                        src: self.op(src_v),
                    });
                } else {
                    out.push(self.cast(inst, CastOp::Other));
                }
            }
            LLVMSelect => {
                if is_vector(inst.operand(0).ty()) {
                    out.push(self.havoc(inst, false, "vector select is not modelled"));
                    return Flow::Next;
                }
                let (c, t, f) = (
                    self.op(inst.operand(0)),
                    self.op(inst.operand(1)),
                    self.op(inst.operand(2)),
                );
                out.push(InstKind::Select {
                    dst: self.var(inst),
                    cond: c,
                    t,
                    f,
                });
            }
            LLVMGetElementPtr => out.push(self.gep(inst)),
            LLVMAlloca => out.push(self.alloca(inst)),
            LLVMLoad => {
                let size = self.cx.syms.dl.store_size(ty);
                let ptr = self.op(inst.operand(0));
                out.push(InstKind::Load {
                    dst: self.var(inst),
                    ptr,
                    ty: ty_of(ty),
                    size: u32::try_from(size).unwrap_or(u32::MAX),
                    order: inst.memory_order(),
                });
            }
            LLVMStore => {
                let v = inst.operand(0);
                let size = self.cx.syms.dl.store_size(v.ty());
                out.push(InstKind::Store {
                    ptr: self.op(inst.operand(1)),
                    val: self.op(v),
                    ty: ty_of(v.ty()),
                    size: u32::try_from(size).unwrap_or(u32::MAX),
                    order: inst.memory_order(),
                });
            }
            LLVMAtomicRMW => {
                use LLVMAtomicRMWBinOp::*;
                let rop = match inst.rmw_op() {
                    LLVMAtomicRMWBinOpXchg => RmwOp::Xchg,
                    LLVMAtomicRMWBinOpAdd => RmwOp::Add,
                    LLVMAtomicRMWBinOpSub => RmwOp::Sub,
                    LLVMAtomicRMWBinOpAnd => RmwOp::And,
                    LLVMAtomicRMWBinOpNand => RmwOp::Nand,
                    LLVMAtomicRMWBinOpOr => RmwOp::Or,
                    LLVMAtomicRMWBinOpXor => RmwOp::Xor,
                    LLVMAtomicRMWBinOpMax => RmwOp::Max,
                    LLVMAtomicRMWBinOpMin => RmwOp::Min,
                    LLVMAtomicRMWBinOpUMax => RmwOp::UMax,
                    LLVMAtomicRMWBinOpUMin => RmwOp::UMin,
                    _ => RmwOp::Other,
                };
                let v = inst.operand(1);
                let (rop, bits) = match ty_of(v.ty()) {
                    Ty::Int(b) => (rop, b),
                    Ty::Ptr => (rop, 0),
                    // Float exchange: stores a value the analysis does not track.
                    Ty::Other => (RmwOp::Other, 0),
                };
                let (ptr, val) = (self.op(inst.operand(0)), self.op(v));
                out.push(InstKind::AtomicRmw {
                    dst: self.var(inst),
                    op: rop,
                    ptr,
                    val,
                    bits,
                    order: inst.memory_order(),
                });
            }
            LLVMAtomicCmpXchg => {
                let (old, ok) = match self.cmpxchg.get(&inst) {
                    Some(&p) => p,
                    None => (self.fresh_var(Ty::Other), self.fresh_var(Ty::Int(1))),
                };
                let bits = match ty_of(inst.operand(1).ty()) {
                    Ty::Int(b) => b,
                    _ => 0,
                };
                out.push(InstKind::CmpXchg {
                    old,
                    ok,
                    ptr: self.op(inst.operand(0)),
                    expected: self.op(inst.operand(1)),
                    new: self.op(inst.operand(2)),
                    bits,
                    order: inst.cmpxchg_order(),
                });
            }
            LLVMExtractValue => {
                let agg = inst.operand(0);
                let idx = inst.indices();
                if let (Some(&(old, ok)), [k]) = (self.cmpxchg.get(&agg), idx.as_slice()) {
                    let src = match k {
                        0 => Some(old),
                        1 => Some(ok),
                        _ => None,
                    };
                    if let Some(src) = src {
                        out.push(InstKind::Copy {
                            dst: self.var(inst),
                            src: Operand::Var(src),
                        });
                        return Flow::Next;
                    }
                }
                out.push(self.havoc(inst, false, "aggregate values are not modelled"));
            }
            // Soundness: a pointer put into an aggregate or vector value comes out of it (or of
            // the memory it is stored into) as an unknown value; its targets are exposed so
            // that the unknown pointer covers them.
            LLVMInsertValue => {
                self.expose_operands(inst, out);
                out.push(self.havoc(inst, false, "aggregate values are not modelled"))
            }
            LLVMExtractElement | LLVMInsertElement | LLVMShuffleVector => {
                self.expose_operands(inst, out);
                out.push(self.havoc(inst, false, "vector operations are not modelled"))
            }
            LLVMFence => {}
            LLVMVAArg => out.push(self.havoc(inst, true, "va_arg is not modelled")),
            LLVMCall => return self.lower_call(inst, out),
            LLVMLandingPad | LLVMCatchPad | LLVMCleanupPad => {
                out.push(self.havoc(inst, true, "exception handling is not modelled"))
            }
            _ => {
                self.expose_operands(inst, out);
                out.push(self.havoc(
                    inst,
                    true,
                    format!("instruction {} is not modelled", opname(op)),
                ))
            }
        }
        Flow::Next
    }

    /// Exposes the pointer operands of an instruction lowered to `Havoc` (see
    /// `expose_pointer_args`).
    fn expose_operands(&mut self, inst: Val, out: &mut Vec<InstKind>) {
        let ops: Vec<Val> = (0..inst.num_operands()).map(|i| inst.operand(i)).collect();
        self.expose_pointer_args(&ops, out);
    }

    fn cast(&mut self, inst: Val, op: CastOp) -> InstKind {
        let dl = self.cx.syms.dl;
        let src_v = inst.operand(0);
        InstKind::Cast {
            dst: self.var(inst),
            op,
            src: self.op(src_v),
            from: cast_width(src_v.ty(), dl),
            to: cast_width(inst.ty(), dl),
        }
    }

    fn gep(&mut self, inst: Val) -> InstKind {
        let base = inst.operand(0);
        if is_vector(inst.ty()) {
            return self.havoc(inst, false, "vector getelementptr is not modelled");
        }
        let idx: Vec<Val> = (1..inst.num_operands()).map(|i| inst.operand(i)).collect();
        match gep_offsets(inst.gep_source_type(), &idx, self.cx.syms.dl) {
            Some(g) => {
                let indices = g.variable.iter().map(|&(v, s)| (self.op(v), s)).collect();
                InstKind::Gep {
                    dst: self.var(inst),
                    base: self.op(base),
                    offset: g.offset,
                    indices,
                }
            }
            // The result may point anywhere the base may: still a pointer of unknown offset.
            None => self.havoc(inst, false, "getelementptr over unsized or vector types"),
        }
    }

    fn alloca(&mut self, inst: Val) -> InstKind {
        let dl = self.cx.syms.dl;
        let at = inst.allocated_type();
        let elem = layout_of(at, dl, &self.cx.syms.field_names);
        let count = inst.operand(0);
        let mut layout = match const_int(count) {
            Some((1, _)) => elem,
            Some((n, _)) => elem.map(|e| Layout::Array {
                elem: Box::new(e),
                stride: dl.alloc_size(at),
                count: u64::try_from(n).unwrap_or(0),
            }),
            None => elem.map(|e| Layout::Array {
                elem: Box::new(e),
                stride: dl.alloc_size(at),
                count: 0,
            }),
        };
        let (var_name, span) = match self.names.declared.get(&inst).cloned() {
            Some((var, decl)) => {
                if let Some(l) = &mut layout {
                    l.set_sign(var.sign);
                }
                (var.name, self.span(decl).or_else(|| self.span(inst)))
            }
            None => {
                let n = inst.name();
                let n = if n.is_empty() {
                    format!("tmp{}", self.var(inst).0)
                } else {
                    n
                };
                (n, self.span(inst))
            }
        };
        let obj = ObjId::from(self.cx.program.objects.len());
        self.cx.program.objects.push(Object {
            kind: ObjectKind::Stack(self.fid),
            name: format!("{}::{}", self.fname, var_name),
            layout,
            span,
        });
        InstKind::Alloca {
            dst: self.var(inst),
            obj,
        }
    }

    /// Lowers a terminator; extra instructions (the call of an `invoke`) go to `insts`.
    pub fn lower_terminator(
        &mut self,
        inst: Val,
        insts: &mut Vec<Inst>,
        span: Option<Span>,
    ) -> Terminator {
        use LLVMOpcode::*;
        let op = inst.opcode();
        match op {
            LLVMRet => {
                if inst.num_operands() == 0 {
                    Terminator::Ret(None)
                } else {
                    Terminator::Ret(Some(self.op(inst.operand(0))))
                }
            }
            LLVMBr => {
                let succ = inst.successors();
                if inst.is_conditional() && succ.len() == 2 {
                    Terminator::CondBr {
                        cond: self.op(inst.condition()),
                        then_: self.block(succ[0]),
                        else_: self.block(succ[1]),
                    }
                } else {
                    match succ.first() {
                        Some(&s) => Terminator::Br(self.block(s)),
                        None => Terminator::Stop {
                            reason: StopReason::Unreachable,
                        },
                    }
                }
            }
            LLVMSwitch => {
                // (LLVMGetCondition only accepts `br`.)
                let v = inst.operand(0);
                let bits = match ty_of(v.ty()) {
                    Ty::Int(b) => b,
                    _ => 0,
                };
                let default = self.block(inst.switch_default());
                let succ = inst.successors();
                let mut cases = Vec::new();
                for (i, &s) in succ.iter().enumerate().skip(1) {
                    let target = self.block(s);
                    match const_int(inst.operand(2 * i as u32)) {
                        Some((c, _)) => cases.push((c, target)),
                        // Cannot happen for a verified switch; stay conservative.
                        None => return self.any_successor(inst, insts, span, "switch case"),
                    }
                }
                Terminator::Switch {
                    value: self.op(v),
                    bits,
                    cases,
                    default,
                }
            }
            LLVMUnreachable => Terminator::Stop {
                reason: StopReason::Unreachable,
            },
            LLVMInvoke | LLVMCallBr => {
                let mut out = Vec::new();
                let flow = self.lower_call(inst, &mut out);
                insts.extend(out.into_iter().map(|kind| Inst { kind, span }));
                match flow {
                    Flow::End(term) => term,
                    Flow::Next => self.successor_switch(inst),
                }
            }
            LLVMIndirectBr => self.any_successor(inst, insts, span, "indirectbr"),
            LLVMResume => {
                // Unwinding to the caller: model it as a return of an unknown value.
                let reason = "exception unwinding is modelled as a return".to_string();
                insts.push(Inst {
                    kind: InstKind::Havoc {
                        dst: None,
                        clobbers_memory: true,
                        reason,
                    },
                    span,
                });
                self.unknown_return()
            }
            _ => self.any_successor(inst, insts, span, &opname(op)),
        }
    }

    /// A havoc note plus a jump to any successor (or a return when there is none).
    fn any_successor(
        &mut self,
        inst: Val,
        insts: &mut Vec<Inst>,
        span: Option<Span>,
        what: &str,
    ) -> Terminator {
        let reason = format!("{what} is modelled as a jump to any successor");
        insts.push(Inst {
            kind: InstKind::Havoc {
                dst: None,
                clobbers_memory: true,
                reason,
            },
            span,
        });
        if inst.successors().is_empty() {
            return self.unknown_return();
        }
        self.successor_switch(inst)
    }

    /// A switch on an unknown value over every successor of `inst`.
    fn successor_switch(&mut self, inst: Val) -> Terminator {
        let succ: Vec<_> = inst
            .successors()
            .into_iter()
            .map(|s| self.block(s))
            .collect();
        match succ.as_slice() {
            [] => Terminator::Stop {
                reason: StopReason::Unreachable,
            },
            [one] => Terminator::Br(*one),
            [rest @ .., last] => Terminator::Switch {
                value: Operand::Unknown(Ty::Int(32)),
                bits: 32,
                cases: rest
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| (i as i128, b))
                    .collect(),
                default: *last,
            },
        }
    }

    fn unknown_return(&mut self) -> Terminator {
        Terminator::Ret(self.ret_ty.map(Operand::Unknown))
    }
}

/// The IR spelling of an opcode (`LLVMAdd` is `add`).
fn opname(op: LLVMOpcode) -> String {
    let s = format!("{op:?}");
    s.strip_prefix("LLVM").unwrap_or(&s).to_lowercase()
}
