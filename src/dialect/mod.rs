//! Dialects: what a provider accepts in a schema, and how a schema is adapted to it.
//!
//! A dialect has a [name](SchemaDialect::name), a set of
//! [forbidden keywords](SchemaDialect::forbidden_keywords) and an [`adapt`](SchemaDialect::adapt)
//! step. [`apply`] runs `adapt`, then scans every schema position of the result for forbidden
//! keywords and reports each hit as a [`CapabilityError`] naming the dialect, the keyword and the
//! JSON pointer. A dialect may restructure or tighten a schema; it never loosens it, and what it
//! cannot express is an error when the schema is built, not a rewrite the provider would accept and the
//! code would not.
//!
//! Nothing about the built-in dialects is privileged: any type can implement [`SchemaDialect`].
//!
//! ```
//! use serde_json::{json, Value};
//! use toolschema::{dialect, CapabilityError, SchemaDialect};
//!
//! /// Refuses unions: for a consumer that only reads one type per field.
//! struct NoUnions;
//! impl SchemaDialect for NoUnions {
//!     fn name(&self) -> &str { "no-unions" }
//!     fn forbidden_keywords(&self) -> &[&str] { &["anyOf", "oneOf"] }
//! }
//!
//! let schema = json!({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}});
//! let errors = dialect::apply(&NoUnions, schema, &dialect::AdaptContext::default()).unwrap_err();
//! assert_eq!(errors.as_slice()[0].pointer(), "/properties/a");
//! assert_eq!(errors.as_slice()[0].keyword(), Some("anyOf"));
//! ```

pub mod anthropic_strict;
mod fold;
pub mod gemini;
pub mod gemini_json_schema;
pub mod inline_refs;
pub mod json_schema;
pub mod llguidance;
pub mod mcp;
pub mod openai_agents_mcp;
pub mod openai_strict;
pub mod outlines;
pub(crate) mod provider;
mod ref_sites;
pub mod strict_subset;
pub(crate) mod support;
pub(crate) mod unknown_keywords;
mod unroll;

pub use anthropic_strict::{ANTHROPIC_STRICT, AnthropicStrict};
pub use gemini::{GEMINI, GEMINI_ORDERED, Gemini};
pub use gemini_json_schema::{GEMINI_JSON_SCHEMA, GeminiJsonSchema};
pub use inline_refs::{DEFAULT_MAX_INLINED_BYTES, INLINE_REFS, InlineRefs};
pub use json_schema::{JSON_SCHEMA, JsonSchema};
pub use llguidance::{LLGUIDANCE, Llguidance};
pub use mcp::{MCP, MCP_SELF_CONTAINED, Mcp};
pub use openai_agents_mcp::{OPENAI_AGENTS_MCP, OpenAiAgentsMcp};
pub use openai_strict::{OPENAI_STRICT, OpenAiStrict};
pub use outlines::{OUTLINES, Outlines};
pub use strict_subset::{STRICT_SUBSET, StrictSubset};

use crate::error::{CapabilityError, CapabilityErrors};
use crate::hint::Origin;
use crate::pointer::field_path;
use crate::restore::RestorePlan;
use crate::walk::{Depth, Location};
use serde_json::{Map, Value};
use std::convert::Infallible;

/// What a provider accepts in a schema, and how to adapt a schema to it.
///
/// Implementations must keep one law: the adapted schema accepts no value the input refused, and
/// refuses no value the input accepted, except where a value the type reads as "absent" (null for
/// an `Option`) takes the place of leaving a key out. What cannot be expressed under that law is a
/// [`CapabilityError`].
///
/// A dialect that changes schemas implements [`adapt`](Self::adapt), which returns the schema with
/// its restore plan:
///
/// ```
/// use serde_json::Value;
/// use toolschema::CapabilityError;
/// use toolschema::dialect::{AdaptContext, Adapted, SchemaDialect};
///
/// struct NoTitles;
/// impl SchemaDialect for NoTitles {
///     fn name(&self) -> &str {
///         "no-titles"
///     }
///     fn adapt(&self, mut schema: Value, _: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
///         if let Some(m) = schema.as_object_mut() {
///             m.remove("title");
///         }
///         Ok(Adapted::identity(schema))
///     }
/// }
/// ```
///
/// There is no second method to implement instead: an `adapt` that returns the schema alone does
/// not compile, rather than being silently ignored.
///
/// ```compile_fail
/// use serde_json::Value;
/// use toolschema::CapabilityError;
/// use toolschema::dialect::{AdaptContext, SchemaDialect};
///
/// struct NoTitles;
/// impl SchemaDialect for NoTitles {
///     fn name(&self) -> &str {
///         "no-titles"
///     }
///     fn adapt(&self, schema: Value, _: &AdaptContext<'_>) -> Result<Value, Vec<CapabilityError>> {
///         Ok(schema)
///     }
/// }
/// ```
pub trait SchemaDialect: Send + Sync {
    /// The dialect's name, as errors print it and the CLI accepts it (`openai-strict`). It is part
    /// of [`ToolSchema::hash`](crate::ToolSchema::hash), so two dialects give two hashes even when
    /// their `adapt` is the identity.
    fn name(&self) -> &str;

    /// Keywords that must not appear in any schema position after [`adapt`](Self::adapt).
    fn forbidden_keywords(&self) -> &[&str] {
        &[]
    }

    /// Restructures or tightens `schema` for this dialect, and returns beside it the
    /// [`RestorePlan`] that maps arguments valid under the adapted schema back to arguments valid
    /// under `schema`: the one method a dialect that changes a schema implements (the pipeline
    /// calls it). The default is the identity.
    ///
    /// A dialect that only tightens or restructures without changing the shape of a value
    /// returns [`Adapted::identity`]; the built-in provider dialects encode what their provider
    /// cannot say (a map as a list of entries, a `minimum` moved into restore) and return the
    /// plan that undoes it. The schema alone is the returned [`Adapted::schema`].
    ///
    /// # Errors
    /// Every part of the schema the dialect cannot express, each with its pointer.
    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let _ = cx;
        Ok(Adapted::identity(schema))
    }

    /// Whether [`adapt`](Self::adapt) may change the schema. A dialect whose `adapt` is the
    /// identity says `false`; the pipeline then takes its passes' output as final (it is already
    /// normalised and within the depth budget) instead of walking it again, unless
    /// [`forbidden_keywords`](Self::forbidden_keywords) has something to look for. The default is
    /// `true`, which is always correct.
    fn adapts(&self) -> bool {
        true
    }

    /// Whether the output holds only keywords draft 2020-12 defines: the pipeline then leaves
    /// out, after [`adapt`](Self::adapt), every other keyword (`x-…`, OpenAPI's `nullable`),
    /// which a validator that collects unknown keywords reads as an annotation and one in a
    /// strict mode (Ajv2020's default) refuses the schema over; one a `$ref` points into stays,
    /// and so does OpenAPI's `discriminator`, which pydantic reads. `true` for the built-in JSON Schema dialects (`json-schema`,
    /// `strict-subset`, `inline-refs`, `mcp`, `mcp-self-contained`); the default is `false`, which
    /// keeps them as the input had them.
    fn writes_defined_keywords_only(&self) -> bool {
        false
    }

    /// A hint appended to a forbidden-keyword error for `keyword`, such as the Rust shape to use
    /// instead. The default has none.
    fn hint(&self, keyword: &str) -> Option<String> {
        let _ = keyword;
        None
    }

    /// [`hint`](Self::hint) in `origin`'s terms. The default gives `hint` for a Rust type's
    /// schema and nothing otherwise (a hint written for Rust would mislead there).
    fn hint_for(&self, keyword: &str, origin: Origin) -> Option<String> {
        if origin == Origin::Rust { self.hint(keyword) } else { None }
    }
}

/// A schema adapted to a dialect, with the plan that restores arguments given under it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Adapted {
    /// The schema the provider is told.
    pub schema: Value,
    /// Maps arguments valid under [`schema`](Self::schema) back to arguments the original accepts.
    pub plan: RestorePlan,
}

impl Adapted {
    /// `schema` with the plan that changes nothing: what a dialect returns that only tightens or
    /// restructures a schema without changing the shape of a value.
    pub fn identity(schema: Value) -> Self {
        Adapted { schema, plan: RestorePlan::identity() }
    }
}

impl std::fmt::Debug for dyn SchemaDialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SchemaDialect({:?})", self.name())
    }
}

/// What a dialect's `adapt` may need to know besides the schema.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct AdaptContext<'a> {
    /// The depth budget every walk must respect (levels of subschemas).
    pub max_depth: usize,
    /// The Rust type's name, when the schema came from one; errors use it for field paths.
    pub type_name: Option<&'a str>,
    /// The caller's size budget in canonical bytes ([`SchemaOptions::max_bytes`]), if any. A
    /// dialect that expands the schema (inlining `$ref`) checks its expanded size against it
    /// *before* building anything, and against [`DEFAULT_MAX_INLINED_BYTES`] when it is `None`.
    ///
    /// [`SchemaOptions::max_bytes`]: crate::SchemaOptions::max_bytes
    pub max_bytes: Option<usize>,
    /// Whether `properties` maps are in declaration order
    /// ([`PropertyOrder::Declaration`](crate::PropertyOrder)); otherwise they are sorted, and a
    /// dialect that writes the order down (`propertyOrdering`) writes it sorted.
    pub declaration_order: bool,
    /// Exact mode: refuse anything restore would have to undo (a map written as entries, an
    /// assertion moved into restore), as a [`CapabilityError`] with the Rust shape to use. The
    /// default (`false`) is reversible: such rewrites are made, and the [`RestorePlan`] undoes
    /// them.
    pub exact: bool,
    /// The language of the advice in errors ([`Origin`]): [`AdaptContext::new`] takes Rust
    /// when it is given a type name, the default is JSON Schema terms.
    pub origin: Origin,
    /// For a provider that cannot take recursion (`anthropic-strict`, `gemini`,
    /// `gemini-ordered`, `openai-agents-mcp`, and a cycle through required properties under
    /// `gemini-json-schema`): how many levels a recursive definition is unrolled past its first
    /// appearance on a path, before the rest is sent as JSON text that restore checks against
    /// the original ([`DEFAULT_RECURSION_DEPTH`] by default). Exact mode refuses recursion
    /// there instead.
    pub recursion_depth: usize,
}

/// The default of [`AdaptContext::recursion_depth`]: a recursive definition and two levels of
/// itself (a tree's root, its children and grandchildren), then JSON text.
pub const DEFAULT_RECURSION_DEPTH: usize = 2;

impl Default for AdaptContext<'_> {
    fn default() -> Self {
        AdaptContext {
            max_depth: Depth::DEFAULT_MAX,
            type_name: None,
            max_bytes: None,
            declaration_order: false,
            exact: false,
            origin: Origin::JsonSchema,
            recursion_depth: DEFAULT_RECURSION_DEPTH,
        }
    }
}

impl<'a> AdaptContext<'a> {
    /// A context with the given depth budget and type name, and no size budget.
    pub fn new(max_depth: usize, type_name: Option<&'a str>) -> Self {
        let origin = if type_name.is_some() { Origin::Rust } else { Origin::JsonSchema };
        AdaptContext {
            max_depth,
            type_name,
            max_bytes: None,
            declaration_order: false,
            exact: false,
            origin,
            recursion_depth: DEFAULT_RECURSION_DEPTH,
        }
    }

    /// The same context with advice in `origin`'s terms: see [`AdaptContext::origin`].
    #[must_use]
    pub fn with_origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// The same context in exact mode (or not): see [`AdaptContext::exact`].
    #[must_use]
    pub fn with_exact(mut self, exact: bool) -> Self {
        self.exact = exact;
        self
    }

    /// The same context with `properties` in declaration order (or not).
    #[must_use]
    pub fn with_declaration_order(mut self, declaration_order: bool) -> Self {
        self.declaration_order = declaration_order;
        self
    }

    /// The same context with another recursion depth: see [`AdaptContext::recursion_depth`].
    #[must_use]
    pub fn with_recursion_depth(mut self, levels: usize) -> Self {
        self.recursion_depth = levels;
        self
    }

    /// The same context with a size budget in canonical bytes.
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: Option<usize>) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The Rust field path for a pointer, where the type is known.
    pub fn field(&self, pointer: &str) -> Option<String> {
        self.type_name.and_then(|t| field_path(Some(t), pointer))
    }
}

/// Runs `dialect`'s `adapt`, then checks the result for forbidden keywords in every schema position.
///
/// The schema only: for a provider dialect in reversible mode (the default), arguments under it
/// need the plan [`adapt`] returns beside it.
///
/// # Errors
/// All errors `adapt` reported, or, if it succeeded, every forbidden keyword found, in pointer
/// order; each carries the Rust field path when `cx` names the type.
pub fn apply(
    dialect: &dyn SchemaDialect,
    schema: Value,
    cx: &AdaptContext<'_>,
) -> Result<Value, CapabilityErrors> {
    adapt(dialect, schema, cx).map(|a| a.schema)
}

/// Runs `dialect`'s [`adapt`](SchemaDialect::adapt), then checks the result
/// for forbidden keywords in every schema position: the schema a provider is told, and the
/// [`RestorePlan`] that maps a model's arguments back. Needs serde_json alone.
///
/// `schema` should be normalised (the pipeline's output, e.g. from
/// [`SchemaOptions::normalize`](crate::SchemaOptions::normalize) under the `json-schema`
/// dialect); a schema from anywhere else works too, as long as it is well formed.
///
/// ```
/// use serde_json::json;
/// use toolschema::dialect::{self, AdaptContext, OPENAI_STRICT};
/// let schema = json!({"type": "object", "properties": {"tags": {"type": "object", "additionalProperties": {"type": "integer"}}}});
/// let adapted = dialect::adapt(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
/// assert_eq!(adapted.schema["properties"]["tags"]["type"], json!(["array", "null"]));
/// let args = json!({"tags": [{"key": "a", "value": 1}]});
/// assert_eq!(adapted.plan.restore(args).unwrap(), json!({"tags": {"a": 1}}));
/// ```
///
/// # Errors
/// As [`apply`].
pub fn adapt(
    dialect: &dyn SchemaDialect,
    schema: Value,
    cx: &AdaptContext<'_>,
) -> Result<Adapted, CapabilityErrors> {
    let checked = adapt_checked(dialect, schema, cx, false, &mut |_, _| Ok::<(), Infallible>(()))?;
    Ok(checked.unwrap_or_else(|never| match never {}))
}

/// What [`adapt_checked`] also runs at each schema object.
pub(crate) type AlsoAt<'f, E> = dyn FnMut(&mut Map<String, Value>, &Location<'_>) -> Result<(), E> + 'f;

/// [`adapt`], with `also` run at every schema object of the adapted schema during the walk that
/// looks for forbidden keywords (the pipeline sorts `required` lists there). An error from `also`
/// is returned only when the dialect reports none: the walk goes on without calling `also` again,
/// so every forbidden keyword is still found. With `normalised` (the pipeline's own output, within
/// the depth budget and with `also` already applied), a dialect that neither
/// [`adapts`](SchemaDialect::adapts) nor forbids anything returns it without a walk.
pub(crate) fn adapt_checked<E>(
    dialect: &dyn SchemaDialect,
    schema: Value,
    cx: &AdaptContext<'_>,
    normalised: bool,
    also: &mut AlsoAt<'_, E>,
) -> Result<Result<Adapted, E>, CapabilityErrors> {
    let fill = |errors: Vec<CapabilityError>| {
        let mut errors: Vec<CapabilityError> =
            errors.into_iter().map(|e| e.with_field(cx.type_name)).collect();
        errors.sort_by(|a, b| a.pointer().cmp(b.pointer()));
        CapabilityErrors::from_vec(errors)
    };
    let Adapted { schema: mut adapted, plan } = match dialect.adapt(schema, cx) {
        Ok(v) => v,
        Err(errors) => {
            return Err(fill(errors).unwrap_or_else(|| internal_error(dialect)));
        }
    };
    if normalised && !dialect.adapts() && dialect.forbidden_keywords().is_empty() {
        return Ok(Ok(Adapted { schema: adapted, plan }));
    }
    let mut errors = Vec::new();
    let mut failed = None;
    let walked = crate::walk::visit_objects_mut(
        &mut adapted,
        cx.max_depth,
        &mut |at, node| {
            find_forbidden(dialect, node, at, cx.origin, &mut errors);
            if failed.is_none() {
                failed = also(node, at).err();
            }
            Ok(())
        },
        &|pointer| pointer,
    );
    if let Err(pointer) = walked {
        errors.push(too_deep(dialect, cx.max_depth, pointer));
    }
    match (fill(errors), failed) {
        (Some(errors), _) => Err(errors),
        (None, Some(e)) => Ok(Err(e)),
        (None, None) => Ok(Ok(Adapted { schema: adapted, plan })),
    }
}

fn internal_error(dialect: &dyn SchemaDialect) -> CapabilityErrors {
    // `adapt` returned `Err(vec![])`: report it rather than pass the schema through unchecked.
    CapabilityErrors::from_vec(vec![CapabilityError::Unsupported {
        dialect: dialect.name().to_owned(),
        keyword: "adapt".into(),
        pointer: String::new(),
        field: None,
        reason: "the dialect failed without saying why".into(),
        hint: None,
    }])
    .unwrap_or_else(|| unreachable!("one error"))
}

/// Every forbidden keyword in every schema position of `schema`, and a depth error if the schema
/// nests past `max_depth`.
pub fn forbidden_keyword_errors(
    dialect: &dyn SchemaDialect,
    schema: &Value,
    max_depth: usize,
) -> Vec<CapabilityError> {
    let mut errors = Vec::new();
    let walked = crate::walk::visit_objects(schema, max_depth, &mut |at, node| {
        find_forbidden(dialect, node, at, Origin::Rust, &mut errors);
    });
    if let Err(pointer) = walked {
        errors.push(too_deep(dialect, max_depth, pointer));
    }
    errors
}

/// The forbidden keywords of one schema object.
fn find_forbidden(
    dialect: &dyn SchemaDialect,
    node: &Map<String, Value>,
    at: &Location<'_>,
    origin: Origin,
    errors: &mut Vec<CapabilityError>,
) {
    let forbidden = dialect.forbidden_keywords();
    if forbidden.is_empty() {
        return;
    }
    // A node holds a handful of keys: looking each up in the list (a length comparison per entry,
    // bytes compared only on equal lengths) costs less than a map search per forbidden keyword.
    if !node.keys().any(|k| forbidden.contains(&k.as_str())) {
        return;
    }
    for &kw in forbidden {
        if node.contains_key(kw) {
            errors.push(CapabilityError::ForbiddenKeyword {
                dialect: dialect.name().to_owned(),
                keyword: kw.to_owned(),
                pointer: at.pointer().as_str().to_owned(),
                field: None,
                hint: dialect.hint_for(kw, origin),
            });
        }
    }
}

fn too_deep(dialect: &dyn SchemaDialect, max_depth: usize, pointer: String) -> CapabilityError {
    CapabilityError::TooDeep { dialect: dialect.name().to_owned(), depth: max_depth + 1, max_depth, pointer }
}

/// Every built-in dialect, for choosing one by name at run time.
pub fn builtin() -> &'static [&'static dyn SchemaDialect] {
    static BUILTIN: &[&dyn SchemaDialect] = &[
        &JSON_SCHEMA,
        &STRICT_SUBSET,
        &INLINE_REFS,
        &OPENAI_STRICT,
        &OPENAI_AGENTS_MCP,
        &ANTHROPIC_STRICT,
        &GEMINI,
        &GEMINI_ORDERED,
        &GEMINI_JSON_SCHEMA,
        &LLGUIDANCE,
        &OUTLINES,
        &MCP,
        &MCP_SELF_CONTAINED,
    ];
    BUILTIN
}

/// The built-in dialect with this [name](SchemaDialect::name).
pub fn by_name(name: &str) -> Option<&'static dyn SchemaDialect> {
    builtin().iter().copied().find(|d| d.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    struct NoUnions;
    impl SchemaDialect for NoUnions {
        fn name(&self) -> &str {
            "no-unions"
        }
        fn forbidden_keywords(&self) -> &[&str] {
            &["anyOf"]
        }
        fn hint(&self, _keyword: &str) -> Option<String> {
            Some("use one type".into())
        }
    }

    #[test]
    fn every_forbidden_keyword_is_reported_with_its_pointer() {
        let s = json!({
            "anyOf": [{"type": "string"}],
            "properties": {"a": {"anyOf": []}, "b": {"items": {"anyOf": []}}},
            "$defs": {"X": {"anyOf": []}},
            "default": {"anyOf": []}
        });
        let errs = apply(&NoUnions, s, &AdaptContext::new(128, Some("T"))).unwrap_err();
        let ptrs: Vec<_> = errs.as_slice().iter().map(|e| e.pointer().to_owned()).collect();
        assert_eq!(ptrs, ["", "/$defs/X", "/properties/a", "/properties/b/items"]);
        assert_eq!(errs.as_slice()[3].field(), Some("T.b[]"));
        assert!(errs.to_string().contains("use one type"), "{errs}");
    }

    #[test]
    fn identity_dialect_passes_schema_through() {
        let s = json!({"type": "object"});
        assert_eq!(apply(&JSON_SCHEMA, s.clone(), &AdaptContext::default()).unwrap(), s);
        assert_eq!(by_name("json-schema").map(SchemaDialect::name), Some("json-schema"));
    }
}
