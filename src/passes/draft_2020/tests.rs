use super::*;
use serde_json::json;

fn run(mut s: Value) -> Result<Value, SchemaGenerationError> {
    Draft2020.run(&mut s, &mut PassContext::new(None)).map(|()| s)
}

const D4: &str = "http://json-schema.org/draft-04/schema#";
const D7: &str = "http://json-schema.org/draft-07/schema#";

#[test]
fn definitions_become_defs_and_every_reference_through_them_follows() {
    let s = json!({
        "$schema": D7,
        "definitions": {
            "A": {"type": "object", "properties": {"b": {"type": "string"}}},
            "N": {"definitions": {"Inner": {"type": "integer"}}, "$ref": "#/definitions/N/definitions/Inner"}
        },
        "properties": {
            "a": {"$ref": "#/definitions/A"},
            "b": {"$ref": "#/definitions/A/properties/b"},
            "c": {"$ref": "#/definitions/N"},
            "d": {"definitions": {"L": {"type": "null"}}, "anyOf": [{"$ref": "#/properties/d/definitions/L"}]},
            "definitions": {"type": "string"},
            "e": {"$ref": "#/properties/definitions"}
        }
    });
    assert_eq!(
        run(s).unwrap(),
        json!({
            "$defs": {
                "A": {"type": "object", "properties": {"b": {"type": "string"}}},
                "N": {"$defs": {"Inner": {"type": "integer"}}, "$ref": "#/$defs/N/$defs/Inner"}
            },
            "properties": {
                "a": {"$ref": "#/$defs/A"},
                "b": {"$ref": "#/$defs/A/properties/b"},
                "c": {"$ref": "#/$defs/N"},
                "d": {"$defs": {"L": {"type": "null"}}, "anyOf": [{"$ref": "#/properties/d/$defs/L"}]},
                "definitions": {"type": "string"},
                "e": {"$ref": "#/properties/definitions"}
            }
        })
    );
}

#[test]
fn a_name_in_both_maps_keeps_both_schemas_under_names_chosen_the_same_way_every_time() {
    let s = json!({
        "$defs": {"A": {"type": "string"}, "A_1": {"type": "null"}, "Same": {"type": "integer"}},
        "definitions": {"A": {"type": "boolean"}, "Same": {"type": "integer"}},
        "properties": {
            "x": {"$ref": "#/definitions/A"},
            "y": {"$ref": "#/$defs/A"},
            "z": {"$ref": "#/definitions/Same"}
        }
    });
    assert_eq!(
        run(s).unwrap(),
        json!({
            "$defs": {"A": {"type": "string"}, "A_1": {"type": "null"}, "A_2": {"type": "boolean"}, "Same": {"type": "integer"}},
            "properties": {
                "x": {"$ref": "#/$defs/A_2"},
                "y": {"$ref": "#/$defs/A"},
                "z": {"$ref": "#/$defs/Same"}
            }
        })
    );
}

#[test]
fn dependencies_split_into_required_and_schemas() {
    let s = json!({
        "dependencies": {"a": ["b", "c"], "d": {"required": ["e"]}, "f": {"$ref": "#/dependencies/d"}},
        "dependentRequired": {"a": ["c", "x"]},
        "properties": {"r": {"$ref": "#/dependencies/d"}}
    });
    assert_eq!(
        run(s).unwrap(),
        json!({
            "dependentRequired": {"a": ["c", "x", "b"]},
            "dependentSchemas": {"d": {"required": ["e"]}, "f": {"$ref": "#/dependentSchemas/d"}},
            "properties": {"r": {"$ref": "#/dependentSchemas/d"}}
        })
    );
    // Beside a schema already there, both apply.
    let s =
        json!({"dependencies": {"a": {"minProperties": 2}}, "dependentSchemas": {"a": {"required": ["b"]}}});
    assert_eq!(
        run(s).unwrap(),
        json!({"dependentSchemas": {"a": {"allOf": [{"required": ["b"]}, {"minProperties": 2}]}}})
    );
    // A malformed one is left for WellFormed to refuse.
    let s = json!({"dependencies": {"a": 3}});
    assert_eq!(run(s.clone()).unwrap(), s);
}

#[test]
fn a_tuple_becomes_prefix_items_and_references_into_it_follow() {
    let s = json!({"properties": {
        "t": {"items": [{"type": "string"}, {"type": "integer"}], "additionalItems": {"type": "null"}},
        "u": {"$ref": "#/properties/t/items/1"},
        "v": {"$ref": "#/properties/t/additionalItems"},
        "w": {"items": {"type": "string"}, "additionalItems": false}
    }});
    assert_eq!(
        run(s).unwrap(),
        json!({"properties": {
            "t": {"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": {"type": "null"}},
            "u": {"$ref": "#/properties/t/prefixItems/1"},
            "v": {"$ref": "#/properties/t/items"},
            "w": {"items": {"type": "string"}}
        }})
    );
}

#[test]
fn a_reference_repointed_into_a_tuple_is_then_searched_for_loops_as_it_reads() {
    let mut s = json!({"properties": {"q": {"items": [{"$ref": "#/properties/q/items/0"}]}}});
    let mut cx = PassContext::new(None);
    Draft2020.run(&mut s, &mut cx).unwrap();
    let err = super::super::CheckRefs.run(&mut s, &mut cx).unwrap_err();
    assert_eq!(err.pointer(), Some("/properties/q/prefixItems/0/$ref"), "{err}");
    assert!(err.to_string().contains("comes back to the schema it stands in"), "{err}");
    // Where no tuple is, a reference through `items/0` points at nothing, and stays as written.
    let mut s = json!({"properties": {"q": {"items": {"$ref": "#/properties/q/items/0"}}}});
    Draft2020.run(&mut s, &mut cx).unwrap();
    assert!(super::super::CheckRefs.run(&mut s, &mut cx).is_err());
}

#[test]
fn boolean_exclusive_bounds_become_numbers() {
    let s = json!({"$schema": D4, "properties": {
        "a": {"maximum": 5, "exclusiveMaximum": true, "minimum": 1, "exclusiveMinimum": false},
        "b": {"exclusiveMaximum": true},
        "c": {"exclusiveMinimum": 3}
    }});
    assert_eq!(
        run(s).unwrap(),
        json!({"properties": {"a": {"exclusiveMaximum": 5, "minimum": 1}, "b": {}, "c": {"exclusiveMinimum": 3}}})
    );
}

#[test]
fn draft_4_id_becomes_dollar_id_and_a_property_named_id_stays() {
    let s = json!({"$schema": D4, "id": "http://example.com/s", "properties": {"id": {"type": "string", "id": "#x"}}});
    assert_eq!(
        run(s).unwrap(),
        json!({"$id": "http://example.com/s", "properties": {"id": {"type": "string", "$id": "#x"}}})
    );
    // Under draft-07 `id` is no keyword.
    let s = json!({"$schema": D7, "id": "x", "properties": {"id": {}}});
    assert_eq!(run(s).unwrap(), json!({"id": "x", "properties": {"id": {}}}));
}

#[test]
fn keywords_beside_a_draft_7_reference_go_and_a_2020_12_one_keeps_them() {
    let s = json!({"$schema": D7, "definitions": {"P": {"type": "integer"}},
            "properties": {"a": {"$ref": "#/definitions/P", "maximum": 10, "description": "d"}}});
    assert_eq!(
        run(s).unwrap(),
        json!({"$defs": {"P": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/P", "description": "d"}}})
    );
    let s = json!({"$defs": {"P": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/P", "maximum": 10}}});
    assert_eq!(run(s.clone()).unwrap(), s);
}

#[test]
fn nested_schema_goes_and_the_roots_goes_when_it_names_an_earlier_draft() {
    let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "items": {"$schema": D7}});
    assert_eq!(
        run(s).unwrap(),
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "items": {}})
    );
    for uri in [
        D4,
        D7,
        "https://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-03/schema#",
        "https://json-schema.org/draft/2019-09/schema#",
    ] {
        assert_eq!(
            run(json!({"$schema": uri, "type": "string"})).unwrap(),
            json!({"type": "string"}),
            "{uri}"
        );
    }
}

#[test]
fn a_recursive_reference_to_the_root_becomes_a_reference() {
    let s = json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true,
            "properties": {"next": {"$recursiveRef": "#"}}});
    assert_eq!(run(s).unwrap(), json!({"properties": {"next": {"$ref": "#"}}}));
    for (s, why) in [
        (json!({"properties": {"next": {"$recursiveRef": "#/$defs/A"}}}), "only `\"#\"`"),
        (
            json!({"properties": {"next": {"$recursiveRef": "#"}, "o": {"$id": "http://e.com/o", "$recursiveAnchor": true}}}),
            "nested `$id`",
        ),
    ] {
        let err = run(s).unwrap_err();
        assert_eq!(err.pointer(), Some("/properties/next/$recursiveRef"));
        assert!(err.to_string().contains(why), "{err}");
    }
}

#[test]
fn an_unknown_dialect_is_refused_naming_it() {
    for (s, named) in [
        (json!({"$schema": "https://example.com/my-meta"}), "`https://example.com/my-meta`"),
        (json!({"$schema": "json-schema.org/draft-07/schema"}), "`json-schema.org/draft-07/schema`"),
        (json!({"$schema": "http://json-schema.org/draft-05/schema#"}), "draft-05"),
        (json!({"$schema": 7}), "the number `7`"),
    ] {
        let err = run(s).unwrap_err();
        assert_eq!(err.pointer(), Some("/$schema"));
        let text = err.to_string();
        assert!(text.contains(named) && text.contains("dialect") && text.contains("2020-12"), "{text}");
    }
}

#[test]
fn a_2020_12_schema_is_left_as_it_is() {
    let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": {}},
            "prefixItems": [{"$ref": "#/$defs/A"}], "items": false, "dependentRequired": {"a": ["b"]},
            "exclusiveMaximum": 3, "properties": {"id": {}, "dependencies": {}, "definitions": {}}});
    assert_eq!(run(s.clone()).unwrap(), s);
}

#[test]
fn the_depth_budget_holds() {
    let mut s = json!({"items": [{}]});
    for _ in 0..200 {
        s = json!({"items": s});
    }
    let err = Draft2020.run(&mut s, &mut PassContext::new(None)).unwrap_err();
    assert!(matches!(err, SchemaGenerationError::TooDeep { .. }), "{err}");
    crate::walk::drop_any_depth(s);
}
