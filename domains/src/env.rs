//! A non-relational environment of intervals over `Var`, stored in a persistent vector that
//! states share until they differ (see `pvec`).
//!
//! Invariant: a bottom environment stores no values; a variable never set is top, so two
//! environments are equal when they agree on every variable.

use crate::interval::Interval;
use crate::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use crate::pvec::{Elem, PVec};
use crate::{Lattice, NumDomain, Operand, Truth, Var};

impl Elem for Interval {
    const DEFAULT: Interval = Interval::top();
}

/// `Var → Interval`, or bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntervalEnv {
    bottom: bool,
    vals: PVec<Interval>,
}

impl Eq for PVec<Interval> {}

impl IntervalEnv {
    /// The top environment (`n` is a hint of the number of variables, unused since the
    /// environment grows as variables are set).
    pub fn with_capacity(n: usize) -> IntervalEnv {
        let _ = n;
        IntervalEnv::top()
    }

    /// The stored variables (every variable not listed is top).
    pub fn iter(&self) -> impl Iterator<Item = (Var, Interval)> + '_ {
        self.vals.iter().map(|(i, v)| (Var(i as u32), v))
    }

    fn get(&self, i: usize) -> Interval {
        self.vals.get(i)
    }

    fn value(&self, o: Operand) -> Interval {
        match o {
            Operand::Var(v) => self.interval(v),
            Operand::Const(c) => c,
        }
    }

    fn meet_var(&mut self, o: Operand, v: Interval) {
        if let Operand::Var(x) = o {
            let m = self.interval(x).meet(&v);
            self.set(x, m);
        }
    }

    /// `self[i] := self[i] op o[i]` everywhere, bottom as soon as one variable is (meet and
    /// narrowing); true iff `self` changed.
    fn pointwise<F: FnMut(&mut Interval, &Interval) -> bool>(
        &mut self,
        o: &Self,
        mut op: F,
    ) -> bool {
        let mut empty = false;
        let changed = self.vals.zip_with(&o.vals, &mut |_, a, b| {
            let c = op(a, &b);
            empty |= a.is_bottom();
            c
        });
        if empty {
            self.set_bottom();
            return true;
        }
        changed
    }
}

impl Lattice for IntervalEnv {
    fn bottom() -> Self {
        IntervalEnv {
            bottom: true,
            vals: PVec::new(),
        }
    }

    fn top() -> Self {
        IntervalEnv {
            bottom: false,
            vals: PVec::new(),
        }
    }

    fn is_bottom(&self) -> bool {
        self.bottom
    }

    fn leq(&self, o: &Self) -> bool {
        if self.bottom {
            return true;
        }
        if o.bottom {
            return false;
        }
        self.vals.all2(&o.vals, &mut |_, a, b| a.is_subset(&b))
    }

    fn join_with(&mut self, o: &Self) -> bool {
        if o.bottom {
            return false;
        }
        if self.bottom {
            *self = o.clone();
            return true;
        }
        // Top (the default) absorbs the join.
        self.vals
            .zip_absorbing(&o.vals, &mut |_, a, b| a.join_with(&b))
    }

    fn meet_with(&mut self, o: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if o.bottom {
            *self = Self::bottom();
            return true;
        }
        self.pointwise(o, |a, b| a.meet_with(b))
    }

    fn widen_with(&mut self, newer: &Self) -> bool {
        self.widen_selected(newer, &|_| true)
    }

    fn narrow_with(&mut self, newer: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if newer.bottom {
            *self = Self::bottom();
            return true;
        }
        self.pointwise(newer, |a, b| a.narrow_with(b))
    }
}

impl NumDomain for IntervalEnv {
    fn interval(&self, x: Var) -> Interval {
        if self.bottom {
            return Interval::bottom();
        }
        self.get(x.0 as usize)
    }

    fn set(&mut self, x: Var, v: Interval) {
        if self.bottom {
            return;
        }
        if v.is_bottom() {
            self.set_bottom();
            return;
        }
        self.vals.set(x.0 as usize, v);
    }

    fn set_weak(&mut self, x: Var, v: Interval) {
        let j = self.interval(x).join(&v);
        self.set(x, j);
    }

    fn assign(&mut self, x: Var, y: Var) {
        let v = self.interval(y);
        self.set(x, v);
    }

    fn apply(&mut self, x: Var, op: BinOp, a: Operand, b: Operand, ty: IntTy) {
        let v = machine::binop(op, self.value(a), self.value(b), ty);
        self.set(x, v);
    }

    fn cast(&mut self, x: Var, op: CastOp, a: Operand, from: IntTy, to: IntTy) {
        let v = machine::cast(op, self.value(a), from, to);
        self.set(x, v);
    }

    fn compare(&mut self, x: Var, pred: CmpPred, a: Operand, b: Operand, ty: IntTy) {
        let v = machine::compare(pred, self.value(a), self.value(b), ty);
        self.set(x, v);
    }

    fn assume(&mut self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy, outcome: bool) {
        if self.bottom {
            return;
        }
        let (ra, rb) = machine::refine(pred, self.value(a), self.value(b), ty, outcome);
        if ra.is_bottom() || rb.is_bottom() {
            self.set_bottom();
            return;
        }
        self.meet_var(a, ra);
        self.meet_var(b, rb);
    }

    fn entails(&self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy) -> Truth {
        if self.bottom {
            return Truth::True;
        }
        machine::entails(pred, self.value(a), self.value(b), ty)
    }

    fn forget(&mut self, x: Var) {
        if !self.bottom {
            self.vals.set(x.0 as usize, Interval::top());
        }
    }

    fn intervals_below(&self, n: u32) -> Self {
        if self.bottom {
            return if n == 0 { Self::top() } else { Self::bottom() };
        }
        // Shares the subtrees below `n` with `self`.
        let mut out = self.clone();
        out.vals.reset_from(n as usize);
        out
    }

    fn set_bottom(&mut self) {
        self.bottom = true;
        self.vals = PVec::new();
    }

    fn forget_many(&mut self, xs: &[Var]) {
        if !self.bottom {
            let idx: Vec<usize> = xs.iter().map(|x| x.0 as usize).collect();
            self.vals.reset_many(&idx);
        }
    }

    fn widen_selected(&mut self, newer: &Self, widen: &dyn Fn(Var) -> bool) -> bool {
        if newer.bottom {
            return false;
        }
        if self.bottom {
            *self = newer.clone();
            return true;
        }
        // Top (the default) absorbs the join and the widening.
        self.vals.zip_absorbing(&newer.vals, &mut |i, a, b| {
            if widen(Var(i as u32)) {
                a.widen_with(&b)
            } else {
                a.join_with(&b)
            }
        })
    }
}
