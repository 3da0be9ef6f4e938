//! [`RejectAny`]: refuses an untyped schema wherever the model must send a value.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use crate::pointer::Pointer;
use crate::vocab::address::{AddressSet, address};
use crate::walk::{Depth, Step};
use serde_json::{Map, Value};
use std::cell::Cell;

/// Refuses a schema that accepts any value (`true`, `{}`, or one with only annotations, as
/// `serde_json::Value` generates) wherever the model must send a value: the root, a required
/// property, a tuple element (`prefixItems` within `minItems`), array items or map values that a
/// minimum count (`minItems`, `minProperties`) asks for, and the member of a union that is all
/// such a position says (`anyOf: [X, {}]` accepts anything), at any depth, including through a
/// `$ref` to an untyped definition.
///
/// There the model must invent a value with no shape to go by, and the code receives whatever
/// comes. The fix is a declared type: a struct, an enum, or a map such as `HashMap<String, T>`.
///
/// Where the model may send nothing, an untyped schema is what the type declares and passes:
/// an optional property (`Option<Value>`), the values of a map (`HashMap<String, Value>`, a
/// flattened `BTreeMap<String, Value>`), the items of an array (`Vec<Value>`,
/// `Vec<Option<Value>>`): serde reads any value there, and the collection may be empty. So does a
/// union member beside other constraints: `#[serde(flatten)] op: Option<Op>` is written
/// `{"type": "object", .., "anyOf": [{"oneOf": [..]}, {}]}`, an object with or without an `Op`
/// in it, which is what serde reads.
///
/// The walk enters each root definition through the first `$ref` that uses it (and once more from
/// a place that must hold a value, if the first need not), so an error inside a definition
/// carries the definition's pointer and the field path of the way there
/// (`Itinerary.stops[].extra`); the depth budget counts levels along that way. Definitions no
/// reference from the root reaches are judged where they stand, as places that must hold a
/// value, but for those a reference from another of them names: the walk enters those through
/// that reference, whatever the order of the definitions.
///
/// An untyped *optional* property is written in one canonical spelling: `{}` with the property's
/// annotations (`description`, `default`, ...) kept and nothing else.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "object", "properties": {"extra": {}}, "required": ["extra"]});
/// let err = toolschema::passes::RejectAny.run(&mut s, &mut PassContext::new(Some("Call"))).unwrap_err();
/// assert_eq!(err.pointer(), Some("/properties/extra"));
/// assert_eq!(err.field(), Some("Call.extra"));
/// let mut s = json!({"type": "object", "properties": {"extra": {"type": "array", "items": true}}, "required": ["extra"]});
/// assert!(toolschema::passes::RejectAny.run(&mut s, &mut PassContext::new(Some("Call"))).is_ok());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RejectAny;

mod document;
mod untyped;
use document::*;
use untyped::*;

/// Why the model must send a value at a child position, or `None` if it may send none there.
///
/// `keys` are the parent's; `union_must`: the parent itself must hold a value and accepts anything
/// but for its union (so a member that accepts anything makes the parent accept anything).
fn position(step: Step<'_>, keys: &Keys<'_>, union_must: bool) -> Option<&'static str> {
    let min_items = keys.min_items.unwrap_or(0);
    match step {
        Step::Entry("properties", name) => keys
            .required
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|r| r.as_str() == Some(name)))
            .then_some("a required property"),
        // A tuple element the array must have.
        Step::Index("items" | "prefixItems", i) => (min_items > i as u64).then_some("a tuple element"),
        // Items past the tuple's, when the array must have some.
        Step::Keyword("items" | "additionalItems") => {
            (min_items > keys.tuple_len as u64).then_some("array items")
        }
        Step::Keyword("additionalProperties") | Step::Entry("patternProperties", _) => {
            (keys.min_properties.unwrap_or(0) > keys.declared as u64).then_some("map values")
        }
        Step::Index("anyOf" | "oneOf", _) => union_must.then_some("a union member"),
        _ => None,
    }
}

impl Pass for RejectAny {
    fn name(&self) -> &'static str {
        "reject-any"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        let doc = Document::new(schema);
        if is_untyped(schema, &doc) {
            return Err(untyped(cx, String::new(), "", "the root"));
        }
        let optional_untyped = if std::mem::take(&mut cx.prune_first) {
            // The pipeline left PruneDefs to this pass. The fast walk from the root enters every
            // definition a reference reaches when it meets neither an error nor an optional
            // untyped property (it then descends everywhere) and every reference names a
            // definition exactly: what it did not enter is what PruneDefs would remove, and
            // nothing is left to judge where it stands. Anything else: PruneDefs, then as usual.
            let unentered = match judge_root(&doc, cx, true) {
                Ok(walk) if walk.plain_refs => Some(unentered(schema, &walk.entered)),
                _ => None,
            };
            if let Some(names) = unentered {
                remove_definitions(schema, names);
                return Ok(());
            }
            super::PruneDefs.run(schema, cx)?;
            optional_untyped(&Document::new(schema), cx)?
        } else {
            optional_untyped(&doc, cx)?
        };
        if optional_untyped.is_empty() {
            return Ok(());
        }
        for pointer in optional_untyped {
            if let Some(node) = schema.pointer_mut(&pointer) {
                canonicalise(node);
            }
        }
        // Writing an optional untyped union (`anyOf: [{}, {"$ref": ..}]`) as `{}` can drop the
        // last reference to a definition; it must go now, not in a second run of the pipeline.
        super::PruneDefs.run(schema, cx)
    }
}

/// Judges on a shared view and returns the pointers of the optional untyped properties to
/// rewrite. First without pointers: nearly every schema passes with nothing to rewrite, and then
/// none is needed. Anything else (an error, a property to rewrite) walks again with pointers.
fn optional_untyped(doc: &Document<'_>, cx: &PassContext<'_>) -> Result<Vec<String>, SchemaGenerationError> {
    let walk = match judge(doc, cx, true) {
        Ok(walk) => walk,
        Err(_) => judge(doc, cx, false)?,
    };
    Ok(walk.optional_untyped)
}

/// The whole judgement: the walk from the root, then the definitions it did not enter. `fast`
/// builds no pointer and gives up (with an error that means only that) at the first error or
/// optional untyped property; the walk itself is the same.
fn judge<'a>(
    doc: &'a Document<'a>,
    cx: &'a PassContext<'_>,
    fast: bool,
) -> Result<Walk<'a, 'a>, SchemaGenerationError> {
    let mut walk = judge_root(doc, cx, fast)?;
    // Definitions no reference from the root reached (kept because some `$ref` points inside a
    // definition or was not local, or handed in that way). Those no reference from another of them
    // names are judged where they stand, and enter the others through their references, as the
    // root does; what is still not entered after them (what only a cycle among them names) is
    // judged where it stands, in name order. So the verdict does not follow the order of the
    // definition maps, which PruneDefs changes under `preserve_order`: judged in map order, a
    // definition met before the one whose reference reaches it from an optional place was judged
    // as a place that must hold a value, and a second run of the pipeline, on sorted maps,
    // refused what the first had accepted.
    let unentered = unentered_definitions(doc.root, &walk.entered);
    if unentered.is_empty() {
        return Ok(walk);
    }
    let named = named_by_others(doc, &unentered, cx.max_depth);
    let (first, mut rest): (Vec<_>, Vec<_>) =
        unentered.into_iter().partition(|(_, _, def)| !named.contains(&address(def)));
    rest.sort_by(|a, b| (map_index(a.0), a.1).cmp(&(map_index(b.0), b.1)));
    for (map_name, name, def) in first.into_iter().chain(rest) {
        if walk.entered.contains(&address(def)) {
            continue;
        }
        let mut ptr = Pointer::root();
        if !fast {
            ptr.push(map_name);
            ptr.push(name);
        }
        let Some(depth) = Depth::new(cx.max_depth).descend() else {
            return Err(cx.too_deep(ptr.as_str().to_owned()));
        };
        // Where it stands, its position is unknown: judged as one that must hold a value.
        walk.check(def, &mut ptr.clone(), &mut ptr, depth, true)?;
    }
    Ok(walk)
}

/// A root definition: its map (one of [`DEF_MAPS`]), its name, its schema.
type RootDefinition<'a> = (&'static str, &'a str, &'a Value);

/// The root definitions not in `entered`, in map order.
fn unentered_definitions<'a>(schema: &'a Value, entered: &AddressSet) -> Vec<RootDefinition<'a>> {
    let mut out = Vec::new();
    for map_name in DEF_MAPS {
        let Some(Value::Object(defs)) = schema.get(map_name) else { continue };
        out.extend(
            defs.iter()
                .filter(|(_, def)| !entered.contains(&address(def)))
                .map(|(name, def)| (map_name, name.as_str(), def)),
        );
    }
    out
}

/// The addresses of the root definitions that a `$ref` inside another of `definitions` names
/// exactly (one that names the definition it is in does not count). A definition deeper than
/// `max_depth` is read down to the budget: the walk that judges it reports the depth.
fn named_by_others(doc: &Document<'_>, definitions: &[RootDefinition<'_>], max_depth: usize) -> AddressSet {
    let mut named = AddressSet::default();
    for &(_, _, def) in definitions {
        let mut note = |_: &crate::walk::Location<'_>, node: &Map<String, Value>| {
            if let Some(Value::String(reference)) = node.get("$ref")
                && let Some((map, name)) = definition(reference)
                && let Some((_, target)) = doc.named(reference, map, name.as_ref())
                && !std::ptr::eq(target, def)
            {
                named.insert(address(target));
            }
        };
        // Past the budget: the judgement of `def` reports it.
        let _ = crate::walk::visit_objects(def, max_depth, &mut note);
    }
    named
}

/// The names of the root definitions not in `entered`, per map in `DEF_MAPS`.
fn unentered(schema: &Value, entered: &AddressSet) -> [Vec<String>; 2] {
    DEF_MAPS.map(|map| match schema.get(map) {
        Some(Value::Object(defs)) => {
            defs.iter().filter(|(_, def)| !entered.contains(&address(def))).map(|(k, _)| k.clone()).collect()
        }
        _ => Vec::new(),
    })
}

/// Removes the named root definitions (freed without recursion), and a map left empty.
fn remove_definitions(schema: &mut Value, names: [Vec<String>; 2]) {
    let Value::Object(root) = schema else { return };
    for (map, names) in DEF_MAPS.into_iter().zip(names) {
        if names.is_empty() {
            continue;
        }
        let Some(Value::Object(defs)) = root.get_mut(map) else { continue };
        for name in names {
            if let Some(def) = defs.remove(&name) {
                crate::walk::drop_any_depth(def);
            }
        }
        if defs.is_empty() {
            root.remove(map);
        }
    }
}

/// The walk from the root alone (see [`judge`]).
fn judge_root<'a>(
    doc: &'a Document<'a>,
    cx: &'a PassContext<'_>,
    fast: bool,
) -> Result<Walk<'a, 'a>, SchemaGenerationError> {
    let schema = doc.root;
    let mut walk = Walk {
        doc,
        cx,
        optional_untyped: Vec::new(),
        entered: doc.entered_set(),
        entered_must: AddressSet::default(),
        fast,
        plain_refs: true,
    };
    walk.check(schema, &mut Pointer::root(), &mut Pointer::root(), Depth::new(cx.max_depth), true)?;
    Ok(walk)
}

/// The root's definition maps, which the walk enters through references rather than directly.
const DEF_MAPS: [&str; 2] = ["$defs", "definitions"];

/// The root definition a reference names (exactly `#/<map>/<name>`), without allocating for the
/// plain spelling generators write.
fn definition(reference: &str) -> Option<(&'static str, std::borrow::Cow<'_, str>)> {
    if let Some((map, name)) = crate::refs::plain_definition(reference) {
        return Some((map, std::borrow::Cow::Borrowed(name)));
    }
    let tokens = crate::refs::parse_local(reference).ok()?;
    let [map, name] = tokens.as_slice() else { return None };
    let map = DEF_MAPS.iter().copied().find(|m| m == map)?;
    Some((map, std::borrow::Cow::Owned(name.clone())))
}

fn untyped(
    cx: &PassContext<'_>,
    pointer: String,
    path: &str,
    position: &'static str,
) -> SchemaGenerationError {
    SchemaGenerationError::UntypedAny {
        field: cx.field(path),
        pointer,
        position,
        origin: if cx.from_rust { crate::hint::Origin::Rust } else { cx.origin },
    }
}

/// The keys [`Walk`] asks about, found in one pass over an object's entries (a `get` per key
/// costs a search each).
#[derive(Clone, Copy)]
struct Keys<'a> {
    reference: Option<&'a Value>,
    required: Option<&'a Value>,
    /// Has a `type`: then the schema constrains, whatever else it holds.
    typed: bool,
    /// Has `anyOf` or `oneOf`.
    union: bool,
    min_items: Option<u64>,
    min_properties: Option<u64>,
    /// The length of `prefixItems` (or of a draft-7 `items` array): the tuple's elements.
    tuple_len: usize,
    /// The number of `properties`.
    declared: usize,
}

impl<'a> Keys<'a> {
    fn of(map: &'a Map<String, Value>) -> Self {
        let mut keys = Keys {
            reference: None,
            required: None,
            typed: false,
            union: false,
            min_items: None,
            min_properties: None,
            tuple_len: 0,
            declared: 0,
        };
        for (key, value) in map {
            match key.as_str() {
                "$ref" => keys.reference = Some(value),
                "required" => keys.required = Some(value),
                "type" => keys.typed = true,
                "anyOf" | "oneOf" => keys.union = true,
                "minItems" => keys.min_items = value.as_u64(),
                "minProperties" => keys.min_properties = value.as_u64(),
                "prefixItems" | "items" => {
                    if let Value::Array(items) = value {
                        keys.tuple_len = items.len();
                    }
                }
                "properties" => keys.declared = value.as_object().map_or(0, Map::len),
                _ => {}
            }
        }
        keys
    }
}

/// One top-down walk that enters each root definition once, through the first `$ref` that uses
/// it, so an error inside a definition names the field that leads there
/// (`Itinerary.stops[].extra`, not `Waypoint.extra`).
struct Walk<'a, 'c> {
    /// The document, with its definitions by name.
    doc: &'a Document<'a>,
    cx: &'a PassContext<'c>,
    /// Real pointers of optional properties that accept anything.
    optional_untyped: Vec<String>,
    /// Root definitions already entered, by address (a set, so a schema with many definitions is
    /// not scanned once per reference).
    entered: AddressSet,
    /// Those of them entered from a place where a value must be sent.
    entered_must: AddressSet,
    /// No pointers; give up at the first error or optional untyped property (see [`judge`]).
    fast: bool,
    /// Every `$ref` met names a root definition exactly (`#/<map>/<name>`): then the definitions
    /// entered are exactly those references reach, as [`PruneDefs`](super::PruneDefs) finds them.
    plain_refs: bool,
}

impl<'a> Walk<'a, '_> {
    /// `ptr` is where `node` is in the document; `path` is the way there from the root through
    /// references, for the Rust field path; `must`: the model must send a value where `node` is.
    fn check(
        &mut self,
        node: &'a Value,
        ptr: &mut Pointer,
        path: &mut Pointer,
        depth: Depth,
        must: bool,
    ) -> Result<(), SchemaGenerationError> {
        let Value::Object(map) = node else { return Ok(()) };
        self.check_object(node, Keys::of(map), ptr, path, depth, must)
    }

    /// [`Walk::check`] of an object whose [`Keys`] are known.
    fn check_object(
        &mut self,
        node: &'a Value,
        keys: Keys<'a>,
        ptr: &mut Pointer,
        path: &mut Pointer,
        depth: Depth,
        must: bool,
    ) -> Result<(), SchemaGenerationError> {
        let def = match keys.reference {
            Some(Value::String(reference)) => {
                let def = definition(reference);
                self.plain_refs &= def.is_some();
                def
            }
            _ => None,
        };
        let names_definition = def.is_some();
        // A definition is entered once, or twice when a later use must hold a value and the
        // first need not: its union members are judged by that.
        if let Some((def_map, name)) = def
            && let Some(Value::String(reference)) = keys.reference
            && let Some((key, target)) = self.doc.named(reference, def_map, name.as_ref())
            && (self.entered.insert(address(target))
                || (must && !self.entered_must.contains(&address(target))))
        {
            if must {
                self.entered_must.insert(address(target));
            }
            let name = key.as_str();
            let mut real = Pointer::root();
            if !self.fast {
                real.push(def_map);
                real.push(name);
            }
            let next = depth.descend().ok_or_else(|| self.too_deep(&real, path))?;
            self.check(target, &mut real, path, next, must)?;
        }
        // A reference into any other place (`#/$defs/Holder/properties/x`) where a value must be
        // sent: its target is judged as a place that must hold one, as a definition is. Judged
        // only where it stands, an optional property that accepts anything would be rewritten as
        // `{}`, and a second run would refuse what the first accepted.
        if must
            && !names_definition
            && let Some(Value::String(reference)) = keys.reference
            && let Some(target) = self.doc.resolve(reference)
            && self.entered_must.insert(address(target))
        {
            let mut real = Pointer::root();
            if !self.fast
                && let Some(tokens) = reference.strip_prefix('#').and_then(crate::pointer::tokens)
            {
                for token in &tokens {
                    real.push(token);
                }
            }
            let next = depth.descend().ok_or_else(|| self.too_deep(&real, path))?;
            self.check(target, &mut real, path, next, true)?;
        }
        // A member of a union that is all this node says (`anyOf: [X, {}]`) makes it accept anything.
        let union_must = must && keys.union && !keys.typed && accepts_anything(node, self.doc);
        let at_root = std::ptr::eq(node, self.doc.root);
        let mut result = Ok(());
        crate::walk::for_each_child(node, |step, child| {
            if result.is_err() || (at_root && DEF_MAPS.contains(&step.keyword())) {
                return;
            }
            if self.fast {
                result = self.check_child(step, child, &keys, union_must, ptr, path, depth);
                return;
            }
            let mark = step.push_onto(ptr);
            let path_mark = step.push_onto(path);
            result = self.check_child(step, child, &keys, union_must, ptr, path, depth);
            ptr.truncate(mark);
            path.truncate(path_mark);
        });
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn check_child(
        &mut self,
        step: Step<'_>,
        child: &'a Value,
        parent: &Keys<'_>,
        union_must: bool,
        ptr: &mut Pointer,
        path: &mut Pointer,
        depth: Depth,
    ) -> Result<(), SchemaGenerationError> {
        // One look at the child's keys serves the questions below and the walk into it.
        let keys = child.as_object().map(Keys::of);
        let typed = keys.as_ref().is_some_and(|k| k.typed);
        let why = position(step, parent, union_must);
        match why {
            Some(why) if !typed && is_untyped(child, self.doc) => {
                if self.fast {
                    return Err(gave_up());
                }
                return Err(untyped(self.cx, ptr.as_str().to_owned(), path.as_str(), why));
            }
            None if !typed
                && matches!(step, Step::Entry("properties", _))
                && accepts_every_value(child, self.doc) =>
            {
                if self.fast {
                    return Err(gave_up());
                }
                self.optional_untyped.push(ptr.as_str().to_owned());
                return Ok(());
            }
            _ => {}
        }
        let next = depth.descend().ok_or_else(|| self.too_deep(ptr, path))?;
        match keys {
            Some(keys) => self.check_object(child, keys, ptr, path, next, why.is_some()),
            None => Ok(()),
        }
    }

    /// The depth error: the budget counts levels along the way through references, so the field
    /// path is that way's too.
    fn too_deep(&self, ptr: &Pointer, path: &Pointer) -> SchemaGenerationError {
        if self.fast {
            return gave_up();
        }
        SchemaGenerationError::TooDeep {
            pointer: ptr.as_str().to_owned(),
            field: self.cx.field(path.as_str()),
            max_depth: self.cx.max_depth,
        }
    }
}

/// What a fast walk returns when it gives up; never shown (the walk with pointers runs next).
fn gave_up() -> SchemaGenerationError {
    SchemaGenerationError::TooDeep { pointer: String::new(), field: None, max_depth: 0 }
}

/// `{}` with the annotations kept: the one spelling of an untyped optional property.
fn canonicalise(schema: &mut Value) {
    let kept: Map<String, Value> = match schema {
        Value::Object(map) => {
            map.iter().filter(|(k, _)| is_annotation(k)).map(|(k, v)| (k.clone(), v.clone())).collect()
        }
        _ => Map::new(),
    };
    *schema = Value::Object(kept);
}

#[cfg(test)]
mod tests;
