//! Why executions were abandoned: the causes, as data, and how many executions each cause
//! ended. The report words them (`report::words`); code decides on the variants, never on
//! text.
//!
//! Invariant: an abandoned execution makes no claim about the program: a search that
//! abandoned one is not exhaustive ([`super::search::SearchResult::exhaustive`]).

use std::collections::BTreeMap;

/// Why one execution could not go on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Abandon {
    /// A step needs something the interpreter does not model (an unknown value deciding a
    /// branch, an address or an assertion; floats; ...), as the interpreter describes the
    /// construct and where it is (`an unknown value decides a branch at f.c:12`).
    Unmodelled(String),
    /// A pointer handed to `function`, which the program does not define (it may write what
    /// the pointer reaches); `at` is where the call is (` at f.c:9`, or empty).
    PointerToUnknown { function: String, at: String },
    /// The reads-value-from search's event model cannot express an operation (what, in the
    /// search's words: `atomic sections`): that search gives up on the program, and the
    /// caller runs another strategy.
    RvfGaveUp(String),
    /// The symbolic-input search has no solver (the reason it was not found).
    NoSolver(String),
}

/// Why executions were abandoned, and how many for each cause.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Abandoned(BTreeMap<Abandon, u64>);

impl Abandoned {
    /// One more execution abandoned for `why`.
    pub fn insert(&mut self, why: Abandon) {
        *self.0.entry(why).or_insert(0) += 1;
    }

    /// Whether no execution was abandoned.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The causes, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Abandon> + '_ {
        self.0.keys()
    }

    /// The causes with their counts.
    pub fn counts(&self) -> impl Iterator<Item = (&Abandon, u64)> + '_ {
        self.0.iter().map(|(k, &n)| (k, n))
    }

    /// How many executions were abandoned.
    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }

    /// Adds the counts of `other`.
    pub fn extend(&mut self, other: Abandoned) {
        for (k, n) in other.0 {
            *self.0.entry(k).or_insert(0) += n;
        }
    }

    /// Keeps only the causes `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&Abandon) -> bool) {
        self.0.retain(|k, _| keep(k));
    }

    /// Whether the reads-value-from search gave up ([`Abandon::RvfGaveUp`]).
    pub fn rvf_gave_up(&self) -> bool {
        self.iter().any(|a| matches!(a, Abandon::RvfGaveUp(_)))
    }
}
