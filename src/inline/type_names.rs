//! The names a `type` value gives: JSON Schema's, or foreign spellings (`dict`, `float`,
//! `tuple`) that the output writes as the JSON types they stand for, and the error for a name that
//! is no type.

use super::*;
use crate::canonical;
use crate::vocab::json_type::{JsonType, Spelling};

/// What a `type` value names, as [`JsonType::read`] reads each name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypeNames {
    /// JSON Schema type names only: the output keeps them as written.
    Json,
    /// Some name is a foreign spelling (`dict`, `float`, `tuple`) the output writes as the JSON
    /// name it stands for ([`rewrite_type_names`]).
    Foreign,
    /// A name that is no type (`any`, `String`): an error ([`type_error`]).
    Bad,
}

/// What a `type` value names. A list is read name by name. A value that is no name (`5`, a
/// list's `null`) is left as written: this reads names only.
#[inline(always)]
pub(crate) fn type_names(v: &Value) -> TypeNames {
    match v {
        Value::String(name) => name_kind(name),
        Value::Array(names) => {
            let mut kind = TypeNames::Json;
            for name in names.iter().filter_map(Value::as_str) {
                match name_kind(name) {
                    TypeNames::Bad => return TypeNames::Bad,
                    TypeNames::Foreign => kind = TypeNames::Foreign,
                    TypeNames::Json => {}
                }
            }
            kind
        }
        _ => TypeNames::Json,
    }
}

#[inline(always)]
fn name_kind(name: &str) -> TypeNames {
    match JsonType::read_spelling(name) {
        Some((_, Spelling::Json)) => TypeNames::Json,
        Some((_, Spelling::Foreign)) => TypeNames::Foreign,
        None => TypeNames::Bad,
    }
}

/// The most bytes [`rewrite_type_names`] adds to a `type` value's compact size: two for each
/// name it rewrites (`"dict"` to `"object"`; `"float"` to `"number"` adds one, `"tuple"` to
/// `"array"` none). A list it rewrites loses its duplicates, which only shrinks it.
pub(crate) fn type_names_growth(v: &Value) -> u64 {
    match v {
        Value::String(name) => 2 * u64::from(JsonType::is_foreign_spelling(name)),
        Value::Array(names) => {
            2 * names.iter().filter(|n| n.as_str().is_some_and(JsonType::is_foreign_spelling)).count() as u64
        }
        _ => 0,
    }
}

/// A `type` value with every foreign spelling written as the JSON name [`JsonType::read`] reads
/// it as (`"float"` becomes `"number"`); a list then keeps the first of each name, since
/// `["float", "number"]` would otherwise name `number` twice, which JSON Schema forbids. Called
/// only on a value [`type_names`] found [`TypeNames::Foreign`].
pub(crate) fn rewrite_type_names(v: &mut Value) {
    let json_name = |name: &mut Value| {
        if let Value::String(s) = name
            && let Some(t) = JsonType::read(s)
            && t.as_str() != s
        {
            t.as_str().clone_into(s);
        }
    };
    match v {
        Value::Array(names) => {
            names.iter_mut().for_each(json_name);
            let mut seen: Vec<Value> = Vec::with_capacity(names.len());
            names.retain(|name| {
                let first = !seen.contains(name);
                if first {
                    seen.push(name.clone());
                }
                first
            });
        }
        name => json_name(name),
    }
}

/// Where and what the name is in a `type` value [`type_names`] found [`TypeNames::Bad`], at
/// `trail` (the schema object holding it): the first name that is no type, at its own pointer
/// (`.../type`, or `.../type/1` in a list).
pub(crate) fn unknown_type(v: &Value, trail: &Trail<'_>) -> (String, String) {
    let at = Trail::Key(trail, "type");
    let first_unknown = v.as_array().and_then(|names| {
        names.iter().enumerate().find_map(|(i, name)| match name {
            Value::String(s) if JsonType::read(s).is_none() => Some((i, s)),
            _ => None,
        })
    });
    match (v, first_unknown) {
        (_, Some((i, name))) => (Trail::Key(&at, &i.to_string()).render(), name.clone()),
        (Value::String(name), None) => (at.render(), name.clone()),
        // `type_names` found no name that is no type: not reached.
        (other, None) => (at.render(), canonical::to_string(other)),
    }
}
