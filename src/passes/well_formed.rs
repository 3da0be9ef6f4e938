//! [`WellFormed`]: every subschema slot holds a schema, every `type` names a JSON type, every
//! `$ref` is a local reference.

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext, RefsSeen};
use crate::vocab::json_type::JsonType;
use crate::walk::{Location, Shape};
use serde_json::{Map, Value};

/// Refuses a schema that is not well-formed JSON Schema, naming the pointer and what to write
/// instead, and reads the foreign spellings of type names as the JSON types they stand for.
///
/// At every schema object:
/// - `type` is one type name or an array of them, each name once (a repeated one is removed). The seven JSON Schema names pass; `dict`,
///   `float` and `tuple` (the Python spellings the Berkeley Function Calling Leaderboard writes)
///   are rewritten to `object`, `number` and `array` (the one rule, [`JsonType::read`]); any other
///   name (`any`, `String`, `long`) is an error, since reading it as some type would be a guess.
///   A list that names every JSON type (`integer` is within `number`) says nothing and is
///   removed: the schema is then read as the untyped schema it is (a provider gets such a value
///   as JSON text, where without this the list became a union of every type, which no provider
///   encoding can tell apart).
/// - Every keyword that holds subschemas holds schemas (objects or booleans) in its shape: one
///   schema, an array of them, or a map of them (`$defs` that is a list is refused).
/// - A `$ref` is a string naming a place in this document (`#`, `#/$defs/Name`, any JSON pointer,
///   percent- and `~`-escapes decoded). A reference to another file or URL, or to an `$anchor`,
///   or one under a nested `$id` (which would change what it resolves against), is refused:
///   nothing downstream can follow it. Whether it points at something is
///   [`CheckRefs`](super::CheckRefs)'s question.
///
/// Without this pass, `{"type": "float"}` went through every dialect unchanged, and validators
/// and provider SDKs refused the result.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "dict", "properties": {"x": {"type": "float"}}});
/// toolschema::passes::WellFormed.run(&mut s, &mut PassContext::new(None)).unwrap();
/// assert_eq!(s, json!({"type": "object", "properties": {"x": {"type": "number"}}}));
///
/// let mut bad = json!({"type": "object", "properties": {"x": {"type": "any"}}});
/// let err = toolschema::passes::WellFormed.run(&mut bad, &mut PassContext::new(None)).unwrap_err();
/// assert_eq!(err.pointer(), Some("/properties/x/type"));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct WellFormed;

impl NodePass for WellFormed {
    fn name(&self) -> &'static str {
        "well-formed"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        if at.is_root() && cx.refs_seen == RefsSeen::Unknown {
            cx.refs_seen = RefsSeen::None;
        }
        if let Some(t) = super::member_mut(node, "type") {
            read_types(t, at)?;
            dedup_types(t);
            if names_every_type(t) {
                node.remove("type");
            }
        }
        for (key, value) in node.iter() {
            let Some(shape) = crate::walk::keyword_shape(key) else { continue };
            if !holds_schemas(key, shape, value) {
                return Err(malformed(
                    at,
                    key,
                    match shape {
                        Shape::Single => "must hold a schema (an object or a boolean)",
                        Shape::Array => "must hold an array of schemas (objects or booleans)",
                        Shape::Map => "must hold an object whose values are schemas (objects or booleans)",
                    },
                ));
            }
        }
        if let Some(reference) = super::member(node, "$ref") {
            let Value::String(reference) = reference else {
                return Err(malformed(at, "$ref", "must be a string naming a place in this document"));
            };
            if let Err(e) = crate::refs::parse_local(reference) {
                return Err(SchemaGenerationError::Malformed {
                    pointer: format!("{at}/$ref"),
                    message: format!("{e}; inline the schema it names, or add it to `$defs`"),
                });
            }
            cx.refs_seen = RefsSeen::Some;
        }
        if !at.is_root()
            && let Some(Value::String(id)) = super::member(node, "$id")
            && !id.starts_with('#')
            && (node.contains_key("$ref") || has_ref_below(node, cx.max_depth))
        {
            return Err(malformed(
                at,
                "$id",
                &format!(
                    "a nested `$id` (`{id}`) changes what the `$ref`s under it resolve against, which \
                     this crate does not follow; inline those references or remove the `$id`"
                ),
            ));
        }
        Ok(())
    }
}

impl WellFormed {
    /// What a value that is not a schema is, for an error: `the number 42`, `null`, `an array`.
    pub(crate) fn kind_of(value: &Value) -> String {
        match value {
            Value::Null => "`null`".into(),
            Value::Number(n) => format!("the number `{n}`"),
            Value::String(_) => "a string".into(),
            Value::Array(_) => "an array".into(),
            Value::Bool(_) => "a boolean".into(),
            Value::Object(_) => "an object".into(),
        }
    }
}

/// Removes a name a `type` list repeats (`["string", "null", "null"]`, or `dict` beside
/// `object` once read), keeping each name's first place: a type list is a set, and both
/// metaschemas refuse a repeated name (`uniqueItems`), so a schema that kept one would be dropped
/// by a client that checks against them.
fn dedup_types(t: &mut Value) {
    let Value::Array(names) = t else { return };
    let mut seen: Vec<Value> = Vec::with_capacity(names.len());
    names.retain(|n| {
        if seen.contains(n) {
            false
        } else {
            seen.push(n.clone());
            true
        }
    });
}

/// Whether a `type` list admits every JSON value: it names `null`, `boolean`, `object`, `array`,
/// `string` and `number`.
fn names_every_type(t: &Value) -> bool {
    let Value::Array(names) = t else { return false };
    ["null", "boolean", "object", "array", "string", "number"]
        .iter()
        .all(|want| names.iter().any(|n| n.as_str() == Some(*want)))
}

/// Rewrites a `type` keyword to JSON type names, or says which name is not one.
fn read_types(t: &mut Value, at: &Location<'_>) -> Result<(), SchemaGenerationError> {
    let one = |name: &mut String, pointer: String| -> Result<(), SchemaGenerationError> {
        match JsonType::read(name) {
            Some(json) if JsonType::is_foreign_spelling(name) => {
                json.as_str().clone_into(name);
                Ok(())
            }
            Some(_) => Ok(()),
            None => Err(SchemaGenerationError::Malformed {
                pointer,
                message: format!(
                    "`{name}` is not a JSON Schema type; use one of `object`, `array`, `string`, \
                     `number`, `integer`, `boolean`, `null` (`dict`, `float` and `tuple` are read \
                     as `object`, `number` and `array`)"
                ),
            }),
        }
    };
    match t {
        Value::String(name) => one(name, format!("{at}/type")),
        Value::Array(names) => {
            for (i, name) in names.iter_mut().enumerate() {
                let Value::String(name) = name else {
                    return Err(malformed(at, "type", "must be a type name or an array of type names"));
                };
                one(name, format!("{at}/type/{i}"))?;
            }
            Ok(())
        }
        _ => Err(malformed(at, "type", "must be a type name or an array of type names")),
    }
}

/// Whether a subschema keyword's value has the keyword's shape.
fn holds_schemas(key: &str, shape: Shape, value: &Value) -> bool {
    let schema = crate::walk::is_schema;
    match (shape, value) {
        // Draft 4 to 2019-09 `items` may hold an array of schemas (a tuple), as may `dependencies`
        // values a list of property names.
        (Shape::Single, Value::Array(items)) if key == "items" => items.iter().all(schema),
        (Shape::Single, v) => schema(v),
        (Shape::Array, Value::Array(items)) => items.iter().all(schema),
        (Shape::Map, Value::Object(entries)) if key == "dependencies" => entries
            .values()
            .all(|v| schema(v) || v.as_array().is_some_and(|a| a.iter().all(Value::is_string))),
        (Shape::Map, Value::Object(entries)) => entries.values().all(schema),
        _ => false,
    }
}

/// Whether any schema under `node` (itself excluded) has a `$ref`. Called only at a nested `$id`.
fn has_ref_below(node: &Map<String, Value>, max_depth: usize) -> bool {
    let mut found = false;
    crate::walk::for_each_child_of(node, |_, child| {
        let _ = crate::walk::visit_objects(child, max_depth, &mut |_, m| found |= m.contains_key("$ref"));
    });
    found
}

fn malformed(at: &Location<'_>, keyword: &str, what: &str) -> SchemaGenerationError {
    SchemaGenerationError::Malformed {
        pointer: format!("{at}/{}", crate::pointer::escape_token(keyword)),
        message: format!("`{keyword}` {what}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use serde_json::json;

    fn run(mut s: Value) -> Result<Value, SchemaGenerationError> {
        WellFormed.run(&mut s, &mut PassContext::new(None)).map(|()| s)
    }

    #[test]
    fn the_python_spellings_are_read_as_json_types_everywhere() {
        let s = json!({"type": "dict", "properties": {"a": {"type": ["float", "null"]}, "b": {"type": "tuple", "items": {"type": "integer"}}}});
        assert_eq!(
            run(s).unwrap(),
            json!({"type": "object", "properties": {"a": {"type": ["number", "null"]}, "b": {"type": "array", "items": {"type": "integer"}}}})
        );
    }

    #[test]
    fn a_type_list_that_names_every_json_type_is_removed() {
        let every = json!(["array", "boolean", "null", "number", "object", "string"]);
        let s = json!({"type": "object", "properties": {"a": {"type": every, "description": "any"}}});
        assert_eq!(run(s).unwrap(), json!({"type": "object", "properties": {"a": {"description": "any"}}}));
        // In the Python spellings, and with `integer` beside `number`.
        let s = json!({"type": ["dict", "tuple", "float", "integer", "string", "boolean", "null"]});
        assert_eq!(run(s).unwrap(), json!({}));
        // A list that leaves one type out says something; `integer` is not `number`.
        for kept in [
            json!(["array", "boolean", "null", "number", "object"]),
            json!(["array", "boolean", "null", "integer", "object", "string"]),
        ] {
            let s = json!({"type": kept});
            assert_eq!(run(s.clone()).unwrap(), s);
        }
    }

    #[test]
    fn a_repeated_type_name_is_removed_keeping_the_first_place() {
        let s = json!({"properties": {"a": {"type": ["string", "null", "null"]}, "b": {"type": ["dict", "null", "object"]}}});
        assert_eq!(
            run(s).unwrap(),
            json!({"properties": {"a": {"type": ["string", "null"]}, "b": {"type": ["object", "null"]}}})
        );
    }

    #[test]
    fn every_other_type_name_is_refused_with_its_pointer() {
        for (s, pointer) in [
            (json!({"type": "any"}), "/type"),
            (json!({"properties": {"x": {"type": "String"}}}), "/properties/x/type"),
            (json!({"properties": {"x": {"type": ["long", "null"]}}}), "/properties/x/type/0"),
            (json!({"items": {"type": 3}}), "/items/type"),
        ] {
            let err = run(s.clone()).unwrap_err();
            assert_eq!(err.pointer(), Some(pointer), "{s}: {err}");
        }
    }

    #[test]
    fn a_subschema_slot_that_holds_no_schema_is_refused() {
        for (s, pointer) in [
            (json!({"items": 42}), "/items"),
            (json!({"anyOf": [{"type": "string"}, "x"]}), "/anyOf"),
            (json!({"$defs": [{"type": "string"}]}), "/$defs"),
            (json!({"properties": {"a": null}}), "/properties"),
        ] {
            let err = run(s.clone()).unwrap_err();
            assert_eq!(err.pointer(), Some(pointer), "{s}: {err}");
        }
        // Draft-7 property dependencies are schemas in their own shape.
        run(json!({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}})).unwrap();
    }

    #[test]
    fn external_malformed_and_non_string_references_are_refused() {
        for s in [
            json!({"$ref": "https://example.com/s.json"}),
            json!({"$ref": "other.json#/$defs/A"}),
            json!({"$ref": "#anchor"}),
            json!({"$ref": "#/$defs/%zz"}),
            json!({"$ref": null}),
        ] {
            let err = run(s.clone()).unwrap_err();
            assert_eq!(err.pointer(), Some("/$ref"), "{s}: {err}");
        }
    }

    #[test]
    fn a_reference_under_a_nested_id_is_refused_and_a_root_id_is_fine() {
        let nested = json!({"properties": {"p": {"$id": "http://example.com/sub", "$defs": {"X": {"type": "string"}}, "$ref": "#/$defs/X"}}});
        assert_eq!(run(nested).unwrap_err().pointer(), Some("/properties/p/$id"));
        run(json!({"$id": "http://example.com/root", "$defs": {"X": {}}, "$ref": "#/$defs/X"})).unwrap();
        run(json!({"properties": {"p": {"$id": "http://example.com/sub", "type": "string"}}})).unwrap();
    }
}
