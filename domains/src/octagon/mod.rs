//! The octagon domain with dynamic variable packing: an interval for every variable (as
//! `IntervalEnv`) plus small octagons (`±x ± y <= c`, Miné's DBMs, tightly closed for integers)
//! over *packs* of variables that a transfer function related (`x := y`, `x := ±y + c`,
//! `assume(x < y)`, ...). A state of a thread has hundreds to thousands of variables; one
//! matrix over all of them would cost O(n²) memory per CFG node, so no pack has more than
//! `MAX_PACK` variables: relating a variable to a full pack first evicts the pack's least
//! recently related variables (their relations are forgotten, their intervals kept).
//!
//! Invariant: a non-bottom state has a non-empty concretization: every pack is tightly closed
//! or marked `closed == false` (only after widening, whose result must not be closed again for
//! termination; any `&mut` operation closes it first), and `itv[v]` is included in the unary
//! bounds of `v`'s pack and equals them after closure (up to the entries' range).
//! Invariant: the pack structure is not part of the meaning: `==` is equality of
//! concretizations (`leq` both ways), and join, meet and widening align packs by merging them.
//!
//! `MAX_PACK` is 12; packs are shared copy-on-write; only types up to 64 bits are related.

pub mod dbm;

use crate::interval::Interval;
use crate::machine::{self, BinOp, CastOp, CmpPred, IntTy};
use crate::pvec::{Elem, PVec};
use crate::{Lattice, NumDomain, Operand, Truth, Var};
use dbm::{to_i128, ub2, Bound, Dbm, INF};
use std::sync::Arc;

/// The most variables one pack relates. Past it, the least recently related variables of a pack
/// lose their relations (not their intervals).
pub const MAX_PACK: usize = 12;

/// Widest type whose relations are tracked (entries are `i64`).
const MAX_BITS: u32 = 64;

const NONE: u32 = u32::MAX;

/// A pack index in `pack_of`; a variable never packed is in none.
impl Elem for u32 {
    const DEFAULT: u32 = NONE;
}

/// One octagon over a few variables.
#[derive(Clone, Debug)]
struct Pack {
    /// Invariant: distinct; `pack_of` maps each of them back to this pack.
    vars: Vec<Var>,
    /// When each variable was last related (for eviction).
    stamps: Vec<u64>,
    dbm: Dbm,
    /// Whether `dbm` is tightly closed.
    closed: bool,
}

impl Pack {
    fn pos(&self, x: Var) -> usize {
        self.vars
            .iter()
            .position(|v| *v == x)
            .expect("variable in its pack")
    }
}

/// Intervals for every variable and octagons over packs of related variables, or bottom.
#[derive(Clone, Debug)]
pub struct OctagonEnv {
    bottom: bool,
    /// A variable never set is top; shared between states until they differ.
    itv: PVec<Interval>,
    /// Index into `packs`, or `NONE` (the default).
    pack_of: PVec<u32>,
    /// Shared between states until one of them changes a pack (copy on write).
    packs: Vec<Arc<Pack>>,
    /// Logical time of the last relating transfer (eviction order; not part of the meaning).
    clock: u64,
}

impl PartialEq for OctagonEnv {
    fn eq(&self, o: &Self) -> bool {
        self.leq(o) && o.leq(self)
    }
}

impl Eq for OctagonEnv {}

/// How `combine` merges two states.
#[derive(Clone, Copy)]
enum Merge<'a> {
    Join,
    Meet,
    Widen(&'a dyn Fn(Var) -> bool),
    Narrow,
}

/// Upper bound of literal `(x, s)` (`s == 0`: `+x`, `1`: `-x`) from an interval.
fn lit_ub(v: Interval, s: usize) -> i128 {
    if s == 0 {
        v.hi()
    } else if v.lo() == i128::MIN {
        i128::MAX
    } else {
        -v.lo()
    }
}

fn add128(a: i128, b: i128) -> i128 {
    if a == i128::MAX || b == i128::MAX {
        i128::MAX
    } else {
        a.saturating_add(b)
    }
}

/// An exact bound as an entry (`None` when it cannot be represented: no constraint).
fn entry(c: i128) -> Option<Bound> {
    let b = ub2(c);
    if b == INF || b.rem_euclid(2) != 0 || b / 2 != c as Bound {
        None
    } else {
        Some(b / 2)
    }
}

impl OctagonEnv {
    /// The top state (`n` is a hint of the number of variables, unused since the state grows
    /// as variables are set).
    pub fn with_capacity(n: usize) -> OctagonEnv {
        let _ = n;
        OctagonEnv {
            bottom: false,
            itv: PVec::new(),
            pack_of: PVec::new(),
            packs: Vec::new(),
            clock: 0,
        }
    }

    /// The packs as lists of variables (for tests, statistics and debugging).
    pub fn packs(&self) -> Vec<Vec<Var>> {
        self.packs.iter().map(|p| p.vars.clone()).collect()
    }

    /// The values `x - y` may take (from the octagon when they share a pack, else from the
    /// intervals).
    pub fn difference(&self, x: Var, y: Var) -> Interval {
        if self.bottom {
            return Interval::bottom();
        }
        let hi = self.bound(y, 0, x, 0);
        let neg_lo = self.bound(x, 0, y, 0);
        let lo = if neg_lo == i128::MAX {
            i128::MIN
        } else {
            -neg_lo
        };
        Interval::new(lo, hi)
    }

    /// The values `x + y` may take.
    pub fn sum(&self, x: Var, y: Var) -> Interval {
        if self.bottom {
            return Interval::bottom();
        }
        let hi = self.bound(y, 1, x, 0);
        let neg_lo = self.bound(x, 0, y, 1);
        let lo = if neg_lo == i128::MAX {
            i128::MIN
        } else {
            -neg_lo
        };
        Interval::new(lo, hi)
    }

    fn get(&self, x: Var) -> Interval {
        self.itv.get(x.0 as usize)
    }

    fn put(&mut self, x: Var, v: Interval) {
        self.itv.set(x.0 as usize, v);
    }

    fn pack_idx(&self, x: Var) -> Option<usize> {
        match self.pack_of.get(x.0 as usize) {
            NONE => None,
            p => Some(p as usize),
        }
    }

    fn set_pack_of(&mut self, x: Var, p: u32) {
        self.pack_of.set(x.0 as usize, p);
    }

    fn value(&self, o: Operand) -> Interval {
        match o {
            Operand::Var(v) => self.interval(v),
            Operand::Const(c) => c,
        }
    }

    /// Upper bound of `V(y, t) - V(x, s)` in this (non-bottom) state, as `i128`.
    fn bound(&self, x: Var, s: usize, y: Var, t: usize) -> i128 {
        let derived = add128(lit_ub(self.get(y), t), lit_ub(self.get(x), 1 - s));
        if x == y {
            return if s == t { 0 } else { derived };
        }
        match (self.pack_idx(x), self.pack_idx(y)) {
            (Some(p), Some(q)) if p == q => {
                let pk = &self.packs[p];
                let (a, b) = (pk.pos(x), pk.pos(y));
                to_i128(pk.dbm.get(2 * a + s, 2 * b + t)).min(derived)
            }
            _ => derived,
        }
    }

    fn take_pack(&mut self, p: usize) -> Arc<Pack> {
        let pk = self.packs.swap_remove(p);
        for v in &pk.vars {
            self.set_pack_of(*v, NONE);
        }
        if p < self.packs.len() {
            let moved = self.packs[p].vars.clone();
            for v in moved {
                self.set_pack_of(v, p as u32);
            }
        }
        pk
    }

    fn put_pack(&mut self, pk: Pack) -> usize {
        let p = self.packs.len();
        for v in &pk.vars {
            self.set_pack_of(*v, p as u32);
        }
        self.packs.push(Arc::new(pk));
        p
    }

    /// Meets the intervals of pack `p`'s variables with its unary bounds; false when empty.
    fn sync(&mut self, p: usize) -> bool {
        let pk = Arc::clone(&self.packs[p]);
        for (k, v) in pk.vars.iter().enumerate() {
            let m = self.get(*v).meet(&pk.dbm.interval(k));
            if m.is_bottom() {
                return false;
            }
            self.put(*v, m);
        }
        true
    }

    /// Closes every pack that widening left open (bottom when one is empty).
    fn close_all(&mut self) {
        if self.bottom {
            return;
        }
        for p in 0..self.packs.len() {
            if !self.packs[p].closed {
                let pk = Arc::make_mut(&mut self.packs[p]);
                pk.closed = true;
                if !pk.dbm.close() || !self.sync(p) {
                    self.set_bottom();
                    return;
                }
            }
        }
    }

    /// A copy whose packs are all closed (or `self` when they already are).
    fn closed(&self) -> std::borrow::Cow<'_, OctagonEnv> {
        if self.packs.iter().all(|p| p.closed) {
            std::borrow::Cow::Borrowed(self)
        } else {
            let mut c = self.clone();
            c.close_all();
            std::borrow::Cow::Owned(c)
        }
    }

    /// Forgets the relations of `x` (projects it out of its pack); its interval stays.
    fn unpack(&mut self, x: Var) {
        let Some(p) = self.pack_idx(x) else { return };
        if self.packs[p].vars.len() <= 2 {
            self.take_pack(p);
            return;
        }
        let pk = Arc::make_mut(&mut self.packs[p]);
        let k = pk.pos(x);
        let keep: Vec<usize> = (0..pk.vars.len()).filter(|&i| i != k).collect();
        pk.dbm = pk.dbm.project(&keep);
        pk.vars.remove(k);
        pk.stamps.remove(k);
        self.set_pack_of(x, NONE);
    }

    /// The pack of `x`, made a singleton one if `x` has none.
    fn ensure_pack(&mut self, x: Var) -> usize {
        if let Some(p) = self.pack_idx(x) {
            return p;
        }
        let mut dbm = Dbm::top(1);
        dbm.meet_interval(0, self.get(x));
        self.clock += 1;
        self.put_pack(Pack {
            vars: vec![x],
            stamps: vec![self.clock],
            dbm,
            closed: true,
        })
    }

    fn touch(&mut self, p: usize, x: Var) {
        self.clock += 1;
        let c = self.clock;
        let pk = Arc::make_mut(&mut self.packs[p]);
        let k = pk.pos(x);
        pk.stamps[k] = c;
    }

    /// The least recently related variable of pack `p` outside `keep`.
    fn oldest(&self, p: usize, keep: &[Var]) -> Option<Var> {
        let pk = &self.packs[p];
        pk.vars
            .iter()
            .zip(&pk.stamps)
            .filter(|(v, _)| !keep.contains(v))
            .min_by_key(|(v, s)| (**s, **v))
            .map(|(v, _)| *v)
    }

    /// Puts `x` and `y` in one pack (evicting the least recently related variables of their
    /// packs when the union would be too big); returns it.
    fn unite(&mut self, x: Var, y: Var) -> usize {
        loop {
            let px = self.ensure_pack(x);
            let py = self.ensure_pack(y);
            if px == py {
                return px;
            }
            let (nx, ny) = (self.packs[px].vars.len(), self.packs[py].vars.len());
            if nx + ny <= MAX_PACK {
                let (hi, lo) = if px > py { (px, py) } else { (py, px) };
                let b = self.take_pack(hi);
                let a = self.take_pack(lo);
                let (a, b) = if lo == px { (a, b) } else { (b, a) };
                let mut vars = a.vars.clone();
                vars.extend(&b.vars);
                let mut stamps = a.stamps.clone();
                stamps.extend(&b.stamps);
                // Soundness: both packs are closed (every `&mut` transfer closes first), so the
                // block matrix with unary-implied cross entries is their closed product.
                let dbm = a.dbm.concat(&b.dbm);
                return self.put_pack(Pack {
                    vars,
                    stamps,
                    dbm,
                    closed: true,
                });
            }
            // Soundness: forgetting a variable's relations keeps a superset of the states.
            let from = if nx >= ny { px } else { py };
            match self.oldest(from, &[x, y]) {
                Some(v) => self.unpack(v),
                None => unreachable!("a pack holds two variables at least past MAX_PACK"),
            }
        }
    }

    /// Makes room for one more variable in pack `p` (never evicting `keep`); returns the
    /// (unchanged) index of `keep`'s pack.
    fn make_room(&mut self, keep: Var) -> usize {
        loop {
            let p = self.ensure_pack(keep);
            if self.packs[p].vars.len() < MAX_PACK {
                return p;
            }
            let v = self
                .oldest(p, &[keep])
                .expect("a full pack has other variables");
            self.unpack(v);
        }
    }

    /// Meets `x` with `v`, keeping its relations (bottom when empty).
    fn refine_var(&mut self, x: Var, v: Interval) {
        if self.bottom {
            return;
        }
        let cur = self.get(x);
        let m = cur.meet(&v);
        if m == cur {
            return;
        }
        if m.is_bottom() {
            self.set_bottom();
            return;
        }
        self.put(x, m);
        if let Some(p) = self.pack_idx(x) {
            let pk = Arc::make_mut(&mut self.packs[p]);
            let k = pk.pos(x);
            if !pk.dbm.meet_interval(k, m) || !self.sync(p) {
                self.set_bottom();
            }
        }
    }

    /// Adds `u - w <= c` (exact for the values; `u != w`).
    fn add_difference(&mut self, u: Var, w: Var, c: i128) {
        if self.bottom || self.bound(w, 0, u, 0) <= c {
            return;
        }
        self.put_difference(u, w, c);
    }

    /// `V(y, t) - V(x, s) <= c` (`V(v, 0) = v`, `V(v, 1) = -v`) as an entry of the pack of `x`
    /// and `y` (united), even when the intervals imply it already.
    fn put_bound(&mut self, x: Var, s: usize, y: Var, t: usize, c: i128) {
        let Some(c) = entry(c) else { return };
        let p = self.unite(x, y);
        self.touch(p, x);
        self.touch(p, y);
        let pk = Arc::make_mut(&mut self.packs[p]);
        let (kx, ky) = (pk.pos(x), pk.pos(y));
        if !pk.dbm.add_constraint(2 * kx + s, 2 * ky + t, c) || !self.sync(p) {
            self.set_bottom();
        }
    }

    /// `u - w <= c` (see `put_bound`).
    fn put_difference(&mut self, u: Var, w: Var, c: i128) {
        self.put_bound(w, 0, u, 0, c);
    }

    /// `x := s*y + [l, h]` where the caller checked that no wrap-around occurs, and `r` is the
    /// exact interval of the result.
    fn assign_affine(&mut self, x: Var, s: i8, y: Var, l: i128, h: i128, r: Interval) {
        let (Some(hb), Some(lb)) = (entry(h), entry(-l)) else {
            self.set(x, r);
            return;
        };
        if x == y && s == 1 && l == h {
            // An invertible assignment: shift the constraints of x.
            if let Some(p) = self.pack_idx(x) {
                if hb.abs() < (1 << 58) {
                    let pk = Arc::make_mut(&mut self.packs[p]);
                    let k = pk.pos(x);
                    pk.dbm.translate(k, hb);
                    self.put(x, r);
                    if !self.sync(p) {
                        self.set_bottom();
                    }
                    return;
                }
                self.unpack(x);
            }
            self.put(x, r);
            return;
        }
        let p;
        let (kx, ky, temp);
        if x == y {
            // The old value of x goes to a temporary column, projected out at the end.
            p = self.make_room(x);
            let pk = Arc::make_mut(&mut self.packs[p]);
            let k = pk.pos(x);
            let t = pk.dbm.push_copy(k);
            pk.dbm.forget(k);
            (kx, ky, temp) = (k, t, true);
        } else {
            self.unpack(x);
            p = self.make_room(y);
            self.clock += 1;
            let c = self.clock;
            let pk = Arc::make_mut(&mut self.packs[p]);
            let k = pk.dbm.push();
            pk.vars.push(x);
            pk.stamps.push(c);
            self.set_pack_of(x, p as u32);
            let pk = &self.packs[p];
            (kx, ky, temp) = (k, pk.pos(y), false);
        }
        self.put(x, r);
        let pk = Arc::make_mut(&mut self.packs[p]);
        let px = 2 * kx;
        let py = if s == 1 { 2 * ky } else { 2 * ky + 1 };
        // x - s*y <= h and s*y - x <= -l.
        let ok = pk.dbm.meet_interval(kx, r)
            && pk.dbm.add_constraint(py, px, hb)
            && pk.dbm.add_constraint(px, py, lb);
        if temp {
            let n = pk.dbm.vars();
            let keep: Vec<usize> = (0..n - 1).collect();
            pk.dbm = pk.dbm.project(&keep);
        }
        if !ok || !self.sync(p) {
            self.set_bottom();
            return;
        }
        self.touch(p, x);
        if x != y {
            self.touch(p, y);
        }
    }

    /// `x := a op b` as `s*y + [l, h]` when `op` is an addition or subtraction with one side a
    /// variable, and the other side's values bounded: `(s, y, [l, h])`.
    fn affine_form(
        &self,
        op: BinOp,
        a: Operand,
        b: Operand,
        ty: IntTy,
    ) -> Option<(i8, Var, Interval)> {
        let val = |o: Operand| machine::clamp(self.value(o), ty);
        let neg = |v: Interval| {
            if v.is_bottom() {
                v
            } else {
                Interval::new(-v.hi(), -v.lo())
            }
        };
        let bounded = |v: &Interval| !v.is_bottom() && v.width() != u128::MAX;
        match (op, a, b) {
            (BinOp::Add, Operand::Var(y), Operand::Const(_)) => Some((1, y, val(b))),
            (BinOp::Add, Operand::Const(_), Operand::Var(y)) => Some((1, y, val(a))),
            (BinOp::Sub, Operand::Var(y), Operand::Const(_)) => Some((1, y, neg(val(b)))),
            (BinOp::Sub, Operand::Const(_), Operand::Var(y)) => Some((-1, y, val(a))),
            (BinOp::Add, Operand::Var(y), Operand::Var(z)) => {
                // Relate the result to the operand whose partner is narrower.
                let (vy, vz) = (val(a), val(b));
                if bounded(&vz) && (vz.width() <= vy.width() || !bounded(&vy)) {
                    Some((1, y, vz))
                } else if bounded(&vy) {
                    Some((1, z, vy))
                } else {
                    None
                }
            }
            (BinOp::Sub, Operand::Var(y), Operand::Var(z)) => {
                let (vy, vz) = (val(a), val(b));
                if bounded(&vz) && (vz.width() <= vy.width() || !bounded(&vy)) {
                    Some((1, y, neg(vz)))
                } else if bounded(&vy) {
                    Some((-1, z, vy))
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// `pred` on the values of two variables decided from their difference, when the
    /// predicate orders the canonical values as integers.
    fn relational_truth(&self, pred: CmpPred, a: Var, b: Var, ty: IntTy) -> Truth {
        use CmpPred::*;
        if ty.bits > MAX_BITS {
            return Truth::Unknown;
        }
        if a == b {
            return match pred {
                Eq | Sle | Sge | Ule | Uge => Truth::True,
                _ => Truth::False,
            };
        }
        if !self.orders(pred, a, b, ty) {
            return Truth::Unknown;
        }
        let (va, vb) = (
            machine::clamp(self.get(a), ty),
            machine::clamp(self.get(b), ty),
        );
        if va.is_bottom() || vb.is_bottom() {
            return Truth::True;
        }
        let exact = machine::binop(BinOp::Sub, va, vb, IntTy::new(128));
        let d = self.difference(a, b).meet(&exact);
        if d.is_bottom() {
            return Truth::True;
        }
        let (t, f) = match pred {
            Eq => (d.lo() == 0 && d.hi() == 0, d.lo() > 0 || d.hi() < 0),
            Ne => (d.lo() > 0 || d.hi() < 0, d.lo() == 0 && d.hi() == 0),
            Slt | Ult => (d.hi() < 0, d.lo() >= 0),
            Sle | Ule => (d.hi() <= 0, d.lo() > 0),
            Sgt | Ugt => (d.lo() > 0, d.hi() <= 0),
            Sge | Uge => (d.lo() >= 0, d.hi() < 0),
        };
        if t {
            Truth::True
        } else if f {
            Truth::False
        } else {
            Truth::Unknown
        }
    }

    /// Whether `pred` compares the canonical values of `a` and `b` as integers: equality
    /// always; signed orders above one bit; unsigned ones when both lie in the same half.
    fn orders(&self, pred: CmpPred, a: Var, b: Var, ty: IntTy) -> bool {
        use CmpPred::*;
        match pred {
            Eq | Ne => true,
            Slt | Sle | Sgt | Sge => ty.bits > 1,
            Ult | Ule | Ugt | Uge => {
                let (va, vb) = (
                    machine::clamp(self.get(a), ty),
                    machine::clamp(self.get(b), ty),
                );
                ty.bits == 1 || (va.lo() >= 0 && vb.lo() >= 0) || (va.hi() < 0 && vb.hi() < 0)
            }
        }
    }

    /// The matrix of this state over `block`: its packs' entries where two variables share a
    /// pack, the bounds implied by the intervals elsewhere.
    fn embed(&self, block: &[Var]) -> Dbm {
        let n = block.len();
        let mut m = Dbm::top(n);
        let loc: Vec<Option<(usize, usize)>> = block
            .iter()
            .map(|v| self.pack_idx(*v).map(|p| (p, self.packs[p].pos(*v))))
            .collect();
        if let Some(Some((p, _))) = loc.first() {
            if self.packs[*p].closed && loc.iter().all(|l| matches!(l, Some((q, _)) if q == p)) {
                // Within one closed pack: its projection (the intervals are included in its
                // unary bounds, and equal to them after closure).
                let pos: Vec<usize> = loc.iter().map(|l| l.map_or(0, |(_, k)| k)).collect();
                return self.packs[*p].dbm.project(&pos);
            }
        }
        for (k, v) in block.iter().enumerate() {
            let i = self.get(*v);
            m.put_min(2 * k + 1, 2 * k, ub2(i.hi()));
            if i.lo() != i128::MIN {
                m.put_min(2 * k, 2 * k + 1, ub2(-i.lo()));
            }
        }
        for (a, la) in loc.iter().enumerate() {
            let Some((p, pa)) = *la else { continue };
            for (b, lb) in loc.iter().enumerate() {
                let Some((q, pb)) = *lb else { continue };
                if p != q {
                    continue;
                }
                let dbm = &self.packs[p].dbm;
                for s in 0..2 {
                    for t in 0..2 {
                        m.put_min(2 * a + s, 2 * b + t, dbm.get(2 * pa + s, 2 * pb + t));
                    }
                }
            }
        }
        m.strengthen();
        m
    }

    /// `self ⊔ o`, `self ⊓ o`, `self ∇ o` or `self Δ o` (both non-bottom; both closed except
    /// `self` for widening): intervals pointwise, octagons over the merged packs.
    fn combine(&self, o: &Self, how: Merge<'_>) -> OctagonEnv {
        let mut itv = self.itv.clone();
        match how {
            Merge::Join | Merge::Widen(_) => {
                itv.zip_with(&o.itv, &mut |i, a, b| match how {
                    Merge::Widen(sel) if sel(Var(i as u32)) => a.widen_with(&b),
                    _ => a.join_with(&b),
                });
            }
            Merge::Meet | Merge::Narrow => {
                let mut empty = false;
                itv.zip_with(&o.itv, &mut |_, a, b| {
                    let c = if matches!(how, Merge::Meet) {
                        a.meet_with(&b)
                    } else {
                        a.narrow_with(&b)
                    };
                    empty |= a.is_bottom();
                    c
                });
                if empty {
                    return OctagonEnv::bottom();
                }
            }
        }
        let mut out = OctagonEnv {
            bottom: false,
            itv,
            pack_of: PVec::new(),
            packs: Vec::new(),
            clock: self.clock.max(o.clock),
        };
        // Union-find over the packed variables of both sides.
        let mut vars: Vec<Var> = self
            .packs
            .iter()
            .chain(&o.packs)
            .flat_map(|p| p.vars.iter().copied())
            .collect();
        vars.sort_unstable();
        vars.dedup();
        let idx = |v: Var| vars.binary_search(&v).expect("packed variable");
        let mut parent: Vec<usize> = (0..vars.len()).collect();
        fn find(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for p in self.packs.iter().chain(&o.packs) {
            let r0 = find(&mut parent, idx(p.vars[0]));
            for v in &p.vars[1..] {
                let r = find(&mut parent, idx(*v));
                parent[r] = r0;
            }
        }
        let mut comps: std::collections::BTreeMap<usize, Vec<Var>> = Default::default();
        for (i, v) in vars.iter().enumerate() {
            let r = find(&mut parent, i);
            comps.entry(r).or_default().push(*v);
        }
        for comp in comps.into_values() {
            let blocks: Vec<Vec<Var>> = if comp.len() <= MAX_PACK {
                vec![comp]
            } else {
                // Soundness: too big to relate at once; keep the relations both sides' packs
                // agree on (blocks of the intersection partition), forget the others.
                let mut by_key: std::collections::BTreeMap<(u32, u32), Vec<Var>> =
                    Default::default();
                for v in comp {
                    let key = (
                        self.pack_idx(v).map_or(NONE, |p| p as u32),
                        o.pack_idx(v).map_or(NONE, |p| p as u32),
                    );
                    by_key.entry(key).or_default().push(v);
                }
                by_key.into_values().filter(|b| b.len() >= 2).collect()
            };
            for block in blocks {
                if let (Some(p), Some(q)) = (self.pack_idx(block[0]), o.pack_idx(block[0])) {
                    if Arc::ptr_eq(&self.packs[p], &o.packs[q])
                        && self.packs[p].vars.len() == block.len()
                    {
                        let pk = Arc::clone(&self.packs[p]);
                        for v in &pk.vars {
                            out.set_pack_of(*v, out.packs.len() as u32);
                        }
                        out.packs.push(pk);
                        continue;
                    }
                }
                let mut m = self.embed(&block);
                let b = o.embed(&block);
                let closed = match how {
                    Merge::Join => {
                        m.join(&b);
                        true
                    }
                    Merge::Meet => {
                        m.meet(&b);
                        if !m.close() {
                            return OctagonEnv::bottom();
                        }
                        true
                    }
                    Merge::Widen(sel) => {
                        m.widen(&b, &|k| sel(block[k]));
                        false
                    }
                    Merge::Narrow => {
                        m.narrow(&b);
                        if !m.close() {
                            return OctagonEnv::bottom();
                        }
                        true
                    }
                };
                let stamp = |e: &OctagonEnv, v: Var| {
                    e.pack_idx(v).map_or(0, |p| {
                        let pk = &e.packs[p];
                        pk.stamps[pk.pos(v)]
                    })
                };
                let stamps = block
                    .iter()
                    .map(|v| stamp(self, *v).max(stamp(o, *v)))
                    .collect();
                out.put_pack(Pack {
                    vars: block,
                    stamps,
                    dbm: m,
                    closed,
                });
            }
        }
        out.normalize();
        out
    }

    /// Drops from every pack the variables it says nothing about (no entry below what the
    /// intervals imply, and an unbounded interval or no finite entry at all), and packs left
    /// with fewer than two variables; meets the intervals with closed packs.
    fn normalize(&mut self) {
        let mut p = 0;
        while p < self.packs.len() {
            if self.packs[p].closed && !self.sync(p) {
                self.set_bottom();
                return;
            }
            let pk = &self.packs[p];
            let keep: Vec<usize> = (0..pk.vars.len())
                .filter(|&k| {
                    let i = pk.dbm.interval(k);
                    let unbounded = i.lo() == i128::MIN || i.hi() == i128::MAX;
                    pk.dbm.related(k) || (!unbounded && pk.dbm.any_finite(k))
                })
                .collect();
            if keep.len() < 2 {
                self.take_pack(p);
                continue;
            }
            if keep.len() < pk.vars.len() {
                let dropped: Vec<Var> = (0..pk.vars.len())
                    .filter(|k| !keep.contains(k))
                    .map(|k| pk.vars[k])
                    .collect();
                let pk = Arc::make_mut(&mut self.packs[p]);
                pk.dbm = pk.dbm.project(&keep);
                pk.vars = keep.iter().map(|&k| pk.vars[k]).collect();
                pk.stamps = keep.iter().map(|&k| pk.stamps[k]).collect();
                for v in dropped {
                    self.set_pack_of(v, NONE);
                }
            }
            p += 1;
        }
    }
}

impl Lattice for OctagonEnv {
    fn bottom() -> Self {
        OctagonEnv {
            bottom: true,
            itv: PVec::new(),
            pack_of: PVec::new(),
            packs: Vec::new(),
            clock: 0,
        }
    }

    fn top() -> Self {
        OctagonEnv::with_capacity(0)
    }

    fn is_bottom(&self) -> bool {
        self.bottom
    }

    /// Every constraint of `o` (interval or pack entry) is entailed by (closed) `self`; exact,
    /// since the bounds of a closed pack, or of two variables in different packs, are tight.
    fn leq(&self, o: &Self) -> bool {
        if self.bottom {
            return true;
        }
        if o.bottom {
            return false;
        }
        let a = self.closed();
        if a.bottom {
            return true;
        }
        if !a.itv.all2(&o.itv, &mut |_, x, y| x.is_subset(&y)) {
            return false;
        }
        for pk in &o.packs {
            // The same pack (shared since a common ancestor state) holds in `a` too.
            if let Some(p) = a.pack_idx(pk.vars[0]) {
                if Arc::ptr_eq(&a.packs[p], pk) {
                    continue;
                }
            }
            let n = pk.vars.len();
            for k1 in 0..n {
                for k2 in 0..n {
                    if k1 == k2 {
                        continue;
                    }
                    for s in 0..2 {
                        for t in 0..2 {
                            let (i, j) = (2 * k1 + s, 2 * k2 + t);
                            let e = pk.dbm.get(i, j);
                            if e == INF || e >= pk.dbm.derived(i, j) {
                                continue;
                            }
                            if a.bound(pk.vars[k1], s, pk.vars[k2], t) > i128::from(e) {
                                return false;
                            }
                        }
                    }
                }
            }
        }
        true
    }

    fn join_with(&mut self, o: &Self) -> bool {
        if o.bottom {
            return false;
        }
        if self.bottom {
            *self = o.clone();
            return true;
        }
        if o.leq(self) {
            return false;
        }
        self.close_all();
        if self.bottom {
            *self = o.clone();
            return true;
        }
        let o = o.closed();
        if o.bottom {
            return false;
        }
        *self = self.combine(&o, Merge::Join);
        true
    }

    fn meet_with(&mut self, o: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if o.bottom {
            self.set_bottom();
            return true;
        }
        if self.leq(o) {
            return false;
        }
        self.close_all();
        let o = o.closed();
        if self.bottom || o.bottom {
            self.set_bottom();
            return true;
        }
        *self = self.combine(&o, Merge::Meet);
        true
    }

    fn widen_with(&mut self, newer: &Self) -> bool {
        self.widen_selected(newer, &|_| true)
    }

    fn narrow_with(&mut self, newer: &Self) -> bool {
        if self.bottom {
            return false;
        }
        if newer.bottom {
            self.set_bottom();
            return true;
        }
        self.close_all();
        let n = newer.closed();
        if self.bottom {
            return false;
        }
        if n.bottom {
            self.set_bottom();
            return true;
        }
        let r = self.combine(&n, Merge::Narrow);
        let changed = !self.leq(&r);
        *self = r;
        changed
    }
}

impl NumDomain for OctagonEnv {
    fn interval(&self, x: Var) -> Interval {
        if self.bottom {
            return Interval::bottom();
        }
        self.get(x)
    }

    fn set(&mut self, x: Var, v: Interval) {
        if self.bottom {
            return;
        }
        if v.is_bottom() {
            self.set_bottom();
            return;
        }
        self.unpack(x);
        self.put(x, v);
    }

    fn set_weak(&mut self, x: Var, v: Interval) {
        if self.bottom || v.is_bottom() {
            return;
        }
        self.close_all();
        if self.bottom {
            return;
        }
        let j = self.get(x).join(&v);
        if let Some(p) = self.pack_idx(x) {
            // (x's old constraints) ⊔ (the others' constraints with x ∈ v).
            let pk = Arc::make_mut(&mut self.packs[p]);
            let k = pk.pos(x);
            let mut alt = pk.dbm.clone();
            alt.forget(k);
            if alt.meet_interval(k, v) {
                pk.dbm.join(&alt);
            }
            self.put(x, j);
            if !self.sync(p) {
                self.set_bottom();
            }
        } else {
            self.put(x, j);
        }
    }

    fn assign(&mut self, x: Var, y: Var) {
        if self.bottom || x == y {
            return;
        }
        self.close_all();
        if self.bottom {
            return;
        }
        self.unpack(x);
        let v = self.get(y);
        self.put(x, v);
        let p = self.make_room(y);
        self.clock += 1;
        let c = self.clock;
        let pk = Arc::make_mut(&mut self.packs[p]);
        let ky = pk.pos(y);
        pk.dbm.push_copy(ky);
        pk.vars.push(x);
        pk.stamps.push(c);
        pk.stamps[ky] = c;
        self.set_pack_of(x, p as u32);
    }

    fn apply(&mut self, x: Var, op: BinOp, a: Operand, b: Operand, ty: IntTy) {
        if self.bottom {
            return;
        }
        self.close_all();
        if self.bottom {
            return;
        }
        let r = machine::binop(op, self.value(a), self.value(b), ty);
        if r.is_bottom() || ty.bits > MAX_BITS {
            self.set(x, r);
            return;
        }
        // Soundness: when y ± z cannot wrap around, x is y ± z exactly, which the octagon may
        // bound better than the intervals.
        let r = match (op, a, b) {
            (BinOp::Add | BinOp::Sub, Operand::Var(y), Operand::Var(z)) => {
                let (vy, vz) = (
                    machine::clamp(self.get(y), ty),
                    machine::clamp(self.get(z), ty),
                );
                let exact = machine::binop(op, vy, vz, IntTy::new(120));
                if exact.is_subset(&Interval::top_of(ty)) {
                    let rel = if op == BinOp::Add {
                        self.sum(y, z)
                    } else {
                        self.difference(y, z)
                    };
                    let m = r.meet(&rel);
                    if m.is_bottom() {
                        self.set_bottom();
                        return;
                    }
                    m
                } else {
                    r
                }
            }
            _ => r,
        };
        if let Some((s, y, off)) = self.affine_form(op, a, b, ty) {
            let vy = machine::clamp(self.get(y), ty);
            if !vy.is_bottom() && !off.is_bottom() && off.width() != u128::MAX {
                let exact = if s == 1 {
                    Interval::new(vy.lo() + off.lo(), vy.hi() + off.hi())
                } else {
                    Interval::new(off.lo() - vy.hi(), off.hi() - vy.lo())
                };
                // Soundness: x = s*y + off only when the exact result never wraps around.
                if exact.is_subset(&Interval::top_of(ty)) {
                    self.assign_affine(x, s, y, off.lo(), off.hi(), exact.meet(&r));
                    return;
                }
            }
        }
        self.set(x, r);
    }

    fn cast(&mut self, x: Var, op: CastOp, a: Operand, from: IntTy, to: IntTy) {
        if self.bottom {
            return;
        }
        let r = machine::cast(op, self.value(a), from, to);
        if let (Operand::Var(y), false) = (a, r.is_bottom()) {
            if from.bits <= MAX_BITS && to.bits <= MAX_BITS {
                let vy = machine::clamp(self.get(y), from);
                // Soundness: the cast is the identity on the canonical values of y.
                let identity = match op {
                    CastOp::SExt => from.bits > 1 && to.bits >= from.bits,
                    CastOp::ZExt => to.bits >= from.bits && vy.lo() >= 0,
                    CastOp::Trunc => vy.is_subset(&Interval::top_of(to)),
                };
                if identity && !vy.is_bottom() {
                    self.assign(x, y);
                    self.close_all();
                    self.refine_var(x, r);
                    return;
                }
            }
        }
        self.set(x, r);
    }

    fn compare(&mut self, x: Var, pred: CmpPred, a: Operand, b: Operand, ty: IntTy) {
        if self.bottom {
            return;
        }
        self.close_all();
        let r = machine::compare(pred, self.value(a), self.value(b), ty);
        let r = match (r.as_const(), a, b) {
            (None, Operand::Var(u), Operand::Var(w)) if !r.is_bottom() => {
                match self.relational_truth(pred, u, w, ty) {
                    Truth::True => Interval::constant(1),
                    Truth::False => Interval::constant(0),
                    Truth::Unknown => r,
                }
            }
            _ => r,
        };
        self.set(x, r);
    }

    fn assume(&mut self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy, outcome: bool) {
        if self.bottom {
            return;
        }
        self.close_all();
        if self.bottom {
            return;
        }
        if let (Operand::Var(u), Operand::Var(w)) = (a, b) {
            if u == w {
                let holds = self.relational_truth(pred, u, w, ty) == Truth::True;
                if holds != outcome {
                    self.set_bottom();
                }
                return;
            }
        }
        let (ra, rb) = machine::refine(pred, self.value(a), self.value(b), ty, outcome);
        if ra.is_bottom() || rb.is_bottom() {
            self.set_bottom();
            return;
        }
        if let Operand::Var(u) = a {
            self.refine_var(u, ra);
        }
        if let Operand::Var(w) = b {
            self.refine_var(w, rb);
        }
        let (Operand::Var(u), Operand::Var(w)) = (a, b) else {
            return;
        };
        if self.bottom || ty.bits > MAX_BITS {
            return;
        }
        let p = if outcome { pred } else { pred.negate() };
        if !self.orders(p, u, w, ty) {
            return;
        }
        use CmpPred::*;
        match p {
            Slt | Ult => self.add_difference(u, w, -1),
            Sle | Ule => self.add_difference(u, w, 0),
            Sgt | Ugt => self.add_difference(w, u, -1),
            Sge | Uge => self.add_difference(w, u, 0),
            Eq => {
                self.add_difference(u, w, 0);
                self.add_difference(w, u, 0);
            }
            Ne => {
                let d = self.difference(u, w);
                if d.lo() == 0 {
                    self.add_difference(w, u, -1);
                } else if d.hi() == 0 {
                    self.add_difference(u, w, -1);
                }
            }
        }
    }

    fn entails(&self, pred: CmpPred, a: Operand, b: Operand, ty: IntTy) -> Truth {
        if self.bottom {
            return Truth::True;
        }
        let t = machine::entails(pred, self.value(a), self.value(b), ty);
        match (t, a, b) {
            (Truth::Unknown, Operand::Var(u), Operand::Var(w)) => {
                self.relational_truth(pred, u, w, ty)
            }
            _ => t,
        }
    }

    fn forget(&mut self, x: Var) {
        if self.bottom {
            return;
        }
        self.unpack(x);
        self.put(x, Interval::top());
    }

    fn set_bottom(&mut self) {
        *self = OctagonEnv::bottom();
    }

    const RELATIONAL: bool = true;

    fn project(&self, keep: &[Var]) -> Self {
        if self.bottom {
            return OctagonEnv::bottom();
        }
        let s = self.closed();
        if s.bottom {
            return OctagonEnv::bottom();
        }
        let mut out = OctagonEnv::with_capacity(keep.len());
        for &x in keep {
            out.put(x, s.get(x));
        }
        let mut seen = Vec::new();
        for &x in keep {
            let Some(p) = s.pack_idx(x).filter(|p| !seen.contains(p)) else {
                continue;
            };
            seen.push(p);
            let pk = &s.packs[p];
            let at: Vec<usize> = (0..pk.vars.len())
                .filter(|&i| keep.contains(&pk.vars[i]))
                .collect();
            if at.len() < 2 {
                continue;
            }
            // A projection of a closed matrix is closed.
            out.put_pack(Pack {
                vars: at.iter().map(|&i| pk.vars[i]).collect(),
                stamps: at.iter().map(|&i| pk.stamps[i]).collect(),
                dbm: pk.dbm.project(&at),
                closed: pk.closed,
            });
        }
        // What the state implies about the sum and the difference of each pair becomes an
        // entry (a few variables only), so that a join with another projection keeps what
        // both share: `used + free == 10` from `used = 0, free = 10` and `used = 1, free = 9`.
        if keep.len() <= MAX_PACK {
            for (i, &a) in keep.iter().enumerate() {
                for &b in &keep[i + 1..] {
                    if a == b {
                        continue;
                    }
                    // V(y, t) - V(x, s) for (x, s, y, t): a - b, b - a, a + b, -a - b.
                    for (x, sx, y, ty) in [(b, 0, a, 0), (a, 0, b, 0), (b, 1, a, 0), (b, 0, a, 1)] {
                        let c = s.bound(x, sx, y, ty);
                        if c < i128::MAX && !out.bottom {
                            out.put_bound(x, sx, y, ty, c);
                        }
                    }
                }
            }
            out.close_all();
        }
        out
    }

    fn forget_many(&mut self, xs: &[Var]) {
        if self.bottom {
            return;
        }
        for &x in xs {
            if self.pack_idx(x).is_some() {
                self.unpack(x);
            }
        }
        let idx: Vec<usize> = xs.iter().map(|x| x.0 as usize).collect();
        self.itv.reset_many(&idx);
    }

    fn meet_interval(&mut self, x: Var, v: Interval) {
        self.close_all();
        self.refine_var(x, v);
    }

    fn relate(&mut self, a: Var, b: Var) {
        if self.bottom || a == b {
            return;
        }
        self.close_all();
        if self.bottom {
            return;
        }
        let (up, down) = (self.bound(b, 0, a, 0), self.bound(a, 0, b, 0));
        // Soundness: both bounds hold in every state (`bound` derives them from the state);
        // only finite ones that fit an entry are kept (`put_difference`).
        if up < i128::MAX && down < i128::MAX {
            self.put_difference(a, b, up);
            if !self.bottom {
                self.put_difference(b, a, down);
            }
        }
    }

    fn assign_parallel(&mut self, moves: &[(Var, Operand)]) {
        if self.bottom {
            return;
        }
        let dsts: Vec<Var> = moves.iter().map(|(x, _)| *x).collect();
        let mut relational = Vec::new();
        let mut plain = Vec::new();
        for (x, o) in moves {
            match o {
                // x := x keeps everything.
                Operand::Var(y) if y == x => {}
                // Soundness: a source that is also written reads its old value only if it is
                // copied before any write; those get their old interval instead.
                Operand::Var(y) if !dsts.contains(y) => relational.push((*x, *y)),
                _ => plain.push((*x, self.value(*o))),
            }
        }
        for (x, v) in plain {
            self.set(x, v);
        }
        for (x, y) in relational {
            self.assign(x, y);
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
        if newer.leq(self) {
            return false;
        }
        // Soundness of termination: `self` is used as it is (never closed here), `newer`
        // closed (Miné 2006, Def. 4.4.3); entries that grow go to +inf.
        let n = newer.closed();
        if n.bottom {
            return false;
        }
        *self = self.combine(&n, Merge::Widen(widen));
        true
    }
}
