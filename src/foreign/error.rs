//! [`ForeignSchemaError`]: why a foreign schema could not be made self-contained.

use crate::refs::RefError;

/// Why [`self_contained_input_schema`](crate::self_contained_input_schema) refused a schema.
///
/// Every variant names the tool and the JSON pointer (RFC 6901, `""` for the root) of the place
/// in the *input* document that is at fault; a reference error also names the reference.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForeignSchemaError {
    /// The root is not a JSON object (an array, a string, `null`, or the boolean schema `true`).
    #[error(
        "tool `{tool}`: input schema at `{pointer}` is {found}, not an object; a tool's \
         arguments are a JSON object, so pass an object schema (`{{\"type\": \"object\", ...}}`)"
    )]
    NotAnObject {
        /// The tool.
        tool: String,
        /// Where (the root, `""`).
        pointer: String,
        /// What was found instead (`an array`, `null`, ...).
        found: &'static str,
    },
    /// The root declares a type other than `object`.
    #[error(
        "tool `{tool}`: input schema at `{pointer}` has `type` {found}, not `\"object\"`; a \
         tool's arguments are a JSON object, so wrap the value in an object property"
    )]
    RootNotObject {
        /// The tool.
        tool: String,
        /// Where (the root, `""`).
        pointer: String,
        /// The root's `type`, as JSON.
        found: String,
    },
    /// A keyword holds a value of the wrong shape (`$defs` that is not a map, a `$ref` that is
    /// not a string, `required` that is not a list of strings, ...).
    #[error("tool `{tool}`: malformed input schema at `{pointer}`: {message}")]
    Malformed {
        /// The tool.
        tool: String,
        /// Where the bad value is.
        pointer: String,
        /// What is wrong, and the fix.
        message: String,
    },
    /// A `$ref` that cannot be followed inside the document.
    #[error("tool `{tool}`: cannot inline `$ref` `{reference}` at `{pointer}`: {reason}")]
    Reference {
        /// The tool.
        tool: String,
        /// Where the `$ref` is.
        pointer: String,
        /// The reference, as written.
        reference: String,
        /// Why it cannot be followed.
        reason: RefError,
    },
    /// A `$ref` inside a subschema whose `$id` (draft-04: `id`) changes the base URI it resolves
    /// against: it means a place in that resource, which this crate does not resolve. Inlining it
    /// against the document's root instead would change what the schema accepts.
    #[error(
        "tool `{tool}`: cannot inline `$ref` `{reference}` at `{pointer}`: the `$id` `{id}` at or \
         around it makes it resolve against that URI, not against this document's root, which is \
         the only base references are resolved against here; move what it points at into the \
         root's `$defs` and remove that `$id`"
    )]
    ScopedReference {
        /// The tool.
        tool: String,
        /// Where the `$ref` is.
        pointer: String,
        /// The reference, as written.
        reference: String,
        /// The `$id` that changes its base.
        id: String,
    },
    /// A `$dynamicRef` (2020-12) or `$recursiveRef` (2019-09): which schema it means is decided
    /// while validating, by the schemas it is reached through, so no self-contained copy can
    /// hold it.
    #[error(
        "tool `{tool}`: cannot inline `{keyword}` `{reference}` at `{pointer}`: a dynamic \
         reference is resolved while validating, through the schemas it is reached from, so it has \
         no one target to inline; write a `$ref` to the definition it means"
    )]
    DynamicReference {
        /// The tool.
        tool: String,
        /// Where the keyword is.
        pointer: String,
        /// `$dynamicRef` or `$recursiveRef`.
        keyword: &'static str,
        /// Its value, as written (JSON text where it is not a string).
        reference: String,
    },
    /// A `type` names no JSON Schema type (`"any"`, `"String"`, `"long"`): only the seven JSON
    /// types, and BFCL's Python spellings `dict`, `float` and `tuple` (read as `object`,
    /// `number` and `array`), are type names.
    #[error(
        "tool `{tool}`: `type` at `{pointer}` is `{name}`, which is not a JSON Schema type; {fix}",
        fix = type_fix(name)
    )]
    UnknownType {
        /// The tool.
        tool: String,
        /// Where the name is: the `type` keyword, or its entry in a list of types.
        pointer: String,
        /// The name as written.
        name: String,
    },
    /// A recursion point whose definition has no JSON type that could be written there.
    #[error(
        "tool `{tool}`: `$ref` `{reference}` at `{pointer}` recurs into its own expansion, and \
         no JSON type can be inferred for it, so the point of recursion would accept any value; \
         give the definition a `type`"
    )]
    UntypedRecursion {
        /// The tool.
        tool: String,
        /// Where the recurring `$ref` is.
        pointer: String,
        /// The reference, as written.
        reference: String,
    },
    /// The self-contained schema would be larger than the size budget.
    #[error(
        "tool `{tool}`: the schema at `{pointer}` would be {size} bytes or more (compact JSON) \
         once self-contained, over the budget of {max_bytes} bytes; definitions used in many \
         places are copied into each place, so use them in fewer places or raise `max_bytes`"
    )]
    TooLarge {
        /// The tool.
        tool: String,
        /// Where (the root, `""`: the size is the whole output's).
        pointer: String,
        /// The size reached (a lower bound when the expansion was refused before it was built).
        size: u64,
        /// The budget.
        max_bytes: usize,
    },
    /// Subschemas, counting `$ref` hops, nest deeper than the depth budget.
    #[error(
        "tool `{tool}`: input schema nests deeper than {max_depth} levels (counting `$ref` hops) \
         at `{pointer}`; raise `max_depth` if the schema really is this deep"
    )]
    TooDeep {
        /// The tool.
        tool: String,
        /// Where the budget ran out.
        pointer: String,
        /// The budget.
        max_depth: usize,
    },
}

impl ForeignSchemaError {
    /// The tool the error is about.
    pub fn tool(&self) -> &str {
        match self {
            ForeignSchemaError::NotAnObject { tool, .. }
            | ForeignSchemaError::RootNotObject { tool, .. }
            | ForeignSchemaError::Malformed { tool, .. }
            | ForeignSchemaError::Reference { tool, .. }
            | ForeignSchemaError::ScopedReference { tool, .. }
            | ForeignSchemaError::DynamicReference { tool, .. }
            | ForeignSchemaError::UnknownType { tool, .. }
            | ForeignSchemaError::UntypedRecursion { tool, .. }
            | ForeignSchemaError::TooLarge { tool, .. }
            | ForeignSchemaError::TooDeep { tool, .. } => tool,
        }
    }

    /// The JSON pointer, into the input schema, the error is about.
    pub fn pointer(&self) -> &str {
        match self {
            ForeignSchemaError::NotAnObject { pointer, .. }
            | ForeignSchemaError::RootNotObject { pointer, .. }
            | ForeignSchemaError::Malformed { pointer, .. }
            | ForeignSchemaError::Reference { pointer, .. }
            | ForeignSchemaError::ScopedReference { pointer, .. }
            | ForeignSchemaError::DynamicReference { pointer, .. }
            | ForeignSchemaError::UnknownType { pointer, .. }
            | ForeignSchemaError::UntypedRecursion { pointer, .. }
            | ForeignSchemaError::TooLarge { pointer, .. }
            | ForeignSchemaError::TooDeep { pointer, .. } => pointer,
        }
    }

    /// The `$ref` the error is about, where there is one.
    pub fn reference(&self) -> Option<&str> {
        match self {
            ForeignSchemaError::Reference { reference, .. }
            | ForeignSchemaError::ScopedReference { reference, .. }
            | ForeignSchemaError::DynamicReference { reference, .. }
            | ForeignSchemaError::UntypedRecursion { reference, .. } => Some(reference),
            _ => None,
        }
    }

    /// A short stable name for the kind of error (`reference`, `too-large`, ...), for tables and
    /// logs.
    pub fn kind(&self) -> &'static str {
        match self {
            ForeignSchemaError::NotAnObject { .. } => "not-an-object",
            ForeignSchemaError::RootNotObject { .. } => "root-not-object",
            ForeignSchemaError::Malformed { .. } => "malformed",
            ForeignSchemaError::Reference { reason: RefError::External(_), .. } => "external-reference",
            ForeignSchemaError::Reference { reason: RefError::Missing(_), .. } => "missing-reference",
            ForeignSchemaError::Reference { .. } => "malformed-reference",
            ForeignSchemaError::ScopedReference { .. } => "scoped-reference",
            ForeignSchemaError::DynamicReference { .. } => "dynamic-reference",
            ForeignSchemaError::UnknownType { .. } => "unknown-type",
            ForeignSchemaError::UntypedRecursion { .. } => "untyped-recursion",
            ForeignSchemaError::TooLarge { .. } => "too-large",
            ForeignSchemaError::TooDeep { .. } => "too-deep",
        }
    }
}

/// What to write instead of a `type` name that is no JSON Schema type: the JSON name it spells
/// in another case (`String`), or the one a common programming-language name stands for
/// (`long`, `HashMap`); `any` is written by leaving `type` out. Only a hint for the message:
/// what a name is read as is [`JsonType::read`](crate::JsonType::read)'s to say.
fn type_fix(name: &str) -> String {
    const LIST: &str = "`object`, `array`, `string`, `number`, `integer`, `boolean` or `null` (or a \
                        list of them)";
    let lower = name.to_ascii_lowercase();
    let hint = match lower.as_str() {
        "any" | "mixed" | "unknown" => return "leave `type` out for a value of any type".to_owned(),
        "int" | "long" | "short" | "byte" | "int32" | "int64" | "bigint" => "integer",
        "double" | "decimal" | "real" => "number",
        "str" | "char" | "text" => "string",
        "bool" => "boolean",
        "list" | "arraylist" | "set" | "vec" => "array",
        "map" | "hashmap" | "record" => "object",
        "none" | "nil" => "null",
        other => match crate::vocab::json_type::JsonType::read(other) {
            Some(t) => t.as_str(),
            None => return format!("write one of {LIST}"),
        },
    };
    format!("write `{hint}` (the type names are {LIST})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_error_names_tool_pointer_reference_and_reason() {
        let e = ForeignSchemaError::Reference {
            tool: "storyboard".into(),
            pointer: "/properties/shots/items".into(),
            reference: "other.json#/$defs/Shot".into(),
            reason: RefError::External("other.json#/$defs/Shot".into()),
        };
        let msg = e.to_string();
        assert!(msg.starts_with("tool `storyboard`: cannot inline `$ref` `other.json#/$defs/Shot` at `/properties/shots/items`: "), "{msg}");
        assert!(msg.contains("only local references"), "{msg}");
        assert_eq!(e.kind(), "external-reference");
        assert_eq!(e.reference(), Some("other.json#/$defs/Shot"));
        assert_eq!(e.tool(), "storyboard");
    }

    #[test]
    fn an_unknown_type_error_names_the_name_and_says_what_to_write() {
        let error = |name: &str| ForeignSchemaError::UnknownType {
            tool: "lookup".into(),
            pointer: "/properties/a/type".into(),
            name: name.into(),
        };
        let e = error("String");
        assert_eq!(
            (e.kind(), e.pointer(), e.tool(), e.reference()),
            ("unknown-type", "/properties/a/type", "lookup", None)
        );
        for (name, fix) in [
            ("String", "write `string` (the type names are `object`, "),
            ("long", "write `integer` (the type names are"),
            ("HashMap", "write `object`"),
            ("any", "leave `type` out for a value of any type"),
            (
                "Widget",
                "write one of `object`, `array`, `string`, `number`, `integer`, `boolean` or `null` (or a list of them)",
            ),
        ] {
            let message = error(name).to_string();
            let head = format!(
                "tool `lookup`: `type` at `/properties/a/type` is `{name}`, which is not a JSON Schema type; "
            );
            assert!(message.starts_with(&head), "{message}");
            assert!(message[head.len()..].starts_with(fix), "{message}");
        }
    }
}
