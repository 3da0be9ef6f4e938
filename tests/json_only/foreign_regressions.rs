#![allow(clippy::pedantic)]
//! Regressions of `self_contained_input_schema` proved on instances: each row of
//! `fixtures/foreign/regressions.json` gives a schema, the output (or the error) every variant
//! must give, and instances that show what the schema means.
//!
//! For a row with an `output`, the output loads in a validator under the draft it declares
//! (`jsonschema`'s meta-schema check), and every instance in `accepts` is valid against both the
//! input and the output, every instance in `refuses` invalid against both: the output accepts
//! exactly what the input did, on the values that showed the bug. `narrowed` lists the values the
//! input accepts and the output deliberately refuses (`null` for a property that may be left out
//! instead). For a row with an `error`, the instances are checked against the input alone: they
//! show why no output could be faithful. `case` says what the row shows.

use serde_json::Value;
use toolschema::{
    SelfContainedOptions, self_contained_input_schema, self_contained_input_schema_owned,
    self_contained_input_schema_owned_with, self_contained_input_schema_with,
};

fn rows() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/foreign/regressions.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn validator(schema: &Value, what: &str) -> Result<jsonschema::Validator, String> {
    jsonschema::validator_for(schema).map_err(|e| format!("the {what} does not load ({e}): {schema}"))
}

/// Checks one row; every failure is pushed with the row's name.
fn check(row: &Value, failures: &mut Vec<String>) {
    let case = row["case"].as_str().unwrap();
    let schema = &row["schema"];
    let mut fail = |message: String| failures.push(format!("{case}: {message}"));
    let options = SelfContainedOptions::new();
    let answers = [
        self_contained_input_schema(schema, "lookup"),
        self_contained_input_schema_with(schema, "lookup", &options),
        self_contained_input_schema_owned(schema.clone(), "lookup"),
        self_contained_input_schema_owned_with(schema.clone(), "lookup", &options),
    ];
    let answer = answers[0].clone();
    if answers
        .iter()
        .any(|a| a.as_ref().map_err(ToString::to_string) != answer.as_ref().map_err(ToString::to_string))
    {
        fail(format!("the variants disagree: {answers:?}"));
    }
    let input = match validator(schema, "input") {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let instances = |key: &str| row.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
    let (accepts, refuses, narrowed) = (instances("accepts"), instances("refuses"), instances("narrowed"));
    if accepts.is_empty() && refuses.is_empty() {
        fail("a row shows its point on at least one instance".into());
    }
    for value in accepts.iter().chain(&narrowed) {
        if !input.is_valid(value) {
            fail(format!("the input refuses {value}, which the row says it accepts"));
        }
    }
    for value in &refuses {
        if input.is_valid(value) {
            fail(format!("the input accepts {value}, which the row says it refuses"));
        }
    }
    match (row.get("output"), row.get("error"), answer) {
        (Some(want), None, Ok(out)) => {
            if &out != want {
                fail(format!("output\n  got:  {out}\n  want: {want}"));
            }
            if let Err(e) = jsonschema::meta::validate(&out) {
                fail(format!("the output is not a valid schema of the draft it declares ({e}): {out}"));
            }
            let output = match validator(&out, "output") {
                Ok(v) => v,
                Err(e) => return fail(e),
            };
            for value in &accepts {
                if !output.is_valid(value) {
                    fail(format!("the output refuses {value}, which the input accepts: {out}"));
                }
            }
            for value in refuses.iter().chain(&narrowed) {
                if output.is_valid(value) {
                    fail(format!("the output accepts {value}, which it must refuse: {out}"));
                }
            }
        }
        (None, Some(want), Err(e)) => {
            let got = (e.kind(), e.pointer(), e.reference());
            let expected = (
                want["kind"].as_str().unwrap(),
                want["pointer"].as_str().unwrap(),
                want.get("reference").and_then(Value::as_str),
            );
            if got != expected {
                fail(format!("error {got:?}, want {expected:?} ({e})"));
            }
            let message = e.to_string();
            if !message.starts_with("tool `lookup`: ") || !message.contains(&format!("`{}`", e.pointer())) {
                fail(format!("the message must name the tool and the pointer: {message}"));
            }
            if let Some(part) = want.get("message").and_then(Value::as_str)
                && !message.contains(part)
            {
                fail(format!("the message must say {part:?}: {message}"));
            }
        }
        (_, _, answer) => fail(format!("unexpected answer {answer:?}")),
    }
}

#[test]
fn every_regression_row_gives_its_answer_and_keeps_the_meaning_of_its_instances() {
    let rows = rows();
    assert!(rows.len() >= 27, "{} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        assert!(row["case"].is_string(), "{row}: each row says what it shows under `case`");
        check(row, &mut failures);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
