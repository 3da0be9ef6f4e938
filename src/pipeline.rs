//! The pipeline: the ordered list of passes every schema goes through.
//!
//! schemars generates draft 2020-12; then [`PASSES`] run in order, then the chosen
//! dialect (see [`crate::dialect`]) adapts, then object keys are put in one order and the canonical
//! bytes are checked against `max_bytes`. The README's "The pipeline" section mirrors this file.
//!
//! Each pass is one small type in [`crate::passes`], with its tests at the bottom of its file.
//! Every pass walks through [`crate::walk`] with the depth budget, checked before it descends.
//!
//! A pass that only ever looks at one schema object at a time is also a node pass; the
//! pipeline runs each run of neighbouring node passes in one walk, each pass at every object in
//! list order, which gives what separate walks would give at a fraction of the cost. The list
//! below is still the order in which passes take effect.
//!
//! A schema goes through the pipeline by [`SchemaOptions`](crate::SchemaOptions); a pass alone,
//! by the crate's `transform` module (feature `schemars`). What a pass is (`Pass`, `NodePass`,
//! `PassContext`, `run_node_passes`) is the crate's own: the CLI runs passes by hand through it,
//! so it stays reachable, hidden from the documentation and outside the public API.

use crate::dialect::{self, AdaptContext, SchemaDialect};
use crate::error::{Error, SchemaGenerationError};
use crate::pass::RefsSeen;
use crate::passes::{
    CheckNesting, CheckRefs, DocWarning, Draft2020, DropEmptyBranches, DropTitles, Exclude, FindTags,
    IntegerBounds, MapKeys, MergeDocs, MergeTags, PruneDefs, RejectAny, SortKeys, SortRequired, WellFormed,
};
use serde_json::Value;

// Hidden: the CLI and the tests reach them; a user runs passes through `SchemaOptions` or
// `transform` (see the module docs).
#[doc(hidden)]
pub use crate::pass::{NodePass, Pass, PassContext, run_node_passes};

/// The passes, in the order they run. README "The pipeline" mirrors this list.
pub const PASSES: &[&dyn Pass] = &[
    // First: puts every map in one order, so that each later walk (and so the first error a pass
    // reports) is the same whether or not serde_json's `preserve_order` is on. Runs again after the
    // dialect, since passes and `adapt` insert keys.
    &SortKeys,
    // Before every pass that reads keywords: every later pass, every dialect and the output read
    // draft 2020-12 only. A schema written in draft-04, -06, -07 or 2019-09 (by its `$schema`, or
    // by forms that mean nothing in 2020-12: `definitions`, `dependencies`, a tuple under `items`,
    // a boolean bound) is rewritten as 2020-12 says the same thing, its references repointed; a
    // declared dialect it does not know is refused. Needs the whole document (a reference may
    // point through a `definitions` anywhere), so not a node pass; after SortKeys, so its first
    // error is the same in every build.
    &Draft2020,
    // Before every pass that reads a union, so that none sees a member that admits no value (the
    // MCP TypeScript SDK's `anyOf: [{"not": {}}, X]`, `false`, an empty `enum`): dropped, the
    // union means the same, and a provider dialect need not refuse the `not` it cannot write.
    // Before WellFormed in the same walk: a union of one member left is taken up into its place,
    // and WellFormed then reads the member's `type` there. Schemas from Rust types rarely have
    // such a member (an enum without variants); foreign ones, through `normalize`, get it too.
    &DropEmptyBranches,
    // Before every pass that reads the schema: a `type` that names no JSON type, a subschema slot
    // that holds no schema, a `$ref` that is not local are refused here, with their pointer, and
    // BFCL's `dict`/`float`/`tuple` become JSON type names. A node pass: shares the walk below.
    &WellFormed,
    // First: reads each type's doc comment exactly as schemars wrote it, before any pass edits a
    // description, and needs every property present (an entry for an excluded field is not a typo).
    &MergeDocs,
    // Order-independent: removes `$schema` and every `title`; nothing later reads them (the type
    // name for error paths was taken before the pipeline started). A node pass, like MergeDocs
    // and SortRequired: the three share one walk.
    &DropTitles,
    // Anywhere before the dialect; here, so that it shares the walk above. Later passes only
    // remove names from `required` lists or drop whole subschemas (MergeTags sorts the lists it
    // builds), which keeps a list sorted.
    &SortRequired,
    // Before the dialect, so that every dialect sees the range serde reads for an integer (a
    // dialect that cannot state a bound refuses it; one that drops `format` keeps the bounds).
    // Here, so that it shares the walk above. Only for schemas from a Rust type.
    &IntegerBounds,
    // Before the dialect, for the same reason, and in the same walk: integer map keys as serde
    // spells them. Only for schemas from a Rust type.
    &MapKeys,
    // In the same walk: notes whether an internally tagged variant is there at all, so that
    // MergeTags (which needs the whole document) walks only when one is (a walk of its own cost
    // about a tenth of the pipeline on the 50-type bench family). Nothing in between adds one.
    &FindTags,
    // Before anything copies a value (reject-any keeps annotations, dialects take snapshots):
    // serde_json's `Clone` recurses once per level of a `default` or `const`. After the walk
    // above, so that a schema nested past `max_depth` keeps its own depth error.
    &CheckNesting,
    // Before anything follows a reference (MergeTags, PruneDefs, RejectAny, the dialects): a `$ref` that
    // points at nothing would pass every dialect that keeps references, and one that loops back in
    // place would send every later step that follows it around the loop. Walks only when
    // WellFormed saw a `$ref`.
    &CheckRefs,
    // After CheckNesting, because it copies (a variant's content, to merge the tag into it);
    // before PruneDefs, which removes a definition only the merged variants used; before
    // RejectAny, which then judges the copies where they stand. Only for schemas from a Rust type.
    &MergeTags,
    // Before RejectAny: an injected parameter is often untyped (`ctx: serde_json::Value`) and must
    // not fail a schema that will never show it. After MergeDocs (see above).
    &Exclude,
    // After Exclude: a definition only an excluded property used must not reach the model. When
    // RejectAny runs next, the pipeline leaves this to it: its walk from the root enters exactly
    // the definitions references reach (it runs PruneDefs itself whenever it cannot be sure), so
    // one walk does both; `tests/with_schemars/laws.rs` checks the pipeline against the passes
    // run one by one.
    &PruneDefs,
    // After Exclude and PruneDefs, so only what the model will see is judged; after MergeDocs,
    // because a description-only schema is still untyped. Writing an optional untyped union
    // (`anyOf: [{}, {"$ref": ..}]`) as `{}` can drop the last reference to a definition: then it
    // runs PruneDefs again itself (the pipeline must be idempotent; found by
    // `tests/with_schemars/laws.rs`).
    &RejectAny,
];

/// Runs [`PASSES`] in order, each run of neighbouring node passes in one walk.
fn run_passes(
    schema: &mut Value,
    cx: &mut PassContext<'_>,
    reject_any: bool,
) -> Result<(), SchemaGenerationError> {
    let passes: Vec<&dyn Pass> =
        PASSES.iter().copied().filter(|p| reject_any || p.name() != RejectAny.name()).collect();
    let mut fused: Vec<&dyn NodePass> = Vec::new();
    for (i, &pass) in passes.iter().enumerate() {
        if let Some(node_pass) = pass.as_node_pass() {
            fused.push(node_pass);
            continue;
        }
        if !fused.is_empty() {
            run_node_passes(&std::mem::take(&mut fused), schema, cx)?;
        }
        // PruneDefs right before RejectAny: RejectAny's own walk from the root finds what PruneDefs
        // would remove (and runs PruneDefs itself when it cannot tell), so the pipeline skips a walk.
        if pass.name() == PruneDefs.name()
            && passes.get(i + 1).is_some_and(|next| next.name() == RejectAny.name())
        {
            cx.prune_first = true;
            continue;
        }
        pass.run(schema, cx)?;
    }
    if !fused.is_empty() {
        run_node_passes(&fused, schema, cx)?;
    }
    Ok(())
}

/// What the pipeline produced.
#[derive(Debug)]
#[cfg_attr(not(feature = "hash"), allow(dead_code))]
pub(crate) struct Output {
    pub(crate) value: Value,
    pub(crate) canonical: String,
    pub(crate) doc_warnings: Vec<DocWarning>,
    pub(crate) plan: crate::restore::RestorePlan,
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
    /// The dialect's exact mode (see [`AdaptContext::exact`]).
    pub(crate) exact: bool,
    /// See [`PassContext::from_rust`].
    pub(crate) from_rust: bool,
    /// The language of the advice in errors.
    pub(crate) origin: crate::hint::Origin,
    /// See [`AdaptContext::recursion_depth`].
    pub(crate) recursion_depth: usize,
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
        from_rust: settings.from_rust,
        origin: settings.origin,
        tag_sites: None,
        prune_first: false,
        refs_seen: RefsSeen::Unknown,
        ref_types: crate::dialect::support::RefTypes::new(),
    };
    if !crate::walk::is_schema(&schema) {
        let got = crate::passes::WellFormed::kind_of(&schema);
        crate::walk::drop_any_depth(schema);
        return Err(SchemaGenerationError::Malformed {
            pointer: String::new(),
            message: format!("a schema is an object or a boolean (draft 2020-12), and this is {got}"),
        }
        .into());
    }
    if let Err(e) = run_passes(&mut schema, &mut cx, settings.reject_any) {
        // The input may nest past any depth (the passes refuse it at the budget); serde_json's
        // own drop would recurse once per level.
        crate::walk::drop_any_depth(schema);
        return Err(e.into());
    }
    let acx = AdaptContext::new(settings.max_depth, type_name)
        .with_max_bytes(settings.max_bytes)
        .with_declaration_order(settings.declaration_order)
        .with_exact(settings.exact)
        .with_origin(settings.origin)
        .with_recursion_depth(settings.recursion_depth);
    // The dialect, then in one walk its forbidden-keyword check and SortRequired: a dialect may
    // build `required` lists (merging a `$ref` site with its definition) and insert keys; the
    // output must be as normalised as the input was, or a second run would change it. (No walk
    // for a dialect that changes nothing and forbids nothing.)
    let dialect::Adapted { schema: mut value, plan } =
        dialect::adapt_checked(settings.dialect, schema, &acx, true, &mut |node, at| {
            SortRequired.visit(node, at, &mut cx)
        })??;
    if settings.dialect.writes_defined_keywords_only() {
        // Draft 2020-12 output, for validators in a strict mode too (`dialect::unknown_keywords`).
        dialect::unknown_keywords::drop_unknown_keywords(&mut value, settings.max_depth);
    }
    if settings.dialect.adapts() {
        // A dialect that merges a `$ref` site with its target (openai-strict does, at the root)
        // can leave a definition nothing uses; a second run would remove it. Found by
        // `tests/with_schemars/laws.rs`.
        PruneDefs.run(&mut value, &mut cx)?;
    }
    SortKeys.run(&mut value, &mut cx)?;
    let canonical = crate::canonical::to_string_exact(&value);
    if let Some(max) = settings.max_bytes
        && canonical.len() > max
    {
        return Err(SchemaGenerationError::TooLarge { actual: canonical.len(), max }.into());
    }
    Ok(Output { value, canonical, doc_warnings: cx.doc_warnings, plan })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults `SchemaOptions::new()` gives, with `dialect`.
    fn defaults(dialect: &dyn SchemaDialect) -> Settings<'_> {
        Settings {
            exclude: &[],
            max_depth: 128,
            max_bytes: None,
            declaration_order: false,
            reject_any: true,
            exact: false,
            from_rust: false,
            origin: crate::hint::Origin::JsonSchema,
            recursion_depth: crate::dialect::DEFAULT_RECURSION_DEPTH,
            dialect,
        }
    }

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
        ) -> Result<crate::dialect::Adapted, Vec<crate::error::CapabilityError>> {
            if let Some(Value::Array(required)) = schema.get_mut("required") {
                required.push(Value::String("a".into()));
            }
            Ok(crate::dialect::Adapted::identity(schema))
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
        let settings = defaults(&AppendsRequired);
        let out = run(schema, None, settings).unwrap();
        assert_eq!(out.value["required"], serde_json::json!(["a", "b"]));
    }

    // Regression (found by `every_dialect_is_idempotent_on_generated_schemas` in
    // tests/with_schemars/laws.rs): the optional untyped union is written `{}`, which drops the only reference to `A`; the
    // definition must go in the same run, not the next.
    #[test]
    fn a_definition_only_an_untyped_union_used_goes_in_the_first_run() {
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"title": {"anyOf": [{}, {"$ref": "#/$defs/A"}]}},
            "$defs": {"A": {"type": "string"}, "B": {"type": "string"}}
        });
        let settings = defaults(&crate::dialect::JSON_SCHEMA);
        let once = run(schema, None, settings).unwrap().value;
        assert_eq!(once, serde_json::json!({"type": "object", "properties": {"title": {}}}));
        let twice = run(once.clone(), None, settings).unwrap().value;
        assert_eq!(twice, once);
    }

    // Regression (found by `every_dialect_is_idempotent_on_generated_schemas` in
    // tests/with_schemars/laws.rs): openai-strict merges the root's `$ref` with its target, after which the definition is
    // unused; it must go in the same run.
    #[test]
    fn a_definition_a_dialect_stops_using_goes_in_the_same_run() {
        let schema = serde_json::json!({
            "$defs": {"B": {"type": "object", "properties": {}, "required": []}},
            "$ref": "#/$defs/B"
        });
        let settings = defaults(&crate::dialect::OPENAI_STRICT);
        let once = run(schema, None, settings).unwrap().value;
        assert_eq!(once.get("$defs"), None, "{once}");
        assert_eq!(run(once.clone(), None, settings).unwrap().value, once);
    }

    #[test]
    fn pass_order_is_the_documented_one() {
        let names: Vec<_> = PASSES.iter().map(|p| p.name()).collect();
        assert_eq!(
            names,
            [
                "sort-keys",
                "draft-2020-12",
                "drop-empty-branches",
                "well-formed",
                "merge-docs",
                "drop-titles",
                "sort-required",
                "integer-bounds",
                "map-keys",
                "find-tags",
                "check-nesting",
                "check-refs",
                "merge-tags",
                "exclude",
                "prune-defs",
                "reject-any",
            ]
        );
    }
}
