//! Unit tests of decode through the plan.

use super::*;
use crate::dialect::{self, AdaptContext, SchemaDialect};
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;

fn plan(d: &dyn SchemaDialect, schema: Value) -> RestorePlan {
    dialect::adapt(d, schema, &AdaptContext::default()).unwrap().plan
}

/// The on-the-fly result alone: `None` where decode falls back to restore + serde.
fn fast<T: DeserializeOwned>(plan: &RestorePlan, args: &Value) -> Option<T> {
    let ctx = Ctx { plan, failed: Cell::new(false) };
    let out = T::deserialize(De { ctx: &ctx, value: args, node: plan.root?, depth: 0 });
    out.ok().filter(|_| !ctx.failed.get())
}

/// What decode must give: restore, then serde.
fn slow<T: DeserializeOwned>(plan: &RestorePlan, args: &Value) -> Result<T, ArgumentsError> {
    T::deserialize(plan.restore(args.clone())?).map_err(serde_error)
}

#[derive(Debug, Deserialize, PartialEq)]
struct Call {
    n: u8,
    note: Option<String>,
    tags: Option<BTreeMap<String, i64>>,
    by_id: Option<BTreeMap<u32, f64>>,
}

fn call_schema() -> Value {
    json!({"type": "object", "required": ["n"], "properties": {
        "n": {"type": "integer", "minimum": 0, "maximum": 255},
        "note": {"type": "string"},
        "tags": {"type": "object", "additionalProperties": {"type": "integer"}},
        "by_id": {"type": "object", "additionalProperties": {"type": "number"}, "propertyNames": {"pattern": "^[0-9]+$"}}
    }})
}

#[test]
fn nulls_entries_and_integral_floats_are_restored_on_the_fly() {
    let p = plan(&dialect::OPENAI_STRICT, call_schema());
    let args = json!({"n": 3.0, "note": null, "tags": [{"key": "b", "value": 2.0}, {"key": "a", "value": 1}],
        "by_id": [{"key": "7", "value": 0.5}]});
    let want = Call {
        n: 3,
        note: None,
        tags: Some([("a".to_owned(), 1), ("b".to_owned(), 2)].into()),
        by_id: Some([(7, 0.5)].into()),
    };
    assert_eq!(fast::<Call>(&p, &args), Some(want));
    assert_eq!(p.decode::<Call>(args.clone()).unwrap(), slow::<Call>(&p, &args).unwrap());
}

#[test]
fn a_fault_gives_restores_error_with_its_pointer() {
    let p = plan(&dialect::OPENAI_STRICT, call_schema());
    let args = json!({"n": 1, "note": null, "tags": [{"key": "a", "value": 1}, {"key": "a", "value": 2}], "by_id": null});
    assert_eq!(fast::<Call>(&p, &args), None);
    let err = p.decode::<Call>(args.clone()).unwrap_err();
    assert_eq!(err, slow::<Call>(&p, &args).unwrap_err());
    assert_eq!(err.faults()[0].pointer, "/tags/1");
    // serde's refusal, worded as serde words it on the restored value.
    let args = json!({"n": 256, "note": null, "tags": null, "by_id": null});
    let anthropic = plan(&dialect::ANTHROPIC_STRICT, call_schema());
    assert_eq!(
        anthropic.decode::<Call>(args.clone()).unwrap_err(),
        slow::<Call>(&anthropic, &args).unwrap_err()
    );
    assert_eq!(p.decode::<Call>(args.clone()).unwrap_err(), slow::<Call>(&p, &args).unwrap_err());
}

#[test]
fn a_moved_check_runs_where_serde_reads_and_where_it_skips() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct OnlyN {
        n: i64,
    }
    let schema = json!({"type": "object", "properties": {
        "n": {"type": "integer", "minimum": 1}, "skipped": {"type": "integer", "minimum": 1}}, "required": ["n", "skipped"]});
    let p = plan(&dialect::ANTHROPIC_STRICT, schema);
    assert_eq!(fast::<OnlyN>(&p, &json!({"n": 2, "skipped": 5})), Some(OnlyN { n: 2 }));
    let args = json!({"n": 2, "skipped": 0});
    assert_eq!(fast::<OnlyN>(&p, &args), None);
    let err = p.decode::<OnlyN>(args).unwrap_err();
    assert_eq!(err.faults()[0].pointer, "/skipped");
}

/// A type that turns any error below it into a default (as `serde_with`'s `DefaultOnError`).
#[derive(Debug, PartialEq)]
struct Forgiving(i64);

impl<'de> Deserialize<'de> for Forgiving {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Forgiving(i64::deserialize(d).unwrap_or(-7)))
    }
}

#[test]
fn a_type_that_swallows_an_error_cannot_hide_a_fault() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Holder {
        n: Forgiving,
    }
    let schema =
        json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}, "required": ["n"]});
    let p = plan(&dialect::ANTHROPIC_STRICT, schema);
    let args = json!({"n": 9});
    assert_eq!(p.decode::<Holder>(args.clone()), slow::<Holder>(&p, &args));
    assert!(p.decode::<Holder>(args).is_err());
    assert_eq!(p.decode::<Holder>(json!({"n": "x"})).unwrap(), Holder { n: Forgiving(-7) });
}

#[test]
fn a_wrapped_root_json_text_and_untagged_unions_read_as_restore_gives_them() {
    #[derive(Debug, Deserialize, PartialEq)]
    struct Any {
        any: Value,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(untagged)]
    enum Num {
        Int(u64),
        Text(String),
    }
    let p = plan(&dialect::OPENAI_STRICT, json!({"type": "array", "items": {"type": "integer"}}));
    assert_eq!(fast::<Vec<u8>>(&p, &json!({"value": [1.0, 2]})), Some(vec![1, 2]));
    // JSON text: the subtree is restored, the rest still read on the fly.
    let p = plan(
        &dialect::OPENAI_STRICT,
        json!({"type": "object", "properties": {"any": {}}, "required": ["any"]}),
    );
    assert_eq!(
        fast::<Any>(&p, &json!({"any": "[1, {\"a\": null}]"})),
        Some(Any { any: json!([1, {"a": null}]) })
    );
    // serde buffers an untagged enum (`deserialize_any`): the integer fix is in what it sees.
    let p = plan(
        &dialect::ANTHROPIC_STRICT,
        json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]}),
    );
    for args in [json!({"value": 4.0}), json!({"value": "x"}), json!({"value": -1})] {
        assert_eq!(p.decode::<Num>(args.clone()), slow::<Num>(&p, &args), "{args}");
    }
}

#[test]
fn a_plan_that_refers_to_itself_stops_at_the_depth_budget() {
    let p = RestorePlan::from_parts(vec![Node { target: Some(0), ..Node::default() }], Some(0), Vec::new());
    let err = p.decode::<Value>(json!(1)).unwrap_err();
    assert!(err.to_string().contains("deeper than"), "{err}");
}

#[test]
fn map_keys_read_as_serde_json_reads_them() {
    let p =
        plan(&dialect::OPENAI_STRICT, json!({"type": "object", "additionalProperties": {"type": "integer"}}));
    for args in [
        json!({"value": [{"key": "12", "value": 1}]}),
        json!({"value": [{"key": "1 ", "value": 1}]}),
        json!({"value": [{"key": "x", "value": 1}]}),
        json!({"value": [{"key": "-3", "value": 1.0}]}),
    ] {
        assert_eq!(p.decode::<BTreeMap<i32, u8>>(args.clone()), slow(&p, &args), "{args}");
        assert_eq!(p.decode::<BTreeMap<bool, u8>>(args.clone()), slow(&p, &args), "{args}");
    }
}
