//! How a union with `null` becomes an optional value ([`collapse`]), and what a recursion point
//! carries ([`recursion_note`], [`infer_type`]).

use super::*;
use crate::refs;
use crate::vocab::json_type::JsonType;

/// The note a recursion point carries: `Node: the same shape as the Node that contains it.`,
/// worded to need no article (which would depend on how the name sounds, not how it is spelled:
/// "a User", "an Hour").
pub(crate) fn recursion_note(name: &str) -> String {
    format!("{name}: the same shape as the {name} that contains it.")
}

/// Whether a schema accepts only `null`: `type` `"null"` (or `["null"]`) and nothing but
/// annotations beside it.
pub(crate) fn is_null_member(member: &Value) -> bool {
    let Value::Object(m) = member else { return false };
    let null_type = match m.get("type") {
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.len() == 1 && ts[0] == "null",
        _ => false,
    };
    null_type && m.keys().all(|k| k == "type" || is_annotation(k))
}

/// Keywords that constrain `null` too: a schema holding one cannot simply add `"null"` to its
/// `type` list.
pub(crate) const NULL_SENSITIVE: &[&str] =
    &["allOf", "anyOf", "const", "else", "enum", "if", "not", "oneOf", "then"];

/// The optional-union collapse, null-aware.
///
/// A union (`anyOf`, else `oneOf`) of one real object member and `null` members: where a `type`
/// beside it already refuses `null`, the `null` members are dead and the union becomes the member.
/// A `oneOf` is collapsed only where `null` matches exactly one member (one null member, and a
/// real member that certainly refuses `null`, [`refuses_null`]); else it is kept whole, since
/// `oneOf` refuses a value two members accept.
/// Otherwise, where the value may be left out (`Optional`), `null` is dropped with its
/// `default: null`; where it must be received (`Required`), the union is kept in its simplest
/// form: the member with `"null"` added to its `type` list when nothing else in it constrains
/// `null`, else `anyOf: [member, {"type": "null"}]`. A `type: [X, "null"]` list loses its `"null"`
/// where the value may be left out.
pub(crate) fn collapse<P: Policy>(node: Value, ctx: Ctx) -> Value {
    let Value::Object(mut m) = node else { return node };
    let key = if m.contains_key("anyOf") {
        "anyOf"
    } else if m.contains_key("oneOf") {
        "oneOf"
    } else {
        if ctx == Ctx::Optional && drop_null_from_type(&mut m) {
            drop_null_default(&mut m);
        }
        return Value::Object(m);
    };
    let Some(Value::Array(members)) = m.get(key) else { return Value::Object(m) };
    let (nulls, reals, real) = count_members(members, |_, x| is_null_member(x));
    if reals != 1 || !members[real].is_object() || nulls == 0 {
        return Value::Object(m);
    }
    let null_allowed = match m.get("type") {
        None => true,
        Some(Value::String(t)) if t == "null" => return Value::Object(m),
        Some(Value::String(_)) => false,
        Some(Value::Array(ts)) if ts.iter().all(|t| t == "null") => return Value::Object(m),
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        Some(_) => return Value::Object(m),
    };
    // `oneOf` accepts a value that exactly one member accepts: `null` is accepted only while one
    // member alone admits it. Where a second null member, or a real member that may admit
    // `null` too, makes `null` match twice, the input refuses `null`, and any collapse would
    // accept it: the union is kept whole.
    if key == "oneOf" && null_allowed && (nulls > 1 || !refuses_null(&members[real])) {
        return Value::Object(m);
    }
    if null_allowed && ctx == Ctx::Required {
        if m.contains_key("type") {
            return Value::Object(m);
        }
        let Some(Value::Array(mut members)) = m.remove(key) else { return Value::Object(m) };
        let Value::Object(mut member) = members.swap_remove(real) else { return Value::Object(m) };
        let simple = !NULL_SENSITIVE.iter().any(|k| member.contains_key(*k));
        let typed = match member.get_mut("type") {
            Some(Value::String(t)) if simple && t == "null" => true,
            Some(Value::String(t)) if simple => {
                let t = std::mem::take(t);
                member.insert(
                    "type".to_owned(),
                    Value::Array(vec![Value::String(t), Value::String("null".to_owned())]),
                );
                true
            }
            Some(Value::Array(ts)) if simple && ts.iter().all(Value::is_string) => {
                if !ts.iter().any(|t| t == "null") {
                    ts.push(Value::String("null".to_owned()));
                }
                true
            }
            _ => false,
        };
        if typed {
            return P::combine(m, Value::Object(member));
        }
        m.insert(key.to_owned(), Value::Array(vec![Value::Object(member), null_schema()]));
        return Value::Object(m);
    }
    let Some(Value::Array(mut members)) = m.remove(key) else { return Value::Object(m) };
    let member = members.swap_remove(real);
    if null_allowed {
        drop_null_from_type(&mut m);
    }
    drop_null_default(&mut m);
    P::combine(m, member)
}

/// Whether a schema certainly refuses `null`: its `type` leaves `null` out, or (untyped) its
/// `enum` or `const` holds no `null`. Anything else may admit `null`, as far as this reads.
pub(crate) fn refuses_null(member: &Value) -> bool {
    let Value::Object(m) = member else { return false };
    match m.get("type") {
        Some(Value::String(t)) => return t != "null",
        Some(Value::Array(ts)) => return !ts.iter().any(|t| t == "null"),
        _ => {}
    }
    match (m.get("const"), m.get("enum")) {
        (Some(c), _) => !c.is_null(),
        (None, Some(Value::Array(values))) => !values.iter().any(Value::is_null),
        _ => false,
    }
}

/// A union's members in one pass: how many `is_null` says are null (it gets each member's index),
/// how many are real, and the index of the first real one (0 if none).
#[inline]
pub(crate) fn count_members(
    members: &[Value],
    is_null: impl Fn(usize, &Value) -> bool,
) -> (usize, usize, usize) {
    let (mut nulls, mut reals, mut first_real) = (0, 0, 0);
    for (i, member) in members.iter().enumerate() {
        if is_null(i, member) {
            nulls += 1;
        } else {
            if reals == 0 {
                first_real = i;
            }
            reals += 1;
        }
    }
    (nulls, reals, first_real)
}

pub(crate) fn null_schema() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("null".to_owned()));
    Value::Object(m)
}

/// `type: [X, "null"]` → `type: X` (and `[X, Y, "null"]` → `[X, Y]`); whether anything changed.
pub(crate) fn drop_null_from_type(m: &mut Map<String, Value>) -> bool {
    let Some(Value::Array(ts)) = m.get_mut("type") else { return false };
    let before = ts.len();
    ts.retain(|t| t != "null");
    if ts.len() == before || ts.is_empty() {
        if ts.is_empty() {
            ts.push(Value::String("null".to_owned()));
        }
        return false;
    }
    if ts.len() == 1 {
        let only = ts.pop().unwrap_or(Value::Null);
        m.insert("type".to_owned(), only);
    }
    true
}

pub(crate) fn drop_null_default(m: &mut Map<String, Value>) {
    if m.get("default").is_some_and(Value::is_null) {
        m.remove("default");
    }
}

/// The JSON type(s) of a definition, for its recursion points: its own `type` as written, else
/// inferred through references, unions (`anyOf`/`oneOf`: every member's), `allOf` (the first
/// typed member's), `const` and `enum`. `None` when nothing says.
pub(crate) fn infer_type(root: &Value, node: &Value, budget: usize, legacy: bool) -> Option<Value> {
    let reference_alone = legacy && node.get("$ref").is_some();
    if !reference_alone && let Some(t @ (Value::String(_) | Value::Array(_))) = node.get("type") {
        let mut t = t.clone();
        if type_names(&t) == TypeNames::Foreign {
            rewrite_type_names(&mut t);
        }
        return Some(t);
    }
    let mut types = Vec::new();
    let mut seen = Vec::new();
    collect_types(root, node, budget, legacy, &mut seen, &mut types)?;
    match types.len() {
        0 => None,
        1 => types.pop(),
        _ => Some(Value::Array(types)),
    }
}

pub(crate) fn collect_types<'v>(
    root: &'v Value,
    node: &'v Value,
    budget: usize,
    legacy: bool,
    seen: &mut Vec<*const Value>,
    out: &mut Vec<Value>,
) -> Option<()> {
    let budget = budget.checked_sub(1)?;
    let add = |t: &str, out: &mut Vec<Value>| {
        // A foreign spelling as the JSON name it stands for; the node holding a name that is no
        // type is refused where it is checked, so what is added here never reaches an output.
        let t: &str = match JsonType::read(t) {
            Some(json) => json.as_str(),
            None => t,
        };
        if !out.iter().any(|o| o == t) {
            out.push(Value::String(t.to_owned()));
        }
    };
    let Value::Object(m) = node else { return None };
    // Under draft-07 and earlier, a `$ref` is read alone: its target says the type.
    let reference_alone = legacy && m.contains_key("$ref");
    match m.get("type") {
        _ if reference_alone => {}
        Some(Value::String(t)) => {
            add(t, out);
            return Some(());
        }
        Some(Value::Array(ts)) => {
            for t in ts {
                add(t.as_str()?, out);
            }
            return Some(());
        }
        _ => {}
    }
    if let Some(Value::String(r)) = m.get("$ref") {
        let target = refs::resolve(root, r)?;
        if seen.contains(&std::ptr::from_ref(target)) {
            return None;
        }
        seen.push(target);
        return collect_types(root, target, budget, legacy, seen, out);
    }
    if reference_alone {
        return None;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = m.get(key) {
            for member in members {
                collect_types(root, member, budget, legacy, seen, out)?;
            }
            return Some(());
        }
    }
    if let Some(Value::Array(members)) = m.get("allOf") {
        return members.iter().find_map(|x| collect_types(root, x, budget, legacy, seen, out));
    }
    if let Some(c) = m.get("const") {
        add(JsonType::of(c).as_str(), out);
        return Some(());
    }
    if let Some(Value::Array(values)) = m.get("enum")
        && !values.is_empty()
    {
        for v in values {
            add(JsonType::of(v).as_str(), out);
        }
        return Some(());
    }
    None
}
