//! A fixed workload for instruction counts (callgrind) of `self_contained_input_schema` over the
//! public corpus (`pydantic/`, `mcp/`, `bfcl/`), against a deep clone of the same values:
//!
//! ```text
//! cargo build --release --example profile_foreign
//! valgrind --tool=callgrind target/release/examples/profile_foreign borrowed 20
//! valgrind --tool=callgrind target/release/examples/profile_foreign clone 20
//! ```
//!
//! Modes: `borrowed` (`self_contained_input_schema`), `owned` (`self_contained_input_schema_owned`
//! on copies made before the timed part), `clone` (`Value::clone` and its drop). Reads the corpus
//! from `$TOOLSCHEMA_CORPUS` or `../shared/corpus`.

#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "borrowed".to_owned());
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let items = common::public_corpus();
    let mut kept = 0usize;
    for _ in 0..count {
        match mode.as_str() {
            "clone" => {
                for item in &items {
                    kept +=
                        std::hint::black_box(item.value.clone()).as_object().map_or(0, serde_json::Map::len);
                }
            }
            "owned" => {
                let copies: Vec<_> = items.iter().map(|i| i.value.clone()).collect();
                for (item, value) in items.iter().zip(copies) {
                    kept += usize::from(
                        toolschema::self_contained_input_schema_owned(value, &item.tool_name).is_ok(),
                    );
                }
            }
            _ => {
                for item in &items {
                    kept += usize::from(
                        toolschema::self_contained_input_schema(&item.value, &item.tool_name).is_ok(),
                    );
                }
            }
        }
    }
    println!("{} schemas, {kept}", items.len());
}
