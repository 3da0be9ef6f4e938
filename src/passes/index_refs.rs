//! [`IndexRefs`]: notes where every `$ref` is, so [`PruneDefs`](super::PruneDefs) needs no walk.

use crate::error::SchemaGenerationError;
use crate::pipeline::{NodePass, Pass, PassContext};
use crate::walk::{Location, Step};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Records every `$ref` string in the schema with where it stands: under which root definition
/// (`$defs/Name`, `definitions/Name`), or elsewhere, and then under which root property.
///
/// It changes nothing. It is a node pass, so it rides on the walk the other node passes share, and
/// [`PruneDefs`](super::PruneDefs) finds what each definition references in the index instead of
/// walking the schema again. The index describes the schema as this pass saw it: the one pass
/// between the two, [`Exclude`](super::Exclude), removes root properties, whose references
/// `PruneDefs` then leaves out; the first `PruneDefs` takes the index, and any later run walks.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// use toolschema::passes::{IndexRefs, PruneDefs};
/// let mut s = json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}, "B": {}}});
/// let mut cx = PassContext::new(None);
/// IndexRefs.run(&mut s, &mut cx).unwrap();
/// PruneDefs.run(&mut s, &mut cx).unwrap();
/// assert_eq!(s, json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexRefs;

/// Where the references of a schema are (see [`IndexRefs`]).
#[derive(Debug, Default)]
pub(crate) struct RefIndex {
    /// References outside the root's definition maps, each with the root property it is under.
    pub(crate) outside: Vec<(Option<String>, String)>,
    /// References inside each root definition, per map (`$defs`, then `definitions`).
    pub(crate) inside: [HashMap<String, Vec<String>>; 2],
}

impl Pass for IndexRefs {
    fn name(&self) -> &'static str {
        "index-refs"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        crate::pipeline::run_node_passes(&[self], schema, cx)
    }

    fn as_node_pass(&self) -> Option<&dyn NodePass> {
        Some(self)
    }
}

impl NodePass for IndexRefs {
    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        if at.is_root() {
            // The root comes first: a fresh index, even if no reference follows.
            cx.refs = Some(RefIndex::default());
        }
        let (Some(Value::String(reference)), Some(index)) = (node.get("$ref"), cx.refs.as_mut()) else {
            return Ok(());
        };
        match at.first_step() {
            Some(Step::Entry(map @ ("$defs" | "definitions"), name)) => index.inside
                [usize::from(map != "$defs")]
            .entry(name.to_owned())
            .or_default()
            .push(reference.clone()),
            Some(Step::Entry("properties", name)) => {
                index.outside.push((Some(name.to_owned()), reference.clone()))
            }
            _ => index.outside.push((None, reference.clone())),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_are_filed_by_definition_or_root_property() {
        let mut s = json!({
            "$ref": "#/$defs/R",
            "properties": {"a": {"items": {"$ref": "#/$defs/A"}}},
            "items": {"$ref": "#/$defs/I"},
            "$defs": {"A": {"properties": {"x": {"$ref": "#/$defs/B"}}}, "B": {}},
            "definitions": {"C": {"$ref": "#/definitions/C"}},
            "default": {"$ref": "#/$defs/NotASchema"}
        });
        let mut cx = PassContext::new(None);
        IndexRefs.run(&mut s, &mut cx).unwrap();
        let index = cx.refs.take().unwrap();
        let mut outside = index.outside.clone();
        outside.sort();
        assert_eq!(
            outside,
            [
                (None, "#/$defs/I".to_owned()),
                (None, "#/$defs/R".to_owned()),
                (Some("a".to_owned()), "#/$defs/A".to_owned()),
            ]
        );
        assert_eq!(index.inside[0].get("A"), Some(&vec!["#/$defs/B".to_owned()]));
        assert_eq!(index.inside[0].get("B"), None);
        assert_eq!(index.inside[1].get("C"), Some(&vec!["#/definitions/C".to_owned()]));
    }
}
