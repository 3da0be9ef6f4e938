//! The one way into subschemas: which children a schema has, in which order, within which depth.
//!
//! Every pass, dialect and foreign-schema routine that descends into a schema does it through
//! [`for_each_child`] and its siblings, which read the one keyword table ([`KEYWORDS`]), so a
//! keyword added there is seen everywhere, and instance-valued keywords (`const`, `enum`, `default`, `examples`) are never mistaken for
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

pub(crate) use crate::vocab::keyword::{CONTENT, META_DATA};
pub use crate::vocab::keyword::{KEYWORDS, Shape};

mod nesting;
mod visit;
pub use nesting::*;
pub use visit::*;

/// Whether `keyword` is in [`META_DATA`].
pub(crate) fn is_meta_data(keyword: &str) -> bool {
    META_DATA.contains(&keyword)
}

/// The shape of a keyword, or `None` if it holds no subschema.
pub(crate) fn keyword_shape(keyword: &str) -> Option<Shape> {
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

/// Whether a value in a subschema position is a schema (an object or a boolean) a walker enters.
pub(crate) fn is_schema(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Bool(_))
}

/// The `&'static` spelling of a keyword from [`KEYWORDS`], and its shape.
///
/// Every walk asks this of every key of every schema object: the one length-first table
/// (`vocab::keyword`) answers. A unit test checks it against [`KEYWORDS`].
#[inline(always)]
fn static_keyword(keyword: &str) -> Option<(&'static str, Shape)> {
    let k = crate::vocab::keyword::keyword(keyword)?;
    Some((k.as_str(), k.shape()?))
}

/// A map's entries in key order (byte order), whatever the map's own iteration order is.
///
/// serde_json's `preserve_order` (which any crate in a build can switch on) makes maps iterate in
/// insertion order; walking in that order would make the *first* error a walk reports (the first
/// untyped property, the first position past the depth budget) depend on the input's key order and
/// on the build. A map that already iterates sorted (every map without `preserve_order`) costs one
/// comparison pass and no allocation.
/// Whether `map` iterates in byte order: always for serde_json's default `BTreeMap` (probed once,
/// so the common build pays no pass over the keys), else checked.
#[inline]
fn iterates_sorted(map: &serde_json::Map<String, Value>) -> bool {
    !crate::vocab::map_order::map_preserves_order() || map.keys().is_sorted()
}

enum KeyOrder<'m, V, I: Iterator<Item = (&'m String, V)>> {
    Direct(I),
    Sorted(std::vec::IntoIter<(&'m String, V)>),
}

impl<'m, V, I: Iterator<Item = (&'m String, V)>> KeyOrder<'m, V, I> {
    fn new(entries: I, already_sorted: bool) -> Self {
        if already_sorted {
            KeyOrder::Direct(entries)
        } else {
            let mut entries: Vec<(&'m String, V)> = entries.collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            KeyOrder::Sorted(entries.into_iter())
        }
    }
}

impl<'m, V, I: Iterator<Item = (&'m String, V)>> Iterator for KeyOrder<'m, V, I> {
    type Item = (&'m String, V);
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            KeyOrder::Direct(it) => it.next(),
            KeyOrder::Sorted(it) => it.next(),
        }
    }
}

/// Calls `f` on every immediate subschema of `schema`, in keyword order, map entries by name.
pub fn for_each_child<'v>(schema: &'v Value, f: impl FnMut(Step<'v>, &'v Value)) {
    for_each_child_where(schema, |_| true, f);
}

/// [`for_each_child`] under the keywords `keep` accepts only: a keyword it refuses is skipped
/// whole, without a look at its entries, so a walk that leaves `$defs` aside costs nothing for
/// the size of `$defs`.
pub(crate) fn for_each_child_where<'v>(
    schema: &'v Value,
    keep: impl Fn(&'static str) -> bool,
    f: impl FnMut(Step<'v>, &'v Value),
) {
    if let Value::Object(map) = schema {
        children_of(map, keep, f);
    }
}

/// [`for_each_child`] of an object already in hand.
pub(crate) fn for_each_child_of<'v>(
    map: &'v serde_json::Map<String, Value>,
    f: impl FnMut(Step<'v>, &'v Value),
) {
    children_of(map, |_| true, f);
}

fn children_of<'v>(
    map: &'v serde_json::Map<String, Value>,
    keep: impl Fn(&'static str) -> bool,
    mut f: impl FnMut(Step<'v>, &'v Value),
) {
    // Two copies of the loop, one per key order, rather than one loop over an either-iterator:
    // this runs for every object of every walk.
    if iterates_sorted(map) {
        children_in(map.iter(), &keep, &mut f);
    } else {
        children_in(KeyOrder::new(map.iter(), false), &keep, &mut f);
    }
}

#[inline(always)]
fn children_in<'v>(
    entries: impl Iterator<Item = (&'v String, &'v Value)>,
    keep: &impl Fn(&'static str) -> bool,
    f: &mut impl FnMut(Step<'v>, &'v Value),
) {
    for (key, value) in entries {
        let Some((keyword, shape)) = static_keyword(key) else { continue };
        if !keep(keyword) {
            continue;
        }
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
                let mut entry = |(name, v): (&'v String, &'v Value)| {
                    if is_schema(v) {
                        f(Step::Entry(keyword, name), v);
                    }
                };
                if iterates_sorted(entries) {
                    entries.iter().for_each(&mut entry);
                } else {
                    KeyOrder::new(entries.iter(), false).for_each(&mut entry);
                }
            }
            _ => {}
        }
    }
}

/// Calls `f` on every immediate subschema of `schema`, mutably, in the order of
/// [`for_each_child`], stopping at the first error.
pub(crate) fn for_each_child_mut<E>(
    schema: &mut Value,
    f: impl FnMut(Step<'_>, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    match schema {
        Value::Object(map) => for_each_child_of_mut(map, f),
        _ => Ok(()),
    }
}

/// [`for_each_child_mut`] of an object already in hand.
fn for_each_child_of_mut<E>(
    map: &mut serde_json::Map<String, Value>,
    mut f: impl FnMut(Step<'_>, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    // Two copies of the loop, as in `children_of`.
    if iterates_sorted(map) {
        children_in_mut(map.iter_mut(), &mut f)
    } else {
        children_in_mut(KeyOrder::new(map.iter_mut(), false), &mut f)
    }
}

#[inline(always)]
fn children_in_mut<'m, E>(
    entries: impl Iterator<Item = (&'m String, &'m mut Value)>,
    f: &mut impl FnMut(Step<'_>, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    for (key, value) in entries {
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
                let mut entry = |(name, v): (&String, &mut Value)| {
                    if is_schema(v) { f(Step::Entry(keyword, name), v) } else { Ok(()) }
                };
                if iterates_sorted(entries) {
                    entries.iter_mut().try_for_each(&mut entry)?;
                } else {
                    KeyOrder::new(entries.iter_mut(), false).try_for_each(&mut entry)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The compact size of a keyword's `value` apart from the subschemas the walkers visit in it:
/// brackets and commas, map entry names (`key_len`, quotes included) and their colons, and every
/// member that is not a subschema (`len`). A value of the wrong shape for the keyword is all
/// `len`. Added to the sizes of the subschemas [`for_each_child`] visits under the keyword, it
/// gives the value's size; exact when `key_len` and `len` are.
pub(crate) fn size_beside_children(
    shape: Shape,
    value: &Value,
    key_len: impl Fn(&str) -> u64,
    mut len: impl FnMut(&Value) -> u64,
) -> u64 {
    match (shape, value) {
        (Shape::Single | Shape::Array, Value::Array(items)) => items
            .iter()
            .filter(|item| !is_schema(item))
            .fold(2 + items.len().saturating_sub(1) as u64, |n, item| n.saturating_add(len(item))),
        (Shape::Single, v) if is_schema(v) => 0,
        (Shape::Map, Value::Object(entries)) => {
            entries.iter().fold(2 + entries.len().saturating_sub(1) as u64, |n, (name, v)| {
                let member = if is_schema(v) { 0 } else { len(v) };
                n.saturating_add(key_len(name) + 1).saturating_add(member)
            })
        }
        (_, v) => len(v),
    }
}

/// [`for_each_child_mut`] over `output`, a copy of `input` without the entries whose key `keep`
/// refuses (a deep clone with those keys removed), with each child's original in `input` beside
/// it: `f` reads the original and may rewrite the copy. Children come in the order of
/// [`for_each_child`], skipping the keywords `keep` refuses; the first error stops the walk.
///
/// Building a map entry by entry costs a sort check and a bulk build per map; a deep clone copies
/// a map's nodes as they are, so cloning first and rewriting in place is the cheaper way to
/// produce a document that is mostly a copy of another. If `output` does not have the shape
/// described, entries are paired by position (never a panic).
pub(crate) fn zip_children_mut<'v, E>(
    input: &'v serde_json::Map<String, Value>,
    output: &mut serde_json::Map<String, Value>,
    keep: impl Fn(&str) -> bool,
    mut f: impl FnMut(Step<'v>, &'v Value, &mut Value) -> Result<(), E>,
) -> Result<(), E> {
    // Both sides in key order: for the default map that is their own order; with
    // `preserve_order` each is sorted, and the kept keys are the same set on both sides.
    let kept = input.iter().filter(|(key, _)| keep(key));
    let (input_sorted, output_sorted) = (iterates_sorted(input), iterates_sorted(output));
    let pairs = KeyOrder::new(kept, input_sorted).zip(KeyOrder::new(output.iter_mut(), output_sorted));
    for ((key, value), (_, copy)) in pairs {
        let Some((keyword, shape)) = static_keyword(key) else { continue };
        match (shape, value, copy) {
            (Shape::Single | Shape::Array, Value::Array(items), Value::Array(copies)) => {
                for (i, (item, copy)) in items.iter().zip(copies.iter_mut()).enumerate() {
                    if is_schema(item) {
                        f(Step::Index(keyword, i), item, copy)?;
                    }
                }
            }
            (Shape::Single, v, copy) if is_schema(v) => f(Step::Keyword(keyword), v, copy)?,
            (Shape::Map, Value::Object(entries), Value::Object(copies)) => {
                let (entries_sorted, copies_sorted) = (iterates_sorted(entries), iterates_sorted(copies));
                let pairs = KeyOrder::new(entries.iter(), entries_sorted)
                    .zip(KeyOrder::new(copies.iter_mut(), copies_sorted));
                for ((name, v), (_, copy)) in pairs {
                    if is_schema(v) {
                        f(Step::Entry(keyword, name), v, copy)?;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A new schema object from `schema`'s entries that `keep` accepts (it sees each key and value):
/// each immediate subschema is `f`'s result, any other value `copy`'s (a clone, or an error).
/// Keywords come in key order, as [`for_each_child`] visits them; the entries of a map of
/// subschemas (`properties`, `$defs`, ...) in the map's own order, which is key order too
/// without serde_json's `preserve_order` and the order they were written in with it. Entries
/// `keep` refuses are skipped; the first error stops the walk.
///
/// The keywords go into the new map in key order, so the result holds them in that order
/// whatever the map type; a map of subschemas is built in the order it was read, so with
/// `preserve_order` a schema's `properties` keep the input's order, as a deep copy keeps them.
pub(crate) fn copy_children<'v, E>(
    schema: &'v serde_json::Map<String, Value>,
    mut keep: impl FnMut(&str, &'v Value) -> bool,
    mut copy: impl FnMut(&'v Value) -> Result<Value, E>,
    mut f: impl FnMut(Step<'v>, &'v Value) -> Result<Value, E>,
) -> Result<serde_json::Map<String, Value>, E> {
    // Sized once: with `preserve_order` a map is a hash table that would otherwise grow (without
    // it the capacity is ignored). A single entry (a reference site, whose `$ref` the inliner
    // leaves out) allocates only if it is kept.
    let mut out = match schema.len() {
        0 | 1 => serde_json::Map::new(),
        n => serde_json::Map::with_capacity(n),
    };
    // Two copies of the loop, one per key order, as in `children_of`.
    if iterates_sorted(schema) {
        copy_children_in(schema.iter(), &mut keep, &mut copy, &mut f, &mut out)?;
    } else {
        copy_children_in(KeyOrder::new(schema.iter(), false), &mut keep, &mut copy, &mut f, &mut out)?;
    }
    Ok(out)
}

/// The fewest entries of a map of subschemas (`properties`) that [`copy_children`] gathers and
/// builds its copy from at once rather than inserting them one by one, and the most
/// ([`BULK_BUILD_MAX`]), where maps are B-trees (without `preserve_order`). Inserting in key
/// order compares each new key with every key of the B-tree nodes on its way, so a map built
/// from a sorted run costs fewer comparisons from about six entries on; past seventeen the
/// gathered run takes one allocation past glibc's small sizes (1 KiB), which costs more than the
/// comparisons it saves (callgrind, the corpus's schemas with definitions).
const BULK_BUILD: usize = 6;
const BULK_BUILD_MAX: usize = 17;

#[inline(always)]
fn copy_children_in<'v, E>(
    entries: impl Iterator<Item = (&'v String, &'v Value)>,
    keep: &mut impl FnMut(&str, &'v Value) -> bool,
    copy: &mut impl FnMut(&'v Value) -> Result<Value, E>,
    f: &mut impl FnMut(Step<'v>, &'v Value) -> Result<Value, E>,
    out: &mut serde_json::Map<String, Value>,
) -> Result<(), E> {
    for (key, value) in entries {
        if !keep(key, value) {
            continue;
        }
        let built = match (static_keyword(key), value) {
            (None, v) => copy(v)?,
            (Some((keyword, Shape::Single | Shape::Array)), Value::Array(items)) => {
                Value::Array(copy_members(keyword, items, &mut *copy, &mut *f)?)
            }
            (Some((keyword, Shape::Single)), v) if is_schema(v) => f(Step::Keyword(keyword), v)?,
            (Some((keyword, Shape::Map)), Value::Object(entries)) => {
                // In the map's own order (see `copy_children`). A B-tree (without
                // `preserve_order`) takes a mid-sized run of sorted entries cheaper in one go;
                // a hash table is sized once and takes them one by one.
                let bulk = !crate::vocab::map_order::map_preserves_order()
                    && (BULK_BUILD..=BULK_BUILD_MAX).contains(&entries.len());
                let mut run = Vec::with_capacity(if bulk { entries.len() } else { 0 });
                let mut built = serde_json::Map::with_capacity(if bulk { 0 } else { entries.len() });
                for (name, v) in entries {
                    let b = if is_schema(v) { f(Step::Entry(keyword, name), v)? } else { copy(v)? };
                    if bulk {
                        run.push((name.clone(), b));
                    } else {
                        built.insert(name.clone(), b);
                    }
                }
                Value::Object(if bulk { run.into_iter().collect() } else { built })
            }
            (Some(_), v) => copy(v)?,
        };
        out.insert(key.clone(), built);
    }
    Ok(())
}

/// The array under `keyword` (one of [`KEYWORDS`] that may hold an array of schemas) as
/// [`copy_children`] builds it: each subschema `f`'s result, each other member `copy`'s, in
/// order; the first error stops the walk. For a caller that handles such a keyword apart (the
/// inliner's optional unions) without building the map around it.
pub(crate) fn copy_members<'v, E>(
    keyword: &'static str,
    items: &'v [Value],
    mut copy: impl FnMut(&'v Value) -> Result<Value, E>,
    mut f: impl FnMut(Step<'v>, &'v Value) -> Result<Value, E>,
) -> Result<Vec<Value>, E> {
    let mut built = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        built.push(if is_schema(item) { f(Step::Index(keyword, i), item)? } else { copy(item)? });
    }
    Ok(built)
}

#[cfg(test)]
mod tests;
