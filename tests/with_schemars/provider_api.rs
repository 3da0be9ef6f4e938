#![allow(clippy::pedantic)]
//! The provider APIs' own rules (`tests/provider_rules`) over every schema a provider dialect
//! accepts: the zoo, the shared corpus, the fuzz corpus, generated schemas, and the tools users
//! posted in public threads after a provider refused them (`fixtures/provider_rejections/`, each
//! one's verdict per dialect kept as a golden table; `BLESS=1` rewrites it). And the advice a
//! foreign schema's errors give is in JSON Schema (or Python) terms, never Rust's.

use crate::provider_rules;
use crate::zoo;

use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolschema::{Origin, SchemaOptions, dialect};

/// The dialects a provider receives the output of.
const DIALECTS: &[&str] = &[
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

fn options(name: &str) -> SchemaOptions {
    SchemaOptions::new().dialect(dialect::by_name(name).unwrap_or_else(|| panic!("no dialect {name}")))
}

/// Every rule `schema`'s output under each dialect breaks, labelled; `accepted` counts outputs.
fn judge(label: &str, schema: &Value, accepted: &mut usize, broken: &mut Vec<String>) {
    for name in DIALECTS {
        let Ok(out) = options(name).reject_any(false).normalize(schema.clone()) else { continue };
        *accepted += 1;
        for v in provider_rules::violations(name, out.as_value()) {
            broken.push(format!("{label} under {name}: {v}"));
        }
    }
}

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("TOOLSCHEMA_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("mcp").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("TOOLSCHEMA_REQUIRE_CORPUS").is_none_or(|v| v != "1"),
        "no corpus at {} and TOOLSCHEMA_REQUIRE_CORPUS=1",
        dir.display()
    );
    eprintln!("notice: no foreign-schema corpus at {}; skipping the corpus checks", dir.display());
    None
}

/// Every `.json` file under `dir`, recursively, sorted, with its path.
fn json_files(dir: &Path) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if let Ok(text) = std::fs::read_to_string(&p)
                && let Ok(v) = serde_json::from_str::<Value>(&text)
            {
                out.push((p.strip_prefix(dir).unwrap_or(&p).display().to_string(), v));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The corpus's MCP and pydantic tool schemas.
fn corpus_schemas(dir: &Path) -> Vec<(String, Value)> {
    let mut out = json_files(&dir.join("mcp"));
    out.extend(json_files(&dir.join("pydantic")));
    out.retain(|(_, v)| v.is_object());
    out
}

/// The tools of public threads: name, schema, the whole entry.
fn rejected_tools() -> Vec<(String, Value)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/provider_rejections/schemas.json");
    let all: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all.into_iter()
        .map(|t| {
            assert!(t["url"].as_str().is_some_and(|u| u.starts_with("https://")), "{t}");
            assert!(t["error"].is_string(), "{t}");
            (t["name"].as_str().unwrap().to_owned(), t["schema"].clone())
        })
        .collect()
}

#[test]
fn every_rule_refuses_the_schema_it_names_and_cites_its_source() {
    assert!(provider_rules::RULES.len() >= 27);
    for rule in provider_rules::RULES {
        assert!(rule.source.starts_with("https://"), "{}", rule.name);
        assert!(!rule.error.is_empty(), "{}", rule.name);
        let bad = provider_rules::refused_example(rule);
        assert!(!(rule.check)(&bad).is_empty(), "{} does not refuse {bad}", rule.name);
    }
}

#[test]
fn no_zoo_output_breaks_a_provider_rule() {
    let (mut accepted, mut broken) = (0, Vec::new());
    for entry in zoo::ZOO {
        for name in DIALECTS {
            let Ok(out) = (entry.schema)(&options(name)) else { continue };
            accepted += 1;
            for v in provider_rules::violations(name, out.as_value()) {
                broken.push(format!("{} under {name}: {v}", entry.name));
            }
        }
    }
    assert!(accepted > zoo::ZOO.len() * 4, "only {accepted} outputs");
    assert!(broken.is_empty(), "{} broken:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn no_corpus_output_breaks_a_provider_rule() {
    let Some(dir) = corpus() else { return };
    let schemas = corpus_schemas(&dir);
    assert!(schemas.len() > 100, "{} corpus schemas", schemas.len());
    let (mut accepted, mut broken) = (0, Vec::new());
    for (label, schema) in &schemas {
        judge(label, schema, &mut accepted, &mut broken);
    }
    assert!(accepted > schemas.len() * 4, "only {accepted} outputs");
    assert!(broken.is_empty(), "{} broken:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn no_fuzz_corpus_output_breaks_a_provider_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let files = json_files(&dir);
    assert!(!files.is_empty());
    let (mut accepted, mut broken) = (0, Vec::new());
    for (label, schema) in &files {
        judge(label, schema, &mut accepted, &mut broken);
    }
    assert!(accepted > 0);
    assert!(broken.is_empty(), "{} broken:\n{}", broken.len(), broken.join("\n"));
}

#[test]
fn no_rejected_public_tool_breaks_a_provider_rule_and_each_keeps_its_verdicts() {
    let (mut accepted, mut broken) = (0, Vec::new());
    let mut table: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for (name, schema) in rejected_tools() {
        judge(&name, &schema, &mut accepted, &mut broken);
        let row = table.entry(name).or_default();
        for d in DIALECTS {
            let verdict = match options(d).reject_any(false).normalize(schema.clone()) {
                Ok(out) if out.adaptations().is_empty() => "ok".to_owned(),
                Ok(out) => format!("ok, {} adapted", out.adaptations().len()),
                Err(e) => {
                    let errs = e.capability_errors();
                    let what: Vec<String> = errs
                        .iter()
                        .map(|c| format!("{}@{}", c.keyword().unwrap_or("-"), c.pointer()))
                        .collect();
                    if what.is_empty() {
                        format!("refused: {e}")
                    } else {
                        format!("refused: {}", what.join(", "))
                    }
                }
            };
            row.insert((*d).to_owned(), verdict);
        }
    }
    assert!(broken.is_empty(), "{} broken:\n{}", broken.len(), broken.join("\n"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/provider_rejections/verdicts.json");
    let got = serde_json::to_string_pretty(&table).unwrap() + "\n";
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    pretty_assertions::assert_eq!(want, got, "verdicts changed: review, then BLESS=1");
}

/// Schema-like JSON: the keywords the provider rules are about, nested.
fn arb_schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "integer", "minimum": 0, "maximum": 300})),
        Just(json!({"type": "number", "exclusiveMinimum": 0})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "array"})),
        Just(json!({})),
        Just(json!(true)),
        Just(json!({"type": "string", "pattern": "^(?!x)[a-z]+$"})),
        Just(json!({"type": "string", "pattern": "^a{1,500}$"})),
        Just(json!({"type": "string", "pattern": "^[a-z]+$", "minLength": 2})),
        Just(json!({"type": "string", "format": "uri"})),
        Just(json!({"type": "string", "enum": ["a", "", "B"]})),
        Just(json!({"enum": [1, "x", null]})),
        Just(json!({"const": "Fixed"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 3})),
    ];
    leaf.prop_recursive(4, 48, 4, |inner| {
        prop_oneof![
            // Now and then a key Anthropic refuses (`a[]`, `$b`, `c d`), renamed by its dialect.
            (prop::collection::btree_map("[a-e]|[a-c]\\[\\]|\\$[a-c]|[a-c] [a-c]", inner.clone(), 1..4), any::<u8>()).prop_map(|(props, bits)| {
                let names: Vec<String> = props.keys().cloned().collect();
                let required: Vec<&String> = names.iter().enumerate().filter(|(i, _)| bits >> i & 1 == 1).map(|(_, n)| n).collect();
                let mut s = json!({"type": "object", "properties": props, "required": required});
                match bits >> 5 {
                    0 => s["additionalProperties"] = json!(true),
                    1 => s["additionalProperties"] = json!(false),
                    2 if names.len() > 1 => {
                        s["anyOf"] = json!([{"required": [names[0]]}, {"required": [names[1]]}]);
                    }
                    3 => s["description"] = json!("An object."),
                    _ => {}
                }
                s
            }),
            inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"anyOf": [a, b], "description": "One of two."})),
            inner.clone().prop_map(|i| json!({"type": "object", "additionalProperties": i})),
            inner.prop_map(|i| json!({"$defs": {"D": i}, "type": "object", "properties": {"d": {"$ref": "#/$defs/D", "description": "d"}}})),
        ]
    })
}

/// The generated-schema law's cases unless `PROPTEST_CASES` says otherwise.
const CASES: u32 = 64;

#[test]
fn no_generated_schema_output_breaks_a_provider_rule() {
    let accepted = std::cell::Cell::new(0usize);
    let runs = std::cell::Cell::new(0usize);
    crate::prop_run::check(file!(), CASES, arb_schema(), |schema| {
        let (mut n, mut broken) = (0, Vec::new());
        judge("generated", &schema, &mut n, &mut broken);
        accepted.set(accepted.get() + n);
        runs.set(runs.get() + 1);
        prop_assert!(broken.is_empty(), "{schema}\n{}", broken.join("\n"));
        Ok(())
    });
    // Most generated schemas reach a provider's output: the law is not vacuous.
    assert!(accepted.get() >= runs.get() * 3, "only {} outputs of {} cases", accepted.get(), runs.get());
}

/// What a schema's errors say under every built-in dialect, in both modes, for `origin`.
fn messages(schema: &Value, origin: Origin, out: &mut Vec<String>) {
    for d in dialect::builtin() {
        for exact in [false, true] {
            for reject_any in [false, true] {
                let options =
                    SchemaOptions::new().dialect(*d).exact(exact).reject_any(reject_any).origin(origin);
                if let Err(e) = options.normalize(schema.clone()) {
                    out.push(e.to_string());
                }
            }
        }
    }
}

#[test]
fn errors_for_foreign_schemas_are_free_of_rust_syntax() {
    let mut schemas: Vec<(String, Value)> = rejected_tools();
    if let Some(dir) = corpus() {
        schemas.extend(corpus_schemas(&dir));
    }
    // Shapes whose errors carry advice: a tuple, a set, an overlapping oneOf, a non-object root,
    // a map where the provider has none, an optional property without null, an untyped value.
    for s in [
        json!({"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1}),
        json!({"type": "object", "properties": {"s": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}}),
        json!({"type": "object", "properties": {"u": {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 1}]}}}),
        json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}}),
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maxItems": 2}}}),
        json!({"type": "object", "properties": {"a": {}}, "required": ["a"]}),
        json!({"type": "object", "properties": {"t": {"type": "string", "minLength": 1}}, "additionalProperties": false}),
    ] {
        schemas.push(("advice".into(), s));
    }
    for origin in [Origin::JsonSchema, Origin::Python] {
        let mut all = Vec::new();
        for (_, schema) in &schemas {
            messages(schema, origin, &mut all);
        }
        assert!(all.len() > 100, "only {} messages for {origin:?}", all.len());
        let rust: Vec<&String> = all
            .iter()
            .filter(|m| ["Vec<", "Option<", "#[serde", "HashMap<", "struct "].iter().any(|r| m.contains(r)))
            .collect();
        assert!(
            rust.is_empty(),
            "{origin:?}: {} messages with Rust syntax, e.g. {:#?}",
            rust.len(),
            &rust[..rust.len().min(5)]
        );
    }
    // And a Rust type's errors keep their Rust advice.
    let mut rust = Vec::new();
    messages(&json!({"type": "object", "properties": {"a": {}}, "required": ["a"]}), Origin::Rust, &mut rust);
    assert!(rust.iter().any(|m| m.contains("Option<T>")), "{rust:#?}");
}

#[test]
fn python_advice_names_python_types() {
    let schema = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}},
        "o": {"type": "integer", "default": 1}}});
    let err = SchemaOptions::new()
        .dialect(&toolschema::OPENAI_STRICT)
        .exact(true)
        .origin(Origin::Python)
        .normalize(schema)
        .unwrap_err()
        .to_string();
    assert!(err.contains("dict[str, X]"), "{err}");
    assert!(err.contains("Optional[...]"), "{err}");
}

#[test]
fn anthropic_restore_checks_the_patterns_its_sdk_moves_into_the_description() {
    let schema = json!({"type": "object", "properties": {
        "p": {"type": "string", "pattern": "^[a-z]+$"},
        "m": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "integer"}}},
        "required": ["p", "m"]});
    let tool = options("anthropic-strict").normalize(schema).unwrap();
    assert!(tool.restore(json!({"p": "abc", "m": [{"key": "ab", "value": 1}]})).is_ok());
    let err = tool.restore(json!({"p": "123", "m": [{"key": "01", "value": 1}]})).unwrap_err();
    let mut pointers: Vec<&str> = err.faults().iter().map(|f| f.pointer.as_str()).collect();
    pointers.sort_unstable();
    assert_eq!(pointers, ["/m/0/key", "/p"], "{err}");
}
