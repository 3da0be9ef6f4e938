//! `ANTHROPIC_STRICT`: Claude strict tool use (`strict: true`) and JSON outputs
//! (`output_config.format`), which share one set of limits.
//!
//! The rules, with their sources (providers.md §2b and §2c, from [ANT-SO]
//! <https://platform.claude.com/docs/en/build-with-claude/structured-outputs>, "JSON Schema
//! limitations", and [ANT-STRICT] strict tool use):
//! - `additionalProperties` must be `false` on every object; any other value is refused [ANT-SO];
//! - optional properties are allowed (they count toward a limit) [ANT-SO], [ANT-STRICT];
//! - recursive schemas are refused [ANT-SO];
//! - no numeric constraints (`minimum`, `maximum`, `multipleOf`, "such as"; `exclusive*` presumed)
//!   and no string lengths (`minLength`, `maxLength`) [ANT-SO];
//! - arrays: `minItems` of 0 or 1 only; `maxItems`, `uniqueItems` and other array constraints are
//!   refused [ANT-SO];
//! - `format` only `date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid` [ANT-SO];
//! - `enum` of strings, numbers, booleans and nulls only; `const`, `anyOf`, `$ref`/`$defs`, `default`
//!   supported; `allOf` limited, and `allOf` with `$ref` refused [ANT-SO];
//! - `pattern`: no backreferences, lookaround or word boundaries [ANT-SO] "Supported regex features";
//! - tools: no `oneOf`/`anyOf`/`allOf` at the root (400 "input_schema does not support oneOf, allOf,
//!   or anyOf at the top level", anthropics/claude-code#5973) and the root is `type: "object"`;
//! - not listed, so refused here (failing closed): `oneOf` (except as below), `not`,
//!   `if`/`then`/`else`, `prefixItems`, `patternProperties`, `propertyNames`, `unevaluated*`,
//!   `dependent*`, `min/maxProperties`;
//! - limits per request, summed over every strict schema [ANT-SO] §2c: 24 optional properties, 16
//!   properties that use `anyOf` or a type array. They are checked here per schema: a request with
//!   several tools must add them up.
//!
//! **No Rust integer type can be expressed.** The pipeline's `integer-bounds` pass gives every
//! integer the `minimum`/`maximum` serde enforces (`u8`..`u128`, `i8`..`i128`, `usize`, `isize`).
//! Dropping a bound would let the model send a number the code then refuses, so each one is an
//! error naming the field; its hint is to take a `serde_json::Number` and check the range in
//! code. Likewise fixed-size arrays
//! (`[T; N]`: `minItems`/`maxItems`), sets (`uniqueItems`), `char` (string lengths) and maps.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, ANTHROPIC_STRICT};
//! let schema = json!({"properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"], "type": "object"});
//! let errors = apply(&ANTHROPIC_STRICT, schema, &AdaptContext::new(128, Some("Args"))).unwrap_err();
//! assert_eq!(errors.as_slice()[0].field(), Some("Args.n"));
//! assert!(errors.to_string().contains("serde_json::Number"));
//! ```
//!
//! # How it works
//! As [`OPENAI_STRICT`](super::OPENAI_STRICT) for `$ref` siblings, annotations (`default` is kept
//! here), formats (dropped, not turned into bounds: Anthropic enforces none), flattened enums,
//! closing objects and `oneOf` (kept only as a provably disjoint `anyOf`); `required` is left as it
//! is. Then recursion, `minItems`, `allOf` members, enum values, patterns and the limits are
//! checked, and every remaining forbidden keyword is reported with the field it sits on.

use super::openai_strict::{one_of_to_any_of, rewrite_ref_sites};
use super::support::{
    close_object, distribute_into_branches, finish, is_object_schema, sort_errors, unsupported,
};
use super::{AdaptContext, SchemaDialect};
use crate::error::CapabilityError;
use crate::pointer::Pointer;
use serde_json::Value;

/// Anthropic strict tool use / JSON outputs (see the module docs). Its name is `anthropic-strict`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct AnthropicStrict;

/// The [`AnthropicStrict`] dialect.
pub static ANTHROPIC_STRICT: AnthropicStrict = AnthropicStrict;

const NAME: &str = "anthropic-strict";

const FORMATS: &[&str] =
    &["date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uri", "uuid"];

/// Annotations not on [ANT-SO]'s list; dropping them changes no verdict.
const DROPPED: &[&str] = &["$comment", "deprecated", "examples", "readOnly", "writeOnly"];

const MAX_OPTIONAL: usize = 24;
const MAX_UNIONS: usize = 16;

impl SchemaDialect for AnthropicStrict {
    fn name(&self) -> &str {
        NAME
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$dynamicRef",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "if",
            "maxContains",
            "maxItems",
            "maxLength",
            "maxProperties",
            "maximum",
            "minContains",
            "minLength",
            "minProperties",
            "minimum",
            "multipleOf",
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
        match keyword {
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => Some(
                "Anthropic strict mode enforces no numeric bounds, and dropping the bound would let the model \
                 send values the code refuses (a Rust integer type's range is such a bound): take a \
                 `serde_json::Number` and check the range in code"
                    .into(),
            ),
            "maxItems" => Some("array lengths cannot be expressed (`[T; N]` fixes one): use `Vec<T>` and check the length in code".into()),
            _ => super::openai_strict::strict_hint(keyword),
        }
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Value, Vec<CapabilityError>> {
        let mut errors = Vec::new();
        let mut schema = rewrite_ref_sites(NAME, schema, cx.max_depth, &mut errors);
        let (mut optional, mut unions) = (0usize, 0usize);
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |ptr: &Pointer, node: &mut Value| -> Result<bool, ()> {
                let Value::Object(map) = node else { return Ok(true) };
                for k in DROPPED {
                    map.remove(*k);
                }
                if let Some(f) = map.get("format").and_then(Value::as_str)
                    && !FORMATS.contains(&f)
                {
                    map.remove("format");
                }
                distribute_into_branches(map);
                if is_object_schema(map) {
                    close_object(NAME, map, ptr.as_str(), &mut errors);
                }
                node_checks(map, ptr.as_str(), &mut errors);
                if let Some(Value::Object(props)) = map.get("properties") {
                    let required = map.get("required").and_then(Value::as_array);
                    let is_required = |n: &str| required.is_some_and(|r| r.iter().any(|v| v == n));
                    optional += props.keys().filter(|n| !is_required(n)).count();
                    unions += props
                        .values()
                        .filter(|p| p.get("anyOf").is_some() || p.get("type").is_some_and(Value::is_array))
                        .count();
                }
                Ok(true)
            },
            &|_| (),
        );
        one_of_to_any_of(NAME, &mut schema, cx.max_depth, &mut errors);
        root_checks(&schema, &mut errors);
        if let Some((type_name, pointer)) = find_recursion(&schema, cx.max_depth, cx.type_name) {
            errors.push(CapabilityError::Recursive { dialect: NAME.into(), type_name, pointer });
        }
        for (what, actual, max) in [
            ("optional properties (not in `required`) per request", optional, MAX_OPTIONAL),
            ("properties using `anyOf` or a type array per request", unions, MAX_UNIONS),
        ] {
            if actual > max {
                errors.push(CapabilityError::LimitExceeded {
                    dialect: NAME.into(),
                    limit: what.into(),
                    actual,
                    max,
                    pointer: String::new(),
                });
            }
        }
        sort_errors(&mut errors);
        finish(self, schema, errors, cx.max_depth)
    }
}

fn node_checks(map: &serde_json::Map<String, Value>, ptr: &str, errors: &mut Vec<CapabilityError>) {
    if let Some(n) = map.get("minItems")
        && n.as_u64().is_none_or(|n| n > 1)
    {
        errors.push(unsupported(
            NAME,
            "minItems",
            ptr,
            "only `minItems` of 0 or 1 is accepted",
            Some("a fixed-size array (`[T; N]`) cannot be expressed: use `Vec<T>` and check the length in code".into()),
        ));
    }
    if let Some(Value::Array(members)) = map.get("allOf")
        && members.iter().any(|m| m.get("$ref").is_some())
    {
        errors.push(unsupported(NAME, "allOf", ptr, "`allOf` with a `$ref` member is refused", None));
    }
    if let Some(Value::Array(values)) = map.get("enum")
        && values.iter().any(|v| v.is_object() || v.is_array())
    {
        errors.push(unsupported(
            NAME,
            "enum",
            ptr,
            "`enum` values must be strings, numbers, booleans or null",
            None,
        ));
    }
    if let Some(p) = map.get("pattern").and_then(Value::as_str)
        && ["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\B", "\\1", "\\2", "\\3", "\\k<"]
            .iter()
            .any(|x| p.contains(x))
    {
        errors.push(unsupported(
            NAME,
            "pattern",
            ptr,
            "the pattern uses lookaround, a backreference or a word boundary, which are refused",
            None,
        ));
    }
}

fn root_checks(schema: &Value, errors: &mut Vec<CapabilityError>) {
    if let Err(e) = super::mcp::root_is_object(NAME, schema) {
        errors.extend(e);
    }
    for k in ["anyOf", "oneOf", "allOf"] {
        if schema.get(k).is_some() {
            errors.push(unsupported(
                NAME,
                k,
                "",
                format!("`{k}` is refused at the top level of a tool's input schema"),
                Some("make the enum a named field of a struct".into()),
            ));
        }
    }
}

/// The first reference cycle reachable from the root: the definition that refers back to itself
/// (directly or not) and the pointer of the reference that closes the cycle.
pub(crate) fn find_recursion(
    schema: &Value,
    max_depth: usize,
    root_name: Option<&str>,
) -> Option<(String, String)> {
    // Edges: target key → the references inside it (not inside nested definition maps).
    fn refs_in(node: &Value, max_depth: usize, base: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let _ = crate::walk::visit_all(node, max_depth, &mut |ptr, n| {
            if ptr.as_str().split('/').any(|t| t == "$defs" || t == "definitions") {
                return false;
            }
            if let Some(r) = n.get("$ref").and_then(Value::as_str)
                && let Ok(tokens) = crate::refs::parse_local(r)
            {
                let key = tokens.iter().map(|t| format!("/{}", crate::pointer::escape_token(t))).collect();
                out.push((key, format!("{base}{}", ptr.as_str())));
            }
            true
        });
        out
    }
    let name_of = |key: &str| -> String {
        crate::pointer::tokens(key)
            .and_then(|t| t.last().map(|s| s.to_string()))
            .unwrap_or_else(|| root_name.unwrap_or("the root schema").to_owned())
    };
    // Iterative DFS with colours; the root is key "".
    let mut state: std::collections::HashMap<String, u8> = std::collections::HashMap::new();
    let mut stack: Vec<(String, Vec<(String, String)>)> =
        vec![(String::new(), refs_in(schema, max_depth, ""))];
    state.insert(String::new(), 1);
    while let Some((_, edges)) = stack.last_mut() {
        match edges.pop() {
            None => {
                if let Some((key, _)) = stack.pop() {
                    state.insert(key, 2);
                }
            }
            Some((target, site)) => match state.get(&target) {
                Some(1) => return Some((name_of(&target), site)),
                Some(_) => {}
                None => {
                    let Some(node) = crate::refs::resolve(schema, &format!("#{target}")) else { continue };
                    if stack.len() > max_depth {
                        return Some((name_of(&target), site));
                    }
                    state.insert(target.clone(), 1);
                    let next = refs_in(node, max_depth, &target);
                    stack.push((target, next));
                }
            },
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Value, Vec<CapabilityError>> {
        ANTHROPIC_STRICT.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn objects_close_and_optional_properties_stay_optional() {
        let out =
            run(json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}})).unwrap();
        assert_eq!(out["additionalProperties"], false);
        assert!(out.get("required").is_none());
        assert_eq!(out["properties"]["a"]["default"], "x");
    }

    #[test]
    fn unsigned_bounds_fixed_arrays_and_recursion_are_each_reported() {
        let s = json!({"type": "object", "required": ["n", "arr", "next"], "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 0},
            "arr": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3},
            "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}
        }});
        let errs = run(s).unwrap_err();
        let got: Vec<_> =
            errs.iter().map(|e| (e.pointer().to_owned(), e.keyword().map(str::to_owned))).collect();
        for want in
            [("/properties/arr", "minItems"), ("/properties/arr", "maxItems"), ("/properties/n", "minimum")]
        {
            assert!(got.contains(&(want.0.to_owned(), Some(want.1.to_owned()))), "{want:?} not in {got:?}");
        }
        assert!(errs.iter().any(|e| matches!(e, CapabilityError::Recursive { .. })), "{errs:?}");
    }

    #[test]
    fn root_unions_are_refused_at_the_top_level() {
        let errs = run(json!({"anyOf": [{"type": "object", "properties": {}}]})).unwrap_err();
        assert!(errs.iter().any(|e| e.keyword() == Some("anyOf") && e.pointer().is_empty()), "{errs:?}");
    }

    #[test]
    fn a_shared_definition_is_not_recursion() {
        let s = json!({"$defs": {"A": {"type": "string"}}, "type": "object",
                       "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/A"}}});
        assert!(find_recursion(&s, 128, None).is_none());
        assert!(run(s).is_ok());
    }
}
