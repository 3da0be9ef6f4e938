//! A fixed workload for instruction counts (callgrind) of `schema_for`'s first call on the 50-type
//! family in `benches/family.rs`, against schemars' generation alone:
//!
//! ```text
//! cargo build --release --example profile_schema_for
//! valgrind --tool=callgrind target/release/examples/profile_schema_for schemars 100
//! valgrind --tool=callgrind target/release/examples/profile_schema_for ours 100
//! ```
//!
//! The difference of the two totals, divided by the count, is what the pipeline, the canonical
//! text and the hash cost per call. (Under valgrind SHA-256 runs without the SHA extensions, so
//! the hash counts far more instructions than it costs on a real CPU.)

#[path = "../benches/family.rs"]
mod family;

fn main() {
    let mut args = std::env::args().skip(1);
    let ours = args.next().as_deref() == Some("ours");
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let options = toolschema::SchemaOptions::new();
    let mut bytes = 0usize;
    for _ in 0..count {
        let generated = schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<family::Root>();
        if ours {
            let schema = options.from_schemars(generated).expect("the family is accepted");
            bytes += schema.canonical_json().len();
        } else {
            bytes += generated.as_object().map_or(0, serde_json::Map::len);
        }
    }
    println!("{bytes}");
}
