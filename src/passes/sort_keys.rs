//! [`SortKeys`]: puts every object's keys in one order, whatever serde_json's map type is.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use crate::vocab::map_order::map_preserves_order;
use serde_json::Value;

/// Rebuilds every JSON object in the schema with its keys in byte order.
///
/// Without serde_json's `preserve_order` feature a `Map` is a `BTreeMap` and is always in byte
/// order, so this pass does nothing. With it (any crate in a build can switch it on) a `Map`
/// keeps insertion order, and [`ToolSchema::as_value`](crate::ToolSchema::as_value) would
/// serialise differently from one build to the next. Sorting here makes the value, and not only
/// the canonical bytes, the same in both builds. With declaration order on (see
/// [`PassContext::declaration_order`]) `properties` maps keep their order.
///
/// Every object is sorted, including instance values under `const`, `enum`, `default` and
/// `examples`: their key order means nothing either. The walk is iterative, so it has no depth
/// limit of its own.
#[derive(Debug, Clone, Copy, Default)]
pub struct SortKeys;

impl Pass for SortKeys {
    fn name(&self) -> &'static str {
        "sort-keys"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        if map_preserves_order() {
            sort_all(schema, cx.declaration_order);
        }
        Ok(())
    }
}

/// Puts every object's keys in byte order, as [`SortKeys`] does, except that with
/// `keep_properties` the entries of every `properties` map keep their order: for output that
/// shows a schema's own property order with every other key sorted (the CLI's
/// `self-contained`). Iterative; a no-op without `preserve_order`.
pub fn sort_keys(value: &mut Value, keep_properties: bool) {
    if map_preserves_order() {
        sort_all(value, keep_properties);
    }
}

fn sort_all(root: &mut Value, keep_properties: bool) {
    // (node, whether this object is a `properties` map whose order is kept)
    let mut stack: Vec<(&mut Value, bool)> = vec![(root, false)];
    while let Some((node, keep)) = stack.pop() {
        match node {
            Value::Object(map) => {
                if !keep && !map.keys().is_sorted() {
                    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
                    entries.sort_by(|a, b| a.0.cmp(&b.0));
                    map.extend(entries);
                }
                // The entries of a kept `properties` map are schemas, sorted like any other,
                // even a property itself named `properties`.
                for (k, v) in map.iter_mut() {
                    stack.push((v, keep_properties && !keep && k == "properties"));
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut().map(|v| (v, false))),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_come_out_sorted_in_every_build() {
        let mut s: Value = serde_json::from_str(r#"{"b":{"z":1,"a":[{"y":1,"x":2}]},"a":1}"#).unwrap();
        SortKeys.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"a":1,"b":{"a":[{"x":2,"y":1}],"z":1}}"#);
    }

    #[test]
    fn declaration_order_keeps_properties_order_where_the_map_can() {
        let mut s: Value = serde_json::from_str(r#"{"properties":{"b":{},"a":{}},"type":"object"}"#).unwrap();
        let mut cx = PassContext::new(None);
        cx.declaration_order = true;
        SortKeys.run(&mut s, &mut cx).unwrap();
        let text = serde_json::to_string(&s).unwrap();
        let want = if map_preserves_order() {
            r#"{"properties":{"b":{},"a":{}},"type":"object"}"#
        } else {
            r#"{"properties":{"a":{},"b":{}},"type":"object"}"#
        };
        assert_eq!(text, want);
    }

    #[test]
    fn a_property_named_properties_is_a_schema_and_is_sorted() {
        let mut s: Value =
            serde_json::from_str(r#"{"properties":{"z":{},"properties":{"type":"object","properties":{"y":{},"x":{}},"description":"d"}}}"#)
                .unwrap();
        sort_keys(&mut s, true);
        let text = serde_json::to_string(&s).unwrap();
        let want = if map_preserves_order() {
            r#"{"properties":{"z":{},"properties":{"description":"d","properties":{"y":{},"x":{}},"type":"object"}}}"#
        } else {
            r#"{"properties":{"properties":{"description":"d","properties":{"x":{},"y":{}},"type":"object"},"z":{}}}"#
        };
        assert_eq!(text, want);
    }
}
