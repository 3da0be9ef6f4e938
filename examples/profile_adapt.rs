//! A fixed workload for the provider dialects' cost: every zoo type's schemars output through the
//! pipeline under one dialect, 50 times (uncached: `SchemaOptions::normalize`). Run it under
//! `json-schema` and under a provider dialect; the difference of the two callgrind totals is what
//! adapting (and building the restore plan) costs.
//!
//! ```text
//! cargo build --release --example profile_adapt --features schemars
//! valgrind --tool=callgrind target/release/examples/profile_adapt json-schema
//! valgrind --tool=callgrind target/release/examples/profile_adapt openai-strict
//! ```

#[path = "../tests/zoo/mod.rs"]
mod zoo;

use toolschema::{SchemaOptions, dialect};

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "openai-strict".into());
    let Some(d) = dialect::by_name(&name) else {
        eprintln!("no dialect `{name}`");
        std::process::exit(2);
    };
    let options = SchemaOptions::new().dialect(d);
    let schemas: Vec<serde_json::Value> = zoo::ZOO.iter().map(|e| (e.schemars)().to_value()).collect();
    let mut accepted = 0usize;
    for _ in 0..50 {
        for s in &schemas {
            accepted += usize::from(options.normalize(s.clone()).is_ok());
        }
    }
    println!("{accepted} accepted");
}
