use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

/// `(pointer, kind)` of every change from `old` to `new`.
#[allow(clippy::needless_pass_by_value, reason = "called with `json!` values")]
fn changes(old: Value, new: Value) -> Vec<(String, ChangeKind)> {
    diff(&old, &new).into_changes().into_iter().map(|c| (c.pointer, c.kind)).collect()
}

fn one(pointer: &str, kind: ChangeKind) -> Vec<(String, ChangeKind)> {
    vec![(pointer.to_owned(), kind)]
}

use ChangeKind::{AnnotationOnly, Narrowing, Widening};

#[allow(clippy::needless_pass_by_value, reason = "called with `json!` values")]
fn obj(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

#[test]
fn equal_schemas_have_no_changes_whatever_the_order_of_sets() {
    let a = json!({"type": ["string", "null"], "required": ["a", "b"], "enum": [1, 2],
                   "anyOf": [{"minimum": 1}, {"maximum": 0.0}]});
    let b = json!({"enum": [2, 1], "required": ["b", "a"], "type": ["null", "string"],
                   "anyOf": [{"maximum": 0}, {"minimum": 1.0}]});
    assert_eq!(diff(&a, &b), SchemaDiff::default());
    assert!(diff(&a, &a).is_empty());
    assert_eq!(diff(&a, &a).kind(), None);
}

#[test]
fn a_newly_required_property_narrows_and_a_dropped_requirement_widens() {
    let p = json!({"a": {"type": "string"}, "b": {"type": "string"}});
    assert_eq!(changes(obj(p.clone(), &["a"]), obj(p.clone(), &["a", "b"])), one("/required", Narrowing));
    assert_eq!(changes(obj(p.clone(), &["a", "b"]), obj(p, &["a"])), one("/required", Widening));
}

#[test]
fn removing_a_property_from_a_closed_object_narrows() {
    let old = json!({"type": "object", "additionalProperties": false,
                     "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
    let mut new = old.clone();
    new["properties"].as_object_mut().unwrap().remove("b");
    assert_eq!(changes(old.clone(), new.clone()), one("/properties/b", Narrowing));
    // The other way round, the object starts accepting `b`.
    assert_eq!(changes(new, old), one("/properties/b", Widening));
}

#[test]
fn properties_of_an_open_object_compare_against_any_value() {
    let old = obj(json!({"a": {"type": "string"}}), &[]);
    let new = obj(json!({"a": {"type": "string"}, "b": {"type": "integer"}}), &[]);
    assert_eq!(changes(old.clone(), new.clone()), one("/properties/b", Narrowing));
    assert_eq!(changes(new, old), one("/properties/b", Widening));
}

#[test]
fn properties_compare_against_an_additional_properties_schema() {
    let old = json!({"additionalProperties": {"type": ["string", "integer"]}});
    let new = json!({"additionalProperties": {"type": ["string", "integer"]},
                     "properties": {"a": {"type": "string"}}});
    assert_eq!(changes(old, new), one("/properties/a/type", Narrowing));
}

#[test]
fn a_property_that_may_match_pattern_properties_is_conservatively_narrowing() {
    let old = json!({"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false});
    let mut new = old.clone();
    new["properties"] = json!({"x-a": {"type": "string"}});
    assert_eq!(changes(old, new), one("/properties/x-a", Narrowing));
}

#[test]
fn removing_an_enum_value_narrows_and_adding_one_widens() {
    let old = json!({"type": "string", "enum": ["a", "b"]});
    let new = json!({"type": "string", "enum": ["a", "c"]});
    assert_eq!(changes(old, new), [("/enum".into(), Narrowing), ("/enum".into(), Widening)]);
    assert_eq!(changes(json!({"enum": ["a"]}), json!({"enum": ["a", "b"]})), one("/enum", Widening));
}

#[test]
fn const_and_a_one_value_enum_are_the_same_set() {
    assert_eq!(changes(json!({"const": "a"}), json!({"enum": ["a"]})), []);
    assert_eq!(
        changes(json!({"const": "a"}), json!({"const": "b"})),
        [("/const".into(), Narrowing), ("/const".into(), Widening)]
    );
    assert_eq!(
        changes(json!({"type": "string"}), json!({"type": "string", "const": "a"})),
        one("/const", Narrowing)
    );
    assert_eq!(changes(json!({"const": 1}), json!({})), one("/const", Widening));
}

#[test]
fn raising_a_lower_bound_or_lowering_an_upper_bound_narrows() {
    let cases = [
        ("minimum", 1, 5, Narrowing),
        ("minimum", 5, 1, Widening),
        ("maximum", 10, 5, Narrowing),
        ("maximum", 5, 10, Widening),
        ("exclusiveMinimum", 0, 1, Narrowing),
        ("exclusiveMaximum", 1, 0, Narrowing),
        ("minLength", 1, 2, Narrowing),
        ("maxLength", 2, 1, Narrowing),
        ("minItems", 3, 2, Widening),
        ("maxItems", 2, 3, Widening),
        ("minProperties", 0, 1, Narrowing),
        ("maxProperties", 9, 1, Narrowing),
    ];
    for (kw, a, b, want) in cases {
        let got = changes(json!({ kw: a }), json!({ kw: b }));
        assert_eq!(got, one(&format!("/{kw}"), want), "{kw}: {a} -> {b}");
    }
}

#[test]
fn adding_a_bound_narrows_and_removing_one_widens_unless_it_is_the_default() {
    assert_eq!(changes(json!({}), json!({"maximum": 3})), one("/maximum", Narrowing));
    assert_eq!(changes(json!({"minimum": 3}), json!({})), one("/minimum", Widening));
    assert_eq!(changes(json!({}), json!({"minLength": 0})), []);
    assert_eq!(changes(json!({"maximum": 1.5}), json!({"maximum": 1.25})), one("/maximum", Narrowing));
    // Exact digits beyond 2^53 are compared exactly.
    let big = changes(json!({"maximum": u64::MAX}), json!({"maximum": u64::MAX - 1}));
    assert_eq!(big, one("/maximum", Narrowing));
}

#[test]
fn type_changes_are_classified_by_the_set_of_types() {
    let t = |a: Value, b: Value| changes(json!({"type": a}), json!({"type": b}));
    assert_eq!(t(json!(["string", "null"]), json!("string")), one("/type", Narrowing));
    assert_eq!(t(json!("string"), json!(["string", "null"])), one("/type", Widening));
    assert_eq!(t(json!("number"), json!("integer")), one("/type", Narrowing));
    assert_eq!(t(json!("integer"), json!("number")), one("/type", Widening));
    assert_eq!(t(json!("string"), json!("integer")), one("/type", Narrowing));
    assert_eq!(changes(json!({}), json!({"type": "string"})), one("/type", Narrowing));
    assert_eq!(changes(json!({"type": "string"}), json!({})), one("/type", Widening));
}

#[test]
fn annotations_changes_are_annotation_only() {
    let old = json!({"type": "string", "description": "a", "title": "T", "default": "x", "examples": ["y"]});
    let new = json!({"type": "string", "description": "b", "deprecated": true, "x-order": 1});
    let d = changes(old, new);
    assert!(d.iter().all(|(_, k)| *k == AnnotationOnly), "{d:?}");
    assert_eq!(d.len(), 6, "{d:?}");
}

#[test]
fn nested_changes_carry_their_pointer() {
    let old = json!({"properties": {"xs": {"type": "array", "items": {"type": "string", "maxLength": 5}}}});
    let new = json!({"properties": {"xs": {"type": "array", "items": {"type": "string", "maxLength": 3}}}});
    assert_eq!(changes(old, new), one("/properties/xs/items/maxLength", Narrowing));
}

#[test]
fn closing_an_object_narrows_and_opening_it_widens() {
    let open = json!({"type": "object"});
    let closed = json!({"type": "object", "additionalProperties": false});
    assert_eq!(changes(open.clone(), closed.clone()), one("/additionalProperties", Narrowing));
    assert_eq!(changes(closed, open), one("/additionalProperties", Widening));
}

#[test]
fn any_of_members_added_widen_and_removed_narrow_wherever_they_sit() {
    let s = |v: Value| json!({"anyOf": v});
    let (a, b, c) = (json!({"type": "string"}), json!({"type": "integer"}), json!({"type": "null"}));
    assert_eq!(changes(s(json!([a, b])), s(json!([a, b, c]))), one("/anyOf/2", Widening));
    assert_eq!(changes(s(json!([a, b, c])), s(json!([a, c]))), one("/anyOf/1", Narrowing));
    assert_eq!(changes(s(json!([a, b])), s(json!([b, a]))), []);
}

#[test]
fn all_of_members_added_narrow() {
    let old = json!({"allOf": [{"type": "object"}]});
    let new = json!({"allOf": [{"type": "object"}, {"required": ["a"]}]});
    assert_eq!(changes(old.clone(), new.clone()), one("/allOf/1", Narrowing));
    assert_eq!(changes(new, old), one("/allOf/1", Widening));
}

#[test]
fn a_widened_one_of_member_is_conservatively_narrowing() {
    let old = json!({"oneOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]});
    let new = json!({"oneOf": [{"type": "string", "maxLength": 5}, {"type": "integer"}]});
    assert_eq!(changes(old, new), one("/oneOf/0/maxLength", Narrowing));
}

#[test]
fn inside_not_the_direction_flips() {
    let old = json!({"not": {"type": "string", "maxLength": 3}});
    let new = json!({"not": {"type": "string", "maxLength": 5}});
    // `not` refuses more strings now: narrowing.
    assert_eq!(changes(old.clone(), new.clone()), one("/not/maxLength", Narrowing));
    assert_eq!(changes(new, old), one("/not/maxLength", Widening));
    assert_eq!(changes(json!({}), json!({"not": {"type": "null"}})), one("/not", Narrowing));
}

#[test]
fn a_change_that_both_narrows_and_widens_stays_narrowing_inside_not() {
    // Found by the property test: `type` string-or-null to object, inside `not`.
    let old = json!({"not": {"type": ["string", "null"]}});
    let new = json!({"not": {"type": "object"}});
    assert_eq!(changes(old, new), one("/not/type", Narrowing));
    assert_eq!(
        changes(json!({"not": {"pattern": "a"}}), json!({"not": {"pattern": "b"}})),
        one("/not/pattern", Narrowing)
    );
    let old = json!({"not": {"type": "string", "pattern": "a"}});
    assert_eq!(changes(old, json!({"not": {"type": "string"}})), one("/not/pattern", Narrowing));
    // `{"not": {}}` accepts nothing: one change at the root.
    assert_eq!(changes(json!({"not": {"pattern": "a"}}), json!({"not": {}})), one("", Narrowing));
}

#[test]
fn a_definition_used_under_not_is_compared_conservatively() {
    let s = |max: u32| {
        json!({"$defs": {"S": {"type": "string", "maxLength": max}, "T": {"maxLength": max}},
               "properties": {"a": {"not": {"$ref": "#/$defs/S"}}, "b": {"$ref": "#/$defs/T"}}})
    };
    assert_eq!(
        changes(s(5), s(3)),
        [("/$defs/S/maxLength".into(), Narrowing), ("/$defs/T/maxLength".into(), Narrowing)]
    );
    assert_eq!(
        changes(s(3), s(5)),
        [("/$defs/S/maxLength".into(), Narrowing), ("/$defs/T/maxLength".into(), Widening)]
    );
}

#[test]
fn a_renamed_definition_with_the_same_content_is_annotation_only() {
    let old = json!({"$defs": {"A": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/A"}}});
    let new = json!({"$defs": {"B": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/B"}}});
    let d = changes(old, new);
    assert!(d.iter().all(|(_, k)| *k == AnnotationOnly), "{d:?}");
    let old = json!({"$defs": {"A": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/A"}}});
    let new = json!({"$defs": {"B": {"type": "integer"}}, "properties": {"p": {"$ref": "#/$defs/B"}}});
    assert!(changes(old, new).contains(&("/properties/p/$ref".into(), Narrowing)));
}

#[test]
fn unknown_keywords_and_patterns_are_conservatively_narrowing() {
    assert_eq!(changes(json!({"pattern": "^a"}), json!({"pattern": "^[ab]"})), one("/pattern", Narrowing));
    assert_eq!(changes(json!({"pattern": "^a"}), json!({})), one("/pattern", Widening));
    assert_eq!(changes(json!({"frobnicate": 1}), json!({})), one("/frobnicate", Narrowing));
    assert_eq!(changes(json!({"if": {"type": "string"}}), json!({})), one("/if/type", Narrowing));
}

#[test]
fn boolean_schemas_compare_as_accept_all_and_accept_nothing() {
    assert_eq!(changes(json!(true), json!(false)), one("", Narrowing));
    assert_eq!(
        changes(json!({"items": false}), json!({"items": {"type": "string"}})),
        one("/items", Widening)
    );
    assert_eq!(changes(json!(true), json!({"type": "string"})), one("/type", Narrowing));
}

#[test]
fn prefix_items_added_narrow_and_removed_widen_when_the_rest_is_open() {
    let old = json!({"prefixItems": [{"type": "string"}]});
    let new = json!({"prefixItems": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(changes(old.clone(), new.clone()), one("/prefixItems/1/type", Narrowing));
    assert_eq!(changes(new, old), one("/prefixItems/1/type", Widening));
}

#[test]
fn multiple_of_narrows_when_the_new_step_is_a_multiple_of_the_old() {
    assert_eq!(changes(json!({"multipleOf": 2}), json!({"multipleOf": 4})), one("/multipleOf", Narrowing));
    assert_eq!(changes(json!({"multipleOf": 4}), json!({"multipleOf": 2})), one("/multipleOf", Widening));
    assert_eq!(changes(json!({"multipleOf": 2}), json!({"multipleOf": 3})), one("/multipleOf", Narrowing));
}

#[test]
fn dependent_required_entries_compare_as_sets() {
    let old = json!({"dependentRequired": {"a": ["b"]}});
    let new = json!({"dependentRequired": {"a": ["b", "c"]}});
    assert_eq!(changes(old.clone(), new.clone()), one("/dependentRequired/a", Narrowing));
    assert_eq!(changes(new, old), one("/dependentRequired/a", Widening));
}

#[test]
fn nesting_past_the_depth_budget_is_one_conservative_change() {
    let mut old = json!({"type": "string"});
    let mut new = json!({"type": "integer"});
    for _ in 0..10 {
        old = json!({"items": old});
        new = json!({"items": new});
    }
    let d = diff_with_depth(&old, &new, 3);
    assert_eq!(d.changes().len(), 1);
    assert_eq!(d.changes()[0].kind, Narrowing);
    assert_eq!(d.changes()[0].pointer, "/items/items/items/items");
    assert_eq!(diff(&old, &new).changes()[0].pointer.matches("items").count(), 10);
}

#[test]
fn messages_name_the_old_and_new_values() {
    let d = diff(&json!({"minimum": 1}), &json!({"minimum": 5}));
    assert_eq!(d.changes()[0].to_string(), "narrowing at `/minimum`: `minimum` raised from 1 to 5");
}
