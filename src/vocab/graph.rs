//! [`components`]: the strongly connected components of a directed graph, for the two places that
//! ask where references loop (the `$ref` inliner and the dialects' unrolling of recursion).

/// The strongly connected component of each of `n` vertices (Tarjan's algorithm, iterative, so a
/// long chain never deepens the stack), and how many components there are. `edge(v, i)` is the
/// target of vertex `v`'s `i`-th edge, `None` past its last. Components are numbered in the order
/// Tarjan's algorithm completes them, the reverse of a topological order: an edge between two
/// components leads to the lower number.
pub(crate) fn components(n: usize, edge: impl Fn(usize, usize) -> Option<usize>) -> (Vec<usize>, usize) {
    const UNSEEN: usize = usize::MAX;
    let (mut index, mut low) = (vec![UNSEEN; n], vec![0; n]);
    let mut on_stack = vec![false; n];
    let mut component = vec![0; n];
    let mut stack = Vec::new();
    let (mut next, mut count) = (0, 0);
    for start in 0..n {
        if index[start] != UNSEEN {
            continue;
        }
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(top) = calls.last_mut() {
            let v = top.0;
            if let Some(w) = edge(v, top.1) {
                top.1 += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = count;
                    if w == v {
                        break;
                    }
                }
                count += 1;
            }
        }
    }
    (component, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(edges: &[&[usize]]) -> (Vec<usize>, usize) {
        components(edges.len(), |v, i| edges[v].get(i).copied())
    }

    #[test]
    fn cycles_share_a_component_and_edges_lead_to_lower_numbers() {
        // 0 -> 1 -> 2 -> 1, 2 -> 3, 4 alone.
        let (c, count) = of(&[&[1], &[2], &[1, 3], &[], &[]]);
        assert_eq!(count, 4);
        assert_eq!(c[1], c[2]);
        assert!(c[3] < c[1] && c[1] < c[0], "{c:?}");
        assert_ne!(c[4], c[0]);
    }

    #[test]
    fn a_long_chain_does_not_deepen_the_stack() {
        let n = 200_000;
        let (c, count) = components(n, |v, i| (i == 0 && v + 1 < n).then_some(v + 1));
        assert_eq!(count, n);
        assert!(c[0] > c[n - 1]);
    }
}
