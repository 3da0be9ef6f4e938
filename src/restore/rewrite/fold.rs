//! Properties past a provider's count limits (Anthropic's 24 optional and 16 union properties,
//! OpenAI's 5,000 properties and 1,000 enum values), folded into one property: a string holding
//! the JSON text of an object with them.
//!
//! The original says: an object with properties `a`, ..., `z`. The provider is told: the same
//! object without the folded ones (the last declared), and one property more (its name
//! [`KEY`], or [`KEY`] with a number where a property has that name) whose value is a string of
//! JSON text of an object holding them; its description states, compactly, the JSON Schema each
//! folded property follows. The folded property is optional unless one it holds is required.
//!
//! Restore parses the text and checks each folded property against its original subschema
//! ([`validate`](crate::restore::validate), references resolved against the original's
//! definitions), every fault pointed at the original property (`/name/...`), restores each
//! through the folded properties' own plan ([`Fold::plan`]: an integral float becomes the integer
//! where the property reads one, as restore does everywhere), and puts them back beside the
//! others. It refuses text that does not parse or is not an object, a folded key
//! that is also sent as a property of its own, and a key that was not folded. The forward map
//! takes the folded properties out of the object and writes their JSON text.
//!
//! The folding is the same whatever the limit: which properties, and in which schema, the
//! dialect decides (`dialect/fold.rs`); this module writes and undoes it.

use super::{Faults, Seg, Stop, TextPlan, normalised, pointed};
use crate::vocab::json_type::kind;
use serde_json::{Map, Value};

/// The name of the property that holds the folded properties' JSON text.
pub(crate) const KEY: &str = "more_properties";

/// Properties folded into one property holding their JSON text: the plan's part of the fold.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fold {
    /// The property that holds the text.
    pub(crate) key: String,
    /// The folded properties' names, sorted.
    pub(crate) names: Vec<String>,
    /// What the folded object is checked against: the folded properties' original subschemas,
    /// those of them the original requires, and the original's definitions (for references).
    pub(crate) schema: Value,
    /// The restore plan of [`schema`](Self::schema) (an integral float turned into the integer
    /// where a folded property reads one), which the dialect gives: the folded properties,
    /// once checked, restore as they would have had the provider's schema held them. The plan
    /// that changes nothing until then.
    pub(crate) plan: TextPlan,
}

/// Forward: the object `object` (an original schema's object, with `properties`) with the
/// properties `folded` taken out and one property added that holds them as JSON text; the
/// object's definitions are read from `root` (the document its references resolve against).
/// `None` where `folded` names no declared property or the object has no `properties`.
pub(crate) fn write(
    object: &Map<String, Value>,
    folded: &[String],
    root: &Value,
) -> Option<(Map<String, Value>, Fold)> {
    let Some(Value::Object(props)) = object.get("properties") else { return None };
    if folded.is_empty() || folded.iter().any(|n| !props.contains_key(n)) {
        return None;
    }
    let required: Vec<&str> = object
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let is_folded = |n: &str| folded.iter().any(|f| f == n);
    let key = free_key(props);
    let mut kept_props = Map::new();
    let mut folded_props = Map::new();
    for (name, sub) in props {
        if is_folded(name) {
            folded_props.insert(name.clone(), sub.clone());
        } else {
            kept_props.insert(name.clone(), sub.clone());
        }
    }
    let folded_required: Vec<Value> =
        required.iter().filter(|r| is_folded(r)).map(|r| Value::String((*r).to_owned())).collect();
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(folded_props));
    if !folded_required.is_empty() {
        schema.insert("required".into(), Value::Array(folded_required.clone()));
    }
    let mut shown = schema.clone();
    let reached = reached_definitions(&shown, root);
    for (defs, entries) in reached {
        shown.insert(defs.into(), Value::Object(entries));
    }
    let shown = Value::Object(shown);
    for defs in ["$defs", "definitions"] {
        if let Some(d) = root.get(defs) {
            schema.insert(defs.into(), d.clone());
        }
    }
    let mut out = object.clone();
    kept_props.insert(key.clone(), serde_json::json!({"type": "string", "description": describe(&shown)}));
    out.insert("properties".into(), Value::Object(kept_props));
    let mut kept_required: Vec<Value> =
        required.iter().filter(|r| !is_folded(r)).map(|r| Value::String((*r).to_owned())).collect();
    if !folded_required.is_empty() {
        kept_required.push(Value::String(key.clone()));
    }
    if kept_required.is_empty() {
        out.remove("required");
    } else {
        out.insert("required".into(), Value::Array(kept_required));
    }
    let mut names = folded.to_vec();
    names.sort_unstable();
    names.dedup();
    Some((out, Fold { key, names, schema: Value::Object(schema), plan: TextPlan::default() }))
}

/// The definitions of `root` the references in `schema` reach (through each other too), by
/// the keyword that holds them, for the description: the provider's schema may keep none of
/// them once the properties that named them are folded.
fn reached_definitions(schema: &Map<String, Value>, root: &Value) -> Vec<(&'static str, Map<String, Value>)> {
    let mut found: Vec<(&'static str, Map<String, Value>)> =
        vec![("$defs", Map::new()), ("definitions", Map::new())];
    let mut stack: Vec<&Value> = schema.values().collect();
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref").and_then(Value::as_str)
                    && let Ok(tokens) = crate::refs::parse_local(r)
                    && let [defs, name] = tokens.as_slice()
                    && let Some(slot) = found.iter_mut().find(|(d, _)| d == defs)
                    && !slot.1.contains_key(name)
                    && let Some(def) = root.get(defs.as_str()).and_then(|d| d.get(name))
                {
                    slot.1.insert(name.clone(), def.clone());
                    stack.push(def);
                }
                stack.extend(m.values());
            }
            Value::Array(xs) => stack.extend(xs),
            _ => {}
        }
    }
    found.retain(|(_, m)| !m.is_empty());
    found
}

/// [`KEY`], or `KEY_2`, `KEY_3`, ... where the object declares that name.
fn free_key(props: &Map<String, Value>) -> String {
    let mut key = KEY.to_owned();
    let mut n = 2;
    while props.contains_key(&key) {
        key = format!("{KEY}_{n}");
        n += 1;
    }
    key
}

/// The note that tells the model what the string holds: the folded properties' schema, compact.
fn describe(shown: &Value) -> String {
    format!(
        "More properties, written as a string holding the JSON text of an object that follows \
         this JSON Schema (each property optional unless listed in `required`): {}",
        crate::canonical::to_string(shown)
    )
}

/// The pointer of a fault at the value at hand's key `key`.
fn at_key(faults: &mut impl Faults, key: &str, message: String) {
    let before = faults.count();
    faults.fault(message);
    faults.below(before, || Seg::Key(key.to_owned()));
}

/// Inverse: the object `m` with the folded properties parsed out of their text and put back,
/// each checked against its original subschema and restored through its plan.
pub(crate) fn restore(fold: &Fold, mut m: Map<String, Value>, faults: &mut impl Faults) -> Value {
    let folded = match m.remove(&fold.key) {
        None | Some(Value::Null) => Map::new(),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(o)) => o,
            Ok(v) => {
                at_key(faults, &fold.key, format!("must be JSON text of an object, got {}", kind(&v)));
                m.insert(fold.key.clone(), Value::String(text));
                return Value::Object(m);
            }
            Err(e) => {
                at_key(
                    faults,
                    &fold.key,
                    format!("must be JSON text of an object, and it does not parse: {e}"),
                );
                m.insert(fold.key.clone(), Value::String(text));
                return Value::Object(m);
            }
        },
        Some(v) => {
            at_key(faults, &fold.key, format!("must be a string of JSON text, got {}", kind(&v)));
            m.insert(fold.key.clone(), v);
            return Value::Object(m);
        }
    };
    for (k, v) in folded {
        if fold.names.binary_search(&k).is_err() {
            at_key(
                faults,
                &fold.key,
                format!("holds `{k}`, which is not one of its properties ({})", list(&fold.names)),
            );
        } else if m.contains_key(&k) {
            at_key(faults, &fold.key, format!("holds `{k}`, which is also sent on its own: send it once"));
        } else {
            m.insert(k, v);
        }
    }
    // Every folded property the object now holds (a provider that closes objects lets none be
    // sent on its own, but one that did is checked all the same), each against its original.
    let held: Map<String, Value> =
        fold.names.iter().filter_map(|n| m.get(n).map(|v| (n.clone(), v.clone()))).collect();
    let held = Value::Object(held);
    let found = crate::restore::validate(&fold.schema, &held);
    if !found.is_empty() {
        pointed(faults, found);
        return Value::Object(m);
    }
    let plan = fold.plan.get(&fold.schema, &fold.schema);
    if !plan.is_identity()
        && let Some(Value::Object(restored)) = normalised(plan, held, faults)
    {
        // Each folded property as its own restore gives it (`1.0` read as an integer: `1`).
        m.extend(restored);
    }
    Value::Object(m)
}

fn list(names: &[String]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// The same over a borrowed object, for decode: the parsed text is a value of its own, so
/// decode restores the subtree instead (nothing to do where the text is absent, nothing folded
/// is required and no folded property is sent on its own).
pub(crate) fn read(fold: &Fold, m: &Map<String, Value>) -> Result<(), Stop> {
    let required = fold.schema.get("required").is_some();
    let untouched = m.get(&fold.key).is_none_or(Value::is_null)
        && !required
        && !fold.names.iter().any(|n| m.contains_key(n));
    if untouched { Ok(()) } else { Err(Stop::Subtree) }
}

/// Forward map: the folded properties the object holds taken out, their JSON text under the
/// fold's key (absent where it holds none).
pub(crate) fn encode(fold: &Fold, value: Value) -> Value {
    let Value::Object(mut m) = value else { return value };
    let mut folded = Map::new();
    for name in &fold.names {
        if let Some(v) = m.remove(name) {
            folded.insert(name.clone(), v);
        }
    }
    if !folded.is_empty() {
        m.insert(fold.key.clone(), Value::String(Value::Object(folded).to_string()));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    fn object() -> (Value, Vec<String>) {
        let root = json!({"type": "object", "required": ["a", "z"], "properties": {
            "a": {"type": "string"},
            "y": {"type": "integer", "minimum": 0},
            "z": {"$ref": "#/$defs/Z"}
        }, "$defs": {"Z": {"type": "array", "items": {"type": "boolean"}}}});
        (root, vec!["y".into(), "z".into()])
    }

    #[test]
    fn write_takes_the_folded_properties_out_and_describes_them() {
        let (root, folded) = object();
        let (out, fold) = write(root.as_object().unwrap(), &folded, &root).unwrap();
        assert_eq!(out["properties"].as_object().unwrap().keys().collect::<Vec<_>>(), ["a", KEY]);
        // `z` is required: so is the folded property.
        assert_eq!(out["required"], json!(["a", KEY]));
        let text = out["properties"][KEY]["description"].as_str().unwrap();
        assert!(
            text.ends_with(
                r##"JSON Schema (each property optional unless listed in `required`): {"$defs":{"Z":{"items":{"type":"boolean"},"type":"array"}},"properties":{"y":{"minimum":0,"type":"integer"},"z":{"$ref":"#/$defs/Z"}},"required":["z"],"type":"object"}"##
            ),
            "{text}"
        );
        assert_eq!(fold.names, ["y", "z"]);
        assert_eq!(fold.schema["$defs"], root["$defs"]);
        // Nothing to fold, or an undeclared name: no fold.
        assert!(write(root.as_object().unwrap(), &[], &root).is_none());
        assert!(write(root.as_object().unwrap(), &["q".into()], &root).is_none());
        // A property already named like the fold's key: the next free name.
        let taken =
            json!({"type": "object", "properties": {KEY: {"type": "string"}, "b": {"type": "string"}}});
        let (out, fold) = write(taken.as_object().unwrap(), &["b".into()], &taken).unwrap();
        assert_eq!(fold.key, format!("{KEY}_2"));
        assert!(out.get("required").is_none());
    }

    #[test]
    fn encode_then_restore_gives_the_value_back() {
        let (root, folded) = object();
        let (_, fold) = write(root.as_object().unwrap(), &folded, &root).unwrap();
        let value = json!({"a": "x", "y": 3, "z": [true]});
        let sent = encode(&fold, value.clone());
        assert_eq!(sent, json!({"a": "x", KEY: r#"{"y":3,"z":[true]}"#}));
        let mut faults = Collect::default();
        assert_eq!(restore(&fold, sent.as_object().unwrap().clone(), &mut faults), value);
        assert!(faults.0.is_empty(), "{:?}", faults.0);
        // Nothing folded in the value: nothing sent.
        let (_, optional) = write(root.as_object().unwrap(), &["y".into()], &root).unwrap();
        assert_eq!(encode(&optional, json!({"a": "x"})), json!({"a": "x"}));
        assert_eq!(restore(&optional, Map::new(), &mut faults), json!({}));
        assert_eq!(read(&optional, &Map::new()).ok(), Some(()));
        assert!(faults.0.is_empty(), "{:?}", faults.0);
    }

    #[test]
    fn restore_gives_each_folded_property_as_its_own_plan_gives_it() {
        let (root, folded) = object();
        let (_, mut fold) = write(root.as_object().unwrap(), &folded, &root).unwrap();
        fold.plan = TextPlan::new(crate::dialect::provider::integer_plan_in, 64);
        let sent = json!({"a": "x", KEY: r#"{"y":3.0,"z":[true]}"#});
        let mut faults = Collect::default();
        let back = restore(&fold, sent.as_object().unwrap().clone(), &mut faults);
        assert_eq!(back, json!({"a": "x", "y": 3, "z": [true]}));
        assert!(back["y"].is_u64(), "{back}");
        assert!(faults.0.is_empty(), "{:?}", faults.0);
    }

    #[test]
    fn restore_points_each_fault_at_the_original_property() {
        let (root, folded) = object();
        let (_, fold) = write(root.as_object().unwrap(), &folded, &root).unwrap();
        let mut faults = Collect::default();
        let sent = json!({"a": "x", KEY: r#"{"y":-1,"z":[1]}"#});
        restore(&fold, sent.as_object().unwrap().clone(), &mut faults);
        assert_eq!(
            faults.0,
            ["/y: must be at least 0, got -1", "/z/0: must be of type boolean, got integer"]
        );
        // A folded property sent on its own (which a closed object's provider refuses) is
        // checked all the same.
        let mut faults = Collect::default();
        let sent = json!({"a": "x", "y": -1, KEY: r#"{"z":[]}"#});
        assert_eq!(
            restore(&fold, sent.as_object().unwrap().clone(), &mut faults),
            json!({"a": "x", "y": -1, "z": []})
        );
        assert_eq!(faults.0, ["/y: must be at least 0, got -1"]);
        assert!(matches!(read(&fold, sent.as_object().unwrap()), Err(Stop::Subtree)));
        // Required `z` missing from the text, or the text missing altogether.
        for sent in [json!({"a": "x", KEY: "{}"}), json!({"a": "x"}), json!({"a": "x", KEY: null})] {
            let mut faults = Collect::default();
            restore(&fold, sent.as_object().unwrap().clone(), &mut faults);
            assert_eq!(faults.0.len(), 1, "{sent}: {:?}", faults.0);
            assert!(faults.0[0].contains('z'), "{:?}", faults.0);
        }
    }

    #[test]
    fn restore_refuses_bad_text_an_unknown_key_and_a_key_sent_twice() {
        let (root, folded) = object();
        let (_, fold) = write(root.as_object().unwrap(), &folded, &root).unwrap();
        let cases = [
            (json!({KEY: "{"}), "and it does not parse"),
            (json!({KEY: "[1]"}), "must be JSON text of an object, got an array"),
            (json!({KEY: 1}), "must be a string of JSON text, got a number"),
            (json!({KEY: r#"{"z":[],"q":1}"#}), "holds `q`, which is not one of its properties (`y`, `z`)"),
            (json!({"y": 1, KEY: r#"{"z":[],"y":1}"#}), "holds `y`, which is also sent on its own"),
        ];
        for (sent, words) in cases {
            let mut faults = Collect::default();
            restore(&fold, sent.as_object().unwrap().clone(), &mut faults);
            assert!(
                faults.0.iter().any(|f| f.starts_with(&format!("/{KEY}: ")) && f.contains(words)),
                "{sent}: {:?}",
                faults.0
            );
        }
        assert!(matches!(read(&fold, &Map::new()), Err(Stop::Subtree)));
    }
}
