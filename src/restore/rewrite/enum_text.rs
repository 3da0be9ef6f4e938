//! Listed values a provider cannot list (numbers for Gemini's `enum`, an empty string, `null`
//! without a null type, objects): each written as its JSON text, beside the strings, which stay
//! themselves; restore maps each text back to its value.

use crate::restore::check;
use serde_json::Value;

/// How the forward rule writes one listed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Listed {
    /// As itself (a string the provider takes).
    Itself,
    /// Not at all (`null`, where the provider says it with `nullable: true` instead).
    Omitted,
    /// As its JSON text.
    Text,
}

/// What a listed value becomes: `table` maps each text back to its value.
pub(crate) struct Written {
    pub(crate) strings: Vec<Value>,
    pub(crate) table: Vec<(String, Value)>,
}

/// Forward: `values` as the strings the provider lists, each written as `how` says. `None` where
/// two values would be the same string (the string `"1"` and the number `1`): no table could
/// tell them apart.
pub(crate) fn write(values: &[Value], how: impl Fn(&Value) -> Listed) -> Option<Written> {
    let mut table = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for v in values {
        match (how(v), v) {
            (Listed::Omitted, _) => {}
            (Listed::Itself, Value::String(s)) => texts.push(s.clone()),
            (_, other) => {
                let text = other.to_string();
                table.push((text.clone(), other.clone()));
                texts.push(text);
            }
        }
    }
    let unique: std::collections::BTreeSet<&String> = texts.iter().collect();
    (unique.len() == texts.len())
        .then(|| Written { strings: texts.into_iter().map(Value::String).collect(), table })
}

/// Inverse: the value a text stands for; a string that stands for none is itself.
pub(crate) fn restore(table: &[(String, Value)], text: String) -> Value {
    match table.iter().find(|(t, _)| *t == text) {
        Some((_, v)) => v.clone(),
        None => Value::String(text),
    }
}

/// [`restore`] over a borrowed value: the value a text stands for, if any.
pub(crate) fn read<'a>(table: &'a [(String, Value)], text: &str) -> Option<&'a Value> {
    table.iter().find(|(t, _)| t == text).map(|(_, v)| v)
}

/// Forward map: a listed value as its text.
pub(crate) fn encode(table: &[(String, Value)], value: Value) -> Value {
    match table.iter().find(|(_, x)| check::json_equal(x, &value)) {
        Some((text, _)) => Value::String(text.clone()),
        None => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn strings_stay(v: &Value) -> Listed {
        if v.is_string() { Listed::Itself } else { Listed::Text }
    }

    #[test]
    fn values_are_written_as_text_and_read_back() {
        let written = write(&[json!("a"), json!(1), json!(null)], strings_stay).unwrap();
        assert_eq!(written.strings, [json!("a"), json!("1"), json!("null")]);
        assert_eq!(restore(&written.table, "1".into()), json!(1));
        assert_eq!(restore(&written.table, "a".into()), json!("a"));
        assert_eq!(read(&written.table, "null"), Some(&Value::Null));
        assert_eq!(encode(&written.table, json!(1.0)), json!("1"));
    }

    #[test]
    fn two_values_with_one_text_cannot_be_written() {
        assert!(write(&[json!("1"), json!(1)], strings_stay).is_none());
        let omitted =
            write(&[json!("a"), Value::Null], |v| if v.is_null() { Listed::Omitted } else { Listed::Itself });
        assert_eq!(omitted.unwrap().strings, [json!("a")]);
    }
}
