//! `schema_for::<T>()` for a 50-type family: the first call (schemars' generation, the pipeline
//! and the hash, with no cache) against schemars' own `schema_for!` of the same type (target: at
//! most 2x), and the repeated call, a cache hit (target: under 100 ns).
//!
//! `cargo bench --bench schema_for` (see BENCHMARKS.md).

mod family;

use criterion::{Criterion, criterion_group, criterion_main};
use family::Root;
use std::hint::black_box;

fn first_call(c: &mut Criterion) {
    let options = toolschema::SchemaOptions::new();
    let mut group = c.benchmark_group("schema_for/family50");
    group.bench_function("schemars_schema_for", |b| b.iter(|| schemars::schema_for!(Root)));
    group.bench_function("toolschema_uncached", |b| {
        b.iter(|| {
            let generated = schemars::generate::SchemaSettings::draft2020_12()
                .into_generator()
                .into_root_schema_for::<Root>();
            options.from_schemars(black_box(generated))
        });
    });
    // Only the pipeline and hash, on a value schemars already made.
    let value = schemars::schema_for!(Root).to_value();
    group.bench_function("toolschema_normalize_only", |b| {
        b.iter_batched(|| value.clone(), |v| options.normalize(v), criterion::BatchSize::SmallInput);
    });
    let _ = toolschema::schema_for::<Root>();
    group.bench_function("toolschema_cache_hit", |b| b.iter(toolschema::schema_for::<Root>));
    group.finish();
}

criterion_group!(benches, first_call);
criterion_main!(benches);
