//! What an instruction does to memory and to other threads, as one exhaustive description
//! (rustc's MIR `Visitor` with a context per use): every stage that asks "does this
//! instruction read, write or synchronise" reads [`InstKind::effects`] instead of matching the
//! instruction kinds itself.
//!
//! Invariant: the matches here name every `InstKind` and every `Terminator` variant and have no
//! wildcard arm, so a new instruction kind does not compile until its effects are written down
//! (it cannot silently become "no memory effect"). A call's effect on memory is not decided
//! here: [`Effect::Call`] hands the callee over to whoever knows it (the function's body, or its
//! row of [`super::lib`] for a declared function).

use super::inst::{Callee, InstKind, MemOrder, Operand, Terminator};
use super::ObjId;

/// How an access uses the bytes it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// Reads them.
    Read,
    /// Writes them (without reading).
    Write,
    /// Reads and writes them as one atomic step (`atomicrmw`, `cmpxchg`).
    Update,
}

impl Access {
    /// Whether the access reads.
    pub fn reads(self) -> bool {
        matches!(self, Access::Read | Access::Update)
    }

    /// Whether the access writes.
    pub fn writes(self) -> bool {
        matches!(self, Access::Write | Access::Update)
    }
}

/// How many bytes from the pointer an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bytes<'a> {
    /// This many bytes.
    Exactly(u64),
    /// A machine word of this many bits; 0 is a pointer (the target's pointer size).
    Word(u32),
    /// As many as this operand says (`memset`/`memcpy` length: a constant or any number).
    Len(&'a Operand),
    /// Not known here: anything from the pointer to the end of its object (`realloc`'s old
    /// block).
    Unknown,
}

impl Bytes<'_> {
    /// The number of bytes when the instruction fixes it (a load's size, an atomic's word,
    /// `pointer_size` for a pointer word); `None` for a length operand or an unknown extent.
    pub fn fixed(self, pointer_size: u32) -> Option<u64> {
        match self {
            Bytes::Exactly(n) => Some(n),
            Bytes::Word(0) => Some(u64::from(pointer_size)),
            Bytes::Word(bits) => Some(u64::from(bits.div_ceil(8))),
            Bytes::Len(_) | Bytes::Unknown => None,
        }
    }
}

/// What kind of instruction an access comes from, for the reports and for the stages that
/// treat byte-wise copies or thread handles apart from plain loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// A load, a store, an atomic read-modify-write or compare-exchange.
    Direct,
    /// `memset`, `memcpy`, `memmove` (also the LLVM intrinsics): bytes, not typed values.
    Bytes,
    /// `pthread_create` writing the new thread's handle, `pthread_join` writing its result.
    Threads,
    /// `realloc`: the old block is read into the new one.
    Realloc,
}

/// One access of memory through a pointer operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess<'a> {
    /// The address.
    pub ptr: &'a Operand,
    /// How many bytes from it.
    pub bytes: Bytes<'a>,
    /// Read, write or both.
    pub access: Access,
    /// Its memory order (`NotAtomic` for a plain access, a byte copy, a library call).
    pub order: MemOrder,
    /// Which instruction kind makes it.
    pub via: Via,
}

/// What an instruction does besides computing its results into registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect<'a> {
    /// Reads or writes memory through a pointer.
    Mem(MemAccess<'a>),
    /// Creates a fresh object (`alloca`, `malloc` and friends): no existing memory changes.
    Allocates,
    /// Fills the fresh object `obj` with zeros (`calloc`, after its `Allocates`): a write of the
    /// new object only.
    Zeroes {
        /// The allocated object.
        obj: ObjId,
    },
    /// Calls a function: what it does is what the callee does (its body, or its row of
    /// `ir::lib` when it is only declared; through a pointer, any function it may name).
    Call {
        /// The called function.
        callee: &'a Callee,
        /// The arguments.
        args: &'a [Operand],
    },
    /// Starts a thread running `entry(arg)` (the handle's write is a separate `Mem` effect).
    CreatesThread {
        /// The entry function.
        entry: &'a Operand,
        /// Its argument.
        arg: &'a Operand,
    },
    /// Waits for the thread the handle names (the result's write is a separate `Mem` effect).
    JoinsThread {
        /// The `pthread_t` value.
        handle: &'a Operand,
    },
    /// Takes the lock (`exclusive` false: a read lock that readers share).
    Locks {
        /// The lock object.
        lock: &'a Operand,
        /// Whether no other thread holds it at the same time.
        exclusive: bool,
    },
    /// Releases the lock.
    Unlocks {
        /// The lock object.
        lock: &'a Operand,
    },
    /// Starts (`true`) or ends (`false`) a `__VERIFIER_atomic` section.
    AtomicSection(bool),
    /// May write any memory whose address escaped (inline assembly).
    Clobbers,
    /// Checks an assertion (reaching it, or its condition false, is the failure).
    Asserts,
    /// Continues only when its condition holds.
    Assumes,
}

impl InstKind {
    /// Calls `f` on every effect of the instruction, in order; an instruction for which
    /// [`InstKind::is_register_op`] holds has none.
    pub fn effects<'a>(&'a self, mut f: impl FnMut(Effect<'a>)) {
        use InstKind::*;
        const NA: MemOrder = MemOrder::NotAtomic;
        let mem = |ptr, bytes, access, order, via| {
            Effect::Mem(MemAccess {
                ptr,
                bytes,
                access,
                order,
                via,
            })
        };
        match self {
            Bin { .. } | Cmp { .. } | Cast { .. } | Select { .. } | Copy { .. } | Gep { .. } => {}
            // Soundness: a fresh value of any kind touches no memory.
            Nondet { .. } => {}
            Alloca { .. } => f(Effect::Allocates),
            HeapAlloc {
                obj, zeroed, from, ..
            } => {
                f(Effect::Allocates);
                if *zeroed {
                    f(Effect::Zeroes { obj: *obj });
                }
                if let Some(old) = from {
                    // `realloc` reads the old block (its size is not known here).
                    f(mem(old, Bytes::Unknown, Access::Read, NA, Via::Realloc));
                }
            }
            Load {
                ptr, size, order, ..
            } => f(mem(
                ptr,
                Bytes::Exactly(u64::from(*size)),
                Access::Read,
                *order,
                Via::Direct,
            )),
            Store {
                ptr, size, order, ..
            } => f(mem(
                ptr,
                Bytes::Exactly(u64::from(*size)),
                Access::Write,
                *order,
                Via::Direct,
            )),
            AtomicRmw {
                ptr, bits, order, ..
            }
            | CmpXchg {
                ptr, bits, order, ..
            } => f(mem(
                ptr,
                Bytes::Word(*bits),
                Access::Update,
                *order,
                Via::Direct,
            )),
            MemSet { ptr, len, .. } => f(mem(ptr, Bytes::Len(len), Access::Write, NA, Via::Bytes)),
            MemCopy { dst, src, len } => {
                f(mem(dst, Bytes::Len(len), Access::Write, NA, Via::Bytes));
                f(mem(src, Bytes::Len(len), Access::Read, NA, Via::Bytes));
            }
            Call { callee, args, .. } => f(Effect::Call { callee, args }),
            ThreadCreate {
                handle, entry, arg, ..
            } => {
                f(mem(handle, Bytes::Word(0), Access::Write, NA, Via::Threads));
                f(Effect::CreatesThread { entry, arg });
            }
            ThreadJoin {
                handle,
                retval,
                result_bits,
                ..
            } => {
                f(Effect::JoinsThread { handle });
                if !matches!(retval, Operand::Null) {
                    f(mem(
                        retval,
                        Bytes::Word(*result_bits),
                        Access::Write,
                        NA,
                        Via::Threads,
                    ));
                }
            }
            Lock {
                lock, exclusive, ..
            } => f(Effect::Locks {
                lock,
                exclusive: *exclusive,
            }),
            Unlock { lock, .. } => f(Effect::Unlocks { lock }),
            AtomicBegin => f(Effect::AtomicSection(true)),
            AtomicEnd => f(Effect::AtomicSection(false)),
            Assert { .. } => f(Effect::Asserts),
            Assume { .. } => f(Effect::Assumes),
            Havoc {
                clobbers_memory, ..
            } => {
                if *clobbers_memory {
                    f(Effect::Clobbers);
                }
            }
        }
    }

    /// Whether the instruction only computes registers from registers: no memory access, no
    /// call, no synchronisation, no assertion or assumption (so no stage but the value
    /// computation needs to look at it).
    pub fn is_register_op(&self) -> bool {
        use InstKind::*;
        match self {
            Bin { .. } | Cmp { .. } | Cast { .. } | Select { .. } | Copy { .. } | Gep { .. } => {
                true
            }
            Nondet { .. } => true,
            Havoc {
                clobbers_memory, ..
            } => !clobbers_memory,
            Alloca { .. }
            | HeapAlloc { .. }
            | Load { .. }
            | Store { .. }
            | AtomicRmw { .. }
            | CmpXchg { .. }
            | MemSet { .. }
            | MemCopy { .. }
            | Call { .. }
            | ThreadCreate { .. }
            | ThreadJoin { .. }
            | Lock { .. }
            | Unlock { .. }
            | AtomicBegin
            | AtomicEnd
            | Assert { .. }
            | Assume { .. } => false,
        }
    }
}

/// What an instruction does with one of its operands (the operand side of rustc's
/// `PlaceContext`): the stages that want only some operands (the constants an input is
/// compared with, the pointers an access goes through) choose by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandUse {
    /// Computes with it: an operand of arithmetic or of a comparison, the source of a cast or
    /// a copy, a select's condition or arms, the value a store or an atomic operation writes,
    /// a compare-exchange's expected and new values.
    Value,
    /// Passes it to the called function or to the new thread.
    Argument,
    /// Decides with it: the condition of an assertion or an assumption.
    Condition,
    /// A pointer it accesses memory through or computes an address from: the address of a
    /// load, store, atomic, `memset` or `memcpy`, a `realloc`'s old block, a lock, the handle
    /// `pthread_create` writes, the result `pthread_join` writes, the base of a `getelementptr`.
    Address,
    /// A variable index of a `getelementptr` (scaled by its stride).
    Index,
    /// The byte count of a `memset` or `memcpy`.
    Length,
    /// The byte a `memset` writes.
    Fill,
    /// The function it calls through a pointer, or starts as a thread.
    Callee,
    /// The `pthread_t` value of the thread a join waits for.
    Handle,
}

impl InstKind {
    /// Calls `f` on every operand the instruction uses, with what it does with it; the same
    /// operands as [`InstKind::for_each_use`], in the same order.
    pub fn for_each_operand(&self, mut f: impl FnMut(&Operand, OperandUse)) {
        use InstKind::*;
        use OperandUse as U;
        match self {
            Bin { a, b, .. } | Cmp { a, b, .. } => {
                f(a, U::Value);
                f(b, U::Value);
            }
            Cast { src, .. } | Copy { src, .. } => f(src, U::Value),
            Select { cond, t, f: e, .. } => {
                f(cond, U::Value);
                f(t, U::Value);
                f(e, U::Value);
            }
            Gep { base, indices, .. } => {
                f(base, U::Address);
                indices.iter().for_each(|(o, _)| f(o, U::Index));
            }
            Alloca { .. } | Nondet { .. } | AtomicBegin | AtomicEnd | Havoc { .. } => {}
            HeapAlloc { from, .. } => from.iter().for_each(|o| f(o, U::Address)),
            Load { ptr, .. } => f(ptr, U::Address),
            Store { ptr, val, .. } | AtomicRmw { ptr, val, .. } => {
                f(ptr, U::Address);
                f(val, U::Value);
            }
            CmpXchg {
                ptr, expected, new, ..
            } => {
                f(ptr, U::Address);
                f(expected, U::Value);
                f(new, U::Value);
            }
            MemSet { ptr, val, len } => {
                f(ptr, U::Address);
                f(val, U::Fill);
                f(len, U::Length);
            }
            MemCopy { dst, src, len } => {
                f(dst, U::Address);
                f(src, U::Address);
                f(len, U::Length);
            }
            Call { callee, args, .. } => {
                args.iter().for_each(|o| f(o, U::Argument));
                match callee {
                    Callee::Indirect(o) => f(o, U::Callee),
                    Callee::Direct(_) => {}
                }
            }
            ThreadCreate {
                handle, entry, arg, ..
            } => {
                f(handle, U::Address);
                f(entry, U::Callee);
                f(arg, U::Argument);
            }
            ThreadJoin { handle, retval, .. } => {
                f(handle, U::Handle);
                f(retval, U::Address);
            }
            Lock { lock, .. } | Unlock { lock, .. } => f(lock, U::Address),
            Assert { cond, .. } => cond.iter().for_each(|o| f(o, U::Condition)),
            Assume { cond } => f(cond, U::Condition),
        }
    }
}

impl Terminator {
    /// Calls `f` on every operand the terminator uses: the one description of its uses.
    pub fn for_each_use(&self, mut f: impl FnMut(&Operand)) {
        match self {
            Terminator::CondBr { cond, .. } => f(cond),
            Terminator::Switch { value, .. } => f(value),
            Terminator::Ret(Some(v)) => f(v),
            Terminator::Ret(None) | Terminator::Br(_) | Terminator::Stop { .. } => {}
        }
    }

    /// Calls `f` on every block the terminator may go to, in order (a `Stop` goes nowhere in
    /// its function; a `longjmp`'s targets are edges of the thread CFG, not of the function).
    pub fn for_each_successor(&self, mut f: impl FnMut(super::BlockId)) {
        match self {
            Terminator::Br(b) => f(*b),
            Terminator::CondBr { then_, else_, .. } => {
                f(*then_);
                f(*else_);
            }
            Terminator::Switch { cases, default, .. } => {
                cases.iter().for_each(|(_, b)| f(*b));
                f(*default);
            }
            Terminator::Ret(_) | Terminator::Stop { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Ty, VarId};

    fn effects(k: &InstKind) -> Vec<Effect<'_>> {
        let mut out = Vec::new();
        k.effects(|e| out.push(e));
        out
    }

    #[test]
    fn register_ops_have_no_effect_and_the_others_have_one() {
        let v = Operand::Var(VarId(0));
        let kinds = [
            InstKind::Copy {
                dst: VarId(1),
                src: v,
            },
            InstKind::Load {
                dst: VarId(1),
                ptr: v,
                ty: Ty::Int(32),
                size: 4,
                order: MemOrder::NotAtomic,
            },
            InstKind::MemCopy {
                dst: v,
                src: v,
                len: v,
            },
            InstKind::Havoc {
                dst: None,
                clobbers_memory: true,
                reason: String::new(),
            },
            InstKind::Havoc {
                dst: Some(VarId(1)),
                clobbers_memory: false,
                reason: String::new(),
            },
        ];
        for k in &kinds {
            assert_eq!(k.is_register_op(), effects(k).is_empty(), "{k:?}");
        }
        assert_eq!(effects(&kinds[2]).len(), 2);
        assert!(matches!(
            effects(&kinds[1])[0],
            Effect::Mem(MemAccess {
                access: Access::Read,
                bytes: Bytes::Exactly(4),
                ..
            })
        ));
    }

    #[test]
    fn calloc_zeroes_its_fresh_block_and_realloc_reads_the_old_one() {
        let heap = |zeroed, from| InstKind::HeapAlloc {
            dst: VarId(1),
            obj: ObjId(3),
            zeroed,
            from,
        };
        let calloc = heap(true, None);
        assert_eq!(
            effects(&calloc),
            [Effect::Allocates, Effect::Zeroes { obj: ObjId(3) }]
        );
        let realloc = heap(false, Some(Operand::Var(VarId(0))));
        assert!(matches!(
            effects(&realloc)[..],
            [
                Effect::Allocates,
                Effect::Mem(MemAccess {
                    access: Access::Read,
                    bytes: Bytes::Unknown,
                    via: Via::Realloc,
                    ..
                })
            ]
        ));
    }

    #[test]
    fn fixed_sizes_are_those_the_instruction_names() {
        let len = Operand::Int { value: 4, bits: 64 };
        assert_eq!(Bytes::Exactly(2).fixed(8), Some(2));
        assert_eq!(Bytes::Word(0).fixed(8), Some(8));
        assert_eq!(Bytes::Word(12).fixed(8), Some(2));
        assert_eq!(Bytes::Len(&len).fixed(8), None);
        assert_eq!(Bytes::Unknown.fixed(8), None);
    }

    #[test]
    fn the_operands_with_their_uses_are_the_uses() {
        let v = |i| Operand::Var(VarId(i));
        let kinds = [
            InstKind::Store {
                ptr: v(0),
                val: v(1),
                ty: Ty::Int(32),
                size: 4,
                order: MemOrder::NotAtomic,
            },
            InstKind::MemSet {
                ptr: v(0),
                val: v(1),
                len: v(2),
            },
            InstKind::Call {
                dst: None,
                callee: Callee::Indirect(v(3)),
                args: vec![v(1), v(2)],
            },
            InstKind::ThreadJoin {
                dst: None,
                handle: v(0),
                retval: v(1),
                result_bits: 0,
            },
        ];
        for k in &kinds {
            let (mut uses, mut operands) = (Vec::new(), Vec::new());
            k.for_each_use(|o| uses.push(*o));
            k.for_each_operand(|o, _| operands.push(*o));
            assert_eq!(uses, operands, "{k:?}");
        }
        let mut seen = Vec::new();
        kinds[1].for_each_operand(|_, u| seen.push(u));
        assert_eq!(
            seen,
            [OperandUse::Address, OperandUse::Fill, OperandUse::Length]
        );
    }

    #[test]
    fn a_join_writes_its_result_only_when_it_asks_for_it() {
        let h = Operand::Var(VarId(0));
        let join = |retval| InstKind::ThreadJoin {
            dst: None,
            handle: h,
            retval,
            result_bits: 0,
        };
        assert_eq!(effects(&join(Operand::Null)).len(), 1);
        let with = join(Operand::Var(VarId(1)));
        assert!(matches!(
            effects(&with)[1],
            Effect::Mem(MemAccess {
                access: Access::Write,
                via: Via::Threads,
                ..
            })
        ));
    }
}
