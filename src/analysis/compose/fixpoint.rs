//! The thread-modular fixpoint (FSE'16, Alg. 2): analyse every thread under the interference of
//! the others, recompute what each thread stores, repeat until nothing grows.
//!
//! Threads are discovered as the analysis reaches `pthread_create`: each create site (in one
//! inlined context of one thread) with one entry function is one thread, which starts from the
//! abstract state at the call. A site on a cycle of its thread, or in a thread that runs many
//! times, stands for many instances, which interfere with each other.
//!
//! Invariant: interference and entry states only grow (joins, then widening), so the rounds
//! terminate; at the end, every thread's last analysis ran under the final inputs (a thread is
//! skipped in a round only when none of its inputs changed since its last analysis, see
//! `Schedule::quiet_since`).
//!
//! `run` discovers threads (`spawn`: a created thread gets the parent's memory except the
//! `per_thread` cells, which hold their initial value) and iterates until stores and entry states
//! stop growing: join for two rounds, then widen; what threads store and publish is widened to the
//! next of the cell's thresholds before infinity (`Facts::thresholds`). It keeps three vectors at
//! the same indices: the threads' static facts (`threads::Thread`), what the fixpoint found of each
//! (`ThreadResults`) and their scheduling (`Schedule`). A thread's node states are kept only where
//! something reads them (the flow-sensitive plans; `watts invariants` through
//! `Composition::keep_states`, which also keeps what each load read, `ThreadResults::reads`);
//! otherwise they are dropped after its replay, so that the peak holds one thread's states.
//!
//! `interference_for` gives a thread the join of every other thread's stores (its own too when it
//! has many instances), over each thread's `written` cells only; of a `thread_private` cell only
//! the stores of functions analysed on their own (`reaches_thread_local`: they run inside any
//! thread, writing that thread's copy), so neither another thread nor another instance reaches a
//! thread's copy.
//!
//! Invariant (mode order): a store event's values in a cell are within the thread's `stores` of
//! that cell (`accumulate_events` meets them with it after widening), so a flow-sensitive load that
//! reads a store never reads more than the flow-insensitive interference of its cell
//! (tests/corpus/16-edges/mo-*.c).
//!
//! Scheduling: a clock `epoch` orders changes: `struct_epoch` (threads, instances, entry states,
//! protection), `oracle_epoch`, and `cell_epoch` per cell (new stores or store events of any
//! thread); a thread is skipped while none of those it depends on moved past its `quiet_since`
//! (`is_quiet`, D8), `Schedule::reads` being the cells its loads may read, and the oracle counting
//! only for a thread whose last plan read it (`ThreadResults::reads_oracle`). A flow-sensitive
//! thread that reaches a node with a load for the first time (`ThreadResults::reached_loads`, which
//! only grows) makes another round, since its plan gives choices only to loads the last analysis
//! reached. A thread that reads its own result is never quiet: a multi-instance thread whose
//! outputs changed, a flow-sensitive thread whose reachable load nodes moved, a thread that
//! published a new protected value. Each thread keeps what its last analysis observed (`observed`,
//! `unknown_calls`, `fell_back`); the verdicts merge these in thread order, so a thread that was
//! not re-analysed still counts.
//!
//! Memory budget: it stops a plan (`Plan::over_memory`: combinations are made lazily by `by_cuts`
//! and dropped past the budget), a round (`Round::over_memory`, between combinations) and the
//! rounds (`Fixpoint::over_memory`, which implies `gave_up`). `verdict` then replaces a
//! flow-sensitive fixpoint by the flow-insensitive one with a note, and a flow-insensitive one that
//! also stops yields may-fail for every assertion with the reason, and a note that the notes may be
//! incomplete (also without assertions). Invariant: a fixpoint that stopped for memory never yields
//! a verdict other than may-fail; the budget only changes precision and time.

use super::composition::Composition;
use super::interference::inputs_for;
use super::results::{AssertObs, ComboStats, Fixpoint, StoreEv, ThreadResults, Threads};
use super::step;
use crate::analysis::engine::Relations;
use crate::analysis::engine::{set_passed, ThreadView, Transfer};
use crate::analysis::progress;
use crate::analysis::sync::protection::Protection;
use crate::facts::Facts;
use crate::ir::{FuncId, InitValue, InstKind, ObjectKind};
use crate::memory::{cells::normalize, CellId, Lookup};
use crate::threads::{InlineBudget, NodeId, Origin, Thread};
use std::collections::{BTreeMap, BTreeSet};
use watts_domains::{Interval, Lattice, NumDomain};

use crate::limits::{JOIN_ROUNDS, MAX_ROUNDS};

/// The threads found so far, with their results and scheduling, at the same indices.
struct Found<D> {
    threads: Vec<Thread>,
    results: Vec<ThreadResults<D>>,
    schedule: Vec<Schedule>,
}

impl<D> Found<D> {
    fn push(&mut self, thread: Thread, entry_state: D, ncells: usize) {
        self.threads.push(thread);
        self.results.push(ThreadResults::new(entry_state, ncells));
        self.schedule.push(Schedule::default());
    }

    fn view(&self) -> Threads<'_, D> {
        Threads {
            info: &self.threads,
            results: &self.results,
        }
    }
}

/// When a thread may be skipped (see `is_quiet`).
#[derive(Default)]
struct Schedule {
    /// `Some(e)`: its last analysis ended when the change counter was `e`, and nothing that
    /// analysis changed is an input of this thread itself (it has one instance, published no
    /// new protected value, and the nodes with loads stayed as reachable). While no input of it
    /// changed after `e` (see `is_quiet`), analysing it again would give the same result.
    quiet_since: Option<u64>,
    /// The cells its loads may read, computed once.
    reads: Option<Vec<usize>>,
}

/// Runs the thread-modular analysis from `main`.
pub fn run<D: NumDomain>(
    facts: &Facts<'_>,
    main: FuncId,
    detached: &[FuncId],
    how: Composition,
) -> Fixpoint<D> {
    let program = facts.program;
    let ncells = facts.ncells as usize;
    let budget = InlineBudget::default();
    let mut found = Found {
        threads: Vec::new(),
        results: Vec::new(),
        schedule: Vec::new(),
    };
    let resolved = facts.resolution();
    let main_thread = Thread::new(
        program,
        "main".into(),
        Origin::Main,
        main,
        false,
        budget,
        resolved,
    );
    found.push(main_thread, initial_state(facts), ncells);
    let mut detached_queue: Vec<FuncId> = detached.to_vec();
    // A function analysed on its own leaves the calls of the functions analysed on their own
    // from the start as calls (`Thread::detached`).
    let mut apart = detached.to_vec();
    apart.sort_unstable();
    apart.dedup();
    let mut detached_done: BTreeSet<FuncId> = BTreeSet::new();
    let mut rounds = 0;
    let mut gave_up = false;
    let mut over_memory = false;
    let mut combos = ComboStats::default();
    // A clock of changes (see `Schedule::quiet_since`): when the structure last changed
    // (threads, instances, entry states, protection), when the oracle's facts last changed,
    // and when each cell's stores last changed.
    let mut epoch: u64 = 0;
    let mut struct_epoch: u64 = 0;
    let mut oracle_epoch: u64 = 0;
    let mut cell_epoch: Vec<u64> = vec![0; ncells];
    // The mode's step for created threads; functions analysed on their own read joined
    // interference in every mode (their store events still feed the others' combinations).
    let mut step = step::for_mode::<D>(how);
    let mut detached_step = step::Joined {
        record_events: how.flow_sensitive(),
    };
    let mut protection = Protection::default();
    let mut next_protection: Option<Protection> = None;
    let initial_d: D = initial_state(facts);
    let initial: Vec<Interval> = (0..facts.ncells)
        .map(|c| initial_d.interval(watts_domains::Var(c)))
        .collect();
    loop {
        rounds += 1;
        combos.fallback_threads.clear();
        let mut changed = false;
        // Functions not inlined somewhere are analysed on their own, from an unknown state.
        for t in &found.threads {
            detached_queue.extend(t.cfg.opaque_callees.iter().copied());
        }
        while let Some(f) = detached_queue.pop() {
            if detached_done.insert(f) {
                let t = Thread::detached(program, f, budget, &apart, resolved);
                found.push(t, D::top(), ncells);
                changed = true;
            }
        }
        // Computed at the end of the last round, unless detached functions came in since.
        let now = match next_protection.take() {
            Some(p) if !changed => p,
            _ if how.protection => Protection::compute(facts, &found.threads),
            _ => Protection::default(),
        };
        if now != protection {
            // Loads and lock hand-overs of every thread change with it.
            changed = true;
            protection = now;
        }
        if changed {
            epoch += 1;
            struct_epoch = epoch;
        }
        let mut i = 0;
        while i < found.threads.len() {
            if crate::error::over_memory_budget() {
                over_memory = true;
                break;
            }
            progress::set(Some(progress::Position {
                mode: how.mode,
                round: rounds,
                thread: i + 1,
                threads: found.threads.len(),
                name: found.threads[i].name.clone(),
            }));
            if found.schedule[i].reads.is_none() {
                found.schedule[i].reads = Some(cells_read(facts, &found.threads[i]));
            }
            let epochs = Epochs {
                structure: struct_epoch,
                oracle: oracle_epoch,
                cells: &cell_epoch,
            };
            let reads_oracle = found.results[i].reads_oracle;
            if is_quiet(&found.schedule[i], reads_oracle, epochs, &protection) {
                if found.results[i].fell_back {
                    combos.fallbacks += 1;
                    combos
                        .fallback_threads
                        .insert(found.threads[i].name.clone());
                }
                i += 1;
                continue;
            }
            let (interference, relations) =
                inputs_for(facts, found.view(), i, &protection, &initial_d);
            let cx = step::Context {
                facts,
                threads: found.view(),
                i,
                interference: &interference,
                protection: &protection,
                relations: &relations,
                keep_reads: how.keep_states,
            };
            let round = if found.threads[i].origin == Origin::Detached {
                step::Step::<D>::analyse(&mut detached_step, &cx, &mut combos)
            } else {
                step.analyse(&cx, &mut combos)
            };
            if round.over_memory {
                over_memory = true;
                break;
            }
            if round.fell_back {
                combos.fallbacks += 1;
                combos
                    .fallback_threads
                    .insert(found.threads[i].name.clone());
            }
            if let Some(o) = step.oracle() {
                found.results[i].reads_oracle = o.take_used();
                // New facts are a new input of every plan that read the oracle (this one
                // read the new facts already: its `quiet_since` comes later).
                if o.take_rebuilt() {
                    epoch += 1;
                    oracle_epoch = epoch;
                }
            }
            let step::Round {
                states,
                sink,
                observed,
                called,
                pruned,
                fell_back,
                over_memory: _,
            } = round;
            let widen = rounds > JOIN_ROUNDS;
            let r = &mut found.results[i];
            r.fell_back = fell_back;
            r.pruned = pruned;
            let mut changed_cells = accumulate(facts, &mut r.stores, &sink.stores, widen);
            changed_cells.extend(accumulate_events(
                &mut r.events,
                sink.events,
                widen,
                &r.stores,
            ));
            r.events_by_cell = std::sync::OnceLock::new();
            // A cell newly written by a wide store changes how its loads are planned.
            changed_cells.extend(r.wide.union_with(&sink.wide));
            // What of its own result a thread reads in the next round: its stores if it has
            // several instances, the oracle's facts (built from every thread's store events),
            // and the plan skips loads at nodes unreachable in this round.
            let t = &found.threads[i];
            let reach = load_reach(facts, t, &states);
            let moved = how.flow_sensitive() && load_reach(facts, t, &r.states) != reach;
            // A load reached for the first time gets choices only in the next plan: another
            // round then (the union of what was reached only grows, so this ends).
            let reached_more = how.flow_sensitive() && {
                r.reached_loads.resize(reach.len(), false);
                let mut grew = false;
                for (seen, now) in r.reached_loads.iter_mut().zip(&reach) {
                    grew |= *now && !*seen;
                    *seen |= *now;
                }
                grew
            };
            changed |= reached_more;
            r.reached = states.iter().map(|s| !s.is_bottom()).collect();
            // The flow-sensitive plans read the states (which loads are reached).
            r.states = if how.flow_sensitive() || how.keep_states {
                states
            } else {
                Vec::new()
            };
            r.reads = sink.reads.unwrap_or_default();
            r.observed = observed;
            r.unknown_calls = called;
            // A thread reads what it published itself when it takes the lock again.
            let mut republished = accumulate(facts, &mut r.published, &sink.published, widen);
            for m in accumulate_relations(&mut r.published_rel, sink.published_rel, widen) {
                republished.extend(protection.cells_of(m).iter().map(|c| c.index()));
            }
            let republished = !republished.is_empty() && {
                changed_cells.extend(republished);
                true
            };
            r.written = written_cells(&r.stores);
            let mut spawned = false;
            for (node, inst, state) in sink.creates {
                spawned |= spawn(
                    facts, &mut found, i, node, inst, &state, &initial, rounds, budget,
                );
            }
            let own = !changed_cells.is_empty() || spawned;
            if own {
                changed = true;
                epoch += 1;
                for c in changed_cells {
                    cell_epoch[c] = epoch;
                }
                if spawned {
                    // New threads, new instances or new entry states.
                    struct_epoch = epoch;
                }
            }
            let reads_itself = moved || republished || (own && found.threads[i].multi);
            found.schedule[i].quiet_since = (!reads_itself).then_some(epoch);
            i += 1;
        }
        // Threads created in this round may take protection away: run another round then.
        if how.protection {
            let next = Protection::compute(facts, &found.threads);
            changed |= next != protection;
            next_protection = Some(next);
        }
        if over_memory || crate::error::over_memory_budget() {
            over_memory = true;
            gave_up = true;
            break;
        }
        if !changed {
            break;
        }
        if rounds >= MAX_ROUNDS {
            gave_up = true;
            break;
        }
    }
    progress::set(None);
    combos.oracle_too_big = step.oracle().and_then(|o| o.too_big());
    // The observations of the last analysis of every thread, in thread order (the first
    // explanation found wins, as when every thread ran in the last round).
    let mut asserts = vec![AssertObs::default(); program.asserts.len()];
    let mut unknown_calls = BTreeSet::new();
    for r in &found.results {
        for (acc, o) in asserts.iter_mut().zip(&r.observed) {
            acc.merge(o);
        }
        unknown_calls.extend(r.unknown_calls.iter().copied());
    }
    let protectable = how.protection || Protection::compute(facts, &found.threads).any();
    Fixpoint {
        protectable,
        protection,
        threads: found.threads,
        results: found.results,
        rounds,
        gave_up,
        over_memory,
        asserts,
        unknown_calls,
        combos,
    }
}

/// For each node of `t` with a load, whether `states` may reach it (all of them before the
/// first analysis): the part of the states that the next round's plan reads.
fn load_reach<D: NumDomain>(facts: &Facts<'_>, t: &Thread, states: &[D]) -> Vec<bool> {
    let program = facts.program;
    (t.cfg.nodes.iter().enumerate())
        .filter(|(_, nd)| {
            let func = t.cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &program.funcs[func.index()].blocks[nd.block.index()].insts;
            (nd.start..nd.end).any(|k| matches!(insts[k as usize].kind, InstKind::Load { .. }))
        })
        .map(|(n, _)| states.get(n).is_none_or(|s| !s.is_bottom()))
        .collect()
}

/// `acc[m] := acc[m] ⊔ new[m]` for each lock (or `acc[m] ∇ (acc[m] ⊔ new[m])` once `widen`);
/// the locks whose relations grew.
fn accumulate_relations<D: NumDomain>(
    acc: &mut Relations<D>,
    new: Relations<D>,
    widen: bool,
) -> Vec<u32> {
    let mut grown = Vec::new();
    for (m, n) in new {
        match acc.get_mut(&m) {
            None => {
                acc.insert(m, n);
                grown.push(m);
            }
            Some(a) => {
                let mut j = a.clone();
                j.join_with(&n);
                if j.leq(a) {
                    continue;
                }
                if widen {
                    a.widen_with(&j);
                } else {
                    *a = j;
                }
                grown.push(m);
            }
        }
    }
    grown
}

/// The cells `stores` does not map to bottom.
fn written_cells(stores: &[Interval]) -> Vec<usize> {
    (stores.iter().enumerate())
        .filter(|(_, s)| !s.is_bottom())
        .map(|(c, _)| c)
        .collect()
}

/// `acc := acc ⊔ new` (or `acc ∇ (acc ⊔ new)` once `widen`, with the cell's thresholds,
/// `Facts::thresholds`); the cells where `acc` grew.
fn accumulate(
    facts: &Facts<'_>,
    acc: &mut [Interval],
    new: &[Interval],
    widen: bool,
) -> Vec<usize> {
    let mut changed = Vec::new();
    for (c, (a, n)) in acc.iter_mut().zip(new).enumerate() {
        let mut j = *a;
        if j.join_with(n) {
            changed.push(c);
            if widen {
                a.widen_with_thresholds(&j, facts.thresholds(CellId(c as u32)));
            } else {
                *a = j;
            }
        }
    }
    changed
}

/// Accumulates per-store values like `accumulate`, each kept within what the thread may store
/// into the cell (`bound`, its `stores` already accumulated this round); returns the cells of
/// the stores that grew or appeared (what other threads' candidate stores are made of).
///
/// Soundness: `bound[c]` holds every value any round recorded into `c`, so the meet keeps every
/// value the store wrote. It is what keeps the modes ordered: widened on their own, the values
/// of one store may grow past the thread's `stores` (a store that grows within the range of
/// another store of the cell is widened, the thread's `stores` is not), and a flow-sensitive
/// load reading the store would see more than the flow-insensitive interference
/// (tests/corpus/16-edges/mo-03-widened-store.c).
/// Termination: between two changes of `bound`, a bound of a value that grows is widened to
/// infinity and clipped to `bound`'s, which no new value exceeds, so it grows at most once;
/// `bound` itself changes finitely often (`accumulate` widens).
fn accumulate_events(
    acc: &mut BTreeMap<(NodeId, u32), StoreEv>,
    new: BTreeMap<(NodeId, u32), StoreEv>,
    widen: bool,
    bound: &[Interval],
) -> Vec<usize> {
    let mut changed: Vec<usize> = Vec::new();
    for (k, ev) in new {
        let old = acc.entry(k).or_default();
        // Only the cells whose values grew change what loads of them may read.
        for (c, v) in ev.cells {
            match old.cells.get_mut(&c) {
                None => {
                    old.cells.insert(c, v);
                    changed.push(c.index());
                }
                Some(a) => {
                    let mut j = *a;
                    if j.join_with(&v) {
                        changed.push(c.index());
                        if widen {
                            a.widen_with(&j);
                            a.meet_with(&bound[c.index()]);
                        } else {
                            *a = j;
                        }
                    }
                }
            }
        }
    }
    changed
}

/// When things last changed (see `Schedule::quiet_since`).
#[derive(Clone, Copy)]
struct Epochs<'a> {
    /// Threads, instances, entry states, protection.
    structure: u64,
    /// The oracle's facts.
    oracle: u64,
    /// Per cell, its stores or store events.
    cells: &'a [u64],
}

/// Whether thread `t` may be skipped: its last analysis read nothing of itself, and since it
/// ended no structure changed (threads, instances, entry states, protection; the oracle's
/// facts if its plan read the oracle) and no cell it may read (for protected cells: any, since
/// it refreshes them at its locks) got a new store.
///
/// Soundness: a thread's analysis is a deterministic function of exactly these inputs (D8).
/// A plan that did not read the oracle (no load had a candidate store: `collect` asks for the
/// oracle whenever one has) is the same whatever its facts; whether a load has candidates
/// depends on the threads (structure) and the store events of the cells it reads (cells).
fn is_quiet(t: &Schedule, reads_oracle: bool, epochs: Epochs<'_>, protection: &Protection) -> bool {
    let Some(seen) = t.quiet_since else {
        return false;
    };
    let cell_epoch = epochs.cells;
    if epochs.structure > seen {
        return false;
    }
    if reads_oracle && epochs.oracle > seen {
        return false;
    }
    let protected = (protection.lock_of.iter().enumerate())
        .filter(|(_, l)| l.is_some())
        .map(|(c, _)| c);
    let reads = t.reads.as_deref().unwrap_or_default();
    (reads.iter().copied())
        .chain(protected)
        .all(|c| cell_epoch[c] <= seen)
}

/// The cells whose interference the loads (and atomic read-modify-writes) of thread `t` read.
fn cells_read(facts: &Facts<'_>, t: &Thread) -> Vec<usize> {
    let mut out = BTreeSet::new();
    for nd in &t.cfg.nodes {
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
        for idx in nd.start..nd.end {
            if let InstKind::Load { .. } | InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. } =
                insts[idx as usize].kind
            {
                // A load of bytes outside the named cells reads any value without looking
                // at the interference (`Transfer::inst_effect`): only its cells count.
                let a = facts.access(func, nd.block, idx);
                out.extend(a.exact.iter().map(|c| c.index()));
            }
        }
    }
    out.into_iter().collect()
}

/// Registers (or updates) the threads a `pthread_create` reached by thread `parent` starts;
/// `initial` holds the initial value of every cell.
#[allow(clippy::too_many_arguments)]
fn spawn<D: NumDomain>(
    facts: &Facts<'_>,
    found: &mut Found<D>,
    parent: usize,
    node: NodeId,
    inst: u32,
    state: &D,
    initial: &[Interval],
    rounds: usize,
    budget: InlineBudget,
) -> bool {
    let program = facts.program;
    let (ctx, block) = {
        let n = &found.threads[parent].cfg.nodes[node.index()];
        (n.ctx, n.block)
    };
    let func = found.threads[parent].cfg.contexts[ctx.0 as usize].func;
    let InstKind::ThreadCreate { entry, arg, .. } =
        &program.funcs[func.index()].blocks[block.index()].insts[inst as usize].kind
    else {
        return false;
    };
    let (mut entries, unknown) = facts.memory.pts.callees(program, func, entry);
    // Soundness: an entry the program does not define (a pointer from `dlsym`, a library
    // function) runs code the analysis cannot see; the function that stands for such code
    // (`Program::unknown_code`, added whenever a creation names an entry that is not a
    // defined function) runs instead, writing any memory whose address escaped.
    if unknown || entries.iter().any(|g| !program.funcs[g.index()].is_defined) {
        entries.extend(program.unknown_code);
    }
    let arg_value = {
        let view = ThreadView {
            cfg: &found.threads[parent].cfg,
            interference: &[],
            choices: None,
            protection: None,
            skip: None,
        };
        let t = Transfer {
            facts,
            view: &view,
            relations: None,
        };
        t.value(state, ctx, arg)
    };
    let many = found.threads[parent].multi || found.threads[parent].shape.in_cycle[node.index()];
    let mut changed = false;
    for g in entries {
        let gf = &program.funcs[g.index()];
        if !gf.is_defined {
            continue;
        }
        // Child entry: the parent's memory, and the argument in the first parameter.
        let mut child_state = state.intervals_below(facts.ncells);
        // A new thread's copy of a thread-local variable holds the initial value, whatever
        // the parent's copy holds.
        for c in facts.memory.per_thread_cells() {
            child_state.set(watts_domains::Var(c.0), initial[c.index()]);
        }
        if let Some(p) = gf.params.first() {
            let var = watts_domains::Var(facts.ncells + p.0);
            set_passed(
                program,
                &mut child_state,
                var,
                gf.vars[p.index()].ty,
                arg_value,
            );
        }
        let origin = Origin::Created { parent, node, inst };
        // A thread that (transitively) creates its own kind from the same site is one
        // multi-instance thread, so that thread creation chains stay finite.
        let existing = (found.threads.iter())
            .position(|t| t.origin == origin && t.entry == g)
            .or_else(|| same_site_ancestor(&found.threads, parent, g, func, block, inst));
        match existing {
            Some(k) => {
                let r = &mut found.results[k];
                let mut joined = r.entry_state.clone();
                if joined.join_with(&child_state) {
                    if rounds > JOIN_ROUNDS {
                        r.entry_state.widen_with(&joined);
                    } else {
                        r.entry_state = joined;
                    }
                    changed = true;
                }
                let t = &mut found.threads[k];
                let recreated = !matches!(&t.origin, Origin::Created { parent: p, node: n, inst: i } if *p == parent && *n == node && *i == inst);
                if (many || recreated) && !t.multi {
                    t.multi = true;
                    changed = true;
                }
            }
            None => {
                let count = found.threads.iter().filter(|t| t.entry == g).count();
                let name = if count == 0 {
                    gf.name.clone()
                } else {
                    format!("{}#{}", gf.name, count + 1)
                };
                let t = Thread::new(program, name, origin, g, many, budget, facts.resolution());
                found.push(t, child_state, facts.ncells as usize);
                changed = true;
            }
        }
    }
    changed
}

/// An ancestor of `parent` (or `parent` itself) that runs `g` and was created by the same
/// source-level `pthread_create` instruction.
fn same_site_ancestor(
    threads: &[Thread],
    parent: usize,
    g: FuncId,
    func: FuncId,
    block: crate::ir::BlockId,
    inst: u32,
) -> Option<usize> {
    let mut cur = Some(parent);
    while let Some(k) = cur {
        let t = &threads[k];
        if t.entry == g {
            if let Origin::Created {
                parent: p,
                node,
                inst: i,
            } = &t.origin
            {
                let pn = &threads[*p].cfg.nodes[node.index()];
                let pf = threads[*p].cfg.contexts[pn.ctx.0 as usize].func;
                if pf == func && pn.block == block && *i == inst {
                    return Some(k);
                }
            }
        }
        cur = match &t.origin {
            Origin::Created { parent: p, .. } => Some(*p),
            _ => None,
        };
    }
    None
}

/// The state of memory when `main` starts: globals hold their initializers, everything else
/// (uninitialized locals, external globals) any value.
pub fn initial_state<D: NumDomain>(facts: &Facts<'_>) -> D {
    let program = facts.program;
    let cells = &facts.memory.cells;
    let mut s = D::top();
    for g in &program.globals {
        let obj = &program.objects[g.obj.index()];
        let Some(init) = &g.init else { continue };
        let Some(layout) = obj.layout.as_ref() else {
            continue;
        };
        let mut vals: BTreeMap<CellId, (Interval, u64)> = BTreeMap::new();
        let mut spoiled: BTreeSet<CellId> = BTreeSet::new();
        for ic in init {
            let v = match ic.value {
                InitValue::Int(x) => Interval::constant(x),
                _ => Interval::top(),
            };
            match cells.lookup(Some(layout), g.obj, ic.offset, ic.size) {
                Some(Lookup::Exact(c)) => {
                    let e = vals.entry(c).or_insert((Interval::bottom(), 0));
                    e.0.join_with(&v);
                    e.1 += 1;
                }
                Some(Lookup::Overlap(cs)) => spoiled.extend(cs),
                None => {}
            }
        }
        let _ = normalize;
        for c in cells.of(g.obj) {
            let info = cells.info(c);
            let v = if spoiled.contains(&c) || info.kind != crate::ir::ScalarKind::Int {
                Interval::top()
            } else {
                match vals.get(&c) {
                    // Every instance of the cell has an initializer.
                    Some((v, n)) if *n >= info.instances => *v,
                    // Soundness: uncovered bytes of a defined global are zero.
                    Some((v, _)) => v.join(&Interval::constant(0)),
                    None => Interval::constant(0),
                }
            };
            s.set(watts_domains::Var(c.0), v);
        }
    }
    let _ = ObjectKind::Heap;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use watts_domains::IntervalEnv;

    /// One store that writes 2 into one cell and any value into another keeps the two apart,
    /// and its widened values stay within the thread's values of the cell (mode order:
    /// tests/corpus/16-edges/mo-01 and mo-03).
    #[test]
    fn store_events_keep_values_per_cell_within_the_thread_stores() {
        let k = (NodeId(3), 1);
        let (c0, c1) = (CellId(0), CellId(1));
        let event = |cells: &[(CellId, Interval)]| {
            let mut ev = StoreEv::default();
            for (c, v) in cells {
                ev.add(*c, *v);
            }
            BTreeMap::from([(k, ev)])
        };
        let bound = [Interval::new(0, 5), Interval::top()];
        let mut acc = BTreeMap::new();
        let changed = accumulate_events(
            &mut acc,
            event(&[(c0, Interval::constant(2)), (c1, Interval::top())]),
            false,
            &bound,
        );
        assert_eq!(changed, vec![0, 1]);
        assert_eq!(acc[&k].value_into(&[c0]), Interval::constant(2));
        assert_eq!(acc[&k].value_into(&[c1]), Interval::top());
        // Widening sends the upper bound to infinity; the thread's values of c0 bring it back.
        let changed =
            accumulate_events(&mut acc, event(&[(c0, Interval::new(0, 3))]), true, &bound);
        assert_eq!(changed, vec![0]);
        assert_eq!(acc[&k].value_into(&[c0]), Interval::new(0, 5));
        // Nothing new: nothing changes.
        let changed =
            accumulate_events(&mut acc, event(&[(c0, Interval::new(1, 5))]), true, &bound);
        assert!(changed.is_empty());
    }

    /// `main` creates a reader, then stores: the reader's loads have `main`'s stores as
    /// candidates (stores before the create would be in its entry state instead).
    const SRC: &str = r#"
        #include <assert.h>
        #include <pthread.h>
        int ready, x;
        static void *reader(void *a) { (void)a;
            int r = ready;
            if (r) { int v = x; assert(v == 1); }
            return 0; }
        int main(void) {
            pthread_t t;
            pthread_create(&t, 0, reader, 0);
            x = 1; ready = 1;
            pthread_join(t, 0);
            return 0; }
    "#;

    /// Compiles `SRC` and runs the fixpoint in the constraints mode on it.
    fn with_fixpoint<R>(run: impl FnOnce(&Facts<'_>, Fixpoint<IntervalEnv>) -> R) -> R {
        let how = Composition::of(crate::config::Mode::Constraints, 1000, 1);
        crate::analysis::testing::with_fixpoint(SRC, how, |_, facts, fix| run(facts, fix))
    }

    #[test]
    fn only_plans_with_candidate_stores_read_the_oracle() {
        with_fixpoint(|_, fix| {
            let by_name = |n: &str| {
                let i = (fix.threads.iter()).position(|t| t.name == n).expect(n);
                &fix.results[i]
            };
            // `main` loads no cell another thread stores: its plan never needs the oracle.
            assert!(!by_name("main").reads_oracle);
            // The reader's loads may read `main`'s stores: its plan asked the oracle.
            assert!(by_name("reader").reads_oracle);
            assert!(fix.combos.queries > 0);
        });
    }

    #[test]
    fn new_oracle_facts_wake_exactly_the_threads_that_read_the_oracle() {
        with_fixpoint(|facts, fix| {
            let protection = Protection::default();
            let cells = vec![0u64; fix.results[0].stores.len()];
            let i = (fix.threads.iter()).position(|t| t.name == "reader");
            let reads = Some(cells_read(facts, &fix.threads[i.expect("reader")]));
            let t = Schedule {
                quiet_since: Some(5),
                reads,
            };
            let epochs = |oracle| Epochs {
                structure: 5,
                oracle,
                cells: &cells,
            };
            assert!(is_quiet(&t, true, epochs(5), &protection));
            // Soundness: the shortcut must not fire for a plan that read the oracle.
            assert!(!is_quiet(&t, true, epochs(6), &protection));
            assert!(is_quiet(&t, false, epochs(6), &protection));
            // Other structural changes still wake it.
            let moved = Epochs {
                structure: 6,
                ..epochs(0)
            };
            assert!(!is_quiet(&t, true, moved, &protection));
        });
    }
}
