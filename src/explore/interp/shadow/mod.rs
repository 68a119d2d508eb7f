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

pub(super) mod cell;
mod control;
mod values;

use self::cell::{Cell, Shadow};

use super::hooks::ExecHooks;
use super::library::Ext;
use super::memory::{Ptr, Value};
use super::{Interp, State};
use crate::explore::symbolic::expr::{self, Sym, E};
use crate::explore::symbolic::trace::{Branch, Event, EventKind, Trace};
use crate::explore::{Loc, StepKind, Tid};
use crate::ir::lib::Run;
use crate::ir::{AssertId, BlockId, CmpPred, FuncId, Inst, Operand, VarId};

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
    fn sh_sym(&self, s: &State, t: Tid, op: &Operand) -> Option<E> {
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
        self.sh_set_below(s, t, 0, dst, e);
    }

    /// `sh_set` in the frame `below` frames under the shadow's top of thread `t`.
    fn sh_set_below(&self, s: &mut State, t: Tid, below: usize, dst: VarId, e: Option<E>) {
        let regs = &mut sh(s).regs[t];
        let Some(frame) = regs.iter_mut().rev().nth(below) else {
            return;
        };
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
    fn sh_begin_step(&self, s: &mut State, t: Tid) {
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

    /// A frame of `f` was pushed for thread `t`, called with `args`: the shadow's frame of it,
    /// its parameters holding the symbolic values of the arguments in the caller's frame (the
    /// shadow's top until now).
    #[cold]
    #[inline(never)]
    fn sh_push(&self, s: &mut State, t: Tid, f: FuncId, args: &[Operand]) {
        let args: Vec<Option<E>> = args.iter().map(|a| self.sh_sym(s, t, a)).collect();
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
    fn sh_pop(&self, s: &mut State, t: Tid) {
        sh(s).regs[t].pop();
    }

    /// Thread `t`'s top frame returns `value` to the caller's `into`: the caller's frame (one
    /// below the shadow's top) gets its symbolic value.
    #[cold]
    #[inline(never)]
    fn sh_returns(&self, s: &mut State, t: Tid, value: Option<&Operand>, into: Option<VarId>) {
        let Some(d) = into else { return };
        let e = value.and_then(|o| self.sh_sym(s, t, o));
        self.sh_set_below(s, t, 1, d, e);
    }

    /// After a call of an external function: its result is concrete (or unknown); its
    /// event, when it is a lock, an unlock or a free.
    #[cold]
    #[inline(never)]
    fn sh_extern(&self, s: &mut State, t: Tid, dst: Option<VarId>, kind: Option<EventKind>) {
        if let Some(d) = dst {
            self.sh_set(s, t, d, None);
        }
        if let Some(k) = kind {
            self.sh_event(s, k);
        }
    }

    /// The event of a call of the declared function `f` with `args` that showed `kind`: a
    /// condition wait releases its mutex, a lock taken (`trylock`) takes it, a `free` clobbers
    /// its block.
    fn sh_library_event(
        &self,
        s: &State,
        t: Tid,
        f: FuncId,
        args: &[Operand],
        kind: Option<&StepKind>,
    ) -> Option<EventKind> {
        match (self.ext[f.index()], kind) {
            (Ext::Lib(Run::CondWait), _) => {
                (self.sh_object_loc(s, t, args.get(1), false)).map(EventKind::Unlock)
            }
            (_, Some(StepKind::Lock(_))) => {
                (self.sh_object_loc(s, t, args.first(), false)).map(EventKind::Lock)
            }
            (Ext::Lib(Run::Free), Some(StepKind::Write { .. })) => {
                (self.sh_object_loc(s, t, args.first(), true)).map(|loc| EventKind::Clobber { loc })
            }
            _ => None,
        }
    }

    /// `dst` of thread `t` was just set to the value of its next input (a `Nondet`, or the
    /// result of an unknown function): it becomes that input's symbol.
    fn sh_input(&self, s: &mut State, t: Tid, dst: VarId, is_bool: bool) {
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
    fn sh_object_loc(&self, s: &State, t: Tid, op: Option<&Operand>, whole: bool) -> Option<Loc> {
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
    fn sh_exit(&self, s: &mut State) {
        self.sh_event(s, EventKind::Exit);
    }

    /// The relock of a condition wait.
    #[cold]
    #[inline(never)]
    fn sh_relock(&self, s: &mut State, alloc: u32, off: i64) {
        let loc = self.sh_loc(s, alloc, off, 0);
        self.sh_event(s, EventKind::Lock(loc));
    }

    /// The edge `from → target` of thread `t`: the symbolic values of the phis of `target`,
    /// all computed before any is assigned.
    #[cold]
    #[inline(never)]
    fn sh_edge(&self, s: &mut State, t: Tid, target: BlockId) {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[target.index()];
        let phis: Vec<(VarId, Option<E>)> = block
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
            .collect();
        for (d, e) in phis {
            self.sh_set(s, t, d, e);
        }
    }
}

/// The concolic shadow as the interpreter's observer: each hook records its event in the
/// state's [`Shadow`] (a state observed by it always carries one: [`Interp::hooks`]).
pub(super) struct Concolic;

impl ExecHooks for Concolic {
    fn step_begins(&self, x: &Interp<'_>, s: &mut State, t: Tid) {
        x.sh_begin_step(s, t);
    }

    fn process_exited(&self, x: &Interp<'_>, s: &mut State) {
        x.sh_exit(s);
    }

    fn before_inst(&self, x: &Interp<'_>, s: &mut State, t: Tid, inst: &Inst, visible: bool) {
        if visible {
            x.sh_pre_visible(s, t, inst);
        }
        x.sh_decides(s, t, inst);
    }

    fn after_inst(&self, x: &Interp<'_>, s: &mut State, t: Tid, inst: &Inst, visible: bool) {
        x.sh_inst(s, t, inst, visible);
    }

    fn before_term(&self, x: &Interp<'_>, s: &mut State, t: Tid) {
        x.sh_term(s, t);
    }

    fn edge(&self, x: &Interp<'_>, s: &mut State, t: Tid, target: BlockId) {
        x.sh_edge(s, t, target);
    }

    fn frame_pushed(&self, x: &Interp<'_>, s: &mut State, t: Tid, f: FuncId, args: &[Operand]) {
        x.sh_push(s, t, f, args);
    }

    fn returns(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        value: Option<&Operand>,
        into: Option<VarId>,
    ) {
        x.sh_returns(s, t, value, into);
    }

    fn frame_popped(&self, x: &Interp<'_>, s: &mut State, t: Tid) {
        x.sh_pop(s, t);
    }

    fn library_call(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        f: FuncId,
        dst: Option<VarId>,
        args: &[Operand],
        kind: Option<&StepKind>,
        input: bool,
    ) {
        let event = x.sh_library_event(s, t, f, args, kind);
        x.sh_extern(s, t, dst, event);
        if let (true, Some(d)) = (input, dst) {
            x.sh_input(s, t, d, false);
        }
    }

    fn relocked(
        &self,
        x: &Interp<'_>,
        s: &mut State,
        t: Tid,
        dst: Option<VarId>,
        alloc: u32,
        off: i64,
    ) {
        x.sh_extern(s, t, dst, None);
        x.sh_relock(s, alloc, off);
    }
}
