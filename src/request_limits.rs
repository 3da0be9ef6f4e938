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
//! | `anthropic-strict` | 20 strict tools, 24 optional parameters and 16 union parameters (a property with `anyOf` or a type array) over all strict tools; past the last two, what folding each tool's parameters past its share into one property of JSON text would do ([`RequestLimit::fold`]) | [ANT-SO] "Schema complexity limits" |
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
//! // Folded, the fourth would keep 5 of its 6 and the fifth 1 (its fold property alone).
//! let kept: Vec<(&str, Option<usize>)> =
//!     optional.fold.iter().map(|f| (f.tool.as_str(), f.keep)).collect();
//! assert_eq!(kept, [("tool_3", Some(5)), ("tool_4", Some(1))]);
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
    /// Where a fold can bring the set within the limit (Anthropic's optional and union
    /// parameters, which `anthropic-strict` folds past its limit per schema), what folding the
    /// tools past it would do: each keeps what the request has room for when it comes, the rest
    /// folded into one property of JSON text. Empty where the set is within the limit, or the
    /// limit is not one a fold helps.
    pub fold: Vec<ToolFold>,
}

/// A tool whose parameters past a request's limit would be folded into one property of JSON
/// text, as a schema past the limit alone is (see [`RequestLimit::fold`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolFold {
    /// The tool's name.
    pub tool: String,
    /// What the tool counts now.
    pub count: usize,
    /// What it would count folded (its fold property included: an optional one counts as one
    /// optional parameter); `None` where the request has no room left for it even folded (leave
    /// it out of the request, or send it without `strict`).
    pub keep: Option<usize>,
}

impl RequestLimit {
    /// What folding would do, in words (`None` where nothing is to fold): `folding keeps 4 of
    /// `t4`'s 6; `t5` is past the limit even folded`.
    pub fn folding(&self) -> Option<String> {
        if self.fold.is_empty() {
            return None;
        }
        let parts: Vec<String> = self
            .fold
            .iter()
            .map(|f| match f.keep {
                Some(keep) => format!("keeps {keep} of `{}`'s {}", f.tool, f.count),
                None => format!("`{}` is past the limit even folded", f.tool),
            })
            .collect();
        Some(format!(
            "folding the last declared parameters of each into one of JSON text: {}",
            parts.join("; ")
        ))
    }
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
                folded(
                    summed(
                        "optional parameters over all strict tools",
                        crate::dialect::anthropic_strict::MAX_OPTIONAL,
                        tools,
                        |i| counts[i].0,
                    ),
                    tools,
                    |i| counts[i].0,
                    1,
                ),
                folded(
                    summed(
                        "union parameters (`anyOf` or a type array) over all strict tools",
                        crate::dialect::anthropic_strict::MAX_UNIONS,
                        tools,
                        |i| counts[i].1,
                    ),
                    tools,
                    |i| counts[i].1,
                    0,
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
    RequestLimit { what, max, total, over, fold: Vec::new() }
}

/// `limit` (a sum past its limit) with what folding would do: each tool, in the order given,
/// keeps what it counts where the limit has room for it and for the least each later tool can
/// be folded to (`floor`, what a fold property counts); a tool that does not fit is folded down
/// to the room it has, at least `floor`.
fn folded(
    mut limit: RequestLimit,
    tools: &[RequestTool<'_>],
    count: impl Fn(usize) -> usize,
    floor: usize,
) -> RequestLimit {
    if !limit.exceeded() {
        return limit;
    }
    let counts: Vec<usize> = (0..tools.len()).map(count).collect();
    let mut room = limit.max;
    for (i, tool) in tools.iter().enumerate() {
        let n = counts[i];
        let later = counts[i + 1..].iter().filter(|c| **c > 0).count();
        let available = room.saturating_sub(floor.saturating_mul(later));
        if n <= available {
            room -= n;
            continue;
        }
        let keep = (room >= floor).then_some(available.max(floor));
        room -= keep.unwrap_or(0);
        limit.fold.push(ToolFold { tool: tool.name.to_owned(), count: n, keep });
    }
    limit
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
    RequestLimit { what, max, total, over, fold: Vec::new() }
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
        assert!(few.iter().all(|l| !l.exceeded() && l.over.is_empty() && l.fold.is_empty()), "{few:?}");
        // Folding 9 tools of 3 optional parameters (27): the first 7 keep theirs (21), the
        // eighth keeps 2 and the ninth 1 (its fold property alone). Of the union parameters, 8
        // tools take 16 and the ninth folds both of its into a string, which is no union.
        let nine = request_limits("anthropic-strict", &tools(&names[..9], &schema, None));
        let fold = |tool: &str, count, keep| ToolFold { tool: tool.into(), count, keep };
        assert_eq!(nine[1].fold, [fold("t7", 3, Some(2)), fold("t8", 3, Some(1))]);
        assert_eq!(
            nine[1].folding().unwrap(),
            "folding the last declared parameters of each into one of JSON text: keeps 2 of `t7`'s 3; keeps 1 of `t8`'s 3"
        );
        assert_eq!(nine[2].fold, [fold("t8", 2, Some(0))]);
        assert!(nine[0].fold.is_empty(), "strict tools do not fold");
        // More tools with optional parameters than the limit: the last have no room even folded.
        let many: Vec<String> = (0..26).map(|i| format!("t{i}")).collect();
        let past = request_limits("anthropic-strict", &tools(&many, &schema, None));
        assert_eq!(past[1].fold.last(), Some(&fold("t25", 3, None)));
        assert!(past[1].folding().unwrap().ends_with("`t25` is past the limit even folded"));
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
        assert!(limits.iter().all(|l| l.fold.is_empty()), "OpenAI's request limits do not fold");
    }
}
