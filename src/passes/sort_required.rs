//! [`SortRequired`]: sorts and deduplicates every `required` list.

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Sorts every `required` list (by UTF-16 code units, the canonical key order) and removes
/// duplicates.
///
/// `required` is a set; schemars writes it in declaration order, so reordering two fields would
/// change the hash of an unchanged contract. A `required` that is not a list of strings is
/// malformed and refused with its pointer.
#[derive(Debug, Clone, Copy, Default)]
pub struct SortRequired;

impl NodePass for SortRequired {
    fn name(&self) -> &'static str {
        "sort-required"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        _cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        let Some(required) = super::member_mut(node, "required") else { return Ok(()) };
        let Value::Array(items) = required else {
            return Err(malformed(at));
        };
        if !items.iter().all(Value::is_string) {
            return Err(malformed(at));
        }
        let order = |a: &Value, b: &Value| {
            crate::canonical::cmp_utf16(a.as_str().unwrap_or(""), b.as_str().unwrap_or(""))
        };
        // Usually already sorted and free of duplicates (schemars sorts): check first.
        if !items.windows(2).all(|w| order(&w[0], &w[1]).is_lt()) {
            items.sort_by(order);
            items.dedup();
        }
        Ok(())
    }
}

fn malformed(at: &Location<'_>) -> SchemaGenerationError {
    SchemaGenerationError::Malformed {
        pointer: format!("{at}/required"),
        message: "`required` must be an array of property names (strings)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use serde_json::json;

    #[test]
    fn sorts_and_dedups_at_every_depth() {
        let mut s = json!({"required": ["b", "a", "b"], "items": {"required": ["z", "y"]}});
        SortRequired.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s, json!({"required": ["a", "b"], "items": {"required": ["y", "z"]}}));
    }

    #[test]
    fn a_sorted_list_is_left_as_is_and_a_sorted_list_with_a_duplicate_is_deduplicated() {
        let mut s = json!({"required": ["a", "b", "c"], "items": {"required": ["a", "a", "b"]}});
        SortRequired.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s, json!({"required": ["a", "b", "c"], "items": {"required": ["a", "b"]}}));
    }

    #[test]
    fn refuses_required_that_is_not_a_list_of_strings() {
        let mut s = json!({"properties": {"a": {"required": "name"}}});
        let e = SortRequired.run(&mut s, &mut PassContext::new(None)).unwrap_err();
        assert_eq!(e.pointer(), Some("/properties/a/required"));
    }
}
