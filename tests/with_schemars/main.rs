//! The tests over Rust types and dialects, one binary (feature `schemars`): the zoo's goldens,
//! the pipeline's and every dialect's laws, restore and decode, soundness against serde, hostile
//! inputs, the provider rules, the fuzz corpus replayed; with feature `cli`, the `toolschema`
//! binary run as a process.
//!
//! Each file below was a test binary of its own; they share one here so the helpers (the zoo, the
//! tool-schema generator) are compiled and the binary linked once (`docs/testing.md`). Run one
//! file's tests with its module path as the filter: `cargo test --test with_schemars golden::`.

#[path = "../bless/mod.rs"]
mod bless;
#[path = "../corpus_dir/mod.rs"]
mod corpus_dir;
#[path = "../prop_run/mod.rs"]
mod prop_run;
#[path = "../provider_rules/mod.rs"]
mod provider_rules;
#[path = "../tool_schemas/mod.rs"]
mod tool_schemas;
#[path = "../zoo/mod.rs"]
mod zoo;

mod api;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cli_proxy;
mod counts;
mod decode_laws;
mod fuzz_replay;
mod golden;
mod hostile;
mod integrations;
mod laws;
mod limits;
mod props;
mod provider_api;
mod rejections;
mod restore;
mod restore_laws;
mod soundness;
