#![allow(clippy::pedantic)]
//! Property tests for the foreign-schema functions.
//!
//! The equivalence property validates generated instances against the input and the
//! self-contained output with the `jsonschema` crate (draft 2020-12). `PROPTEST_CASES` sets the
//! case count; seeds and kept failures as `tests/prop_run` says.

use crate::prop_run;
use crate::prop_run::SplitMix;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::{
    SelfContainedOptions, declared_type, self_contained_input_schema, self_contained_input_schema_owned,
    self_contained_input_schema_owned_with, self_contained_input_schema_with,
};

// ---- generated schemas --------------------------------------------------------------------------

/// A schema recipe; `Ref(n)` is resolved to a definition later in the list, so there is no cycle.
#[derive(Debug, Clone)]
enum Recipe {
    Leaf(u8),
    Object(Vec<(u8, Recipe, bool)>, bool),
    Array(Box<Recipe>),
    Optional(Box<Recipe>, bool),
    Union(Box<Recipe>, Box<Recipe>),
    Ref(u8, u8),
    Nullable(u8),
    AllOf(Box<Recipe>),
}

fn recipe() -> impl Strategy<Value = Recipe> {
    let leaf = prop_oneof![
        (0u8..8).prop_map(Recipe::Leaf),
        (0u8..4).prop_map(Recipe::Nullable),
        (any::<u8>(), 0u8..5).prop_map(|(n, s)| Recipe::Ref(n, s))
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (prop::collection::vec((0u8..4, inner.clone(), any::<bool>()), 0..3), any::<bool>())
                .prop_map(|(p, a)| Recipe::Object(p, a)),
            inner.clone().prop_map(|r| Recipe::Array(Box::new(r))),
            (inner.clone(), any::<bool>()).prop_map(|(r, d)| Recipe::Optional(Box::new(r), d)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Recipe::Union(Box::new(a), Box::new(b))),
            inner.prop_map(|r| Recipe::AllOf(Box::new(r))),
        ]
    })
}

const NAMES: [&str; 4] = ["a", "b", "c", "d"];
const TYPES: [&str; 4] = ["string", "integer", "boolean", "number"];

/// The schema for a recipe inside definition `at` of `defs` definitions (`at == defs` for the
/// root): references go to a later definition only.
fn render(r: &Recipe, at: usize, defs: usize) -> Value {
    match r {
        Recipe::Leaf(k) => match k {
            0 => json!({"type": "string", "maxLength": 3}),
            1 => json!({"type": "integer", "minimum": 0}),
            2 => json!({"type": "boolean"}),
            3 => json!({"enum": ["x", 1, null]}),
            4 => json!({"type": "null"}),
            5 => json!({}),
            6 => json!({"type": "string", "enum": ["x", "y"], "description": "a letter"}),
            _ => json!({"type": "number", "title": "N"}),
        },
        Recipe::Nullable(k) => json!({"type": [TYPES[*k as usize % 4], "null"]}),
        Recipe::Object(props, closed) => {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (n, p, req) in props {
                let name = NAMES[*n as usize % 4];
                properties.insert(name.to_owned(), render(p, at, defs));
                if *req && !required.contains(&json!(name)) {
                    required.push(json!(name));
                }
            }
            let mut o = json!({"type": "object", "properties": properties, "required": required});
            if *closed {
                o["additionalProperties"] = json!(false);
            }
            o
        }
        Recipe::Array(items) => json!({"type": "array", "items": render(items, at, defs), "maxItems": 3}),
        Recipe::Optional(inner, default_null) => {
            let mut o = json!({"anyOf": [render(inner, at, defs), {"type": "null"}]});
            if *default_null {
                o["default"] = Value::Null;
            }
            o
        }
        Recipe::Union(a, b) => json!({"anyOf": [render(a, at, defs), render(b, at, defs)]}),
        Recipe::AllOf(inner) => json!({"allOf": [render(inner, at, defs)]}),
        Recipe::Ref(n, siblings) => {
            // Definitions after `at` (the root, at == defs, may use any).
            let first = if at == defs { 0 } else { at + 1 };
            if first >= defs {
                return json!({"type": "string"});
            }
            let target = first + *n as usize % (defs - first);
            let mut o = json!({"$ref": format!("#/$defs/D{target}")});
            match siblings {
                1 => o["description"] = json!("the site's"),
                2 => o["minProperties"] = json!(1),
                3 => {
                    o["properties"] = json!({"c": {"type": "string"}});
                    o["required"] = json!(["c"]);
                }
                4 => o["type"] = json!("object"),
                _ => {}
            }
            o
        }
    }
}

fn schema() -> impl Strategy<Value = Value> {
    (prop::collection::vec(recipe(), 0..4), prop::collection::vec((0u8..4, recipe(), any::<bool>()), 1..4))
        .prop_map(|(defs, root)| {
            let n = defs.len();
            let mut d = Map::new();
            for (i, r) in defs.iter().enumerate() {
                d.insert(format!("D{i}"), render(r, i, n));
            }
            let mut root = render(&Recipe::Object(root, false), n, n);
            root["$defs"] = Value::Object(d);
            root["title"] = json!("Generated");
            root
        })
}

/// An instance shaped by `schema` (often valid, sometimes not: a wrong type, a missing or extra
/// property, a null).
fn sample(schema: &Value, root: &Value, rng: &mut SplitMix, depth: usize) -> Value {
    if depth > 8 || rng.below(12) == 0 {
        return [json!(null), json!("zz"), json!(7), json!(true), json!([]), json!({})]
            [rng.below(6) as usize]
            .clone();
    }
    let Value::Object(m) = schema else { return json!(1) };
    if let Some(Value::String(r)) = m.get("$ref") {
        let target = toolschema::refs::resolve(root, r).cloned().unwrap_or(json!({}));
        return sample(&target, root, rng, depth + 1);
    }
    for key in ["anyOf", "allOf"] {
        if let Some(Value::Array(members)) = m.get(key) {
            let pick = &members[rng.below(members.len() as u64) as usize];
            return sample(pick, root, rng, depth + 1);
        }
    }
    if let Some(Value::Array(values)) = m.get("enum") {
        return values[rng.below(values.len() as u64) as usize].clone();
    }
    let ty = match m.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => {
            ts[rng.below(ts.len() as u64) as usize].as_str().unwrap_or("null").to_owned()
        }
        _ => ["string", "integer", "null", "object"][rng.below(4) as usize].to_owned(),
    };
    match ty.as_str() {
        "object" => {
            let mut o = Map::new();
            let required: Vec<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if let Some(Value::Object(props)) = m.get("properties") {
                for (name, p) in props {
                    if required.contains(&name.as_str()) || rng.below(2) == 0 {
                        o.insert(name.clone(), sample(p, root, rng, depth + 1));
                    }
                }
            }
            if rng.below(6) == 0 {
                o.insert(NAMES[rng.below(4) as usize].to_owned(), json!("zz"));
            }
            Value::Object(o)
        }
        "array" => {
            let items = m.get("items").cloned().unwrap_or(json!({}));
            (0..rng.below(3)).map(|_| sample(&items, root, rng, depth + 1)).collect()
        }
        "string" => json!(["", "ab", "abcdef", "x"][rng.below(4) as usize]),
        "integer" => json!([0, 5, -3][rng.below(3) as usize]),
        "number" => [json!(1.5), json!(2), json!(-0.5)][rng.below(3) as usize].clone(),
        "boolean" => json!(rng.below(2) == 0),
        _ => Value::Null,
    }
}

fn contains_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(items) => items.iter().any(contains_null),
        Value::Object(m) => m.values().any(contains_null),
        _ => false,
    }
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("not a valid schema ({e}): {schema}"))
}

proptest! {
    #![proptest_config(prop_run::config(file!(), 256))]

    // Law: without recursion, the output never accepts an instance the input refuses, and accepts
    // every instance the input accepts that holds no null (the optional collapse refuses null
    // only where a property could be left out instead).
    #[test]
    fn self_contained_output_accepts_what_the_input_accepts(schema in schema(), seed in any::<u64>()) {
        let out = self_contained_input_schema(&schema, "generated").unwrap();
        let text = out.to_string();
        prop_assert!(!text.contains("$ref") && !text.contains("$defs") && !text.contains("\"title\""), "{}", text);
        let (before, after) = (validator(&schema), validator(&out));
        let mut rng = SplitMix(seed);
        for _ in 0..24 {
            let instance = sample(&schema, &schema, &mut rng, 0);
            let (was, is) = (before.is_valid(&instance), after.is_valid(&instance));
            prop_assert!(!is || was, "output accepts {} which the input refuses\ninput: {}\noutput: {}", instance, schema, out);
            if !contains_null(&instance) {
                prop_assert_eq!(was, is, "instance {}\ninput: {}\noutput: {}", instance, schema, out);
            }
        }
    }
}

// ---- arbitrary JSON -----------------------------------------------------------------------------

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let keys = prop::sample::select(vec![
        "$ref",
        "$defs",
        "definitions",
        "properties",
        "items",
        "anyOf",
        "oneOf",
        "allOf",
        "required",
        "type",
        "title",
        "description",
        "default",
        "additionalProperties",
        "prefixItems",
        "not",
        "if",
        "then",
        "else",
        "enum",
        "const",
        "unevaluatedProperties",
        "dependencies",
        "a",
        "A",
        "~x",
        "a/b",
    ]);
    let refs = prop::sample::select(vec![
        "#",
        "#/$defs/A",
        "#/$defs/a",
        "#/definitions/A",
        "#/properties/a",
        "#/$defs/A/properties/a",
        "#/$defs/~x",
        "#/$defs/a~1b",
        "#/$defs/%41",
        "#/$defs/%zz",
        "other.json",
        "#/items/0",
        "",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        refs.prop_map(|r| json!(r)),
        prop::sample::select(vec!["object", "array", "string", "null", "integer", "dict"])
            .prop_map(|t| json!(t)),
    ];
    leaf.prop_recursive(6, 64, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(keys.clone(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(prop_run::config(file!(), 512))]

    // Law: neither function panics on any JSON value, under default or tiny budgets; an output
    // has the root shape and keeps within the byte budget.
    #[test]
    fn neither_function_panics_on_arbitrary_json(schema in arbitrary_json(), prop in arbitrary_json(), depth in 0usize..6, bytes in 0usize..400) {
        let _ = declared_type(&prop, &schema);
        let _ = declared_type(&schema, &schema);
        if let Ok(out) = self_contained_input_schema(&schema, "any") {
            prop_assert_eq!(&out["type"], &json!("object"));
            prop_assert!(out["properties"].is_object() && out["required"].is_array());
        }
        let tight = SelfContainedOptions { max_depth: depth, max_bytes: bytes };
        if let Ok(out) = self_contained_input_schema_with(&schema, "any", &tight) {
            prop_assert!(serde_json::to_vec(&out).unwrap().len() <= bytes);
        }
    }
}

proptest! {
    #![proptest_config(prop_run::config(file!(), 512))]

    // Law: the owned variant gives exactly the borrowed one's answer (output, or error with its
    // pointer and message) on generated schemas and arbitrary JSON, under default or tiny budgets.
    #[test]
    fn the_owned_variant_gives_the_borrowed_answer(
        schema in prop_oneof![schema(), arbitrary_json()],
        depth in 0usize..8,
        bytes in prop_oneof![0usize..400, Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
    ) {
        prop_assert_eq!(
            self_contained_input_schema_owned(schema.clone(), "any"),
            self_contained_input_schema(&schema, "any")
        );
        let tight = SelfContainedOptions { max_depth: depth, max_bytes: bytes };
        let (owned, borrowed) = (
            self_contained_input_schema_owned_with(schema.clone(), "any", &tight),
            self_contained_input_schema_with(&schema, "any", &tight),
        );
        prop_assert_eq!(
            owned.as_ref().map_err(ToString::to_string),
            borrowed.as_ref().map_err(ToString::to_string)
        );
        prop_assert_eq!(owned, borrowed);
    }
}
