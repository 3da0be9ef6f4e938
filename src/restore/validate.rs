//! [`validate`]: a value checked against a whole JSON Schema (draft 2020-12, local references),
//! every fault with its pointer into the value.
//!
//! Restore checks what a provider could not enforce; this checks everything, for a value no
//! provider constrained: an MCP server's `structuredContent` against its own `outputSchema`
//! (`toolschema mcp-proxy --check-output`). The assertions share restore's one wording
//! ([`Check`]), so a fault reads the same whichever found it.
//!
//! What it reads: `type`, `enum`, `const`, the numeric, length, item and property counts,
//! `pattern` (with restore's step bound), `required`, `dependentRequired`, `properties`,
//! `patternProperties`, `additionalProperties`, `propertyNames`, `dependentSchemas`,
//! `prefixItems`, `items`, `contains` with `minContains`/`maxContains`, `allOf`, `anyOf`,
//! `oneOf`, `not`, `if`/`then`/`else`, `unevaluatedProperties`, `unevaluatedItems` (with the
//! annotations of the subschemas that passed), and local `$ref`s (`#...`), which apply beside
//! their siblings. A reference that is not local, `$dynamicRef` and every keyword it does not
//! know are read as annotations, which accept every value: a check never refuses what a
//! validator that knows them would accept for that reason alone. `format` is an annotation, as
//! 2020-12 says, unless [`Check`] knows it.
//!
//! Bounded: references are followed for at most [`MAX_DEPTH`] levels of schema, and one value
//! costs at most [`MAX_STEPS`] schema visits (an `anyOf` of `anyOf`s over a long array is
//! otherwise exponential); past either, the value is refused with a fault that says so, never a
//! hang or a stack overflow.

use super::Fault;
use super::check::{Check, short};
use super::pattern::{Outcome, Pattern};
use super::types::TypeSet;
use crate::pointer::escape_token as escape;
use crate::vocab::json_type::JsonType;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Levels of schema (subschemas and references) one check may descend.
pub const MAX_DEPTH: usize = 128;

/// Schema visits one check may make.
pub const MAX_STEPS: usize = 1_000_000;

/// Every fault of `value` against `schema` (its own document root for `$ref`s), in the order
/// found; empty when the value is valid.
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}},
///     "required": ["n"]});
/// assert!(toolschema::restore::validate(&schema, &json!({"n": 2})).is_empty());
/// let faults = toolschema::restore::validate(&schema, &json!({"n": -1}));
/// assert_eq!(faults[0].to_string(), "`/n`: must be at least 0, got -1");
/// ```
pub fn validate(schema: &Value, value: &Value) -> Vec<Fault> {
    let mut cx = Validator { root: schema, steps: 0, out_of_budget: false };
    let mut faults = Vec::new();
    cx.node(schema, value, &mut String::new(), 0, &mut faults);
    faults
}

/// [`validate`] of `schema`, a schema inside the document `root` (its references resolved there):
/// a part of a schema checked on its own, as the schema-text rewrite does at a cut.
pub(crate) fn validate_in(root: &Value, schema: &Value, value: &Value) -> Vec<Fault> {
    let mut cx = Validator { root, steps: 0, out_of_budget: false };
    let mut faults = Vec::new();
    cx.node(schema, value, &mut String::new(), 0, &mut faults);
    faults
}

struct Validator<'s> {
    root: &'s Value,
    steps: usize,
    out_of_budget: bool,
}

/// What a subschema evaluated of an object or array that passed it: the keys, and the items up
/// to an index (or all), for `unevaluatedProperties` and `unevaluatedItems`.
#[derive(Default)]
struct Evaluated {
    keys: BTreeSet<String>,
    all_keys: bool,
    items: usize,
    all_items: bool,
}

impl Evaluated {
    fn merge(&mut self, other: Evaluated) {
        self.keys.extend(other.keys);
        self.all_keys |= other.all_keys;
        self.items = self.items.max(other.items);
        self.all_items |= other.all_items;
    }
}

fn fault(faults: &mut Vec<Fault>, at: &str, message: String) {
    faults.push(Fault { pointer: at.to_owned(), message });
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        // A big-integer token is an integer (see `super::bound`).
        Value::String(_) if super::BigInt::of_token(value).is_some() => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Validator<'_> {
    /// Checks `value` (at pointer `at`) against `schema`; what it evaluated, when it passed.
    fn node(
        &mut self,
        schema: &Value,
        value: &Value,
        at: &mut String,
        depth: usize,
        faults: &mut Vec<Fault>,
    ) -> Option<Evaluated> {
        self.steps += 1;
        if depth > MAX_DEPTH || self.steps > MAX_STEPS {
            if !self.out_of_budget {
                self.out_of_budget = true;
                let why = if depth > MAX_DEPTH {
                    format!("could not be checked: the schema nests past {MAX_DEPTH} levels here")
                } else {
                    format!("could not be checked within {MAX_STEPS} steps")
                };
                fault(faults, at, why);
            }
            return None;
        }
        let map = match schema {
            Value::Bool(true) => return Some(Evaluated::default()),
            Value::Bool(false) => {
                fault(faults, at, format!("must not be here, got {}", short(value)));
                return None;
            }
            Value::Object(map) => map,
            _ => return Some(Evaluated::default()),
        };
        let before = faults.len();
        let mut evaluated = Evaluated::default();
        Self::assertions(map, value, at, faults);
        if let Some(Value::String(reference)) = map.get("$ref")
            && let Some(target) =
                reference.starts_with('#').then(|| crate::refs::resolve(self.root, reference)).flatten()
            && let Some(e) = self.node(target, value, at, depth + 1, faults)
        {
            evaluated.merge(e);
        }
        self.combinators(map, value, at, depth, faults, &mut evaluated);
        if let (Some(Value::Object(dependent)), Value::Object(object)) = (map.get("dependentSchemas"), value)
        {
            for (key, schema) in dependent {
                if object.contains_key(key)
                    && let Some(e) = self.node(schema, value, at, depth + 1, faults)
                {
                    evaluated.merge(e);
                }
            }
        }
        match value {
            Value::Object(object) => self.object(map, object, at, depth, faults, &mut evaluated),
            Value::Array(items) => self.array(map, items, at, depth, faults, &mut evaluated),
            _ => {}
        }
        (faults.len() == before).then_some(evaluated)
    }

    /// The keywords that look at the value alone: `type`, `required` and every [`Check`].
    fn assertions(map: &Map<String, Value>, value: &Value, at: &str, faults: &mut Vec<Fault>) {
        for (keyword, arg) in map {
            match keyword.as_str() {
                "type" => {
                    let names: Vec<&str> = match arg {
                        Value::String(s) => vec![s.as_str()],
                        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
                        _ => continue,
                    };
                    // A name that is not one of the seven (the pipeline refuses such a schema, or
                    // rewrites BFCL's `dict`) accepts.
                    let known = names
                        .iter()
                        .all(|n| JsonType::read(n).is_some() && !JsonType::is_foreign_spelling(n));
                    if known && !TypeSet::of_type(arg).contains(value) {
                        let wanted = names.join(" or ");
                        fault(faults, at, format!("must be of type {wanted}, got {}", type_name(value)));
                    }
                }
                "required" => {
                    if let (Value::Object(object), Value::Array(names)) = (value, arg) {
                        for name in names.iter().filter_map(Value::as_str) {
                            if !object.contains_key(name) {
                                fault(faults, at, format!("must have the key `{name}`"));
                            }
                        }
                    }
                }
                _ => {
                    for check in Check::from_keyword(keyword, arg).unwrap_or_default() {
                        if !check.passes(value) {
                            fault(faults, at, check.failure(value));
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
    fn combinators(
        &mut self,
        map: &Map<String, Value>,
        value: &Value,
        at: &mut String,
        depth: usize,
        faults: &mut Vec<Fault>,
        evaluated: &mut Evaluated,
    ) {
        if let Some(Value::Array(all)) = map.get("allOf") {
            for branch in all {
                if let Some(e) = self.node(branch, value, at, depth + 1, faults) {
                    evaluated.merge(e);
                }
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = map.get(keyword) else { continue };
            let mut passed = 0;
            let mut first_faults = None;
            for branch in branches {
                let mut scratch = Vec::new();
                match self.node(branch, value, at, depth + 1, &mut scratch) {
                    Some(e) => {
                        passed += 1;
                        evaluated.merge(e);
                    }
                    None => {
                        first_faults.get_or_insert(scratch);
                    }
                }
            }
            match (keyword, passed) {
                (_, 0) => {
                    let n = branches.len();
                    let mut message =
                        format!("must match one of the {n} alternatives of `{keyword}`, and matches none");
                    if let Some(Some(first)) = first_faults.map(|f| f.into_iter().next()) {
                        let _ = write!(message, " (the first: {first})");
                    }
                    fault(faults, at, message);
                }
                ("oneOf", n) if n > 1 => {
                    fault(
                        faults,
                        at,
                        format!("must match exactly one alternative of `oneOf`, and matches {n}"),
                    );
                }
                _ => {}
            }
        }
        if let Some(not) = map.get("not")
            && self.node(not, value, at, depth + 1, &mut Vec::new()).is_some()
        {
            fault(faults, at, format!("must not match the schema under `not`, got {}", short(value)));
        }
        if let Some(condition) = map.get("if") {
            let taken = match self.node(condition, value, at, depth + 1, &mut Vec::new()) {
                Some(e) => {
                    evaluated.merge(e);
                    map.get("then")
                }
                None => map.get("else"),
            };
            if let Some(branch) = taken
                && let Some(e) = self.node(branch, value, at, depth + 1, faults)
            {
                evaluated.merge(e);
            }
        }
    }

    #[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
    fn object(
        &mut self,
        map: &Map<String, Value>,
        object: &Map<String, Value>,
        at: &mut String,
        depth: usize,
        faults: &mut Vec<Fault>,
        evaluated: &mut Evaluated,
    ) {
        let properties = map.get("properties").and_then(Value::as_object);
        let patterns: Vec<(Pattern, &Value)> = map
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|p| p.iter().filter_map(|(source, s)| Pattern::new(source).map(|p| (p, s))).collect())
            .unwrap_or_default();
        let additional = map.get("additionalProperties");
        let names = map.get("propertyNames");
        for (key, item) in object {
            let len = at.len();
            at.push('/');
            at.push_str(&escape(key));
            if let Some(names) = names {
                let mut scratch = Vec::new();
                if self.node(names, &Value::String(key.clone()), at, depth + 1, &mut scratch).is_none() {
                    let why = scratch.into_iter().next().map(|f| f.message).unwrap_or_default();
                    fault(faults, at, format!("has a key the schema's `propertyNames` refuses: {why}"));
                }
            }
            let mut matched = false;
            if let Some(schema) = properties.and_then(|p| p.get(key)) {
                matched = true;
                self.node(schema, item, at, depth + 1, faults);
            }
            for (pattern, schema) in &patterns {
                if pattern.run(key) == Outcome::Match {
                    matched = true;
                    self.node(schema, item, at, depth + 1, faults);
                }
            }
            if matched {
                evaluated.keys.insert(key.clone());
            } else if let Some(schema) = additional {
                if schema == &Value::Bool(false) {
                    fault(faults, at, format!("is a key the schema does not allow (`{key}`)"));
                } else {
                    self.node(schema, item, at, depth + 1, faults);
                }
                evaluated.keys.insert(key.clone());
            }
            at.truncate(len);
        }
        if let Some(schema) = map.get("unevaluatedProperties")
            && !evaluated.all_keys
        {
            for (key, item) in object {
                if evaluated.keys.contains(key) {
                    continue;
                }
                let len = at.len();
                at.push('/');
                at.push_str(&escape(key));
                if schema == &Value::Bool(false) {
                    fault(faults, at, format!("is a key the schema does not allow (`{key}`)"));
                } else {
                    self.node(schema, item, at, depth + 1, faults);
                }
                at.truncate(len);
            }
            evaluated.all_keys = true;
        }
    }

    #[allow(clippy::too_many_arguments, reason = "the walk's state, passed down")]
    fn array(
        &mut self,
        map: &Map<String, Value>,
        items: &[Value],
        at: &mut String,
        depth: usize,
        faults: &mut Vec<Fault>,
        evaluated: &mut Evaluated,
    ) {
        let prefix = map.get("prefixItems").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let rest = map.get("items");
        for (i, item) in items.iter().enumerate() {
            let schema = match prefix.get(i) {
                Some(schema) => schema,
                None => match rest {
                    Some(schema) => schema,
                    None => break,
                },
            };
            let len = at.len();
            at.push('/');
            at.push_str(&i.to_string());
            if schema == &Value::Bool(false) {
                fault(faults, at, format!("must not be here: at most {} items", prefix.len()));
            } else {
                self.node(schema, item, at, depth + 1, faults);
            }
            at.truncate(len);
        }
        evaluated.items = evaluated.items.max(prefix.len().min(items.len()));
        if rest.is_some() {
            evaluated.all_items = true;
        }
        if let Some(contains) = map.get("contains") {
            let count = items
                .iter()
                .filter(|item| self.node(contains, item, at, depth + 1, &mut Vec::new()).is_some())
                .count();
            let min = map.get("minContains").and_then(Value::as_u64).unwrap_or(1);
            let max = map.get("maxContains").and_then(Value::as_u64);
            if (count as u64) < min {
                fault(
                    faults,
                    at,
                    format!("must hold at least {min} items that match `contains`, got {count}"),
                );
            }
            if let Some(max) = max.filter(|max| count as u64 > *max) {
                fault(
                    faults,
                    at,
                    format!("must hold at most {max} items that match `contains`, got {count}"),
                );
            }
        }
        if let Some(schema) = map.get("unevaluatedItems")
            && !evaluated.all_items
        {
            for (i, item) in items.iter().enumerate().skip(evaluated.items) {
                let len = at.len();
                at.push('/');
                at.push_str(&i.to_string());
                if schema == &Value::Bool(false) {
                    fault(faults, at, format!("must not be here: at most {} items", evaluated.items));
                } else {
                    self.node(schema, item, at, depth + 1, faults);
                }
                at.truncate(len);
            }
            evaluated.all_items = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn faults(schema: &Value, value: &Value) -> Vec<String> {
        validate(schema, value).iter().map(ToString::to_string).collect()
    }

    #[test]
    fn types_counts_and_required_are_checked_with_pointers() {
        let schema = json!({"type": "object", "required": ["a", "b"],
            "properties": {"a": {"type": "integer", "maximum": 3}, "b": {"type": "array", "items": {"type": "string"}}}});
        assert!(faults(&schema, &json!({"a": 2.0, "b": ["x"]})).is_empty(), "2.0 is an integer");
        assert_eq!(
            faults(&schema, &json!({"a": 4, "b": ["x", 1]})),
            ["`/a`: must be at most 3, got 4", "`/b/1`: must be of type string, got integer"]
        );
        assert_eq!(faults(&schema, &json!({"a": 1})), ["``: must have the key `b`"]);
        assert_eq!(faults(&schema, &json!([])), ["``: must be of type object, got array"]);
    }

    #[test]
    fn closed_objects_pattern_properties_and_unevaluated_keys() {
        let closed = json!({"properties": {"a": {}}, "patternProperties": {"^x-": {"type": "string"}},
            "additionalProperties": false});
        assert!(faults(&closed, &json!({"a": 1, "x-b": "s"})).is_empty());
        assert_eq!(faults(&closed, &json!({"x-b": 1})), ["`/x-b`: must be of type string, got integer"]);
        assert_eq!(faults(&closed, &json!({"c": 1})), ["`/c`: is a key the schema does not allow (`c`)"]);
        // Keys evaluated by an `allOf` branch or a passing `anyOf` branch are evaluated.
        let unevaluated = json!({"allOf": [{"properties": {"a": {}}}], "anyOf": [{"properties": {"b": {}}}, {"required": ["z"]}],
            "unevaluatedProperties": false});
        assert!(faults(&unevaluated, &json!({"a": 1, "b": 2})).is_empty());
        assert_eq!(
            faults(&unevaluated, &json!({"a": 1, "c": 2})),
            ["`/c`: is a key the schema does not allow (`c`)"]
        );
    }

    #[test]
    fn unions_not_and_conditions() {
        let one = json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]});
        assert!(faults(&one, &json!(-1)).is_empty());
        assert_eq!(
            faults(&one, &json!(2)),
            ["``: must match exactly one alternative of `oneOf`, and matches 2"]
        );
        let any = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
        assert_eq!(
            faults(&any, &json!(1)),
            [
                "``: must match one of the 2 alternatives of `anyOf`, and matches none (the first: ``: must be of type string, got integer)"
            ]
        );
        assert_eq!(
            faults(&json!({"not": {"type": "null"}}), &json!(null)),
            ["``: must not match the schema under `not`, got null"]
        );
        let cond = json!({"if": {"properties": {"k": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}});
        assert!(faults(&cond, &json!({"k": "a", "a": 1})).is_empty());
        assert_eq!(faults(&cond, &json!({"k": "c", "a": 1})), ["``: must have the key `b`"]);
    }

    #[test]
    fn arrays_tuples_and_contains() {
        let tuple = json!({"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false});
        assert!(faults(&tuple, &json!(["a", 1])).is_empty());
        assert_eq!(faults(&tuple, &json!(["a", 1, 2])), ["`/2`: must not be here: at most 2 items"]);
        let contains = json!({"contains": {"type": "integer"}, "minContains": 2, "maxContains": 3});
        assert!(faults(&contains, &json!([1, "a", 2])).is_empty());
        assert_eq!(
            faults(&contains, &json!([1])),
            ["``: must hold at least 2 items that match `contains`, got 1"]
        );
        let unevaluated = json!({"prefixItems": [{}], "unevaluatedItems": {"type": "string"}});
        assert_eq!(faults(&unevaluated, &json!([1, "a", 2])), ["`/2`: must be of type string, got integer"]);
    }

    #[test]
    fn references_apply_beside_their_siblings_and_loops_end_with_a_fault() {
        let schema = json!({"$defs": {"pos": {"type": "integer", "minimum": 0}},
            "properties": {"n": {"$ref": "#/$defs/pos", "maximum": 9}, "tree": {"$ref": "#/$defs/tree"}}});
        assert_eq!(faults(&schema, &json!({"n": 10})), ["`/n`: must be at most 9, got 10"]);
        assert_eq!(faults(&schema, &json!({"n": -1})), ["`/n`: must be at least 0, got -1"]);
        // A reference that never reaches a value: a fault, not a stack overflow.
        let looping = json!({"$ref": "#"});
        let found = faults(&looping, &json!(1));
        assert_eq!(
            found,
            [format!("``: could not be checked: the schema nests past {MAX_DEPTH} levels here")]
        );
        // A deep recursive schema over a deep value within the budget.
        let tree =
            json!({"type": "object", "properties": {"next": {"$ref": "#"}}, "additionalProperties": false});
        let mut value = json!({});
        for _ in 0..50 {
            value = json!({"next": value});
        }
        assert!(faults(&tree, &value).is_empty());
    }

    #[test]
    fn enum_const_and_booleans() {
        assert!(faults(&json!({"enum": [1, "a"]}), &json!(1.0)).is_empty());
        assert_eq!(faults(&json!(false), &json!(1)), ["``: must not be here, got 1"]);
        assert!(faults(&json!(true), &json!({"x": [1]})).is_empty());
        assert_eq!(faults(&json!({"const": "a"}), &json!("b")).len(), 1);
    }
}
