//! Restore plans on schemas nobody on the project wrote: the MCP and pydantic schemas of the shared
//! corpus (`../shared/corpus`, or `$TOOLSCHEMA_CORPUS`; skipped with a notice when absent) and
//! generated ones, under every provider dialect.
//!
//! Instances of each original schema are generated (a small generator that follows `type`,
//! `properties`, `items`, `enum`, `anyOf` and `$ref`) and kept only where a real validator (the
//! `jsonschema` crate) says the original accepts them. The laws are the ones the zoo's property
//! tests check for Rust types (`tests/dialects.rs`), here for foreign schemas.

mod zoo;

use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use toolschema::dialect::{self, AdaptContext};
use toolschema::{SchemaDialect, SchemaOptions};
use zoo::{openapi_as_json_schema, without_null_keys};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("TOOLSCHEMA_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if dir.join("mcp").is_dir() {
        Some(dir)
    } else {
        eprintln!("notice: no foreign-schema corpus at {}; skipping the corpus checks", dir.display());
        None
    }
}

/// Every MCP and pydantic schema of the corpus, with its label.
fn corpus_schemas() -> Vec<(String, Value)> {
    let Some(dir) = corpus() else { return Vec::new() };
    let mut out = Vec::new();
    for sub in ["mcp", "pydantic"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") {
                    let text = std::fs::read_to_string(&p).unwrap_or_default();
                    if let Ok(v) = serde_json::from_str(&text) {
                        out.push((p.strip_prefix(&dir).unwrap_or(&p).display().to_string(), v));
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn providers() -> Vec<&'static dyn SchemaDialect> {
    ["openai-strict", "anthropic-strict", "gemini", "mcp"]
        .iter()
        .filter_map(|n| dialect::by_name(n))
        .collect()
}

/// A small deterministic generator of values for a schema: not every value, but values of every
/// shape the schema names (each branch, optional properties present and absent, map entries).
struct Gen<'r> {
    root: &'r Value,
    seed: u64,
}

impl Gen<'_> {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn value(&mut self, s: &Value, depth: usize) -> Value {
        let Value::Object(m) = s else { return json!("any") };
        if depth > 12 {
            return Value::Null;
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = toolschema::refs::resolve(self.root, r).cloned().unwrap_or(Value::Bool(true));
            return self.value(&target, depth + 1);
        }
        if let Some(c) = m.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(values)) = m.get("enum") {
            let i = self.pick(values.len());
            return values.get(i).cloned().unwrap_or(Value::Null);
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = m.get(k) {
                let i = self.pick(branches.len());
                return self.value(&branches[i], depth + 1);
            }
        }
        if let Some(Value::Array(members)) = m.get("allOf")
            && let Some(first) = members.first()
        {
            return self.value(first, depth + 1);
        }
        let types: Vec<&str> = match m.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            None if m.contains_key("properties") => vec!["object"],
            None if m.contains_key("items") => vec!["array"],
            _ => vec!["string", "integer", "object", "null"],
        };
        let t = types[self.pick(types.len())];
        let num = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_f64);
        match t {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.next().is_multiple_of(2)),
            "integer" => {
                let lo = num(m, "minimum").unwrap_or(-5.0).max(-1e6) as i64;
                let hi = num(m, "maximum").unwrap_or(lo as f64 + 100.0).min(1e6) as i64;
                json!(lo + (self.next() % ((hi - lo).max(0) as u64 + 1)) as i64)
            }
            "number" => {
                let lo = num(m, "minimum").unwrap_or(-5.0).max(-1e6);
                json!(lo + (self.next() % 100) as f64 / 4.0)
            }
            "string" => {
                let len = m.get("minLength").and_then(Value::as_u64).unwrap_or(0).max(1 + self.next() % 6);
                let len = m.get("maxLength").and_then(Value::as_u64).map_or(len, |max| len.min(max));
                json!((0..len).map(|i| char::from(b'a' + ((self.next() + i) % 26) as u8)).collect::<String>())
            }
            "array" => {
                let n = m.get("minItems").and_then(Value::as_u64).unwrap_or(0).max(self.next() % 3) as usize;
                let item = m.get("items").cloned().unwrap_or(Value::Bool(true));
                Value::Array((0..n).map(|_| self.value(&item, depth + 1)).collect())
            }
            _ => {
                let mut out = Map::new();
                let required: Vec<&str> = m
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                if let Some(Value::Object(props)) = m.get("properties") {
                    for (name, p) in props {
                        if required.contains(&name.as_str()) || self.next().is_multiple_of(2) {
                            let v = self.value(p, depth + 1);
                            out.insert(name.clone(), v);
                        }
                    }
                }
                if let Some(extra @ Value::Object(_)) = m.get("additionalProperties") {
                    for i in 0..self.next() % 3 {
                        let v = self.value(extra, depth + 1);
                        out.insert(format!("k{i}"), v);
                    }
                }
                Value::Object(out)
            }
        }
    }
}

/// Whether `back` is `v` but for keys `v` leaves out that `back` holds with the value the schema
/// declares as their default (what absent means, sent explicitly), null and absent alike.
fn same_up_to_defaults(back: &Value, v: &Value, schema: &Value, root: &Value) -> bool {
    let (back, v) = (without_null_keys(back), without_null_keys(v));
    fn go(back: &Value, v: &Value, schemas: &[&Value], root: &Value) -> bool {
        let resolved: Vec<&Value> = schemas.iter().flat_map(|s| alternatives(s, root, 0)).collect();
        match (back, v) {
            (Value::Object(b), Value::Object(o)) => {
                let prop = |k: &str| -> Vec<&Value> {
                    resolved.iter().filter_map(|s| s.get("properties").and_then(|p| p.get(k))).collect()
                };
                b.iter().all(|(k, bv)| match o.get(k) {
                    Some(ov) => go(bv, ov, &prop(k), root),
                    None => prop(k)
                        .iter()
                        .flat_map(|s| alternatives(s, root, 0))
                        .any(|s| s.get("default").map(without_null_keys).as_ref() == Some(bv)),
                }) && o.keys().all(|k| b.contains_key(k))
            }
            (Value::Array(b), Value::Array(o)) => {
                let items: Vec<&Value> = resolved.iter().filter_map(|s| s.get("items")).collect();
                b.len() == o.len() && b.iter().zip(o).all(|(x, y)| go(x, y, &items, root))
            }
            _ => back == v,
        }
    }
    go(&back, &v, &[schema], root)
}

/// A schema and every schema it may stand for: through `$ref`, and each branch of a union.
fn alternatives<'v>(s: &'v Value, root: &'v Value, depth: usize) -> Vec<&'v Value> {
    if depth > 16 {
        return vec![s];
    }
    let mut out = vec![s];
    if let Some(t) = s.get("$ref").and_then(Value::as_str).and_then(|r| toolschema::refs::resolve(root, r)) {
        out.extend(alternatives(t, root, depth + 1));
    }
    for k in ["anyOf", "oneOf", "allOf"] {
        for b in s.get(k).and_then(Value::as_array).into_iter().flatten() {
            out.extend(alternatives(b, root, depth + 1));
        }
    }
    out
}

// Laws, over every corpus schema a provider dialect accepts:
// - completeness: every generated instance v the original accepts encodes to a v' the provider's
//   schema accepts, and restore(v') is v (null and absent alike);
// - end-to-end soundness: every mutant of v' the provider's schema accepts restores to a value the
//   original accepts, or is refused by restore.
#[test]
fn corpus_instances_encode_restore_and_stay_sound_under_every_provider_dialect() {
    let schemas = corpus_schemas();
    if schemas.is_empty() {
        return;
    }
    let (mut instances, mut mutants, mut refused) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for (label, raw) in &schemas {
        let Ok(original) = SchemaOptions::new().reject_any(false).normalize(raw.clone()) else { continue };
        let Ok(check_original) = jsonschema::draft202012::new(original.as_value()) else { continue };
        for d in providers() {
            let Ok(adapted) = SchemaOptions::new().reject_any(false).dialect(d).normalize(raw.clone()) else {
                continue;
            };
            let provider_schema = if d.name().starts_with("gemini") {
                openapi_as_json_schema(adapted.as_value())
            } else {
                adapted.as_value().clone()
            };
            let check_provider = zoo::validator(&provider_schema);
            let root = original.as_value();
            let mut generator = Gen { root, seed: label.len() as u64 };
            for _ in 0..8 {
                let v = generator.value(root, 0);
                if !check_original.is_valid(&v) {
                    continue;
                }
                instances += 1;
                let sent = adapted.plan().encode(v.clone());
                if !check_provider.is_valid(&sent) {
                    failures.push(format!(
                        "{label} under `{}`: {v} encodes to {sent}, which it refuses",
                        d.name()
                    ));
                    continue;
                }
                match adapted.restore(sent.clone()) {
                    Ok(back) if same_up_to_defaults(&back, &v, root, root) => {}
                    Ok(back) => {
                        failures.push(format!("{label} under `{}`: {v} -> {sent} -> {back}", d.name()))
                    }
                    Err(e) => {
                        failures.push(format!("{label} under `{}`: {v} -> {sent} refused: {e}", d.name()))
                    }
                }
                for m in zoo::mutants(&sent) {
                    if !check_provider.is_valid(&m) {
                        continue;
                    }
                    mutants += 1;
                    match adapted.restore(m.clone()) {
                        Err(_) => refused += 1,
                        Ok(back) if check_original.is_valid(&back) => {}
                        Ok(back) => failures.push(format!(
                            "{label} under `{}`: accepts {m}, restored to {back}, which the original refuses",
                            d.name()
                        )),
                    }
                }
            }
        }
    }
    eprintln!("{instances} instances, {mutants} accepted mutants ({refused} refused by restore)");
    assert!(instances > 500, "too few instances ({instances}) for the laws to mean much");
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}

// Law: a plan is derived from the schema alone: adapting the same schema twice gives the same
// plan, so a gateway may rebuild it at call time.
#[test]
fn the_same_schema_gives_the_same_plan() {
    for (label, raw) in corpus_schemas().iter().take(60) {
        for d in providers() {
            let cx = AdaptContext::default();
            let (Ok(a), Ok(b)) = (dialect::adapt(d, raw.clone(), &cx), dialect::adapt(d, raw.clone(), &cx))
            else {
                continue;
            };
            assert_eq!(a.plan, b.plan, "{label} under `{}`", d.name());
        }
    }
}

// Law: restore never panics and refuses arguments deeper than its budget, however hostile.
#[test]
fn hostile_arguments_give_a_result_or_a_fault() {
    let schema = json!({"type": "object", "properties": {
        "m": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}},
        "any": {}
    }});
    let adapted = dialect::adapt(&dialect::OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
    // Built by hand: `json!` serialises an interpolated value, recursively.
    let mut deep = json!(1);
    for _ in 0..2_000 {
        let entry = Map::from_iter([("key".to_owned(), json!("k")), ("value".to_owned(), deep)]);
        deep = Value::Array(vec![Value::Object(entry)]);
    }
    let deep = Value::Object(Map::from_iter([("m".to_owned(), deep), ("any".to_owned(), Value::Null)]));
    let cases = [
        json!(null),
        json!([]),
        json!({"m": "x", "any": 3}),
        json!({"m": [{"key": 1, "value": 2}], "any": "{"}),
        json!({"m": [{"key": "a", "value": [{"key": "b", "value": -1}]}], "any": "[1"}),
        deep,
    ];
    for args in cases {
        // Whatever comes back may be as deep as the arguments: freed without recursion.
        if let Ok(v) = adapted.plan.restore(args) {
            toolschema::walk::drop_any_depth(v);
        }
    }
}

/// The provider's schema as JSON Schema (Gemini's `nullable` read as a `null` type), validated.
fn provider_validator(d: &dyn SchemaDialect, schema: &Value) -> jsonschema::Validator {
    if d.name().starts_with("gemini") {
        zoo::validator(&openapi_as_json_schema(schema))
    } else {
        zoo::validator(schema)
    }
}

// A named property beside `additionalProperties: true` or `{}` (zod's `.passthrough()`, pydantic's
// `extra="allow"`) is itself, not one of the further keys: its string is not parsed as JSON text,
// and no entry may name it.
#[test]
fn a_named_property_beside_an_open_map_is_restored_as_itself_not_as_json_text() {
    for extra in [json!(true), json!({})] {
        let schema = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
            "additionalProperties": extra});
        for name in ["openai-strict", "anthropic-strict", "gemini"] {
            let d = dialect::by_name(name).unwrap();
            let adapted = SchemaOptions::new().dialect(d).normalize(schema.clone()).unwrap();
            let restore = |v: Value| adapted.restore(v);
            assert_eq!(
                restore(json!({"id": "r1", "additional_properties": []})).unwrap(),
                json!({"id": "r1"})
            );
            assert_eq!(
                restore(json!({"id": "\"r1\"", "additional_properties": []})).unwrap(),
                json!({"id": "\"r1\""}),
                "{name}"
            );
            let value = json!({"id": "[1]", "x": [1], "y": "\"y\""});
            let sent = adapted.plan().encode(value.clone());
            assert!(provider_validator(d, adapted.as_value()).is_valid(&sent), "{name}: {sent}");
            assert_eq!(sent["id"], "[1]", "{name}");
            assert_eq!(restore(sent).unwrap(), value, "{name}");
            let err = restore(json!({"id": "a", "additional_properties": [{"key": "id", "value": "\"b\""}]}))
                .unwrap_err();
            assert_eq!(err.faults()[0].pointer, "/additional_properties/0", "{name}: {err}");
        }
    }
}
