//! Machine-integer semantics on intervals: LLVM's integer instructions on N-bit values.
//!
//! Canonical form: a value of an N-bit type is kept in the signed range
//! `[-2^(N-1), 2^(N-1) - 1]`, except booleans (`i1`), kept in `{0, 1}`. Arguments are values of
//! the type in canonical form whose bounds widening may have pushed to infinity: they are
//! clamped to the type's range (`clamp`), which is exact for them. Results are canonical and
//! wrap around on overflow as the hardware does (`nsw`/`nuw` are not exploited); `wrap` is
//! for results of exact arithmetic only.

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

    /// `2^bits` (only for `exact` widths).
    fn modulus(self) -> i128 {
        1i128 << self.bits
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
/// contiguous there, else that whole window.
fn window(v: Interval, ty: IntTy, start: i128) -> Interval {
    if v.is_bottom() {
        return v;
    }
    if !ty.exact() {
        return v;
    }
    let m = ty.modulus();
    let end = start + m - 1;
    if v.lo() >= start && v.hi() <= end {
        return v;
    }
    let full = Interval::new(start, end);
    let Some(width) = v.hi().checked_sub(v.lo()) else {
        return full;
    };
    if v.lo() == NEG_INF || v.hi() == POS_INF || width >= m - 1 {
        return full;
    }
    let lo = start + (v.lo() - start).rem_euclid(m);
    let hi = lo + width;
    if hi <= end {
        Interval::new(lo, hi)
    } else {
        // Soundness: the values wrap around the window's end; the hull is the whole window.
        full
    }
}

/// `v` in the canonical form of `ty`.
pub fn wrap(v: Interval, ty: IntTy) -> Interval {
    if !ty.exact() {
        return v.meet(&Interval::top_of(ty));
    }
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

/// The unsigned view `[0, 2^N - 1]` of the same bit patterns.
pub fn to_unsigned(v: Interval, ty: IntTy) -> Interval {
    if !ty.exact() {
        return if v.lo() >= 0 {
            v
        } else {
            Interval::new(0, POS_INF)
        };
    }
    window(v, ty, 0)
}

/// The signed view `[-2^(N-1), 2^(N-1) - 1]` of the same bit patterns (`{-1, 0}` for `i1`).
pub fn to_signed(v: Interval, ty: IntTy) -> Interval {
    if !ty.exact() {
        return v;
    }
    window(v, ty, -(1i128 << (ty.bits - 1)))
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
    if !ty.exact() || !finite(&a) || !finite(&b) {
        return top;
    }
    let r = match op {
        BinOp::Add => Some(Interval::new(a.lo() + b.lo(), a.hi() + b.hi())),
        BinOp::Sub => Some(Interval::new(a.lo() - b.hi(), a.hi() - b.lo())),
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
            if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
                Some(x.checked_rem(y).map_or(top, Interval::constant))
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
    let nonneg = |v: &Interval| v.lo() >= 0;
    match op {
        BinOp::And => {
            // x & c for c >= 0 is in [0, c]; two non-negative operands bound each other.
            let mut r = top;
            if nonneg(&a) {
                r = r.meet(&Interval::new(0, a.hi()));
            }
            if nonneg(&b) {
                r = r.meet(&Interval::new(0, b.hi()));
            }
            if r == top && nonneg(&ua) && nonneg(&ub) {
                r = wrap(Interval::new(0, ua.hi().min(ub.hi())), ty);
            }
            r
        }
        _ if nonneg(&a) && nonneg(&b) => {
            let m = a.hi().max(b.hi());
            let bound = if m <= 0 {
                0
            } else {
                let bl = 128 - (m as u128).leading_zeros();
                if bl >= 127 {
                    return top;
                }
                (1i128 << bl) - 1
            };
            let lo = if op == BinOp::Or {
                a.lo().max(b.lo())
            } else {
                0
            };
            wrap(Interval::new(lo, bound), ty)
        }
        _ => top,
    }
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
