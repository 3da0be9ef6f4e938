#![allow(clippy::pedantic)]
//! Memory on hostile inputs, measured with a counting global allocator (`peak_alloc`): the peak
//! number of bytes allocated while one case runs, above what was allocated before it started.
//!
//! The bound asserted is linear in what goes in and what comes out: at most [`FACTOR`] times the
//! input's canonical size plus the accepted output's size, plus [`SLACK`]. Outputs are themselves
//! bounded by the size budgets (an expansion is refused before it is built), so an expansion that is
//! not checked first (inlining a doubling DAG naively) breaks the bound by orders of magnitude,
//! while a legitimate one (a 1,000-way shared definition inlined to 1.3 MB) stays within it. Time is not asserted; the measurements are printed (`--nocapture`).
//!
//! One test function, so the cases run one after another and the process-wide counter sees one
//! case at a time.

use peak_alloc::PeakAlloc;
use serde_json::{Map, Value, json};
use toolschema::{SchemaOptions, canonical, dialect};

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Peak extra memory allowed per byte of input plus output. A `serde_json::Value` costs far more
/// than its text: without `preserve_order` a one-entry object such as `{"type":"integer"}` (18
/// bytes) is a B-tree leaf of about 600 bytes, so an output made of many small objects takes ~35
/// times its size in memory (measured: 41 MB for the 1.3 MB inlined 1,000-way reference).
const FACTOR: usize = 64;
/// Peak extra memory allowed whatever the input (tables, small buffers, the result's envelope).
const SLACK: usize = 16 << 20;

/// Peak bytes allocated above the starting level while `f` runs.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATOR.current_usage();
    ALLOCATOR.reset_peak_usage();
    let out = f();
    (out, ALLOCATOR.peak_usage().saturating_sub(before))
}

/// `n` definitions, each an object whose two properties refer to the next: 2^n leaves if inlined
/// naively.
fn doubling_dag(n: usize) -> Value {
    let mut defs = Map::new();
    defs.insert(format!("D{n}"), json!({"type": "string"}));
    for i in (0..n).rev() {
        let next = format!("#/$defs/D{}", i + 1);
        defs.insert(
            format!("D{i}"),
            json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}, "required": ["l", "r"]}),
        );
    }
    json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/D0"}}, "required": ["root"], "$defs": defs})
}

fn thousand_way_shared() -> Value {
    let inner: Map<String, Value> =
        (0..50).map(|i| (format!("f{i:02}"), json!({"type": "integer"}))).collect();
    let props: Map<String, Value> =
        (0..1000).map(|i| (format!("p{i:04}"), json!({"$ref": "#/$defs/Shared"}))).collect();
    json!({"type": "object", "properties": props, "$defs": {"Shared": {"type": "object", "properties": inner}}})
}

fn huge_enum() -> Value {
    let members: Vec<Value> = (0..100_000).map(|i| json!(format!("m{i}"))).collect();
    json!({"type": "object", "properties": {"e": {"type": "string", "enum": members}}, "required": ["e"]})
}

fn ten_megabytes() -> Value {
    let description = "d".repeat(480);
    let props: Map<String, Value> = (0..21_000)
        .map(|i| (format!("p{i:06}"), json!({"type": "string", "description": description})))
        .collect();
    json!({"type": "object", "properties": props})
}

// Law: on every memory-hostile input, the canonical writer and hash, `self_contained_input_schema` and
// every dialect's normalize peak at most FACTOR × (input + accepted output) bytes + SLACK.
#[test]
fn hostile_inputs_use_memory_linear_in_their_size() {
    let cases: Vec<(&str, Value)> = vec![
        ("doubling DAG, 40 levels", doubling_dag(40)),
        ("1,000-way shared reference", thousand_way_shared()),
        ("100,000-member enum", huge_enum()),
        ("10 MB of properties", ten_megabytes()),
    ];
    let mut report = Vec::new();
    let mut over = Vec::new();
    for (name, input) in &cases {
        let size = canonical::to_vec(input).len();
        let bound = FACTOR * size + SLACK;
        let (_, writer) = peak_during(|| (canonical::to_vec(input).len(), toolschema::schema_hash(input)));
        report.push(format!("{name}: {size} input bytes; canonical writer + hash peak {writer}"));
        if writer > bound {
            over.push(format!("{name} / canonical writer: {writer} > {bound}"));
        }
        let (result, peak) = peak_during(|| {
            toolschema::self_contained_input_schema(input, "memory").map(|v| v.to_string().len())
        });
        let outcome = match &result {
            Ok(bytes) => format!("accepted, {bytes} bytes"),
            Err(e) => format!("refused: {}", e.kind()),
        };
        report.push(format!("  self_contained_input_schema: peak {peak} ({outcome})"));
        let bound = bound + FACTOR * result.as_ref().map_or(0, |bytes| *bytes);
        if peak > bound {
            over.push(format!("{name} / self_contained_input_schema: {peak} > {bound}"));
        }
        for &d in dialect::builtin() {
            let copy = input.clone();
            let options = SchemaOptions::new().dialect(d);
            let (result, peak) =
                peak_during(move || options.normalize(copy).map(|s| s.canonical_json().len()));
            let outcome = match &result {
                Ok(bytes) => format!("accepted, {bytes} bytes"),
                Err(e) => format!("refused: {}", e.to_string().chars().take(80).collect::<String>()),
            };
            report.push(format!("  {}: peak {peak} ({outcome})", d.name()));
            let bound = bound + FACTOR * result.as_ref().map_or(0, |bytes| *bytes);
            if peak > bound {
                over.push(format!("{name} / {}: {peak} > {bound}", d.name()));
            }
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(over.is_empty(), "memory beyond {FACTOR} x input + {SLACK}:\n{}", over.join("\n"));
}
