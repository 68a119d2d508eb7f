//! A non-relational environment of intervals, dense over `Var`.
//!
//! Invariant: a bottom environment stores no values; a variable beyond `vals` is top, so two
//! environments are equal when they agree on every variable.

use crate::interval::Interval;
use crate::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use crate::{Lattice, NumDomain, Operand, Truth, Var};

/// `Var → Interval`, or bottom.
#[derive(Clone, Debug, Eq)]
pub struct IntervalEnv {
    bottom: bool,
    vals: Vec<Interval>,
}

impl PartialEq for IntervalEnv {
    fn eq(&self, o: &Self) -> bool {
        if self.bottom || o.bottom {
            return self.bottom == o.bottom;
        }
        let n = self.vals.len().max(o.vals.len());
        (0..n).all(|i| self.get(i) == o.get(i))
    }
}

impl IntervalEnv {
    /// The top environment with room for `n` variables.
    pub fn with_capacity(n: usize) -> IntervalEnv {
        IntervalEnv {
            bottom: false,
            vals: Vec::with_capacity(n),
        }
    }

    /// The explicitly stored variables.
    pub fn iter(&self) -> impl Iterator<Item = (Var, Interval)> + '_ {
        self.vals
            .iter()
            .enumerate()
            .map(|(i, v)| (Var(i as u32), *v))
    }

    fn get(&self, i: usize) -> Interval {
        self.vals.get(i).copied().unwrap_or_else(Interval::top)
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
}

impl Lattice for IntervalEnv {
    fn bottom() -> Self {
        IntervalEnv {
            bottom: true,
            vals: Vec::new(),
        }
    }

    fn top() -> Self {
        IntervalEnv {
            bottom: false,
            vals: Vec::new(),
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
        (0..o.vals.len()).all(|i| self.get(i).is_subset(&o.vals[i]))
    }

    fn join_with(&mut self, o: &Self) -> bool {
        if o.bottom {
            return false;
        }
        if self.bottom {
            *self = o.clone();
            return true;
        }
        let mut changed = false;
        let n = self.vals.len().min(o.vals.len());
        for i in n..self.vals.len() {
            if self.vals[i] != Interval::top() {
                changed = true;
            }
        }
        self.vals.truncate(n);
        for (a, b) in self.vals.iter_mut().zip(&o.vals) {
            changed |= a.join_with(b);
        }
        changed
    }

    fn meet_with(&mut self, o: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if o.bottom {
            *self = Self::bottom();
            return true;
        }
        let mut changed = false;
        if self.vals.len() < o.vals.len() {
            self.vals.resize(o.vals.len(), Interval::top());
        }
        for (a, b) in self.vals.iter_mut().zip(&o.vals) {
            changed |= a.meet_with(b);
            if a.is_bottom() {
                *self = Self::bottom();
                return true;
            }
        }
        changed
    }

    fn widen_with(&mut self, newer: &Self) -> bool {
        if newer.bottom {
            return false;
        }
        if self.bottom {
            *self = newer.clone();
            return true;
        }
        let mut changed = false;
        let n = self.vals.len().min(newer.vals.len());
        for i in n..self.vals.len() {
            if self.vals[i] != Interval::top() {
                changed = true;
            }
        }
        self.vals.truncate(n);
        for (a, b) in self.vals.iter_mut().zip(&newer.vals) {
            changed |= a.widen_with(b);
        }
        changed
    }

    fn narrow_with(&mut self, newer: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if newer.bottom {
            *self = Self::bottom();
            return true;
        }
        let mut changed = false;
        if self.vals.len() < newer.vals.len() {
            self.vals.resize(newer.vals.len(), Interval::top());
        }
        for (a, b) in self.vals.iter_mut().zip(&newer.vals) {
            changed |= a.narrow_with(b);
            if a.is_bottom() {
                *self = Self::bottom();
                return true;
            }
        }
        changed
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
        let i = x.0 as usize;
        if i >= self.vals.len() {
            if v == Interval::top() {
                return;
            }
            self.vals.resize(i + 1, Interval::top());
        }
        self.vals[i] = v;
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
        if let Some(v) = self.vals.get_mut(x.0 as usize) {
            *v = Interval::top();
        }
    }

    fn set_bottom(&mut self) {
        self.bottom = true;
        self.vals = Vec::new();
    }

    fn widen_selected(&mut self, newer: &Self, widen: &dyn Fn(Var) -> bool) -> bool {
        if newer.bottom {
            return false;
        }
        if self.bottom {
            *self = newer.clone();
            return true;
        }
        let mut changed = false;
        let n = self.vals.len().min(newer.vals.len());
        for i in n..self.vals.len() {
            if self.vals[i] != Interval::top() {
                changed = true;
            }
        }
        self.vals.truncate(n);
        for (i, (a, b)) in self.vals.iter_mut().zip(&newer.vals).enumerate() {
            changed |= if widen(Var(i as u32)) {
                a.widen_with(b)
            } else {
                a.join_with(b)
            };
        }
        changed
    }
}
