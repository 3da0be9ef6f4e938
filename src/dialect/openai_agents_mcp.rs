//! `OPENAI_AGENTS_MCP`: OpenAI strict mode as openai-agents serves an MCP server's tools.
//!
//! The OpenAI Agents SDK converts each tool an MCP server lists to a strict schema
//! (`agents/mcp/util.py`, `convert_schemas_to_strict=True`) with `ensure_strict_json_schema(...,
//! _reject_open_objects=True)` (`agents/strict_schema.py`). On that path:
//! - every `$ref` left standing raises "JSON schema contains a reference whose target was not
//!   validated for strict mode" (a `$ref` with a sibling is inlined by the SDK, one level at a
//!   time, which a recursive schema never ends);
//! - an object that admits undeclared keys raises "JSON schema contains an object that permits
//!   undeclared properties ...";
//! - nesting past 100 levels raises "JSON schema is too deeply nested to process safely".
//!
//! When it raises, the SDK logs at info level and serves the tool with `strict: false`: the model
//! is no longer held to the schema, and nothing tells the user. This dialect writes what that
//! path takes unchanged, or refuses at start-up, naming the `$ref`:
//! - everything [`OPENAI_STRICT`](super::OPENAI_STRICT) does (the same rules, encodings and
//!   limits, with their sources there);
//! - **inlined**: every definition, whatever the expansion's size within the byte budget
//!   (`AdaptContext::max_bytes`), then OpenAI's limits counted on the inlined schema;
//! - **unrolled**: a recursive schema. Strict mode says recursion only with `$ref`, which this
//!   path refuses: the recursion is unrolled to [`AdaptContext::recursion_depth`] levels and the
//!   rest sent as JSON text that restore checks against the original
//!   (`restore/rewrite/schema_text.rs`), so no deeper value is taken away; where the unrolled
//!   copies nest past OpenAI's 10 levels, the objects past the tenth are cut into the same JSON
//!   text; exact mode refuses it (serve such a tool through `openai-strict`, whose path follows
//!   references).
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, OPENAI_AGENTS_MCP, OPENAI_STRICT};
//! let point = json!({"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]});
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"from": {"$ref": "#/$defs/P"}, "to": {"$ref": "#/$defs/P"}},
//!     "required": ["from", "to"],
//!     "$defs": {"P": point}
//! });
//! let adapted = dialect::adapt(&OPENAI_AGENTS_MCP, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(adapted.schema["properties"]["to"]["properties"]["x"], json!({"type": "number"}));
//! assert!(adapted.schema.get("$defs").is_none());
//!
//! let tree = json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}});
//! assert!(dialect::adapt(&OPENAI_STRICT, tree.clone(), &AdaptContext::default()).is_ok());
//! // Unrolled: two levels of `kids`, the third as JSON text restore checks.
//! let unrolled = dialect::adapt(&OPENAI_AGENTS_MCP, tree.clone(), &AdaptContext::default()).unwrap();
//! let cut = &unrolled.schema["properties"]["kids"]["items"]["properties"]["kids"]["items"];
//! assert_eq!(cut["properties"]["kids"]["items"]["type"], "string");
//! let value = json!({"kids": [{"kids": [{"kids": [{"kids": []}]}]}]});
//! assert_eq!(unrolled.plan.restore(unrolled.plan.encode(value.clone())).unwrap(), value);
//! // Exact mode refuses it, naming the reference.
//! let exact = AdaptContext::default().with_exact(true);
//! let refused = dialect::adapt(&OPENAI_AGENTS_MCP, tree, &exact).unwrap_err();
//! let refused = &refused.as_slice()[0];
//! assert_eq!((refused.keyword(), refused.pointer()), (Some("$ref"), "/properties/kids/items"));
//! ```

use super::openai_strict::{
    FORBIDDEN, MAX_TOTALS, PROFILE as STRICT, adapt_cutting_nesting, expanded_limits, expanded_totals,
    is_count, limits,
};
use super::provider::{self, Profile, Refs};
use super::support::sort_errors;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use serde_json::Value;

/// OpenAI strict mode for openai-agents' MCP tools (see the module docs). Its name is
/// `openai-agents-mcp`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenAiAgentsMcp;

/// The [`OpenAiAgentsMcp`] dialect.
pub static OPENAI_AGENTS_MCP: OpenAiAgentsMcp = OpenAiAgentsMcp;

const NAME: &str = "openai-agents-mcp";

/// OpenAI strict mode's profile under this dialect's name, recursion refused (on the input, so the
/// error points where the cycle closes there): the engine writes the same schema and plan, which
/// `adapt` then inlines.
static PROFILE: Profile = Profile { name: NAME, refs: Refs::Keep { recursion: false }, ..STRICT };

impl SchemaDialect for OpenAiAgentsMcp {
    fn name(&self) -> &str {
        NAME
    }

    /// What the engine never emits for openai-agents' MCP path: OpenAI strict mode's list, and
    /// every reference; the scan after `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        FORBIDDEN
    }

    fn hint(&self, keyword: &str) -> Option<String> {
        super::support::strict_hint(keyword)
    }

    fn hint_for(&self, keyword: &str, origin: crate::hint::Origin) -> Option<String> {
        crate::hint::for_keyword(keyword, origin)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        // Past a total (counted through the references), folded as under `openai-strict`; past
        // the nesting limit, cut. (Not every output past a total is found here: one whose inlined
        // maps make the most of its properties is refused, as in exact mode.)
        let original = (!cx.exact && may_be_past_a_count(&schema, cx.max_depth)).then(|| schema.clone());
        let first = adapt_cutting_nesting(&PROFILE, schema, cx, |out| inlined_within_limits(out, cx));
        match (first, original) {
            (Err(errors), Some(original)) if errors.iter().all(is_count) => {
                let engine = provider::adapt(&PROFILE, original.clone(), cx)?;
                let counts = |s: &Value| expanded_totals(s, cx.max_depth).to_vec();
                super::fold::past_limits(
                    &original,
                    engine,
                    &super::fold::Counts { max: &MAX_TOTALS, count: &counts, through_refs: true },
                    &|s| inlined_within_limits(provider::adapt(&PROFILE, s, cx)?, cx),
                    &is_count,
                    cx.max_depth,
                )
                .ok_or(errors)
            }
            (first, _) => first,
        }
    }
}

/// Whether the output of `schema` may be past a total once every definition is inlined: three
/// output properties for each of the input's (a property, a map's `key` and `value`), each
/// name of at most 8 characters more.
fn may_be_past_a_count(schema: &Value, max_depth: usize) -> bool {
    let [props, chars, enums] = expanded_totals(schema, max_depth);
    let props = props.saturating_mul(3).saturating_add(1);
    let [max_props, max_chars, max_enums] = MAX_TOTALS;
    props > max_props || chars.saturating_add(props.saturating_mul(8)) > max_chars || enums > max_enums
}

/// The engine's output with every definition inlined, within OpenAI's limits.
fn inlined_within_limits(out: Adapted, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
    // OpenAI's limits, counted through the references as the inlined schema will have them,
    // before it is built: a definition graph that doubles at each level is refused at the
    // cost of its size, not its expansion's.
    let mut errors = Vec::new();
    expanded_limits(NAME, &out.schema, cx.max_depth, cx.origin, &mut errors);
    if errors.is_empty() {
        let depth = super::InlineRefs::DEFAULT_MAX_DEPTH.min(cx.max_depth);
        let schema = super::inline_refs::inline_all(NAME, out.schema, cx, depth)?;
        limits(NAME, &schema, cx.max_depth, cx.origin, &mut errors);
        if errors.is_empty() {
            // The plan follows definitions by node, not by the schema's spelling: an inlined
            // definition means what the reference did.
            return Ok(Adapted { schema, plan: out.plan });
        }
    }
    sort_errors(&mut errors);
    Err(errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn adapt(schema: Value) -> Result<Value, Vec<CapabilityError>> {
        OPENAI_AGENTS_MCP.adapt(schema, &AdaptContext::default()).map(|a| a.schema)
    }

    #[test]
    fn a_definition_shared_many_times_is_inlined_past_what_openai_strict_inlines() {
        // Eight properties of a definition of eight: openai-strict keeps it (past four times the
        // size), this path cannot take a `$ref` at all.
        let leaf: serde_json::Map<String, Value> = (0..8)
            .map(|i| (format!("field_{i}"), json!({"type": "string", "description": "a field"})))
            .collect();
        let props: serde_json::Map<String, Value> =
            (0..8).map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/Leaf"}))).collect();
        let schema = json!({"type": "object", "properties": props,
            "$defs": {"Leaf": {"type": "object", "properties": leaf}}});
        let strict =
            crate::dialect::OPENAI_STRICT.adapt(schema.clone(), &AdaptContext::default()).unwrap().schema;
        assert!(strict.get("$defs").is_some(), "{strict}");
        let out = adapt(schema).unwrap();
        let text = out.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
        assert_eq!(
            out["properties"]["p7"]["anyOf"][0]["properties"]["field_7"]["type"],
            json!(["string", "null"])
        );
    }

    #[test]
    fn a_recursive_schema_is_unrolled_or_in_exact_mode_refused_naming_the_reference() {
        let schema = json!({"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}});
        let out = adapt(schema.clone()).unwrap();
        assert!(!out.to_string().contains("\"$ref\":"), "{out}");
        let errors = OPENAI_AGENTS_MCP.adapt(schema, &AdaptContext::default().with_exact(true)).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let e = &errors[0];
        assert_eq!(
            (e.dialect(), e.keyword(), e.pointer()),
            (NAME, Some("$ref"), "/$defs/Node/properties/next")
        );
    }

    #[test]
    fn the_size_limits_are_openai_strict_ones_counted_after_inlining() {
        // 100 properties of a definition of 60: 6,000 properties once inlined, past 5,000.
        let leaf: serde_json::Map<String, Value> =
            (0..60).map(|i| (format!("f{i}"), json!({"type": "integer"}))).collect();
        let props: serde_json::Map<String, Value> =
            (0..100).map(|i| (format!("p{i:03}"), json!({"$ref": "#/$defs/Leaf"}))).collect();
        let (leaf_names, names): (Vec<&String>, Vec<&String>) =
            (leaf.keys().collect(), props.keys().collect());
        let schema = json!({"type": "object", "properties": props, "required": names,
            "$defs": {"Leaf": {"type": "object", "properties": leaf, "required": leaf_names}}});
        let exact = AdaptContext::default().with_exact(true);
        let Err(errors) = OPENAI_AGENTS_MCP.adapt(schema.clone(), &exact) else {
            panic!("accepted in exact mode")
        };
        assert!(errors.iter().any(|e| e.to_string().contains("object properties in total")), "{errors:?}");
        // Reversible: the last declared properties folded, the rest within 5,000 once inlined
        // (names that sort as they are declared, so that the map's order does not matter).
        let Ok(out) = OPENAI_AGENTS_MCP.adapt(schema, &AdaptContext::default()) else { panic!("refused") };
        let folded = out.plan.adaptations().iter().filter(|a| a.kind.as_str() == "folded").count();
        assert_eq!(folded, 19);
        assert!(
            out.schema["properties"].get("p080").is_some() && out.schema["properties"].get("p081").is_none()
        );
        let full: serde_json::Map<String, Value> = (0..60).map(|i| (format!("f{i}"), json!(i))).collect();
        let value: serde_json::Map<String, Value> =
            (0..100).map(|i| (format!("p{i:03}"), Value::Object(full.clone()))).collect();
        let value = Value::Object(value);
        assert_eq!(out.plan.restore(out.plan.encode(value.clone())), Ok(value));
    }
}
