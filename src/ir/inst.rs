//! Instructions: what each LLVM instruction means to the analysis, with library calls already
//! recognised (threads, assertions, nondeterminism, locks, allocation).

use super::{AssertId, BlockId, FuncId, GlobalId, ObjId, Span, Ty, VarId};

pub use watts_domains::{BinOp, CmpPred};

/// A value read by an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// An SSA value of the current function.
    Var(VarId),
    /// An integer constant of `bits` bits, sign-extended (`i1 true` is 1).
    Int {
        /// The value.
        value: i128,
        /// Its width.
        bits: u32,
    },
    /// The null pointer.
    Null,
    /// The address of a global plus a constant byte offset.
    GlobalAddr(GlobalId, i64),
    /// The address of a function.
    FuncAddr(FuncId),
    /// Any value of this type (`undef`, `poison`, and constants the analysis does not track).
    Unknown(Ty),
}

/// Conversions between integers and pointers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    /// Integer truncation.
    Trunc,
    /// Zero extension.
    ZExt,
    /// Sign extension.
    SExt,
    /// Pointer to integer (the address value is unknown to the analysis).
    PtrToInt,
    /// Integer to pointer (points to anything whose address escaped).
    IntToPtr,
    /// Anything else (float conversions, bitcasts of non-pointers): an unknown value.
    Other,
}

/// The memory order of an access, as C11 (5.1.2.4, 7.17.3) names it: what it orders besides
/// itself. LLVM's `monotonic` is C11's relaxed; its `unordered` (Java's) orders no more, so it is
/// taken as relaxed too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemOrder {
    /// A plain (non-atomic) access.
    NotAtomic,
    /// `memory_order_relaxed`: atomic, but it orders no other access.
    Relaxed,
    /// `memory_order_acquire` (and `consume`, which clang strengthens to it).
    Acquire,
    /// `memory_order_release`.
    Release,
    /// `memory_order_acq_rel`.
    AcqRel,
    /// `memory_order_seq_cst` (the order of `_Atomic` operators and `__sync_*` builtins).
    SeqCst,
}

impl MemOrder {
    /// Whether the access is atomic at all.
    pub fn is_atomic(self) -> bool {
        self != MemOrder::NotAtomic
    }

    /// Whether a store with this order is a release: an acquire load that reads its value
    /// synchronises with it (C11 5.1.2.4p11), so what preceded the store happens before what
    /// follows the load.
    pub fn releases(self) -> bool {
        matches!(
            self,
            MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst
        )
    }

    /// Whether a load with this order is an acquire (the other side of [`MemOrder::releases`]).
    pub fn acquires(self) -> bool {
        matches!(
            self,
            MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst
        )
    }
}

/// The operation of an `atomicrmw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwOp {
    /// `*p = v`.
    Xchg,
    /// `*p += v`, and likewise for the others; the instruction returns the old value.
    Add,
    /// `*p -= v`.
    Sub,
    /// `*p &= v`.
    And,
    /// `*p = ~(*p & v)`.
    Nand,
    /// `*p |= v`.
    Or,
    /// `*p ^= v`.
    Xor,
    /// Signed max.
    Max,
    /// Signed min.
    Min,
    /// Unsigned max.
    UMax,
    /// Unsigned min.
    UMin,
    /// Float operations and anything newer: stores an unknown value.
    Other,
}

/// Which source construct an assertion comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssertKind {
    /// `assert(c)`: the `Assert` instruction stands for the call to `__assert_fail` (or
    /// `__assert_rtn`, `__assert`) on the failure branch; reaching it is the failure.
    Macro,
    /// A call to `reach_error()` or `__VERIFIER_error()`: reaching it is the failure.
    ReachError,
    /// A call to `__VERIFIER_assert(c)`: fails when reached with `c == 0`.
    VerifierAssert,
}

/// What a call instruction calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A function of the program, defined or declared.
    Direct(FuncId),
    /// A call through a pointer (inline asm is lowered to `Havoc`, not to a call).
    Indirect(Operand),
}

/// A phi node: `dst` takes the operand of the edge control arrived by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phi {
    /// The defined value.
    pub dst: VarId,
    /// (predecessor block, value on that edge).
    pub incoming: Vec<(BlockId, Operand)>,
}

/// One instruction with its source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// Where it comes from (`None` for compiler-generated code without debug location).
    pub span: Option<Span>,
}

/// What an instruction does. Integer widths are in bits; memory sizes in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstKind {
    /// `dst := a op b` on `bits`-bit integers (LLVM semantics, wrap-around).
    Bin {
        /// Result.
        dst: VarId,
        /// Operation.
        op: BinOp,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
        /// Width of operands and result.
        bits: u32,
    },
    /// `dst := (a pred b)` as an `i1`. `bits` is the operand width, 0 for pointer operands
    /// (whose comparison the analysis cannot decide).
    Cmp {
        /// Result (i1).
        dst: VarId,
        /// Predicate.
        pred: CmpPred,
        /// Left operand.
        a: Operand,
        /// Right operand.
        b: Operand,
        /// Operand width, 0 for pointers.
        bits: u32,
    },
    /// `dst := op(src)`, from `from` bits to `to` bits (0 stands for a pointer).
    Cast {
        /// Result.
        dst: VarId,
        /// Conversion.
        op: CastOp,
        /// Source value.
        src: Operand,
        /// Source width (0 for a pointer).
        from: u32,
        /// Result width (0 for a pointer).
        to: u32,
    },
    /// `dst := cond ? t : f` (`cond` is an i1).
    Select {
        /// Result.
        dst: VarId,
        /// Condition (i1).
        cond: Operand,
        /// Value when true.
        t: Operand,
        /// Value when false.
        f: Operand,
    },
    /// `dst := src` (freeze, pointer bitcasts, address-space casts).
    Copy {
        /// Result.
        dst: VarId,
        /// Source.
        src: Operand,
    },
    /// `dst := base + offset + Σ index_i * stride_i` in bytes (`getelementptr`). Variable
    /// indices keep their strides so that the memory model can tell an array step apart.
    Gep {
        /// Result pointer.
        dst: VarId,
        /// Base pointer.
        base: Operand,
        /// Sum of all constant index contributions, in bytes.
        offset: i64,
        /// Non-constant indices with the byte stride of each (the element size it steps over).
        indices: Vec<(Operand, u64)>,
    },
    /// `dst := &obj` for an `alloca` that mem2reg kept (a fresh stack object).
    Alloca {
        /// Result pointer.
        dst: VarId,
        /// The object it allocates.
        obj: ObjId,
    },
    /// `dst := malloc/calloc/realloc/...`: a pointer to heap object `obj`, or null.
    HeapAlloc {
        /// Result pointer.
        dst: VarId,
        /// The allocation site's object.
        obj: ObjId,
        /// Whether the memory is zeroed (`calloc`).
        zeroed: bool,
        /// For `realloc`: the old pointer, whose contents move to the new object.
        from: Option<Operand>,
    },
    /// `dst := *ptr`, `size` bytes, of type `ty`.
    Load {
        /// Result.
        dst: VarId,
        /// Address.
        ptr: Operand,
        /// Type of the loaded value.
        ty: Ty,
        /// Bytes read.
        size: u32,
        /// Its memory order (`NotAtomic` for a plain load).
        order: MemOrder,
    },
    /// `*ptr := val`, `size` bytes.
    Store {
        /// Address.
        ptr: Operand,
        /// Stored value.
        val: Operand,
        /// Type of the stored value.
        ty: Ty,
        /// Bytes written.
        size: u32,
        /// Its memory order (`NotAtomic` for a plain store).
        order: MemOrder,
    },
    /// `dst := *ptr; *ptr := dst op val` atomically.
    AtomicRmw {
        /// The old value.
        dst: VarId,
        /// Operation.
        op: RmwOp,
        /// Address.
        ptr: Operand,
        /// Operand.
        val: Operand,
        /// Width in bits (0 for pointers).
        bits: u32,
        /// Its memory order.
        order: MemOrder,
    },
    /// `old := *ptr; ok := old == expected; if ok { *ptr := new }` atomically.
    CmpXchg {
        /// The old value.
        old: VarId,
        /// Whether the exchange happened (i1).
        ok: VarId,
        /// Address.
        ptr: Operand,
        /// Expected value.
        expected: Operand,
        /// New value.
        new: Operand,
        /// Width in bits (0 for pointers).
        bits: u32,
        /// Its memory order when the exchange happens (LLVM's success ordering).
        order: MemOrder,
    },
    /// `memset(ptr, val, len)` (also `llvm.memset`).
    MemSet {
        /// Destination.
        ptr: Operand,
        /// Byte value (i8).
        val: Operand,
        /// Length in bytes.
        len: Operand,
    },
    /// `memcpy`/`memmove(dst, src, len)` (also the LLVM intrinsics).
    MemCopy {
        /// Destination.
        dst: Operand,
        /// Source.
        src: Operand,
        /// Length in bytes.
        len: Operand,
    },
    /// A call to a function of the program (defined: analysed; declared only: unknown external,
    /// which may do anything to the memory it can reach and return any value).
    Call {
        /// Result, if used and not void.
        dst: Option<VarId>,
        /// The called function.
        callee: Callee,
        /// Arguments.
        args: Vec<Operand>,
    },
    /// `pthread_create(handle, attr, entry, arg)` (or C11's `thrd_create(handle, entry, arg)`):
    /// a new thread runs `entry(arg)`.
    ThreadCreate {
        /// The call's result (0 on success), if used.
        dst: Option<VarId>,
        /// Where the `pthread_t` is written.
        handle: Operand,
        /// The entry function (usually `FuncAddr`).
        entry: Operand,
        /// The argument passed to it.
        arg: Operand,
    },
    /// `pthread_join(handle, retval)` (or C11's `thrd_join`): waits for the thread `handle`
    /// names.
    ThreadJoin {
        /// The call's result, if used.
        dst: Option<VarId>,
        /// The `pthread_t` value.
        handle: Operand,
        /// Where the thread's result is written (may be null).
        retval: Operand,
        /// The size of the result written through `retval`, in bits: 0 for a pointer
        /// (`pthread_join`'s `void *`), 32 for `thrd_join`'s `int`.
        result_bits: u32,
    },
    /// `pthread_mutex_lock`, `pthread_spin_lock`, `pthread_rwlock_*lock` on `lock`.
    Lock {
        /// The call's result, if used.
        dst: Option<VarId>,
        /// The lock object.
        lock: Operand,
        /// Whether no other thread can hold the lock at the same time (false for
        /// `pthread_rwlock_rdlock`: readers share it).
        exclusive: bool,
    },
    /// `pthread_mutex_unlock` and friends.
    Unlock {
        /// The call's result, if used.
        dst: Option<VarId>,
        /// The lock object.
        lock: Operand,
    },
    /// `__VERIFIER_atomic_begin()`.
    AtomicBegin,
    /// `__VERIFIER_atomic_end()`.
    AtomicEnd,
    /// An assertion site (see `AssertInfo`). `cond` is `Some(c)` for `__VERIFIER_assert(c)`
    /// (fails when `c == 0`); `None` when reaching the instruction is the failure.
    Assert {
        /// Which assertion.
        id: AssertId,
        /// The checked condition, if any (an integer of any width; 0 is false).
        cond: Option<Operand>,
    },
    /// `__VERIFIER_assume(c)` / `assume_abort_if_not(c)` when declared only: continue only if
    /// `c != 0`.
    Assume {
        /// The condition.
        cond: Operand,
    },
    /// `dst := __VERIFIER_nondet_*()`: any value of the type; `is_bool` for `_bool` (0 or 1).
    Nondet {
        /// Result.
        dst: VarId,
        /// Its type.
        ty: Ty,
        /// Whether only 0 and 1 are possible.
        is_bool: bool,
    },
    /// `dst := any value`, for instructions the analysis does not model (inline asm, float
    /// arithmetic, vector operations, `va_arg`). When `clobbers_memory` the instruction may also
    /// write any memory whose address escaped (inline asm). `reason` explains it in notes.
    Havoc {
        /// Result, if any.
        dst: Option<VarId>,
        /// Whether memory may change too.
        clobbers_memory: bool,
        /// Why it is not modelled.
        reason: String,
    },
}

/// How control leaves a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    /// Unconditional jump.
    Br(BlockId),
    /// `if cond != 0 goto then_ else goto else_` (`cond` is an i1).
    CondBr {
        /// Condition (i1).
        cond: Operand,
        /// Target when true.
        then_: BlockId,
        /// Target when false.
        else_: BlockId,
    },
    /// `switch value { case c => target, ... default => default }`.
    Switch {
        /// Scrutinee.
        value: Operand,
        /// Its width.
        bits: u32,
        /// (case value sign-extended, target).
        cases: Vec<(i128, BlockId)>,
        /// Default target.
        default: BlockId,
    },
    /// Return from the function.
    Ret(Option<Operand>),
    /// `exit`, `abort`, `__assert_fail`, `pthread_exit`, `unreachable`, and calls to
    /// `noreturn` functions: this path of the thread ends here; `longjmp` (`StopReason::LongJmp`):
    /// this block has no successor in its function, control goes on at a `setjmp`.
    Stop {
        /// Why (`"exit"`, `"abort"`, `"pthread_exit"`, `"unreachable"`, ...).
        reason: StopReason,
    },
}

/// Why a path ends at a `Terminator::Stop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopReason {
    /// `exit`, `_exit`, `abort`, `__assert_fail` and other `noreturn` library calls: the process
    /// ends (other threads stop too, which the analysis may over-approximate by ignoring).
    ProcessExit,
    /// `pthread_exit`: the current thread ends; its result is the argument.
    ThreadExit,
    /// LLVM `unreachable`: no execution gets here (after a `noreturn` call, or UB).
    Unreachable,
    /// `longjmp`, `siglongjmp`, `_longjmp`, `__builtin_longjmp`: control goes on at the second
    /// return of a `setjmp` of the same thread (`Program::returns_twice`); the thread CFG holds
    /// the edges (`threads::ThreadCfg::resumes`). It is not an end of the thread or process.
    LongJmp,
}

impl InstKind {
    /// The variables the instruction defines: the one description of its definitions, which
    /// the facts (`Facts::def`), the dependence graph and the abstract interpreter all read.
    pub fn defs(&self) -> impl Iterator<Item = VarId> {
        use InstKind::*;
        let (a, b) = match self {
            Bin { dst, .. }
            | Cmp { dst, .. }
            | Cast { dst, .. }
            | Select { dst, .. }
            | Copy { dst, .. }
            | Gep { dst, .. }
            | Alloca { dst, .. }
            | HeapAlloc { dst, .. }
            | Load { dst, .. }
            | AtomicRmw { dst, .. }
            | Nondet { dst, .. } => (Some(*dst), None),
            CmpXchg { old, ok, .. } => (Some(*old), Some(*ok)),
            Call { dst, .. }
            | ThreadCreate { dst, .. }
            | ThreadJoin { dst, .. }
            | Lock { dst, .. }
            | Unlock { dst, .. }
            | Havoc { dst, .. } => (*dst, None),
            Store { .. }
            | MemSet { .. }
            | MemCopy { .. }
            | AtomicBegin
            | AtomicEnd
            | Assert { .. }
            | Assume { .. } => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// Calls `f` on every operand the instruction uses: the one description of its uses.
    pub fn for_each_use(&self, mut f: impl FnMut(&Operand)) {
        use InstKind::*;
        match self {
            Bin { a, b, .. } | Cmp { a, b, .. } => {
                f(a);
                f(b);
            }
            Cast { src, .. } | Copy { src, .. } => f(src),
            Select { cond, t, f: e, .. } => {
                f(cond);
                f(t);
                f(e);
            }
            Gep { base, indices, .. } => {
                f(base);
                indices.iter().for_each(|(o, _)| f(o));
            }
            Alloca { .. } | Nondet { .. } | AtomicBegin | AtomicEnd | Havoc { .. } => {}
            HeapAlloc { from, .. } => from.iter().for_each(f),
            Load { ptr, .. } => f(ptr),
            Store { ptr, val, .. } | AtomicRmw { ptr, val, .. } => {
                f(ptr);
                f(val);
            }
            CmpXchg {
                ptr, expected, new, ..
            } => {
                f(ptr);
                f(expected);
                f(new);
            }
            MemSet { ptr, val, len } => {
                f(ptr);
                f(val);
                f(len);
            }
            MemCopy { dst, src, len } => {
                f(dst);
                f(src);
                f(len);
            }
            Call { callee, args, .. } => {
                args.iter().for_each(&mut f);
                if let Callee::Indirect(o) = callee {
                    f(o);
                }
            }
            ThreadCreate {
                handle, entry, arg, ..
            } => {
                f(handle);
                f(entry);
                f(arg);
            }
            ThreadJoin { handle, retval, .. } => {
                f(handle);
                f(retval);
            }
            Lock { lock, .. } | Unlock { lock, .. } => f(lock),
            Assert { cond, .. } => cond.iter().for_each(f),
            Assume { cond } => f(cond),
        }
    }
}
