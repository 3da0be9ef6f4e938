//! `declared_type` and `declared_types` on Python objects where they are.
//!
//! The library's [`toolschema::declared_type`] reads `serde_json::Value`s; calling it would mean
//! converting the property, and for a `$ref` the whole root, on every call, so that a
//! normaliser's loop over a tool's properties would cost properties x schema size. Here the same
//! walk reads the `dict`s, `list`s and `str`s themselves: a call touches only the objects on its
//! path (the property, the union members, the reference's steps), so its cost does not depend on
//! the root's size.
//!
//! The rules are the library's, step for step (see its documentation): one type name, or a list
//! with one besides `"null"`, read by [`JsonType::read`]; else a string `$ref` followed (any local
//! JSON pointer, escapes decoded by [`toolschema::refs::parse_local`]), one already followed on
//! this path falling through to the union; else the one member of an `anyOf` (or, when that is
//! absent or empty, a `oneOf`) that is not `{"type": "null"}`; at most [`MAX_HOPS`] steps. Under a
//! root whose `$schema` is draft-07 or earlier a `$ref` is read alone
//! ([`reads_ref_alone`]). A reference already followed is told by the object's
//! identity, as the library tells it by address. Any other mapping is read as a `dict` is.
//! Nothing raises: an object that cannot be read answers `None`.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyMapping, PyString, PyTuple};
use toolschema::JsonType;
use toolschema::foreign::{MAX_HOPS, reads_ref_alone};

/// `obj[key]` for a `dict` or another mapping; `None` when absent or `obj` is no mapping. The
/// keywords are interned `str`s (`intern!`), made once: a lookup then hashes nothing.
fn get<'py>(obj: &Bound<'py, PyAny>, key: &Bound<'py, PyString>) -> Option<Bound<'py, PyAny>> {
    if let Ok(dict) = obj.cast::<PyDict>() {
        return dict.get_item(key).ok().flatten();
    }
    let mapping = obj.cast::<PyMapping>().ok()?;
    mapping.get_item(key).ok()
}

/// `obj[key]` for a name that is no keyword (a definition's, a pointer's step).
fn get_named<'py>(obj: &Bound<'py, PyAny>, key: &str) -> Option<Bound<'py, PyAny>> {
    get(obj, &PyString::new(obj.py(), key))
}

fn is_mapping(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyDict>() || obj.cast::<PyMapping>().is_ok()
}

/// The items of a JSON array (a `list` or `tuple`), or `None`.
fn items<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(list) = obj.cast::<PyList>() {
        return Some(list.iter().collect());
    }
    obj.cast::<PyTuple>().ok().map(|t| t.iter().collect())
}

fn text<'a>(obj: &'a Bound<'_, PyAny>) -> Option<std::borrow::Cow<'a, str>> {
    obj.cast::<PyString>().ok()?.to_cow().ok()
}

/// The target of a local reference in `root`, or `None`.
fn resolve<'py>(root: &Bound<'py, PyAny>, reference: &str) -> Option<Bound<'py, PyAny>> {
    let py = root.py();
    // `#/$defs/Name` and `#/definitions/Name`, as nearly every generator writes them.
    if let Some(rest) = reference.strip_prefix("#/")
        && !rest.bytes().any(|b| b == b'%' || b == b'~')
        && let Some((map, name)) = rest.split_once('/')
        && !name.contains('/')
    {
        let defs = match map {
            "$defs" => get(root, intern!(py, "$defs")),
            "definitions" => get(root, intern!(py, "definitions")),
            _ => None,
        };
        if let Some(defs) = defs {
            return if is_mapping(&defs) { get_named(&defs, name) } else { None };
        }
    }
    let tokens = toolschema::refs::parse_local(reference).ok()?;
    let mut cur = root.clone();
    for token in &tokens {
        cur = if is_mapping(&cur) {
            get_named(&cur, token)?
        } else {
            let all = items(&cur)?;
            if token.len() > 1 && token.starts_with('0') {
                return None;
            }
            all.into_iter().nth(token.parse::<usize>().ok()?)?
        };
    }
    Some(cur)
}

/// `{"type": "null", ...}`: the member an optional union adds.
fn is_null_member(member: &Bound<'_, PyAny>) -> bool {
    is_mapping(member)
        && get(member, intern!(member.py(), "type")).is_some_and(|t| text(&t).as_deref() == Some("null"))
}

/// The one member of an `anyOf` (or, when that is absent or empty, a `oneOf`) that is not
/// `{"type": "null"}`, as the library's `optional_member` picks it.
fn optional_member<'py>(node: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    let py = node.py();
    let any_of = get(node, intern!(py, "anyOf"));
    let members = match any_of.as_ref().map(|a| (items(a), a.is_truthy().unwrap_or(true))) {
        Some((Some(m), _)) if !m.is_empty() => m,
        // A malformed `anyOf` is not passed over for the `oneOf` beside it.
        Some((None, true)) => return None,
        _ => items(&get(node, intern!(py, "oneOf"))?)?,
    };
    let mut real = members.into_iter().filter(|m| !is_null_member(m));
    match (real.next(), real.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// Whether `root`'s `$schema` has references read alone (draft-07 and earlier).
fn legacy(root: &Bound<'_, PyAny>) -> bool {
    is_mapping(root)
        && get(root, intern!(root.py(), "$schema"))
            .is_some_and(|uri| text(&uri).is_some_and(|u| reads_ref_alone(&u)))
}

/// The one JSON type `prop` declares, with `root` whose definitions a reference names.
pub fn declared_type(prop: &Bound<'_, PyAny>, root: &Bound<'_, PyAny>) -> Option<JsonType> {
    declared_type_with(prop, root, legacy(root))
}

fn declared_type_with(prop: &Bound<'_, PyAny>, root: &Bound<'_, PyAny>, legacy: bool) -> Option<JsonType> {
    let py = prop.py();
    let mut cur = prop.clone();
    // References followed on this path, by their target's identity: a cycle ends the walk.
    let mut followed: Vec<*mut pyo3::ffi::PyObject> = Vec::new();
    for _ in 0..MAX_HOPS {
        if !is_mapping(&cur) {
            return None;
        }
        let reference = get(&cur, intern!(py, "$ref"));
        let reference_alone = legacy && reference.is_some();
        if !reference_alone && let Some(t) = get(&cur, intern!(py, "type")) {
            if let Some(name) = text(&t) {
                return JsonType::read(&name);
            }
            if let Some(types) = items(&t) {
                let mut real = types.iter().filter(|t| text(t).as_deref() != Some("null"));
                return match (real.next(), real.next()) {
                    (Some(only), None) => text(only).and_then(|name| JsonType::read(&name)),
                    _ => None,
                };
            }
        }
        if let Some(reference) = reference.as_ref().and_then(text) {
            let target = resolve(root, &reference)?;
            let address = target.as_ptr();
            if !followed.contains(&address) {
                followed.push(address);
                cur = target;
                continue;
            }
        }
        if reference_alone {
            return None;
        }
        cur = optional_member(&cur)?;
    }
    None
}

/// Each root property's declared type, in the order `schema["properties"]` lists them; empty
/// when there are none.
pub fn declared_types<'py>(py: Python<'py>, schema: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    if !is_mapping(schema) {
        return Ok(out);
    }
    let Some(properties) = get(schema, intern!(py, "properties")) else { return Ok(out) };
    let legacy = legacy(schema);
    let entries: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = if let Ok(dict) = properties.cast::<PyDict>() {
        dict.iter().collect()
    } else if let Ok(mapping) = properties.cast::<PyMapping>() {
        match mapping.items() {
            Ok(list) => list.iter().filter_map(|item| item.extract().ok()).collect(),
            Err(_) => return Ok(out),
        }
    } else {
        return Ok(out);
    };
    for (name, prop) in entries {
        if name.is_instance_of::<PyString>() {
            out.set_item(name, declared_type_with(&prop, schema, legacy).map(JsonType::as_str))?;
        }
    }
    Ok(out)
}
