//! Symbolic bit-vector expressions over the inputs of an execution and the values its shared
//! reads returned, as the concolic shadow of the interpreter builds them.
//!
//! Invariant: an expression evaluated with the symbol values of the run that built it gives
//! the concrete value the interpreter computed (where the interpreter's operation is defined;
//! division by zero and oversized shifts follow SMT-LIB, the interpreter stops on them).

pub use crate::explore::interp::memory::{mask, sext};
use crate::explore::Tid;
use crate::ir::{BinOp, CastOp, CmpPred};
use std::sync::Arc;

/// A shared expression node.
pub type E = Arc<Expr>;

/// A symbol: an input, or the value a shared read returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    /// The `n`-th `__VERIFIER_nondet_*` of thread `tid` (0-based).
    Input { tid: Tid, n: u32 },
    /// The value read by event `event` of the trace (its index in step order).
    Read { event: usize },
}

/// A bit-vector expression; every node has a width (`bits`), comparisons have width 1.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant (masked to `bits`).
    Const { v: u128, bits: u32 },
    /// A symbol of `bits` bits.
    Var { sym: Sym, bits: u32 },
    /// An integer operation with LLVM's wrap-around semantics.
    Bin { op: BinOp, a: E, b: E, bits: u32 },
    /// A comparison: 1 when true, 0 when false.
    Cmp { pred: CmpPred, a: E, b: E },
    /// `Trunc`, `ZExt` or `SExt` to `bits`.
    Cast { op: CastOp, a: E, bits: u32 },
    /// `c ? a : b` (`c` of width 1).
    Ite { c: E, a: E, b: E },
}

impl Expr {
    /// The width of the expression's value.
    pub fn bits(&self) -> u32 {
        match self {
            Expr::Const { bits, .. }
            | Expr::Var { bits, .. }
            | Expr::Bin { bits, .. }
            | Expr::Cast { bits, .. } => *bits,
            Expr::Cmp { .. } => 1,
            Expr::Ite { a, .. } => a.bits(),
        }
    }

    /// The constant, if the expression is one.
    pub fn as_const(&self) -> Option<u128> {
        match self {
            Expr::Const { v, .. } => Some(*v),
            _ => None,
        }
    }

    /// Every symbol the expression mentions (with its width), each once per path.
    pub fn symbols(&self, out: &mut Vec<(Sym, u32)>) {
        match self {
            Expr::Const { .. } => {}
            Expr::Var { sym, bits } => out.push((*sym, *bits)),
            Expr::Bin { a, b, .. } | Expr::Cmp { a, b, .. } => {
                a.symbols(out);
                b.symbols(out);
            }
            Expr::Cast { a, .. } => a.symbols(out),
            Expr::Ite { c, a, b } => {
                c.symbols(out);
                a.symbols(out);
                b.symbols(out);
            }
        }
    }

    /// The value of the expression when every symbol has the value `env` gives.
    pub fn eval(&self, env: &dyn Fn(Sym) -> u128) -> u128 {
        match self {
            Expr::Const { v, .. } => *v,
            Expr::Var { sym, bits } => mask(env(*sym), *bits),
            Expr::Bin { op, a, b, bits } => bin(*op, a.eval(env), b.eval(env), *bits),
            Expr::Cmp { pred, a, b } => u128::from(cmp(*pred, a.eval(env), b.eval(env), a.bits())),
            Expr::Cast { op, a, bits } => cast(*op, a.eval(env), a.bits(), *bits),
            Expr::Ite { c, a, b } => {
                if c.eval(env) != 0 {
                    a.eval(env)
                } else {
                    b.eval(env)
                }
            }
        }
    }
}

/// A constant of `bits` bits.
pub fn konst(v: u128, bits: u32) -> E {
    Arc::new(Expr::Const {
        v: mask(v, bits),
        bits,
    })
}

/// A symbol of `bits` bits.
pub fn var(sym: Sym, bits: u32) -> E {
    Arc::new(Expr::Var { sym, bits })
}

/// `a op b`, folded when both are constant.
pub fn binop(op: BinOp, a: E, b: E, bits: u32) -> E {
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return konst(bin(op, x, y, bits), bits);
    }
    Arc::new(Expr::Bin { op, a, b, bits })
}

/// `a pred b` (width 1), folded when both are constant.
pub fn compare(pred: CmpPred, a: E, b: E) -> E {
    if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
        return konst(u128::from(cmp(pred, x, y, a.bits())), 1);
    }
    Arc::new(Expr::Cmp { pred, a, b })
}

/// `op(a)` to `bits` bits (`Trunc`, `ZExt`, `SExt`); the identity when the width is kept.
pub fn convert(op: CastOp, a: E, bits: u32) -> E {
    if a.bits() == bits {
        return a;
    }
    if let Some(x) = a.as_const() {
        return konst(cast(op, x, a.bits(), bits), bits);
    }
    Arc::new(Expr::Cast { op, a, bits })
}

/// `c ? a : b`.
pub fn ite(c: E, a: E, b: E) -> E {
    match c.as_const() {
        Some(0) => b,
        Some(_) => a,
        None if a == b => a,
        None => Arc::new(Expr::Ite { c, a, b }),
    }
}

/// The negation of a condition of width 1.
pub fn not(c: E) -> E {
    compare(CmpPred::Eq, c, konst(0, 1))
}

/// `a op b` at `bits` bits, with SMT-LIB's results where LLVM's are undefined.
pub fn bin(op: BinOp, x: u128, y: u128, bits: u32) -> u128 {
    use BinOp::*;
    let (x, y) = (mask(x, bits), mask(y, bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    let all = mask(u128::MAX, bits);
    let r = match op {
        Add => x.wrapping_add(y),
        Sub => x.wrapping_sub(y),
        Mul => x.wrapping_mul(y),
        UDiv if y == 0 => all,
        URem if y == 0 => x,
        UDiv => x / y,
        URem => x % y,
        SDiv if y == 0 => {
            if sx < 0 {
                1
            } else {
                all
            }
        }
        SRem if y == 0 => x,
        SDiv => sx.wrapping_div(sy) as u128,
        SRem => sx.wrapping_rem(sy) as u128,
        Shl | LShr if y >= u128::from(bits) => 0,
        AShr if y >= u128::from(bits) => {
            if sx < 0 {
                all
            } else {
                0
            }
        }
        Shl => x << y,
        LShr => x >> y,
        AShr => (sx >> y) as u128,
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
    };
    mask(r, bits)
}

/// `a pred b` on `bits`-bit patterns.
pub fn cmp(pred: CmpPred, x: u128, y: u128, bits: u32) -> bool {
    use CmpPred::*;
    let (x, y) = (mask(x, bits), mask(y, bits));
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    match pred {
        Eq => x == y,
        Ne => x != y,
        Ugt => x > y,
        Uge => x >= y,
        Ult => x < y,
        Ule => x <= y,
        Sgt => sx > sy,
        Sge => sx >= sy,
        Slt => sx < sy,
        Sle => sx <= sy,
    }
}

/// `op(x)` from `from` to `to` bits.
pub fn cast(op: CastOp, x: u128, from: u32, to: u32) -> u128 {
    match op {
        CastOp::SExt => mask(sext(x, from) as u128, to),
        _ => mask(x, to),
    }
}
