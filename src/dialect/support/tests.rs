use super::*;
use serde_json::json;

#[test]
fn null_admission_is_definite() {
    let root = json!({"$defs": {"N": {"type": "null"}, "S": {"type": "string"}}});
    assert!(admits_null(&json!({"type": ["string", "null"]}), &root));
    assert!(admits_null(&json!({"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/N"}]}), &root));
    assert!(!admits_null(&json!({"type": "object", "anyOf": [{"type": "null"}]}), &root));
    assert!(!admits_null(&json!({"not": {"type": "string"}}), &root));
    assert!(!admits_null(&json!({"$ref": "#/$defs/Missing"}), &root));
    assert!(admits_null(&json!({"oneOf": [{"type": "null"}, {"type": "string"}]}), &root));
}

#[test]
fn schemars_enum_encodings_are_disjoint_and_overlapping_branches_are_not() {
    let root = json!({});
    let tagged = |t: &str| json!({"type": "object", "properties": {"k": {"const": t}}, "required": ["k"]});
    assert!(disjoint(&tagged("a"), &tagged("b"), &root));
    assert!(!disjoint(&tagged("a"), &tagged("a"), &root));
    let ext = |k: &str| json!({"type": "object", "properties": {k: {}}, "required": [k], "additionalProperties": false});
    assert!(disjoint(&ext("A"), &ext("B"), &root));
    assert!(disjoint(&json!({"type": "string"}), &ext("B"), &root));
    assert!(!disjoint(&json!({"type": "integer"}), &json!({"type": "number"}), &root));
    let open = json!({"type": "object", "properties": {"A": {}}, "required": ["A"]});
    assert!(!disjoint(&open, &open.clone(), &root));
}

#[test]
fn ref_site_annotations_win_and_assertions_combine() {
    let site = json!({"description": "site"}).as_object().cloned().unwrap();
    let merged = merge_ref_site(site, json!({"type": "string", "description": "def"})).unwrap();
    assert_eq!(merged, json!({"type": "string", "description": "site"}));

    let site = json!({"properties": {"k": {"const": "D"}}, "required": ["k"], "type": "object"});
    let target = json!({"properties": {"a": {}}, "required": ["a"], "type": "object"});
    let merged = merge_ref_site(site.as_object().cloned().unwrap(), target).unwrap();
    assert_eq!(merged["required"], json!(["a", "k"]));
    assert_eq!(merged["properties"].as_object().unwrap().len(), 2);

    let site = json!({"description": "s", "maximum": 3}).as_object().cloned().unwrap();
    let combined = combine_ref_site(site, json!({"maximum": 5, "description": "d", "type": "integer"}));
    assert_eq!(
        combined,
        json!({"description": "s", "allOf": [{"maximum": 5, "type": "integer"}, {"maximum": 3}]})
    );
}

#[test]
fn unsigned_formats_become_bounds_without_loosening_existing_ones() {
    let mut m = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 100});
    format_as_bounds(m.as_object_mut().unwrap());
    assert_eq!(m["maximum"], 100);
    let mut m = json!({"type": "integer", "format": "uint32", "minimum": 0});
    format_as_bounds(m.as_object_mut().unwrap());
    assert_eq!(m["maximum"], u32::MAX);
}
