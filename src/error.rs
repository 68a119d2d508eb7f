//! Errors caused by the input (exit status 2), and running out of memory (status 3, with a
//! message; see [`OutOfMemory`]). Internal errors are bugs and exit with 3.
//!
//! `InputError` is every way the input (files, options, C that does not compile, IR LLVM rejects, a
//! child process stopped by the budget) can be wrong; each maps to exit status 2 with its message.
//! `OutOfMemory`, the binary's global allocator, also counts what is allocated against
//! `--max-memory` (`set_memory_budget`), which the analysis reads to give up soundly
//! (`over_memory_budget`); when an allocation fails it prints `error: out of memory: ...` and calls
//! `_exit(3)`.

use std::fmt;
use std::path::PathBuf;

/// Why an input could not be analysed.
#[derive(Debug)]
pub enum InputError {
    /// The file does not exist.
    MissingFile(PathBuf),
    /// The file exists but could not be read.
    Unreadable(PathBuf, std::io::Error),
    /// No usable clang was found.
    ClangNotFound(String),
    /// clang rejected the program; `diagnostics` is what it printed.
    CompileFailed {
        /// The input.
        path: PathBuf,
        /// clang's stderr.
        diagnostics: String,
    },
    /// LLVM could not parse the IR or bitcode.
    InvalidIr {
        /// The input.
        path: PathBuf,
        /// LLVM's message.
        message: String,
    },
    /// The file type is not one watts reads.
    UnknownFileType(PathBuf),
    /// There is nothing to analyse: no `main` and no thread.
    NoEntryPoint,
    /// The mode or domain is not implemented yet.
    Unsupported(String),
    /// A project file (`compile_commands.json`, `watts.toml`) is invalid.
    Project {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The harness cannot be built (`--entries-exported` and no function is exported, ...).
    Harness(String),
    /// The harness names a function or table that the analysed files do not define
    /// (`--entry FN`, `--init FN`, `--entries-from TABLE`): the message says which; a driver
    /// split over several files needs all of them.
    HarnessName(String),
    /// A source whose file name clang would read as something else than a file to compile.
    UnsafeName(PathBuf),
    /// The baseline file cannot be read.
    Baseline {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The front end ran past `--timeout` or `--max-memory` (`crate::budget`): no program to
    /// analyse, so no verdict.
    Budget(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::MissingFile(p) => write!(f, "no such file: {}", p.display()),
            InputError::Unreadable(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            InputError::ClangNotFound(why) => write!(f, "cannot run clang: {why}"),
            InputError::CompileFailed { path, diagnostics } => write!(
                f,
                "clang could not compile {}:\n{}",
                path.display(),
                diagnostics.trim_end()
            ),
            InputError::InvalidIr { path, message } => {
                write!(
                    f,
                    "invalid LLVM input {}: {}",
                    path.display(),
                    message.trim_end()
                )
            }
            InputError::UnsafeName(p) => write!(
                f,
                "refusing to compile {}: clang reads a file whose name starts with `@` as a \
                 file of more arguments (even as `./@name`: clang 19 passes the bare name on \
                 to its compiler), so the file next to it would choose clang's options; \
                 rename it",
                p.display()
            ),
            InputError::UnknownFileType(p) => write!(
                f,
                "cannot analyse {}: expected a .c, .i, .ll or .bc file",
                p.display()
            ),
            InputError::NoEntryPoint => write!(
                f,
                "nothing to analyse: the program has no `main` function; for driver code, name its \
                 entry points with `--entry FN` (and `--init FN`) or its ops table with \
                 `--entries-from TABLE`; for a library, `--entries-exported`; \
                 `--suggest-harness` lists what the program has"
            ),
            InputError::Unsupported(what) => write!(f, "{what}"),
            InputError::Project { path, message } => {
                write!(f, "invalid project file {}: {message}", path.display())
            }
            InputError::Harness(message) => write!(f, "cannot build the harness: {message}"),
            InputError::HarnessName(message) => write!(
                f,
                "cannot build the harness: {message}\nhelp: a driver split over several files is \
                 analysed as one program: give all its files (or list them in watts.toml \
                 `files`); in pre-commit, use the `watts-project` hook, which analyses the whole \
                 project whatever file is staged"
            ),
            InputError::Baseline { path, message } => {
                write!(f, "cannot use the baseline {}: {message}", path.display())
            }
            InputError::Budget(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for InputError {}

use crate::limits::LIST_BOUND;

/// `names` joined by commas, cut to [`LIST_BOUND`] names and "and N more" (a driver with
/// hundreds of functions made a line of hundreds of names), or "none".
pub fn name_list(names: &[&str]) -> String {
    match names.len() {
        0 => "none".to_string(),
        n if n <= LIST_BOUND => names.join(", "),
        n => format!(
            "{} and {} more",
            names[..LIST_BOUND].join(", "),
            n - LIST_BOUND
        ),
    }
}

/// The process's allocator: the system allocator, except that running out of memory ends
/// watts with a plain message and exit status 3 instead of Rust's default, an abort (SIGABRT,
/// status 134, "memory allocation failed" at best). `main` installs it with
/// `#[global_allocator]`, and [`OutOfMemory::install_cxx_handler`] does the same for LLVM's
/// C++ allocations (a `std::bad_alloc` unwinding into Rust aborts too).
///
/// Ending the process is the only thing an allocation failure can do here: nothing in watts
/// recovers from one (no `try_reserve`), and a half-built analysis has no verdict to report.
/// The message is written without allocating (stderr is unbuffered) and the process ends with
/// `_exit`, which runs no destructor or `atexit` handler that could allocate or wait for a lock
/// another thread holds.
pub struct OutOfMemory;

/// Bytes the process has allocated through [`OutOfMemory`] and not freed yet.
static LIVE_BYTES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
/// The memory budget of the analysis (`--max-memory`), in bytes.
static MEMORY_BUDGET: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(usize::MAX);

/// Sets the memory budget that [`over_memory_budget`] compares with.
pub fn set_memory_budget(bytes: u64) {
    let b = usize::try_from(bytes).unwrap_or(usize::MAX);
    MEMORY_BUDGET.store(b, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the heap has grown past the budget. Only a binary that installs [`OutOfMemory`] as
/// its global allocator counts its bytes; elsewhere this is always false.
pub fn over_memory_budget() -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    LIVE_BYTES.load(Relaxed) > MEMORY_BUDGET.load(Relaxed)
}

/// The memory budget in bytes (`usize::MAX`: none).
pub fn memory_budget() -> usize {
    MEMORY_BUDGET.load(std::sync::atomic::Ordering::Relaxed)
}

/// The memory budget for messages (`1.5 GiB`, `512 MiB`).
pub fn budget_text() -> String {
    bytes_text(memory_budget())
}

/// A number of bytes for messages (`1.5 GiB`, `512 MiB`, `64 KiB`).
pub fn bytes_text(bytes: usize) -> String {
    let b = bytes as f64;
    match b {
        _ if b >= f64::from(1u32 << 30) => format!("{:.1} GiB", b / f64::from(1u32 << 30)),
        _ if b >= f64::from(1u32 << 20) => format!("{:.0} MiB", b / f64::from(1u32 << 20)),
        _ => format!("{:.0} KiB", b / 1024.0),
    }
}

/// Bytes allocated and not yet freed (0 without [`OutOfMemory`] as the allocator).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(std::sync::atomic::Ordering::Relaxed)
}

/// The message and exit status of running out of memory.
const OOM_MESSAGE: &[u8] = b"error: out of memory: the analysis needs more memory than the \
system allows (see `ulimit -v`); analyse fewer files at once, lower --max-combinations, or \
give it more memory\n";

/// The exit status of running out of memory (as internal errors: no verdict was reached).
pub const OOM_STATUS: i32 = 3;

#[cfg(unix)]
extern "C" {
    fn _exit(status: i32) -> !;
    fn dlsym(
        handle: *mut std::ffi::c_void,
        symbol: *const std::ffi::c_char,
    ) -> *mut std::ffi::c_void;
}

/// Prints [`OOM_MESSAGE`] and ends the process with [`OOM_STATUS`], without allocating.
pub fn out_of_memory() -> ! {
    use std::io::Write;
    let _ = std::io::stderr().write_all(OOM_MESSAGE);
    #[cfg(unix)]
    // SAFETY: `_exit` has no precondition; it ends the process.
    unsafe {
        _exit(OOM_STATUS)
    }
    #[cfg(not(unix))]
    std::process::exit(OOM_STATUS)
}

extern "C" fn cxx_new_failed() {
    out_of_memory()
}

impl OutOfMemory {
    /// Makes C++ `operator new` (LLVM, z3) call [`out_of_memory`] when it fails, instead of
    /// throwing `std::bad_alloc` through Rust frames (which aborts). The C++ runtime is loaded
    /// by libLLVM, not linked by watts, so `std::set_new_handler` is looked up at run time;
    /// when it is not found nothing changes.
    pub fn install_cxx_handler() {
        #[cfg(unix)]
        {
            type SetNewHandler = unsafe extern "C" fn(Option<extern "C" fn()>) -> *mut ();
            // RTLD_DEFAULT: every object loaded so far, in load order.
            let default = std::ptr::null_mut();
            // SAFETY: the name is NUL-terminated; dlsym only reads it.
            let f = unsafe { dlsym(default, c"_ZSt15set_new_handlerPFvvE".as_ptr()) };
            if !f.is_null() {
                // SAFETY: `std::set_new_handler(void (*)())` has this signature in the
                // Itanium C++ ABI, which the System V calling convention of `extern "C"`
                // matches for a function pointer argument and result.
                unsafe {
                    let set: SetNewHandler = std::mem::transmute(f);
                    set(Some(cxx_new_failed));
                }
            }
        }
    }
}

// SAFETY: every method forwards to `System`, which upholds the `GlobalAlloc` contract; a null
// result (failure) never returns to the caller, since `out_of_memory` ends the process.
unsafe impl std::alloc::GlobalAlloc for OutOfMemory {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = std::alloc::System.alloc(layout);
        if p.is_null() {
            out_of_memory()
        }
        LIVE_BYTES.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        p
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let p = std::alloc::System.alloc_zeroed(layout);
        if p.is_null() {
            out_of_memory()
        }
        LIVE_BYTES.fetch_add(layout.size(), std::sync::atomic::Ordering::Relaxed);
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new: usize) -> *mut u8 {
        let p = std::alloc::System.realloc(ptr, layout, new);
        if p.is_null() {
            out_of_memory()
        }
        LIVE_BYTES.fetch_add(new, std::sync::atomic::Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), std::sync::atomic::Ordering::Relaxed);
        std::alloc::System.dealloc(ptr, layout)
    }
}
