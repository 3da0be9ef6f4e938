#![allow(clippy::pedantic)]
//! The integration helpers: `ToolSchema::to_json_object` (rmcp's `inputSchema` map),
//! `ToolSchema::excluded` with `decode_arguments`, `SchemaOptions::reject_any`, and the passes as
//! schemars transforms in a user's own `SchemaSettings`.

use pretty_assertions::assert_eq;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use toolschema::{DecodeError, Error, SchemaOptions, decode_arguments, schema_for};

/// Book a table.
#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
struct Booking {
    guests: u8,
    /// Injected from the session.
    user_id: String,
    /// Injected too.
    trace: Option<String>,
}

#[test]
fn to_json_object_is_the_schema_as_a_map() {
    let schema = schema_for::<Booking>().unwrap_or_else(|e| panic!("{e}"));
    let map = schema.to_json_object();
    assert_eq!(Value::Object(map), *schema.as_value());
}

#[test]
fn to_json_object_writes_boolean_schemas_as_their_object_forms() {
    let accept_all =
        SchemaOptions::new().reject_any(false).normalize(json!(true)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(accept_all.to_json_object(), Map::new());
    let refuse_all = SchemaOptions::new().normalize(json!(false)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Value::Object(refuse_all.to_json_object()), json!({"not": {}}));
}

#[test]
fn excluded_names_are_remembered_sorted_and_decode_takes_them_from_the_caller() {
    let schema = SchemaOptions::new()
        .exclude(["user_id", "trace"])
        .schema_for::<Booking>()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(schema.excluded(), ["trace", "user_id"]);
    assert_eq!(schema.as_value()["required"], json!(["guests"]));
    let injected: Map<String, Value> =
        [("user_id".to_owned(), json!("u-1")), ("trace".to_owned(), Value::Null)].into_iter().collect();
    let call: Booking =
        decode_arguments(&schema, &json!({"guests": 2}), injected.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(call, Booking { guests: 2, user_id: "u-1".into(), trace: None });
    let e = decode_arguments::<Booking>(&schema, &json!({"guests": 2, "user_id": "admin"}), injected)
        .unwrap_err();
    assert_eq!(e, DecodeError::ExcludedKeySent { name: "user_id".into() }.into());
}

#[test]
fn a_schema_without_exclusions_decodes_nothing_injected() {
    let schema = schema_for::<Booking>().unwrap_or_else(|e| panic!("{e}"));
    assert!(schema.excluded().is_empty());
    let call: Booking = decode_arguments(&schema, &json!({"guests": 1, "user_id": "u"}), Map::new())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(call.user_id, "u");
}

#[test]
fn reject_any_false_lets_an_untyped_required_property_through_unchanged() {
    let schema =
        json!({"type": "object", "properties": {"x": {"description": "anything"}}, "required": ["x"]});
    let refused = SchemaOptions::new().normalize(schema.clone()).unwrap_err();
    assert!(matches!(refused, Error::Generation(_)), "{refused}");
    let allowed =
        SchemaOptions::new().reject_any(false).normalize(schema.clone()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(*allowed.as_value(), schema);
    // The option is part of the options' identity: the two results differ, so no cache mixes them.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Loose {
        x: serde_json::Value,
    }
    assert!(SchemaOptions::new().schema_for::<Loose>().is_err());
    assert!(SchemaOptions::new().reject_any(false).schema_for::<Loose>().is_ok());
    assert!(SchemaOptions::new().schema_for::<Loose>().is_err());
}

#[test]
fn transforms_in_schema_settings_give_what_the_pipeline_gives_for_those_passes() {
    use schemars::generate::SchemaSettings;
    use toolschema::passes::{DropTitles, MergeDocs, PruneDefs, SortKeys, SortRequired};
    let settings = SchemaSettings::draft2020_12()
        .with_transform(MergeDocs)
        .with_transform(DropTitles)
        .with_transform(PruneDefs)
        .with_transform(SortRequired)
        .with_transform(SortKeys);
    let mine = settings.into_generator().into_root_schema_for::<Booking>();
    let ours = schema_for::<Booking>().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(mine.to_value(), *ours.as_value());
}
