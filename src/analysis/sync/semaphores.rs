//! Semaphores that hand over: a semaphore whose count starts at 0 and that only one thread
//! posts, so that whatever that thread did before its first post happens before every wait of
//! the semaphore that succeeds (`sem_post` → `sem_wait`, POSIX XBD 4.12).
//!
//! ```c
//! sem_init(&ready, 0, 0);
//! // producer                      // consumer
//! data = 42;                       sem_wait(&ready);
//! sem_post(&ready);                use(data);
//! ```
//!
//! Invariant: a [`Handoff`] is reported only when, in every execution, every occurrence of each
//! of its `waits` (a wait that returned 0) is preceded by an occurrence of `post` in the thread
//! `poster` (the argument is at [`find`]). Anything that does not fit is left out, which only
//! loses precision.

use super::locks::one_object;
use crate::facts::Facts;
use crate::ir::lib::SemOp;
use crate::ir::{BlockId, CmpPred, FuncId, InstKind, ObjId, Operand, Terminator};
use crate::memory::points_to::Target;
use crate::threads::{Exit, NodeId, Origin, Thread};
use std::collections::{BTreeMap, BTreeSet};

/// An instruction of the program: function, block, index in the block.
pub type Site = (FuncId, BlockId, u32);

/// The nodes of a block in the threads' CFGs: (thread, node, first index, one past the last).
type BlockNodes = Vec<(usize, NodeId, u32, u32)>;

/// Where a wait has returned 0, in its thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Succeeded {
    /// Right after the call, instruction `idx` of `node` (a `sem_wait` in a program that
    /// installs no signal handler: it cannot fail).
    After {
        /// The node of the call.
        node: NodeId,
        /// The call's index in the node's block.
        idx: u32,
    },
    /// At the start of this node, which is entered only on the edge where the wait's result
    /// compared as a success (`if (sem_trywait(&s) == 0)`, `while (sem_wait(&s) != 0) ;`).
    Entry(NodeId),
}

/// A semaphore whose successful waits all follow one place of one thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handoff {
    /// The thread that runs every post of the semaphore (once: a thread of one instance).
    pub poster: usize,
    /// The post (node, index) that precedes every other post of the semaphore in `poster`.
    pub post: (NodeId, u32),
    /// The places where a wait of it has returned 0: (thread, where).
    pub waits: Vec<(usize, Succeeded)>,
}

/// A call of a semaphore function: where it is, what it does, its arguments and result.
struct SemCall<'p> {
    at: Site,
    op: SemOp,
    args: &'p [Operand],
}

/// The semaphores of the program that hand over.
///
/// Soundness. Let `s` be one object for the whole run (`locks::one_object`). Its count starts
/// at 0: every `sem_init`
/// that may touch it initialises exactly `s` to the constant 0, and some does (a wait before
/// any initialisation is undefined). The count rises only at posts: every instruction that may
/// write the semaphore's bytes (`Facts::writers`: stores, copies, writes through lost pointers,
/// calls of unknown functions, which may reach it when its address is exposed, among them the
/// stand-in for code outside the program) is a call of a semaphore function, and of those only
/// `sem_post` raises it
/// (`sem_init` sets it to 0 again, a wait lowers it, `sem_destroy` ends it). So a wait that
/// returns 0, which lowers a positive count, comes after some post of `s`, of the posts that may
/// touch `s` (`sem_post(p)` with `p` possibly `&s` counts, whatever else `p` may be, and so does
/// one through a lost pointer when `s` is exposed). POSIX
/// (XBD 4.12) makes `sem_post` and the waits synchronise memory: the post happens before the
/// wait's return (glibc: a release increment, an acquiring decrement that reads it or a later
/// value of the count). Every such post stands in one thread `poster` that runs once (one
/// instance; its creators too) and at places that `post` dominates in that thread's CFG, so an
/// occurrence of `post` precedes, in program order, every occurrence of every post: by
/// transitivity, the occurrence of `post` before the post a successful wait consumed happens
/// before the wait's return. A post in a function analysed on its own (run at its calls, any
/// number of times), in a thread of several instances, or in two threads leaves `s` out.
///
/// A wait has returned 0 right after a `sem_wait` call when no signal handler can interrupt it:
/// it fails only with `EINTR` (POSIX; `EINVAL` is a semaphore that is not one), and a program
/// that declares none of `signal`, `sigaction`, ... (`Props::catches_signals`) installs no
/// handler. Otherwise, and for `sem_trywait` and `sem_timedwait` (which also fail when the count
/// stays 0), only on the branch where the result compares equal to 0 (or unequal to -1: a wait
/// returns 0 or -1), in the node of the call, into a node that has no other predecessor.
pub fn find(facts: &Facts<'_>, threads: &[Thread]) -> Vec<Handoff> {
    let program = facts.program;
    let calls: Vec<SemCall<'_>> = (program.direct_calls())
        .filter(|c| !c.args.is_empty())
        .filter_map(|c| {
            Some(SemCall {
                at: (c.func, c.block, c.idx),
                op: program.funcs[c.callee.index()].library_props()?.sem?,
                args: c.args,
            })
        })
        .collect();
    let mut once = None;
    // The semaphores some wait names exactly.
    let mut sems: BTreeSet<(ObjId, u64)> = BTreeSet::new();
    for c in &calls {
        if matches!(c.op, SemOp::Wait { .. }) {
            sems.extend(one_object(facts, &mut once, c.at.0, &c.args[0]));
        }
    }
    if sems.is_empty() {
        return Vec::new();
    }
    let signals =
        (program.funcs.iter()).any(|f| f.library_props().is_some_and(|p| p.catches_signals));
    let sem_sites: BTreeSet<Site> = calls.iter().map(|c| c.at).collect();
    let places = Places::of(threads);
    let mut out = Vec::new();
    'sems: for s in sems {
        // A pointer the analysis lost may name any exposed object.
        let exposed = facts.memory.pts.exposed.contains(&s.0);
        let may_touch = |c: &SemCall<'_>| {
            let pts = facts.memory.pts.of(program, c.at.0, &c.args[0]);
            (pts.unknown && exposed)
                || (pts.targets.iter()).any(|t| {
                    matches!(t, Target::Obj(o, off) if *o == s.0 && off.is_none_or(|k| k == s.1))
                })
        };
        let mut inits = 0;
        let mut posts = Vec::new();
        let mut waits = Vec::new();
        for c in calls.iter().filter(|c| may_touch(c)) {
            let exact = one_object(facts, &mut once, c.at.0, &c.args[0]) == Some(s);
            match c.op {
                SemOp::Init => {
                    let zero = matches!(c.args.get(2), Some(Operand::Int { value: 0, .. }));
                    if !(exact && zero) {
                        continue 'sems;
                    }
                    inits += 1;
                }
                SemOp::Post => posts.push(c),
                SemOp::Wait { interrupted_only } if exact => waits.push((c, interrupted_only)),
                SemOp::Wait { .. } | SemOp::Destroy => {}
            }
        }
        if inits == 0 || posts.is_empty() {
            continue;
        }
        // Every writer of the count's bytes is a semaphore call (glibc keeps the count in the
        // first 8 bytes, musl in the first 4).
        let (wf, _, _) = waits.first().map_or(posts[0].at, |(c, _)| c.at);
        let arg = &waits.first().map_or(posts[0].args, |(c, _)| c.args)[0];
        let cells = facts.memory.span(program, wf, arg, Some(8)).cells;
        if cells.is_empty() {
            continue;
        }
        for c in cells {
            if !(facts.writers(c.cell).iter()).all(|w| sem_sites.contains(w)) {
                continue 'sems;
            }
        }
        // Every post in one thread that runs once, one of them dominating the others.
        let mut poster: Option<usize> = None;
        let mut at: Vec<(NodeId, u32)> = Vec::new();
        for p in &posts {
            for (k, node) in places.of_site(p.at) {
                if !runs_once(threads, k) || poster.is_some_and(|q| q != k) {
                    continue 'sems;
                }
                poster = Some(k);
                at.push((node, p.at.2));
            }
        }
        let Some(poster) = poster else {
            continue;
        };
        let shape = &threads[poster].shape;
        let dominates = |a: (NodeId, u32), b: (NodeId, u32)| {
            if a.0 == b.0 {
                a.1 <= b.1
            } else {
                shape.dominates(a.0, b.0)
            }
        };
        let Some(&first) = at.iter().find(|&&d| at.iter().all(|&p| dominates(d, p))) else {
            continue;
        };
        let mut succeeded = Vec::new();
        for (w, interrupted_only) in waits {
            for (k, node) in places.of_site(w.at) {
                if threads[k].origin == Origin::Detached {
                    continue;
                }
                let idx = w.at.2;
                if interrupted_only && !signals {
                    succeeded.push((k, Succeeded::After { node, idx }));
                } else if let Some(to) = success_entry(facts, &threads[k], node, idx) {
                    succeeded.push((k, Succeeded::Entry(to)));
                }
            }
        }
        if !succeeded.is_empty() {
            out.push(Handoff {
                poster,
                post: first,
                waits: succeeded,
            });
        }
    }
    out
}

/// Whether thread `k` runs at most once: one instance, created (if at all) by a thread that
/// runs once, at a place on no cycle.
pub fn runs_once(threads: &[Thread], k: usize) -> bool {
    let t = &threads[k];
    if t.multi {
        return false;
    }
    match t.origin {
        Origin::Main => true,
        Origin::Created { parent, node, .. } => {
            !threads[parent].shape.in_cycle[node.index()] && runs_once(threads, parent)
        }
        Origin::Detached => false,
    }
}

/// Where each instruction stands in the threads' CFGs: per (function, block, index), every
/// (thread, node) that runs it.
pub struct Places {
    at: BTreeMap<(FuncId, BlockId), BlockNodes>,
    /// Per instruction asked for, its (thread, node) places.
    found: std::cell::RefCell<BTreeMap<Site, Vec<(usize, NodeId)>>>,
}

impl Places {
    /// The nodes of every thread, by block.
    pub fn of(threads: &[Thread]) -> Places {
        let mut at: BTreeMap<(FuncId, BlockId), BlockNodes> = BTreeMap::new();
        for (k, t) in threads.iter().enumerate() {
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                (at.entry((func, nd.block)).or_default()).push((
                    k,
                    NodeId(n as u32),
                    nd.start,
                    nd.end,
                ));
            }
        }
        Places {
            at,
            found: Default::default(),
        }
    }

    /// Every (thread, node) that runs instruction `site`.
    pub fn of_site(&self, site: Site) -> Vec<(usize, NodeId)> {
        if let Some(v) = self.found.borrow().get(&site) {
            return v.clone();
        }
        let v: Vec<(usize, NodeId)> = (self.at.get(&(site.0, site.1)).into_iter().flatten())
            .filter(|&&(_, _, start, end)| start <= site.2 && site.2 < end)
            .map(|&(k, n, _, _)| (k, n))
            .collect();
        self.found.borrow_mut().insert(site, v.clone());
        v
    }
}

/// The node entered only where the wait at instruction `idx` of `node` returned 0: the node's
/// block compares the call's result with 0 (or -1) and branches on it, and the success
/// successor has `node` as its only predecessor.
fn success_entry(facts: &Facts<'_>, t: &Thread, node: NodeId, idx: u32) -> Option<NodeId> {
    let cfg = &t.cfg;
    let nd = &cfg.nodes[node.index()];
    if nd.exit != Exit::Term {
        return None;
    }
    let func = cfg.contexts[nd.ctx.0 as usize].func;
    let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
    let InstKind::Call { dst: Some(r), .. } = block.insts[idx as usize].kind else {
        return None;
    };
    let Terminator::CondBr {
        cond: Operand::Var(c),
        then_,
        else_,
    } = block.term
    else {
        return None;
    };
    if then_ == else_ {
        return None;
    }
    let success = (idx + 1..nd.end).find_map(|k| match &block.insts[k as usize].kind {
        InstKind::Cmp {
            dst, pred, a, b, ..
        } if *dst == c => {
            let value = match (a, b) {
                (Operand::Var(v), Operand::Int { value, .. })
                | (Operand::Int { value, .. }, Operand::Var(v))
                    if *v == r =>
                {
                    *value
                }
                _ => return None,
            };
            // A wait returns 0 or -1.
            match (pred, value) {
                (CmpPred::Eq, 0) | (CmpPred::Ne, -1) => Some(then_),
                (CmpPred::Ne, 0) | (CmpPred::Eq, -1) => Some(else_),
                _ => None,
            }
        }
        _ => None,
    })?;
    let to = cfg.first[nd.ctx.0 as usize][success.index()];
    (t.shape.pred[to.index()][..] == [node]).then_some(to)
}
