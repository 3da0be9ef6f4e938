//! [`JsonType`]: the seven JSON Schema type names, and the one rule every part of the crate reads a
//! `type` name by (the three Python spellings tool schemas write included).

use serde_json::Value;
use std::fmt;
use std::str::FromStr;

/// A JSON Schema type name.
///
/// Displays as the name JSON Schema uses (`array`), parses from it, and [`JsonType::as_str`]
/// gives it without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsonType {
    /// `object`
    Object,
    /// `array`
    Array,
    /// `string`
    String,
    /// `number`
    Number,
    /// `integer`
    Integer,
    /// `boolean`
    Boolean,
    /// `null`
    Null,
}

impl JsonType {
    /// Every type, in the order JSON Schema's specification lists them.
    pub const ALL: [JsonType; 7] = [
        JsonType::Null,
        JsonType::Boolean,
        JsonType::Object,
        JsonType::Array,
        JsonType::Number,
        JsonType::String,
        JsonType::Integer,
    ];

    /// The JSON Schema name of the type.
    pub const fn as_str(self) -> &'static str {
        match self {
            JsonType::Object => "object",
            JsonType::Array => "array",
            JsonType::String => "string",
            JsonType::Number => "number",
            JsonType::Integer => "integer",
            JsonType::Boolean => "boolean",
            JsonType::Null => "null",
        }
    }

    /// A `type` name as tool schemas spell it: one of the seven JSON Schema names, or one of the
    /// Python spellings the Berkeley Function Calling Leaderboard writes, read as the JSON type they
    /// stand for (`dict` as `object`, `float` as `number`, `tuple` as `array`). Anything else
    /// (`any`, `String`, `long`, ...) is `None`: it names no JSON type, and reading it as one would
    /// be a guess.
    ///
    /// This is the one rule every part of the crate applies to type names: the pipeline rewrites
    /// the three spellings and refuses the rest, `self_contained_input_schema` does the same, and
    /// [`declared_type`](crate::declared_type) answers with the type read here.
    ///
    /// ```
    /// use toolschema::JsonType;
    /// assert_eq!(JsonType::read("dict"), Some(JsonType::Object));
    /// assert_eq!(JsonType::read("integer"), Some(JsonType::Integer));
    /// assert_eq!(JsonType::read("any"), None);
    /// ```
    #[inline]
    pub fn read(name: &str) -> Option<JsonType> {
        Self::read_spelling(name).map(|(t, _)| t)
    }

    /// Whether `name` is one of the foreign spellings [`JsonType::read`] accepts besides the seven
    /// JSON Schema names (`dict`, `float`, `tuple`).
    #[inline]
    pub fn is_foreign_spelling(name: &str) -> bool {
        matches!(Self::read_spelling(name), Some((_, Spelling::Foreign)))
    }

    /// [`JsonType::read`], saying whether `name` is the JSON Schema name or a foreign spelling:
    /// the one list of names, which `read`, `is_foreign_spelling` and `FromStr` take theirs from.
    ///
    /// A `match` on the length first, as in the keyword table (`vocab::keyword`): every schema's
    /// `type` is read through here, and each name then costs a word comparison or two, not a
    /// string comparison per candidate.
    #[inline(always)]
    pub(crate) fn read_spelling(name: &str) -> Option<(JsonType, Spelling)> {
        use Spelling::{Foreign, Json};
        Some(match name.len() {
            4 => match name {
                "null" => (JsonType::Null, Json),
                "dict" => (JsonType::Object, Foreign),
                _ => return None,
            },
            5 => match name {
                "array" => (JsonType::Array, Json),
                "float" => (JsonType::Number, Foreign),
                "tuple" => (JsonType::Array, Foreign),
                _ => return None,
            },
            6 => match name {
                "object" => (JsonType::Object, Json),
                "string" => (JsonType::String, Json),
                "number" => (JsonType::Number, Json),
                _ => return None,
            },
            7 => match name {
                "integer" => (JsonType::Integer, Json),
                "boolean" => (JsonType::Boolean, Json),
                _ => return None,
            },
            _ => return None,
        })
    }

    /// The type of a JSON value (`Integer` for a number without a fractional part that serde_json
    /// holds as an integer).
    pub fn of(value: &Value) -> JsonType {
        match value {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(n) if n.is_f64() => JsonType::Number,
            Value::Number(_) => JsonType::Integer,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }
}

impl fmt::Display for JsonType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the seven JSON Schema types.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a JSON Schema type; use one of `object`, `array`, `string`, `number`, \
     `integer`, `boolean`, `null`"
)]
pub struct UnknownJsonType(pub String);

impl FromStr for JsonType {
    type Err = UnknownJsonType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match JsonType::read_spelling(s) {
            Some((t, Spelling::Json)) => Ok(t),
            _ => Err(UnknownJsonType(s.to_owned())),
        }
    }
}

/// How a name [`JsonType::read`] accepts is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// The JSON Schema name (`number`).
    Json,
    /// A foreign spelling of it (`float`).
    Foreign,
}

/// What a value is, in the words a message uses (`an array`, `a string`, `null`).
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_is_the_seven_json_names_and_the_three_python_spellings() {
        for t in JsonType::ALL {
            assert_eq!(JsonType::read(t.as_str()), Some(t));
            assert!(!JsonType::is_foreign_spelling(t.as_str()));
        }
        for (name, t) in [("dict", JsonType::Object), ("float", JsonType::Number), ("tuple", JsonType::Array)]
        {
            assert_eq!(JsonType::read(name), Some(t));
            assert!(JsonType::is_foreign_spelling(name));
            assert!(name.parse::<JsonType>().is_err());
        }
        for name in ["", "any", "Object", "nul", "nulls", "integers", "Float", "list", "int"] {
            assert_eq!(JsonType::read(name), None, "{name}");
            assert!(!JsonType::is_foreign_spelling(name));
        }
    }

    #[test]
    fn json_type_round_trips_through_its_name() {
        for t in JsonType::ALL {
            assert_eq!(t.as_str().parse::<JsonType>(), Ok(t));
            assert_eq!(t.to_string(), t.as_str());
        }
        let err = "dict".parse::<JsonType>().unwrap_err();
        assert!(err.to_string().starts_with("`dict` is not a JSON Schema type"), "{err}");
    }
}
