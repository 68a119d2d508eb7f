//! States that share structure: two environments derived from one ancestor (a clone, then a few
//! `set`s each, at indices spread over several levels of the persistent vector) must combine
//! exactly as their per-variable intervals say, although the operations skip what they share.

use proptest::prelude::*;
use watts_domains::laws;
use watts_domains::{Interval, IntervalEnv, Lattice, NumDomain, OctagonEnv, Var};

/// Indices at the edges of the leaves (8) and inner nodes (256, 8192) of the vector.
fn index() -> impl Strategy<Value = u32> {
    prop::sample::select(vec![
        0u32, 1, 7, 8, 9, 255, 256, 257, 300, 8191, 8192, 8200, 262_143, 262_144, 300_000,
    ])
}

fn edits() -> impl Strategy<Value = Vec<(u32, Interval)>> {
    proptest::collection::vec((index(), laws::interval()), 0..12)
}

/// Sets that never make the state bottom (a bottom interval would).
fn apply<D: NumDomain>(d: &mut D, es: &[(u32, Interval)]) {
    for (i, v) in es {
        if !v.is_bottom() {
            d.set(Var(*i), *v);
        }
    }
}

fn check<D: NumDomain>(
    base: &[(u32, Interval)],
    ea: &[(u32, Interval)],
    eb: &[(u32, Interval)],
) -> Result<(), TestCaseError> {
    let mut anc = D::top();
    apply(&mut anc, base);
    let (mut a, mut b) = (anc.clone(), anc.clone());
    apply(&mut a, ea);
    apply(&mut b, eb);
    let idx: Vec<u32> = base.iter().chain(ea).chain(eb).map(|e| e.0).collect();
    let all = |f: &dyn Fn(u32) -> bool| idx.iter().all(|&i| f(i));
    prop_assert_eq!(
        a.leq(&b),
        all(&|i| a.interval(Var(i)).is_subset(&b.interval(Var(i))))
    );
    prop_assert_eq!(a == b, all(&|i| a.interval(Var(i)) == b.interval(Var(i))));
    let mut j = a.clone();
    let grew = j.join_with(&b);
    for &i in &idx {
        let want = a.interval(Var(i)).join(&b.interval(Var(i)));
        prop_assert_eq!(j.interval(Var(i)), want, "join at {}", i);
    }
    prop_assert_eq!(grew, !b.leq(&a));
    let mut m = a.clone();
    m.meet_with(&b);
    let empty = idx
        .iter()
        .any(|&i| a.interval(Var(i)).meet(&b.interval(Var(i))).is_bottom());
    prop_assert_eq!(m.is_bottom(), empty);
    if !empty {
        for &i in &idx {
            let want = a.interval(Var(i)).meet(&b.interval(Var(i)));
            prop_assert_eq!(m.interval(Var(i)), want, "meet at {}", i);
        }
    }
    if a.leq(&j) {
        let mut w = a.clone();
        w.widen_with(&j);
        for &i in &idx {
            let mut want = a.interval(Var(i));
            want.widen_with(&j.interval(Var(i)));
            prop_assert_eq!(w.interval(Var(i)), want, "widening at {}", i);
        }
    }
    // The intervals below a cut: as the generic loop sets them, at every cut near the indices.
    let mut cuts: Vec<u32> = idx.iter().flat_map(|&i| [i, i + 1]).collect();
    cuts.extend([0, 3]);
    for &n in &cuts {
        let p = a.intervals_below(n);
        let mut want = D::top();
        for &i in idx.iter().filter(|&&i| i < n) {
            want.set(Var(i), a.interval(Var(i)));
        }
        prop_assert!(p == want, "intervals below {}", n);
        for &i in &idx {
            let w = if i < n {
                a.interval(Var(i))
            } else {
                Interval::top()
            };
            prop_assert_eq!(p.interval(Var(i)), w, "intervals below {} at {}", n, i);
        }
    }
    // The ancestor is unchanged by everything its descendants did.
    let mut again = D::top();
    apply(&mut again, base);
    prop_assert!(anc == again);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn interval_envs_sharing_an_ancestor(base in edits(), ea in edits(), eb in edits()) {
        check::<IntervalEnv>(&base, &ea, &eb)?;
    }

    #[test]
    fn octagon_envs_sharing_an_ancestor(base in edits(), ea in edits(), eb in edits()) {
        check::<OctagonEnv>(&base, &ea, &eb)?;
    }
}
