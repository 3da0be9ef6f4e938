//! The pass's unit tests: where an untyped schema is refused and where it passes, definitions
//! judged by their uses, recursion, and the definition lookup.

use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

fn err_at(mut s: Value) -> (String, String) {
    let e = RejectAny.run(&mut s, &mut PassContext::new(Some("T"))).unwrap_err();
    (e.pointer().unwrap().to_owned(), e.field().unwrap_or("").to_owned())
}

#[test]
fn refuses_untyped_values_where_one_is_required() {
    let table = [
        (json!(true), "", "T"),
        (json!({"description": "anything"}), "", "T"),
        (json!({"properties": {"a": {}}, "required": ["a"]}), "/properties/a", "T.a"),
        (json!({"items": true, "minItems": 1}), "/items", "T[]"),
        (json!({"prefixItems": [{"type": "string"}, {}], "minItems": 2}), "/prefixItems/1", "T.1"),
        (json!({"additionalProperties": true, "minProperties": 1}), "/additionalProperties", "T{}"),
        (json!({"patternProperties": {"^x": {}}, "minProperties": 1}), "/patternProperties/^x", "T{}"),
        (json!({"anyOf": [{"type": "string"}, true]}), "/anyOf/1", "T"),
        (
            json!({"properties": {"u": {"anyOf": [{"type": "string"}, {}]}}, "required": ["u"]}),
            "/properties/u/anyOf/1",
            "T.u",
        ),
        (
            json!({"properties": {"s": {"items": {"$ref": "#/$defs/V"}, "minItems": 1}}, "$defs": {"V": true}}),
            "/properties/s/items",
            "T.s[]",
        ),
    ];
    for (schema, pointer, field) in table {
        assert_eq!(err_at(schema.clone()), (pointer.to_owned(), field.to_owned()), "{schema}");
    }
}

// Regression: where the model may send nothing, an untyped schema is what the type
// declares (`Vec<Value>`, `HashMap<String, Option<Value>>`, a flattened map of `Value`, a
// flattened `Option<Op>`), and passes unchanged.
#[test]
fn untyped_schemas_where_the_model_may_send_nothing_pass_unchanged() {
    for s in [
        json!({"type": "object", "properties": {"v": {"type": "array", "items": true}}, "required": ["v"]}),
        json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": true}}, "required": ["m"]}),
        json!({"type": "object", "properties": {"id": {"type": "integer"}}, "additionalProperties": true, "required": ["id"]}),
        json!({"type": "array", "prefixItems": [{"type": "string"}, {}], "minItems": 1}),
        json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
               "anyOf": [{"oneOf": [{"type": "object", "properties": {"t": {"const": "A"}}, "required": ["t"]}]}, {}]}),
        json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {}]}}),
        json!({"type": "array", "items": {"$ref": "#/$defs/U"}, "$defs": {"U": {"anyOf": [{"type": "string"}, {}]}}}),
    ] {
        let mut v = s.clone();
        RejectAny.run(&mut v, &mut PassContext::new(Some("T"))).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(v, s);
    }
}

// A definition first reached where nothing must be sent is judged again where something must.
#[test]
fn a_union_definition_used_twice_is_judged_by_the_use_that_must_hold_a_value() {
    let s = json!({
        "type": "object",
        "properties": {"many": {"type": "array", "items": {"$ref": "#/$defs/U"}}, "one": {"$ref": "#/$defs/U"}},
        "required": ["many", "one"],
        "$defs": {"U": {"anyOf": [{"type": "string"}, {}]}}
    });
    assert_eq!(err_at(s), ("/$defs/U/anyOf/1".to_owned(), "T.one".to_owned()));
}

// Regression: the content vocabulary only annotates in 2020-12, so a schema made of it accepts any
// value and a required property spelled that way was let through.
#[test]
fn a_schema_of_content_keywords_alone_is_untyped() {
    let s = json!({"properties": {"blob": {"contentMediaType": "text/plain"}}, "required": ["blob"]});
    assert_eq!(err_at(s), ("/properties/blob".to_owned(), "T.blob".to_owned()));
}

#[test]
fn a_required_reference_into_an_optional_untyped_property_is_refused_in_the_first_run() {
    // `a` must hold a value and points into `Holder`, whose `x` is optional there and accepts
    // anything: judged only where it stands, `x` became `{}` and a second run refused `a`.
    let s = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Holder/properties/x"}},
        "required": ["a"],
        "$defs": {"Holder": {"type": "object", "properties": {
            "x": {"oneOf": [{"type": "array"}, {"anyOf": [{"type": "number"}, {}]}]}
        }}}
    });
    let (pointer, _) = err_at(s);
    assert_eq!(pointer, "/$defs/Holder/properties/x/oneOf/1/anyOf/1");
}

#[test]
fn optional_untyped_property_gets_the_canonical_spelling() {
    let mut s = json!({"properties": {"a": true, "b": {"description": "free-form", "title": "B"}, "c": {"anyOf": [{}, {"type": "null"}]}}});
    RejectAny.run(&mut s, &mut PassContext::new(None)).unwrap();
    assert_eq!(s, json!({"properties": {"a": {}, "b": {"description": "free-form", "title": "B"}, "c": {}}}));
}

#[test]
fn typed_schemas_and_closed_maps_pass() {
    for s in [
        json!({"type": "object", "additionalProperties": false}),
        json!({"type": "string"}),
        json!({"items": {"type": "integer"}}),
        json!({"allOf": [{}]}),
        json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "string"}}}),
    ] {
        let mut v = s.clone();
        assert!(RejectAny.run(&mut v, &mut PassContext::new(None)).is_ok(), "{s}");
    }
}

#[test]
fn an_error_inside_a_definition_names_the_field_that_leads_there() {
    let s = json!({
        "properties": {"stops": {"type": "array", "items": {"$ref": "#/$defs/Stop"}}},
        "required": ["stops"],
        "$defs": {"Stop": {"properties": {"extra": true}, "required": ["extra"]}}
    });
    let e = RejectAny.run(&mut s.clone(), &mut PassContext::new(Some("Itinerary"))).unwrap_err();
    assert_eq!(e.pointer(), Some("/$defs/Stop/properties/extra"));
    assert_eq!(e.field(), Some("Itinerary.stops[].extra"));
}

#[test]
fn a_definition_no_reference_reaches_is_still_judged_under_its_own_name() {
    let s = json!({"$ref": "other.json", "$defs": {"Lost": {"properties": {"x": {}}, "required": ["x"]}}});
    let e = RejectAny.run(&mut s.clone(), &mut PassContext::new(Some("T"))).unwrap_err();
    assert_eq!((e.pointer(), e.field()), (Some("/$defs/Lost/properties/x"), Some("Lost.x")));
}

// `Item` is named only from the items of `Pair`'s second tuple member, and the root refers only
// into `Pair`'s first: neither definition is entered from the root. `Pair` is judged where it
// stands and enters `Item` through its reference, from a place where nothing must be sent, in
// either order of the map; judged where it stands when it came first, `Item`'s untyped member
// was refused (and with `preserve_order`, PruneDefs decides which comes first).
#[test]
fn a_definition_another_unreached_one_names_is_judged_through_that_reference_in_any_order() {
    // The schema with `$defs` holding `Item` and `Pair` in this order (kept with `preserve_order`).
    let schema = |item_first: bool, items: Value| -> Value {
        let item = json!({"anyOf": [{}, {"type": "string"}]});
        let pair = json!({"type": "array", "prefixItems": [{"type": "string"}, items]});
        let mut defs = Map::new();
        for (name, def) in
            if item_first { [("Item", item), ("Pair", pair)] } else { [("Pair", pair), ("Item", item)] }
        {
            defs.insert(name.to_owned(), def);
        }
        json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/Pair/prefixItems/0"}},
            "required": ["a"],
            "$defs": defs
        })
    };
    for item_first in [true, false] {
        let mut s = schema(item_first, json!({"type": "array", "items": {"$ref": "#/$defs/Item"}}));
        let before = s.clone();
        RejectAny.run(&mut s, &mut PassContext::new(Some("T"))).unwrap();
        assert_eq!(s, before);
        // Where the items must hold a value, the member is refused.
        let s =
            schema(item_first, json!({"type": "array", "items": {"$ref": "#/$defs/Item"}, "minItems": 1}));
        assert_eq!(err_at(s).0, "/$defs/Item/anyOf/0");
    }
}

#[test]
fn mutually_recursive_definitions_terminate_and_report_the_path_through_both() {
    let s = json!({
        "$ref": "#/$defs/A",
        "$defs": {
            "A": {"properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"properties": {"a": {"$ref": "#/$defs/A"}, "y": {}}, "required": ["y"]}
        }
    });
    let e = RejectAny.run(&mut s.clone(), &mut PassContext::new(Some("T"))).unwrap_err();
    assert_eq!((e.pointer(), e.field()), (Some("/$defs/B/properties/y"), Some("T.b.y")));
}

#[test]
fn a_root_that_only_refers_to_an_untyped_definition_is_untyped() {
    let s = json!({"$ref": "#/$defs/A", "$defs": {"A": {"description": "x"}}});
    assert_eq!(err_at(s), (String::new(), "T".to_owned()));
    let s = json!({"$defs": {"A": {"type": "string"}}});
    assert_eq!(err_at(s), (String::new(), "T".to_owned()));
}

#[test]
fn every_definition_is_found_by_its_name_and_no_other_name_finds_one() {
    // Empty, short, shared eight-byte prefixes, a prefix of another name, bytes above ASCII;
    // listed out of order, as a map that keeps insertion order holds them.
    let names =
        ["Stopover", "", "StopoverKind", "A", "Stop", "Stopove", "StopoverKinds", "Zé", "Stopover\u{0}"];
    let defs: Map<String, Value> =
        names.iter().enumerate().map(|(i, n)| ((*n).to_owned(), json!({"const": i}))).collect();
    let root = json!({"$defs": defs, "definitions": {"A": {"const": "other map"}}});
    let doc = Document::new(&root);
    for (i, name) in names.iter().enumerate() {
        let found = doc.position(0, name).map(|at| doc.at(at)).map(|(key, schema)| (key.as_str(), schema));
        assert_eq!(found, Some((*name, &json!({"const": i}))), "{name:?}");
    }
    for missing in ["Stopo", "StopoverK", "B", "Zz", "\u{0}", "Stopover\u{0}\u{0}"] {
        assert_eq!(doc.position(0, missing), None, "{missing:?}");
    }
    assert_eq!(doc.position(1, "A").map(|at| doc.at(at).1), Some(&json!({"const": "other map"})));
    assert_eq!(doc.position(1, "Stop"), None);
}

#[test]
fn a_remembered_lookup_answers_only_for_the_same_reference_text() {
    let root = json!({"$defs": {"A": {"const": "a"}, "B": {"const": "b"}}});
    let doc = Document::new(&root);
    // Two texts of one length naming different definitions, and two copies of one text.
    let (a, b, a_again) = ("#/$defs/A".to_owned(), "#/$defs/B".to_owned(), "#/$defs/A".to_owned());
    for (reference, name, expected) in
        [(&a, "A", "a"), (&a, "A", "a"), (&b, "B", "b"), (&a_again, "A", "a"), (&b, "B", "b")]
    {
        let found = doc.named(reference, "$defs", name).map(|(_, schema)| schema);
        assert_eq!(found, Some(&json!({"const": expected})), "{reference}");
    }
    assert_eq!(doc.named("#/$defs/C", "$defs", "C"), None);
}

#[test]
fn self_referencing_definition_does_not_loop() {
    let s = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
    assert!(!is_untyped(&s, &Document::new(&s)));
}

/// Schemas with typed and untyped members, references (also to untyped and missing
/// definitions), required lists and nesting.
fn mixed_schema() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({})),
        Just(json!(true)),
        Just(json!({"description": "anything"})),
        Just(json!({"$ref": "#/$defs/Typed"})),
        Just(json!({"$ref": "#/$defs/Untyped"})),
        Just(json!({"$ref": "#/$defs/Missing"})),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (
                proptest::collection::btree_map("[a-c]", inner.clone(), 0..4),
                proptest::collection::vec("[a-c]", 0..3)
            )
                .prop_map(|(props, req)| json!({"type": "object", "properties": props, "required": req})),
            inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
            proptest::collection::vec(inner, 1..3).prop_map(|m| json!({"anyOf": m})),
        ]
    })
    .prop_map(|mut s| {
        if let Value::Object(m) = &mut s {
            m.insert("$defs".into(), json!({"Typed": {"type": "integer"}, "Untyped": {}}));
        }
        s
    })
}

proptest::proptest! {
    // Law: the walk without pointers passes exactly the schemas the walk with pointers passes
    // with nothing to rewrite.
    #[test]
    fn the_fast_judgement_agrees_with_the_full_one(schema in mixed_schema(), max_depth in 1usize..8) {
        let mut cx = PassContext::new(Some("T"));
        cx.max_depth = max_depth;
        let doc = Document::new(&schema);
        let fast = judge(&doc, &cx, true).is_ok();
        let full = judge(&doc, &cx, false).is_ok_and(|w| w.optional_untyped.is_empty());
        proptest::prop_assert_eq!(fast, full);
    }
}

#[test]
fn an_optional_one_of_with_an_untyped_member_is_kept_as_it_is() {
    // `oneOf: [true, X]` accepts exactly what `X` refuses: written as `{}` it would let every
    // value of `X` through (a `date-time` string here, which both members take).
    let original = json!({"type": "object", "properties": {
        "a": {"oneOf": [true, {"type": "string", "format": "date-time"}]},
        "b": {"oneOf": [{"anyOf": [{}, {"type": "null"}]}, {"type": "integer"}]}
    }});
    let mut s = original.clone();
    RejectAny.run(&mut s, &mut PassContext::new(None)).unwrap();
    assert_eq!(s, original);
}
