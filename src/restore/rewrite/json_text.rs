//! Any JSON value, or a free-form object, for a provider that needs a `type` everywhere and closes
//! every object: a string holding the value's JSON text; restore parses it, refusing text that
//! is not JSON of the declared kind.

use super::Faults;
use crate::restore::check::Check;
use crate::restore::types::TypeSet;
use crate::vocab::json_type::kind;
use serde_json::Value;
use std::fmt::Write as _;

/// Forward: the note that tells the model what the string holds (`types`, the checks restore
/// runs on the parsed value). The caller writes the `type` (`string`, with null where the
/// original admits it beside an object).
pub(crate) fn write(types: TypeSet, checks: &[Check]) -> String {
    // Null beside the text is sent as `null`, not as text.
    let what = if types == TypeSet::ALL {
        "any JSON value".to_owned()
    } else {
        types
            .intersection(TypeSet::of_type(&serde_json::json!([
                "object", "array", "string", "number", "boolean"
            ])))
            .describe()
    };
    let mut text = format!("Written as a string holding the JSON text of {what}");
    if !checks.is_empty() {
        let _ = write!(text, " ({})", checks.iter().map(Check::describe).collect::<Vec<_>>().join("; "));
    }
    text.push('.');
    text
}

/// Inverse: the value the text holds, which must be of `types`.
pub(crate) fn restore(types: TypeSet, text: String, faults: &mut impl Faults) -> Value {
    let parsed = if faults.big_integers() {
        match crate::restore::bound::tokenize_big_integers(&text) {
            Err(()) => {
                faults.fault(format!(
                    "must be JSON text of {} without the character U+FDD1, which stands for an integer \
                     past 64 bits here",
                    types.describe()
                ));
                return Value::String(text);
            }
            Ok(Some(tokenized)) => serde_json::from_str::<Value>(&tokenized),
            Ok(None) => serde_json::from_str::<Value>(&text),
        }
    } else {
        serde_json::from_str::<Value>(&text)
    };
    match parsed {
        Ok(v) if types.contains(&v) => v,
        Ok(v) => {
            faults.fault(format!("must be JSON text of {}, got {}", types.describe(), kind(&v)));
            Value::String(text)
        }
        Err(e) => {
            faults.fault(format!("must be JSON text of {}, and it does not parse: {e}", types.describe()));
            Value::String(text)
        }
    }
}

/// Forward map: the value's JSON text; a `null` stays `null` where only an object is written as
/// text (the provider's schema admits null beside the string there).
pub(crate) fn encode(types: TypeSet, value: Value) -> Value {
    if types.contains(&value) && !(value.is_null() && types != TypeSet::ALL) {
        // A big-integer token is written as its integer's digits, which restore reads back.
        Value::String(crate::restore::bound::untokenize(value.to_string()))
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    #[test]
    fn the_note_says_what_the_text_holds() {
        assert_eq!(write(TypeSet::ALL, &[]), "Written as a string holding the JSON text of any JSON value.");
        let object = TypeSet::of_type(&json!(["object", "null"]));
        assert_eq!(write(object, &[]), "Written as a string holding the JSON text of an object.");
        let union = TypeSet::of_type(&json!(["string", "object", "array", "null"]));
        assert_eq!(
            write(union, &[]),
            "Written as a string holding the JSON text of an object, an array or a string."
        );
    }

    #[test]
    fn restore_parses_the_text_and_refuses_another_kind_or_no_json() {
        let object = TypeSet::of_type(&json!("object"));
        let mut faults = Collect::default();
        assert_eq!(
            restore(object, encode(object, json!({"a": [1]})).as_str().unwrap().to_owned(), &mut faults),
            json!({"a": [1]})
        );
        assert_eq!(restore(object, "[1]".into(), &mut faults), json!("[1]"));
        assert_eq!(restore(TypeSet::ALL, "{".into(), &mut faults), json!("{"));
        assert_eq!(faults.0[0], "must be JSON text of an object, got an array");
        assert!(
            faults.0[1].starts_with("must be JSON text of any JSON value, and it does not parse: "),
            "{:?}",
            faults.0
        );
        assert_eq!(encode(TypeSet::of_type(&json!(["object", "null"])), Value::Null), Value::Null);
        assert_eq!(encode(TypeSet::ALL, Value::Null), json!("null"));
    }
}
