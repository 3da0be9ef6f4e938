//! Restore plans, timed against what a caller does without them (see `common/compare.rs` for the
//! interleaved A/B timing; every figure is a ratio measured in this one process).
//!
//! - **restore + serde**: for every value of every zoo type (`tests/zoo`) under each provider
//!   dialect, `ToolSchema::restore` then `serde_json::from_value::<T>`, against
//!   `serde_json::from_value::<T>` alone on the same value (both take a copy of it, as a caller
//!   holding the model's arguments would hand them over). Target: at most 1.5x.
//! - **decode**: the same values, `ToolSchema::decode::<T>` (serde reading the arguments through
//!   the plan, no restored copy) against `serde_json::from_value::<T>` alone (both take a copy).
//!   Target: at most 1.2x.
//! - **adaptation**: the pipeline under each provider dialect against the `json-schema` pipeline,
//!   on every zoo type's schemars output (uncached: `SchemaOptions::normalize`). Target: at most 2x.
//!
//! `cargo bench --bench restore` prints a Markdown table; `COMPARE_ROUNDS=81` for steadier figures.

mod common;
#[path = "../tests/zoo/mod.rs"]
mod zoo;

use common::compare::{compare, human};
use serde_json::Value;
use toolschema::{SchemaOptions, dialect};

/// A zoo value: its type's schema, the type's decoder, the value, and the value in the provider's
/// terms.
type Case = (toolschema::ToolSchema, fn(Value) -> bool, Value, Value);

/// `schema.decode::<T>(args).is_ok()`, per zoo type by name.
type Decode = fn(&toolschema::ToolSchema, Value) -> bool;

/// A zoo value for the decode row: its schema, `from_value`, `decode`, the value, the value sent.
type DecodeCase = (toolschema::ToolSchema, fn(Value) -> bool, Decode, Value, Value);

macro_rules! decoders {
    ($($t:ty),* $(,)?) => {
        /// Every zoo type's `decode`, by name.
        const DECODERS: &[(&str, Decode)] =
            &[$((<$t as zoo::ZooType>::NAME, |s, v| s.decode::<$t>(v).is_ok())),*];
    };
}
zoo::for_each_zoo_type!(decoders);

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    println!("| what | baseline | candidate | ratio (median) | target |");
    println!("| --- | ---: | ---: | ---: | --- |");
    for name in ["openai-strict", "anthropic-strict", "gemini"] {
        let Some(d) = dialect::by_name(name) else { continue };
        let what = format!("restore + serde, zoo, {name}");
        if filter.as_deref().is_none_or(|f| what.contains(f)) {
            // Every value of every zoo type the dialect accepts, in the provider's terms.
            let mut cases: Vec<Case> = Vec::new();
            for entry in zoo::ZOO {
                let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d)) else { continue };
                for value in (entry.samples)(0xbe7c ^ entry.name.len() as u64, 16) {
                    let sent = schema.plan().encode(value.clone());
                    cases.push((schema.clone(), entry.decodes, value, sent));
                }
            }
            let r = compare(
                || cases.iter().filter(|(_, decode, value, _)| decode(value.clone())).count(),
                || {
                    cases
                        .iter()
                        .filter(|(schema, decode, _, sent)| schema.restore(sent.clone()).is_ok_and(decode))
                        .count()
                },
            );
            let per = cases.len() as f64;
            println!(
                "| {what} ({} values) | {} | {} | {:.2}x ({:.2}x) | ≤ 1.5x |",
                cases.len(),
                human(r.base_best_ns / per),
                human(r.cand_best_ns / per),
                r.best_ratio(),
                r.ratio
            );
        }
        let what = format!("decode, zoo, {name}");
        if filter.as_deref().is_none_or(|f| what.contains(f)) {
            let mut cases: Vec<DecodeCase> = Vec::new();
            for entry in zoo::ZOO {
                let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d)) else { continue };
                let Some(&(_, decode)) = DECODERS.iter().find(|(n, _)| *n == entry.name) else { continue };
                for value in (entry.samples)(0xbe7c ^ entry.name.len() as u64, 16) {
                    let sent = schema.plan().encode(value.clone());
                    cases.push((schema.clone(), entry.decodes, decode, value, sent));
                }
            }
            let r = compare(
                || cases.iter().filter(|(_, from_value, _, value, _)| from_value(value.clone())).count(),
                || cases.iter().filter(|(schema, _, decode, _, sent)| decode(schema, sent.clone())).count(),
            );
            let per = cases.len() as f64;
            println!(
                "| {what} ({} values) | {} | {} | {:.2}x ({:.2}x) | ≤ 1.2x |",
                cases.len(),
                human(r.base_best_ns / per),
                human(r.cand_best_ns / per),
                r.best_ratio(),
                r.ratio
            );
        }
        let what = format!("adaptation, zoo, {name}");
        if filter.as_deref().is_none_or(|f| what.contains(f)) {
            let schemas: Vec<Value> = zoo::ZOO
                .iter()
                .filter(|e| (e.schema)(&SchemaOptions::new().dialect(d)).is_ok())
                .map(|e| (e.schemars)().to_value())
                .collect();
            let base = SchemaOptions::new();
            let cand = SchemaOptions::new().dialect(d);
            let r = compare(
                || schemas.iter().filter(|s| base.normalize((*s).clone()).is_ok()).count(),
                || schemas.iter().filter(|s| cand.normalize((*s).clone()).is_ok()).count(),
            );
            let per = schemas.len() as f64;
            println!(
                "| {what} ({} types) | {} | {} | {:.2}x ({:.2}x) | ≤ 2x |",
                schemas.len(),
                human(r.base_best_ns / per),
                human(r.cand_best_ns / per),
                r.best_ratio(),
                r.ratio
            );
        }
    }
}
