//! Property checks of the lattice laws and of soundness against concrete values, reusable for
//! every domain (`check_lattice_laws`) and run here for intervals and interval environments.

use crate::interval::Interval;
use crate::machine::IntTy;
use crate::Lattice;
use proptest::prelude::*;

/// Interesting bounds: small values, type limits, infinities.
pub fn bound() -> impl Strategy<Value = i128> {
    prop_oneof![
        -20i128..20,
        Just(i128::MIN),
        Just(i128::MAX),
        Just(i128::from(i32::MAX)),
        Just(i128::from(i32::MIN)),
        Just(i128::from(i64::MAX)),
        Just(i128::from(i64::MIN)),
        Just(255i128),
        Just(-128i128),
        any::<i32>().prop_map(i128::from),
    ]
}

/// Any interval, bottom and top included.
pub fn interval() -> impl Strategy<Value = Interval> {
    prop_oneof![
        1 => Just(Interval::bottom()),
        1 => Just(Interval::top()),
        8 => (bound(), bound()).prop_map(|(a, b)| Interval::new(a.min(b), a.max(b))),
    ]
}

/// Checks the laws every `Lattice` must satisfy on three elements.
pub fn check_lattice_laws<L: Lattice>(a: &L, b: &L, c: &L) -> Result<(), TestCaseError> {
    let join = |x: &L, y: &L| {
        let mut r = x.clone();
        r.join_with(y);
        r
    };
    let meet = |x: &L, y: &L| {
        let mut r = x.clone();
        r.meet_with(y);
        r
    };
    let ab = join(a, b);
    prop_assert!(a.leq(&ab) && b.leq(&ab), "join is an upper bound");
    prop_assert_eq!(&ab, &join(b, a), "join commutes");
    prop_assert_eq!(&join(a, a), a, "join is idempotent");
    prop_assert_eq!(join(&ab, c), join(a, &join(b, c)), "join associates");
    let m = meet(a, b);
    prop_assert!(m.leq(a) && m.leq(b), "meet is a lower bound");
    prop_assert_eq!(&join(&L::bottom(), a), a, "bottom is the identity of join");
    prop_assert!(a.leq(&L::top()), "top is greatest");
    prop_assert!(a.leq(a), "leq is reflexive");
    if a.leq(b) && b.leq(a) {
        prop_assert_eq!(a, b, "leq is antisymmetric");
    }
    if a.leq(b) && b.leq(c) {
        prop_assert!(a.leq(c), "leq is transitive");
    }
    prop_assert_eq!(a.leq(b), &join(a, b) == b, "leq agrees with join");
    let mut w = a.clone();
    w.widen_with(&ab);
    prop_assert!(a.leq(&w) && ab.leq(&w), "widening is an upper bound");
    // Narrowing stays between the newer value and self.
    let mut n = ab.clone();
    n.narrow_with(a);
    prop_assert!(a.leq(&n) && n.leq(&ab), "narrowing stays between");
    Ok(())
}

/// An increasing chain built from `steps` stabilizes under widening within `limit` steps.
pub fn check_widening_terminates<L: Lattice>(
    steps: &[L],
    limit: usize,
) -> Result<(), TestCaseError> {
    let mut acc = L::bottom();
    let mut growths = 0;
    for s in steps {
        let mut next = acc.clone();
        next.join_with(s);
        if acc.widen_with(&next) {
            growths += 1;
        }
    }
    prop_assert!(growths <= limit, "widening grew {} times", growths);
    Ok(())
}

/// A random width among the common ones.
pub fn int_ty() -> impl Strategy<Value = IntTy> {
    prop_oneof![Just(1u32), Just(8), Just(16), Just(32), Just(64)].prop_map(IntTy::new)
}

/// A canonical interval of `ty` and a member of it.
pub fn member_of(ty: IntTy) -> impl Strategy<Value = (Interval, i128)> {
    let (min, max) = (ty.min(), ty.max());
    let near = move |x: i128| {
        prop_oneof![
            Just(x),
            (0i128..4).prop_map(move |d| (x - d).clamp(min, max)),
            (0i128..4).prop_map(move |d| (x + d).clamp(min, max))
        ]
    };
    let point = prop_oneof![
        near(min),
        near(max),
        near(0),
        (-300i128..300).prop_map(move |x| x.clamp(min, max)),
        any::<i64>().prop_map(move |x| i128::from(x).clamp(min, max)),
    ];
    (point.clone(), point.clone(), point).prop_map(|(a, b, c)| {
        let mut v = [a, b, c];
        v.sort();
        (Interval::new(v[0], v[2]), v[1])
    })
}
