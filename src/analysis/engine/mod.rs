//! The sequential worklist interpreter of one thread (FSE'16, Alg. 1): states at node entries,
//! reverse-postorder priority, widening at the targets of retreating edges, then a few
//! decreasing (narrowing) passes.
//!
//! Invariant: the returned states are a post-fixpoint of the thread's transfer functions from
//! its entry state, under the interference the `Transfer` supplies; so they over-approximate
//! every state the thread can reach.
//!
//! `solve` widens after a delay, then runs decreasing passes; `replay` runs the transfer functions
//! once more over the final states and tells a `Recorder` what the thread stores, creates, asserts
//! and what each integer load reads (`Recorder::load`: a value that, read back as a load choice
//! without the own view, has the load's effect). Memory budget: past `--max-memory`
//! (`Config::max_memory`, counted by `error::OutOfMemory`, the binary's global allocator) `solve`
//! stops.
//!
//! State variables are cells first (`Var(cell)`), then the thread's flat SSA variables.

mod transfer;
mod view;

pub use transfer::{clamp_kept, set_passed, NoRecord, Recorder, Relations, Transfer};
pub use view::{Choices, LoadRead, ThreadView};

use crate::facts::exit_reads::EXIT_READ;
use crate::ir::{InstKind, Operand, Terminator};
use crate::threads::{Exit, NodeId, Shape};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use watts_domains::NumDomain;

use crate::limits::{NARROW_PASSES, WIDEN_DELAY};

/// Runs the thread to a post-fixpoint; returns the state at the entry of every node.
pub fn solve<D: NumDomain>(t: &Transfer<'_>, shape: &Shape, entry: D) -> Vec<D> {
    let cfg = t.view.cfg;
    let n = cfg.nodes.len();
    let mut state: Vec<D> = vec![D::bottom(); n];
    if n == 0 {
        return state;
    }
    let entry_node = cfg.contexts[0].entry;
    state[entry_node.index()] = entry.clone();
    let mut visits = vec![0u32; n];
    let mut queued = vec![false; n];
    let mut work = BinaryHeap::new();
    work.push(Reverse((shape.rpo[entry_node.index()], entry_node)));
    queued[entry_node.index()] = true;
    let mut steps = 0u32;
    while let Some(Reverse((_, node))) = work.pop() {
        // Past the memory budget the fixpoint stops; `compose::run` sees the same budget and
        // gives up, so these partial states never yield a verdict.
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(256) && crate::error::over_memory_budget() {
            break;
        }
        queued[node.index()] = false;
        let s = state[node.index()].clone();
        successors(t, shape, node, s, &mut |to: NodeId, out: D| {
            if out.is_bottom() {
                return;
            }
            let i = to.index();
            let mut joined = state[i].clone();
            if !joined.join_with(&out) {
                return;
            }
            visits[i] += 1;
            if shape.widen_at[i] && visits[i] > WIDEN_DELAY {
                // Soundness of termination: in SSA form every cycle of values passes through a
                // phi of a loop head or through memory, so widening those suffices.
                let phis = phi_vars(t, to);
                let ncells = t.facts.ncells;
                let mut w = state[i].clone();
                w.widen_selected(&joined, &|v| v.0 < ncells || phis.contains(&v));
                state[i] = w;
            } else {
                state[i] = joined;
            }
            if !queued[i] {
                queued[i] = true;
                work.push(Reverse((shape.rpo[i], to)));
            }
        });
    }
    // Decreasing passes (Gauss-Seidel in reverse postorder): every state is met with one
    // application of the transfer functions to the current states, which stay above the least
    // fixpoint; forward edges use the states already improved in this pass.
    let mut order: Vec<NodeId> = (0..n as u32)
        .map(NodeId)
        .filter(|v| shape.rpo[v.index()] != u32::MAX)
        .collect();
    order.sort_by_key(|v| shape.rpo[v.index()]);
    let mut back_preds: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for &p in &order {
        for s in &shape.succ[p.index()] {
            if shape.rpo[s.index()] <= shape.rpo[p.index()] {
                back_preds[s.index()].push(p);
            }
        }
    }
    for _ in 0..NARROW_PASSES {
        let mut next: Vec<D> = vec![D::bottom(); n];
        next[entry_node.index()] = entry.clone();
        let mut changed = false;
        for &v in &order {
            for &p in &back_preds[v.index()] {
                let s = state[p.index()].clone();
                let acc = &mut next[v.index()];
                successors(t, shape, p, s, &mut |to: NodeId, out: D| {
                    if to == v {
                        acc.join_with(&out);
                    }
                });
            }
            let incoming = std::mem::replace(&mut next[v.index()], D::bottom());
            changed |= state[v.index()].meet_with(&incoming);
            let s = state[v.index()].clone();
            successors(t, shape, v, s, &mut |to: NodeId, out: D| {
                if shape.rpo[to.index()] > shape.rpo[v.index()] {
                    next[to.index()].join_with(&out);
                }
            });
        }
        if !changed {
            break;
        }
    }
    state
}

/// The state variables of the phis at the start of node `n` (none when it starts mid-block).
fn phi_vars(t: &Transfer<'_>, n: NodeId) -> Vec<watts_domains::Var> {
    let nd = &t.view.cfg.nodes[n.index()];
    if nd.start != 0 {
        return Vec::new();
    }
    let func = t.view.cfg.contexts[nd.ctx.0 as usize].func;
    t.facts.program.funcs[func.index()].blocks[nd.block.index()]
        .phis
        .iter()
        .map(|p| t.ssa_var(nd.ctx, p.dst))
        .collect()
}

/// Replays every reachable node once from its final state, reporting what it observes.
pub fn replay<D: NumDomain, R: Recorder<D>>(t: &Transfer<'_>, states: &[D], rec: &mut R) {
    for (i, s) in states.iter().enumerate() {
        if s.is_bottom() {
            continue;
        }
        let node = NodeId(i as u32);
        let mut s = s.clone();
        run_insts(t, node, &mut s, rec);
    }
}

fn run_insts<D: NumDomain, R: Recorder<D>>(t: &Transfer<'_>, node: NodeId, s: &mut D, rec: &mut R) {
    let nd = &t.view.cfg.nodes[node.index()];
    for idx in nd.start..nd.end {
        t.inst(s, node, nd.ctx, nd.block, idx, rec);
        if s.is_bottom() {
            break;
        }
    }
}

/// Executes a node from `s` and hands the state on each outgoing edge to `emit`.
fn successors<D: NumDomain>(
    t: &Transfer<'_>,
    shape: &Shape,
    node: NodeId,
    mut s: D,
    emit: &mut dyn FnMut(NodeId, D),
) {
    if s.is_bottom() {
        return;
    }
    let cfg = t.view.cfg;
    if cfg.async_jumps && !cfg.jump_targets(node).is_empty() {
        // Soundness: a signal handler may `longjmp` between any two instructions.
        let nd = &cfg.nodes[node.index()];
        for idx in nd.start..nd.end {
            t.inst(&mut s, node, nd.ctx, nd.block, idx, &mut NoRecord);
            if s.is_bottom() {
                return;
            }
            for &r in &cfg.resumes {
                emit(r, s.clone());
            }
        }
    } else {
        run_insts(t, node, &mut s, &mut NoRecord);
    }
    if s.is_bottom() {
        return;
    }
    let program = t.facts.program;
    let nd = &cfg.nodes[node.index()];
    let ctx = nd.ctx;
    let func = cfg.contexts[ctx.0 as usize].func;
    let block = &program.funcs[func.index()].blocks[nd.block.index()];
    // Soundness: a `longjmp` here (or in the call that ends the node) continues at a resume
    // point of the thread with the state at the end of the node, memory included.
    for &r in cfg.jump_targets(node) {
        emit(r, s.clone());
    }
    match &nd.exit {
        Exit::Split { cont } => emit(*cont, s),
        Exit::InlinedCall { callee, .. } => {
            let InstKind::Call { args, .. } = &block.insts[nd.end as usize].kind else {
                return;
            };
            let callee_ctx = &cfg.contexts[callee.0 as usize];
            let params = &program.funcs[callee_ctx.func.index()].params;
            let vals: Vec<_> = args.iter().map(|a| t.value(&s, ctx, a)).collect();
            for ((p, v), a) in params.iter().zip(vals).zip(args) {
                let var = t.ssa_var(*callee, *p);
                match program.funcs[callee_ctx.func.index()].vars[p.index()].ty {
                    crate::ir::Ty::Int(bits) => match t.op(ctx, a) {
                        watts_domains::Operand::Var(y) => {
                            s.assign(var, y);
                            clamp_kept(&mut s, var, watts_domains::IntTy::new(bits));
                        }
                        _ => s.set(
                            var,
                            watts_domains::machine::clamp(v, watts_domains::IntTy::new(bits)),
                        ),
                    },
                    ty => set_passed(program, &mut s, var, ty, v),
                }
            }
            emit(callee_ctx.entry, s);
        }
        Exit::Term => match &block.term {
            Terminator::Ret(v) => {
                let Some((caller, call_node)) = cfg.contexts[ctx.0 as usize].caller else {
                    return;
                };
                let cn = &cfg.nodes[call_node.index()];
                let Exit::InlinedCall { cont, .. } = cn.exit else {
                    return;
                };
                let caller_func = cfg.contexts[caller.0 as usize].func;
                let call = &program.funcs[caller_func.index()].blocks[cn.block.index()].insts
                    [cn.end as usize];
                if let InstKind::Call { dst: Some(d), .. } = &call.kind {
                    let val = v
                        .as_ref()
                        .map(|o| t.value(&s, ctx, o))
                        .unwrap_or_else(watts_domains::Interval::top);
                    let var = t.ssa_var(caller, *d);
                    let ty = program.funcs[caller_func.index()].vars[d.index()].ty;
                    set_passed(program, &mut s, var, ty, val);
                }
                forget_context(t, &mut s, ctx);
                emit(cont, s);
            }
            Terminator::Stop { .. } => {}
            term => {
                let from = nd.block;
                // What the exit read of a wait loop read, on the edge that leaves the loop
                // (`facts::exit_reads`: the only edge into a node on no cycle).
                let exit_read = t.view.choice(node, EXIT_READ).copied();
                t.branch(&s, node, term, |to, mut out| {
                    let to = cfg.block_node(ctx, to);
                    if let Some(read) = exit_read.filter(|_| !shape.in_cycle[to.index()]) {
                        t.exit_read(&mut out, node, &read);
                        if out.is_bottom() {
                            return;
                        }
                    }
                    t.phis(&mut out, ctx, from, cfg.nodes[to.index()].block);
                    emit(to, out);
                });
            }
        },
    }
}

/// The value of an operand in a state, for callers outside this module.
pub fn operand_value<D: NumDomain>(
    t: &Transfer<'_>,
    s: &D,
    ctx: crate::threads::CtxId,
    o: &Operand,
) -> watts_domains::Interval {
    t.value(s, ctx, o)
}

/// Forgets the variables of context `ctx` in `s`, on the edge that returns from it: no
/// instruction outside a context names its variables (each call site has its own context, and
/// the return value was copied into the caller's variable before this), so the states after the
/// return need not carry them, and the states of the nodes after a call no longer grow with
/// everything the thread called before (joins and inclusion skip the dropped subtrees).
///
/// Soundness: forgetting is an over-approximation (the variables become top). A jump into a
/// context that has returned (a `longjmp` to a returned frame, undefined in C) then sees them
/// unconstrained, which over-approximates it too.
fn forget_context<D: NumDomain>(t: &Transfer<'_>, s: &mut D, ctx: crate::threads::CtxId) {
    let cfg = t.view.cfg;
    let c = &cfg.contexts[ctx.0 as usize];
    let n = t.facts.program.funcs[c.func.index()].vars.len() as u32;
    if n == 0 {
        return;
    }
    let base = t.facts.ncells + c.var_base;
    let vars: Vec<watts_domains::Var> = (base..base + n).map(watts_domains::Var).collect();
    s.forget_many(&vars);
}

#[cfg(test)]
mod tests {
    use crate::analysis::testing::{with_fixpoint, FLOW_INSENSITIVE};
    use crate::threads::{CtxId, Exit};
    use watts_domains::Interval;

    /// After a return, the state carries no variable of the returned context (`forget_context`),
    /// and the value returned still reaches the caller: both assertions about it are proved.
    #[test]
    fn a_returned_context_is_forgotten_and_its_result_kept() {
        let src = r#"
            #include <assert.h>
            static int inc(int x) { int y = x + 1; if (y > 10) y = 10; return y; }
            int main(void) {
                int a = inc(3);
                int b = inc(a);
                assert(a == 4);
                assert(b == 5);
                return 0; }
        "#;
        with_fixpoint(src, FLOW_INSENSITIVE, |_, facts, fix| {
            let t = &fix.threads[0];
            assert!(t.cfg.contexts.len() >= 3, "two inlined calls of inc");
            let states = &fix.results[0].states;
            let mut after_calls = 0;
            for nd in t.cfg.nodes.iter().filter(|n| n.ctx == CtxId(0)) {
                let Exit::InlinedCall { cont, callee } = nd.exit else {
                    continue;
                };
                let c = &t.cfg.contexts[callee.0 as usize];
                let s = &states[cont.index()];
                assert!(!watts_domains::Lattice::is_bottom(s));
                let base = facts.ncells + c.var_base;
                let vars = base..base + facts.program.funcs[c.func.index()].vars.len() as u32;
                assert!(!vars.is_empty());
                for (v, i) in s.iter() {
                    assert!(
                        !vars.contains(&v.0) || i == Interval::top(),
                        "variable {v:?} of the returned context is {i:?}"
                    );
                }
                after_calls += 1;
            }
            assert_eq!(after_calls, 2);
            assert!(
                fix.asserts.iter().all(|a| a.fails_in.is_empty()),
                "{:?}",
                fix.asserts
            );
            assert_eq!(fix.asserts.len(), 2);
            assert!(fix.asserts.iter().all(|a| a.reached_in.contains(&0)));
        })
    }
}
