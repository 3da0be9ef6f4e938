//! The provider engine: one walk that adapts a schema to a provider's allow-list and builds the
//! [`RestorePlan`] that undoes every encoding it made.
//!
//! The provider dialects ([`OPENAI_STRICT`](super::OPENAI_STRICT),
//! [`ANTHROPIC_STRICT`](super::ANTHROPIC_STRICT), [`GEMINI`](super::GEMINI),
//! [`GEMINI_JSON_SCHEMA`](super::GEMINI_JSON_SCHEMA)) are each a [`Profile`]: which keywords the
//! provider documents and enforces, how it writes null and closed objects, whether it follows
//! references, which `enum` values it lists, whether it takes maps and tuples as they are. The
//! engine does the rest, the same way for all of them.
//!
//! # How it works
//! References are prepared first: a provider that follows `$ref` keeps them (a `$ref` site's
//! assertions merged into its target where that is exact, recursion unrolled where the provider
//! refuses it, the levels past the caller's depth marked as cuts, `unroll.rs`); one that does not
//! gets every reference inlined, the expansion measured before it is built (a recursion unrolled
//! first). A cut is written as JSON text checked against the original
//! (`restore/rewrite/schema_text.rs`); in exact mode recursion is refused instead. Then one recursive walk over the schema (each definition once, from a work list,
//! so a long chain of references never deepens the stack) builds, for every schema, the
//! provider's schema and the plan node that restores it:
//!
//! 1. Keywords are sorted into: kept (the provider enforces them), moved (the provider does not;
//!    stated in the description, checked by restore: `minimum` for Anthropic), encoded (no
//!    faithful form in the provider's terms, so another shape and its inverse: a map as a list of
//!    entries, any value as JSON text, a tuple as an object, enum values as text), dropped
//!    (annotations the provider does not know: `x-*`, `$comment`, `examples`; unknown keywords,
//!    which draft 2020-12 reads as annotations; a `format` outside the provider's list) and
//!    refused (what no encoding can carry and restore cannot check: `not`, `if`, `contains`, a
//!    `pattern` the provider cannot run).
//! 2. Unions: `oneOf` whose branches are provably disjoint is `anyOf`; a union's own assertions
//!    are distributed into its branches (an untyped branch takes its parent's `type`); several
//!    types in one `type` become one branch per type. Where branches need different restores,
//!    each gets the [shape](crate::restore) only its values have; branches that cannot be told
//!    apart are refused.
//! 3. Objects: declared properties closed where the provider needs it (serde ignores unknown
//!    keys, so nothing the code reads is lost); a free-form object becomes JSON text; every
//!    property required where the provider demands it, `null` standing for absent.
//! 4. The root: a provider needs `type: "object"` there; anything else is wrapped as
//!    `{"value": ...}`.
//!
//! In exact mode ([`AdaptContext::exact`]) every rewrite that restore would have to undo is an
//! error instead, with the Rust shape to use; the plan is then the identity but for integral
//! floats.
//!
//! # Files
//! This file holds the profiles, the engine's state and the walk's dispatch (one schema, the
//! root); the rest sits beside it by concern, each an `impl Engine` block with its helpers:
//! `entry.rs` (the entry, [`adapt`]: references prepared, the engine run), `refs.rs`
//! (references, definitions, merges), `union.rs` (unions and their branch shapes once the schema
//! is finished), `shape.rs` (what only a branch's values have), `typed.rs` (a schema of one type:
//! keywords sorted, `enum` values, JSON text), `keywords.rs` (its keyword tables), `object.rs` (objects: properties, renamed keys,
//! further keys, closing), `map.rs` (maps as entries), `presence.rs` (`required` alternatives as
//! a restore check), `array.rs` (arrays, tuples), `describe.rs` (the description, `null` added),
//! `plan.rs` (pruning, and the integer-only plan).

mod array;
mod describe;
mod entry;
mod keywords;
mod map;
mod object;
mod plan;
mod presence;
mod refs;
mod shape;
#[cfg(test)]
mod tests;
mod typed;
mod union;

use super::Adapted;
use super::support::{admits_nothing, is_annotation, merge_ref_site, unsupported};
use crate::error::CapabilityError;
use crate::hint::{Advice, Origin, for_keyword};
use crate::pointer::{Pointer, fragment_token};
use crate::restore::rewrite::{schema_text, wrap};
use crate::restore::{Adaptation, AdaptationKind, Decode, Node, NodeId, RenamedKey, RestorePlan, TypeSet};
pub(crate) use entry::{Limits, adapt, adapt_within};
use keywords::declared_types;
use plan::prune;
pub(crate) use plan::{integer_plan, integer_plan_in};
use presence::moved_presence;
use refs::{MergedDef, merge_key};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use union::PendingUnion;

/// How a provider treats `$ref`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refs {
    /// Kept, in `$defs`; `recursion` says whether a cycle is allowed.
    Keep { recursion: bool },
    /// Every reference inlined before the walk.
    Inline,
}

pub(crate) use crate::restore::rewrite::Style;
pub(crate) use crate::restore::rewrite::keys::KeyRule;

/// Which `enum` and `const` values a provider can list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Enums {
    /// Any JSON value.
    Any,
    /// Strings, numbers, booleans, null.
    Primitive,
    /// Strings only (and `null` through `nullable`); no `const`.
    Strings,
    /// Strings and numbers (and `null`, which the profile's dialect writes as a branch of its
    /// own); no `const`, so a `const` is a one-value `enum`.
    StringsAndNumbers,
}

/// What a provider accepts: the engine's parameters.
pub(crate) struct Profile {
    pub(crate) name: &'static str,
    pub(crate) refs: Refs,
    pub(crate) style: Style,
    /// Every property must be in `required` (OpenAI).
    pub(crate) require_all: bool,
    /// Assertion keywords the provider enforces, kept as they are.
    pub(crate) keep: &'static [&'static str],
    /// Annotations the provider accepts; any other annotation is dropped.
    pub(crate) annotations: &'static [&'static str],
    /// `format` values the provider accepts; others are dropped (an annotation in draft 2020-12),
    /// after an integer format has become the bounds it implies.
    pub(crate) formats: &'static [&'static str],
    pub(crate) enums: Enums,
    /// The largest `minItems` the provider accepts (Anthropic: 1); larger ones are moved.
    pub(crate) max_min_items: Option<u64>,
    /// Whether the provider can run this `pattern`; one it cannot is moved into restore.
    pub(crate) pattern_ok: fn(&str) -> bool,
    /// Whether the provider enforces this numeric keyword (`minimum`, `multipleOf`, ...) of a
    /// schema of this type with this value exactly, where `keep` lists it; one it would round
    /// or refuse is moved into restore (a self-hosted engine that reads bounds as `f64`). Asked
    /// of JSON numbers only: a big-integer token is moved for every provider.
    pub(crate) bound_ok: fn(keyword: &str, t: &str, value: &Value) -> bool,
    /// Whether the provider enforces `minLength` and `maxLength` beside a `pattern` it keeps;
    /// where it reads only one of them (outlines-core takes the lengths and ignores the pattern),
    /// the pattern is kept and the lengths are moved into restore.
    pub(crate) lengths_beside_pattern: bool,
    /// Whether the provider takes a map of further keys (`additionalProperties` as a schema)
    /// beside named properties, where it keeps maps; where it reads only the properties
    /// (outlines-core), the further keys go as a list of entries, as for a provider that keeps no
    /// maps.
    pub(crate) maps_beside_properties: bool,
    /// Whether the provider may send an enum or const string back in another capitalisation
    /// (Anthropic, "Invalid outputs"): restore then maps it to the one member it matches.
    pub(crate) case_insensitive_enums: bool,
    /// Whether restore also checks the patterns the provider runs: Anthropic's SDKs move
    /// `pattern` into the description (`transform_schema`), so on that path no one else does.
    pub(crate) check_kept_patterns: bool,
    /// Whether the provider takes `additionalProperties` as a schema: a map stays an object whose
    /// further keys' values the schema describes (else it is a list of `{"key", "value"}` entries).
    pub(crate) keeps_maps: bool,
    /// Whether the provider takes `prefixItems`: a tuple stays an array (else it is an object with
    /// keys `"0"`, `"1"`, ...).
    pub(crate) keeps_tuples: bool,
    /// Whether an optional property whose `null` reads as absent (no default, or `null`) is
    /// written without `null`, absent standing for it: fewer unions, for a provider that counts
    /// them (Anthropic's 16). The forward map leaves such a `null` out; restore has nothing to do.
    pub(crate) absent_for_null: bool,
    /// The provider's rule for property keys, where it has one (Anthropic): a key it refuses is
    /// sent under another name, which restore maps back.
    pub(crate) keys: Option<KeyRule>,
}

struct Engine<'a> {
    p: &'a Profile,
    /// The schema before its recursion was unrolled, where it was: what the text at each cut is
    /// checked against.
    original: Option<Arc<Value>>,
    exact: bool,
    /// The language of the advice in errors.
    origin: Origin,
    max_depth: usize,
    root: &'a Value,
    nodes: Vec<Node>,
    /// Reference target (decoded tokens joined by `/`) → its output name and plan node.
    slots: HashMap<String, (String, NodeId)>,
    names: BTreeSet<String>,
    /// Definitions still to adapt: tokens, output name, plan node.
    work: Vec<(Vec<String>, String, NodeId)>,
    /// The merges of a reference's target with the keywords beside it being built, innermost
    /// last (see [`Engine::merged`]).
    merging: Vec<String>,
    /// A merge that recurs inside itself → its definition's name and plan node.
    merged_slots: HashMap<String, (String, NodeId)>,
    /// Merged definitions still to adapt.
    merged_work: Vec<MergedDef>,
    defs: Vec<(String, Value)>,
    /// Union nodes whose branch shapes are computed once every definition exists: node, the
    /// provider's branches, the branches' plan nodes, the original pointer.
    unions: Vec<PendingUnion>,
    errors: Vec<CapabilityError>,
    adaptations: Vec<Adaptation>,
    wrapped: bool,
    /// The definition a wrapped root that refers to itself is moved into, once named.
    root_def: Option<String>,
    /// The name for it: the type's, or `Root`.
    root_name: String,
    /// The properties named by the `required` alternatives of the object being built (moved into
    /// a restore check): taken by that object, where null is a value of their own.
    alternatives: BTreeSet<String>,
    /// Every property key sent under another name, for the plan's list.
    renamed: Vec<RenamedKey>,
    /// The restore plan of each schema sent as JSON text at a cut (by its canonical text): cuts of
    /// one reference share it.
    text_plans: HashMap<String, crate::restore::rewrite::TextPlan>,
}

/// A schema's output and plan node.
type Built = (Value, Option<NodeId>);

/// A schema of one type being written: the provider's keywords so far, the plan node that
/// restores it, and the sentences its description gains. `typed` makes it; `object`, `map` and
/// `array` write their keywords into it.
struct Draft {
    out: Map<String, Value>,
    node: Node,
    notes: Vec<String>,
}

impl Engine<'_> {
    fn run(&mut self) -> Adapted {
        let root_id = self.alloc();
        self.slots.insert(String::new(), (String::new(), root_id));
        let root = self.root;
        let (mut out, inner) = self.schema(root, &mut Pointer::root(), 0);
        self.nodes[root_id].target = inner;
        loop {
            if let Some(work) = self.work.pop() {
                self.build_def(work);
            } else if let Some(merged) = self.merged_work.pop() {
                self.build_merged_def(merged);
            } else {
                break;
            }
        }
        let mut plan_root = Some(root_id);
        if !self.wrapped {
            if let Value::Object(m) = &mut out {
                m.insert("type".into(), "object".into());
            }
        } else if self.encode(
            "",
            AdaptationKind::WrappedRoot,
            "type",
            "the root schema must be `\"type\": \"object\"` (tool arguments are a JSON object)",
            Advice::WrapRoot.text(self.origin),
        ) {
            if let Some(name) = self.root_def.clone() {
                let reference = Value::Object(Map::from_iter([(
                    "$ref".to_owned(),
                    Value::String(format!("#/$defs/{}", fragment_token(&name))),
                )]));
                self.defs.push((name, std::mem::replace(&mut out, reference)));
            }
            out = Value::Object(wrap::write(out, self.p.style));
            let outer = self.alloc();
            self.nodes[outer].decode = Decode::Unwrap(wrap::KEY.into());
            self.nodes[outer].target = Some(root_id);
            plan_root = Some(outer);
        }
        if !self.defs.is_empty()
            && let Value::Object(m) = &mut out
        {
            let mut defs = std::mem::take(&mut self.defs);
            defs.sort_by(|a, b| a.0.cmp(&b.0));
            m.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
        }
        self.shapes(&out);
        let nodes = std::mem::take(&mut self.nodes);
        let adaptations = std::mem::take(&mut self.adaptations);
        let (nodes, plan_root) = prune(nodes, plan_root);
        let renamed = std::mem::take(&mut self.renamed);
        let plan = RestorePlan::from_parts(nodes, plan_root, adaptations).with_renamed_keys(renamed);
        Adapted { schema: out, plan }
    }

    fn alloc(&mut self) -> NodeId {
        self.nodes.push(Node::default());
        self.nodes.len() - 1
    }

    fn push(&mut self, node: Node) -> Option<NodeId> {
        (node != Node::default()).then(|| {
            self.nodes.push(node);
            self.nodes.len() - 1
        })
    }

    fn refuse(&mut self, keyword: &str, ptr: &str, reason: impl Into<String>, hint: Option<&str>) {
        self.errors.push(unsupported(self.p.name, keyword, ptr, reason, hint.map(str::to_owned)));
    }

    fn adapt_note(&mut self, ptr: &str, kind: AdaptationKind, keyword: &str) {
        self.adaptations.push(Adaptation { pointer: ptr.to_owned(), kind, keyword: keyword.to_owned() });
    }

    /// A rewrite restore must undo: recorded, or in exact mode refused. `true` if allowed.
    fn encode(&mut self, ptr: &str, kind: AdaptationKind, keyword: &str, reason: &str, hint: &str) -> bool {
        if self.exact {
            self.refuse(keyword, ptr, reason, Some(hint));
            false
        } else {
            self.adapt_note(ptr, kind, keyword);
            true
        }
    }

    /// One schema.
    fn schema(&mut self, s: &Value, ptr: &mut Pointer, depth: usize) -> Built {
        if depth > self.max_depth {
            self.errors.push(CapabilityError::TooDeep {
                dialect: self.p.name.into(),
                depth,
                max_depth: self.max_depth,
                pointer: ptr.as_str().to_owned(),
            });
            return (Value::Bool(true), None);
        }
        // A union member that admits nothing was dropped before the dialect (the pipeline's
        // DropEmptyBranches); what is left admits nothing where it stands: a required property
        // no arguments can satisfy, or one that must be absent, which no provider can say.
        if let Some(empty) = admits_nothing(s) {
            self.refuse(
                empty.keyword,
                ptr.as_str(),
                format!(
                    "this schema accepts no value ({}), so no arguments are valid where it is required, \
                     and the provider cannot say it",
                    empty.why
                ),
                Some("remove the position, or give it a schema that accepts a value"),
            );
            return (Value::Bool(false), None);
        }
        match s {
            Value::Object(m) => self.object_schema(m, ptr, depth),
            Value::Bool(true) => self.json_text(&Map::new(), TypeSet::ALL, ptr),
            _ => {
                self.refuse("type", ptr.as_str(), "this is not a schema (an object or a boolean)", None);
                (Value::Bool(false), None)
            }
        }
    }

    fn object_schema(&mut self, m: &Map<String, Value>, ptr: &mut Pointer, depth: usize) -> Built {
        if m.contains_key(schema_text::MARK) {
            return self.schema_text(m, ptr);
        }
        for kw in REFUSED {
            if m.contains_key(*kw) {
                self.refuse(
                    kw,
                    ptr.as_str(),
                    format!("`{kw}` cannot be expressed, and restore cannot check it without a validator"),
                    Some(
                        &for_keyword(kw, self.origin)
                            .unwrap_or_else(|| Advice::PlainShape.text(self.origin).to_owned()),
                    ),
                );
            }
        }
        if m.get("unevaluatedProperties") == Some(&Value::Bool(false))
            || m.get("unevaluatedItems") == Some(&Value::Bool(false))
        {
            let kw = if m.contains_key("unevaluatedProperties") {
                "unevaluatedProperties"
            } else {
                "unevaluatedItems"
            };
            self.refuse(kw, ptr.as_str(), format!("`{kw}: false` cannot be expressed"), None);
        }
        if let Some(Value::String(r)) = m.get("$ref") {
            if m.keys().all(|k| {
                k == "$ref" || is_annotation(k) || DROPPED.contains(&k.as_str()) || k.starts_with("x-")
            }) {
                return self.reference(m, r, ptr);
            }
            // Assertions beside the reference (an `allOf` member merged in): they apply together.
            let mut site = m.clone();
            site.remove("$ref");
            let target = crate::refs::resolve(self.root, r).cloned().unwrap_or(Value::Bool(true));
            let key = merge_key(r, &site);
            return match merge_ref_site(site, target) {
                Ok(merged) => self.merged(key, r, merged, ptr, depth),
                Err(_) => {
                    self.refuse(
                        "$ref",
                        ptr.as_str(),
                        "the keywords beside this `$ref` cannot be merged into its target exactly, and the provider \
                         accepts neither `allOf` nor keywords beside a reference",
                        Some(Advice::OneDefinition.text(self.origin)),
                    );
                    (Value::Bool(true), None)
                }
            };
        }
        if let Some(Value::Array(members)) = m.get("allOf") {
            return self.all_of(m, members, ptr, depth);
        }
        if let Some(presence) = moved_presence(m, self.p.style) {
            return self.required_alternatives(m, presence, ptr, depth);
        }
        if m.contains_key("anyOf") || m.contains_key("oneOf") {
            return self.union(m, ptr, depth);
        }
        let mut types = declared_types(m);
        if self.p.style == Style::NullableFlag
            && m.get("nullable") == Some(&Value::Bool(true))
            && let Some(t) = &mut types
        {
            // OpenAPI's own spelling of null, read as Gemini reads it (its output fed back in).
            t.insert("null");
        }
        match types {
            None => self.json_text(m, TypeSet::ALL, ptr),
            Some(names) => {
                let real: Vec<&str> = names.iter().copied().filter(|t| *t != "null").collect();
                let nullable = names.contains("null");
                match real.as_slice() {
                    // An empty `type` list (two sides of a merge with no type in common) admits
                    // nothing: written as `null` it would let null through.
                    [] if !nullable => {
                        self.refuse(
                            "type",
                            ptr.as_str(),
                            "this schema accepts no value (its types have nothing in common), which the provider cannot say",
                            Some("remove the position, or give it one type"),
                        );
                        (Value::Bool(false), None)
                    }
                    [] => self.typed(m, "null", false, ptr, depth),
                    [one] => self.typed(m, one, nullable, ptr, depth),
                    several => {
                        let several: Vec<String> = several.iter().map(|s| (*s).to_owned()).collect();
                        self.split_types(m, &several, nullable, ptr, depth)
                    }
                }
            }
        }
    }
}

/// Keywords no provider supports and restore cannot check.
const REFUSED: &[&str] = &[
    "$dynamicRef",
    "$recursiveRef",
    "contains",
    "dependentSchemas",
    "else",
    "if",
    "maxContains",
    "minContains",
    "not",
    "then",
];

/// Keywords with no assertion (draft 2020-12's core, content and format-annotation vocabularies,
/// OpenAPI's `example` and `discriminator`): dropped unless the provider lists them as annotations.
const DROPPED: &[&str] = &[
    "$anchor",
    "$comment",
    "$dynamicAnchor",
    "$id",
    "$schema",
    "$vocabulary",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "discriminator",
    "example",
    "nullable",
    "propertyOrdering",
];
