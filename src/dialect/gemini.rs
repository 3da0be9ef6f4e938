//! `GEMINI`: Gemini function `parameters` and `responseSchema`, the OpenAPI 3.0 `Schema` proto.
//!
//! The rules, with their sources ([GEM-SDK] `googleapis/js-genai:src/types.ts`
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
//! use toolschema::dialect::{self, AdaptContext, GEMINI};
//! let schema = json!({"type": "object", "properties": {
//!     "note": {"type": ["string", "null"]},
//!     "level": {"enum": [1, 2, 3]}
//! }});
//! let adapted = dialect::adapt(&GEMINI, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(adapted.schema["properties"]["note"], json!({"type": "string", "nullable": true}));
//! // Gemini lists strings only: the numbers are written as their JSON text, and restore reads them back.
//! assert_eq!(adapted.schema["properties"]["level"]["enum"], json!(["1", "2", "3"]));
//! assert_eq!(adapted.plan.restore(json!({"level": "2"})).unwrap(), json!({"level": 2}));
//! ```
//!
//! # How it works
//! Every `$ref` is inlined first, as [`INLINE_REFS`](super::INLINE_REFS) does (the expansion
//! is size-checked before it is built); a recursion is first unrolled to
//! [`AdaptContext::recursion_depth`] levels, the rest sent as JSON text that restore checks
//! against the original (`restore/rewrite/schema_text.rs`; refused in exact mode). Then the provider engine
//! (`src/dialect/provider/`) with this profile:
//! - **kept**: `type` (one value; null as `nullable: true`), `properties`, `required`, `items`,
//!   `anyOf`, `enum` of strings, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`,
//!   `minItems`, `maxItems`, `minProperties`, `maxProperties`, `format` in the list above;
//!   annotations `description`, `title` (the proto's fields, [GEM-SDK]);
//! - **closed objects**: Gemini has no `additionalProperties`. A closed object whose properties
//!   are all required becomes `maxProperties: <count>`, which admits exactly the same values
//!   (serde's externally tagged variants, `deny_unknown_fields` structs without optional
//!   fields); one with optional properties stays open, its key set checked by restore;
//! - **moved into restore**: `exclusiveMinimum`/`exclusiveMaximum` (an integer's becomes the
//!   inclusive bound next to it, exactly), `multipleOf`, `uniqueItems`, `dependentRequired`;
//! - **encoded**: `const` as a one-value `enum`; values other than strings (numbers, booleans)
//!   as their JSON text, mapped back by restore; several types as `anyOf`; maps as lists of
//!   entries, free-form objects and untyped values as JSON text, tuples as objects, a root that
//!   is not an object as `{"value": ...}`;
//! - **dropped**: `default` (older Developer API versions refused it, python-genai#699),
//!   `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`, `x-*`, other formats;
//! - **refused**: `not`, `if`, `contains`, overlapping `oneOf`, a schema that admits
//!   only null, and any key the proto lacks (a final check over the output).
//!
//! [`GEMINI_ORDERED`] also writes `propertyOrdering` (the order of `properties` in the schema it
//! gets: declaration order with [`PropertyOrder::Declaration`](crate::PropertyOrder), else sorted),
//! which Gemini 2.0 needs to keep fields in that order ([GEM-GUIDE], livekit/agents#7331).

use super::provider::{self, Enums, Profile, Refs, Style};
use super::support::sort_errors;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
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

/// The engine's parameters for Gemini's `Schema` proto ([GEM-SDK], [GEM-PROTO]).
static PROFILE: Profile = Profile {
    name: "gemini",
    refs: Refs::Inline,
    style: Style::NullableFlag,
    require_all: false,
    keep: &[
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "pattern",
    ],
    annotations: &["description", "title"],
    formats: FORMATS,
    enums: Enums::Strings,
    max_min_items: None,
    pattern_ok: |_| true,
    bound_ok: |_, _, _| true,
    lengths_beside_pattern: true,
    maps_beside_properties: true,
    case_insensitive_enums: false,
    check_kept_patterns: false,
    keeps_maps: false,
    keeps_tuples: false,
    absent_for_null: false,
    keys: None,
};

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
        self.hint_for(keyword, crate::hint::Origin::Rust)
    }

    fn hint_for(&self, keyword: &str, origin: crate::hint::Origin) -> Option<String> {
        match keyword {
            "additionalProperties" => Some(crate::hint::Advice::Map.text(origin).into()),
            _ => crate::hint::for_keyword(keyword, origin),
        }
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let name = self.name();
        let profile =
            Profile { name: if self.property_ordering { "gemini-ordered" } else { "gemini" }, ..PROFILE };
        let Adapted { mut schema, plan } = provider::adapt(&profile, schema, cx)?;
        let mut errors = Vec::new();
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |_, node: &mut Value| -> Result<bool, ()> {
                if let Value::Object(map) = node {
                    into_branches(map);
                }
                if let Value::Object(map) = node
                    && self.property_ordering
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
                Ok(true)
            },
            &|_| (),
        );
        // What the proto does not know, named key by key (the engine should never leave any).
        let hint = |key: &str| self.hint_for(key, cx.origin);
        super::support::unknown_fields(name, &schema, FIELDS, cx.max_depth, &hint, &mut errors);
        sort_errors(&mut errors);
        if errors.is_empty() { Ok(Adapted { schema, plan }) } else { Err(errors) }
    }
}

/// Vertex AI refuses any field beside `anyOf` ("other fields alongside any_of"): a union's
/// annotations and `nullable` move into each branch (a branch keeps its own `title`; the union's
/// `description` comes first in the branch's). Branches are visited after their union, so a
/// branch that is itself a union passes them on in turn.
fn into_branches(map: &mut Map<String, Value>) {
    if map.len() < 2 {
        return;
    }
    let Some(Value::Array(mut branches)) = map.remove("anyOf") else { return };
    let siblings = std::mem::take(map);
    for branch in &mut branches {
        let Value::Object(b) = branch else { continue };
        for (k, v) in &siblings {
            match (k.as_str(), b.get(k)) {
                ("description", Some(Value::String(own))) => {
                    let parent = v.as_str().unwrap_or("").trim_end();
                    let sep =
                        if parent.ends_with(['.', '!', '?', ':']) || parent.is_empty() { " " } else { ". " };
                    let joined = format!("{parent}{sep}{own}").trim_start().to_owned();
                    b.insert(k.clone(), Value::String(joined));
                }
                (_, Some(_)) => {}
                (_, None) => {
                    b.insert(k.clone(), v.clone());
                }
            }
        }
    }
    map.insert("anyOf".into(), Value::Array(branches));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
        GEMINI.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn nothing_stands_beside_any_of_for_vertex_ai() {
        let s = json!({"type": "object", "properties": {"q": {"description": "The query.", "title": "Q",
            "anyOf": [{"type": "string", "description": "Text."}, {"type": "integer"}, {"type": "null"}]}}});
        let out = run(s).unwrap().schema;
        let q = &out["properties"]["q"];
        assert_eq!(q.as_object().unwrap().keys().collect::<Vec<_>>(), ["anyOf"], "{q}");
        assert_eq!(
            q["anyOf"][0],
            json!({"type": "string", "description": "The query. Text.", "title": "Q", "nullable": true})
        );
        assert_eq!(
            q["anyOf"][1],
            json!({"type": "integer", "description": "The query.", "title": "Q", "nullable": true})
        );
    }

    #[test]
    fn nullable_shapes_become_nullable_true() {
        let out = run(json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer", "format": "int32"}}, "required": ["x"]}},
            "type": "object",
            "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}], "description": "maybe"}}
        }))
        .unwrap()
        .schema;
        assert_eq!(
            out["properties"]["p"],
            json!({"type": "object", "nullable": true, "description": "maybe", "required": ["x"],
                   "properties": {"x": {"type": "integer", "format": "int32", "minimum": i32::MIN, "maximum": i32::MAX}}})
        );
    }

    #[test]
    fn externally_tagged_variants_close_with_max_properties() {
        let s = json!({"type": "object", "required": ["e"], "properties": {"e": {"oneOf": [
            {"type": "string", "enum": ["A"]},
            {"type": "object", "properties": {"B": {"type": "integer", "format": "uint32", "minimum": 0}},
             "required": ["B"], "additionalProperties": false}
        ]}}});
        let out = run(s).unwrap().schema;
        let b = &out["properties"]["e"]["anyOf"][1];
        assert_eq!(b["maxProperties"], 1);
        assert_eq!(b["properties"]["B"]["maximum"], u32::MAX);
        assert!(b.get("additionalProperties").is_none());
    }

    #[test]
    fn maps_and_numeric_consts_are_encoded_and_recursion_is_unrolled_or_refused_in_exact_mode() {
        let out = run(json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}))
            .unwrap();
        assert_eq!(out.schema["properties"]["m"]["type"], "array");
        assert_eq!(
            out.plan.restore(json!({"m": [{"key": "k", "value": "v"}]})).unwrap(),
            json!({"m": {"k": "v"}})
        );
        let out = run(json!({"type": "object", "properties": {"c": {"const": 3}}})).unwrap();
        assert_eq!(out.schema["properties"]["c"], json!({"type": "string", "enum": ["3"]}));
        assert_eq!(out.plan.restore(json!({"c": "3"})).unwrap(), json!({"c": 3}));
        let recursive = json!({"type": "object", "properties": {"n": {"$ref": "#"}}});
        let out = run(recursive.clone()).unwrap();
        assert_eq!(out.schema["properties"]["n"]["properties"]["n"]["properties"]["n"]["type"], "string");
        let deep = json!({"n": {"n": {"n": {"n": {}}}}});
        assert_eq!(out.plan.restore(out.plan.encode(deep.clone())).unwrap(), deep);
        let errs = GEMINI.adapt(recursive, &AdaptContext::default().with_exact(true)).unwrap_err();
        assert!(matches!(errs[0], CapabilityError::Recursive { .. }));
    }

    #[test]
    fn sets_move_their_uniqueness_into_restore_and_ordering_is_optional() {
        let out = run(json!({"type": "object", "properties": {"s": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true}}}))
            .unwrap();
        assert_eq!(out.schema["properties"]["s"]["description"], "Constraints: no two items equal.");
        assert!(out.plan.restore(json!({"s": [1, 1]})).is_err());
        let out = GEMINI_ORDERED
            .adapt(
                json!({"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "string"}}}),
                &AdaptContext::default(),
            )
            .unwrap()
            .schema;
        assert_eq!(out["propertyOrdering"], json!(["a", "b"]));
    }
}
