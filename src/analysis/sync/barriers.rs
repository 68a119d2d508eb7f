//! Barrier phases: for a barrier that every thread waiting on it waits on at fixed places, in a
//! fixed order, and whose count is the number of those threads, the `k`-th wait of each thread
//! comes before the return of the `k`-th wait of every other (`pthread_barrier_wait`, POSIX).
//!
//! ```c
//! pthread_barrier_init(&b, 0, 2);
//! // worker                        // main
//! data = 42;                       pthread_barrier_wait(&b);
//! pthread_barrier_wait(&b);        use(data);
//! ```
//!
//! Invariant: for a [`Phases`], in every execution, the `k`-th place of every participant that
//! runs it precedes the return of the `k`-th place of every other participant (the argument is
//! at [`find`]). Anything that does not fit is left out, which only loses precision.

use super::locks::one_object;
use super::semaphores::{runs_once, Places, Site};
use crate::facts::Facts;
use crate::ir::lib::BarrierOp;
use crate::ir::{ObjId, Operand};
use crate::memory::points_to::Target;
use crate::threads::{NodeId, Thread};
use std::collections::{BTreeMap, BTreeSet};

/// The waits of one barrier, per participant thread, in the order every run meets them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phases {
    /// Per participant: the thread and its wait calls (node, index), the `k`-th its `k`-th
    /// wait in every run.
    pub waits: Vec<(usize, Vec<(NodeId, u32)>)>,
}

/// The barriers whose phases order.
///
/// Soundness. Let `b` be one object for the whole run (`locks::one_object`). Every
/// `pthread_barrier_init` and `pthread_barrier_wait` that may touch `b` (through a lost pointer,
/// when `b` is exposed) names exactly `b`, every
/// init gives the same constant count `n`, and every instruction that may write the barrier's
/// first bytes is a barrier call (`Facts::writers`: a call of an unknown function, which may wait
/// on `b` when its address is exposed, is a writer; so is the stand-in for code outside the
/// program). The participants are the threads whose CFGs hold a wait of `b`; each runs once
/// (one instance, its creators too: `semaphores::runs_once`; a wait in a function analysed on
/// its own, which runs at any number of calls, leaves `b` out), and there are exactly `n` of
/// them. In a participant, the waits lie on no cycle and form a chain by dominance
/// `w_1, w_2, ..`: then a run meets each at most once and only in that order, and its `k`-th
/// wait is at `w_k` (reaching `w_k` means having passed `w_1 .. w_{k-1}`, each once).
///
/// A phase ends when `n` waits have arrived since the previous one ended (POSIX; a signal
/// handler does not end a wait, the thread waits again), and a thread blocked in a wait
/// arrives at no other, so each thread gives each phase at most one wait. With exactly `n`
/// threads that may wait, a phase that ends holds one wait of every participant; by induction
/// on `k`, phase `k` holds the `k`-th wait of every participant (its earlier waits went to the
/// earlier phases, and it cannot arrive again before phase `k` ends). Whenever the `k`-th wait
/// of thread `B` returns, phase `k` has ended, so the `k`-th wait of every other participant
/// `A` has arrived before: POSIX makes `pthread_barrier_wait` synchronise memory (XBD 4.12), so
/// what `A` did before `w_k` happens before what `B` does after its `w_k`.
pub fn find(facts: &Facts<'_>, threads: &[Thread]) -> Vec<Phases> {
    let program = facts.program;
    let calls: Vec<(Site, BarrierOp, &[Operand])> = (program.direct_calls())
        .filter(|c| !c.args.is_empty())
        .filter_map(|c| {
            let op = program.funcs[c.callee.index()].library_props()?.barrier?;
            Some(((c.func, c.block, c.idx), op, c.args))
        })
        .collect();
    let mut once = None;
    let mut barriers: BTreeSet<(ObjId, u64)> = BTreeSet::new();
    for &(at, op, args) in &calls {
        if op == BarrierOp::Wait {
            barriers.extend(one_object(facts, &mut once, at.0, &args[0]));
        }
    }
    if barriers.is_empty() {
        return Vec::new();
    }
    let sites: BTreeSet<Site> = calls.iter().map(|c| c.0).collect();
    let places = Places::of(threads);
    let mut out = Vec::new();
    'barriers: for b in barriers {
        let mut count: Option<i128> = None;
        let mut waits = Vec::new();
        // A pointer the analysis lost may name any exposed object.
        let exposed = facts.memory.pts.exposed.contains(&b.0);
        for &(at, op, args) in &calls {
            let pts = facts.memory.pts.of(program, at.0, &args[0]);
            let touches = (pts.unknown && exposed)
                || (pts.targets.iter()).any(|t| {
                    matches!(t, Target::Obj(o, off) if *o == b.0 && off.is_none_or(|k| k == b.1))
                });
            if !touches || op == BarrierOp::Destroy {
                continue;
            }
            if one_object(facts, &mut once, at.0, &args[0]) != Some(b) {
                continue 'barriers;
            }
            match op {
                BarrierOp::Init => {
                    let Some(&Operand::Int { value, .. }) = args.get(2) else {
                        continue 'barriers;
                    };
                    if count.is_some_and(|n| n != value) {
                        continue 'barriers;
                    }
                    count = Some(value);
                }
                BarrierOp::Wait => waits.push((at, args)),
                BarrierOp::Destroy => {}
            }
        }
        let (Some(count), Some(&(wf, wargs))) = (count, waits.first()) else {
            continue;
        };
        // Every writer of the barrier's first bytes is a barrier call.
        let cells = facts.memory.span(program, wf.0, &wargs[0], Some(8)).cells;
        if cells.is_empty() {
            continue;
        }
        for c in cells {
            if !(facts.writers(c.cell).iter()).all(|w| sites.contains(w)) {
                continue 'barriers;
            }
        }
        let mut per_thread: BTreeMap<usize, Vec<(NodeId, u32)>> = BTreeMap::new();
        for &(at, _) in &waits {
            for (k, node) in places.of_site(at) {
                if !runs_once(threads, k) || threads[k].shape.in_cycle[node.index()] {
                    continue 'barriers;
                }
                per_thread.entry(k).or_default().push((node, at.2));
            }
        }
        if i128::try_from(per_thread.len()).ok() != Some(count) {
            continue;
        }
        let mut chains = Vec::new();
        for (k, at) in per_thread {
            let shape = &threads[k].shape;
            let dominates = |a: (NodeId, u32), b: (NodeId, u32)| {
                if a.0 == b.0 {
                    a.1 <= b.1
                } else {
                    shape.dominates(a.0, b.0)
                }
            };
            // A chain: sorted by how many of the others dominate each, every one dominates
            // the next.
            let mut keyed: Vec<(usize, (NodeId, u32))> = (at.iter())
                .map(|&p| (at.iter().filter(|&&q| dominates(q, p)).count(), p))
                .collect();
            keyed.sort_unstable();
            keyed.dedup();
            let at: Vec<(NodeId, u32)> = keyed.into_iter().map(|(_, p)| p).collect();
            if !at.windows(2).all(|w| dominates(w[0], w[1])) {
                continue 'barriers;
            }
            chains.push((k, at));
        }
        out.push(Phases { waits: chains });
    }
    out
}
