//! The budgets: an output over `max_bytes` refused with its exact size, the size bounds and
//! their measure, the depth budget through sites, unions and reference chains.

use super::*;
use pretty_assertions::assert_eq;

#[test]
fn an_output_over_the_budget_is_refused_with_its_exact_size() {
    let schema = json!({"properties": {"a": {"type": "string", "description": "x".repeat(100)}}});
    let exact = json_len(&run(schema.clone()).unwrap());
    for try_plain in [true, false] {
        let at = inline(&schema, "t", &options(exact as usize, 128), try_plain);
        assert!(at.is_ok());
        let under = inline(&schema, "t", &options(exact as usize - 1, 128), try_plain).unwrap_err();
        assert!(matches!(under, Error::TooLarge { size, .. } if size == exact), "{under:?}");
    }
}

#[test]
fn json_bound_takes_the_longest_spelling_of_each_scalar() {
    // Each of these is the longest a value of its kind and length can be, so the bound is exact.
    for v in [json!(u64::MAX), json!(i64::MIN), json!(-f64::MIN_POSITIVE), json!("\u{1}\u{2}")] {
        assert_eq!(json_bound(&v), json_len(&v), "{v}");
    }
    for v in [json!(0), json!(-1), json!(1.5), json!("plain"), json!({"k": ["a\"", 1, null, {}]})] {
        assert!(json_bound(&v) > json_len(&v), "{v}");
    }
}

#[test]
fn json_len_and_json_bound_take_values_deeper_than_their_recursion() {
    let mut v = json!(["a\"", 1.5, -3, {"k": null}]);
    for i in 0..3 * SIZE_RECURSION {
        v = if i % 2 == 0 { json!([v, "x"]) } else { json!({"k\n": v, "n": 10}) };
    }
    let exact = serde_json::to_vec(&v).unwrap().len() as u64;
    assert_eq!(json_len(&v), exact);
    assert_eq!(json_size::<true>(&v), exact);
    assert!(json_bound(&v) >= exact);
}

#[test]
fn json_len_matches_serde_json_compact_output() {
    let v = json!({"a\n\"b": [1, -0.0, 2.5e-300, 1e300, null, true, false, "\u{1}é\\"], "": {}, "c": []});
    assert_eq!(json_len(&v), serde_json::to_vec(&v).unwrap().len() as u64);
}

/// How many of the depth budgets `max_depths` accept `schema`, asserting that each output
/// nests within the budget it was made under.
fn accepted_within_budgets(schema: &Value, max_depths: std::ops::RangeInclusive<usize>) -> usize {
    let mut accepted = 0;
    for max_depth in max_depths {
        let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
        if let Ok(out) = self_contained_input_schema_with(schema, "t", &o) {
            accepted += 1;
            let within = walk::visit_all(&out, max_depth, &mut |_, _| true);
            assert!(within.is_ok(), "max_depth {max_depth}: nests past it at {within:?}");
        }
    }
    accepted
}

#[test]
fn a_conflicting_family_of_the_definition_moves_into_all_of_and_the_sites_stays() {
    let out = run(json!({
        "$defs": {"A": {"type": "object", "properties": {"x": {}}, "additionalProperties": false, "required": ["x"]}},
        "properties": {"a": {"$ref": "#/$defs/A", "properties": {"z": {}}, "required": ["z"], "description": "mine"}}
    }))
    .unwrap();
    assert_eq!(
        out["properties"]["a"],
        json!({
            "type": "object", "properties": {"z": {}}, "required": ["x", "z"], "description": "mine",
            "allOf": [{"properties": {"x": {}}, "additionalProperties": false}]
        })
    );
}

#[test]
fn sites_with_their_own_properties_nested_under_each_other_stay_within_the_depth_budget() {
    // Each site's `properties` conflict with the definition's. Found by the fuzzer: when the
    // site's family moved into `allOf`, each level of sites added an output level the budget
    // had not counted, and `/properties/r/allOf/0/properties/r/allOf/0/properties/a` came out
    // of a schema accepted at `max_depth` 4.
    let a = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let mut site = json!({"type": "string"});
    for _ in 0..4 {
        site = json!({"$ref": "#/$defs/A", "properties": {"r": site}});
    }
    let schema = json!({"$defs": {"A": a}, "type": "object", "properties": {"r": site}});
    let accepted = accepted_within_budgets(&schema, 1..=10);
    assert!(accepted >= 3, "the deeper budgets accept it ({accepted} did)");
}

#[test]
fn a_collapsed_union_beside_its_own_properties_stays_within_the_depth_budget() {
    // The union's holder and its one real member both have `properties`: the member's move
    // into `allOf`, the holder's stay where the budget counted them.
    let mut node = json!({"type": "string"});
    for _ in 0..4 {
        node = json!({
            "properties": {"h": node},
            "anyOf": [{"type": "object", "properties": {"m": {"type": "integer"}}}, {"type": "null"}]
        });
    }
    let schema = json!({"type": "object", "properties": {"u": node}});
    let accepted = accepted_within_budgets(&schema, 1..=12);
    assert!(accepted >= 3, "the deeper budgets accept it ({accepted} did)");
}

#[test]
fn a_doubling_dag_is_refused_from_its_measure() {
    let mut defs = Map::new();
    for i in 0..40 {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}}),
        );
    }
    defs.insert("D40".into(), json!({"type": "string"}));
    let schema = json!({"$defs": defs, "properties": {"root": {"$ref": "#/$defs/D0"}}});
    let err = run(schema).unwrap_err();
    assert_eq!(err.kind(), "too-large");
}

#[test]
fn the_measure_is_left_out_only_for_an_acyclic_expansion_within_both_budgets() {
    let fits = |schema: &Value, max_bytes: usize, max_depth: usize| {
        let o = options(max_bytes, max_depth);
        let mut inliner = Inliner::new(schema, "t", &o);
        inliner.discover().unwrap();
        inliner.components();
        inliner.expansion_fits().is_some()
    };
    let dag = json!({
        "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}, "c": {"$ref": "#/$defs/B"}}},
                  "B": {"type": "object", "properties": {"x": {"type": "string"}}}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}
    });
    assert!(fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
    // Discovery reaches B first from the root, at level 2; through A it sits at level 4
    // (`/properties/a` 1, `A` 2, its `b` 3), and its `x` at 5.
    assert!(fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 5));
    assert!(!fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 4));
    // B's bound (`{"type":"object","properties":{"x":{"type":"string"}}}`, 54 bytes: strings
    // at their exact size) taken three times is above 160 bytes; the whole expansion is
    // within 400, which strings counted at six bytes a byte would not be.
    assert!(!fits(&dag, 160, 128));
    assert!(fits(&dag, 400, 128));
    let cycle = json!({"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}},
                       "properties": {"n": {"$ref": "#/$defs/N"}}});
    assert!(!fits(&cycle, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
    let root = json!({"properties": {"again": {"$ref": "#"}}});
    assert!(!fits(&root, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
}

#[test]
fn unreferenced_definitions_too_deep_are_refused_as_the_whole_input_check_refuses_them() {
    let deep = |levels: usize| {
        let mut v = json!("x");
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        v
    };
    let limit = walk::nesting_limit(SelfContainedOptions::DEFAULT_MAX_DEPTH);
    let schema = json!({
        "definitions": {"D": {"type": "integer"}, "E": {"default": deep(limit)}},
        "$defs": {"A": {"type": "string"}, "B": {"const": deep(limit)}, "C": {"enum": [deep(limit)]}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "d": {"$ref": "#/definitions/D"}}
    });
    let whole = nesting_within(&schema, "t", &SelfContainedOptions::new()).unwrap_err();
    // The first in the input's order: `$defs` in key order, `definitions` as written with
    // `preserve_order`.
    let first = ["/$defs/B/const/0/0", "/definitions/E/default/0/0"];
    assert!(first.iter().any(|p| whole.pointer().starts_with(p)), "{whole}");
    assert_eq!(run(schema), Err(whole));
    // In a null member of an optional union (which the one walk does not build).
    let schema = json!({
        "$defs": {"A": {"type": "string"}},
        "properties": {"a": {"$ref": "#/$defs/A"},
                       "b": {"anyOf": [{"type": "string"}, {"type": "null", "examples": deep(limit)}], "default": null}}
    });
    let whole = nesting_within(&schema, "t", &SelfContainedOptions::new()).unwrap_err();
    assert!(whole.pointer().starts_with("/properties/b/anyOf/1/examples/0/0"), "{whole}");
    assert_eq!(run(schema), Err(whole));
    // Just within the limit: accepted, and the unreferenced definitions left out.
    let schema = json!({"$defs": {"A": {"type": "string"}, "B": {"const": deep(limit - 3)}},
                        "properties": {"a": {"$ref": "#/$defs/A"}}});
    assert_eq!(
        run(schema),
        Ok(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}))
    );
}

#[test]
fn the_one_walk_leaves_to_the_four_steps_what_their_measure_or_size_check_refuses() {
    // Thirty optional unions of `{}` and `null` nested in a definition: the output is small,
    // but the measure counts 33 objects (the work of 66 bytes) against a budget of 60.
    let mut unions = json!({});
    for _ in 0..30 {
        unions = json!({"anyOf": [unions, {"type": "null"}]});
    }
    let schema = json!({"$defs": {"A": unions}, "properties": {"a": {"$ref": "#/$defs/A"}}});
    let small = json!({"type": "object", "properties": {"a": {}}, "required": []});
    assert!(json_len(&small) <= 60);
    let tight = options(60, SelfContainedOptions::DEFAULT_MAX_DEPTH);
    assert_eq!(build_in_one_walk(&schema, "t", &tight), None);
    let err = self_contained_input_schema_with(&schema, "t", &tight).unwrap_err();
    assert_eq!(err.kind(), "too-large");
    assert_eq!(run(schema), Ok(small));
    // An output a few bytes over the budget: refused with its exact size, by the four steps.
    let schema = json!({"$defs": {"A": {"type": "string"}}, "properties": {"abc": {"$ref": "#/$defs/A"}}});
    let exact = json_len(&run(schema.clone()).unwrap());
    let tight = options(exact as usize - 1, SelfContainedOptions::DEFAULT_MAX_DEPTH);
    assert_eq!(build_in_one_walk(&schema, "t", &tight), None);
    let err = self_contained_input_schema_with(&schema, "t", &tight).unwrap_err();
    assert_eq!(
        err,
        Error::TooLarge {
            tool: "t".into(),
            pointer: String::new(),
            size: exact,
            max_bytes: exact as usize - 1
        }
    );
    // At the budget, the one walk vouches for it.
    let fits = options(exact as usize, SelfContainedOptions::DEFAULT_MAX_DEPTH);
    assert!(build_in_one_walk(&schema, "t", &fits).is_some());
}

#[test]
fn deep_reference_chains_hit_the_depth_budget() {
    let mut defs = Map::new();
    for i in 0..300 {
        defs.insert(format!("R{i}"), json!({"$ref": format!("#/$defs/R{}", i + 1)}));
    }
    defs.insert("R300".into(), json!({"type": "string"}));
    let err = run(json!({"$defs": defs, "properties": {"a": {"$ref": "#/$defs/R0"}}})).unwrap_err();
    assert_eq!(err.kind(), "too-deep");
}

/// `R0` .. `R{n-1}`, each an object whose property `n` is a reference to the next; `R{n}` as
/// given; the root's property `a` a reference to `R0`.
fn object_chain(n: usize, last: Value) -> Value {
    let mut defs = Map::new();
    for i in 0..n {
        let next = format!("#/$defs/R{}", i + 1);
        defs.insert(format!("R{i}"), json!({"type": "object", "properties": {"n": {"$ref": next}}}));
    }
    defs.insert(format!("R{n}"), last);
    json!({"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/R0"}}})
}

#[test]
fn a_reference_chain_past_the_budget_is_refused_in_discovery_where_the_budget_runs_out() {
    // Levels: `/properties/a` 1, `R0` 2, its `n` 3, `R1` 4, its `n` 5: the hop from there
    // would pass a budget of 5. `R40` is malformed, but discovery never gets that far.
    let schema = object_chain(40, json!({"type": "object", "required": "x"}));
    let options = options(SelfContainedOptions::DEFAULT_MAX_BYTES, 5);
    let mut inliner = Inliner::new(&schema, "t", &options);
    let err = inliner.discover().unwrap_err();
    assert_eq!((err.kind(), err.pointer()), ("too-deep", "/$defs/R1/properties/n"));
    // The root, R0, R1, and R2 (resolved at the site where the budget runs out).
    assert_eq!(inliner.targets.len(), 4);
    for try_plain in [true, false] {
        assert_eq!(inline(&schema, "t", &options, try_plain), Err(err.clone()));
    }
}

#[test]
fn a_reference_chain_within_the_budget_still_reports_a_malformed_definition_at_its_end() {
    let schema = object_chain(2, json!({"type": "object", "required": "x"}));
    let err = inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 7), false).unwrap_err();
    assert_eq!((err.kind(), err.pointer()), ("malformed", "/$defs/R2/required"));
}

#[test]
fn a_definition_reached_through_references_gets_the_budget_left_at_its_site() {
    // `R1` is reached at level 4; its own `items` nesting takes it to 7, past a budget of 6,
    // though from where it stands it is only 3 deep.
    let deep = json!({"type": "array", "items": {"items": {"items": {"type": "string"}}}});
    let schema = object_chain(1, deep);
    let err = inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 6), false).unwrap_err();
    assert_eq!((err.kind(), err.pointer()), ("too-deep", "/$defs/R1/items/items/items"));
    assert!(inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 7), false).is_ok());
}

#[test]
fn the_accumulated_bound_covers_what_combining_and_collapsing_add() {
    // Each shape makes the output hold something no input object held: an `allOf` member
    // for a conflicting family or for `unevaluated*`, a `type` list with "null", a
    // recursion point's note and type.
    let defs = json!({
        "Obj": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
        "Open": {"type": "object", "unevaluatedProperties": false, "allOf": [{"properties": {"x": true}}]},
        "S": {"type": "string", "title": "S"},
        "Node": {"anyOf": [{"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}, {"type": "array"}]}
    });
    let shapes = [
        json!({"$ref": "#/$defs/Obj", "properties": {"b": {"type": "integer"}}}),
        json!({"$ref": "#/$defs/Obj", "additionalProperties": true, "unevaluatedProperties": false}),
        json!({"$ref": "#/$defs/Open", "properties": {"y": {"$ref": "#/$defs/Obj", "properties": {}}}}),
        json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}),
        json!({"anyOf": [{"$ref": "#/$defs/Obj", "properties": {"c": true}}, {"type": "null"}], "properties": {"d": true}}),
        json!({"$ref": "#/$defs/Node", "description": "x".repeat(40)}),
        json!({"items": {"$ref": "#"}, "description": "a list"}),
    ];
    for shape in shapes {
        for required in [json!([]), json!(["p"])] {
            let schema =
                json!({"$defs": defs, "type": "object", "properties": {"p": shape}, "required": required});
            let o = SelfContainedOptions::new();
            let mut inliner = Inliner::for_one_walk(&schema, "t", &o);
            let built = inliner.construct(&schema, Ctx::Optional, Around::NONE, &Trail::Root, 0).unwrap();
            assert!(inliner.built_bound >= json_bound(&built), "{schema}");
            assert_eq!(Ok(finish(built, "t").unwrap()), run(schema.clone()), "{schema}");
        }
    }
}
