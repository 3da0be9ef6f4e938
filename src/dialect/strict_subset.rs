//! `STRICT_SUBSET`: every object that describes a struct is closed; nothing else changes.
//!
//! serde ignores keys a struct does not declare (unless `#[serde(deny_unknown_fields)]`), so a
//! model that invents a key gets no error and its value is silently lost. Closing the object makes
//! the schema refuse what the code would drop. It never widens `required`, and a map
//! (`additionalProperties: <schema>`, `patternProperties`) stays a map.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, STRICT_SUBSET};
//! let schema = json!({
//!     "properties": {"to": {"type": "string"}, "tags": {"type": "object", "additionalProperties": {"type": "string"}}},
//!     "required": ["to"], "type": "object"
//! });
//! let out = apply(&STRICT_SUBSET, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(out["additionalProperties"], false);
//! assert_eq!(out["properties"]["tags"]["additionalProperties"], json!({"type": "string"}));
//! ```
//!
//! # How it works
//! An object schema describes a *whole* value only where nothing beside it adds keys. Every schema
//! position is classified:
//! - **whole**: the root, and every position that holds a value of its own (`properties/*`,
//!   `items`, `prefixItems/*`, map values, ...); also a union branch or a single `allOf` member or a
//!   `$ref` target when its parent adds no keys of its own;
//! - **part**: an `allOf`/`anyOf`/`oneOf` member, `$ref` target, `then`/`else`/`dependentSchemas`
//!   entry of a schema that has its own `properties` or other applicators beside it (serde's
//!   `#[serde(flatten)]` of an enum, an internally tagged newtype variant's `$ref` with a tag
//!   property). Closing a part alone would refuse the keys the other parts declare;
//! - **frozen**: anything under `not` or `if`, under a `oneOf` whose branches are not provably
//!   disjoint, and under a `contains` bounded by `maxContains`: there closing would make the
//!   schema accept *more* (a value two overlapping `oneOf` branches matched, refused, would
//!   match only the one left open and pass), so such a schema keeps its meaning untouched.
//!
//! A whole struct schema gets `additionalProperties: false`. A whole schema made of parts gets
//! `unevaluatedProperties: false` instead (draft 2020-12): it sees every key any part evaluated,
//! so the combination is closed exactly. A definition takes the strictest class of all its
//! references; a whole reference to a definition that is a part elsewhere is closed at the
//! reference with `unevaluatedProperties: false` (one frozen elsewhere stays open everywhere:
//! closed at a reference, it would refuse the keys an untyped branch of it takes).

use super::support::unsupported;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::pointer::Pointer;
use crate::walk::{Depth, for_each_child};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Closes every object schema that describes a struct (see the module docs). Its name is
/// `strict-subset`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct StrictSubset;

/// The [`StrictSubset`] dialect.
pub static STRICT_SUBSET: StrictSubset = StrictSubset;

impl SchemaDialect for StrictSubset {
    fn name(&self) -> &str {
        "strict-subset"
    }

    fn writes_defined_keywords_only(&self) -> bool {
        true
    }

    fn adapt(&self, mut schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let actions = close_actions(self.name(), &schema, cx.max_depth)?;
        apply_actions(&mut schema, actions);
        Ok(Adapted::identity(schema))
    }
}

/// Where a schema sits, from closing's point of view (ordered: a definition takes the maximum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Whole,
    Part,
    Frozen,
}

/// A keyword to add (`additionalProperties` or `unevaluatedProperties`, value `false`) at a pointer.
pub(crate) type Action = (String, &'static str);

/// Which objects to close, and how, for `schema` (see the module docs).
pub(crate) fn close_actions(
    dialect: &str,
    schema: &Value,
    max_depth: usize,
) -> Result<Vec<Action>, Vec<CapabilityError>> {
    let mut a = Analysis {
        root: schema,
        dialect,
        max_depth,
        classes: BTreeMap::new(),
        queue: Vec::new(),
        errors: Vec::new(),
    };
    // Fixpoint: classes only rise, so each definition is walked at most three times.
    a.walk(schema, &mut Pointer::root(), Class::Whole, None);
    while let Some((key, class)) = a.queue.pop() {
        if a.classes.get(&key) != Some(&class) {
            continue;
        }
        if let Some(target) = crate::refs::lookup_pointer(schema, &key) {
            a.walk(target, &mut pointer_of(&key), class, None);
        }
    }
    if let Some(c) = a.classes.get("")
        && *c > Class::Whole
    {
        a.errors.push(unsupported(
            dialect,
            "$ref",
            "",
            "the root schema is referenced (`\"$ref\": \"#\"`) from a position that combines it with \
             other keys, so no way of closing it is exact",
            None,
        ));
    }
    if !a.errors.is_empty() {
        return Err(a.errors);
    }
    let mut actions = Vec::new();
    a.walk(schema, &mut Pointer::root(), Class::Whole, Some(&mut actions));
    let defs: Vec<(String, Class)> =
        a.classes.iter().filter(|(k, _)| !k.is_empty()).map(|(k, c)| (k.clone(), *c)).collect();
    for (key, class) in defs {
        if let Some(target) = crate::refs::lookup_pointer(schema, &key) {
            a.walk(target, &mut pointer_of(&key), class, Some(&mut actions));
        }
    }
    if a.errors.is_empty() { Ok(actions) } else { Err(a.errors) }
}

/// Inserts each action's keyword (value `false`).
pub(crate) fn apply_actions(schema: &mut Value, actions: Vec<Action>) {
    for (pointer, keyword) in actions {
        if let Some(Value::Object(map)) = schema.pointer_mut(&pointer) {
            map.entry(keyword).or_insert(Value::Bool(false));
        }
    }
}

fn pointer_of(key: &str) -> Pointer {
    let mut p = Pointer::root();
    for t in crate::pointer::tokens(key).unwrap_or_default() {
        p.push(&t);
    }
    p
}

const IN_PLACE: &[&str] = &["$ref", "allOf", "anyOf", "dependentSchemas", "else", "if", "oneOf", "then"];

fn own_keys(map: &Map<String, Value>) -> bool {
    ["properties", "patternProperties", "additionalProperties", "unevaluatedProperties"]
        .iter()
        .any(|k| map.contains_key(*k))
}

fn already_closed(map: &Map<String, Value>) -> bool {
    ["patternProperties", "additionalProperties", "unevaluatedProperties"]
        .iter()
        .any(|k| map.contains_key(*k))
}

/// The class of an in-place child under `keyword` of a node of class `class`.
fn in_place_class(map: &Map<String, Value>, class: Class, keyword: &str) -> Class {
    if class != Class::Whole {
        return class;
    }
    let alone = !own_keys(map) && IN_PLACE.iter().filter(|k| map.contains_key(**k)).count() == 1;
    let whole = match keyword {
        "anyOf" | "oneOf" | "$ref" => alone,
        "allOf" => alone && map.get("allOf").and_then(Value::as_array).is_some_and(|m| m.len() == 1),
        _ => false,
    };
    if whole { Class::Whole } else { Class::Part }
}

struct Analysis<'v, 'd> {
    root: &'v Value,
    dialect: &'d str,
    max_depth: usize,
    /// Reference target pointer (`""` for the root, `/$defs/Name`) → its class so far.
    classes: BTreeMap<String, Class>,
    queue: Vec<(String, Class)>,
    errors: Vec<CapabilityError>,
}

impl Analysis<'_, '_> {
    /// Walks `node` (class `class`); with `actions`, records what to close.
    fn walk(&mut self, node: &Value, ptr: &mut Pointer, class: Class, mut actions: Option<&mut Vec<Action>>) {
        let mut stack = vec![(node, ptr.clone(), class, Depth::new(self.max_depth))];
        while let Some((node, ptr, class, depth)) = stack.pop() {
            let Value::Object(map) = node else { continue };
            let mut combination = false;
            let one_of_overlaps = map
                .get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|branches| !pairwise_disjoint(branches, self.root));
            if let Some(reference) = map.get("$ref") {
                let site = in_place_class(map, class, "$ref");
                match self.note_ref(reference, site, &ptr) {
                    Some(target_class) => combination |= target_class == Class::Part,
                    None => continue,
                }
            }
            for_each_child(node, |step, child| {
                let keyword = step.keyword();
                let child_class = match keyword {
                    "not" | "if" => Class::Frozen,
                    "oneOf" if one_of_overlaps => Class::Frozen,
                    "contains" if map.contains_key("maxContains") => Class::Frozen,
                    "$defs" | "definitions" => return,
                    _ if IN_PLACE.contains(&keyword) => in_place_class(map, class, keyword),
                    _ if class == Class::Frozen => Class::Frozen,
                    _ => Class::Whole,
                };
                // A part makes this a combination, closed as one; so does a frozen member beside
                // keys of this schema's own. Frozen members alone leave the schema as it is: they
                // keep their meaning, and no part here declares the keys they accept.
                if IN_PLACE.contains(&keyword)
                    && (child_class == Class::Part || (child_class == Class::Frozen && own_keys(map)))
                {
                    combination = true;
                }
                let mut p = ptr.clone();
                step.push_onto(&mut p);
                match depth.descend() {
                    Some(d) => stack.push((child, p, child_class, d)),
                    None => self.errors.push(super::support::too_deep(
                        self.dialect,
                        self.max_depth,
                        p.as_str().to_owned(),
                    )),
                }
            });
            let Some(actions) = actions.as_deref_mut() else { continue };
            if class != Class::Whole || already_closed(map) {
                continue;
            }
            if combination {
                if group_has_properties(node, self.root, 32) {
                    actions.push((ptr.as_str().to_owned(), "unevaluatedProperties"));
                }
            } else if map.contains_key("properties") {
                actions.push((ptr.as_str().to_owned(), "additionalProperties"));
            }
        }
    }

    /// Records a reference from a site of class `site`; returns the target's class so far, or
    /// `None` (with an error) when the reference cannot be followed.
    fn note_ref(&mut self, reference: &Value, site: Class, ptr: &Pointer) -> Option<Class> {
        let key = reference.as_str().and_then(|r| {
            let tokens = crate::refs::parse_local(r).ok()?;
            crate::refs::lookup(self.root, &tokens)?;
            Some(crate::pointer::Pointer::from_tokens(&tokens).to_string())
        });
        let Some(key) = key else {
            self.errors.push(unsupported(
                self.dialect,
                "$ref",
                ptr.as_str(),
                "the reference cannot be followed in this document, so what it points at cannot be closed",
                None,
            ));
            return None;
        };
        let is_def = key.is_empty() || {
            let t = crate::pointer::tokens(&key).unwrap_or_default();
            t.len() == 2 && (t[0] == "$defs" || t[0] == "definitions")
        };
        if !is_def {
            self.errors.push(unsupported(
                self.dialect,
                "$ref",
                ptr.as_str(),
                "only references to the root or to `$defs` entries can be closed soundly; this one points \
                 inside another schema",
                None,
            ));
            return None;
        }
        // The root is walked from the top as whole; a reference only ever raises its class.
        let now = match self.classes.get(&key).copied() {
            Some(c) if c >= site => return Some(c),
            Some(_) | None => site,
        };
        self.classes.insert(key.clone(), now);
        if !key.is_empty() {
            self.queue.push((key, now));
        }
        Some(now)
    }
}

/// The most branch pairs [`pairwise_disjoint`] compares; past it a `oneOf` counts as overlapping
/// (its branches then stay open: the sound side).
const MAX_PAIRS: usize = 1 << 16;

/// Whether closing `branches` keeps their `oneOf`'s meaning but for the keys it refuses: every
/// pair is provably [`disjoint`](super::support::disjoint) or [`separated`] once closed (within
/// [`MAX_PAIRS`] comparisons).
fn pairwise_disjoint(branches: &[Value], root: &Value) -> bool {
    branches.len().saturating_mul(branches.len().saturating_sub(1)) / 2 <= MAX_PAIRS
        && branches.iter().enumerate().all(|(i, a)| {
            branches[i + 1..].iter().all(|b| super::support::disjoint(a, b, root) || separated(a, b, root))
        })
}

/// Two plain structs, each requiring a key the other does not declare (`Result`'s `Ok`/`Err`,
/// serde's externally tagged variants without `additionalProperties: false`). A value both
/// matched (refused by the `oneOf`) holds both keys, so once both are closed it matches neither
/// and is still refused; closing cannot make a value match exactly one.
fn separated(a: &Value, b: &Value, root: &Value) -> bool {
    let plain = |s: &Value| -> Option<(BTreeSet<String>, BTreeSet<String>)> {
        let m = super::support::deref(s, root)?.as_object()?;
        let closes = |k: &str| m.get(k).is_none_or(|v| v == &Value::Bool(false));
        if IN_PLACE.iter().any(|k| m.contains_key(*k))
            || m.contains_key("patternProperties")
            || !closes("additionalProperties")
            || !closes("unevaluatedProperties")
        {
            return None;
        }
        let declared = m.get("properties")?.as_object()?.keys().cloned().collect();
        let required = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        Some((declared, required))
    };
    let (Some((pa, ra)), Some((pb, rb))) = (plain(a), plain(b)) else { return false };
    !rb.is_subset(&pa) && !ra.is_subset(&pb)
}

/// Whether `node` or any schema combined with it in place (through `allOf`/`anyOf`/`oneOf`/
/// `$ref`/...) declares `properties`.
fn group_has_properties(node: &Value, root: &Value, budget: usize) -> bool {
    let Value::Object(map) = node else { return false };
    if map.contains_key("properties") {
        return true;
    }
    if budget == 0 {
        return false;
    }
    let mut found = false;
    for_each_child(node, |step, child| {
        if !found && IN_PLACE.contains(&step.keyword()) && !matches!(step.keyword(), "if") {
            found = group_has_properties(child, root, budget - 1);
        }
    });
    if !found
        && let Some(target) =
            map.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r))
    {
        found = group_has_properties(target, root, budget - 1);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Value {
        STRICT_SUBSET.adapt(s, &AdaptContext::default()).unwrap().schema
    }

    #[test]
    fn structs_are_closed_and_maps_stay_maps() {
        let out = run(json!({
            "type": "object",
            "properties": {
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                "p": {"type": "object", "patternProperties": {"^[0-9]+$": {"type": "string"}}},
                "s": {"type": "object", "properties": {"x": {"type": "integer"}}}
            }
        }));
        assert_eq!(out["additionalProperties"], false);
        assert_eq!(out["properties"]["m"]["additionalProperties"], json!({"type": "integer"}));
        assert!(out["properties"]["p"].get("additionalProperties").is_none());
        assert_eq!(out["properties"]["s"]["additionalProperties"], false);
        assert!(out.get("required").is_none());
    }

    #[test]
    fn union_branches_of_a_keyless_parent_are_closed_each() {
        let out = run(json!({"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "A"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "B"}, "x": {}}, "required": ["kind"]}
        ]}));
        assert_eq!(out["oneOf"][0]["additionalProperties"], false);
        assert_eq!(out["oneOf"][1]["additionalProperties"], false);
        assert!(out.get("unevaluatedProperties").is_none());
    }

    #[test]
    fn flattened_parts_are_closed_together_with_unevaluated_properties() {
        // `#[serde(flatten)]` of an enum: own properties plus a `oneOf` of variant keys.
        let out = run(json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}},
            "oneOf": [{"type": "object", "properties": {"B": {}}, "required": ["B"]},
                      {"type": "object", "properties": {"C": {}}, "required": ["C"]}]
        }));
        assert_eq!(out["unevaluatedProperties"], false);
        assert!(out.get("additionalProperties").is_none());
        assert!(out["oneOf"][0].get("additionalProperties").is_none());
    }

    #[test]
    fn a_definition_used_as_a_part_stays_open_and_whole_sites_close_at_the_reference() {
        let out = run(json!({
            "$defs": {"Inner": {"type": "object", "properties": {"a": {"type": "integer"}}}},
            "properties": {
                "tagged": {"$ref": "#/$defs/Inner", "properties": {"kind": {"const": "D"}}, "type": "object"},
                "plain": {"$ref": "#/$defs/Inner", "description": "plain"}
            },
            "type": "object"
        }));
        assert!(out["$defs"]["Inner"].get("additionalProperties").is_none());
        assert_eq!(out["properties"]["tagged"]["unevaluatedProperties"], false);
        assert_eq!(out["properties"]["plain"]["unevaluatedProperties"], false);
    }

    #[test]
    fn a_whole_reference_to_a_frozen_definition_stays_open() {
        // `T` is frozen (its `oneOf` overlaps: a number is also anything), and so is `S` below
        // it. Closed at the reference, `b` refused `{"k": [null]}`, which the untyped branch
        // takes: a frozen schema keeps its meaning wherever it is referenced.
        let out = run(json!({
            "type": "object", "properties": {"b": {"$ref": "#/$defs/T"}}, "required": ["b"],
            "$defs": {
                "T": {"oneOf": [{"type": "number"}, {"anyOf": [{}, {"$ref": "#/$defs/S"}]}]},
                "S": {"type": "object", "properties": {"a": {"type": "integer"}, "d": {"$ref": "#/$defs/T"}}, "required": ["a"]}
            }
        }));
        assert!(out["properties"]["b"].get("unevaluatedProperties").is_none(), "{out}");
        assert!(out["$defs"]["S"].get("additionalProperties").is_none(), "{out}");
        assert_eq!(out["additionalProperties"], false);
    }

    #[test]
    fn a_definition_only_used_whole_is_closed_once() {
        let out = run(json!({
            "$defs": {"Inner": {"type": "object", "properties": {"a": {"type": "integer"}}}},
            "properties": {"x": {"$ref": "#/$defs/Inner"}, "y": {"items": {"$ref": "#/$defs/Inner"}}},
            "type": "object"
        }));
        assert_eq!(out["$defs"]["Inner"]["additionalProperties"], false);
        assert!(out["properties"]["x"].get("unevaluatedProperties").is_none());
    }

    #[test]
    fn branches_of_an_overlapping_one_of_stay_open() {
        // Closing `a/b` would let `{"k": 1}` match only `{}` in the inner `oneOf`, which then
        // passes, and the outer `oneOf` would refuse what its `enum` branch alone accepted.
        let schema = json!({
            "$defs": {"a/b": {"type": "object", "properties": {}}},
            "oneOf": [{"oneOf": [{"$ref": "#/$defs/a~1b"}, {}]}, {"enum": [{"k": 1}]}]
        });
        let out = run(schema.clone());
        assert_eq!(out, schema);
        // Disjoint branches (serde's internally tagged enum) are still closed each.
        let tagged = run(json!({"oneOf": [
            {"type": "object", "properties": {"t": {"const": "a"}, "x": {"type": "object", "properties": {}}},
             "required": ["t"]},
            {"type": "object", "properties": {"t": {"const": "b"}}, "required": ["t"]}
        ]}));
        assert_eq!(tagged["oneOf"][0]["additionalProperties"], false);
        assert_eq!(tagged["oneOf"][0]["properties"]["x"]["additionalProperties"], false);
        assert_eq!(tagged["oneOf"][1]["additionalProperties"], false);
        // `Result`: each branch requires a key the other does not declare.
        let result = run(json!({"oneOf": [
            {"type": "object", "properties": {"Ok": {"type": "integer"}}, "required": ["Ok"]},
            {"type": "object", "properties": {"Err": {"type": "string"}}, "required": ["Err"]}
        ]}));
        assert_eq!(result["oneOf"][0]["additionalProperties"], false);
        assert_eq!(result["oneOf"][1]["additionalProperties"], false);
        // One declares the other's key: `{"a": 1, "b": 2}` matches both open and only the first
        // closed, so they stay open.
        let nested = json!({"oneOf": [
            {"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a"]},
            {"type": "object", "properties": {"b": {}}, "required": ["b"]}
        ]});
        assert_eq!(run(nested.clone()), nested);
    }

    #[test]
    fn nothing_inside_a_contains_bounded_above_is_closed() {
        let out =
            run(json!({"type": "array", "contains": {"type": "object", "properties": {}}, "maxContains": 1}));
        assert!(out["contains"].get("additionalProperties").is_none());
        let out = run(json!({"type": "array", "contains": {"type": "object", "properties": {}}}));
        assert_eq!(out["contains"]["additionalProperties"], false);
    }

    #[test]
    fn nothing_under_not_is_closed() {
        let out = run(json!({"type": "object", "properties": {"a": {}}, "not": {"properties": {"b": {}}}}));
        assert!(out["not"].get("additionalProperties").is_none());
        // `not` adds no keys, so the object itself closes as a plain struct.
        assert_eq!(out["additionalProperties"], false);
    }
}
