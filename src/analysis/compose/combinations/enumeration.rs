//! The enumeration of one plan's combinations (FSE'16, Alg. 3 and 4): every choice of options for
//! the loads, fewer cuts first, made lazily; with the oracle, a search over the stores of the
//! chosen groups for a choice it does not refute, the combination's witness.
//!
//! Invariant (soundness): a combination is dropped only when the oracle refutes every choice of
//! stores tried inside it, or a kept combination covers it (`reductions::covered_by_kept`); past
//! `--max-combinations` or the memory budget every load reads the join of its candidates.

use super::choices::{Candidate, Choice, Key, Pick, Plan, SharedLoad};
use super::publisher::Publishers;
use super::reductions::covered_by_kept;
use super::sources::SourceFinder;
use crate::analysis::compose::results::Threads;
use crate::analysis::engine::LoadRead;
use crate::analysis::sync::feasibility::Feasibility;
use crate::analysis::Flow;
use crate::facts::Facts;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use watts_domains::Interval;
use watts_rules::{Combination, Verdict};

use crate::limits::INNER_LIMIT;

/// Enumerates the combinations of `loads` (the other loads read as `fixed` says).
#[allow(clippy::too_many_arguments)]
pub(super) fn enumerate<D: watts_domains::NumDomain>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    feas: Option<&Feasibility>,
    max: usize,
    fixed: HashMap<Key, LoadRead>,
    loads: &[SharedLoad],
    sources: &mut SourceFinder<'_, '_, D>,
) -> Plan {
    let total = loads
        .iter()
        .try_fold(1usize, |acc, l| acc.checked_mul(l.options.len()));
    if total.is_none_or(|n| n > max) {
        return joined_plan(fixed, loads, false);
    }
    let mut plan = Plan::default();
    let mut kept: HashSet<Vec<usize>> = HashSet::default();
    let mut publishers = Publishers::new(facts.program, threads);
    for digits in by_cuts(loads) {
        // Soundness: past the memory budget the combinations made so far are dropped and the
        // plan says so; the fixpoint then gives up, and the analysis falls back to the
        // flow-insensitive mode (`verdict::runs`), which over-approximates every mode.
        if crate::error::over_memory_budget() {
            drop((plan, kept));
            return joined_plan(fixed, loads, true);
        }
        plan.enumerated += 1;
        if covered_by_kept(loads, &digits, &kept) {
            kept.insert(digits);
            plan.covered += 1;
            continue;
        }
        let witness = match feas {
            None => {
                let remote = remote_groups(loads, &digits);
                Some(picks_of(loads, &digits, &remote, &vec![0; remote.len()]))
            }
            Some(f) => {
                let w = witness(f, i, loads, &digits, sources, &mut plan.queries);
                if w.is_none() {
                    plan.pruned += 1;
                }
                w
            }
        };
        if let Some(picks) = witness {
            let (mut map, flows) = reads(facts, threads, i, loads, &picks, &fixed);
            publisher_views(&mut publishers, i, loads, &picks, &mut map);
            plan.combos.push(map);
            plan.flows.push(flows);
            kept.insert(digits);
        }
    }
    plan
}

/// The plan of one combination in which every load of `loads` reads its joined reading (the
/// others as `fixed` says): what is left past `--max-combinations`, or past the memory budget
/// (`over_memory`).
fn joined_plan(mut fixed: HashMap<Key, LoadRead>, loads: &[SharedLoad], over_memory: bool) -> Plan {
    for l in loads {
        fixed.insert(l.at, l.joined());
    }
    Plan {
        combos: vec![fixed],
        flows: vec![Vec::new()],
        enumerated: 1,
        fallback: true,
        over_memory,
        ..Plan::default()
    }
}

/// The loads that read another thread in the combination `digits` (by index in `loads`), and
/// the members of their chosen groups.
fn remote_groups<'l>(loads: &'l [SharedLoad], digits: &[usize]) -> Vec<(usize, &'l Vec<usize>)> {
    loads
        .iter()
        .zip(digits)
        .enumerate()
        .filter_map(|(k, (l, d))| match l.options[*d] {
            Choice::Remote(g) => Some((k, &l.groups[g])),
            _ => None,
        })
        .collect()
}

/// The stores picked in the combination `digits`: member `inner[k]` of the group of the `k`-th
/// load of `remote` (`remote_groups`).
fn picks_of(
    loads: &[SharedLoad],
    digits: &[usize],
    remote: &[(usize, &Vec<usize>)],
    inner: &[usize],
) -> HashMap<Key, Pick> {
    let mut picks: HashMap<Key, Pick> = loads
        .iter()
        .zip(digits)
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
}

/// The first choice of stores inside the chosen groups of the combination `digits` that the
/// oracle does not refute (the combination's witness), counting the oracle's `queries`; `None`
/// when it refutes every choice. After `INNER_LIMIT` queries the next choice is the witness,
/// unchecked.
fn witness<D>(
    f: &Feasibility,
    i: usize,
    loads: &[SharedLoad],
    digits: &[usize],
    sources: &mut SourceFinder<'_, '_, D>,
    queries: &mut usize,
) -> Option<HashMap<Key, Pick>> {
    let remote = remote_groups(loads, digits);
    let mut inner = vec![0usize; remote.len()];
    let mut tries = 0;
    loop {
        let picks = picks_of(loads, digits, &remote, &inner);
        let comb = combination(f, i, loads, &picks, sources);
        *queries += 1;
        tries += 1;
        if !matches!(f.oracle.check(&comb), Verdict::Infeasible(_)) {
            return Some(picks);
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
            return None;
        }
        if tries >= INNER_LIMIT {
            // Soundness: not shown infeasible, so kept.
            return Some(picks_of(loads, digits, &remote, &inner));
        }
    }
}

/// What every load of `loads` reads with the stores `picks` (the other loads as `fixed` says),
/// and the remote reads that assumes (for explanations).
fn reads<D>(
    facts: &Facts<'_>,
    threads: Threads<'_, D>,
    i: usize,
    loads: &[SharedLoad],
    picks: &HashMap<Key, Pick>,
    fixed: &HashMap<Key, LoadRead>,
) -> (HashMap<Key, LoadRead>, Vec<Flow>) {
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
    (map, flows)
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
    if f.trace {
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

#[cfg(test)]
mod tests {
    use super::super::choices::testing::three;
    use super::*;

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
}
