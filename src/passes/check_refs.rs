//! [`CheckRefs`]: every `$ref` points at a schema in the document.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext, RefsSeen};
use serde_json::Value;

/// Refuses a schema with a `$ref` that points at nothing in the document, or at something that is
/// not a schema, naming the pointer of the reference.
///
/// A dangling reference passes any dialect that keeps references, and no validator or provider
/// can load the result. [`WellFormed`](super::WellFormed) has already refused references that are
/// not local; this pass resolves the local ones (percent-escapes, then `~` escapes, decoded: a
/// `#/$defs/Percent%25Def` names the definition `Percent%Def`, not `Percent%25Def`).
///
/// A reference into a draft-4 to 2019-09 tuple (`items: [A, B]`, `additionalItems`), which
/// `WellFormed` rewrote as `prefixItems` and `items`, is rewritten to follow it: `.../items/0`
/// becomes `.../prefixItems/0`, `.../additionalItems` becomes `.../items`, where the reference
/// points at nothing as written and at a schema as rewritten.
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
        let mut moved = Vec::new();
        crate::walk::visit_objects(root, cx.max_depth, &mut |at, node| {
            if bad.is_some() {
                return;
            }
            let Some(reference) = node.get("$ref") else { return };
            let why = match reference.as_str().map(|r| (r, crate::refs::resolve(root, r))) {
                Some((_, Some(target))) if crate::walk::is_schema(target) => return,
                Some((r, None)) if into_rewritten_tuple(root, r).is_some() => {
                    moved.extend(into_rewritten_tuple(root, r).map(|r| (at.to_string(), r)));
                    return;
                }
                Some((r, Some(_))) => format!("reference `{r}` points at a value that is not a schema"),
                Some((r, None)) => format!("reference `{r}` points at nothing in this document"),
                None => "`$ref` must be a string".to_owned(),
            };
            bad = Some((format!("{at}/$ref"), why));
        })
        .map_err(|p| cx.too_deep(p))?;
        for (at, r) in moved {
            if let Some(Value::Object(node)) = schema.pointer_mut(&at) {
                node.insert("$ref".into(), Value::String(r));
            }
        }
        match bad {
            None => Ok(()),
            Some((pointer, why)) => Err(SchemaGenerationError::Malformed {
                pointer,
                message: format!("{why}; add the definition it names, or fix the reference"),
            }),
        }
    }
}

/// `r` rewritten to follow a draft-4 tuple that `WellFormed` rewrote, when it then points at a
/// schema: `items/<i>` read as `prefixItems/<i>` and `additionalItems` as `items` where the object
/// holds `prefixItems` (and no tuple under `items`).
fn into_rewritten_tuple(root: &Value, r: &str) -> Option<String> {
    let tokens = crate::refs::parse_local(r).ok()?;
    let mut cur = root;
    let mut out = String::from("#");
    let mut changed = false;
    for (i, token) in tokens.iter().enumerate() {
        let tuple = cur.get("prefixItems").is_some_and(Value::is_array)
            && !cur.get("items").is_some_and(Value::is_array);
        let next_is_index = tokens.get(i + 1).is_some_and(|t| t.parse::<usize>().is_ok());
        let token = match token.as_str() {
            "items" if tuple && next_is_index => "prefixItems",
            "additionalItems" if tuple && cur.get("additionalItems").is_none() => "items",
            t => t,
        };
        changed |= token != tokens[i];
        cur = crate::refs::lookup(cur, std::slice::from_ref(&token.to_owned()))?;
        out.push('/');
        out.push_str(&crate::pointer::fragment_token(token));
    }
    (changed && crate::walk::is_schema(cur)).then_some(out)
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

    #[test]
    fn a_reference_into_a_rewritten_draft_4_tuple_follows_it() {
        let mut s = json!({"properties": {"q": {"prefixItems": [{"type": "string"}], "items": {"$ref": "#/properties/q/items/0"}},
            "r": {"$ref": "#/properties/q/additionalItems"}}});
        CheckRefs.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s["properties"]["q"]["items"]["$ref"], "#/properties/q/prefixItems/0");
        assert_eq!(s["properties"]["r"]["$ref"], "#/properties/q/items");
        // Where the tuple is not there, the reference still points at nothing.
        assert!(run(json!({"properties": {"q": {"items": {"$ref": "#/properties/q/items/0"}}}})).is_err());
    }
}
