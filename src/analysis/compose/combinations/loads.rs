//! The shared loads of one thread in one round and their choices: a load outside loops of cells
//! that other threads store gets its own view, one group per value of its candidate stores and
//! (constraint modes) "not reached"; a load in a loop reads the join of the stores that need not
//! happen after it; the exit read of a wait loop gets choices of its own.
//!
//! Invariant (soundness): a load left out reads its own view joined with the whole interference
//! of its cells; a load with a fixed reading reads at least what any execution reads there.

use super::candidates::candidates_for;
use super::choices::{Candidate, Choice, Key, SharedLoad};
use super::reductions::{created_after_load, drop_inherited, drop_redundant_own};
use super::sources::{Source, SourceCache, SourceFinder};
use crate::analysis::compose::results::Threads;
use crate::analysis::engine::LoadRead;
use crate::analysis::sync::feasibility::{Feasibility, LazyOracle};
use crate::analysis::sync::protection::Protection;
use crate::facts::exit_reads::{ExitRead, EXIT_READ};
use crate::facts::Facts;
use crate::ir::{InstKind, Ty};
use crate::memory::CellId;
use crate::threads::NodeId;
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;
use watts_domains::{Interval, Lattice};

/// The loads of thread `i` with a fixed reading and those with choices (after
/// `drop_redundant_own` when there is an oracle), the oracle, and the walker of own views.
#[allow(clippy::type_complexity)]
pub(super) fn shared_loads<'a, 'f, D: watts_domains::NumDomain>(
    facts: &'a Facts<'f>,
    threads: Threads<'a, D>,
    i: usize,
    oracle: Option<&'a mut LazyOracle>,
    cache: &'a mut SourceCache,
    protection: &Protection,
) -> (
    HashMap<Key, LoadRead>,
    Vec<SharedLoad>,
    Option<&'a Feasibility>,
    SourceFinder<'a, 'f, D>,
) {
    let exits = cache.exit_reads(facts, i, &threads.info[i]);
    let (fixed, mut loads, feas) = collect(facts, threads, i, oracle, protection, &exits);
    let mut sources = SourceFinder::new(facts, threads, i, cache);
    if feas.is_some() {
        drop_redundant_own(&mut loads, &threads.info[i], &mut sources);
    }
    for l in loads.iter_mut().filter(|l| l.is_exit_read()) {
        let x = exits.iter().find(|x| x.node == l.at.0);
        l.own_value = x.and_then(|x| own_at_entry(&mut sources, threads, i, &x.entries, x.cell));
    }
    (fixed, loads, feas, sources)
}

/// The loads of thread `i` that read fixed values (`.0`) and those with choices (`.1`), and
/// the oracle (`.2`) when `oracle` is given (the constraint modes) and the plan needs it.
///
/// The oracle is read only for loads with candidate stores (their choices, and the loads in
/// loops); a thread without such loads gets `None` and leaves `oracle` unbuilt and unused, so
/// that its plan does not depend on the oracle (`LazyOracle::take_used` is false).
fn collect<'o, D: watts_domains::NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    oracle: Option<&'o mut LazyOracle>,
    protection: &Protection,
    exits: &[ExitRead],
) -> (
    HashMap<Key, LoadRead>,
    Vec<SharedLoad>,
    Option<&'o Feasibility>,
) {
    let t = &threads.info[i];
    let states = &threads.results[i].states;
    let program = facts.program;
    let constraints = oracle.is_some();
    let mut fixed: HashMap<Key, LoadRead> = HashMap::default();
    let mut loads: Vec<SharedLoad> = Vec::new();
    // Loads in loops with their candidates (a shared list and the threads the load cannot read
    // from), resolved once the oracle is known.
    let mut looped: Vec<(Key, Rc<Vec<Candidate>>, Vec<usize>)> = Vec::new();
    // The candidate lists per set of cells read: a cell is read by many loads (one per inlined
    // copy of a function), and each would list the same stores. Built once, after the
    // reduction that does not depend on the load; `.0` says whether there was a store before it.
    type Listed = Option<(bool, Rc<Vec<Candidate>>)>;
    let mut lists: HashMap<Vec<CellId>, Listed> = HashMap::default();
    for (n, nd) in t.cfg.nodes.iter().enumerate() {
        let node = NodeId(n as u32);
        if t.shape.rpo[n] == u32::MAX {
            continue;
        }
        // Soundness: a load left out reads its own view joined with all interference.
        if states.get(n).is_some_and(|s| s.is_bottom()) {
            continue;
        }
        let func = t.cfg.contexts[nd.ctx.0 as usize].func;
        for idx in nd.start..nd.end {
            let inst = &program.funcs[func.index()].blocks[nd.block.index()].insts[idx as usize];
            let InstKind::Load { ty: Ty::Int(_), .. } = inst.kind else {
                continue;
            };
            let a = facts.access(func, nd.block, idx);
            if a.exact.is_empty() || a.read_unknown {
                continue;
            }
            // A lock-protected cell reads the thread's own view (see `analysis::sync::protection`).
            if a.exact.iter().all(|c| protection.is_protected(*c)) {
                continue;
            }
            // Soundness: a load left out (no candidates, or a wide store among them) reads its
            // own view joined with the whole interference of its cells, which holds every
            // store of every other thread.
            let listed = lists.entry(a.exact.clone()).or_insert_with(|| {
                let mut c = candidates_for(facts, threads, i, &a.exact)?;
                let any = !c.is_empty();
                if constraints {
                    drop_inherited(facts, threads, i, &a.exact, &mut c);
                }
                Some((any, Rc::new(c)))
            });
            let Some((true, list)) = listed.clone() else {
                continue;
            };
            // The stores of threads created after the load cannot be read (constraint modes).
            let unread = match constraints {
                true => created_after_load(threads, i, (node, idx), &list),
                false => Vec::new(),
            };
            let read = |c: &&Candidate| !unread.contains(&c.thread);
            if constraints && !list.iter().any(|c| read(&c)) {
                // The load reads its own view only (not the per-cell interference).
                fixed.insert(
                    (node, idx),
                    LoadRead {
                        own: true,
                        others: Interval::bottom(),
                        cut: false,
                    },
                );
                continue;
            }
            let candidates = || -> Vec<Candidate> { list.iter().filter(read).cloned().collect() };
            if t.shape.in_cycle[n] {
                if let Some(x) = exits.iter().find(|x| (x.node, x.load) == (node, idx)) {
                    // The exit read of a wait loop reads one of the same stores, once.
                    let candidates = candidates();
                    let (groups, options) = choices_of(&candidates, constraints);
                    loads.push(SharedLoad {
                        at: (node, EXIT_READ),
                        site: (node, idx),
                        place: (x.exit, EXIT_READ),
                        own_value: None,
                        cell: Some(x.cell),
                        candidates,
                        groups,
                        options,
                    });
                }
                looped.push(((node, idx), list, unread));
                continue;
            }
            let candidates = candidates();
            let (groups, options) = choices_of(&candidates, constraints);
            loads.push(SharedLoad {
                at: (node, idx),
                site: (node, idx),
                place: (node, idx),
                own_value: None,
                cell: (a.exact.len() == 1).then(|| a.exact[0]),
                candidates,
                groups,
                options,
            });
        }
    }
    let feas = match oracle {
        Some(o) if !loads.is_empty() || !looped.is_empty() => o.get(facts, threads.info),
        _ => None,
    };
    // Without an ordering to ask about, a load in a loop reads the join of its list: the same
    // for every load of the list, joined once.
    let mut joined: HashMap<*const Vec<Candidate>, Interval> = HashMap::default();
    for (at, list, unread) in looped {
        let ordered = feas.is_some_and(|f| f.event(i, at.0, at.1).is_some());
        let read = if !ordered && unread.is_empty() {
            let others = *joined.entry(Rc::as_ptr(&list)).or_insert_with(|| {
                let mut v = Interval::bottom();
                for c in list.iter() {
                    v.join_with(&c.value);
                }
                v
            });
            LoadRead {
                own: true,
                others,
                cut: false,
            }
        } else {
            let kept = list.iter().filter(|c| !unread.contains(&c.thread));
            looped_read(feas, i, at, kept)
        };
        fixed.insert(at, read);
    }
    (fixed, loads, feas)
}

/// What load `(node, idx)` of thread `i`, in a loop, reads: it may run many times, so its own view
/// joined with every candidate store that need not happen after it (FSE'16, Alg. 3, loop
/// handling); with the oracle (`feas`), a store that must happen after the load is left out.
fn looped_read<'c>(
    feas: Option<&Feasibility>,
    i: usize,
    (node, idx): Key,
    candidates: impl Iterator<Item = &'c Candidate>,
) -> LoadRead {
    let l = feas.and_then(|f| f.event(i, node, idx));
    let mut others = Interval::bottom();
    for c in candidates {
        let after = match (feas, l) {
            (Some(f), Some(l)) => f
                .event(c.thread, c.at.0, c.at.1)
                .is_some_and(|s| f.oracle.must_happen_before(l, s)),
            _ => false,
        };
        if !after {
            others.join_with(&c.value);
        }
    }
    LoadRead {
        own: true,
        others,
        cut: false,
    }
}

/// The candidates grouped by value, and the options of a load with those groups.
fn choices_of(candidates: &[Candidate], constraints: bool) -> (Vec<Vec<usize>>, Vec<Choice>) {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (ci, c) in candidates.iter().enumerate() {
        match groups
            .iter_mut()
            .find(|g| candidates[g[0]].value == c.value)
        {
            Some(g) => g.push(ci),
            None => groups.push(vec![ci]),
        }
    }
    let mut options = vec![Choice::Own];
    options.extend((0..groups.len()).map(Choice::Remote));
    if constraints {
        options.push(Choice::Cut);
    }
    (groups, options)
}

/// What an exit read of the thread's own view reads: the thread's view of `cell` where the loop
/// is entered, from each entry the store that must have set it or the entry state; `None` when
/// some entry's view comes from elsewhere (a load, several stores).
///
/// Soundness: the loop never writes the cell and its exit depends on the loaded value alone
/// (`facts::exit_reads`). A read of a store that is not a candidate (the thread's own, an
/// inherited one, the initial value) made before the loop was read by every earlier iteration
/// too, with the same outcome, so only the first iteration leaves the loop that way, reading
/// the view at the loop's entry.
fn own_at_entry<D: watts_domains::NumDomain>(
    sources: &mut SourceFinder<'_, '_, D>,
    threads: Threads<'_, D>,
    i: usize,
    entries: &[NodeId],
    cell: CellId,
) -> Option<Interval> {
    let mut v = Interval::bottom();
    for p in entries {
        let end = threads.info[i].cfg.nodes[p.index()].end;
        let at_entry = match sources.walk(i, (*p, end), cell) {
            Source::Store(k) => threads.results[i].events.get(&k)?.value_into(&[cell]),
            Source::Entry => threads.results[i]
                .entry_state
                .interval(watts_domains::Var(cell.0)),
            _ => return None,
        };
        v.join_with(&at_entry);
    }
    Some(v)
}
