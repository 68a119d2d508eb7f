//! Threads that live inside their creator's critical section (Goblint's "creation lockset"):
//! a parent that holds mutex `L` when it creates thread `T` and joins `T` before it releases
//! `L`, on every path, runs all of `T` inside one critical section of `L`.
//!
//! Soundness: `T` starts after the create and ends before the join returns (C11 7.26.5.1,
//! 7.26.5.6; POSIX `pthread_join`), and on every path from the create the parent reaches that
//! join before anything that may release `L` (an unlock of it, `pthread_cond_wait` on it, a
//! call that may release any lock) and before it ends, so `L` stays held by the parent from
//! before `T`'s first step to after its last. Another thread's access while holding `L` lies
//! in a critical section of `L` that cannot overlap the parent's, so it happens before `T`'s
//! start or after its end: `T`'s accesses exclude it as if they held `L`. They do not exclude
//! the parent's own accesses in that critical section (which run beside `T`), those of another
//! thread that inherits `L` the same way (it may live inside the same critical section), nor
//! those of code that may run in any thread (it may be the parent's). Only `T`'s own accesses
//! inherit `L`, not those of threads `T` creates, which may outlive it; a thread with several
//! instances inherits nothing (its join names one of them).

use crate::analysis::sync::feasibility::must_joined;
use crate::analysis::sync::locks::{LockEffect, ThreadLocks};
use crate::facts::Facts;
use crate::ir::InstKind;
use crate::threads::{NodeId, Origin, Thread};
use std::collections::BTreeSet;

/// Per thread: the locks its accesses inherit from its creator, and the creator.
#[derive(Default)]
pub struct Inherited {
    locks: Vec<BTreeSet<u32>>,
    creator: Vec<Option<usize>>,
}

impl Inherited {
    /// The inherited locks of every thread.
    pub fn of(facts: &Facts<'_>, threads: &[Thread], locks: &[ThreadLocks]) -> Inherited {
        let mut out = Inherited {
            locks: vec![BTreeSet::new(); threads.len()],
            creator: vec![None; threads.len()],
        };
        for (k, t) in threads.iter().enumerate() {
            let Origin::Created { parent, node, inst } = t.origin else {
                continue;
            };
            if t.multi || threads[parent].multi || threads[parent].origin == Origin::Detached {
                continue;
            }
            let Some(held) = locks[parent].held.get(&(node, inst)) else {
                continue;
            };
            for &l in held {
                if joined_before_release(facts, threads, parent, k, node, inst, l, &locks[parent]) {
                    out.locks[k].insert(l);
                    out.creator[k] = Some(parent);
                }
            }
        }
        out
    }

    /// The locks an access of `thread` holds in effect against an access of `other` (`None`:
    /// code that may run in any thread), besides its own: those it inherits, unless `other` is
    /// its creator, code that may run anywhere, or a thread that inherits the same lock.
    pub fn against(&self, thread: Option<usize>, other: Option<usize>) -> BTreeSet<u32> {
        let (Some(k), Some(o)) = (thread, other) else {
            return BTreeSet::new();
        };
        if self.creator[k] == Some(o) {
            return BTreeSet::new();
        }
        self.locks[k].difference(&self.locks[o]).copied().collect()
    }
}

/// Whether every path of thread `parent` from its create of `child` (instruction `inst` of
/// `node`) reaches a join that must wait for `child` before anything that may release lock `l`
/// and before the thread ends.
#[allow(clippy::too_many_arguments)]
fn joined_before_release(
    facts: &Facts<'_>,
    threads: &[Thread],
    parent: usize,
    child: usize,
    node: NodeId,
    inst: u32,
    l: u32,
    locks: &ThreadLocks,
) -> bool {
    let t = &threads[parent];
    let mut seen = vec![false; t.cfg.nodes.len()];
    let mut stack = vec![(node, inst + 1)];
    while let Some((n, from)) = stack.pop() {
        let nd = &t.cfg.nodes[n.index()];
        let insts = &facts.program.funcs[t.cfg.func(n).index()].blocks[nd.block.index()].insts;
        let mut joined = false;
        for idx in from.max(nd.start)..nd.end {
            if matches!(insts[idx as usize].kind, InstKind::ThreadJoin { .. })
                && must_joined(facts, threads, t, n, idx) == Some(child)
            {
                joined = true;
                break;
            }
            match locks.effect(n, idx) {
                LockEffect::ReleaseAll => return false,
                LockEffect::Release(x) | LockEffect::Reacquire(x) if x == l => return false,
                _ => {}
            }
        }
        if joined {
            continue;
        }
        let succ = &t.shape.succ[n.index()];
        if succ.is_empty() {
            return false;
        }
        for &s in succ {
            if !std::mem::replace(&mut seen[s.index()], true) {
                stack.push((s, 0));
            }
        }
    }
    true
}
