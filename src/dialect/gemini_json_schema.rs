//! `GEMINI_JSON_SCHEMA`: Gemini's JSON Schema fields, `FunctionDeclaration.parametersJsonSchema`
//! and `GenerationConfig.responseJsonSchema` (the Interactions API's `responseFormat` takes the
//! same schema).
//!
//! The rules, with their sources ([GEM-SDK] `googleapis/js-genai:src/types.ts`, the
//! `responseJsonSchema` and `parametersJsonSchema` field docs, the same text in the python-genai,
//! C#, Rust and Swift clients; [GEM-GUIDE]
//! <https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support>; [GEM-BLOG]
//! <https://blog.google/technology/developers/gemini-api-structured-outputs>):
//! - "only the following properties are supported": `$id`, `$defs`, `$ref`, `$anchor`, `type`,
//!   `format`, `title`, `description`, `enum` (strings and numbers), `items`, `prefixItems`,
//!   `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`, `properties`,
//!   `additionalProperties`, `required`, and the non-standard `propertyOrdering` [GEM-SDK];
//! - everything else "the model ignores" [GEM-GUIDE]: `minLength`, `maxLength`, `pattern`,
//!   `const`, `default`, `allOf`, `not`, `uniqueItems`, `multipleOf`, `exclusiveMinimum`, ...
//!   are accepted and then not enforced, so a schema that relies on one is looser than it says;
//! - `oneOf` "is interpreted the same as `anyOf`" [GEM-SDK]: looser than `oneOf`;
//! - `type` may be a list, `"null"` included; `additionalProperties` is a boolean or a schema;
//!   `format` "such as `date-time`, `date`, `time`" [GEM-GUIDE] (no fuller list);
//! - a `$ref` has no sibling but `$`-prefixed ones (`responseJsonSchema`, [GEM-SDK]), or but
//!   `description` and `default` (`parametersJsonSchema`: 400 "$ref 'X' was set alongside
//!   unsupported fields", anomalyco/opencode#12295);
//! - recursion is "unrolled to a limited degree" and "may only be used within non-required
//!   properties (nullable properties are not sufficient)" [GEM-SDK];
//! - `parametersJsonSchema` "must describe an object whose properties are the parameters"
//!   [GEM-SDK];
//! - size: "very large or deeply nested schemas may be rejected" [GEM-GUIDE], with no numbers
//!   (the error reads "The specified schema produces a constraint that has too many states for
//!   serving", cline/cline#7897). The dialect counts nothing: no limit is invented.
//!
//! The other Gemini fields, `parameters` and `responseSchema`, take the OpenAPI `Schema` proto:
//! that is [`GEMINI`](super::GEMINI).
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, GEMINI_JSON_SCHEMA};
//! let schema = json!({"type": "object", "properties": {
//!     "name": {"type": "string", "maxLength": 8},
//!     "tags": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
//!     "kind": {"const": "user"}
//! }, "required": ["name"]});
//! let adapted = dialect::adapt(&GEMINI_JSON_SCHEMA, schema, &AdaptContext::default()).unwrap();
//! let props = &adapted.schema["properties"];
//! // Gemini ignores `maxLength`: stated in the description, and checked by restore.
//! assert_eq!(props["name"], json!({"type": "string", "description": "Constraints: at most 8 characters."}));
//! assert!(adapted.plan.restore(json!({"name": "too long a name"})).is_err());
//! // A map stays a map; `const`, which Gemini ignores, is a one-value `enum`.
//! assert_eq!(props["tags"]["additionalProperties"], json!({"type": "integer", "minimum": 0}));
//! assert_eq!(props["kind"], json!({"type": "string", "enum": ["user"]}));
//! ```
//!
//! # How it works
//! The provider engine (`src/dialect/provider/`) with this profile:
//! - **kept** (Gemini enforces them): `type` (a list with `"null"` included), `properties`,
//!   `required` (optional properties stay optional), `additionalProperties` (`false` on every
//!   object, as [GEM-SDK]'s own example writes it; a map's value schema), `items`, `prefixItems`
//!   (a tuple stays an array), `anyOf`, `enum` of strings and numbers, `$defs`/`$ref`
//!   (recursion included, as below), `minimum`, `maximum`, `minItems`, `maxItems`, `format`
//!   `date`, `date-time`, `time`; annotations `description`, `title`;
//! - **moved into restore** (stated in the description, checked on restore): `minLength`,
//!   `maxLength`, `pattern`, `multipleOf`, `exclusiveMinimum`/`exclusiveMaximum` (an integer's
//!   becomes the inclusive bound next to it, exactly), `uniqueItems`, `minProperties`,
//!   `maxProperties`, `dependentRequired`;
//! - **encoded**: `const` as a one-value `enum`; `enum` values that are neither strings nor
//!   numbers (booleans, objects, arrays) as their JSON text; `null` in an `enum` as a
//!   `{"type": "null"}` branch beside it (Gemini lists strings and numbers only); a map whose keys
//!   have a constraint (`propertyNames`, `patternProperties`) as a list of `{"key", "value"}`
//!   entries, each key checked by restore; free-form objects and untyped values as JSON text; a
//!   root that is not an object as `{"value": ...}`;
//! - `oneOf` as `anyOf` where the branches are provably disjoint (serde's enum encodings),
//!   `allOf` merged where that is exact, a `$ref` with annotations beside it as a one-branch
//!   `anyOf` (nothing stands beside a `$ref`);
//! - **dropped**: `default`, `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`,
//!   `x-*`, other formats (an integer format first becomes the bounds it implies);
//! - **kept as references**: definitions stay in `$defs`, never inlined (a definition shared at
//!   each level of a graph doubles at each level when inlined). A cycle must pass through a
//!   property that is not required; where one's every step is a required property, an item, a
//!   map value or a union branch, every cycle is unrolled to [`AdaptContext::recursion_depth`]
//!   levels and the rest sent as JSON text that restore checks against the original
//!   (`restore/rewrite/schema_text.rs`); exact mode refuses it, naming the `$ref` that closes it;
//! - **refused**: `not`, `if`/`then`/`else`, `contains`, `dependentSchemas`, overlapping `oneOf`,
//!   and any keyword outside the supported list (a final check over the output).

use super::provider::{self, Enums, Profile, Refs, Style};
use super::support::{sort_errors, unsupported};
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::hint::Origin;
use crate::pointer::Pointer;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Gemini's JSON Schema fields (see the module docs). Its name is `gemini-json-schema`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct GeminiJsonSchema;

/// The [`GeminiJsonSchema`] dialect.
pub static GEMINI_JSON_SCHEMA: GeminiJsonSchema = GeminiJsonSchema;

const NAME: &str = "gemini-json-schema";

/// The keywords Gemini reads ([GEM-SDK] "only the following properties are supported"), less
/// `oneOf`, which it reads as `anyOf` and which the engine never writes.
const FIELDS: &[&str] = &[
    "$anchor",
    "$defs",
    "$id",
    "$ref",
    "additionalProperties",
    "anyOf",
    "description",
    "enum",
    "format",
    "items",
    "maxItems",
    "maximum",
    "minItems",
    "minimum",
    "prefixItems",
    "properties",
    "propertyOrdering",
    "required",
    "title",
    "type",
];

/// The `format` values [GEM-GUIDE] names.
const FORMATS: &[&str] = &["date", "date-time", "time"];

/// The engine's parameters for Gemini's JSON Schema fields ([GEM-SDK], [GEM-GUIDE]).
static PROFILE: Profile = Profile {
    name: NAME,
    refs: Refs::Keep { recursion: true },
    style: Style::NullType,
    require_all: false,
    keep: &["maxItems", "maximum", "minItems", "minimum"],
    annotations: &["description", "title"],
    formats: FORMATS,
    enums: Enums::StringsAndNumbers,
    max_min_items: None,
    // Gemini ignores `pattern`: every one is moved into restore.
    pattern_ok: |_| false,
    bound_ok: |_, _, _| true,
    lengths_beside_pattern: true,
    maps_beside_properties: true,
    case_insensitive_enums: false,
    check_kept_patterns: false,
    keeps_maps: true,
    keeps_tuples: true,
    absent_for_null: false,
    keys: None,
};

impl SchemaDialect for GeminiJsonSchema {
    fn name(&self) -> &str {
        NAME
    }

    /// The keywords Gemini ignores (and `oneOf`, which it loosens): the engine never writes them,
    /// and the scan after `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$dynamicRef",
            "allOf",
            "const",
            "contains",
            "default",
            "definitions",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "if",
            "maxContains",
            "maxLength",
            "maxProperties",
            "minContains",
            "minLength",
            "minProperties",
            "multipleOf",
            "not",
            "oneOf",
            "pattern",
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
        // A cycle through required properties only is unrolled to the recursion depth, the rest
        // as JSON text (in exact mode, refused below as it stands).
        let mut cycles = Vec::new();
        if !cx.exact {
            required_cycles(&schema, cx, &mut cycles);
        }
        let Adapted { mut schema, plan } = provider::adapt_within(
            &PROFILE,
            schema,
            cx,
            provider::Limits { unroll: !cycles.is_empty(), ..Default::default() },
        )?;
        let _ = crate::walk::visit_all_mut(
            &mut schema,
            cx.max_depth,
            &mut |_, node: &mut Value| -> Result<bool, ()> {
                null_as_branch(node);
                Ok(true)
            },
            &|_| (),
        );
        let mut errors = Vec::new();
        required_cycles(&schema, cx, &mut errors);
        // What Gemini does not read, named key by key (the engine should never leave any).
        let hint = |key: &str| self.hint_for(key, cx.origin);
        super::support::unknown_fields(NAME, &schema, FIELDS, cx.max_depth, &hint, &mut errors);
        if errors.is_empty() {
            Ok(Adapted { schema, plan })
        } else {
            sort_errors(&mut errors);
            Err(errors)
        }
    }
}

/// `null` in an `enum` (`{"type": [T, "null"], "enum": [..., null]}`) as a `{"type": "null"}`
/// branch beside the enum without it, the annotations outside: the same values, with an `enum`
/// of strings and numbers only. A null-only enum is its `type` alone.
fn null_as_branch(node: &mut Value) {
    let Value::Object(m) = node else { return };
    let Some(Value::Array(values)) = m.get_mut("enum") else { return };
    if !values.contains(&Value::Null) {
        return;
    }
    values.retain(|v| !v.is_null());
    if values.is_empty() {
        m.remove("enum");
        m.insert("type".into(), "null".into());
        return;
    }
    let mut branch = std::mem::take(m);
    if let Some(Value::Array(types)) = branch.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            branch.insert("type".into(), one);
        }
    }
    for k in ["description", "title"] {
        if let Some(v) = branch.remove(k) {
            m.insert(k.to_owned(), v);
        }
    }
    m.insert("anyOf".into(), serde_json::json!([Value::Object(branch), {"type": "null"}]));
}

/// A reference in a definition (`""` for the root): the definition it names, where it is, and
/// whether the way to it passes through a property that is not required.
struct Edge {
    target: String,
    pointer: String,
    optional: bool,
}

/// The reference cycles Gemini cannot unroll: those whose every reference is reached through
/// required properties only (or none: items, map values, union branches). Each is refused at the
/// `$ref` that closes it.
fn required_cycles(schema: &Value, cx: &AdaptContext<'_>, errors: &mut Vec<CapabilityError>) {
    let mut graph = BTreeMap::new();
    graph.insert(String::new(), edges(schema, "", cx.max_depth));
    for (name, def) in schema.get("$defs").and_then(Value::as_object).into_iter().flatten() {
        let mut base = Pointer::root();
        base.push("$defs");
        base.push(name);
        graph.insert(base.as_str().to_owned(), edges(def, base.as_str(), cx.max_depth));
    }
    report(&graph, cx, errors);
}

/// The references of one definition's schema (not inside the root's `$defs`).
fn edges(schema: &Value, base: &str, max_depth: usize) -> Vec<Edge> {
    fn go(s: &Value, ptr: &mut Pointer, optional: bool, depth: usize, out: &mut Vec<Edge>) {
        let Value::Object(m) = s else { return };
        if depth == 0 {
            return;
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = crate::refs::parse_local(r)
                .map(|tokens| {
                    let mut p = Pointer::root();
                    for t in &tokens {
                        p.push(t);
                    }
                    p.as_str().to_owned()
                })
                .unwrap_or_default();
            out.push(Edge { target, pointer: ptr.as_str().to_owned(), optional });
        }
        let required: BTreeSet<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        crate::walk::for_each_child(s, |step, child| {
            if ptr.as_str().is_empty() && step.keyword() == "$defs" {
                return;
            }
            let through_optional = match step {
                crate::walk::Step::Entry("properties", name) => !required.contains(name),
                _ => false,
            };
            let mark = step.push_onto(ptr);
            go(child, ptr, optional || through_optional, depth - 1, out);
            ptr.truncate(mark);
        });
    }
    let mut out = Vec::new();
    let mut ptr = Pointer::root();
    go(schema, &mut ptr, false, max_depth, &mut out);
    for e in &mut out {
        e.pointer = format!("{base}{}", e.pointer);
    }
    out
}

/// Refuses the first cycle of references reached through required properties only, from each
/// definition in order (depth first, colours kept, so each definition is left once).
fn report(graph: &BTreeMap<String, Vec<Edge>>, cx: &AdaptContext<'_>, errors: &mut Vec<CapabilityError>) {
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    for start in graph.keys() {
        if state.contains_key(start.as_str()) {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
        state.insert(start.as_str(), 1);
        while let Some((at, next)) = stack.last_mut() {
            let edges = graph.get(*at).map_or(&[][..], Vec::as_slice);
            let Some(edge) = edges.get(*next) else {
                state.insert(at, 2);
                stack.pop();
                continue;
            };
            *next += 1;
            if edge.optional || !graph.contains_key(&edge.target) {
                continue;
            }
            match state.get(edge.target.as_str()) {
                Some(1) => {
                    errors.push(cycle_error(&edge.target, &edge.pointer, cx.origin));
                    return;
                }
                Some(_) => {}
                None => {
                    state.insert(edge.target.as_str(), 1);
                    stack.push((edge.target.as_str(), 0));
                }
            }
        }
    }
}

fn cycle_error(target: &str, pointer: &str, origin: Origin) -> CapabilityError {
    let name = crate::pointer::tokens(target)
        .and_then(|t| t.last().map(|s| format!("`{s}`")))
        .unwrap_or_else(|| "the root schema".to_owned());
    let hint = match origin {
        Origin::Rust => "make a field on the cycle optional (`Option<T>` with `#[serde(default)]`)",
        Origin::JsonSchema => "leave a property on the cycle out of `required`",
        Origin::Python => "give a field on the cycle a default (`Optional[...] = None`)",
    };
    unsupported(
        NAME,
        "$ref",
        pointer,
        format!(
            "the recursive reference at `{pointer}` leads back to {name} through required properties only: \
             Gemini unrolls recursion only within properties that are not required"
        ),
        Some(hint.to_owned()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
        GEMINI_JSON_SCHEMA.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn recursion_through_an_optional_property_stays_a_reference() {
        let s = json!({"$defs": {"N": {"type": "object", "properties": {"v": {"type": "integer"},
            "next": {"$ref": "#/$defs/N"}}, "required": ["v"]}},
            "type": "object", "properties": {"head": {"$ref": "#/$defs/N"}}, "required": ["head"]});
        let out = run(s).unwrap().schema;
        assert_eq!(out["properties"]["head"], json!({"$ref": "#/$defs/N"}));
        assert_eq!(out["$defs"]["N"]["properties"]["next"], json!({"$ref": "#/$defs/N"}));
        assert_eq!(out["$defs"]["N"]["additionalProperties"], false);
    }

    #[test]
    fn recursion_through_required_properties_only_is_unrolled_or_in_exact_mode_refused_at_the_closing_reference()
     {
        let s = json!({"$defs": {"N": {"type": "object", "properties": {"children": {"type": "array",
            "items": {"$ref": "#/$defs/N"}}}, "required": ["children"]}},
            "type": "object", "properties": {"head": {"$ref": "#/$defs/N"}}});
        let out = run(s.clone()).unwrap();
        assert!(!out.schema.to_string().contains("\"$ref\":"), "{}", out.schema);
        let tree = json!({"head": {"children": [{"children": [{"children": [{"children": []}]}]}]}});
        assert_eq!(out.plan.restore(out.plan.encode(tree.clone())).unwrap(), tree);
        let exact = AdaptContext::new(128, Some("T")).with_exact(true);
        let errs = GEMINI_JSON_SCHEMA.adapt(s, &exact).unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert_eq!(errs[0].pointer(), "/$defs/N/properties/children/items");
        assert_eq!(errs[0].keyword(), Some("$ref"));
        assert!(errs[0].to_string().contains("leads back to `N`"), "{}", errs[0]);
        // Nullable is not enough [GEM-SDK]: the property must be optional.
        let s = json!({"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}},
            "required": ["next"]});
        assert!(GEMINI_JSON_SCHEMA.adapt(s.clone(), &exact).is_err());
        assert!(run(s).is_ok());
    }

    #[test]
    fn null_in_an_enum_is_a_branch_of_its_own() {
        let s = json!({"type": "object", "properties": {"e": {"type": ["string", "null"], "enum": ["a", "b", null],
            "description": "d"}}});
        let out = run(s).unwrap();
        assert_eq!(
            out.schema["properties"]["e"],
            json!({"description": "d", "anyOf": [{"type": "string", "enum": ["a", "b"]}, {"type": "null"}]})
        );
        assert_eq!(out.plan.restore(json!({"e": null})).unwrap(), json!({"e": null}));
    }

    #[test]
    fn booleans_in_an_enum_are_text_and_tuples_stay_arrays() {
        let s = json!({"type": "object", "properties": {"b": {"const": true},
            "t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false,
                  "minItems": 2}}, "required": ["b", "t"]});
        let out = run(s).unwrap();
        assert_eq!(out.schema["properties"]["b"], json!({"type": "string", "enum": ["true"]}));
        assert_eq!(
            out.schema["properties"]["t"],
            json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "minItems": 2, "maxItems": 2})
        );
        assert_eq!(
            out.plan.restore(json!({"b": "true", "t": ["x", 1]})).unwrap(),
            json!({"b": true, "t": ["x", 1]})
        );
    }

    #[test]
    fn maps_beside_properties_keep_their_values_plan_off_the_properties() {
        let s = json!({"type": "object", "properties": {"name": {"type": "string"}},
            "additionalProperties": {"type": "string", "minLength": 2}});
        let out = run(s).unwrap();
        assert_eq!(
            out.schema["additionalProperties"],
            json!({"type": "string", "description": "Constraints: at least 2 characters."})
        );
        assert!(out.plan.restore(json!({"name": "x", "extra": "yy"})).is_ok());
        assert!(out.plan.restore(json!({"name": "x", "extra": "y"})).is_err());
    }
}
