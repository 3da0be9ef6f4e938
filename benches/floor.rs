//! A check-free floor for target 3 of BENCHMARKS.md: the output of `self_contained_input_schema` made with no
//! check at all, in the cheapest way we know on serde_json's `Value`. It is timed beside the
//! function over the whole corpus, and target 3 is the function at most 1.15x it in the same run
//! (the compare bench's corpus rows); each round of `benches/python_compare.sh` also gives its
//! ratio to the Python reference, which says how fast any implementation that returns a `Value`
//! could be against that day's Python.
//!
//! What it does, per corpus schema (the plan is made once, before any timing, from the function's
//! own answer):
//!
//! - **Copy** (845 of the 890 schemas): the output is the input with its root finished. The floor
//!   reads every entry once (as any function must, to learn that nothing in it needs rewriting:
//!   a `title` or a `$ref` may sit anywhere), deep-clones the input and finishes the root. Fusing
//!   the read into the copy is dearer: a map can only be built key by key (`insert` or
//!   `collect`), which costs 1.3x to 1.4x `Value::clone`'s node-by-node copy of the same tree
//!   (measured on the corpus), more than the read it would save.
//! - **Build** (the 42 with definitions, references, titles or unions to collapse): [`build_finished`], an
//!   inliner with no check. It rebuilds each map key by key without `title`, `$defs` and
//!   `definitions`; copies `default`, `enum`, `const` and `examples` whole; replaces a local
//!   `$ref` with its target's build, the site's own keywords added; leaves an empty schema where
//!   a reference is already being expanded; and collapses an optional `anyOf` of one member and
//!   `null`. It checks no shape, counts no size, keeps no pointer, reports nothing.
//! - **Skip** (the 3 schemas the function refuses): nothing.
//!
//! It builds the function's exact output for 24 of the 42 built schemas. On the other 18 the two
//! differ in small ways, both ways (their compact outputs add up to 21,850 bytes against the
//! function's 22,199): the floor leaves an optional union with a description beside it
//! uncollapsed, collapses a nullable field the function keeps as a `type` list, drops a
//! `default` the function keeps, and cuts recursion at other points; on two recursive schemas
//! (`tree_node`, `linked_list`) it takes longer than the function, about 1.3 µs a pass over the
//! corpus (0.1% of it).

use serde_json::{Map, Value};
use toolschema::refs;

/// What the floor does with one corpus schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Read every entry, clone, finish the root.
    Copy,
    /// [`build_finished`].
    Build,
    /// The function refuses the schema: nothing.
    Skip,
}

/// The plan for `input`, from the function's output (`None` if it refused the input).
pub(crate) fn plan(input: &Value, output: Option<&Value>) -> Plan {
    match output {
        None => Plan::Skip,
        Some(out) if *out == finish(input.clone()) => Plan::Copy,
        Some(_) => Plan::Build,
    }
}

/// The floor's output for `input` under `plan` (`None` for [`Plan::Skip`]).
pub(crate) fn run(input: &Value, plan: Plan) -> Option<Value> {
    match plan {
        Plan::Copy => (std::hint::black_box(read_every_entry(input)) > 0).then(|| finish(input.clone())),
        Plan::Build => Some(build_finished(input)),
        Plan::Skip => None,
    }
}

/// Every key and value of `v`, each read once (string lengths added up, so nothing is skipped):
/// what any walk that checks a schema reads at least. Recursive, for the corpus only.
pub(crate) fn read_every_entry(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + 1,
        Value::Array(items) => items.iter().map(read_every_entry).sum::<usize>() + 1,
        Value::Object(map) => map.iter().map(|(k, v)| k.len() + read_every_entry(v)).sum::<usize>() + 1,
        _ => 1,
    }
}

/// The check-free inliner over a whole schema (see the module documentation), its root finished.
pub(crate) fn build_finished(root: &Value) -> Value {
    finish(build_in(root, root, 0, &mut Vec::new()))
}

/// Levels of JSON nesting past which [`build_in`] stops (an empty schema): only a guard, far
/// deeper than any corpus schema's expansion.
const MAX_LEVELS: usize = 400;

fn build_in<'v>(node: &'v Value, root: &'v Value, level: usize, expanding: &mut Vec<&'v str>) -> Value {
    if level > MAX_LEVELS {
        return Value::Object(Map::new());
    }
    match node {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                if expanding.contains(&r.as_str()) {
                    return Value::Object(Map::new());
                }
                expanding.push(r);
                let built = refs::resolve(root, r).map(|t| build_in(t, root, level + 1, expanding));
                expanding.pop();
                let mut out = match built {
                    Some(Value::Object(out)) => out,
                    Some(other) => return other,
                    None => Map::new(),
                };
                for (key, v) in map {
                    if key != "$ref" && key != "title" {
                        out.insert(key.clone(), build_in(v, root, level + 1, expanding));
                    }
                }
                return Value::Object(out);
            }
            if let Some(Value::Array(members)) = map.get("anyOf")
                && members.len() == 2
                && map.keys().all(|k| k == "anyOf" || k == "title" || k == "default")
                && members.iter().any(is_null)
                && let Some(real) = members.iter().find(|m| !is_null(m))
            {
                return build_in(real, root, level + 1, expanding);
            }
            let mut out = Map::new();
            for (key, v) in map {
                match key.as_str() {
                    "title" | "$defs" | "definitions" => {}
                    "default" | "enum" | "const" | "examples" => {
                        out.insert(key.clone(), v.clone());
                    }
                    _ => {
                        out.insert(key.clone(), build_in(v, root, level + 1, expanding));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| build_in(v, root, level + 1, expanding)).collect())
        }
        other => other.clone(),
    }
}

/// `{"type": "null", ...}`.
fn is_null(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.get("type").is_some_and(|t| t == "null"))
}

/// The root's final shape, unchecked: `type` "object", `properties` and `required` present, no
/// `description`.
fn finish(mut v: Value) -> Value {
    if let Value::Object(m) = &mut v {
        if !m.contains_key("required") {
            m.insert("required".to_owned(), Value::Array(Vec::new()));
        }
        if !m.contains_key("properties") {
            m.insert("properties".to_owned(), Value::Object(Map::new()));
        }
        if m.get("type").is_none_or(|t| t != "object") {
            m.insert("type".to_owned(), Value::String("object".to_owned()));
        }
        m.remove("description");
    }
    v
}
