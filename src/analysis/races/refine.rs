//! Pointers narrowed by the calling context (issue 36, merged pointers): the objects an access
//! through a pointer may touch, in one inlined activation of its function, rather than in every
//! activation at once.
//!
//! The points-to analysis is context-insensitive: a helper's parameter points to everything any
//! caller passes (`xfree(p)` to every block freed anywhere, a logger's `ctx` to every logger),
//! and so does every address computed from it. But each thread's CFG inlines its calls
//! (`threads::cfg`), so an access is seen in one activation, whose caller and call are known:
//! there the parameter is the call's argument, whose own objects are known the same way, up to
//! the thread's entry (whose parameter is the argument its `pthread_create` passed) or to a
//! function analysed on its own (whose parameters are what the points-to analysis says).
//!
//! Soundness: in one activation, a parameter holds the value its call passed (C11 6.5.2.2p4),
//! and a thread entry's holds the value `pthread_create` was given (XSH pthread_create); a value
//! computed from values of the same activation without memory (`getelementptr`, copies, pointer
//! casts, `select`, phis) points into an object one of them points into (pointer arithmetic stays
//! inside its object, README's assumption). So the objects an access through such a value may
//! touch are those of its sources: the arguments at the call, narrowed in the caller the same
//! way, and the points-to sets of every other source (`Deriv::roots`: loads, calls, constants),
//! which hold in every activation. Each set is sound on its own, so their intersection with the
//! context-insensitive set is too; where a source may be an address the analysis lost (an
//! `unknown` set, or an empty set of a variable), so may the access, with every exposed object.

use super::touch::{At, Part, Touch};
use crate::facts::Facts;
use crate::ir::{Callee, FuncId, InstKind, ObjId, Operand, VarId};
use crate::threads::{CtxId, Origin, Thread};
use rustc_hash::FxHashMap as HashMap;
use std::collections::BTreeSet;
use std::rc::Rc;

/// What a variable is computed from without memory: parameters of its activation (by position)
/// and other values (`roots`), whose points-to sets hold in every activation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Deriv {
    params: BTreeSet<u32>,
    roots: Vec<Operand>,
}

impl Deriv {
    fn join(&mut self, other: &Deriv) -> bool {
        let mut changed = false;
        for &p in &other.params {
            changed |= self.params.insert(p);
        }
        for r in &other.roots {
            if !self.roots.contains(r) {
                self.roots.push(*r);
                changed = true;
            }
        }
        changed
    }
}

/// The objects a value may point into in one activation, and whether it may be an address the
/// analysis lost (any exposed object).
#[derive(Clone, Debug, Default)]
struct Objects {
    objs: BTreeSet<ObjId>,
    unknown: bool,
}

/// The derivations of every function's variables (computed when first asked) and the objects of
/// the values asked for, per thread and activation.
pub struct Narrow<'a> {
    facts: &'a Facts<'a>,
    threads: &'a [Thread],
    derivs: HashMap<FuncId, Rc<Vec<Option<Deriv>>>>,
    memo: HashMap<(usize, CtxId, VarId), Rc<Objects>>,
}

impl<'a> Narrow<'a> {
    pub fn new(facts: &'a Facts<'a>, threads: &'a [Thread]) -> Narrow<'a> {
        Narrow {
            facts,
            threads,
            derivs: HashMap::default(),
            memo: HashMap::default(),
        }
    }

    /// Narrows `touch`, an access of thread `k` in activation `ctx` of `func`, to the objects
    /// its pointer may point into there.
    pub fn touch(&mut self, k: usize, ctx: CtxId, func: FuncId, touch: &mut Touch) {
        let Some(Operand::Var(v)) = touch.ptr else {
            return;
        };
        if touch.own_copy {
            return;
        }
        let derivs = self.derivs_of(func);
        // A value with no parameter among its sources has the objects its sources have in
        // every activation: the points-to set itself.
        if (derivs.get(v.index()).and_then(Option::as_ref)).is_none_or(|d| d.params.is_empty()) {
            return;
        }
        let here = self.objects(k, ctx, func, v);
        let exposed = &self.facts.memory.pts.exposed;
        let keep = |o: ObjId| here.objs.contains(&o) || (here.unknown && exposed.contains(&o));
        touch.parts.retain(|p| keep(p.obj));
        if touch.unknown && !here.unknown {
            // The access may touch only the exposed objects of its sources, which the
            // context-insensitive set held as `unknown`: they become parts of their own.
            for &o in here.objs.iter().filter(|o| exposed.contains(o)) {
                if !touch.parts.iter().any(|p| p.obj == o) {
                    touch.parts.push(Part {
                        obj: o,
                        at: At::Anywhere,
                    });
                }
            }
            touch.unknown = false;
        }
    }

    fn derivs_of(&mut self, func: FuncId) -> Rc<Vec<Option<Deriv>>> {
        let program = self.facts.program;
        Rc::clone(
            (self.derivs)
                .entry(func)
                .or_insert_with(|| Rc::new(derivations(program, func))),
        )
    }

    /// The objects of `v`, a variable of `func`, in activation `ctx` of thread `k`.
    fn objects(&mut self, k: usize, ctx: CtxId, func: FuncId, v: VarId) -> Rc<Objects> {
        if let Some(o) = self.memo.get(&(k, ctx, v)) {
            return Rc::clone(o);
        }
        let derivs = self.derivs_of(func);
        let mut out = Objects::default();
        match derivs.get(v.index()).and_then(Option::as_ref) {
            Some(d) => {
                for r in &d.roots {
                    self.add_set(&mut out, func, r);
                }
                for &i in &d.params {
                    let o = self.param(k, ctx, func, i);
                    out.objs.extend(o.objs.iter().copied());
                    out.unknown |= o.unknown;
                }
            }
            None => self.add_set(&mut out, func, &Operand::Var(v)),
        }
        let out = Rc::new(out);
        self.memo.insert((k, ctx, v), Rc::clone(&out));
        out
    }

    /// The objects of operand `op` of `func` in activation `ctx` of thread `k`.
    fn operand(&mut self, k: usize, ctx: CtxId, func: FuncId, op: &Operand) -> Rc<Objects> {
        match op {
            Operand::Var(v) => self.objects(k, ctx, func, *v),
            _ => {
                let mut out = Objects::default();
                self.add_set(&mut out, func, op);
                Rc::new(out)
            }
        }
    }

    /// Adds the context-insensitive objects of `op` of `func`.
    fn add_set(&self, out: &mut Objects, func: FuncId, op: &Operand) {
        let pts = self.facts.memory.pts.of(self.facts.program, func, op);
        out.objs.extend(pts.objects());
        // As `touch::parts_of` takes it: a variable with an empty set is an address the
        // analysis lost, not null.
        out.unknown |= pts.unknown || (pts.targets.is_empty() && matches!(op, Operand::Var(_)));
    }

    /// The objects of parameter `i` of `func` in activation `ctx` of thread `k`: the argument
    /// of the call that made the activation, or of the `pthread_create` that started the
    /// thread; otherwise its points-to set.
    fn param(&mut self, k: usize, ctx: CtxId, func: FuncId, i: u32) -> Rc<Objects> {
        let program = self.facts.program;
        let f = &program.funcs[func.index()];
        let threads = self.threads;
        let t = &threads[k];
        let c = &t.cfg.contexts[ctx.0 as usize];
        let passed = match c.caller {
            Some((cc, node)) => {
                let nd = &t.cfg.nodes[node.index()];
                let cfunc = t.cfg.contexts[cc.0 as usize].func;
                let call =
                    &program.funcs[cfunc.index()].blocks[nd.block.index()].insts[nd.end as usize];
                match &call.kind {
                    // The call whose callee this activation is: directly, or through a pointer
                    // `threads::resolve` resolved (not `pthread_once`, whose routine takes no
                    // argument of the call).
                    InstKind::Call {
                        callee: Callee::Direct(g),
                        args,
                        ..
                    } if *g == func && args.len() == f.params.len() => {
                        Some((k, cc, cfunc, args[i as usize]))
                    }
                    InstKind::Call {
                        callee: Callee::Indirect(_),
                        args,
                        ..
                    } if args.len() == f.params.len() => Some((k, cc, cfunc, args[i as usize])),
                    _ => None,
                }
            }
            None => match t.origin {
                Origin::Created { parent, node, inst }
                    if ctx.0 == 0 && i == 0 && f.params.len() == 1 =>
                {
                    let pt = &threads[parent];
                    let nd = &pt.cfg.nodes[node.index()];
                    let pctx = nd.ctx;
                    let pfunc = pt.cfg.contexts[pctx.0 as usize].func;
                    let create =
                        &program.funcs[pfunc.index()].blocks[nd.block.index()].insts[inst as usize];
                    match &create.kind {
                        InstKind::ThreadCreate { entry, arg, .. }
                            if *entry == Operand::FuncAddr(func) =>
                        {
                            Some((parent, pctx, pfunc, *arg))
                        }
                        _ => None,
                    }
                }
                _ => None,
            },
        };
        match passed {
            Some((pk, pctx, pfunc, arg)) => self.operand(pk, pctx, pfunc, &arg),
            None => {
                let mut out = Objects::default();
                self.add_set(&mut out, func, &Operand::Var(f.params[i as usize]));
                Rc::new(out)
            }
        }
    }
}

/// Per variable of `func`, what it is computed from without memory (`None`: defined by
/// anything else, or not at all; its own points-to set is its source).
fn derivations(program: &crate::ir::Program, func: FuncId) -> Vec<Option<Deriv>> {
    let f = &program.funcs[func.index()];
    let mut out: Vec<Option<Deriv>> = vec![None; f.vars.len()];
    for (i, p) in f.params.iter().enumerate() {
        out[p.index()] = Some(Deriv {
            params: [i as u32].into_iter().collect(),
            roots: Vec::new(),
        });
    }
    // The sources of an operand as known so far (`None` for a variable not yet derived: the
    // fixpoint starts from nothing and only grows).
    let of = |out: &[Option<Deriv>], op: &Operand, copied: &[bool]| -> Option<Deriv> {
        match op {
            Operand::Var(v) if copied[v.index()] || f.params.contains(v) => out[v.index()].clone(),
            // A variable defined otherwise (a load, a call, ...): its own set.
            Operand::Var(_) => Some(Deriv {
                params: BTreeSet::new(),
                roots: vec![*op],
            }),
            // Null points to nothing an access may touch; integers and unknown constants are
            // sources of their own, as the points-to analysis takes them.
            Operand::Null => Some(Deriv::default()),
            _ => Some(Deriv {
                params: BTreeSet::new(),
                roots: vec![*op],
            }),
        }
    };
    // The variables defined by a copy-like instruction, whose sources are their operands'.
    let mut copied = vec![false; f.vars.len()];
    for b in &f.blocks {
        for phi in &b.phis {
            copied[phi.dst.index()] = true;
        }
        for inst in &b.insts {
            match &inst.kind {
                InstKind::Copy { dst, .. }
                | InstKind::Gep { dst, .. }
                | InstKind::Select { dst, .. } => copied[dst.index()] = true,
                _ => {}
            }
        }
    }
    loop {
        let mut changed = false;
        for b in &f.blocks {
            for phi in &b.phis {
                for (_, op) in &phi.incoming {
                    if let Some(d) = of(&out, op, &copied) {
                        changed |= join_into(&mut out[phi.dst.index()], &d);
                    }
                }
            }
            for inst in &b.insts {
                let (dst, ops): (VarId, Vec<&Operand>) = match &inst.kind {
                    InstKind::Copy { dst, src } => (*dst, vec![src]),
                    InstKind::Gep { dst, base, .. } => (*dst, vec![base]),
                    InstKind::Select { dst, t, f, .. } => (*dst, vec![t, f]),
                    _ => continue,
                };
                for op in ops {
                    if let Some(d) = of(&out, op, &copied) {
                        changed |= join_into(&mut out[dst.index()], &d);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    out
}

fn join_into(slot: &mut Option<Deriv>, d: &Deriv) -> bool {
    match slot {
        Some(s) => s.join(d),
        None => {
            *slot = Some(d.clone());
            true
        }
    }
}
