//! Memory as the interpreter's instructions access it: through pointer values, checked
//! (null, dangling, constant, out of bounds end the execution as unsupported), and with what
//! only one thread can reach told apart (`is_local`, `escape`).
//!
//! Invariant: every byte an instruction reads or writes passes through `read` or `write` (a
//! synchronisation object's bytes through `sync_object_filled`), so escape is tracked in one place.

use super::*;
use crate::ir::effects::{Bytes, Effect, MemAccess, Via};

impl<'p> Interp<'p> {
    /// Whether `p` is in an allocation thread `t` alone can reach: its own stack, not
    /// escaped (or, for reads, a constant global, which nobody writes).
    pub(super) fn is_local(&self, s: &State, t: Tid, p: Value, write: bool) -> bool {
        let Value::Ptr(Ptr::Mem { alloc, .. }) = p else {
            return false;
        };
        let Some(a) = s.mem.get(alloc as usize) else {
            return false;
        };
        a.live
            && match a.kind {
                AllocKind::Stack { owner, .. } | AllocKind::Buffer { owner, .. } => {
                    owner == t && !a.escaped
                }
                AllocKind::Global(g) => !write && self.program.globals[g.index()].is_constant,
                AllocKind::Heap(_) => false,
            }
    }

    /// A pointer into a stack allocation becomes known outside its frame's registers: it
    /// may reach another thread from now on.
    pub(super) fn escape(&self, s: &mut State, v: Value) {
        if let Value::Ptr(Ptr::Mem { alloc, .. }) = v {
            let stack = (s.mem.get(alloc as usize)).is_some_and(|a| {
                matches!(a.kind, AllocKind::Stack { .. } | AllocKind::Buffer { .. }) && !a.escaped
            });
            if stack {
                s.mem.make_mut(alloc as usize).escaped = true;
            }
        }
    }

    /// The allocation and offset of an access of `n` bytes through `p`.
    pub(super) fn resolve(&self, s: &State, p: Value, write: bool) -> Exec<(u32, i64)> {
        match p {
            Value::Ptr(Ptr::Mem { alloc, off }) => {
                let a = &s.mem[alloc as usize];
                if let AllocKind::Global(g) = a.kind {
                    if write && self.program.globals[g.index()].is_constant {
                        return unsupported(format!(
                            "write to the constant `{}`",
                            self.program.globals[g.index()].name
                        ));
                    }
                }
                if !a.live {
                    return unsupported(format!(
                        "access to `{}` after its lifetime ended",
                        self.describe_location(s, alloc, off)
                    ));
                }
                Ok((alloc, off))
            }
            Value::Ptr(Ptr::Raw(0)) => unsupported("null pointer dereference"),
            Value::Ptr(Ptr::Raw(_)) => unsupported("access through an integer address"),
            Value::Ptr(Ptr::Func(_)) => unsupported("access to a function's code as data"),
            Value::Unknown => unsupported("access through an unknown address"),
            Value::Int { .. } => unsupported("access through an integer"),
        }
    }

    pub(super) fn read(&self, s: &State, p: Value, n: u64) -> Exec<Vec<Byte>> {
        let (alloc, off) = self.resolve(s, p, false)?;
        s.mem[alloc as usize]
            .read(off, n)
            .or_else(|e| unsupported(format!("{e} of `{}`", self.describe_object(s, alloc, 0))))
    }

    pub(super) fn write(&self, s: &mut State, p: Value, data: &[Byte]) -> Exec<()> {
        let (alloc, off) = self.resolve(s, p, true)?;
        for b in data {
            if let Byte::Frag { target, .. } = *b {
                self.escape(s, Value::Ptr(target));
            }
        }
        match s.mem.make_mut(alloc as usize).write(off, data) {
            Ok(()) => Ok(()),
            Err(e) => unsupported(format!("{e} of `{}`", self.describe_object(s, alloc, 0))),
        }
    }

    pub(super) fn load(&self, s: &mut State, p: Value, ty: Ty, size: u32) -> Exec<Value> {
        let bytes = self.read(s, p, u64::from(size))?;
        let v = decode(&bytes, ty, self.program.pointer_size);
        if self.options.exact {
            return Ok(v);
        }
        // Outside the exact mode, addresses are integers (`addr`): pointer bytes read as an
        // integer give the address, integer bytes read as a pointer the object there.
        Ok(match (v, ty) {
            (Value::Ptr(Ptr::Raw(x)), Ty::Ptr) => Value::Ptr(self.ptr_of_int(s, x)),
            (Value::Unknown, Ty::Int(_) | Ty::Ptr) if bytes.len() <= 8 => {
                match self.bytes_as_int(s, &bytes) {
                    Some(x) => match ty {
                        Ty::Int(bits) => Value::int(x as i128, bits),
                        _ if bytes.len() == self.program.pointer_size as usize => {
                            Value::Ptr(self.ptr_of_int(s, x))
                        }
                        _ => Value::Unknown,
                    },
                    None => Value::Unknown,
                }
            }
            _ => v,
        })
    }

    /// The little-endian integer that `bytes` hold when pointer fragments count as the bytes of
    /// their address (`addr`); `None` when a byte is unknown or a pointer has no address.
    pub(super) fn bytes_as_int(&self, s: &mut State, bytes: &[Byte]) -> Option<u64> {
        let mut x = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            let byte = match *b {
                Byte::Data(d) => d,
                Byte::Frag { target, idx } => {
                    (self.int_of_ptr(s, target)? >> (8 * u32::from(idx).min(7))) as u8
                }
                Byte::Unknown => return None,
            };
            x |= u64::from(byte) << (8 * i);
        }
        Some(x)
    }

    pub(super) fn store(&self, s: &mut State, p: Value, v: Value, size: u32) -> Exec<()> {
        self.write(s, p, &encode(v, size, self.program.pointer_size))
    }

    /// A known length of a memory operation.
    pub(super) fn length(&self, v: Value, what: &str) -> Exec<u64> {
        match v {
            Value::Int { v, .. } if v <= 1 << 20 => Ok(v as u64),
            Value::Int { .. } => unsupported(format!("{what} of a huge length")),
            _ => unsupported(format!("{what} of an unknown length")),
        }
    }

    pub(super) fn access_ty(&self, bits: u32) -> (Ty, u32) {
        if bits == 0 {
            (Ty::Ptr, self.program.pointer_size)
        } else {
            (Ty::Int(bits), bits.div_ceil(8))
        }
    }

    /// A synchronisation function changed the bytes of its object (`size` bytes,
    /// `sizeof(pthread_mutex_t)` and friends; 64 when the module does not say), which the
    /// interpreter does not model, so a read of them as data is unknown.
    ///
    /// Soundness (no false violation, issue 20): a read of a mutex's bytes after a lock must
    /// not see what was there before (the C library wrote its lock word and owner).
    pub(super) fn sync_object_written(
        &self,
        s: &mut State,
        alloc: u32,
        off: i64,
        size: Option<u64>,
    ) {
        self.sync_object_filled(s, alloc, off, size, Byte::Unknown);
    }

    /// As `sync_object_written`, every byte set to `fill`.
    pub(super) fn sync_object_filled(
        &self,
        s: &mut State,
        alloc: u32,
        off: i64,
        size: Option<u64>,
        fill: Byte,
    ) {
        let a = &s.mem[alloc as usize];
        let end = a.size.unwrap_or(u64::MAX);
        let n = size
            .unwrap_or(64)
            .min(end.saturating_sub(off.max(0) as u64));
        let _ = s
            .mem
            .make_mut(alloc as usize)
            .write(off, &vec![fill; n as usize]);
    }

    /// The typed access of an instruction (`Via::Direct`: a load, a store, an atomic
    /// read-modify-write or compare-exchange), read from its effects, with its size in bytes.
    pub(super) fn typed_access<'i>(&self, kind: &'i InstKind) -> Option<(MemAccess<'i>, u64)> {
        let mut found = None;
        kind.effects(|e| {
            if let Effect::Mem(
                m @ MemAccess {
                    via: Via::Direct, ..
                },
            ) = e
            {
                let size = match m.bytes {
                    Bytes::Exactly(n) => Some(n),
                    Bytes::Word(bits) => Some(u64::from(self.access_ty(bits).1)),
                    // Not the bytes of a typed access.
                    Bytes::Len(_) | Bytes::Unknown => None,
                };
                found = size.map(|n| (m, n));
            }
        });
        found
    }
}
