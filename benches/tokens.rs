//! What the corpus's 200 MCP tools cost in tokens under each dialect, and how long counting them
//! takes (target: under 50 ms for all 200).
//!
//! `cargo bench --features tokens --bench tokens` prints two Markdown tables for BENCHMARKS.md:
//!
//! 1. per dialect: the tools it accepts (untyped positions allowed, as `mcp-proxy` does), their
//!    o200k tokens (each tool's name and schema; the corpus has no descriptions), the growth over
//!    `json-schema` on the same tools (what inlining and the encodings cost), and each provider's
//!    listing estimate;
//! 2. per dialect and adaptation kind: the sites, the tools that have it, and those tools' extra
//!    tokens over `json-schema` (shared with the other kinds a tool has; "alone" counts the tools
//!    whose only kind it is, where the attribution is exact).
//!
//! Then the timing: `ToolTokens::new` for all 200 tools against `canonical::to_string` of the
//! same schemas (the text counting reads), interleaved (`benches/common/compare.rs`), with the
//! absolute time per 200 tools beside the ratio. The encoding is loaded before timing starts.

mod common;

use common::compare::compare;
use serde_json::Value;
use std::collections::BTreeMap;
use toolschema::tokens::{Provider, ToolTokens};
use toolschema::{SchemaOptions, dialect};

fn main() {
    let items: Vec<common::Item> =
        common::public_corpus().into_iter().filter(|i| i.id.starts_with("mcp/")).collect();
    if items.is_empty() {
        return;
    }
    let base_opts = SchemaOptions::new().reject_any(false);
    let base: Vec<Option<ToolTokens>> = items
        .iter()
        .map(|i| {
            base_opts
                .normalize(i.value.clone())
                .ok()
                .map(|s| ToolTokens::new(&i.tool_name, None, s.as_value()))
        })
        .collect();
    println!(
        "| dialect | tools | o200k tokens | per tool (mean, max) | over `json-schema`, same tools | openai~ | anthropic~ | gemini~ |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut kinds_rows = Vec::new();
    for d in dialect::builtin() {
        let opts = SchemaOptions::new().dialect(*d).reject_any(false);
        let mut counted = Vec::new();
        let (mut ours, mut theirs) = (0usize, 0usize);
        // kind -> (sites, tools, extra tokens, tools alone, extra alone)
        let mut kinds: BTreeMap<&'static str, (usize, usize, i64, usize, i64)> = BTreeMap::new();
        for (item, b) in items.iter().zip(&base) {
            let Ok(s) = opts.normalize(item.value.clone()) else { continue };
            let t = ToolTokens::new(&item.tool_name, None, s.as_value());
            counted.push(t);
            let Some(b) = b else { continue };
            ours += t.tool();
            theirs += b.tool();
            let extra = t.tool() as i64 - b.tool() as i64;
            let mut here: BTreeMap<&'static str, usize> = BTreeMap::new();
            for a in s.adaptations() {
                *here.entry(a.kind.as_str()).or_default() += 1;
            }
            let alone = here.len() == 1;
            for (kind, sites) in here {
                let e = kinds.entry(kind).or_default();
                e.0 += sites;
                e.1 += 1;
                e.2 += extra;
                if alone {
                    e.3 += 1;
                    e.4 += extra;
                }
            }
        }
        let total: usize = counted.iter().map(ToolTokens::tool).sum();
        let max = counted.iter().map(ToolTokens::tool).max().unwrap_or(0);
        let mean = if counted.is_empty() { 0 } else { total / counted.len() };
        let growth = if theirs == 0 { 0.0 } else { 100.0 * (ours as f64 - theirs as f64) / theirs as f64 };
        let est: Vec<String> =
            Provider::ALL.iter().map(|p| p.listing_estimate(&counted).to_string()).collect();
        println!(
            "| `{}` | {} | {total} | {mean}, {max} | {:+} ({growth:+.1}%) | {} |",
            d.name(),
            counted.len(),
            ours as i64 - theirs as i64,
            est.join(" | ")
        );
        for (kind, (sites, tools, extra, alone, extra_alone)) in kinds {
            kinds_rows.push(format!(
                "| `{}` | `{kind}` | {sites} | {tools} | {extra:+} | {alone} | {extra_alone:+} |",
                d.name()
            ));
        }
    }
    println!();
    println!(
        "| dialect | adaptation | sites | tools | their extra tokens | tools with it alone | their extra tokens |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for row in &kinds_rows {
        println!("{row}");
    }
    println!();
    let schemas: Vec<(String, Value)> = items
        .iter()
        .filter_map(|i| {
            base_opts.normalize(i.value.clone()).ok().map(|s| (i.tool_name.clone(), s.into_value()))
        })
        .collect();
    let _ = toolschema::tokens::count("load the encoding before timing");
    let r = compare(
        || schemas.iter().map(|(_, s)| toolschema::canonical::to_string(s).len()).sum::<usize>(),
        || schemas.iter().map(|(n, s)| ToolTokens::new(n, None, s).tool()).sum::<usize>(),
    );
    println!(
        "counting {} tools: {:.2} ms (best batch {:.2} ms; target < 50 ms); {:.1}x the canonical writing it includes [median {:.1}x]",
        schemas.len(),
        r.cand_ns / 1e6,
        r.cand_best_ns / 1e6,
        r.best_ratio(),
        r.ratio
    );
}
