//! Threads created inside a critical section (Goblint's "descendant lockset"): a parent that
//! holds mutex `L` when it creates thread `T` keeps `L` until its first release of it after the
//! create, so `T` and every thread `T` creates (its descendants) can take `L` only after that
//! release. Everything the parent does between the create and the release happens before every
//! place of a descendant that holds `L`, and so before everything that place comes before.
//!
//! For `order`: per such create and lock, the places of the parent where its first release of `L`
//! after the create may happen (`releases`), and per descendant the places where it holds `L`
//! and did not just before (`holding`: every place where it holds `L` is one of them or is
//! dominated by one).
//!
//! Soundness: the parent runs once, and so does `T` (neither stands for several instances), so
//! the create happens at most once and "the first release after it" is one moment of one
//! execution. `L` is one concrete mutex for the whole run, not robust (`locks::LockNames` names
//! no other), and the parent holds it exclusively at the create (`ThreadLocks::held`, a must-set:
//! on every path). From the create until the first instruction that may release it (an unlock
//! of it, `pthread_cond_wait` on it, anything that may release every lock: `releases`) the parent
//! holds it; if the parent ends first, it never releases it and no other thread can take it.
//! A descendant starts after the create (a create precedes the created thread's start, C11
//! 7.26.5.1; every link of the chain is a create by a thread that is not analysed on its own),
//! and a place where it holds `L` comes after its own acquisition of it (`held` starts empty at a
//! thread's start and grows only at acquisitions and successful trylocks), which cannot succeed
//! while the parent holds `L` (another thread's lock, read lock or trylock of a mutex held
//! exclusively waits or fails). So that place comes after the first release. An access of the
//! parent comes before the first release when no place where that release may happen can reach
//! the access (`Order::follows`). A recursive mutex the parent locked twice stays held past its
//! first release: the argument only needs the first one to come before the descendant's.
//!
//! Must not fire: an access of the parent after the unlock (or on a path through it); a create
//! before the lock; a parent or child with several instances; a descendant that takes the lock
//! only on some paths (no place holds it for sure where the paths meet), a read lock in the
//! parent (other readers may enter).

use crate::analysis::sync::locks::{LockEffect, ThreadLocks};
use crate::threads::{NodeId, Origin, Thread};
use std::collections::BTreeSet;

/// One create of a thread by a parent that holds a lock then.
pub struct HeldAtCreate {
    /// The creating thread.
    pub parent: usize,
    /// The places (node, instruction) where its first release of the lock after the create may
    /// happen.
    pub releases: Vec<(NodeId, u32)>,
    /// The places (thread, node, instruction) of the created thread and its descendants where
    /// the thread holds the lock and did not before that instruction, or at the start of a node
    /// several paths meet at.
    pub holding: Vec<(usize, NodeId, u32)>,
}

/// Every create of a thread that runs once by a thread that runs once while it holds a lock
/// exclusively, whose descendants take that lock somewhere.
pub fn find(threads: &[Thread], reached: &[Vec<bool>], locks: &[ThreadLocks]) -> Vec<HeldAtCreate> {
    let mut out = Vec::new();
    for (c, t) in threads.iter().enumerate() {
        let Origin::Created { parent, node, inst } = t.origin else {
            continue;
        };
        let p = &threads[parent];
        if t.multi || p.multi || p.origin == Origin::Detached {
            continue;
        }
        let Some(held) = locks[parent].held.get(&(node, inst)) else {
            continue;
        };
        let family: Vec<usize> = (0..threads.len())
            .filter(|&d| descends_from(threads, d, c))
            .collect();
        for &l in held {
            let holding: Vec<_> = (family.iter())
                .flat_map(|&d| {
                    holding_places(&threads[d], &reached[d], &locks[d], l)
                        .map(move |(n, i)| (d, n, i))
                })
                .collect();
            if holding.is_empty() {
                continue;
            }
            out.push(HeldAtCreate {
                parent,
                releases: first_releases(p, &locks[parent], node, inst, l),
                holding,
            });
        }
    }
    out
}

/// Whether thread `d` is `c` or created, through a chain of creates by threads that are not
/// analysed on their own, by `c`.
fn descends_from(threads: &[Thread], mut d: usize, c: usize) -> bool {
    // A chain is at most as long as the thread list (creation is acyclic: a thread is created
    // by one found before it, `compose::fixpoint`), bounded here anyway.
    for _ in 0..=threads.len() {
        if d == c {
            return true;
        }
        match threads[d].origin {
            Origin::Created { parent, .. } if threads[parent].origin != Origin::Detached => {
                d = parent
            }
            _ => return false,
        }
    }
    false
}

/// The places of thread `t` where it holds lock `l` (exclusively or shared) and either did not
/// hold it before the previous instruction of the node, or stand first in a node that is not
/// dominated by a place holding it: every place that holds `l` is one of these or dominated by
/// one.
fn holding_places<'a>(
    t: &'a Thread,
    reached: &'a [bool],
    locks: &'a ThreadLocks,
    l: u32,
) -> impl Iterator<Item = (NodeId, u32)> + 'a {
    let holds = move |n: NodeId, i: u32| {
        locks.held.get(&(n, i)).is_some_and(|s| s.contains(&l))
            || locks
                .held_shared
                .get(&(n, i))
                .is_some_and(|s| s.contains(&l))
    };
    (0..t.cfg.nodes.len()).flat_map(move |n| {
        let node = NodeId(n as u32);
        let nd = &t.cfg.nodes[n];
        let live = t.shape.rpo[n] != u32::MAX && reached.get(n).copied().unwrap_or(true);
        // At a node's start: a node with one predecessor is dominated by it, so only a node
        // several paths meet at, or one whose predecessor gained the lock on its edge (a
        // successful trylock), needs a place of its own.
        let first_needed = match t.shape.pred[n][..] {
            [p] => {
                let pn = &t.cfg.nodes[p.index()];
                pn.start == pn.end || !holds(p, pn.end - 1)
            }
            _ => true,
        };
        (nd.start..nd.end)
            .filter(move |&i| {
                live && holds(node, i)
                    && if i == nd.start {
                        first_needed
                    } else {
                        !holds(node, i - 1)
                    }
            })
            .map(move |i| (node, i))
    })
}

/// The places of `t` where the first instruction after instruction `inst` of `node` that may
/// release lock `l` may stand (a search that stops at each).
fn first_releases(
    t: &Thread,
    locks: &ThreadLocks,
    node: NodeId,
    inst: u32,
    l: u32,
) -> Vec<(NodeId, u32)> {
    let mut out = BTreeSet::new();
    let mut seen = vec![false; t.cfg.nodes.len()];
    let mut stack = vec![(node, inst + 1)];
    while let Some((n, from)) = stack.pop() {
        let nd = &t.cfg.nodes[n.index()];
        let released = (from.max(nd.start)..nd.end).find(|&idx| match locks.effect(n, idx) {
            LockEffect::ReleaseAll => true,
            LockEffect::Release(x) | LockEffect::Reacquire(x) => x == l,
            _ => false,
        });
        if let Some(idx) = released {
            out.insert((n, idx));
            continue;
        }
        for &s in &t.shape.succ[n.index()] {
            if !std::mem::replace(&mut seen[s.index()], true) {
                stack.push((s, 0));
            }
        }
    }
    out.into_iter().collect()
}
