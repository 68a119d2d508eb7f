//! Where a load's candidate stores come from: the store events of the other threads (and of the
//! other instances of this one) into the cells it reads, as the fixpoint's results hold them.
//!
//! Invariant (soundness): a list holds every store of another thread into those cells that may
//! reach this thread's copy; where that cannot be listed (a wide store, a load of several
//! thread-local cells) there is no list, and the load reads the joined interference.

use super::choices::Candidate;
use crate::analysis::compose::interference::reaches_thread_local;
use crate::analysis::compose::results::Threads;
use crate::facts::Facts;
use crate::memory::CellId;

/// Stores of other threads (and of other instances of this one) into any of `cells`, by
/// thread, then in the order of the thread's `events`; `None` when one of them is a wide store
/// (`ThreadResults::wide`), which has no event to list.
pub(super) fn candidates_for<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    cells: &[CellId],
) -> Option<Vec<Candidate>> {
    let [c] = cells else {
        return candidates_scan(facts, threads, i, cells);
    };
    // One cell (the common case): each thread's stores by cell, instead of all its stores.
    let private = facts.memory.thread_private(*c);
    let mut out = Vec::new();
    for (j, u) in threads.results.iter().enumerate() {
        if j == i && !threads.info[i].multi {
            continue;
        }
        // Soundness: another thread's store into its own copy of a thread-local cell is not
        // in this thread's copy (see `interference::reaches_thread_local`).
        if private && !reaches_thread_local(&threads.info[j]) {
            continue;
        }
        if u.wide.contains(*c) {
            return None;
        }
        out.extend(u.stores_to(*c).iter().map(|&(at, value)| Candidate {
            thread: j,
            at,
            value,
        }));
    }
    Some(out)
}

/// `candidates_for` by scanning every store of every thread.
fn candidates_scan<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    cells: &[CellId],
) -> Option<Vec<Candidate>> {
    // A load of several cells of a thread-local variable (an array element) reads the joined
    // interference, which keeps only the stores that may reach this thread's copy.
    if cells.iter().any(|c| facts.memory.thread_private(*c)) {
        return None;
    }
    let mut out = Vec::new();
    for (j, u) in threads.results.iter().enumerate() {
        if j == i && !threads.info[i].multi {
            continue;
        }
        if cells.iter().any(|c| u.wide.contains(*c)) {
            return None;
        }
        for (at, ev) in &u.events {
            if cells.iter().any(|c| ev.cells.contains_key(c)) {
                // Soundness: the load reads one of `cells`; from this store, whatever the
                // store wrote into that cell (see `StoreEv`).
                out.push(Candidate {
                    thread: j,
                    at: *at,
                    value: ev.value_into(cells),
                });
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stores_of_one_cell_are_the_candidates_of_a_full_scan_in_order() {
        let src = r#"
            #include <pthread.h>
            int x, y, z[4];
            static void *a(void *p) { (void)p; x = 1; y = 2; x = 3; z[1] = 4; return 0; }
            static void *b(void *p) { (void)p; y = 5; x = 6; z[2] = 7; return 0; }
            int main(void) {
                pthread_t t[3];
                pthread_create(&t[0], 0, a, 0);
                for (int i = 1; i < 3; i++) pthread_create(&t[i], 0, b, 0);
                x = 8;
                return 0; }
        "#;
        use crate::analysis::testing::{with_fixpoint, FLOW_SENSITIVE};
        // Store events are kept by the flow-sensitive modes only.
        with_fixpoint(src, FLOW_SENSITIVE, |_, facts, fix| {
            let threads = fix.view();
            assert!(
                fix.threads.iter().any(|t| t.multi),
                "b has several instances"
            );
            let key = |v: Vec<Candidate>| -> Vec<_> {
                v.into_iter().map(|c| (c.thread, c.at, c.value)).collect()
            };
            let mut seen = 0;
            for i in 0..threads.len() {
                for c in 0..facts.ncells {
                    let cell = [CellId(c)];
                    let scanned = candidates_scan(facts, threads, i, &cell).expect("no wide store");
                    seen += scanned.len();
                    let indexed = candidates_for(facts, threads, i, &cell).expect("no wide store");
                    assert_eq!(key(indexed), key(scanned), "thread {i}, cell {c}");
                }
            }
            assert!(seen > 3, "{seen}");
        })
    }

    /// A store through a pointer made from an integer writes every exposed cell (more than
    /// `WIDE_STORE` here): it is kept as wide, and the loads of its cells get no candidate list,
    /// so they read the joined interference (tests/corpus/16-edges/mo-04-wide-store.c).
    #[test]
    fn a_wide_store_leaves_its_loads_to_the_joined_interference() {
        let src = include_str!("../../../../tests/corpus/16-edges/mo-04-wide-store.c");
        use crate::analysis::testing::{with_fixpoint, FLOW_SENSITIVE};
        with_fixpoint(src, FLOW_SENSITIVE, |program, facts, fix| {
            let threads = fix.view();
            let writer = (fix.threads.iter()).position(|t| t.name == "writer");
            let writer = &fix.results[writer.expect("writer")];
            assert!(
                !writer.wide.is_empty(),
                "the store through the integer is wide"
            );
            assert!(writer
                .events
                .values()
                .all(|e| e.cells.len() <= crate::analysis::compose::replay::WIDE_STORE));
            let x = (program.globals.iter()).find(|g| g.name == "x").expect("x");
            let x = facts.memory.cells.of(x.obj).next().expect("a cell");
            assert!(writer.wide.contains(x));
            assert!(candidates_for(facts, threads, 0, &[x]).is_none());
            assert!(candidates_scan(facts, threads, 0, &[x]).is_none());
        })
    }
}
