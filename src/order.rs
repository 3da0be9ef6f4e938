//! The order in which a model generates an object's properties.
//!
//! Providers that constrain generation to a schema write the arguments' keys in a fixed order,
//! and a model reasons in that order: a property generated early cannot use what a later one
//! says. The rule differs per provider:
//!
//! - OpenAI (structured outputs) and Gemini 2.5+ (`gemini-json-schema` too): the order of
//!   `properties` in the schema sent.
//! - Gemini with `propertyOrdering` (written by `gemini-ordered`; Gemini 2.0 needs it): that list.
//! - Anthropic (strict tool use): required properties first, then optional ones, each group in
//!   schema order.
//!
//! [`generation_order`] applies one rule to every object schema with properties;
//! [`ToolSchema::generation_order`](crate::ToolSchema::generation_order) picks the rule from the
//! schema's dialect. "Schema order" is the order `properties` is written in: the map's iteration
//! order (what `serde_json::to_string` writes: sorted by name unless the map preserves insertion
//! order), or with [`KeyOrder::Canonical`] the RFC 8785 order the canonical bytes use.
//!
//! ```
//! use serde_json::json;
//! use toolschema::order::{KeyOrder, OrderRule, generation_order};
//!
//! let schema = json!({"type": "object", "required": ["when"],
//!     "properties": {"note": {"type": "string"}, "when": {"type": "string"}}});
//! let anthropic = generation_order(&schema, OrderRule::RequiredFirst, KeyOrder::AsStored);
//! assert_eq!(anthropic[0].properties, ["when", "note"]);
//! let openai = generation_order(&schema, OrderRule::SchemaOrder, KeyOrder::AsStored);
//! assert_eq!(openai[0].properties, ["note", "when"]);
//! ```

use serde_json::Value;

/// How a provider orders an object's properties when it generates them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OrderRule {
    /// The order of `properties` (OpenAI, Gemini 2.5+, and the default for a dialect with no
    /// provider).
    SchemaOrder,
    /// `propertyOrdering` where an object has one, else the order of `properties` (Gemini).
    PropertyOrdering,
    /// Required properties first, then optional ones, each group in the order of `properties`
    /// (Anthropic).
    RequiredFirst,
}

impl OrderRule {
    /// The rule of the provider a built-in dialect is written for: `anthropic-strict` →
    /// [`RequiredFirst`](Self::RequiredFirst), `gemini` and `gemini-ordered` →
    /// [`PropertyOrdering`](Self::PropertyOrdering), anything else (`gemini-json-schema`, which
    /// writes no `propertyOrdering`, included) → [`SchemaOrder`](Self::SchemaOrder).
    pub fn for_dialect(dialect: &str) -> OrderRule {
        match dialect {
            "anthropic-strict" => OrderRule::RequiredFirst,
            "gemini" | "gemini-ordered" => OrderRule::PropertyOrdering,
            _ => OrderRule::SchemaOrder,
        }
    }
}

/// Which order "schema order" means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyOrder {
    /// The `properties` map's iteration order: what serde_json writes for this value.
    AsStored,
    /// RFC 8785 order (UTF-16 code units), as in [`crate::canonical`] bytes.
    Canonical,
}

/// One object schema's properties in generation order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectOrder {
    /// The object schema's JSON pointer in the schema (`""` for the root).
    pub pointer: String,
    /// Its property names, in the order the model generates them.
    pub properties: Vec<String>,
}

/// Every object schema with at least one property, top-down, with its properties in the order
/// `rule` generates them. Subschemas deeper than the default depth budget are not listed.
pub fn generation_order(schema: &Value, rule: OrderRule, keys: KeyOrder) -> Vec<ObjectOrder> {
    let mut found = Vec::new();
    let _ = crate::walk::visit_all(schema, crate::walk::Depth::DEFAULT_MAX, &mut |ptr, node| {
        if let Some(Value::Object(props)) = node.get("properties")
            && !props.is_empty()
        {
            let properties = order_of(node, props, rule, keys);
            found.push(ObjectOrder { pointer: ptr.as_str().to_owned(), properties });
        }
        true
    });
    found
}

fn order_of(
    node: &Value,
    props: &serde_json::Map<String, Value>,
    rule: OrderRule,
    keys: KeyOrder,
) -> Vec<String> {
    let mut names: Vec<String> = props.keys().cloned().collect();
    if keys == KeyOrder::Canonical {
        names.sort_by(|a, b| crate::canonical::cmp_utf16(a, b));
    }
    match rule {
        OrderRule::SchemaOrder => names,
        OrderRule::PropertyOrdering => match node.get("propertyOrdering") {
            Some(Value::Array(listed)) => {
                listed.iter().filter_map(Value::as_str).map(str::to_owned).collect()
            }
            _ => names,
        },
        OrderRule::RequiredFirst => {
            let required: Vec<&str> = match node.get("required") {
                Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let (mut first, rest): (Vec<String>, Vec<String>) =
                names.into_iter().partition(|n| required.contains(&n.as_str()));
            first.extend(rest);
            first
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn property_ordering_overrides_the_map_order_for_gemini_only() {
        let s = json!({"properties": {"a": {}, "b": {}}, "propertyOrdering": ["b", "a"]});
        assert_eq!(
            generation_order(&s, OrderRule::PropertyOrdering, KeyOrder::AsStored)[0].properties,
            ["b", "a"]
        );
        assert_eq!(
            generation_order(&s, OrderRule::SchemaOrder, KeyOrder::AsStored)[0].properties,
            ["a", "b"]
        );
    }

    #[test]
    fn required_first_keeps_schema_order_within_each_group() {
        let s = json!({"properties": {"a": {}, "b": {}, "c": {}, "d": {}}, "required": ["d", "b"]});
        let got = generation_order(&s, OrderRule::RequiredFirst, KeyOrder::AsStored);
        assert_eq!(got[0].properties, ["b", "d", "a", "c"]);
    }

    #[test]
    fn nested_objects_are_listed_with_their_pointer() {
        let s = json!({"properties": {"x": {"type": "object", "properties": {"q": {}, "p": {}}}},
                       "$defs": {"T": {"properties": {"z": {}}}}});
        // Canonical: the map's own order is insertion order under `preserve_order`.
        let got = generation_order(&s, OrderRule::SchemaOrder, KeyOrder::Canonical);
        let pointers: Vec<&str> = got.iter().map(|o| o.pointer.as_str()).collect();
        assert_eq!(pointers, ["", "/$defs/T", "/properties/x"]);
        assert_eq!(got[2].properties, ["p", "q"]);
    }

    #[test]
    fn canonical_key_order_sorts_by_utf16_code_units() {
        // U+FF5E sorts after U+1F600 by UTF-16 code units (0xD83D...) but before it by bytes.
        let s = json!({"properties": {"\u{ff5e}": {}, "\u{1f600}": {}}});
        let canonical = generation_order(&s, OrderRule::SchemaOrder, KeyOrder::Canonical);
        assert_eq!(canonical[0].properties, ["\u{1f600}", "\u{ff5e}"]);
    }
}
