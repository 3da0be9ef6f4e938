#![allow(clippy::pedantic)]
//! Property tests: the laws of the canonical form, the hash and the pipeline.
//!
//! Case counts are modest by default (see [`cases`]);
//! `PROPTEST_CASES=1000 cargo test --test with_schemars props::` runs more.

use crate::prop_run;
use crate::zoo;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use toolschema::{SchemaOptions, canonical, schema_hash};
use zoo::ZooType;

/// `default` cases unless `PROPTEST_CASES` says otherwise, this run's seed, failures kept
/// beside this file (`tests/prop_run`).
fn config(default: u32) -> Config {
    prop_run::config(file!(), default)
}

/// Rebuilds every object with its entries in an order decided by `salt` (meaningful when
/// serde_json's `preserve_order` is on; a no-op reordering otherwise).
fn shuffled(value: &Value, salt: u64) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by_key(|(k, _)| {
                k.bytes().fold(salt, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
            });
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), shuffled(v, salt))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| shuffled(v, salt)).collect()),
        other => other.clone(),
    }
}

/// JSON equality where numbers compare by value (`1.0` equals `1`, `-0.0` equals `0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(i), Some(j), _, _) => i == j,
            (_, _, Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

proptest! {
    #![proptest_config(config(256))]

    // Law: the canonical bytes and the hash do not depend on the order keys were inserted in.
    #[test]
    fn hash_and_canonical_bytes_ignore_key_order(value in zoo::arb_json(), salt in any::<u64>()) {
        let other = shuffled(&value, salt);
        prop_assert_eq!(canonical::to_string(&value), canonical::to_string(&other));
        prop_assert_eq!(schema_hash(&value), schema_hash(&other));
    }

    // Law: canonical output is JSON that parses back to a value equal to the input, and is a fixed
    // point of canonicalisation.
    #[test]
    fn canonical_output_reparses_to_an_equal_value(value in zoo::arb_json()) {
        let text = canonical::to_string(&value);
        let back: Value = serde_json::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert!(same_json(&value, &back), "{} became {}", value, back);
        prop_assert_eq!(canonical::to_string(&back), text);
    }

    // Law: the hash is `sha256:` over exactly the canonical bytes, so equal bytes mean equal hashes.
    #[test]
    fn hash_is_a_function_of_the_canonical_bytes(a in zoo::arb_json(), b in zoo::arb_json()) {
        let same_bytes = canonical::to_vec(&a) == canonical::to_vec(&b);
        prop_assert_eq!(same_bytes, schema_hash(&a) == schema_hash(&b));
    }
}

// ---------------------------------------------------------------------------------------------
// The pipeline on its own output.

// Law: for every zoo type, normalising the pipeline's output again changes nothing (value, bytes,
// hash, and no new doc warnings).
#[test]
fn pipeline_is_idempotent_on_every_zoo_type() {
    for entry in zoo::ZOO {
        let once = (entry.schema)(&SchemaOptions::new()).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        let twice = SchemaOptions::new()
            .normalize(once.as_value().clone())
            .unwrap_or_else(|e| panic!("{}: second run failed: {e}", entry.name));
        pretty_assertions::assert_eq!(once.as_value(), twice.as_value(), "{}", entry.name);
        assert_eq!(once.hash(), twice.hash(), "{}", entry.name);
        assert!(twice.doc_warnings().is_empty(), "{}: {:?}", entry.name, twice.doc_warnings());
    }
}

/// A property name, sometimes camelCase, sometimes `title`.
fn prop_name() -> impl Strategy<Value = String> {
    prop_oneof![4 => "[a-e]{1,3}", 1 => Just("title".to_owned()), 1 => Just("startDate".to_owned())]
}

/// Schemas shaped like what schemars and foreign tools write: objects with `required` in any order
/// (duplicates too), titles, doc blocks in descriptions, `$ref`s into `$defs`, unions, tuples,
/// maps, optional untyped properties.
fn arb_schema() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer", "minimum": 0, "title": "N"})),
        Just(json!({"type": "null"})),
        Just(json!({"enum": ["a", {"title": "x"}], "description": "Pick one."})),
        Just(json!({"const": 1.0})),
        Just(json!({"$ref": "#/$defs/Leaf"})),
        Just(json!({"type": ["number", "null"], "default": {"b": 1, "a": -0.0}})),
    ];
    leaf.prop_recursive(4, 40, 4, |inner| {
        let object = (
            btree_map(prop_name(), (inner.clone(), any::<bool>(), any::<bool>()), 0..4),
            proptest::option::of("[A-Z][a-z]{0,4}"),
            any::<bool>(),
        )
            .prop_map(|(props, title, with_block)| {
                let mut required: Vec<Value> =
                    props.iter().filter(|(_, (_, r, _))| *r).map(|(k, _)| json!(k)).collect();
                required.reverse();
                if let Some(first) = required.first().cloned() {
                    required.push(first);
                }
                let mut block = String::from("An object.\n\nArgs:\n");
                let mut properties = Map::new();
                for (name, (schema, _, untyped)) in &props {
                    block.push_str(&format!("    {name}: About {name}.\n"));
                    let schema = if *untyped { json!({}) } else { schema.clone() };
                    properties.insert(name.clone(), schema);
                }
                let mut s = json!({"type": "object", "properties": properties, "required": required});
                // An untyped schema may stay only where it is optional.
                if let (Some(req), Some(Value::Object(p))) =
                    (s["required"].as_array().cloned(), s.get_mut("properties"))
                {
                    for r in req {
                        if let Some(v) = r.as_str().and_then(|n| p.get_mut(n))
                            && v == &json!({})
                        {
                            *v = json!({"type": "boolean"});
                        }
                    }
                }
                if let Some(t) = title {
                    s["title"] = json!(t);
                }
                if with_block {
                    s["description"] = json!(block);
                }
                s
            });
        prop_oneof![
            3 => object,
            1 => inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"anyOf": m})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"type": "array", "prefixItems": m})),
            1 => inner.prop_map(|v| json!({"type": "object", "additionalProperties": v})),
        ]
    })
    .prop_map(|body| {
        let mut root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "Root",
            "type": "object",
            "properties": {"body": body},
            "required": ["body"],
            "$defs": {"Leaf": {"type": "string", "title": "Leaf"}, "Unused": {"type": "integer"}}
        });
        if root["properties"]["body"] == json!({}) {
            root["properties"]["body"] = json!({"type": "string"});
        }
        root
    })
    .boxed()
}

/// Runs `law` on generated schemas; returns how many of them the pipeline accepted.
fn on_generated_schemas(law: impl Fn(Value, u64) -> Result<bool, TestCaseError>) -> (u32, u32) {
    use std::cell::Cell;
    let accepted = Cell::new(0);
    let total = Cell::new(0);
    let mut runner = TestRunner::new(config(128));
    let result = runner.run(&(arb_schema(), any::<u64>()), |(schema, salt)| {
        total.set(total.get() + 1);
        if law(schema, salt)? {
            accepted.set(accepted.get() + 1);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    (accepted.get(), total.get())
}

// Law: whatever schema the pipeline accepts, it accepts its own output and returns it unchanged.
#[test]
fn pipeline_is_idempotent_on_generated_schemas() {
    let (accepted, total) = on_generated_schemas(|schema, salt| {
        let Ok(once) = SchemaOptions::new().normalize(shuffled(&schema, salt)) else { return Ok(false) };
        let twice = SchemaOptions::new().normalize(once.as_value().clone());
        let twice = twice.map_err(|e| TestCaseError::fail(format!("second run failed: {e}")))?;
        prop_assert_eq!(once.as_value(), twice.as_value());
        prop_assert_eq!(once.canonical_json(), twice.canonical_json());
        prop_assert_eq!(once.hash(), twice.hash());
        Ok(true)
    });
    // The generator is built so that most schemas are accepted; a law over none proves nothing.
    assert!(accepted * 2 >= total, "only {accepted} of {total} generated schemas were accepted");
}

// Law: the pipeline's result does not depend on the key order of its input.
#[test]
fn pipeline_output_ignores_input_key_order() {
    let (accepted, total) = on_generated_schemas(|schema, salt| {
        let a = SchemaOptions::new().normalize(schema.clone());
        let b = SchemaOptions::new().normalize(shuffled(&schema, salt));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.as_value(), b.as_value());
                prop_assert_eq!(a.hash(), b.hash());
                Ok(true)
            }
            (Err(a), Err(b)) => {
                prop_assert_eq!(a, b);
                Ok(false)
            }
            (a, b) => Err(TestCaseError::fail(format!(
                "one order failed, the other did not: {:?} / {:?}",
                a.err(),
                b.err()
            ))),
        }
    });
    assert!(accepted * 2 >= total, "only {accepted} of {total} generated schemas were accepted");
}

// ---------------------------------------------------------------------------------------------
// Zoo values against zoo schemas.

fn check_values_validate<T: ZooType>() {
    let schema = toolschema::schema_for::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::NAME));
    let validator = zoo::validator(schema.as_value());
    let mut runner = TestRunner::new(config(48));
    let result = runner.run(&T::arb(), |value| {
        let json = serde_json::to_value(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let errors: Vec<String> = validator.iter_errors(&json).map(|e| e.to_string()).collect();
        prop_assert!(errors.is_empty(), "{} does not validate: {:?}", json, errors);
        Ok(())
    });
    if let Err(e) = result {
        panic!("`{}` ({}): {e}\nschema: {:#}", T::NAME, std::any::type_name::<T>(), schema.as_value());
    }
}

fn check_mutants_that_validate_deserialise<T: ZooType>() -> usize {
    let schema = toolschema::schema_for::<T>().unwrap_or_else(|e| panic!("{}: {e}", T::NAME));
    let validator = zoo::validator(schema.as_value());
    let mut runner = TestRunner::new(config(16));
    let checked = std::cell::Cell::new(0usize);
    let result = runner.run(&T::arb(), |value| {
        let json = serde_json::to_value(&value).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for mutant in zoo::mutants(&json) {
            if validator.is_valid(&mutant) {
                checked.set(checked.get() + 1);
                let parsed = serde_json::from_value::<T>(mutant.clone());
                prop_assert!(
                    parsed.is_ok(),
                    "schema accepts {} but serde refuses it: {:?}",
                    mutant,
                    parsed.err()
                );
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("`{}`: {e}\nschema: {:#}", T::NAME, schema.as_value());
    }
    checked.get()
}

macro_rules! all_values_validate {
    ($($t:ty),* $(,)?) => { $( check_values_validate::<$t>(); )* };
}

macro_rules! all_mutants_deserialise {
    ($($t:ty),* $(,)?) => { [$( check_mutants_that_validate_deserialise::<$t>() ),*] };
}

// Law: every serialised value of every zoo type validates against the type's schema (draft 2020-12).
#[test]
fn every_serialised_zoo_value_validates_against_its_schema() {
    zoo::for_each_zoo_type!(all_values_validate);
}

// Law: every small edit of a zoo value that the schema still accepts, serde still parses (the
// schema never accepts more than the code parses, under the default dialect).
#[test]
fn every_mutant_the_schema_accepts_deserialises() {
    let checked = zoo::for_each_zoo_type!(all_mutants_deserialise);
    // Most types have some accepted edit (a dropped optional key, an unknown key): make sure the
    // law was exercised.
    let exercised = checked.iter().filter(|n| **n > 0).count();
    assert!(exercised * 2 > checked.len(), "accepted mutants per type: {checked:?}");
}

// Law: the registry's erased sample function gives values that validate too (the form the dialect
// tests use), and is reproducible from its seed.
#[test]
fn registry_samples_validate_and_are_reproducible() {
    for entry in zoo::ZOO {
        let schema = (entry.schema)(&SchemaOptions::new()).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        let validator = zoo::validator(schema.as_value());
        let samples = (entry.samples)(11, 8);
        assert_eq!(samples, (entry.samples)(11, 8), "{}", entry.name);
        for value in &samples {
            assert!(validator.is_valid(value), "{}: {value}", entry.name);
            assert!((entry.deserializes)(value), "{}: {value}", entry.name);
        }
    }
}
