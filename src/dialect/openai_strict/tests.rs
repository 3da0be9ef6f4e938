use super::*;
use crate::dialect::{AdaptContext, adapt};
use serde_json::{Map, json};

fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
    OPENAI_STRICT.adapt(s, &AdaptContext::new(128, Some("T")))
}

fn exact(s: Value) -> Result<Value, Vec<CapabilityError>> {
    OPENAI_STRICT.adapt(s, &AdaptContext::new(128, Some("T")).with_exact(true)).map(|a| a.schema)
}

#[test]
fn optional_properties_become_required_with_null_standing_for_absent() {
    let s = json!({"type": "object", "properties": {"o": {"type": ["string", "null"]}, "n": {"type": "integer", "default": 0}}});
    let out = run(s.clone()).unwrap();
    assert_eq!(out.schema["required"], json!(["n", "o"]));
    assert_eq!(
        out.schema["properties"]["n"],
        json!({"type": ["integer", "null"], "description": "Default: 0."})
    );
    assert_eq!(out.plan.restore(json!({"o": null, "n": null})).unwrap(), json!({}));
    assert_eq!(out.plan.restore(json!({"o": "x", "n": 3})).unwrap(), json!({"o": "x", "n": 3}));
    // Exact mode keeps `Option<T>` (null is what serde reads as absent) and refuses the default.
    let errs = exact(s).unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].pointer(), "/properties/n");
    assert!(errs[0].to_string().contains("Option<T>"), "{}", errs[0]);
}

#[test]
fn a_declared_default_other_than_null_keeps_null_a_value() {
    let s = json!({"type": "object", "properties": {"o": {"type": ["integer", "null"], "default": 5}}});
    let out = run(s).unwrap();
    assert_eq!(out.schema["properties"]["o"]["description"], "Default: 5.");
    assert_eq!(out.plan.restore(json!({"o": null})).unwrap(), json!({"o": null}));
}

#[test]
fn maps_become_entries_and_exact_mode_refuses_them_with_the_entry_list_hint() {
    let s = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["m"]});
    let out = run(s.clone()).unwrap();
    let m = &out.schema["properties"]["m"];
    assert_eq!(m["type"], "array");
    assert_eq!(m["items"]["required"], json!(["key", "value"]));
    assert_eq!(out.plan.restore(json!({"m": [{"key": "a", "value": 1}]})).unwrap(), json!({"m": {"a": 1}}));
    let errs = exact(s).unwrap_err();
    assert_eq!(errs[0].pointer(), "/properties/m");
    assert!(errs[0].to_string().contains("Vec<Entry>"));
}

#[test]
fn ref_with_description_keeps_the_description_beside_a_one_branch_any_of() {
    // Recursive, so the definition stays in `$defs`.
    let s = json!({"$defs": {"I": {"type": "object", "properties": {"a": {"type": "integer"},
                           "next": {"anyOf": [{"$ref": "#/$defs/I"}, {"type": "null"}]}}, "required": ["a", "next"]}},
                       "type": "object", "properties": {"i": {"$ref": "#/$defs/I", "description": "d"}}, "required": ["i"]});
    let out = run(s).unwrap().schema;
    assert_eq!(out["properties"]["i"], json!({"anyOf": [{"$ref": "#/$defs/I"}], "description": "d"}));
    assert_eq!(out["$defs"]["I"]["additionalProperties"], false);
}

#[test]
fn definitions_are_inlined_where_none_is_recursive_for_openai_agents_mcp_path() {
    let s = json!({"$defs": {"I": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}},
                       "type": "object", "properties": {"i": {"$ref": "#/$defs/I", "description": "d"},
                       "j": {"$ref": "#/$defs/I"}}, "required": ["i", "j"]});
    let out = run(s).unwrap().schema;
    assert!(out.get("$defs").is_none() && !out.to_string().contains("$ref"), "{out}");
    let closed = json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false});
    assert_eq!(out["properties"]["j"], closed);
    assert_eq!(out["properties"]["i"], json!({"anyOf": [closed], "description": "d"}));
}

#[test]
fn tagged_one_of_becomes_any_of_and_overlapping_one_of_is_refused() {
    let tagged = |t: &str| json!({"type": "object", "properties": {"k": {"type": "string", "const": t}}, "required": ["k"]});
    let s = json!({"type": "object", "properties": {"e": {"oneOf": [tagged("a"), tagged("b")]}}, "required": ["e"]});
    let out = run(s).unwrap().schema;
    assert!(out["properties"]["e"].get("anyOf").is_some());
    let s = json!({"type": "object", "properties": {"e": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}, "required": ["e"]});
    let errs = run(s).unwrap_err();
    assert_eq!(errs[0].keyword(), Some("oneOf"));
}

#[test]
fn a_root_that_is_not_an_object_is_wrapped_and_an_untyped_value_is_json_text() {
    let out = run(json!({"type": "string"})).unwrap();
    assert_eq!(out.schema["properties"]["value"], json!({"type": "string"}));
    assert_eq!(out.plan.restore(json!({"value": "x"})).unwrap(), json!("x"));
    let out =
        run(json!({"type": "object", "properties": {"x": {"description": "anything"}}, "required": ["x"]}))
            .unwrap();
    assert_eq!(out.schema["properties"]["x"]["type"], "string");
    assert_eq!(out.plan.restore(json!({"x": "[1, {\"a\": null}]"})).unwrap(), json!({"x": [1, {"a": null}]}));
    let errs = exact(json!({"type": "string"})).unwrap_err();
    assert_eq!(errs[0].keyword(), Some("type"));
}

#[test]
fn nesting_past_ten_objects_is_json_text_or_in_exact_mode_a_limit_error() {
    let mut s = json!({"type": "object", "properties": {}, "additionalProperties": false});
    for _ in 0..11 {
        s = json!({"type": "object", "properties": {"x": s}, "required": ["x"]});
    }
    // Reversible: the eleventh object and what is in it are JSON text, checked on restore.
    let out = run(s.clone()).unwrap();
    let cut = out.schema.pointer(&"/properties/x".repeat(10)).unwrap();
    assert_eq!(cut["type"], "string", "{cut}");
    let mut value = json!({});
    for _ in 0..11 {
        value = json!({"x": value});
    }
    let sent = out.plan.encode(value.clone());
    assert!(sent.pointer(&"/x".repeat(10)).is_some_and(Value::is_string), "{sent}");
    assert_eq!(out.plan.restore(sent).unwrap(), value);
    let mut bad = value.clone();
    *bad.pointer_mut(&"/x".repeat(10)).unwrap() = json!("{\"x\": {\"y\": 1}}");
    let err = out.plan.restore(bad).unwrap_err();
    assert_eq!(err.faults()[0].pointer, format!("{}/x/y", "/x".repeat(10)), "{err}");
    // Exact mode: the limit error, its advice in the input's terms.
    let errs = exact(s.clone()).unwrap_err();
    assert!(matches!(&errs[0], CapabilityError::LimitExceeded { actual: 12, max: 10, .. }), "{errs:?}");
    assert!(errs[0].to_string().contains("#[serde(flatten)]"), "{}", errs[0]);
    let foreign = AdaptContext::new(128, None).with_exact(true);
    let errs = OPENAI_STRICT.adapt(s, &foreign).unwrap_err();
    assert!(errs[0].to_string().contains("nest fewer objects"), "{}", errs[0]);
}

#[test]
fn past_a_total_exact_mode_says_how_to_come_within_it() {
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let s =
        json!({"type": "object", "properties": {"e": {"type": "string", "enum": values}}, "required": ["e"]});
    let exact = AdaptContext::new(128, Some("T")).with_exact(true);
    let errs = OPENAI_STRICT.adapt(s.clone(), &exact).unwrap_err();
    let text = errs[0].to_string();
    assert!(
        text.contains("enum values in total") && text.contains("as a `String` the code checks"),
        "{text}"
    );
    let foreign = AdaptContext::new(128, None).with_exact(true);
    let errs = OPENAI_STRICT.adapt(s.clone(), &foreign).unwrap_err();
    assert!(errs[0].to_string().contains("a long `enum` as a string the tool checks"), "{}", errs[0]);
    let python = AdaptContext::new(128, Some("T")).with_origin(Origin::Python).with_exact(true);
    let errs = OPENAI_STRICT.adapt(s, &python).unwrap_err();
    assert!(errs[0].to_string().contains("`Literal`"), "{}", errs[0]);
}

#[test]
fn past_5000_properties_the_last_declared_are_folded_and_restored() {
    let props: Map<String, Value> =
        (0..5_002).map(|i| (format!("p{i:04}"), json!({"type": "integer"}))).collect();
    let names: Vec<&String> = props.keys().collect();
    let s = json!({"type": "object", "properties": props, "required": names});
    let out = run(s).unwrap();
    // 4,999 kept and the fold: 5,000.
    assert_eq!(totals(&out.schema, 128)[0], MAX_PROPERTIES);
    assert!(
        out.schema["properties"].get("p4998").is_some() && out.schema["properties"].get("p4999").is_none()
    );
    // Every folded property is required: so is the fold (without null).
    assert_eq!(out.schema["properties"]["more_properties"]["type"], "string");
    let folded = out.plan.adaptations().iter().filter(|a| a.kind == crate::restore::AdaptationKind::Folded);
    assert_eq!(folded.count(), 3);
    let value: Map<String, Value> = (0..5_002).map(|i| (format!("p{i:04}"), json!(i))).collect();
    let value = Value::Object(value);
    let sent = out.plan.encode(value.clone());
    assert_eq!(sent["more_properties"], r#"{"p4999":4999,"p5000":5000,"p5001":5001}"#);
    assert_eq!(out.plan.restore(sent.clone()).unwrap(), value);
    let mut missing = sent;
    missing["more_properties"] = json!(r#"{"p4999":1,"p5000":"x"}"#);
    let err = out.plan.restore(missing).unwrap_err();
    let faults: Vec<String> = err.faults().iter().map(ToString::to_string).collect();
    assert_eq!(faults.len(), 2, "{faults:?}");
    assert!(faults.iter().any(|f| f.starts_with("`/p5000`")), "{faults:?}");
}

#[test]
fn past_1000_enum_values_the_last_declared_enums_are_folded() {
    let values: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
    let props: Map<String, Value> =
        (0..11).map(|i| (format!("e{i:02}"), json!({"type": "string", "enum": values}))).collect();
    let out = run(json!({"type": "object", "properties": props})).unwrap();
    // Each optional enum is sent with `null` beside its 100 values: 9 of them fit.
    assert_eq!(totals(&out.schema, 128)[2], 909);
    let folded: Vec<&str> = out
        .plan
        .adaptations()
        .iter()
        .filter(|a| a.kind == crate::restore::AdaptationKind::Folded)
        .map(|a| a.pointer.as_str())
        .collect();
    assert_eq!(folded, ["/properties/e09", "/properties/e10"]);
    // Optional under OpenAI: required, with null for absent.
    assert_eq!(out.schema["properties"]["more_properties"]["type"], json!(["string", "null"]));
    assert_eq!(out.plan.encode(json!({"e00": "v1"}))["more_properties"], Value::Null);
    assert_eq!(out.plan.restore(out.plan.encode(json!({"e10": "v2"}))).unwrap(), json!({"e10": "v2"}));
    let err = out.plan.restore(out.plan.encode(json!({"e10": "w"}))).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/e10");
}

#[test]
fn string_lengths_move_into_restore() {
    let s = json!({"type": "object", "properties": {"c": {"type": "string", "minLength": 1, "maxLength": 1}}, "required": ["c"]});
    let out = adapt(&OPENAI_STRICT, s, &AdaptContext::default()).unwrap();
    assert_eq!(
        out.schema["properties"]["c"]["description"],
        "Constraints: at least 1 character; at most 1 character."
    );
    assert!(out.plan.restore(json!({"c": "ab"})).is_err());
    assert_eq!(out.plan.adaptations().len(), 2);
}
