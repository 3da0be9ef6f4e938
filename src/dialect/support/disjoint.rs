//! Types and disjointness: the JSON types a schema or value has (as bits, `integer` apart from
//! the other numbers), and whether two union branches are provably disjoint (by type, by listed
//! values, by a tag, by a closed object's keys), which decides whether a `oneOf` may be written as
//! `anyOf`.

use super::deref;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The JSON types as bits, `integer` apart from the other numbers so that `number` is both.
const NULL: u8 = 1;
const BOOLEAN: u8 = 2;
const OBJECT: u8 = 4;
const ARRAY: u8 = 8;
const STRING: u8 = 16;
const INTEGER: u8 = 32;
const FRACTION: u8 = 64;
pub(super) const ALL_BITS: u8 = 127;

/// The types a `type` keyword names, as bits; `None` for a name that is no JSON type or a value
/// that is not a type keyword (nothing is judged from it).
pub(super) fn type_bits(t: &Value) -> Option<u8> {
    let one = |name: &str| -> Option<u8> {
        Some(match name {
            "null" => NULL,
            "boolean" => BOOLEAN,
            "object" => OBJECT,
            "array" => ARRAY,
            "string" => STRING,
            "integer" => INTEGER,
            "number" => INTEGER | FRACTION,
            _ => return None,
        })
    };
    match t {
        Value::String(s) => one(s),
        Value::Array(names) => names.iter().try_fold(0, |acc, n| Some(acc | one(n.as_str()?)?)),
        _ => None,
    }
}

/// The type of an instance value, as a bit of [`type_bits`] (an integral number is an integer).
pub(super) fn value_bits(v: &Value) -> u8 {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(n) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
            INTEGER
        }
        Value::Number(_) => FRACTION,
    }
}

/// The names in a `type` keyword (a string or an array of strings).
pub(crate) fn type_names(t: &Value) -> BTreeSet<&str> {
    match t {
        Value::String(s) => std::iter::once(s.as_str()).collect(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    }
}

/// Whether a `type` keyword (a string or an array of strings) names `name`: what
/// `type_names(t).contains(name)` says, without building the set (the walks that ask it at every
/// schema object).
pub(crate) fn names_type(t: &Value, name: &str) -> bool {
    match t {
        Value::String(s) => s == name,
        Value::Array(items) => items.iter().any(|i| i.as_str() == Some(name)),
        _ => false,
    }
}

/// The JSON type name of an instance value.
pub(crate) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The instance values a schema allows, when it lists them (`const`, or `enum`).
pub(super) fn value_set(map: &Map<String, Value>) -> Option<Vec<&Value>> {
    if let Some(c) = map.get("const") {
        return Some(vec![c]);
    }
    map.get("enum").and_then(Value::as_array).map(|vs| vs.iter().collect())
}

/// The JSON types a schema can match, where its keywords say so.
fn types_of(map: &Map<String, Value>) -> Option<BTreeSet<&'static str>> {
    const ALL: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];
    let declared: Option<BTreeSet<&'static str>> = map.get("type").map(|t| {
        let names = type_names(t);
        ALL.iter().copied().filter(|a| names.contains(a)).collect()
    });
    let listed: Option<BTreeSet<&'static str>> =
        value_set(map).map(|vs| vs.iter().map(|v| json_type(v)).collect());
    match (declared, listed) {
        (Some(d), Some(l)) => Some(d.intersection(&l).copied().collect()),
        (d, l) => d.or(l),
    }
}

fn types_overlap(a: &str, b: &str) -> bool {
    a == b || matches!((a, b), ("integer", "number") | ("number", "integer"))
}

/// Whether no value can match both `a` and `b` (both followed through `$ref`).
pub(crate) fn disjoint(a: &Value, b: &Value, root: &Value) -> bool {
    let (Some(Value::Object(a)), Some(Value::Object(b))) = (deref(a, root), deref(b, root)) else {
        return false;
    };
    if let (Some(ta), Some(tb)) = (types_of(a), types_of(b))
        && !ta.iter().any(|x| tb.iter().any(|y| types_overlap(x, y)))
    {
        return true;
    }
    if let (Some(va), Some(vb)) = (value_set(a), value_set(b))
        && !va.iter().any(|x| vb.contains(x))
    {
        return true;
    }
    tag_disjoint(a, b, root) || closed_key_disjoint(a, b) || closed_key_disjoint(b, a)
}

fn required_names(map: &Map<String, Value>) -> BTreeSet<&str> {
    map.get("required")
        .and_then(Value::as_array)
        .map_or_else(BTreeSet::new, |r| r.iter().filter_map(Value::as_str).collect())
}

/// Both objects require a property whose allowed values (`const`/`enum`) do not overlap: serde's
/// internally and adjacently tagged enums.
fn tag_disjoint(a: &Map<String, Value>, b: &Map<String, Value>, root: &Value) -> bool {
    let (ra, rb) = (required_names(a), required_names(b));
    let (Some(Value::Object(pa)), Some(Value::Object(pb))) = (a.get("properties"), b.get("properties"))
    else {
        return false;
    };
    ra.intersection(&rb).any(|name| {
        let va = pa.get(*name).and_then(|s| deref(s, root)).and_then(Value::as_object).and_then(value_set);
        let vb = pb.get(*name).and_then(|s| deref(s, root)).and_then(Value::as_object).and_then(value_set);
        matches!((va, vb), (Some(va), Some(vb)) if !va.iter().any(|x| vb.contains(x)))
    })
}

/// `closed` admits no key outside its `properties`, and `other` requires one: serde's externally
/// tagged enums (one required key per variant, each object closed).
fn closed_key_disjoint(closed: &Map<String, Value>, other: &Map<String, Value>) -> bool {
    if closed.get("additionalProperties") != Some(&Value::Bool(false))
        || closed.contains_key("patternProperties")
    {
        return false;
    }
    let empty = Map::new();
    let props = closed.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    // Both must be objects for the key argument to apply; otherwise types decide.
    let other_is_object = other.get("type").is_some_and(|t| type_names(t) == BTreeSet::from(["object"]));
    let closed_is_object = closed.get("type").is_some_and(|t| type_names(t) == BTreeSet::from(["object"]));
    closed_is_object && other_is_object && required_names(other).iter().any(|r| !props.contains_key(*r))
}
