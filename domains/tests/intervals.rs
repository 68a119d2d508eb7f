//! Lattice laws, soundness against a concrete reference of LLVM's integer semantics (random
//! widths and values), and the precise results users rely on.

use proptest::prelude::*;
use watts_domains::laws::{
    self, check_lattice_laws, check_widening_terminates, concrete_binop, concrete_cast,
    concrete_cmp,
};
use watts_domains::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use watts_domains::{Interval, IntervalEnv, Lattice, NumDomain, Operand, Truth, Var};

const OPS: [BinOp; 13] = BinOp::ALL;
const PREDS: [CmpPred; 10] = CmpPred::ALL;
const CASTS: [CastOp; 3] = [CastOp::Trunc, CastOp::ZExt, CastOp::SExt];

fn two_members() -> impl Strategy<Value = (IntTy, (Interval, i128), (Interval, i128))> {
    // Mostly the common widths; sometimes a rare one, up to 128 bits (beyond `i128` headroom).
    let ty = prop_oneof![
        8 => laws::int_ty(),
        1 => prop::sample::select(vec![2u32, 7, 33, 100, 120, 121, 126, 127, 128]).prop_map(IntTy::new),
    ];
    ty.prop_flat_map(|ty| (Just(ty), laws::member_of(ty), laws::member_of(ty)))
}

fn env_of(a: Interval, b: Interval) -> IntervalEnv {
    let mut e = IntervalEnv::with_capacity(3);
    e.set(Var(0), a);
    e.set(Var(1), b);
    e
}

/// Any width LLVM allows, odd ones included.
fn any_ty() -> impl Strategy<Value = IntTy> {
    prop_oneof![laws::int_ty(), (1u32..=128).prop_map(IntTy::new)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn interval_lattice_laws(a in laws::interval(), b in laws::interval(), c in laws::interval()) {
        check_lattice_laws(&a, &b, &c)?;
    }

    #[test]
    fn env_lattice_laws(a in laws::interval_env(), b in laws::interval_env(), c in laws::interval_env()) {
        check_lattice_laws(&a, &b, &c)?;
    }

    #[test]
    fn interval_widening_chains_stabilize(chain in proptest::collection::vec(laws::interval(), 1..30)) {
        // From bottom: the first element, then each bound jumps to infinity at most once.
        check_widening_terminates(&chain, 3)?;
    }

    #[test]
    fn threshold_widening_covers_the_join_and_stabilizes(
        chain in proptest::collection::vec(laws::interval(), 1..30),
        mut thresholds in proptest::collection::vec(-50i128..50, 0..6),
    ) {
        thresholds.sort_unstable();
        thresholds.dedup();
        // Each step holds the join of what came before; each bound moves at most through the
        // thresholds and then to infinity: at most 2 * (thresholds + 1) changes after the first.
        let mut acc = Interval::bottom();
        let mut changes = 0;
        for x in &chain {
            let mut j = acc;
            j.join_with(x);
            let before = acc;
            acc.widen_with_thresholds(&j, &thresholds);
            prop_assert!(j.is_subset(&acc), "{acc} does not hold {j}");
            if acc != before {
                changes += 1;
            }
        }
        prop_assert!(changes <= 1 + 2 * (thresholds.len() + 1), "{changes} changes");
    }

    #[test]
    fn env_widening_chains_stabilize(chain in proptest::collection::vec(laws::interval_env(), 1..30)) {
        // At most 5 variables are stored, each grows at most twice after the first element.
        check_widening_terminates(&chain, 1 + 2 * 5)?;
    }

    #[test]
    fn binop_is_sound((ty, (a, x), (b, y)) in two_members()) {
        for op in OPS {
            let r = machine::binop(op, a, b, ty);
            prop_assert!(r.leq(&Interval::top_of(ty)), "{:?} on i{}: {} not canonical", op, ty.bits, r);
            let Some(z) = concrete_binop(op, x, y, ty) else { continue };
            prop_assert!(r.contains(z), "{:?} {} {} on i{}: {} not in {}", op, x, y, ty.bits, z, r);
            // Through the environment, with variables and with constants.
            let mut e = env_of(a, b);
            e.apply(Var(2), op, Operand::Var(Var(0)), Operand::Var(Var(1)), ty);
            prop_assert!(e.interval(Var(2)).contains(z));
            e.apply(Var(2), op, Operand::Var(Var(0)), Operand::Const(Interval::constant(y)), ty);
            prop_assert!(e.interval(Var(2)).contains(z));
            e.apply(Var(0), op, Operand::Const(a), Operand::Var(Var(1)), ty);
            prop_assert!(e.interval(Var(0)).contains(z));
        }
    }

    #[test]
    fn compare_entails_and_refine_are_sound((ty, (a, x), (b, y)) in two_members()) {
        for pred in PREDS {
            let holds = concrete_cmp(pred, x, y, ty);
            let r = machine::compare(pred, a, b, ty);
            prop_assert!(r.contains(i128::from(holds)) && r.leq(&Interval::new(0, 1)),
                "{:?} {} {} i{}: {}", pred, x, y, ty.bits, r);
            let mut e = env_of(a, b);
            e.compare(Var(2), pred, Operand::Var(Var(0)), Operand::Var(Var(1)), ty);
            prop_assert!(e.interval(Var(2)).contains(i128::from(holds)));
            for t in [machine::entails(pred, a, b, ty), e.entails(pred, Operand::Var(Var(0)), Operand::Const(b), ty)] {
                match t {
                    Truth::True => prop_assert!(holds),
                    Truth::False => prop_assert!(!holds),
                    Truth::Unknown => {}
                }
            }
            for outcome in [true, false] {
                if holds != outcome {
                    continue;
                }
                let (ra, rb) = machine::refine(pred, a, b, ty, outcome);
                prop_assert!(ra.contains(x) && rb.contains(y),
                    "refine {:?}={} dropped ({}, {}) from {} {} -> {} {} i{}", pred, outcome, x, y, a, b, ra, rb, ty.bits);
                prop_assert!(ra.leq(&a) && rb.leq(&b), "refine only shrinks");
                let mut e = env_of(a, b);
                e.assume(pred, Operand::Var(Var(0)), Operand::Var(Var(1)), ty, outcome);
                prop_assert!(e.interval(Var(0)).contains(x) && e.interval(Var(1)).contains(y));
                let mut e = env_of(a, b);
                e.assume(pred, Operand::Const(Interval::constant(x)), Operand::Var(Var(1)), ty, outcome);
                prop_assert!(e.interval(Var(1)).contains(y) && e.interval(Var(0)) == a);
            }
        }
    }

    #[test]
    fn casts_are_sound(from in laws::int_ty(), to in laws::int_ty(), seed in any::<u64>()) {
        let (a, x) = {
            // A member of a small interval of `from`, anywhere in its range.
            let (lo, hi) = (from.min(), from.max());
            let span = (hi - lo) as u128;
            let x = lo + ((u128::from(seed) % (span + 1)) as i128);
            (Interval::new(lo.max(x - 3), hi.min(x + 5)), x)
        };
        for op in CASTS {
            let legal = match op {
                CastOp::Trunc => to.bits < from.bits,
                _ => to.bits > from.bits,
            };
            if !legal {
                continue;
            }
            let z = concrete_cast(op, x, from, to);
            let r = machine::cast(op, a, from, to);
            prop_assert!(r.contains(z) && r.leq(&Interval::top_of(to)),
                "{:?} {} i{} -> i{}: {} not in {}", op, x, from.bits, to.bits, z, r);
            let mut e = env_of(a, Interval::top());
            e.cast(Var(1), op, Operand::Var(Var(0)), from, to);
            prop_assert!(e.interval(Var(1)).contains(z));
        }
    }

    #[test]
    fn wrap_and_views_are_sound(ty in any_ty(), lo in laws::bound(), d in 0i128..600, pick in any::<u64>()) {
        let hi = lo.saturating_add(d);
        let v = Interval::new(lo, hi);
        let x = lo + (i128::from(pick) % (hi - lo + 1));
        let p = laws::pattern(x, ty);
        prop_assert!(machine::wrap(v, ty).contains(laws::canonical(p, ty)));
        prop_assert!(machine::wrap(v, ty).leq(&Interval::top_of(ty)));
        // The unsigned view of a 128-bit pattern above i128::MAX saturates to +inf.
        prop_assert!(machine::to_unsigned(v, ty).contains(i128::try_from(p).unwrap_or(i128::MAX)));
        prop_assert!(machine::to_signed(v, ty).contains(laws::signed(p, ty)));
    }

    /// Interval widening does not rely on its precondition: it bounds both arguments anyway.
    #[test]
    fn interval_widening_bounds_any_pair(a in laws::interval(), b in laws::interval()) {
        let mut w = a;
        w.widen_with(&b);
        prop_assert!(a.leq(&w) && b.leq(&w));
    }

    /// Non-canonical arguments (infinite bounds, values of another width) never panic and give
    /// canonical results.
    #[test]
    fn any_argument_is_accepted(ty in any_ty(), to in any_ty(), a in laws::interval(), b in laws::interval()) {
        let top = Interval::top_of(ty);
        for op in OPS {
            prop_assert!(machine::binop(op, a, b, ty).leq(&top));
        }
        for pred in PREDS {
            prop_assert!(machine::compare(pred, a, b, ty).leq(&Interval::new(0, 1)));
            let _ = machine::entails(pred, a, b, ty);
            for outcome in [true, false] {
                let (ra, rb) = machine::refine(pred, a, b, ty, outcome);
                prop_assert!(ra.leq(&top) && rb.leq(&top));
            }
        }
        for op in CASTS {
            prop_assert!(machine::cast(op, a, ty, to).leq(&Interval::top_of(to)));
        }
        let _ = (machine::to_unsigned(a, ty), machine::to_signed(a, ty), a.to_string());
    }
}

fn i32t() -> IntTy {
    IntTy::new(32)
}

fn iv(lo: i128, hi: i128) -> Interval {
    Interval::new(lo, hi)
}

fn k(c: i128) -> Interval {
    Interval::constant(c)
}

#[test]
fn precise_arithmetic() {
    let t = i32t();
    let max = i128::from(i32::MAX);
    let min = i128::from(i32::MIN);
    assert_eq!(machine::binop(BinOp::Add, iv(0, 9), k(1), t), iv(1, 10));
    assert_eq!(machine::binop(BinOp::Add, k(max), k(1), t), k(min));
    assert_eq!(machine::binop(BinOp::Sub, k(min), k(1), t), k(max));
    assert_eq!(
        machine::binop(BinOp::Add, iv(max - 1, max), k(1), t),
        Interval::top_of(t),
        "wraps around: {{MAX, MIN}} is not contiguous"
    );
    assert_eq!(machine::binop(BinOp::Mul, iv(-3, 4), k(5), t), iv(-15, 20));
    assert_eq!(
        machine::binop(BinOp::Add, k(127), k(1), IntTy::new(8)),
        k(-128)
    );
    // A widened bound means "up to the type's limit", not "wraps".
    assert_eq!(
        machine::binop(BinOp::Add, iv(0, i128::MAX), k(1), t),
        Interval::top_of(t)
    );
    assert_eq!(
        machine::binop(BinOp::Sub, iv(0, i128::MAX), k(1), t),
        iv(-1, max - 1)
    );
}

#[test]
fn precise_division() {
    let t = i32t();
    assert_eq!(
        machine::binop(BinOp::SDiv, k(10), iv(0, 2), t),
        iv(5, 10),
        "division by zero is excluded"
    );
    assert!(machine::binop(BinOp::SDiv, k(1), k(0), t).is_bottom());
    assert!(machine::binop(BinOp::UDiv, iv(0, 9), k(0), t).is_bottom());
    assert!(machine::binop(BinOp::SRem, iv(0, 9), k(0), t).is_bottom());
    assert!(machine::binop(BinOp::URem, iv(0, 9), k(0), t).is_bottom());
    assert_eq!(
        machine::binop(BinOp::SDiv, iv(-7, 7), iv(-2, 2), t),
        iv(-7, 7)
    );
    assert_eq!(machine::binop(BinOp::SDiv, k(-7), k(2), t), k(-3));
    assert_eq!(
        machine::binop(BinOp::UDiv, k(-1), k(2), t),
        k(i128::from(i32::MAX))
    );
    assert_eq!(machine::binop(BinOp::SRem, k(-7), k(2), t), k(-1));
    assert_eq!(
        machine::binop(BinOp::SRem, iv(-100, 100), k(10), t),
        iv(-9, 9)
    );
    assert_eq!(
        machine::binop(BinOp::SRem, iv(0, 100), iv(-10, 10), t),
        iv(0, 9)
    );
    assert_eq!(machine::binop(BinOp::URem, iv(0, 100), k(10), t), iv(0, 9));
    assert_eq!(machine::binop(BinOp::URem, iv(0, 5), k(10), t), iv(0, 5));
    assert_eq!(machine::binop(BinOp::URem, k(17), k(5), t), k(2));
    assert_eq!(machine::binop(BinOp::URem, k(-1), k(16), t), k(15));
}

#[test]
fn precise_shifts() {
    let t = i32t();
    assert_eq!(machine::binop(BinOp::Shl, iv(0, 3), k(2), t), iv(0, 12));
    assert_eq!(
        machine::binop(BinOp::Shl, k(1), k(31), t),
        k(i128::from(i32::MIN))
    );
    assert_eq!(machine::binop(BinOp::AShr, iv(-8, 8), k(1), t), iv(-4, 4));
    assert_eq!(machine::binop(BinOp::AShr, k(-1), k(5), t), k(-1));
    assert_eq!(machine::binop(BinOp::LShr, k(-1), k(28), t), k(15));
    assert_eq!(
        machine::binop(BinOp::LShr, iv(16, 64), iv(1, 2), t),
        iv(4, 32)
    );
    assert_eq!(
        machine::binop(BinOp::Shl, k(1), k(32), t),
        Interval::top_of(t),
        "poison: any value"
    );
}

#[test]
fn precise_bitwise() {
    let t = i32t();
    assert_eq!(
        machine::binop(BinOp::And, Interval::top(), k(7), t),
        iv(0, 7)
    );
    assert_eq!(machine::binop(BinOp::And, k(7), iv(-5, 5), t), iv(0, 7));
    assert_eq!(
        machine::binop(BinOp::And, iv(0, 100), iv(0, 20), t),
        iv(0, 20)
    );
    assert_eq!(machine::binop(BinOp::Or, iv(0, 5), iv(8, 9), t), iv(8, 15));
    assert_eq!(machine::binop(BinOp::Xor, iv(0, 5), iv(0, 9), t), iv(0, 15));
    assert_eq!(machine::binop(BinOp::Xor, k(12), k(10), t), k(6));
    assert_eq!(machine::binop(BinOp::And, k(-1), k(-16), t), k(-16));
    assert_eq!(machine::binop(BinOp::Or, k(-16), k(3), t), k(-13));
    let min = i128::from(i32::MIN);
    assert_eq!(
        machine::binop(BinOp::And, iv(-8, -1), iv(-40, -2), t),
        iv(min, -2)
    );
    assert_eq!(
        machine::binop(BinOp::Or, iv(-8, -5), iv(0, 100), t),
        iv(-8, -1)
    );
    assert_eq!(
        machine::binop(BinOp::Xor, iv(-4, -1), iv(0, 3), t),
        iv(-4, -1)
    );
    assert_eq!(
        machine::binop(BinOp::Xor, iv(-4, -1), iv(-8, -5), t),
        iv(4, 7),
        "enumerated"
    );
    assert_eq!(
        machine::binop(BinOp::Xor, iv(-4, -1), iv(-16, -5), t),
        iv(0, 15)
    );
    assert_eq!(
        machine::binop(BinOp::Or, iv(-4, 4), iv(-1, 3), t),
        Interval::top_of(t)
    );
    // Booleans: every combination of {0}, {1}, {0, 1} is exact.
    let b = IntTy::new(1);
    let sets = [k(0), k(1), iv(0, 1)];
    for op in [BinOp::And, BinOp::Or, BinOp::Xor] {
        for x in sets {
            for y in sets {
                let mut want = Interval::bottom();
                for u in x.lo()..=x.hi() {
                    for v in y.lo()..=y.hi() {
                        want = want.join(&k(concrete_binop(op, u, v, b).unwrap()));
                    }
                }
                assert_eq!(machine::binop(op, x, y, b), want, "{op:?} {x} {y}");
            }
        }
    }
    // `not` is `xor 1`; `top()` is any boolean.
    assert_eq!(machine::binop(BinOp::Xor, k(1), k(1), b), k(0));
    assert_eq!(machine::binop(BinOp::Xor, k(0), k(1), b), k(1));
    assert_eq!(
        machine::binop(BinOp::Xor, Interval::top(), k(1), b),
        iv(0, 1)
    );
    assert_eq!(machine::binop(BinOp::Add, k(1), k(1), b), k(0));
}

#[test]
fn precise_compare_and_refine() {
    let t = i32t();
    let (a, c) = machine::refine(CmpPred::Slt, iv(0, 10), k(5), t, true);
    assert_eq!((a, c), (iv(0, 4), k(5)));
    let (a, _) = machine::refine(CmpPred::Slt, iv(0, 10), k(5), t, false);
    assert_eq!(a, iv(5, 10));
    let (a, b) = machine::refine(CmpPred::Sle, iv(0, 10), iv(3, 20), t, false);
    assert_eq!((a, b), (iv(4, 10), iv(3, 9)));
    // Unsigned: -1 is 2^32 - 1, so it is not below 5 and is above 0.
    let (a, _) = machine::refine(CmpPred::Ult, iv(-1, 1), k(5), t, true);
    assert_eq!(a, iv(0, 1));
    let (a, _) = machine::refine(CmpPred::Ugt, iv(-1, 1), k(0), t, true);
    assert_eq!(a, iv(-1, 1), "{{-1, 1}} is not contiguous: kept");
    let (a, _) = machine::refine(CmpPred::Ult, iv(-10, 10), k(0), t, true);
    assert!(a.is_bottom(), "nothing is unsigned-below 0");
    let (a, _) = machine::refine(CmpPred::Uge, iv(-10, 10), k(-5), t, true);
    assert_eq!(a, iv(-5, -1));
    // `!=` with a constant at an end shrinks; in the middle it cannot.
    assert_eq!(
        machine::refine(CmpPred::Ne, iv(0, 10), k(0), t, true).0,
        iv(1, 10)
    );
    assert_eq!(
        machine::refine(CmpPred::Ne, iv(0, 10), k(10), t, true).0,
        iv(0, 9)
    );
    assert_eq!(
        machine::refine(CmpPred::Ne, iv(0, 10), k(5), t, true).0,
        iv(0, 10)
    );
    assert_eq!(
        machine::refine(CmpPred::Eq, iv(0, 10), k(5), t, false).0,
        iv(0, 10)
    );
    assert_eq!(
        machine::refine(CmpPred::Eq, iv(0, 10), iv(5, 20), t, true),
        (iv(5, 10), iv(5, 10))
    );
    let (a, b) = machine::refine(CmpPred::Eq, iv(0, 4), iv(5, 9), t, true);
    assert!(a.is_bottom() && b.is_bottom());
    assert_eq!(machine::compare(CmpPred::Slt, iv(0, 4), iv(5, 9), t), k(1));
    assert_eq!(
        machine::compare(CmpPred::Ult, iv(-1, -1), iv(5, 9), t),
        k(0)
    );
    assert_eq!(
        machine::compare(CmpPred::Eq, iv(0, 4), iv(4, 9), t),
        iv(0, 1)
    );
    assert_eq!(
        machine::entails(CmpPred::Ne, iv(0, 4), iv(5, 9), t),
        Truth::True
    );
    assert_eq!(
        machine::entails(CmpPred::Sge, iv(0, 4), iv(4, 9), t),
        Truth::Unknown
    );
}

#[test]
fn precise_casts() {
    let (b, i8t, t) = (IntTy::new(1), IntTy::new(8), i32t());
    assert_eq!(machine::cast(CastOp::ZExt, k(-1), i8t, t), k(255));
    assert_eq!(machine::cast(CastOp::ZExt, iv(-1, 0), i8t, t), iv(0, 255));
    assert_eq!(machine::cast(CastOp::SExt, k(-1), i8t, t), k(-1));
    assert_eq!(machine::cast(CastOp::ZExt, k(1), b, t), k(1));
    assert_eq!(machine::cast(CastOp::SExt, k(1), b, t), k(-1));
    assert_eq!(machine::cast(CastOp::SExt, iv(0, 1), b, t), iv(-1, 0));
    assert_eq!(machine::cast(CastOp::Trunc, k(255), t, i8t), k(-1));
    assert_eq!(
        machine::cast(CastOp::Trunc, iv(250, 260), t, i8t),
        iv(-6, 4)
    );
    assert_eq!(
        machine::cast(CastOp::Trunc, iv(120, 130), t, i8t),
        Interval::top_of(i8t)
    );
    assert_eq!(machine::cast(CastOp::Trunc, iv(256, 260), t, i8t), iv(0, 4));
    assert_eq!(machine::cast(CastOp::Trunc, k(2), t, b), k(0));
    assert_eq!(machine::cast(CastOp::Trunc, k(3), t, b), k(1));
}

#[test]
fn wrap_and_views() {
    let (b, i8t) = (IntTy::new(1), IntTy::new(8));
    assert_eq!(machine::wrap(iv(128, 130), i8t), iv(-128, -126));
    assert_eq!(machine::wrap(iv(126, 130), i8t), Interval::top_of(i8t));
    assert_eq!(machine::wrap(Interval::top(), b), iv(0, 1));
    assert_eq!(machine::wrap(k(-1), b), k(1));
    assert_eq!(machine::to_unsigned(iv(-2, -1), i8t), iv(254, 255));
    assert_eq!(machine::to_unsigned(iv(-1, 1), i8t), iv(0, 255));
    assert_eq!(machine::to_signed(iv(0, 1), b), iv(-1, 0));
    assert_eq!(machine::to_signed(iv(250, 255), i8t), iv(-6, -1));
    assert_eq!(Interval::top_of(b), iv(0, 1));
    assert_eq!(Interval::top_of(i8t), iv(-128, 127));
    assert_eq!(Interval::top_of(IntTy::new(128)), Interval::top());
}

#[test]
fn interval_basics_and_display() {
    assert_eq!(iv(3, 2), Interval::bottom());
    assert_eq!(iv(i128::MAX, i128::MIN), Interval::bottom());
    assert_eq!(iv(0, 9).join(&Interval::bottom()), iv(0, 9));
    assert_eq!(iv(0, 9).meet(&iv(10, 20)), Interval::bottom());
    assert_eq!(iv(4, 4).as_const(), Some(4));
    assert_eq!(iv(4, 5).as_const(), None);
    assert!(iv(4, 5).contains(5) && !iv(4, 5).contains(6));
    assert!(!Interval::bottom().contains(0) && !Interval::bottom().contains(1));
    assert_eq!(Interval::bottom().to_string(), "⊥");
    assert_eq!(k(5).to_string(), "5");
    assert_eq!(iv(-3, 7).to_string(), "[-3, 7]");
    assert_eq!(Interval::top().to_string(), "[-inf, +inf]");
    assert_eq!(iv(0, i128::MAX).to_string(), "[0, +inf]");
}

#[test]
fn widening_then_narrowing_recovers_a_loop_bound() {
    let mut head = k(0);
    assert!(head.widen_with(&iv(0, 1)));
    assert_eq!(head, iv(0, i128::MAX));
    assert!(!head.widen_with(&iv(0, 5)), "stable");
    assert!(head.narrow_with(&iv(0, 10)));
    assert_eq!(head, iv(0, 10));
    assert!(!head.narrow_with(&iv(0, 9)), "finite bounds are kept");
    let mut w = iv(-5, 5);
    w.widen_with(&iv(-6, 5));
    assert_eq!(w, iv(i128::MIN, 5));
}

#[test]
fn env_transfer_functions() {
    let t = i32t();
    let (x, y, z) = (Var(0), Var(1), Var(7));
    let mut e = IntervalEnv::with_capacity(8);
    assert_eq!(e.interval(z), Interval::top(), "unknown variables are top");
    e.set(x, iv(0, 10));
    e.set(y, k(5));
    e.apply(z, BinOp::Add, Operand::Var(x), Operand::Var(y), t);
    assert_eq!(e.interval(z), iv(5, 15));
    e.assume(CmpPred::Slt, Operand::Var(x), Operand::Var(y), t, true);
    assert_eq!(e.interval(x), iv(0, 4));
    e.assume(CmpPred::Sgt, Operand::Var(z), Operand::Var(x), t, true);
    assert_eq!(
        e.interval(z),
        iv(5, 15),
        "z > x refines x only where it can"
    );
    e.assume(CmpPred::Sle, Operand::Var(z), Operand::Var(x), t, false);
    assert_eq!(e.interval(x), iv(0, 4));
    e.compare(Var(3), CmpPred::Slt, Operand::Var(x), Operand::Var(z), t);
    assert_eq!(e.interval(Var(3)), k(1));
    assert_eq!(
        e.entails(CmpPred::Sge, Operand::Var(z), Operand::Const(k(5)), t),
        Truth::True
    );
    e.cast(Var(4), CastOp::SExt, Operand::Const(k(1)), IntTy::new(1), t);
    assert_eq!(e.interval(Var(4)), k(-1));
    e.set_weak(Var(4), k(3));
    assert_eq!(e.interval(Var(4)), iv(-1, 3));
    e.assign(Var(5), x);
    assert_eq!(e.interval(Var(5)), iv(0, 4));
    e.forget(x);
    assert_eq!(e.interval(x), Interval::top());
    // Refining both variables: x == y with disjoint values is impossible.
    e.set(x, iv(0, 3));
    e.set(y, iv(4, 6));
    let before = e.clone();
    e.assume(CmpPred::Eq, Operand::Var(x), Operand::Var(y), t, true);
    assert!(e.is_bottom());
    assert_eq!(e.interval(x), Interval::bottom());
    e = before.clone();
    e.assume(CmpPred::Sle, Operand::Var(y), Operand::Var(x), t, false);
    assert_eq!(e, before, "already true: nothing changes");
    e.set(Var(6), Interval::bottom());
    assert!(e.is_bottom(), "a bottom variable makes the state bottom");
    e.set(x, k(1));
    assert!(e.is_bottom(), "bottom stays bottom");
}

#[test]
fn env_equality_is_equality_of_meaning() {
    let mut a = IntervalEnv::top();
    let mut b = IntervalEnv::with_capacity(4);
    a.set(Var(3), iv(0, 1));
    a.set(Var(3), Interval::top());
    assert_eq!(a, b, "a stored top is top");
    assert!(a.leq(&b) && b.leq(&a));
    b.set(Var(1), k(2));
    assert!(b.leq(&a) && !a.leq(&b));
    assert_eq!(b.iter().find(|(v, _)| *v == Var(1)), Some((Var(1), k(2))));
    let mut j = b.clone();
    assert!(!j.join_with(&IntervalEnv::bottom()));
    assert!(j.join_with(&a));
    assert_eq!(j, a);
    let mut m = IntervalEnv::bottom();
    assert!(m.join_with(&b));
    assert_eq!(m, b);
    assert_ne!(IntervalEnv::bottom(), IntervalEnv::top());
    // Selective widening: only selected variables jump to infinity.
    let mut w = IntervalEnv::top();
    w.set(Var(0), k(0));
    w.set(Var(1), k(0));
    let mut n = w.clone();
    n.set(Var(0), iv(0, 1));
    n.set(Var(1), iv(0, 1));
    assert!(w.widen_selected(&n, &|v| v == Var(0)));
    assert_eq!(w.interval(Var(0)), iv(0, i128::MAX));
    assert_eq!(w.interval(Var(1)), iv(0, 1));
}
