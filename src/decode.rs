//! The decode side of `exclude`: a model's arguments plus the caller's injected values, into `T`.
//!
//! A schema built with [`SchemaOptions::exclude`](crate::SchemaOptions::exclude) hides root
//! properties the caller supplies (a request context, a tenant id). The model never sees them, but
//! a model can still guess a name and send it. [`decode_arguments`](crate::decode_arguments)
//! makes that harmless: it refuses any excluded name the model sent, takes those values from the
//! caller, and only then deserialises into `T`. An injected value can never be overridden by the
//! model.
//!
//! ```
//! # #[cfg(feature = "schemars")] {
//! use serde_json::{json, Map};
//! use toolschema::{decode_arguments, DecodeError, SchemaOptions};
//!
//! #[derive(Debug, schemars::JsonSchema, serde::Deserialize)]
//! struct Lookup { word: String, tenant: String }
//!
//! let schema = SchemaOptions::new().exclude(["tenant"]).schema_for::<Lookup>().unwrap();
//! let mut injected = Map::new();
//! injected.insert("tenant".into(), json!("acme"));
//!
//! let call: Lookup = decode_arguments(&schema, &json!({"word": "tea"}), injected.clone()).unwrap();
//! assert_eq!((call.word.as_str(), call.tenant.as_str()), ("tea", "acme"));
//!
//! let guessed = json!({"word": "tea", "tenant": "evil"});
//! let err = decode_arguments::<Lookup>(&schema, &guessed, injected).unwrap_err();
//! assert!(matches!(err, toolschema::ArgumentsError::Decode(DecodeError::ExcludedKeySent { .. })));
//! # }
//! ```
//!
//! # How it works
//! The model's arguments must be a JSON object. Every excluded name must be absent from it and
//! present in `injected` (pass `null` for an `Option` you leave empty); `injected` may hold no other
//! name, since the model is told about every other property and could send it too. The two
//! objects are merged and deserialised with serde. [`decode_arguments_excluding`] takes the
//! excluded names directly, for schemas made elsewhere; it needs serde_json only.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use crate::error::DecodeError;

/// [`decode_arguments`](crate::decode_arguments) with the excluded names given directly.
///
/// # Errors
/// As [`decode_arguments`](crate::decode_arguments).
pub fn decode_arguments_excluding<T: DeserializeOwned, S: AsRef<str>>(
    excluded: &[S],
    model_args: &Value,
    mut injected: Map<String, Value>,
) -> Result<T, DecodeError> {
    let Value::Object(sent) = model_args else {
        return Err(DecodeError::NotAnObject { found: crate::vocab::json_type::kind(model_args) });
    };
    let excluded: Vec<&str> = excluded.iter().map(AsRef::as_ref).collect();
    // Checked in sorted order, so the error names the same property in every build.
    let mut injected_names: Vec<&String> = injected.keys().collect();
    injected_names.sort();
    if let Some(name) = injected_names.into_iter().find(|n| !excluded.contains(&n.as_str())) {
        return Err(DecodeError::NotExcluded { name: name.clone() });
    }
    let mut sorted = excluded.clone();
    sorted.sort_unstable();
    for name in &sorted {
        if sent.contains_key(*name) {
            return Err(DecodeError::ExcludedKeySent { name: (*name).to_owned() });
        }
        if !injected.contains_key(*name) {
            return Err(DecodeError::MissingInjected { name: (*name).to_owned() });
        }
    }
    let mut merged = sent.clone();
    merged.append(&mut injected);
    T::deserialize(Value::Object(merged)).map_err(|e| DecodeError::Deserialize { message: e.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Call {
        q: String,
        tenant: String,
        trace: Option<String>,
    }

    fn injected(pairs: &[(&str, Value)]) -> Map<String, Value> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
    }

    const EXCLUDED: &[&str] = &["tenant", "trace"];

    #[test]
    fn injected_values_fill_the_excluded_fields() {
        let call: Call = decode_arguments_excluding(
            EXCLUDED,
            &json!({"q": "x"}),
            injected(&[("tenant", json!("acme")), ("trace", Value::Null)]),
        )
        .unwrap();
        assert_eq!(call, Call { q: "x".into(), tenant: "acme".into(), trace: None });
    }

    #[test]
    fn a_model_that_sends_an_excluded_name_is_refused_even_when_the_value_matches() {
        let e = decode_arguments_excluding::<Call, _>(
            EXCLUDED,
            &json!({"q": "x", "tenant": "acme"}),
            injected(&[("tenant", json!("acme")), ("trace", Value::Null)]),
        )
        .unwrap_err();
        assert_eq!(e, DecodeError::ExcludedKeySent { name: "tenant".into() });
        assert!(e.to_string().contains("`tenant`"), "{e}");
    }

    #[test]
    fn a_missing_injected_value_and_an_unexcluded_injected_name_are_caller_errors() {
        let e = decode_arguments_excluding::<Call, _>(
            EXCLUDED,
            &json!({"q": "x"}),
            injected(&[("tenant", json!("a"))]),
        )
        .unwrap_err();
        assert_eq!(e, DecodeError::MissingInjected { name: "trace".into() });
        let e = decode_arguments_excluding::<Call, _>(
            &["tenant"],
            &json!({"q": "x"}),
            injected(&[("tenant", json!("a")), ("q", json!("y"))]),
        )
        .unwrap_err();
        assert_eq!(e, DecodeError::NotExcluded { name: "q".into() });
    }

    #[test]
    fn arguments_that_are_not_an_object_or_do_not_fit_the_type_are_refused() {
        let none = Map::new();
        let e = decode_arguments_excluding::<Call, &str>(&[], &json!([1]), none.clone()).unwrap_err();
        assert_eq!(e, DecodeError::NotAnObject { found: "an array" });
        let e = decode_arguments_excluding::<Call, &str>(&[], &json!({"q": 1}), none).unwrap_err();
        assert!(matches!(e, DecodeError::Deserialize { .. }), "{e}");
    }
}
