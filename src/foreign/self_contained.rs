//! [`self_contained_input_schema`]: a foreign tool schema with every local `$ref` inlined.
//!
//! See the [module documentation](crate::foreign) for what it does and why; this file holds the
//! four steps:
//!
//! 1. **discover** every reference target reachable from the root, checking the shape of what it
//!    walks (`$ref` a string, `required` a list of strings, `$defs` a map) and the depth, counted
//!    from the root through the references followed, so a chain of references too deep is
//!    refused before the targets past the budget are registered; it also notes each target's
//!    height, each reference site's depth and a bound of each target's size;
//! 2. group the targets into strongly connected components (Tarjan, iterative), so that a
//!    target's expansion is known to be the same wherever no member of its component is being
//!    expanded;
//! 3. **measure** the expansion without building it: a lower bound of the output's size, its
//!    depth and every recursion point, memoised per target where that is valid, so a DAG of
//!    shared definitions costs one visit per definition and is refused before anything is built.
//!    Where the references form no cycle and a bound from step 1 (each target's size times the
//!    number of reference paths to it, and the deepest level reached) is within both budgets,
//!    the measure could not refuse, and is left out ([`Inliner::expansion_fits`]);
//! 4. **build** the output entry by entry from the root (and from each target a reference site
//!    expands), leaving out the keywords the output drops ([`walk::copy_children`]); with
//!    serde_json's `preserve_order`, a deep clone rewritten in place while the original is read
//!    beside it ([`walk::zip_children_mut`]), which keeps each map's order. Then a bound of its
//!    compact size that reads no string ([`json_bound`]), and the exact size only when that bound
//!    passes the budget.
//!
//! Most schemas pass every check and every budget, so the general path first builds its output
//! in one walk ([`build_in_one_walk`]): step 4 from the root, making step 1's checks on each node
//! as it goes, with a small bound on the objects it builds, then the size check (from a bound of
//! the output's size added up as it builds, so most outputs are never read again). Where that walk
//! meets an error, a budget or anything else it cannot vouch for, its work is dropped and the four
//! steps run, so every error is the one they report.
//!
//! A root without `$defs` or `definitions` first takes the plain path: [`survey`] makes step 1's
//! checks on each node, reading each key once, and adds up a bound of the size. Where it cannot
//! vouch for the schema (a `$ref`, a failed check, the depth budget, a value nested deep) the
//! general path reads it instead, and reports any error. Otherwise the output is the input's deep
//! clone, rewritten only where the survey found something to rewrite (a title, a union, a `type`
//! list). The survey also bounds the depth, so the clone (which recurses) cannot overflow the
//! stack.

use super::error::ForeignSchemaError as Error;
use crate::canonical;
use crate::pointer::Pointer;
use crate::refs::{self, RefError};
use crate::walk::drop_any_depth;
use crate::walk::{self, Shape, Step};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// Budgets for [`self_contained_input_schema_with`].
///
/// ```
/// use toolschema::SelfContainedOptions;
/// let o = SelfContainedOptions { max_bytes: 64 * 1024, ..SelfContainedOptions::new() };
/// assert_eq!(o.max_depth, SelfContainedOptions::DEFAULT_MAX_DEPTH);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelfContainedOptions {
    /// The largest output allowed, in bytes of compact JSON. An expansion that would pass it is
    /// refused before it is built, from a memoised lower bound of its size; an output that passes
    /// it once built is refused too. Default [`Self::DEFAULT_MAX_BYTES`] (4 MiB).
    pub max_bytes: usize,
    /// The deepest nesting allowed, in subschema levels plus `$ref` hops (a reference followed
    /// counts as one level, so a chain of references is bounded too). Checked before descending.
    /// Default [`Self::DEFAULT_MAX_DEPTH`] (128, as everywhere in this crate).
    pub max_depth: usize,
}

impl SelfContainedOptions {
    /// 4 MiB: far above any real tool schema, far below what an exponential expansion reaches.
    pub const DEFAULT_MAX_BYTES: usize = 4 * 1024 * 1024;
    /// 128 levels, the crate-wide [`Depth::DEFAULT_MAX`](crate::walk::Depth::DEFAULT_MAX).
    pub const DEFAULT_MAX_DEPTH: usize = crate::walk::Depth::DEFAULT_MAX;

    /// The defaults.
    pub const fn new() -> Self {
        SelfContainedOptions { max_bytes: Self::DEFAULT_MAX_BYTES, max_depth: Self::DEFAULT_MAX_DEPTH }
    }
}

impl Default for SelfContainedOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// `schema` with every local reference inlined, as one `type: "object"` schema with
/// `properties` and `required`, under the default [`SelfContainedOptions`].
///
/// `tool_name` only labels errors. See the [module documentation](crate::foreign).
///
/// ```
/// use serde_json::json;
/// let pydantic = json!({
///     "$defs": {"Shot": {"properties": {"prompt": {"title": "Prompt", "type": "string"}},
///                        "required": ["prompt"], "title": "Shot", "type": "object"}},
///     "properties": {"shots": {"items": {"$ref": "#/$defs/Shot"}, "title": "Shots", "type": "array"}},
///     "required": ["shots"], "title": "Storyboard", "type": "object"
/// });
/// let out = toolschema::self_contained_input_schema(&pydantic, "storyboard").unwrap();
/// assert_eq!(out, json!({
///     "type": "object",
///     "properties": {"shots": {"type": "array", "items": {
///         "type": "object", "properties": {"prompt": {"type": "string"}}, "required": ["prompt"]}}},
///     "required": ["shots"]
/// }));
/// ```
///
/// # Errors
/// A [`ForeignSchemaError`](crate::ForeignSchemaError) naming the tool and the JSON pointer: the
/// root is not an object schema, a keyword is malformed, a reference cannot be followed, a
/// recursion point has no type, or a budget would be passed.
pub fn self_contained_input_schema(schema: &Value, tool_name: &str) -> Result<Value, Error> {
    self_contained_input_schema_with(schema, tool_name, &SelfContainedOptions::new())
}

/// [`self_contained_input_schema`] under the given budgets.
///
/// ```
/// use serde_json::json;
/// use toolschema::{self_contained_input_schema_with, SelfContainedOptions};
/// let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
/// let tight = SelfContainedOptions { max_bytes: 16, ..SelfContainedOptions::new() };
/// let err = self_contained_input_schema_with(&schema, "t", &tight).unwrap_err();
/// assert_eq!(err.kind(), "too-large");
/// ```
///
/// # Errors
/// As [`self_contained_input_schema`].
pub fn self_contained_input_schema_with(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<Value, Error> {
    if !schema.is_object() {
        return Err(Error::NotAnObject {
            tool: tool_name.to_owned(),
            pointer: String::new(),
            found: describe(schema),
        });
    }
    // Most tool schemas hold no reference at all, so the plain path runs first (see `survey`),
    // checking each node as discovery would; the first `$ref`, `$defs` or `definitions` it meets
    // hands the schema to the general path, which checks the root's `type` before anything else.
    inline(schema, tool_name, options, true)
}

/// [`self_contained_input_schema`] on a schema the caller hands over: the same result and the
/// same errors, without copying the input where it has no reference.
///
/// A gateway that parses each tool's schema into a [`Value`] only to make it self-contained has
/// no further use for the parsed value; handing it over spares the deep copy the borrowing
/// function makes (most of its time on a schema without `$defs`). A schema with `$defs`,
/// `definitions` or a `$ref` is inlined as [`self_contained_input_schema`] does it, then the
/// input is freed. A refused input is freed without recursion, however deep it nests.
///
/// ```
/// use serde_json::json;
/// use toolschema::{self_contained_input_schema, self_contained_input_schema_owned};
/// let schema: serde_json::Value = serde_json::from_str(
///     r#"{"title": "Search", "type": "object",
///         "properties": {"q": {"title": "Q", "type": "string"},
///                        "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null}},
///         "required": ["q"]}"#,
/// )?;
/// let borrowed = self_contained_input_schema(&schema, "search")?;
/// let owned = self_contained_input_schema_owned(schema, "search")?;
/// assert_eq!(owned, borrowed);
/// assert_eq!(owned, json!({
///     "type": "object",
///     "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
///     "required": ["q"]
/// }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`self_contained_input_schema`], with the same pointers and messages.
pub fn self_contained_input_schema_owned(schema: Value, tool_name: &str) -> Result<Value, Error> {
    self_contained_input_schema_owned_with(schema, tool_name, &SelfContainedOptions::new())
}

/// [`self_contained_input_schema_owned`] under the given budgets: the result and errors of
/// [`self_contained_input_schema_with`].
///
/// ```
/// use serde_json::json;
/// use toolschema::{self_contained_input_schema_owned_with, SelfContainedOptions};
/// let schema = json!({"type": "object", "properties": {"a": {"items": {"type": "string"}}}});
/// let shallow = SelfContainedOptions { max_depth: 1, ..SelfContainedOptions::new() };
/// let err = self_contained_input_schema_owned_with(schema, "t", &shallow).unwrap_err();
/// assert_eq!((err.kind(), err.pointer()), ("too-deep", "/properties/a/items"));
/// ```
///
/// # Errors
/// As [`self_contained_input_schema_with`].
pub fn self_contained_input_schema_owned_with(
    schema: Value,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<Value, Error> {
    match plain_in_place(schema, tool_name, options) {
        Plain::Done(result) => result,
        Plain::General(schema) => {
            let result = self_contained_input_schema_with(&schema, tool_name, options);
            drop_any_depth(schema);
            result
        }
    }
}

/// Refuses a schema holding a value nested deeper than [`walk::MAX_NESTING`] levels (or four per
/// unit of `max_depth`, if more): a `const` or `default` the depth budget does not count, which
/// serde_json's recursive `Clone` and `Drop` could not take on a small stack. Checked after the
/// depth budget, so a schema too deep in its subschemas keeps that error.
fn nesting_within(schema: &Value, tool_name: &str, options: &SelfContainedOptions) -> Result<(), Error> {
    let limit = walk::nesting_limit(options.max_depth);
    match walk::nesting_exceeds(schema, limit) {
        None => Ok(()),
        Some(pointer) => Err(too_nested(tool_name, pointer, limit)),
    }
}

/// The error of [`nesting_within`].
fn too_nested(tool_name: &str, pointer: String, limit: usize) -> Error {
    Error::Malformed {
        tool: tool_name.to_owned(),
        pointer,
        message: format!(
            "a value here nests deeper than {limit} levels of arrays and objects; no tool schema needs \
             that"
        ),
    }
}

/// The plain path's one walk before it copies anything, on a schema it can take: every check
/// discovery makes on each schema object (`required` a list of strings, `$defs` and
/// `definitions` maps), the depth budget before each descent, whether [`rewrite_in_place`] has
/// anything to rewrite (a keyword the output drops, a union or a `type` list [`collapse`] may
/// change), and a [`json_bound`] of the output before [`finish`].
///
/// `None` wherever the plain path cannot vouch for the schema: a `$ref`, a failed check, a descent
/// past `max_depth`, or a value the recursive clone must not copy without a nesting check (one
/// nested past [`SIZE_RECURSION`] levels beside its subschema, a title that is an array or an
/// object, a nested `$defs`). The general path then reads the schema, and reports any error with
/// its pointer: a law checks that both paths give the same answer wherever the plain one gives
/// one. Where it answers, every value is within [`SIZE_RECURSION`] levels of a subschema at most
/// `max_depth` levels down, far inside [`nesting_within`]'s limit.
///
/// It reads each key once, and sizes and descends in the same loop: the bound does not depend on
/// the order the map iterates in (the sums saturate).
fn survey(node: &Value, level: usize, max_depth: usize) -> Option<Survey> {
    let Value::Object(map) = node else {
        return Some(Survey { bound: json_bound(node), rewrite: false });
    };
    let mut found = Survey { bound: 0, rewrite: false };
    let mut kept = 0u64;
    for (key, v) in map {
        let value = match survey_role(key) {
            Role::Stop => return None,
            Role::Title if matches!(v, Value::Array(_) | Value::Object(_)) => return None,
            Role::Title => {
                found.rewrite = true;
                continue;
            }
            Role::Required => names_bound(v)?,
            Role::Type => {
                found.rewrite |= v.is_array();
                bound_beside(v)?
            }
            Role::Union => {
                found.rewrite = true;
                survey_keyword(Shape::Array, v, level, max_depth, &mut found)?
            }
            Role::Children(shape) => survey_keyword(shape, v, level, max_depth, &mut found)?,
            Role::Value => bound_beside(v)?,
        };
        kept += 1;
        found.bound = found.bound.saturating_add(key_size::<false>(key) + 1).saturating_add(value);
    }
    // Braces, and a comma between entries.
    found.bound = found.bound.saturating_add(2 + kept.saturating_sub(1));
    Some(found)
}

/// What [`survey`] does with a key of a schema object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// `$ref`, `$defs`, `definitions`: the general path must read the schema.
    Stop,
    /// Dropped from the output.
    Title,
    /// Must be a list of names.
    Required,
    /// A list may lose its `"null"`.
    Type,
    /// `anyOf`, `oneOf`: an array of subschemas, which [`collapse`] may rewrite.
    Union,
    /// Any other keyword holding subschemas, as [`walk::keyword_shape`] gives its shape.
    Children(Shape),
    /// A value no walker enters.
    Value,
}

/// The [`Role`] of a key: a `match` on the length first, as in [`walk::keyword_shape`], so the
/// keys of a typical schema (`type`, `description`, `properties`, `enum`) cost a comparison or
/// two and no call. A unit test checks it against [`walk::KEYWORDS`].
#[inline(always)]
fn survey_role(key: &str) -> Role {
    use Shape::{Array, Map, Single};
    match key.len() {
        4 => match key {
            "type" => Role::Type,
            "$ref" => Role::Stop,
            "else" | "then" => Role::Children(Single),
            _ => Role::Value,
        },
        5 => match key {
            "title" => Role::Title,
            "anyOf" | "oneOf" => Role::Union,
            "items" => Role::Children(Single),
            "allOf" => Role::Children(Array),
            "$defs" => Role::Stop,
            _ => Role::Value,
        },
        7 => Role::Value,
        8 => match key {
            "required" => Role::Required,
            "contains" => Role::Children(Single),
            _ => Role::Value,
        },
        10 => match key {
            "properties" => Role::Children(Map),
            _ => Role::Value,
        },
        11 => match key {
            "definitions" => Role::Stop,
            "prefixItems" => Role::Children(Array),
            _ => Role::Value,
        },
        _ => walk::keyword_shape(key).map_or(Role::Value, Role::Children),
    }
}

/// [`bound_beside`] of a `required` list, in the one pass that checks it holds names only;
/// `None` if it does not.
#[inline]
fn names_bound(v: &Value) -> Option<u64> {
    let Value::Array(names) = v else { return None };
    let mut n = 2 + names.len().saturating_sub(1) as u64;
    for name in names {
        let Value::String(name) = name else { return None };
        n = n.saturating_add(6 * name.len() as u64 + 2);
    }
    Some(n)
}

/// The bound of a keyword's value that may hold subschemas (a shape from
/// [`walk::keyword_shape`]): [`walk::size_beside_children`] of it, plus each child's
/// [`survey`] bound; the children's findings are added to `found`.
fn survey_keyword(
    shape: Shape,
    v: &Value,
    level: usize,
    max_depth: usize,
    found: &mut Survey,
) -> Option<u64> {
    Some(match (shape, v) {
        (Shape::Single | Shape::Array, Value::Array(items)) => {
            let mut n = 2 + items.len().saturating_sub(1) as u64;
            for item in items {
                n = n.saturating_add(survey_member(item, level, max_depth, found)?);
            }
            n
        }
        (Shape::Single, v) if walk::is_schema(v) => survey_member(v, level, max_depth, found)?,
        (Shape::Map, Value::Object(entries)) => {
            let mut n = 2 + entries.len().saturating_sub(1) as u64;
            for (name, v) in entries {
                let size = survey_member(v, level, max_depth, found)?;
                n = n.saturating_add(key_size::<false>(name) + 1).saturating_add(size);
            }
            n
        }
        (_, v) => bound_beside(v)?,
    })
}

/// A member of a keyword's value at `level`: a schema is surveyed one level down (within
/// `max_depth`), its findings added to `found`; anything else is sized.
#[inline]
fn survey_member(v: &Value, level: usize, max_depth: usize, found: &mut Survey) -> Option<u64> {
    if !walk::is_schema(v) {
        return bound_beside(v);
    }
    if level >= max_depth {
        return None;
    }
    let below = survey(v, level + 1, max_depth)?;
    found.rewrite |= below.rewrite;
    Some(below.bound)
}

/// [`json_bound`] of a value no walker enters; `None` if it nests past [`SIZE_RECURSION`] levels.
#[inline]
fn bound_beside(v: &Value) -> Option<u64> {
    match v {
        Value::Array(_) | Value::Object(_) => {
            let mut deep = false;
            let n = size_at::<false>(v, 0, &mut deep);
            (!deep).then_some(n)
        }
        scalar => Some(scalar_size::<false>(scalar)),
    }
}

/// What [`plain_in_place`] did with the schema it was handed.
enum Plain {
    /// The answer: the input rewritten in place, or an error (the input freed).
    Done(Result<Value, Error>),
    /// The schema has definitions or a reference: the general path must read it.
    General(Value),
}

/// The plain path of [`build_root`] on the input itself: the same root checks and [`survey`] on
/// a borrow, then [`rewrite_in_place`] and [`finish_within_budget`] on the value instead of a
/// copy. Every error before the rewrite frees the input without recursion.
fn plain_in_place(schema: Value, tool_name: &str, options: &SelfContainedOptions) -> Plain {
    let checked = match &schema {
        Value::Object(_) => match survey(&schema, 0, options.max_depth) {
            Some(survey) => Ok(survey),
            None => return Plain::General(schema),
        },
        other => Err(Error::NotAnObject {
            tool: tool_name.to_owned(),
            pointer: String::new(),
            found: describe(other),
        }),
    };
    // A rewrite may change the root's `type` (an optional root's `null` dropped): as on the
    // general path, the type as written is checked first.
    let checked = checked.and_then(|found| {
        if found.rewrite {
            check_root_type(schema.get("type"), tool_name)?;
        }
        Ok(found)
    });
    let Survey { bound, rewrite } = match checked {
        Ok(survey) => survey,
        Err(e) => {
            drop_any_depth(schema);
            return Plain::Done(Err(e));
        }
    };
    let mut out = schema;
    if !rewrite {
        // As `build_plain`: the output is the input as `finish` leaves it.
        let bound = Some(bound.saturating_add(FINISH_GROWTH));
        return Plain::Done(finish_within_budget(out, bound, tool_name, options));
    }
    if let Err(e) = rewrite_in_place(&mut out, Ctx::Optional, &Trail::Root, 0, tool_name, options) {
        drop_any_depth(out);
        return Plain::Done(Err(e));
    }
    Plain::Done(finish_within_budget(out, None, tool_name, options))
}

/// [`Inliner::build`] on a schema without references, rewriting `out` itself rather than a copy
/// beside its original: the same keywords dropped (freed without recursion), the same children
/// visited in the same order with the same [`Ctx`], the same unions collapsed. It runs after
/// [`survey`] has checked every node, so it meets no reference; the depth budget is still checked
/// before each descent.
fn rewrite_in_place(
    out: &mut Value,
    ctx: Ctx,
    trail: &Trail<'_>,
    level: usize,
    tool: &str,
    options: &SelfContainedOptions,
) -> Result<(), Error> {
    let Value::Object(map) = out else { return Ok(()) };
    let keys = Keys::of(map);
    let dropped = [
        (keys.title, "title"),
        (keys.reference.is_some(), "$ref"),
        (keys.defs, "$defs"),
        (keys.definitions, "definitions"),
    ];
    let (children, collapsible) = (keys.children, keys.union || keys.type_list);
    for (present, key) in dropped {
        if present && let Some(v) = map.remove(key) {
            drop_any_depth(v);
        }
    }
    if children {
        // `required` is read beside the children (which never hold it), so it is lent out of its
        // slot for the walk and put back where it was.
        let required = match map.get_mut("required") {
            Some(names @ Value::Array(_)) => std::mem::take(names),
            _ => Value::Null,
        };
        let names = Required::new(required.as_array().map_or(&[], Vec::as_slice), &[]);
        let walked = walk::for_each_child_mut(out, |step, child| {
            let child_trail = Trail::Child(trail, step);
            if level >= options.max_depth {
                return Err(Error::TooDeep {
                    tool: tool.to_owned(),
                    pointer: child_trail.render(),
                    max_depth: options.max_depth,
                });
            }
            rewrite_in_place(child, names.ctx_of(step, ctx), &child_trail, level + 1, tool, options)
        });
        if let Value::Object(map) = &mut *out
            && let Some(slot) = map.get_mut("required")
            && required.is_array()
        {
            *slot = required;
        }
        walked?;
    }
    if collapsible {
        *out = collapse(std::mem::take(out), ctx);
    }
    Ok(())
}

/// Steps 1 to 4 on an object root; with `try_plain`, first the plain path (see [`survey`]),
/// which gives the same result whenever it finishes.
fn inline(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
    try_plain: bool,
) -> Result<Value, Error> {
    let (built, bound) = match try_plain.then(|| survey(schema, 0, options.max_depth)).flatten() {
        Some(found) => build_plain(schema, found, tool_name, options)?,
        None => build_general(schema, tool_name, options, builder())?,
    };
    finish_within_budget(built, bound, tool_name, options)
}

/// The built root, before [`finish`], and a bound of its size once finished when one is known
/// without a walk.
#[cfg(test)]
fn build_root(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
    try_plain: bool,
) -> Result<(Value, Option<u64>), Error> {
    build_root_as(schema, tool_name, options, try_plain, builder())
}

/// How the general path builds its output in this build: without `preserve_order` a map holds
/// its entries in key order, however they were put in, so the output may be built entry by
/// entry ([`Inliner::construct`]); with it, copying and rewriting keeps each map in the input's
/// order, as the plain path does.
fn builder() -> Builder {
    if crate::passes::map_preserves_order() { Builder::Copy } else { Builder::OneWalk }
}

/// How the general path builds its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Builder {
    /// [`Inliner::build`] on a copy of the root.
    Copy,
    /// [`Inliner::construct`], after the four steps' checks (what [`Builder::OneWalk`] falls
    /// back to; alone only in tests).
    #[cfg(test)]
    Construct,
    /// [`build_in_one_walk`] first, then [`Builder::Construct`] where it cannot vouch.
    OneWalk,
}

/// [`build_root`], the general path building its output as `builder` says.
#[cfg(test)]
fn build_root_as(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
    try_plain: bool,
    builder: Builder,
) -> Result<(Value, Option<u64>), Error> {
    match try_plain.then(|| survey(schema, 0, options.max_depth)).flatten() {
        Some(found) => build_plain(schema, found, tool_name, options),
        None => build_general(schema, tool_name, options, builder),
    }
}

/// The plain path's output before [`finish`], where [`survey`] has vouched for the schema: a
/// copy, rewritten where the survey found something to rewrite.
fn build_plain(
    schema: &Value,
    Survey { bound, rewrite }: Survey,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<(Value, Option<u64>), Error> {
    // The survey has bounded the subschema depth, and every other value's nesting: the
    // (recursive) clone is safe.
    if !rewrite {
        // The output is the input as `finish` leaves it.
        return Ok((schema.clone(), Some(bound.saturating_add(FINISH_GROWTH))));
    }
    // A rewrite may change the root's `type` (an optional root's `null` dropped): as on the
    // general path, the type as written is checked first.
    check_root_type(schema.get("type"), tool_name)?;
    let mut out = schema.clone();
    rewrite_in_place(&mut out, Ctx::Optional, &Trail::Root, 0, tool_name, options)?;
    Ok((out, None))
}

/// The general path's output before [`finish`]: the root's `type` checked first, then steps 1 to
/// 4, built as `builder` says.
fn build_general(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
    builder: Builder,
) -> Result<(Value, Option<u64>), Error> {
    check_root_type(schema.get("type"), tool_name)?;
    if builder == Builder::OneWalk
        && let Some(done) = build_in_one_walk(schema, tool_name, options)
    {
        return Ok(done);
    }
    let mut inliner = Inliner::new(schema, tool_name, options);
    inliner.discover()?;
    // Where the expansion provably fits, a bound of the output's size too, which spares the
    // size check its walks over the output.
    let mut bound = None;
    if !inliner.by_reference.is_empty() {
        inliner.components();
        bound = inliner.expansion_fits().map(|built| built.saturating_add(FINISH_GROWTH));
        if bound.is_none() {
            inliner.measure_root()?;
        }
    }
    inliner.set_on_stack(0, true);
    // Discovery bounded the subschema depth; a `const` or `default` may still nest without limit,
    // and serde_json's clone recurses. Where discovery met no such value, only a root definition
    // no reference reaches can hold one.
    if inliner.deep {
        nesting_within(schema, tool_name, options)?;
    } else {
        inliner.definitions_nesting_within()?;
    }
    if builder != Builder::Copy {
        // Built entry by entry, in key order: the order a map keeps without `preserve_order`.
        let out = inliner.construct(schema, Ctx::Optional, &[], &Trail::Root, 0)?;
        return Ok((out, bound));
    }
    // The root's copy leaves its definitions out: only the references into them reach them.
    let mut out = match schema {
        Value::Object(map) => {
            // Inserted in the map's own order (no vector gathered and sorted first, as `collect`
            // does): with `preserve_order` that is the order `collect` keeps too.
            let mut copy = Map::new();
            for (key, v) in map {
                if not_definitions(key) {
                    copy.insert(key.clone(), v.clone());
                }
            }
            Value::Object(copy)
        }
        other => other.clone(),
    };
    inliner.build(schema, &mut out, Ctx::Optional, &[], &Trail::Root, 0)?;
    Ok((out, bound))
}

/// The most schema objects [`build_in_one_walk`] builds before it leaves the schema to the four
/// steps: three times the largest output of a real schema in the corpus (162 objects, a
/// 60-property pydantic model), and small enough that an exponential expansion costs little
/// before discovery and the measure refuse it (`dag_doubling_40`: at 4096 this wasted 1.1 ms and
/// 2 MiB on building and dropping; the target for a hostile input is under 1 ms).
const ONE_WALK_OBJECTS: u64 = 512;

/// The general path's output in one walk, for the common case: [`Inliner::construct`] from the
/// root making discovery's checks on each node as it goes, then
/// [`Inliner::definitions_nesting_within`], [`finish`] and the size check: against
/// [`Inliner::built_bound`] (each object's [`Keys::sized`] bound plus [`OBJECT_SLACK`], added up
/// as it builds), and only where that passes the budget against [`json_bound`] of the output,
/// then its exact size. `None` (and the four steps run) on anything that walk cannot vouch for:
/// any error, a reference site at the depth budget (discovery refuses one even where the build
/// meets a recursion point there), more than [`ONE_WALK_OBJECTS`] or half `max_bytes` objects
/// built, a value that may nest deep (see [`copy_value`]: the four steps check the whole input's
/// nesting first), or an output over the budget.
///
/// When it returns the output, the four steps return the same: the build is the same function
/// from the same state; discovery checks each node it scans as the walk did (the walk visits
/// every node of every target, at the levels discovery reaches them first, as the build does);
/// and the measure passes, as it counts at most the objects the walk built (its work check)
/// and a lower bound of the finished output's size, which is within the budget.
fn build_in_one_walk(
    schema: &Value,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Option<(Value, Option<u64>)> {
    let mut inliner = Inliner::for_one_walk(schema, tool_name, options);
    let built = inliner.construct(schema, Ctx::Optional, &[], &Trail::Root, 0).ok()?;
    // The walk copied no value nesting deep (see `copy_value`) and left none unread but the root's
    // definitions that no reference reaches: `nesting_within` would pass if these do.
    inliner.definitions_nesting_within().ok()?;
    let out = finish(built, tool_name).ok()?;
    let max = options.max_bytes as u64;
    // The bound accumulated while building, else one read from the output, else its exact size.
    let size = match inliner.built_bound.saturating_add(FINISH_GROWTH) {
        bound if bound <= max => bound,
        _ => match json_bound(&out) {
            bound if bound <= max => bound,
            _ => json_len(&out),
        },
    };
    if size > max {
        drop_any_depth(out);
        return None;
    }
    Some((out, Some(size)))
}

/// What [`Inliner::construct`] adds to [`Inliner::built_bound`] for each object it builds, beyond
/// the object's own [`Keys::sized`] bound, for what the output holds that no input object did:
/// [`combine`] puts a family of conflicting keywords (or the whole definition) into an `allOf`
/// member (`"allOf":[{}]` and a comma, 38 bytes of [`json_bound`]); a reference site is
/// combined twice (with its definition, then in [`collapse`]); and [`collapse`] may turn a
/// required union's member's `type` into a list with `"null"` (29 bytes, while the union's key
/// and its `null` member, larger, go). Merging two objects into one, dropping duplicates and
/// moving members only shrink the bound. A law checks the sum against the output's
/// [`json_bound`].
const OBJECT_SLACK: u64 = 128;

/// A copy of a value that is not a subschema, for [`Inliner::construct`]. Without discovery
/// (`checking`), nothing has checked how deep the value nests and serde_json's `Clone` recurses:
/// one nesting past [`SIZE_RECURSION`] levels is not copied, and the one walk gives up
/// ([`one_walk_gives_up`]). Within that depth, every value the walk copies or leaves unread
/// stays far inside [`nesting_within`]'s limit, so its check of the whole input is not needed.
#[inline]
fn copy_value(v: &Value, checking: bool) -> Result<Value, Error> {
    match v {
        Value::Array(_) | Value::Object(_) if checking => {
            copy_within(v, SIZE_RECURSION).ok_or_else(one_walk_gives_up)
        }
        _ => Ok(v.clone()),
    }
}

/// A clone of `v` if it nests at most `levels` deep, else `None`; an array is measured as it is
/// copied (one pass), an object (rare beside a keyword) first.
fn copy_within(v: &Value, levels: usize) -> Option<Value> {
    match v {
        Value::Array(items) => {
            let below = levels.checked_sub(1)?;
            let mut copy = Vec::with_capacity(items.len());
            for item in items {
                copy.push(copy_within(item, below)?);
            }
            Some(Value::Array(copy))
        }
        Value::Object(_) => walk::nesting_exceeds(v, levels).is_none().then(|| v.clone()),
        scalar => Some(scalar.clone()),
    }
}

/// Whether [`Inliner::construct`] without discovery would copy a null schema (`type` null
/// beside annotations) rather than give up: no title that is an array or object, no value
/// nesting past [`SIZE_RECURSION`] levels (see [`copy_value`]).
fn copies_within(null_member: &Value) -> bool {
    let Value::Object(m) = null_member else { return true };
    m.iter().all(|(key, v)| match v {
        Value::Array(_) | Value::Object(_) => {
            key != "title" && walk::nesting_exceeds(v, SIZE_RECURSION).is_none()
        }
        _ => true,
    })
}

/// Whether an entry [`Inliner::construct`] drops unread (see [`dropped`]) may hold a value nested
/// deep that the one walk has not checked: a title that is an array or an object, or definitions
/// anywhere but at the root (whose are checked apart, [`Inliner::definitions_nesting_within`]).
fn may_nest_unread(key: &str, v: &Value, at_root: bool) -> bool {
    match key {
        "title" => matches!(v, Value::Array(_) | Value::Object(_)),
        "$defs" | "definitions" => !at_root,
        _ => false,
    }
}

/// What [`Inliner::construct`] returns where [`build_in_one_walk`] cannot vouch for the output:
/// never reported (the four steps then run and report their own error, if any).
fn one_walk_gives_up() -> Error {
    Error::TooLarge { tool: String::new(), pointer: String::new(), size: 0, max_bytes: 0 }
}

/// [`finish`], then [`within_budget`].
fn finish_within_budget(
    built: Value,
    bound: Option<u64>,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<Value, Error> {
    within_budget(finish(built, tool_name)?, bound, tool_name, options)
}

/// The size check on a finished output: the exact size is counted only when a bound (`bound`,
/// else [`json_bound`], which reads no string and formats no number) passes the budget.
fn within_budget(
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
const FINISH_GROWTH: u64 = 64;

/// What a non-object root is, for [`Error::NotAnObject`].
fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "`null`",
        Value::Bool(true) => "the boolean schema `true`",
        Value::Bool(false) => "the boolean schema `false`",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Whether a root `type` says object: `"object"`, `"dict"` (the Python spelling BFCL writes), or
/// a list that includes `"object"` (an optional root collapses to it).
fn root_type_ok(t: &Value) -> bool {
    match t {
        Value::String(s) => s == "object" || s == "dict",
        Value::Array(ts) => ts.iter().any(|t| t == "object"),
        _ => false,
    }
}

fn check_root_type(t: Option<&Value>, tool: &str) -> Result<(), Error> {
    match t {
        Some(t) if !root_type_ok(t) => Err(Error::RootNotObject {
            tool: tool.to_owned(),
            pointer: String::new(),
            found: canonical::to_string(t),
        }),
        _ => Ok(()),
    }
}

/// The root's final shape: `type: "object"`, `properties`, `required`, no description.
///
/// What it removes, replaces or refuses is freed without recursion ([`drop_any_depth`]): a
/// value taken by [`self_contained_input_schema_owned`] may nest past any depth under keywords
/// no walk descends into (`const`, `default`, an annotation).
fn finish(built: Value, tool: &str) -> Result<Value, Error> {
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
fn malformed_root_properties(tool: &str, found: &str) -> Error {
    Error::Malformed {
        tool: tool.to_owned(),
        pointer: "/properties".to_owned(),
        message: format!("`properties` must be a map from names to schemas, found {found}"),
    }
}

/// [`finish`] on an object root, in place.
fn finish_root(root: &mut Map<String, Value>, tool: &str) -> Result<(), Error> {
    // One pass over the root's keys rather than a lookup per keyword. `type` becomes "object"
    // (checked to say object first; the string is kept when it already is); a malformed
    // `properties` is reported after that check, as a `null` one and a missing one are replaced.
    let (mut typed, mut described, mut required) = (false, false, false);
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
    if !required {
        root.insert("required".to_owned(), Value::Array(Vec::new()));
    }
    Ok(())
}

/// Where a value may be left out (`Optional`: a property not in `required`, or the root) or must
/// be received (`Required`: a required property, array items, map values, anything else). Decides
/// whether an optional union's `null` is dropped or kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Optional,
    Required,
}

/// The path to the node being visited, in the input document, rendered only for an error.
enum Trail<'a> {
    /// The document root.
    Root,
    /// A reference target, by its pointer (escaped).
    Target(&'a str),
    /// A subschema of the node at the parent trail.
    Child(&'a Trail<'a>, Step<'a>),
    /// A keyword's value (not a subschema) in the node at the parent trail.
    Key(&'a Trail<'a>, &'a str),
}

impl Trail<'_> {
    fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut cur = self;
        let base = loop {
            match cur {
                Trail::Root => break "",
                Trail::Target(p) => break p,
                Trail::Child(parent, step) => {
                    steps.push(Err(*step));
                    cur = parent;
                }
                Trail::Key(parent, key) => {
                    steps.push(Ok(*key));
                    cur = parent;
                }
            }
        };
        let mut p = Pointer::root();
        let mut text = base.to_owned();
        for step in steps.iter().rev() {
            match step {
                Ok(key) => {
                    p.push(key);
                }
                Err(step) => {
                    step.push_onto(&mut p);
                }
            }
        }
        text.push_str(p.as_str());
        text
    }
}

/// A place a `$ref` points at (the root is always target 0).
struct Target<'v> {
    node: &'v Value,
    /// Its pointer, escaped, as errors show it (borrowed from the reference where that is the
    /// pointer as written).
    pointer: Cow<'v, str>,
    /// The name a recursion note uses: the definition's name, else its title, else its pointer.
    name: Cow<'v, str>,
    /// The level (subschema levels plus `$ref` hops) at which discovery first reached it: the
    /// root is 0, a target reached from a site at level `l` is `l + 1`. A level at which the build
    /// really expands it, so a subtree too deep from there is refused during discovery.
    level: usize,
    /// Targets referenced from inside its subtree, one entry per reference site, each with the
    /// site's depth in the subtree.
    edges: Vec<(usize, usize)>,
    /// How deep its subtree goes (its own root is 0), references not followed.
    height: usize,
    /// Its subtree's compact size without the keywords the output drops, references not
    /// followed: an upper bound, with every string at its exact size ([`Keys::sized_exactly`]).
    bound: u64,
    /// The schema objects in its subtree, references not followed: the objects an expansion of
    /// it builds, each of which [`OBJECT_SLACK`] covers.
    objects: u64,
    /// Its strongly connected component.
    component: usize,
    /// Whether it is being expanded on the current path.
    on_stack: bool,
    /// Its measure, when taken with no member of its component being expanded.
    memo: Option<Measure<'v>>,
    /// The `type` its recursion points carry, once inferred.
    recursion_type: Option<Value>,
}

impl<'v> Target<'v> {
    fn new(node: &'v Value, pointer: Cow<'v, str>, name: Cow<'v, str>, level: usize) -> Box<Self> {
        Box::new(Target {
            node,
            pointer,
            name,
            level,
            edges: Vec::new(),
            height: 0,
            bound: 0,
            objects: 0,
            component: 0,
            on_stack: false,
            memo: None,
            recursion_type: None,
        })
    }
}

/// How many targets, or reference spellings, are found by scanning a list rather than through a
/// hash table: a corpus schema has a few of each, and for a few keys a scan costs less than
/// hashing one (and needs no table); past it, a table keeps a schema with thousands of them
/// linear.
const SCAN_KEYS: usize = 16;

/// The target each reference, as written, leads to: a list scanned while it holds at most
/// [`SCAN_KEYS`] spellings, then a hash table (SipHash: the strings come from the input).
#[derive(Default)]
struct ByReference<'v> {
    list: Vec<(&'v str, usize)>,
    table: HashMap<&'v str, usize>,
}

impl<'v> ByReference<'v> {
    #[inline]
    fn get(&self, reference: &str) -> Option<usize> {
        if self.table.is_empty() {
            self.list.iter().find(|(r, _)| *r == reference).map(|&(_, t)| t)
        } else {
            self.table.get(reference).copied()
        }
    }

    fn insert(&mut self, reference: &'v str, t: usize) {
        if self.list.len() < SCAN_KEYS {
            self.list.push((reference, t));
            return;
        }
        if self.table.is_empty() {
            self.table.extend(self.list.iter().copied());
        }
        self.table.insert(reference, t);
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// What measuring one node found.
#[derive(Clone)]
struct Measure<'v> {
    /// A lower bound of the node's compact size in the output (punctuation and `type` left out).
    size: u64,
    /// Levels (and `$ref` hops) below the node.
    height: usize,
    /// Upper bounds of the size of each top-level annotation and `required` entry: what a
    /// reference site or union that overrides them takes away.
    top: Vec<(&'v str, u64)>,
}

impl<'v> Measure<'v> {
    fn top(&self, key: &str) -> u64 {
        self.top.iter().find(|(k, _)| *k == key).map_or(0, |(_, s)| *s)
    }

    /// Adds `other` (a merged definition or union member) under this node's own keys.
    fn absorb(&mut self, other: &Measure<'v>, own_keys: &[(&'v str, u64)]) {
        let lost: u64 = own_keys.iter().map(|(k, _)| other.top(k)).sum();
        self.size = self.size.saturating_add(other.size.saturating_sub(lost));
        for (k, s) in &other.top {
            match self.top.iter_mut().find(|(own, _)| own == k) {
                Some((_, own)) => *own = (*own).max(*s),
                None => self.top.push((k, *s)),
            }
        }
    }
}

/// Keywords that only annotate ([`walk::META_DATA`]): on a reference site or an optional union they
/// override the definition's or member's own.
fn is_annotation(key: &str) -> bool {
    walk::is_meta_data(key)
}

/// Keywords that read each other and must stay side by side in one schema object.
fn family(key: &str) -> &str {
    match key {
        "properties" | "patternProperties" | "additionalProperties" => "properties",
        "prefixItems" | "items" | "additionalItems" => "items",
        "if" | "then" | "else" => "if",
        "contains" | "minContains" | "maxContains" => "contains",
        "minimum" | "exclusiveMinimum" => "minimum",
        "maximum" | "exclusiveMaximum" => "maximum",
        other => other,
    }
}

fn has_unevaluated(m: &Map<String, Value>) -> bool {
    m.contains_key("unevaluatedProperties") || m.contains_key("unevaluatedItems")
}

/// Every keyword but the definition maps, which only the references into them reach.
fn not_definitions(keyword: &str) -> bool {
    !matches!(keyword, "$defs" | "definitions")
}

/// Keywords dropped from every schema object of the output.
fn dropped(key: &str) -> bool {
    matches!(key, "$ref" | "title" | "$defs" | "definitions")
}

struct Inliner<'v, 'o> {
    root: &'v Value,
    tool: &'o str,
    options: &'o SelfContainedOptions,
    /// Each target in a box of its own: twenty targets side by side would take one allocation
    /// past glibc's small sizes, which makes `malloc` first merge every small block freed since
    /// (6.6k instructions per corpus schema with definitions, callgrind).
    #[allow(clippy::vec_box)]
    targets: Vec<Box<Target<'v>>>,
    /// Each target by its node's address, once there are more than [`SCAN_KEYS`] targets
    /// (before, [`Self::target_at`] scans them).
    by_address: HashMap<*const Value, usize, BuildHasherDefault<crate::passes::AddressHasher>>,
    by_reference: ByReference<'v>,
    /// Per component: how many of its targets are being expanded on the current path (empty
    /// until [`Self::components`] has run).
    component_on_stack: Vec<u32>,
    /// Nodes measured so far (memo hits excluded): bounds the work on a cyclic expansion.
    work: u64,
    /// Discovery met a value that may nest deep ([`Keys::deep`]; for the root, its definitions
    /// left out): [`nesting_within`] must check the whole input.
    deep: bool,
    /// [`Self::construct`] runs without discovery ([`build_in_one_walk`]): it makes discovery's
    /// checks itself and counts the objects it builds against [`Self::objects_left`].
    checking: bool,
    objects_left: u64,
    /// With [`Self::checking`]: a bound of the [`json_bound`] of everything
    /// [`Self::construct`] has built, accumulated as it builds (see [`OBJECT_SLACK`]).
    built_bound: u64,
}

impl<'v, 'o> Inliner<'v, 'o> {
    /// An inliner with nothing registered yet (and nothing allocated): [`Self::discover`]
    /// registers the root as target 0.
    fn new(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        Inliner {
            root,
            tool,
            options,
            targets: Vec::new(),
            by_address: HashMap::default(),
            by_reference: ByReference::default(),
            component_on_stack: Vec::new(),
            work: 0,
            deep: false,
            checking: false,
            objects_left: 0,
            built_bound: 0,
        }
    }

    /// An inliner for [`build_in_one_walk`]: the root registered and being expanded,
    /// [`Self::checking`], with its object budget.
    fn for_one_walk(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        let mut inliner = Inliner::new(root, tool, options);
        inliner.register_root();
        inliner.checking = true;
        inliner.objects_left = ONE_WALK_OBJECTS.min(options.max_bytes as u64 / 2);
        inliner.set_on_stack(0, true);
        inliner
    }

    fn register_root(&mut self) {
        if !self.targets.is_empty() {
            return;
        }
        let name = Cow::Borrowed(self.root.get("title").and_then(Value::as_str).unwrap_or("schema"));
        // Room for every root definition, so the tables grow at most rarely while targets are
        // registered (references elsewhere are rare).
        let count = |key| self.root.get(key).and_then(Value::as_object).map_or(0, Map::len);
        let expected = 1 + count("$defs") + count("definitions");
        self.targets.reserve(expected);
        self.by_reference.list.reserve(expected.min(SCAN_KEYS));
        self.targets.push(Target::new(self.root, Cow::Borrowed(""), name, 0));
    }

    /// The target whose node is at `node`'s address, if any.
    #[inline]
    fn target_at(&self, node: &Value) -> Option<usize> {
        if self.by_address.is_empty() {
            self.targets.iter().position(|t| std::ptr::eq(t.node, node))
        } else {
            self.by_address.get(&(node as *const Value)).copied()
        }
    }

    /// Registers a target reached first at `level`; its number.
    fn register(
        &mut self,
        node: &'v Value,
        pointer: Cow<'v, str>,
        name: Cow<'v, str>,
        level: usize,
    ) -> usize {
        let t = self.targets.len();
        self.targets.push(Target::new(node, pointer, name, level));
        if self.targets.len() > SCAN_KEYS {
            if self.by_address.is_empty() {
                self.by_address.reserve(self.targets.capacity());
                self.by_address
                    .extend(self.targets.iter().enumerate().map(|(i, t)| (t.node as *const Value, i)));
            } else {
                self.by_address.insert(node, t);
            }
        }
        t
    }

    fn malformed(&self, trail: &Trail<'_>, message: String) -> Error {
        Error::Malformed { tool: self.tool.to_owned(), pointer: trail.render(), message }
    }

    fn too_deep(&self, trail: &Trail<'_>) -> Error {
        Error::TooDeep {
            tool: self.tool.to_owned(),
            pointer: trail.render(),
            max_depth: self.options.max_depth,
        }
    }

    /// The trail of the child at `step` of a node at `level`, or the depth error if the budget
    /// allows no descent from there: checked before every descent.
    fn descend<'t>(&self, trail: &'t Trail<'t>, step: Step<'t>, level: usize) -> Result<Trail<'t>, Error> {
        let child = Trail::Child(trail, step);
        if level >= self.options.max_depth {
            return Err(self.too_deep(&child));
        }
        Ok(child)
    }

    fn too_large(&self, size: u64) -> Error {
        Error::TooLarge {
            tool: self.tool.to_owned(),
            pointer: String::new(),
            size,
            max_bytes: self.options.max_bytes,
        }
    }

    // ---- 1. discover -------------------------------------------------------------------------

    /// Finds every target reachable from the root, checking what it walks.
    ///
    /// Levels count from the root through the references followed, each `$ref` hop one level, so
    /// a chain of references past [`SelfContainedOptions::max_depth`] is refused where the budget
    /// runs out, before the targets further down the chain are registered. Targets are scanned in
    /// the order they were first reached, and each target first reached from inside another one
    /// differs from every target on the way to it, so that way is one the build takes too: a
    /// depth error here is one the build would meet (the build checks at the same levels).
    fn discover(&mut self) -> Result<(), Error> {
        self.register_root();
        let mut next = 0;
        while next < self.targets.len() {
            let node = self.targets[next].node;
            let level = self.targets[next].level;
            let pointer = std::mem::take(&mut self.targets[next].pointer);
            let trail = if next == 0 { Trail::Root } else { Trail::Target(&pointer) };
            let result = self.scan(node, &trail, level, next);
            self.targets[next].pointer = pointer;
            self.targets[next].bound = result?;
            next += 1;
        }
        Ok(())
    }

    /// Scans `node`, in the subtree of target `owner`, at `level`: checks it, registers the
    /// targets of its references as edges of `owner`, notes how deep it sits in `owner`; returns
    /// a bound of its compact size without the keywords the output drops, every string at its
    /// exact size ([`Keys::sized_exactly`]).
    fn scan(&mut self, node: &'v Value, trail: &Trail<'_>, level: usize, owner: usize) -> Result<u64, Error> {
        let depth = level - self.targets[owner].level;
        self.targets[owner].height = self.targets[owner].height.max(depth);
        let Value::Object(map) = node else {
            // `json_len`, noting a value that nests deep (a target may be any value).
            return Ok(match node {
                Value::Array(_) => size_at::<true>(node, 0, &mut self.deep),
                scalar => scalar_size::<true>(scalar),
            });
        };
        let keys = Keys::sized_exactly(map);
        self.targets[owner].objects += 1;
        // Definitions are neither sized nor scanned where they stand: the root's that no reference
        // reaches are checked apart (`Self::definitions_nesting_within`), any other's with the
        // whole input.
        let nested_definitions = (keys.defs || keys.definitions) && !std::ptr::eq(node, self.root);
        self.deep |= keys.deep || nested_definitions;
        self.check(&keys, trail)?;
        let reference = keys.reference;
        if let Some(r) = reference {
            let target = self.resolve(r, trail, level + 1)?;
            self.targets[owner].edges.push((target, depth));
        }
        let mut bound = keys.bound;
        if keys.children {
            let mut result = Ok(());
            walk::for_each_child_where(node, not_definitions, |step, child| {
                if result.is_err() {
                    return;
                }
                result = self.descend(trail, step, level).and_then(|child_trail| {
                    self.scan(child, &child_trail, level + 1, owner).map(|b| bound = bound.saturating_add(b))
                });
            });
            result?;
        }
        // As the measure and the build: the children first, then the hop.
        if reference.is_some() && level >= self.options.max_depth {
            return Err(self.too_deep(trail));
        }
        Ok(bound)
    }

    /// [`nesting_within`] after a discovery that met no deep value ([`Self::deep`] unset): every
    /// value discovery sized is within [`SIZE_RECURSION`] levels of a subschema at most
    /// `max_depth` levels down, far inside the limit, so only the root's definitions that are no
    /// target (which discovery never reads) can pass it. Those are checked in the order
    /// [`nesting_within`] meets them, each naming the same pointer it would.
    fn definitions_nesting_within(&self) -> Result<(), Error> {
        let limit = walk::nesting_limit(self.options.max_depth);
        let Value::Object(root) = self.root else { return Ok(()) };
        if limit < 2 {
            // The root and its definition map alone reach the limit.
            return nesting_within(self.root, self.tool, self.options);
        }
        for (key, definitions) in root {
            let Value::Object(definitions) = definitions else { continue };
            if not_definitions(key) {
                continue;
            }
            for (name, definition) in definitions {
                if self.target_at(definition).is_some() {
                    continue;
                }
                if let Some(rest) = walk::nesting_exceeds(definition, limit - 2) {
                    let mut pointer = Pointer::root();
                    pointer.push(key);
                    pointer.push(name);
                    return Err(too_nested(self.tool, format!("{}{rest}", pointer.as_str()), limit));
                }
            }
        }
        Ok(())
    }

    /// The checks discovery makes on a schema object before its children, in a fixed order:
    /// `$defs` and `definitions` are maps, `required` a list of strings.
    fn check(&self, keys: &Keys<'v>, trail: &Trail<'_>) -> Result<(), Error> {
        let (defs, definitions, required) = (keys.defs_value, keys.definitions_value, keys.required);
        for (key, v) in [("$defs", defs), ("definitions", definitions)] {
            if let Some(v) = v
                && !v.is_object()
            {
                return Err(self.malformed(
                    &Trail::Key(trail, key),
                    format!("`{key}` must be a map from names to schemas, found {}", describe(v)),
                ));
            }
        }
        if let Some(v) = required
            && !matches!(v, Value::Array(names) if names.iter().all(Value::is_string))
        {
            let fix = match v {
                Value::String(s) => format!("; write `[{}]`", Value::String(s.clone())),
                _ => String::new(),
            };
            return Err(self.malformed(
                &Trail::Key(trail, "required"),
                format!(
                    "`required` must be a list of property names, found {}{fix}",
                    canonical::to_string(v)
                ),
            ));
        }
        Ok(())
    }

    /// The target of a `$ref` value, registering it the first time as reached at `level`.
    fn resolve(&mut self, r: &'v Value, trail: &Trail<'_>, level: usize) -> Result<usize, Error> {
        let Value::String(reference) = r else {
            return Err(self.malformed(
                &Trail::Key(trail, "$ref"),
                format!(
                    "`$ref` must be a string (a reference such as `#/$defs/Name`), found {}",
                    canonical::to_string(r)
                ),
            ));
        };
        if let Some(t) = self.by_reference.get(reference) {
            return Ok(t);
        }
        let failed = |reason: RefError| Error::Reference {
            tool: self.tool.to_owned(),
            pointer: trail.render(),
            reference: reference.clone(),
            reason,
        };
        // `#/$defs/Name` (no escape): its tokens are borrowed from it, its pointer is itself.
        let plain = refs::plain_definition(reference);
        let tokens = match plain {
            Some(_) => Vec::new(),
            None => refs::parse_local(reference).map_err(failed)?,
        };
        let found = match plain {
            Some(_) => refs::resolve(self.root, reference),
            None => refs::lookup(self.root, &tokens),
        };
        let Some(node) = found else {
            return Err(failed(RefError::Missing(reference.clone())));
        };
        let t = match self.target_at(node) {
            Some(t) => t,
            None => {
                let (pointer, name) = match plain {
                    // `reference` is `#` and the pointer, escaped as it would be.
                    Some((_, name)) => (Cow::Borrowed(&reference[1..]), Cow::Borrowed(name)),
                    None => {
                        let mut pointer = Pointer::root();
                        for tok in &tokens {
                            pointer.push(tok);
                        }
                        let name = match tokens.as_slice() {
                            [ns, name] if ns == "$defs" || ns == "definitions" => Cow::Owned(name.clone()),
                            _ => match node.get("title").and_then(Value::as_str) {
                                Some(title) => Cow::Borrowed(title),
                                None if tokens.is_empty() => Cow::Borrowed("schema"),
                                None => Cow::Owned(format!("schema at `#{}`", pointer.as_str())),
                            },
                        };
                        (Cow::Owned(pointer.as_str().to_owned()), name)
                    }
                };
                self.register(node, pointer, name, level)
            }
        };
        self.by_reference.insert(reference.as_str(), t);
        Ok(t)
    }

    // ---- 2. components -----------------------------------------------------------------------

    /// Tarjan's strongly connected components, iterative so a long chain cannot overflow.
    fn components(&mut self) {
        const UNSEEN: usize = usize::MAX;
        let n = self.targets.len();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0; n];
        let mut on = vec![false; n];
        let mut stack = Vec::new();
        let mut count = 0;
        let mut next_index = 0;
        for start in 0..n {
            if index[start] != UNSEEN {
                continue;
            }
            let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
            while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
                if *edge == 0 && index[v] == UNSEEN {
                    index[v] = next_index;
                    low[v] = next_index;
                    next_index += 1;
                    stack.push(v);
                    on[v] = true;
                }
                if let Some(&(w, _)) = self.targets[v].edges.get(*edge) {
                    *edge += 1;
                    if index[w] == UNSEEN {
                        calls.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        self.targets[w].component = count;
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
        self.component_on_stack = vec![0; count];
    }

    /// Whether the measure would pass, so that it can be left out: the references form no cycle
    /// (each component one target, none referring to itself), the deepest level the expansion
    /// reaches is within [`SelfContainedOptions::max_depth`], and a bound of the expansion's size
    /// (each target's [`Target::bound`] times the number of reference paths from the root to it)
    /// is within [`SelfContainedOptions::max_bytes`]. That bound is above the measure's size and
    /// above twice the nodes it visits, so the measure could neither refuse nor meet a recursion
    /// point. Linear in targets and edges; call after [`Self::components`].
    ///
    /// Where it fits, a bound of the size of the output the build makes (before [`finish`]):
    /// each expansion of a target counted with its bound and [`OBJECT_SLACK`] for each object it
    /// builds, as [`Inliner::built_bound`] counts an object (every string here at its exact
    /// size, and each literal the slack covers no longer than its six-bytes-a-byte count). A law
    /// checks it against the output's exact size.
    fn expansion_fits(&self) -> Option<u64> {
        let n = self.targets.len();
        let acyclic = self.component_on_stack.len() == n
            && self.targets.iter().enumerate().all(|(t, target)| target.edges.iter().all(|&(u, _)| u != t));
        if !acyclic {
            return None;
        }
        // Tarjan numbers the components in reverse topological order: an edge leads to a lower
        // number, and the root, which reaches everything, has the highest.
        let mut by_component = vec![0; n];
        for (t, target) in self.targets.iter().enumerate() {
            by_component[target.component] = t;
        }
        let mut reach = vec![0usize; n];
        for &t in &by_component {
            let target = &self.targets[t];
            reach[t] = target.edges.iter().fold(target.height, |h, &(u, depth)| {
                h.max(depth.saturating_add(1).saturating_add(reach[u]))
            });
        }
        if reach[0] > self.options.max_depth {
            return None;
        }
        let mut paths = vec![0u64; n];
        paths[0] = 1;
        let (mut size, mut built) = (0u64, 0u64);
        for &t in by_component.iter().rev() {
            let target = &self.targets[t];
            size = size.saturating_add(paths[t].saturating_mul(target.bound));
            let slack = target.objects.saturating_mul(OBJECT_SLACK);
            built = built.saturating_add(paths[t].saturating_mul(target.bound.saturating_add(slack)));
            for &(u, _) in &target.edges {
                paths[u] = paths[u].saturating_add(paths[t]);
            }
        }
        (size <= self.options.max_bytes as u64).then_some(built)
    }

    fn set_on_stack(&mut self, t: usize, on: bool) {
        self.targets[t].on_stack = on;
        if let Some(c) = self.component_on_stack.get_mut(self.targets[t].component) {
            if on {
                *c += 1;
            } else {
                *c = c.saturating_sub(1);
            }
        }
    }

    /// Whether no member of `t`'s component is being expanded, so `t`'s expansion is the same as
    /// anywhere else in that state.
    fn fresh(&self, t: usize) -> bool {
        self.component_on_stack.get(self.targets[t].component).is_none_or(|&c| c == 0)
    }

    // ---- 3. measure --------------------------------------------------------------------------

    fn measure_root(&mut self) -> Result<(), Error> {
        self.set_on_stack(0, true);
        let m = self.measure(self.root, &Trail::Root, 0);
        self.set_on_stack(0, false);
        let m = m?;
        let size = m.size.saturating_sub(m.top("description"));
        if size > self.options.max_bytes as u64 {
            return Err(self.too_large(size));
        }
        Ok(())
    }

    fn measure(&mut self, node: &'v Value, trail: &Trail<'_>, level: usize) -> Result<Measure<'v>, Error> {
        let mut m = Measure { size: 0, height: 0, top: Vec::new() };
        let Value::Object(map) = node else { return Ok(m) };
        self.work += 1;
        if self.work.saturating_mul(2) > self.options.max_bytes as u64 {
            return Err(self.too_large(self.work.saturating_mul(2)));
        }
        let mut own: Vec<(&'v str, u64)> = Vec::new();
        for (key, value) in map {
            if dropped(key) || key == "type" || (key == "default" && value.is_null()) {
                continue;
            }
            let entry = string_len(key) + 2;
            if walk::keyword_shape(key).is_some() {
                if !matches!(key.as_str(), "anyOf" | "oneOf") {
                    m.size += entry;
                }
                continue;
            }
            let entry = entry + json_len(value);
            m.size += entry;
            if is_annotation(key) || key == "required" {
                own.push((key.as_str(), entry));
            }
        }
        m.top.clone_from(&own);
        let mut result = Ok(());
        walk::for_each_child_where(node, not_definitions, |step, child| {
            if result.is_err() {
                return;
            }
            let child_trail = match self.descend(trail, step, level) {
                Ok(child_trail) => child_trail,
                Err(e) => {
                    result = Err(e);
                    return;
                }
            };
            if let Step::Entry(_, name) = step {
                m.size += string_len(name) + 2;
            }
            let is_member = matches!(step, Step::Index("anyOf" | "oneOf", _));
            if is_member && self.null_member(child) {
                return;
            }
            match self.measure(child, &child_trail, level + 1) {
                Ok(c) => {
                    m.height = m.height.max(c.height + 1);
                    if is_member {
                        m.absorb(&c, &own);
                    } else {
                        m.size = m.size.saturating_add(c.size);
                    }
                }
                Err(e) => result = Err(e),
            }
        });
        result?;
        if let Some(r) = map.get("$ref") {
            let t = self.resolve(r, trail, level + 1)?;
            if level >= self.options.max_depth {
                return Err(self.too_deep(trail));
            }
            let d = self.measure_target(t, r, trail, level + 1)?;
            m.height = m.height.max(d.height + 1);
            m.absorb(&d, &own);
        }
        Ok(m)
    }

    /// The measure of expanding target `t` at `level`, from the memo where that is valid.
    fn measure_target(
        &mut self,
        t: usize,
        r: &'v Value,
        site: &Trail<'_>,
        level: usize,
    ) -> Result<Measure<'v>, Error> {
        if self.targets[t].on_stack {
            self.recursion_point_type(t, r, site)?;
            return Ok(Measure { size: 0, height: 0, top: Vec::new() });
        }
        let fresh = self.fresh(t);
        if fresh && let Some(m) = &self.targets[t].memo {
            if level + m.height > self.options.max_depth {
                return Err(self.too_deep(site));
            }
            return Ok(m.clone());
        }
        self.set_on_stack(t, true);
        let node = self.targets[t].node;
        let pointer = std::mem::take(&mut self.targets[t].pointer);
        let m = self.measure(node, &Trail::Target(&pointer), level);
        self.targets[t].pointer = pointer;
        self.set_on_stack(t, false);
        let m = m?;
        if fresh {
            self.targets[t].memo = Some(m.clone());
        }
        Ok(m)
    }

    /// Whether a union member is `null` (written inline, or a reference to such a schema).
    fn null_member(&self, member: &Value) -> bool {
        if is_null_member(member) {
            return true;
        }
        match member.get("$ref").and_then(Value::as_str).and_then(|r| self.by_reference.get(r)) {
            Some(t) => {
                member.as_object().is_some_and(|m| m.keys().all(|k| k == "$ref" || is_annotation(k)))
                    && is_null_member(self.targets[t].node)
            }
            None => false,
        }
    }

    /// The `type` a recursion point into target `t` carries, inferred once; an error when none can
    /// be.
    fn recursion_point_type(&mut self, t: usize, r: &Value, site: &Trail<'_>) -> Result<(), Error> {
        if self.targets[t].recursion_type.is_none() {
            // Inference copies the definition's `type`, which the measure may meet before
            // `nesting_within` has run: a list nesting deep is refused as that check refuses it.
            if let Some(ty @ Value::Array(_)) = self.targets[t].node.get("type")
                && walk::nesting_exceeds(ty, SIZE_RECURSION).is_some()
            {
                nesting_within(self.root, self.tool, self.options)?;
            }
            let inferred = infer_type(self.root, self.targets[t].node, self.options.max_depth);
            match inferred {
                Some(ty) => self.targets[t].recursion_type = Some(ty),
                None => {
                    return Err(Error::UntypedRecursion {
                        tool: self.tool.to_owned(),
                        pointer: site.render(),
                        reference: r.as_str().unwrap_or_default().to_owned(),
                    });
                }
            }
        }
        Ok(())
    }

    // ---- 4. build ----------------------------------------------------------------------------

    /// Rewrites `out`, a deep copy of `node` (without `$defs` and `definitions` at the root), into
    /// the output for `node`, after discovery (or [`survey`]) has checked every node it reaches.
    ///
    /// A deep clone copies a map's nodes as they are, so copying first and rewriting in place
    /// costs little more than the copy: the walk drops the keywords the output leaves out, inlines
    /// each reference site (from a copy of its target, rewritten the same way) and collapses the
    /// optional unions, reading `node` for everything it decides.
    fn build(
        &mut self,
        node: &'v Value,
        out: &mut Value,
        ctx: Ctx,
        extra_required: &[&'v str],
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<(), Error> {
        let (Value::Object(map), Value::Object(copy)) = (node, &mut *out) else { return Ok(()) };
        let keys = Keys::of(map);
        for (present, key) in [
            (keys.title, "title"),
            (keys.reference.is_some(), "$ref"),
            (keys.defs, "$defs"),
            (keys.definitions, "definitions"),
        ] {
            if present {
                copy.remove(key);
            }
        }
        // Names, as written: checked to be strings by discovery (or the survey).
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) => names,
            _ => &[],
        };
        if keys.children {
            let names = Required::new(required, extra_required);
            walk::zip_children_mut(
                map,
                copy,
                |key| !dropped(key),
                |step, child, child_out| {
                    let child_trail = self.descend(trail, step, level)?;
                    self.build(child, child_out, names.ctx_of(step, ctx), &[], &child_trail, level + 1)
                },
            )?;
        }
        if let Some(r) = keys.reference {
            let t = self.resolve(r, trail, level + 1)?;
            let site = std::mem::take(copy);
            *out = self.expand_site::<false>(t, r, site, ctx, required, extra_required, trail, level)?;
            return Ok(());
        }
        if keys.union || keys.type_list {
            *out = collapse(std::mem::take(out), ctx);
        }
        Ok(())
    }

    /// [`Self::build`] without a copy to rewrite: the output for `node` built entry by entry
    /// ([`walk::copy_children`]), leaving out the keywords the output drops instead of copying
    /// and then removing them. The same checks in the same order, so the same result or error.
    fn construct(
        &mut self,
        node: &'v Value,
        ctx: Ctx,
        extra_required: &[&'v str],
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, Error> {
        let Value::Object(map) = node else {
            if self.checking {
                self.built_bound = self.built_bound.saturating_add(json_bound(node));
            }
            return copy_value(node, self.checking);
        };
        let keys = if self.checking { Keys::sized(map) } else { Keys::of(map) };
        if self.checking {
            // Without discovery: its checks here, and a bound on the objects built. The error
            // only sends the schema to the four steps (see `build_in_one_walk`).
            self.check(&keys, trail)?;
            if self.objects_left == 0 {
                return Err(one_walk_gives_up());
            }
            self.objects_left -= 1;
            // What this object contributes to the output beside the subschemas built below.
            self.built_bound = self.built_bound.saturating_add(keys.bound).saturating_add(OBJECT_SLACK);
        }
        if ctx == Ctx::Optional
            && keys.union
            && keys.type_value.is_none()
            && keys.reference.is_none()
            && let Some(out) = self.optional_union(map, trail, level)?
        {
            return Ok(out);
        }
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) => names,
            _ => &[],
        };
        // Without discovery, what is dropped unread must not nest deep either (see `copy_value`).
        let (checking, root) = (self.checking, std::ptr::eq(node, self.root));
        let mut unread_deep = false;
        let keep = |key: &str, v: &Value| {
            if !dropped(key) {
                return true;
            }
            unread_deep |= checking && may_nest_unread(key, v, root);
            false
        };
        let names = Required::new(required, extra_required);
        let copy = walk::copy_children(
            map,
            keep,
            |v| copy_value(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                self.construct(child, names.ctx_of(step, ctx), &[], &child_trail, level + 1)
            },
        )?;
        if unread_deep {
            return Err(one_walk_gives_up());
        }
        if let Some(r) = keys.reference {
            let t = self.resolve(r, trail, level + 1)?;
            return self.expand_site::<true>(t, r, copy, ctx, required, extra_required, trail, level);
        }
        let out = Value::Object(copy);
        Ok(if keys.union || keys.type_list { collapse(out, ctx) } else { out })
    }

    /// [`Self::construct`] of `{"anyOf": [...]}`, beside nothing but `"default": null` and
    /// keywords the output drops, where the value may be left out (the shape of every optional
    /// field pydantic writes): its members built as `construct` builds them, then, where
    /// [`collapse`] would leave just the one real member (the union's own map emptied), that
    /// member, without the map around it ever built. `None`, having done nothing, for any other
    /// node.
    fn optional_union(
        &mut self,
        map: &'v Map<String, Value>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Option<Value>, Error> {
        let (mut members, mut null_default) = (None, false);
        for (key, v) in map {
            match (key.as_str(), v) {
                ("anyOf", Value::Array(items)) => members = Some(items),
                ("default", Value::Null) => null_default = true,
                (key, _) if dropped(key) => {}
                _ => return Ok(None),
            }
        }
        let Some(items) = members else { return Ok(None) };
        let root = self.root.as_object().is_some_and(|root| std::ptr::eq(root, map));
        if self.checking && map.iter().any(|(key, v)| may_nest_unread(key, v, root)) {
            return Err(one_walk_gives_up());
        }
        let checking = self.checking;
        // A member written as a null schema (`type` null beside annotations only) is built as
        // itself less its title, a null schema still: it is left unbuilt (its place marked in
        // `unbuilt`, for the first 64) until the union turns out to keep it. Its depth check is
        // made in order all the same, and without discovery what its copy would check.
        let mut unbuilt = 0u64;
        let mut built = walk::copy_members(
            "anyOf",
            items,
            |v| copy_value(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                if let Step::Index(_, i @ 0..64) = step
                    && is_null_member(child)
                {
                    if checking && !copies_within(child) {
                        return Err(one_walk_gives_up());
                    }
                    unbuilt |= 1 << i;
                    return Ok(Value::Null);
                }
                self.construct(child, Ctx::Optional, &[], &child_trail, level + 1)
            },
        )?;
        let is_unbuilt = |i: usize| i < 64 && unbuilt & (1 << i) != 0;
        let (nulls, reals, first_real) = count_members(&built, |i, m| is_unbuilt(i) || is_null_member(m));
        if nulls > 0 && reals == 1 && built[first_real].is_object() {
            return Ok(Some(built.swap_remove(first_real)));
        }
        for (i, slot) in built.iter_mut().enumerate().filter(|(i, _)| is_unbuilt(*i)) {
            let child_trail = Trail::Child(trail, Step::Index("anyOf", i));
            *slot = self.construct(&items[i], Ctx::Optional, &[], &child_trail, level + 1)?;
        }
        let mut union = Map::new();
        union.insert("anyOf".to_owned(), Value::Array(built));
        if null_default {
            union.insert("default".to_owned(), Value::Null);
        }
        Ok(Some(collapse(Value::Object(union), Ctx::Optional)))
    }

    /// The output for a reference site at `level` into target `t` (resolved from `r`), its own
    /// keywords built into `site` (its `required` names in `required`): a recursion point when
    /// `t` is being expanded, else `t`'s expansion (built with [`Self::construct`] when
    /// `CONSTRUCT`, else copied and rewritten by [`Self::build`]) combined with `site`.
    #[allow(clippy::too_many_arguments)]
    fn expand_site<const CONSTRUCT: bool>(
        &mut self,
        t: usize,
        r: &'v Value,
        mut site: Map<String, Value>,
        ctx: Ctx,
        required: &'v [Value],
        extra_required: &[&'v str],
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, Error> {
        if self.checking && level >= self.options.max_depth {
            // Discovery refuses a reference site here, even one the build makes a recursion point.
            return Err(self.too_deep(trail));
        }
        if self.targets[t].on_stack {
            // Measured first, so the type is there; infer again if this path was not measured.
            self.recursion_point_type(t, r, trail)?;
            let ty = self.targets[t].recursion_type.clone();
            let name = &self.targets[t].name;
            let note = format!("{} {name}: the same shape as the {name} that contains it.", article(name));
            let description = match site.remove("description") {
                Some(Value::String(own)) if !own.is_empty() => format!("{own} {note}"),
                _ => note,
            };
            if self.checking {
                // Made here, not copied: the note (with the site's own description, counted with
                // the site too), the type, their keys, colons, comma and braces, and what
                // combining may add.
                let keys = key_size::<false>("type") + key_size::<false>("description") + 5;
                let made = keys + key_size::<false>(&description) + ty.as_ref().map_or(0, json_bound);
                self.built_bound = self.built_bound.saturating_add(made).saturating_add(OBJECT_SLACK);
            }
            let mut point = Map::new();
            if let Some(ty) = ty {
                point.insert("type".to_owned(), ty);
            }
            point.insert("description".to_owned(), Value::String(description));
            return Ok(collapse(combine(site, Value::Object(point)), ctx));
        }
        if level >= self.options.max_depth {
            return Err(self.too_deep(trail));
        }
        let mut site_required = extra_required.to_vec();
        site_required.extend(required.iter().filter_map(Value::as_str));
        self.set_on_stack(t, true);
        let target = self.targets[t].node;
        let pointer = std::mem::take(&mut self.targets[t].pointer);
        let target_trail = Trail::Target(&pointer);
        let built = if CONSTRUCT {
            self.construct(target, ctx, &site_required, &target_trail, level + 1)
        } else {
            let mut d = target.clone();
            self.build(target, &mut d, ctx, &site_required, &target_trail, level + 1).map(|()| d)
        };
        self.targets[t].pointer = pointer;
        self.set_on_stack(t, false);
        Ok(collapse(combine(site, built?), ctx))
    }
}

/// The names a schema object's `required` lists, with those its reference site adds for the
/// definition it expands: asked once per property, so a long list is sorted once and searched
/// (n log n for n properties and names), where scanning it for each property would take n × n.
struct Required<'a> {
    listed: &'a [Value],
    extra: &'a [&'a str],
    /// Every name, sorted, where there are more than [`Required::SCAN`]; else empty.
    sorted: Vec<&'a str>,
}

impl<'a> Required<'a> {
    /// The most names scanned for each property rather than sorted first.
    const SCAN: usize = 8;

    /// `listed` holds the object's `required` names, checked by discovery (or the survey) to be
    /// strings; `extra` the reference site's.
    #[inline]
    fn new(listed: &'a [Value], extra: &'a [&'a str]) -> Self {
        let many = listed.len() + extra.len() > Self::SCAN;
        Required { listed, extra, sorted: if many { Self::sorted(listed, extra) } else { Vec::new() } }
    }

    #[inline(never)]
    fn sorted(listed: &'a [Value], extra: &'a [&'a str]) -> Vec<&'a str> {
        let mut sorted = Vec::with_capacity(listed.len() + extra.len());
        sorted.extend(listed.iter().filter_map(Value::as_str));
        sorted.extend_from_slice(extra);
        sorted.sort_unstable();
        sorted
    }

    #[inline]
    fn names(&self, name: &str) -> bool {
        if self.sorted.is_empty() {
            self.listed.iter().any(|r| r == name) || self.extra.contains(&name)
        } else {
            self.sorted.binary_search(&name).is_ok()
        }
    }

    /// Where a child's value may be left out: a property is [`Ctx::Optional`] unless named here;
    /// union and `allOf` members and `then`/`else` take their parent's context; anything else
    /// must be received.
    #[inline]
    fn ctx_of(&self, step: Step<'_>, ctx: Ctx) -> Ctx {
        match step {
            Step::Entry("properties", name) if self.names(name) => Ctx::Required,
            Step::Entry("properties", _) => Ctx::Optional,
            Step::Index("allOf" | "anyOf" | "oneOf", _) | Step::Keyword("then" | "else") => ctx,
            _ => Ctx::Required,
        }
    }
}

/// The keywords of a schema object that [`Inliner::build`] reads besides its children.
struct Keys<'v> {
    required: Option<&'v Value>,
    reference: Option<&'v Value>,
    defs_value: Option<&'v Value>,
    definitions_value: Option<&'v Value>,
    /// Which of the keywords the output drops are there, besides `$ref`.
    title: bool,
    defs: bool,
    definitions: bool,
    /// `anyOf` or `oneOf` is there: [`collapse`] has a union to look at.
    union: bool,
    /// `type`, and whether it is a list ([`collapse`] may drop its `"null"`).
    type_value: Option<&'v Value>,
    type_list: bool,
    /// A keyword that may hold subschemas is there, besides `$defs` and `definitions`.
    children: bool,
    /// From [`Keys::sized`]: a [`json_bound`] of the object without the keywords the output
    /// drops and without the subschemas the walkers visit (their own bounds add to it); from
    /// [`Keys::sized_exactly`], the same with every string at its exact size.
    bound: u64,
    /// From [`Keys::sized`]: a value sized here nests past [`SIZE_RECURSION`] levels, or a title
    /// (which discovery neither sizes nor enters) is an array or an object.
    deep: bool,
}

impl<'v> Keys<'v> {
    /// The keys of a schema object, in one pass rather than a map lookup per keyword; the checks
    /// then run in a fixed order, whatever the map's iteration order.
    fn of(map: &'v Map<String, Value>) -> Self {
        Self::read::<false, false>(map)
    }

    /// [`Self::of`], with [`Keys::bound`] too.
    fn sized(map: &'v Map<String, Value>) -> Self {
        Self::read::<true, false>(map)
    }

    /// [`Self::sized`] with every string counted at its exact escaped size rather than six bytes
    /// per byte: [`json_len`] in place of [`json_bound`]. For discovery's target bounds, which
    /// decide whether the measure may be left out ([`Inliner::expansion_fits`]): a large schema
    /// of plain text is bounded near its real size instead of six times over it.
    fn sized_exactly(map: &'v Map<String, Value>) -> Self {
        Self::read::<true, true>(map)
    }

    fn read<const SIZED: bool, const EXACT: bool>(map: &'v Map<String, Value>) -> Self {
        let mut keys = Keys {
            required: None,
            reference: None,
            defs_value: None,
            definitions_value: None,
            title: false,
            defs: false,
            definitions: false,
            union: false,
            type_value: None,
            type_list: false,
            children: false,
            bound: 0,
            deep: false,
        };
        let mut kept = 0u64;
        for (key, v) in map {
            match key.as_str() {
                "$defs" => {
                    keys.defs = true;
                    keys.defs_value = Some(v);
                    continue;
                }
                "definitions" => {
                    keys.definitions = true;
                    keys.definitions_value = Some(v);
                    continue;
                }
                "$ref" => {
                    keys.reference = Some(v);
                    continue;
                }
                "title" => {
                    keys.title = true;
                    keys.deep |= SIZED && matches!(v, Value::Array(_) | Value::Object(_));
                    continue;
                }
                "required" => keys.required = Some(v),
                "type" => {
                    keys.type_value = Some(v);
                    keys.type_list = v.is_array();
                }
                "anyOf" | "oneOf" => keys.union = true,
                _ => {}
            }
            let shape = walk::keyword_shape(key);
            keys.children |= shape.is_some();
            if SIZED {
                kept += 1;
                let mut bound = |v: &Value| match v {
                    Value::Array(_) | Value::Object(_) => size_at::<EXACT>(v, 0, &mut keys.deep),
                    scalar => scalar_size::<EXACT>(scalar),
                };
                let value = match shape {
                    None => bound(v),
                    Some(shape) => walk::size_beside_children(shape, v, key_size::<EXACT>, bound),
                };
                keys.bound = keys.bound.saturating_add(key_size::<EXACT>(key) + 1).saturating_add(value);
            }
        }
        if SIZED {
            // Braces, and a comma between entries.
            keys.bound = keys.bound.saturating_add(2 + kept.saturating_sub(1));
        }
        keys
    }
}

/// What [`survey`] finds below a node.
struct Survey {
    /// A [`json_bound`] of the node without the keywords the output drops.
    bound: u64,
    /// Whether [`rewrite_in_place`] has anything to rewrite: a keyword the output drops, or a
    /// union or a `type` list [`collapse`] may change.
    rewrite: bool,
}

/// "An" before a vowel, "A" otherwise.
fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some(c) if "AEIOUaeiou".contains(c) => "An",
        _ => "A",
    }
}

/// Whether a schema accepts only `null`: `type` `"null"` (or `["null"]`) and nothing but
/// annotations beside it.
fn is_null_member(member: &Value) -> bool {
    let Value::Object(m) = member else { return false };
    let null_type = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.len() == 1 && ts[0] == "null",
        _ => false,
    };
    null_type && m.keys().all(|k| k == "type" || is_annotation(k))
}

/// Keywords that constrain `null` too: a schema holding one cannot simply add `"null"` to its
/// `type` list.
const NULL_SENSITIVE: &[&str] = &["allOf", "anyOf", "const", "else", "enum", "if", "not", "oneOf", "then"];

/// `site` (a reference site's keywords, or a union's own) combined with `d` (the definition, or
/// the union's one real member) so that the result accepts exactly what both accept together.
///
/// Annotations from the site win. `required` lists are joined, `allOf` lists concatenated. Any
/// other keyword only one side has is written beside the other's; one both have with the same
/// value is written once. Where the two sides hold different values for one family of keywords
/// that read each other (`properties` with `additionalProperties`, `items` with `prefixItems`,
/// ...), the definition's keywords of that family go into an `allOf` member of their own, where
/// they apply exactly as they did in the definition, and the site's stay in its place: so no
/// subschema of the output sits deeper than the levels the depth budget counted for it.
/// `unevaluated*` on either side reads everything around it, so then the whole definition goes
/// into `allOf` instead.
fn combine(site: Map<String, Value>, d: Value) -> Value {
    let mut d = match d {
        Value::Bool(false) => return Value::Bool(false),
        Value::Bool(true) if site.is_empty() => return Value::Bool(true),
        Value::Bool(true) => return Value::Object(site),
        Value::Object(m) => m,
        other => return other,
    };
    if site.is_empty() {
        return Value::Object(d);
    }
    if has_unevaluated(&site) || has_unevaluated(&d) {
        let mut out = site;
        push_all_of(&mut out, Value::Object(d));
        return Value::Object(out);
    }
    let conflicting: Vec<String> = site
        .iter()
        .filter(|(k, _)| !is_annotation(k) && !matches!(k.as_str(), "required" | "allOf"))
        .map(|(k, _)| family(k))
        .filter(|f| {
            let site_keys = site.iter().filter(|(k, _)| family(k) == *f);
            let d_has_family = d.keys().any(|k| family(k) == *f);
            d_has_family && site_keys.clone().any(|(k, v)| d.get(k) != Some(v))
        })
        .map(str::to_owned)
        .collect();
    // The definition's keywords of a conflicting family move into the `allOf` member and the
    // site's take their place, not the other way round: the definition's were counted a level
    // down (behind a `$ref` hop, or in a union member), so in the member they sit no deeper than
    // the depth budget counted them, where the site's would sit a level deeper than counted.
    let mut rest = Map::new();
    if !conflicting.is_empty() {
        let moved: Vec<String> =
            d.keys().filter(|k| conflicting.iter().any(|f| f == family(k))).cloned().collect();
        for k in moved {
            if let Some(v) = d.remove(&k) {
                rest.insert(k, v);
            }
        }
    }
    for (k, v) in site {
        if is_annotation(&k) {
            d.insert(k, v);
            continue;
        }
        match (k.as_str(), d.get_mut(&k), v) {
            ("required", Some(Value::Array(names)), Value::Array(more)) => {
                for name in more {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            ("allOf", Some(Value::Array(members)), Value::Array(more)) => members.extend(more),
            (_, Some(existing), v) if *existing == v => {}
            (_, _, v) => {
                d.insert(k, v);
            }
        }
    }
    if !rest.is_empty() {
        push_all_of(&mut d, Value::Object(rest));
    }
    Value::Object(d)
}

fn push_all_of(m: &mut Map<String, Value>, member: Value) {
    match m.get_mut("allOf") {
        Some(Value::Array(members)) => members.push(member),
        _ => {
            m.insert("allOf".to_owned(), Value::Array(vec![member]));
        }
    }
}

/// The optional-union collapse, null-aware.
///
/// A union (`anyOf`, else `oneOf`) of one real object member and `null` members: where a `type`
/// beside it already refuses `null`, the `null` members are dead and the union becomes the member.
/// Otherwise, where the value may be left out (`Optional`), `null` is dropped with its
/// `default: null`; where it must be received (`Required`), the union is kept in its simplest
/// form: the member with `"null"` added to its `type` list when nothing else in it constrains
/// `null`, else `anyOf: [member, {"type": "null"}]`. A `type: [X, "null"]` list loses its `"null"`
/// where the value may be left out.
fn collapse(node: Value, ctx: Ctx) -> Value {
    let Value::Object(mut m) = node else { return node };
    let key = if m.contains_key("anyOf") {
        "anyOf"
    } else if m.contains_key("oneOf") {
        "oneOf"
    } else {
        if ctx == Ctx::Optional && drop_null_from_type(&mut m) {
            drop_null_default(&mut m);
        }
        return Value::Object(m);
    };
    let Some(Value::Array(members)) = m.get(key) else { return Value::Object(m) };
    let (nulls, reals, real) = count_members(members, |_, x| is_null_member(x));
    if reals != 1 || !members[real].is_object() || nulls == 0 {
        return Value::Object(m);
    }
    let null_allowed = match m.get("type") {
        None => true,
        Some(Value::String(t)) if t == "null" => return Value::Object(m),
        Some(Value::String(_)) => false,
        Some(Value::Array(ts)) if ts.iter().all(|t| t == "null") => return Value::Object(m),
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        Some(_) => return Value::Object(m),
    };
    if null_allowed && ctx == Ctx::Required {
        if m.contains_key("type") {
            return Value::Object(m);
        }
        let Some(Value::Array(mut members)) = m.remove(key) else { return Value::Object(m) };
        let Value::Object(mut member) = members.swap_remove(real) else { return Value::Object(m) };
        let simple = !NULL_SENSITIVE.iter().any(|k| member.contains_key(*k));
        let typed = match member.get_mut("type") {
            Some(Value::String(t)) if simple && t == "null" => true,
            Some(Value::String(t)) if simple => {
                let t = std::mem::take(t);
                member.insert(
                    "type".to_owned(),
                    Value::Array(vec![Value::String(t), Value::String("null".to_owned())]),
                );
                true
            }
            Some(Value::Array(ts)) if simple && ts.iter().all(Value::is_string) => {
                if !ts.iter().any(|t| t == "null") {
                    ts.push(Value::String("null".to_owned()));
                }
                true
            }
            _ => false,
        };
        if typed {
            return combine(m, Value::Object(member));
        }
        m.insert(key.to_owned(), Value::Array(vec![Value::Object(member), null_schema()]));
        return Value::Object(m);
    }
    let Some(Value::Array(mut members)) = m.remove(key) else { return Value::Object(m) };
    let member = members.swap_remove(real);
    if null_allowed {
        drop_null_from_type(&mut m);
    }
    drop_null_default(&mut m);
    combine(m, member)
}

/// A union's members in one pass: how many `is_null` says are null (it gets each member's index),
/// how many are real, and the index of the first real one (0 if none).
fn count_members(members: &[Value], is_null: impl Fn(usize, &Value) -> bool) -> (usize, usize, usize) {
    let (mut nulls, mut reals, mut first_real) = (0, 0, 0);
    for (i, member) in members.iter().enumerate() {
        if is_null(i, member) {
            nulls += 1;
        } else {
            if reals == 0 {
                first_real = i;
            }
            reals += 1;
        }
    }
    (nulls, reals, first_real)
}

fn null_schema() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("null".to_owned()));
    Value::Object(m)
}

/// `type: [X, "null"]` → `type: X` (and `[X, Y, "null"]` → `[X, Y]`); whether anything changed.
fn drop_null_from_type(m: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(ts)) = m.get_mut("type") else { return false };
    let before = ts.len();
    ts.retain(|t| t != "null");
    if ts.len() == before || ts.is_empty() {
        if ts.is_empty() {
            ts.push(Value::String("null".to_owned()));
        }
        return false;
    }
    if ts.len() == 1 {
        let only = ts.pop().unwrap_or(Value::Null);
        m.insert("type".to_owned(), only);
    }
    true
}

fn drop_null_default(m: &mut Map<String, Value>) {
    if m.get("default").is_some_and(Value::is_null) {
        m.remove("default");
    }
}

/// The JSON type(s) of a definition, for its recursion points: its own `type` as written, else
/// inferred through references, unions (`anyOf`/`oneOf`: every member's), `allOf` (the first
/// typed member's), `const` and `enum`. `None` when nothing says.
fn infer_type(root: &Value, node: &Value, budget: usize) -> Option<Value> {
    if let Some(t @ (Value::String(_) | Value::Array(_))) = node.get("type") {
        return Some(t.clone());
    }
    let mut types = Vec::new();
    let mut seen = Vec::new();
    collect_types(root, node, budget, &mut seen, &mut types)?;
    match types.len() {
        0 => None,
        1 => types.pop(),
        _ => Some(Value::Array(types)),
    }
}

fn collect_types<'v>(
    root: &'v Value,
    node: &'v Value,
    budget: usize,
    seen: &mut Vec<*const Value>,
    out: &mut Vec<Value>,
) -> Option<()> {
    let budget = budget.checked_sub(1)?;
    let add = |t: &str, out: &mut Vec<Value>| {
        if !out.iter().any(|o| o == t) {
            out.push(Value::String(t.to_owned()));
        }
    };
    let Value::Object(m) = node else { return None };
    match m.get("type") {
        Some(Value::String(t)) => {
            add(t, out);
            return Some(());
        }
        Some(Value::Array(ts)) => {
            for t in ts {
                add(t.as_str()?, out);
            }
            return Some(());
        }
        _ => {}
    }
    if let Some(Value::String(r)) = m.get("$ref") {
        let target = refs::resolve(root, r)?;
        if seen.contains(&(target as *const Value)) {
            return None;
        }
        seen.push(target);
        return collect_types(root, target, budget, seen, out);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = m.get(key) {
            for member in members {
                collect_types(root, member, budget, seen, out)?;
            }
            return Some(());
        }
    }
    if let Some(Value::Array(members)) = m.get("allOf") {
        return members.iter().find_map(|x| collect_types(root, x, budget, seen, out));
    }
    if let Some(c) = m.get("const") {
        add(crate::foreign::JsonType::of(c).as_str(), out);
        return Some(());
    }
    if let Some(Value::Array(values)) = m.get("enum")
        && !values.is_empty()
    {
        for v in values {
            add(crate::foreign::JsonType::of(v).as_str(), out);
        }
        return Some(());
    }
    None
}

/// Bytes of a string in compact JSON, quotes and escapes included.
fn string_len(s: &str) -> u64 {
    let plain = s.len() as u64 + 2;
    // Eight bytes at a time for the common case of nothing to escape.
    if !canonical::needs_escape(s.as_bytes()) {
        return plain;
    }
    let mut n = plain;
    for b in s.bytes() {
        n += match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        };
    }
    n
}

/// Bytes of `value` as `serde_json::to_vec` writes it; any depth is fine.
pub(crate) fn json_len(value: &Value) -> u64 {
    size_at::<true>(value, 0, &mut false)
}

/// At least [`json_len`], and cheaper: a string counts as if each of its bytes took a six-byte
/// escape (`\u0001`), an integer as 20 bytes and a float as 24, the longest that `serde_json`
/// writes (`-9223372036854775808`, `-2.2250738585072014e-308`), so no string is read and no
/// number formatted.
#[inline]
fn json_bound(value: &Value) -> u64 {
    match value {
        Value::Array(_) | Value::Object(_) => size_at::<false>(value, 0, &mut false),
        scalar => scalar_size::<false>(scalar),
    }
}

/// How deep [`size_at`] recurses before it hands a value to the iterative [`json_size`].
const SIZE_RECURSION: usize = 32;

/// [`json_len`] when `EXACT`, else [`json_bound`]: recursive (no allocation) for the first
/// [`SIZE_RECURSION`] levels, iterative below; `deep` is set when it goes below.
fn size_at<const EXACT: bool>(value: &Value, depth: usize, deep: &mut bool) -> u64 {
    match value {
        Value::Array(items) if depth < SIZE_RECURSION => {
            let punctuation = 2 + items.len().saturating_sub(1) as u64;
            items
                .iter()
                .fold(punctuation, |n, item| n.saturating_add(size_at::<EXACT>(item, depth + 1, deep)))
        }
        Value::Object(map) if depth < SIZE_RECURSION => {
            let punctuation = 2 + map.len().saturating_sub(1) as u64;
            map.iter().fold(punctuation, |n, (key, v)| {
                n.saturating_add(key_size::<EXACT>(key) + 1).saturating_add(size_at::<EXACT>(
                    v,
                    depth + 1,
                    deep,
                ))
            })
        }
        Value::Array(_) | Value::Object(_) => {
            *deep = true;
            json_size::<EXACT>(value)
        }
        scalar => scalar_size::<EXACT>(scalar),
    }
}

/// The size of a key, quotes included, colon not.
#[inline]
fn key_size<const EXACT: bool>(key: &str) -> u64 {
    if EXACT { string_len(key) } else { 6 * key.len() as u64 + 2 }
}

/// The size of a value that is not a container (a container counts as its punctuation alone).
#[inline]
fn scalar_size<const EXACT: bool>(v: &Value) -> u64 {
    struct Count(u64);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len() as u64;
            Ok(())
        }
    }
    match v {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) if !EXACT => 20 + 4 * u64::from(n.is_f64()),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u64::from(u.checked_ilog10().unwrap_or(0)) + 1
            } else if let Some(i) = n.as_i64() {
                u64::from(i.unsigned_abs().checked_ilog10().unwrap_or(0)) + 2
            } else {
                let mut c = Count(0);
                let _ = std::fmt::write(&mut c, format_args!("{n}"));
                c.0
            }
        }
        Value::String(s) if !EXACT => 6 * s.len() as u64 + 2,
        Value::String(s) => string_len(s),
        Value::Array(items) => 2 + items.len().saturating_sub(1) as u64,
        Value::Object(map) => 2 + map.len().saturating_sub(1) as u64,
    }
}

/// [`size_at`] without recursion, for values of any depth.
fn json_size<const EXACT: bool>(value: &Value) -> u64 {
    let mut total = scalar_size::<EXACT>(value);
    let mut stack: Vec<&Value> = Vec::new();
    let mut next = Some(value);
    while let Some(v) = next {
        match v {
            Value::Array(items) => {
                for item in items {
                    total = total.saturating_add(scalar_size::<EXACT>(item));
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push(item);
                    }
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    total = total.saturating_add(key_size::<EXACT>(key) + 1);
                    total = total.saturating_add(scalar_size::<EXACT>(item));
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push(item);
                    }
                }
            }
            _ => {}
        }
        next = stack.pop();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use proptest::prelude::*;
    use serde_json::json;

    fn run(schema: Value) -> Result<Value, Error> {
        self_contained_input_schema(&schema, "t")
    }

    /// Schema-shaped JSON for the laws below: optional unions, nullable type lists, annotations,
    /// floats and escapes, references that resolve (to `#/$defs/A`, the root, a property) or do
    /// not, and malformed keywords.
    fn arb_schema() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(json!({"type": "string"})),
            Just(json!({"type": "null", "title": "Nothing"})),
            Just(json!({"type": ["integer", "null"], "default": null})),
            Just(json!({"type": "number", "title": "N", "minimum": 1.5, "maximum": -2.25e-300})),
            Just(json!({"type": "string", "title": {"not": ["a", "string"]}})),
            Just(json!({"enum": ["x", 1, null, 2.5e-7, -17], "description": "say \"hi\"\n\u{1}"})),
            Just(json!({})),
            Just(json!(true)),
            Just(json!(false)),
            Just(json!({"$ref": "#/$defs/A"})),
            Just(json!({"$ref": "#/$defs/A", "description": "the site's", "default": null})),
            Just(json!({"$ref": "#"})),
            Just(json!({"$ref": "#/properties/p0"})),
            Just(json!({"$ref": "#/$defs/Missing"})),
            Just(json!({"$ref": 5})),
            Just(json!({"required": "a"})),
            Just(json!({"$defs": 1, "type": "string"})),
        ];
        leaf.prop_recursive(5, 40, 4, |inner| {
            prop_oneof![
                (
                    prop::collection::vec((0usize..4, inner.clone()), 0..4),
                    prop::collection::vec(0usize..4, 0..3),
                    any::<bool>()
                )
                    .prop_map(|(props, required, closed)| {
                        let properties: Map<String, Value> =
                            props.into_iter().map(|(n, p)| (format!("p{n}"), p)).collect();
                        let required: Vec<Value> =
                            required.into_iter().map(|n| json!(format!("p{n}"))).collect();
                        let mut o = json!({"type": "object", "properties": properties, "required": required});
                        if closed {
                            o["additionalProperties"] = json!(false);
                        }
                        o
                    }),
                (prop::collection::vec(inner.clone(), 1..3), 0u8..4, prop::bool::ANY).prop_map(
                    |(mut members, extra, one_of)| {
                        members.push(json!({"type": "null"}));
                        let key = if one_of { "oneOf" } else { "anyOf" };
                        let mut o = json!({ key: members });
                        match extra {
                            1 => o["default"] = Value::Null,
                            2 => o["type"] = json!(["object", "null"]),
                            3 => o["properties"] = json!({"z": {"type": "string"}}),
                            _ => {}
                        }
                        o
                    }
                ),
                inner.clone().prop_map(|i| json!({"type": "array", "items": i, "title": "List"})),
                inner.clone().prop_map(|i| json!({"allOf": [i, {"minProperties": 1}]})),
                inner
                    .clone()
                    .prop_map(|i| json!({"$ref": "#/$defs/A", "properties": {"c": i}, "required": ["c"]})),
                inner.prop_map(|i| json!({"$defs": {"B": i}, "not": {"$ref": "#/$defs/B"}})),
            ]
        })
    }

    /// A root: properties from `arb_schema`, and (sometimes) `$defs` with `A` in them.
    fn arb_root() -> impl Strategy<Value = Value> {
        (prop::collection::vec(arb_schema(), 0..4), prop::option::of(arb_schema()), prop::collection::vec(0usize..4, 0..3))
            .prop_map(|(props, a, required)| {
                let properties: Map<String, Value> =
                    props.into_iter().enumerate().map(|(n, p)| (format!("p{n}"), p)).collect();
                let required: Vec<Value> = required.into_iter().map(|n| json!(format!("p{n}"))).collect();
                let mut root = json!({"type": "object", "title": "Root", "properties": properties, "required": required});
                if let Some(a) = a {
                    root["$defs"] = json!({ "A": a });
                }
                root
            })
    }

    /// A root whose properties refer into five definitions that refer to each other: mostly
    /// forward (a DAG, with shared targets), sometimes backward (a cycle); under `items`, optional
    /// unions or beside an annotation; definitions of any type, some nullable.
    fn arb_reference_graph() -> impl Strategy<Value = Value> {
        let site = (0usize..5, 0u8..4).prop_map(|(j, wrap)| {
            let r = json!({"$ref": format!("#/$defs/D{j}")});
            let site = match wrap {
                0 => r,
                1 => json!({"type": "array", "items": r}),
                2 => json!({"anyOf": [r, {"type": "null"}]}),
                _ => json!({"$ref": format!("#/$defs/D{j}"), "description": "the site's"}),
            };
            (j, site)
        });
        let definition = (prop::collection::vec(site.clone(), 0..4), any::<bool>(), 0u8..4);
        (prop::collection::vec(definition, 5), prop::collection::vec(site, 1..4), any::<bool>()).prop_map(
            |(definitions, root_sites, acyclic)| {
                let mut defs = Map::new();
                for (i, (sites, array, leaf)) in definitions.into_iter().enumerate() {
                    let properties: Map<String, Value> = sites
                        .into_iter()
                        .filter(|(j, _)| !acyclic || *j > i)
                        .enumerate()
                        .map(|(k, (_, site))| (format!("p{k}"), site))
                        .collect();
                    let d = match (properties.is_empty(), leaf) {
                        (true, 0) => json!({"type": "string", "title": "S", "maxLength": 3}),
                        (true, 1) => json!({"type": "number", "minimum": 1.5e-7}),
                        (true, 2) => json!({"type": ["integer", "null"], "default": null, "title": "N"}),
                        (true, _) => json!(true),
                        (false, _) => json!({"type": "object", "properties": properties, "required": ["p0"]}),
                    };
                    defs.insert(
                        format!("D{i}"),
                        if array { json!({"type": "array", "items": d}) } else { d },
                    );
                }
                let properties: Map<String, Value> = root_sites
                    .into_iter()
                    .enumerate()
                    .map(|(k, (_, site))| (format!("r{k}"), site))
                    .collect();
                json!({"$defs": defs, "type": "object", "properties": properties})
            },
        )
    }

    /// Reference sites and union holders with `properties` of their own that conflict with the
    /// definition's (or the member's), nested under each other and under arrays.
    fn arb_conflicting_nest() -> impl Strategy<Value = Value> {
        let leaf = Just(json!({"type": "string"}));
        let nest = leaf.prop_recursive(8, 16, 1, |inner| {
            prop_oneof![
                inner.clone().prop_map(|i| json!({"$ref": "#/$defs/A", "properties": {"r": i}})),
                inner.clone().prop_map(|i| json!({
                    "properties": {"h": i},
                    "anyOf": [{"type": "object", "properties": {"m": {"type": "integer"}}}, {"type": "null"}]
                })),
                inner.prop_map(|i| json!({"type": "array", "items": i})),
            ]
        });
        nest.prop_map(|n| {
            json!({
                "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}},
                "type": "object", "properties": {"n": n}, "required": ["n"]
            })
        })
    }

    fn options(max_bytes: usize, max_depth: usize) -> SelfContainedOptions {
        SelfContainedOptions { max_bytes, max_depth }
    }

    #[test]
    fn a_root_type_that_does_not_say_object_is_named_as_written_on_every_path() {
        // Without anything to rewrite, with a title and an optional `null` the rewrite would drop,
        // and with definitions (the general path).
        let schemas = [
            json!({"type": ["string", "null"], "properties": {"a": {"type": "string"}}}),
            json!({"type": ["string", "null"], "title": "T", "properties": {"a": {"title": "A"}}}),
            json!({"type": ["string", "null"], "$defs": {"A": {}}, "properties": {"a": {"$ref": "#/$defs/A"}}}),
        ];
        for schema in schemas {
            let borrowed = self_contained_input_schema(&schema, "t");
            let owned = self_contained_input_schema_owned(schema.clone(), "t");
            for result in [borrowed, owned] {
                match result {
                    Err(Error::RootNotObject { found, .. }) => {
                        assert_eq!(found, r#"["string","null"]"#, "{schema}");
                    }
                    other => panic!("{schema}: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn the_survey_sorts_every_key_as_the_walker_does() {
        for &(keyword, shape) in walk::KEYWORDS {
            let expected = match keyword {
                "$defs" | "definitions" => Role::Stop,
                "anyOf" | "oneOf" => Role::Union,
                _ => Role::Children(shape),
            };
            assert_eq!(survey_role(keyword), expected, "{keyword}");
        }
        let others = [
            ("$ref", Role::Stop),
            ("title", Role::Title),
            ("required", Role::Required),
            ("type", Role::Type),
            ("enum", Role::Value),
            ("default", Role::Value),
            ("description", Role::Value),
            ("format", Role::Value),
            ("minItems", Role::Value),
            ("Items", Role::Value),
            ("propertie", Role::Value),
            ("", Role::Value),
        ];
        for (key, role) in others {
            assert_eq!(survey_role(key), role, "{key}");
            assert_eq!(walk::keyword_shape(key), None, "{key}");
        }
    }

    #[test]
    fn a_required_list_is_bounded_as_any_value_beside_and_refused_unless_it_holds_names() {
        for names in [json!([]), json!(["a"]), json!(["a", "bc", "d\"e"])] {
            assert_eq!(names_bound(&names), bound_beside(&names), "{names}");
        }
        for bad in [json!(null), json!("a"), json!(["a", 1]), json!({"a": "b"})] {
            assert_eq!(names_bound(&bad), None, "{bad}");
        }
    }

    proptest! {
        // Law: the plain build, wherever it finishes, gives exactly what the general path gives
        // (the same output or the same error), under tight and default budgets.
        #[test]
        fn the_plain_build_agrees_with_the_general_path(
            schema in arb_root(),
            max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
            max_depth in prop_oneof![Just(3usize), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
        ) {
            let o = options(max_bytes, max_depth);
            prop_assert_eq!(inline(&schema, "t", &o, true), inline(&schema, "t", &o, false));
        }

        // Law: on a root without definitions, the survey answers exactly where discovery passes
        // and meets neither a reference nor a value nested deep, and its bound (strings at six
        // bytes a byte) is never below discovery's (strings at their exact size).
        #[test]
        fn the_survey_answers_exactly_where_discovery_vouches_for_a_plain_schema(
            schema in prop_oneof![arb_root(), arb_schema()],
            max_depth in prop_oneof![Just(2usize), Just(4), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
        ) {
            let mut schema = schema;
            if let Value::Object(root) = &mut schema {
                root.remove("$defs");
            }
            let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
            let mut inliner = Inliner::new(&schema, "t", &o);
            let vouched = inliner.discover().is_ok() && inliner.by_reference.is_empty() && !inliner.deep;
            match survey(&schema, 0, max_depth) {
                Some(found) => {
                    prop_assert!(vouched, "the survey answers where discovery does not vouch");
                    prop_assert!(found.bound >= inliner.targets[0].bound);
                }
                None => prop_assert!(!vouched, "the survey gives up where discovery vouches"),
            }
        }

        // Law: an output nests no deeper than the depth budget it was made under.
        #[test]
        fn an_output_nests_within_its_depth_budget(
            schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
            max_depth in 1usize..12,
        ) {
            let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
            if let Ok(out) = self_contained_input_schema_with(&schema, "t", &o) {
                let within = walk::visit_all(&out, max_depth, &mut |_, _| true);
                prop_assert!(within.is_ok(), "nests past {max_depth} at {within:?}");
            }
        }

        // Law: the general path's output (or error) is the same built entry by entry as copied
        // and rewritten, under tight and default budgets.
        #[test]
        fn building_entry_by_entry_agrees_with_copying_and_rewriting(
            schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
            max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
            max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
        ) {
            let o = options(max_bytes, max_depth);
            let built = |builder| build_root_as(&schema, "t", &o, false, builder).map(|(out, _)| out);
            prop_assert_eq!(built(Builder::Construct), built(Builder::Copy));
        }

        // Law: wherever the one-walk build vouches for an output, the four steps give that same
        // output (and its size bound holds), under tight and default budgets.
        #[test]
        fn the_one_walk_output_is_what_the_four_steps_give(
            schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
            max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
            max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
        ) {
            let o = options(max_bytes, max_depth);
            if let Some((out, bound)) = build_in_one_walk(&schema, "t", &o) {
                prop_assert!(bound.is_some_and(|b| b >= json_len(&out) && b <= max_bytes as u64));
                let four = build_root_as(&schema, "t", &o, false, Builder::Construct)
                    .and_then(|(built, bound)| finish_within_budget(built, bound, "t", &o));
                prop_assert_eq!(Ok(out), four);
            }
        }

        // Law: the bound the one walk accumulates as it builds is never below the `json_bound` of
        // what it built, nor (with `finish`'s growth) below the finished output's exact size.
        #[test]
        fn the_bound_accumulated_while_building_holds(
            schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        ) {
            let o = SelfContainedOptions::new();
            let mut inliner = Inliner::for_one_walk(&schema, "t", &o);
            if let Ok(built) = inliner.construct(&schema, Ctx::Optional, &[], &Trail::Root, 0) {
                let accumulated = inliner.built_bound;
                prop_assert!(accumulated >= json_bound(&built), "{accumulated} < {}", json_bound(&built));
                if let Ok(out) = finish(built, "t") {
                    prop_assert!(accumulated + FINISH_GROWTH >= json_len(&out));
                }
            }
        }

        // Law: wherever the expansion is judged to fit without a measure, the measure passes.
        #[test]
        fn an_expansion_judged_to_fit_passes_the_measure(
            schema in prop_oneof![arb_root(), arb_reference_graph()],
            max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
            max_depth in prop_oneof![Just(3usize), Just(6), Just(9), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
        ) {
            let o = options(max_bytes, max_depth);
            let mut inliner = Inliner::new(&schema, "t", &o);
            if inliner.discover().is_ok() && !inliner.by_reference.is_empty() {
                inliner.components();
                if inliner.expansion_fits().is_some() {
                    prop_assert_eq!(inliner.measure_root(), Ok(()));
                }
            }
        }

        // Law: where the expansion is judged to fit, its bound of the output (strings at their
        // exact size, a slack per object built) is never below the finished output's exact size.
        #[test]
        fn the_expansion_bound_is_never_below_the_exact_size(
            schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        ) {
            let o = SelfContainedOptions::new();
            for builder in [Builder::Construct, Builder::Copy] {
                if let Ok((built, Some(bound))) = build_root_as(&schema, "t", &o, false, builder)
                    && let Ok(out) = finish(built, "t")
                {
                    let exact = json_len(&out);
                    prop_assert!(bound >= exact, "{builder:?}: {bound} < {exact}");
                }
            }
        }

        // Law: the size bounds that spare the exact count are never below the exact compact size:
        // the survey's, on what the plain path returns, and `json_bound`, on inputs and outputs.
        #[test]
        fn the_size_bounds_are_never_below_the_exact_size(schema in arb_root(), try_plain in any::<bool>()) {
            prop_assert!(json_bound(&schema) >= json_len(&schema));
            let o = SelfContainedOptions::new();
            if let Ok((built, bound)) = build_root(&schema, "t", &o, try_plain)
                && let Ok(out) = finish(built, "t")
            {
                let exact = json_len(&out);
                prop_assert!(json_bound(&out) >= exact, "{} < {exact}", json_bound(&out));
                if let Some(bound) = bound {
                    prop_assert!(bound >= exact, "{bound} < {exact}");
                }
            }
        }
    }

    #[test]
    fn the_plain_survey_stops_at_a_reference_and_the_general_path_inlines_it() {
        let schema = json!({"properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}}});
        assert!(survey(&schema, 0, SelfContainedOptions::DEFAULT_MAX_DEPTH).is_none());
        let out = run(schema).unwrap();
        assert_eq!(out["properties"]["b"], json!({"type": "string"}));
    }

    #[test]
    fn an_output_over_the_budget_is_refused_with_its_exact_size() {
        let schema = json!({"properties": {"a": {"type": "string", "description": "x".repeat(100)}}});
        let exact = json_len(&run(schema.clone()).unwrap());
        for try_plain in [true, false] {
            let at = inline(&schema, "t", &options(exact as usize, 128), try_plain);
            assert!(at.is_ok());
            let under = inline(&schema, "t", &options(exact as usize - 1, 128), try_plain).unwrap_err();
            assert!(matches!(under, Error::TooLarge { size, .. } if size == exact), "{under:?}");
        }
    }

    #[test]
    fn json_bound_takes_the_longest_spelling_of_each_scalar() {
        // Each of these is the longest a value of its kind and length can be, so the bound is exact.
        for v in [json!(u64::MAX), json!(i64::MIN), json!(-2.2250738585072014e-308), json!("\u{1}\u{2}")] {
            assert_eq!(json_bound(&v), json_len(&v), "{v}");
        }
        for v in [json!(0), json!(-1), json!(1.5), json!("plain"), json!({"k": ["a\"", 1, null, {}]})] {
            assert!(json_bound(&v) > json_len(&v), "{v}");
        }
    }

    #[test]
    fn json_len_and_json_bound_take_values_deeper_than_their_recursion() {
        let mut v = json!(["a\"", 1.5, -3, {"k": null}]);
        for i in 0..3 * SIZE_RECURSION {
            v = if i % 2 == 0 { json!([v, "x"]) } else { json!({"k\n": v, "n": 10}) };
        }
        let exact = serde_json::to_vec(&v).unwrap().len() as u64;
        assert_eq!(json_len(&v), exact);
        assert_eq!(json_size::<true>(&v), exact);
        assert!(json_bound(&v) >= exact);
    }

    #[test]
    fn json_len_matches_serde_json_compact_output() {
        let v = json!({"a\n\"b": [1, -0.0, 2.5e-300, 1e300, null, true, false, "\u{1}é\\"], "": {}, "c": []});
        assert_eq!(json_len(&v), serde_json::to_vec(&v).unwrap().len() as u64);
    }

    #[test]
    fn a_required_nullable_field_keeps_null_in_a_type_list() {
        let out = run(json!({
            "properties": {
                "b": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "B"},
                "c": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}
            },
            "required": ["b"]
        }))
        .unwrap();
        assert_eq!(out["properties"], json!({"b": {"type": ["string", "null"]}, "c": {"type": "string"}}));
    }

    #[test]
    fn nullable_enum_members_keep_the_union() {
        let out = run(json!({
            "properties": {"e": {"anyOf": [{"enum": ["x"], "type": "string"}, {"type": "null"}]}},
            "required": ["e"]
        }))
        .unwrap();
        assert_eq!(
            out["properties"]["e"],
            json!({"anyOf": [{"enum": ["x"], "type": "string"}, {"type": "null"}]})
        );
    }

    /// How many of the depth budgets `max_depths` accept `schema`, asserting that each output
    /// nests within the budget it was made under.
    fn accepted_within_budgets(schema: &Value, max_depths: std::ops::RangeInclusive<usize>) -> usize {
        let mut accepted = 0;
        for max_depth in max_depths {
            let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
            if let Ok(out) = self_contained_input_schema_with(schema, "t", &o) {
                accepted += 1;
                let within = walk::visit_all(&out, max_depth, &mut |_, _| true);
                assert!(within.is_ok(), "max_depth {max_depth}: nests past it at {within:?}");
            }
        }
        accepted
    }

    #[test]
    fn a_conflicting_family_of_the_definition_moves_into_all_of_and_the_sites_stays() {
        let out = run(json!({
            "$defs": {"A": {"type": "object", "properties": {"x": {}}, "additionalProperties": false, "required": ["x"]}},
            "properties": {"a": {"$ref": "#/$defs/A", "properties": {"z": {}}, "required": ["z"], "description": "mine"}}
        }))
        .unwrap();
        assert_eq!(
            out["properties"]["a"],
            json!({
                "type": "object", "properties": {"z": {}}, "required": ["x", "z"], "description": "mine",
                "allOf": [{"properties": {"x": {}}, "additionalProperties": false}]
            })
        );
    }

    #[test]
    fn sites_with_their_own_properties_nested_under_each_other_stay_within_the_depth_budget() {
        // Each site's `properties` conflict with the definition's. Found by the fuzzer: when the
        // site's family moved into `allOf`, each level of sites added an output level the budget
        // had not counted, and `/properties/r/allOf/0/properties/r/allOf/0/properties/a` came out
        // of a schema accepted at `max_depth` 4.
        let a = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        let mut site = json!({"type": "string"});
        for _ in 0..4 {
            site = json!({"$ref": "#/$defs/A", "properties": {"r": site}});
        }
        let schema = json!({"$defs": {"A": a}, "type": "object", "properties": {"r": site}});
        let accepted = accepted_within_budgets(&schema, 1..=10);
        assert!(accepted >= 3, "the deeper budgets accept it ({accepted} did)");
    }

    #[test]
    fn a_collapsed_union_beside_its_own_properties_stays_within_the_depth_budget() {
        // The union's holder and its one real member both have `properties`: the member's move
        // into `allOf`, the holder's stay where the budget counted them.
        let mut node = json!({"type": "string"});
        for _ in 0..4 {
            node = json!({
                "properties": {"h": node},
                "anyOf": [{"type": "object", "properties": {"m": {"type": "integer"}}}, {"type": "null"}]
            });
        }
        let schema = json!({"type": "object", "properties": {"u": node}});
        let accepted = accepted_within_budgets(&schema, 1..=12);
        assert!(accepted >= 3, "the deeper budgets accept it ({accepted} did)");
    }

    #[test]
    fn a_recursion_point_keeps_the_type_and_uses_an_before_a_vowel() {
        let out = run(json!({
            "$defs": {"Item": {"anyOf": [{"type": "object", "properties": {"next": {"$ref": "#/$defs/Item"}}}, {"type": "array"}]}},
            "properties": {"i": {"$ref": "#/$defs/Item"}}, "required": ["i"]
        }))
        .unwrap();
        let point = &out["properties"]["i"]["anyOf"][0]["properties"]["next"];
        assert_eq!(
            point,
            &json!({"type": ["object", "array"], "description": "An Item: the same shape as the Item that contains it."})
        );
    }

    #[test]
    fn a_doubling_dag_is_refused_from_its_measure() {
        let mut defs = Map::new();
        for i in 0..40 {
            let next = format!("#/$defs/D{}", i + 1);
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "properties": {"l": {"$ref": next}, "r": {"$ref": next}}}),
            );
        }
        defs.insert("D40".into(), json!({"type": "string"}));
        let schema = json!({"$defs": defs, "properties": {"root": {"$ref": "#/$defs/D0"}}});
        let err = run(schema).unwrap_err();
        assert_eq!(err.kind(), "too-large");
    }

    #[test]
    fn the_measure_is_left_out_only_for_an_acyclic_expansion_within_both_budgets() {
        let fits = |schema: &Value, max_bytes: usize, max_depth: usize| {
            let o = options(max_bytes, max_depth);
            let mut inliner = Inliner::new(schema, "t", &o);
            inliner.discover().unwrap();
            inliner.components();
            inliner.expansion_fits().is_some()
        };
        let dag = json!({
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}, "c": {"$ref": "#/$defs/B"}}},
                      "B": {"type": "object", "properties": {"x": {"type": "string"}}}},
            "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}
        });
        assert!(fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
        // Discovery reaches B first from the root, at level 2; through A it sits at level 4
        // (`/properties/a` 1, `A` 2, its `b` 3), and its `x` at 5.
        assert!(fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 5));
        assert!(!fits(&dag, SelfContainedOptions::DEFAULT_MAX_BYTES, 4));
        // B's bound (`{"type":"object","properties":{"x":{"type":"string"}}}`, 54 bytes: strings
        // at their exact size) taken three times is above 160 bytes; the whole expansion is
        // within 400, which strings counted at six bytes a byte would not be.
        assert!(!fits(&dag, 160, 128));
        assert!(fits(&dag, 400, 128));
        let cycle = json!({"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}},
                           "properties": {"n": {"$ref": "#/$defs/N"}}});
        assert!(!fits(&cycle, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
        let root = json!({"properties": {"again": {"$ref": "#"}}});
        assert!(!fits(&root, SelfContainedOptions::DEFAULT_MAX_BYTES, 128));
    }

    #[test]
    fn a_definition_is_named_by_the_same_pointer_however_its_reference_is_spelled() {
        // `#/$defs/Bad` is read without decoding; `#/$defs/B%61d` and `#/$defs/a~1b~0` go through
        // the decoder. Each names the definition by its escaped pointer.
        let schema = |r: &str, defs: Value| json!({"$defs": defs, "properties": {"a": {"$ref": r}}});
        let bad = json!({"Bad": {"required": "x"}});
        for r in ["#/$defs/Bad", "#/$defs/B%61d"] {
            let err = run(schema(r, bad.clone())).unwrap_err();
            assert_eq!((err.kind(), err.pointer()), ("malformed", "/$defs/Bad/required"), "{r}");
        }
        let escaped = json!({"a/b~": {"required": "x"}});
        let err = run(schema("#/$defs/a~1b~0", escaped)).unwrap_err();
        assert_eq!(err.pointer(), "/$defs/a~1b~0/required");
        let err = run(schema("#/$defs/Gone", bad)).unwrap_err();
        assert_eq!((err.kind(), err.pointer()), ("missing-reference", "/properties/a"));
        // A recursion point's note names the definition by its name, however it was reached.
        let tree = |r: &str| {
            json!({"$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": r}}}},
                   "properties": {"n": {"$ref": r}}})
        };
        assert_eq!(run(tree("#/$defs/Node")), run(tree("#/$defs/N%6Fde")));
    }

    #[test]
    fn unreferenced_definitions_too_deep_are_refused_as_the_whole_input_check_refuses_them() {
        let deep = |levels: usize| {
            let mut v = json!("x");
            for _ in 0..levels {
                v = Value::Array(vec![v]);
            }
            v
        };
        let limit = walk::nesting_limit(SelfContainedOptions::DEFAULT_MAX_DEPTH);
        let schema = json!({
            "definitions": {"D": {"type": "integer"}, "E": {"default": deep(limit)}},
            "$defs": {"A": {"type": "string"}, "B": {"const": deep(limit)}, "C": {"enum": [deep(limit)]}},
            "properties": {"a": {"$ref": "#/$defs/A"}, "d": {"$ref": "#/definitions/D"}}
        });
        let whole = nesting_within(&schema, "t", &SelfContainedOptions::new()).unwrap_err();
        // The first in the input's order: `$defs` in key order, `definitions` as written with
        // `preserve_order`.
        let first = ["/$defs/B/const/0/0", "/definitions/E/default/0/0"];
        assert!(first.iter().any(|p| whole.pointer().starts_with(p)), "{whole}");
        assert_eq!(run(schema), Err(whole));
        // In a null member of an optional union (which the one walk does not build).
        let schema = json!({
            "$defs": {"A": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/A"},
                           "b": {"anyOf": [{"type": "string"}, {"type": "null", "examples": deep(limit)}], "default": null}}
        });
        let whole = nesting_within(&schema, "t", &SelfContainedOptions::new()).unwrap_err();
        assert!(whole.pointer().starts_with("/properties/b/anyOf/1/examples/0/0"), "{whole}");
        assert_eq!(run(schema), Err(whole));
        // Just within the limit: accepted, and the unreferenced definitions left out.
        let schema = json!({"$defs": {"A": {"type": "string"}, "B": {"const": deep(limit - 3)}},
                            "properties": {"a": {"$ref": "#/$defs/A"}}});
        assert_eq!(
            run(schema),
            Ok(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": []}))
        );
    }

    #[test]
    fn the_one_walk_leaves_to_the_four_steps_what_their_measure_or_size_check_refuses() {
        // Thirty optional unions of `{}` and `null` nested in a definition: the output is small,
        // but the measure counts 33 objects (the work of 66 bytes) against a budget of 60.
        let mut unions = json!({});
        for _ in 0..30 {
            unions = json!({"anyOf": [unions, {"type": "null"}]});
        }
        let schema = json!({"$defs": {"A": unions}, "properties": {"a": {"$ref": "#/$defs/A"}}});
        let small = json!({"type": "object", "properties": {"a": {}}, "required": []});
        assert!(json_len(&small) <= 60);
        let tight = options(60, SelfContainedOptions::DEFAULT_MAX_DEPTH);
        assert_eq!(build_in_one_walk(&schema, "t", &tight), None);
        let err = self_contained_input_schema_with(&schema, "t", &tight).unwrap_err();
        assert_eq!(err.kind(), "too-large");
        assert_eq!(run(schema), Ok(small));
        // An output a few bytes over the budget: refused with its exact size, by the four steps.
        let schema =
            json!({"$defs": {"A": {"type": "string"}}, "properties": {"abc": {"$ref": "#/$defs/A"}}});
        let exact = json_len(&run(schema.clone()).unwrap());
        let tight = options(exact as usize - 1, SelfContainedOptions::DEFAULT_MAX_DEPTH);
        assert_eq!(build_in_one_walk(&schema, "t", &tight), None);
        let err = self_contained_input_schema_with(&schema, "t", &tight).unwrap_err();
        assert_eq!(
            err,
            Error::TooLarge {
                tool: "t".into(),
                pointer: String::new(),
                size: exact,
                max_bytes: exact as usize - 1
            }
        );
        // At the budget, the one walk vouches for it.
        let fits = options(exact as usize, SelfContainedOptions::DEFAULT_MAX_DEPTH);
        assert!(build_in_one_walk(&schema, "t", &fits).is_some());
    }

    #[test]
    fn an_optional_union_built_apart_gives_what_copying_and_rewriting_gives() {
        let shapes = [
            json!({"anyOf": [{"type": "string", "title": "S"}, {"type": "null"}], "default": null, "title": "T"}),
            json!({"anyOf": [{"type": "string"}]}),
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}], "default": null}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": "x"}),
            json!({"anyOf": [{"type": "null"}, {"type": "null", "description": "none"}]}),
            json!({"anyOf": [true, {"type": "null"}], "default": null}),
            json!({"anyOf": [{"$ref": "#/$defs/N"}, {"type": "string"}], "default": null}),
            json!({"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/N"}], "default": null}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "oneOf": [{"type": "null"}]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "d"}),
            json!({"anyOf": [{"type": "string"}, 5, {"type": "null"}]}),
            json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "null"}]}, {"type": "null"}]}),
            json!({"anyOf": [], "default": null}),
            json!({"anyOf": {"type": "string"}}),
        ];
        let defs = json!({"N": {"type": "null", "title": "N"}, "S": {"type": "string", "title": "S"}});
        for shape in shapes {
            for required in [json!([]), json!(["p"])] {
                let schema = json!({"$defs": defs, "properties": {"p": shape}, "required": required});
                let built =
                    |builder| build_root_as(&schema, "t", &SelfContainedOptions::new(), false, builder);
                assert_eq!(built(Builder::Construct), built(Builder::Copy), "{schema}");
            }
            // The root itself, beside the definitions.
            let mut root = shape.clone();
            root["$defs"] = defs.clone();
            let built = |builder| build_root_as(&root, "t", &SelfContainedOptions::new(), false, builder);
            assert_eq!(built(Builder::Construct), built(Builder::Copy), "{root}");
        }
    }

    #[test]
    fn deep_reference_chains_hit_the_depth_budget() {
        let mut defs = Map::new();
        for i in 0..300 {
            defs.insert(format!("R{i}"), json!({"$ref": format!("#/$defs/R{}", i + 1)}));
        }
        defs.insert("R300".into(), json!({"type": "string"}));
        let err = run(json!({"$defs": defs, "properties": {"a": {"$ref": "#/$defs/R0"}}})).unwrap_err();
        assert_eq!(err.kind(), "too-deep");
    }

    /// `R0` .. `R{n-1}`, each an object whose property `n` is a reference to the next; `R{n}` as
    /// given; the root's property `a` a reference to `R0`.
    fn object_chain(n: usize, last: Value) -> Value {
        let mut defs = Map::new();
        for i in 0..n {
            let next = format!("#/$defs/R{}", i + 1);
            defs.insert(format!("R{i}"), json!({"type": "object", "properties": {"n": {"$ref": next}}}));
        }
        defs.insert(format!("R{n}"), last);
        json!({"$defs": defs, "type": "object", "properties": {"a": {"$ref": "#/$defs/R0"}}})
    }

    #[test]
    fn a_reference_chain_past_the_budget_is_refused_in_discovery_where_the_budget_runs_out() {
        // Levels: `/properties/a` 1, `R0` 2, its `n` 3, `R1` 4, its `n` 5: the hop from there
        // would pass a budget of 5. `R40` is malformed, but discovery never gets that far.
        let schema = object_chain(40, json!({"type": "object", "required": "x"}));
        let options = options(SelfContainedOptions::DEFAULT_MAX_BYTES, 5);
        let mut inliner = Inliner::new(&schema, "t", &options);
        let err = inliner.discover().unwrap_err();
        assert_eq!((err.kind(), err.pointer()), ("too-deep", "/$defs/R1/properties/n"));
        // The root, R0, R1, and R2 (resolved at the site where the budget runs out).
        assert_eq!(inliner.targets.len(), 4);
        for try_plain in [true, false] {
            assert_eq!(inline(&schema, "t", &options, try_plain), Err(err.clone()));
        }
    }

    #[test]
    fn a_reference_chain_within_the_budget_still_reports_a_malformed_definition_at_its_end() {
        let schema = object_chain(2, json!({"type": "object", "required": "x"}));
        let err =
            inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 7), false).unwrap_err();
        assert_eq!((err.kind(), err.pointer()), ("malformed", "/$defs/R2/required"));
    }

    #[test]
    fn a_definition_reached_through_references_gets_the_budget_left_at_its_site() {
        // `R1` is reached at level 4; its own `items` nesting takes it to 7, past a budget of 6,
        // though from where it stands it is only 3 deep.
        let deep = json!({"type": "array", "items": {"items": {"items": {"type": "string"}}}});
        let schema = object_chain(1, deep);
        let err =
            inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 6), false).unwrap_err();
        assert_eq!((err.kind(), err.pointer()), ("too-deep", "/$defs/R1/items/items/items"));
        assert!(inline(&schema, "t", &options(SelfContainedOptions::DEFAULT_MAX_BYTES, 7), false).is_ok());
    }

    proptest! {
        // Law: `Required` names exactly what the object's list or the site's extra names name,
        // scanned (a short list) or sorted and searched (a long one, duplicates included).
        #[test]
        fn required_names_what_its_lists_name(
            listed in prop::collection::vec(0u8..24, 0..20),
            extra in prop::collection::vec(0u8..24, 0..4),
        ) {
            let listed: Vec<Value> = listed.iter().map(|n| json!(format!("p{n}"))).collect();
            let extra: Vec<String> = extra.iter().map(|n| format!("p{n}")).collect();
            let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
            let required = Required::new(&listed, &extra);
            prop_assert_eq!(required.sorted.is_empty(), listed.len() + extra.len() <= Required::SCAN);
            for n in 0..26 {
                let name = format!("p{n}");
                let named = listed.iter().any(|r| r == name.as_str()) || extra.contains(&name.as_str());
                prop_assert_eq!(required.names(&name), named, "{}", name);
                let step = Step::Entry("properties", &name);
                let ctx = if named { Ctx::Required } else { Ctx::Optional };
                prop_assert_eq!(required.ctx_of(step, Ctx::Required), ctx);
            }
        }
    }

    proptest! {
        // Law: `ByReference` answers as a hash map of the same entries does, scanned or hashed.
        #[test]
        fn by_reference_finds_what_a_hash_map_finds(count in 0usize..40) {
            let names: Vec<String> = (0..45).map(|i| format!("#/$defs/D{i}")).collect();
            let mut ours = ByReference::default();
            let mut theirs = HashMap::new();
            for (t, name) in names.iter().take(count).enumerate() {
                ours.insert(name, t);
                theirs.insert(name.as_str(), t);
            }
            prop_assert_eq!(ours.is_empty(), count == 0);
            prop_assert_eq!(ours.table.is_empty(), count <= SCAN_KEYS);
            for name in &names {
                prop_assert_eq!(ours.get(name), theirs.get(name.as_str()).copied(), "{}", name);
            }
        }
    }

    #[test]
    fn every_target_is_found_at_its_address_with_few_targets_and_with_many() {
        for n in [3, SCAN_KEYS - 1, SCAN_KEYS, SCAN_KEYS + 1, 40] {
            // A chain D0 -> D1 -> ... -> D{n-1}, and one definition no reference reaches.
            let mut defs = Map::new();
            for i in 0..n {
                let next =
                    if i + 1 < n { json!({"$ref": format!("#/$defs/D{}", i + 1)}) } else { json!(true) };
                defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"n": next}}));
            }
            defs.insert("Unused".into(), json!({"type": "string"}));
            let schema = json!({"$defs": defs, "properties": {"a": {"$ref": "#/$defs/D0"}}});
            let options = SelfContainedOptions::new();
            let mut inliner = Inliner::new(&schema, "t", &options);
            inliner.discover().unwrap();
            assert_eq!(inliner.targets.len(), n + 1, "the root and each D");
            assert_eq!(inliner.by_address.is_empty(), n < SCAN_KEYS, "{n}");
            for t in 0..inliner.targets.len() {
                assert_eq!(inliner.target_at(inliner.targets[t].node), Some(t), "{n}");
            }
            assert_eq!(inliner.target_at(&schema["$defs"]["Unused"]), None, "{n}");
        }
    }

    #[test]
    fn the_accumulated_bound_covers_what_combining_and_collapsing_add() {
        // Each shape makes the output hold something no input object held: an `allOf` member
        // for a conflicting family or for `unevaluated*`, a `type` list with "null", a
        // recursion point's note and type.
        let defs = json!({
            "Obj": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
            "Open": {"type": "object", "unevaluatedProperties": false, "allOf": [{"properties": {"x": true}}]},
            "S": {"type": "string", "title": "S"},
            "Node": {"anyOf": [{"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}, {"type": "array"}]}
        });
        let shapes = [
            json!({"$ref": "#/$defs/Obj", "properties": {"b": {"type": "integer"}}}),
            json!({"$ref": "#/$defs/Obj", "additionalProperties": true, "unevaluatedProperties": false}),
            json!({"$ref": "#/$defs/Open", "properties": {"y": {"$ref": "#/$defs/Obj", "properties": {}}}}),
            json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}),
            json!({"anyOf": [{"$ref": "#/$defs/Obj", "properties": {"c": true}}, {"type": "null"}], "properties": {"d": true}}),
            json!({"$ref": "#/$defs/Node", "description": "x".repeat(40)}),
            json!({"items": {"$ref": "#"}, "description": "a list"}),
        ];
        for shape in shapes {
            for required in [json!([]), json!(["p"])] {
                let schema = json!({"$defs": defs, "type": "object", "properties": {"p": shape}, "required": required});
                let o = SelfContainedOptions::new();
                let mut inliner = Inliner::for_one_walk(&schema, "t", &o);
                let built = inliner.construct(&schema, Ctx::Optional, &[], &Trail::Root, 0).unwrap();
                assert!(inliner.built_bound >= json_bound(&built), "{schema}");
                assert_eq!(Ok(finish(built, "t").unwrap()), run(schema.clone()), "{schema}");
            }
        }
    }

    /// The best of three timings of `f`, over the best of three deep copies (and drops) of
    /// `schema`: linear work of the same size, measured in the same process.
    fn times_a_copy<T>(schema: &Value, mut f: impl FnMut() -> T) -> f64 {
        let best = |g: &mut dyn FnMut()| {
            (0..3)
                .map(|_| {
                    let start = std::time::Instant::now();
                    g();
                    start.elapsed()
                })
                .min()
                .unwrap_or_default()
                .as_secs_f64()
        };
        let copy = best(&mut || drop(std::hint::black_box(schema.clone())));
        best(&mut || drop(std::hint::black_box(f()))) / copy
    }

    #[test]
    fn many_properties_with_many_required_names_take_near_linear_time() {
        // A guard against work in properties x required names (a hang on a 4 MiB schema), not a
        // speed figure: scanning the list for each property took some 20 (release build) to 90
        // (debug) times the copy of the input; looked up in the sorted list, 1 to 4.
        let n = 60_000;
        let (mut with_defs, mut plain) = (Map::new(), Map::new());
        let mut required = Vec::new();
        for i in 0..n {
            let name = format!("p{i:06}");
            // Each property an optional union, whose `null` only a required one keeps.
            with_defs.insert(name.clone(), json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}));
            plain.insert(name.clone(), json!({"title": "P", "type": ["string", "null"]}));
            if i % 2 == 0 {
                required.push(json!(name));
            }
        }
        let with_defs =
            json!({"$defs": {"S": {"type": "string"}}, "properties": with_defs, "required": required});
        let plain = json!({"properties": plain, "required": required});
        let check = |out: &Value, path: &str| {
            assert_eq!(out["properties"]["p000000"], json!({"type": ["string", "null"]}), "{path}");
            assert_eq!(out["properties"]["p000001"], json!({"type": "string"}), "{path}");
            assert_eq!(out["properties"]["p059998"], json!({"type": ["string", "null"]}), "{path}");
        };
        let o = SelfContainedOptions::new();
        // The one walk gives up past its object budget, so the four steps build this one too.
        for builder in [Builder::OneWalk, Builder::Copy] {
            let path = format!("{builder:?}");
            check(&build_root_as(&with_defs, "t", &o, false, builder).unwrap().0, &path);
            let took = times_a_copy(&with_defs, || build_root_as(&with_defs, "t", &o, false, builder));
            assert!(took < 10.0, "{path} took {took:.1} times the copy");
        }
        check(&inline(&plain, "t", &o, true).unwrap(), "plain");
        let took = times_a_copy(&plain, || inline(&plain, "t", &o, true));
        assert!(took < 10.0, "the plain path took {took:.1} times the copy");
        let took = times_a_copy(&plain, || self_contained_input_schema_owned(plain.clone(), "t"));
        // The owned function's figure includes the copy it is handed.
        assert!(took < 11.0, "the owned plain path took {took:.1} times the copy");
    }

    #[test]
    fn tarjan_puts_a_cycle_in_one_component_and_a_chain_in_many() {
        let schema = json!({
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"items": {"$ref": "#/$defs/A"}}, "C": {"type": "string"}},
            "properties": {"a": {"$ref": "#/$defs/A"}, "c": {"$ref": "#/$defs/C"}}
        });
        let options = SelfContainedOptions::new();
        let mut inliner = Inliner::new(&schema, "t", &options);
        inliner.discover().unwrap();
        inliner.components();
        let comp = |name: &str| inliner.targets.iter().find(|t| t.name == name).map(|t| t.component).unwrap();
        assert_eq!(comp("A"), comp("B"));
        assert_ne!(comp("A"), comp("C"));
    }
}
