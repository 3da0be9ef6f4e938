//! The pipeline: the ordered list of passes every schema goes through.
//!
//! schemars generates draft 2020-12; then [`PASSES`] run in order, then the chosen
//! dialect (see [`crate::dialect`]) adapts, then object keys are put in one order and the canonical
//! bytes are checked against `max_bytes`. The README's "The pipeline" section mirrors this file.
//!
//! Each pass is one small type in [`crate::passes`], with its tests at the bottom of its file.
//! Every pass walks through [`crate::walk`] with the depth budget, checked before it descends.

use crate::dialect::{self, AdaptContext, SchemaDialect};
use crate::error::{Error, SchemaGenerationError};
use crate::passes::{
    DocWarning, DropTitles, Exclude, MergeDocs, PruneDefs, RejectAny, SortKeys, SortRequired,
};
use serde_json::Value;

/// One normalising step over a whole schema.
pub trait Pass: Sync {
    /// A short name, for the pass list and diagnostics.
    fn name(&self) -> &'static str;

    /// Runs the pass over the whole schema.
    ///
    /// # Errors
    /// What the pass refuses, with a pointer.
    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError>;
}

/// What a pass may read (the options) and write (warnings) besides the schema.
#[derive(Debug)]
#[non_exhaustive]
pub struct PassContext<'a> {
    /// The depth budget, in levels of subschemas.
    pub max_depth: usize,
    /// Root properties to remove (see [`Exclude`]).
    pub exclude: &'a [String],
    /// The Rust type's name, for field paths in errors.
    pub type_name: Option<&'a str>,
    /// Keep `properties` in declaration order instead of sorting them.
    pub declaration_order: bool,
    /// Doc-comment entries that could not be placed (see [`MergeDocs`]).
    pub doc_warnings: Vec<DocWarning>,
}

impl<'a> PassContext<'a> {
    /// A context with the default depth budget and nothing to exclude.
    pub fn new(type_name: Option<&'a str>) -> Self {
        PassContext {
            max_depth: crate::walk::Depth::DEFAULT_MAX,
            exclude: &[],
            type_name,
            declaration_order: false,
            doc_warnings: Vec::new(),
        }
    }

    /// The Rust field path for a pointer.
    pub fn field(&self, pointer: &str) -> Option<String> {
        self.type_name.and_then(|t| crate::pointer::field_path(Some(t), pointer))
    }

    /// The depth error for a pointer where the budget ran out.
    pub fn too_deep(&self, pointer: String) -> SchemaGenerationError {
        SchemaGenerationError::TooDeep { field: self.field(&pointer), pointer, max_depth: self.max_depth }
    }
}

/// The passes, in the order they run. README "The pipeline" mirrors this list.
pub const PASSES: &[&dyn Pass] = &[
    // First: puts every map in one order, so that each later walk (and so the first error a pass
    // reports) is the same whether or not serde_json's `preserve_order` is on. Runs again after the
    // dialect, since passes and `adapt` insert keys.
    &SortKeys,
    // First: reads each type's doc comment exactly as schemars wrote it, before any pass edits a
    // description, and needs every property present (an entry for an excluded field is not a typo).
    &MergeDocs,
    // Order-independent: removes `$schema` and every `title`; nothing later reads them (the type
    // name for error paths was taken before the pipeline started).
    &DropTitles,
    // Before RejectAny: an injected parameter is often untyped (`ctx: serde_json::Value`) and must
    // not fail a schema that will never show it. After MergeDocs (see above).
    &Exclude,
    // After Exclude: a definition only an excluded property used must not reach the model.
    &PruneDefs,
    // After Exclude and PruneDefs, so only what the model will see is judged; after MergeDocs,
    // because a description-only schema is still untyped.
    &RejectAny,
    // After Exclude, which removes names from `required`.
    &SortRequired,
];

/// What the pipeline produced.
#[derive(Debug)]
#[cfg_attr(not(feature = "hash"), allow(dead_code))]
pub(crate) struct Output {
    pub(crate) value: Value,
    pub(crate) canonical: String,
    pub(crate) doc_warnings: Vec<DocWarning>,
}

/// The pipeline's settings.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "hash"), allow(dead_code))]
pub(crate) struct Settings<'a> {
    pub(crate) exclude: &'a [String],
    pub(crate) max_depth: usize,
    pub(crate) max_bytes: Option<usize>,
    pub(crate) declaration_order: bool,
    pub(crate) dialect: &'a dyn SchemaDialect,
    /// Run [`RejectAny`] (see [`SchemaOptions::reject_any`](crate::SchemaOptions::reject_any)).
    pub(crate) reject_any: bool,
}

/// Runs [`PASSES`], the dialect, key ordering and the size check.
#[cfg_attr(not(feature = "hash"), allow(dead_code))]
pub(crate) fn run(
    mut schema: Value,
    type_name: Option<&str>,
    settings: Settings<'_>,
) -> Result<Output, Error> {
    let mut cx = PassContext {
        max_depth: settings.max_depth,
        exclude: settings.exclude,
        type_name,
        declaration_order: settings.declaration_order,
        doc_warnings: Vec::new(),
    };
    for pass in PASSES {
        if !settings.reject_any && pass.name() == RejectAny.name() {
            continue;
        }
        pass.run(&mut schema, &mut cx)?;
    }
    let acx = AdaptContext::new(settings.max_depth, type_name)
        .with_max_bytes(settings.max_bytes)
        .with_declaration_order(settings.declaration_order);
    let mut value = dialect::apply(settings.dialect, schema, &acx)?;
    // A dialect may build `required` lists (merging a `$ref` site with its definition) and insert
    // keys; the output must be as normalised as the input was, or a second run would change it.
    SortRequired.run(&mut value, &mut cx)?;
    SortKeys.run(&mut value, &mut cx)?;
    let canonical = crate::canonical::to_string(&value);
    if let Some(max) = settings.max_bytes
        && canonical.len() > max
    {
        return Err(SchemaGenerationError::TooLarge { actual: canonical.len(), max }.into());
    }
    Ok(Output { value, canonical, doc_warnings: cx.doc_warnings })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends a name to the root's `required`, as a dialect merging a `$ref` site does.
    struct AppendsRequired;
    impl SchemaDialect for AppendsRequired {
        fn name(&self) -> &str {
            "appends-required"
        }
        fn adapt(
            &self,
            mut schema: Value,
            _cx: &AdaptContext<'_>,
        ) -> Result<Value, Vec<crate::error::CapabilityError>> {
            if let Some(Value::Array(required)) = schema.get_mut("required") {
                required.push(Value::String("a".into()));
            }
            Ok(schema)
        }
    }

    // Regression (found by the per-dialect idempotence law with the inline-refs dialect): a
    // `required` list a dialect builds must come out sorted, or a second run changes the output.
    #[test]
    fn a_required_list_a_dialect_builds_comes_out_sorted() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": ["b"]
        });
        let settings = Settings {
            exclude: &[],
            max_depth: 128,
            max_bytes: None,
            declaration_order: false,
            reject_any: true,
            dialect: &AppendsRequired,
        };
        let out = run(schema, None, settings).unwrap();
        assert_eq!(out.value["required"], serde_json::json!(["a", "b"]));
    }

    #[test]
    fn pass_order_is_the_documented_one() {
        let names: Vec<_> = PASSES.iter().map(|p| p.name()).collect();
        assert_eq!(
            names,
            [
                "sort-keys",
                "merge-docs",
                "drop-titles",
                "exclude",
                "prune-defs",
                "reject-any",
                "sort-required",
            ]
        );
    }
}
