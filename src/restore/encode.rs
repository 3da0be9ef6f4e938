//! The forward map ([`RestorePlan::encode`]): arguments in the original's terms written as the
//! provider's schema takes them, each encoding of the plan done forwards, so that restore maps
//! them back. Beside restore, which undoes the same nodes.

use super::{Decode, MAX_DEPTH, Node, NodeId, RestorePlan, TypeSet};
use serde_json::Value;

impl RestorePlan {
    /// The forward map: for arguments the original schema accepts, arguments the provider's
    /// schema accepts that [`restore`](Self::restore) maps back to them (with `null` for an
    /// absent field where the provider demands every field). For examples shown to a model in
    /// the provider's terms, and for the property tests that show every value of a type can be
    /// sent.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::dialect::{self, AdaptContext, OPENAI_STRICT};
    /// let schema = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "integer"}}}});
    /// let plan = dialect::adapt(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap().plan;
    /// let sent = plan.encode(json!({"tags": {"a": 1}}));
    /// assert_eq!(sent, json!({"tags": [{"key": "a", "value": 1}]}));
    /// assert_eq!(plan.encode(json!({})), json!({"tags": null}));
    /// assert_eq!(plan.restore(sent).unwrap(), json!({"tags": {"a": 1}}));
    /// ```
    pub fn encode(&self, value: Value) -> Value {
        match self.root {
            Some(root) => Encode { nodes: &self.nodes, same: Vec::new() }.node(root, value, 0),
            None => value,
        }
    }
}

struct Encode<'p> {
    nodes: &'p [Node],
    /// The nodes entered for the value at hand, outermost first, as restore keeps them (its
    /// `same`): what restore's choice of a union's branch is read against.
    same: Vec<NodeId>,
}

impl Encode<'_> {
    fn node(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return value;
        }
        self.same.push(id);
        let value = self.node_once(id, value, depth);
        self.same.pop();
        value
    }

    /// `node` on a value inside the one at hand.
    fn inner(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        let outer = std::mem::take(&mut self.same);
        let out = self.node(id, value, depth);
        self.same = outer;
        out
    }

    fn node_once(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        let node = &self.nodes[id];
        let mut value = value;
        match &mut value {
            Value::Object(map) if !node.props.is_empty() || node.rest.is_some() => {
                // A null the provider cannot take there: left out, which reads the same.
                for p in node.props.iter().filter(|p| p.null_dropped) {
                    if map.get(&p.name).is_some_and(Value::is_null) {
                        map.remove(&p.name);
                    }
                }
                // The properties left out, sent as a bare null.
                let mut absent = Vec::new();
                for p in &node.props {
                    if !map.contains_key(&p.name) {
                        if p.null_is_absent {
                            map.insert(p.name.clone(), Value::Null);
                            absent.push(p.name.as_str());
                        } else if let Some(d) = &p.default {
                            map.insert(p.name.clone(), d.clone());
                        }
                    }
                }
                let keys: Vec<String> = map.keys().cloned().collect();
                for key in keys {
                    let prop = node
                        .props
                        .binary_search_by(|p| p.name.as_str().cmp(&key))
                        .ok()
                        .map(|i| &node.props[i]);
                    let child = match prop {
                        Some(p) => p.node,
                        None if node.decode.declared().binary_search(&key).is_ok() => None,
                        None => node.rest,
                    };
                    // A null that is there stays null (it reads as absent), unless the property
                    // is sent as JSON text, where it is the text `null` and a bare null is absent.
                    if let Some(child) = child
                        && let Some(slot) = map.get_mut(&key)
                        && !(slot.is_null()
                            && prop.is_some_and(|p| p.null_is_absent)
                            && (absent.contains(&key.as_str()) || !self.null_as_text(child)))
                    {
                        *slot = self.inner(child, std::mem::take(slot), depth + 1);
                    }
                }
            }
            Value::Array(items) if node.items.is_some() || !node.prefix.is_empty() => {
                for (i, item) in items.iter_mut().enumerate() {
                    if let Some(child) = node.prefix.get(i).copied().unwrap_or(node.items) {
                        *item = self.inner(child, std::mem::take(item), depth + 1);
                    }
                }
            }
            _ => {}
        }
        // The nodes entered for this value, which restore's choice of a branch reads.
        let same = if node.union.is_empty() { Vec::new() } else { self.same.clone() };
        let sent = super::branch::send(self.nodes, id, &value, &same, depth, |this, branch| {
            // A null the branch's original refuses, where the branch sends null for absent: the
            // value is another branch's (which declares that null), though the encoding fits.
            if self.refuses_null_of(branch, this) || !self.encodes(branch, this) {
                return None;
            }
            let encoded = self.node(branch, this.clone(), depth + 1);
            Some(encoded)
        });
        if let Some(encoded) = sent {
            value = encoded;
        }
        if let Some(t) = node.target {
            value = self.node(t, value, depth + 1);
        }
        node.decode.encode(value)
    }
}

impl Encode<'_> {
    /// Whether the node `id` (through its references) sends a `null` value as the JSON text
    /// `null`.
    /// (A union sends it so where one of its branches does: `{}` beside other branches.)
    fn null_as_text(&self, id: NodeId) -> bool {
        self.null_as_text_within(id, 0)
    }

    fn null_as_text_within(&self, id: NodeId, depth: usize) -> bool {
        let mut at = Some(id);
        for _ in 0..=MAX_DEPTH {
            let Some(node) = at.map(|i| &self.nodes[i]) else { return false };
            if let Decode::JsonText(types) = &node.decode {
                return *types == TypeSet::ALL;
            }
            if let Decode::SchemaText(_) = &node.decode {
                return true;
            }
            if node.decode != Decode::None {
                return false;
            }
            if depth < MAX_DEPTH && node.union.iter().any(|(_, b)| self.null_as_text_within(*b, depth + 1)) {
                return true;
            }
            at = node.target;
        }
        false
    }

    /// Whether the encodings of the node `id` (through its references) apply to `value`: a map's
    /// entries to an object, a tuple's keys to an array. A value of another type is another
    /// branch's, although it may look like an encoding of this one (`[]`, an empty map's entries).
    fn encodes(&self, id: NodeId, value: &Value) -> bool {
        self.through_targets(id).all(|node| node.decode.applies_to(value))
    }

    /// Whether `value` is an object holding a null for a property the node `id` (through its
    /// references) sends as null for absent, and whose original refuses null.
    fn refuses_null_of(&self, id: NodeId, value: &Value) -> bool {
        let Value::Object(m) = value else { return false };
        self.through_targets(id).any(|node| {
            node.props.iter().any(|p| p.null_refused && m.get(&p.name).is_some_and(Value::is_null))
        })
    }

    /// The node `id` and the nodes its references lead to, which work on the same value (at most
    /// [`MAX_DEPTH`] of them).
    fn through_targets(&self, id: NodeId) -> impl Iterator<Item = &Node> {
        std::iter::successors(Some(&self.nodes[id]), |node| node.target.map(|t| &self.nodes[t]))
            .take(MAX_DEPTH + 1)
    }
}
