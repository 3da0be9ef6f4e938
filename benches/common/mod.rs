//! What the benches share: the public corpus (read in place) and synthetic schemas of a chosen size.
//!
//! The corpus is read from `$TOOLSCHEMA_CORPUS` or `<CARGO_MANIFEST_DIR>/../shared/corpus`; when it
//! is absent the corpus benches print a notice and measure nothing.

#![allow(dead_code)] // each bench uses part of this module

pub mod compare;

use serde_json::{Map, Value, json};
use std::path::PathBuf;

/// One corpus schema: where it came from, the tool name, its compact JSON bytes and the value.
pub struct Item {
    pub id: String,
    pub tool_name: String,
    pub bytes: Vec<u8>,
    pub value: Value,
}

/// The corpus folder, if present.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TOOLSCHEMA_CORPUS")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"), PathBuf::from);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("notice: no corpus at {} (set TOOLSCHEMA_CORPUS); corpus benches skipped", dir.display());
        None
    }
}

/// The public-shape corpus the Python peers are timed on: `pydantic/`, `mcp/` and
/// `bfcl/functions.jsonl`, in the order `bench_python.py` loads them. Bytes are the compact JSON.
pub fn public_corpus() -> Vec<Item> {
    let Some(dir) = corpus_dir() else { return Vec::new() };
    let mut items = Vec::new();
    for set in ["pydantic", "mcp"] {
        let mut files = Vec::new();
        collect_json(&dir.join(set), &mut files);
        files.sort();
        for path in files {
            let text = std::fs::read(&path).expect("corpus file is readable");
            let value: Value = serde_json::from_slice(&text).expect("corpus file is JSON");
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
            let id = path.strip_prefix(&dir).unwrap_or(&path).display().to_string();
            items.push(item(id, stem, value));
        }
    }
    let text = std::fs::read_to_string(dir.join("bfcl/functions.jsonl")).expect("bfcl is readable");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut row: Value = serde_json::from_str(line).expect("bfcl line is JSON");
        let id = format!("bfcl/{}", row["id"].as_str().unwrap_or_default());
        let name = row["name"].as_str().unwrap_or_default().to_owned();
        items.push(item(id, name, row["schema"].take()));
    }
    items
}

fn item(id: String, tool_name: String, value: Value) -> Item {
    let bytes = serde_json::to_vec(&value).expect("a Value serialises");
    Item { id, tool_name, bytes, value }
}

fn collect_json(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_json(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// A file under `hostile/`, as raw bytes.
pub fn hostile(name: &str) -> Option<Vec<u8>> {
    let path = corpus_dir()?.join("hostile").join(format!("{name}.json"));
    std::fs::read(path).ok()
}

/// Total compact bytes of a set of items.
pub fn total_bytes(items: &[Item]) -> usize {
    items.iter().map(|i| i.bytes.len()).sum()
}

/// A tool schema of about `target` compact bytes, in the shape real tool schemas have: a root
/// object whose properties refer to `$defs`, each definition an object with described properties,
/// string enums, bounded integers and floats, arrays of nested objects and of references, optional
/// unions, defaults. Every subschema is typed, so the pipeline accepts it. Deterministic.
pub fn synthetic_schema(target: usize) -> Value {
    let one = definition(0);
    let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
    if target < size(&one) {
        // Too small for a definition: one object with as many of a definition's properties as fit.
        let mut props = Map::new();
        let mut schema = root(&props, &[], &Map::new());
        for (k, v) in one["properties"].as_object().into_iter().flatten() {
            props.insert(k.clone(), v.clone());
            let next = root(&props, &[], &Map::new());
            if size(&next) > target {
                break;
            }
            schema = next;
        }
        schema.as_object_mut().map(|m| m.remove("$defs"));
        return schema;
    }
    let mut defs = Map::new();
    let mut root_props = Map::new();
    let mut required = Vec::new();
    let mut total = size(&root(&root_props, &required, &defs));
    let mut i = 0usize;
    while total < target {
        let name = format!("Record{i}");
        let def = definition(i);
        let prop = format!("record_{i}");
        let reference = if i.is_multiple_of(3) {
            json!({"type": "array", "items": {"$ref": format!("#/$defs/{name}")},
                   "description": format!("All the {name} entries the caller wants changed, in order."),
                   "maxItems": 50})
        } else {
            json!({"$ref": format!("#/$defs/{name}")})
        };
        total += size(&def) + size(&reference) + 2 * name.len() + 8;
        defs.insert(name, def);
        root_props.insert(prop.clone(), reference);
        if i.is_multiple_of(2) {
            total += prop.len() + 3;
            required.push(Value::String(prop));
        }
        i += 1;
    }
    root(&root_props, &required, &defs)
}

fn root(props: &Map<String, Value>, required: &[Value], defs: &Map<String, Value>) -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "UpdateRecords",
        "description": "Update a batch of records in the customer database. Each record is checked before anything is written.",
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": false,
        "$defs": defs,
    })
}

fn definition(i: usize) -> Value {
    let n = i as f64;
    json!({
        "title": format!("Record{i}"),
        "description": format!("A customer record of kind {i}: the fields the model fills to describe one change.\nLines may hold \"quotes\" and tabs\tlike this."),
        "type": "object",
        "properties": {
            "id": {"type": "string", "description": "The record's identifier, as shown in the admin console.", "minLength": 1, "maxLength": 64, "pattern": "^[a-z0-9-]+$"},
            "status": {"type": "string", "enum": ["active", "suspended", "closed", "pending_review", "archived"], "description": "Where the record stands in its life cycle."},
            "priority": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255, "default": 3, "description": "Higher runs first."},
            "score": {"type": "number", "format": "double", "minimum": -1.5, "maximum": 1.0e6 + n * 0.25, "description": "A confidence score between the bounds."},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 32}, "uniqueItems": true, "description": "Free-form labels; at most twenty.", "maxItems": 20},
            "address": {
                "type": "object",
                "description": "Where the customer lives.",
                "properties": {
                    "street": {"type": "string", "description": "Street and number."},
                    "city": {"type": "string", "description": "City or town, in the local language (e.g. Zürich, Kraków)."},
                    "country": {"type": "string", "enum": ["CH", "DE", "FR", "IT", "PL", "US"], "description": "ISO 3166-1 alpha-2 code."},
                    "lines": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "description": "Extra address lines, grouped."}
                },
                "required": ["street", "city", "country"],
                "additionalProperties": false
            },
            "note": {"anyOf": [{"type": "string", "description": "A note for the reviewer."}, {"type": "null"}], "default": null},
            "contacts": {"type": "array", "items": {"type": "object", "properties": {
                "kind": {"type": "string", "enum": ["email", "phone", "post"]},
                "value": {"type": "string", "description": "The address or number, as typed."},
                "verified": {"type": "boolean", "default": false}
            }, "required": ["kind", "value"]}},
        },
        "required": ["id", "status", "address"],
    })
}

/// The sizes the synthetic benches use, with their labels.
pub const SIZES: &[(&str, usize)] = &[("1KB", 1_000), ("30KB", 30_000), ("1MB", 1_000_000)];

/// A number-heavy tool schema of about `target` compact bytes: a root object of many properties
/// (about 295 bytes each: 102 at 30 KB, 3,400 at 1 MB), each an array of objects whose fields
/// carry float bounds (`"minimum": 0.5, "maximum": 1e6`, both f64, as a parser reads them) and
/// string lengths (`"maxLength": 64`). It has four f64s and an integer per 295 bytes and no prose,
/// where [`synthetic_schema`] has one f64 per 1,200 bytes and long descriptions: the canonical
/// writer's number formatting shows here. Deterministic.
pub fn number_heavy_schema(target: usize) -> Value {
    let bounded = || json!({"type": "number", "minimum": 0.5, "maximum": 1e6});
    let property = || {
        json!({
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "label": {"type": "string", "maxLength": 64},
                    "low": bounded(),
                    "high": bounded(),
                },
                "required": ["label", "low", "high"],
                "additionalProperties": false,
            },
        })
    };
    let each = serde_json::to_vec(&property()).map_or(1, |b| b.len()) + "\"field_0000\":,".len();
    let mut props = Map::new();
    for i in 0..target.div_ceil(each).max(1) {
        props.insert(format!("field_{i:04}"), property());
    }
    json!({"type": "object", "properties": props, "additionalProperties": false})
}

/// The sizes the number-heavy benches use ([`number_heavy_schema`]), with their labels.
pub const NUMBER_HEAVY_SIZES: &[(&str, usize)] =
    &[("30KB number-heavy", 30_000), ("1MB number-heavy", 1_000_000)];
