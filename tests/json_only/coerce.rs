#![allow(clippy::pedantic)]
//! Loose-input coercion (`toolschema::coerce`) against a real validator: arguments a schema
//! accepts (the `jsonschema` crate says so) are fixed points; every change is a reported string;
//! a second pass changes nothing.
//!
//! Schemas are generated (types, type lists, `properties` with `additionalProperties` and
//! `patternProperties`, `items` and `prefixItems`, optional and two-way unions, `allOf`, `$ref`
//! into `$defs`, `enum`, draft-07's `$ref` that hides its siblings) and so are values, from the
//! schema, with strings that look like numbers, booleans and JSON text wherever a string may
//! stand. The corpus's MCP and pydantic schemas (`../shared/corpus` or `$TOOLSCHEMA_CORPUS`; a
//! notice when absent) are checked the same way with values made from them.
//! `PROPTEST_CASES` raises the case count.

use crate::corpus_dir;
use crate::prop_run;
use crate::prop_run::SplitMix;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::path::PathBuf;
use toolschema::coerce;

/// Strings a loose model writes, which coercion must leave alone wherever a string is accepted.
const TRICKY: &[&str] =
    &["3", "2.5", "-1e3", "true", "false", "null", "[1]", "[\"1\"]", "{\"a\": \"1\"}", "x", ""];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec!["string", "integer", "number", "boolean", "null", "array", "object"])
            .prop_map(|t| json!({"type": t})),
        prop::sample::subsequence(vec!["string", "integer", "boolean", "array", "null"], 2)
            .prop_map(|ts| json!({"type": ts})),
        Just(json!({})),
        Just(json!({"enum": ["3", "true", 3, null]})),
        Just(json!({"const": "[1]"})),
        Just(json!({"$ref": "#/$defs/D"})),
        Just(json!({"$ref": "#/$defs/D", "type": "string"})),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                prop::collection::btree_map(prop::sample::select(vec!["a", "b", "xa"]), inner.clone(), 0..3),
                prop_oneof![Just(None), inner.clone().prop_map(Some), Just(Some(json!(false)))],
                any::<bool>(),
                inner.clone()
            )
                .prop_map(|(props, additional, patterns, pattern)| {
                    let mut m = Map::new();
                    m.insert("type".into(), json!("object"));
                    m.insert(
                        "properties".into(),
                        Value::Object(props.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()),
                    );
                    if let Some(a) = additional {
                        m.insert("additionalProperties".into(), a);
                    }
                    if patterns {
                        m.insert("patternProperties".into(), json!({"^x": pattern}));
                    }
                    Value::Object(m)
                }),
            inner.clone().prop_map(|s| json!({"type": "array", "items": s})),
            (inner.clone(), inner.clone())
                .prop_map(|(p, s)| json!({"type": "array", "prefixItems": [p], "items": s})),
            inner.clone().prop_map(|s| json!({"type": ["array", "null"], "items": s})),
            inner.clone().prop_map(|s| json!({"anyOf": [s, {"type": "null"}]})),
            inner.clone().prop_map(|s| json!({"oneOf": [{"type": "null"}, s], "default": null})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"anyOf": [a, b]})),
            inner.clone().prop_map(|s| json!({"allOf": [s], "description": "d"})),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"allOf": [a, b]})),
        ]
    })
}

/// A root with `$defs/D` (or draft-07's `definitions/D`), so that `{"$ref": "#/$defs/D"}` resolves.
fn document() -> impl Strategy<Value = Value> {
    (schema(), schema(), any::<bool>()).prop_map(|(root, def, draft07)| {
        let mut root = match root {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        if draft07 {
            let text =
                serde_json::to_string(&root).unwrap_or_default().replace("#/$defs/D", "#/definitions/D");
            let def = serde_json::to_string(&def).unwrap_or_default().replace("#/$defs/D", "#/definitions/D");
            root = serde_json::from_str(&text).unwrap_or_default();
            root.insert("$schema".into(), json!("http://json-schema.org/draft-07/schema#"));
            root.insert(
                "definitions".into(),
                json!({"D": serde_json::from_str::<Value>(&def).unwrap_or(json!({}))}),
            );
        } else {
            root.insert("$defs".into(), json!({"D": def}));
        }
        Value::Object(root)
    })
}

/// A small deterministic generator of values from a schema ([`SplitMix`]), which gives tricky
/// strings wherever a string may stand.
struct Gen<'r> {
    root: &'r Value,
    rng: SplitMix,
}

impl Gen<'_> {
    fn next(&mut self) -> u64 {
        self.rng.next_u64()
    }

    fn pick(&mut self, n: usize) -> usize {
        self.rng.pick(n)
    }

    fn tricky(&mut self) -> Value {
        json!(TRICKY[self.pick(TRICKY.len())])
    }

    fn value(&mut self, s: &Value, depth: usize) -> Value {
        let Value::Object(m) = s else { return self.tricky() };
        if depth > 8 {
            return Value::Null;
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str)
            && (self.next().is_multiple_of(2) || !m.contains_key("type"))
        {
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
        for k in ["anyOf", "oneOf", "allOf"] {
            if let Some(Value::Array(branches)) = m.get(k)
                && !branches.is_empty()
            {
                let i = self.pick(branches.len());
                return self.value(&branches[i], depth + 1);
            }
        }
        let types: Vec<&str> = match m.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec!["string", "integer", "object", "array", "null"],
        };
        match types[self.pick(types.len())] {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.next().is_multiple_of(2)),
            "integer" => json!(self.pick(7) as i64 - 3),
            "number" => json!(self.pick(9) as f64 / 2.0),
            "string" => self.tricky(),
            "array" => {
                let n = self.pick(4);
                let prefix = m.get("prefixItems").and_then(Value::as_array).cloned().unwrap_or_default();
                let items = m.get("items").cloned().unwrap_or(Value::Bool(true));
                Value::Array((0..n).map(|i| self.value(prefix.get(i).unwrap_or(&items), depth + 1)).collect())
            }
            _ => {
                let mut out = Map::new();
                if let Some(Value::Object(props)) = m.get("properties") {
                    for (name, p) in props {
                        if !self.next().is_multiple_of(4) {
                            let v = self.value(p, depth + 1);
                            out.insert(name.clone(), v);
                        }
                    }
                }
                if self.next().is_multiple_of(3) {
                    let (key, schema) = match (m.get("patternProperties"), self.next().is_multiple_of(2)) {
                        (Some(p), true) => ("xz", p.get("^x").cloned().unwrap_or(Value::Bool(true))),
                        _ => ("zz", m.get("additionalProperties").cloned().unwrap_or(Value::Bool(true))),
                    };
                    let v = self.value(&schema, depth + 1);
                    out.insert(key.to_owned(), v);
                }
                Value::Object(out)
            }
        }
    }
}

fn accepts(schema: &Value, value: &Value) -> Option<bool> {
    jsonschema::validator_for(schema).ok().map(|v| v.is_valid(value))
}

/// Every coercion whose pointer no other coercion's pointer contains: those replace strings the
/// model sent (the others are inside text those parsed).
fn outermost(coerced: &coerce::Coerced) -> Vec<&str> {
    let pointers: Vec<&str> = coerced.coercions.iter().map(|c| c.pointer.as_str()).collect();
    pointers
        .iter()
        .copied()
        .filter(|p| !pointers.iter().any(|q| q != p && (q.is_empty() || p.starts_with(&format!("{q}/")))))
        .collect()
}

/// The laws for one schema and one value.
fn check(schema: &Value, value: &Value) -> Result<bool, TestCaseError> {
    let accepted = accepts(schema, value);
    let result = coerce(schema, value.clone());
    if accepted == Some(true) {
        let coerced = result.map_err(|e| TestCaseError::fail(format!("accepted, then refused: {e}")))?;
        prop_assert_eq!(&coerced.value, value, "an accepted value changed");
        prop_assert!(
            coerced.coercions.is_empty(),
            "coercions reported on an accepted value: {:?}",
            coerced.coercions
        );
        return Ok(true);
    }
    if let Ok(coerced) = result {
        // Only reported strings change: put the new values into the old at the outermost pointers.
        let mut rebuilt = value.clone();
        for p in outermost(&coerced) {
            let old = rebuilt
                .pointer_mut(p)
                .ok_or_else(|| TestCaseError::fail(format!("no `{p}` in the input")))?;
            prop_assert!(old.is_string(), "`{}` was not a string: {}", p, old);
            *old = coerced.value.pointer(p).cloned().unwrap_or(Value::Null);
        }
        prop_assert_eq!(&rebuilt, &coerced.value, "a change no coercion reports");
        // A second pass finds nothing left.
        let again = coerce(schema, coerced.value.clone())
            .map_err(|e| TestCaseError::fail(format!("second pass: {e}")))?;
        prop_assert_eq!(&again.value, &coerced.value);
        prop_assert!(again.coercions.is_empty(), "{:?}", again.coercions);
    }
    Ok(false)
}

proptest! {
    #![proptest_config(ProptestConfig { max_global_rejects: 100_000, ..prop_run::config(file!(), 512) })]

    #[test]
    fn accepted_arguments_are_fixed_points_and_every_change_is_reported(doc in document(), seed in any::<u64>()) {
        let mut accepted = 0;
        for i in 0..8 {
            let value = Gen { root: &doc, rng: SplitMix(seed.wrapping_add(i)) }.value(&doc, 0);
            if check(&doc, &value)? {
                accepted += 1;
            }
        }
        // Most documents admit some of the values made from them; one that admits none (an
        // `allOf` of two types) says nothing about the first law.
        prop_assume!(accepted > 0);
    }
}

fn corpus() -> Option<PathBuf> {
    corpus_dir::find("mcp")
}

#[test]
fn corpus_values_the_schemas_accept_are_fixed_points() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    for sub in ["mcp", "pydantic"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let (mut accepted, mut schemas) = (0, 0);
    for path in &files {
        let Ok(schema) = serde_json::from_str::<Value>(&std::fs::read_to_string(path).unwrap_or_default())
        else {
            continue;
        };
        schemas += 1;
        for seed in 0..16 {
            let value = Gen { root: &schema, rng: SplitMix(seed) }.value(&schema, 0);
            match check(&schema, &value) {
                Ok(true) => accepted += 1,
                Ok(false) => {}
                Err(e) => panic!("{}: {value}: {e}", path.display()),
            }
        }
    }
    assert!(schemas >= 200, "{schemas} schemas read");
    // The generator follows most of what the corpus says; most schemas admit some of its values.
    assert!(accepted >= schemas * 4, "only {accepted} accepted values over {schemas} schemas");
    eprintln!("{accepted} accepted values over {schemas} schemas: all fixed points");
}

#[test]
fn loose_strings_in_a_pydantic_schema_are_read_as_declared() {
    // pydantic v2: `class Stop(BaseModel): city: str; nights: int = 1`,
    // `class Trip(BaseModel): stops: list[Stop]; budget: float | None = None; tags: dict[str, bool] = {}`.
    let schema = json!({
        "$defs": {"Stop": {"properties": {"city": {"title": "City", "type": "string"},
            "nights": {"default": 1, "title": "Nights", "type": "integer"}},
            "required": ["city"], "title": "Stop", "type": "object"}},
        "properties": {
            "stops": {"items": {"$ref": "#/$defs/Stop"}, "title": "Stops", "type": "array"},
            "budget": {"anyOf": [{"type": "number"}, {"type": "null"}], "default": null, "title": "Budget"},
            "tags": {"additionalProperties": {"type": "boolean"}, "default": {}, "title": "Tags", "type": "object"}},
        "required": ["stops"], "title": "Trip", "type": "object"
    });
    let sent = json!({"stops": "[{\"city\": \"1984\", \"nights\": \"2\"}]", "budget": "120.5", "tags": {"sea": "true"}});
    let coerced = coerce(&schema, sent).unwrap();
    assert_eq!(
        coerced.value,
        json!({"stops": [{"city": "1984", "nights": 2}], "budget": 120.5, "tags": {"sea": true}})
    );
    let reported: Vec<String> = coerced.coercions.iter().map(ToString::to_string).collect();
    assert_eq!(
        reported,
        [
            "`/budget`: a string read as a number",
            "`/stops`: a string read as an array",
            "`/stops/0/nights`: a string read as an integer",
            "`/tags/sea`: a string read as a boolean",
        ]
    );
    assert_eq!(accepts(&schema, &coerced.value), Some(true));
}
