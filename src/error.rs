//! Errors, one enum per concern.
//!
//! - [`SchemaGenerationError`]: the pipeline could not turn a type into a schema a model may be
//!   told (an untyped `Any` where a value is required, an unknown `exclude` name, a schema over
//!   `max_bytes`, nesting past the depth budget, a malformed schema handed in by the user).
//! - [`CapabilityError`]: one thing a [dialect](crate::dialect) cannot express; a dialect reports
//!   every one it finds, gathered in [`CapabilityErrors`].
//! - [`ForeignSchemaError`](crate::ForeignSchemaError) (in [`foreign`](crate::foreign)): a
//!   foreign schema that [`self_contained_input_schema`](crate::self_contained_input_schema)
//!   cannot make self-contained.
//! - [`Error`]: what [`schema_for`](crate::schema_for) returns, one of the first two.
//! - [`DecodeError`]: a model's arguments that [`decode`](crate::decode) cannot turn into the
//!   type (restore's [`ArgumentsError`](crate::ArgumentsError) carries it).
//!
//! Every error says where: a JSON pointer into the schema (RFC 6901, `""` for the root) and,
//! where the schema came from a Rust type, the Rust field path (`Itinerary.stops[].extra`).
//! Messages are lowercase, name identifiers in backticks and end with the fix when there is one.

use std::fmt;

/// What [`schema_for`](crate::schema_for) and [`SchemaOptions`](crate::SchemaOptions) return on
/// failure.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The type could not be described (see [`SchemaGenerationError`]).
    #[error(transparent)]
    Generation(#[from] SchemaGenerationError),
    /// The chosen dialect cannot express the schema; every violation is listed.
    #[error(transparent)]
    Capability(#[from] CapabilityErrors),
}

impl Error {
    /// The capability errors, when this is a dialect failure.
    pub fn capability_errors(&self) -> &[CapabilityError] {
        match self {
            Error::Capability(errors) => errors.as_slice(),
            Error::Generation(_) => &[],
        }
    }
}

/// Shown after a pointer when a Rust field path is known: ` (field `Itinerary.stops[]`)`.
pub(crate) struct FieldSuffix<'a>(pub(crate) &'a Option<String>);

impl fmt::Display for FieldSuffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(field) if !field.is_empty() => write!(f, " (field `{field}`)"),
            _ => Ok(()),
        }
    }
}

/// The pipeline refused to describe a type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemaGenerationError {
    /// A position where the model must send a value accepts any JSON value (`true`, `{}`, or a
    /// schema with only annotations), as `serde_json::Value` generates (see
    /// [`RejectAny`](crate::passes::RejectAny)).
    #[error(
        "schema at `{pointer}`{} accepts any value ({position}), and the model must send one there \
         with no shape to go by: {}",
        FieldSuffix(field),
        untyped_fix(position, *origin)
    )]
    UntypedAny {
        /// JSON pointer of the untyped schema.
        pointer: String,
        /// Rust field path, where known.
        field: Option<String>,
        /// Why a value must be sent there: `the root`, `a required property`, `a tuple element`,
        /// `array items` or `map values` (a minimum count asks for them), `a union member`.
        position: &'static str,
        /// The language of the fix ([`Origin`](crate::Origin)).
        origin: crate::hint::Origin,
    },
    /// An `exclude` name that is not a property of the root object.
    #[error(
        "cannot exclude `{name}`: the root schema has no such property (it has {}); a typo here \
         would let the model fill a value the caller meant to inject",
        list_or_none(available)
    )]
    UnknownExclude {
        /// The name passed to [`SchemaOptions::exclude`](crate::SchemaOptions::exclude).
        name: String,
        /// The root's properties, sorted.
        available: Vec<String>,
    },
    /// `exclude` was used on a schema whose root is not an object with `properties`.
    #[error("cannot exclude `{name}`: the root schema is not an object with `properties`")]
    ExcludeOnNonObject {
        /// The name passed to `exclude`.
        name: String,
    },
    /// The canonical bytes are over the `max_bytes` budget.
    #[error(
        "schema is {actual} bytes in canonical form, over the budget of {max} bytes; a truncated \
         schema would describe another type, so split the type or raise `max_bytes`"
    )]
    TooLarge {
        /// Canonical size in bytes.
        actual: usize,
        /// The budget.
        max: usize,
    },
    /// Subschemas nest deeper than the depth budget.
    #[error(
        "schema nests deeper than {max_depth} levels at `{pointer}`{}; raise `max_depth` if the \
         type really is this deep",
        FieldSuffix(field)
    )]
    TooDeep {
        /// Where the budget ran out.
        pointer: String,
        /// Rust field path, where known.
        field: Option<String>,
        /// The budget.
        max_depth: usize,
    },
    /// The schema handed to the pipeline is not well-formed JSON Schema.
    #[error("malformed schema at `{pointer}`: {message}")]
    Malformed {
        /// Where.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// serde reads this part of the type in a way no schema here can state exactly (an
    /// internally tagged variant whose content judges keys it does not declare, in a way the tag
    /// cannot be merged into; see [`MergeTags`](crate::passes::MergeTags)).
    #[error("schema at `{pointer}`{} cannot state exactly what serde reads: {reason}", FieldSuffix(field))]
    Unrepresentable {
        /// Where.
        pointer: String,
        /// Rust field path, where known.
        field: Option<String>,
        /// What serde reads, why the schema cannot say it, and the fix.
        reason: String,
    },
    /// schemars could not produce a schema (its `Schema` did not convert to JSON).
    #[error("schemars could not generate a schema for `{type_name}`: {message}")]
    Schemars {
        /// The Rust type.
        type_name: String,
        /// schemars' or serde_json's message.
        message: String,
    },
}

impl SchemaGenerationError {
    /// The JSON pointer the error is about, where it has one.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            SchemaGenerationError::UntypedAny { pointer, .. }
            | SchemaGenerationError::TooDeep { pointer, .. }
            | SchemaGenerationError::Unrepresentable { pointer, .. }
            | SchemaGenerationError::Malformed { pointer, .. } => Some(pointer),
            SchemaGenerationError::UnknownExclude { .. } => Some("/properties"),
            SchemaGenerationError::ExcludeOnNonObject { .. } | SchemaGenerationError::TooLarge { .. } => {
                Some("")
            }
            SchemaGenerationError::Schemars { .. } => None,
        }
    }

    /// The Rust field path the error is about, where known.
    pub fn field(&self) -> Option<&str> {
        match self {
            SchemaGenerationError::UntypedAny { field, .. }
            | SchemaGenerationError::TooDeep { field, .. }
            | SchemaGenerationError::Unrepresentable { field, .. } => field.as_deref(),
            _ => None,
        }
    }
}

/// The fix for an [`SchemaGenerationError::UntypedAny`] at `position`.
fn untyped_fix(position: &str, origin: crate::hint::Origin) -> &'static str {
    use crate::hint::{Advice, Untyped};
    match position {
        "a required property" => Advice::Untyped(Untyped::RequiredProperty).text(origin),
        "a union member" => Advice::Untyped(Untyped::UnionMember).text(origin),
        "a tuple element" => "declare a type instead for this element",
        "array items" | "map values" => {
            "declare a type instead for the entries, or let the collection be empty"
        }
        _ => Advice::Untyped(Untyped::Other).text(origin),
    }
}

fn list_or_none(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
    }
}

/// One thing a dialect cannot express, found when the schema is built (`SchemaOptions::check`
/// builds every tool at start-up).
///
/// A dialect never loosens a schema to make it fit a provider: where it cannot keep the meaning it
/// reports one of these, and [`schema_for`](crate::schema_for) fails with all of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CapabilityError {
    /// A keyword the dialect forbids is present after `adapt`.
    #[error(
        "dialect `{dialect}` does not accept keyword `{keyword}` at `{pointer}`{}{}",
        FieldSuffix(field),
        Hint(hint)
    )]
    ForbiddenKeyword {
        /// The dialect's name.
        dialect: String,
        /// The keyword.
        keyword: String,
        /// Where it appeared.
        pointer: String,
        /// Rust field path, where known.
        field: Option<String>,
        /// How to avoid it, where known.
        hint: Option<String>,
    },
    /// The dialect cannot express this part of the schema without changing what it accepts.
    #[error(
        "dialect `{dialect}` cannot express `{keyword}` at `{pointer}`{}: {reason}{}",
        FieldSuffix(field),
        Hint(hint)
    )]
    Unsupported {
        /// The dialect's name.
        dialect: String,
        /// The keyword or construct (`oneOf`, `required`, `$ref`, ...).
        keyword: String,
        /// Where.
        pointer: String,
        /// Rust field path, where known.
        field: Option<String>,
        /// Why it cannot be expressed.
        reason: String,
        /// How to change the type so that it can, where known.
        hint: Option<String>,
    },
    /// The schema is recursive and the dialect cannot express recursion (it inlines every
    /// reference, or the provider refuses cycles).
    #[error(
        "dialect `{dialect}` cannot express the recursive type `{type_name}` (the reference at \
         `{pointer}` leads back to it): break the cycle, e.g. with a fixed number of nesting levels, or \
         use a dialect that keeps recursive `$ref`s (`json-schema`, `openai-strict`)"
    )]
    Recursive {
        /// The dialect's name.
        dialect: String,
        /// The definition that refers back to itself.
        type_name: String,
        /// Where the cycle closes.
        pointer: String,
    },
    /// Inlining nests deeper than the dialect allows.
    #[error(
        "dialect `{dialect}` allows nesting of at most {max_depth} levels; the schema reaches \
         depth {depth} at `{pointer}`"
    )]
    TooDeep {
        /// The dialect's name.
        dialect: String,
        /// The depth reached.
        depth: usize,
        /// The dialect's limit.
        max_depth: usize,
        /// Where.
        pointer: String,
    },
    /// A provider limit (number of properties, enum values, total string length, ...) is exceeded.
    #[error(
        "dialect `{dialect}` allows at most {max} {limit}; the schema has {actual} (at `{pointer}`){}",
        Hint(hint)
    )]
    LimitExceeded {
        /// The dialect's name.
        dialect: String,
        /// What is counted, in words (`object properties in total`).
        limit: String,
        /// The count in the schema.
        actual: usize,
        /// The provider's maximum.
        max: usize,
        /// Where (the root for totals).
        pointer: String,
        /// How to come within the limit, where known.
        hint: Option<String>,
    },
}

impl CapabilityError {
    /// The dialect that reported the error.
    pub fn dialect(&self) -> &str {
        match self {
            CapabilityError::ForbiddenKeyword { dialect, .. }
            | CapabilityError::Unsupported { dialect, .. }
            | CapabilityError::Recursive { dialect, .. }
            | CapabilityError::TooDeep { dialect, .. }
            | CapabilityError::LimitExceeded { dialect, .. } => dialect,
        }
    }

    /// The JSON pointer the error is about.
    pub fn pointer(&self) -> &str {
        match self {
            CapabilityError::ForbiddenKeyword { pointer, .. }
            | CapabilityError::Unsupported { pointer, .. }
            | CapabilityError::Recursive { pointer, .. }
            | CapabilityError::TooDeep { pointer, .. }
            | CapabilityError::LimitExceeded { pointer, .. } => pointer,
        }
    }

    /// The keyword the error is about, where there is one.
    pub fn keyword(&self) -> Option<&str> {
        match self {
            CapabilityError::ForbiddenKeyword { keyword, .. }
            | CapabilityError::Unsupported { keyword, .. } => Some(keyword),
            CapabilityError::Recursive { .. } => Some("$ref"),
            CapabilityError::TooDeep { .. } | CapabilityError::LimitExceeded { .. } => None,
        }
    }

    /// The Rust field path, where known.
    pub fn field(&self) -> Option<&str> {
        match self {
            CapabilityError::ForbiddenKeyword { field, .. } | CapabilityError::Unsupported { field, .. } => {
                field.as_deref()
            }
            _ => None,
        }
    }

    /// Fills in the Rust field path from the pointer, for errors that carry one.
    pub(crate) fn with_field(mut self, root_name: Option<&str>) -> Self {
        match &mut self {
            CapabilityError::ForbiddenKeyword { pointer, field, .. }
            | CapabilityError::Unsupported { pointer, field, .. }
                if field.is_none() =>
            {
                *field = crate::pointer::field_path(root_name, pointer);
            }
            _ => {}
        }
        self
    }
}

struct Hint<'a>(&'a Option<String>);

impl fmt::Display for Hint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
        }
    }
}

/// Every [`CapabilityError`] one dialect found in one schema, in pointer order, so that a user
/// fixes them in one go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapabilityErrors {
    errors: Vec<CapabilityError>,
}

impl CapabilityErrors {
    /// Gathers errors; `None` when there are none.
    pub fn from_vec(errors: Vec<CapabilityError>) -> Option<Self> {
        if errors.is_empty() { None } else { Some(CapabilityErrors { errors }) }
    }

    /// The errors.
    pub fn as_slice(&self) -> &[CapabilityError] {
        &self.errors
    }

    /// The errors, in order (as `&errors` iterates them).
    pub fn iter(&self) -> std::slice::Iter<'_, CapabilityError> {
        self.errors.iter()
    }

    /// The errors, owned.
    pub fn into_vec(self) -> Vec<CapabilityError> {
        self.errors
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.errors.len()
    }

    /// Never true for a value built by [`CapabilityErrors::from_vec`].
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }
}

impl fmt::Display for CapabilityErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                let dialect = many.first().map_or("?", CapabilityError::dialect);
                write!(f, "dialect `{dialect}` cannot express {} parts of the schema:", many.len())?;
                for e in many {
                    write!(f, "\n- {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for CapabilityErrors {}

impl<'a> IntoIterator for &'a CapabilityErrors {
    type Item = &'a CapabilityError;
    type IntoIter = std::slice::Iter<'a, CapabilityError>;
    fn into_iter(self) -> Self::IntoIter {
        self.errors.iter()
    }
}

/// Why a model's arguments could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The model's arguments are not a JSON object.
    #[error("tool arguments must be a JSON object, got {found}")]
    NotAnObject {
        /// What was sent instead (`an array`, `a string`, ...).
        found: &'static str,
    },
    /// The model sent a property the caller injects.
    #[error(
        "the model sent `{name}`, which the caller injects: the call is refused rather than let \
         the model choose that value"
    )]
    ExcludedKeySent {
        /// The excluded property's name.
        name: String,
    },
    /// The caller did not supply a value for an excluded property.
    #[error("no injected value for excluded property `{name}`: pass one in `injected` (`null` for none)")]
    MissingInjected {
        /// The excluded property's name.
        name: String,
    },
    /// The caller injected a property the schema does not exclude.
    #[error(
        "`{name}` is injected but not excluded from the schema: the model is told about it and \
         may send it too; add it to `exclude`"
    )]
    NotExcluded {
        /// The injected property's name.
        name: String,
    },
    /// The merged arguments do not deserialise into the type.
    #[error("tool arguments do not match the type: {message}")]
    Deserialize {
        /// serde's message (it names the field).
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untyped_any_names_field_pointer_and_fix() {
        let e = SchemaGenerationError::UntypedAny {
            pointer: "/properties/extra".into(),
            field: Some("Itinerary.extra".into()),
            position: "a required property",
            origin: crate::hint::Origin::Rust,
        };
        let msg = e.to_string();
        assert!(msg.starts_with("schema at `/properties/extra` (field `Itinerary.extra`)"), "{msg}");
        assert!(msg.contains("declare a type instead"), "{msg}");
    }

    #[test]
    fn exclude_errors_point_at_properties_or_at_the_root_that_has_none() {
        let unknown = SchemaGenerationError::UnknownExclude { name: "x".into(), available: vec![] };
        assert_eq!(unknown.pointer(), Some("/properties"));
        let non_object = SchemaGenerationError::ExcludeOnNonObject { name: "x".into() };
        assert_eq!(non_object.pointer(), Some(""));
    }

    #[test]
    fn several_capability_errors_are_listed_one_per_line() {
        let one = |k: &str| CapabilityError::ForbiddenKeyword {
            dialect: "no-unions".into(),
            keyword: k.into(),
            pointer: "/x".into(),
            field: None,
            hint: None,
        };
        let errs = CapabilityErrors::from_vec(vec![one("anyOf"), one("oneOf")]).unwrap();
        let msg = errs.to_string();
        assert_eq!(msg.lines().count(), 3, "{msg}");
        assert!(msg.contains("keyword `oneOf` at `/x`"));
        assert!(CapabilityErrors::from_vec(vec![]).is_none());
    }
}
