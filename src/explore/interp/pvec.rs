//! A persistent vector for the interpreter's state (allocations, threads): a radix tree of
//! 32-wide nodes behind `Arc`, so that cloning a state costs one reference count, changing an
//! element copies one path, and the state's 128-bit digest is kept per node and recomputed only
//! along the paths changed since it was last asked for. A program of 10,000 threads thus pays
//! per step for the threads that move, not for the others (issue 20).
//!
//! Invariant: a node's cached digest, when set, is the digest of its current contents: every
//! path to a mutable element ([`PVec::make_mut`], [`PVec::push`]) clears the digests it passes.
//! The tree shape is a function of the length alone, so equal contents give equal digests.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

const BITS: u32 = 5;
const WIDTH: usize = 1 << BITS;
const MASK: usize = WIDTH - 1;

/// One element with its cached digest; `None` while the element is taken out
/// (`PVec::make_mut`).
#[derive(Clone)]
struct Slot<T> {
    val: Option<T>,
    digest: OnceLock<u128>,
}

impl<T> Slot<T> {
    fn val(&self) -> &T {
        self.val
            .as_ref()
            .expect("an element taken out is read through its vector")
    }
}

enum Body<T> {
    Leaf(Vec<Arc<Slot<T>>>),
    Inner(Vec<Arc<Node<T>>>),
}

struct Node<T> {
    body: Body<T>,
    digest: OnceLock<u128>,
}

impl<T> Clone for Node<T> {
    fn clone(&self) -> Self {
        Node {
            body: match &self.body {
                Body::Leaf(s) => Body::Leaf(s.clone()),
                Body::Inner(k) => Body::Inner(k.clone()),
            },
            digest: self.digest.clone(),
        }
    }
}

impl<T> Node<T> {
    fn leaf() -> Node<T> {
        Node {
            body: Body::Leaf(Vec::new()),
            digest: OnceLock::new(),
        }
    }

    fn inner(kids: Vec<Arc<Node<T>>>) -> Node<T> {
        Node {
            body: Body::Inner(kids),
            digest: OnceLock::new(),
        }
    }
}

/// A persistent vector of `T` with a cached 128-bit digest (see the module doc).
///
/// The element last changed is kept out of the tree (`out`) until another is changed or the
/// vector is settled ([`PVec::settle`]), so that the many changes a step makes to one thread
/// walk the tree twice, not once each.
pub struct PVec<T> {
    root: Arc<Node<T>>,
    len: usize,
    /// The bit shift of the root's digit of an index: 0 when the root is a leaf, 5 more per level.
    shift: u32,
    /// The element taken out of the tree to be changed, and its index. Invariant: its slot
    /// holds `None`, and the digests on its path are cleared.
    out: Option<Box<(usize, T)>>,
}

impl<T: Clone> Clone for PVec<T> {
    fn clone(&self) -> Self {
        PVec {
            root: Arc::clone(&self.root),
            len: self.len,
            shift: self.shift,
            out: self.out.clone(),
        }
    }
}

impl<T> Default for PVec<T> {
    fn default() -> Self {
        PVec {
            root: Arc::new(Node::leaf()),
            len: 0,
            shift: 0,
            out: None,
        }
    }
}

impl<T: Clone + Hash> PVec<T> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Element `i`, if `i < len`.
    pub fn get(&self, i: usize) -> Option<&T> {
        if i >= self.len {
            return None;
        }
        if let Some(out) = &self.out {
            if out.0 == i {
                return Some(&out.1);
            }
        }
        let mut node = &*self.root;
        let mut shift = self.shift;
        loop {
            match &node.body {
                Body::Inner(kids) => {
                    node = &kids[(i >> shift) & MASK];
                    shift -= BITS;
                }
                Body::Leaf(slots) => return Some(slots[i & MASK].val()),
            }
        }
    }

    /// Element `i`, to change; copies the path to it if it is shared and clears its digests.
    /// Panics when `i >= len`.
    pub fn make_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len, "index {i} out of {}", self.len);
        if self.out.as_ref().is_some_and(|o| o.0 == i) {
            return &mut self.out.as_mut().expect("out").1;
        }
        self.slot_mut(i).val.as_mut().expect("in the tree")
    }

    /// As [`PVec::make_mut`], but the element is taken out of the tree and stays out until
    /// another is taken or the vector is settled: repeated changes of one element walk the
    /// tree once.
    pub fn focus_mut(&mut self, i: usize) -> &mut T {
        assert!(i < self.len, "index {i} out of {}", self.len);
        if self.out.as_ref().is_some_and(|o| o.0 == i) {
            return &mut self.out.as_mut().expect("out").1;
        }
        self.settle();
        let v = self.slot_mut(i).val.take().expect("in the tree");
        &mut self.out.insert(Box::new((i, v))).1
    }

    /// Puts the element taken out to be changed back into the tree (before hashing).
    pub fn settle(&mut self) {
        if let Some(out) = self.out.take() {
            let (i, v) = *out;
            self.slot_mut(i).val = Some(v);
        }
    }

    /// The slot of element `i`, its path copied if shared and its digests cleared.
    fn slot_mut(&mut self, i: usize) -> &mut Slot<T> {
        let mut node = Arc::make_mut(&mut self.root);
        let mut shift = self.shift;
        loop {
            node.digest = OnceLock::new();
            match &mut node.body {
                Body::Inner(kids) => {
                    node = Arc::make_mut(&mut kids[(i >> shift) & MASK]);
                    shift -= BITS;
                }
                Body::Leaf(slots) => {
                    let slot = Arc::make_mut(&mut slots[i & MASK]);
                    slot.digest = OnceLock::new();
                    return slot;
                }
            }
        }
    }

    /// Appends `v`.
    pub fn push(&mut self, v: T) {
        self.push_slot(Some(v));
    }

    /// Appends a slot holding `v`.
    fn push_slot(&mut self, v: Option<T>) {
        let i = self.len;
        // The capacity of a tree of this height: 32 per level.
        if i >= WIDTH << self.shift {
            let old = std::mem::replace(&mut self.root, Arc::new(Node::leaf()));
            self.root = Arc::new(Node::inner(vec![old]));
            self.shift += BITS;
        }
        let mut node = Arc::make_mut(&mut self.root);
        let mut shift = self.shift;
        loop {
            node.digest = OnceLock::new();
            match &mut node.body {
                Body::Inner(kids) => {
                    let k = (i >> shift) & MASK;
                    if k == kids.len() {
                        let child = if shift == BITS {
                            Node::leaf()
                        } else {
                            Node::inner(Vec::new())
                        };
                        kids.push(Arc::new(child));
                    }
                    node = Arc::make_mut(&mut kids[k]);
                    shift -= BITS;
                }
                Body::Leaf(slots) => {
                    slots.push(Arc::new(Slot {
                        val: v,
                        digest: OnceLock::new(),
                    }));
                    break;
                }
            }
        }
        self.len += 1;
    }

    /// The elements in order.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let mut all = Vec::with_capacity(self.len);
        collect(&self.root, &mut all);
        if let Some(out) = &self.out {
            all[out.0] = Some(&out.1);
        }
        all.into_iter().map(|v| v.expect("every element"))
    }

    /// A 128-bit digest of the contents (two independent 64-bit hashes), recomputed only along
    /// the paths changed since it was last computed. The vector must be settled.
    pub fn digest(&self) -> u128 {
        assert!(self.out.is_none(), "the digest of a vector not settled");
        digest_of(&self.root) ^ self.len as u128
    }
}

impl<T: Clone + Hash> std::ops::Index<usize> for PVec<T> {
    type Output = T;

    fn index(&self, i: usize) -> &T {
        match self.get(i) {
            Some(v) => v,
            None => panic!("index {i} out of {}", self.len),
        }
    }
}

/// The elements under `node`, in order, into `out` (`None` for the one taken out).
fn collect<'a, T>(node: &'a Node<T>, out: &mut Vec<Option<&'a T>>) {
    match &node.body {
        Body::Leaf(slots) => out.extend(slots.iter().map(|s| s.val.as_ref())),
        Body::Inner(kids) => kids.iter().for_each(|k| collect(k, out)),
    }
}

fn digest_of<T: Hash>(node: &Node<T>) -> u128 {
    *node.digest.get_or_init(|| {
        let mut h = Hasher128::default();
        match &node.body {
            Body::Leaf(slots) => {
                for s in slots {
                    h.write_u128(*s.digest.get_or_init(|| {
                        let mut e = Hasher128::default();
                        s.val().hash(&mut e);
                        e.finish128()
                    }));
                }
            }
            Body::Inner(kids) => {
                for k in kids {
                    h.write_u128(digest_of(k));
                }
            }
        }
        h.finish128()
    })
}

/// Two SipHash-1-3 hashers with different salts (the fingerprints of `search`), as one
/// 128-bit hasher.
pub(super) struct Hasher128(
    std::collections::hash_map::DefaultHasher,
    std::collections::hash_map::DefaultHasher,
);

impl Default for Hasher128 {
    fn default() -> Self {
        let mut a = std::collections::hash_map::DefaultHasher::new();
        let mut b = std::collections::hash_map::DefaultHasher::new();
        0u8.hash(&mut a);
        1u8.hash(&mut b);
        Hasher128(a, b)
    }
}

impl Hasher128 {
    pub(super) fn finish128(&self) -> u128 {
        (u128::from(self.0.finish()) << 64) | u128::from(self.1.finish())
    }
}

impl Hasher for Hasher128 {
    fn finish(&self) -> u64 {
        self.0.finish() ^ self.1.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
    }
}

impl<T: Clone + Hash> Hash for PVec<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u128(self.digest());
    }
}

impl<T: Clone + Hash + PartialEq> PartialEq for PVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && ((self.out.is_none() && other.out.is_none() && Arc::ptr_eq(&self.root, &other.root))
                || self.iter().eq(other.iter()))
    }
}

impl<T: Clone + Hash + Eq> Eq for PVec<T> {}

impl<T: Clone + Hash + std::fmt::Debug> std::fmt::Debug for PVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Clone + Hash> FromIterator<T> for PVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = PVec::default();
        for x in iter {
            v.push(x);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_persistent_vector_is_a_vector_whose_digest_follows_its_contents() {
        let mut a: PVec<u64> = PVec::default();
        let mut plain = Vec::new();
        for i in 0..3000u64 {
            a.push(i * 7);
            plain.push(i * 7);
        }
        assert_eq!(a.len(), 3000);
        assert!(a.iter().copied().eq(plain.iter().copied()));
        let before = a.digest();
        let b = a.clone();
        *a.make_mut(1234) = 5;
        assert_eq!(a[1234], 5);
        assert_eq!(b[1234], 1234 * 7, "the clone is unchanged");
        assert_ne!(a.digest(), before);
        assert_eq!(b.digest(), before);
        *a.make_mut(1234) = 1234 * 7;
        assert_eq!(a.digest(), before, "equal contents, equal digests");
        assert_eq!(a, b);
        // The same contents built another way have the same digest.
        let c: PVec<u64> = plain.iter().copied().collect();
        assert_eq!(c.digest(), before);
        // Lengths across a boundary of the tree.
        for n in [0usize, 1, 31, 32, 33, 1023, 1024, 1025] {
            let v: PVec<usize> = (0..n).collect();
            assert!(v.iter().copied().eq(0..n), "{n}");
            assert_eq!(v.get(n), None);
        }
        let short: PVec<u64> = plain[..10].iter().copied().collect();
        assert_ne!(short.digest(), before);
        // An element taken out reads and changes as if it were in, and goes back on settling.
        let mut d = b.clone();
        *d.focus_mut(7) = 1;
        *d.focus_mut(7) += 1;
        assert_eq!((d[7], d.iter().nth(7).copied()), (2, Some(2)));
        *d.focus_mut(9) = 3;
        *d.make_mut(9) += 1;
        assert_eq!((d[7], d[9], b[7]), (2, 4, 49));
        d.settle();
        assert_ne!(d.digest(), before);
        *d.focus_mut(7) = 49;
        *d.focus_mut(9) = 63;
        d.settle();
        assert_eq!(d.digest(), before);
    }
}
