//! [`DropEmptyBranches`]: removes the members of a union that admit no value.

use crate::dialect::support::{RefTypes, admits_nothing_given, ref_types};
use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Removes every member of an `anyOf` or `oneOf` that admits no value (`admits_nothing`: `false`,
/// `{"not": {}}`, an empty `enum`, an `allOf` of types with nothing in common, ...), as long as a
/// member that may admit one is left; a union of one member left, beside annotations only, becomes
/// that member.
///
/// Such a member never matches, so the union means the same without it: nothing is loosened and
/// nothing a reader takes is lost. The MCP TypeScript SDK 1.x writes an optional nullable field
/// (`.optional().nullable()`) as `anyOf: [{"not": {}}, X]`; without this pass every provider
/// dialect refused it, since `not` has no form in a provider's terms, though the union is just
/// `X`. A member that admits nothing only through a `$ref` to a definition of the root's `$defs`
/// (the definition admits nothing, or no type the member's `allOf` or own `type` allows) is
/// dropped as well: the definitions are judged once, at the root, so the first run drops what a
/// dialect that inlines the reference would otherwise only expose to a second run. A union whose every member admits nothing is left as it is: the schema admits nothing,
/// and a dialect that cannot say so refuses it with the reason.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"properties": {"a": {"anyOf": [{"not": {}}, {"type": "string"}], "description": "A"}}});
/// toolschema::passes::DropEmptyBranches.run(&mut s, &mut PassContext::new(None)).unwrap();
/// assert_eq!(s, json!({"properties": {"a": {"type": "string", "description": "A"}}}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct DropEmptyBranches;

impl NodePass for DropEmptyBranches {
    fn name(&self) -> &'static str {
        "drop-empty-branches"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        // The walk is top-down: the root, and with it `$defs`, is visited before any node that
        // refers to a definition. Judged before this node's own unions change.
        if at.is_root() {
            cx.ref_types = ref_types(node);
        }
        // A member taken up into its union's place may be a union with empty members itself:
        // each round takes up one level, at most as many as the judgement looks through.
        for _ in 0..crate::dialect::support::EMPTY_DEPTH {
            let mut changed = false;
            for key in ["anyOf", "oneOf"] {
                changed |= drop_members(node, key, &cx.ref_types);
            }
            if !changed {
                break;
            }
        }
        Ok(())
    }
}

/// Drops `key`'s empty members; takes up the one member left where that is exact. Whether the
/// node changed.
fn drop_members(node: &mut Map<String, Value>, key: &str, refs: &RefTypes) -> bool {
    let Some(Value::Array(members)) = super::member_mut(node, key) else { return false };
    let empty: Vec<bool> = members.iter().map(|m| admits_nothing_given(m, refs).is_some()).collect();
    if !empty.contains(&true) || !empty.contains(&false) {
        return false;
    }
    let kept = std::mem::take(members);
    for (member, empty) in kept.into_iter().zip(empty) {
        if empty {
            // Freed without recursion: CheckNesting, which bounds every value's nesting, runs later.
            crate::walk::drop_any_depth(member);
        } else {
            members.push(member);
        }
    }
    if members.len() == 1 {
        take_up(node, key);
    }
    true
}

/// Replaces a union of one member with the member, where the node holds annotations only beside
/// it and the member none of the same keywords: the node then means exactly what the member does.
fn take_up(node: &mut Map<String, Value>, key: &str) {
    let Some(Value::Array(members)) = super::member(node, key) else { return };
    let fits = match &members[0] {
        Value::Bool(true) => true,
        Value::Object(m) => m.keys().all(|k| k == key || !node.contains_key(k)),
        _ => false,
    };
    if !fits || !node.keys().all(|k| k == key || crate::walk::is_meta_data(k)) {
        return;
    }
    let Some(Value::Array(mut members)) = node.remove(key) else { return };
    if let Some(Value::Object(member)) = members.pop() {
        node.extend(member);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use serde_json::json;

    fn run(mut s: Value) -> Value {
        DropEmptyBranches.run(&mut s, &mut PassContext::new(None)).unwrap();
        s
    }

    #[test]
    fn a_member_that_admits_nothing_is_dropped_and_a_lone_member_taken_up() {
        for never in [
            json!(false),
            json!({"not": {}}),
            json!({"not": true}),
            json!({"not": {"description": "anything"}}),
            json!({"enum": []}),
            json!({"type": "string", "enum": [1, null]}),
            json!({"type": "integer", "const": 1.5}),
            json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"type": "string", "allOf": [{"type": ["number", "null"]}]}),
            json!({"allOf": [{"type": "string"}, {"not": {}}]}),
            json!({"anyOf": [{"not": {}}, false]}),
        ] {
            let s = json!({"properties": {"a": {"anyOf": [never.clone(), {"type": "string"}], "description": "A"}}});
            assert_eq!(
                run(s),
                json!({"properties": {"a": {"type": "string", "description": "A"}}}),
                "{never}"
            );
            let s = json!({"oneOf": [{"type": "integer"}, never.clone(), {"type": "string"}]});
            assert_eq!(run(s), json!({"oneOf": [{"type": "integer"}, {"type": "string"}]}), "{never}");
        }
    }

    #[test]
    fn nested_unions_are_taken_up_level_by_level() {
        // `.optional().nullable()` as the MCP TypeScript SDK writes it.
        let s = json!({"anyOf": [{"anyOf": [{"not": {}}, {"type": "string"}]}, {"type": "null"}]});
        assert_eq!(run(s), json!({"anyOf": [{"type": "string"}, {"type": "null"}]}));
        let s = json!({"anyOf": [{"not": {}}, {"anyOf": [{"not": {}}, {"type": "string"}]}]});
        assert_eq!(run(s), json!({"type": "string"}));
    }

    #[test]
    fn a_member_behind_a_reference_that_admits_nothing_is_dropped() {
        // A definition that admits nothing, named with a character a pointer escapes.
        let s = json!({"anyOf": [{"$ref": "#/$defs/a~1b"}, {"type": "string"}], "$defs": {"a/b": false}});
        assert_eq!(run(s), json!({"anyOf": [{"type": "string"}], "$defs": {"a/b": false}}));
        // An array AND a string: empty only once the reference is read.
        let defs = json!({"a/b": {"type": "array", "prefixItems": [{"type": "boolean"}]}});
        let s = json!({
            "anyOf": [{"allOf": [{"$ref": "#/$defs/a~1b"}, {"type": "string"}]}, {"type": "string"}],
            "$defs": defs,
        });
        assert_eq!(run(s), json!({"anyOf": [{"type": "string"}], "$defs": defs}));
        // Behind a chain of references, and in a union below the root.
        let defs =
            json!({"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/C"}]}, "C": {"not": {}}});
        let s = json!({
            "properties": {"p": {"oneOf": [{"$ref": "#/$defs/A"}, {"type": "null"}], "description": "P"}},
            "$defs": defs,
        });
        assert_eq!(run(s), json!({"properties": {"p": {"type": "null", "description": "P"}}, "$defs": defs}));
    }

    #[test]
    fn what_may_admit_a_value_stays() {
        for s in [
            // Every member empty: the schema admits nothing, and a dialect says so.
            json!({"anyOf": [{"not": {}}, false]}),
            // Not provably empty.
            json!({"anyOf": [{"not": {"type": "string"}}, {"type": "string"}]}),
            json!({"anyOf": [{"type": "number", "const": 1}, {"type": "string"}]}),
            json!({"anyOf": [{"allOf": [{"type": "number"}, {"type": "integer"}]}, {"type": "string"}]}),
            // A reference not to the root's `$defs`, or to a definition that may admit a value.
            json!({"anyOf": [{"$ref": "#/properties/n"}, {"type": "string"}], "properties": {"n": false}}),
            json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "integer"}], "$defs": {"S": {"type": "string"}}}),
        ] {
            assert_eq!(run(s.clone()), s);
        }
        // A lone member beside an assertion, or sharing a keyword with the node, stays a union.
        let s = json!({"type": "string", "anyOf": [{"not": {}}, {"minLength": 1}]});
        assert_eq!(run(s), json!({"type": "string", "anyOf": [{"minLength": 1}]}));
        let s = json!({"description": "A", "anyOf": [false, {"description": "B", "type": "string"}]});
        assert_eq!(run(s), json!({"description": "A", "anyOf": [{"description": "B", "type": "string"}]}));
    }
}
