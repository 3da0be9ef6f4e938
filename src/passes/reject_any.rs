//! [`RejectAny`]: refuses an untyped schema wherever a value must be present.

use crate::error::SchemaGenerationError;
use crate::pipeline::{Pass, PassContext};
use crate::pointer::Pointer;
use crate::walk::{Depth, Step};
use serde_json::{Map, Value};

/// Refuses a schema that accepts any value (`true`, `{}`, or one with only annotations, as
/// `serde_json::Value` generates) wherever a value must be present: the root, a required property,
/// array items (`items`, `prefixItems`, `additionalItems`), map values (`additionalProperties`,
/// `patternProperties`) and union members (`anyOf`, `oneOf`), at any depth, including through a
/// `$ref` to an untyped definition.
///
/// A schema that accepts anything tells the model nothing, and the model's answer cannot be checked
/// against it: the code receives whatever comes. The fix is a declared type: a struct, an enum, or
/// a map such as `HashMap<String, T>`.
///
/// An untyped *optional* property is allowed (leaving it out is always valid, and a caller may
/// genuinely pass opaque data through), and is written in one canonical spelling: `{}` with the
/// property's annotations (`description`, `default`, ...) kept and nothing else.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "object", "properties": {"extra": {}}, "required": ["extra"]});
/// let err = toolschema::passes::RejectAny.run(&mut s, &mut PassContext::new(Some("Call"))).unwrap_err();
/// assert_eq!(err.pointer(), Some("/properties/extra"));
/// assert_eq!(err.field(), Some("Call.extra"));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct RejectAny;

/// Keywords that annotate and never constrain: a schema made only of these accepts anything.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$anchor",
    "$comment",
    "$id",
    "$schema",
    "$dynamicAnchor",
    "$vocabulary",
    "default",
    "deprecated",
    "description",
    "examples",
    "readOnly",
    "title",
    "writeOnly",
];

/// Follows at most this many `$ref` hops when deciding whether a schema is untyped.
const MAX_REF_HOPS: usize = 32;

/// Whether `schema` accepts every JSON value: `true`, an object of annotations only, or a `$ref` to
/// such a schema. A union with an untyped member is judged member by member instead, so the error
/// points at the member.
pub(crate) fn is_untyped(schema: &Value, root: &Value) -> bool {
    is_untyped_hops(schema, root, MAX_REF_HOPS, false)
}

/// Like [`is_untyped`], and also true for a union with an untyped member (`Option<Value>` spells
/// itself `anyOf: [{}, {"type": "null"}]`).
fn accepts_anything(schema: &Value, root: &Value) -> bool {
    is_untyped_hops(schema, root, MAX_REF_HOPS, true)
}

fn is_untyped_hops(schema: &Value, root: &Value, hops: usize, unions: bool) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => {
            let mut constraining = map.keys().filter(|k| !ANNOTATIONS.contains(&k.as_str()));
            match (constraining.next(), constraining.next()) {
                (None, _) => true,
                (Some(k), None) if k == "$ref" => {
                    hops > 0
                        && map
                            .get("$ref")
                            .and_then(Value::as_str)
                            .and_then(|r| crate::refs::resolve(root, r))
                            .is_some_and(|t| is_untyped_hops(t, root, hops - 1, unions))
                }
                (Some(k), None) if unions && (k == "anyOf" || k == "oneOf") => {
                    map.get(k.as_str()).and_then(Value::as_array).is_some_and(|members| {
                        members.iter().any(|m| is_untyped_hops(m, root, hops.saturating_sub(1), unions))
                    })
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Why a value must be present at a child position, or `None` if it need not be.
fn position(step: Step<'_>, required: &[&str]) -> Option<&'static str> {
    match step {
        Step::Entry("properties", name) => required.contains(&name).then_some("a required property"),
        Step::Keyword("items")
        | Step::Index("items" | "prefixItems", _)
        | Step::Keyword("additionalItems") => Some("array items"),
        Step::Keyword("additionalProperties") | Step::Entry("patternProperties", _) => Some("map values"),
        Step::Index("anyOf" | "oneOf", _) => Some("a union member"),
        _ => None,
    }
}

impl Pass for RejectAny {
    fn name(&self) -> &'static str {
        "reject-any"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        if is_untyped(schema, schema) {
            return Err(untyped(cx, String::new(), "the root"));
        }
        // Judge on a shared view, then rewrite only the optional untyped properties found.
        let mut optional_untyped = Vec::new();
        let mut ptr = Pointer::root();
        check(schema, schema, &mut ptr, Depth::new(cx.max_depth), cx, &mut optional_untyped)?;
        for pointer in optional_untyped {
            if let Some(node) = schema.pointer_mut(&pointer) {
                canonicalise(node);
            }
        }
        Ok(())
    }
}

fn untyped(cx: &PassContext<'_>, pointer: String, position: &'static str) -> SchemaGenerationError {
    SchemaGenerationError::UntypedAny { field: cx.field(&pointer), pointer, position }
}

fn check(
    node: &Value,
    root: &Value,
    ptr: &mut Pointer,
    depth: Depth,
    cx: &PassContext<'_>,
    optional_untyped: &mut Vec<String>,
) -> Result<(), SchemaGenerationError> {
    let Value::Object(map) = node else { return Ok(()) };
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut result = Ok(());
    crate::walk::for_each_child(node, |step, child| {
        if result.is_err() {
            return;
        }
        let mark = step.push_onto(ptr);
        result = (|| {
            let untyped_here = is_untyped(child, root);
            match position(step, &required) {
                Some(why) if untyped_here => return Err(untyped(cx, ptr.as_str().to_owned(), why)),
                None if matches!(step, Step::Entry("properties", _)) && accepts_anything(child, root) => {
                    optional_untyped.push(ptr.as_str().to_owned());
                    return Ok(());
                }
                _ => {}
            }
            let next = depth.descend().ok_or_else(|| cx.too_deep(ptr.as_str().to_owned()))?;
            check(child, root, ptr, next, cx, optional_untyped)
        })();
        ptr.truncate(mark);
    });
    result
}

/// `{}` with the annotations kept: the one spelling of an untyped optional property.
fn canonicalise(schema: &mut Value) {
    let kept: Map<String, Value> = match schema {
        Value::Object(map) => map
            .iter()
            .filter(|(k, _)| ANNOTATIONS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        _ => Map::new(),
    };
    *schema = Value::Object(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn err_at(mut s: Value) -> (String, String) {
        let e = RejectAny.run(&mut s, &mut PassContext::new(Some("T"))).unwrap_err();
        (e.pointer().unwrap().to_owned(), e.field().unwrap_or("").to_owned())
    }

    #[test]
    fn refuses_untyped_values_where_one_is_required() {
        let table = [
            (json!(true), "", "T"),
            (json!({"description": "anything"}), "", "T"),
            (json!({"properties": {"a": {}}, "required": ["a"]}), "/properties/a", "T.a"),
            (json!({"items": true}), "/items", "T[]"),
            (json!({"prefixItems": [{"type": "string"}, {}]}), "/prefixItems/1", "T.1"),
            (json!({"additionalProperties": true}), "/additionalProperties", "T{}"),
            (json!({"patternProperties": {"^x": {}}}), "/patternProperties/^x", "T{}"),
            (json!({"anyOf": [{"type": "string"}, true]}), "/anyOf/1", "T"),
            (
                json!({"properties": {"s": {"items": {"$ref": "#/$defs/V"}}}, "$defs": {"V": true}}),
                "/properties/s/items",
                "T.s[]",
            ),
        ];
        for (schema, pointer, field) in table {
            assert_eq!(err_at(schema.clone()), (pointer.to_owned(), field.to_owned()), "{schema}");
        }
    }

    #[test]
    fn optional_untyped_property_gets_the_canonical_spelling() {
        let mut s = json!({"properties": {"a": true, "b": {"description": "free-form", "title": "B"}, "c": {"anyOf": [{}, {"type": "null"}]}}});
        RejectAny.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(
            s,
            json!({"properties": {"a": {}, "b": {"description": "free-form", "title": "B"}, "c": {}}})
        );
    }

    #[test]
    fn typed_schemas_and_closed_maps_pass() {
        for s in [
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "string"}),
            json!({"items": {"type": "integer"}}),
            json!({"allOf": [{}]}),
            json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}}),
        ] {
            let mut v = s.clone();
            assert!(RejectAny.run(&mut v, &mut PassContext::new(None)).is_ok(), "{s}");
        }
    }

    #[test]
    fn self_referencing_definition_does_not_loop() {
        let s = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        assert!(!is_untyped(&s, &s));
    }
}
