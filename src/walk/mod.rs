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
/// depth budget. `visit` returns `false` to skip a node's children.
///
/// # Errors
///
/// The pointer at which the budget ran out, if it did.
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
pub(crate) fn visit_all_mut<E>(
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

/// Where a walk is: the steps from the root, kept on the stack and spelled as a JSON pointer only
/// when asked (for an error), so a walk that finds nothing wrong builds no text at all.
///
/// ```
/// use serde_json::json;
/// use toolschema::walk::{visit_objects, Location};
/// let schema = json!({"properties": {"a/b": {"items": {"type": "string"}}}});
/// let mut deepest = String::new();
/// visit_objects(&schema, 8, &mut |at: &Location<'_>, _| deepest = at.pointer().as_str().to_owned())
///     .unwrap();
/// assert_eq!(deepest, "/properties/a~1b/items");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Location<'a> {
    parent: Option<&'a Location<'a>>,
    step: Option<Step<'a>>,
    level: usize,
}

impl<'a> Location<'a> {
    /// The root, `""`.
    pub fn root() -> Self {
        Location { parent: None, step: None, level: 0 }
    }

    /// The location one step below this one.
    #[must_use]
    pub fn child(&'a self, step: Step<'a>) -> Location<'a> {
        Location { parent: Some(self), step: Some(step), level: self.level + 1 }
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// The last step, `None` at the root.
    pub fn step(&self) -> Option<Step<'a>> {
        self.step
    }

    /// The number of steps from the root.
    pub fn level(&self) -> usize {
        self.level
    }

    /// The JSON pointer of this location (built now, in O(level)).
    pub fn pointer(&self) -> crate::pointer::Pointer {
        let mut steps = Vec::with_capacity(self.level);
        let mut at = Some(self);
        while let Some(loc) = at {
            steps.extend(loc.step);
            at = loc.parent;
        }
        let mut pointer = crate::pointer::Pointer::root();
        for step in steps.iter().rev() {
            step.push_onto(&mut pointer);
        }
        pointer
    }
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pointer().as_str())
    }
}

/// Visits every schema object under `root` (the root included) top-down, with its [`Location`],
/// within the depth budget (which counts boolean schemas, though they are not visited).
///
/// The walk for visitors that need a pointer only when something is wrong: it builds none on the
/// way (compare [`visit_all`], which keeps one up to date at every node).
///
/// # Errors
///
/// The pointer at which the budget ran out, if it did.
pub fn visit_objects<'v>(
    root: &'v Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&Location<'_>, &'v serde_json::Map<String, Value>),
) -> Result<(), String> {
    fn go<'v>(
        map: &'v serde_json::Map<String, Value>,
        at: &Location<'_>,
        depth: Depth,
        visit: &mut dyn FnMut(&Location<'_>, &'v serde_json::Map<String, Value>),
    ) -> Result<(), String> {
        visit(at, map);
        let mut result = Ok(());
        for_each_child_of(map, |step, child| {
            if result.is_err() {
                return;
            }
            let here = at.child(step);
            // The budget counts boolean subschemas too, as in `visit_all`.
            result = match (depth.descend(), child) {
                (Some(d), Value::Object(child)) => go(child, &here, d, visit),
                (Some(_), _) => Ok(()),
                (None, _) => Err(here.pointer().as_str().to_owned()),
            };
        });
        result
    }
    let Value::Object(map) = root else { return Ok(()) };
    go(map, &Location::root(), Depth::new(max_depth), visit)
}

/// What [`visit_objects_mut`] calls at each schema object.
pub type ObjectVisitMut<'f, E> =
    dyn FnMut(&Location<'_>, &mut serde_json::Map<String, Value>) -> Result<(), E> + 'f;

/// [`visit_objects`], mutably: `visit` may edit each object (its children are visited after it,
/// as they are then).
///
/// # Errors
///
/// The first error `visit` returns, which stops the walk; or the one `overflow` makes for the
/// pointer at which the budget ran out.
pub fn visit_objects_mut<E>(
    root: &mut Value,
    max_depth: usize,
    visit: &mut ObjectVisitMut<'_, E>,
    overflow: &dyn Fn(String) -> E,
) -> Result<(), E> {
    fn go<E>(
        map: &mut serde_json::Map<String, Value>,
        at: &Location<'_>,
        depth: Depth,
        visit: &mut ObjectVisitMut<'_, E>,
        overflow: &dyn Fn(String) -> E,
    ) -> Result<(), E> {
        visit(at, map)?;
        for_each_child_of_mut(map, |step, child| {
            let here = at.child(step);
            // The budget counts boolean subschemas too, as in `visit_all_mut`.
            match (depth.descend(), child) {
                (Some(d), Value::Object(child)) => go(child, &here, d, visit, overflow),
                (Some(_), _) => Ok(()),
                (None, _) => Err(overflow(here.pointer().as_str().to_owned())),
            }
        })
    }
    let Value::Object(map) = root else { return Ok(()) };
    go(map, &Location::root(), Depth::new(max_depth), visit, overflow)
}

/// How deeply any JSON value in a schema may nest, counting every array and object (not only
/// subschemas): far beyond what a real tool schema holds (the default subschema budget of 128 is
/// about 260 levels of JSON), and shallow enough that serde_json's own recursive `Clone` and
/// `Drop` of such a value stay within a small thread stack.
pub const MAX_NESTING: usize = 512;

/// The nesting limit for a depth budget of `max_depth` subschema levels: [`MAX_NESTING`], or four
/// levels per unit of `max_depth` if that is more (a deeper budget is the caller's promise of a
/// deeper stack; a subschema level is at most two levels of JSON).
pub fn nesting_limit(max_depth: usize) -> usize {
    MAX_NESTING.max(max_depth.saturating_mul(4))
}

/// The pointer of the first place (in document order) where `value` nests deeper than `limit`
/// levels of arrays and objects, if it does; `const`, `default` and every other value count, not
/// only subschemas. Iterative, and stops at the first such place: memory stays within `limit`
/// frames.
pub(crate) fn nesting_exceeds(value: &Value, limit: usize) -> Option<String> {
    enum Frame<'a> {
        Array(std::iter::Enumerate<std::slice::Iter<'a, Value>>, usize),
        Object(serde_json::map::Iter<'a>, &'a str),
    }
    fn frame(v: &Value) -> Option<Frame<'_>> {
        match v {
            Value::Array(items) => Some(Frame::Array(items.iter().enumerate(), 0)),
            Value::Object(map) => Some(Frame::Object(map.iter(), "")),
            _ => None,
        }
    }
    // Nearly every value fits: answer that with a plain recursion (bounded by `limit`, at most a
    // few hundred small frames), and search iteratively, with the pointer, only when it does not.
    fn fits(value: &Value, budget: usize) -> bool {
        let deeper = |v: &Value| !matches!(v, Value::Array(_) | Value::Object(_)) || fits(v, budget - 1);
        match value {
            Value::Array(items) => budget > 0 && items.iter().all(deeper),
            Value::Object(map) => budget > 0 && map.values().all(deeper),
            _ => true,
        }
    }
    if limit <= MAX_NESTING && fits(value, limit) {
        return None;
    }
    let mut stack: Vec<Frame<'_>> = frame(value).into_iter().collect();
    if limit == 0 && !stack.is_empty() {
        return Some(String::new());
    }
    while let Some(top) = stack.last_mut() {
        let child = match top {
            Frame::Array(items, at) => items.next().map(|(i, v)| {
                *at = i;
                v
            }),
            Frame::Object(entries, at) => entries.next().map(|(k, v)| {
                *at = k.as_str();
                v
            }),
        };
        let Some(child) = child else {
            stack.pop();
            continue;
        };
        let Some(next) = frame(child) else { continue };
        if stack.len() >= limit {
            let mut pointer = crate::pointer::Pointer::root();
            for f in &stack {
                match f {
                    Frame::Array(_, i) => pointer.push_index(*i),
                    Frame::Object(_, k) => pointer.push(k),
                };
            }
            return Some(pointer.as_str().to_owned());
        }
        stack.push(next);
    }
    None
}

/// Frees a value of any depth without deep recursion: serde_json's own `Drop` recurses once per
/// level of arrays and objects, which a value built in code can nest past any thread's stack.
/// Whatever the crate removes or refuses goes through here.
///
/// Each array or object more than 32 levels below the one being freed is moved onto a heap
/// stack (its place left `null`), and what is left, at most that deep, goes to serde_json's own
/// `Drop`, which frees each node where it lies; then each value on the stack the same way. Only
/// a value nested that deep is ever moved, so a schema of ordinary depth costs one read of its
/// containers and the ordinary free.
///
/// ```
/// use serde_json::{Map, Value};
/// let mut deep = Value::Null;
/// for _ in 0..100_000 {
///     deep = Value::Object(Map::from_iter([("k".to_owned(), deep)]));
/// }
/// toolschema::walk::drop_any_depth(deep);
/// ```
pub fn drop_any_depth(mut value: Value) {
    let mut deep = Vec::new();
    loop {
        cut_below(&mut value, DROP_LEVELS, &mut deep);
        drop(value);
        match deep.pop() {
            Some(next) => value = next,
            None => return,
        }
    }
}

/// How many levels of arrays and objects [`drop_any_depth`] leaves to serde_json's recursive
/// `Drop` (and its own walk recurses): few enough for any thread's stack, enough that an ordinary
/// tool schema is not moved.
const DROP_LEVELS: usize = 32;

/// Moves every array and object `levels` levels below `value` onto `deep`, leaving `null`.
fn cut_below(value: &mut Value, levels: usize, deep: &mut Vec<Value>) {
    let mut visit = |child: &mut Value| {
        if matches!(child, Value::Array(_) | Value::Object(_)) {
            match levels.checked_sub(1) {
                Some(below) => cut_below(child, below, deep),
                None => deep.push(std::mem::take(child)),
            }
        }
    };
    match value {
        Value::Array(items) => items.iter_mut().for_each(&mut visit),
        Value::Object(map) => map.values_mut().for_each(&mut visit),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
