#![allow(clippy::pedantic)]
//! The dialects over the shared type zoo and hostile inputs.
//!
//! - Golden outputs: `fixtures/dialects/<dialect>/<zoo type>.json` holds, for every built-in
//!   dialect and every zoo type, either `{"hash", "schema"}` or `{"errors": [...]}` (every
//!   capability error, with pointer, field, keyword and message). `BLESS=1 cargo test --test
//!   dialects` rewrites them; review the diff.
//! - Soundness and tightness properties over every zoo type and every dialect whose output is JSON
//!   Schema (all but the Gemini ones, whose `nullable` is OpenAPI).
//! - Hashes, user dialects, choosing a dialect by name, and the hostile doubling graphs.

use crate::bless;
use crate::corpus_dir;
use crate::prop_run;
use crate::work;
use crate::zoo;

use work::nodes;
use zoo::{openapi_as_json_schema, without_null_keys};

use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolschema::dialect::{self, AdaptContext};
use toolschema::{CapabilityError, Error, SchemaDialect, SchemaOptions};

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/dialects")
}

/// Every built-in dialect but the default one (whose goldens are `fixtures/golden`).
fn dialects() -> impl Iterator<Item = &'static dyn SchemaDialect> {
    dialect::builtin().iter().copied().filter(|d| d.name() != "json-schema")
}

fn error_json(e: &CapabilityError) -> Value {
    json!({
        "field": e.field(),
        "keyword": e.keyword(),
        "message": e.to_string(),
        "pointer": e.pointer(),
    })
}

/// What a dialect gives for a zoo type, as the golden file holds it.
fn outcome(entry: &zoo::ZooEntry, d: &'static dyn SchemaDialect) -> Value {
    match (entry.schema)(&SchemaOptions::new().dialect(d)) {
        Ok(s) => json!({"hash": s.hash().to_string(), "schema": s.as_value()}),
        Err(Error::Capability(errors)) => {
            json!({"errors": errors.as_slice().iter().map(error_json).collect::<Vec<_>>()})
        }
        Err(other) => json!({"generation_error": other.to_string()}),
    }
}

/// Rebuilds every map in key order, so the file is the same with and without `preserve_order`.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<_> = m.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect::<Map<_, _>>())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

#[test]
fn every_dialect_gives_every_zoo_type_its_golden_schema_or_its_exact_errors() {
    let mut blessed = bless::blessing().then(|| bless::Blessing::new("dialects"));
    let mut missing = Vec::new();
    let mut count = 0;
    for d in dialects() {
        for entry in zoo::ZOO {
            let path = fixture_dir().join(d.name()).join(format!("{}.json", entry.name));
            let got = format!("{:#}\n", sorted(&outcome(entry, d)));
            count += 1;
            if let Some(blessed) = &mut blessed {
                blessed.write(&path, &got);
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) => assert_eq!(want, got, "{} under `{}` ({})", entry.name, d.name(), path.display()),
                Err(_) => missing.push(path.display().to_string()),
            }
        }
    }
    assert!(missing.is_empty(), "missing goldens (run with BLESS=1): {missing:#?}");
    assert_eq!(count, (dialect::builtin().len() - 1) * zoo::ZOO.len());
}

/// The dialects whose every object schema is closed with `additionalProperties: false` (OpenAI's
/// and Anthropic's strict modes refuse a tool with an open one).
const CLOSING: [&str; 3] = ["openai-strict", "openai-agents-mcp", "anthropic-strict"];

/// Every object schema of a dialect's output (a subschema with `type: object` or `properties`)
/// that is not closed with `additionalProperties: false`, or (OpenAI) whose `required` does not
/// list every property; by pointer. Values (`enum`, `const`, `default`, `examples`) are not
/// schemas and are skipped.
fn open_objects(v: &Value, ptr: &str, every_property_required: bool, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let is_object = m.get("type").is_some_and(|t| t == "object") || m.contains_key("properties");
            if is_object && m.get("additionalProperties") != Some(&Value::Bool(false)) {
                out.push(format!("{ptr}: open"));
            }
            if is_object && every_property_required {
                let props = m.get("properties").and_then(Value::as_object);
                let required = m.get("required").and_then(Value::as_array);
                let all = props.is_none_or(|p| {
                    p.keys().all(|k| required.is_some_and(|r| r.iter().any(|x| x == k.as_str())))
                });
                if !all {
                    out.push(format!("{ptr}: a property is not required"));
                }
            }
            for (k, child) in m {
                if matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                    continue;
                }
                // The keys of `properties`, `$defs` are names; their values are schemas.
                open_objects(child, &format!("{ptr}/{k}"), every_property_required, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                open_objects(item, &format!("{ptr}/{i}"), every_property_required, out);
            }
        }
        _ => {}
    }
}

// Law: the closing provider dialects close every object they write, wherever it stands: under
// array items (inline, not only through `$defs`), nested arrays, tuple members, union branches
// under items, a map's values; for every zoo type and for foreign schemas that put objects inline
// where the zoo puts references.
#[test]
fn the_closing_dialects_close_every_object_wherever_it_stands() {
    let object = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"]});
    let foreign = [
        json!({"type": "object", "properties": {"list": {"type": "array", "items": object}}}),
        json!({"type": "object", "properties": {"grid": {"type": "array",
            "items": {"type": "array", "items": object}}}, "required": ["grid"]}),
        json!({"type": "object", "properties": {"either": {"type": "array",
            "items": {"anyOf": [object, {"type": "string"}]}}}, "required": ["either"]}),
        json!({"type": "object", "properties": {"pair": {"type": "array",
            "prefixItems": [object, object], "items": false, "minItems": 2}}, "required": ["pair"]}),
        json!({"type": "object", "properties": {"map": {"type": "object",
            "additionalProperties": object}}, "required": ["map"]}),
        json!({"type": "object", "properties": {"deep": {"type": "object", "properties": {
            "list": {"type": "array", "items": object}}, "required": ["list"]}}, "required": ["deep"]}),
    ];
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in CLOSING {
        let d = dialect::by_name(name).expect("built in");
        let every_property_required = name != "anthropic-strict";
        for exact in [false, true] {
            let options = SchemaOptions::new().dialect(d).exact(exact);
            for (i, schema) in foreign.iter().enumerate() {
                match options.normalize(schema.clone()) {
                    Ok(out) => {
                        checked += 1;
                        let mut open = Vec::new();
                        open_objects(out.as_value(), "", every_property_required, &mut open);
                        if !open.is_empty() {
                            failures.push(format!(
                                "{name} (exact: {exact}), schema {i}: {open:?}
{}",
                                out.as_value()
                            ));
                        }
                    }
                    Err(e) if exact => drop(e),
                    Err(e) => failures.push(format!("{name}: schema {i} refused: {e}")),
                }
            }
            for entry in zoo::ZOO {
                if let Ok(out) = (entry.schema)(&options) {
                    checked += 1;
                    let mut open = Vec::new();
                    open_objects(out.as_value(), "", every_property_required, &mut open);
                    if !open.is_empty() {
                        failures.push(format!("{name} (exact: {exact}), {}: {open:?}", entry.name));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert!(checked > CLOSING.len() * foreign.len(), "only {checked} outputs checked");
}

/// A validator for a dialect's output: JSON Schema as it is, Gemini's OpenAPI `nullable` (`gemini`,
/// `gemini-ordered`) read as the JSON Schema it stands for.
fn output_validator(d: &dyn SchemaDialect, schema: &Value) -> jsonschema::Validator {
    if matches!(d.name(), "gemini" | "gemini-ordered") {
        zoo::validator(&openapi_as_json_schema(schema))
    } else {
        zoo::validator(schema)
    }
}

// Law (completeness): every serialised value v of a zoo type can be sent under every dialect
// that accepts the type: its encoding v' (`RestorePlan::encode`) is accepted by the dialect's
// output, and restore(v') is v again (null and absent alike, as serde reads them) and
// deserialises into the type.
#[test]
fn every_value_of_every_zoo_type_can_be_sent_under_every_dialect_and_restores_to_itself() {
    let seeds = prop_run::Seeds::new(file!(), "completeness");
    for seed in seeds.all() {
        let failures = completeness(seed);
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

/// The completeness law on `PROPTEST_CASES` values of every zoo type drawn from `seed`, under every
/// dialect in both modes; what fails. Each value also goes through `ToolSchema::decode` into the
/// Rust type.
fn completeness(seed: u64) -> Vec<String> {
    let cases = proptest_cases();
    let mut failures = Vec::new();
    let reach = prop_run::Reach::new();
    for d in dialects() {
        for exact in [false, true] {
            let label = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            for entry in zoo::ZOO {
                let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d).exact(exact)) else {
                    reach.count(&label, false);
                    continue;
                };
                reach.count(&label, true);
                let validator = output_validator(d, schema.as_value());
                for value in (entry.samples)(seed ^ entry.name.len() as u64, cases) {
                    let sent = schema.plan().encode(value.clone());
                    if !validator.is_valid(&sent) {
                        failures.push(format!(
                            "{} under `{}` refuses {sent} (encoding {value})",
                            entry.name,
                            d.name()
                        ));
                        continue;
                    }
                    if let Err(e) = (entry.decode)(&schema, sent.clone()) {
                        failures.push(format!(
                            "{} under `{label}`: decode of {sent} ({value}) refused: {e}",
                            entry.name
                        ));
                    }
                    match schema.restore(sent.clone()) {
                        Ok(back)
                            if without_null_keys(&back) == without_null_keys(&value)
                                && (entry.deserializes)(&back) => {}
                        Ok(back) => failures.push(format!(
                            "{} under `{}`: {value} -> {sent} -> {back}",
                            entry.name,
                            d.name()
                        )),
                        Err(e) => failures.push(format!(
                            "{} under `{}`: {value} -> {sent} refused: {e}",
                            entry.name,
                            d.name()
                        )),
                    }
                }
            }
        }
    }
    // Every dialect builds most zoo types (the rest are refused with their exact errors, in the
    // goldens). Exact mode refuses what restore would undo: under anthropic-strict every bound
    // (every Rust integer has one), so two zoo types are left; at least one must be.
    let reversible: Vec<&str> = dialects().map(|d| d.name()).collect();
    reach.finish("completeness: zoo types built", &reversible, COMPLETENESS_FLOOR);
    let exact: Vec<String> = dialects().map(|d| format!("{} exact", d.name())).collect();
    let exact: Vec<&str> = exact.iter().map(String::as_str).collect();
    reach.finish("completeness: zoo types built in exact mode", &exact, 1.0 / zoo::ZOO.len() as f64);
    failures
}

/// The share of zoo types each dialect must build for the completeness law to count.
const COMPLETENESS_FLOOR: f64 = 0.5;

// Law (end-to-end soundness): a mutated value (key dropped, key added, leaf retyped or nulled,
// array resized) that a dialect's output accepts either is refused by restore, or restores to a
// value the original schema accepts and that deserialises into the type.
#[test]
fn every_mutant_a_dialect_output_accepts_restores_to_what_the_type_reads_or_is_refused() {
    let seeds = prop_run::Seeds::new(file!(), "soundness");
    for seed in seeds.all() {
        let failures = soundness(seed);
        if !failures.is_empty() {
            seeds.keep(seed);
        }
        assert!(
            failures.is_empty(),
            "seed {seed}: {} failures, first: {:#?}",
            failures.len(),
            &failures[..failures.len().min(20)]
        );
    }
}

/// The soundness law on the mutants of `PROPTEST_CASES` values of every zoo type drawn from
/// `seed`, under every dialect; what fails.
fn soundness(seed: u64) -> Vec<String> {
    soundness_with(seed, proptest_cases(), |_| true, &|_, schema, mutant| schema.restore(mutant).ok())
}

/// How a run of the soundness law restores an accepted mutant of a zoo type (named): the value
/// it gives back, or `None` for a refusal. The law's tests pass the real restore; its own checks
/// are shown failing on broken ones.
type RestoreFn<'a> = &'a dyn Fn(&str, &toolschema::ToolSchema, Value) -> Option<Value>;

/// The soundness law on the mutants of `cases` values of each zoo type `types` takes, drawn from
/// `seed`, under every dialect, each accepted mutant restored with `restore`; what fails: the law
/// itself, and its checks on its own reach (restore refusing no mutant, a dialect whose output
/// accepts too few mutants, restore giving back too few of the accepted ones, more values at a
/// type's own boundary than the cap).
fn soundness_with(
    seed: u64,
    cases: usize,
    types: impl Fn(&str) -> bool,
    restore: RestoreFn<'_>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let (mut accepted, mut refused, mut boundary) = (0usize, 0usize, 0usize);
    let reach = prop_run::Reach::new();
    let restored = prop_run::Reach::new();
    let mut boundary_types = std::collections::BTreeMap::<&str, usize>::new();
    for d in dialects() {
        for entry in zoo::ZOO.iter().filter(|e| types(e.name)) {
            let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d)) else { continue };
            let Ok(original) = (entry.schema)(&SchemaOptions::new()) else { continue };
            let validator = output_validator(d, schema.as_value());
            let original = zoo::validator(original.as_value());
            for value in (entry.samples)(seed.rotate_left(7) ^ entry.name.len() as u64, cases) {
                for mutant in zoo::mutants(&schema.plan().encode(value)) {
                    let judged = validator.is_valid(&mutant);
                    reach.count(d.name(), judged);
                    if !judged {
                        continue;
                    }
                    accepted += 1;
                    let back = restore(entry.name, &schema, mutant.clone());
                    restored.count(d.name(), back.is_some());
                    match back {
                        None => refused += 1,
                        Some(back) if original.is_valid(&back) && (entry.deserializes)(&back) => {}
                        // The original schema accepts it and serde does not: a gap of the type's
                        // own schema (README, "Guarantees": a `char` key schemars writes as a
                        // string), the same in every dialect, not one restore opened. Only the
                        // types known to have such a gap, and only so often.
                        Some(back) if original.is_valid(&back) && BOUNDARY_TYPES.contains(&entry.name) => {
                            boundary += 1;
                            *boundary_types.entry(entry.name).or_default() += 1;
                        }
                        Some(back) if original.is_valid(&back) => failures.push(format!(
                            "{} under `{}` accepts {mutant}, restored to {back}, which the original accepts and \
                             serde refuses: a type with no known gap between its schema and serde",
                            entry.name,
                            d.name()
                        )),
                        Some(back) => failures.push(format!(
                            "{} under `{}` accepts {mutant}, restored to {back}, which the original refuses",
                            entry.name,
                            d.name()
                        )),
                    }
                }
            }
        }
    }
    if refused == 0 {
        failures.push("restore refused no mutant: its checks were never exercised".to_owned());
    }
    println!(
        "{accepted} mutants accepted, {refused} refused by restore, {boundary} at the type's own boundary"
    );
    // Most mutants are refused by the output (that is its job); the law is about the rest, and
    // under every dialect some must reach it.
    let names: Vec<&str> = dialects().map(|d| d.name()).collect();
    failures.extend(reach.shortfall("soundness: mutants the output accepts", &names, SOUNDNESS_FLOOR));
    // A restore that refused everything would pass the law: most accepted mutants must restore.
    failures.extend(restored.shortfall(
        "soundness: accepted mutants restore gives back",
        &names,
        RESTORED_FLOOR,
    ));
    // Tolerated gaps stay few: a law that let any type's serde refusal through would pass a
    // restore that writes values serde cannot read.
    println!("at the type's own boundary: {boundary_types:?}");
    if boundary * BOUNDARY_CAP_DIVISOR > accepted {
        failures.push(format!(
            "{boundary} of {accepted} accepted mutants at the type's own boundary (more than 1 in \
             {BOUNDARY_CAP_DIVISOR}): {boundary_types:?}"
        ));
    }
    failures
}

// The soundness law's own checks fail on a broken restore: the cap on values at a type's own
// boundary (a restore that gives back, for every mutant of `adjacent_enum`, a unit variant with
// content: the original accepts it, serde refuses it), and the floor on mutants restore gives
// back (a restore that refuses everything, which the law alone would pass). The same run with
// the real restore passes, so what fails is the broken restore, not the subset.
#[test]
fn the_soundness_law_fails_on_a_restore_that_breaks_its_cap_or_its_floor() {
    let seed = prop_run::seed();
    let types = |name: &str| matches!(name, "adjacent_enum" | "maps" | "itinerary");
    let real = soundness_with(seed, 6, types, &|_, schema, mutant| schema.restore(mutant).ok());
    assert!(real.is_empty(), "the real restore fails the law on the subset: {real:#?}");

    let unit_with_content: RestoreFn<'_> = &|name, schema, mutant| match name {
        "adjacent_enum" => Some(json!({"t": "Ping", "c": 5})),
        _ => schema.restore(mutant).ok(),
    };
    let found = soundness_with(seed, 6, types, unit_with_content);
    assert!(
        found.iter().any(|f| f.contains("at the type's own boundary (more than 1 in")),
        "the boundary cap let a restore through that gives a value serde refuses for every mutant: {found:#?}"
    );

    let refuses_all: RestoreFn<'_> = &|_, _, _| None;
    let found = soundness_with(seed, 6, types, refuses_all);
    assert!(
        found
            .iter()
            .any(|f| f.contains("accepted mutants restore gives back: too few cases reached the law")),
        "the floor on mutants restore gives back let a restore through that refuses everything: {found:#?}"
    );
}

/// The share of mutants each dialect's output must accept for the soundness law to count.
const SOUNDNESS_FLOOR: f64 = 0.02;

/// The share of accepted mutants restore must give back (not refuse), per dialect: the lowest
/// measured is anthropic-strict's 66% (8,305 of 12,581 on one seed; strict-subset, inline-refs
/// and the MCP dialects give back every one).
const RESTORED_FLOOR: f64 = 0.5;

/// The zoo types whose schema accepts values serde refuses (docs/guarantees.md: an adjacently
/// tagged unit variant with content), the only ones the soundness law lets restore give such a
/// value back for; and at most one accepted mutant in `BOUNDARY_CAP_DIVISOR` may be one (none
/// was of 110,013 on one seed).
const BOUNDARY_TYPES: &[&str] = &["adjacent_enum"];
const BOUNDARY_CAP_DIVISOR: usize = 100;

fn proptest_cases() -> usize {
    prop_run::cases(24) as usize
}

/// A user dialect that changes nothing.
struct Identity;
impl SchemaDialect for Identity {
    fn name(&self) -> &str {
        "identity"
    }
}
static IDENTITY: Identity = Identity;

#[test]
fn hashes_differ_between_dialects_even_when_the_schema_is_the_same() {
    let entry = zoo::entry("itinerary").expect("the zoo has `itinerary`, a struct of nested structs");
    let identity = (entry.schema)(&SchemaOptions::new().dialect(&IDENTITY)).unwrap();
    let default = (entry.schema)(&SchemaOptions::new()).unwrap();
    assert_eq!(identity.as_value(), default.as_value());
    assert_ne!(identity.hash(), default.hash());
    let mut hashes = vec![identity.hash()];
    for d in dialect::builtin() {
        if let Ok(s) = (entry.schema)(&SchemaOptions::new().dialect(*d)) {
            hashes.push(s.hash());
        }
    }
    let n = hashes.len();
    hashes.sort_by_key(|h| h.to_string());
    hashes.dedup();
    assert_eq!(hashes.len(), n, "two dialects gave one hash");
    assert!(n >= 4, "too few dialects accepted `{}` for the comparison to mean much", entry.name);
}

/// A user dialect: refuses unions, for a consumer that reads one type per field.
struct NoUnions;
impl SchemaDialect for NoUnions {
    fn name(&self) -> &str {
        "no-unions"
    }
    fn forbidden_keywords(&self) -> &[&str] {
        &["anyOf"]
    }
    fn hint(&self, _keyword: &str) -> Option<String> {
        Some("give the field one type".into())
    }
}
static NO_UNIONS: NoUnions = NoUnions;

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Pair {
    a: Inner,
    b: Option<Inner>,
    c: Vec<Option<Inner>>,
}
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[allow(dead_code)]
struct Inner {
    x: i32,
}

#[test]
fn a_user_dialect_forbidding_any_of_reports_every_union_with_its_field() {
    let err = SchemaOptions::new().dialect(&NO_UNIONS).schema_for::<Pair>().unwrap_err();
    let got: Vec<(String, Option<String>)> = err
        .capability_errors()
        .iter()
        .map(|e| (e.pointer().to_owned(), e.field().map(str::to_owned)))
        .collect();
    assert_eq!(
        got,
        [
            ("/properties/b".to_owned(), Some("Pair.b".to_owned())),
            ("/properties/c/items".to_owned(), Some("Pair.c[]".to_owned())),
        ]
    );
    assert!(err.to_string().contains("give the field one type"));
    assert!(SchemaOptions::new().dialect(&NO_UNIONS).schema_for::<Inner>().is_ok());
}

#[test]
fn a_dialect_chosen_by_name_at_run_time_is_the_built_in_one() {
    let mut names: Vec<&str> = dialect::builtin().iter().map(|d| d.name()).collect();
    for name in &names {
        let d = dialect::by_name(name).unwrap();
        assert_eq!(d.name(), *name);
        let by_name = SchemaOptions::new().dialect(d).schema_for::<Inner>();
        let direct = SchemaOptions::new()
            .dialect(*dialect::builtin().iter().find(|b| b.name() == *name).unwrap())
            .schema_for::<Inner>();
        assert_eq!(by_name.map(|s| s.hash()), direct.map(|s| s.hash()));
    }
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "two built-in dialects share a name");
    assert!(dialect::by_name("openai").is_none());
    for name in [
        "strict-subset",
        "inline-refs",
        "openai-strict",
        "anthropic-strict",
        "gemini",
        "mcp",
        "mcp-self-contained",
    ] {
        assert!(dialect::by_name(name).is_some(), "{name}");
    }
}

fn corpus() -> Option<PathBuf> {
    corpus_dir::find("hostile")
}

/// The work a hostile input may cost under any dialect. The most it costs per node beyond the
/// slack is 10.2 allocations (10.5 with `preserve_order`) and 284 bytes held at once, both
/// `wide_fanout_200x50` under `openai-strict`, refused after inlining part of it.
const LINEAR: work::Linear = work::Linear { allocations_per_node: 16, bytes_per_node: 512, slack: 64 };

/// A case of the corpus's `hostile/`; `None` only when the corpus is absent (and not required).
fn hostile(name: &str) -> Option<Value> {
    let path = corpus()?.join("hostile").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

// Law: under every dialect that inlines, the 40-level doubling DAG (2^40 leaves) is refused by the
// inlining budget with work linear in its 5 KB input: its expansion is measured, never built.
#[test]
fn a_doubling_definition_graph_is_refused_by_size_before_it_is_built() {
    let Some(schema) = hostile("dag_doubling_40.json") else { return };
    for d in
        [&dialect::INLINE_REFS as &'static dyn SchemaDialect, &dialect::MCP_SELF_CONTAINED, &dialect::GEMINI]
    {
        let copy = schema.clone();
        let (result, work) = work::during(|| SchemaOptions::new().dialect(d).normalize(copy));
        LINEAR.check(&work, nodes(&schema), &format!("the DAG under `{}`", d.name())).unwrap();
        let err = result.unwrap_err();
        assert!(
            matches!(err.capability_errors(), [CapabilityError::LimitExceeded { max, .. }] if *max == dialect::DEFAULT_MAX_INLINED_BYTES),
            "{err}"
        );
    }
    let err =
        SchemaOptions::new().dialect(&dialect::INLINE_REFS).max_bytes(16_384).normalize(schema).unwrap_err();
    assert!(matches!(err.capability_errors(), [CapabilityError::LimitExceeded { max: 16_384, .. }]), "{err}");
}

#[test]
fn a_ten_level_doubling_graph_inlines_to_every_leaf_within_budget() {
    let Some(schema) = hostile("dag_doubling_10.json") else { return };
    let s = SchemaOptions::new().dialect(&dialect::INLINE_REFS).normalize(schema.clone()).unwrap();
    let text = s.canonical_json();
    assert_eq!(text.matches(r#""description":"leaf""#).count(), 1024);
    assert!(!text.contains("$ref") && !text.contains("$defs"));
    let err = SchemaOptions::new()
        .dialect(&dialect::INLINE_REFS)
        .max_bytes(text.len() / 2)
        .normalize(schema)
        .unwrap_err();
    assert!(matches!(err.capability_errors(), [CapabilityError::LimitExceeded { .. }]), "{err}");
}

/// One row of the rejection table: a dialect, a schema, and the `(pointer, keyword)` of every
/// error it must give, in order, in exact mode (and, where `reversible`, in the default mode too:
/// what no encoding can carry).
struct Rejection {
    dialect: &'static str,
    schema: &'static str,
    errors: &'static [(&'static str, &'static str)],
    reversible: bool,
}

const REJECTIONS: &[Rejection] = &[
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"string"}"##,
        errors: &[("", "type")],
        reversible: false,
    },
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"integer"}}},"required":["m"]}"##,
        errors: &[("/properties/m", "additionalProperties")],
        reversible: false,
    },
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"object","properties":{"n":{"type":"integer","default":3},"o":{"type":["string","null"]}}}"##,
        errors: &[("/properties/n", "required")],
        reversible: false,
    },
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"object","properties":{"u":{"oneOf":[{"type":"integer"},{"type":"number"}]}},"required":["u"]}"##,
        errors: &[("/properties/u", "oneOf")],
        reversible: true,
    },
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"object","properties":{"s":{"type":"array","items":{"type":"string"},"uniqueItems":true},"c":{"type":"string","minLength":1,"maxLength":1}},"required":["c","s"]}"##,
        errors: &[
            ("/properties/c", "maxLength"),
            ("/properties/c", "minLength"),
            ("/properties/s", "uniqueItems"),
        ],
        reversible: false,
    },
    Rejection {
        dialect: "openai-strict",
        schema: r##"{"type":"object","properties":{"x":{"description":"anything"}},"required":["x"]}"##,
        errors: &[("/properties/x", "type")],
        reversible: false,
    },
    Rejection {
        dialect: "anthropic-strict",
        schema: r##"{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]}"##,
        errors: &[("/properties/n", "minimum")],
        reversible: false,
    },
    Rejection {
        dialect: "anthropic-strict",
        schema: r##"{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"},"minItems":2,"maxItems":2}},"required":["a"]}"##,
        errors: &[("/properties/a", "maxItems"), ("/properties/a", "minItems")],
        reversible: false,
    },
    Rejection {
        dialect: "anthropic-strict",
        schema: r##"{"type":"object","properties":{"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}}}"##,
        errors: &[("/properties/next/anyOf/0", "$ref")],
        // Reversible mode unrolls the recursion (`tests/with_schemars/limits.rs`): exact mode refuses it.
        reversible: false,
    },
    Rejection {
        dialect: "anthropic-strict",
        schema: r##"{"anyOf":[{"type":"object","properties":{}}]}"##,
        errors: &[("", "type"), ("/anyOf/0", "additionalProperties")],
        reversible: false,
    },
    Rejection {
        dialect: "anthropic-strict",
        // Lookaround, moved into restore, whose engine cannot build this one either.
        schema: r##"{"type":"object","properties":{"p":{"type":"string","pattern":"^(?=a)b[\\D]$"}}}"##,
        errors: &[("/properties/p", "pattern")],
        reversible: true,
    },
    Rejection {
        dialect: "gemini",
        schema: r##"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}"##,
        errors: &[("/properties/m", "additionalProperties")],
        reversible: false,
    },
    Rejection {
        dialect: "gemini",
        schema: r##"{"type":"object","additionalProperties":false,"properties":{"a":{"type":"string"}}}"##,
        errors: &[("", "additionalProperties")],
        reversible: false,
    },
    Rejection {
        dialect: "gemini",
        schema: r##"{"type":"object","properties":{"v":{"type":["integer","string"]},"k":{"const":1}}}"##,
        errors: &[("/properties/k", "const")],
        reversible: false,
    },
    Rejection {
        dialect: "gemini",
        schema: r##"{"$defs":{"N":{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}},"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}"##,
        errors: &[("/properties/n/properties/n", "$ref")],
        // Reversible mode unrolls the recursion (`tests/with_schemars/limits.rs`): exact mode refuses it.
        reversible: false,
    },
    Rejection {
        dialect: "gemini-json-schema",
        // A cycle through required properties only: Gemini cannot stop unrolling it.
        schema: r##"{"$defs":{"N":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["kids"]}},"type":"object","properties":{"n":{"$ref":"#/$defs/N"}}}"##,
        errors: &[("/$defs/N/properties/kids/items", "$ref")],
        // Reversible mode unrolls the recursion (`tests/with_schemars/limits.rs`): exact mode refuses it.
        reversible: false,
    },
    Rejection {
        dialect: "gemini-json-schema",
        // Gemini reads `oneOf` as `anyOf`: overlapping branches cannot be written.
        schema: r##"{"type":"object","properties":{"u":{"oneOf":[{"type":"integer"},{"type":"number"}]}},"required":["u"]}"##,
        errors: &[("/properties/u", "oneOf")],
        reversible: true,
    },
    Rejection {
        dialect: "gemini-json-schema",
        schema: r##"{"type":"object","properties":{"s":{"type":"string","maxLength":3},"m":{"type":"object","propertyNames":{"pattern":"^[a-z]+$"},"additionalProperties":{"type":"integer"}}}}"##,
        errors: &[("/properties/m", "additionalProperties"), ("/properties/s", "maxLength")],
        reversible: false,
    },
    Rejection {
        dialect: "mcp",
        schema: r##"{"type":"array","items":{"type":"string"}}"##,
        errors: &[("", "type")],
        reversible: false,
    },
    Rejection {
        dialect: "mcp-self-contained",
        schema: r##"{"type":"object","properties":{"a":{"$ref":"other.json#/x"}}}"##,
        errors: &[("/properties/a", "$ref")],
        reversible: false,
    },
    Rejection {
        dialect: "inline-refs",
        schema: r##"{"type":"object","properties":{"self":{"$ref":"#"}}}"##,
        errors: &[("/properties/self", "$ref")],
        reversible: false,
    },
    Rejection {
        dialect: "strict-subset",
        schema: r##"{"type":"object","properties":{"a":{"$ref":"#/properties/b"},"b":{"type":"object","properties":{}}}}"##,
        errors: &[("/properties/a", "$ref")],
        reversible: false,
    },
];

#[test]
fn the_rejection_table_gives_each_error_at_its_pointer() {
    let mut wrong = Vec::new();
    for (i, row) in REJECTIONS.iter().enumerate() {
        let d = dialect::by_name(row.dialect).unwrap();
        let schema: Value = serde_json::from_str(row.schema).unwrap();
        let modes: &[bool] = if row.reversible { &[true, false] } else { &[true] };
        for &exact in modes {
            let cx = AdaptContext::new(128, Some("T")).with_exact(exact);
            match dialect::apply(d, schema.clone(), &cx) {
                Ok(out) => {
                    wrong.push(format!("row {i} ({}, exact: {exact}) was accepted: {out}", row.dialect))
                }
                Err(errs) => {
                    let got: Vec<(&str, &str)> =
                        errs.as_slice().iter().map(|e| (e.pointer(), e.keyword().unwrap_or("-"))).collect();
                    if got != row.errors {
                        wrong.push(format!("row {i} ({}, exact: {exact}): got {got:?}: {errs}", row.dialect));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

// Law: no hostile input makes any dialect panic, and none costs more than work linear in its
// input and output (counted allocations and bytes held, not time).
#[test]
fn no_hostile_input_makes_any_dialect_panic_or_work_past_a_linear_bound() {
    let Some(dir) = corpus() else { return };
    let mut files: Vec<_> =
        std::fs::read_dir(dir.join("hostile")).unwrap().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    assert!(files.len() > 10);
    let mut over = Vec::new();
    for path in files {
        let Ok(schema) = serde_json::from_str::<Value>(&std::fs::read_to_string(&path).unwrap()) else {
            continue;
        };
        for d in dialect::builtin() {
            let copy = schema.clone();
            let (result, work) = work::during(|| SchemaOptions::new().dialect(*d).normalize(copy));
            let size = nodes(&schema) + result.map_or(0, |s| nodes(s.as_value()));
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            if let Err(e) = LINEAR.check(&work, size, &format!("{file} under `{}`", d.name())) {
                over.push(e);
            }
        }
    }
    assert!(over.is_empty(), "work beyond the linear bound:\n{}", over.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Recursive unions and references with keywords beside them, under the provider dialects: the
// minimal inputs a flaky idempotence law once found.

/// `normalize` under `d` on a 2 MiB stack (a thread's default): an overflow aborts the test.
fn on_a_small_stack(d: &'static dyn SchemaDialect, schema: Value) -> Result<Value, Error> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || SchemaOptions::new().dialect(d).normalize(schema).map(|s| s.as_value().clone()))
        .unwrap()
        .join()
        .unwrap()
}

// A union that refers back to its own definition twice, beside an `allOf` member: merging the
// member into each branch expanded the definition again at every level, 2^depth copies (killed
// at 24 GB under the default budget). With the depth budget doubled, the work stays the same.
#[test]
fn a_recursive_union_merged_with_an_all_of_member_costs_the_same_work_whatever_the_depth_budget() {
    let schema = json!({"$ref": "#/definitions/A", "definitions": {"A": {"allOf": [
        {"anyOf": [{"$ref": "#/definitions/A"}, {"$ref": "#/definitions/A"}, {"type": "string"}]},
        {"type": "boolean"}
    ]}}});
    for d in dialect::builtin() {
        let run = |max_depth: usize| {
            let copy = schema.clone();
            work::during(|| SchemaOptions::new().max_depth(max_depth).dialect(*d).normalize(copy))
        };
        let ((small, at_8), (large, at_16)) = (run(8), run(16));
        assert!(
            at_16.count_total <= at_8.count_total + 64,
            "under `{}`: {} allocations at depth budget 8, {} at 16",
            d.name(),
            at_8.count_total,
            at_16.count_total
        );
        // boolean and (A or A or string) admits nothing: where it is accepted, it is as given.
        assert_eq!(small.is_ok(), large.is_ok(), "{}", d.name());
    }
}

// A reference with `required` beside it, inside its own target: the merge of the two was
// expanded level after level until the stack overflowed (or, on a large stack, the depth budget
// refused a recursive schema openai-strict keeps). The merged schema is a definition of its own.
#[test]
fn a_reference_with_keywords_beside_it_inside_its_own_target_is_kept_as_a_recursive_definition() {
    let schema = json!({"type": "object", "properties": {"s": {"$ref": "#/$defs/A"}}, "$defs": {"A": {
        "type": "object", "properties": {"s": {"$ref": "#/$defs/A", "required": ["s"]}}
    }}});
    for d in dialect::builtin() {
        let name = d.name();
        match on_a_small_stack(*d, schema.clone()) {
            Ok(out) => {
                assert_eq!(on_a_small_stack(*d, out.clone()).unwrap(), out, "{name} is not idempotent")
            }
            // The dialects that refuse recursion say so.
            Err(e) => assert!(e.to_string().contains("recursive"), "{name}: {e}"),
        }
    }
    // `A` and `required: ["s"]` is an object whose `s` is one again, forever: no value has an
    // `s` below the first level, and absent is `null` for OpenAI.
    let out = on_a_small_stack(&dialect::OPENAI_STRICT, schema).unwrap();
    let v = output_validator(&dialect::OPENAI_STRICT, &out);
    assert!(v.is_valid(&json!({"s": null})) && v.is_valid(&json!({"s": {"s": null}})), "{out}");
    assert!(!v.is_valid(&json!({"s": {"s": {"s": null}}})), "{out}");
}

// Two sides of a merge with no type in common (`string` and an object): the position admits
// nothing. It was written `{"type": ["null", "null"]}`, which validators refuse, and a second
// run gave another schema.
#[test]
fn a_merge_with_no_type_in_common_is_refused_not_written_as_a_doubled_null() {
    let schema = json!({"allOf": [{"$ref": "#/$defs/B"}], "$defs": {"B": {"type": "object", "required": [],
        "properties": {"a": {"allOf": [{"type": "string"}, {"$ref": "#/$defs/B"}]}}}}});
    let err = SchemaOptions::new().dialect(&dialect::OPENAI_STRICT).normalize(schema.clone()).unwrap_err();
    let err = err.to_string();
    assert!(err.contains("accepts no value") && err.contains("/properties/a`"), "{err}");
    // Every other dialect refuses it (recursion) or keeps the `allOf` as it is.
    for d in dialect::builtin() {
        if let Ok(out) = SchemaOptions::new().dialect(*d).normalize(schema.clone()) {
            assert!(
                !out.as_value().to_string().contains(r#"["null","null"]"#),
                "{}: {}",
                d.name(),
                out.as_value()
            );
            let again = SchemaOptions::new().dialect(*d).normalize(out.as_value().clone()).unwrap();
            assert_eq!(again.as_value(), out.as_value(), "{}", d.name());
        }
    }
}

/// Every `$ref` string in `v`.
fn references(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|c| references(c, out));
        }
        Value::Array(items) => items.iter().for_each(|c| references(c, out)),
        _ => {}
    }
}

// Definition names that need escaping in a URI fragment (a space, `%`, `/`, `~`, non-ASCII) are
// written percent-encoded: `#/$defs/a b` is not a URI reference, and `#/$defs/a%25b` names `a%b`,
// so the definition was dropped and the reference dangled.
#[test]
fn escaped_definition_names_are_written_as_uri_fragments_that_name_them_in_every_dialect() {
    let names = ["a b", "a%25b", "a/b~c", "é\"#"];
    let mut defs = Map::new();
    let mut props = Map::new();
    for (i, name) in names.iter().enumerate() {
        let field = format!("f{i}");
        defs.insert(
            (*name).to_owned(),
            json!({"type": "object", "properties": {field.clone(): {"type": "integer"}}}),
        );
        let fragment: String = toolschema::pointer::fragment_token(name).into_owned();
        props.insert(field, json!({"$ref": format!("#/$defs/{fragment}")}));
    }
    let schema = json!({"type": "object", "properties": props, "$defs": defs});
    for d in dialect::builtin() {
        let out = SchemaOptions::new().dialect(*d).normalize(schema.clone()).unwrap();
        let mut refs = Vec::new();
        references(out.as_value(), &mut refs);
        for r in refs {
            let fragment_chars = |c: char| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/?%#".contains(c);
            assert!(r.chars().all(fragment_chars), "{}: `{r}` is not a URI reference", d.name());
            assert!(toolschema::refs::resolve(out.as_value(), &r).is_some(), "{}: `{r}` dangles", d.name());
        }
        let again = SchemaOptions::new().dialect(*d).normalize(out.as_value().clone()).unwrap();
        assert_eq!(again.as_value(), out.as_value(), "{} is not idempotent", d.name());
    }
}

// A draft-07 tuple with a reference into it: the rewrite of `items: [..]` to `prefixItems` left
// the reference stale, and every dialect refused the schema, saying it points at nothing.
#[test]
fn a_reference_into_a_draft_07_tuple_follows_its_rewrite_to_prefix_items() {
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
        "q": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"$ref": "#/properties/q/items/0"}},
        "r": {"$ref": "#/properties/q/additionalItems"}
    }});
    let mut accepted = Vec::new();
    for d in dialect::builtin() {
        match SchemaOptions::new().dialect(*d).normalize(schema.clone()) {
            Ok(out) => {
                let v = output_validator(*d, out.as_value());
                assert!(v.is_valid(&json!({"q": ["a", "b"], "r": "c"})), "{}: {}", d.name(), out.as_value());
                assert!(
                    !v.is_valid(&json!({"q": ["a", 1]})) && !v.is_valid(&json!({"r": 1})),
                    "{}",
                    d.name()
                );
                accepted.push(d.name());
            }
            // Refused for what the dialect cannot say (a tuple of open length), not a false reason.
            Err(e) => assert!(!e.to_string().contains("points at nothing"), "{}: {e}", d.name()),
        }
    }
    assert_eq!(
        accepted,
        ["json-schema", "inline-refs", "gemini-json-schema", "llguidance", "mcp", "mcp-self-contained"]
    );
}

/// Unions nested `depth` levels through definitions, each of three branches with an optional
/// nullable property whose default a strict dialect sends for absent, and a value that goes
/// through every level.
fn nested_default_unions(depth: usize) -> (Value, Value) {
    let mut defs = Map::new();
    defs.insert(format!("L{depth}"), json!({"type": "string"}));
    let mut value = json!("leaf");
    for i in (0..depth).rev() {
        let next = json!({"$ref": format!("#/$defs/L{}", i + 1)});
        let branch = |name: &str, t: &str, default: Value| {
            json!({"type": "object", "required": ["n"], "additionalProperties": false,
                   "properties": {name: {"type": [t, "null"], "default": default}, "n": next.clone()}})
        };
        let branches = [
            branch("x", "string", json!("a")),
            branch("y", "integer", json!(1)),
            branch("z", "boolean", json!(true)),
        ];
        defs.insert(format!("L{i}"), json!({"anyOf": branches}));
        value = json!({"n": value});
    }
    let schema = json!({"type": "object", "properties": {"r": {"$ref": "#/$defs/L0"}}, "required": ["r"], "$defs": defs});
    (schema, json!({"r": value}))
}

// Law: the forward map's work is linear in the value and the plan, however deep the unions nest
// whose branches all take the value (it picks the first that fits; trying every branch at every
// level was 3.5 times the work a level).
#[test]
fn encode_works_linearly_through_nested_unions() {
    let mut reached = Vec::new();
    for &d in dialect::builtin() {
        let (schema, value) = nested_default_unions(9);
        let Ok(adapted) = SchemaOptions::new().dialect(d).normalize(schema) else { continue };
        reached.push(d.name());
        let size = nodes(adapted.as_value()) + nodes(&value);
        let (sent, work) = work::during(|| adapted.plan().encode(value.clone()));
        LINEAR.check(&work, size, &format!("encode under `{}`", d.name())).unwrap();
        // Restored as sent (with the defaults sent for absent, which the value lacks).
        adapted.restore(sent).unwrap_or_else(|e| panic!("{}: {e}", d.name()));
    }
    // openai-strict sends each default for absent, so every branch fits at every level.
    assert!(reached.contains(&"openai-strict") && reached.len() >= 5, "{reached:?}");
}

// ---- every JSON Schema output is draft 2020-12 ----

/// The keywords draft 2020-12 defines (its core, applicator, unevaluated, validation, meta-data,
/// format-annotation and content vocabularies).
const DRAFT_2020_12: &[&str] = &[
    "$anchor",
    "$comment",
    "$defs",
    "$dynamicAnchor",
    "$dynamicRef",
    "$id",
    "$ref",
    "$schema",
    "$vocabulary",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "contains",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "default",
    "dependentRequired",
    "dependentSchemas",
    "deprecated",
    "description",
    "else",
    "enum",
    "examples",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "if",
    "items",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "readOnly",
    "required",
    "then",
    "title",
    "type",
    "unevaluatedItems",
    "unevaluatedProperties",
    "uniqueItems",
    "writeOnly",
];

/// The keywords of earlier drafts that 2020-12 does not define: none may be in an output.
const EARLIER_DRAFTS: &[&str] = &[
    "definitions",
    "dependencies",
    "additionalItems",
    "id",
    "$recursiveRef",
    "$recursiveAnchor",
    "divisibleBy",
    "extends",
    "disallow",
];

/// Whether a key the output holds in a schema object is one the policy lets through: a 2020-12
/// keyword, or an annotation a schema's author wrote that no draft defines (`x-...` extensions,
/// OpenAPI's `discriminator`, a generator's own words): 2020-12 reads an unknown keyword as an
/// annotation, and the JSON Schema dialects keep what they do not understand (`json-schema` is
/// the identity). A keyword of an earlier draft never is.
fn allowed_in_2020_12(key: &str) -> bool {
    DRAFT_2020_12.contains(&key) || !EARLIER_DRAFTS.contains(&key)
}

/// Every key of every schema object in `schema` that 2020-12 does not define, with its pointer;
/// `unknown` gets the ones no draft defines, `earlier` the earlier drafts' keywords.
fn keywords_outside_2020_12(schema: &Value, at: &str, unknown: &mut Vec<String>, earlier: &mut Vec<String>) {
    if let Value::Object(m) = schema {
        for key in m.keys() {
            if !allowed_in_2020_12(key) {
                earlier.push(format!("{at}/{key}"));
            } else if !DRAFT_2020_12.contains(&key.as_str()) {
                unknown.push(format!("{at}/{key}"));
            }
        }
        // A boolean exclusive bound is draft-04's; 2020-12 says a number.
        for key in ["exclusiveMaximum", "exclusiveMinimum"] {
            if m.get(key).is_some_and(Value::is_boolean) {
                earlier.push(format!("{at}/{key} (a boolean)"));
            }
        }
        if m.get("items").is_some_and(Value::is_array) {
            earlier.push(format!("{at}/items (a tuple)"));
        }
    }
    toolschema::walk::for_each_child(schema, |step, child| {
        keywords_outside_2020_12(child, &format!("{at}{step}"), unknown, earlier);
    });
}

/// The foreign schemas of the corpus (real MCP servers, pydantic, BFCL) and of the fixtures
/// (the CLI's tool files, the foreign regressions), named.
fn foreign_schemas() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    // A file that is no JSON (the CLI's `malformed.json`) holds no schema.
    let read = |path: &Path| -> Option<Value> {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).ok()
    };
    let push_file = |out: &mut Vec<(String, Value)>, path: &Path| {
        let Some(value) = read(path) else { return };
        let name = path.display().to_string();
        match &value {
            Value::Object(m) if m.get("tools").is_some_and(Value::is_array) => {
                for tool in m["tools"].as_array().into_iter().flatten() {
                    for key in ["inputSchema", "outputSchema"] {
                        if let Some(s) = tool.get(key) {
                            out.push((format!("{name} {} {key}", tool["name"]), s.clone()));
                        }
                    }
                }
            }
            Value::Array(cases) => {
                for (i, case) in cases.iter().enumerate() {
                    if let Some(s) = case.get("schema") {
                        out.push((format!("{name}[{i}]"), s.clone()));
                    }
                }
            }
            _ => out.push((name, value)),
        }
    };
    let json_files = |dir: &Path| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        files
    };
    if let Some(corpus) = corpus_dir::find("mcp") {
        let mut servers: Vec<PathBuf> =
            std::fs::read_dir(corpus.join("mcp")).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
        servers.sort();
        for server in servers {
            json_files(&server).iter().for_each(|f| push_file(&mut out, f));
        }
        json_files(&corpus.join("pydantic")).iter().for_each(|f| push_file(&mut out, f));
        if let Ok(text) = std::fs::read_to_string(corpus.join("bfcl/functions.jsonl")) {
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let case: Value = serde_json::from_str(line).unwrap();
                out.push((format!("bfcl {}", case["id"]), case["schema"].clone()));
            }
        }
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    json_files(&fixtures.join("cli")).iter().for_each(|f| push_file(&mut out, f));
    for f in ["regressions.json", "rejections.json"] {
        push_file(&mut out, &fixtures.join("foreign").join(f));
    }
    out
}

// Law: every output of the dialects whose output is JSON Schema, over the corpus, the fixtures
// and the zoo, holds no keyword of an earlier draft (a draft-07 schema's `definitions`,
// `dependencies`, tuple `items` all rewritten) and passes the 2020-12 metaschema. Keywords no
// draft defines (`x-...`, `discriminator`) are annotations in 2020-12 and pass through; they are
// counted, not refused.
#[test]
fn every_json_schema_output_is_draft_2020_12() {
    let schemas = foreign_schemas();
    let names = [
        "json-schema",
        "mcp",
        "mcp-self-contained",
        "strict-subset",
        "inline-refs",
        "gemini-json-schema",
        "llguidance",
        "outlines",
    ];
    let mut failures = Vec::new();
    let (mut outputs, mut drafted) = (0, 0);
    let mut unknown_seen = std::collections::BTreeSet::new();
    for name in names {
        let d = dialect::by_name(name).unwrap();
        let mut check = |what: &str, out: &Value| {
            outputs += 1;
            let (mut unknown, mut earlier) = (Vec::new(), Vec::new());
            keywords_outside_2020_12(out, "", &mut unknown, &mut earlier);
            for u in unknown {
                unknown_seen.insert(u.rsplit('/').next().unwrap_or_default().to_owned());
            }
            if !earlier.is_empty() {
                failures.push(format!("{name} {what}: {earlier:?}"));
            }
            if let Err(e) = jsonschema::draft202012::meta::validate(out) {
                failures.push(format!("{name} {what}: not 2020-12 ({e}): {out}"));
            }
        };
        for (what, schema) in &schemas {
            if schema.get("$schema").and_then(Value::as_str).is_some_and(|s| !s.contains("2020-12")) {
                drafted += 1;
            }
            if let Ok(out) = SchemaOptions::new().dialect(d).reject_any(false).normalize(schema.clone()) {
                check(what, out.as_value());
            }
        }
        for entry in zoo::ZOO {
            if let Ok(out) = (entry.schema)(&SchemaOptions::new().dialect(d)) {
                check(entry.name, out.as_value());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} outputs not 2020-12:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    eprintln!(
        "{outputs} outputs checked ({drafted} inputs declared an earlier draft); keywords no draft defines passed through: {unknown_seen:?}"
    );
    assert!(outputs > 0);
}

// The end-to-end case: a schema as the MCP TypeScript SDK 1.x writes it (draft-07 stamped,
// `definitions`, `dependencies`, a tuple), under `mcp` and `json-schema`: pure 2020-12 out, and a
// 2020-12 validator of the output refuses what the draft-07 original refuses (the dependency
// kept), and restore gives back what both accept.
#[test]
fn a_draft_07_typescript_sdk_schema_comes_out_as_draft_2020_12_with_its_dependency() {
    let input = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {"Point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false}},
        "properties": {
            "from": {"$ref": "#/definitions/Point"},
            "to": {"$ref": "#/definitions/Point", "description": "where it ends", "maxItems": 1},
            "label": {"type": "string"},
            "limit": {"type": "integer", "exclusiveMinimum": 0}
        },
        "required": ["from"],
        "dependencies": {"label": ["to"], "limit": {"required": ["label"]}},
        "additionalProperties": false
    });
    let original = jsonschema::draft7::new(&input).unwrap();
    for name in ["mcp", "json-schema"] {
        let d = dialect::by_name(name).unwrap();
        let out = SchemaOptions::new().dialect(d).normalize(input.clone()).unwrap();
        let schema = out.as_value();
        let (mut unknown, mut earlier) = (Vec::new(), Vec::new());
        keywords_outside_2020_12(schema, "", &mut unknown, &mut earlier);
        assert!(earlier.is_empty() && unknown.is_empty(), "{name}: {earlier:?} {unknown:?} in {schema}");
        jsonschema::draft202012::meta::validate(schema).unwrap();
        assert_eq!(schema["dependentRequired"], json!({"label": ["to"]}), "{name}: {schema}");
        assert_eq!(schema["dependentSchemas"], json!({"limit": {"required": ["label"]}}), "{name}: {schema}");
        let validator = jsonschema::draft202012::new(schema).unwrap();
        for value in [
            json!({"from": [1, 2]}),
            json!({"from": [1, 2], "label": "a"}),
            json!({"from": [1, 2], "label": "a", "to": [3, 4]}),
            json!({"from": [1, 2], "limit": 3}),
            json!({"from": [1, 2], "limit": 3, "label": "a", "to": [3, 4]}),
            json!({"from": [1, 2, 3]}),
            json!({"from": [1, 2], "to": [3, 4]}),
            json!({"from": [1, 2], "limit": 0, "label": "a", "to": [1, 1]}),
        ] {
            assert_eq!(
                validator.is_valid(&value),
                original.is_valid(&value),
                "{name}: {value} under {schema}"
            );
            // What both accept restores to itself (these dialects change no shape).
            if original.is_valid(&value) {
                assert_eq!(out.restore(value.clone()).ok(), Some(value.clone()), "{name}: restore {value}");
            }
        }
        // python-jsonschema's 2020-12 validator ignores `dependencies`: it is no longer there to be ignored.
        assert!(!validator.is_valid(&json!({"from": [1, 2], "label": "a"})), "{name}");
    }
    // A declared dialect nobody knows is refused, naming it.
    let err = SchemaOptions::new()
        .normalize(json!({"$schema": "https://json-schema.org/draft-08/schema", "type": "object"}))
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`https://json-schema.org/draft-08/schema`") && text.contains("dialect"), "{text}");
}
