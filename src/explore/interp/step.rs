//! One step of a thread: its pending visible operation, then its local code up to the next
//! visible one; the terminators, edges (phis, loop bound) and what makes an instruction visible.
//!
//! Invariant: a step runs exactly one visible operation (`is_visible`) and local code touches
//! only what its thread alone reaches, so running it at once hides no interleaving.

use super::*;

impl<'p> Interp<'p> {
    /// Whether instruction `inst` of thread `t` is a scheduling point. Instructions that will
    /// stop as unsupported are visible too, so that other threads may move before them.
    pub(super) fn is_visible(&self, s: &State, t: Tid, inst: &Inst) -> bool {
        let local = |op: &Operand, write| self.is_local(s, t, self.eval(s, t, op), write);
        match &inst.kind {
            InstKind::Load { ptr, .. } => !local(ptr, false),
            InstKind::Store { ptr, .. }
            | InstKind::AtomicRmw { ptr, .. }
            | InstKind::CmpXchg { ptr, .. }
            | InstKind::MemSet { ptr, .. } => !local(ptr, true),
            InstKind::MemCopy { dst, src, .. } => !(local(dst, true) && local(src, false)),
            // Exact: whether the allocation fails is a choice.
            InstKind::HeapAlloc { .. } if self.options.exact => true,
            InstKind::HeapAlloc { from: Some(p), .. } => self.eval(s, t, p) != Value::NULL,
            InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::ThreadCreate { .. }
            | InstKind::ThreadJoin { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Nondet { .. } => true,
            InstKind::Havoc {
                clobbers_memory, ..
            } => *clobbers_memory,
            // A false assumption ends the execution: other threads may move before it.
            InstKind::Assume { cond } => {
                !matches!(self.eval(s, t, cond), Value::Int { v, .. } if v != 0)
            }
            InstKind::Call { callee, args, .. } => match self.callee(s, t, callee) {
                None => true,
                Some(f) => match self.ext[f.index()] {
                    Ext::Defined
                    | Ext::Lib(Run::Zero)
                    | Ext::Lib(Run::NoEffect)
                    | Ext::Lib(Run::SelfTid)
                    | Ext::Lib(Run::Equal) => false,
                    Ext::Lib(Run::TryLock { .. }) | Ext::Lib(Run::CondWait) | Ext::Lib(Run::Free) => true,
                    Ext::Lib(Run::KeyCreate) | Ext::Lib(Run::KeyDelete) => true,
                    Ext::Lib(Run::GetSpecific) | Ext::Lib(Run::SetSpecific) => false,
                    Ext::Lib(Run::Strlen) => args.first().is_none_or(|a| !local(a, false)),
                    Ext::Lib(Run::Unknown) => {
                        self.unknown_call_check(s, t, f, args).is_err()
                            || self.unknown_result(f, &inst.kind).is_some()
                    }
                    Ext::ReturnsTwice => true,
                },
            },
            // A plain `malloc` outside the exact mode (it never fails) is local.
            InstKind::HeapAlloc { from: None, .. } => false,
            InstKind::Bin { .. }
            | InstKind::Cmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Copy { .. }
            | InstKind::Gep { .. }
            | InstKind::Alloca { .. }
            // An assertion reads registers alone; its failure ends the execution at once.
            | InstKind::Assert { .. } => false,
        }
    }

    /// Whether thread `t`'s terminator ends the process (`exit`, `main` returning): a
    /// scheduling point, so that other threads may move between the thread's last visible
    /// operation and the end of every thread.
    pub(super) fn ends_process(&self, s: &State, t: Tid) -> bool {
        let th = &s.threads[t];
        let fr = self.top(s, t);
        match self.program.funcs[fr.func.index()].blocks[fr.block.index()].term {
            Terminator::Stop {
                reason: StopReason::ProcessExit,
            } => true,
            Terminator::Ret(_) => t == 0 && th.frames.len() == 1,
            Terminator::Stop { .. }
            | Terminator::Br(_)
            | Terminator::CondBr { .. }
            | Terminator::Switch { .. } => false,
        }
    }

    /// Runs thread `t`'s next visible operation (alternative `alt`). The thread is enabled.
    pub(super) fn exec_pending(
        &self,
        s: &mut State,
        t: Tid,
        alt: usize,
    ) -> (Option<Span>, Exec<StepKind>) {
        match s.threads[t].at {
            At::Start => {
                let th = s.threads.focus_mut(t);
                th.at = At::Inst;
                if th.frames.is_empty() {
                    let frame = self.frame(th.entry, &[th.arg]);
                    th.frames.push(frame);
                }
                s.unstarted -= 1;
                let span = self.program.funcs[s.threads[t].entry.index()].span;
                (span, Ok(StepKind::Start))
            }
            At::Relock { alloc, off } => {
                let inst = self.cur_inst(s, t).expect("cond_wait call");
                s.locks.insert((alloc, off), t);
                self.sync_object_written(s, alloc, off, self.program.sync_sizes.mutex);
                if let InstKind::Call { dst, .. } = &inst.kind {
                    self.set_opt(s, t, *dst, Value::int(0, 32));
                }
                s.threads.focus_mut(t).at = At::Inst;
                self.hooks(s)
                    .relocked(self, s, t, call_result(inst), alloc, off);
                self.advance(s, t);
                let name = self.describe_lock(s, alloc, off);
                (inst.span, Ok(StepKind::Lock(name)))
            }
            At::Inst => {
                let Some(inst) = self.cur_inst(s, t) else {
                    // A pending terminator ends the process: its step never precedes a
                    // violation, so its kind is never shown.
                    let fr = self.top(s, t);
                    let span =
                        self.program.funcs[fr.func.index()].blocks[fr.block.index()].term_span;
                    let r = self.count(s).and_then(|()| self.exec_term(s, t));
                    return (span, r.map(|()| placeholder_kind()));
                };
                let r = self
                    .count(s)
                    .and_then(|()| self.exec_inst(s, t, inst, alt, true));
                (inst.span, r.map(|k| k.unwrap_or_else(placeholder_kind)))
            }
            At::Finished | At::Cut | At::Spins => {
                (None, unsupported("a finished thread was scheduled"))
            }
        }
    }

    pub(super) fn count(&self, s: &mut State) -> Exec<()> {
        s.steps += 1;
        if s.steps > self.options.max_steps {
            return Err(Status::Cut);
        }
        Ok(())
    }

    /// Runs thread `t`'s local code up to its next visible operation, its end, or the end
    /// of the execution.
    pub(super) fn run_local(&self, s: &mut State, t: Tid) -> Exec<()> {
        let mut spin = self.options.exact.then(SpinCheck::default);
        while s.threads[t].at == At::Inst && s.status == Status::Running {
            match self.cur_inst(s, t) {
                Some(inst) => {
                    if self.is_visible(s, t, inst) {
                        return Ok(());
                    }
                    self.count(s)?;
                    self.exec_inst(s, t, inst, 0, false)?;
                }
                None => {
                    if self.ends_process(s, t) {
                        return Ok(());
                    }
                    self.count(s)?;
                    self.exec_term(s, t)?;
                    // Soundness: local code reads and writes only what this thread alone
                    // reaches, so it is a function of the memory and the thread's own state:
                    // when both come back, it loops forever.
                    if let Some(c) = spin.as_mut() {
                        if c.repeats(|| fingerprint(&(&s.mem, &s.threads[t]))) {
                            s.threads.focus_mut(t).at = At::Spins;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Moves thread `t`'s top frame along the edge to `target`: phis in parallel, then the
    /// loop bound.
    pub(super) fn goto(&self, s: &mut State, t: Tid, target: BlockId) -> Exec<()> {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[target.index()];
        let from = fr.block;
        let values: Vec<(VarId, Value)> = block
            .phis
            .iter()
            .map(|phi| {
                let v = phi
                    .incoming
                    .iter()
                    .find(|(p, _)| *p == from)
                    .map_or(Value::Unknown, |(_, o)| self.eval(s, t, o));
                (phi.dst, v)
            })
            .collect();
        self.hooks(s).edge(self, s, t, target);
        let bound = self.options.bound;
        let fr = self.top_mut(s, t);
        for (d, v) in values {
            fr.vars[d.index()] = v;
        }
        fr.block = target;
        fr.pc = 0;
        if self.options.exact {
            // Unbounded: a state must not remember how often a loop went round.
            return Ok(());
        }
        let n = &mut fr.visits[target.index()];
        *n += 1;
        if *n > bound.saturating_add(1) {
            s.threads.focus_mut(t).at = At::Cut;
            s.cut += 1;
        }
        Ok(())
    }

    pub(super) fn exec_term(&self, s: &mut State, t: Tid) -> Exec<()> {
        let fr = self.top(s, t);
        let block = &self.program.funcs[fr.func.index()].blocks[fr.block.index()];
        let here = self.here(block.term_span);
        self.hooks(s).before_term(self, s, t);
        match &block.term {
            Terminator::Br(b) => self.goto(s, t, *b),
            Terminator::CondBr { cond, then_, else_ } => match self.eval(s, t, cond) {
                Value::Int { v, .. } => self.goto(s, t, if v != 0 { *then_ } else { *else_ }),
                _ => unsupported(format!("an unknown value decides a branch{here}")),
            },
            Terminator::Switch {
                value,
                bits,
                cases,
                default,
            } => match self.eval(s, t, value) {
                Value::Int { v, .. } => {
                    let target = cases
                        .iter()
                        .find(|(c, _)| mask(*c as u128, *bits) == v)
                        .map_or(*default, |(_, b)| *b);
                    self.goto(s, t, target)
                }
                _ => unsupported(format!("an unknown value decides a switch{here}")),
            },
            Terminator::Ret(op) => {
                let v = op.as_ref().map_or(Value::Unknown, |o| self.eval(s, t, o));
                let into = (s.threads[t].frames.iter().nth(1))
                    .and_then(|caller| self.inst_of(caller))
                    .and_then(call_result);
                self.hooks(s).returns(self, s, t, op.as_ref(), into);
                self.pop_frame(s, t);
                if s.threads[t].frames.is_empty() {
                    if t == 0 && s.threads[t].ending.is_none() {
                        // `main` returned: the process exits.
                        return Err(Status::Done);
                    }
                    return self.end_thread(s, t, v);
                }
                if let Some(InstKind::Call { dst, .. }) = self.cur_inst(s, t).map(|i| &i.kind) {
                    self.set_opt(s, t, *dst, v);
                }
                self.advance(s, t);
                Ok(())
            }
            Terminator::Stop { reason } => match reason {
                StopReason::ProcessExit => Err(Status::Done),
                StopReason::ThreadExit => {
                    // The IR keeps no operand of `pthread_exit`: its result is unknown.
                    self.end_thread(s, t, Value::Unknown)
                }
                StopReason::Unreachable => {
                    unsupported(format!("reached `unreachable` (undefined behaviour){here}"))
                }
                // Soundness: a `longjmp` continues at a `setjmp`, not here; stopping the thread
                // would be an execution no program has, so the run is abandoned.
                StopReason::LongJmp => unsupported(format!("`longjmp` is not executed{here}")),
            },
        }
    }
}

/// Brent's cycle detection over the states a thread's local code passes at its jumps, from
/// the `START`-th jump of one step on (a short loop costs nothing).
#[derive(Default)]
struct SpinCheck {
    jumps: u64,
    saved: Option<u128>,
    power: u64,
    length: u64,
}

impl SpinCheck {
    const START: u64 = 1000;

    /// Whether the state `now` gives was seen before in this step.
    fn repeats(&mut self, now: impl FnOnce() -> u128) -> bool {
        self.jumps += 1;
        if self.jumps < Self::START {
            return false;
        }
        let now = now();
        if self.saved == Some(now) {
            return true;
        }
        self.length += 1;
        if self.length >= self.power {
            self.saved = Some(now);
            self.power = (self.power * 2).max(1);
            self.length = 0;
        }
        false
    }
}

/// A 128-bit fingerprint of `x` (two independent 64-bit hashes).
fn fingerprint<T: std::hash::Hash>(x: &T) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u8| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        x.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// The kind of a step whose visible operation has no kind of its own (it ends the execution:
/// a process exit, a false assumption, an unsupported operation), so no witness shows it.
pub(super) fn placeholder_kind() -> StepKind {
    StepKind::End
}
