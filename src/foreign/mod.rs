//! Foreign tool schemas: make one self-contained, and read the one type a property declares.
//!
//! A tool host (an MCP gateway, an agent framework, a validator) receives schemas it did not
//! write: pydantic's `model_json_schema()`, MCP `inputSchema`s, zod-to-json-schema output,
//! schemars output from rmcp. Many consumers cannot follow `$ref`, and read only a property's own
//! `type`. Both functions here need serde_json alone (`default-features = false`).
//!
//! - [`self_contained_input_schema`] inlines every local `$ref` and collapses optional unions, so
//!   a reader handed one schema per tool sees a nested model as the object it is. The result is
//!   always `type: "object"` with `properties` and `required` (which draft-04 forbids to be
//!   empty: under it, an empty `required` is left out).
//!   [`self_contained_input_schema_owned`] gives the same answer for a schema handed over by
//!   value, rewriting one without references in place instead of copying it.
//! - [`declared_type`] answers the narrower question a normaliser asks: which single
//!   [`JsonType`] does this property declare?
//!
//! ```
//! use serde_json::json;
//! use toolschema::{declared_type, self_contained_input_schema, JsonType};
//! // pydantic: `class Shot(BaseModel): prompt: str; seconds: int | None = None`
//! //           `class Storyboard(BaseModel): shots: list[Shot]`
//! let schema = json!({
//!     "$defs": {"Shot": {"properties": {
//!         "prompt": {"title": "Prompt", "type": "string"},
//!         "seconds": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null, "title": "Seconds"}},
//!         "required": ["prompt"], "title": "Shot", "type": "object"}},
//!     "properties": {"shots": {"items": {"$ref": "#/$defs/Shot"}, "title": "Shots", "type": "array"}},
//!     "required": ["shots"], "title": "Storyboard", "type": "object"
//! });
//! assert_eq!(declared_type(&schema["properties"]["shots"], &schema), Some(JsonType::Array));
//! let out = self_contained_input_schema(&schema, "storyboard")?;
//! assert_eq!(out, json!({
//!     "type": "object",
//!     "properties": {"shots": {"type": "array", "items": {"type": "object",
//!         "properties": {"prompt": {"type": "string"}, "seconds": {"type": "integer"}},
//!         "required": ["prompt"]}}},
//!     "required": ["shots"]
//! }));
//! # Ok::<(), toolschema::ForeignSchemaError>(())
//! ```
//!
//! # What `self_contained_input_schema` does
//! It follows the Python package `3tears-tool-schema` (its behaviour, not its code), and fixes
//! what that package gets wrong:
//!
//! - Every local `$ref` is inlined, under every schema-bearing keyword the [walker](crate::walk)
//!   knows (draft-4 tuple `items`, `additionalItems`, `unevaluated*`, `dependencies`,
//!   `contentSchema` included). A reference is any local JSON pointer (`#`, `#/$defs/A`,
//!   `#/properties/a/items`), percent-decoded then `~`-decoded; `$defs` and `definitions` are
//!   separate namespaces. A reference outside the document, to nothing, or with a bad escape is an
//!   error naming the tool, the pointer and the reference.
//! - References resolve against the document's root only, so what would resolve elsewhere is
//!   refused, naming the pointer: a `$ref` at or under a subschema whose `$id` (draft-04: `id`)
//!   changes the base URI (it means a place in that resource, `{"$id":
//!   "http://example.com/sub", "$defs": {...}, "$ref": "#/$defs/X"}` its own `X`); a reference
//!   to an anchor (`#name`, not a JSON pointer); a `$dynamicRef` or `$recursiveRef`, whose
//!   target is decided while validating. The root's `$id`, an `$id` that is only a fragment, and
//!   an `$id` with no reference under it change nothing and stay as written.
//! - The input's `$schema` says how a `$ref` is read. Up to draft-07 (`$schema` of draft-07, -06,
//!   -04 or -03), a schema holding `$ref` is the reference alone, as those drafts say: the
//!   keywords beside it are ignored, so the output is the definition with the site's annotations
//!   (which decide nothing), and what the draft ignores is neither checked nor kept. From
//!   2019-09 on, and with no `$schema`, the keywords beside a `$ref` apply too.
//! - The keywords beside a `$ref` (where the draft applies them) combine with the definition so
//!   the result accepts exactly what the input did: the site's annotations (`description`,
//!   `default`, ...) win, `required` lists are joined, and where both sides constrain the same
//!   family of keywords differently the site's go into an `allOf` member.
//! - An optional union (`anyOf`/`oneOf` of one real member and `null`, the `null` possibly behind
//!   a `$ref`; or `type: [X, "null"]`) loses its `null` where the value may be left out (the
//!   root, or a property nothing may require), together with `default: null`. A property may be
//!   required by its object's `required`, by the `required` of the object's `allOf`, `anyOf` or
//!   `oneOf` members, of an object whose `allOf` member it is in, or of a reference site around
//!   it; and by anything that is not read: `if`/`then`/`else`, `not`, `dependentRequired`,
//!   `dependentSchemas`, `dependencies`, `minProperties`, a `$ref` beside it, or a member holding
//!   one of these, a `$ref` or a union of its own. Where any of these may require it, the
//!   property keeps its `null`. Where `null` is a value the code must receive (a required
//!   property, array items, map values) the union is kept, as `type: [X, "null"]` when nothing
//!   else in `X` constrains `null`, else as
//!   `anyOf: [X, {"type": "null"}]`. A `type` beside the union that refuses `null` makes the
//!   `null` member dead, and the union becomes its member. A union of two or more real members
//!   is kept whole; an untyped field stays untyped. A `oneOf` keeps its exactly-one meaning: it
//!   is collapsed only where `null` matches one member alone (a single null member, and a real
//!   member whose `type`, `enum` or `const` leaves `null` out); `oneOf: [{"type": ["integer",
//!   "null"]}, {"type": "null"}]` refuses `null`, and is kept whole where `null` stays.
//! - A recursive definition is expanded until it recurs; the point of recursion keeps the
//!   definition's JSON type (inferred through references and unions when it has no `type`) and
//!   reads "Node: the same shape as the Node that contains it.", after the field's own
//!   description (a wording that needs no article, whose choice depends on how a name sounds).
//!   No inferable type is an error: the point must not accept anything.
//! - Titles and the root's description are dropped, and so are `$defs`/`definitions`.
//! - The root must be an object schema: an array, string, `null` or `true` root, or a root
//!   `type` other than `"object"` (or `"dict"`, the Python spelling BFCL writes), is an error;
//!   `required` that is not a list of strings, `$defs` that is not a map and a non-string `$ref`
//!   are errors too.
//! - Type names follow one rule, [`JsonType::read`]: only the seven JSON types are types, and
//!   the Python spellings BFCL writes, `dict`, `float` and `tuple`, are written in the output as
//!   `object`, `number` and `array`, wherever a `type` (or a member of a `type` list) stands in
//!   the output. Any other name (`any`, `String`, `long`) is an error naming the tool, the
//!   pointer and the name, with what to write instead: read as some type, it would be a guess,
//!   and passed through, no validator loads the schema. (A definition nothing refers to is not
//!   in the output, and is not checked.)
//!
//! # How it works, and what it costs
//! Inlining a DAG of shared definitions can grow exponentially (40 definitions each using the
//! next twice is 2^40 copies). So before building anything, one pass finds the reference targets
//! reachable from the root, then each target's expanded size is *measured* once: a lower bound
//! of its compact JSON size, memoised per target wherever the expansion cannot depend on the
//! path (no member of its strongly connected component of references is being expanded). A
//! schema whose measure passes [`SelfContainedOptions::max_bytes`] is refused in time and memory
//! proportional to the input. Where the references form no cycle, a cheaper bound from discovery
//! (each target's size times the number of reference paths to it) stands in for the measure when
//! it is within budget. One within budget is built once: a deep clone of what is copied,
//! rewritten in place; the exact size is counted only when a bound of the result that reads no
//! string passes the budget. Most tool schemas have no `$defs` and no reference: for them one
//! walk makes discovery's checks on each node and bounds the size, the input is cloned and
//! rewritten only where something changes; the first `$ref` that walk meets hands the schema to
//! the general path. Every walk checks [`SelfContainedOptions::max_depth`] (subschema
//! levels plus `$ref` hops) before it descends, so no input overflows the stack; discovery counts
//! from the root through the references it follows, so a chain of 5,000 definitions each nesting
//! the next is refused after the first few dozen, where the budget runs out.
//!
//! [`declared_type`] is a loop, not a recursion, with a hop budget ([`MAX_HOPS`]).

pub(crate) mod declared_type;
mod error;
mod self_contained;

pub use crate::vocab::json_type::{JsonType, UnknownJsonType};
pub use declared_type::{MAX_HOPS, declared_type, reads_ref_alone};
pub use error::ForeignSchemaError;
// The plain path's key roles and the root's `required` rule, hidden: for the Python package's
// plain path over Python objects, which must read a schema as the library's does.
#[doc(hidden)]
pub use self_contained::{Role as PlainRole, allows_empty_required, survey_role as plain_role};
pub use self_contained::{
    SelfContainedOptions, self_contained_input_schema, self_contained_input_schema_owned,
    self_contained_input_schema_owned_with, self_contained_input_schema_with,
};
