//! One function per command; each returns the exit status it earned.

use crate::input::{self, Input, Tool, Unreadable};
use crate::output::{Out, Progress, Status, render};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use toolschema::diff::{Change, ChangeKind};
use toolschema::order::{KeyOrder, OrderRule, generation_order};
use toolschema::request_limits::{RequestLimit, RequestTool, request_limits};
use toolschema::tokens::{Provider, ToolTokens};
use toolschema::tool_name::{NameRule, ToolNames};
use toolschema::{Error, PropertyOrder, SchemaDialect, SchemaOptions, ToolSchema, dialect};

fn known_dialects() -> String {
    dialect::builtin().iter().map(|d| format!("`{}`", d.name())).collect::<Vec<_>>().join(", ")
}

pub fn find_dialect(out: &mut Out, name: &str) -> Option<&'static dyn SchemaDialect> {
    let found = dialect::by_name(name);
    if found.is_none() {
        out.error("--dialect", &format!("unknown dialect `{name}`; the dialects are {}", known_dialects()));
    }
    found
}

/// How a command runs the pipeline: `--dialect`, `--allow-any`, `--exact`.
pub struct Mode {
    pub dialect: String,
    pub allow_any: bool,
    pub exact: bool,
}

/// The pipeline's options for a command. `properties` keep the input's order (providers fill
/// arguments in the order they are shown); every other key is sorted, and the hash is the sorted
/// build's, the same as a Rust program's `SchemaOptions::new()` gives.
fn options(d: &'static dyn SchemaDialect, allow_any: bool, exact: bool) -> SchemaOptions {
    SchemaOptions::new()
        .dialect(d)
        .reject_any(!allow_any)
        .exact(exact)
        .property_order(PropertyOrder::DeclarationSortedHash)
}

fn read(out: &mut Out, path: &str, jsonl: bool, status: &mut Status) -> Option<Input> {
    match input::read(path, jsonl) {
        Ok(input) => Some(input),
        Err(Unreadable(message)) => {
            out.error(path, &message);
            status.raise(Status::USAGE);
            None
        }
    }
}

/// The tool's schema, or reports why its entry cannot be read.
fn schema_of<'t>(out: &mut Out, input: &Input, tool: &'t Tool, status: &mut Status) -> Option<&'t Value> {
    match &tool.schema {
        Ok(schema) => Some(schema),
        Err(message) => {
            out.error(&input.label, message);
            status.raise(Status::USAGE);
            None
        }
    }
}

fn usage(out: &mut Out, place: &str, message: &str) -> Status {
    out.error(place, message);
    Status::USAGE
}

/// How `rewrite_each` writes: RFC 8785 bytes (`canon`), or each map in its own order (the
/// input's, with each schema's `properties` as declared and its other keys sorted).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    Canonical,
    Ordered,
}

/// Runs `f` on every tool and prints the input in its own shape with the results in place.
fn rewrite_each(
    out: &mut Out,
    input: &Input,
    pretty: bool,
    layout: Layout,
    status: &mut Status,
    mut f: impl FnMut(&Tool, &Value) -> Result<Value, String>,
) {
    let mut progress = Progress::new(input.tools.len(), "tools");
    let mut new = Vec::with_capacity(input.tools.len());
    for tool in &input.tools {
        progress.step();
        let result = schema_of(out, input, tool, status).map(|schema| f(tool, schema));
        new.push(match result {
            Some(Ok(value)) => Some(value),
            Some(Err(message)) => {
                out.error(&input.tool_label(tool), &message);
                status.raise(Status::REFUSED);
                None
            }
            None => None,
        });
    }
    progress.clear();
    for value in input.rewrite(&new) {
        let text = match layout {
            Layout::Canonical => render(&value, pretty),
            Layout::Ordered if pretty => serde_json::to_string_pretty(&value).unwrap_or_default(),
            Layout::Ordered => serde_json::to_string(&value).unwrap_or_default(),
        };
        out.line(&text);
    }
}

fn pretty_with_jsonl(out: &mut Out, pretty: bool, jsonl: bool) -> Option<Status> {
    (pretty && jsonl).then(|| {
        usage(out, "--pretty", "cannot be used with `--jsonl`: JSON Lines output has one value a line")
    })
}

pub fn canon(out: &mut Out, mode: &Mode, pretty: bool, jsonl: bool, path: &str) -> Status {
    if let Some(s) = pretty_with_jsonl(out, pretty, jsonl) {
        return s;
    }
    let Some(d) = find_dialect(out, &mode.dialect) else { return Status::USAGE };
    let mut status = Status::OK;
    let Some(input) = read(out, path, jsonl, &mut status) else { return status };
    let opts = options(d, mode.allow_any, mode.exact);
    rewrite_each(out, &input, pretty, Layout::Canonical, &mut status, |_, schema| {
        opts.normalize(schema.clone()).map(ToolSchema::into_value).map_err(|e| e.to_string())
    });
    status
}

pub fn self_contained(
    out: &mut Out,
    tool_name: Option<&str>,
    pretty: bool,
    jsonl: bool,
    path: &str,
) -> Status {
    if let Some(s) = pretty_with_jsonl(out, pretty, jsonl) {
        return s;
    }
    let mut status = Status::OK;
    let Some(input) = read(out, path, jsonl, &mut status) else { return status };
    let stem = std::path::Path::new(path).file_stem().and_then(|s| s.to_str()).unwrap_or("stdin");
    let single_name = tool_name.unwrap_or(if path == "-" { "stdin" } else { stem }).to_owned();
    rewrite_each(out, &input, pretty, Layout::Ordered, &mut status, |tool, schema| {
        let name = tool.name.as_deref().unwrap_or(&single_name);
        let mut contained =
            toolschema::self_contained_input_schema(schema, name).map_err(|e| e.to_string())?;
        // The input's `properties` order kept, every other key sorted, as `normalize` writes.
        toolschema::passes::sort_keys(&mut contained, true);
        Ok(contained)
    });
    status
}

pub fn hash(out: &mut Out, mode: &Mode, jsonl: bool, paths: &[String]) -> Status {
    let Some(d) = find_dialect(out, &mode.dialect) else { return Status::USAGE };
    let opts = options(d, mode.allow_any, mode.exact);
    let mut status = Status::OK;
    for path in paths {
        let Some(input) = read(out, path, jsonl, &mut status) else { continue };
        let mut progress = Progress::new(input.tools.len(), "tools");
        for tool in &input.tools {
            progress.step();
            let Some(schema) = schema_of(out, &input, tool, &mut status) else { continue };
            match opts.normalize(schema.clone()) {
                Ok(s) => out.line(&format!("{}  {}", s.hash(), input.tool_label(tool))),
                Err(e) => {
                    out.error(&input.tool_label(tool), &e.to_string());
                    status.raise(Status::REFUSED);
                }
            }
        }
    }
    status
}

/// The value at a JSON pointer.
fn resolve<'v>(root: &'v Value, tokens: &[std::borrow::Cow<'_, str>]) -> Option<&'v Value> {
    tokens.iter().try_fold(root, |node, token| match node {
        Value::Object(map) => map.get(token.as_ref()),
        Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

fn type_at(schema: &Value, tokens: &[std::borrow::Cow<'_, str>]) -> Option<Value> {
    let prop = resolve(schema, tokens)?;
    Some(toolschema::declared_type(prop, schema).map_or(Value::Null, |t| Value::String(t.to_string())))
}

pub fn declared_type(out: &mut Out, pointer: &str, tool: Option<&str>, jsonl: bool, path: &str) -> Status {
    let Some(tokens) = toolschema::pointer::tokens(pointer) else {
        return usage(
            out,
            "--pointer",
            &format!(
                "`{pointer}` is not a JSON pointer: it must be empty or start with `/`, and `~` must be followed by `0` or `1`"
            ),
        );
    };
    let mut status = Status::OK;
    let Some(input) = read(out, path, jsonl, &mut status) else { return status };
    let missing = |name: &str| format!("nothing at `{pointer}` in {name}");
    if !input.is_batch() || tool.is_some() {
        let found = match tool {
            Some(name) if input.is_batch() => input.tools.iter().find(|t| t.name.as_deref() == Some(name)),
            Some(_) => return usage(out, "--tool", "only applies to a tools/list document or JSON Lines"),
            None => input.tools.first(),
        };
        let Some(found) = found else {
            let name = tool.unwrap_or_default();
            return usage(out, &input.label, &format!("no tool named `{name}`"));
        };
        let Some(schema) = schema_of(out, &input, found, &mut status) else { return status };
        match type_at(schema, &tokens) {
            Some(t) => out.line(&render(&t, false)),
            None => status.raise(usage(out, &input.tool_label(found), &missing("the schema"))),
        }
        return status;
    }
    let mut answers = Map::new();
    for tool in &input.tools {
        let Some(schema) = schema_of(out, &input, tool, &mut status) else { continue };
        let name = tool.name.clone().unwrap_or_default();
        answers.insert(name, type_at(schema, &tokens).unwrap_or(Value::Null));
    }
    out.line(&render(&Value::Object(answers), false));
    status
}

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
pub struct CheckOptions {
    pub allow_any: bool,
    pub exact: bool,
    pub adaptations: bool,
    pub json: bool,
    /// `--order`: print each accepted tool's property order per dialect.
    pub order: bool,
    /// `--max-tokens`: refuse a tool whose whole o200k count exceeds it.
    pub max_tokens: Option<usize>,
}

pub fn check(out: &mut Out, names: &[String], flags: CheckOptions, jsonl: bool, paths: &[String]) -> Status {
    let CheckOptions { allow_any, exact, adaptations: list_adaptations, json: json_out, order, max_tokens } =
        flags;
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
                    options(*d, allow_any, exact).normalize(schema.clone())
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
        let mut results = Vec::new();
        for row in &rows {
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
    if list_adaptations {
        for row in &rows {
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
        for row in &rows {
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
    for row in &rows {
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
    for row in &rows {
        table.push(std::iter::once(row.tool.clone()).chain(row.verdicts.iter().map(cell)).collect());
    }
    let widths: Vec<usize> =
        (0..table[0].len()).map(|c| table.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &table {
        let cells: Vec<String> = r.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.line(cells.join("  ").trim_end());
    }
    for request in &requests {
        request.print(out);
    }
    let mut summary = format!(
        "{} tool(s) x {} dialect(s): {accepted} accepted, {refused} refused",
        rows.len(),
        dialects.len()
    );
    if !unreadable.is_empty() {
        summary.push_str(&format!(", {} unreadable", unreadable.len()));
    }
    out.line(&summary);
    status
}

/// What the accepted tools make together under one dialect: the names its provider is told
/// (where they differ) and the provider's request-level limits.
struct Request {
    dialect: String,
    names: Option<ToolNames>,
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
        if names.as_ref().is_some_and(|n| !n.is_empty()) || !limits.is_empty() {
            out.push(Request { dialect: (*d).to_owned(), names, limits });
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
        if !self.limits.is_empty() {
            out.line(&format!("request limits for `{d}`, every accepted tool in one request:"));
            for limit in &self.limits {
                out.line(&format!("  - {limit}"));
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
                json!({"limit": l.what, "max": l.max, "total": l.total, "exceeded": l.exceeded(), "over": l.over})
            })
            .collect();
        json!({"dialect": self.dialect, "names": names, "limits": limits})
    }
}

pub fn restore(
    out: &mut Out,
    mode: &Mode,
    schema_path: &str,
    tool: Option<&str>,
    jsonl: bool,
    pretty: bool,
    args_path: &str,
) -> Status {
    let Some(d) = find_dialect(out, &mode.dialect) else { return Status::USAGE };
    if schema_path == "-" && args_path == "-" {
        return usage(out, "--schema", "the schema and the arguments cannot both be read from stdin");
    }
    let mut status = Status::OK;
    let Some(input) = read(out, schema_path, jsonl, &mut status) else { return status };
    let found = match tool {
        Some(name) => input.tools.iter().find(|t| t.name.as_deref() == Some(name)),
        None if input.tools.len() == 1 => input.tools.first(),
        None => return usage(out, "--tool", "the schema file holds several tools: name one with `--tool`"),
    };
    let Some(found) = found else {
        return usage(out, &input.label, &format!("no tool named `{}`", tool.unwrap_or_default()));
    };
    let Some(schema) = schema_of(out, &input, found, &mut status) else { return status };
    let built = match options(d, mode.allow_any, mode.exact).normalize(schema.clone()) {
        Ok(s) => s,
        Err(e) => {
            out.error(&input.tool_label(found), &e.to_string());
            return Status::REFUSED;
        }
    };
    let args = match input::read_value(args_path) {
        Ok(args) => args,
        Err(Unreadable(message)) => return usage(out, args_path, &message),
    };
    match built.restore(args) {
        Ok(restored) => {
            out.line(&render(&restored, pretty));
            status
        }
        Err(e) => {
            out.error(args_path, &e.to_string());
            Status::REFUSED
        }
    }
}

/// A change with the tool it belongs to, in a batch.
struct ToolChange {
    tool: Option<String>,
    change: Change,
    /// The whole tool was added or removed: the change has no pointer.
    whole_tool: bool,
}

fn normalize_for_diff(
    out: &mut Out,
    opts: &SchemaOptions,
    label: &str,
    schema: &Value,
    status: &mut Status,
) -> Option<ToolSchema> {
    match opts.normalize(schema.clone()) {
        Ok(s) => Some(s),
        Err(e) => {
            out.error(label, &format!("cannot normalise, so cannot compare: {e}"));
            status.raise(Status::REFUSED);
            None
        }
    }
}

pub fn diff(
    out: &mut Out,
    mode: &Mode,
    json_out: bool,
    jsonl: bool,
    old_path: &str,
    new_path: &str,
) -> Status {
    let Some(d) = find_dialect(out, &mode.dialect) else { return Status::USAGE };
    let opts = options(d, mode.allow_any, mode.exact);
    let mut status = Status::OK;
    let old = read(out, old_path, jsonl, &mut status);
    let new = read(out, new_path, jsonl, &mut status);
    let (Some(old), Some(new)) = (old, new) else { return status };
    if old.is_batch() != new.is_batch() {
        return usage(
            out,
            new_path,
            "cannot compare a single schema with a batch of tools; give two of a kind",
        );
    }
    let mut changes: Vec<ToolChange> = Vec::new();
    let compare =
        |out: &mut Out, status: &mut Status, name: Option<String>, a: (&Input, &Tool), b: (&Input, &Tool)| {
            let (Some(x), Some(y)) = (schema_of(out, a.0, a.1, status), schema_of(out, b.0, b.1, status))
            else {
                return Vec::new();
            };
            let x = normalize_for_diff(out, &opts, &a.0.tool_label(a.1), x, status);
            let y = normalize_for_diff(out, &opts, &b.0.tool_label(b.1), y, status);
            let (Some(x), Some(y)) = (x, y) else { return Vec::new() };
            let found = toolschema::diff::diff(x.as_value(), y.as_value());
            found
                .into_changes()
                .into_iter()
                .map(|change| ToolChange { tool: name.clone(), change, whole_tool: false })
                .collect()
        };
    if !old.is_batch() {
        changes = compare(out, &mut status, None, (&old, &old.tools[0]), (&new, &new.tools[0]));
    } else {
        let by_name = |i: &Input| -> BTreeMap<String, usize> {
            let mut m = BTreeMap::new();
            for (k, t) in i.tools.iter().enumerate() {
                if let Some(n) = &t.name {
                    m.entry(n.clone()).or_insert(k);
                }
            }
            m
        };
        let (a, b) = (by_name(&old), by_name(&new));
        let names: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for name in names {
            match (a.get(name), b.get(name)) {
                (Some(&i), Some(&j)) => changes.extend(compare(
                    out,
                    &mut status,
                    Some(name.clone()),
                    (&old, &old.tools[i]),
                    (&new, &new.tools[j]),
                )),
                (Some(_), None) => changes.push(tool_change(
                    name,
                    ChangeKind::Narrowing,
                    "tool removed: calls to it fail now",
                )),
                (None, Some(_)) => changes.push(tool_change(name, ChangeKind::Widening, "tool added")),
                (None, None) => {}
            }
        }
        for input in [&old, &new] {
            for tool in input.tools.iter().filter(|t| t.name.is_none()) {
                schema_of(out, input, tool, &mut status);
            }
        }
    }
    if changes.iter().any(|c| c.change.kind == ChangeKind::Narrowing) {
        status.raise(Status::REFUSED);
    }
    if json_out {
        let list: Vec<Value> = changes
            .iter()
            .map(|c| {
                let pointer = if c.whole_tool { Value::Null } else { Value::String(c.change.pointer.clone()) };
                json!({"tool": c.tool, "pointer": pointer, "kind": c.change.kind.as_str(), "message": c.change.message})
            })
            .collect();
        let narrowing = changes.iter().any(|c| c.change.kind == ChangeKind::Narrowing);
        out.line(&render(&json!({"changes": list, "narrowing": narrowing}), true));
        return status;
    }
    for c in &changes {
        match &c.tool {
            Some(tool) if c.whole_tool => {
                out.line(&format!("{tool}: {}: {}", c.change.kind, c.change.message))
            }
            Some(tool) => out.line(&format!("{tool}: {}", c.change)),
            None => out.line(&c.change.to_string()),
        }
    }
    let count = |k: ChangeKind| changes.iter().filter(|c| c.change.kind == k).count();
    if changes.is_empty() {
        out.line("no changes");
    } else {
        out.line(&format!(
            "{} change(s): {} narrowing, {} widening, {} annotation-only",
            changes.len(),
            count(ChangeKind::Narrowing),
            count(ChangeKind::Widening),
            count(ChangeKind::AnnotationOnly)
        ));
    }
    status
}

fn tool_change(name: &str, kind: ChangeKind, message: &str) -> ToolChange {
    let change = Change::new("", kind, message);
    ToolChange { tool: Some(name.to_owned()), change, whole_tool: true }
}

/// `toolschema pin FILE` and `toolschema pin --accept FILE TOOL...`.
pub fn pin(out: &mut Out, accept: bool, path: &std::path::Path, tools: &[String]) -> Status {
    let label = path.display().to_string();
    let mut pins = match crate::pin::Pins::read(path) {
        Ok(pins) => pins,
        Err(e) => return usage(out, "--pin", &e.0),
    };
    if !accept {
        if !tools.is_empty() {
            return usage(out, "pin", "name tools only with `--accept`");
        }
        for (name, fields) in &pins.tools {
            out.line(&format!("{}  {name}", crate::pin::hash_of(name, fields)));
        }
        for (name, listed) in &pins.pending {
            let changes =
                pins.tools.get(name).map(|old| crate::pin::changes(old, listed)).unwrap_or_default();
            out.line(&format!("pending: {name} (`toolschema pin --accept {label} {name}`):"));
            for change in changes {
                out.line(&format!("  - {change}"));
            }
        }
        return Status::OK;
    }
    if tools.is_empty() {
        return usage(out, "--accept", "name the tools whose pending listing to accept");
    }
    let mut status = Status::OK;
    for name in tools {
        match pins.accept(name) {
            Ok(()) => out.line(&format!("accepted: {name}")),
            Err(message) => status.raise(usage(out, &label, &message)),
        }
    }
    if let Err(e) = pins.write(path) {
        return usage(out, &label, &e.0);
    }
    status
}

/// One counted tool of `tokens`.
struct Counted {
    label: String,
    name: String,
    tokens: ToolTokens,
}

/// The name a tool is counted under: its own, or for a single schema the file stem (`stdin` for
/// `-`), as `self-contained` names it.
fn count_name(input: &Input, tool: &Tool) -> String {
    tool.name.clone().unwrap_or_else(|| {
        if input.label == "-" {
            return "stdin".to_owned();
        }
        std::path::Path::new(&input.label).file_stem().and_then(|s| s.to_str()).unwrap_or("stdin").to_owned()
    })
}

pub fn tokens(out: &mut Out, mode: &Mode, json_out: bool, jsonl: bool, paths: &[String]) -> Status {
    let Some(d) = find_dialect(out, &mode.dialect) else { return Status::USAGE };
    let opts = options(d, mode.allow_any, mode.exact);
    let mut status = Status::OK;
    let mut counted = Vec::new();
    for path in paths {
        let Some(input) = read(out, path, jsonl, &mut status) else { continue };
        let mut progress = Progress::new(input.tools.len(), "tools");
        for tool in &input.tools {
            progress.step();
            let Some(schema) = schema_of(out, &input, tool, &mut status) else { continue };
            match opts.normalize(schema.clone()) {
                Ok(s) => {
                    let name = count_name(&input, tool);
                    let tokens = ToolTokens::new(&name, tool.description.as_deref(), s.as_value());
                    counted.push(Counted { label: input.tool_label(tool), name, tokens });
                }
                Err(e) => {
                    out.error(&input.tool_label(tool), &e.to_string());
                    status.raise(Status::REFUSED);
                }
            }
        }
    }
    let all: Vec<ToolTokens> = counted.iter().map(|c| c.tokens).collect();
    let sum = |f: fn(&ToolTokens) -> usize| all.iter().map(f).sum::<usize>();
    if json_out {
        let estimates = |t: Option<&ToolTokens>| -> Value {
            Provider::ALL
                .iter()
                .map(|p| {
                    let n = t.map_or_else(|| p.listing_estimate(&all), |t| p.tool_estimate(t));
                    (p.name().to_owned(), json!(n))
                })
                .collect::<Map<String, Value>>()
                .into()
        };
        let tools: Vec<Value> = counted
            .iter()
            .map(|c| {
                json!({
                    "tool": c.label, "name": c.name,
                    "tokens": {"name": c.tokens.name, "description": c.tokens.description,
                               "schema": c.tokens.schema, "tool": c.tokens.tool()},
                    "estimates": estimates(Some(&c.tokens)),
                })
            })
            .collect();
        let report = json!({
            "dialect": d.name(),
            "encoding": "o200k_base",
            "tools": tools,
            "total": {"tools": counted.len(), "schema": sum(|t| t.schema), "tool": sum(ToolTokens::tool),
                      "estimates": estimates(None)},
        });
        out.line(&render(&report, true));
        return status;
    }
    let mut table: Vec<Vec<String>> = vec![
        ["tool", "schema", "name+desc+schema"]
            .into_iter()
            .map(str::to_owned)
            .chain(Provider::ALL.iter().map(|p| format!("{}~", p.name())))
            .collect(),
    ];
    for c in &counted {
        let mut row = vec![c.label.clone(), c.tokens.schema.to_string(), c.tokens.tool().to_string()];
        row.extend(Provider::ALL.iter().map(|p| p.tool_estimate(&c.tokens).to_string()));
        table.push(row);
    }
    let mut total = vec![
        format!("total ({} tools)", counted.len()),
        sum(|t| t.schema).to_string(),
        sum(ToolTokens::tool).to_string(),
    ];
    total.extend(Provider::ALL.iter().map(|p| p.listing_estimate(&all).to_string()));
    table.push(total);
    let widths: Vec<usize> =
        (0..table[0].len()).map(|c| table.iter().map(|r| r[c].chars().count()).max().unwrap_or(0)).collect();
    for r in &table {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| if i == 0 { format!("{c:<w$}") } else { format!("{c:>w$}") })
            .collect();
        out.line(cells.join("  ").trim_end());
    }
    out.line(&format!(
        "o200k_base tokens of the `{}` schemas; provider columns (~) add each provider's framing, scaled for anthropic and gemini (see docs/budgets.md)",
        d.name()
    ));
    status
}
