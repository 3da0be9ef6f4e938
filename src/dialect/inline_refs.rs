//! `INLINE_REFS`: every `$ref` replaced by what it points at, no `$defs` left.
//!
//! For consumers that cannot resolve references: many MCP clients (Copilot CLI, Cursor, Gemini
//! CLI: providers.md §4 "Practice"), Gemini's OpenAPI `parameters` (no `$ref` field, §3a).
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, INLINE_REFS};
//! let schema = json!({
//!     "$defs": {"City": {"type": "string", "description": "A city."}},
//!     "properties": {"to": {"$ref": "#/$defs/City", "description": "Where to go."}},
//!     "type": "object"
//! });
//! let out = apply(&INLINE_REFS, schema, &AdaptContext::default()).unwrap();
//! assert_eq!(out, json!({
//!     "properties": {"to": {"type": "string", "description": "Where to go."}},
//!     "type": "object"
//! }));
//! ```
//!
//! # How it works
//! 1. **Measure, before building anything.** One walk over the input computes, for every
//!    definition reached, the canonical size and the nesting depth of its expansion, memoised per
//!    definition, with the definitions being expanded on a stack. A reference to a definition on
//!    the stack is a cycle: [`CapabilityError::Recursive`] naming the type. Nesting past the depth
//!    budget, or a chain of references longer than it (a chain of 5 000 is refused rather than
//!    followed), is [`CapabilityError::TooDeep`]. A size over the budget is
//!    [`CapabilityError::LimitExceeded`]. Because of the memo the walk costs time and memory in
//!    proportion to the *input*: a definition graph that doubles at each of 40 levels (2^40 leaves
//!    if inlined) is refused after visiting 40 definitions.
//! 2. **Build.** Only then is every `$ref` replaced by its target's expansion. At each site the
//!    site's annotations (`description`, `default`, ...) win over the definition's; assertions from
//!    both sides keep applying: merged into one object when no keyword of one side reads keywords of
//!    the other (equal `type`s intersect, `required` lists unite, disjoint `properties` merge), and
//!    otherwise combined with `allOf`.
//! 3. Every `$defs` / `definitions` map is removed.
//!
//! The size budget is the caller's `max_bytes` ([`AdaptContext::max_bytes`]) or, when none is set,
//! [`DEFAULT_MAX_INLINED_BYTES`]. The measured size is an upper bound on the canonical bytes of the
//! result (an annotation overridden at a site is counted twice).

use super::support::{combine_ref_site, unsupported};
use super::{AdaptContext, SchemaDialect};
use crate::error::CapabilityError;
use crate::pointer::{Pointer, escape_token};
use crate::walk::{Shape, keyword_shape};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The expansion budget when the caller set no `max_bytes`: 4 MiB of canonical JSON, far above any
/// schema a provider accepts, far below what a hostile definition graph would build.
pub const DEFAULT_MAX_INLINED_BYTES: usize = 4 * 1024 * 1024;

/// Inlines every `$ref`, refusing recursion, nesting past `max_depth` and expansions over the size
/// budget. Its name is `inline-refs`.
///
/// Build your own with another depth: `static SHALLOW: InlineRefs = InlineRefs { max_depth: 16 };`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InlineRefs {
    /// The deepest nesting the inlined schema may reach, in levels of subschemas; also the longest
    /// chain of references followed in a row. The pipeline's own depth budget applies too; the
    /// smaller one wins.
    pub max_depth: usize,
}

impl InlineRefs {
    /// The default nesting budget of [`INLINE_REFS`]: 64 levels.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
}

/// [`InlineRefs`] with a nesting budget of [`InlineRefs::DEFAULT_MAX_DEPTH`] levels.
pub static INLINE_REFS: InlineRefs = InlineRefs { max_depth: InlineRefs::DEFAULT_MAX_DEPTH };

impl SchemaDialect for InlineRefs {
    fn name(&self) -> &str {
        "inline-refs"
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &["$ref", "$defs", "definitions", "$dynamicRef", "$recursiveRef"]
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Value, Vec<CapabilityError>> {
        inline_all(self.name(), schema, cx, self.max_depth.min(cx.max_depth))
    }
}

/// Inlines every `$ref` of `schema` for dialect `dialect` (see the module docs).
pub(crate) fn inline_all(
    dialect: &str,
    schema: Value,
    cx: &AdaptContext<'_>,
    max_depth: usize,
) -> Result<Value, Vec<CapabilityError>> {
    let max_bytes = cx.max_bytes.unwrap_or(DEFAULT_MAX_INLINED_BYTES);
    let mut m = Measurer {
        root: &schema,
        dialect,
        type_name: cx.type_name,
        max_depth,
        memo: HashMap::new(),
        stack: vec![String::new()],
    };
    let size = m.measure(&schema, &mut Pointer::root(), 0, 0).map_err(|e| vec![*e])?;
    if size.bytes > max_bytes {
        return Err(vec![CapabilityError::LimitExceeded {
            dialect: dialect.to_owned(),
            limit:
                "bytes of canonical JSON once every `$ref` is inlined (set `max_bytes` to change the budget)"
                    .into(),
            actual: size.bytes,
            max: max_bytes,
            pointer: String::new(),
        }]);
    }
    Ok(build(&schema, &schema))
}

/// The expanded size and nesting of a schema.
#[derive(Debug, Clone, Copy)]
struct Size {
    bytes: usize,
    depth: usize,
}

struct Measurer<'v, 'c> {
    root: &'v Value,
    dialect: &'c str,
    type_name: Option<&'c str>,
    max_depth: usize,
    /// Target pointer → the size of its expansion.
    memo: HashMap<String, Size>,
    /// Targets being expanded (the root is `""`).
    stack: Vec<String>,
}

/// The JSON pointer of a local reference, or the error that it is not one.
fn target_key(reference: &str) -> Result<String, crate::refs::RefError> {
    let tokens = crate::refs::parse_local(reference)?;
    Ok(tokens.iter().map(|t| format!("/{}", escape_token(t))).collect())
}

/// Canonical length of a string (RFC 8785 escaping).
fn string_len(s: &str) -> usize {
    2 + s
        .chars()
        .map(|c| match c {
            '"' | '\\' | '\u{8}' | '\t' | '\n' | '\u{c}' | '\r' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum::<usize>()
}

impl Measurer<'_, '_> {
    fn too_deep(&self, depth: usize, ptr: &Pointer) -> Box<CapabilityError> {
        Box::new(CapabilityError::TooDeep {
            dialect: self.dialect.to_owned(),
            depth,
            max_depth: self.max_depth,
            pointer: ptr.as_str().to_owned(),
        })
    }

    /// The size of `node`'s expansion; `level` is where it sits in the expanded schema, `hops` how
    /// many references were followed in a row to reach it.
    fn measure(
        &mut self,
        node: &Value,
        ptr: &mut Pointer,
        level: usize,
        hops: usize,
    ) -> Result<Size, Box<CapabilityError>> {
        if level > self.max_depth {
            return Err(self.too_deep(level, ptr));
        }
        let Value::Object(map) = node else {
            return Ok(Size { bytes: crate::canonical::to_vec(node).len(), depth: 0 });
        };
        let mut size = Size { bytes: 2, depth: 0 };
        let mut entries = 0usize;
        let mut add = |size: &mut Size, key: &str, value: Size| {
            entries += 1;
            size.bytes = size.bytes.saturating_add(string_len(key) + 1).saturating_add(value.bytes);
            size.depth = size.depth.max(value.depth);
        };
        for (key, value) in map {
            match (key.as_str(), keyword_shape(key)) {
                ("$defs" | "definitions", _) | ("$ref", _) => {}
                (_, Some(shape)) => {
                    let child = self.measure_keyword(key, shape, value, ptr, level)?;
                    add(&mut size, key, child);
                }
                _ => add(&mut size, key, Size { bytes: crate::canonical::to_vec(value).len(), depth: 0 }),
            }
        }
        size.bytes = size.bytes.saturating_add(entries.saturating_sub(1));
        if let Some(reference) = map.get("$ref") {
            let target = self.measure_ref(reference, ptr, level, hops)?;
            // The site's own keywords merge into the target, or wrap it in `allOf` (one level down).
            let wrapped = map.keys().any(|k| {
                !super::support::is_annotation(k) && !matches!(k.as_str(), "$ref" | "$defs" | "definitions")
            });
            size.bytes = if entries == 0 {
                target.bytes
            } else {
                size.bytes.saturating_add(target.bytes).saturating_add(if wrapped { 14 } else { 0 })
            };
            size.depth = size.depth.max(target.depth + usize::from(wrapped));
        }
        Ok(size)
    }

    fn measure_keyword(
        &mut self,
        key: &str,
        shape: Shape,
        value: &Value,
        ptr: &mut Pointer,
        level: usize,
    ) -> Result<Size, Box<CapabilityError>> {
        let is_schema = |v: &Value| matches!(v, Value::Object(_) | Value::Bool(_));
        let child = |this: &mut Self, v: &Value, ptr: &mut Pointer| -> Result<Size, Box<CapabilityError>> {
            if !is_schema(v) {
                return Ok(Size { bytes: crate::canonical::to_vec(v).len(), depth: 0 });
            }
            let s = this.measure(v, ptr, level + 1, 0)?;
            Ok(Size { bytes: s.bytes, depth: s.depth + 1 })
        };
        let mark = ptr.push(key);
        let result = match (shape, value) {
            (Shape::Single | Shape::Array, Value::Array(items)) => {
                let mut total = Size { bytes: 1 + items.len().max(1), depth: 0 };
                for (i, item) in items.iter().enumerate() {
                    let m = ptr.push_index(i);
                    let s = child(self, item, ptr);
                    ptr.truncate(m);
                    let s = s?;
                    total.bytes = total.bytes.saturating_add(s.bytes);
                    total.depth = total.depth.max(s.depth);
                }
                Ok(total)
            }
            (Shape::Map, Value::Object(entries)) => {
                let mut total = Size { bytes: 1 + entries.len().max(1), depth: 0 };
                for (name, v) in entries {
                    let m = ptr.push(name);
                    let s = child(self, v, ptr);
                    ptr.truncate(m);
                    let s = s?;
                    total.bytes = total.bytes.saturating_add(string_len(name) + 1).saturating_add(s.bytes);
                    total.depth = total.depth.max(s.depth);
                }
                Ok(total)
            }
            (_, v) => child(self, v, ptr),
        };
        ptr.truncate(mark);
        result
    }

    fn measure_ref(
        &mut self,
        reference: &Value,
        ptr: &mut Pointer,
        level: usize,
        hops: usize,
    ) -> Result<Size, Box<CapabilityError>> {
        let bad = |reason: String| Box::new(unsupported(self.dialect, "$ref", ptr.as_str(), reason, None));
        let Some(text) = reference.as_str() else {
            return Err(bad("`$ref` is not a string".into()));
        };
        let key = target_key(text).map_err(|e| bad(e.to_string()))?;
        if self.stack.contains(&key) {
            let type_name = if key.is_empty() {
                self.type_name.unwrap_or("the root schema").to_owned()
            } else {
                crate::pointer::tokens(&key)
                    .and_then(|t| t.last().map(|s| s.to_string()))
                    .unwrap_or_else(|| key.clone())
            };
            return Err(Box::new(CapabilityError::Recursive {
                dialect: self.dialect.to_owned(),
                type_name,
                pointer: ptr.as_str().to_owned(),
            }));
        }
        if let Some(size) = self.memo.get(&key).copied() {
            if level + size.depth > self.max_depth {
                return Err(self.too_deep(level + size.depth, ptr));
            }
            return Ok(size);
        }
        // A chain of references is bounded like nesting, so it cannot outrun the stack.
        if hops + 1 > self.max_depth {
            return Err(self.too_deep(hops + 1, ptr));
        }
        let root = self.root;
        let Some(target) = crate::refs::resolve(root, text) else {
            return Err(bad(format!("reference `{text}` points at nothing in this document")));
        };
        self.stack.push(key.clone());
        let size = self.measure(target, ptr, level, hops + 1);
        self.stack.pop();
        let size = size?;
        self.memo.insert(key, size);
        Ok(size)
    }
}

/// Builds the expansion of `node` (measured first, so this terminates within the budgets).
fn build(node: &Value, root: &Value) -> Value {
    let Value::Object(map) = node else { return node.clone() };
    let mut out = Map::new();
    for (key, value) in map {
        match (key.as_str(), keyword_shape(key)) {
            ("$defs" | "definitions", _) | ("$ref", _) => {}
            (_, Some(shape)) => {
                let built = match (shape, value) {
                    (Shape::Single | Shape::Array, Value::Array(items)) => {
                        Value::Array(items.iter().map(|v| build(v, root)).collect())
                    }
                    (Shape::Map, Value::Object(entries)) => {
                        Value::Object(entries.iter().map(|(k, v)| (k.clone(), build(v, root))).collect())
                    }
                    (_, v) => build(v, root),
                };
                out.insert(key.clone(), built);
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    match map.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)) {
        Some(target) => combine_ref_site(out, build(target, root)),
        None => Value::Object(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value) -> Result<Value, Vec<CapabilityError>> {
        INLINE_REFS.adapt(schema, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn shared_definitions_are_inlined_at_every_site_and_defs_removed() {
        let s = json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}, "description": "point"}},
            "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"$ref": "#/$defs/P", "description": "b"}},
            "type": "object"
        });
        let out = run(s).unwrap();
        assert_eq!(out["properties"]["a"]["description"], "point");
        assert_eq!(out["properties"]["b"]["description"], "b");
        assert_eq!(out["properties"]["b"]["properties"]["x"]["type"], "integer");
        assert!(out.get("$defs").is_none());
    }

    #[test]
    fn recursion_is_refused_naming_the_type() {
        let s = json!({"$defs": {"Node": {"properties": {"next": {"$ref": "#/$defs/Node"}}}},
                       "properties": {"n": {"$ref": "#/$defs/Node"}}});
        let errs = run(s).unwrap_err();
        assert!(
            matches!(&errs[0], CapabilityError::Recursive { type_name, .. } if type_name == "Node"),
            "{errs:?}"
        );
        let errs = run(json!({"properties": {"again": {"$ref": "#"}}})).unwrap_err();
        assert!(matches!(&errs[0], CapabilityError::Recursive { type_name, .. } if type_name == "T"));
    }

    #[test]
    fn doubling_graph_is_refused_by_size_before_building() {
        let mut defs = Map::new();
        for i in 0..60 {
            defs.insert(
                format!("D{i}"),
                json!({"properties": {"l": {"$ref": format!("#/$defs/D{}", i + 1)},
                                      "r": {"$ref": format!("#/$defs/D{}", i + 1)}}}),
            );
        }
        defs.insert("D60".into(), json!({"type": "string"}));
        let s = json!({"$defs": defs, "$ref": "#/$defs/D0"});
        let cx = AdaptContext::new(1000, None);
        let errs = InlineRefs { max_depth: 1000 }.adapt(s, &cx).unwrap_err();
        assert!(
            matches!(&errs[0], CapabilityError::LimitExceeded { max, .. } if *max == DEFAULT_MAX_INLINED_BYTES),
            "{errs:?}"
        );
    }

    #[test]
    fn nesting_and_reference_chains_past_the_budget_are_too_deep() {
        let shallow = InlineRefs { max_depth: 3 };
        let s = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/C"},
                                 "C": {"$ref": "#/$defs/D"}, "D": {"type": "string"}},
                       "$ref": "#/$defs/A"});
        let errs = shallow.adapt(s, &AdaptContext::default()).unwrap_err();
        assert!(matches!(&errs[0], CapabilityError::TooDeep { max_depth: 3, .. }), "{errs:?}");
    }

    #[test]
    fn measured_size_bounds_the_canonical_size() {
        let s = json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer", "enum": [1, 2]}}}},
            "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"items": {"$ref": "#/$defs/P"}, "type": "array"}},
            "type": "object"
        });
        let out = run(s.clone()).unwrap();
        let len = crate::canonical::to_vec(&out).len();
        let small = AdaptContext::new(128, None).with_max_bytes(Some(len));
        assert!(INLINE_REFS.adapt(s.clone(), &small).is_ok());
        let smaller = AdaptContext::new(128, None).with_max_bytes(Some(len - 1));
        assert!(INLINE_REFS.adapt(s, &smaller).is_err());
    }

    #[test]
    fn external_and_missing_references_are_errors_with_pointers() {
        let errs = run(json!({"properties": {"a": {"$ref": "other.json#/x"}}})).unwrap_err();
        assert_eq!(errs[0].pointer(), "/properties/a");
        let errs = run(json!({"properties": {"a": {"$ref": "#/$defs/Nope"}}})).unwrap_err();
        assert!(errs[0].to_string().contains("points at nothing"));
    }
}
