//! Limits a provider applies to a request, not to one schema: the tools of a request together.
//!
//! A schema can pass its dialect and the request still fail: Anthropic sums the optional and
//! union parameters of every strict tool of a request, and OpenAI counts the tools and each
//! function's description. [`request_limits`] counts a set of tools (as the model is given them:
//! each schema already adapted to the dialect) against the limits of the dialect's provider, and
//! names the tools that push a total past its limit. Nothing is cut: a caller decides what to
//! leave out.
//!
//! | dialect | limit | source |
//! | --- | --- | --- |
//! | `anthropic-strict` | 20 strict tools, 24 optional parameters and 16 union parameters (a property with `anyOf` or a type array) over all strict tools | [ANT-SO] "Schema complexity limits" |
//! | `openai-strict` | 128 tools; a function description of at most 1,024 characters | OpenAI function calling |
//!
//! Other dialects have none known here (an empty list).
//!
//! ```
//! use serde_json::json;
//! use toolschema::request_limits::{RequestTool, request_limits};
//! let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"},
//!     "c": {"type": "string"}, "d": {"type": "string"}, "e": {"type": "string"}, "f": {"type": "string"}},
//!     "additionalProperties": false});
//! let names: Vec<String> = (0..5).map(|i| format!("tool_{i}")).collect();
//! let tools: Vec<RequestTool<'_>> =
//!     names.iter().map(|n| RequestTool { name: n, description: None, schema: &schema }).collect();
//! let limits = request_limits("anthropic-strict", &tools);
//! let optional = limits.iter().find(|l| l.what.starts_with("optional")).unwrap();
//! assert_eq!((optional.total, optional.max), (30, 24));
//! // The fifth tool takes the total from 24 to 30.
//! assert_eq!(optional.over, ["tool_4"]);
//! assert!(optional.to_string().starts_with("optional parameters over all strict tools: 30 of 24"));
//! ```

use serde_json::Value;

/// One tool of a request: its name (as the provider is told it), description, and schema (as
/// the dialect made it).
#[derive(Debug, Clone, Copy)]
pub struct RequestTool<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// The tool's (function's) description, if any.
    pub description: Option<&'a str>,
    /// The tool's schema, adapted to the dialect.
    pub schema: &'a Value,
}

/// One limit of a request, the total a set of tools reaches, and the tools past it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RequestLimit {
    /// What is counted, e.g. `optional parameters over all strict tools`.
    pub what: &'static str,
    /// The provider's limit.
    pub max: usize,
    /// The set's total; for a limit per tool, the largest tool's.
    pub total: usize,
    /// The tools that push the total past the limit, in the order given: for a sum, each tool
    /// (adding to it) from the one that first crosses it; for a limit per tool, each tool over it.
    pub over: Vec<String>,
}

impl RequestLimit {
    /// Whether the set is past the limit.
    pub fn exceeded(&self) -> bool {
        self.total > self.max
    }
}

impl std::fmt::Display for RequestLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} of {}", self.what, self.total, self.max)?;
        if self.exceeded() {
            let names: Vec<String> = self.over.iter().map(|n| format!("`{n}`")).collect();
            write!(f, "; past the limit: {}", names.join(", "))?;
        }
        Ok(())
    }
}

const ANTHROPIC_TOOLS: usize = 20;
const OPENAI_TOOLS: usize = 128;
const OPENAI_DESCRIPTION: usize = 1_024;

/// The request-level limits of the dialect's provider (by the dialect's name), each with the
/// total `tools` reach; an empty list for a dialect with none. See the [module docs](self).
pub fn request_limits(dialect: &str, tools: &[RequestTool<'_>]) -> Vec<RequestLimit> {
    match dialect {
        "anthropic-strict" => {
            let depth = crate::walk::Depth::DEFAULT_MAX;
            let counts: Vec<(usize, usize)> = tools
                .iter()
                .map(|t| crate::dialect::anthropic_strict::parameter_counts(t.schema, depth))
                .collect();
            vec![
                summed("strict tools", ANTHROPIC_TOOLS, tools, |_| 1),
                summed(
                    "optional parameters over all strict tools",
                    crate::dialect::anthropic_strict::MAX_OPTIONAL,
                    tools,
                    |i| counts[i].0,
                ),
                summed(
                    "union parameters (`anyOf` or a type array) over all strict tools",
                    crate::dialect::anthropic_strict::MAX_UNIONS,
                    tools,
                    |i| counts[i].1,
                ),
            ]
        }
        "openai-strict" => vec![
            summed("tools", OPENAI_TOOLS, tools, |_| 1),
            each("characters of a function description", OPENAI_DESCRIPTION, tools, |t| {
                t.description.map_or(0, |d| d.chars().count())
            }),
        ],
        _ => Vec::new(),
    }
}

/// A limit on a sum over the tools: the tools from the one that first crosses it.
fn summed(
    what: &'static str,
    max: usize,
    tools: &[RequestTool<'_>],
    count: impl Fn(usize) -> usize,
) -> RequestLimit {
    let mut total = 0usize;
    let mut over = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let n = count(i);
        total = total.saturating_add(n);
        if total > max && n > 0 {
            over.push(tool.name.to_owned());
        }
    }
    RequestLimit { what, max, total, over }
}

/// A limit on each tool: the largest, and every tool over it.
fn each(
    what: &'static str,
    max: usize,
    tools: &[RequestTool<'_>],
    count: impl Fn(&RequestTool<'_>) -> usize,
) -> RequestLimit {
    let mut total = 0;
    let mut over = Vec::new();
    for tool in tools {
        let n = count(tool);
        total = total.max(n);
        if n > max {
            over.push(tool.name.to_owned());
        }
    }
    RequestLimit { what, max, total, over }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tools<'a>(
        names: &'a [String],
        schema: &'a Value,
        description: Option<&'a str>,
    ) -> Vec<RequestTool<'a>> {
        names.iter().map(|n| RequestTool { name: n, description, schema }).collect()
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    #[test]
    fn anthropic_counts_strict_tools_and_sums_optional_and_union_parameters() {
        let schema = json!({"type": "object", "properties": {
            "a": {"type": "string"},
            "b": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "c": {"type": ["string", "null"]},
            "n": {"type": "object", "properties": {"x": {"type": "string"}}, "required": []}},
            "required": ["a", "c"]});
        // Per tool: b, n and n.x optional (3); b and c unions (2).
        let names = names(21);
        let limits = request_limits("anthropic-strict", &tools(&names, &schema, None));
        let totals: Vec<(usize, usize, usize)> =
            limits.iter().map(|l| (l.total, l.max, l.over.len())).collect();
        assert_eq!(totals, [(21, 20, 1), (63, 24, 13), (42, 16, 13)]);
        assert_eq!(limits[0].over, ["t20"]);
        // 8 tools make 24 optional parameters; the ninth crosses.
        assert_eq!(limits[1].over.first().map(String::as_str), Some("t8"));
        assert_eq!(limits[2].over.first().map(String::as_str), Some("t8"));
        let few = request_limits("anthropic-strict", &tools(&names[..8], &schema, None));
        assert!(few.iter().all(|l| !l.exceeded() && l.over.is_empty()), "{few:?}");
    }

    #[test]
    fn openai_counts_tools_and_each_description() {
        let schema = json!({"type": "object"});
        let long = "d".repeat(1_025);
        let names = names(129);
        let mut set = tools(&names, &schema, Some("short"));
        set[3].description = Some(&long);
        let limits = request_limits("openai-strict", &set);
        assert_eq!(limits[0].to_string(), "tools: 129 of 128; past the limit: `t128`");
        assert_eq!(
            limits[1].to_string(),
            "characters of a function description: 1025 of 1024; past the limit: `t3`"
        );
        assert!(request_limits("openai-strict", &set[..128]).iter().any(RequestLimit::exceeded));
        assert!(request_limits("gemini", &set).is_empty());
    }
}
