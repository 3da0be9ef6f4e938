//! Array keywords: `items` (a schema, or draft 4-7's tuple with `additionalItems`) and
//! `prefixItems`, compared position by position against what governs the positions past a
//! tuple's end; `uniqueItems`. (`minItems`, `maxItems` and the `contains` counts are bounds:
//! [`numbers`](super::numbers).)

use super::{Differ, Mode, Raw, TRUE, canon};
use crate::pointer::Pointer;
use crate::walk::Depth;
use serde_json::{Map, Value};

impl Differ<'_> {
    pub(super) fn items(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        match (o.get("items"), n.get("items")) {
            // The draft-4..7 tuple form, with `additionalItems` for the rest.
            (Some(Value::Array(_)), Some(Value::Array(_))) => {
                self.tuple(
                    "items",
                    o,
                    n,
                    o.get("additionalItems"),
                    n.get("additionalItems"),
                    ptr,
                    depth,
                    mode,
                );
            }
            (
                a @ (None | Some(Value::Object(_) | Value::Bool(_))),
                b @ (None | Some(Value::Object(_) | Value::Bool(_))),
            ) => {
                let mark = ptr.push("items");
                self.child(a.unwrap_or(&TRUE), b.unwrap_or(&TRUE), ptr, depth, mode);
                ptr.truncate(mark);
            }
            (a, b) => {
                let (a, b) = (a.map_or("none".into(), canon), b.map_or("none".into(), canon));
                self.at(
                    ptr,
                    "items",
                    mode,
                    Raw::Unknown,
                    format!("`items` changed form, from {a} to {b}; not compared"),
                );
            }
        }
    }

    /// Positional subschemas (`prefixItems`, tuple `items`); `rest_*` govern positions past the end.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tuple(
        &mut self,
        key: &'static str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        old_rest: Option<&Value>,
        new_rest: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let empty = Vec::new();
        let x = o.get(key).and_then(Value::as_array).unwrap_or(&empty);
        let y = n.get(key).and_then(Value::as_array).unwrap_or(&empty);
        let mark = ptr.push(key);
        for i in 0..x.len().max(y.len()) {
            let m = ptr.push_index(i);
            match (x.get(i), y.get(i)) {
                (Some(a), Some(b)) => self.child(a, b, ptr, depth, mode),
                (None, Some(b)) => {
                    let rest = old_rest.filter(|r| r.is_object() || r.is_boolean()).unwrap_or(&TRUE);
                    self.child(rest, b, ptr, depth, mode);
                }
                (Some(a), None) => {
                    let rest = new_rest.filter(|r| r.is_object() || r.is_boolean()).unwrap_or(&TRUE);
                    self.child(a, rest, ptr, depth, mode);
                }
                (None, None) => {}
            }
            ptr.truncate(m);
        }
        ptr.truncate(mark);
    }

    /// `uniqueItems`: turning it on narrows, turning it off widens.
    pub(super) fn unique_items(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        mode: Mode,
    ) {
        let (x, y) = (a == Some(&TRUE), b == Some(&TRUE));
        let kind = match (x, y) {
            (false, true) => Raw::Narrow,
            (true, false) => Raw::Widen,
            _ => Raw::Annotation,
        };
        self.at(ptr, "uniqueItems", mode, kind, format!("`uniqueItems` is now {y}"));
    }
}
