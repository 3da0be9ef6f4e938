use super::*;
use pretty_assertions::assert_eq;
use proptest::prelude::*;
use serde_json::json;
use std::cell::Cell;

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

proptest! {
    // Law: the plain build, wherever it finishes, gives exactly what the general path gives
    // (the same output or the same error), under tight and default budgets.
    #[test]
    fn the_plain_build_agrees_with_the_general_path(
        schema in arb_root(),
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        prop_assert_eq!(inline(&schema, "t", &o, true), inline(&schema, "t", &o, false));
    }

    // Law: on a root without definitions, the survey answers exactly where discovery passes
    // and meets neither a reference nor a value nested deep, and its bound (strings at six
    // bytes a byte) is never below discovery's (strings at their exact size).
    #[test]
    fn the_survey_answers_exactly_where_discovery_vouches_for_a_plain_schema(
        schema in prop_oneof![arb_root(), arb_schema()],
        max_depth in prop_oneof![Just(2usize), Just(4), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let mut schema = schema;
        if let Value::Object(root) = &mut schema {
            root.remove("$defs");
        }
        let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
        let mut inliner = Inliner::new(&schema, "t", &o);
        let vouched = inliner.discover().is_ok() && inliner.by_reference.is_empty() && !inliner.deep;
        match survey(&schema, 0, max_depth) {
            Some(found) => {
                prop_assert!(vouched, "the survey answers where discovery does not vouch");
                prop_assert!(found.bound >= inliner.targets[0].bound);
            }
            None => prop_assert!(!vouched, "the survey gives up where discovery vouches"),
        }
    }

    // Law: an output nests no deeper than the depth budget it was made under.
    #[test]
    fn an_output_nests_within_its_depth_budget(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_depth in 1usize..12,
    ) {
        let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
        if let Ok(out) = self_contained_input_schema_with(&schema, "t", &o) {
            let within = walk::visit_all(&out, max_depth, &mut |_, _| true);
            prop_assert!(within.is_ok(), "nests past {max_depth} at {within:?}");
        }
    }

    // Law: the general path's output (or error) is the same built entry by entry as copied
    // and rewritten, under tight and default budgets.
    #[test]
    fn building_entry_by_entry_agrees_with_copying_and_rewriting(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        let built = |builder| build_root_as(&schema, "t", &o, false, builder).map(|(out, _)| out);
        prop_assert_eq!(built(Builder::Construct), built(Builder::Copy));
    }

    // Law: wherever the one-walk build vouches for an output, the four steps give that same
    // output (and its size bound holds), under tight and default budgets.
    #[test]
    fn the_one_walk_output_is_what_the_four_steps_give(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        if let Some((out, bound)) = build_in_one_walk(&schema, "t", &o) {
            prop_assert!(bound.is_some_and(|b| b >= json_len(&out) && b <= max_bytes as u64));
            let four = build_root_as(&schema, "t", &o, false, Builder::Construct)
                .and_then(|(built, bound)| finish_within_budget(built, bound, "t", &o));
            prop_assert_eq!(Ok(out), four);
        }
    }

    // Law: the bound the one walk accumulates as it builds is never below the `json_bound` of
    // what it built, nor (with `finish`'s growth) below the finished output's exact size.
    #[test]
    fn the_bound_accumulated_while_building_holds(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
    ) {
        let o = SelfContainedOptions::new();
        let mut inliner = Inliner::for_one_walk(&schema, "t", &o);
        if let Ok(built) = inliner.construct(&schema, Ctx::Optional, Around::NONE, &Trail::Root, 0) {
            let accumulated = inliner.built_bound;
            prop_assert!(accumulated >= json_bound(&built), "{accumulated} < {}", json_bound(&built));
            if let Ok(out) = finish(built, "t") {
                prop_assert!(accumulated + FINISH_GROWTH >= json_len(&out));
            }
        }
    }

    // Law: wherever the expansion is judged to fit without a measure, the measure passes.
    #[test]
    fn an_expansion_judged_to_fit_passes_the_measure(
        schema in prop_oneof![arb_root(), arb_reference_graph()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(9), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        let mut inliner = Inliner::new(&schema, "t", &o);
        if inliner.discover().is_ok() && !inliner.by_reference.is_empty() {
            inliner.components();
            if inliner.expansion_fits().is_some() {
                prop_assert_eq!(inliner.measure_root(), Ok(()));
            }
        }
    }

    // Law: where the expansion is judged to fit, its bound of the output (strings at their
    // exact size, a slack per object built) is never below the finished output's exact size.
    #[test]
    fn the_expansion_bound_is_never_below_the_exact_size(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
    ) {
        let o = SelfContainedOptions::new();
        for builder in [Builder::Construct, Builder::Copy] {
            if let Ok((built, Some(bound))) = build_root_as(&schema, "t", &o, false, builder)
                && let Ok(out) = finish(built, "t")
            {
                let exact = json_len(&out);
                prop_assert!(bound >= exact, "{builder:?}: {bound} < {exact}");
            }
        }
    }

    // Law: the size bounds that spare the exact count are never below the exact compact size:
    // the survey's, on what the plain path returns, and `json_bound`, on inputs and outputs.
    #[test]
    fn the_size_bounds_are_never_below_the_exact_size(schema in arb_root(), try_plain in any::<bool>()) {
        prop_assert!(json_bound(&schema) >= json_len(&schema));
        let o = SelfContainedOptions::new();
        if let Ok((built, bound)) = build_root(&schema, "t", &o, try_plain)
            && let Ok(out) = finish(built, "t")
        {
            let exact = json_len(&out);
            prop_assert!(json_bound(&out) >= exact, "{} < {exact}", json_bound(&out));
            if let Some(bound) = bound {
                prop_assert!(bound >= exact, "{bound} < {exact}");
            }
        }
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
    for v in [json!(u64::MAX), json!(i64::MIN), json!(-2.2250738585072014e-308), json!("\u{1}\u{2}")] {
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

proptest! {
    // Law: `Required` names exactly what the object's list or the site's extra names name,
    // scanned (a short list) or sorted and searched (a long one, duplicates included).
    #[test]
    fn required_names_what_its_lists_name(
        listed in prop::collection::vec(0u8..24, 0..20),
        extra in prop::collection::vec(0u8..24, 0..4),
    ) {
        let listed: Vec<Value> = listed.iter().map(|n| json!(format!("p{n}"))).collect();
        let extra: Vec<String> = extra.iter().map(|n| format!("p{n}")).collect();
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let required = Required::new(&listed, &extra, false);
        prop_assert_eq!(required.sorted.is_empty(), listed.len() + extra.len() <= Required::SCAN);
        for n in 0..26 {
            let name = format!("p{n}");
            let named = listed.iter().any(|r| r == name.as_str()) || extra.contains(&name.as_str());
            prop_assert_eq!(required.names(&name), named, "{}", name);
            let step = Step::Entry("properties", &name);
            let ctx = if named { Ctx::Required } else { Ctx::Optional };
            prop_assert_eq!(required.ctx_of(step, Ctx::Required), ctx);
        }
    }
}

proptest! {
    // Law: `ByReference` answers as a hash map of the same entries does, scanned or hashed.
    #[test]
    fn by_reference_finds_what_a_hash_map_finds(count in 0usize..40) {
        let names: Vec<String> = (0..45).map(|i| format!("#/$defs/D{i}")).collect();
        let mut ours = ByReference::default();
        let mut theirs = HashMap::new();
        for (t, name) in names.iter().take(count).enumerate() {
            ours.insert(name, t);
            theirs.insert(name.as_str(), t);
        }
        prop_assert_eq!(ours.is_empty(), count == 0);
        prop_assert_eq!(ours.table.is_empty(), count <= SCAN_KEYS);
        for name in &names {
            prop_assert_eq!(ours.get(name), theirs.get(name.as_str()).copied(), "{}", name);
        }
    }
}

#[test]
fn every_target_is_found_at_its_address_with_few_targets_and_with_many() {
    for n in [3, SCAN_KEYS - 1, SCAN_KEYS, SCAN_KEYS + 1, 40] {
        // A chain D0 -> D1 -> ... -> D{n-1}, and one definition no reference reaches.
        let mut defs = Map::new();
        for i in 0..n {
            let next = if i + 1 < n { json!({"$ref": format!("#/$defs/D{}", i + 1)}) } else { json!(true) };
            defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"n": next}}));
        }
        defs.insert("Unused".into(), json!({"type": "string"}));
        let schema = json!({"$defs": defs, "properties": {"a": {"$ref": "#/$defs/D0"}}});
        let options = SelfContainedOptions::new();
        let mut inliner = Inliner::new(&schema, "t", &options);
        inliner.discover().unwrap();
        assert_eq!(inliner.targets.len(), n + 1, "the root and each D");
        assert_eq!(inliner.by_address.is_empty(), n < SCAN_KEYS, "{n}");
        for t in 0..inliner.targets.len() {
            assert_eq!(inliner.target_at(inliner.targets[t].node), Some(t), "{n}");
        }
        assert_eq!(inliner.target_at(&schema["$defs"]["Unused"]), None, "{n}");
    }
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

/// The comparisons of names [`Required::names`] makes on this thread while `f` runs.
fn name_comparisons<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = NAME_COMPARISONS.with(Cell::get);
    let out = f();
    (out, NAME_COMPARISONS.with(Cell::get) - before)
}

// Law: each property's context costs at most one binary search of the object's `required`
// names, on every path that builds the output: no work in properties x
// names, which scanning the list for each property did (a hang on a 4 MiB schema). Counted,
// not timed: with the scan back, the first path here makes 13.7 million comparisons.
#[test]
fn many_properties_with_many_required_names_cost_a_binary_search_each() {
    let n = 6_000;
    let (mut with_defs, mut plain) = (Map::new(), Map::new());
    let mut required = Vec::new();
    for i in 0..n {
        let name = format!("p{i:06}");
        // Each property an optional union, whose `null` only a required one keeps.
        with_defs.insert(name.clone(), json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}));
        plain.insert(name.clone(), json!({"title": "P", "type": ["string", "null"]}));
        if i % 2 == 0 {
            required.push(json!(name));
        }
    }
    // One binary search of the names per property: the halvings of the list, and two
    // comparisons more (std's search makes one; the other is slack for its next version).
    let per_property = u64::from((required.len() + 1).next_power_of_two().trailing_zeros()) + 2;
    let bound = n as u64 * per_property;
    let with_defs =
        json!({"$defs": {"S": {"type": "string"}}, "properties": with_defs, "required": required});
    let plain = json!({"properties": plain, "required": required});
    let check = |out: &Value, path: &str| {
        assert_eq!(out["properties"]["p000000"], json!({"type": ["string", "null"]}), "{path}");
        assert_eq!(out["properties"]["p000001"], json!({"type": "string"}), "{path}");
        assert_eq!(out["properties"]["p005998"], json!({"type": ["string", "null"]}), "{path}");
    };
    let o = SelfContainedOptions::new();
    let mut counted = Vec::new();
    // The one walk gives up past its object budget, then the four steps build it: it may look a
    // property up twice.
    for (builder, bound) in [(Builder::OneWalk, 2 * bound), (Builder::Copy, bound)] {
        let path = format!("{builder:?}");
        let (out, comparisons) = name_comparisons(|| build_root_as(&with_defs, "t", &o, false, builder));
        check(&out.unwrap().0, &path);
        counted.push((path, comparisons, bound));
    }
    let (out, comparisons) = name_comparisons(|| inline(&plain, "t", &o, true));
    check(&out.unwrap(), "plain");
    counted.push(("plain".to_owned(), comparisons, bound));
    let copy = plain.clone();
    let (out, comparisons) = name_comparisons(|| self_contained_input_schema_owned(copy, "t"));
    check(&out.unwrap(), "owned");
    counted.push(("owned".to_owned(), comparisons, bound));
    eprintln!("name comparisons (path, count, bound): {counted:?}");
    for (path, comparisons, bound) in counted {
        // Every path looks each property up at least once.
        assert!(
            (n as u64..=bound).contains(&comparisons),
            "{path}: {comparisons} comparisons, bound {bound}"
        );
    }
}

#[test]
fn tarjan_puts_a_cycle_in_one_component_and_a_chain_in_many() {
    let schema = json!({
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"items": {"$ref": "#/$defs/A"}}, "C": {"type": "string"}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "c": {"$ref": "#/$defs/C"}}
    });
    let options = SelfContainedOptions::new();
    let mut inliner = Inliner::new(&schema, "t", &options);
    inliner.discover().unwrap();
    inliner.components();
    let comp = |name: &str| inliner.targets.iter().find(|t| t.name == name).map(|t| t.component).unwrap();
    assert_eq!(comp("A"), comp("B"));
    assert_ne!(comp("A"), comp("C"));
}

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

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
const DRAFT_04: &str = "http://json-schema.org/draft-04/schema#";

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
