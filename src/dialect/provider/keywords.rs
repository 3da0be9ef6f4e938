//! The keyword tables of a schema of one type: which keywords the walk leaves to another step,
//! which JSON type each constrains, the assertions draft 2020-12 defines, the order moved checks
//! are stated in; and what a schema says of its types and listed values, which the walk's
//! dispatch, unions and shapes read too.

use crate::dialect::support::type_names;
use crate::restore::Check;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The order moved checks are stated in: bounds before lengths before the rest.
pub(super) fn check_rank(keyword: &str) -> usize {
    const ORDER: &[&str] = &[
        "minimum",
        "exclusiveMinimum",
        "maximum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "additionalProperties",
        "dependentRequired",
        "anyOf",
        "pattern",
        "format",
    ];
    ORDER.iter().position(|k| *k == keyword).unwrap_or(ORDER.len())
}

/// The assertion keywords of draft 2020-12 (and draft-07's `dependencies`) that `typed` may meet:
/// any other keyword it meets is an annotation.
pub(super) const ASSERTIONS: &[&str] = &[
    "const",
    "contains",
    "dependencies",
    "dependentRequired",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "pattern",
    "uniqueItems",
];

/// Keywords the walk handles itself.
#[cfg(test)]
pub(super) const STRUCTURAL: &[&str] = &[
    "$defs",
    "$ref",
    "additionalItems",
    "additionalProperties",
    "allOf",
    "anyOf",
    "definitions",
    "items",
    "oneOf",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "required",
    "type",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Whether `typed` leaves a keyword to another step: an annotation, a keyword the walk handles
/// itself, one with no assertion, an extension. One `match` on the name (the compiler compares
/// lengths first) instead of a scan of each list.
pub(super) fn skipped(kw: &str) -> bool {
    match kw {
        // `walk::META_DATA`
        "$comment" | "default" | "deprecated" | "description" | "examples" | "readOnly" | "title"
        | "writeOnly" => true,
        // STRUCTURAL
        "$defs"
        | "$ref"
        | "additionalItems"
        | "additionalProperties"
        | "allOf"
        | "anyOf"
        | "definitions"
        | "items"
        | "oneOf"
        | "patternProperties"
        | "prefixItems"
        | "properties"
        | "propertyNames"
        | "required"
        | "type"
        | "unevaluatedItems"
        | "unevaluatedProperties" => true,
        // DROPPED
        "$anchor" | "$dynamicAnchor" | "$id" | "$schema" | "$vocabulary" | "contentEncoding"
        | "contentMediaType" | "contentSchema" | "discriminator" | "example" | "nullable"
        | "propertyOrdering" => true,
        _ => kw.starts_with("x-"),
    }
}

/// Which JSON type a keyword constrains (`None`: every type).
pub(super) fn applies(kw: &str, t: &str) -> bool {
    let family = match kw {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "minLength" | "maxLength" | "pattern" | "format" => "string",
        "minItems" | "maxItems" | "uniqueItems" => "array",
        "minProperties" | "maxProperties" | "dependentRequired" => "object",
        _ => return true,
    };
    family == t || family == "number" && t == "integer" || kw == "format" && matches!(t, "integer" | "number")
}

/// The types a schema declares, from `type`, else from its `const`/`enum` values, else from the
/// keywords it uses (`properties` reads as an object); `None` when nothing says.
pub(super) fn declared_types(m: &Map<String, Value>) -> Option<BTreeSet<&'static str>> {
    const ALL: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];
    const OBJECT: &[&str] =
        &["properties", "additionalProperties", "patternProperties", "required", "propertyNames"];
    const ARRAY: &[&str] = &["items", "prefixItems"];
    if let Some(t) = m.get("type") {
        let names = type_names(t);
        let mut set: BTreeSet<&'static str> = ALL.iter().copied().filter(|a| names.contains(a)).collect();
        if set.contains("number") {
            set.remove("integer");
        }
        // Beside `enum` or `const`, a type no listed value has admits nothing: `null` in
        // `type` beside `enum: [1, 2]` must not become a null branch.
        if let Some(values) = listed_values(m) {
            set.retain(|t| values.iter().any(|v| has_type(v, t)));
        }
        return Some(set);
    }
    if let Some(values) = listed_values(m) {
        let mut set: BTreeSet<&'static str> = values.iter().map(crate::dialect::support::json_type).collect();
        if set.contains("number") {
            set.remove("integer");
        }
        return Some(set);
    }
    if OBJECT.iter().any(|k| m.contains_key(*k)) {
        return Some(BTreeSet::from(["object"]));
    }
    if ARRAY.iter().any(|k| m.contains_key(*k)) {
        return Some(BTreeSet::from(["array"]));
    }
    None
}

/// The keywords that judge only numbers.
pub(super) const NUMERIC_BOUNDS: &[&str] =
    &["exclusiveMaximum", "exclusiveMinimum", "maximum", "minimum", "multipleOf"];

/// The listed `values` a schema of type `t` (with null when `nullable`) and its numeric bounds
/// admit.
pub(super) fn admitted(
    m: &Map<String, Value>,
    mut values: Vec<Value>,
    t: &str,
    nullable: bool,
) -> Vec<Value> {
    let bounds: Vec<Check> = NUMERIC_BOUNDS
        .iter()
        .filter_map(|kw| m.get(*kw).and_then(|v| Check::from_keyword(kw, v)))
        .flatten()
        .collect();
    values.retain(|v| {
        (has_type(v, t) || v.is_null() && (nullable || t == "null")) && bounds.iter().all(|c| c.passes(v))
    });
    values
}

pub(super) fn listed_values(m: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(c) = m.get("const") {
        return Some(vec![c.clone()]);
    }
    m.get("enum").and_then(Value::as_array).filter(|v| !v.is_empty()).cloned()
}

/// Whether `v` is of the JSON Schema type `t` (an integral float is an `integer`, an integer a
/// `number`).
pub(super) fn has_type(v: &Value, t: &str) -> bool {
    match (v, t) {
        (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => crate::dialect::support::json_type(v) == t,
    }
}
