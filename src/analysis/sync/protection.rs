//! Lock-protected cells (beyond the paper; the protection-based interference of Miné's and
//! Goblint's thread-modular analyses). A cell is protected by lock `m` when every access to it,
//! in every thread, happens while the accessing thread holds `m` for sure — except accesses of
//! `main` that no path reaches after a thread creation, when no other thread exists, and
//! accesses of `main` where every thread that may access the cell has surely been joined or
//! not yet been created (`Joins`: `main` is the only thread that can access it there).
//!
//! For such a cell no other thread can write it while a thread holds `m`, so a thread's loads
//! of it read its own view, and other threads' writes reach it only when it takes `m`: at each
//! acquisition of `m` (after `main` may have created a thread) its view of the cell becomes what
//! some thread *published*: the value a thread held when it released `m` (or may have released
//! it) or created a thread; and the initial value when a function analysed on its own (which
//! may run before any thread exists) is part of the program. Where `main` takes `m` on some
//! paths after a creation and on others before any, its own view is kept too (joined).
//!
//! Soundness: at the moment a thread acquires `m`, the last write to the cell was made either
//! by `main` while no thread existed, or by a thread holding `m`, which released `m` since
//! (publishing its view, which holds its own last write). In the first case, if `main` passed
//! the end of its single-threaded phase since (a creation, or a call that is not inlined and
//! might create a thread: `ends`), its view there holds the write and is published; if it did
//! not (a path without one yet: `mixed` acquisitions), the acquirer is `main` itself and its
//! own view holds the write, which the refresh keeps. So the current value is among the
//! published ones or, on such a path, in `main`'s own view. Between acquiring and releasing
//! `m`, only the holder writes the cell. "No thread exists before `main` creates one" holds
//! because the constructors are part of `main` (`harness::startup`); a thread that a function
//! analysed on its own created (it may run before `main`: a start-up array the analysis does
//! not know, a callback) leaves `main` no single-threaded phase at all. Protection is
//! recomputed every round over every thread known; cells only lose it as threads appear, and
//! the fixpoint does not end until a round ran under the final protection. The argument for
//! the accesses exempt after joins is at `Joins`.
//!
//! Exemptions in detail: never a `per_thread` cell (a published value is another thread's copy);
//! the pthread synchronisation functions access only their synchronisation objects. `main`'s
//! accesses are also exempt where no thread that may access the cell may be running (`Joins`: a
//! may- and a must-analysis over `main`'s CFG of which of its creations run, started at their
//! create sites, stopped by joins that must wait for them, `feasibility::must_joined`, and at the
//! exits of join loops); every accessor must be created by `main` itself (not by another thread,
//! not by a detached function) and must publish each write to the cell at a release before it may
//! end (`locks::released_before_end`), else the cell is not exempt. `main` refreshes such cells
//! (`join_cells`) after each of its joins, keeping its own view, and keeps its own view at
//! acquisitions where it may be the only thread left that can access one. The phase is per path
//! (`mixed` acquisitions; Goblint 13-privatized/71, 73).
//!
//! Where it is used: only by the second run that `verdict::runs` makes when some cell is
//! protectable (`Composition::protection`; for the verdicts and for `watts invariants`): there
//! `read_cell` reads a protected cell's own view, `Transfer::inst` publishes and refreshes around
//! lock operations, the fixpoint replaces the interference of protected cells by everything
//! published, and `combinations` gives their loads no choices. Each assertion takes the stronger
//! verdict of the two runs (both are sound).
//!
//! With a relational domain (`NumDomain::RELATIONAL`, the octagon) the hand-over is relational too:
//! where it publishes, a thread also publishes, per lock, its state projected onto the lock's cells
//! (`NumDomain::project`, which turns what the intervals imply about each pair's sum and difference
//! into entries); `ThreadResults::published_rel` joins them (widened like `published`),
//! `fixpoint::protected_relations` joins every thread's (and the initial state's, when a detached
//! function may take the lock first) into `Relations`, and a refresh meets the state with them
//! projected onto the cells it hands over. `Transfer::relations` carries them type-erased (the
//! transfer functions are generic per call, not per `Transfer`). A lock whose relations grew marks
//! its cells changed, so their readers run again.
//!
//! Invariant: protection is recomputed every round over the known threads, the fixpoint does not
//! end before a round ran under the final protection, and a thread that published something new is
//! never quiet.

use super::locks::{LockEffect, LockNames, ThreadLocks};
use crate::facts::Facts;
use crate::ir::InstKind;
use crate::memory::CellId;
use crate::threads::NodeId;
use crate::threads::{Origin, Thread};
use std::collections::{BTreeSet, HashMap};

/// Which cells are protected, and what each thread's instructions do to locks.
#[derive(Default)]
pub struct Protection {
    /// Per cell: the lock protecting it.
    pub lock_of: Vec<Option<u32>>,
    /// Per lock: the cells it protects.
    cells_of: HashMap<u32, Vec<CellId>>,
    /// Per thread (indexed like the fixpoint's threads): lock effects by instruction.
    effects: Vec<HashMap<(NodeId, u32), LockEffect>>,
    /// Per thread: the instructions that run before any other thread exists (`main`'s that no
    /// path reaches after a `pthread_create`); a lock taken there hands nothing over.
    single: Vec<BTreeSet<(NodeId, u32)>>,
    /// Per thread: the instructions of `main` that some path reaches after a creation and some
    /// path reaches before any; a lock taken there keeps the own view besides the published
    /// values.
    mixed: Vec<BTreeSet<(NodeId, u32)>>,
    /// Per thread: the instructions of `main` that end its single-threaded phase on some path
    /// (a creation, or a call that is not inlined and might create a thread); it publishes
    /// every protected cell there, as at a creation.
    ends: Vec<BTreeSet<(NodeId, u32)>>,
    /// The index of `main` among the threads.
    main: Option<usize>,
    /// Protected cells that some access of `main` reaches only after every other thread that
    /// may access them was joined (`Joins`): `main` refreshes them after each of its joins,
    /// keeping its own view.
    join_cells: Vec<CellId>,
    /// `main`'s joins.
    join_points: BTreeSet<(NodeId, u32)>,
    /// `main`'s acquisitions where it may be the only thread that can access a cell of the
    /// lock: the refresh keeps its own view.
    keep_own_at: BTreeSet<(NodeId, u32)>,
}

/// What a thread does with lock-protected cells around one instruction.
pub struct Handover<'a> {
    /// The cells whose view it publishes before the instruction.
    pub publish: Vec<CellId>,
    /// The cells whose view it refreshes after the instruction from what was published.
    pub refresh: &'a [CellId],
    /// Whether the refresh keeps the thread's own view too (joined with the published values):
    /// `main` may still be alone on some path to the instruction.
    pub keep_own: bool,
}

/// Equal when the same cells are protected by the same locks for the same threads (a thread's
/// lock effects depend only on its CFG, so the number of threads stands for them).
impl PartialEq for Protection {
    fn eq(&self, other: &Self) -> bool {
        self.lock_of == other.lock_of && self.effects.len() == other.effects.len()
    }
}

impl Protection {
    /// Computes protection over `threads`.
    pub fn compute(facts: &Facts<'_>, threads: &[Thread]) -> Protection {
        let ncells = facts.ncells as usize;
        let mut names = LockNames::default();
        // Per cell: the locks held at every multi-threaded access so far (`None`: none yet).
        let mut common: Vec<Option<BTreeSet<u32>>> = vec![None; ncells];
        // Per cell: the threads other than `main` that may access it.
        let mut accessors: Vec<Vec<usize>> = vec![Vec::new(); ncells];
        let mut effects = Vec::new();
        let mut singles = Vec::new();
        let mut mixeds = Vec::new();
        let mut endss = Vec::new();
        let mut locks = Vec::new();
        // Soundness: a thread whose creation a detached function made may exist before `main`
        // starts (that function may run from start-up code the analysis does not model) or
        // at any time: then `main` is never alone.
        let foreign = (0..threads.len()).any(|i| created_by_detached(threads, i));
        let main = threads.iter().position(|t| t.origin == Origin::Main);
        for (tid, t) in threads.iter().enumerate() {
            let tl = ThreadLocks::of(facts, t, &mut names);
            let (single, mixed, ends) = if foreign {
                Default::default()
            } else {
                single_threaded(facts, t)
            };
            let mut mine = HashMap::new();
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[n] == u32::MAX {
                    continue;
                }
                let node = NodeId(n as u32);
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                for idx in nd.start..nd.end {
                    let e = tl.effect(node, idx);
                    if e != LockEffect::None {
                        mine.insert((node, idx), e);
                    }
                    // `main`'s accesses are counted below, once the others' are known.
                    if Some(tid) == main || single.contains(&(node, idx)) {
                        continue;
                    }
                    let held = tl.held.get(&(node, idx)).cloned().unwrap_or_default();
                    for c in accessed(facts, func, nd.block, idx) {
                        let slot = &mut common[c.index()];
                        intersect(slot, &held);
                        // A cell accessed without a lock is never protected: who else accesses
                        // it no longer matters (most cells an unknown call touches).
                        if slot.as_ref().is_some_and(BTreeSet::is_empty) {
                            continue;
                        }
                        let list = &mut accessors[c.index()];
                        if list.last() != Some(&tid) {
                            list.push(tid);
                        }
                    }
                }
            }
            effects.push(mine);
            singles.push(single);
            mixeds.push(mixed);
            endss.push(ends);
            locks.push(tl);
        }
        // `main`'s accesses: exempt before its first creation (`single`), and where every
        // other thread that may access the cell has been joined (`Joins`); the latter are
        // kept aside with the locks held there, in case the cell cannot be exempt after all.
        let joins = main.map(|m| Joins::of(facts, threads, m, foreign));
        let mut exempt: HashMap<CellId, Vec<BTreeSet<u32>>> = HashMap::new();
        if let (Some(m), Some(joins)) = (main, &joins) {
            let t = &threads[m];
            let tl = &locks[m];
            joins.walk(t, |node, idx, state| {
                if singles[m].contains(&(node, idx)) {
                    return;
                }
                let nd = &t.cfg.nodes[node.index()];
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                let held = tl.held.get(&(node, idx)).cloned().unwrap_or_default();
                for c in accessed(facts, func, nd.block, idx) {
                    // A cell some thread accessed without a lock is never protected.
                    if common[c.index()].as_ref().is_some_and(BTreeSet::is_empty) {
                        continue;
                    }
                    if joins.owned(&state.0, &accessors[c.index()]) {
                        exempt.entry(c).or_default().push(held.clone());
                    } else {
                        intersect(&mut common[c.index()], &held);
                    }
                }
            });
        }
        // Soundness: `main` reads a cell it was exempt for from its own view refreshed after
        // its joins with what was published; a thread that may end after its last write to
        // the cell without releasing the lock never published that write. Such a cell is not
        // exempt.
        // The candidates and their locks; one pass over each accessor's writes.
        let candidates: std::collections::BTreeMap<CellId, Option<u32>> = (exempt.keys())
            .map(|c| (*c, protecting(facts, *c, &common[c.index()])))
            .collect();
        let mut unpublished: BTreeSet<CellId> = (candidates.iter())
            .filter(|(_, m)| m.is_none())
            .map(|(c, _)| *c)
            .collect();
        let writers: BTreeSet<usize> = (candidates.keys())
            .flat_map(|c| accessors[c.index()].iter().copied())
            .collect();
        for k in writers {
            let t = &threads[k];
            for (n, nd) in t.cfg.nodes.iter().enumerate() {
                if t.shape.rpo[n] == u32::MAX {
                    continue;
                }
                let func = t.cfg.contexts[nd.ctx.0 as usize].func;
                for idx in nd.start..nd.end {
                    for c in facts.written_cells(func, nd.block, idx) {
                        let Some(Some(m)) = candidates.get(&c) else {
                            continue;
                        };
                        let at = (NodeId(n as u32), idx);
                        if !unpublished.contains(&c)
                            && !locks[k].released_before_end(facts, t, at, *m)
                        {
                            unpublished.insert(c);
                        }
                    }
                }
            }
        }
        let mut join_cells = Vec::new();
        for (c, helds) in &exempt {
            if unpublished.contains(c) {
                for held in helds {
                    intersect(&mut common[c.index()], held);
                }
            } else {
                join_cells.push(*c);
            }
        }
        join_cells.sort();
        let mut lock_of = vec![None; ncells];
        let mut cells_of: HashMap<u32, Vec<CellId>> = HashMap::new();
        for (c, held) in common.iter().enumerate() {
            let cell = CellId(c as u32);
            if let Some(m) = protecting(facts, cell, held) {
                lock_of[c] = Some(m);
                cells_of.entry(m).or_default().push(cell);
            }
        }
        join_cells.retain(|c| lock_of[c.index()].is_some());
        // Where `main` takes a lock while it may be the only thread left that can access one
        // of the lock's join cells, its own view may hold a write no one published.
        let mut keep_own_at = BTreeSet::new();
        let mut join_points = BTreeSet::new();
        if let (Some(m), Some(joins), false) = (main, &joins, join_cells.is_empty()) {
            let t = &threads[m];
            joins.walk(t, |node, idx, state| {
                if is_join(facts, t, node, idx) {
                    join_points.insert((node, idx));
                }
                let (LockEffect::Acquire(l) | LockEffect::TryAcquire(l) | LockEffect::Reacquire(l)) =
                    locks[m].effect(node, idx)
                else {
                    return;
                };
                let may_own = (cells_of.get(&l).into_iter().flatten())
                    .filter(|c| join_cells.contains(c))
                    .any(|c| joins.owned(&state.1, &accessors[c.index()]));
                if may_own {
                    keep_own_at.insert((node, idx));
                }
            });
        }
        Protection {
            lock_of,
            cells_of,
            effects,
            single: singles,
            mixed: mixeds,
            ends: endss,
            main,
            join_cells,
            join_points,
            keep_own_at,
        }
    }

    /// Whether cell `c` is protected.
    pub fn is_protected(&self, c: CellId) -> bool {
        self.lock_of.get(c.index()).is_some_and(Option::is_some)
    }

    /// Whether any cell is protected.
    /// The cells lock `m` protects.
    pub fn cells_of(&self, m: u32) -> &[CellId] {
        self.cells_of.get(&m).map_or(&[], Vec::as_slice)
    }

    pub fn any(&self) -> bool {
        self.lock_of.iter().any(Option::is_some)
    }

    /// The cells that thread `tid` publishes at instruction `idx` of `node` (it releases or may
    /// release their lock there, creates a thread, or may end `main`'s single-threaded phase),
    /// the cells it refreshes after it (it acquires their lock), and whether the refresh keeps
    /// its own view.
    pub fn at(&self, tid: usize, node: NodeId, idx: u32, creates: bool) -> Handover<'_> {
        let e = self
            .effects
            .get(tid)
            .and_then(|m| m.get(&(node, idx)).copied())
            .unwrap_or(LockEffect::None);
        let all = || -> Vec<CellId> { self.cells_of.values().flatten().copied().collect() };
        let marked = |sets: &[BTreeSet<(NodeId, u32)>]| {
            sets.get(tid).is_some_and(|s| s.contains(&(node, idx)))
        };
        let alone = marked(&self.single);
        // Soundness: after a join of `main`, a cell that it may now be the only one to access
        // holds the last value some thread published or `main`'s own (see `Joins`).
        if Some(tid) == self.main && self.join_points.contains(&(node, idx)) {
            let publish = if creates || marked(&self.ends) {
                self.cells_of.values().flatten().copied().collect()
            } else {
                Vec::new()
            };
            return Handover {
                publish,
                refresh: &self.join_cells,
                keep_own: true,
            };
        }
        let (publish, refresh) = match e {
            // No other thread exists yet: the thread's own view is the value.
            LockEffect::Acquire(_) | LockEffect::TryAcquire(_) | LockEffect::Reacquire(_)
                if alone =>
            {
                (Vec::new(), &[][..])
            }
            LockEffect::Release(m) => (self.cells_of.get(&m).cloned().unwrap_or_default(), &[][..]),
            // A condition wait releases the lock (publishes) and takes it again (refreshes).
            LockEffect::Reacquire(m) => (
                self.cells_of.get(&m).cloned().unwrap_or_default(),
                self.cells_of.get(&m).map_or(&[][..], Vec::as_slice),
            ),
            LockEffect::ReleaseAll => (all(), &[][..]),
            // A trylock refreshes too: on failure the thread does not read protected cells
            // before it takes the lock again, so the refresh is harmless.
            LockEffect::Acquire(m) | LockEffect::TryAcquire(m) => (
                Vec::new(),
                self.cells_of.get(&m).map_or(&[][..], Vec::as_slice),
            ),
            // Shared acquisitions are never an instruction's effect here
            // (`ThreadLocks::effect`): readers do not exclude each other.
            LockEffect::None | LockEffect::AcquireShared(_) => (Vec::new(), &[][..]),
        };
        // Soundness: where `main`'s single-threaded phase may end, its view holds what it wrote
        // while alone; after it, every access to a protected cell holds the lock, so what a
        // later acquisition reads is published (see the module's argument).
        let publish = if creates || marked(&self.ends) {
            all()
        } else {
            publish
        };
        Handover {
            publish,
            refresh,
            // Soundness: on a path where `main` created no thread yet, its own view is the
            // value (it may hold a write made while alone, which no one published).
            keep_own: !refresh.is_empty()
                && (marked(&self.mixed)
                    || Some(tid) == self.main && self.keep_own_at.contains(&(node, idx))),
        }
    }
}

/// Narrows `slot` (the locks held at every access so far) to `held`.
fn intersect(slot: &mut Option<BTreeSet<u32>>, held: &BTreeSet<u32>) {
    match slot {
        // Nothing left to intersect (most cells: accessed without a lock).
        Some(s) if s.is_empty() => {}
        Some(s) => s.retain(|m| held.contains(m)),
        None => *slot = Some(held.clone()),
    }
}

/// The lock that protects `c`, given the locks held at every access: only one concrete
/// integer cell keeps a published value exactly.
fn protecting(facts: &Facts<'_>, c: CellId, held: &Option<BTreeSet<u32>>) -> Option<u32> {
    let info = facts.memory.cells.info(c);
    // Soundness: a thread-local cell is one copy per thread: what another thread published is
    // not in this thread's copy, and a new thread's copy starts with the initial value, not
    // with what its creator published.
    if !info.singular || !facts.memory.is_int(c) || facts.memory.per_thread(c) {
        return None;
    }
    held.as_ref().and_then(|s| s.first().copied())
}

/// Whether instruction `idx` of `node` of `t` is a `pthread_join`.
fn is_join(facts: &Facts<'_>, t: &Thread, node: NodeId, idx: u32) -> bool {
    let nd = &t.cfg.nodes[node.index()];
    let func = t.cfg.contexts[nd.ctx.0 as usize].func;
    matches!(
        facts.program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize].kind,
        InstKind::ThreadJoin { .. }
    )
}

/// A set of thread indices.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn empty(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn has(&self, k: usize) -> bool {
        self.0[k / 64] >> (k % 64) & 1 == 1
    }
    fn set(&mut self, k: usize, on: bool) {
        if on {
            self.0[k / 64] |= 1 << (k % 64);
        } else {
            self.0[k / 64] &= !(1 << (k % 64));
        }
    }
    fn union(&mut self, o: &Bits) {
        self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a |= b);
    }
    fn intersect(&mut self, o: &Bits) {
        self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a &= b);
    }
}

/// Which of `main`'s creations may be running, and which surely are, at each instruction of
/// `main` (beyond the paper; the "joined" exemption of issue 17's idiom 4).
///
/// A class is started at its create site in `main`, and stopped at a join of `main` that must
/// wait for it (`feasibility::must_joined`: a single-instance class whose handle no other
/// instruction of the program writes) or at the exit of a join loop of `main` that waits for
/// every instance of a multi-instance class (`join_loops`). A thread "may be running" on a
/// path where it was created and not stopped since; a path that never created it does not
/// count, since an instance that was never created runs nothing.
///
/// Soundness of the exemption: an access of `main` to a cell is exempt from "holds the lock"
/// when no class that may access the cell may be running there (`owned`), and every such
/// class is *eligible*: created by `main` itself (not by another thread, which `main` does
/// not join, nor by a detached function such as a callback or a signal handler, which may run
/// at any time), with no thread descending from a detached function in the program. Then at
/// the access no other thread can access the cell: the threads that can are either not
/// created yet on this path or have terminated. The value there is the last write before it:
/// `main`'s own (its view holds it: its acquisitions keep its own view wherever it may own the
/// cell, `keep_own_at`) or a write of a terminated thread made under the lock, which that
/// thread published before it could end (`ThreadLocks::released_before_end`, checked for
/// every write of every accessor, else the cell is not exempt), and `main` joins what was
/// published into its view after each of its joins (`join_points`). When `main` creates an
/// accessor again, the creation publishes every protected cell. `pthread_exit` in `main`
/// ends it: nothing of it runs later.
struct Joins {
    /// Per thread: whether `main` created it itself (and no thread descends from a detached
    /// function), so that `main` can know it ended.
    eligible: Vec<bool>,
    /// Per node of `main`: the classes that may be running at its start and those that surely
    /// are (`None`: not reached).
    at_start: Vec<Option<(Bits, Bits)>>,
    /// `main`'s create sites and the classes each starts.
    creates: HashMap<(NodeId, u32), Vec<usize>>,
    /// `main`'s joins that must wait for one single-instance class.
    joins: HashMap<(NodeId, u32), usize>,
    /// Per node of `main`: the multi-instance classes whose every instance has ended when it
    /// starts (join-loop exits).
    loop_exits: HashMap<NodeId, Vec<usize>>,
    /// `main`'s index.
    main: usize,
}

impl Joins {
    fn of(facts: &Facts<'_>, threads: &[Thread], main: usize, foreign: bool) -> Joins {
        let n = threads.len();
        let t = &threads[main];
        let mut eligible = vec![false; n];
        let mut creates: HashMap<(NodeId, u32), Vec<usize>> = HashMap::new();
        for (k, c) in threads.iter().enumerate() {
            if let Origin::Created { parent, node, inst } = c.origin {
                if parent == main {
                    creates.entry((node, inst)).or_default().push(k);
                    eligible[k] = !foreign;
                }
            }
        }
        let mut joins = HashMap::new();
        let mut loop_exits: HashMap<NodeId, Vec<usize>> = HashMap::new();
        let any_eligible = eligible.iter().any(|e| *e);
        if any_eligible {
            for (nn, nd) in t.cfg.nodes.iter().enumerate() {
                for idx in nd.start..nd.end {
                    let node = NodeId(nn as u32);
                    if let Some(k) = super::feasibility::must_joined(facts, threads, t, node, idx) {
                        joins.insert((node, idx), k);
                    }
                }
            }
            for j in super::join_loops::find(facts, threads) {
                if j.parent == main {
                    loop_exits.entry(j.exit).or_default().push(j.child);
                }
            }
        }
        let mut me = Joins {
            eligible,
            at_start: vec![None; t.cfg.nodes.len()],
            creates,
            joins,
            loop_exits,
            main,
        };
        // May (union, least fixpoint) and must (intersection, greatest fixpoint) at once.
        let mut order: Vec<usize> = (0..t.cfg.nodes.len())
            .filter(|k| t.shape.rpo[*k] != u32::MAX)
            .collect();
        order.sort_by_key(|k| t.shape.rpo[*k]);
        let entry = t.cfg.contexts[0].entry.index();
        let mut out: Vec<Option<(Bits, Bits)>> = vec![None; t.cfg.nodes.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for &k in &order {
                let mut state: Option<(Bits, Bits)> =
                    (k == entry).then(|| (Bits::empty(n), Bits::empty(n)));
                for p in &t.shape.pred[k] {
                    if let Some((may, must)) = &out[p.index()] {
                        match &mut state {
                            None => state = Some((may.clone(), must.clone())),
                            Some((a, b)) => {
                                a.union(may);
                                b.intersect(must);
                            }
                        }
                    }
                }
                let Some(mut state) = state else { continue };
                if me.at_start[k].as_ref() != Some(&state) {
                    me.at_start[k] = Some(state.clone());
                }
                let node = NodeId(k as u32);
                me.enter(&mut state, node);
                let nd = &t.cfg.nodes[k];
                for idx in nd.start..nd.end {
                    me.step(&mut state, node, idx);
                }
                if out[k].as_ref() != Some(&state) {
                    out[k] = Some(state);
                    changed = true;
                }
            }
        }
        me
    }

    /// The start of `node`: join loops that exit here have ended every instance.
    fn enter(&self, state: &mut (Bits, Bits), node: NodeId) {
        for &k in self.loop_exits.get(&node).into_iter().flatten() {
            state.0.set(k, false);
            state.1.set(k, false);
        }
    }

    /// Instruction `idx` of `node`: creations start classes, must-joins stop them.
    fn step(&self, state: &mut (Bits, Bits), node: NodeId, idx: u32) {
        for &k in self.creates.get(&(node, idx)).into_iter().flatten() {
            state.0.set(k, true);
            state.1.set(k, true);
        }
        if let Some(&k) = self.joins.get(&(node, idx)) {
            state.0.set(k, false);
            state.1.set(k, false);
        }
    }

    /// Calls `f` with every reached instruction of `main` and the (may, must) running classes
    /// before it.
    fn walk(&self, t: &Thread, mut f: impl FnMut(NodeId, u32, &(Bits, Bits))) {
        for (k, start) in self.at_start.iter().enumerate() {
            let Some(mut state) = start.clone() else {
                continue;
            };
            let node = NodeId(k as u32);
            self.enter(&mut state, node);
            let nd = &t.cfg.nodes[k];
            for idx in nd.start..nd.end {
                f(node, idx, &state);
                self.step(&mut state, node, idx);
            }
        }
    }

    /// Whether no thread in `accessors` is in `running` and each is eligible (an empty list:
    /// only `main` accesses the cell).
    fn owned(&self, running: &Bits, accessors: &[usize]) -> bool {
        (accessors.iter()).all(|&k| k != self.main && self.eligible[k] && !running.has(k))
    }
}

/// The cells instruction `idx` may read or write.
fn accessed(
    facts: &Facts<'_>,
    func: crate::ir::FuncId,
    block: crate::ir::BlockId,
    idx: u32,
) -> Vec<CellId> {
    let program = facts.program;
    let inst = &program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
    // The synchronisation function a direct call names (`lib`, not `library()`: a function
    // the program defines under such a name counts too).
    let sync = match &inst.kind {
        InstKind::Call {
            callee: crate::ir::Callee::Direct(g),
            ..
        } => program.funcs[g.index()].lib.filter(|l| l.is_sync()),
        _ => None,
    };
    let mut out: Vec<CellId> = match (&inst.kind, sync) {
        (
            InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::AtomicRmw { .. }
            | InstKind::CmpXchg { .. },
            _,
        ) => {
            let a = facts.access(func, block, idx);
            let mut v: Vec<CellId> = a.exact.iter().chain(&a.clobber).copied().collect();
            if a.read_unknown {
                v.extend(facts.memory.exposed_cells.iter().copied());
            }
            v
        }
        // The pthread synchronisation functions touch only their synchronisation objects
        // (POSIX), whatever else their arguments may reach.
        (InstKind::Call { args, .. }, Some(l)) => facts.sync_object_cells(func, l, args),
        (InstKind::MemCopy { src, .. }, _) => {
            let mut v = facts.written_cells(func, block, idx);
            v.extend(facts.memory.region(program, func, src));
            v
        }
        _ => facts.written_cells(func, block, idx),
    };
    out.sort();
    out.dedup();
    out
}

/// Whether thread `i` descends from a detached function (a function analysed on its own).
fn created_by_detached(threads: &[Thread], mut i: usize) -> bool {
    // The parent chain is acyclic (a parent is known before its child); bounded anyway.
    for _ in 0..=threads.len() {
        match threads[i].origin {
            Origin::Created { parent, .. } => {
                if threads[parent].origin == Origin::Detached {
                    return true;
                }
                i = parent;
            }
            Origin::Main | Origin::Detached => return false,
        }
    }
    true
}

/// Instructions of one thread: `main`'s single-threaded ones, its mixed ones, and those that
/// end its single-threaded phase on some path.
type Phases = (
    BTreeSet<(NodeId, u32)>,
    BTreeSet<(NodeId, u32)>,
    BTreeSet<(NodeId, u32)>,
);

/// The instructions of `main` that run before it may have created a thread (`single`: no path
/// from the entry to them passes a creation), and those that some path reaches after a
/// creation and some path without one (`mixed`), and the first creation (or call) of a node
/// that some path reaches without one (`ends`). All are empty for other threads.
fn single_threaded(facts: &Facts<'_>, t: &Thread) -> Phases {
    let mut single = BTreeSet::new();
    let mut mixed = BTreeSet::new();
    let mut ends = BTreeSet::new();
    if t.origin != Origin::Main {
        return (single, mixed, ends);
    }
    let cfg = &t.cfg;
    let program = facts.program;
    let is_create = |n: usize, idx: u32| {
        let nd = &cfg.nodes[n];
        let func = cfg.contexts[nd.ctx.0 as usize].func;
        matches!(
            program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize].kind,
            InstKind::ThreadCreate { .. } | InstKind::Call { .. }
        )
    };
    let mut order: Vec<usize> = (0..cfg.nodes.len())
        .filter(|n| t.shape.rpo[*n] != u32::MAX)
        .collect();
    order.sort_by_key(|n| t.shape.rpo[*n]);
    let has_create: Vec<bool> = (0..cfg.nodes.len())
        .map(|n| {
            let nd = &cfg.nodes[n];
            t.shape.rpo[n] != u32::MAX && (nd.start..nd.end).any(|k| is_create(n, k))
        })
        .collect();
    // May-analysis: `created[n]` if some path to the end of node `n` passed a create (or a
    // call that is not inlined, which might create one). Must-analysis (greatest fixpoint):
    // `surely[n]` if every path to the end of node `n` did.
    let entry = order.first().copied();
    let mut created = vec![false; cfg.nodes.len()];
    let mut surely = vec![true; cfg.nodes.len()];
    let reached = |p: usize| t.shape.rpo[p] != u32::MAX;
    let mut changed = true;
    while changed {
        changed = false;
        for &n in &order {
            let preds = t.shape.pred[n]
                .iter()
                .map(|p| p.index())
                .filter(|&p| reached(p));
            let may_in = preds.clone().any(|p| created[p]);
            let must_in = Some(n) != entry && preds.clone().all(|p| surely[p]);
            let may_out = may_in || has_create[n];
            let must_out = must_in || has_create[n];
            if may_out && !created[n] {
                created[n] = true;
                changed = true;
            }
            if !must_out && surely[n] {
                surely[n] = false;
                changed = true;
            }
        }
    }
    for &n in &order {
        let preds = t.shape.pred[n]
            .iter()
            .map(|p| p.index())
            .filter(|&p| reached(p));
        let may_in = preds.clone().any(|p| created[p]);
        let must_in = Some(n) != entry && preds.clone().all(|p| surely[p]);
        if must_in {
            continue;
        }
        let nd = &cfg.nodes[n];
        for k in nd.start..nd.end {
            let at = (NodeId(n as u32), k);
            if is_create(n, k) {
                ends.insert(at);
                break;
            }
            if may_in {
                mixed.insert(at);
            } else {
                single.insert(at);
            }
        }
    }
    (single, mixed, ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::testing::{with_fixpoint, FLOW_INSENSITIVE};

    /// Whether `g` is protected in `src`, whose `main` creates workers that write `g` under `m`
    /// and then reads `g` without it.
    fn g_protected(main: &str, worker_end: &str) -> bool {
        let src = format!(
            r#"
            #include <pthread.h>
            int g;
            pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
            static void *worker(void *a) {{ (void)a;
                pthread_mutex_lock(&m); g = 1; g = 0; {worker_end} return 0; }}
            int main(void) {{ pthread_t a, b; {main} return 0; }}
            "#
        );
        with_fixpoint(&src, FLOW_INSENSITIVE, |program, facts, fix| {
            let g = (program.globals.iter()).find(|x| x.name == "g").expect("g");
            let g = facts.memory.cells.of(g.obj).next().expect("a cell");
            Protection::compute(facts, &fix.threads).is_protected(g)
        })
    }

    const UNLOCK: &str = "pthread_mutex_unlock(&m);";
    const BOTH: &str = "pthread_create(&a, 0, worker, 0); pthread_create(&b, 0, worker, 0);";

    #[test]
    fn main_reads_without_the_lock_after_joining_every_writer() {
        let joined = format!("{BOTH} pthread_join(a, 0); pthread_join(b, 0); return g;");
        assert!(g_protected(&joined, UNLOCK));
    }

    #[test]
    fn a_read_while_a_writer_may_run_is_not_exempt() {
        for main in [
            // One of the two writers is not joined.
            format!("{BOTH} pthread_join(a, 0); return g;"),
            // The read comes before the joins.
            format!("{BOTH} int v = g; pthread_join(a, 0); pthread_join(b, 0); return v;"),
            // A writer is created after the other's join.
            "pthread_create(&a, 0, worker, 0); pthread_join(a, 0); \
             pthread_create(&b, 0, worker, 0); return g;"
                .to_string(),
            // One handle written by two creates: the join may wait for either.
            "pthread_create(&a, 0, worker, 0); pthread_create(&a, 0, worker, 0); \
             pthread_join(a, 0); return g;"
                .to_string(),
        ] {
            assert!(!g_protected(&main, UNLOCK), "{main}");
        }
    }

    #[test]
    fn a_writer_that_may_end_holding_the_lock_leaves_no_exemption() {
        let joined = format!("{BOTH} pthread_join(a, 0); pthread_join(b, 0); return g;");
        assert!(!g_protected(&joined, ""));
        assert!(!g_protected(&joined, "if (a) pthread_mutex_unlock(&m);"));
    }
}
