//! [`CheckRefs`]: every `$ref` points at a schema in the document, and no reference loops back
//! to the schema it stands in without descending into a part of the value.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext, RefsSeen};
use crate::vocab::address::AddressSet;
use serde_json::{Map, Value};

/// Refuses a schema with a `$ref` that points at nothing in the document, or at something that is
/// not a schema, naming the pointer of the reference.
///
/// A dangling reference passes any dialect that keeps references, and no validator or provider
/// can load the result. [`WellFormed`](super::WellFormed) has already refused references that are
/// not local; this pass resolves the local ones (percent-escapes, then `~` escapes, decoded: a
/// `#/$defs/Percent%25Def` names the definition `Percent%Def`, not `Percent%25Def`).
///
/// A reference that comes back to where it stands without descending into a property or an item
/// on the way (`{"$ref": "#/$defs/A"}` where `A` is `{"$ref": "#/$defs/A"}`, or
/// `{"anyOf": [{"$ref": "#/$defs/A"}, ...]}`) is refused too: checking a value against it means
/// checking the same value against the same schema again, forever. JSON Schema leaves its meaning
/// undefined ("Guarding Against Infinite Recursion", 2020-12 Core), validators disagree on it (one
/// accepts every value, another overflows its stack), and so no dialect can say what the code reads
/// there, nor can restore tell whether a `null` sent for it is a value. The loops searched are the
/// ones through `$ref` and the keywords that apply to the same value (`allOf`, `anyOf`, `oneOf`,
/// `not`, `if`, `then`, `else`, `dependentSchemas`): a loop through `properties` or `items` is a
/// recursive type, and stays.
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
        // The `$ref` sites, in document order, for the loop search.
        let mut sites = Vec::new();
        crate::walk::visit_objects(root, cx.max_depth, &mut |at, node| {
            if bad.is_some() {
                return;
            }
            let Some(reference) = node.get("$ref") else { return };
            sites.push(node);
            let why = match reference.as_str().map(|r| (r, crate::refs::resolve(root, r))) {
                Some((_, Some(target))) if crate::walk::is_schema(target) => return,
                Some((r, Some(_))) => format!("reference `{r}` points at a value that is not a schema"),
                Some((r, None)) => format!("reference `{r}` points at nothing in this document"),
                None => "`$ref` must be a string".to_owned(),
            };
            bad = Some((format!("{at}/$ref"), why));
        })
        .map_err(|p| cx.too_deep(p))?;
        // Searched here while the sites are at hand.
        let found = if bad.is_none() { search(root, &sites, cx.max_depth) } else { None };
        if let Some((pointer, why)) = bad {
            return Err(SchemaGenerationError::Malformed {
                pointer,
                message: format!("{why}; add the definition it names, or fix the reference"),
            });
        }
        let Some(found) = found else { return Ok(()) };
        let origin = if cx.from_rust { crate::hint::Origin::Rust } else { cx.origin };
        let fix = crate::hint::Advice::SelfInPlace.text(origin);
        Err(SchemaGenerationError::Malformed {
            pointer: format!("{}/$ref", found.pointer),
            message: format!(
                "reference {} comes back to the schema it stands in without descending into a property or \
                 an item, so a value would be checked against it forever (JSON Schema leaves such a loop \
                 undefined); {fix}",
                found.path
            ),
        })
    }
}

/// A reference loop that checks the same value forever: the pointer of the first `$ref` on it in
/// document order, and the loop's references from there (`` `#/$defs/A` → `#/$defs/B` → `#/$defs/A` ``).
struct Loop {
    pointer: String,
    path: String,
}

/// The schema objects that apply to the very value `node` checks: the target of its `$ref` and
/// the members of the keywords that apply in place (a boolean schema ends every path).
/// `dependentSchemas` (and draft-7 `dependencies`) by name, so that the search is the same in
/// every build of `serde_json`.
fn in_place<'v>(node: &'v Map<String, Value>, root: &'v Value) -> Vec<&'v Map<String, Value>> {
    let mut out: Vec<&Value> = Vec::new();
    out.extend(node.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)));
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = node.get(keyword) {
            out.extend(members);
        }
    }
    out.extend(["not", "if", "then", "else"].iter().filter_map(|k| node.get(*k)));
    for keyword in ["dependencies", "dependentSchemas"] {
        if let Some(Value::Object(by_name)) = node.get(keyword) {
            let mut named: Vec<_> = by_name.iter().collect();
            named.sort_unstable_by_key(|(name, _)| *name);
            out.extend(named.into_iter().map(|(_, s)| s));
        }
    }
    out.into_iter().filter_map(Value::as_object).collect()
}

/// Where a schema object is in memory: its name for the search (the document does not change
/// while it runs).
fn at(map: &Map<String, Value>) -> usize {
    std::ptr::from_ref(map).addr()
}

/// One schema object on the path being searched, with its in-place subschemas and the index of
/// the next one to follow.
type Step<'v> = (&'v Map<String, Value>, Vec<&'v Map<String, Value>>, usize);

/// Searches from every `$ref` site, in document order, for a path of in-place subschemas back to
/// where it started (depth first, each schema object once: linear in the document). Every such
/// loop holds a `$ref`, so starting from the sites finds them all.
fn search(root: &Value, sites: &[&Map<String, Value>], max_depth: usize) -> Option<Loop> {
    let mut done = AddressSet::default();
    let mut on_path = AddressSet::default();
    let mut path: Vec<Step<'_>> = Vec::new();
    for &site in sites {
        if done.contains(&at(site)) {
            continue;
        }
        on_path.insert(at(site));
        path.push((site, in_place(site, root), 0));
        while let Some((node, next, i)) = path.last_mut() {
            let Some(&child) = next.get(*i) else {
                on_path.remove(&at(node));
                done.insert(at(node));
                path.pop();
                continue;
            };
            *i += 1;
            if on_path.contains(&at(child)) {
                let from = path.iter().position(|(n, ..)| at(n) == at(child)).unwrap_or(0);
                let ring: Vec<&Map<String, Value>> = path[from..].iter().map(|(n, ..)| *n).collect();
                return Some(describe(&ring, root, max_depth));
            }
            if !done.contains(&at(child)) {
                on_path.insert(at(child));
                path.push((child, in_place(child, root), 0));
            }
        }
    }
    None
}

/// Names a loop: the `$ref` on it that comes first in document order, and its references in loop
/// order from there.
fn describe(ring: &[&Map<String, Value>], root: &Value, max_depth: usize) -> Loop {
    let mut first: Option<(usize, String)> = None;
    let on_ring: AddressSet = ring.iter().map(|m| at(m)).collect();
    // The walk cannot run out of budget here: it ran over the same document to find the sites.
    let _ = crate::walk::visit_objects(root, max_depth, &mut |location, node| {
        if first.is_none() && node.contains_key("$ref") && on_ring.contains(&at(node)) {
            let index = ring.iter().position(|m| at(m) == at(node)).unwrap_or(0);
            first = Some((index, location.pointer().as_str().to_owned()));
        }
    });
    let (start, pointer) = first.unwrap_or_default();
    let refs: Vec<String> = (0..=ring.len())
        .map(|k| ring[(start + k) % ring.len()])
        .filter_map(|m| m.get("$ref").and_then(Value::as_str))
        .map(|r| format!("`{r}`"))
        .collect();
    Loop { pointer, path: refs.join(" → ") }
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
    fn a_reference_loop_that_checks_the_same_value_forever_is_refused_at_its_first_reference() {
        let cases = [
            (
                json!({"$defs": {"~t": {"$ref": "#/$defs/~0t"}}, "properties": {"a": {"$ref": "#/$defs/~0t"}}}),
                "/$defs/~0t/$ref",
                "`#/$defs/~0t` → `#/$defs/~0t`",
            ),
            (
                json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"description": "b", "$ref": "#/$defs/A"}}}),
                "/$defs/A/$ref",
                "`#/$defs/B` → `#/$defs/A` → `#/$defs/B`",
            ),
            (json!({"$ref": "#"}), "/$ref", "`#` → `#`"),
            (
                json!({"properties": {"a": {"$ref": "#/properties/a"}}}),
                "/properties/a/$ref",
                "`#/properties/a`",
            ),
            (
                json!({"$defs": {"A": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/A"}]}}}),
                "/$defs/A/anyOf/1/$ref",
                "`#/$defs/A` → `#/$defs/A`",
            ),
            (
                json!({"$defs": {"A": {"type": "object", "allOf": [{"not": {"$ref": "#/$defs/A"}}]}}}),
                "/$defs/A/allOf/0/not/$ref",
                "`#/$defs/A`",
            ),
            (
                json!({"$defs": {"A": {"dependentSchemas": {"x": {"$ref": "#/$defs/A"}}}}}),
                "/$defs/A/dependentSchemas/x/$ref",
                "`#/$defs/A`",
            ),
        ];
        for (schema, pointer, path) in cases {
            let err = run(schema.clone()).unwrap_err();
            assert_eq!(err.pointer(), Some(pointer), "{schema}: {err}");
            assert!(err.to_string().contains(path), "{schema}: {err}");
            assert!(err.to_string().contains("`type` or `properties` of its own"), "{err}");
        }
    }

    #[test]
    fn a_loop_through_a_property_or_an_item_is_a_recursive_type_and_passes() {
        run(json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
            "additionalProperties": {"$ref": "#/$defs/Node"}}, "List": {"type": "array", "items": {"$ref": "#/$defs/List"}}},
            "allOf": [{"$ref": "#/$defs/Node"}, {"$ref": "#/$defs/Node"}], "anyOf": [{"$ref": "#/$defs/List"}]}))
        .unwrap();
        // The same definition reached twice in place, with no loop, passes too.
        run(json!({"$defs": {"A": {"type": "string"}, "B": {"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}},
            "anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/A"}]}))
        .unwrap();
    }

    #[test]
    fn for_a_rust_type_the_loop_is_refused_with_advice_about_serde() {
        let mut s = json!({"$defs": {"E": {"anyOf": [{"$ref": "#/$defs/E"}, {"type": "integer"}]}}, "$ref": "#/$defs/E"});
        let mut cx = PassContext::new(Some("E"));
        cx.from_rust = true;
        let err = CheckRefs.run(&mut s, &mut cx).unwrap_err();
        assert!(err.to_string().contains("untagged variant"), "{err}");
    }
}
