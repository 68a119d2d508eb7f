//! The interpreter's answers to the reads-value-from search: a thread's next visible operation
//! without running it, and the contents of memory named by schedule-independent keys.
//!
//! Invariant: a location or a value named here is named the same in every execution in which
//! the threads read the same values (allocations by [`Alloc::key`], never by their id, which
//! depends on how the threads' allocations interleave).

use super::memory::{Byte, Ptr, Value};
use super::{At, Ext, Interp, State};
use crate::explore::{Loc, Next, Op, Tid};
use crate::ir::effects::{Access, Bytes, Effect, Via};
use crate::ir::lib::Run;
use crate::ir::{Callee, Inst, InstKind, Operand};

impl Interp<'_> {
    /// The key of the next allocation of thread `t` (counted in the thread).
    pub(super) fn alloc_key(&self, s: &mut State, t: Tid) -> u64 {
        let th = s.threads.focus_mut(t);
        th.allocs += 1;
        Loc::BY_THREAD | ((t as u64) << 32) | u64::from(th.allocs)
    }

    fn loc_at(&self, s: &State, alloc: u32, off: i64, size: u64) -> Loc {
        Loc {
            object: s.mem[alloc as usize].key,
            offset: off,
            size,
        }
    }

    /// The location `size` bytes at `op` name, if it is an address in memory.
    fn operand_loc(&self, s: &State, t: Tid, op: &Operand, size: u64) -> Option<Loc> {
        match self.eval(s, t, op) {
            Value::Ptr(Ptr::Mem { alloc, off }) if (alloc as usize) < s.mem.len() => {
                Some(self.loc_at(s, alloc, off, size))
            }
            _ => None,
        }
    }

    /// As `operand_loc`, but `None` also when only thread `t` can reach the memory.
    fn shared_loc(&self, s: &State, t: Tid, op: &Operand, size: u64) -> Option<Loc> {
        let v = self.eval(s, t, op);
        if self.is_local(s, t, v, true) {
            return None;
        }
        self.operand_loc(s, t, op, size)
    }

    pub(super) fn next_event(&self, s: &State, t: Tid) -> Next {
        match s.threads[t].at {
            At::Finished => Next::Finished,
            At::Cut | At::Spins => Next::Cut,
            At::Start => Next::Op(Op::Local),
            At::Relock { alloc, off } => Next::Op(Op::Lock(self.loc_at(s, alloc, off, 0))),
            At::Inst => Next::Op(match self.cur_inst(s, t) {
                // A terminator that ends the process.
                None => Op::Local,
                Some(inst) => self.inst_op(s, t, inst),
            }),
        }
    }

    /// The operation instruction `inst` of thread `t` is, read from its effects
    /// ([`InstKind::effects`]): what memory it touches and how it synchronises.
    pub(super) fn inst_op(&self, s: &State, t: Tid, inst: &Inst) -> Op {
        // An input has no effect on memory, but it is a choice.
        if let InstKind::Nondet { .. } = inst.kind {
            return Op::Input;
        }
        // A heap allocation is visible when it moves a block (`realloc`) or, in the exact mode,
        // when whether it fails is a choice: the reads-from search follows neither.
        if let InstKind::HeapAlloc { .. } = inst.kind {
            return Op::Opaque("realloc of a shared block".into());
        }
        // An operation on something that is not an address stops the execution as
        // unsupported: it touches nothing.
        let or_local = |l: Option<Loc>, f: fn(Loc) -> Op| l.map_or(Op::Local, f);
        let ptr_size = u64::from(self.program.pointer_size);
        let mut op = Op::Local;
        // The handle `pthread_create` writes, the result `pthread_join` writes (a `Mem` effect
        // beside the thread's).
        let mut thread_word = None;
        let mut thread = None;
        inst.kind.effects(|e| match e {
            Effect::Mem(m) => match m.via {
                Via::Direct => {
                    let size = match m.bytes {
                        Bytes::Exactly(n) => n,
                        Bytes::Word(bits) => u64::from(self.access_ty(bits).1),
                        // Not the bytes of a typed access.
                        Bytes::Len(_) | Bytes::Unknown => 0,
                    };
                    let f = match m.access {
                        Access::Read => Op::Load,
                        Access::Write => Op::Store,
                        Access::Update => Op::Update,
                    };
                    op = or_local(self.operand_loc(s, t, m.ptr, size), f);
                }
                Via::Bytes => op = Op::Opaque("memset or memcpy of shared memory".into()),
                Via::Realloc => op = Op::Opaque("realloc of a shared block".into()),
                Via::Threads => thread_word = Some(m.ptr),
            },
            // A fresh object (an `alloca`; a heap block is answered above), and `calloc`'s
            // zeroing of it: nothing shared.
            Effect::Allocates | Effect::Zeroes { .. } => {}
            Effect::Call { callee, args } => op = self.call_op(s, t, callee, args),
            Effect::CreatesThread { .. } => thread = Some(None),
            Effect::JoinsThread { handle } => thread = Some(Some(handle)),
            Effect::Locks { lock, .. } => op = or_local(self.operand_loc(s, t, lock, 0), Op::Lock),
            Effect::Unlocks { lock } => op = or_local(self.operand_loc(s, t, lock, 0), Op::Unlock),
            // Only the outermost section is seen by the other threads.
            Effect::AtomicSection(true) => {
                if !matches!(s.atomic, Some((a, _)) if a == t) {
                    op = Op::AtomicBegin;
                }
            }
            Effect::AtomicSection(false) => {
                if matches!(s.atomic, Some((a, 1)) if a == t) {
                    op = Op::AtomicEnd;
                }
            }
            // They stop the execution or touch nothing shared.
            Effect::Clobbers | Effect::Asserts | Effect::Assumes => {}
        });
        let written = |p: Option<&Operand>| p.and_then(|p| self.shared_loc(s, t, p, ptr_size));
        match thread {
            None => op,
            Some(None) => Op::Spawn {
                handle: written(thread_word),
            },
            Some(Some(handle)) => match self.join_target(s, t, handle) {
                Ok(child) => Op::Join {
                    child,
                    result: written(thread_word),
                },
                Err(_) => Op::Local,
            },
        }
    }

    fn call_op(&self, s: &State, t: Tid, callee: &Callee, args: &[Operand]) -> Op {
        let Some(f) = self.callee(s, t, callee) else {
            return Op::Local;
        };
        let arg = |i: usize| args.get(i).and_then(|a| self.operand_loc(s, t, a, 0));
        match self.ext[f.index()] {
            Ext::Lib(Run::TryLock { .. }) => arg(0).map_or(Op::Local, Op::TryLock),
            Ext::Lib(Run::CondWait) => arg(1).map_or(Op::Local, Op::Unlock),
            Ext::Lib(Run::Free) => Op::Opaque("free of a shared block".into()),
            Ext::Lib(Run::Strlen) => Op::Opaque("strlen of shared memory".into()),
            Ext::Lib(Run::KeyCreate) | Ext::Lib(Run::KeyDelete) => {
                Op::Opaque("a key of thread-specific data".into())
            }
            _ => Op::Local,
        }
    }

    fn find_alloc(&self, s: &State, key: u64) -> Option<usize> {
        if key & Loc::BY_THREAD == 0 {
            return Some(key as usize).filter(|&g| g < s.mem.len());
        }
        s.mem.iter().position(|a| a.key == key)
    }

    /// See [`crate::explore::System::content`].
    pub(super) fn content_of(&self, s: &State, loc: &Loc) -> Vec<u8> {
        let Some(a) = self.find_alloc(s, loc.object) else {
            return vec![0xff];
        };
        match s.mem[a].read(loc.offset, loc.size) {
            Ok(bytes) => self.encode_bytes(s, &bytes),
            Err(_) => vec![0xfe],
        }
    }

    fn encode_bytes(&self, s: &State, bytes: &[Byte]) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * bytes.len());
        for b in bytes {
            match *b {
                Byte::Data(d) => out.extend([0, d]),
                Byte::Unknown => out.push(1),
                Byte::Frag { target, idx } => {
                    out.extend([2, idx]);
                    match target {
                        Ptr::Mem { alloc, off } => {
                            out.push(0);
                            let key = s.mem.get(alloc as usize).map_or(u64::MAX, |a| a.key);
                            out.extend(key.to_le_bytes());
                            out.extend(off.to_le_bytes());
                        }
                        Ptr::Func(f) => {
                            out.push(1);
                            out.extend(f.0.to_le_bytes());
                        }
                        Ptr::Raw(x) => {
                            out.push(2);
                            out.extend(x.to_le_bytes());
                        }
                    }
                }
            }
        }
        out
    }

    /// See [`crate::explore::System::fresh_content`].
    pub(super) fn fresh_content_of(&self, s: &State, loc: &Loc) -> Option<Vec<u8>> {
        use super::memory::AllocKind;
        let a = self.find_alloc(s, loc.object)?;
        match s.mem[a].kind {
            AllocKind::Global(_) => {
                use crate::explore::System;
                Some(self.content_of(&self.initial(), loc))
            }
            // A heap block holds its fill until written, and it is shared from the start.
            AllocKind::Heap(_) => {
                let fill = vec![s.mem[a].fill; loc.size as usize];
                Some(self.encode_bytes(s, &fill))
            }
            // Soundness: a stack object (or a user buffer) may have been written while it was
            // still local (no event): its first content is not known, so it equals no other
            // value.
            AllocKind::Stack { .. } | AllocKind::Buffer { .. } => None,
        }
    }
}
