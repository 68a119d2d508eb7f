//! Points-to sets: the targets a pointer value may have (an object at a known offset or anywhere
//! in it, a function) and whether it may also be `unknown` (any exposed object or function).
//!
//! Invariant: a set holds `Obj(o, None)` or known offsets into `o`, never both, and at most
//! `MAX_OFFSETS` of those; sets only grow (`union_with`, `insert` say whether they did).

use crate::ir::{FuncId, ObjId};
use std::collections::BTreeSet;
use std::sync::Arc;

/// What a pointer may point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// Into an object, at a known byte offset (normalized over arrays) or anywhere (`None`).
    Obj(ObjId, Option<u64>),
    /// A function.
    Func(FuncId),
}

/// A points-to set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtsSet {
    /// Known targets, shared between the sets a propagation copies until one of them grows
    /// (most of the fixpoint passes sets along unchanged: copies, phis, arguments, loads).
    pub targets: Arc<BTreeSet<Target>>,
    /// Whether it may also point to any exposed object or function.
    pub unknown: bool,
}

use crate::limits::MAX_OFFSETS;

impl PtsSet {
    pub(super) fn union_with(&mut self, other: &PtsSet) -> bool {
        let mut changed = false;
        if other.unknown && !self.unknown {
            self.unknown = true;
            changed = true;
        }
        if Arc::ptr_eq(&self.targets, &other.targets) || other.targets.is_empty() {
            return changed;
        }
        if self.targets.is_empty() {
            self.targets = Arc::clone(&other.targets);
            return true;
        }
        let missing = self.missing(other);
        for t in missing {
            changed |= self.insert(t);
        }
        changed
    }

    /// The targets of `other` that this set does not cover, found by one merge of the two
    /// sorted sets (or by lookups when `other` is much smaller).
    pub(super) fn missing(&self, other: &PtsSet) -> Vec<Target> {
        if other.targets.len().saturating_mul(8) < self.targets.len() {
            return (other.targets.iter())
                .filter(|t| !self.contains(**t))
                .copied()
                .collect();
        }
        let mut out = Vec::new();
        let mut mine = self.targets.iter().peekable();
        // The last object this set holds "anywhere in" that the merge went past.
        let mut anywhere: Option<ObjId> = None;
        for &t in other.targets.iter() {
            while let Some(&&x) = mine.peek() {
                if x >= t {
                    break;
                }
                if let Target::Obj(o, None) = x {
                    anywhere = Some(o);
                }
                mine.next();
            }
            let covered = mine.peek() == Some(&&t)
                || matches!(t, Target::Obj(o, Some(_)) if anywhere == Some(o));
            if !covered {
                out.push(t);
            }
        }
        out
    }

    /// Whether `t` is in the set, or covered by "anywhere in its object".
    pub(super) fn contains(&self, t: Target) -> bool {
        self.targets.contains(&t)
            || matches!(t, Target::Obj(o, Some(_)) if self.targets.contains(&Target::Obj(o, None)))
    }

    /// Adds a target; whether the set grew. A set holds `Obj(o, None)` or offsets into `o`,
    /// never both, and at most `MAX_OFFSETS` of those.
    pub(super) fn insert(&mut self, t: Target) -> bool {
        let Target::Obj(o, off) = t else {
            if self.targets.contains(&t) {
                return false;
            }
            return Arc::make_mut(&mut self.targets).insert(t);
        };
        if self.targets.contains(&Target::Obj(o, None)) {
            return false;
        }
        let known = Target::Obj(o, Some(0))..=Target::Obj(o, Some(u64::MAX));
        if off.is_some() {
            if self.targets.contains(&t) {
                return false;
            }
            if self.targets.range(known.clone()).count() < MAX_OFFSETS {
                return Arc::make_mut(&mut self.targets).insert(t);
            }
        }
        let offsets: Vec<Target> = self.targets.range(known).copied().collect();
        let targets = Arc::make_mut(&mut self.targets);
        for k in offsets {
            targets.remove(&k);
        }
        targets.insert(Target::Obj(o, None))
    }

    pub(super) fn unknown() -> PtsSet {
        PtsSet {
            targets: Arc::default(),
            unknown: true,
        }
    }

    /// The objects (not functions) it names.
    pub fn objects(&self) -> impl Iterator<Item = ObjId> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Obj(o, _) => Some(*o),
            Target::Func(_) => None,
        })
    }

    /// The objects it names, with their offsets.
    pub fn objects_at(&self) -> impl Iterator<Item = (ObjId, Option<u64>)> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Obj(o, off) => Some((*o, *off)),
            Target::Func(_) => None,
        })
    }

    /// The objects it names, with their offsets (collected, so that the set may be changed).
    pub(super) fn objects_with_offsets(&self) -> Vec<(ObjId, Option<u64>)> {
        self.targets
            .iter()
            .filter_map(|t| match t {
                Target::Obj(o, off) => Some((*o, *off)),
                Target::Func(_) => None,
            })
            .collect()
    }

    /// The functions it names.
    pub fn funcs(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.targets.iter().filter_map(|t| match t {
            Target::Func(f) => Some(*f),
            Target::Obj(..) => None,
        })
    }
}
