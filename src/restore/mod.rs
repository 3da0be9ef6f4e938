//! Restore plans: the inverse of a provider dialect's adaptation, from the arguments a model sent
//! back to arguments the original schema accepts.
//!
//! A provider that cannot say something in its schema language gets a faithful encoding of it,
//! and the [`RestorePlan`] built beside the provider's schema undoes that encoding on every call:
//!
//! | the original says | the provider is told | restore |
//! | --- | --- | --- |
//! | an optional property (OpenAI demands every property) | required, `null` added | drops the key when it is `null` and the original refused `null` there (serde then applies the default) |
//! | a map (`additionalProperties: S`) | an array of `{"key", "value"}` entries | rebuilds the object, refusing a repeated key |
//! | any JSON value, or a free-form object | a string holding JSON text | parses it, refusing text that is not JSON of the declared kind |
//! | a root that is not an object | `{"value": ...}` | unwraps it |
//! | a tuple (`prefixItems`) | an object with keys `"0"`, `"1"`, ... | rebuilds the array |
//! | enum values the provider cannot list (numbers for Gemini) | their JSON text as strings | maps each back |
//! | an assertion the provider does not enforce (`minimum` for Anthropic) | nothing, said in the description | checks it, listing every failure with its pointer |
//! | an `integer` | `integer` | turns an integral float (`1.0`, which JSON Schema accepts and serde refuses) into the integer, but where another branch of its union takes fractions there (at its top or inside it); refuses one past ±2^53 where an integer format is named |
//!
//! Each encoding's forward rule and its inverse sit together in one module of `rewrite/`; the
//! checks in `check.rs`.
//!
//! A plan is derived from the schema alone: rebuilding it from the same schema and dialect gives
//! the same plan, so a gateway can keep the original schema and make the plan at call time.
//! [`ToolSchema::restore`](crate::ToolSchema::restore) runs the plan of a schema built by
//! [`SchemaOptions`](crate::SchemaOptions); [`crate::dialect::adapt`] gives the schema and its plan
//! for a foreign schema with serde_json alone.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, ANTHROPIC_STRICT};
//!
//! let schema = json!({"type": "object", "properties": {"nights": {"type": "integer", "minimum": 0}}, "required": ["nights"]});
//! let adapted = dialect::adapt(&ANTHROPIC_STRICT, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(adapted.schema["properties"]["nights"]["description"], "Constraints: at least 0.");
//! assert_eq!(adapted.plan.restore(json!({"nights": 2.0})).unwrap(), json!({"nights": 2}));
//! let err = adapted.plan.restore(json!({"nights": -1})).unwrap_err();
//! assert_eq!(err.to_string(), "the arguments do not fit the tool's schema:\n- `/nights`: must be at least 0, got -1");
//! ```
//!
//! # How it works
//! The plan is a small graph of nodes, one for each position of the provider's schema that
//! needs work (a definition shared by several references is one node, so recursion costs
//! nothing). [`RestorePlan::restore`] walks the arguments along it: at each node it first undoes
//! the encoding (`decode`), then follows a reference (or a wrapped root's content), then the
//! branch of a union, then restores the children (properties, map values, items), then turns
//! an integral float into an integer, then runs the moved checks. Where the provider's schema
//! has a union whose branches need different work, the plan holds for each branch a shape
//! that only the values of that branch have (a JSON type, a tag's value, a closed key set); the
//! dialect refuses a union whose branches it cannot tell apart this way, unless they differ only
//! in checks and integer fixes: then the branches that fit are tried in turn, and the first
//! whose checks pass is taken. Every fault is collected,
//! not only the first, each with the pointer of the argument the model sent.

mod adaptation;
pub mod bound;
mod branch;
mod check;
mod de;
mod encode;
mod fault;
mod format;
mod pattern;
pub(crate) mod rewrite;
mod shape;
mod types;
mod validate;

pub(crate) use rewrite::Decode;
use rewrite::{Faults, Place, Seg};
pub(crate) use shape::{Bounds, Shape};
pub(crate) use types::TypeSet;

pub use adaptation::{Adaptation, AdaptationKind, RenamedKey};
pub use bound::{BIG_INTEGER_MARK, BigInt, Bound, MAX_DIGITS as BIG_INTEGER_MAX_DIGITS, big_integer_token};
pub use check::{Check, KeysPresent, Presence};
pub use fault::{ArgumentsError, Fault};
pub use format::Format;
pub use pattern::{Pattern, STEP_BOUND};
pub use validate::{MAX_DEPTH as VALIDATE_MAX_DEPTH, MAX_STEPS as VALIDATE_MAX_STEPS, validate};

use crate::pointer::Pointer;
use serde_json::{Map, Value};
use std::fmt;

/// How deep [`RestorePlan::restore`] follows the arguments: plan steps, each a level of arrays
/// or objects, a reference, or a union's branch. As deep as the depth budget of every walk
/// ([`Depth::DEFAULT_MAX`](crate::walk::Depth::DEFAULT_MAX)), and as deep as serde_json parses
/// text by default; arguments deeper than a schema can describe are refused, not followed.
pub const MAX_DEPTH: usize = crate::walk::Depth::DEFAULT_MAX;

/// The index of a [`Node`] in its plan.
pub(crate) type NodeId = usize;

/// The inverse of one provider dialect's adaptation of one schema. See the [module docs](self).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RestorePlan {
    nodes: Vec<Node>,
    root: Option<NodeId>,
    adaptations: Vec<Adaptation>,
    renamed_keys: Vec<RenamedKey>,
}

/// One position of the provider's schema that needs work on restore.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Node {
    /// Undoes the provider's encoding first.
    pub(crate) decode: Decode,
    /// Then the decoded value goes through this node (a reference's definition, or a wrapped
    /// root's content), before this node's own children and checks.
    pub(crate) target: Option<NodeId>,
    /// Branches that need work, each with the shape only its values have.
    pub(crate) union: Vec<(Shape, NodeId)>,
    /// For the forward map only: the shapes of the union's branches that need nothing and are
    /// not in `union` (no branch beside them is tried), which take a value as it is. A value
    /// the branch of `union` that takes it would not give back exactly (the listed `0` of an
    /// `enum` for `0.0`) goes as it is where one of them fits it (a `number` beside that `enum`).
    pub(crate) idle: Vec<Shape>,
    /// Whether several of `union`'s branches may fit one value and differ in their checks:
    /// restore then tries them in turn (see `Run::branch`).
    pub(crate) try_branches: bool,
    /// Properties that need work: name, node (if any), and whether `null` means "absent".
    pub(crate) props: Vec<Prop>,
    /// Every key not in `props` (map values, after entries are rebuilt).
    pub(crate) rest: Option<NodeId>,
    /// Array items.
    pub(crate) items: Option<NodeId>,
    /// Leading array items (a tuple), before `items`.
    pub(crate) prefix: Vec<Option<NodeId>>,
    /// Turn an integral float into an integer.
    pub(crate) integer: bool,
    /// With `integer`: the schema names an integer format (a Rust integer type, which serde
    /// reads only from an integer token), so an integral float past ±2^53, which stays a float
    /// (its digits are not the integer the model meant, or it was an integer past the 64-bit
    /// range), is a fault rather than a value serde refuses.
    pub(crate) integer_format: bool,
    /// Assertions the provider could not enforce.
    pub(crate) checks: Vec<Check>,
}

/// A property of an object node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Prop {
    pub(crate) name: String,
    pub(crate) node: Option<NodeId>,
    pub(crate) null_is_absent: bool,
    /// For the forward map: absent stands for `null`, which the provider's schema does not
    /// admit there (an optional `Option` whose null reads as absent does): a `null` is left out.
    pub(crate) null_dropped: bool,
    /// For the forward map: the value that says "absent" where the provider demands the property
    /// and `null` is a value of its own (a declared default), or where it demands a property the
    /// original leaves out (a discriminator's tag with its default).
    pub(crate) default: Option<Value>,
    /// For the forward map: with `null_is_absent`, the original refuses `null` here (the null
    /// stands for absent only), so a value that holds a null there is not this object's: a union
    /// branch whose property it is does not take it.
    pub(crate) null_refused: bool,
}

impl RestorePlan {
    /// The plan that changes nothing (a dialect that does not restructure).
    pub fn identity() -> Self {
        RestorePlan::default()
    }

    /// Whether restore changes nothing and checks nothing.
    pub fn is_identity(&self) -> bool {
        self.root.is_none()
    }

    /// Every rewrite the dialect made, in pointer order.
    pub fn adaptations(&self) -> &[Adaptation] {
        &self.adaptations
    }

    /// Every property key sent under another name, in pointer order: what the model sees and
    /// sends instead of the original key (restore maps it back).
    pub fn renamed_keys(&self) -> &[RenamedKey] {
        &self.renamed_keys
    }

    pub(crate) fn from_parts(
        nodes: Vec<Node>,
        root: Option<NodeId>,
        mut adaptations: Vec<Adaptation>,
    ) -> Self {
        adaptations.sort();
        adaptations.dedup();
        let root = root.filter(|_| !nodes.is_empty());
        RestorePlan { nodes, root, adaptations, renamed_keys: Vec::new() }
    }

    /// `self` with the keys it renames listed.
    pub(crate) fn with_renamed_keys(mut self, mut keys: Vec<RenamedKey>) -> Self {
        keys.sort();
        keys.dedup();
        self.renamed_keys = keys;
        self
    }

    /// The plan of a schema that wraps its root as `{"<key>": ...}`, from `self`, the plan of
    /// the wrapping schema as it is (which works on the wrapper's property): unwrap, then what
    /// `self` does under `key`.
    pub(crate) fn unwrapping(self, key: &str, adaptations: Vec<Adaptation>) -> RestorePlan {
        let inner =
            self.root.and_then(|r| self.nodes[r].props.iter().find(|p| p.name == key).and_then(|p| p.node));
        let renamed = self.renamed_keys;
        let mut nodes = self.nodes;
        nodes.push(Node { decode: Decode::Unwrap(key.to_owned()), target: inner, ..Node::default() });
        let root = nodes.len() - 1;
        RestorePlan::from_parts(nodes, Some(root), adaptations).with_renamed_keys(renamed)
    }

    /// The plan of a schema whose root object had properties folded into one (`fold`), from
    /// `self`, the plan of the folded schema: the fold undone at the root first (after keys
    /// renamed back), then what `self` does. Each folded property is listed as an adaptation at
    /// `/properties/<name>`. `None` where the root already undoes another encoding (a map of
    /// further keys beside the properties), which the fold does not compose with.
    pub(crate) fn folding(self, fold: rewrite::fold::Fold) -> Option<RestorePlan> {
        let mut adaptations = self.adaptations;
        for name in &fold.names {
            let mut pointer = Pointer::root();
            pointer.push("properties");
            pointer.push(name);
            adaptations.push(Adaptation {
                pointer: pointer.as_str().to_owned(),
                kind: AdaptationKind::Folded,
                keyword: "properties".into(),
            });
        }
        let renamed_keys = self.renamed_keys;
        let mut nodes = self.nodes;
        let fold = Decode::Fold(Box::new(fold));
        let root = match self.root {
            Some(r) => {
                let node = &mut nodes[r];
                node.decode = match std::mem::take(&mut node.decode) {
                    Decode::Keys(renames, inner) if *inner == Decode::None => {
                        Decode::Keys(renames, Box::new(fold))
                    }
                    Decode::None => fold,
                    _ => return None,
                };
                r
            }
            None => {
                nodes.push(Node { decode: fold, ..Node::default() });
                nodes.len() - 1
            }
        };
        Some(RestorePlan::from_parts(nodes, Some(root), adaptations).with_renamed_keys(renamed_keys))
    }

    /// `self` with the restore plan of its root's fold ([`folding`](Self::folding)) given:
    /// made from the folded properties' schema on the first restore that needs it.
    pub(crate) fn with_fold_plan(mut self, plan: rewrite::TextPlan) -> RestorePlan {
        let Some(root) = self.root else { return self };
        let fold = match &mut self.nodes[root].decode {
            Decode::Fold(fold) => fold,
            Decode::Keys(_, inner) => match inner.as_mut() {
                Decode::Fold(fold) => fold,
                _ => return self,
            },
            _ => return self,
        };
        fold.plan = plan;
        self
    }

    /// Maps arguments the provider's schema accepts back to arguments the original schema
    /// accepts: undoes every encoding, then checks every assertion the provider could not
    /// enforce.
    ///
    /// For arguments the provider's schema accepts, the result is accepted by the original
    /// schema, or this is an error; arguments the provider's schema refuses may give either.
    ///
    /// # Errors
    /// [`ArgumentsError::Invalid`] with every fault: JSON text that does not parse, a repeated
    /// map key, a moved assertion that fails, arguments deeper than [`MAX_DEPTH`].
    pub fn restore(&self, args: Value) -> Result<Value, ArgumentsError> {
        self.restore_in(args, false)
    }

    /// [`restore`](Self::restore) for a caller that writes integers past the 64-bit range as
    /// big-integer tokens ([`big_integer_token`]): JSON text the model sent for a value (any
    /// value, a free-form object) is read with each integer literal past the 64-bit range as
    /// such a token, so that its digits reach the caller exactly (serde_json alone reads one as
    /// the nearest float). Text that holds U+FDD1 itself is a fault here.
    ///
    /// # Errors
    /// As [`restore`](Self::restore).
    pub fn restore_big_integers(&self, args: Value) -> Result<Value, ArgumentsError> {
        self.restore_in(args, true)
    }

    fn restore_in(&self, args: Value, big_integers: bool) -> Result<Value, ArgumentsError> {
        let Some(root) = self.root else { return Ok(args) };
        let mut run = Run::new(&self.nodes);
        run.big_integers = big_integers;
        let out = run.node(root, args, 0);
        if run.faults.is_empty() {
            Ok(out)
        } else {
            crate::walk::drop_any_depth(out);
            Err(ArgumentsError::Invalid { faults: run.into_faults() })
        }
    }
}

/// A fault on its way up: the message, and the steps from where it was found, innermost first.
struct Pending {
    message: String,
    path: Vec<Seg>,
}

/// One run of restore. No pointer is kept on the way down: a fault records the steps to it as
/// the walk returns through them, so arguments without faults cost no pointer at all.
struct Run<'p> {
    nodes: &'p [Node],
    faults: Vec<Pending>,
    /// The nodes entered for the value at hand (through references and union branches, which do
    /// not descend into it), outermost first; emptied for each child value. A union branch that
    /// leads back to one of them restores nothing new and would loop: it is never picked.
    same: Vec<NodeId>,
    /// How many more trial restores [`Run::branch`] may make: each tries a union's branches on
    /// a copy, and nested unions would multiply the trials; past the budget the first branch
    /// that fits is taken, as without one.
    trials: usize,
    /// Whether JSON text is read with big-integer tokens ([`RestorePlan::restore_big_integers`]).
    big_integers: bool,
}

/// The trial restores one restore may make to pick union branches (see [`Run::branch`]).
const MAX_TRIALS: usize = 256;

impl<'p> Run<'p> {
    pub(crate) fn new(nodes: &'p [Node]) -> Self {
        Run { nodes, faults: Vec::new(), same: Vec::new(), trials: MAX_TRIALS, big_integers: false }
    }
}

/// What restore gives for `value` through the node `id` of `nodes` (the value as it is where
/// `id` is `None`), where it finds no fault: the forward map's check of a branch, and the
/// engine's judgement that two union branches restore the values they share alike.
pub(crate) fn restored_through(
    nodes: &[Node],
    id: Option<NodeId>,
    value: &Value,
    depth: usize,
) -> Option<Value> {
    let Some(id) = id else { return Some(value.clone()) };
    let mut run = Run::new(nodes);
    let out = run.node(id, value.clone(), depth);
    if run.faults.is_empty() {
        Some(out)
    } else {
        crate::walk::drop_any_depth(out);
        None
    }
}

/// The branch of node `id`'s union that restore takes for `value`, where `same` are the nodes
/// entered for it (`id` last): the forward map's check that restore reads what it sends through
/// the branch it sent it through.
pub(super) fn branch_taken(
    nodes: &[Node],
    id: NodeId,
    value: &Value,
    same: &[NodeId],
    depth: usize,
) -> Option<NodeId> {
    let mut run = Run::new(nodes);
    run.same.extend_from_slice(same);
    run.branch(id, value, depth)
}

impl Faults for Run<'_> {
    fn big_integers(&self) -> bool {
        self.big_integers
    }

    fn fault(&mut self, message: String) {
        self.faults.push(Pending { message, path: Vec::new() });
    }

    fn count(&self) -> usize {
        self.faults.len()
    }

    fn below(&mut self, before: usize, seg: impl Fn() -> Seg) {
        for f in &mut self.faults[before..] {
            f.path.push(seg());
        }
    }
}

impl Run<'_> {
    fn into_faults(self) -> Vec<Fault> {
        self.faults
            .into_iter()
            .map(|f| {
                let mut pointer = Pointer::root();
                for seg in f.path.iter().rev() {
                    match seg {
                        Seg::Key(k) => pointer.push(k),
                        Seg::Index(i) => pointer.push_index(*i),
                    };
                }
                Fault { pointer: pointer.as_str().to_owned(), message: f.message }
            })
            .collect()
    }

    /// `child` at the step `seg`.
    fn child(&mut self, id: NodeId, value: Value, depth: usize, seg: impl Fn() -> Seg) -> Value {
        let before = self.faults.len();
        let out = self.inner(id, value, depth + 1);
        if self.faults.len() > before {
            self.below(before, seg);
        }
        out
    }

    /// `node` on a value inside the one at hand.
    fn inner(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        let outer = std::mem::take(&mut self.same);
        let out = self.node(id, value, depth);
        self.same = outer;
        out
    }

    /// The branch of node `id`'s union that restores `value`, as [`branch::pick`] reads it; where
    /// it leaves several to try, each is restored on a copy (see [`branch::Trial::settle`]).
    /// A float belongs to a branch that reads it as a float (`A { a: i64 } | B { a: f64 }`,
    /// untagged, reads `{"a": 1.0}` as `B`), and turning it into an integer would hand serde
    /// another branch's value; a value whose checks fail in one branch may pass another's.
    fn branch(&mut self, id: NodeId, value: &Value, depth: usize) -> Option<NodeId> {
        let trial = match branch::pick(self.nodes, id, value, |n| self.same.contains(&n)) {
            branch::Pick::Taken(b) => return b,
            branch::Pick::Trial(trial) => trial,
        };
        let nodes = self.nodes;
        trial.settle(nodes, |b| {
            // Each trial restores a copy, and nested unions would multiply them: a budget.
            if self.trials == 0 {
                return None;
            }
            self.trials -= 1;
            let before = self.faults.len();
            let out = self.node(b, value.clone(), depth + 1);
            let passes = self.faults.len() == before;
            let kept = passes && out == *value;
            self.faults.truncate(before);
            crate::walk::drop_any_depth(out);
            Some(branch::Tried { passes, kept })
        })
    }

    fn node(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            self.fault(format!("the arguments nest deeper than {MAX_DEPTH} levels"));
            return value;
        }
        self.same.push(id);
        let value = self.node_once(id, value, depth);
        self.same.pop();
        value
    }

    fn node_once(&mut self, id: NodeId, value: Value, depth: usize) -> Value {
        let node = &self.nodes[id];
        let mut places = Vec::new();
        let mut value = node.decode.restore(value, self, &mut places);
        if let Some(t) = node.target {
            let before = self.faults.len();
            value = self.node(t, value, depth + 1);
            // A wrapped root: what lies below was sent under its key.
            if let Decode::Unwrap(key) = &node.decode {
                self.below(before, || Seg::Key(key.clone()));
            }
        }
        if let Some(branch) = self.branch(id, &value, depth) {
            value = self.node(branch, value, depth + 1);
        }
        match &mut value {
            Value::Object(map) if !node.props.is_empty() || node.rest.is_some() => {
                self.object(node, map, depth, &places);
            }
            Value::Array(items) if node.items.is_some() || !node.prefix.is_empty() => {
                for (i, item) in items.iter_mut().enumerate() {
                    let plan = node.prefix.get(i).copied().unwrap_or(node.items);
                    if let Some(child) = plan {
                        *item = self.child(child, std::mem::take(item), depth, || Seg::Index(i));
                    }
                }
            }
            _ => {}
        }
        if node.integer {
            integral(&mut value);
            if node.integer_format && value.as_f64().is_some_and(|f| f.fract() == 0.0) && value.is_f64() {
                self.fault(format!(
                    "must be an integer within the 64-bit range, written without a fraction or exponent \
                     where it is past ±2^53; got {}",
                    check::short(&value)
                ));
            }
        }
        for check in &node.checks {
            if !check.passes(&value) {
                let message = node.decode.failure(check, &value);
                self.fault(message);
            }
        }
        value
    }

    /// `places`: where each key of a map rebuilt from entries was sent (sorted by key), so that a
    /// fault under it names the entry the model wrote (`/tags/0/value`), not the key.
    fn object(
        &mut self,
        node: &Node,
        map: &mut Map<String, Value>,
        depth: usize,
        places: &[(String, Place)],
    ) {
        // The properties that need work, looked up one by one (a handful), then every other key
        // for a map's values: no copy of the key list. A declared property beside a map of
        // further keys is never one of them, whether or not it needs work.
        let declared = node.decode.declared();
        for p in &node.props {
            if rewrite::absent::stands_for_absent(p.null_is_absent, map.get(&p.name)) {
                map.remove(&p.name);
                continue;
            }
            if let Some(child) = p.node
                && let Some(slot) = map.get_mut(&p.name)
            {
                // A fault's pointer names the key the model sent.
                let sent = node.decode.sent_key(&p.name);
                *slot = self.child(child, std::mem::take(slot), depth, || Seg::Key(sent.to_owned()));
            }
        }
        if let Some(rest) = node.rest {
            for (key, slot) in map.iter_mut() {
                if node.props.binary_search_by(|p| p.name.as_str().cmp(key)).is_ok()
                    || declared.binary_search(key).is_ok()
                {
                    continue;
                }
                let before = self.faults.len();
                *slot = self.inner(rest, std::mem::take(slot), depth + 1);
                if self.faults.len() > before {
                    match places.binary_search_by(|(k, _)| k.as_str().cmp(key)) {
                        Ok(i) => {
                            let place = places[i].1.clone();
                            self.below(before, || Seg::Key("value".into()));
                            self.below(before, || Seg::Index(place.index));
                            if let Some(outer) = &place.under {
                                self.below(before, || Seg::Key(outer.clone()));
                            }
                        }
                        Err(_) => self.below(before, || Seg::Key(key.clone())),
                    }
                }
            }
        }
    }
}

/// `1.0` to `1`, where the float is integral and fits an `i64` or `u64`.
fn integral(value: &mut Value) {
    // Within ±2^53 every integer is exact in an f64; beyond it a float's digits are not the
    // integer the model meant, so it stays a float (and serde refuses it, as it would anyway).
    const EXACT: f64 = 9_007_199_254_740_992.0;
    let Value::Number(n) = value else { return };
    if !n.is_f64() {
        return;
    }
    let Some(f) = n.as_f64() else { return };
    if f.fract() != 0.0 || !f.is_finite() {
        return;
    }
    if f.abs() <= EXACT {
        *value = Value::from(f as i64);
    }
}

#[cfg(test)]
mod tests;
