//! The one place that knows which keywords hold subschemas.
//!
//! Every pass, dialect and foreign-schema routine that descends into a schema does it through
//! [`for_each_child`] / [`for_each_child_mut`], so a keyword added here is seen everywhere, and
//! instance-valued keywords (`const`, `enum`, `default`, `examples`) are never mistaken for
//! schemas: a property *named* `title`, or a `default` that happens to hold `{"title": ..}`, is
//! left alone.
//!
//! ```
//! use serde_json::json;
//! use toolschema::walk::{for_each_child, Step};
//! let schema = json!({"properties": {"a": {"type": "string"}}, "default": {"properties": {}}});
//! let mut seen = vec![];
//! for_each_child(&schema, |step, _child| seen.push(format!("{step}")));
//! assert_eq!(seen, ["/properties/a"]);
//! ```
//!
//! # How it works
//! Keywords fall in three shapes, listed in [`KEYWORDS`]:
//! - one schema: `additionalProperties`, `contains`, `contentSchema`, `else`, `if`, `items`,
//!   `not`, `propertyNames`, `then`, `unevaluatedItems`, `unevaluatedProperties`, and draft-7
//!   `additionalItems`;
//! - an array of schemas: `allOf`, `anyOf`, `oneOf`, `prefixItems`, and the draft-4..7 array form
//!   of `items`;
//! - a map of schemas: `$defs`, `definitions`, `dependentSchemas`, `patternProperties`,
//!   `properties`, and the schema-valued entries of draft-7 `dependencies` (its array entries are
//!   property lists, not schemas).
//!
//! A child is any value in such a slot that is an object or a boolean (both are schemas in
//! 2020-12); anything else in a schema slot is malformed and left for the caller to judge.
//!
//! The walker itself does not recurse: callers recurse, so each decides its order (top-down or
//! bottom-up) and carries its own depth budget, checked before it descends (see [`Depth`]).

use serde_json::Value;
use std::fmt;

/// How a keyword holds subschemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The keyword's value is one schema (or, for `items`, possibly an array of schemas).
    Single,
    /// An array of schemas.
    Array,
    /// A map from names to schemas.
    Map,
}

/// Every subschema-bearing keyword and its shape. Sorted by name.
pub const KEYWORDS: &[(&str, Shape)] = &[
    ("$defs", Shape::Map),
    ("additionalItems", Shape::Single),
    ("additionalProperties", Shape::Single),
    ("allOf", Shape::Array),
    ("anyOf", Shape::Array),
    ("contains", Shape::Single),
    ("contentSchema", Shape::Single),
    ("definitions", Shape::Map),
    ("dependencies", Shape::Map),
    ("dependentSchemas", Shape::Map),
    ("else", Shape::Single),
    ("if", Shape::Single),
    ("items", Shape::Single),
    ("not", Shape::Single),
    ("oneOf", Shape::Array),
    ("patternProperties", Shape::Map),
    ("prefixItems", Shape::Array),
    ("properties", Shape::Map),
    ("propertyNames", Shape::Single),
    ("then", Shape::Single),
    ("unevaluatedItems", Shape::Single),
    ("unevaluatedProperties", Shape::Single),
];

/// The shape of a keyword, or `None` if it holds no subschema.
pub fn keyword_shape(keyword: &str) -> Option<Shape> {
    static_keyword(keyword).map(|(_, shape)| shape)
}

/// Where a child sits in its parent: the keyword and, for arrays and maps, the index or name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// `keyword` holds the child directly.
    Keyword(&'static str),
    /// `keyword[index]`.
    Index(&'static str, usize),
    /// `keyword[name]`.
    Entry(&'static str, &'a str),
}

impl Step<'_> {
    /// The keyword.
    pub fn keyword(&self) -> &'static str {
        match *self {
            Step::Keyword(k) | Step::Index(k, _) | Step::Entry(k, _) => k,
        }
    }

    /// Appends this step to a pointer, returning the mark to truncate back to.
    pub fn push_onto(&self, pointer: &mut crate::pointer::Pointer) -> usize {
        match *self {
            Step::Keyword(k) => pointer.push(k),
            Step::Index(k, i) => {
                let mark = pointer.push(k);
                pointer.push_index(i);
                mark
            }
            Step::Entry(k, name) => {
                let mark = pointer.push(k);
                pointer.push(name);
                mark
            }
        }
    }
}

/// Displays as the pointer suffix, e.g. `/properties/a~1b`.
impl fmt::Display for Step<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut p = crate::pointer::Pointer::root();
        self.push_onto(&mut p);
        f.write_str(p.as_str())
    }
}

fn is_schema(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Bool(_))
}

/// Bit `n` is set when some keyword in [`KEYWORDS`] is `n` bytes long: most keys of a schema
/// (`type`, `description`, property names) are rejected by length before any comparison.
const KEYWORD_LENGTHS: u64 = {
    let mut mask = 0u64;
    let mut i = 0;
    while i < KEYWORDS.len() {
        mask |= 1 << KEYWORDS[i].0.len();
        i += 1;
    }
    mask
};

/// Slots in [`KEYWORD_SLOTS`]: a power of two, well above the number of keywords.
const SLOT_COUNT: usize = 64;

/// Where a key's search starts in [`KEYWORD_SLOTS`]: from its length and its first and last bytes,
/// which tell the keywords apart with few collisions and cost no pass over the key.
const fn slot_of(key: &[u8]) -> usize {
    match key {
        [] => 0,
        [first, .., last] => (key.len() * 7 + *first as usize * 3 + *last as usize) % SLOT_COUNT,
        [only] => (7 + *only as usize * 4) % SLOT_COUNT,
    }
}

/// An open-addressing table over [`KEYWORDS`] (index + 1; 0 is an empty slot), built at compile
/// time. Every key of every schema object is looked up here in every pass, so one slot and one
/// string comparison replace a binary search's five.
static KEYWORD_SLOTS: [u8; SLOT_COUNT] = {
    let mut slots = [0u8; SLOT_COUNT];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let mut s = slot_of(KEYWORDS[i].0.as_bytes());
        while slots[s] != 0 {
            s = (s + 1) % SLOT_COUNT;
        }
        slots[s] = (i + 1) as u8;
        i += 1;
    }
    slots
};

/// The `&'static` spelling of a keyword from [`KEYWORDS`].
fn static_keyword(keyword: &str) -> Option<(&'static str, Shape)> {
    // Most keys of a schema are rejected by their length alone; the rest take one slot probe.
    if keyword.len() >= 64 || KEYWORD_LENGTHS & (1 << keyword.len()) == 0 {
        return None;
    }
    let mut s = slot_of(keyword.as_bytes());
    // The table has empty slots, so the probe ends.
    loop {
        let entry = KEYWORDS.get(usize::from(KEYWORD_SLOTS[s]).checked_sub(1)?)?;
        if entry.0 == keyword {
            return Some(*entry);
        }
        s = (s + 1) % SLOT_COUNT;
    }
}

/// Calls `f` on every immediate subschema of `schema`, in keyword order.
pub fn for_each_child<'v>(schema: &'v Value, mut f: impl FnMut(Step<'v>, &'v Value)) {
    let Value::Object(map) = schema else { return };
    for (key, value) in map {
        let Some((keyword, shape)) = static_keyword(key) else { continue };
        match (shape, value) {
            (Shape::Single | Shape::Array, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if is_schema(item) {
                        f(Step::Index(keyword, i), item);
                    }
                }
            }
            (Shape::Single, v) if is_schema(v) => f(Step::Keyword(keyword), v),
            (Shape::Map, Value::Object(entries)) => {
                for (name, v) in entries {
                    if is_schema(v) {
                        f(Step::Entry(keyword, name), v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Calls `f` on every immediate subschema of `schema`, mutably, stopping at the first error.
pub fn for_each_child_mut<E>(
    schema: &mut Value,
    mut f: impl FnMut(Step<'_>, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    let Value::Object(map) = schema else { return Ok(()) };
    for (key, value) in map.iter_mut() {
        let Some((keyword, shape)) = static_keyword(key) else { continue };
        match (shape, value) {
            (Shape::Single | Shape::Array, Value::Array(items)) => {
                for (i, item) in items.iter_mut().enumerate() {
                    if is_schema(item) {
                        f(Step::Index(keyword, i), item)?;
                    }
                }
            }
            (Shape::Single, v) if is_schema(v) => f(Step::Keyword(keyword), v)?,
            (Shape::Map, Value::Object(entries)) => {
                for (name, v) in entries.iter_mut() {
                    if is_schema(v) {
                        f(Step::Entry(keyword, name), v)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Builds a new schema object from `schema`'s entries without touching `schema`: every immediate
/// subschema goes through `f`, every other value is cloned, and entries whose key `keep` refuses
/// are left out. The non-mutating counterpart of [`for_each_child_mut`], for a transformation that
/// reads one document and writes another (the foreign-schema inliner). `f` sees children in the
/// same order as [`for_each_child`]; the first error stops the walk.
pub fn map_children<'v, E>(
    schema: &'v serde_json::Map<String, Value>,
    mut keep: impl FnMut(&str) -> bool,
    mut f: impl FnMut(Step<'v>, &'v Value) -> Result<Value, E>,
) -> Result<serde_json::Map<String, Value>, E> {
    let mut out = serde_json::Map::new();
    for (key, value) in schema {
        if !keep(key) {
            continue;
        }
        let Some((keyword, shape)) = static_keyword(key) else {
            out.insert(key.clone(), value.clone());
            continue;
        };
        let built = match (shape, value) {
            (Shape::Single | Shape::Array, Value::Array(items)) => {
                let mut built = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    built.push(if is_schema(item) {
                        f(Step::Index(keyword, i), item)?
                    } else {
                        item.clone()
                    });
                }
                Value::Array(built)
            }
            (Shape::Single, v) if is_schema(v) => f(Step::Keyword(keyword), v)?,
            (Shape::Map, Value::Object(entries)) => {
                let mut built = serde_json::Map::new();
                for (name, v) in entries {
                    let b = if is_schema(v) { f(Step::Entry(keyword, name), v)? } else { v.clone() };
                    built.insert(name.clone(), b);
                }
                Value::Object(built)
            }
            (_, v) => v.clone(),
        };
        out.insert(key.clone(), built);
    }
    Ok(out)
}

/// A depth budget: the number of subschema levels a walk may still descend.
///
/// Check it *before* recursing, so that no input overflows the stack: [`Depth::descend`] returns
/// `None` when the budget is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    level: usize,
    max: usize,
}

impl Depth {
    /// The default budget: 128 levels of subschemas.
    pub const DEFAULT_MAX: usize = 128;

    /// A budget of `max` levels, starting at the root (level 0).
    pub fn new(max: usize) -> Self {
        Depth { level: 0, max }
    }

    /// One level deeper, or `None` when that passes the budget.
    #[must_use]
    pub fn descend(self) -> Option<Self> {
        (self.level < self.max).then_some(Depth { level: self.level + 1, max: self.max })
    }

    /// The current level (the root is 0).
    pub fn level(&self) -> usize {
        self.level
    }

    /// The budget.
    pub fn max(&self) -> usize {
        self.max
    }
}

/// Visits every schema under `root` (the root included) top-down with its pointer, within the
/// depth budget. `visit` returns `false` to skip a node's children. Returns the pointer at which the
/// budget ran out, if it did.
pub fn visit_all<'v>(
    root: &'v Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&crate::pointer::Pointer, &'v Value) -> bool,
) -> Result<(), String> {
    fn go<'v>(
        node: &'v Value,
        ptr: &mut crate::pointer::Pointer,
        depth: Depth,
        visit: &mut dyn FnMut(&crate::pointer::Pointer, &'v Value) -> bool,
        overflow: &mut Option<String>,
    ) {
        if overflow.is_some() || !visit(ptr, node) {
            return;
        }
        for_each_child(node, |step, child| {
            if overflow.is_some() {
                return;
            }
            let mark = step.push_onto(ptr);
            match depth.descend() {
                Some(d) => go(child, ptr, d, visit, overflow),
                None => *overflow = Some(ptr.as_str().to_owned()),
            }
            ptr.truncate(mark);
        });
    }
    let mut overflow = None;
    go(root, &mut crate::pointer::Pointer::root(), Depth::new(max_depth), visit, &mut overflow);
    overflow.map_or(Ok(()), Err)
}

/// Visits every schema under `root` (the root included) top-down, mutably, with its pointer,
/// within the depth budget. `visit` returns `Ok(false)` to skip a node's children; `overflow` makes
/// the error for the pointer at which the budget ran out.
pub fn visit_all_mut<E>(
    root: &mut Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&crate::pointer::Pointer, &mut Value) -> Result<bool, E>,
    overflow: &dyn Fn(String) -> E,
) -> Result<(), E> {
    fn go<E>(
        node: &mut Value,
        ptr: &mut crate::pointer::Pointer,
        depth: Depth,
        visit: &mut dyn FnMut(&crate::pointer::Pointer, &mut Value) -> Result<bool, E>,
        overflow: &dyn Fn(String) -> E,
    ) -> Result<(), E> {
        if !visit(ptr, node)? {
            return Ok(());
        }
        for_each_child_mut(node, |step, child| {
            let mark = step.push_onto(ptr);
            let result = match depth.descend() {
                Some(d) => go(child, ptr, d, visit, overflow),
                None => Err(overflow(ptr.as_str().to_owned())),
            };
            ptr.truncate(mark);
            result
        })
    }
    go(root, &mut crate::pointer::Pointer::root(), Depth::new(max_depth), visit, overflow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keyword_table_is_sorted_for_binary_search() {
        assert!(KEYWORDS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn the_slot_table_finds_every_keyword_and_nothing_else() {
        for &(k, shape) in KEYWORDS {
            assert_eq!(static_keyword(k), Some((k, shape)), "{k}");
            assert_eq!(keyword_shape(k), Some(shape), "{k}");
        }
        for other in [
            "",
            "$",
            "$ref",
            "type",
            "description",
            "enum",
            "const",
            "default",
            "examples",
            "title",
            "required",
            "format",
            "minimum",
            "item",
            "itemsx",
            "Items",
            "propertie",
            "properties ",
            "allof",
            "anyOf\u{0}",
            "a",
            "\u{e9}",
            "$defs/x",
        ] {
            assert_eq!(static_keyword(other), None, "{other:?}");
        }
        assert!(KEYWORD_SLOTS.iter().filter(|&&s| s == 0).count() > 0);
    }

    proptest::proptest! {
        // Law: the slot table answers exactly as a binary search over KEYWORDS does.
        #[test]
        fn slot_lookup_agrees_with_a_binary_search(
            k in proptest::prop_oneof![
                "[$a-zA-Z]{0,22}",
                proptest::sample::select(KEYWORDS.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>()),
            ]
        ) {
            let want = KEYWORDS.binary_search_by(|(w, _)| (*w).cmp(k.as_str())).ok().map(|i| KEYWORDS[i]);
            proptest::prop_assert_eq!(static_keyword(&k), want);
        }
    }

    #[test]
    fn visits_every_schema_bearing_keyword_and_nothing_else() {
        let s = json!({
            "additionalProperties": {}, "contains": {}, "contentSchema": {}, "else": {},
            "if": {}, "not": {}, "propertyNames": {}, "then": {}, "unevaluatedItems": {},
            "unevaluatedProperties": false, "additionalItems": {},
            "allOf": [{}], "anyOf": [{}], "oneOf": [{}], "prefixItems": [{}],
            "$defs": {"a": {}}, "definitions": {"a": {}}, "dependentSchemas": {"a": {}},
            "patternProperties": {"^a": {}}, "properties": {"a": {}},
            "dependencies": {"a": {}, "b": ["c"]},
            "const": {"type": "x"}, "enum": [{}], "default": {}, "examples": [{}],
            "items": [{}, true]
        });
        let mut seen = vec![];
        for_each_child(&s, |step, _| seen.push(step.to_string()));
        seen.sort();
        let mut want: Vec<String> = [
            "/$defs/a",
            "/additionalItems",
            "/additionalProperties",
            "/allOf/0",
            "/anyOf/0",
            "/contains",
            "/contentSchema",
            "/definitions/a",
            "/dependencies/a",
            "/dependentSchemas/a",
            "/else",
            "/if",
            "/items/0",
            "/items/1",
            "/not",
            "/oneOf/0",
            "/patternProperties/^a",
            "/prefixItems/0",
            "/properties/a",
            "/propertyNames",
            "/then",
            "/unevaluatedItems",
            "/unevaluatedProperties",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        want.sort();
        assert_eq!(seen, want);
    }

    #[test]
    fn map_children_rebuilds_subschemas_and_clones_data() {
        let s = json!({"items": [{"a": 1}, 5], "properties": {"x": {}, "y": 3}, "enum": [{}], "title": "t"});
        let Value::Object(map) = &s else { unreachable!() };
        let out = map_children::<()>(map, |k| k != "title", |step, _| Ok(json!(step.to_string()))).unwrap();
        assert_eq!(
            Value::Object(out),
            json!({"items": ["/items/0", 5], "properties": {"x": "/properties/x", "y": 3}, "enum": [{}]})
        );
    }

    #[test]
    fn depth_budget_stops_before_descending() {
        let mut v = json!({"type": "string"});
        for _ in 0..10 {
            v = json!({ "items": v });
        }
        let mut count = 0;
        let err = visit_all(&v, 3, &mut |_, _| {
            count += 1;
            true
        })
        .unwrap_err();
        assert_eq!(err, "/items/items/items/items");
        assert_eq!(count, 4);
        assert!(visit_all(&v, 10, &mut |_, _| true).is_ok());
    }
}
