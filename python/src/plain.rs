//! `self_contained_input_schema` on a schema without references, read and copied as Python
//! objects: no `serde_json::Value` is built.
//!
//! Most tool schemas (every MCP and BFCL schema of the shared corpus but a few) hold no `$ref`,
//! no `$defs` and no union: the library's answer is then the input itself without its titles,
//! its root finished (`type: "object"`, `properties`, `required`, no description) and each
//! foreign type name below the root written as its JSON name (`"float"` as `"number"`); the
//! library takes that answer on its plain path ([`toolschema::self_contained_input_schema`]'s module docs). Reached
//! through a `Value`, that answer cost a Rust `String` and a hashed map insert for every key and
//! text on the way in, and a new Python `str` for each on the way out: four fifths of a call.
//! Here the same walk reads the `dict`s and `list`s themselves, and the output is new `dict`s and
//! `list`s holding the input's own `str`, `int` and `float` objects (immutable, so sharing them is
//! invisible; a `dict` key keeps its cached hash, so no key is hashed again).
//!
//! Each key is read through the library's own table ([`toolschema::foreign::plain_role`]), so the
//! two walks agree on which keys send a schema to the general path, which the output drops and
//! where the subschemas are. This walk is stricter than the library's survey: wherever it cannot
//! vouch for giving the very answer the converting path gives, it gives up ([`None`]) and that
//! path runs instead, which reports any error. It gives up on
//!
//! - a key the library's plain path defers or rewrites beyond dropping it: `$ref`, `$defs`,
//!   `definitions`, `$dynamicRef`, `$recursiveRef`, `anyOf`, `oneOf`, a `type` list, a `title`
//!   that is a list or an object (any other `title` is dropped, as the library drops it);
//! - any object that is not exactly a `dict`, `list`, `str`, `int`, `float`, `bool` or `None` (a
//!   subclass, a tuple, another mapping), a `str` that is not Unicode or that starts with one of
//!   the noncharacters the conversion keeps aside (U+FDD0, U+FDD1), an `int` outside the 64-bit
//!   range, a NaN or infinite `float` (each has its own treatment in [`crate::convert`]);
//! - a `type` that is no JSON type name, a `required` that is not a list of names, a root that
//!   does not say object or whose `properties` is not a map;
//! - a subschema past the library's depth budget, a value nested past [`MAX_DATA_NESTING`]
//!   levels beside its subschema, and an output that might pass the library's size budget (an
//!   upper bound of its compact size, counted as it copies: six bytes for each byte of text).
//!
//! The keys of each copied object come out as [`crate::convert::to_python_ordered`] writes the
//! library's answer: sorted, but a `properties` map's in the input's order.

use crate::convert::{self, MARK};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use toolschema::JsonType;
use toolschema::foreign::{PlainRole, allows_empty_required, plain_role};
use toolschema::restore::BIG_INTEGER_MARK;
use toolschema::walk::Shape;

/// How deeply a value beside a subschema (a `default`, an `enum`, an annotation) may nest here:
/// the depth the library's survey sizes such a value to before it defers to the general path.
pub const MAX_DATA_NESTING: usize = 32;

/// The library's depth budget for subschemas.
const MAX_DEPTH: usize = toolschema::SelfContainedOptions::DEFAULT_MAX_DEPTH;

/// The largest bound of the output accepted here: the library's size budget less what finishing
/// the root may add (its own margin for the same step).
const MAX_BOUND: u64 = toolschema::SelfContainedOptions::DEFAULT_MAX_BYTES as u64 - 64;

/// The library's answer for `schema`, built from the Python objects themselves, or `None` where
/// this walk cannot vouch for it (see the module docs): then convert the schema and call the
/// library.
pub fn self_contained<'py>(schema: &Bound<'py, PyAny>) -> Option<Bound<'py, PyDict>> {
    let root = exact_dict(schema)?;
    // A schema with definitions (most pydantic models') is given up before anything is copied.
    for (key, _) in root.iter() {
        let key = exact_str(&key)?;
        if matches!(plain_role(key.to_str().ok()?), PlainRole::Stop | PlainRole::Union) {
            return None;
        }
    }
    let mut copy = Copy { bound: 0 };
    let out = copy.object(root, 0, false, true)?;
    (copy.bound <= MAX_BOUND).then_some(out)
}

/// The walk's state: the bound of the output's compact size so far.
struct Copy {
    bound: u64,
}

impl Copy {
    /// Adds to the size bound.
    fn count(&mut self, n: u64) {
        self.bound = self.bound.saturating_add(n);
    }

    /// Adds an item's share of its container's brackets and commas, and an entry's key.
    fn count_key(&mut self, key: &str) {
        self.count(text_bound(key) + 2);
    }

    /// A schema object at `level`; `keep`: its keys keep their order (it stands under a
    /// `properties` key of an object that is sorted); `root`: finished as the library finishes
    /// the root.
    fn object<'py>(
        &mut self,
        node: &Bound<'py, PyDict>,
        level: usize,
        keep: bool,
        root: bool,
    ) -> Option<Bound<'py, PyDict>> {
        let py = node.py();
        let entries: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = node.iter().collect();
        let mut out: Vec<(&str, Bound<'py, PyAny>, Bound<'py, PyAny>)> =
            Vec::with_capacity(entries.len() + 3);
        let (mut typed, mut listed, mut has_properties, mut empty_required_allowed) =
            (false, false, false, true);
        self.count(2);
        for (key, value) in &entries {
            let name = exact_str(key)?.to_str().ok()?;
            let child_keep = !keep && name == "properties";
            let copied = match plain_role(name) {
                PlainRole::Stop | PlainRole::Union => return None,
                // Dropped, as the library's plain path drops it (which defers a title that is a
                // list or an object to the general path); read all the same, as it must convert.
                PlainRole::Title => {
                    if exact_list(value).is_some() || exact_dict(value).is_some() {
                        return None;
                    }
                    self.value(value, 0, child_keep)?;
                    continue;
                }
                PlainRole::Required => {
                    listed = true;
                    self.names(value)?
                }
                PlainRole::Type => {
                    typed = true;
                    self.type_name(value, level)?
                }
                PlainRole::Children(shape) => {
                    if root && name == "properties" {
                        has_properties = true;
                        if value.is_none() {
                            self.count(2);
                            PyDict::new(py).into_any()
                        } else {
                            exact_dict(value)?;
                            self.children(shape, value, level, child_keep)?
                        }
                    } else {
                        self.children(shape, value, level, child_keep)?
                    }
                }
                PlainRole::Value => {
                    let copied = self.value(value, 0, child_keep)?;
                    if root && name == "description" {
                        // Read (it must convert) but dropped.
                        continue;
                    }
                    if root && name == "$schema" {
                        empty_required_allowed = match value.cast::<PyString>() {
                            Ok(uri) => allows_empty_required(uri.to_str().ok()?),
                            Err(_) => true,
                        };
                    }
                    copied
                }
            };
            self.count_key(name);
            out.push((name, key.clone(), copied));
        }
        if root {
            if !typed {
                out.push(("type", word(py, "type"), word(py, "object")));
            }
            if !has_properties {
                out.push(("properties", word(py, "properties"), PyDict::new(py).into_any()));
            }
            if !listed && empty_required_allowed {
                out.push(("required", word(py, "required"), PyList::empty(py).into_any()));
            } else if !empty_required_allowed
                && let Some(i) = out.iter().position(|(name, ..)| *name == "required")
                && out[i].2.cast::<PyList>().is_ok_and(|l| l.is_empty())
            {
                out.remove(i);
            }
            self.count(64);
        }
        if !keep && !out.is_sorted_by(|a, b| a.0 <= b.0) {
            out.sort_unstable_by(|a, b| a.0.cmp(b.0));
        }
        let dict = PyDict::new(py);
        for (_, key, value) in out {
            dict.set_item(key, value).ok()?;
        }
        Some(dict)
    }

    /// A `required` list: names only, copied.
    fn names<'py>(&mut self, value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
        let list = exact_list(value)?;
        let out = PyList::empty(value.py());
        self.count(2);
        for name in list.iter() {
            self.count(text_bound(plain_text(&name)?) + 1);
            out.append(name).ok()?;
        }
        Some(out.into_any())
    }

    /// A `type` that names one JSON type: as it is, or below the root a foreign spelling as its
    /// JSON name; the root's must say object and becomes `"object"`.
    fn type_name<'py>(&mut self, value: &Bound<'py, PyAny>, level: usize) -> Option<Bound<'py, PyAny>> {
        let name = plain_text(value)?;
        let read = JsonType::read(name)?;
        self.count(text_bound(name));
        if level == 0 {
            if read != JsonType::Object {
                return None;
            }
            return Some(if name == "object" { value.clone() } else { word(value.py(), "object") });
        }
        Some(if JsonType::is_foreign_spelling(name) {
            word(value.py(), read.as_str())
        } else {
            value.clone()
        })
    }

    /// A keyword's value that may hold subschemas (of `shape`), at `level`.
    fn children<'py>(
        &mut self,
        shape: Shape,
        value: &Bound<'py, PyAny>,
        level: usize,
        keep: bool,
    ) -> Option<Bound<'py, PyAny>> {
        if let Some(items) = exact_list(value) {
            if shape == Shape::Map {
                return self.value(value, 0, keep);
            }
            let out = PyList::empty(value.py());
            self.count(2);
            for item in items.iter() {
                let copied = self.member(&item, level, false)?;
                self.count(1);
                out.append(copied).ok()?;
            }
            return Some(out.into_any());
        }
        if let Some(map) = exact_dict(value) {
            if shape == Shape::Single {
                return self.member(value, level, keep);
            }
            if shape == Shape::Array {
                return self.value(value, 0, keep);
            }
            // A map of subschemas, in the input's order where `keep`.
            let py = value.py();
            let entries: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = map.iter().collect();
            let mut out: Vec<(&str, &Bound<'py, PyAny>, Bound<'py, PyAny>)> =
                Vec::with_capacity(entries.len());
            self.count(2);
            for (key, entry) in &entries {
                let name = exact_str(key)?.to_str().ok()?;
                let copied = self.member(entry, level, !keep && name == "properties")?;
                self.count_key(name);
                out.push((name, key, copied));
            }
            return into_dict(py, out, keep);
        }
        // A boolean schema, or a value of another shape than the keyword's: copied as it is.
        self.value(value, 0, keep)
    }

    /// A member of a keyword's value at `level`: a schema object one level down (within the
    /// depth budget), a boolean schema as it is, anything else copied as a value.
    fn member<'py>(
        &mut self,
        value: &Bound<'py, PyAny>,
        level: usize,
        keep: bool,
    ) -> Option<Bound<'py, PyAny>> {
        if let Some(node) = exact_dict(value) {
            if level >= MAX_DEPTH {
                return None;
            }
            return self.object(node, level + 1, keep, false).map(Bound::into_any);
        }
        self.value(value, 0, keep)
    }

    /// A value no walk enters (an annotation, a `default`, an `enum`), `depth` levels below its
    /// keyword: copied, its scalars shared.
    fn value<'py>(
        &mut self,
        value: &Bound<'py, PyAny>,
        depth: usize,
        keep: bool,
    ) -> Option<Bound<'py, PyAny>> {
        let py = value.py();
        if let Some(text) = exact_str(value) {
            self.count(text_bound(plain_text(text.as_any())?));
            return Some(value.clone());
        }
        if let Some(map) = exact_dict(value) {
            if depth >= MAX_DATA_NESTING {
                return None;
            }
            let entries: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = map.iter().collect();
            let mut out: Vec<(&str, &Bound<'py, PyAny>, Bound<'py, PyAny>)> =
                Vec::with_capacity(entries.len());
            self.count(2);
            for (key, entry) in &entries {
                let name = exact_str(key)?.to_str().ok()?;
                let copied = self.value(entry, depth + 1, !keep && name == "properties")?;
                self.count_key(name);
                out.push((name, key, copied));
            }
            return into_dict(py, out, keep);
        }
        if let Some(items) = exact_list(value) {
            if depth >= MAX_DATA_NESTING {
                return None;
            }
            let out = PyList::empty(py);
            self.count(2);
            for item in items.iter() {
                let copied = self.value(&item, depth + 1, false)?;
                self.count(1);
                out.append(copied).ok()?;
            }
            return Some(out.into_any());
        }
        if value.is_none() || is_bool(value) {
            self.count(5);
            return Some(value.clone());
        }
        if exactly(value, &raw mut pyo3::ffi::PyLong_Type) {
            let mut overflow = 0;
            // SAFETY: `value` is an `int`; the call sets no error when it only overflows.
            let _ = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(value.as_ptr(), &mut overflow) };
            // Past `i64`, an `int` is read as a `u64` if it fits one, else kept aside.
            if overflow < 0 || (overflow > 0 && value.extract::<u64>().is_err()) {
                return None;
            }
            self.count(20);
            return Some(value.clone());
        }
        if exactly(value, &raw mut pyo3::ffi::PyFloat_Type) {
            // SAFETY: `value` is a `float`.
            let v = unsafe { pyo3::ffi::PyFloat_AsDouble(value.as_ptr()) };
            if !v.is_finite() {
                return None;
            }
            self.count(24);
            return Some(value.clone());
        }
        None
    }
}

/// The text of a `str` that converts as it is (Unicode, not starting with a noncharacter the
/// conversion keeps aside), or `None`.
fn plain_text<'a>(value: &'a Bound<'_, PyAny>) -> Option<&'a str> {
    let text = exact_str(value)?.to_str().ok()?;
    (!text.starts_with([MARK, BIG_INTEGER_MARK])).then_some(text)
}

/// A bound of a string's compact JSON size: at most six bytes (`\u001f`) for each byte, and the
/// quotes.
fn text_bound(text: &str) -> u64 {
    6 * text.len() as u64 + 2
}

/// A `str` shared by every call: a keyword or a type name (see [`convert::string`]).
fn word<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyAny> {
    convert::string(py, s).into_any()
}

/// Whether `obj`'s type is `ty` itself.
fn exactly(obj: &Bound<'_, PyAny>, ty: *mut pyo3::ffi::PyTypeObject) -> bool {
    // SAFETY: `obj` is a live object, whose type pointer is always set.
    unsafe { pyo3::ffi::Py_TYPE(obj.as_ptr()) == ty }
}

fn exact_dict<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyDict>> {
    // SAFETY: the type is checked exactly before the unchecked cast.
    exactly(obj, &raw mut pyo3::ffi::PyDict_Type).then(|| unsafe { obj.cast_unchecked::<PyDict>() })
}

fn exact_list<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyList>> {
    // SAFETY: the type is checked exactly before the unchecked cast.
    exactly(obj, &raw mut pyo3::ffi::PyList_Type).then(|| unsafe { obj.cast_unchecked::<PyList>() })
}

fn exact_str<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyString>> {
    // SAFETY: the type is checked exactly before the unchecked cast.
    exactly(obj, &raw mut pyo3::ffi::PyUnicode_Type).then(|| unsafe { obj.cast_unchecked::<PyString>() })
}

fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    exactly(obj, &raw mut pyo3::ffi::PyBool_Type)
}

/// A copied dict's entries as a new dict: in key order where the walk sorts (`keep` false), in
/// the input's order otherwise.
fn into_dict<'py>(
    py: Python<'py>,
    mut out: Vec<(&str, &Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    keep: bool,
) -> Option<Bound<'py, PyAny>> {
    if !keep && !out.is_sorted_by(|a, b| a.0 <= b.0) {
        out.sort_unstable_by(|a, b| a.0.cmp(b.0));
    }
    let dict = PyDict::new(py);
    for (_, key, copied) in out {
        dict.set_item(key, copied).ok()?;
    }
    Some(dict.into_any())
}
