//! Transitive closure of a static edge relation as bitset rows, computed once per program.
//!
//! Invariant: `get(a, b)` is true iff there is a non-empty path from `a` to `b` and `b` is a
//! column; a node on a cycle reaches itself.

/// Marks a node that is not a column.
pub(crate) const NO_COLUMN: u32 = u32::MAX;

/// The closure, one bitset row per strongly connected component.
#[derive(Debug, Clone)]
pub(crate) struct Closure {
    // Invariant: `component[v]` indexes a row of `rows`, which has `words` u64s.
    component: Vec<u32>,
    rows: Vec<u64>,
    words: usize,
    // Invariant: `column[v]` is `v`'s bit index, or NO_COLUMN.
    column: Vec<u32>,
}

impl Closure {
    /// Closes `edges` over nodes `0..n`; rows keep only the nodes with a column.
    pub(crate) fn new(n: usize, edges: &[(u32, u32)], column: Vec<u32>, columns: usize) -> Self {
        debug_assert_eq!(column.len(), n);
        let words = columns.div_ceil(64).max(1);
        if edges.is_empty() {
            // No path at all: one empty row that every node shares.
            return Closure {
                component: vec![0; n],
                rows: vec![0u64; words],
                words,
                column,
            };
        }
        let (start, succ) = adjacency(n, edges);
        let (component, members, offsets) = tarjan(n, &start, &succ);
        let components = offsets.len() - 1;
        let mut rows = vec![0u64; components * words];
        let mut row = vec![0u64; words];
        // Tarjan numbers components sinks first, so every successor component of `c` that is
        // not `c` itself already has its final row.
        for c in 0..components {
            let nodes = &members[offsets[c] as usize..offsets[c + 1] as usize];
            row.fill(0);
            let mut cyclic = false;
            for &v in nodes {
                for &w in &succ[start[v as usize] as usize..start[v as usize + 1] as usize] {
                    let cw = component[w as usize] as usize;
                    if cw == c {
                        cyclic = true;
                    } else {
                        for (x, y) in row.iter_mut().zip(&rows[cw * words..(cw + 1) * words]) {
                            *x |= *y;
                        }
                    }
                    set(&mut row, column[w as usize]);
                }
            }
            if cyclic {
                for &v in nodes {
                    set(&mut row, column[v as usize]);
                }
            }
            rows[c * words..(c + 1) * words].copy_from_slice(&row);
        }
        Closure {
            component,
            rows,
            words,
            column,
        }
    }

    /// Whether a non-empty path leads from `a` to `b` (false for unknown nodes).
    pub(crate) fn get(&self, a: u32, b: u32) -> bool {
        let (Some(&c), Some(&bit)) = (self.component.get(a as usize), self.column.get(b as usize))
        else {
            return false;
        };
        if bit == NO_COLUMN {
            return false;
        }
        let word = self.rows[c as usize * self.words + bit as usize / 64];
        word >> (bit % 64) & 1 == 1
    }
}

fn set(row: &mut [u64], bit: u32) {
    if bit != NO_COLUMN {
        row[bit as usize / 64] |= 1 << (bit % 64);
    }
}

/// Compressed adjacency lists: the successors of `v` are `succ[start[v]..start[v + 1]]`.
fn adjacency(n: usize, edges: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for &(a, _) in edges {
        start[a as usize + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut succ = vec![0u32; edges.len()];
    for &(a, b) in edges {
        succ[fill[a as usize] as usize] = b;
        fill[a as usize] += 1;
    }
    (start, succ)
}

/// Iterative Tarjan: the component of each node, and the members of each component (those of
/// component `c` are `members[offsets[c]..offsets[c + 1]]`), numbered in the order Tarjan
/// completes them (reverse topological order: sinks first).
fn tarjan(n: usize, start: &[u32], succ: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut component = vec![UNSEEN; n];
    let mut members: Vec<u32> = Vec::with_capacity(n);
    let mut offsets: Vec<u32> = vec![0];
    let mut next_index = 0u32;
    let mut calls: Vec<(u32, u32)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        calls.push((root, start[root as usize]));
        while let Some(&(v, edge)) = calls.last() {
            let vu = v as usize;
            if edge < start[vu + 1] {
                calls.last_mut().expect("non-empty").1 += 1;
                let w = succ[edge as usize];
                let wu = w as usize;
                if index[wu] == UNSEEN {
                    index[wu] = next_index;
                    low[wu] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[wu] = true;
                    calls.push((w, start[wu]));
                } else if on_stack[wu] {
                    low[vu] = low[vu].min(index[wu]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[vu]);
            }
            if low[vu] == index[vu] {
                let c = offsets.len() as u32 - 1;
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w as usize] = false;
                    component[w as usize] = c;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                offsets.push(members.len() as u32);
            }
        }
    }
    (component, members, offsets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_columns(n: usize) -> Vec<u32> {
        (0..n as u32).collect()
    }

    #[test]
    fn chain_diamond_and_cycle() {
        // 0 -> 1 -> 2, 0 -> 3 -> 2, 4 <-> 5 -> 6
        let edges = [(0, 1), (1, 2), (0, 3), (3, 2), (4, 5), (5, 4), (5, 6)];
        let c = Closure::new(7, &edges, all_columns(7), 7);
        assert!(c.get(0, 2) && c.get(0, 3) && c.get(1, 2));
        assert!(!c.get(2, 0) && !c.get(0, 0) && !c.get(1, 3));
        assert!(c.get(4, 4) && c.get(5, 5) && c.get(4, 6) && !c.get(6, 4));
    }

    #[test]
    fn no_edges_no_paths() {
        let c = Closure::new(3, &[], all_columns(3), 3);
        assert!((0..3).all(|a| (0..3).all(|b| !c.get(a, b))));
        assert!(!c.get(7, 0), "unknown nodes reach nothing");
    }

    #[test]
    fn columns_restrict_the_rows() {
        let edges = [(0, 1), (1, 2)];
        let column = vec![NO_COLUMN, NO_COLUMN, 0];
        let c = Closure::new(3, &edges, column, 1);
        assert!(c.get(0, 2));
        assert!(!c.get(0, 1), "1 has no column");
        assert!(!c.get(9, 2), "unknown nodes reach nothing");
    }
}
