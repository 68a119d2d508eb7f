//! The watts IR: the program as the analyses see it, lowered once from LLVM by `frontend`.
//!
//! Invariant: plain `Send + Sync` data with dense `u32` ids; no inkwell or LLVM type appears here.
//! Ids of vars and blocks are local to their function; globals, functions, objects and
//! assertions have program-wide ids.
//!
//! What it holds: functions, blocks, phis, instructions with source spans (file, line, column from
//! the debug info), globals with initial contents, memory objects with layouts, assertion sites
//! (each with one `AssertInfo`). `Program::constant_bytes` reads the bytes of a constant global's
//! initialiser (`memcpy`/`strcpy` of a string constant).
//!
//! Integer types are widths (`Ty::Int(bits)`); the signedness the C source declares is display data
//! (`Signedness` on vars, layout scalars and condition variables), which `cint::CInt` uses to show
//! a value as C would. Invariant: nothing decides a verdict from a `Signedness`
//! (`Layout::same_shape` ignores it where layouts are compared).

mod cint;
pub mod effects;
mod ids;
mod inst;
mod layout;
pub mod lib;
mod notes;
pub mod once;
mod span;

pub use cint::{CInt, CValue, Signedness};
pub use ids::{AssertId, BlockId, FuncId, GlobalId, ObjId, VarId};
pub use inst::{
    AssertKind, BinOp, Callee, CastOp, CmpPred, Inst, InstKind, MemOrder, Operand, Phi, RmwOp,
    StopReason, Terminator,
};
pub use layout::{InitCell, InitValue, Layout, ScalarKind};
pub use notes::{FrontendNote, Lenient};
pub use span::{FileId, SourceFile, Span};

/// The type of an SSA value, as far as the analysis cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An integer of this many bits (1..=128).
    Int(u32),
    /// A pointer (opaque; the memory model resolves what it points to).
    Ptr,
    /// Anything else (floats, vectors, aggregates): always an unknown value.
    Other,
}

/// One SSA value of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    /// Its type.
    pub ty: Ty,
    /// The source variable it holds, from the debug info (`llvm.dbg.value`), if any.
    pub name: Option<String>,
    /// The signedness of that variable's C type (`Signed` when unknown). Display only.
    pub sign: Signedness,
}

impl VarInfo {
    /// A value of type `ty` that holds no source variable.
    pub fn unnamed(ty: Ty) -> VarInfo {
        VarInfo {
            ty,
            name: None,
            sign: Signedness::Signed,
        }
    }

    /// How its values are shown: its width and the signedness of its variable; `None` when
    /// it is not an integer.
    pub fn c_int(&self) -> Option<CInt> {
        match self.ty {
            Ty::Int(bits) => Some(CInt::new(bits, self.sign)),
            _ => None,
        }
    }
}

/// A whole program after lowering.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Every function, defined or only declared. Indexed by `FuncId`.
    pub funcs: Vec<Function>,
    /// Every global variable. Indexed by `GlobalId`.
    pub globals: Vec<Global>,
    /// Every memory object: one per global, per `alloca`, per heap allocation site. Indexed by `ObjId`.
    pub objects: Vec<Object>,
    /// Every assertion site. Indexed by `AssertId`.
    pub asserts: Vec<AssertInfo>,
    /// Source files referenced by spans. Indexed by `FileId`.
    pub files: Vec<SourceFile>,
    /// Pointer size in bytes of the target (4 with `-m32`, else 8).
    pub pointer_size: u32,
    /// Addresses (`GlobalAddr` or `FuncAddr`) that a constant hides from the analysis: inside a
    /// `ptrtoint` constant expression (`long a = (long)&x;`, `(int *)(uintptr_t)&x`), or any
    /// constant the lowering turns into an unknown value, in code or in a global's initialiser,
    /// or named by the text of an inline `asm`. The points-to analysis exposes them.
    pub hidden_addrs: Vec<Operand>,
    /// Functions that may return twice (`setjmp`, `_setjmp`, `sigsetjmp`, `__sigsetjmp`,
    /// `__builtin_setjmp`, anything LLVM marks `returns_twice`), sorted, without duplicates.
    /// A direct call to one of them is a *resume point*: a `longjmp` may continue there.
    /// Invariant: the functions that call one of them keep their locals in memory (no mem2reg).
    pub returns_twice: Vec<FuncId>,
    /// Whether thread-specific data (`harness::keys`) has a destructor, which runs when a
    /// thread whose value is not NULL ends; no instruction stands for that call.
    pub key_destructors: bool,
    /// The thread-local global that holds each thread's value of the one key, when
    /// `harness::keys` rewrote its calls, and the destructor when the program gives one
    /// function by name (for `watts confirm`, which runs it at a thread's end).
    pub key_slot: Option<KeySlot>,
    /// The functions a driver harness starts as threads (`--entry`, `--entries-from`), sorted.
    /// The harness contract says that these threads are every run of them that the environment
    /// makes, so unknown code given their address does not also run them on its own.
    pub harness_entries: Vec<FuncId>,
    /// The sizes of the pthread synchronisation types, where the module defines them.
    pub sync_sizes: SyncSizes,
    /// The function the program starts at: the defined `main` the front end found, or the
    /// one a driver harness adds (`harness::synthesize`, which renames the program's own).
    /// `None` when there is none (the analysis then reports that there is no entry point).
    pub main: Option<FuncId>,
    /// The function that stands for code outside the program running concurrently with it
    /// (`harness::startup` adds it when a thread's entry is not a defined function or the
    /// program calls an API after which such code runs), if the program has one.
    pub unknown_code: Option<FuncId>,
    /// The globals the C runtime reads at exit (`llvm.global_dtors`, and those the source
    /// places in `.fini_array` or `.dtors`): the functions they hold run at exit (set by the
    /// front end; `harness::startup` exposes them). Sorted.
    pub exit_arrays: Vec<GlobalId>,
    /// What the front end did to accept C that gcc accepts and clang does not (notes for the
    /// report).
    pub frontend_notes: Vec<FrontendNote>,
    /// Declared functions the user assumes change no memory of the program
    /// (`--assume-no-write`: `request_irq`, `register_chrdev`); they may keep the pointers
    /// they get and call back the functions they are given. Sorted.
    pub assumed_no_write: Vec<FuncId>,
    /// `--callbacks-anywhere`: the race check runs functions handed to code outside the
    /// program in any thread at any time (`analysis::races::contexts`), not only in the
    /// program's threads.
    pub callbacks_anywhere: bool,
    /// The pointer arguments a driver harness passes to its init and entries (`Unknown`
    /// pointers, to the analysis), each with the input that `watts confirm` fills the fresh
    /// buffer it passes instead with (`harness::synthesize`). Sorted by caller and callee.
    pub user_buffers: Vec<UserBuffer>,
    /// The `Havoc`s that stand for the address of a thread-local global that is not private to
    /// its thread (`Global::thread_local` false: its address goes elsewhere than loads and
    /// stores): an unknown pointer to the analysis, the running thread's copy to `watts
    /// confirm`. In lowering order.
    pub thread_local_addrs: Vec<ThreadLocalAddr>,
}

/// A pointer argument of a call the driver harness makes (`Program::user_buffers`): the
/// analysis sees any pointer (`Operand::Unknown`); `watts confirm` passes a fresh buffer of the
/// user's (a `write`'s data, a `struct file`), every byte of which holds the value of the input
/// `fill`, so that reads and writes through it run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UserBuffer {
    /// The function that makes the call (a harness wrapper, or the harness `main` for the init).
    pub caller: FuncId,
    /// The function called.
    pub callee: FuncId,
    /// Which argument (0-based).
    pub arg: u32,
    /// The caller's variable holding the fill byte (an 8-bit input).
    pub fill: VarId,
}

/// The one key of thread-specific data after `harness::keys` (`Program::key_slot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySlot {
    /// The thread-local global of pointer width that holds each thread's value.
    pub slot: GlobalId,
    /// The destructor, when the program names one function (and passes no other pointer).
    pub destructor: Option<FuncId>,
}

/// `llvm.threadlocal.address` of a thread-local global that is not private to its thread
/// (`Program::thread_local_addrs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadLocalAddr {
    /// The function, and the variable its `Havoc` defines.
    pub func: FuncId,
    pub dst: VarId,
    /// The thread-local global.
    pub global: GlobalId,
    /// Whether the address may go anywhere but the address of loads and stores (directly or
    /// through `getelementptr`): only then may the running thread's copy reach another thread
    /// from here.
    pub escapes: bool,
}

/// Byte sizes of `pthread_mutex_t`, `pthread_cond_t` and `pthread_rwlock_t` in the analysed
/// program's target and C library (`None`: not known, so a synchronisation function may touch
/// its whole object).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SyncSizes {
    /// `sizeof(pthread_mutex_t)`.
    pub mutex: Option<u64>,
    /// `sizeof(pthread_cond_t)`.
    pub cond: Option<u64>,
    /// `sizeof(pthread_rwlock_t)`.
    pub rwlock: Option<u64>,
}

impl SyncSizes {
    /// How many bytes from its `arg`-th argument the synchronisation function `f`
    /// (`LibFn::is_sync`) may write: its synchronisation object (`Props::sync_objects`), when
    /// its size is known (POSIX: these functions touch nothing else through it; attribute
    /// arguments are only read, but stay whole objects here).
    pub fn written_by(&self, f: lib::LibFn, arg: usize) -> Option<u64> {
        match f.props().sync_objects.get(arg).copied().flatten()? {
            lib::SyncObj::Mutex => self.mutex,
            lib::SyncObj::Cond => self.cond,
            lib::SyncObj::RwLock => self.rwlock,
            // `pthread_spinlock_t` is a `volatile int` in glibc and musl.
            lib::SyncObj::Spin => Some(4),
        }
    }
}

/// A call of a function named directly (`Program::direct_calls`).
#[derive(Clone, Copy, Debug)]
pub struct DirectCall<'p> {
    /// Where: the calling function, its block, the instruction's index in the block.
    pub func: FuncId,
    pub block: BlockId,
    pub idx: u32,
    /// The function called.
    pub callee: FuncId,
    /// Its arguments.
    pub args: &'p [Operand],
}

impl Program {
    /// Every call of a function named directly, in function, block and instruction order.
    pub fn direct_calls(&self) -> impl Iterator<Item = DirectCall<'_>> {
        self.funcs.iter().enumerate().flat_map(|(fi, f)| {
            f.blocks.iter().enumerate().flat_map(move |(bi, b)| {
                b.insts
                    .iter()
                    .enumerate()
                    .filter_map(move |(ii, inst)| match &inst.kind {
                        InstKind::Call {
                            callee: Callee::Direct(g),
                            args,
                            ..
                        } => Some(DirectCall {
                            func: FuncId::from(fi),
                            block: BlockId::from(bi),
                            idx: ii as u32,
                            callee: *g,
                            args,
                        }),
                        _ => None,
                    })
            })
        })
    }

    /// Whether the C runtime runs functions at exit (destructors, by a global it reads at exit:
    /// `exit_arrays`; `atexit` handlers reach an unknown function instead).
    pub fn has_exit_time_functions(&self) -> bool {
        !self.exit_arrays.is_empty()
    }

    /// Whether `f` may return twice (a call to it is a resume point of `longjmp`).
    pub fn is_returns_twice(&self, f: FuncId) -> bool {
        self.returns_twice.binary_search(&f).is_ok()
    }

    /// Bytes `off..off + len` of the contents of the constant global `g` (little-endian), or
    /// `None` when they are not known: not a constant, an external declaration, an address or
    /// an untracked value among them, or past its end.
    pub fn constant_bytes(&self, g: GlobalId, off: u64, len: u64) -> Option<Vec<u8>> {
        let global = &self.globals[g.index()];
        let init = global.init.as_ref().filter(|_| global.is_constant)?;
        let size = self.objects[global.obj.index()].layout.as_ref()?.size();
        let end = off.checked_add(len).filter(|e| *e <= size)?;
        let mut bytes = vec![0u8; usize::try_from(len).ok()?];
        for c in init {
            let (start, stop) = (c.offset, c.offset + u64::from(c.size));
            if stop <= off || start >= end {
                continue;
            }
            // Bytes no cell covers are zero.
            let (InitValue::Int(v), true) = (&c.value, c.size <= 16) else {
                return None;
            };
            for i in start.max(off)..stop.min(end) {
                bytes[(i - off) as usize] = (v >> (8 * (i - start))) as u8;
            }
        }
        Some(bytes)
    }

    /// The length of the C string at byte `off` of the constant global `g`, with its
    /// terminating zero, when it is known and ends inside `g`.
    pub fn constant_string_size(&self, g: GlobalId, off: u64) -> Option<u64> {
        let global = &self.globals[g.index()];
        let size = self.objects[global.obj.index()].layout.as_ref()?.size();
        let bytes = self.constant_bytes(g, off, size.checked_sub(off)?)?;
        bytes.iter().position(|b| *b == 0).map(|n| n as u64 + 1)
    }
}

/// One function.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// Its LLVM name.
    pub name: String,
    /// Parameters, in order; each is a var of this function.
    pub params: Vec<VarId>,
    /// The SSA values of the function (parameters included). Indexed by `VarId`.
    pub vars: Vec<VarInfo>,
    /// Basic blocks; `BlockId(0)` is the entry. Empty for a declaration.
    pub blocks: Vec<Block>,
    /// The return type (`None` for `void`).
    pub ret: Option<Ty>,
    /// Whether it has a body in this program.
    pub is_defined: bool,
    /// Whether it is visible only inside its module (`static`).
    pub is_internal: bool,
    /// Whether it is variadic.
    pub is_variadic: bool,
    /// Where it is defined, from the debug info.
    pub span: Option<Span>,
    /// The library function (or family) its name is, classified once by the front end from
    /// the name alone (`frontend::library`), for defined functions too: most readers want
    /// [`Function::library`], which leaves out a definition of the program's own.
    pub lib: Option<lib::LibFn>,
}

impl Function {
    /// The library function a call of it runs: its `lib` when it is only declared. A
    /// function the program defines runs its own body, whatever its name.
    pub fn library(&self) -> Option<lib::LibFn> {
        self.lib.filter(|_| !self.is_defined)
    }

    /// The row of [`Function::library`].
    pub fn library_props(&self) -> Option<&'static lib::Props> {
        self.library().map(lib::LibFn::props)
    }
}

/// A basic block: phis, then straight-line instructions, then one terminator.
#[derive(Clone, Debug)]
pub struct Block {
    /// Phi nodes at the block entry, evaluated in parallel on each incoming edge.
    pub phis: Vec<Phi>,
    /// Straight-line instructions.
    pub insts: Vec<Inst>,
    /// How control leaves the block.
    pub term: Terminator,
    /// Source position of the terminator, if any.
    pub term_span: Option<Span>,
}

/// A global variable.
#[derive(Clone, Debug)]
pub struct Global {
    /// Its name in the source (LLVM name, without `@`).
    pub name: String,
    /// Its memory object.
    pub obj: ObjId,
    /// Initial contents; `None` for an external declaration (contents unknown).
    pub init: Option<Vec<InitCell>>,
    /// Whether it is `static` (internal linkage): unknown external code cannot name it.
    pub is_internal: bool,
    /// Whether it is constant (`const` or a string literal).
    pub is_constant: bool,
    /// Whether it is a thread-local variable (`__thread`) that only its own thread accesses:
    /// every instruction reads or writes the copy of the thread that runs it, and its address
    /// goes nowhere else (the front end checked that every use is the address of a load or a
    /// store, directly or through `getelementptr`). A thread-local variable whose address may
    /// go elsewhere is not marked, and its accesses go through unknown pointers.
    pub thread_local: bool,
    /// The section the source places it in (`.init_array`), if any: the C runtime reads the
    /// start-up and exit sections (see `harness::startup`).
    pub section: Option<String>,
    /// Where it is declared.
    pub span: Option<Span>,
}

/// What kind of memory an object is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A global variable.
    Global(GlobalId),
    /// An `alloca` that mem2reg could not promote (its address is taken), in this function.
    Stack(FuncId),
    /// A heap allocation site (`malloc`, `calloc`, `realloc`, ...) in this function.
    Heap(FuncId),
}

/// A memory object: the unit the points-to analysis reasons about.
#[derive(Clone, Debug)]
pub struct Object {
    /// What it is.
    pub kind: ObjectKind,
    /// A readable name (`x`, `main::buf`, `heap@f.c:12`).
    pub name: String,
    /// The type layout; `None` when unknown (heap blobs, opaque types).
    pub layout: Option<Layout>,
    /// Where it is declared or allocated.
    pub span: Option<Span>,
}

/// A named value that feeds an assertion's condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondVar {
    /// The source name: a variable's, or that of the global a load reads (`g`, `dev.count`).
    pub name: String,
    /// The var of the assertion's function that holds it.
    pub var: VarId,
    /// The signedness of what it names (the variable's or the memory's C type). Display only.
    pub sign: Signedness,
}

/// One assertion site of the program.
#[derive(Clone, Debug)]
pub struct AssertInfo {
    /// The function that contains it.
    pub func: FuncId,
    /// What source construct it comes from.
    pub kind: AssertKind,
    /// Where the assertion is (the `assert(...)` / call expression).
    pub span: Option<Span>,
    /// The condition as written (`"x > 0"`), or the called function's name for `reach_error()`.
    pub condition: String,
    /// Named values that feed the condition, for diagnostics. Their intervals are shown when
    /// the assertion may fail.
    pub cond_vars: Vec<CondVar>,
    /// For `AssertKind::Macro`: the blocks whose branch checks the condition (their false edge
    /// leads to the failure block). The assertion is reached when one of them is, or when the
    /// `Assert` instruction is; it fails when the `Assert` instruction is reached. Empty when
    /// the failing block is itself the check (`if (x) assert(0);`).
    pub guard_blocks: Vec<BlockId>,
}
