//! [`PruneDefs`]: removes root definitions that nothing references.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use crate::vocab::address::{AddressSet, address};
use serde_json::Value;
use std::borrow::Cow;

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
        let Some(unreached) = unreached(schema, cx.max_depth).map_err(|p| cx.too_deep(p))? else {
            // Some reference cannot be read as a local one: keep everything.
            return Ok(());
        };
        let Value::Object(root) = schema else { return Ok(()) };
        for (map_name, names) in DEF_MAPS.into_iter().zip(unreached) {
            if names.is_empty() {
                continue;
            }
            let Some(Value::Object(defs)) = root.get_mut(map_name) else { continue };
            for name in names {
                defs.remove(&name);
            }
            if defs.is_empty() {
                root.remove(map_name);
            }
        }
        Ok(())
    }
}

/// The names of the root definitions that no reference reaches from outside the root's definition
/// maps, transitively, per map in `DEF_MAPS`; `None` when some reference cannot be read as a
/// local one. `Err` is the pointer at which the depth budget ran out.
fn unreached<'v>(schema: &'v Value, max_depth: usize) -> Result<Option<[Vec<String>; 2]>, String> {
    let Value::Object(root) = schema else { return Ok(Some(Default::default())) };
    // Definitions reached so far (only asked whether they hold a name, so their order does not
    // matter), and those still to scan. Names borrow from the schema: the plain spelling
    // `#/$defs/Name` allocates nothing.
    let mut reached = AddressSet::default();
    let mut todo: Vec<(usize, Cow<'v, str>)> = Vec::new();
    let mut opaque = false;
    let mut note = |r: &'v str, todo: &mut Vec<(usize, Cow<'v, str>)>| {
        if let Some((map, name)) = crate::refs::plain_definition(r) {
            todo.push((usize::from(map != DEF_MAPS[0]), Cow::Borrowed(name)));
            return;
        }
        match crate::refs::parse_local(r) {
            Ok(mut tokens) => {
                if tokens.len() >= 2
                    && let Some(m) = DEF_MAPS.iter().position(|k| *k == tokens[0])
                {
                    todo.push((m, Cow::Owned(tokens.swap_remove(1))));
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
    crate::walk::for_each_child_where(
        schema,
        |k| !DEF_MAPS.contains(&k),
        |_, child| {
            if ptr_err.is_none() {
                let depth = max_depth.saturating_sub(1);
                ptr_err = scan_schema(child, depth, &mut |r| note(r, &mut todo)).err();
            }
        },
    );
    let maps = DEF_MAPS.map(|k| root.get(k).and_then(Value::as_object));
    while let Some((m, name)) = todo.pop() {
        // Only names the map holds: `reached` then counts the definitions kept.
        let Some(target) = maps[m].and_then(|map| map.get(name.as_ref())) else {
            continue;
        };
        if !reached.insert(address(target)) {
            continue;
        }
        if let Err(p) = scan_schema(target, max_depth, &mut |r| note(r, &mut todo)) {
            ptr_err = Some(p);
        }
    }
    if let Some(p) = ptr_err {
        return Err(p);
    }
    if opaque {
        return Ok(None);
    }
    let unreached = |m: usize| -> Vec<String> {
        maps[m].map_or_else(Vec::new, |defs| {
            defs.iter().filter(|(_, def)| !reached.contains(&address(def))).map(|(k, _)| k.clone()).collect()
        })
    };
    Ok(Some([unreached(0), unreached(1)]))
}

/// Calls `f` with every `$ref` string in any schema position under `schema`. Builds no pointer
/// unless the depth budget runs out.
fn scan_schema<'v>(schema: &'v Value, max_depth: usize, f: &mut dyn FnMut(&'v str)) -> Result<(), String> {
    let mut found = |_: &crate::walk::Location<'_>, node: &'v serde_json::Map<String, Value>| {
        if let Some(Value::String(r)) = node.get("$ref") {
            f(r);
        }
    };
    // A boolean `schema` has no reference; `visit_objects` skips it.
    crate::walk::visit_objects(schema, max_depth, &mut found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    #[allow(clippy::needless_pass_by_value, reason = "called with `json!` values")]
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
    fn a_reference_to_a_missing_definition_keeps_no_other_one() {
        check(
            json!({
                "properties": {"a": {"$ref": "#/$defs/A"}, "m": {"$ref": "#/$defs/Missing"}},
                "$defs": {"A": {}, "B": {}}
            }),
            json!({
                "properties": {"a": {"$ref": "#/$defs/A"}, "m": {"$ref": "#/$defs/Missing"}},
                "$defs": {"A": {}}
            }),
        );
    }

    #[test]
    fn a_name_in_one_definition_map_does_not_keep_the_same_name_in_the_other() {
        check(
            json!({"items": {"$ref": "#/definitions/A"}, "$defs": {"A": {}}, "definitions": {"A": {}}}),
            json!({"items": {"$ref": "#/definitions/A"}, "definitions": {"A": {}}}),
        );
    }

    #[test]
    fn a_long_reference_chain_is_kept_whole_and_only_the_unreferenced_definition_goes() {
        let mut defs = serde_json::Map::new();
        for i in 0..1000 {
            defs.insert(
                format!("L{i}"),
                json!({"properties": {"n": {"$ref": format!("#/$defs/L{}", i + 1)}}}),
            );
        }
        defs.insert("L1000".into(), json!({"type": "string"}));
        let chain = Value::Object(defs.clone());
        defs.insert("Unused".into(), json!({"$ref": "#/$defs/L0"}));
        check(
            json!({"properties": {"a": {"$ref": "#/$defs/L0"}}, "$defs": defs}),
            json!({"properties": {"a": {"$ref": "#/$defs/L0"}}, "$defs": chain}),
        );
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
}
