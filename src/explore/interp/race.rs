//! Races to confirm (`--confirm` of the race check): a state in which the next visible
//! operations of two threads are conflicting accesses of one reported race is a data race of
//! a real execution. The interpreter ends such a state `Violated` with the race's id.
//!
//! Soundness of the claim (a confirmed race is real): both threads are enabled, so either may
//! run its access next; the two accesses touch a common byte of one object, at least one
//! writes (a compare-exchange counts as a read: it may not write), and not both are atomic.
//! Nothing orders them: neither can wait for the other.
//!
//! `RaceTarget`: an id past the assertions, the places of its accesses, its global. After each step
//! the interpreter looks at the other threads only when the thread that moved arrived at a race's
//! access (`race_after_step`: the state before had no race, and a step changes no other thread's
//! next access; the end of an atomic section looks at all). `explore::race_witness` appends both
//! accesses to the replayed schedule, and `explore::replay_race` checks that a race witness reaches
//! its two accesses again.

use super::memory::{AllocKind, Ptr, Value};
use super::{At, Ext, Interp, State};
use crate::explore::{Loc, Op, Tid};
use crate::ir::lib::Run;
use crate::ir::{AssertId, Callee, InstKind, Operand, Span};

/// The size a `free` of a block of unknown size covers: more than any offset into it.
const WHOLE_BLOCK: u64 = 1 << 40;
use std::collections::BTreeSet;

/// A race the analysis reported, to confirm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceTarget {
    /// The id its confirmation is reported under: past the program's assertions.
    pub id: AssertId,
    /// Where its accesses are.
    pub spans: BTreeSet<Span>,
    /// The object its memory is in.
    pub memory: RaceMemory,
}

/// The object of a race's memory, as far as the analysis names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceMemory {
    /// A global (`Loc::object` of a global is its index): an access of another global at the
    /// same place is not this race.
    Global(u32),
    /// An object that is not a global (a heap block, a local).
    NotGlobal,
    /// Any object (a witness replayed: its accesses are what it names).
    Any,
}

/// A thread's next operation when it is an access at a place of some race.
struct Pending {
    tid: Tid,
    span: Span,
    loc: Loc,
    write: bool,
    atomic: bool,
}

impl Interp<'_> {
    /// The first race of the interpreter's targets whose two accesses are the next operations
    /// of two threads in `s`, with those threads.
    pub(crate) fn race_at(&self, s: &State) -> Option<(AssertId, Tid, Tid)> {
        if self.races.is_empty() {
            return None;
        }
        let pending: Vec<Pending> = (self.enabled_raw(s).into_iter())
            .filter_map(|t| self.pending(s, t))
            .collect();
        (pending.iter().enumerate())
            .find_map(|(i, a)| pending[i + 1..].iter().find_map(|b| self.race_of(a, b)))
    }

    /// [`Interp::race_at`] after a step of thread `t` from a state that had no race (every
    /// step is checked), looking at every thread only when `t` arrived at a race's place.
    ///
    /// Soundness (the same answer as `race_at`): a pair without `t` was a pair before the
    /// step, when it did not race. A step of `t` changes no other thread's next instruction
    /// (a thread created is at its start, not at an instruction; a woken one is at its relock
    /// or its call), nor the place an access of another thread touches (its address is in its
    /// own registers), nor whether a thread at an access may run, unless the step ended an
    /// atomic section (`atomic_ended`): then every thread is looked at again.
    pub(crate) fn race_after_step(
        &self,
        s: &State,
        t: Tid,
        atomic_ended: bool,
    ) -> Option<(AssertId, Tid, Tid)> {
        if self.races.is_empty() || s.atomic.is_some() {
            return None;
        }
        if atomic_ended {
            return self.race_at(s);
        }
        let a = self.pending(s, t)?;
        (0..s.threads.len())
            .filter(|&u| u != t)
            .filter_map(|u| self.pending(s, u))
            .find_map(|b| self.race_of(&a, &b))
    }

    /// Thread `t`'s next operation in `s` when it may run and is an access at a place of some
    /// race.
    fn pending(&self, s: &State, t: Tid) -> Option<Pending> {
        if s.threads[t].at != At::Inst || !self.thread_ready(s, t) {
            return None;
        }
        let inst = self.cur_inst(s, t)?;
        let span = inst.span.filter(|sp| self.race_spans.contains(sp))?;
        let (write, atomic) = match inst.kind {
            InstKind::Load { order, .. } => (false, order.is_atomic()),
            InstKind::Store { order, .. } => (true, order.is_atomic()),
            InstKind::AtomicRmw { .. } => (true, true),
            InstKind::CmpXchg { .. } => (false, true),
            // `realloc` reads and frees its old block: a write of all of it, as for the race
            // check (`AccessVia::Realloc`). It may also fail and touch nothing, but succeeding
            // is one of the executions either order of the two accesses allows.
            InstKind::HeapAlloc {
                from: Some(ref old),
                ..
            } => return self.whole_block(s, t, span, old),
            // `free` writes the whole block (C11 7.22.3; the race check's `AccessVia::Free`).
            InstKind::Call {
                ref callee,
                ref args,
                ..
            } => {
                return self.pending_free(s, t, span, callee, args);
            }
            // Only these accesses are reported as races.
            InstKind::Bin { .. }
            | InstKind::Cmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Select { .. }
            | InstKind::Copy { .. }
            | InstKind::Gep { .. }
            | InstKind::Alloca { .. }
            | InstKind::HeapAlloc { from: None, .. }
            | InstKind::MemSet { .. }
            | InstKind::MemCopy { .. }
            | InstKind::ThreadCreate { .. }
            | InstKind::ThreadJoin { .. }
            | InstKind::Lock { .. }
            | InstKind::Unlock { .. }
            | InstKind::AtomicBegin
            | InstKind::AtomicEnd
            | InstKind::Assert { .. }
            | InstKind::Assume { .. }
            | InstKind::Nondet { .. }
            | InstKind::Havoc { .. } => return None,
        };
        let loc = match self.inst_op(s, t, inst) {
            Op::Load(l) | Op::Store(l) | Op::Update(l) => l,
            _ => return None,
        };
        Some(Pending {
            tid: t,
            span,
            loc,
            write,
            atomic,
        })
    }

    /// Thread `t`'s next operation when it is a `free` of a live heap block: a write of every
    /// byte of the block.
    fn pending_free(
        &self,
        s: &State,
        t: Tid,
        span: Span,
        callee: &Callee,
        args: &[Operand],
    ) -> Option<Pending> {
        let f = self.callee(s, t, callee)?;
        if !matches!(self.ext[f.index()], Ext::Lib(Run::Free)) {
            return None;
        }
        self.whole_block(s, t, span, args.first()?)
    }

    /// A write of every byte of the live heap block `ptr` points to the start of, by thread
    /// `t` at `span` (a `free`, a `realloc`).
    fn whole_block(&self, s: &State, t: Tid, span: Span, ptr: &Operand) -> Option<Pending> {
        let Value::Ptr(Ptr::Mem { alloc, off: 0 }) = self.eval(s, t, ptr) else {
            return None;
        };
        let block = s.mem.get(alloc as usize)?;
        if !block.live || !matches!(block.kind, AllocKind::Heap(_)) {
            return None;
        }
        // A block whose size is not known grows as it is written: every offset is in it.
        let size = block.size.unwrap_or(WHOLE_BLOCK);
        Some(Pending {
            tid: t,
            span,
            loc: Loc {
                object: block.key,
                offset: 0,
                size,
            },
            write: true,
            atomic: false,
        })
    }

    /// The race whose accesses `a` and `b` are, when they conflict: two threads, a common
    /// byte, a write, not both atomic.
    fn race_of(&self, a: &Pending, b: &Pending) -> Option<(AssertId, Tid, Tid)> {
        let overlap = a.loc.object == b.loc.object
            && a.loc.offset < b.loc.offset + b.loc.size as i64
            && b.loc.offset < a.loc.offset + a.loc.size as i64;
        if a.tid == b.tid || !overlap || !(a.write || b.write) || (a.atomic && b.atomic) {
            return None;
        }
        let race = self.races.iter().find(|r| {
            r.spans.contains(&a.span)
                && r.spans.contains(&b.span)
                && match r.memory {
                    RaceMemory::Global(g) => u64::from(g) == a.loc.object,
                    RaceMemory::NotGlobal => a.loc.object & Loc::BY_THREAD != 0,
                    RaceMemory::Any => true,
                }
        })?;
        Some((race.id, a.tid, b.tid))
    }
}

impl Interp<'_> {
    /// The place of thread `t`'s next instruction in `s`, if it is at one.
    pub(crate) fn next_span(&self, s: &State, t: Tid) -> Option<Span> {
        (s.threads.get(t)?.at == At::Inst)
            .then(|| self.cur_inst(s, t))
            .flatten()
            .and_then(|i| i.span)
    }
}
