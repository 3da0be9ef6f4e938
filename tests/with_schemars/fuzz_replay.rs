#![allow(clippy::pedantic)]
//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/*`, seeds and every regression the
//! fuzzer found) through the same law functions the fuzz targets call (`fuzz/laws.rs`), on stable
//! Rust and without libFuzzer, so `cargo test` guards what the fuzzer established.

#[path = "../../fuzz/laws.rs"]
mod laws;

use std::path::{Path, PathBuf};

/// The files of `fuzz/corpus/<target>/`, sorted (hidden files skipped, as .gitignore does).
fn corpus(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.map(|e| e.path()).unwrap_or_else(|e| panic!("{}: {e}", dir.display())))
        .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    files.sort();
    files
}

/// Runs `law` on every corpus file of `target`; fails listing every broken law.
fn replay(target: &str, law: fn(&[u8]) -> laws::Verdict) {
    let files = corpus(target);
    assert!(!files.is_empty(), "fuzz/corpus/{target} has no seeds");
    let broken: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let data = match std::fs::read(path) {
                Ok(data) => data,
                // A fuzzer running beside the tests replaces corpus files as it reduces them.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
                Err(e) => panic!("{}: {e}", path.display()),
            };
            law(&data).err().map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(
        broken.is_empty(),
        "{} of {} inputs break the law:\n{}",
        broken.len(),
        files.len(),
        broken.join("\n")
    );
}

#[test]
fn canonical_corpus_keeps_the_canonical_writer_laws() {
    replay("canonical", laws::canonical_writer);
}

#[test]
fn dialect_corpus_keeps_the_adapt_and_check_laws() {
    replay("dialect_adapt", laws::dialect_adapt);
}

#[test]
fn cli_input_corpus_keeps_the_input_parsing_laws() {
    replay("cli_input", laws::cli_input);
}

#[test]
fn self_contained_corpus_keeps_the_inlining_laws() {
    replay("self_contained", laws::self_contained);
}

#[test]
fn declared_type_corpus_keeps_its_laws() {
    replay("declared_type", laws::declared_type);
}

#[test]
fn restore_corpus_keeps_the_restore_laws() {
    replay("restore", laws::restore);
}

// The laws must be able to fail: a law that accepts everything would make the replay vacuous.
#[test]
fn the_laws_reject_a_broken_value() {
    use serde_json::json;
    assert!(laws::same_json(&json!({"a": [1.0, -0.0]}), &json!({"a": [1, 0]})));
    assert!(!laws::same_json(&json!({"a": 1}), &json!({"a": 2})));
    assert!(!laws::same_json(&json!([1, 2]), &json!([1])));
    assert!(laws::parse(b"{\"a\": ").is_none());
    // Bytes that are not JSON are not the law's to judge; a writer that breaks it is caught.
    assert_eq!(laws::canonical_writer(b"not json"), Ok(()));
    assert_eq!(laws::canonical_writer(b"{\"a\": 0.125, \"b\": 1}"), Ok(()));
    let lossy = |v: &serde_json::Value| toolschema::canonical::to_string(v).replace("0.125", "0.12");
    let broken = laws::canonical_writer_with(b"{\"a\": 0.125, \"b\": 1}", &lossy);
    assert!(broken.is_err_and(|e| e.contains("re-parses to a different value")));
    let dropping = |v: &serde_json::Value| toolschema::canonical::to_string(v).replacen(",\"b\":1", "", 1);
    let broken = laws::canonical_writer_with(b"{\"a\": 0.125, \"b\": 1}", &dropping);
    assert!(broken.is_err_and(|e| e.contains("re-parses to a different value")));
    // The restore law's two halves, on a broken restore: a value that changes on the round trip,
    // and a value the output accepts that restores to one the schema refuses.
    assert!(laws::survives("x", &json!({"a": 1, "b": null}), Ok(json!({"a": 1}))).is_ok());
    let broken = laws::survives("x", &json!({"a": 1}), Ok(json!({"a": "1"})));
    assert!(broken.is_err_and(|e| e.contains("does not survive")));
    assert!(laws::survives("x", &json!({"a": 1}), Err("a fault".into())).is_err());
    let schema = jsonschema::draft202012::new(&json!({"type": "integer"})).unwrap();
    let output = jsonschema::draft202012::new(&json!({"type": "string"})).unwrap();
    assert!(laws::sound("x", &schema, &output, &json!("7"), &json!(7)).is_ok());
    let broken = laws::sound("x", &schema, &output, &json!("7"), &json!("7"));
    assert!(broken.is_err_and(|e| e.contains("which the schema refuses")));
    // Arguments the output refuses promise nothing.
    assert!(laws::sound("x", &schema, &output, &json!(7), &json!("7")).is_ok());
}
