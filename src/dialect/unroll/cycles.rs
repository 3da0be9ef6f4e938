//! Where the cycles are: the reference targets on a cycle of references reachable from the root
//! (a depth-first search over the graph of definitions, iterative, so a long chain of references
//! never deepens the stack).

use super::MAX_TARGETS;
use crate::pointer::Pointer;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// The reference targets (JSON pointers, `""` for the root) that lie on a cycle of references
/// reachable from the root.
pub(crate) fn recursive_targets(schema: &Value, max_depth: usize) -> BTreeSet<String> {
    let mut keys = vec![String::new()];
    let mut index: HashMap<String, usize> = HashMap::from([(String::new(), 0)]);
    let mut edges: Vec<Vec<usize>> = vec![Vec::new()];
    let mut todo = vec![0];
    while let Some(i) = todo.pop() {
        let Some(node) = crate::refs::lookup_pointer(schema, &keys[i]) else { continue };
        for target in refs_in(node, max_depth) {
            if crate::refs::lookup_pointer(schema, &target).is_none() {
                continue;
            }
            let j = match index.get(&target) {
                Some(j) => *j,
                None => {
                    if keys.len() >= MAX_TARGETS {
                        continue;
                    }
                    keys.push(target.clone());
                    edges.push(Vec::new());
                    index.insert(target, keys.len() - 1);
                    todo.push(keys.len() - 1);
                    keys.len() - 1
                }
            };
            edges[i].push(j);
        }
    }
    on_cycles(&edges).into_iter().map(|i| keys[i].clone()).collect()
}

/// The targets of the references inside `node` (its definition maps aside).
fn refs_in(node: &Value, max_depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    let _ = crate::walk::visit_all(node, max_depth, &mut |ptr, n| {
        // Inside a definition map: only the last step's tokens need reading (a keyword, and a name
        // or index after it); the walk went no further down past an earlier step's.
        if ptr.as_str().rsplit('/').take(2).any(|t| t == "$defs" || t == "definitions") {
            return false;
        }
        if let Some(r) = n.get("$ref").and_then(Value::as_str)
            && let Ok(tokens) = crate::refs::parse_local(r)
        {
            out.push(Pointer::from_tokens(&tokens).to_string());
        }
        true
    });
    out
}

/// The vertices of `edges` on a cycle: in a strongly connected component of two or more, or with
/// an edge to themselves.
fn on_cycles(edges: &[Vec<usize>]) -> Vec<usize> {
    let (component, count) = crate::vocab::graph::components(edges.len(), |v, i| edges[v].get(i).copied());
    let mut size = vec![0usize; count];
    for &c in &component {
        size[c] += 1;
    }
    (0..edges.len()).filter(|&v| size[component[v]] > 1 || edges[v].contains(&v)).collect()
}
