//! [`Exclude`]: removes caller-injected parameters from the root object.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use serde_json::Value;

/// Removes the properties named by [`SchemaOptions::exclude`](crate::SchemaOptions::exclude) from
/// the root's `properties` and `required`.
///
/// For arguments the caller injects (a request context, a connection, a tenant id): they are not
/// the model's to choose, so the model is not told about them, and a model that guesses the name
/// cannot override them. A name that is not a
/// root property is an error: a typo would otherwise hand the injected value to the model.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "object", "properties": {"q": {}, "ctx": {}}, "required": ["ctx", "q"]});
/// let names = ["ctx".to_string()];
/// let mut cx = PassContext::new(None);
/// cx.exclude = &names;
/// toolschema::passes::Exclude.run(&mut s, &mut cx).unwrap();
/// assert_eq!(s, json!({"type": "object", "properties": {"q": {}}, "required": ["q"]}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Exclude;

impl Pass for Exclude {
    fn name(&self) -> &'static str {
        "exclude"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        let Some(first) = cx.exclude.first() else { return Ok(()) };
        let Some(Value::Object(props)) = schema.get_mut("properties") else {
            return Err(SchemaGenerationError::ExcludeOnNonObject { name: first.clone() });
        };
        // Check every name before removing any, so the error lists all the properties there are.
        if let Some(name) = cx.exclude.iter().find(|n| !props.contains_key(n.as_str())) {
            let mut available: Vec<String> = props.keys().cloned().collect();
            available.sort();
            return Err(SchemaGenerationError::UnknownExclude { name: name.clone(), available });
        }
        for name in cx.exclude {
            // Freed without recursion: CheckNesting, which bounds every value's nesting, runs
            // after the walk before this pass, but a caller may run this pass alone.
            if let Some(removed) = props.remove(name) {
                crate::walk::drop_any_depth(removed);
            }
        }
        if let Some(Value::Array(required)) = schema.get_mut("required") {
            let before = required.len();
            required.retain(|r| !r.as_str().is_some_and(|r| cx.exclude.iter().any(|e| e == r)));
            // A `required` this pass emptied goes, as schemars writes none for a type without
            // required fields: excluding a field gives the schema of the type without it.
            if required.is_empty()
                && before > 0
                && let Value::Object(root) = schema
            {
                root.remove("required");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: &mut Value, names: &[&str]) -> Result<(), SchemaGenerationError> {
        let names: Vec<String> = names.iter().map(ToString::to_string).collect();
        let mut cx = PassContext::new(None);
        cx.exclude = &names;
        Exclude.run(s, &mut cx)
    }

    #[test]
    fn unknown_name_is_an_error_listing_the_properties() {
        let mut s = json!({"properties": {"b": {}, "a": {}}});
        let e = run(&mut s, &["cxt"]).unwrap_err();
        assert_eq!(
            e,
            SchemaGenerationError::UnknownExclude {
                name: "cxt".into(),
                available: vec!["a".into(), "b".into()]
            }
        );
        assert!(e.to_string().contains("it has `a`, `b`"), "{e}");
    }

    #[test]
    fn an_unknown_name_among_known_ones_lists_every_property() {
        let mut s = json!({"properties": {"a": {}, "b": {}}, "required": ["a"]});
        let e = run(&mut s, &["a", "c"]).unwrap_err();
        assert_eq!(
            e,
            SchemaGenerationError::UnknownExclude {
                name: "c".into(),
                available: vec!["a".into(), "b".into()]
            }
        );
        assert_eq!(
            s,
            json!({"properties": {"a": {}, "b": {}}, "required": ["a"]}),
            "nothing removed on error"
        );
    }

    #[test]
    fn a_required_list_the_pass_empties_is_removed() {
        let mut s = json!({"type": "object", "properties": {"ctx": {}, "q": {}}, "required": ["ctx"]});
        run(&mut s, &["ctx"]).unwrap();
        assert_eq!(s, json!({"type": "object", "properties": {"q": {}}}));
        let mut s = json!({"type": "object", "properties": {"ctx": {}}, "required": []});
        run(&mut s, &["ctx"]).unwrap();
        assert_eq!(
            s,
            json!({"type": "object", "properties": {}, "required": []}),
            "an empty list it did not empty stays"
        );
    }

    #[test]
    fn excluding_from_a_non_object_root_is_an_error() {
        let mut s = json!({"type": "string"});
        assert!(matches!(run(&mut s, &["a"]), Err(SchemaGenerationError::ExcludeOnNonObject { .. })));
    }

    #[test]
    fn nothing_to_exclude_leaves_any_schema_alone() {
        let mut s = json!(true);
        run(&mut s, &[]).unwrap();
        assert_eq!(s, json!(true));
    }
}
