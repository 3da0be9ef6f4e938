//! The engine's unit tests: cases each provider must meet, driven through the dialects.

use super::object::digits_within;
use super::typed::{STRUCTURAL, skipped};
use super::*;
use serde_json::Value;

fn providers() -> [&'static dyn crate::dialect::SchemaDialect; 3] {
    [&crate::dialect::OPENAI_STRICT, &crate::dialect::ANTHROPIC_STRICT, &crate::dialect::GEMINI]
}

fn adapt_with(d: &dyn crate::dialect::SchemaDialect, s: Value) -> crate::dialect::Adapted {
    crate::dialect::adapt(d, s, &AdaptContext::default()).unwrap_or_else(|e| panic!("{}: {e:?}", d.name()))
}

#[test]
fn a_pydantic_discriminated_union_drops_discriminator_and_is_told_apart_by_its_tags() {
    let s = serde_json::json!({"$defs": {
        "Cat": {"properties": {"kind": {"const": "cat", "type": "string"}, "lives": {"type": "integer"}}, "required": ["kind", "lives"], "type": "object"},
        "Dog": {"properties": {"kind": {"const": "dog", "type": "string"}, "bark": {"type": "string"}}, "required": ["kind", "bark"], "type": "object"}},
        "properties": {"pet": {"discriminator": {"mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}, "propertyName": "kind"},
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}},
        "required": ["pet"], "type": "object"});
    for d in providers() {
        let out = adapt_with(d, s.clone());
        assert!(!out.schema.to_string().contains("discriminator"), "{}: {}", d.name(), out.schema);
        let dog = serde_json::json!({"pet": {"kind": "dog", "bark": "woof"}});
        assert_eq!(out.plan.restore(dog.clone()).unwrap(), dog, "{}", d.name());
    }
}

#[test]
fn a_discriminated_union_whose_tags_have_defaults_requires_the_tag() {
    // pydantic's `kind: Literal["cat"] = "cat"`: the tag is optional in each member, and
    // pydantic still refuses a value without it.
    let s = serde_json::json!({"$defs": {
        "Cat": {"properties": {"kind": {"const": "cat", "default": "cat", "type": "string"}, "lives": {"type": "integer"}}, "required": ["lives"], "type": "object"},
        "Dog": {"properties": {"kind": {"const": "dog", "default": "dog", "type": "string"}, "lives": {"type": "integer"}}, "required": ["lives"], "type": "object"}},
        "properties": {"pet": {"discriminator": {"mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}, "propertyName": "kind"},
            "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}},
        "required": ["pet"], "type": "object"});
    for d in providers() {
        let out = adapt_with(d, s.clone());
        let dog = serde_json::json!({"pet": {"kind": "dog", "lives": 1}});
        let sent = out.plan.encode(dog.clone());
        assert_eq!(out.plan.restore(sent).unwrap(), dog, "{}", d.name());
        let branches = out.schema["properties"]["pet"]["anyOf"].as_array().expect("a union");
        for b in branches {
            assert!(b["required"].as_array().unwrap().contains(&"kind".into()), "{}: {b}", d.name());
        }
    }
}

#[test]
fn a_null_only_property_under_gemini_is_written_as_the_text_null() {
    // pydantic's `nothing: None = None`: Gemini has no null type.
    let s = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}, "nothing": {"type": "null", "default": null}}, "required": ["a"]});
    let out = adapt_with(&crate::dialect::GEMINI, s.clone());
    assert_eq!(out.schema["properties"]["nothing"], serde_json::json!({"type": "string", "enum": ["null"]}));
    let value = serde_json::json!({"a": "x", "nothing": null});
    let sent = out.plan.encode(value.clone());
    assert_eq!(sent, serde_json::json!({"a": "x", "nothing": "null"}));
    assert_eq!(out.plan.restore(sent).unwrap(), value);
    let exact = crate::dialect::adapt(
        &crate::dialect::GEMINI,
        s,
        &AdaptContext { exact: true, ..AdaptContext::default() },
    );
    assert!(exact.is_err_and(|e| e.as_slice().iter().any(|e| e.pointer() == "/properties/nothing")));
}

#[test]
fn an_array_without_items_gets_untyped_items_written_as_json_text() {
    let s = serde_json::json!({"type": "object", "properties": {"tags": {"type": "array"}}, "required": ["tags"]});
    for d in providers() {
        let out = adapt_with(d, s.clone());
        let items = &out.schema["properties"]["tags"]["items"];
        assert_eq!(items["type"], "string", "{}: {}", d.name(), out.schema);
        let sent = serde_json::json!({"tags": ["1", "{\"a\": null}", "\"x\""]});
        let back = serde_json::json!({"tags": [1, {"a": null}, "x"]});
        assert_eq!(out.plan.restore(sent).unwrap(), back, "{}", d.name());
        assert_eq!(
            out.plan.encode(back.clone()),
            serde_json::json!({"tags": ["1", "{\"a\":null}", "\"x\""]})
        );
    }
}

#[test]
fn an_empty_enum_string_under_gemini_is_written_as_its_json_text_and_restored() {
    let s = serde_json::json!({"type": "object", "properties": {"sort": {"type": "string", "enum": ["asc", "desc", ""]}}, "required": ["sort"]});
    let out = adapt_with(&crate::dialect::GEMINI, s);
    assert_eq!(out.schema["properties"]["sort"]["enum"], serde_json::json!(["asc", "desc", "\"\""]));
    assert_eq!(
        out.plan.restore(serde_json::json!({"sort": "\"\""})).unwrap(),
        serde_json::json!({"sort": ""})
    );
    assert_eq!(
        out.plan.restore(serde_json::json!({"sort": "asc"})).unwrap(),
        serde_json::json!({"sort": "asc"})
    );
    assert_eq!(out.plan.encode(serde_json::json!({"sort": ""})), serde_json::json!({"sort": "\"\""}));
}

#[test]
fn required_alternatives_become_a_restore_check_stated_in_the_description() {
    let s = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
    for d in [
        &crate::dialect::OPENAI_STRICT as &dyn crate::dialect::SchemaDialect,
        &crate::dialect::ANTHROPIC_STRICT,
    ] {
        let out = adapt_with(d, s.clone());
        assert!(out.schema.get("anyOf").is_none(), "{}: {}", d.name(), out.schema);
        assert_eq!(out.schema["description"], "Constraints: at least one of `a`, `b`.", "{}", d.name());
        let sent = if d.name() == "openai-strict" {
            serde_json::json!({"a": null, "b": "x"})
        } else {
            serde_json::json!({"b": "x"})
        };
        assert_eq!(out.plan.restore(sent).unwrap(), serde_json::json!({"b": "x"}), "{}", d.name());
        let none = if d.name() == "openai-strict" {
            serde_json::json!({"a": null, "b": null})
        } else {
            serde_json::json!({})
        };
        let err = out.plan.restore(none).unwrap_err();
        assert_eq!(
            err.faults()[0].message,
            "must be at least one of `a`, `b`, got keys none",
            "{}",
            d.name()
        );
        let exact = crate::dialect::adapt(d, s.clone(), &AdaptContext::default().with_exact(true));
        assert!(exact.is_err(), "{}", d.name());
    }
    // Gemini writes "at least one of" as a union it enforces itself: no check to move.
    let gemini = adapt_with(&crate::dialect::GEMINI, s);
    assert!(gemini.schema.get("description").is_none(), "{}", gemini.schema);
    assert!(gemini.schema["properties"]["value"]["anyOf"].is_array(), "{}", gemini.schema);
}

#[test]
fn exactly_one_of_with_not_required_becomes_a_restore_check_in_every_provider() {
    // The "exactly one of" of cecli's insert tool: each branch requires one key and not both others.
    let s = serde_json::json!({"type": "object", "required": ["f"],
        "properties": {"f": {"type": "string"}, "a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}},
        "oneOf": [
            {"required": ["a"], "not": {"required": ["b", "c"]}},
            {"required": ["b"], "not": {"anyOf": [{"required": ["a"]}, {"required": ["c"]}]}},
            {"required": ["c"]}]});
    for d in [
        &crate::dialect::OPENAI_STRICT as &dyn crate::dialect::SchemaDialect,
        &crate::dialect::ANTHROPIC_STRICT,
        &crate::dialect::GEMINI,
    ] {
        let out = adapt_with(d, s.clone());
        assert!(
            out.schema.get("oneOf").is_none() && out.schema["properties"].get("f").is_some(),
            "{}: {}",
            d.name(),
            out.schema
        );
        assert_eq!(
            out.schema["description"],
            "Constraints: exactly one of `a` without both `b` and `c`, `b` without `a` or `c`, `c`.",
            "{}",
            d.name()
        );
        let sent = |v: Value| out.plan.encode(v);
        let restored = |v: Value| out.plan.restore(sent(v)).map_err(|e| e.faults()[0].message.clone());
        for ok in [
            serde_json::json!({"f": "x", "a": "1"}),
            serde_json::json!({"f": "x", "b": "1"}),
            serde_json::json!({"f": "x", "a": "1", "b": "2"}),
        ] {
            // `{a, b}`: the first branch holds (not both `b` and `c`), the second does not.
            assert_eq!(restored(ok.clone()), Ok(ok), "{}", d.name());
        }
        for (bad, keys) in [
            (serde_json::json!({"f": "x"}), "`f`"),
            // `{a, c}`: the first and the third branch hold.
            (serde_json::json!({"f": "x", "a": "1", "c": "3"}), "`a`, `c`, `f`"),
        ] {
            let want = format!(
                "must be exactly one of `a` without both `b` and `c`, `b` without `a` or `c`, `c`, got keys {keys}"
            );
            assert_eq!(restored(bad), Err(want), "{}", d.name());
        }
        let exact = crate::dialect::adapt(d, s.clone(), &AdaptContext::default().with_exact(true));
        assert!(exact.is_err(), "{}", d.name());
    }
}

#[test]
fn exactly_one_of_a_property_that_admits_null_is_refused_where_every_property_is_required() {
    // Under OpenAI every property is sent, null standing for absent: a null `a` could not be told
    // from an absent one, and "exactly one of" counts it.
    let s = serde_json::json!({"type": "object",
        "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "string"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
    let err = crate::dialect::adapt(&crate::dialect::OPENAI_STRICT, s.clone(), &AdaptContext::default())
        .unwrap_err();
    let text = format!("{err:?}");
    assert!(text.contains("oneOf") && text.contains("`a` is named by exactly one of"), "{text}");
    // Anthropic sends absent as absent: the check counts exactly what was sent.
    let out = adapt_with(&crate::dialect::ANTHROPIC_STRICT, s);
    assert_eq!(out.plan.restore(serde_json::json!({"a": null})).unwrap(), serde_json::json!({"a": null}));
    assert!(out.plan.restore(serde_json::json!({"a": null, "b": "x"})).is_err());
}

#[test]
fn gemini_takes_named_properties_beside_further_keys_with_or_without_required() {
    for required in [serde_json::json!([]), serde_json::json!(["a"])] {
        let s = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": required, "additionalProperties": true});
        let out = adapt_with(&crate::dialect::GEMINI, s);
        let sent = serde_json::json!({"a": 1, "additional_properties": [{"key": "c", "value": "1"}]});
        assert_eq!(out.plan.restore(sent).unwrap(), serde_json::json!({"a": 1, "c": 1}));
        let stray = serde_json::json!({"a": 1, "c": "1", "additional_properties": []});
        let err = out.plan.restore(stray).unwrap_err();
        assert!(err.to_string().contains("must have no key `c`"), "{err}");
    }
}

#[test]
fn anthropic_enum_values_differing_only_by_case_map_back_to_the_one_member() {
    let s = serde_json::json!({"type": "object", "properties": {
        "topic": {"type": "string", "enum": ["Topic one", "Topic two"]},
        "mode": {"type": "string", "enum": ["a", "A"]},
        "kind": {"const": "Fixed"}}, "required": ["topic", "mode", "kind"]});
    let out = adapt_with(&crate::dialect::ANTHROPIC_STRICT, s.clone());
    let sent = serde_json::json!({"topic": "TOPIC ONE", "mode": "a", "kind": "fixed"});
    let back = serde_json::json!({"topic": "Topic one", "mode": "a", "kind": "Fixed"});
    assert_eq!(out.plan.restore(sent).unwrap(), back);
    // Members that differ only by case are never mapped; nor is a string matching none.
    let other = serde_json::json!({"topic": "Topic three", "mode": "a", "kind": "Fixed"});
    assert_eq!(out.plan.restore(other.clone()).unwrap(), other);
    // OpenAI's and Gemini's enums are enforced exactly: no mapping.
    let openai = adapt_with(&crate::dialect::OPENAI_STRICT, s);
    let sent = serde_json::json!({"topic": "TOPIC ONE", "mode": "a", "kind": "Fixed"});
    assert_eq!(openai.plan.restore(sent.clone()).unwrap(), sent);
}

#[test]
fn an_unknown_keyword_is_an_annotation_and_dropped() {
    let s = serde_json::json!({"type": "object", "properties": {"percent": {"type": "number", "minimum": 0, "unit": "%"}}, "required": ["percent"]});
    for d in providers() {
        let out = adapt_with(d, s.clone());
        assert!(out.schema["properties"]["percent"].get("unit").is_none(), "{}", d.name());
    }
}

#[test]
fn an_enum_of_arrays_without_items_keeps_its_values_as_they_are() {
    let s =
        serde_json::json!({"type": "object", "properties": {"b": {"enum": [[1, "x"]]}}, "required": ["b"]});
    for d in providers() {
        let out = adapt_with(d, s.clone());
        let b = &out.schema["properties"]["b"];
        assert!(b.get("items").is_none(), "{}: {}", d.name(), out.schema);
        let sent = out.plan.encode(serde_json::json!({"b": [1, "x"]}));
        assert_eq!(out.plan.restore(sent).unwrap(), serde_json::json!({"b": [1, "x"]}), "{}", d.name());
    }
}

#[test]
fn skipped_is_the_three_lists() {
    for kw in crate::walk::META_DATA.iter().chain(STRUCTURAL).chain(DROPPED) {
        assert!(skipped(kw), "{kw}");
    }
    assert!(skipped("x-vendor"));
    for kw in ["minimum", "pattern", "format", "enum", "const", "uniqueItems", "not", "unknown"] {
        assert!(!skipped(kw), "{kw}");
    }
}

#[test]
fn the_serde_spelling_of_an_integer_key_is_within_schemars_key_pattern() {
    assert!(digits_within("^(?:0|[1-9][0-9]*)$", "^\\d+$"));
    assert!(digits_within("^(?:0|-?[1-9][0-9]*)$", "^-?\\d+$"));
    assert!(digits_within("^(?:0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$", "^\\d+$"));
    // A sign the key pattern refuses, a letter, no anchor, an optional-only digit: unsure.
    assert!(!digits_within("^(?:0|-?[1-9][0-9]*)$", "^\\d+$"));
    assert!(!digits_within("^[a-z]+$", "^\\d+$"));
    assert!(!digits_within("(?:0|[1-9][0-9]*)", "^\\d+$"));
    assert!(!digits_within("^[0-9]*$", "^\\d+$"));
    assert!(!digits_within("^0$", "^x$"));
}

// The key rule is profile data: a rule that holds at every depth renames a nested object's keys,
// an array's items' and a definition's, a discriminated union's tag in every branch, and restore
// and the forward map undo each other.
#[test]
fn a_key_rule_at_every_depth_renames_nested_keys_and_tags() {
    use crate::restore::rewrite::keys;
    let profile = Profile {
        keys: Some(KeyRule { top_level_only: false, ..keys::ANTHROPIC }),
        ..crate::dialect::anthropic_strict::PROFILE
    };
    let s = serde_json::json!({"type": "object", "properties": {
        "rows": {"type": "array", "items": {"$ref": "#/$defs/Row"}},
        "pet": {"oneOf": [
            {"type": "object", "properties": {"@type": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["@type"]},
            {"type": "object", "properties": {"@type": {"const": "dog"}, "good boy": {"type": "boolean"}}, "required": ["@type"]},
        ], "discriminator": {"propertyName": "@type"}},
    }, "required": ["rows", "pet"],
    "$defs": {"Row": {"type": "object", "properties": {"Account Number": {"type": "string"}}, "required": ["Account Number"]}}});
    let out = adapt(&profile, s, &AdaptContext::default()).unwrap();
    assert_eq!(out.schema["$defs"]["Row"]["required"], serde_json::json!(["Account_Number"]));
    for b in out.schema["properties"]["pet"]["anyOf"].as_array().unwrap() {
        assert_eq!(b["required"], serde_json::json!(["_type"]), "{b}");
    }
    let pointers: Vec<&str> = out.plan.renamed_keys().iter().map(|k| k.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/$defs/Row/properties/Account Number",
            "/properties/pet/oneOf/0/properties/@type",
            "/properties/pet/oneOf/1/properties/@type",
            "/properties/pet/oneOf/1/properties/good boy",
        ]
    );
    let value =
        serde_json::json!({"rows": [{"Account Number": "7"}], "pet": {"@type": "dog", "good boy": true}});
    let sent = out.plan.encode(value.clone());
    assert_eq!(
        sent,
        serde_json::json!({"rows": [{"Account_Number": "7"}], "pet": {"_type": "dog", "good_boy": true}})
    );
    assert_eq!(out.plan.restore(sent.clone()).unwrap(), value);
    assert_eq!(out.plan.decode::<Value>(sent).unwrap(), value);
}

#[test]
fn a_union_is_one_json_text_only_of_a_string_an_array_and_a_free_form_object_one_type_each() {
    use super::typed::{free_form_as_map, text_union};
    use serde_json::json;
    let own = Map::new();
    let branches = |v: Value| v.as_array().cloned().unwrap();
    let whole = branches(
        json!([{"type": "string", "maxLength": 3}, {"type": "object"}, {"type": "array", "items": {}},
        {"type": "null"}, {"type": "integer", "minimum": 0}]),
    );
    let (checks, types) = text_union(&own, &whole).expect("one text");
    assert_eq!(Value::Object(checks), json!({"maxLength": 3, "minimum": 0}));
    assert_eq!(types, TypeSet::of_type(&json!(["string", "object", "array", "null", "integer"])));
    for not in [
        // No array: the object goes as entries instead.
        json!([{"type": "string"}, {"type": "object"}]),
        // A listed value judges every type; a type twice; declared properties; typed items.
        json!([{"type": "string", "enum": ["a"]}, {"type": "object"}, {"type": "array"}]),
        json!([{"type": "string"}, {"type": "string"}, {"type": "object"}, {"type": "array"}]),
        json!([{"type": "string"}, {"type": "object", "properties": {"a": {}}}, {"type": "array"}]),
        json!([{"type": "string"}, {"type": "object"}, {"type": "array", "items": {"type": "string"}}]),
        json!([{"type": "integer"}, {"type": "number"}, {"type": "string"}, {"type": "object"}, {"type": "array"}]),
        json!([{"$ref": "#/$defs/A"}, {"type": "object"}, {"type": "array"}]),
    ] {
        assert_eq!(text_union(&own, &branches(not.clone())), None, "{not}");
    }
    assert_eq!(
        free_form_as_map(&json!({"type": "object", "additionalProperties": true, "description": "d"})),
        Some(json!({"type": "object", "additionalProperties": {}, "description": "d"}))
    );
    assert_eq!(
        free_form_as_map(&json!({"type": "object", "maxLength": 40, "minProperties": 1})),
        Some(json!({"type": "object", "additionalProperties": {}, "minProperties": 1}))
    );
    for not in [
        json!({"type": "object", "enum": [{}]}),
        json!({"type": "object", "properties": {"a": {}}}),
        json!({"type": "object", "maxProperties": 0}),
        json!({"type": "object", "additionalProperties": false}),
        json!({"type": ["object", "null"]}),
    ] {
        assert_eq!(free_form_as_map(&not), None, "{not}");
    }
}
