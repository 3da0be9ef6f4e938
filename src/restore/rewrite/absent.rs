//! An optional property, for a provider that demands every property be required (OpenAI strict,
//! Anthropic, Gemini where it closes an object): required, with `null` added ([`with_null`]),
//! a `null` standing for absent; and the converse, for a provider that counts unions (Anthropic's
//! 16): an optional property whose `null` reads as absent is written without `null`
//! ([`without_null`]), absent standing for it.
//!
//! The inverse is a mark on the plan's property, not a decode: restore drops a `null` that stands
//! for absent ([`stands_for_absent`]), so serde applies the field's default; decode skips it as
//! it presents the object; the forward map sends an absent property as `null` (or leaves out a
//! `null` the provider cannot take, which reads the same). Where the original refuses `null`
//! there, the mark says so too, and the forward map does not take a value that holds such a
//! `null` into a union branch that would send it as absent.

use super::Style;
use serde_json::{Map, Value};

/// Whether the value sent for a property (`None`: not sent) is a `null` that stands for absent,
/// where the property is marked `null_is_absent`.
pub(crate) fn stands_for_absent(null_is_absent: bool, sent: Option<&Value>) -> bool {
    null_is_absent && sent == Some(&Value::Null)
}

/// Adds `null` to a schema the model must now be able to send null for.
pub(crate) fn with_null(v: Value, style: Style) -> Value {
    let Value::Object(mut m) = v else { return v };
    if style == Style::NullableFlag {
        m.insert("nullable".into(), Value::Bool(true));
        return Value::Object(m);
    }
    if !m.contains_key("anyOf")
        && !m.contains_key("$ref")
        && let Some(t) = m.get_mut("type")
    {
        match t {
            Value::String(s) if s != "null" => {
                *t = Value::Array(vec![Value::String(s.clone()), "null".into()]);
            }
            Value::Array(names) if !names.contains(&Value::from("null")) => names.push("null".into()),
            _ => {}
        }
        if let Some(Value::Array(values)) = m.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        if let Some(c) = m.remove("const") {
            m.insert("enum".into(), Value::Array(vec![c, Value::Null]));
        }
        return Value::Object(m);
    }
    let mut outer = Map::new();
    for k in ["description", "title"] {
        if let Some(v) = m.remove(k) {
            outer.insert(k.to_owned(), v);
        }
    }
    match m.remove("anyOf") {
        Some(Value::Array(mut branches)) if m.is_empty() => {
            branches.push(serde_json::json!({"type": "null"}));
            outer.insert("anyOf".into(), Value::Array(branches));
        }
        other => {
            if let Some(o) = other {
                m.insert("anyOf".into(), o);
            }
            outer.insert(
                "anyOf".into(),
                Value::Array(vec![Value::Object(m), serde_json::json!({"type": "null"})]),
            );
        }
    }
    Value::Object(outer)
}

/// `v` without `null`, where that leaves one schema that is no union: a type list's `"null"`
/// (and a listed `null` beside it) or an `anyOf`'s `{"type": "null"}` branch, the annotations
/// kept. `None` where no such form exists (several types or branches stay, a reference would
/// have keywords beside it, or null was not there).
pub(crate) fn without_null(v: &Value) -> Option<Value> {
    let Value::Object(m) = v else { return None };
    let mut m = m.clone();
    if let Some(Value::Array(types)) = m.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| t.as_str() != Some("null")).cloned().collect();
        let [only] = rest.as_slice() else { return None };
        if m.contains_key("anyOf") || m.get("const").is_some_and(Value::is_null) {
            return None;
        }
        m.insert("type".into(), only.clone());
        if let Some(Value::Array(values)) = m.get_mut("enum") {
            values.retain(|x| !x.is_null());
            if values.is_empty() {
                return None;
            }
        }
        return Some(Value::Object(m));
    }
    let Some(Value::Array(branches)) = m.remove("anyOf") else { return None };
    let is_null = |b: &Value| {
        b.as_object()
            .is_some_and(|b| b.get("type") == Some(&Value::from("null")) && b.keys().all(|k| k == "type"))
    };
    let rest: Vec<&Value> = branches.iter().filter(|b| !is_null(b)).collect();
    let ([only], true) = (rest.as_slice(), rest.len() < branches.len()) else { return None };
    let only = only.as_object()?;
    if !m.keys().all(|k| crate::walk::is_meta_data(k)) || only.keys().any(|k| m.contains_key(k)) {
        return None;
    }
    if only.contains_key("$ref") && !m.is_empty() {
        return None;
    }
    let mut out = only.clone();
    out.extend(m);
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn null_is_added_in_the_providers_terms() {
        assert_eq!(
            with_null(json!({"type": "string"}), Style::NullType),
            json!({"type": ["string", "null"]})
        );
        assert_eq!(
            with_null(json!({"type": "string", "enum": ["a"]}), Style::NullType),
            json!({"type": ["string", "null"], "enum": ["a", null]})
        );
        assert_eq!(
            with_null(json!({"$ref": "#/$defs/A", "description": "d"}), Style::NullType),
            json!({"description": "d", "anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})
        );
        assert_eq!(
            with_null(json!({"type": "string"}), Style::NullableFlag),
            json!({"type": "string", "nullable": true})
        );
    }

    #[test]
    fn null_is_taken_out_where_one_schema_stays() {
        assert_eq!(without_null(&json!({"type": ["string", "null"]})), Some(json!({"type": "string"})));
        assert_eq!(
            without_null(&json!({"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]})),
            Some(json!({"$ref": "#/$defs/A"}))
        );
        assert_eq!(without_null(&json!({"type": ["string", "integer", "null"]})), None);
        assert_eq!(without_null(&json!({"type": "string"})), None);
        assert!(stands_for_absent(true, Some(&Value::Null)));
        assert!(!stands_for_absent(true, None) && !stands_for_absent(false, Some(&Value::Null)));
    }
}
