//! Machine-integer semantics on intervals: LLVM's integer instructions on N-bit values.
//!
//! Canonical form: a value of an N-bit type is kept in the signed range
//! `[-2^(N-1), 2^(N-1) - 1]`, except booleans (`i1`), kept in `{0, 1}`. Arguments are values of
//! the type in canonical form whose bounds widening may have pushed to infinity: they are
//! clamped to the type's range (`clamp`), which is exact for them. Results are canonical and
//! wrap around on overflow as the hardware does (`nsw`/`nuw` are not exploited); `wrap` is
//! for results of exact arithmetic only.
//!
//! The interval of every value of a type is here too (`Interval::top_of`): `interval` knows
//! mathematical integers only.

use crate::interval::{Interval, NEG_INF, POS_INF};
use crate::Truth;

/// An integer type of `bits` bits (1 to 128).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IntTy {
    /// Width in bits.
    pub bits: u32,
}

impl IntTy {
    /// The type of `bits` bits (clamped to 1..=128).
    pub fn new(bits: u32) -> IntTy {
        IntTy {
            bits: bits.clamp(1, 128),
        }
    }

    /// Whether the exact arithmetic of this width fits our `i128` bounds.
    fn exact(self) -> bool {
        self.bits <= 120
    }

    /// Smallest canonical value.
    pub fn min(self) -> i128 {
        match self.bits {
            1 => 0,
            b if b >= 128 => NEG_INF,
            b => -(1i128 << (b - 1)),
        }
    }

    /// Largest canonical value.
    pub fn max(self) -> i128 {
        match self.bits {
            1 => 1,
            b if b >= 128 => POS_INF,
            b => (1i128 << (b - 1)) - 1,
        }
    }
}

impl Interval {
    /// Every value of a machine type, in its canonical range.
    pub fn top_of(ty: IntTy) -> Interval {
        Interval::new(ty.min(), ty.max())
    }
}

/// LLVM's integer binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add`
    Add,
    /// `sub`
    Sub,
    /// `mul`
    Mul,
    /// `udiv`
    UDiv,
    /// `sdiv`
    SDiv,
    /// `urem`
    URem,
    /// `srem`
    SRem,
    /// `shl`
    Shl,
    /// `lshr`
    LShr,
    /// `ashr`
    AShr,
    /// `and`
    And,
    /// `or`
    Or,
    /// `xor`
    Xor,
}

impl BinOp {
    /// Every operation (for exhaustive tests).
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ];
}

/// LLVM's integer comparison predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpPred {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// unsigned `>`
    Ugt,
    /// unsigned `>=`
    Uge,
    /// unsigned `<`
    Ult,
    /// unsigned `<=`
    Ule,
    /// signed `>`
    Sgt,
    /// signed `>=`
    Sge,
    /// signed `<`
    Slt,
    /// signed `<=`
    Sle,
}

impl CmpPred {
    /// Every predicate (for exhaustive tests).
    pub const ALL: [CmpPred; 10] = [
        CmpPred::Eq,
        CmpPred::Ne,
        CmpPred::Ugt,
        CmpPred::Uge,
        CmpPred::Ult,
        CmpPred::Ule,
        CmpPred::Sgt,
        CmpPred::Sge,
        CmpPred::Slt,
        CmpPred::Sle,
    ];

    /// The predicate that holds exactly when this one does not.
    pub fn negate(self) -> CmpPred {
        use CmpPred::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Ugt => Ule,
            Uge => Ult,
            Ult => Uge,
            Ule => Ugt,
            Sgt => Sle,
            Sge => Slt,
            Slt => Sge,
            Sle => Sgt,
        }
    }

    /// The predicate with operands swapped.
    pub fn swap(self) -> CmpPred {
        use CmpPred::*;
        match self {
            Eq => Eq,
            Ne => Ne,
            Ugt => Ult,
            Uge => Ule,
            Ult => Ugt,
            Ule => Uge,
            Sgt => Slt,
            Sge => Sle,
            Slt => Sgt,
            Sle => Sge,
        }
    }

    fn is_unsigned(self) -> bool {
        matches!(
            self,
            CmpPred::Ugt | CmpPred::Uge | CmpPred::Ult | CmpPred::Ule
        )
    }

    /// The signed order with the same direction (unsigned and signed orders agree on values of
    /// one sign).
    fn as_signed(self) -> CmpPred {
        use CmpPred::*;
        match self {
            Ugt => Sgt,
            Uge => Sge,
            Ult => Slt,
            Ule => Sle,
            p => p,
        }
    }
}

/// The sign of every value of a non-empty interval: `Some(true)` all negative, `Some(false)` all
/// non-negative, `None` mixed.
fn sign(v: Interval) -> Option<bool> {
    if v.hi() < 0 {
        Some(true)
    } else if v.lo() >= 0 {
        Some(false)
    } else {
        None
    }
}

/// Unsigned comparisons on 128 bits, whose unsigned view does not fit an `i128` (it saturates
/// at +inf, which would make `2^127 - 1` and `2^128 - 1` look alike): decided from the signs.
/// Operands are clamped and non-empty.
fn entails_u128(pred: CmpPred, a: Interval, b: Interval, ty: IntTy) -> Truth {
    match (sign(a), sign(b)) {
        (Some(x), Some(y)) if x == y => entails(pred.as_signed(), a, b, ty),
        (Some(neg_a), Some(_)) => {
            // Every non-negative value is unsigned-below every negative one.
            let below = !neg_a;
            let holds = match pred {
                CmpPred::Ult | CmpPred::Ule => below,
                _ => !below,
            };
            if holds {
                Truth::True
            } else {
                Truth::False
            }
        }
        _ => Truth::Unknown,
    }
}

/// Integer conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// `trunc`
    Trunc,
    /// `zext`
    ZExt,
    /// `sext`
    SExt,
}

/// The bit patterns of `v` seen as numbers in `[start, start + 2^bits)`: exact when they stay
/// contiguous there, else that whole window. Works for every width: the window's end saturates
/// to +inf when it does not fit (`i128` or the unsigned view of 127 and 128 bits).
fn window(v: Interval, ty: IntTy, start: i128) -> Interval {
    if v.is_bottom() {
        return v;
    }
    // `2^bits - 1`, saturated: the window's span.
    let span = 1u128
        .checked_shl(ty.bits)
        .map_or(u128::MAX, |m| m - 1)
        .min(i128::MAX as u128) as i128;
    let end = if start == NEG_INF {
        // The signed view of 128 bits is every `i128`.
        POS_INF
    } else {
        start.saturating_add(span)
    };
    let full = Interval::new(start, end);
    if v.is_subset(&full) {
        return v;
    }
    // Soundness: an unbounded interval, or one at least as wide as the window, or a width whose
    // modulus does not fit, covers (or is hulled to) the whole window.
    if v.lo() == NEG_INF || v.hi() == POS_INF || ty.bits >= 127 {
        return full;
    }
    let m = 1i128 << ty.bits;
    let Some(width) = v.hi().checked_sub(v.lo()) else {
        return full;
    };
    if width >= m - 1 {
        return full;
    }
    // `(lo - start) mod m` without overflow: both residues are in `[0, m)` and `m <= 2^126`.
    let off = (v.lo().rem_euclid(m) - start.rem_euclid(m)).rem_euclid(m);
    let lo = start + off;
    match lo.checked_add(width) {
        Some(hi) if hi <= full.hi() => Interval::new(lo, hi),
        // Soundness: the values wrap around the window's end; the hull is the whole window.
        _ => full,
    }
}

/// `v` in the canonical form of `ty`: the set `{x mod 2^N}`, exact when it is contiguous in the
/// canonical range, else `top_of(ty)`.
pub fn wrap(v: Interval, ty: IntTy) -> Interval {
    window(v, ty, ty.min())
}

/// An argument of type `ty` in canonical form: `v` within the type's range. When `v` has no
/// value in that range it cannot be a canonical value, and is wrapped instead (never unsound).
pub fn clamp(v: Interval, ty: IntTy) -> Interval {
    let c = v.meet(&Interval::top_of(ty));
    if c.is_bottom() && !v.is_bottom() {
        wrap(v, ty)
    } else {
        c
    }
}

/// The unsigned view `[0, 2^N - 1]` of the same bit patterns (the upper end saturates to +inf
/// for 127 and 128 bits).
pub fn to_unsigned(v: Interval, ty: IntTy) -> Interval {
    window(v, ty, 0)
}

/// The signed view `[-2^(N-1), 2^(N-1) - 1]` of the same bit patterns (`{-1, 0}` for `i1`).
pub fn to_signed(v: Interval, ty: IntTy) -> Interval {
    let start = 1i128
        .checked_shl(ty.bits - 1)
        .map_or(NEG_INF, |h| h.wrapping_neg());
    window(v, ty, start)
}

fn hull(points: &[Option<i128>]) -> Option<Interval> {
    let mut lo = POS_INF;
    let mut hi = NEG_INF;
    for p in points {
        let p = (*p)?;
        lo = lo.min(p);
        hi = hi.max(p);
    }
    Some(Interval::new(lo, hi))
}

fn finite(v: &Interval) -> bool {
    v.lo() != NEG_INF && v.hi() != POS_INF
}

/// The non-zero parts of a divisor.
fn nonzero_parts(b: Interval) -> Vec<Interval> {
    [
        b.meet(&Interval::new(NEG_INF, -1)),
        b.meet(&Interval::new(1, POS_INF)),
    ]
    .into_iter()
    .filter(|p| !p.is_bottom())
    .collect()
}

/// `a op b` on `ty`.
pub fn binop(op: BinOp, a: Interval, b: Interval, ty: IntTy) -> Interval {
    let top = Interval::top_of(ty);
    let (a, b) = (clamp(a, ty), clamp(b, ty));
    if a.is_bottom() || b.is_bottom() {
        return Interval::bottom();
    }
    // Soundness: beyond 120 bits the unsigned views and shifted values need not fit an
    // `i128`; only add/sub/mul stay exact there (checked, then wrapped).
    let wide_ok = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul);
    if !(ty.exact() || wide_ok) || !finite(&a) || !finite(&b) {
        return top;
    }
    let r = match op {
        BinOp::Add => hull(&[a.lo().checked_add(b.lo()), a.hi().checked_add(b.hi())]),
        BinOp::Sub => hull(&[a.lo().checked_sub(b.hi()), a.hi().checked_sub(b.lo())]),
        BinOp::Mul => hull(&[
            a.lo().checked_mul(b.lo()),
            a.lo().checked_mul(b.hi()),
            a.hi().checked_mul(b.lo()),
            a.hi().checked_mul(b.hi()),
        ]),
        BinOp::SDiv => {
            let (a, b) = (to_signed(a, ty), to_signed(b, ty));
            // Soundness: division by zero traps; no execution continues with it.
            let parts = nonzero_parts(b);
            if parts.is_empty() {
                return Interval::bottom();
            }
            let mut acc = Interval::bottom();
            for p in parts {
                let h = hull(&[
                    a.lo().checked_div(p.lo()),
                    a.lo().checked_div(p.hi()),
                    a.hi().checked_div(p.lo()),
                    a.hi().checked_div(p.hi()),
                ]);
                match h {
                    Some(h) => acc = acc.join(&h),
                    None => return top,
                }
            }
            Some(acc)
        }
        BinOp::UDiv => {
            let (a, b) = (to_unsigned(a, ty), to_unsigned(b, ty));
            let b = b.meet(&Interval::new(1, POS_INF));
            if b.is_bottom() {
                return Interval::bottom();
            }
            Some(Interval::new(a.lo() / b.hi(), a.hi() / b.lo()))
        }
        BinOp::SRem => {
            let (a, b) = (to_signed(a, ty), to_signed(b, ty));
            let parts = nonzero_parts(b);
            if parts.is_empty() {
                return Interval::bottom();
            }
            if let Some(r) = b.as_const().and_then(|c| rem_one_period(a, c)) {
                Some(r)
            } else {
                let m = parts
                    .iter()
                    .map(|p| p.lo().unsigned_abs().max(p.hi().unsigned_abs()))
                    .max()
                    .unwrap_or(1) as i128
                    - 1;
                let lo = if a.lo() >= 0 { 0 } else { a.lo().max(-m) };
                let hi = if a.hi() <= 0 { 0 } else { a.hi().min(m) };
                Some(Interval::new(lo, hi))
            }
        }
        BinOp::URem => {
            let (a, b) = (to_unsigned(a, ty), to_unsigned(b, ty));
            let b = b.meet(&Interval::new(1, POS_INF));
            if b.is_bottom() {
                return Interval::bottom();
            }
            if a.hi() < b.lo() {
                Some(a)
            } else if let Some(r) = b.as_const().and_then(|c| rem_one_period(a, c)) {
                Some(r)
            } else {
                Some(Interval::new(0, a.hi().min(b.hi() - 1)))
            }
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            let k = to_unsigned(b, ty);
            if k.hi() >= i128::from(ty.bits) {
                // Soundness: shifting by the width or more gives poison: any value.
                return top;
            }
            let (k0, k1) = (k.lo() as u32, k.hi() as u32);
            match op {
                BinOp::Shl => hull(&[
                    a.lo().checked_mul(1i128 << k0),
                    a.lo().checked_mul(1i128 << k1),
                    a.hi().checked_mul(1i128 << k0),
                    a.hi().checked_mul(1i128 << k1),
                ]),
                BinOp::AShr => {
                    let a = to_signed(a, ty);
                    hull(&[
                        Some(a.lo() >> k0),
                        Some(a.lo() >> k1),
                        Some(a.hi() >> k0),
                        Some(a.hi() >> k1),
                    ])
                }
                _ => {
                    let a = to_unsigned(a, ty);
                    Some(Interval::new(a.lo() >> k1, a.hi() >> k0))
                }
            }
        }
        BinOp::And | BinOp::Or | BinOp::Xor => Some(bitwise(op, a, b, ty)),
    };
    match r {
        Some(r) => wrap(r, ty),
        None => top,
    }
}

/// `a % c` (truncating) when every value of `a` has the same quotient and sign: the remainder
/// then grows with the dividend, so the bounds map to bounds.
fn rem_one_period(a: Interval, c: i128) -> Option<Interval> {
    let same_sign = a.lo() >= 0 || a.hi() <= 0;
    if !same_sign || a.lo().checked_div(c)? != a.hi().checked_div(c)? {
        return None;
    }
    Some(Interval::new(
        a.lo().checked_rem(c)?,
        a.hi().checked_rem(c)?,
    ))
}

fn bitwise(op: BinOp, a: Interval, b: Interval, ty: IntTy) -> Interval {
    let top = Interval::top_of(ty);
    let (ua, ub) = (to_unsigned(a, ty), to_unsigned(b, ty));
    let concrete = |x: i128, y: i128| -> i128 {
        match op {
            BinOp::And => x & y,
            BinOp::Or => x | y,
            _ => x ^ y,
        }
    };
    // Small sets (booleans, constants): enumerate.
    if ua.width() <= 3 && ub.width() <= 3 {
        let mut acc = Interval::bottom();
        for x in ua.lo()..=ua.hi() {
            for y in ub.lo()..=ub.hi() {
                acc = acc.join(&Interval::constant(concrete(x, y)));
            }
        }
        return wrap(acc, ty);
    }
    // Larger sets, by the signs of the (canonical, signed) operands; widths >= 2 here, since
    // booleans are always enumerated.
    let (neg_a, neg_b) = (a.hi() < 0, b.hi() < 0);
    let (pos_a, pos_b) = (a.lo() >= 0, b.lo() >= 0);
    // `!v` as a number: `-v - 1`, which maps negatives to non-negatives and back.
    let not = |v: Interval| Interval::new(-v.hi() - 1, -v.lo() - 1);
    let r = match op {
        BinOp::And => {
            // Soundness: clearing bits makes a non-negative value smaller and keeps it
            // non-negative, and keeps a negative value negative and no larger.
            let mut r = top;
            if pos_a {
                r = r.meet(&Interval::new(0, a.hi()));
            }
            if pos_b {
                r = r.meet(&Interval::new(0, b.hi()));
            }
            if neg_a && neg_b {
                r = r.meet(&Interval::new(ty.min(), a.hi().min(b.hi())));
            }
            r
        }
        BinOp::Or if pos_a && pos_b => {
            // Soundness: setting bits only grows a value, below the next power of two.
            Interval::new(a.lo().max(b.lo()), low_ones(a.hi().max(b.hi())))
        }
        BinOp::Or => {
            // Soundness: setting bits of a negative value keeps it negative and no smaller.
            let mut r = top;
            if neg_a {
                r = r.meet(&Interval::new(a.lo(), -1));
            }
            if neg_b {
                r = r.meet(&Interval::new(b.lo(), -1));
            }
            r
        }
        // Soundness: the xor of non-negative values is below the next power of two; negative
        // operands are complemented first (`!x ^ y == !(x ^ y)`, `!x ^ !y == x ^ y`).
        _ if pos_a && pos_b => Interval::new(0, low_ones(a.hi().max(b.hi()))),
        _ if neg_a && neg_b => Interval::new(0, low_ones(not(a).hi().max(not(b).hi()))),
        _ if neg_a && pos_b => not(Interval::new(0, low_ones(not(a).hi().max(b.hi())))),
        _ if pos_a && neg_b => not(Interval::new(0, low_ones(a.hi().max(not(b).hi())))),
        _ => top,
    };
    wrap(r, ty)
}

/// `2^k - 1` for the least `k` with `m < 2^k` (`m >= 0`, at most 120 bits here).
fn low_ones(m: i128) -> i128 {
    let k = 128 - (m.max(0) as u128).leading_zeros();
    (1i128 << k) - 1
}

/// The view in which `pred` compares.
fn view(pred: CmpPred, v: Interval, ty: IntTy) -> Interval {
    let v = clamp(v, ty);
    if pred.is_unsigned() {
        to_unsigned(v, ty)
    } else if matches!(pred, CmpPred::Eq | CmpPred::Ne) {
        wrap(v, ty)
    } else {
        to_signed(v, ty)
    }
}

/// Whether `a pred b` holds for all, no, or some values.
pub fn entails(pred: CmpPred, a: Interval, b: Interval, ty: IntTy) -> Truth {
    if pred.is_unsigned() && ty.bits >= 128 {
        let (a, b) = (clamp(a, ty), clamp(b, ty));
        if a.is_bottom() || b.is_bottom() {
            return Truth::True;
        }
        return entails_u128(pred, a, b, ty);
    }
    let (a, b) = (view(pred, a, ty), view(pred, b, ty));
    if a.is_bottom() || b.is_bottom() {
        return Truth::True;
    }
    use CmpPred::*;
    let (t, f) = match pred {
        Eq => (a.as_const().is_some() && a == b, a.meet(&b).is_bottom()),
        Ne => (a.meet(&b).is_bottom(), a.as_const().is_some() && a == b),
        Ult | Slt => (a.hi() < b.lo(), a.lo() >= b.hi()),
        Ule | Sle => (a.hi() <= b.lo(), a.lo() > b.hi()),
        Ugt | Sgt => (a.lo() > b.hi(), a.hi() <= b.lo()),
        Uge | Sge => (a.lo() >= b.hi(), a.hi() < b.lo()),
    };
    if t {
        Truth::True
    } else if f {
        Truth::False
    } else {
        Truth::Unknown
    }
}

/// `a pred b` as 0 or 1.
pub fn compare(pred: CmpPred, a: Interval, b: Interval, ty: IntTy) -> Interval {
    if clamp(a, ty).is_bottom() || clamp(b, ty).is_bottom() {
        return Interval::bottom();
    }
    match entails(pred, a, b, ty) {
        Truth::True => Interval::constant(1),
        Truth::False => Interval::constant(0),
        Truth::Unknown => Interval::new(0, 1),
    }
}

/// The largest parts of `a` and `b` (canonical) for which `(a pred b) == outcome` may hold;
/// both bottom when it cannot.
pub fn refine(
    pred: CmpPred,
    a: Interval,
    b: Interval,
    ty: IntTy,
    outcome: bool,
) -> (Interval, Interval) {
    let pred = if outcome { pred } else { pred.negate() };
    let (ca, cb) = (clamp(a, ty), clamp(b, ty));
    if ca.is_bottom() || cb.is_bottom() {
        return (Interval::bottom(), Interval::bottom());
    }
    if pred.is_unsigned() && ty.bits >= 128 {
        // Soundness: the unsigned view of 128 bits saturates at +inf and cannot be mapped back;
        // refine only operands of one sign, where the signed order is the same, or an
        // impossible comparison.
        return match (sign(ca), sign(cb)) {
            (Some(x), Some(y)) if x == y => refine(pred.as_signed(), ca, cb, ty, true),
            _ if entails_u128(pred, ca, cb, ty) == Truth::False => {
                (Interval::bottom(), Interval::bottom())
            }
            _ => (ca, cb),
        };
    }
    let (va, vb) = (view(pred, ca, ty), view(pred, cb, ty));
    use CmpPred::*;
    let (ra, rb) = match pred {
        Eq => {
            let m = va.meet(&vb);
            (m, m)
        }
        Ne => (ne_shrink(va, vb), ne_shrink(vb, va)),
        Ult | Slt => (
            va.meet(&Interval::new(NEG_INF, vb.hi().saturating_sub(1))),
            vb.meet(&Interval::new(va.lo().saturating_add(1), POS_INF)),
        ),
        Ule | Sle => (
            va.meet(&Interval::new(NEG_INF, vb.hi())),
            vb.meet(&Interval::new(va.lo(), POS_INF)),
        ),
        Ugt | Sgt => (
            va.meet(&Interval::new(vb.lo().saturating_add(1), POS_INF)),
            vb.meet(&Interval::new(NEG_INF, va.hi().saturating_sub(1))),
        ),
        Uge | Sge => (
            va.meet(&Interval::new(vb.lo(), POS_INF)),
            vb.meet(&Interval::new(NEG_INF, va.hi())),
        ),
    };
    if ra.is_bottom() || rb.is_bottom() {
        return (Interval::bottom(), Interval::bottom());
    }
    // Back to canonical form; when the view's part is not contiguous there, keep the operand.
    let na = ca.meet(&wrap(ra, ty));
    let nb = cb.meet(&wrap(rb, ty));
    if na.is_bottom() || nb.is_bottom() {
        return (Interval::bottom(), Interval::bottom());
    }
    (na, nb)
}

/// `a` without the single value of `b`, when that value is an end of `a`.
fn ne_shrink(a: Interval, b: Interval) -> Interval {
    match b.as_const() {
        Some(c) if a.as_const() == Some(c) => Interval::bottom(),
        Some(c) if a.lo() == c => Interval::new(c + 1, a.hi()),
        Some(c) if a.hi() == c => Interval::new(a.lo(), c - 1),
        _ => a,
    }
}

/// `op a` from `from` to `to`.
pub fn cast(op: CastOp, a: Interval, from: IntTy, to: IntTy) -> Interval {
    let a = clamp(a, from);
    if a.is_bottom() {
        return a;
    }
    match op {
        CastOp::Trunc => wrap(a, to),
        CastOp::ZExt => wrap(to_unsigned(a, from), to),
        CastOp::SExt => wrap(to_signed(a, from), to),
    }
}
