//! The unit tests of `self_contained_input_schema`: the helpers and generators the topics beside
//! share, and cases of what the output says (the root's type, key order, `required`, null,
//! recursion notes, definition names, optional unions).

mod budgets;
mod drafts;
mod laws;
mod lookup;

use super::*;
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde_json::json;
use std::cell::Cell;

#[allow(clippy::needless_pass_by_value, reason = "called with `json!` values")]
fn run(schema: Value) -> Result<Value, Error> {
    self_contained_input_schema(&schema, "t")
}

/// Schema-shaped JSON for the laws below: optional unions, nullable type lists, annotations,
/// floats and escapes, references that resolve (to `#/$defs/A`, the root, a property) or do
/// not, and malformed keywords.
fn arb_schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "null", "title": "Nothing"})),
        Just(json!({"type": ["integer", "null"], "default": null})),
        Just(json!({"type": "number", "title": "N", "minimum": 1.5, "maximum": -2.25e-300})),
        Just(json!({"type": "string", "title": {"not": ["a", "string"]}})),
        Just(json!({"enum": ["x", 1, null, 2.5e-7, -17], "description": "say \"hi\"\n\u{1}"})),
        Just(json!({})),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!({"$ref": "#/$defs/A"})),
        Just(json!({"$ref": "#/$defs/A", "description": "the site's", "default": null})),
        Just(json!({"$ref": "#"})),
        Just(json!({"$ref": "#/properties/p0"})),
        Just(json!({"$ref": "#/$defs/Missing"})),
        Just(json!({"$ref": 5})),
        Just(json!({"required": "a"})),
        Just(json!({"$defs": 1, "type": "string"})),
        Just(json!({"type": "float", "minimum": 0})),
        Just(json!({"type": ["dict", "null"], "default": null})),
        Just(json!({"type": ["tuple", "array", "null"]})),
        Just(json!({"type": "any"})),
    ];
    leaf.prop_recursive(5, 40, 4, |inner| {
        prop_oneof![
            (
                prop::collection::vec((0usize..4, inner.clone()), 0..4),
                prop::collection::vec(0usize..4, 0..3),
                any::<bool>()
            )
                .prop_map(|(props, required, closed)| {
                    let properties: Map<String, Value> =
                        props.into_iter().map(|(n, p)| (format!("p{n}"), p)).collect();
                    let required: Vec<Value> = required.into_iter().map(|n| json!(format!("p{n}"))).collect();
                    let mut o = json!({"type": "object", "properties": properties, "required": required});
                    if closed {
                        o["additionalProperties"] = json!(false);
                    }
                    o
                }),
            (prop::collection::vec(inner.clone(), 1..3), 0u8..4, prop::bool::ANY).prop_map(
                |(mut members, extra, one_of)| {
                    members.push(json!({"type": "null"}));
                    let key = if one_of { "oneOf" } else { "anyOf" };
                    let mut o = json!({ key: members });
                    match extra {
                        1 => o["default"] = Value::Null,
                        2 => o["type"] = json!(["object", "null"]),
                        3 => o["properties"] = json!({"z": {"type": "string"}}),
                        _ => {}
                    }
                    o
                }
            ),
            inner.clone().prop_map(|i| json!({"type": "array", "items": i, "title": "List"})),
            inner.clone().prop_map(|i| json!({"allOf": [i, {"minProperties": 1}]})),
            inner.clone().prop_map(|i| json!({"properties": {"o": i}, "allOf": [{"required": ["o"]}, {"properties": {"p": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}]})),
            inner.clone().prop_map(|i| json!({"properties": {"o": i}, "if": {"required": ["o"]}, "then": {"required": ["p"]}})),
            inner
                .clone()
                .prop_map(|i| json!({"$ref": "#/$defs/A", "properties": {"c": i}, "required": ["c"]})),
            inner.prop_map(|i| json!({"$defs": {"B": i}, "not": {"$ref": "#/$defs/B"}})),
        ]
    })
}

/// A root: properties from `arb_schema`, and (sometimes) `$defs` with `A` in them.
fn arb_root() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(arb_schema(), 0..4),
        prop::option::of(arb_schema()),
        prop::collection::vec(0usize..4, 0..3),
        prop_oneof![Just(None), Just(Some(DRAFT_07)), Just(Some(DRAFT_04))],
    )
        .prop_map(|(props, a, required, draft)| {
            let properties: Map<String, Value> =
                props.into_iter().enumerate().map(|(n, p)| (format!("p{n}"), p)).collect();
            let required: Vec<Value> = required.into_iter().map(|n| json!(format!("p{n}"))).collect();
            let mut root =
                json!({"type": "object", "title": "Root", "properties": properties, "required": required});
            if let Some(a) = a {
                root["$defs"] = json!({ "A": a });
            }
            // A draft whose `$ref` ignores its siblings, and (draft-04) forbids an empty `required`.
            if let Some(draft) = draft {
                root["$schema"] = json!(draft);
            }
            root
        })
}

/// A root whose properties refer into five definitions that refer to each other: mostly
/// forward (a DAG, with shared targets), sometimes backward (a cycle); under `items`, optional
/// unions or beside an annotation; definitions of any type, some nullable.
fn arb_reference_graph() -> impl Strategy<Value = Value> {
    let site = (0usize..5, 0u8..4).prop_map(|(j, wrap)| {
        let r = json!({"$ref": format!("#/$defs/D{j}")});
        let site = match wrap {
            0 => r,
            1 => json!({"type": "array", "items": r}),
            2 => json!({"anyOf": [r, {"type": "null"}]}),
            _ => json!({"$ref": format!("#/$defs/D{j}"), "description": "the site's"}),
        };
        (j, site)
    });
    let definition = (prop::collection::vec(site.clone(), 0..4), any::<bool>(), 0u8..4);
    (prop::collection::vec(definition, 5), prop::collection::vec(site, 1..4), any::<bool>()).prop_map(
        |(definitions, root_sites, acyclic)| {
            let mut defs = Map::new();
            for (i, (sites, array, leaf)) in definitions.into_iter().enumerate() {
                let properties: Map<String, Value> = sites
                    .into_iter()
                    .filter(|(j, _)| !acyclic || *j > i)
                    .enumerate()
                    .map(|(k, (_, site))| (format!("p{k}"), site))
                    .collect();
                let d = match (properties.is_empty(), leaf) {
                    (true, 0) => json!({"type": "string", "title": "S", "maxLength": 3}),
                    (true, 1) => json!({"type": "number", "minimum": 1.5e-7}),
                    (true, 2) => json!({"type": ["integer", "null"], "default": null, "title": "N"}),
                    (true, _) => json!(true),
                    (false, 3) => json!({"type": "dict", "properties": properties, "required": ["p0"]}),
                    (false, _) => json!({"type": "object", "properties": properties, "required": ["p0"]}),
                };
                defs.insert(format!("D{i}"), if array { json!({"type": "array", "items": d}) } else { d });
            }
            let properties: Map<String, Value> =
                root_sites.into_iter().enumerate().map(|(k, (_, site))| (format!("r{k}"), site)).collect();
            json!({"$defs": defs, "type": "object", "properties": properties})
        },
    )
}

/// Reference sites and union holders with `properties` of their own that conflict with the
/// definition's (or the member's), nested under each other and under arrays.
fn arb_conflicting_nest() -> impl Strategy<Value = Value> {
    let leaf = Just(json!({"type": "string"}));
    let nest = leaf.prop_recursive(8, 16, 1, |inner| {
        prop_oneof![
            inner.clone().prop_map(|i| json!({"$ref": "#/$defs/A", "properties": {"r": i}})),
            inner.clone().prop_map(|i| json!({
                "properties": {"h": i},
                "anyOf": [{"type": "object", "properties": {"m": {"type": "integer"}}}, {"type": "null"}]
            })),
            inner.prop_map(|i| json!({"type": "array", "items": i})),
        ]
    });
    nest.prop_map(|n| {
        json!({
            "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}},
            "type": "object", "properties": {"n": n}, "required": ["n"]
        })
    })
}

fn options(max_bytes: usize, max_depth: usize) -> SelfContainedOptions {
    SelfContainedOptions { max_bytes, max_depth }
}

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
const DRAFT_04: &str = "http://json-schema.org/draft-04/schema#";

#[test]
fn a_root_type_that_does_not_say_object_is_named_as_written_on_every_path() {
    // Without anything to rewrite, with a title and an optional `null` the rewrite would drop,
    // and with definitions (the general path).
    let schemas = [
        json!({"type": ["string", "null"], "properties": {"a": {"type": "string"}}}),
        json!({"type": ["string", "null"], "title": "T", "properties": {"a": {"title": "A"}}}),
        json!({"type": ["string", "null"], "$defs": {"A": {}}, "properties": {"a": {"$ref": "#/$defs/A"}}}),
    ];
    for schema in schemas {
        let borrowed = self_contained_input_schema(&schema, "t");
        let owned = self_contained_input_schema_owned(schema.clone(), "t");
        for result in [borrowed, owned] {
            match result {
                Err(Error::RootNotObject { found, .. }) => {
                    assert_eq!(found, r#"["string","null"]"#, "{schema}");
                }
                other => panic!("{schema}: {other:?}"),
            }
        }
    }
}

#[test]
fn the_survey_sorts_every_key_as_the_walker_does() {
    for &(keyword, shape) in walk::KEYWORDS {
        let expected = match keyword {
            "$defs" | "definitions" => Role::Stop,
            "anyOf" | "oneOf" => Role::Union,
            _ => Role::Children(shape),
        };
        assert_eq!(survey_role(keyword), expected, "{keyword}");
    }
    let others = [
        ("$ref", Role::Stop),
        ("$dynamicRef", Role::Stop),
        ("$recursiveRef", Role::Stop),
        ("$id", Role::Value),
        ("title", Role::Title),
        ("required", Role::Required),
        ("type", Role::Type),
        ("enum", Role::Value),
        ("default", Role::Value),
        ("description", Role::Value),
        ("format", Role::Value),
        ("minItems", Role::Value),
        ("Items", Role::Value),
        ("propertie", Role::Value),
        ("", Role::Value),
    ];
    for (key, role) in others {
        assert_eq!(survey_role(key), role, "{key}");
        assert_eq!(walk::keyword_shape(key), None, "{key}");
    }
}

#[test]
fn a_required_list_is_bounded_as_any_value_beside_and_refused_unless_it_holds_names() {
    for names in [json!([]), json!(["a"]), json!(["a", "bc", "d\"e"])] {
        assert_eq!(names_bound(&names), bound_beside(&names), "{names}");
    }
    for bad in [json!(null), json!("a"), json!(["a", 1]), json!({"a": "b"})] {
        assert_eq!(names_bound(&bad), None, "{bad}");
    }
}

#[test]
fn the_plain_survey_stops_at_a_reference_and_the_general_path_inlines_it() {
    let schema = json!({"properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}});
    assert!(survey(&schema, 0, SelfContainedOptions::DEFAULT_MAX_DEPTH).is_none());
    let out = run(schema).unwrap();
    assert_eq!(out["properties"]["b"], json!({"type": "string"}));
}

#[test]
fn a_required_nullable_field_keeps_null_in_a_type_list() {
    let out = run(json!({
        "properties": {
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "B"},
            "c": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
        },
        "required": ["b"]
    }))
    .unwrap();
    assert_eq!(out["properties"], json!({"b": {"type": ["string", "null"]}, "c": {"type": "string"}}));
}

#[test]
fn nullable_enum_members_keep_the_union() {
    let out = run(json!({
        "properties": {"e": {"anyOf": [{"enum": ["x"], "type": "string"}, {"type": "null"}]}},
        "required": ["e"]
    }))
    .unwrap();
    assert_eq!(
        out["properties"]["e"],
        json!({"anyOf": [{"enum": ["x"], "type": "string"}, {"type": "null"}]})
    );
}

#[test]
fn a_recursion_point_keeps_the_type_and_a_note_that_needs_no_article() {
    let out = run(json!({
        "$defs": {"Item": {"anyOf": [{"type": "object", "properties": {"next": {"$ref": "#/$defs/Item"}}}, {"type": "array"}]}},
        "properties": {"i": {"$ref": "#/$defs/Item"}}, "required": ["i"]
    }))
    .unwrap();
    let point = &out["properties"]["i"]["anyOf"][0]["properties"]["next"];
    assert_eq!(
        point,
        &json!({"type": ["object", "array"], "description": "Item: the same shape as the Item that contains it."})
    );
    // "User" starts with a vowel letter and a consonant sound, "Hour" the other way round: the
    // note reads the same for every name.
    for name in ["User", "Hour", "Node"] {
        let out = run(json!({
            "$defs": {name: {"type": "object", "properties": {"next": {"$ref": format!("#/$defs/{name}")}}}},
            "properties": {"n": {"$ref": format!("#/$defs/{name}")}}
        }))
        .unwrap();
        assert_eq!(
            out["properties"]["n"]["properties"]["next"]["description"],
            json!(format!("{name}: the same shape as the {name} that contains it."))
        );
    }
}

#[test]
fn a_definition_is_named_by_the_same_pointer_however_its_reference_is_spelled() {
    // `#/$defs/Bad` is read without decoding; `#/$defs/B%61d` and `#/$defs/a~1b~0` go through
    // the decoder. Each names the definition by its escaped pointer.
    let schema = |r: &str, defs: Value| json!({"$defs": defs, "properties": {"a": {"$ref": r}}});
    let bad = json!({"Bad": {"required": "x"}});
    for r in ["#/$defs/Bad", "#/$defs/B%61d"] {
        let err = run(schema(r, bad.clone())).unwrap_err();
        assert_eq!((err.kind(), err.pointer()), ("malformed", "/$defs/Bad/required"), "{r}");
    }
    let escaped = json!({"a/b~": {"required": "x"}});
    let err = run(schema("#/$defs/a~1b~0", escaped)).unwrap_err();
    assert_eq!(err.pointer(), "/$defs/a~1b~0/required");
    let err = run(schema("#/$defs/Gone", bad)).unwrap_err();
    assert_eq!((err.kind(), err.pointer()), ("missing-reference", "/properties/a"));
    // A recursion point's note names the definition by its name, however it was reached.
    let tree = |r: &str| {
        json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": r}}}},
               "properties": {"n": {"$ref": r}}})
    };
    assert_eq!(run(tree("#/$defs/Node")), run(tree("#/$defs/N%6Fde")));
}

#[test]
fn an_optional_union_built_apart_gives_what_copying_and_rewriting_gives() {
    let shapes = [
        json!({"anyOf": [{"type": "string", "title": "S"}, {"type": "null"}], "default": null, "title": "T"}),
        json!({"anyOf": [{"type": "string"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "default": null}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": "x"}),
        json!({"anyOf": [{"type": "null"}, {"type": "null", "description": "none"}]}),
        json!({"anyOf": [true, {"type": "null"}], "default": null}),
        json!({"anyOf": [{"$ref": "#/$defs/N"}, {"type": "string"}], "default": null}),
        json!({"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/N"}], "default": null}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "oneOf": [{"type": "null"}]}),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"}),
        json!({"anyOf": [{"type": "string"}, 5, {"type": "null"}]}),
        json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "null"}]}, {"type": "null"}]}),
        json!({"anyOf": [], "default": null}),
        json!({"anyOf": {"type": "string"}}),
    ];
    let defs = json!({"N": {"type": "null", "title": "N"}, "S": {"type": "string", "title": "S"}});
    for shape in shapes {
        for required in [json!([]), json!(["p"])] {
            let schema = json!({"$defs": defs, "properties": {"p": shape}, "required": required});
            let built = |builder| build_root_as(&schema, "t", &SelfContainedOptions::new(), false, builder);
            assert_eq!(built(Builder::Construct), built(Builder::Copy), "{schema}");
        }
        // The root itself, beside the definitions.
        let mut root = shape.clone();
        root["$defs"] = defs.clone();
        let built = |builder| build_root_as(&root, "t", &SelfContainedOptions::new(), false, builder);
        assert_eq!(built(Builder::Construct), built(Builder::Copy), "{root}");
    }
}
