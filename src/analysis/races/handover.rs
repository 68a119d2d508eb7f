//! Heap blocks filled before they are handed over (issue 35, class 8): a thread allocates a
//! block, writes it, then puts its address where another thread takes it (a queue under a
//! mutex, a thread's argument). What the allocating code does to the block before the address
//! first leaves its registers races with nothing, when the address only ever moves between
//! threads through accesses the race check itself finds ordered.
//!
//! The rule, for a heap allocation `S` (a fresh block: not `realloc`) of function `F` with
//! result `v`, whose site's object is `O`:
//!
//! - An *escape* of `v` is any use of a value computed from `v` (through `gep`s, copies and
//!   pointer casts) other than as the address of an access or a lock, in a comparison, in an
//!   assertion, or as an argument of a declared function (which keeps no pointer: the race
//!   check's assumption, README): a store of it, a call of a defined function, a thread
//!   creation, an atomic operation, arithmetic, a `phi` or a `select`, a return.
//! - A load, store or `memset` of `F` through an address computed from `v` that no path from
//!   an escape reaches without passing `S` again is *before the hand-over*.
//! - The channels of `O`: every store whose value may point to `O` and every load whose
//!   result may (the points-to sets).
//!
//! It applies when `O` is not exposed (no code the analysis does not see, no integer, no
//! unknown pointer gets or gives its address), no atomic read-modify-write, relaxed atomic
//! load or store, byte copy or `realloc` moves a pointer to it, the program calls nothing that
//! may return twice, and no channel store and channel load that may touch the same bytes may
//! race (`Pairs::may_race`: they hold a common lock, are ordered, or run in one thread; two
//! atomics never race, and an atomic channel is a release store or an acquire load), none
//! through a lost address.
//!
//! Soundness: an access before the hand-over touches the block `b` of the latest run of `S`
//! in its activation (in SSA every path from `S` to it passes the definitions it uses). Until
//! the first escape after that run, `b`'s address is in no memory and no other activation has
//! it (`S` returned a block that was not live; a block freed and allocated again is ordered by
//! the allocator, C11 7.22.3p2). Another thread reaches `b` only with its address, which it
//! gets through a thread's argument (ordered by the creation), or by a channel load that reads
//! what a channel store wrote (pointers to `O` reach memory only through channel stores: no
//! exposure, no read-modify-writes or relaxed atomics, no byte copies). A load that reads a store's value does not come
//! before it, so when the two do not race the store happens before the load (a common lock:
//! the store's critical section comes first; an order: it points from the store; one thread:
//! program order; a release store read by an acquire load synchronises with it, C11
//! 5.1.2.4p11, and a pointer to `O` enters no release sequence through a read-modify-write,
//! which excludes `O`). Following the address from the first escape, every link is ordered, so
//! the access before the hand-over happens before every access of `b` in another thread or
//! activation, and races with none.

use crate::facts::Facts;
use crate::ir::effects::OperandUse;
use crate::ir::{BlockId, Callee, FuncId, InstKind, ObjId, Operand, Program, Terminator, VarId};
use rustc_hash::FxHashMap as HashMap;
use rustc_hash::FxHashSet as HashSet;

/// An instruction: function, block, index in the block.
pub type InstAt = (FuncId, BlockId, u32);

/// Which role an instruction plays for the blocks of an allocation site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// It stores a value that may point to the site's blocks.
    Store,
    /// It loads a value that may point to them.
    Load,
}

/// The accesses before a hand-over and the channels of every allocation site the rule may
/// apply to.
#[derive(Default)]
pub struct Handover {
    /// Per instruction: the object it accesses only before the hand-over.
    before: HashMap<InstAt, ObjId>,
    /// Per instruction: the objects whose channels it is, and how.
    channels: HashMap<InstAt, Vec<(ObjId, Role)>>,
    /// Objects the rule never applies to (exposed, moved by atomics or byte copies).
    excluded: HashSet<ObjId>,
}

impl Handover {
    /// Finds the accesses before a hand-over and the channels of each heap object.
    pub fn of(facts: &Facts<'_>) -> Handover {
        let program = facts.program;
        let pts = &facts.memory.pts;
        let mut out = Handover::default();
        if crate::ir::once::may_resume(program) {
            return out;
        }
        let mut sites: Vec<(FuncId, BlockId, VarId, ObjId)> = Vec::new();
        for (fi, f) in program.funcs.iter().enumerate() {
            for (bi, b) in f.blocks.iter().enumerate() {
                for inst in &b.insts {
                    if let InstKind::HeapAlloc {
                        dst,
                        obj,
                        from: None,
                        ..
                    } = &inst.kind
                    {
                        if !pts.exposed.contains(obj) {
                            sites.push((FuncId(fi as u32), BlockId(bi as u32), *dst, *obj));
                        }
                    }
                }
            }
        }
        if sites.is_empty() {
            return out;
        }
        let candidate: HashSet<ObjId> = sites.iter().map(|s| s.3).collect();
        out.channels_of(facts, &candidate);
        for &(func, site, v, obj) in &sites {
            if out.excluded.contains(&obj) {
                continue;
            }
            for at in before_escape(program, func, v, site) {
                out.before.insert(at, obj);
            }
        }
        out
    }

    /// Records the channels of the candidate objects, and excludes those a read-modify-write, a relaxed atomic,
    /// a byte copy or a `realloc` may move a pointer to.
    fn channels_of(&mut self, facts: &Facts<'_>, candidate: &HashSet<ObjId>) {
        let program = facts.program;
        let pts = &facts.memory.pts;
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId(fi as u32);
            let of = |op: &Operand| pts.of(program, func, op);
            let var = |v: &VarId| pts.of(program, func, &Operand::Var(*v));
            for (bi, b) in f.blocks.iter().enumerate() {
                for (ii, inst) in b.insts.iter().enumerate() {
                    let at = (func, BlockId(bi as u32), ii as u32);
                    let mut add = |objs: Vec<ObjId>, role: Option<Role>| {
                        for o in objs.into_iter().filter(|o| candidate.contains(o)) {
                            match role {
                                Some(r) => self.channels.entry(at).or_default().push((o, r)),
                                None => {
                                    self.excluded.insert(o);
                                }
                            }
                        }
                    };
                    // What a copy of the bytes of the objects `p` may point to moves.
                    let held = |p: &Operand| -> Vec<ObjId> {
                        let s = of(p);
                        s.objects()
                            .flat_map(|o| pts.contents(o).objects().collect::<Vec<_>>())
                            .collect()
                    };
                    match &inst.kind {
                        // An atomic channel must be a release store or an acquire load
                        // (the header's argument); a relaxed one orders nothing.
                        InstKind::Store { val, order, .. } => {
                            let role =
                                (!order.is_atomic() || order.releases()).then_some(Role::Store);
                            add(of(val).objects().collect(), role);
                        }
                        InstKind::Load { dst, order, .. } => {
                            let role =
                                (!order.is_atomic() || order.acquires()).then_some(Role::Load);
                            add(var(dst).objects().collect(), role);
                        }
                        InstKind::AtomicRmw { dst, val, .. } => {
                            add(of(val).objects().chain(var(dst).objects()).collect(), None);
                        }
                        InstKind::CmpXchg {
                            old, expected, new, ..
                        } => {
                            let objs = (of(new).objects())
                                .chain(of(expected).objects())
                                .chain(var(old).objects())
                                .collect();
                            add(objs, None);
                        }
                        InstKind::MemCopy { src, .. } => add(held(src), None),
                        InstKind::HeapAlloc {
                            from: Some(old), ..
                        } => add(held(old), None),
                        InstKind::Call { args, callee, .. } => {
                            let copies = match callee {
                                Callee::Direct(g) => (program.funcs[g.index()].library_props())
                                    .is_some_and(|p| p.copies_bytes),
                                Callee::Indirect(_) => false,
                            };
                            if copies {
                                for a in args {
                                    add(held(a), None);
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// The object instruction `at` accesses only before its block is handed over, if any.
    pub fn before(&self, at: InstAt) -> Option<ObjId> {
        self.before.get(&at).copied()
    }

    /// The objects `at` is a channel of, and how.
    pub fn channels(&self, at: InstAt) -> &[(ObjId, Role)] {
        self.channels.get(&at).map_or(&[], |v| v.as_slice())
    }
}

/// The values of `func` computed from `v` without memory (`gep`s, copies, pointer casts).
pub fn derived_from(program: &Program, func: FuncId, v: VarId) -> HashSet<VarId> {
    let f = &program.funcs[func.index()];
    let mut derived: HashSet<VarId> = [v].into_iter().collect();
    // SSA: one pass per round until none is added (a `gep` may come before its base in
    // block order).
    loop {
        let mut grew = false;
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            let (dst, src) = match &inst.kind {
                InstKind::Gep { dst, base, .. } => (*dst, base),
                InstKind::Copy { dst, src } => (*dst, src),
                InstKind::Cast {
                    dst,
                    src,
                    from: 0,
                    to: 0,
                    ..
                } => (*dst, src),
                _ => continue,
            };
            if matches!(src, Operand::Var(s) if derived.contains(s)) && derived.insert(dst) {
                grew = true;
            }
        }
        if !grew {
            return derived;
        }
    }
}

/// Whether the use of an operand computed from the block's address, as `how`, by `kind`, lets
/// the address out of the function's registers.
fn escapes(program: &Program, kind: &InstKind, how: OperandUse) -> bool {
    match (kind, how) {
        // Computing a derived address, comparing, asserting: the address stays.
        (InstKind::Gep { .. } | InstKind::Copy { .. }, _) => false,
        (InstKind::Cast { from: 0, to: 0, .. }, _) => false,
        (InstKind::Cmp { .. }, _) | (_, OperandUse::Condition) => false,
        // The address of an access or of a lock.
        (
            InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::MemSet { .. }
            | InstKind::MemCopy { .. }
            | InstKind::Lock { .. }
            | InstKind::Unlock { .. },
            OperandUse::Address,
        ) => false,
        // A declared function keeps no pointer (the race check's assumption), unless its row
        // says it keeps one (`open_memstream`).
        (
            InstKind::Call {
                callee: Callee::Direct(g),
                ..
            },
            OperandUse::Argument,
        ) => {
            let g = &program.funcs[g.index()];
            g.is_defined
                || g.library_props()
                    .is_some_and(|p| !p.stream_keeps.is_empty())
        }
        _ => true,
    }
}

/// The loads, stores and `memset`s of `func` through an address computed from `v` (defined in
/// block `site`) that no path from an escape of `v` reaches without passing `site`.
fn before_escape(program: &Program, func: FuncId, v: VarId, site: BlockId) -> Vec<InstAt> {
    accesses_before(program, func, v, site, true, |inst, derived| {
        let mut esc = false;
        inst.for_each_operand(|op, how| {
            esc |=
                matches!(op, Operand::Var(x) if derived.contains(x)) && escapes(program, inst, how);
        });
        esc
    })
}

/// The loads, stores and `memset`s of `func` through an address computed from `v` (defined in
/// block `site`) that no path from a point where `stop(inst, derived)` holds reaches without
/// passing `site` again; such a point's own access counts as before it. With `leaves`, a `phi`
/// that takes a derived value and a return of one stop there too. Shared by `ownership` (the
/// one stop is the thread's creation) and the hand-over rule (every escape).
pub fn accesses_before(
    program: &Program,
    func: FuncId,
    v: VarId,
    site: BlockId,
    leaves: bool,
    stop: impl Fn(&InstKind, &HashSet<VarId>) -> bool,
) -> Vec<InstAt> {
    let f = &program.funcs[func.index()];
    let derived = derived_from(program, func, v);
    let is_derived = |op: &Operand| matches!(op, Operand::Var(x) if derived.contains(x));
    // Per block: the index of its first stop (`u32::MAX`: none), and whether a path from a
    // stop enters it at its start.
    let mut first = vec![u32::MAX; f.blocks.len()];
    let mut entered = vec![false; f.blocks.len()];
    let mut stack: Vec<BlockId> = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        if let Some(ii) = b.insts.iter().position(|i| stop(&i.kind, &derived)) {
            first[bi] = ii as u32;
        }
        let mut out = first[bi] != u32::MAX;
        if let (true, Terminator::Ret(Some(op))) = (leaves, &b.term) {
            out |= is_derived(op);
        }
        if out {
            b.term.for_each_successor(|s| stack.push(s));
        }
        let takes = |phi: &crate::ir::Phi| phi.incoming.iter().any(|(_, op)| is_derived(op));
        if leaves && b.phis.iter().any(takes) {
            stack.push(BlockId(bi as u32));
        }
    }
    while let Some(b) = stack.pop() {
        if b == site || std::mem::replace(&mut entered[b.index()], true) {
            continue;
        }
        f.blocks[b.index()]
            .term
            .for_each_successor(|s| stack.push(s));
    }
    let mut out = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        if entered[bi] {
            continue;
        }
        for (ii, inst) in b
            .insts
            .iter()
            .enumerate()
            .take_while(|(ii, _)| *ii as u32 <= first[bi])
        {
            let ptr = match &inst.kind {
                InstKind::Load { ptr, .. }
                | InstKind::Store { ptr, .. }
                | InstKind::MemSet { ptr, .. } => ptr,
                _ => continue,
            };
            // The stop itself (a store of the address into the block) still runs before
            // it: what it writes is the block's own memory.
            if is_derived(ptr) {
                out.push((func, BlockId(bi as u32), ii as u32));
            }
        }
    }
    out
}
