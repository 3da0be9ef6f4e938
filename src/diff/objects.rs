//! Object keywords: `required`, `properties` (a property added or removed compares against what
//! the other version says about names it does not list: `additionalProperties`,
//! `unevaluatedProperties`, `patternProperties`), and the keyed maps `patternProperties`,
//! `dependentSchemas`, `dependencies` and `dependentRequired`.

use super::{Differ, EMPTY, Mode, Raw, TRUE, is_any, is_false};
use crate::pointer::Pointer;
use crate::walk::Depth;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

fn is_list(v: Option<&Value>) -> bool {
    matches!(v, None | Some(Value::Array(_)))
}

fn names_of(v: Option<&Value>) -> BTreeSet<String> {
    v.and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The map of an object value, an empty map for an absent one, `None` for any other value.
fn map_or_empty(v: Option<&Value>) -> Option<&Map<String, Value>> {
    match v {
        None => Some(&EMPTY),
        Some(v) => v.as_object(),
    }
}

impl Differ<'_> {
    pub(super) fn required(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        fn names(v: Option<&Value>) -> BTreeSet<&str> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default()
        }
        let (x, y) = (names(a), names(b));
        for name in y.difference(&x) {
            self.at(ptr, "required", mode, Raw::Narrow, format!("`{name}` is now required"));
        }
        for name in x.difference(&y) {
            self.at(ptr, "required", mode, Raw::Widen, format!("`{name}` is no longer required"));
        }
    }

    pub(super) fn properties(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let op = o.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let np = n.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let names: BTreeSet<&str> = op.keys().chain(np.keys()).map(String::as_str).collect();
        for name in names {
            let mark = ptr.push("properties");
            ptr.push(name);
            match (op.get(name), np.get(name)) {
                (Some(a), Some(b)) => self.child(a, b, ptr, depth, mode),
                (None, Some(b)) => match fallback(o, name) {
                    Fallback::Closed => self.emit(
                        ptr,
                        mode,
                        Raw::Widen,
                        format!("property `{name}` added; the object was closed, so it was refused before"),
                    ),
                    Fallback::Open if is_any(b) => self.emit(
                        ptr,
                        mode,
                        Raw::Annotation,
                        format!("property `{name}` declared, accepting any value as before"),
                    ),
                    Fallback::Open => self.emit(
                        ptr,
                        mode,
                        Raw::Narrow,
                        format!("property `{name}` added; the object was open, so any value for it was accepted before"),
                    ),
                    Fallback::Schema(s) => self.child(s, b, ptr, depth, mode),
                    Fallback::Patterns => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("property `{name}` added; whether the old `patternProperties` covered it is not evaluated"),
                    ),
                },
                (Some(a), None) => match fallback(n, name) {
                    Fallback::Closed => self.emit(
                        ptr,
                        mode,
                        Raw::Narrow,
                        format!("property `{name}` removed from a closed object: a value that sets it is refused now"),
                    ),
                    Fallback::Open if is_any(a) => self.emit(
                        ptr,
                        mode,
                        Raw::Annotation,
                        format!("property `{name}` no longer declared; any value is still accepted"),
                    ),
                    Fallback::Open => self.emit(
                        ptr,
                        mode,
                        Raw::Widen,
                        format!("property `{name}` removed; the object is open, so any value for it is accepted now"),
                    ),
                    Fallback::Schema(s) => self.child(a, s, ptr, depth, mode),
                    Fallback::Patterns => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("property `{name}` removed; whether the new `patternProperties` cover it is not evaluated"),
                    ),
                },
                (None, None) => {}
            }
            ptr.truncate(mark);
        }
    }

    /// Maps of subschemas or name lists: `patternProperties`, `dependentSchemas`, `dependencies`,
    /// `dependentRequired`.
    pub(super) fn keyed(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let (Some(x), Some(y)) = (map_or_empty(a), map_or_empty(b)) else {
            return self.opaque(key, a, b, ptr, Mode::Conservative);
        };
        let names: BTreeSet<&str> = x.keys().chain(y.keys()).map(String::as_str).collect();
        for name in names {
            let (u, v) = (x.get(name), y.get(name));
            if u == v {
                continue;
            }
            let mark = ptr.push(key);
            ptr.push(name);
            if key == "patternProperties" && (u.is_none() || v.is_none()) {
                // Which names the pattern matches, and what `additionalProperties` did for them
                // before, is not evaluated.
                let what = if u.is_none() { "added" } else { "removed" };
                self.emit(
                    ptr,
                    mode,
                    Raw::Unknown,
                    format!("pattern `{name}` {what}; the names it matches are not evaluated"),
                );
            } else if key == "dependentRequired" || (key == "dependencies" && is_list(u) && is_list(v)) {
                let (p, q) = (names_of(u), names_of(v));
                for added in q.difference(&p) {
                    let msg = format!("`{added}` is now required when `{name}` is present");
                    self.emit(ptr, mode, Raw::Narrow, msg);
                }
                for removed in p.difference(&q) {
                    let msg = format!("`{removed}` is no longer required when `{name}` is present");
                    self.emit(ptr, mode, Raw::Widen, msg);
                }
            } else {
                let schema = |s: &Value| s.is_object() || s.is_boolean();
                match (u, v) {
                    (Some(u), Some(v)) if schema(u) && schema(v) => self.child(u, v, ptr, depth, mode),
                    (None, Some(v)) if schema(v) => self.child(&TRUE, v, ptr, depth, mode),
                    (Some(u), None) if schema(u) => self.child(u, &TRUE, ptr, depth, mode),
                    _ => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("`{key}` entry `{name}` changed form; not compared"),
                    ),
                }
            }
            ptr.truncate(mark);
        }
    }
}

/// What an object says about a property name it does not list in `properties`.
enum Fallback<'v> {
    /// `additionalProperties: false` (or `unevaluatedProperties: false`): refused.
    Closed,
    /// No rule: any value.
    Open,
    /// `additionalProperties` (or `unevaluatedProperties`) is this schema.
    Schema(&'v Value),
    /// `patternProperties` may match the name; not evaluated.
    Patterns,
}

fn fallback<'v>(object: &'v Map<String, Value>, _name: &str) -> Fallback<'v> {
    if object.get("patternProperties").and_then(Value::as_object).is_some_and(|p| !p.is_empty()) {
        return Fallback::Patterns;
    }
    let rule = object.get("additionalProperties").or_else(|| object.get("unevaluatedProperties"));
    match rule {
        None => Fallback::Open,
        Some(v) if is_false(v) => Fallback::Closed,
        Some(v) if is_any(v) => Fallback::Open,
        Some(v) => Fallback::Schema(v),
    }
}
