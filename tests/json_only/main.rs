//! The tests that need no Rust type, one binary: foreign schemas (`self_contained_input_schema`,
//! `declared_type`, the corpus), coercion, schema diffs; with feature `hash` the RFC 8785 vectors,
//! with feature `tokens` the token counts. serde_json only otherwise, so
//! `cargo test --no-default-features --tests` runs it.
//!
//! Each file below was a test binary of its own; they share one here so the helpers are compiled
//! and the binary linked once (`docs/testing.md`). Run one file's tests with its module path as
//! the filter: `cargo test --test json_only coerce::`.

#[path = "../bless/mod.rs"]
mod bless;
#[path = "../corpus_dir/mod.rs"]
mod corpus_dir;
#[path = "../prop_run/mod.rs"]
mod prop_run;
#[path = "../work/mod.rs"]
mod work;

#[cfg(feature = "hash")]
mod canonical_vectors;
mod coerce;
mod diff_props;
mod foreign_corpus;
mod foreign_properties;
mod foreign_regressions;
mod foreign_rejections;
mod regression_files;
#[cfg(feature = "tokens")]
mod tokens;
mod validate;
