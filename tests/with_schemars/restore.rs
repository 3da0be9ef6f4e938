#![allow(clippy::pedantic)]
//! Restore plans on schemas nobody on the project wrote: the MCP and pydantic schemas of the shared
//! corpus (`../shared/corpus`, or `$TOOLSCHEMA_CORPUS`; skipped with a notice when absent) and
//! generated ones, under every provider dialect.
//!
//! Instances of each original schema are generated (a small generator that follows `type`,
//! `properties`, `items`, `enum`, `anyOf` and `$ref`) and kept only where a real validator (the
//! `jsonschema` crate) says the original accepts them. The laws are the ones the zoo's property
//! tests check for Rust types (`dialects.rs`), here for foreign schemas.

use crate::corpus_dir;
use crate::prop_run;
use crate::tool_schemas;
use crate::zoo;

use serde_json::{Map, Value, json};
use std::path::PathBuf;
use tool_schemas::{Instances, Same, same_up_to_defaults, with_needed_integer_fixes};
use toolschema::dialect::{self, AdaptContext};
use toolschema::{SchemaDialect, SchemaOptions};
use zoo::openapi_as_json_schema;

fn corpus() -> Option<PathBuf> {
    corpus_dir::find("mcp")
}

/// Every MCP and pydantic schema of the corpus, with its label.
fn corpus_schemas() -> Vec<(String, Value)> {
    let Some(dir) = corpus() else { return Vec::new() };
    let mut out = Vec::new();
    for sub in ["mcp", "pydantic"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    if let Ok(v) = serde_json::from_str(&text) {
                        out.push((p.strip_prefix(&dir).unwrap_or(&p).display().to_string(), v));
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn providers() -> Vec<&'static dyn SchemaDialect> {
    [
        "openai-strict",
        "openai-agents-mcp",
        "anthropic-strict",
        "gemini",
        "gemini-json-schema",
        "llguidance",
        "outlines",
        "mcp",
    ]
    .iter()
    .filter_map(|n| dialect::by_name(n))
    .collect()
}

// Laws, over every corpus schema a provider dialect accepts:
// - completeness: every generated instance v the original accepts encodes to a v' the provider's
//   schema accepts, and restore(v') is v (null and absent alike);
// - end-to-end soundness: every mutant of v' the provider's schema accepts restores to a value the
//   original accepts, or is refused by restore.
#[test]
fn corpus_instances_encode_restore_and_stay_sound_under_every_provider_dialect() {
    let schemas = corpus_schemas();
    if schemas.is_empty() {
        return;
    }
    let seeds = prop_run::Seeds::new(file!(), "corpus");
    for seed in seeds.all() {
        let failures = corpus_laws(&schemas, seed);
        if !failures.is_empty() {
            seeds.keep(seed);
        }
        assert!(
            failures.is_empty(),
            "seed {seed}: {} failures: {:#?}",
            failures.len(),
            &failures[..failures.len().min(20)]
        );
    }
}

/// One edit in this many goes through the decode law over edits (all of them nearly tripled the
/// corpus laws' time, 72 s to 204 s on the 2-core machine; the generated schemas of
/// `restore_laws.rs` take one in eight).
const DECODE_STRIDE: u64 = 16;

/// Values generated per corpus schema (the original's validator keeps the valid ones), and how
/// many tries a schema gets to reach them: 8 and 64 when `PROPTEST_CASES` is unset, growing with
/// it as from a default of 64 cases ([`prop_run::scaled`]).
fn corpus_instances() -> (usize, usize) {
    corpus_instances_at(prop_run::env_cases())
}

/// [`corpus_instances`] at a given `PROPTEST_CASES` (`None`: unset).
pub(crate) fn corpus_instances_at(cases: Option<u64>) -> (usize, usize) {
    (prop_run::scaled_at(8, 64, cases), prop_run::scaled_at(64, 64, cases))
}

/// The completeness and soundness laws over the corpus with values drawn from `seed`, under every
/// provider dialect in both modes; what fails. Every schema the default pipeline accepts must get
/// at least one instance its original accepts, or the laws are vacuous for it: that is a failure
/// too, naming the schema.
fn corpus_laws(schemas: &[(String, Value)], seed: u64) -> Vec<String> {
    let (mut instances, mut mutants, mut refused) = (0usize, 0usize, 0usize);
    let (corpus_instances, corpus_tries) = corpus_instances();
    let mut failures = Vec::new();
    let reach = prop_run::Reach::new();
    let compared = prop_run::Reach::new();
    for (label, raw) in schemas {
        let Ok(original) = SchemaOptions::new().reject_any(false).normalize(raw.clone()) else { continue };
        let Ok(check_original) =
            tool_schemas::validator_2020(&tool_schemas::as_readers_read(original.as_value()))
        else {
            continue;
        };
        // Soundness is judged with every `format` an annotation: restore leaves one so where
        // checking it would leave a union's branches untold (`docs/dialects.md`, Formats).
        let Ok(sound) = jsonschema::draft202012::new(&tool_schemas::as_readers_read(original.as_value()))
        else {
            continue;
        };
        let root = original.as_value();
        let salt = label.bytes().fold(seed, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        // No keys where an object says nothing of further keys: the closed-object dialects refuse
        // them by design (serde would drop them).
        let mut generator = Instances::new(root, salt).undeclared_keys(false);
        let mut values = Vec::new();
        for _ in 0..corpus_tries {
            let v = generator.value();
            if check_original.is_valid(&v) {
                values.push(v);
                if values.len() == corpus_instances {
                    break;
                }
            }
        }
        if values.is_empty() {
            failures.push(format!("{label}: no generated value of {corpus_tries} is accepted by the schema"));
            continue;
        }
        for d in providers() {
            for exact in [false, true] {
                let mode = format!("{}{}", d.name(), if exact { " exact" } else { "" });
                let options = SchemaOptions::new().reject_any(false).dialect(d).exact(exact);
                let Ok(adapted) = options.normalize(raw.clone()) else {
                    reach.count(&mode, false);
                    continue;
                };
                reach.count(&mode, true);
                let provider_schema = if matches!(d.name(), "gemini" | "gemini-ordered") {
                    openapi_as_json_schema(adapted.as_value())
                } else {
                    adapted.as_value().clone()
                };
                // A `discriminator` the output keeps is read as the original's is.
                // The formats it keeps are enforced by the provider (as its readers read them).
                let check_provider =
                    tool_schemas::validator_2020(&tool_schemas::as_readers_read(&provider_schema))
                        .unwrap_or_else(|e| panic!("{label} under `{mode}`: not a valid schema: {e}"));
                for v in &values {
                    instances += 1;
                    let sent = adapted.plan().encode(v.clone());
                    if !check_provider.is_valid(&sent) {
                        failures
                            .push(format!("{label} under `{mode}`: {v} encodes to {sent}, which it refuses"));
                        continue;
                    }
                    match adapted.restore(sent.clone()) {
                        Ok(back) => {
                            let fixed = with_needed_integer_fixes(v, &back, &|x| check_original.is_valid(x));
                            let same = same_up_to_defaults(&back, &fixed, root, root);
                            compared.count(&mode, same != Same::Undecided);
                            if same == Same::No {
                                failures.push(format!("{label} under `{mode}`: {v} -> {sent} -> {back}"));
                            } else if v.is_object() {
                                match adapted.decode::<Value>(sent.clone()) {
                                    Ok(decoded) if decoded == back => {}
                                    other => failures.push(format!(
                                        "{label} under `{mode}`: decode of {sent} gives {other:?}, restore {back}"
                                    )),
                                }
                            }
                        }
                        Err(e) => {
                            failures.push(format!("{label} under `{mode}`: {v} -> {sent} refused: {e}"))
                        }
                    }
                    for (i, m) in zoo::mutants(&sent).into_iter().enumerate() {
                        // Decode over edits, accepted or not (one in `DECODE_STRIDE`, from an
                        // offset the seed picks): the same value or the same fault as restore.
                        if salt.wrapping_add(i as u64) % DECODE_STRIDE == 0
                            && let Err(e) = tool_schemas::decode_agrees_with_restore(&adapted, &m)
                        {
                            failures.push(format!("{label} under `{mode}`: {e}"));
                        }
                        if !check_provider.is_valid(&m) {
                            continue;
                        }
                        mutants += 1;
                        match adapted.restore(m.clone()) {
                            Err(_) => refused += 1,
                            Ok(back) if sound.is_valid(&back) => {}
                            Ok(back) => failures.push(format!(
                                "{label} under `{mode}`: accepts {m}, restored to {back}, which the original refuses"
                            )),
                        }
                    }
                }
            }
        }
    }
    println!("{instances} instances, {mutants} accepted mutants ({refused} refused by restore)");
    assert!(instances > 500, "too few instances ({instances}) for the laws to mean much");
    let labels: Vec<String> =
        providers().iter().flat_map(|d| [d.name().to_owned(), format!("{} exact", d.name())]).collect();
    let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    reach.finish("corpus schemas the dialect accepts", &labels, CORPUS_FLOOR);
    compared.finish("restored values the comparison judged", &labels, COMPARED_FLOOR);
    failures
}

/// The share of restored values whose comparison with the original value must be judged within
/// its budget (`tool_schemas::ALTERNATIVES_BUDGET`); one left undecided is not counted as
/// restored, and every corpus value is judged on the seeds measured.
const COMPARED_FLOOR: f64 = 0.95;

/// The share of corpus schemas each provider dialect and mode must accept (exact mode under
/// OpenAI refuses every optional property: about 40% of the corpus is left).
const CORPUS_FLOOR: f64 = 0.3;

// Law: a plan is derived from the schema alone: adapting the same schema twice gives the same
// plan, so a gateway may rebuild it at call time.
#[test]
fn the_same_schema_gives_the_same_plan() {
    for (label, raw) in corpus_schemas().iter().take(60) {
        for d in providers() {
            let cx = AdaptContext::default();
            let (Ok(a), Ok(b)) = (dialect::adapt(d, raw.clone(), &cx), dialect::adapt(d, raw.clone(), &cx))
            else {
                continue;
            };
            assert_eq!(a.plan, b.plan, "{label} under `{}`", d.name());
        }
    }
}

// Law: restore never panics on hostile arguments (not an object, a map that is not a list of
// entries, an entry whose key is not a string, text that is not JSON, 4,000 levels deep). An entry
// with a key that is not a string, and text that is not JSON, are faults; whatever else the
// provider's schema accepts restores to what the original accepts, or is a fault.
#[test]
fn hostile_arguments_never_panic_and_malformed_entries_are_faults() {
    let schema = json!({"type": "object", "properties": {
        "m": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}},
        "any": {}
    }});
    let original = zoo::validator(&schema);
    let adapted = dialect::adapt(&dialect::OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
    let output = zoo::validator(&adapted.schema);
    // Built by hand: `json!` serialises an interpolated value, recursively.
    let mut deep = json!(1);
    for _ in 0..2_000 {
        let entry = Map::from_iter([("key".to_owned(), json!("k")), ("value".to_owned(), deep)]);
        deep = Value::Array(vec![Value::Object(entry)]);
    }
    let deep = Value::Object(Map::from_iter([("m".to_owned(), deep), ("any".to_owned(), Value::Null)]));
    // (arguments, whether restore must refuse them)
    let cases = [
        (json!(null), false),
        (json!([]), false),
        (json!({"m": "x", "any": 3}), false),
        (json!({"m": [{"key": 1, "value": 2}], "any": "{"}), true),
        (json!({"m": [{"key": "a", "value": [{"key": "b", "value": -1}]}], "any": "[1"}), true),
        (deep, false),
    ];
    for (args, must_refuse) in cases {
        let shown: String = toolschema::canonical::to_string(&args).chars().take(80).collect();
        let accepted = output.is_valid(&args);
        match adapted.plan.restore(args) {
            Err(e) => assert!(!e.to_string().is_empty(), "{shown}"),
            Ok(v) => {
                let sound = !accepted || original.is_valid(&v);
                // Whatever comes back may be as deep as the arguments: freed without recursion.
                toolschema::walk::drop_any_depth(v);
                assert!(!must_refuse, "{shown}: restored, but it must be a fault");
                assert!(sound, "{shown}: the output accepts it and restore gives what the original refuses");
            }
        }
    }
}

/// The provider's schema as JSON Schema (Gemini's `nullable` read as a `null` type), validated.
fn provider_validator(d: &dyn SchemaDialect, schema: &Value) -> jsonschema::Validator {
    if matches!(d.name(), "gemini" | "gemini-ordered") {
        zoo::validator(&openapi_as_json_schema(schema))
    } else {
        zoo::validator(schema)
    }
}

// A named property beside `additionalProperties: true` or `{}` (zod's `.passthrough()`, pydantic's
// `extra="allow"`) is itself, not one of the further keys: its string is not parsed as JSON text,
// and no entry may name it.
#[test]
fn a_named_property_beside_an_open_map_is_restored_as_itself_not_as_json_text() {
    for extra in [json!(true), json!({})] {
        let schema = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
            "additionalProperties": extra});
        for name in ["openai-strict", "anthropic-strict", "gemini"] {
            let d = dialect::by_name(name).unwrap();
            let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
            let restore = |v: Value| adapted.restore(v);
            assert_eq!(
                restore(json!({"id": "r1", "additional_properties": []})).unwrap(),
                json!({"id": "r1"})
            );
            assert_eq!(
                restore(json!({"id": "\"r1\"", "additional_properties": []})).unwrap(),
                json!({"id": "\"r1\""}),
                "{name}"
            );
            let value = json!({"id": "[1]", "x": [1], "y": "\"y\""});
            let sent = adapted.plan().encode(value.clone());
            assert!(provider_validator(d, adapted.as_value()).is_valid(&sent), "{name}: {sent}");
            assert_eq!(sent["id"], "[1]", "{name}");
            assert_eq!(restore(sent).unwrap(), value, "{name}");
            let err = restore(json!({"id": "a", "additional_properties": [{"key": "id", "value": "\"b\""}]}))
                .unwrap_err();
            assert_eq!(err.faults()[0].pointer, "/additional_properties/0", "{name}: {err}");
        }
        // Gemini's JSON Schema keeps the map: the further keys' values are JSON text, the named
        // property is itself.
        let d = &toolschema::GEMINI_JSON_SCHEMA;
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        let value = json!({"id": "[1]", "x": [1], "y": "\"y\""});
        let sent = adapted.plan().encode(value.clone());
        assert!(provider_validator(d, adapted.as_value()).is_valid(&sent), "{sent}");
        assert_eq!(sent, json!({"id": "[1]", "x": "[1]", "y": "\"\\\"y\\\"\""}));
        assert_eq!(adapted.restore(sent).unwrap(), value);
    }
}

// Regression (found by the restore laws over generated schemas): an optional property whose union
// admits null only through a branch that accepts anything (`true`, written as JSON text, a string)
// was made required without null in OpenAI strict mode, so leaving it out (encoded as null) was
// refused by the provider's own schema. Null is added, and stands for absent.
#[test]
fn an_optional_property_whose_union_holds_true_is_required_with_null() {
    let schema = json!({"type": "object", "properties": {"c": {"anyOf": [true, {"type": "integer"}]}}});
    let d = dialect::by_name("openai-strict").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
    let validator = provider_validator(d, adapted.as_value());
    assert_eq!(adapted.as_value()["required"], json!(["c"]));
    // Absent is a bare null; a null that is there goes as the text `null` of the untyped branch
    // and comes back as itself (serde reads both as `None` for an `Option`).
    for (value, back) in [
        (json!({}), json!({})),
        (json!({"c": null}), json!({"c": null})),
        (json!({"c": 3}), json!({"c": 3})),
        (json!({"c": "x"}), json!({"c": "x"})),
        (json!({"c": {"k": [1]}}), json!({"c": {"k": [1]}})),
    ] {
        let sent = adapted.plan().encode(value.clone());
        assert!(validator.is_valid(&sent), "{value} is sent as {sent}, which the provider refuses");
        assert_eq!(adapted.restore(sent.clone()).map_err(|e| e.to_string()), Ok(back), "{sent}");
    }
}

// Regression (found by the restore laws over generated schemas): a root object with no properties
// and `additionalProperties: true` was closed as an empty object in the strict dialects, so every
// call with any key was refused by the provider. The root is wrapped and its value sent as JSON
// text, as the same object is below the root.
#[test]
fn a_root_open_object_without_properties_takes_any_keys_in_the_strict_dialects() {
    let schema = json!({"type": "object", "properties": {}, "additionalProperties": true});
    for name in ["openai-strict", "anthropic-strict"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
        let validator = provider_validator(d, adapted.as_value());
        for value in [json!({}), json!({"k": 1}), json!({"a": [1, "x"], "b": {"c": null}})] {
            let sent = adapted.plan().encode(value.clone());
            assert!(
                validator.is_valid(&sent),
                "{name}: {value} is sent as {sent}, which the provider refuses"
            );
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
        }
    }
}

// Regression (found by the restore laws over generated schemas): under OpenAI strict mode, a
// property that admits null, named by an `anyOf` of `required` alternatives (moved into a restore
// check), lost its null on restore as "absent", and the check then refused `{"b": null}`, which
// the original accepts (`b` is present). Null is the property present there.
#[test]
fn a_null_property_named_by_required_alternatives_counts_as_present() {
    let inner = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"enum": [null]}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]});
    let d = dialect::by_name("openai-strict").expect("built in");
    for schema in [inner.clone(), json!({"type": "object", "properties": {"o": inner}, "required": ["o"]})] {
        let nested = schema["properties"].get("o").is_some();
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
        let validator = provider_validator(d, adapted.as_value());
        let wrap = |v: Value| if nested { json!({ "o": v }) } else { v };
        for value in [json!({"b": null}), json!({"a": "x"}), json!({"a": "x", "b": null})] {
            let value = wrap(value);
            let sent = adapted.plan().encode(value.clone());
            assert!(validator.is_valid(&sent), "{value} is sent as {sent}, which the provider refuses");
            let back = adapted.restore(sent.clone()).map_err(|e| e.to_string());
            let ok = back == Ok(value.clone()) || back == Ok(wrap(json!({"a": "x", "b": null})));
            assert!(ok, "{value} sent as {sent} came back as {back:?}");
        }
        let err = adapted.restore(wrap(json!({"a": null}))).unwrap_err();
        assert!(err.to_string().contains("at least one of `a`, `b`"), "{err}");
    }
}

/// Under `name`, every value sent as `encode` gives is one the provider's schema accepts, and
/// restore gives the value back; `schema` accepts each value.
fn round_trips(name: &str, schema: &Value, values: &[Value]) {
    let d = dialect::by_name(name).expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
    let validator = provider_validator(d, adapted.as_value());
    let original = jsonschema::validator_for(schema).expect("a valid schema");
    for value in values {
        assert!(original.is_valid(value), "the original refuses {value}");
        let sent = adapted.plan().encode(value.clone());
        assert!(validator.is_valid(&sent), "{name}: {value} is sent as {sent}, which the provider refuses");
        assert_eq!(
            adapted.restore(sent.clone()).map_err(|e| e.to_string()),
            Ok(value.clone()),
            "{name}: {sent}"
        );
    }
}

// Regression (found by the restore laws over generated schemas): an optional property that is a
// `$ref` to a definition the provider gets in a form refusing null (a union with an untyped
// branch, sent as JSON text) was required without null under OpenAI strict mode, so `{}` could
// not be sent: whether the written definition admits null was read before it was written.
#[test]
fn an_optional_reference_to_a_definition_that_refuses_null_gets_null_for_absent() {
    let schema = json!({"type": "object", "properties": {"b": {"$ref": "#/$defs/U"}},
        "$defs": {"U": {"anyOf": [{}, {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"], "additionalProperties": false}]}}});
    round_trips("openai-strict", &schema, &[json!({}), json!({"b": {"k": "x"}}), json!({"b": [1, "x"]})]);
}

// Regression (found by the restore laws over generated schemas): an `enum` mixing objects and
// numbers was split by type; the object branch went as JSON text of any object, and restore did
// not check the listed values, so `{"k": 2}` came through; the number branch listed the objects.
#[test]
fn an_enum_of_objects_sent_as_json_text_is_checked_by_restore() {
    let schema =
        json!({"type": "object", "properties": {"b": {"enum": [{}, {"k": 1}, 0]}}, "required": ["b"]});
    round_trips("openai-strict", &schema, &[json!({"b": {}}), json!({"b": {"k": 1}}), json!({"b": 0})]);
    let d = dialect::by_name("openai-strict").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
    let branches = adapted.as_value()["properties"]["b"]["anyOf"].as_array().unwrap().clone();
    assert!(branches.contains(&json!({"type": "integer", "enum": [0]})), "{branches:?}");
    let err = adapted.restore(json!({"b": "{\"k\":2}"})).unwrap_err().to_string();
    assert!(err.contains("`/b`: must be one of `{}`, `{\"k\":1}`"), "{err}");
}

// Regression (found by the restore laws over generated schemas): where two branches of a union
// take the same written shape, the forward map took the first, whose restore check then refused
// the value; it takes the branch whose restore passes.
#[test]
fn the_forward_map_takes_the_branch_whose_restore_checks_pass() {
    let schema = json!({"type": "object", "properties": {"d": {"anyOf": [
        {"type": "object", "properties": {"b": {"enum": [{}]}}, "additionalProperties": true},
        {"type": "object", "properties": {"b": {"type": "object"}, "e": {"enum": ["a"]}}, "required": ["e"], "additionalProperties": {}}
    ]}}, "required": ["d"]});
    round_trips(
        "openai-strict",
        &schema,
        &[json!({"d": {"b": {"x": 1}, "e": "a", "id": null}}), json!({"d": {"b": {}}})],
    );
}

// Regression (found by the restore laws over generated schemas): a nullable property that
// another property's presence requires (`dependencies`) lost its null on restore as "absent",
// and the moved check then refused `{"a": "x", "b": null}`; null is the property present there.
#[test]
fn a_null_property_another_requires_counts_as_present() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"anyOf": [{"type": "null"}, {"type": "string"}]}},
        "dependencies": {"a": ["b"]}});
    round_trips(
        "openai-strict",
        &schema,
        &[json!({"a": "x", "b": null}), json!({"a": "x", "b": "y"}), json!({"b": null})],
    );
}

// Regression (found by the restore laws over generated schemas): an untyped property named by
// `required` alternatives, present as null, was sent as a bare null (which stands for absent)
// instead of the JSON text `null`, so `{"e": {"a": null}}` could not be sent.
#[test]
fn a_null_untyped_property_named_by_required_alternatives_is_sent_as_the_text_null() {
    let schema = json!({"type": "object", "properties": {"e": {"type": "object", "properties": {"a": {}, "b": {"const": ""}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}}, "required": ["e"]});
    round_trips(
        "openai-strict",
        &schema,
        &[json!({"e": {"a": null}}), json!({"e": {"b": ""}}), json!({"e": {"a": [1], "b": ""}})],
    );
}

// Regression (found by the restore laws over generated schemas): a declared property beside
// `additionalProperties` got the map's plan too, so under json-schema the integer fix of the map's
// values (`[3.0]` → `[3]`) turned the property's `[2.0]`, which its own schema takes as a number,
// into `[2]`.
#[test]
fn a_declared_property_beside_a_map_is_not_restored_by_the_maps_plan() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "array", "items": {"type": ["integer", "number"]}}},
        "additionalProperties": {"type": "array", "items": {"type": "integer"}}});
    let adapted = SchemaOptions::new().normalize(schema).unwrap();
    let back = adapted.restore(json!({"a": [2.0], "b": [3.0]})).unwrap();
    assert!(back["a"][0].is_f64(), "{back}");
    assert!(back["b"][0].is_u64(), "{back}");
}

// Regression (found by the restore laws over generated schemas): a tuple whose members needed no
// plan lost them, so the plan of `items` (the integer fix) reached the members too: `[2.0, 48]`
// of `prefixItems: [number]`, `items: integer` came back as `[2, 48]`.
#[test]
fn a_tuples_members_are_not_restored_by_the_plan_of_its_further_items() {
    let schema = json!({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": ["integer", "number"]}],
        "items": {"type": "integer"}}}, "required": ["t"]});
    let adapted = SchemaOptions::new().normalize(schema).unwrap();
    let back = adapted.restore(json!({"t": [2.0, 48.0]})).unwrap();
    assert!(back["t"][0].is_f64(), "{back}");
    assert!(back["t"][1].is_u64(), "{back}");
}

// Regression (found by the restore laws over generated schemas): under json-schema, a
// discriminated union whose tags have defaults was read without its tag, so the integer fix of
// the `k0` branch turned `{"kind": "k1", "v": 2.0}`, whose `v` the `k1` branch takes as a number,
// into `v: 2`. The tag names the branch, as the discriminator's readers require it.
#[test]
fn a_discriminated_unions_tag_keeps_an_integral_float_in_its_own_branch() {
    let schema = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k0", "default": "k0"}, "v": {"type": "integer"}}},
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k1", "default": "k1"}, "v": {"type": "number"}}}
    ], "discriminator": {"propertyName": "kind"}});
    let adapted = SchemaOptions::new().normalize(schema).unwrap();
    let back = adapted.restore(json!({"kind": "k1", "v": 2.0})).unwrap();
    assert!(back["v"].is_f64(), "{back}");
    let back = adapted.restore(json!({"kind": "k0", "v": 2.0})).unwrap();
    assert!(back["v"].is_u64(), "{back}");
}

// Regression (found by the 5,000-schema run of the restore laws): a union branch whose written
// form held a reference below its top (a map whose values are a definition) had its deep shape
// read before the definitions were written, so the reference told nothing, and the forward map
// sent `{"a": "x"}` of the object branch as the map's entries, which the provider refuses.
#[test]
fn a_union_branch_with_a_reference_below_its_top_is_told_apart_once_definitions_are_written() {
    let schema = json!({"type": "object", "additionalProperties": {"anyOf": [
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/Item"}},
        {"type": "object", "properties": {"a": {"type": "string"}}}
    ]}, "$defs": {"Item": {"type": "object", "properties": {"a": {"type": "string"}}}}});
    round_trips(
        "openai-strict",
        &schema,
        &[json!({"id": {"a": "x"}}), json!({"id": {"k": {"a": "y"}}}), json!({})],
    );
}

// Regression (found by the 5,000-schema run of the restore laws): a property named by `required`
// alternatives whose union holds an untyped branch (`{}`, sent as JSON text), present as null,
// was sent as a bare null, which stands for absent, so the moved "at least one of" check refused
// `{"a": null}`. It goes as the text `null` of the untyped branch.
#[test]
fn a_null_named_by_required_alternatives_goes_as_the_text_null_of_its_unions_untyped_branch() {
    let schema = json!({"type": "object", "properties": {"o": {"type": "object", "properties": {
        "a": {"anyOf": [{"type": "integer"}, {}]}, "b": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}}, "required": ["o"]});
    round_trips(
        "openai-strict",
        &schema,
        &[json!({"o": {"a": null}}), json!({"o": {"a": 1}}), json!({"o": {"b": "x"}})],
    );
}

// Regression (found by the 5,000-schema run of the restore laws): closing the objects under a
// `oneOf` whose branches overlap made the schema refuse a value the original accepted. `{"k": 1}`
// matched both inner branches (the inner `oneOf` refused it) and so passed the outer `oneOf`
// through its `enum` alone; with `a/b` closed it matched only `{}`, and the outer `oneOf` saw two
// branches pass. Such branches stay open.
#[test]
fn closing_never_makes_an_overlapping_one_of_refuse_what_it_accepted() {
    let schema = json!({
        "$defs": {"a/b": {"type": "object", "properties": {}}},
        "oneOf": [{"oneOf": [{"$ref": "#/$defs/a~1b"}, {}]}, {"enum": [{"k": 1}]}]
    });
    let original = jsonschema::validator_for(&schema).unwrap();
    let d = dialect::by_name("strict-subset").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
    let out = jsonschema::validator_for(adapted.as_value()).unwrap();
    for value in [json!({"k": 1}), json!({}), json!({"k": 2}), json!(3)] {
        assert_eq!(out.is_valid(&value), original.is_valid(&value), "{value}");
    }
    assert!(out.is_valid(&json!({"k": 1})));
}

// Regression: an integral float inside an untagged union of structs belongs to the branch that
// reads it as a float. serde reads `{"a": 1.0}` as `B` (`A` refuses the float); turning it into
// `{"a": 1}` made serde read `A`. Restore and decode leave it; `{"a": 1}` stays `A`.
#[test]
fn an_integral_float_nested_in_an_untagged_union_keeps_its_branch() {
    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    struct A {
        a: i64,
    }
    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    struct B {
        a: f64,
    }
    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    #[serde(untagged)]
    enum AB {
        A(A),
        B(B),
    }
    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    struct Args {
        ab: AB,
        list: Vec<AB>,
    }
    for d in dialect::builtin() {
        let Ok(schema) = SchemaOptions::new().dialect(*d).schema_for::<Args>() else { continue };
        let name = d.name();
        let sent = json!({"ab": {"a": 1.0}, "list": [{"a": 2}, {"a": 3.0}, {"a": 4.5}]});
        let sent = schema.plan().encode(sent);
        let restored = schema.restore(sent.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let args: Args = serde_json::from_value(restored).unwrap();
        let want = Args {
            ab: AB::B(B { a: 1.0 }),
            list: vec![AB::A(A { a: 2 }), AB::B(B { a: 3.0 }), AB::B(B { a: 4.5 })],
        };
        assert_eq!(args, want, "{name}: restore");
        assert_eq!(schema.decode::<Args>(sent).unwrap(), want, "{name}: decode");
    }
}

// A union whose branches differ only in checks the provider does not enforce (pydantic's
// `Cat | Dog | Bird`, open objects under Gemini, `Bird`'s `exclusiveMinimum` moved into restore):
// no shape tells the branches apart, and none needs to, as restore changes nothing in any of
// them. It takes the first branch whose checks pass among those whose provider schema accepts
// the value (each branch a shape that says exactly that), and refuses what no branch accepts.
#[test]
fn a_union_whose_branches_differ_only_in_moved_checks_takes_the_first_that_passes() {
    let Some(dir) = corpus() else { return };
    let text = std::fs::read_to_string(dir.join("pydantic/union_three_optional.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let original = jsonschema::validator_for(&schema).unwrap();
    for name in ["gemini", "gemini-ordered"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone());
        let adapted = adapted.unwrap_or_else(|e| panic!("{name}: {e}"));
        let provider = provider_validator(d, adapted.as_value());
        for (args, accepted) in [
            (json!({"pet": {"wingspan_cm": 3.5}}), true),
            (json!({"pet": {"meows": 1, "wingspan_cm": -1}}), true),
            (json!({"pets": [{"barks": 2.0}, {"wingspan_cm": 0.5}, {"meows": 2, "wingspan_cm": 0}]}), true),
            (json!({"pet": {"wingspan_cm": -1}}), false),
            (json!({"pets": [{"wingspan_cm": 0}]}), false),
            // Gemini takes it through `Bird`, whose bound it does not enforce; `Cat`, whose checks
            // pass, is not taken, as `meows` is no integer.
            (json!({"pet": {"meows": "x", "wingspan_cm": -1}}), false),
        ] {
            assert_eq!(original.is_valid(&args), accepted, "{args}");
            assert!(provider.is_valid(&args), "{name}: {args}");
            let restored = adapted.restore(args.clone()).map_err(|e| e.to_string());
            if accepted {
                assert_eq!(restored, Ok(args.clone()), "{name}");
                assert_eq!(
                    adapted.decode::<Value>(args.clone()).map_err(|e| e.to_string()),
                    Ok(args),
                    "{name}"
                );
            } else {
                let err = restored.expect_err(name);
                assert!(err.contains("greater than 0"), "{name}: {err}");
                assert!(adapted.decode::<Value>(args).is_err(), "{name}");
            }
        }
    }
}

// Regression (found by the 5,000-schema run of the restore laws): under gemini-json-schema, which
// keeps a tuple as `prefixItems`, the forward map read a tuple branch's members by the shape of
// the items past them (JSON text here), found that no branch fitted, and sent the further items
// unencoded.
#[test]
fn a_kept_tuple_in_a_union_encodes_the_items_past_its_members() {
    let schema = json!({"type": "object", "properties": {"b": {"oneOf": [
        {"type": "array", "prefixItems": [{"type": "integer"}]}, {"type": "string"}
    ]}}});
    let d = dialect::by_name("gemini-json-schema").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
    let value = json!({"b": [10, "x", {"k": 1}]});
    let sent = adapted.plan().encode(value.clone());
    assert!(provider_validator(d, adapted.as_value()).is_valid(&sent), "{sent}");
    assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value));
}

// Regression (found by the repeated runs of the restore laws): under gemini-json-schema a value
// the original takes only through an untyped branch (`[1, "a"]`, whose second item is no object)
// was encoded through the tuple branch beside it, which the forward map read without its members'
// shapes; the provider's schema refused what it sent.
#[test]
fn a_value_no_tuple_member_takes_is_encoded_through_the_untyped_branch() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "array", "prefixItems": [{}, {"type": "object", "properties": {"k": {"type": "string"}}}], "items": false},
        {}
    ]}}, "required": ["a"]});
    let d = dialect::by_name("gemini-json-schema").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
    let provider = provider_validator(d, adapted.as_value());
    for value in [json!({"a": [1, "a"]}), json!({"a": [1, {"k": "x"}]}), json!({"a": "text"})] {
        let sent = adapted.plan().encode(value.clone());
        assert!(provider.is_valid(&sent), "{value} sent as {sent}");
        assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value));
    }
}

// Regression (found by the restore laws under openai-strict): an object only the struct branch
// takes (`{"d": 1}`) was encoded through the map branch beside it, as the entry
// `{"key": "d", "value": 1}`. The map's key pattern is kept in the provider's schema, so restore
// never checks it and the forward map did not either; the provider refused the key `d`.
#[test]
fn encode_takes_a_map_branch_only_where_every_key_matches_its_kept_key_pattern() {
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "array", "items": {"anyOf": [
            {"$ref": "#/$defs/M"}, {"type": "string"}, {"$ref": "#/$defs/S"}
        ]}}},
        "required": ["a"],
        "$defs": {
            "M": {"type": "object", "patternProperties": {"^x_": {"type": "integer"}}, "additionalProperties": false},
            "S": {"type": "object", "properties": {"d": {"type": "integer"}}, "required": ["d"], "additionalProperties": false}
        }
    });
    let mut checked = 0;
    for name in ["openai-strict", "anthropic-strict", "gemini"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        let provider = provider_validator(d, adapted.as_value());
        for value in [json!({"a": [{"d": 1}]}), json!({"a": [{"x_1": 2}, "s", {}]})] {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

// Regression (found by the repeated runs of the restore laws): under gemini a required property
// `enum: [null, "a"]` is written `{"enum": ["a"], "nullable": true}`, which Gemini reads as
// admitting null. The forward map read the branch's shape as listing `"a"` only, found that no
// branch of the tagged union fitted `{"a": null, ...}`, and sent the item unencoded (an untyped
// value beside it as an array, not as its JSON text), which the provider refused.
#[test]
fn a_nullable_enum_admits_null_when_the_forward_map_picks_a_branch() {
    let t = json!({"type": "object", "properties": {"a": {"enum": [null, "a"]}, "d": {}}, "required": ["a"]});
    let schema = json!({"type": "object", "properties": {"c": {"type": "array", "items": {"oneOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k0"}, "v": {"type": "string"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k2"}, "v": {"$ref": "#/definitions/~0t"}}, "required": ["kind"]}
    ], "discriminator": {"propertyName": "kind"}}}}, "required": ["c"], "definitions": {"~t": t}});
    for name in ["gemini", "gemini-ordered"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
        let provider = provider_validator(d, adapted.as_value());
        for value in [
            json!({"c": [{"kind": "k2", "v": {"a": null, "d": [1, "a"]}}]}),
            json!({"c": [{"kind": "k2", "v": {"a": "a", "d": [1, "a"]}}, {"kind": "k0", "v": "x"}]}),
        ] {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
        }
    }
}

// Regression (found by the repeated runs of the restore laws): under gemini-json-schema, which
// keeps a map as an object, an object only the free-form branch takes (`{"k": [1, "a"]}`, whose
// value the map branch's `enum: [true]` refuses) went through the map branch, whose values the
// forward map did not read; the provider refused it.
#[test]
fn encode_takes_a_kept_map_branch_only_where_every_value_fits_the_map_values() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "object", "properties": {}, "additionalProperties": {"enum": [true]}},
        {"type": "object", "properties": {}, "additionalProperties": true}
    ]}}});
    let d = dialect::by_name("gemini-json-schema").expect("built in");
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema).unwrap();
    let provider = provider_validator(d, adapted.as_value());
    for value in [json!({"a": {"k": [1, "a"]}}), json!({"a": {"k": true}}), json!({"a": {}})] {
        let sent = adapted.plan().encode(value.clone());
        assert!(provider.is_valid(&sent), "{value} sent as {sent}");
        assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value));
    }
}

/// A null the value holds is sent as null through a branch only where that branch's provider
/// schema takes it: anthropic-strict keeps an optional property optional (its null is no stand-in
/// for absent), so `{"a": null}` belongs to the branch that declares `a: null`, not to the one
/// whose `a` is a string.
#[test]
fn encode_reads_a_null_as_absent_only_where_the_provider_schema_takes_that_null() {
    let schema = json!({"type": "object", "properties": {"c": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string", "minLength": 1, "maxLength": 12}},
         "additionalProperties": {"type": "number"}},
        {"type": "object", "properties": {"a": {"type": "null"}}, "required": ["a"]},
        {"type": "integer"}
    ]}}, "required": ["c"]});
    for name in ["anthropic-strict", "openai-strict", "json-schema", "mcp"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
        let provider = provider_validator(d, adapted.as_value());
        for value in
            [json!({"c": {"a": null}}), json!({"c": {"a": "x", "n": 1.5}}), json!({"c": {}}), json!({"c": 3})]
        {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
        }
    }
}

/// An optional object property sent as null where null stands for absent (openai-strict), whose
/// object has a required property of listed values (a tag to a shape): the null fits the branch
/// (tags and keys judge objects only, where the type admits null too), so encode takes the branch
/// and restore reads it back.
#[test]
fn a_nullable_object_with_a_tag_of_its_own_takes_null_in_a_union_branch() {
    let schema = json!({"type": "object", "required": ["a"], "properties": {"a": {"oneOf": [
        {"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string", "const": "k0"}, "v": {"type": ["string", "null"]}}},
        {"type": "object", "required": ["kind"], "properties": {
            "kind": {"type": "string", "const": "k1"},
            "v": {"type": "object", "properties": {"a": {"const": ""}}, "required": []}}}
    ], "discriminator": {"propertyName": "kind"}}}});
    for name in ["openai-strict", "anthropic-strict", "gemini-json-schema", "json-schema"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        let provider = provider_validator(d, adapted.as_value());
        for value in [
            json!({"a": {"kind": "k1"}}),
            json!({"a": {"kind": "k1", "v": {}}}),
            json!({"a": {"kind": "k1", "v": {"a": ""}}}),
            json!({"a": {"kind": "k0"}}),
        ] {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
        }
    }
}

// Regression (found by the restore laws, gemini-json-schema): a union's branch that is itself a
// union, one of whose branches is an object with a tagged union below it. The forward map read
// the inner union's branches by their top level only, so it sent an object that fits the object
// branch there but not the union below it (no tag), which the provider's schema refuses; the
// original took the value through the branch that accepts anything, written as JSON text.
#[test]
fn encode_reads_the_branches_of_a_union_within_a_union_below_their_top_level() {
    let schema = json!({"type": "object", "required": ["b"], "properties": {
        "b": {"anyOf": [{"anyOf": [{"type": "number"}, {"$ref": "#/$defs/A"}]}, true]}},
        "$defs": {"A": {"type": "object", "required": ["z"], "properties": {"z": {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "k0"}, "v": {"type": "string"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "k1"}}, "required": ["kind"]}]}}}}});
    for name in ["gemini-json-schema", "openai-strict", "anthropic-strict", "json-schema"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
        let provider = provider_validator(d, adapted.as_value());
        for value in
            [json!({"b": {"z": {"v": false}}}), json!({"b": {"z": {"kind": "k1"}}}), json!({"b": 2.5})]
        {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            assert_eq!(adapted.restore(sent).map_err(|e| e.to_string()), Ok(value), "{name}");
        }
    }
}

/// Under each of `dialects` that accepts `schema` (untyped values allowed), every one of `values`
/// is sent as the provider's schema takes it and restored exactly (an integral float as a float);
/// the dialects that accepted it, in order.
fn sent_and_restored(schema: &Value, dialects: &[&'static str], values: &[Value]) -> Vec<&'static str> {
    let mut accepted = Vec::new();
    for &name in dialects {
        let d = dialect::by_name(name).expect("built in");
        let Ok(adapted) = SchemaOptions::new().dialect(d).reject_any(false).normalize(schema.clone()) else {
            continue;
        };
        accepted.push(name);
        let provider = provider_validator(d, adapted.as_value());
        for value in values {
            let sent = adapted.plan().encode(value.clone());
            assert!(provider.is_valid(&sent), "{name}: {value} sent as {sent}");
            let back = adapted.restore(sent.clone()).map_err(|e| e.to_string());
            assert_eq!(back.as_ref(), Ok(value), "{name}: {value} sent as {sent}");
        }
    }
    accepted
}

// Regression (found by the restore laws, gemini-json-schema): a closed tuple of one beside an
// untyped branch. `[1, "a"]` went through the tuple, whose first member it fits, and the provider
// refused its length; it is the untyped branch's. The dialects that cannot write a tuple of no
// fixed length refuse the schema.
#[test]
fn encode_sends_an_array_through_a_tuple_branch_only_when_the_tuple_takes_its_length() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "array", "prefixItems": [{}], "items": false}, {}]}}});
    let dialects =
        ["gemini-json-schema", "anthropic-strict", "openai-strict", "gemini", "mcp", "json-schema"];
    let values = [json!({"a": [1, "a"]}), json!({"a": [1]}), json!({"a": []}), json!({"a": "x"})];
    let accepted = sent_and_restored(&schema, &dialects, &values);
    assert!(accepted.starts_with(&["gemini-json-schema"]) && accepted.len() >= 3, "{accepted:?}");
}

// Regression (found by the restore laws, anthropic-strict): a union of a map and an `enum` listing
// `[]`. The map is sent as entries, and `[]` is also the entries of the empty map: the forward map
// sent the listed `[]` through the map branch, and restore gave `{}` back. A map's encoding
// applies to objects only, so `[]` goes through the enum's branch, as text.
#[test]
fn encode_sends_an_array_through_a_map_branch_only_as_its_entries() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "object", "properties": {}, "additionalProperties": {"type": "integer"}},
        {"enum": ["", []]}]}}});
    let dialects = ["anthropic-strict", "gemini-json-schema", "mcp", "json-schema"];
    let values = [json!({"a": []}), json!({"a": {}}), json!({"a": {"k": 1}}), json!({"a": ""})];
    assert_eq!(sent_and_restored(&schema, &dialects, &values), dialects);
}

#[test]
fn an_object_branch_closed_but_for_a_key_pattern_takes_the_keys_the_pattern_admits() {
    // Branch 0 is closed to `a`, `b` and the keys `^x_` names; branch 1 reads every further key as
    // an integer. `{"a": -4.0, "b": "a", "x_0": -1.25}` is branch 0's (its `b` is no number), where
    // `a` takes fractions: the integral float stays a float.
    let schema = json!({"type": "object", "properties": {"x": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": ["integer", "number"]}, "b": {"enum": ["a"]}},
         "required": ["b"], "patternProperties": {"^x_": {"type": "number"}}, "additionalProperties": false},
        {"type": "object", "properties": {"b": {"type": "number"}}, "required": ["b"],
         "additionalProperties": {"type": "integer"}}]}}});
    let adapted = SchemaOptions::new().reject_any(false).normalize(schema).unwrap();
    let v = json!({"x": {"a": -4.0, "b": "a", "x_0": -1.25}});
    let back = adapted.restore(v.clone()).unwrap();
    assert!(back["x"]["a"].is_f64(), "{back}");
    assert_eq!(back, v);
}

// Regression (found by the restore laws, gemini): `0.0` is listed by the first branch (`enum: [0]`,
// which Gemini gets as the string "0" and restore gives back as the listed `0`) and taken by the
// second (`number`, where fractions go): sent through the second, it comes back a float.
#[test]
fn encode_sends_an_integral_float_as_it_is_where_a_branch_that_needs_nothing_takes_it() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"oneOf": [{"type": "array", "items": {"type": "number"}}, {"enum": [0]}]},
        {"type": "number"}]}}, "required": ["a"]});
    let dialects = [
        "gemini",
        "gemini-ordered",
        "openai-strict",
        "anthropic-strict",
        "gemini-json-schema",
        "json-schema",
    ];
    let values = [json!({"a": 0.0}), json!({"a": 0}), json!({"a": 1.0}), json!({"a": [0.0, 1]})];
    let accepted = sent_and_restored(&schema, &dialects, &values);
    assert!(accepted.starts_with(&["gemini", "gemini-ordered"]) && accepted.len() >= 4, "{accepted:?}");
}

// Regression (found by the restore laws, openai-strict): an optional property of a recursive
// definition, whose union holds an untyped branch and a reference back to the definition being
// written. The untyped branch admits null, so null stands for absent; the written union (JSON text,
// and the reference, not written yet) was read as unsure and written without null, and arguments
// that leave the property out could not be sent.
#[test]
fn an_optional_union_referring_to_its_own_definition_can_be_left_out() {
    let schema = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}}, "required": ["a"],
        "$defs": {"N": {"type": "object", "properties": {"v": {"anyOf": [true, {"$ref": "#/$defs/N"}]}}}}});
    let dialects = ["openai-strict", "anthropic-strict", "gemini-json-schema", "mcp", "json-schema"];
    let values = [
        json!({"a": {}}),
        json!({"a": {"v": null}}),
        json!({"a": {"v": {}}}),
        json!({"a": {"v": {"v": "x"}}}),
        json!({"a": {"v": [1, {"v": 2}]}}),
    ];
    let accepted = sent_and_restored(&schema, &dialects, &values);
    assert!(accepted.starts_with(&["openai-strict"]), "{accepted:?}");
}

// cecli's insert tool (https://github.com/cecli-dev/cecli/issues/281, which OpenAI refused for its
// root `oneOf`): exactly one anchor of `after_pattern`, `before_pattern` and `position`, each
// branch requiring one and not both others. Every provider gets the object with the rule in its
// description, and restore checks it.
#[test]
fn exactly_one_anchor_of_a_public_tool_is_sent_and_checked_on_restore() {
    let schema = cecli_insert_tool();
    let dialects =
        ["openai-strict", "anthropic-strict", "gemini", "gemini-json-schema", "mcp", "json-schema"];
    let values = [
        json!({"file_path": "f", "content": "c", "after_pattern": "x"}),
        json!({"file_path": "f", "content": "c", "position": "", "dry_run": true}),
        json!({"file_path": "f", "content": "c", "before_pattern": "y"}),
    ];
    assert_eq!(sent_and_restored(&schema, &dialects, &values), dialects);
    for name in ["openai-strict", "anthropic-strict", "gemini"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        for bad in [
            json!({"file_path": "f", "content": "c"}),
            json!({"file_path": "f", "content": "c", "after_pattern": "x", "position": "top"}),
        ] {
            let err = adapted.restore(adapted.plan().encode(bad.clone())).unwrap_err();
            let fault = &err.faults()[0];
            assert!(
                fault.pointer.is_empty() && fault.message.starts_with("must be exactly one of "),
                "{name}: {bad}: {err}"
            );
        }
    }
}

// The decode law on cecli's insert tool: under every built-in dialect and mode, every edit of its
// encoded calls (valid ones and ones breaking the "exactly one anchor" rule) decodes to what restore
// gives, the same value or the same fault; where a dialect moves the rule into a check, edits
// reach that check's fault.
#[test]
fn decode_agrees_with_restore_on_every_edit_of_a_tool_with_a_presence_rule() {
    let schema = cecli_insert_tool();
    let calls = [
        json!({"file_path": "f", "content": "c", "after_pattern": "x"}),
        json!({"file_path": "f", "content": "c", "position": "", "dry_run": true}),
        json!({"file_path": "f", "content": "c", "before_pattern": "y", "dry_run": false}),
        json!({"file_path": "f", "content": "c"}),
        json!({"file_path": "f", "content": "c", "after_pattern": "x", "position": "top"}),
    ];
    let mut failures = Vec::new();
    let mut checked = Vec::new();
    for &d in dialect::builtin() {
        for exact in [false, true] {
            let mode = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            let options = SchemaOptions::new().reject_any(false).dialect(d).exact(exact);
            let Ok(adapted) = options.normalize(schema.clone()) else { continue };
            let mut rule_faults = 0;
            for call in &calls {
                let sent = adapted.plan().encode(call.clone());
                for m in std::iter::once(sent.clone()).chain(zoo::mutants(&sent)) {
                    match tool_schemas::decode_agrees_with_restore(&adapted, &m) {
                        Err(e) => failures.push(format!("{mode}: {e}")),
                        Ok(true) => {
                            let err = adapted.restore(m).unwrap_err();
                            if err.faults().iter().any(|f| f.message.starts_with("must be exactly one of ")) {
                                rule_faults += 1;
                            }
                        }
                        Ok(false) => {}
                    }
                }
            }
            checked.push((mode, rule_faults));
        }
    }
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), &failures[..failures.len().min(10)]);
    for name in ["openai-strict", "anthropic-strict", "gemini", "gemini-json-schema"] {
        let faults = checked.iter().find(|(m, _)| m == name).map(|(_, n)| *n);
        assert!(faults.is_some_and(|n| n > 0), "{name}: no edit reached the rule's check: {checked:?}");
    }
}

fn cecli_insert_tool() -> Value {
    json!({"type": "object", "required": ["file_path", "content"],
        "properties": {"file_path": {"type": "string"}, "content": {"type": "string"},
            "after_pattern": {"type": "string"}, "before_pattern": {"type": "string"},
            "position": {"type": "string", "enum": ["top", "bottom", ""]},
            "dry_run": {"type": "boolean", "default": false}},
        "oneOf": [
            {"required": ["after_pattern"], "not": {"required": ["before_pattern", "position"]}},
            {"required": ["before_pattern"], "not": {"required": ["after_pattern", "position"]}},
            {"required": ["position"], "not": {"required": ["after_pattern", "before_pattern"]}}]})
}

// Found by the restore laws (strict-subset), and kept as the law's reading: `X` is a `oneOf` whose
// branches overlap (an object with an optional `e`, and one tagged `kind`), which strict-subset
// leaves open; the value below matches both of its branches, so the original refuses it there too,
// and takes it only through the second branch of `a`, whose reader drops `kind` and `v`.
// strict-subset closes that branch and refuses the value, as it refuses every key the code would
// drop; with `X`'s branches closed the value would pass, but so would values `X` refused.
#[test]
fn strict_subset_refuses_a_value_taken_only_by_an_object_that_drops_its_keys_or_an_overlapping_one_of() {
    let schema = json!({"type": "object", "required": ["a"], "properties": {"a": {"anyOf": [
            {"$ref": "#/$defs/X"}, {"type": "object", "properties": {"n": {"type": "number"}}}]}},
        "$defs": {"X": {"oneOf": [
            {"type": "object", "properties": {"e": {"type": "string"}}},
            {"type": "object", "properties": {"kind": {"const": "k0"}, "v": {"type": "number"}}, "required": ["kind"]}]}}});
    let d = dialect::by_name("strict-subset").expect("built in");
    let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
    let output = provider_validator(d, adapted.as_value());
    let original = jsonschema::draft202012::new(&schema).unwrap();
    let v = json!({"a": {"kind": "k0", "v": -2.25}});
    assert!(original.is_valid(&v));
    // `X` alone refuses it: both of its branches match.
    let x_alone =
        jsonschema::draft202012::new(&json!({"$ref": "#/$defs/X", "$defs": schema["$defs"]})).unwrap();
    assert!(!x_alone.is_valid(&v["a"]));
    assert!(!output.is_valid(&v), "{}", adapted.as_value());
    // What the code reads stays: each branch's own keys.
    for ok in [json!({"a": {"n": 1.5}}), json!({"a": {"e": "x"}}), json!({"a": {}})] {
        assert!(original.is_valid(&ok) && output.is_valid(&ok), "{ok}");
    }
}

/// A pydantic discriminated union whose members give their tag a default
/// (`pet_type: Literal["cat"] = "cat"`), inside a list, beside other properties.
fn pets_with_defaulted_tags() -> Value {
    let member = |tag: &str, prop: &str, t: &str| {
        json!({"type": "object", "properties": {
            "pet_type": {"type": "string", "const": tag, "default": tag},
            prop: {"type": t}
        }, "required": [prop]})
    };
    json!({
        "type": "object",
        "properties": {
            "pets": {"type": "array", "items": {
                "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
                "discriminator": {"propertyName": "pet_type", "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}}
            }},
            "n": {"type": "integer"}
        },
        "required": ["pets", "n"],
        "$defs": {"Cat": member("cat", "meows", "integer"), "Dog": member("dog", "barks", "number")}
    })
}

// Regression: a discriminated union whose tag has a default. The provider dialects require the
// tag (its readers refuse a value without it), and the forward map sent a value that left it out
// as it was, which the dialect's own output refuses. It now sends the tag's default, and restore
// gives the value with the tag, which the original's readers take.
#[test]
fn encode_sends_the_default_of_a_discriminator_tag_the_value_leaves_out() {
    let schema = pets_with_defaulted_tags();
    let original = jsonschema::validator_for(&schema).unwrap();
    let readers = jsonschema::validator_for(&tool_schemas::as_readers_read(&schema)).unwrap();
    let value = json!({"pets": [{"meows": 1}, {"barks": 2.5}, {"pet_type": "dog", "barks": 3}], "n": 1});
    let tagged = json!({"pets": [{"pet_type": "cat", "meows": 1}, {"pet_type": "dog", "barks": 2.5},
        {"pet_type": "dog", "barks": 3}], "n": 1});
    assert!(original.is_valid(&value) && !readers.is_valid(&value) && readers.is_valid(&tagged));
    let mut built = 0;
    for &d in dialect::builtin() {
        for exact in [false, true] {
            let label = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            let Ok(adapted) = SchemaOptions::new().dialect(d).exact(exact).normalize(schema.clone()) else {
                continue;
            };
            built += 1;
            let output = provider_validator(d, adapted.as_value());
            let sent = adapted.plan().encode(value.clone());
            assert!(output.is_valid(&sent), "{label}: {value} encodes to {sent}, which the output refuses");
            let back = adapted.restore(sent.clone()).unwrap_or_else(|e| panic!("{label}: {sent}: {e}"));
            assert!(back == value || back == tagged, "{label}: {sent} restores to {back}");
            // Where the provider requires the tag, the value comes back with it.
            if !provider_validator(d, adapted.as_value()).is_valid(&value) {
                assert_eq!(back, tagged, "{label}");
            }
        }
    }
    assert_eq!(built, 2 * dialect::builtin().len());
}

/// A discriminated union whose tag has a default, its two members told apart only by a `format`
/// (`v` a `date-time` in one, any string in the other), in a list beside another property.
fn tagged_by_format() -> Value {
    let member = |tag: &str, v: Value| {
        json!({"type": "object", "properties": {
            "kind": {"type": "string", "const": tag, "default": tag},
            "v": v
        }, "required": ["v"]})
    };
    json!({
        "type": "object",
        "properties": {
            "list": {"type": "array", "items": {
                "oneOf": [
                    member("k0", json!({"type": "string", "format": "date-time"})),
                    member("k1", json!({"type": "string"}))
                ],
                "discriminator": {"propertyName": "kind"}
            }},
            "n": {"type": "integer"}
        },
        "required": ["list", "n"]
    })
}

// Regression (found by the restore laws, gemini): a value that leaves out a discriminator's tag
// with a default, which only the second member takes (its `v` is not a `date-time`). The forward
// map sent the first member's default tag, whose `v` the output's `format` refuses and whose
// restore gives a value the original refuses. It sends the tag of the member the value fits,
// formats read as restore reads them.
#[test]
fn encode_sends_the_tag_of_the_member_a_tagless_value_fits_by_its_format() {
    let schema = tagged_by_format();
    let original = tool_schemas::validator_2020(&schema).unwrap();
    let readers = tool_schemas::validator_2020(&tool_schemas::as_readers_read(&schema)).unwrap();
    let value = json!({"list": [{"v": "not a date"}, {"v": "2024-01-02T03:04:05Z", "kind": "k0"}], "n": 1});
    let tagged = json!({"list": [{"kind": "k1", "v": "not a date"}, {"v": "2024-01-02T03:04:05Z", "kind": "k0"}], "n": 1});
    assert!(original.is_valid(&value) && !readers.is_valid(&value) && readers.is_valid(&tagged));
    let mut refused = Vec::new();
    for &d in dialect::builtin() {
        for exact in [false, true] {
            let label = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            let adapted = match SchemaOptions::new().dialect(d).exact(exact).normalize(schema.clone()) {
                Ok(adapted) => adapted,
                Err(e) => {
                    refused.push(format!("{label}: {e}"));
                    continue;
                }
            };
            let output = if matches!(d.name(), "gemini" | "gemini-ordered") {
                tool_schemas::validator_2020(&openapi_as_json_schema(adapted.as_value()))
            } else {
                tool_schemas::validator_2020(adapted.as_value())
            }
            .unwrap();
            let sent = adapted.plan().encode(value.clone());
            assert!(output.is_valid(&sent), "{label}: {value} encodes to {sent}, which the output refuses");
            let back = adapted.restore(sent.clone()).unwrap_or_else(|e| panic!("{label}: {sent}: {e}"));
            assert!(back == value || back == tagged, "{label}: {sent} restores to {back}");
            assert!(
                original.is_valid(&back),
                "{label}: {sent} restores to {back}, which the original refuses"
            );
        }
    }
    assert!(refused.is_empty(), "{refused:#?}");
}

// The same with members told apart by bounds the provider keeps: `{"v": 42}` without its tag is
// past the first member's `exclusiveMaximum` and an integer the second takes, so it is sent with
// the second member's tag (found by the restore laws under openai-strict, CI's seed
// 314748116204614574 and the 5,000-schema run).
#[test]
fn encode_sends_the_tag_of_the_member_a_tagless_value_fits_by_its_bounds() {
    let schema = json!({"type": "object", "properties": {"a": {"oneOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k0", "default": "k0"},
            "v": {"type": "number", "minimum": -10, "exclusiveMaximum": 10}}},
        {"type": "object", "properties": {"kind": {"type": "string", "const": "k1", "default": "k1"},
            "v": {"type": "integer"}}}
    ], "discriminator": {"propertyName": "kind"}}}});
    let original = tool_schemas::validator_2020(&schema).unwrap();
    let value = json!({"a": {"v": 42}});
    assert!(original.is_valid(&value));
    for name in ["openai-strict", "anthropic-strict", "gemini-json-schema"] {
        let adapted = SchemaOptions::new()
            .dialect(dialect::by_name(name).expect("built in"))
            .normalize(schema.clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let output = tool_schemas::validator_2020(adapted.as_value()).unwrap();
        let sent = adapted.plan().encode(value.clone());
        assert_eq!(sent["a"]["kind"], json!("k1"), "{name}: {sent}");
        assert!(output.is_valid(&sent), "{name}: {value} encodes to {sent}, which the output refuses");
        let back = adapted.restore(sent.clone()).unwrap_or_else(|e| panic!("{name}: {sent}: {e}"));
        assert!(original.is_valid(&back), "{name}: {sent} restores to {back}");
    }
}

// The same with members told apart by the other checks a provider may keep on a member's
// property (`multipleOf`, string and array lengths, key counts, unique items): a value that leaves
// out its tag is sent with the tag of the member whose provider schema takes it, under every
// dialect that accepts the schema.
#[test]
fn encode_sends_the_tag_of_the_member_a_tagless_value_fits_by_any_kept_check() {
    let cases = [
        (json!({"type": "integer", "multipleOf": 5}), json!({"type": "integer"}), json!(7)),
        (json!({"type": "string", "maxLength": 3}), json!({"type": "string"}), json!("abcdef")),
        (json!({"type": "string", "minLength": 4}), json!({"type": "string"}), json!("ab")),
        (
            json!({"type": "array", "items": {"type": "integer"}, "maxItems": 1}),
            json!({"type": "array", "items": {"type": "integer"}}),
            json!([1, 2, 3]),
        ),
        (
            json!({"type": "array", "items": {"type": "integer"}, "uniqueItems": true}),
            json!({"type": "array", "items": {"type": "integer"}}),
            json!([1, 1]),
        ),
    ];
    let mut checked = 0;
    for (first, second, v) in cases {
        let schema = json!({"type": "object", "properties": {"a": {"oneOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "k0", "default": "k0"}, "v": first}},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "k1", "default": "k1"}, "v": second}}
        ], "discriminator": {"propertyName": "kind"}}}});
        let original = tool_schemas::validator_2020(&schema).unwrap();
        let value = json!({"a": {"v": v}});
        assert!(original.is_valid(&value), "{value}");
        for &d in dialect::builtin() {
            let Ok(adapted) = SchemaOptions::new().dialect(d).normalize(schema.clone()) else { continue };
            let name = d.name();
            let output = tool_schemas::validator_2020(adapted.as_value()).unwrap();
            let sent = adapted.plan().encode(value.clone());
            assert!(output.is_valid(&sent), "{name}: {value} encodes to {sent}, which the output refuses");
            let back = adapted.restore(sent.clone()).unwrap_or_else(|e| panic!("{name}: {sent}: {e}"));
            assert!(original.is_valid(&back), "{name}: {sent} restores to {back}");
            checked += 1;
        }
    }
    assert!(checked >= 25, "{checked}");
}

// A member whose shared property is a closed object nested past OpenAI's 10 levels (its depths
// past them sent as JSON text), beside a member whose property is a union of objects:
// `{"v": {"n": 5}}` without its tag is the second member's (the first's objects have no `n`),
// so it is sent with the second member's tag (found by the 5,000-schema run under openai-strict).
#[test]
fn encode_sends_the_tag_of_the_member_a_tagless_value_fits_beside_a_cut() {
    for levels in [2, 11] {
        let mut deep = json!({"type": "string"});
        for _ in 0..levels {
            deep = json!({"type": "object", "properties": {"d": deep}, "required": ["d"], "additionalProperties": false});
        }
        deep.as_object_mut().unwrap().remove("required");
        let schema = json!({"type": "object", "properties": {"a": {"oneOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "k0", "default": "k0"}, "v": deep}},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "k1", "default": "k1"},
                "v": {"anyOf": [
                    {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]},
                    {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}]}}}
        ], "discriminator": {"propertyName": "kind"}}}, "required": []});
        let value = json!({"a": {"v": {"n": 5}}});
        assert!(tool_schemas::validator_2020(&schema).unwrap().is_valid(&value));
        for &d in dialect::builtin() {
            let Ok(adapted) = SchemaOptions::new().dialect(d).normalize(schema.clone()) else { continue };
            let name = d.name();
            let output = tool_schemas::validator_2020(adapted.as_value()).unwrap();
            let sent = adapted.plan().encode(value.clone());
            assert!(
                output.is_valid(&sent),
                "{name}, {levels} levels: {value} encodes to {sent}, which the output refuses"
            );
            let back = adapted.restore(sent.clone()).unwrap_or_else(|e| panic!("{name}: {sent}: {e}"));
            assert_eq!(back["a"]["v"], value["a"]["v"], "{name}, {levels} levels: {sent} restores to {back}");
        }
    }
}

// Law, over the corpus's pydantic schemas (`discriminated_union.json` among them) and the
// discriminated union whose members a format alone tells apart ([`tagged_by_format`]): every value
// the original accepts (read as JSON Schema reads it, formats as the code's readers read them, a
// tag with a default left out too) encodes to a value the dialect's own output accepts (formats
// read alike), under every dialect in both modes; and restore gives a value the original accepts.
#[test]
fn every_encoding_of_a_value_the_original_accepts_is_accepted_by_the_output_over_the_pydantic_corpus() {
    let Some(dir) = corpus_dir::find("pydantic") else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("pydantic"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json") && !p.to_string_lossy().contains(".serialization.")
        })
        .collect();
    files.sort();
    let mut schemas: Vec<(String, Value)> = files
        .iter()
        .filter_map(|path| {
            let raw = serde_json::from_str::<Value>(&std::fs::read_to_string(path).unwrap()).ok()?;
            Some((path.file_name().unwrap().to_string_lossy().into_owned(), raw))
        })
        .collect();
    schemas.push(("tagged_by_format".to_owned(), tagged_by_format()));
    let (mut values, mut failures) = (0usize, Vec::new());
    let mut tagless: Vec<(String, usize)> = Vec::new();
    for (label, raw) in &schemas {
        let Ok(original) = SchemaOptions::new().reject_any(false).normalize(raw.clone()) else { continue };
        let root = original.as_value();
        let Ok(plain) = tool_schemas::validator_2020(root) else { continue };
        let readers = tool_schemas::validator_2020(&tool_schemas::as_readers_read(root)).unwrap();
        let seed = label
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        let mut generator = Instances::new(root, seed).undeclared_keys(false);
        let accepted: Vec<Value> =
            (0..corpus_instances().1).map(|_| generator.value()).filter(|v| plain.is_valid(v)).collect();
        tagless.push((label.clone(), accepted.iter().filter(|v| !readers.is_valid(v)).count()));
        for &d in dialect::builtin() {
            for exact in [false, true] {
                let mode = format!("{}{}", d.name(), if exact { " exact" } else { "" });
                let options = SchemaOptions::new().reject_any(false).dialect(d).exact(exact);
                let Ok(adapted) = options.normalize(raw.clone()) else { continue };
                let output = if matches!(d.name(), "gemini" | "gemini-ordered") {
                    tool_schemas::validator_2020(&openapi_as_json_schema(adapted.as_value()))
                } else {
                    tool_schemas::validator_2020(adapted.as_value())
                }
                .unwrap();
                for v in &accepted {
                    values += 1;
                    let sent = adapted.plan().encode(v.clone());
                    if !output.is_valid(&sent) {
                        failures
                            .push(format!("{label} under `{mode}`: {v} encodes to {sent}, which it refuses"));
                        continue;
                    }
                    match adapted.restore(sent.clone()) {
                        Ok(back) if plain.is_valid(&back) => {}
                        other => failures.push(format!("{label} under `{mode}`: {v} -> {sent} -> {other:?}")),
                    }
                }
            }
        }
    }
    let total: usize = tagless.iter().map(|(_, n)| n).sum();
    println!("{values} encodings of {} schemas, {total} values without a discriminator's tag", schemas.len());
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
    // The law sees values that leave the tag out, of pydantic's discriminated union and of the
    // members told apart by a format.
    for name in ["discriminated_union.json", "tagged_by_format"] {
        let n = tagless.iter().find(|(l, _)| l == name).map_or(0, |(_, n)| *n);
        assert!(
            n > 0,
            "no generated value of {name} leaves out a discriminator's tag: the law would not see the case"
        );
    }
    assert!(values > 1_000, "too few encodings ({values}) for the law to mean much");
}

/// A schema under `anthropic-strict` with its restore plan.
fn anthropic(schema: &Value) -> toolschema::ToolSchema {
    SchemaOptions::new()
        .reject_any(false)
        .dialect(dialect::by_name("anthropic-strict").expect("built in"))
        .normalize(schema.clone())
        .unwrap()
}

// A property key Anthropic refuses (its API answers 400 for the whole request) is sent under a
// readable name that `required` follows, and restore, decode and the forward map map it back.
#[test]
fn a_property_key_anthropic_refuses_is_renamed_and_restored_exactly() {
    let schema = json!({"type": "object", "properties": {"filter[id]": {"type": "string"}}, "required": ["filter[id]"]});
    let adapted = anthropic(&schema);
    assert_eq!(
        adapted.as_value(),
        &json!({"type": "object", "properties": {"filter_id_": {"type": "string"}}, "required": ["filter_id_"],
                "additionalProperties": false})
    );
    let renamed: Vec<String> = adapted.plan().renamed_keys().iter().map(ToString::to_string).collect();
    assert_eq!(renamed, ["`filter[id]` -> `filter_id_` (at `/properties/filter[id]`)"]);
    let kinds: Vec<&str> = adapted.adaptations().iter().map(|a| a.kind.as_str()).collect();
    assert_eq!(kinds, ["renamed-key"]);
    let value = json!({"filter[id]": "42"});
    let sent = adapted.plan().encode(value.clone());
    assert_eq!(sent, json!({"filter_id_": "42"}));
    assert_eq!(adapted.restore(sent.clone()).unwrap(), value);
    assert_eq!(adapted.decode::<Value>(sent.clone()).unwrap(), value);
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Args {
        #[serde(rename = "filter[id]")]
        filter: String,
    }
    assert_eq!(adapted.decode::<Args>(sent).unwrap(), Args { filter: "42".into() });
    round_trips("anthropic-strict", &schema, &[value]);
    // The other providers take the key as it is.
    for name in ["openai-strict", "gemini", "gemini-json-schema"] {
        let d = dialect::by_name(name).unwrap();
        let out = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        assert!(out.plan().renamed_keys().is_empty(), "{name}");
        assert!(out.as_value().to_string().contains("filter[id]"), "{name}");
    }
}

#[test]
fn exact_mode_refuses_a_property_key_anthropic_refuses_naming_its_pointer() {
    // A nested object's keys pass as they are: the provider checks the top level only.
    let schema = json!({"type": "object", "properties": {
        "$top": {"type": "integer"},
        "n": {"type": "object", "properties": {"a b": {"type": "integer"}}, "required": ["a b"]},
    }, "required": ["$top", "n"]});
    let d = dialect::by_name("anthropic-strict").unwrap();
    let err = SchemaOptions::new().dialect(d).exact(true).normalize(schema).unwrap_err();
    let errors = err.capability_errors();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(errors[0].pointer(), "/properties/$top");
    assert_eq!(errors[0].keyword(), Some("properties"));
    let text = errors[0].to_string();
    assert!(text.contains("the property key `$top`") && text.contains("^[a-zA-Z0-9_.-]{1,64}$"), "{text}");
    assert!(text.contains("rename the property to a key of letters, digits"), "{text}");
}

// A readable name already taken by a key of the object, or one past 64 characters, ends in a
// hash; nested objects' keys, items' and definitions' stay as they are (the provider checks the
// top level only); `dependentRequired` and a presence rule are stated with the names the model
// sees and checked on the original ones.
#[test]
fn colliding_and_long_top_level_keys_are_renamed_apart_nested_ones_kept_and_rules_follow() {
    let long = "x".repeat(70);
    let schema = json!({
        "type": "object",
        "properties": {
            "a b": {"type": "string"},
            "a_b": {"type": "integer"},
            long.clone(): {"type": "boolean"},
            "list": {"type": "array", "items": {"$ref": "#/$defs/Row"}},
            "@x": {"type": "string"},
        },
        "dependentRequired": {"a b": ["@x"]},
        "anyOf": [{"required": ["a b"]}, {"required": [long.clone()]}],
        "$defs": {"Row": {"type": "object", "properties": {"Account Number": {"type": "string"}}, "required": ["Account Number"]}},
    });
    let adapted = anthropic(&schema);
    let out = adapted.as_value();
    let keys: Vec<&String> = out["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 5);
    let space = keys.iter().find(|k| k.starts_with("a_b_")).expect("`a b` renamed apart from `a_b`");
    assert_eq!(space.len(), 4 + 8);
    let cut = keys.iter().find(|k| k.starts_with("xxx")).unwrap();
    assert_eq!(cut.len(), 64);
    assert_eq!(&cut[..55], &long[..55]);
    assert!(keys.contains(&&"_x".to_owned()) && keys.contains(&&"a_b".to_owned()));
    assert_eq!(out["$defs"]["Row"]["required"], json!(["Account Number"]));
    let description = out["description"].as_str().unwrap();
    assert!(description.contains(&format!("with `{space}`, also `_x`")), "{description}");
    assert!(description.contains(&format!("at least one of `{space}`, `{cut}`")), "{description}");
    assert!(!description.contains("a b"), "{description}");
    let values = [
        json!({"a b": "s", "@x": "t", "a_b": 1, "list": [{"Account Number": "1"}]}),
        json!({long.clone(): true, "list": []}),
    ];
    round_trips("anthropic-strict", &schema, &values);
    // A rule broken under the sent names is a fault: `a b` without `@x`.
    let sent = json!({space.as_str(): "s", "a_b": 1});
    let err = adapted.restore(sent).unwrap_err().to_string();
    assert!(err.contains(&format!("must be with `{space}`, also `_x`, got no `_x`")), "{err}");
    let err = adapted.restore(json!({"a_b": 1})).unwrap_err().to_string();
    assert!(err.contains(&format!("must be at least one of `{space}`, `{cut}`, got keys `a_b`")), "{err}");
    // A fault below a renamed key names the key the model sent.
    let schema = json!({"type": "object", "properties": {"n[]": {"type": "integer", "minimum": 1}}, "required": ["n[]"]});
    let err = anthropic(&schema).restore(json!({"n__": 0})).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/n__");
}

// A discriminated union whose tag is a key Anthropic refuses (JSON-LD's `@type`), under a
// property: its keys are below the top level, which is all the provider checks, and stay as they
// are; the tag still tells the branches apart and each value comes back as it was sent.
#[test]
fn a_discriminator_tag_below_the_top_level_keeps_its_name() {
    let schema = json!({"type": "object", "properties": {"pet": {
        "oneOf": [
            {"type": "object", "properties": {"@type": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["@type"]},
            {"type": "object", "properties": {"@type": {"const": "dog"}, "good boy": {"type": "boolean"}}, "required": ["@type"]},
        ],
        "discriminator": {"propertyName": "@type"},
    }}, "required": ["pet"]});
    let adapted = anthropic(&schema);
    assert!(adapted.plan().renamed_keys().is_empty());
    let branches = adapted.as_value()["properties"]["pet"]["anyOf"].as_array().unwrap();
    for b in branches {
        assert_eq!(b["required"], json!(["@type"]), "{b}");
    }
    round_trips(
        "anthropic-strict",
        &schema,
        &[json!({"pet": {"@type": "cat", "lives": 9}}), json!({"pet": {"@type": "dog", "good boy": true}})],
    );
}

const EVERY_DIALECT: [&str; 7] = [
    "openai-strict",
    "anthropic-strict",
    "gemini",
    "gemini-json-schema",
    "mcp",
    "json-schema",
    "strict-subset",
];

// The MCP TypeScript SDK 1.x writes zod's `.optional().nullable()` as `anyOf: [{"not": {}}, X]`
// (inside the nullable union); every provider dialect refused it for the `not` it cannot write,
// though the member admits nothing and the union is just `X`. The same for `false`, an empty
// `enum` and an `allOf` of types with nothing in common.
#[test]
fn a_union_member_that_admits_nothing_is_dropped_before_every_dialect() {
    for never in [
        json!({"not": {}}),
        json!(false),
        json!({"enum": []}),
        json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
        json!({"type": "string", "const": 3}),
    ] {
        let schema = json!({"type": "object", "required": ["limit", "q"], "properties": {
            "q": {"type": "string"},
            "limit": {"anyOf": [{"anyOf": [never.clone(), {"type": "integer", "minimum": 1}]}, {"type": "null"}],
                "description": "at most this many"},
            "mode": {"oneOf": [never.clone(), {"type": "string", "enum": ["a", "b"]}]}}});
        let values = [
            json!({"q": "x", "limit": null}),
            json!({"q": "x", "limit": 3, "mode": "b"}),
            json!({"q": "x", "limit": null, "mode": "a"}),
        ];
        assert_eq!(sent_and_restored(&schema, &EVERY_DIALECT, &values), EVERY_DIALECT, "{never}");
        for name in EVERY_DIALECT {
            let d = dialect::by_name(name).expect("built in");
            let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
            assert!(!adapted.as_value().to_string().contains("\"not\""), "{name}: {}", adapted.as_value());
        }
    }
}

// What admits nothing where it stands is still refused, with the reason: a required property no
// arguments can satisfy.
#[test]
fn a_required_property_that_admits_nothing_is_refused_with_the_reason() {
    for (never, keyword, why) in [
        (json!({"not": {}}), "not", "`not` of a schema that admits every value"),
        (json!({"anyOf": [{"not": {}}, false]}), "anyOf", "every member of its `anyOf` admits no value"),
        (json!({"allOf": [{"type": "string"}, {"type": "integer"}]}), "allOf", "no type in common"),
    ] {
        let schema = json!({"type": "object", "required": ["gone"], "properties": {"gone": never}});
        for name in ["openai-strict", "anthropic-strict", "gemini", "gemini-json-schema"] {
            let d = dialect::by_name(name).expect("built in");
            let err = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap_err().to_string();
            assert!(
                err.contains("/properties/gone")
                    && err.contains(&format!("`{keyword}`"))
                    && err.contains("accepts no value")
                    && err.contains(why),
                "{name}: {err}"
            );
        }
    }
}

// A type list is a set: `["string", "null", "null"]` fails both metaschemas (`uniqueItems`), and
// VS Code's draft-07 check drops the tool. Every dialect writes each type once.
#[test]
fn a_repeated_type_name_is_written_once_in_every_dialect() {
    let schema = json!({"type": "object", "required": ["a"], "properties": {"a": {"type": ["string", "null", "null"]}}});
    let values = [json!({"a": "x"}), json!({"a": null})];
    assert_eq!(sent_and_restored(&schema, &EVERY_DIALECT, &values), EVERY_DIALECT);
    for name in ["mcp", "json-schema", "strict-subset"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        assert_eq!(adapted.as_value()["properties"]["a"]["type"], json!(["string", "null"]), "{name}");
    }
}

// Brave's search server (5 of its 8 tools): a string that is one of a list or matches a pattern.
// Anthropic keeps the pattern, and restore checks it too (Anthropic's SDKs move it into the
// description), so the branch that checks is told apart by restore itself: accepted, as with a
// `maxLength` in its place and under the other providers.
#[test]
fn a_string_union_that_keeps_a_pattern_is_sent_and_checked_on_restore() {
    let schema = json!({"type": "object", "required": ["q"], "properties": {
        "q": {"type": "string"},
        "freshness": {"anyOf": [{"type": "string", "enum": ["pd", "pw", "pm"]},
            {"type": "string", "pattern": "^\\d{4}-\\d{2}-\\d{2}to\\d{4}-\\d{2}-\\d{2}$"}]}}});
    let dialects =
        ["openai-strict", "anthropic-strict", "gemini", "gemini-json-schema", "mcp", "json-schema"];
    let values = [
        json!({"q": "x"}),
        json!({"q": "x", "freshness": "pw"}),
        json!({"q": "x", "freshness": "2022-04-01to2022-07-30"}),
    ];
    assert_eq!(sent_and_restored(&schema, &dialects, &values), dialects);
    let adapted = SchemaOptions::new()
        .dialect(dialect::by_name("anthropic-strict").expect("built in"))
        .normalize(schema)
        .unwrap();
    // A string neither branch takes is a fault, the pattern's.
    let err = adapted.restore(json!({"q": "x", "freshness": "last week"})).unwrap_err();
    assert!(err.faults()[0].pointer == "/freshness" && err.faults()[0].message.contains("pattern"), "{err}");
}

// A string beside an untyped object (8 of the 24 tools of Notion's MCP server; codemcp's
// `content: str | dict | list | None`): the object alone would be JSON text, a string like the
// string branch's. It is sent as the map of any values it is (a list of entries, or a map where
// the provider keeps maps); where an array branch is there too (`[]` would be both the empty map
// and the empty list), the whole union is sent as one JSON text, which restore parses. Exact
// both ways, a string that looks like JSON included.
#[test]
fn a_string_or_untyped_object_union_is_encoded_and_restored_exactly() {
    let dialects =
        ["openai-strict", "anthropic-strict", "gemini", "gemini-json-schema", "mcp", "json-schema"];
    let codemcp = json!({"type": "object", "required": ["content", "path"], "properties": {
        "path": {"type": "string"},
        "content": {"anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": true},
            {"type": "array", "items": {}}, {"type": "null"}], "description": "What to write"}}});
    let values = [
        json!({"path": "p", "content": "hello"}),
        json!({"path": "p", "content": "{\"a\": 1}"}),
        json!({"path": "p", "content": ""}),
        json!({"path": "p", "content": {"a": [1, "x"], "b": {"c": null}}}),
        json!({"path": "p", "content": {}}),
        json!({"path": "p", "content": [1, {"b": null}, "s"]}),
        json!({"path": "p", "content": []}),
        json!({"path": "p", "content": null}),
    ];
    assert_eq!(sent_and_restored(&codemcp, &dialects, &values), dialects);
    for name in ["openai-strict", "anthropic-strict", "gemini"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(codemcp.clone()).unwrap();
        assert_eq!(
            adapted.as_value()["properties"]["content"]["description"],
            json!(
                "What to write. Written as a string holding the JSON text of an object, an array or a string."
            ),
            "{name}"
        );
        // Text that is no JSON, or JSON of no branch's type, is a fault.
        for bad in [json!({"path": "p", "content": "hello"}), json!({"path": "p", "content": "3"})] {
            assert!(adapted.restore(bad.clone()).is_err(), "{name}: {bad}");
        }
    }
    // Notion's: a string (an enum of them, or one with a bound), or any object; also as a `type` list.
    for parent in [
        json!({"anyOf": [{"type": "string", "maxLength": 40}, {"type": "object"}]}),
        json!({"anyOf": [{"type": "string", "enum": ["workspace"]}, {"type": "object", "additionalProperties": true}]}),
        json!({"type": ["string", "object"], "maxLength": 40}),
    ] {
        let schema = json!({"type": "object", "required": ["parent"], "properties": {"parent": parent}});
        let values = [
            json!({"parent": "workspace"}),
            json!({"parent": {"page_id": "x", "n": [2]}}),
            json!({"parent": {}}),
        ];
        assert_eq!(sent_and_restored(&schema, &dialects, &values), dialects, "{schema}");
    }
    // In exact mode the rewrites are refused, naming the union's place.
    let d = dialect::by_name("openai-strict").expect("built in");
    let err = SchemaOptions::new().dialect(d).exact(true).normalize(codemcp).unwrap_err().to_string();
    assert!(err.contains("/properties/content"), "{err}");
}

// Every format restore checks has strings in the generator's table, each of that format, so the
// restore laws send valid ones where the schema names it (a string of another shape would be a
// fault, rightly: the code's reader refuses it).
#[test]
fn the_generator_draws_a_string_of_every_format_restore_checks() {
    for name in toolschema::restore::Format::names() {
        let (_, examples) = tool_schemas::FORMATS
            .iter()
            .find(|(f, _)| *f == name)
            .unwrap_or_else(|| panic!("no strings of format `{name}` in tool_schemas::FORMATS"));
        let check = toolschema::restore::Format::from_name(name).unwrap();
        for e in *examples {
            assert!(check.accepts(e), "`{name}`: {e}");
        }
    }
}

// A pydantic `date` field, which Gemini's `Schema` proto cannot say (it knows only `date-time`
// and `enum`): the description states it, and restore refuses `""` naming the field, as the
// Python package's `ArgumentsError` does; a date passes.
#[test]
fn a_date_gemini_drops_is_stated_and_checked_by_restore() {
    let schema = json!({"type": "object", "properties": {"day": {"type": "string", "format": "date", "title": "Day"}},
        "required": ["day"]});
    for name in ["gemini", "gemini-ordered", "anthropic-strict", "openai-strict", "json-schema", "mcp"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        let day = &adapted.as_value()["properties"]["day"];
        if name.starts_with("gemini") {
            assert_eq!(
                day,
                &json!({"type": "string", "description": "Constraints: a `date` (YYYY-MM-DD)."}),
                "{name}"
            );
            let kinds: Vec<String> = adapted.adaptations().iter().map(ToString::to_string).collect();
            assert!(kinds.contains(&"`format` at `/properties/day`: moved-check".to_owned()), "{kinds:?}");
        }
        let err = adapted.restore(json!({"day": ""})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the arguments do not fit the tool's schema:\n- `/day`: must be a `date` (YYYY-MM-DD), got \"\"",
            "{name}"
        );
        round_trips(name, &schema, &[json!({"day": "2024-02-29"})]);
    }
}

// Under a dialect that keeps the schema (a format an annotation in draft 2020-12), a union whose
// branches differ only in a format: the value passes where one branch takes it, and is refused
// where none does.
#[test]
fn a_union_with_a_formatted_branch_passes_a_value_another_branch_takes() {
    let schema = json!({"type": "object", "properties": {
        "when": {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "maxLength": 3}]},
        "at": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}]}
    }});
    for name in ["json-schema", "strict-subset", "inline-refs", "mcp", "mcp-self-contained"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
        for ok in [
            json!({"when": "2024-01-02"}),
            json!({"when": "abc"}),
            json!({"at": 5}),
            json!({"at": "2024-01-02T00:00:00Z"}),
        ] {
            assert_eq!(adapted.restore(ok.clone()).map_err(|e| e.to_string()), Ok(ok.clone()), "{name}");
            assert_eq!(adapted.decode::<Value>(ok.clone()).map_err(|e| e.to_string()), Ok(ok), "{name}");
        }
        let err = adapted.restore(json!({"at": "noon"})).unwrap_err();
        assert_eq!(err.faults()[0].pointer, "/at", "{name}");
        assert!(err.to_string().contains("`date-time`"), "{name}: {err}");
        // decode gives restore's fault.
        let decoded = adapted.decode::<Value>(json!({"at": "noon"})).unwrap_err();
        assert_eq!(decoded.to_string(), err.to_string(), "{name}");
    }
}

// A `true` branch beside a formatted one: the value only `true` takes (a string of another shape
// under `oneOf`) passes as it is; restore judged it by the formatted branch, the only one it saw.
#[test]
fn a_true_branch_beside_a_formatted_one_passes_a_value_only_it_takes() {
    let schema = json!({"type": "object", "properties": {
        "a": {"oneOf": [true, {"type": "string", "format": "date-time"}]},
        "b": {"anyOf": [{"type": "string", "format": "date"}, true]}
    }});
    for name in ["json-schema", "strict-subset", "inline-refs", "mcp", "mcp-self-contained"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(schema.clone()).unwrap();
        for ok in [json!({"a": "x"}), json!({"a": 5}), json!({"b": "x"}), json!({"b": "2024-01-02"})] {
            assert_eq!(adapted.restore(ok.clone()).map_err(|e| e.to_string()), Ok(ok.clone()), "{name}");
            assert_eq!(adapted.decode::<Value>(ok.clone()).map_err(|e| e.to_string()), Ok(ok), "{name}");
        }
    }
}

// A union of a format the provider drops beside one it keeps (`IpAddr | Uuid`, untagged, under
// OpenAI: `ip` dropped, `uuid` kept): restore could not check what the provider enforced in the
// other branch, so the dropped format stays an annotation (stated, not checked) rather than the
// union being refused; a value of either branch passes.
#[test]
fn a_dropped_format_beside_a_kept_one_in_a_union_stays_an_annotation_rather_than_refusing_it() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "string", "format": "ip"}, {"type": "string", "format": "uuid"}
    ]}}, "required": ["a"]});
    for name in ["openai-strict", "openai-agents-mcp", "anthropic-strict"] {
        let d = dialect::by_name(name).expect("built in");
        let adapted = SchemaOptions::new()
            .dialect(d)
            .normalize(schema.clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        round_trips(
            name,
            &schema,
            &[json!({"a": "::1"}), json!({"a": "123e4567-e89b-12d3-a456-426614174000"})],
        );
        assert!(adapted.restore(json!({"a": "ab"})).is_ok(), "{name}");
    }
    // Where no branch keeps its format, restore tries both and refuses a value neither takes.
    let gemini = SchemaOptions::new().dialect(dialect::by_name("gemini").unwrap()).normalize(schema).unwrap();
    assert_eq!(gemini.restore(json!({"a": "ab"})).unwrap_err().faults()[0].pointer, "/a");
}

/// Whether `e` is one of the count limits a provider dialect folds past (not the nesting depth).
fn is_count_limit(e: &toolschema::CapabilityError) -> bool {
    matches!(e, toolschema::CapabilityError::LimitExceeded { limit, .. }
        if limit.contains("optional properties")
            || limit.contains("`anyOf` or a type array")
            || limit.starts_with("object properties in total")
            || limit.starts_with("enum values in total"))
}

// Past a provider's count limits the last declared properties are folded into one property of
// JSON text: no corpus schema is refused for counts alone in reversible mode (exact mode still
// refuses), and each folded one sends and restores its generated values exactly.
#[test]
fn no_corpus_schema_is_refused_for_counts_alone_and_each_folded_one_round_trips() {
    let schemas = corpus_schemas();
    if schemas.is_empty() {
        return;
    }
    let mut folded = Vec::new();
    for (label, raw) in &schemas {
        let Ok(original) = SchemaOptions::new().reject_any(false).normalize(raw.clone()) else { continue };
        for d in providers() {
            let options = SchemaOptions::new().reject_any(false).dialect(d);
            match options.normalize(raw.clone()) {
                Err(e) => {
                    let errors = e.capability_errors();
                    assert!(
                        errors.is_empty() || !errors.iter().all(is_count_limit),
                        "{label} under {}: refused for counts alone: {e}",
                        d.name()
                    );
                }
                Ok(adapted) if adapted.adaptations().iter().any(|a| a.kind.as_str() == "folded") => {
                    let exact = options.clone().exact(true).normalize(raw.clone());
                    assert!(exact.is_err(), "{label} under {}: exact mode folds", d.name());
                    let root = original.as_value();
                    let check = tool_schemas::validator_2020(&tool_schemas::as_readers_read(root)).unwrap();
                    let mut generator = Instances::new(root, 7).undeclared_keys(false);
                    let values: Vec<Value> =
                        (0..64).map(|_| generator.value()).filter(|v| check.is_valid(v)).take(16).collect();
                    assert!(!values.is_empty(), "{label}: no generated value is valid");
                    // Values that hold the folded properties, so the fold is exercised.
                    assert!(
                        values.iter().any(|v| adapted.plan().encode(v.clone()) != *v),
                        "{label} under {}: no value sends a folded property",
                        d.name()
                    );
                    round_trips(d.name(), root, &values);
                    folded.push(format!("{label} under {}", d.name()));
                }
                Ok(_) => {}
            }
        }
    }
    assert!(
        folded.iter().any(|f| f == "pydantic/wide_model_60.json under anthropic-strict"),
        "folded: {folded:?}"
    );
}

// `wide_model_60` (42 optional properties) under anthropic-strict: the last declared 19 folded
// into one optional property, 24 optional in all; a folded property's fault points at it.
#[test]
fn a_wide_model_past_anthropics_optional_limit_is_folded_and_its_faults_name_the_original_property() {
    let Some(dir) = corpus() else { return };
    let text = std::fs::read_to_string(dir.join("pydantic/wide_model_60.json")).unwrap();
    let raw: Value = serde_json::from_str(&text).unwrap();
    let d = dialect::by_name("anthropic-strict").unwrap();
    let adapted = SchemaOptions::new().reject_any(false).dialect(d).normalize(raw).unwrap();
    let required = adapted.as_value()["required"].as_array().unwrap();
    // Optional properties over every object of the schema, as Anthropic counts them.
    fn optional(v: &Value) -> usize {
        match v {
            Value::Object(m) => {
                let own = m.get("properties").and_then(Value::as_object).map_or(0, |p| {
                    let req = m.get("required").and_then(Value::as_array);
                    p.keys().filter(|k| !req.is_some_and(|r| r.iter().any(|x| x == *k))).count()
                });
                own + m
                    .iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "enum" | "const" | "default"))
                    .map(|(_, v)| optional(v))
                    .sum::<usize>()
            }
            Value::Array(xs) => xs.iter().map(optional).sum(),
            _ => 0,
        }
    }
    assert_eq!(optional(adapted.as_value()), 24);
    assert_eq!(adapted.as_value()["properties"]["more_properties"]["type"], "string");
    let folded: Vec<&str> = adapted
        .adaptations()
        .iter()
        .filter(|a| a.kind.as_str() == "folded")
        .map(|a| a.pointer.as_str())
        .collect();
    assert_eq!(folded.len(), 19, "{folded:?}");
    assert_eq!(folded.last(), Some(&"/properties/field_59"));
    let name = folded[0].trim_start_matches("/properties/");
    let sent = json!({"more_properties": json!({name: {"no": "such shape"}}).to_string()});
    let mut args = adapted.plan().encode(json!({}));
    for k in required.iter().filter_map(Value::as_str) {
        args[k] = json!(null);
    }
    args["more_properties"] = sent["more_properties"].clone();
    let err = adapted.restore(args).unwrap_err();
    assert!(err.faults().iter().any(|f| f.pointer.starts_with(&format!("/{name}"))), "{err}");
}

// A union whose branch checks what the provider does not enforce (a `pattern`) beside a branch
// whose shape is not exact (a union of other types) and an object the checking branch overlaps:
// restore tries the overlapping branches in turn, and the inexact branch, which no checking
// branch's shape meets, cannot take their values. Refused before, and so was anthropic-strict's
// own output of such a map value, adapted again (found by the 5,000-schema run of the restore
// laws).
#[test]
fn an_inexact_branch_apart_from_the_checking_ones_leaves_the_union_accepted() {
    let schema = json!({"type": "object", "required": ["v"], "properties": {"v": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}, "additionalProperties": false},
        {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        {"type": "object", "properties": {}, "additionalProperties": false}
    ]}}});
    let anthropic = dialect::by_name("anthropic-strict").expect("built in");
    let options = SchemaOptions::new().dialect(anthropic);
    let adapted = options.normalize(schema.clone()).unwrap_or_else(|e| panic!("{e}"));
    let again = options.normalize(adapted.as_value().clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.as_value(), adapted.as_value());
    for v in [json!({"v": {"a": "xy"}}), json!({"v": {}}), json!({"v": "s"}), json!({"v": 3})] {
        assert_eq!(adapted.restore(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}")), v);
    }
    let err = adapted.restore(json!({"v": {"a": "y"}})).unwrap_err();
    assert!(err.faults()[0].pointer == "/v/a" && err.faults()[0].message.contains("pattern"), "{err}");
    // The map value the 5,000-schema run drew, through anthropic-strict's output adapted again.
    let map = json!({"type": "object", "additionalProperties": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string", "pattern": "^$|^\\S+@\\S+$"}}},
        {"anyOf": [{"type": "string"}, {"type": "object"}]},
        {"type": "object", "properties": {}, "additionalProperties": false}
    ]}});
    let opts = SchemaOptions::new().reject_any(false).dialect(anthropic);
    let once = opts.normalize(map).unwrap_or_else(|e| panic!("{e}"));
    let twice = opts.normalize(once.as_value().clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(twice.as_value(), once.as_value());
}

// A string union whose first branch keeps a `pattern` (which anthropic-strict leaves to restore)
// beside `["string", "null"]`, written `anyOf` in the output: the output, adapted again, reads
// that union as the exact form it is (a value fits it where it is a string or null) and is
// accepted as it is; restore takes a string that breaks the pattern through the second branch
// (found by the 5,000-schema run of the restore laws).
#[test]
fn a_type_list_written_as_a_union_is_an_exact_branch_when_adapted_again() {
    let schema = json!({"type": "object", "properties": {"a": {"anyOf": [
        {"type": "string", "pattern": "^[a-z]+$"}, {"type": ["string", "null"]}
    ]}}});
    let anthropic = dialect::by_name("anthropic-strict").expect("built in");
    let options = SchemaOptions::new().dialect(anthropic);
    let adapted = options.normalize(schema.clone()).unwrap_or_else(|e| panic!("{e}"));
    let again = options.normalize(adapted.as_value().clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.as_value(), adapted.as_value());
    for v in [json!({"a": "abc"}), json!({"a": "ABC"}), json!({"a": null}), json!({})] {
        assert_eq!(adapted.restore(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}")), v);
        assert_eq!(again.restore(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}")), v);
    }
}
