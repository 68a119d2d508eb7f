//! Control dependence from post-dominance (Ferrante, Ottenstein, Warren 1987) on a successor
//! graph given as adjacency lists.
//!
//! A synthetic exit node follows every node without successors (returns, `Stop` terminators:
//! `exit`, noreturn calls, `pthread_exit`) and every node that cannot reach one (infinite
//! loops), so that every node has an immediate post-dominator.
//!
//! Post-dominance uses petgraph's dominators on the reversed graph. A `longjmp` node has its jump
//! edges instead of the synthetic exit, and its terminator vertex depends on the call that ends it
//! (which decides whether and where it jumps).

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};

/// For every node `b`, the nodes `a` whose choice of successor decides whether `b` runs
/// (ascending, without duplicates).
pub fn control_dependence(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = succ.len();
    let exit = n;
    // Edges of the CFG with the synthetic exit, as (from, to).
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (a, ss) in succ.iter().enumerate() {
        if ss.is_empty() {
            edges.push((a, exit));
        }
        edges.extend(ss.iter().map(|&b| (a, b)));
    }
    // Nodes that cannot reach the exit (infinite loops) get an edge to it too: any node of such
    // a loop may be the last one a thread runs.
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for &(a, b) in &edges {
        pred[b].push(a);
    }
    let mut reaches = vec![false; n + 1];
    let mut stack = vec![exit];
    reaches[exit] = true;
    while let Some(v) = stack.pop() {
        for &p in &pred[v] {
            if !reaches[p] {
                reaches[p] = true;
                stack.push(p);
            }
        }
    }
    // Soundness of the extra edges for slicing: they only add control dependences (a node may
    // now "leave" to the exit), so slices grow; they never lose a dependence.
    for (a, r) in reaches.iter().enumerate().take(n) {
        if !r {
            edges.push((a, exit));
        }
    }
    // Post-dominators are dominators of the reversed graph, rooted at the exit.
    let mut rev: DiGraph<(), ()> = DiGraph::with_capacity(n + 1, edges.len());
    for _ in 0..=n {
        rev.add_node(());
    }
    for &(a, b) in &edges {
        rev.add_edge(NodeIndex::new(b), NodeIndex::new(a), ());
    }
    let pdom = simple_fast(&rev, NodeIndex::new(exit));
    let ipdom = |v: usize| {
        pdom.immediate_dominator(NodeIndex::new(v))
            .map(|x| x.index())
    };
    let mut cd: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &edges {
        // `b` runs on some but not all paths from `a`: walk up the post-dominator tree from `b`
        // to `a`'s immediate post-dominator; every node on the way depends on `a`.
        let stop = ipdom(a);
        let mut runner = Some(b);
        while let Some(r) = runner {
            if Some(r) == stop || r == exit {
                break;
            }
            cd[r].push(a);
            runner = ipdom(r);
        }
    }
    for v in &mut cd {
        v.sort_unstable();
        v.dedup();
    }
    cd
}

#[cfg(test)]
mod tests {
    use super::control_dependence;

    #[test]
    fn diamond_branches_depend_on_the_condition_and_the_join_does_not() {
        // 0: if (c) 1 else 2; 3: join; return.
        let succ = vec![vec![1, 2], vec![3], vec![3], vec![]];
        let cd = control_dependence(&succ);
        assert_eq!(cd[0], Vec::<usize>::new());
        assert_eq!(cd[1], vec![0]);
        assert_eq!(cd[2], vec![0]);
        assert_eq!(cd[3], Vec::<usize>::new());
    }

    #[test]
    fn a_loop_body_depends_on_its_header_and_the_header_on_itself() {
        // 0 -> 1 (header); 1 -> 2 (body) | 3 (exit); 2 -> 1.
        let succ = vec![vec![1], vec![2, 3], vec![1], vec![]];
        let cd = control_dependence(&succ);
        assert_eq!(cd[2], vec![1]);
        assert_eq!(cd[1], vec![1]);
        assert!(cd[3].is_empty());
    }

    #[test]
    fn code_after_an_early_exit_depends_on_the_test() {
        // 0: if (c) 1: exit(); 2: rest.
        let succ = vec![vec![1, 2], vec![], vec![]];
        let cd = control_dependence(&succ);
        assert_eq!(cd[1], vec![0]);
        assert_eq!(cd[2], vec![0]);
    }

    #[test]
    fn an_infinite_loop_still_has_dependences() {
        // 0: if (c) 1 else 2; 1 -> 1 forever; 2: return.
        let succ = vec![vec![1, 2], vec![1], vec![]];
        let cd = control_dependence(&succ);
        assert_eq!(cd[1], vec![0, 1]);
        assert_eq!(cd[2], vec![0]);
    }
}
