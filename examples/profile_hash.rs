//! A fixed workload for instruction counts (callgrind) of `schema_hash` against
//! `serde_json::to_vec` + SHA-256 on one of the benches' schemas:
//!
//! ```text
//! cargo build --release --example profile_hash
//! valgrind --tool=callgrind target/release/examples/profile_hash ours numbers-1MB 5
//! valgrind --tool=callgrind target/release/examples/profile_hash serde numbers-1MB 5
//! ```
//!
//! Modes: `ours` (`schema_hash`), `serde` (`serde_json::to_vec` and SHA-256 of its bytes),
//! `canonical` (`canonical::to_vec`, no hash), `to_vec` (`serde_json::to_vec`, no hash). Schemas:
//! `1KB`, `30KB`, `1MB` (`synthetic_schema`), `numbers-30KB`, `numbers-1MB`
//! (`number_heavy_schema`), `corpus` (every public corpus schema, per count). Under valgrind SHA-256 runs without the SHA extensions, so compare the
//! writers (`canonical`, `to_vec`) or subtract the hash's own count.

#[path = "../benches/common/mod.rs"]
mod common;

use sha2::{Digest, Sha256};
use std::hint::black_box;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "ours".to_owned());
    let shape = args.next().unwrap_or_else(|| "numbers-1MB".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let values = match shape.as_str() {
        "1KB" => vec![common::synthetic_schema(1_000)],
        "30KB" => vec![common::synthetic_schema(30_000)],
        "1MB" => vec![common::synthetic_schema(1_000_000)],
        "numbers-30KB" => vec![common::number_heavy_schema(30_000)],
        "corpus" => common::public_corpus().into_iter().map(|i| i.value).collect(),
        _ => vec![common::number_heavy_schema(1_000_000)],
    };
    let mut acc = 0u8;
    for _ in 0..count {
        for value in &values {
            acc ^= match mode.as_str() {
                "serde" => Sha256::digest(serde_json::to_vec(black_box(value)).unwrap_or_default())[0],
                "canonical" => toolschema::canonical::to_vec(black_box(value))[0],
                "to_vec" => serde_json::to_vec(black_box(value)).unwrap_or_default()[0],
                _ => toolschema::schema_hash(black_box(value)).as_bytes()[0],
            };
        }
    }
    println!("{mode} {shape} x{count}: {acc}");
}
