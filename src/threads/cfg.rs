//! The inlined control-flow graph of one thread: every call to a defined function is expanded
//! into a fresh *context* (a copy of the callee's variables), so the analysis is
//! context-sensitive by construction.
//!
//! Calls of defined functions are inlined, and so are the calls `threads::resolve` knows the
//! callee of (a call through a pointer that can name one function, a `pthread_once` that runs
//! its routine there); the other calls through pointers stay calls.
//!
//! Invariant: a context's variables are `var_base .. var_base + callee.vars.len()` and belong to
//! no other context; recursion, oversized expansions and the callees a caller asks to leave
//! apart (`build_leaving`) are never inlined: the call stays an
//! instruction of its node, its callee is listed in `ThreadCfg::opaque_callees`, and the
//! analysis runs that callee on its own from an unknown state (`analysis::compose`, detached
//! threads; the callee's effects on memory are havocked at the call).
//!
//! Invariant: a `longjmp` is a jump, not an end: every node that may jump (a `longjmp`, a call
//! that is not inlined and may reach one) has an edge to every *resume point* of the thread (the
//! node after a call of a function that may return twice, `Program::returns_twice`). Every fact
//! derived from the graph (dominance, cycles, program order, control dependence) sees them.
//!
//! `Shape`: reverse postorder, widening points (targets of retreating edges), nodes on cycles (a
//! thread created there has many instances).
//!
//! Jumps: a node ends after every call of a `returns_twice` function (`Exit::Split`; the next node
//! is a resume point) and after every call that is not inlined and may reach a `longjmp` (indirect
//! calls, unknown library functions other than those of `points_to::writes_only_args` except
//! `pthread_once`, defined callees whose body may); these nodes and the blocks that end in
//! `longjmp` (`ThreadCfg::jumps`) have an edge to every resume point of the thread
//! (`jump_targets`), which `successors`, `Shape` and the engine all follow. When a function that
//! may jump has its address taken (it may be a signal handler, which runs between any two
//! instructions), every node reachable from a resume point jumps (`async_jumps`), and the engine
//! carries the state after each of its instructions to every resume point.
//!
//! Invariant: the graph is finite, and every way control moves in the thread is an edge of it,
//! `longjmp` included (a cross-thread `longjmp` and one to a returned frame are undefined and
//! over-approximated by the same edges), so every fact derived from the graph (dominance, cycles,
//! program order, post-dominance, lock and own-view walks) holds across jumps; the state at the end
//! of a jump node over-approximates the state at the `longjmp` (the call is the node's last
//! instruction; an opaque call's havoc covers what the callee wrote).

use super::Resolution;
use crate::ir::{BlockId, Callee, FuncId, InstKind, Program, StopReason, Terminator};

/// A node of the thread CFG: a run of instructions of one block in one context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index this id stands for.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A context: one inlined activation of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CtxId(pub u32);

/// One inlined activation.
#[derive(Clone, Debug)]
pub struct Context {
    /// The function.
    pub func: FuncId,
    /// Its variables start at this flat index.
    pub var_base: u32,
    /// Where control returns: (caller context, caller node ending in the call).
    pub caller: Option<(CtxId, NodeId)>,
    /// Node of the entry block.
    pub entry: NodeId,
    /// Nodes that end with `ret` in this context.
    pub returns: Vec<NodeId>,
}

/// How control leaves a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The block's terminator; successors are the first nodes of the target blocks.
    Term,
    /// Instruction `end` of the block calls an inlined function in context `callee`; control
    /// continues in `callee`'s entry, then returns to `cont`.
    InlinedCall {
        /// The callee's context.
        callee: CtxId,
        /// The node after the call.
        cont: NodeId,
    },
    /// Instruction `end - 1` of the block is a call that may return twice (`setjmp`) or may
    /// jump to such a return (a `longjmp` in a callee that is not inlined); control continues
    /// at `cont`, the rest of the block in the same context. The split makes the state right
    /// after the call the state at the end of a node, where jump edges start and end.
    Split {
        /// The node after the call.
        cont: NodeId,
    },
}

/// A run of instructions `insts[start..end]` of `block` in context `ctx`.
#[derive(Clone, Debug)]
pub struct Node {
    /// The context.
    pub ctx: CtxId,
    /// The block.
    pub block: BlockId,
    /// First instruction.
    pub start: u32,
    /// One past the last instruction executed here; for `InlinedCall`, the call's index.
    pub end: u32,
    /// How control leaves.
    pub exit: Exit,
}

/// The inlined CFG of one thread.
#[derive(Clone, Debug, Default)]
pub struct ThreadCfg {
    /// Every context; context 0 is the thread's entry function.
    pub contexts: Vec<Context>,
    /// Every node.
    pub nodes: Vec<Node>,
    /// `first[ctx][block]`: the node that starts the block.
    pub first: Vec<Vec<NodeId>>,
    /// `last[ctx][block]`: the node that ends with the block's terminator.
    pub last: Vec<Vec<NodeId>>,
    /// Flat variables in all contexts.
    pub nvars: u32,
    /// Calls that were not inlined (recursion or size budget): the callees, by function.
    pub opaque_callees: Vec<FuncId>,
    /// Resume points: the node after each call of a function that may return twice, in every
    /// context (where a `longjmp` continues).
    pub resumes: Vec<NodeId>,
    /// Nodes whose final state may jump to every resume point: blocks that end in `longjmp`, and
    /// nodes that end with a call that is not inlined and may reach a `longjmp` (sorted).
    /// Empty when the program calls no function that may return twice.
    pub jumps: Vec<NodeId>,
    /// Whether a `longjmp` may happen between any two instructions (a signal handler that may
    /// jump): the engine then carries the state after every instruction of every jump node
    /// (then every node reachable from a resume point) to every resume point.
    pub async_jumps: bool,
}

/// What every expansion of one thread CFG reads.
struct Expansion<'a> {
    program: &'a Program,
    budget: InlineBudget,
    /// `may_jump_out`, when the program calls a function that may return twice.
    may_jump: Option<&'a [bool]>,
    /// Callees left as calls wherever they are called (sorted): see `build_leaving`.
    apart: &'a [FuncId],
    /// The calls through pointers and of `pthread_once` known to run one function.
    resolved: &'a Resolution,
}

/// Limits of inlining, so that every thread CFG stays finite and small enough.
#[derive(Clone, Copy, Debug)]
pub struct InlineBudget {
    /// Deepest call chain inlined.
    pub max_depth: usize,
    /// Most instructions in one thread CFG.
    pub max_insts: usize,
}

impl Default for InlineBudget {
    fn default() -> Self {
        InlineBudget {
            max_depth: crate::limits::INLINE_MAX_DEPTH,
            max_insts: crate::limits::INLINE_MAX_INSTS,
        }
    }
}

impl ThreadCfg {
    /// Builds the CFG of a thread that starts in `entry`, inlining direct calls only.
    pub fn build(program: &Program, entry: FuncId, budget: InlineBudget) -> ThreadCfg {
        Self::build_leaving(program, entry, budget, &[], &Resolution::default())
    }

    /// Builds the CFG of a thread that starts in `entry`, leaving every call of a function of
    /// `apart` (sorted) a call, as if over the budget: the functions analysed on their own
    /// anyway, whose inlining into a function analysed from an unknown state gains little and
    /// costs one copy of their callees per caller. The calls `resolved` names (through a
    /// pointer that names one function, `pthread_once` of a routine run there) are inlined
    /// like direct calls of their callee.
    pub fn build_leaving(
        program: &Program,
        entry: FuncId,
        budget: InlineBudget,
        apart: &[FuncId],
        resolved: &Resolution,
    ) -> ThreadCfg {
        debug_assert!(apart.is_sorted());
        let mut cfg = ThreadCfg::default();
        let mut insts = 0usize;
        let mut stack = Vec::new();
        let may_jump = (!program.returns_twice.is_empty()).then(|| may_jump_out(program));
        let how = Expansion {
            program,
            budget,
            may_jump: may_jump.as_deref(),
            apart,
            resolved,
        };
        cfg.expand(&how, entry, None, &mut stack, &mut insts);
        cfg.opaque_callees.sort();
        cfg.opaque_callees.dedup();
        if let Some(may) = &may_jump {
            if !cfg.resumes.is_empty() && may_jump_asynchronously(program, may) {
                // Soundness: a jump needs a buffer that a `setjmp` of this thread filled, so it
                // happens only where control may be after a resume point: every node reachable
                // from one may jump.
                cfg.async_jumps = true;
                let succ = cfg.successors(program);
                let mut seen = vec![false; cfg.nodes.len()];
                let mut stack = cfg.resumes.clone();
                while let Some(n) = stack.pop() {
                    if !std::mem::replace(&mut seen[n.index()], true) {
                        stack.extend(succ[n.index()].iter().copied());
                    }
                }
                cfg.jumps.extend(
                    (0..cfg.nodes.len())
                        .filter(|&n| seen[n])
                        .map(|n| NodeId(n as u32)),
                );
            }
        }
        cfg.jumps.sort();
        cfg.jumps.dedup();
        cfg
    }

    /// Where the final state of node `n` may jump to: every resume point of the thread if `n`
    /// may `longjmp`, else nothing.
    pub fn jump_targets(&self, n: NodeId) -> &[NodeId] {
        if self.jumps.binary_search(&n).is_ok() {
            &self.resumes
        } else {
            &[]
        }
    }

    /// The node that starts `block` of context `ctx`.
    pub fn block_node(&self, ctx: CtxId, block: BlockId) -> NodeId {
        self.first[ctx.0 as usize][block.index()]
    }

    /// The node that ends `block` of context `ctx` (where its terminator runs).
    pub fn block_end_node(&self, ctx: CtxId, block: BlockId) -> NodeId {
        self.last[ctx.0 as usize][block.index()]
    }

    /// The function of a node.
    pub fn func(&self, n: NodeId) -> FuncId {
        self.contexts[self.nodes[n.index()].ctx.0 as usize].func
    }

    /// The flat index of var `v` of context `ctx`.
    pub fn var(&self, ctx: CtxId, v: crate::ir::VarId) -> u32 {
        self.contexts[ctx.0 as usize].var_base + v.0
    }

    fn expand(
        &mut self,
        how: &Expansion<'_>,
        func: FuncId,
        caller: Option<(CtxId, NodeId)>,
        stack: &mut Vec<FuncId>,
        insts: &mut usize,
    ) -> CtxId {
        let (program, budget, may_jump) = (how.program, how.budget, how.may_jump);
        let f = &program.funcs[func.index()];
        let ctx = CtxId(self.contexts.len() as u32);
        self.contexts.push(Context {
            func,
            var_base: self.nvars,
            caller,
            entry: NodeId(0),
            returns: Vec::new(),
        });
        self.nvars += f.vars.len() as u32;
        self.first.push(vec![NodeId(0); f.blocks.len()]);
        self.last.push(vec![NodeId(0); f.blocks.len()]);
        stack.push(func);
        *insts += f.blocks.iter().map(|b| b.insts.len() + 1).sum::<usize>();
        // First pass: the first node of every block, so that branch targets are known.
        for (bi, _) in f.blocks.iter().enumerate() {
            let n = self.push_node(ctx, BlockId(bi as u32), 0);
            self.first[ctx.0 as usize][bi] = n;
        }
        self.contexts[ctx.0 as usize].entry = self.first[ctx.0 as usize][0];
        for (bi, block) in f.blocks.iter().enumerate() {
            let mut node = self.first[ctx.0 as usize][bi];
            let mut ends_in_jump = matches!(
                block.term,
                Terminator::Stop {
                    reason: StopReason::LongJmp
                }
            );
            for (ii, inst) in block.insts.iter().enumerate() {
                let InstKind::Call { callee, .. } = &inst.kind else {
                    continue;
                };
                // The function the call runs for sure: its direct callee when defined, or the
                // one `resolve` found (a pointer that names one function, a once routine).
                let known = match callee {
                    Callee::Direct(g) if program.funcs[g.index()].is_defined => Some(*g),
                    _ => how.resolved.callee(func, BlockId(bi as u32), ii as u32),
                };
                if let Some(g) = known {
                    let recursive = stack.contains(&g);
                    let too_big = stack.len() >= budget.max_depth || *insts >= budget.max_insts;
                    let apart = how.apart.binary_search(&g).is_ok();
                    if recursive || too_big || apart {
                        // Soundness: the call stays a call; the engine havocs what it may
                        // change and the callee is analysed on its own from an unknown state.
                        self.opaque_callees.push(g);
                    } else {
                        self.nodes[node.index()].end = ii as u32;
                        let cont = self.push_node(ctx, BlockId(bi as u32), ii as u32 + 1);
                        let callee = self.expand(how, g, Some((ctx, node)), stack, insts);
                        self.nodes[node.index()].exit = Exit::InlinedCall { callee, cont };
                        node = cont;
                        continue;
                    }
                } else if matches!(callee, Callee::Direct(g) if program.is_returns_twice(*g)) {
                    // The second return of `setjmp` continues after the call: a resume point.
                    node = self.split_after(ctx, bi, node, ii);
                    self.resumes.push(node);
                    continue;
                }
                let Some(may_jump) = may_jump else {
                    continue;
                };
                if call_may_jump(program, may_jump, callee) {
                    // Soundness: the call may end in a `longjmp` (in code the graph does not
                    // show); the state after the call over-approximates the state at that
                    // `longjmp` (the engine havocs what the call may change), and the split
                    // makes it the final state of a node, which the jump edges carry.
                    if ii + 1 == block.insts.len() {
                        ends_in_jump = true;
                    } else {
                        self.jumps.push(node);
                        node = self.split_after(ctx, bi, node, ii);
                    }
                }
            }
            self.nodes[node.index()].end = block.insts.len() as u32;
            self.last[ctx.0 as usize][bi] = node;
            if matches!(block.term, Terminator::Ret(_)) {
                self.contexts[ctx.0 as usize].returns.push(node);
            }
            if ends_in_jump && may_jump.is_some() {
                self.jumps.push(node);
            }
        }
        stack.pop();
        ctx
    }

    /// Ends `node` after instruction `ii` of block `bi`; returns the node of the rest.
    fn split_after(&mut self, ctx: CtxId, bi: usize, node: NodeId, ii: usize) -> NodeId {
        let cont = self.push_node(ctx, BlockId(bi as u32), ii as u32 + 1);
        let nd = &mut self.nodes[node.index()];
        nd.end = ii as u32 + 1;
        nd.exit = Exit::Split { cont };
        cont
    }

    fn push_node(&mut self, ctx: CtxId, block: BlockId, start: u32) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            ctx,
            block,
            start,
            end: start,
            exit: Exit::Term,
        });
        id
    }

    /// The successors of every node (for orderings and loop detection).
    pub fn successors(&self, program: &Program) -> Vec<Vec<NodeId>> {
        let mut succ = vec![Vec::new(); self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            let ctx = &self.contexts[n.ctx.0 as usize];
            succ[i].extend_from_slice(self.jump_targets(NodeId(i as u32)));
            match &n.exit {
                Exit::InlinedCall { callee, .. } => {
                    succ[i].push(self.contexts[callee.0 as usize].entry);
                }
                Exit::Split { cont } => succ[i].push(*cont),
                Exit::Term => {
                    let block = &program.funcs[ctx.func.index()].blocks[n.block.index()];
                    match &block.term {
                        Terminator::Br(t) => succ[i].push(self.block_node(n.ctx, *t)),
                        Terminator::CondBr { then_, else_, .. } => {
                            succ[i].push(self.block_node(n.ctx, *then_));
                            succ[i].push(self.block_node(n.ctx, *else_));
                        }
                        Terminator::Switch { cases, default, .. } => {
                            for (_, t) in cases {
                                succ[i].push(self.block_node(n.ctx, *t));
                            }
                            succ[i].push(self.block_node(n.ctx, *default));
                        }
                        Terminator::Ret(_) => {
                            if let Some((_, call_node)) = ctx.caller {
                                if let Exit::InlinedCall { cont, .. } =
                                    &self.nodes[call_node.index()].exit
                                {
                                    succ[i].push(*cont);
                                }
                            }
                        }
                        Terminator::Stop { .. } => {}
                    }
                }
            }
        }
        for s in &mut succ {
            s.sort();
            s.dedup();
        }
        succ
    }
}

/// Which defined functions may jump out of their frame (`longjmp`), by `FuncId`: a function
/// whose body ends a block in `longjmp` or makes a call that may (`call_may_jump`).
fn may_jump_out(program: &Program) -> Vec<bool> {
    let n = program.funcs.len();
    let mut may = vec![false; n];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut work = Vec::new();
    for (fi, f) in program.funcs.iter().enumerate() {
        let mut direct = false;
        for b in &f.blocks {
            direct |= matches!(
                b.term,
                Terminator::Stop {
                    reason: StopReason::LongJmp
                }
            );
            for inst in &b.insts {
                let InstKind::Call { callee, .. } = &inst.kind else {
                    continue;
                };
                match callee {
                    Callee::Direct(g) if program.funcs[g.index()].is_defined => {
                        callers[g.index()].push(fi)
                    }
                    _ => direct |= call_may_jump(program, &may, callee),
                }
            }
        }
        if direct && !may[fi] {
            may[fi] = true;
            work.push(fi);
        }
    }
    while let Some(g) = work.pop() {
        for &c in &callers[g] {
            if !may[c] {
                may[c] = true;
                work.push(c);
            }
        }
    }
    may
}

/// Whether a function that may jump out has its address taken anywhere (an operand, a phi, a
/// returned value, a global's initial contents): it may be a signal handler, which runs between
/// any two instructions.
///
/// Soundness: a handler is installed by address (`signal`, `sigaction`); a function whose
/// address is never taken runs only where it is called. An address hidden in an integer
/// constant is an unknown operand here: that depends on the front end exposing such addresses.
fn may_jump_asynchronously(program: &Program, may: &[bool]) -> bool {
    use crate::ir::{InitValue, Operand};
    let jumps = |f: FuncId| call_may_jump(program, may, &Callee::Direct(f));
    let in_op = |o: &Operand| matches!(o, Operand::FuncAddr(f) if jumps(*f));
    let in_globals = (program.globals.iter())
        .flat_map(|g| g.init.iter().flatten())
        .any(|c| matches!(c.value, InitValue::FuncAddr(f) if jumps(f)));
    in_globals
        || program.funcs.iter().flat_map(|f| &f.blocks).any(|b| {
            b.phis
                .iter()
                .any(|p| p.incoming.iter().any(|(_, o)| in_op(o)))
                || b.insts.iter().any(|i| {
                    let mut found = false;
                    i.kind.for_each_use(|o| found |= in_op(o));
                    found
                })
                || matches!(&b.term, Terminator::Ret(Some(o)) if in_op(o))
        })
}

/// Whether a call may end in a `longjmp` (given `may`, the summary of defined functions).
///
/// Soundness: a call through a pointer may call `longjmp` itself or any function; an unknown
/// library function may call `longjmp` on a buffer it can reach (libpng does), or a callback
/// that does; only the library functions with known effects that call no user code are
/// excluded (`pthread_once` and `call_once` call their routine).
fn call_may_jump(program: &Program, may: &[bool], callee: &Callee) -> bool {
    match callee {
        Callee::Indirect(_) => true,
        Callee::Direct(g) => {
            let gf = &program.funcs[g.index()];
            if gf.is_defined {
                may.get(g.index()).copied().unwrap_or(true)
            } else {
                !program.is_returns_twice(*g)
                    && (gf.lib.is_some_and(|l| l.props().once)
                        || !gf.library_props().is_some_and(|p| p.writes_only_args))
            }
        }
    }
}

/// Orderings of a thread CFG the fixpoint engine needs.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Successors of every node.
    pub succ: Vec<Vec<NodeId>>,
    /// Reverse-postorder rank of every node (unreachable nodes rank last).
    pub rpo: Vec<u32>,
    /// Nodes that are targets of a retreating edge: widening happens there.
    pub widen_at: Vec<bool>,
    /// Nodes that lie on a cycle (a thread created there runs many times).
    pub in_cycle: Vec<bool>,
    /// Strongly connected component of every node.
    pub scc: Vec<u32>,
    /// Predecessors of every node.
    pub pred: Vec<Vec<NodeId>>,
    /// Immediate dominator of every reachable node (the entry's is itself; `None`: unreachable).
    pub idom: Vec<Option<NodeId>>,
    /// Where every reachable node's subtree of the dominator tree begins and ends in a
    /// depth-first numbering (pre-order number, one past the last pre-order number in the
    /// subtree), so that [`Shape::dominates`] is a comparison, not a walk up the tree.
    dom_interval: Vec<(u32, u32)>,
}

impl Shape {
    /// Computes orderings from the entry node 0 (the entry of context 0).
    pub fn of(cfg: &ThreadCfg, program: &Program) -> Shape {
        let succ = cfg.successors(program);
        let n = succ.len();
        let mut rpo = vec![u32::MAX; n];
        let mut widen_at = vec![false; n];
        let mut post = Vec::with_capacity(n);
        // Iterative DFS: state 0 = new, 1 = on stack, 2 = done.
        let mut state = vec![0u8; n];
        if n > 0 {
            let entry = cfg.contexts[0].entry.index();
            let mut stack = vec![(entry, 0usize)];
            state[entry] = 1;
            while let Some((v, i)) = stack.pop() {
                if i < succ[v].len() {
                    stack.push((v, i + 1));
                    let w = succ[v][i].index();
                    match state[w] {
                        0 => {
                            state[w] = 1;
                            stack.push((w, 0));
                        }
                        1 => widen_at[w] = true,
                        _ => {}
                    }
                } else {
                    state[v] = 2;
                    post.push(v);
                }
            }
        }
        for (rank, v) in post.iter().rev().enumerate() {
            rpo[*v] = rank as u32;
        }
        let (in_cycle, scc) = cyclic_nodes(&succ);
        let mut pred = vec![Vec::new(); n];
        for (v, ss) in succ.iter().enumerate() {
            for s in ss {
                pred[s.index()].push(NodeId(v as u32));
            }
        }
        let idom = if n > 0 {
            dominators(cfg.contexts[0].entry, &pred, &rpo, &post)
        } else {
            Vec::new()
        };
        let dom_interval = dominator_intervals(&idom);
        Shape {
            succ,
            rpo,
            widen_at,
            in_cycle,
            scc,
            pred,
            idom,
            dom_interval,
        }
    }
}

/// Immediate dominators (Cooper, Harvey, Kennedy), over nodes in reverse postorder.
fn dominators(
    entry: NodeId,
    pred: &[Vec<NodeId>],
    rpo: &[u32],
    post: &[usize],
) -> Vec<Option<NodeId>> {
    let n = pred.len();
    let mut idom: Vec<Option<NodeId>> = vec![None; n];
    idom[entry.index()] = Some(entry);
    let order: Vec<usize> = post.iter().rev().copied().collect();
    let intersect = |idom: &[Option<NodeId>], mut a: usize, mut b: usize| -> usize {
        while a != b {
            while rpo[a] > rpo[b] {
                a = idom[a].map_or(b, |x| x.index());
            }
            while rpo[b] > rpo[a] {
                b = idom[b].map_or(a, |x| x.index());
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for p in &pred[v] {
                let p = p.index();
                if idom[p].is_none() || rpo[p] == u32::MAX {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(x) => intersect(&idom, p, x),
                });
            }
            if let Some(d) = new {
                if idom[v] != Some(NodeId(d as u32)) {
                    idom[v] = Some(NodeId(d as u32));
                    changed = true;
                }
            }
        }
    }
    idom
}

/// The interval of every reachable node in a depth-first numbering of the dominator tree
/// given by `idom` (`(pre, end)`: the subtree of the node holds the numbers `pre..end`);
/// unreachable nodes get the empty `(0, 0)`.
fn dominator_intervals(idom: &[Option<NodeId>]) -> Vec<(u32, u32)> {
    let n = idom.len();
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut roots = Vec::new();
    for (v, d) in idom.iter().enumerate() {
        match d {
            Some(d) if d.index() == v => roots.push(v as u32),
            Some(d) => children[d.index()].push(v as u32),
            None => {}
        }
    }
    let mut interval = vec![(0u32, 0u32); n];
    let mut next = 0u32;
    // Iterative DFS: (node, index of the next child to visit).
    let mut stack: Vec<(u32, usize)> = Vec::new();
    for root in roots {
        interval[root as usize].0 = next;
        next += 1;
        stack.push((root, 0));
        while let Some((v, i)) = stack.pop() {
            if let Some(&c) = children[v as usize].get(i) {
                stack.push((v, i + 1));
                interval[c as usize].0 = next;
                next += 1;
                stack.push((c, 0));
            } else {
                interval[v as usize].1 = next;
            }
        }
    }
    interval
}

impl Shape {
    /// Whether `a` dominates `b` (both reachable; a node dominates itself).
    pub fn dominates(&self, a: NodeId, b: NodeId) -> bool {
        if a == b {
            return true;
        }
        if self.idom[a.index()].is_none() || self.idom[b.index()].is_none() {
            return false;
        }
        let (a_pre, a_end) = self.dom_interval[a.index()];
        let b_pre = self.dom_interval[b.index()].0;
        a_pre <= b_pre && b_pre < a_end
    }

    /// [`Shape::dominates`] by walking `b`'s dominators (the reference of the tests).
    #[cfg(test)]
    fn dominates_by_walk(&self, a: NodeId, b: NodeId) -> bool {
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom[cur.index()] {
                Some(d) if d != cur => cur = d,
                _ => return false,
            }
        }
    }
}

/// Nodes in a strongly connected component with a cycle, and the component of every node
/// (Tarjan, iterative).
fn cyclic_nodes(succ: &[Vec<NodeId>]) -> (Vec<bool>, Vec<u32>) {
    let n = succ.len();
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![false; n];
    let mut comp_of = vec![0u32; n];
    let mut ncomp = 0u32;
    let mut next = 0u32;
    for root in 0..n {
        if index[root] != u32::MAX {
            continue;
        }
        let mut call = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < succ[v].len() {
                let w = succ[v][*i].index();
                *i += 1;
                if index[w] == u32::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let cyclic = comp.len() > 1 || succ[v].iter().any(|s| s.index() == v);
                    for w in comp {
                        out[w] = cyclic;
                        comp_of[w] = ncomp;
                    }
                    ncomp += 1;
                }
            }
        }
    }
    (out, comp_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::testing::{func, with_facts};

    /// `longjmp` in an inlined callee and a call of a recursive (not inlined) function both
    /// jump to the node after `setjmp`, which then lies on a cycle with them.
    #[test]
    fn longjmp_nodes_jump_to_every_resume_point() {
        let src = "#include <setjmp.h>\n\
                   jmp_buf env;\n\
                   void bail(void) { longjmp(env, 1); }\n\
                   void down(int n) { if (n) down(n - 1); else bail(); }\n\
                   int main(void) {\n\
                     int x = 0;\n\
                     if (setjmp(env) == 0) { x = 1; bail(); }\n\
                     if (x == 1) down(3);\n\
                     return x;\n\
                   }\n";
        with_facts(src, |program, _| {
            let cfg = ThreadCfg::build(program, func(program, "main"), InlineBudget::default());
            assert_eq!(cfg.resumes.len(), 1);
            let resume = cfg.resumes[0];
            let shape = Shape::of(&cfg, program);
            // The inlined `bail` ends in a `longjmp`; the call of `down` is not inlined past
            // its recursion and may reach `bail`'s `longjmp`: at least two jump nodes.
            assert!(cfg.jumps.len() >= 2, "{:?}", cfg.jumps);
            for j in &cfg.jumps {
                assert!(shape.succ[j.index()].contains(&resume));
            }
            assert!(shape.in_cycle[resume.index()]);
            assert!(cfg.opaque_callees.contains(&func(program, "down")));
        });
    }

    /// The dominator tree's numbering answers what the walk up the dominators answers, for
    /// every pair of nodes (unreachable ones included) of a thread with loops, branches,
    /// inlined calls, jumps and dead code.
    #[test]
    fn dominance_by_intervals_is_dominance_by_walk() {
        let src = "#include <setjmp.h>\n\
                   jmp_buf env;\n\
                   int g;\n\
                   void bail(void) { longjmp(env, 1); }\n\
                   int step(int v) { if (v > 3) return v - 1; while (v < 10) v += g; return v; }\n\
                   int main(void) {\n\
                     int x = 0;\n\
                     if (setjmp(env) == 0) { x = step(x); if (x) bail(); }\n\
                     for (int i = 0; i < 3; i++) { if (g) continue; x = step(i); }\n\
                     while (1) { if (x > 5) break; x++; }\n\
                     return x;\n\
                     x = 7;\n\
                   }\n";
        with_facts(src, |program, _| {
            let cfg = ThreadCfg::build(program, func(program, "main"), InlineBudget::default());
            let shape = Shape::of(&cfg, program);
            let n = cfg.nodes.len() as u32;
            assert!(n > 10);
            for a in 0..n {
                for b in 0..n {
                    let (a, b) = (NodeId(a), NodeId(b));
                    assert_eq!(
                        shape.dominates(a, b),
                        shape.dominates_by_walk(a, b),
                        "{a:?} {b:?}"
                    );
                }
            }
        });
    }

    /// Without a function that may return twice, nothing is split and nothing jumps.
    #[test]
    fn no_setjmp_no_jumps() {
        let src = "void f(void);\n\
                   int main(void) { f(); f(); return 0; }\n";
        with_facts(src, |program, _| {
            let cfg = ThreadCfg::build(program, func(program, "main"), InlineBudget::default());
            assert!(cfg.resumes.is_empty() && cfg.jumps.is_empty());
            assert!(cfg.nodes.iter().all(|n| n.exit == Exit::Term));
        });
    }

    /// A callee left apart is a call wherever it is called; the others are still inlined.
    #[test]
    fn callees_left_apart_stay_calls() {
        let src = "int g;\n\
                   void set(void) { g = 1; }\n\
                   void add(void) { g += 2; }\n\
                   void both(void) { set(); add(); set(); }\n\
                   int main(void) { both(); return g; }\n";
        with_facts(src, |program, _| {
            let (set, add) = (func(program, "set"), func(program, "add"));
            let inlined = |cfg: &ThreadCfg, f: FuncId| cfg.contexts.iter().any(|c| c.func == f);
            let whole = ThreadCfg::build(program, func(program, "both"), InlineBudget::default());
            assert!(inlined(&whole, set) && inlined(&whole, add));
            assert!(whole.opaque_callees.is_empty());
            let apart = [set];
            let cfg = ThreadCfg::build_leaving(
                program,
                func(program, "both"),
                InlineBudget::default(),
                &apart,
                &Resolution::default(),
            );
            assert!(!inlined(&cfg, set) && inlined(&cfg, add));
            assert_eq!(cfg.opaque_callees, vec![set]);
        });
    }
}
