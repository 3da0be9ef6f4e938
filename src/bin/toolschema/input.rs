//! Reading an input: one JSON Schema, an MCP `tools/list` result, or JSON Lines of tools.
//!
//! Depends on serde_json and std only: `fuzz/laws.rs` includes this file with `#[path]`.

use serde_json::Value;
use std::io::Read;

/// A whole input that could not be read (exit 2).
pub struct Unreadable(pub String);

/// One input file (or stdin), split into tools.
pub struct Input {
    /// The path as given (`-` for stdin).
    pub label: String,
    pub shape: Shape,
    pub tools: Vec<Tool>,
}

/// What the input was, so that an output can take the same shape.
pub enum Shape {
    /// One schema.
    Single,
    /// `{"tools": [...]}` (or a JSON-RPC response with it under `result`): the document, and the
    /// path to its `tools` array.
    ToolsList { doc: Value, under_result: bool },
    /// JSON Lines: every line's object as read (`None` for a line that is not JSON).
    Lines { lines: Vec<Option<Value>> },
}

/// One tool of an input.
pub struct Tool {
    /// The tool's name; for a single schema, none.
    pub name: Option<String>,
    /// Where it is in the input: the tools index, or the line's index among the lines.
    pub index: usize,
    /// Its schema, or why the entry cannot be read (exit 2 for that tool).
    pub schema: Result<Value, String>,
    /// The tool's `description`, for a tool of a batch that has one.
    pub description: Option<String>,
}

impl Input {
    /// How a tool is named in messages and reports: the path for a single schema, else
    /// `path#name`.
    pub fn tool_label(&self, tool: &Tool) -> String {
        match (&self.shape, &tool.name) {
            (Shape::Single, _) => self.label.clone(),
            (_, Some(name)) => format!("{}#{name}", self.label),
            (Shape::ToolsList { .. }, None) => format!("{}#tools[{}]", self.label, tool.index),
            (Shape::Lines { .. }, None) => format!("{}#line {}", self.label, tool.index + 1),
        }
    }

    /// Whether the input holds several tools (a tool list or JSON Lines).
    pub fn is_batch(&self) -> bool {
        !matches!(self.shape, Shape::Single)
    }

    /// The input with each tool's schema replaced by `new[i]` where it is `Some`: one value for a
    /// single schema or a tool list, one value per line for JSON Lines.
    pub fn rewrite(&self, new: &[Option<Value>]) -> Vec<Value> {
        match &self.shape {
            Shape::Single => new.first().cloned().flatten().into_iter().collect(),
            Shape::ToolsList { doc, under_result } => {
                let mut doc = doc.clone();
                let tools = if *under_result { &mut doc["result"]["tools"] } else { &mut doc["tools"] };
                for (tool, schema) in self.tools.iter().zip(new) {
                    if let (Some(schema), Some(entry)) = (schema, tools.get_mut(tool.index)) {
                        entry["inputSchema"] = schema.clone();
                    }
                }
                vec![doc]
            }
            Shape::Lines { lines } => {
                let mut out: Vec<Value> = Vec::new();
                for (tool, schema) in self.tools.iter().zip(new) {
                    match (lines.get(tool.index).cloned().flatten(), schema) {
                        (Some(mut line), Some(schema)) => {
                            line["schema"] = schema.clone();
                            out.push(line);
                        }
                        (Some(line), None) => out.push(line),
                        (None, _) => {}
                    }
                }
                out
            }
        }
    }
}

/// serde_json's message without its ` at line L column C` suffix.
fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    text.rsplit_once(" at line ").map_or(text.clone(), |(m, _)| m.to_owned())
}

/// `invalid JSON at line L, column C: message`.
pub fn json_error(e: &serde_json::Error) -> String {
    format!("invalid JSON at line {}, column {}: {}", e.line(), e.column(), json_message(e))
}

fn read_text(path: &str) -> Result<String, Unreadable> {
    let mut text = String::new();
    let result = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text)).map(|_| ())
    };
    result.map_err(|e| Unreadable(format!("cannot read: {e}")))?;
    Ok(text)
}

/// Reads one JSON value, as it is (a model's arguments: never split into tools).
pub fn read_value(path: &str) -> Result<Value, Unreadable> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| Unreadable(json_error(&e)))
}

/// Reads and splits an input.
pub fn read(path: &str, jsonl: bool) -> Result<Input, Unreadable> {
    let text = read_text(path)?;
    parse(path, &text, jsonl)
}

/// Splits an input's text into tools; `label` names it in messages. Separate from [`read`] so the
/// fuzz target `cli_input` runs exactly this code on arbitrary text.
pub fn parse(label: &str, text: &str, jsonl: bool) -> Result<Input, Unreadable> {
    let label = label.to_owned();
    if jsonl {
        return Ok(read_lines(label, text));
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| Unreadable(json_error(&e)))?;
    let (list, under_result) = match (doc.get("tools"), doc.get("result").and_then(|r| r.get("tools"))) {
        (Some(Value::Array(list)), _) => (Some(list), false),
        (None, Some(Value::Array(list))) => (Some(list), true),
        _ => (None, false),
    };
    let Some(list) = list else {
        let tools = vec![Tool { name: None, index: 0, schema: Ok(doc), description: None }];
        return Ok(Input { label, shape: Shape::Single, tools });
    };
    let tools = list
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let name = entry.get("name").and_then(Value::as_str).map(str::to_owned);
            let schema = match (&name, entry.get("inputSchema")) {
                (Some(_), Some(schema)) => Ok(schema.clone()),
                (None, _) => Err(format!("`tools[{index}]` has no string `name`")),
                (Some(_), None) => Err(format!("`tools[{index}]` has no `inputSchema`")),
            };
            let description = entry.get("description").and_then(Value::as_str).map(str::to_owned);
            Tool { name, index, schema, description }
        })
        .collect();
    let shape = Shape::ToolsList { doc: doc.clone(), under_result };
    Ok(Input { label, shape, tools })
}

fn read_lines(label: String, text: &str) -> Input {
    let mut tools = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            lines.push(None);
            continue;
        }
        let (name, schema, kept) = match serde_json::from_str::<Value>(line) {
            Err(e) => {
                let msg =
                    format!("invalid JSON at line {}, column {}: {}", i + 1, e.column(), json_message(&e));
                (None, Err(msg), None)
            }
            Ok(v) => {
                let name = v.get("name").and_then(Value::as_str).map(str::to_owned);
                let schema = match (&name, v.get("schema")) {
                    (Some(_), Some(s)) => Ok(s.clone()),
                    (None, _) => Err(format!("line {}: no string `name`", i + 1)),
                    (Some(_), None) => Err(format!("line {}: no `schema`", i + 1)),
                };
                (name, schema, Some(v))
            }
        };
        let description =
            kept.as_ref().and_then(|v| v.get("description")).and_then(Value::as_str).map(str::to_owned);
        lines.push(kept);
        tools.push(Tool { name, index: i, schema, description });
    }
    Input { label, shape: Shape::Lines { lines }, tools }
}
