//! `diff`: two inputs' schemas normalised and compared, each change with the tool it belongs to
//! (a tool added or removed is a change of its own), as text or JSON.

use super::{Mode, find_dialect, options, read, schema_of, usage};
use crate::input::{Input, Tool};
use crate::output::{Out, Status, render};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use toolschema::diff::{Change, ChangeKind};
use toolschema::{SchemaOptions, ToolSchema};

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
    let opts = options(d, mode.allow_any, mode.exact, mode.recursion_depth);
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
    if old.is_batch() {
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
    } else {
        changes = compare(out, &mut status, None, (&old, &old.tools[0]), (&new, &new.tools[0]));
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
                out.line(&format!("{tool}: {}: {}", c.change.kind, c.change.message));
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
