//! The invariants of `watts invariants`: for every thread and every source line it reaches,
//! the ranges of the named variables before the line runs (FSE'16's primary output), as the
//! proofs of `analyze` use them, so that a range shown never contradicts a verdict.
//!
//! The fixpoints are the verdicts' own (`runs::runs`): the mode's, and the run with lock
//! protection when some cell is protectable. Each keeps the state at every node entry and what
//! every load read in its thread's last analysis (`ThreadResults::reads`: joined over the
//! combinations of the flow-sensitive modes, met over the optimized mode's families). Inside a
//! node, the instructions are replayed from the node's state under the run's own view (its
//! lock protection: publication and refresh at lock operations), each load reading what it
//! read in the proof, or nothing where no analysed combination reached it. A line's invariant
//! joins the states before its first instruction in every node and inlined context that
//! reaches it; memory the line loads is shown with the values the load read, memory it only
//! writes with what a read there may see. The two runs' invariants are met, line by line and
//! name by name.
//!
//! Invariant: every range shown contains every value the variable can have there (each run's
//! states and reads over-approximate every execution, the replay only over-approximates them,
//! and the meet of two over-approximations is one); unreached lines are not listed.
//!
//! How: the same runs as the verdicts (`verdict::runs`, with `Composition::keep_states`, and the
//! protected run even without assertions); per run, every reached node of every thread is replayed
//! from its node state under the run's own view (`compose::inputs_for`: interference, what was
//! published for protected cells, relations), each integer load reading what it read in the run's
//! last analysis of the thread (`ThreadResults::reads`, recorded by `Recorder::load`; a load none
//! reached is cut). A line shows the locals in scope before it, the value a load of one cell on the
//! line read, and for other memory the line touches what a read there may see
//! (`Transfer::may_read`). Threads of the two runs are matched by their create sites, not by name;
//! a line one run does not reach is left out. `tests/invariants.rs` checks on the whole corpus, in
//! every mode and domain, that the line of every proved assertion allows its condition.

use crate::analysis::compose::{self, Composition, Fixpoint, LoadReads};
use crate::analysis::engine::{Choices, LoadRead, NoRecord, ThreadView, Transfer};
use crate::analysis::runs::{detached_roots, runs, Runs};
use crate::analysis::NamedRange;
use crate::config::{Config, DomainKind, Mode};
use crate::error::InputError;
use crate::facts::Facts;
use crate::ir::{CInt, FuncId, InstKind, ObjectKind, Program, Terminator, Ty, VarId};
use crate::memory::{CellId, MemoryModel};
use crate::threads::{CtxId, Exit, NodeId, Origin, Thread};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, Lattice, NumDomain};

/// The invariants of one run.
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    /// The inputs, as given.
    pub inputs: Vec<String>,
    /// The mode whose fixpoint the ranges come from (the flow-insensitive one when the mode
    /// asked for went past the memory budget; `notes` says so).
    pub mode: &'static str,
    /// The domain.
    pub domain: &'static str,
    /// Whether some cell is lock-protected, so that the ranges are also those of the run with
    /// lock protection (met with the mode's).
    pub lock_protection: bool,
    /// Per thread, in creation order.
    pub threads: Vec<ThreadInvariants>,
    /// Whether the fixpoint gave up (the states are then not trustworthy).
    pub gave_up: bool,
    /// What the user should know about how the ranges were computed.
    pub notes: Vec<String>,
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
    let how = Composition {
        keep_states: true,
        trace: config.trace,
        ..Composition::of(config.mode, config.max_combinations, config.jobs)
    };
    let main = program.main.ok_or(InputError::NoEntryPoint)?;
    let memory = MemoryModel::build(program);
    let facts = Facts::new(program, &memory);
    let detached = detached_roots(&facts);
    // The verdicts' fixpoints; the protected run even without an assertion, since its ranges
    // are the ones a proof about a lock-protected global would use.
    let runs = runs::<D>(&facts, main, &detached, how, true);
    Ok(of_runs(&facts, &runs, config.mode, config))
}

/// The invariants of fixpoints already computed with `keep_states` (`verdict::analyze_with`
/// keeps them for `--html`, so that the report shows the ranges of the run whose verdicts it
/// shows, without a second analysis). `mode` is the mode the runs were asked for.
pub(crate) fn of_runs<D: NumDomain>(
    facts: &Facts<'_>,
    runs: &Runs<D>,
    mode: Mode,
    config: &Config,
) -> Invariants {
    let Runs {
        plain,
        guarded,
        degraded,
    } = runs;
    // A protected run that stopped early proves nothing (`verdict_of`), so it shows nothing.
    let guarded = guarded.as_ref().filter(|g| !g.gave_up);
    let mut threads = run_invariants(facts, plain);
    if let Some(g) = guarded {
        threads = meet_runs(threads, run_invariants(facts, g));
    }
    let shown = if *degraded {
        Mode::FlowInsensitive
    } else {
        mode
    };
    let mut notes = Vec::new();
    if *degraded {
        notes.push(format!(
            "the {} mode went past the memory budget (--max-memory): the ranges are those of \
             the flow-insensitive mode, which is coarser",
            mode.name()
        ));
    }
    Invariants {
        inputs: (config.inputs.iter())
            .map(|p| p.display().to_string())
            .collect(),
        mode: shown.name(),
        domain: config.domain.name(),
        lock_protection: guarded.is_some(),
        threads: threads.into_iter().map(|(_, t)| t).collect(),
        gave_up: plain.gave_up,
        notes,
    }
}

/// Which thread a thread of one run is in another: the create sites (node, instruction and
/// entry, in the creator's CFG, which is the same in every run) from `main` down, or the entry
/// of a function analysed on its own. Names depend on the order threads are found in.
type ThreadKey = Vec<(u32, u32, FuncId)>;

fn thread_key(threads: &[Thread], i: usize) -> ThreadKey {
    let t = &threads[i];
    match t.origin {
        Origin::Main => Vec::new(),
        Origin::Detached => vec![(u32::MAX, u32::MAX, t.entry)],
        Origin::Created { parent, node, inst } => {
            let mut key = thread_key(threads, parent);
            key.push((node.0, inst, t.entry));
            key
        }
    }
}

/// The invariants of every thread of one run, with their keys.
fn run_invariants<D: NumDomain>(
    facts: &Facts<'_>,
    fix: &Fixpoint<D>,
) -> Vec<(ThreadKey, ThreadInvariants)> {
    let initial: D = compose::initial_state(facts);
    (0..fix.threads.len())
        .map(|i| {
            let key = thread_key(&fix.threads, i);
            (key, thread_invariants(facts, fix, &initial, i))
        })
        .collect()
}

/// Meets the invariants of two sound runs: a line both list shows, for a name both show, the
/// intersection of their ranges. A line only one of them reaches in a thread is unreachable
/// (the other is sound), as is a line where an intersection is empty. A thread of `plain` that
/// `guarded` does not have keeps its own lines (the two runs may merge instances of a thread
/// differently, so its absence proves nothing); `guarded`'s other threads are left out (`plain`
/// holds every thread that may run).
fn meet_runs(
    plain: Vec<(ThreadKey, ThreadInvariants)>,
    guarded: Vec<(ThreadKey, ThreadInvariants)>,
) -> Vec<(ThreadKey, ThreadInvariants)> {
    let mut others: BTreeMap<ThreadKey, ThreadInvariants> = guarded.into_iter().collect();
    (plain.into_iter())
        .map(|(key, mut t)| {
            let Some(g) = others.remove(&key) else {
                return (key, t);
            };
            t.multi &= g.multi;
            let mut by_line: BTreeMap<(String, u32), LineInvariant> = (g.lines.into_iter())
                .map(|l| ((l.file.clone(), l.line), l))
                .collect();
            t.lines = (std::mem::take(&mut t.lines).into_iter())
                .filter_map(|mut l| {
                    let other = by_line.remove(&(l.file.clone(), l.line))?;
                    for v in &mut l.values {
                        let Some(w) = other.values.iter().find(|w| w.name == v.name) else {
                            continue;
                        };
                        v.range.meet_with(&w.range);
                        if v.range.is_bottom() {
                            return None;
                        }
                        if let (Some(a), Some(b)) = (v.ty, w.ty) {
                            v.ty = Some(a.join(b));
                        }
                    }
                    Some(l)
                })
                .collect();
            (key, t)
        })
        .collect()
}

/// Accumulated values of one line of one thread.
#[derive(Default)]
struct LineAcc {
    functions: BTreeSet<String>,
    values: BTreeMap<String, NamedRange>,
}

/// What each integer load of `t` reads in the replay: what it read in the proof
/// (`ThreadResults::reads`), as a choice that does not add the thread's own view (the value
/// read already holds it), and a cut where no analysed combination reached it.
fn proof_reads<D: NumDomain>(
    program: &Program,
    t: &Thread,
    states: &[D],
    reads: &LoadReads,
) -> Choices {
    let mut out = Choices::default();
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        if states.get(n).is_none_or(|s| s.is_bottom()) {
            continue;
        }
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            if let InstKind::Load { ty: Ty::Int(_), .. } = insts[idx as usize].kind {
                let read = reads.get(&(NodeId(n as u32), idx));
                out.insert(
                    (NodeId(n as u32), idx),
                    LoadRead {
                        own: false,
                        others: read.copied().unwrap_or_else(Interval::bottom),
                        // Soundness: every execution agrees with an analysed combination on
                        // the loads it executes, so a load none of them reached is not
                        // reached.
                        cut: read.is_none(),
                    },
                );
            }
        }
    }
    out
}

fn thread_invariants<D: NumDomain>(
    facts: &Facts<'_>,
    fix: &Fixpoint<D>,
    initial: &D,
    i: usize,
) -> ThreadInvariants {
    let program = facts.program;
    let t = &fix.threads[i];
    let r = &fix.results[i];
    let (interference, relations) =
        compose::inputs_for(facts, fix.view(), i, &fix.protection, initial);
    let choices = proof_reads(program, t, &r.states, &r.reads);
    let protected = fix.protection.any();
    let view = ThreadView {
        protection: protected.then_some((&fix.protection, i)),
        skip: None,
        cfg: &t.cfg,
        interference: &interference,
        choices: Some(&choices),
    };
    let transfer = Transfer {
        facts,
        view: &view,
        relations: (D::RELATIONAL && protected)
            .then_some(&relations as &(dyn std::any::Any + Send + Sync)),
    };
    let defs = DefPoints::new(program, t);
    let mut lines: BTreeMap<(u32, u32), LineAcc> = BTreeMap::new();
    for (n, entry_state) in r.states.iter().enumerate() {
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
            let runs = idx < nd.end;
            // The cell whose value after this instruction is what it read: a load of one
            // integer cell (`Transfer::load_chosen` sets the cell to the value read).
            let mut read_into = None;
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
                let single = runs && is_single_int_load(facts, func, nd.block, idx);
                for c in touched_cells(facts, func, nd.block, idx) {
                    if single {
                        read_into = Some(((span.file.0, span.line), c));
                        continue;
                    }
                    // Memory the line writes (or reads along with other cells): what a read
                    // of it there may see.
                    join_cell(facts, acc, c, transfer.may_read(&s, c));
                }
            }
            if runs {
                transfer.inst(&mut s, node, nd.ctx, nd.block, idx, &mut NoRecord);
                if s.is_bottom() {
                    break;
                }
                if let Some((at, c)) = read_into {
                    let acc = lines.entry(at).or_default();
                    join_cell(facts, acc, c, s.interval(transfer.cell_var(c)));
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

/// Whether instruction `idx` is an integer load of exactly one integer cell, so that the
/// cell's value after it is the value it read.
fn is_single_int_load(
    facts: &Facts<'_>,
    func: FuncId,
    block: crate::ir::BlockId,
    idx: u32,
) -> bool {
    let inst = &facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
    if !matches!(inst.kind, InstKind::Load { ty: Ty::Int(_), .. }) {
        return false;
    }
    let a = facts.access(func, block, idx);
    !a.read_unknown && a.exact.len() == 1 && facts.memory.is_int(a.exact[0])
}

/// Joins `iv`, a value of cell `c`, into the line's values under the cell's name and type.
fn join_cell(facts: &Facts<'_>, acc: &mut LineAcc, c: CellId, iv: Interval) {
    let info = facts.memory.cells.info(c);
    let ty = CInt::new(info.size * 8, info.sign);
    join_into(&mut acc.values, info.name.clone(), iv, Some(ty));
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
