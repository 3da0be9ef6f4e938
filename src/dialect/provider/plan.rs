//! The restore plan beyond the walk: which nodes do anything (`liveness`), the nodes that do
//! nothing removed (`prune`), and the plan of a dialect that changes no shape (`integer_plan`:
//! integral floats, formats and bounds past the 64-bit range). Here because these read or build plan nodes, not provider schemas.

use super::shape::{deep_shape_of, whole_where_fractions_go_elsewhere, with_tag_required};
use crate::dialect::support::{names_type, type_names};
use crate::restore::{BigInt, Check, Decode, Node, NodeId, Prop, RestorePlan, Shape};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Which plan nodes do anything (`busy`), which of those change a value's shape or check it
/// (`structural`) rather than only turning integral floats into integers, and which change its
/// shape (`reshaping`: a decode, a `null` dropped) rather than only checking it.
pub(super) struct Liveness {
    pub(super) busy: Vec<bool>,
    pub(super) structural: Vec<bool>,
    pub(super) reshaping: Vec<bool>,
}

/// See [`Liveness`].
pub(super) fn liveness(nodes: &[Node]) -> Liveness {
    let n = nodes.len();
    let fix = |own: &dyn Fn(&Node) -> bool| {
        let mut set = vec![false; n];
        loop {
            let mut changed = false;
            for i in 0..n {
                if set[i] {
                    continue;
                }
                let node = &nodes[i];
                let live = |c: &Option<NodeId>| c.is_some_and(|c| set[c]);
                let b = own(node)
                    || live(&node.target)
                    || node.union.iter().any(|(_, c)| set[*c])
                    || node.props.iter().any(|p| live(&p.node))
                    || live(&node.rest)
                    || live(&node.items)
                    || node.prefix.iter().any(live);
                if b {
                    set[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return set;
            }
        }
    };
    // A case-folded enum changes only a value its branch's shape refuses: like an integral
    // float, taking it for another branch's value is harmless, so it needs no proof.
    let structural = |node: &Node| {
        !matches!(node.decode, Decode::None | Decode::CaseFold(_))
            || !node.checks.is_empty()
            || node.props.iter().any(|p| p.null_is_absent)
    };
    // A declared default matters to the forward map only: busy, not structural.
    let busy = fix(&|node: &Node| {
        structural(node)
            || node.integer
            || matches!(node.decode, Decode::CaseFold(_))
            || node.props.iter().any(|p| p.default.is_some() || p.null_dropped)
    });
    let reshaping = fix(&|node: &Node| {
        !matches!(node.decode, Decode::None | Decode::CaseFold(_))
            || node.props.iter().any(|p| p.null_is_absent)
    });
    let structural = fix(&structural);
    Liveness { busy, structural, reshaping }
}

/// Removes plan nodes that do nothing (a definition that needs no restore), so restore does not
/// walk where nothing changes.
pub(super) fn prune(mut nodes: Vec<Node>, root: Option<NodeId>) -> (Vec<Node>, Option<NodeId>) {
    let busy = liveness(&nodes).busy;
    let keep = |c: Option<NodeId>| c.filter(|c| busy[*c]);
    for node in &mut nodes {
        node.target = keep(node.target);
        // A union's branches that do nothing stay beside one that does: where several fit a
        // value holding an integral float, restore takes the one that leaves it as it is.
        if !node.union.iter().any(|(_, c)| busy[*c]) {
            node.union.clear();
        }
        for p in &mut node.props {
            p.node = keep(p.node);
        }
        node.rest = keep(node.rest);
        // A declared property with nothing to do still keeps a map's plan off its value.
        let shields = node.rest.is_some();
        node.props.retain(|p| {
            p.node.is_some() || p.null_is_absent || p.null_dropped || p.default.is_some() || shields
        });
        node.items = keep(node.items);
        for p in &mut node.prefix {
            *p = keep(*p);
        }
        // A tuple's members with nothing to do go, unless `items` has a plan: the members keep
        // it off their values.
        if node.prefix.iter().all(Option::is_none) && node.decode == Decode::None && node.items.is_none() {
            node.prefix.clear();
        }
    }
    (nodes, keep(root))
}

/// The plan of a dialect that changes no shape: it only turns an integral float (`1.0`) into the
/// integer where the schema declares `integer`, which JSON Schema accepts and serde refuses, and
/// checks the `format`s restore knows (see [`Format`](crate::restore::Format)), which draft
/// 2020-12 leaves annotations and the code's readers enforce, and the numeric bounds past the
/// 64-bit range ([big-integer tokens](crate::restore::bound)), which a provider reading numbers
/// as `f64` would round.
/// Built from the schema as it is (references followed through one node per definition), and
/// only when a caller first restores arguments under it; `mcp` builds it beside its wrapped root.
pub(crate) fn integer_plan(schema: &Value, max_depth: usize) -> RestorePlan {
    integer_plan_in(schema, schema, max_depth)
}

/// [`integer_plan`] of `schema`, a schema inside the document `doc` (its references resolved
/// there): the own restore of a part sent as JSON text (a cut, folded properties).
pub(crate) fn integer_plan_in(doc: &Value, schema: &Value, max_depth: usize) -> RestorePlan {
    let mut b =
        IntegerPlan { root: doc, nodes: Vec::new(), slots: HashMap::new(), work: Vec::new(), max_depth };
    let root = b.node(schema, 0);
    while let Some((target, id)) = b.work.pop() {
        let inner = b.node(target, 0);
        b.nodes[id].target = inner;
    }
    let (mut nodes, root) = prune(b.nodes, root);
    // A union with a branch that checks a format: several branches may fit a value, and it
    // passes where one of them takes it, so restore tries them in turn.
    let structural = liveness(&nodes).structural;
    for node in &mut nodes {
        node.try_branches = node.union.iter().any(|(_, c)| structural[*c]);
    }
    RestorePlan::from_parts(nodes, root, Vec::new())
}

/// [`integer_plan`]'s walk: one node per schema, each definition once (from a work list).
struct IntegerPlan<'v> {
    root: &'v Value,
    nodes: Vec<Node>,
    /// A reference → its definition's node.
    slots: HashMap<&'v str, NodeId>,
    /// Definitions still to walk, and their nodes.
    work: Vec<(&'v Value, NodeId)>,
    max_depth: usize,
}

impl<'v> IntegerPlan<'v> {
    fn node(&mut self, s: &'v Value, depth: usize) -> Option<NodeId> {
        let Value::Object(m) = s else { return None };
        if depth > self.max_depth {
            return None;
        }
        let mut node = Node::default();
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = crate::refs::resolve(self.root, r)?;
            let id = match self.slots.get(r) {
                Some(id) => *id,
                None => {
                    self.nodes.push(Node::default());
                    let id = self.nodes.len() - 1;
                    self.slots.insert(r, id);
                    self.work.push((target, id));
                    id
                }
            };
            node.target = Some(id);
        }
        node.integer = m.get("type").is_some_and(|t| {
            let names = type_names(t);
            names.contains("integer") && !names.contains("number")
        });
        node.integer_format = node.integer
            && m.get("format")
                .and_then(Value::as_str)
                .and_then(crate::dialect::support::integer_format_bounds)
                .is_some();
        // A format the code's reader enforces, which draft 2020-12 leaves an annotation
        // (a listed value says all: `enum` and `const` are checked by the schema itself).
        if !m.contains_key("enum")
            && !m.contains_key("const")
            && m.get("type").is_none_or(|t| names_type(t, "string"))
            && let Some(check) = m.get("format").and_then(|f| Check::from_keyword("format", f))
        {
            node.checks = check;
        }
        // A bound past the 64-bit range (a big-integer token, from a caller whose integers have
        // no bound): the provider is told its digits, but one that reads bounds as `f64` keeps
        // it only approximately (`2**70 + 1` passes `maximum: 2**70` there), so restore compares
        // it exactly. A bound that is a JSON number is the provider's to enforce.
        for kw in super::keywords::NUMERIC_BOUNDS {
            if let Some(value) = m.get(*kw).filter(|v| BigInt::of_token(v).is_some())
                && let Some(check) = Check::from_keyword(kw, value)
            {
                node.checks.extend(check);
            }
        }
        self.object(m, &mut node, depth);
        node.items = m.get("items").and_then(|i| self.node(i, depth + 1));
        if let Some(Value::Array(prefix)) = m.get("prefixItems") {
            node.prefix = prefix.iter().map(|p| self.node(p, depth + 1)).collect();
        }
        for k in ["anyOf", "oneOf"] {
            let branches = m.get(k).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            self.union(m, branches, &mut node, depth);
        }
        self.nodes.push(node);
        Some(self.nodes.len() - 1)
    }

    /// An object's properties and the values of its further keys.
    fn object(&mut self, m: &'v Map<String, Value>, node: &mut Node, depth: usize) {
        let plain = |name: &String, node| Prop {
            name: name.clone(),
            node,
            null_is_absent: false,
            null_dropped: false,
            default: None,
            null_refused: false,
        };
        if let Some(Value::Object(props)) = m.get("properties") {
            for (name, p) in props {
                if let Some(child) = self.node(p, depth + 1) {
                    node.props.push(plain(name, Some(child)));
                }
            }
        }
        node.rest = match (m.get("additionalProperties"), m.get("patternProperties")) {
            (Some(Value::Object(a)), _) if !a.is_empty() => self.node(&m["additionalProperties"], depth + 1),
            // A map whose keys have one pattern (`BTreeMap<u32, u8>`): its values. A key the
            // pattern refuses has no schema, and an integer there stays valid either way.
            (None | Some(Value::Bool(_)), Some(Value::Object(p))) if p.len() == 1 => {
                p.values().next().and_then(|v| self.node(v, depth + 1))
            }
            (a, _) => a.and_then(|a| self.node(a, depth + 1)),
        };
        if node.rest.is_some()
            && let Some(Value::Object(props)) = m.get("properties")
        {
            // The map's plan is for further keys only: a declared property is read as its
            // own schema says (an integral float stays a float where it takes `number`).
            for name in props.keys() {
                if !node.props.iter().any(|p| &p.name == name) {
                    node.props.push(plain(name, None));
                }
            }
        }
        node.props.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// A union's branches (`anyOf` or `oneOf` of `m`), each with the shape that keeps an
    /// integral float a float where another branch takes fractions.
    fn union(&mut self, m: &Map<String, Value>, branches: &'v [Value], node: &mut Node, depth: usize) {
        // A discriminated union's tag tells its branches apart, as its readers require
        // it (an integral float stays a float in the branch whose tag the value names).
        let tag = m.get("discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str);
        let shapes: Vec<Shape> = branches
            .iter()
            .map(|b| {
                let tagged = tag.map(|t| with_tag_required(b, t, self.root));
                // With its items' and properties' shapes: an integral float in an
                // array or map is the branch's whose items take it (`Vec<u32>`, not
                // `Vec<String>`, for `[1.0]`).
                let mut shape = deep_shape_of(tagged.as_ref().unwrap_or(b), self.root);
                shape.values = None;
                shape
            })
            .collect();
        for (i, b) in branches.iter().enumerate() {
            // `true` is `{}`: a branch that takes any value as it is, which restore must
            // see beside one that checks (a `format`), or a value only it takes is
            // judged by its sibling.
            let child = if *b == Value::Bool(true) {
                self.nodes.push(Node::default());
                Some(self.nodes.len() - 1)
            } else {
                self.node(b, depth + 1)
            };
            if let Some(child) = child {
                // Integral floats only: taking one branch for another keeps the value
                // valid, so no branch needs telling apart; but a float stays a float
                // where another branch takes fractions.
                node.union.push((whole_where_fractions_go_elsewhere(&shapes, i), child));
            }
        }
    }
}
