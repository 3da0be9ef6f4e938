//! [`DropTitles`]: removes `$schema` and every `title` in a schema position.

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Removes the root's `$schema` and the `title` of every schema.
///
/// schemars titles the root with the Rust type name and, for a doc comment that starts with a
/// heading, takes that heading as a title. Neither helps a model choose a value; both cost tokens
/// and tie the hash to a name a refactor may change. Only schema positions are touched: a property
/// *named* `title` stays, and so does a `title` inside `const`, `enum`, `default` or `examples`.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"$schema": "x", "title": "T", "properties": {"title": {"title": "A"}}});
/// toolschema::passes::DropTitles.run(&mut s, &mut PassContext::new(None)).unwrap();
/// assert_eq!(s, json!({"properties": {"title": {}}}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct DropTitles;

impl NodePass for DropTitles {
    fn name(&self) -> &'static str {
        "drop-titles"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        _cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        // What goes is freed without recursion: a title need not be a string, and CheckNesting
        // (which bounds every value's nesting) runs after this walk.
        // Nearly every object has neither: look before searching to remove.
        if at.is_root()
            && super::has_member(node, "$schema")
            && let Some(removed) = node.remove("$schema")
        {
            crate::walk::drop_any_depth(removed);
        }
        if super::has_member(node, "title")
            && let Some(removed) = node.remove("title")
        {
            crate::walk::drop_any_depth(removed);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[allow(clippy::needless_pass_by_value, reason = "called with `json!` values")]
    fn check(mut before: Value, after: Value) {
        DropTitles.run(&mut before, &mut PassContext::new(None)).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn drops_titles_everywhere_but_instance_values() {
        check(
            json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "title": "Root",
                "properties": {"title": {"type": "string", "title": "Title"}},
                "$defs": {"A": {"title": "A", "default": {"title": "kept"}}},
                "items": {"anyOf": [{"title": "x"}]},
                "const": {"title": "kept"},
                "enum": [{"title": "kept"}],
                "examples": [{"title": "kept"}]
            }),
            json!({
                "properties": {"title": {"type": "string"}},
                "$defs": {"A": {"default": {"title": "kept"}}},
                "items": {"anyOf": [{}]},
                "const": {"title": "kept"},
                "enum": [{"title": "kept"}],
                "examples": [{"title": "kept"}]
            }),
        );
    }

    #[test]
    fn nested_schema_keeps_its_own_schema_keyword() {
        // `$schema` is only meaningful at the root; a nested one is left for the dialects to judge.
        check(json!({"items": {"$schema": "x"}}), json!({"items": {"$schema": "x"}}));
    }
}
