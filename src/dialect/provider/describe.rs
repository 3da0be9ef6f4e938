//! The words the model reads: the annotations a provider keeps, moved constraints and encodings
//! stated in `description`, a default noted, and `null` added where the model must be able to
//! send it (`with_null`). Apart because every part of the walk writes through them.

use super::{Engine, MAP_MARK, Style};
use crate::dialect::support::is_annotation;
use serde_json::{Map, Value};

impl Engine<'_> {
    /// Annotations the provider keeps; `description` gains the notes later.
    pub(super) fn annotations(&self, m: &Map<String, Value>) -> Map<String, Value> {
        m.iter()
            .filter(|(k, _)| self.p.annotations.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

/// Adds `null` to a schema the model must now be able to send null for.
pub(super) fn with_null(v: Value, style: Style) -> Value {
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
pub(super) fn without_null(v: &Value) -> Option<Value> {
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
    if !m.keys().all(|k| is_annotation(k)) || only.keys().any(|k| m.contains_key(k)) {
        return None;
    }
    if only.contains_key("$ref") && !m.is_empty() {
        return None;
    }
    let mut out = only.clone();
    out.extend(m);
    Some(Value::Object(out))
}

pub(super) fn note_default(child: &mut Value, default: &Value) {
    let Value::Object(m) = child else { return };
    if m.contains_key("$ref") {
        // Nothing may stand beside a `$ref` (OpenAI): a one-branch `anyOf` carries the text.
        let reference = std::mem::take(m);
        m.insert("anyOf".into(), Value::Array(vec![Value::Object(reference)]));
    }
    finish_description(m, &[], &[format!("Default: {default}.")]);
}

pub(super) fn names_list(props: &Map<String, Value>) -> String {
    props.keys().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

/// Appends to a schema's description, in the one wording: the moved constraints as
/// `Constraints: a; b.`, then each encoding's sentence.
pub(super) fn finish_description(out: &mut Map<String, Value>, constraints: &[String], sentences: &[String]) {
    out.remove(MAP_MARK);
    if constraints.is_empty() && sentences.is_empty() {
        return;
    }
    let mut notes = Vec::new();
    if !constraints.is_empty() {
        notes.push(format!("Constraints: {}.", constraints.join("; ")));
    }
    notes.extend(sentences.iter().cloned());
    let existing = out.get("description").and_then(Value::as_str).map(str::to_owned);
    out.insert("description".into(), Value::String(join_description(existing.as_deref(), &notes)));
}

pub(super) fn join_description(existing: Option<&str>, notes: &[String]) -> String {
    let mut s = existing.unwrap_or("").trim_end().to_owned();
    for n in notes {
        if !s.is_empty() {
            if !s.ends_with(['.', '!', '?', ':']) {
                s.push('.');
            }
            s.push(' ');
        }
        s.push_str(n);
    }
    s
}
