//! `MCP` and `MCP_SELF_CONTAINED`: a tool's `inputSchema` under the Model Context Protocol.
//!
//! Rules (from the MCP specification `schema/<rev>/schema.ts` and
//! `docs/specification/<rev>/server/tools.mdx` in `modelcontextprotocol/modelcontextprotocol`):
//! - revisions 2025-06-18 to 2026-07-28: `inputSchema` MUST have `type: "object"` at the root;
//! - 2025-11-25 on: the default dialect is JSON Schema 2020-12, so everything else may stay;
//! - in practice many clients cannot resolve `$defs`/`$ref` (GitHub Copilot CLI #1876, Gemini CLI
//!   #13326, Cursor, Kiro, opencode, Codex). [`MCP_SELF_CONTAINED`]
//!   inlines every reference for them (as [`INLINE_REFS`](super::INLINE_REFS) does: recursion is an
//!   error, the expansion is size-checked before it is built);
//! - the clients' own checks, met by spelling the same schema another way: the MCP TypeScript SDK
//!   types a property's schema as an object (a boolean one is written as the object that means
//!   the same), and VS Code's Copilot Chat refuses a tool whose array schema has no truthy
//!   `items` (`{}` is written where `items` is absent, `{"not": {}}` for `items: false`).
//!
//! A root that is not an object (a bare `enum`, `Vec<T>`, a newtype over a scalar, an enum that
//! serialises as a `oneOf`) is wrapped as `{"value": <root>}`, and the restore plan unwraps the
//! model's arguments; in exact mode (and for a root that refers to itself, `#`) it is a
//! [`CapabilityError`]: wrap it in a struct with one named field.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, MCP};
//! let adapted = dialect::adapt(&MCP, json!({"type": "string"}), &AdaptContext::default()).unwrap();
//! assert_eq!(adapted.schema["properties"]["value"], json!({"type": "string"}));
//! assert_eq!(adapted.plan.restore(json!({"value": "x"})).unwrap(), json!("x"));
//! let exact = AdaptContext::default().with_exact(true);
//! let errors = dialect::adapt(&MCP, json!({"type": "string"}), &exact).unwrap_err();
//! assert_eq!(errors.as_slice()[0].keyword(), Some("type"));
//! ```

use super::inline_refs::{InlineRefs, inline_all};
use super::support::unsupported;
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::restore::RestorePlan;
use crate::restore::rewrite::{Style, wrap};
use serde_json::{Map, Value};

/// A tool `inputSchema` for MCP; with `self_contained`, also free of `$ref`. Names: `mcp`,
/// `mcp-self-contained`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mcp {
    self_contained: bool,
}

/// MCP `inputSchema`: the root must be `type: "object"`; `$defs`/`$ref` stay.
pub static MCP: Mcp = Mcp { self_contained: false };

/// MCP `inputSchema` for clients that cannot resolve references: the root must be
/// `type: "object"`, and every `$ref` is inlined (no `$defs`).
pub static MCP_SELF_CONTAINED: Mcp = Mcp { self_contained: true };

const INLINED: &[&str] = &["$ref", "$defs", "definitions", "$dynamicRef", "$recursiveRef"];

impl SchemaDialect for Mcp {
    fn name(&self) -> &str {
        if self.self_contained { "mcp-self-contained" } else { "mcp" }
    }

    fn writes_defined_keywords_only(&self) -> bool {
        true
    }

    fn forbidden_keywords(&self) -> &[&str] {
        if self.self_contained { INLINED } else { &[] }
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let schema = if self.self_contained {
            inline_all(self.name(), schema, cx, InlineRefs::DEFAULT_MAX_DEPTH.min(cx.max_depth))?
        } else {
            schema
        };
        let mut adapted = match root_is_object(self.name(), &schema, cx.origin) {
            Ok(()) => Adapted { schema, plan: RestorePlan::identity() },
            Err(errors) if cx.exact || refers_to_root(&schema, cx.max_depth) => return Err(errors),
            Err(_) => wrap(schema, cx.max_depth),
        };
        client_spellings(&mut adapted.schema, cx.max_depth);
        Ok(adapted)
    }
}

/// A root that is not an object as `{"value": <root>}`, its definitions kept at the new root, and
/// the plan that unwraps it.
fn wrap(schema: Value, max_depth: usize) -> Adapted {
    let mut inner = schema;
    let mut defs = Vec::new();
    if let Value::Object(m) = &mut inner {
        for k in ["$defs", "definitions"] {
            if let Some(d) = m.remove(k) {
                defs.push((k.to_owned(), d));
            }
        }
    }
    let mut outer = wrap::write(inner, Style::NullType);
    outer.extend(defs);
    let adaptations = vec![crate::restore::Adaptation {
        pointer: String::new(),
        kind: crate::restore::AdaptationKind::WrappedRoot,
        keyword: "type".into(),
    }];
    let outer = Value::Object(outer);
    // Unwrap, then turn integral floats into integers below, as for an object root (built from
    // the wrapped schema, whose references resolve from its root).
    let plan = super::provider::integer_plan(&outer, max_depth).unwrapping(wrap::KEY, adaptations);
    Adapted { schema: outer, plan }
}

/// The schema spelled as MCP clients check it, in one walk: [`no_boolean_properties`] and
/// [`array_says_items`] at every schema object. Both write what means the same.
fn client_spellings(schema: &mut Value, max_depth: usize) {
    if let Value::Bool(b) = schema {
        // A bare boolean root has no `properties`, but the wrap put it under one.
        *schema = object_for(*b);
        return;
    }
    // The depth was bounded by the pipeline; past the budget nothing is rewritten.
    let _ = crate::walk::visit_objects_mut::<()>(
        schema,
        max_depth,
        &mut |_, m| {
            no_boolean_properties(m);
            array_says_items(m);
            Ok(())
        },
        &|_| (),
    );
}

/// The object that means what a boolean schema does: `true` as `{}`, `false` as `{"not": {}}`.
fn object_for(b: bool) -> Value {
    if b { Value::Object(Map::new()) } else { serde_json::json!({"not": {}}) }
}

/// Every boolean subschema under `properties` as the object that means the same: the MCP
/// TypeScript SDK, the client of most MCP hosts, types a property's schema as an object and
/// refuses the tool list otherwise.
fn no_boolean_properties(m: &mut Map<String, Value>) {
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        for v in props.values_mut() {
            if let Value::Bool(b) = v {
                *v = object_for(*b);
            }
        }
    }
}

/// An array schema with an `items` an MCP client reads as present: `{}` where `items` is absent
/// (a tuple's `prefixItems` alone, an array of anything), `{"not": {}}` for `items: false` (a
/// closed tuple). VS Code's Copilot Chat refuses a tool whose schema has `type: "array"` without
/// a truthy `items` ("tool parameters array type must have items"), and with it the whole
/// server's tool list.
fn array_says_items(m: &mut Map<String, Value>) {
    let array = match m.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
        _ => false,
    };
    if !array {
        return;
    }
    match m.get("items") {
        None => {
            m.insert("items".into(), object_for(true));
        }
        Some(Value::Bool(false)) => {
            m.insert("items".into(), object_for(false));
        }
        Some(_) => {}
    }
}

/// Whether anything in the schema refers to its root (`#`), which a wrapper would move.
fn refers_to_root(schema: &Value, max_depth: usize) -> bool {
    let mut found = false;
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |_, m| {
        found |= m.get("$ref").and_then(Value::as_str) == Some("#");
    });
    found
}

/// The MCP (and Anthropic, OpenAI) rule that the root is `type: "object"`.
pub(crate) fn root_is_object(
    dialect: &str,
    schema: &Value,
    origin: crate::hint::Origin,
) -> Result<(), Vec<CapabilityError>> {
    if schema.get("type") == Some(&Value::String("object".into())) {
        return Ok(());
    }
    // A union of objects at the root is a struct that flattens an enum (or an enum of structs):
    // wrapping it in a struct is the fix only for the latter, naming the enum's field for both.
    let union_of_objects = ["anyOf", "oneOf"].iter().any(|k| {
        schema.get(*k).and_then(Value::as_array).is_some_and(|members| {
            !members.is_empty()
                && members.iter().all(|m| m.get("type") == Some(&Value::String("object".into())))
        })
    });
    let hint = if union_of_objects {
        crate::hint::Advice::RootUnionOfObjects.text(origin)
    } else {
        crate::hint::Advice::WrapRoot.text(origin)
    };
    Err(vec![unsupported(
        dialect,
        "type",
        "",
        "the root schema must be `\"type\": \"object\"` (tool arguments are a JSON object)",
        Some(hint.into()),
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn non_object_roots_are_wrapped_or_in_exact_mode_refused_and_object_roots_pass_unchanged() {
        let cx = AdaptContext::default();
        let exact = AdaptContext::default().with_exact(true).with_origin(crate::hint::Origin::Rust);
        let obj = json!({"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "type": "object"});
        assert_eq!(MCP.adapt(obj.clone(), &cx).unwrap().schema, obj);
        for root in [json!({"type": ["object", "null"]}), json!({"oneOf": []}), json!({"enum": ["a"]})] {
            let errors = MCP.adapt(root.clone(), &exact).unwrap_err();
            assert_eq!(errors[0].pointer(), "");
            assert!(errors[0].to_string().contains("wrap the value in a struct"), "{}", errors[0]);
            let wrapped = MCP.adapt(root.clone(), &cx).unwrap();
            assert_eq!(wrapped.schema["properties"]["value"], root);
            assert_eq!(wrapped.plan.restore(json!({"value": "a"})).unwrap(), json!("a"));
        }
        // Definitions move to the new root, where `#/$defs/...` still finds them.
        let list =
            json!({"$defs": {"A": {"type": "string"}}, "type": "array", "items": {"$ref": "#/$defs/A"}});
        assert_eq!(MCP.adapt(list, &cx).unwrap().schema["$defs"]["A"], json!({"type": "string"}));
        // A root that refers to itself cannot move.
        assert!(MCP.adapt(json!({"type": "array", "items": {"$ref": "#"}}), &cx).is_err());
        // Regression: a struct that flattens an enum is a struct already.
        let flattened = json!({"anyOf": [
            {"type": "object", "properties": {"id": {"type": "integer"}, "A": {"type": "integer"}}, "required": ["A", "id"]},
            {"type": "object", "properties": {"id": {"type": "integer"}, "B": {"type": "string"}}, "required": ["B", "id"]}
        ]});
        let error = &MCP.adapt(flattened, &exact).unwrap_err()[0];
        assert!(!error.to_string().contains("wrap the value"), "{error}");
        assert!(error.to_string().contains("put the enum in a named field"), "{error}");
        // A foreign schema's advice is in JSON Schema terms.
        let foreign = AdaptContext::default().with_exact(true);
        let error = &MCP.adapt(json!({"type": "array"}), &foreign).unwrap_err()[0];
        assert!(error.to_string().contains("make the root an object"), "{error}");
        assert!(!error.to_string().contains("struct"), "{error}");
    }

    #[test]
    fn no_boolean_subschema_is_written_under_properties_for_the_mcp_typescript_sdk() {
        let cx = AdaptContext::default();
        for (root, inner) in [(json!(true), json!({})), (json!(false), json!({"not": {}}))] {
            let out = MCP.adapt(root, &cx).unwrap();
            assert_eq!(out.schema["properties"]["value"], inner);
        }
        let nested = json!({"type": "object", "properties": {"a": true, "b": {"type": "object", "properties": {"c": false}}}});
        let out = MCP.adapt(nested, &cx).unwrap().schema;
        assert_eq!(out["properties"]["a"], json!({}));
        assert_eq!(out["properties"]["b"]["properties"]["c"], json!({"not": {}}));
    }

    #[test]
    fn every_array_has_an_items_a_client_reads_as_present() {
        let cx = AdaptContext::default();
        let schema = json!({"type": "object", "properties": {
            "any": {"type": "array"},
            "nullable": {"type": ["array", "null"]},
            "tuple": {"type": "array", "prefixItems": [{"type": "string"}], "maxItems": 1},
            "closed": {"type": "array", "prefixItems": [{"type": "string"}], "items": false},
            "listed": {"type": "array", "items": {"type": "string"}},
            "open": {"type": "array", "items": true},
            "untyped": {"prefixItems": [{"type": "string"}]}
        }});
        for dialect in [&MCP, &MCP_SELF_CONTAINED] {
            let out = dialect.adapt(schema.clone(), &cx).unwrap().schema;
            let items = |k: &str| out["properties"][k].get("items").cloned();
            assert_eq!(items("any"), Some(json!({})));
            assert_eq!(items("nullable"), Some(json!({})));
            assert_eq!(items("tuple"), Some(json!({})));
            assert_eq!(items("closed"), Some(json!({"not": {}})));
            assert_eq!(items("listed"), Some(json!({"type": "string"})));
            assert_eq!(items("open"), Some(json!(true)));
            // Only a schema that says `array` is read by the client's check.
            assert_eq!(items("untyped"), None);
        }
        // In definitions too, where a client that inlines references reads them.
        let defs = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "array"}}});
        assert_eq!(MCP.adapt(defs, &cx).unwrap().schema["$defs"]["A"]["items"], json!({}));
    }

    #[test]
    fn self_contained_variant_inlines_and_still_checks_the_root() {
        let cx = AdaptContext::default();
        let obj = json!({"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}, "type": "object"});
        let out = MCP_SELF_CONTAINED.adapt(obj, &cx).unwrap().schema;
        assert_eq!(out, json!({"properties": {"a": {"type": "string"}}, "type": "object"}));
        let rec = json!({"properties": {"next": {"$ref": "#"}}, "type": "object"});
        assert!(matches!(
            MCP_SELF_CONTAINED.adapt(rec, &cx).unwrap_err()[0],
            CapabilityError::Recursive { .. }
        ));
    }
}
