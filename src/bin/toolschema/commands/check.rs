//! `check`: every tool under every dialect asked, one verdict each (accepted, with what was
//! adapted; refused, with why), as a table or JSON, and what each dialect's accepted tools make
//! together: the names its provider is told and the provider's request limits. Apart from the
//! other commands because it is the largest, and the only one that asks several dialects.

use super::{count_name, find_dialect, options, read};
use crate::input::Input;
use crate::output::{Out, Progress, Status, render};
use serde_json::{Map, Value, json};
use std::fmt::Write as _;
use toolschema::order::{KeyOrder, OrderRule, generation_order};
use toolschema::request_limits::{RequestLimit, RequestTool, request_limits};
use toolschema::restore::RenamedKey;
use toolschema::tokens::ToolTokens;
use toolschema::tool_name::{NameRule, ToolNames};
use toolschema::{Error, SchemaDialect, ToolSchema, dialect};

/// One tool's verdict under one dialect.
enum Verdict {
    /// With every adaptation: `(pointer, keyword, kind)`.
    Accepted(Vec<(String, String, &'static str)>),
    /// `(pointer, keyword, message)` for every error.
    Refused(Vec<(String, Option<String>, String)>),
}

fn verdict(result: Result<ToolSchema, Error>) -> Verdict {
    match result {
        Ok(s) => Verdict::Accepted(
            s.adaptations().iter().map(|a| (a.pointer.clone(), a.keyword.clone(), a.kind.as_str())).collect(),
        ),
        Err(Error::Capability(errors)) => Verdict::Refused(
            errors
                .as_slice()
                .iter()
                .map(|e| (e.pointer().to_owned(), e.keyword().map(str::to_owned), e.to_string()))
                .collect(),
        ),
        Err(Error::Generation(e)) => {
            Verdict::Refused(vec![(e.pointer().unwrap_or("").to_owned(), None, e.to_string())])
        }
        Err(e) => Verdict::Refused(vec![(String::new(), None, e.to_string())]),
    }
}

struct Row {
    input: String,
    tool: String,
    name: Option<String>,
    description: Option<String>,
    verdicts: Vec<Verdict>,
    /// The schema each dialect made, where it accepted the tool.
    built: Vec<Option<ToolSchema>>,
    /// With `--max-tokens`, per dialect that built the tool: its o200k tokens (name, description
    /// and schema).
    tokens: Vec<Option<usize>>,
}

/// `check`'s flags.
#[derive(Clone, Copy)]
pub struct CheckOptions {
    pub allow_any: bool,
    pub exact: bool,
    pub adaptations: bool,
    pub json: bool,
    /// `--order`: print each accepted tool's property order per dialect.
    pub order: bool,
    /// `--max-tokens`: refuse a tool whose whole o200k count exceeds it.
    pub max_tokens: Option<usize>,
    /// `--recursion-depth`: levels a recursion is unrolled where the provider takes none.
    pub recursion_depth: usize,
}

pub fn check(out: &mut Out, names: &[String], flags: CheckOptions, jsonl: bool, paths: &[String]) -> Status {
    let CheckOptions {
        allow_any,
        exact,
        adaptations: list_adaptations,
        json: json_out,
        order,
        max_tokens,
        recursion_depth,
    } = flags;
    let mut dialects: Vec<&'static dyn SchemaDialect> = Vec::new();
    let mut status = Status::OK;
    if names.is_empty() {
        dialects.extend(dialect::builtin());
    }
    for name in names {
        match find_dialect(out, name) {
            Some(d) => dialects.push(d),
            None => status.raise(Status::USAGE),
        }
    }
    if status == Status::USAGE {
        return status;
    }
    let inputs: Vec<Input> = paths.iter().filter_map(|p| read(out, p, jsonl, &mut status)).collect();
    let total = inputs.iter().map(|i| i.tools.len()).sum::<usize>() * dialects.len();
    let mut progress = Progress::new(total, "checks");
    let mut rows = Vec::new();
    let mut unreadable = Vec::new();
    for input in &inputs {
        for tool in &input.tools {
            let schema = match &tool.schema {
                Ok(schema) => schema,
                Err(message) => {
                    unreadable.push(json!({"input": input.label, "message": message}));
                    out.error(&input.label, message);
                    status.raise(Status::USAGE);
                    continue;
                }
            };
            let results: Vec<Result<ToolSchema, Error>> = dialects
                .iter()
                .map(|d| {
                    progress.step();
                    options(*d, allow_any, exact, recursion_depth).normalize(schema.clone())
                })
                .collect();
            let mut built: Vec<Option<ToolSchema>> =
                results.iter().map(|r| r.as_ref().ok().cloned()).collect();
            let mut verdicts: Vec<Verdict> = results.into_iter().map(verdict).collect();
            let mut tokens = vec![None; dialects.len()];
            if let Some(max) = max_tokens {
                let name = count_name(input, tool);
                for (i, d) in dialects.iter().enumerate() {
                    let Some(s) = &built[i] else { continue };
                    let n = ToolTokens::new(&name, tool.description.as_deref(), s.as_value()).tool();
                    tokens[i] = Some(n);
                    if n > max {
                        let message = format!(
                            "the tool takes {n} tokens (o200k_base: name, description and schema under `{}`), over the budget of {max} set by --max-tokens; shorten its descriptions or split the tool",
                            d.name()
                        );
                        verdicts[i] = Verdict::Refused(vec![(String::new(), None, message)]);
                        built[i] = None;
                    }
                }
            }
            rows.push(Row {
                input: input.label.clone(),
                tool: input.tool_label(tool),
                name: tool.name.clone(),
                description: tool.description.clone(),
                verdicts,
                built,
                tokens,
            });
        }
    }
    progress.clear();
    let refused = rows.iter().flat_map(|r| &r.verdicts).filter(|v| matches!(v, Verdict::Refused(_))).count();
    let accepted = rows.len() * dialects.len() - refused;
    if refused > 0 {
        status.raise(Status::REFUSED);
    }
    let dialect_names: Vec<&str> = dialects.iter().map(|d| d.name()).collect();
    let requests = requests(&rows, &dialect_names);
    if requests.iter().any(|r| r.limits.iter().any(toolschema::request_limits::RequestLimit::exceeded)) {
        status.raise(Status::REFUSED);
    }
    if json_out {
        let results = json_results(&rows, &dialect_names, order);
        let report = json!({
            "dialects": dialect_names,
            "results": results,
            "unreadable": unreadable,
            "requests": requests.iter().map(Request::to_json).collect::<Vec<Value>>(),
            "summary": {"tools": rows.len(), "checks": rows.len() * dialects.len(), "accepted": accepted,
                        "refused": refused, "unreadable": unreadable.len()},
        });
        out.line(&render(&report, true));
        return status;
    }
    print_verdicts(out, &rows, &dialect_names, list_adaptations, order, refused);
    for request in &requests {
        request.print(out);
    }
    let mut summary = format!(
        "{} tool(s) x {} dialect(s): {accepted} accepted, {refused} refused",
        rows.len(),
        dialects.len()
    );
    if !unreadable.is_empty() {
        let _ = write!(summary, ", {} unreadable", unreadable.len());
    }
    out.line(&summary);
    status
}

/// `--json`: one result per tool and dialect, with its errors or adaptations, its tokens where
/// counted, and its property order with `--order`.
fn json_results(rows: &[Row], dialect_names: &[&str], order: bool) -> Vec<Value> {
    let mut results = Vec::new();
    for row in rows {
        for (i, (d, v)) in dialect_names.iter().zip(&row.verdicts).enumerate() {
            let (errors, adapted): (Vec<Value>, Vec<Value>) = match v {
                Verdict::Accepted(adapted) => (
                    Vec::new(),
                    adapted
                        .iter()
                        .map(|(pointer, keyword, kind)| json!({"pointer": pointer, "keyword": keyword, "kind": kind}))
                        .collect(),
                ),
                Verdict::Refused(errors) => (
                    errors
                        .iter()
                        .map(|(pointer, keyword, message)| json!({"pointer": pointer, "keyword": keyword, "message": message}))
                        .collect(),
                    Vec::new(),
                ),
            };
            let mut result = json!({
                "input": row.input, "tool": row.tool, "name": row.name, "dialect": d,
                "accepted": errors.is_empty(), "errors": errors, "adaptations": adapted,
            });
            if let Some(n) = row.tokens[i] {
                result["tokens"] = json!(n);
            }
            if order && let Some(s) = &row.built[i] {
                result["order"] =
                    generation_order(s.as_value(), OrderRule::for_dialect(d), KeyOrder::AsStored)
                        .iter()
                        .map(|o| json!({"pointer": o.pointer, "properties": o.properties}))
                        .collect();
            }
            results.push(result);
        }
    }
    results
}

/// The text report's verdicts: adaptations with `--adaptations`, the property order with
/// `--order`, every refusal's errors, and the table of verdicts.
fn print_verdicts(
    out: &mut Out,
    rows: &[Row],
    dialect_names: &[&str],
    list_adaptations: bool,
    order: bool,
    refused: usize,
) {
    if list_adaptations {
        for row in rows {
            for (d, v) in dialect_names.iter().zip(&row.verdicts) {
                if let Verdict::Accepted(adapted) = v
                    && !adapted.is_empty()
                {
                    out.line(&format!("{}: adapted for `{d}`:", row.tool));
                    for (pointer, keyword, kind) in adapted {
                        out.line(&format!("  - `{keyword}` at `{pointer}`: {kind}"));
                    }
                }
            }
        }
    }
    if order {
        for row in rows {
            for (d, built) in dialect_names.iter().zip(&row.built) {
                let Some(s) = built else { continue };
                let found = generation_order(s.as_value(), OrderRule::for_dialect(d), KeyOrder::AsStored);
                if found.is_empty() {
                    continue;
                }
                out.line(&format!("{}: generation order under `{d}`:", row.tool));
                for o in &found {
                    let pointer = if o.pointer.is_empty() { "(root)" } else { &o.pointer };
                    out.line(&format!("  {pointer}: {}", o.properties.join(", ")));
                }
            }
        }
    }
    for row in rows {
        for (d, v) in dialect_names.iter().zip(&row.verdicts) {
            if let Verdict::Refused(errors) = v {
                out.line(&format!("{}: refused by `{d}`:", row.tool));
                for (_, _, message) in errors {
                    // A message of several lines (a list) stays indented under its bullet.
                    out.line(&format!("  - {}", message.replace('\n', "\n    ")));
                }
            }
        }
    }
    if refused > 0 {
        out.line("");
    }
    let cell = |v: &Verdict| match v {
        Verdict::Accepted(adapted) if adapted.is_empty() => "ok".to_owned(),
        Verdict::Accepted(adapted) => format!("ok, {} adapted", adapted.len()),
        Verdict::Refused(e) if e.len() == 1 => "1 error".to_owned(),
        Verdict::Refused(e) => format!("{} errors", e.len()),
    };
    let mut table: Vec<Vec<String>> = vec![
        std::iter::once("tool".to_owned()).chain(dialect_names.iter().map(|d| (*d).to_owned())).collect(),
    ];
    for row in rows {
        table.push(std::iter::once(row.tool.clone()).chain(row.verdicts.iter().map(cell)).collect());
    }
    let widths: Vec<usize> =
        (0..table[0].len()).map(|c| table.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &table {
        let cells: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.line(cells.join("  ").trim_end());
    }
}

/// What the accepted tools make together under one dialect: the names its provider is told
/// (where they differ) and the provider's request-level limits.
struct Request {
    dialect: String,
    names: Option<ToolNames>,
    /// The property keys its provider is told under other names: the tool and the key.
    keys: Vec<(String, RenamedKey)>,
    limits: Vec<RequestLimit>,
}

/// For each dialect, the request of every tool it accepted, in the order checked.
fn requests(rows: &[Row], dialects: &[&str]) -> Vec<Request> {
    let mut out = Vec::new();
    for (i, d) in dialects.iter().enumerate() {
        let names = NameRule::for_dialect(d)
            .map(|rule| ToolNames::from_names(rule, rows.iter().filter_map(|r| r.name.as_deref())));
        let accepted: Vec<(&Row, &ToolSchema)> =
            rows.iter().filter_map(|r| r.built[i].as_ref().map(|s| (r, s))).collect();
        let tools: Vec<RequestTool<'_>> = accepted
            .iter()
            .map(|(row, schema)| RequestTool {
                name: match (&row.name, &names) {
                    (Some(name), Some(names)) => names.provider_name(name),
                    (Some(name), None) => name,
                    (None, _) => &row.tool,
                },
                description: row.description.as_deref(),
                schema: schema.as_value(),
            })
            .collect();
        let limits = request_limits(d, &tools);
        let keys: Vec<(String, RenamedKey)> = accepted
            .iter()
            .flat_map(|(row, schema)| {
                let tool = row.name.clone().unwrap_or_else(|| row.tool.clone());
                schema.plan().renamed_keys().iter().map(move |k| (tool.clone(), k.clone()))
            })
            .collect();
        if names.as_ref().is_some_and(|n| !n.is_empty()) || !keys.is_empty() || !limits.is_empty() {
            out.push(Request { dialect: (*d).to_owned(), names, keys, limits });
        }
    }
    out
}

impl Request {
    fn print(&self, out: &mut Out) {
        let d = &self.dialect;
        if let Some(names) = self.names.as_ref().filter(|n| !n.is_empty()) {
            out.line(&format!("tool names for `{d}` (`{}`):", names.rule().pattern()));
            for (from, to) in names.renamed() {
                out.line(&format!("  - `{from}` -> `{to}`"));
            }
        }
        if !self.keys.is_empty() {
            out.line(&format!("property keys for `{d}` (restore maps each back):"));
            for (tool, key) in &self.keys {
                out.line(&format!("  - `{tool}`: {key}"));
            }
        }
        if !self.limits.is_empty() {
            out.line(&format!("request limits for `{d}`, every accepted tool in one request:"));
            for limit in &self.limits {
                out.line(&format!("  - {limit}"));
                if let Some(folding) = limit.folding() {
                    out.line(&format!("    {folding}"));
                }
            }
        }
    }

    fn to_json(&self) -> Value {
        let names: Map<String, Value> = self
            .names
            .iter()
            .flat_map(ToolNames::renamed)
            .map(|(from, to)| (from.to_owned(), Value::String(to.to_owned())))
            .collect();
        let limits: Vec<Value> = self
            .limits
            .iter()
            .map(|l| {
                let mut limit =
                    json!({"limit": l.what, "max": l.max, "total": l.total, "exceeded": l.exceeded(), "over": l.over});
                if !l.fold.is_empty() {
                    limit["fold"] =
                        l.fold.iter().map(|f| json!({"tool": f.tool, "count": f.count, "keep": f.keep})).collect();
                }
                limit
            })
            .collect();
        let mut request = json!({"dialect": self.dialect, "names": names, "limits": limits});
        if !self.keys.is_empty() {
            request["keys"] = self
                .keys
                .iter()
                .map(|(tool, k)| json!({"tool": tool, "pointer": k.pointer, "original": k.original, "sent": k.sent}))
                .collect();
        }
        request
    }
}
