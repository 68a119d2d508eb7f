//! Races to confirm (`--confirm` of the race check): a state in which the next visible
//! operations of two threads are conflicting accesses of one reported race is a data race of
//! a real execution. The interpreter ends such a state `Violated` with the race's id.
//!
//! Soundness of the claim (a confirmed race is real): both threads are enabled, so either may
//! run its access next; the two accesses touch a common byte of one object, at least one
//! writes (a compare-exchange counts as a read: it may not write), and not both are atomic.
//! Nothing orders them: neither can wait for the other.

use super::{At, Interp, State};
use crate::explore::{Loc, Op, Tid};
use crate::ir::{AssertId, InstKind, Span};
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
        let mut pending: Vec<Pending> = Vec::new();
        for t in self.enabled_raw(s) {
            if s.threads[t].at != At::Inst {
                continue;
            }
            let Some(inst) = self.cur_inst(s, t) else {
                continue;
            };
            let Some(span) = inst.span.filter(|sp| self.race_spans.contains(sp)) else {
                continue;
            };
            let (write, atomic) = match inst.kind {
                InstKind::Load { atomic, .. } => (false, atomic),
                InstKind::Store { atomic, .. } => (true, atomic),
                InstKind::AtomicRmw { .. } => (true, true),
                InstKind::CmpXchg { .. } => (false, true),
                _ => continue,
            };
            let loc = match self.inst_op(s, t, inst) {
                Op::Load(l) | Op::Store(l) | Op::Update(l) => l,
                _ => continue,
            };
            pending.push(Pending {
                tid: t,
                span,
                loc,
                write,
                atomic,
            });
        }
        for (i, a) in pending.iter().enumerate() {
            for b in &pending[i + 1..] {
                let overlap = a.loc.object == b.loc.object
                    && a.loc.offset < b.loc.offset + b.loc.size as i64
                    && b.loc.offset < a.loc.offset + a.loc.size as i64;
                if a.tid == b.tid || !overlap || !(a.write || b.write) || (a.atomic && b.atomic) {
                    continue;
                }
                let race = self.races.iter().find(|r| {
                    r.spans.contains(&a.span)
                        && r.spans.contains(&b.span)
                        && match r.memory {
                            RaceMemory::Global(g) => u64::from(g) == a.loc.object,
                            RaceMemory::NotGlobal => a.loc.object & Loc::BY_THREAD != 0,
                            RaceMemory::Any => true,
                        }
                });
                if let Some(r) = race {
                    return Some((r.id, a.tid, b.tid));
                }
            }
        }
        None
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
