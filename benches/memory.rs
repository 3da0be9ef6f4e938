//! Memory and hostile inputs, measured with a counting global allocator (`peak_alloc`: this crate
//! forbids `unsafe`, which a `GlobalAlloc` impl needs).
//!
//! - Peak heap above the input while the pipeline (`SchemaOptions::normalize`) and `schema_hash`
//!   run, at 1 KB, 30 KB and 1 MB, in copies of the input `Value` and per KB of schema JSON
//!   (target: at most two copies at once).
//! - The hostile corpus inputs (the 40-level doubling DAG, 5,000-deep nesting): refused in under
//!   1 ms each with a peak under 16 MiB.
//!
//! `cargo bench --bench memory` prints both tables in Markdown.

mod common;

use peak_alloc::PeakAlloc;
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::Instant;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

/// Runs `f` and returns its result with the peak heap it added above what was live before it.
fn peak_above<R>(f: impl FnOnce() -> R) -> (R, usize) {
    ALLOC.reset_peak_usage();
    let before = ALLOC.current_usage();
    let out = f();
    (out, ALLOC.peak_usage().saturating_sub(before))
}

/// Heap held by a value: what building a clone of it allocates and keeps.
fn heap_size(v: &Value) -> usize {
    let before = ALLOC.current_usage();
    let copy = v.clone();
    let size = ALLOC.current_usage().saturating_sub(before);
    drop(black_box(copy));
    size
}

fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

/// The fastest of `n` runs of `f`, in microseconds.
fn best_micros<R>(n: usize, mut f: impl FnMut() -> R) -> f64 {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e6
        })
        .fold(f64::INFINITY, f64::min)
}

fn pipeline_memory() {
    println!(
        "| schema | JSON bytes | `Value` heap (one copy) | operation | peak above input | copies | peak per KB of JSON |"
    );
    println!("| --- | ---: | ---: | --- | ---: | ---: | ---: |");
    let options = toolschema::SchemaOptions::new();
    for &(label, size) in common::SIZES {
        let value = common::synthetic_schema(size);
        let json = serde_json::to_vec(&value).unwrap_or_default().len();
        let one = heap_size(&value);
        let row = |op: &str, peak: usize| {
            println!(
                "| {label} | {json} | {} | {op} | {} | {:.2} | {:.1} KiB |",
                kib(one),
                kib(peak),
                peak as f64 / one as f64,
                peak as f64 / (json as f64 / 1000.0) / 1024.0
            );
        };
        // The pipeline takes the value by move; the clone is made before the measurement starts.
        let input = value.clone();
        let (result, peak) = peak_above(|| options.normalize(input));
        assert!(result.is_ok(), "the synthetic schema is accepted: {result:?}");
        drop(result);
        row("`normalize` (pipeline + canonical + hash)", peak);
        let (_, peak) = peak_above(|| toolschema::schema_hash(&value));
        row("`schema_hash`", peak);
        let (_, peak) = peak_above(|| toolschema::canonical::to_vec(&value));
        row("`canonical::to_vec`", peak);
    }
}

/// The 5,000-deep inputs built in memory (serde_json's parser stops at 128 levels, so the files
/// cannot become a `Value`; a caller with `unbounded_depth` could hand us one like these).
fn deep_value(name: &str) -> Option<Value> {
    let mut v = json!({"type": "string"});
    for _ in 0..5000 {
        v = match name {
            "deep_items_5000" => json!({"type": "array", "items": v}),
            "deep_properties_5000" => json!({"type": "object", "properties": {"x": v}, "required": ["x"]}),
            _ => return None,
        };
    }
    Some(match name {
        "deep_items_5000" => json!({"type": "object", "properties": {"v": v}}),
        _ => v,
    })
}

fn hostile() {
    println!("| input | file bytes | operation | outcome | best time | peak heap | target |");
    println!("| --- | ---: | --- | --- | ---: | ---: | --- |");
    for name in ["dag_doubling_40", "deep_items_5000", "deep_properties_5000", "deep_ref_chain_5000"] {
        let Some(bytes) = common::hostile(name) else {
            eprintln!("notice: hostile/{name}.json not found; skipped");
            continue;
        };
        // What a caller does first: parse. serde_json refuses nesting past 128 levels itself.
        let (parsed, peak) = peak_above(|| serde_json::from_slice::<Value>(&bytes));
        let micros = best_micros(20, || serde_json::from_slice::<Value>(&bytes).is_err());
        let outcome = match &parsed {
            Ok(_) => "parsed".to_owned(),
            Err(e) => format!("refused: {e}"),
        };
        print_hostile(
            name,
            bytes.len(),
            "`serde_json::from_slice` (the caller's parse, not ours)",
            &outcome,
            micros,
            peak,
            false,
        );
        let value = match parsed {
            Ok(v) => v,
            Err(_) => match deep_value(name) {
                Some(v) => v,
                None => continue,
            },
        };
        let (result, peak) = peak_above(|| {
            toolschema::self_contained_input_schema(&value, name).map(toolschema::walk::drop_any_depth)
        });
        let micros = best_micros(20, || {
            toolschema::self_contained_input_schema(&value, name)
                .map(toolschema::walk::drop_any_depth)
                .is_err()
        });
        let outcome = match &result {
            Ok(()) => "**accepted**".to_owned(),
            Err(e) => format!("refused: {e}"),
        };
        print_hostile(name, bytes.len(), "`self_contained_input_schema`", &outcome, micros, peak, true);
        let options = toolschema::SchemaOptions::new();
        let input = value.clone();
        let (result, peak) = peak_above(|| options.normalize(input).map(|s| s.hash()));
        let outcome = match &result {
            Ok(_) => "accepted (no `$ref` is expanded)".to_owned(),
            Err(e) => format!("refused: {e}"),
        };
        // Timed without the clone that hands it the value.
        let micros = (0..5)
            .map(|_| {
                let input = value.clone();
                let t = Instant::now();
                let out = black_box(options.normalize(input));
                let took = t.elapsed().as_secs_f64() * 1e6;
                drop(out);
                took
            })
            .fold(f64::INFINITY, f64::min);
        print_hostile(name, bytes.len(), "`SchemaOptions::normalize`", &outcome, micros, peak, false);
        toolschema::walk::drop_any_depth(value);
    }
}

#[allow(clippy::too_many_arguments)]
fn print_hostile(name: &str, bytes: usize, op: &str, outcome: &str, micros: f64, peak: usize, target: bool) {
    let ok = micros < 1000.0 && peak < 16 << 20 && outcome.starts_with("refused");
    let mut outcome = outcome.to_owned();
    if outcome.len() > 90 {
        outcome.truncate(
            outcome.char_indices().take_while(|(i, _)| *i < 87).last().map_or(0, |(i, c)| i + c.len_utf8()),
        );
        outcome.push('…');
    }
    println!(
        "| {name} | {bytes} | {op} | {outcome} | {micros:.1} µs | {} | {} |",
        kib(peak),
        if !target {
            "–"
        } else if ok {
            "met"
        } else {
            "**missed**"
        }
    );
}

fn main() {
    pipeline_memory();
    println!();
    hostile();
}
