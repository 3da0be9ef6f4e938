#![allow(clippy::pedantic)]
//! Golden fixtures: the normalised schema and hash of every zoo type under the default options.
//!
//! Each `fixtures/golden/<name>.json` is a pretty-printed object with sorted keys:
//! - `hash`: [`ToolSchema::hash`](toolschema::ToolSchema::hash) (`sha256:` over the RFC 8785
//!   bytes of `{"dialect": "json-schema", "schema": <schema>}`);
//! - `schema`: [`ToolSchema::as_value`](toolschema::ToolSchema::as_value);
//! - `docWarnings`: what `MergeDocs` could not place, as displayed (omitted when none).
//!
//! The bytes are the same with and without serde_json's `preserve_order` (CI runs both), so a
//! fixture written by one build is checked by the other.
//! `BLESS=1 cargo test --test with_schemars golden::` rewrites the fixtures; review the diff by eye before committing it.

use crate::bless;
use crate::zoo;

use pretty_assertions::assert_eq;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolschema::SchemaOptions;

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("golden")
}

/// The fixture text for one zoo entry.
fn render(entry: &zoo::ZooEntry) -> String {
    let schema = match (entry.schema)(&SchemaOptions::new()) {
        Ok(s) => s,
        Err(e) => panic!("zoo type `{}` has no schema: {e}", entry.name),
    };
    // Inserted in sorted order, so the text is the same whatever the build's map type.
    let mut doc = Map::new();
    let warnings: Vec<Value> = schema.doc_warnings().iter().map(|w| json!(w.to_string())).collect();
    if !warnings.is_empty() {
        doc.insert("docWarnings".into(), Value::Array(warnings));
    }
    doc.insert("hash".into(), json!(schema.hash().to_string()));
    doc.insert("schema".into(), schema.as_value().clone());
    let mut text = serde_json::to_string_pretty(&Value::Object(doc)).unwrap_or_default();
    text.push('\n');
    text
}

#[test]
fn every_zoo_type_matches_its_golden_fixture() {
    let dir = golden_dir();
    let mut blessed = bless::blessing().then(|| bless::Blessing::new("golden"));
    for entry in zoo::ZOO {
        let path = dir.join(format!("{}.json", entry.name));
        let actual = render(entry);
        if let Some(blessed) = &mut blessed {
            blessed.write(&path, &actual);
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "missing golden {} ({e}); run `BLESS=1 cargo test --test with_schemars golden::`",
                path.display()
            )
        });
        assert_eq!(
            actual, expected,
            "golden `{}` differs; if the change is intended, run `BLESS=1 cargo test --test with_schemars golden::`",
            entry.name
        );
    }
}

#[test]
fn every_golden_fixture_belongs_to_a_zoo_type() {
    let mut stray = Vec::new();
    let mut count = 0;
    for file in std::fs::read_dir(golden_dir()).expect("fixtures/golden exists") {
        let name = file.expect("readable directory entry").file_name().to_string_lossy().into_owned();
        count += 1;
        let known = name.strip_suffix(".json").is_some_and(|stem| zoo::entry(stem).is_some());
        if !known {
            stray.push(name);
        }
    }
    assert_eq!(stray, Vec::<String>::new(), "golden files without a zoo type: delete them");
    assert!(count >= 20, "only {count} golden fixtures");
}

#[test]
fn golden_hashes_are_the_documented_envelope_hash_of_the_golden_schema() {
    for entry in zoo::ZOO {
        let path = golden_dir().join(format!("{}.json", entry.name));
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let doc: Value = serde_json::from_str(&text).expect("golden is JSON");
        let envelope = json!({"dialect": "json-schema", "schema": doc["schema"]});
        assert_eq!(doc["hash"], json!(toolschema::schema_hash(&envelope).to_string()), "{}", entry.name);
    }
}
