#![allow(clippy::pedantic)]
//! What a schema promises against what serde reads, on the shapes an independent run of unseen
//! types found wrong, and the boundary of that promise: the values every schema here
//! accepts and serde refuses, whatever the schema says (README, "Guarantees").
//!
//! - the per-type cache tells apart types that share a `type_name`;
//! - integer formats become the bounds serde enforces, in every dialect;
//! - map keys are spelled as serde reads them (`propertyNames`), exactly where the key type is
//!   named (`passes::key_names`);
//! - `SchemaOptions::check` builds every tool of a program at once;
//! - each known gap between JSON Schema and serde is shown: the schema accepts the value AND serde
//!   refuses it, so the test fails if either side changes.
//!
//! The zoo types `internal_enum_over_flattened_map`, `integer_ranges`, `integer_keyed_maps`,
//! `untyped_by_declaration` and `flatten_optional_enum` carry these shapes through the property
//! tests of every dialect (`props.rs`, `dialects.rs`, `laws.rs`).

use crate::prop_run;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use toolschema::dialect::{self, SchemaDialect};
use toolschema::passes::{MapKey, SIGNED_KEY, UNSIGNED_KEY, key_names};
use toolschema::{Error, SchemaOptions, schema_for};

use crate::zoo;

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema)
        .unwrap_or_else(|e| panic!("not a draft 2020-12 schema: {e}\n{schema:#}"))
}

/// Whether a dialect's schema lets `value` through to the code: its encoding in the provider's
/// terms (`RestorePlan::encode`) is accepted, and restore maps it back without a fault (restore
/// checks what the provider could not enforce). `Some(restored)` when it does.
fn sends(schema: &toolschema::ToolSchema, value: &Value) -> Option<Value> {
    let sent = schema.plan().encode(value.clone());
    // Gemini's OpenAPI `nullable` read as JSON Schema's `null` type.
    if !validator(&zoo::openapi_as_json_schema(schema.as_value())).is_valid(&sent) {
        return None;
    }
    schema.restore(sent).ok()
}

/// The dialects whose output is JSON Schema (`gemini` and `gemini-ordered` write OpenAPI's
/// `nullable`).
fn json_schema_dialects() -> impl Iterator<Item = &'static dyn SchemaDialect> {
    dialect::builtin().iter().copied().filter(|d| !matches!(d.name(), "gemini" | "gemini-ordered"))
}

/// The provider dialects: each enforces the formats it keeps.
const PROVIDERS: &[&str] = &[
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini",
    "gemini-ordered",
    "gemini-json-schema",
    "llguidance",
    "outlines",
];

/// What [`json_schema_dialects`] yields: a test that checked each of them says so against this.
const JSON_SCHEMA_OUTPUT: [&str; 11] = [
    "json-schema",
    "strict-subset",
    "inline-refs",
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini-json-schema",
    "llguidance",
    "outlines",
    "mcp",
    "mcp-self-contained",
];

// ---------------------------------------------------------------------------------------------
// The cache: one entry per type, not per `type_name`.

/// What registration macros write: a trait implemented inside `const _: () = { .. };`.
trait Tool {
    fn schema() -> Result<toolschema::ToolSchema, Error>;
    fn rust_name() -> &'static str;
}

struct First;
struct Second;

const _: () = {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        count: u8,
    }
    impl Tool for First {
        fn schema() -> Result<toolschema::ToolSchema, Error> {
            schema_for::<Args>()
        }
        fn rust_name() -> &'static str {
            std::any::type_name::<Args>()
        }
    }
};

const _: () = {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        name: String,
    }
    impl Tool for Second {
        fn schema() -> Result<toolschema::ToolSchema, Error> {
            schema_for::<Args>()
        }
        fn rust_name() -> &'static str {
            std::any::type_name::<Args>()
        }
    }
};

/// The one property of a schema's root.
fn only_property(schema: &toolschema::ToolSchema) -> String {
    let props = schema.as_value()["properties"].as_object().expect("an object schema");
    assert_eq!(props.len(), 1, "{}", schema.canonical_json());
    props.keys().next().unwrap().clone()
}

// Regression: the cache was keyed by `type_name`, and the second `Args` got the first
// one's schema.
#[test]
fn two_types_in_const_blocks_that_share_a_type_name_get_their_own_schemas() {
    assert_eq!(First::rust_name(), Second::rust_name(), "the hazard this test is about");
    assert_eq!(only_property(&First::schema().unwrap()), "count");
    assert_eq!(only_property(&Second::schema().unwrap()), "name");
    // And again, from the cache.
    assert_eq!(only_property(&First::schema().unwrap()), "count");
    assert_eq!(only_property(&Second::schema().unwrap()), "name");
}

#[test]
fn two_types_in_two_closures_of_one_function_get_their_own_schemas() {
    let first = || {
        #[derive(Deserialize, JsonSchema)]
        #[allow(dead_code)]
        struct Args {
            count: u8,
        }
        (std::any::type_name::<Args>(), schema_for::<Args>().unwrap())
    };
    let second = || {
        #[derive(Deserialize, JsonSchema)]
        #[allow(dead_code)]
        struct Args {
            name: String,
        }
        (std::any::type_name::<Args>(), schema_for::<Args>().unwrap())
    };
    let (a, b) = (first(), second());
    assert_eq!(a.0, b.0, "the hazard this test is about");
    assert_eq!((only_property(&a.1), only_property(&b.1)), ("count".to_owned(), "name".to_owned()));
    assert_eq!(only_property(&first().1), "count");
}

#[test]
fn two_types_in_sibling_blocks_get_their_own_schemas() {
    let a = {
        #[derive(Deserialize, JsonSchema)]
        #[allow(dead_code)]
        struct Args {
            count: u8,
        }
        (std::any::type_name::<Args>(), schema_for::<Args>().unwrap())
    };
    let b = {
        #[derive(Deserialize, JsonSchema)]
        #[allow(dead_code)]
        struct Args {
            name: String,
        }
        (std::any::type_name::<Args>(), schema_for::<Args>().unwrap())
    };
    assert_eq!(a.0, b.0, "the hazard this test is about");
    assert_eq!((only_property(&a.1), only_property(&b.1)), ("count".to_owned(), "name".to_owned()));
}

#[test]
fn the_uncached_build_gives_the_cached_schema_without_storing_it() {
    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Borrowed<'a> {
        word: &'a str,
    }
    // A generic function without a `'static` bound cannot call `schema_for`; it can call this.
    fn generic<T: JsonSchema>() -> Result<toolschema::ToolSchema, Error> {
        SchemaOptions::new().schema_for_uncached::<T>()
    }
    let uncached = generic::<Borrowed<'_>>().unwrap();
    let cached = schema_for::<Borrowed<'static>>().unwrap();
    assert_eq!(uncached.canonical_json(), cached.canonical_json());
    let again = generic::<Borrowed<'_>>().unwrap();
    assert!(!std::ptr::eq(uncached.as_value(), again.as_value()), "an uncached build is built each time");
}

// ---------------------------------------------------------------------------------------------
// Integer formats are bounds.

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Widths {
    a: u32,
    b: i64,
    c: u64,
    d: i8,
    e: usize,
}

// Regression: `u32` accepted 4294967296 and `i64` 9223372036854775808.
#[test]
fn every_integer_is_bounded_by_its_range_in_every_dialect() {
    let at_max = json!({"a": u32::MAX, "b": i64::MAX, "c": u64::MAX, "d": 127, "e": u64::MAX});
    let at_min = json!({"a": 0, "b": i64::MIN, "c": 0, "d": -128, "e": 0});
    let past = [
        ("a", json!(4_294_967_296_u64)),
        ("a", json!(-1)),
        ("b", json!(9_223_372_036_854_775_808_u64)),
        ("c", json!(-1)),
        ("c", json!(18_446_744_073_709_551_616.0)),
        ("d", json!(128)),
        ("d", json!(-129)),
        ("e", json!(-1)),
    ];
    let mut checked = Vec::new();
    for d in json_schema_dialects() {
        let schema = SchemaOptions::new().dialect(d).schema_for::<Widths>().unwrap();
        for ok in [&at_max, &at_min] {
            assert!(sends(&schema, ok).is_some(), "{} refuses {ok}", d.name());
            assert!(serde_json::from_value::<Widths>(ok.clone()).is_ok());
        }
        for (field, n) in &past {
            let mut value = at_max.clone();
            value[*field] = n.clone();
            // Refused by the provider's schema, or (Anthropic, which enforces no bound) by restore.
            assert!(sends(&schema, &value).is_none(), "{} accepts {value}", d.name());
            assert!(serde_json::from_value::<Widths>(value).is_err());
        }
        checked.push(d.name().to_owned());
    }
    assert_eq!(checked, JSON_SCHEMA_OUTPUT);
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Wide {
    huge: i128,
    vast: u128,
}

#[test]
fn wide_integers_get_the_nearest_double_bounds_in_every_dialect_openai_strict_included() {
    // llguidance reads bounds as `f64` and an integer's as `i64`: past 2^53 they are moved into
    // restore (`dialect::llguidance`), as Anthropic's all are, and outlines-core's all are.
    let moved = ["anthropic-strict", "llguidance", "outlines"];
    for d in json_schema_dialects().filter(|d| !moved.contains(&d.name())) {
        let schema = SchemaOptions::new().dialect(d).schema_for::<Wide>().unwrap();
        let props = &schema.as_value()["properties"];
        assert_eq!(props["huge"]["minimum"], json!(-(2f64.powi(127))), "{}", d.name());
        assert_eq!(props["huge"]["maximum"], json!(2f64.powi(127)), "{}", d.name());
        assert_eq!(props["vast"]["maximum"], json!(2f64.powi(128)), "{}", d.name());
        let v = validator(schema.as_value());
        let text = |h: &str, u: &str| format!(r#"{{"huge": {h}, "vast": {u}}}"#);
        let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        let max = text(&i128::MAX.to_string(), &u128::MAX.to_string());
        assert!(v.is_valid(&parse(&max)), "{}", d.name());
        assert!(serde_json::from_str::<Wide>(&max).is_ok());
        // (Beyond the bounds by more than a double's rounding: a validator that reads numbers as
        // doubles, as this one does, cannot tell `2^127 + 1` from `2^127`.)
        for past in [text("-1.8e38", "0"), text("1.8e38", "0"), text("0", "3.5e38"), text("0", "-1")] {
            assert!(!v.is_valid(&parse(&past)), "{} accepts {past}", d.name());
            assert!(serde_json::from_str::<Wide>(&past).is_err());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Map keys as serde reads them.

/// A validator of objects whose property names `names` (a `propertyNames` schema) judges.
fn names_validator(names: &Value) -> jsonschema::Validator {
    validator(&json!({"type": "object", "propertyNames": names}))
}

/// Whether `names` (from [`names_validator`]) accepts `key` as a property name.
fn names_accept(names: &jsonschema::Validator, key: &str) -> bool {
    let mut object = serde_json::Map::new();
    object.insert(key.to_owned(), json!(1));
    names.is_valid(&Value::Object(object))
}

/// Whether serde_json reads `{key: 1}` as a `BTreeMap<K, u8>`. A panic counts as a refusal:
/// serde_json 1.0.154 panics while it words the error for a `bool` key that is not ASCII
/// (`{"é": 1}`), a bug of its own; `key_names::<bool>()` refuses such keys.
fn serde_reads_key<K: DeserializeOwned + Ord>(key: &str) -> bool {
    let text = format!("{{{}: 1}}", serde_json::to_string(key).unwrap());
    std::panic::catch_unwind(|| serde_json::from_str::<BTreeMap<K, u8>>(&text).is_ok()).unwrap_or(false)
}

/// Keys at and around every integer type's edges, and spellings serde refuses.
fn edge_keys() -> Vec<String> {
    let mut keys: Vec<String> = [
        "0", "-0", "00", "01", "+1", "-01", " 1", "1 ", "", "-", "1e2", "0x1", "1.0", "\u{661}", "\u{ff11}",
        "a", "ab", "true", "false", "True", "é", "😂", "\n",
    ]
    .iter()
    .map(|k| (*k).to_owned())
    .collect();
    let edges: [(i128, u128); 6] = [
        (i8::MIN.into(), u8::MAX.into()),
        (i16::MIN.into(), u16::MAX.into()),
        (i32::MIN.into(), u32::MAX.into()),
        (i64::MIN.into(), u64::MAX.into()),
        (i128::MIN, u128::MAX),
        (i8::MAX.into(), i128::MAX as u128),
    ];
    for (lo, hi) in edges {
        keys.push(lo.to_string());
        keys.push(hi.to_string());
        keys.push(format!("{}", (lo as f64) * 10.0).replace(".0", "").replace('e', "0"));
        if let Some(below) = lo.checked_sub(1) {
            keys.push(below.to_string());
        } else {
            keys.push("-170141183460469231731687303715884105729".to_owned());
        }
        match hi.checked_add(1) {
            Some(above) => keys.push(above.to_string()),
            None => keys.push("340282366920938463463374607431768211456".to_owned()),
        }
        keys.push(hi.saturating_sub(1).to_string());
        keys.push((lo + 1).to_string());
        keys.push(format!("0{hi}"));
    }
    keys
}

/// `key_names::<K>()` accepts exactly the keys serde_json reads as a `K`: at every edge, and on
/// random digit strings.
fn key_names_are_exact<K: MapKey + DeserializeOwned + Ord>() {
    let names = key_names::<K>();
    let v = names_validator(&names);
    let mut keys = edge_keys();
    // This run's seed (printed), `PROPTEST_CASES` random keys.
    let mut runner = TestRunner::new(prop_run::config(file!(), 1));
    let strategy = "-?[0-9]{1,40}";
    for _ in 0..prop_run::cases(256) {
        keys.push(strategy.new_tree(&mut runner).unwrap().current());
    }
    for key in &keys {
        assert_eq!(
            names_accept(&v, key),
            serde_reads_key::<K>(key),
            "`{}` key {key:?} with {names}",
            std::any::type_name::<K>()
        );
    }
}

#[test]
fn key_names_accept_exactly_what_serde_reads_for_every_key_type() {
    key_names_are_exact::<u8>();
    key_names_are_exact::<u16>();
    key_names_are_exact::<u32>();
    key_names_are_exact::<u64>();
    key_names_are_exact::<u128>();
    key_names_are_exact::<usize>();
    key_names_are_exact::<i8>();
    key_names_are_exact::<i16>();
    key_names_are_exact::<i32>();
    key_names_are_exact::<i64>();
    key_names_are_exact::<i128>();
    key_names_are_exact::<isize>();
    key_names_are_exact::<char>();
    key_names_are_exact::<bool>();
    key_names_are_exact::<String>();
}

// The pattern the MapKeys pass writes, knowing only "unsigned" or "signed": every key serde reads
// for some width passes, and every key it refuses serde refuses for every width.
#[test]
fn the_pass_writes_the_spellings_serde_reads_for_any_integer_width() {
    let unsigned = names_validator(&json!({"pattern": UNSIGNED_KEY}));
    let signed = names_validator(&json!({"pattern": SIGNED_KEY}));
    for key in edge_keys() {
        let some_unsigned = serde_reads_key::<u8>(&key)
            || serde_reads_key::<u16>(&key)
            || serde_reads_key::<u32>(&key)
            || serde_reads_key::<u64>(&key)
            || serde_reads_key::<u128>(&key);
        let some_signed = serde_reads_key::<i8>(&key)
            || serde_reads_key::<i16>(&key)
            || serde_reads_key::<i32>(&key)
            || serde_reads_key::<i64>(&key)
            || serde_reads_key::<i128>(&key);
        if some_unsigned {
            assert!(names_accept(&unsigned, &key), "{key:?}");
        }
        if !names_accept(&unsigned, &key) {
            assert!(!some_unsigned, "{key:?}");
        }
        // The one exception, in the safe direction: serde_json reads `-0` as an `i128` key (as no
        // narrower one) and never writes it; the pattern refuses it.
        if some_signed && key != "-0" {
            assert!(names_accept(&signed, &key), "{key:?}");
        }
        if !names_accept(&signed, &key) && key != "-0" {
            assert!(!some_signed, "{key:?}");
        }
    }
    for refused in ["01", "+1", "-0", "00", "\u{661}", " 1"] {
        assert!(!names_accept(&unsigned, refused) && !names_accept(&signed, refused), "{refused:?}");
    }
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct ByteKeys {
    plain: BTreeMap<u8, u8>,
    #[schemars(extend("propertyNames" = key_names::<u8>()))]
    exact: BTreeMap<u8, u8>,
}

// Regression: `BTreeMap<u8, _>` accepted the key `"01"`.
#[test]
fn a_map_with_integer_keys_refuses_the_spellings_serde_refuses_in_every_dialect_that_has_maps() {
    let mut checked = Vec::new();
    for d in json_schema_dialects() {
        let Ok(schema) = SchemaOptions::new().dialect(d).schema_for::<ByteKeys>() else { continue };
        for field in ["plain", "exact"] {
            let with = |key: &str| {
                let mut value = json!({"plain": {}, "exact": {}});
                value[field][key] = json!(1);
                value
            };
            assert!(sends(&schema, &with("255")).is_some(), "{}", d.name());
            for key in ["01", "+1", "-0", "-1", "x"] {
                assert!(sends(&schema, &with(key)).is_none(), "{} {field} accepts {key:?}", d.name());
                assert!(serde_json::from_value::<ByteKeys>(with(key)).is_err());
            }
        }
        // The exact names refuse what the pass cannot know.
        assert!(sends(&schema, &json!({"plain": {}, "exact": {"256": 1}})).is_none(), "{}", d.name());
        checked.push(d.name());
    }
    assert_eq!(checked, JSON_SCHEMA_OUTPUT);
}

// ---------------------------------------------------------------------------------------------
// Internally tagged variants over flattened maps.

#[derive(Deserialize, serde::Serialize, JsonSchema, Debug, PartialEq)]
struct Extra {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<String, u8>,
}

#[derive(Deserialize, serde::Serialize, JsonSchema, Debug, PartialEq)]
#[serde(tag = "t")]
enum Tagged {
    V(Extra),
}

#[derive(Deserialize, serde::Serialize, JsonSchema, Debug, PartialEq)]
struct Holder {
    op: Tagged,
}

// Regression: serde writes `{"id": 1, "t": "V"}`, and the schema checked the tag
// against the map's values.
#[test]
fn serdes_own_output_of_a_tagged_variant_over_a_flattened_map_validates_in_every_dialect() {
    let value = Holder { op: Tagged::V(Extra { id: 1, rest: BTreeMap::from([("x".to_owned(), 2)]) }) };
    let json = serde_json::to_value(&value).unwrap();
    assert_eq!(json, json!({"op": {"t": "V", "id": 1, "x": 2}}));
    let mut checked = Vec::new();
    for d in json_schema_dialects() {
        let Ok(schema) = SchemaOptions::new().dialect(d).schema_for::<Holder>() else { continue };
        assert_eq!(
            sends(&schema, &json).as_ref(),
            Some(&json),
            "{} refuses {json}: {}",
            d.name(),
            schema.canonical_json()
        );
        // The map's values keep their type; the tag keeps its value.
        assert!(sends(&schema, &json!({"op": {"t": "V", "id": 1, "x": "two"}})).is_none(), "{}", d.name());
        assert!(sends(&schema, &json!({"op": {"t": "W", "id": 1}})).is_none(), "{}", d.name());
        checked.push(d.name());
    }
    assert_eq!(checked, JSON_SCHEMA_OUTPUT);
}

// ---------------------------------------------------------------------------------------------
// Every tool at once.

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Lookup {
    word: String,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Tally {
    counts: BTreeMap<String, u32>,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Opaque {
    blob: Value,
}

#[test]
fn check_builds_every_tool_and_lists_every_failure() {
    let schemas = SchemaOptions::new().check::<(Lookup, Tally)>().unwrap();
    assert_eq!(schemas.iter().map(only_property).collect::<Vec<_>>(), ["word", "counts"]);
    // Exact mode: a map has no form OpenAI takes without an encoding restore undoes.
    let strict = SchemaOptions::new().dialect(&toolschema::OPENAI_STRICT).exact(true);
    let err = strict.check::<(Lookup, Tally, Opaque)>().unwrap_err();
    let failed: Vec<&str> =
        err.failures().iter().map(|(name, _)| name.rsplit("::").next().unwrap()).collect();
    assert_eq!(failed, ["Tally", "Opaque"]);
    assert!(matches!(err.failures()[1].1, Error::Generation(_)), "{err}");
    let text = err.to_string();
    assert!(text.starts_with("2 of 3 tool schemas failed:\n- `"), "{text}");
    assert!(text.contains("Tally") && text.contains("additionalProperties"), "{text}");
    // A checked schema is cached: the later call is the same value.
    let again = SchemaOptions::new().schema_for::<Lookup>().unwrap();
    assert!(std::ptr::eq(again.as_value(), schemas[0].as_value()));
}

// ---------------------------------------------------------------------------------------------
// The boundary: values every schema below accepts and serde refuses, whatever the schema says.

/// Asserts that `text` reaches the code through exactly the `accepting` dialects among those that
/// build `T` (the provider's schema accepts it and restore maps it back without a fault), and that
/// serde refuses what they hand over.
fn boundary<T: JsonSchema + DeserializeOwned + 'static>(text: &str, accepting: &[&str]) {
    let value: Value = serde_json::from_str(text).unwrap();
    assert!(serde_json::from_str::<T>(text).is_err(), "serde reads {text}");
    let mut accepted = Vec::new();
    for d in dialect::builtin() {
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<T>() else { continue };
        if let Some(restored) = sends(&schema, &value) {
            assert!(
                serde_json::from_value::<T>(restored.clone()).is_err(),
                "{}: serde reads {restored}",
                d.name()
            );
            accepted.push(d.name());
        }
    }
    assert_eq!(accepted, accepting, "{text} as `{}`", std::any::type_name::<T>());
}

/// Open objects: the dialects that let undeclared keys through where the original does (a struct
/// without `deny_unknown_fields` reads and drops them). Gemini closes an object only through
/// `maxProperties`, where every property is required.
const OPEN: &[&str] =
    &["json-schema", "inline-refs", "gemini", "gemini-ordered", "mcp", "mcp-self-contained"];

/// The open-object dialects but Gemini: an object whose properties are all required, which
/// Gemini closes with `maxProperties`.
const OPEN_ALL_REQUIRED: &[&str] = &["json-schema", "inline-refs", "mcp", "mcp-self-contained"];

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Count {
    n: u32,
}

// Restore closes this gap in every dialect: `1.0` where an integer is declared comes back as `1`.
#[test]
fn an_integral_float_passes_as_an_integer_and_restore_turns_it_into_one() {
    let value = json!({"n": 1.0});
    assert!(serde_json::from_value::<Count>(value.clone()).is_err());
    for d in json_schema_dialects() {
        let schema = SchemaOptions::new().dialect(d).schema_for::<Count>().unwrap();
        assert!(validator(schema.as_value()).is_valid(&value), "{}", d.name());
        let restored = schema.restore(value.clone()).unwrap();
        assert!(restored["n"].is_u64(), "{}: {restored}", d.name());
        assert!(serde_json::from_value::<Count>(restored).is_ok(), "{}", d.name());
    }
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Aliased {
    #[serde(alias = "count")]
    n: u32,
}

#[test]
fn a_field_and_its_alias_together_pass_open_objects_and_serde_refuses_the_duplicate() {
    boundary::<Aliased>(r#"{"n": 1, "count": 2}"#, OPEN);
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Std {
    r: Result<u8, String>,
    d: std::time::Duration,
    g: std::ops::Range<u8>,
}

#[test]
fn extra_keys_inside_result_duration_and_range_pass_open_objects_and_serde_refuses_them() {
    let fine = r#"{"r": {"Ok": 1}, "d": {"secs": 1, "nanos": 0}, "g": {"start": 1, "end": 2}}"#;
    assert!(serde_json::from_str::<Std>(fine).is_ok());
    boundary::<Std>(
        r#"{"r": {"Ok": 1, "x": 1}, "d": {"secs": 1, "nanos": 0}, "g": {"start": 1, "end": 2}}"#,
        OPEN_ALL_REQUIRED,
    );
    boundary::<Std>(
        r#"{"r": {"Ok": 1}, "d": {"secs": 1, "nanos": 0, "x": 1}, "g": {"start": 1, "end": 2}}"#,
        OPEN_ALL_REQUIRED,
    );
    boundary::<Std>(
        r#"{"r": {"Ok": 1}, "d": {"secs": 1, "nanos": 0}, "g": {"start": 1, "end": 2, "x": 1}}"#,
        OPEN_ALL_REQUIRED,
    );
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Ping,
    Text(String),
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Pinged {
    m: Adjacent,
}

#[test]
fn an_adjacently_tagged_unit_variant_with_content_passes_open_objects_and_serde_refuses_it() {
    assert!(serde_json::from_str::<Pinged>(r#"{"m": {"t": "Ping", "c": null}}"#).is_ok());
    boundary::<Pinged>(r#"{"m": {"t": "Ping", "c": 5}}"#, OPEN);
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
enum External {
    A { x: u8 },
    B(u8),
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct FlatExternal {
    id: u8,
    #[serde(flatten)]
    e: External,
}

#[test]
fn a_flattened_external_enum_with_a_second_variant_key_passes_and_serde_reads_the_first() {
    // `oneOf` holds: only `B` matches. serde takes the first variant key it meets, `A`.
    boundary::<FlatExternal>(r#"{"id": 1, "A": 7, "B": 2}"#, OPEN_ALL_REQUIRED);
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Wider {
    huge: i128,
    vast: u128,
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Long {
    n: i64,
}

// An integer past the 64-bit range parses to a float (`-9223372036854775809` is the double
// -2^63, `2^64` and `2^127` are doubles too) that lies within the type's bounds: the schema
// accepts it and serde refuses a float. Restore refuses it, with its pointer, in every dialect.
#[test]
fn an_integer_past_the_64_bit_range_is_refused_by_restore_in_every_dialect() {
    let none: [&str; 0] = [];
    boundary::<Long>(r#"{"n": -9223372036854775809}"#, &none);
    boundary::<Wider>(r#"{"huge": 170141183460469231731687303715884105728, "vast": 0}"#, &none);
    boundary::<Wider>(r#"{"huge": 0, "vast": 340282366920938463463374607431768211456}"#, &none);
    for d in dialect::builtin() {
        let schema = SchemaOptions::new().dialect(*d).schema_for::<Long>().unwrap();
        let sent: Value = serde_json::from_str(r#"{"n": -9223372036854775809}"#).unwrap();
        let faults = schema.restore(sent).unwrap_err();
        assert_eq!(faults.faults()[0].pointer, "/n", "{}", d.name());
        // `2^64` for a `u128`: serde reads it from text, never from the float a `Value` holds.
        let wide = SchemaOptions::new().dialect(*d).schema_for::<Wider>().unwrap();
        let sent: Value = serde_json::from_str(r#"{"huge": 0, "vast": 18446744073709551616}"#).unwrap();
        assert!(serde_json::from_value::<Wider>(sent.clone()).is_err());
        assert_eq!(wide.restore(sent).unwrap_err().faults()[0].pointer, "/vast", "{}", d.name());
        // Within the range, an integer token is read as it is.
        let sent: Value = serde_json::from_str(r#"{"n": -9223372036854775808}"#).unwrap();
        assert_eq!(schema.decode::<Value>(sent.clone()).unwrap(), sent, "{}", d.name());
    }
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct UnnamedKeys {
    bytes: BTreeMap<u8, u8>,
    letters: BTreeMap<char, u8>,
    flags: BTreeMap<bool, u8>,
}

#[test]
fn keys_whose_type_schemars_does_not_write_pass_and_serde_refuses_them() {
    // Every dialect: a map is entries where the provider has no maps or ignores a key pattern
    // (`gemini-json-schema`), and the key's pattern is the same there.
    let maps = [
        "json-schema",
        "strict-subset",
        "inline-refs",
        "openai-strict",
        "openai-agents-mcp",
        "anthropic-strict",
        "gemini",
        "gemini-ordered",
        "gemini-json-schema",
        "llguidance",
        "outlines",
        "mcp",
        "mcp-self-contained",
    ];
    // Past the key type's range: every unsigned key gets one pattern.
    boundary::<UnnamedKeys>(r#"{"bytes": {"256": 1}, "letters": {}, "flags": {}}"#, &maps);
    // `char` and `bool` keys are written as `String` keys.
    boundary::<UnnamedKeys>(r#"{"bytes": {}, "letters": {"ab": 1}, "flags": {}}"#, &maps);
    boundary::<UnnamedKeys>(r#"{"bytes": {}, "letters": {}, "flags": {"yes": 1}}"#, &maps);
}

// ---------------------------------------------------------------------------------------------
// Restore that never changes meaning: what serde reads from `decode` is the value the model's
// arguments stand for, in every dialect.

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Pair(u8, u8);

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
enum Unit {
    On,
    Off,
}

/// The value `v` of `T` sent under every dialect that builds `T` (encoded in the provider's terms)
/// and read back with `decode`: the dialects it came back from, each asserted to give `v`.
fn decoded_everywhere<T>(v: &T) -> Vec<String>
where
    T: JsonSchema + DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug + 'static,
{
    let mut names = Vec::new();
    for d in dialect::builtin() {
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<T>() else { continue };
        let sent = schema.plan().encode(serde_json::to_value(v).unwrap());
        match schema.decode::<T>(sent.clone()) {
            Ok(back) => assert_eq!(&back, v, "{}: {sent}", d.name()),
            Err(e) => panic!("{}: {sent} is refused: {e}", d.name()),
        }
        names.push(d.name().to_owned());
    }
    names
}

// A root that is not an object is wrapped as `{"value": ...}` where the provider needs an object;
// the object check of `decode` ran on the restored (unwrapped) value and refused every call.
#[test]
fn decode_reads_a_type_whose_root_is_not_an_object_in_every_dialect() {
    let all: Vec<String> = dialect::builtin().iter().map(|d| d.name().to_owned()).collect();
    assert_eq!(decoded_everywhere(&Pair(1, 2)), all);
    assert_eq!(decoded_everywhere(&"text".to_owned()), all);
    assert_eq!(decoded_everywhere(&Unit::Off), all);
    assert_eq!(decoded_everywhere(&vec![1u8, 2]), all);
}

// `mcp` and `mcp-self-contained` wrap a root that is not an object; restore unwrapped it and did
// nothing below, so an integral float (`1.0`, which JSON Schema counts as an integer) reached
// serde, which refuses it.
#[test]
fn an_integral_float_below_a_wrapped_root_comes_back_as_an_integer_in_every_dialect() {
    let sent = json!({"value": [1.0, 2]});
    for d in dialect::builtin() {
        let schema = SchemaOptions::new().dialect(*d).schema_for::<Vec<u8>>().unwrap();
        // Where the root is not wrapped, the array itself.
        let args =
            if schema.as_value().get("properties").is_some() { sent.clone() } else { sent["value"].clone() };
        assert_eq!(schema.decode::<Vec<u8>>(args.clone()).unwrap(), [1, 2], "{}: {args}", d.name());
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum Num {
    Int(i64),
    Float(f64),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Measured {
    n: Num,
}

// `Float(1.0)` is sent as `1.0`; restore's integer fix made it `1`, and serde read `Int(1)`. An
// integral float stays a float where another branch takes non-integers, and an integer stays an
// integer.
#[test]
fn an_integral_float_stays_a_float_where_another_union_branch_takes_fractions() {
    let built = decoded_everywhere(&Measured { n: Num::Float(1.0) });
    assert_eq!(decoded_everywhere(&Measured { n: Num::Int(1) }), built);
    assert_eq!(decoded_everywhere(&Measured { n: Num::Float(2.5) }), built);
    // Anthropic has no bounds, so restore checks `Int`'s and takes the first branch whose checks
    // pass: every dialect builds it.
    let all: Vec<String> = dialect::builtin().iter().map(|d| d.name().to_owned()).collect();
    assert_eq!(built, all);
    // What a model sends, not only what serde writes: `1.0` as well as `1`.
    for d in dialect::builtin() {
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<Measured>() else { continue };
        let read = |v: Value| schema.decode::<Measured>(v).unwrap().n;
        assert_eq!(read(json!({"n": 1.0})), Num::Float(1.0), "{}", d.name());
        assert_eq!(read(json!({"n": 1})), Num::Int(1), "{}", d.name());
    }
}

/// Every dialect in both modes, with its label.
fn every_mode() -> Vec<(&'static dyn SchemaDialect, bool, String)> {
    let mut out = Vec::new();
    for &d in dialect::builtin() {
        for exact in [false, true] {
            out.push((d, exact, format!("{}{}", d.name(), if exact { " exact" } else { "" })));
        }
    }
    out
}

/// `value` with every integer written as a float (`1` as `1.0`), as a model may send it.
fn integers_as_floats(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_f64() => json!(n.as_f64().unwrap()),
        Value::Array(items) => Value::Array(items.iter().map(integers_as_floats).collect()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), integers_as_floats(v))).collect())
        }
        other => other.clone(),
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum EmbeddingInput {
    Texts(Vec<String>),
    Tokens(Vec<u32>),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Embedding {
    input: EmbeddingInput,
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum Weights {
    Named(BTreeMap<String, String>),
    Counts(BTreeMap<String, u32>),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Weighted {
    w: Weights,
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum Samples {
    Whole(Vec<u32>),
    Fractions(Vec<f64>),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Sampled {
    s: Samples,
}

/// Asserts that `value`, sent with its integers as floats in the provider's terms, is accepted by
/// every dialect and mode in `must_build` and restores to `want` (restore, then serde, and
/// decode), or is refused on restore with a fault; what each mode that builds `T` does, in order.
fn integral_floats_read_as<T>(value: &Value, want: &T, must_build: &[&str]) -> Vec<String>
where
    T: JsonSchema + DeserializeOwned + PartialEq + std::fmt::Debug + 'static,
{
    let mut built = Vec::new();
    for (d, exact, label) in every_mode() {
        let Ok(schema) = SchemaOptions::new().dialect(d).exact(exact).schema_for::<T>() else {
            assert!(!must_build.contains(&label.as_str()), "{label}: refused");
            continue;
        };
        built.push(label.clone());
        let sent = integers_as_floats(&schema.plan().encode(value.clone()));
        assert!(
            validator(&zoo::openapi_as_json_schema(schema.as_value())).is_valid(&sent),
            "{label}: the output refuses {sent}"
        );
        match schema.restore(sent.clone()) {
            Ok(restored) => {
                let read = serde_json::from_value::<T>(restored.clone());
                assert_eq!(
                    read.as_ref().ok(),
                    Some(want),
                    "{label}: {sent} restored to {restored}: {read:?}"
                );
                assert_eq!(
                    schema.decode::<T>(sent.clone()).ok().as_ref(),
                    Some(want),
                    "{label}: decode of {sent}"
                );
            }
            Err(e) => assert!(!e.faults().is_empty(), "{label}: {sent} refused without a fault: {e}"),
        }
    }
    built
}

// Regression: an integral float inside an untagged union of two arrays (async-openai's embedding
// input) or of two maps was kept as a float: both branches' shapes fit `[1.0]` at the top level,
// restore took the strings' branch, which needs nothing, and serde matched no variant. Restore now
// reads the branches' items and map values for it, in every dialect (`json-schema`'s integer-only
// plan too); where another branch takes fractions there, the float stays a float.
#[test]
fn an_integral_float_in_an_array_or_map_branch_of_an_untagged_union_is_read_as_serde_reads_it() {
    let reversible: Vec<String> = dialect::builtin().iter().map(|d| d.name().to_owned()).collect();
    let reversible: Vec<&str> = reversible.iter().map(String::as_str).collect();
    let tokens = Embedding { input: EmbeddingInput::Tokens(vec![1, 2]) };
    let built = integral_floats_read_as(&json!({"input": [1, 2]}), &tokens, &reversible);
    let texts = Embedding { input: EmbeddingInput::Texts(vec!["1".into()]) };
    assert_eq!(integral_floats_read_as(&json!({"input": ["1"]}), &texts, &reversible), built);
    // A map's values: where a dialect keeps the maps (or sends both as entries it can tell apart).
    // Not `outlines`: it moves the `u32` values' bounds into restore, so the two maps need
    // different checks that nothing in a map's shape tells apart, and the union is refused.
    let kept = [
        "json-schema",
        "strict-subset",
        "inline-refs",
        "gemini-json-schema",
        "llguidance",
        "mcp",
        "mcp-self-contained",
    ];
    let counts = Weighted { w: Weights::Counts(BTreeMap::from([("a".to_owned(), 1)])) };
    let built = integral_floats_read_as(&json!({"w": {"a": 1}}), &counts, &kept);
    let named = Weighted { w: Weights::Named(BTreeMap::from([("a".to_owned(), "1".to_owned())])) };
    assert_eq!(integral_floats_read_as(&json!({"w": {"a": "1"}}), &named, &kept), built);
    // Fractions beside: `[1.0, 2.0]` is serde's `Fractions`, `[1, 2]` its `Whole`.
    let fractions = Sampled { s: Samples::Fractions(vec![1.0, 2.0]) };
    let built = integral_floats_read_as(&json!({"s": [1, 2]}), &fractions, &reversible);
    for (d, exact, label) in every_mode() {
        let Ok(schema) = SchemaOptions::new().dialect(d).exact(exact).schema_for::<Sampled>() else {
            continue;
        };
        assert!(built.contains(&label));
        let whole = schema.decode::<Sampled>(schema.plan().encode(json!({"s": [1, 2]})));
        assert_eq!(whole.map(|s| s.s), Ok(Samples::Whole(vec![1, 2])), "{label}");
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum Limit {
    Unlimited,
    Spec { max: u32, burst: Option<u32> },
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Quota {
    limit: Option<Limit>,
}

// Regression: `Option<Limit>`, whose untagged `Limit` has a unit variant (written as `null`), was
// refused by openai-strict, openai-agents-mcp and anthropic-strict although `Limit` alone builds:
// the two branches overlap only on `null`, which both restore as it is. An overlap both branches
// restore alike does not make a union ambiguous.
#[test]
fn a_union_whose_branches_share_only_a_null_they_restore_alike_builds_in_every_dialect() {
    let values = [
        Quota { limit: None },
        Quota { limit: Some(Limit::Spec { max: 3, burst: None }) },
        Quota { limit: Some(Limit::Spec { max: 3, burst: Some(1) }) },
    ];
    for (d, exact, label) in every_mode() {
        let schema = match SchemaOptions::new().dialect(d).exact(exact).schema_for::<Quota>() {
            Ok(schema) => schema,
            // Exact mode refuses what the provider does not enforce (the integers' bounds under
            // anthropic-strict), never the union.
            Err(e) => {
                assert!(exact && !e.to_string().contains("`anyOf`"), "{label}: {e}");
                continue;
            }
        };
        for v in &values {
            let value = serde_json::to_value(v).unwrap();
            let restored =
                sends(&schema, &value).unwrap_or_else(|| panic!("{label}: {value} cannot be sent"));
            assert_eq!(&serde_json::from_value::<Quota>(restored).unwrap(), v, "{label}");
            let sent = schema.plan().encode(value);
            assert_eq!(&schema.decode::<Quota>(sent).unwrap(), v, "{label}");
        }
        // What `Some(Unlimited)` is written as, and what a model may send for absent.
        for sent in [json!({"limit": null}), json!({})] {
            match schema.decode::<Quota>(sent.clone()) {
                Ok(q) => assert_eq!(q, Quota { limit: None }, "{label}: {sent}"),
                Err(e) => assert!(
                    !validator(&zoo::openapi_as_json_schema(schema.as_value())).is_valid(&sent),
                    "{label}: {sent}: {e}"
                ),
            }
        }
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct KeyedCounts {
    m: BTreeMap<u32, u8>,
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum Loose {
    Y { y: Option<i64> },
    S(String),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(tag = "kind")]
enum TaggedOverLoose {
    A(Loose),
    B { x: i64 },
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct HoldsTagged {
    e: TaggedOverLoose,
}

// The integer fix reaches a map's values under `patternProperties` (an integer-keyed map), and a
// union branch that is a `$ref` with a tag beside it keeps the tag in its shape: it was read as
// the referenced union alone, so `{"kind": "B", ...}` went through variant `A`'s plan and `x`
// stayed `1.0`.
#[test]
fn the_integer_fix_reaches_pattern_property_values_and_tagged_reference_branches() {
    for d in dialect::builtin() {
        let schema = SchemaOptions::new().dialect(*d).schema_for::<KeyedCounts>().unwrap();
        let sent = schema.plan().encode(json!({"m": {"7": 1}}));
        let sent: Value = serde_json::from_str(&sent.to_string().replace(":1}", ":1.0}")).unwrap();
        let back = schema.decode::<KeyedCounts>(sent.clone());
        assert_eq!(back.unwrap().m[&7], 1, "{}: {sent}", d.name());
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<HoldsTagged>() else { continue };
        let sent = schema.plan().encode(json!({"e": {"kind": "B", "x": 1}}));
        let sent: Value = serde_json::from_str(&sent.to_string().replace(":1}", ":1.0}")).unwrap();
        let back = schema.decode::<HoldsTagged>(sent.clone()).map(|h| h.e);
        assert_eq!(back, Ok(TaggedOverLoose::B { x: 1 }), "{}: {sent}", d.name());
    }
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct Marker;

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(tag = "kind")]
enum OverUnit {
    U(Marker),
    V { x: u8 },
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct HoldsOverUnit {
    s: OverUnit,
}

#[test]
fn an_internally_tagged_variant_over_a_unit_struct_with_a_further_key_passes_open_objects_and_serde_refuses_it()
 {
    assert!(serde_json::from_str::<HoldsOverUnit>(r#"{"s": {"kind": "U"}}"#).is_ok());
    boundary::<HoldsOverUnit>(r#"{"s": {"kind": "U", "extra": 1}}"#, OPEN);
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct WritesMore {
    a: u8,
    #[serde(skip_deserializing)]
    b: u8,
}

// `#[serde(skip_deserializing)]`: serde writes the field, the schema (of what is read) does not
// declare it, and the dialects that close objects refuse serde's own output; serde ignores the
// key, so sending the value without it is exact. The open-object dialects take it as it is.
#[test]
fn a_skip_deserializing_field_is_refused_where_objects_are_closed_and_the_value_without_it_is_sent() {
    let written = serde_json::to_value(WritesMore { a: 1, b: 2 }).unwrap();
    let mut taken = Vec::new();
    for d in dialect::builtin() {
        let schema = SchemaOptions::new().dialect(*d).schema_for::<WritesMore>().unwrap();
        if sends(&schema, &written).is_some() {
            taken.push(d.name());
        }
        assert_eq!(sends(&schema, &json!({"a": 1})), Some(json!({"a": 1})), "{}", d.name());
    }
    assert_eq!(taken, OPEN);
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
#[serde(untagged)]
enum PairOrList {
    Pair(i32, i32),
    List(Vec<String>),
}

#[derive(Debug, PartialEq, Deserialize, serde::Serialize, JsonSchema)]
struct HoldsPairOrList {
    p: PairOrList,
}

// `RestorePlan::encode` took the first union branch whose encoding had the branch's outer shape:
// `List(["a", "b"])` went through the tuple's encoding, `{"0": "a", "1": "b"}`, an object like
// the tuple branch's, which the provider's schema refuses (its items are integers).
#[test]
fn encode_takes_the_union_branch_whose_schema_its_encoding_fits_below_the_top_level_too() {
    let values = [
        HoldsPairOrList { p: PairOrList::List(vec!["a".into(), "b".into()]) },
        HoldsPairOrList { p: PairOrList::Pair(1, 2) },
        HoldsPairOrList { p: PairOrList::List(vec![]) },
    ];
    let mut built = 0;
    for d in dialect::builtin() {
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<HoldsPairOrList>() else { continue };
        built += 1;
        for v in &values {
            let value = serde_json::to_value(v).unwrap();
            let restored =
                sends(&schema, &value).unwrap_or_else(|| panic!("{}: {value} cannot be sent", d.name()));
            assert_eq!(&serde_json::from_value::<HoldsPairOrList>(restored).unwrap(), v, "{}", d.name());
        }
    }
    assert!(built >= 5, "{built}");
}

// ---------------------------------------------------------------------------------------------
// Formats the code's reader enforces: draft 2020-12 leaves `format` an annotation and most
// providers drop it, so restore checks it, in every dialect and both modes.

/// schemars writes `format: "ip"` for `IpAddr`, which no provider knows.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Net {
    addr: std::net::IpAddr,
}

/// The standard address formats, which some providers enforce and the others drop.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Hosts {
    v4: std::net::Ipv4Addr,
    v6: Option<std::net::Ipv6Addr>,
}

/// A uuid as the uuid crate writes its schema: a string with `format: "uuid"`.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Ticket {
    #[schemars(extend("format" = "uuid"))]
    id: String,
}

/// A timestamp as chrono's `DateTime` writes its schema (`format: "date-time"`), and a date as
/// `NaiveDate` (`format: "date"`), in a list.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Event {
    #[schemars(extend("format" = "date-time"))]
    at: String,
    days: Vec<Day>,
}

/// A date as chrono's `NaiveDate` writes its schema, behind a reference.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[schemars(extend("format" = "date"))]
struct Day(String);

/// Under every dialect in both modes: `bad` at `field` of `T`'s arguments is refused by restore
/// (and so by decode, with restore's fault) with one fault naming the pointer and the format,
/// unless the provider keeps the format, and enforces it; each of `good` passes unchanged.
/// Returns the dialects that keep the format, once per mode.
fn format_is_checked<T: JsonSchema + DeserializeOwned + std::fmt::Debug + 'static>(
    base: Value,
    pointer: &str,
    format: &str,
    bad: &str,
    good: &[&str],
) -> Vec<&'static str> {
    let at = |v: &str| {
        let mut args = base.clone();
        *args.pointer_mut(pointer).unwrap() = json!(v);
        args
    };
    let refused = |schema: &toolschema::ToolSchema, name: &str| {
        let err = schema.restore(at(bad)).map(|v| panic!("{name}: restore passes {v}")).unwrap_err();
        assert_eq!(err.faults().len(), 1, "{name}: {err}");
        assert_eq!(err.faults()[0].pointer, pointer, "{name}: {err}");
        assert!(err.faults()[0].message.contains(&format!("`{format}`")), "{name}: {err}");
        match schema.decode::<T>(at(bad)) {
            Err(e @ toolschema::ArgumentsError::Invalid { .. }) => {
                assert_eq!(e.to_string(), err.to_string(), "{name}")
            }
            other => panic!("{name}: decode gave {other:?}"),
        }
    };
    let mut enforced = Vec::new();
    for exact in [false, true] {
        for d in dialect::builtin() {
            let schema = SchemaOptions::new()
                .dialect(*d)
                .exact(exact)
                .schema_for::<T>()
                .unwrap_or_else(|e| panic!("{} (exact: {exact}): {e}", d.name()));
            let name = format!("{} (exact: {exact})", d.name());
            let text = schema.as_value().to_string();
            if PROVIDERS.contains(&d.name()) && text.contains(&format!("\"format\":\"{format}\"")) {
                // The provider enforces the format it keeps, as every keyword it keeps.
                enforced.push(d.name());
            } else {
                // Where the provider's schema does not say the format, its description does.
                let stated = text.contains(&format!("\"format\":\"{format}\""))
                    || text.contains(&format!("`{format}`"));
                assert!(stated, "{name}: the format is not stated\n{text}");
                refused(&schema, &name);
            }
            for g in good {
                let v = at(g);
                assert_eq!(schema.restore(v.clone()).unwrap(), v, "{name}: {g}");
                assert_eq!(sends(&schema, &v).as_ref(), Some(&v), "{name}: {g}");
                schema.decode::<T>(v).unwrap_or_else(|e| panic!("{name}: {g}: {e}"));
            }
        }
    }
    enforced
}

/// Each dialect in `names` twice, once per mode: the dialects that keep a format.
fn twice<'a>(names: &[&'a str]) -> Vec<&'a str> {
    names.iter().chain(names).copied().collect()
}

const OPENAI_ANTHROPIC: &[&str] = &["openai-strict", "openai-agents-mcp", "anthropic-strict"];
/// llguidance enforces the formats it keeps, as OpenAI and Anthropic do.
const LLGUIDANCE: &[&str] = &["llguidance"];

#[test]
fn an_ip_address_that_serde_refuses_is_refused_by_restore_in_every_dialect() {
    assert!(serde_json::from_value::<Net>(json!({"addr": "ab"})).is_err());
    let none: Vec<&str> = Vec::new();
    let good = ["127.0.0.1", "::1", "2001:db8::8a2e:370:7334"];
    assert_eq!(format_is_checked::<Net>(json!({"addr": "1.1.1.1"}), "/addr", "ip", "ab", &good), none);
    let hosts = json!({"v4": "1.1.1.1", "v6": "::1"});
    assert!(serde_json::from_value::<Hosts>(json!({"v4": "01.2.3.4"})).is_err());
    let kept = format_is_checked::<Hosts>(hosts.clone(), "/v4", "ipv4", "01.2.3.4", &["10.0.0.1"]);
    assert_eq!(kept, twice(&[OPENAI_ANTHROPIC, LLGUIDANCE].concat()));
    let kept = format_is_checked::<Hosts>(hosts, "/v6", "ipv6", "1.2.3.4", &["::ffff:1.2.3.4"]);
    assert_eq!(kept, twice(&[OPENAI_ANTHROPIC, LLGUIDANCE].concat()));
}

#[test]
fn a_uuid_and_a_date_time_in_the_wrong_shape_are_refused_by_restore_in_every_dialect() {
    let good = ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"];
    let kept = format_is_checked::<Ticket>(json!({"id": ""}), "/id", "uuid", "not-a-uuid", &good);
    assert_eq!(kept, twice(&[OPENAI_ANTHROPIC, LLGUIDANCE].concat()));
    let good = ["2024-01-02T03:04:05Z", "1998-12-31T23:59:60Z", "2024-01-02t03:04:05.5+05:30"];
    let kept =
        format_is_checked::<Event>(json!({"at": "", "days": []}), "/at", "date-time", "yesterday", &good);
    let gemini = ["gemini", "gemini-ordered", "gemini-json-schema"];
    assert_eq!(kept, twice(&[OPENAI_ANTHROPIC, &gemini, LLGUIDANCE].concat()));
    let event = json!({"at": "2024-01-02T03:04:05Z", "days": ["2024-01-01", ""]});
    let kept = format_is_checked::<Event>(event, "/days/1", "date", "2023-02-29", &["2024-02-29"]);
    assert_eq!(kept, twice(&[OPENAI_ANTHROPIC, &["gemini-json-schema"], LLGUIDANCE].concat()));
}

#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Sock {
    to: std::net::SocketAddr,
}

// schemars writes `{"type": "string"}` for `SocketAddr` (and its V4 and V6 forms), no format:
// nothing tells restore the string's shape, so any string reaches serde, which refuses it.
#[test]
fn a_socket_address_has_no_format_and_any_string_reaches_serde() {
    let all: Vec<&str> = dialect::builtin().iter().map(|d| d.name()).collect();
    boundary::<Sock>(r#"{"to": "ab"}"#, &all);
    assert_eq!(schema_for::<Sock>().unwrap().as_value()["properties"]["to"], json!({"type": "string"}));
}
