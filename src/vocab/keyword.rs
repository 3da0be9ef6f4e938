//! The keywords the crate decides on by name, in one table: a `match` on the length first, so
//! that most keys of a schema object (`format`, `pattern`, property names) are turned away
//! without a comparison, and the rest compare against one to five constants, which the compiler
//! turns into a few word loads instead of `memcmp` calls. Every walk asks this of every key of
//! every schema object; the walkers, the foreign survey and the `$ref` engine's key reader each
//! give a [`Keyword`] their own role.
//!
//! [`KEYWORDS`] lists the subschema-bearing keywords with their [`Shape`]; a unit test checks the
//! table against it, and against every [`Keyword`]'s spelling.

/// How a keyword holds subschemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The keyword's value is one schema (or, for `items`, possibly an array of schemas).
    Single,
    /// An array of schemas.
    Array,
    /// A map from names to schemas.
    Map,
}

/// Every subschema-bearing keyword and its shape. Sorted by name.
pub const KEYWORDS: &[(&str, Shape)] = &[
    ("$defs", Shape::Map),
    ("additionalItems", Shape::Single),
    ("additionalProperties", Shape::Single),
    ("allOf", Shape::Array),
    ("anyOf", Shape::Array),
    ("contains", Shape::Single),
    ("contentSchema", Shape::Single),
    ("definitions", Shape::Map),
    ("dependencies", Shape::Map),
    ("dependentSchemas", Shape::Map),
    ("else", Shape::Single),
    ("if", Shape::Single),
    ("items", Shape::Single),
    ("not", Shape::Single),
    ("oneOf", Shape::Array),
    ("patternProperties", Shape::Map),
    ("prefixItems", Shape::Array),
    ("properties", Shape::Map),
    ("propertyNames", Shape::Single),
    ("then", Shape::Single),
    ("unevaluatedItems", Shape::Single),
    ("unevaluatedProperties", Shape::Single),
];

/// The meta-data vocabulary (draft 2020-12 §9) and `$comment`: keywords that annotate and never
/// decide whether a value is accepted. Every "is this only an annotation" question in the crate
/// starts from this list.
pub(crate) const META_DATA: &[&str] =
    &["$comment", "default", "deprecated", "description", "examples", "readOnly", "title", "writeOnly"];

/// The content vocabulary (draft 2020-12 §8): annotations only, which a 2020-12 validator does not
/// assert by default. (`contentSchema` also holds a subschema, listed in [`KEYWORDS`].)
pub(crate) const CONTENT: &[&str] = &["contentEncoding", "contentMediaType", "contentSchema"];

/// A keyword some part of the crate decides on by name: the subschema-bearing ones of
/// [`KEYWORDS`], and the few others a reader of schema objects singles out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Keyword {
    If,
    Not,
    Else,
    Then,
    Items,
    AnyOf,
    AllOf,
    OneOf,
    Defs,
    Contains,
    Properties,
    Definitions,
    PrefixItems,
    Dependencies,
    ContentSchema,
    PropertyNames,
    AdditionalItems,
    DependentSchemas,
    UnevaluatedItems,
    PatternProperties,
    AdditionalProperties,
    UnevaluatedProperties,
    /// `id` (a base URI up to draft-04).
    Id,
    /// `$id`.
    DollarId,
    Type,
    Ref,
    Title,
    Required,
    DynamicRef,
    RecursiveRef,
    MinProperties,
    DependentRequired,
}

impl Keyword {
    /// Every keyword, for tests.
    #[cfg(test)]
    pub(crate) const ALL: [Keyword; 32] = {
        use Keyword::*;
        [
            If,
            Not,
            Else,
            Then,
            Items,
            AnyOf,
            AllOf,
            OneOf,
            Defs,
            Contains,
            Properties,
            Definitions,
            PrefixItems,
            Dependencies,
            ContentSchema,
            PropertyNames,
            AdditionalItems,
            DependentSchemas,
            UnevaluatedItems,
            PatternProperties,
            AdditionalProperties,
            UnevaluatedProperties,
            Id,
            DollarId,
            Type,
            Ref,
            Title,
            Required,
            DynamicRef,
            RecursiveRef,
            MinProperties,
            DependentRequired,
        ]
    };

    /// The keyword as schemas spell it.
    #[inline(always)]
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Keyword::If => "if",
            Keyword::Not => "not",
            Keyword::Else => "else",
            Keyword::Then => "then",
            Keyword::Items => "items",
            Keyword::AnyOf => "anyOf",
            Keyword::AllOf => "allOf",
            Keyword::OneOf => "oneOf",
            Keyword::Defs => "$defs",
            Keyword::Contains => "contains",
            Keyword::Properties => "properties",
            Keyword::Definitions => "definitions",
            Keyword::PrefixItems => "prefixItems",
            Keyword::Dependencies => "dependencies",
            Keyword::ContentSchema => "contentSchema",
            Keyword::PropertyNames => "propertyNames",
            Keyword::AdditionalItems => "additionalItems",
            Keyword::DependentSchemas => "dependentSchemas",
            Keyword::UnevaluatedItems => "unevaluatedItems",
            Keyword::PatternProperties => "patternProperties",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::UnevaluatedProperties => "unevaluatedProperties",
            Keyword::Id => "id",
            Keyword::DollarId => "$id",
            Keyword::Type => "type",
            Keyword::Ref => "$ref",
            Keyword::Title => "title",
            Keyword::Required => "required",
            Keyword::DynamicRef => "$dynamicRef",
            Keyword::RecursiveRef => "$recursiveRef",
            Keyword::MinProperties => "minProperties",
            Keyword::DependentRequired => "dependentRequired",
        }
    }

    /// How the keyword holds subschemas, `None` if it holds none (as in [`KEYWORDS`]).
    #[inline(always)]
    pub(crate) const fn shape(self) -> Option<Shape> {
        use Shape::{Array, Map, Single};
        Some(match self {
            Keyword::If
            | Keyword::Not
            | Keyword::Else
            | Keyword::Then
            | Keyword::Items
            | Keyword::Contains
            | Keyword::ContentSchema
            | Keyword::PropertyNames
            | Keyword::AdditionalItems
            | Keyword::UnevaluatedItems
            | Keyword::AdditionalProperties
            | Keyword::UnevaluatedProperties => Single,
            Keyword::AnyOf | Keyword::AllOf | Keyword::OneOf | Keyword::PrefixItems => Array,
            Keyword::Defs
            | Keyword::Properties
            | Keyword::Definitions
            | Keyword::Dependencies
            | Keyword::DependentSchemas
            | Keyword::PatternProperties => Map,
            Keyword::Id
            | Keyword::DollarId
            | Keyword::Type
            | Keyword::Ref
            | Keyword::Title
            | Keyword::Required
            | Keyword::DynamicRef
            | Keyword::RecursiveRef
            | Keyword::MinProperties
            | Keyword::DependentRequired => return None,
        })
    }
}

/// The [`Keyword`] `key` spells, if any: the one length-first table.
#[inline(always)]
#[allow(clippy::enum_glob_use, reason = "a table of names and variants, one per line")]
pub(crate) fn keyword(key: &str) -> Option<Keyword> {
    use Keyword::*;
    Some(match key.len() {
        2 => match key {
            "if" => If,
            "id" => Id,
            _ => return None,
        },
        3 => match key {
            "not" => Not,
            "$id" => DollarId,
            _ => return None,
        },
        4 => match key {
            "type" => Type,
            "$ref" => Ref,
            "else" => Else,
            "then" => Then,
            _ => return None,
        },
        5 => match key {
            "items" => Items,
            "title" => Title,
            "anyOf" => AnyOf,
            "allOf" => AllOf,
            "oneOf" => OneOf,
            "$defs" => Defs,
            _ => return None,
        },
        8 => match key {
            "required" => Required,
            "contains" => Contains,
            _ => return None,
        },
        10 => match key {
            "properties" => Properties,
            _ => return None,
        },
        11 => match key {
            "definitions" => Definitions,
            "prefixItems" => PrefixItems,
            "$dynamicRef" => DynamicRef,
            _ => return None,
        },
        12 => match key {
            "dependencies" => Dependencies,
            _ => return None,
        },
        13 => match key {
            "contentSchema" => ContentSchema,
            "propertyNames" => PropertyNames,
            "minProperties" => MinProperties,
            "$recursiveRef" => RecursiveRef,
            _ => return None,
        },
        15 => match key {
            "additionalItems" => AdditionalItems,
            _ => return None,
        },
        16 => match key {
            "dependentSchemas" => DependentSchemas,
            "unevaluatedItems" => UnevaluatedItems,
            _ => return None,
        },
        17 => match key {
            "patternProperties" => PatternProperties,
            "dependentRequired" => DependentRequired,
            _ => return None,
        },
        20 => match key {
            "additionalProperties" => AdditionalProperties,
            _ => return None,
        },
        21 => match key {
            "unevaluatedProperties" => UnevaluatedProperties,
            _ => return None,
        },
        _ => return None,
    })
}

/// Every keyword of draft 2020-12's vocabularies (core, applicator, unevaluated, validation,
/// meta-data, format-annotation, content), sorted.
pub(crate) const DRAFT_2020_12: &[&str] = &[
    "$anchor",
    "$comment",
    "$defs",
    "$dynamicAnchor",
    "$dynamicRef",
    "$id",
    "$ref",
    "$schema",
    "$vocabulary",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "contains",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "default",
    "dependentRequired",
    "dependentSchemas",
    "deprecated",
    "description",
    "else",
    "enum",
    "examples",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "if",
    "items",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "readOnly",
    "required",
    "then",
    "title",
    "type",
    "unevaluatedItems",
    "unevaluatedProperties",
    "uniqueItems",
    "writeOnly",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_reads_back_from_its_spelling_and_no_near_miss_does() {
        for k in Keyword::ALL {
            let s = k.as_str();
            assert_eq!(keyword(s), Some(k), "{s}");
            assert_eq!(keyword(&s[..s.len() - 1]), None, "{s}");
            assert_eq!(keyword(&format!("{s}s")), None, "{s}");
            assert_eq!(keyword(&s.to_uppercase()), None, "{s}");
        }
    }

    #[test]
    fn the_keywords_with_a_shape_are_keywords_in_order() {
        assert!(KEYWORDS.windows(2).all(|w| w[0].0 < w[1].0));
        let mut with_shape: Vec<(&str, Shape)> =
            Keyword::ALL.iter().filter_map(|k| Some((k.as_str(), k.shape()?))).collect();
        with_shape.sort_by_key(|&(k, _)| k);
        assert_eq!(with_shape, KEYWORDS);
    }
}
