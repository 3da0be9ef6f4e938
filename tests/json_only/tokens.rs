#![allow(clippy::pedantic)]
//! `toolschema::tokens` against OpenAI's own `tiktoken`: the counts in
//! `fixtures/tokens/o200k_reference.json` were written by `fixtures/tokens/make_reference.py` with
//! tiktoken 0.14.0 over OpenAI's `o200k_base` file (its SHA-256 checked by tiktoken), for test
//! strings (non-ASCII scripts, emoji sequences, combining marks, whitespace runs, long
//! descriptions) and for the exact text of every corpus MCP schema.

use crate::corpus_dir;

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use toolschema::tokens::{self, Provider, ToolTokens};

fn reference() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tokens/o200k_reference.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corpus_dir() -> Option<PathBuf> {
    corpus_dir::find("mcp")
}

#[test]
fn o200k_counts_agree_with_tiktoken_on_the_reference_strings() {
    let reference = reference();
    let texts = reference["texts"].as_array().expect("texts");
    assert!(texts.len() >= 20, "the fixture lost its strings");
    let mut wrong = Vec::new();
    for entry in texts {
        let text = entry["text"].as_str().expect("text");
        let want = entry["tokens"].as_u64().expect("tokens") as usize;
        let got = tokens::count(text);
        if got != want {
            wrong.push(format!("{:?}...: {got}, tiktoken {want}", text.chars().take(40).collect::<String>()));
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
    // The fixture holds what the test claims to cover.
    let all: Vec<&str> = texts.iter().filter_map(|t| t["text"].as_str()).collect();
    assert!(all.iter().any(|t| t.len() > 10_000), "a long description");
    assert!(all.iter().any(|t| t.chars().any(|c| c as u32 > 0xFFFF)), "an astral character");
    assert!(all.iter().any(|t| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))), "CJK");
}

#[test]
fn o200k_counts_agree_with_tiktoken_on_every_corpus_schema_file() {
    let Some(corpus) = corpus_dir() else { return };
    let reference = reference();
    let files = reference["corpus_files"].as_object().expect("corpus_files");
    assert_eq!(files.len(), 200, "the reference covers the corpus's 200 MCP tools");
    let mut wrong = Vec::new();
    for (rel, want) in files {
        let path = corpus.join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let got = tokens::count(&text);
        if got as u64 != want.as_u64().expect("count") {
            wrong.push(format!("{rel}: {got}, tiktoken {want}"));
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

#[test]
fn a_tool_is_counted_as_its_name_description_and_canonical_schema() {
    let schema =
        json!({"type": "object", "properties": {"city": {"type": "string", "description": "Où aller."}}});
    let t = ToolTokens::new("get_weather", Some("Current weather in a city."), &schema);
    assert_eq!(t.name, tokens::count("get_weather"));
    assert_eq!(t.description, tokens::count("Current weather in a city."));
    assert_eq!(t.schema, tokens::count(&toolschema::canonical::to_string(&schema)));
    assert_eq!(t.tool(), t.name + t.description + t.schema);
    assert_eq!(ToolTokens::new("get_weather", None, &schema).description, 0);
}

#[test]
fn a_schemas_count_does_not_depend_on_its_key_order() {
    let a: Value = serde_json::from_str(
        r#"{"type":"object","required":["b"],"properties":{"b":{"type":"integer"},"a":{"type":"string"}}}"#,
    )
    .expect("json");
    let b: Value = serde_json::from_str(
        r#"{"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["b"],"type":"object"}"#,
    )
    .expect("json");
    assert_eq!(ToolTokens::new("t", None, &a), ToolTokens::new("t", None, &b));
}

#[test]
fn provider_estimates_add_the_framing_to_the_scaled_content() {
    let t = ToolTokens { name: 3, description: 10, schema: 987 };
    // OpenAI: the Cookbook's 7 per function, 12 per listing, no scaling.
    assert_eq!(Provider::OpenAi.tool_estimate(&t), 1007);
    assert_eq!(Provider::OpenAi.listing_estimate(&[t, t]), 2 * 1007 + 12);
    // Anthropic: scaled by 1017 per mille (rounded up), 346 for the tool-use system prompt.
    assert_eq!(Provider::Anthropic.tool_estimate(&t), 1017);
    assert_eq!(Provider::Anthropic.listing_estimate(&[t]), 1017 + 346);
    // Gemini: scaled by 1041 per mille, no published framing.
    assert_eq!(Provider::Gemini.tool_estimate(&t), 1041);
    assert_eq!(Provider::Gemini.scale(1), 2, "a fraction of a token rounds up");
    for p in Provider::ALL {
        assert_eq!(p.listing_estimate(&[]), 0, "{p:?}: no tools, no framing");
        assert_eq!(Provider::by_name(p.name()), Some(p));
        let f = p.framing();
        assert!(f.per_mille_range.0 <= f.per_mille && f.per_mille <= f.per_mille_range.1, "{p:?}");
    }
}

#[test]
fn each_provider_dialect_maps_to_its_provider() {
    assert_eq!(Provider::for_dialect("openai-strict"), Some(Provider::OpenAi));
    assert_eq!(Provider::for_dialect("openai-agents-mcp"), Some(Provider::OpenAi));
    assert_eq!(Provider::for_dialect("anthropic-strict"), Some(Provider::Anthropic));
    assert_eq!(Provider::for_dialect("gemini"), Some(Provider::Gemini));
    assert_eq!(Provider::for_dialect("gemini-ordered"), Some(Provider::Gemini));
    for neutral in ["json-schema", "mcp", "mcp-self-contained", "strict-subset", "inline-refs"] {
        assert_eq!(Provider::for_dialect(neutral), None, "{neutral}");
    }
}

#[test]
fn hostile_texts_are_counted_without_panic_and_within_their_length() {
    // One letter a megabyte long (a single pre-token), a megabyte of whitespace, and a megabyte
    // of CJK: each counted, never more tokens than bytes.
    let cases = ["a".repeat(1 << 20), " ".repeat(1 << 20) + "x", "語".repeat(1 << 18)];
    for text in &cases {
        let n = tokens::count(text);
        assert!(n > 0 && n <= text.len(), "{n} tokens for {} bytes", text.len());
    }
}
