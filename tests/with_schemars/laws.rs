#![allow(clippy::pedantic)]
//! Soundness laws across every built-in dialect, as property tests: idempotence, key-order
//! invariance of the hash, inlining equivalence, and no panic on arbitrary schema-shaped JSON.
//!
//! The per-type soundness and tightness laws (zoo values validate; accepted mutants deserialise)
//! live in `props.rs` (default dialect) and `dialects.rs` (every dialect); this file
//! adds the laws that hold for any schema, checked on the zoo and on generated schema-like JSON.
//!
//! Case counts are modest by default; `PROPTEST_CASES=2000 cargo test --test with_schemars laws::`
//! runs more.

use crate::prop_run;
use crate::tool_schemas;
use crate::zoo;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use toolschema::{SchemaOptions, dialect};

/// Runs a strategy through `law` ([`prop_run::check`]: seed, persistence, `PROPTEST_CASES`).
fn check<S: Strategy>(cases: u32, strategy: S, law: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    prop_run::check(file!(), cases, strategy, law);
}

/// Rebuilds every object with its entries in an order decided by `salt` (a real reordering when
/// serde_json's `preserve_order` is on, as under `--all-features`).
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

/// The pipeline as for a Rust type's schema (`from_schemars`: the passes that write what serde
/// reads run), on any value schemars' `Schema` holds (an object or a boolean).
fn as_rust(
    options: &SchemaOptions,
    schema: &Value,
) -> Option<Result<toolschema::ToolSchema, toolschema::Error>> {
    let schema = schemars::Schema::try_from(schema.clone()).ok()?;
    Some(options.from_schemars(schema))
}

/// Definition names a generated schema refers to, some needing pointer escapes.
const DEF_NAMES: [&str; 4] = ["A", "B", "a/b", "~t"];

/// A `$ref` to one of [`DEF_NAMES`] (escaped), or a malformed, external or dangling one.
fn arb_ref() -> impl Strategy<Value = Value> {
    prop_oneof![
        // Mostly well-formed: a schema with a dangling or external reference is refused at once
        // (check-refs, well-formed), and a law over refused schemas proves little.
        24 => (0..DEF_NAMES.len()).prop_map(|i| json!(format!("#/$defs/{}", toolschema::pointer::escape_token(DEF_NAMES[i])))),
        1 => Just(json!("#")),
        1 => Just(json!("#/$defs/Missing")),
        1 => Just(json!("#/properties/a")),
        1 => Just(json!("other.json#/x")),
        1 => Just(json!("#/$defs/a~2")),
        1 => Just(json!(7)),
    ]
}

/// A leaf schema: typed scalars, untyped, annotations, enum/const, references, malformed values.
fn arb_leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => prop_oneof![Just("string"), Just("integer"), Just("number"), Just("boolean"), Just("null")]
            .prop_map(|t| json!({"type": t})),
        1 => Just(json!({"type": ["string", "null"]})),
        1 => Just(json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615_u64})),
        1 => Just(json!({"type": "string", "format": "date-time", "minLength": 1, "pattern": "^a"})),
        1 => Just(json!({"enum": ["a", 1, null]})),
        1 => Just(json!({"const": "k", "description": "Fixed."})),
        1 => Just(json!({})),
        1 => Just(json!(true)),
        1 => Just(json!(false)),
        1 => Just(json!({"description": "Anything.", "title": "T"})),
        3 => arb_ref().prop_map(|r| json!({"$ref": r})),
        1 => arb_ref().prop_map(|r| json!({"$ref": r, "description": "Sibling."})),
        1 => Just(json!({"type": 5, "items": "x", "required": "name", "properties": []})),
        1 => Just(json!({"nullable": true, "type": "string"})),
        1 => prop_oneof![Just("uint32"), Just("int16"), Just("int128"), Just("uint"), Just("float")]
            .prop_map(|f| json!({"type": ["integer", "null"], "format": f})),
        // schemars' spelling of an internally tagged newtype variant.
        1 => arb_ref().prop_map(|r| json!({"$ref": r, "type": "object", "required": ["t"],
                                           "properties": {"t": {"type": "string", "const": "V"}}})),
    ]
    .boxed()
}

/// Schema-shaped JSON: objects with properties and `required` (sometimes naming absent or
/// duplicate properties), arrays and tuples, maps, unions, combinators, `$defs` at the root that
/// refer to each other (cycles included), documented blocks, draft-7 spellings.
fn arb_schema_like() -> BoxedStrategy<Value> {
    let body = arb_leaf().prop_recursive(4, 48, 4, |inner| {
        let object = (btree_map("[a-d]|title|startDate", inner.clone(), 0..4), vec("[a-e]", 0..3), any::<u8>())
            .prop_map(|(props, required, flags)| {
                let mut s = json!({"type": "object", "properties": props, "required": required});
                if flags & 1 != 0 {
                    s["additionalProperties"] = json!(false);
                }
                if flags & 2 != 0 {
                    s["description"] = json!("An object.\n\nArgs:\n    a: The a.\n    b: The b.\n");
                }
                if flags & 4 != 0 {
                    s["title"] = json!("Obj");
                }
                s
            });
        prop_oneof![
            4 => object,
            2 => inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"type": "array", "prefixItems": m, "items": false})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"type": "array", "items": m})),
            1 => inner.clone().prop_map(|v| json!({"type": "object", "additionalProperties": v})),
            1 => inner.clone().prop_map(|v| json!({"type": "object", "additionalProperties": false, "patternProperties": {"^-?\\d+$": v}})),
            2 => vec(inner.clone(), 1..4).prop_map(|m| json!({"anyOf": m})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"oneOf": m})),
            1 => vec(inner.clone(), 1..3).prop_map(|m| json!({"allOf": m})),
            1 => inner.clone().prop_map(|v| json!({"not": v})),
            1 => (inner.clone(), inner).prop_map(|(a, b)| json!({"if": a, "then": b})),
        ]
    });
    (body.clone(), vec(body, DEF_NAMES.len()), any::<u8>())
        .prop_map(|(root, defs, flags)| {
            let mut root = match root {
                Value::Object(map) => Value::Object(map),
                other => json!({"type": "object", "properties": {"v": other}, "required": ["v"]}),
            };
            let defs: Map<String, Value> = DEF_NAMES.iter().map(|n| (*n).to_owned()).zip(defs).collect();
            let key = if flags & 1 == 0 { "$defs" } else { "definitions" };
            // Definitions left out (every reference to them dangling) one time in eight.
            if flags & 14 != 14 {
                root[key] = Value::Object(defs);
            }
            if key == "definitions" {
                // Draft-7 spelling: references follow the map's name.
                let text =
                    serde_json::to_string(&root).unwrap_or_default().replace("#/$defs/", "#/definitions/");
                root = serde_json::from_str(&text).unwrap_or(root);
            }
            root
        })
        .boxed()
}

// ---------------------------------------------------------------------------------------------

// Law: for every dialect, normalising an accepted output again under the same dialect gives the
// same value, bytes and hash (every zoo type).
#[test]
fn every_dialect_is_idempotent_on_every_zoo_type() {
    for &d in dialect::builtin() {
        let options = SchemaOptions::new().dialect(d);
        for entry in zoo::ZOO {
            let Ok(once) = (entry.schema)(&options) else { continue };
            let twice = options
                .normalize(once.as_value().clone())
                .unwrap_or_else(|e| panic!("{} / {}: second run refused: {e}", d.name(), entry.name));
            pretty_assertions::assert_eq!(once.as_value(), twice.as_value(), "{} / {}", d.name(), entry.name);
            assert_eq!(once.hash(), twice.hash(), "{} / {}", d.name(), entry.name);
        }
    }
}

// Law: for every dialect, normalising an accepted output again is the identity, on generated
// schema-like JSON and on generated tool schemas (`tests/tool_schemas`, whose schemas the provider
// dialects mostly accept, so the law is reached under every dialect).
#[test]
fn every_dialect_is_idempotent_on_generated_schemas() {
    let reach = prop_run::Reach::new();
    // Two tool schemas to one schema-like value: the provider dialects refuse most schema-like
    // values, and at even odds the share that reaches the law under openai-strict (about 40%)
    // fell to its floor in 1 of 200 runs.
    let schemas =
        prop_oneof![1 => arb_schema_like(), 2 => tool_schemas::arb_tool_schema().prop_map(|(_, s)| s)];
    check(96, schemas, |schema| {
        for &d in dialect::builtin() {
            let options = SchemaOptions::new().dialect(d);
            let Ok(once) = options.normalize(schema.clone()) else {
                reach.count(d.name(), false);
                continue;
            };
            reach.count(d.name(), true);
            let twice = options.normalize(once.as_value().clone()).map_err(|e| {
                TestCaseError::fail(format!("{}: second run refused: {e}\n{}", d.name(), once.as_value()))
            })?;
            prop_assert_eq!(once.as_value(), twice.as_value(), "{}", d.name());
            prop_assert_eq!(once.hash(), twice.hash(), "{}", d.name());
            // And as a Rust type's schema, with the passes that write what serde reads.
            if let Some(Ok(once)) = as_rust(&options, &schema) {
                let twice =
                    as_rust(&options, once.as_value()).into_iter().flatten().next().ok_or_else(|| {
                        TestCaseError::fail(format!(
                            "{} (as Rust): second run refused\n{}",
                            d.name(),
                            once.as_value()
                        ))
                    })?;
                prop_assert_eq!(once.as_value(), twice.as_value(), "{} (as Rust)", d.name());
            }
        }
        Ok(())
    });
    // A law over schemas that are all refused proves nothing: under every dialect, a share of the
    // generated schemas must be accepted.
    let names: Vec<&str> = dialect::builtin().iter().map(|d| d.name()).collect();
    reach.finish("idempotence", &names, IDEMPOTENCE_FLOOR);
}

/// The share of generated schemas each dialect must accept for the idempotence law to count.
const IDEMPOTENCE_FLOOR: f64 = 0.25;

// Regression (the idempotence law on generated tool schemas): `Item`, a union with an untyped
// member, is named only from the items of `Pair`'s second tuple member, and the root refers only
// into `Pair`'s first, so neither is entered from the root. The reject-any check judged such
// definitions in the map's order, `Item` where it stands (as a place that must hold a value) when
// it came first. Removing `A`, PruneDefs moved `Pair` first under `preserve_order`: the first run
// accepted, and the second, on sorted maps, refused `/$defs/Item/anyOf/0` (the sorted build
// refused in the first run). Every dialect that accepts the schema gives its output back again.
#[test]
fn pruning_definitions_leaves_the_reject_any_verdict_on_the_others_unchanged() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Pair/prefixItems/0"}},
        "$defs": {
            "A": {"type": "string"},
            "Item": {"anyOf": [{}, {"type": "string"}]},
            "Pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Item"}}]}
        }
    });
    for &d in dialect::builtin() {
        let options = SchemaOptions::new().dialect(d);
        let once = match options.normalize(schema.clone()) {
            Ok(once) => once,
            Err(e) if d.name() == "json-schema" => panic!("json-schema refused: {e}"),
            Err(_) => continue,
        };
        let twice = options
            .normalize(once.as_value().clone())
            .unwrap_or_else(|e| panic!("{}: second run refused: {e}\n{}", d.name(), once.as_value()));
        assert_eq!(once.as_value(), twice.as_value(), "{}", d.name());
    }
}

/// The dialects whose engine merges `allOf` and writes every schema in the provider's terms.
const PROVIDERS: &[&str] = &[
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini",
    "gemini-ordered",
    "gemini-json-schema",
];

// Regression (the idempotence law on generated tool schemas): an `enum` beside a `type` (here
// merged from `allOf`) listed values that type refuses. Gemini wrote `["a", "1", "null"]` as text
// with the integer bounds beside a string type, and dropped the bounds on the second run;
// gemini-json-schema wrote `{"type": "null", "enum": ["a", 1]}`, which admits nothing, and refused
// it on the second run. Only the values the type and its numeric bounds admit are listed.
#[test]
fn an_enum_lists_only_the_values_its_type_and_bounds_admit_in_every_run() {
    let integer = json!({"type": "object", "properties": {"a": {"allOf": [
        {"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64}, {"enum": ["a", 1, null]}
    ]}}, "required": []});
    let null = json!({"type": "object", "properties": {"a": {"allOf": [{"type": "null"}, {"enum": ["a", 1, null]}]}}, "required": ["a"]});
    for (schema, admitted) in [(integer, json!(1)), (null, json!(null))] {
        let mut accepted = 0;
        for &d in dialect::builtin() {
            let options = SchemaOptions::new().dialect(d);
            let Ok(once) = options.normalize(schema.clone()) else { continue };
            accepted += 1;
            let twice = options
                .normalize(once.as_value().clone())
                .unwrap_or_else(|e| panic!("{}: second run refused: {e}\n{}", d.name(), once.as_value()));
            assert_eq!(once.as_value(), twice.as_value(), "{}", d.name());
            // The provider dialects (which merge `allOf`): the admitted value goes through, and no
            // `enum` of the output lists the string `a`, nor its text.
            if !PROVIDERS.contains(&d.name()) {
                continue;
            }
            let value = json!({"a": admitted});
            assert_eq!(once.restore(once.plan().encode(value.clone())).map_err(|e| e.to_string()), Ok(value));
            let mut stack = vec![once.as_value()];
            while let Some(node) = stack.pop() {
                if let Some(values) = node.get("enum").and_then(Value::as_array) {
                    assert!(
                        !values.iter().any(|v| v == "a" || v == "\"a\""),
                        "{}: {}",
                        d.name(),
                        once.as_value()
                    );
                }
                match node {
                    Value::Object(m) => stack.extend(m.values()),
                    Value::Array(xs) => stack.extend(xs),
                    _ => {}
                }
            }
        }
        assert!(accepted >= 8, "{accepted}");
    }
}

// Regression (read from the engine): an integer `enum` written as text (Gemini lists only
// strings) kept the `format` beside it, which then named a format of the text (`int32` or
// `date-time` on `"1"`). Written as text, the listed values say all: no numeric bound and no
// `format` stands beside them, and every listed value goes through.
#[test]
fn an_enum_written_as_text_keeps_no_keyword_that_would_judge_the_text() {
    for format in ["int32", "date-time"] {
        let schema = json!({"type": "object", "required": ["a"], "properties": {"a": {
            "type": "integer", "enum": [1, 2], "format": format, "minimum": 0}}});
        let mut as_text = 0;
        for &d in dialect::builtin() {
            let Ok(once) = SchemaOptions::new().dialect(d).normalize(schema.clone()) else { continue };
            let a = &once.as_value()["properties"]["a"];
            if a["type"] == "string" {
                as_text += 1;
                for kw in ["format", "minimum"] {
                    assert!(a.get(kw).is_none(), "{}: {a}", d.name());
                }
            }
            for value in [json!({"a": 1}), json!({"a": 2})] {
                assert_eq!(
                    once.restore(once.plan().encode(value.clone())).map_err(|e| e.to_string()),
                    Ok(value)
                );
            }
        }
        assert!(as_text >= 2, "gemini and gemini-ordered write the enum as text");
    }
}

/// A dialect that changes nothing and keeps every keyword: the passes' output as it is (the
/// built-in JSON Schema dialects leave out keywords draft 2020-12 does not define after them).
struct PassesOnly;
impl toolschema::SchemaDialect for PassesOnly {
    fn name(&self) -> &str {
        "passes-only"
    }
    fn adapts(&self) -> bool {
        false
    }
}
static PASSES_ONLY: PassesOnly = PassesOnly;

// Law: the pipeline (node passes sharing one walk, PruneDefs left to RejectAny) gives what running
// each pass of `PASSES` on its own, in order, gives: the same schema, or the same error.
#[test]
fn the_pipeline_equals_its_passes_run_one_by_one() {
    use toolschema::pipeline::{PASSES, PassContext};
    let options = SchemaOptions::new().dialect(&PASSES_ONLY);
    check(512, arb_schema_like(), |schema| {
        let one_by_one = {
            let mut s = schema.clone();
            let mut cx = PassContext::new(None);
            PASSES
                .iter()
                .try_for_each(|pass| pass.run(&mut s, &mut cx))
                .map(|()| s)
                .map_err(|e| e.to_string())
        };
        let pipeline =
            options.normalize(schema.clone()).map(|t| t.as_value().clone()).map_err(|e| e.to_string());
        prop_assert_eq!(pipeline, one_by_one);
        // As a Rust type's schema (`from_schemars` takes the root `title` as the type's name).
        let title = schema.get("title").and_then(Value::as_str).map(str::to_owned);
        let one_by_one = {
            let mut s = schema.clone();
            let mut cx = PassContext::new(title.as_deref());
            cx.from_rust = true;
            PASSES
                .iter()
                .try_for_each(|pass| pass.run(&mut s, &mut cx))
                .map(|()| s)
                .map_err(|e| e.to_string())
        };
        if let Some(pipeline) = as_rust(&options, &schema) {
            let pipeline = pipeline.map(|t| t.as_value().clone()).map_err(|e| e.to_string());
            prop_assert_eq!(pipeline, one_by_one, "as a Rust type's schema");
        }
        Ok(())
    });
}

// Law: for every dialect, the result (schema and hash, or the error) does not depend on the order
// of keys in the input, on every zoo type's schemars output and on generated schema-like JSON.
#[test]
fn every_dialect_ignores_input_key_order() {
    let zoo_inputs: Vec<Value> = zoo::ZOO.iter().map(|e| (e.schemars)().to_value()).collect();
    let same = |input: &Value, salt: u64| -> Result<(), TestCaseError> {
        for &d in dialect::builtin() {
            let options = SchemaOptions::new().dialect(d);
            for (a, b) in [
                (Some(options.normalize(input.clone())), Some(options.normalize(shuffled(input, salt)))),
                (as_rust(&options, input), as_rust(&options, &shuffled(input, salt))),
            ] {
                let (Some(a), Some(b)) = (a, b) else { continue };
                match (&a, &b) {
                    (Ok(a), Ok(b)) => {
                        prop_assert_eq!(a.as_value(), b.as_value(), "{}", d.name());
                        prop_assert_eq!(a.hash(), b.hash(), "{}", d.name());
                    }
                    (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string(), "{}", d.name()),
                    _ => return Err(TestCaseError::fail(format!("{}: {a:?} vs {b:?}", d.name()))),
                }
            }
        }
        Ok(())
    };
    check(8, any::<u64>(), |salt| zoo_inputs.iter().try_for_each(|input| same(input, salt)));
    check(96, (arb_schema_like(), any::<u64>()), |(schema, salt)| same(&schema, salt));
}

// Regression (found by the `dialect_adapt` fuzz law on its first seeds): with serde_json's
// `preserve_order`, the first error a walk reported followed the input's key order. Two untyped
// required properties, inserted as `b` then `a`, must report `a` (key order), as the sorted build does.
#[test]
fn the_first_error_follows_key_order_not_insertion_order() {
    let text_ba = r#"{"type":"object","properties":{"b":{},"a":{}},"required":["b","a"]}"#;
    let text_ab = r#"{"type":"object","properties":{"a":{},"b":{}},"required":["a","b"]}"#;
    let errors: Vec<String> = [text_ba, text_ab]
        .iter()
        .map(|text| {
            let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
            match SchemaOptions::new().normalize(value) {
                Err(toolschema::Error::Generation(e)) => e.pointer().unwrap_or_default().to_owned(),
                other => panic!("expected an untyped-property error, got {other:?}"),
            }
        })
        .collect();
    assert_eq!(errors, ["/properties/a", "/properties/a"]);
    // Past the depth budget: the position reported is the first in key order too.
    let deep = r#"{"type":"object","properties":{"z":{"type":"array","items":{"type":"string"}},"y":{"type":"array","items":{"type":"string"}}},"required":["z","y"]}"#;
    let value: Value = serde_json::from_str(deep).unwrap_or_else(|e| panic!("{e}"));
    let err = SchemaOptions::new().max_depth(1).normalize(value).expect_err("past the budget");
    assert!(err.to_string().contains("/properties/y/items"), "{err}");
}

fn contains_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(items) => items.iter().any(contains_null),
        Value::Object(m) => m.values().any(contains_null),
        _ => false,
    }
}

/// Whether following `$ref`s from `schema` can come back to a schema already on the way (a
/// recursive type).
fn is_recursive(root: &Value) -> bool {
    fn go<'v>(node: &'v Value, root: &'v Value, on_way: &mut Vec<*const Value>, depth: usize) -> bool {
        if depth > 64 {
            return true;
        }
        if let Some(target) =
            node.get("$ref").and_then(Value::as_str).and_then(|r| toolschema::refs::resolve(root, r))
        {
            if on_way.contains(&(target as *const Value)) {
                return true;
            }
            on_way.push(target);
            let found = go(target, root, on_way, depth + 1);
            on_way.pop();
            if found {
                return true;
            }
        }
        let mut found = false;
        toolschema::walk::for_each_child(node, |step, child| {
            if !found && !matches!(step.keyword(), "$defs" | "definitions") {
                found = go(child, root, on_way, depth + 1);
            }
        });
        found
    }
    go(root, root, &mut vec![root as *const Value], 0)
}

/// Zoo values per type for the inlining law: 24 at its default 32 random cases, growing with
/// `PROPTEST_CASES` (`None`: unset).
pub(crate) fn zoo_values_per_type_at(cases: Option<u64>) -> usize {
    prop_run::scaled_at(24, 32, cases)
}

// Law: inlining is equivalent to the referencing schema on random instances. For every zoo type
// whose schema uses `$ref`, on its values, every small edit of them, and random JSON: the
// `inline-refs` dialect's output (when that dialect is built in) accepts exactly what the
// json-schema output accepts; for non-recursive types `self_contained_input_schema`'s output never
// accepts more, and accepts the same wherever no null is involved (it drops null where a property
// can be left out; at a recursion point it keeps only the JSON type, by design).
#[test]
fn inlined_schemas_accept_what_the_referencing_schema_accepts() {
    let inline_refs = dialect::by_name("inline-refs");
    let config = prop_run::config(file!(), 1);
    // The zoo's values come from this run's seed too, 24 per type, growing with `PROPTEST_CASES`.
    let seed = match config.rng_seed {
        proptest::test_runner::RngSeed::Fixed(seed) => seed,
        proptest::test_runner::RngSeed::Random => 17,
    };
    let per_type = zoo_values_per_type_at(prop_run::env_cases());
    let mut randoms = TestRunner::new(config);
    let arb = zoo::arb_json();
    let mut compared = 0usize;
    for entry in zoo::ZOO {
        let referencing =
            (entry.schema)(&SchemaOptions::new()).unwrap_or_else(|e| panic!("{}: {e}", entry.name));
        let referencing = referencing.as_value();
        if !toolschema::canonical::to_string(referencing).contains("\"$ref\"") {
            continue;
        }
        let mut inlined: Vec<(&str, Value)> = Vec::new();
        if !is_recursive(referencing)
            && let Ok(v) = toolschema::self_contained_input_schema(referencing, entry.name)
        {
            inlined.push(("self-contained", v));
        }
        if let Some(d) = inline_refs
            && let Ok(s) = (entry.schema)(&SchemaOptions::new().dialect(d))
        {
            inlined.push(("inline-refs", s.into_value()));
        }
        let before = zoo::validator(referencing);
        let after: Vec<(&str, jsonschema::Validator)> =
            inlined.iter().map(|(n, v)| (*n, zoo::validator(v))).collect();
        let mut instances = (entry.samples)(seed ^ entry.name.len() as u64, per_type);
        let edits: Vec<Value> = instances.iter().flat_map(zoo::mutants).collect();
        instances.extend(edits);
        for _ in 0..prop_run::cases(32) {
            if let Ok(tree) = arb.new_tree(&mut randoms) {
                instances.push(tree.current());
            }
        }
        for instance in &instances {
            let was = before.is_valid(instance);
            for ((name, validator), (_, schema)) in after.iter().zip(&inlined) {
                let is = validator.is_valid(instance);
                let exact = *name == "inline-refs" || !contains_null(instance);
                let broken = if exact { was != is } else { is && !was };
                assert!(
                    !broken,
                    "{} / {name}: the referencing schema says {was}, the inlined one {is} for {instance}\nreferencing: {referencing}\ninlined: {schema}",
                    entry.name
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "only {compared} comparisons");
}

// Law: inlining is equivalent to the referencing schema on generated tool schemas too (references
// into definitions, properties and tuple members; escaped and percent-encoded names): wherever
// both the json-schema and the inline-refs dialect build a schema that uses `$ref`, the two accept
// the same generated values and the same small edits of them.
#[test]
fn inlined_generated_schemas_accept_what_the_referencing_schema_accepts() {
    let reach = prop_run::Reach::new();
    let inline_refs = dialect::by_name("inline-refs").expect("inline-refs is built in");
    check(256, (tool_schemas::arb_tool_schema(), any::<u64>()), |((_, schema), seed)| {
        let options = SchemaOptions::new().reject_any(false);
        let referencing = options.normalize(schema.clone());
        let inlined = options.clone().dialect(inline_refs).normalize(schema.clone());
        let (Ok(referencing), Ok(inlined)) = (referencing, inlined) else {
            reach.count("inline-refs", false);
            return Ok(());
        };
        let uses_ref = toolschema::canonical::to_string(referencing.as_value()).contains("\"$ref\"");
        reach.count("inline-refs", uses_ref);
        if !uses_ref {
            return Ok(());
        }
        let (before, after) = (zoo::validator(referencing.as_value()), zoo::validator(inlined.as_value()));
        let mut values = tool_schemas::Instances::new(referencing.as_value(), seed);
        for _ in 0..6 {
            let v = values.value();
            for instance in std::iter::once(v.clone()).chain(zoo::mutants(&v)) {
                let (was, is) = (before.is_valid(&instance), after.is_valid(&instance));
                prop_assert_eq!(
                    was,
                    is,
                    "the referencing schema says {}, the inlined one {}, for {}\nreferencing: {}\ninlined: {}",
                    was,
                    is,
                    instance,
                    referencing.as_value(),
                    inlined.as_value()
                );
            }
        }
        Ok(())
    });
    // About a quarter of the generated schemas are built by both and keep a `$ref` (inline-refs
    // refuses recursion).
    reach.finish("inlining equivalence: built schemas that use $ref", &["inline-refs"], 0.15);
}

// Regression (the idempotence law, as a Rust type's schema): a root that refers to itself (`"$ref":
// "#"`) beside a tag, as schemars writes an internally tagged variant, and a definition nothing
// names. The first run pruned the definition and accepted; the second refused the same schema
// in merge-tags. With or without the unused definition, every dialect gives one verdict: the root
// is a reference that comes back to itself with no value consumed, refused at the root's `$ref`
// with serde's advice.
#[test]
fn a_root_that_refers_to_itself_beside_a_tag_gives_the_same_verdict_in_every_run() {
    let pruned = json!({
        "$ref": "#", "type": "object", "required": ["t"],
        "properties": {"t": {"const": "V", "type": "string"}}
    });
    let mut schema = pruned.clone();
    schema["$defs"] = json!({"U": {"type": "string"}});
    for &d in dialect::builtin() {
        let options = SchemaOptions::new().dialect(d);
        for s in [&schema, &pruned] {
            let err =
                as_rust(&options, s).expect("a schemars schema").map(|t| t.as_value().clone()).unwrap_err();
            let text = err.to_string();
            assert!(
                matches!(&err, toolschema::Error::Generation(g) if g.pointer() == Some("/$ref"))
                    && text.contains("`#` → `#`")
                    && text.contains("untagged variant or a flattened field of its own type"),
                "{}: {text}",
                d.name()
            );
        }
    }
}
