//! `self_contained_input_schema` over the public corpus (pydantic, MCP, BFCL), against
//! `serde_json::from_slice` of the same compact bytes (target: at most 1.5x) and a deep clone of
//! the same values, whole and per subset.
//!
//! `cargo bench --bench foreign` (see BENCHMARKS.md).

mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;

fn corpus(c: &mut Criterion) {
    let items = common::public_corpus();
    if items.is_empty() {
        return;
    }
    let subsets: Vec<(&str, Vec<&common::Item>)> = ["all", "pydantic", "mcp", "bfcl"]
        .into_iter()
        .map(|set| {
            (set, items.iter().filter(|i| set == "all" || i.id.starts_with(&format!("{set}/"))).collect())
        })
        .collect();
    for (set, items) in &subsets {
        let mut group = c.benchmark_group(format!("self_contained/{set}"));
        group.throughput(Throughput::Elements(items.len() as u64));
        group.bench_function("serde_json_from_slice", |b| {
            b.iter(|| {
                items.iter().filter(|i| serde_json::from_slice::<Value>(black_box(&i.bytes)).is_ok()).count()
            });
        });
        group.bench_function("value_clone", |b| {
            b.iter(|| items.iter().map(|i| black_box(&i.value).clone()).filter(Value::is_object).count());
        });
        group.bench_function("self_contained_input_schema", |b| {
            b.iter(|| {
                items
                    .iter()
                    .filter(|i| {
                        toolschema::self_contained_input_schema(black_box(&i.value), &i.tool_name).is_ok()
                    })
                    .count()
            });
        });
        group.finish();
    }
}

criterion_group!(benches, corpus);
criterion_main!(benches);
