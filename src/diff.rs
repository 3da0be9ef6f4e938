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

use crate::pointer::Pointer;
use crate::walk::{Depth, Step, for_each_child};
use serde_json::{Map, Value};
use std::cmp::Ordering;
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

fn is_list(v: Option<&Value>) -> bool {
    matches!(v, None | Some(Value::Array(_)))
}

fn names_of(v: Option<&Value>) -> BTreeSet<String> {
    v.and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The map of an object value, an empty map for an absent one, `None` for any other value.
fn map_or_empty(v: Option<&Value>) -> Option<&Map<String, Value>> {
    match v {
        None => Some(&EMPTY),
        Some(v) => v.as_object(),
    }
}

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

impl<'v> Differ<'v> {
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
                    self.tuple("prefixItems", o, n, o.get("items"), n.get("items"), ptr, depth, mode)
                }
                "if" => {
                    let mark = ptr.push(key);
                    let inner = mode.then(Mode::Conservative);
                    self.child(a.unwrap_or(&TRUE), b.unwrap_or(&TRUE), ptr, depth, inner);
                    ptr.truncate(mark);
                }
                "not" => {
                    let mark = ptr.push(key);
                    // An absent `not` is `not: false`, which refuses nothing.
                    let inner = mode.then(Mode::Antitone);
                    self.child(a.unwrap_or(&FALSE), b.unwrap_or(&FALSE), ptr, depth, inner);
                    ptr.truncate(mark);
                }
                "allOf" | "anyOf" | "oneOf" => self.members(key, a, b, ptr, depth, mode),
                "$defs" | "definitions" => self.definitions(key, a, b, ptr, depth, mode),
                "$ref" => self.reference(a, b, ptr, mode),
                "patternProperties" | "dependentSchemas" | "dependencies" | "dependentRequired" => {
                    self.keyed(key, a, b, ptr, depth, mode)
                }
                "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
                | "minContains" => self.bound(key, true, a, b, ptr, mode),
                "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties"
                | "maxContains" => self.bound(key, false, a, b, ptr, mode),
                "multipleOf" => self.multiple_of(a, b, ptr, mode),
                "uniqueItems" => {
                    let (x, y) = (a == Some(&TRUE), b == Some(&TRUE));
                    let kind = match (x, y) {
                        (false, true) => Raw::Narrow,
                        (true, false) => Raw::Widen,
                        _ => Raw::Annotation,
                    };
                    self.at(ptr, key, mode, kind, format!("`uniqueItems` is now {y}"));
                }
                _ => self.opaque(key, a, b, ptr, mode),
            }
        }
    }

    /// A keyword whose effect is not evaluated (`pattern`, `format`, unknown keywords). Adding
    /// `pattern` or `format` narrows and removing one widens; any other change is unknown.
    fn opaque(&mut self, key: &str, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        let known = matches!(key, "pattern" | "format");
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let (kind, message) = match (a, b) {
            (None, Some(_)) if known => (Raw::Narrow, format!("`{key}` added: {}", show(b))),
            (Some(_), None) if known => (Raw::Widen, format!("`{key}` removed (was {})", show(a))),
            _ if known => (
                Raw::Unknown,
                format!("`{key}` changed from {} to {}; the two are not compared", show(a), show(b)),
            ),
            _ => (
                Raw::Unknown,
                format!("keyword `{key}` changed from {} to {}; its effect is not known", show(a), show(b)),
            ),
        };
        self.at(ptr, key, mode, kind, message);
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
        fn covered(t: &str, by: &Option<BTreeSet<String>>) -> bool {
            by.as_ref().is_none_or(|s| s.contains(t) || (t == "integer" && s.contains("number")))
        }
        fn show(s: &Option<BTreeSet<String>>) -> String {
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
            Some(xs) => xs.iter().any(|t| !covered(t, &y)),
        };
        let gained = match &y {
            None => x.is_some(),
            Some(ys) => ys.iter().any(|t| !covered(t, &x)),
        };
        let kind = match (lost, gained) {
            (true, true) => Raw::Unknown,
            (true, false) => Raw::Narrow,
            (false, true) => Raw::Widen,
            (false, false) => Raw::Annotation,
        };
        self.at(ptr, "type", mode, kind, format!("type changed from {} to {}", show(&x), show(&y)));
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

    fn required(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        fn names(v: Option<&Value>) -> BTreeSet<&str> {
            v.and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default()
        }
        let (x, y) = (names(a), names(b));
        for name in y.difference(&x) {
            self.at(ptr, "required", mode, Raw::Narrow, format!("`{name}` is now required"));
        }
        for name in x.difference(&y) {
            self.at(ptr, "required", mode, Raw::Widen, format!("`{name}` is no longer required"));
        }
    }

    fn properties(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let op = o.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let np = n.get("properties").and_then(Value::as_object).unwrap_or(&EMPTY);
        let names: BTreeSet<&str> = op.keys().chain(np.keys()).map(String::as_str).collect();
        for name in names {
            let mark = ptr.push("properties");
            ptr.push(name);
            match (op.get(name), np.get(name)) {
                (Some(a), Some(b)) => self.child(a, b, ptr, depth, mode),
                (None, Some(b)) => match fallback(o, name) {
                    Fallback::Closed => self.emit(
                        ptr,
                        mode,
                        Raw::Widen,
                        format!("property `{name}` added; the object was closed, so it was refused before"),
                    ),
                    Fallback::Open if is_any(b) => self.emit(
                        ptr,
                        mode,
                        Raw::Annotation,
                        format!("property `{name}` declared, accepting any value as before"),
                    ),
                    Fallback::Open => self.emit(
                        ptr,
                        mode,
                        Raw::Narrow,
                        format!("property `{name}` added; the object was open, so any value for it was accepted before"),
                    ),
                    Fallback::Schema(s) => self.child(s, b, ptr, depth, mode),
                    Fallback::Patterns => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("property `{name}` added; whether the old `patternProperties` covered it is not evaluated"),
                    ),
                },
                (Some(a), None) => match fallback(n, name) {
                    Fallback::Closed => self.emit(
                        ptr,
                        mode,
                        Raw::Narrow,
                        format!("property `{name}` removed from a closed object: a value that sets it is refused now"),
                    ),
                    Fallback::Open if is_any(a) => self.emit(
                        ptr,
                        mode,
                        Raw::Annotation,
                        format!("property `{name}` no longer declared; any value is still accepted"),
                    ),
                    Fallback::Open => self.emit(
                        ptr,
                        mode,
                        Raw::Widen,
                        format!("property `{name}` removed; the object is open, so any value for it is accepted now"),
                    ),
                    Fallback::Schema(s) => self.child(a, s, ptr, depth, mode),
                    Fallback::Patterns => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("property `{name}` removed; whether the new `patternProperties` cover it is not evaluated"),
                    ),
                },
                (None, None) => {}
            }
            ptr.truncate(mark);
        }
    }

    fn items(
        &mut self,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        match (o.get("items"), n.get("items")) {
            // The draft-4..7 tuple form, with `additionalItems` for the rest.
            (Some(Value::Array(_)), Some(Value::Array(_))) => {
                self.tuple(
                    "items",
                    o,
                    n,
                    o.get("additionalItems"),
                    n.get("additionalItems"),
                    ptr,
                    depth,
                    mode,
                );
            }
            (
                a @ (None | Some(Value::Object(_) | Value::Bool(_))),
                b @ (None | Some(Value::Object(_) | Value::Bool(_))),
            ) => {
                let mark = ptr.push("items");
                self.child(a.unwrap_or(&TRUE), b.unwrap_or(&TRUE), ptr, depth, mode);
                ptr.truncate(mark);
            }
            (a, b) => {
                let (a, b) = (a.map_or("none".into(), canon), b.map_or("none".into(), canon));
                self.at(
                    ptr,
                    "items",
                    mode,
                    Raw::Unknown,
                    format!("`items` changed form, from {a} to {b}; not compared"),
                );
            }
        }
    }

    /// Positional subschemas (`prefixItems`, tuple `items`); `rest_*` govern positions past the end.
    #[allow(clippy::too_many_arguments)]
    fn tuple(
        &mut self,
        key: &'static str,
        o: &Map<String, Value>,
        n: &Map<String, Value>,
        old_rest: Option<&Value>,
        new_rest: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let empty = Vec::new();
        let x = o.get(key).and_then(Value::as_array).unwrap_or(&empty);
        let y = n.get(key).and_then(Value::as_array).unwrap_or(&empty);
        let mark = ptr.push(key);
        for i in 0..x.len().max(y.len()) {
            let m = ptr.push_index(i);
            match (x.get(i), y.get(i)) {
                (Some(a), Some(b)) => self.child(a, b, ptr, depth, mode),
                (None, Some(b)) => {
                    let rest = old_rest.filter(|r| r.is_object() || r.is_boolean()).unwrap_or(&TRUE);
                    self.child(rest, b, ptr, depth, mode);
                }
                (Some(a), None) => {
                    let rest = new_rest.filter(|r| r.is_object() || r.is_boolean()).unwrap_or(&TRUE);
                    self.child(a, rest, ptr, depth, mode);
                }
                (None, None) => {}
            }
            ptr.truncate(m);
        }
        ptr.truncate(mark);
    }

    fn members(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let empty = Vec::new();
        let (Some(x), Some(y)) =
            (a.map_or(Some(&empty), Value::as_array), b.map_or(Some(&empty), Value::as_array))
        else {
            return self.opaque(key, a, b, ptr, Mode::Conservative);
        };
        // Adding a member: `allOf` narrows, `anyOf` widens, `oneOf` may make members overlap.
        let (on_add, on_remove, inner) = match key {
            "allOf" => (Raw::Narrow, Raw::Widen, Mode::Monotone),
            "anyOf" => (Raw::Widen, Raw::Narrow, Mode::Monotone),
            _ => (Raw::Unknown, Raw::Unknown, Mode::Conservative),
        };
        // An empty `anyOf`/`oneOf` is not valid JSON Schema; treat adding/removing the keyword as
        // adding/removing all its members.
        let pairs = pair_members(x, y);
        let inner = mode.then(inner);
        let mark = ptr.push(key);
        for p in pairs {
            match p {
                Pairing::Both(i, j) => {
                    let m = ptr.push_index(j);
                    self.child(&x[i], &y[j], ptr, depth, inner);
                    ptr.truncate(m);
                }
                Pairing::Added(j) => {
                    let m = ptr.push_index(j);
                    let kind = if a.is_none() && key != "allOf" { Raw::Narrow } else { on_add };
                    self.emit(ptr, mode, kind, format!("`{key}` member added: {}", canon(&y[j])));
                    ptr.truncate(m);
                }
                Pairing::Removed(i) => {
                    let m = ptr.push_index(i);
                    let kind = if b.is_none() && key != "allOf" { Raw::Widen } else { on_remove };
                    self.emit(ptr, mode, kind, format!("`{key}` member removed: {}", canon(&x[i])));
                    ptr.truncate(m);
                }
            }
        }
        ptr.truncate(mark);
    }

    fn definitions(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let x = a.and_then(Value::as_object).unwrap_or(&EMPTY);
        let y = b.and_then(Value::as_object).unwrap_or(&EMPTY);
        let names: BTreeSet<&str> = x.keys().chain(y.keys()).map(String::as_str).collect();
        for name in names {
            let mark = ptr.push(key);
            ptr.push(name);
            match (x.get(name), y.get(name)) {
                (Some(d1), Some(d2)) => {
                    let flagged = self.flagged.contains(&[key.to_owned(), name.to_owned()]);
                    let inner = if flagged { mode.then(Mode::Conservative) } else { mode };
                    self.child(d1, d2, ptr, depth, inner);
                }
                (None, Some(_)) => self.emit(
                    ptr,
                    mode,
                    Raw::Annotation,
                    format!("definition `{name}` added; only the `$ref`s to it decide what is accepted"),
                ),
                (Some(_), None) => self.emit(
                    ptr,
                    mode,
                    Raw::Annotation,
                    format!("definition `{name}` removed; only the `$ref`s to it decided what was accepted"),
                ),
                (None, None) => {}
            }
            ptr.truncate(mark);
        }
    }

    fn reference(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        let target = |root: &Value, r: Option<&Value>| {
            r.and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)).map(canon)
        };
        let (x, y) = (target(self.old_root, a), target(self.new_root, b));
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let msg = format!("`$ref` changed from {} to {}", show(a), show(b));
        if x.is_some() && x == y {
            let msg = format!("{msg}; the two targets are the same schema");
            self.at(ptr, "$ref", mode, Raw::Annotation, msg);
        } else {
            self.at(ptr, "$ref", mode, Raw::Unknown, format!("{msg}; not compared"));
        }
    }

    /// Maps of subschemas or name lists: `patternProperties`, `dependentSchemas`, `dependencies`,
    /// `dependentRequired`.
    fn keyed(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let (Some(x), Some(y)) = (map_or_empty(a), map_or_empty(b)) else {
            return self.opaque(key, a, b, ptr, Mode::Conservative);
        };
        let names: BTreeSet<&str> = x.keys().chain(y.keys()).map(String::as_str).collect();
        for name in names {
            let (u, v) = (x.get(name), y.get(name));
            if u == v {
                continue;
            }
            let mark = ptr.push(key);
            ptr.push(name);
            if key == "patternProperties" && (u.is_none() || v.is_none()) {
                // Which names the pattern matches, and what `additionalProperties` did for them
                // before, is not evaluated.
                let what = if u.is_none() { "added" } else { "removed" };
                self.emit(
                    ptr,
                    mode,
                    Raw::Unknown,
                    format!("pattern `{name}` {what}; the names it matches are not evaluated"),
                );
            } else if key == "dependentRequired" || (key == "dependencies" && is_list(u) && is_list(v)) {
                let (p, q) = (names_of(u), names_of(v));
                for added in q.difference(&p) {
                    let msg = format!("`{added}` is now required when `{name}` is present");
                    self.emit(ptr, mode, Raw::Narrow, msg);
                }
                for removed in p.difference(&q) {
                    let msg = format!("`{removed}` is no longer required when `{name}` is present");
                    self.emit(ptr, mode, Raw::Widen, msg);
                }
            } else {
                let schema = |s: &Value| s.is_object() || s.is_boolean();
                match (u, v) {
                    (Some(u), Some(v)) if schema(u) && schema(v) => self.child(u, v, ptr, depth, mode),
                    (None, Some(v)) if schema(v) => self.child(&TRUE, v, ptr, depth, mode),
                    (Some(u), None) if schema(u) => self.child(u, &TRUE, ptr, depth, mode),
                    _ => self.emit(
                        ptr,
                        mode,
                        Raw::Unknown,
                        format!("`{key}` entry `{name}` changed form; not compared"),
                    ),
                }
            }
            ptr.truncate(mark);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bound(
        &mut self,
        key: &str,
        lower: bool,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        mode: Mode,
    ) {
        // The value that means "no limit", where the keyword has one.
        let default = match key {
            "minLength" | "minItems" | "minProperties" => Some(Value::from(0)),
            "minContains" => Some(Value::from(1)),
            _ => None,
        };
        let a = a.or(default.as_ref());
        let b = b.or(default.as_ref());
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        // Draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum`: `true` excludes the bound.
        let order = match (a, b) {
            (Some(Value::Bool(x)), Some(Value::Bool(y))) => Some(if lower { x.cmp(y) } else { y.cmp(x) }),
            (Some(Value::Bool(_)), None) => Some(if lower { Ordering::Greater } else { Ordering::Less }),
            (None, Some(Value::Bool(_))) => Some(if lower { Ordering::Less } else { Ordering::Greater }),
            (Some(Value::Number(x)), Some(Value::Number(y))) => cmp_numbers(x, y),
            (None, Some(Value::Number(_))) => Some(if lower { Ordering::Less } else { Ordering::Greater }),
            (Some(Value::Number(_)), None) => Some(if lower { Ordering::Greater } else { Ordering::Less }),
            (None, None) => Some(Ordering::Equal),
            _ => None,
        };
        let (kind, verb) = match (order, lower) {
            // The same bound written differently (`1` and `1.0`, or absent and its default).
            (Some(Ordering::Equal), _) => return,
            (Some(Ordering::Less), true) => (Raw::Narrow, "raised"),
            (Some(Ordering::Greater), true) => (Raw::Widen, "lowered"),
            (Some(Ordering::Less), false) => (Raw::Widen, "raised"),
            (Some(Ordering::Greater), false) => (Raw::Narrow, "lowered"),
            (None, _) => (Raw::Unknown, "changed (not compared)"),
        };
        let msg = format!("`{key}` {verb} from {} to {}", show(a), show(b));
        self.at(ptr, key, mode, kind, msg);
    }

    fn multiple_of(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let whole = |x: f64| x.is_finite() && x != 0.0 && (x - x.round()).abs() < 1e-9;
        let kind = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(_)) if a.is_none() => Raw::Narrow,
            (Some(_), None) if b.is_none() => Raw::Widen,
            // Every multiple of `y` is a multiple of `x` when `y / x` is whole.
            (Some(x), Some(y)) if x > 0.0 && y > 0.0 && whole(y / x) && !whole(x / y) => Raw::Narrow,
            (Some(x), Some(y)) if x > 0.0 && y > 0.0 && whole(x / y) && !whole(y / x) => Raw::Widen,
            _ => Raw::Unknown,
        };
        let msg = format!("`multipleOf` changed from {} to {}", show(a), show(b));
        self.at(ptr, "multipleOf", mode, kind, msg);
    }
}

/// What an object says about a property name it does not list in `properties`.
enum Fallback<'v> {
    /// `additionalProperties: false` (or `unevaluatedProperties: false`): refused.
    Closed,
    /// No rule: any value.
    Open,
    /// `additionalProperties` (or `unevaluatedProperties`) is this schema.
    Schema(&'v Value),
    /// `patternProperties` may match the name; not evaluated.
    Patterns,
}

fn fallback<'v>(object: &'v Map<String, Value>, _name: &str) -> Fallback<'v> {
    if object.get("patternProperties").and_then(Value::as_object).is_some_and(|p| !p.is_empty()) {
        return Fallback::Patterns;
    }
    let rule = object.get("additionalProperties").or_else(|| object.get("unevaluatedProperties"));
    match rule {
        None => Fallback::Open,
        Some(v) if is_false(v) => Fallback::Closed,
        Some(v) if is_any(v) => Fallback::Open,
        Some(v) => Fallback::Schema(v),
    }
}

fn cmp_numbers(x: &serde_json::Number, y: &serde_json::Number) -> Option<Ordering> {
    let int = |n: &serde_json::Number| n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    match (int(x), int(y)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => x.as_f64()?.partial_cmp(&y.as_f64()?),
    }
}

enum Pairing {
    Both(usize, usize),
    Added(usize),
    Removed(usize),
}

/// Pairs list members: equal members first (wherever they moved: member order means nothing), then
/// the rest by position.
fn pair_members(x: &[Value], y: &[Value]) -> Vec<Pairing> {
    let mut used_x = vec![false; x.len()];
    let mut used_y = vec![false; y.len()];
    let mut out = Vec::new();
    // Canonical text, so that `1` and `1.0` are the same member.
    let cx: Vec<String> = x.iter().map(canon).collect();
    for (j, b) in y.iter().enumerate() {
        let cb = canon(b);
        if let Some(i) = (0..x.len()).find(|&i| !used_x[i] && cx[i] == cb) {
            used_x[i] = true;
            used_y[j] = true;
        }
    }
    let rest_x: Vec<usize> = (0..x.len()).filter(|&i| !used_x[i]).collect();
    let rest_y: Vec<usize> = (0..y.len()).filter(|&j| !used_y[j]).collect();
    let common = rest_x.len().min(rest_y.len());
    for k in 0..common {
        out.push(Pairing::Both(rest_x[k], rest_y[k]));
    }
    out.extend(rest_y[common..].iter().map(|&j| Pairing::Added(j)));
    out.extend(rest_x[common..].iter().map(|&i| Pairing::Removed(i)));
    out
}

/// `["$defs", name]` or `["definitions", name]`.
type DefKey = [String; 2];

/// Adds to `flagged` every definition reached (directly or through other definitions) from inside
/// `not`, `if` or `oneOf`. Returns `false` when that cannot be worked out (a negated `$ref` to
/// something other than a definition, or nesting past the budget): then the whole diff is
/// conservative.
fn negated_definitions(root: &Value, max_depth: usize, flagged: &mut HashSet<[String; 2]>) -> bool {
    fn walk(node: &Value, negated: bool, depth: Depth, refs: &mut Vec<(String, bool)>) -> bool {
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            refs.push((r.to_owned(), negated));
        }
        let mut ok = true;
        for_each_child(node, |step, child| {
            if !ok {
                return;
            }
            let neg = negated || matches!(step.keyword(), "not" | "if" | "oneOf");
            // Definitions are reached through references, not as children of the root.
            if matches!(step, Step::Entry("$defs" | "definitions", _)) {
                return;
            }
            match depth.descend() {
                Some(d) => ok = walk(child, neg, d, refs),
                None => ok = false,
            }
        });
        ok
    }
    let mut refs = Vec::new();
    if !walk(root, false, Depth::new(max_depth), &mut refs) {
        return false;
    }
    // Definitions: walk each once, positively, collecting its references.
    let mut def_refs: Vec<(DefKey, Vec<(String, bool)>)> = Vec::new();
    for kw in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = root.get(kw) {
            for (name, def) in defs {
                let mut inner = Vec::new();
                if !walk(def, false, Depth::new(max_depth), &mut inner) {
                    return false;
                }
                def_refs.push(([kw.to_owned(), name.clone()], inner));
            }
        }
    }
    let target = |r: &str| -> Option<[String; 2]> {
        let tokens = crate::refs::parse_local(r).ok()?;
        match tokens.as_slice() {
            [kw, name, ..] if kw == "$defs" || kw == "definitions" => Some([kw.clone(), name.clone()]),
            _ => None,
        }
    };
    let mut work: Vec<[String; 2]> = Vec::new();
    for (r, negated) in &refs {
        if *negated {
            match target(r) {
                Some(t) => work.push(t),
                None => return false,
            }
        }
    }
    for (_, inner) in &def_refs {
        for (r, negated) in inner {
            if *negated {
                match target(r) {
                    Some(t) => work.push(t),
                    None => return false,
                }
            }
        }
    }
    while let Some(t) = work.pop() {
        if !flagged.insert(t.clone()) {
            continue;
        }
        if let Some((_, inner)) = def_refs.iter().find(|(k, _)| *k == t) {
            for (r, _) in inner {
                match target(r) {
                    Some(next) => work.push(next),
                    None => return false,
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    /// `(pointer, kind)` of every change from `old` to `new`.
    fn changes(old: Value, new: Value) -> Vec<(String, ChangeKind)> {
        diff(&old, &new).into_changes().into_iter().map(|c| (c.pointer, c.kind)).collect()
    }

    fn one(pointer: &str, kind: ChangeKind) -> Vec<(String, ChangeKind)> {
        vec![(pointer.to_owned(), kind)]
    }

    use ChangeKind::{AnnotationOnly, Narrowing, Widening};

    fn obj(props: Value, required: &[&str]) -> Value {
        json!({"type": "object", "properties": props, "required": required})
    }

    #[test]
    fn equal_schemas_have_no_changes_whatever_the_order_of_sets() {
        let a = json!({"type": ["string", "null"], "required": ["a", "b"], "enum": [1, 2],
                       "anyOf": [{"minimum": 1}, {"maximum": 0.0}]});
        let b = json!({"enum": [2, 1], "required": ["b", "a"], "type": ["null", "string"],
                       "anyOf": [{"maximum": 0}, {"minimum": 1.0}]});
        assert_eq!(diff(&a, &b), SchemaDiff::default());
        assert!(diff(&a, &a).is_empty());
        assert_eq!(diff(&a, &a).kind(), None);
    }

    #[test]
    fn a_newly_required_property_narrows_and_a_dropped_requirement_widens() {
        let p = json!({"a": {"type": "string"}, "b": {"type": "string"}});
        assert_eq!(changes(obj(p.clone(), &["a"]), obj(p.clone(), &["a", "b"])), one("/required", Narrowing));
        assert_eq!(changes(obj(p.clone(), &["a", "b"]), obj(p, &["a"])), one("/required", Widening));
    }

    #[test]
    fn removing_a_property_from_a_closed_object_narrows() {
        let old = json!({"type": "object", "additionalProperties": false,
                         "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
        let mut new = old.clone();
        new["properties"].as_object_mut().unwrap().remove("b");
        assert_eq!(changes(old.clone(), new.clone()), one("/properties/b", Narrowing));
        // The other way round, the object starts accepting `b`.
        assert_eq!(changes(new, old), one("/properties/b", Widening));
    }

    #[test]
    fn properties_of_an_open_object_compare_against_any_value() {
        let old = obj(json!({"a": {"type": "string"}}), &[]);
        let new = obj(json!({"a": {"type": "string"}, "b": {"type": "integer"}}), &[]);
        assert_eq!(changes(old.clone(), new.clone()), one("/properties/b", Narrowing));
        assert_eq!(changes(new, old), one("/properties/b", Widening));
    }

    #[test]
    fn properties_compare_against_an_additional_properties_schema() {
        let old = json!({"additionalProperties": {"type": ["string", "integer"]}});
        let new = json!({"additionalProperties": {"type": ["string", "integer"]},
                         "properties": {"a": {"type": "string"}}});
        assert_eq!(changes(old, new), one("/properties/a/type", Narrowing));
    }

    #[test]
    fn a_property_that_may_match_pattern_properties_is_conservatively_narrowing() {
        let old = json!({"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false});
        let mut new = old.clone();
        new["properties"] = json!({"x-a": {"type": "string"}});
        assert_eq!(changes(old, new), one("/properties/x-a", Narrowing));
    }

    #[test]
    fn removing_an_enum_value_narrows_and_adding_one_widens() {
        let old = json!({"type": "string", "enum": ["a", "b"]});
        let new = json!({"type": "string", "enum": ["a", "c"]});
        assert_eq!(changes(old, new), [("/enum".into(), Narrowing), ("/enum".into(), Widening)]);
        assert_eq!(changes(json!({"enum": ["a"]}), json!({"enum": ["a", "b"]})), one("/enum", Widening));
    }

    #[test]
    fn const_and_a_one_value_enum_are_the_same_set() {
        assert_eq!(changes(json!({"const": "a"}), json!({"enum": ["a"]})), []);
        assert_eq!(
            changes(json!({"const": "a"}), json!({"const": "b"})),
            [("/const".into(), Narrowing), ("/const".into(), Widening)]
        );
        assert_eq!(
            changes(json!({"type": "string"}), json!({"type": "string", "const": "a"})),
            one("/const", Narrowing)
        );
        assert_eq!(changes(json!({"const": 1}), json!({})), one("/const", Widening));
    }

    #[test]
    fn raising_a_lower_bound_or_lowering_an_upper_bound_narrows() {
        let cases = [
            ("minimum", 1, 5, Narrowing),
            ("minimum", 5, 1, Widening),
            ("maximum", 10, 5, Narrowing),
            ("maximum", 5, 10, Widening),
            ("exclusiveMinimum", 0, 1, Narrowing),
            ("exclusiveMaximum", 1, 0, Narrowing),
            ("minLength", 1, 2, Narrowing),
            ("maxLength", 2, 1, Narrowing),
            ("minItems", 3, 2, Widening),
            ("maxItems", 2, 3, Widening),
            ("minProperties", 0, 1, Narrowing),
            ("maxProperties", 9, 1, Narrowing),
        ];
        for (kw, a, b, want) in cases {
            let got = changes(json!({ kw: a }), json!({ kw: b }));
            assert_eq!(got, one(&format!("/{kw}"), want), "{kw}: {a} -> {b}");
        }
    }

    #[test]
    fn adding_a_bound_narrows_and_removing_one_widens_unless_it_is_the_default() {
        assert_eq!(changes(json!({}), json!({"maximum": 3})), one("/maximum", Narrowing));
        assert_eq!(changes(json!({"minimum": 3}), json!({})), one("/minimum", Widening));
        assert_eq!(changes(json!({}), json!({"minLength": 0})), []);
        assert_eq!(changes(json!({"maximum": 1.5}), json!({"maximum": 1.25})), one("/maximum", Narrowing));
        // Exact digits beyond 2^53 are compared exactly.
        let big =
            changes(json!({"maximum": 18446744073709551615u64}), json!({"maximum": 18446744073709551614u64}));
        assert_eq!(big, one("/maximum", Narrowing));
    }

    #[test]
    fn type_changes_are_classified_by_the_set_of_types() {
        let t = |a: Value, b: Value| changes(json!({"type": a}), json!({"type": b}));
        assert_eq!(t(json!(["string", "null"]), json!("string")), one("/type", Narrowing));
        assert_eq!(t(json!("string"), json!(["string", "null"])), one("/type", Widening));
        assert_eq!(t(json!("number"), json!("integer")), one("/type", Narrowing));
        assert_eq!(t(json!("integer"), json!("number")), one("/type", Widening));
        assert_eq!(t(json!("string"), json!("integer")), one("/type", Narrowing));
        assert_eq!(changes(json!({}), json!({"type": "string"})), one("/type", Narrowing));
        assert_eq!(changes(json!({"type": "string"}), json!({})), one("/type", Widening));
    }

    #[test]
    fn annotations_changes_are_annotation_only() {
        let old =
            json!({"type": "string", "description": "a", "title": "T", "default": "x", "examples": ["y"]});
        let new = json!({"type": "string", "description": "b", "deprecated": true, "x-order": 1});
        let d = changes(old, new);
        assert!(d.iter().all(|(_, k)| *k == AnnotationOnly), "{d:?}");
        assert_eq!(d.len(), 6, "{d:?}");
    }

    #[test]
    fn nested_changes_carry_their_pointer() {
        let old =
            json!({"properties": {"xs": {"type": "array", "items": {"type": "string", "maxLength": 5}}}});
        let new =
            json!({"properties": {"xs": {"type": "array", "items": {"type": "string", "maxLength": 3}}}});
        assert_eq!(changes(old, new), one("/properties/xs/items/maxLength", Narrowing));
    }

    #[test]
    fn closing_an_object_narrows_and_opening_it_widens() {
        let open = json!({"type": "object"});
        let closed = json!({"type": "object", "additionalProperties": false});
        assert_eq!(changes(open.clone(), closed.clone()), one("/additionalProperties", Narrowing));
        assert_eq!(changes(closed, open), one("/additionalProperties", Widening));
    }

    #[test]
    fn any_of_members_added_widen_and_removed_narrow_wherever_they_sit() {
        let s = |v: Value| json!({"anyOf": v});
        let (a, b, c) = (json!({"type": "string"}), json!({"type": "integer"}), json!({"type": "null"}));
        assert_eq!(changes(s(json!([a, b])), s(json!([a, b, c]))), one("/anyOf/2", Widening));
        assert_eq!(changes(s(json!([a, b, c])), s(json!([a, c]))), one("/anyOf/1", Narrowing));
        assert_eq!(changes(s(json!([a, b])), s(json!([b, a]))), []);
    }

    #[test]
    fn all_of_members_added_narrow() {
        let old = json!({"allOf": [{"type": "object"}]});
        let new = json!({"allOf": [{"type": "object"}, {"required": ["a"]}]});
        assert_eq!(changes(old.clone(), new.clone()), one("/allOf/1", Narrowing));
        assert_eq!(changes(new, old), one("/allOf/1", Widening));
    }

    #[test]
    fn a_widened_one_of_member_is_conservatively_narrowing() {
        let old = json!({"oneOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]});
        let new = json!({"oneOf": [{"type": "string", "maxLength": 5}, {"type": "integer"}]});
        assert_eq!(changes(old, new), one("/oneOf/0/maxLength", Narrowing));
    }

    #[test]
    fn inside_not_the_direction_flips() {
        let old = json!({"not": {"type": "string", "maxLength": 3}});
        let new = json!({"not": {"type": "string", "maxLength": 5}});
        // `not` refuses more strings now: narrowing.
        assert_eq!(changes(old.clone(), new.clone()), one("/not/maxLength", Narrowing));
        assert_eq!(changes(new, old), one("/not/maxLength", Widening));
        assert_eq!(changes(json!({}), json!({"not": {"type": "null"}})), one("/not", Narrowing));
    }

    #[test]
    fn a_change_that_both_narrows_and_widens_stays_narrowing_inside_not() {
        // Found by the property test: `type` string-or-null to object, inside `not`.
        let old = json!({"not": {"type": ["string", "null"]}});
        let new = json!({"not": {"type": "object"}});
        assert_eq!(changes(old, new), one("/not/type", Narrowing));
        assert_eq!(
            changes(json!({"not": {"pattern": "a"}}), json!({"not": {"pattern": "b"}})),
            one("/not/pattern", Narrowing)
        );
        let old = json!({"not": {"type": "string", "pattern": "a"}});
        assert_eq!(changes(old, json!({"not": {"type": "string"}})), one("/not/pattern", Narrowing));
        // `{"not": {}}` accepts nothing: one change at the root.
        assert_eq!(changes(json!({"not": {"pattern": "a"}}), json!({"not": {}})), one("", Narrowing));
    }

    #[test]
    fn a_definition_used_under_not_is_compared_conservatively() {
        let s = |max: u32| {
            json!({"$defs": {"S": {"type": "string", "maxLength": max}, "T": {"maxLength": max}},
                   "properties": {"a": {"not": {"$ref": "#/$defs/S"}}, "b": {"$ref": "#/$defs/T"}}})
        };
        assert_eq!(
            changes(s(5), s(3)),
            [("/$defs/S/maxLength".into(), Narrowing), ("/$defs/T/maxLength".into(), Narrowing)]
        );
        assert_eq!(
            changes(s(3), s(5)),
            [("/$defs/S/maxLength".into(), Narrowing), ("/$defs/T/maxLength".into(), Widening)]
        );
    }

    #[test]
    fn a_renamed_definition_with_the_same_content_is_annotation_only() {
        let old = json!({"$defs": {"A": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/A"}}});
        let new = json!({"$defs": {"B": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/B"}}});
        let d = changes(old, new);
        assert!(d.iter().all(|(_, k)| *k == AnnotationOnly), "{d:?}");
        let old = json!({"$defs": {"A": {"type": "string"}}, "properties": {"p": {"$ref": "#/$defs/A"}}});
        let new = json!({"$defs": {"B": {"type": "integer"}}, "properties": {"p": {"$ref": "#/$defs/B"}}});
        assert!(changes(old, new).contains(&("/properties/p/$ref".into(), Narrowing)));
    }

    #[test]
    fn unknown_keywords_and_patterns_are_conservatively_narrowing() {
        assert_eq!(
            changes(json!({"pattern": "^a"}), json!({"pattern": "^[ab]"})),
            one("/pattern", Narrowing)
        );
        assert_eq!(changes(json!({"pattern": "^a"}), json!({})), one("/pattern", Widening));
        assert_eq!(changes(json!({"frobnicate": 1}), json!({})), one("/frobnicate", Narrowing));
        assert_eq!(changes(json!({"if": {"type": "string"}}), json!({})), one("/if/type", Narrowing));
    }

    #[test]
    fn boolean_schemas_compare_as_accept_all_and_accept_nothing() {
        assert_eq!(changes(json!(true), json!(false)), one("", Narrowing));
        assert_eq!(
            changes(json!({"items": false}), json!({"items": {"type": "string"}})),
            one("/items", Widening)
        );
        assert_eq!(changes(json!(true), json!({"type": "string"})), one("/type", Narrowing));
    }

    #[test]
    fn prefix_items_added_narrow_and_removed_widen_when_the_rest_is_open() {
        let old = json!({"prefixItems": [{"type": "string"}]});
        let new = json!({"prefixItems": [{"type": "string"}, {"type": "integer"}]});
        assert_eq!(changes(old.clone(), new.clone()), one("/prefixItems/1/type", Narrowing));
        assert_eq!(changes(new, old), one("/prefixItems/1/type", Widening));
    }

    #[test]
    fn multiple_of_narrows_when_the_new_step_is_a_multiple_of_the_old() {
        assert_eq!(
            changes(json!({"multipleOf": 2}), json!({"multipleOf": 4})),
            one("/multipleOf", Narrowing)
        );
        assert_eq!(changes(json!({"multipleOf": 4}), json!({"multipleOf": 2})), one("/multipleOf", Widening));
        assert_eq!(
            changes(json!({"multipleOf": 2}), json!({"multipleOf": 3})),
            one("/multipleOf", Narrowing)
        );
    }

    #[test]
    fn dependent_required_entries_compare_as_sets() {
        let old = json!({"dependentRequired": {"a": ["b"]}});
        let new = json!({"dependentRequired": {"a": ["b", "c"]}});
        assert_eq!(changes(old.clone(), new.clone()), one("/dependentRequired/a", Narrowing));
        assert_eq!(changes(new, old), one("/dependentRequired/a", Widening));
    }

    #[test]
    fn nesting_past_the_depth_budget_is_one_conservative_change() {
        let mut old = json!({"type": "string"});
        let mut new = json!({"type": "integer"});
        for _ in 0..10 {
            old = json!({"items": old});
            new = json!({"items": new});
        }
        let d = diff_with_depth(&old, &new, 3);
        assert_eq!(d.changes().len(), 1);
        assert_eq!(d.changes()[0].kind, Narrowing);
        assert_eq!(d.changes()[0].pointer, "/items/items/items/items");
        assert_eq!(diff(&old, &new).changes()[0].pointer.matches("items").count(), 10);
    }

    #[test]
    fn messages_name_the_old_and_new_values() {
        let d = diff(&json!({"minimum": 1}), &json!({"minimum": 5}));
        assert_eq!(d.changes()[0].to_string(), "narrowing at `/minimum`: `minimum` raised from 1 to 5");
    }
}
