#![allow(clippy::pedantic)]
//! What the providers' APIs refuse, as checks over a schema a dialect accepted: the oracle the
//! provider dialects are held to beside the SDK suite (`scripts/provider_sdks.py`), which sees
//! only what the SDKs check.
//!
//! One function per rule; each [`Rule`] carries the provider's own error text and where it was
//! read (a documentation page or a public issue thread), and a schema the rule refuses, so that
//! a test shows every rule can fail. [`violations`] applies every rule of a dialect.

#![allow(dead_code)]

use serde_json::{Map, Value};

/// One rule of one provider's API.
pub struct Rule {
    /// A short name, for failure messages.
    pub name: &'static str,
    /// The dialects whose outputs the provider receives.
    pub dialects: &'static [&'static str],
    /// The provider's own error text.
    pub error: &'static str,
    /// Where the rule and its text come from.
    pub source: &'static str,
    /// A schema the rule refuses (its test that it can fail).
    pub refuses: &'static str,
    /// Every place `schema` breaks the rule, as `pointer: what`.
    pub check: fn(&Value) -> Vec<String>,
}

const OPENAI: &[&str] = &["openai-strict", "openai-agents-mcp"];
const OPENAI_AGENTS_MCP: &[&str] = &["openai-agents-mcp"];
const ANTHROPIC: &[&str] = &["anthropic-strict"];
const GEMINI: &[&str] = &["gemini", "gemini-ordered"];
const GEMINI_JSON: &[&str] = &["gemini-json-schema"];
const MCP: &[&str] = &["mcp", "mcp-self-contained"];
const LLGUIDANCE: &[&str] = &["llguidance"];

/// llguidance's JSON Schema compiler, version 1.9 (`parser/src/json/` of guidance-ai/llguidance).
const LLG_SCHEMA: &str = "https://github.com/guidance-ai/llguidance/blob/main/parser/src/json/schema.rs";
const LLG_NUMERIC: &str = "https://github.com/guidance-ai/llguidance/blob/main/parser/src/json/numeric.rs";
const LLG_DOC: &str = "https://github.com/guidance-ai/llguidance/blob/main/docs/json_schema.md";

const OUTLINES: &[&str] = &["outlines"];

/// outlines-core's JSON Schema to regex compiler, version 0.2.11 (`src/json_schema/` of
/// dottxt-ai/outlines-core); it warns of nothing, so where it ignores a keyword the rule's "error"
/// is what its code does.
const OC_PARSING: &str = "https://github.com/dottxt-ai/outlines-core/blob/0.2.11/src/json_schema/parsing.rs";
const OC_TYPES: &str = "https://github.com/dottxt-ai/outlines-core/blob/0.2.11/src/json_schema/types.rs";

/// Every rule.
pub const RULES: &[Rule] = &[
    Rule {
        name: "openai: the root is an object, not anyOf",
        dialects: OPENAI,
        error: "Root objects must not be `anyOf` and must be an object",
        source: "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas",
        refuses: r#"{"anyOf": [{"type": "string"}]}"#,
        check: root_is_plain_object,
    },
    Rule {
        name: "openai: every object is closed",
        dialects: OPENAI,
        error: "'additionalProperties' is required to be supplied and to be false",
        source: "https://github.com/lastmile-ai/openai-agents-mcp/issues/2",
        refuses: r#"{"type": "object", "properties": {}, "required": []}"#,
        check: objects_closed,
    },
    Rule {
        name: "openai: every property is required",
        dialects: OPENAI,
        error: "'required' is required to be supplied and to be an array including every key in properties",
        source: "https://github.com/0xPlaygrounds/rig/issues/1089",
        refuses: r#"{"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": false}"#,
        check: every_property_required,
    },
    Rule {
        name: "openai: only the keywords strict mode permits",
        dialects: OPENAI,
        error: "In context=('properties', 'note'), 'maxLength' is not permitted",
        source: "https://github.com/jina-ai/node-DeepResearch/issues/79",
        refuses: r#"{"type": "object", "properties": {"note": {"type": "string", "maxLength": 4}}}"#,
        check: openai_keywords,
    },
    Rule {
        name: "openai: nothing beside $ref",
        dialects: OPENAI,
        error: "$ref cannot have keywords {'description'}",
        source: "https://github.com/defog-ai/defog/pull/244",
        refuses: r##"{"$ref": "#/$defs/A", "description": "d"}"##,
        check: ref_alone,
    },
    Rule {
        name: "openai: format from the list",
        dialects: OPENAI,
        error: "'uri' is not a valid format",
        source: "https://github.com/can1357/oh-my-pi/issues/206",
        refuses: r#"{"type": "string", "format": "uri"}"#,
        check: openai_formats,
    },
    Rule {
        name: "openai: every schema has a type, anyOf or $ref",
        dialects: OPENAI,
        error: "schema must have a 'type' key",
        source: "https://github.com/can1357/oh-my-pi/issues/211",
        refuses: r#"{"type": "array", "items": {}}"#,
        check: has_type,
    },
    Rule {
        name: "openai: an array has items",
        dialects: OPENAI,
        error: "In context=('properties', 'texts'), array schema missing items.",
        source: "https://github.com/mark3labs/mcphost/issues/35",
        refuses: r#"{"type": "array"}"#,
        check: array_has_items,
    },
    Rule {
        name: "openai: no lookaround in a pattern",
        dialects: OPENAI,
        error: "Invalid JSON schema: regex lookaround is not supported. Found at $.properties.fileKey.pattern.",
        source: "https://github.com/anomalyco/opencode/issues/32073",
        refuses: r#"{"type": "string", "pattern": "^(?=.*@).+$"}"#,
        check: no_lookaround,
    },
    Rule {
        name: "openai-agents: no $ref in an MCP tool",
        dialects: OPENAI_AGENTS_MCP,
        error: "JSON schema contains a reference whose target was not validated for strict mode.",
        source: "https://github.com/openai/openai-agents-python/blob/main/src/agents/strict_schema.py",
        refuses: r##"{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}"##,
        check: no_refs,
    },
    Rule {
        name: "openai: size limits",
        dialects: OPENAI,
        error: "Objects have limitations on nesting depth and size: up to 5000 object properties total, with up to 10 levels of nesting; 1000 enum values",
        source: "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas",
        refuses: r#"{"type": "object", "properties": {"a": {"enum": [LONG_ENUM]}}}"#,
        check: openai_limits,
    },
    Rule {
        name: "anthropic: no combinator at the top level, and an object root",
        dialects: ANTHROPIC,
        error: "input_schema does not support oneOf, allOf, or anyOf at the top level",
        source: "https://github.com/anthropics/claude-code/issues/5973",
        refuses: r#"{"anyOf": [{"type": "object"}]}"#,
        check: root_is_plain_object,
    },
    Rule {
        name: "anthropic: every object is closed",
        dialects: ANTHROPIC,
        error: "additionalProperties must be explicitly set to false for objects",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"type": "object", "properties": {}}"#,
        check: objects_closed,
    },
    Rule {
        name: "anthropic: no numeric constraints, string lengths or array constraints past minItems 0/1",
        dialects: ANTHROPIC,
        error: "Numerical constraints (minimum, maximum, multipleOf), string constraints (minLength, maxLength), array constraints beyond minItems of 0 or 1 are not supported",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"type": "integer", "minimum": 0}"#,
        check: anthropic_constraints,
    },
    Rule {
        name: "anthropic: format from the list",
        dialects: ANTHROPIC,
        error: "Supported string formats: date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"type": "string", "format": "int32"}"#,
        check: anthropic_formats,
    },
    Rule {
        name: "anthropic: enum of primitives",
        dialects: ANTHROPIC,
        error: "enum (strings, numbers, bools, or nulls only - no complex types)",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"enum": [{"a": 1}]}"#,
        check: primitive_enums,
    },
    Rule {
        name: "anthropic: pattern in the supported regex subset",
        dialects: ANTHROPIC,
        error: "Not supported: backreferences, lookahead/lookbehind, word boundaries, complex quantifiers like {n,m} with large ranges",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"type": "string", "pattern": "^a{1,500}$"}"#,
        check: anthropic_patterns,
    },
    Rule {
        name: "anthropic: no recursion",
        dialects: ANTHROPIC,
        error: "Recursive schemas are not supported",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r##"{"type": "object", "properties": {"next": {"$ref": "#"}}}"##,
        check: no_recursion,
    },
    Rule {
        // On the tool's top-level `properties` only: measured on Bedrock (a refused key nested in
        // an object, in `items` or in a definition passes), and every report names
        // `input_schema.properties`.
        name: "anthropic: top-level property keys match ^[a-zA-Z0-9_.-]{1,64}$",
        dialects: ANTHROPIC,
        error: "tools.83.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
        source: "https://github.com/freee/freee-mcp/issues/35 (and ComposioHQ/composio#3500: `$top`, \
                 `@microsoft.graph.conflictBehavior`; erikmaday/unusual-whales-mcp#57: `rule_name[]`; the depth: \
                 aws-solutions-library-samples/accelerated-intelligent-document-processing-on-aws#709)",
        refuses: r#"{"type": "object", "properties": {"filter[id]": {"type": "string"}}}"#,
        check: anthropic_property_keys,
    },
    Rule {
        name: "anthropic: limits per schema",
        dialects: ANTHROPIC,
        error: "Too many optional parameters (limit 24) / parameters with union types (limit 16)",
        source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
        refuses: r#"{"type": "object", "properties": {MANY_OPTIONAL}}"#,
        check: anthropic_limits,
    },
    Rule {
        name: "gemini: only the Schema proto's fields",
        dialects: GEMINI,
        error: "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[0].parameters': Cannot find field.",
        source: "https://github.com/mem0ai/mem0/issues/1820",
        refuses: r#"{"type": "object", "properties": {}, "additionalProperties": false}"#,
        check: gemini_fields,
    },
    Rule {
        name: "gemini: one type",
        dialects: GEMINI,
        error: "Proto field is not repeating, cannot start list",
        source: "https://github.com/zed-industries/zed/issues/53919",
        refuses: r#"{"type": ["string", "null"]}"#,
        check: single_type,
    },
    Rule {
        name: "gemini: enum of non-empty strings",
        dialects: GEMINI,
        error: "parameters.properties[actions].items.properties[op].enum[3]: cannot be empty",
        source: "https://github.com/Smana/runlore/pull/40",
        refuses: r#"{"type": "string", "enum": ["a", ""]}"#,
        check: gemini_enums,
    },
    Rule {
        name: "gemini: an array has items",
        dialects: GEMINI,
        error: "GenerateContentRequest.tools[0].function_declarations[10].parameters.properties[issues_found].items: missing field.",
        source: "https://github.com/NoeFabris/opencode-antigravity-auth/issues/80",
        refuses: r#"{"type": "array"}"#,
        check: array_has_items,
    },
    Rule {
        name: "gemini: nothing beside anyOf (Vertex AI)",
        dialects: GEMINI,
        error: "other fields alongside any_of",
        source: "https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema",
        refuses: r#"{"anyOf": [{"type": "string"}], "description": "d"}"#,
        check: nothing_beside_any_of,
    },
    Rule {
        name: "gemini: format from the Developer API's list",
        dialects: GEMINI,
        error: "When using the Gemini Developer API, format must be either 'enum' or 'date-time', otherwise requests will fail",
        source: "https://reference.rnfirebase.io/_react-native-firebase/ai/SchemaInterface.html",
        refuses: r#"{"type": "string", "format": "uri"}"#,
        check: gemini_formats,
    },
    Rule {
        name: "gemini-json-schema: only the supported keywords (the model ignores any other)",
        dialects: GEMINI_JSON,
        error: "While the full JSON Schema is not supported, only the following properties are supported: $id, $defs, $ref, $anchor, type, format, title, description, enum (for strings and numbers), items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf (interpreted as anyOf), properties, additionalProperties, required; and the non-standard propertyOrdering",
        source: "https://github.com/googleapis/js-genai/blob/main/src/types.ts",
        refuses: r#"{"type": "object", "properties": {"s": {"type": "string", "maxLength": 4}}}"#,
        check: gemini_json_fields,
    },
    Rule {
        name: "gemini-json-schema: no oneOf (read as anyOf)",
        dialects: GEMINI_JSON,
        error: "oneOf (interpreted the same as anyOf)",
        source: "https://github.com/googleapis/js-genai/blob/main/src/types.ts",
        refuses: r#"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#,
        check: no_one_of,
    },
    Rule {
        name: "gemini-json-schema: enum of strings and numbers",
        dialects: GEMINI_JSON,
        error: "enum (for strings and numbers)",
        source: "https://github.com/googleapis/js-genai/blob/main/src/types.ts",
        refuses: r#"{"type": "boolean", "enum": [true]}"#,
        check: string_and_number_enums,
    },
    Rule {
        name: "gemini-json-schema: nothing beside $ref",
        dialects: GEMINI_JSON,
        error: "$ref 'X' was set alongside unsupported fields. If a schema node has $ref set, then only description and default can be set alongside it",
        source: "https://github.com/anomalyco/opencode/issues/12295",
        refuses: r##"{"$ref": "#/$defs/A", "title": "A"}"##,
        check: ref_alone,
    },
    Rule {
        name: "gemini-json-schema: recursion only within properties that are not required",
        dialects: GEMINI_JSON,
        error: "Recursive references are unrolled to a limited degree and, as such, may only be used within non-required properties. (Nullable properties are not sufficient.)",
        source: "https://github.com/googleapis/js-genai/blob/main/src/types.ts",
        refuses: r##"{"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}, "required": ["next"]}"##,
        check: recursion_through_optional_properties,
    },
    Rule {
        name: "gemini-json-schema: parameters describe an object",
        dialects: GEMINI_JSON,
        error: "parametersJsonSchema: Must describe an object whose properties are the parameters",
        source: "https://github.com/googleapis/js-genai/blob/main/src/types.ts",
        refuses: r#"{"type": "array", "items": {"type": "string"}}"#,
        check: root_type_object,
    },
    Rule {
        name: "gemini-json-schema: format from the guide's list",
        dialects: GEMINI_JSON,
        error: "format: such as date-time, date, time",
        source: "https://ai.google.dev/gemini-api/docs/structured-output#json-schema-support",
        refuses: r#"{"type": "string", "format": "uri"}"#,
        check: gemini_json_formats,
    },
    Rule {
        name: "mcp: the root is an object",
        dialects: MCP,
        error: "inputSchema: { type: \"object\"; properties?: ...; required?: string[] }",
        source: "https://modelcontextprotocol.io/specification/2025-06-18/schema#tool",
        refuses: r#"{"type": "array"}"#,
        check: root_type_object,
    },
    Rule {
        name: "mcp: no boolean subschema under properties (TypeScript SDK)",
        dialects: MCP,
        error: "MCP (stdio): one boolean property schema silently drops ALL tools of the server",
        source: "https://github.com/anthropics/claude-code/issues/92900",
        refuses: r#"{"type": "object", "properties": {"value": true}}"#,
        check: no_boolean_properties,
    },
    Rule {
        name: "mcp: every array has a truthy items (VS Code Copilot Chat)",
        dialects: MCP,
        error: "Failed to validate tool ...: Error: tool parameters array type must have items.",
        source: "https://github.com/confluentinc/mcp-confluent/issues/581",
        refuses: r#"{"type": "object", "properties": {"pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": false}}}"#,
        check: truthy_items,
    },
    Rule {
        name: "gemini: every required name is a declared property",
        dialects: GEMINI,
        error: "Unable to submit request because required fields ['model'] are not defined in the schema properties.",
        source: "https://github.com/google-gemini/gemini-cli/issues/1458",
        refuses: r#"{"type": "object", "properties": {}, "required": ["model"]}"#,
        check: required_declared,
    },
    Rule {
        name: "llguidance: only the keywords it implements (any other is an error, or ignored when lenient)",
        dialects: LLGUIDANCE,
        error: "Unimplemented keys: [\"uniqueItems\"]",
        source: LLG_SCHEMA,
        refuses: r#"{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}"#,
        check: llguidance_unimplemented,
    },
    Rule {
        name: "llguidance: no oneOf unless its branches are provably disjoint (coerce_one_of reads it as anyOf)",
        dialects: LLGUIDANCE,
        error: "oneOf constraints are not supported. Enable 'coerce_one_of' option to approximate oneOf with anyOf",
        source: LLG_DOC,
        refuses: r#"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#,
        check: no_one_of,
    },
    Rule {
        name: "llguidance: format from its list",
        dialects: LLGUIDANCE,
        error: "Unknown format: binary",
        source: LLG_DOC,
        refuses: r#"{"type": "string", "format": "binary"}"#,
        check: llguidance_formats,
    },
    Rule {
        name: "llguidance: minProperties and maxProperties only where every named property is required",
        dialects: LLGUIDANCE,
        error: "min/maxProperties only supported when all keys listed in \"properties\" are required",
        source: LLG_DOC,
        refuses: r#"{"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1}"#,
        check: llguidance_property_counts,
    },
    Rule {
        name: "llguidance: numeric bounds an f64 and an i64 hold exactly (past 2^63 clamped, at -2^63 an error)",
        dialects: LLGUIDANCE,
        error: "Failed to generate regex for integer range: min=Some(-9223372036854775808), max=None",
        source: LLG_NUMERIC,
        refuses: r#"{"type": "integer", "minimum": -9223372036854775808}"#,
        check: llguidance_bounds,
    },
    Rule {
        name: "llguidance: multipleOf a u32 coefficient of a power of ten",
        dialects: LLGUIDANCE,
        error: "Value for 'multipleOf' has too many digits: 100000000000000000000",
        source: LLG_NUMERIC,
        refuses: r#"{"type": "integer", "multipleOf": 100000000000000000000}"#,
        check: llguidance_multiple_of,
    },
    Rule {
        name: "llguidance: pattern without lookaround or word boundaries",
        dialects: LLGUIDANCE,
        error: "lookarounds not supported yet; WordUnicode in regex /\\bfoo/",
        source: LLG_DOC,
        refuses: r#"{"type": "string", "pattern": "\\bfoo"}"#,
        check: llguidance_patterns,
    },
    Rule {
        name: "outlines: no keyword it ignores (numeric bounds, uniqueItems, property counts, not, if, ...)",
        dialects: OUTLINES,
        error: "(none: ignored silently; `parse_number_type` reads only its own minDigits keywords)",
        source: OC_PARSING,
        refuses: r#"{"type": "integer", "minimum": 1}"#,
        check: outlines_ignored,
    },
    Rule {
        name: "outlines: no format (its six are approximations, any other an error)",
        dialects: OUTLINES,
        error: "Format binary is not supported by Outlines",
        source: OC_TYPES,
        refuses: r#"{"type": "string", "format": "binary"}"#,
        check: outlines_formats,
    },
    Rule {
        name: "outlines: no boolean schema, no closed object without properties, no schema without a keyword it reads",
        dialects: OUTLINES,
        error: "Unsupported JSON Schema structure false",
        source: OC_PARSING,
        refuses: r#"{"type": "object", "additionalProperties": false}"#,
        check: outlines_structures,
    },
    Rule {
        name: "outlines: one deciding keyword per schema (properties, anyOf, prefixItems, enum, const), nothing it would ignore beside it",
        dialects: OUTLINES,
        error: "(none: `to_regex` takes the first of properties, allOf, anyOf, oneOf, prefixItems, enum, const, $ref, type)",
        source: OC_PARSING,
        refuses: r#"{"type": ["object", "null"], "properties": {}, "additionalProperties": {"type": "integer"}}"#,
        check: outlines_deciding,
    },
    Rule {
        name: "outlines: a pattern anchored at both ends that matches no quote, backslash or control character, and no length beside it",
        dialects: OUTLINES,
        error: "(none: the pattern goes between the string's quotes as it is; minLength/maxLength win over it)",
        source: OC_PARSING,
        refuses: r#"{"type": "string", "pattern": "^.+$"}"#,
        check: outlines_patterns,
    },
    Rule {
        name: "outlines: property keys with no quote, backslash or control character",
        dialects: OUTLINES,
        error: "(none: the key goes into the regex with regex::escape only, not JSON's escapes)",
        source: OC_PARSING,
        refuses: r#"{"type": "object", "properties": {"a\"b": {"type": "string"}}}"#,
        check: outlines_keys,
    },
    Rule {
        name: "outlines: prefixItems of fixed length (it writes exactly those items)",
        dialects: OUTLINES,
        error: "(none: `parse_prefix_items` ignores items, minItems and maxItems)",
        source: OC_PARSING,
        refuses: r#"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}"#,
        check: outlines_tuples,
    },
];

/// Every rule of `dialect` that `schema` breaks, with where.
pub fn violations(dialect: &str, schema: &Value) -> Vec<String> {
    RULES
        .iter()
        .filter(|r| r.dialects.contains(&dialect))
        .flat_map(|r| (r.check)(schema).into_iter().map(move |v| format!("{} ({}): {v}", r.name, r.source)))
        .collect()
}

/// The schema a rule refuses, with its placeholders filled.
pub fn refused_example(rule: &Rule) -> Value {
    let text = rule
        .refuses
        .replace("LONG_ENUM", &(0..1001).map(|i| i.to_string()).collect::<Vec<_>>().join(","))
        .replace(
            "MANY_OPTIONAL",
            &(0..25).map(|i| format!("\"p{i}\": {{\"type\": \"string\"}}")).collect::<Vec<_>>().join(","),
        );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", rule.name))
}

// ---- the walk ----

/// Keywords whose value is one subschema.
const ONE: &[&str] = &[
    "items",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
];
/// Keywords whose value is a list of subschemas.
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const MAP: &[&str] = &["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"];

/// Calls `f` at every schema (objects and booleans) with its pointer, to 256 levels.
fn each(schema: &Value, f: &mut dyn FnMut(&str, &Value)) {
    fn go(s: &Value, ptr: &mut String, depth: usize, f: &mut dyn FnMut(&str, &Value)) {
        f(ptr, s);
        let Value::Object(m) = s else { return };
        if depth > 256 {
            return;
        }
        let mut child = |ptr: &mut String, suffix: String, v: &Value| {
            let len = ptr.len();
            ptr.push_str(&suffix);
            go(v, ptr, depth + 1, f);
            ptr.truncate(len);
        };
        for (k, v) in m {
            let key = k.replace('~', "~0").replace('/', "~1");
            if ONE.contains(&k.as_str()) && (v.is_object() || v.is_boolean()) {
                child(ptr, format!("/{key}"), v);
            } else if LIST.contains(&k.as_str())
                && let Value::Array(items) = v
            {
                for (i, item) in items.iter().enumerate() {
                    child(ptr, format!("/{key}/{i}"), item);
                }
            } else if MAP.contains(&k.as_str())
                && let Value::Object(entries) = v
            {
                for (name, item) in entries {
                    child(ptr, format!("/{key}/{}", name.replace('~', "~0").replace('/', "~1")), item);
                }
            }
        }
    }
    go(schema, &mut String::new(), 0, f);
}

/// Every object schema with its pointer.
fn objects(schema: &Value) -> Vec<(String, Map<String, Value>)> {
    let mut out = Vec::new();
    each(schema, &mut |p, s| {
        if let Value::Object(m) = s {
            out.push((p.to_owned(), m.clone()));
        }
    });
    out
}

fn is_object_type(m: &Map<String, Value>) -> bool {
    match m.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => false,
    }
}

fn has_type(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    each(schema, &mut |p, s| match s {
        Value::Object(m) if !["type", "anyOf", "$ref"].iter().any(|k| m.contains_key(*k)) => {
            out.push(format!("`{p}` has no type"));
        }
        // `additionalProperties: false` closes an object; a boolean elsewhere is a schema without a type.
        Value::Bool(_) if !p.ends_with("/additionalProperties") => {
            out.push(format!("`{p}` is a boolean schema"))
        }
        _ => {}
    });
    // `$defs` entries are schemas too; the root's map itself is not one.
    out
}

// ---- the rules ----

fn root_is_plain_object(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if schema.get("type") != Some(&Value::String("object".into())) {
        out.push("the root is not `type: object`".to_owned());
    }
    for k in ["anyOf", "oneOf", "allOf"] {
        if schema.get(k).is_some() {
            out.push(format!("`{k}` at the root"));
        }
    }
    out
}

fn root_type_object(schema: &Value) -> Vec<String> {
    if schema.get("type") == Some(&Value::String("object".into())) {
        Vec::new()
    } else {
        vec!["the root is not `type: object`".to_owned()]
    }
}

fn objects_closed(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| is_object_type(m) && m.get("additionalProperties") != Some(&Value::Bool(false)))
        .map(|(p, _)| format!("`{p}` is an object without `additionalProperties: false`"))
        .collect()
}

fn every_property_required(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let Some(Value::Object(props)) = m.get("properties") else { continue };
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for name in props.keys() {
            if !required.contains(&name.as_str()) {
                out.push(format!("`{p}`: `{name}` is not required"));
            }
        }
    }
    out
}

fn forbidden(schema: &Value, keywords: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for k in keywords {
            if m.contains_key(*k) {
                out.push(format!("`{p}` has `{k}`"));
            }
        }
    }
    out
}

fn openai_keywords(schema: &Value) -> Vec<String> {
    forbidden(
        schema,
        &[
            "oneOf",
            "allOf",
            "not",
            "if",
            "then",
            "else",
            "dependentRequired",
            "dependentSchemas",
            "default",
            "minLength",
            "maxLength",
            "uniqueItems",
            "contains",
            "propertyNames",
            "patternProperties",
            "minProperties",
            "maxProperties",
            "prefixItems",
            "unevaluatedProperties",
            "unevaluatedItems",
            "definitions",
        ],
    )
}

fn ref_alone(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| m.contains_key("$ref") && m.len() > 1)
        .map(|(p, m)| format!("`{p}` has {:?} beside `$ref`", m.keys().collect::<Vec<_>>()))
        .collect()
}

fn formats(schema: &Value, allowed: &dyn Fn(&str, &str) -> bool) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter_map(|(p, m)| {
            let f = m.get("format")?.as_str()?;
            let t = m.get("type").and_then(Value::as_str).unwrap_or("");
            (!allowed(t, f)).then(|| format!("`{p}` has format `{f}`"))
        })
        .collect()
}

fn openai_formats(schema: &Value) -> Vec<String> {
    const OK: &[&str] =
        &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
    formats(schema, &|_, f| OK.contains(&f))
}

fn anthropic_formats(schema: &Value) -> Vec<String> {
    const OK: &[&str] =
        &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];
    formats(schema, &|_, f| OK.contains(&f))
}

fn gemini_formats(schema: &Value) -> Vec<String> {
    formats(schema, &|t, f| match t {
        "string" => ["enum", "date-time"].contains(&f),
        "number" | "integer" => ["float", "double", "int32", "int64"].contains(&f),
        _ => false,
    })
}

fn array_has_items(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| m.get("type") == Some(&Value::String("array".into())) && !m.contains_key("items"))
        .map(|(p, _)| format!("`{p}` is an array without `items`"))
        .collect()
}

/// VS Code's check (`src/extension/tools/common/toolSchemaNormalizer.ts` in
/// `microsoft/vscode-copilot-chat`): `type === 'array' && !items`, so `items: false` fails too.
fn truthy_items(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| {
            m.get("type") == Some(&Value::String("array".into()))
                && matches!(m.get("items"), None | Some(Value::Bool(false) | Value::Null))
        })
        .map(|(p, m)| format!("`{p}` is an array with `items` {:?}", m.get("items")))
        .collect()
}

fn required_declared(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let declared = m.get("properties").and_then(Value::as_object);
        for name in m.get("required").and_then(Value::as_array).into_iter().flatten() {
            let name = name.as_str().unwrap_or_default();
            if !declared.is_some_and(|d| d.contains_key(name)) {
                out.push(format!("`{p}/required` names `{name}`, which `properties` does not declare"));
            }
        }
    }
    out
}

fn lookaround(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] == b'(' && bytes.get(i + 1) == Some(&b'?') {
            let rest = &bytes[i + 2..];
            if rest.starts_with(b"=")
                || rest.starts_with(b"!")
                || rest.starts_with(b"<=")
                || rest.starts_with(b"<!")
            {
                return true;
            }
        }
        i += 1;
    }
    false
}

fn patterns(schema: &Value) -> Vec<(String, String)> {
    objects(schema)
        .into_iter()
        .filter_map(|(p, m)| Some((p, m.get("pattern")?.as_str()?.to_owned())))
        .collect()
}

fn no_lookaround(schema: &Value) -> Vec<String> {
    patterns(schema)
        .into_iter()
        .filter(|(_, pat)| lookaround(pat))
        .map(|(p, pat)| format!("`{p}` has the pattern `{pat}`"))
        .collect()
}

fn anthropic_patterns(schema: &Value) -> Vec<String> {
    let backref = |pat: &str| {
        let b = pat.as_bytes();
        (0..b.len().saturating_sub(1))
            .any(|i| b[i] == b'\\' && (b[i + 1].is_ascii_digit() && b[i + 1] != b'0' || b[i + 1] == b'k'))
    };
    let large_range = |pat: &str| {
        let mut rest = pat;
        while let Some(i) = rest.find('{') {
            let tail = &rest[i + 1..];
            if let Some(end) = tail.find('}') {
                let body = &tail[..end];
                if body.bytes().all(|b| b.is_ascii_digit() || b == b',')
                    && body.split(',').any(|n| n.parse::<u64>().map_or(!n.is_empty(), |n| n > 100))
                {
                    return true;
                }
            }
            rest = tail;
        }
        false
    };
    patterns(schema)
        .into_iter()
        .filter(|(_, pat)| {
            lookaround(pat) || backref(pat) || pat.contains("\\b") || pat.contains("\\B") || large_range(pat)
        })
        .map(|(p, pat)| format!("`{p}` has the pattern `{pat}`"))
        .collect()
}

fn anthropic_constraints(schema: &Value) -> Vec<String> {
    let mut out = forbidden(
        schema,
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "maxItems",
            "uniqueItems",
            "minProperties",
            "maxProperties",
        ],
    );
    for (p, m) in objects(schema) {
        if let Some(n) = m.get("minItems")
            && n.as_u64().is_none_or(|n| n > 1)
        {
            out.push(format!("`{p}` has `minItems: {n}`"));
        }
    }
    out
}

fn primitive_enums(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let values = m.get("enum").and_then(Value::as_array).cloned().unwrap_or_default();
        let values = values.iter().chain(m.get("const"));
        for v in values {
            if v.is_object() || v.is_array() {
                out.push(format!("`{p}` lists {v}"));
            }
        }
    }
    out
}

/// The `$ref` targets reachable from `from` without passing through another definition.
fn refs_in(s: &Value) -> Vec<String> {
    let mut out = Vec::new();
    each(s, &mut |_, n| {
        if let Some(r) = n.get("$ref").and_then(Value::as_str) {
            out.push(r.to_owned());
        }
    });
    out
}

/// Whether some definition (or the root) reaches itself through references.
fn recursive(schema: &Value) -> bool {
    let target = |r: &str| -> Option<Value> {
        if r == "#" {
            return Some(schema.clone());
        }
        let tokens = r.strip_prefix("#/")?;
        let mut v = schema;
        for t in tokens.split('/') {
            v = v.get(t.replace("~1", "/").replace("~0", "~"))?;
        }
        Some(v.clone())
    };
    // From each reference, follow references; a path longer than the number of references
    // found has a cycle.
    let all = refs_in(schema);
    let mut stack: Vec<(String, usize)> = all.iter().map(|r| (r.clone(), 0)).collect();
    let limit = all.len() + 1;
    let mut seen = std::collections::BTreeSet::new();
    while let Some((r, depth)) = stack.pop() {
        if depth > limit {
            return true;
        }
        if r == "#" {
            return true;
        }
        if !seen.insert((r.clone(), depth)) || seen.len() > 100_000 {
            continue;
        }
        if let Some(t) = target(&r) {
            for next in refs_in(&t) {
                if next == r {
                    return true;
                }
                stack.push((next, depth + 1));
            }
        }
    }
    false
}

fn no_refs(schema: &Value) -> Vec<String> {
    refs_in(schema).into_iter().map(|r| format!("`$ref` {r:?}")).collect()
}

fn no_recursion(schema: &Value) -> Vec<String> {
    if recursive(schema) { vec!["the schema refers back to itself".to_owned()] } else { Vec::new() }
}

fn openai_limits(schema: &Value) -> Vec<String> {
    let (mut props, mut enums) = (0, 0);
    for (_, m) in objects(schema) {
        props += m.get("properties").and_then(Value::as_object).map_or(0, Map::len);
        enums += m.get("enum").and_then(Value::as_array).map_or(0, Vec::len);
    }
    let mut out = Vec::new();
    if props > 5000 {
        out.push(format!("{props} properties"));
    }
    if enums > 1000 {
        out.push(format!("{enums} enum values"));
    }
    out
}

fn anthropic_property_keys(schema: &Value) -> Vec<String> {
    let ok = |k: &str| {
        (1..=64).contains(&k.chars().count())
            && k.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    let props = schema.get("properties").and_then(Value::as_object);
    props
        .into_iter()
        .flat_map(|p| p.keys())
        .filter(|k| !ok(k))
        .map(|k| format!("/properties: key `{k}`"))
        .collect()
}

fn anthropic_limits(schema: &Value) -> Vec<String> {
    let (mut optional, mut unions) = (0, 0);
    for (_, m) in objects(schema) {
        let Some(Value::Object(props)) = m.get("properties") else { continue };
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        optional += props.keys().filter(|k| !required.contains(&k.as_str())).count();
        unions += props
            .values()
            .filter(|p| p.get("anyOf").is_some() || p.get("type").is_some_and(Value::is_array))
            .count();
    }
    let mut out = Vec::new();
    if optional > 24 {
        out.push(format!("{optional} optional properties"));
    }
    if unions > 16 {
        out.push(format!("{unions} union properties"));
    }
    out
}

fn gemini_fields(schema: &Value) -> Vec<String> {
    const FIELDS: &[&str] = &[
        "anyOf",
        "description",
        "enum",
        "example",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "nullable",
        "pattern",
        "properties",
        "propertyOrdering",
        "required",
        "title",
        "type",
    ];
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for k in m.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
            out.push(format!("`{p}` has `{k}`"));
        }
    }
    each(schema, &mut |p, s| {
        if s.is_boolean() {
            out.push(format!("`{p}` is a boolean schema"));
        }
    });
    out
}

fn single_type(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| m.get("type").is_some_and(|t| !t.is_string()))
        .map(|(p, _)| format!("`{p}` has a `type` that is not one name"))
        .collect()
}

fn gemini_enums(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for v in m.get("enum").and_then(Value::as_array).into_iter().flatten() {
            if v.as_str().is_none_or(str::is_empty) {
                out.push(format!("`{p}` lists {v}"));
            }
        }
    }
    out
}

fn nothing_beside_any_of(schema: &Value) -> Vec<String> {
    objects(schema)
        .into_iter()
        .filter(|(_, m)| m.contains_key("anyOf") && m.len() > 1)
        .map(|(p, m)| {
            format!("`{p}` has {:?} beside `anyOf`", m.keys().filter(|k| *k != "anyOf").collect::<Vec<_>>())
        })
        .collect()
}

fn no_boolean_properties(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for (name, v) in m.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if v.is_boolean() {
                out.push(format!("`{p}/properties/{name}` is `{v}`"));
            }
        }
    }
    out
}

fn gemini_json_fields(schema: &Value) -> Vec<String> {
    const FIELDS: &[&str] = &[
        "$id",
        "$defs",
        "$ref",
        "$anchor",
        "type",
        "format",
        "title",
        "description",
        "enum",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "properties",
        "additionalProperties",
        "required",
        "propertyOrdering",
    ];
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for k in m.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
            out.push(format!("`{p}` has `{k}`"));
        }
    }
    out
}

fn no_one_of(schema: &Value) -> Vec<String> {
    forbidden(schema, &["oneOf"])
}

fn string_and_number_enums(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for v in m.get("enum").and_then(Value::as_array).into_iter().flatten() {
            if !v.is_string() && !v.is_number() {
                out.push(format!("`{p}` lists {v}"));
            }
        }
    }
    out
}

fn gemini_json_formats(schema: &Value) -> Vec<String> {
    formats(schema, &|_, f| ["date-time", "date", "time"].contains(&f))
}

/// The references below `s` (not inside the root's `$defs`): target, and whether the way there
/// passes through a property its object does not require.
fn refs_with_optionality(s: &Value, at_root: bool) -> Vec<(String, bool)> {
    fn go(s: &Value, optional: bool, top: bool, depth: usize, out: &mut Vec<(String, bool)>) {
        let Value::Object(m) = s else { return };
        if depth > 256 {
            return;
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            out.push((r.to_owned(), optional));
        }
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (k, v) in m {
            if ONE.contains(&k.as_str()) {
                go(v, optional, false, depth + 1, out);
            } else if LIST.contains(&k.as_str()) {
                for item in v.as_array().into_iter().flatten() {
                    go(item, optional, false, depth + 1, out);
                }
            } else if k == "properties" {
                for (name, item) in v.as_object().into_iter().flatten() {
                    go(item, optional || !required.contains(&name.as_str()), false, depth + 1, out);
                }
            } else if MAP.contains(&k.as_str()) && !(top && (k == "$defs" || k == "definitions")) {
                for item in v.as_object().into_iter().flatten().map(|(_, i)| i) {
                    go(item, optional, false, depth + 1, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    go(s, false, at_root, 0, &mut out);
    out
}

/// Whether some definition (or the root) reaches itself through references each reached by
/// required properties only.
fn recursion_through_optional_properties(schema: &Value) -> Vec<String> {
    let mut nodes: Vec<(String, Value)> = vec![("#".to_owned(), schema.clone())];
    for (name, d) in schema.get("$defs").and_then(Value::as_object).into_iter().flatten() {
        nodes.push((format!("#/$defs/{}", name.replace('~', "~0").replace('/', "~1")), d.clone()));
    }
    let edges: Vec<(String, Vec<String>)> = nodes
        .iter()
        .map(|(name, s)| {
            let required_only = refs_with_optionality(s, name == "#")
                .into_iter()
                .filter(|(_, o)| !o)
                .map(|(r, _)| r)
                .collect();
            (name.clone(), required_only)
        })
        .collect();
    // A cycle among required-only edges: from each node, a path longer than the node count.
    let next = |n: &str| edges.iter().find(|(k, _)| k == n).map(|(_, e)| e.clone()).unwrap_or_default();
    let mut out = Vec::new();
    for (start, _) in &edges {
        let mut frontier = vec![start.clone()];
        for _ in 0..=edges.len() {
            frontier = frontier
                .iter()
                .flat_map(|n| next(n))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            if frontier.contains(start) {
                out.push(format!("`{start}` refers back to itself through required properties only"));
                break;
            }
        }
    }
    out
}

fn llguidance_unimplemented(schema: &Value) -> Vec<String> {
    // Draft 2020-12's assertions and applicators outside `IMPLEMENTED` (parser/src/json/schema.rs).
    forbidden(
        schema,
        &[
            "$dynamicRef",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "if",
            "maxContains",
            "minContains",
            "not",
            "propertyNames",
            "then",
            "unevaluatedItems",
            "unevaluatedProperties",
            "uniqueItems",
        ],
    )
}

fn llguidance_formats(schema: &Value) -> Vec<String> {
    const OK: &[&str] =
        &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri"];
    formats(schema, &|t, f| t != "string" || OK.contains(&f))
}

fn llguidance_property_counts(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        if !m.contains_key("minProperties") && !m.contains_key("maxProperties") {
            continue;
        }
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for name in m.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()) {
            if !required.contains(&name.as_str()) {
                out.push(format!("`{p}` counts properties and `{name}` is not required"));
            }
        }
    }
    out
}

/// 2^53: past it an `f64` (how llguidance reads every bound) no longer holds every integer, and
/// well before the `i64` it casts an integer's bounds to ends.
const LLG_MAX_EXACT: f64 = 9_007_199_254_740_992.0;

fn llguidance_bounds(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(v) = m.get(k)
                && !v.as_f64().is_some_and(|x| x.abs() <= LLG_MAX_EXACT)
            {
                out.push(format!("`{p}` has `{k}: {v}`"));
            }
        }
    }
    out
}

fn llguidance_multiple_of(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let Some(v) = m.get("multipleOf") else { continue };
        // Its decimal coefficient must fit a `u32`; a fraction's is found by multiplying its
        // `f64` by ten until whole, which rounds: only a whole number is read exactly.
        let exact = v.as_f64().is_some_and(|x| x.fract() == 0.0 && x >= 1.0 && x <= f64::from(u32::MAX));
        if !exact {
            out.push(format!("`{p}` has `multipleOf: {v}`"));
        }
    }
    out
}

fn llguidance_patterns(schema: &Value) -> Vec<String> {
    patterns(schema)
        .into_iter()
        .filter(|(_, pat)| lookaround(pat) || pat.contains("\\b") || pat.contains("\\B"))
        .map(|(p, pat)| format!("`{p}` has the pattern `{pat}`"))
        .collect()
}

fn outlines_ignored(schema: &Value) -> Vec<String> {
    forbidden(
        schema,
        &[
            "$ref",
            "allOf",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "if",
            "maxProperties",
            "maximum",
            "minProperties",
            "minimum",
            "multipleOf",
            "not",
            "oneOf",
            "patternProperties",
            "propertyNames",
            "then",
            "unevaluatedItems",
            "unevaluatedProperties",
            "uniqueItems",
        ],
    )
}

fn outlines_formats(schema: &Value) -> Vec<String> {
    formats(schema, &|_, _| false)
}

/// outlines-core's `to_regex`: a schema object reads as one of these (else it is an error).
const OC_DECIDING: &[&str] =
    &["properties", "allOf", "anyOf", "oneOf", "prefixItems", "enum", "const", "$ref", "type"];

fn outlines_structures(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    each(schema, &mut |p, s| match s {
        Value::Bool(_) if !p.ends_with("/additionalProperties") => {
            out.push(format!("`{p}` is a boolean schema"))
        }
        Value::Object(m) if !m.is_empty() && !OC_DECIDING.iter().any(|k| m.contains_key(*k)) => {
            out.push(format!("`{p}` has none of the keywords outlines-core reads"))
        }
        Value::Object(m)
            if is_object_type(m)
                && !m.contains_key("properties")
                && !m.get("additionalProperties").is_some_and(Value::is_object) =>
        {
            out.push(format!("`{p}` is an object without properties or a schema of further keys"))
        }
        _ => {}
    });
    out
}

fn outlines_deciding(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let present: Vec<&str> = OC_DECIDING[..8].iter().copied().filter(|k| m.contains_key(*k)).collect();
        if present.len() > 1 && present != ["enum", "const"] {
            out.push(format!("`{p}` has {present:?}: outlines-core reads only the first"));
        }
        if present.iter().any(|k| ["properties", "prefixItems"].contains(k))
            && m.get("type").is_some_and(Value::is_array)
        {
            out.push(format!("`{p}` has a type list beside {present:?}, which outlines-core ignores"));
        }
        if m.contains_key("properties")
            && !matches!(m.get("additionalProperties"), None | Some(Value::Bool(false)))
        {
            out.push(format!("`{p}` has further keys beside properties, which outlines-core closes"));
        }
    }
    out
}

fn outlines_patterns(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let Some(pat) = m.get("pattern").and_then(Value::as_str) else { continue };
        if m.contains_key("minLength") || m.contains_key("maxLength") {
            out.push(format!("`{p}` has a length beside the pattern `{pat}`"));
        }
        let anchored = pat.starts_with('^') && pat.ends_with('$') && !pat.ends_with("\\$");
        let mut escaped = false;
        let mut unsafe_char = false;
        for (i, c) in pat.char_indices() {
            if escaped {
                unsafe_char |=
                    matches!(c, 's' | 'S' | 'D' | 'W' | '"' | '\\' | 'n' | 't' | 'r' | 'x' | 'u' | 'p' | 'P');
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else {
                unsafe_char |= c == '.' || c == '"' || c.is_control() || pat[i..].starts_with("[^");
            }
        }
        if !anchored || unsafe_char {
            out.push(format!("`{p}` has the pattern `{pat}`"));
        }
    }
    out
}

fn outlines_keys(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        for key in m.get("properties").and_then(Value::as_object).into_iter().flat_map(Map::keys) {
            if key.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
                out.push(format!("`{p}` has the key {key:?}"));
            }
        }
    }
    out
}

fn outlines_tuples(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (p, m) in objects(schema) {
        let Some(prefix) = m.get("prefixItems").and_then(Value::as_array) else { continue };
        let n = prefix.len() as u64;
        let fixed = m.get("minItems").and_then(Value::as_u64).is_some_and(|min| min >= n)
            && (m.get("maxItems").and_then(Value::as_u64).is_some_and(|max| max <= n)
                || m.get("items") == Some(&Value::Bool(false)));
        if !fixed {
            out.push(format!("`{p}` is a tuple whose length is not fixed"));
        }
    }
    out
}
