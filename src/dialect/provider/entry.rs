//! The entry: a schema's references prepared as the profile takes them, the engine built over
//! it and run, its errors in one order whatever the input's key order.

use super::presence::moved_presence;
use super::{Engine, Profile, Refs, Style};
use crate::dialect::{AdaptContext, Adapted, InlineRefs, inline_refs, ref_sites, unroll};
use crate::error::CapabilityError;
use crate::restore::rewrite::schema_text;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Adapts `schema` (normalised by the pipeline) to `profile`.
pub(crate) fn adapt(
    profile: &Profile,
    schema: Value,
    cx: &AdaptContext<'_>,
) -> Result<Adapted, Vec<CapabilityError>> {
    adapt_within(profile, schema, cx, Limits::default())
}

/// What [`adapt_within`] cuts into JSON text besides what the profile refuses.
#[derive(Default, Clone, Copy)]
pub(crate) struct Limits {
    /// Every cycle of references unrolled, even where the profile keeps recursion: for a provider
    /// that takes some cycles and not others (Gemini's JSON Schema fields, a cycle through
    /// required properties).
    pub(crate) unroll: bool,
    /// Objects nested past this many levels (objects as the function says), counted once the
    /// recursion is unrolled where the profile unrolls it: OpenAI's limit.
    pub(crate) object_nesting: Option<(usize, IsObject)>,
}

/// Whether an object schema counts as a level of nesting, in a provider's count.
pub(crate) type IsObject = fn(&Map<String, Value>) -> bool;

/// [`adapt`], with the parts past `limits` written as JSON text (reversible mode only).
pub(crate) fn adapt_within(
    profile: &Profile,
    schema: Value,
    cx: &AdaptContext<'_>,
    limits: Limits,
) -> Result<Adapted, Vec<CapabilityError>> {
    let mut errors = Vec::new();
    let (schema, original) = prepare_refs(profile, schema, cx, limits, &mut errors)?;
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut engine = Engine {
        p: profile,
        original,
        exact: cx.exact,
        origin: cx.origin,
        max_depth: cx.max_depth,
        root: &schema,
        nodes: Vec::new(),
        slots: HashMap::new(),
        names: BTreeSet::new(),
        work: Vec::new(),
        merging: Vec::new(),
        merged_slots: HashMap::new(),
        merged_work: Vec::new(),
        defs: Vec::new(),
        unions: Vec::new(),
        errors,
        adaptations: Vec::new(),
        wrapped: needs_wrap(&schema, profile.style),
        root_def: None,
        alternatives: BTreeSet::new(),
        renamed: Vec::new(),
        text_plans: HashMap::new(),
        root_name: cx
            .type_name
            .map_or_else(|| "Root".to_owned(), |t| t.rsplit("::").next().unwrap_or(t).to_owned()),
    };
    let out = engine.run();
    if engine.errors.is_empty() {
        Ok(out)
    } else {
        // In one order whatever the input's key order: by pointer, then keyword, then message.
        let mut errors = engine.errors;
        errors.sort_by(|a, b| {
            (a.pointer(), a.keyword(), a.to_string()).cmp(&(b.pointer(), b.keyword(), b.to_string()))
        });
        errors.dedup();
        Err(errors)
    }
}

/// References prepared for the walk, as the profile takes them: kept (a `$ref` site's assertions
/// merged into its target, recursion unrolled where the provider refuses it or `limits` asks,
/// objects nested past the provider's limit cut) or every one inlined. The schema, and the one
/// before it was unrolled or cut where it was (what the JSON text at a cut is checked against);
/// what cannot be prepared is in `errors`, or the error where nothing more can be said.
fn prepare_refs(
    profile: &Profile,
    schema: Value,
    cx: &AdaptContext<'_>,
    limits: Limits,
    errors: &mut Vec<CapabilityError>,
) -> Result<(Value, Option<Arc<Value>>), Vec<CapabilityError>> {
    let unroll = limits.unroll;
    let mut original = None;
    let schema = match profile.refs {
        Refs::Keep { recursion } => {
            let mut schema =
                ref_sites::rewrite_ref_sites(profile.name, schema, cx.max_depth, cx.origin, errors);
            if (!recursion || unroll) && !cx.exact && errors.is_empty() {
                // Past the depth the caller set, the recursion is JSON text (`schema_text`).
                let unrolled = unroll::unroll(profile.name, schema, cx, errors);
                schema = unrolled.schema;
                original = unrolled.original;
            } else if !recursion
                && let Some((type_name, pointer)) =
                    ref_sites::find_recursion(&schema, cx.max_depth, cx.type_name)
            {
                errors.push(CapabilityError::Recursive { dialect: profile.name.into(), type_name, pointer });
            }
            if let Some((levels, is_object)) = limits.object_nesting
                && !cx.exact
                && errors.is_empty()
            {
                // After an unroll, the unrolled schema is cut: its cuts' places are in it, and the
                // recursion's cuts in it are marks, which the text's check must read as the
                // references they stand for (the unrolled schema so read means what the original
                // means, its definitions the original's).
                let unrolled = original.is_some();
                let cut = unroll::cut_nesting(profile.name, schema, cx, levels, is_object, errors);
                schema = cut.schema;
                match cut.original {
                    Some(doc) if unrolled => match schema_text::unmarked(&doc, cx.max_depth) {
                        Some(doc) => original = Some(Arc::new(doc)),
                        None => errors.push(CapabilityError::TooDeep {
                            dialect: profile.name.into(),
                            depth: cx.max_depth + 1,
                            max_depth: cx.max_depth,
                            pointer: String::new(),
                        }),
                    },
                    Some(doc) => original = Some(doc),
                    None => {}
                }
            }
            schema
        }
        Refs::Inline => {
            let mut schema = schema;
            if !cx.exact {
                let unrolled = unroll::unroll(profile.name, schema, cx, errors);
                schema = unrolled.schema;
                original = unrolled.original;
                if !errors.is_empty() {
                    return Err(std::mem::take(errors));
                }
            }
            inline_refs::inline_all(
                profile.name,
                schema,
                cx,
                InlineRefs::DEFAULT_MAX_DEPTH.min(cx.max_depth),
            )?
        }
    };
    Ok((schema, original))
}

/// Whether the root is not a plain object schema, so that it must be wrapped as `{"value": ...}`.
fn needs_wrap(root: &Value, style: Style) -> bool {
    let Value::Object(m) = root else { return true };
    if moved_presence(m, style).is_some() {
        // Its `anyOf` becomes a restore check: an object stays.
        return false;
    }
    let object = match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(_) => false,
        None => m.contains_key("properties") && !m.contains_key("$ref"),
    };
    let no_props = m.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty);
    let map = no_props
        && (matches!(m.get("additionalProperties"), Some(Value::Object(_)))
            || m.contains_key("patternProperties"));
    // `additionalProperties: true` said outright is a map of further keys the reader takes, as
    // beside named properties; with none, every object is closed in these providers' terms, so
    // the root is wrapped and its value sent as JSON text, as the same object is below the root
    // (left out, it is a tool without arguments, closed exactly).
    let open = style == Style::NullType
        && no_props
        && m.get("additionalProperties") == Some(&Value::Bool(true))
        && !m.contains_key("patternProperties")
        && m.get("required").and_then(Value::as_array).is_none_or(Vec::is_empty)
        && m.get("maxProperties").and_then(Value::as_u64) != Some(0);
    !object || map || open || ["anyOf", "oneOf"].iter().any(|k| m.contains_key(*k))
}
