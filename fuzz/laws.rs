//! The laws the fuzz targets check, in one file that both the fuzz targets (cargo-fuzz, nightly
//! flags) and `tests/with_schemars/fuzz_replay.rs` (stable `cargo test`) include with `#[path]`,
//! so the committed corpus is replayed through exactly the checks the fuzzer ran.
//!
//! Each law takes the raw fuzz input and returns `Ok(())` when the law holds or the input is not
//! worth checking (bytes that are not JSON text, say), and `Err(what broke)` otherwise. A fuzz
//! target panics on `Err`; the replay test collects every `Err` with its file name.
//!
//! Inputs are parsed with serde_json's default recursion limit (128 nested arrays/objects), so a
//! parsed value is also safe to drop (serde_json's `Drop` recurses).

#![allow(dead_code)]

use serde_json::Value;
use toolschema::{SchemaOptions, canonical, dialect, schema_hash, walk};

/// `Ok(())` when the law holds (or does not apply), else what broke.
pub type Verdict = Result<(), String>;

/// The fuzz input as JSON, or `None` when it is not UTF-8 JSON text.
pub fn parse(data: &[u8]) -> Option<Value> {
    serde_json::from_str(std::str::from_utf8(data).ok()?).ok()
}

/// JSON equality where numbers compare by value (`1.0` equals `1`, `-0.0` equals `0`).
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(i), Some(j), _, _) => i == j,
            (_, _, Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

/// The same value with every object's entries inserted in reverse order (a different value only
/// when serde_json's `preserve_order` is on, which the fuzz build turns on).
pub fn reversed(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().rev().map(|(k, v)| (k.clone(), reversed(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(reversed).collect()),
        other => other.clone(),
    }
}

/// Law (canonical writer): the canonical bytes re-parse to a value equal to the input, and
/// re-canonicalise to identical bytes; values that are equal as JSON (keys in another order, the
/// same document pretty-printed and re-read) give identical bytes and hashes.
pub fn canonical_writer(data: &[u8]) -> Verdict {
    canonical_writer_with(data, &canonical::to_string)
}

/// [`canonical_writer`]'s law on the writer `write` (the replay test shows it failing on broken
/// writers).
pub fn canonical_writer_with(data: &[u8], write: &dyn Fn(&Value) -> String) -> Verdict {
    let Some(value) = parse(data) else { return Ok(()) };
    let text = write(&value);
    let back: Value =
        serde_json::from_str(&text).map_err(|e| format!("canonical output does not parse ({e}): {text}"))?;
    if !same_json(&value, &back) {
        return Err(format!("canonical output {text} re-parses to a different value than {value}"));
    }
    if write(&back) != text {
        return Err(format!("canonical output is not a fixed point: {text} became {}", write(&back)));
    }
    let pretty = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    let pretty: Value =
        serde_json::from_str(&pretty).map_err(|e| format!("pretty text does not re-read: {e}"))?;
    let hash = schema_hash(&value);
    for (what, other) in [("re-parsed", &back), ("reordered", &reversed(&value)), ("pretty-printed", &pretty)]
    {
        if write(other) != text {
            return Err(format!("the {what} value has other canonical bytes: {text} vs {}", write(other)));
        }
        if schema_hash(other) != hash {
            return Err(format!("the {what} value has another hash"));
        }
    }
    Ok(())
}

/// Whether an error message follows the project's rule: non-empty, starting in lowercase.
fn well_formed_message(message: &str) -> bool {
    message.chars().next().is_some_and(|c| !c.is_uppercase())
}

/// Every forbidden keyword of `d` found at a schema position of `schema`, walked within `max_depth`.
fn forbidden_hits(
    d: &dyn toolschema::SchemaDialect,
    schema: &Value,
    max_depth: usize,
) -> Result<Vec<String>, String> {
    let mut hits = Vec::new();
    walk::visit_all(schema, max_depth, &mut |ptr, node| {
        if let Value::Object(map) = node {
            for kw in d.forbidden_keywords() {
                if map.contains_key(*kw) {
                    hits.push(format!("`{kw}` at `{}`", ptr.as_str()));
                }
            }
        }
        true
    })
    .map_err(|at| format!("accepted output nests past the depth budget at `{at}`"))?;
    Ok(hits)
}

/// Law (dialect adapt-and-check): for every built-in dialect, at the default depth budget and at a
/// budget of 3, `SchemaOptions::normalize` of the fuzzed JSON returns a schema or a typed error
/// (with a lowercase message), never a panic; an accepted schema has no forbidden keyword at any
/// schema position, nests within the budget, carries canonical bytes and a hash that are those of
/// its value, and does not depend on the input's key order.
pub fn dialect_adapt(data: &[u8]) -> Verdict {
    let Some(value) = parse(data) else { return Ok(()) };
    let other_order = reversed(&value);
    for &d in dialect::builtin() {
        for max_depth in [walk::Depth::DEFAULT_MAX, 3] {
            let options = SchemaOptions::new().dialect(d).max_depth(max_depth);
            let result = options.normalize(value.clone());
            let again = options.normalize(other_order.clone());
            let where_ = format!("dialect `{}`, max_depth {max_depth}", d.name());
            match (&result, &again) {
                (Ok(a), Ok(b)) if a.as_value() == b.as_value() && a.hash() == b.hash() => {}
                (Err(a), Err(b)) if a.to_string() == b.to_string() => {}
                _ => {
                    return Err(format!(
                        "{where_}: the result depends on key order: {result:?} vs {again:?}"
                    ));
                }
            }
            match result {
                Ok(schema) => {
                    let hits = forbidden_hits(d, schema.as_value(), max_depth)
                        .map_err(|e| format!("{where_}: {e}"))?;
                    if !hits.is_empty() {
                        return Err(format!(
                            "{where_}: accepted output holds forbidden keywords: {}",
                            hits.join(", ")
                        ));
                    }
                    if schema.canonical_json() != canonical::to_string(schema.as_value()) {
                        return Err(format!(
                            "{where_}: canonical_json is not the canonical bytes of as_value"
                        ));
                    }
                    let envelope = serde_json::json!({"dialect": d.name(), "schema": schema.as_value()});
                    if schema.hash() != schema_hash(&envelope) {
                        return Err(format!("{where_}: hash is not the hash of the dialect/schema envelope"));
                    }
                }
                Err(e) => {
                    let message = e.to_string();
                    if !well_formed_message(&message) {
                        return Err(format!("{where_}: error message is empty or capitalised: {message:?}"));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The CLI's own input splitting (`src/bin/toolschema/input.rs`), included as it is.
#[path = "../src/bin/toolschema/input.rs"]
mod cli_input_module;

/// Each tool's schema (or why its entry cannot be read) as the CLI splits `text`; `Err` with the
/// CLI's message when the whole input is unreadable.
fn cli_tools(text: &str, jsonl: bool) -> Result<Vec<Result<Value, String>>, String> {
    let input = cli_input_module::parse("fuzz-input", text, jsonl).map_err(|e| e.0)?;
    Ok(input.tools.into_iter().map(|tool| tool.schema).collect())
}

/// Law (CLI input), on the CLI's own splitting code: text that is not JSON is refused with a
/// message giving its line (≥ 1) and column, never a panic; a `tools/list` document or JSON Lines is split into tools
/// and each tool's schema gives a schema or a typed, well-formed error under the CLI's default
/// (json-schema) and MCP dialects, whatever the other tools hold.
pub fn cli_input(data: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(data) else { return Ok(()) };
    for jsonl in [false, true] {
        let tools = match cli_tools(text, jsonl) {
            Ok(tools) => tools,
            Err(message) => {
                // The CLI's message: `invalid JSON at line L, column C: ...`, with L >= 1.
                let positioned = message
                    .strip_prefix("invalid JSON at line ")
                    .and_then(|rest| rest.split_once(", column "))
                    .is_some_and(|(line, _)| line.parse::<usize>().is_ok_and(|l| l >= 1));
                if !positioned || !well_formed_message(&message) {
                    return Err(format!("an unreadable input without a position: {message:?}"));
                }
                continue;
            }
        };
        for schema in tools.into_iter().flatten() {
            for name in ["json-schema", "mcp"] {
                let Some(d) = dialect::by_name(name) else { continue };
                if let Err(e) = SchemaOptions::new().dialect(d).normalize(schema.clone()) {
                    let message = e.to_string();
                    if !well_formed_message(&message) {
                        return Err(format!(
                            "dialect `{name}`: error message is empty or capitalised: {message:?}"
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The pointer of every `$ref` at a schema position of `schema` (walked within `max_depth`).
fn refs_in(schema: &Value, max_depth: usize) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    walk::visit_all(schema, max_depth, &mut |ptr, node| {
        if node.get("$ref").is_some() {
            found.push(ptr.as_str().to_owned());
        }
        true
    })
    .map_err(|at| format!("output nests past the depth budget at `{at}`"))?;
    Ok(found)
}

/// Law (`self_contained_input_schema`): on any JSON, under the default budgets and tiny ones, a
/// result or a typed error naming the tool (never a panic). An output has no `$ref` at any schema
/// position and no `$defs`/`definitions`, is an object schema with `type: "object"`, object
/// `properties` and array `required` (absent instead of empty under draft-04), nests within the
/// depth budget, is a fixed point (making it
/// self-contained again changes nothing), does not depend on the input's key order, and is what
/// the owned variant gives for the same input (the same value, or the same error).
pub fn self_contained(data: &[u8]) -> Verdict {
    use toolschema::{
        SelfContainedOptions, self_contained_input_schema_owned_with, self_contained_input_schema_with,
    };
    let Some(value) = parse(data) else { return Ok(()) };
    let other_order = reversed(&value);
    let budgets = [SelfContainedOptions::new(), SelfContainedOptions { max_bytes: 512, max_depth: 4 }];
    for options in budgets {
        let where_ = format!("max_bytes {}, max_depth {}", options.max_bytes, options.max_depth);
        let result = self_contained_input_schema_with(&value, "fuzz-tool", &options);
        let again = self_contained_input_schema_with(&other_order, "fuzz-tool", &options);
        let owned = self_contained_input_schema_owned_with(value.clone(), "fuzz-tool", &options);
        match (&result, &owned) {
            (Ok(a), Ok(b)) if a == b => {}
            (Err(a), Err(b)) if a.to_string() == b.to_string() => {}
            _ => return Err(format!("{where_}: the owned variant differs: {result:?} vs {owned:?}")),
        }
        match (&result, &again) {
            (Ok(a), Ok(b)) if a == b && canonical::to_string(a) == canonical::to_string(b) => {}
            (Err(a), Err(b)) if a.to_string() == b.to_string() => {}
            _ => return Err(format!("{where_}: the result depends on key order: {result:?} vs {again:?}")),
        }
        let out = match result {
            Ok(out) => out,
            Err(e) => {
                let message = e.to_string();
                if e.tool() != "fuzz-tool" || !message.contains("fuzz-tool") || !well_formed_message(&message)
                {
                    return Err(format!(
                        "{where_}: error does not name the tool or is capitalised: {message:?}"
                    ));
                }
                continue;
            }
        };
        // Draft-04 (and -03) forbid an empty `required`: under them it may be left out.
        let draft_04 = out.get("$schema").and_then(Value::as_str).is_some_and(|s| {
            s.contains("json-schema.org/draft-04/") || s.contains("json-schema.org/draft-03/")
        });
        let shape_ok = out.get("type") == Some(&Value::String("object".into()))
            && out.get("properties").is_some_and(Value::is_object)
            && match out.get("required") {
                Some(required) => required.is_array(),
                None => draft_04,
            };
        if !shape_ok {
            return Err(format!(
                "{where_}: output is not an object schema with properties and required: {out}"
            ));
        }
        if out.get("$defs").is_some() || out.get("definitions").is_some() {
            return Err(format!("{where_}: output keeps a definitions map: {out}"));
        }
        let dangling = refs_in(&out, options.max_depth).map_err(|e| format!("{where_}: {e}"))?;
        if !dangling.is_empty() {
            return Err(format!("{where_}: output keeps `$ref` at {dangling:?}: {out}"));
        }
        match self_contained_input_schema_with(&out, "fuzz-tool", &options) {
            Ok(twice) if twice == out => {}
            other => return Err(format!("{where_}: not a fixed point: {out} became {other:?}")),
        }
    }
    Ok(())
}

/// Law (`declared_type`): on any JSON, for the whole value and for each of its root properties
/// against it as root, an answer or `None` (never a panic), the same whatever the key order.
pub fn declared_type(data: &[u8]) -> Verdict {
    let Some(root) = parse(data) else { return Ok(()) };
    let other_order = reversed(&root);
    let mut props: Vec<(&Value, &Value)> = vec![(&root, &other_order)];
    if let (Some(Value::Object(a)), Some(Value::Object(b))) =
        (root.get("properties"), other_order.get("properties"))
    {
        props.extend(a.iter().filter_map(|(k, v)| b.get(k).map(|w| (v, w))));
    }
    for (prop, prop_reordered) in props {
        let a = toolschema::declared_type(prop, &root);
        let b = toolschema::declared_type(prop_reordered, &other_order);
        if a != b {
            return Err(format!("declared_type depends on key order: {a:?} vs {b:?} for {prop}"));
        }
    }
    Ok(())
}

/// `value` with every object key whose value is null removed, at every depth (null and absent
/// alike, as restore may give either).
fn without_null_keys(value: &Value) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), without_null_keys(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_null_keys).collect()),
        other => other.clone(),
    }
}

/// Law (restore): the input is `[schema, arguments]`. Under every built-in dialect, in reversible
/// and exact mode, adapting the schema and restoring the arguments never panic, the plan does not
/// depend on the schema's key order, what restore gives back survives the round trip through the
/// forward map (`restore(encode(restore(args)))` is `restore(args)`, null and absent alike), and,
/// end to end, arguments the dialect's output accepts restore to a value the schema accepts (or
/// to a fault). Validators are the `jsonschema` crate's (draft 2020-12, `format` an annotation);
/// Gemini's outputs, which are OpenAPI, are left out of that last check.
pub fn restore(data: &[u8]) -> Verdict {
    let Some(Value::Array(pair)) = parse(data) else { return Ok(()) };
    let [schema, args] = pair.as_slice() else { return Ok(()) };
    let original = jsonschema::draft202012::new(schema).ok();
    for &d in dialect::builtin() {
        for exact in [false, true] {
            let name = format!("{}{}", d.name(), if exact { " exact" } else { "" });
            let options = SchemaOptions::new().dialect(d).reject_any(false).exact(exact);
            let Ok(built) = options.normalize(schema.clone()) else { continue };
            match options.normalize(reversed(schema)) {
                Ok(other) if other.plan() == built.plan() => {}
                other => {
                    return Err(format!(
                        "{name}: the plan depends on key order: {:?}",
                        other.map(|o| o.plan().clone())
                    ));
                }
            }
            let Ok(restored) = built.restore(args.clone()) else { continue };
            let again = built.restore(built.plan().encode(restored.clone())).map_err(|e| e.to_string());
            survives(&name, &restored, again)?;
            if let Some(original) = &original
                && !matches!(d.name(), "gemini" | "gemini-ordered")
                && let Ok(output) = jsonschema::draft202012::new(built.as_value())
            {
                sound(&name, original, &output, args, &restored)?;
            }
        }
    }
    Ok(())
}

/// The round-trip half of the restore law: what restore gave (`restored`) comes back from
/// encode then restore (`again`), null and absent alike.
pub fn survives(name: &str, restored: &Value, again: Result<Value, String>) -> Verdict {
    match again {
        Ok(back) if without_null_keys(&back) == without_null_keys(restored) => Ok(()),
        other => Err(format!("{name}: {restored} does not survive encode then restore: {other:?}")),
    }
}

/// The end-to-end half: when the dialect's `output` accepts `args`, the `original` accepts what
/// restore gave for them.
pub fn sound(
    name: &str,
    original: &jsonschema::Validator,
    output: &jsonschema::Validator,
    args: &Value,
    restored: &Value,
) -> Verdict {
    if output.is_valid(args) && !original.is_valid(restored) {
        return Err(format!(
            "{name}: the output accepts {args}, restored to {restored}, which the schema refuses"
        ));
    }
    Ok(())
}
