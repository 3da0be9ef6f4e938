use super::*;
use serde_json::{Map, json};

fn cx(levels: usize) -> AdaptContext<'static> {
    AdaptContext::default().with_recursion_depth(levels)
}

#[test]
fn only_the_definitions_on_a_cycle_are_recursive() {
    let schema = json!({"properties": {"a": {"$ref": "#/$defs/A"}, "l": {"$ref": "#/$defs/Leaf"}},
            "$defs": {"A": {"properties": {"b": {"$ref": "#/$defs/B"}, "l": {"$ref": "#/$defs/Leaf"}}},
                      "B": {"items": {"$ref": "#/$defs/A"}},
                      "Leaf": {"type": "string"},
                      "Self": {"items": {"$ref": "#/$defs/Self"}}}});
    let found: Vec<String> = recursive_targets(&schema, 64).into_iter().collect();
    // `Self` is on a cycle but unreachable from the root.
    assert_eq!(found, vec!["/$defs/A", "/$defs/B"]);
    let root = json!({"properties": {"next": {"$ref": "#"}}});
    assert_eq!(recursive_targets(&root, 64).into_iter().collect::<Vec<_>>(), vec![""]);
}

#[test]
fn a_recursive_reference_is_copied_to_the_depth_then_cut() {
    let schema = json!({"type": "object", "properties": {"next": {"$ref": "#", "description": "more"}}});
    let mut errors = Vec::new();
    let out = unroll("d", schema.clone(), &cx(2), &mut errors);
    assert!(errors.is_empty());
    assert_eq!(out.original.as_deref(), Some(&schema));
    let cut = json!({"description": "more", schema_text::MARK: "#"});
    let level2 = json!({"type": "object", "description": "more", "properties": {"next": cut}});
    let level1 = json!({"type": "object", "description": "more", "properties": {"next": level2}});
    assert_eq!(out.schema, json!({"type": "object", "properties": {"next": level1}}));
    // Depth 0: the first recursive reference is the cut.
    let out = unroll("d", schema, &cx(0), &mut errors);
    assert_eq!(out.schema, json!({"type": "object", "properties": {"next": cut}}));
}

#[test]
fn definitions_on_no_cycle_stay_references_and_a_schema_without_recursion_is_untouched() {
    let schema = json!({"properties": {"t": {"$ref": "#/$defs/T"}, "l": {"$ref": "#/$defs/L"}},
            "$defs": {"T": {"properties": {"kids": {"items": {"$ref": "#/$defs/T"}}, "l": {"$ref": "#/$defs/L"}}},
                      "L": {"type": "integer"}}});
    let mut errors = Vec::new();
    let out = unroll("d", schema.clone(), &cx(1), &mut errors);
    assert!(errors.is_empty());
    let cut = json!({schema_text::MARK: "#/$defs/T"});
    let level1 = json!({"properties": {"kids": {"items": cut}, "l": {"$ref": "#/$defs/L"}}});
    let first = json!({"properties": {"kids": {"items": level1}, "l": {"$ref": "#/$defs/L"}}});
    assert_eq!(out.schema["properties"]["t"], first);
    assert_eq!(out.schema["properties"]["l"], json!({"$ref": "#/$defs/L"}));
    assert_eq!(out.schema["$defs"], schema["$defs"]);
    let plain = json!({"properties": {"l": {"$ref": "#/$defs/L"}}, "$defs": {"L": {"type": "integer"}}});
    let out = unroll("d", plain.clone(), &cx(1), &mut errors);
    assert!(out.original.is_none());
    assert_eq!(out.schema, plain);
}

fn is_object(m: &Map<String, Value>) -> bool {
    m.get("type") == Some(&json!("object"))
}

#[test]
fn objects_past_the_nesting_limit_are_cut_at_their_place_in_the_original() {
    // Four levels through references; a limit of two cuts the third, at the reference's site.
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "n": {"type": "integer"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
                      "B": {"type": "object", "description": "b", "properties": {"c": {"type": "object"}}}}});
    let mut errors = Vec::new();
    let out = cut_nesting("d", schema.clone(), &AdaptContext::default(), 2, is_object, &mut errors);
    assert!(errors.is_empty());
    assert_eq!(out.original.as_deref(), Some(&schema));
    assert_eq!(
        out.schema["properties"]["a"],
        json!({"type": "object", "properties": {"b": {schema_text::MARK: "#/$defs/A/properties/b"}}})
    );
    assert_eq!(out.schema["properties"]["n"], json!({"type": "integer"}));
    // Within the limit nothing is copied or cut.
    let out = cut_nesting("d", schema.clone(), &AdaptContext::default(), 4, is_object, &mut errors);
    assert!(out.original.is_none());
    assert_eq!(out.schema, schema);
    // A cut inside the root's own tree is at its pointer, annotations kept.
    let out = cut_nesting("d", schema, &AdaptContext::default(), 3, is_object, &mut errors);
    assert_eq!(
        out.schema["properties"]["a"]["properties"]["b"]["properties"]["c"],
        json!({schema_text::MARK: "#/$defs/B/properties/c"})
    );
}

#[test]
fn a_fan_out_past_the_size_budget_is_refused_without_building_it() {
    // Eight recursive references per level: 8^12 copies at depth 12.
    let props: Map<String, Value> = (0..8).map(|i| (format!("p{i}"), json!({"$ref": "#"}))).collect();
    let schema = json!({"type": "object", "properties": props});
    let mut errors = Vec::new();
    let _ = unroll("d", schema, &cx(12).with_max_bytes(Some(100_000)), &mut errors);
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("writes more than 100000 bytes"), "{}", errors[0]);
}
