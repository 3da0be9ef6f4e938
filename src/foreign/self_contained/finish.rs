//! The root's final shape ([`finish`]) and the size check on the finished output
//! ([`within_budget`]).

use super::*;

/// [`finish`], then [`within_budget`].
#[inline]
pub(super) fn finish_within_budget(
    built: Value,
    bound: Option<u64>,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<Value, Error> {
    within_budget(finish(built, tool_name)?, bound, tool_name, options)
}

/// The size check on a finished output: the exact size is counted only when a bound (`bound`,
/// else [`json_bound`], which reads no string and formats no number) passes the budget.
#[inline]
pub(super) fn within_budget(
    out: Value,
    bound: Option<u64>,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<Value, Error> {
    let max = options.max_bytes as u64;
    if bound.is_some_and(|b| b <= max) || json_bound(&out) <= max {
        return Ok(out);
    }
    let size = json_len(&out);
    if size > max {
        drop_any_depth(out);
        return Err(Error::TooLarge {
            tool: tool_name.to_owned(),
            pointer: String::new(),
            size,
            max_bytes: options.max_bytes,
        });
    }
    Ok(out)
}

/// The most [`finish`] adds to a schema's compact size: `"type":"object",` (16 bytes, or 2 more
/// than a `"dict"` it replaces), `"properties":{},` (16) and `"required":[],` (14).
pub(super) const FINISH_GROWTH: u64 = 64;

/// Whether a root `type` says object, as [`JsonType::read`] reads it: `"object"`, `"dict"` (the
/// Python spelling BFCL writes), or a list that includes one of them (an optional root collapses
/// to it).
pub(super) fn root_type_ok(t: &Value) -> bool {
    let object = |t: &Value| t.as_str().and_then(JsonType::read) == Some(JsonType::Object);
    match t {
        Value::Array(ts) => ts.iter().any(object),
        t => object(t),
    }
}

/// The root's `type`, checked before anything else: a name that is no type (or a value that is
/// no name) is [`type_error`]'s error, a type other than object [`Error::RootNotObject`].
#[inline]
pub(super) fn check_root_type(t: Option<&Value>, tool: &str) -> Result<(), Error> {
    match t {
        Some(t) if !root_type_ok(t) => Err(match type_names(t) {
            TypeNames::Bad => type_error(t, &Trail::Root, tool),
            _ => Error::RootNotObject {
                tool: tool.to_owned(),
                pointer: String::new(),
                found: canonical::to_string(t),
            },
        }),
        _ => Ok(()),
    }
}

/// The root's final shape: `type: "object"`, `properties`, `required`, no description. Under a
/// `$schema` of draft-04 (or -03), which forbids an empty `required`, an empty `required` is left
/// out instead: nothing required is said by its absence.
///
/// What it removes, replaces or refuses is freed without recursion ([`drop_any_depth`]): a
/// value taken by [`self_contained_input_schema_owned`] may nest past any depth under keywords
/// no walk descends into (`const`, `default`, an annotation).
#[inline]
pub(super) fn finish(built: Value, tool: &str) -> Result<Value, Error> {
    let mut root = match built {
        Value::Object(m) => m,
        Value::Bool(true) => Map::new(),
        other => {
            let found = describe(&other);
            drop_any_depth(other);
            return Err(Error::NotAnObject { tool: tool.to_owned(), pointer: String::new(), found });
        }
    };
    match finish_root(&mut root, tool) {
        Ok(()) => Ok(Value::Object(root)),
        Err(e) => {
            drop_any_depth(Value::Object(root));
            Err(e)
        }
    }
}

/// The error of a root `properties` that is not a map (`found` says what it is).
pub(super) fn malformed_root_properties(tool: &str, found: &str) -> Error {
    Error::Malformed {
        tool: tool.to_owned(),
        pointer: "/properties".to_owned(),
        message: format!("`properties` must be a map from names to schemas, found {found}"),
    }
}

/// [`finish`] on an object root, in place.
pub(super) fn finish_root(root: &mut Map<String, Value>, tool: &str) -> Result<(), Error> {
    // One pass over the root's keys rather than a lookup per keyword. `type` becomes "object"
    // (checked to say object first; the string is kept when it already is); a malformed
    // `properties` is reported after that check, as a `null` one and a missing one are replaced.
    let (mut typed, mut described, mut required) = (false, false, false);
    let mut empty_required_allowed = true;
    // Whether `properties` is a map (`Ok(false)`: missing or `null`), or what it is instead.
    let mut properties: Result<bool, &'static str> = Ok(false);
    for (key, v) in root.iter_mut() {
        match key.as_str() {
            "type" => {
                typed = true;
                if !matches!(v, Value::String(t) if t == "object") {
                    check_root_type(Some(v), tool)?;
                    drop_any_depth(std::mem::replace(v, Value::String("object".to_owned())));
                }
            }
            "description" => described = true,
            "$schema" => {
                empty_required_allowed =
                    !matches!(v, Value::String(uri) if !Draft::named(uri).allows_empty_required());
            }
            "properties" => {
                properties = match v {
                    Value::Null => Ok(false),
                    Value::Object(_) => Ok(true),
                    other => Err(describe(other)),
                }
            }
            "required" => required = !v.is_null(),
            _ => {}
        }
    }
    match properties {
        Err(found) => return Err(malformed_root_properties(tool, found)),
        Ok(true) => {}
        Ok(false) => {
            root.insert("properties".to_owned(), Value::Object(Map::new()));
        }
    }
    if !typed {
        root.insert("type".to_owned(), Value::String("object".to_owned()));
    }
    if described && let Some(d) = root.remove("description") {
        drop_any_depth(d);
    }
    if !empty_required_allowed {
        if root.get("required").and_then(Value::as_array).is_some_and(Vec::is_empty) {
            root.remove("required");
        }
    } else if !required {
        root.insert("required".to_owned(), Value::Array(Vec::new()));
    }
    Ok(())
}
