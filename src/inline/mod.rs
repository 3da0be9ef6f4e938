//! The one `$ref` inliner: resolve every local reference, measure the expansion, build it. Its
//! two callers differ only in the [`Policy`] they hand it.
//!
//! - [`foreign::self_contained_input_schema`](crate::foreign::self_contained_input_schema) (and its
//!   variants) reads a foreign schema: a recursion is expanded once and its point keeps its type
//!   with a note, optional unions lose their `null`, a site combines with its definition by the
//!   family rules of `foreign/self_contained/combine.rs`, the input's draft decides how `$ref`
//!   is read, and the budgets are [`SelfContainedOptions`](crate::SelfContainedOptions)'s;
//! - the dialects that inline ([`INLINE_REFS`](crate::dialect::INLINE_REFS),
//!   [`MCP_SELF_CONTAINED`](crate::dialect::MCP_SELF_CONTAINED),
//!   [`GEMINI`](crate::dialect::GEMINI)) read the pipeline's output: a recursion is refused, no
//!   union changes, a site merges with its target where that is exact and falls back to `allOf`
//!   (`dialect::support::combine_ref_site`), and every error is a `CapabilityError`.
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{apply, AdaptContext, INLINE_REFS};
//! let schema = json!({"$defs": {"N": {"type": "integer"}},
//!                     "properties": {"a": {"$ref": "#/$defs/N"}, "b": {"$ref": "#/$defs/N"}}});
//! // The same engine, two policies: the dialect keeps what the foreign function drops.
//! let inlined = apply(&INLINE_REFS, schema.clone(), &AdaptContext::default()).unwrap();
//! assert_eq!(inlined, json!({"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}));
//! let foreign = toolschema::self_contained_input_schema(&schema, "t").unwrap();
//! assert_eq!(foreign["properties"], inlined["properties"]);
//! ```
//!
//! # How it works
//! [`Engine`] holds the reference targets (each place a `$ref` points at, the root first), found
//! by the node's address, and runs up to four steps:
//!
//! 1. **discover** every target reachable from the root, checking what it walks, with each
//!    target's height, reference edges and a bound of its size ([`Engine::discover`]);
//! 2. group the targets into strongly connected components ([`Engine::components`]), so a
//!    target's expansion is known to be the same wherever no member of its component is being
//!    expanded, and judge from step 1 alone whether an acyclic expansion fits both budgets
//!    ([`Engine::expansion_fits`]);
//! 3. **measure** the expansion without building it, memoised per target where that is valid
//!    ([`Engine::measure_expansion`]): time and memory in proportion to the input, however large
//!    the expansion, so a definition graph that doubles at each of 40 levels is refused after
//!    visiting 40 definitions. A reference back into a definition being expanded is a recursion
//!    point: refused ([`Recursion::Refuse`]) or given its type and a note ([`Recursion::Note`]);
//! 4. **build** the output entry by entry from the root ([`Engine::construct`]), or, where maps
//!    keep their insertion order, by rewriting a deep copy in place ([`Engine::build`]).
//!
//! The foreign caller runs all four (or, for most schemas, a walk that builds while it checks,
//! then the four where that walk cannot vouch); the dialects, whose input the pipeline has
//! checked, run 3 then 4, so that each error names the path through the reference sites where the
//! output would hold the fault ([`Policy::POINT_THROUGH_SITES`]).
//!
//! Every walk checks the depth budget before it descends. A reference hop adds the levels
//! [`Policy::hop_levels`] says: one for the foreign caller, whose budget counts hops; none for
//! the dialects, whose budget is the output's nesting (a target's expansion takes its site's
//! place), where the hops in a row are counted against the budget instead, so no chain of
//! references outruns the stack. Every expansion is measured, or bounded from discovery, before
//! it is built.

mod build;
mod components;
pub(crate) mod draft;
mod engine;
mod keys;
mod measure;
mod nulls;
mod resolve;
pub(crate) mod size;
mod type_names;

pub(crate) use build::*;
pub(crate) use engine::*;
pub(crate) use keys::*;
pub(crate) use measure::*;
pub(crate) use nulls::*;
pub(crate) use size::*;
pub(crate) use type_names::*;

use crate::pointer::Pointer;
use crate::refs::RefError;
use crate::walk::Step;
use serde_json::{Map, Value};

/// What a reference back into a definition being expanded becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Recursion {
    /// An error ([`Fault::Recursive`]): the output could not say it.
    Refuse,
    /// A recursion point: the definition's JSON type and a note naming it.
    Note,
}

/// What the measure counts of an expansion's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// A lower bound of the compact size, for a caller that checks the built output's exact size
    /// too: the measure only refuses what could not fit.
    Lower,
    /// An upper bound of the canonical size (exact where no site overrides a keyword of its
    /// target), for a caller whose check is the measure alone.
    Upper,
}

/// What one caller of the engine decides. Every decision is a constant or an associated
/// function, so each caller's engine is compiled for it alone.
pub(crate) trait Policy {
    /// The caller's error.
    type Error;
    /// What a recursion becomes.
    const RECURSION: Recursion;
    /// Whether optional unions collapse: a union of one real member and `null` becomes the member,
    /// its `null` dropped where the value may be left out and kept in a `type` list where it must
    /// be received ([`collapse`]).
    const COLLAPSE_NULL: bool;
    /// Whether the input is read as a foreign schema: `title`s are dropped, `type` names are read
    /// and Python spellings written as JSON names, `required`, `$defs` and `definitions` are
    /// checked for their shape, `$dynamicRef`/`$recursiveRef` and references under a nested
    /// base-changing `$id` are refused, and `$ref` is read as the root's `$schema` declares
    /// (draft-07 and earlier: the reference alone). Without it, the input is read as 2020-12.
    const FOREIGN_READING: bool;
    /// Whether an error inside an expanded definition points along the reference sites that
    /// reached it (where the output would hold the fault), rather than at the definition itself.
    const POINT_THROUGH_SITES: bool;
    /// What the measure counts.
    const BOUND: Bound;

    /// The levels a reference hop from `site` (the schema object holding the `$ref`) adds below
    /// it: where the target's expansion is counted from. A hop that adds none is still bounded:
    /// no more than the depth budget in a row.
    fn hop_levels(site: &Map<String, Value>) -> usize;
    /// A reference site's own keywords (`$ref` and what the output drops removed) with the
    /// expansion of its target, as one schema that accepts what both did.
    fn combine(site: Map<String, Value>, target: Value) -> Value;
    /// At most how many levels and bytes [`Policy::combine`] adds to `site` and its target's
    /// expansion side by side, as [`Bound::Upper`] counts them (a lower bound counts none).
    fn combine_growth(site: &Map<String, Value>) -> (usize, u64);
    /// The caller's error for `fault`.
    fn fault(&self, fault: Fault) -> Self::Error;
    /// The error a walk that builds while it checks ([`Engine::checking`]) gives up with: never
    /// reported.
    fn gave_up() -> Self::Error;
}

/// Why the engine stopped: each caller maps it to its own error ([`Policy::fault`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fault {
    /// A keyword's value has the wrong shape (foreign reading only).
    Malformed { pointer: String, message: String },
    /// A `$ref` whose value is not a string, at `site` (the object holding it).
    RefNotString { site: String, found: String },
    /// A `$ref` that cannot be followed in this document.
    Reference { pointer: String, reference: String, reason: RefError },
    /// A `$ref` under an `$id` that changes its base (foreign reading only).
    ScopedReference { pointer: String, reference: String, id: String },
    /// A `$dynamicRef` or `$recursiveRef` (foreign reading only).
    DynamicReference { pointer: String, keyword: &'static str, reference: String },
    /// A `type` name that is no JSON type (foreign reading only).
    UnknownType { pointer: String, name: String },
    /// A recursion point whose type cannot be inferred ([`Recursion::Note`]).
    UntypedRecursion { pointer: String, reference: String },
    /// A reference back into a definition being expanded ([`Recursion::Refuse`]); `target` is
    /// the definition's pointer (escaped; `""` for the root).
    Recursive { pointer: String, target: String },
    /// The depth budget runs out at `pointer`, which sits `depth` levels down.
    TooDeep { pointer: String, depth: usize },
    /// The expansion passes the size budget: `size` is what was counted.
    TooLarge { size: u64 },
    /// A value (not a subschema) nests past `limit` levels.
    NestsTooDeep { pointer: String, limit: usize },
}

/// Where a value may be left out (`Optional`: a property not in `required`, or the root) or must
/// be received (`Required`: a required property, array items, map values, anything else). Decides
/// whether an optional union's `null` is dropped or kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ctx {
    Optional,
    Required,
}

/// The path to the node being visited, rendered only for an error.
pub(crate) enum Trail<'a> {
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
    pub(crate) fn render(&self) -> String {
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

#[cfg(test)]
mod tests;
