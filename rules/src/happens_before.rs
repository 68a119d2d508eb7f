//! The deduction rules of FSE'16 figure 4, as crepe Datalog over the nodes of one query.
//!
//! Invariant: every relation is read in the strong form of `rules/README.md` (every
//! occurrence a node denotes precedes every occurrence the other denotes, and an occurrence of
//! the later one is preceded by one of the earlier one), and every recursive rule is linear
//! (`mhb(a, c) <- mhb(a, b), edge(b, c)`, never `mhb ∘ mhb`).
//!
//! Node ids are dense per query (see `oracle`); the static part of rules 1, 2 and 5 arrives
//! already closed as `Step`, so a query only derives what its reads-from facts add. As in the
//! original's magic-sets setting, `mhb` is computed only from the *witness* nodes (the loads
//! and stores of the reads-from pairs), which are the only sources the conclusions need.

/// The input of one query, over dense node ids.
#[derive(Debug, Default)]
pub(crate) struct QueryFacts {
    /// Static must-happen-before between query nodes (rules 1, 2, 5, already closed).
    pub step: Vec<(u32, u32)>,
    /// `(load, store)`: the load reads exactly that store occurrence.
    pub reads_from: Vec<(u32, u32)>,
    /// `(load, loc)` for witness loads with a single location.
    pub load_of: Vec<(u32, u32)>,
    /// `(store, loc)` for strong stores (candidates for the overwriting store `s2`).
    pub strong_store_of: Vec<(u32, u32)>,
    /// Nodes that are loads of a reads-from pair.
    pub loads: Vec<u32>,
    /// Nodes that are stores (of a pair, or strong-store candidates).
    pub stores: Vec<u32>,
    /// Nodes that denote one occurrence that exists in every execution realising the query.
    pub witnesses: Vec<u32>,
    /// `(load, lock)`: the load holds the lock exclusively.
    pub held_at: Vec<(u32, u32)>,
    /// `(store, lock, loc)`: the store holds the lock and its thread stores to `loc` again
    /// before releasing it.
    pub overwritten_under: Vec<(u32, u32, u32)>,
    /// `(load, store)` of a pair whose two events belong to different thread classes.
    pub other_thread: Vec<(u32, u32)>,
    /// `(store, lock)`: a store of a pair (of another class than its load) holds the lock
    /// exclusively.
    pub store_held: Vec<(u32, u32)>,
    /// `(load, lock, loc)`: the load holds the lock, and its thread stored to `loc` on every
    /// path since it acquired the lock (pairs with a store of another class only).
    pub stored_since_acquire: Vec<(u32, u32, u32)>,
}

/// What the rules concluded.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Conclusions {
    /// Rules 1, 2, 5 alone put a witness on a cycle.
    pub static_cycle: bool,
    /// Rules 1, 2, 3, 5, 6: some pair's load must happen before its store.
    pub reads_from_future: bool,
    /// Rule 7 forbids a pair of the combination.
    pub overwritten_reread: bool,
    /// With rule 4: a cycle through a witness, or a pair whose load must happen before its store.
    pub with_overwrites: bool,
    /// Mutual exclusion: a load under a lock reads a store overwritten before the lock's release.
    pub locked_overwrite: bool,
    /// Mutual exclusion: a load under a lock, after its own store since the acquisition, reads
    /// another thread's store made under the same lock.
    pub locked_own_store: bool,
}

mod query {
    use crepe::crepe;

    crepe! {
        @input
        struct Step(u32, u32);
        @input
        struct ReadsFrom(u32, u32);
        @input
        struct LoadOf(u32, u32);
        @input
        struct StrongStoreOf(u32, u32);
        @input
        struct IsLoad(u32);
        @input
        struct IsStore(u32);
        @input
        struct Witness(u32);
        @input
        struct HeldAt(u32, u32);
        @input
        struct OverwrittenUnder(u32, u32, u32);
        @input
        struct OtherThread(u32, u32);
        @input
        struct StoreHeld(u32, u32);
        @input
        struct StoredSinceAcquire(u32, u32, u32);

        // --- Without rule 4: rules 1, 2, 3, 5, 6. ---
        struct BaseEdge(u32, u32);
        struct BaseMhb(u32, u32);

        // Soundness: rules 1 and 2 (program order, create, join) arrive closed as `Step`;
        // the oracle emits a step only where the strong form holds (README, "Static edges"
        // and "Nodes of a query").
        BaseEdge(a, b) <- Step(a, b);
        // Soundness (rule 3): a load reads a value written before it, so the witnessed store
        // occurrence precedes the witnessed load occurrence (each witness is one occurrence).
        BaseEdge(s, l) <- ReadsFrom(l, s);
        // Soundness (rule 5): the strong form composes (linear, from witnesses only).
        BaseMhb(a, b) <- Witness(a), BaseEdge(a, b);
        BaseMhb(a, c) <- BaseMhb(a, b), BaseEdge(b, c);

        @output
        struct StaticCycle(u32);
        @output
        struct BaseConflict(u32, u32);

        // Soundness: a witness occurs, so it cannot precede itself (`Step` is already closed).
        StaticCycle(n) <- Witness(n), Step(n, m), (n == m);
        // Soundness (rule 6): mhb(l, s) with l a load and s a store gives mnrf(l, s), which
        // contradicts rf(l, s).
        BaseConflict(l, s) <- ReadsFrom(l, s), BaseMhb(l, s), IsLoad(l), IsStore(s);

        // --- All rules. ---
        struct Edge(u32, u32);
        struct Mhb(u32, u32);
        struct ToLoad(u32, u32);
        struct MustNotReadFrom(u32, u32);
        struct MustNotReread(u32, u32);

        Edge(a, b) <- BaseEdge(a, b);
        // Soundness (rule 4): if l reads s1, every occurrence of s2 follows s1, and s2 is a
        // strong store of the cell l reads, then an s2 before l would have overwritten s1's
        // value; so l precedes every occurrence of s2. (The paper's premise st(s1, v) is not
        // needed: rf(l, s1) already says s1 wrote the cell l reads.)
        Edge(l, s2) <- ReadsFrom(l, s1), Mhb(s1, s2), LoadOf(l, v), StrongStoreOf(s2, v);
        // Soundness (rule 5): linear transitivity from the witnesses.
        Mhb(a, b) <- Witness(a), Edge(a, b);
        Mhb(a, c) <- Mhb(a, b), Edge(b, c);

        // mhb(x, l) into a witness load from any node: a path leaves a non-witness node only
        // by a static step (reads-from and overwrite edges start at witnesses).
        ToLoad(x, l) <- Mhb(x, l), IsLoad(l);
        ToLoad(x, l) <- Step(x, l), IsLoad(l);
        ToLoad(x, l) <- Mhb(w, l), IsLoad(l), Step(x, w);

        // Soundness (rule 6): as above, with the overwrite edges.
        MustNotReadFrom(l, s) <- Mhb(l, s), IsLoad(l), IsStore(s);
        // Soundness (rule 7): s1 < l1 < (every) s2, some s2 < l2, s2 a strong store of the
        // cell l2 reads: that occurrence of s1 is overwritten before l2.
        // (l1 = l2 would need a cycle, which the other conclusions already report.)
        MustNotReread(l2, s1) <-
            ReadsFrom(l1, s1), Mhb(l1, s2), StrongStoreOf(s2, v), ToLoad(s2, l2), LoadOf(l2, v),
            (l1 != l2);

        @output
        struct Cycle(u32);
        @output
        struct Conflict(u32, u32);
        @output
        struct RereadConflict(u32, u32);

        @output
        struct LockConflict(u32, u32);

        // Soundness (mutual exclusion, README "LockedOverwrite"): l and s are in critical
        // sections of the same lock in different threads, which do not overlap; the store's
        // thread overwrites the cell before leaving its section, so l cannot read s.
        LockConflict(l, s) <-
            ReadsFrom(l, s), OtherThread(l, s), HeldAt(l, m), OverwrittenUnder(s, m, v),
            LoadOf(l, v);

        @output
        struct OwnStoreConflict(u32, u32);

        // Soundness (mutual exclusion, README "LockedOwnStore"): l's thread holds m without a
        // break from its own strong store to v to l; s, of another class, holds m, so it
        // cannot lie between them, and a store before them is overwritten before l.
        OwnStoreConflict(l, s) <-
            ReadsFrom(l, s), OtherThread(l, s), HeldAt(l, m), StoredSinceAcquire(l, m, v),
            StoreHeld(s, m), LoadOf(l, v);

        Cycle(n) <- Mhb(n, m), (n == m);
        Conflict(l, s) <- ReadsFrom(l, s), MustNotReadFrom(l, s);
        RereadConflict(l, s) <- ReadsFrom(l, s), MustNotReread(l, s);
    }

    pub(super) fn run(facts: &super::QueryFacts) -> super::Conclusions {
        let mut runtime = Crepe::new();
        runtime.extend(facts.step.iter().map(|&(a, b)| Step(a, b)));
        runtime.extend(facts.reads_from.iter().map(|&(l, s)| ReadsFrom(l, s)));
        runtime.extend(facts.load_of.iter().map(|&(l, v)| LoadOf(l, v)));
        runtime.extend(
            facts
                .strong_store_of
                .iter()
                .map(|&(s, v)| StrongStoreOf(s, v)),
        );
        runtime.extend(facts.loads.iter().map(|&l| IsLoad(l)));
        runtime.extend(facts.stores.iter().map(|&s| IsStore(s)));
        runtime.extend(facts.witnesses.iter().map(|&w| Witness(w)));
        runtime.extend(facts.held_at.iter().map(|&(l, m)| HeldAt(l, m)));
        runtime
            .extend((facts.overwritten_under.iter()).map(|&(s, m, v)| OverwrittenUnder(s, m, v)));
        runtime.extend(facts.other_thread.iter().map(|&(l, s)| OtherThread(l, s)));
        runtime.extend(facts.store_held.iter().map(|&(s, m)| StoreHeld(s, m)));
        runtime.extend(
            (facts.stored_since_acquire.iter()).map(|&(l, m, v)| StoredSinceAcquire(l, m, v)),
        );
        // FxHash: the facts are small integers, and SipHash dominated a query.
        let (static_cycle, base_conflict, cycle, conflict, reread, lock_conflict, own_store) =
            runtime.run_with_hasher::<rustc_hash::FxBuildHasher>();
        super::Conclusions {
            static_cycle: !static_cycle.is_empty(),
            reads_from_future: !base_conflict.is_empty(),
            overwritten_reread: !reread.is_empty(),
            with_overwrites: !cycle.is_empty() || !conflict.is_empty(),
            locked_overwrite: !lock_conflict.is_empty(),
            locked_own_store: !own_store.is_empty(),
        }
    }
}

/// Runs the rules of figure 4 on one query.
pub(crate) fn evaluate(facts: &QueryFacts) -> Conclusions {
    if nothing_to_conclude(facts) {
        return Conclusions::default();
    }
    query::run(facts)
}

/// Whether the rules above surely conclude nothing on `q`, decided without running them:
/// most queries of a program are feasible, and a Datalog run costs far more than this check.
/// It may answer `false` for a query the rules find nothing in (it then only costs the run);
/// it never answers `true` for one they would refute (a random cross-check in the tests).
///
/// Why it is exact when it says `true`: rule 4 is the only rule that adds edges beyond `Step`
/// and reads-from; if no rule-4 edge can be derived from the base reachability, `Mhb` *is* the
/// base reachability from the witnesses (by induction over the fixpoint). Then a cycle means
/// a witness that reaches itself, rule 6 a load that reaches the store it reads, rule 7
/// implies a rule-4 edge (README, "Rule 7 is implied"), and the two lock rules read only inputs.
fn nothing_to_conclude(q: &QueryFacts) -> bool {
    let nodes = (q.step.iter().chain(&q.reads_from))
        .flat_map(|&(a, b)| [a, b])
        .chain(q.witnesses.iter().copied())
        .chain(q.strong_store_of.iter().map(|&(s, _)| s))
        .max()
        .map_or(0, |m| m as usize + 1);
    if nodes > 128 {
        return false;
    }
    let bit = |n: u32| 1u128 << n;
    // Base edges: static steps, and store → load for every reads-from pair.
    let mut reach = vec![0u128; nodes];
    for &(a, b) in &q.step {
        reach[a as usize] |= bit(b);
    }
    for &(l, s) in &q.reads_from {
        reach[s as usize] |= bit(l);
    }
    // Transitive closure (Warshall over bit rows).
    for k in 0..nodes {
        for i in 0..nodes {
            if reach[i] & bit(k as u32) != 0 {
                reach[i] |= reach[k];
            }
        }
    }
    let reaches = |a: u32, b: u32| reach[a as usize] & bit(b) != 0;
    if q.witnesses.iter().any(|&w| reaches(w, w)) {
        return false;
    }
    for &(l, s1) in &q.reads_from {
        if reaches(l, s1) {
            return false;
        }
        for v in q
            .load_of
            .iter()
            .filter(|&&(ll, _)| ll == l)
            .map(|&(_, v)| v)
        {
            if (q.strong_store_of.iter()).any(|&(s2, w)| w == v && reaches(s1, s2)) {
                return false;
            }
        }
    }
    let lock_conflict = q.reads_from.iter().any(|&(l, s)| {
        q.other_thread.contains(&(l, s))
            && q.held_at.iter().any(|&(hl, m)| {
                hl == l
                    && q.overwritten_under
                        .iter()
                        .any(|&(os, om, v)| os == s && om == m && q.load_of.contains(&(l, v)))
            })
    });
    let own_store_conflict = q.reads_from.iter().any(|&(l, s)| {
        q.other_thread.contains(&(l, s))
            && q.stored_since_acquire.iter().any(|&(sl, m, v)| {
                sl == l
                    && q.held_at.contains(&(l, m))
                    && q.store_held.contains(&(s, m))
                    && q.load_of.contains(&(l, v))
            })
    });
    !lock_conflict && !own_store_conflict
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random small queries: whenever the shortcut says "nothing", the rules agree.
    #[test]
    fn the_shortcut_never_hides_a_conclusion() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n) as u32
        };
        let (mut skipped, mut concluded) = (0, 0);
        for _ in 0..20_000 {
            let n = 2 + next(7);
            let mut q = QueryFacts::default();
            for _ in 0..next(2 * n as u64) {
                q.step.push((next(n as u64), next(n as u64)));
            }
            for _ in 0..1 + next(3) {
                let (l, s) = (next(n as u64), next(n as u64));
                q.reads_from.push((l, s));
                q.loads.push(l);
                q.stores.push(s);
                q.witnesses.extend([l, s]);
                if next(2) == 0 {
                    q.load_of.push((l, next(2)));
                }
                if next(2) == 0 {
                    q.other_thread.push((l, s));
                    q.held_at.push((l, next(2)));
                    q.overwritten_under.push((s, next(2), next(2)));
                }
                if next(2) == 0 {
                    q.other_thread.push((l, s));
                    q.held_at.push((l, next(2)));
                    q.store_held.push((s, next(2)));
                    q.stored_since_acquire.push((l, next(2), next(2)));
                }
            }
            for _ in 0..next(3) {
                let s = next(n as u64);
                q.strong_store_of.push((s, next(2)));
                q.stores.push(s);
            }
            let found = query::run(&q);
            if nothing_to_conclude(&q) {
                skipped += 1;
                assert_eq!(found, Conclusions::default(), "{q:?}");
            } else if found != Conclusions::default() {
                concluded += 1;
            }
        }
        assert!(skipped > 1000 && concluded > 1000, "{skipped} {concluded}");
    }
}

/// The static closure written linearly in crepe; `Oracle::new` uses the bitset closure
/// instead, and the tests check that both agree and compare their cost.
#[cfg(test)]
pub(crate) mod static_closure {
    use crepe::crepe;

    crepe! {
        @input
        struct StaticEdge(u32, u32);
        @output
        struct StaticClosure(u32, u32);

        StaticClosure(a, b) <- StaticEdge(a, b);
        StaticClosure(a, c) <- StaticClosure(a, b), StaticEdge(b, c);
    }

    /// The closure of `edges`, sorted.
    pub(crate) fn run(edges: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let mut runtime = Crepe::new();
        runtime.extend(edges.iter().map(|&(a, b)| StaticEdge(a, b)));
        let (closure,) = runtime.run();
        let mut out: Vec<_> = closure
            .into_iter()
            .map(|StaticClosure(a, b)| (a, b))
            .collect();
        out.sort_unstable();
        out
    }
}
