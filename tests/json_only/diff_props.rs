#![allow(clippy::pedantic)]
//! Property tests of `toolschema::diff` against a real validator: a change the diff does not call
//! narrowing must not make any value invalid.
//!
//! Schemas are small random draft 2020-12 schemas (objects, arrays, unions, `not`, bounds, enums);
//! the new version is the old one after a few random edits (a bound moved, a keyword removed, a
//! name made required, an enum value added, an object closed, ...). Instances are small JSON
//! values near the bounds the schemas use. The validator is the `jsonschema` crate.
//!
//! Case counts are modest by default; `PROPTEST_CASES=5000 cargo test --test json_only diff_props::`
//! runs more.

use crate::prop_run;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use toolschema::diff::{ChangeKind, diff};

fn config(default: u32) -> Config {
    prop_run::config(file!(), default)
}

const TYPES: &[&str] = &["string", "integer", "number", "boolean", "null", "array", "object"];
const NAMES: &[&str] = &["a", "b", "c"];

fn small_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..4).prop_map(Value::from),
        Just(json!(0.5)),
        Just(json!(2.5)),
        prop::sample::select(vec!["", "a", "ab", "abc", "b"]).prop_map(Value::from),
    ]
}

fn arb_leaf() -> impl Strategy<Value = Value> {
    (
        prop::option::of(prop::sample::select(TYPES)),
        prop::option::of(-3i64..4),
        prop::option::of(-3i64..4),
        prop::option::of(0u64..3),
        prop::option::of(0u64..3),
        prop::option::of(vec(small_value(), 1..4)),
        prop::option::of(prop::sample::select(vec![1.0, 2.0, 0.5])),
        any::<bool>(),
    )
        .prop_map(|(t, min, max, min_len, max_len, values, multiple, described)| {
            let mut m = Map::new();
            if let Some(t) = t {
                m.insert("type".into(), json!(t));
            }
            if let Some(v) = min {
                m.insert("minimum".into(), json!(v));
            }
            if let Some(v) = max {
                m.insert("maximum".into(), json!(v));
            }
            if let Some(v) = min_len {
                m.insert("minLength".into(), json!(v));
            }
            if let Some(v) = max_len {
                m.insert("maxLength".into(), json!(v));
            }
            if let Some(v) = values {
                m.insert("enum".into(), Value::Array(v));
            }
            if let Some(v) = multiple {
                m.insert("multipleOf".into(), json!(v));
            }
            if described {
                m.insert("description".into(), json!("d"));
            }
            Value::Object(m)
        })
}

fn arb_schema() -> BoxedStrategy<Value> {
    arb_leaf()
        .prop_recursive(2, 16, 3, |inner| {
            prop_oneof![
                (
                    btree_map(prop::sample::select(NAMES), inner.clone(), 0..3),
                    prop::sample::subsequence(NAMES, 0..3),
                    prop::option::of(prop_oneof![Just(json!(false)), Just(json!(true)), inner.clone()]),
                )
                    .prop_map(|(props, required, additional)| {
                        let mut m = Map::new();
                        m.insert("type".into(), json!("object"));
                        m.insert(
                            "properties".into(),
                            Value::Object(props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()),
                        );
                        if !required.is_empty() {
                            m.insert("required".into(), json!(required));
                        }
                        if let Some(a) = additional {
                            m.insert("additionalProperties".into(), a);
                        }
                        Value::Object(m)
                    }),
                (inner.clone(), prop::option::of(0u64..3), prop::option::of(0u64..3), any::<bool>())
                    .prop_map(|(items, min, max, unique)| {
                        let mut m = Map::new();
                        m.insert("type".into(), json!("array"));
                        m.insert("items".into(), items);
                        if let Some(v) = min {
                            m.insert("minItems".into(), json!(v));
                        }
                        if let Some(v) = max {
                            m.insert("maxItems".into(), json!(v));
                        }
                        if unique {
                            m.insert("uniqueItems".into(), json!(true));
                        }
                        Value::Object(m)
                    }),
                (prop::sample::select(vec!["anyOf", "allOf", "oneOf"]), vec(inner.clone(), 1..3))
                    .prop_map(|(k, members)| json!({ k: members })),
                inner.clone().prop_map(|s| json!({"not": s})),
                inner,
            ]
        })
        .boxed()
}

fn arb_instance() -> BoxedStrategy<Value> {
    small_value()
        .prop_recursive(2, 12, 3, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Value::Array),
                btree_map(prop::sample::select(vec!["a", "b", "c", "d"]), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
            ]
        })
        .boxed()
}

/// Every schema object in `schema`, as JSON pointers.
fn schema_pointers(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let _ = toolschema::walk::visit_all(schema, 64, &mut |p, node| {
        if node.is_object() {
            out.push(p.as_str().to_owned());
        }
        true
    });
    out
}

/// One small edit of the schema at `pointer`, chosen by `op` and `arg`.
fn edit(node: &mut Map<String, Value>, op: u8, arg: i64) {
    let bump = |v: Option<&Value>| v.and_then(Value::as_i64).unwrap_or(0) + if arg % 2 == 0 { 1 } else { -1 };
    match op % 12 {
        0 => {
            let v = bump(node.get("minimum"));
            node.insert("minimum".into(), json!(v));
        }
        1 => {
            let v = bump(node.get("maximum"));
            node.insert("maximum".into(), json!(v));
        }
        2 => {
            let keys: Vec<String> = node.keys().cloned().collect();
            if !keys.is_empty() {
                node.remove(&keys[(arg.unsigned_abs() as usize) % keys.len()]);
            }
        }
        3 => {
            let name = NAMES[(arg.unsigned_abs() as usize) % NAMES.len()];
            let mut req: Vec<Value> =
                node.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            if let Some(i) = req.iter().position(|r| r == name) {
                req.remove(i);
            } else {
                req.push(json!(name));
            }
            if req.is_empty() {
                node.remove("required");
            } else {
                node.insert("required".into(), Value::Array(req));
            }
        }
        4 => {
            let pool = [json!(0), json!(1), json!("a"), json!("ab"), Value::Null, json!(true)];
            let v = pool[(arg.unsigned_abs() as usize) % pool.len()].clone();
            let mut values: Vec<Value> =
                node.get("enum").and_then(Value::as_array).cloned().unwrap_or_default();
            if let Some(i) = values.iter().position(|x| *x == v) {
                values.remove(i);
            } else {
                values.push(v);
            }
            if values.is_empty() {
                node.remove("enum");
            } else {
                node.insert("enum".into(), Value::Array(values));
            }
        }
        5 => match node.get("additionalProperties") {
            None => {
                node.insert("additionalProperties".into(), json!(false));
            }
            Some(Value::Bool(false)) => {
                node.remove("additionalProperties");
            }
            Some(_) => {
                node.insert("additionalProperties".into(), json!(arg % 2 == 0));
            }
        },
        6 => {
            let t = TYPES[(arg.unsigned_abs() as usize) % TYPES.len()];
            let v = if arg % 3 == 0 { json!([t, "null"]) } else { json!(t) };
            node.insert("type".into(), v);
        }
        7 => {
            node.insert("description".into(), json!(format!("changed {arg}")));
        }
        8 => {
            let key = if arg % 2 == 0 { "minLength" } else { "maxLength" };
            let v = (node.get(key).and_then(Value::as_i64).unwrap_or(1) + if arg % 4 < 2 { 1 } else { -1 })
                .max(0);
            node.insert(key.into(), json!(v));
        }
        9 => {
            let name = NAMES[(arg.unsigned_abs() as usize) % NAMES.len()];
            let props = node.entry("properties").or_insert_with(|| json!({}));
            if let Some(props) = props.as_object_mut()
                && props.remove(name).is_none()
            {
                let t = TYPES[(arg.unsigned_abs() as usize / 3) % TYPES.len()];
                props.insert(name.into(), json!({"type": t}));
            }
        }
        10 => {
            let v = [1.0, 2.0, 4.0, 0.5][(arg.unsigned_abs() as usize) % 4];
            node.insert("multipleOf".into(), json!(v));
        }
        _ => {
            let on = node.get("uniqueItems") == Some(&json!(true));
            node.insert("uniqueItems".into(), json!(!on));
        }
    }
}

fn mutate(schema: &Value, edits: &[(usize, u8, i64)]) -> Value {
    let mut new = schema.clone();
    for &(at, op, arg) in edits {
        let pointers = schema_pointers(&new);
        if pointers.is_empty() {
            break;
        }
        let p = &pointers[at % pointers.len()];
        if let Some(Value::Object(node)) = new.pointer_mut(p) {
            edit(node, op, arg);
        }
    }
    new
}

fn validator(schema: &Value) -> Result<jsonschema::Validator, TestCaseError> {
    jsonschema::draft202012::new(schema)
        .map_err(|e| TestCaseError::fail(format!("invalid schema {schema}: {e}")))
}

/// Checks the diff's claim about `old` → `new` on every instance.
fn check_claim(old: &Value, new: &Value, instances: &[Value]) -> Result<(), TestCaseError> {
    let d = diff(old, new);
    let (vo, vn) = (validator(old)?, validator(new)?);
    let kind = d.kind();
    for inst in instances {
        let (a, b) = (vo.is_valid(inst), vn.is_valid(inst));
        if kind != Some(ChangeKind::Narrowing) && a && !b {
            return Err(TestCaseError::fail(format!(
                "{inst} was valid and is refused now, but the diff says {kind:?}\nold: {old}\nnew: {new}\n{:#?}",
                d.changes()
            )));
        }
        if kind.is_none_or(|k| k == ChangeKind::AnnotationOnly) && !a && b {
            return Err(TestCaseError::fail(format!(
                "{inst} was refused and is valid now, but the diff says {kind:?}\nold: {old}\nnew: {new}\n{:#?}",
                d.changes()
            )));
        }
    }
    Ok(())
}

// Law: a diff without narrowing never hides a value that became invalid; one with only
// annotation changes (or none) never hides a value that became valid. Both directions.
#[test]
fn a_change_the_diff_does_not_call_narrowing_invalidates_no_value() {
    let strategy =
        (arb_schema(), vec((any::<usize>(), any::<u8>(), -8i64..8), 1..3), vec(arb_instance(), 0..40));
    TestRunner::new(config(512))
        .run(&strategy, |(old, edits, instances)| {
            let new = mutate(&old, &edits);
            check_claim(&old, &new, &instances)?;
            check_claim(&new, &old, &instances)
        })
        .unwrap_or_else(|e| panic!("{e}"));
}

// Law: a schema compared with itself has no changes.
#[test]
fn a_schema_has_no_changes_against_itself() {
    TestRunner::new(config(256))
        .run(&arb_schema(), |s| {
            prop_assert!(diff(&s, &s).is_empty());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
