//! The octagon domain: lattice laws, tight closure (idempotent, sound and exact on small boxes),
//! soundness of every transfer function against sets of concrete states, and the relational
//! precision the corpus relies on.

use proptest::prelude::*;
use watts_domains::laws::{check_lattice_laws, check_widening_terminates};
use watts_domains::machine::{BinOp, CastOp, CmpPred, IntTy};
use watts_domains::octagon::dbm::{Dbm, INF};
use watts_domains::{Interval, Lattice, NumDomain, OctagonEnv, Operand, Truth, Var, MAX_PACK};

const NVARS: u32 = 4;

const OPS: [BinOp; 13] = BinOp::ALL;
const PREDS: [CmpPred; 10] = CmpPred::ALL;

// ---------------------------------------------------------------------------------------------
// A concrete reference of LLVM's integer instructions on canonical values.

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn signed(p: u128, bits: u32) -> i128 {
    let p = p & mask(bits);
    if bits < 128 && p >> (bits - 1) & 1 == 1 {
        (p as i128) - (1i128 << bits)
    } else {
        p as i128
    }
}

/// The canonical value of a bit pattern (`i1`: 0 or 1).
fn canon(p: u128, ty: IntTy) -> i128 {
    if ty.bits == 1 {
        return (p & 1) as i128;
    }
    signed(p, ty.bits)
}

fn pattern(v: i128, ty: IntTy) -> u128 {
    (v as u128) & mask(ty.bits)
}

/// LLVM's result, or `None` when the operation traps or is poison.
fn concrete(op: BinOp, x: i128, y: i128, ty: IntTy) -> Option<i128> {
    let n = ty.bits;
    let (px, py) = (pattern(x, ty), pattern(y, ty));
    let (sx, sy) = (signed(px, n), signed(py, n));
    let r: u128 = match op {
        BinOp::Add => px.wrapping_add(py),
        BinOp::Sub => px.wrapping_sub(py),
        BinOp::Mul => px.wrapping_mul(py),
        BinOp::UDiv => px.checked_div(py)?,
        BinOp::URem => px.checked_rem(py)?,
        BinOp::SDiv | BinOp::SRem => {
            if sy == 0 || (sy == -1 && sx == -(1i128 << (n - 1))) {
                return None;
            }
            if op == BinOp::SDiv {
                (sx / sy) as u128
            } else {
                (sx % sy) as u128
            }
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr if py >= u128::from(n) => return None,
        BinOp::Shl => px << py,
        BinOp::LShr => px >> py,
        BinOp::AShr => (sx >> py) as u128,
        BinOp::And => px & py,
        BinOp::Or => px | py,
        BinOp::Xor => px ^ py,
    };
    Some(canon(r, ty))
}

fn concrete_cmp(pred: CmpPred, x: i128, y: i128, ty: IntTy) -> bool {
    let (px, py) = (pattern(x, ty), pattern(y, ty));
    let (sx, sy) = (signed(px, ty.bits), signed(py, ty.bits));
    match pred {
        CmpPred::Eq => px == py,
        CmpPred::Ne => px != py,
        CmpPred::Ugt => px > py,
        CmpPred::Uge => px >= py,
        CmpPred::Ult => px < py,
        CmpPred::Ule => px <= py,
        CmpPred::Sgt => sx > sy,
        CmpPred::Sge => sx >= sy,
        CmpPred::Slt => sx < sy,
        CmpPred::Sle => sx <= sy,
    }
}

fn concrete_cast(op: CastOp, x: i128, from: IntTy, to: IntTy) -> i128 {
    let p = pattern(x, from);
    match op {
        CastOp::Trunc | CastOp::ZExt => canon(p, to),
        CastOp::SExt => {
            let s = if from.bits == 1 {
                -(p as i128)
            } else {
                signed(p, from.bits)
            };
            canon(pattern(s, to), to)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Concrete states and membership.

type Point = Vec<i128>;

/// Whether a concrete point is in the concretization: every interval, and every difference and
/// sum of two variables (which covers every pack constraint).
fn contains(e: &OctagonEnv, p: &Point) -> bool {
    if e.is_bottom() {
        return false;
    }
    for (i, &x) in p.iter().enumerate() {
        if !e.interval(Var(i as u32)).contains(x) {
            return false;
        }
        for (j, &y) in p.iter().enumerate() {
            if i != j {
                let (a, b) = (Var(i as u32), Var(j as u32));
                if !e.difference(a, b).contains(x - y) || !e.sum(a, b).contains(x + y) {
                    return false;
                }
            }
        }
    }
    true
}

/// One step of a random program over `NVARS` variables of one type.
#[derive(Clone, Debug)]
enum Step {
    Set(u32, i128, i128),
    SetWeak(u32, i128, i128),
    Assign(u32, u32),
    ApplyVar(u32, usize, u32, u32),
    ApplyConst(u32, usize, u32, i128),
    ConstMinusVar(u32, u32, i128),
    Compare(u32, usize, u32, u32),
    Assume(usize, u32, u32, bool),
    AssumeConst(usize, u32, i128, bool),
    Forget(u32),
    Meet(u32, i128, i128),
    Parallel(u32, u32, u32, u32),
    /// Split on a predicate and join the branches (after a step on one of them).
    Branch(usize, u32, u32, Box<Step>),
    /// Widen with the join of a changed state.
    Widen(u32, i128),
    /// Make what the intervals imply about `a - b` a relation (no concrete change).
    Relate(u32, u32),
    /// Keep what the state says about the variables of a mask alone (the others become top).
    Project(u32),
}

fn small(ty: IntTy) -> impl Strategy<Value = i128> {
    let (min, max) = (ty.min(), ty.max());
    prop_oneof![
        4 => (-6i128..6).prop_map(move |x| x.clamp(min, max)),
        1 => Just(min),
        1 => Just(max),
        1 => (0i128..3).prop_map(move |d| (max - d).max(min)),
        1 => (0i128..3).prop_map(move |d| (min + d).min(max)),
    ]
}

fn leaf(ty: IntTy) -> impl Strategy<Value = Step> {
    let v = 0..NVARS;
    let values = prop_oneof![
        1 => (v.clone(), small(ty), small(ty)).prop_map(|(x, a, b)| Step::Set(x, a.min(b), a.max(b))),
        1 => (v.clone(), small(ty), small(ty)).prop_map(|(x, a, b)| Step::SetWeak(x, a.min(b), a.max(b))),
        1 => v.clone().prop_map(Step::Forget),
        1 => (v.clone(), small(ty), small(ty)).prop_map(|(x, a, b)| Step::Meet(x, a.min(b), a.max(b))),
        1 => (v.clone(), small(ty)).prop_map(|(x, c)| Step::Widen(x, c)),
        1 => (v.clone(), v.clone(), v.clone(), v.clone()).prop_map(|(a, b, c, d)| Step::Parallel(a, b, c, d)),
        1 => (v.clone(), v.clone()).prop_map(|(a, b)| Step::Relate(a, b)),
        1 => (0u32..(1 << NVARS)).prop_map(Step::Project),
    ];
    let arith = prop_oneof![
        3 => (v.clone(), v.clone()).prop_map(|(x, y)| Step::Assign(x, y)),
        3 => (v.clone(), 0..2usize, v.clone(), v.clone()).prop_map(|(x, o, a, b)| Step::ApplyVar(x, o, a, b)),
        1 => (v.clone(), 0..13usize, v.clone(), v.clone()).prop_map(|(x, o, a, b)| Step::ApplyVar(x, o, a, b)),
        3 => (v.clone(), 0..2usize, v.clone(), small(ty)).prop_map(|(x, o, a, c)| Step::ApplyConst(x, o, a, c)),
        1 => (v.clone(), 0..13usize, v.clone(), small(ty)).prop_map(|(x, o, a, c)| Step::ApplyConst(x, o, a, c)),
        1 => (v.clone(), v.clone(), small(ty)).prop_map(|(x, y, c)| Step::ConstMinusVar(x, y, c)),
        1 => (v.clone(), 0..10usize, v.clone(), v.clone()).prop_map(|(x, p, a, b)| Step::Compare(x, p, a, b)),
        3 => (0..10usize, v.clone(), v.clone(), any::<bool>()).prop_map(|(p, a, b, o)| Step::Assume(p, a, b, o)),
        1 => (0..10usize, v.clone(), small(ty), any::<bool>()).prop_map(|(p, a, c, o)| Step::AssumeConst(p, a, c, o)),
    ];
    prop_oneof![1 => values, 3 => arith]
}

fn step(ty: IntTy) -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => leaf(ty),
        1 => (0..10usize, 0..NVARS, 0..NVARS, leaf(ty))
            .prop_map(|(p, a, b, s)| Step::Branch(p, a, b, Box::new(s))),
    ]
}

fn ty_strategy() -> impl Strategy<Value = IntTy> {
    prop_oneof![1 => Just(1u32), 1 => Just(8), 3 => Just(32), 1 => Just(64)].prop_map(IntTy::new)
}

fn c(v: i128) -> Operand {
    Operand::Const(Interval::constant(v))
}

fn var(x: u32) -> Operand {
    Operand::Var(Var(x))
}

/// Applies `s` to the abstract state and to every concrete point (dropping points that an
/// assume excludes or an operation traps on; `choice` picks among the values of weak updates).
fn run(s: &Step, e: &mut OctagonEnv, pts: &mut Vec<Point>, ty: IntTy, choice: u64) {
    let x = |i: u32| i as usize;
    match s {
        Step::Set(v, lo, hi) => {
            e.set(Var(*v), Interval::new(*lo, *hi));
            for (k, p) in pts.iter_mut().enumerate() {
                p[x(*v)] = if (k as u64 + choice).is_multiple_of(2) {
                    *lo
                } else {
                    *hi
                };
            }
        }
        Step::SetWeak(v, lo, hi) => {
            e.set_weak(Var(*v), Interval::new(*lo, *hi));
            for (k, p) in pts.iter_mut().enumerate() {
                if (k as u64 + choice).is_multiple_of(3) {
                    p[x(*v)] = *lo;
                } else if (k as u64 + choice) % 3 == 1 {
                    p[x(*v)] = *hi;
                }
            }
        }
        Step::Assign(a, b) => {
            e.assign(Var(*a), Var(*b));
            for p in pts.iter_mut() {
                p[x(*a)] = p[x(*b)];
            }
        }
        Step::ApplyVar(d, o, a, b) => {
            e.apply(Var(*d), OPS[*o], var(*a), var(*b), ty);
            pts.retain_mut(|p| match concrete(OPS[*o], p[x(*a)], p[x(*b)], ty) {
                Some(r) => {
                    p[x(*d)] = r;
                    true
                }
                // Poison: any value is fine; a trap ends the path.
                None => {
                    matches!(OPS[*o], BinOp::Shl | BinOp::LShr | BinOp::AShr) && {
                        p[x(*d)] = e.interval(Var(*d)).lo().clamp(ty.min(), ty.max());
                        true
                    }
                }
            });
        }
        Step::ApplyConst(d, o, a, k) => {
            e.apply(Var(*d), OPS[*o], var(*a), c(*k), ty);
            pts.retain_mut(|p| match concrete(OPS[*o], p[x(*a)], *k, ty) {
                Some(r) => {
                    p[x(*d)] = r;
                    true
                }
                None => {
                    matches!(OPS[*o], BinOp::Shl | BinOp::LShr | BinOp::AShr) && {
                        p[x(*d)] = e.interval(Var(*d)).lo().clamp(ty.min(), ty.max());
                        true
                    }
                }
            });
        }
        Step::ConstMinusVar(d, a, k) => {
            e.apply(Var(*d), BinOp::Sub, c(*k), var(*a), ty);
            for p in pts.iter_mut() {
                p[x(*d)] = concrete(BinOp::Sub, *k, p[x(*a)], ty).unwrap();
            }
        }
        Step::Compare(d, pr, a, b) => {
            e.compare(Var(*d), PREDS[*pr], var(*a), var(*b), ty);
            for p in pts.iter_mut() {
                p[x(*d)] = i128::from(concrete_cmp(PREDS[*pr], p[x(*a)], p[x(*b)], ty));
            }
        }
        Step::Assume(pr, a, b, o) => {
            e.assume(PREDS[*pr], var(*a), var(*b), ty, *o);
            pts.retain(|p| concrete_cmp(PREDS[*pr], p[x(*a)], p[x(*b)], ty) == *o);
        }
        Step::AssumeConst(pr, a, k, o) => {
            e.assume(PREDS[*pr], var(*a), c(*k), ty, *o);
            pts.retain(|p| concrete_cmp(PREDS[*pr], p[x(*a)], *k, ty) == *o);
        }
        Step::Forget(v) => {
            e.forget(Var(*v));
            for (k, p) in pts.iter_mut().enumerate() {
                p[x(*v)] = if (k as u64 ^ choice).is_multiple_of(2) {
                    ty.min()
                } else {
                    ty.max()
                };
            }
        }
        Step::Meet(v, lo, hi) => {
            e.meet_interval(Var(*v), Interval::new(*lo, *hi));
            pts.retain(|p| *lo <= p[x(*v)] && p[x(*v)] <= *hi);
        }
        Step::Parallel(a, b, cc, d) => {
            // a, c := b, d in parallel (a swap when b == c and d == a).
            if a == cc {
                return;
            }
            e.assign_parallel(&[(Var(*a), var(*b)), (Var(*cc), var(*d))]);
            for p in pts.iter_mut() {
                let (vb, vd) = (p[x(*b)], p[x(*d)]);
                p[x(*a)] = vb;
                p[x(*cc)] = vd;
            }
        }
        Step::Relate(a, b) => {
            let before = e.clone();
            e.relate(Var(*a), Var(*b));
            // The meaning does not change.
            assert!(e.leq(&before) && before.leq(e));
        }
        Step::Project(mask) => {
            let keep: Vec<Var> = (0..NVARS)
                .filter(|i| mask & (1 << i) != 0)
                .map(Var)
                .collect();
            let before = e.clone();
            *e = e.project(&keep);
            // Only less is known, and nothing less about the kept variables' values.
            assert!(before.leq(e), "{before:?} not below its projection {e:?}");
            for k in &keep {
                assert_eq!(e.interval(*k), before.interval(*k), "{k:?} in {before:?}");
            }
        }
        Step::Branch(pr, a, b, inner) => {
            let mut t = e.clone();
            t.assume(PREDS[*pr], var(*a), var(*b), ty, true);
            let mut f = e.clone();
            f.assume(PREDS[*pr], var(*a), var(*b), ty, false);
            let (mut pt, mut pf): (Vec<Point>, Vec<Point>) = pts
                .drain(..)
                .partition(|p| concrete_cmp(PREDS[*pr], p[x(*a)], p[x(*b)], ty));
            run(inner, &mut t, &mut pt, ty, choice);
            let _ = &mut pf;
            t.join_with(&f);
            *e = t;
            pts.extend(pt);
            pts.extend(pf);
        }
        Step::Widen(v, k) => {
            let mut n = e.clone();
            n.set_weak(Var(*v), Interval::constant(*k));
            let mut j = e.clone();
            j.join_with(&n);
            e.widen_selected(&j, &|w| w.0 % 2 == 0);
        }
    }
}

fn points(ty: IntTy) -> impl Strategy<Value = Vec<Point>> {
    proptest::collection::vec(proptest::collection::vec(small(ty), NVARS as usize), 1..6)
}

/// The join of the singleton states of the points (each point as constants, then related by
/// equalities it satisfies so that packs exist from the start).
fn abstraction(pts: &[Point]) -> OctagonEnv {
    let mut acc = OctagonEnv::bottom();
    for p in pts {
        let mut e = OctagonEnv::top();
        for (i, &x) in p.iter().enumerate() {
            e.set(Var(i as u32), Interval::constant(x));
        }
        acc.join_with(&e);
    }
    acc
}

// ---------------------------------------------------------------------------------------------
// Random abstract states for the lattice laws.

fn state() -> impl Strategy<Value = OctagonEnv> {
    let ty = IntTy::new(32);
    prop_oneof![
        1 => Just(OctagonEnv::bottom()),
        1 => Just(OctagonEnv::top()),
        8 => (points(ty), proptest::collection::vec(leaf(ty), 0..6)).prop_map(move |(pts, steps)| {
            let mut e = abstraction(&pts);
            let mut pts = pts;
            for s in &steps {
                run(s, &mut e, &mut pts, ty, 0);
            }
            e
        }),
    ]
}

/// States with one pack over every variable (bounded, with informative relations), on which
/// join associates. With different packs it need not: the first join decides which relations
/// the second can keep (see `join_upper_bound` for the other laws on any states).
fn packed_state() -> impl Strategy<Value = OctagonEnv> {
    let ty = IntTy::new(32);
    let one = (
        -5i128..5,
        1i128..4,
        -3i128..3,
        -3i128..3,
        -3i128..3,
        proptest::option::of((0..10usize, 0..NVARS, 0..NVARS)),
    );
    prop_oneof![
        1 => Just(OctagonEnv::bottom()),
        8 => proptest::collection::vec(one, 1..3).prop_map(move |shapes| {
            let mut acc = OctagonEnv::bottom();
            for (lo, w, d1, d2, d3, cut) in shapes {
                let mut e = OctagonEnv::top();
                e.set(Var(0), Interval::new(lo, lo + w));
                e.apply(Var(1), BinOp::Add, var(0), c(d1), ty);
                e.apply(Var(2), BinOp::Sub, var(1), c(d2), ty);
                e.apply(Var(3), BinOp::Sub, c(d3), var(0), ty);
                if let Some((p, a, b)) = cut {
                    let mut k = e.clone();
                    k.assume(PREDS[p], var(a), var(b), ty, true);
                    if !k.is_bottom() {
                        e = k;
                    }
                }
                acc.join_with(&e);
            }
            acc
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lattice_laws_on_shared_packs(a in packed_state(), b in packed_state(), c in packed_state()) {
        check_lattice_laws(&a, &b, &c)?;
    }

    /// Every law but associativity, on states with any packs.
    #[test]
    fn join_upper_bound(a in state(), b in state()) {
        let mut ab = a.clone();
        ab.join_with(&b);
        prop_assert!(a.leq(&ab) && b.leq(&ab), "join is an upper bound");
        let mut ba = b.clone();
        ba.join_with(&a);
        prop_assert_eq!(&ab, &ba, "join commutes");
        let mut aa = a.clone();
        aa.join_with(&a);
        prop_assert_eq!(&aa, &a, "join is idempotent");
        prop_assert_eq!(a.leq(&b), ab == b, "leq agrees with join");
        let mut m = a.clone();
        m.meet_with(&b);
        prop_assert!(m.leq(&a) && m.leq(&b), "meet is a lower bound");
        let mut w = a.clone();
        w.widen_with(&ab);
        prop_assert!(a.leq(&w) && ab.leq(&w), "widening is an upper bound");
        let mut n = ab.clone();
        n.narrow_with(&a);
        prop_assert!(a.leq(&n) && n.leq(&ab), "narrowing stays between");
        prop_assert!(a.leq(&OctagonEnv::top()));
        prop_assert!(OctagonEnv::bottom().leq(&a));
    }

    #[test]
    fn widening_chains_stabilize(chain in proptest::collection::vec(state(), 1..12)) {
        // Each state has at most 4 variables (plus the scratch one): a bound on the growths of
        // their bounds and relations.
        check_widening_terminates(&chain, 40)?;
    }

    #[test]
    fn transfers_are_sound(ty in ty_strategy(), seed in any::<u64>(),
                           (pts, steps) in ty_strategy().prop_flat_map(|t| (points(t), proptest::collection::vec(step(t), 1..10)))) {
        // `points` and `step` above were drawn for some type; re-canonicalize for `ty`.
        let canon_pts: Vec<Point> = pts.iter().map(|p| p.iter().map(|v| v.clamp(&ty.min(), &ty.max()).to_owned()).collect()).collect();
        let mut e = abstraction(&canon_pts);
        let mut cur = canon_pts;
        for (i, s) in steps.iter().enumerate() {
            let s = clamp_step(s, ty);
            run(&s, &mut e, &mut cur, ty, seed.wrapping_add(i as u64));
            for p in &cur {
                prop_assert!(contains(&e, p), "after {:?} on i{}: {:?} not in {:?}", s, ty.bits, p, e);
            }
        }
        // entails agrees with every remaining point.
        for pr in PREDS {
            for a in 0..NVARS {
                for b in 0..NVARS {
                    let t = e.entails(pr, var(a), var(b), ty);
                    for p in &cur {
                        let h = concrete_cmp(pr, p[a as usize], p[b as usize], ty);
                        prop_assert!(t != Truth::True || h, "entails {:?} v{} v{} True but {:?}", pr, a, b, p);
                        prop_assert!(t != Truth::False || !h, "entails {:?} v{} v{} False but {:?}", pr, a, b, p);
                    }
                }
            }
        }
    }

    #[test]
    fn casts_are_sound(widths in proptest::sample::subsequence(vec![1u32, 8, 16, 32, 64], 2), op in 0..3usize,
                       pts in proptest::collection::vec((-300i128..300, -3i128..3), 1..5)) {
        let op = [CastOp::Trunc, CastOp::ZExt, CastOp::SExt][op];
        let (narrow, wide) = (IntTy::new(widths[0]), IntTy::new(widths[1]));
        let (from, to) = if op == CastOp::Trunc { (wide, narrow) } else { (narrow, wide) };
        let pts: Vec<Point> = pts.iter().map(|(a, d)| {
            let y = a.clamp(&from.min(), &from.max()).to_owned();
            vec![y, (y + d).clamp(from.min(), from.max()), 0]
        }).collect();
        let mut e = abstraction(&pts);
        e.assign(Var(1), Var(0));
        e.assume(CmpPred::Eq, var(1), var(0), from, true);
        e.cast(Var(2), op, var(0), from, to);
        for p in &pts {
            let q = vec![p[0], p[0], concrete_cast(op, p[0], from, to)];
            prop_assert!(contains(&e, &q), "{:?} i{} -> i{}: {:?} not in {:?}", op, from.bits, to.bits, q, e);
        }
    }

    /// Tight closure: idempotent, loses no integer point, and exact (every finite bound is
    /// reached by an integer point) on random constraints inside a box.
    #[test]
    fn closure_is_tight(n in 1usize..4, cons in proptest::collection::vec((0usize..6, 0usize..6, -6i64..7), 0..8),
                        incremental in any::<bool>()) {
        let mut m = Dbm::top(n);
        for k in 0..n {
            m.put_min(2 * k + 1, 2 * k, 8);
            m.put_min(2 * k, 2 * k + 1, 8);
        }
        let d = 2 * n;
        let cons: Vec<(usize, usize, i64)> = cons.into_iter().map(|(i, j, c)| (i % d, j % d, c)).filter(|(i, j, _)| i != j).collect();
        let mut raw = m.clone();
        for &(i, j, c) in &cons {
            raw.put_min(i, j, c);
        }
        // Integer points of the box [-4, 4]^n that satisfy the raw constraints.
        let val = |p: &[i64], l: usize| if l.is_multiple_of(2) { p[l / 2] } else { -p[l / 2] };
        let sat = |m: &Dbm, p: &[i64]| (0..d).all(|i| (0..d).all(|j| {
            let e = m.get(i, j);
            e == INF || val(p, j) - val(p, i) <= e
        }));
        let mut all = Vec::new();
        let mut p = vec![-4i64; n];
        loop {
            if sat(&raw, &p) { all.push(p.clone()); }
            let mut k = 0;
            while k < n && p[k] == 4 { p[k] = -4; k += 1; }
            if k == n { break; }
            p[k] += 1;
        }
        let mut closed = raw.clone();
        let ok = if incremental {
            let mut c2 = m.clone();
            let mut ok = c2.close();
            for &(i, j, c) in &cons {
                ok = ok && c2.add_constraint(i, j, c);
            }
            closed = c2;
            ok
        } else {
            closed.close()
        };
        prop_assert_eq!(ok, !all.is_empty(), "emptiness");
        if ok {
            for p in &all {
                prop_assert!(sat(&closed, p), "point {:?} lost", p);
            }
            for i in 0..d {
                for j in 0..d {
                    let best = all.iter().map(|p| val(p, j) - val(p, i)).max().unwrap();
                    prop_assert_eq!(closed.get(i, j), best, "entry {} {} not tight", i, j);
                }
            }
            let mut again = closed.clone();
            prop_assert!(again.close());
            prop_assert_eq!(again, closed, "idempotent");
        }
    }
}

/// A step drawn for another type, with its constants made canonical for `ty`.
fn clamp_step(s: &Step, ty: IntTy) -> Step {
    let k = |v: &i128| (*v).clamp(ty.min(), ty.max());
    match s {
        Step::Set(v, a, b) => Step::Set(*v, k(a), k(b)),
        Step::SetWeak(v, a, b) => Step::SetWeak(*v, k(a), k(b)),
        Step::ApplyConst(d, o, a, c) => Step::ApplyConst(*d, *o, *a, k(c)),
        Step::ConstMinusVar(d, a, c) => Step::ConstMinusVar(*d, *a, k(c)),
        Step::AssumeConst(p, a, c, o) => Step::AssumeConst(*p, *a, k(c), *o),
        Step::Meet(v, a, b) => Step::Meet(*v, k(a), k(b)),
        Step::Widen(v, c) => Step::Widen(*v, k(c)),
        Step::Branch(p, a, b, inner) => Step::Branch(*p, *a, *b, Box::new(clamp_step(inner, ty))),
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// Precision the analysis relies on.

fn i32t() -> IntTy {
    IntTy::new(32)
}

#[test]
fn copies_and_loop_bounds_are_related() {
    let t = i32t();
    let (i, n, n2) = (Var(0), Var(1), Var(2));
    let mut e = OctagonEnv::top();
    e.set(i, Interval::new(0, i128::from(i32::MAX)));
    // i < n, then n2 := n (a second load of the bound): i < n2.
    e.assume(CmpPred::Slt, var(0), var(1), t, true);
    e.assign(n2, n);
    assert_eq!(e.entails(CmpPred::Slt, var(0), var(2), t), Truth::True);
    // i + 1 <= n2 without wrap-around (i < n2 <= INT_MAX).
    e.apply(Var(3), BinOp::Add, var(0), c(1), t);
    assert_eq!(e.entails(CmpPred::Sle, var(3), var(2), t), Truth::True);
    assert_eq!(e.entails(CmpPred::Sgt, var(3), var(0), t), Truth::True);
}

#[test]
fn no_relation_across_wrap_around() {
    let t = i32t();
    let mut e = OctagonEnv::top();
    e.set(Var(0), Interval::top_of(t));
    e.apply(Var(1), BinOp::Add, var(0), c(1), t);
    // x + 1 wraps at INT_MAX: y > x is not always true.
    assert_eq!(e.entails(CmpPred::Sgt, var(1), var(0), t), Truth::Unknown);
    assert_eq!(e.interval(Var(1)), Interval::top_of(t));
}

#[test]
fn sum_is_kept_through_a_join() {
    // i + j == 10 on two paths: (0, 10) and (1, 9), both reached through relations.
    let t = i32t();
    let (i, j) = (Var(0), Var(1));
    let mut a = OctagonEnv::top();
    a.set(i, Interval::constant(0));
    a.set(j, Interval::constant(10));
    let mut b = a.clone();
    b.apply(Var(2), BinOp::Add, var(0), c(1), t);
    b.apply(Var(3), BinOp::Sub, var(1), c(1), t);
    b.assign(i, Var(2));
    b.assign(j, Var(3));
    let mut w = a.clone();
    w.join_with(&b);
    // Only relations the packs hold survive; here i and j were related through Var(2), Var(3).
    let s = w.sum(i, j);
    assert!(s.contains(10));
    let mut k = a.clone();
    k.widen_with(&w);
    assert!(w.leq(&k));
}

#[test]
fn equality_after_branches() {
    let t = i32t();
    let (x, y) = (Var(0), Var(1));
    let mut e = OctagonEnv::top();
    e.set(y, Interval::top_of(t));
    e.assign(x, y);
    let mut then_ = e.clone();
    then_.assume(CmpPred::Sgt, var(1), c(5), t, true);
    let mut else_ = e.clone();
    else_.assume(CmpPred::Sgt, var(1), c(5), t, false);
    then_.join_with(&else_);
    assert_eq!(then_.entails(CmpPred::Eq, var(0), var(1), t), Truth::True);
}

#[test]
fn packs_stay_small() {
    let t = i32t();
    let mut e = OctagonEnv::top();
    e.set(Var(0), Interval::new(0, 100));
    for k in 1..300u32 {
        e.assign(Var(k), Var(k - 1));
    }
    assert!(e.packs().iter().all(|p| p.len() <= MAX_PACK));
    // The most recent copies are still related.
    assert_eq!(e.entails(CmpPred::Eq, var(299), var(298), t), Truth::True);
    assert_eq!(e.interval(Var(299)), Interval::new(0, 100));
}

#[test]
fn widening_keeps_a_stable_relation() {
    // x == y at a loop head while both grow: widening keeps x == y.
    let t = i32t();
    let mut head = OctagonEnv::top();
    head.set(Var(0), Interval::constant(0));
    head.assign(Var(1), Var(0));
    for _ in 0..4 {
        let mut body = head.clone();
        // The loop guard: without it, x + 1 may wrap around and no relation holds.
        body.assume(CmpPred::Slt, var(0), c(100), t, true);
        body.apply(Var(0), BinOp::Add, var(0), c(1), t);
        body.apply(Var(1), BinOp::Add, var(1), c(1), t);
        let mut j = head.clone();
        j.join_with(&body);
        head.widen_with(&j);
    }
    assert_eq!(head.entails(CmpPred::Eq, var(0), var(1), t), Truth::True);
    assert_eq!(head.interval(Var(0)).hi(), i128::MAX);
}
