//! Addresses as integers (issue 20): outside the exact mode, an object whose address becomes an
//! integer (`ptrtoint`, pointer bytes read as an integer, a comparison of pointers into different
//! objects) gets a concrete address, the first time, from a bump allocator of the state; an
//! integer turned back into a pointer (`inttoptr`, integer bytes read as a pointer) that falls
//! inside such an object points into it.
//!
//! Soundness (no false violation): the layout is one a real run may have (objects disjoint,
//! 16-byte aligned, none at 0, functions apart from data), chosen deterministically so that a
//! schedule replays; a witness that depends on it is a real execution under that layout, a
//! restriction like the candidate values of inputs. A real program's addresses differ between
//! runs (ASLR, `malloc`), so the exact mode of proofs by exploration never gives an object an
//! address: there a pointer made an integer stays unknown, and a branch it decides abandons the
//! execution (`InterpOptions::exact`).
//!
//! Here too the two operations that need addresses: the casts between pointers and integers
//! (`cast`) and the comparison of two values (`compare`, pointers into distinct objects by
//! their addresses).

use super::memory::{Alloc, Ptr};
use super::*;
use super::{Interp, State};

/// The address of the first object given one: above the first pages, and above the code.
pub(super) const ADDR_BASE: u64 = 0x1000_0000;

/// Where functions are: function `f` is at `CODE_BASE + 16 * f`.
const CODE_BASE: u64 = 0x0800_0000;

/// The room given to an object of unknown size (a heap block grows as it is written): a pointer
/// past it has no integer value.
const GROWABLE_ROOM: u64 = 1 << 16;

/// The room an allocation takes in the layout: its size (or [`GROWABLE_ROOM`]), rounded up to
/// 16, and 16 bytes more, so that one past its end is the start of no other object.
fn room(a: &Alloc) -> u64 {
    let size = a.size.unwrap_or(GROWABLE_ROOM).max(1);
    size.div_ceil(16) * 16 + 16
}

impl Interp<'_> {
    /// The largest address plus one.
    fn address_space(&self) -> u128 {
        1u128 << (self.program.pointer_size * 8).min(64)
    }

    /// The address of allocation `alloc`, given now if it has none; `None` in the exact mode or
    /// when the address space is full.
    pub(super) fn address(&self, s: &mut State, alloc: u32) -> Option<u64> {
        if self.options.exact {
            return None;
        }
        let a = s.mem.get(alloc as usize)?;
        if a.addr != 0 {
            return Some(a.addr);
        }
        let base = s.next_addr.max(ADDR_BASE);
        let end = u128::from(base) + u128::from(room(a));
        if end > self.address_space() {
            return None;
        }
        s.next_addr = end as u64;
        s.mem.make_mut(alloc as usize).addr = base;
        s.addrs.insert(base, alloc);
        Some(base)
    }

    /// The integer value of pointer `p`, giving its object an address if needed; `None` when it
    /// has none (the exact mode, a pointer far outside its object).
    pub(super) fn int_of_ptr(&self, s: &mut State, p: Ptr) -> Option<u64> {
        match p {
            Ptr::Raw(x) => Some(x),
            Ptr::Func(f) if !self.options.exact => Some(CODE_BASE + 16 * u64::from(f.0)),
            Ptr::Func(_) => None,
            Ptr::Mem { alloc, off } => {
                let base = self.address(s, alloc)?;
                let room = room(&s.mem[alloc as usize]) as i64;
                // Within the object or one past it (C's pointer arithmetic).
                if !(0..room).contains(&off) {
                    return None;
                }
                Some(base + off as u64)
            }
        }
    }

    /// The pointer whose integer value is `x`: into the object given an address that holds it,
    /// the function there, or else an integer used as a pointer (`Ptr::Raw`).
    pub(super) fn ptr_of_int(&self, s: &State, x: u64) -> Ptr {
        if self.options.exact || x == 0 {
            return Ptr::Raw(x);
        }
        if let Some((&base, &alloc)) = s.addrs.range(..=x).next_back() {
            if x - base < room(&s.mem[alloc as usize]) {
                return Ptr::Mem {
                    alloc,
                    off: (x - base) as i64,
                };
            }
        }
        if (CODE_BASE..ADDR_BASE).contains(&x) && (x - CODE_BASE).is_multiple_of(16) {
            let f = (x - CODE_BASE) / 16;
            if (f as usize) < self.program.funcs.len() {
                return Ptr::Func(crate::ir::FuncId(f as u32));
            }
        }
        Ptr::Raw(x)
    }
}

impl<'p> Interp<'p> {
    /// LLVM's cast `op` of `v` from `from` to `to` bits; outside the exact mode, a pointer cast
    /// to an integer is its address and an integer cast to a pointer points to the object there
    /// (`addr`).
    pub(super) fn cast(&self, s: &mut State, op: CastOp, v: Value, from: u32, to: u32) -> Value {
        let pbits = self.program.pointer_size * 8;
        match (op, v) {
            (CastOp::PtrToInt, Value::Ptr(p @ (Ptr::Mem { .. } | Ptr::Func(_)))) => {
                match self.int_of_ptr(s, p) {
                    Some(x) => Value::int(x as i128, to),
                    None => Value::Unknown,
                }
            }
            (CastOp::IntToPtr, Value::Int { v, .. }) => {
                Value::Ptr(self.ptr_of_int(s, mask(v, pbits) as u64))
            }
            _ => cast(op, v, from, to, self.program.pointer_size),
        }
    }

    /// `a pred b`, or `None` when it depends on something unknown (addresses of distinct
    /// objects, unknown values).
    pub(super) fn compare(
        &self,
        s: &mut State,
        pred: CmpPred,
        a: Value,
        b: Value,
        bits: u32,
    ) -> Option<bool> {
        use CmpPred::*;
        let ints =
            |x: u128, y: u128, bits: u32| crate::explore::symbolic::expr::cmp(pred, x, y, bits);
        let pbits = self.program.pointer_size * 8;
        // Distinct objects, or an object and null: only equality is known.
        let distinct = || match pred {
            Eq => Some(false),
            Ne => Some(true),
            _ => None,
        };
        match (a, b) {
            (Value::Int { v: x, .. }, Value::Int { v: y, .. }) => Some(ints(x, y, bits.max(1))),
            (Value::Ptr(p), Value::Ptr(q)) => match (p, q) {
                (Ptr::Raw(x), Ptr::Raw(y)) => Some(ints(x.into(), y.into(), pbits)),
                (Ptr::Mem { alloc: a1, off: o1 }, Ptr::Mem { alloc: a2, off: o2 }) => {
                    if a1 == a2 {
                        // Same object: the base address cancels out.
                        let (x, y) = (o1, o2);
                        Some(match pred {
                            Eq => x == y,
                            Ne => x != y,
                            Ugt | Sgt => x > y,
                            Uge | Sge => x >= y,
                            Ult | Slt => x < y,
                            Ule | Sle => x <= y,
                        })
                    } else if s.mem[a1 as usize].in_bounds(o1) && s.mem[a2 as usize].in_bounds(o2) {
                        distinct()
                    } else {
                        // One past the end of one object may be the start of another.
                        None
                    }
                }
                (Ptr::Func(f), Ptr::Func(g)) => match pred {
                    Eq => Some(f == g),
                    Ne => Some(f != g),
                    _ => None,
                },
                (Ptr::Raw(0), _) | (_, Ptr::Raw(0)) => distinct(),
                (Ptr::Func(_), Ptr::Mem { .. }) | (Ptr::Mem { .. }, Ptr::Func(_)) => distinct(),
                _ => None,
            }
            .or_else(|| {
                // Outside the exact mode, the addresses decide (`addr`).
                let x = self.int_of_ptr(s, p)?;
                let y = self.int_of_ptr(s, q)?;
                Some(ints(x.into(), y.into(), pbits))
            }),
            _ => None,
        }
    }
}
