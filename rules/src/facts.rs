//! The oracle's input: [`StaticFacts`], built once per program, and the reads-from pairs of
//! one [`Combination`].
//!
//! Invariant: every builder method *adds* knowledge; a fact the oracle cannot interpret
//! soundly (an event without a thread, a load with two locations, a program-order pair across
//! threads) is ignored, which can only make answers more often [`crate::Verdict::Feasible`].

use crate::{Event, Loc, LockId, ThreadId};

/// Facts about the whole program, computed once by the caller.
///
/// The contracts below are what make the rules sound; the oracle cannot check them.
///
/// * Events belong to thread **classes** ([`StaticFacts::thread_of`]). A class that may have
///   more than one instance in one execution (created in a loop, created by a multi-instance
///   thread, or the same code created at two sites and given one class) must be declared with
///   [`StaticFacts::multi_instance`].
/// * An event that may occur more than once per instance (it lies on a CFG cycle) must be
///   declared with [`StaticFacts::repeats`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StaticFacts {
    pub(crate) program_order: Vec<(Event, Event)>,
    pub(crate) loads: Vec<(Event, Loc)>,
    pub(crate) stores: Vec<(Event, Loc)>,
    pub(crate) may_stores: Vec<(Event, Loc)>,
    pub(crate) creates: Vec<(Event, Event)>,
    pub(crate) joins: Vec<(Event, Event)>,
    pub(crate) joins_all: Vec<AllJoined>,
    pub(crate) thread_of: Vec<(Event, ThreadId)>,
    pub(crate) multi_instance: Vec<ThreadId>,
    pub(crate) repeats: Vec<Event>,
    pub(crate) held: Vec<(Event, LockId)>,
    pub(crate) overwritten_under: Vec<(Event, LockId, Loc)>,
    pub(crate) stored_since_acquire: Vec<(Event, LockId, Loc)>,
}

impl StaticFacts {
    /// No facts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every occurrence of `e` happens while its thread holds `lock` exclusively (no other
    /// thread can hold it at the same time).
    pub fn held(&mut self, e: Event, lock: LockId) -> &mut Self {
        self.held.push((e, lock));
        self
    }

    /// Every occurrence of the store `s` happens while its thread holds `lock` exclusively, and
    /// the thread then stores strongly to `loc` again before it releases `lock` (or never
    /// releases it).
    pub fn overwritten_before_release(&mut self, s: Event, lock: LockId, loc: Loc) -> &mut Self {
        self.overwritten_under.push((s, lock, loc));
        self
    }

    /// Every occurrence of the load `l` happens while its thread holds `lock` exclusively, and
    /// on every path since the thread last acquired `lock` (so while it has held `lock`
    /// without a break) the thread stored strongly to the single cell `loc` that `l` reads.
    /// The dual of [`StaticFacts::overwritten_before_release`]: no store of another thread
    /// class made while holding `lock` can be the one `l` reads.
    pub fn stored_since_acquire(&mut self, l: Event, lock: LockId, loc: Loc) -> &mut Self {
        self.stored_since_acquire.push((l, lock, loc));
        self
    }

    /// `a` must happen before `b` within each instance of their (common) thread class:
    /// `a` dominates `b` in the thread's CFG and `a` is not reachable from `b`
    /// (FSE'16, fig. 4, rule 1). Pairs across classes are ignored.
    pub fn program_order(&mut self, a: Event, b: Event) -> &mut Self {
        self.program_order.push((a, b));
        self
    }

    /// `l` loads the location `loc`. A load declared with two locations has none for rules 4
    /// and 7.
    pub fn load(&mut self, l: Event, loc: Loc) -> &mut Self {
        self.loads.push((l, loc));
        self
    }

    /// `s` is a **strong** store: every occurrence of `s` overwrites the whole single memory
    /// cell `loc` (so a store through a pointer with several targets, or into a summarised
    /// array, is not one; declare it with [`StaticFacts::may_store`]). Declared for several
    /// locations, every occurrence overwrites each of them (a `memcpy` that covers them all).
    /// Only strong stores are used as the overwriting store of rules 4 and 7.
    pub fn store(&mut self, s: Event, loc: Loc) -> &mut Self {
        self.stores.push((s, loc));
        self
    }

    /// `s` may write (part of) `loc`. Such a store may be the source of a reads-from pair but
    /// never overwrites anything in the rules.
    pub fn may_store(&mut self, s: Event, loc: Loc) -> &mut Self {
        self.may_stores.push((s, loc));
        self
    }

    /// The create call `create` starts the thread whose start pseudo-event is `child_start`
    /// (rule 2). The start pseudo-event occurs once per instance, before every other event of
    /// the instance; the oracle adds that program order itself (unless `child_start` is
    /// declared to [`StaticFacts::repeats`], i.e. is not a pseudo-event). The edge `create → start` is
    /// used only when the child class is single-instance and `create` is its only create site.
    pub fn creates(&mut self, create: Event, child_start: Event) -> &mut Self {
        self.creates.push((create, child_start));
        self
    }

    /// Every occurrence of `join` (the point where the `pthread_join` call *returns*) comes
    /// after the termination of the instance whose last event is `child_end` (a must-join: the
    /// handle cannot denote another thread) (rule 2). Used only when the child class is single-instance. Program order from the
    /// child's events to `child_end` is the caller's (only events that dominate the exit).
    pub fn joins(&mut self, child_end: Event, join: Event) -> &mut Self {
        self.joins.push((child_end, join));
        self
    }

    /// Every instance of the multi-instance class of `child_end` has terminated before every
    /// occurrence of `join` (a join loop that provably waits for all of them, then `join` is a
    /// point after the loop). `all_ended` is a fresh pseudo-event of no class: the moment the
    /// last instance terminated. With `at_least_one`, the caller also guarantees that whenever
    /// `join` occurs, at least one instance has run to `child_end` (the class's end
    /// pseudo-event), so every event that comes before `child_end` by the class's program order
    /// has occurred in that instance.
    pub fn joins_all(
        &mut self,
        child_end: Event,
        all_ended: Event,
        join: Event,
        at_least_one: bool,
    ) -> &mut Self {
        self.joins_all.push(AllJoined {
            child_end,
            all_ended,
            join,
            at_least_one,
        });
        self
    }

    /// `e` belongs to the thread class `t`. Facts about events without a class are ignored.
    pub fn thread_of(&mut self, e: Event, t: ThreadId) -> &mut Self {
        self.thread_of.push((e, t));
        self
    }

    /// The class `t` may run as several instances in one execution. Program order inside it
    /// then relates events of one instance only, and reads-from between two of its instances
    /// is possible.
    pub fn multi_instance(&mut self, t: ThreadId) -> &mut Self {
        self.multi_instance.push(t);
        self
    }

    /// `e` may occur more than once in one instance (it lies on a cycle of its CFG). Reads-from
    /// pairs whose load repeats are ignored; a repeating store gets one node per pair.
    pub fn repeats(&mut self, e: Event) -> &mut Self {
        self.repeats.push(e);
        self
    }
}

/// A [`StaticFacts::joins_all`] fact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AllJoined {
    pub(crate) child_end: Event,
    pub(crate) all_ended: Event,
    pub(crate) join: Event,
    pub(crate) at_least_one: bool,
}

/// One interference combination: which store each load reads (FSE'16, Alg. 3 `ic`).
///
/// Contract: all loads of one combination that belong to the same thread class are executed
/// by one instance of it (the instance under analysis). The store of a pair may belong to any
/// class, including another instance of the load's own class.
///
/// Kept in a canonical form (sorted, no duplicates), so two combinations with the same pairs
/// are equal and hash equally whatever order they were built in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Combination {
    // Invariant: sorted, no duplicates.
    reads_from: Vec<(Event, Event)>,
    // Invariant: sorted by load, one entry per load, each store list sorted without duplicates.
    reads_one_of: Vec<(Event, Vec<Event>)>,
}

impl Combination {
    /// The empty combination (every load reads its own thread's state).
    pub fn new() -> Self {
        Self::default()
    }

    /// The load `load` reads exactly the value written by (one occurrence of) `store`.
    pub fn reads_from(&mut self, load: Event, store: Event) -> &mut Self {
        if let Err(at) = self.reads_from.binary_search(&(load, store)) {
            self.reads_from.insert(at, (load, store));
        }
        self
    }

    /// The load `load` reads one of `stores` (or its own state), e.g. a load in a loop that
    /// reads the join of several stores. Such a load is in the cache key but never in a rule:
    /// rules 3, 4 and 7 assume that a load reads exactly one store.
    pub fn reads_one_of(
        &mut self,
        load: Event,
        stores: impl IntoIterator<Item = Event>,
    ) -> &mut Self {
        let at = match self.reads_one_of.binary_search_by_key(&load, |(l, _)| *l) {
            Ok(at) => at,
            Err(at) => {
                self.reads_one_of.insert(at, (load, Vec::new()));
                at
            }
        };
        let set = &mut self.reads_one_of[at].1;
        set.extend(stores);
        set.sort_unstable();
        set.dedup();
        self
    }

    /// The exact reads-from pairs `(load, store)`, sorted.
    pub fn pairs(&self) -> &[(Event, Event)] {
        &self.reads_from
    }

    /// The loads that read one of several stores, sorted by load.
    pub fn uncertain(&self) -> &[(Event, Vec<Event>)] {
        &self.reads_one_of
    }
}

impl FromIterator<(Event, Event)> for Combination {
    fn from_iter<I: IntoIterator<Item = (Event, Event)>>(iter: I) -> Self {
        let mut c = Combination::new();
        for (l, s) in iter {
            c.reads_from(l, s);
        }
        c
    }
}
