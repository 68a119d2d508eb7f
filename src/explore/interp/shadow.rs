//! The concolic shadow of the interpreter (opt-in, [`Interp::concolic`]): while an execution
//! runs, the symbolic value of every register and local memory cell that depends on an input
//! or on a shared read, every step as an event, and every thread's path condition
//! ([`crate::explore::symbolic::trace`]).
//!
//! Invariants:
//! - The shadow never changes the execution: it is written from concrete results, it is not
//!   part of the state's `Eq`/`Hash` ([`ShadowCell`] compares equal and hashes to nothing),
//!   and it is `None` unless the interpreter is concolic, so the exhaustive searches pay one
//!   test of an `Option` per hook.
//! - What is not modelled is concretised: its concrete value is used, and when it came from a
//!   symbolic expression, a non-flippable branch `expr == value` joins the path condition
//!   (addresses, shift amounts, pointer casts, partially overwritten local cells, memcpy).
//!
//! The events: shared accesses with their schedule-independent `Loc` and symbolic value, lock
//! operations, atomic sections (as one global lock), spawns, joins and the process exit. The path
//! condition holds conditional branches, switches, assertions and assumptions decided by a symbolic
//! value; a select becomes an `ite`.

use super::memory::{decode, Ptr, Value};
use super::{Interp, State};
use crate::explore::symbolic::expr::{self, Sym, E};
use crate::explore::symbolic::trace::{Branch, Event, EventKind, ThreadTrace, Trace, ATOMIC};
use crate::explore::{Loc, Tid};
use crate::ir::{
    AssertId, BinOp, BlockId, CastOp, CmpPred, FuncId, Inst, InstKind, Operand, Terminator, Ty,
    VarId,
};
use std::collections::BTreeMap;

/// The shadow of a state: equal to every other, hashed to nothing.
#[derive(Clone, Default)]
pub struct ShadowCell(pub(super) Option<Box<Shadow>>);

impl PartialEq for ShadowCell {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for ShadowCell {}
impl std::hash::Hash for ShadowCell {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl std::fmt::Debug for ShadowCell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "shadow" } else { "-" })
    }
}

impl ShadowCell {
    #[inline]
    pub(super) fn on(&self) -> bool {
        self.0.is_some()
    }
}

/// A symbolic local cell: bytes, expression at `8 * bytes` bits, concrete value.
type Cell = (u64, E, u128);

/// The symbolic side of one execution.
#[derive(Clone, Default)]
pub(super) struct Shadow {
    pub(super) trace: Trace,
    /// Symbolic registers: thread → frames → variables (`None`: concrete).
    regs: Vec<Vec<Vec<Option<E>>>>,
    /// Symbolic local memory cells: (allocation, offset) → (bytes, expression at `8 * bytes`
    /// bits, concrete value).
    local: BTreeMap<(u32, i64), Cell>,
    /// Inputs taken so far, by thread.
    inputs: Vec<u32>,
}

impl Shadow {
    pub(super) fn new() -> Shadow {
        Shadow {
            trace: Trace {
                threads: vec![ThreadTrace::default()],
                ..Trace::default()
            },
            regs: vec![vec![Vec::new()]],
            local: BTreeMap::new(),
            inputs: vec![0],
        }
    }
}

fn sh(s: &mut State) -> &mut Shadow {
    s.shadow.0.as_deref_mut().expect("the shadow is on")
}

impl Interp<'_> {
    /// The trace the concolic shadow recorded so far (`None` unless concolic).
    pub fn trace<'s>(&self, s: &'s State) -> Option<&'s Trace> {
        s.shadow.0.as_deref().map(|sh| &sh.trace)
    }

    /// The trace of an execution that is over, taken without a copy (`None` unless concolic).
    pub fn into_trace(&self, s: State) -> Option<Trace> {
        s.shadow.0.map(|sh| sh.trace)
    }

    /// The symbolic value of an operand, `None` when it is concrete.
    pub(super) fn sh_sym(&self, s: &State, t: Tid, op: &Operand) -> Option<E> {
        let Operand::Var(v) = op else { return None };
        let sh = s.shadow.0.as_deref()?;
        sh.regs.get(t)?.last()?.get(v.index())?.clone()
    }

    /// The symbolic value of an integer operand, its constant when concrete; `None` when it is
    /// not a known integer.
    fn sh_val(&self, s: &State, t: Tid, op: &Operand) -> Option<E> {
        match self.eval(s, t, op) {
            Value::Int { v, bits } => Some(
                self.sh_sym(s, t, op)
                    .unwrap_or_else(|| expr::konst(v, bits)),
            ),
            _ => None,
        }
    }

    fn sh_set(&self, s: &mut State, t: Tid, dst: VarId, e: Option<E>) {
        let regs = &mut sh(s).regs[t];
        let Some(frame) = regs.last_mut() else { return };
        if e.is_none() && frame.len() <= dst.index() {
            return;
        }
        if frame.len() <= dst.index() {
            frame.resize(dst.index() + 1, None);
        }
        frame[dst.index()] = e;
    }

    fn sh_site(&self, s: &State, t: Tid) -> u64 {
        let fr = self.top(s, t);
        (fr.func.index() as u64) << 40 | (fr.block.index() as u64) << 20 | u64::from(fr.pc)
    }

    /// Adds `cond` (width 1), decided `taken`, to thread `t`'s path condition.
    #[allow(clippy::too_many_arguments)]
    fn sh_branch(
        &self,
        s: &mut State,
        t: Tid,
        cond: E,
        taken: bool,
        flippable: bool,
        site: u64,
        leads_to: Option<AssertId>,
    ) {
        if cond.as_const().is_some() {
            return;
        }
        let th = &mut sh(s).trace.threads[t];
        let events = th.events.len();
        th.branches.push(Branch {
            cond,
            taken,
            flippable,
            events,
            site,
            leads_to,
        });
    }

    /// Concretises `e`: the execution used the value `v`.
    fn sh_pin(&self, s: &mut State, t: Tid, e: &E, v: u128) {
        if e.as_const().is_none() {
            let c = expr::compare(CmpPred::Eq, e.clone(), expr::konst(v, e.bits()));
            let site = self.sh_site(s, t) | 1 << 63;
            self.sh_branch(s, t, c, true, false, site, None);
        }
    }

    fn sh_event(&self, s: &mut State, kind: EventKind) {
        if let Some(e) = sh(s).trace.events.last_mut() {
            e.kind = kind;
        }
    }

    /// The location, width and read symbol of a read-modify-write of `bits` bits at
    /// (`alloc`, `off`), whose event is the last one recorded.
    fn sh_rmw_read(&self, s: &State, alloc: u32, off: i64, bits: u32) -> (Loc, u32, E) {
        let size = u64::from(self.access_ty(bits).1);
        let w = (size * 8) as u32;
        let loc = self.sh_loc(s, alloc, off, size);
        let shadow = s.shadow.0.as_deref().expect("the shadow is on");
        let i = shadow.trace.events.len() - 1;
        (loc, w, expr::var(Sym::Read { event: i }, w))
    }

    fn sh_loc(&self, s: &State, alloc: u32, off: i64, size: u64) -> Loc {
        Loc {
            object: s.mem[alloc as usize].key,
            offset: off,
            size,
        }
    }

    /// A step of thread `t` begins: its event.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_begin_step(&self, s: &mut State, t: Tid) {
        let sh = sh(s);
        let i = sh.trace.events.len();
        sh.trace.events.push(Event {
            tid: t,
            kind: EventKind::Other,
        });
        sh.trace.threads[t].events.push(i);
    }

    /// Drops the local cells overlapping `n` bytes at `off` of `alloc`, pinning their values
    /// when `pin` (they are still read concretely), and keeping an exact match when `keep`.
    fn sh_local_clear(&self, s: &mut State, t: Tid, alloc: u32, off: i64, n: u64, pin: bool) {
        let end = off.saturating_add(n as i64);
        let hits: Vec<((u32, i64), Cell)> = sh(s)
            .local
            .range((alloc, i64::MIN)..=(alloc, i64::MAX))
            .filter(|((_, o), (m, _, _))| *o < end && o.saturating_add(*m as i64) > off)
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        for (k, (_, e, v)) in hits {
            sh(s).local.remove(&k);
            if pin {
                self.sh_pin(s, t, &e, v);
            }
        }
    }

    /// Before a visible memory access: records what the location held before its first one.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_pre_visible(&self, s: &mut State, t: Tid, inst: &Inst) {
        let (ptr, size) = match &inst.kind {
            InstKind::Load { ptr, size, .. } | InstKind::Store { ptr, size, .. } => {
                (ptr, u64::from(*size))
            }
            InstKind::AtomicRmw { ptr, bits, .. } | InstKind::CmpXchg { ptr, bits, .. } => {
                (ptr, u64::from(self.access_ty(*bits).1))
            }
            _ => return,
        };
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
            } => {
                if let Ok(c) = self.join_target(s, t, handle) {
                    self.sh_event(s, EventKind::Join(c));
                }
                if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, retval) {
                    let n = u64::from(self.program.pointer_size);
                    self.sh_local_clear(s, t, alloc, off, n, false);
                }
                if let Some(d) = dst {
                    self.sh_set(s, t, *d, None);
                }
            }
            InstKind::Lock { dst, lock, .. } | InstKind::Unlock { dst, lock } => {
                if let Value::Ptr(Ptr::Mem { alloc, off }) = self.eval(s, t, lock) {
                    let loc = self.sh_loc(s, alloc, off, 0);
                    let is_lock = matches!(inst.kind, InstKind::Lock { .. });
                    self.sh_event(
                        s,
                        if is_lock {
                            EventKind::Lock(loc)
                        } else {
                            EventKind::Unlock(loc)
                        },
                    );
                }
                if let Some(d) = dst {
                    self.sh_set(s, t, *d, None);
                }
            }
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

    /// memset (`src` None) or memcpy of `len` bytes at `dst`.
    fn sh_bulk(
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

    /// The symbolic values of a call's arguments (before its frame is pushed).
    #[cold]
    #[inline(never)]
    pub(super) fn sh_args(&self, s: &State, t: Tid, args: &[Operand]) -> Vec<Option<E>> {
        args.iter().map(|a| self.sh_sym(s, t, a)).collect()
    }

    /// A frame of `f` was pushed for thread `t` with these argument values.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_push(&self, s: &mut State, t: Tid, f: FuncId, args: Vec<Option<E>>) {
        let func = &self.program.funcs[f.index()];
        let mut vars = vec![None; func.vars.len()];
        for (p, a) in func.params.iter().zip(args) {
            vars[p.index()] = a;
        }
        sh(s).regs[t].push(vars);
    }

    /// Thread `t`'s top frame was popped.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_pop(&self, s: &mut State, t: Tid) {
        sh(s).regs[t].pop();
    }

    /// After a call of an external function: its result is concrete (or unknown); its
    /// event, when it is a lock, an unlock or a free.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_extern(
        &self,
        s: &mut State,
        t: Tid,
        dst: Option<VarId>,
        args: &[Operand],
        kind: Option<EventKind>,
    ) {
        if let Some(d) = dst {
            self.sh_set(s, t, d, None);
        }
        let _ = args;
        if let Some(k) = kind {
            self.sh_event(s, k);
        }
    }

    /// `dst` of thread `t` was just set to the value of its next input (a `Nondet`, or the
    /// result of an unknown function): it becomes that input's symbol.
    pub(super) fn sh_input(&self, s: &mut State, t: Tid, dst: VarId, is_bool: bool) {
        let n = {
            let sh = sh(s);
            sh.inputs[t] += 1;
            sh.inputs[t] - 1
        };
        let r = match self.top(s, t).vars[dst.index()] {
            Value::Int { v, bits } => {
                let e = expr::var(Sym::Input { tid: t, n }, bits);
                let value = if is_bool || bits == 1 {
                    v as i128
                } else {
                    expr::sext(v, bits)
                };
                sh(s).trace.inputs.insert((t, n), (bits, value));
                if is_bool && bits > 1 {
                    let c = expr::compare(CmpPred::Ule, e.clone(), expr::konst(1, bits));
                    let site = self.sh_site(s, t) | 1 << 61;
                    self.sh_branch(s, t, c, true, false, site, None);
                }
                Some(e)
            }
            _ => None,
        };
        self.sh_set(s, t, dst, r);
    }

    /// The location of the mutex (or heap block, for `whole`) an operand points to.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_object_loc(
        &self,
        s: &State,
        t: Tid,
        op: Option<&Operand>,
        whole: bool,
    ) -> Option<Loc> {
        match op.map(|o| self.eval(s, t, o)) {
            Some(Value::Ptr(Ptr::Mem { alloc, off })) if (alloc as usize) < s.mem.len() => {
                Some(self.sh_loc(s, alloc, off, if whole { 1 << 40 } else { 0 }))
            }
            _ => None,
        }
    }

    /// The step that just ran ended the process.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_exit(&self, s: &mut State) {
        self.sh_event(s, EventKind::Exit);
    }

    /// The relock of a condition wait.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_relock(&self, s: &mut State, alloc: u32, off: i64) {
        let loc = self.sh_loc(s, alloc, off, 0);
        self.sh_event(s, EventKind::Lock(loc));
    }

    /// A return of thread `t` delivers `ret` to the caller's `dst`.
    #[cold]
    #[inline(never)]
    pub(super) fn sh_ret(&self, s: &mut State, t: Tid, dst: Option<VarId>, ret: Option<E>) {
        if let Some(d) = dst {
            self.sh_set(s, t, d, ret);
        }
    }

    /// The symbolic values of the phis of the edge `from → target` (computed before any is
    /// assigned).
    #[cold]
    #[inline(never)]
    pub(super) fn sh_phis(&self, s: &State, t: Tid, target: BlockId) -> Vec<(VarId, Option<E>)> {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[target.index()];
        block
            .phis
            .iter()
            .map(|phi| {
                let e = phi
                    .incoming
                    .iter()
                    .find(|(p, _)| *p == fr.block)
                    .and_then(|(_, o)| self.sh_sym(s, t, o));
                (phi.dst, e)
            })
            .collect()
    }

    #[cold]
    #[inline(never)]
    pub(super) fn sh_set_phis(&self, s: &mut State, t: Tid, phis: Vec<(VarId, Option<E>)>) {
        for (d, e) in phis {
            self.sh_set(s, t, d, e);
        }
    }

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
            _ => {}
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
    fn leads_to(&self, func: FuncId, mut block: BlockId) -> Option<AssertId> {
        let f = &self.program.funcs[func.index()];
        for _ in 0..6 {
            let b = &f.blocks[block.index()];
            for i in &b.insts {
                match &i.kind {
                    InstKind::Assert { id, .. } => return Some(*id),
                    InstKind::Call {
                        callee: crate::ir::Callee::Direct(g),
                        ..
                    } => {
                        let g = &self.program.funcs[g.index()];
                        let inner =
                            g.blocks
                                .iter()
                                .flat_map(|b| &b.insts)
                                .find_map(|i| match i.kind {
                                    InstKind::Assert { id, .. } => Some(id),
                                    _ => None,
                                });
                        if inner.is_some() {
                            return inner;
                        }
                    }
                    _ => {}
                }
            }
            match b.term {
                Terminator::Br(n) => block = n,
                _ => return None,
            }
        }
        None
    }
}
