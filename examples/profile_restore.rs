//! A fixed restore workload for callgrind and `perf`: every value of every zoo type under one
//! provider dialect, encoded into the provider's terms once, then restored 200 times.
//!
//! ```text
//! cargo build --release --example profile_restore --features schemars
//! valgrind --tool=callgrind target/release/examples/profile_restore openai-strict
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
    let mut cases = Vec::new();
    for entry in zoo::ZOO {
        let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d)) else { continue };
        for value in (entry.samples)(0xbe7c ^ entry.name.len() as u64, 16) {
            let sent = schema.plan().encode(value);
            cases.push((schema.clone(), sent));
        }
    }
    let mut restored = 0usize;
    for _ in 0..200 {
        for (schema, sent) in &cases {
            restored += usize::from(schema.restore(sent.clone()).is_ok());
        }
    }
    println!("{restored} restores over {} values", cases.len());
}
