//! Tests of the feasibility oracle through its public API: the paper's figure 1, each rule
//! where it fires, each rule where it must not fire, and the cache.

use watts_rules::{
    Combination, Event, Loc, LockId, Oracle, RuleId, StaticFacts, ThreadId, Verdict,
};

const X: Loc = Loc(0);
const FLAG: Loc = Loc(1);
const Y: Loc = Loc(2);

fn e(n: u32) -> Event {
    Event(n)
}

/// Declares `events` as one thread class in this order, with program order between every
/// earlier and later event (straight-line code: each dominates the later ones and none is
/// reachable from a later one).
fn straight_line(f: &mut StaticFacts, t: u32, events: &[u32]) {
    for (i, &a) in events.iter().enumerate() {
        f.thread_of(e(a), ThreadId(t));
        for &b in &events[i + 1..] {
            f.program_order(e(a), e(b));
        }
    }
}

fn combination(pairs: &[(u32, u32)]) -> Combination {
    pairs.iter().map(|&(l, s)| (e(l), e(s))).collect()
}

fn check(f: &StaticFacts, pairs: &[(u32, u32)]) -> Verdict {
    Oracle::new(f).check(&combination(pairs))
}

/// FSE'16 figure 1: thread 1 `s4: x = ..; s5: x = ..; s6: flag = 1`,
/// thread 2 `l9: b1 = flag; l11: t1 = x`.
fn figure1() -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 5, 6]);
    straight_line(&mut f, 2, &[9, 11]);
    f.store(e(4), X).store(e(5), X).store(e(6), FLAG);
    f.load(e(9), FLAG).load(e(11), X);
    f
}

#[test]
fn figure1_reading_the_first_x_after_the_flag_is_infeasible() {
    assert_eq!(
        check(&figure1(), &[(9, 6), (11, 4)]),
        Verdict::Infeasible(RuleId::ReadsOverwritten)
    );
}

#[test]
fn figure1_reading_the_last_x_after_the_flag_is_feasible() {
    assert_eq!(check(&figure1(), &[(9, 6), (11, 5)]), Verdict::Feasible);
}

/// Figure 1 with `s5` a `memcpy` that replaces `x` and `y` together (a strong store declared
/// for both), or that may write them only (`may_store`).
fn figure1_copy(strong: bool) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 5, 6]);
    straight_line(&mut f, 2, &[9, 11]);
    f.store(e(4), X).store(e(6), FLAG);
    if strong {
        f.store(e(5), X).store(e(5), Y);
    } else {
        f.may_store(e(5), X).may_store(e(5), Y);
    }
    f.load(e(9), FLAG).load(e(11), X);
    f
}

#[test]
fn a_store_of_several_locations_overwrites_each() {
    assert_eq!(
        check(&figure1_copy(true), &[(9, 6), (11, 4)]),
        Verdict::Infeasible(RuleId::ReadsOverwritten)
    );
    // Must not fire: a copy that may write the cells only.
    assert_eq!(
        check(&figure1_copy(false), &[(9, 6), (11, 4)]),
        Verdict::Feasible
    );
}

#[test]
fn figure1_single_pairs_are_feasible() {
    let f = figure1();
    for pairs in [&[(9, 6)][..], &[(11, 4)], &[(11, 5)], &[]] {
        assert_eq!(check(&f, pairs), Verdict::Feasible, "{pairs:?}");
    }
}

// ---- Rules 1, 2, 3, 5, 6: a load cannot read a store that must happen after it. ----

/// `main: l0 = x; c1: create(T)`, `T: start2; s3: x = 1`.
fn load_before_create() -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1]);
    f.thread_of(e(2), ThreadId(1)).thread_of(e(3), ThreadId(1));
    f.creates(e(1), e(2));
    f.load(e(0), X).store(e(3), X);
    f
}

#[test]
fn reads_from_future_through_create() {
    assert_eq!(
        check(&load_before_create(), &[(0, 3)]),
        Verdict::Infeasible(RuleId::ReadsFromFuture)
    );
}

/// `main: c0: create(T); j1: join(T); s2: x = 1`, `T: start3; l4 = x; end5`.
fn load_before_join(multi: bool) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1, 2]);
    straight_line(&mut f, 1, &[3, 4, 5]);
    f.creates(e(0), e(3)).joins(e(5), e(1));
    f.load(e(4), X).store(e(2), X);
    if multi {
        f.multi_instance(ThreadId(1)).repeats(e(0)).repeats(e(1));
    }
    f
}

#[test]
fn reads_from_future_through_join() {
    assert_eq!(
        check(&load_before_join(false), &[(4, 2)]),
        Verdict::Infeasible(RuleId::ReadsFromFuture)
    );
}

#[test]
fn join_of_a_multi_instance_child_is_not_used() {
    // The join loop may have joined other instances; this one may still run after s2.
    assert_eq!(check(&load_before_join(true), &[(4, 2)]), Verdict::Feasible);
}

/// A join loop: `main: s0: x = 0; c1: create(W) (loop); j2: join (loop); a3: after the
/// loop; l4 = x; s5: x = 2`, `W: start6; l7 = x; s8: x = 1; end9`, with `joins_all(9, 10, 3)` unless `at_least_one` is `None`.
fn join_loop(at_least_one: Option<bool>, store_before_end: bool) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1, 2, 3, 4, 5]);
    if store_before_end {
        straight_line(&mut f, 1, &[6, 7, 8, 9]);
    } else {
        // `s8` is conditional: it does not dominate the end.
        straight_line(&mut f, 1, &[6, 7, 9]);
        f.thread_of(e(8), ThreadId(1)).program_order(e(6), e(8));
    }
    f.multi_instance(ThreadId(1)).repeats(e(1)).repeats(e(2));
    f.creates(e(1), e(6)).joins(e(9), e(2));
    if let Some(one) = at_least_one {
        f.joins_all(e(9), e(10), e(3), one);
    }
    f.store(e(0), X).store(e(8), X).store(e(5), X);
    f.load(e(4), X).load(e(7), X);
    f
}

#[test]
fn after_a_join_loop_the_parent_does_not_read_what_every_instance_overwrote() {
    assert_eq!(
        check(&join_loop(Some(true), true), &[(4, 0)]),
        Verdict::Infeasible(RuleId::ReadsOverwritten)
    );
    assert_eq!(
        check(&join_loop(Some(true), true), &[(4, 8)]),
        Verdict::Feasible
    );
}

#[test]
fn after_a_join_loop_no_instance_reads_a_later_store_of_the_parent() {
    // Ordering alone: no instance needs to have run.
    for (one, before_end) in [(true, true), (false, true), (false, false)] {
        assert_eq!(
            check(&join_loop(Some(one), before_end), &[(7, 5)]),
            Verdict::Infeasible(RuleId::ReadsFromFuture)
        );
    }
}

#[test]
fn a_join_loop_that_may_join_no_instance_does_not_overwrite() {
    // The create loop may run zero times: nobody overwrote s0.
    assert_eq!(
        check(&join_loop(Some(false), true), &[(4, 0)]),
        Verdict::Feasible
    );
}

#[test]
fn a_join_loop_does_not_overwrite_with_a_conditional_store() {
    assert_eq!(
        check(&join_loop(Some(true), false), &[(4, 0)]),
        Verdict::Feasible
    );
}

#[test]
fn without_the_join_loop_fact_nothing_is_ordered() {
    // A join inside the loop may have joined another instance.
    assert_eq!(check(&join_loop(None, true), &[(4, 0)]), Verdict::Feasible);
    assert_eq!(check(&join_loop(None, true), &[(7, 5)]), Verdict::Feasible);
}

#[test]
fn join_that_waits_for_a_different_thread_does_not_order() {
    // main: c0: create(T1); c1: create(T2); j2: join(T1); s3: x = 1
    // T1: start4; l5 = x; end6.   T2: start7; l8 = x; end9.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1, 2, 3]);
    straight_line(&mut f, 1, &[4, 5, 6]);
    straight_line(&mut f, 2, &[7, 8, 9]);
    f.creates(e(0), e(4)).creates(e(1), e(7)).joins(e(6), e(2));
    f.load(e(5), X).load(e(8), X).store(e(3), X);
    assert_eq!(check(&f, &[(8, 3)]), Verdict::Feasible);
    assert_eq!(
        check(&f, &[(5, 3)]),
        Verdict::Infeasible(RuleId::ReadsFromFuture)
    );
}

#[test]
fn program_order_across_instances_of_one_function_is_not_used() {
    // W: start2; l3 = x; s4: x = 1, created twice by main (c1 in a loop). One instance may
    // read what another wrote, even though s4 follows l3 in program order.
    let mut f = StaticFacts::new();
    f.thread_of(e(1), ThreadId(0));
    straight_line(&mut f, 1, &[2, 3, 4]);
    f.creates(e(1), e(2)).repeats(e(1));
    f.load(e(3), X).store(e(4), X);
    assert_eq!(
        check(&f, &[(3, 4)]),
        Verdict::Infeasible(RuleId::ReadsFromFuture),
        "one instance cannot read its own future store"
    );
    f.multi_instance(ThreadId(1));
    assert_eq!(check(&f, &[(3, 4)]), Verdict::Feasible);
}

#[test]
fn program_order_is_only_what_the_caller_gives() {
    // Both in one loop (each reachable from the other): the caller gives no program order.
    let mut f = StaticFacts::new();
    f.thread_of(e(0), ThreadId(0)).thread_of(e(1), ThreadId(0));
    f.thread_of(e(2), ThreadId(1));
    f.repeats(e(0)).repeats(e(1));
    f.load(e(2), X).store(e(1), X).store(e(0), X);
    assert_eq!(check(&f, &[(2, 0)]), Verdict::Feasible);
}

// ---- Static cycle. ----

#[test]
fn happens_before_cycle_when_a_thread_is_created_after_its_join() {
    // main: j0: join(T); c1: create(T); s2: x = 1.  T: start3; l4 = x; end5.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1, 2]);
    straight_line(&mut f, 1, &[3, 4, 5]);
    f.creates(e(1), e(3)).joins(e(5), e(0));
    f.load(e(4), X).store(e(2), X);
    assert_eq!(
        check(&f, &[(4, 2)]),
        Verdict::Infeasible(RuleId::HappensBeforeCycle)
    );
}

// ---- Rule 4: overwrites. ----

#[test]
fn figure1_with_the_second_store_to_another_location_is_feasible() {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 5, 6]);
    straight_line(&mut f, 2, &[9, 11]);
    f.store(e(4), X).store(e(5), Y).store(e(6), FLAG);
    f.load(e(9), FLAG).load(e(11), X);
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
}

#[test]
fn figure1_with_unordered_stores_is_feasible() {
    // s5 runs in a third thread, unordered with s4.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 6]);
    straight_line(&mut f, 3, &[5]);
    straight_line(&mut f, 2, &[9, 11]);
    f.store(e(4), X).store(e(5), X).store(e(6), FLAG);
    f.load(e(9), FLAG).load(e(11), X);
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
}

#[test]
fn figure1_with_a_weak_overwrite_is_feasible() {
    // s5 may write another cell of the same abstract location (e.g. `*p = ..`).
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 5, 6]);
    straight_line(&mut f, 2, &[9, 11]);
    f.store(e(4), X).may_store(e(5), X).store(e(6), FLAG);
    f.load(e(9), FLAG).load(e(11), X);
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
}

#[test]
fn figure1_with_a_multi_instance_writer_is_feasible() {
    // Instance B runs s4 s5 s6; l9 reads B's flag; instance A then runs s4; l11 reads it.
    let mut f = figure1();
    f.thread_of(e(0), ThreadId(0)).thread_of(e(3), ThreadId(1));
    f.creates(e(0), e(3))
        .repeats(e(0))
        .multi_instance(ThreadId(1));
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
    assert_eq!(check(&f, &[(9, 6), (11, 5)]), Verdict::Feasible);
}

#[test]
fn figure1_with_a_multi_instance_reader_is_still_infeasible() {
    // The loads of one combination are read by one instance of the reader.
    let mut f = figure1();
    f.thread_of(e(0), ThreadId(0)).thread_of(e(8), ThreadId(2));
    f.creates(e(0), e(8))
        .repeats(e(0))
        .multi_instance(ThreadId(2));
    f.program_order(e(8), e(9)).program_order(e(8), e(11));
    assert_eq!(
        check(&f, &[(9, 6), (11, 4)]),
        Verdict::Infeasible(RuleId::ReadsOverwritten)
    );
    assert_eq!(check(&f, &[(9, 6), (11, 5)]), Verdict::Feasible);
}

/// `main: s0: x = 1; c1: create(W)`, `W: start2; s3: x = 2; l4 = x`.
fn own_overwrite(multi: bool) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 0, &[0, 1]);
    straight_line(&mut f, 1, &[2, 3, 4]);
    f.creates(e(1), e(2));
    f.store(e(0), X).store(e(3), X).load(e(4), X);
    if multi {
        f.repeats(e(1)).multi_instance(ThreadId(1));
    }
    f
}

#[test]
fn overwrite_by_the_reading_thread_itself() {
    for multi in [false, true] {
        assert_eq!(
            check(&own_overwrite(multi), &[(4, 0)]),
            Verdict::Infeasible(RuleId::ReadsOverwritten),
            "multi = {multi}"
        );
    }
}

#[test]
fn overwrite_by_another_instance_is_not_used() {
    // rf(l4, s3) with s3 from another instance of W: feasible.
    assert_eq!(check(&own_overwrite(true), &[(4, 3)]), Verdict::Feasible);
}

#[test]
fn create_site_that_is_not_unique_is_not_used() {
    // main: s0: x = 1; if (..) { s1: x = 2; c2: create(T) } else { c3: create(T) }
    // T: start4; l5 = x. In the else branch l5 reads s0.
    let mut f = StaticFacts::new();
    for ev in [0, 1, 2, 3] {
        f.thread_of(e(ev), ThreadId(0));
    }
    f.program_order(e(0), e(1))
        .program_order(e(0), e(2))
        .program_order(e(1), e(2))
        .program_order(e(0), e(3));
    straight_line(&mut f, 1, &[4, 5]);
    f.creates(e(2), e(4)).creates(e(3), e(4));
    f.store(e(0), X).store(e(1), X).load(e(5), X);
    assert_eq!(check(&f, &[(5, 0)]), Verdict::Feasible);
}

// ---- Rule 7: an overwritten value cannot be re-read. ----

/// `T1: s1: x = 1`, `T2: l2 = x; s3: x|y = 2; l4 = x`.
fn reread(second_store: Loc) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[1]);
    straight_line(&mut f, 2, &[2, 3, 4]);
    f.store(e(1), X).store(e(3), second_store);
    f.load(e(2), X).load(e(4), X);
    f
}

#[test]
fn overwritten_reread() {
    assert_eq!(
        check(&reread(X), &[(2, 1), (4, 1)]),
        Verdict::Infeasible(RuleId::OverwrittenReread)
    );
}

#[test]
fn reread_after_a_store_to_another_location_is_feasible() {
    assert_eq!(check(&reread(Y), &[(2, 1), (4, 1)]), Verdict::Feasible);
}

#[test]
fn reread_before_the_overwrite_is_feasible() {
    // T2: l2 = x; l4 = x; s3: x = 2.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[1]);
    straight_line(&mut f, 2, &[2, 4, 3]);
    f.store(e(1), X).store(e(3), X);
    f.load(e(2), X).load(e(4), X);
    assert_eq!(check(&f, &[(2, 1), (4, 1)]), Verdict::Feasible);
}

#[test]
fn reread_of_a_repeating_store_is_feasible() {
    // T1: while (..) { s1: x = 1 }: l4 may read a later occurrence of s1.
    let mut f = reread(X);
    f.repeats(e(1));
    assert_eq!(check(&f, &[(2, 1), (4, 1)]), Verdict::Feasible);
}

#[test]
fn reread_of_a_multi_instance_store_is_feasible() {
    let mut f = reread(X);
    f.thread_of(e(0), ThreadId(0)).thread_of(e(9), ThreadId(1));
    f.creates(e(0), e(9))
        .repeats(e(0))
        .multi_instance(ThreadId(1));
    assert_eq!(check(&f, &[(2, 1), (4, 1)]), Verdict::Feasible);
}

// ---- Loads that do not read exactly one store. ----

#[test]
fn a_load_reading_one_of_several_stores_is_not_used() {
    let f = figure1();
    let mut c = combination(&[(9, 6)]);
    c.reads_one_of(e(11), [e(4), e(5)]);
    assert_eq!(Oracle::new(&f).check(&c), Verdict::Feasible);
    // Even a set with a single store: the load may also read its own state.
    let mut c = combination(&[(9, 6)]);
    c.reads_one_of(e(11), [e(4)]);
    assert_eq!(Oracle::new(&f).check(&c), Verdict::Feasible);
}

#[test]
fn a_repeating_load_is_not_used() {
    let mut f = figure1();
    f.repeats(e(11));
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
}

#[test]
fn a_load_given_two_stores_is_not_used() {
    assert_eq!(
        check(&figure1(), &[(9, 6), (11, 4), (11, 5)]),
        Verdict::Feasible
    );
}

#[test]
fn facts_about_unknown_events_are_ignored() {
    // No thread for the reader: nothing can be placed.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[4, 5, 6]);
    f.store(e(4), X).store(e(5), X).store(e(6), FLAG);
    f.load(e(9), FLAG).load(e(11), X).program_order(e(9), e(11));
    assert_eq!(check(&f, &[(9, 6), (11, 4)]), Verdict::Feasible);
    assert_eq!(check(&f, &[(100, 200)]), Verdict::Feasible);
}

// ---- Cache. ----

#[test]
fn the_same_combination_is_evaluated_once() {
    let oracle = Oracle::new(&figure1());
    let a = combination(&[(9, 6), (11, 4)]);
    let b = combination(&[(11, 4), (9, 6)]);
    assert_eq!(a, b, "canonical form");
    assert!(oracle.check(&a).is_infeasible());
    assert!(oracle.check(&b).is_infeasible());
    let stats = oracle.stats();
    assert_eq!((stats.queries, stats.evaluations), (2, 1));
}

#[test]
fn a_combination_of_the_same_shape_for_another_thread_is_not_reused() {
    // Thread 3 is thread 2 with its loads swapped: l12 = x; l13 = flag. The original's cache,
    // keyed by the index vector (1, 0), would have answered it with thread 2's verdict.
    let mut f = figure1();
    straight_line(&mut f, 3, &[12, 13]);
    f.load(e(12), X).load(e(13), FLAG);
    let oracle = Oracle::new(&f);
    assert!(oracle
        .check(&combination(&[(9, 6), (11, 4)]))
        .is_infeasible());
    assert_eq!(
        oracle.check(&combination(&[(13, 6), (12, 4)])),
        Verdict::Feasible
    );
    assert_eq!(oracle.stats().evaluations, 2);
}

#[test]
fn the_oracle_is_shared_between_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Oracle>();
    let oracle = Oracle::new(&figure1());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                for _ in 0..10 {
                    assert!(oracle
                        .check(&combination(&[(9, 6), (11, 4)]))
                        .is_infeasible());
                    assert!(!oracle
                        .check(&combination(&[(9, 6), (11, 5)]))
                        .is_infeasible());
                }
            });
        }
    });
    assert_eq!(oracle.stats().queries, 40);
    assert!(oracle.stats().evaluations <= 4);
}

#[test]
fn static_must_happen_before_is_exposed() {
    let oracle = Oracle::new(&load_before_create());
    assert!(oracle.must_happen_before(e(0), e(3)));
    assert!(!oracle.must_happen_before(e(3), e(0)));
}

// ---- Mutual exclusion (LockedOverwrite). ----

const M: LockId = LockId(1);
const OTHER: LockId = LockId(2);

/// Events 1 and 2 in program order in thread 1, event 3 in thread 2 (or in thread 1's class,
/// of several instances, when `same_class`).
fn two_events_and_one(same_class: bool) -> StaticFacts {
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[1, 2]);
    f.thread_of(e(3), ThreadId(if same_class { 1 } else { 2 }));
    if same_class {
        f.multi_instance(ThreadId(1));
    }
    f
}

/// `T1: s1: x = 1; s2: x = 2` both under `lock_w` (s1 overwritten before the release when
/// `overwritten`), `T2: l3 = x` under `lock_r` (if any).
fn locked(
    lock_w: LockId,
    lock_r: Option<LockId>,
    overwritten: bool,
    same_class: bool,
) -> StaticFacts {
    let mut f = two_events_and_one(same_class);
    f.store(e(1), X).store(e(2), X).load(e(3), X);
    f.held(e(1), lock_w).held(e(2), lock_w);
    if overwritten {
        f.overwritten_before_release(e(1), lock_w, X);
    }
    if let Some(m) = lock_r {
        f.held(e(3), m);
    }
    f
}

#[test]
fn a_locked_load_does_not_read_a_value_overwritten_under_the_lock() {
    assert_eq!(
        check(&locked(M, Some(M), true, false), &[(3, 1)]),
        Verdict::Infeasible(RuleId::LockedOverwrite)
    );
    // The last value of the section may be read.
    assert_eq!(
        check(&locked(M, Some(M), true, false), &[(3, 2)]),
        Verdict::Feasible
    );
}

#[test]
fn mutual_exclusion_must_not_fire_without_its_premises() {
    // The load does not hold the lock, holds another one, or the store is not overwritten
    // before the release.
    for f in [
        locked(M, None, true, false),
        locked(M, Some(OTHER), true, false),
        locked(M, Some(M), false, false),
    ] {
        assert_eq!(check(&f, &[(3, 1)]), Verdict::Feasible);
    }
}

#[test]
fn mutual_exclusion_needs_two_thread_classes() {
    // Two instances of one class may be the same instance: within one critical section the
    // load may follow s1 and precede s2.
    assert_eq!(
        check(&locked(M, Some(M), true, true), &[(3, 1)]),
        Verdict::Feasible
    );
}

// ---- Mutual exclusion, the dual (LockedOwnStore). ----

/// `T1: s1: x = 1; l2 = x` under `lock_l` (with the "stored since the acquisition" fact when
/// `stored`), `T2: s3: x = 2` under `lock_s` (if any); T2 is T1's class when `same_class`.
fn own_store(
    lock_l: LockId,
    lock_s: Option<LockId>,
    stored: bool,
    same_class: bool,
) -> StaticFacts {
    let mut f = two_events_and_one(same_class);
    f.store(e(1), X).load(e(2), X).store(e(3), X);
    f.held(e(1), lock_l).held(e(2), lock_l);
    if stored {
        f.stored_since_acquire(e(2), lock_l, X);
    }
    if let Some(m) = lock_s {
        f.held(e(3), m);
    }
    f
}

#[test]
fn a_locked_load_after_its_own_store_does_not_read_another_threads_locked_store() {
    assert_eq!(
        check(&own_store(M, Some(M), true, false), &[(2, 3)]),
        Verdict::Infeasible(RuleId::LockedOwnStore)
    );
    // Its own store may be read.
    assert_eq!(
        check(&own_store(M, Some(M), true, false), &[(2, 1)]),
        Verdict::Feasible
    );
}

#[test]
fn the_dual_lock_rule_must_not_fire_without_its_premises() {
    // The other store holds no lock or another one; the load's thread did not store since it
    // acquired the lock (a store on some paths only, or a release in between).
    for f in [
        own_store(M, None, true, false),
        own_store(M, Some(OTHER), true, false),
        own_store(M, Some(M), false, false),
    ] {
        assert_eq!(check(&f, &[(2, 3)]), Verdict::Feasible);
    }
    // The fact names another location than the one loaded.
    let mut f = own_store(M, Some(M), false, false);
    f.stored_since_acquire(e(2), M, Y);
    assert_eq!(check(&f, &[(2, 3)]), Verdict::Feasible);
    // The fact without the load holding the lock (a caller's mistake) is not used either.
    let mut f = StaticFacts::new();
    straight_line(&mut f, 1, &[1, 2]);
    f.thread_of(e(3), ThreadId(2));
    f.store(e(1), X).load(e(2), X).store(e(3), X);
    f.held(e(3), M).stored_since_acquire(e(2), M, X);
    assert_eq!(check(&f, &[(2, 3)]), Verdict::Feasible);
}

#[test]
fn the_dual_lock_rule_needs_two_thread_classes() {
    // The store of the same class may be the reader's own later store to x.
    assert_eq!(
        check(&own_store(M, Some(M), true, true), &[(2, 3)]),
        Verdict::Feasible
    );
}

#[test]
fn the_dual_lock_rule_holds_for_a_multi_instance_writer() {
    // Every instance of T2 holds m at s3, so none of them enters T1's section.
    let mut f = own_store(M, Some(M), true, false);
    f.multi_instance(ThreadId(2)).repeats(e(3));
    assert_eq!(
        check(&f, &[(2, 3)]),
        Verdict::Infeasible(RuleId::LockedOwnStore)
    );
}
