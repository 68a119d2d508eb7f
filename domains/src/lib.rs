//! Numeric abstract domains for watts: the lattice traits every domain implements, machine-integer
//! intervals, and (with the `laws` feature or in tests) property checks of the lattice laws.
//!
//! Invariant: this crate knows nothing of LLVM, threads or program ids; a variable is a dense `Var`.
//!
//! `NumDomain` has default methods that relational domains override: `meet_interval` (clamp without
//! losing relations), `assign_parallel` (the phis of a block at once) and `widen_selected`.
//! Modules: `interval` (machine-integer intervals), `env` (`IntervalEnv`, non-relational),
//! `machine` (LLVM's integer instructions on N-bit values), `pvec` (the persistent vector of both
//! environments), `octagon`, and `laws` (the proptest law checks, feature `laws`).
#![deny(missing_docs)]

mod env;
mod interval;
pub mod machine;
pub mod octagon;
mod pvec;

pub use env::IntervalEnv;
pub use interval::Interval;
pub use machine::{BinOp, CastOp, CmpPred, IntTy};
pub use octagon::{OctagonEnv, MAX_PACK};

/// A dense variable index inside one abstract state (an SSA value or a memory cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// Three-valued answer of `NumDomain::entails`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    /// Holds in every concrete state of the abstract value.
    True,
    /// Fails in every concrete state.
    False,
    /// Neither could be shown.
    Unknown,
}

/// A join-semilattice with widening and narrowing, as the fixpoint engines need it.
///
/// Contract: `join_with` and `widen_with` return whether `self` grew; `widen_with` requires
/// `self.leq(newer)` (checked with `debug_assert!` by implementations) and every increasing
/// chain of widenings is finite.
pub trait Lattice: Clone + PartialEq + std::fmt::Debug {
    /// The least element: no concrete state.
    fn bottom() -> Self;
    /// The greatest element: every concrete state.
    fn top() -> Self;
    /// Whether `self` is the least element.
    fn is_bottom(&self) -> bool;
    /// Partial order: every concrete state of `self` is one of `other`.
    fn leq(&self, other: &Self) -> bool;
    /// `self := self ⊔ other`; true iff `self` grew.
    fn join_with(&mut self, other: &Self) -> bool;
    /// `self := self ⊓ other`; true iff `self` shrank.
    fn meet_with(&mut self, other: &Self) -> bool;
    /// `self := self ∇ newer`; true iff `self` grew.
    fn widen_with(&mut self, newer: &Self) -> bool;
    /// `self := self Δ newer` (requires `newer.leq(self)`); true iff `self` shrank.
    fn narrow_with(&mut self, newer: &Self) -> bool;
}

/// An operand of a numeric transfer function: a variable of the state or a constant set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// The value of a variable in the current state.
    Var(Var),
    /// Any value of this interval (a constant is a singleton).
    Const(Interval),
}

/// An abstract environment mapping `Var`s to machine integers, as the analysis engine uses it.
///
/// Every transfer function is monotone and sound: for every concrete state in the concretization
/// of `self`, the concrete result is in the concretization of the result. Variables a state has
/// never heard of are unconstrained (top), so states need no fixed dimension.
pub trait NumDomain: Lattice + Send + Sync + 'static {
    /// Whether the domain keeps relations between variables (a non-relational domain's
    /// [`NumDomain::project`] is only the intervals).
    const RELATIONAL: bool = false;
    /// What the state says about the variables of `keep` alone, every other variable top:
    /// `self.leq(&self.project(keep))`, with the same interval for each kept variable.
    fn project(&self, keep: &[Var]) -> Self
    where
        Self: Sized,
    {
        if self.is_bottom() {
            return Self::bottom();
        }
        let mut out = Self::top();
        for x in keep {
            out.set(*x, self.interval(*x));
        }
        out
    }
    /// The values `x` may take (bottom when the state is bottom).
    fn interval(&self, x: Var) -> Interval;
    /// `x := any value of v` (forgets every relation of `x`).
    fn set(&mut self, x: Var, v: Interval);
    /// Weak update: `x := x or any value of v`.
    fn set_weak(&mut self, x: Var, v: Interval);
    /// `x := y` (relational domains keep `x == y`).
    fn assign(&mut self, x: Var, y: Var);
    /// `x := a op b` in the machine type `ty` (wrap-around on overflow).
    fn apply(&mut self, x: Var, op: BinOp, a: Operand, b: Operand, ty: IntTy);
    /// `x := cast(a)` from `from` to `to`.
    fn cast(&mut self, x: Var, op: CastOp, a: Operand, from: IntTy, to: IntTy);
    /// `x := (a pred b)` as 0 or 1.
    fn compare(&mut self, x: Var, pred: CmpPred, a: Operand, b: Operand, ty: IntTy);
    /// Keep only the states where `(a pred b) == outcome`; may become bottom.
    fn assume(&mut self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy, outcome: bool);
    /// Whether `(a pred b)` holds in every state, in none, or neither.
    fn entails(&self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy) -> Truth;
    /// Forget everything about `x` (top).
    fn forget(&mut self, x: Var);
    /// `forget` of each of `xs` (strictly increasing); environments that share structure do it
    /// in one walk (a call to unknown code forgets thousands of cells).
    fn forget_many(&mut self, xs: &[Var]) {
        for x in xs {
            self.forget(*x);
        }
    }
    /// The intervals of the variables below `n`, every other variable top, no relation: what
    /// setting `Var(i)` of `top()` to `self.interval(Var(i))` for every `i < n` gives.
    fn intervals_below(&self, n: u32) -> Self
    where
        Self: Sized,
    {
        let mut out = Self::top();
        for i in 0..n {
            out.set(Var(i), self.interval(Var(i)));
        }
        out
    }
    /// Keep what the intervals of `a` and `b` imply about `a - b` as a relation between them,
    /// so that it survives when the intervals grow (`i = 0, j = 0` before a loop that adds one
    /// to each). The meaning of the state does not change; a non-relational domain does
    /// nothing.
    fn relate(&mut self, a: Var, b: Var) {
        let _ = (a, b);
    }
    /// Make the state bottom (the path ends).
    fn set_bottom(&mut self);

    /// Keep only the states where `x` is in `v`; unlike `set`, relational domains keep the
    /// relations of `x` (use it to clamp a value to its type after `assign`).
    fn meet_interval(&mut self, x: Var, v: Interval) {
        let m = self.interval(x).meet(&v);
        self.set(x, m);
    }

    /// The parallel assignment `x_i := o_i` of every pair at once (the phis of a block): every
    /// operand is read before any variable is written. Relational domains keep `x_i == y_i`.
    fn assign_parallel(&mut self, moves: &[(Var, Operand)]) {
        let vals: Vec<Interval> = moves
            .iter()
            .map(|(_, o)| match o {
                Operand::Var(v) => self.interval(*v),
                Operand::Const(c) => *c,
            })
            .collect();
        for ((x, _), v) in moves.iter().zip(vals) {
            self.set(*x, v);
        }
    }

    /// `self := self ∇ newer` on the variables `widen` selects and `self ⊔ newer` on the others;
    /// true iff `self` grew. The caller guarantees that every cycle of values passes through a
    /// selected variable, so that chains stay finite (SSA: the phis of a loop head, and memory).
    /// Domains that cannot widen selectively widen everything, which is also sound.
    fn widen_selected(&mut self, newer: &Self, widen: &dyn Fn(Var) -> bool) -> bool {
        let _ = widen;
        self.widen_with(newer)
    }
}

#[cfg(any(test, feature = "laws"))]
pub mod laws;
