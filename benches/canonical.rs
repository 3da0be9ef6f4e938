//! Canonical bytes + SHA-256 of a `Value`, against `serde_json::to_vec` + SHA-256 of the same value
//! (target: at most 1.2x) and against the `serde_json_canonicalizer` crate + SHA-256 (target: at
//! least 5x faster), at 1 KB, 30 KB and 1 MB, on number-heavy schemas of 30 KB and 1 MB, and over
//! the public corpus.
//!
//! `cargo bench --bench canonical` (see BENCHMARKS.md).

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::hint::black_box;

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// The four ways to hash one value; each returns the digest so nothing is optimised away.
fn serde_json_sha(v: &Value) -> [u8; 32] {
    sha(&serde_json::to_vec(v).unwrap_or_default())
}
fn schema_hash(v: &Value) -> [u8; 32] {
    *toolschema::schema_hash(v).as_bytes()
}
fn canonical_vec_sha(v: &Value) -> [u8; 32] {
    sha(&toolschema::canonical::to_vec(v))
}
fn jcs_crate_sha(v: &Value) -> [u8; 32] {
    sha(&serde_json_canonicalizer::to_vec(v).unwrap_or_default())
}

/// A way to hash a value.
type Way = fn(&Value) -> [u8; 32];

const WAYS: &[(&str, Way)] = &[
    ("serde_json_to_vec+sha256", serde_json_sha),
    ("toolschema_schema_hash", schema_hash),
    ("toolschema_canonical_to_vec+sha256", canonical_vec_sha),
    ("serde_json_canonicalizer+sha256", jcs_crate_sha),
];

fn synthetic(c: &mut Criterion) {
    let synthetic = common::SIZES.iter().map(|&(label, size)| (label, common::synthetic_schema(size)));
    let numbers =
        common::NUMBER_HEAVY_SIZES.iter().map(|&(label, size)| (label, common::number_heavy_schema(size)));
    for (label, value) in synthetic.chain(numbers) {
        let bytes = serde_json::to_vec(&value).unwrap_or_default().len();
        // The canonical writer and the RFC 8785 crate must agree, or the comparison is meaningless.
        assert_eq!(
            toolschema::canonical::to_vec(&value),
            serde_json_canonicalizer::to_vec(&value).unwrap_or_default()
        );
        let mut group = c.benchmark_group(format!("hash/{label}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        for &(name, way) in WAYS {
            group.bench_with_input(BenchmarkId::from_parameter(name), &value, |b, v| {
                b.iter(|| way(black_box(v)));
            });
        }
        group.finish();
    }
}

fn corpus(c: &mut Criterion) {
    let items = common::public_corpus();
    if items.is_empty() {
        return;
    }
    let mut group = c.benchmark_group("hash/corpus");
    group.throughput(Throughput::Bytes(common::total_bytes(&items) as u64));
    for &(name, way) in WAYS {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut acc = 0u8;
                for item in &items {
                    acc ^= way(black_box(&item.value))[0];
                }
                acc
            });
        });
    }
    group.finish();
}

criterion_group!(benches, synthetic, corpus);
criterion_main!(benches);
