//! A map (`additionalProperties: S`, `patternProperties`), for a provider whose objects must be
//! closed: an array of `{"key": K, "value": V}` entries, closed in turn; restore rebuilds the map,
//! refusing a repeated key and checking each key against what the provider could not say of it.
//!
//! An object that also declares properties (`#[serde(flatten)]` of a map beside fields) keeps
//! them, and holds its further keys as entries under one more property, [`EXTRA`], always
//! required; restore merges them back, refusing an entry that names a declared property.

use super::{Faults, Place, Seg, Stop, Style};
use crate::restore::check::{self, Check};
use serde_json::{Map, Value};

/// The property that holds an object's further keys as entries, beside its declared properties.
pub(crate) const EXTRA: &str = "additional_properties";

/// The note a map written as entries gets in its description.
pub(crate) const NOTE: &str =
    "A map, written as a list of {\"key\", \"value\"} entries; each key at most once.";

/// Forward: the array of entries whose key is written `key` and whose value is written `value`,
/// each entry closed as `style` closes an object.
pub(crate) fn write(key: Value, value: Value, style: Style) -> Value {
    let mut entry = Map::new();
    entry.insert("type".into(), "object".into());
    entry.insert(
        "properties".into(),
        Value::Object(Map::from_iter([("key".to_owned(), key), ("value".to_owned(), value)])),
    );
    entry.insert("required".into(), Value::Array(vec!["key".into(), "value".into()]));
    style.close(&mut entry, 2);
    Value::Object(Map::from_iter([
        ("type".to_owned(), "array".into()),
        ("items".to_owned(), Value::Object(entry)),
    ]))
}

/// The note of [`EXTRA`]'s entries, which may name none of `declared` (already listed as the
/// description says them).
pub(crate) fn note_extra(declared: &str) -> String {
    format!(
        "The object's further keys, as a list of {{\"key\", \"value\"}} entries; each key at most once, and none of \
         {declared}."
    )
}

/// Inverse: the map the entries stand for. `places` receives where each key was sent.
pub(crate) fn restore(
    list: Vec<Value>,
    checks: &[Check],
    faults: &mut impl Faults,
    places: &mut Vec<(String, Place)>,
) -> Value {
    Value::Object(rebuild(list, Map::new(), checks, None, &[], faults, places))
}

/// Inverse for an object with declared properties (`declared`, sorted) and its further keys as
/// entries under `key`: the object with the entries merged in.
pub(crate) fn restore_extra(
    key: &str,
    declared: &[String],
    checks: &[Check],
    mut m: Map<String, Value>,
    faults: &mut impl Faults,
    places: &mut Vec<(String, Place)>,
) -> Value {
    // Further keys belong in the entries: one sent beside them (an object the provider could
    // not close, Gemini's) is refused, not read as a map key.
    if let Some(stray) = m.keys().find(|k| *k != key && !declared.contains(k)) {
        let stray = stray.clone();
        faults.fault(format!(
            "must have no key `{stray}`: further keys go in `{key}` as {{\"key\", \"value\"}} entries"
        ));
        return Value::Object(m);
    }
    let Some(extra) = m.remove(key) else { return Value::Object(m) };
    let Value::Array(list) = extra else {
        faults.fault(format!("`{key}` must be a list of {{\"key\", \"value\"}} entries"));
        return Value::Object(m);
    };
    let before = faults.count();
    let under = key.to_owned();
    let out = rebuild(list, m, checks, Some(&under), declared, faults, places);
    faults.below(before, || Seg::Key(under.clone()));
    Value::Object(out)
}

/// Rebuilds an object from `{"key", "value"}` entries, added to `into`, each key checked;
/// `declared` (sorted) are the object's own properties, which no entry may name.
fn rebuild(
    list: Vec<Value>,
    mut into: Map<String, Value>,
    checks: &[Check],
    under: Option<&String>,
    declared: &[String],
    faults: &mut impl Faults,
    places: &mut Vec<(String, Place)>,
) -> Map<String, Value> {
    for (i, entry) in list.into_iter().enumerate() {
        let before = faults.count();
        match entry {
            Value::Object(e) if e.len() == 2 && matches!(e.get("key"), Some(Value::String(_))) => {
                // Both taken by moving out of the entry, not looked up and removed.
                let (mut key, mut value) = (String::new(), Value::Null);
                for (k, v) in e {
                    match (k.as_str(), v) {
                        ("key", Value::String(s)) => key = s,
                        (_, v) => value = v,
                    }
                }
                let key_value = Value::String(key);
                let before_key = faults.count();
                for check in checks.iter().filter(|c| !c.passes(&key_value)) {
                    faults.fault(check.failure(&key_value));
                }
                faults.below(before_key, || Seg::Key("key".into()));
                let Value::String(key) = key_value else { unreachable!("made a string above") };
                if declared.binary_search(&key).is_ok() {
                    faults.fault(format!(
                        "names `{key}`, a property of its own: send it as that property, not as an entry"
                    ));
                } else if into.contains_key(&key) {
                    faults.fault(format!("repeats the key `{key}`; each key may appear once"));
                } else {
                    places.push((key.clone(), Place { index: i, under: under.cloned() }));
                    into.insert(key, value);
                }
            }
            other => faults.fault(format!(
                "must be an entry `{{\"key\": <string>, \"value\": ...}}`, got {}",
                check::short(&other)
            )),
        }
        faults.below(before, || Seg::Index(i));
    }
    places.sort_by(|a, b| a.0.cmp(&b.0));
    into
}

/// [`restore`] over a borrowed value: each entry `{"key": <string>, <any name>: value}`, each
/// key passing the checks and sent once; in the restored map's order.
pub(crate) fn read<'a>(list: &'a [Value], checks: &[Check]) -> Result<Vec<(&'a str, &'a Value)>, Stop> {
    let mut out = Vec::with_capacity(list.len());
    for entry in list {
        let Value::Object(e) = entry else { return Err(Stop::Fault) };
        let (Some(Value::String(key)), 2) = (e.get("key"), e.len()) else { return Err(Stop::Fault) };
        let Some((_, value)) = e.iter().find(|(k, _)| *k != "key") else { return Err(Stop::Fault) };
        if !checks.is_empty() {
            let key_value = Value::String(key.clone());
            if !checks.iter().all(|c| c.passes(&key_value)) {
                return Err(Stop::Fault);
            }
        }
        out.push((key.as_str(), value));
    }
    let repeats = |sorted: &[(&str, &Value)]| sorted.windows(2).any(|w| w[0].0 == w[1].0);
    if crate::vocab::map_order::map_preserves_order() {
        // Shown in the order sent; sorted apart to find a repeated key.
        let mut sorted = out.clone();
        sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
        if repeats(&sorted) {
            return Err(Stop::Fault);
        }
    } else {
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        if repeats(&out) {
            return Err(Stop::Fault);
        }
    }
    Ok(out)
}

/// [`restore_extra`] over a borrowed value, merged as restore merges: `None` where there are no
/// entries (the object stays as it is).
pub(crate) fn read_extra<'a>(
    m: &'a Map<String, Value>,
    key: &str,
    declared: &[String],
    checks: &[Check],
) -> Result<Option<Vec<(&'a str, &'a Value)>>, Stop> {
    if m.keys().any(|k| k != key && declared.binary_search(k).is_err()) {
        return Err(Stop::Fault);
    }
    let Some(extra) = m.get(key) else { return Ok(None) };
    let Value::Array(list) = extra else { return Err(Stop::Fault) };
    let entries = read(list, checks)?;
    if entries.iter().any(|(k, _)| declared.binary_search_by(|d| d.as_str().cmp(k)).is_ok()) {
        return Err(Stop::Fault);
    }
    let mut merged: Vec<(&str, &Value)> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
    if crate::vocab::map_order::map_preserves_order() {
        // Restore's `remove` of the entries' key is `swap_remove` there; the entries follow in
        // the order they were sent.
        if let Some(i) = merged.iter().position(|(k, _)| *k == key) {
            merged.swap_remove(i);
        }
        merged.extend(entries);
    } else {
        merged.retain(|(k, _)| *k != key);
        merged.extend(entries);
        merged.sort_by(|a, b| a.0.cmp(b.0));
    }
    Ok(Some(merged))
}

/// Forward map: each key and value as an entry.
pub(crate) fn encode(m: Map<String, Value>) -> Value {
    Value::Array(as_entries(m))
}

/// Forward map of an object with declared properties: the further keys as entries under `key`.
pub(crate) fn encode_extra(key: &str, declared: &[String], m: Map<String, Value>) -> Value {
    let (mut own, extra): (Map<String, Value>, Map<String, Value>) =
        m.into_iter().partition(|(k, _)| declared.binary_search(k).is_ok());
    own.insert(key.to_owned(), Value::Array(as_entries(extra)));
    Value::Object(own)
}

fn as_entries(m: Map<String, Value>) -> Vec<Value> {
    m.into_iter()
        .map(|(k, v)| {
            Value::Object(Map::from_iter([("key".to_owned(), Value::String(k)), ("value".to_owned(), v)]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    #[test]
    fn a_map_is_written_as_closed_entries() {
        assert_eq!(
            write(json!({"type": "string"}), json!({"type": "integer"}), Style::NullType),
            json!({"type": "array", "items": {"type": "object", "required": ["key", "value"], "additionalProperties": false,
                   "properties": {"key": {"type": "string"}, "value": {"type": "integer"}}}})
        );
        assert_eq!(write(json!({}), json!({}), Style::NullableFlag)["items"]["maxProperties"], 2);
    }

    #[test]
    fn restore_rebuilds_the_map_and_refuses_a_repeated_key_at_its_entry() {
        let mut faults = Collect::default();
        let mut places = Vec::new();
        let sent = encode(json!({"a": 1, "b": 2}).as_object().unwrap().clone());
        let Value::Array(list) = sent else { panic!("entries") };
        assert_eq!(restore(list, &[], &mut faults, &mut places), json!({"a": 1, "b": 2}));
        assert_eq!(
            places.iter().map(|(k, p)| (k.as_str(), p.index)).collect::<Vec<_>>(),
            [("a", 0), ("b", 1)]
        );
        let repeated = vec![json!({"key": "a", "value": 1}), json!({"key": "a", "value": 2})];
        restore(repeated.clone(), &[], &mut faults, &mut Vec::new());
        assert_eq!(faults.0, ["/1: repeats the key `a`; each key may appear once"]);
        assert!(matches!(read(&repeated, &[]), Err(Stop::Fault)));
    }

    #[test]
    fn further_keys_merge_beside_the_declared_ones_and_may_not_name_one() {
        let declared = vec!["id".to_owned()];
        let m = json!({"id": 1, "x": 2}).as_object().unwrap().clone();
        let sent = encode_extra(EXTRA, &declared, m);
        assert_eq!(sent, json!({"id": 1, "additional_properties": [{"key": "x", "value": 2}]}));
        let mut faults = Collect::default();
        let back = restore_extra(
            EXTRA,
            &declared,
            &[],
            sent.as_object().unwrap().clone(),
            &mut faults,
            &mut Vec::new(),
        );
        assert_eq!(back, json!({"id": 1, "x": 2}));
        let naming = json!({"id": 1, "additional_properties": [{"key": "id", "value": 2}]});
        restore_extra(
            EXTRA,
            &declared,
            &[],
            naming.as_object().unwrap().clone(),
            &mut faults,
            &mut Vec::new(),
        );
        assert_eq!(
            faults.0,
            [
                "/additional_properties/0: names `id`, a property of its own: send it as that property, not as an entry"
            ]
        );
    }
}
