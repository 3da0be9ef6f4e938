//! [`CheckRefs`]: every `$ref` points at a schema in the document.

use crate::error::SchemaGenerationError;
use crate::pipeline::{Pass, PassContext, RefsSeen};
use serde_json::Value;

/// Refuses a schema with a `$ref` that points at nothing in the document, or at something that is
/// not a schema, naming the pointer of the reference.
///
/// A dangling reference passes any dialect that keeps references, and no validator or provider
/// can load the result. [`WellFormed`](super::WellFormed) has already refused references that are
/// not local; this pass resolves the local ones (percent-escapes, then `~` escapes, decoded: a
/// `#/$defs/Percent%25Def` names the definition `Percent%Def`, not `Percent%25Def`).
///
/// When `WellFormed` ran in the same pipeline and saw no `$ref`, this pass does not walk.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/B"}}});
/// let err = toolschema::passes::CheckRefs.run(&mut s, &mut PassContext::new(None)).unwrap_err();
/// assert_eq!(err.pointer(), Some("/properties/a/$ref"));
/// assert!(err.to_string().contains("points at nothing"), "{err}");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckRefs;

impl Pass for CheckRefs {
    fn name(&self) -> &'static str {
        "check-refs"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        if cx.refs_seen == RefsSeen::None {
            return Ok(());
        }
        let root: &Value = schema;
        let mut bad = None;
        crate::walk::visit_objects(root, cx.max_depth, &mut |at, node| {
            if bad.is_some() {
                return;
            }
            let Some(reference) = node.get("$ref") else { return };
            let why = match reference.as_str().map(|r| (r, crate::refs::resolve(root, r))) {
                Some((_, Some(target))) if crate::walk::is_schema(target) => return,
                Some((r, Some(_))) => format!("reference `{r}` points at a value that is not a schema"),
                Some((r, None)) => format!("reference `{r}` points at nothing in this document"),
                None => "`$ref` must be a string".to_owned(),
            };
            bad = Some((format!("{at}/$ref"), why));
        })
        .map_err(|p| cx.too_deep(p))?;
        match bad {
            None => Ok(()),
            Some((pointer, why)) => Err(SchemaGenerationError::Malformed {
                pointer,
                message: format!("{why}; add the definition it names, or fix the reference"),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(mut s: Value) -> Result<(), SchemaGenerationError> {
        CheckRefs.run(&mut s, &mut PassContext::new(None))
    }

    #[test]
    fn every_local_reference_that_resolves_passes() {
        run(json!({
            "$defs": {"A": {"type": "string"}, "a/b": {"type": "integer"}, "c%d": true},
            "properties": {"x": {"$ref": "#/$defs/A"}, "y": {"$ref": "#/$defs/a~1b"}, "z": {"$ref": "#/$defs/c%25d"}, "r": {"$ref": "#"}, "p": {"$ref": "#/properties/x"}}
        }))
        .unwrap();
    }

    #[test]
    fn a_reference_to_nothing_or_to_a_non_schema_is_refused_with_its_pointer() {
        // `%25` decodes to `%`: this names `Percent%Def`, which is not there.
        let literal = json!({"$defs": {"Percent%25Def": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/Percent%25Def"}}});
        assert_eq!(run(literal).unwrap_err().pointer(), Some("/properties/p/$ref"));
        let missing = json!({"items": {"$ref": "#/$defs/Missing"}});
        assert_eq!(run(missing).unwrap_err().pointer(), Some("/items/$ref"));
        let not_a_schema = json!({"properties": {"a": {"$ref": "#/required"}}, "required": ["a"]});
        let err = run(not_a_schema).unwrap_err();
        assert!(err.to_string().contains("not a schema"), "{err}");
    }
}
