//! Transfer functions: what one instruction, edge or phi does to an abstract state.
//!
//! Invariant: every function here over-approximates the concrete semantics of the instruction;
//! memory reads also see every value the `Interference` may supply.
//!
//! What a thread reads of the others comes from a `ThreadView` (`view`). On the edge that leaves a
//! wait loop, the value the combination chose for the loop's exit read narrows the loaded value and
//! the cell (`Transfer::exit_read`; a cut drops the edge). Phis given constants on one edge are
//! related there (`NumDomain::relate`, at most four), so that an octagon keeps `i == j` for
//! counters stepped together in a loop.
//!
//! Invariant: the interval of a pointer variable holds every address it may hold, as an integer:
//! `inttoptr` and `ptrtoint` keep the value (as a value, never as a relation), parameters, results
//! and thread arguments pass it (`set_passed`), and every other definition of a pointer (addresses
//! of objects, loads, calls, phis, selects) is unknown, left out of the state.

use super::ThreadView;
use crate::facts::Facts;
use crate::ir::{
    AssertId, Callee, CastOp, FuncId, InstKind, Operand, RmwOp, Terminator, Ty, VarId,
};
use crate::memory::CellId;
use crate::threads::{CtxId, NodeId};
use watts_domains::{
    machine, BinOp, CmpPred, IntTy, Interval, Lattice, NumDomain, Operand as DOp, Truth, Var,
};

/// What the analysis of a thread observes while replaying its final states.
pub trait Recorder<D> {
    /// The instruction about to run (so that `store` can name its event).
    fn at(&mut self, _node: NodeId, _inst: u32) {}
    /// A write of `value` to cell `c` (weak or strong), by the current instruction.
    fn store(&mut self, c: CellId, value: Interval);
    /// What the current instruction, an integer load, read from memory: for a load of one
    /// cell, that cell's value after the load; `watts invariants` shows it on the load's line.
    fn load(&mut self, _value: Interval) {}
    /// Whether `load` keeps anything (so that what it is given need not be computed).
    fn records_loads(&self) -> bool {
        false
    }
    /// A `pthread_create` reached with `state` (before the call) at instruction `inst` of `node`.
    fn create(&mut self, node: NodeId, inst: u32, state: &D);
    /// An assertion instruction reached with `state` (before it).
    fn assertion(&mut self, id: AssertId, ctx: CtxId, cond: Option<&Operand>, state: &D);
    /// A call to a function that is only declared.
    fn unknown_call(&mut self, f: FuncId);
    /// The thread's view of a lock-protected cell where it releases the lock or creates a
    /// thread (see `analysis::sync::protection`).
    fn publish(&mut self, _c: CellId, _value: Interval) {}
    /// The thread's relations among the cells of `lock` where it releases it or creates a
    /// thread (relational domains; the state projected onto those cells).
    fn publish_relation(&mut self, _lock: u32, _state: D) {}
}

/// A recorder that records nothing, for the fixpoint iterations.
pub struct NoRecord;

impl<D> Recorder<D> for NoRecord {
    fn store(&mut self, _: CellId, _: Interval) {}
    fn create(&mut self, _: NodeId, _: u32, _: &D) {}
    fn assertion(&mut self, _: AssertId, _: CtxId, _: Option<&Operand>, _: &D) {}
    fn unknown_call(&mut self, _: FuncId) {}
}

use crate::limits::MAX_RELATED_PHIS;

/// Transfer functions of one thread, bound to its CFG and its interference.
pub struct Transfer<'a> {
    /// Program-wide facts.
    pub facts: &'a Facts<'a>,
    /// The thread.
    pub view: &'a ThreadView<'a>,
    /// Per lock, the relations among its cells that threads published (a `Relations<D>` of
    /// the domain the thread is analysed in; relational domains only). Type-erased because
    /// the transfer functions are generic per call, not per `Transfer`: read it with
    /// [`Transfer::relations`].
    pub relations: Option<&'a (dyn std::any::Any + Send + Sync)>,
}

/// Per lock, what the threads published of the relations among its cells, joined.
pub type Relations<D> = std::collections::BTreeMap<u32, D>;

fn bool_ty() -> IntTy {
    IntTy::new(1)
}

impl<'a> Transfer<'a> {
    /// The published relations, when they are of domain `D`.
    pub fn relations<D: NumDomain>(&self) -> Option<&'a Relations<D>> {
        self.relations
            .and_then(|r| r.downcast_ref::<Relations<D>>())
    }

    /// The domain variable of cell `c`.
    pub fn cell_var(&self, c: CellId) -> Var {
        Var(c.0)
    }

    /// The domain variable of SSA var `v` in context `ctx`.
    pub fn ssa_var(&self, ctx: CtxId, v: VarId) -> Var {
        Var(self.facts.ncells + self.view.cfg.var(ctx, v))
    }

    /// An IR operand as a domain operand.
    pub fn op(&self, ctx: CtxId, o: &Operand) -> DOp {
        match o {
            Operand::Var(v) => DOp::Var(self.ssa_var(ctx, *v)),
            Operand::Int { value, .. } => DOp::Const(Interval::constant(*value)),
            Operand::Null => DOp::Const(Interval::constant(0)),
            // Soundness: addresses and unknown values may be anything.
            Operand::GlobalAddr(..) | Operand::FuncAddr(_) | Operand::Unknown(_) => {
                DOp::Const(Interval::top())
            }
        }
    }

    /// The values an operand may take in `s`.
    pub fn value<D: NumDomain>(&self, s: &D, ctx: CtxId, o: &Operand) -> Interval {
        match self.op(ctx, o) {
            DOp::Var(v) => s.interval(v),
            DOp::Const(i) => i,
        }
    }

    fn func_of(&self, ctx: CtxId) -> FuncId {
        self.view.cfg.contexts[ctx.0 as usize].func
    }

    fn var_ty(&self, ctx: CtxId, v: VarId) -> Ty {
        self.facts.program.funcs[self.func_of(ctx).index()].vars[v.index()].ty
    }

    fn set_result<D: NumDomain>(&self, s: &mut D, ctx: CtxId, dst: VarId, v: Interval) {
        let var = self.ssa_var(ctx, dst);
        match self.var_ty(ctx, dst) {
            Ty::Int(bits) => s.set(var, machine::clamp(v, IntTy::new(bits))),
            _ => s.forget(var),
        }
    }

    fn forget_result<D: NumDomain>(&self, s: &mut D, ctx: CtxId, dst: Option<VarId>) {
        if let Some(d) = dst {
            s.forget(self.ssa_var(ctx, d));
        }
    }

    /// Whether `c` is lock-protected in this view: its value changes hands only where its lock
    /// is taken (see `inst`), so a read sees the thread's own view.
    fn protected(&self, c: CellId) -> bool {
        self.view.protection.is_some_and(|(p, _)| p.is_protected(c))
    }

    /// What a read of cell `c` may see in `s`, without reading it (`read_cell`).
    pub fn may_read<D: NumDomain>(&self, s: &D, c: CellId) -> Interval {
        let own = s.interval(self.cell_var(c));
        if self.protected(c) || own.is_bottom() {
            return own;
        }
        own.join(&self.view.interference(c))
    }

    /// The value a read of cell `c` may see: this thread's own value or another thread's store.
    fn read_cell<D: NumDomain>(&self, s: &mut D, c: CellId) -> Interval {
        let var = self.cell_var(c);
        if self.protected(c) {
            return s.interval(var);
        }
        let other = self.view.interference(c);
        if !other.is_bottom() && !s.is_bottom() {
            let mut v = s.interval(var);
            v.join_with(&other);
            s.set(var, v);
        }
        s.interval(var)
    }

    fn write_cells<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        access: &crate::memory::CellAccess,
        value: Interval,
        src: Option<Var>,
        rec: &mut R,
    ) {
        if access.strong {
            let c = access.exact[0];
            match src {
                Some(v) => s.assign(self.cell_var(c), v),
                None => s.set(self.cell_var(c), value),
            }
        } else {
            for c in &access.exact {
                s.set_weak(self.cell_var(*c), value);
            }
        }
        for c in &access.exact {
            rec.store(*c, value);
        }
        for c in &access.clobber {
            s.forget(self.cell_var(*c));
            rec.store(*c, Interval::top());
        }
    }

    /// A `memset` or `memcpy` (`span`, `Facts::span`): each integer cell wholly inside the
    /// range gets the value of the bytes `bytes(k, size)` gives for it (`k` its first byte's
    /// offset in the range), when they are known; every other cell it touches any value.
    fn write_bytes<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        span: &crate::memory::RangeWrite,
        bytes: impl Fn(u64, u32) -> Option<Vec<u8>>,
        rec: &mut R,
    ) {
        let memory = self.facts.memory;
        for w in &span.cells {
            let c = w.cell;
            let value = (w.at.filter(|_| memory.is_int(c)))
                .and_then(|k| bytes(k, memory.cells.info(c).size))
                .map_or_else(Interval::top, |b| {
                    Interval::constant(crate::memory::int_of_bytes(&b))
                });
            if w.strong {
                s.set(self.cell_var(c), value);
            } else {
                s.set_weak(self.cell_var(c), value);
            }
            rec.store(c, value);
        }
    }

    /// A load that reads what the current interference combination chose for it.
    fn load_chosen<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        access: &crate::memory::CellAccess,
        d: Var,
        ty: IntTy,
        choice: &super::LoadRead,
        rec: &mut R,
    ) {
        if choice.cut {
            // This combination stands for the executions that do not reach the load.
            s.set_bottom();
            return;
        }
        let mut v = choice.others;
        if choice.own {
            for c in &access.exact {
                v.join_with(&s.interval(self.cell_var(*c)));
            }
        }
        // Read back as a choice with `own: false`, `v` gives the load the same effect.
        rec.load(v);
        if access.read_unknown || access.exact.is_empty() {
            s.set(d, Interval::top_of(ty));
        } else if access.exact.len() == 1 && self.facts.memory.is_int(access.exact[0]) {
            let c = self.cell_var(access.exact[0]);
            if access.strong {
                s.set(c, v);
                load_from(s, d, c, true, ty);
            } else {
                // Soundness: a cell that stands for several (array elements, heap) keeps the
                // thread's view of the elements this load did not read.
                s.set_weak(c, v);
                s.set(d, machine::clamp(v, ty));
            }
        } else if access.exact.iter().all(|c| self.facts.memory.is_int(*c)) {
            s.set(d, machine::clamp(v, ty));
        } else {
            s.set(d, Interval::top_of(ty));
        }
    }

    /// On the edge that leaves a wait loop, what the loop's exit read read in this combination
    /// (`facts::exit_reads`): the load's last execution, the node's last memory access, so its
    /// result and the thread's view of the cell still hold that value on the edge. `own` reads
    /// what the thread's view may hold, which the state already covers; a cut drops the edge.
    pub fn exit_read<D: NumDomain>(&self, s: &mut D, node: NodeId, read: &super::LoadRead) {
        if read.cut {
            s.set_bottom();
            return;
        }
        if read.own {
            return;
        }
        let nd = &self.view.cfg.nodes[node.index()];
        let func = self.view.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &self.facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
        let Some(idx) = crate::facts::exit_reads::last_effect(insts, nd.start, nd.end) else {
            return;
        };
        let InstKind::Load {
            dst,
            ty: Ty::Int(bits),
            ..
        } = insts[idx as usize].kind
        else {
            return;
        };
        let access = self.facts.access(func, nd.block, idx);
        let [cell] = access.exact[..] else {
            return;
        };
        s.meet_interval(self.cell_var(cell), read.others);
        let d = self.ssa_var(nd.ctx, dst);
        s.meet_interval(d, machine::clamp(read.others, IntTy::new(bits)));
    }

    /// Forgets cells after an unmodelled write, recording the write as a store of any value.
    fn clobber<D: NumDomain, R: Recorder<D>>(&self, s: &mut D, cells: &[CellId], rec: &mut R) {
        let mut vars: Vec<Var> = cells.iter().map(|c| self.cell_var(*c)).collect();
        if !vars.is_sorted_by(|a, b| a.0 < b.0) {
            vars.sort_unstable_by_key(|v| v.0);
            vars.dedup();
        }
        s.forget_many(&vars);
        for c in cells {
            rec.store(*c, Interval::top());
        }
    }

    /// Applies instruction `idx` of the node's block in context `ctx`, with the hand-over of
    /// lock-protected cells around it: publishing them where a lock may be released or a
    /// thread created, refreshing them from what was published where a lock is taken.
    pub fn inst<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        node: NodeId,
        ctx: CtxId,
        block: crate::ir::BlockId,
        idx: u32,
        rec: &mut R,
    ) {
        let Some((protection, tid)) = self.view.protection else {
            return self.inst_effect(s, node, ctx, block, idx, rec);
        };
        if s.is_bottom() {
            return;
        }
        let func = self.func_of(ctx);
        let kind =
            &self.facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize].kind;
        let creates = matches!(kind, InstKind::ThreadCreate { .. });
        let hand = protection.at(tid, node, idx, creates);
        if !hand.publish.is_empty() {
            rec.at(node, idx);
            for &c in hand.publish.iter() {
                rec.publish(c, s.interval(self.cell_var(c)));
            }
            if D::RELATIONAL {
                for (lock, vars) in self.by_lock(protection, hand.publish.iter().copied()) {
                    rec.publish_relation(lock, s.project(&vars));
                }
            }
        }
        self.inst_effect(s, node, ctx, block, idx, rec);
        if !s.is_bottom() {
            // Soundness: `main` may not have created a thread yet on this path; then its own
            // view is the value (see `analysis::sync::protection`).
            let own = (D::RELATIONAL && hand.keep_own).then(|| s.clone());
            for c in hand.refresh {
                let var = self.cell_var(*c);
                let mut v = self.view.interference(*c);
                if hand.keep_own {
                    v.join_with(&s.interval(var));
                }
                s.set(var, v);
            }
            // Relational privatisation: the cells of a lock hold, together, what one release
            // of it (or the state before any) left, so they keep every relation that all
            // publications of the lock (`relations`) have in common.
            if let Some(relations) = self.relations::<D>() {
                for (lock, vars) in self.by_lock(protection, hand.refresh.iter().copied()) {
                    let Some(published) = relations.get(&lock) else {
                        continue;
                    };
                    // Only the cells handed over here: the thread's view of the others need
                    // not be what memory holds.
                    let mut r = published.project(&vars);
                    if let Some(own) = &own {
                        r.join_with(&own.project(&vars));
                    }
                    s.meet_with(&r);
                }
            }
        }
    }

    /// `cells` grouped by the lock that protects each, as domain variables.
    fn by_lock(
        &self,
        protection: &crate::analysis::sync::protection::Protection,
        cells: impl Iterator<Item = CellId>,
    ) -> std::collections::BTreeMap<u32, Vec<Var>> {
        let mut out: std::collections::BTreeMap<u32, Vec<Var>> = Default::default();
        for c in cells {
            if let Some(Some(m)) = protection.lock_of.get(c.index()) {
                out.entry(*m).or_default().push(self.cell_var(c));
            }
        }
        out
    }

    fn inst_effect<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        node: NodeId,
        ctx: CtxId,
        block: crate::ir::BlockId,
        idx: u32,
        rec: &mut R,
    ) {
        if s.is_bottom() {
            return;
        }
        let func = self.func_of(ctx);
        // Soundness: a register computation in no slice has no effect but its result, which no
        // target reads (see `pdg::Clusters::irrelevant`); any value is an over-approximation.
        if self.view.skip.is_some_and(|k| k.contains(&(node, idx))) {
            let kind = &self.facts.program.funcs[func.index()].blocks[block.index()].insts
                [idx as usize]
                .kind;
            for d in kind.defs() {
                s.forget(self.ssa_var(ctx, d));
            }
            return;
        }
        let inst =
            &self.facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
        rec.at(node, idx);
        match &inst.kind {
            InstKind::Bin {
                dst,
                op,
                a,
                b,
                bits,
            } => {
                let (a, b) = (self.op(ctx, a), self.op(ctx, b));
                s.apply(self.ssa_var(ctx, *dst), *op, a, b, IntTy::new(*bits));
            }
            InstKind::Cmp {
                dst,
                pred,
                a,
                b,
                bits,
            } => {
                let d = self.ssa_var(ctx, *dst);
                if *bits == 0 {
                    s.set(d, Interval::top_of(bool_ty()));
                } else {
                    let (a, b) = (self.op(ctx, a), self.op(ctx, b));
                    s.compare(d, *pred, a, b, IntTy::new(*bits));
                }
            }
            InstKind::Cast {
                dst,
                op,
                src,
                from,
                to,
            } => {
                let d = self.ssa_var(ctx, *dst);
                let wop = match op {
                    CastOp::Trunc => Some(watts_domains::CastOp::Trunc),
                    CastOp::ZExt => Some(watts_domains::CastOp::ZExt),
                    CastOp::SExt => Some(watts_domains::CastOp::SExt),
                    _ => None,
                };
                // An address as an integer and back keeps its value: `inttoptr` zero-extends
                // or truncates the integer to the pointer's width, `ptrtoint` truncates or
                // zero-extends the address to the integer's (a pointer's width is 0 here).
                // Cost: only the value crosses, never a relation: every pointer a library call
                // is given is cast to an integer (`expose_pointer_args`), and relating each to
                // its cast filled the octagons' packs (siege with octagons: 48 s -> 69 s).
                let ptr = pointer_ty(self.facts.program).bits;
                let widths = match (op, *from, *to) {
                    (CastOp::IntToPtr, f, 0) if f > 0 => Some((f, ptr)),
                    (CastOp::PtrToInt, 0, t) if t > 0 => Some((ptr, t)),
                    _ => None,
                };
                if let Some((f, t)) = widths {
                    let c = if f < t {
                        watts_domains::CastOp::ZExt
                    } else {
                        watts_domains::CastOp::Trunc
                    };
                    let a = self.value(s, ctx, src);
                    let v = machine::cast(c, a, IntTy::new(f), IntTy::new(t));
                    set_passed(self.facts.program, s, d, self.var_ty(ctx, *dst), v);
                    return;
                }
                match wop.filter(|_| *from > 0 && *to > 0) {
                    Some(c) => {
                        let a = self.op(ctx, src);
                        s.cast(d, c, a, IntTy::new(*from), IntTy::new(*to));
                    }
                    // Soundness: float conversions and other casts are unknown.
                    _ => self.set_result(s, ctx, *dst, Interval::top()),
                }
            }
            InstKind::Select { dst, cond, t, f } => {
                let c = self.value(s, ctx, cond);
                let v = if c.as_const() == Some(1) {
                    self.value(s, ctx, t)
                } else if c.as_const() == Some(0) {
                    self.value(s, ctx, f)
                } else {
                    self.value(s, ctx, t).join(&self.value(s, ctx, f))
                };
                self.set_result(s, ctx, *dst, v);
            }
            InstKind::Copy { dst, src } => match (self.op(ctx, src), self.var_ty(ctx, *dst)) {
                (DOp::Var(v), Ty::Int(_)) => s.assign(self.ssa_var(ctx, *dst), v),
                _ => {
                    let v = self.value(s, ctx, src);
                    self.set_result(s, ctx, *dst, v);
                }
            },
            InstKind::Gep { dst, .. } | InstKind::Alloca { dst, .. } => {
                s.forget(self.ssa_var(ctx, *dst));
            }
            InstKind::HeapAlloc {
                dst, obj, zeroed, ..
            } => {
                s.forget(self.ssa_var(ctx, *dst));
                // A block allocated once is new here: `calloc` zeroes each of its cells.
                if *zeroed {
                    for c in self.facts.memory.zeroed_block(*obj) {
                        let zero = if self.facts.memory.is_int(c) {
                            Interval::constant(0)
                        } else {
                            Interval::top()
                        };
                        s.set(self.cell_var(c), zero);
                        rec.store(c, zero);
                    }
                }
            }
            InstKind::Load { dst, ty, .. } => {
                let access = self.facts.access(func, block, idx);
                let d = self.ssa_var(ctx, *dst);
                let Ty::Int(bits) = *ty else {
                    s.forget(d);
                    return;
                };
                let ty = IntTy::new(bits);
                if let Some(choice) = self.view.choice(node, idx) {
                    self.load_chosen(s, access, d, ty, choice, rec);
                    return;
                }
                // What it reads is recorded so that, read back as a choice with `own: false`
                // (`load_chosen`), it has the same effect.
                if access.read_unknown || access.exact.is_empty() {
                    // Soundness: bytes outside the tracked cells may hold anything.
                    for c in &access.exact {
                        self.read_cell(s, *c);
                    }
                    s.set(d, Interval::top_of(ty));
                    rec.load(Interval::top());
                } else if access.exact.len() == 1 {
                    let c = access.exact[0];
                    self.read_cell(s, c);
                    if self.facts.memory.is_int(c) {
                        if rec.records_loads() {
                            rec.load(s.interval(self.cell_var(c)));
                        }
                        load_from(s, d, self.cell_var(c), access.strong, ty);
                    } else {
                        s.set(d, Interval::top_of(ty));
                        rec.load(Interval::top());
                    }
                } else {
                    let mut v = Interval::bottom();
                    for c in &access.exact {
                        let cv = if self.facts.memory.is_int(*c) {
                            self.read_cell(s, *c)
                        } else {
                            Interval::top()
                        };
                        v.join_with(&cv);
                    }
                    s.set(d, machine::clamp(v, ty));
                    rec.load(v);
                }
            }
            InstKind::Store { val, ty, .. } => {
                let access = self.facts.access(func, block, idx);
                let (v, src) = match (ty, self.op(ctx, val)) {
                    (Ty::Int(_), DOp::Var(x)) => (s.interval(x), Some(x)),
                    (Ty::Int(_), DOp::Const(c)) => (c, None),
                    _ => (Interval::top(), None),
                };
                self.write_cells(s, access, v, src, rec);
            }
            InstKind::AtomicRmw {
                dst, op, val, bits, ..
            } => {
                let access = self.facts.access(func, block, idx).clone();
                let old = if access.read_unknown || access.exact.is_empty() || *bits == 0 {
                    Interval::top()
                } else {
                    let mut v = Interval::bottom();
                    for c in &access.exact {
                        v.join_with(&self.read_cell(s, *c));
                    }
                    v
                };
                let ty = IntTy::new((*bits).max(1));
                let old = if *bits == 0 {
                    old
                } else {
                    machine::clamp(old, ty)
                };
                let operand = self.value(s, ctx, val);
                let new = rmw(*op, old, operand, ty, *bits);
                self.set_result(s, ctx, *dst, old);
                self.write_cells(s, &access, new, None, rec);
            }
            InstKind::CmpXchg {
                old, ok, new, bits, ..
            } => {
                let access = self.facts.access(func, block, idx).clone();
                let old_v = if access.read_unknown || access.exact.is_empty() || *bits == 0 {
                    Interval::top()
                } else {
                    let mut v = Interval::bottom();
                    for c in &access.exact {
                        v.join_with(&self.read_cell(s, *c));
                    }
                    machine::clamp(v, IntTy::new(*bits))
                };
                self.set_result(s, ctx, *old, old_v);
                s.set(self.ssa_var(ctx, *ok), Interval::top_of(bool_ty()));
                // Soundness: the exchange may or may not happen, so the new value is only added.
                let new_v = if *bits == 0 {
                    Interval::top()
                } else {
                    self.value(s, ctx, new)
                };
                let weak = crate::memory::CellAccess {
                    strong: false,
                    ..access
                };
                self.write_cells(s, &weak, new_v, None, rec);
            }
            InstKind::MemSet { val, .. } => {
                let byte = self.value(s, ctx, val).as_const().map(|b| b as u8);
                let bytes = |_: u64, size: u32| byte.map(|b| vec![b; size as usize]);
                self.write_bytes(s, self.facts.span(func, block, idx), bytes, rec);
            }
            InstKind::MemCopy { src, .. } => {
                let program = self.facts.program;
                let bytes = |k: u64, size: u32| match src {
                    Operand::GlobalAddr(g, off) => {
                        let at = u64::try_from(*off).ok()?.checked_add(k)?;
                        program.constant_bytes(*g, at, u64::from(size))
                    }
                    _ => None,
                };
                self.write_bytes(s, self.facts.span(func, block, idx), bytes, rec);
            }
            InstKind::Call { dst, callee, args } => {
                self.call(s, ctx, (func, block, idx), *dst, callee, args, rec);
            }
            InstKind::ThreadCreate { dst, handle, .. } => {
                rec.create(node, idx, s);
                let cells = self.facts.memory.region(self.facts.program, func, handle);
                self.clobber(s, &cells, rec);
                self.forget_result(s, ctx, *dst);
            }
            InstKind::ThreadJoin { dst, retval, .. } => {
                let cells = self.facts.memory.region(self.facts.program, func, retval);
                self.clobber(s, &cells, rec);
                self.forget_result(s, ctx, *dst);
            }
            InstKind::Lock { dst, .. } | InstKind::Unlock { dst, .. } => {
                self.forget_result(s, ctx, *dst);
            }
            InstKind::AtomicBegin | InstKind::AtomicEnd => {}
            InstKind::Assert { id, cond } => {
                rec.assertion(*id, ctx, cond.as_ref(), s);
                if let Some(c) = cond {
                    // After a failing assertion the program stops, as `assert` does.
                    self.assume_cond(s, ctx, node, c, true);
                }
            }
            InstKind::Assume { cond } => self.assume_cond(s, ctx, node, cond, true),
            InstKind::Nondet { dst, ty, is_bool } => {
                let d = self.ssa_var(ctx, *dst);
                match ty {
                    Ty::Int(_) if *is_bool => s.set(d, Interval::new(0, 1)),
                    Ty::Int(bits) => s.set(d, Interval::top_of(IntTy::new(*bits))),
                    _ => s.forget(d),
                }
            }
            InstKind::Havoc {
                dst,
                clobbers_memory,
                ..
            } => {
                self.forget_result(s, ctx, *dst);
                if *clobbers_memory {
                    self.clobber(s, &self.facts.memory.exposed_cells, rec);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn call<D: NumDomain, R: Recorder<D>>(
        &self,
        s: &mut D,
        ctx: CtxId,
        (func, block, idx): (FuncId, crate::ir::BlockId, u32),
        dst: Option<VarId>,
        callee: &Callee,
        args: &[Operand],
        rec: &mut R,
    ) {
        let program = self.facts.program;
        let mut unknown_code = true;
        if let Callee::Direct(g) = callee {
            let gf = &program.funcs[g.index()];
            if !gf.is_defined {
                unknown_code = false;
                let only_args = self.facts.memory.pts.writes_only_args(*g, gf);
                if !only_args {
                    rec.unknown_call(*g);
                }
                let cells = self.facts.call_clobbers(func, block, idx, args, only_args);
                self.clobber(s, &cells, rec);
            }
        }
        if unknown_code {
            // Soundness: a defined function that was not inlined (recursion, size budget, call
            // through a pointer) may write any cell; its own stores are analysed separately.
            self.clobber(s, &self.facts.all_cells, &mut NoRecord);
        }
        self.forget_result(s, ctx, dst);
    }

    /// Keeps the states where operand `cond` (an integer) is non-zero (`outcome`) or zero.
    pub fn assume_cond<D: NumDomain>(
        &self,
        s: &mut D,
        ctx: CtxId,
        node: NodeId,
        cond: &Operand,
        outcome: bool,
    ) {
        self.assume_rec(s, ctx, node, cond, outcome, 4);
    }

    fn assume_rec<D: NumDomain>(
        &self,
        s: &mut D,
        ctx: CtxId,
        node: NodeId,
        cond: &Operand,
        outcome: bool,
        depth: u32,
    ) {
        if s.is_bottom() {
            return;
        }
        let d = self.op(ctx, cond);
        let width = match cond {
            Operand::Var(v) => match self.var_ty(ctx, *v) {
                Ty::Int(b) => b,
                _ => return,
            },
            Operand::Int { bits, .. } => *bits,
            _ => return,
        };
        let zero = DOp::Const(Interval::constant(0));
        let ty = IntTy::new(width);
        if outcome {
            s.assume(CmpPred::Ne, d, zero, ty, true);
        } else {
            s.assume(CmpPred::Eq, d, zero, ty, true);
        }
        let Operand::Var(v) = cond else { return };
        if depth == 0 {
            return;
        }
        let func = self.func_of(ctx);
        let Some(def) = self.facts.def(func, *v) else {
            return;
        };
        match def {
            InstKind::Cmp {
                pred, a, b, bits, ..
            } if *bits > 0 => {
                let (da, db) = (self.op(ctx, a), self.op(ctx, b));
                s.assume(*pred, da, db, IntTy::new(*bits), outcome);
                for o in [a, b] {
                    self.refine_loaded_cell(s, ctx, node, o);
                }
            }
            InstKind::Cast {
                op: CastOp::ZExt | CastOp::SExt,
                src,
                ..
            } => self.assume_rec(s, ctx, node, src, outcome, depth - 1),
            InstKind::Cast {
                op: CastOp::Trunc,
                src,
                to: 1,
                from,
                ..
            } => {
                // `trunc` to i1 keeps the low bit; when the source is 0 or 1, it is the source.
                let sv = self.value(s, ctx, src);
                if !sv.is_bottom() && sv.lo() >= 0 && sv.hi() <= 1 {
                    let want = DOp::Const(Interval::constant(i128::from(outcome)));
                    s.assume(
                        CmpPred::Eq,
                        self.op(ctx, src),
                        want,
                        IntTy::new(*from),
                        true,
                    );
                    self.refine_loaded_cell(s, ctx, node, src);
                }
            }
            InstKind::Bin {
                op: BinOp::Xor,
                a,
                b,
                bits: 1,
                ..
            } => {
                // `!c` is `c xor 1`.
                if matches!(b, Operand::Int { value: 1, .. }) {
                    self.assume_rec(s, ctx, node, a, !outcome, depth - 1);
                } else if matches!(a, Operand::Int { value: 1, .. }) {
                    self.assume_rec(s, ctx, node, b, !outcome, depth - 1);
                }
            }
            InstKind::Bin {
                op: BinOp::And,
                a,
                b,
                bits: 1,
                ..
            } if outcome => {
                self.assume_rec(s, ctx, node, a, true, depth - 1);
                self.assume_rec(s, ctx, node, b, true, depth - 1);
            }
            InstKind::Bin {
                op: BinOp::Or,
                a,
                b,
                bits: 1,
                ..
            } if !outcome => {
                self.assume_rec(s, ctx, node, a, false, depth - 1);
                self.assume_rec(s, ctx, node, b, false, depth - 1);
            }
            _ => {}
        }
    }

    /// After refining a loaded value at a branch, refine the cell it was loaded from too, when
    /// this thread cannot have changed the cell since the load (same node, no write between).
    fn refine_loaded_cell<D: NumDomain>(&self, s: &mut D, ctx: CtxId, node: NodeId, o: &Operand) {
        let Operand::Var(v) = o else { return };
        let func = self.func_of(ctx);
        let n = &self.view.cfg.nodes[node.index()];
        if let Some(c) = self.facts.loaded_cell_until_end(func, n.block, n.start, *v) {
            if self.facts.memory.is_int(c) {
                let ty = match self.var_ty(ctx, *v) {
                    Ty::Int(b) => IntTy::new(b),
                    _ => return,
                };
                s.assume(
                    CmpPred::Eq,
                    DOp::Var(self.cell_var(c)),
                    DOp::Var(self.ssa_var(ctx, *v)),
                    ty,
                    true,
                );
            }
        }
    }

    /// The state on each outgoing edge of a node that ends in its block's terminator.
    pub fn branch<D: NumDomain>(
        &self,
        s: &D,
        node: NodeId,
        term: &Terminator,
        mut emit: impl FnMut(crate::ir::BlockId, D),
    ) {
        let ctx = self.view.cfg.nodes[node.index()].ctx;
        match term {
            Terminator::Br(t) => emit(*t, s.clone()),
            Terminator::CondBr { cond, then_, else_ } => {
                let mut a = s.clone();
                self.assume_cond(&mut a, ctx, node, cond, true);
                let mut b = s.clone();
                self.assume_cond(&mut b, ctx, node, cond, false);
                emit(*then_, a);
                emit(*else_, b);
            }
            Terminator::Switch {
                value,
                bits,
                cases,
                default,
            } => {
                let ty = IntTy::new(*bits);
                let v = self.op(ctx, value);
                let mut rest = s.clone();
                for (c, t) in cases {
                    let k = DOp::Const(Interval::constant(*c));
                    let mut a = s.clone();
                    a.assume(CmpPred::Eq, v, k, ty, true);
                    emit(*t, a);
                    rest.assume(CmpPred::Ne, v, k, ty, true);
                }
                emit(*default, rest);
            }
            Terminator::Ret(_) | Terminator::Stop { .. } => {}
        }
    }

    /// Evaluates the phis of `to` (in context `ctx`) on the edge from `from`, in parallel.
    pub fn phis<D: NumDomain>(
        &self,
        s: &mut D,
        ctx: CtxId,
        from: crate::ir::BlockId,
        to: crate::ir::BlockId,
    ) {
        let func = self.func_of(ctx);
        let block = &self.facts.program.funcs[func.index()].blocks[to.index()];
        if block.phis.is_empty() || s.is_bottom() {
            return;
        }
        let mut moves = Vec::new();
        let mut others = Vec::new();
        // Phis given constants on this edge (`int i = 0, j = 0;` before a loop) are related
        // once assigned, while their difference is known: a relational domain keeps `i == j`
        // through the loop only if the two share a pack where the loop's edges join.
        let mut constant = Vec::new();
        for p in &block.phis {
            let inc = p.incoming.iter().find(|(b, _)| *b == from).map(|(_, o)| o);
            match self.var_ty(ctx, p.dst) {
                Ty::Int(_) => {
                    let o = inc.map_or(DOp::Const(Interval::top()), |o| self.op(ctx, o));
                    let d = self.ssa_var(ctx, p.dst);
                    if let DOp::Const(c) = o {
                        if c.as_const().is_some() {
                            constant.push(d);
                        }
                    }
                    moves.push((d, o));
                }
                _ => others.push(p.dst),
            }
        }
        for d in others {
            s.forget(self.ssa_var(ctx, d));
        }
        s.assign_parallel(&moves);
        for p in &block.phis {
            if let Ty::Int(bits) = self.var_ty(ctx, p.dst) {
                clamp_kept(s, self.ssa_var(ctx, p.dst), IntTy::new(bits));
            }
        }
        if let Some(&first) = constant.first() {
            for &d in constant.iter().skip(1).take(MAX_RELATED_PHIS - 1) {
                s.relate(first, d);
            }
        }
    }

    /// Whether the assertion condition `cond` (`None`: reaching is failing) holds in `s`.
    pub fn holds<D: NumDomain>(&self, s: &D, ctx: CtxId, cond: Option<&Operand>) -> Truth {
        if s.is_bottom() {
            return Truth::True;
        }
        let Some(c) = cond else {
            return Truth::False;
        };
        let width = match c {
            Operand::Var(v) => match self.var_ty(ctx, *v) {
                Ty::Int(b) => b,
                _ => return Truth::Unknown,
            },
            Operand::Int { bits, .. } => *bits,
            _ => return Truth::Unknown,
        };
        let zero = DOp::Const(Interval::constant(0));
        s.entails(CmpPred::Ne, self.op(ctx, c), zero, IntTy::new(width))
    }
}

/// The integer type of an address.
pub fn pointer_ty(program: &crate::ir::Program) -> IntTy {
    IntTy::new(program.pointer_size * 8)
}

/// `var := value` for a variable of type `ty` passed a value (a parameter, a result):
/// integers and pointers keep it, other types are forgotten.
///
/// Invariant: the interval of a pointer variable holds every address it may hold, as an
/// integer. Only a pointer made from an integer (`inttoptr`) or the null constant has a bounded
/// one: addresses of objects are unknown (`Transfer::op`), and loads and calls forget theirs.
pub fn set_passed<D: NumDomain>(
    program: &crate::ir::Program,
    s: &mut D,
    var: Var,
    ty: Ty,
    value: Interval,
) {
    match ty {
        Ty::Int(bits) => s.set(var, machine::clamp(value, IntTy::new(bits))),
        // Cost: most pointers hold unknown addresses; a forgotten variable takes no room in
        // the state, one set to every address does.
        Ty::Ptr => {
            let every = Interval::top_of(pointer_ty(program));
            match machine::clamp(value, pointer_ty(program)) {
                v if v == every => s.forget(var),
                v => s.set(var, v),
            }
        }
        _ => s.forget(var),
    }
}

/// `d := cell` for a load of type `ty`. Soundness: only a load that must read this one concrete
/// cell (`strong`) keeps `d == cell`; a summary cell (array elements, heap) stands for several
/// concrete cells, so the loaded value is only one of its values.
fn load_from<D: NumDomain>(s: &mut D, d: Var, cell: Var, strong: bool, ty: IntTy) {
    if strong {
        s.assign(d, cell);
        clamp_kept(s, d, ty);
    } else {
        let v = machine::clamp(s.interval(cell), ty);
        s.set(d, v);
    }
}

/// Clamps `x` to the canonical range of `ty`, keeping its relations when that only narrows it.
pub fn clamp_kept<D: NumDomain>(s: &mut D, x: Var, ty: IntTy) {
    let cur = s.interval(x);
    let v = machine::clamp(cur, ty);
    if v.is_subset(&cur) {
        s.meet_interval(x, v);
    } else {
        s.set(x, v);
    }
}

/// The value an `atomicrmw` stores.
fn rmw(op: RmwOp, old: Interval, v: Interval, ty: IntTy, bits: u32) -> Interval {
    if bits == 0 {
        return Interval::top();
    }
    let bin = |o| machine::binop(o, old, v, ty);
    match op {
        RmwOp::Xchg => v,
        RmwOp::Add => bin(BinOp::Add),
        RmwOp::Sub => bin(BinOp::Sub),
        RmwOp::And => bin(BinOp::And),
        RmwOp::Or => bin(BinOp::Or),
        RmwOp::Xor => bin(BinOp::Xor),
        // The result is one of the two operands.
        RmwOp::Max | RmwOp::Min | RmwOp::UMax | RmwOp::UMin => old.join(&v),
        RmwOp::Nand | RmwOp::Other => Interval::top_of(ty),
    }
}
