use super::*;
use crate::dialect::{AdaptContext, INLINE_REFS, SchemaDialect};
use crate::error::CapabilityError;
use proptest::prelude::*;
use serde_json::json;

// The two callers' recursion policies on one schema: the dialect refuses it at the site where
// the output would close the cycle; the foreign function expands it once and types the point.
#[test]
fn one_recursion_is_refused_by_the_dialects_and_noted_by_the_foreign_function() {
    let schema = json!({
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node"}}
    });
    let errors = INLINE_REFS.adapt(schema.clone(), &AdaptContext::default()).unwrap_err();
    assert!(
        matches!(&errors[..], [CapabilityError::Recursive { type_name, pointer, .. }]
            if type_name == "Node" && pointer == "/properties/head/properties/next"),
        "{errors:?}"
    );
    let out = crate::foreign::self_contained_input_schema(&schema, "t").unwrap();
    assert_eq!(
        out["properties"]["head"]["properties"]["next"],
        json!({"type": "object", "description": "Node: the same shape as the Node that contains it."})
    );
}

// The dialects' measure is exact where no site overrides a keyword of its target, floats
// included (RFC 8785 writes `1e6` as `1000000`), so a budget of the exact size passes.
#[test]
fn the_upper_bound_is_the_canonical_size_where_no_site_overrides() {
    let schema = json!({
        "$defs": {"N": {"type": "number", "minimum": 0.5, "maximum": 1e6, "enum": [1e21, 2.5, "a\u{1}"]}},
        "properties": {"a": {"$ref": "#/$defs/N"}, "b": {"items": {"$ref": "#/$defs/N"}}}
    });
    let out = INLINE_REFS.adapt(schema.clone(), &AdaptContext::default()).unwrap().schema;
    let exact = crate::canonical::to_vec(&out).len();
    let within = AdaptContext::default().with_max_bytes(Some(exact));
    assert!(INLINE_REFS.adapt(schema.clone(), &within).is_ok());
    let below = AdaptContext::default().with_max_bytes(Some(exact - 1));
    assert!(INLINE_REFS.adapt(schema, &below).is_err());
}

// A chain of references longer than the depth budget is refused where the budget runs out,
// before its last reference is looked up: one that points at nothing there is too deep too.
#[test]
fn a_chain_past_the_budget_is_too_deep_even_where_it_ends_in_nothing() {
    let shallow = crate::dialect::InlineRefs { max_depth: 3 };
    let schema = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/C"},
                                  "C": {"$ref": "#/$defs/Missing"}},
                        "$ref": "#/$defs/A"});
    let errors = shallow.adapt(schema, &AdaptContext::default()).unwrap_err();
    assert!(matches!(&errors[..], [CapabilityError::TooDeep { depth: 4, max_depth: 3, .. }]), "{errors:?}");
    // Within the budget, the same end is the missing reference.
    let schema = json!({"$defs": {"A": {"$ref": "#/$defs/Missing"}}, "$ref": "#/$defs/A"});
    let errors = shallow.adapt(schema, &AdaptContext::default()).unwrap_err();
    assert!(errors[0].to_string().contains("points at nothing"), "{errors:?}");
}

// The dialects keep the input's key order where maps keep insertion order (`preserve_order`):
// taking `$ref` out of a site leaves its other keywords where they were.
#[test]
fn a_site_keeps_its_keywords_in_their_order() {
    let schema: Value = serde_json::from_str(
        r##"{"$defs": {"P": {"type": "object"}},
            "properties": {"p": {"$ref": "#/$defs/P", "description": "d", "nullable": true}}}"##,
    )
    .unwrap();
    let out = INLINE_REFS.adapt(schema, &AdaptContext::default()).unwrap().schema;
    let keys: Vec<&str> = out["properties"]["p"].as_object().unwrap().keys().map(String::as_str).collect();
    let position = |k| keys.iter().position(|key| *key == k).unwrap();
    assert!(position("description") < position("nullable"), "{keys:?}");
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
        prop_oneof![Just(0.5), Just(1e6), Just(1e21), Just(1e-7), Just(-0.0)].prop_map(|f| json!(f)),
        "[a-z\u{0}-\u{1f}\"\\\\\u{e000}\u{1f600}]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-c\"\u{1}]{0,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    // Law: `canonical_len` is the length of what the canonical writer writes.
    #[test]
    fn canonical_len_is_the_length_of_the_canonical_bytes(v in arb_json()) {
        prop_assert_eq!(canonical_len(&v), crate::canonical::to_vec(&v).len() as u64);
    }
}
