//! Advice in the input's language: an error's fix names the shape to use in the terms of whoever
//! wrote the schema.
//!
//! A schema generated from a Rust type gets Rust advice (`Option<T>`, `#[serde(tag = "type")]`);
//! a schema from elsewhere (an MCP server's `inputSchema`, a file) gets JSON Schema terms
//! (`required`, `additionalProperties`); the Python package asks for Python terms
//! (`Optional[...]`, `dict[str, X]`, `Any`, `list[X]`). The [`Origin`] travels with the options
//! ([`SchemaOptions::origin`](crate::SchemaOptions::origin),
//! [`AdaptContext::origin`](crate::dialect::AdaptContext::origin)); each piece of advice is one
//! `Advice` with its three wordings side by side, so no wording is ever missing one language.

/// Where a schema came from, which decides the language of the advice in its errors.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// A Rust type, through schemars: advice names Rust types and serde attributes.
    Rust,
    /// A schema from elsewhere: advice names JSON Schema keywords.
    #[default]
    JsonSchema,
    /// A schema from the Python package (pydantic models, callables): advice names Python types.
    Python,
}

/// One piece of advice, worded per [`Origin`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Advice {
    /// A root that is not an object.
    WrapRoot,
    /// A union at the root of an MCP tool.
    RootUnionOfObjects,
    /// A composition with no faithful form (`allOf`, `not`, `if`).
    PlainShape,
    /// Assertions beside a reference that cannot merge into it.
    OneDefinition,
    /// Union branches that cannot be told apart.
    TagUnion,
    /// A numeric bound in exact mode.
    Bounds,
    /// An array length in exact mode.
    ArrayLength,
    /// A string length.
    StringLength,
    /// A set (`uniqueItems`).
    Set,
    /// A tuple (`prefixItems`).
    Tuple,
    /// A value of any type, in exact mode.
    AnyValue,
    /// An object without declared properties, in exact mode.
    FreeForm,
    /// An optional property a provider must have required.
    OptionalField,
    /// A property key the provider refuses (characters or length).
    PropertyKey,
    /// A closed object with optional properties, for Gemini.
    OpenObject,
    /// A map where none can be written.
    Map,
    /// A reference that comes back to itself with no value consumed on the way.
    SelfInPlace,
    /// An untyped position the model must fill (reject-any), by position.
    Untyped(Untyped),
    /// Past a provider's count of properties, enum values or characters.
    Smaller,
    /// Past a provider's levels of object nesting.
    Flatter,
    /// Past a provider's count of optional properties.
    FewerOptional,
    /// Past a provider's count of union properties.
    FewerUnions,
}

/// Where an untyped position is, for [`Advice::Untyped`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Untyped {
    RequiredProperty,
    UnionMember,
    Other,
}

impl Advice {
    /// The advice in `origin`'s terms. Each variant's texts sit in the function of its kind; this
    /// match names every variant once, so a new one without texts does not compile.
    pub(crate) fn text(self, origin: Origin) -> &'static str {
        match self {
            Advice::WrapRoot
            | Advice::RootUnionOfObjects
            | Advice::SelfInPlace
            | Advice::PlainShape
            | Advice::OneDefinition
            | Advice::TagUnion => self.shape_text(origin),
            Advice::Smaller | Advice::Flatter | Advice::FewerOptional | Advice::FewerUnions => {
                self.limit_text(origin)
            }
            Advice::Bounds | Advice::ArrayLength | Advice::StringLength | Advice::Set | Advice::Tuple => {
                self.keyword_text(origin)
            }
            Advice::AnyValue
            | Advice::FreeForm
            | Advice::OptionalField
            | Advice::PropertyKey
            | Advice::OpenObject
            | Advice::Map
            | Advice::Untyped(_) => self.object_text(origin),
        }
    }

    /// The advice on the shape of a schema: its root, a loop, a union.
    fn shape_text(self, origin: Origin) -> &'static str {
        use Origin::{JsonSchema as J, Python as P, Rust as R};
        match (self, origin) {
            (Advice::WrapRoot, R) => {
                "wrap the value in a struct with one named field, e.g. `struct Args { value: T }`"
            }
            (Advice::WrapRoot, J) => {
                "make the root an object (`\"type\": \"object\"`) that holds the value under a named property"
            }
            (Advice::WrapRoot, P) => {
                "wrap the value in a model with one field, e.g. `class Args(BaseModel): value: T`"
            }
            (Advice::RootUnionOfObjects, R) => {
                "the root is a union of objects (an enum, or a struct that flattens one): put the enum in a \
                 named field of a struct, e.g. `struct Args { op: Op }` (in a struct, instead of \
                 `#[serde(flatten)]`)"
            }
            (Advice::RootUnionOfObjects, J) => {
                "the root is a union of objects: put the `anyOf` under a named property of an object root"
            }
            (Advice::RootUnionOfObjects, P) => {
                "the root is a union of models: put the union in a named field of a model \
                 (`class Args(BaseModel): action: Cat | Dog`)"
            }
            (Advice::SelfInPlace, R) => {
                "serde cannot read a type that holds itself in the same value either (an untagged variant or a \
                 flattened field of its own type): put it under a named field, a tagged variant or a collection"
            }
            (Advice::SelfInPlace, J) => {
                "give a schema on the loop a `type` or `properties` of its own, or put the reference under \
                 `properties` or `items`"
            }
            (Advice::SelfInPlace, P) => {
                "pydantic cannot validate a model that is itself in the same value either (a union or a type \
                 alias of itself): put it under a field or in a `list`"
            }
            (Advice::PlainShape, R) => "use a plain struct or a tagged enum",
            (Advice::PlainShape, J) => {
                "use plain `properties`, or an `anyOf` of objects told apart by a required property with a `const` value"
            }
            (Advice::PlainShape, P) => {
                "use a plain model, or a union of models told apart by a `Literal` field"
            }
            (Advice::OneDefinition, R) => {
                "describe the value with one struct instead of a reference plus constraints"
            }
            (Advice::OneDefinition, J) => {
                "move the keywords beside the `$ref` into the definition it refers to"
            }
            (Advice::OneDefinition, P) => {
                "describe the value with one model instead of a reference plus constraints"
            }
            (Advice::TagUnion, R) => {
                "tag the enum (`#[serde(tag = \"type\")]`) or give its variants distinct JSON types"
            }
            (Advice::TagUnion, J) => {
                "give each branch a required property with its own `const` value (a tag), or distinct `type`s"
            }
            (Advice::TagUnion, P) => {
                "give each member a `Literal` tag field (`Field(discriminator=...)`), or distinct types"
            }
            (other, _) => unreachable!("{other:?} is not advice of this kind (see `Advice::text`)"),
        }
    }

    /// The advice past a provider's counts and levels.
    fn limit_text(self, origin: Origin) -> &'static str {
        use Origin::{JsonSchema as J, Python as P, Rust as R};
        match (self, origin) {
            (Advice::Smaller, R) => {
                "split the arguments over several tools, or take a long enum as a `String` the code checks"
            }
            (Advice::Smaller, J) => {
                "split the tool into several, or take a long `enum` as a string the tool checks"
            }
            (Advice::Smaller, P) => {
                "split the arguments over several tools, or take a long `Literal` or `Enum` as a `str` the code checks"
            }
            (Advice::Flatter, R) => {
                "nest fewer structs (a field of a struct type can often be `#[serde(flatten)]`), or split the tool"
            }
            (Advice::Flatter, J) => {
                "nest fewer objects (merge an object's properties into its parent), or split the tool"
            }
            (Advice::Flatter, P) => {
                "nest fewer models (move a sub-model's fields into its parent), or split the tool"
            }
            (Advice::FewerOptional, R) => {
                "make more fields required (no `Option`, no `#[serde(default)]`), split the tool, or send fewer \
                 tools in strict mode in one request"
            }
            (Advice::FewerOptional, J) => {
                "list more properties in `required`, split the tool, or send fewer tools in strict mode in one request"
            }
            (Advice::FewerOptional, P) => {
                "give fewer fields a default (a field without one is required), split the tool, or send fewer \
                 tools in strict mode in one request"
            }
            (Advice::FewerUnions, R) => {
                "use fewer fields of an enum or `Option` type (a unit-only enum is no union), split the tool, or \
                 send fewer tools in strict mode in one request"
            }
            (Advice::FewerUnions, J) => {
                "use fewer properties with `anyOf` or a `type` list (an `enum` of strings is no union), split the \
                 tool, or send fewer tools in strict mode in one request"
            }
            (Advice::FewerUnions, P) => {
                "use fewer fields of a union or `Optional` type (a `Literal` is no union), split the tool, or send \
                 fewer tools in strict mode in one request"
            }
            (other, _) => unreachable!("{other:?} is not advice of this kind (see `Advice::text`)"),
        }
    }

    /// The advice on a keyword no encoding carries: bounds, lengths, sets, tuples.
    fn keyword_text(self, origin: Origin) -> &'static str {
        use Origin::{JsonSchema as J, Python as P, Rust as R};
        match (self, origin) {
            (Advice::Bounds, R) => {
                "use the reversible mode (the default), which states the bound in the description and checks it on \
                 restore; or take a `serde_json::Number` and check the range in code (every Rust integer type has \
                 its range as bounds)"
            }
            (Advice::Bounds, J | P) => {
                "use the reversible mode (the default), which states the bound in the description and checks it on \
                 restore; or drop the bound and check the range in code"
            }
            (Advice::ArrayLength, R) => {
                "array lengths cannot be expressed (`[T; N]` fixes one): use `Vec<T>` and check the length in code, \
                 or the reversible mode (the default), which checks it on restore"
            }
            (Advice::ArrayLength, J) => {
                "array lengths cannot be expressed: drop `minItems`/`maxItems` and check the length in code, or \
                 use the reversible mode (the default), which checks it on restore"
            }
            (Advice::ArrayLength, P) => {
                "array lengths cannot be expressed: use `list[X]` without a length and check it in code, or the \
                 reversible mode (the default), which checks it on restore"
            }
            (Advice::StringLength, R) => {
                "string lengths cannot be expressed (`char` has length 1): use `String` and check the length in code"
            }
            (Advice::StringLength, J) => {
                "string lengths cannot be expressed: drop `minLength`/`maxLength` and check the length in code, or \
                 use the reversible mode (the default), which checks it on restore"
            }
            (Advice::StringLength, P) => {
                "string lengths cannot be expressed: use `str` without `min_length`/`max_length` and check it in \
                 code, or the reversible mode (the default), which checks it on restore"
            }
            (Advice::Set, R) => "a set (`HashSet`, `BTreeSet`) cannot be expressed: use `Vec<T>`",
            (Advice::Set, J) => {
                "`uniqueItems` cannot be expressed: drop it, or use the reversible mode (the default), which checks \
                 it on restore"
            }
            (Advice::Set, P) => {
                "a set cannot be expressed: use `list[X]`, or the reversible mode (the default), which checks it on \
                 restore"
            }
            (Advice::Tuple, R) => "a tuple cannot be expressed: use a struct with named fields",
            (Advice::Tuple, J) => {
                "a tuple cannot be expressed: use an object with named properties instead of `prefixItems`"
            }
            (Advice::Tuple, P) => {
                "a tuple cannot be expressed: use a model with named fields instead of `tuple[...]`"
            }
            (other, _) => unreachable!("{other:?} is not advice of this kind (see `Advice::text`)"),
        }
    }

    /// The advice on objects, maps, keys and untyped positions.
    fn object_text(self, origin: Origin) -> &'static str {
        use Origin::{JsonSchema as J, Python as P, Rust as R};
        match (self, origin) {
            (Advice::AnyValue, R) => {
                "declare a concrete type instead of `serde_json::Value`, or use the reversible mode, which writes it \
                 as JSON text"
            }
            (Advice::AnyValue, J) => {
                "give the position a `type`, or use the reversible mode, which writes it as JSON text"
            }
            (Advice::AnyValue, P) => {
                "declare a concrete type instead of `Any`, or use the reversible mode, which writes it as JSON text"
            }
            (Advice::FreeForm, R) => {
                "declare its fields, or use a map (`HashMap<String, V>`); the reversible mode writes it as JSON text"
            }
            (Advice::FreeForm, J) => {
                "declare its `properties`, or give `additionalProperties` a schema (a map); the reversible mode \
                 writes it as JSON text"
            }
            (Advice::FreeForm, P) => {
                "declare its fields (a model), or use `dict[str, X]`; the reversible mode writes it as JSON text"
            }
            (Advice::OptionalField, R) => {
                "make the field `Option<T>` (serde reads null as `None`), or drop `#[serde(default)]` so it is required"
            }
            (Advice::OptionalField, J) => {
                "let the property's schema accept `null` (null then stands for absent), or list it in `required`"
            }
            (Advice::OptionalField, P) => {
                "make the field `Optional[...]` (None stands for absent), or drop its default so it is required"
            }
            (Advice::PropertyKey, R) => {
                "rename the field on the wire to letters, digits, `_`, `.` and `-`, at most 64 characters \
                 (`#[serde(rename = \"...\")]`), or use the reversible mode (the default), which renames it \
                 and maps it back on restore"
            }
            (Advice::PropertyKey, J) => {
                "rename the property to a key of letters, digits, `_`, `.` and `-`, at most 64 characters (in \
                 `properties` and wherever it is named), or use the reversible mode (the default), which renames \
                 it and maps it back on restore"
            }
            (Advice::PropertyKey, P) => {
                "give the field an alias of letters, digits, `_`, `.` and `-`, at most 64 characters \
                 (`Field(alias=...)`), or use the reversible mode (the default), which renames it and maps it \
                 back on restore"
            }
            (Advice::OpenObject, R) => {
                "drop `#[serde(deny_unknown_fields)]`: serde then ignores unknown keys, which Gemini's open object allows"
            }
            (Advice::OpenObject, J) => {
                "drop `additionalProperties: false`: Gemini's open object then takes unknown keys"
            }
            (Advice::OpenObject, P) => {
                "drop `extra=\"forbid\"` from the model's config: Gemini's open object then takes unknown keys"
            }
            (Advice::Map, R) => {
                "a map (`HashMap<String, V>`, `#[serde(flatten)]` of a map) cannot be expressed here: use a list of \
                 entries instead, e.g. `Vec<Entry>` with `struct Entry { key: String, value: V }`"
            }
            (Advice::Map, J) => {
                "a map (`additionalProperties` or `patternProperties` with a schema) cannot be expressed here: use \
                 an array of `{\"key\", \"value\"}` objects instead"
            }
            (Advice::Map, P) => {
                "a map (`dict[str, X]`) cannot be expressed here: use a list of entries instead, e.g. `list[Entry]` \
                 with `class Entry(BaseModel): key: str; value: X`"
            }
            (Advice::Untyped(Untyped::RequiredProperty), R) => {
                "declare a type instead (a struct, an enum, or a map such as `HashMap<String, T>`), or make the \
                 field optional (`Option<T>`)"
            }
            (Advice::Untyped(Untyped::RequiredProperty), J) => {
                "declare a type instead: give it a `type` (an object with `properties`, a scalar, or a map \
                 through `additionalProperties`), or leave it out of `required`"
            }
            (Advice::Untyped(Untyped::RequiredProperty), P) => {
                "declare a type instead of `Any` (a model, a scalar, or `dict[str, X]`), or make the field optional \
                 (`Optional[...]`)"
            }
            (Advice::Untyped(Untyped::UnionMember), R) => {
                "declare a type instead for this variant (a struct or a typed newtype), or remove it: with it the \
                 whole value may be anything"
            }
            (Advice::Untyped(Untyped::UnionMember), J) => {
                "declare a type instead for this branch (give it a `type`), or remove it: with it the whole \
                 value may be anything"
            }
            (Advice::Untyped(Untyped::UnionMember), P) => {
                "declare a type instead for this union member (not `Any`), or remove it: with it the whole \
                 value may be anything"
            }
            (Advice::Untyped(Untyped::Other), R) => "declare a type instead (a struct with named fields)",
            (Advice::Untyped(Untyped::Other), J) => {
                "declare a type instead: give it a `type` (an object with `properties`)"
            }
            (Advice::Untyped(Untyped::Other), P) => "declare a type instead of `Any` (a model with fields)",
            (other, _) => unreachable!("{other:?} is not advice of this kind (see `Advice::text`)"),
        }
    }
}

/// The hint for a keyword the strict dialects refuse or forbid, in `origin`'s terms.
pub(crate) fn for_keyword(keyword: &str, origin: Origin) -> Option<String> {
    let advice = match keyword {
        "uniqueItems" => Advice::Set,
        "prefixItems" => Advice::Tuple,
        "minLength" | "maxLength" => Advice::StringLength,
        "patternProperties" => Advice::Map,
        "allOf" | "not" | "if" | "then" | "else" => Advice::PlainShape,
        _ => return None,
    };
    Some(advice.text(origin).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: &[Advice] = &[
        Advice::WrapRoot,
        Advice::RootUnionOfObjects,
        Advice::PlainShape,
        Advice::OneDefinition,
        Advice::TagUnion,
        Advice::Bounds,
        Advice::ArrayLength,
        Advice::StringLength,
        Advice::Set,
        Advice::Tuple,
        Advice::AnyValue,
        Advice::FreeForm,
        Advice::OptionalField,
        Advice::PropertyKey,
        Advice::OpenObject,
        Advice::Map,
        Advice::SelfInPlace,
        Advice::Untyped(Untyped::RequiredProperty),
        Advice::Untyped(Untyped::UnionMember),
        Advice::Untyped(Untyped::Other),
    ];

    #[test]
    fn advice_for_json_schema_and_python_is_free_of_rust_syntax() {
        for advice in ALL {
            for origin in [Origin::JsonSchema, Origin::Python] {
                let text = advice.text(origin);
                for rust in ["Vec<", "Option<", "#[serde", "HashMap<", "struct ", "serde_json::", "`String`"]
                {
                    assert!(!text.contains(rust), "{advice:?} for {origin:?} says `{rust}`: {text}");
                }
            }
        }
    }

    #[test]
    fn python_advice_speaks_python_where_a_type_is_named() {
        assert!(Advice::OptionalField.text(Origin::Python).contains("Optional[...]"));
        assert!(Advice::Map.text(Origin::Python).contains("dict[str, X]"));
        assert!(Advice::AnyValue.text(Origin::Python).contains("`Any`"));
        assert!(Advice::Set.text(Origin::Python).contains("list[X]"));
        assert!(Advice::OptionalField.text(Origin::Rust).contains("Option<T>"));
    }
}
