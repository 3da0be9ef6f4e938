//! A root that is not an object, wrapped: tool arguments are a JSON object, so a provider is told
//! `{"type": "object", "properties": {"value": <root>}, "required": ["value"]}`, closed, and
//! restore takes the value out of its one key.

use super::{Faults, Stop, Style};
use crate::restore::check;
use serde_json::{Map, Value};

/// The property that holds a wrapped root.
pub(crate) const KEY: &str = "value";

/// Forward: `inner` as the one required property [`KEY`] of an object closed as `style` closes
/// one.
pub(crate) fn write(inner: Value, style: Style) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), Value::Object(Map::from_iter([(KEY.to_owned(), inner)])));
    out.insert("required".into(), Value::Array(vec![Value::String(KEY.to_owned())]));
    style.close(&mut out, 1);
    out
}

/// Inverse: the value under `key`, the object's one key.
pub(crate) fn restore(key: &str, value: Value, faults: &mut impl Faults) -> Value {
    match value {
        Value::Object(m) if m.len() == 1 && m.contains_key(key) => {
            m.into_iter().next().map_or(Value::Null, |(_, v)| v)
        }
        v => {
            faults.fault(format!("must be an object with the one key `{key}`, got {}", check::short(&v)));
            v
        }
    }
}

/// [`restore`] over a borrowed value.
pub(crate) fn read<'a>(key: &str, value: &'a Value) -> Result<&'a Value, Stop> {
    match value {
        Value::Object(m) if m.len() == 1 => m.get(key).ok_or(Stop::Fault),
        _ => Err(Stop::Fault),
    }
}

/// Forward map: `{"<key>": value}`.
pub(crate) fn encode(key: &str, value: Value) -> Value {
    Value::Object(Map::from_iter([(key.to_owned(), value)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    #[test]
    fn the_root_is_the_one_required_property_of_a_closed_object() {
        assert_eq!(
            Value::Object(write(json!({"type": "array"}), Style::NullType)),
            json!({"type": "object", "properties": {"value": {"type": "array"}}, "required": ["value"],
                   "additionalProperties": false})
        );
        assert_eq!(write(json!({}), Style::NullableFlag)["maxProperties"], 1);
    }

    #[test]
    fn restore_takes_the_value_out_of_its_one_key_and_refuses_any_other_object() {
        let mut faults = Collect::default();
        assert_eq!(restore(KEY, encode(KEY, json!([1])), &mut faults), json!([1]));
        assert_eq!(restore(KEY, json!({"value": 1, "x": 2}), &mut faults), json!({"value": 1, "x": 2}));
        assert_eq!(faults.0, ["must be an object with the one key `value`, got {\"value\":1,\"x\":2}"]);
        assert!(matches!(read(KEY, &json!({"other": 1})), Err(Stop::Fault)));
        assert_eq!(read(KEY, &json!({"value": 3})).ok(), Some(&json!(3)));
    }
}
