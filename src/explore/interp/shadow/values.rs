//! The shadow of the instructions that compute values and access memory: the symbolic
//! value of each result, the local cells a store makes symbolic, and the event of each
//! visible access.
//!
//! Invariant: a result the shadow cannot follow is concrete (`None`), and a symbolic value
//! the execution used concretely is pinned (`sh_pin`), never dropped silently.

use super::super::memory::{decode, Ptr, Value};
use super::super::{Interp, State};
use super::sh;
use crate::explore::symbolic::expr::{self, Sym, E};
use crate::explore::symbolic::trace::{EventKind, ThreadTrace, ATOMIC};
use crate::explore::{Loc, Tid};
use crate::ir::{BinOp, CastOp, CmpPred, Inst, InstKind, Operand, Ty, VarId};

impl Interp<'_> {
    /// Before a visible memory access: records what the location held before its first one.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_pre_visible(&self, s: &mut State, t: Tid, inst: &Inst) {
        // A load, a store, an atomic read-modify-write or compare-exchange.
        let Some((access, size)) = self.typed_access(&inst.kind) else {
            return;
        };
        let ptr = access.ptr;
        let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, ptr) else {
            return;
        };
        if (alloc as usize) >= s.mem.len() || size == 0 || size > 16 {
            return;
        }
        let loc = self.sh_loc(s, alloc, off, size);
        if sh(s).trace.base.contains_key(&loc) {
            return;
        }
        let bits = (size * 8) as u32;
        let base = match sh(s).local.get(&(alloc, off)) {
            Some((m, e, _)) if *m == size => Some(e.clone()),
            _ => match s.mem[alloc as usize].read(off, size) {
                Ok(bytes) => match decode(&bytes, Ty::Int(bits), self.program.pointer_size) {
                    Value::Int { v, .. } => Some(expr::konst(v, bits)),
                    _ => None,
                },
                Err(_) => None,
            },
        };
        sh(s).trace.base.insert(loc, base);
    }

    /// After instruction `inst` of thread `t` ran (not a call, whose frames are handled
    /// apart): the symbolic value of its result, its event when `visible`.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_inst(&self, s: &mut State, t: Tid, inst: &Inst, visible: bool) {
        let var_int = |s: &State, d: VarId| match self.top(s, t).vars[d.index()] {
            Value::Int { v, bits } => Some((v, bits)),
            _ => None,
        };
        match &inst.kind {
            InstKind::Bin {
                dst,
                op,
                a,
                b,
                bits,
            } => {
                let sa = self.sh_sym(s, t, a);
                let sb = self.sh_sym(s, t, b);
                let mut r = None;
                if (sa.is_some() || sb.is_some()) && var_int(s, *dst).is_some() {
                    if let (Some(x), Some(mut y)) = (self.sh_val(s, t, a), self.sh_val(s, t, b)) {
                        if let Some(yb) = &sb {
                            if let Value::Int { v, .. } = self.eval(s, t, b) {
                                match op {
                                    BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                                        self.sh_pin(s, t, yb, v);
                                        y = expr::konst(v, *bits);
                                    }
                                    BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => {
                                        let nz = expr::compare(
                                            CmpPred::Ne,
                                            yb.clone(),
                                            expr::konst(0, yb.bits()),
                                        );
                                        let site = self.sh_site(s, t) | 1 << 62;
                                        self.sh_branch(s, t, nz, true, false, site, None);
                                    }
                                    _ => {}
                                }
                            }
                        }
                        if x.bits() == *bits && y.bits() == *bits {
                            r = Some(expr::binop(*op, x, y, *bits));
                        }
                    }
                }
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Cmp {
                dst, pred, a, b, ..
            } => {
                let mut r = None;
                if self.sh_sym(s, t, a).is_some() || self.sh_sym(s, t, b).is_some() {
                    if let (Some(x), Some(y)) = (self.sh_val(s, t, a), self.sh_val(s, t, b)) {
                        if x.bits() == y.bits() && var_int(s, *dst).is_some() {
                            r = Some(expr::compare(*pred, x, y));
                        }
                    }
                }
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Cast {
                dst, op, src, to, ..
            } => {
                let r = match (self.sh_sym(s, t, src), op) {
                    (None, _) => None,
                    (Some(e), CastOp::Trunc | CastOp::ZExt | CastOp::SExt)
                        if var_int(s, *dst).is_some() =>
                    {
                        Some(expr::convert(*op, e, *to))
                    }
                    (Some(e), _) => {
                        if let Value::Int { v, .. } = self.eval(s, t, src) {
                            self.sh_pin(s, t, &e, v);
                        }
                        None
                    }
                };
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Select { dst, cond, t: a, f } => {
                let c = self.eval(s, t, cond);
                let r = match self.sh_sym(s, t, cond) {
                    Some(ec) => match (self.sh_val(s, t, a), self.sh_val(s, t, f)) {
                        (Some(x), Some(y)) if x.bits() == y.bits() => Some(expr::ite(ec, x, y)),
                        _ => {
                            if let Value::Int { v, .. } = c {
                                self.sh_pin(s, t, &ec, v);
                            }
                            None
                        }
                    },
                    None => match c {
                        Value::Int { v, .. } => self.sh_sym(s, t, if v != 0 { a } else { f }),
                        _ => None,
                    },
                };
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Copy { dst, src } => {
                let r = self.sh_sym(s, t, src);
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Gep { dst, indices, .. } => {
                for (i, _) in indices {
                    if let (Some(e), Value::Int { v, .. }) =
                        (self.sh_sym(s, t, i), self.eval(s, t, i))
                    {
                        self.sh_pin(s, t, &e, v);
                    }
                }
                self.sh_set(s, t, *dst, None);
            }
            InstKind::Alloca { dst, .. } => self.sh_set(s, t, *dst, None),
            InstKind::HeapAlloc { dst, from, .. } => {
                if visible {
                    if let Some(Value::Ptr(Ptr::Mem { alloc, .. })) =
                        from.as_ref().map(|p| self.eval(s, t, p))
                    {
                        let loc = self.sh_loc(s, alloc, 0, 1 << 40);
                        self.sh_event(s, EventKind::Clobber { loc });
                    }
                }
                self.sh_set(s, t, *dst, None);
            }
            InstKind::Load {
                dst, ptr, ty, size, ..
            } => {
                let mut r = None;
                if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, ptr) {
                    let n = u64::from(*size);
                    let w = size * 8;
                    if visible {
                        let loc = self.sh_loc(s, alloc, off, n);
                        match (ty, var_int(s, *dst)) {
                            (Ty::Int(bits), Some((v, _))) if *size <= 16 && *bits <= w => {
                                let i = sh(s).trace.events.len() - 1;
                                self.sh_event(
                                    s,
                                    EventKind::Read {
                                        loc,
                                        bits: w,
                                        value: v,
                                    },
                                );
                                let sym = expr::var(Sym::Read { event: i }, w);
                                r = Some(expr::convert(CastOp::Trunc, sym, *bits));
                            }
                            _ => self.sh_event(
                                s,
                                EventKind::Read {
                                    loc,
                                    bits: 0,
                                    value: 0,
                                },
                            ),
                        }
                    } else {
                        let exact = match sh(s).local.get(&(alloc, off)) {
                            Some((m, e, _)) if *m == n => Some(e.clone()),
                            _ => None,
                        };
                        match (exact, ty) {
                            (Some(e), Ty::Int(bits)) if *bits <= w => {
                                r = Some(expr::convert(CastOp::Trunc, e, *bits));
                            }
                            _ => self.sh_local_clear(s, t, alloc, off, n, true),
                        }
                    }
                }
                self.sh_set(s, t, *dst, r);
            }
            InstKind::Store { ptr, val, size, .. } => {
                if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, ptr) {
                    let n = u64::from(*size);
                    let w = size * 8;
                    let value = self
                        .sh_val(s, t, val)
                        .filter(|e| e.bits() <= w && *size <= 16)
                        .map(|e| expr::convert(CastOp::ZExt, e, w));
                    // An exactly overwritten cell needs no pin; a partly overwritten one does.
                    if let Some((m, _, _)) = sh(s).local.get(&(alloc, off)) {
                        if *m == n {
                            sh(s).local.remove(&(alloc, off));
                        }
                    }
                    self.sh_local_clear(s, t, alloc, off, n, true);
                    if visible {
                        let loc = self.sh_loc(s, alloc, off, n);
                        self.sh_event(s, EventKind::Write { loc, value });
                    } else if let (Some(e), Some(_)) = (value, self.sh_sym(s, t, val)) {
                        if let Value::Int { v, .. } = self.eval(s, t, val) {
                            sh(s).local.insert((alloc, off), (n, e, v));
                        }
                    }
                }
            }
            InstKind::AtomicRmw {
                dst,
                op,
                ptr,
                val,
                bits,
                ..
            } => {
                let mut r = None;
                if let (true, Value::Ptr(Ptr::Mem { alloc, off }), Some((v, _))) =
                    (visible, self.eval(s, t, ptr), var_int(s, *dst))
                {
                    let (loc, w, old) = self.sh_rmw_read(s, alloc, off, *bits);
                    let operand = self
                        .sh_val(s, t, val)
                        .filter(|e| e.bits() <= w)
                        .map(|e| expr::convert(CastOp::ZExt, e, w));
                    let written = operand.and_then(|x| {
                        let b = |o| Some(expr::binop(o, old.clone(), x.clone(), w));
                        match op {
                            crate::ir::RmwOp::Xchg => Some(x.clone()),
                            crate::ir::RmwOp::Add => b(BinOp::Add),
                            crate::ir::RmwOp::Sub => b(BinOp::Sub),
                            crate::ir::RmwOp::And => b(BinOp::And),
                            crate::ir::RmwOp::Or => b(BinOp::Or),
                            crate::ir::RmwOp::Xor => b(BinOp::Xor),
                            _ => None,
                        }
                    });
                    self.sh_event(
                        s,
                        EventKind::Update {
                            loc,
                            bits: w,
                            value: v,
                            written,
                        },
                    );
                    r = Some(expr::convert(CastOp::Trunc, old, *bits));
                }
                self.sh_set(s, t, *dst, r);
            }
            InstKind::CmpXchg {
                old,
                ok,
                ptr,
                expected,
                new,
                bits,
                ..
            } => {
                let (mut r_old, mut r_ok) = (None, None);
                if let (true, Value::Ptr(Ptr::Mem { alloc, off }), Some((v, _)), Some((okv, _))) = (
                    visible,
                    self.eval(s, t, ptr),
                    var_int(s, *old),
                    var_int(s, *ok),
                ) {
                    let (loc, w, cur) = self.sh_rmw_read(s, alloc, off, *bits);
                    let ext = |e: E| expr::convert(CastOp::ZExt, e, w);
                    let exp = self.sh_val(s, t, expected).filter(|e| e.bits() <= w);
                    let nw = self.sh_val(s, t, new).filter(|e| e.bits() <= w);
                    let written = if okv != 0 {
                        nw.map(ext)
                    } else {
                        Some(cur.clone())
                    };
                    if let Some(exp) = exp {
                        let eq = expr::compare(CmpPred::Eq, cur.clone(), ext(exp));
                        let site = self.sh_site(s, t);
                        self.sh_branch(s, t, eq.clone(), okv != 0, true, site, None);
                        r_ok = Some(eq);
                    }
                    self.sh_event(
                        s,
                        EventKind::Update {
                            loc,
                            bits: w,
                            value: v,
                            written,
                        },
                    );
                    r_old = Some(expr::convert(CastOp::Trunc, cur, *bits));
                }
                self.sh_set(s, t, *old, r_old);
                self.sh_set(s, t, *ok, r_ok);
            }
            InstKind::MemSet { ptr, len, .. } => self.sh_bulk(s, t, ptr, None, len, visible),
            InstKind::MemCopy { dst, src, len } => self.sh_bulk(s, t, dst, Some(src), len, visible),
            InstKind::ThreadCreate { dst, .. } => {
                let child = s.threads.len() - 1;
                let sh = sh(s);
                sh.regs.push(vec![Vec::new()]);
                sh.inputs.push(0);
                sh.trace.threads.push(ThreadTrace::default());
                self.sh_event(s, EventKind::Spawn(child));
                if let Some(d) = dst {
                    self.sh_set(s, t, *d, None);
                }
            }
            InstKind::ThreadJoin {
                dst,
                handle,
                retval,
                result_bits,
            } => {
                if let Ok(c) = self.join_target(s, t, handle) {
                    self.sh_event(s, EventKind::Join(c));
                }
                if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, retval) {
                    let n = match result_bits {
                        0 => u64::from(self.program.pointer_size),
                        bits => u64::from(bits.div_ceil(8)),
                    };
                    self.sh_local_clear(s, t, alloc, off, n, false);
                }
                if let Some(d) = dst {
                    self.sh_set(s, t, *d, None);
                }
            }
            InstKind::Lock { dst, lock, .. } => self.sh_lock(s, t, *dst, lock, EventKind::Lock),
            InstKind::Unlock { dst, lock } => self.sh_lock(s, t, *dst, lock, EventKind::Unlock),
            InstKind::AtomicBegin => {
                if s.atomic == Some((t, 1)) {
                    self.sh_event(s, EventKind::Lock(ATOMIC));
                }
            }
            InstKind::AtomicEnd => {
                if s.atomic.is_none() {
                    self.sh_event(s, EventKind::Unlock(ATOMIC));
                }
            }
            InstKind::Nondet { dst, is_bool, .. } => self.sh_input(s, t, *dst, *is_bool),
            InstKind::Havoc { dst, .. } => {
                if let Some(d) = dst {
                    self.sh_set(s, t, *d, None);
                }
            }
            InstKind::Call { .. } | InstKind::Assert { .. } | InstKind::Assume { .. } => {}
        }
    }

    /// A lock or unlock (`event`) of `lock`, its result into `dst`.
    fn sh_lock(
        &self,
        s: &mut State,
        t: Tid,
        dst: Option<VarId>,
        lock: &Operand,
        event: fn(Loc) -> EventKind,
    ) {
        if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, lock) {
            let loc = self.sh_loc(s, alloc, off, 0);
            self.sh_event(s, event(loc));
        }
        if let Some(d) = dst {
            self.sh_set(s, t, d, None);
        }
    }

    /// memset (`src` None) or memcpy of `len` bytes at `dst`.
    pub(super) fn sh_bulk(
        &self,
        s: &mut State,
        t: Tid,
        dst: &Operand,
        src: Option<&Operand>,
        len: &Operand,
        visible: bool,
    ) {
        let Value::Int { v: n, .. } = self.eval(s, t, len) else {
            return;
        };
        let n = n as u64;
        if let Some(Value::Ptr(Ptr::Mem { alloc, off })) = src.map(|p| self.eval(s, t, p)) {
            // The bytes flow concretely: pin the cells read.
            let hits: Vec<(E, u128)> = sh(s)
                .local
                .range((alloc, i64::MIN)..=(alloc, i64::MAX))
                .filter(|((_, o), (m, _, _))| *o < off + n as i64 && o + *m as i64 > off)
                .map(|(_, (_, e, v))| (e.clone(), *v))
                .collect();
            for (e, v) in hits {
                self.sh_pin(s, t, &e, v);
            }
        }
        if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, dst) {
            self.sh_local_clear(s, t, alloc, off, n, false);
            if visible {
                let loc = self.sh_loc(s, alloc, off, n);
                self.sh_event(s, EventKind::Clobber { loc });
            }
        }
    }
}
