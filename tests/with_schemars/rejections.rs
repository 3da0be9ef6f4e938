#![allow(clippy::pedantic)]
//! The rejection table: every `SchemaGenerationError` the pipeline raises, with its pointer and
//! Rust field path, as data in `fixtures/rejections.json`.
//!
//! Each case names its input (`rust`: a type defined below, `schema`: raw JSON through
//! `SchemaOptions::normalize`, or `nested`: `levels` nestings of one keyword around
//! `{"type": "string"}`), its `options` (`exclude`, `max_bytes`, `max_depth`), and what it
//! expects: `"ok"`, or an `error` object with the variant name, `pointer`, `field` (`null` when
//! none), `position` for `UntypedAny`, and snippets the message must contain.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use toolschema::{Error, SchemaGenerationError, SchemaOptions, ToolSchema};

#[allow(dead_code)]
mod types {
    use super::*;

    /// A stop whose payload is untyped.
    #[derive(Deserialize, JsonSchema)]
    pub struct Stop {
        pub city: String,
        pub extra: Value,
    }

    /// A trip whose stops carry an untyped required field.
    #[derive(Deserialize, JsonSchema)]
    pub struct Itinerary {
        pub traveller: String,
        pub stops: Vec<Stop>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct AnyItems {
        pub items: Vec<Value>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct AnyInTuple {
        pub pair: (String, Value),
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct AnyMapValues {
        pub meta: HashMap<String, Value>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct OptionalAnyMap {
        pub meta: Option<BTreeMap<String, Value>>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum AnyUnion {
        Text(String),
        Other(Value),
    }

    #[derive(Deserialize, JsonSchema)]
    pub enum AnyVariant {
        Known(u32),
        Other(Value),
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct Deep {
        pub a: Vec<Level1>,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Level1 {
        pub b: Option<BTreeMap<String, Level2>>,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Level2 {
        pub c: (u8, Vec<Level3>),
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Level3 {
        pub d: Value,
    }

    /// A call whose context the caller injects.
    #[derive(Deserialize, JsonSchema)]
    pub struct Call {
        pub query: String,
        pub ctx: Value,
        pub opaque: Option<Value>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "t")]
    pub enum Op {
        Scale { factor: i32 },
        Rename { to: String },
    }

    /// `#[serde(flatten)] Option<Op>`: schemars writes `anyOf: [{oneOf: ..}, {}]` beside the
    /// struct's own keywords.
    #[derive(Deserialize, JsonSchema)]
    pub struct FlattenedOptionalEnum {
        pub id: u32,
        #[serde(flatten)]
        pub op: Option<Op>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct UntypedCollections {
        pub items: Vec<Option<Value>>,
        pub meta: HashMap<String, Option<Value>>,
        #[serde(flatten)]
        pub rest: BTreeMap<String, Value>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct AnyUnionItems {
        pub settings: Vec<AnyUnion>,
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct WithT {
        pub t: String,
        #[serde(flatten)]
        pub rest: BTreeMap<String, u8>,
    }

    /// Serde takes the tag `t` out before it reads `WithT`, which then has no `t`.
    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "t")]
    pub enum TagClash {
        V(WithT),
    }

    #[derive(Deserialize, JsonSchema)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }
}

fn rust(name: &str, options: &SchemaOptions) -> Result<ToolSchema, Error> {
    use types::*;
    match name {
        "Value" => options.schema_for::<Value>(),
        "Itinerary" => options.schema_for::<Itinerary>(),
        "AnyItems" => options.schema_for::<AnyItems>(),
        "AnyInTuple" => options.schema_for::<AnyInTuple>(),
        "AnyMapValues" => options.schema_for::<AnyMapValues>(),
        "OptionalAnyMap" => options.schema_for::<OptionalAnyMap>(),
        "AnyUnion" => options.schema_for::<AnyUnion>(),
        "AnyVariant" => options.schema_for::<AnyVariant>(),
        "Deep" => options.schema_for::<Deep>(),
        "Call" => options.schema_for::<Call>(),
        "Point" => options.schema_for::<Point>(),
        "FlattenedOptionalEnum" => options.schema_for::<FlattenedOptionalEnum>(),
        "UntypedCollections" => options.schema_for::<UntypedCollections>(),
        "AnyUnionItems" => options.schema_for::<AnyUnionItems>(),
        "TagClash" => options.schema_for::<TagClash>(),
        "String" => options.schema_for::<String>(),
        other => panic!("rejections.json names unknown Rust type `{other}`: add it to `rust()`"),
    }
}

fn options(case: &Value) -> SchemaOptions {
    let mut o = SchemaOptions::new();
    let Some(spec) = case.get("options") else { return o };
    if let Some(names) = spec.get("exclude").and_then(Value::as_array) {
        o = o.exclude(names.iter().map(|n| n.as_str().expect("exclude names are strings").to_owned()));
    }
    if let Some(n) = spec.get("max_bytes").and_then(Value::as_u64) {
        o = o.max_bytes(usize::try_from(n).expect("fits"));
    }
    if let Some(n) = spec.get("max_depth").and_then(Value::as_u64) {
        o = o.max_depth(usize::try_from(n).expect("fits"));
    }
    o
}

fn nested(spec: &Value) -> Value {
    let keyword = spec["keyword"].as_str().expect("nested.keyword");
    let levels = spec["levels"].as_u64().expect("nested.levels");
    let mut v = json!({"type": "string"});
    for _ in 0..levels {
        v = match keyword {
            "items" => json!({"type": "array", "items": v}),
            "properties" => json!({"type": "object", "properties": {"a": v}, "required": ["a"]}),
            "anyOf" => json!({"anyOf": [v, {"type": "null"}]}),
            other => panic!("unknown nesting keyword {other}"),
        };
    }
    v
}

fn run(case: &Value) -> Result<ToolSchema, Error> {
    let o = options(case);
    if let Some(name) = case.get("rust").and_then(Value::as_str) {
        rust(name, &o)
    } else if let Some(schema) = case.get("schema") {
        o.normalize(schema.clone())
    } else if let Some(spec) = case.get("nested") {
        o.normalize(nested(spec))
    } else {
        panic!("case has no input: {case}")
    }
}

fn variant(e: &SchemaGenerationError) -> &'static str {
    match e {
        SchemaGenerationError::UntypedAny { .. } => "UntypedAny",
        SchemaGenerationError::UnknownExclude { .. } => "UnknownExclude",
        SchemaGenerationError::ExcludeOnNonObject { .. } => "ExcludeOnNonObject",
        SchemaGenerationError::TooLarge { .. } => "TooLarge",
        SchemaGenerationError::TooDeep { .. } => "TooDeep",
        SchemaGenerationError::Malformed { .. } => "Malformed",
        SchemaGenerationError::Unrepresentable { .. } => "Unrepresentable",
        SchemaGenerationError::Schemars { .. } => "Schemars",
        _ => "unknown",
    }
}

/// The error as the table spells it: `{error, pointer, field, position?}`.
fn describe(e: &SchemaGenerationError) -> Value {
    let mut d = json!({"error": variant(e), "pointer": e.pointer(), "field": e.field()});
    match e {
        SchemaGenerationError::UntypedAny { position, .. } => d["position"] = json!(position),
        SchemaGenerationError::TooLarge { actual, max } => {
            d["actual"] = json!(actual);
            d["max"] = json!(max);
        }
        SchemaGenerationError::TooDeep { max_depth, .. } => d["max_depth"] = json!(max_depth),
        _ => {}
    }
    d
}

fn table() -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rejections.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("rejections.json is a JSON array of cases")
}

#[test]
fn every_case_in_the_rejection_table_fails_or_passes_as_written() {
    let mut failures = Vec::new();
    for case in table() {
        let name = case["name"].as_str().expect("every case has a name");
        let expect = &case["expect"];
        let got = run(&case);
        match (expect, got) {
            (Value::String(ok), Ok(_)) if ok == "ok" => {}
            (Value::Object(want), Err(Error::Generation(e))) => {
                let mut got = describe(&e);
                let message = e.to_string();
                for snippet in want.get("message_contains").and_then(Value::as_array).into_iter().flatten() {
                    let snippet = snippet.as_str().expect("snippets are strings");
                    if !message.contains(snippet) {
                        failures.push(format!("{name}: message lacks `{snippet}`: {message}"));
                    }
                }
                let mut want = Value::Object(want.clone());
                want.as_object_mut().map(|w| w.remove("message_contains"));
                // Compare only what the table states.
                if let (Value::Object(g), Value::Object(w)) = (&mut got, &want) {
                    g.retain(|k, _| w.contains_key(k));
                }
                if got != want {
                    failures.push(format!("{name}:\n  want {want}\n  got  {got}"));
                }
            }
            (want, got) => failures
                .push(format!("{name}: want {want}, got {:?}", got.map(|s| s.canonical_json().to_owned()))),
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_table_covers_every_error_variant_the_pipeline_raises() {
    let mut seen: Vec<String> = table()
        .iter()
        .filter_map(|c| c["expect"].get("error").and_then(Value::as_str).map(str::to_owned))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    // `Schemars` is not here: schemars' `Schema` always converts to JSON, so no input reaches it.
    assert_eq!(
        seen,
        [
            "ExcludeOnNonObject",
            "Malformed",
            "TooDeep",
            "TooLarge",
            "UnknownExclude",
            "Unrepresentable",
            "UntypedAny"
        ]
    );
}

#[test]
fn every_untyped_position_the_pass_knows_is_in_the_table() {
    let mut positions: Vec<String> = table()
        .iter()
        .filter_map(|c| c["expect"].get("position").and_then(Value::as_str).map(str::to_owned))
        .collect();
    positions.sort();
    positions.dedup();
    assert_eq!(
        positions,
        ["a required property", "a tuple element", "a union member", "array items", "map values", "the root"]
    );
}
