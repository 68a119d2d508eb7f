//! Equivalence classes of executions, for measuring how much a coarser equivalence saves
//! (`watts confirm` issue; Agarwal et al., CAV'21): the **reads-from** class of an execution
//! (which write each read reads) and its **reads-value-from** class (the value each read
//! reads, and the causal order among reads).
//!
//! Invariant: both signatures are computed from the visible steps alone, under sequential
//! consistency: a read reads the last write to its location before it in the trace. Events
//! are named `(thread, k)`: the k-th visible step of that thread. Two executions with equal
//! RVF signatures leave every thread in the same local state (same values read in the same
//! causal order), so exploring one per class is enough for assertions.

use super::{StepInfo, StepKind, Tid};
use std::collections::{BTreeMap, BTreeSet};

/// An event of an execution: the k-th visible step of a thread.
pub type EventId = (Tid, usize);

/// The reads-from signature: every read (and lock acquisition) with the write (or release) it
/// reads from (`None`: the initial value).
pub type RfSignature = Vec<(EventId, Option<EventId>)>;

/// The reads-value-from signature: every read with the value it reads and the reads that
/// causally precede it.
pub type RvfSignature = Vec<(EventId, String, Vec<EventId>)>;

/// What an event does to memory, for the signatures.
enum Access<'a> {
    Read(&'a str, &'a str),
    Write(&'a str),
    Update(&'a str, &'a str, bool),
    None,
}

fn access(kind: &StepKind) -> Access<'_> {
    match kind {
        StepKind::Read { loc, value } => Access::Read(loc, value),
        StepKind::Write { loc, .. } => Access::Write(loc),
        StepKind::Update { loc, read, written } => Access::Update(loc, read, written.is_some()),
        // A lock is a read of the last release (mutexes, CAV'21 appendix A) and a write.
        StepKind::Lock(m) | StepKind::TryLockFailed(m) => Access::Update(m, "", true),
        StepKind::Unlock(m) => Access::Write(m),
        _ => Access::None,
    }
}

/// Both signatures of the execution `steps`.
pub fn signatures(steps: &[StepInfo]) -> (RfSignature, RvfSignature) {
    let mut count: BTreeMap<Tid, usize> = BTreeMap::new();
    let mut last_write: BTreeMap<&str, EventId> = BTreeMap::new();
    // Vector clocks: the last event of each thread that happens before.
    let mut clock: BTreeMap<Tid, BTreeMap<Tid, usize>> = BTreeMap::new();
    let mut clock_of: BTreeMap<EventId, BTreeMap<Tid, usize>> = BTreeMap::new();
    let mut end_clock: BTreeMap<Tid, BTreeMap<Tid, usize>> = BTreeMap::new();
    let mut rf = Vec::new();
    let mut reads: Vec<(EventId, String)> = Vec::new();
    let join = |into: &mut BTreeMap<Tid, usize>, from: &BTreeMap<Tid, usize>| {
        for (t, k) in from {
            let e = into.entry(*t).or_insert(0);
            *e = (*e).max(*k);
        }
    };
    for s in steps {
        let k = {
            let c = count.entry(s.tid).or_insert(0);
            *c += 1;
            *c
        };
        let id = (s.tid, k);
        let mut vc = clock.get(&s.tid).cloned().unwrap_or_default();
        vc.insert(s.tid, k);
        let (read, write) = match access(&s.kind) {
            Access::Read(loc, value) => (Some((loc, value)), None),
            Access::Write(loc) => (None, Some(loc)),
            Access::Update(loc, value, writes) => (Some((loc, value)), writes.then_some(loc)),
            Access::None => (None, None),
        };
        if let Some((loc, value)) = read {
            let source = last_write.get(loc).copied();
            if let Some(src) = source {
                if let Some(c) = clock_of.get(&src) {
                    join(&mut vc, &c.clone());
                }
            }
            rf.push((id, source));
            reads.push((id, value.to_string()));
        }
        if let Some(loc) = write {
            last_write.insert(loc, id);
        }
        match &s.kind {
            StepKind::Spawn { child, .. } => {
                // The child starts after everything its parent did so far.
                clock.insert(*child, vc.clone());
            }
            StepKind::Join(t) => {
                if let Some(c) = end_clock.get(t) {
                    join(&mut vc, &c.clone());
                }
            }
            _ => {}
        }
        clock.insert(s.tid, vc.clone());
        end_clock.insert(s.tid, vc.clone());
        clock_of.insert(id, vc);
    }
    let rvf = reads
        .iter()
        .map(|(id, value)| {
            let vc = &clock_of[id];
            let before: Vec<EventId> = reads
                .iter()
                .map(|(r, _)| *r)
                .filter(|r| r != id && vc.get(&r.0).is_some_and(|k| *k >= r.1))
                .collect();
            (*id, value.clone(), before)
        })
        .collect();
    (rf, rvf)
}

/// Distinct classes seen so far.
#[derive(Debug, Default)]
pub struct ClassCounter {
    rf: BTreeSet<RfSignature>,
    rvf: BTreeSet<RvfSignature>,
}

impl ClassCounter {
    /// Counts the execution `steps`.
    pub fn add(&mut self, steps: &[StepInfo]) {
        let (rf, rvf) = signatures(steps);
        self.rf.insert(rf);
        self.rvf.insert(rvf);
    }

    /// (reads-from classes, reads-value-from classes).
    pub fn counts(&self) -> (usize, usize) {
        (self.rf.len(), self.rvf.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(tid: Tid, kind: StepKind) -> StepInfo {
        StepInfo {
            tid,
            span: None,
            kind,
        }
    }
    fn w(tid: Tid, loc: &str, v: &str) -> StepInfo {
        step(
            tid,
            StepKind::Write {
                loc: loc.into(),
                value: v.into(),
            },
        )
    }
    fn r(tid: Tid, loc: &str, v: &str) -> StepInfo {
        step(
            tid,
            StepKind::Read {
                loc: loc.into(),
                value: v.into(),
            },
        )
    }

    #[test]
    fn two_writers_of_the_same_value_are_two_rf_classes_and_one_rvf_class() {
        // t1 and t2 write x = 1; t3 reads x after both.
        let a = [w(1, "x", "1"), w(2, "x", "1"), r(3, "x", "1")];
        let b = [w(2, "x", "1"), w(1, "x", "1"), r(3, "x", "1")];
        let mut c = ClassCounter::default();
        c.add(&a);
        c.add(&b);
        assert_eq!(c.counts(), (2, 1));
    }

    #[test]
    fn the_causal_order_of_reads_separates_rvf_classes() {
        // t1: r x; w y.  t2: r y.  Whether t2's read sees t1's write orders t1's read first.
        let a = [r(1, "x", "0"), w(1, "y", "0"), r(2, "y", "0")];
        let b = [r(2, "y", "0"), r(1, "x", "0"), w(1, "y", "0")];
        let (_, rvf_a) = signatures(&a);
        let (_, rvf_b) = signatures(&b);
        assert_ne!(rvf_a, rvf_b);
        assert_eq!(rvf_a[1].2, vec![(1, 1)]);
    }

    #[test]
    fn equal_traces_have_equal_signatures() {
        let a = [w(0, "x", "1"), r(1, "x", "1")];
        assert_eq!(signatures(&a), signatures(&a.clone()));
    }
}
