//! [`FindTags`]: notes whether a schema holds an internally tagged newtype variant, for
//! [`MergeTags`](super::MergeTags).

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Notes in the [`PassContext`] whether the schema holds schemars' spelling of an internally
/// tagged newtype variant (a `$ref` beside tag `properties`), so that
/// [`MergeTags`](super::MergeTags), which needs the whole document, walks it only when one is
/// there. It changes nothing.
///
/// A node pass: the pipeline runs it in its first walk, which visits every schema object anyway.
/// [`MergeTags`](super::MergeTags) run without it looks for itself.
///
/// Runs only on schemas generated from a Rust type ([`PassContext::from_rust`]), as
/// [`MergeTags`](super::MergeTags) does.
#[derive(Debug, Clone, Copy, Default)]
pub struct FindTags;

impl NodePass for FindTags {
    fn name(&self) -> &'static str {
        "find-tags"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        if !cx.from_rust {
            return Ok(());
        }
        if at.is_root() {
            cx.tag_sites = Some(false);
        }
        if cx.tag_sites != Some(true) && super::merge_tags::is_tag_site(node) {
            cx.tag_sites = Some(true);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use serde_json::json;

    fn found(mut s: Value) -> Option<bool> {
        let mut cx = PassContext::new(None);
        cx.from_rust = true;
        FindTags.run(&mut s, &mut cx).unwrap();
        cx.tag_sites
    }

    #[test]
    fn a_tag_site_anywhere_is_noted_and_nothing_changes() {
        let site = json!({"$ref": "#/$defs/M", "properties": {"t": {"const": "V"}}, "required": ["t"]});
        assert_eq!(found(json!({"type": "object", "properties": {"a": {"type": "string"}}})), Some(false));
        assert_eq!(found(json!({"oneOf": [site.clone()]})), Some(true));
        assert_eq!(found(json!({"$defs": {"E": {"oneOf": [{"type": "null"}, site.clone()]}}})), Some(true));
        let mut s = json!({"oneOf": [site]});
        let before = s.clone();
        let mut cx = PassContext::new(None);
        FindTags.run(&mut s, &mut cx).unwrap();
        assert_eq!((s, cx.tag_sites), (before, None), "not from a Rust type: nothing noted");
    }
}
