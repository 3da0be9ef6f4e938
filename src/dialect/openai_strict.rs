//! `OPENAI_STRICT`: OpenAI Structured Outputs and function tools with `strict: true`.
//!
//! The rules, with their sources (providers.md §1):
//! - the root is `type: "object"` and not `anyOf` ([OAI-SO] "Root objects must not be `anyOf` and
//!   must be an object");
//! - `additionalProperties: false` on every object ([OAI-SO]; [OAI-FC] "must be set to false for
//!   each object");
//! - every property listed in `required` ([OAI-SO] "All fields must be `required`"; optional fields
//!   are emulated with a `null` union);
//! - no `oneOf` (observed 400 "'oneOf' is not permitted"), no `allOf`, `not`, `if`/`then`/`else`,
//!   `dependent*` ([OAI-SO] "Composition");
//! - no `$ref` with sibling keywords (observed 400 "$ref cannot have keywords {'description'}",
//!   defog-ai/defog#244);
//! - no `default` (observed 400 "'default' is not permitted");
//! - `format` only `date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid` ([OAI-SO]);
//! - no `minLength`/`maxLength` (observed "maxLength is not permitted", jina-ai/node-DeepResearch#79),
//!   no `uniqueItems`, `contains`, `propertyNames`, `patternProperties`, `unevaluated*`,
//!   `min/maxProperties`, `prefixItems` (unconfirmed: refused, failing closed);
//! - `minimum`/`maximum`/`exclusive*`/`multipleOf`, `minItems`/`maxItems`, `pattern`, `enum`,
//!   `const`, `$defs` and recursion are supported ([OAI-SO]);
//! - every schema node has a `type`, `anyOf` or `$ref` (observed "schema must have a 'type' key");
//! - limits ([OAI-SO]): 5 000 object properties in total, 10 levels of object nesting, 120 000
//!   characters of property names, definition names, enum and const values, 1 000 enum values,
//!   and 15 000 characters for one string enum of more than 250 values.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, OPENAI_STRICT};
//! let schema = json!({
//!     "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"], "format": "uint8"}},
//!     "required": ["city"], "type": "object"
//! });
//! let out = apply(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(out["required"], json!(["city", "days"])); // `Option<u8>`: null stands for "absent"
//! assert_eq!(out["additionalProperties"], false);
//! assert_eq!(out["properties"]["days"]["maximum"], 255); // the format, as a bound OpenAI enforces
//! ```
//!
//! # How it works (and what it refuses)
//! 1. A `$ref` whose siblings are only `description`/`title` becomes `{"anyOf": [{"$ref": ...}],
//!    "description": ...}`: same meaning, description kept, recursion untouched. A `$ref` with
//!    assertion siblings (an internally tagged newtype variant: the target plus a tag property) is
//!    replaced by the target merged with them, when the merge is exact; otherwise an error.
//! 2. Annotations OpenAI refuses are dropped: `default`, `examples`, `deprecated`, `readOnly`,
//!    `writeOnly`, `$comment`. They never constrain, so nothing is loosened.
//! 3. `format`: allowed values stay; schemars' integer formats (`uint32`, `int8`, ...) become the
//!    `minimum`/`maximum` they imply (a tightening serde agrees with); other formats are dropped
//!    (`format` is an annotation in draft 2020-12).
//! 4. `#[serde(flatten)]` of an enum (own `properties` beside a `oneOf`) is distributed into the
//!    branches so that each can be closed. Every object gets `additionalProperties: false`.
//!    **A map (`HashMap`, `BTreeMap`, flattened maps) cannot be expressed**: it is an error whose
//!    hint is a list of entries, `Vec<Entry>` with `struct Entry { key: String, value: V }`.
//! 5. Every optional property must become required. Where its schema accepts null (`Option<T>`:
//!    serde reads null as `None`) it is added to `required`. Where it does not
//!    (`#[serde(default)] n: u32`) it is an error whose hint is `Option<T>`.
//! 6. `oneOf` becomes `anyOf` only when every pair of branches is provably disjoint (distinct
//!    types, distinct `const`/`enum` tag values on a required property, or distinct required keys
//!    of closed objects: the encodings schemars gives serde enums); otherwise it is an error.
//! 7. A node with no `type` gets the type of its `const`/`enum` values; with neither it is an error.
//! 8. Limits are counted; then every remaining forbidden keyword is reported.
//!
//! Sets (`uniqueItems`), tuples (`prefixItems`) and `char` (`minLength`/`maxLength`) are refused
//! with the shape to use instead (`Vec<T>`, a struct, `String`).

use super::support::{
    admits_null, close_object, disjoint, distribute_into_branches, finish, format_as_bounds,
    is_object_schema, json_type, merge_ref_site, sort_errors, type_names, unsupported,
};
use super::{AdaptContext, SchemaDialect};
use crate::error::CapabilityError;
use crate::pointer::Pointer;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// OpenAI strict mode (see the module docs). Its name is `openai-strict`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenAiStrict;

/// The [`OpenAiStrict`] dialect.
pub static OPENAI_STRICT: OpenAiStrict = OpenAiStrict;

const NAME: &str = "openai-strict";

/// The `format` values OpenAI accepts ([OAI-SO]).
pub(crate) const FORMATS: &[&str] =
    &["date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uuid"];

/// Annotations OpenAI refuses; dropping them changes no verdict.
const DROPPED: &[&str] = &["$comment", "default", "deprecated", "examples", "readOnly", "writeOnly"];

/// The limits of [OAI-SO].
const MAX_PROPERTIES: usize = 5_000;
const MAX_OBJECT_NESTING: usize = 10;
const MAX_STRING_TOTAL: usize = 120_000;
const MAX_ENUM_VALUES: usize = 1_000;
const LARGE_ENUM: usize = 250;
const MAX_LARGE_ENUM_CHARS: usize = 15_000;

impl SchemaDialect for OpenAiStrict {
    fn name(&self) -> &str {
        NAME
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$dynamicRef",
            "allOf",
            "contains",
            "definitions",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "if",
            "maxContains",
            "maxLength",
            "maxProperties",
            "minContains",
            "minLength",
            "minProperties",
            "not",
            "oneOf",
            "patternProperties",
            "prefixItems",
            "propertyNames",
            "then",
            "unevaluatedItems",
            "unevaluatedProperties",
            "uniqueItems",
        ]
    }

    fn hint(&self, keyword: &str) -> Option<String> {
        strict_hint(keyword)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Value, Vec<CapabilityError>> {
        let mut errors = Vec::new();
        let mut schema = rewrite_ref_sites(NAME, schema, cx.max_depth, &mut errors);
        let snapshot = schema.clone();
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |ptr: &Pointer, node: &mut Value| -> Result<bool, ()> {
                node_rules(node, ptr, &snapshot, &mut errors);
                Ok(true)
            },
            &|_| (),
        );
        one_of_to_any_of(NAME, &mut schema, cx.max_depth, &mut errors);
        if let Err(e) = super::mcp::root_is_object(NAME, &schema) {
            errors.extend(e);
        }
        limits(&schema, cx.max_depth, &mut errors);
        sort_errors(&mut errors);
        finish(self, schema, errors, cx.max_depth)
    }
}

/// The hint for a keyword strict dialects refuse, naming the Rust shape to use instead.
pub(crate) fn strict_hint(keyword: &str) -> Option<String> {
    Some(
        match keyword {
            "uniqueItems" => "a set (`HashSet`, `BTreeSet`) cannot be expressed: use `Vec<T>`",
            "prefixItems" => "a tuple cannot be expressed: use a struct with named fields",
            "minLength" | "maxLength" => {
                "string lengths cannot be expressed (`char` has length 1): use `String` and check the length in code"
            }
            "patternProperties" => super::support::MAP_HINT,
            "allOf" | "not" | "if" | "then" | "else" => "use a plain struct or a tagged enum",
            _ => return None,
        }
        .to_owned(),
    )
}

/// Step 1: `$ref` siblings. Annotation-only siblings wrap the reference in a one-branch `anyOf`;
/// assertion siblings merge with the target (one level; nested references stay).
pub(crate) fn rewrite_ref_sites(
    dialect: &str,
    mut schema: Value,
    max_depth: usize,
    errors: &mut Vec<CapabilityError>,
) -> Value {
    // A merged target may bring in further sites; a few rounds settle every schema schemars writes.
    for _ in 0..8 {
        let mut sites = Vec::new();
        let _ = crate::walk::visit_all(&schema, max_depth, &mut |ptr, node| {
            if let Value::Object(map) = node
                && map.contains_key("$ref")
                && map.len() > 1
            {
                sites.push(ptr.as_str().to_owned());
            }
            true
        });
        if sites.is_empty() {
            break;
        }
        let snapshot = schema.clone();
        let mut changed = false;
        for site in sites {
            let Some(Value::Object(map)) = schema.pointer_mut(&site) else { continue };
            for k in DROPPED {
                map.remove(*k);
            }
            let Some(reference) = map.get("$ref").and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            if map.len() == 1 {
                continue;
            }
            if map.keys().all(|k| k == "$ref" || k == "description" || k == "title") {
                let r = map.remove("$ref").unwrap_or(Value::Null);
                map.insert(
                    "anyOf".into(),
                    Value::Array(vec![Value::Object(Map::from_iter([("$ref".into(), r)]))]),
                );
                continue;
            }
            let Some(target) = crate::refs::resolve(&snapshot, &reference) else {
                errors.push(unsupported(
                    dialect,
                    "$ref",
                    &site,
                    format!("reference `{reference}` cannot be followed"),
                    None,
                ));
                map.remove("$ref");
                continue;
            };
            let mut own = std::mem::take(map);
            let reference = own.remove("$ref").unwrap_or(Value::Null);
            match merge_ref_site(own, target.clone()) {
                Ok(Value::Object(merged)) => {
                    *map = merged;
                    changed = true;
                }
                Ok(_) => {}
                Err(both) => {
                    let (mut own, _) = *both;
                    own.insert("$ref".into(), reference);
                    *map = own;
                    errors.push(unsupported(
                        dialect,
                        "$ref",
                        &site,
                        "the keywords beside this `$ref` cannot be merged into its target without `allOf`, and \
                         the dialect accepts neither",
                        Some("describe the value with one struct instead of a reference plus constraints".into()),
                    ));
                }
            }
        }
        if !changed {
            break;
        }
    }
    schema
}

/// Steps 2 to 5 and 7, on one node.
fn node_rules(node: &mut Value, ptr: &Pointer, snapshot: &Value, errors: &mut Vec<CapabilityError>) {
    let Value::Object(map) = node else {
        if *node == Value::Bool(true) && !ptr.as_str().ends_with("/additionalProperties") {
            errors.push(untyped(ptr.as_str()));
        }
        return;
    };
    for k in DROPPED {
        map.remove(*k);
    }
    filter_format(map, FORMATS);
    distribute_into_branches(map);
    if is_object_schema(map) {
        close_object(NAME, map, ptr.as_str(), errors);
        require_all(map, ptr, snapshot, errors);
    }
    if !["type", "anyOf", "oneOf", "$ref"].iter().any(|k| map.contains_key(*k)) {
        match infer_type(map) {
            Some(t) => {
                map.insert("type".into(), t);
            }
            None => errors.push(untyped(ptr.as_str())),
        }
    }
}

fn untyped(pointer: &str) -> CapabilityError {
    unsupported(
        NAME,
        "type",
        pointer,
        "every schema needs a `type`, `anyOf` or `$ref`, and this one has none (it accepts any value)",
        Some("declare a concrete type instead of `serde_json::Value`".into()),
    )
}

/// Keeps an allowed `format`, turns an integer format into bounds, drops the rest.
pub(crate) fn filter_format(map: &mut Map<String, Value>, allowed: &[&str]) {
    let Some(format) = map.get("format").and_then(Value::as_str) else { return };
    if allowed.contains(&format) {
        return;
    }
    format_as_bounds(map);
    map.remove("format");
}

/// Adds every optional property whose schema admits null to `required`; reports the others.
fn require_all(
    map: &mut Map<String, Value>,
    ptr: &Pointer,
    snapshot: &Value,
    errors: &mut Vec<CapabilityError>,
) {
    let Some(Value::Object(props)) = map.get("properties") else { return };
    let required: BTreeSet<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let mut add = Vec::new();
    for (name, schema) in props {
        if required.contains(name) {
            continue;
        }
        let mut p = ptr.clone();
        p.push("properties");
        p.push(name);
        if admits_null(schema, snapshot) {
            add.push(Value::String(name.clone()));
        } else {
            errors.push(unsupported(
                NAME,
                "required",
                p.as_str(),
                format!(
                    "`{name}` may be left out, OpenAI strict mode requires every property, and its schema does \
                     not accept null; requiring it would refuse what the code reads when it is absent"
                ),
                Some("make the field `Option<T>` (serde reads null as `None`), or drop `#[serde(default)]` so it is required".into()),
            ));
        }
    }
    if !add.is_empty() {
        let list = map.entry("required").or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.extend(add);
            list.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        }
    }
}

/// The `type` implied by `const`/`enum` values.
pub(crate) fn infer_type(map: &Map<String, Value>) -> Option<Value> {
    let values: Vec<&Value> = match (map.get("const"), map.get("enum")) {
        (Some(c), _) => vec![c],
        (None, Some(Value::Array(vs))) if !vs.is_empty() => vs.iter().collect(),
        _ => return None,
    };
    let mut types: BTreeSet<&str> = values.iter().map(|v| json_type(v)).collect();
    if types.contains("number") {
        types.remove("integer");
    }
    match types.len() {
        1 => types.into_iter().next().map(|t| Value::String(t.to_owned())),
        _ => Some(Value::Array(types.into_iter().map(|t| Value::String(t.to_owned())).collect())),
    }
}

/// Step 6: `oneOf` becomes `anyOf` where the branches are pairwise disjoint.
pub(crate) fn one_of_to_any_of(
    dialect: &str,
    schema: &mut Value,
    max_depth: usize,
    errors: &mut Vec<CapabilityError>,
) {
    let mut sites = Vec::new();
    let _ = crate::walk::visit_all(schema, max_depth, &mut |ptr, node| {
        if let Some(Value::Array(branches)) = node.get("oneOf") {
            let ok = !node.as_object().is_some_and(|m| m.contains_key("anyOf"))
                && branches
                    .iter()
                    .enumerate()
                    .all(|(i, a)| branches[i + 1..].iter().all(|b| disjoint(a, b, schema)));
            sites.push((ptr.as_str().to_owned(), ok));
        }
        true
    });
    for (site, ok) in sites {
        if !ok {
            errors.push(unsupported(
                dialect,
                "oneOf",
                &site,
                "`oneOf` is refused, and its branches are not provably disjoint: as `anyOf` it would accept a \
                 value matching two branches, which `oneOf` refuses",
                Some("tag the enum (`#[serde(tag = \"type\")]`) or give its variants distinct JSON types".into()),
            ));
        } else if let Some(Value::Object(map)) = schema.pointer_mut(&site)
            && let Some(branches) = map.remove("oneOf")
        {
            map.insert("anyOf".into(), branches);
        }
    }
}

/// The [OAI-SO] size limits.
fn limits(schema: &Value, max_depth: usize, errors: &mut Vec<CapabilityError>) {
    let (mut props, mut chars, mut enum_values) = (0usize, 0usize, 0usize);
    let _ = crate::walk::visit_all(schema, max_depth, &mut |ptr, node| {
        let Value::Object(map) = node else { return true };
        if let Some(Value::Object(p)) = map.get("properties") {
            props += p.len();
            chars += p.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        if let Some(Value::Object(d)) = map.get("$defs") {
            chars += d.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        let str_len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
        if let Some(c) = map.get("const") {
            chars += str_len(c);
        }
        if let Some(Value::Array(vs)) = map.get("enum") {
            enum_values += vs.len();
            let total: usize = vs.iter().map(str_len).sum();
            chars += total;
            if vs.len() > LARGE_ENUM && vs.iter().all(Value::is_string) && total > MAX_LARGE_ENUM_CHARS {
                errors.push(limit(
                    "characters in one string enum of more than 250 values",
                    total,
                    MAX_LARGE_ENUM_CHARS,
                    ptr.as_str(),
                ));
            }
        }
        true
    });
    for (what, actual, max) in [
        ("object properties in total", props, MAX_PROPERTIES),
        ("characters of property names, definition names, enum and const values", chars, MAX_STRING_TOTAL),
        ("enum values in total", enum_values, MAX_ENUM_VALUES),
    ] {
        if actual > max {
            errors.push(limit(what, actual, max, ""));
        }
    }
    let nesting = object_nesting(schema, schema, &mut Vec::new(), max_depth);
    if nesting > MAX_OBJECT_NESTING {
        errors.push(limit("levels of object nesting", nesting, MAX_OBJECT_NESTING, ""));
    }
}

fn limit(what: &str, actual: usize, max: usize, pointer: &str) -> CapabilityError {
    CapabilityError::LimitExceeded {
        dialect: NAME.into(),
        limit: what.into(),
        actual,
        max,
        pointer: pointer.into(),
    }
}

/// Levels of nested object schemas, following references (a recursive one adds nothing more).
/// Memoised per reference target, so a definition graph that doubles at every level costs time in
/// proportion to its size, not its expansion.
fn object_nesting(node: &Value, root: &Value, visiting: &mut Vec<String>, budget: usize) -> usize {
    object_nesting_memo(node, root, visiting, &mut std::collections::HashMap::new(), budget)
}

fn object_nesting_memo(
    node: &Value,
    root: &Value,
    visiting: &mut Vec<String>,
    memo: &mut std::collections::HashMap<String, usize>,
    budget: usize,
) -> usize {
    let Value::Object(map) = node else { return 0 };
    if budget == 0 {
        return usize::MAX / 2;
    }
    let own = usize::from(map.get("type").is_some_and(|t| type_names(t).contains("object")));
    let mut deepest = 0;
    crate::walk::for_each_child(node, |step, child| {
        if matches!(step.keyword(), "$defs" | "definitions") {
            return;
        }
        deepest = deepest.max(object_nesting_memo(child, root, visiting, memo, budget - 1));
    });
    if let Some(r) = map.get("$ref").and_then(Value::as_str)
        && !visiting.iter().any(|v| v == r)
    {
        let below = match memo.get(r) {
            Some(d) => *d,
            None => match crate::refs::resolve(root, r) {
                Some(target) => {
                    visiting.push(r.to_owned());
                    let d = object_nesting_memo(target, root, visiting, memo, budget - 1);
                    visiting.pop();
                    memo.insert(r.to_owned(), d);
                    d
                }
                None => 0,
            },
        };
        deepest = deepest.max(below);
    }
    own.saturating_add(deepest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Value, Vec<CapabilityError>> {
        OPENAI_STRICT.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn options_become_required_and_defaults_without_null_are_refused() {
        let out = run(json!({"type": "object", "properties": {"o": {"type": ["string", "null"]}}})).unwrap();
        assert_eq!(out["required"], json!(["o"]));
        let errs = run(json!({"type": "object", "properties": {"n": {"type": "integer", "default": 0}}}))
            .unwrap_err();
        assert_eq!(errs[0].pointer(), "/properties/n");
        assert!(errs[0].to_string().contains("Option<T>"), "{}", errs[0]);
    }

    #[test]
    fn maps_are_refused_with_the_entry_list_hint() {
        let errs = run(json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["m"]}))
            .unwrap_err();
        assert_eq!(errs[0].pointer(), "/properties/m");
        assert!(errs[0].to_string().contains("Vec<Entry>"));
    }

    #[test]
    fn ref_with_description_keeps_the_description_beside_a_one_branch_any_of() {
        let s = json!({"$defs": {"I": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}},
                       "type": "object", "properties": {"i": {"$ref": "#/$defs/I", "description": "d"}}, "required": ["i"]});
        let out = run(s).unwrap();
        assert_eq!(out["properties"]["i"], json!({"anyOf": [{"$ref": "#/$defs/I"}], "description": "d"}));
        assert_eq!(out["$defs"]["I"]["additionalProperties"], false);
    }

    #[test]
    fn tagged_one_of_becomes_any_of_and_overlapping_one_of_is_refused() {
        let tagged = |t: &str| json!({"type": "object", "properties": {"k": {"type": "string", "const": t}}, "required": ["k"]});
        let s = json!({"type": "object", "properties": {"e": {"oneOf": [tagged("a"), tagged("b")]}}, "required": ["e"]});
        let out = run(s).unwrap();
        assert!(out["properties"]["e"].get("anyOf").is_some());
        let s = json!({"type": "object", "properties": {"e": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}, "required": ["e"]});
        let errs = run(s).unwrap_err();
        assert_eq!(errs[0].keyword(), Some("oneOf"));
    }

    #[test]
    fn non_object_root_and_untyped_nodes_are_refused() {
        assert_eq!(run(json!({"type": "string"})).unwrap_err()[0].keyword(), Some("type"));
        let errs =
            run(json!({"type": "object", "properties": {"x": {"description": "anything"}}})).unwrap_err();
        assert!(
            errs.iter().any(|e| e.pointer() == "/properties/x" && e.keyword() == Some("type")),
            "{errs:?}"
        );
    }

    #[test]
    fn nesting_past_ten_objects_is_a_limit_error() {
        let mut s = json!({"type": "object", "properties": {}, "required": []});
        for _ in 0..11 {
            s = json!({"type": "object", "properties": {"x": s}, "required": ["x"]});
        }
        let errs = run(s).unwrap_err();
        assert!(matches!(&errs[0], CapabilityError::LimitExceeded { actual: 12, max: 10, .. }), "{errs:?}");
    }
}
