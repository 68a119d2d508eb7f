//! Exhaustive checks on narrow types (1 to 4 bits): every canonical interval, every member, every
//! operation, against the concrete reference in `laws`. Narrow widths exercise the same code
//! paths as i32/i64 (wrap-around, sign views, division by zero, poison shifts) on every corner.

use watts_domains::laws::{concrete_binop, concrete_cast, concrete_cmp};
use watts_domains::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use watts_domains::{Interval, Lattice, Truth};

const OPS: [BinOp; 13] = BinOp::ALL;
const PREDS: [CmpPred; 10] = CmpPred::ALL;
const WIDTHS: [u32; 4] = [1, 2, 3, 4];

/// Every non-empty canonical interval of `ty`.
fn intervals(ty: IntTy) -> Vec<Interval> {
    let (min, max) = (ty.min(), ty.max());
    let mut v = Vec::new();
    for lo in min..=max {
        for hi in lo..=max {
            v.push(Interval::new(lo, hi));
        }
    }
    v
}

fn members(a: Interval) -> impl Iterator<Item = i128> {
    a.lo()..=a.hi()
}

fn hull(values: impl IntoIterator<Item = i128>) -> Interval {
    values.into_iter().fold(Interval::bottom(), |acc, x| {
        acc.join(&Interval::constant(x))
    })
}

#[test]
fn binop_is_sound_canonical_and_exact_on_constants() {
    for bits in WIDTHS {
        let ty = IntTy::new(bits);
        let all = intervals(ty);
        for op in OPS {
            for &a in &all {
                for &b in &all {
                    let r = machine::binop(op, a, b, ty);
                    assert!(r.leq(&Interval::top_of(ty)), "{op:?} {a} {b} i{bits}: {r}");
                    let best = hull(members(a).flat_map(|x| {
                        members(b).filter_map(move |y| concrete_binop(op, x, y, ty))
                    }));
                    assert!(best.leq(&r), "{op:?} {a} {b} i{bits}: {r} misses {best}");
                    if a.as_const().is_some() && b.as_const().is_some() && !best.is_bottom() {
                        assert_eq!(r, best, "{op:?} {a} {b} i{bits}: constants are exact");
                    }
                    if best.is_bottom() && matches!(op, BinOp::UDiv | BinOp::URem) {
                        assert!(
                            r.is_bottom(),
                            "{op:?} {a} {b} i{bits}: only division by zero"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn compare_entails_and_refine_are_sound_and_tight() {
    for bits in WIDTHS {
        let ty = IntTy::new(bits);
        let all = intervals(ty);
        for pred in PREDS {
            for &a in &all {
                for &b in &all {
                    let outcomes = hull(members(a).flat_map(|x| {
                        members(b).map(move |y| i128::from(concrete_cmp(pred, x, y, ty)))
                    }));
                    // Intervals of one type decide a comparison exactly when it is decided.
                    assert_eq!(
                        machine::compare(pred, a, b, ty),
                        outcomes,
                        "{pred:?} {a} {b} i{bits}"
                    );
                    let want = match outcomes.as_const() {
                        Some(1) => Truth::True,
                        Some(_) => Truth::False,
                        None => Truth::Unknown,
                    };
                    assert_eq!(
                        machine::entails(pred, a, b, ty),
                        want,
                        "{pred:?} {a} {b} i{bits}"
                    );
                    for outcome in [true, false] {
                        let (ra, rb) = machine::refine(pred, a, b, ty, outcome);
                        let pairs: Vec<(i128, i128)> = members(a)
                            .flat_map(|x| members(b).map(move |y| (x, y)))
                            .filter(|&(x, y)| concrete_cmp(pred, x, y, ty) == outcome)
                            .collect();
                        let (ba, bb) = (
                            hull(pairs.iter().map(|p| p.0)),
                            hull(pairs.iter().map(|p| p.1)),
                        );
                        let ctx =
                            format!("{pred:?}={outcome} {a} {b} i{bits}: {ra} {rb} vs {ba} {bb}");
                        assert!(ba.leq(&ra) && bb.leq(&rb), "unsound: {ctx}");
                        assert!(ra.leq(&a) && rb.leq(&b), "grew: {ctx}");
                        assert_eq!(pairs.is_empty(), ra.is_bottom() && rb.is_bottom(), "{ctx}");
                        // Signed orders and equality refine to the best intervals; `!=` shrinks
                        // only at the ends and the unsigned orders only when contiguous.
                        let order = matches!(
                            pred,
                            CmpPred::Sgt | CmpPred::Sge | CmpPred::Slt | CmpPred::Sle
                        );
                        let equal =
                            matches!((pred, outcome), (CmpPred::Eq, true) | (CmpPred::Ne, false));
                        if order || equal {
                            assert_eq!((ra, rb), (ba, bb), "not tight: {ctx}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn casts_are_sound_and_exact_on_constants() {
    for from in WIDTHS.map(IntTy::new) {
        for to in WIDTHS.map(IntTy::new) {
            for op in [CastOp::Trunc, CastOp::ZExt, CastOp::SExt] {
                let legal = match op {
                    CastOp::Trunc => to.bits < from.bits,
                    _ => to.bits > from.bits,
                };
                if !legal {
                    continue;
                }
                for a in intervals(from) {
                    let r = machine::cast(op, a, from, to);
                    let best = hull(members(a).map(|x| concrete_cast(op, x, from, to)));
                    let ctx = format!("{op:?} {a} i{} -> i{}: {r} vs {best}", from.bits, to.bits);
                    assert!(best.leq(&r) && r.leq(&Interval::top_of(to)), "{ctx}");
                    if op != CastOp::Trunc {
                        // Extensions are exact whenever the view is contiguous.
                        let view = match op {
                            CastOp::ZExt => machine::to_unsigned(a, from),
                            _ => machine::to_signed(a, from),
                        };
                        if view.width() == a.width() {
                            assert_eq!(r, best, "{ctx}");
                        }
                    } else if a.as_const().is_some() {
                        assert_eq!(r, best, "{ctx}");
                    }
                }
            }
        }
    }
}
