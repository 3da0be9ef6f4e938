//! A fixed workload for instruction counts (callgrind) of the dialects that inline every `$ref`,
//! on what they are handed: the `json-schema` pipeline's output of each schema of the public
//! corpus (`pydantic/`, `mcp/`, `bfcl/`), adapted `count` times:
//!
//! ```text
//! cargo build --release --example profile_inline
//! valgrind --tool=callgrind target/release/examples/profile_inline inline-refs 10
//! valgrind --tool=callgrind target/release/examples/profile_inline clone 10
//! ```
//!
//! Modes: a dialect's name (`inline-refs`, `gemini`, `mcp-self-contained`: `dialect::apply` on a
//! copy), `clone` (the copy alone, and its drop: the baseline to subtract). The corpus is
//! normalised before the counted part, which callgrind still sees: subtract `clone`'s total.
//! Reads the corpus from `$TOOLSCHEMA_CORPUS` or `../shared/corpus`.

#[path = "../benches/common/mod.rs"]
mod common;

use serde_json::Value;
use toolschema::dialect::{self, AdaptContext};

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "inline-refs".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10);
    let values: Vec<Value> = common::public_corpus()
        .into_iter()
        .filter_map(|i| {
            toolschema::SchemaOptions::new().normalize(i.value).ok().map(toolschema::ToolSchema::into_value)
        })
        .collect();
    let cx = AdaptContext::default();
    let d = dialect::by_name(&mode);
    let mut kept = 0usize;
    for _ in 0..count {
        for v in &values {
            kept += match d {
                Some(d) => usize::from(dialect::apply(d, v.clone(), &cx).is_ok()),
                None => std::hint::black_box(v.clone()).as_object().map_or(0, serde_json::Map::len),
            };
        }
    }
    println!("{} schemas, {kept}", values.len());
}
