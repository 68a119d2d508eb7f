//! A persistent call stack for the interpreter's threads: the top frame is owned and changed in
//! place; the frames below it are an immutable linked list behind `Arc`, each link with a cached
//! 128-bit digest of itself and every link below. Cloning a stack, pushing, popping and hashing
//! it cost one frame and one digest, whatever the depth: a thread 10,000 calls deep no longer
//! copies and hashes 10,000 frames at every step (issue 33).
//!
//! Invariant: links never change once made, so a link's digest, once computed, stays the
//! digest of its frame and the links below it. The shape (top apart, the rest linked) is a
//! function of the length alone, so equal stacks give equal hashes however they were built.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, OnceLock};

use super::pvec::Hasher128;

/// A stack of `T` (see the module doc).
pub struct Stack<T> {
    /// The top element; `None` only when the stack is empty.
    top: Option<T>,
    /// The elements below the top, the nearest first.
    below: Option<Arc<Link<T>>>,
    len: usize,
}

struct Link<T> {
    val: T,
    below: Option<Arc<Link<T>>>,
    /// The digest of `val` and of `below`, computed when first asked for.
    digest: OnceLock<u128>,
}

impl<T> Default for Stack<T> {
    fn default() -> Self {
        Stack {
            top: None,
            below: None,
            len: 0,
        }
    }
}

impl<T: Clone> Clone for Stack<T> {
    fn clone(&self) -> Self {
        Stack {
            top: self.top.clone(),
            below: self.below.clone(),
            len: self.len,
        }
    }
}

impl<T> Drop for Stack<T> {
    /// Drops the links this stack alone holds one by one: the derived drop would recurse once
    /// per link and overflow the native stack on a deep one.
    fn drop(&mut self) {
        let mut next = self.below.take();
        while let Some(link) = next {
            next = match Arc::try_unwrap(link) {
                Ok(mut l) => l.below.take(),
                Err(_) => None,
            };
        }
    }
}

impl<T: Clone> Stack<T> {
    /// A stack holding `v` alone.
    pub fn one(v: T) -> Stack<T> {
        Stack {
            top: Some(v),
            below: None,
            len: 1,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The top element.
    pub fn last(&self) -> Option<&T> {
        self.top.as_ref()
    }

    /// The top element, to change (it is owned: nothing is copied).
    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.top.as_mut()
    }

    /// Pushes `v`: the old top becomes a link (its digest is computed later, if ever asked for).
    pub fn push(&mut self, v: T) {
        if let Some(old) = self.top.replace(v) {
            self.below = Some(Arc::new(Link {
                val: old,
                below: self.below.take(),
                digest: OnceLock::new(),
            }));
        }
        self.len += 1;
    }

    /// Pops the top element; the nearest link becomes the top (copied if another stack shares it).
    pub fn pop(&mut self) -> Option<T> {
        let v = self.top.take()?;
        self.len -= 1;
        if let Some(link) = self.below.take() {
            let (val, below) = match Arc::try_unwrap(link) {
                Ok(l) => (l.val, l.below),
                Err(shared) => (shared.val.clone(), shared.below.clone()),
            };
            self.top = Some(val);
            self.below = below;
        }
        Some(v)
    }

    /// The elements, the top first.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let links = std::iter::successors(self.below.as_deref(), |l| l.below.as_deref());
        self.top.iter().chain(links.map(|l| &l.val))
    }
}

impl<T: Hash> Stack<T> {
    /// The digest of the elements below the top (0 for none): computed for the links that have
    /// none yet, from the deepest of them up, without recursion.
    fn below_digest(&self) -> u128 {
        let mut fresh = Vec::new();
        let mut at = self.below.as_deref();
        let mut d = 0;
        while let Some(l) = at {
            if let Some(&known) = l.digest.get() {
                d = known;
                break;
            }
            fresh.push(l);
            at = l.below.as_deref();
        }
        for l in fresh.into_iter().rev() {
            let mut h = Hasher128::default();
            l.val.hash(&mut h);
            h.write_u128(d);
            d = *l.digest.get_or_init(|| h.finish128());
        }
        d
    }
}

impl<T: Hash> Hash for Stack<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len);
        self.top.hash(state);
        state.write_u128(self.below_digest());
    }
}

impl<T: PartialEq> PartialEq for Stack<T> {
    fn eq(&self, other: &Self) -> bool {
        if self.len != other.len || self.top != other.top {
            return false;
        }
        let (mut a, mut b) = (self.below.as_ref(), other.below.as_ref());
        loop {
            match (a, b) {
                (None, None) => return true,
                (Some(x), Some(y)) if Arc::ptr_eq(x, y) => return true,
                (Some(x), Some(y)) => {
                    let known_apart = matches!(
                        (x.digest.get(), y.digest.get()),
                        (Some(dx), Some(dy)) if dx != dy
                    );
                    if known_apart || x.val != y.val {
                        return false;
                    }
                    (a, b) = (x.below.as_ref(), y.below.as_ref());
                }
                _ => return false,
            }
        }
    }
}

impl<T: Eq> Eq for Stack<T> {}

impl<T: Clone + std::fmt::Debug> std::fmt::Debug for Stack<T> {
    /// The elements from the bottom up, as the `Vec` it replaces showed them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut all: Vec<&T> = self.iter().collect();
        all.reverse();
        f.debug_list().entries(all).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hash_of<T: Hash>(x: &T) -> u128 {
        let mut h = Hasher128::default();
        x.hash(&mut h);
        h.finish128()
    }

    fn built(items: &[u32]) -> Stack<u32> {
        let mut s = Stack::default();
        for &i in items {
            s.push(i);
        }
        s
    }

    /// A push (`Some`) or a pop (`None`).
    fn ops() -> impl Strategy<Value = Vec<Option<u32>>> {
        proptest::collection::vec(proptest::option::weighted(0.6, 0u32..4), 0..200)
    }

    proptest! {
        /// After any pushes and pops, with digests asked for in between and clones taken and
        /// changed, a stack equals, and hashes as, the stack of the same elements built from
        /// scratch.
        #[test]
        fn a_stack_hashes_as_the_stack_built_from_scratch(ops in ops(), every in 1usize..7) {
            let mut s = Stack::default();
            let mut plain: Vec<u32> = Vec::new();
            let mut clones = Vec::new();
            for (k, op) in ops.iter().enumerate() {
                match op {
                    Some(v) => {
                        s.push(*v);
                        plain.push(*v);
                    }
                    None => prop_assert_eq!(s.pop(), plain.pop()),
                }
                if k % every == 0 {
                    hash_of(&s);
                    clones.push((s.clone(), plain.clone()));
                }
                if let (Some(top), Some(p)) = (s.last_mut(), plain.last_mut()) {
                    *top += 1;
                    *p += 1;
                }
                let fresh = built(&plain);
                prop_assert_eq!(s.len(), plain.len());
                prop_assert_eq!(hash_of(&s), hash_of(&fresh));
                prop_assert!(s == fresh);
                prop_assert!(s.iter().eq(plain.iter().rev()));
            }
            // The clones kept their contents while the stack they came from changed.
            for (mut c, mut p) in clones {
                prop_assert_eq!(hash_of(&c), hash_of(&built(&p)));
                while let Some(v) = c.pop() {
                    prop_assert_eq!(Some(v), p.pop());
                }
                prop_assert!(p.is_empty());
            }
        }

        /// Different stacks hash apart (up to collisions of a 128-bit digest) and compare unequal.
        #[test]
        fn different_stacks_differ(a in proptest::collection::vec(0u32..3, 0..12),
                                   b in proptest::collection::vec(0u32..3, 0..12)) {
            let (x, y) = (built(&a), built(&b));
            prop_assert_eq!(x == y, a == b);
            prop_assert_eq!(hash_of(&x) == hash_of(&y), a == b);
        }
    }

    #[test]
    fn a_million_deep_stack_hashes_clones_and_drops_without_recursion() {
        let mut s = Stack::default();
        for i in 0..1_000_000u32 {
            s.push(i);
        }
        let d = hash_of(&s);
        let c = s.clone();
        s.pop();
        s.push(999_999);
        assert_eq!(hash_of(&s), d);
        assert!(s == c);
        drop(c);
        drop(s);
    }
}
