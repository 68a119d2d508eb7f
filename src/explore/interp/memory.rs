//! Values, bytes and allocations of the concrete interpreter.
//!
//! Memory is byte-precise: a byte is data, a fragment of a pointer (so that a pointer stored
//! and loaded back at the same size is the same pointer), or unknown. A load that mixes kinds
//! gives `Value::Unknown`, never a guess.

use crate::ir::{FuncId, GlobalId, ObjId, Ty};

/// A runtime value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer of `bits` bits; `v` is masked to the width (two's complement).
    Int { v: u128, bits: u32 },
    /// A pointer.
    Ptr(Ptr),
    /// A value the interpreter does not know (uninitialised memory, floats, unmodelled
    /// results). It may flow anywhere, but it never decides anything.
    Unknown,
}

/// A pointer value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ptr {
    /// An integer used as a pointer (`(void *)(long)i`, null is `Raw(0)`), masked to the
    /// pointer width; it round-trips through `ptrtoint` and cannot be dereferenced.
    Raw(u64),
    /// A byte offset into an allocation.
    Mem { alloc: u32, off: i64 },
    /// The address of a function.
    Func(FuncId),
}

/// `v` reduced to `bits` bits.
pub fn mask(v: u128, bits: u32) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// The signed value of the `bits`-bit pattern `v`.
pub fn sext(v: u128, bits: u32) -> i128 {
    if bits == 0 {
        0
    } else if bits >= 128 {
        v as i128
    } else {
        let sh = 128 - bits;
        ((v << sh) as i128) >> sh
    }
}

impl Value {
    /// The null pointer.
    pub const NULL: Value = Value::Ptr(Ptr::Raw(0));

    /// The integer `v` at width `bits` (wrapped).
    pub fn int(v: i128, bits: u32) -> Value {
        Value::Int {
            v: mask(v as u128, bits),
            bits,
        }
    }
}

/// One byte of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Byte {
    /// Not known (uninitialised, or written with an unknown value).
    Unknown,
    /// A known byte.
    Data(u8),
    /// Byte `idx` (little-endian) of the pointer `target` (never `Ptr::Raw`, whose bytes are
    /// data).
    Frag { target: Ptr, idx: u8 },
}

/// What an allocation is; stack allocations belong to one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocKind {
    /// The global's object (allocation id = global id).
    Global(GlobalId),
    /// An executed `alloca` of thread `owner`.
    Stack { obj: ObjId, owner: usize },
    /// An executed heap allocation of this site.
    Heap(ObjId),
    /// The fresh buffer `Program::user_buffers[buffer]` passed by the driver harness to a call
    /// of thread `owner` (a `write`'s data, a `struct file`).
    Buffer { buffer: u32, owner: usize },
}

/// One allocation. Invariant: it holds `fill` beyond its `bytes`, which never end with `fill`
/// (one representation per content, and untouched parts of big arrays cost nothing). A dead
/// allocation (popped frame, freed block) has no bytes and every access to it is unsupported.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alloc {
    pub kind: AllocKind,
    pub bytes: Vec<Byte>,
    /// `Some(n)`: `n` bytes, accesses past them are out of bounds. `None`: the size is not
    /// known (heap blocks, opaque types): the allocation grows as it is written.
    pub size: Option<u64>,
    /// What a growable allocation holds beyond `bytes`.
    pub fill: Byte,
    /// Whether a pointer into this (stack) allocation may be known to another thread.
    pub escaped: bool,
    pub live: bool,
    /// A name of the allocation that does not depend on the schedule: the global's id, or
    /// `Loc::BY_THREAD | thread << 32 | n` for the n-th allocation of a thread (the allocation
    /// id depends on how the threads' allocations interleave).
    pub key: u64,
    /// Which block of its allocation site a heap block is (0 for the first), for its name.
    pub ordinal: u32,
    /// Its address, once it has one (0: none yet; `interp::addr`).
    pub addr: u64,
}

use crate::limits::MAX_GROWTH;

impl Alloc {
    /// A live allocation of `size` bytes (growable when unknown or 0) holding `fill`.
    pub fn new(kind: AllocKind, size: Option<u64>, fill: Byte) -> Alloc {
        let size = size.filter(|&n| n > 0 && n <= MAX_GROWTH);
        Alloc {
            kind,
            bytes: Vec::new(),
            size,
            fill,
            escaped: false,
            live: true,
            key: 0,
            ordinal: 0,
            addr: 0,
        }
    }

    fn range(&self, off: i64, n: u64) -> Result<(usize, usize), String> {
        if !self.live {
            return Err("access to a dead object (freed, or a stack frame that returned)".into());
        }
        let end = (off as i128) + n as i128;
        let limit = self.size.unwrap_or(MAX_GROWTH) as i128;
        if off < 0 || end > limit {
            return Err(format!("out-of-bounds access (offset {off}, {n} bytes)"));
        }
        Ok((off as usize, end as usize))
    }

    /// The `n` bytes at `off`.
    pub fn read(&self, off: i64, n: u64) -> Result<Vec<Byte>, String> {
        let (lo, hi) = self.range(off, n)?;
        Ok((lo..hi)
            .map(|i| self.bytes.get(i).copied().unwrap_or(self.fill))
            .collect())
    }

    /// Writes `data` at `off`.
    pub fn write(&mut self, off: i64, data: &[Byte]) -> Result<(), String> {
        let (lo, hi) = self.range(off, data.len() as u64)?;
        if self.bytes.len() < hi {
            self.bytes.resize(hi, self.fill);
        }
        self.bytes[lo..hi].copy_from_slice(data);
        while self.bytes.last() == Some(&self.fill) {
            self.bytes.pop();
        }
        Ok(())
    }

    /// Ends the allocation's life; its bytes are dropped so equal futures have equal states.
    pub fn kill(&mut self) {
        self.live = false;
        self.bytes = Vec::new();
    }

    /// Whether `off` addresses a byte of the allocation (for pointer comparisons).
    pub fn in_bounds(&self, off: i64) -> bool {
        off >= 0 && (off as u64) < self.size.unwrap_or(self.bytes.len().max(1) as u64)
    }
}

/// The `size` bytes of `v` (little-endian).
pub fn encode(v: Value, size: u32, ptr_size: u32) -> Vec<Byte> {
    let n = size as usize;
    match v {
        Value::Int { v, .. } if n <= 16 => v.to_le_bytes()[..n]
            .iter()
            .map(|&b| Byte::Data(b))
            .collect(),
        Value::Ptr(Ptr::Raw(x)) if n <= 8 => x.to_le_bytes()[..n]
            .iter()
            .map(|&b| Byte::Data(b))
            .collect(),
        Value::Ptr(target) if size == ptr_size => (0..n)
            .map(|i| Byte::Frag {
                target,
                idx: i as u8,
            })
            .collect(),
        _ => vec![Byte::Unknown; n],
    }
}

/// The value of type `ty` the bytes hold (`Unknown` when they mix kinds).
pub fn decode(bytes: &[Byte], ty: Ty, ptr_size: u32) -> Value {
    let data = || -> Option<u128> {
        if bytes.len() > 16 {
            return None;
        }
        let mut v = 0u128;
        for (i, b) in bytes.iter().enumerate() {
            match b {
                Byte::Data(d) => v |= u128::from(*d) << (8 * i),
                _ => return None,
            }
        }
        Some(v)
    };
    match ty {
        Ty::Int(bits) => data().map_or(Value::Unknown, |v| Value::Int {
            v: mask(v, bits),
            bits,
        }),
        Ty::Ptr => {
            if let Some(v) = data() {
                return Value::Ptr(Ptr::Raw(mask(v, ptr_size * 8) as u64));
            }
            let Some(Byte::Frag { target, .. }) = bytes.first() else {
                return Value::Unknown;
            };
            let whole = bytes.len() == ptr_size as usize
                && bytes.iter().enumerate().all(|(i, b)| {
                    matches!(b, Byte::Frag { target: t, idx } if t == target && *idx as usize == i)
                });
            if whole {
                Value::Ptr(*target)
            } else {
                Value::Unknown
            }
        }
        Ty::Other => Value::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_round_trip_through_bytes() {
        let p = Value::Ptr(Ptr::Mem { alloc: 3, off: 8 });
        assert_eq!(decode(&encode(p, 8, 8), Ty::Ptr, 8), p);
        // Half a pointer, or a pointer read as an integer, is not known.
        assert_eq!(decode(&encode(p, 8, 8)[..4], Ty::Ptr, 8), Value::Unknown);
        assert_eq!(decode(&encode(p, 8, 8), Ty::Int(64), 8), Value::Unknown);
        let v = Value::int(-2, 32);
        assert_eq!(decode(&encode(v, 4, 8), Ty::Int(32), 8), v);
        assert_eq!(decode(&encode(Value::NULL, 8, 8), Ty::Ptr, 8), Value::NULL);
        assert_eq!(sext(mask(-5i128 as u128, 8), 8), -5);
    }

    #[test]
    fn sized_allocations_check_bounds_growable_ones_grow() {
        let mut a = Alloc::new(AllocKind::Heap(ObjId(0)), Some(4), Byte::Unknown);
        assert!(a.write(2, &[Byte::Data(1); 2]).is_ok());
        assert!(a.write(3, &[Byte::Data(1); 2]).is_err());
        let mut g = Alloc::new(AllocKind::Heap(ObjId(0)), None, Byte::Data(0));
        g.write(10, &[Byte::Data(7)]).unwrap();
        assert_eq!(
            g.read(9, 3).unwrap(),
            vec![Byte::Data(0), Byte::Data(7), Byte::Data(0)]
        );
        g.kill();
        assert!(g.read(0, 1).is_err());
    }
}
