//! A tuple (`prefixItems` of a fixed length), for a provider that cannot list items by position:
//! an object with the keys `"0"`, `"1"`, ..., all required, closed; restore rebuilds the array.

use super::{Faults, Stop, Style};
use serde_json::{Map, Value};

/// Forward: the tuple's written members (`members[i]` for item `i`) as the properties of `out`,
/// every one required, `out` closed as `style` closes an object; the note for the description.
pub(crate) fn write(members: Vec<Value>, out: &mut Map<String, Value>, style: Style) -> String {
    let n = members.len();
    let props: Map<String, Value> =
        members.into_iter().enumerate().map(|(i, m)| (i.to_string(), m)).collect();
    let required: Vec<Value> = (0..n).map(|i| Value::String(i.to_string())).collect();
    out.insert("properties".into(), Value::Object(props));
    out.insert("required".into(), Value::Array(required));
    style.close(out, n);
    format!("A list of {n} items, written as an object with keys \"0\" to \"{}\".", n.saturating_sub(1))
}

/// Inverse: the array of the values under `"0"` to `"<n - 1>"`, which must be all the keys.
pub(crate) fn restore(n: usize, mut m: Map<String, Value>, faults: &mut impl Faults) -> Value {
    let mut items = Vec::with_capacity(n);
    for i in 0..n {
        match m.remove(&i.to_string()) {
            Some(v) => items.push(v),
            None => {
                faults.fault(format!("must have the key `{i}` (the tuple's item {i})"));
                return Value::Object(m);
            }
        }
    }
    if let Some(k) = m.keys().next() {
        let k = k.clone();
        faults.fault(format!("must have only the keys `0` to `{}`, got `{k}`", n.saturating_sub(1)));
    }
    Value::Array(items)
}

/// [`restore`] over a borrowed value: the items.
pub(crate) fn read(n: usize, m: &Map<String, Value>) -> Result<Vec<&Value>, Stop> {
    let mut items = Vec::with_capacity(n);
    let mut name = String::new();
    for i in 0..n {
        name.clear();
        std::fmt::Write::write_fmt(&mut name, format_args!("{i}")).map_err(|_| Stop::Subtree)?;
        items.push(m.get(&name).ok_or(Stop::Fault)?);
    }
    if m.len() != n {
        return Err(Stop::Fault);
    }
    Ok(items)
}

/// Forward map: each item under its index.
pub(crate) fn encode(items: Vec<Value>) -> Value {
    Value::Object(items.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    #[test]
    fn a_tuple_is_written_as_an_object_with_every_index_required() {
        let mut out = Map::new();
        let note =
            write(vec![json!({"type": "string"}), json!({"type": "integer"})], &mut out, Style::NullType);
        assert_eq!(
            Value::Object(out),
            json!({"properties": {"0": {"type": "string"}, "1": {"type": "integer"}}, "required": ["0", "1"],
                   "additionalProperties": false})
        );
        assert_eq!(note, "A list of 2 items, written as an object with keys \"0\" to \"1\".");
    }

    #[test]
    fn restore_rebuilds_the_array_and_names_a_missing_or_stray_key() {
        let mut faults = Collect::default();
        assert_eq!(
            restore(2, encode(vec![json!("a"), json!(1)]).as_object().unwrap().clone(), &mut faults),
            json!(["a", 1])
        );
        assert!(faults.0.is_empty());
        restore(2, json!({"0": "a"}).as_object().unwrap().clone(), &mut faults);
        restore(1, json!({"0": "a", "9": 1}).as_object().unwrap().clone(), &mut faults);
        assert_eq!(
            faults.0,
            ["must have the key `1` (the tuple's item 1)", "must have only the keys `0` to `0`, got `9`"]
        );
        assert!(matches!(read(1, json!({"0": 1, "1": 2}).as_object().unwrap()), Err(Stop::Fault)));
    }
}
