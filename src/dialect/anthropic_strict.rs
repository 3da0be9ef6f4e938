//! `ANTHROPIC_STRICT`: Claude strict tool use (`strict: true`) and JSON outputs
//! (`output_config.format`), which share one set of limits.
//!
//! The rules, with their sources ([ANT-SO]
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
//! - not listed, so taken as unsupported (failing closed): `oneOf` (except as below), `not`,
//!   `if`/`then`/`else`, `prefixItems`, `patternProperties`, `propertyNames`, `unevaluated*`,
//!   `dependent*`, `min/maxProperties`;
//! - the keys of the top-level `properties` match `^[a-zA-Z0-9_.-]{1,64}$`, or the whole request
//!   fails with a 400 ("Property keys should match pattern", freee/freee-mcp#35,
//!   ComposioHQ/composio#3500, erikmaday/unusual-whales-mcp#57); Bedrock the same, and on the top
//!   level only: a nested key passes
//!   (aws-solutions-library-samples/accelerated-intelligent-document-processing-on-aws#709);
//! - limits per request, summed over every strict schema [ANT-SO]: 24 optional properties, 16
//!   properties that use `anyOf` or a type array. The dialect checks them per schema;
//!   [`request_limits`](crate::request_limits) adds them up over a request's tools.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, ANTHROPIC_STRICT};
//! let schema = json!({"properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"], "type": "object"});
//! let adapted = dialect::adapt(&ANTHROPIC_STRICT, schema.clone(), &AdaptContext::default()).unwrap();
//! assert_eq!(adapted.schema["properties"]["n"], json!({"type": "integer", "description": "Constraints: at least 0."}));
//! assert!(adapted.plan.restore(json!({"n": -1})).is_err());
//! // Exact mode refuses instead, with the Rust shape to use.
//! let exact = AdaptContext::new(128, Some("Args")).with_exact(true);
//! let errors = dialect::adapt(&ANTHROPIC_STRICT, schema, &exact).unwrap_err();
//! assert_eq!(errors.as_slice()[0].field(), Some("Args.n"));
//! ```
//!
//! # How it works
//! The provider engine (`src/dialect/provider/`) with this profile:
//! - **kept**: `type` (one name: null is an `anyOf` branch, the form Anthropic's SDK reads),
//!   `properties`, `required` (optional properties stay optional),
//!   `additionalProperties: false`, `items`, `anyOf`, `enum` (strings, numbers, booleans, null),
//!   `const`, `$defs`/`$ref`, `pattern` without lookaround, backreferences or word boundaries,
//!   `minItems` of 0 or 1, `format` in the list above; annotations `description`, `title`,
//!   `default`;
//! - **moved into restore** (stated in the description, checked on restore): `minimum`,
//!   `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` (so every `u32`, whose
//!   schema says `minimum: 0`, and every `i32`, whose format bounds it, is described and then
//!   checked), `minLength`, `maxLength`, `minItems` above 1, `maxItems`, `uniqueItems`,
//!   `minProperties`, `maxProperties`, `dependentRequired`;
//! - **renamed**: a top-level property key outside the rule under a readable new name
//!   (`filter[id]` as `filter_id_`), which restore maps back (`restore/rewrite/keys.rs`);
//! - **encoded**: maps as lists of entries, free-form objects and untyped values as JSON text,
//!   tuples as objects, enum values that are objects or arrays as their JSON text, a root that is
//!   not an object (a union included: the top level may not be one) as `{"value": ...}`;
//! - `oneOf` as `anyOf` where the branches are provably disjoint, `allOf` merged where exact;
//! - **past 16 union properties**: the schema is written again with every optional property
//!   whose `null` reads as absent (no default, or a default of `null`) without `null`, absent
//!   standing for it: `Option<String>` as `string`, left out for `None` by the forward map;
//! - **recursion**: Anthropic refuses a cycle of references, so each is unrolled to
//!   [`AdaptContext::recursion_depth`] levels and the rest sent as JSON text that restore checks
//!   against the original (`restore/rewrite/schema_text.rs`; refused in exact mode);
//! - **folded**, still past a limit (24 optional properties, 16 union properties, counted on the
//!   output per schema): the last declared root properties that add to it, optional ones first,
//!   as few as bring it within, written as one property holding their JSON text, which restore
//!   parses and checks against their original subschemas (`dialect/fold.rs`,
//!   `restore/rewrite/fold.rs`); [`request_limits`](crate::request_limits) counts the limits over
//!   a request's tools and says what folding would do there;
//! - **refused**: `not`, `if`/`then`/`else`, `contains`, overlapping `oneOf`, a pattern Anthropic
//!   cannot run, and the limits where the root cannot be folded, or in exact mode.

use super::provider::{self, Enums, Profile, Refs, Style};
use super::support::sort_errors;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::restore::rewrite::keys;
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

pub(crate) const MAX_OPTIONAL: usize = 24;
pub(crate) const MAX_UNIONS: usize = 16;

/// The engine's parameters for Anthropic strict mode ([ANT-SO] "JSON Schema limitations").
pub(crate) const PROFILE: Profile = Profile {
    name: NAME,
    refs: Refs::Keep { recursion: false },
    style: Style::NullType,
    require_all: false,
    keep: &["minItems", "pattern"],
    annotations: &["default", "description", "title"],
    formats: FORMATS,
    enums: Enums::Primitive,
    max_min_items: Some(1),
    pattern_ok,
    bound_ok: |_, _, _| true,
    lengths_beside_pattern: true,
    maps_beside_properties: true,
    case_insensitive_enums: true,
    check_kept_patterns: true,
    keeps_maps: false,
    keeps_tuples: false,
    absent_for_null: false,
    keys: Some(keys::ANTHROPIC),
};

/// [`PROFILE`] for a schema past the limit of union properties: an optional property whose
/// `null` reads as absent is written without it (`Option<String>` as `string`, left out for
/// `None`), which is no union.
const FEWER_UNIONS: Profile = Profile { absent_for_null: true, ..PROFILE };

/// The largest repetition bound taken as a "simple" `{n,m}`: [ANT-SO] lists large ranges among
/// what its regex subset lacks and names no number, so a bound above this is moved into restore.
const MAX_REPEAT: u64 = 100;

/// Whether Anthropic's regex subset runs `pattern` ([ANT-SO] "Supported regex features"): no
/// lookaround, backreference, word boundary or large `{n,m}`.
fn pattern_ok(pattern: &str) -> bool {
    super::support::pattern_is_regular(pattern)
        && !["\\b", "\\B"].iter().any(|x| pattern.contains(x))
        && super::support::repeat_bounds(pattern).all(|n| n <= MAX_REPEAT)
}

impl SchemaDialect for AnthropicStrict {
    fn name(&self) -> &str {
        NAME
    }

    /// What the engine never emits for Anthropic; the scan after `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$dynamicRef",
            "allOf",
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
        super::support::strict_hint(keyword)
    }

    fn hint_for(&self, keyword: &str, origin: crate::hint::Origin) -> Option<String> {
        crate::hint::for_keyword(keyword, origin)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        // Past a limit, folded (kept only where the output may have that many properties at
        // all: a copy otherwise costs every call; a recursion unrolled has as many as its copies).
        let original = (!cx.exact
            && (super::fold::property_bound(&schema, cx.max_depth) > MAX_UNIONS
                || super::ref_sites::find_recursion(&schema, cx.max_depth, None).is_some()))
        .then(|| schema.clone());
        let first = Self::output(schema, cx)?;
        let errors = limit_errors(&first.schema, cx);
        match original {
            _ if errors.is_empty() => Ok(first),
            Some(original) if errors.iter().all(is_count) => {
                let counts = |s: &Value| -> Vec<usize> {
                    let (optional, unions) = parameter_counts(s, cx.max_depth);
                    vec![optional, unions]
                };
                super::fold::past_limits(
                    &original,
                    first,
                    &super::fold::Counts {
                        max: &[MAX_OPTIONAL, MAX_UNIONS],
                        count: &counts,
                        through_refs: false,
                    },
                    &|s| Self::within_limits(s, cx),
                    &is_count,
                    cx.max_depth,
                )
                .ok_or(errors)
            }
            _ => Err(errors),
        }
    }
}

/// Whether `e` is one of the per-schema counts (optional or union properties).
fn is_count(e: &CapabilityError) -> bool {
    matches!(e, CapabilityError::LimitExceeded { limit, .. } if limit == UNIONS || limit == OPTIONAL)
}

/// The per-schema limits `schema` (an output) is past, sorted.
fn limit_errors(schema: &Value, cx: &AdaptContext<'_>) -> Vec<CapabilityError> {
    let mut errors = Vec::new();
    limits(schema, cx.max_depth, cx.origin, &mut errors);
    sort_errors(&mut errors);
    errors
}

impl AnthropicStrict {
    /// The schema adapted and its counts checked: past the limit of union properties, a second
    /// try that writes fewer.
    fn within_limits(schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let out = Self::output(schema, cx)?;
        let errors = limit_errors(&out.schema, cx);
        if errors.is_empty() { Ok(out) } else { Err(errors) }
    }

    /// The schema adapted, its counts unchecked: past the limit of union properties, a second
    /// try that writes fewer (kept only where the output may have that many properties at all:
    /// a copy otherwise costs every call).
    fn output(schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let again = (super::fold::property_bound(&schema, cx.max_depth) > MAX_UNIONS).then(|| schema.clone());
        let first = Self::adapt_unchecked(&PROFILE, schema, cx)?;
        match again {
            Some(again) if parameter_counts(&first.schema, cx.max_depth).1 > MAX_UNIONS => {
                Self::adapt_unchecked(&FEWER_UNIONS, again, cx)
            }
            _ => Ok(first),
        }
    }

    fn adapt_unchecked(
        profile: &Profile,
        schema: Value,
        cx: &AdaptContext<'_>,
    ) -> Result<Adapted, Vec<CapabilityError>> {
        let Adapted { mut schema, plan } = provider::adapt(profile, schema, cx)?;
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |_, node: &mut Value| -> Result<bool, ()> {
                null_as_branch(node);
                Ok(true)
            },
            &|_| (),
        );
        Ok(Adapted { schema, plan })
    }
}

/// `{"type": [T, "null"], ...}` as `{"anyOf": [{"type": T, ...}, {"type": "null"}]}`, the
/// annotations outside: the same values, in the form Anthropic's own SDK reads
/// (`transform_schema` stops on a type array).
fn null_as_branch(node: &mut Value) {
    let Value::Object(m) = node else { return };
    let Some(Value::Array(types)) = m.get("type") else { return };
    let real: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
    if real.len() != 1 || real.len() == types.len() {
        return;
    }
    let mut branch = std::mem::take(m);
    for k in ["description", "title", "default"] {
        if let Some(v) = branch.remove(k) {
            m.insert(k.to_owned(), v);
        }
    }
    branch.insert("type".into(), real[0].clone());
    if let Some(Value::Array(values)) = branch.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    m.insert("anyOf".into(), Value::Array(vec![Value::Object(branch), serde_json::json!({"type": "null"})]));
}

/// The limit on union properties, as its error names it.
const UNIONS: &str = "properties using `anyOf` or a type array per request";

/// The limit on optional properties, as its error names it.
const OPTIONAL: &str = "optional properties (not in `required`) per request";

/// The per-schema part of [ANT-SO]'s request limits: optional properties and union properties.
fn limits(schema: &Value, max_depth: usize, origin: crate::hint::Origin, errors: &mut Vec<CapabilityError>) {
    use crate::hint::Advice;
    let (optional, unions) = parameter_counts(schema, max_depth);
    for (what, actual, max, advice) in [
        (OPTIONAL, optional, MAX_OPTIONAL, Advice::FewerOptional),
        (UNIONS, unions, MAX_UNIONS, Advice::FewerUnions),
    ] {
        if actual > max {
            errors.push(CapabilityError::LimitExceeded {
                dialect: NAME.into(),
                limit: what.into(),
                actual,
                max,
                pointer: String::new(),
                hint: Some(advice.text(origin).into()),
            });
        }
    }
}

/// A schema's optional properties (not in `required`) and union properties (`anyOf` or a type
/// array), as [ANT-SO]'s request limits count them; what a request sums over its strict tools
/// ([`request_limits`](crate::request_limits)).
pub(crate) fn parameter_counts(schema: &Value, max_depth: usize) -> (usize, usize) {
    let (mut optional, mut unions) = (0usize, 0usize);
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |_, node| {
        if let Some(Value::Object(props)) = node.get("properties") {
            let required = node.get("required").and_then(Value::as_array);
            let is_required = |n: &str| required.is_some_and(|r| r.iter().any(|v| v == n));
            optional += props.keys().filter(|n| !is_required(n)).count();
            unions += props
                .values()
                .filter(|p| p.get("anyOf").is_some() || p.get("type").is_some_and(Value::is_array))
                .count();
        }
    });
    (optional, unions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
        ANTHROPIC_STRICT.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn objects_close_and_optional_properties_stay_optional() {
        let out = run(json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}))
            .unwrap()
            .schema;
        assert_eq!(out["additionalProperties"], false);
        assert!(out.get("required").is_none());
        assert_eq!(out["properties"]["a"]["default"], "x");
    }

    #[test]
    fn bounds_and_fixed_arrays_move_into_restore_and_recursion_is_unrolled_or_refused_in_exact_mode() {
        let s = json!({"type": "object", "required": ["n", "arr"], "properties": {
            "n": {"type": "integer", "format": "uint32", "minimum": 0},
            "arr": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}
        }});
        let out = run(s).unwrap();
        assert_eq!(
            out.schema["properties"]["n"]["description"],
            "Constraints: at least 0; at most 4294967295."
        );
        assert_eq!(
            out.schema["properties"]["arr"]["description"],
            "Constraints: at least 3 items; at most 3 items."
        );
        let err = out.plan.restore(json!({"n": -1, "arr": ["a"]})).unwrap_err();
        let mut pointers: Vec<_> = err.faults().iter().map(|f| f.pointer.as_str()).collect();
        pointers.sort_unstable();
        assert_eq!(pointers, ["/arr", "/n"]);
        let s =
            json!({"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}});
        // Reversible: two levels written out, the third as JSON text checked on restore.
        let out = run(s.clone()).unwrap();
        let cut = &out.schema["properties"]["next"]["anyOf"][0]["properties"]["next"]["anyOf"][0]["properties"]
            ["next"]["anyOf"][0];
        assert_eq!(cut["type"], "string", "{}", out.schema);
        let deep = json!({"next": {"next": {"next": {"next": {"next": null}}}}});
        assert_eq!(out.plan.restore(out.plan.encode(deep.clone())).unwrap(), deep);
        let errs = ANTHROPIC_STRICT.adapt(s, &AdaptContext::default().with_exact(true)).unwrap_err();
        assert!(errs.iter().any(|e| matches!(e, CapabilityError::Recursive { .. })), "{errs:?}");
    }

    #[test]
    fn past_the_optional_limit_exact_mode_says_how_to_come_within_it_in_the_inputs_terms() {
        let props: Map<String, Value> =
            (0..25).map(|i| (format!("f{i:02}"), json!({"type": "string"}))).collect();
        let s = json!({"type": "object", "properties": props});
        for (origin, advice) in [
            (crate::hint::Origin::Rust, "no `Option`, no `#[serde(default)]`"),
            (crate::hint::Origin::JsonSchema, "list more properties in `required`"),
            (crate::hint::Origin::Python, "give fewer fields a default"),
        ] {
            let cx = AdaptContext::new(128, Some("T")).with_origin(origin).with_exact(true);
            let errs = ANTHROPIC_STRICT.adapt(s.clone(), &cx).unwrap_err();
            let text = errs[0].to_string();
            assert!(text.contains("at most 24 optional properties") && text.contains(advice), "{text}");
        }
    }

    #[test]
    fn past_the_union_limit_an_optional_null_is_left_out_and_absent_stands_for_it() {
        let props = |n: usize| -> serde_json::Map<String, Value> {
            (0..n)
                .map(|i| (format!("p{i:02}"), json!({"type": ["string", "null"], "default": null})))
                .collect()
        };
        // Within the limit: null stays a branch.
        let within = run(json!({"type": "object", "properties": props(MAX_UNIONS)})).unwrap();
        assert!(within.schema["properties"]["p00"].get("anyOf").is_some());
        // Past it: no unions, `null` left out by the forward map, nothing for restore to do.
        let past = run(json!({"type": "object", "properties": props(MAX_UNIONS + 1)})).unwrap();
        assert_eq!(past.schema["properties"]["p00"], json!({"type": "string"}));
        assert_eq!(parameter_counts(&past.schema, 128), (MAX_UNIONS + 1, 0));
        assert_eq!(past.plan.encode(json!({"p00": null, "p01": "a"})), json!({"p01": "a"}));
        assert_eq!(past.plan.restore(json!({"p01": "a"})).unwrap(), json!({"p01": "a"}));
        // A required nullable property's null is a value of its own: still a union, refused in
        // exact mode, the last declared one folded otherwise.
        let mut required = json!({"type": "object", "properties": props(MAX_UNIONS + 1)});
        required["required"] = json!(props(MAX_UNIONS + 1).keys().collect::<Vec<_>>());
        let exact = AdaptContext::new(128, Some("T")).with_exact(true);
        let errors = ANTHROPIC_STRICT.adapt(required.clone(), &exact).unwrap_err();
        assert!(errors.iter().any(|e| e.to_string().contains("anyOf")), "{errors:?}");
        let folded = run(required).unwrap();
        assert_eq!(parameter_counts(&folded.schema, 128), (0, MAX_UNIONS));
        assert_eq!(folded.schema["properties"]["more_properties"]["type"], "string");
        assert!(folded.schema["properties"].get("p16").is_none());
        // A default other than null: absent is that default, so null stays.
        let mut other = props(MAX_UNIONS + 1);
        other["p00"] = json!({"type": ["string", "null"], "default": "x"});
        let out = run(json!({"type": "object", "properties": other})).unwrap();
        assert!(out.schema["properties"]["p00"].get("anyOf").is_some());
        assert_eq!(out.schema["properties"]["p01"], json!({"type": "string"}));
    }

    #[test]
    fn past_the_optional_limit_the_last_declared_are_folded_into_json_text_and_restored() {
        let props: Map<String, Value> = (0..30)
            .map(|i| (format!("f{i:02}"), json!({"type": "integer", "minimum": 0})))
            .chain([("name".to_owned(), json!({"type": "string"}))])
            .collect();
        let s = json!({"type": "object", "properties": props, "required": ["name"]});
        let out = run(s).unwrap();
        // 30 optional: 23 kept, 7 folded into one optional property, 24 in all.
        assert_eq!(parameter_counts(&out.schema, 128).0, MAX_OPTIONAL);
        let kept = out.schema["properties"].as_object().unwrap();
        assert!(kept.contains_key("f22") && !kept.contains_key("f23") && kept.contains_key("name"));
        let folded: Vec<&str> = out
            .plan
            .adaptations()
            .iter()
            .filter(|a| a.kind == crate::restore::AdaptationKind::Folded)
            .map(|a| a.pointer.as_str())
            .collect();
        assert_eq!(folded, (23..30).map(|i| format!("/properties/f{i:02}")).collect::<Vec<_>>());
        let value = json!({"name": "x", "f00": 1, "f29": 2});
        let sent = out.plan.encode(value.clone());
        assert_eq!(sent, json!({"name": "x", "f00": 1, "more_properties": "{\"f29\":2}"}));
        assert_eq!(out.plan.restore(sent).unwrap(), value);
        let err = out.plan.restore(json!({"name": "x", "more_properties": "{\"f29\":-2}"})).unwrap_err();
        assert_eq!(err.faults()[0].pointer, "/f29");
        assert_eq!(err.faults()[0].message, "must be at least 0, got -2");
    }

    #[test]
    fn a_root_union_is_wrapped_and_restored() {
        let s = json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "string"}]});
        let out = run(s).unwrap();
        assert_eq!(out.schema["type"], "object");
        assert!(out.schema["properties"]["value"].get("anyOf").is_some());
        assert_eq!(out.plan.restore(json!({"value": "x"})).unwrap(), json!("x"));
    }

    #[test]
    fn a_shared_definition_is_not_recursion() {
        let s = json!({"$defs": {"A": {"type": "string"}}, "type": "object",
                       "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/A"}}});
        assert!(super::super::ref_sites::find_recursion(&s, 128, None).is_none());
        assert!(run(s).is_ok());
    }

    #[test]
    fn a_pattern_anthropic_cannot_run_moves_into_restore_and_a_kept_one_is_checked_too() {
        let s = json!({"type": "object", "properties": {
            "p": {"type": "string", "pattern": "^(?!x)"},
            "r": {"type": "string", "pattern": "^a{1,500}$"},
            "q": {"type": "string", "pattern": "^[a-z]+$"}
        }});
        let out = run(s).unwrap();
        let p = &out.schema["properties"]["p"];
        assert_eq!(
            p,
            &json!({"type": "string", "description": "Constraints: a string matching the pattern `^(?!x)`."})
        );
        assert!(out.schema["properties"]["r"].get("pattern").is_none(), "a large range is moved");
        assert_eq!(out.schema["properties"]["q"]["pattern"], "^[a-z]+$");
        assert!(out.plan.restore(json!({"p": "ab", "q": "ab"})).is_ok());
        let err = out.plan.restore(json!({"p": "xb", "q": "123"})).unwrap_err();
        let faults: Vec<&str> = err.faults().iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(faults, ["/p", "/q"], "{err}");
        // A map's key pattern, which Anthropic's SDK moves into the description, is checked too.
        let map = json!({"type": "object", "properties": {"m": {"type": "object",
            "patternProperties": {"^[a-z]+$": {"type": "integer"}}, "additionalProperties": false}}});
        let plan = run(map).unwrap().plan;
        assert!(plan.restore(json!({"m": [{"key": "ab", "value": 1}]})).is_ok());
        assert!(plan.restore(json!({"m": [{"key": "01", "value": 1}]})).is_err());
    }

    #[test]
    fn a_kept_pattern_is_checked_on_restore_in_exact_mode_too() {
        let s = json!({"type": "object", "properties": {"p": {"type": "string", "pattern": "^[a-z]+$"}},
            "required": ["p"]});
        let out = ANTHROPIC_STRICT.adapt(s, &AdaptContext::new(128, Some("T")).with_exact(true)).unwrap();
        assert_eq!(out.schema["properties"]["p"]["pattern"], "^[a-z]+$");
        assert_eq!(out.plan.restore(json!({"p": "ab"})), Ok(json!({"p": "ab"})));
        let err = out.plan.restore(json!({"p": "123"})).unwrap_err();
        let faults: Vec<&str> = err.faults().iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(faults, ["/p"], "{err}");
    }
}
