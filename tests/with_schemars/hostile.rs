#![allow(clippy::pedantic)]
//! Hostile inputs: every case of the shared corpus's `hostile/` folder, and our own generated ones
//! (depth at every budget, huge enums, 10 MB schemas, escapes, cycles, fan-out, number edges).
//!
//! The law for each: a result or a typed error with a well-formed message, never a panic. Every
//! case runs on a thread with a small stack ([`SMALL_STACK`]), so a recursion that lacks a depth
//! budget overflows and aborts this test binary instead of passing. Memory is measured in
//! `tests/hostile_memory.rs` (a counting allocator needs its own binary); time is never asserted.
//!
//! Depth and serde_json: `serde_json::from_str` refuses nesting past 128 arrays/objects, so text
//! input deeper than that never reaches the library; such values exist only when a caller builds
//! them in code or parses with `disable_recursion_limit`. This file builds them in code, passes
//! the reference-taking functions (canonical writer, hash, walker, dialect check) values
//! 5,000 to 100,000 levels deep, and frees them with [`walk::drop_any_depth`], since
//! serde_json's own `Drop` recurses. `SchemaOptions::normalize` takes its input by value and, when
//! it refuses it, frees it without recursion; it is handed 100,000-level values built inside the
//! small-stack thread (serde_json's `Clone` recurses as well).

use crate::corpus_dir;
use serde_json::{Map, Value, json};
use std::path::PathBuf;
use toolschema::dialect::{self, AdaptContext};
use toolschema::walk::{self, Depth};
use toolschema::{Error, SchemaGenerationError, SchemaOptions, ToolSchema, canonical, schema_hash};

/// The stack every case runs on: 2 MiB, a Rust test thread's default, the stack the project promises
/// no input overflows. Measured in a debug build (no optimisation, so no stack-slot sharing): the
/// pipeline at the default depth budget (128) needs 256 to 512 KiB, and
/// `self_contained_input_schema` about 9.5 KiB per level, some 1.2 MiB at 128 (release builds far
/// less). An unbudgeted recursion along the 5,000-level inputs below (a `$ref` chain, nested
/// properties) would need tens of MiB and overflow.
const SMALL_STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a fresh thread with [`SMALL_STACK`]; a panic fails the test naming the case.
fn on_small_stack<T: Send + 'static>(case: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let handle = std::thread::Builder::new()
        .name(case.to_owned())
        .stack_size(SMALL_STACK)
        .spawn(f)
        .unwrap_or_else(|e| panic!("{case}: cannot spawn: {e}"));
    handle.join().unwrap_or_else(|_| panic!("{case}: panicked (see above)"))
}

/// Whether an error message follows the project's rule: non-empty, starting in lowercase.
fn well_formed(message: &str) -> bool {
    message.chars().next().is_some_and(|c| !c.is_uppercase())
}

/// Checks one pipeline outcome: an accepted schema's canonical bytes are those of its value and
/// re-parse to it; a refusal has a well-formed message.
fn check_outcome(case: &str, dialect: &str, result: &Result<ToolSchema, Error>) {
    match result {
        Ok(schema) => {
            let text = canonical::to_string(schema.as_value());
            assert_eq!(schema.canonical_json(), text, "{case} / {dialect}");
            // Within the depth budget a schema may still nest JSON past serde_json's default parse
            // limit (a property is two JSON levels), so read it back without that limit.
            let mut de = serde_json::Deserializer::from_str(&text);
            de.disable_recursion_limit();
            let back: Value = serde::Deserialize::deserialize(&mut de)
                .unwrap_or_else(|e| panic!("{case} / {dialect}: {e}"));
            assert_eq!(canonical::to_string(&back), text, "{case} / {dialect}");
            walk::drop_any_depth(back);
        }
        Err(e) => assert!(well_formed(&e.to_string()), "{case} / {dialect}: message {:?}", e.to_string()),
    }
}

/// `options` with every built-in dialect, each run on a small stack; returns each outcome.
fn through_every_dialect(
    case: &str,
    schema: &Value,
    options: &SchemaOptions,
) -> Vec<(String, Result<ToolSchema, Error>)> {
    dialect::builtin()
        .iter()
        .map(|&d| {
            let (schema, options) = (schema.clone(), options.clone().dialect(d));
            let result = on_small_stack(case, move || options.normalize(schema));
            check_outcome(case, d.name(), &result);
            (d.name().to_owned(), result)
        })
        .collect()
}

/// The reference-taking functions on a value of any depth: canonical bytes, hash, the walker and
/// every dialect's forbidden-keyword check, on a small stack. Returns the value for dismantling.
fn reference_functions_survive(case: &str, value: Value, max_depth: usize) -> Value {
    let case_name = case.to_owned();
    on_small_stack(case, move || {
        let bytes = canonical::to_vec(&value);
        assert!(!bytes.is_empty(), "{case_name}");
        let _ = schema_hash(&value);
        let walked = walk::visit_all(&value, max_depth, &mut |_, _| true);
        for &d in dialect::builtin() {
            let errors = dialect::forbidden_keyword_errors(d, &value, max_depth);
            // The walk and the dialect check agree on whether the budget was exceeded.
            let too_deep = errors.iter().any(|e| e.to_string().contains("depth"));
            assert_eq!(walked.is_err(), too_deep, "{case_name} / {}: {errors:?}", d.name());
        }
        value
    })
}

/// The foreign-schema functions on a value of any depth, on a small stack: `self_contained_input_schema`
/// gives an object schema or an error naming the tool; `declared_type` answers for the root and
/// each root property. Returns the value for dismantling.
fn foreign_functions_survive(case: &str, value: Value) -> Value {
    let case_name = case.to_owned();
    on_small_stack(case, move || {
        match toolschema::self_contained_input_schema(&value, &case_name) {
            Ok(out) => {
                assert_eq!(out.get("type"), Some(&json!("object")), "{case_name}: {out}");
                let mut refs = 0;
                let walked = walk::visit_all(&out, Depth::DEFAULT_MAX, &mut |_, node| {
                    refs += usize::from(node.get("$ref").is_some());
                    true
                });
                assert!(walked.is_ok() && refs == 0, "{case_name}: {refs} `$ref` left, {walked:?}");
                walk::drop_any_depth(out);
            }
            Err(e) => {
                assert_eq!(e.tool(), case_name, "{case_name}: {e}");
                assert!(well_formed(&e.to_string()), "{case_name}: {e}");
            }
        }
        let _ = toolschema::declared_type(&value, &value);
        if let Some(Value::Object(props)) = value.get("properties") {
            for prop in props.values() {
                let _ = toolschema::declared_type(prop, &value);
            }
        }
        value
    })
}

// ---------------------------------------------------------------------------------------------
// The shared corpus.

/// `$TOOLSCHEMA_CORPUS`, else `../shared/corpus` beside the crate; `None` (with a notice) when absent.
fn hostile_dir() -> Option<PathBuf> {
    corpus_dir::find("hostile").map(|root| root.join("hostile"))
}

/// Parses text past serde_json's recursion limit, on a thread with room for serde_json's own
/// recursive parser (the library is not involved).
fn parse_unlimited(text: String) -> Value {
    let parse = move || {
        let mut de = serde_json::Deserializer::from_str(&text);
        de.disable_recursion_limit();
        serde::Deserialize::deserialize(&mut de).unwrap_or_else(|e| panic!("{e}"))
    };
    let big = std::thread::Builder::new().stack_size(256 * 1024 * 1024).spawn(parse);
    big.and_then(|h| h.join().map_err(|_| std::io::Error::other("parser panicked")))
        .unwrap_or_else(|e| panic!("{e}"))
}

// Law: every hostile corpus case, through every dialect and through the foreign-schema functions,
// gives a schema or a typed error (never a panic or a stack overflow); cases deeper than serde_json parses are refused at parse time, and
// the reference-taking functions still handle them within budget.
#[test]
fn every_shared_hostile_case_gives_a_result_or_a_typed_error_in_every_dialect() {
    let Some(dir) = hostile_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 40, "expected the whole hostile corpus, found {} files", files.len());
    let (mut normalised, mut too_deep_for_serde) = (0, 0);
    for path in files {
        let case = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{case}: {e}"));
        match serde_json::from_str::<Value>(&text) {
            Ok(value) => {
                normalised += 1;
                let value = foreign_functions_survive(&case, value);
                through_every_dialect(&case, &value, &SchemaOptions::new());
                through_every_dialect(&case, &value, &SchemaOptions::new().max_depth(8).max_bytes(4096));
            }
            Err(e) => {
                // Only nesting past serde_json's limit may fail to parse: the corpus is valid JSON.
                assert!(e.to_string().contains("recursion limit"), "{case}: {e}");
                too_deep_for_serde += 1;
                let value = parse_unlimited(text);
                let value = foreign_functions_survive(&case, value);
                walk::drop_any_depth(reference_functions_survive(&case, value, Depth::DEFAULT_MAX));
            }
        }
    }
    assert!(normalised > 30 && too_deep_for_serde >= 3, "{normalised} parsed, {too_deep_for_serde} too deep");
}

// ---------------------------------------------------------------------------------------------
// Depth: just under, at and over every budget.

/// An array schema nested `levels` deep: the deepest schema is at level `levels` (root is 0).
fn nested_items(levels: usize) -> Value {
    let mut v = json!({"type": "string"});
    for _ in 0..levels {
        v = json!({"type": "array", "items": v});
    }
    v
}

/// An object schema nested `levels` deep through required properties.
fn nested_properties(levels: usize) -> Value {
    let mut v = json!({"type": "string"});
    for _ in 0..levels {
        v = json!({"type": "object", "properties": {"p": v}, "required": ["p"]});
    }
    v
}

fn is_too_deep(result: &Result<ToolSchema, Error>) -> bool {
    matches!(result, Err(Error::Generation(SchemaGenerationError::TooDeep { .. })))
        || matches!(result, Err(Error::Capability(errors)) if errors.to_string().contains("depth"))
}

// Law: a schema exactly as deep as the budget is accepted by the default dialect, one level more is
// refused with a depth error by every dialect, never a stack overflow; for budgets 1, 8, 64 and the
// default 128.
#[test]
fn depth_just_under_at_and_over_every_budget_is_accepted_then_refused() {
    for budget in [1, 8, 64, Depth::DEFAULT_MAX] {
        for (shape, make) in
            [("items", nested_items as fn(usize) -> Value), ("properties", nested_properties)]
        {
            let options = SchemaOptions::new().max_depth(budget);
            for levels in [budget - 1, budget] {
                let case = format!("{shape} {levels} deep, budget {budget}");
                let schema = make(levels);
                let plain = on_small_stack(&case, {
                    let (s, o) = (schema.clone(), options.clone());
                    move || o.normalize(s)
                });
                assert!(plain.is_ok(), "{case}: {:?}", plain.err());
                through_every_dialect(&case, &schema, &options);
            }
            let case = format!("{shape} {} deep, budget {budget}", budget + 1);
            for (name, result) in through_every_dialect(&case, &make(budget + 1), &options) {
                assert!(is_too_deep(&result), "{case} / {name}: {:?}", result.map(|s| s.hash()));
            }
        }
    }
}

// Law: values far deeper than any budget (5,000 and 100,000 levels, built in code) pass through the
// canonical writer, the hash, the walker, every dialect's check and the foreign-schema functions on
// a small stack: the writer is
// iterative, the walks stop at the budget.
#[test]
fn values_far_past_every_budget_stay_within_a_small_stack() {
    for levels in [5_000, 100_000] {
        let mut items = json!({"type": "string"});
        let mut props = json!({"type": "string"});
        for _ in 0..levels {
            items = Value::Object(Map::from_iter([("items".to_owned(), items)]));
            props = Value::Object(Map::from_iter([(
                "properties".to_owned(),
                Value::Object(Map::from_iter([("p".to_owned(), props)])),
            )]));
        }
        let items = foreign_functions_survive(&format!("items {levels}"), items);
        walk::drop_any_depth(reference_functions_survive(
            &format!("items {levels}"),
            items,
            Depth::DEFAULT_MAX,
        ));
        let props = foreign_functions_survive(&format!("properties {levels}"), props);
        walk::drop_any_depth(reference_functions_survive(
            &format!("properties {levels}"),
            props,
            Depth::DEFAULT_MAX,
        ));
    }
}

// Law: `normalize` of a value a few hundred levels deep (past the default budget, as deep as
// serde_json's recursive drop allows on the small stack) refuses it with a depth error.
#[test]
fn normalize_refuses_a_value_past_the_default_budget_on_a_small_stack() {
    let deep = nested_properties(300);
    for (name, result) in through_every_dialect("properties 300 deep", &deep, &SchemaOptions::new()) {
        assert!(is_too_deep(&result), "{name}");
    }
    walk::drop_any_depth(deep);
}

// Law: `normalize` refuses a value 100,000 levels deep on the small stack, and frees it there
// without recursion (the value is built and handed over inside the thread: serde_json's `Clone`
// recurses too).
#[test]
fn normalize_refuses_and_frees_a_value_100_000_levels_deep_on_a_small_stack() {
    for dialect in dialect::builtin() {
        let result = on_small_stack("normalize 100,000 deep", move || {
            // Built by moves: `json!` would serialise (and so recurse through) the inner value.
            let mut props = json!({"type": "string"});
            for _ in 0..100_000 {
                props = Value::Object(Map::from_iter([(
                    "properties".to_owned(),
                    Value::Object(Map::from_iter([("p".to_owned(), props)])),
                )]));
            }
            SchemaOptions::new().dialect(*dialect).normalize(props)
        });
        assert!(is_too_deep(&result), "{}: {result:?}", dialect.name());
    }
}

/// `{"properties": {"p": ...}}` nested `levels` deep, built by moves (`json!` would recurse
/// through the inner value); call inside the thread that uses it (serde_json's `Clone` recurses).
fn properties_by_moves(levels: usize) -> Value {
    let mut props = json!({"type": "string"});
    for _ in 0..levels {
        props = Value::Object(Map::from_iter([(
            "properties".to_owned(),
            Value::Object(Map::from_iter([("p".to_owned(), props)])),
        )]));
    }
    props
}

/// A JSON array nested `levels` deep, built by moves: no walk descends into it under `const`.
fn array_by_moves(levels: usize) -> Value {
    let mut v = json!("x");
    for _ in 0..levels {
        v = Value::Array(vec![v]);
    }
    v
}

// Law: `self_contained_input_schema_owned` refuses a schema 100,000 levels deep on the small stack
// with the depth error at the budget, and frees it there without recursion.
#[test]
fn the_owned_self_contained_refuses_and_frees_a_value_100_000_levels_deep_on_a_small_stack() {
    let err = on_small_stack("owned 100,000 deep", move || {
        toolschema::self_contained_input_schema_owned(properties_by_moves(100_000), "deep").unwrap_err()
    });
    assert_eq!(err.kind(), "too-deep", "{err}");
    assert_eq!(err.pointer(), "/properties/p".repeat(Depth::DEFAULT_MAX + 1), "{err}");
}

// Law: a value 100,000 levels deep under keywords no walk descends into (`const`, `default`, a
// title, a description) is refused, naming where it passes the nesting limit, by
// `self_contained_input_schema` (borrowed and owned) and by `normalize` in every dialect (which
// first drops titles, freeing them without recursion), on the small stack: nothing copies such a
// value (serde_json's `Clone` recurses) and refused inputs are freed without recursion.
#[test]
fn values_nested_past_the_limit_outside_subschemas_are_refused_without_recursion() {
    let limit = toolschema::walk::MAX_NESTING;
    // A nested `$defs` holds a definition whose `const` is deep (the survey enters no `$defs`).
    let deep_under = |keyword: &str| match keyword {
        "$defs" => Value::Object(Map::from_iter([(
            "X".to_owned(),
            Value::Object(Map::from_iter([("const".to_owned(), array_by_moves(100_000))])),
        )])),
        _ => array_by_moves(100_000),
    };
    let under = move |keyword: &'static str| {
        Value::Object(Map::from_iter([
            ("type".to_owned(), json!("object")),
            (
                "properties".to_owned(),
                Value::Object(Map::from_iter([(
                    "a".to_owned(),
                    Value::Object(Map::from_iter([(keyword.to_owned(), deep_under(keyword))])),
                )])),
            ),
        ]))
    };
    for keyword in ["const", "default", "title", "description", "$defs"] {
        // `limit` levels: the root, `properties`, `a`, then the value itself and its arrays.
        let expected = match keyword {
            "$defs" => format!("/properties/a/$defs/X/const{}", "/0".repeat(limit - 5)),
            _ => format!("/properties/a/{keyword}{}", "/0".repeat(limit - 3)),
        };
        let case = format!("deep {keyword}");
        let (borrowed, owned) = on_small_stack(&case, move || {
            let schema = under(keyword);
            let borrowed = toolschema::self_contained_input_schema(&schema, "deep");
            walk::drop_any_depth(schema);
            (borrowed, toolschema::self_contained_input_schema_owned(under(keyword), "deep"))
        });
        for result in [borrowed, owned] {
            let err = result.expect_err(&case);
            assert_eq!((err.kind(), err.pointer()), ("malformed", expected.as_str()), "{case}: {err}");
        }
        for d in dialect::builtin() {
            let result =
                on_small_stack(&case, move || SchemaOptions::new().dialect(*d).normalize(under(keyword)));
            if keyword == "title" {
                // drop-titles removes it (freed without recursion) before any nesting matters; what
                // is left, `{}`, some dialects accept and strict ones refuse.
                if let Ok(schema) = &result {
                    assert!(!schema.canonical_json().contains("title"), "{case} / {}", d.name());
                }
                assert!(
                    !result.is_err_and(|e| e.to_string().contains("nests deeper")),
                    "{case} / {}",
                    d.name()
                );
                continue;
            }
            let Err(Error::Generation(e)) = result else { panic!("{case} / {}: {result:?}", d.name()) };
            assert_eq!(e.pointer(), Some(expected.as_str()), "{case} / {}: {e}", d.name());
        }
    }
}

// Law: the same with definitions at the root (the general path): a value 100,000 levels deep in a
// definition a reference reaches (under `const` or a title, in a nested `$defs`, or the definition
// itself), in one no reference reaches, or in a property beside the definitions, is refused naming
// where it passes the nesting limit, borrowed and owned, on the small stack.
#[test]
fn values_nested_past_the_limit_beside_definitions_are_refused_without_recursion() {
    let limit = walk::MAX_NESTING;
    let deep = || array_by_moves(100_000);
    let object = |entries: Vec<(&str, Value)>| {
        Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect::<Map<_, _>>())
    };
    let to_a = || json!({"a": {"$ref": "#/$defs/A"}});
    let zeros = |n: usize| "/0".repeat(n);
    type Build = Box<dyn Fn() -> Value + Send + Sync>;
    let cases: Vec<(&str, Build, String)> = vec![
        (
            "a referenced const",
            Box::new(move || {
                object(vec![
                    ("$defs", object(vec![("A", object(vec![("const", deep())]))])),
                    ("properties", to_a()),
                ])
            }),
            format!("/$defs/A/const{}", zeros(limit - 3)),
        ),
        (
            "a referenced title",
            Box::new(move || {
                let a = object(vec![("title", deep()), ("type", json!("string"))]);
                object(vec![("$defs", object(vec![("A", a)])), ("properties", to_a())])
            }),
            format!("/$defs/A/title{}", zeros(limit - 3)),
        ),
        (
            "a nested $defs",
            Box::new(move || {
                let x = object(vec![("X", object(vec![("const", deep())]))]);
                let a = object(vec![("$defs", x), ("type", json!("string"))]);
                object(vec![("$defs", object(vec![("A", a)])), ("properties", to_a())])
            }),
            format!("/$defs/A/$defs/X/const{}", zeros(limit - 5)),
        ),
        (
            "a referenced deep value",
            Box::new(move || object(vec![("$defs", object(vec![("A", deep())])), ("properties", to_a())])),
            format!("/$defs/A{}", zeros(limit - 2)),
        ),
        (
            "an unreferenced definition",
            Box::new(move || {
                let b = object(vec![("default", deep())]);
                let defs = object(vec![("A", json!({"type": "string"})), ("B", b)]);
                object(vec![("$defs", defs), ("properties", to_a())])
            }),
            format!("/$defs/B/default{}", zeros(limit - 3)),
        ),
        (
            "an unreferenced definitions entry",
            Box::new(move || {
                let b = object(vec![("default", deep())]);
                object(vec![
                    ("$defs", json!({"A": {"type": "string"}})),
                    ("definitions", object(vec![("B", b)])),
                    ("properties", to_a()),
                ])
            }),
            format!("/definitions/B/default{}", zeros(limit - 3)),
        ),
        (
            "a property beside the definitions",
            Box::new(move || {
                let mut props = to_a();
                props["b"] = object(vec![("default", deep())]);
                object(vec![("$defs", json!({"A": {"type": "string"}})), ("properties", props)])
            }),
            format!("/properties/b/default{}", zeros(limit - 3)),
        ),
        (
            "the type of a recursive definition",
            Box::new(move || {
                let n = object(vec![
                    ("properties", json!({"next": {"$ref": "#/$defs/N"}})),
                    ("type", Value::Array(vec![deep()])),
                ]);
                let props = json!({"n": {"$ref": "#/$defs/N"}});
                object(vec![("$defs", object(vec![("N", n)])), ("properties", props)])
            }),
            format!("/$defs/N/type{}", zeros(limit - 3)),
        ),
        (
            "the root's own default",
            Box::new(move || {
                let defs = json!({"A": {"type": "string"}});
                object(vec![("$defs", defs), ("default", deep()), ("properties", to_a())])
            }),
            format!("/default{}", zeros(limit - 1)),
        ),
        (
            "the root's own title",
            Box::new(move || {
                let defs = json!({"A": {"type": "string"}});
                object(vec![("$defs", defs), ("properties", to_a()), ("title", deep())])
            }),
            format!("/title{}", zeros(limit - 1)),
        ),
    ];
    for (case, schema, expected) in cases {
        let schema = std::sync::Arc::new(schema);
        let (borrowed, owned) = on_small_stack(case, {
            let schema = schema.clone();
            move || {
                let input = schema();
                let borrowed = toolschema::self_contained_input_schema(&input, "deep");
                walk::drop_any_depth(input);
                (borrowed, toolschema::self_contained_input_schema_owned(schema(), "deep"))
            }
        });
        for result in [borrowed, owned] {
            let err = result.expect_err(case);
            assert_eq!((err.kind(), err.pointer()), ("malformed", expected.as_str()), "{case}: {err}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Size.

// Law: a 100,000-member enum is kept whole (no member lost or reordered) by the default dialect,
// handled by every dialect, and refused by a size budget smaller than it.
#[test]
fn a_hundred_thousand_member_enum_is_kept_whole_or_refused_by_size() {
    let members: Vec<Value> = (0..100_000).map(|i| json!(format!("m{i}"))).collect();
    let schema = json!({"type": "object", "properties": {"e": {"type": "string", "enum": members}}, "required": ["e"]});
    let outcomes = through_every_dialect("enum 100k", &schema, &SchemaOptions::new());
    let plain = outcomes[0].1.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(plain.as_value()["properties"]["e"]["enum"], schema["properties"]["e"]["enum"]);
    let small = SchemaOptions::new().max_bytes(100_000).normalize(schema.clone());
    assert!(
        matches!(small, Err(Error::Generation(SchemaGenerationError::TooLarge { max: 100_000, .. }))),
        "{small:?}"
    );
}

/// A schema of about `bytes` canonical bytes: many documented properties and a shared definition.
fn big_schema(bytes: usize) -> Value {
    let description = "d".repeat(480);
    let count = bytes / 470;
    let mut properties = Map::new();
    for i in 0..count {
        let p = if i % 10 == 0 {
            json!({"$ref": "#/$defs/Shared"})
        } else {
            json!({"type": "string", "description": description})
        };
        properties.insert(format!("property_{i:06}"), p);
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": ["property_000001"],
        "$defs": {"Shared": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}
    })
}

// Law: a 10 MB schema gives a result or a typed error in every dialect; under the default dialect
// it is accepted with all its properties, and a 1 MB size budget refuses it.
#[test]
fn a_ten_megabyte_schema_is_handled_by_every_dialect() {
    let schema = big_schema(10_000_000);
    let size = canonical::to_vec(&schema).len();
    assert!(size >= 9_500_000, "generated only {size} bytes");
    let outcomes = through_every_dialect("10 MB", &schema, &SchemaOptions::new());
    let plain = outcomes[0].1.as_ref().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        plain.as_value()["properties"].as_object().map(Map::len),
        schema["properties"].as_object().map(Map::len)
    );
    let capped = SchemaOptions::new().max_bytes(1_000_000).normalize(schema);
    assert!(matches!(capped, Err(Error::Generation(SchemaGenerationError::TooLarge { .. }))), "{capped:?}");
}

/// 1,000 properties that all refer to one 50-property definition.
fn thousand_way_shared() -> Value {
    let inner: Map<String, Value> =
        (0..50).map(|i| (format!("f{i:02}"), json!({"type": "integer"}))).collect();
    let props: Map<String, Value> =
        (0..1000).map(|i| (format!("p{i:04}"), json!({"$ref": "#/$defs/Shared"}))).collect();
    json!({
        "type": "object",
        "properties": props,
        "$defs": {"Shared": {"type": "object", "properties": inner, "required": ["f00"]}}
    })
}

// Law: 1,000-way shared references give a result or a typed error in every dialect, and under a
// 64 KiB size budget every dialect either fits the budget or refuses with an error.
#[test]
fn thousand_way_shared_references_stay_within_the_size_budget() {
    let schema = thousand_way_shared();
    through_every_dialect("1000-way refs", &schema, &SchemaOptions::new());
    let schema = foreign_functions_survive("1000-way refs", schema);
    for (name, result) in
        through_every_dialect("1000-way refs, 64 KiB", &schema, &SchemaOptions::new().max_bytes(65_536))
    {
        if let Ok(s) = result {
            assert!(s.canonical_json().len() <= 65_536, "{name}: {} bytes", s.canonical_json().len());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Cycles.

// Law: references that loop without making progress (a definition that is only a reference to
// itself, two that refer to each other, the root referring to itself, a union of itself, a union
// of a union of itself) are refused by every dialect, at a `$ref` on the loop, with the loop
// named; they never hang, and the foreign functions give a result or a typed error.
#[test]
fn reference_cycles_without_progress_end_in_a_result_or_an_error() {
    let cases = [
        json!({"$defs": {"A": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"}),
        json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "type": "object",
               "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}),
        json!({"$ref": "#"}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}, "required": ["a"]}),
        json!({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}, "type": "object",
               "properties": {"a": {"$ref": "#/$defs/A"}}}),
        json!({"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}, "type": "object",
               "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}),
        // A union with two branches back to itself: its branches' shapes double at every turn.
        json!({"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}, {"type": "null"}]},
                         "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "object", "properties": {"x": {"$ref": "#/$defs/B"}}}]}},
               "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}),
        // Found by the restore laws: a union of itself and a union of a union of itself; and a
        // definition that is only a reference to itself, under a map's values and an "at least
        // one of", where an explicit null could not be told from absent.
        json!({"type": "object", "properties": {"b": {"$ref": "#/$defs/U"}}, "required": ["b"],
               "$defs": {"U": {"anyOf": [{"$ref": "#/$defs/U"}, {"type": "integer"}]}}}),
        json!({"type": "object", "properties": {"b": {"$ref": "#/$defs/U"}}, "required": ["b"],
               "$defs": {"U": {"anyOf": [{"anyOf": [{"$ref": "#/$defs/U"}, {"type": "integer"}]}, {"type": ["string", "null"]}]}}}),
        json!({"type": "object", "additionalProperties": {"type": "object",
               "properties": {"a": {"$ref": "#/$defs/~0t"}, "b": {"type": "string"}},
               "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
               "$defs": {"~t": {"$ref": "#/$defs/~0t"}}}),
    ];
    for (i, schema) in cases.iter().enumerate() {
        for (name, result) in
            through_every_dialect(&format!("cycle {i}"), schema, &SchemaOptions::new().reject_any(false))
        {
            let err = result.err().unwrap_or_else(|| panic!("cycle {i}, {name}: accepted"));
            let text = err.to_string();
            assert!(
                matches!(&err, Error::Generation(SchemaGenerationError::Malformed { pointer, .. }) if pointer.ends_with("/$ref"))
                    && text.contains("comes back to the schema it stands in"),
                "cycle {i}, {name}: {text}"
            );
        }
        walk::drop_any_depth(foreign_functions_survive(&format!("cycle {i}"), schema.clone()));
    }
}

// ---------------------------------------------------------------------------------------------
// Escapes and numbers.

/// Property names with NUL, every JSON escape, every other control character, pointer and
/// percent metacharacters, and characters outside the BMP.
fn hostile_names() -> Vec<String> {
    let mut names: Vec<String> = (0u8..0x20).map(|b| format!("c{}", char::from(b))).collect();
    names.extend(
        [
            "\0",
            "a\0b",
            "\"",
            "\\",
            "/",
            "~",
            "~0",
            "~1",
            "a/b",
            "%",
            "%25",
            "%zz",
            "#",
            "",
            " ",
            "\u{7f}",
            "\u{2028}\u{2029}",
            "\u{fffd}",
            "\u{1f602}",
            "\u{fb33}",
            "e\u{301}",
            "$ref",
            "properties",
        ]
        .map(str::to_owned),
    );
    names
}

// Law: properties and definitions whose names hold NUL, escapes, control characters, `~`, `/`, `%`
// and astral characters keep their exact names through every dialect that accepts them (where
// the provider refuses such a key, Anthropic's, it is sent under the name its plan lists, and a
// value's keys come back exactly), and references to such definitions (escaped per RFC 6901 and
// percent-encoded) resolve.
#[test]
fn names_with_nul_and_every_escape_survive_every_dialect() {
    let names = hostile_names();
    let properties: Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"type": "string", "description": format!("about {n}")})))
        .collect();
    let schema = json!({"type": "object", "properties": properties, "required": names});
    let value: Value = names.iter().map(|n| (n.clone(), json!(n))).collect::<Map<String, Value>>().into();
    for (name, result) in through_every_dialect("escaped names", &schema, &SchemaOptions::new()) {
        if let Ok(s) = result {
            let got: Vec<&String> =
                s.as_value()["properties"].as_object().map(|m| m.keys().collect()).unwrap_or_default();
            let renamed = s.plan().renamed_keys();
            // Anthropic's key rule, and outlines-core's (it writes a key into its regex unescaped).
            assert_eq!(
                renamed.is_empty(),
                !matches!(name.as_str(), "anthropic-strict" | "outlines"),
                "{name}"
            );
            let sent =
                |n: &String| renamed.iter().find(|k| k.original == *n).map_or(n.clone(), |k| k.sent.clone());
            let mut want: Vec<String> = names.iter().map(sent).collect();
            want.sort();
            let mut got_sorted: Vec<String> = got.into_iter().cloned().collect();
            got_sorted.sort();
            assert_eq!(got_sorted, want, "{name}");
            let encoded = s.plan().encode(value.clone());
            assert_eq!(s.restore(encoded).unwrap(), value, "{name}");
        }
    }
    // Definitions named with pointer metacharacters, referred to with RFC 6901 escapes then
    // percent-encoding (as schemars writes them).
    let defs: Map<String, Value> = names.iter().map(|n| (n.clone(), json!({"type": "integer"}))).collect();
    let refs: Map<String, Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            (
                format!("r{i}"),
                json!({"$ref": format!("#/$defs/{}", percent_encode(&toolschema::pointer::escape_token(n)))}),
            )
        })
        .collect();
    let keys: Vec<String> = refs.keys().cloned().collect();
    let schema = json!({"type": "object", "properties": refs, "required": keys, "$defs": defs});
    let outcomes = through_every_dialect("escaped refs", &schema, &SchemaOptions::new());
    let plain = outcomes[0].1.as_ref().unwrap_or_else(|e| panic!("{e}"));
    let root = plain.as_value();
    for key in &keys {
        let reference = root["properties"][key]["$ref"].as_str().unwrap_or_else(|| panic!("{key}: {root}"));
        assert_eq!(
            toolschema::refs::resolve(root, reference),
            Some(&json!({"type": "integer"})),
            "{key}: {reference}"
        );
    }
}

/// Percent-encodes everything but unreserved URI characters and `/` `~` `$`.
fn percent_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b'$' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

// Law: a lone surrogate cannot reach the library: serde_json refuses it while parsing, as a syntax
// error whose line and column point into the escape (what the CLI reports); a paired one is kept.
#[test]
fn lone_surrogates_are_refused_at_parse_time_with_a_position() {
    for text in [
        r#"{"type":"string","description":"\ud800"}"#,
        r#"{"properties":{"\udc00":{}}}"#,
        r#""\ud800\u0041""#,
        r#"["ok", "\udfff\ud800"]"#,
    ] {
        let err = serde_json::from_str::<Value>(text).expect_err(text);
        let escape_at = text.find("\\u").unwrap_or(0) + 1;
        assert!(err.is_syntax(), "{text}: {err}");
        assert_eq!(err.line(), 1, "{text}");
        assert!(
            err.column() >= escape_at && err.column() <= text.len(),
            "{text}: column {} ({err})",
            err.column()
        );
    }
    let paired: Value = serde_json::from_str(r#"{"type":"string","description":"\ud83d\ude00"}"#)
        .unwrap_or_else(|e| panic!("{e}"));
    let s = SchemaOptions::new().normalize(paired).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.as_value()["description"], "\u{1f600}");
}

// Law: numbers at the edges of u64, i64 and f64 in bounds, enums, consts and defaults keep their
// exact value through every dialect that accepts them (integers beyond 2^53 keep their digits).
#[test]
fn numbers_at_the_edges_of_f64_and_u64_keep_their_value() {
    let text = r#"{"type": "object", "required": ["u", "i", "f", "e"], "properties": {
        "u": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
        "i": {"type": "integer", "minimum": -9223372036854775808, "maximum": 9223372036854775807},
        "f": {"type": "number", "minimum": -1.7976931348623157e308, "maximum": 1.7976931348623157e308,
              "exclusiveMinimum": 5e-324, "multipleOf": 1e-7, "default": -0.0},
        "e": {"enum": [18446744073709551616, 9007199254740993, 2.2250738585072014e-308, 1e21, 1e-7, -0.0, 0.1]}
    }}"#;
    let schema: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let outcomes = through_every_dialect("number edges", &schema, &SchemaOptions::new());
    let plain = outcomes[0].1.as_ref().unwrap_or_else(|e| panic!("{e}"));
    let canonical = plain.canonical_json();
    for digits in [
        "18446744073709551615",
        "-9223372036854775808",
        "9223372036854775807",
        "9007199254740993",
        "5e-324",
        "1.7976931348623157e+308",
        "1e-7",
        "1e+21",
    ] {
        assert!(canonical.contains(digits), "{digits} missing from {canonical}");
    }
    for (name, result) in &outcomes {
        if let Ok(s) = result {
            // Where a dialect keeps a bound, it keeps its exact value.
            let max = s.as_value().pointer("/properties/u/maximum");
            assert!(max.is_none() || max == Some(&json!(u64::MAX)), "{name}: {max:?}");
        }
    }
}

// Law: a dialect check over a schema holding every keyword at once, nested under every
// schema-bearing keyword, reports instead of panicking.
#[test]
fn every_keyword_under_every_keyword_is_checked_without_panic() {
    let leaf = json!({"type": "string"});
    let mut all = Map::new();
    for (keyword, shape) in walk::KEYWORDS {
        let value = match shape {
            walk::Shape::Single => leaf.clone(),
            walk::Shape::Array => json!([leaf, true]),
            walk::Shape::Map => json!({"k": leaf, "l": false}),
        };
        all.insert((*keyword).to_owned(), value);
    }
    let all = Value::Object(all);
    let mut nested = Map::new();
    for (keyword, _) in walk::KEYWORDS {
        nested.insert((*keyword).to_owned(), json!({"k": all}));
    }
    let schema = json!({"type": "object", "properties": {"a": all, "b": Value::Object(nested)}});
    through_every_dialect("every keyword", &schema, &SchemaOptions::new());
    for &d in dialect::builtin() {
        let _ = on_small_stack(d.name(), {
            let schema = schema.clone();
            move || dialect::apply(d, schema, &AdaptContext::default()).map(|_| ()).map_err(|e| e.to_string())
        });
    }
}
