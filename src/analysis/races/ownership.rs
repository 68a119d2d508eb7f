//! Heap blocks that each instance of a thread owns (issue 35, class 8): a block allocated in
//! every iteration of a create loop and handed to the thread created there is reached by that
//! one thread instance (and by the thread that made it), so two instances of the thread never
//! access the same block.
//!
//! The rule: thread `k` is created at instruction `C` of function `F` with the argument `v`,
//! and
//!
//! 1. `v` is the result of an allocation `S` of `F` that returns a fresh block (`malloc`,
//!    `calloc`; not `realloc`, which may return its old block), whose site's object `O` is
//!    the only object `v` may point to;
//! 2. every path from `C` back to `C` inside `F` passes through `S` (the function's own cycles;
//!    each activation of `F` runs `S` before its first `C`, since `S` defines `v`);
//! 3. no other root of sharing reaches `O`: without `C`'s argument, `O` is outside the closure
//!    of `sharing` (globals, what escapes, the arguments of every other thread creation, and
//!    whatever their contents hold);
//! 4. the creating thread is not `k` itself, and the program calls nothing that may return
//!    twice (a `longjmp` back to before `C` would run `C` again with the same `v`).
//!
//! Soundness: by 1 and 2 each run of `C` passes a block that no earlier run of `C` passed (`S`
//! ran in between and returns a block that is not live; a block freed and allocated again is
//! ordered by the allocator: C11 7.22.3p2, each deallocation synchronizes with the next
//! allocation of the region). By 3 an instance of `k` gets a pointer to an object of site `S`
//! only through its own argument or memory reachable from it, which holds what the creator
//! and that instance put there (their stores go through pointers to the instance's block);
//! another instance can only reach it through memory that some root of sharing reaches, which 3
//! excludes. So the accesses of `O` by instances of `k` are each to the instance's own block,
//! and two of them never race; pairs with any other thread (the creator after the create, a
//! thread handed the block later) are checked as before. By 4 the creator's own accesses are
//! never taken for an instance's.
//!
//! Before the hand-over: a load, store or `memset` of `F` whose address is computed from `v` (through
//! `gep`s and copies, no memory) touches the block of the latest run of `S` in its activation
//! (in SSA, every path from `S` to it passes the definitions it uses). When no path from `C`
//! reaches it without passing `S` again, that block has not been passed to any thread yet: the
//! access comes before, in the creator's program order, the creation of the one thread that
//! gets the block, and no other thread reaches it (3). So it races with nothing on `O`, and
//! leaves `O` out (`before_handover`; the walk is `handover::accesses_before`, whose one stop
//! here is `C`).

use super::handover;
use super::sharing::Sharing;
use crate::facts::Facts;
use crate::ir::{BlockId, FuncId, InstKind, ObjId, Operand, Program, VarId};
use crate::threads::{Origin, Thread};
use rustc_hash::FxHashMap as HashMap;

/// Per heap object: the threads (indices of the fixpoint's threads) each of whose instances
/// owns its own copy of it; and the creators' accesses of such a block before they hand it over.
pub struct Owned {
    by_obj: HashMap<ObjId, Vec<usize>>,
    before: HashMap<(FuncId, BlockId, u32), ObjId>,
}

impl Owned {
    /// Finds the blocks owned per instance (see the module's rule).
    pub fn of(facts: &Facts<'_>, threads: &[Thread]) -> Owned {
        let program = facts.program;
        let mut out = Owned {
            by_obj: HashMap::default(),
            before: HashMap::default(),
        };
        if crate::ir::once::may_resume(program) {
            return out;
        }
        for (k, t) in threads.iter().enumerate() {
            let Origin::Created { parent, node, inst } = t.origin else {
                continue;
            };
            if parent == k || !t.multi {
                continue;
            }
            let pt = &threads[parent];
            let nd = &pt.cfg.nodes[node.index()];
            let func = pt.cfg.contexts[nd.ctx.0 as usize].func;
            let f = &program.funcs[func.index()];
            let Some(create) = f.blocks[nd.block.index()].insts.get(inst as usize) else {
                continue;
            };
            let InstKind::ThreadCreate { arg, .. } = &create.kind else {
                continue;
            };
            let Some(obj) = fresh_block(program, func, arg) else {
                continue;
            };
            let pts = facts.memory.pts.of(program, func, arg);
            let only: Vec<ObjId> = pts.objects().collect();
            if pts.unknown || only != [obj] {
                continue;
            }
            let Some(site) = definition(program, func, arg) else {
                continue;
            };
            if !every_cycle_passes(program, func, nd.block, site) {
                continue;
            }
            let skip = (func, nd.block, inst);
            if Sharing::without(facts, skip).shared(obj) {
                continue;
            }
            let owners = out.by_obj.entry(obj).or_default();
            if !owners.contains(&k) {
                owners.push(k);
            }
            let Operand::Var(v) = arg else { continue };
            // The one stop is this creation: other uses of the address keep it in the
            // creator's thread (rule 3).
            let me: *const InstKind = &create.kind;
            let before = handover::accesses_before(program, func, *v, site, false, |i, _| {
                std::ptr::eq(i, me)
            });
            for at in before {
                out.before.insert(at, obj);
            }
        }
        out
    }

    /// Whether each instance of thread `k` has its own copy of `obj`.
    pub fn per_instance(&self, obj: ObjId, k: usize) -> bool {
        self.by_obj.get(&obj).is_some_and(|ks| ks.contains(&k))
    }

    /// Whether instruction `idx` of `block` of `func` accesses `obj` only before its creator
    /// hands the block over (see the module's rule).
    pub fn before_handover(&self, func: FuncId, block: BlockId, idx: u32, obj: ObjId) -> bool {
        self.before.get(&(func, block, idx)) == Some(&obj)
    }
}

/// The block of `func` whose instruction defines `v` (an argument: none).
fn definition(program: &Program, func: FuncId, op: &Operand) -> Option<BlockId> {
    let Operand::Var(v) = op else { return None };
    let f = &program.funcs[func.index()];
    (f.blocks.iter().enumerate())
        .find(|(_, b)| b.insts.iter().any(|i| defines(&i.kind, *v)))
        .map(|(bi, _)| BlockId(bi as u32))
}

fn defines(kind: &InstKind, v: VarId) -> bool {
    kind.defs().any(|d| d == v)
}

/// The object of the allocation whose result `op` is, when the allocation returns a fresh
/// block (not `realloc`).
fn fresh_block(program: &Program, func: FuncId, op: &Operand) -> Option<ObjId> {
    let Operand::Var(v) = op else { return None };
    let f = &program.funcs[func.index()];
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find_map(|i| match &i.kind {
            InstKind::HeapAlloc {
                dst,
                obj,
                from: None,
                ..
            } if dst == v => Some(*obj),
            _ => None,
        })
}

/// Whether every path of `func` from the end of block `create` back to `create` passes through
/// block `site`. `site` defines the created thread's argument, so it dominates `create`; in
/// the same block the definition comes first, and re-entering the block passes it.
fn every_cycle_passes(program: &Program, func: FuncId, create: BlockId, site: BlockId) -> bool {
    let f = &program.funcs[func.index()];
    let mut seen = vec![false; f.blocks.len()];
    let mut stack: Vec<BlockId> = Vec::new();
    f.blocks[create.index()]
        .term
        .for_each_successor(|s| stack.push(s));
    while let Some(b) = stack.pop() {
        if b == site {
            continue;
        }
        if b == create {
            return false;
        }
        if std::mem::replace(&mut seen[b.index()], true) {
            continue;
        }
        f.blocks[b.index()]
            .term
            .for_each_successor(|s| stack.push(s));
    }
    true
}
