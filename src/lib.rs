#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]
// The library's public API is what `pub` says: every other item says `pub(crate)` or less. (Set
// here rather than in Cargo.toml's lints, which would reach the CLI, the tests and the benches,
// whose items no other crate sees.)
#![warn(unreachable_pub)]

// Reading order: the vocabulary every module speaks (it imports nothing of the crate), where
// errors point, how schemas are walked, the pipeline and its passes, the dialects (and the `$ref`
// inliner they share with foreign schemas), then the canonical form and hash, then foreign
// schemas.
mod vocab;

pub mod error;
pub mod hint;
// Internals, public only for the crate's own other targets (the CLI, the Python package, tests,
// benches and fuzz targets, which reach them by path) and hidden from the documentation: not part
// of the public API, and they may change in any release.
#[doc(hidden)]
pub mod pointer;
#[doc(hidden)]
pub mod refs;
#[doc(hidden)]
pub mod walk;

mod pass;
pub mod passes;
pub mod pipeline;

pub mod dialect;
mod inline;

pub mod canonical;
#[cfg(feature = "hash")]
pub mod hash;

pub mod decode;
pub mod diff;
pub mod request_limits;
#[cfg(feature = "hash")]
mod schema;
pub mod tool_name;
#[cfg(feature = "schemars")]
pub mod transform;

pub mod coerce;
pub mod foreign;
pub mod order;
pub mod restore;
#[cfg(feature = "tokens")]
pub mod tokens;

pub use coerce::{Coerced, Coercion, coerce, coerce_and_restore};
pub use decode::{DecodeError, decode_arguments_excluding};
pub use dialect::{
    ANTHROPIC_STRICT, GEMINI, GEMINI_JSON_SCHEMA, GEMINI_ORDERED, INLINE_REFS, JSON_SCHEMA, LLGUIDANCE, MCP,
    MCP_SELF_CONTAINED, OPENAI_AGENTS_MCP, OPENAI_STRICT, OUTLINES, STRICT_SUBSET, SchemaDialect,
};
pub use error::{CapabilityError, CapabilityErrors, Error, SchemaGenerationError};
pub use foreign::{
    ForeignSchemaError, JsonType, SelfContainedOptions, declared_type, self_contained_input_schema,
    self_contained_input_schema_owned, self_contained_input_schema_owned_with,
    self_contained_input_schema_with,
};
#[cfg(feature = "hash")]
pub use hash::{SchemaHash, schema_hash};
pub use hint::Origin;
pub use passes::{DocWarning, DocWarningKind};
pub use restore::{ArgumentsError, RestorePlan};
#[cfg(feature = "schemars")]
pub use schema::{CheckErrors, Tools};
#[cfg(feature = "hash")]
pub use schema::{PropertyOrder, SchemaOptions, ToolSchema, decode_arguments};

// The examples in `docs/` are doc tests too, so they cannot drift from the code.
#[cfg(doctest)]
#[doc = include_str!("../docs/dialects.md")]
#[doc = include_str!("../docs/foreign.md")]
#[doc = include_str!("../docs/integrations.md")]
#[doc = include_str!("../docs/pipeline.md")]
pub struct DocsExamples;

/// The schema of `T` under the default [`SchemaOptions`]: normalised draft 2020-12, `$defs` intact.
///
/// ```
/// #[derive(schemars::JsonSchema, serde::Deserialize)]
/// struct Waypoint {
///     /// Where the traveller stops.
///     city: String,
/// }
/// let s = toolschema::schema_for::<Waypoint>().unwrap();
/// assert_eq!(
///     s.canonical_json(),
///     r#"{"properties":{"city":{"description":"Where the traveller stops.","type":"string"}},"required":["city"],"type":"object"}"#
/// );
/// assert!(s.hash().to_string().starts_with("sha256:"));
/// ```
///
/// # Errors
/// [`Error::Generation`] when the type cannot be described (an untyped `serde_json::Value` where
/// a value is required, nesting past the depth budget); with the default dialect there are no
/// capability errors.
///
/// `T` must be `'static`: the cache is keyed by its `TypeId` (see [`SchemaOptions::schema_for`]).
#[cfg(feature = "schemars")]
pub fn schema_for<T: schemars::JsonSchema + ?Sized + 'static>() -> Result<ToolSchema, Error> {
    static DEFAULT: SchemaOptions = SchemaOptions::new();
    DEFAULT.schema_for::<T>()
}
