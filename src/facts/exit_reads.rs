//! Exit reads of wait loops (issue 17, idiom 2): in `while (!flag) {}` or
//! `while (!ready) pthread_cond_wait(&cv, &m);`, the execution of the loop's load that leaves
//! the loop happens once, read a store whose value passes the exit test, and precedes
//! everything after the loop. The flow-sensitive modes give that read a choice of its own and an
//! event of its own, so that the happens-before rules see the store that released the waiter.
//!
//! Invariant: an exit read is reported only when, in every execution that leaves the loop
//! through its exit edge, the load's last execution before the edge is the exit read, nothing
//! of the thread that touches memory runs between the two, the exit is taken at most once per
//! thread instance, and the thread never writes the cell inside the loop.
//!
//! Shape: a load of one cell whose value alone decides the branch that leaves the loop, the last
//! memory access of its node, an exit node on no cycle that only that edge enters, a loop that
//! never writes the cell. The constraint modes and the engine key the exit read `(node,
//! EXIT_READ)`; `may_exit_with` says whether a stored value passes the exit test (for the race
//! check's order).

use super::Facts;
use crate::ir::{InstKind, Operand, Terminator, Ty, VarId};
use crate::memory::CellId;
use crate::threads::{Exit, NodeId, Shape, ThreadCfg};
use std::collections::BTreeSet;

/// The instruction index under which an exit read's choice and event are keyed, next to the
/// node of its load (`(node, EXIT_READ)`); no block has that many instructions.
pub const EXIT_READ: u32 = u32::MAX;

/// The load whose last execution leaves a wait loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitRead {
    /// The node of the load, on a cycle; its terminator decides the exit.
    pub node: NodeId,
    /// The load's instruction index in the node's block.
    pub load: u32,
    /// The one cell it reads.
    pub cell: CellId,
    /// The node the exit edge leads to: on no cycle, with `node` as its only predecessor.
    pub exit: NodeId,
    /// The nodes outside the loop with an edge into it: the view of `cell` there is what an
    /// exit read of the thread's own view reads (`node`'s component of the graph never writes
    /// `cell`, and the exit test depends on the loaded value alone, so only the first iteration
    /// can leave the loop with the value the thread already saw).
    pub entries: Vec<NodeId>,
}

/// Every exit read of one thread's CFG.
pub fn exit_reads(facts: &Facts<'_>, cfg: &ThreadCfg, shape: &Shape) -> Vec<ExitRead> {
    // Soundness: a signal handler that jumps may leave the loop between any two instructions.
    if cfg.async_jumps {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (n, nd) in cfg.nodes.iter().enumerate() {
        let node = NodeId(n as u32);
        if !shape.in_cycle[n] || shape.rpo[n] == u32::MAX || !matches!(nd.exit, Exit::Term) {
            continue;
        }
        if !cfg.jump_targets(node).is_empty() {
            continue;
        }
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
        let Terminator::CondBr {
            cond: Operand::Var(cond),
            then_,
            else_,
        } = &block.term
        else {
            continue;
        };
        let Some((load, cell)) = decided_by_load(facts, func, nd.block, nd.start, nd.end, *cond)
        else {
            continue;
        };
        let targets = [
            cfg.block_node(nd.ctx, *then_),
            cfg.block_node(nd.ctx, *else_),
        ];
        let outside: Vec<NodeId> = targets
            .iter()
            .copied()
            .filter(|t| !shape.in_cycle[t.index()])
            .collect();
        let [exit] = outside[..] else {
            continue;
        };
        if shape.pred[exit.index()] != [node] {
            continue;
        }
        let scc = shape.scc[n];
        let members: Vec<usize> = (0..cfg.nodes.len())
            .filter(|m| shape.scc[*m] == scc && shape.rpo[*m] != u32::MAX)
            .collect();
        if members.iter().any(|m| writes_cell(facts, cfg, *m, cell)) {
            continue;
        }
        let mut entries: BTreeSet<NodeId> = BTreeSet::new();
        for m in &members {
            for p in &shape.pred[*m] {
                if shape.scc[p.index()] != scc {
                    entries.insert(*p);
                }
            }
        }
        out.push(ExitRead {
            node,
            load,
            cell,
            exit,
            entries: entries.into_iter().collect(),
        });
    }
    out
}

/// Whether the wait loop of `x` may leave through its exit edge when its load reads `value`
/// (`None`: any value): the computation from the loaded value to the branch, run on that one
/// value (intervals of one value each). Anything it cannot follow answers `true`.
pub fn may_exit_with(
    facts: &Facts<'_>,
    cfg: &ThreadCfg,
    x: &ExitRead,
    value: Option<i128>,
) -> bool {
    use watts_domains::{machine, IntTy, Interval};
    let Some(value) = value else {
        return true;
    };
    let nd = &cfg.nodes[x.node.index()];
    let func = cfg.contexts[nd.ctx.0 as usize].func;
    let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
    // A pointer is tested against null: it is read as a 64-bit integer, null as 0.
    let (dst, bits) = match block.insts[x.load as usize].kind {
        InstKind::Load {
            dst,
            ty: Ty::Int(bits),
            ..
        } => (dst, bits),
        InstKind::Load {
            dst, ty: Ty::Ptr, ..
        } => (dst, 64),
        _ => return true,
    };
    let ty = IntTy::new(bits);
    let mut known: std::collections::BTreeMap<VarId, Interval> = Default::default();
    known.insert(dst, machine::wrap(Interval::constant(value), ty));
    let val = |o: &Operand, known: &std::collections::BTreeMap<VarId, Interval>| match o {
        Operand::Var(v) => known.get(v).copied(),
        Operand::Int { value, .. } => Some(Interval::constant(*value)),
        Operand::Null => Some(Interval::constant(0)),
        _ => None,
    };
    for i in x.load + 1..nd.end {
        let (d, r) = match &block.insts[i as usize].kind {
            InstKind::Bin {
                dst,
                op,
                a,
                b,
                bits,
            } => match (val(a, &known), val(b, &known)) {
                (Some(a), Some(b)) => (*dst, machine::binop(*op, a, b, IntTy::new(*bits))),
                _ => continue,
            },
            InstKind::Cmp {
                dst,
                pred,
                a,
                b,
                bits,
            } => match (val(a, &known), val(b, &known)) {
                // A pointer comparison (`bits` 0) is one of the loaded pointer with null.
                (Some(a), Some(b)) => {
                    let width = if *bits == 0 { 64 } else { *bits };
                    (*dst, machine::compare(*pred, a, b, IntTy::new(width)))
                }
                _ => continue,
            },
            InstKind::Cast {
                dst,
                op,
                src,
                from,
                to,
            } if *from > 0 && *to > 0 => {
                let op = match op {
                    crate::ir::CastOp::Trunc => watts_domains::CastOp::Trunc,
                    crate::ir::CastOp::ZExt => watts_domains::CastOp::ZExt,
                    crate::ir::CastOp::SExt => watts_domains::CastOp::SExt,
                    _ => continue,
                };
                match val(src, &known) {
                    Some(a) => (
                        *dst,
                        machine::cast(op, a, IntTy::new(*from), IntTy::new(*to)),
                    ),
                    None => continue,
                }
            }
            InstKind::Copy { dst, src } => match val(src, &known) {
                Some(a) => (*dst, a),
                None => continue,
            },
            _ => continue,
        };
        known.insert(d, r);
    }
    let Terminator::CondBr {
        cond: Operand::Var(cond),
        then_,
        ..
    } = &block.term
    else {
        return true;
    };
    let exit_when = i128::from(cfg.block_node(nd.ctx, *then_) == x.exit);
    known.get(cond).is_none_or(|c| c.contains(exit_when))
}

/// The strong load of one cell whose value alone decides `cond`: the node's last instruction
/// that is not a register computation is an integer load, and `cond` is computed from its
/// result and constants only (so the same value read twice takes the same edge).
fn decided_by_load(
    facts: &Facts<'_>,
    func: crate::ir::FuncId,
    block: crate::ir::BlockId,
    start: u32,
    end: u32,
    cond: VarId,
) -> Option<(u32, CellId)> {
    let insts = &facts.program.funcs[func.index()].blocks[block.index()].insts;
    let last = last_effect(insts, start, end)?;
    // An integer, or a pointer tested against null (`while (!(p = head)) {}`).
    let InstKind::Load {
        dst,
        ty: Ty::Int(_) | Ty::Ptr,
        ..
    } = insts[last as usize].kind
    else {
        return None;
    };
    let access = facts.access(func, block, last);
    let [cell] = access.exact[..] else {
        return None;
    };
    // One concrete cell, read whole: a cell that stands for several (array elements, heap)
    // would say nothing of the element the exit read read.
    if !access.strong {
        return None;
    }
    let mut derived: BTreeSet<VarId> = BTreeSet::from([dst]);
    let from_load = |o: &Operand, derived: &BTreeSet<VarId>| match o {
        Operand::Var(v) => derived.contains(v),
        Operand::Int { .. } | Operand::Null => true,
        _ => false,
    };
    for i in last + 1..end {
        let (d, ok) = match &insts[i as usize].kind {
            InstKind::Bin { dst, a, b, .. } | InstKind::Cmp { dst, a, b, .. } => {
                (*dst, from_load(a, &derived) && from_load(b, &derived))
            }
            InstKind::Cast { dst, src, .. } | InstKind::Copy { dst, src } => {
                (*dst, from_load(src, &derived))
            }
            _ => continue,
        };
        if ok {
            derived.insert(d);
        }
    }
    derived.contains(&cond).then_some((last, cell))
}

/// The last instruction of `insts[start..end]` that is not a register computation: in a node
/// with an exit read, its load.
pub fn last_effect(insts: &[crate::ir::Inst], start: u32, end: u32) -> Option<u32> {
    (start..end)
        .rev()
        .find(|&i| !is_register_op(&insts[i as usize].kind))
}

/// Register computations: no memory, no call, no effect on other threads.
fn is_register_op(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::Bin { .. }
            | InstKind::Cmp { .. }
            | InstKind::Cast { .. }
            | InstKind::Copy { .. }
            | InstKind::Select { .. }
            | InstKind::Gep { .. }
    )
}

/// Whether some instruction of node `m` may write `cell`.
fn writes_cell(facts: &Facts<'_>, cfg: &ThreadCfg, m: usize, cell: CellId) -> bool {
    let nd = &cfg.nodes[m];
    let func = cfg.contexts[nd.ctx.0 as usize].func;
    (nd.start..nd.end).any(|i| facts.written_cells(func, nd.block, i).contains(&cell))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::{func, with_facts};
    use crate::threads::InlineBudget;

    fn exits_of(src: &str, entry: &str) -> Vec<(String, bool)> {
        with_facts(src, |program, facts| {
            let cfg = ThreadCfg::build(program, func(program, entry), InlineBudget::default());
            let shape = Shape::of(&cfg, program);
            exit_reads(facts, &cfg, &shape)
                .iter()
                .map(|x| {
                    let name = facts.memory.cells.info(x.cell).name.clone();
                    (name, !x.entries.is_empty())
                })
                .collect()
        })
    }

    #[test]
    fn wait_loops_have_exit_reads() {
        let src = "#include <pthread.h>\n#include <sched.h>\n\
                   pthread_mutex_t m; pthread_cond_t cv; int flag, ready, pending;\n\
                   void *spin(void *a) { while (!flag) {} return 0; }\n\
                   void *wait(void *a) { pthread_mutex_lock(&m);\n\
                     while (!ready) pthread_cond_wait(&cv, &m);\n\
                     pthread_mutex_unlock(&m); return 0; }\n\
                   void *yield(void *a) { while (pending == 0) sched_yield(); return 0; }\n\
                   int main(void) { return 0; }\n";
        assert_eq!(exits_of(src, "spin"), [("flag".to_string(), true)]);
        assert_eq!(exits_of(src, "wait"), [("ready".to_string(), true)]);
        assert_eq!(exits_of(src, "yield"), [("pending".to_string(), true)]);
    }

    #[test]
    fn loops_that_are_not_waits_have_none() {
        // The exit also depends on a counter; the loop writes the flag; the exit is on a cycle;
        // an unknown call in the loop may write the flag; two loads decide the exit; the flag
        // is an array element (one cell for every element).
        let src = "int flag, other; void work(void);\n\
                   void *timeout(void *a) { int n = 0; while (!flag && n < 3) n++; return 0; }\n\
                   void *resets(void *a) { while (!flag) flag = 0; return 0; }\n\
                   void *outer(void *a) { for (;;) { while (!flag) {} other = 1; } }\n\
                   void *unknown(void *a) { while (!flag) work(); return 0; }\n\
                   void *both(void *a) { while (flag + other == 0) {} return 0; }\n\
                   int flags[2];\n\
                   void *element(void *a) { while (!flags[1]) {} return 0; }\n\
                   int main(void) { return 0; }\n";
        for entry in ["resets", "outer", "unknown", "both", "element"] {
            assert_eq!(exits_of(src, entry), [], "{entry}");
        }
        // `!flag && n < 3`: the flag's test leaves the loop only to the join with the other
        // exit, which has two predecessors.
        assert_eq!(exits_of(src, "timeout"), [], "timeout");
    }
}
