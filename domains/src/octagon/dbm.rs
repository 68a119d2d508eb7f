//! Difference-bound matrices (public for property tests and other domains) over octagonal literals (Miné, "The octagon abstract domain", HOSC
//! 2006): `n` variables give `2n` literals, `2k` standing for `+x_k` and `2k+1` for `-x_k`, and
//! entry `m[i][j]` bounds `V_j - V_i`. Unary bounds are doubled: `x_k <= c` is
//! `m[2k+1][2k] = 2c`.
//!
//! Invariant: the matrix is coherent (`m[i][j] == m[j^1][i^1]`), its diagonal is 0, and every
//! finite entry lies in `[-LIMIT, LIMIT]`; sums leaving that range are weakened (to `INF` above,
//! to `-LIMIT` below), which only loses precision.

use crate::interval::Interval;

/// A bound of a matrix entry; `INF` is +infinity.
pub type Bound = i64;
/// +infinity.
pub const INF: Bound = i64::MAX;
/// Finite entries stay within `[-LIMIT, LIMIT]`, so that the sum of two never overflows.
const LIMIT: Bound = 1 << 61;

/// Soundness: an upper bound may always be raised; so a sum above `LIMIT` becomes `INF` and one
/// below `-LIMIT` becomes `-LIMIT`.
#[inline]
fn norm(v: Bound) -> Bound {
    if v > LIMIT {
        INF
    } else if v < -LIMIT {
        -LIMIT
    } else {
        v
    }
}

/// `a + b` with `INF` absorbing.
#[inline]
pub fn add(a: Bound, b: Bound) -> Bound {
    if a == INF || b == INF {
        INF
    } else {
        norm(a + b)
    }
}

/// `floor(v / 2)` with `INF` absorbing.
#[inline]
fn half(v: Bound) -> Bound {
    if v == INF {
        INF
    } else {
        v.div_euclid(2)
    }
}

/// An upper bound `v` (of mathematical integers, `i128::MAX` for +inf) as a doubled entry.
pub fn ub2(v: i128) -> Bound {
    let l = i128::from(LIMIT / 2);
    if v >= l {
        INF
    } else if v <= -l {
        -LIMIT
    } else {
        (2 * v) as Bound
    }
}

/// An entry as an upper bound in `i128` (`i128::MAX` for `INF`).
pub fn to_i128(v: Bound) -> i128 {
    if v == INF {
        i128::MAX
    } else {
        i128::from(v)
    }
}

/// A difference-bound matrix over the literals of `n` variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dbm {
    n: usize,
    m: Vec<Bound>,
}

impl Dbm {
    /// No constraint on `n` variables.
    pub fn top(n: usize) -> Dbm {
        let d = 2 * n;
        let mut m = vec![INF; d * d];
        for i in 0..d {
            m[i * d + i] = 0;
        }
        Dbm { n, m }
    }

    /// Number of variables.
    pub fn vars(&self) -> usize {
        self.n
    }

    #[inline]
    fn d(&self) -> usize {
        2 * self.n
    }

    /// The bound of `V_j - V_i`.
    #[inline]
    pub fn get(&self, i: usize, j: usize) -> Bound {
        self.m[i * self.d() + j]
    }

    #[inline]
    fn put(&mut self, i: usize, j: usize, v: Bound) {
        let d = self.d();
        self.m[i * d + j] = v;
    }

    /// `V_j - V_i <= v` and its coherent twin, without closing.
    pub fn put_min(&mut self, i: usize, j: usize, v: Bound) {
        if v < self.get(i, j) {
            self.put(i, j, v);
            self.put(j ^ 1, i ^ 1, v);
        }
    }

    /// The bound `(m[i][i^1] + m[j^1][j]) / 2` that the unary bounds imply for `V_j - V_i`.
    #[inline]
    pub fn derived(&self, i: usize, j: usize) -> Bound {
        half(add(self.get(i, i ^ 1), self.get(j ^ 1, j)))
    }

    /// The interval of variable `k` that its unary entries say.
    pub fn interval(&self, k: usize) -> Interval {
        let hi = half(self.get(2 * k + 1, 2 * k));
        let neg_lo = half(self.get(2 * k, 2 * k + 1));
        let lo = if neg_lo == INF {
            i128::MIN
        } else {
            -i128::from(neg_lo)
        };
        Interval::new(lo, to_i128(hi))
    }

    /// Full tight closure (shortest paths, tightening, strengthening; Bagnara, Hill and
    /// Zaffanella, VMCAI'08). False when no integer point satisfies the matrix.
    pub fn close(&mut self) -> bool {
        let d = self.d();
        for k in 0..d {
            for i in 0..d {
                let mik = self.m[i * d + k];
                if mik == INF {
                    continue;
                }
                for j in 0..d {
                    let v = add(mik, self.m[k * d + j]);
                    if v < self.m[i * d + j] {
                        self.m[i * d + j] = v;
                    }
                }
            }
        }
        self.finish()
    }

    /// After shortest paths: the diagonal check, tightening of the unary entries to even values
    /// (integers), the integer consistency check, and one strengthening step.
    fn finish(&mut self) -> bool {
        let d = self.d();
        for i in 0..d {
            if self.m[i * d + i] < 0 {
                return false;
            }
            self.m[i * d + i] = 0;
        }
        for i in 0..d {
            let v = self.m[i * d + (i ^ 1)];
            if v != INF {
                self.m[i * d + (i ^ 1)] = 2 * v.div_euclid(2);
            }
        }
        for i in 0..d {
            if add(self.m[i * d + (i ^ 1)], self.m[(i ^ 1) * d + i]) < 0 {
                return false;
            }
        }
        self.strengthen();
        true
    }

    /// `m[i][j] := min(m[i][j], (m[i][i^1] + m[j^1][j]) / 2)`.
    pub fn strengthen(&mut self) {
        let d = self.d();
        let un: Vec<Bound> = (0..d).map(|i| self.m[i * d + (i ^ 1)]).collect();
        for i in 0..d {
            if un[i] == INF {
                continue;
            }
            for j in 0..d {
                let v = half(add(un[i], un[j ^ 1]));
                if v < self.m[i * d + j] {
                    self.m[i * d + j] = v;
                }
            }
        }
    }

    /// Adds `V_j - V_i <= c` to a tightly closed matrix and closes it again in O(n²)
    /// (shortest paths through the new edge and its twin, then `finish`). False when empty.
    pub fn add_constraint(&mut self, i: usize, j: usize, c: Bound) -> bool {
        if c >= self.get(i, j) {
            return true;
        }
        let d = self.d();
        let (ib, jb) = (i ^ 1, j ^ 1);
        let col_i: Vec<Bound> = (0..d).map(|a| self.get(a, i)).collect();
        let col_jb: Vec<Bound> = (0..d).map(|a| self.get(a, jb)).collect();
        let row_j: Vec<Bound> = (0..d).map(|b| self.get(j, b)).collect();
        let row_ib: Vec<Bound> = (0..d).map(|b| self.get(ib, b)).collect();
        let j_jb = self.get(j, jb);
        let ib_i = self.get(ib, i);
        for a in 0..d {
            // The cheapest way from `a` into the new edge i→j and into its twin jb→ib.
            let to_j = add(col_i[a], c);
            let to_ib = add(col_jb[a], c);
            // Through both edges: a→i→j→jb→ib and a→jb→ib→i→j.
            let to_ib2 = to_ib.min(add(add(to_j, j_jb), c));
            let to_j2 = to_j.min(add(add(to_ib, ib_i), c));
            if to_j2 == INF && to_ib2 == INF {
                continue;
            }
            for b in 0..d {
                let v = add(to_j2, row_j[b]).min(add(to_ib2, row_ib[b]));
                if v < self.m[a * d + b] {
                    self.m[a * d + b] = v;
                }
            }
        }
        self.finish()
    }

    /// Meets variable `k` with `v` (closed in, closed out). False when empty.
    pub fn meet_interval(&mut self, k: usize, v: Interval) -> bool {
        if v.is_bottom() {
            return false;
        }
        let hi = ub2(v.hi());
        let neg_lo = if v.lo() == i128::MIN {
            INF
        } else {
            ub2(-v.lo())
        };
        self.add_constraint(2 * k + 1, 2 * k, hi) && self.add_constraint(2 * k, 2 * k + 1, neg_lo)
    }

    /// Forgets every constraint on variable `k` (a closed matrix stays closed).
    pub fn forget(&mut self, k: usize) {
        let d = self.d();
        for l in [2 * k, 2 * k + 1] {
            for x in 0..d {
                if x != l {
                    self.m[l * d + x] = INF;
                    self.m[x * d + l] = INF;
                }
            }
        }
    }

    /// Adds an unconstrained variable; returns its index.
    pub fn push(&mut self) -> usize {
        let (od, n) = (self.d(), self.n + 1);
        let nd = 2 * n;
        let mut m = vec![INF; nd * nd];
        for i in 0..od {
            m[i * nd..i * nd + od].copy_from_slice(&self.m[i * od..(i + 1) * od]);
        }
        for i in od..nd {
            m[i * nd + i] = 0;
        }
        self.n = n;
        self.m = m;
        n - 1
    }

    /// Adds a variable equal to variable `k`; returns its index. Closed stays closed.
    pub fn push_copy(&mut self, k: usize) -> usize {
        let x = self.push();
        let d = self.d();
        for s in 0..2 {
            let (src, dst) = (2 * k + s, 2 * x + s);
            for t in 0..d {
                let v = self.get(src, t);
                self.m[dst * d + t] = v;
                let w = self.get(t, src);
                self.m[t * d + dst] = w;
            }
        }
        for s in 0..2 {
            for t in 0..2 {
                let v = self.get(2 * k + s, 2 * k + t);
                self.put(2 * x + s, 2 * x + t, v);
            }
        }
        // x - k <= 0 and k - x <= 0.
        self.put(2 * k, 2 * x, 0);
        self.put(2 * x, 2 * k, 0);
        self.put(2 * k + 1, 2 * x + 1, 0);
        self.put(2 * x + 1, 2 * k + 1, 0);
        // x + k and -x - k are bounded like 2k.
        let up = self.get(2 * k + 1, 2 * k);
        self.put(2 * k + 1, 2 * x, up);
        self.put(2 * x + 1, 2 * k, up);
        let down = self.get(2 * k, 2 * k + 1);
        self.put(2 * k, 2 * x + 1, down);
        self.put(2 * x, 2 * k + 1, down);
        x
    }

    /// The matrix over the variables `keep` (in that order): existential projection, closed
    /// when `self` is.
    pub fn project(&self, keep: &[usize]) -> Dbm {
        let n = keep.len();
        let d = 2 * n;
        let mut m = vec![INF; d * d];
        for (a, &ka) in keep.iter().enumerate() {
            for (b, &kb) in keep.iter().enumerate() {
                for s in 0..2 {
                    for t in 0..2 {
                        m[(2 * a + s) * d + 2 * b + t] = self.get(2 * ka + s, 2 * kb + t);
                    }
                }
            }
        }
        Dbm { n, m }
    }

    /// The block matrix of `self` then `o`, with the entries between them implied by the unary
    /// bounds (closed when both are: the product of two octagons).
    pub fn concat(&self, o: &Dbm) -> Dbm {
        let n = self.n + o.n;
        let d = 2 * n;
        let (sd, od) = (self.d(), o.d());
        let mut m = vec![INF; d * d];
        for i in 0..sd {
            m[i * d..i * d + sd].copy_from_slice(&self.m[i * sd..(i + 1) * sd]);
        }
        for i in 0..od {
            let r = (sd + i) * d + sd;
            m[r..r + od].copy_from_slice(&o.m[i * od..(i + 1) * od]);
        }
        let mut r = Dbm { n, m };
        r.strengthen();
        r
    }

    /// `x_k := x_k + c` (an invertible assignment: closed stays closed).
    pub fn translate(&mut self, k: usize, c: Bound) {
        let d = self.d();
        let delta = |l: usize| -> Bound {
            if l == 2 * k {
                c
            } else if l == 2 * k + 1 {
                -c
            } else {
                0
            }
        };
        for i in 0..d {
            for j in 0..d {
                let (di, dj) = (delta(i), delta(j));
                if di == dj {
                    continue;
                }
                let v = self.m[i * d + j];
                if v != INF {
                    self.m[i * d + j] = add(v, dj - di);
                }
            }
        }
    }

    /// Pointwise maximum (the octagon join of closed matrices).
    pub fn join(&mut self, o: &Dbm) {
        debug_assert_eq!(self.n, o.n);
        for (a, b) in self.m.iter_mut().zip(&o.m) {
            *a = (*a).max(*b);
        }
    }

    /// Pointwise minimum (the octagon meet, to be closed).
    pub fn meet(&mut self, o: &Dbm) {
        debug_assert_eq!(self.n, o.n);
        for (a, b) in self.m.iter_mut().zip(&o.m) {
            *a = (*a).min(*b);
        }
    }

    /// Miné's widening: entries that grow become `INF`; unary entries of variables that
    /// `widen_var` does not select take the maximum instead.
    pub fn widen(&mut self, newer: &Dbm, widen_var: &dyn Fn(usize) -> bool) {
        debug_assert_eq!(self.n, newer.n);
        let d = self.d();
        for i in 0..d {
            for j in 0..d {
                let (a, b) = (self.m[i * d + j], newer.m[i * d + j]);
                if b > a {
                    let unary = j == (i ^ 1);
                    self.m[i * d + j] = if unary && !widen_var(i / 2) { b } else { INF };
                }
            }
        }
    }

    /// Miné's narrowing: infinite entries take the newer bound.
    pub fn narrow(&mut self, newer: &Dbm) {
        for (a, b) in self.m.iter_mut().zip(&newer.m) {
            if *a == INF {
                *a = *b;
            }
        }
    }

    /// Whether variable `k` has an entry with another variable below what the unary bounds
    /// imply (a real relation).
    pub fn related(&self, k: usize) -> bool {
        let d = self.d();
        for i in [2 * k, 2 * k + 1] {
            for j in 0..d {
                if j / 2 == k {
                    continue;
                }
                if self.get(i, j) < self.derived(i, j) || self.get(j, i) < self.derived(j, i) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether variable `k` has a finite entry with another variable.
    pub fn any_finite(&self, k: usize) -> bool {
        let d = self.d();
        [2 * k, 2 * k + 1].iter().any(|&i| {
            (0..d).any(|j| j / 2 != k && (self.get(i, j) != INF || self.get(j, i) != INF))
        })
    }
}
