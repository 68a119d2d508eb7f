//! The dependence graph of one thread's inlined CFG.
//!
//! Vertices: per CFG node a *head* (its phis, and what every instruction of the node is
//! control dependent on), one vertex per instruction, and a *term* vertex (the block's
//! terminator, or the inlined call for `Exit::InlinedCall`). One extra vertex stands for "every
//! write of the thread" (what a thread creation or an unknown read depends on).
//!
//! Edges point from a vertex to the vertices it depends on:
//! - control: instruction -> head of its node -> term of every node it is control dependent on;
//!   a phi also depends on the terms of the predecessors (which edge was taken);
//! - data (SSA): a use of a variable -> its definition (inlined parameters are defined by the
//!   call, an inlined call's result by the callee's returns);
//! - data (memory): a read of a cell -> the cell's vertex -> every write of that cell in the
//!   thread (no reaching definitions: larger slices, never a missing one); a load counts as a
//!   write of the cells it reads, since the analysis keeps the value read as the thread's view
//!   of them.
//!
//! So edges grow with the code, not with reads times writes. Invariant: a missing edge may split a
//! cluster or drop a load from every slice, which the optimized mode handles soundly (the load
//! reads the join); so where in doubt, an edge is added.

use super::control::control_dependence;
use crate::facts::Facts;
use crate::ir::effects::{Access, Effect, MemAccess, Via};
use crate::ir::{InstKind, Operand, Terminator};
use crate::threads::{CtxId, Exit, NodeId, Shape, ThreadCfg};
use std::collections::HashMap;

/// The dependence graph of one thread. After the instruction vertices of every node come the
/// vertex of "every write" and one vertex per cell that is read and written (no instruction).
pub struct Pdg {
    /// First vertex (the head) of every node.
    offset: Vec<u32>,
    /// What every vertex depends on.
    pub deps: Vec<Vec<u32>>,
}

impl Pdg {
    /// The vertex of instruction `idx` of node `n` (`idx == end`: the term vertex).
    pub fn inst(&self, n: NodeId, start: u32, idx: u32) -> u32 {
        self.offset[n.index()] + 1 + (idx - start)
    }

    /// The term vertex of node `n`.
    pub fn term(&self, cfg: &ThreadCfg, n: NodeId) -> u32 {
        let nd = &cfg.nodes[n.index()];
        self.inst(n, nd.start, nd.end)
    }

    /// Builds the graph of a thread.
    pub fn build(facts: &Facts<'_>, cfg: &ThreadCfg, shape: &Shape) -> Pdg {
        let program = facts.program;
        let mut offset = Vec::with_capacity(cfg.nodes.len());
        let mut next = 0u32;
        for nd in &cfg.nodes {
            offset.push(next);
            next += nd.end - nd.start + 2;
        }
        let all_writes = next;
        let mut deps: Vec<Vec<u32>> = vec![Vec::new(); next as usize + 1];
        let mut g = Pdg {
            offset,
            deps: Vec::new(),
        };
        // Code after an assertion is not made control dependent on its condition: the failing
        // branch ends the process. This only splits clusters (precision, never soundness: see
        // the module comment); the condition is a slice target of its own (`clusters`).
        let succ: Vec<Vec<usize>> = (shape.succ.iter())
            .map(|s| {
                (s.iter())
                    .filter(|x| !fails_here(facts, cfg, **x))
                    .map(|x| x.index())
                    .collect()
            })
            .collect();
        let cd = control_dependence(&succ);
        // Definitions of flat variables, and writers of cells.
        let mut defs: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut writers: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut uses: Vec<(u32, CtxId, Operand)> = Vec::new();
        let mut reads: Vec<(u32, Vec<u32>)> = Vec::new();
        let mut reads_all: Vec<u32> = Vec::new();
        for (n, nd) in cfg.nodes.iter().enumerate() {
            let node = NodeId(n as u32);
            let ctx = &cfg.contexts[nd.ctx.0 as usize];
            let func = &program.funcs[ctx.func.index()];
            let block = &func.blocks[nd.block.index()];
            let head = g.offset[n];
            for &c in &cd[n] {
                let t = g.term(cfg, NodeId(c as u32));
                deps[head as usize].push(t);
            }
            if nd.start == 0 {
                for phi in &block.phis {
                    defs.entry(cfg.var(nd.ctx, phi.dst)).or_default().push(head);
                    for (_, op) in &phi.incoming {
                        uses.push((head, nd.ctx, *op));
                    }
                }
                if !block.phis.is_empty() {
                    for p in &shape.pred[n] {
                        let t = g.term(cfg, *p);
                        deps[head as usize].push(t);
                    }
                }
            }
            for idx in nd.start..nd.end {
                let v = g.inst(node, nd.start, idx);
                deps[v as usize].push(head);
                let kind = &block.insts[idx as usize].kind;
                for d in kind.defs() {
                    defs.entry(cfg.var(nd.ctx, d)).or_default().push(v);
                }
                kind.for_each_use(|o| uses.push((v, nd.ctx, *o)));
                for c in facts.written_cells(ctx.func, nd.block, idx) {
                    writers.entry(c.0).or_default().push(v);
                }
                let mut read = Read::Nothing;
                kind.effects(|e| {
                    read = read.max(match e {
                        Effect::Mem(MemAccess {
                            access: Access::Read | Access::Update,
                            via: Via::Direct,
                            ..
                        }) => Read::Cells,
                        Effect::Mem(MemAccess {
                            access: Access::Read,
                            via: Via::Bytes,
                            ..
                        }) => Read::Everything,
                        // Issue 35: `realloc`'s read of its old block is no read here.
                        Effect::Mem(MemAccess {
                            access: Access::Read,
                            via: Via::Realloc | Via::Threads,
                            ..
                        }) => Read::Nothing,
                        Effect::Mem(MemAccess {
                            access: Access::Write,
                            ..
                        })
                        | Effect::Mem(MemAccess {
                            access: Access::Update,
                            via: Via::Bytes | Via::Threads | Via::Realloc,
                            ..
                        }) => Read::Nothing,
                        // A created thread starts from the whole memory; unknown code reads it.
                        Effect::CreatesThread { .. } | Effect::Call { .. } | Effect::Clobbers => {
                            Read::Everything
                        }
                        Effect::Allocates
                        | Effect::Zeroes { .. }
                        | Effect::JoinsThread { .. }
                        | Effect::Locks { .. }
                        | Effect::Unlocks { .. }
                        | Effect::AtomicSection(_)
                        | Effect::Asserts
                        | Effect::Assumes => Read::Nothing,
                    });
                });
                // Issue 35: assembly that clobbers no memory (and any other `Havoc`) counts as
                // reading everything, as it always has.
                if let InstKind::Havoc { .. } = kind {
                    read = Read::Everything;
                }
                match read {
                    Read::Nothing => {}
                    Read::Everything => reads_all.push(v),
                    Read::Cells => {
                        let a = facts.access(ctx.func, nd.block, idx);
                        if a.read_unknown {
                            reads_all.push(v);
                        } else {
                            let cells: Vec<u32> = a.exact.iter().map(|c| c.0).collect();
                            // The analysis folds what a load reads into the thread's view of
                            // the cell (`transfer::load_chosen`), which a later load of it
                            // reads as its own view: for the dependence graph a load also
                            // writes its cells. Without this edge an unused load would read the
                            // join of every store in the optimized mode and widen the own view
                            // of the loads after it (less precise than `constraints`).
                            for c in &cells {
                                writers.entry(*c).or_default().push(v);
                            }
                            reads.push((v, cells));
                        }
                    }
                }
            }
            let t = g.term(cfg, node);
            deps[t as usize].push(head);
            // Whether the node jumps to a resume point, and to which, is decided by the call
            // that ends it (`longjmp`, or a callee that may call it).
            if !cfg.jump_targets(node).is_empty() && nd.end > nd.start {
                deps[t as usize].push(g.inst(node, nd.start, nd.end - 1));
            }
            match &nd.exit {
                Exit::Split { .. } => {
                    if nd.end > nd.start {
                        deps[t as usize].push(g.inst(node, nd.start, nd.end - 1));
                    }
                }
                Exit::InlinedCall { callee, .. } => {
                    let kind = &block.insts[nd.end as usize].kind;
                    for d in kind.defs() {
                        defs.entry(cfg.var(nd.ctx, d)).or_default().push(t);
                    }
                    kind.for_each_use(|o| uses.push((t, nd.ctx, *o)));
                    let callee_ctx = &cfg.contexts[callee.0 as usize];
                    for p in &program.funcs[callee_ctx.func.index()].params {
                        defs.entry(cfg.var(*callee, *p)).or_default().push(t);
                    }
                    for r in &callee_ctx.returns {
                        let rt = g.term(cfg, *r);
                        deps[t as usize].push(rt);
                    }
                }
                Exit::Term => block.term.for_each_use(|o| uses.push((t, nd.ctx, *o))),
            }
        }
        for (v, ctx, op) in uses {
            if let Operand::Var(x) = op {
                if let Some(ds) = defs.get(&cfg.var(ctx, x)) {
                    deps[v as usize].extend(ds.iter().copied());
                }
            }
        }
        // A read depends on the writers of each cell it reads through one vertex per cell,
        // which has the same slices as edges to every writer, with edges linear in the code
        // instead of reads times writes.
        let mut cell_vertex: HashMap<u32, u32> = HashMap::new();
        for (v, cells) in reads {
            for c in cells {
                if let Some(ws) = writers.get(&c) {
                    let cv = *cell_vertex.entry(c).or_insert_with(|| {
                        deps.push(ws.clone());
                        deps.len() as u32 - 1
                    });
                    deps[v as usize].push(cv);
                }
            }
        }
        for ws in writers.values() {
            deps[all_writes as usize].extend(ws.iter().copied());
        }
        for v in reads_all {
            deps[v as usize].push(all_writes);
        }
        for d in &mut deps {
            d.sort_unstable();
            d.dedup();
        }
        g.deps = deps;
        g
    }
}

/// Whether node `n` is the failing end of an assertion: it holds an assertion call and its
/// block stops the thread.
pub fn fails_here(facts: &Facts<'_>, cfg: &ThreadCfg, n: NodeId) -> bool {
    let nd = &cfg.nodes[n.index()];
    if nd.exit != Exit::Term {
        return false;
    }
    let func = cfg.contexts[nd.ctx.0 as usize].func;
    let block = &facts.program.funcs[func.index()].blocks[nd.block.index()];
    // A `longjmp` goes on at a resume point: the code there still runs.
    let asserts = |k: u32| {
        let mut asserts = false;
        block.insts[k as usize]
            .kind
            .effects(|e| asserts |= e == Effect::Asserts);
        asserts
    };
    matches!(block.term, Terminator::Stop { reason } if reason != crate::ir::StopReason::LongJmp)
        && (nd.start..nd.end).any(asserts)
}

/// What an instruction reads, for the memory edges of the graph (the largest of its effects').
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Read {
    /// No memory.
    Nothing,
    /// The cells its typed access resolves to (`Facts::access`).
    Cells,
    /// Any memory (a byte copy, a call, a thread creation, code the analysis does not see).
    Everything,
}
