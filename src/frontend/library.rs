//! The classifier of library functions: a function's name to its row of [`crate::ir::lib`],
//! run once per function when the module is lowered (`Function::lib`).
//!
//! Invariant: the only place that matches a name against the rows; a name matches the exact
//! row of that name, else the first row whose text it contains (`Named::Contains`), else the
//! row of the longest prefix it starts with (`Named::Prefix`: `pthread_mutex_` before
//! `pthread_`).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::ir::lib::{LibFn, Named};

/// The rows of each kind, built once from `LibFn::ALL`.
struct Rows {
    exact: HashMap<&'static str, LibFn>,
    contains: Vec<LibFn>,
    /// Longest prefix first.
    prefixes: Vec<LibFn>,
}

fn rows() -> &'static Rows {
    static ROWS: OnceLock<Rows> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows = Rows {
            exact: HashMap::new(),
            contains: Vec::new(),
            prefixes: Vec::new(),
        };
        for &l in LibFn::ALL {
            match l.props().named {
                Named::Exact => {
                    rows.exact.insert(l.name(), l);
                }
                Named::Contains => rows.contains.push(l),
                Named::Prefix => rows.prefixes.push(l),
            }
        }
        rows.prefixes
            .sort_by_key(|l| std::cmp::Reverse(l.name().len()));
        rows
    })
}

/// The library function (or family) a function called `name` is, if the table has it.
pub(crate) fn classify(name: &str) -> Option<LibFn> {
    let rows = rows();
    if let Some(&l) = rows.exact.get(name) {
        return Some(l);
    }
    (rows.contains.iter())
        .find(|l| name.contains(l.name()))
        .or_else(|| rows.prefixes.iter().find(|l| name.starts_with(l.name())))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::classify;
    use crate::ir::lib::LibFn;

    #[test]
    fn names_find_their_rows() {
        assert_eq!(classify("printf"), Some(LibFn::Printf));
        assert_eq!(
            classify("pthread_mutex_trylock"),
            Some(LibFn::PthreadMutexTrylock)
        );
        assert_eq!(
            classify("pthread_mutex_timedlock"),
            Some(LibFn::PthreadMutex)
        );
        assert_eq!(classify("pthread_mutexattr_gettype"), Some(LibFn::Pthread));
        assert_eq!(
            classify("pthread_attr_setstacksize"),
            Some(LibFn::PthreadAttrSet)
        );
        assert_eq!(classify("__sigsetjmp"), Some(LibFn::SigsetjmpInternal));
        assert_eq!(classify("my_setjmp"), Some(LibFn::LikeSetjmp));
        assert_eq!(classify("llvm.memcpy.p0.p0.i64"), Some(LibFn::LlvmMemcpy));
        assert_eq!(classify("llvm.umax.i32"), Some(LibFn::Llvm));
        assert_eq!(classify("thrd_create"), Some(LibFn::ThrdCreate));
        assert_eq!(classify("thrd_foo"), Some(LibFn::Thrd));
        assert_eq!(classify("mtx_timedlock"), Some(LibFn::MtxTimedlock));
        assert_eq!(classify("call_once"), Some(LibFn::CallOnce));
        assert_eq!(
            classify("__VERIFIER_nondet_int"),
            Some(LibFn::VerifierNondet)
        );
        assert_eq!(classify("__VERIFIER_foo"), Some(LibFn::Verifier));
        assert_eq!(classify("my_function"), None);
        assert_eq!(classify("pthread"), None);
    }
}
