//! `LLGUIDANCE`: the JSON Schema llguidance compiles into a grammar, for self-hosted models whose
//! server constrains decoding with it (vLLM's and SGLang's `guided_json`/`response_format` with
//! the llguidance backend, llama.cpp's `--llguidance` builds, `guidance`).
//!
//! The rules, with their sources ([LLG-DOC] `guidance-ai/llguidance:docs/json_schema.md`;
//! [LLG-SRC] `parser/src/json/schema.rs` and `numeric.rs` of the same repository, version 1.9;
//! [LLG-RUN] its warnings and errors, from `LLMatcher.validate_grammar_with_warnings` over
//! `grammar_from("json_schema", ...)`, recorded in `tests/provider_rules`):
//! - enforced: `type` (a name or a list), `properties`, `required`, `additionalProperties`
//!   (`false` or a schema), `items`, `prefixItems`, `minItems`, `maxItems`, `anyOf`, `allOf`
//!   where it can intersect, `const`, `enum` of any values, `$ref`/`$defs` (recursion included),
//!   `minLength`, `maxLength`, `pattern` (no lookaround: "look-around ... is not supported"; no
//!   `\b`: "lookarounds not supported yet; WordUnicode"), `minimum`, `maximum`,
//!   `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf` [LLG-DOC];
//! - `format`: `date-time`, `time`, `date`, `duration`, `email`, `hostname`, `ipv4`, `ipv6`,
//!   `uuid`, `uri`; any other is an error, "Unknown format: binary" [LLG-DOC], [LLG-RUN];
//! - unimplemented, an error unless the server sets `lenient` (then ignored, silently):
//!   `uniqueItems`, `not`, `if`/`then`/`else`, `contains`, `dependentRequired`,
//!   `dependentSchemas`, `propertyNames`, `unevaluatedProperties` ("Unimplemented keys: [...]")
//!   [LLG-SRC] `IMPLEMENTED`, [LLG-RUN];
//! - `oneOf`: an error ("oneOf constraints are not supported. Enable 'coerce_one_of' ...") unless
//!   its branches are provably disjoint; with `coerce_one_of` it reads as `anyOf`, looser [LLG-DOC];
//! - `minProperties`/`maxProperties`: only where every named property is required ("min/max
//!   Properties only supported when all keys listed in \"properties\" are required") [LLG-DOC];
//!   `patternProperties` only where the patterns are disjoint [LLG-DOC];
//! - numbers: bounds are read as `f64` and an integer's cast to `i64` [LLG-SRC]
//!   `normalize_integer_bounds`: a bound past 2^63 is silently clamped (`maximum: 1e23` refuses
//!   `99999999999999999999999`), one at -2^63 or below fails ("Failed to generate regex for
//!   integer range"), and past 2^53 an `f64` no longer holds every integer; `multipleOf` is a
//!   `u32` coefficient of a power of ten, found by multiplying the `f64` by ten until it is whole
//!   ("Value for 'multipleOf' has too many digits") [LLG-SRC] `Decimal::try_from`;
//! - annotations (`title`, `description`, `default`, `examples`, `$comment`, ...) and unknown
//!   keywords are ignored [LLG-SRC] `META_AND_ANNOTATIONS`.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, LLGUIDANCE};
//! let schema = json!({"type": "object", "properties": {
//!     "tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "uniqueItems": true},
//!     "id": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64}
//! }, "required": ["tags", "id"]});
//! let adapted = dialect::adapt(&LLGUIDANCE, schema, &AdaptContext::default()).unwrap();
//! let props = &adapted.schema["properties"];
//! // llguidance enforces `maxLength`; `uniqueItems` it does not implement: checked by restore.
//! assert_eq!(props["tags"]["items"], json!({"type": "string", "maxLength": 8}));
//! assert!(props["tags"].get("uniqueItems").is_none());
//! assert!(adapted.plan.restore(json!({"tags": ["a", "a"], "id": 1})).is_err());
//! // A bound past 2^53 llguidance would round: moved into restore too.
//! assert_eq!(props["id"]["minimum"], json!(0));
//! assert!(props["id"].get("maximum").is_none());
//! ```
//!
//! # How it works
//! The provider engine (`src/dialect/provider/`) with this profile:
//! - **kept** (llguidance enforces them): `type` (a list with `"null"` included), `properties`,
//!   `required` (optional properties stay optional), `additionalProperties` (`false` on every
//!   object; a map's value schema), `items`, `prefixItems` (a tuple stays an array), `anyOf`,
//!   `const`, `enum`, `$defs`/`$ref` (recursion included), `minItems`, `maxItems`, `minLength`,
//!   `maxLength`, `pattern` without lookaround, backreferences or word boundaries (checked by
//!   restore as well: llguidance's regex syntax is Rust's, not ECMA-262's), `minimum`,
//!   `maximum`, `exclusiveMinimum`, `exclusiveMaximum` within ±2^53, `multipleOf` of an integer
//!   that is a whole number below 2^32, `format` in the list above; annotations `description`,
//!   `title`, `default`;
//! - **moved into restore** (stated in the description, checked on restore): `uniqueItems`,
//!   `minProperties`, `maxProperties`, `dependentRequired`, the numeric keywords outside the
//!   ranges above (an `i64`'s and a `u64`'s bounds among them), a pattern llguidance cannot run,
//!   and a format it does not know where restore checks it;
//! - **encoded**: a map whose keys have a constraint (`propertyNames`, `patternProperties`) as a
//!   list of `{"key", "value"}` entries, each key checked by restore; free-form objects and
//!   untyped values as JSON text; a root that is not an object as `{"value": ...}`;
//! - `oneOf` as `anyOf` where the branches are provably disjoint, `allOf` merged where exact;
//! - **dropped**: `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`, `x-*`, other
//!   formats (an integer format first becomes the bounds it implies);
//! - **refused**: `not`, `if`/`then`/`else`, `contains`, `dependentSchemas`, overlapping `oneOf`,
//!   and any keyword llguidance does not implement (a final check over the output).

use super::provider::{self, Enums, Profile, Refs, Style};
use super::support::sort_errors;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::hint::Origin;
use serde_json::Value;

/// llguidance's JSON Schema (see the module docs). Its name is `llguidance`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Llguidance;

/// The [`Llguidance`] dialect.
pub static LLGUIDANCE: Llguidance = Llguidance;

const NAME: &str = "llguidance";

/// The keywords llguidance implements or reads as annotations ([LLG-SRC] `IMPLEMENTED`,
/// `META_AND_ANNOTATIONS`) that the engine writes: no `oneOf`, `allOf`, `patternProperties`,
/// `minProperties` or `maxProperties`, which llguidance takes only in some cases.
const FIELDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "const",
    "default",
    "description",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maximum",
    "minItems",
    "minLength",
    "minimum",
    "multipleOf",
    "pattern",
    "prefixItems",
    "properties",
    "required",
    "title",
    "type",
];

/// The formats llguidance enforces [LLG-DOC]; any other is an error there.
const FORMATS: &[&str] =
    &["date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uri", "uuid"];

/// The largest magnitude of a numeric bound llguidance keeps exactly: it reads bounds as `f64`
/// and casts an integer's to `i64` ([LLG-SRC] `normalize_integer_bounds`).
const MAX_EXACT: f64 = 9_007_199_254_740_992.0;

/// The engine's parameters for llguidance ([LLG-DOC], [LLG-SRC]).
pub(crate) static PROFILE: Profile = Profile {
    name: NAME,
    refs: Refs::Keep { recursion: true },
    style: Style::NullType,
    require_all: false,
    keep: &[
        "exclusiveMaximum",
        "exclusiveMinimum",
        "maxItems",
        "maxLength",
        "maximum",
        "minItems",
        "minLength",
        "minimum",
        "multipleOf",
        "pattern",
    ],
    annotations: &["default", "description", "title"],
    formats: FORMATS,
    enums: Enums::Any,
    max_min_items: None,
    pattern_ok,
    bound_ok,
    lengths_beside_pattern: true,
    maps_beside_properties: true,
    case_insensitive_enums: false,
    check_kept_patterns: true,
    keeps_maps: true,
    keeps_tuples: true,
    absent_for_null: false,
    keys: None,
};

/// Whether llguidance's regex engine runs `pattern` as ECMA-262 reads it, near enough for
/// restore's check to settle the rest: no lookaround, backreference or word boundary.
fn pattern_ok(pattern: &str) -> bool {
    super::support::pattern_is_regular(pattern) && !["\\b", "\\B"].iter().any(|x| pattern.contains(x))
}

/// Whether llguidance enforces the numeric keyword `keyword` with this value exactly (see
/// [`MAX_EXACT`]); `multipleOf` only as a whole number of an integer below 2^32, which its
/// decimal coefficient holds without the rounding of a fraction's `f64`.
fn bound_ok(keyword: &str, t: &str, value: &Value) -> bool {
    let Some(v) = value.as_f64().filter(|v| v.is_finite()) else { return false };
    if keyword == "multipleOf" {
        return t == "integer" && v.fract() == 0.0 && v >= 1.0 && v <= f64::from(u32::MAX);
    }
    // An integer's bound must be one: llguidance rounds it inward, which is exact, but only a
    // whole number says so at a glance.
    v.abs() <= MAX_EXACT && (t != "integer" || v.fract() == 0.0)
}

impl SchemaDialect for Llguidance {
    fn name(&self) -> &str {
        NAME
    }

    /// What llguidance does not implement, or only in some cases: the engine never writes them,
    /// and the scan after `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$dynamicRef",
            "allOf",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "if",
            "maxContains",
            "maxProperties",
            "minContains",
            "minProperties",
            "not",
            "oneOf",
            "patternProperties",
            "propertyNames",
            "then",
            "unevaluatedItems",
            "unevaluatedProperties",
            "uniqueItems",
        ]
    }

    fn hint_for(&self, keyword: &str, origin: Origin) -> Option<String> {
        crate::hint::for_keyword(keyword, origin)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let adapted = provider::adapt(&PROFILE, schema, cx)?;
        // What llguidance does not implement, named key by key (the engine should never leave any).
        let mut errors = Vec::new();
        let hint = |key: &str| self.hint_for(key, cx.origin);
        super::support::unknown_fields(NAME, &adapted.schema, FIELDS, cx.max_depth, &hint, &mut errors);
        if errors.is_empty() {
            Ok(adapted)
        } else {
            sort_errors(&mut errors);
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
        LLGUIDANCE.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn bounds_past_two_to_the_53_and_fractional_multiples_are_moved_into_restore() {
        let s = json!({"type": "object", "properties": {
            "i64": {"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
            "small": {"type": "integer", "minimum": -9_007_199_254_740_992_i64, "exclusiveMaximum": 10},
            "price": {"type": "number", "multipleOf": 0.01, "exclusiveMinimum": 0},
            "even": {"type": "integer", "multipleOf": 2}
        }, "required": ["i64", "small", "price", "even"]});
        let out = run(s).unwrap();
        let p = &out.schema["properties"];
        assert_eq!(p["i64"]["type"], "integer");
        assert!(p["i64"].get("minimum").is_none() && p["i64"].get("maximum").is_none(), "{}", p["i64"]);
        assert_eq!(p["small"]["minimum"], json!(-9_007_199_254_740_992_i64));
        assert_eq!(p["small"]["exclusiveMaximum"], json!(10));
        assert!(p["price"].get("multipleOf").is_none(), "{}", p["price"]);
        assert_eq!(p["price"]["exclusiveMinimum"], json!(0));
        assert_eq!(p["even"]["multipleOf"], json!(2));
        let ok = json!({"i64": i64::MIN, "small": 0, "price": 1.25, "even": 4});
        assert_eq!(out.plan.restore(ok.clone()).unwrap(), ok);
        assert!(out.plan.restore(json!({"i64": 0, "small": 0, "price": 1.255, "even": 4})).is_err());
        assert!(out.plan.restore(json!({"i64": 1e19, "small": 0, "price": 1.25, "even": 4})).is_err());
    }

    #[test]
    fn what_llguidance_does_not_implement_is_moved_and_patterns_it_cannot_run_are_checked() {
        let s = json!({"type": "object", "properties": {
            "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true},
            "word": {"type": "string", "pattern": "\\bcat\\b"},
            "code": {"type": "string", "pattern": "^[A-Z]{2}$"},
            "blob": {"type": "string", "format": "binary"},
            "when": {"type": "string", "format": "date"},
            "opts": {"type": "object", "properties": {"a": {"type": "integer"}}, "minProperties": 1}
        }, "required": ["ids", "word", "code", "blob", "when", "opts"]});
        let out = run(s).unwrap();
        let p = &out.schema["properties"];
        assert!(p["ids"].get("uniqueItems").is_none());
        assert!(p["word"].get("pattern").is_none());
        assert_eq!(p["code"]["pattern"], "^[A-Z]{2}$");
        assert!(p["blob"].get("format").is_none());
        assert_eq!(p["when"]["format"], "date");
        assert!(p["opts"].get("minProperties").is_none());
        let good = json!({"ids": [1, 2], "word": "a cat", "code": "AB", "blob": "x", "when": "2024-01-01", "opts": {"a": 1}});
        assert_eq!(out.plan.restore(good.clone()).unwrap(), good);
        for (key, bad) in
            [("ids", json!([1, 1])), ("word", json!("concat")), ("code", json!("ab")), ("opts", json!({}))]
        {
            let mut v = good.clone();
            v[key] = bad;
            assert!(out.plan.restore(v).is_err(), "{key}");
        }
    }

    #[test]
    fn maps_tuples_enums_and_recursion_stay_as_they_are() {
        let s = json!({"$defs": {"N": {"type": "object", "properties": {"v": {"type": "integer"},
            "next": {"$ref": "#/$defs/N"}}, "required": ["v"]}},
            "type": "object", "properties": {
                "head": {"$ref": "#/$defs/N"},
                "m": {"type": "object", "additionalProperties": {"type": "integer"}},
                "t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 2},
                "e": {"type": ["string", "null"], "enum": ["x", null]}
            }, "required": ["head", "m", "t", "e"]});
        let out = run(s).unwrap();
        let p = &out.schema["properties"];
        assert_eq!(p["head"], json!({"$ref": "#/$defs/N"}));
        assert_eq!(out.schema["$defs"]["N"]["properties"]["next"], json!({"$ref": "#/$defs/N"}));
        assert_eq!(p["m"]["additionalProperties"], json!({"type": "integer"}));
        assert_eq!(p["t"]["prefixItems"], json!([{"type": "string"}, {"type": "integer"}]));
        assert_eq!(p["e"], json!({"type": ["string", "null"], "enum": ["x", null]}));
        let v = json!({"head": {"v": 1, "next": {"v": 2}}, "m": {"k": 1}, "t": ["a", 1], "e": null});
        assert_eq!(out.plan.restore(v.clone()).unwrap(), v);
    }

    #[test]
    fn not_and_overlapping_one_of_are_refused() {
        let s = json!({"type": "object", "properties": {"x": {"not": {"type": "string"}}}});
        assert!(run(s).is_err());
        let s = json!({"type": "object", "properties": {"x": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}});
        assert!(run(s).is_err());
    }
}
