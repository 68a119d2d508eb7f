//! `--shard I/N`: a deterministic, size-balanced share of a tree's programs, so that the jobs
//! of a CI matrix each analyse one share and `watts merge` puts them together.
//!
//! Invariant: the shares of `1/N` ... `N/N` are disjoint, cover every program, and depend only
//! on the programs' names and weights (never on a cache, a clock or the machine), so that every
//! job of the matrix computes the same split.

/// One share of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    /// At least 1.
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N` with 1 <= I <= N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 1 <= I <= N (such as 2/4), not `{s}`");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count || count > crate::limits::MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Which of `weights` (one per program, in the tree's order of names) fall in this share:
    /// the longest-processing-time rule, heaviest program first (ties by position) onto the
    /// lightest share so far (ties by the lower share).
    pub fn select(&self, weights: &[u64]) -> Vec<bool> {
        let mut order: Vec<usize> = (0..weights.len()).collect();
        order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
        let mut load = vec![0u64; self.count];
        let mut mine = vec![false; weights.len()];
        for i in order {
            let lightest = (0..self.count).min_by_key(|&s| (load[s], s)).unwrap_or(0);
            load[lightest] = load[lightest].saturating_add(weights[i]);
            mine[i] = lightest + 1 == self.index;
        }
        mine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_disjoint_cover_everything_and_balance() {
        let weights: Vec<u64> = (0..300u64).map(|i| 1000 + (i * 7919) % 5000).collect();
        let n = 4;
        let shares: Vec<Vec<bool>> = (1..=n)
            .map(|index| Shard { index, count: n }.select(&weights))
            .collect();
        let mut loads = vec![0u64; n];
        for i in 0..weights.len() {
            let owners: Vec<usize> = (0..n).filter(|&s| shares[s][i]).collect();
            assert_eq!(owners.len(), 1, "program {i} is in {owners:?}");
            loads[owners[0]] += weights[i];
        }
        let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(*hi as f64 <= *lo as f64 * 1.05, "{loads:?}");
        // The same input gives the same split.
        assert_eq!(shares[2], Shard { index: 3, count: 4 }.select(&weights));
    }

    #[test]
    fn bad_shards_are_refused() {
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/4", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, count: 4 }));
    }
}
