//! What only a branch's values have (`shape_of`, and `deep_shape_of` with its properties' and
//! items' shapes for the forward map), read from the provider schema through its references
//! within a budget. Apart from the unions because the integer-only plan reads shapes too.

use super::keywords::listed_values;
use crate::dialect::support::{MAX_HOPS, is_annotation, merge_ref_site};
use crate::restore::{Bounds, Format, Pattern, Shape, TypeSet};
use serde_json::{Map, Value};

/// What only values of `branch` have, following a `$ref` into the provider's definitions.
pub(super) fn shape_of(branch: &Value, root: &Value) -> Shape {
    shape_within(branch, root, &mut { SHAPE_BUDGET })
}

/// [`shape_of`] with the shapes of the branch's properties and items below it, for the forward
/// map (at most [`DEEP_BUDGET`] of them; past it a position fits anything).
pub(super) fn deep_shape_of(branch: &Value, root: &Value) -> Shape {
    let mut shape = shape_of(branch, root);
    deepen(&mut shape, branch, root, &mut { DEEP_BUDGET });
    shape
}

/// Whether [`deep_shape_of`] of `branch`, a branch of the provider's schema, tells exactly which
/// values the provider accepts there (see [`Shape::exact`]): a scalar with only `type`, `enum` or
/// `const` (and `nullable`), an object whose properties are such schemas, with `required` and
/// a closing `additionalProperties: false`, an array whose items are, a union of such schemas
/// alone (a type list written as `anyOf`); annotations beside. A reference, a union beside other
/// keywords, a bound, a `format` or a `pattern` the provider enforces is not read by
/// a shape: no. But a `pattern` restore checks itself (`patterns_checked`: Anthropic's, which
/// its SDKs move into the description) is read by restore, which tries the branch and finds a
/// value that breaks it faulty: yes.
pub(super) fn exact_form(branch: &Value, patterns_checked: bool) -> bool {
    fn go(s: &Value, patterns_checked: bool, budget: &mut usize) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let Value::Object(m) = s else { return s == &Value::Bool(true) };
        // A union of exact forms alone (a type list written as `anyOf`): a value fits when it
        // fits one of them exactly. Keywords beside it would narrow it past what a shape reads.
        if let Some(Value::Array(members)) = m.get("anyOf") {
            return m.keys().all(|k| k == "anyOf" || is_annotation(k))
                && members.iter().all(|b| go(b, patterns_checked, budget));
        }
        let required = m.get("required").and_then(Value::as_array).map_or(0, Vec::len);
        let props = m.get("properties").and_then(Value::as_object);
        m.iter().all(|(k, v)| match k.as_str() {
            "type" | "enum" | "const" | "nullable" | "required" | "propertyOrdering" => true,
            "additionalProperties" => v == &Value::Bool(false),
            // Gemini's closing: every property required, no more keys than they are.
            "maxProperties" => v.as_u64().is_some_and(|n| {
                usize::try_from(n) == Ok(required) && props.is_some_and(|p| p.len() == required)
            }),
            "pattern" => patterns_checked && v.is_string(),
            "properties" => {
                v.as_object().is_some_and(|p| p.values().all(|x| go(x, patterns_checked, budget)))
            }
            "items" => go(v, patterns_checked, budget),
            k => is_annotation(k),
        })
    }
    go(branch, patterns_checked, &mut { DEEP_BUDGET / 2 })
}

/// How many shapes below a branch encode may check.
const DEEP_BUDGET: usize = 64;

fn deepen(shape: &mut Shape, branch: &Value, root: &Value, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    if let Some(any) = &mut shape.any {
        // A union within the branch: each of its branches deepened by its own schema (a value
        // has the union's shape when it has one of them, below the top level too).
        if let Some(members) = union_members(branch, root)
            && members.len() == any.len()
        {
            for (s, m) in any.iter_mut().zip(members) {
                if *budget == 0 {
                    return;
                }
                *budget -= 1;
                deepen(s, m, root, budget);
            }
        }
        return;
    }
    let mut b = branch;
    for _ in 0..32 {
        match b.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)) {
            Some(t) => b = t,
            None => break,
        }
    }
    if let Some(p) = b.get("pattern").and_then(Value::as_str) {
        shape.pattern = Pattern::new(p);
    }
    // A format the provider's schema keeps, which the code's readers enforce too.
    if let Some(f) = b.get("format").and_then(Value::as_str) {
        shape.format = Format::from_name(f);
    }
    // Bounds the provider's schema keeps on a number.
    if let Value::Object(m) = b {
        shape.bounds = Bounds::of(m);
    }
    let child = |s: &Value, budget: &mut usize| {
        let mut c = shape_within(s, root, budget);
        deepen(&mut c, s, root, budget);
        c
    };
    if let Some(Value::Object(props)) = b.get("properties") {
        for (name, s) in props {
            if *budget == 0 {
                return;
            }
            let c = child(s, budget);
            shape.props.push((name.clone(), c));
        }
    }
    // A tuple kept as an array: its members, and `items` for the items past them.
    if let Some(Value::Array(members)) = b.get("prefixItems") {
        for m in members {
            if *budget == 0 {
                return;
            }
            let c = child(m, budget);
            shape.prefix.push(c);
        }
    }
    if let Some(items) = b.get("items").filter(|i| i.is_object()) {
        shape.items = Some(Box::new(child(items, budget)));
    }
    // How many items the provider takes: a bound it keeps, or a tuple it closes.
    // (As `u32`, a count past it read as `u32::MAX`: no array sent within the size budgets holds
    // that many items, and a smaller shape keeps the forward map within its memory bound.)
    let count = |k: &str| b.get(k).and_then(Value::as_u64).map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let closed = (b.get("items") == Some(&Value::Bool(false))).then(|| {
        let n = b.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
        u32::try_from(n).unwrap_or(u32::MAX)
    });
    shape.len = (count("minItems").unwrap_or(0), count("maxItems").into_iter().chain(closed).min());
    // A map kept as an object (gemini-json-schema): the shape of its values.
    if *budget > 0
        && let Some(rest) = b.get("additionalProperties").filter(|r| r.is_object())
    {
        shape.rest = Some(Box::new(child(rest, budget)));
    }
}

/// The schema a branch stands for, as its shape is read: through references (at most 32) and
/// unions of one branch.
fn through_refs<'v>(branch: &'v Value, root: &'v Value) -> &'v Value {
    let mut b = branch;
    for _ in 0..32 {
        match b.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)) {
            Some(t) => b = t,
            None => break,
        }
        if let Some(Value::Array(inner)) = b.get("anyOf")
            && inner.len() == 1
        {
            b = &inner[0];
        }
    }
    b
}

/// The branches of the union `branch` is, through references and one-branch unions, as
/// [`shape_within`] reads them into [`Shape::any`] (in the same order).
fn union_members<'v>(branch: &'v Value, root: &'v Value) -> Option<&'v Vec<Value>> {
    let b = through_refs(branch, root);
    match b.get("anyOf") {
        Some(Value::Array(inner)) if inner.len() > 1 => Some(inner),
        _ => None,
    }
}

/// How many shapes one branch's shape may be built from: a union whose branches refer back to
/// it has no end, and one with several such branches doubles at each turn.
const SHAPE_BUDGET: usize = 256;

/// [`shape_of`] with `budget` shapes left to build; past it a branch has the shape that tells
/// nothing (never disjoint from another), as for a branch that cannot be told apart: restore
/// never picks a branch by a guess.
fn shape_within(branch: &Value, root: &Value, budget: &mut usize) -> Shape {
    if *budget == 0 {
        return Shape::default();
    }
    *budget -= 1;
    // A reference with keywords beside it (a tag merged beside a variant's `$ref`): the values
    // of both, so the tag still tells the branch apart.
    if let Some(Value::Object(site)) = Some(branch)
        && let Some(r) = site.get("$ref")
        && site.keys().any(|k| k != "$ref" && !is_annotation(k))
    {
        let own: Map<String, Value> =
            site.iter().filter(|(k, _)| k.as_str() != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
        let own = shape_within(&Value::Object(own), root, budget);
        let target = Value::Object(Map::from_iter([("$ref".to_owned(), r.clone())]));
        return own.both(shape_within(&target, root, budget));
    }
    let b = through_refs(branch, root);
    if let Some(Value::Array(inner)) = b.get("anyOf") {
        if let Some(site) = b.as_object().filter(|m| m.keys().any(|k| k != "anyOf" && !is_annotation(k))) {
            // Keywords beside the union (a tag beside an inlined variant): they hold too.
            let own: Map<String, Value> = site
                .iter()
                .filter(|(k, _)| k.as_str() != "anyOf")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let own = shape_within(&Value::Object(own), root, budget);
            let union = Value::Object(Map::from_iter([("anyOf".to_owned(), Value::Array(inner.clone()))]));
            return own.both(shape_within(&union, root, budget));
        }
        if let [one] = inner.as_slice() {
            return shape_within(one, root, budget);
        }
        // A union within a union: a value has its shape when it has one of its branches'.
        return Shape {
            any: Some(inner.iter().map(|i| shape_within(i, root, budget)).collect()),
            ..Shape::default()
        };
    }
    let Value::Object(m) = b else { return Shape::default() };
    let mut types = m.get("type").map(TypeSet::of_type);
    if m.get("nullable") == Some(&Value::Bool(true)) {
        types = types.map(|t| t.union(TypeSet::of_type(&"null".into())));
    }
    let values = values_of(m);
    let required: Vec<String> = m
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let props = m.get("properties").and_then(Value::as_object);
    let tags = props
        .map(|p| {
            required
                .iter()
                .filter_map(|n| {
                    p.get(n).and_then(Value::as_object).and_then(values_of).map(|v| (n.clone(), v))
                })
                .collect()
        })
        .unwrap_or_default();
    // Closed to the declared names only: a key pattern (`patternProperties`) admits more.
    let patterns = m.get("patternProperties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
    let closed = m.get("additionalProperties") == Some(&Value::Bool(false)) && !patterns
        || m.get("maxProperties")
            .and_then(Value::as_u64)
            .is_some_and(|n| usize::try_from(n) == Ok(required.len()));
    // An object, or an optional one sent as null for absent (`["object", "null"]`): its keys
    // judge objects only (a null fits as it is).
    let is_object = types.is_some_and(|t| t == TypeSet::OBJECT || t == TypeSet::OBJECT.union(TypeSet::NULL));
    let keys = is_object.then(|| {
        let may =
            if closed { props.map(|p| p.keys().cloned().collect()).unwrap_or_default() } else { Vec::new() };
        (may, required.clone())
    });
    Shape {
        types,
        values,
        tags,
        keys,
        closed: closed && is_object,
        any: None,
        whole: false,
        props: Vec::new(),
        items: None,
        prefix: Vec::new(),
        rest: None,
        len: (0, None),
        pattern: None,
        format: None,
        bounds: None,
        exact: false,
    }
}

/// The values a schema lists (`const`, `enum`), and null beside them where Gemini's
/// `nullable: true` admits it although the `enum` does not list it.
fn values_of(m: &Map<String, Value>) -> Option<Vec<Value>> {
    let mut values = listed_values(m)?;
    if m.get("nullable") == Some(&Value::Bool(true)) && !values.contains(&Value::Null) {
        values.push(Value::Null);
    }
    Some(values)
}

/// The shape of branch `i`, a branch whose restore only turns integral floats into integers,
/// taking only integer tokens where another branch takes numbers with a fraction: a float sent
/// there is that branch's (`1.0` for serde's untagged `Int(i64) | Float(f64)` is the float), and
/// turning it into an integer would change what serde reads.
pub(super) fn whole_where_fractions_go_elsewhere(shapes: &[Shape], i: usize) -> Shape {
    let mut shape = shapes[i].clone();
    shape.whole = shapes.iter().enumerate().any(|(j, s)| j != i && s.admits_fractions());
    shape
}

/// A discriminated union's branch with its `tag` property required: as it is where its schema
/// (through references) already requires it or does not declare it, else its target merged with
/// `required: [tag]`. A `discriminator`'s readers (pydantic, OpenAPI) refuse a value without the
/// tag, even where a member gives it a default; required, the tags tell the branches apart.
pub(super) fn with_tag_required(branch: &Value, tag: &str, root: &Value) -> Value {
    let mut target = branch;
    for _ in 0..MAX_HOPS {
        match target.get("$ref").and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)) {
            Some(t)
                if target.as_object().is_some_and(|o| o.keys().all(|k| k == "$ref" || is_annotation(k))) =>
            {
                target = t;
            }
            _ => break,
        }
    }
    let declared = target.get("properties").and_then(|p| p.get(tag)).is_some();
    let required = target
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(tag)));
    if !declared || required {
        return branch.clone();
    }
    let own = Map::from_iter([("required".to_owned(), Value::Array(vec![Value::String(tag.to_owned())]))]);
    merge_ref_site(own, target.clone()).unwrap_or_else(|_| branch.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exact_forms_are_those_a_shape_reads_whole() {
        for exact in [
            json!({"type": "integer", "description": "Count."}),
            json!({"type": "string", "enum": ["a", "b"]}),
            json!({"type": "object", "properties": {"a": {"type": "number"}, "t": {"enum": ["cat"]}},
                   "required": ["a"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "maxProperties": 1}),
            json!({"type": "array", "items": {"type": "boolean"}}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A name, or none."}),
            json!({"anyOf": [{"type": "string"}]}),
            json!(true),
        ] {
            assert!(exact_form(&exact, false), "{exact}");
        }
        for not in [
            json!({"type": "integer", "maximum": 100}),
            json!({"type": "string", "format": "date-time"}),
            json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a"}}}),
            json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a"], "maxProperties": 1}),
            json!({"$ref": "#/$defs/A"}),
            json!({"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 3}]}),
            json!({"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}),
            json!({"type": "array", "items": {"type": "integer"}, "maxItems": 2}),
        ] {
            assert!(!exact_form(&not, false), "{not}");
        }
        // A pattern restore checks itself is read whole; one only the provider runs is not.
        let patterned = json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "^a"}},
            "required": ["a"], "additionalProperties": false});
        assert!(exact_form(&patterned, true));
        assert!(!exact_form(&patterned, false));
        assert!(!exact_form(&json!({"type": "string", "pattern": "^a", "maxLength": 3}), true));
    }
}
