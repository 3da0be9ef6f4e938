//! What the provider engine ([`provider`](super::provider)) and the strict profiles do with
//! references before the engine's walk: each `$ref` with an assertion beside it merged with its
//! target ([`rewrite_ref_sites`]), and the first reference cycle ([`find_recursion`]) for a
//! provider that refuses recursion. The engine and the profiles import this; it imports neither.

use super::support::{merge_ref_site, unsupported};
use crate::error::CapabilityError;
use serde_json::{Map, Value};

/// Annotations OpenAI refuses beside a `$ref`; dropping them changes no verdict.
const DROPPED: &[&str] = &["$comment", "default", "deprecated", "examples", "readOnly", "writeOnly"];

/// The engine's first step where references are kept: `$ref` siblings. Annotation-only siblings
/// wrap the reference in a one-branch `anyOf`; assertion siblings merge with the target (one
/// level; nested references stay).
pub(crate) fn rewrite_ref_sites(
    dialect: &str,
    mut schema: Value,
    max_depth: usize,
    origin: crate::hint::Origin,
    errors: &mut Vec<CapabilityError>,
) -> Value {
    // A merged target may bring in further sites; a few rounds settle every schema schemars writes.
    for _ in 0..8 {
        let mut sites = Vec::new();
        // Only a site with an assertion beside its `$ref` needs its target here: the engine writes
        // one with annotations alone itself (a one-branch `anyOf`), so a schema without such a
        // site is neither copied nor walked again.
        let _ = crate::walk::visit_objects(&schema, max_depth, &mut |at, map| {
            if is_site(map) {
                sites.push(at.pointer().as_str().to_owned());
            }
        });
        if sites.is_empty() {
            break;
        }
        let snapshot = schema.clone();
        let mut changed = false;
        for site in sites {
            let Some(Value::Object(map)) = schema.pointer_mut(&site) else { continue };
            for k in DROPPED {
                map.remove(*k);
            }
            let Some(reference) = map.get("$ref").and_then(Value::as_str).map(str::to_owned) else {
                continue;
            };
            if map.len() == 1 {
                continue;
            }
            if map.keys().all(|k| k == "$ref" || k == "description" || k == "title") {
                let r = map.remove("$ref").unwrap_or(Value::Null);
                map.insert(
                    "anyOf".into(),
                    Value::Array(vec![Value::Object(Map::from_iter([("$ref".into(), r)]))]),
                );
                continue;
            }
            let target = crate::refs::resolve(&snapshot, &reference);
            if target.is_some_and(|t| holds_site(t, max_depth)) {
                // Merged from the inside out: a target with a site of its own waits until that one
                // is merged. One that never is (it lies inside its own target, or in a cycle of
                // them) is the engine's, which makes a recursive merge a definition; copying it
                // here doubled its depth at every round.
                continue;
            }
            let Some(target) = target else {
                errors.push(unsupported(
                    dialect,
                    "$ref",
                    &site,
                    format!("reference `{reference}` cannot be followed"),
                    None,
                ));
                map.remove("$ref");
                continue;
            };
            let mut own = std::mem::take(map);
            let reference = own.remove("$ref").unwrap_or(Value::Null);
            match merge_ref_site(own, target.clone()) {
                Ok(Value::Object(merged)) => {
                    *map = merged;
                    changed = true;
                }
                Ok(_) => {}
                Err(both) => {
                    let (mut own, _) = *both;
                    own.insert("$ref".into(), reference);
                    *map = own;
                    errors.push(unsupported(
                        dialect,
                        "$ref",
                        &site,
                        "the keywords beside this `$ref` cannot be merged into its target without `allOf`, and \
                         the dialect accepts neither",
                        Some(crate::hint::Advice::OneDefinition.text(origin).into()),
                    ));
                }
            }
        }
        if !changed {
            break;
        }
    }
    schema
}

/// A `$ref` with an assertion beside it.
fn is_site(map: &Map<String, Value>) -> bool {
    map.contains_key("$ref")
        && map.keys().any(|k| k != "$ref" && !crate::walk::is_meta_data(k) && !DROPPED.contains(&k.as_str()))
}

/// Whether a `$ref` with an assertion beside it lies at or under `schema`.
fn holds_site(schema: &Value, max_depth: usize) -> bool {
    let mut found = false;
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |_, map| found |= is_site(map));
    found
}

/// The first reference cycle reachable from the root: the definition that refers back to itself
/// (directly or not) and the pointer of the reference that closes the cycle.
pub(crate) fn find_recursion(
    schema: &Value,
    max_depth: usize,
    root_name: Option<&str>,
) -> Option<(String, String)> {
    // Edges: target key → the references inside it (not inside nested definition maps).
    fn refs_in(node: &Value, max_depth: usize, base: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let _ = crate::walk::visit_all(node, max_depth, &mut |ptr, n| {
            // Inside a definition map: only the last step's tokens need reading (a keyword, and a name
            // or index after it); the walk went no further down past an earlier step's.
            if ptr.as_str().rsplit('/').take(2).any(|t| t == "$defs" || t == "definitions") {
                return false;
            }
            if let Some(r) = n.get("$ref").and_then(Value::as_str)
                && let Ok(tokens) = crate::refs::parse_local(r)
            {
                let key = crate::pointer::Pointer::from_tokens(&tokens).to_string();
                out.push((key, format!("{base}{}", ptr.as_str())));
            }
            true
        });
        out
    }
    let name_of = |key: &str| -> String {
        crate::pointer::tokens(key)
            .and_then(|t| t.last().map(ToString::to_string))
            .unwrap_or_else(|| root_name.unwrap_or("the root schema").to_owned())
    };
    // Iterative DFS with colours; the root is key "".
    let mut state: std::collections::HashMap<String, u8> = std::collections::HashMap::new();
    let mut stack: Vec<(String, Vec<(String, String)>)> =
        vec![(String::new(), refs_in(schema, max_depth, ""))];
    state.insert(String::new(), 1);
    while let Some((_, edges)) = stack.last_mut() {
        match edges.pop() {
            None => {
                if let Some((key, _)) = stack.pop() {
                    state.insert(key, 2);
                }
            }
            Some((target, site)) => match state.get(&target) {
                Some(1) => return Some((name_of(&target), site)),
                Some(_) => {}
                None => {
                    let Some(node) = crate::refs::lookup_pointer(schema, &target) else { continue };
                    if stack.len() > max_depth {
                        return Some((name_of(&target), site));
                    }
                    state.insert(target.clone(), 1);
                    let next = refs_in(node, max_depth, &target);
                    stack.push((target, next));
                }
            },
        }
    }
    None
}
