#![allow(clippy::pedantic)]
//! RFC 8785 vectors made with an independent implementation (PyPI `rfc8785`, see
//! `fixtures/canonical/make_vectors.py`): our canonical bytes and `schema_hash` must match them
//! byte for byte.

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::path::Path;
use toolschema::{canonical, schema_hash};

fn vectors() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("canonical");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|f| f.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable vector");
            let name = p.file_stem().expect("file name").to_string_lossy().into_owned();
            (name, serde_json::from_str(&text).expect("vector is JSON"))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn canonical_bytes_and_hash_match_the_rfc8785_oracle_on_every_vector() {
    let vectors = vectors();
    assert!(vectors.len() >= 10, "only {} vectors", vectors.len());
    for (name, v) in vectors {
        let input: Value = serde_json::from_str(v["input"].as_str().expect("input is JSON text"))
            .unwrap_or_else(|e| panic!("{name}: input does not parse: {e}"));
        assert_eq!(canonical::to_string(&input), v["canonical"].as_str().expect("canonical"), "{name}");
        assert_eq!(schema_hash(&input).to_string(), v["hash"].as_str().expect("hash"), "{name}");
    }
}

#[test]
fn the_random_doubles_vector_holds_two_hundred_numbers() {
    let vectors = vectors();
    let (_, v) = vectors.iter().find(|(n, _)| n == "random_doubles").expect("random_doubles vector");
    let input: Value = serde_json::from_str(v["input"].as_str().expect("input")).expect("JSON");
    let numbers = input.as_array().expect("an array");
    assert_eq!(numbers.len(), 200);
    assert!(numbers.iter().all(|n| n.is_f64()));
}

#[test]
fn canonical_text_parses_back_to_the_same_canonical_text() {
    for (name, v) in vectors() {
        let canonical_text = v["canonical"].as_str().expect("canonical");
        let reparsed: Value = serde_json::from_str(canonical_text).expect("canonical text is JSON");
        assert_eq!(canonical::to_string(&reparsed), canonical_text, "{name}");
    }
}

// Our one documented extension: integers a u64/i64 holds exactly keep all their digits beyond
// ±2^53, where RFC 8785 (and the oracle, which refuses them) would go through an f64.
#[test]
fn integers_beyond_two_to_the_53_keep_their_exact_digits() {
    for (input, want) in [
        ("9007199254740993", "9007199254740993"),
        ("-9007199254740993", "-9007199254740993"),
        ("18446744073709551615", "18446744073709551615"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("[9007199254740992,9007199254740993]", "[9007199254740992,9007199254740993]"),
    ] {
        let v: Value = serde_json::from_str(input).expect("JSON");
        assert_eq!(canonical::to_string(&v), want, "{input}");
    }
    // Inside ±2^53 the extension and RFC 8785 agree: 2^53 - 1 as an integer or as a float.
    assert_eq!(
        canonical::to_string(&json!(9007199254740991_u64)),
        canonical::to_string(&json!(9007199254740991.0))
    );
    // A float (written with a fraction or exponent) beyond 2^53 is an f64 and is formatted as one.
    let v: Value = serde_json::from_str("9007199254740993.0").expect("JSON");
    assert_eq!(canonical::to_string(&v), "9007199254740992");
    let v: Value = serde_json::from_str("1.8446744073709552e19").expect("JSON");
    assert_eq!(canonical::to_string(&v), "18446744073709552000");
}

#[test]
fn two_integers_that_one_f64_would_merge_hash_differently() {
    assert_ne!(schema_hash(&json!(9007199254740992_u64)), schema_hash(&json!(9007199254740993_u64)));
    assert_ne!(schema_hash(&json!({"maximum": u64::MAX})), schema_hash(&json!({"maximum": u64::MAX - 1})));
}
