#![allow(clippy::pedantic)]
//! The parts of a schema past a provider's limit, written as JSON text checked against the
//! original (`src/restore/rewrite/schema_text.rs`): recursion under the providers that cannot
//! take it (`anthropic-strict`, `gemini`, `gemini-ordered`, `openai-agents-mcp`; a cycle through
//! required properties under `gemini-json-schema`), unrolled to the recursion depth; objects
//! nested past OpenAI's 10 levels (`openai-strict`, `openai-agents-mcp`).
//!
//! Over the zoo and the shared corpus (MCP and pydantic schemas): every recursive schema (one
//! `inline-refs` refuses as recursive) is refused for recursion by no provider dialect in
//! reversible mode; each one a provider dialect accepts gets its values, however deep, through
//! the forward map, the provider's schema and restore exactly, at several depths; the text at a
//! cut is checked against the original, faults pointed into the value; exact mode refuses as it
//! did.

use crate::corpus_dir;
use crate::provider_rules;
use crate::tool_schemas;
use crate::zoo;

use serde_json::{Value, json};
use tool_schemas::{Instances, Same, same_up_to_defaults};
use toolschema::dialect::{self, AdaptContext};
use toolschema::{CapabilityError, SchemaDialect, SchemaOptions};

/// Every provider dialect whose schema language has no recursion, or not every recursion.
const UNROLLING: [&str; 5] =
    ["anthropic-strict", "gemini", "gemini-ordered", "openai-agents-mcp", "gemini-json-schema"];

/// The provider dialects: each must refuse no schema for its recursion.
const PROVIDERS: [&str; 6] = [
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini",
    "gemini-ordered",
    "gemini-json-schema",
];

fn dialect(name: &str) -> &'static dyn SchemaDialect {
    dialect::by_name(name).unwrap_or_else(|| panic!("no dialect {name}"))
}

/// Every zoo type's schema and every corpus MCP and pydantic schema, with its label.
fn schemas() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = zoo::ZOO
        .iter()
        .filter_map(|e| {
            (e.schema)(&SchemaOptions::new()).ok().map(|s| (format!("zoo {}", e.name), s.into_value()))
        })
        .collect();
    let Some(dir) = corpus_dir::find("mcp") else { return out };
    for sub in ["mcp", "pydantic"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "json")
                    && let Ok(v) = serde_json::from_str(&std::fs::read_to_string(&p).unwrap_or_default())
                {
                    out.push((p.strip_prefix(&dir).unwrap_or(&p).display().to_string(), v));
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Whether the schema recurses: `inline-refs`, which inlines every reference, refuses it so.
fn recursive(raw: &Value) -> bool {
    match SchemaOptions::new().reject_any(false).dialect(&dialect::INLINE_REFS).normalize(raw.clone()) {
        Ok(_) => false,
        Err(e) => e.to_string().contains("recursive"),
    }
}

fn options(name: &str, depth: usize) -> SchemaOptions {
    SchemaOptions::new().reject_any(false).dialect(dialect(name)).recursion_depth(depth)
}

/// The errors of a refusal that name recursion.
fn recursion_errors(e: &toolschema::Error) -> Vec<String> {
    match e {
        toolschema::Error::Capability(errors) => errors
            .as_slice()
            .iter()
            .filter(|c| matches!(c, CapabilityError::Recursive { .. }) || c.to_string().contains("recursi"))
            .map(ToString::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

// Law: no provider dialect refuses a schema of the zoo or the corpus for its recursion in
// reversible mode, and every recursive one of them is accepted by each dialect that unrolls
// recursion; the provider rule oracle accepts each output. Exact mode refuses the recursion as
// before.
#[test]
fn every_recursive_schema_is_accepted_under_every_provider_dialect() {
    let all = schemas();
    let recursive: Vec<&(String, Value)> = all.iter().filter(|(_, raw)| recursive(raw)).collect();
    let labels: Vec<&str> = recursive.iter().map(|(l, _)| l.as_str()).collect();
    println!("recursive schemas: {labels:?}");
    for zoo_type in ["zoo recursive_tree", "zoo recursive_box", "zoo mutual_recursion"] {
        assert!(labels.contains(&zoo_type), "{zoo_type} is not found recursive: {labels:?}");
    }
    if corpus_dir::find("pydantic").is_some() {
        assert!(labels.iter().filter(|l| l.starts_with("pydantic")).count() >= 4, "{labels:?}");
    }
    let mut failures = Vec::new();
    for (label, raw) in &all {
        for name in PROVIDERS {
            if let Err(e) = options(name, 2).normalize(raw.clone()) {
                for r in recursion_errors(&e) {
                    failures.push(format!("{label} under {name}: refused for recursion: {r}"));
                }
            }
        }
    }
    for (label, raw) in &recursive {
        for name in UNROLLING {
            match options(name, 2).normalize(raw.clone()) {
                Ok(out) => {
                    for v in provider_rules::violations(name, out.as_value()) {
                        failures
                            .push(format!("{label} under {name}: the provider rules refuse the output: {v}"));
                    }
                }
                Err(e) => failures.push(format!("{label} under {name}: refused: {e}")),
            }
            if name != "gemini-json-schema" {
                let exact = options(name, 2).exact(true).normalize(raw.clone());
                assert!(
                    exact.as_ref().is_err_and(|e| !recursion_errors(e).is_empty()),
                    "{label} under {name} exact: recursion not refused: {:?}",
                    exact.map(|s| s.canonical_json().to_owned())
                );
            }
        }
    }
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), failures);
}

/// A tree of `levels` levels whose nodes follow the zoo's `Tree` (`value`, `children`).
fn deep_tree(levels: usize) -> Value {
    let mut v = json!({"value": 0, "children": []});
    for i in 1..levels {
        v = json!({"value": i, "children": [v.clone(), {"value": -1, "children": []}]});
    }
    v
}

// Law (completeness and soundness at the cut): for every recursive schema of the zoo and the
// corpus under each dialect that unrolls it, at recursion depths 0 to 3, every generated value
// (and, for the zoo's tree, trees 12 levels deep) encodes to arguments the provider's schema
// accepts, and restore gives the value back; the text at a cut that breaks the original is
// refused.
#[test]
fn values_past_the_recursion_depth_round_trip_exactly() {
    let (mut checked, mut cut) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (label, raw) in schemas().iter().filter(|(_, raw)| recursive(raw)) {
        let Ok(original) = SchemaOptions::new().reject_any(false).normalize(raw.clone()) else { continue };
        let root = original.as_value();
        let check_original = zoo::validator(root);
        let mut values: Vec<Value> = Vec::new();
        let mut generator = Instances::new(root, 7).undeclared_keys(false);
        for _ in 0..200 {
            let v = generator.value();
            if check_original.is_valid(&v) {
                values.push(v);
            }
            if values.len() == 24 {
                break;
            }
        }
        if label == "zoo recursive_tree" {
            values.extend((1..=12).map(deep_tree));
        }
        assert!(!values.is_empty(), "{label}: no value generated");
        for name in UNROLLING {
            for depth in 0..=3 {
                let Ok(adapted) = options(name, depth).normalize(raw.clone()) else {
                    failures.push(format!("{label} under {name} at depth {depth}: refused"));
                    continue;
                };
                let output = if name.starts_with("gemini") && name != "gemini-json-schema" {
                    zoo::openapi_as_json_schema(adapted.as_value())
                } else {
                    adapted.as_value().clone()
                };
                let check_output = zoo::validator(&output);
                let texts = adapted.adaptations().iter().filter(|a| a.kind.as_str() == "schema-text").count();
                for v in &values {
                    checked += 1;
                    let sent = adapted.plan().encode(v.clone());
                    if !check_output.is_valid(&sent) {
                        failures
                            .push(format!("{label} under {name} at {depth}: {v} encodes to {sent}, refused"));
                        continue;
                    }
                    if texts > 0 && sent.to_string().contains("\\\"") {
                        cut += 1;
                    }
                    match adapted.restore(sent.clone()) {
                        Ok(back) if same_up_to_defaults(&back, v, root, root) != Same::No => {}
                        Ok(back) => {
                            failures.push(format!("{label} under {name} at {depth}: {v} -> {sent} -> {back}"))
                        }
                        Err(e) => {
                            failures.push(format!("{label} under {name} at {depth}: {v} -> {sent}: {e}"))
                        }
                    }
                }
            }
        }
    }
    println!("{checked} values checked, {cut} through a cut");
    assert!(cut > 100, "too few values reached a cut ({cut})");
    assert!(failures.is_empty(), "{} failures: {:#?}", failures.len(), &failures[..failures.len().min(20)]);
}

// The zoo's tree under anthropic-strict at depth 1: the grandchildren are JSON text, listed as
// `schema-text` adaptations; text that breaks the original is refused with the pointer into the
// value; decode reads the tree through the text.
#[test]
fn the_text_at_a_cut_is_checked_against_the_original_and_pointed_into_the_value() {
    let options = SchemaOptions::new().dialect(&dialect::ANTHROPIC_STRICT).recursion_depth(1);
    let schema = options.schema_for::<zoo::Tree>().unwrap();
    let cuts: Vec<String> = schema
        .adaptations()
        .iter()
        .filter(|a| a.kind.as_str() == "schema-text")
        .map(ToString::to_string)
        .collect();
    assert_eq!(cuts, vec!["`$ref` at `/properties/children/items/properties/children/items`: schema-text"]);
    let tree = deep_tree(4);
    let sent = schema.plan().encode(tree.clone());
    assert!(sent["children"][0]["children"][0].is_string(), "{sent}");
    assert_eq!(schema.restore(sent.clone()).unwrap(), tree);
    let back: zoo::Tree = schema.decode(sent).unwrap();
    assert_eq!(serde_json::to_value(back).unwrap(), tree);
    let bad = json!({"value": 1, "children": [{"value": 2, "children": [
        "{\"value\": 3, \"children\": [{\"value\": \"x\", \"children\": []}]}"]}]});
    let err = schema.restore(bad).unwrap_err();
    assert_eq!(err.faults().len(), 1, "{err}");
    assert_eq!(err.faults()[0].pointer, "/children/0/children/0/children/0/value");
    // The same schema in exact mode is refused for its recursion.
    let exact =
        SchemaOptions::new().dialect(&dialect::ANTHROPIC_STRICT).exact(true).schema_for::<zoo::Tree>();
    assert!(exact.unwrap_err().to_string().contains("recursive"));
    // A foreign schema through `dialect::adapt`, with its own depth.
    let raw = json!({"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}});
    let cx = AdaptContext::default().with_recursion_depth(0);
    let adapted = dialect::adapt(&dialect::GEMINI, raw, &cx).unwrap();
    assert_eq!(adapted.schema["properties"]["next"]["type"], "string", "{}", adapted.schema);
    let value = json!({"next": {"next": {"next": null}}});
    assert_eq!(adapted.plan.restore(adapted.plan.encode(value.clone())).unwrap(), value);
}

/// The corpus's pydantic model nested 20 objects deep (`deep_nesting_20`), or `None` without the
/// corpus.
fn deep_nesting_20() -> Option<Value> {
    let dir = corpus_dir::find("pydantic/deep_nesting_20.json")?;
    Some(
        serde_json::from_str(&std::fs::read_to_string(dir.join("pydantic/deep_nesting_20.json")).unwrap())
            .unwrap(),
    )
}

/// A value of `deep_nesting_20`: 19 levels of `child`, the leaf at the twentieth; `maybe` set
/// at every `step`-th level (none for 0).
fn nested(step: usize) -> Value {
    let mut v = json!({"leaf": "end"});
    for i in (1..20).rev() {
        v = if step > 0 && i % step == 0 { json!({"child": v, "maybe": i}) } else { json!({"child": v}) };
    }
    v
}

// Law: no schema of the zoo or the corpus is refused for OpenAI's nesting limit in reversible
// mode (the levels past it are JSON text); `deep_nesting_20` is accepted, the provider rules
// accept its output, which cuts at the tenth level, and its values round-trip exactly; a value
// that breaks the original past the cut is refused, pointed into the value.
#[test]
fn objects_nested_past_openais_limit_are_json_text() {
    let mut failures = Vec::new();
    for (label, raw) in &schemas() {
        for name in ["openai-strict", "openai-agents-mcp"] {
            if let Err(toolschema::Error::Capability(errors)) = options(name, 2).normalize(raw.clone()) {
                for e in
                    errors.as_slice().iter().filter(|e| e.to_string().contains("levels of object nesting"))
                {
                    failures.push(format!("{label} under {name}: {e}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let Some(raw) = deep_nesting_20() else { return };
    let original = SchemaOptions::new().normalize(raw.clone()).unwrap();
    let check_original = zoo::validator(original.as_value());
    for name in ["openai-strict", "openai-agents-mcp"] {
        let adapted = options(name, 2).normalize(raw.clone()).unwrap();
        assert!(provider_rules::violations(name, adapted.as_value()).is_empty(), "{name}");
        assert!(
            options(name, 2).exact(true).normalize(raw.clone()).is_err(),
            "{name} exact: the nesting limit is not refused"
        );
        let texts: Vec<String> = adapted
            .adaptations()
            .iter()
            .filter(|a| a.kind.as_str() == "schema-text")
            .map(|a| a.pointer.clone())
            .collect();
        assert_eq!(texts, vec!["/properties/child".repeat(10)], "{name}");
        let check_output = zoo::validator(adapted.as_value());
        for step in [0, 1, 3, 11] {
            let v = nested(step);
            assert!(check_original.is_valid(&v), "{v}");
            let sent = adapted.plan().encode(v.clone());
            assert!(check_output.is_valid(&sent), "{name}: {v} encodes to {sent}, refused");
            assert!(sent.to_string().contains("\\\"leaf\\\""), "{sent}");
            let back = adapted.restore(sent).unwrap();
            assert_eq!(same_up_to_defaults(&back, &v, original.as_value(), original.as_value()), Same::Yes);
        }
        let mut bad = adapted.plan().encode(nested(0));
        let mut at = &mut bad;
        for _ in 0..10 {
            at = &mut at["child"];
        }
        *at = Value::String(json!({"child": {"child": {"maybe": "x", "child": {}}}}).to_string());
        let err = adapted.restore(bad).unwrap_err();
        assert!(err.faults().iter().any(|f| f.pointer.ends_with("/child/child/maybe")), "{name}: {err}");
    }
}

/// A tree whose nodes hold a `u32` and a `u64`: integers past a cut.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
struct Counted {
    count: u32,
    big: u64,
    kids: Vec<Counted>,
}

// A value sent as JSON text past a cut restores as restore gives it where the provider's schema
// expresses it: an integral float (`2.0`) where the code reads an integer is the integer, so
// serde takes it; one past ±2^53 under an integer format is a fault pointed into the text.
#[test]
fn an_integer_past_a_recursion_cut_restores_as_an_integer() {
    let options = SchemaOptions::new().dialect(&dialect::ANTHROPIC_STRICT).recursion_depth(0);
    let schema = options.schema_for::<Counted>().unwrap();
    let text = json!({"count": 2.0, "big": 3.0, "kids": [{"count": 4.0, "big": 5, "kids": []}]}).to_string();
    assert!(text.contains("2.0"), "{text}");
    let sent = json!({"count": 1, "big": 1, "kids": [text]});
    let back = schema.restore(sent.clone()).unwrap();
    assert_eq!(
        back,
        json!({"count": 1, "big": 1, "kids": [{"count": 2, "big": 3, "kids": [{"count": 4, "big": 5, "kids": []}]}]})
    );
    assert!(back["kids"][0]["count"].is_u64() && back["kids"][0]["kids"][0]["count"].is_u64(), "{back}");
    let decoded: Counted = schema.decode(sent).unwrap();
    assert_eq!(decoded.kids[0].kids[0].count, 4);
    // Past ±2^53 a float's digits are not the integer meant: refused where `u64` reads it.
    let text = json!({"count": 2, "big": 1e17, "kids": []}).to_string();
    let err = schema.restore(json!({"count": 1, "big": 1, "kids": [text]})).unwrap_err();
    assert_eq!(err.faults().len(), 1, "{err}");
    assert_eq!(err.faults()[0].pointer, "/kids/0/big");
    assert!(err.faults()[0].message.contains("within the 64-bit range"), "{err}");
}

// The same past OpenAI's nesting limit (objects nested 12 levels, an integer at the bottom) and
// in properties folded past Anthropic's 24 optional ones.
#[test]
fn an_integer_past_a_nesting_cut_or_in_a_folded_property_restores_as_an_integer() {
    let mut nested = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"],
        "additionalProperties": false});
    for _ in 0..11 {
        nested = json!({"type": "object", "properties": {"c": nested}, "required": ["c"],
            "additionalProperties": false});
    }
    let adapted = dialect::adapt(&dialect::OPENAI_STRICT, nested, &AdaptContext::default()).unwrap();
    let mut value = json!({"n": 7});
    for _ in 0..11 {
        value = json!({ "c": value });
    }
    let mut sent = adapted.plan.encode(value.clone());
    let mut at = &mut sent;
    while at.is_object() {
        at = &mut at["c"];
    }
    let text = at.as_str().expect("a cut").to_owned();
    assert!(text.contains("\"n\":7"), "{text}");
    *at = Value::String(text.replace("\"n\":7", "\"n\":7.0"));
    let back = adapted.plan.restore(sent).unwrap();
    assert_eq!(back, value);
    let mut leaf = &back;
    while leaf.get("c").is_some() {
        leaf = &leaf["c"];
    }
    assert!(leaf["n"].is_i64(), "{leaf}");

    let props: serde_json::Map<String, Value> = (0..30)
        .map(|i| (format!("f{i:02}"), json!({"type": "integer", "format": "uint32", "minimum": 0})))
        .collect();
    let wide = json!({"type": "object", "properties": props, "additionalProperties": false});
    let adapted = dialect::adapt(&dialect::ANTHROPIC_STRICT, wide, &AdaptContext::default()).unwrap();
    let folded: Vec<&str> = adapted
        .plan
        .adaptations()
        .iter()
        .filter(|a| a.kind.as_str() == "folded")
        .map(|a| a.pointer.as_str())
        .collect();
    assert!(folded.contains(&"/properties/f29"), "{folded:?}");
    let back = adapted.plan.restore(json!({"f00": 1, "more_properties": "{\"f29\": 7.0}"})).unwrap();
    assert_eq!(back, json!({"f00": 1, "f29": 7}));
    assert!(back["f29"].is_u64(), "{back}");
    let err = adapted.plan.restore(json!({"more_properties": "{\"f29\": 7.5}"})).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/f29", "{err}");
}

/// The provider's schema of `name` as JSON Schema reads it (Gemini's OpenAPI translated).
fn output_validator(name: &str, schema: &Value) -> jsonschema::Validator {
    if name.starts_with("gemini") && name != "gemini-json-schema" {
        zoo::validator(&zoo::openapi_as_json_schema(schema))
    } else {
        zoo::validator(schema)
    }
}

// A union of a string and a recursive object, cut past the recursion depth: the cut's JSON text
// could not be told from a string, so the whole union is one JSON text checked against the
// union in the original (a string sent as its JSON text). Likewise a union of two recursive
// objects both cut. Every value round-trips, strings that look like JSON included, under each
// dialect that unrolls, at depths 0 to 2; text the original refuses is refused with a pointer
// into it; exact mode refuses the recursion.
#[test]
fn a_recursion_cut_beside_a_string_branch_is_the_whole_union_as_json_text() {
    let beside_string = json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/N"}}, "required": ["v"],
        "$defs": {"N": {"type": "object", "properties": {"x": {"type": "integer"},
            "kid": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/N"}]}}, "required": ["x"]}}});
    let two_cuts = json!({"type": "object", "properties": {"v": {"$ref": "#/$defs/A"}}, "required": ["v"],
        "$defs": {
            "A": {"type": "object", "properties": {"t": {"const": "a"}, "a": {"type": "integer"},
                "next": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]}},
                "required": ["t", "a", "next"]},
            "B": {"type": "object", "properties": {"t": {"const": "b"}, "b": {"type": "string"},
                "next": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]}},
                "required": ["t", "b", "next"]}}});
    let mut strings = json!("hello");
    let mut chain = json!(null);
    for i in 0..6 {
        strings = json!({"x": i, "kid": strings});
        chain = if i % 2 == 0 {
            json!({"t": "a", "a": i, "next": chain})
        } else {
            json!({"t": "b", "b": "{\"a\":1}", "next": chain})
        };
    }
    let cases = [
        (
            beside_string,
            2,
            vec![
                json!({"v": {"x": 1}}),
                json!({"v": {"x": 1, "kid": "{\"x\": 2}"}}),
                json!({"v": {"x": 1, "kid": "null"}}),
                json!({"v": {"x": 1, "kid": {"x": 2, "kid": {"x": 3, "kid": "{"}}}}),
                json!({ "v": strings }),
            ],
        ),
        // At depth 2 the unrolled unions are past Anthropic's 16: `v` is folded.
        (
            two_cuts,
            2,
            vec![
                json!({"v": {"t": "a", "a": 1, "next": null}}),
                json!({ "v": {"t": "a", "a": 0, "next": chain} }),
            ],
        ),
    ];
    let mut texts = 0;
    for (schema, deepest, values) in &cases {
        for name in ["anthropic-strict", "gemini", "gemini-ordered", "openai-agents-mcp"] {
            for depth in 0..=*deepest {
                let cx = AdaptContext::default().with_recursion_depth(depth);
                let adapted = dialect::adapt(dialect(name), schema.clone(), &cx)
                    .unwrap_or_else(|e| panic!("{name} at {depth}: refused: {e:?}"));
                assert!(provider_rules::violations(name, &adapted.schema).is_empty(), "{name}");
                let check_output = output_validator(name, &adapted.schema);
                for v in values {
                    let sent = adapted.plan.encode(v.clone());
                    assert!(
                        check_output.is_valid(&sent),
                        "{name} at {depth}: {v} encodes to {sent}, refused"
                    );
                    texts += usize::from(sent.to_string().contains("\\\""));
                    assert_eq!(
                        adapted.plan.restore(sent.clone()).as_ref(),
                        Ok(v),
                        "{name} at {depth}: {sent}"
                    );
                }
            }
            let exact = AdaptContext::default().with_exact(true);
            assert!(dialect::adapt(dialect(name), schema.clone(), &exact).is_err(), "{name} exact");
        }
    }
    assert!(texts > 20, "{texts} values went through a cut");
    // The unions of a recursion unrolled count: past 16, the root property that holds them is
    // folded (the input's own few properties are no bound on the output's).
    let cx = AdaptContext::default().with_recursion_depth(2);
    let adapted = dialect::adapt(&dialect::ANTHROPIC_STRICT, cases[1].0.clone(), &cx).unwrap();
    let folded: Vec<String> = adapted
        .plan
        .adaptations()
        .iter()
        .filter(|a| a.kind.as_str() == "folded")
        .map(|a| a.pointer.clone())
        .collect();
    assert_eq!(folded, ["/properties/v"]);
    // At depth 0 the kid is the union's text: a string is its JSON text, an object is checked.
    let cx = AdaptContext::default().with_recursion_depth(0);
    let adapted = dialect::adapt(&dialect::ANTHROPIC_STRICT, cases[0].0.clone(), &cx).unwrap();
    let kid = &adapted.schema["properties"]["v"]["properties"]["kid"];
    assert_eq!(kid["type"], "string", "{kid}");
    let cuts: Vec<String> = adapted.plan.adaptations().iter().map(ToString::to_string).collect();
    assert_eq!(cuts, vec!["`anyOf` at `/properties/v/properties/kid`: schema-text"]);
    let sent = json!({"v": {"x": 1, "kid": "{\"x\": 2, \"kid\": {\"x\": \"no\"}}"}});
    let err = adapted.plan.restore(sent).unwrap_err();
    assert_eq!(err.faults().len(), 1, "{err}");
    assert_eq!(err.faults()[0].pointer, "/v/kid", "{err}");
    assert!(err.to_string().contains("anyOf"), "{err}");
    assert!(
        adapted.plan.restore(json!({"v": {"x": 1, "kid": "hello"}})).is_err(),
        "a bare string is no JSON text"
    );
}

// Under openai-agents-mcp (no `$ref`, OpenAI's 10 levels) a schema that recurses and nests past
// the limit is unrolled, then its objects past the tenth level cut, both as JSON text checked
// against the original: a recursive node holding objects nested 12 deep, and a tree unrolled
// deeper than 10 levels. Values deeper than both round-trip; a fault past the nesting cut inside
// an unrolled copy is pointed into the value; exact mode refuses.
#[test]
fn a_schema_that_recurses_and_nests_too_deep_is_unrolled_then_cut_under_openai_agents_mcp() {
    let nested = |inner: Value| {
        (0..11).fold(inner, |v, _| json!({"type": "object", "properties": {"c": v}, "required": ["c"]}))
    };
    let deep_value = |n: Value| (0..11).fold(json!({ "n": n }), |v, _| json!({ "c": v }));
    let node = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/N"}}, "required": ["root"],
        "$defs": {"N": {"type": "object", "required": ["kids"], "properties": {
            "deep": nested(json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})),
            "kids": {"type": "array", "items": {"$ref": "#/$defs/N"}}}}}});
    let tree = json!({"type": "object", "properties": {"n": {"type": "integer"},
        "kids": {"type": "array", "items": {"$ref": "#"}}}});
    let mut kids = json!({"deep": deep_value(json!(1)), "kids": []});
    for i in 0..5 {
        kids = json!({"deep": deep_value(json!(i)), "kids": [kids, {"kids": []}]});
    }
    let mut branches = json!({"n": 0});
    for i in 1..16 {
        branches = json!({"n": i, "kids": [branches, {"n": -1}]});
    }
    let cases = [
        (&node, vec![json!({"root": {"kids": []}}), json!({ "root": kids })], [0, 1, 2]),
        (&tree, vec![json!({}), branches], [2, 9, 12]),
    ];
    for (schema, values, depths) in &cases {
        for depth in depths {
            let cx = AdaptContext::default().with_recursion_depth(*depth);
            let adapted = dialect::adapt(&dialect::OPENAI_AGENTS_MCP, (*schema).clone(), &cx)
                .unwrap_or_else(|e| panic!("at depth {depth}: {e:?}"));
            let out = &adapted.schema;
            assert!(provider_rules::violations("openai-agents-mcp", out).is_empty(), "at depth {depth}");
            assert!(!out.to_string().contains("\"$ref\":"), "{out}");
            let check_output = zoo::validator(out);
            for v in values {
                let sent = adapted.plan.encode(v.clone());
                assert!(check_output.is_valid(&sent), "at depth {depth}: {v} encodes to {sent}, refused");
                assert_eq!(adapted.plan.restore(sent).as_ref(), Ok(v), "at depth {depth}");
            }
            let exact = AdaptContext::default().with_exact(true).with_recursion_depth(*depth);
            assert!(dialect::adapt(&dialect::OPENAI_AGENTS_MCP, (*schema).clone(), &exact).is_err());
        }
    }
    // At depth 1 the grandchildren are text, and so are the objects under `deep` past level 10.
    let cx = AdaptContext::default().with_recursion_depth(1);
    let adapted = dialect::adapt(&dialect::OPENAI_AGENTS_MCP, node, &cx).unwrap();
    let cuts = adapted.plan.adaptations().iter().filter(|a| a.kind.as_str() == "schema-text").count();
    assert!(cuts >= 2, "{:?}", adapted.plan.adaptations());
    let value = json!({"root": {"kids": [{"deep": deep_value(json!(3)), "kids": []}]}});
    let mut sent = adapted.plan.encode(value.clone());
    let text = sent.to_string();
    assert!(text.contains("\\\"n\\\":3"), "{text}");
    let bad = text.replace("\\\"n\\\":3", "\\\"n\\\":\\\"x\\\"");
    sent = serde_json::from_str(&bad).unwrap();
    let err = adapted.plan.restore(sent).unwrap_err();
    assert_eq!(err.faults().len(), 1, "{err}");
    assert!(err.faults()[0].pointer.starts_with("/root/kids/0/deep/c/"), "{err}");
    assert!(err.faults()[0].pointer.ends_with("/c/n"), "{err}");
    let sent = adapted.plan.encode(value.clone());
    let back =
        adapted.plan.restore(sent.to_string().replace("\\\"n\\\":3", "\\\"n\\\":3.0").parse().unwrap());
    assert_eq!(back.as_ref(), Ok(&value));
}
