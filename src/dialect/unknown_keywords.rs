//! Keywords draft 2020-12 does not define, left out of the JSON Schema dialects' output.
//!
//! A keyword no vocabulary of 2020-12 defines (`x-…` extensions, OpenAPI's `nullable`,
//! pydantic's `unit` from `json_schema_extra`) is an annotation to a validator that collects
//! unknown keywords, so leaving it out changes no value's verdict; a validator in a strict mode
//! refuses the whole schema over it: Ajv2020, which TypeScript MCP hosts and SDKs run, throws
//! `strict mode: unknown keyword` by default, and the host then loses the tool. So `json-schema`,
//! `strict-subset`, `inline-refs`, `mcp` and `mcp-self-contained` write only keywords 2020-12
//! defines ([`SchemaDialect::writes_defined_keywords_only`]); the provider dialects' engine drops
//! unknown keywords already.
//!
//! Two exceptions: a keyword a `$ref` points into (`{"$ref": "#/x-defs/A"}`) stays, since the
//! reference would point at nothing without it; and OpenAPI's `discriminator` stays, since the
//! input's readers give it meaning (pydantic refuses a union member without its tag even where
//! the schema gives the tag a default; a 2020-12 validator in strict mode refuses it, which the
//! SDK suite counts).
//!
//! The passes and the dialects read the schema before this step, so a keyword they take meaning
//! from (the provider dialects read pydantic's `discriminator`) is theirs to read; the restore
//! plan does not depend on annotations.
//!
//! ```
//! use serde_json::json;
//! use toolschema::SchemaOptions;
//! let schema = json!({"type": "object", "x-vendor": 1, "properties": {"a": {"type": "string", "unit": "m"}}});
//! let out = SchemaOptions::new().normalize(schema).unwrap();
//! assert_eq!(out.as_value(), &json!({"type": "object", "properties": {"a": {"type": "string"}}}));
//! ```
//!
//! [`SchemaDialect::writes_defined_keywords_only`]: super::SchemaDialect::writes_defined_keywords_only

use crate::pointer::Pointer;
use crate::vocab::keyword::DRAFT_2020_12;
use serde_json::Value;

/// Whether draft 2020-12 defines `key`.
pub(crate) fn is_defined(key: &str) -> bool {
    DRAFT_2020_12.binary_search(&key).is_ok()
}

/// Whether the step keeps `key`: a keyword 2020-12 defines, or OpenAPI's `discriminator`, whose
/// readers give it meaning 2020-12 does not: pydantic refuses a value without the tag even where
/// the schema gives the tag a default, so leaving it out would let through, for the server's
/// reader, what the input's reader refuses (the restore laws check this reading).
pub(crate) fn is_kept(key: &str) -> bool {
    is_defined(key) || key == "discriminator"
}

/// Removes every keyword 2020-12 does not define from every schema object of `schema` (within
/// `max_depth`, which the pipeline's passes already checked), except one a local `$ref` points
/// into or at.
pub(crate) fn drop_unknown_keywords(schema: &mut Value, max_depth: usize) {
    // One walk to find them and the references; nearly every schema has none, and then nothing
    // more is done.
    let mut unknown: Vec<(String, String)> = Vec::new();
    let mut refs: Vec<Pointer> = Vec::new();
    let _ = crate::walk::visit_objects_mut::<()>(
        schema,
        max_depth,
        &mut |at, node| {
            for key in node.keys() {
                if !is_kept(key) {
                    unknown.push((at.pointer().as_str().to_owned(), key.clone()));
                }
            }
            if let Some(Value::String(reference)) = node.get("$ref")
                && let Ok(tokens) = crate::refs::parse_local(reference)
            {
                refs.push(Pointer::from_tokens(&tokens));
            }
            Ok(())
        },
        &|_| (),
    );
    for (at, key) in unknown {
        let target = format!("{at}/{}", crate::pointer::escape_token(&key));
        let target = target.as_str();
        let pointed_into = refs.iter().any(|r| {
            let r = r.as_str();
            r == target || r.strip_prefix(target).is_some_and(|rest| rest.starts_with('/'))
        });
        if !pointed_into && let Some(Value::Object(node)) = schema.pointer_mut(&at) {
            node.remove(&key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_list_is_sorted_and_holds_every_keyword_the_walkers_know_of_2020_12() {
        assert!(DRAFT_2020_12.windows(2).all(|w| w[0] < w[1]), "DRAFT_2020_12 must stay sorted");
        for (keyword, _) in crate::vocab::keyword::KEYWORDS {
            // The walkers also read draft-07's forms, which the draft-2020-12 pass rewrites.
            let older = matches!(*keyword, "additionalItems" | "definitions" | "dependencies");
            assert_eq!(is_defined(keyword), !older, "{keyword}");
        }
        for keyword in crate::vocab::keyword::META_DATA.iter().chain(crate::vocab::keyword::CONTENT) {
            assert!(is_defined(keyword), "{keyword}");
        }
    }

    #[test]
    fn unknown_keywords_go_at_every_schema_position_and_nowhere_else_but_the_discriminator() {
        let mut schema = json!({
            "type": "object",
            "x-vendor": {"a": 1},
            "discriminator": {"propertyName": "k"},
            "x-order": 1,
            "properties": {
                "unit": {"type": "number", "unit": "m"},
                "list": {"type": "array", "items": {"type": "string", "x-order": 2}},
                "tagged": {"const": {"x-not-a-keyword": 1}, "default": {"unit": 1}}
            },
            "$defs": {"A": {"type": "string", "nullable": true}},
            "required": ["unit"]
        });
        drop_unknown_keywords(&mut schema, 64);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "discriminator": {"propertyName": "k"},
                "properties": {
                    "unit": {"type": "number"},
                    "list": {"type": "array", "items": {"type": "string"}},
                    "tagged": {"const": {"x-not-a-keyword": 1}, "default": {"unit": 1}}
                },
                "$defs": {"A": {"type": "string"}},
                "required": ["unit"]
            })
        );
    }

    #[test]
    fn a_keyword_a_reference_points_into_stays() {
        let mut schema = json!({
            "type": "object",
            "x-defs": {"A": {"type": "string"}},
            "x-other": 1,
            "properties": {"a": {"$ref": "#/x-defs/A"}, "b": {"$ref": "#/properties/c/x~1y"}, "c": {"x/y": {}}}
        });
        drop_unknown_keywords(&mut schema, 64);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "x-defs": {"A": {"type": "string"}},
                "properties": {"a": {"$ref": "#/x-defs/A"}, "b": {"$ref": "#/properties/c/x~1y"}, "c": {"x/y": {}}}
            })
        );
    }
}
