//! The words the model reads: the annotations a provider keeps, moved constraints and encodings
//! stated in `description`, a default noted. Apart because every part of the walk writes through
//! them.

use super::Engine;
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
