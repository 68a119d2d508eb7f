//! The formula of a path prefix over one trace: Φ_sync ∧ Φ_dc ∧ Φ_pc (MPC, FSE'18, section
//! 2 of `papers/notes/mpc.md`), over the sub-trace of the events the prefix executes.
//!
//! - Order: an `Int` variable `o<e>` per event; program order within a thread, a spawn before
//!   the child's first event, the child's last event before its join, critical sections on
//!   one mutex (and `__VERIFIER_atomic` sections, one global lock) disjoint, accesses to one
//!   location at distinct times.
//! - Φ_dc: a read returns the value of a write to its location ordered before it with no
//!   write of that location in between (of its own thread only the nearest earlier one), or
//!   the location's initial value when no write precedes it. A read of a location some access
//!   overlaps without matching it (mixed sizes, memset, memcpy) keeps its concrete value.
//! - Φ_pc: each thread's kept branches as observed, the flipped one negated.
//!
//! Invariant: the formula only proposes; an imprecise one costs a wasted run, never a claim.
//!
//! The prefix executes, per thread, its events before its first unconstrained branch (at most one
//! branch is flipped), and a thread exists only if its spawn is kept. The process exit is ordered
//! last. A read's candidate write of another thread must not be followed, before the read, by the
//! next write of that thread to the location.

use super::expr::Sym;
use super::smt::{self, Writer};
use super::trace::{EventKind, Trace};
use crate::explore::{Loc, Tid};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;

/// What a prefix keeps of one thread's path condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cut {
    /// Branches kept as observed.
    pub keep: usize,
    /// Whether the branch after them is negated.
    pub flip: bool,
}

/// A path prefix over a trace, by thread (threads past the end keep nothing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Prefix {
    pub cuts: Vec<Cut>,
}

/// Facts of a trace every query over it uses.
#[derive(Debug, Default)]
pub struct Index {
    /// Locations some other access overlaps without matching exactly.
    messy: HashSet<Loc>,
    /// The event that spawned each thread.
    spawn: HashMap<Tid, usize>,
}

impl Index {
    pub fn new(trace: &Trace) -> Index {
        let mut by_object: HashMap<u64, Vec<(Loc, bool)>> = HashMap::new();
        let mut spawn = HashMap::new();
        for (i, e) in trace.events.iter().enumerate() {
            match &e.kind {
                EventKind::Read { loc, .. }
                | EventKind::Write { loc, .. }
                | EventKind::Update { loc, .. } => {
                    by_object.entry(loc.object).or_default().push((*loc, false))
                }
                EventKind::Clobber { loc } => {
                    by_object.entry(loc.object).or_default().push((*loc, true))
                }
                EventKind::Spawn(c) => {
                    spawn.insert(*c, i);
                }
                _ => {}
            }
        }
        let mut messy = HashSet::new();
        for accesses in by_object.values() {
            let mut locs: Vec<(Loc, bool)> = accesses.clone();
            locs.sort_by_key(|(l, c)| (l.offset, l.size, *c));
            locs.dedup();
            for (i, (a, ca)) in locs.iter().enumerate() {
                for (b, cb) in &locs[i + 1..] {
                    let overlap =
                        a.offset < b.offset + b.size as i64 && b.offset < a.offset + a.size as i64;
                    if overlap && (a != b || *ca || *cb) {
                        messy.insert(*a);
                        messy.insert(*b);
                    }
                }
                if *ca {
                    messy.insert(*a);
                }
            }
        }
        Index { messy, spawn }
    }
}

pub use crate::limits::MAX_DC_TERMS;

/// An upper bound of the terms Φ_dc has over every event of `trace`: per location, each read
/// may read from each write with every other write outside the interval
/// (`reads × writes²`). Any prefix encodes a subset of the events, so no more.
pub fn dc_terms(trace: &Trace) -> u64 {
    let mut per_loc: HashMap<Loc, (u64, u64)> = HashMap::new();
    for e in &trace.events {
        match &e.kind {
            EventKind::Read { loc, .. } => per_loc.entry(*loc).or_default().0 += 1,
            EventKind::Write { loc, .. } => per_loc.entry(*loc).or_default().1 += 1,
            EventKind::Update { loc, .. } => {
                let c = per_loc.entry(*loc).or_default();
                c.0 += 1;
                c.1 += 1;
            }
            _ => {}
        }
    }
    per_loc.values().fold(0u64, |acc, &(r, w)| {
        acc.saturating_add(r.saturating_mul(w.saturating_mul(w).max(1)))
    })
}

/// A query: the script, and what reading its model needs.
#[derive(Clone, Debug)]
pub struct Query {
    pub script: String,
    /// The events of the prefix (their order in the model is the schedule).
    pub events: Vec<usize>,
    /// The inputs the formula mentions: (thread, n) → width.
    pub inputs: BTreeMap<(Tid, u32), u32>,
}

/// How many events of each thread the prefix executes.
pub fn included(trace: &Trace, index: &Index, prefix: &Prefix) -> Vec<usize> {
    let mut n: Vec<usize> = Vec::with_capacity(trace.threads.len());
    for (t, th) in trace.threads.iter().enumerate() {
        let cut = prefix.cuts.get(t).copied().unwrap_or(Cut {
            keep: 0,
            flip: false,
        });
        let mut k = if cut.keep < th.branches.len() {
            th.branches[cut.keep].events
        } else {
            th.events.len()
        };
        // A thread exists only if its spawn is executed.
        if let Some(&e) = index.spawn.get(&t) {
            let parent = trace.events[e].tid;
            let pos = trace.threads[parent].events.iter().position(|&x| x == e);
            if pos.is_none_or(|p| parent >= n.len() || p >= n[parent]) {
                k = 0;
            }
        }
        n.push(k);
    }
    n
}

/// The formula of `prefix` over `trace`.
pub fn encode(trace: &Trace, index: &Index, prefix: &Prefix, timeout_ms: u64) -> Query {
    let counts = included(trace, index, prefix);
    let mut w = Writer::default();
    let mut asserts: Vec<String> = Vec::new();
    let mut events: Vec<usize> = Vec::new();
    let o = |e: usize| format!("o{e}");
    // Program order.
    for (t, th) in trace.threads.iter().enumerate() {
        let evs = &th.events[..counts[t]];
        events.extend_from_slice(evs);
        for pair in evs.windows(2) {
            asserts.push(format!("(< {} {})", o(pair[0]), o(pair[1])));
        }
    }
    let inc: HashSet<usize> = events.iter().copied().collect();
    let first = |t: Tid| {
        trace
            .threads
            .get(t)
            .and_then(|th| th.events.first())
            .copied()
    };
    let last_included = |t: Tid| {
        (counts.get(t).copied().unwrap_or(0) > 0).then(|| trace.threads[t].events[counts[t] - 1])
    };
    // Spawn and join; locks; accesses by location.
    let mut sections: BTreeMap<Loc, Vec<(Tid, usize, Option<usize>)>> = BTreeMap::new();
    let mut open: HashMap<(Tid, Loc), usize> = HashMap::new();
    let mut accesses: BTreeMap<Loc, Vec<usize>> = BTreeMap::new();
    let mut writes: BTreeMap<Loc, Vec<usize>> = BTreeMap::new();
    let mut sorted = events.clone();
    sorted.sort_unstable();
    for &e in &sorted {
        let ev = &trace.events[e];
        match &ev.kind {
            EventKind::Spawn(c) => {
                if let Some(f) = first(*c).filter(|f| inc.contains(f)) {
                    asserts.push(format!("(< {} {})", o(e), o(f)));
                }
            }
            EventKind::Join(c) => {
                if let Some(l) = last_included(*c) {
                    asserts.push(format!("(< {} {})", o(l), o(e)));
                }
            }
            EventKind::Lock(m) => {
                open.insert((ev.tid, *m), e);
            }
            EventKind::Exit => {
                for &x in &events {
                    if x != e {
                        asserts.push(format!("(< {} {})", o(x), o(e)));
                    }
                }
            }
            EventKind::Unlock(m) => {
                if let Some(l) = open.remove(&(ev.tid, *m)) {
                    sections.entry(*m).or_default().push((ev.tid, l, Some(e)));
                }
            }
            EventKind::Read { loc, .. } => accesses.entry(*loc).or_default().push(e),
            EventKind::Write { loc, .. } | EventKind::Update { loc, .. } => {
                accesses.entry(*loc).or_default().push(e);
                writes.entry(*loc).or_default().push(e);
            }
            _ => {}
        }
    }
    for ((t, m), l) in open {
        sections.entry(m).or_default().push((t, l, None));
    }
    for secs in sections.values() {
        for (i, a) in secs.iter().enumerate() {
            for b in &secs[i + 1..] {
                if a.0 == b.0 {
                    continue;
                }
                let before = |x: &(Tid, usize, Option<usize>), y: &(Tid, usize, Option<usize>)| {
                    x.2.map(|u| format!("(< {} {})", o(u), o(y.1)))
                };
                match (before(a, b), before(b, a)) {
                    (Some(p), Some(q)) => asserts.push(format!("(or {p} {q})")),
                    (Some(p), None) | (None, Some(p)) => asserts.push(p),
                    (None, None) => asserts.push("false".into()),
                }
            }
        }
    }
    // No `distinct`: the strict inequalities below already exclude a tie between a read and
    // a write it may read from or that may come between; other ties are harmless, and the
    // schedule breaks them by event index.
    let _ = accesses;
    // Φ_dc.
    let no_writes: Vec<usize> = Vec::new();
    for &r in &sorted {
        let ev = &trace.events[r];
        let (loc, bits, value) = match &ev.kind {
            EventKind::Read { loc, bits, value }
            | EventKind::Update {
                loc, bits, value, ..
            } if *bits > 0 => (*loc, *bits, *value),
            _ => continue,
        };
        let v = smt::sym_name(Sym::Read { event: r });
        w.symbols.insert(Sym::Read { event: r }, bits);
        if index.messy.contains(&loc) {
            asserts.push(format!("(= {v} {})", smt::literal(value, bits)));
            continue;
        }
        let ws = writes.get(&loc).unwrap_or(&no_writes);
        // The writes of each thread, in program order (`sorted` is in step order, which
        // agrees with program order within a thread).
        let mut by_thread: BTreeMap<Tid, Vec<usize>> = BTreeMap::new();
        for &x in ws {
            if x != r {
                by_thread.entry(trace.events[x].tid).or_default().push(x);
            }
        }
        let pos = |e: usize| trace.threads[ev.tid].events.iter().position(|&x| x == e);
        let own_before: Option<usize> = by_thread
            .get(&ev.tid)
            .and_then(|own| own.iter().copied().rfind(|&x| pos(x) < pos(r)));
        let mut options = Vec::new();
        for (&t, ts) in &by_thread {
            for (i, &c) in ts.iter().enumerate() {
                if t == ev.tid && Some(c) != own_before {
                    continue;
                }
                let val = match &trace.events[c].kind {
                    EventKind::Write { value, .. } => value.clone(),
                    EventKind::Update { written, .. } => written.clone(),
                    _ => None,
                };
                let mut parts = vec![format!("(< {} {})", o(c), o(r))];
                if let Some(val) = val.filter(|e| e.bits() == bits) {
                    parts.push(format!("(= {v} {})", w.term(&val)));
                }
                // No later write of the same thread before the read (its own thread's later
                // writes follow the read in program order).
                if t != ev.tid {
                    if let Some(&next) = ts.get(i + 1) {
                        parts.push(format!("(< {} {})", o(r), o(next)));
                    }
                    if let Some(ob) = own_before {
                        parts.push(format!("(< {} {})", o(ob), o(c)));
                    }
                }
                // No write of a third thread in between.
                for (&u, us) in &by_thread {
                    if u == t || u == ev.tid {
                        continue;
                    }
                    for &x in us {
                        parts.push(format!("(or (< {} {}) (< {} {}))", o(x), o(c), o(r), o(x)));
                    }
                }
                options.push(format!("(and {})", parts.join(" ")));
            }
        }
        if own_before.is_none() {
            // The initial value: every other thread's first write comes after the read.
            let mut parts: Vec<String> = by_thread
                .iter()
                .filter(|(u, _)| **u != ev.tid)
                .filter_map(|(_, us)| us.first())
                .map(|&x| format!("(< {} {})", o(r), o(x)))
                .collect();
            match trace.base.get(&loc) {
                Some(Some(b)) if b.bits() == bits => parts.push(format!("(= {v} {})", w.term(b))),
                Some(_) => {}
                None => parts.push(format!("(= {v} {})", smt::literal(value, bits))),
            }
            parts.push("true".into());
            options.push(format!("(and {})", parts.join(" ")));
        }
        asserts.push(match options.len() {
            0 => "false".into(),
            1 => options.pop().unwrap_or_default(),
            _ => format!("(or {})", options.join(" ")),
        });
    }
    // Φ_pc.
    for (t, th) in trace.threads.iter().enumerate() {
        if counts[t] == 0 && t != 0 {
            continue;
        }
        let cut = prefix.cuts.get(t).copied().unwrap_or(Cut {
            keep: 0,
            flip: false,
        });
        for b in &th.branches[..cut.keep.min(th.branches.len())] {
            asserts.push(w.condition(&b.cond, b.taken));
        }
        if cut.flip {
            if let Some(b) = th.branches.get(cut.keep) {
                asserts.push(w.condition(&b.cond, !b.taken));
            }
        }
    }
    // The script.
    let mut script = String::new();
    let _ = writeln!(script, "(set-option :timeout {timeout_ms})");
    script.push_str(&w.prelude());
    for &e in &events {
        let _ = writeln!(script, "(declare-const {} Int)", o(e));
    }
    for a in &asserts {
        let _ = writeln!(script, "(assert {a})");
    }
    script.push_str("(check-sat)\n");
    let inputs: BTreeMap<(Tid, u32), u32> = w
        .symbols
        .iter()
        .filter_map(|(s, bits)| match s {
            Sym::Input { tid, n } => Some(((*tid, *n), *bits)),
            Sym::Read { .. } => None,
        })
        .collect();
    let mut names: Vec<String> = events.iter().map(|&e| o(e)).collect();
    names.extend(
        inputs
            .keys()
            .map(|&(tid, n)| smt::sym_name(Sym::Input { tid, n })),
    );
    let _ = writeln!(script, "(get-value ({}))", names.join(" "));
    Query {
        script,
        events,
        inputs,
    }
}
