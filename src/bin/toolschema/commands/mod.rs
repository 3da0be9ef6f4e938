//! One function per command; each returns the exit status it earned.

mod check;
mod diff;

use crate::input::{self, Input, Tool, Unreadable};
use crate::output::{Out, Progress, Status, render};
use serde_json::{Map, Value, json};
use toolschema::tokens::{Provider, ToolTokens};
use toolschema::{PropertyOrder, SchemaDialect, SchemaOptions, ToolSchema, dialect};

pub use self::check::{CheckOptions, check};
pub use self::diff::diff;

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

/// How a command runs the pipeline: `--dialect`, `--allow-any`, `--exact`, `--recursion-depth`.
pub struct Mode {
    pub dialect: String,
    pub allow_any: bool,
    pub exact: bool,
    pub recursion_depth: usize,
}

/// The pipeline's options for a command. `properties` keep the input's order (providers fill
/// arguments in the order they are shown); every other key is sorted, and the hash is the sorted
/// build's, the same as a Rust program's `SchemaOptions::new()` gives.
fn options(
    d: &'static dyn SchemaDialect,
    allow_any: bool,
    exact: bool,
    recursion_depth: usize,
) -> SchemaOptions {
    SchemaOptions::new()
        .dialect(d)
        .reject_any(!allow_any)
        .exact(exact)
        .recursion_depth(recursion_depth)
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
    let opts = options(d, mode.allow_any, mode.exact, mode.recursion_depth);
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
    let opts = options(d, mode.allow_any, mode.exact, mode.recursion_depth);
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
    let built = match options(d, mode.allow_any, mode.exact, mode.recursion_depth).normalize(schema.clone()) {
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
            let hash = crate::pin::hash_of(name, fields);
            let line = match fields.get("server").and_then(serde_json::Value::as_str) {
                Some(server) => format!("{hash}  {name}  (server `{server}`)"),
                None => format!("{hash}  {name}"),
            };
            out.line(&line);
        }
        for (name, listed) in &pins.pending {
            let changes = pins.describe(name, listed);
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
    let opts = options(d, mode.allow_any, mode.exact, mode.recursion_depth);
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
