//! What changed between two versions of a schema, by JSON pointer, each change classified by what
//! it does to the values the schema accepts.
//!
//! A tool's schema is a contract with every caller: a model prompted with the old schema, a
//! recorded call replayed in a test, a client generated from it. [`diff`] says which of them may
//! break:
//!
//! - [`ChangeKind::Narrowing`]: some value the old schema accepted is refused now (a new required
//!   property, a removed enum value, a raised minimum). Breaking for callers.
//! - [`ChangeKind::Widening`]: every value accepted before is still accepted, and some new ones too
//!   (a property no longer required, a new enum value). Breaking only for code that reads values
//!   the schema describes, never for callers.
//! - [`ChangeKind::AnnotationOnly`]: nothing a validator checks changed (a description, a default,
//!   examples). The model may still behave differently: it reads descriptions.
//!
//! ```
//! use serde_json::json;
//! use toolschema::diff::{diff, ChangeKind};
//!
//! let old = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}});
//! let new = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5,
//!                  "description": "How many."}}, "required": ["n"]});
//! let d = diff(&old, &new);
//! let found: Vec<_> = d.changes().iter().map(|c| (c.pointer.as_str(), c.kind)).collect();
//! assert_eq!(found, [
//!     ("/properties/n/description", ChangeKind::AnnotationOnly),
//!     ("/properties/n/minimum", ChangeKind::Narrowing),
//!     ("/required", ChangeKind::Narrowing),
//! ]);
//! assert!(d.has_narrowing());
//! ```
//!
//! Diff normalised schemas (the CLI's `toolschema diff` runs both through
//! [`SchemaOptions::normalize`](crate::SchemaOptions::normalize) first); key order never matters
//! here, and `required`, `enum` and `type` compare as sets.
//!
//! # How it works
//! The two schemas are walked side by side, keyword by keyword (keys in sorted order, so the output
//! is the same in every build). Each keyword has a rule: lower bounds (`minimum`, `minLength`, ...)
//! narrow when raised, upper bounds when lowered, `required` when a name is added, `enum`/`const`
//! when a value is removed, `type` when a type is no longer covered (`integer` is covered by
//! `number`). A property added to an object compares against what the old object said about that
//! name: closed (`additionalProperties: false`) means the addition widens; open means a constrained
//! new property narrows. Subschemas under `properties`, `items`, `additionalProperties`, `anyOf`,
//! `allOf` and the like are compared recursively with the same rules. Under `not` the direction
//! flips.
//!
//! **Conservative by design.** Where the effect cannot be decided without evaluating the schemas
//! (a changed `pattern` or `format`, a changed `$ref` whose targets differ, `if`, a member of
//! `oneOf` that widens, which may make two members overlap, a property name that may match an old
//! `patternProperties` regex, a keyword this module does not know, nesting past the depth budget)
//! the change is classified as **narrowing**: a diff may call a harmless change breaking, never a
//! breaking change harmless. Definitions under `$defs` are compared where they sit; one that is
//! reached from inside `not`, `if` or `oneOf` is compared conservatively too. Keywords starting
//! with `x-` are treated as annotations, by the OpenAPI convention.
//!
//! # Where the rules live
//! This module walks and dispatches, and holds the rules for keywords of every instance type
//! (`type`, `enum`, `const`, annotations). The rest, by keyword family: `numbers` (bounds of every
//! family, `multipleOf`), `strings` (`pattern`, `format`, unknown keywords), `objects`
//! (`required`, `properties` and the keyed maps), `arrays` (`items`, `prefixItems`,
//! `uniqueItems`), `combinators` (`allOf`/`anyOf`/`oneOf`, `not`, `if`, `$ref`, `$defs`).

mod arrays;
mod combinators;
mod numbers;
mod objects;
mod strings;
#[cfg(test)]
mod tests;

use crate::pointer::Pointer;
use crate::walk::Depth;
use combinators::negated_definitions;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashSet};
use std::fmt;

/// What a change does to the set of values a schema accepts. Ordered by severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// No value changes between accepted and refused (descriptions, titles, defaults, examples).
    AnnotationOnly,
    /// Every value accepted before is still accepted; some values refused before are accepted now.
    Widening,
    /// Some value accepted before is refused now (or that cannot be ruled out): breaking for
    /// callers.
    Narrowing,
}

impl ChangeKind {
    /// `narrowing`, `widening` or `annotation-only`, as the CLI prints it.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::AnnotationOnly => "annotation-only",
            ChangeKind::Widening => "widening",
            ChangeKind::Narrowing => "narrowing",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change between two schemas.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// JSON pointer of the changed keyword (or property, or list member), in the new schema where
    /// it exists there, else in the old one.
    pub pointer: String,
    /// Its classification.
    pub kind: ChangeKind,
    /// What changed, in words (lowercase, values in canonical JSON).
    pub message: String,
}

impl Change {
    /// A change, for code that reports changes of its own beside a diff's (a tool added to or
    /// removed from a list).
    pub fn new(pointer: impl Into<String>, kind: ChangeKind, message: impl Into<String>) -> Self {
        Change { pointer: pointer.into(), kind, message: message.into() }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at `{}`: {}", self.kind, self.pointer, self.message)
    }
}

/// Every change between two schemas, in walk order (keys sorted at each level).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SchemaDiff {
    changes: Vec<Change>,
}

impl SchemaDiff {
    /// The changes.
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// The changes, owned.
    pub fn into_changes(self) -> Vec<Change> {
        self.changes
    }

    /// Whether the schemas are equal as JSON Schema (keys and set-valued keywords in any order).
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Whether any change narrows: the new schema refuses (or may refuse) a value the old one
    /// accepted.
    pub fn has_narrowing(&self) -> bool {
        self.changes.iter().any(|c| c.kind == ChangeKind::Narrowing)
    }

    /// The most severe kind among the changes; `None` when there are none.
    pub fn kind(&self) -> Option<ChangeKind> {
        self.changes.iter().map(|c| c.kind).max()
    }
}

/// The changes from `old` to `new`, within the default depth budget (128 levels).
pub fn diff(old: &Value, new: &Value) -> SchemaDiff {
    diff_with_depth(old, new, Depth::DEFAULT_MAX)
}

/// The changes from `old` to `new`. Where the schemas nest deeper than `max_depth` levels, the
/// deeper part is not compared and a difference there is one conservative narrowing change.
pub fn diff_with_depth(old: &Value, new: &Value, max_depth: usize) -> SchemaDiff {
    let mut flagged = HashSet::new();
    let mut all = false;
    for root in [old, new] {
        all |= !negated_definitions(root, max_depth, &mut flagged);
    }
    let mut d = Differ { out: Vec::new(), old_root: old, new_root: new, flagged, all_conservative: all };
    let mode = if d.all_conservative { Mode::Conservative } else { Mode::Monotone };
    d.schema(old, new, &mut Pointer::root(), Depth::new(max_depth), mode);
    SchemaDiff { changes: d.out }
}

/// Keywords that annotate and never decide whether a value is accepted: the meta-data and content
/// vocabularies ([`crate::walk::META_DATA`], [`crate::walk::CONTENT`]) and `x-` extensions.
fn is_annotation(keyword: &str) -> bool {
    crate::walk::is_meta_data(keyword) || crate::walk::CONTENT.contains(&keyword) || keyword.starts_with("x-")
}

/// How a change inside a subschema affects the whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Wider inside is wider outside.
    Monotone,
    /// Wider inside is narrower outside (`not`).
    Antitone,
    /// Unknown: every change that is not annotation-only counts as narrowing.
    Conservative,
}

impl Mode {
    fn then(self, inner: Mode) -> Mode {
        match (self, inner) {
            (Mode::Conservative, _) | (_, Mode::Conservative) => Mode::Conservative,
            (Mode::Monotone, m) => m,
            (Mode::Antitone, Mode::Monotone) => Mode::Antitone,
            (Mode::Antitone, Mode::Antitone) => Mode::Monotone,
        }
    }

    fn apply(self, kind: Raw) -> ChangeKind {
        match (self, kind) {
            (_, Raw::Annotation) => ChangeKind::AnnotationOnly,
            (_, Raw::Unknown) | (Mode::Conservative, _) => ChangeKind::Narrowing,
            (Mode::Monotone, Raw::Narrow) | (Mode::Antitone, Raw::Widen) => ChangeKind::Narrowing,
            (Mode::Monotone, Raw::Widen) | (Mode::Antitone, Raw::Narrow) => ChangeKind::Widening,
        }
    }
}

/// A change's effect on the subschema where it happens, before the [`Mode`] of its position says
/// what that does to the whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    Annotation,
    Widen,
    Narrow,
    /// Both, or not known: narrowing wherever it sits (inside `not` as much as outside).
    Unknown,
}

struct Differ<'v> {
    out: Vec<Change>,
    old_root: &'v Value,
    new_root: &'v Value,
    /// `["$defs", name]` of definitions reached from inside `not`, `if` or `oneOf`.
    flagged: HashSet<[String; 2]>,
    all_conservative: bool,
}

static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
static TRUE: Value = Value::Bool(true);
static FALSE: Value = Value::Bool(false);

fn canon(v: &Value) -> String {
    crate::canonical::to_string(v)
}

fn is_false(v: &Value) -> bool {
    match v {
        Value::Bool(b) => !b,
        Value::Object(m) => {
            m.len() == 1
                && m.get("not").is_some_and(|n| n == &TRUE || n.as_object().is_some_and(Map::is_empty))
        }
        _ => false,
    }
}

/// Accepts every value: `true`, or an object of annotations only.
fn is_any(v: &Value) -> bool {
    match v {
        Value::Bool(b) => *b,
        Value::Object(m) => m.keys().all(|k| is_annotation(k)),
        _ => false,
    }
}

fn list(values: &[&Value]) -> String {
    values.iter().map(|v| canon(v)).collect::<Vec<_>>().join(", ")
}

impl Differ<'_> {
    fn emit(&mut self, ptr: &Pointer, mode: Mode, kind: Raw, message: String) {
        self.out.push(Change { pointer: ptr.as_str().to_owned(), kind: mode.apply(kind), message });
    }

    fn at(&mut self, ptr: &mut Pointer, token: &str, mode: Mode, kind: Raw, message: String) {
        let mark = ptr.push(token);
        self.emit(ptr, mode, kind, message);
        ptr.truncate(mark);
    }

    /// Compares two subschemas one level down, or reports the depth budget.
    fn child(&mut self, old: &Value, new: &Value, ptr: &mut Pointer, depth: Depth, mode: Mode) {
        if old == new {
            return;
        }
        match depth.descend() {
            Some(d) => self.schema(old, new, ptr, d, mode),
            None => self.emit(
                ptr,
                mode,
                Raw::Unknown,
                format!("changed deeper than {} levels; not compared", depth.max()),
            ),
        }
    }

    fn schema(&mut self, old: &Value, new: &Value, ptr: &mut Pointer, depth: Depth, mode: Mode) {
        if old == new {
            return;
        }
        match (is_false(old), is_false(new)) {
            (true, true) => return,
            (true, false) => {
                return self.emit(ptr, mode, Raw::Widen, "accepted no value; now accepts some".into());
            }
            (false, true) => {
                return self.emit(ptr, mode, Raw::Narrow, "now accepts no value".into());
            }
            (false, false) => {}
        }
        let (o, n) = match (old, new) {
            (Value::Object(o), Value::Object(n)) => (o, n),
            (Value::Bool(true), Value::Object(n)) => (&*EMPTY, n),
            (Value::Object(o), Value::Bool(true)) => (o, &*EMPTY),
            _ => {
                return self.emit(
                    ptr,
                    mode,
                    Raw::Unknown,
                    format!("changed from {} to {} (not a schema)", canon(old), canon(new)),
                );
            }
        };
        let keys: BTreeSet<&str> = o.keys().chain(n.keys()).map(String::as_str).collect();
        let mut values_done = false;
        for key in keys {
            let (a, b) = (o.get(key), n.get(key));
            if a == b {
                continue;
            }
            if is_annotation(key) {
                let what = match (a, b) {
                    (None, _) => "added",
                    (_, None) => "removed",
                    _ => "changed",
                };
                self.at(ptr, key, mode, Raw::Annotation, format!("`{key}` {what}"));
                continue;
            }
            match key {
                "type" => self.types(a, b, ptr, mode),
                "enum" | "const" if !values_done => {
                    values_done = true;
                    self.values(o, n, ptr, mode);
                }
                "enum" | "const" => {}
                "required" => self.required(a, b, ptr, mode),
                "properties" => self.properties(o, n, ptr, depth, mode),
                "additionalProperties"
                | "unevaluatedProperties"
                | "additionalItems"
                | "unevaluatedItems"
                | "contains"
                | "propertyNames"
                | "then"
                | "else"
                    if matches!(a, None | Some(Value::Object(_) | Value::Bool(_)))
                        && matches!(b, None | Some(Value::Object(_) | Value::Bool(_))) =>
                {
                    let mark = ptr.push(key);
                    self.child(a.unwrap_or(&TRUE), b.unwrap_or(&TRUE), ptr, depth, mode);
                    ptr.truncate(mark);
                }
                "items" => self.items(o, n, ptr, depth, mode),
                "prefixItems" => {
                    self.tuple("prefixItems", o, n, o.get("items"), n.get("items"), ptr, depth, mode);
                }
                "if" => self.condition(a, b, ptr, depth, mode),
                "not" => self.negation(a, b, ptr, depth, mode),
                "allOf" | "anyOf" | "oneOf" => self.members(key, a, b, ptr, depth, mode),
                "$defs" | "definitions" => self.definitions(key, a, b, ptr, depth, mode),
                "$ref" => self.reference(a, b, ptr, mode),
                "patternProperties" | "dependentSchemas" | "dependencies" | "dependentRequired" => {
                    self.keyed(key, a, b, ptr, depth, mode);
                }
                "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
                | "minContains" => self.bound(key, true, a, b, ptr, mode),
                "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties"
                | "maxContains" => self.bound(key, false, a, b, ptr, mode),
                "multipleOf" => self.multiple_of(a, b, ptr, mode),
                "uniqueItems" => self.unique_items(a, b, ptr, mode),
                _ => self.opaque(key, a, b, ptr, mode),
            }
        }
    }

    fn types(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        fn set(v: Option<&Value>) -> Option<BTreeSet<String>> {
            match v? {
                Value::String(s) => Some([s.clone()].into()),
                Value::Array(items) => {
                    Some(items.iter().map(|t| t.as_str().unwrap_or("?").to_owned()).collect())
                }
                other => Some([canon(other)].into()),
            }
        }
        fn covered(t: &str, by: Option<&BTreeSet<String>>) -> bool {
            by.is_none_or(|s| s.contains(t) || (t == "integer" && s.contains("number")))
        }
        fn show(s: Option<&BTreeSet<String>>) -> String {
            match s {
                None => "any type".into(),
                Some(s) => s.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" or "),
            }
        }
        let (x, y) = (set(a), set(b));
        if x == y {
            return;
        }
        // Without `type`, every type is allowed; `number` also covers `integer`.
        let lost = match &x {
            None => y.is_some(),
            Some(xs) => xs.iter().any(|t| !covered(t, y.as_ref())),
        };
        let gained = match &y {
            None => x.is_some(),
            Some(ys) => ys.iter().any(|t| !covered(t, x.as_ref())),
        };
        let kind = match (lost, gained) {
            (true, true) => Raw::Unknown,
            (true, false) => Raw::Narrow,
            (false, true) => Raw::Widen,
            (false, false) => Raw::Annotation,
        };
        self.at(
            ptr,
            "type",
            mode,
            kind,
            format!("type changed from {} to {}", show(x.as_ref()), show(y.as_ref())),
        );
    }

    fn values(&mut self, o: &Map<String, Value>, n: &Map<String, Value>, ptr: &mut Pointer, mode: Mode) {
        /// The values `const` and `enum` allow together, by canonical text; `None` for no limit.
        fn allowed(m: &Map<String, Value>) -> Option<Vec<(String, &Value)>> {
            let mut from_enum = match m.get("enum") {
                Some(Value::Array(items)) => Some(items.iter().map(|v| (canon(v), v)).collect::<Vec<_>>()),
                Some(other) => Some(vec![(canon(other), other)]),
                None => None,
            };
            match (m.get("const"), from_enum.as_mut()) {
                (Some(c), Some(list)) => {
                    let key = canon(c);
                    list.retain(|(k, _)| *k == key);
                }
                (Some(c), None) => from_enum = Some(vec![(canon(c), c)]),
                (None, _) => {}
            }
            from_enum
        }
        let (x, y) = (allowed(o), allowed(n));
        let token = if n.contains_key("enum") || (!n.contains_key("const") && o.contains_key("enum")) {
            "enum"
        } else {
            "const"
        };
        match (x, y) {
            (None, None) => {}
            (None, Some(y)) => {
                let vals: Vec<&Value> = y.iter().map(|(_, v)| *v).collect();
                let msg = format!("values restricted to {}", list(&vals));
                self.at(ptr, token, mode, Raw::Narrow, msg);
            }
            (Some(_), None) => {
                self.at(ptr, token, mode, Raw::Widen, "values no longer restricted".into());
            }
            (Some(x), Some(y)) => {
                let xk: HashSet<&str> = x.iter().map(|(k, _)| k.as_str()).collect();
                let yk: HashSet<&str> = y.iter().map(|(k, _)| k.as_str()).collect();
                let removed: Vec<&Value> =
                    x.iter().filter(|(k, _)| !yk.contains(k.as_str())).map(|(_, v)| *v).collect();
                let added: Vec<&Value> =
                    y.iter().filter(|(k, _)| !xk.contains(k.as_str())).map(|(_, v)| *v).collect();
                if !removed.is_empty() {
                    let msg = format!("value(s) no longer allowed: {}", list(&removed));
                    self.at(ptr, token, mode, Raw::Narrow, msg);
                }
                if !added.is_empty() {
                    let msg = format!("value(s) now allowed: {}", list(&added));
                    self.at(ptr, token, mode, Raw::Widen, msg);
                }
            }
        }
    }
}
