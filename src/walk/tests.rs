//! The walk's unit tests: the keyword table, children in key order, copies and sizes, the depth
//! budget and the nesting check.

use super::*;
use serde_json::json;

#[test]
fn keyword_table_is_sorted_and_the_lookup_agrees_with_it() {
    assert!(KEYWORDS.windows(2).all(|w| w[0].0 < w[1].0));
    for &(keyword, shape) in KEYWORDS {
        assert_eq!(static_keyword(keyword), Some((keyword, shape)), "{keyword}");
        // A prefix, an extension and a change of case are not keywords.
        assert_eq!(static_keyword(&keyword[..keyword.len() - 1]), None, "{keyword}");
        assert_eq!(static_keyword(&format!("{keyword}s")), None, "{keyword}");
        assert_eq!(static_keyword(&keyword.to_uppercase()), None, "{keyword}");
    }
    for other in ["", "type", "title", "description", "required", "enum", "default", "const", "format"] {
        assert_eq!(static_keyword(other), None, "{other}");
    }
}

proptest::proptest! {
    // Law: the keyword lookup answers exactly as a binary search over KEYWORDS does.
    #[test]
    fn keyword_lookup_agrees_with_a_binary_search(
        k in proptest::prop_oneof![
            "[$a-zA-Z]{0,22}",
            proptest::sample::select(KEYWORDS.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>()),
        ]
    ) {
        let want = KEYWORDS.binary_search_by(|(w, _)| (*w).cmp(k.as_str())).ok().map(|i| KEYWORDS[i]);
        proptest::prop_assert_eq!(static_keyword(&k), want);
    }
}

#[test]
fn visits_every_schema_bearing_keyword_and_nothing_else() {
    let s = json!({
        "additionalProperties": {}, "contains": {}, "contentSchema": {}, "else": {},
        "if": {}, "not": {}, "propertyNames": {}, "then": {}, "unevaluatedItems": {},
        "unevaluatedProperties": false, "additionalItems": {},
        "allOf": [{}], "anyOf": [{}], "oneOf": [{}], "prefixItems": [{}],
        "$defs": {"a": {}}, "definitions": {"a": {}}, "dependentSchemas": {"a": {}},
        "patternProperties": {"^a": {}}, "properties": {"a": {}},
        "dependencies": {"a": {}, "b": ["c"]},
        "const": {"type": "x"}, "enum": [{}], "default": {}, "examples": [{}],
        "items": [{}, true]
    });
    let mut seen = vec![];
    for_each_child(&s, |step, _| seen.push(step.to_string()));
    seen.sort();
    let mut want: Vec<String> = [
        "/$defs/a",
        "/additionalItems",
        "/additionalProperties",
        "/allOf/0",
        "/anyOf/0",
        "/contains",
        "/contentSchema",
        "/definitions/a",
        "/dependencies/a",
        "/dependentSchemas/a",
        "/else",
        "/if",
        "/items/0",
        "/items/1",
        "/not",
        "/oneOf/0",
        "/patternProperties/^a",
        "/prefixItems/0",
        "/properties/a",
        "/propertyNames",
        "/then",
        "/unevaluatedItems",
        "/unevaluatedProperties",
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    want.sort();
    assert_eq!(seen, want);
}

#[test]
fn nesting_exceeds_names_the_first_place_past_the_limit() {
    let v = json!({"default": [[[1]]]});
    assert_eq!(nesting_exceeds(&v, 3).as_deref(), Some("/default/0/0"));
    assert_eq!(nesting_exceeds(&v, 4), None);
}

#[test]
fn size_beside_children_and_the_children_add_up_to_each_keyword_value() {
    let len = |v: &Value| serde_json::to_vec(v).unwrap().len() as u64;
    let key_len = |k: &str| len(&Value::String(k.to_owned()));
    let s = json!({
        "items": [{"a": 1}, 5, true], "properties": {"x\"": {"type": "string"}, "y": [3, "é\n"]},
        "anyOf": {"not": "a list"}, "not": {}, "allOf": [], "patternProperties": {}, "if": false,
        "dependencies": {"a": ["b"], "c": {}}, "additionalProperties": 7, "prefixItems": []
    });
    let Value::Object(map) = &s else { unreachable!() };
    for (key, value) in map {
        let shape = keyword_shape(key).unwrap();
        let mut children = 0;
        for_each_child(&json!({ key.as_str(): value }), |_, child| children += len(child));
        assert_eq!(size_beside_children(shape, value, key_len, len) + children, len(value), "{key}");
    }
}

#[test]
fn children_come_in_key_order_whatever_the_map_order() {
    // Inserted out of order: with serde_json's `preserve_order` the map iterates like this.
    let mut props = serde_json::Map::new();
    for name in ["b", "a", "c"] {
        props.insert(name.into(), json!({}));
    }
    let mut schema = serde_json::Map::new();
    schema.insert("properties".into(), Value::Object(props));
    schema.insert("items".into(), json!({}));
    schema.insert("$defs".into(), json!({"z": {}, "y": {}}));
    let mut schema = Value::Object(schema);
    let want = ["/$defs/y", "/$defs/z", "/items", "/properties/a", "/properties/b", "/properties/c"];
    let mut seen = vec![];
    for_each_child(&schema, |step, _| seen.push(step.to_string()));
    assert_eq!(seen, want);
    let mut seen_mut = vec![];
    let _ = for_each_child_mut(&mut schema, |step, _| -> Result<(), ()> {
        seen_mut.push(step.to_string());
        Ok(())
    });
    assert_eq!(seen_mut, want);
}

#[test]
fn for_each_child_where_skips_refused_keywords_and_keeps_the_rest_in_order() {
    let schema = json!({
        "$defs": {"A": {}}, "definitions": {"B": {}}, "items": {},
        "properties": {"b": {}, "a": {}}, "anyOf": [{}, true]
    });
    let mut seen = vec![];
    for_each_child_where(
        &schema,
        |k| !matches!(k, "$defs" | "definitions"),
        |step, _| {
            seen.push(step.to_string());
        },
    );
    assert_eq!(seen, ["/anyOf/0", "/anyOf/1", "/items", "/properties/a", "/properties/b"]);
    let mut all = 0;
    for_each_child(&schema, |_, _| all += 1);
    assert_eq!(all, 7);
}

#[test]
fn copy_children_rebuilds_subschemas_clones_data_and_stops_at_the_first_error() {
    let s = json!({"items": [{"a": 1}, 5], "properties": {"y": 3, "x": {}}, "enum": [{}], "title": "t",
                   "allOf": [true], "not": 4});
    let Value::Object(map) = &s else { unreachable!() };
    let f = |step: Step<'_>, _: &Value| Ok::<_, ()>(json!(step.to_string()));
    let clone = |v: &Value| Ok(v.clone());
    let copied = copy_children(map, |k, _| k != "title", clone, f).unwrap();
    assert_eq!(
        Value::Object(copied.clone()),
        json!({"allOf": ["/allOf/0"], "enum": [{}], "items": ["/items/0", 5], "not": 4,
               "properties": {"x": "/properties/x", "y": 3}})
    );
    // The keys come out in byte order, whatever the map type.
    assert!(copied.keys().is_sorted());
    // `copy` takes every value that is not a subschema; `keep` sees each entry's value.
    let marked = copy_children(map, |k, v| !(k == "title" && v == "t"), |_| Ok(json!("copied")), f).unwrap();
    assert_eq!(
        Value::Object(marked),
        json!({"items": ["/items/0", "copied"], "properties": {"x": "/properties/x", "y": "copied"},
               "enum": "copied", "allOf": ["/allOf/0"], "not": "copied"})
    );
    let mut seen = Vec::new();
    for_each_child(&s, |step, _| seen.push(step.to_string()));
    let mut visited = Vec::new();
    let err = copy_children(
        map,
        |_, _| true,
        |v| Ok(v.clone()),
        |step, _| {
            visited.push(step.to_string());
            if visited.len() == 3 { Err(step.to_string()) } else { Ok(Value::Null) }
        },
    );
    assert_eq!(visited, seen[..3]);
    assert_eq!(err, Err(seen[2].clone()));
}

#[test]
fn depth_budget_stops_before_descending() {
    let mut v = json!({"type": "string"});
    for _ in 0..10 {
        v = json!({ "items": v });
    }
    let mut count = 0;
    let err = visit_all(&v, 3, &mut |_, _| {
        count += 1;
        true
    })
    .unwrap_err();
    assert_eq!(err, "/items/items/items/items");
    assert_eq!(count, 4);
    assert!(visit_all(&v, 10, &mut |_, _| true).is_ok());
}

/// Nesting of arrays and objects, the naive recursive way.
fn nesting(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

fn arb_nested() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf =
        prop_oneof![Just(json!(null)), any::<i32>().prop_map(|n| json!(n)), "[a-c]".prop_map(|s| json!(s))];
    leaf.prop_recursive(12, 64, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            proptest::collection::btree_map("[a-c/~]", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest::proptest! {
    // Law: `nesting_exceeds` refuses exactly the values nested deeper than the limit, and its
    // pointer leads to a value that is itself nested past what is left of the limit.
    #[test]
    fn nesting_exceeds_agrees_with_a_naive_depth(v in arb_nested(), limit in 0usize..14) {
        let found = nesting_exceeds(&v, limit);
        proptest::prop_assert_eq!(found.is_some(), nesting(&v) > limit);
        if let Some(pointer) = found {
            let at = v.pointer(&pointer).expect("the pointer leads into the value");
            let steps = crate::pointer::tokens(&pointer).map_or(0, |t| t.len());
            proptest::prop_assert!(steps + nesting(at) > limit, "{pointer}");
        }
    }
}
