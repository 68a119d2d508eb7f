//! What a thread is analysed under besides its entry state: per cell, what it may read of the
//! other threads' stores (joined, FSE'16 Alg. 2), and for lock-protected cells what the
//! threads published when they released the lock.
//!
//! Invariant (soundness): for every cell, a thread's interference holds every value another
//! thread, or another instance of it, may store there (of a thread-local cell, what the functions
//! analysed on their own store: `reaches_thread_local`); for a lock-protected cell, every view a
//! thread published at the lock (and the initial value when a detached function may take it
//! first).

use super::results::Threads;
use crate::analysis::engine::Relations;
use crate::analysis::sync::protection::Protection;
use crate::facts::Facts;
use crate::memory::CellId;
use crate::threads::{Origin, Thread};
use watts_domains::{Interval, Lattice, NumDomain};

/// What thread `i` may read from the others: every store of every other thread, and its own
/// stores when it has several instances; of a thread-local cell, only the stores of functions
/// analysed on their own (`reaches_thread_local`).
pub fn interference_for<D>(facts: &Facts<'_>, threads: Threads<'_, D>, i: usize) -> Vec<Interval> {
    let mut out = vec![Interval::bottom(); facts.ncells as usize];
    for (j, (t, r)) in threads.info.iter().zip(threads.results).enumerate() {
        if j == i && !t.multi {
            continue;
        }
        let shares = reaches_thread_local(t);
        for &c in &r.written {
            if shares || !facts.memory.thread_private(CellId(c as u32)) {
                out[c].join_with(&r.stores[c]);
            }
        }
    }
    out
}

/// Whether the stores of `t` into a thread-local cell may be read by other threads.
///
/// Soundness: a thread (`main`, a created one, each instance of a multi-instance one) writes
/// its own copy of a thread-local variable, which no other thread reaches (the address never
/// leaves the instruction that dereferences it, `ir::Global::thread_local`). A function
/// analysed on its own (a callee not inlined, a callback, a signal handler, exit-time code)
/// runs inside some thread and writes that thread's copy: its stores count for every thread.
pub(crate) fn reaches_thread_local(t: &Thread) -> bool {
    t.origin == Origin::Detached
}

/// What thread `i` is analysed under besides its entry state, under `protection` (the
/// lock-protected cells; none without `Composition::protection`): per cell, what it may read of
/// the others (`interference_for`; for protected cells, what was published,
/// `protected_interference`), and per lock the relations published (`protected_relations`).
/// `initial` is the state when `main` starts (`initial_state`).
pub fn inputs_for<D: NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    protection: &Protection,
    initial: &D,
) -> (Vec<Interval>, Relations<D>) {
    let mut interference = interference_for(facts, threads, i);
    protected_interference(&mut interference, threads, protection, initial);
    let relations = protected_relations(threads, protection, initial);
    (interference, relations)
}

/// For lock-protected cells, replaces the interference by what may be there when the lock is
/// taken: every view any thread (this one included) published, and the initial value when a
/// detached function might take the lock before any thread exists.
fn protected_interference<D: NumDomain>(
    interference: &mut [Interval],
    threads: Threads<'_, D>,
    protection: &Protection,
    initial: &D,
) {
    // Before `main` creates its first thread, it publishes its view (the initial value, unless
    // it wrote the cell); only a detached function may take the lock earlier, from another view.
    let detached = threads.info.iter().any(|t| t.origin == Origin::Detached);
    for (c, slot) in interference.iter_mut().enumerate() {
        if protection.lock_of.get(c).is_none_or(Option::is_none) {
            continue;
        }
        let mut v = if detached {
            initial.interval(watts_domains::Var(c as u32))
        } else {
            Interval::bottom()
        };
        for r in threads.results {
            v.join_with(&r.published[c]);
        }
        *slot = v;
    }
}

/// Per lock, the relations among its cells that hold when it is taken: the join of what every
/// thread published (`Transfer::inst`), and of the initial state when a detached function
/// might take the lock before any thread exists (as `protected_interference`). Empty for a
/// non-relational domain.
fn protected_relations<D: NumDomain>(
    threads: Threads<'_, D>,
    protection: &Protection,
    initial: &D,
) -> Relations<D> {
    let mut out = Relations::new();
    if !D::RELATIONAL || !protection.any() {
        return out;
    }
    for r in threads.results {
        for (m, rel) in &r.published_rel {
            crate::analysis::compose::replay::join_relation(&mut out, *m, rel.clone());
        }
    }
    if threads.info.iter().any(|t| t.origin == Origin::Detached) {
        for (m, rel) in out.iter_mut() {
            let vars: Vec<watts_domains::Var> = (protection.cells_of(*m).iter())
                .map(|c| watts_domains::Var(c.0))
                .collect();
            rel.join_with(&initial.project(&vars));
        }
    }
    out
}
