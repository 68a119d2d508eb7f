//! Intervals of mathematical integers, with `i128::MIN`/`i128::MAX` standing for -inf/+inf.
//!
//! Invariant: a bottom interval is always stored as `[1, 0]`, so derived equality is equality
//! of meaning.

use crate::Lattice;
use std::fmt;

/// The set of integers `[lo, hi]`; empty when `lo > hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    lo: i128,
    hi: i128,
}

/// -inf.
pub(crate) const NEG_INF: i128 = i128::MIN;
/// +inf.
pub(crate) const POS_INF: i128 = i128::MAX;

impl Interval {
    /// `[lo, hi]` (bottom when `lo > hi`).
    pub fn new(lo: i128, hi: i128) -> Interval {
        if lo > hi {
            Interval::bottom()
        } else {
            Interval { lo, hi }
        }
    }

    /// The singleton `{c}`.
    pub fn constant(c: i128) -> Interval {
        Interval { lo: c, hi: c }
    }

    /// The empty set.
    pub const fn bottom() -> Interval {
        Interval { lo: 1, hi: 0 }
    }

    /// Every integer.
    pub const fn top() -> Interval {
        Interval {
            lo: NEG_INF,
            hi: POS_INF,
        }
    }

    /// Whether it is empty.
    pub fn is_bottom(&self) -> bool {
        self.lo > self.hi
    }

    /// Lower bound (`i128::MIN` for -inf); meaningless on bottom.
    pub fn lo(&self) -> i128 {
        self.lo
    }

    /// Upper bound (`i128::MAX` for +inf); meaningless on bottom.
    pub fn hi(&self) -> i128 {
        self.hi
    }

    /// The only value, if it is a singleton.
    pub fn as_const(&self) -> Option<i128> {
        (self.lo == self.hi).then_some(self.lo)
    }

    /// Whether `v` is in it.
    pub fn contains(&self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    /// Whether it is a subset of `o`.
    pub fn is_subset(&self, o: &Interval) -> bool {
        self.is_bottom() || (!o.is_bottom() && o.lo <= self.lo && self.hi <= o.hi)
    }

    /// The convex hull of the union.
    pub fn join(&self, o: &Interval) -> Interval {
        if self.is_bottom() {
            return *o;
        }
        if o.is_bottom() {
            return *self;
        }
        Interval::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    /// The intersection.
    pub fn meet(&self, o: &Interval) -> Interval {
        if self.is_bottom() || o.is_bottom() {
            return Interval::bottom();
        }
        Interval::new(self.lo.max(o.lo), self.hi.min(o.hi))
    }

    /// Number of elements minus one, saturating (`u128::MAX` when unbounded).
    pub fn width(&self) -> u128 {
        if self.is_bottom() {
            return 0;
        }
        if self.lo == NEG_INF || self.hi == POS_INF {
            return u128::MAX;
        }
        self.hi.abs_diff(self.lo)
    }
}

impl Lattice for Interval {
    fn bottom() -> Self {
        Interval::bottom()
    }

    fn top() -> Self {
        Interval::top()
    }

    fn is_bottom(&self) -> bool {
        Interval::is_bottom(self)
    }

    fn leq(&self, other: &Self) -> bool {
        self.is_subset(other)
    }

    fn join_with(&mut self, other: &Self) -> bool {
        let j = self.join(other);
        let changed = j != *self;
        *self = j;
        changed
    }

    fn meet_with(&mut self, other: &Self) -> bool {
        let m = self.meet(other);
        let changed = m != *self;
        *self = m;
        changed
    }

    /// Bounds that grow jump to infinity (classic interval widening). It does not rely on
    /// `self ⊑ newer`: the result bounds both arguments anyway, so callers that widen with an
    /// unjoined value stay sound.
    fn widen_with(&mut self, newer: &Self) -> bool {
        if self.is_bottom() {
            let changed = !newer.is_bottom();
            *self = *newer;
            return changed;
        }
        if newer.is_bottom() {
            return false;
        }
        let lo = if newer.lo < self.lo { NEG_INF } else { self.lo };
        let hi = if newer.hi > self.hi { POS_INF } else { self.hi };
        let w = Interval::new(lo, hi);
        let changed = w != *self;
        *self = w;
        changed
    }

    /// Infinite bounds are replaced by the newer finite ones.
    fn narrow_with(&mut self, newer: &Self) -> bool {
        if self.is_bottom() {
            return false;
        }
        if newer.is_bottom() {
            *self = Interval::bottom();
            return true;
        }
        let lo = if self.lo == NEG_INF {
            newer.lo
        } else {
            self.lo
        };
        let hi = if self.hi == POS_INF {
            newer.hi
        } else {
            self.hi
        };
        let n = Interval::new(lo, hi);
        let changed = n != *self;
        *self = n;
        changed
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_bottom() {
            return write!(f, "⊥");
        }
        if let Some(c) = self.as_const() {
            return write!(f, "{c}");
        }
        let lo = if self.lo == NEG_INF {
            "-inf".to_string()
        } else {
            self.lo.to_string()
        };
        let hi = if self.hi == POS_INF {
            "+inf".to_string()
        } else {
            self.hi.to_string()
        };
        write!(f, "[{lo}, {hi}]")
    }
}

impl Interval {
    /// Widening that stops a growing bound at the next of `thresholds` (ascending) past the
    /// newer bound before going to infinity; as a widening, each bound moves through finitely
    /// many values.
    pub fn widen_with_thresholds(&mut self, newer: &Self, thresholds: &[i128]) -> bool {
        if self.is_bottom() || newer.is_bottom() {
            return self.widen_with(newer);
        }
        let lo = if newer.lo < self.lo {
            thresholds
                .iter()
                .rev()
                .find(|t| **t <= newer.lo)
                .copied()
                .unwrap_or(NEG_INF)
        } else {
            self.lo
        };
        let hi = if newer.hi > self.hi {
            thresholds
                .iter()
                .find(|t| **t >= newer.hi)
                .copied()
                .unwrap_or(POS_INF)
        } else {
            self.hi
        };
        let w = Interval::new(lo, hi);
        let changed = w != *self;
        *self = w;
        changed
    }
}
