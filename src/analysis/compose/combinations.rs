//! Interference combinations of one thread (FSE'16, Alg. 3 and 4): for every shared load
//! outside loops, which store it reads (another thread's, or its own view); loads in loops read
//! the join of the stores that need not happen after them. With the oracle, combinations whose
//! reads-from pairs contradict happens-before are dropped.
//!
//! Invariant (soundness): every execution of the thread agrees, on the loads it executes, with
//! some combination that is kept. Loads an execution does not reach are covered by the `cut`
//! choice (the combination stands for executions that stop before the load), so a rule that
//! refutes every other choice of such a load drops nothing real.
//!
//! The choices of each shared load outside loops, per thread and round: its own view, one group per
//! distinct value of the candidate stores, and (constraint modes) "not reached"; loads in loops
//! read the join of the stores that need not follow them; in the constraint modes the exit read of
//! a wait loop gets choices of its own (its own view is the view where the loop is entered,
//! `own_at_entry`), in every family of the optimized mode. Past `--max-combinations` every load
//! reads the join of its candidates.
//!
//! In the constraint modes an inner search picks one store per chosen group and asks the oracle;
//! the first feasible choice is the combination's witness (and its explanation), a combination
//! whose choices are all refuted is pruned, and after `INNER_LIMIT` (8) queries it is kept
//! unchecked (D7).
//!
//! Three reductions drop choices or combinations another one covers (D9; rules/README.md
//! "Reductions of the enumeration"): covered cuts (`by_cuts` enumerates fewer cuts first,
//! `covered_by_kept` skips a cut whose reading counterpart is kept), the inherited own view
//! (`drop_redundant_own`), and inherited stores (in `collect`: a store a single-instance ancestor
//! made before creating the thread is not a candidate of a load of a one-slot cell,
//! `sync::feasibility::single_slot`, since the thread's entry state holds it). A load of a
//! `thread_private` cell has as candidates only the stores of functions analysed on their own (a
//! load of several such cells, none: it reads the joined interference), and the own view of a
//! `per_thread` cell at a thread's entry has no oracle event (it is the copy's initial value, not
//! the parent's store).
//!
//! `SourceCache` memoizes the backward walks that find where a thread's own view of a cell comes
//! from, and indexes each node's instructions by the cells they may set; it lives for the whole
//! fixpoint, because a walk depends only on the static CFG and thread indices are stable. Optimized
//! mode (`plan_families`): one family per cluster of loads (`pdg`): the cluster's loads get
//! choices, every other load reads the join of its own view and all its candidates (as in the
//! budget fallback); families are replaced by their product while that costs no more analyses (as
//! sound, at least as precise). `WATTS_TRACE` prints each oracle query and its answer on stderr.
//!
//! Invariant: a combination is dropped only when the oracle refutes it or a kept combination covers
//! its executions.

use super::fixpoint::reaches_thread_local;
use super::publisher::Publishers;
use super::Threads;
use crate::analysis::engine::LoadRead;
use crate::analysis::sync::feasibility::{single_slot, Feasibility, LazyOracle};
use crate::analysis::sync::protection::Protection;
use crate::analysis::Flow;
use crate::facts::exit_reads::{ExitRead, EXIT_READ};
use crate::facts::Facts;
use crate::ir::{InstKind, Ty};
use crate::memory::CellId;
use crate::threads::{NodeId, Origin, Thread};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use watts_domains::{Interval, Lattice};
use watts_rules::{Combination, Event, Verdict};

type Key = (NodeId, u32);

/// A store of some thread that a load may read.
#[derive(Clone, Debug)]
struct Candidate {
    thread: usize,
    at: Key,
    value: Interval,
}

#[derive(Clone, Debug)]
enum Choice {
    /// The thread's own view of memory.
    Own,
    /// Group `i` of the load's candidates (stores of one value).
    Remote(usize),
    /// The load is not reached.
    Cut,
}

/// One store chosen for a load, inside a group.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Own,
    Cand(usize),
    Cut,
}

#[derive(Clone)]
struct SharedLoad {
    /// The load's instruction, or `(node, EXIT_READ)` for the exit read of a wait loop whose
    /// load is in `node` (`facts::exit_reads`).
    at: Key,
    /// The instruction whose source position names it.
    site: Key,
    /// Where it happens in the thread's program order: its instruction, or `(exit,
    /// EXIT_READ)` for an exit read, which happens at the start of the loop's exit node.
    place: Key,
    /// For an exit read, what reading the thread's own view means there: the view of the cell
    /// where the loop is entered (`None`: unknown, the state is not narrowed).
    own_value: Option<Interval>,
    cell: Option<CellId>,
    candidates: Vec<Candidate>,
    /// Candidates of equal value: the analysis of a combination depends on the value only.
    groups: Vec<Vec<usize>>,
    options: Vec<Choice>,
}

impl SharedLoad {
    /// Whether it is the exit read of a wait loop rather than a load instruction.
    fn is_exit_read(&self) -> bool {
        self.at.1 == EXIT_READ
    }
}

/// Most oracle queries spent looking for a feasible choice of stores inside the groups of one
/// combination; past it the combination is kept unchecked (sound).
const INNER_LIMIT: usize = 8;

/// Where a thread's own view of a cell at some point comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// This thread's strong store.
    Store(Key),
    /// What this thread's load read.
    LoadOf(Key),
    /// The thread's entry state.
    Entry,
    /// Several places, or a write that is not a strong store.
    Unknown,
}

/// The combinations to analyse for one thread in one round.
#[derive(Default)]
pub struct Plan {
    /// One choice map per combination.
    pub combos: Vec<HashMap<Key, LoadRead>>,
    /// For each combination, the remote reads it assumes (for explanations).
    pub flows: Vec<Vec<Flow>>,
    /// Combinations enumerated.
    pub enumerated: usize,
    /// Combinations the oracle refuted.
    pub pruned: usize,
    /// Combinations with a cut that a kept combination covers (not analysed).
    pub covered: usize,
    /// Oracle queries.
    pub queries: usize,
    /// Whether the budget was exceeded and loads were joined instead.
    pub fallback: bool,
    /// Whether the memory budget (`--max-memory`) ran out while the combinations were made:
    /// the plan is then the joined fallback, and the fixpoint must give up (`compose::run`).
    pub over_memory: bool,
}

/// Builds the combinations of thread `i`. `max` bounds their number; past it every shared load
/// reads the join of its candidates (flow-insensitively), which is sound.
pub fn plan<D: watts_domains::NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    oracle: Option<&mut LazyOracle>,
    max: usize,
    cache: &mut SourceCache,
    protection: &Protection,
) -> Plan {
    let (fixed, loads, feas, mut sources) =
        shared_loads(facts, threads, i, oracle, cache, protection);
    enumerate(facts, threads, i, feas, max, fixed, &loads, &mut sources)
}

/// The loads of thread `i` with a fixed reading and those with choices (after
/// `drop_redundant_own` when there is an oracle), the oracle, and the walker of own views.
#[allow(clippy::type_complexity)]
fn shared_loads<'a, 'f, D: watts_domains::NumDomain>(
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

/// The families of thread `i` for the optimized mode: one per cluster of its shared loads.
/// In the family of cluster `C`, the loads of `C` get choices as in [`plan`] and every other
/// shared load reads the join of its own view and all its candidates, as in the budget
/// fallback. A thread without clustered loads has one family of one combination.
///
/// Soundness: the joined loads read a superset of what any execution reads there, and the
/// loads of `C` are enumerated as in [`plan`], so every execution agrees with a combination of
/// every family: each family alone over-approximates the thread (FSE'16, section 6). How loads
/// are clustered only changes precision. The oracle sees the reads-from pairs of `C` only:
/// fewer pairs refute fewer combinations, never one too many.
#[allow(clippy::too_many_arguments)]
pub fn plan_families<D: watts_domains::NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    oracle: Option<&mut LazyOracle>,
    max: usize,
    cache: &mut SourceCache,
    clusters: &mut Option<crate::pdg::Clusters>,
    protection: &Protection,
) -> Vec<Plan> {
    let (fixed, loads, feas, mut sources) =
        shared_loads(facts, threads, i, oracle, cache, protection);
    // With one load, or at most two reading combinations in all, no partition analyses fewer
    // combinations than the plain plan (which is as precise: every load keeps its choices), so
    // the dependence graph is not worth building.
    let reading = |l: &SharedLoad| {
        l.options
            .iter()
            .filter(|o| !matches!(o, Choice::Cut))
            .count()
    };
    let product = loads
        .iter()
        .try_fold(1usize, |acc, l| acc.checked_mul(reading(l)));
    if loads.len() < 2 || product.is_some_and(|p| p <= 2) {
        return vec![enumerate(
            facts,
            threads,
            i,
            feas,
            max,
            fixed,
            &loads,
            &mut sources,
        )];
    }
    let t = &threads.info[i];
    let clusters =
        &*clusters.get_or_insert_with(|| crate::pdg::clusters_of(facts, &t.cfg, &t.shape));
    let mut parts: std::collections::BTreeMap<usize, Vec<SharedLoad>> = Default::default();
    for l in &loads {
        if let Some(c) = clusters.of(l.at) {
            parts.entry(c).or_default().push(l.clone());
        }
    }
    // An exit read decides whether anything after its loop runs: every family gets its choices.
    for part in parts.values_mut() {
        part.extend(loads.iter().filter(|l| l.is_exit_read()).cloned());
    }
    if parts.is_empty() {
        let mut all = fixed;
        for l in &loads {
            all.insert(l.at, joined(l));
        }
        return vec![Plan {
            combos: vec![all],
            flows: vec![Vec::new()],
            enumerated: 1,
            ..Plan::default()
        }];
    }
    let mut out = Vec::with_capacity(parts.len());
    for (c, part) in parts {
        let mut f = fixed.clone();
        for l in loads
            .iter()
            .filter(|l| clusters.of(l.at) != Some(c) && !l.is_exit_read())
        {
            f.insert(l.at, joined(l));
        }
        let p = enumerate(facts, threads, i, feas, max, f, &part, &mut sources);
        out.push((part.iter().map(|l| l.at).collect(), p));
    }
    merge_cheap(out)
}

/// Replaces two families by their product while that costs no more analyses than the two
/// (`|A|·|B| <= |A|+|B|`: one of them has a single combination, or both have two); smallest
/// first, the result in a deterministic order.
///
/// Soundness: an execution agrees with some combination of `A` on the loads of `A`'s cluster
/// that it executes and with some combination of `B` on those of `B`'s (each family covers
/// every execution), so with their union, which the product holds. The product is at least as
/// precise as the meet of the two families (each of its combinations refines one of each).
fn merge_cheap(mut fams: Vec<(Vec<Key>, Plan)>) -> Vec<Plan> {
    while fams.len() >= 2 {
        let mut order: Vec<usize> = (0..fams.len()).collect();
        order.sort_by_key(|&k| (fams[k].1.combos.len(), k));
        let (x, y) = (order[0].min(order[1]), order[0].max(order[1]));
        let (nx, ny) = (fams[x].1.combos.len(), fams[y].1.combos.len());
        if nx * ny > nx + ny {
            break;
        }
        let b = fams.remove(y);
        let a = fams.remove(x);
        fams.insert(x, product(a, b));
    }
    fams.into_iter().map(|(_, p)| p).collect()
}

/// Every combination of `a` with `b`'s choices for the loads of `b`'s cluster.
fn product(a: (Vec<Key>, Plan), b: (Vec<Key>, Plan)) -> (Vec<Key>, Plan) {
    let (mut keys, pa) = a;
    let (kb, pb) = b;
    let mut out = Plan {
        enumerated: pa.enumerated + pb.enumerated,
        pruned: pa.pruned + pb.pruned,
        covered: pa.covered + pb.covered,
        queries: pa.queries + pb.queries,
        fallback: pa.fallback || pb.fallback,
        over_memory: pa.over_memory || pb.over_memory,
        ..Plan::default()
    };
    for (ca, fa) in pa.combos.iter().zip(&pa.flows) {
        for (cb, fb) in pb.combos.iter().zip(&pb.flows) {
            let mut m = ca.clone();
            for k in &kb {
                if let Some(r) = cb.get(k) {
                    m.insert(*k, *r);
                }
            }
            out.combos.push(m);
            out.flows.push(fa.iter().chain(fb).cloned().collect());
        }
    }
    keys.extend(kb);
    (keys, out)
}

/// A load without choices: its own view joined with every candidate store.
fn joined(l: &SharedLoad) -> LoadRead {
    let mut others = Interval::bottom();
    for c in &l.candidates {
        others.join_with(&c.value);
    }
    LoadRead {
        own: true,
        others,
        cut: false,
    }
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
    // Loads in loops with their candidates, resolved once the oracle is known.
    let mut looped: Vec<(Key, Vec<Candidate>)> = Vec::new();
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
            let Some(mut candidates) = candidates_for(facts, threads, i, &a.exact) else {
                continue;
            };
            if candidates.is_empty() {
                continue;
            }
            if constraints {
                // A store of a thread created (transitively) after the load cannot be read.
                candidates.retain(|c| !created_after(threads, i, (node, idx), c.thread));
                // A store an ancestor made before creating this thread is covered by its own
                // view (rules/README.md, "Reductions of the enumeration", inherited stores).
                if let [cell] = a.exact[..] {
                    if single_slot(facts, threads.info, cell) {
                        candidates.retain(|c| !created_after(threads, c.thread, c.at, i));
                    }
                }
                if candidates.is_empty() {
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
            }
            if t.shape.in_cycle[n] {
                if let Some(x) = exits.iter().find(|x| (x.node, x.load) == (node, idx)) {
                    // The exit read of a wait loop reads one of the same stores, once.
                    let (groups, options) = choices_of(&candidates, constraints);
                    loads.push(SharedLoad {
                        at: (node, EXIT_READ),
                        site: (node, idx),
                        place: (x.exit, EXIT_READ),
                        own_value: None,
                        cell: Some(x.cell),
                        candidates: candidates.clone(),
                        groups,
                        options,
                    });
                }
                looped.push(((node, idx), candidates));
                continue;
            }
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
    for ((node, idx), candidates) in looped {
        // A load in a loop may run many times: it reads the join of every store that need
        // not happen after it (FSE'16, Alg. 3, loop handling).
        let l = feas.and_then(|f| f.event(i, node, idx));
        let mut others = Interval::bottom();
        for c in &candidates {
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
        fixed.insert(
            (node, idx),
            LoadRead {
                own: true,
                others,
                cut: false,
            },
        );
    }
    (fixed, loads, feas)
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

/// Enumerates the combinations of `loads` (the other loads read as `fixed` says).
#[allow(clippy::too_many_arguments)]
fn enumerate<D: watts_domains::NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    feas: Option<&Feasibility>,
    max: usize,
    mut fixed: HashMap<Key, LoadRead>,
    loads: &[SharedLoad],
    sources: &mut SourceFinder<'_, '_, D>,
) -> Plan {
    let mut plan = Plan::default();
    let total = loads
        .iter()
        .try_fold(1usize, |acc, l| acc.checked_mul(l.options.len()));
    if total.is_none_or(|n| n > max) {
        plan.fallback = true;
        for l in loads {
            fixed.insert(l.at, joined(l));
        }
        plan.combos.push(fixed);
        plan.flows.push(Vec::new());
        plan.enumerated = 1;
        return plan;
    }
    let mut kept: HashSet<Vec<usize>> = HashSet::default();
    let mut publishers = Publishers::new(facts.program, threads);
    for digits in by_cuts(loads) {
        // Soundness: past the memory budget the combinations made so far are dropped and the
        // plan says so; the fixpoint then gives up, and the analysis falls back to the
        // flow-insensitive mode (`verdict::runs`), which over-approximates every mode.
        if crate::error::over_memory_budget() {
            drop((plan, kept));
            let mut plan = Plan {
                fallback: true,
                over_memory: true,
                enumerated: 1,
                ..Plan::default()
            };
            for l in loads {
                fixed.insert(l.at, joined(l));
            }
            plan.combos.push(fixed);
            plan.flows.push(Vec::new());
            return plan;
        }
        plan.enumerated += 1;
        if covered_by_kept(loads, &digits, &kept) {
            kept.insert(digits);
            plan.covered += 1;
            continue;
        }
        // The loads that read another thread, and the members of their chosen groups.
        let remote: Vec<(usize, &Vec<usize>)> = loads
            .iter()
            .zip(&digits)
            .enumerate()
            .filter_map(|(k, (l, d))| match l.options[*d] {
                Choice::Remote(g) => Some((k, &l.groups[g])),
                _ => None,
            })
            .collect();
        let mut inner = vec![0usize; remote.len()];
        let picks_of = |inner: &[usize]| -> HashMap<Key, Pick> {
            let mut picks: HashMap<Key, Pick> = loads
                .iter()
                .zip(&digits)
                .map(|(l, d)| {
                    let p = match l.options[*d] {
                        Choice::Own => Pick::Own,
                        Choice::Cut => Pick::Cut,
                        Choice::Remote(_) => Pick::Cut,
                    };
                    (l.at, p)
                })
                .collect();
            for ((k, members), m) in remote.iter().zip(inner) {
                picks.insert(loads[*k].at, Pick::Cand(members[*m]));
            }
            picks
        };
        let mut witness: Option<HashMap<Key, Pick>> = None;
        match feas {
            None => witness = Some(picks_of(&inner)),
            Some(f) => {
                let mut tries = 0;
                loop {
                    let picks = picks_of(&inner);
                    let comb = combination(f, i, loads, &picks, sources);
                    plan.queries += 1;
                    tries += 1;
                    if !matches!(f.oracle.check(&comb), Verdict::Infeasible(_)) {
                        witness = Some(picks);
                        break;
                    }
                    // Next choice of stores inside the groups.
                    let mut k = 0;
                    while k < inner.len() {
                        inner[k] += 1;
                        if inner[k] < remote[k].1.len() {
                            break;
                        }
                        inner[k] = 0;
                        k += 1;
                    }
                    if k == inner.len() {
                        break;
                    }
                    if tries >= INNER_LIMIT {
                        // Soundness: not shown infeasible, so kept.
                        witness = Some(picks_of(&inner));
                        break;
                    }
                }
                if witness.is_none() {
                    plan.pruned += 1;
                }
            }
        }
        if let Some(picks) = witness {
            let mut map = fixed.clone();
            let mut flows = Vec::new();
            for l in loads {
                let read = match picks.get(&l.at) {
                    Some(Pick::Cand(ci)) => {
                        let c = &l.candidates[*ci];
                        flows.push(flow(facts, threads, i, l, c));
                        LoadRead {
                            own: false,
                            others: c.value,
                            cut: false,
                        }
                    }
                    Some(Pick::Cut) => LoadRead {
                        own: false,
                        others: Interval::bottom(),
                        cut: true,
                    },
                    _ => match l.own_value {
                        Some(v) => LoadRead {
                            own: false,
                            others: v,
                            cut: false,
                        },
                        None => LoadRead {
                            own: true,
                            others: Interval::bottom(),
                            cut: false,
                        },
                    },
                };
                map.insert(l.at, read);
            }
            publisher_views(&mut publishers, i, loads, &picks, &mut map);
            plan.combos.push(map);
            plan.flows.push(flows);
            kept.insert(digits);
        }
    }
    plan
}

/// Loads that read the publisher's view in this combination (`publisher`): a load whose cell only
/// one other thread writes, after an earlier load read a store of that thread.
fn publisher_views<D: watts_domains::NumDomain>(
    publishers: &mut Publishers<'_, D>,
    i: usize,
    loads: &[SharedLoad],
    picks: &HashMap<Key, Pick>,
    map: &mut HashMap<Key, LoadRead>,
) {
    for l in loads {
        let (Some(x), false) = (l.cell, l.is_exit_read()) else {
            continue;
        };
        if matches!(picks.get(&l.at), Some(Pick::Cut)) {
            continue;
        }
        let view = loads.iter().find_map(|l2| match picks.get(&l2.at) {
            Some(Pick::Cand(ci)) => {
                let c = &l2.candidates[*ci];
                publishers.view(i, l.place, x, l2.place, (c.thread, c.at))
            }
            _ => None,
        });
        if let Some(v) = view {
            map.insert(
                l.at,
                LoadRead {
                    own: false,
                    others: v,
                    cut: false,
                },
            );
        }
    }
}

/// Every combination of options (one digit per load), those with fewer `Cut` choices first, so
/// that a combination with a cut comes after the ones that may cover it; among equals, in
/// counting order (the first digit fastest). Made as they are read, one pass per number of
/// cuts: the combinations of a large `--max-combinations` are never all in memory at once.
fn by_cuts(loads: &[SharedLoad]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let cuttable = |l: &SharedLoad| l.options.iter().any(|o| matches!(o, Choice::Cut));
    let most = loads.iter().filter(|l| cuttable(l)).count();
    let cuts = move |d: &Vec<usize>| {
        d.iter()
            .zip(loads)
            .filter(|(d, l)| matches!(l.options[**d], Choice::Cut))
            .count()
    };
    (0..=most).flat_map(move |c| counting(loads).filter(move |d| cuts(d) == c))
}

/// Every combination of options in counting order (the first digit fastest).
fn counting(loads: &[SharedLoad]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let mut next = Some(vec![0usize; loads.len()]);
    std::iter::from_fn(move || {
        let now = next.take()?;
        let mut digits = now.clone();
        let mut k = 0;
        while k < digits.len() {
            digits[k] += 1;
            if digits[k] < loads[k].options.len() {
                break;
            }
            digits[k] = 0;
            k += 1;
        }
        if k < digits.len() {
            next = Some(digits);
        }
        Some(now)
    })
}

/// Whether the combination `digits` need not be analysed: it cuts some load `k`, and the same
/// combination with a reading choice at `k` is kept (or itself covered).
///
/// Soundness: a combination that cuts `k` stands for executions that do not reach `k` and agree
/// with it on every load they execute; they agree with the covering combination on every load
/// they execute too (the two differ only at `k`), and its analysis covers them.
fn covered_by_kept(loads: &[SharedLoad], digits: &[usize], kept: &HashSet<Vec<usize>>) -> bool {
    let mut other = digits.to_vec();
    for (k, l) in loads.iter().enumerate() {
        if !matches!(l.options[digits[k]], Choice::Cut) {
            continue;
        }
        for (o, choice) in l.options.iter().enumerate() {
            if matches!(choice, Choice::Cut) {
                continue;
            }
            other[k] = o;
            if kept.contains(&other) {
                return true;
            }
        }
        other[k] = digits[k];
    }
    false
}

/// Drops the `Own` choice of a load (or the `Remote` group it duplicates) when the thread's own
/// view there must hold a store `s` of an ancestor thread, written before the thread (or an
/// ancestor) was created: the same on every path, whatever the other loads read.
///
/// Soundness: in an execution that reaches the load, no write of this thread to the cell
/// precedes it (the backward walk finds none on any path), and `s`, a strong store to the one
/// concrete cell, happens before it, so the initial value is overwritten: the load reads `s`
/// or a later store of another thread, and every such store is a candidate. So the executions
/// that `Own` stands for are those that read `s`, which `Remote(group of s)` stands for too.
/// When that group is `s` alone the two choices cover the same executions and `Own` stays
/// (it keeps the thread's relations); otherwise `Own` goes.
fn drop_redundant_own<D>(
    loads: &mut [SharedLoad],
    t: &Thread,
    sources: &mut SourceFinder<'_, '_, D>,
) {
    let mut order: Vec<usize> = (0..loads.len()).collect();
    order.sort_by_key(|k| (t.shape.rpo[loads[*k].at.0.index()], loads[*k].at.1));
    // The ancestor store each load's own view must hold, once known.
    let mut inherited: HashMap<Key, (usize, Key)> = HashMap::default();
    for k in order {
        let Some(cell) = loads[k].cell.filter(|_| !loads[k].is_exit_read()) else {
            continue;
        };
        let source = match sources.walk(sources.i, loads[k].at, cell) {
            Source::Entry => sources.inherited_store(sources.i, cell, 0),
            // The earlier load reads only its own view (or is cut, and then so is this one).
            Source::LoadOf(prev) => inherited.get(&prev).copied(),
            _ => None,
        };
        let Some(s) = source else {
            continue;
        };
        let l = &mut loads[k];
        let Some(ci) = l.candidates.iter().position(|c| (c.thread, c.at) == s) else {
            continue;
        };
        let Some(g) = l.groups.iter().position(|g| g.contains(&ci)) else {
            continue;
        };
        if l.groups[g].len() == 1 {
            l.options
                .retain(|o| !matches!(o, Choice::Remote(x) if *x == g));
            if l.options
                .iter()
                .all(|o| matches!(o, Choice::Own | Choice::Cut))
            {
                inherited.insert(l.at, s);
            }
        } else {
            l.options.retain(|o| !matches!(o, Choice::Own));
        }
    }
}

/// The reads-from pairs of one choice of stores, as an oracle query.
fn combination<D>(
    f: &Feasibility,
    i: usize,
    loads: &[SharedLoad],
    picks: &HashMap<Key, Pick>,
    sources: &mut SourceFinder<'_, '_, D>,
) -> Combination {
    let mut comb = Combination::new();
    for l in loads {
        let Some(le) = f.event(i, l.at.0, l.at.1) else {
            continue;
        };
        let store = match picks.get(&l.at) {
            Some(Pick::Cand(k)) => {
                let c = &l.candidates[*k];
                f.event(c.thread, c.at.0, c.at.1)
            }
            // An exit read of the own view reads from the loop's entry; no pair (sound).
            Some(Pick::Own) if l.is_exit_read() => None,
            Some(Pick::Own) => l
                .cell
                .and_then(|cell| sources.own_source(f, l.at, cell, picks, loads, 0)),
            _ => None,
        };
        if let Some(s) = store {
            comb.reads_from(le, s);
        }
    }
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *TRACE.get_or_init(|| std::env::var_os("WATTS_TRACE").is_some()) {
        eprintln!(
            "thread {i} query {:?} picks {:?} -> {:?}",
            comb.pairs(),
            picks
                .iter()
                .map(|(k, p)| (k.0 .0, k.1, *p))
                .collect::<Vec<_>>(),
            f.oracle.check(&comb)
        );
    }
    comb
}

/// Whether every instance of thread `k` is created after instruction `at` of thread `i` (a
/// load, or a store of an ancestor), whenever both happen: some ancestor of `k` was created by
/// thread `i` at a create call from which `at` cannot be reached in `i`'s CFG. Then `at` cannot
/// follow that create in one instance of `i`; `i` must be single-instance, or another instance
/// could create `k` earlier.
fn created_after<D>(threads: Threads<'_, D>, i: usize, at: Key, k: usize) -> bool {
    if threads.info[i].multi || threads.info[i].origin == Origin::Detached {
        return false;
    }
    let mut cur = k;
    let mut guard = 0;
    while let Origin::Created { parent, node, inst } = threads.info[cur].origin {
        guard += 1;
        if guard > threads.len() {
            return false;
        }
        if parent == i {
            let t = &threads.info[i];
            if node == at.0 {
                // Same node: program order within it, unless the node repeats.
                return !t.shape.in_cycle[node.index()] && inst > at.1;
            }
            return !reaches(&t.shape.succ, node, at.0);
        }
        cur = parent;
    }
    false
}

/// Whether `to` is reachable from `from` (following at least one edge).
fn reaches(succ: &[Vec<NodeId>], from: NodeId, to: NodeId) -> bool {
    let mut seen = vec![false; succ.len()];
    let mut stack: Vec<NodeId> = succ[from.index()].clone();
    while let Some(v) = stack.pop() {
        if v == to {
            return true;
        }
        if !seen[v.index()] {
            seen[v.index()] = true;
            stack.extend(succ[v.index()].iter().copied());
        }
    }
    false
}

/// Stores of other threads (and of other instances of this one) into any of `cells`, by
/// thread, then in the order of the thread's `events`; `None` when one of them is a wide store
/// (`ThreadResults::wide`), which has no event to list.
fn candidates_for<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    cells: &[CellId],
) -> Option<Vec<Candidate>> {
    let [c] = cells else {
        return candidates_scan(facts, threads, i, cells);
    };
    // One cell (the common case): each thread's stores by cell, instead of all its stores.
    let private = facts.memory.thread_private(*c);
    let mut out = Vec::new();
    for (j, u) in threads.results.iter().enumerate() {
        if j == i && !threads.info[i].multi {
            continue;
        }
        // Soundness: another thread's store into its own copy of a thread-local cell is not
        // in this thread's copy (see `fixpoint::reaches_thread_local`).
        if private && !reaches_thread_local(&threads.info[j]) {
            continue;
        }
        if u.wide.contains(*c) {
            return None;
        }
        out.extend(u.stores_to(*c).iter().map(|&(at, value)| Candidate {
            thread: j,
            at,
            value,
        }));
    }
    Some(out)
}

/// `candidates_for` by scanning every store of every thread.
fn candidates_scan<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    cells: &[CellId],
) -> Option<Vec<Candidate>> {
    // A load of several cells of a thread-local variable (an array element) reads the joined
    // interference, which keeps only the stores that may reach this thread's copy.
    if cells.iter().any(|c| facts.memory.thread_private(*c)) {
        return None;
    }
    let mut out = Vec::new();
    for (j, u) in threads.results.iter().enumerate() {
        if j == i && !threads.info[i].multi {
            continue;
        }
        if cells.iter().any(|c| u.wide.contains(*c)) {
            return None;
        }
        for (at, ev) in &u.events {
            if cells.iter().any(|c| ev.cells.contains_key(c)) {
                // Soundness: the load reads one of `cells`; from this store, whatever the
                // store wrote into that cell (see `StoreEv`).
                out.push(Candidate {
                    thread: j,
                    at: *at,
                    value: ev.value_into(cells),
                });
            }
        }
    }
    Some(out)
}

fn flow<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    l: &SharedLoad,
    c: &Candidate,
) -> Flow {
    let span_of = |t: usize, at: Key| {
        let th = &threads.info[t];
        let nd = &th.cfg.nodes[at.0.index()];
        let func = th.cfg.contexts[nd.ctx.0 as usize].func;
        facts.program.funcs[func.index()].blocks[nd.block.index()].insts[at.1 as usize].span
    };
    Flow {
        load: span_of(i, l.site),
        store: span_of(c.thread, c.at),
        store_thread: Some(threads.info[c.thread].name.clone()),
        location: {
            // A load of several cells (through a pointer to one of a few objects) names each.
            let th = &threads.info[i];
            let nd = &th.cfg.nodes[l.site.0.index()];
            let func = th.cfg.contexts[nd.ctx.0 as usize].func;
            let names: Vec<&str> = (facts.access(func, nd.block, l.site.1).exact.iter())
                .map(|c| facts.memory.cells.info(*c).name.as_str())
                .collect();
            names.join("` or `")
        },
    }
}

/// What the backward walks of [`SourceFinder`] learn, kept for the whole fixpoint: a walk
/// depends only on a thread's CFG and the program (static), and thread indices are stable.
#[derive(Default)]
pub struct SourceCache {
    memo: HashMap<(usize, Key, CellId), Source>,
    /// Per thread, the exit reads of its wait loops (static, like the walks).
    exits: HashMap<usize, Vec<ExitRead>>,
    /// Per thread and node: for each cell, the instructions (ascending) that may set the
    /// thread's view of it, so that a walk skips the others without classifying them.
    touched: HashMap<(usize, NodeId), HashMap<CellId, Vec<u32>>>,
}

impl SourceCache {
    /// The exit reads of thread `i` (`facts::exit_reads`), computed once.
    fn exit_reads(&mut self, facts: &Facts<'_>, i: usize, t: &Thread) -> Vec<ExitRead> {
        self.exits
            .entry(i)
            .or_insert_with(|| crate::facts::exit_reads::exit_reads(facts, &t.cfg, &t.shape))
            .clone()
    }
}

/// Finds where a thread's own view of a cell comes from, by walking its CFG backwards.
struct SourceFinder<'a, 'f, D> {
    facts: &'a Facts<'f>,
    threads: Threads<'a, D>,
    i: usize,
    cache: &'a mut SourceCache,
}

impl<'a, 'f, D> SourceFinder<'a, 'f, D> {
    fn new(
        facts: &'a Facts<'f>,
        threads: Threads<'a, D>,
        i: usize,
        cache: &'a mut SourceCache,
    ) -> Self {
        SourceFinder {
            facts,
            threads,
            i,
            cache,
        }
    }

    /// The instructions of node `n` of thread `t` that may set its view of `cell` (those
    /// for which `classify` is not `None`), ascending.
    fn touching(&mut self, t: usize, n: NodeId, cell: CellId) -> Vec<u32> {
        let facts = self.facts;
        let th = &self.threads.info[t];
        let per_cell = self.cache.touched.entry((t, n)).or_insert_with(|| {
            let nd = &th.cfg.nodes[n.index()];
            let func = th.cfg.contexts[nd.ctx.0 as usize].func;
            let insts = &facts.program.funcs[func.index()].blocks[nd.block.index()].insts;
            let mut out: HashMap<CellId, Vec<u32>> = HashMap::default();
            for idx in nd.start..nd.end {
                // What it writes, and for a load what it reads (`classify` looks at both).
                let mut cells = facts.written_cells(func, nd.block, idx);
                if let InstKind::Load { .. } = insts[idx as usize].kind {
                    cells.extend(facts.access(func, nd.block, idx).exact.iter().copied());
                }
                for c in cells {
                    let v = out.entry(c).or_default();
                    if v.last() != Some(&idx) {
                        v.push(idx);
                    }
                }
            }
            out
        });
        per_cell.get(&cell).cloned().unwrap_or_default()
    }

    /// The store the own view of `cell` at load `at` holds, in the combination `chosen`.
    fn own_source(
        &mut self,
        f: &Feasibility,
        at: Key,
        cell: CellId,
        chosen: &HashMap<Key, Pick>,
        loads: &[SharedLoad],
        depth: u32,
    ) -> Option<Event> {
        if depth > 8 {
            return None;
        }
        match self.walk(self.i, at, cell) {
            Source::Store(k) => f.event(self.i, k.0, k.1),
            Source::LoadOf(k) => match chosen.get(&k) {
                Some(Pick::Cand(r)) => {
                    let l = loads.iter().find(|l| l.at == k)?;
                    let c = &l.candidates[*r];
                    f.event(c.thread, c.at.0, c.at.1)
                }
                Some(Pick::Own) => self.own_source(f, k, cell, chosen, loads, depth + 1),
                // A load that no other thread's store can reach reads the own view too.
                None if !self.threads.info[self.i].shape.in_cycle[k.0.index()]
                    && candidates_for(self.facts, self.threads, self.i, &[cell])
                        .is_some_and(|c| c.is_empty()) =>
                {
                    self.own_source(f, k, cell, chosen, loads, depth + 1)
                }
                _ => None,
            },
            Source::Entry => self.entry_source(f, self.i, cell, 0),
            Source::Unknown => None,
        }
    }

    /// The strong store of an ancestor that thread `t`'s entry view of `cell` must hold, if
    /// one must (as `entry_source`, by thread and instruction).
    fn inherited_store(&mut self, t: usize, cell: CellId, depth: u32) -> Option<(usize, Key)> {
        if depth > 8 {
            return None;
        }
        match self.threads.info[t].origin {
            Origin::Created { parent, node, inst } => match self.walk(parent, (node, inst), cell) {
                Source::Store(k) => Some((parent, k)),
                Source::Entry => self.inherited_store(parent, cell, depth + 1),
                _ => None,
            },
            Origin::Main | Origin::Detached => None,
        }
    }

    /// Where thread `t`'s entry view of `cell` comes from: the initial value for `main`, the
    /// parent's view at the create call for a created thread.
    fn entry_source(
        &mut self,
        f: &Feasibility,
        t: usize,
        cell: CellId,
        depth: u32,
    ) -> Option<Event> {
        if depth > 8 {
            return None;
        }
        // Soundness: a thread's view of a thread-local cell at its entry is its own copy's
        // initial value, which no single event of the oracle stands for.
        if self.facts.memory.per_thread(cell) {
            return None;
        }
        match self.threads.info[t].origin {
            Origin::Main => f.init(cell),
            Origin::Created { parent, node, inst } => match self.walk(parent, (node, inst), cell) {
                Source::Store(k) => f.event(parent, k.0, k.1),
                Source::Entry => self.entry_source(f, parent, cell, depth + 1),
                _ => None,
            },
            Origin::Detached => None,
        }
    }

    /// The first instructions before `at` (backwards, on every path) that set thread `t`'s
    /// view of `cell`.
    fn walk(&mut self, t: usize, at: Key, cell: CellId) -> Source {
        if let Some(s) = self.cache.memo.get(&(t, at, cell)) {
            return *s;
        }
        let th = &self.threads.info[t];
        let entry = th.cfg.contexts[0].entry;
        let mut result: Option<Source> = None;
        let mut visited = vec![false; th.cfg.nodes.len()];
        let mut stack = vec![(at.0, at.1)];
        'outer: while let Some((n, upto)) = stack.pop() {
            let nd = &th.cfg.nodes[n.index()];
            let func = th.cfg.contexts[nd.ctx.0 as usize].func;
            let touching = self.touching(t, n, cell);
            for &idx in touching.iter().rev().filter(|&&k| k < upto) {
                if let Some(src) = self.classify(t, n, func, nd.block, idx, cell) {
                    match result {
                        None => result = Some(src),
                        Some(r) if r == src => {}
                        Some(_) => {
                            result = Some(Source::Unknown);
                            break 'outer;
                        }
                    }
                    continue 'outer;
                }
            }
            if n == entry && th.shape.pred[n.index()].is_empty() {
                match result {
                    None => result = Some(Source::Entry),
                    Some(Source::Entry) => {}
                    Some(_) => {
                        result = Some(Source::Unknown);
                        break;
                    }
                }
                continue;
            }
            for p in &th.shape.pred[n.index()] {
                if !visited[p.index()] {
                    visited[p.index()] = true;
                    let pn = &th.cfg.nodes[p.index()];
                    stack.push((*p, pn.end));
                }
            }
        }
        let src = result.unwrap_or(Source::Unknown);
        self.cache.memo.insert((t, at, cell), src);
        src
    }

    fn classify(
        &self,
        t: usize,
        n: NodeId,
        func: crate::ir::FuncId,
        block: crate::ir::BlockId,
        idx: u32,
        cell: CellId,
    ) -> Option<Source> {
        let inst =
            &self.facts.program.funcs[func.index()].blocks[block.index()].insts[idx as usize];
        match &inst.kind {
            InstKind::Load { .. } => {
                let a = self.facts.access(func, block, idx);
                if !a.exact.contains(&cell) {
                    return None;
                }
                let in_loop = self.threads.info[t].shape.in_cycle[n.index()];
                Some(if a.exact.len() == 1 && !a.read_unknown && !in_loop {
                    Source::LoadOf((n, idx))
                } else {
                    Source::Unknown
                })
            }
            InstKind::Store { .. } => {
                let a = self.facts.access(func, block, idx);
                if a.exact.contains(&cell) && a.strong {
                    Some(Source::Store((n, idx)))
                } else if a.exact.contains(&cell) || a.clobber.contains(&cell) {
                    Some(Source::Unknown)
                } else {
                    None
                }
            }
            _ => self
                .facts
                .written_cells(func, block, idx)
                .contains(&cell)
                .then_some(Source::Unknown),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(options: Vec<Choice>) -> SharedLoad {
        SharedLoad {
            at: (NodeId(0), 0),
            site: (NodeId(0), 0),
            place: (NodeId(0), 0),
            own_value: None,
            cell: None,
            candidates: Vec::new(),
            groups: Vec::new(),
            options,
        }
    }

    fn three() -> Vec<SharedLoad> {
        // Own, Remote(0), Cut for each of two loads.
        (0..2)
            .map(|_| load(vec![Choice::Own, Choice::Remote(0), Choice::Cut]))
            .collect()
    }

    #[test]
    fn the_stores_of_one_cell_are_the_candidates_of_a_full_scan_in_order() {
        let src = r#"
            #include <pthread.h>
            int x, y, z[4];
            static void *a(void *p) { (void)p; x = 1; y = 2; x = 3; z[1] = 4; return 0; }
            static void *b(void *p) { (void)p; y = 5; x = 6; z[2] = 7; return 0; }
            int main(void) {
                pthread_t t[3];
                pthread_create(&t[0], 0, a, 0);
                for (int i = 1; i < 3; i++) pthread_create(&t[i], 0, b, 0);
                x = 8;
                return 0; }
        "#;
        use crate::analysis::testing::{with_fixpoint, FLOW_SENSITIVE};
        // Store events are kept by the flow-sensitive modes only.
        with_fixpoint(src, FLOW_SENSITIVE, |_, facts, fix| {
            let threads = fix.view();
            assert!(
                fix.threads.iter().any(|t| t.multi),
                "b has several instances"
            );
            let key = |v: Vec<Candidate>| -> Vec<_> {
                v.into_iter().map(|c| (c.thread, c.at, c.value)).collect()
            };
            let mut seen = 0;
            for i in 0..threads.len() {
                for c in 0..facts.ncells {
                    let cell = [CellId(c)];
                    let scanned = candidates_scan(facts, threads, i, &cell).expect("no wide store");
                    seen += scanned.len();
                    let indexed = candidates_for(facts, threads, i, &cell).expect("no wide store");
                    assert_eq!(key(indexed), key(scanned), "thread {i}, cell {c}");
                }
            }
            assert!(seen > 3, "{seen}");
        })
    }

    #[test]
    fn every_combination_comes_once_with_fewer_cuts_first() {
        let loads = three();
        let all: Vec<Vec<usize>> = by_cuts(&loads).collect();
        assert_eq!(all.len(), 9);
        let unique: HashSet<_> = all.iter().cloned().collect();
        assert_eq!(unique.len(), 9);
        let cuts: Vec<usize> = all
            .iter()
            .map(|d| d.iter().filter(|&&x| x == 2).count())
            .collect();
        assert!(cuts.windows(2).all(|w| w[0] <= w[1]), "{cuts:?}");
    }

    #[test]
    fn a_cut_is_covered_only_by_a_kept_reading_choice() {
        let loads = three();
        let mut kept = HashSet::default();
        // No combination kept: a cut covers nothing (every reading choice was refuted).
        assert!(!covered_by_kept(&loads, &[2, 0], &kept));
        // Without a cut there is nothing to cover, whatever is kept.
        kept.insert(vec![1, 0]);
        assert!(!covered_by_kept(&loads, &[0, 0], &kept));
        // The same combination reading at the cut load is kept: covered.
        assert!(covered_by_kept(&loads, &[2, 0], &kept));
        // A kept combination that differs at another load too does not cover.
        assert!(!covered_by_kept(&loads, &[2, 1], &kept));
        // Two cuts: covered through a kept (or covered) combination with one cut fewer.
        assert!(!covered_by_kept(&loads, &[2, 2], &kept));
        kept.insert(vec![2, 0]);
        assert!(covered_by_kept(&loads, &[2, 2], &kept));
    }

    /// A store through a pointer made from an integer writes every exposed cell (more than
    /// `WIDE_STORE` here): it is kept as wide, and the loads of its cells get no candidate list,
    /// so they read the joined interference (tests/corpus/16-edges/mo-04-wide-store.c).
    #[test]
    fn a_wide_store_leaves_its_loads_to_the_joined_interference() {
        let src = include_str!("../../../tests/corpus/16-edges/mo-04-wide-store.c");
        use crate::analysis::testing::{with_fixpoint, FLOW_SENSITIVE};
        with_fixpoint(src, FLOW_SENSITIVE, |program, facts, fix| {
            let threads = fix.view();
            let writer = (fix.threads.iter()).position(|t| t.name == "writer");
            let writer = &fix.results[writer.expect("writer")];
            assert!(
                !writer.wide.is_empty(),
                "the store through the integer is wide"
            );
            assert!(writer
                .events
                .values()
                .all(|e| e.cells.len() <= super::super::replay::WIDE_STORE));
            let x = (program.globals.iter()).find(|g| g.name == "x").expect("x");
            let x = facts.memory.cells.of(x.obj).next().expect("a cell");
            assert!(writer.wide.contains(x));
            assert!(candidates_for(facts, threads, 0, &[x]).is_none());
            assert!(candidates_scan(facts, threads, 0, &[x]).is_none());
        })
    }

    /// Past the oracle's budget of events, the constraint mode's plan prunes nothing: the
    /// load of `x` in `bad` (whose entry comes from a table, as in
    /// tests/corpus/16-edges/mp-12-assertion-runs-through-a-table.c) keeps a combination that
    /// reads `main`'s store, which may come before the load.
    #[test]
    fn without_the_oracle_no_combination_is_pruned() {
        let src = "#include <assert.h>\n#include <pthread.h>\n\
                   struct ops { void *(*run)(void *); }; int x;\n\
                   static void *bad(void *arg) { int v = x; assert(v == 0); return arg; }\n\
                   static struct ops table = {bad};\n\
                   int main(void) { pthread_t t; pthread_create(&t, 0, table.run, 0);\n\
                   x = 1; pthread_join(t, 0); return 0; }\n";
        use crate::analysis::testing::{with_fixpoint, FLOW_SENSITIVE};
        with_fixpoint(src, FLOW_SENSITIVE, |_, facts, fix| {
            let bad = (fix.threads.iter()).position(|t| t.name == "bad");
            let bad = bad.expect("bad");
            let plan_with = |oracle: &mut LazyOracle| {
                let mut cache = SourceCache::default();
                let protection = Protection::default();
                plan(
                    facts,
                    fix.view(),
                    bad,
                    Some(oracle),
                    100,
                    &mut cache,
                    &protection,
                )
            };
            let mut tight = LazyOracle::with_max_events(1);
            let p = plan_with(&mut tight);
            assert!(tight.too_big().is_some());
            assert_eq!((p.pruned, p.queries), (0, 0));
            let reads_one =
                |p: &Plan| (p.combos.iter()).any(|c| c.values().any(|r| r.others.contains(1)));
            assert!(reads_one(&p), "a combination reads main's x = 1");
            // With the oracle, a combination still reads `main`'s store.
            let p = plan_with(&mut LazyOracle::default());
            assert!(reads_one(&p));
        })
    }
}
