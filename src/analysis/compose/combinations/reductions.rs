//! The reductions of the enumeration (rules/README.md, "Reductions of the enumeration"; D9):
//! choices and combinations that a kept one covers (covered cuts, the inherited own view), and
//! candidate stores that the order of thread creation rules out (stores of threads created after
//! the load, and inherited stores, which the own view holds). None of them calls a combination
//! infeasible: that is the oracle's job.
//!
//! Invariant (soundness): every execution still agrees, on the loads it executes, with a kept
//! combination: a dropped choice or combination stands only for executions that a kept one
//! covers, and a dropped candidate is a store no execution reads there, or one the own view holds.

use super::choices::{Candidate, Choice, Key, SharedLoad};
use super::sources::{Source, SourceFinder};
use crate::analysis::compose::results::Threads;
use crate::analysis::sync::feasibility::single_slot;
use crate::facts::Facts;
use crate::memory::CellId;
use crate::threads::{NodeId, Origin, Thread};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// Whether the combination `digits` need not be analysed: it cuts some load `k`, and the same
/// combination with a reading choice at `k` is kept (or itself covered).
///
/// Soundness: a combination that cuts `k` stands for executions that do not reach `k` and agree
/// with it on every load they execute; they agree with the covering combination on every load
/// they execute too (the two differ only at `k`), and its analysis covers them.
pub(super) fn covered_by_kept(
    loads: &[SharedLoad],
    digits: &[usize],
    kept: &HashSet<Vec<usize>>,
) -> bool {
    let mut other = digits.to_vec();
    for (k, l) in loads.iter().enumerate() {
        if !matches!(l.options[digits[k]], Choice::Cut) {
            continue;
        }
        for (o, choice) in l.options.iter().enumerate() {
            if matches!(choice, Choice::Cut) {
                continue;
            }
            other[k] = o;
            if kept.contains(&other) {
                return true;
            }
        }
        other[k] = digits[k];
    }
    false
}

/// Drops the `Own` choice of a load (or the `Remote` group it duplicates) when the thread's own
/// view there must hold a store `s` of an ancestor thread, written before the thread (or an
/// ancestor) was created: the same on every path, whatever the other loads read.
///
/// Soundness: in an execution that reaches the load, no write of this thread to the cell
/// precedes it (the backward walk finds none on any path), and `s`, a strong store to the one
/// concrete cell, happens before it, so the initial value is overwritten: the load reads `s`
/// or a later store of another thread, and every such store is a candidate. So the executions
/// that `Own` stands for are those that read `s`, which `Remote(group of s)` stands for too.
/// When that group is `s` alone the two choices cover the same executions and `Own` stays
/// (it keeps the thread's relations); otherwise `Own` goes.
pub(super) fn drop_redundant_own<D>(
    loads: &mut [SharedLoad],
    t: &Thread,
    sources: &mut SourceFinder<'_, '_, D>,
) {
    let mut order: Vec<usize> = (0..loads.len()).collect();
    order.sort_by_key(|k| (t.shape.rpo[loads[*k].at.0.index()], loads[*k].at.1));
    // The ancestor store each load's own view must hold, once known.
    let mut inherited: HashMap<Key, (usize, Key)> = HashMap::default();
    for k in order {
        let Some(cell) = loads[k].cell.filter(|_| !loads[k].is_exit_read()) else {
            continue;
        };
        let source = match sources.walk(sources.i, loads[k].at, cell) {
            Source::Entry => sources.inherited_store(sources.i, cell, 0),
            // The earlier load reads only its own view (or is cut, and then so is this one).
            Source::LoadOf(prev) => inherited.get(&prev).copied(),
            _ => None,
        };
        let Some(s) = source else {
            continue;
        };
        let l = &mut loads[k];
        let Some(ci) = l.candidates.iter().position(|c| (c.thread, c.at) == s) else {
            continue;
        };
        let Some(g) = l.groups.iter().position(|g| g.contains(&ci)) else {
            continue;
        };
        if l.groups[g].len() == 1 {
            l.options
                .retain(|o| !matches!(o, Choice::Remote(x) if *x == g));
            if l.options
                .iter()
                .all(|o| matches!(o, Choice::Own | Choice::Cut))
            {
                inherited.insert(l.at, s);
            }
        } else {
            l.options.retain(|o| !matches!(o, Choice::Own));
        }
    }
}

/// The threads whose stores load `at` of thread `i` cannot read (constraint modes): those
/// created (transitively) after the load, among the threads of `candidates` (sorted, each once).
/// With [`drop_inherited`], what the order of thread creation rules out of a load's candidates.
pub(super) fn created_after_load<D>(
    threads: Threads<'_, D>,
    i: usize,
    at: Key,
    candidates: &[Candidate],
) -> Vec<usize> {
    let mut ks: Vec<usize> = candidates.iter().map(|c| c.thread).collect();
    ks.sort_unstable();
    ks.dedup();
    // Asked once per thread, not per store: `created_after` walks the CFG.
    ks.retain(|&k| created_after(threads, i, at, k));
    ks
}

/// Drops the candidates of thread `i`'s loads of `cells` that its own view covers (constraint
/// modes; the same for every load of those cells): the stores an ancestor made before creating
/// this thread into a cell that is one slot for the whole run (rules/README.md, "Reductions of
/// the enumeration", inherited stores).
pub(super) fn drop_inherited<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    cells: &[CellId],
    candidates: &mut Vec<Candidate>,
) {
    if let [cell] = cells[..] {
        if single_slot(facts, threads.info, cell) {
            candidates.retain(|c| !created_after(threads, c.thread, c.at, i));
        }
    }
}

/// Whether every instance of thread `k` is created after instruction `at` of thread `i` (a
/// load, or a store of an ancestor), whenever both happen: some ancestor of `k` was created by
/// thread `i` at a create call from which `at` cannot be reached in `i`'s CFG. Then `at` cannot
/// follow that create in one instance of `i`; `i` must be single-instance, or another instance
/// could create `k` earlier.
fn created_after<D>(threads: Threads<'_, D>, i: usize, at: Key, k: usize) -> bool {
    if threads.info[i].multi || threads.info[i].origin == Origin::Detached {
        return false;
    }
    let mut cur = k;
    let mut guard = 0;
    while let Origin::Created { parent, node, inst } = threads.info[cur].origin {
        guard += 1;
        if guard > threads.len() {
            return false;
        }
        if parent == i {
            let t = &threads.info[i];
            if node == at.0 {
                // Same node: program order within it, unless the node repeats.
                return !t.shape.in_cycle[node.index()] && inst > at.1;
            }
            return !reaches(&t.shape.succ, node, at.0);
        }
        cur = parent;
    }
    false
}

/// Whether `to` is reachable from `from` (following at least one edge).
fn reaches(succ: &[Vec<NodeId>], from: NodeId, to: NodeId) -> bool {
    let mut seen = vec![false; succ.len()];
    let mut stack: Vec<NodeId> = succ[from.index()].clone();
    while let Some(v) = stack.pop() {
        if v == to {
            return true;
        }
        if !seen[v.index()] {
            seen[v.index()] = true;
            stack.extend(succ[v.index()].iter().copied());
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::choices::testing::three;
    use super::*;

    #[test]
    fn a_cut_is_covered_only_by_a_kept_reading_choice() {
        let loads = three();
        let mut kept = HashSet::default();
        // No combination kept: a cut covers nothing (every reading choice was refuted).
        assert!(!covered_by_kept(&loads, &[2, 0], &kept));
        // Without a cut there is nothing to cover, whatever is kept.
        kept.insert(vec![1, 0]);
        assert!(!covered_by_kept(&loads, &[0, 0], &kept));
        // The same combination reading at the cut load is kept: covered.
        assert!(covered_by_kept(&loads, &[2, 0], &kept));
        // A kept combination that differs at another load too does not cover.
        assert!(!covered_by_kept(&loads, &[2, 1], &kept));
        // Two cuts: covered through a kept (or covered) combination with one cut fewer.
        assert!(!covered_by_kept(&loads, &[2, 2], &kept));
        kept.insert(vec![2, 0]);
        assert!(covered_by_kept(&loads, &[2, 2], &kept));
    }
}
