//! What the concolic shadow of the interpreter records about one execution: every step as an
//! event (with the location and symbolic value of the shared accesses), and each thread's path
//! condition.
//!
//! Invariants: event `i` is the `i`-th step of the execution, and the `k`-th event of a thread
//! is its `k`-th step, so that an order of events is a schedule. A branch of a thread lies
//! between its event `events - 1` and its event `events` (it is in the local code that follows
//! a step). Locations are named by schedule-independent keys ([`Loc`]).

use super::expr::{Sym, E};
use crate::explore::{Loc, Tid};
use crate::ir::AssertId;
use std::collections::BTreeMap;

/// One execution as the symbolic search sees it.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Every step, in order.
    pub events: Vec<Event>,
    /// Every thread of the execution, by `Tid`.
    pub threads: Vec<ThreadTrace>,
    /// Every input the execution took: its symbol's width and the value it had.
    pub inputs: BTreeMap<(Tid, u32), (u32, i128)>,
    /// What each shared location held before its first visible access: the initial value of
    /// a global, or what the owner thread stored while the location was still local (`None`:
    /// not an integer).
    pub base: BTreeMap<Loc, Option<E>>,
}

/// One thread of a trace.
#[derive(Clone, Debug, Default)]
pub struct ThreadTrace {
    /// Its events (indices into [`Trace::events`]), in program order.
    pub events: Vec<usize>,
    /// Its path condition, in program order.
    pub branches: Vec<Branch>,
}

/// A step of a trace.
#[derive(Clone, Debug)]
pub struct Event {
    /// The thread that moved.
    pub tid: Tid,
    /// What its visible operation did.
    pub kind: EventKind,
}

/// The visible operation of a step, as far as the encoding models it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// Nothing the encoding needs (a thread's start, an input, an unmodelled operation).
    Other,
    /// A shared load. `bits`: the width of its symbol ([`Sym::Read`] of this event), 0 when
    /// the value is not an integer (no symbol); `value`: what it read.
    Read { loc: Loc, bits: u32, value: u128 },
    /// A shared store of `value` (at the location's width; `None`: not an integer).
    Write { loc: Loc, value: Option<E> },
    /// An atomic read-modify-write: reads (symbol of `bits` bits, concrete `value`), then
    /// writes `written`.
    Update {
        loc: Loc,
        bits: u32,
        value: u128,
        written: Option<E>,
    },
    /// A write the encoding does not model exactly (memset, memcpy, free, realloc): reads of
    /// overlapping locations keep their concrete values.
    Clobber { loc: Loc },
    /// A mutex acquired (the global atomic section is [`ATOMIC`]).
    Lock(Loc),
    /// A mutex released.
    Unlock(Loc),
    /// A thread created.
    Spawn(Tid),
    /// A thread joined.
    Join(Tid),
    /// The process exited (`main` returned, `exit`): after every other event.
    Exit,
}

/// The lock that stands for `__VERIFIER_atomic_begin/end` sections.
pub const ATOMIC: Loc = Loc {
    object: u64::MAX,
    offset: 0,
    size: 0,
};

/// A condition the execution decided with a symbolic value.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The condition (width 1).
    pub cond: E,
    /// Its value in the execution.
    pub taken: bool,
    /// Whether another execution may decide it the other way: false for constraints that
    /// only pin a value the interpreter used concretely (an address, a shift amount, an
    /// assumption that held).
    pub flippable: bool,
    /// How many events of the thread precede it.
    pub events: usize,
    /// Where it is in the program (the same in every execution).
    pub site: u64,
    /// The assertion that fails when the branch goes the other way, when known.
    pub leads_to: Option<AssertId>,
}

impl Trace {
    /// The value of every symbol in the execution (read values and inputs), for checks.
    pub fn value(&self, sym: Sym) -> u128 {
        match sym {
            Sym::Input { tid, n } => self.inputs.get(&(tid, n)).map_or(0, |&(_, v)| v as u128),
            Sym::Read { event } => match &self.events[event].kind {
                EventKind::Read { value, .. } | EventKind::Update { value, .. } => *value,
                _ => 0,
            },
        }
    }
}
