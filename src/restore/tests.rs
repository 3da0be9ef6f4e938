//! Unit tests of the restore plan: decoding, checks and faults.

use super::*;
use serde_json::json;

fn plan(nodes: Vec<Node>) -> RestorePlan {
    RestorePlan::from_parts(nodes, Some(0), Vec::new())
}

#[test]
fn identity_returns_the_arguments_unchanged() {
    let args = json!({"a": [1.0, "x"]});
    assert_eq!(RestorePlan::identity().restore(args.clone()).unwrap(), args);
}

#[test]
fn null_for_absent_drops_the_key_and_keeps_other_values() {
    let p = plan(vec![Node {
        props: vec![Prop {
            name: "n".into(),
            node: None,
            null_is_absent: true,
            null_dropped: false,
            default: None,
            null_refused: false,
        }],
        ..Node::default()
    }]);
    assert_eq!(p.restore(json!({"n": null, "m": null})).unwrap(), json!({"m": null}));
    assert_eq!(p.restore(json!({"n": 3})).unwrap(), json!({"n": 3}));
}

#[test]
fn entries_rebuild_a_map_and_a_repeated_key_is_a_fault() {
    let p = plan(vec![
        Node { decode: Decode::Entries(Vec::new()), rest: Some(1), ..Node::default() },
        Node { integer: true, ..Node::default() },
    ]);
    let got = p.restore(json!([{"key": "a", "value": 1.0}, {"key": "b", "value": 2}])).unwrap();
    let checked = plan(vec![
        Node { decode: Decode::Entries(Vec::new()), rest: Some(1), ..Node::default() },
        Node { checks: vec![Check::Minimum(0.into())], ..Node::default() },
    ]);
    // A fault under a value names the entry the model wrote.
    let err = checked.restore(json!([{"key": "a", "value": 1}, {"key": "b", "value": -1}])).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/1/value");
    assert_eq!(got, json!({"a": 1, "b": 2}));
    assert!(got["a"].is_i64());
    let err = p.restore(json!([{"key": "a", "value": 1}, {"key": "a", "value": 2}])).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/1");
}

#[test]
fn json_text_parses_and_refuses_text_of_another_kind() {
    let mut types = TypeSet::default();
    types = types.union(TypeSet::of_type(&json!("object")));
    let p = plan(vec![Node { decode: Decode::JsonText(types), ..Node::default() }]);
    assert_eq!(p.restore(json!("{\"a\": 1}")).unwrap(), json!({"a": 1}));
    let err = p.restore(json!("[1]")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the arguments do not fit the tool's schema:\n- ``: must be JSON text of an object, got an array"
    );
    assert!(p.restore(json!("{")).is_err());
}

#[test]
fn a_union_restores_through_the_branch_whose_shape_fits() {
    let shape = Shape { types: Some(TypeSet::of_type(&json!("array"))), ..Shape::default() };
    let p = plan(vec![
        Node { union: vec![(shape, 1)], ..Node::default() },
        Node { decode: Decode::Entries(Vec::new()), ..Node::default() },
    ]);
    assert_eq!(p.restore(json!([{"key": "k", "value": 1}])).unwrap(), json!({"k": 1}));
    assert_eq!(p.restore(json!(null)).unwrap(), json!(null));
}

#[test]
fn every_failed_check_is_reported_with_its_pointer() {
    let p = plan(vec![
        Node {
            props: vec![
                Prop {
                    name: "a".into(),
                    node: Some(1),
                    null_is_absent: false,
                    null_dropped: false,
                    default: None,
                    null_refused: false,
                },
                Prop {
                    name: "b".into(),
                    node: Some(1),
                    null_is_absent: false,
                    null_dropped: false,
                    default: None,
                    null_refused: false,
                },
            ],
            ..Node::default()
        },
        Node { checks: vec![Check::Minimum(0.into())], ..Node::default() },
    ]);
    let err = p.restore(json!({"a": -1, "b": -2})).unwrap_err();
    let pointers: Vec<_> = err.faults().iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(pointers, ["/a", "/b"]);
}

#[test]
fn a_plan_that_refers_to_itself_stops_at_the_depth_budget() {
    let p = plan(vec![Node { target: Some(0), ..Node::default() }]);
    let err = p.restore(json!(1)).unwrap_err();
    assert!(err.to_string().contains("deeper than"), "{err}");
}

#[test]
fn tuples_and_wrapped_roots_come_back() {
    let p = plan(vec![Node { decode: Decode::Tuple(2), ..Node::default() }]);
    assert_eq!(p.restore(json!({"0": 1, "1": "x"})).unwrap(), json!([1, "x"]));
    assert!(p.restore(json!({"0": 1})).is_err());
    let p = plan(vec![Node { decode: Decode::Unwrap("value".into()), ..Node::default() }]);
    assert_eq!(p.restore(json!({"value": [1]})).unwrap(), json!([1]));
    let p = plan(vec![
        Node { decode: Decode::Unwrap("value".into()), target: Some(1), ..Node::default() },
        Node { checks: vec![Check::MinItems(2)], ..Node::default() },
    ]);
    assert_eq!(p.restore(json!({"value": [1]})).unwrap_err().faults()[0].pointer, "/value");
}

#[test]
fn shared_values_are_listed_only_where_they_are_few() {
    let of = |t: &str| Shape { types: Some(TypeSet::of_type(&json!(t))), ..Shape::default() };
    let null_or_object = Shape { any: Some(vec![of("null"), of("object")]), ..Shape::default() };
    // `Option<Limit>` beside `Limit`'s unit variant: null alone.
    assert_eq!(null_or_object.shared_values(&of("null")), Some(vec![Value::Null]));
    assert_eq!(of("null").shared_values(&null_or_object), Some(vec![Value::Null]));
    // Listed values: those the other may have.
    let listed = Shape { values: Some(vec![json!("a"), json!(1)]), ..Shape::default() };
    assert_eq!(listed.shared_values(&of("string")), Some(vec![json!("a")]));
    // Two objects, or numbers, may share without end.
    assert_eq!(of("object").shared_values(&null_or_object), None);
    assert_eq!(of("integer").shared_values(&of("number")), None);
    assert_eq!(Shape::default().shared_values(&of("null")), None);
}

#[test]
fn an_integral_float_takes_the_branch_whose_items_take_it() {
    // `Texts(Vec<String>) | Tokens(Vec<u32>)`: both fit `[1.0]` at the top level; the items
    // tell them apart.
    let array_of = |t: &str| Shape {
        types: Some(TypeSet::of_type(&json!("array"))),
        items: Some(Box::new(Shape { types: Some(TypeSet::of_type(&json!(t))), ..Shape::default() })),
        ..Shape::default()
    };
    let p = plan(vec![
        Node { union: vec![(array_of("string"), 1), (array_of("integer"), 2)], ..Node::default() },
        Node::default(),
        Node { items: Some(3), ..Node::default() },
        Node { integer: true, ..Node::default() },
    ]);
    assert_eq!(p.restore(json!([1.0, 2])).unwrap(), json!([1, 2]));
    assert_eq!(p.restore(json!(["a"])).unwrap(), json!(["a"]));
}

// The forward map sends a value through a union's branch only where restore, handed the
// encoding, takes that branch back: here the JSON text of an object also fits the string branch
// before it (a `maxLength` restore checks), which restore takes for any string, so sending the
// object as text would come back as the text. It goes as it is instead, which restore passes.
#[test]
fn the_forward_map_sends_no_value_through_a_branch_restore_would_not_take_back() {
    let string = Shape { types: Some(TypeSet::of_type(&json!("string"))), ..Shape::default() };
    let p = plan(vec![
        Node { union: vec![(string.clone(), 1), (string, 2)], ..Node::default() },
        Node { checks: vec![Check::MaxLength(100)], ..Node::default() },
        Node { decode: Decode::JsonText(TypeSet::OBJECT), ..Node::default() },
    ]);
    let value = json!({"a": 1});
    let sent = p.encode(value.clone());
    assert_eq!(p.restore(sent).unwrap(), value);
    // A string is the string branch's both ways.
    assert_eq!(p.encode(json!("x")), json!("x"));
    assert_eq!(p.restore(json!("x")).unwrap(), json!("x"));
}
