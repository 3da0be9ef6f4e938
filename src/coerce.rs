//! Loose-input coercion: arguments a model sent without strict mode, where a value was written as
//! text, turned into the value the schema declares.
//!
//! Without strict mode a model often writes a list as the JSON text of a list (`"[\"a\", \"b\"]"`),
//! a number as a numeric string (`"3"`), a boolean as `"true"`. [`coerce`] converts exactly these,
//! at positions whose schema declares the type, and guesses nothing else:
//!
//! | the position declares | a string holding | becomes |
//! | --- | --- | --- |
//! | `array` or `object` | JSON text of an array or an object | the parsed value, whose own contents are coerced in turn |
//! | `number` | a JSON number (`"2.5"`, `"-1e3"`) | the number |
//! | `integer` | a JSON number with an integral value (`"3"`, `"3.0"`) | the integer |
//! | `boolean` | `"true"` or `"false"` | the boolean |
//!
//! A string at a position that declares another single type (`"abc"` for a number, `"yes"` for a
//! boolean, text that is not JSON for an array) is a [`Fault`] worded for the model: the schema
//! refuses such a string whatever it holds, so the model learns what to send instead. Everything
//! else is left as it is: a number where a string is declared, `null`, a union of two types,
//! an untyped position. Coercion is not a validator; the tool (or [`RestorePlan::restore`])
//! judges the rest. Every conversion is reported as a [`Coercion`] with its pointer, for logs.
//!
//! ```
//! use serde_json::json;
//! use toolschema::{coerce, JsonType};
//! // pydantic: `tags: list[str]`, `limit: int | None = None`, `dry_run: bool`
//! let schema = json!({"type": "object", "properties": {
//!     "tags": {"type": "array", "items": {"type": "string"}},
//!     "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
//!     "dry_run": {"type": "boolean"}}});
//! let sent = json!({"tags": "[\"a\", \"b\"]", "limit": "10", "dry_run": "false"});
//! let coerced = coerce(&schema, sent)?;
//! assert_eq!(coerced.value, json!({"tags": ["a", "b"], "limit": 10, "dry_run": false}));
//! assert_eq!(coerced.coercions[0].to_string(), "`/dry_run`: a string read as a boolean");
//! assert_eq!((coerced.coercions[1].pointer.as_str(), coerced.coercions[1].to), ("/limit", JsonType::Integer));
//!
//! let err = coerce(&schema, json!({"limit": "ten"})).unwrap_err();
//! assert_eq!(err.to_string(), "the arguments do not fit the tool's schema:\n- `/limit`: must be an integer, got the string \"ten\"");
//! # Ok::<(), toolschema::ArgumentsError>(())
//! ```
//!
//! # Which type a position declares
//! The type is what [`declared_type`] reads (through `$ref`s, nullable type lists and optional
//! unions, BFCL's `dict`/`float`/`tuple` included), for the position's schema or, where it reads
//! none there, for a schema that applies beside it: the target of its `$ref`, a member of its
//! `allOf`, the one real member of its optional union. The walk goes down the arguments along
//! `properties`, `additionalProperties` (for keys `properties` does not name, where no
//! `patternProperties` might claim them), `prefixItems` (from 2020-12 on) and `items` (the tuple
//! form of earlier drafts too), of every schema that applies; under draft-07 and earlier a schema
//! holding `$ref` is its reference alone, as [`declared_type`] reads it. Where the schemas say nothing (a union of two
//! object shapes, a key only a pattern could match), the walk does not go.
//!
//! # Why an accepted value is never changed
//! Every schema the walk holds at a position applies to the value there: a property's schema
//! applies to the property of an object its parent accepts, a `$ref`'s target and every `allOf`
//! member apply beside the schema that holds them, and the real member of an optional union
//! applies to every value but `null` (the `null` member refuses the rest). A string changes only
//! where one of them declares a type other than `string`, and such a schema refuses every string.
//! So arguments the schema accepts come back unchanged, with no coercion reported: they are fixed
//! points (`tests/json_only/coerce.rs` checks this against the `jsonschema` crate on generated
//! schemas).
//!
//! # With restore
//! A model given a provider's adapted schema (a map written as a list of entries, `null` for an
//! absent field) answers that schema, loosely when strict mode is off: a list of entries written
//! as JSON text, a number in quotes. So [`coerce_and_restore`] coerces under the **provider's**
//! schema first, then runs the [`RestorePlan`]: coercion gives restore what its contract asks,
//! arguments of the provider's shapes, and restore maps them back to the original's. The other
//! order fails: restore reads a list of entries only from an array, and the original's schema
//! does not describe the text the model wrote for the provider's shape. (A position the provider
//! is told is a string of JSON text, an untyped value, declares `string`, so coercion leaves it
//! for restore to parse.) [`ToolSchema::coerce_and_restore`](crate::ToolSchema::coerce_and_restore)
//! does both for a schema built by [`SchemaOptions`](crate::SchemaOptions).
//!
//! # Budgets
//! The walk stops at [`MAX_DEPTH`] levels of arguments (a fault), and considers at most
//! [`MAX_SCHEMAS`] schemas at one position, so work is linear in the arguments whatever the
//! schema's references and `allOf`s look like. Needs serde_json alone.

use crate::foreign::declared_type;
use crate::foreign::declared_type::optional_member;
use crate::inline::draft::Draft;
use crate::pointer::Pointer;
use crate::refs;
use crate::restore::{ArgumentsError, Fault, RestorePlan};
use crate::vocab::json_type::JsonType;
use serde_json::{Map, Number, Value};
use std::fmt;

/// How deep [`coerce`] follows the arguments (levels of arrays and objects, text it parsed
/// included), as deep as [`restore`](crate::restore::MAX_DEPTH) does.
pub const MAX_DEPTH: usize = crate::restore::MAX_DEPTH;

/// How many schemas (a position's own, `$ref` targets, `allOf` members, optional unions' real
/// members) [`coerce`] considers at one position of the arguments; past it, it considers no more
/// (which can only mean fewer coercions, never a wrong one).
pub const MAX_SCHEMAS: usize = 64;

/// Arguments that went through [`coerce`]: the value, and every conversion made.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Coerced {
    /// The arguments, with every string the schema declares as another type converted.
    pub value: Value,
    /// Every conversion, in the order of the arguments (object keys sorted, arrays in order); a
    /// string holding JSON text comes before the conversions inside it.
    pub coercions: Vec<Coercion>,
}

/// One conversion [`coerce`] made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Coercion {
    /// JSON pointer into the arguments as the model sent them (inside a string of JSON text, a
    /// pointer continues into the parsed value).
    pub pointer: String,
    /// The type sent: always [`JsonType::String`] today.
    pub from: JsonType,
    /// The type the schema declares, which the value now has.
    pub to: JsonType,
}

impl fmt::Display for Coercion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {} read as {}", self.pointer, article(self.from), article(self.to))
    }
}

fn article(t: JsonType) -> &'static str {
    match t {
        JsonType::Object => "an object",
        JsonType::Array => "an array",
        JsonType::String => "a string",
        JsonType::Number => "a number",
        JsonType::Integer => "an integer",
        JsonType::Boolean => "a boolean",
        JsonType::Null => "null",
    }
}

/// Converts the strings in `args` that `schema` declares as another type: JSON text where an array
/// or object is declared, a numeric string where a number or integer is, `"true"`/`"false"`
/// where a boolean is. See the [module docs](self) for the rules and why arguments the schema
/// accepts come back unchanged.
///
/// `schema` is any JSON Schema (a foreign `inputSchema`, self-contained or not: local `$ref`s are
/// followed against it).
///
/// # Errors
/// [`ArgumentsError::Invalid`] with a [`Fault`] for every string that stands where another type
/// is declared and does not convert (`"ten"` for an integer, text that is not JSON for an array),
/// and for arguments deeper than [`MAX_DEPTH`].
pub fn coerce(schema: &Value, args: Value) -> Result<Coerced, ArgumentsError> {
    let legacy = Draft::of(schema).ref_ignores_siblings();
    // `prefixItems` is a keyword from 2020-12 on: 2019-09 and earlier drafts ignore it.
    let draft_2019 = matches!(schema.get("$schema"), Some(Value::String(s)) if s.contains("/draft/2019-09/"));
    let mut walk = Walk {
        root: schema,
        legacy,
        prefix_items: !legacy && !draft_2019,
        pointer: Pointer::root(),
        coercions: Vec::new(),
        faults: Vec::new(),
    };
    let mut value = args;
    let start = walk.expand(std::iter::once(schema));
    walk.at(&start, &mut value, 0);
    if walk.faults.is_empty() {
        Ok(Coerced { value, coercions: walk.coercions })
    } else {
        crate::walk::drop_any_depth(value);
        Err(ArgumentsError::Invalid { faults: walk.faults })
    }
}

/// [`coerce`] under the provider's schema, then [`RestorePlan::restore`]: arguments a model sent
/// loosely under an adapted schema, mapped back to arguments the original schema accepts. The
/// [module docs](self#with-restore) say why in this order. The coercions' pointers are into the
/// arguments as the model sent them.
///
/// ```
/// use serde_json::json;
/// use toolschema::dialect::{self, AdaptContext, OPENAI_STRICT};
/// let original = json!({"type": "object", "properties": {
///     "counts": {"type": "object", "additionalProperties": {"type": "integer"}}}});
/// let adapted = dialect::adapt(&OPENAI_STRICT, original, &AdaptContext::default()).unwrap();
/// // The provider was told a list of entries; the model wrote it as JSON text, the count quoted.
/// let sent = json!({"counts": "[{\"key\": \"a\", \"value\": \"2\"}]"});
/// let done = toolschema::coerce_and_restore(&adapted.schema, &adapted.plan, sent).unwrap();
/// assert_eq!(done.value, json!({"counts": {"a": 2}}));
/// assert_eq!(done.coercions.len(), 2);
/// ```
///
/// # Errors
/// What [`coerce`] finds; then what restore finds.
pub fn coerce_and_restore(
    provider_schema: &Value,
    plan: &RestorePlan,
    args: Value,
) -> Result<Coerced, ArgumentsError> {
    let Coerced { value, coercions } = coerce(provider_schema, args)?;
    let value = plan.restore(value)?;
    Ok(Coerced { value, coercions })
}

struct Walk<'r> {
    root: &'r Value,
    /// Draft-07 or earlier: a schema holding `$ref` is its reference alone.
    legacy: bool,
    /// Whether `prefixItems` is a keyword (2020-12, or no `$schema`).
    prefix_items: bool,
    pointer: Pointer,
    coercions: Vec<Coercion>,
    faults: Vec<Fault>,
}

impl<'r> Walk<'r> {
    /// `start` and every schema that applies beside them: `$ref` targets, `allOf` members, the
    /// real member of an optional union, each once, at most [`MAX_SCHEMAS`].
    fn expand(&self, start: impl IntoIterator<Item = &'r Value>) -> Vec<&'r Value> {
        let mut out: Vec<&'r Value> = Vec::new();
        let add = |out: &mut Vec<&'r Value>, s: &'r Value| {
            if out.len() < MAX_SCHEMAS && s.is_object() && !out.iter().any(|x| std::ptr::eq(*x, s)) {
                out.push(s);
            }
        };
        for s in start {
            add(&mut out, s);
        }
        let mut i = 0;
        while i < out.len() {
            let current = out[i];
            i += 1;
            let Value::Object(m) = current else { continue };
            if let Some(Value::String(reference)) = m.get("$ref")
                && let Some(target) = refs::resolve(self.root, reference)
            {
                add(&mut out, target);
            }
            if self.legacy && m.contains_key("$ref") {
                continue;
            }
            if let Some(Value::Array(all)) = m.get("allOf") {
                for member in all {
                    add(&mut out, member);
                }
            }
            if let Some(member) = optional_member(m) {
                add(&mut out, member);
            }
        }
        out
    }

    /// The keywords of `s` that apply (none of a `$ref`'s siblings under draft-07 and earlier).
    fn own<'s>(&self, s: &'s Value) -> Option<&'s Map<String, Value>> {
        match s {
            Value::Object(m) if !(self.legacy && m.contains_key("$ref")) => Some(m),
            _ => None,
        }
    }

    fn fault(&mut self, message: String) {
        self.faults.push(Fault { pointer: self.pointer.as_str().to_owned(), message });
    }

    /// Coerces `value`, which every schema of `schemas` applies to.
    fn at(&mut self, schemas: &[&'r Value], value: &mut Value, depth: usize) {
        if depth > MAX_DEPTH {
            self.fault(format!("the arguments nest deeper than {MAX_DEPTH} levels"));
            return;
        }
        if let Value::String(text) = &*value {
            let Some(declared) = schemas.iter().find_map(|s| declared_type(s, self.root)) else { return };
            if declared == JsonType::String {
                return;
            }
            match convert(text, declared) {
                Ok(new) => {
                    *value = new;
                    self.coercions.push(Coercion {
                        pointer: self.pointer.as_str().to_owned(),
                        from: JsonType::String,
                        to: declared,
                    });
                }
                Err(message) => {
                    self.fault(message);
                    return;
                }
            }
        }
        match value {
            Value::Object(map) => {
                // In key order whatever the map type (serde_json's `preserve_order` keeps insertion
                // order), so coercions and faults come in one order in every build.
                let mut entries: Vec<(&String, &mut Value)> = map.iter_mut().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                for (key, child) in entries {
                    let found = self.property(schemas, key);
                    if found.is_empty() {
                        continue;
                    }
                    let below = self.expand(found);
                    let mark = self.pointer.push(key);
                    self.at(&below, child, depth + 1);
                    self.pointer.truncate(mark);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    let found = self.item(schemas, i);
                    if found.is_empty() {
                        continue;
                    }
                    let below = self.expand(found);
                    let mark = self.pointer.push_index(i);
                    self.at(&below, child, depth + 1);
                    self.pointer.truncate(mark);
                }
            }
            _ => {}
        }
    }

    /// The schemas that apply to the property `key` of an object every schema of `schemas` applies to.
    fn property(&self, schemas: &[&'r Value], key: &str) -> Vec<&'r Value> {
        let mut found = Vec::new();
        for s in schemas {
            let Some(m) = self.own(s) else { continue };
            if let Some(p) = m.get("properties").and_then(|p| p.get(key)) {
                found.push(p);
                continue;
            }
            // A key `properties` does not name is judged by the patterns that match it, and by
            // `additionalProperties` only if none does: without a regex engine, any pattern
            // means the walk cannot know which.
            let patterns = matches!(m.get("patternProperties"), Some(Value::Object(p)) if !p.is_empty());
            if let Some(additional @ Value::Object(_)) = m.get("additionalProperties")
                && !patterns
            {
                found.push(additional);
            }
        }
        found
    }

    /// The schemas that apply to item `i` of an array every schema of `schemas` applies to.
    fn item(&self, schemas: &[&'r Value], i: usize) -> Vec<&'r Value> {
        let mut found = Vec::new();
        for s in schemas {
            let Some(m) = self.own(s) else { continue };
            let prefix = match m.get("prefixItems") {
                Some(Value::Array(prefix)) if self.prefix_items => prefix.as_slice(),
                _ => &[],
            };
            if let Some(p) = prefix.get(i) {
                found.push(p);
                continue;
            }
            match m.get("items") {
                // Draft-04's tuple form: `items` by position, then `additionalItems`.
                Some(Value::Array(tuple)) => match tuple.get(i) {
                    Some(p) => found.push(p),
                    None => found.extend(m.get("additionalItems").filter(|a| a.is_object())),
                },
                Some(items @ Value::Object(_)) => found.push(items),
                _ => {}
            }
        }
        found
    }
}

/// `text` as a value of `declared`, or the fault's message.
fn convert(text: &str, declared: JsonType) -> Result<Value, String> {
    let got = || format!("got the string {}", quoted(text));
    match declared {
        JsonType::Array | JsonType::Object => match serde_json::from_str::<Value>(text) {
            Ok(v) if JsonType::of(&v) == declared => Ok(v),
            Ok(v) => {
                let held = crate::vocab::json_type::kind(&v);
                crate::walk::drop_any_depth(v);
                Err(format!("must be {}, got a string holding JSON of {held}", article(declared)))
            }
            Err(e) => Err(format!("must be {}, got a string that is not JSON text ({e})", article(declared))),
        },
        JsonType::Number => {
            number(text).map(Value::Number).ok_or_else(|| format!("must be a number, {}", got()))
        }
        JsonType::Integer => number(text)
            .and_then(integer)
            .map(Value::Number)
            .ok_or_else(|| format!("must be an integer, {}", got())),
        JsonType::Boolean => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(format!("must be a boolean (`true` or `false`), {}", got())),
        },
        JsonType::Null => Err("must be null, got a string".to_owned()),
        JsonType::String => Ok(Value::String(text.to_owned())),
    }
}

/// A JSON number token, exactly: no whitespace around it, no `+`, no `NaN`.
fn number(text: &str) -> Option<Number> {
    let first = text.bytes().next()?;
    let last = text.bytes().last()?;
    if !(first == b'-' || first.is_ascii_digit()) || !last.is_ascii_digit() {
        return None;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Number(n)) => Some(n),
        _ => None,
    }
}

/// The integer a number stands for: itself, or an integral float within ±2^53 (where every
/// integer is exact).
fn integer(n: Number) -> Option<Number> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if n.is_i64() || n.is_u64() {
        return Some(n);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() <= EXACT).then(|| Number::from(f as i64))
}

/// The text in quotes, cut to 40 characters.
fn quoted(text: &str) -> String {
    let shown = Value::String(text.to_owned()).to_string();
    if shown.chars().count() <= 42 {
        shown
    } else {
        let head = Value::String(text.chars().take(32).collect()).to_string();
        format!("{}… ({} bytes)", head.strip_suffix('"').unwrap_or(&head), text.len())
    }
}

#[cfg(test)]
mod tests;
