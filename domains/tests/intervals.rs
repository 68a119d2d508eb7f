//! Lattice laws, soundness against a concrete reference of LLVM's integer semantics, and the
//! precise results users rely on.

use proptest::prelude::*;
use watts_domains::laws::{self, check_lattice_laws, check_widening_terminates};
use watts_domains::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use watts_domains::{Interval, IntervalEnv, Lattice, NumDomain, Operand, Truth, Var};

const OPS: [BinOp; 13] = [
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
const PREDS: [CmpPred; 10] = [
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

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// Canonical value of a bit pattern.
fn canon(p: u128, ty: IntTy) -> i128 {
    let p = p & mask(ty.bits);
    if ty.bits == 1 {
        return p as i128;
    }
    if p >> (ty.bits - 1) & 1 == 1 {
        (p as i128) - (1i128 << ty.bits)
    } else {
        p as i128
    }
}

fn pattern(v: i128, ty: IntTy) -> u128 {
    (v as u128) & mask(ty.bits)
}

fn signed(p: u128, bits: u32) -> i128 {
    let p = p & mask(bits);
    if p >> (bits - 1) & 1 == 1 {
        (p as i128) - (1i128 << bits)
    } else {
        p as i128
    }
}

/// LLVM's result, or `None` when the operation traps or is poison (any value is then fine).
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
        BinOp::SDiv => {
            if sy == 0 || (sy == -1 && sx == -(1i128 << (n - 1))) {
                return None;
            }
            (sx / sy) as u128
        }
        BinOp::SRem => {
            if sy == 0 || (sy == -1 && sx == -(1i128 << (n - 1))) {
                return None;
            }
            (sx % sy) as u128
        }
        BinOp::Shl => {
            if py >= u128::from(n) {
                return None;
            }
            px << py
        }
        BinOp::LShr => {
            if py >= u128::from(n) {
                return None;
            }
            px >> py
        }
        BinOp::AShr => {
            if py >= u128::from(n) {
                return None;
            }
            (sx >> py) as u128
        }
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

fn two_members() -> impl Strategy<Value = (IntTy, (Interval, i128), (Interval, i128))> {
    laws::int_ty().prop_flat_map(|ty| (Just(ty), laws::member_of(ty), laws::member_of(ty)))
}

fn env_of(a: Interval, b: Interval) -> IntervalEnv {
    let mut e = IntervalEnv::top();
    e.set(Var(0), a);
    e.set(Var(1), b);
    e
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn interval_lattice_laws(a in laws::interval(), b in laws::interval(), c in laws::interval()) {
        check_lattice_laws(&a, &b, &c)?;
    }

    #[test]
    fn env_lattice_laws(a in proptest::collection::vec(laws::interval(), 0..4),
                        b in proptest::collection::vec(laws::interval(), 0..4),
                        c in proptest::collection::vec(laws::interval(), 0..4)) {
        let mk = |v: &Vec<Interval>| {
            let mut e = IntervalEnv::top();
            for (i, x) in v.iter().enumerate() { e.set(Var(i as u32), *x); }
            e
        };
        check_lattice_laws(&mk(&a), &mk(&b), &mk(&c))?;
    }

    #[test]
    fn widening_chains_stabilize(chain in proptest::collection::vec(laws::interval(), 1..30)) {
        check_widening_terminates(&chain, 3)?;
    }

    #[test]
    fn binop_is_sound((ty, (a, x), (b, y)) in two_members()) {
        for op in OPS {
            let r = machine::binop(op, a, b, ty);
            if let Some(z) = concrete(op, x, y, ty) {
                prop_assert!(r.contains(z), "{:?} {} {} on i{}: {} not in {}", op, x, y, ty.bits, z, r);
            }
            // Through the environment too.
            let mut e = env_of(a, b);
            e.apply(Var(2), op, Operand::Var(Var(0)), Operand::Var(Var(1)), ty);
            if let Some(z) = concrete(op, x, y, ty) {
                prop_assert!(e.interval(Var(2)).contains(z));
            }
        }
    }

    #[test]
    fn compare_and_refine_are_sound((ty, (a, x), (b, y)) in two_members()) {
        for pred in PREDS {
            let holds = concrete_cmp(pred, x, y, ty);
            let r = machine::compare(pred, a, b, ty);
            prop_assert!(r.contains(i128::from(holds)), "{:?} {} {} i{}", pred, x, y, ty.bits);
            match machine::entails(pred, a, b, ty) {
                Truth::True => prop_assert!(holds),
                Truth::False => prop_assert!(!holds),
                Truth::Unknown => {}
            }
            for outcome in [true, false] {
                if holds == outcome {
                    let (ra, rb) = machine::refine(pred, a, b, ty, outcome);
                    prop_assert!(ra.contains(x) && rb.contains(y),
                        "refine {:?}={} dropped ({}, {}) from {} {} -> {} {} i{}", pred, outcome, x, y, a, b, ra, rb, ty.bits);
                    let mut e = env_of(a, b);
                    e.assume(pred, Operand::Var(Var(0)), Operand::Var(Var(1)), ty, outcome);
                    prop_assert!(e.interval(Var(0)).contains(x) && e.interval(Var(1)).contains(y));
                }
            }
        }
    }

    #[test]
    fn casts_are_sound(from in laws::int_ty(), to in laws::int_ty(), seed in any::<u64>()) {
        let (lo, hi) = (from.min(), from.max());
        let span = (hi - lo) as u128;
        let x = lo + ((u128::from(seed) % (span + 1)) as i128);
        let a = Interval::new(lo.max(x - 3), hi.min(x + 5));
        let p = pattern(x, from);
        if to.bits < from.bits {
            let r = machine::cast(CastOp::Trunc, a, from, to);
            prop_assert!(r.contains(canon(p, to)));
        }
        if to.bits > from.bits {
            let z = machine::cast(CastOp::ZExt, a, from, to);
            prop_assert!(z.contains(canon(p, to)));
            let s = machine::cast(CastOp::SExt, a, from, to);
            let sv = if from.bits == 1 { -(p as i128) } else { signed(p, from.bits) };
            prop_assert!(s.contains(canon(pattern(sv, to), to)));
        }
    }
}

fn i32t() -> IntTy {
    IntTy::new(32)
}

#[test]
fn precise_results() {
    let t = i32t();
    assert_eq!(
        machine::binop(BinOp::Add, Interval::new(0, 9), Interval::constant(1), t),
        Interval::new(1, 10)
    );
    assert_eq!(
        machine::binop(
            BinOp::Add,
            Interval::constant(i128::from(i32::MAX)),
            Interval::constant(1),
            t
        ),
        Interval::constant(i128::from(i32::MIN))
    );
    let (a, _) = machine::refine(
        CmpPred::Slt,
        Interval::new(0, 10),
        Interval::constant(5),
        t,
        true,
    );
    assert_eq!(a, Interval::new(0, 4));
    let (a, _) = machine::refine(
        CmpPred::Ult,
        Interval::new(-1, 1),
        Interval::constant(5),
        t,
        true,
    );
    assert_eq!(a, Interval::new(0, 1), "-1 is 2^32-1 unsigned");
    let b = IntTy::new(1);
    assert_eq!(
        machine::binop(BinOp::Xor, Interval::constant(1), Interval::constant(1), b),
        Interval::constant(0)
    );
    assert_eq!(
        machine::binop(BinOp::And, Interval::top(), Interval::constant(7), t),
        Interval::new(0, 7)
    );
    assert_eq!(
        machine::cast(CastOp::ZExt, Interval::constant(-1), IntTy::new(8), t),
        Interval::constant(255)
    );
    assert_eq!(
        machine::cast(CastOp::SExt, Interval::constant(1), b, t),
        Interval::constant(-1)
    );
    assert_eq!(
        machine::binop(BinOp::SDiv, Interval::constant(10), Interval::new(0, 2), t),
        Interval::new(5, 10),
        "division by zero is excluded"
    );
    assert!(
        machine::binop(BinOp::SDiv, Interval::constant(1), Interval::constant(0), t).is_bottom()
    );
}

#[test]
fn widening_then_narrowing_recovers_a_loop_bound() {
    let mut head = Interval::constant(0);
    head.widen_with(&Interval::new(0, 1));
    assert_eq!(head, Interval::new(0, i128::MAX));
    head.narrow_with(&Interval::new(0, 10));
    assert_eq!(head, Interval::new(0, 10));
}
