//! [`TypeSet`]: which JSON types a schema admits, as a set of bits, for the plan's shapes and
//! the JSON text rewrite.

use serde_json::Value;

/// A set of JSON types, `integer` within `number`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TypeSet(pub(super) u8);

impl TypeSet {
    pub(crate) const ALL: TypeSet = TypeSet(0x7f);
    pub(crate) const OBJECT: TypeSet = TypeSet(4);
    pub(crate) const NULL: TypeSet = TypeSet(1);

    fn bit(name: &str) -> u8 {
        match name {
            "null" => 1,
            "boolean" => 2,
            "object" => 4,
            "array" => 8,
            "number" => 16 | 32,
            "integer" => 32,
            "string" => 64,
            _ => 0,
        }
    }

    /// The set a `type` keyword names.
    pub(crate) fn of_type(t: &Value) -> TypeSet {
        match t {
            Value::String(s) => TypeSet(Self::bit(s)),
            Value::Array(names) => {
                TypeSet(names.iter().filter_map(Value::as_str).fold(0, |m, n| m | Self::bit(n)))
            }
            _ => TypeSet::ALL,
        }
    }

    /// The set holding one value's type.
    pub(crate) fn of_value(v: &Value) -> TypeSet {
        TypeSet(match v {
            Value::Null => 1,
            Value::Bool(_) => 2,
            Value::Object(_) => 4,
            Value::Array(_) => 8,
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() != 0.0) => 16,
            Value::Number(_) => 32,
            // A big-integer token is an integer (see `super::bound`).
            Value::String(_) if super::BigInt::of_token(v).is_some() => 32,
            Value::String(_) => 64,
        })
    }

    pub(crate) fn contains(self, v: &Value) -> bool {
        self.0 & TypeSet::of_value(v).0 != 0
    }

    pub(crate) fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    pub(crate) fn intersection(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & other.0)
    }

    /// The names, for a description: `an object`, `an array or null`.
    pub(crate) fn describe(self) -> String {
        let names: Vec<&str> = [
            (4, "an object"),
            (8, "an array"),
            (64, "a string"),
            (16, "a number"),
            (32, "an integer"),
            (2, "a boolean"),
            (1, "null"),
        ]
        .into_iter()
        .filter(|(b, _)| self.0 & b != 0 && !(*b == 32 && self.0 & 16 != 0))
        .map(|(_, n)| n)
        .collect();
        match names.as_slice() {
            [] => "nothing".into(),
            _ if self == TypeSet::ALL => "any JSON value".into(),
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        }
    }
}
