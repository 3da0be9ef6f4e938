//! Decode without a restored copy: serde reads the model's arguments through the restore plan.
//!
//! [`RestorePlan::decode`] gives what [`RestorePlan::restore`] followed by
//! `serde_json::from_value::<T>` gives, for every input, without building the restored `Value`
//! first. It is a [`serde::Deserializer`] over `&Value`, paired at each place with the plan's
//! node for that place, that restores as serde asks for values:
//!
//! - where the plan has no node (nothing happens below), serde reads serde_json's own `&Value`
//!   deserializer: the fast path is serde_json's;
//! - an object presents its keys as serde_json does, skipping a `null` that stands for an absent
//!   property, each value paired with its property's node (or the map's);
//! - a map sent as `{"key", "value"}` entries is presented as the map (keys in the order the
//!   restored `Map` would hold them), a tuple sent as `{"0": …}` as the array, a wrapped root as
//!   its content, an enum member sent as text as the member;
//! - an integral float where the original takes integers is presented as the integer;
//! - the moved checks of a place run when serde reaches it; an ignored value (an unknown field
//!   serde skips) is still walked, so a fault anywhere is found.
//!
//! # When it falls back
//! Correctness comes first, and two fallbacks keep it simple:
//!
//! - **A subtree**: where the plan stacks work on one value in a way this walk does not follow
//!   (JSON text to parse, a flattened map's further keys as entries, two nodes that both change
//!   the same value, a union to pick on a value rebuilt from entries, a check of an object's keys
//!   after a `null` was dropped, `uniqueItems` over restored items), that value is cloned and
//!   restored as [`RestorePlan::restore`] restores it there, then read by serde_json's own
//!   deserializer.
//! - **The whole call**: on any error (a fault restore reports, serde's refusal, or anything this
//!   walk would word differently), the arguments are restored and deserialised the old way, so
//!   an error is exactly the [`ArgumentsError`] restore + serde gives, faults, pointers and
//!   serde's message alike. A shared flag records every fault and every refusal of ours, so
//!   that a type that catches an error (`serde_with`'s `DefaultOnError`) cannot hide one.
//!
//! Recursion follows plan steps only and stops at [`MAX_DEPTH`], as restore does; below the
//! plan, serde_json's deserializer goes as deep as `from_value` would.

use super::rewrite::absent::stands_for_absent;
use super::rewrite::{Cur, Stop};
use super::{Decode, MAX_DEPTH, Node, NodeId, Prop, RestorePlan, Run, check};
use crate::restore::ArgumentsError;
use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer,
    MapAccess, SeqAccess, VariantAccess, Visitor,
};
use serde_json::{Error, Value};
use std::borrow::Cow;
use std::cell::Cell;

impl RestorePlan {
    /// [`restore`](Self::restore), then serde, in one pass: the model's arguments as the type `T`,
    /// without building the restored value first. serde reads the arguments through the plan
    /// (entries presented as the map, a `null` that stands for absent skipped, a wrapped root
    /// unwrapped, an integral float presented as the integer, the moved checks run where serde
    /// reaches them); on any error it restores and deserialises the old way. The result is the
    /// one of `restore` followed by `serde_json::from_value::<T>`, errors included.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolschema::dialect::{self, AdaptContext, OPENAI_STRICT};
    /// let schema = json!({"type": "object", "properties": {
    ///     "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
    ///     "n": {"type": "integer"}}, "required": ["n"]});
    /// let plan = dialect::adapt(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap().plan;
    ///
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct Call { n: u8, tags: Option<std::collections::BTreeMap<String, i64>> }
    /// let call: Call = plan.decode(json!({"n": 2.0, "tags": [{"key": "a", "value": 1}]})).unwrap();
    /// assert_eq!(call, Call { n: 2, tags: Some([("a".to_owned(), 1)].into()) });
    /// let call: Call = plan.decode(json!({"n": 2, "tags": null})).unwrap();
    /// assert_eq!(call.tags, None);
    /// ```
    ///
    /// # Errors
    /// What [`restore`](Self::restore) finds, or [`ArgumentsError::Decode`] with serde's message.
    pub fn decode<T: DeserializeOwned>(&self, args: Value) -> Result<T, ArgumentsError> {
        let Some(root) = self.root else { return T::deserialize(args).map_err(serde_error) };
        let ctx = Ctx { plan: self, failed: Cell::new(false) };
        match T::deserialize(De { ctx: &ctx, value: &args, node: root, depth: 0 }) {
            Ok(t) if !ctx.failed.get() => Ok(t),
            _ => T::deserialize(self.restore(args)?).map_err(serde_error),
        }
    }
}

#[allow(clippy::needless_pass_by_value, reason = "written `map_err(serde_error)`")]
fn serde_error(e: Error) -> ArgumentsError {
    crate::error::DecodeError::Deserialize { message: e.to_string() }.into()
}

/// What one decode shares: the plan, and whether anything failed (then the caller falls back).
struct Ctx<'a> {
    plan: &'a RestorePlan,
    failed: Cell<bool>,
}

impl Ctx<'_> {
    /// Records a failure; the error only unwinds serde (its text is never shown: the fallback's is).
    fn fail(&self) -> Error {
        self.failed.set(true);
        de::Error::custom("restore: fall back")
    }

    fn nodes(&self) -> &[Node] {
        &self.plan.nodes
    }
}

/// A value at a node of the plan, before serde has asked for anything. Dropped unread (a type
/// whose `Deserialize` never looks at its input), it marks the decode failed, since restore would
/// have walked it.
struct De<'a> {
    ctx: &'a Ctx<'a>,
    value: &'a Value,
    node: NodeId,
    depth: usize,
}

impl Drop for De<'_> {
    fn drop(&mut self) {
        self.ctx.failed.set(true);
    }
}

impl<'a> De<'a> {
    /// Restores this place as far as serde needs to see it.
    fn view(self) -> Result<View<'a>, Error> {
        let (ctx, value, node, depth) = (self.ctx, self.value, self.node, self.depth);
        std::mem::forget(self);
        resolve(ctx, value, node, depth)
    }
}

/// A child value: with no node, serde_json's own deserializer reads it.
fn child<'a, S: DeserializeSeed<'a>>(
    ctx: &'a Ctx<'a>,
    seed: S,
    value: &'a Value,
    node: Option<NodeId>,
    depth: usize,
) -> Result<S::Value, Error> {
    match node {
        None => seed.deserialize(value),
        Some(node) => seed.deserialize(De { ctx, value, node, depth }),
    }
}

/// The nodes entered for the value at hand, innermost first (restore's `same`).
struct Chain<'c> {
    id: NodeId,
    up: Option<&'c Chain<'c>>,
}

impl Chain<'_> {
    fn contains(&self, id: NodeId) -> bool {
        let mut at = Some(self);
        while let Some(c) = at {
            if c.id == id {
                return true;
            }
            at = c.up;
        }
        false
    }
}

struct Resolve<'a> {
    nodes: &'a [Node],
    cur: Cur<'a>,
    /// The one node whose children, integer fix and checks apply, with its depth.
    work: Option<(&'a Node, usize)>,
}

fn resolve<'a>(ctx: &'a Ctx<'a>, value: &'a Value, id: NodeId, depth: usize) -> Result<View<'a>, Error> {
    let nodes = ctx.nodes();
    let node = &nodes[id];
    let out = if depth <= MAX_DEPTH
        && node.decode == Decode::None
        && node.target.is_none()
        && node.union.is_empty()
    {
        // The common case, one node that only works on this value's children, integer or checks:
        // no chain to follow.
        if node.integer && node.checks.is_empty() && !matches!(value, Value::Number(n) if n.is_f64()) {
            return Ok(View::Plain(value));
        }
        let work = has_work(node).then_some((node, depth));
        Resolve { nodes, cur: Cur::Ref(value), work }.finish(ctx)
    } else {
        let mut r = Resolve { nodes, cur: Cur::Ref(value), work: None };
        r.step(id, depth, None).and_then(|()| r.finish(ctx))
    };
    match out {
        Ok(view) => Ok(view),
        Err(Stop::Fault) => Err(ctx.fail()),
        Err(Stop::Subtree) => {
            let mut run = Run::new(ctx.nodes());
            let restored = run.node(id, value.clone(), depth);
            if run.faults.is_empty() {
                Ok(View::Owned(restored))
            } else {
                crate::walk::drop_any_depth(restored);
                Err(ctx.fail())
            }
        }
    }
}

fn has_work(node: &Node) -> bool {
    !node.props.is_empty()
        || node.rest.is_some()
        || node.items.is_some()
        || !node.prefix.is_empty()
        || node.integer
        || !node.checks.is_empty()
}

impl<'a> Resolve<'a> {
    /// One node on the value at hand, in restore's order: decode, reference, union branch; the
    /// node's own work is recorded, for [`finish`](Self::finish).
    fn step(&mut self, id: NodeId, depth: usize, up: Option<&Chain<'_>>) -> Result<(), Stop> {
        if depth > MAX_DEPTH {
            return Err(Stop::Fault);
        }
        let nodes = self.nodes;
        let node = &nodes[id];
        let here = Chain { id, up };
        if node.decode != Decode::None {
            if self.work.is_some() {
                return Err(Stop::Subtree);
            }
            self.decode(&node.decode)?;
        }
        if let Some(t) = node.target {
            self.step(t, depth + 1, Some(&here))?;
        }
        if !node.union.is_empty() {
            if self.work.is_some() {
                return Err(Stop::Subtree);
            }
            let v = match &self.cur {
                Cur::Ref(v) => *v,
                Cur::Own(v) => v,
                Cur::Entries(_) | Cur::Merged(_) | Cur::Tuple(_) => return Err(Stop::Subtree),
            };
            // Several branches, and checks that differ or an integral float: restore tries
            // them in turn.
            let first = match super::branch::pick(nodes, id, v, |n| here.contains(n)) {
                super::branch::Pick::Taken(b) => b,
                super::branch::Pick::Trial(_) => return Err(Stop::Subtree),
            };
            if let Some(branch) = first {
                self.step(branch, depth + 1, Some(&here))?;
            }
        }
        if has_work(node) {
            if self.work.is_some() {
                return Err(Stop::Subtree);
            }
            self.work = Some((node, depth));
        }
        Ok(())
    }

    fn decode(&mut self, decode: &'a Decode) -> Result<(), Stop> {
        let next = match &self.cur {
            Cur::Ref(v) => decode.read(v)?,
            Cur::Own(own) => decode.read_own(own)?,
            Cur::Entries(_) | Cur::Merged(_) | Cur::Tuple(_) => return Err(Stop::Subtree),
        };
        if let Some(next) = next {
            self.cur = next;
        }
        Ok(())
    }

    /// What serde is shown, after the work node's integer fix and checks.
    fn finish(self, ctx: &'a Ctx<'a>) -> Result<View<'a>, Stop> {
        let Some((node, depth)) = self.work else {
            return Ok(match self.cur {
                Cur::Ref(v) => View::Plain(v),
                Cur::Own(v) => View::Owned(v),
                Cur::Entries(list) => View::Map(MapView::list(ctx, list, &[], None, 0)),
                Cur::Merged(list) => View::Map(MapView::list(ctx, list, &[], None, 0)),
                Cur::Tuple(items) => View::Seq(SeqView {
                    ctx,
                    items: Items::List(items.into_iter()),
                    prefix: &[],
                    rest: None,
                    depth: 0,
                }),
            });
        };
        let v = match self.cur {
            Cur::Ref(v) => v,
            Cur::Own(v) => return finish_scalar(node, v).map(View::Owned),
            Cur::Entries(list) => {
                if !node.props.is_empty()
                    || !node.checks.is_empty()
                    || node.items.is_some()
                    || !node.prefix.is_empty()
                {
                    return Err(Stop::Subtree);
                }
                return Ok(View::Map(MapView::list(ctx, list, &[], node.rest, depth)));
            }
            Cur::Merged(mut list) => {
                if !node.checks.is_empty() || node.items.is_some() || !node.prefix.is_empty() {
                    return Err(Stop::Subtree);
                }
                if crate::vocab::map_order::map_preserves_order() {
                    for p in node.props.iter().filter(|p| p.null_is_absent) {
                        if let Some(i) = list.iter().position(|(k, v)| *k == p.name && v.is_null()) {
                            list.swap_remove(i);
                        }
                    }
                }
                let mut view = MapView::list(ctx, list, &node.props, node.rest, depth);
                view.declared = node.decode.declared();
                return Ok(View::Map(view));
            }
            Cur::Tuple(items) => {
                if !node.props.is_empty() || node.rest.is_some() || !node.checks.is_empty() {
                    return Err(Stop::Subtree);
                }
                let items = Items::List(items.into_iter());
                return Ok(View::Seq(SeqView { ctx, items, prefix: &node.prefix, rest: node.items, depth }));
            }
        };
        match v {
            Value::Object(m) if !node.props.is_empty() || node.rest.is_some() => {
                // Keys restore drops (a null standing for absent), in props order.
                let drops = node.props.iter().filter(|p| stands_for_absent(p.null_is_absent, m.get(&p.name)));
                // Looked up only where it matters: checks on the keys, or a map that keeps order.
                let preserves = crate::vocab::map_order::map_preserves_order();
                let dropping = (preserves || !node.checks.is_empty()) && drops.clone().next().is_some();
                if dropping && !node.checks.is_empty() {
                    return Err(Stop::Subtree);
                }
                for c in &node.checks {
                    if !c.passes(v) {
                        return Err(Stop::Fault);
                    }
                }
                if dropping && preserves {
                    // Restore's `Map::remove` is `swap_remove` there: the last key takes the
                    // dropped one's place. Shown in that order.
                    let mut list: Vec<(&str, &Value)> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
                    for p in drops {
                        if let Some(i) = list.iter().position(|(k, _)| *k == p.name) {
                            list.swap_remove(i);
                        }
                    }
                    let mut view = MapView::list(ctx, list, &node.props, node.rest, depth);
                    view.declared = node.decode.declared();
                    return Ok(View::Map(view));
                }
                Ok(View::Map(MapView {
                    ctx,
                    source: Source::Map(m.iter()),
                    props: &node.props,
                    rest: node.rest,
                    declared: node.decode.declared(),
                    depth,
                    sorted: !preserves,
                    cursor: 0,
                }))
            }
            Value::Array(items) if node.items.is_some() || !node.prefix.is_empty() => {
                for c in &node.checks {
                    if matches!(c, check::Check::UniqueItems) {
                        return Err(Stop::Subtree);
                    }
                    if !c.passes(v) {
                        return Err(Stop::Fault);
                    }
                }
                let items = Items::Slice(items.iter());
                Ok(View::Seq(SeqView { ctx, items, prefix: &node.prefix, rest: node.items, depth }))
            }
            Value::Number(n) if node.integer && n.is_f64() => finish_scalar(node, v.clone()).map(View::Owned),
            _ => {
                for c in &node.checks {
                    if !c.passes(v) {
                        return Err(Stop::Fault);
                    }
                }
                Ok(View::Plain(v))
            }
        }
    }
}

/// A scalar's integer fix and checks, as restore runs them.
fn finish_scalar(node: &Node, mut value: Value) -> Result<Value, Stop> {
    if node.integer {
        super::integral(&mut value);
        if node.integer_format && value.is_f64() && value.as_f64().is_some_and(|f| f.fract() == 0.0) {
            return Err(Stop::Fault);
        }
    }
    if node.checks.iter().all(|c| c.passes(&value)) { Ok(value) } else { Err(Stop::Fault) }
}

/// What serde is shown for a place.
enum View<'a> {
    /// Nothing left to do below: serde_json's `&Value` deserializer.
    Plain(&'a Value),
    /// A value restore made (an integer, a recovered member, a restored subtree): serde_json's
    /// owned `Value` deserializer, as `from_value` reads it.
    Owned(Value),
    /// An object whose values need work.
    Map(MapView<'a>),
    /// An array whose items need work.
    Seq(SeqView<'a>),
}

enum Source<'a> {
    Map(serde_json::map::Iter<'a>),
    List(std::vec::IntoIter<(&'a str, &'a Value)>),
}

struct MapView<'a> {
    ctx: &'a Ctx<'a>,
    source: Source<'a>,
    /// The properties that need work (sorted by name), and the node of every other key.
    props: &'a [Prop],
    rest: Option<NodeId>,
    /// Keys that are the object's own beside a map of further keys (sorted): never `rest`'s.
    declared: &'a [String],
    depth: usize,
    /// Whether keys come sorted (a `Map` that sorts), and the first property not below the last key.
    sorted: bool,
    cursor: usize,
}

impl<'a> MapView<'a> {
    fn list(
        ctx: &'a Ctx<'a>,
        list: Vec<(&'a str, &'a Value)>,
        props: &'a [Prop],
        rest: Option<NodeId>,
        depth: usize,
    ) -> Self {
        let sorted = !crate::vocab::map_order::map_preserves_order();
        MapView {
            ctx,
            source: Source::List(list.into_iter()),
            props,
            rest,
            declared: &[],
            depth,
            sorted,
            cursor: 0,
        }
    }

    /// The next key restore keeps, its value and the value's node.
    fn next(&mut self) -> Option<(&'a str, &'a Value, Option<NodeId>)> {
        loop {
            let (key, value) = match &mut self.source {
                Source::Map(it) => it.next().map(|(k, v)| (k.as_str(), v))?,
                Source::List(it) => it.next()?,
            };
            let prop = if self.sorted {
                // Keys come in sorted order, as the properties are: one step forward at most.
                while self.props.get(self.cursor).is_some_and(|p| p.name.as_str() < key) {
                    self.cursor += 1;
                }
                self.props.get(self.cursor).filter(|p| p.name == key)
            } else {
                self.props.binary_search_by(|p| p.name.as_str().cmp(key)).ok().map(|i| &self.props[i])
            };
            match prop {
                Some(p) if p.null_is_absent && value.is_null() => {}
                Some(p) => return Some((key, value, p.node)),
                None if !self.declared.is_empty()
                    && self.declared.binary_search_by(|d| d.as_str().cmp(key)).is_ok() =>
                {
                    return Some((key, value, None));
                }
                None => return Some((key, value, self.rest)),
            }
        }
    }

    fn visit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        let ctx = self.ctx;
        let mut access = MapAccessor { view: self, pending: None };
        let out = visitor.visit_map(&mut access)?;
        // serde_json refuses a map its visitor did not finish; a value whose key was read and
        // that was never deserialised is one restore would still have walked.
        if access.view.next().is_some() || access.pending.is_some_and(|(_, node)| node.is_some()) {
            return Err(ctx.fail());
        }
        Ok(out)
    }

    /// serde_json's externally tagged enum: an object with exactly one key.
    fn visit_enum<V: Visitor<'a>>(mut self, visitor: V) -> Result<V::Value, Error> {
        let ctx = self.ctx;
        let (Some((key, value, node)), None) = (self.next(), self.next()) else { return Err(ctx.fail()) };
        visitor.visit_enum(Variant { ctx, key, value: Some((value, node)), depth: self.depth })
    }
}

struct MapAccessor<'a> {
    view: MapView<'a>,
    pending: Option<(&'a Value, Option<NodeId>)>,
}

/// An array's items: the array's own, or a tuple's rebuilt from its object.
enum Items<'a> {
    Slice(std::slice::Iter<'a, Value>),
    List(std::vec::IntoIter<&'a Value>),
}

struct SeqView<'a> {
    ctx: &'a Ctx<'a>,
    items: Items<'a>,
    prefix: &'a [Option<NodeId>],
    rest: Option<NodeId>,
    depth: usize,
}

impl<'a> SeqView<'a> {
    fn visit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        let ctx = self.ctx;
        let mut access = SeqAccessor {
            items: self.items.enumerate(),
            prefix: self.prefix,
            rest: self.rest,
            ctx,
            depth: self.depth,
        };
        let out = visitor.visit_seq(&mut access)?;
        if access.items.len() != 0 {
            return Err(ctx.fail());
        }
        Ok(out)
    }
}

struct SeqAccessor<'a> {
    ctx: &'a Ctx<'a>,
    items: std::iter::Enumerate<Items<'a>>,
    prefix: &'a [Option<NodeId>],
    rest: Option<NodeId>,
    depth: usize,
}

/// The variant of an externally tagged enum (serde_json's `EnumRefDeserializer`).
struct Variant<'a> {
    ctx: &'a Ctx<'a>,
    key: &'a str,
    value: Option<(&'a Value, Option<NodeId>)>,
    depth: usize,
}

impl<'a> Variant<'a> {
    /// The variant's value as serde sees it.
    fn view(&self) -> Result<Option<View<'a>>, Error> {
        match self.value {
            None => Ok(None),
            Some((value, None)) => Ok(Some(View::Plain(value))),
            Some((value, Some(node))) => resolve(self.ctx, value, node, self.depth + 1).map(Some),
        }
    }
}

/// A map key, read as serde_json reads one (its `MapKeyDeserializer`): a string, or a number
/// or boolean written as one.
struct KeyDe<'a> {
    ctx: &'a Ctx<'a>,
    key: &'a str,
}

mod access;

#[cfg(test)]
mod tests;
