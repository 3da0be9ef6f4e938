//! `JSON_SCHEMA`: draft 2020-12 as the pipeline leaves it, `$defs` and `$ref` intact.

use super::SchemaDialect;

/// The default dialect: JSON Schema draft 2020-12, `$defs` and `$ref` intact, nothing forbidden.
///
/// For anything that accepts full JSON Schema: validators, MCP clients that resolve references,
/// storage. Its name is `json-schema`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct JsonSchema;

/// The [`JsonSchema`] dialect.
pub static JSON_SCHEMA: JsonSchema = JsonSchema;

impl SchemaDialect for JsonSchema {
    fn name(&self) -> &str {
        "json-schema"
    }

    fn adapts(&self) -> bool {
        false
    }

    fn writes_defined_keywords_only(&self) -> bool {
        true
    }
}
