//! Where each access runs: in which thread, at which point of it, holding which locks.
//!
//! A thread's own accesses run at their place in its CFG. A function analysed on its own
//! (a callee that was not inlined, a target of a call through a pointer) runs inside the
//! threads that call it, at the call: its accesses take the caller's thread, the call's place
//! (for the order between threads) and the locks held there that the function never releases,
//! besides the locks it takes itself. A function that code outside the analysed files may
//! call (a callback, a signal handler) also runs in *any* thread, at any time, holding only
//! what it takes itself.
//!
//! Soundness: the contexts of a function are every call of it that some thread reaches (and
//! "any thread" when unknown code may call it), followed through the functions analysed on
//! their own that call each other; past `MAX_CONTEXTS` a function's contexts become its
//! threads alone (no place, no lock held by the caller), and past that again "any thread".
//! A context has fewer locks and knows less of its place than the calls it stands for, which
//! only keeps more pairs.

use super::order::Place;
use crate::analysis::sync::locks::{Effect, LockNames, ThreadLocks};
use crate::facts::Facts;
use crate::ir::{Callee, FuncId, InstKind};
use crate::threads::{NodeId, Origin, Thread};
use std::collections::{BTreeMap, BTreeSet};

/// Most contexts one function keeps before they are coarsened.
const MAX_CONTEXTS: usize = 64;

/// Where an access runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ctx {
    /// The thread class (an index of the fixpoint's threads, never a detached function);
    /// `None`: any thread (code outside the analysed files calls it).
    pub thread: Option<usize>,
    /// Where in the thread's CFG (the access itself, or the call that runs it); `None` when
    /// unknown.
    pub place: Option<Place>,
    /// Locks held for sure, exclusively.
    pub excl: BTreeSet<u32>,
    /// Read locks held for sure (not also held exclusively).
    pub shared: BTreeSet<u32>,
}

/// The contexts of every function analysed on its own, and the lock facts of every thread.
pub struct Contexts {
    /// Per thread index: its lock facts.
    pub locks: Vec<ThreadLocks>,
    /// The names of the locks.
    pub names: LockNames,
    /// Per thread index of a detached function: the contexts its body runs in (empty for a
    /// thread of the program, whose accesses run where they are).
    pub detached: Vec<Vec<Ctx>>,
}

impl Contexts {
    /// Computes the lock facts of every thread, and where each detached function runs.
    pub fn of(facts: &Facts<'_>, threads: &[Thread], reached: &[Vec<bool>]) -> Contexts {
        let mut names = LockNames::default();
        let locks: Vec<ThreadLocks> = (threads.iter())
            .map(|t| ThreadLocks::of(facts, t, &mut names))
            .collect();
        let by_func: BTreeMap<FuncId, usize> = (threads.iter().enumerate())
            .filter(|(_, t)| t.origin == Origin::Detached)
            .map(|(k, t)| (t.entry, k))
            .collect();
        // Per detached function: the locks it may release (`None`: any).
        let released: Vec<Option<BTreeSet<u32>>> = (threads.iter().enumerate())
            .map(|(k, t)| releases(&locks[k], t))
            .collect();
        let mut detached = Sets {
            sets: vec![BTreeSet::new(); threads.len()],
            level: vec![0; threads.len()],
        };
        let exposed = &facts.memory.pts.exposed_funcs;
        let mut work: Vec<usize> = Vec::new();
        for (k, t) in threads.iter().enumerate() {
            if t.origin == Origin::Detached && exposed.contains(&t.entry) {
                detached.insert(k, Ctx::anywhere());
                work.push(k);
            }
        }
        for (k, t) in threads.iter().enumerate() {
            if t.origin == Origin::Detached {
                continue;
            }
            for_calls(facts, t, &reached[k], |node, idx, callee| {
                let Some(&d) = by_func.get(&callee) else {
                    return;
                };
                let at = (node, idx);
                let c = Ctx {
                    thread: Some(k),
                    place: Some(Place { node, idx }),
                    excl: locks[k].held.get(&at).cloned().unwrap_or_default(),
                    shared: locks[k].held_shared.get(&at).cloned().unwrap_or_default(),
                };
                if detached.insert(d, c) {
                    work.push(d);
                }
            });
        }
        // Through detached functions that call each other.
        while let Some(d) = work.pop() {
            let ctxs: Vec<Ctx> = detached.sets[d].iter().cloned().collect();
            let mut calls = Vec::new();
            for_calls(facts, &threads[d], &reached[d], |node, idx, callee| {
                if let Some(&e) = by_func.get(&callee) {
                    calls.push((node, idx, e));
                }
            });
            for (node, idx, e) in calls {
                let mut grew = false;
                for c in &ctxs {
                    let inner = within(c, &locks[d], released[d].as_ref(), node, idx);
                    grew |= detached.insert(e, inner);
                }
                if grew {
                    work.push(e);
                }
            }
        }
        Contexts {
            locks,
            names,
            detached: (detached.sets.into_iter())
                .map(|s| s.into_iter().collect())
                .collect(),
        }
    }

    /// The contexts of an access at `idx` of `node` of thread `k`.
    pub fn of_access(&self, threads: &[Thread], k: usize, node: NodeId, idx: u32) -> Vec<Ctx> {
        let at = (node, idx);
        if threads[k].origin != Origin::Detached {
            return vec![Ctx {
                thread: Some(k),
                place: Some(Place { node, idx }),
                excl: self.locks[k].held.get(&at).cloned().unwrap_or_default(),
                shared: self.locks[k]
                    .held_shared
                    .get(&at)
                    .cloned()
                    .unwrap_or_default(),
            }];
        }
        let released = releases(&self.locks[k], &threads[k]);
        (self.detached[k].iter())
            .map(|c| within(c, &self.locks[k], released.as_ref(), node, idx))
            .collect()
    }
}

/// The context of instruction `idx` of `node` of a detached function that runs in `c`: the
/// locks it holds itself there, and those of the caller it never releases.
fn within(
    c: &Ctx,
    own: &ThreadLocks,
    released: Option<&BTreeSet<u32>>,
    node: NodeId,
    idx: u32,
) -> Ctx {
    let kept = |set: &BTreeSet<u32>| -> BTreeSet<u32> {
        match released {
            Some(r) => set.difference(r).copied().collect(),
            None => BTreeSet::new(),
        }
    };
    let mut excl = kept(&c.excl);
    excl.extend(own.held.get(&(node, idx)).into_iter().flatten().copied());
    let mut shared = kept(&c.shared);
    shared.extend(
        own.held_shared
            .get(&(node, idx))
            .into_iter()
            .flatten()
            .copied(),
    );
    shared.retain(|m| !excl.contains(m));
    Ctx {
        thread: c.thread,
        place: c.place,
        excl,
        shared,
    }
}

/// The locks a function's body may release (`None`: any, an unknown call or an unlock through
/// a pointer that may name several).
fn releases(locks: &ThreadLocks, t: &Thread) -> Option<BTreeSet<u32>> {
    let mut out = BTreeSet::new();
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        for idx in nd.start..nd.end {
            match locks.effect(NodeId(n as u32), idx) {
                Effect::Release(m) => {
                    out.insert(m);
                }
                Effect::ReleaseAll => return None,
                _ => {}
            }
        }
    }
    Some(out)
}

/// Calls `f(node, idx, callee)` for every call of a defined function that thread `t` makes
/// without inlining it, in reached nodes.
fn for_calls(
    facts: &Facts<'_>,
    t: &Thread,
    reached: &[bool],
    mut f: impl FnMut(NodeId, u32, FuncId),
) {
    let program = facts.program;
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        if !reached.get(n).copied().unwrap_or(true) {
            continue;
        }
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            let InstKind::Call { callee, .. } = &insts[idx as usize].kind else {
                continue;
            };
            let targets = match callee {
                Callee::Direct(g) => vec![*g],
                Callee::Indirect(op) => facts.memory.pts.callees(program, func, op).0,
            };
            for g in targets {
                if program.funcs[g.index()].is_defined {
                    f(NodeId(n as u32), idx, g);
                }
            }
        }
    }
}

impl Ctx {
    /// Any thread, anywhere, holding nothing.
    pub fn anywhere() -> Ctx {
        Ctx {
            thread: None,
            place: None,
            excl: BTreeSet::new(),
            shared: BTreeSet::new(),
        }
    }
}

/// The contexts of each detached function, coarsened per function past `MAX_CONTEXTS`: at
/// level 1 a context keeps only its thread, at level 2 it is any thread. Levels only grow, so
/// the propagation ends.
struct Sets {
    sets: Vec<BTreeSet<Ctx>>,
    level: Vec<u8>,
}

impl Sets {
    /// Adds `c` (coarsened to `d`'s level) to `d`'s contexts; whether they grew.
    fn insert(&mut self, d: usize, c: Ctx) -> bool {
        let grew = self.sets[d].insert(coarse(c, self.level[d]));
        while self.sets[d].len() > MAX_CONTEXTS && self.level[d] < 2 {
            self.level[d] += 1;
            let level = self.level[d];
            self.sets[d] = std::mem::take(&mut self.sets[d])
                .into_iter()
                .map(|c| coarse(c, level))
                .collect();
        }
        grew
    }
}

/// `c` at a coarsening level (0: as it is).
fn coarse(c: Ctx, level: u8) -> Ctx {
    match level {
        0 => c,
        1 => Ctx {
            thread: c.thread,
            ..Ctx::anywhere()
        },
        _ => Ctx::anywhere(),
    }
}
