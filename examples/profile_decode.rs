//! A fixed decode workload for callgrind and `perf`: every value of every zoo type under one
//! provider dialect, encoded into the provider's terms once, then decoded 200 times
//! (`ToolSchema::decode::<T>`); with a second argument, `from_value` on the original values, or
//! `clone` (the copy both take), for comparison; a third argument sets the rounds,
//! a fourth picks one zoo type by name.
//!
//! ```text
//! cargo build --profile bench --example profile_decode --features schemars
//! valgrind --tool=callgrind target/release/examples/profile_decode openai-strict
//! target/release/examples/profile_decode openai-strict times
//! ```

#[path = "../tests/zoo/mod.rs"]
mod zoo;

use serde_json::Value;
use std::time::Instant;
use toolschema::{SchemaOptions, ToolSchema, dialect};

type Decode = fn(&ToolSchema, Value) -> bool;

macro_rules! decoders {
    ($($t:ty),* $(,)?) => {
        const DECODERS: &[(&str, Decode)] =
            &[$((<$t as zoo::ZooType>::NAME, |s, v| s.decode::<$t>(v).is_ok())),*];
    };
}
zoo::for_each_zoo_type!(decoders);

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "openai-strict".into());
    let what = std::env::args().nth(2).unwrap_or_else(|| "decode".into());
    let Some(d) = dialect::by_name(&name) else {
        eprintln!("no dialect `{name}`");
        std::process::exit(2);
    };
    let only = std::env::args().nth(4);
    let mut cases = Vec::new();
    for entry in zoo::ZOO.iter().filter(|e| only.as_deref().is_none_or(|o| o == e.name)) {
        let Ok(schema) = (entry.schema)(&SchemaOptions::new().dialect(d)) else { continue };
        let Some(&(_, decode)) = DECODERS.iter().find(|(n, _)| *n == entry.name) else { continue };
        for value in (entry.samples)(0xbe7c ^ entry.name.len() as u64, 16) {
            let sent = schema.plan().encode(value.clone());
            cases.push((entry.name, schema.clone(), decode, entry.decodes, value, sent));
        }
    }
    let run = |what: &str, rounds: usize| {
        let mut n = 0usize;
        for _ in 0..rounds {
            for (_, schema, decode, from_value, value, sent) in &cases {
                n += usize::from(match what {
                    "from_value" => from_value(value.clone()),
                    "clone" => std::hint::black_box(value.clone()).is_null(),
                    "clone-sent" => std::hint::black_box(sent.clone()).is_null(),
                    "restore" => schema.restore(sent.clone()).is_ok(),
                    _ => decode(schema, sent.clone()),
                });
            }
        }
        n
    };
    if what != "times" {
        let rounds = std::env::args().nth(3).and_then(|r| r.parse().ok()).unwrap_or(200);
        println!("{} over {} values", run(&what, rounds), cases.len());
        return;
    }
    // Per kind, the best of 15 rounds of 20 passes, per value.
    for what in ["clone", "clone-sent", "from_value", "decode", "restore"] {
        let best = (0..15)
            .map(|_| {
                let t = Instant::now();
                run(what, 20);
                t.elapsed().as_secs_f64() / (20 * cases.len()) as f64 * 1e9
            })
            .fold(f64::INFINITY, f64::min);
        println!("{what}: {best:.1} ns per value");
    }
}
