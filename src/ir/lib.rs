//! The C library as watts models it: one enum, [`LibFn`], of the library functions (the C
//! library, pthreads, C11 threads, the SV-COMP verifier functions, and the LLVM intrinsics
//! that stand for library calls) that some stage treats apart from an unknown function, and
//! one table of their properties, [`Props`], a row each.
//!
//! The front end classifies every function once, from its name (`Function::lib`, by
//! `frontend::library`), and lowers calls by the rows (a lock, an allocation, an assertion
//! site); every later stage reads the row of the enum (`LibFn::props`), never a name. Adding a
//! function is one row of `library!` below; a column is added when some stage asks a new
//! question, with a doc comment that says what it means and who reads it. A later reader of
//! an instruction gets to the row from a direct call's callee:
//! `program.funcs[g.index()].library_props()`.
//!
//! A row is either one function (`Named::Exact`) or a family the classifier recognises by a
//! part of the name (`Named::Prefix`: every other `pthread_mutex_*` function; `Named::Contains`:
//! every name that contains `setjmp`). The classifier prefers an exact row, then a `Contains`
//! row, then the longest prefix; a row of a function has every property its families' rows
//! have (a test checks it).
//!
//! Invariant: the table says what the C library does (POSIX, C11); what a stage concludes from
//! it (and every soundness argument) stays with that stage. The columns keep each stage's own
//! answer, including where two stages answer a similar question differently (the
//! `writes_only_args` list of the points-to analysis and the `race` roles of the race check are
//! two columns).

/// The synchronisation object a pointer argument of a synchronisation function points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncObj {
    /// A `pthread_mutex_t` (or C11's `mtx_t`, the same object in glibc and musl).
    Mutex,
    /// A `pthread_cond_t` (or C11's `cnd_t`).
    Cond,
    /// A `pthread_rwlock_t`.
    RwLock,
    /// A `pthread_spinlock_t` (a `volatile int` in glibc and musl).
    Spin,
}

/// What a call does to the lock it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncOp {
    /// Takes the lock of its first argument (the front end lowers the call to
    /// `InstKind::Lock`); `exclusive` is false for a read lock (`pthread_rwlock_rdlock`).
    Lock {
        /// Whether no other thread holds the lock at the same time.
        exclusive: bool,
    },
    /// Releases the lock of its first argument (lowered to `InstKind::Unlock`).
    Unlock,
    /// Takes the lock of its first argument only when it returns 0, and never releases one;
    /// `exclusive` is false for a read lock (`pthread_rwlock_tryrdlock`).
    TryLock {
        /// Whether no other thread holds the lock at the same time once taken.
        exclusive: bool,
    },
    /// `pthread_cond_wait(c, m)`: releases the mutex `m` while it waits and takes it again
    /// before it returns; `timed` when it may also return on a timeout.
    CondWait {
        /// Whether the wait has a timeout (`pthread_cond_timedwait`).
        timed: bool,
    },
}

/// What a semaphore function does to the count of the semaphore its first argument points to
/// (POSIX `sem_*`; XBD 4.12 lists `sem_post` and the waits among the functions that
/// synchronise memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SemOp {
    /// `sem_init(s, pshared, value)`: sets the count to `value`.
    Init,
    /// `sem_post`: raises the count by one.
    Post,
    /// Lowers the count by one when it returns 0, and only then; it returns -1 otherwise.
    Wait {
        /// It fails only when a signal handler interrupts it (`sem_wait`: `EINTR`; `EINVAL`
        /// is not a semaphore), never because the count stays 0 (`sem_trywait`: `EAGAIN`,
        /// `sem_timedwait`: `ETIMEDOUT`).
        interrupted_only: bool,
    },
    /// `sem_destroy`.
    Destroy,
}

/// What a barrier function does to the barrier its first argument points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierOp {
    /// `pthread_barrier_init(b, attr, count)`: `count` threads must wait to end a phase.
    Init,
    /// `pthread_barrier_wait`: returns when `count` threads have called it since the last
    /// phase ended (POSIX: a signal handler does not end the wait, the thread waits again).
    Wait,
    /// `pthread_barrier_destroy`.
    Destroy,
}

/// The threads API a function belongs to, by the prefix of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    /// `pthread_*`.
    Pthread,
    /// `sem_*`.
    Semaphore,
    /// C11 `<threads.h>`: `thrd_*`, `mtx_*`, `cnd_*`, `call_once`.
    C11Threads,
    /// The SV-COMP verifier functions, `__VERIFIER_*`.
    Verifier,
}

/// How a call of the function may end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ends {
    /// Nothing known: it returns, or ends as its `noreturn` attribute says.
    Unknown,
    /// It ends the process, never the calling thread alone (`exit`, `abort`, `err`).
    Process,
    /// It may end the calling thread alone (`pthread_exit`, `thrd_exit`, the exit system call).
    Thread,
}

/// What a library function does to what one pointer argument points to, for the race check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgAccess {
    /// Nothing: not program data (a `FILE *`, a size), or not a pointer.
    None,
    /// Reads it.
    Read,
    /// Writes (and may read) it.
    Write,
}

/// What the race check counts a call of the function as touching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallTouch {
    /// A synchronisation or thread function: its accesses to its objects are not data
    /// accesses (they order and exclude, and are atomic), so it touches nothing.
    NotData,
    /// Known: `leading[i]` for the `i`-th argument, `rest` for every further (variadic) one.
    Args {
        /// The roles of the leading arguments.
        leading: &'static [ArgAccess],
        /// The role of any further argument.
        rest: ArgAccess,
    },
    /// Not known: assumed to write what its pointer arguments point to (the report says so).
    Assumed,
}

/// Where a pointer parameter of a synchronous callback points, when the library passes it
/// something its own arguments point to (`CallbackArgs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamFrom {
    /// Somewhere in the objects the call's arguments at these indexes point into (an element
    /// of the array `base` points into, `qsort`).
    Within(&'static [usize]),
    /// The call's argument at this index itself (`bsearch`'s `key`, `qsort_r`'s `arg`).
    Arg(usize),
}

/// What a library function that calls back during the call passes to the callback's pointer
/// parameters, when that is memory of the call's arguments, never the library's own (C11
/// 7.22.5p2: `qsort`'s comparator gets pointers to elements of the array, `bsearch`'s the key
/// and an element).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallbackArgs {
    /// The index of the argument that is the callback.
    pub callback: usize,
    /// Per parameter of the callback, in order: where it points. A parameter past the list
    /// gets nothing known.
    pub params: &'static [ParamFrom],
}

/// State the C library keeps between calls, in memory the program cannot name, that POSIX does
/// not require to be thread-safe (XSH 2.9.1 lists the functions that need not be): the
/// functions of one group share one piece of it (`rand` and `srand` the seed, `localtime` and
/// `gmtime` the `struct tm` they return, `getenv` and `setenv` the environment). Two calls
/// that use one piece from threads that nothing orders may race on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HiddenState {
    /// `strtok`'s save pointer (and the string it points into).
    Strtok,
    /// The seed of `rand`, `srand`, `random`, `srandom` (glibc's `rand` is `random`).
    RandSeed,
    /// The state of `drand48` and its family (`srand48`, `seed48`, `lcong48`, ...).
    Rand48,
    /// The static `struct tm` and string of `localtime`, `gmtime`, `ctime`, `asctime`, and the
    /// time zone they read (`tzset`).
    TimeBuffer,
    /// The environment (`getenv` reads it; `setenv`, `unsetenv`, `putenv`, `clearenv` write).
    Environment,
    /// The string `strerror` returns.
    StrerrorBuffer,
    /// The string `strsignal` returns.
    StrsignalBuffer,
    /// What `readdir` returns (the entry of its directory stream).
    DirEntry,
    /// The user database: `getpwnam`, `getpwuid`, `getpwent` and their cursor.
    Passwd,
    /// The group database: `getgrnam`, `getgrgid`, `getgrent` and their cursor.
    Group,
    /// The network databases: `gethostbyname`, `getservbyname`, `getprotoent`, ...
    Netdb,
    /// The string `inet_ntoa` returns.
    InetNtoaBuffer,
    /// The string `dirname` returns.
    DirnameBuffer,
    /// The string `basename` returns.
    BasenameBuffer,
    /// The string `ttyname` returns.
    TtynameBuffer,
    /// The string `getlogin` returns.
    GetloginBuffer,
    /// The string `ptsname` returns.
    PtsnameBuffer,
    /// The string `l64a` returns.
    L64aBuffer,
    /// The locale (`setlocale` writes it; `localeconv` and `nl_langinfo` return its data).
    Locale,
    /// The shift state of `mblen`, `mbtowc`, `wctomb` (one each in glibc; one here).
    MultibyteState,
    /// `signgam`, which `lgamma` writes.
    Signgam,
    /// `getopt`'s `optind`, `optarg` and its position in the argument.
    Getopt,
    /// The hash table of `hcreate`, `hsearch`, `hdestroy`.
    Hsearch,
    /// The key and result of `crypt`, `encrypt`, `setkey`.
    Crypt,
    /// The user accounting database (`getutxent`, `pututxline`, ...).
    Utmpx,
    /// The result of `getdate` (and `getdate_err`).
    Getdate,
    /// The message `dlerror` returns.
    Dlerror,
    /// The string of `ecvt`, `fcvt`, `gcvt` (removed from POSIX in 2008).
    EcvtBuffer,
}

impl HiddenState {
    /// What it is, as a report names it.
    pub fn describe(self) -> &'static str {
        use HiddenState::*;
        match self {
            Strtok => "strtok's save pointer",
            RandSeed => "the seed of rand and random",
            Rand48 => "the state of drand48 and its family",
            TimeBuffer => "the static struct tm and string of localtime, gmtime, ctime and asctime",
            Environment => "the environment",
            StrerrorBuffer => "the string strerror returns",
            StrsignalBuffer => "the string strsignal returns",
            DirEntry => "the entry readdir returns",
            Passwd => "the user database's static result",
            Group => "the group database's static result",
            Netdb => "the network database's static result",
            InetNtoaBuffer => "the string inet_ntoa returns",
            DirnameBuffer => "the string dirname returns",
            BasenameBuffer => "the string basename returns",
            TtynameBuffer => "the string ttyname returns",
            GetloginBuffer => "the string getlogin returns",
            PtsnameBuffer => "the string ptsname returns",
            L64aBuffer => "the string l64a returns",
            Locale => "the locale",
            MultibyteState => "the shift state of mblen, mbtowc and wctomb",
            Signgam => "signgam",
            Getopt => "getopt's position and results",
            Hsearch => "the hash table of hsearch",
            Crypt => "the key and result of crypt",
            Utmpx => "the user accounting database's cursor",
            Getdate => "the result of getdate",
            Dlerror => "the message of dlerror",
            EcvtBuffer => "the string of ecvt, fcvt and gcvt",
        }
    }
}

/// How `watts confirm`'s interpreter (`explore::interp`) executes a call of a declared
/// function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Run {
    /// `pthread_mutex_trylock` and friends: visible; 0 and the lock, or `busy` (`EBUSY` for
    /// pthreads; `thrd_busy` for C11's `mtx_trylock`, `thrd_timedout` for `mtx_timedlock`).
    TryLock {
        /// What a call that does not take the lock returns.
        busy: i32,
    },
    /// `pthread_cond_wait(c, m)` (and timed): releases `m`, then waits to lock it again.
    CondWait,
    /// Initialisation, destruction, signals, yields: no effect, returns 0.
    Zero,
    /// Output and sleeping: no effect on the program's memory, result unknown.
    NoEffect,
    /// `free`: ends a heap block (visible: other threads may use the block).
    Free,
    /// `pthread_self`, `thrd_current`: the thread's id.
    SelfTid,
    /// `pthread_equal`, `thrd_equal`.
    Equal,
    /// `strlen`: reads the string (visible unless it is local or constant).
    Strlen,
    /// `pthread_key_create(&k, dtor)`: a new key (visible: it writes `k` and the key table).
    KeyCreate,
    /// `pthread_key_delete(k)` (visible).
    KeyDelete,
    /// `pthread_getspecific(k)`: the running thread's value of the key (local).
    GetSpecific,
    /// `pthread_setspecific(k, v)` (local).
    SetSpecific,
    /// Anything else: an unknown function, which may write whatever memory its pointer
    /// arguments reach.
    Unknown,
}

/// How the classifier matches a row's `name` against a function's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Named {
    /// The name is `name`.
    Exact,
    /// The name starts with `name` (a family: every other `pthread_mutex_*` function).
    Prefix,
    /// The name contains `name` (`__sigsetjmp`, `my_setjmp` for `setjmp`).
    Contains,
}

/// One row of the table: what watts knows of one library function (or family).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Props {
    /// The C name (the prefix, or the part of the name, for a family: see `named`). Read by
    /// the front end's classifier.
    pub name: &'static str,
    /// How the classifier matches `name`.
    pub named: Named,
    /// The threads API of the name (its prefix, but C11's `call_once`). Read by
    /// `analysis::races::touch` (through `race`, whose rows agree: a threads API's function
    /// touches no data, or says which of its arguments it reads or writes) and
    /// `analysis::sync::locks` (a `pthread_*`, `sem_*` or C11 function may release locks even
    /// when it writes only its arguments).
    pub api: Option<Api>,
    /// Its effect on memory is known: it writes at most what its pointer arguments point to,
    /// keeps no pointer, calls no program code and turns no address into data that comes back
    /// later (the printf family's variadic pointers and the `str*cpy` copies are handled in
    /// `PointsTo::call`). Everything else that is only declared is an unknown function, which
    /// may read and write every exposed object. Read by `memory::points_to`
    /// (`PointsTo::writes_only_args`, which `facts`, the transfer functions, `sync::locks` and
    /// the foreign-code test of `memory` go through), `threads::cfg`, `harness::keys` and
    /// `harness::discover`.
    ///
    /// Soundness: `pthread_once` and `call_once` (run their init routine), `pthread_key_create` (its destructor
    /// runs at thread exit) and `pthread_setspecific`/`pthread_getspecific` (keep a pointer and
    /// hand it back) do not have it: as unknown functions they expose their arguments, so the
    /// routines are analysed as detached roots and the kept pointers are `unknown` when they
    /// come back. Output functions write into a buffer the program may own (`setvbuf`,
    /// `fmemopen`): `PointsTo::writes_only_args` drops them in such programs.
    pub writes_only_args: bool,
    /// An output function: it writes into the stdio buffer of its stream, which may be the
    /// program's (`setvbuf`). Read by `memory::points_to`.
    pub stdio_output: bool,
    /// It hands program memory to stdio, which later output writes into (`setvbuf`,
    /// `fmemopen`). Read by `memory::points_to`: a program that declares one makes the output
    /// functions unknown.
    pub stdio_buffer: bool,
    /// It calls the functions it is given only during the call, in the calling thread
    /// (`qsort`, `bsearch`: POSIX). Read by `memory::points_to` (they are not called back at
    /// any time) and `analysis::races::contexts` (the race check runs them at the call).
    pub synchronous_callbacks: bool,
    /// What the callback's pointer parameters point into, when the library passes it memory
    /// of the call's arguments (`qsort`, `bsearch`, `lfind`), not its own (`tsearch`'s nodes,
    /// `ftw`'s `struct stat`, `scandir`'s entries: those rows have none). Read by
    /// `memory::points_to`, which binds the parameters to those arguments' points-to sets.
    pub callback_args: Option<CallbackArgs>,
    /// It runs the routine its second argument names at most once per control object its
    /// first argument points to, during the first call with that object and in the calling
    /// thread, and no call with the object returns before that run ended (`pthread_once`,
    /// POSIX; `call_once`, C11 7.26.2.1). Read by `threads::cfg` (the routine may call
    /// `longjmp`) and `analysis::races` (`contexts` runs the routine at the call, `order`
    /// orders its run before every return of such a call).
    pub once: bool,
    /// It copies bytes from its second argument into its first (`strcpy` and friends). Read by
    /// `memory::points_to`, which moves points-to contents like `MemCopy`.
    pub copies_bytes: bool,
    /// It hands out any function of external linkage by its name (`dlsym`). Read by
    /// `memory::points_to`: every such function may be called by unknown code.
    pub finds_functions: bool,
    /// After its call, code outside the program may run concurrently with it (`dlopen`,
    /// `dlsym`, asynchronous I/O, which writes its buffer after the call returns). Read by
    /// `harness::startup`, which then starts the unknown-code stand-in.
    pub foreign_code_after: bool,
    /// It may run a function it is given in a thread of its own, not in the calling thread
    /// (`timer_create` and `mq_notify` with `SIGEV_THREAD`, the notifications of asynchronous
    /// I/O). Read by `analysis::races::contexts`: in a program that calls one, every callback
    /// may run in any thread at any time.
    pub callbacks_elsewhere: bool,
    /// The synchronisation object its first two arguments point to, if any: a synchronisation
    /// function touches only its objects (POSIX), whatever their pointer fields may reach.
    /// Read by `facts` (`Facts::sync_object_cells`), `ir::SyncSizes::written_by`,
    /// `analysis::sync::protection`, `harness::discover` and `explore::interp`.
    pub sync_objects: [Option<SyncObj>; 2],
    /// What it does to a lock it is given. Read by `analysis::sync::locks` and
    /// `explore::interp`.
    pub sync_op: Option<SyncOp>,
    /// What it does to the count of a semaphore. Read by `analysis::races::order`.
    pub sem: Option<SemOp>,
    /// What it does to a barrier. Read by `analysis::races::order`.
    pub barrier: Option<BarrierOp>,
    /// It installs a signal handler (`signal`, `sigaction`), which may interrupt a blocking
    /// call of any thread (`EINTR`). Read by `analysis::races::order`: a `sem_wait` whose
    /// result is not checked counts as successful only in a program that declares none.
    pub catches_signals: bool,
    /// It makes a mutex robust (a robust mutex whose owner died is acquired with
    /// `EOWNERDEAD`, and may never be acquired again). Read by `analysis::sync::locks`.
    pub robust: bool,
    /// How a call may end. Read by `facts::ends`.
    pub ends: Ends,
    /// What the race check counts a call as touching. Read by `analysis::races::touch`.
    pub race: CallTouch,
    /// How the interpreter of `watts confirm` executes a call. Read by `explore::interp`.
    pub run: Run,
    /// The hidden state of the library it uses, and how (`ArgAccess::Read` or `Write`): POSIX
    /// does not require it to be thread-safe (XSH 2.9.1). Read by `analysis::races::touch`,
    /// which counts a call as an access of one location per `HiddenState`.
    pub hidden: Option<(HiddenState, ArgAccess)>,
    /// It calls no code of the program and takes or releases no lock, though it may keep a
    /// pointer or return the library's own memory (so it is not `writes_only_args`): `strtok`,
    /// `localtime`, every function with `hidden` state. Read by `analysis::sync::locks`, which
    /// keeps the locks held across its calls.
    pub leaves_locks: bool,
    /// Writes what the pointer argument at each index points to whenever the stream it
    /// returns is written or flushed later (`open_memstream(&buf, &size)` updates `buf` and
    /// `size` at every `fflush`, `fclose` and output on the stream). Read by
    /// `analysis::races::touch`, with `stream_update`.
    pub stream_keeps: &'static [usize],
    /// It may write or flush a stream, which updates what an `open_memstream` stream keeps
    /// (`stream_keeps`) when the stream is one. Read by `analysis::races::touch`.
    pub stream_update: bool,
    /// It registers its argument at this index as a function the C library calls when the
    /// process exits (`atexit`, `at_quick_exit`, `on_exit`, `__cxa_atexit`). Read by
    /// `analysis::races::contexts`, which runs such functions at the program's exits.
    pub exit_handler: Option<usize>,
    /// A call of it ends the process and runs the exit-time functions (destructors, `atexit`
    /// handlers) in the calling thread before it returns nothing: `exit` (and
    /// `quick_exit`, whose `at_quick_exit` handlers are counted the same), the `err` family.
    /// Read by `analysis::races::contexts`.
    pub runs_exit_handlers: bool,
    /// Control may come back to the point after a call of it again (`setjmp`, `getcontext`,
    /// `vfork`), besides what LLVM marks `returns_twice`. Read by `ir::once`.
    pub resumes: bool,
    /// It may return a second time, when a `longjmp` jumps to the buffer it filled (besides
    /// every function LLVM marks `returns_twice`): a call of it is a resume point
    /// (`Program::returns_twice`). Read by the front end (`calls`, `load`).
    pub returns_twice: bool,
    /// It jumps to the second return of a `setjmp` (`__longjmp_chk` is what `_FORTIFY_SOURCE`
    /// makes of `longjmp`): the front end ends the block with `Stop { LongJmp }`.
    pub longjmp: bool,
    /// A call of it is an assertion site of this kind (`__assert_fail`, `reach_error`,
    /// `__VERIFIER_assert`), and a definition of it an assertion helper whose own failure
    /// calls are not sites. Read by the front end (`calls`, `lower`).
    pub assertion: Option<AssertKind>,
    /// For an assert-failure function (`AssertKind::Macro`): the arguments that may hold the
    /// asserted expression's text, in order of preference. Read by the front end.
    pub assert_text: &'static [usize],
    /// It returns a fresh heap block (`malloc`, `strdup`): the front end lowers the call to
    /// `InstKind::HeapAlloc`.
    pub allocates: bool,
    /// An intrinsic with no effect the analysis cares about (debug info, lifetimes, hints):
    /// the front end drops the call (a used result is any value).
    pub ignored: bool,
}

/// The row of a function watts knows nothing of: what an unknown function may do.
const UNKNOWN: Props = Props {
    name: "",
    named: Named::Exact,
    api: None,
    writes_only_args: false,
    stdio_output: false,
    stdio_buffer: false,
    synchronous_callbacks: false,
    callback_args: None,
    once: false,
    copies_bytes: false,
    finds_functions: false,
    foreign_code_after: false,
    callbacks_elsewhere: false,
    sync_objects: [None, None],
    sync_op: None,
    sem: None,
    barrier: None,
    catches_signals: false,
    robust: false,
    ends: Ends::Unknown,
    race: CallTouch::Assumed,
    run: Run::Unknown,
    hidden: None,
    leaves_locks: false,
    stream_keeps: &[],
    stream_update: false,
    exit_handler: None,
    runs_exit_handlers: false,
    resumes: false,
    returns_twice: false,
    longjmp: false,
    assertion: None,
    assert_text: &[],
    allocates: false,
    ignored: false,
};

/// A function called `name`.
const fn f(name: &'static str) -> Props {
    Props { name, ..UNKNOWN }
}

/// Every function whose name starts with `name`.
const fn prefix(row: Props) -> Props {
    Props {
        named: Named::Prefix,
        ..row
    }
}

/// Every function whose name contains `name`.
const fn containing(name: &'static str) -> Props {
    Props {
        named: Named::Contains,
        ..f(name)
    }
}

/// A function of the threads API `api`: its accesses are not data accesses.
const fn api(api: Api, name: &'static str) -> Props {
    Props {
        api: Some(api),
        race: CallTouch::NotData,
        ..f(name)
    }
}

/// A `pthread_*` function.
const fn pthread(name: &'static str) -> Props {
    api(Api::Pthread, name)
}

/// A `pthread_*` function whose first argument points to a synchronisation object `obj`.
const fn sync(obj: SyncObj, name: &'static str) -> Props {
    Props {
        sync_objects: [Some(obj), None],
        ..pthread(name)
    }
}

/// `pthread_cond_*wait(c, m)`: a condition variable, then a mutex.
const fn cond_wait(name: &'static str) -> Props {
    Props {
        sync_objects: [Some(SyncObj::Cond), Some(SyncObj::Mutex)],
        ..pthread(name)
    }
}

/// A C11 `<threads.h>` function (`thrd_*`, `mtx_*`, `cnd_*`, `call_once`).
const fn c11(name: &'static str) -> Props {
    api(Api::C11Threads, name)
}

/// A C11 function whose first argument points to a synchronisation object `obj` (`mtx_t` is
/// a `pthread_mutex_t` and `cnd_t` a `pthread_cond_t` in glibc and musl, of the same sizes).
const fn c11_sync(obj: SyncObj, name: &'static str) -> Props {
    Props {
        sync_objects: [Some(obj), None],
        ..c11(name)
    }
}

/// `cnd_*wait(c, m)`: a condition variable, then a mutex.
const fn c11_cond_wait(name: &'static str) -> Props {
    Props {
        sync_objects: [Some(SyncObj::Cond), Some(SyncObj::Mutex)],
        ..c11(name)
    }
}

use super::AssertKind;
use ArgAccess::{None as N, Read as R, Write as W};
use ParamFrom::{Arg, Within};

/// The lock operations of the rows.
const LOCK: SyncOp = SyncOp::Lock { exclusive: true };
const READ_LOCK: SyncOp = SyncOp::Lock { exclusive: false };
const TRYLOCK: SyncOp = SyncOp::TryLock { exclusive: true };
const READ_TRYLOCK: SyncOp = SyncOp::TryLock { exclusive: false };
const WAIT: SyncOp = SyncOp::CondWait { timed: false };
const TIMED_WAIT: SyncOp = SyncOp::CondWait { timed: true };

/// What a trylock that finds the lock taken returns: `EBUSY` (Linux) for pthreads; C11's
/// `thrd_busy` and `thrd_timedout` (glibc's and musl's `<threads.h>`: `thrd_success` 0,
/// `thrd_busy` 1, `thrd_error` 2, `thrd_nomem` 3, `thrd_timedout` 4).
const EBUSY: i32 = 16;
const THRD_BUSY: i32 = 1;
const THRD_TIMEDOUT: i32 = 4;
const TRY_EBUSY: Run = Run::TryLock { busy: EBUSY };

/// The semaphore waits: `sem_wait` fails only when interrupted, the others also when the count
/// stays 0.
const SEM_WAIT: SemOp = SemOp::Wait {
    interrupted_only: true,
};
const SEM_TRYWAIT: SemOp = SemOp::Wait {
    interrupted_only: false,
};

impl Props {
    /// Writes only what its arguments point to (`writes_only_args`).
    const fn known(self) -> Props {
        Props {
            writes_only_args: true,
            ..self
        }
    }

    /// An output function (`stdio_output`).
    const fn output(self) -> Props {
        Props {
            stdio_output: true,
            ..self
        }
    }

    /// The race check's roles of its arguments (`race`).
    const fn touches(self, leading: &'static [ArgAccess], rest: ArgAccess) -> Props {
        Props {
            race: CallTouch::Args { leading, rest },
            ..self
        }
    }

    /// Uses the library's hidden state `state` (`hidden`): reads it (`R`) or writes it (`W`).
    /// Such a function calls no code of the program and no lock function (`leaves_locks`).
    const fn hidden(self, state: HiddenState, access: ArgAccess) -> Props {
        Props {
            hidden: Some((state, access)),
            leaves_locks: true,
            ..self
        }
    }

    /// Calls no code of the program and no lock function (`leaves_locks`).
    const fn leaves_locks(self) -> Props {
        Props {
            leaves_locks: true,
            ..self
        }
    }

    /// Keeps the pointer arguments `args` for its stream (`stream_keeps`).
    const fn keeps_for_stream(self, args: &'static [usize]) -> Props {
        Props {
            stream_keeps: args,
            ..self
        }
    }

    /// Writes or flushes a stream (`stream_update`).
    const fn updates_stream(self) -> Props {
        Props {
            stream_update: true,
            ..self
        }
    }

    /// Registers an exit-time function, its argument `arg` (`exit_handler`).
    const fn registers_exit(self, arg: usize) -> Props {
        Props {
            exit_handler: Some(arg),
            ..self
        }
    }

    /// Runs the exit-time functions and ends the process (`runs_exit_handlers`, `ends`).
    const fn exits(self) -> Props {
        Props {
            runs_exit_handlers: true,
            ends: Ends::Process,
            ..self
        }
    }

    /// How the interpreter executes it (`run`).
    const fn run(self, run: Run) -> Props {
        Props { run, ..self }
    }

    /// How a call may end (`ends`).
    const fn ends(self, ends: Ends) -> Props {
        Props { ends, ..self }
    }

    /// A lock operation (`sync_op`).
    const fn op(self, op: SyncOp) -> Props {
        Props {
            sync_op: Some(op),
            ..self
        }
    }

    /// Hands a buffer to stdio (`stdio_buffer`).
    const fn stdio_buffer(self) -> Props {
        Props {
            stdio_buffer: true,
            ..self
        }
    }

    /// Calls back during the call only (`synchronous_callbacks`).
    const fn synchronous(self) -> Props {
        Props {
            synchronous_callbacks: true,
            ..self
        }
    }

    /// Calls back during the call only, with pointers into its arguments (`synchronous_callbacks`,
    /// `callback_args`): the callback is argument `callback`, its parameters point as `params`
    /// says.
    const fn calls_back_with(self, callback: usize, params: &'static [ParamFrom]) -> Props {
        Props {
            synchronous_callbacks: true,
            callback_args: Some(CallbackArgs { callback, params }),
            ..self
        }
    }

    /// Runs its routine once per control object (`once`).
    const fn runs_once(self) -> Props {
        Props { once: true, ..self }
    }

    /// Copies bytes (`copies_bytes`).
    const fn copies(self) -> Props {
        Props {
            copies_bytes: true,
            ..self
        }
    }

    /// Code outside the program may run after it (`foreign_code_after`).
    const fn foreign(self) -> Props {
        Props {
            foreign_code_after: true,
            ..self
        }
    }

    /// May run the functions it is given in a thread of its own (`callbacks_elsewhere`).
    const fn notifies_elsewhere(self) -> Props {
        Props {
            callbacks_elsewhere: true,
            ..self
        }
    }

    /// Hands out functions by name (`finds_functions`).
    const fn by_name(self) -> Props {
        Props {
            finds_functions: true,
            ..self
        }
    }

    /// A semaphore operation (`sem`).
    const fn sem(self, op: SemOp) -> Props {
        Props {
            sem: Some(op),
            ..self
        }
    }

    /// A barrier operation (`barrier`).
    const fn barrier(self, op: BarrierOp) -> Props {
        Props {
            barrier: Some(op),
            ..self
        }
    }

    /// Installs a signal handler (`catches_signals`).
    const fn catches_signals(self) -> Props {
        Props {
            catches_signals: true,
            ..self
        }
    }

    /// Makes a mutex robust (`robust`).
    const fn robust(self) -> Props {
        Props {
            robust: true,
            ..self
        }
    }

    /// Control may come back after it (`resumes`).
    const fn resumes(self) -> Props {
        Props {
            resumes: true,
            ..self
        }
    }

    /// May return twice (`returns_twice`).
    const fn twice(self) -> Props {
        Props {
            returns_twice: true,
            ..self
        }
    }

    /// Jumps to a `setjmp` (`longjmp`).
    const fn jumps(self) -> Props {
        Props {
            longjmp: true,
            ..self
        }
    }

    /// An assertion site (`assertion`), with the arguments holding its text (`assert_text`).
    const fn asserts(self, kind: AssertKind, text: &'static [usize]) -> Props {
        Props {
            assertion: Some(kind),
            assert_text: text,
            ..self
        }
    }

    /// Returns a fresh heap block (`allocates`).
    const fn allocates(self) -> Props {
        Props {
            allocates: true,
            ..self
        }
    }

    /// An intrinsic the analysis ignores (`ignored`).
    const fn ignored(self) -> Props {
        Props {
            ignored: true,
            ..self
        }
    }
}

/// Defines [`LibFn`] with one variant per row, [`LibFn::ALL`] and [`LibFn::props`].
macro_rules! library {
    ($($(#[doc = $doc:literal])* $v:ident = $row:expr;)*) => {
        /// A library function (or family) watts models: see the module documentation.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum LibFn {
            $($(#[doc = $doc])* $v,)*
        }

        impl LibFn {
            /// Every row, in the order of the table.
            pub const ALL: &'static [LibFn] = &[$(LibFn::$v,)*];

            /// Its row of the table.
            pub fn props(self) -> &'static Props {
                match self {
                    $(LibFn::$v => {
                        const ROW: Props = $row;
                        &ROW
                    })*
                }
            }
        }
    };
}

use HiddenState::{
    BasenameBuffer, DirEntry, DirnameBuffer, EcvtBuffer, Environment, GetloginBuffer, Group,
    InetNtoaBuffer, L64aBuffer, Locale, MultibyteState, Netdb, Passwd, PtsnameBuffer, Rand48,
    RandSeed, Signgam, StrerrorBuffer, StrsignalBuffer, TimeBuffer, TtynameBuffer, Utmpx,
};
use Run::{
    CondWait, Equal, Free, GetSpecific, KeyCreate, KeyDelete, NoEffect, SelfTid, SetSpecific,
    Strlen, Zero,
};
use SyncObj::{Cond, Mutex, RwLock, Spin};

library! {
    // Output (stdio). `known`: the points-to analysis's functions of known effect.
    Printf = f("printf").known().output().touches(&[R], R).updates_stream().run(NoEffect);
    Fprintf = f("fprintf").known().output().touches(&[N, R], R).updates_stream().run(NoEffect);
    Dprintf = f("dprintf").touches(&[N, R], R);
    Sprintf = f("sprintf").known().touches(&[W, R], R);
    Snprintf = f("snprintf").known().touches(&[W, N, R], R);
    Vprintf = f("vprintf").known().output().touches(&[R, N], N).updates_stream();
    Vfprintf = f("vfprintf").touches(&[N, R, N], N).updates_stream();
    Vsnprintf = f("vsnprintf").touches(&[W, N, R, N], N);
    Vsprintf = f("vsprintf").touches(&[W, R, N], N);
    Puts = f("puts").known().output().touches(&[R], N).updates_stream().run(NoEffect);
    Fputs = f("fputs").known().output().touches(&[R, N], N).updates_stream().run(NoEffect);
    Putchar = f("putchar").known().output().touches(&[], N).updates_stream().run(NoEffect);
    Putc = f("putc").known().output().touches(&[], N).updates_stream().run(NoEffect);
    Fputc = f("fputc").known().output().touches(&[], N).updates_stream().run(NoEffect);
    Perror = f("perror").known().output().touches(&[R], N).updates_stream();
    Fflush = f("fflush").known().output().touches(&[], N).updates_stream().run(NoEffect);
    Fwrite = f("fwrite").touches(&[R], N).updates_stream();
    Fread = f("fread").touches(&[W], N);
    Fgets = f("fgets").touches(&[W], N);
    Write = f("write").touches(&[N, R], N);
    Read = f("read").touches(&[N, W], N);
    Send = f("send").touches(&[N, R], N);
    Recv = f("recv").touches(&[N, W], N);
    /// Flushes the stream (an `open_memstream` stream updates its buffer and size).
    Fclose = f("fclose").touches(&[], N).updates_stream();
    Fseek = f("fseek").updates_stream();
    Fseeko = f("fseeko").updates_stream();
    Fsetpos = f("fsetpos").updates_stream();
    Rewind = f("rewind").updates_stream();
    // Functions that hand program memory to stdio, which later output writes into.
    Setvbuf = f("setvbuf").stdio_buffer();
    Setbuf = f("setbuf").stdio_buffer();
    Setbuffer = f("setbuffer").stdio_buffer();
    Setlinebuf = f("setlinebuf").stdio_buffer();
    Fmemopen = f("fmemopen").stdio_buffer();
    /// `open_memstream(&buf, &size)`: the stream writes `buf` and `size` at every later flush
    /// (`stream_keeps`).
    OpenMemstream = f("open_memstream").stdio_buffer().keeps_for_stream(&[0, 1]);
    OpenWmemstream = f("open_wmemstream").stdio_buffer().keeps_for_stream(&[0, 1]);
    Fopencookie = f("fopencookie").stdio_buffer();
    Funopen = f("funopen").stdio_buffer();
    // Memory (the front end lowers these calls to `HeapAlloc`, `MemSet` and `MemCopy`).
    Malloc = f("malloc").allocates();
    Calloc = f("calloc").allocates();
    Realloc = f("realloc").allocates();
    AlignedAlloc = f("aligned_alloc").allocates();
    Valloc = f("valloc").allocates();
    Alloca = f("alloca").allocates();
    Memset = f("memset");
    Memcpy = f("memcpy");
    Memmove = f("memmove");
    // libatomic's generic atomics, which clang calls for an `_Atomic` object that is not lock
    // free (a struct larger or less aligned than the machine's atomics): `__atomic_load(size,
    // src, ret, order)`, `__atomic_store(size, dst, val, order)`, `__atomic_exchange(size, ptr,
    // val, ret, order)`. The front end lowers them to copies inside an atomic section (libatomic
    // runs them under a lock of its own).
    AtomicLoadGeneric = f("__atomic_load");
    AtomicStoreGeneric = f("__atomic_store");
    AtomicExchangeGeneric = f("__atomic_exchange");
    // Strings.
    Strlen = f("strlen").known().touches(&[R], N).run(Strlen);
    Strnlen = f("strnlen").known().touches(&[R], N);
    Strcmp = f("strcmp").known().touches(&[R, R], N);
    Strncmp = f("strncmp").known().touches(&[R, R], N);
    Strcasecmp = f("strcasecmp").touches(&[R, R], N);
    Strncasecmp = f("strncasecmp").touches(&[R, R], N);
    Memcmp = f("memcmp").known().touches(&[R, R], N);
    Strchr = f("strchr").known().touches(&[R], N);
    Strrchr = f("strrchr").known().touches(&[R], N);
    Memchr = f("memchr").touches(&[R], N);
    Strstr = f("strstr").known().touches(&[R, R], N);
    Strcasestr = f("strcasestr").touches(&[R, R], N);
    Strpbrk = f("strpbrk").touches(&[R, R], N);
    Strspn = f("strspn").touches(&[R, R], N);
    Strcspn = f("strcspn").touches(&[R, R], N);
    Strcoll = f("strcoll").touches(&[R, R], N);
    Strdup = f("strdup").allocates().touches(&[R], N);
    Strndup = f("strndup").allocates().touches(&[R], N);
    Strcpy = f("strcpy").known().copies().touches(&[W, R], N);
    Strncpy = f("strncpy").known().copies().touches(&[W, R], N);
    Strcat = f("strcat").known().copies().touches(&[W, R], N);
    Strncat = f("strncat").known().copies().touches(&[W, R], N);
    /// Keeps a pointer into its string between calls (its hidden save pointer).
    Strtok = f("strtok").touches(&[W, R], N).hidden(HiddenState::Strtok, W);
    /// Reads and writes the caller's save pointer `*saveptr` (its third argument).
    StrtokR = f("strtok_r").touches(&[W, R, W], N).leaves_locks();
    // Functions that return (or fill) a static buffer of the library (XSH 2.9.1).
    Strerror = f("strerror").touches(&[], N).hidden(StrerrorBuffer, W);
    Strsignal = f("strsignal").touches(&[], N).hidden(StrsignalBuffer, W);
    /// May modify its argument.
    Dirname = f("dirname").touches(&[W], N).hidden(DirnameBuffer, W);
    Basename = f("basename").touches(&[R], N).hidden(BasenameBuffer, W);
    /// `basename` of `<libgen.h>`, which may modify its argument.
    XpgBasename = f("__xpg_basename").touches(&[W], N).hidden(BasenameBuffer, W);
    InetNtoa = f("inet_ntoa").touches(&[], N).hidden(InetNtoaBuffer, W);
    Ttyname = f("ttyname").touches(&[], N).hidden(TtynameBuffer, W);
    Getlogin = f("getlogin").touches(&[], N).hidden(GetloginBuffer, W);
    Ptsname = f("ptsname").touches(&[], N).hidden(PtsnameBuffer, W);
    L64a = f("l64a").touches(&[], N).hidden(L64aBuffer, W);
    Ecvt = f("ecvt").touches(&[N, N, W, W], N).hidden(EcvtBuffer, W);
    Fcvt = f("fcvt").touches(&[N, N, W, W], N).hidden(EcvtBuffer, W);
    Readdir = f("readdir").touches(&[], N).hidden(DirEntry, W);
    Readdir64 = f("readdir64").touches(&[], N).hidden(DirEntry, W);
    Getdate = f("getdate").touches(&[R], N).hidden(HiddenState::Getdate, W);
    Dlerror = f("dlerror").touches(&[], N).hidden(HiddenState::Dlerror, W);
    // The databases and their cursors.
    Getpwnam = f("getpwnam").touches(&[R], N).hidden(Passwd, W);
    Getpwuid = f("getpwuid").touches(&[], N).hidden(Passwd, W);
    Getpwent = f("getpwent").touches(&[], N).hidden(Passwd, W);
    Setpwent = f("setpwent").touches(&[], N).hidden(Passwd, W);
    Endpwent = f("endpwent").touches(&[], N).hidden(Passwd, W);
    Getgrnam = f("getgrnam").touches(&[R], N).hidden(Group, W);
    Getgrgid = f("getgrgid").touches(&[], N).hidden(Group, W);
    Getgrent = f("getgrent").touches(&[], N).hidden(Group, W);
    Setgrent = f("setgrent").touches(&[], N).hidden(Group, W);
    Endgrent = f("endgrent").touches(&[], N).hidden(Group, W);
    Gethostbyname = f("gethostbyname").touches(&[R], N).hidden(Netdb, W);
    Gethostbyaddr = f("gethostbyaddr").touches(&[R], N).hidden(Netdb, W);
    Gethostent = f("gethostent").touches(&[], N).hidden(Netdb, W);
    Getnetbyname = f("getnetbyname").touches(&[R], N).hidden(Netdb, W);
    Getnetbyaddr = f("getnetbyaddr").touches(&[], N).hidden(Netdb, W);
    Getnetent = f("getnetent").touches(&[], N).hidden(Netdb, W);
    Getprotobyname = f("getprotobyname").touches(&[R], N).hidden(Netdb, W);
    Getprotobynumber = f("getprotobynumber").touches(&[], N).hidden(Netdb, W);
    Getprotoent = f("getprotoent").touches(&[], N).hidden(Netdb, W);
    Getservbyname = f("getservbyname").touches(&[R, R], N).hidden(Netdb, W);
    Getservbyport = f("getservbyport").touches(&[N, R], N).hidden(Netdb, W);
    Getservent = f("getservent").touches(&[], N).hidden(Netdb, W);
    Getutxent = f("getutxent").touches(&[], N).hidden(Utmpx, W);
    Getutxid = f("getutxid").touches(&[R], N).hidden(Utmpx, W);
    Getutxline = f("getutxline").touches(&[R], N).hidden(Utmpx, W);
    Pututxline = f("pututxline").touches(&[R], N).hidden(Utmpx, W);
    Setutxent = f("setutxent").touches(&[], N).hidden(Utmpx, W);
    Endutxent = f("endutxent").touches(&[], N).hidden(Utmpx, W);
    // The locale, multibyte shift states, `getopt`, `hsearch`, `crypt`.
    Setlocale = f("setlocale").touches(&[N, R], N).hidden(Locale, W);
    Localeconv = f("localeconv").touches(&[], N).hidden(Locale, W);
    NlLanginfo = f("nl_langinfo").touches(&[], N).hidden(Locale, R);
    Mblen = f("mblen").touches(&[R], N).hidden(MultibyteState, W);
    Mbtowc = f("mbtowc").touches(&[W, R], N).hidden(MultibyteState, W);
    Wctomb = f("wctomb").touches(&[W], N).hidden(MultibyteState, W);
    /// Permutes `argv` (GNU) and writes `optind`, `optarg`.
    Getopt = f("getopt").touches(&[N, W, R], N).hidden(HiddenState::Getopt, W);
    GetoptLong = f("getopt_long").touches(&[N, W, R, R, W], N)
        .hidden(HiddenState::Getopt, W);
    Hcreate = f("hcreate").touches(&[], N).hidden(HiddenState::Hsearch, W);
    /// Keeps the pointers of its entry.
    Hsearch = f("hsearch").hidden(HiddenState::Hsearch, W);
    Hdestroy = f("hdestroy").touches(&[], N).hidden(HiddenState::Hsearch, W);
    Crypt = f("crypt").touches(&[R, R], N).hidden(HiddenState::Crypt, W);
    Encrypt = f("encrypt").touches(&[W, N], N).hidden(HiddenState::Crypt, W);
    Setkey = f("setkey").touches(&[R], N).hidden(HiddenState::Crypt, W);
    // Conversions and the environment.
    Atoi = f("atoi").known().touches(&[R], N);
    Atol = f("atol").known().touches(&[R], N);
    Atoll = f("atoll").touches(&[R], N);
    Atof = f("atof").touches(&[R], N);
    Strtol = f("strtol").touches(&[R, W], N);
    Strtoul = f("strtoul").touches(&[R, W], N);
    Strtoll = f("strtoll").touches(&[R, W], N);
    Strtoull = f("strtoull").touches(&[R, W], N);
    Strtod = f("strtod").touches(&[R, W], N);
    // The environment (XSH 2.9.1: `getenv`, `setenv`, `unsetenv`, `putenv` need not be
    // thread-safe; they share it).
    Getenv = f("getenv").touches(&[R], N).hidden(Environment, R);
    SecureGetenv = f("secure_getenv").touches(&[R], N).hidden(Environment, R);
    Setenv = f("setenv").touches(&[R, R], N).hidden(Environment, W);
    Unsetenv = f("unsetenv").touches(&[R], N).hidden(Environment, W);
    /// Keeps its string as part of the environment.
    Putenv = f("putenv").touches(&[R], N).hidden(Environment, W);
    Clearenv = f("clearenv").touches(&[], N).hidden(Environment, W);
    // Time and sleeping.
    /// Returns the library's static `struct tm`, as `gmtime` does.
    Localtime = f("localtime").touches(&[R], N).hidden(TimeBuffer, W);
    Gmtime = f("gmtime").touches(&[R], N).hidden(TimeBuffer, W);
    Ctime = f("ctime").touches(&[R], N).hidden(TimeBuffer, W);
    Asctime = f("asctime").touches(&[R], N).hidden(TimeBuffer, W);
    Time = f("time").known().touches(&[W], N);
    Gettimeofday = f("gettimeofday").touches(&[W, N], N);
    ClockGettime = f("clock_gettime").touches(&[N, W], N);
    Nanosleep = f("nanosleep").known().touches(&[R, W], N);
    Sleep = f("sleep").known().touches(&[], N).run(NoEffect);
    Usleep = f("usleep").known().touches(&[], N).run(NoEffect);
    // Numbers, characters, the process.
    // Pseudo-random numbers: one seed for `rand` and `random` (glibc's `rand` is `random`;
    // XSH 2.9.1 lists `rand`), one state for the `drand48` family.
    Rand = f("rand").known().touches(&[], N).hidden(RandSeed, W);
    Srand = f("srand").known().touches(&[], N).hidden(RandSeed, W);
    Random = f("random").known().touches(&[], N).hidden(RandSeed, W);
    Srandom = f("srandom").known().touches(&[], N).hidden(RandSeed, W);
    Drand48 = f("drand48").known().touches(&[], N).hidden(Rand48, W);
    Lrand48 = f("lrand48").known().touches(&[], N).hidden(Rand48, W);
    Mrand48 = f("mrand48").known().touches(&[], N).hidden(Rand48, W);
    Erand48 = f("erand48").known().touches(&[W], N).hidden(Rand48, R);
    Nrand48 = f("nrand48").known().touches(&[W], N).hidden(Rand48, R);
    Jrand48 = f("jrand48").known().touches(&[W], N).hidden(Rand48, R);
    Srand48 = f("srand48").known().touches(&[], N).hidden(Rand48, W);
    /// Returns the library's own buffer.
    Seed48 = f("seed48").touches(&[R], N).hidden(Rand48, W);
    Lcong48 = f("lcong48").known().touches(&[R], N).hidden(Rand48, W);
    /// `lgamma` writes the global `signgam`.
    Lgamma = f("lgamma").known().touches(&[], N).hidden(Signgam, W);
    Lgammaf = f("lgammaf").known().touches(&[], N).hidden(Signgam, W);
    Lgammal = f("lgammal").known().touches(&[], N).hidden(Signgam, W);
    Abs = f("abs").known().touches(&[], N);
    Labs = f("labs").known().touches(&[], N);
    Llabs = f("llabs").known().touches(&[], N);
    Getpid = f("getpid").known().touches(&[], N);
    Isalpha = f("isalpha").known().touches(&[], N);
    Isdigit = f("isdigit").known().touches(&[], N);
    Isspace = f("isspace").known().touches(&[], N);
    Isalnum = f("isalnum").touches(&[], N);
    Isupper = f("isupper").touches(&[], N);
    Islower = f("islower").touches(&[], N);
    Toupper = f("toupper").known().touches(&[], N);
    Tolower = f("tolower").known().touches(&[], N);
    SchedYield = f("sched_yield").known().run(Zero);
    /// Writes the whole block for the race check, as C11 7.22.3 and ThreadSanitizer take it:
    /// a `free` in one thread and an access of the block in another that nothing orders are a
    /// data race (issue 35).
    Free = f("free").known().touches(&[W], N).run(Free);
    // Library functions that call the functions they are given only during the call.
    // The comparators of the search and sort functions get pointers to elements of the array
    // and to the key (C11 7.22.5p2 for `qsort` and `bsearch`, whose key comes first; glibc's
    // `qsort_r` passes its last argument as the third; POSIX does not say in which order
    // `lfind` and `lsearch` pass the key and the element, so each parameter may be either).
    Qsort = f("qsort").calls_back_with(3, &[Within(&[0]), Within(&[0])]);
    QsortR = f("qsort_r").calls_back_with(3, &[Within(&[0]), Within(&[0]), Arg(4)]);
    Bsearch = f("bsearch").calls_back_with(4, &[Arg(0), Within(&[1])]);
    Lfind = f("lfind").calls_back_with(4, &[Within(&[0, 1]), Within(&[0, 1])]);
    Lsearch = f("lsearch").calls_back_with(4, &[Within(&[0, 1]), Within(&[0, 1])]);
    // Their callbacks get the library's own memory (tree nodes, `struct stat`, directory
    // entries), which the analysis does not name.
    Tsearch = f("tsearch").synchronous();
    Tfind = f("tfind").synchronous();
    Tdelete = f("tdelete").synchronous();
    Twalk = f("twalk").synchronous();
    TwalkR = f("twalk_r").synchronous();
    Tdestroy = f("tdestroy").synchronous();
    Ftw = f("ftw").synchronous();
    Nftw = f("nftw").synchronous();
    Scandir = f("scandir").synchronous();
    Glob = f("glob").synchronous();
    /// zlib's `inflateBack`, which calls its input and output functions.
    InflateBack = f("inflateBack").synchronous();
    // Code the analysis does not see: `dlsym` hands out functions (and `dlopen` runs
    // constructors), asynchronous I/O writes its buffer after the call returns.
    Dlopen = f("dlopen").foreign();
    Dlmopen = f("dlmopen").foreign();
    Dlsym = f("dlsym").foreign().by_name();
    Dlvsym = f("dlvsym").foreign().by_name();
    AioRead = f("aio_read").foreign().notifies_elsewhere();
    AioWrite = f("aio_write").foreign().notifies_elsewhere();
    AioFsync = f("aio_fsync").foreign().notifies_elsewhere();
    AioRead64 = f("aio_read64").foreign().notifies_elsewhere();
    AioWrite64 = f("aio_write64").foreign().notifies_elsewhere();
    LioListio = f("lio_listio").foreign().notifies_elsewhere();
    LioListio64 = f("lio_listio64").foreign().notifies_elsewhere();
    /// `SIGEV_THREAD` timers and message-queue notifications run their function in a new
    /// thread.
    TimerCreate = f("timer_create").notifies_elsewhere();
    MqNotify = f("mq_notify").notifies_elsewhere();
    // Ends of the process (the front end lowers `noreturn` library calls as process stops).
    Exit = f("exit").touches(&[], N).exits();
    /// Runs the `at_quick_exit` handlers (counted as every exit-time function).
    QuickExit = f("quick_exit").exits();
    UnderscoreExit = f("_exit").ends(Ends::Process);
    UnderscoreCapitalExit = f("_Exit").ends(Ends::Process);
    Abort = f("abort").touches(&[], N).ends(Ends::Process);
    Err = f("err").exits();
    Errx = f("errx").exits();
    Verr = f("verr").exits();
    Verrx = f("verrx").exits();
    // Registrations of exit-time functions (they run at `exit`, in the thread that calls it).
    Atexit = f("atexit").registers_exit(0);
    AtQuickExit = f("at_quick_exit").registers_exit(0);
    OnExit = f("on_exit").registers_exit(0);
    CxaAtexit = f("__cxa_atexit").registers_exit(0);
    StackChkFail = f("__stack_chk_fail").ends(Ends::Process);
    // The failures of `assert()`: glibc's `__assert_fail(expr, file, line, func)`, Apple's
    // `__assert_rtn(func, file, line, expr)`, newlib's `__assert_func(file, line, func, expr)`,
    // BSD's `__assert(func, file, line, expr)` or old glibc's `__assert(expr, file, line)`.
    AssertFail = f("__assert_fail").ends(Ends::Process).asserts(AssertKind::Macro, &[0]);
    AssertRtn = f("__assert_rtn").ends(Ends::Process).asserts(AssertKind::Macro, &[3]);
    AssertFunc = f("__assert_func").asserts(AssertKind::Macro, &[3]);
    AssertBsd = f("__assert").ends(Ends::Process).asserts(AssertKind::Macro, &[3, 0]);
    // Ends of the calling thread alone.
    PthreadExit = pthread("pthread_exit").ends(Ends::Thread);
    ThrdExit = c11("thrd_exit").ends(Ends::Thread);
    /// The raw `syscall(SYS_exit, ..)`.
    Syscall = f("syscall").ends(Ends::Thread);
    PthreadExitInternal = f("__pthread_exit").ends(Ends::Thread);
    PthreadUnwind = f("__pthread_unwind").ends(Ends::Thread);
    PthreadUnwindNext = f("__pthread_unwind_next").ends(Ends::Thread);
    // Signal handlers: unknown functions (the handler is exposed, analysed as a detached
    // root), which may make blocking calls of every thread fail with `EINTR`.
    /// Runs its handlers in the thread that calls `fork`.
    PthreadAtfork = pthread("pthread_atfork");
    Signal = f("signal").catches_signals();
    SysvSignal = f("sysv_signal").catches_signals();
    SysvSignalInternal = f("__sysv_signal").catches_signals();
    BsdSignal = f("bsd_signal").catches_signals();
    Sigaction = f("sigaction").catches_signals();
    Sigset = f("sigset").catches_signals();
    // Resume points and jumps to them.
    Setjmp = f("setjmp").twice().resumes();
    UnderscoreSetjmp = f("_setjmp").twice().resumes();
    Sigsetjmp = f("sigsetjmp").twice().resumes();
    SigsetjmpInternal = f("__sigsetjmp").twice().resumes();
    Savectx = f("savectx").twice();
    LlvmSjljSetjmp = f("llvm.eh.sjlj.setjmp").twice().resumes();
    /// `setcontext` or `swapcontext` of a context it saved continues after it again.
    Getcontext = f("getcontext").twice().resumes();
    Swapcontext = f("swapcontext").twice().resumes();
    Longjmp = f("longjmp").jumps();
    UnderscoreLongjmp = f("_longjmp").jumps();
    Siglongjmp = f("siglongjmp").jumps();
    LongjmpChk = f("__longjmp_chk").jumps();
    LibcLongjmp = f("__libc_longjmp").jumps();
    LibcSiglongjmp = f("__libc_siglongjmp").jumps();
    LlvmSjljLongjmp = f("llvm.eh.sjlj.longjmp").jumps();
    // Threads (the front end lowers creations and joins to `ThreadCreate` and `ThreadJoin`).
    PthreadCreate = pthread("pthread_create");
    PthreadJoin = pthread("pthread_join");
    PthreadDetach = pthread("pthread_detach").known();
    PthreadSelf = pthread("pthread_self").known().run(SelfTid);
    PthreadEqual = pthread("pthread_equal").known().run(Equal);
    PthreadYield = pthread("pthread_yield").known();
    /// Runs its init routine (once per control object).
    PthreadOnce = pthread("pthread_once").runs_once();
    PthreadCancel = pthread("pthread_cancel");
    PthreadSetcanceltype = pthread("pthread_setcanceltype");
    PthreadAttrInit = pthread("pthread_attr_init").known().run(Zero);
    PthreadAttrDestroy = pthread("pthread_attr_destroy").known().run(Zero);
    PthreadAttrSetdetachstate = pthread("pthread_attr_setdetachstate").known().run(Zero);
    /// Every other `pthread_attr_set*`: setters only write the attribute object, which the
    /// interpreter never reads back.
    PthreadAttrSet = prefix(pthread("pthread_attr_set").run(Zero));
    // Thread-specific data (`harness::keys` rewrites their calls when it can): the key's
    // destructor runs at thread exit, and `pthread_setspecific` keeps a pointer that
    // `pthread_getspecific` hands back, so none writes only its arguments.
    PthreadKeyCreate = pthread("pthread_key_create").run(KeyCreate);
    PthreadKeyDelete = pthread("pthread_key_delete").run(KeyDelete);
    PthreadGetspecific = pthread("pthread_getspecific").run(GetSpecific);
    PthreadSetspecific = pthread("pthread_setspecific").run(SetSpecific);
    // Attributes of synchronisation objects.
    PthreadMutexattrInit = pthread("pthread_mutexattr_init").run(Zero);
    PthreadMutexattrDestroy = pthread("pthread_mutexattr_destroy").run(Zero);
    /// Mutex types are not modelled by the interpreter: a recursive or error-checking mutex
    /// behaves as a normal one, which only blocks (relocking) where the real one would go on.
    PthreadMutexattrSettype = pthread("pthread_mutexattr_settype").run(Zero);
    PthreadMutexattrSetrobust = pthread("pthread_mutexattr_setrobust").robust();
    PthreadMutexattrSetrobustNp = pthread("pthread_mutexattr_setrobust_np").robust();
    PthreadCondattrInit = pthread("pthread_condattr_init").run(Zero);
    PthreadCondattrDestroy = pthread("pthread_condattr_destroy").run(Zero);
    PthreadBarrierInit = pthread("pthread_barrier_init").known().barrier(BarrierOp::Init);
    PthreadBarrierDestroy = pthread("pthread_barrier_destroy").known()
        .barrier(BarrierOp::Destroy);
    PthreadBarrierWait = pthread("pthread_barrier_wait").known().barrier(BarrierOp::Wait);
    // Mutexes (the front end lowers locks and unlocks to `Lock` and `Unlock`).
    PthreadMutexLock = sync(Mutex, "pthread_mutex_lock").op(LOCK);
    PthreadMutexUnlock = sync(Mutex, "pthread_mutex_unlock").op(SyncOp::Unlock);
    PthreadMutexInit = sync(Mutex, "pthread_mutex_init").known().run(Zero);
    PthreadMutexDestroy = sync(Mutex, "pthread_mutex_destroy").known().run(Zero);
    PthreadMutexTrylock = sync(Mutex, "pthread_mutex_trylock").known().op(TRYLOCK).run(TRY_EBUSY);
    PthreadMutexConsistent = sync(Mutex, "pthread_mutex_consistent").robust();
    PthreadMutexConsistentNp = sync(Mutex, "pthread_mutex_consistent_np").robust();
    /// Every other `pthread_mutex_*` function.
    PthreadMutex = prefix(sync(Mutex, "pthread_mutex_"));
    // Condition variables.
    PthreadCondInit = sync(Cond, "pthread_cond_init").known().run(Zero);
    PthreadCondDestroy = sync(Cond, "pthread_cond_destroy").known().run(Zero);
    PthreadCondSignal = sync(Cond, "pthread_cond_signal").known().run(Zero);
    PthreadCondBroadcast = sync(Cond, "pthread_cond_broadcast").known().run(Zero);
    PthreadCondWait = cond_wait("pthread_cond_wait").known().op(WAIT).run(CondWait);
    PthreadCondTimedwait = cond_wait("pthread_cond_timedwait").known().op(TIMED_WAIT).run(CondWait);
    PthreadCondClockwait = cond_wait("pthread_cond_clockwait");
    /// Every other `pthread_cond_*` function.
    PthreadCond = prefix(sync(Cond, "pthread_cond_"));
    // Spin locks.
    PthreadSpinLock = sync(Spin, "pthread_spin_lock").op(LOCK);
    PthreadSpinUnlock = sync(Spin, "pthread_spin_unlock").op(SyncOp::Unlock);
    PthreadSpinInit = sync(Spin, "pthread_spin_init").known().run(Zero);
    PthreadSpinDestroy = sync(Spin, "pthread_spin_destroy").known().run(Zero);
    PthreadSpinTrylock = sync(Spin, "pthread_spin_trylock").known().op(TRYLOCK).run(TRY_EBUSY);
    /// Every other `pthread_spin_*` function.
    PthreadSpin = prefix(sync(Spin, "pthread_spin_"));
    // Read-write locks.
    /// Readers share the lock.
    PthreadRwlockRdlock = sync(RwLock, "pthread_rwlock_rdlock").op(READ_LOCK);
    PthreadRwlockWrlock = sync(RwLock, "pthread_rwlock_wrlock").op(LOCK);
    PthreadRwlockUnlock = sync(RwLock, "pthread_rwlock_unlock").op(SyncOp::Unlock);
    PthreadRwlockInit = sync(RwLock, "pthread_rwlock_init").known().run(Zero);
    PthreadRwlockDestroy = sync(RwLock, "pthread_rwlock_destroy").known().run(Zero);
    PthreadRwlockTryrdlock = sync(RwLock, "pthread_rwlock_tryrdlock").known().op(READ_TRYLOCK)
        .run(TRY_EBUSY);
    PthreadRwlockTrywrlock = sync(RwLock, "pthread_rwlock_trywrlock").known().op(TRYLOCK)
        .run(TRY_EBUSY);
    /// Every other `pthread_rwlock_*` function.
    PthreadRwlock = prefix(sync(RwLock, "pthread_rwlock_"));
    /// Every other `pthread_*` function.
    Pthread = prefix(pthread("pthread_"));
    // Semaphores.
    SemInit = api(Api::Semaphore, "sem_init").known().sem(SemOp::Init);
    SemWait = api(Api::Semaphore, "sem_wait").known().sem(SEM_WAIT);
    SemTrywait = api(Api::Semaphore, "sem_trywait").known().sem(SEM_TRYWAIT);
    SemTimedwait = api(Api::Semaphore, "sem_timedwait").known().sem(SEM_TRYWAIT);
    SemClockwait = api(Api::Semaphore, "sem_clockwait").known().sem(SEM_TRYWAIT);
    SemPost = api(Api::Semaphore, "sem_post").known().sem(SemOp::Post);
    SemDestroy = api(Api::Semaphore, "sem_destroy").known().sem(SemOp::Destroy);
    /// Every other `sem_*` function.
    Sem = prefix(api(Api::Semaphore, "sem_"));
    // C11 threads (`<threads.h>`, C11 7.26), as their pthread kin: the front end lowers
    // `thrd_create` and `thrd_join` to `ThreadCreate` and `ThreadJoin` (the entry returns an
    // `int`, and `thrd_join` writes an `int`), `mtx_lock` and `mtx_unlock` to `Lock` and
    // `Unlock`, `thrd_exit` to a thread's end. The `tss_*` functions stay unknown functions:
    // the destructor `tss_create` is given is exposed (analysed as a detached root), and
    // `tss_get` hands back any pointer.
    ThrdCreate = c11("thrd_create");
    ThrdJoin = c11("thrd_join");
    ThrdDetach = c11("thrd_detach").known();
    ThrdCurrent = c11("thrd_current").known().run(SelfTid);
    ThrdEqual = c11("thrd_equal").known().run(Equal);
    ThrdYield = c11("thrd_yield").known().run(Zero);
    /// Reads the duration; writes the time left when a signal interrupts it.
    ThrdSleep = c11("thrd_sleep").known().touches(&[R, W], N).run(NoEffect);
    /// Every other `thrd_*` function.
    Thrd = prefix(c11("thrd_"));
    /// `thrd_success` and the lock, or `thrd_busy`.
    MtxTrylock = c11_sync(Mutex, "mtx_trylock").known().op(TRYLOCK)
        .run(Run::TryLock { busy: THRD_BUSY });
    /// May fail with `thrd_timedout` (or `thrd_error`): the lock is held only when it returns
    /// `thrd_success` (0), as after a trylock.
    MtxTimedlock = c11_sync(Mutex, "mtx_timedlock").known().op(TRYLOCK)
        .run(Run::TryLock { busy: THRD_TIMEDOUT });
    MtxLock = c11_sync(Mutex, "mtx_lock").op(LOCK);
    MtxUnlock = c11_sync(Mutex, "mtx_unlock").op(SyncOp::Unlock);
    /// The mutex's type (`mtx_plain`, `mtx_recursive`, `mtx_timed`) is not modelled by the
    /// interpreter, as `pthread_mutexattr_settype`'s is not.
    MtxInit = c11_sync(Mutex, "mtx_init").known().run(Zero);
    MtxDestroy = c11_sync(Mutex, "mtx_destroy").known().run(Zero);
    /// Every other `mtx_*` function.
    Mtx = prefix(c11_sync(Mutex, "mtx_"));
    CndInit = c11_sync(Cond, "cnd_init").known().run(Zero);
    CndDestroy = c11_sync(Cond, "cnd_destroy").known().run(Zero);
    CndSignal = c11_sync(Cond, "cnd_signal").known().run(Zero);
    CndBroadcast = c11_sync(Cond, "cnd_broadcast").known().run(Zero);
    CndWait = c11_cond_wait("cnd_wait").known().op(WAIT).run(CondWait);
    CndTimedwait = c11_cond_wait("cnd_timedwait").known().op(TIMED_WAIT).run(CondWait);
    /// Every other `cnd_*` function.
    Cnd = prefix(c11_sync(Cond, "cnd_"));
    /// `call_once(flag, f)`: `pthread_once` (it runs `f`, so it does not write only its
    /// arguments).
    CallOnce = c11("call_once").runs_once();
    // The SV-COMP verifier functions (the front end lowers their calls: `Assert`,
    // `AtomicBegin`/`AtomicEnd`, `Assume`, `Nondet`).
    VerifierError = api(Api::Verifier, "__VERIFIER_error").asserts(AssertKind::ReachError, &[]);
    VerifierAssert = api(Api::Verifier, "__VERIFIER_assert")
        .asserts(AssertKind::VerifierAssert, &[]);
    VerifierAssume = api(Api::Verifier, "__VERIFIER_assume");
    VerifierAtomicBegin = api(Api::Verifier, "__VERIFIER_atomic_begin");
    VerifierAtomicEnd = api(Api::Verifier, "__VERIFIER_atomic_end");
    /// Every other `__VERIFIER_atomic_*` function: a function of the program with such a name
    /// runs atomically (SV-COMP convention).
    VerifierAtomic = prefix(api(Api::Verifier, "__VERIFIER_atomic_"));
    /// `__VERIFIER_nondet_T()`: any value of its type (0 or 1 for `bool` and `_Bool`).
    VerifierNondet = prefix(api(Api::Verifier, "__VERIFIER_nondet_"));
    /// Every other `__VERIFIER_*` function.
    Verifier = prefix(api(Api::Verifier, "__VERIFIER_"));
    /// SV-COMP's failure function: reaching a call of it is the failure.
    ReachError = f("reach_error").asserts(AssertKind::ReachError, &[]);
    /// `assume_abort_if_not(c)`, when only declared: continue only if `c != 0`.
    AssumeAbortIfNot = f("assume_abort_if_not");
    // LLVM intrinsics the front end lowers or drops.
    LlvmDbg = prefix(f("llvm.dbg.").ignored());
    LlvmLifetime = prefix(f("llvm.lifetime.").ignored());
    LlvmStacksave = prefix(f("llvm.stacksave").ignored());
    LlvmStackrestore = prefix(f("llvm.stackrestore").ignored());
    LlvmAssume = prefix(f("llvm.assume").ignored());
    LlvmNoaliasScopeDecl = prefix(f("llvm.experimental.noalias.scope.decl").ignored());
    LlvmDonothing = prefix(f("llvm.donothing").ignored());
    LlvmSideeffect = prefix(f("llvm.sideeffect").ignored());
    LlvmVarAnnotation = prefix(f("llvm.var.annotation").ignored());
    LlvmPseudoprobe = prefix(f("llvm.pseudoprobe").ignored());
    /// `llvm.memset.*`: a `MemSet`.
    LlvmMemset = prefix(f("llvm.memset."));
    /// `llvm.memcpy.*`: a `MemCopy`.
    LlvmMemcpy = prefix(f("llvm.memcpy."));
    /// `llvm.memmove.*`: a `MemCopy`.
    LlvmMemmove = prefix(f("llvm.memmove."));
    /// The address of a `__thread` variable.
    LlvmThreadlocalAddress = prefix(f("llvm.threadlocal.address"));
    /// `__builtin_expect(v, c)`, which is `v`.
    LlvmExpect = prefix(f("llvm.expect."));
    /// Every other intrinsic.
    Llvm = prefix(f("llvm."));
    // Functions after whose call control may come back to the point after it again, even
    // when called through a pointer (any name that contains one of these: a wrapper such as
    // `my_setjmp`, defined or not, for `ir::once`).
    LikeSetjmp = containing("setjmp").resumes();
    LikeGetcontext = containing("getcontext").resumes();
    LikeSwapcontext = containing("swapcontext").resumes();
    LikeVfork = containing("vfork").resumes();
}

impl LibFn {
    /// Whether it is a synchronisation function (`pthread_mutex_*`, `pthread_spin_*`,
    /// `pthread_rwlock_*`, `pthread_cond_*`): it touches only its synchronisation objects
    /// (POSIX), whatever else the objects' pointer fields may reach.
    pub fn is_sync(self) -> bool {
        self.props().sync_objects[0].is_some()
    }

    /// Its C name (the prefix or part of the name, for a family).
    pub fn name(self) -> &'static str {
        self.props().name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `name` matches `row`.
    fn matches(row: &Props, name: &str) -> bool {
        match row.named {
            Named::Exact => name == row.name,
            Named::Prefix => name.starts_with(row.name),
            Named::Contains => name.contains(row.name),
        }
    }

    /// A row of a function has the properties of every family its name belongs to.
    #[test]
    fn rows_have_their_families_properties() {
        for &l in LibFn::ALL {
            let p = l.props();
            for &fam in LibFn::ALL {
                let q = fam.props();
                if fam == l || q.named == Named::Exact || !matches(q, p.name) {
                    continue;
                }
                assert_eq!(p.api, q.api, "{l:?} in {fam:?}");
                if q.sync_objects[0].is_some() {
                    assert_eq!(p.sync_objects[0], q.sync_objects[0], "{l:?} in {fam:?}");
                }
                assert!(p.resumes || !q.resumes, "{l:?} in {fam:?}");
                if q.run != Run::Unknown {
                    assert_eq!(p.run, q.run, "{l:?} in {fam:?}");
                }
            }
        }
    }

    /// The columns that say the same thing agree: a threads API's functions touch no data,
    /// the interpreter's lock operations are the table's, names are unique.
    #[test]
    fn columns_agree() {
        let mut names = std::collections::BTreeSet::new();
        for &l in LibFn::ALL {
            let p = l.props();
            assert!(
                names.insert((p.name, p.named == Named::Exact)),
                "{l:?} twice"
            );
            // A threads API's functions touch no data, but those that say which of their
            // arguments they read or write (`thrd_sleep`'s durations).
            assert!(p.api.is_none() || p.race != CallTouch::Assumed, "{l:?}");
            assert!(p.race != CallTouch::NotData || p.api.is_some(), "{l:?}");
            assert_eq!(
                matches!(p.run, Run::TryLock { .. }),
                matches!(p.sync_op, Some(SyncOp::TryLock { .. })),
                "{l:?}"
            );
            assert_eq!(
                p.run == Run::CondWait,
                matches!(p.sync_op, Some(SyncOp::CondWait { .. })),
                "{l:?}"
            );
            assert!(p.sem.is_none() || p.api == Some(Api::Semaphore), "{l:?}");
            assert!(p.barrier.is_none() || p.api == Some(Api::Pthread), "{l:?}");
            assert!(!p.catches_signals || p.api.is_none(), "{l:?}");
            assert!(!p.stdio_output || p.writes_only_args, "{l:?}");
            assert!(!p.copies_bytes || p.writes_only_args, "{l:?}");
            assert!(!p.finds_functions || p.foreign_code_after, "{l:?}");
            assert!(
                p.hidden.is_none() || (p.leaves_locks && p.api.is_none()),
                "{l:?}"
            );
            assert!(
                !matches!(p.hidden, Some((_, ArgAccess::None))),
                "{l:?}: hidden state is read or written"
            );
        }
    }
}
