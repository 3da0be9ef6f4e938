#![allow(clippy::pedantic)]
//! Malformed and unsupported foreign schemas: each row of `fixtures/foreign/rejections.json`
//! gives a schema, the error kind `self_contained_input_schema` must answer, the JSON pointer it
//! must name and, for reference errors, the reference; optional `max_depth` / `max_bytes` set the
//! budgets.

use serde_json::Value;
use toolschema::{SelfContainedOptions, self_contained_input_schema_with};

#[test]
fn every_row_of_the_rejection_table_is_refused_with_its_kind_pointer_and_reference() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/foreign/rejections.json");
    let rows: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(rows.len() >= 20);
    let mut failures = Vec::new();
    for row in &rows {
        let case = row["case"].as_str().unwrap();
        let mut options = SelfContainedOptions::new();
        if let Some(d) = row.get("max_depth").and_then(Value::as_u64) {
            options.max_depth = d as usize;
        }
        if let Some(b) = row.get("max_bytes").and_then(Value::as_u64) {
            options.max_bytes = b as usize;
        }
        let err = match self_contained_input_schema_with(&row["schema"], "lookup", &options) {
            Ok(out) => {
                failures.push(format!("{case}: accepted, giving {out}"));
                continue;
            }
            Err(e) => e,
        };
        let message = err.to_string();
        let got = (err.kind(), err.pointer(), err.reference());
        let want = (
            row["kind"].as_str().unwrap(),
            row["pointer"].as_str().unwrap(),
            row.get("reference").and_then(Value::as_str),
        );
        if got != want {
            failures.push(format!("{case}: got {got:?}, want {want:?} ({message})"));
        }
        if !message.starts_with("tool `lookup`: ") || !message.contains(&format!("`{}`", err.pointer())) {
            failures.push(format!("{case}: the message must name the tool and the pointer: {message}"));
        }
        if message.chars().next().is_some_and(char::is_uppercase) {
            failures.push(format!("{case}: messages are lowercase: {message}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
