//! `INLINE_REFS`: every `$ref` replaced by what it points at, no `$defs` left.
//!
//! For consumers that cannot resolve references: many MCP clients (Copilot CLI, Cursor, Gemini
//! CLI), Gemini's OpenAPI `parameters` (no `$ref` field).
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
//! The crate's one `$ref` inliner (the engine `self_contained_input_schema` runs too) under this
//! dialect's policy:
//!
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
//! result (an annotation overridden at a site is counted twice). Every error points where the
//! result would hold the fault, along the reference sites that lead there.
//!
//! The input is the pipeline's output: 2020-12, its root `$schema` gone, so the keywords beside a
//! `$ref` apply (unlike `self_contained_input_schema`, this dialect does not read a declared
//! draft), and references resolve against the root, as in every pass before it. Titles stay,
//! unions stay as they are, and nothing is checked that the pipeline has checked.

use super::support::{combine_ref_site, is_annotation, unsupported};
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::inline::{Bound, Engine, Fault, Policy, Recursion};
use serde_json::{Map, Value};

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

    fn writes_defined_keywords_only(&self) -> bool {
        true
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &["$ref", "$defs", "definitions", "$dynamicRef", "$recursiveRef"]
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        inline_all(self.name(), schema, cx, self.max_depth.min(cx.max_depth)).map(Adapted::identity)
    }
}

/// Inlines every `$ref` of `schema` for dialect `dialect` (see the module docs).
#[allow(
    clippy::needless_pass_by_value,
    reason = "owned: returned as it is where nothing is inlined, else freed as the inlined copy replaces it"
)]
pub(crate) fn inline_all(
    dialect: &str,
    schema: Value,
    cx: &AdaptContext<'_>,
    max_depth: usize,
) -> Result<Value, Vec<CapabilityError>> {
    let max_bytes = cx.max_bytes.unwrap_or(DEFAULT_MAX_INLINED_BYTES);
    let policy = Inlining { dialect, type_name: cx.type_name, max_depth, max_bytes };
    let mut engine = Engine::with_policy(&schema, policy, max_depth, max_bytes);
    let size = engine.measure_expansion().map_err(|e| vec![*e])?.size;
    if size > max_bytes as u64 {
        return Err(vec![CapabilityError::LimitExceeded {
            dialect: dialect.to_owned(),
            limit: INLINED_BYTES.into(),
            actual: usize::try_from(size).unwrap_or(usize::MAX),
            max: max_bytes,
            pointer: String::new(),
            hint: None,
        }]);
    }
    if !engine.drops {
        // No reference and no definition map anywhere the measure went (everywhere the build
        // would go): the output would be a copy of the input, so the input is it.
        drop(engine);
        return Ok(schema);
    }
    // With `preserve_order`, each map keeps the input's order (`PropertyOrder::Declaration`).
    engine.build_output(crate::vocab::map_order::map_preserves_order()).map_err(|e| vec![*e])
}

/// The inlining dialects' [`Policy`] for the engine: recursion refused, no union collapsed, the
/// input read as the pipeline's 2020-12 output, a site merged with its target where that is
/// exact and side by side in `allOf` otherwise ([`combine_ref_site`]), the measure an upper
/// bound of the canonical size, errors along the reference sites as [`CapabilityError`]s.
struct Inlining<'c> {
    dialect: &'c str,
    type_name: Option<&'c str>,
    max_depth: usize,
    max_bytes: usize,
}

/// What an inlining past `max_bytes` is past.
const INLINED_BYTES: &str =
    "bytes of canonical JSON once every `$ref` is inlined (set `max_bytes` to change the budget)";

impl Policy for Inlining<'_> {
    type Error = Box<CapabilityError>;
    const RECURSION: Recursion = Recursion::Refuse;
    const COLLAPSE_NULL: bool = false;
    const FOREIGN_READING: bool = false;
    const POINT_THROUGH_SITES: bool = true;
    const BOUND: Bound = Bound::Upper;

    /// The target's expansion takes the site's place, at its level.
    fn hop_levels(_: &Map<String, Value>) -> usize {
        0
    }

    fn combine(site: Map<String, Value>, target: Value) -> Value {
        combine_ref_site(site, target)
    }

    /// A site with an assertion of its own may be combined with its target in `allOf`: one
    /// level, and `"allOf":[`, `]`, two commas and the braces of the site's member (14 bytes).
    /// One with annotations only is merged into its target.
    fn combine_growth(site: &Map<String, Value>) -> (usize, u64) {
        let wraps =
            site.keys().any(|k| !is_annotation(k) && !matches!(k.as_str(), "$ref" | "$defs" | "definitions"));
        if wraps { (1, 14) } else { (0, 0) }
    }

    fn fault(&self, fault: Fault) -> Box<CapabilityError> {
        let dialect = self.dialect;
        Box::new(match fault {
            Fault::Recursive { pointer, target } => {
                let type_name = if target.is_empty() {
                    self.type_name.unwrap_or("the root schema").to_owned()
                } else {
                    crate::pointer::tokens(&target)
                        .and_then(|t| t.last().map(ToString::to_string))
                        .unwrap_or(target)
                };
                CapabilityError::Recursive { dialect: dialect.to_owned(), type_name, pointer }
            }
            Fault::TooDeep { pointer, depth } => CapabilityError::TooDeep {
                dialect: dialect.to_owned(),
                depth,
                max_depth: self.max_depth,
                pointer,
            },
            Fault::TooLarge { size } => CapabilityError::LimitExceeded {
                dialect: dialect.to_owned(),
                limit: INLINED_BYTES.into(),
                actual: usize::try_from(size).unwrap_or(usize::MAX),
                max: self.max_bytes,
                pointer: String::new(),
                hint: None,
            },
            Fault::RefNotString { site, .. } => {
                unsupported(dialect, "$ref", &site, "`$ref` is not a string", None)
            }
            Fault::Reference { pointer, reason, .. } => {
                unsupported(dialect, "$ref", &pointer, reason.to_string(), None)
            }
            // The foreign reading's faults, never met under this policy.
            Fault::Malformed { pointer, message } => unsupported(dialect, "$ref", &pointer, message, None),
            Fault::ScopedReference { pointer, reference, id } => unsupported(
                dialect,
                "$ref",
                &pointer,
                format!("reference `{reference}` resolves against the `$id` `{id}`"),
                None,
            ),
            Fault::DynamicReference { pointer, keyword, .. } => {
                unsupported(dialect, keyword, &pointer, "a dynamic reference cannot be inlined", None)
            }
            Fault::UnknownType { pointer, name } => {
                unsupported(dialect, "type", &pointer, format!("`{name}` is no JSON type"), None)
            }
            Fault::UntypedRecursion { pointer, .. } => {
                unsupported(dialect, "$ref", &pointer, "a recursion point has no type", None)
            }
            Fault::NestsTooDeep { pointer, limit } => unsupported(
                dialect,
                "$ref",
                &pointer,
                format!("a value here nests deeper than {limit} levels"),
                None,
            ),
        })
    }

    /// Never made: the dialects build only after the measure.
    fn gave_up() -> Box<CapabilityError> {
        Box::new(unsupported("inline-refs", "$ref", "", "the inliner gave up", None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value) -> Result<Value, Vec<CapabilityError>> {
        INLINE_REFS.adapt(schema, &AdaptContext::new(128, Some("T"))).map(|a| a.schema)
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
