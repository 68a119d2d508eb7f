//! How the interpreter treats functions that are only declared: the classification of C
//! library and pthread calls by name.

/// How the interpreter treats a function that is only declared (by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ext {
    /// Defined in the program: its body runs.
    Defined,
    /// `pthread_mutex_trylock` and friends: visible; 0 and the lock, or `EBUSY`.
    TryLock,
    /// `pthread_cond_wait(c, m)` (and timed): releases `m`, then waits to lock it again.
    CondWait,
    /// Initialisation, destruction, signals, yields: no effect, returns 0.
    Zero,
    /// Output and sleeping: no effect on the program's memory, result unknown.
    NoEffect,
    /// `free`: ends a heap block (visible: other threads may use the block).
    Free,
    /// `pthread_self`: the thread's id.
    SelfTid,
    /// `pthread_equal`.
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
    /// Anything else: may write whatever memory its pointer arguments reach.
    Unknown,
    /// `setjmp` and every function that may return twice (`Program::returns_twice`): not
    /// executed, the execution is abandoned.
    ReturnsTwice,
}

pub(super) fn classify(f: &crate::ir::Function) -> Ext {
    if f.is_defined {
        return Ext::Defined;
    }
    let n = f.name.as_str();
    match n {
        "pthread_mutex_trylock"
        | "pthread_spin_trylock"
        | "pthread_rwlock_tryrdlock"
        | "pthread_rwlock_trywrlock" => Ext::TryLock,
        "pthread_cond_wait" | "pthread_cond_timedwait" => Ext::CondWait,
        "pthread_mutex_init"
        | "pthread_mutex_destroy"
        | "pthread_cond_init"
        | "pthread_cond_destroy"
        | "pthread_cond_signal"
        | "pthread_cond_broadcast"
        | "pthread_spin_init"
        | "pthread_spin_destroy"
        | "pthread_rwlock_init"
        | "pthread_rwlock_destroy"
        | "pthread_mutexattr_init"
        | "pthread_mutexattr_destroy"
        // Mutex types are not modelled: a recursive or error-checking mutex behaves as a
        // normal one, which only blocks (relocking) where the real one would go on.
        | "pthread_mutexattr_settype"
        | "pthread_condattr_init"
        | "pthread_condattr_destroy"
        | "pthread_attr_init"
        | "pthread_attr_destroy"
        | "sched_yield" => Ext::Zero,
        // Setters only write the attribute object, which nothing here reads back.
        _ if n.starts_with("pthread_attr_set") => Ext::Zero,
        "printf" | "puts" | "putchar" | "fprintf" | "fputs" | "fputc" | "putc" | "fflush"
        | "usleep" | "sleep" => Ext::NoEffect,
        "free" => Ext::Free,
        "pthread_self" => Ext::SelfTid,
        "pthread_equal" => Ext::Equal,
        "strlen" => Ext::Strlen,
        // Thread-specific data when `harness::keys` left the calls (several keys).
        "pthread_key_create" => Ext::KeyCreate,
        "pthread_key_delete" => Ext::KeyDelete,
        "pthread_getspecific" => Ext::GetSpecific,
        "pthread_setspecific" => Ext::SetSpecific,
        _ => Ext::Unknown,
    }
}
