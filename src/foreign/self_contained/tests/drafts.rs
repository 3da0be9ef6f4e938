//! How a foreign schema's words are read: Python's type names, a name that is no type, and what
//! each draft makes of a reference (`$ref` alone before 2019-09, `$id` bases, dynamic
//! references), on every path; and the one-pass key reader.

use super::*;
use pretty_assertions::assert_eq;

#[test]
fn python_spellings_become_json_type_names_at_every_schema_position_on_every_path() {
    let schema = json!({
        "type": "dict",
        "properties": {
            "ratio": {"type": "float", "minimum": 0},
            "pair": {"type": "tuple", "items": {"type": ["float", "number", "null"]}},
            "opts": {"type": ["dict", "null"], "additionalProperties": {"type": "float"}},
            "either": {"anyOf": [{"type": "dict"}, {"type": "null"}]},
            "data": {"type": "string", "default": {"type": "float"}, "enum": ["float"]}
        },
        "required": ["ratio", "pair"]
    });
    let want = json!({
        "type": "object",
        "properties": {
            "ratio": {"type": "number", "minimum": 0},
            "pair": {"type": "array", "items": {"type": ["number", "null"]}},
            "opts": {"type": "object", "additionalProperties": {"type": "number"}},
            "either": {"type": "object"},
            "data": {"type": "string", "default": {"type": "float"}, "enum": ["float"]}
        },
        "required": ["ratio", "pair"]
    });
    let o = SelfContainedOptions::new();
    assert_eq!(inline(&schema, "t", &o, true).unwrap(), want);
    assert_eq!(inline(&schema, "t", &o, false).unwrap(), want);
    assert_eq!(self_contained_input_schema_owned(schema.clone(), "t").unwrap(), want);
    // Through a reference, a union member and a recursion point.
    let schema = json!({
        "$defs": {"Tree": {"type": "dict", "properties": {
            "kids": {"type": "tuple", "items": {"$ref": "#/$defs/Tree"}},
            "w": {"anyOf": [{"type": "float"}, {"type": "null"}]}}}},
        "properties": {"t": {"$ref": "#/$defs/Tree"}}
    });
    let tree = json!({"type": "object", "properties": {
        "kids": {"type": "array", "items": {"type": "object", "description": "Tree: the same shape as the Tree that contains it."}},
        "w": {"type": "number"}}});
    for builder in [Builder::Copy, Builder::Construct, Builder::OneWalk] {
        let (out, _) = build_root_as(&schema, "t", &o, false, builder).unwrap();
        assert_eq!(out["properties"]["t"], tree, "{builder:?}");
    }
    // A bare root `dict` needs no rewrite below the root: the plain path copies it. A name alone
    // below it is renamed, without the rewrite's walk, and the survey's bound still holds.
    let bfcl = json!({"type": "dict", "properties": {"q": {"type": "string"}}});
    let found = survey(&bfcl, 0, 8).unwrap();
    assert!(!found.rewrite && !found.rename);
    assert_eq!(run(bfcl).unwrap()["type"], "object");
    let bfcl = json!({"type": "dict", "properties": {"q": {"type": "float"}, "r": {"type": "tuple", "items": {"type": "dict"}}}});
    let found = survey(&bfcl, 0, 8).unwrap();
    assert!(!found.rewrite && found.rename);
    let (out, bound) = build_plain(&bfcl, found, "t", &o).unwrap();
    assert_eq!(
        out["properties"],
        json!({"q": {"type": "number"}, "r": {"type": "array", "items": {"type": "object"}}})
    );
    assert!(bound.unwrap() >= json_len(&finish(out, "t").unwrap()));
    assert!(survey(&json!({"properties": {"q": {"type": ["float", "null"]}}}), 0, 8).unwrap().rewrite);
}

#[test]
fn a_name_that_is_no_type_is_refused_at_its_pointer_on_every_path() {
    for (schema, kind, pointer) in [
        (json!({"type": "dict", "properties": {"x": {"type": "any"}}}), "unknown-type", "/properties/x/type"),
        (
            json!({"properties": {"x": {"items": {"type": ["string", "Long"]}}}}),
            "unknown-type",
            "/properties/x/items/type/1",
        ),
        (json!({"type": "Object", "properties": {}}), "unknown-type", "/type"),
        (json!({"type": ["dict", "any"]}), "unknown-type", "/type/1"),
        (
            json!({"$defs": {"A": {"type": "String"}}, "properties": {"a": {"$ref": "#/$defs/A"}}}),
            "unknown-type",
            "/$defs/A/type",
        ),
    ] {
        let o = SelfContainedOptions::new();
        for try_plain in [true, false] {
            let e = inline(&schema, "t", &o, try_plain).unwrap_err();
            assert_eq!((e.kind(), e.pointer()), (kind, pointer), "{schema}: {e}");
        }
        let e = self_contained_input_schema_owned(schema.clone(), "t").unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (kind, pointer), "{schema}: {e}");
    }
    // A name in a definition nothing refers to is not in the output, and not refused.
    let unused = json!({"$defs": {"U": {"type": "any"}}, "properties": {"a": {"type": "string"}}});
    assert!(run(unused).is_ok());
}

/// `schema` under each `$schema` in `drafts`, made self-contained on every path that can take it
/// (the plain path where it has no reference, each builder of the general path); asserts they
/// agree and returns the answer.
fn on_every_path(schema: &Value) -> Result<Value, Error> {
    let o = SelfContainedOptions::new();
    let answer = inline(schema, "t", &o, true);
    assert_eq!(inline(schema, "t", &o, false), answer, "{schema}");
    for builder in [Builder::Copy, Builder::Construct, Builder::OneWalk] {
        let built = build_root_as(schema, "t", &o, false, builder)
            .and_then(|(built, bound)| finish_within_budget(built, bound, "t", &o));
        assert_eq!(built, answer, "{builder:?}: {schema}");
    }
    assert_eq!(self_contained_input_schema_owned(schema.clone(), "t"), answer, "{schema}");
    answer
}

#[test]
fn under_draft_07_and_earlier_a_reference_is_its_target_alone_on_every_path() {
    let site = json!({"$ref": "#/definitions/Pos", "maximum": 10, "description": "how far",
        "properties": {"x": {"$ref": "#/definitions/Missing"}}, "required": ["x"], "type": "Widget"});
    let defs = json!({"Pos": {"type": "integer", "minimum": 0, "description": "a position"}});
    for draft in [
        DRAFT_07,
        DRAFT_04,
        "http://json-schema.org/draft-06/schema",
        "https://json-schema.org/draft-03/schema#",
    ] {
        let schema =
            json!({"$schema": draft, "definitions": defs, "properties": {"p": site}, "required": ["p"]});
        let out = on_every_path(&schema).unwrap();
        // The siblings are ignored, the broken ones included; the site's annotation stays.
        assert_eq!(
            out["properties"]["p"],
            json!({"type": "integer", "minimum": 0, "description": "how far"}),
            "{draft}"
        );
    }
    // 2020-12, or no `$schema`: the siblings apply, and the broken ones are refused.
    let schema = json!({"definitions": defs, "properties": {"p": site}});
    assert_eq!(on_every_path(&schema).unwrap_err().kind(), "unknown-type");
    let mut site = site;
    site["type"] = json!("integer");
    let schema = json!({"definitions": defs, "properties": {"p": site}});
    assert_eq!(on_every_path(&schema).unwrap_err().kind(), "missing-reference");
}

#[test]
fn a_legacy_reference_reads_its_target_for_a_recursion_type_and_ignores_what_is_beside_it() {
    // `Node` is a reference whose ignored sibling says `string`: its recursion points are typed
    // by the target, an object.
    let schema = json!({
        "$schema": DRAFT_07,
        "definitions": {
            "Node": {"$ref": "#/definitions/Body", "type": "string"},
            "Body": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}
        },
        "properties": {"n": {"$ref": "#/definitions/Node"}}
    });
    let out = on_every_path(&schema).unwrap();
    assert_eq!(out["properties"]["n"]["properties"]["next"]["type"], "object", "{out}");
    // An ignored sibling may nest past any depth: no walk reads it, and none overflows.
    let answer = std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || {
            // Built without `json!`, which would serialise (recursively) what it nests.
            let mut deep = json!({"type": "string"});
            for _ in 0..3000 {
                let mut wrapper = Map::new();
                wrapper.insert("items".into(), deep);
                deep = Value::Object(wrapper);
            }
            let mut schema = json!({"$schema": DRAFT_07, "definitions": {"A": {"type": "integer"}},
                "properties": {"a": {"$ref": "#/definitions/A"}}});
            schema["properties"]["a"]["not"] = deep;
            let answer = on_every_path(&schema).map_err(|e| e.kind());
            walk::drop_any_depth(schema);
            answer
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(answer, Err("malformed"), "a value nested that deep is refused, as anywhere else");
}

#[test]
fn under_draft_04_an_empty_required_is_left_out() {
    for (schema, required) in [
        (json!({"$schema": DRAFT_04, "properties": {"q": {"type": "string"}}}), None),
        (json!({"$schema": DRAFT_04, "properties": {"q": {"type": "string"}}, "required": []}), None),
        (
            json!({"$schema": DRAFT_04, "properties": {"q": {"type": "string"}}, "required": ["q"]}),
            Some(json!(["q"])),
        ),
        (json!({"$schema": DRAFT_07, "properties": {"q": {"type": "string"}}}), Some(json!([]))),
        (json!({"properties": {"q": {"type": "string"}}}), Some(json!([]))),
    ] {
        let out = on_every_path(&schema).unwrap();
        assert_eq!(out.get("required"), required.as_ref(), "{schema}");
        assert_eq!(out["properties"], json!({"q": {"type": "string"}}));
        // A fixed point: made self-contained again, nothing changes.
        assert_eq!(run(out.clone()).unwrap(), out);
    }
}

#[test]
fn a_reference_under_an_id_that_changes_its_base_is_refused_on_every_path() {
    let sub =
        json!({"$id": "http://example.com/sub", "$defs": {"X": {"type": "integer"}}, "$ref": "#/$defs/X"});
    for (schema, pointer, id) in [
        // The property's own `$id` sets the base of its own `$ref`.
        (
            json!({"$defs": {"X": {"type": "string"}}, "properties": {"a": sub.clone()}}),
            "/properties/a",
            "http://example.com/sub",
        ),
        // An `$id` around it, two levels up.
        (
            json!({"$defs": {"X": {"type": "string"}}, "properties": {"a": {"$id": "sub.json", "items": {"items": {"$ref": "#/$defs/X"}}}}}),
            "/properties/a/items/items",
            "sub.json",
        ),
        // Inside a definition with its own `$id`, reached through the root's `$defs`.
        (
            json!({"$defs": {"D": {"$id": "urn:d", "properties": {"x": {"$ref": "#/$defs/X"}}}, "X": {"type": "string"}}, "properties": {"d": {"$ref": "#/$defs/D"}}}),
            "/$defs/D/properties/x",
            "urn:d",
        ),
        // A target whose way from the root passes an `$id` (the object holding it is not itself
        // referred to).
        (
            json!({"$defs": {"X": {"type": "string"}}, "properties": {
                "d": {"$id": "urn:d", "properties": {"x": {"$ref": "#/$defs/X"}}},
                "e": {"$ref": "#/properties/d/properties/x"}}}),
            "/properties/d/properties/x",
            "urn:d",
        ),
    ] {
        let e = on_every_path(&schema).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), ("scoped-reference", pointer), "{schema}: {e}");
        assert!(e.to_string().contains(&format!("`$id` `{id}`")), "{e}");
    }
    // A pointer into a subschema with an `$id`: the reference sites inside resolve against it.
    let schema = json!({"$defs": {"X": {"type": "string"}}, "properties": {
        "d": {"properties": {"inner": {"$id": "urn:d", "properties": {"x": {"$ref": "#/$defs/X"}}}}},
        "e": {"$ref": "#/properties/d/properties/inner/properties/x"}}});
    assert_eq!(on_every_path(&schema).unwrap_err().kind(), "scoped-reference");
    // The root's `$id` is the document's base; an `$id` that is a fragment (an anchor under
    // draft-07) or empty changes no base; an `$id` with no reference under it is harmless.
    for schema in [
        json!({"$id": "http://example.com/root", "$defs": {"X": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/X"}}}),
        json!({"$defs": {"X": {"type": "string"}}, "properties": {"a": {"$id": "#anchor", "items": {"$ref": "#/$defs/X"}}}}),
        json!({"$defs": {"X": {"type": "string"}}, "properties": {"a": {"$id": "", "items": {"$ref": "#/$defs/X"}}}}),
        json!({"$defs": {"X": {"$id": "urn:x", "type": "string"}}, "properties": {"a": {"$ref": "#/$defs/X"}}}),
    ] {
        assert!(on_every_path(&schema).is_ok(), "{schema}");
    }
    // Draft-04 spells it `id`; under draft-07 `id` is no keyword, and an `$id` beside a `$ref`
    // is ignored with the rest of the reference's siblings.
    let old = |draft: &str, key: &str| {
        let mut a = json!({"items": {"$ref": "#/definitions/X"}});
        a[key] = json!("urn:a");
        json!({"$schema": draft, "definitions": {"X": {"type": "string"}}, "properties": {"a": a}})
    };
    assert_eq!(on_every_path(&old(DRAFT_04, "id")).unwrap_err().kind(), "scoped-reference");
    assert!(on_every_path(&old(DRAFT_04, "$id")).is_ok());
    assert!(on_every_path(&old(DRAFT_07, "id")).is_ok());
    assert_eq!(on_every_path(&old(DRAFT_07, "$id")).unwrap_err().kind(), "scoped-reference");
    let beside = json!({"$schema": DRAFT_07, "definitions": {"X": {"type": "string"}},
        "properties": {"a": {"$id": "urn:a", "$ref": "#/definitions/X"}}});
    assert_eq!(on_every_path(&beside).unwrap()["properties"]["a"], json!({"type": "string"}));
}

#[test]
fn dynamic_references_and_anchor_references_are_refused() {
    let o = SelfContainedOptions::new();
    for (schema, kind, pointer) in [
        (
            json!({"properties": {"t": {"$dynamicRef": "#node"}}}),
            "dynamic-reference",
            "/properties/t/$dynamicRef",
        ),
        (
            json!({"$defs": {"N": {"$dynamicAnchor": "node", "type": "object"}}, "properties": {"t": {"items": {"$recursiveRef": "#"}}}}),
            "dynamic-reference",
            "/properties/t/items/$recursiveRef",
        ),
        (
            json!({"$defs": {"N": {"$anchor": "node", "type": "object"}}, "properties": {"t": {"$ref": "#node"}}}),
            "malformed-reference",
            "/properties/t",
        ),
    ] {
        let e = on_every_path(&schema).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (kind, pointer), "{schema}: {e}");
        assert_eq!(inline(&schema, "t", &o, true).unwrap_err(), e);
    }
    // Before 2019-09 they are no keywords: passed through as any unknown keyword is.
    let schema =
        json!({"$schema": DRAFT_07, "properties": {"t": {"type": "object", "$dynamicRef": "#node"}}});
    assert_eq!(on_every_path(&schema).unwrap()["properties"]["t"]["$dynamicRef"], "#node");
}

#[test]
fn key_role_reads_every_key_it_names_and_nothing_else() {
    use KeyRole::*;
    let named = [
        ("$defs", Defs),
        ("definitions", Definitions),
        ("$ref", Ref),
        ("title", Title),
        ("required", Required),
        ("type", Type),
        ("anyOf", Union),
        ("oneOf", Union),
        ("allOf", AllOf),
        ("if", UnreadRequirement),
        ("then", UnreadRequirement),
        ("else", UnreadRequirement),
        ("not", UnreadRequirement),
        ("dependentRequired", UnreadRequirement),
        ("dependentSchemas", UnreadRequirement),
        ("dependencies", UnreadRequirement),
        ("minProperties", UnreadRequirement),
        ("$id", Id("$id")),
        ("id", Id("id")),
        ("$dynamicRef", Dynamic("$dynamicRef")),
        ("$recursiveRef", Dynamic("$recursiveRef")),
    ];
    for (key, role) in named {
        assert_eq!(key_role(key), role, "{key}");
    }
    for &(keyword, _) in walk::KEYWORDS {
        if !named.iter().any(|(k, _)| *k == keyword) {
            assert_eq!(key_role(keyword), Other, "{keyword}");
        }
    }
    for key in ["", "i", "ids", "Type", "enum", "items", "maxProperties", "requires", "$refs", "description"]
    {
        assert_eq!(key_role(key), Other, "{key}");
    }
}
