//! A persistent vector of small `Copy` values (the per-variable part of the environments): a
//! radix tree of `W`-wide inner nodes over leaves of `LW` values, behind `Arc`, so that a clone
//! is one reference count, `set` copies one path (copy on write), and the pointwise operations
//! (join, meet, widening, inclusion, equality) skip the subtrees two states still share since a
//! common ancestor.
//!
//! Invariant: a missing subtree (`None`) stands for `span(level)` copies of `T::DEFAULT`, and so
//! does every index at or beyond the root's capacity; the tree shape is not part of the meaning
//! (two vectors are equal when they agree on every index).
//!
//! It holds both environments' per-variable data (intervals, the octagon's `pack_of`; D16). An
//! absent subtree is top (or `NONE`); the pointwise operations require the element operation to
//! leave equal elements alone (join, meet, widening and narrowing are idempotent), which is what
//! lets them skip shared subtrees.

use std::fmt;
use std::sync::Arc;

/// An element with the value that every index holds until it is set (top, for the domains).
pub(crate) trait Elem: Copy + PartialEq + fmt::Debug {
    /// The value of an index never set.
    const DEFAULT: Self;
}

const BITS: u32 = 5;
/// Children of an inner node.
const W: usize = 1 << BITS;
const MASK: usize = W - 1;
const LEAF_BITS: u32 = 3;
/// Elements of a leaf: 8 intervals (256 bytes) are as big as an inner node's 32 pointers, so
/// that neither kind of node wastes the room of the other; a `set` copies a leaf and one inner
/// node per level (4 levels cover 2^18 variables).
const LW: usize = 1 << LEAF_BITS;
const LEAF_MASK: usize = LW - 1;

// The variants are equal in size for intervals (8 × 32 bytes, 32 × 8 bytes); the `u32` leaves
// of `pack_of` waste room, but only packed variables have one.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Node<T> {
    Leaf([T; LW]),
    Inner([Option<Arc<Node<T>>>; W]),
}

type Slot<T> = Option<Arc<Node<T>>>;

/// `usize → T`, `T::DEFAULT` wherever nothing was set.
#[derive(Clone)]
pub(crate) struct PVec<T> {
    /// Invariant: the root covers the indices `0 .. span(height)`; a root of height 0 is a leaf.
    height: u32,
    root: Slot<T>,
}

/// The number of indices a node of `level` covers (level 0: a leaf).
fn span(level: u32) -> usize {
    1usize
        .checked_shl(LEAF_BITS + BITS * level)
        .unwrap_or(usize::MAX)
}

/// The child of an inner node of `level` (at least 1) that holds index `i`.
fn slot(i: usize, level: u32) -> usize {
    (i >> (LEAF_BITS + BITS * (level - 1))) & MASK
}

fn empty_inner<T>() -> Node<T> {
    Node::Inner(std::array::from_fn(|_| None))
}

fn ptr_eq<T>(a: Option<&Arc<Node<T>>>, b: Option<&Arc<Node<T>>>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// The children of an inner node (`None` for a missing node or a leaf).
fn children<T>(n: Option<&Arc<Node<T>>>) -> Option<&[Slot<T>; W]> {
    match n.map(|n| &**n) {
        Some(Node::Inner(c)) => Some(c),
        _ => None,
    }
}

/// Child `k` of an inner node (`None` for a missing node).
fn child<T>(n: Option<&Arc<Node<T>>>, k: usize) -> Option<&Arc<Node<T>>> {
    match n.map(|n| &**n) {
        Some(Node::Inner(c)) => c[k].as_ref(),
        _ => None,
    }
}

impl<T: Elem> PVec<T> {
    /// Every index holds `T::DEFAULT`.
    pub(crate) fn new() -> PVec<T> {
        PVec {
            height: 0,
            root: None,
        }
    }

    /// The value at `i`.
    pub(crate) fn get(&self, i: usize) -> T {
        if i >= span(self.height) {
            return T::DEFAULT;
        }
        let mut node = match &self.root {
            Some(n) => n,
            None => return T::DEFAULT,
        };
        let mut level = self.height;
        loop {
            match &**node {
                Node::Leaf(a) => return a[i & LEAF_MASK],
                Node::Inner(c) => match &c[slot(i, level)] {
                    Some(n) => {
                        node = n;
                        level -= 1;
                    }
                    None => return T::DEFAULT,
                },
            }
        }
    }

    /// Raises the root until it covers `height`.
    fn grow(&mut self, height: u32) {
        while self.height < height {
            if let Some(r) = self.root.take() {
                let mut c: [Slot<T>; W] = std::array::from_fn(|_| None);
                c[0] = Some(r);
                self.root = Some(Arc::new(Node::Inner(c)));
            }
            self.height += 1;
        }
    }

    /// Sets index `i` to `v`, copying the nodes of its path that other vectors share.
    pub(crate) fn set(&mut self, i: usize, v: T) {
        if self.get(i) == v {
            return;
        }
        let mut h = self.height;
        while i >= span(h) {
            h += 1;
        }
        self.grow(h);
        let mut cur = &mut self.root;
        let mut level = self.height;
        loop {
            let node = cur.get_or_insert_with(|| {
                Arc::new(if level == 0 {
                    Node::Leaf([T::DEFAULT; LW])
                } else {
                    empty_inner()
                })
            });
            match Arc::make_mut(node) {
                Node::Leaf(a) => {
                    a[i & LEAF_MASK] = v;
                    return;
                }
                Node::Inner(c) => {
                    cur = &mut c[slot(i, level)];
                    level -= 1;
                }
            }
        }
    }

    /// Sets every index of `idx` (strictly increasing) to `T::DEFAULT` in one walk: each node
    /// on the way is copied at most once, and a subtree whose every index is reset is dropped,
    /// so two vectors reset over the same range share it again (`zip` skips it).
    pub(crate) fn reset_many(&mut self, idx: &[usize]) {
        debug_assert!(idx.windows(2).all(|w| w[0] < w[1]));
        let cap = span(self.height);
        let end = idx.partition_point(|&i| i < cap);
        if let Some(r) = reset(self.root.as_ref(), self.height, 0, &idx[..end]) {
            self.root = r;
        }
    }

    /// Sets every index from `n` on to `T::DEFAULT`, dropping the subtrees that lie wholly
    /// there and sharing the others.
    pub(crate) fn reset_from(&mut self, n: usize) {
        if let Some(r) = reset_from(self.root.as_ref(), self.height, 0, n) {
            self.root = r;
        }
    }

    /// The indices of the stored leaves with their values (every index not listed is
    /// `T::DEFAULT`), in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, T)> + '_ {
        let mut out = Vec::new();
        collect(self.root.as_ref(), self.height, 0, &mut out);
        out.into_iter()
    }

    /// Whether `pred(i, self[i], o[i])` holds at every index; `pred` must hold on equal values
    /// (it is not called on the subtrees both share, nor where both are `T::DEFAULT` by absence).
    pub(crate) fn all2<P: FnMut(usize, T, T) -> bool>(&self, o: &Self, pred: &mut P) -> bool {
        all2(
            self.root.as_ref(),
            self.height,
            o.root.as_ref(),
            o.height,
            0,
            pred,
        )
    }

    /// Whether both hold the same value at every index.
    pub(crate) fn same(&self, o: &Self) -> bool {
        self.all2(o, &mut |_, a, b| a == b)
    }

    /// `self[i] := f(i, self[i], o[i])` at every index, where `f` updates its first argument and
    /// returns whether it changed it; true iff some call did. `f` must leave an element alone
    /// when both sides are equal (join, meet, widening and narrowing are idempotent), so shared
    /// subtrees are skipped, and so are the indices where both sides are `T::DEFAULT` by absence.
    pub(crate) fn zip_with<F: FnMut(usize, &mut T, T) -> bool>(
        &mut self,
        o: &Self,
        f: &mut F,
    ) -> bool {
        self.zip_impl::<false, F>(o, f)
    }

    /// `zip_with` for an `f` that also leaves `T::DEFAULT` alone whatever the other side holds
    /// (join and widening, where the default is top): the subtrees absent from `self` are
    /// skipped too, however much `o` holds there, which is where a state whose cells were
    /// clobbered meets one that still knows them.
    pub(crate) fn zip_absorbing<F: FnMut(usize, &mut T, T) -> bool>(
        &mut self,
        o: &Self,
        f: &mut F,
    ) -> bool {
        self.zip_impl::<true, F>(o, f)
    }

    fn zip_impl<const ABSORB: bool, F: FnMut(usize, &mut T, T) -> bool>(
        &mut self,
        o: &Self,
        f: &mut F,
    ) -> bool {
        self.grow(o.height);
        let mut changed = false;
        if let Some(r) = zip::<ABSORB, T, F>(
            self.root.as_ref(),
            self.height,
            o.root.as_ref(),
            o.height,
            0,
            f,
            &mut changed,
        ) {
            self.root = r;
        }
        changed
    }
}

/// `reset_many` below a node of `level` whose first index is `base`; `idx` lies in its span.
/// `Some(new)` when the node changed.
fn reset<T: Elem>(
    n: Option<&Arc<Node<T>>>,
    level: u32,
    base: usize,
    idx: &[usize],
) -> Option<Slot<T>> {
    let node = n?;
    if idx.is_empty() {
        return None;
    }
    if idx.len() >= span(level) {
        return Some(None);
    }
    match &**node {
        Node::Leaf(a) => {
            if idx.iter().all(|&i| a[i - base] == T::DEFAULT) {
                return None;
            }
            let mut a = *a;
            for &i in idx {
                a[i - base] = T::DEFAULT;
            }
            Some(if a.iter().all(|x| *x == T::DEFAULT) {
                None
            } else {
                Some(Arc::new(Node::Leaf(a)))
            })
        }
        Node::Inner(c) => {
            let mut new: Option<[Slot<T>; W]> = None;
            let child_span = span(level - 1);
            let mut rest = idx;
            while let Some(&first) = rest.first() {
                let k = slot(first, level);
                let lo = base + k * child_span;
                let n = rest.partition_point(|&i| i < lo + child_span);
                if let Some(r) = reset(c[k].as_ref(), level - 1, lo, &rest[..n]) {
                    new.get_or_insert_with(|| c.clone())[k] = r;
                }
                rest = &rest[n..];
            }
            let c = new?;
            Some(if c.iter().all(Option::is_none) {
                None
            } else {
                Some(Arc::new(Node::Inner(c)))
            })
        }
    }
}

/// `reset_from(n)` below a node of `level` whose first index is `base`; `Some(new)` when the
/// node changed.
fn reset_from<T: Elem>(
    node: Option<&Arc<Node<T>>>,
    level: u32,
    base: usize,
    n: usize,
) -> Option<Slot<T>> {
    let node = node?;
    if base >= n {
        return Some(None);
    }
    if base.saturating_add(span(level)) <= n {
        return None;
    }
    match &**node {
        Node::Leaf(a) => {
            let mut a = *a;
            for x in &mut a[n - base..] {
                *x = T::DEFAULT;
            }
            Some(if a.iter().all(|x| *x == T::DEFAULT) {
                None
            } else {
                Some(Arc::new(Node::Leaf(a)))
            })
        }
        Node::Inner(c) => {
            let mut c = c.clone();
            let child_span = span(level - 1);
            for (k, ch) in c.iter_mut().enumerate() {
                if let Some(r) = reset_from(ch.as_ref(), level - 1, base + k * child_span, n) {
                    *ch = r;
                }
            }
            Some(if c.iter().all(Option::is_none) {
                None
            } else {
                Some(Arc::new(Node::Inner(c)))
            })
        }
    }
}

fn collect<T: Elem>(n: Option<&Arc<Node<T>>>, level: u32, base: usize, out: &mut Vec<(usize, T)>) {
    match n.map(|n| &**n) {
        None => {}
        Some(Node::Leaf(a)) => out.extend(a.iter().enumerate().map(|(k, v)| (base + k, *v))),
        Some(Node::Inner(c)) => {
            for (k, ch) in c.iter().enumerate() {
                collect(ch.as_ref(), level - 1, base + k * span(level - 1), out);
            }
        }
    }
}

fn all2<T: Elem, P: FnMut(usize, T, T) -> bool>(
    a: Option<&Arc<Node<T>>>,
    la: u32,
    b: Option<&Arc<Node<T>>>,
    lb: u32,
    base: usize,
    pred: &mut P,
) -> bool {
    // The lower root lies at child 0 of the higher one (its other children are absent).
    if la > lb {
        return (0..W).all(|k| {
            let bk = if k == 0 { b } else { None };
            all2(child(a, k), la - 1, bk, lb, base + k * span(la - 1), pred)
        });
    }
    if lb > la {
        return (0..W).all(|k| {
            let ak = if k == 0 { a } else { None };
            all2(ak, la, child(b, k), lb - 1, base + k * span(lb - 1), pred)
        });
    }
    if ptr_eq(a, b) {
        return true;
    }
    if la == 0 {
        let leaf = |n: Option<&Arc<Node<T>>>, k: usize| match n.map(|n| &**n) {
            Some(Node::Leaf(x)) => x[k],
            _ => T::DEFAULT,
        };
        return (0..LW).all(|k| pred(base + k, leaf(a, k), leaf(b, k)));
    }
    let (ac, bc) = (children(a), children(b));
    (0..W).all(|k| {
        let (ak, bk) = (
            ac.and_then(|c| c[k].as_ref()),
            bc.and_then(|c| c[k].as_ref()),
        );
        (ak.is_none() && bk.is_none())
            || all2(ak, la - 1, bk, lb - 1, base + k * span(la - 1), pred)
    })
}

/// The new node for `a` (`None` when it stays as it is), after `f` with `b` (`la >= lb`).
/// `ABSORB`: `f` leaves `T::DEFAULT` alone, so an absent `a` stays as it is.
fn zip<const ABSORB: bool, T: Elem, F: FnMut(usize, &mut T, T) -> bool>(
    a: Option<&Arc<Node<T>>>,
    la: u32,
    b: Option<&Arc<Node<T>>>,
    lb: u32,
    base: usize,
    f: &mut F,
    changed: &mut bool,
) -> Option<Slot<T>> {
    if (la == lb && ptr_eq(a, b)) || (ABSORB && a.is_none()) {
        return None;
    }
    if la == 0 {
        let mut x = match a.map(|n| &**n) {
            Some(Node::Leaf(x)) => *x,
            _ => [T::DEFAULT; LW],
        };
        let y = match b.map(|n| &**n) {
            Some(Node::Leaf(y)) => Some(y),
            _ => None,
        };
        let yv = y.copied().unwrap_or([T::DEFAULT; LW]);
        let mut any = false;
        for (k, (e, o)) in x.iter_mut().zip(yv).enumerate() {
            any |= f(base + k, e, o);
        }
        if !any {
            return None;
        }
        *changed = true;
        // Share `b`'s leaf when the result is it (meet with top), drop an all-default one.
        if let (Some(yl), Some(bn)) = (y, b) {
            if *yl == x {
                return Some(Some(Arc::clone(bn)));
            }
        }
        if x.iter().all(|e| *e == T::DEFAULT) {
            return Some(None);
        }
        return Some(Some(Arc::new(Node::Leaf(x))));
    }
    // The children of the new node, made on the first child that changes.
    let mut new: Option<[Slot<T>; W]> = None;
    let (ac, bc) = (children(a), if lb == la { children(b) } else { None });
    for k in 0..W {
        let ak = ac.and_then(|c| c[k].as_ref());
        // Below `a`'s level, `b`'s root is child 0 while its level is lower.
        let (bk, lbk) = if lb == la {
            (bc.and_then(|c| c[k].as_ref()), lb - 1)
        } else if k == 0 {
            (b, lb)
        } else {
            (None, lb)
        };
        if bk.is_none() && ak.is_none() {
            continue;
        }
        if ABSORB && ak.is_none() {
            continue;
        }
        let next = zip::<ABSORB, T, F>(ak, la - 1, bk, lbk, base + k * span(la - 1), f, changed);
        if let Some(r) = next {
            let c = new.get_or_insert_with(|| match a.map(|n| &**n) {
                Some(Node::Inner(c)) => c.clone(),
                _ => std::array::from_fn(|_| None),
            });
            c[k] = r;
        }
    }
    let c = new?;
    if c.iter().all(Option::is_none) {
        return Some(None);
    }
    if let (true, Some(Node::Inner(bc))) = (la == lb, b.map(|n| &**n)) {
        if c.iter()
            .zip(bc)
            .all(|(x, y)| ptr_eq(x.as_ref(), y.as_ref()))
        {
            return Some(b.cloned());
        }
    }
    Some(Some(Arc::new(Node::Inner(c))))
}

impl<T: Elem> PartialEq for PVec<T> {
    fn eq(&self, o: &Self) -> bool {
        self.same(o)
    }
}

impl<T: Elem> fmt::Debug for PVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.iter().filter(|(_, v)| *v != T::DEFAULT))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Elem for i64 {
        const DEFAULT: i64 = -1;
    }

    /// The reference: a dense vector, `-1` beyond its end.
    fn dense_get(d: &[i64], i: usize) -> i64 {
        d.get(i).copied().unwrap_or(-1)
    }

    fn build(pairs: &[(usize, i64)]) -> (PVec<i64>, Vec<i64>) {
        let mut p = PVec::new();
        let mut d = Vec::new();
        for &(i, v) in pairs {
            p.set(i, v);
            if d.len() <= i {
                d.resize(i + 1, -1);
            }
            d[i] = v;
        }
        (p, d)
    }

    #[test]
    fn agrees_with_a_dense_vector() {
        // Indices across several levels, values including the default (a reset).
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for round in 0..200 {
            let n = 1 + next() % 40;
            let range = [40, 1500, 40_000][round % 3];
            let pa: Vec<(usize, i64)> = (0..n)
                .map(|_| (next() % range, (next() % 5) as i64 - 1))
                .collect();
            let pb: Vec<(usize, i64)> = (0..n)
                .map(|_| (next() % range, (next() % 5) as i64 - 1))
                .collect();
            let (a, da) = build(&pa);
            // `b` shares `a`'s tree, then diverges.
            let mut b = a.clone();
            let mut db = da.clone();
            for &(i, v) in &pb {
                b.set(i, v);
                if db.len() <= i {
                    db.resize(i + 1, -1);
                }
                db[i] = v;
            }
            let top = da.len().max(db.len()) + 40;
            for i in 0..top {
                assert_eq!(a.get(i), dense_get(&da, i));
                assert_eq!(b.get(i), dense_get(&db, i));
            }
            let same = (0..top).all(|i| dense_get(&da, i) == dense_get(&db, i));
            assert_eq!(a == b, same);
            let le = (0..top).all(|i| dense_get(&da, i) <= dense_get(&db, i));
            assert_eq!(a.all2(&b, &mut |_, x, y| x <= y), le);
            // zip: the maximum (idempotent), against the dense reference.
            for (x, y, dx, dy) in [(&a, &b, &da, &db), (&b, &a, &db, &da)] {
                let mut z = x.clone();
                let grew = z.zip_with(y, &mut |_, e, o| {
                    let m = (*e).max(o);
                    let c = m != *e;
                    *e = m;
                    c
                });
                let mut any = false;
                for i in 0..top {
                    let m = dense_get(dx, i).max(dense_get(dy, i));
                    any |= m != dense_get(dx, i);
                    assert_eq!(z.get(i), m, "round {round} index {i}");
                }
                assert_eq!(grew, any);
                assert_eq!(x.get(0), dense_get(dx, 0), "the source is unchanged");
                // zip_absorbing: the minimum, which the default (-1, below every value) absorbs.
                let mut z = x.clone();
                let shrank = z.zip_absorbing(y, &mut |_, e, o| {
                    let m = (*e).min(o);
                    let c = m != *e;
                    *e = m;
                    c
                });
                let mut any = false;
                for i in 0..top {
                    let m = dense_get(dx, i).min(dense_get(dy, i));
                    any |= m != dense_get(dx, i);
                    assert_eq!(z.get(i), m, "round {round} index {i}");
                }
                assert_eq!(shrank, any);
            }
            // reset_many: runs of indices (whole leaves and subtrees) and scattered ones.
            let start = next() % range;
            let mut idx: Vec<usize> = (start..start + next() % 600).collect();
            idx.extend((0..n).map(|_| next() % (range + 100)));
            idx.sort_unstable();
            idx.dedup();
            let mut r = b.clone();
            r.reset_many(&idx);
            for i in 0..top + 700 {
                let want = if idx.binary_search(&i).is_ok() {
                    -1
                } else {
                    dense_get(&db, i)
                };
                assert_eq!(r.get(i), want, "round {round} index {i}");
            }
            assert_eq!(
                b.get(start),
                dense_get(&db, start),
                "the source is unchanged"
            );
            // reset_from: every index from a cut on.
            let cut = next() % (range + 50);
            let mut f = b.clone();
            f.reset_from(cut);
            for i in 0..top + 100 {
                let want = if i >= cut { -1 } else { dense_get(&db, i) };
                assert_eq!(f.get(i), want, "round {round} index {i} cut {cut}");
            }
            // Resetting the same indices of two vectors leaves them equal where they agreed.
            let mut r2 = a.clone();
            r2.reset_many(&idx);
            let agree = (0..top + 700).all(|i| r.get(i) == r2.get(i));
            assert_eq!(r == r2, agree);
        }
    }

    #[test]
    fn resetting_a_whole_subtree_drops_it() {
        let mut a: PVec<i64> = PVec::new();
        for i in 0..600 {
            a.set(i, 7);
        }
        let mut b = a.clone();
        b.set(5, 3);
        let idx: Vec<usize> = (0..600).collect();
        a.reset_many(&idx);
        b.reset_many(&idx);
        assert!(
            a.root.is_none() && b.root.is_none(),
            "nothing left but defaults"
        );
        assert!(a == b);
    }
}
