//! `toolschema::restore::validate` against the `jsonschema` crate's draft 2020-12 validator: the
//! same verdict on every probe value of every schema of the shared corpus (its MCP tools and
//! pydantic models) and of the public tool schemas in `fixtures/provider_rejections`.
//!
//! The probes per schema: plain values of every JSON type, and for an object schema an object
//! with each property given a value of its declared type, then the same with one required key
//! left out, with one property of the wrong type, and with a key no property names. `format` is
//! taken out of the schemas first (an annotation to the reference here; restore may check some
//! formats where the reader enforces them) and so is `$schema` (both read as 2020-12).

use crate::corpus_dir;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The schema with `format` and `$schema` taken out at every level (in `const`, `enum`,
/// `default` and `examples` too: harmless, they are compared by both validators alike).
fn strip(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.remove("$schema");
            if m.get("format").is_some_and(Value::is_string) {
                m.remove("format");
            }
            m.values_mut().for_each(strip);
        }
        Value::Array(a) => a.iter_mut().for_each(strip),
        _ => {}
    }
}

fn sample(schema: &Value) -> Value {
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => ts.first().and_then(Value::as_str).unwrap_or(""),
        _ => "",
    };
    match ty {
        "string" => json!("x"),
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(true),
        "array" => json!([]),
        "object" => json!({}),
        "null" => Value::Null,
        _ => schema.get("enum").and_then(|e| e.get(0)).cloned().unwrap_or(json!("x")),
    }
}

fn probes(schema: &Value) -> Vec<Value> {
    let mut out = vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1.5),
        json!(""),
        json!("x"),
        json!([]),
        json!([1, "a"]),
        json!({}),
    ];
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return out };
    let full: Map<String, Value> = props.iter().map(|(k, s)| (k.clone(), sample(s))).collect();
    out.push(Value::Object(full.clone()));
    if let Some(Value::Array(required)) = schema.get("required")
        && let Some(first) = required.first().and_then(Value::as_str)
    {
        let mut missing = full.clone();
        missing.remove(first);
        out.push(Value::Object(missing));
    }
    for (key, value) in full.iter().take(4) {
        let mut wrong = full.clone();
        wrong.insert(key.clone(), if value.is_string() { json!(7) } else { json!("seven") });
        out.push(Value::Object(wrong));
    }
    let mut extra = full;
    extra.insert("zz_not_a_property".into(), json!(1));
    out.push(Value::Object(extra));
    out
}

#[test]
fn validate_agrees_with_a_2020_12_validator_on_the_corpus_and_the_fixtures() {
    let mut files = Vec::new();
    json_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/provider_rejections"), &mut files);
    let corpus = corpus_dir::find("README.md");
    if let Some(corpus) = &corpus {
        json_files(&corpus.join("mcp"), &mut files);
        json_files(&corpus.join("pydantic"), &mut files);
    }
    let (mut schemas, mut checked, mut invalid) = (0, 0, 0);
    let mut disagreements = Vec::new();
    let mut found = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        let Ok(doc) = serde_json::from_str::<Value>(&text) else { continue };
        // The fixtures' file lists entries with a `schema`; a corpus file is one schema.
        match doc {
            Value::Array(entries) => {
                found.extend(
                    entries
                        .into_iter()
                        .filter_map(|mut e| e.get_mut("schema").map(Value::take))
                        .map(|s| (path, s)),
                );
            }
            doc => found.push((path, doc)),
        }
    }
    for (path, mut schema) in found {
        if !schema.is_object() {
            continue;
        }
        strip(&mut schema);
        let Ok(reference) = jsonschema::draft202012::new(&schema) else { continue };
        schemas += 1;
        for value in probes(&schema) {
            checked += 1;
            let ours = toolschema::restore::validate(&schema, &value);
            let theirs = reference.is_valid(&value);
            invalid += usize::from(!theirs);
            if ours.is_empty() != theirs {
                disagreements
                    .push(format!("{}: {value}: ours {ours:?}, reference valid: {theirs}", path.display()));
            }
        }
    }
    assert!(disagreements.is_empty(), "{} disagreements:\n{}", disagreements.len(), disagreements.join("\n"));
    // The probes reach both verdicts, over enough schemas to mean something: the fixtures alone
    // when the corpus is absent (the corpus part is then skipped with a notice).
    println!("{schemas} schemas, {checked} probes, {invalid} invalid");
    let (least_schemas, least_each) = if corpus.is_some() { (200, 100) } else { (20, 10) };
    assert!(schemas >= least_schemas, "only {schemas} schemas loaded");
    assert!(
        invalid >= least_each && checked - invalid >= least_each,
        "{invalid} of {checked} probes invalid"
    );
}
