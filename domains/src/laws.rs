//! Property checks shared by every domain: proptest strategies, the lattice laws
//! (`check_lattice_laws`, `check_widening_terminates`) and a concrete reference of LLVM's integer
//! instructions (`concrete_binop`, `concrete_cmp`, `concrete_cast`) to test soundness against.
//! The crate's own tests (`domains/tests/`) run them for `Interval` and `IntervalEnv`.

use crate::env::IntervalEnv;
use crate::interval::Interval;
use crate::machine::{BinOp, CastOp, CmpPred, IntTy};
use crate::{Lattice, NumDomain, Var};
use proptest::prelude::*;

/// Interesting bounds: small values, values near the limits of common types (2^7, 2^15, 2^31,
/// 2^63), huge values and the infinities.
pub fn bound() -> impl Strategy<Value = i128> {
    let near = |x: i128| (-2i128..=2).prop_map(move |d| x.saturating_add(d));
    prop_oneof![
        4 => -20i128..20,
        1 => Just(i128::MIN),
        1 => Just(i128::MAX),
        1 => near(i128::MIN + 2),
        1 => near(i128::MAX - 2),
        1 => near(1 << 7).prop_union(near(-(1 << 7))),
        1 => near(1 << 15).prop_union(near(-(1 << 15))),
        1 => near(1 << 31).prop_union(near(-(1 << 31))),
        1 => near(1 << 32).prop_union(near(-(1 << 32))),
        1 => near(1 << 63).prop_union(near(-(1 << 63))),
        1 => near(1 << 64),
        2 => any::<i32>().prop_map(i128::from),
        1 => any::<i64>().prop_map(i128::from),
        1 => any::<i128>(),
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

/// An interval environment over a few variables (bottom and top included).
pub fn interval_env() -> impl Strategy<Value = IntervalEnv> {
    prop_oneof![
        1 => Just(IntervalEnv::bottom()),
        1 => Just(IntervalEnv::top()),
        8 => proptest::collection::vec(interval(), 0..5).prop_map(|v| {
            let mut e = IntervalEnv::top();
            for (i, x) in v.iter().enumerate() {
                e.set(Var(i as u32), *x);
            }
            e
        }),
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

/// A canonical interval of `ty` and a member of it: bounds near the type's limits, near zero,
/// or anywhere in the range.
pub fn member_of(ty: IntTy) -> impl Strategy<Value = (Interval, i128)> {
    let (min, max) = (ty.min(), ty.max());
    let near = move |x: i128| {
        prop_oneof![
            Just(x),
            (0i128..4).prop_map(move |d| x.saturating_sub(d).clamp(min, max)),
            (0i128..4).prop_map(move |d| x.saturating_add(d).clamp(min, max))
        ]
    };
    let point = prop_oneof![
        near(min),
        near(max),
        near(0),
        (-300i128..300).prop_map(move |x| x.clamp(min, max)),
        any::<i64>().prop_map(move |x| i128::from(x).clamp(min, max)),
        any::<u128>().prop_map(move |r| {
            let span = max.wrapping_sub(min) as u128;
            match span.checked_add(1) {
                Some(n) => min.wrapping_add((r % n) as i128),
                None => r as i128,
            }
        }),
    ];
    (point.clone(), point.clone(), point).prop_map(|(a, b, c)| {
        let mut v = [a, b, c];
        v.sort();
        (Interval::new(v[0], v[2]), v[1])
    })
}

/// The bit pattern of `v` in `ty` (two's complement, `ty.bits` low bits).
pub fn pattern(v: i128, ty: IntTy) -> u128 {
    (v as u128) & mask(ty.bits)
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The canonical value (see `machine`) of the low `ty.bits` bits of `p`.
pub fn canonical(p: u128, ty: IntTy) -> i128 {
    if ty.bits == 1 {
        return (p & 1) as i128;
    }
    signed(p, ty)
}

/// The two's complement value of the low `ty.bits` bits of `p` (`{-1, 0}` for `i1`).
pub fn signed(p: u128, ty: IntTy) -> i128 {
    let p = p & mask(ty.bits);
    if ty.bits < 128 && p >> (ty.bits - 1) & 1 == 1 {
        (p as i128) - (1i128 << (ty.bits - 1)) - (1i128 << (ty.bits - 1))
    } else {
        p as i128
    }
}

/// LLVM's `x op y` on `ty` (canonical operands and result), or `None` when the instruction
/// traps (division by zero, `MIN sdiv -1`) or gives poison (shift by the width or more): any
/// abstract result is then sound.
pub fn concrete_binop(op: BinOp, x: i128, y: i128, ty: IntTy) -> Option<i128> {
    let (px, py) = (pattern(x, ty), pattern(y, ty));
    let (sx, sy) = (signed(px, ty), signed(py, ty));
    let min = signed(1u128 << (ty.bits - 1), ty);
    let r: u128 = match op {
        BinOp::Add => px.wrapping_add(py),
        BinOp::Sub => px.wrapping_sub(py),
        BinOp::Mul => px.wrapping_mul(py),
        BinOp::UDiv => px.checked_div(py)?,
        BinOp::URem => px.checked_rem(py)?,
        BinOp::SDiv | BinOp::SRem if sy == 0 || (sy == -1 && sx == min) => return None,
        BinOp::SDiv => (sx / sy) as u128,
        BinOp::SRem => (sx % sy) as u128,
        BinOp::Shl | BinOp::LShr | BinOp::AShr if py >= u128::from(ty.bits) => return None,
        BinOp::Shl => px << py,
        BinOp::LShr => px >> py,
        BinOp::AShr => (sx >> py) as u128,
        BinOp::And => px & py,
        BinOp::Or => px | py,
        BinOp::Xor => px ^ py,
    };
    Some(canonical(r, ty))
}

/// LLVM's `icmp pred x, y` on `ty`.
pub fn concrete_cmp(pred: CmpPred, x: i128, y: i128, ty: IntTy) -> bool {
    let (px, py) = (pattern(x, ty), pattern(y, ty));
    let (sx, sy) = (signed(px, ty), signed(py, ty));
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

/// LLVM's cast of `x` from `from` to `to` (canonical value).
pub fn concrete_cast(op: CastOp, x: i128, from: IntTy, to: IntTy) -> i128 {
    let p = pattern(x, from);
    let widened = match op {
        CastOp::Trunc | CastOp::ZExt => p,
        CastOp::SExt => signed(p, from) as u128,
    };
    canonical(widened, to)
}
