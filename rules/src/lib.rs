//! Static happens-before facts and the feasibility oracle of watts (FSE'16, Alg. 4, fig. 4).
//!
//! The caller describes the program once, as plain facts over dense `u32` ids, in
//! [`StaticFacts`]; [`Oracle::new`] closes the static must-happen-before relation once;
//! [`Oracle::check`] then answers, for one [`Combination`] of reads-from pairs, whether some
//! sequentially consistent execution can realise all of its pairs at once.
//!
//! **Invariant:** the oracle answers [`Verdict::Infeasible`] only with a [`RuleId`] whose
//! soundness paragraph ([`RuleId::soundness`]) exists, word for word, in `rules/README.md`;
//! a combination the rules cannot refute, or a fact the oracle cannot interpret soundly, gives
//! [`Verdict::Feasible`]. Nothing here imports `watts`.
//!
//! Module map:
//! - [`facts`]: the input vocabulary ([`StaticFacts`], [`Combination`]) and its contracts.
//! - `closure`: bitset transitive closure, used once per program.
//! - `happens_before`: the Datalog rules (crepe), evaluated once per uncached query.
//! - `oracle`: turns a combination into the nodes of one query, caches verdicts.
//!
//! The static part is closed once per program with bitsets (`closure`); `Oracle::check` builds one
//! small query per combination (its nodes: rules/README.md "Nodes of a query"), runs crepe with
//! FxHash, and caches the verdict by the whole combination. A candidate overwriting store (rules 4
//! and 7) enters a query only when a witness reaches it by a static step: no other store can get a
//! must-happen-before fact.

#![deny(missing_docs)]

mod closure;
pub mod facts;
mod happens_before;
mod oracle;

pub use facts::{Combination, StaticFacts};
pub use oracle::{Oracle, OracleStats};

/// A program point the rules reason about: a load, a store, a thread's start or end
/// pseudo-event, a `pthread_create` or `pthread_join` call.
///
/// Events are per thread *class* (see [`StaticFacts::thread_of`]): the same source
/// instruction in two classes gets two ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(pub u32);

/// An abstract memory location, as named by loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(pub u32);

/// A lock: one concrete mutex (or the global lock of atomic sections) for the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LockId(pub u32);

/// A thread class: the code run by one or more thread instances (see
/// [`StaticFacts::multi_instance`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ThreadId(pub u32);

/// The answer to one feasibility query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No rule refutes the combination (which does not prove that an execution realises it).
    Feasible,
    /// No sequentially consistent execution realises every pair of the combination; the
    /// rule names the argument.
    Infeasible(RuleId),
}

impl Verdict {
    /// True for [`Verdict::Infeasible`].
    pub fn is_infeasible(self) -> bool {
        matches!(self, Verdict::Infeasible(_))
    }
}

/// The argument that refuted a combination. Each names the last rule of figure 4 that the
/// refutation needed; rules 1, 2, 3 and 5 (program order, create/join, reads-from,
/// transitivity) may be used by all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleId {
    /// Static must-happen-before facts alone (rules 1, 2, 5) order a witnessed event before
    /// itself: the event cannot occur at all.
    HappensBeforeCycle,
    /// A load must happen before the store it is said to read (rules 1, 2, 3, 5, 6).
    ReadsFromFuture,
    /// A contradiction that needs the overwrite rule (rule 4).
    ReadsOverwritten,
    /// A load re-reads a value that was overwritten after an earlier load read it (rule 7).
    OverwrittenReread,
    /// A load under a lock reads a store that its thread overwrites before releasing that lock
    /// (beyond the paper: mutual exclusion).
    LockedOverwrite,
    /// A load under a lock, after its own thread's store to the cell since it took that lock,
    /// reads a store another thread made under the same lock (beyond the paper: mutual
    /// exclusion, the dual of [`RuleId::LockedOverwrite`]).
    LockedOwnStore,
}

impl RuleId {
    /// Every rule identifier, in the order [`Oracle::check`] tries them.
    pub const ALL: [RuleId; 6] = [
        RuleId::HappensBeforeCycle,
        RuleId::ReadsFromFuture,
        RuleId::OverwrittenReread,
        RuleId::ReadsOverwritten,
        RuleId::LockedOverwrite,
        RuleId::LockedOwnStore,
    ];

    /// A short stable name (for statistics and reports).
    pub fn name(self) -> &'static str {
        match self {
            RuleId::HappensBeforeCycle => "happens-before-cycle",
            RuleId::ReadsFromFuture => "reads-from-future",
            RuleId::ReadsOverwritten => "reads-overwritten",
            RuleId::OverwrittenReread => "overwritten-reread",
            RuleId::LockedOverwrite => "locked-overwrite",
            RuleId::LockedOwnStore => "locked-own-store",
        }
    }

    /// The one-paragraph soundness argument; the same text is in `rules/README.md`.
    pub fn soundness(self) -> &'static str {
        match self {
            RuleId::HappensBeforeCycle => SOUNDNESS_HAPPENS_BEFORE_CYCLE,
            RuleId::ReadsFromFuture => SOUNDNESS_READS_FROM_FUTURE,
            RuleId::ReadsOverwritten => SOUNDNESS_READS_OVERWRITTEN,
            RuleId::OverwrittenReread => SOUNDNESS_OVERWRITTEN_REREAD,
            RuleId::LockedOverwrite => SOUNDNESS_LOCKED_OVERWRITE,
            RuleId::LockedOwnStore => SOUNDNESS_LOCKED_OWN_STORE,
        }
    }
}

/// The feasibility interface the analysis programs against (FSE'16, Alg. 4 `isFeasible`).
pub trait Feasibility {
    /// Whether some execution may realise every reads-from pair of `c`.
    fn check(&self, c: &Combination) -> Verdict;
}

const SOUNDNESS_HAPPENS_BEFORE_CYCLE: &str = "\
HappensBeforeCycle (rules 1, 2, 5). Every static edge is in the strong form: every occurrence \
of its source precedes every occurrence of its target, and an occurrence of the target is \
preceded by one of the source. Program order is given only inside a single-instance thread and \
only where the source dominates the target and is not reachable from it; create and join edges \
only for a single-instance child with a unique create site and a join that must wait for it. \
The strong form is closed under composition, so the closure says that every occurrence of a \
witnessed event precedes itself. The witness occurs in any execution that realises the \
combination, which is impossible in a total (sequentially consistent) order.";

const SOUNDNESS_READS_FROM_FUTURE: &str = "\
ReadsFromFuture (rules 3 and 6 on top of 1, 2, 5). A load reads a value that was written \
before it, so the witnessed occurrence of the store precedes the witnessed occurrence of the \
load (rule 3). Each witness is one occurrence: a load with a reads-from fact is executed once \
by the analysed instance, and a store that may occur several times gets a fresh node per pair \
that is linked only by edges that hold for all its occurrences. If the closure also orders the \
load before the store it reads (rule 6: mhb(l, s) means l must not read from s), the two \
witnesses precede each other, which no execution allows.";

const SOUNDNESS_READS_OVERWRITTEN: &str = "\
ReadsOverwritten (rule 4). If a load l reads the witnessed store occurrence s1, and every \
occurrence denoted by s2 follows s1, and s2 definitely overwrites the single memory cell that \
l reads (a strong store of the same location), then no occurrence of s2 can come before l: the \
last write before l would then be s2 or later, not s1. So l precedes every occurrence of s2, an \
edge in the strong form that may be composed with the others. Stores of another instance of a \
multi-instance thread are not ordered after s1 by program order, so the rule cannot fire \
across instances; weak (may) stores are never used as s2.";

const SOUNDNESS_LOCKED_OVERWRITE: &str = "\
LockedOverwrite (mutual exclusion, beyond the paper). Let a load l of thread A hold lock m \
exclusively at every occurrence, and let the store s of another thread class B hold m \
exclusively too and, after every occurrence, store to the same single cell again (strongly) \
before B releases m (or B never releases it). The two critical sections of m that contain l \
and s belong to different threads, so they do not overlap: either B's section ends before A's \
begins, and then the overwriting store comes between s and l, so l does not read s; or A's \
section ends before B's begins, and then l precedes s. A lock is one concrete mutex for the \
whole run (a global object without arrays, or the lock of atomic sections); read locks are not \
exclusive, and any call that may release a lock (an unlock through an unknown pointer, an \
unknown function such as pthread_cond_wait) ends every section it may end. A thread cancelled \
at a cancellation point runs its cleanup handlers, which may unlock: when the program calls \
`pthread_cancel`, the caller gives no \"overwritten before release\" fact (`pthread_join` is a \
cancellation point that the lock facts do not count as a release).";

const SOUNDNESS_LOCKED_OWN_STORE: &str = "\
LockedOwnStore (mutual exclusion, beyond the paper; the dual of LockedOverwrite). Let a load l \
of thread A hold lock m exclusively at every occurrence, and let A, on every path since it last \
acquired m, have stored strongly to the single cell v that l reads (so A holds m without a \
break from before that store s to l). Let the store s' of another thread class B hold m \
exclusively at every occurrence. If l read s', then s' would come before l, and after s, since \
s overwrites v between A's acquisition and l; so s' would lie inside A's critical section of \
m, which B cannot enter while A holds m. Hence l does not read s'. The premise is about paths \
of A alone: a store on some paths only, a release (or a call that may release m) between s and \
l, or a new acquisition of m after s (a lock call or a trylock, which may have released m \
before) leaves the fact out. A lock is one concrete mutex for the whole run (a global object \
without arrays, or the lock of atomic sections), never a pointer that may name several; read \
locks are not exclusive. Two instances of one class may be the same thread, and a store of \
A's own class may be A's own later store to v, which l may read: the rule needs two classes. \
Functions analysed on their own run inside some other thread and get no lock facts.";

const SOUNDNESS_OVERWRITTEN_REREAD: &str = "\
OverwrittenReread (rule 7). If l1 reads the witnessed store occurrence s1, l1 precedes every \
occurrence of a strong store s2 of location v, and some occurrence of s2 precedes l2, a load of \
v, then s1 < l1 < s2 < l2 and s2 overwrote the cell between them, so l2 cannot read that same \
occurrence of s1. A store that may occur several times gets a fresh node per reads-from pair, \
so the conclusion never mixes up two occurrences. (In this encoding the rule adds no pruning \
power to rules 3, 4 and 5; it names the more specific argument.)";

#[cfg(test)]
mod tests {
    use super::*;

    fn normalise(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn every_rule_has_its_paragraph_in_the_readme() {
        let readme = normalise(include_str!("../README.md"));
        for rule in RuleId::ALL {
            let paragraph = normalise(rule.soundness());
            assert!(
                readme.contains(&paragraph),
                "README.md lacks the soundness paragraph of {rule:?}"
            );
        }
    }
}
