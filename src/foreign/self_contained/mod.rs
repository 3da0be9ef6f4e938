//! [`self_contained_input_schema`]: a foreign tool schema with every local `$ref` inlined.
//!
//! See the [module documentation](crate::foreign) for what it does and why; this module holds the
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
//!    the measure could not refuse, and is left out ([`Engine::expansion_fits`]);
//! 4. **build** the output entry by entry from the root (and from each target a reference site
//!    expands), leaving out the keywords the output drops ([`walk::copy_children`]); with
//!    serde_json's `preserve_order`, a deep clone rewritten in place while the original is read
//!    beside it ([`walk::zip_children_mut`]), which keeps each map's order. Then a bound of its
//!    compact size that reads no string ([`json_bound`]), and the exact size only when that bound
//!    passes the budget: the measure is a lower bound ([`Bound::Lower`]), the built output is
//!    checked.
//!
//! Most schemas pass every check and every budget, so the general path first builds its output
//! in one walk ([`build_in_one_walk`]), in every build: step 4 from the root, making step 1's
//! checks on each node as it goes, with a small bound on the objects it builds, then the size
//! check (from a bound of the output's size added up as it builds, so most outputs are never read
//! again). With `preserve_order` each map of subschemas it builds (a `properties`) keeps the
//! input's order ([`walk::copy_children`]). Where that walk
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
//!
//! The four steps, the one walk, and what they read of each object are the engine's
//! ([`crate::inline`]), which the inlining dialects share; this module holds what makes them this
//! function's. Where each part lives:
//!
//! - this file: the public functions and options, and the choice of path ([`inline`],
//!   [`build_plain`], [`build_general`], [`build_in_one_walk`]);
//! - `policy.rs`: the engine's [`Policy`] for a foreign schema ([`Foreign`]: a recursion
//!   expanded with a note, optional unions collapsed, the draft-aware reading, the errors);
//! - `plain.rs`: the plain path ([`survey`], [`rewrite_in_place`], [`plain_in_place`]);
//! - `combine.rs`: a reference site with its definition ([`combine`]);
//! - `finish.rs`: the root's final shape and the size check;
//! - `tests.rs`: unit tests and laws over all of it.

use super::error::ForeignSchemaError as Error;
use crate::canonical;
use crate::inline::draft::Draft;
use crate::inline::*;
use crate::vocab::json_type::{JsonType, Spelling};
#[cfg(test)]
use crate::walk::Step;
use crate::walk::drop_any_depth;
use crate::walk::{self, Shape};
use serde_json::{Map, Value};
#[cfg(test)]
use std::collections::HashMap;

mod combine;
mod finish;
mod plain;
mod policy;
#[cfg(test)]
mod tests;

use combine::*;
use finish::*;
use plain::*;
pub use plain::{Role, survey_role};
use policy::*;

/// Whether [`finish`] leaves an empty `required` in a root whose `$schema` is `uri` (every draft
/// but draft-04 and -03, which forbid one). For a reader of a schema held in another form that
/// finishes the root as this module does (the Python package's plain path).
#[doc(hidden)]
pub fn allows_empty_required(uri: &str) -> bool {
    Draft::named(uri).allows_empty_required()
}

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
/// root is not an object schema, a keyword is malformed, a type name is no JSON type, a reference
/// cannot be followed (or would resolve against a nested `$id`, or is dynamic), a recursion point
/// has no type, or a budget would be passed.
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

/// How the general path builds its output: in one walk first, in every build. Built entry by
/// entry ([`Engine::construct`]), each map of subschemas keeps the input's order where maps keep
/// insertion order (serde_json's `preserve_order`), as the plain path's copy does: a schema's
/// `properties` come out in the order they were written (every other keyword in key order).
fn builder() -> Builder {
    Builder::OneWalk
}

/// How the general path builds its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Builder {
    /// [`Engine::build`] on a copy of the root (what [`Builder::OneWalk`] falls back to with
    /// `preserve_order`; alone only in tests).
    #[cfg(test)]
    Copy,
    /// [`Engine::construct`], after the four steps' checks (what [`Builder::OneWalk`] falls
    /// back to; alone only in tests).
    #[cfg(test)]
    Construct,
    /// [`build_in_one_walk`] first; where it cannot vouch, the four steps, building as
    /// `Construct` does, or with `preserve_order` as `Copy` does (see [`build_general`]).
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
    Survey { bound, rewrite, rename }: Survey,
    tool_name: &str,
    options: &SelfContainedOptions,
) -> Result<(Value, Option<u64>), Error> {
    // The survey has bounded the subschema depth, and every other value's nesting: the
    // (recursive) clone is safe.
    if !rewrite {
        // The output is the input as `finish` leaves it, its foreign type names renamed.
        let mut out = schema.clone();
        if rename {
            rename_in_place(&mut out);
        }
        return Ok((out, Some(bound.saturating_add(FINISH_GROWTH))));
    }
    // A rewrite may change the root's `type` (an optional root's `null` dropped): as on the
    // general path, the type as written is checked first.
    check_root_type(schema.get("type"), tool_name)?;
    let mut out = schema.clone();
    rewrite_in_place(&mut out, Ctx::Optional, Around::NONE, &Trail::Root, 0, tool_name, options)?;
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
    check_root_type(root_type_as_read(schema), tool_name)?;
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
    // Discovery bounded the subschema depth; a `const` or `default` may still nest without limit,
    // and serde_json's clone recurses. Where discovery met no such value, only a root definition
    // no reference reaches can hold one.
    if inliner.deep {
        nesting_within(schema, tool_name, options)?;
    } else {
        inliner.definitions_nesting_within()?;
    }
    // Where the one walk could not vouch, with `preserve_order` the copy is rewritten: it keeps
    // each map's order and reads the input in key order, as discovery does.
    let copy = match builder {
        Builder::OneWalk => crate::vocab::map_order::map_preserves_order(),
        #[cfg(test)]
        Builder::Copy => true,
        #[cfg(test)]
        Builder::Construct => false,
    };
    let out = inliner.build_output(copy)?;
    Ok((out, bound))
}

/// The root's `type` as the input's draft reads it: none where the root holds a `$ref` under a
/// draft that ignores the reference's siblings (the output's root is then the target's, which
/// [`finish`] checks).
fn root_type_as_read(schema: &Value) -> Option<&Value> {
    match schema.get("$ref") {
        Some(_) if Draft::of(schema).ref_ignores_siblings() => None,
        _ => schema.get("type"),
    }
}

/// The most schema objects [`build_in_one_walk`] builds before it leaves the schema to the four
/// steps: three times the largest output of a real schema in the corpus (162 objects, a
/// 60-property pydantic model), and small enough that an exponential expansion costs little
/// before discovery and the measure refuse it (`dag_doubling_40`: at 4096 this wasted 1.1 ms and
/// 2 MiB on building and dropping; the target for a hostile input is under 1 ms).
const ONE_WALK_OBJECTS: u64 = 512;

/// The general path's output in one walk, for the common case: [`Engine::construct`] from the
/// root making discovery's checks on each node as it goes, then
/// [`Engine::definitions_nesting_within`], [`finish`] and the size check: against
/// [`Engine::built_bound`] (each object's [`Keys::sized`] bound plus [`OBJECT_SLACK`], added up
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
    let built = inliner.construct(schema, Ctx::Optional, Around::NONE, &Trail::Root, 0).ok()?;
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
