//! What an adaptation did, for callers to read: each [`Adaptation`] (a rewrite restore undoes or
//! a check it runs, with its pointer and keyword) and each [`RenamedKey`].

use std::fmt;

/// A property key the provider refuses (Anthropic's `^[a-zA-Z0-9_.-]{1,64}$`), and the name it
/// is sent under: the provider's schema and the model's arguments use `sent`, the original
/// schema and restored arguments `original`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct RenamedKey {
    /// JSON pointer of the property in the original (normalised) schema.
    pub pointer: String,
    /// The key the original schema declares.
    pub original: String,
    /// The key the provider is told.
    pub sent: String,
}

impl fmt::Display for RenamedKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` -> `{}` (at `{}`)", self.original, self.sent, self.pointer)
    }
}

/// One rewrite a dialect made, for logs and the CLI: where in the original schema, and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub struct Adaptation {
    /// JSON pointer into the original (normalised) schema.
    pub pointer: String,
    /// What was rewritten.
    pub kind: AdaptationKind,
    /// The keyword the rewrite concerns (`minimum`, `additionalProperties`, `required`, ...).
    pub keyword: String,
}

/// The kinds of rewrite a provider dialect makes, each undone by restore.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum AdaptationKind {
    /// An optional property made required, with `null` added; restore drops a `null`.
    NullForAbsent,
    /// A map written as a list of `{"key", "value"}` entries; restore rebuilds the object.
    MapAsEntries,
    /// Any value, or a free-form object, written as a string holding JSON text; restore parses it.
    JsonText,
    /// A root that is not an object, wrapped as `{"value": ...}`; restore unwraps it.
    WrappedRoot,
    /// A tuple written as an object with keys `"0"`, `"1"`, ...; restore rebuilds the array.
    TupleAsObject,
    /// Enum or const values the provider cannot list, written as strings of their JSON text.
    EnumAsText,
    /// An assertion the provider does not enforce, stated in the description and checked by restore.
    MovedCheck,
    /// An optional property's `null`, which reads as absent, left out of its type (fewer unions,
    /// for Anthropic's limit): absent stands for it, and the forward map leaves a `null` out.
    AbsentForNull,
    /// A property key the provider refuses, sent under another name (see
    /// [`RestorePlan::renamed_keys`](super::RestorePlan::renamed_keys)); restore maps it back.
    RenamedKey,
    /// A part of the schema past a provider's limit (a recursive reference past the recursion
    /// depth the caller set), written as a string of JSON text whose description states the
    /// subschema; restore parses it and checks it against the original subschema.
    SchemaText,
    /// A property past a provider's count limits (Anthropic's 24 optional or 16 union
    /// properties, OpenAI's 5,000 properties or 1,000 enum values), folded with the others past
    /// it into one property holding their JSON text; restore parses it, checks each against its
    /// original subschema and puts it back.
    Folded,
}

impl AdaptationKind {
    /// A short name: `null-for-absent`, `map-as-entries`, `json-text`, `wrapped-root`,
    /// `tuple-as-object`, `enum-as-text`, `moved-check`, `absent-for-null`, `renamed-key`,
    /// `schema-text`, `folded`.
    pub fn as_str(self) -> &'static str {
        match self {
            AdaptationKind::NullForAbsent => "null-for-absent",
            AdaptationKind::MapAsEntries => "map-as-entries",
            AdaptationKind::JsonText => "json-text",
            AdaptationKind::WrappedRoot => "wrapped-root",
            AdaptationKind::TupleAsObject => "tuple-as-object",
            AdaptationKind::EnumAsText => "enum-as-text",
            AdaptationKind::MovedCheck => "moved-check",
            AdaptationKind::AbsentForNull => "absent-for-null",
            AdaptationKind::RenamedKey => "renamed-key",
            AdaptationKind::SchemaText => "schema-text",
            AdaptationKind::Folded => "folded",
        }
    }
}

impl fmt::Display for Adaptation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` at `{}`: {}", self.keyword, self.pointer, self.kind.as_str())
    }
}
