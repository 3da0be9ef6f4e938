use super::*;
use serde_json::json;

fn ok(schema: &Value, args: Value) -> (Value, Vec<String>) {
    let c = coerce(schema, args).unwrap();
    (c.value, c.coercions.iter().map(ToString::to_string).collect())
}

fn faults(schema: &Value, args: Value) -> Vec<String> {
    coerce(schema, args).unwrap_err().faults().iter().map(ToString::to_string).collect()
}

#[test]
fn each_rule_converts_and_reports() {
    let schema = json!({"type": "object", "properties": {
            "a": {"type": "array", "items": {"type": "integer"}},
            "o": {"type": "object", "properties": {"n": {"type": "number"}}},
            "n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"}}});
    let (v, reported) = ok(
        &schema,
        json!({"a": "[\"1\", 2]", "o": "{\"n\": \"-1.5e3\"}", "n": "2.5", "i": "3.0", "b": "true"}),
    );
    assert_eq!(v, json!({"a": [1, 2], "o": {"n": -1500.0}, "n": 2.5, "i": 3, "b": true}));
    assert!(v["i"].is_i64());
    assert_eq!(
        reported,
        [
            "`/a`: a string read as an array",
            "`/a/0`: a string read as an integer",
            "`/b`: a string read as a boolean",
            "`/i`: a string read as an integer",
            "`/n`: a string read as a number",
            "`/o`: a string read as an object",
            "`/o/n`: a string read as a number",
        ]
    );
}

#[test]
fn nothing_else_is_guessed() {
    let schema = json!({"type": "object", "properties": {
            "s": {"type": "string"}, "n": {"type": "number"}, "u": {"type": ["string", "integer"]},
            "any": {}, "two": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}}});
    let args = json!({"s": 3, "n": true, "u": "3", "any": "[1]", "two": "1", "extra": "2", "x": null});
    assert_eq!(ok(&schema, args.clone()), (args, vec![]));
}

#[test]
fn a_string_that_does_not_convert_is_a_fault_worded_for_the_model() {
    let schema = json!({"properties": {
            "a": {"type": "array"}, "o": {"type": "object"}, "i": {"type": "integer"},
            "n": {"type": "number"}, "b": {"type": "boolean"}, "z": {"type": "null"}}});
    let got = faults(&schema, json!({"a": "{}", "o": "{", "i": "2.5", "n": " 1", "b": "True", "z": "null"}));
    assert_eq!(
        got,
        [
            "`/a`: must be an array, got a string holding JSON of an object",
            "`/b`: must be a boolean (`true` or `false`), got the string \"True\"",
            "`/i`: must be an integer, got the string \"2.5\"",
            "`/n`: must be a number, got the string \" 1\"",
            "`/o`: must be an object, got a string that is not JSON text (EOF while parsing an object at line 1 column 1)",
            "`/z`: must be null, got a string",
        ]
    );
    for bad in ["+1", "1.", ".5", "0x10", "NaN", "Infinity", "1e999", "", "1 2"] {
        assert!(number(bad).is_none(), "{bad}");
    }
    assert_eq!(faults(&json!({"type": "integer"}), json!("1e300")).len(), 1);
}

#[test]
fn reads_through_refs_optional_unions_all_of_and_maps() {
    // pydantic: an optional nested model, a map of lists, a field whose `$ref` sits in `allOf`.
    let schema = json!({
        "$defs": {"Shot": {"type": "object", "properties": {"seconds": {"type": "integer"}}}},
        "properties": {
            "lead": {"anyOf": [{"$ref": "#/$defs/Shot"}, {"type": "null"}], "default": null},
            "by_day": {"type": "object", "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/Shot"}}},
            "first": {"allOf": [{"$ref": "#/$defs/Shot"}], "description": "v1 style"},
            "pair": {"type": "array", "prefixItems": [{"type": "boolean"}], "items": {"type": "number"}}
        }
    });
    let (v, reported) = ok(
        &schema,
        json!({"lead": "{\"seconds\": \"5\"}", "by_day": {"mon": "[{\"seconds\": 1}]"},
                   "first": {"seconds": "2"}, "pair": ["false", "1", "2"]}),
    );
    assert_eq!(
        v,
        json!({"lead": {"seconds": 5}, "by_day": {"mon": [{"seconds": 1}]}, "first": {"seconds": 2},
                   "pair": [false, 1, 2]})
    );
    assert_eq!(reported.len(), 7, "{reported:?}");
    assert_eq!(ok(&schema, json!({"lead": null})), (json!({"lead": null}), vec![]));
}

#[test]
fn under_draft_07_a_ref_ignores_its_siblings() {
    let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"S": {"type": "string"}},
            "properties": {"a": {"$ref": "#/definitions/S", "type": "integer"},
                           "b": {"$ref": "#/definitions/S", "properties": {"x": {"type": "integer"}}}}});
    let args = json!({"a": "1", "b": "2"});
    assert_eq!(ok(&schema, args.clone()), (args, vec![]));
    let modern = json!({"$defs": {"S": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/S"}}});
    assert_eq!(ok(&modern, json!({"a": "1"})).0, json!({"a": 1}));
}

#[test]
fn keys_a_pattern_might_claim_are_left_alone() {
    let schema = json!({"patternProperties": {"^x": {"type": "string"}},
            "additionalProperties": {"type": "integer"}, "properties": {"n": {"type": "integer"}}});
    assert_eq!(ok(&schema, json!({"n": "1", "xy": "2"})).0, json!({"n": 1, "xy": "2"}));
}

#[test]
fn a_reference_cycle_and_a_deep_value_end_within_the_budgets() {
    let schema = json!({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}], "items": {"$ref": "#/$defs/A"}}},
            "$ref": "#/$defs/A"});
    let mut deep = json!("1");
    for _ in 0..(MAX_DEPTH + 5) {
        deep = Value::Array(vec![deep]);
    }
    let err = coerce(&schema, deep).unwrap_err();
    assert!(err.to_string().contains("deeper than 128"), "{err}");
}

#[test]
fn with_restore_coercion_comes_first() {
    let schema = json!({"type": "object", "properties": {
            "tags": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}});
    let adapted = crate::dialect::adapt(
        &crate::dialect::OPENAI_STRICT,
        schema,
        &crate::dialect::AdaptContext::default(),
    )
    .unwrap();
    let sent = json!({"tags": "[{\"key\": \"a\", \"value\": \"1\"}]"});
    let done = coerce_and_restore(&adapted.schema, &adapted.plan, sent).unwrap();
    assert_eq!(done.value, json!({"tags": {"a": 1}}));
    let absent = coerce_and_restore(&adapted.schema, &adapted.plan, json!({"tags": null})).unwrap();
    assert_eq!(absent.value, json!({}));
    let err = coerce_and_restore(
        &adapted.schema,
        &adapted.plan,
        json!({"tags": "[{\"key\": \"a\", \"value\": 1}, {\"key\": \"a\", \"value\": 2}]"}),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the arguments do not fit the tool's schema:\n- `/tags/1`: repeats the key `a`; each key may appear once"
    );
}

#[test]
fn long_strings_are_cut_in_faults() {
    let text = "x".repeat(100);
    let got = faults(&json!({"type": "number"}), json!(text));
    assert_eq!(got, ["``: must be a number, got the string \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (100 bytes)"]);
}
