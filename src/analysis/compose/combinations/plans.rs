//! The plans of one thread in one round: one plan of combinations for the flow-sensitive and
//! constraint modes (`plan`), one family per cluster of loads for the optimized mode
//! (`plan_families`), families replaced by their product while that costs no more analyses.
//!
//! Invariant (soundness): a plan, and each family alone, covers every execution of the thread.

use super::choices::{Choice, Key, Plan, SharedLoad};
use super::enumeration::enumerate;
use super::loads::shared_loads;
use super::sources::SourceCache;
use crate::analysis::compose::results::Threads;
use crate::analysis::sync::feasibility::LazyOracle;
use crate::analysis::sync::protection::Protection;
use crate::facts::Facts;

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
            all.insert(l.at, l.joined());
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
            f.insert(l.at, l.joined());
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

#[cfg(test)]
mod tests {
    use super::*;

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
