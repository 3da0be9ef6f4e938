//! Which branch of a union a value takes: the one reading of it. Restore ([`Run`](super::Run)),
//! decode (`de/`) and the forward map (`encode.rs`) all ask [`pick`] and never look at a union's
//! shapes themselves, so they cannot disagree about a value's branch: the forward map sends a
//! value through a branch only where restore, handed what it sent, takes that branch back.
//!
//! The choice, on the value as restore sees it at the union (decoded, through its references):
//!
//! 1. The branches whose [`Shape`](super::Shape) the value has, in the plan's order, leaving out
//!    a branch that leads back (through its references) to a node already entered for this
//!    value: it would restore nothing new and loop.
//! 2. None: no branch's work applies, the value passes as it is.
//! 3. One, or several whose checks are alike and a value without an integral float: the first
//!    that does something ([`idle`] branches take the value as it is).
//! 4. Otherwise restore tries them in turn ([`Trial`]): a branch whose checks fail may have a
//!    sibling whose pass, and an integral float belongs to the branch that reads it as a float.
//!    Decode, which reads without a copy, leaves such a value to restore.

use super::{MAX_DEPTH, Node, NodeId, rewrite::Decode};
use serde_json::Value;

/// What [`pick`] decided.
pub(super) enum Pick {
    /// The branch the value takes, or `None`: it takes none that does anything and passes as it is.
    Taken(Option<NodeId>),
    /// Several branches fit and differ in their checks, or the value holds an integral float:
    /// restore tries them in turn ([`Trial::settle`]).
    Trial(Trial),
}

/// The branches [`pick`] left to trial restores, in the plan's order.
pub(super) struct Trial {
    fitting: Vec<NodeId>,
}

/// The branch of node `id`'s union that `value` takes, or the branches to try (see the [module
/// docs](self)). `entered`: whether a node was already entered for this value (the node `id`
/// itself and every node the value came through by reference or union branch).
pub(super) fn pick(nodes: &[Node], id: NodeId, value: &Value, entered: impl Fn(NodeId) -> bool) -> Pick {
    let node = &nodes[id];
    let mut fitting = node
        .union
        .iter()
        .filter(|(shape, b)| shape.fits(value) && !leads_back(nodes, *b, &entered))
        .map(|(_, b)| *b);
    // The common case, one branch that fits (or none), needs no list.
    let Some(one) = fitting.next() else { return Pick::Taken(None) };
    let Some(two) = fitting.next() else { return Pick::Taken((!idle(&nodes[one])).then_some(one)) };
    let mut fitting = [one, two].into_iter().chain(fitting);
    let float = has_integral_float(value);
    if !(node.try_branches || float) {
        return Pick::Taken(fitting.find(|b| !idle(&nodes[*b])));
    }
    let mut fitting: Vec<NodeId> = fitting.collect();
    // With an integral float, a branch whose items or property values refuse it (`[1.0]` for
    // `Vec<String>` beside `Vec<u32>`) is not the value's, though its top level fits: it would
    // keep the float, which the branch that reads it needs as an integer. Where no branch's
    // shape fits below its top level, they are all tried as before.
    if float {
        let deep: Vec<NodeId> = node
            .union
            .iter()
            .filter(|(shape, b)| fitting.contains(b) && shape.fits_deep(value))
            .map(|(_, b)| *b)
            .collect();
        if !deep.is_empty() {
            fitting = deep;
        }
    }
    Pick::Trial(Trial { fitting })
}

/// The forward map's side of the choice: the value `value` sent through the first branch of node
/// `id`'s union (in the plan's order) that `encode` sends it through (`None`: that branch does
/// not apply to it), whose encoding the branch's written shape takes below its top level too,
/// whose restore finds no fault, and which restore itself, handed the encoding, takes ([`pick`]
/// with `same`, the nodes entered for the value, `id` last): so the forward map cannot send a
/// value through a branch restore would not read it back through. `None`: the value goes as it
/// is, where no branch takes it, or where the branch that does would not give it back exactly
/// (the listed `0` of an `enum` for `0.0`) and a branch that needs nothing takes it as it is
/// (a `number` beside that `enum`).
pub(super) fn send(
    nodes: &[Node],
    id: NodeId,
    value: &Value,
    same: &[NodeId],
    depth: usize,
    mut encode: impl FnMut(&Value, NodeId) -> Option<Value>,
) -> Option<Value> {
    let node = &nodes[id];
    for (shape, branch) in &node.union {
        let Some(encoded) = encode(value, *branch) else { continue };
        // The branch the provider's schema takes the value in, and whose restore checks (an
        // `enum` of objects sent as JSON text, a moved bound) pass: another branch may take it in
        // the same written shape and check what this one cannot.
        if !shape.fits_deep(&encoded)
            || super::branch_taken(nodes, id, &encoded, same, depth) != Some(*branch)
        {
            continue;
        }
        let Some(back) = super::restored_through(nodes, Some(*branch), &encoded, depth + 1) else { continue };
        // (A value restore takes has at most its depth budget of levels: `==` stays shallow.)
        let as_is = !node.idle.is_empty() && back != *value && node.idle.iter().any(|s| s.fits(value));
        crate::walk::drop_any_depth(back);
        return (!as_is).then_some(encoded);
    }
    None
}

/// What a trial restore through one branch found.
pub(super) struct Tried {
    /// It found no fault.
    pub(super) passes: bool,
    /// It found no fault and gave the value back unchanged.
    pub(super) kept: bool,
}

impl Trial {
    /// The branch restore takes: the first whose trial `restore` leaves the value as it is
    /// without a fault, else the first without a fault, else the first that does something. An
    /// [`idle`] branch met first takes the value as it is (`None`). Where `restore` has no trial
    /// left (`None`: its budget is spent) the first that does something is taken, as without one.
    pub(super) fn settle(
        self,
        nodes: &[Node],
        mut restore: impl FnMut(NodeId) -> Option<Tried>,
    ) -> Option<NodeId> {
        let first = self.fitting.iter().copied().find(|b| !idle(&nodes[*b]));
        let mut clean = None;
        for &b in &self.fitting {
            if idle(&nodes[b]) {
                // Nothing to change and nothing to check: the value passes as it is.
                return None;
            }
            let Some(tried) = restore(b) else { break };
            if tried.kept {
                return Some(b);
            }
            if tried.passes && clean.is_none() {
                clean = Some(b);
            }
        }
        clean.or(first)
    }
}

/// Whether `branch`, through its references, is a node already `entered` for this value.
fn leads_back(nodes: &[Node], branch: NodeId, entered: impl Fn(NodeId) -> bool) -> bool {
    let mut at = Some(branch);
    for _ in 0..=MAX_DEPTH {
        let Some(id) = at else { return false };
        if entered(id) {
            return true;
        }
        at = nodes[id].target;
    }
    true
}

/// Whether a plan node does nothing: a union's branch kept only so that restore can take it for
/// a value its siblings would change.
pub(super) fn idle(node: &Node) -> bool {
    node.decode == Decode::None
        && node.target.is_none()
        && node.union.is_empty()
        && node.props.is_empty()
        && node.rest.is_none()
        && node.items.is_none()
        && node.prefix.is_empty()
        && !node.integer
        && node.checks.is_empty()
}

/// Whether an integral float (`1.0`) sits anywhere in `value`.
pub(super) fn has_integral_float(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n)
                if n.is_f64() && n.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0) =>
            {
                return true;
            }
            Value::Array(xs) => stack.extend(xs),
            Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// What reads which branch of a union a value takes: a branch's shape (`fits`, `fits_deep`),
    /// the way back to a node entered for the value, the trial of several branches.
    const CHOOSING: &[&str] =
        &[".fits(", ".fits_deep(", "leads_back", "try_branches ||", "has_integral_float("];

    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path.to_string_lossy().replace('\\', "/"), text));
            }
        }
    }

    /// The branch choice is written once: no file of `src/` but this one (and `shape.rs`, where a
    /// shape says what fits it) reads a union's branches to choose one, so restore, decode and the
    /// forward map cannot come to disagree about a value's branch.
    #[test]
    fn no_other_file_of_the_crate_chooses_a_union_branch() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&root, &mut files);
        let own = ["src/restore/branch.rs", "src/restore/shape.rs"];
        // The three interpreters are there to be read: the test reads what it means to.
        for consumer in ["src/restore/mod.rs", "src/restore/encode.rs", "src/restore/de/mod.rs"] {
            assert!(files.iter().any(|(p, _)| p.ends_with(consumer)), "{consumer} not found");
        }
        let mut found = Vec::new();
        for (path, text) in &files {
            if own.iter().any(|o| path.ends_with(o)) {
                continue;
            }
            for (i, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for pattern in CHOOSING {
                    if line.contains(pattern) {
                        found.push(format!("{path}:{}: `{pattern}`: {}", i + 1, line.trim()));
                    }
                }
            }
        }
        assert!(found.is_empty(), "a second reading of a union's branch choice:\n{}", found.join("\n"));
        // And this file, above its tests, holds the one reading.
        let this = &files.iter().find(|(p, _)| p.ends_with(own[0])).unwrap().1;
        let code = &this[..this.find("#[cfg(test)]").unwrap()];
        assert!(CHOOSING.iter().all(|p| code.contains(p)));
    }
}
