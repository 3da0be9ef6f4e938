//! `GEMINI`: Gemini function `parameters` and `responseSchema`, the OpenAPI 3.0 `Schema` proto.
//!
//! The rules, with their sources (providers.md §3a: [GEM-SDK] `googleapis/js-genai:src/types.ts`
//! `Schema`, [GEM-PROTO] `google/ai/generativelanguage/v1beta/content.proto`, and the issues named):
//! - the proto knows only `type` (one value), `format`, `title`, `description`, `nullable`, `enum`
//!   (strings), `items`, `minItems`, `maxItems`, `properties`, `required`, `minProperties`,
//!   `maxProperties`, `minLength`, `maxLength`, `pattern`, `example`, `anyOf`, `minimum`, `maximum`,
//!   `propertyOrdering` (and `default`, ignored); any other key is a 400 "Unknown name ... Cannot
//!   find field" (mem0ai/mem0#1820 `additionalProperties`, zed-industries/zed#44875 `const`,
//!   diegosouzapw/OmniRoute#9617 `uniqueItems`, openswarm-ai/openswarm#24 `$schema`,
//!   `exclusiveMinimum`);
//! - no `$ref`/`$defs`, `oneOf`, `allOf` fields [GEM-SDK], so every reference is inlined and
//!   recursion cannot be expressed;
//! - a `type` array is a 400 "Proto field is not repeating" (zed-industries/zed#53919): null is
//!   written `nullable: true`;
//! - `format` on the Gemini Developer API: only `enum` and `date-time` for strings, `float`,
//!   `double`, `int32`, `int64` for numbers ([GEM-PROTO] comment; \[FIREBASE\]).
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, GEMINI};
//! let schema = json!({"type": "object", "properties": {"note": {"type": ["string", "null"]}}});
//! let out = apply(&GEMINI, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(out["properties"]["note"], json!({"type": "string", "nullable": true}));
//! ```
//!
//! # How it works (and what it refuses)
//! 1. Every `$ref` is inlined as [`INLINE_REFS`](super::INLINE_REFS) does (recursion is an error;
//!    the expansion is size-checked before it is built).
//! 2. `oneOf` becomes `anyOf` where the branches are provably disjoint (schemars' enum encodings),
//!    otherwise an error.
//! 3. Per node: `type: [T, "null"]` becomes `type: T, nullable: true`; an `anyOf` with a
//!    `{"type": "null"}` branch loses it and its other branches (or the node, when one branch is
//!    left and merges exactly) get `nullable: true`; `const: "s"` becomes `enum: ["s"]`; an integer
//!    `exclusiveMinimum`/`exclusiveMaximum` becomes the `minimum`/`maximum` one step inside; schemars'
//!    unsigned formats become bounds.
//! 4. Closed objects: Gemini has no `additionalProperties`. An object closed with
//!    `additionalProperties: false` whose properties are all required becomes
//!    `maxProperties: <count>`, which admits exactly the same values (serde's externally tagged enum
//!    variants, `deny_unknown_fields` structs without optional fields). One with optional
//!    properties is an error (drop `deny_unknown_fields`: serde then ignores unknown keys, as
//!    Gemini's open object allows).
//! 5. Annotations the proto lacks are dropped: `default` (older Developer API versions refused
//!    it, python-genai#699), `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`; other
//!    formats are dropped (annotations in draft 2020-12).
//! 6. Every remaining key outside the proto's fields is an error naming it.
//!
//! **Maps cannot be expressed** (`additionalProperties: <schema>`): the hint is a list of entries,
//! `Vec<Entry>` with `struct Entry { key: String, value: V }`. Neither can sets (`uniqueItems`:
//! use `Vec<T>`), tuples (`prefixItems`: use a struct), non-string enums or consts, or recursion.
//!
//! [`GEMINI_ORDERED`] also writes `propertyOrdering` (the order of `properties` in the schema it
//! gets: declaration order with [`PropertyOrder::Declaration`](crate::PropertyOrder), else sorted),
//! which Gemini 2.0 needs to keep fields in that order ([GEM-GUIDE], livekit/agents#7331).

use super::inline_refs::{InlineRefs, inline_all};
use super::openai_strict::{filter_format, one_of_to_any_of, strict_hint};
use super::support::{MAP_HINT, merge_ref_site, sort_errors, type_names, unsupported};
use super::{AdaptContext, SchemaDialect};
use crate::error::CapabilityError;
use crate::pointer::Pointer;
use serde_json::{Map, Value};

/// Gemini's OpenAPI `Schema` subset (see the module docs). Names: `gemini`, `gemini-ordered`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gemini {
    property_ordering: bool,
}

/// Gemini `parameters` / `responseSchema`.
pub static GEMINI: Gemini = Gemini { property_ordering: false };

/// [`GEMINI`], plus `propertyOrdering` on every object with properties.
pub static GEMINI_ORDERED: Gemini = Gemini { property_ordering: true };

/// The `Schema` proto's fields ([GEM-SDK]).
const FIELDS: &[&str] = &[
    "anyOf",
    "description",
    "enum",
    "example",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "nullable",
    "pattern",
    "properties",
    "propertyOrdering",
    "required",
    "title",
    "type",
];

const FORMATS: &[&str] = &["date-time", "double", "enum", "float", "int32", "int64"];

const DROPPED: &[&str] = &["$comment", "default", "deprecated", "examples", "readOnly", "writeOnly"];

impl SchemaDialect for Gemini {
    fn name(&self) -> &str {
        if self.property_ordering { "gemini-ordered" } else { "gemini" }
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$defs",
            "$ref",
            "additionalProperties",
            "allOf",
            "const",
            "contains",
            "definitions",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "multipleOf",
            "not",
            "oneOf",
            "patternProperties",
            "prefixItems",
            "propertyNames",
            "unevaluatedProperties",
            "uniqueItems",
        ]
    }

    fn hint(&self, keyword: &str) -> Option<String> {
        match keyword {
            "additionalProperties" => Some(MAP_HINT.into()),
            _ => strict_hint(keyword),
        }
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Value, Vec<CapabilityError>> {
        let name = self.name();
        let mut schema = inline_all(name, schema, cx, InlineRefs::DEFAULT_MAX_DEPTH.min(cx.max_depth))?;
        let mut errors = Vec::new();
        one_of_to_any_of(name, &mut schema, cx.max_depth, &mut errors);
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |ptr: &Pointer, node: &mut Value| -> Result<bool, ()> {
                if let Value::Object(map) = node {
                    // Collapsing a nullable `anyOf` brings a branch's keys into this node: convert again.
                    for _ in 0..4 {
                        if !convert(name, map, ptr.as_str(), &mut errors) {
                            break;
                        }
                    }
                    if self.property_ordering
                        && let Some(Value::Object(props)) = map.get("properties")
                        && !props.is_empty()
                    {
                        let mut names: Vec<&String> = props.keys().collect();
                        if !cx.declaration_order {
                            names.sort();
                        }
                        let order = names.into_iter().map(|k| Value::String(k.clone())).collect();
                        map.insert("propertyOrdering".into(), Value::Array(order));
                    }
                } else if *node == Value::Bool(true) {
                    errors.push(unsupported(
                        name,
                        "type",
                        ptr.as_str(),
                        "this schema accepts any value",
                        None,
                    ));
                }
                Ok(true)
            },
            &|_| (),
        );
        // What the proto does not know, named key by key.
        let _ = crate::walk::visit_all(&schema, cx.max_depth, &mut |ptr, node| {
            if let Value::Object(map) = node {
                for key in map.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
                    let reported = errors
                        .iter()
                        .any(|e| e.pointer() == ptr.as_str() && e.keyword() == Some(key.as_str()));
                    if reported {
                        continue;
                    }
                    errors.push(CapabilityError::ForbiddenKeyword {
                        dialect: name.to_owned(),
                        keyword: key.clone(),
                        pointer: ptr.as_str().to_owned(),
                        field: None,
                        hint: self.hint(key),
                    });
                }
            }
            true
        });
        sort_errors(&mut errors);
        if errors.is_empty() { Ok(schema) } else { Err(errors) }
    }
}

/// One round of rewriting a node into the proto's terms; `true` if it merged a branch in.
fn convert(
    dialect: &str,
    map: &mut Map<String, Value>,
    ptr: &str,
    errors: &mut Vec<CapabilityError>,
) -> bool {
    for k in DROPPED {
        map.remove(*k);
    }
    filter_format(map, FORMATS);
    if let Some(c) = map.remove("const") {
        match c {
            Value::String(_) => {
                map.insert("enum".into(), Value::Array(vec![c]));
            }
            other => {
                map.insert("const".into(), other);
                errors.push(unsupported(
                    dialect,
                    "const",
                    ptr,
                    "only string values can be listed (`enum` of strings)",
                    None,
                ));
            }
        }
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if values.iter().all(Value::is_string) {
            map.entry("type").or_insert_with(|| Value::String("string".into()));
        } else {
            errors.push(unsupported(
                dialect,
                "enum",
                ptr,
                "Gemini's `enum` holds strings only, and writing these values as strings would change them",
                Some("use a string-valued enum (unit variants), or a plain number field".into()),
            ));
        }
    }
    exclusive_bounds(map);
    if let Some(t) = map.get("type").cloned() {
        let names = type_names(&t);
        let nullable = names.contains("null");
        let others: Vec<&str> = names.into_iter().filter(|n| *n != "null").collect();
        match others.as_slice() {
            [one] => {
                map.insert("type".into(), Value::String((*one).to_owned()));
                if nullable {
                    map.insert("nullable".into(), Value::Bool(true));
                }
            }
            [] => errors.push(unsupported(
                dialect,
                "type",
                ptr,
                "a schema that only admits null cannot be written",
                None,
            )),
            _ => errors.push(unsupported(
                dialect,
                "type",
                ptr,
                "`type` holds one value in the proto, and this schema admits several types",
                Some("use an enum with one variant per type (an `anyOf`)".into()),
            )),
        }
    }
    close(dialect, map, ptr, errors);
    collapse_null_branch(map)
}

/// `anyOf: [X, {"type": "null"}]` → `X` with `nullable: true` (merged into the node when exact).
fn collapse_null_branch(map: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(branches)) = map.get("anyOf") else { return false };
    let is_null = |b: &Value| b.get("type") == Some(&Value::String("null".into()));
    if !branches.iter().any(is_null) {
        return false;
    }
    let mut rest: Vec<Value> = branches.iter().filter(|b| !is_null(b)).cloned().collect();
    for b in &mut rest {
        if let Value::Object(b) = b {
            b.insert("nullable".into(), Value::Bool(true));
        }
    }
    map.remove("anyOf");
    if let [only] = rest.as_slice() {
        let site = std::mem::take(map);
        match merge_ref_site(site, only.clone()) {
            Ok(Value::Object(merged)) => {
                *map = merged;
                return true;
            }
            Ok(_) => {}
            Err(both) => *map = both.0,
        }
    }
    map.insert("anyOf".into(), Value::Array(rest));
    false
}

/// An integer's exclusive bound as the inclusive one next to it.
fn exclusive_bounds(map: &mut Map<String, Value>) {
    if !map
        .get("type")
        .is_some_and(|t| type_names(t).contains("integer") && !type_names(t).contains("number"))
    {
        return;
    }
    for (exclusive, inclusive, step) in
        [("exclusiveMinimum", "minimum", 1i64), ("exclusiveMaximum", "maximum", -1)]
    {
        if let Some(v) = map.get(exclusive).and_then(Value::as_i64).and_then(|v| v.checked_add(step)) {
            let tighter = map
                .get(inclusive)
                .and_then(Value::as_f64)
                .is_some_and(|m| if step > 0 { m >= v as f64 } else { m <= v as f64 });
            if !tighter {
                map.insert(inclusive.into(), Value::from(v));
            }
            map.remove(exclusive);
        }
    }
}

/// `additionalProperties: false` as `maxProperties`, where that is exact.
fn close(dialect: &str, map: &mut Map<String, Value>, ptr: &str, errors: &mut Vec<CapabilityError>) {
    match map.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(_) => {
            errors.push(unsupported(
                dialect,
                "additionalProperties",
                ptr,
                "Gemini's proto has no `additionalProperties`, so a map cannot be described",
                Some(MAP_HINT.into()),
            ));
            return;
        }
        None => return,
    }
    let count = map.get("properties").and_then(Value::as_object).map_or(0, Map::len);
    let required = map.get("required").and_then(Value::as_array).map_or(0, |r| r.len());
    if count == required && !map.contains_key("patternProperties") {
        map.remove("additionalProperties");
        let tighter = map.get("maxProperties").and_then(Value::as_u64).is_some_and(|m| m <= count as u64);
        if !tighter {
            map.insert("maxProperties".into(), Value::from(count));
        }
    } else {
        errors.push(unsupported(
            dialect,
            "additionalProperties",
            ptr,
            "a closed object with optional properties cannot be described: Gemini has no \
             `additionalProperties`, and `maxProperties` only closes an object whose properties are all required",
            Some("drop `#[serde(deny_unknown_fields)]`: serde then ignores unknown keys, which Gemini's open object allows".into()),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Value, Vec<CapabilityError>> {
        GEMINI.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn nullable_shapes_become_nullable_true() {
        let out = run(json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer", "format": "int32"}}, "required": ["x"]}},
            "type": "object",
            "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}], "description": "maybe"}}
        }))
        .unwrap();
        assert_eq!(
            out["properties"]["p"],
            json!({"type": "object", "nullable": true, "description": "maybe", "required": ["x"],
                   "properties": {"x": {"type": "integer", "format": "int32"}}})
        );
    }

    #[test]
    fn externally_tagged_variants_close_with_max_properties() {
        let s = json!({"type": "object", "required": ["e"], "properties": {"e": {"oneOf": [
            {"type": "string", "enum": ["A"]},
            {"type": "object", "properties": {"B": {"type": "integer", "format": "uint32", "minimum": 0}},
             "required": ["B"], "additionalProperties": false}
        ]}}});
        let out = run(s).unwrap();
        let b = &out["properties"]["e"]["anyOf"][1];
        assert_eq!(b["maxProperties"], 1);
        assert_eq!(b["properties"]["B"]["maximum"], u32::MAX);
        assert!(b.get("additionalProperties").is_none());
    }

    #[test]
    fn maps_consts_of_numbers_and_recursion_are_refused() {
        let errs = run(json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}))
            .unwrap_err();
        assert_eq!(errs[0].pointer(), "/properties/m");
        let errs = run(json!({"type": "object", "properties": {"c": {"const": 3}}})).unwrap_err();
        assert!(errs.iter().any(|e| e.keyword() == Some("const")), "{errs:?}");
        let errs = run(json!({"type": "object", "properties": {"n": {"$ref": "#"}}})).unwrap_err();
        assert!(matches!(errs[0], CapabilityError::Recursive { .. }));
    }

    #[test]
    fn unknown_keys_are_named_and_ordering_is_optional() {
        let errs =
            run(json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true})).unwrap_err();
        assert_eq!(errs[0].keyword(), Some("uniqueItems"));
        let out = GEMINI_ORDERED
            .adapt(
                json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}),
                &AdaptContext::default(),
            )
            .unwrap();
        assert_eq!(out["propertyOrdering"].as_array().map(Vec::len), Some(2));
    }
}
