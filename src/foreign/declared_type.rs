//! [`declared_type`]: the one JSON type a property declares, read through nullable type lists,
//! optional unions and local references.
//!
//! A tool host that coerces loose model output (the string `"[1, 2]"` where a list is wanted)
//! needs to know, for one property, which single JSON type the schema asks for. Generated schemas
//! rarely say it in one place: pydantic writes `anyOf: [X, {"type": "null"}]` for an optional
//! field, a nested model is a `$ref`, zod writes `type: ["string", "null"]`.
//!
//! ```
//! use serde_json::json;
//! use toolschema::{declared_type, JsonType};
//! let schema = json!({
//!     "$defs": {"Shot": {"type": "object"}},
//!     "properties": {
//!         "shots": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Shot"}}, {"type": "null"}]},
//!         "lead": {"$ref": "#/$defs/Shot"},
//!         "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
//!     }
//! });
//! let p = &schema["properties"];
//! assert_eq!(declared_type(&p["shots"], &schema), Some(JsonType::Array));
//! assert_eq!(declared_type(&p["lead"], &schema), Some(JsonType::Object));
//! assert_eq!(declared_type(&p["either"], &schema), None);
//! assert_eq!(JsonType::Array.to_string(), "array");
//! ```
//!
//! # How it works
//! One loop, no recursion, so no input can overflow the stack. At each step the current schema
//! answers with its `type` when that is one type name, or a list holding one type besides
//! `"null"`, the name read by [`JsonType::read`] (BFCL's `dict`, `float` and `tuple` are
//! `object`, `number` and `array`; `any`, `String` or `long` is no JSON type, so `None`).
//! Otherwise a string `$ref` is followed (any local JSON pointer, `$defs` and
//! `definitions` kept apart, percent and `~` escapes decoded); a reference already followed on
//! this path ends the walk with `None`, as does one that cannot be resolved. Otherwise an `anyOf`
//! (or, when that is absent or empty, a `oneOf`) with exactly one member that is not
//! `{"type": "null"}` continues with that member. Anything else is `None`. Every step counts
//! against [`MAX_HOPS`].
//!
//! Where the root's `$schema` declares draft-07 or earlier, a schema holding `$ref` is its
//! reference alone (those drafts ignore the keywords beside `$ref`): the reference is followed
//! first, and one that cannot be is `None`, whatever `type` stands beside it.

use crate::inline::draft::Draft;
use crate::vocab::json_type::JsonType;
use serde_json::{Map, Value};

/// How many steps (references followed plus unions entered) [`declared_type`] takes before it
/// gives up with `None`.
pub const MAX_HOPS: usize = 4096;

/// The one JSON type `prop` declares, or `None` when it declares no single one.
///
/// `root` is the whole schema, against which `prop`'s local references are resolved. Reads
/// through a nullable type list (`["array", "null"]` is `array`), an optional union
/// (`anyOf: [X, {"type": "null"}]` is `X`'s type) and local references (a chain of them, into
/// `$defs`, `definitions` or anywhere in `root`). Type names are read by [`JsonType::read`]:
/// `"dict"` is [`JsonType::Object`], `"float"` [`JsonType::Number`], `"tuple"`
/// [`JsonType::Array`]. `None` for a union of two or more real types, a type name that is no
/// JSON type (`"any"`, `"String"`), a reference outside the document, to nothing or back to one
/// already followed, and anything malformed. Under draft-07 and earlier (the root's `$schema`), a
/// `$ref` is read alone, as those drafts read it. Never panics, never errors.
///
/// ```
/// use serde_json::json;
/// use toolschema::{declared_type, JsonType};
/// let bfcl = json!({"type": "dict", "properties": {
///     "ratio": {"type": "float"}, "pair": {"type": "tuple"}, "x": {"type": "any"}}});
/// let p = &bfcl["properties"];
/// assert_eq!(declared_type(&p["ratio"], &bfcl), Some(JsonType::Number));
/// assert_eq!(declared_type(&p["pair"], &bfcl), Some(JsonType::Array));
/// assert_eq!(declared_type(&p["x"], &bfcl), None);
/// ```
pub fn declared_type(prop: &Value, root: &Value) -> Option<JsonType> {
    let mut cur = prop;
    // References followed on this path, by the address of their target: a cycle ends the walk.
    let mut followed: Vec<*const Value> = Vec::new();
    let legacy = Draft::of(root).ref_ignores_siblings();
    for _ in 0..MAX_HOPS {
        let Value::Object(map) = cur else { return None };
        let reference = map.get("$ref");
        // Up to draft-07 a `$ref` ignores the keywords beside it: its target alone answers.
        let reference_alone = legacy && reference.is_some();
        match map.get("type") {
            _ if reference_alone => {}
            Some(Value::String(t)) => return JsonType::read(t),
            Some(Value::Array(types)) => {
                let mut real = types.iter().filter(|t| t.as_str() != Some("null"));
                return match (real.next(), real.next()) {
                    (Some(Value::String(t)), None) => JsonType::read(t),
                    _ => None,
                };
            }
            _ => {}
        }
        if let Some(Value::String(reference)) = reference {
            let target = crate::refs::resolve(root, reference)?;
            let address: *const Value = target;
            if !followed.contains(&address) {
                followed.push(address);
                cur = target;
                continue;
            }
            // A reference already followed: the reference implementation falls through to the
            // union below, which for a cycle finds nothing or the same cycle again.
        }
        if reference_alone {
            return None;
        }
        cur = optional_member(map)?;
    }
    None
}

/// Whether [`declared_type`] reads a `$ref` alone (its siblings ignored) under a root whose
/// `$schema` is `uri`: draft-07 and earlier. For a caller that walks its own representation of a
/// schema (the Python package reads Python objects where they are) and must read it alike.
pub fn reads_ref_alone(uri: &str) -> bool {
    Draft::named(uri).ref_ignores_siblings()
}

/// The one member of an `anyOf` (or, when that is absent or empty, a `oneOf`) that is not
/// `{"type": "null"}`: what an optional union declares. `None` for a real union or a malformed one.
pub(crate) fn optional_member(map: &Map<String, Value>) -> Option<&Value> {
    let members = match (map.get("anyOf"), map.get("oneOf")) {
        (Some(Value::Array(m)), _) if !m.is_empty() => m,
        // A malformed `anyOf` is not passed over for the `oneOf` beside it.
        (Some(other), _) if truthy(other) => return None,
        (_, Some(Value::Array(m))) => m,
        _ => return None,
    };
    let mut real = members.iter().filter(|m| !is_null_member(m));
    match (real.next(), real.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether a value counts as present, the way the reference implementation's `or` reads it.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// `{"type": "null", ...}`: the member an optional union adds.
fn is_null_member(member: &Value) -> bool {
    member.get("type").and_then(Value::as_str) == Some("null")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_through_nullable_lists_unions_and_reference_chains() {
        let root = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": ["null", "integer"]}}});
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/A"}), &root), Some(JsonType::Integer));
        let opt = json!({"anyOf": [{"type": "null"}, {"$ref": "#/$defs/A"}]});
        assert_eq!(declared_type(&opt, &root), Some(JsonType::Integer));
        assert_eq!(declared_type(&json!({"type": ["string", "integer"]}), &root), None);
    }

    #[test]
    fn a_reference_cycle_or_a_missing_target_answers_none() {
        let root = json!({"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}});
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/A"}), &root), None);
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/Missing"}), &root), None);
        assert_eq!(declared_type(&json!({"$ref": "https://x.test/s.json"}), &root), None);
    }

    #[test]
    fn defs_and_definitions_are_separate_and_any_pointer_resolves() {
        let root = json!({
            "definitions": {"X": {"type": "string"}},
            "$defs": {"X": {"type": "integer"}, "a b": {"type": "array", "items": {"type": "boolean"}}}
        });
        assert_eq!(declared_type(&json!({"$ref": "#/definitions/X"}), &root), Some(JsonType::String));
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/a%20b"}), &root), Some(JsonType::Array));
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/a%20b/items"}), &root), Some(JsonType::Boolean));
        assert_eq!(declared_type(&json!({"$ref": "#/definitions/Y"}), &root), None);
    }

    #[test]
    fn bfcl_python_spellings_read_as_json_types_and_other_names_as_none() {
        let root = json!({"$defs": {"D": {"type": "dict"}}});
        for (t, want) in [
            ("dict", Some(JsonType::Object)),
            ("float", Some(JsonType::Number)),
            ("tuple", Some(JsonType::Array)),
            ("object", Some(JsonType::Object)),
            ("any", None),
            ("String", None),
            ("long", None),
            ("Dict", None),
        ] {
            assert_eq!(declared_type(&json!({"type": t}), &root), want, "{t}");
            assert_eq!(declared_type(&json!({"type": [t, "null"]}), &root), want, "[{t}, null]");
            let optional = json!({"anyOf": [{"type": t}, {"type": "null"}]});
            assert_eq!(declared_type(&optional, &root), want, "anyOf [{t}, null]");
        }
        assert_eq!(declared_type(&json!({"$ref": "#/$defs/D"}), &root), Some(JsonType::Object));
    }

    #[test]
    fn under_draft_07_and_earlier_a_reference_is_read_alone() {
        let prop = json!({"$ref": "#/definitions/Pos", "type": "string"});
        let defs = json!({"Pos": {"type": "integer", "minimum": 0}});
        for (schema, want) in [
            (
                json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": defs}),
                Some(JsonType::Integer),
            ),
            (
                json!({"$schema": "http://json-schema.org/draft-04/schema#", "definitions": defs}),
                Some(JsonType::Integer),
            ),
            (
                json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "definitions": defs}),
                Some(JsonType::String),
            ),
            (json!({"definitions": defs}), Some(JsonType::String)),
        ] {
            assert_eq!(declared_type(&prop, &schema), want, "{schema}");
        }
        // The reference cannot be followed: draft-07 has nothing else to read.
        let draft07 = json!({"$schema": "http://json-schema.org/draft-07/schema#"});
        assert_eq!(declared_type(&prop, &draft07), None);
        let cycle = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"A": {"$ref": "#/definitions/A", "type": "string"}}});
        assert_eq!(declared_type(&json!({"$ref": "#/definitions/A"}), &cycle), None);
    }

    #[test]
    fn a_long_chain_of_unions_ends_within_the_hop_budget() {
        let mut prop = json!({"type": "integer"});
        for _ in 0..(MAX_HOPS + 10) {
            let mut wrapper = serde_json::Map::new();
            wrapper.insert("anyOf".into(), Value::Array(vec![prop, json!({"type": "null"})]));
            prop = Value::Object(wrapper);
        }
        assert_eq!(declared_type(&prop, &json!({})), None);
        // Dropping a value this deep recursively would overflow a test thread's stack.
        let mut stack = vec![prop];
        while let Some(mut v) = stack.pop() {
            if let Some(Value::Array(members)) = v.get_mut("anyOf") {
                stack.append(members);
            }
        }
    }
}
