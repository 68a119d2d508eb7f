//! The invariants of `watts invariants`: for every thread and every source line it reaches,
//! the ranges of the named variables before the line runs (FSE'16's primary output).
//!
//! The thread-modular fixpoint gives a state at every node entry (`Fixpoint::results[i].states`);
//! inside a node, the instructions are replayed from it with the flow-insensitive interference
//! (every load may also read what the other threads store), which over-approximates the
//! joined states of the flow-sensitive modes. A line's invariant joins the states before its
//! first instruction in every node and inlined context that reaches it.
//!
//! Invariant: every range shown contains every value the variable can have there (the states
//! are post-fixpoints, and the replay only over-approximates them); unreached lines are not
//! listed.

use crate::analysis::compose::{self, interference_for, Composition, Fixpoint};
use crate::analysis::engine::{NoRecord, ThreadView, Transfer};
use crate::analysis::verdict::detached_roots;
use crate::analysis::NamedRange;
use crate::config::{Config, DomainKind};
use crate::error::InputError;
use crate::facts::Facts;
use crate::ir::{CInt, FuncId, InstKind, ObjectKind, Program, Terminator, Ty, VarId};
use crate::memory::{CellId, MemoryModel};
use crate::threads::Thread;
use crate::threads::{CtxId, Exit, NodeId};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, NumDomain};

/// The invariants of one run.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    /// The inputs, as given.
    pub inputs: Vec<String>,
    /// The mode and domain used.
    pub mode: &'static str,
    /// The domain.
    pub domain: &'static str,
    /// Per thread, in creation order.
    pub threads: Vec<ThreadInvariants>,
    /// Whether the fixpoint gave up (the states are then not trustworthy).
    pub gave_up: bool,
}

/// The invariants of one thread.
#[derive(Clone, Debug, Default)]
pub struct ThreadInvariants {
    /// Its name (`main`, `reader`, `reader#2`).
    pub name: String,
    /// Its entry function.
    pub entry: String,
    /// Whether it stands for several instances.
    pub multi: bool,
    /// One entry per reached source line, by file then line.
    pub lines: Vec<LineInvariant>,
}

/// The invariant before one source line.
#[derive(Clone, Debug, Default)]
pub struct LineInvariant {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The functions whose code is on that line.
    pub functions: Vec<String>,
    /// Named variables (locals in scope, and memory the line reads or writes) with their
    /// ranges, by name.
    pub values: Vec<NamedRange>,
}

/// Runs the analysis of `config` on `program` and collects its invariants.
pub fn compute(program: &Program, config: &Config) -> Result<Invariants, InputError> {
    match config.domain {
        DomainKind::Interval => compute_with::<watts_domains::IntervalEnv>(program, config),
        DomainKind::Octagon => compute_with::<watts_domains::OctagonEnv>(program, config),
    }
}

fn compute_with<D: NumDomain>(
    program: &Program,
    config: &Config,
) -> Result<Invariants, InputError> {
    // The invariants of the store-by-store run (the protected run only adds proofs).
    let how = Composition {
        keep_states: true,
        ..Composition::of(config.mode, config.max_combinations, config.jobs)
    };
    let main = (program.funcs.iter())
        .position(|f| f.name == "main" && f.is_defined)
        .map(FuncId::from)
        .ok_or(InputError::NoEntryPoint)?;
    let memory = MemoryModel::build(program);
    let facts = Facts::new(program, &memory);
    let detached = detached_roots(program, &memory);
    let fix = compose::run::<D>(&facts, main, &detached, how);
    let threads = (0..fix.threads.len())
        .map(|i| thread_invariants(&facts, &fix, i))
        .collect();
    Ok(Invariants {
        inputs: (config.inputs.iter())
            .map(|p| p.display().to_string())
            .collect(),
        mode: config.mode.name(),
        domain: config.domain.name(),
        threads,
        gave_up: fix.gave_up,
    })
}

/// Accumulated values of one line of one thread.
#[derive(Default)]
struct LineAcc {
    functions: BTreeSet<String>,
    values: BTreeMap<String, NamedRange>,
}

fn thread_invariants<D: NumDomain>(
    facts: &Facts<'_>,
    fix: &Fixpoint<D>,
    i: usize,
) -> ThreadInvariants {
    let program = facts.program;
    let t = &fix.threads[i];
    let interference = interference_for(facts, fix.view(), i);
    let view = ThreadView {
        protection: None,
        skip: None,
        cfg: &t.cfg,
        interference: &interference,
        choices: None,
    };
    let transfer = Transfer {
        facts,
        view: &view,
        relations: None,
    };
    let defs = DefPoints::new(program, t);
    let mut lines: BTreeMap<(u32, u32), LineAcc> = BTreeMap::new();
    for (n, entry_state) in fix.results[i].states.iter().enumerate() {
        if entry_state.is_bottom() {
            continue;
        }
        let node = NodeId(n as u32);
        let nd = &t.cfg.nodes[n];
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let f = &program.funcs[func.index()];
        let insts = &f.blocks[nd.block.index()].insts;
        let last = match nd.exit {
            // The call itself is on a line too (its state is the one before the callee).
            Exit::InlinedCall { .. } => nd.end + 1,
            Exit::Term | Exit::Split { .. } => nd.end,
        };
        let mut s = entry_state.clone();
        let mut prev_line = None;
        for idx in nd.start..last.min(insts.len() as u32) {
            let inst = &insts[idx as usize];
            if let Some(span) = inst.span.filter(|s| s.line > 0) {
                let acc = lines.entry((span.file.0, span.line)).or_default();
                acc.functions.insert(f.name.clone());
                // The state before the line's first instruction in this node; later
                // instructions of the same line only add the memory they touch.
                let first = prev_line != Some((span.file.0, span.line));
                prev_line = Some((span.file.0, span.line));
                if first {
                    for (name, v) in defs.named_in_scope(t, node, nd.ctx, idx) {
                        let iv = s.interval(transfer.ssa_var(nd.ctx, v));
                        join_into(&mut acc.values, name, iv, f.vars[v.index()].c_int());
                    }
                }
                for c in touched_cells(facts, func, nd.block, idx) {
                    let own = s.interval(transfer.cell_var(c));
                    let seen = own.join(&interference[c.index()]);
                    let info = facts.memory.cells.info(c);
                    let ty = CInt::new(info.size * 8, info.sign);
                    join_into(&mut acc.values, info.name.clone(), seen, Some(ty));
                }
            }
            if idx < nd.end {
                transfer.inst(&mut s, node, nd.ctx, nd.block, idx, &mut NoRecord);
                if s.is_bottom() {
                    break;
                }
            }
        }
        // The terminator's line (a `return x;`, a loop condition on its own line).
        if let (Exit::Term, Some(span)) = (&nd.exit, f.blocks[nd.block.index()].term_span) {
            let term = &f.blocks[nd.block.index()].term;
            if span.line > 0 && !s.is_bottom() && !matches!(term, Terminator::Br(_)) {
                let acc = lines.entry((span.file.0, span.line)).or_default();
                acc.functions.insert(f.name.clone());
                if prev_line != Some((span.file.0, span.line)) {
                    for (name, v) in defs.named_in_scope(t, node, nd.ctx, nd.end) {
                        let iv = s.interval(transfer.ssa_var(nd.ctx, v));
                        join_into(&mut acc.values, name, iv, f.vars[v.index()].c_int());
                    }
                }
            }
        }
    }
    ThreadInvariants {
        name: t.name.clone(),
        entry: program.funcs[t.entry.index()].name.clone(),
        multi: t.multi,
        lines: lines
            .into_iter()
            .map(|((file, line), acc)| LineInvariant {
                file: program
                    .files
                    .get(file as usize)
                    .map(|f| f.path.clone())
                    .unwrap_or_default(),
                line,
                functions: acc.functions.into_iter().collect(),
                values: acc.values.into_values().collect(),
            })
            .collect(),
    }
}

fn join_into(
    values: &mut BTreeMap<String, NamedRange>,
    name: String,
    iv: Interval,
    ty: Option<CInt>,
) {
    if iv.is_bottom() {
        return;
    }
    match values.get_mut(&name) {
        Some(v) => v.join(&iv, ty),
        None => {
            values.insert(
                name.clone(),
                NamedRange {
                    name,
                    range: iv,
                    ty,
                },
            );
        }
    }
}

/// The named scalar cells a load or store at `idx` touches.
fn touched_cells(
    facts: &Facts<'_>,
    func: FuncId,
    block: crate::ir::BlockId,
    idx: u32,
) -> Vec<CellId> {
    let inst = &facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
    if !matches!(
        inst.kind,
        InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::AtomicRmw { .. }
            | InstKind::CmpXchg { .. }
    ) {
        return Vec::new();
    }
    let a = facts.access(func, block, idx);
    (a.exact.iter().copied())
        .filter(|c| {
            let info = facts.memory.cells.info(*c);
            facts.memory.is_int(*c)
                && !info.name.is_empty()
                && matches!(
                    facts.program.objects[info.obj.index()].kind,
                    ObjectKind::Global(_) | ObjectKind::Stack(_)
                )
        })
        .collect()
}

/// Where each named integer SSA value of each context becomes available: `(node, index)`
/// means "before instruction `index` of `node`, and in every node `node` dominates".
struct DefPoints {
    /// Per context: (source name, var, def node, def index).
    by_ctx: Vec<Vec<(String, VarId, NodeId, u32)>>,
}

impl DefPoints {
    fn new(program: &Program, t: &Thread) -> DefPoints {
        let cfg = &t.cfg;
        let mut by_ctx: Vec<Vec<(String, VarId, NodeId, u32)>> =
            vec![Vec::new(); cfg.contexts.len()];
        for (n, nd) in cfg.nodes.iter().enumerate() {
            let ctx = &cfg.contexts[nd.ctx.0 as usize];
            let f = &program.funcs[ctx.func.index()];
            let named = |v: VarId| {
                let info = f.vars.get(v.index())?;
                match (info.ty, &info.name) {
                    (Ty::Int(_), Some(name)) => Some(name.clone()),
                    _ => None,
                }
            };
            let out = &mut by_ctx[nd.ctx.0 as usize];
            let block = &f.blocks[nd.block.index()];
            if NodeId(n as u32) == ctx.entry {
                for p in &f.params {
                    if let Some(name) = named(*p) {
                        out.push((name, *p, NodeId(n as u32), nd.start));
                    }
                }
            }
            if nd.start == 0 {
                for phi in &block.phis {
                    if let Some(name) = named(phi.dst) {
                        out.push((name, phi.dst, NodeId(n as u32), 0));
                    }
                }
            }
            for idx in nd.start..nd.end {
                let inst = &block.insts[idx as usize];
                for v in inst.kind.defs() {
                    if let Some(name) = named(v) {
                        out.push((name, v, NodeId(n as u32), idx + 1));
                    }
                }
            }
            if let Exit::InlinedCall { cont, .. } = nd.exit {
                if let Some(InstKind::Call { dst: Some(v), .. }) =
                    block.insts.get(nd.end as usize).map(|i| &i.kind)
                {
                    if let Some(name) = named(*v) {
                        let start = cfg.nodes[cont.index()].start;
                        out.push((name, *v, cont, start));
                    }
                }
            }
        }
        DefPoints { by_ctx }
    }

    /// For each source name, the latest named value of context `ctx` available before
    /// instruction `idx` of `node` (the one whose definition dominates the point and is
    /// dominated by the others').
    fn named_in_scope(
        &self,
        t: &Thread,
        node: NodeId,
        ctx: CtxId,
        idx: u32,
    ) -> Vec<(String, VarId)> {
        let mut best: BTreeMap<&str, (u32, u32, VarId)> = BTreeMap::new();
        for (name, v, d, i) in &self.by_ctx[ctx.0 as usize] {
            let available =
                (*d == node && *i <= idx) || (*d != node && t.shape.dominates(*d, node));
            if !available {
                continue;
            }
            let key = (t.shape.rpo[d.index()], *i, *v);
            let slot = best.entry(name.as_str()).or_insert(key);
            if (key.0, key.1) > (slot.0, slot.1) {
                *slot = key;
            }
        }
        best.into_iter()
            .map(|(name, (_, _, v))| (name.to_string(), v))
            .collect()
    }
}
