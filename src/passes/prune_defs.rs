//! [`PruneDefs`]: removes root definitions that nothing references.

use crate::error::SchemaGenerationError;
use crate::pipeline::{Pass, PassContext};
use crate::walk::Depth;
use serde_json::Value;
use std::collections::BTreeSet;

/// Removes entries of the root's `$defs` (and `definitions`) that no `$ref` reachable from the
/// root schema points into, and the map itself when it ends up empty.
///
/// schemars writes a definition for every named type it meets; after [`Exclude`](super::Exclude)
/// removes a parameter, its type's definition would still be shown to the model, describing a
/// value the model must never send. Reachability follows references transitively from everything
/// outside the root's definition maps. If any reference cannot be read as a local one, nothing is
/// removed (a definition might be used in a way this pass cannot see).
#[derive(Debug, Clone, Copy, Default)]
pub struct PruneDefs;

const DEF_MAPS: [&str; 2] = ["$defs", "definitions"];

impl Pass for PruneDefs {
    fn name(&self) -> &'static str {
        "prune-defs"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        let Value::Object(root) = &*schema else { return Ok(()) };
        if !DEF_MAPS.iter().any(|k| root.get(*k).is_some_and(Value::is_object)) {
            return Ok(());
        }
        // Definitions reached so far, and those still to scan.
        let mut reached: BTreeSet<(&'static str, String)> = BTreeSet::new();
        let mut todo: Vec<(&'static str, String)> = Vec::new();
        let mut opaque = false;
        let mut note = |r: &str, todo: &mut Vec<(&'static str, String)>| {
            if let Some((map, name)) = crate::refs::plain_definition(r) {
                todo.push((map, name.to_owned()));
                return;
            }
            match crate::refs::parse_local(r) {
                Ok(tokens) => {
                    if let [map, name, ..] = tokens.as_slice()
                        && let Some(m) = DEF_MAPS.iter().find(|k| **k == map.as_str())
                    {
                        todo.push((m, name.clone()));
                    }
                }
                Err(_) => opaque = true,
            }
        };
        // Scan the root, skipping its own definition maps.
        let mut ptr_err = None;
        if let Some(Value::String(r)) = root.get("$ref") {
            note(r, &mut todo);
        }
        crate::walk::for_each_child(schema, |step, child| {
            if ptr_err.is_none() && !DEF_MAPS.contains(&step.keyword()) {
                let depth = cx.max_depth.saturating_sub(1);
                ptr_err = scan_schema(child, depth, &mut |r| note(r, &mut todo)).err();
            }
        });
        while let Some(def) = todo.pop() {
            if reached.contains(&def) {
                continue;
            }
            if let Some(target) = root.get(def.0).and_then(|m| m.get(&def.1))
                && let Err(p) = scan_schema(target, cx.max_depth, &mut |r| note(r, &mut todo))
            {
                ptr_err = Some(p);
            }
            reached.insert(def);
        }
        if let Some(p) = ptr_err {
            return Err(cx.too_deep(p));
        }
        if opaque {
            return Ok(());
        }
        let Value::Object(root) = schema else { return Ok(()) };
        for map_name in DEF_MAPS {
            let Some(Value::Object(defs)) = root.get_mut(map_name) else { continue };
            defs.retain(|name, _| reached.contains(&(map_name, name.clone())));
            if defs.is_empty() {
                root.remove(map_name);
            }
        }
        Ok(())
    }
}

/// Calls `f` with every `$ref` string in any schema position under `schema`.
fn scan_schema(schema: &Value, max_depth: usize, f: &mut dyn FnMut(&str)) -> Result<(), String> {
    // The walk `visit_all` makes, without building a pointer at every step: the pointer is only
    // needed when the depth budget runs out, and then `visit_all` finds it.
    fn go(node: &Value, depth: Depth, f: &mut dyn FnMut(&str)) -> bool {
        if let Some(Value::String(r)) = node.get("$ref") {
            f(r);
        }
        let mut ok = true;
        crate::walk::for_each_child(node, |_, child| {
            if ok {
                ok = depth.descend().is_some_and(|d| go(child, d, f));
            }
        });
        ok
    }
    if go(schema, Depth::new(max_depth), f) {
        return Ok(());
    }
    crate::walk::visit_all(schema, max_depth, &mut |_, _| true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn check(mut before: Value, after: Value) {
        PruneDefs.run(&mut before, &mut PassContext::new(None)).unwrap();
        assert_eq!(before, after);
    }

    #[test]
    fn removes_unreferenced_and_keeps_transitively_referenced_defs() {
        check(
            json!({
                "properties": {"a": {"$ref": "#/$defs/A"}},
                "$defs": {"A": {"items": {"$ref": "#/$defs/B"}}, "B": {}, "Gone": {"$ref": "#/$defs/B"}}
            }),
            json!({
                "properties": {"a": {"$ref": "#/$defs/A"}},
                "$defs": {"A": {"items": {"$ref": "#/$defs/B"}}, "B": {}}
            }),
        );
    }

    #[test]
    fn drops_the_map_when_nothing_is_left() {
        check(json!({"type": "object", "$defs": {"A": {}}}), json!({"type": "object"}));
    }

    #[test]
    fn keeps_everything_when_a_reference_is_not_local() {
        let s = json!({"properties": {"a": {"$ref": "other.json"}}, "$defs": {"A": {}}});
        check(s.clone(), s);
    }

    #[test]
    fn follows_percent_encoded_and_definitions_refs() {
        check(
            json!({"items": {"$ref": "#/definitions/Foo%3CT%3E"}, "definitions": {"Foo<T>": {}, "X": {}}}),
            json!({"items": {"$ref": "#/definitions/Foo%3CT%3E"}, "definitions": {"Foo<T>": {}}}),
        );
    }

    /// The scan as `visit_all` makes it, pointer at every step: the reference for the fast scan.
    fn scan_with_pointers(schema: &Value, max_depth: usize, f: &mut dyn FnMut(&str)) -> Result<(), String> {
        crate::walk::visit_all(schema, max_depth, &mut |_, node| {
            if let Some(Value::String(r)) = node.get("$ref") {
                f(r);
            }
            true
        })
    }

    fn nested(depth: usize, width: usize) -> Value {
        let mut v = json!({"$ref": "#/$defs/Leaf"});
        for i in 0..depth {
            let mut props = serde_json::Map::new();
            for j in 0..width {
                props.insert(format!("p{j}"), json!({"$ref": format!("#/$defs/D{i}_{j}")}));
            }
            props.insert("next".into(), v);
            v = json!({"type": "object", "properties": props, "items": [{"$ref": format!("#/$defs/I{i}")}]});
        }
        v
    }

    proptest::proptest! {
        // Law: the pointer-free scan meets the same references in the same order and fails at the
        // same pointer as the walk that builds pointers.
        #[test]
        fn the_fast_scan_agrees_with_the_pointer_walk(depth in 0usize..12, width in 0usize..3, max in 0usize..14) {
            let v = nested(depth, width);
            let (mut fast, mut slow) = (Vec::new(), Vec::new());
            let a = scan_schema(&v, max, &mut |r| fast.push(r.to_owned()));
            let b = scan_with_pointers(&v, max, &mut |r| slow.push(r.to_owned()));
            proptest::prop_assert_eq!(a, b);
            proptest::prop_assert_eq!(fast, slow);
        }
    }
}
