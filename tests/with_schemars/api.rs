#![allow(clippy::pedantic)]
//! The public API's promises: exact output for primitives, the cache, what the hash covers,
//! `from_schemars`, doc warnings, and declaration order.

use crate::zoo;

use pretty_assertions::assert_eq;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use toolschema::{Error, JSON_SCHEMA, SchemaDialect, SchemaOptions, schema_for, schema_hash};

#[allow(dead_code)]
mod shapes {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    pub struct Named {
        pub name: String,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Renamed {
        pub title: String,
    }
    /// Same shape as `Named`, another Rust name.
    #[derive(Deserialize, JsonSchema)]
    pub struct NamedAgain {
        pub name: String,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Narrow {
        pub n: u8,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Wide {
        pub n: u16,
    }
    #[derive(Deserialize, JsonSchema)]
    pub enum Two {
        A,
        B,
    }
    #[derive(Deserialize, JsonSchema)]
    pub enum Three {
        A,
        B,
        C,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Forward {
        pub zeta: u8,
        pub alpha: u8,
        pub inner: Inner,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Backward {
        pub alpha: u8,
        pub zeta: u8,
        pub inner: Inner,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Inner {
        pub y: bool,
        pub x: bool,
    }
    /// A lookup.
    #[derive(Deserialize, JsonSchema)]
    pub struct Lookup {
        pub word: String,
        pub ctx: Context,
    }
    /// Injected by the caller.
    #[derive(Deserialize, JsonSchema)]
    pub struct Context {
        pub tenant: String,
    }
    #[derive(Deserialize, JsonSchema)]
    pub struct Untyped {
        pub ctx: Value,
    }
}
use shapes::*;

/// A user dialect whose `adapt` is the identity.
struct Identity;
impl SchemaDialect for Identity {
    fn name(&self) -> &str {
        "identity"
    }
}
static IDENTITY: Identity = Identity;

/// Another zero-sized user dialect: it may share its address with `IDENTITY`.
struct Echo;
impl SchemaDialect for Echo {
    fn name(&self) -> &str {
        "echo"
    }
}
static ECHO: Echo = Echo;

#[test]
fn a_string_is_exactly_type_string() {
    let s = schema_for::<String>().unwrap();
    assert_eq!(s.as_value(), &json!({"type": "string"}));
    assert_eq!(s.canonical_json(), r#"{"type":"string"}"#);
}

#[test]
fn primitives_get_no_description_or_title() {
    assert_eq!(schema_for::<bool>().unwrap().as_value(), &json!({"type": "boolean"}));
    assert_eq!(
        schema_for::<u8>().unwrap().as_value(),
        &json!({"format": "uint8", "maximum": 255, "minimum": 0, "type": "integer"})
    );
    assert_eq!(
        schema_for::<Vec<String>>().unwrap().as_value(),
        &json!({"items": {"type": "string"}, "type": "array"})
    );
}

#[test]
fn a_second_call_returns_the_cached_value_itself() {
    let a = schema_for::<zoo::Itinerary>().unwrap();
    let b = schema_for::<zoo::Itinerary>().unwrap();
    assert!(std::ptr::eq(a.as_value(), b.as_value()));
    // Equal options built separately hit the same entry.
    let c = SchemaOptions::new().max_depth(128).schema_for::<zoo::Itinerary>().unwrap();
    assert!(std::ptr::eq(a.as_value(), c.as_value()));
}

#[test]
fn different_options_get_different_cache_entries() {
    let plain = SchemaOptions::new().schema_for::<Lookup>().unwrap();
    let excluded = SchemaOptions::new().exclude(["ctx"]).schema_for::<Lookup>().unwrap();
    assert!(!std::ptr::eq(plain.as_value(), excluded.as_value()));
    assert_ne!(plain.hash(), excluded.hash());
    // Asking again in the other order still returns what each options value produced.
    assert_eq!(SchemaOptions::new().schema_for::<Lookup>().unwrap().hash(), plain.hash());
}

#[test]
fn a_cached_failure_stays_a_failure_and_does_not_leak_into_other_options() {
    let first = schema_for::<Untyped>().unwrap_err();
    let second = schema_for::<Untyped>().unwrap_err();
    assert_eq!(first, second);
    // Excluding the untyped field is a different entry, and it succeeds.
    let excluded = SchemaOptions::new().exclude(["ctx"]).schema_for::<Untyped>().unwrap();
    assert_eq!(excluded.as_value(), &json!({"properties": {}, "type": "object"}));
}

#[test]
fn exclude_removes_the_property_and_the_definition_only_it_used() {
    let s = SchemaOptions::new().exclude(["ctx"]).schema_for::<Lookup>().unwrap();
    assert_eq!(
        s.as_value(),
        &json!({
            "description": "A lookup.",
            "properties": {"word": {"type": "string"}},
            "required": ["word"],
            "type": "object"
        })
    );
}

#[test]
fn the_hash_is_the_documented_envelope_over_the_canonical_schema() {
    let s = schema_for::<zoo::Itinerary>().unwrap();
    assert_eq!(s.canonical_json(), toolschema::canonical::to_string(s.as_value()));
    assert_eq!(s.hash(), schema_hash(&json!({"dialect": "json-schema", "schema": s.as_value()})));
    assert_eq!(s.dialect_name(), "json-schema");
    assert_eq!(s.type_name(), Some("Itinerary"));
    assert_eq!(s.clone().into_value(), *s.as_value());
}

#[test]
fn a_renamed_field_changes_the_hash() {
    assert_ne!(schema_for::<Named>().unwrap().hash(), schema_for::<Renamed>().unwrap().hash());
}

#[test]
fn a_widened_bound_changes_the_hash() {
    assert_ne!(schema_for::<Narrow>().unwrap().hash(), schema_for::<Wide>().unwrap().hash());
}

#[test]
fn a_new_union_member_changes_the_hash() {
    assert_ne!(schema_for::<Two>().unwrap().hash(), schema_for::<Three>().unwrap().hash());
}

#[test]
fn the_rust_name_of_a_type_does_not_enter_the_hash() {
    let a = schema_for::<Named>().unwrap();
    let b = schema_for::<NamedAgain>().unwrap();
    // Only the doc comment differs; without it the two are the same contract.
    let strip = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().map(|m| m.remove("description"));
        v
    };
    assert_eq!(strip(a.as_value()), strip(b.as_value()));
    assert_eq!(
        SchemaOptions::new().normalize(strip(a.as_value())).unwrap().hash(),
        SchemaOptions::new().normalize(strip(b.as_value())).unwrap().hash()
    );
}

#[test]
fn another_dialect_changes_the_hash_even_when_it_changes_nothing() {
    let default = schema_for::<zoo::Waypoint>().unwrap();
    let identity = SchemaOptions::new().dialect(&IDENTITY).schema_for::<zoo::Waypoint>().unwrap();
    assert_eq!(default.as_value(), identity.as_value());
    assert_eq!(default.canonical_json(), identity.canonical_json());
    assert_ne!(default.hash(), identity.hash());
    assert_eq!(identity.dialect_name(), "identity");
    assert_eq!(identity.hash(), schema_hash(&json!({"dialect": "identity", "schema": identity.as_value()})));
}

#[test]
fn zero_sized_dialects_are_told_apart_by_the_cache() {
    let identity = SchemaOptions::new().dialect(&IDENTITY).schema_for::<zoo::Tree>().unwrap();
    let echo = SchemaOptions::new().dialect(&ECHO).schema_for::<zoo::Tree>().unwrap();
    assert_eq!(identity.dialect_name(), "identity");
    assert_eq!(echo.dialect_name(), "echo");
    assert_ne!(identity.hash(), echo.hash());
    let default = SchemaOptions::new().dialect(&JSON_SCHEMA).schema_for::<zoo::Tree>().unwrap();
    assert_eq!(default.dialect_name(), "json-schema");
}

#[test]
fn key_order_of_a_raw_schema_never_changes_the_hash() {
    let a: Value = serde_json::from_str(r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["b","a"]}"#).unwrap();
    let b: Value = serde_json::from_str(r#"{"required":["a","b"],"properties":{"a":{"type":"integer"},"b":{"type":"string"}},"type":"object"}"#).unwrap();
    let (a, b) = (SchemaOptions::new().normalize(a).unwrap(), SchemaOptions::new().normalize(b).unwrap());
    assert_eq!(a.hash(), b.hash());
    assert_eq!(serde_json::to_string(a.as_value()).unwrap(), serde_json::to_string(b.as_value()).unwrap());
}

#[test]
fn from_schemars_runs_the_pipeline_on_a_schema_made_with_custom_settings() {
    let mut generator = schemars::SchemaGenerator::new(schemars::generate::SchemaSettings::draft07());
    let schema = generator.root_schema_for::<zoo::Itinerary>();
    assert!(schema.as_value().get("definitions").is_some(), "draft-07 settings write `definitions`");
    let s = SchemaOptions::new().from_schemars(schema).unwrap();
    assert_eq!(s.type_name(), Some("Itinerary"));
    let v = s.as_value();
    assert_eq!(v.get("$schema"), None);
    assert_eq!(
        v["$defs"]["Waypoint"]["properties"]["city"]["description"],
        json!("Where the traveller stops.")
    );
    // Written as draft 2020-12, as every schema the pipeline writes.
    assert_eq!(v.get("definitions"), None);
    assert_eq!(v["properties"]["stops"]["items"], json!({"$ref": "#/$defs/Waypoint"}));
    assert_eq!(v["properties"]["traveller"]["description"], json!("Who is travelling."));
    assert!(!s.canonical_json().contains("\"title\""));
}

#[test]
fn from_schemars_names_fields_after_the_root_title() {
    let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
    let schema = schemars::SchemaGenerator::new(settings).into_root_schema_for::<Untyped>();
    let err = SchemaOptions::new().from_schemars(schema).unwrap_err();
    let Error::Generation(e) = err else { panic!("want a generation error, got {err}") };
    assert_eq!((e.pointer(), e.field()), (Some("/properties/ctx"), Some("Untyped.ctx")));
}

#[test]
fn doc_warnings_list_what_did_not_land() {
    let s = schema_for::<zoo::BadDocs>().unwrap();
    let warnings: Vec<String> = s.doc_warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "doc comment at `` (type `BadDocs`): cannot read `this line has no colon` as `name: text`; it was ignored",
            "doc comment at `` (type `BadDocs`): entry `tabel` names no property; fix or remove it",
        ]
    );
    assert!(matches!(
        &s.doc_warnings()[1].kind,
        toolschema::DocWarningKind::UnknownEntry { name } if name == "tabel"
    ));
    assert_eq!(schema_for::<zoo::GoogleDocs>().unwrap().doc_warnings(), []);
}

#[test]
fn sorted_property_order_ignores_declaration_order() {
    let f = schema_for::<Forward>().unwrap();
    let b = schema_for::<Backward>().unwrap();
    assert_eq!(f.hash(), b.hash());
    assert_eq!(f.canonical_json(), b.canonical_json());
    let keys: Vec<&String> = f.as_value()["properties"].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["alpha", "inner", "zeta"]);
}

#[cfg(feature = "preserve_order")]
mod declaration_order {
    use super::*;
    use pretty_assertions::assert_eq;
    use toolschema::PropertyOrder;

    fn keys(v: &Value) -> Vec<String> {
        v["properties"].as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn declaration_order_keeps_field_order_in_the_value_and_the_hash() {
        let options = SchemaOptions::new().property_order(PropertyOrder::Declaration);
        let f = options.schema_for::<Forward>().unwrap();
        let b = options.schema_for::<Backward>().unwrap();
        assert_eq!(keys(f.as_value()), ["zeta", "alpha", "inner"]);
        assert_eq!(keys(b.as_value()), ["alpha", "zeta", "inner"]);
        assert_eq!(keys(&f.as_value()["$defs"]["Inner"]), ["y", "x"]);
        // RFC 8785 sorts keys, so the canonical bytes agree; the hash covers the order and does not.
        assert_eq!(f.canonical_json(), b.canonical_json());
        assert_ne!(f.hash(), b.hash());
        // And neither equals the sorted-order hash of the same type.
        assert_ne!(f.hash(), schema_for::<Forward>().unwrap().hash());
    }

    #[test]
    fn declaration_sorted_hash_shows_the_declared_order_and_hashes_as_sorted() {
        let options = SchemaOptions::new().property_order(PropertyOrder::DeclarationSortedHash);
        let f = options.schema_for::<Forward>().unwrap();
        assert_eq!(keys(f.as_value()), ["zeta", "alpha", "inner"]);
        assert_eq!(keys(&f.as_value()["$defs"]["Inner"]), ["y", "x"]);
        let sorted = schema_for::<Forward>().unwrap();
        assert_eq!(f.canonical_json(), sorted.canonical_json());
        assert_eq!(f.hash(), sorted.hash());
    }

    #[test]
    fn declaration_order_hash_is_the_documented_envelope() {
        let s =
            SchemaOptions::new().property_order(PropertyOrder::Declaration).schema_for::<Forward>().unwrap();
        let want = schema_hash(&json!({
            "dialect": "json-schema",
            "propertyOrder": {"": ["zeta", "alpha", "inner"], "/$defs/Inner": ["y", "x"]},
            "schema": s.as_value(),
        }));
        assert_eq!(s.hash(), want);
    }
}

/// Thirteen optional fields (each a union with null): within Anthropic's 24 optional and 16
/// union parameters alone, past both in pairs.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Filters {
    a: Option<String>,
    b: Option<String>,
    c: Option<String>,
    d: Option<String>,
    e: Option<String>,
    f: Option<String>,
    g: Option<String>,
    h: Option<String>,
    i: Option<String>,
    j: Option<String>,
    k: Option<String>,
    l: Option<String>,
    m: Option<String>,
}

/// The same fields under another type.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct MoreFilters(Filters);

#[test]
fn check_reports_request_limits_the_tools_pass_only_together() {
    let anthropic = SchemaOptions::new().dialect(&toolschema::ANTHROPIC_STRICT);
    assert_eq!(anthropic.check::<(Filters,)>().map(|s| s.len()), Ok(1));
    let err = anthropic.check::<(Filters, MoreFilters)>().unwrap_err();
    assert!(err.failures().is_empty());
    let limits = err.request_limits();
    let totals: Vec<(usize, usize)> = limits.iter().map(|l| (l.total, l.max)).collect();
    assert_eq!(totals, [(26, 24), (26, 16)], "{err}");
    for limit in limits {
        assert_eq!(limit.over, [std::any::type_name::<MoreFilters>()]);
    }
    assert!(err.to_string().starts_with("the 2 tool schemas pass one by one but not in one request:\n- request: optional parameters over all strict tools: 26 of 24; past the limit: `"), "{err}");
    // OpenAI's strict mode makes every field required: no such limit.
    assert!(
        SchemaOptions::new().dialect(&toolschema::OPENAI_STRICT).check::<(Filters, MoreFilters)>().is_ok()
    );
}
