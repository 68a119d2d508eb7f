//! The pure value functions: integer widths, binary operations, `atomicrmw` and casts.

use super::memory::{mask, sext, Ptr, Value};
use crate::ir::{BinOp, CastOp, RmwOp, Ty};

pub(super) fn bits_of(ty: Ty) -> u32 {
    match ty {
        Ty::Int(b) => b,
        _ => 32,
    }
}

/// LLVM's integer binary operations at `bits` bits; UB and poison are errors.
pub(super) fn binop(op: BinOp, a: Value, b: Value, bits: u32) -> Result<Value, String> {
    use BinOp::*;
    let is_div = matches!(op, UDiv | SDiv | URem | SRem);
    let (x, y) = match (a, b) {
        (Value::Int { v: x, .. }, Value::Int { v: y, .. }) => (mask(x, bits), mask(y, bits)),
        // An unknown dividend is harmless unless the divisor may trap.
        (_, Value::Int { v: 0, .. }) if is_div => return Err("division by zero".into()),
        (_, Value::Int { v, .. }) if is_div && matches!(op, SDiv | SRem) && sext(v, bits) == -1 => {
            return Err("an unknown value decides a signed division".into())
        }
        (_, Value::Int { .. }) if is_div => return Ok(Value::Unknown),
        _ if is_div => return Err("an unknown value decides a division".into()),
        _ => return Ok(Value::Unknown),
    };
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    let min = sext(1u128 << (bits.max(1) - 1), bits);
    let r: u128 = match op {
        Add => x.wrapping_add(y),
        Sub => x.wrapping_sub(y),
        Mul => x.wrapping_mul(y),
        UDiv | SDiv | URem | SRem if y == 0 => return Err("division by zero".into()),
        SDiv | SRem if sx == min && sy == -1 => return Err("signed division overflow".into()),
        UDiv => x / y,
        URem => x % y,
        SDiv => (sx / sy) as u128,
        SRem => (sx % sy) as u128,
        Shl | LShr | AShr if y >= u128::from(bits) => {
            return Err(format!("shift by {y} of a {bits}-bit value"))
        }
        Shl => x << y,
        LShr => x >> y,
        AShr => (sx >> y) as u128,
        And => x & y,
        Or => x | y,
        Xor => x ^ y,
    };
    Ok(Value::Int {
        v: mask(r, bits),
        bits,
    })
}

/// The value `atomicrmw op` stores, from the old value.
pub(super) fn rmw(op: RmwOp, old: Value, val: Value, bits: u32) -> Value {
    let bin = |op| binop(op, old, val, bits).unwrap_or(Value::Unknown);
    let pick = |pred: fn(i128, i128) -> bool, signed: bool| match (old, val) {
        (Value::Int { v: x, .. }, Value::Int { v: y, .. }) => {
            let (a, b) = if signed {
                (sext(x, bits), sext(y, bits))
            } else {
                (x as i128, y as i128)
            };
            if pred(a, b) {
                old
            } else {
                val
            }
        }
        _ => Value::Unknown,
    };
    match op {
        RmwOp::Xchg => val,
        RmwOp::Add => bin(BinOp::Add),
        RmwOp::Sub => bin(BinOp::Sub),
        RmwOp::And => bin(BinOp::And),
        RmwOp::Or => bin(BinOp::Or),
        RmwOp::Xor => bin(BinOp::Xor),
        RmwOp::Nand => match bin(BinOp::And) {
            Value::Int { v, bits } => Value::Int {
                v: mask(!v, bits),
                bits,
            },
            other => other,
        },
        RmwOp::Max => pick(|a, b| a >= b, true),
        RmwOp::Min => pick(|a, b| a <= b, true),
        RmwOp::UMax => pick(|a, b| a >= b, false),
        RmwOp::UMin => pick(|a, b| a <= b, false),
        RmwOp::Other => Value::Unknown,
    }
}

pub(super) fn cast(op: CastOp, v: Value, from: u32, to: u32, ptr_size: u32) -> Value {
    match (op, v) {
        (CastOp::Trunc | CastOp::ZExt, Value::Int { v, .. }) => Value::Int {
            v: mask(v, to),
            bits: to,
        },
        (CastOp::SExt, Value::Int { v, .. }) => Value::int(sext(v, from), to),
        // The address of an object is not modelled: only integers round-trip.
        (CastOp::PtrToInt, Value::Ptr(Ptr::Raw(x))) => Value::Int {
            v: mask(x.into(), to),
            bits: to,
        },
        (CastOp::IntToPtr, Value::Int { v, .. }) => {
            Value::Ptr(Ptr::Raw(mask(v, ptr_size * 8) as u64))
        }
        _ => Value::Unknown,
    }
}
