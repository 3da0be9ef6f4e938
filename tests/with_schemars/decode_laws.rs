#![allow(clippy::pedantic)]
//! The decode law: `ToolSchema::decode::<T>`, which reads the model's arguments through the restore
//! plan as serde asks for them, gives what `restore` followed by `serde_json::from_value::<T>`
//! gives, for every zoo type under every built-in dialect in both modes: `Ok` with equal values,
//! or the same error (faults, pointers and serde's message alike).
//!
//! The arguments are the zoo's values in the provider's terms (`encode`), those with every integer
//! sent as a float (the integer fix), every small edit of them (`zoo::mutants`: keys dropped or
//! added, leaves replaced by other JSON types, arrays emptied or grown), and arbitrary JSON (alone,
//! and wrapped as a root would be). `PROPTEST_CASES` sets the number of arbitrary values; seeds
//! and failures are kept as `tests/prop_run` says.

use crate::prop_run;
use crate::zoo;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolschema::{ArgumentsError, DecodeError, SchemaOptions, ToolSchema, dialect};
use zoo::ZooType;

/// The old way: restore, then serde on the restored value.
fn restore_then_serde<T: ZooType>(schema: &ToolSchema, args: Value) -> Result<T, ArgumentsError> {
    let restored = schema.restore(args)?;
    serde_json::from_value(restored)
        .map_err(|e| ArgumentsError::Decode(DecodeError::Deserialize { message: e.to_string() }))
}

/// `Ok(true)` when both gave the same value, `Ok(false)` the same error; else what differs.
fn same<T: ZooType>(schema: &ToolSchema, args: &Value) -> Result<bool, String> {
    let new = schema.decode::<T>(args.clone());
    let old = restore_then_serde::<T>(schema, args.clone());
    match (new, old) {
        (Ok(a), Ok(b)) if a == b => Ok(true),
        (Err(a), Err(b)) if a == b => Ok(false),
        (a, b) => Err(format!(
            "{} under {}: decode and restore + serde differ on {args}\n  decode: {a:?}\n  restore + serde: {b:?}",
            T::NAME,
            schema.dialect_name()
        )),
    }
}

/// One zoo type, type-erased: its schema under some options, its samples, and the law.
struct Case {
    name: &'static str,
    schema: fn(&SchemaOptions) -> Result<ToolSchema, toolschema::Error>,
    samples: fn(u64, usize) -> Vec<Value>,
    same: fn(&ToolSchema, &Value) -> Result<bool, String>,
}

macro_rules! cases {
    ($($t:ty),* $(,)?) => {
        /// Every zoo type.
        const CASES: &[Case] = &[$(Case {
            name: <$t as ZooType>::NAME,
            schema: |o| o.schema_for::<$t>(),
            samples: |seed, n| zoo::values_of::<$t>(seed, n).iter().map(|v| serde_json::to_value(v).unwrap_or(Value::Null)).collect(),
            same: same::<$t>,
        }),*];
    };
}
zoo::for_each_zoo_type!(cases);

/// Every zoo type's schema under every built-in dialect, in both modes, where it builds.
fn schemas() -> Vec<(&'static Case, String, ToolSchema)> {
    let mut out = Vec::new();
    for &d in dialect::builtin() {
        for exact in [false, true] {
            let label = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            for case in CASES {
                if let Ok(schema) = (case.schema)(&SchemaOptions::new().dialect(d).exact(exact)) {
                    out.push((case, label.clone(), schema));
                }
            }
        }
    }
    out
}

/// Every integer of `value` written as a float (`3` as `3.0`), where it is exact as one.
fn floated(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_f64() => match n.as_f64() {
            Some(f) if f.abs() < 9_007_199_254_740_992.0 => json!(f),
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(floated).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), floated(v))).collect()),
        other => other.clone(),
    }
}

/// Values per zoo type: 6 at the default case count of 24 (the arbitrary-JSON law's), growing
/// with `PROPTEST_CASES` ([`prop_run::scaled`]).
fn samples() -> usize {
    samples_at(prop_run::env_cases())
}

/// [`samples`] at a given `PROPTEST_CASES` (`None`: unset).
pub(crate) fn samples_at(cases: Option<u64>) -> usize {
    prop_run::scaled_at(6, 24, cases)
}

// The law over the zoo's values in each provider's terms, their integers as floats, and every
// small edit of them.
#[test]
fn decode_gives_what_restore_then_serde_gives_on_encoded_zoo_values_and_their_edits() {
    let schemas = schemas();
    let labels: Vec<String> = schemas.iter().map(|(_, l, _)| l.clone()).collect();
    let mut labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    labels.dedup();
    let seeds = prop_run::Seeds::new(file!(), "zoo");
    let samples = samples();
    for seed in seeds.all() {
        let reach = prop_run::Reach::new();
        let mut failures = Vec::new();
        for (case, label, schema) in &schemas {
            for value in (case.samples)(seed ^ case.name.len() as u64, samples) {
                let sent = schema.plan().encode(value);
                let mut args = vec![floated(&sent), sent.clone()];
                args.extend(zoo::mutants(&sent));
                for (i, a) in args.iter().enumerate() {
                    match (case.same)(schema, a) {
                        Ok(ok) => {
                            if i < 2 {
                                reach.count(label, ok);
                            }
                        }
                        Err(e) => failures.push(e),
                    }
                }
            }
        }
        if !failures.is_empty() {
            seeds.keep(seed);
        }
        assert!(
            failures.is_empty(),
            "seed {seed}: {} failures: {:#?}",
            failures.len(),
            &failures[..failures.len().min(10)]
        );
        // Most encoded values decode (the law is not vacuous over errors); what fails is a type
        // whose values some dialect cannot carry exactly.
        reach.finish("decode: encoded zoo values that decode", &labels, 0.5);
    }
}

// The law over arbitrary JSON as arguments, alone and wrapped the way a non-object root is.
#[test]
fn decode_gives_what_restore_then_serde_gives_on_arbitrary_arguments() {
    let schemas = schemas();
    prop_run::check(file!(), 24, zoo::arb_json(), |args| {
        let wrapped = Value::Object(Map::from_iter([("value".to_owned(), args.clone())]));
        for (case, _, schema) in &schemas {
            for a in [&args, &wrapped] {
                (case.same)(schema, a).map_err(TestCaseError::fail)?;
            }
        }
        Ok(())
    });
}

/// `value` nested in `levels` arrays, or objects under `key`.
fn nested(levels: usize, key: Option<&str>, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..levels {
        v = match key {
            Some(k) => Value::Object(Map::from_iter([(k.to_owned(), v)])),
            None => Value::Array(vec![v]),
        };
    }
    v
}

// Arguments deeper than the plan's depth budget (the recursive zoo types, as serde and restore
// would follow them): no panic, and the same answer both ways.
#[test]
fn decode_gives_what_restore_then_serde_gives_on_deep_arguments() {
    let run = std::thread::Builder::new().stack_size(256 << 20).spawn(|| {
        let schemas = schemas();
        let mut failures = Vec::new();
        for levels in [100, 140, 400] {
            for key in [None, Some("children"), Some("next"), Some("value")] {
                let deep = nested(levels, key, json!({"value": 1.0, "name": "x"}));
                for (case, _, schema) in &schemas {
                    if let Err(e) = (case.same)(schema, &deep) {
                        failures.push(e);
                    }
                }
            }
        }
        failures
    });
    let failures = run.expect("thread").join().expect("no panic");
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), &failures[..failures.len().min(5)]);
}
