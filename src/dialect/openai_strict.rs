//! `OPENAI_STRICT`: OpenAI Structured Outputs and function tools with `strict: true`.
//!
//! The rules, with their sources:
//! - the root is `type: "object"` and not `anyOf` ([OAI-SO] "Root objects must not be `anyOf` and
//!   must be an object");
//! - `additionalProperties: false` on every object ([OAI-SO]; [OAI-FC] "must be set to false for
//!   each object");
//! - every property listed in `required` ([OAI-SO] "All fields must be `required`"; optional fields
//!   are emulated with a `null` union);
//! - no `oneOf` (observed 400 "'oneOf' is not permitted"), no `allOf`, `not`, `if`/`then`/`else`,
//!   `dependent*` ([OAI-SO] "Composition");
//! - no `$ref` with sibling keywords (observed 400 "$ref cannot have keywords {'description'}",
//!   defog-ai/defog#244);
//! - no `default` (observed 400 "'default' is not permitted");
//! - `format` only `date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid` ([OAI-SO]);
//! - no `minLength`/`maxLength` (observed "maxLength is not permitted", jina-ai/node-DeepResearch#79),
//!   no `uniqueItems`, `contains`, `propertyNames`, `patternProperties`, `unevaluated*`,
//!   `min/maxProperties`, `prefixItems` (unconfirmed: refused, failing closed);
//! - `minimum`/`maximum`/`exclusive*`/`multipleOf`, `minItems`/`maxItems`, `pattern`, `enum`,
//!   `const`, `$defs` and recursion are supported ([OAI-SO]);
//! - every schema node has a `type`, `anyOf` or `$ref` (observed "schema must have a 'type' key");
//! - limits ([OAI-SO]): 5 000 object properties in total, 10 levels of object nesting, 120 000
//!   characters of property names, definition names, enum and const values, 1 000 enum values,
//!   and 15 000 characters for one string enum of more than 250 values.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, OPENAI_STRICT};
//! let schema = json!({
//!     "properties": {
//!         "city": {"type": "string"},
//!         "days": {"type": ["integer", "null"], "minimum": 0, "maximum": 255},
//!         "nights": {"type": "integer", "minimum": 0, "default": 1},
//!         "note": {"type": "string", "maxLength": 64}
//!     },
//!     "required": ["city", "note"], "type": "object"
//! });
//! let adapted = dialect::adapt(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
//! let out = &adapted.schema;
//! assert_eq!(out["required"], json!(["city", "days", "nights", "note"]));
//! assert_eq!(out["additionalProperties"], false);
//! // `#[serde(default)] nights: u32`: null stands for absent, and restore drops it.
//! assert_eq!(out["properties"]["nights"]["type"], json!(["integer", "null"]));
//! assert_eq!(out["properties"]["note"]["description"], "Constraints: at most 64 characters.");
//! let args = json!({"city": "Oslo", "days": null, "nights": null, "note": "ok"});
//! assert_eq!(adapted.plan.restore(args).unwrap(), json!({"city": "Oslo", "note": "ok"}));
//! ```
//!
//! # How it works
//! The provider engine (`src/dialect/provider/`) with this profile:
//! - **kept** (OpenAI enforces them): `type`, `properties`, `required`, `additionalProperties:
//!   false`, `items`, `anyOf`, `enum`, `const`, `$defs`/`$ref` (recursion included), `pattern`,
//!   `format` in the list above, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`,
//!   `multipleOf`, `minItems`, `maxItems` [OAI-SO]; annotations `description`, `title`;
//! - **required**: every property. An optional one whose schema accepts null (`Option<T>`) is
//!   added to `required` as it is, null standing for absent (restore drops the key, unless a
//!   default other than null is declared: then null is a value, and the default is stated in the
//!   description); one that does not (`#[serde(default)] n: u32`) gets null added and restore
//!   drops it, so serde applies the default;
//! - **moved into restore** (stated in the description, checked on restore): `minLength`,
//!   `maxLength`, `uniqueItems`, `minProperties`, `maxProperties`, `dependentRequired`;
//! - **encoded**: maps as lists of `{"key", "value"}` entries, free-form objects and untyped
//!   values as JSON text, tuples as objects with keys `"0"`, `"1"`, ..., a root that is not an
//!   object as `{"value": ...}`;
//! - **inlined**: every definition, where none refers back to itself and the expansion stays
//!   within four times the size (openai-agents refuses any `$ref` in an MCP server's tool: "JSON
//!   schema contains a reference whose target was not validated for strict mode"); recursive
//!   schemas keep `$defs`;
//! - `oneOf` as `anyOf` where the branches are provably disjoint (serde's enum encodings),
//!   `allOf` merged where that is exact, a `$ref` with a description as a one-branch `anyOf`;
//! - **dropped**: `default` (refused by OpenAI; stated in the description where restore relies
//!   on it), `examples`, `deprecated`, `readOnly`, `writeOnly`, `$comment`, `x-*`, other formats
//!   (an integer format first becomes the bounds it implies);
//! - **cut**: objects past the 10 levels of nesting (reversible mode): sent as JSON text that
//!   restore checks against their place in the original (`restore/rewrite/schema_text.rs`);
//! - **folded** past a total (5,000 properties, 120,000 characters, 1,000 enum values, counted
//!   on the output): the last declared root properties that add to it, as few as bring it within,
//!   written as one property holding their JSON text (`dialect/fold.rs`,
//!   `restore/rewrite/fold.rs`);
//! - **refused**: `not`, `if`/`then`/`else`, `contains`, `dependentSchemas`, overlapping `oneOf`,
//!   one string enum past its characters, a total past its limit where the root cannot be folded,
//!   and every limit in exact mode.

use super::provider::{self, Enums, Profile, Refs, Style};
use super::support::{names_type, sort_errors};
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::hint::{Advice, Origin};
use serde_json::Value;

/// OpenAI strict mode (see the module docs). Its name is `openai-strict`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct OpenAiStrict;

/// The [`OpenAiStrict`] dialect.
pub static OPENAI_STRICT: OpenAiStrict = OpenAiStrict;

const NAME: &str = "openai-strict";

/// The `format` values OpenAI accepts ([OAI-SO]).
pub(crate) const FORMATS: &[&str] =
    &["date", "date-time", "duration", "email", "hostname", "ipv4", "ipv6", "time", "uuid"];

/// What the engine never emits for OpenAI (from the third on; the scan after `adapt` makes sure of
/// it), and first the references, which `openai-agents-mcp` forbids too.
pub(super) const FORBIDDEN: &[&str] = &[
    "$defs",
    "$ref",
    "$dynamicRef",
    "allOf",
    "contains",
    "default",
    "definitions",
    "dependentRequired",
    "dependentSchemas",
    "else",
    "if",
    "maxContains",
    "maxLength",
    "maxProperties",
    "minContains",
    "minLength",
    "minProperties",
    "not",
    "oneOf",
    "patternProperties",
    "prefixItems",
    "propertyNames",
    "then",
    "unevaluatedItems",
    "unevaluatedProperties",
    "uniqueItems",
];

/// The limits of [OAI-SO].
const MAX_PROPERTIES: usize = 5_000;
const MAX_OBJECT_NESTING: usize = 10;
const MAX_STRING_TOTAL: usize = 120_000;
const MAX_ENUM_VALUES: usize = 1_000;
/// The limits of the totals a fold brings within them: properties, characters, enum values.
pub(super) const MAX_TOTALS: [usize; 3] = [MAX_PROPERTIES, MAX_STRING_TOTAL, MAX_ENUM_VALUES];
const LARGE_ENUM: usize = 250;
const MAX_LARGE_ENUM_CHARS: usize = 15_000;

/// The engine's parameters for OpenAI strict mode ([OAI-SO] "Supported schemas").
pub(super) static PROFILE: Profile = Profile {
    name: NAME,
    refs: Refs::Keep { recursion: true },
    style: Style::NullType,
    require_all: true,
    keep: &[
        "exclusiveMaximum",
        "exclusiveMinimum",
        "maxItems",
        "maximum",
        "minItems",
        "minimum",
        "multipleOf",
        "pattern",
    ],
    annotations: &["description", "title"],
    formats: FORMATS,
    enums: Enums::Any,
    max_min_items: None,
    pattern_ok: super::support::pattern_is_regular,
    bound_ok: |_, _, _| true,
    lengths_beside_pattern: true,
    maps_beside_properties: true,
    case_insensitive_enums: false,
    check_kept_patterns: false,
    keeps_maps: false,
    keeps_tuples: false,
    absent_for_null: false,
    keys: None,
};

impl SchemaDialect for OpenAiStrict {
    fn name(&self) -> &str {
        NAME
    }

    /// What the engine never emits for OpenAI; the scan after `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        &FORBIDDEN[2..]
    }

    fn hint(&self, keyword: &str) -> Option<String> {
        super::support::strict_hint(keyword)
    }

    fn hint_for(&self, keyword: &str, origin: crate::hint::Origin) -> Option<String> {
        crate::hint::for_keyword(keyword, origin)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        // Past a total, folded (the input kept only where the schema may be past one at all: a
        // copy otherwise costs every call); past the nesting limit, cut.
        let original = (!cx.exact && may_be_past_a_count(&schema, cx.max_depth)).then(|| schema.clone());
        let first =
            adapt_cutting_nesting(&PROFILE, schema, cx, |out| checked(out, cx).map_err(|past| past.0));
        match (first, original) {
            (Err(errors), Some(original)) if errors.iter().all(is_count) => {
                let engine = provider::adapt(&PROFILE, original.clone(), cx)?;
                let counts = |s: &Value| totals(s, cx.max_depth).to_vec();
                super::fold::past_limits(
                    &original,
                    engine,
                    &super::fold::Counts { max: &MAX_TOTALS, count: &counts, through_refs: false },
                    &|s| within_limits(s, cx),
                    &is_count,
                    cx.max_depth,
                )
                .ok_or(errors)
            }
            (first, _) => first,
        }
    }
}

/// `profile`'s adaptation, finished by `finish` (the size limits); where only the nesting limit
/// refuses it (reversible mode), the deepest cut of the objects past it into JSON text
/// (`provider::Limits::object_nesting`) whose finished schema is within every limit.
pub(super) fn adapt_cutting_nesting(
    profile: &Profile,
    schema: Value,
    cx: &AdaptContext<'_>,
    finish: impl Fn(Adapted) -> Result<Adapted, Vec<CapabilityError>>,
) -> Result<Adapted, Vec<CapabilityError>> {
    // A schema whose objects may nest past the limit once written (an encoding adds a level:
    // a map's entries, a tuple, the wrapped root) is kept, to cut the levels past it into JSON
    // text if the provider's schema is past it.
    // A recursion the profile unrolls nests as deep as its copies: kept too.
    let unrolls = matches!(profile.refs, provider::Refs::Keep { recursion: false });
    let deep = !cx.exact
        && (expanded(&schema, cx.max_depth).nesting + 3 > MAX_OBJECT_NESTING
            || unrolls && super::ref_sites::find_recursion(&schema, cx.max_depth, None).is_some());
    let kept = deep.then(|| schema.clone());
    let first = provider::adapt(profile, schema, cx).and_then(&finish);
    let Some(input) = kept else { return first };
    let Err(errors) = &first else { return first };
    if !errors.iter().any(|e| nesting(e).is_some()) {
        return first;
    }
    // Cut at the limit; where the written schema nests deeper than the input (a map's entries,
    // a tuple as an object), once more that many levels higher. No more tries: each costs an
    // adaptation.
    let mut levels = MAX_OBJECT_NESTING;
    for _ in 0..2 {
        let limits = provider::Limits { object_nesting: Some((levels, is_object)), ..Default::default() };
        match provider::adapt_within(profile, input.clone(), cx, limits).and_then(&finish) {
            Ok(out) => return Ok(out),
            Err(errors) => match errors.iter().find_map(nesting) {
                Some(actual)
                    if errors.iter().all(|e| nesting(e).is_some()) && actual > MAX_OBJECT_NESTING =>
                {
                    let over = actual - MAX_OBJECT_NESTING;
                    if over >= levels {
                        break;
                    }
                    levels -= over;
                }
                _ => break,
            },
        }
    }
    first
}

/// Whether an object schema is a level of nesting in [OAI-SO]'s count.
fn is_object(m: &serde_json::Map<String, Value>) -> bool {
    m.get("type").is_some_and(|t| names_type(t, "object"))
}

/// The levels of nesting an error of the nesting limit counts.
fn nesting(e: &CapabilityError) -> Option<usize> {
    match e {
        CapabilityError::LimitExceeded { limit, actual, .. } if limit == "levels of object nesting" => {
            Some(*actual)
        }
        _ => None,
    }
}

/// The schema adapted and its limits checked.
fn within_limits(schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
    checked(provider::adapt(&PROFILE, schema, cx)?, cx).map_err(|past| past.0)
}

/// The engine's output `out` within the limits (its definitions inlined where that keeps it
/// within them), or the limits it is past, with it as it was.
fn checked(out: Adapted, cx: &AdaptContext<'_>) -> Result<Adapted, Box<(Vec<CapabilityError>, Adapted)>> {
    // Within the limits only with its definitions shared: kept as it was.
    let inlined = inline_acyclic(&out.schema, cx).filter(|inlined| {
        let mut over = Vec::new();
        limits(NAME, inlined, cx.max_depth, cx.origin, &mut over);
        over.is_empty()
    });
    if let Some(schema) = inlined {
        return Ok(Adapted { schema, plan: out.plan });
    }
    let mut errors = Vec::new();
    limits(NAME, &out.schema, cx.max_depth, cx.origin, &mut errors);
    if errors.is_empty() {
        Ok(out)
    } else {
        sort_errors(&mut errors);
        Err(Box::new((errors, out)))
    }
}

/// The totals a fold brings within their limits, as their errors name them (with or without
/// "once every `$ref` is inlined").
const COUNTED: [&str; 3] =
    ["object properties in total", "characters of property names, ", "enum values in total"];

/// Whether `e` is one of the totals a fold brings within its limit (not the nesting depth, nor
/// one enum's characters).
pub(super) fn is_count(e: &CapabilityError) -> bool {
    matches!(e, CapabilityError::LimitExceeded { limit, .. } if COUNTED.iter().any(|c| limit.starts_with(c)))
}

/// Whether the output of `schema` may be past a total: at most the properties
/// [`property_bound`](super::fold::property_bound) counts, each the input's or a name of at most
/// 8 characters the encodings write (`key` and `value`, a tuple member's index).
pub(super) fn may_be_past_a_count(schema: &Value, max_depth: usize) -> bool {
    let [_, chars, enums] = totals(schema, max_depth);
    let props = super::fold::property_bound(schema, max_depth);
    props > MAX_PROPERTIES
        || chars.saturating_add(props.saturating_mul(8)) > MAX_STRING_TOTAL
        || enums > MAX_ENUM_VALUES
}

/// How many times its size with shared definitions an inlined schema may be.
const INLINE_GROWTH: u64 = 4;

/// The provider's schema with every definition inlined, when none refers back to itself and the
/// expansion fits the size budget (measured before it is built); `None` otherwise, and then the
/// definitions stay in `$defs` (OpenAI follows references, recursion included).
///
/// The reason: openai-agents, for an MCP server's tools (`ensure_strict_json_schema` with
/// `_reject_open_objects=True`), refuses every `$ref` it finds ("JSON schema contains a reference
/// whose target was not validated for strict mode"). The plan is unchanged: it follows
/// definitions by node, not by the schema's spelling, and an inlined definition means what the
/// reference did.
fn inline_acyclic(schema: &Value, cx: &AdaptContext<'_>) -> Option<Value> {
    let defs = schema.get("$defs").and_then(Value::as_object)?;
    if defs.is_empty() || super::ref_sites::find_recursion(schema, cx.max_depth, None).is_some() {
        return None;
    }
    let depth = super::InlineRefs::DEFAULT_MAX_DEPTH.min(cx.max_depth);
    // At most a few times the schema with shared definitions: a definition graph that doubles at
    // each level keeps its references rather than costing work past a linear bound.
    let budget = crate::inline::size::json_len(schema).saturating_mul(INLINE_GROWTH);
    let budget = usize::try_from(budget).unwrap_or(usize::MAX);
    let cx = AdaptContext { max_bytes: Some(cx.max_bytes.map_or(budget, |m| m.min(budget))), ..cx.clone() };
    super::inline_refs::inline_all(NAME, schema.clone(), &cx, depth).ok()
}

/// The [OAI-SO] size limits, with `dialect` named in their errors.
pub(super) fn limits(
    dialect: &str,
    schema: &Value,
    max_depth: usize,
    origin: Origin,
    errors: &mut Vec<CapabilityError>,
) {
    // The large string enums in the walk that counts the totals: one walk of the output.
    let [props, chars, enum_values] = totals_visiting(schema, max_depth, &mut |at, vs| {
        let str_len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
        let total: usize = vs.iter().map(str_len).sum();
        if vs.len() > LARGE_ENUM && vs.iter().all(Value::is_string) && total > MAX_LARGE_ENUM_CHARS {
            errors.push(limit(
                dialect,
                "characters in one string enum of more than 250 values",
                (total, MAX_LARGE_ENUM_CHARS),
                at.pointer().as_str(),
                Advice::Smaller.text(origin),
            ));
        }
    });
    let totals = [
        ("object properties in total", props, MAX_PROPERTIES),
        ("characters of property names, definition names, enum and const values", chars, MAX_STRING_TOTAL),
        ("enum values in total", enum_values, MAX_ENUM_VALUES),
    ];
    over_limits(dialect, totals, expanded(schema, max_depth).nesting, origin, errors);
}

/// The [OAI-SO] totals of `schema` as it is written (each definition once): object properties,
/// characters of property names, definition names, enum and const values, and enum values.
pub(super) fn totals(schema: &Value, max_depth: usize) -> [usize; 3] {
    totals_visiting(schema, max_depth, &mut |_, _| {})
}

/// [`totals`], showing `on_enum` each `enum` list where it stands, in the same walk.
fn totals_visiting(
    schema: &Value,
    max_depth: usize,
    on_enum: &mut dyn FnMut(&crate::walk::Location<'_>, &[Value]),
) -> [usize; 3] {
    let (mut props, mut chars, mut enum_values) = (0usize, 0usize, 0usize);
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |at, map| {
        if let Some(Value::Object(p)) = map.get("properties") {
            props += p.len();
            chars += p.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        if let Some(Value::Object(d)) = map.get("$defs") {
            chars += d.keys().map(|k| k.chars().count()).sum::<usize>();
        }
        let str_len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
        if let Some(c) = map.get("const") {
            chars += str_len(c);
        }
        if let Some(Value::Array(vs)) = map.get("enum") {
            on_enum(at, vs);
            enum_values += vs.len();
            chars += vs.iter().map(str_len).sum::<usize>();
        }
    });
    [props, chars, enum_values]
}

/// The [OAI-SO] totals through the references, as the schema has them once every definition is
/// inlined (see [`expanded_limits`]).
pub(super) fn expanded_totals(schema: &Value, max_depth: usize) -> [usize; 3] {
    let e = expanded(schema, max_depth);
    [e.properties, e.chars, e.enum_values]
}

/// The errors for the `totals` past their limits (what, actual, limit), and for `nesting` levels
/// of objects.
fn over_limits(
    dialect: &str,
    totals: [(&str, usize, usize); 3],
    nesting: usize,
    origin: Origin,
    errors: &mut Vec<CapabilityError>,
) {
    for (what, actual, max) in totals {
        if actual > max {
            errors.push(limit(dialect, what, (actual, max), "", Advice::Smaller.text(origin)));
        }
    }
    if nesting > MAX_OBJECT_NESTING {
        let count = (nesting, MAX_OBJECT_NESTING);
        errors.push(limit(dialect, "levels of object nesting", count, "", Advice::Flatter.text(origin)));
    }
}

/// The [OAI-SO] totals (properties, characters, enum values) and nesting counted through the
/// references, as the schema has them once every definition is inlined, without building it
/// (memoised per reference target; the caller has refused recursion).
pub(super) fn expanded_limits(
    dialect: &str,
    schema: &Value,
    max_depth: usize,
    origin: Origin,
    errors: &mut Vec<CapabilityError>,
) {
    let e = expanded(schema, max_depth);
    let totals = [
        ("object properties in total once every `$ref` is inlined", e.properties, MAX_PROPERTIES),
        (
            "characters of property names, enum and const values once every `$ref` is inlined",
            e.chars,
            MAX_STRING_TOTAL,
        ),
        ("enum values in total once every `$ref` is inlined", e.enum_values, MAX_ENUM_VALUES),
    ];
    over_limits(dialect, totals, e.nesting, origin, errors);
}

/// What [OAI-SO] counts of a schema with every reference followed (the definitions themselves
/// only through them): totals summed, object nesting the deepest way down.
#[derive(Debug, Clone, Copy, Default)]
struct Expanded {
    properties: usize,
    chars: usize,
    enum_values: usize,
    nesting: usize,
}

impl Expanded {
    /// `self` with `below` under it: totals added, nesting the deeper.
    fn with(self, below: Expanded) -> Expanded {
        Expanded {
            properties: self.properties.saturating_add(below.properties),
            chars: self.chars.saturating_add(below.chars),
            enum_values: self.enum_values.saturating_add(below.enum_values),
            nesting: self.nesting.max(below.nesting),
        }
    }
}

/// [`Expanded`] of `schema`, within `max_depth` levels (past them every count is past any limit).
fn expanded(schema: &Value, max_depth: usize) -> Expanded {
    expanded_memo(schema, schema, &mut Vec::new(), &mut std::collections::HashMap::new(), max_depth)
}

/// [`Expanded`] below `node`, memoised per reference target (by its text, borrowed from the
/// schema), so a definition graph that doubles at every level costs time in proportion to its
/// size, not its expansion's; a reference back into a target being counted adds nothing (a
/// recursive one adds no more nesting).
fn expanded_memo<'v>(
    node: &'v Value,
    root: &'v Value,
    visiting: &mut Vec<&'v str>,
    memo: &mut std::collections::HashMap<&'v str, Expanded>,
    budget: usize,
) -> Expanded {
    let Value::Object(map) = node else { return Expanded::default() };
    if budget == 0 {
        let past = usize::MAX / 2;
        return Expanded { properties: past, chars: past, enum_values: past, nesting: past };
    }
    let str_len = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    let mut own = Expanded::default();
    if let Some(Value::Object(p)) = map.get("properties") {
        own.properties = p.len();
        own.chars = p.keys().map(|k| k.chars().count()).sum::<usize>();
    }
    if let Some(c) = map.get("const") {
        own.chars = own.chars.saturating_add(str_len(c));
    }
    if let Some(Value::Array(vs)) = map.get("enum") {
        own.enum_values = vs.len();
        own.chars = own.chars.saturating_add(vs.iter().map(str_len).sum::<usize>());
    }
    let is_object = map.get("type").is_some_and(|t| names_type(t, "object"));
    let mut below = Expanded::default();
    crate::walk::for_each_child(node, |step, child| {
        if matches!(step.keyword(), "$defs" | "definitions") {
            return;
        }
        below = below.with(expanded_memo(child, root, visiting, memo, budget - 1));
    });
    if let Some(r) = map.get("$ref").and_then(Value::as_str)
        && !visiting.contains(&r)
    {
        let target = match memo.get(r) {
            Some(e) => *e,
            None => match crate::refs::resolve(root, r) {
                Some(target) => {
                    visiting.push(r);
                    let e = expanded_memo(target, root, visiting, memo, budget - 1);
                    visiting.pop();
                    memo.insert(r, e);
                    e
                }
                None => Expanded::default(),
            },
        };
        below = below.with(target);
    }
    let mut out = own.with(below);
    out.nesting = below.nesting.saturating_add(usize::from(is_object));
    out
}

/// A limit past which the schema is, `count` as (actual, max), with the advice for it.
fn limit(dialect: &str, what: &str, count: (usize, usize), pointer: &str, hint: &str) -> CapabilityError {
    CapabilityError::LimitExceeded {
        dialect: dialect.into(),
        limit: what.into(),
        actual: count.0,
        max: count.1,
        pointer: pointer.into(),
        hint: Some(hint.into()),
    }
}

#[cfg(test)]
mod tests;
