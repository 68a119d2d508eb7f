//! Path keys and the worklist of prefixes to solve.
//!
//! A path is, per thread, the sequence of (site, outcome) of its branches (MPC's p(T_i)); a
//! prefix keeps a prefix of each thread's sequence. Keys are 128-bit fingerprints of those
//! sequences (each thread's by a rolling hash, combined by thread), so that a prefix seen
//! before (solved, queued, or the prefix of an executed path) is not solved again: each path
//! class is solved once. A collision could only skip a prefix, never report anything.
//!
//! The worklist takes flips toward the remaining target assertions first, then by generation.

use super::encode::{Cut, Prefix};
use super::trace::Trace;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A prefix key.
pub type Key = u128;

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The rolling hashes of every prefix of one thread's branch sequence (`out[j]`: the first
/// `j` branches), with the outcome of branch `j` flipped when `flip == Some(j)`.
fn rolling(trace: &Trace, t: usize) -> Vec<u128> {
    let th = &trace.threads[t];
    let mut out = Vec::with_capacity(th.branches.len() + 1);
    let (mut a, mut b) = (0u64, 0u64);
    out.push(0);
    for br in &th.branches {
        let x = mix(br.site ^ u64::from(br.taken) << 63);
        a = a.wrapping_mul(0x100_0000_01b3).wrapping_add(x);
        b = b.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(mix(x));
        out.push(u128::from(a) << 64 | u128::from(b));
    }
    out
}

fn component(t: usize, len: usize, h: u128) -> u128 {
    if len == 0 {
        return 0;
    }
    let x = mix(t as u64 ^ (len as u64) << 20) as u128;
    let y = mix(h as u64 ^ (h >> 64) as u64 ^ t as u64) as u128;
    (x << 64 | y) ^ h.rotate_left(t as u32 * 7 + 1)
}

/// The per-thread hashes of a trace, computed once.
pub struct Hashes {
    prefixes: Vec<Vec<u128>>,
}

impl Hashes {
    pub fn new(trace: &Trace) -> Hashes {
        Hashes {
            prefixes: (0..trace.threads.len())
                .map(|t| rolling(trace, t))
                .collect(),
        }
    }

    /// The component of thread `t` keeping `cut`.
    fn part(&self, trace: &Trace, t: usize, cut: Cut) -> u128 {
        let hs = &self.prefixes[t];
        let keep = cut.keep.min(hs.len() - 1);
        if !cut.flip || keep >= trace.threads[t].branches.len() {
            return component(t, keep, hs[keep]);
        }
        // The flipped branch, rolled onto the kept prefix.
        let br = &trace.threads[t].branches[keep];
        let x = mix(br.site ^ u64::from(!br.taken) << 63);
        let (a, b) = ((hs[keep] >> 64) as u64, hs[keep] as u64);
        let a = a.wrapping_mul(0x100_0000_01b3).wrapping_add(x);
        let b = b.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(mix(x));
        component(t, keep + 1, u128::from(a) << 64 | u128::from(b))
    }

    /// The key of `prefix` over `trace`.
    pub fn key(&self, trace: &Trace, prefix: &Prefix) -> Key {
        (0..trace.threads.len()).fold(0u128, |acc, t| {
            let cut = prefix.cuts.get(t).copied().unwrap_or(Cut {
                keep: 0,
                flip: false,
            });
            acc.wrapping_add(self.part(trace, t, cut))
        })
    }

    /// The key of the whole path of the trace.
    pub fn path_key(&self, trace: &Trace) -> Key {
        self.key(trace, &full(trace))
    }

    /// The keys of the prefixes of the executed path that single flips would produce: thread
    /// `t` keeping its first `j` branches as observed, every other thread its whole path.
    pub fn executed(&self, trace: &Trace) -> Vec<Key> {
        let whole: Vec<u128> = (0..trace.threads.len())
            .map(|t| {
                let n = trace.threads[t].branches.len();
                component(t, n, self.prefixes[t][n])
            })
            .collect();
        let total = whole.iter().fold(0u128, |a, &x| a.wrapping_add(x));
        let mut out = Vec::new();
        for (t, th) in trace.threads.iter().enumerate() {
            for j in 1..=th.branches.len() {
                let part = component(t, j, self.prefixes[t][j]);
                out.push(total.wrapping_sub(whole[t]).wrapping_add(part));
            }
        }
        out
    }
}

/// Every thread keeping its whole path.
pub fn full(trace: &Trace) -> Prefix {
    Prefix {
        cuts: trace
            .threads
            .iter()
            .map(|th| Cut {
                keep: th.branches.len(),
                flip: false,
            })
            .collect(),
    }
}

/// The order in which candidates are solved: flips toward a remaining target assertion
/// first, then by generation (breadth first), then fewer relaxed threads, then in order of
/// generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Priority {
    pub not_target: bool,
    pub generation: u32,
    pub relaxed: bool,
    pub seq: u64,
}

/// The worklist: items by increasing priority.
pub struct Worklist<T> {
    heap: BinaryHeap<Reverse<(Priority, u64)>>,
    items: std::collections::HashMap<u64, T>,
    next: u64,
}

impl<T> Default for Worklist<T> {
    fn default() -> Self {
        Worklist {
            heap: BinaryHeap::new(),
            items: std::collections::HashMap::new(),
            next: 0,
        }
    }
}

impl<T> Worklist<T> {
    /// The sequence number the next pushed item gets.
    pub fn next_seq(&self) -> u64 {
        self.next
    }

    pub fn push(&mut self, p: Priority, item: T) {
        let id = self.next;
        self.next += 1;
        self.heap.push(Reverse((p, id)));
        self.items.insert(id, item);
    }

    pub fn pop(&mut self) -> Option<T> {
        let Reverse((_, id)) = self.heap.pop()?;
        self.items.remove(&id)
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
