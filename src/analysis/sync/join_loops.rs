//! Join loops that wait for every thread of a create loop: the must-joined threads of
//! `pthread_t t[N]` programs.
//!
//! ```c
//! for (int i = 0; i < N; i++) pthread_create(&t[i], 0, worker, 0);
//! for (int i = 0; i < N; i++) pthread_join(t[i], 0);
//! // here every instance of `worker` has terminated
//! ```
//!
//! Invariant: a [`JoinLoop`] is reported only when, in every execution, every instance of the
//! child class has terminated whenever the parent reaches the first node after the join loop
//! (the argument is in [`find`]); `at_least_one` only when, in addition, some instance has
//! run to its end by then. Anything that does not fit the pattern exactly is not reported,
//! which only loses precision.
//!
//! The pattern: counted loops entered once with a step of 1 or -1 and no exit but the header's,
//! distinct slots that no instruction of the program but the create may write
//! (`Facts::write_counts`), the create not reachable from the join loop. `feasibility` places a
//! pseudo-event at the start of the exit node and gives the oracle `joins_all`.

use crate::facts::Facts;
use crate::ir::{BinOp, BlockId, CastOp, CmpPred, FuncId, InstKind, Operand, Terminator, VarId};
use crate::threads::{CtxId, NodeId, Shape, ThreadCfg};
use crate::threads::{Origin, Thread};

/// A join loop of `parent` that waits for every instance of the multi-instance `child`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinLoop {
    /// The thread running both loops.
    pub parent: usize,
    /// The thread class created in the create loop.
    pub child: usize,
    /// The node the join loop exits to: every instance has ended whenever it starts.
    pub exit: NodeId,
    /// Whether, in addition, the create loop surely created an instance that has run to its end.
    pub at_least_one: bool,
}

/// The join loops of the program.
///
/// Soundness. The create site is `pthread_create(&t[i], ..)` in a counted loop (below) whose
/// index `i` takes the values `first, first + 1, ..` up to at most `last`, once each (the loop
/// is entered at most once and every cycle through the create passes the loop header), so
/// the instances' handles go to distinct slots `t[first..=last]`; no other instruction of the
/// program may write those slots. The join site is `pthread_join(t[j])` in a counted loop that
/// runs *every* iteration through the join (the join dominates every latch, and the header's
/// exit edge is the only way out), with `j` from `first' <= first` up to `last' >= last`, so
/// every slot that may hold a handle is joined. The create loop cannot run again once the join
/// loop has started (the create is not reachable from the join loop's header), so each slot
/// holds its final handle when it is joined. The exit node has the header as its only
/// predecessor and lies on no cycle: whenever it runs, the join loop has completed.
///
/// `at_least_one`: `first <= last`, the create dominates every latch of its loop, which has
/// no other exit, and its header dominates the join loop's exit: reaching that exit means the
/// first iteration created an instance, and the join loop has waited for it.
///
/// Thread ends. "Terminated" is however an instance ends: a return, `pthread_exit` in a callee
/// that is not inlined or through a pointer, cancellation. A join returns only after the end,
/// so an instance that ended early has terminated earlier, which keeps the invariant. What the
/// oracle then orders before the loop's end is only what the instances did (the (all) half of
/// `all_ended`), and a store counts as done by some instance (`AnyInstance`, with
/// `at_least_one`) only through the program-order fact "store before the thread's end", which
/// `feasibility` gives only to events before every point where the thread may end (`MayEnd`).
pub fn find(facts: &Facts<'_>, threads: &[Thread]) -> Vec<JoinLoop> {
    let mut found = Vec::new();
    for (child, t) in threads.iter().enumerate() {
        let Origin::Created { parent, node, inst } = t.origin else {
            continue;
        };
        let p = &threads[parent];
        if !t.multi || p.multi || p.origin == Origin::Detached {
            continue;
        }
        let writers = facts.write_counts();
        if let Some(j) = join_loop_of(facts, p, node, inst, writers) {
            found.push(JoinLoop { parent, child, ..j });
        }
    }
    found
}

/// `&base[i]`: one variable index over a fixed base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    base: Operand,
    offset: i64,
    stride: u64,
    index: VarId,
}

/// A loop `for (i = first; i <= last; i++)` (or `for (i = last; i >= first; i--)`) around the
/// header node `header`: the index takes each value of `first..=last` at most once.
struct CountedLoop {
    header: NodeId,
    first: i128,
    last: i128,
    exit: NodeId,
    latches: Vec<NodeId>,
}

fn join_loop_of(
    facts: &Facts<'_>,
    p: &Thread,
    create_node: NodeId,
    create_inst: u32,
    writers: &[u32],
) -> Option<JoinLoop> {
    let program = facts.program;
    let (cfg, shape) = (&p.cfg, &p.shape);
    let nd = &cfg.nodes[create_node.index()];
    let ctx = nd.ctx;
    let func = cfg.func(create_node);
    let f = &program.funcs[func.index()];
    let InstKind::ThreadCreate { handle, .. } =
        &f.blocks[nd.block.index()].insts[create_inst as usize].kind
    else {
        return None;
    };
    let slot = slot_of(facts, func, handle)?;
    let creates = counted_loop(facts, cfg, shape, ctx, func, slot.index)?;
    // One create per value of the index.
    if !in_loop(shape, creates.header, create_node)
        || cycles_without(shape, creates.header, create_node)
    {
        return None;
    }
    // The handle slots: written by this create only.
    let cells = facts.memory.region(program, func, handle);
    if cells.is_empty() || cells.iter().any(|c| writers[c.index()] != 1) {
        return None;
    }
    for (n, jn) in cfg.nodes.iter().enumerate() {
        let join_node = NodeId(n as u32);
        if jn.ctx != ctx || shape.rpo[n] == u32::MAX {
            continue;
        }
        for idx in jn.start..jn.end {
            let InstKind::ThreadJoin {
                handle: Operand::Var(h),
                ..
            } = &f.blocks[jn.block.index()].insts[idx as usize].kind
            else {
                continue;
            };
            let Some(InstKind::Load { ptr, .. }) = facts.def(func, *h) else {
                continue;
            };
            let Some(js) = slot_of(facts, func, ptr) else {
                continue;
            };
            if (js.base, js.offset, js.stride) != (slot.base, slot.offset, slot.stride) {
                continue;
            }
            let Some(joins) = counted_loop(facts, cfg, shape, ctx, func, js.index) else {
                continue;
            };
            let every_iteration = in_loop(shape, joins.header, join_node)
                && (joins.latches.iter()).all(|l| shape.dominates(join_node, *l));
            let covers = joins.first <= creates.first && joins.last >= creates.last;
            let exit_once = shape.pred[joins.exit.index()] == [joins.header]
                && !shape.in_cycle[joins.exit.index()];
            if !every_iteration
                || !covers
                || !exit_once
                || reaches(shape, joins.header, create_node)
            {
                continue;
            }
            let at_least_one = creates.first <= creates.last
                && (creates.latches.iter()).all(|l| shape.dominates(create_node, *l))
                && shape.dominates(creates.header, joins.exit);
            return Some(JoinLoop {
                parent: 0,
                child: 0,
                exit: joins.exit,
                at_least_one,
            });
        }
    }
    None
}

/// `ptr` is `&base[index]` (a `getelementptr` with one variable index, possibly extended).
fn slot_of(facts: &Facts<'_>, func: FuncId, ptr: &Operand) -> Option<Slot> {
    let Operand::Var(g) = ptr else { return None };
    let InstKind::Gep {
        base,
        offset,
        indices,
        ..
    } = facts.def(func, *g)?
    else {
        return None;
    };
    let [(Operand::Var(mut index), stride)] = indices.as_slice() else {
        return None;
    };
    // Extensions are injective: distinct indices stay distinct slots.
    while let Some(InstKind::Cast {
        op: CastOp::SExt | CastOp::ZExt,
        src: Operand::Var(src),
        ..
    }) = facts.def(func, index)
    {
        index = *src;
    }
    Some(Slot {
        base: *base,
        offset: *offset,
        stride: *stride,
        index,
    })
}

/// The counted loop whose header defines `v` as `phi [init, outside], [v + 1, latch]..`,
/// entered at most once, left only by the header's exit edge, with `v <= last` on every
/// iteration (`first` is `init`); or, counting down, `phi [init, outside], [v - 1, latch]..`
/// with `v >= first` on every iteration (`last` is `init`). Either way the index takes each
/// value of `first..=last` at most once: it moves by one in one direction and never wraps.
fn counted_loop(
    facts: &Facts<'_>,
    cfg: &ThreadCfg,
    shape: &Shape,
    ctx: CtxId,
    func: FuncId,
    v: VarId,
) -> Option<CountedLoop> {
    let f = &facts.program.funcs[func.index()];
    let (hb, phi) = f.blocks.iter().enumerate().find_map(|(bi, b)| {
        b.phis
            .iter()
            .find(|p| p.dst == v)
            .map(|p| (BlockId(bi as u32), p))
    })?;
    let header = cfg.block_node(ctx, hb);
    let h = header.index();
    if !shape.in_cycle[h] || shape.rpo[h] == u32::MAX {
        return None;
    }
    let mut first = None;
    let mut step = None;
    let mut latches = Vec::new();
    for &pn in &shape.pred[h] {
        let pnode = &cfg.nodes[pn.index()];
        if pnode.ctx != ctx {
            return None;
        }
        let (_, value) = phi.incoming.iter().find(|(b, _)| *b == pnode.block)?;
        if shape.scc[pn.index()] == shape.scc[h] {
            let s = step_of(facts, func, value, v)?;
            if step.is_some_and(|x| x != s) {
                return None;
            }
            step = Some(s);
            latches.push(pn);
        } else {
            // Entered at most once, always with the same value.
            let Operand::Int { value, .. } = value else {
                return None;
            };
            if shape.in_cycle[pn.index()] || first.is_some_and(|x| x != *value) {
                return None;
            }
            first = Some(*value);
        }
    }
    let init = first?;
    let step = step?;
    // The only way out is the header's exit edge; the header dominates the loop.
    let members: Vec<usize> = (0..cfg.nodes.len())
        .filter(|&m| shape.scc[m] == shape.scc[h] && shape.rpo[m] != u32::MAX)
        .collect();
    for &m in &members {
        if !shape.dominates(header, NodeId(m as u32)) {
            return None;
        }
        if m != h
            && shape.succ[m]
                .iter()
                .any(|s| shape.scc[s.index()] != shape.scc[h])
        {
            return None;
        }
    }
    let Terminator::CondBr {
        cond: Operand::Var(c),
        then_,
        else_,
    } = &f.blocks[hb.index()].term
    else {
        return None;
    };
    let Some(InstKind::Cmp {
        pred, a, b, bits, ..
    }) = facts.def(func, *c)
    else {
        return None;
    };
    // The header's terminator must be in the header node (no call split the block).
    if cfg.block_end_node(ctx, hb) != header {
        return None;
    }
    let (then_n, else_n) = (cfg.block_node(ctx, *then_), cfg.block_node(ctx, *else_));
    let inside = |n: NodeId| shape.scc[n.index()] == shape.scc[h];
    let (stay_when_true, exit) = match (inside(then_n), inside(else_n)) {
        (true, false) => (true, else_n),
        (false, true) => (false, then_n),
        _ => return None,
    };
    // Normalise to `v pred bound`, true on the iterations that stay in the loop.
    let (pred, bound) = match (a, b) {
        (Operand::Var(x), Operand::Int { value, .. }) if *x == v => (*pred, *value),
        (Operand::Int { value, .. }, Operand::Var(x)) if *x == v => (pred.swap(), *value),
        _ => return None,
    };
    let pred = if stay_when_true { pred } else { pred.negate() };
    let max = (1i128 << ((*bits).clamp(1, 64) - 1)) - 1;
    let (first, last) = if step == 1 {
        let last = match pred {
            CmpPred::Slt => bound - 1,
            CmpPred::Sle => bound,
            CmpPred::Ult if init >= 0 && bound >= 0 => bound - 1,
            CmpPred::Ule if init >= 0 && bound >= 0 => bound,
            CmpPred::Ne if init <= bound => bound - 1,
            _ => return None,
        };
        (init, last)
    } else {
        // Counting down: the loop stays while `v > bound` (or `>=`), so `v - 1` never goes
        // below `first - 1`; an unsigned test needs `first >= 1` for that not to wrap.
        let first = match pred {
            CmpPred::Sgt => bound + 1,
            CmpPred::Sge => bound,
            CmpPred::Ugt if init >= 0 && bound >= 0 => bound + 1,
            CmpPred::Uge if init >= 0 && bound >= 1 => bound,
            CmpPred::Ne if init >= bound => bound + 1,
            _ => return None,
        };
        (first, init)
    };
    // `v + 1` and `v - 1` never wrap: the index stays inside the signed range of its width.
    if *bits == 0 || last >= max || first <= -max {
        return None;
    }
    Some(CountedLoop {
        header,
        first,
        last,
        exit,
        latches,
    })
}

/// `1` when `value` is `v + 1`, `-1` when it is `v - 1` (`v + -1`).
fn step_of(facts: &Facts<'_>, func: FuncId, value: &Operand, v: VarId) -> Option<i128> {
    let Operand::Var(s) = value else { return None };
    let Some(InstKind::Bin { op, a, b, .. }) = facts.def(func, *s) else {
        return None;
    };
    match (op, a, b) {
        (BinOp::Add, Operand::Var(x), Operand::Int { value, .. })
        | (BinOp::Add, Operand::Int { value, .. }, Operand::Var(x))
            if *x == v && (*value == 1 || *value == -1) =>
        {
            Some(*value)
        }
        (BinOp::Sub, Operand::Var(x), Operand::Int { value: 1, .. }) if *x == v => Some(-1),
        _ => None,
    }
}

fn in_loop(shape: &Shape, header: NodeId, n: NodeId) -> bool {
    shape.scc[n.index()] == shape.scc[header.index()] && shape.dominates(header, n)
}

/// Whether `n` lies on a cycle that avoids `header`.
fn cycles_without(shape: &Shape, header: NodeId, n: NodeId) -> bool {
    let mut seen = vec![false; shape.succ.len()];
    let mut stack: Vec<NodeId> = shape.succ[n.index()].clone();
    while let Some(m) = stack.pop() {
        if m == n {
            return true;
        }
        if m == header || seen[m.index()] {
            continue;
        }
        seen[m.index()] = true;
        stack.extend(shape.succ[m.index()].iter().copied());
    }
    false
}

/// Whether `to` is reachable from `from` (by a path of at least one edge, or `from == to`).
fn reaches(shape: &Shape, from: NodeId, to: NodeId) -> bool {
    let mut seen = vec![false; shape.succ.len()];
    let mut stack = vec![from];
    while let Some(m) = stack.pop() {
        if m == to {
            return true;
        }
        if seen[m.index()] {
            continue;
        }
        seen[m.index()] = true;
        stack.extend(shape.succ[m.index()].iter().copied());
    }
    false
}
