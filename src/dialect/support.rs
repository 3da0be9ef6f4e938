//! What several dialects need: null and type analysis, disjointness of union branches
//! (`disjoint.rs`), the sound merge of a `$ref` site with its target, integer formats as bounds,
//! and error constructors.
//!
//! Every judgement here is *definite*: "admits null" means the schema certainly accepts `null`,
//! "disjoint" means no value can match both branches. When a question cannot be answered from the
//! keywords at hand (an `if`, a `not`, a reference that cannot be followed) the answer is the one
//! that makes the caller refuse rather than rewrite.

use crate::error::CapabilityError;
use crate::restore::Bound;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

mod disjoint;
use disjoint::{ALL_BITS, type_bits, value_bits, value_set};
pub(crate) use disjoint::{disjoint, json_type, names_type, type_names};

/// Follows at most this many `$ref` hops in one judgement.
pub(crate) const MAX_HOPS: usize = 32;

/// Keywords that annotate and never constrain. A `$ref` site whose siblings are all annotations
/// means exactly its target, with the site's annotations winning.
/// The list is [`crate::walk::META_DATA`].
pub(crate) fn is_annotation(key: &str) -> bool {
    crate::walk::is_meta_data(key)
}

/// An [`CapabilityError::Unsupported`] with no field yet (`apply` fills it from the pointer).
pub(crate) fn unsupported(
    dialect: &str,
    keyword: &str,
    pointer: &str,
    reason: impl Into<String>,
    hint: Option<String>,
) -> CapabilityError {
    CapabilityError::Unsupported {
        dialect: dialect.to_owned(),
        keyword: keyword.to_owned(),
        pointer: pointer.to_owned(),
        field: None,
        reason: reason.into(),
        hint,
    }
}

/// The too-deep error for a walk that ran out of budget at `pointer`.
pub(crate) fn too_deep(dialect: &str, max_depth: usize, pointer: String) -> CapabilityError {
    CapabilityError::TooDeep { dialect: dialect.to_owned(), depth: max_depth + 1, max_depth, pointer }
}

/// Follows a local `$ref` (at most [`MAX_HOPS`] in a row).
pub(crate) fn deref<'v>(schema: &'v Value, root: &'v Value) -> Option<&'v Value> {
    let mut cur = schema;
    for _ in 0..MAX_HOPS {
        match cur.get("$ref").and_then(Value::as_str) {
            Some(r) if cur.as_object().is_some_and(|m| m.keys().all(|k| k == "$ref" || is_annotation(k))) => {
                cur = crate::refs::resolve(root, r)?;
            }
            _ => return Some(cur),
        }
    }
    None
}

/// Whether `schema` certainly accepts `null` (serde reads a null `Option<T>` as `None`).
pub(crate) fn admits_null(schema: &Value, root: &Value) -> bool {
    null_verdict(schema, root, MAX_HOPS) == Some(true)
}

/// Whether a schema certainly refuses null (`false` when unsure, as for a `$ref` that does not
/// resolve against `root`).
pub(crate) fn refuses_null(schema: &Value, root: &Value) -> bool {
    null_verdict(schema, root, MAX_HOPS) == Some(false)
}

/// `Some(true)`: accepts null; `Some(false)`: refuses null; `None`: cannot tell.
fn null_verdict(schema: &Value, root: &Value, hops: usize) -> Option<bool> {
    let map = match schema {
        Value::Bool(b) => return Some(*b),
        Value::Object(map) => map,
        _ => return None,
    };
    let mut verdict = Some(true);
    let mut and = |v: Option<bool>| {
        verdict = match (verdict, v) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        };
    };
    if let Some(t) = map.get("type") {
        and(Some(names_type(t, "null")));
    }
    if let Some(c) = map.get("const") {
        and(Some(c.is_null()));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        and(Some(values.iter().any(Value::is_null)));
    }
    if let Some(r) = map.get("$ref") {
        let target = r.as_str().and_then(|r| crate::refs::resolve(root, r));
        and(match (target, hops) {
            (Some(t), 1..) => null_verdict(t, root, hops - 1),
            _ => None,
        });
    }
    if let Some(Value::Array(members)) = map.get("allOf") {
        for m in members {
            and(null_verdict(m, root, hops.saturating_sub(1)));
        }
    }
    if let Some(Value::Array(members)) = map.get("anyOf") {
        let vs: Vec<_> = members.iter().map(|m| null_verdict(m, root, hops.saturating_sub(1))).collect();
        and(if vs.contains(&Some(true)) {
            Some(true)
        } else if vs.iter().all(|v| *v == Some(false)) {
            Some(false)
        } else {
            None
        });
    }
    if let Some(Value::Array(members)) = map.get("oneOf") {
        let vs: Vec<_> = members.iter().map(|m| null_verdict(m, root, hops.saturating_sub(1))).collect();
        let yes = vs.iter().filter(|v| **v == Some(true)).count();
        let no = vs.iter().filter(|v| **v == Some(false)).count();
        and(if yes == 1 && no + 1 == vs.len() {
            Some(true)
        } else if no == vs.len() || yes > 1 && yes == vs.len() {
            Some(false)
        } else {
            None
        });
    }
    if map.contains_key("not") || map.contains_key("if") || map.contains_key("$dynamicRef") {
        and(None);
    }
    verdict
}

/// Why a schema admits no value, where its keywords alone prove it: the keyword that says so and
/// the reason in words (`"not"`, "it is `not` of a schema that admits every value").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Empty {
    pub(crate) keyword: &'static str,
    pub(crate) why: String,
}

/// How many levels of `allOf`, `anyOf`, `oneOf` and `not` [`admits_nothing`] looks through; a
/// schema nested deeper is not judged (read as one that may admit a value).
pub(crate) const EMPTY_DEPTH: usize = 32;

/// Whether `schema` admits no value at all, and why: the one judgement of an empty schema that
/// the pipeline (a union member that admits nothing is dropped) and the provider engine (a
/// position that admits nothing is refused with the reason) share.
///
/// Definite, as every judgement here: `Some` only where the keywords at hand prove it. `false`;
/// `not` of a schema that admits every value (`{}`, `true`, annotations only: what the MCP
/// TypeScript SDK writes for an absent value); an empty `enum` or `type` list; a `type` that
/// none of the `const` or `enum` values has; an `allOf` with a member that admits nothing, or
/// whose members (and the schema's own `type`) have no type in common; an `anyOf` or `oneOf`
/// whose every member admits nothing. A `$ref` is not followed here (its target is judged where
/// it is used); [`admits_nothing_given`] reads it from the targets already judged empty.
///
/// ```text
/// {"not": {}}                                   -> not: `not` of a schema that admits every value
/// {"allOf": [{"type": "string"}, {"type": "integer"}]} -> allOf: no type in common
/// {"anyOf": [{"not": {}}, {"type": "string"}]}  -> None
/// ```
pub(crate) fn admits_nothing(schema: &Value) -> Option<Empty> {
    empty_within(schema, EMPTY_DEPTH, &RefTypes::new())
}

/// What is known of the targets of references (`#/$defs/<name>`, the name escaped as a JSON
/// pointer token): the JSON types each may admit, as bits, none where it admits nothing
/// ([`ref_types`]).
pub(crate) type RefTypes = BTreeMap<String, u8>;

/// [`admits_nothing`], reading a `$ref` by what `refs` knows of its target: beside its siblings a
/// `$ref` is one more conjunct, so a schema whose reference admits nothing, or admits no type its
/// own `type` or an `allOf` member's does, admits nothing.
pub(crate) fn admits_nothing_given(schema: &Value, refs: &RefTypes) -> Option<Empty> {
    empty_within(schema, EMPTY_DEPTH, refs)
}

/// What the `$defs` of `root` admit ([`RefTypes`]): each definition that admits nothing
/// ([`admits_nothing_given`]), and the types of each with a `type` or a known reference, judged
/// with what the others are known to admit until nothing changes: a chain of references is
/// followed within [`EMPTY_DEPTH`] hops. Reads the definitions only, not the rest of the document.
pub(crate) fn ref_types(root: &Map<String, Value>) -> RefTypes {
    let mut known = RefTypes::new();
    let Some(Value::Object(defs)) = root.get("$defs") else { return known };
    for _ in 0..EMPTY_DEPTH {
        let mut next = RefTypes::new();
        for (name, def) in defs {
            let bits =
                if admits_nothing_given(def, &known).is_some() { Some(0) } else { own_bits(def, &known) };
            if let Some(bits) = bits {
                next.insert(format!("#/$defs/{}", crate::pointer::escape_token(name)), bits);
            }
        }
        if next == known {
            break;
        }
        known = next;
    }
    known
}

/// The types a schema's own `type` and its `$ref` (by `refs`) leave, if either says.
fn own_bits(schema: &Value, refs: &RefTypes) -> Option<u8> {
    let map = schema.as_object()?;
    let own = map.get("type").and_then(type_bits);
    let referred = match map.get("$ref") {
        Some(Value::String(target)) => refs.get(target).copied(),
        _ => None,
    };
    match (own, referred) {
        (Some(a), Some(b)) => Some(a & b),
        (a, b) => a.or(b),
    }
}

fn empty_within(schema: &Value, depth: usize, refs: &RefTypes) -> Option<Empty> {
    let empty = |keyword: &'static str, why: &str| Some(Empty { keyword, why: why.to_owned() });
    let map = match schema {
        Value::Bool(false) => return empty("not", "it is the schema `false`"),
        Value::Object(map) => map,
        _ => return None,
    };
    let depth = depth.checked_sub(1)?;
    if let Some(Value::String(target)) = map.get("$ref")
        && refs.get(target) == Some(&0)
    {
        return empty("$ref", "its `$ref` points to a schema that admits no value");
    }
    if let Some(not) = map.get("not")
        && admits_everything(not)
    {
        return empty("not", "it is `not` of a schema that admits every value");
    }
    if map.get("enum").and_then(Value::as_array).is_some_and(Vec::is_empty) {
        return empty("enum", "its `enum` lists no value");
    }
    if map.get("type").and_then(type_bits) == Some(0) {
        return empty("type", "its `type` list names no type");
    }
    let own = own_bits(schema, refs);
    if own == Some(0) {
        return empty("$ref", "its `$ref` admits none of the types its `type` names");
    }
    if let Some(bits) = own {
        let values: Option<Vec<&Value>> = value_set(map);
        if let Some(values) = values
            && !values.is_empty()
            && values.iter().all(|v| value_bits(v) & bits == 0)
        {
            let keyword = if map.contains_key("const") { "const" } else { "enum" };
            return Some(Empty { keyword, why: format!("its `type` admits none of its `{keyword}` values") });
        }
    }
    if let Some(Value::Array(members)) = map.get("allOf") {
        let mut common = own.unwrap_or(ALL_BITS);
        for (i, m) in members.iter().enumerate() {
            if let Some(inner) = empty_within(m, depth, refs) {
                return Some(Empty {
                    keyword: "allOf",
                    why: format!("its `allOf` member {i} admits no value: {}", inner.why),
                });
            }
            if let Some(bits) = own_bits(m, refs) {
                common &= bits;
            }
        }
        if common == 0 {
            return empty("allOf", "its `allOf` members (and its own `type`) have no type in common");
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = map.get(key)
            && !members.is_empty()
            && members.iter().all(|m| empty_within(m, depth, refs).is_some())
        {
            return Some(Empty {
                keyword: if key == "anyOf" { "anyOf" } else { "oneOf" },
                why: format!("every member of its `{key}` admits no value"),
            });
        }
    }
    None
}

/// Whether a schema admits every value: `true`, or an object of annotations only.
fn admits_everything(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(m) => m.keys().all(|k| is_annotation(k)),
        _ => false,
    }
}

/// Keywords that read their siblings: merging two schemas that split one of these groups between
/// them would change what each keyword sees.
const GROUPS: &[&[&str]] = &[
    &["additionalProperties", "patternProperties", "properties"],
    &["additionalItems", "items", "prefixItems"],
    &["contains", "maxContains", "minContains"],
    &["else", "if", "then"],
];

/// Keywords whose meaning depends on everything evaluated beside them, or on scope.
const CONTEXTUAL: &[&str] = &[
    "$anchor",
    "$dynamicAnchor",
    "$dynamicRef",
    "$id",
    "$recursiveRef",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// A `$ref` site's own keywords and its target, handed back when they cannot merge exactly.
pub(crate) type Unmerged = (Map<String, Value>, Value);

/// Combines the keywords of a `$ref` site (without its `$ref`) with the schema it points at, so
/// that the result accepts exactly what the site accepted. The site's annotations win over the
/// target's. Returns `Err(site, target)` when the two can only be combined with `allOf`.
pub(crate) fn merge_ref_site(site: Map<String, Value>, target: Value) -> Result<Value, Box<Unmerged>> {
    let t = match target {
        Value::Bool(true) => return Ok(Value::Object(site)),
        Value::Object(t) => t,
        other => return Err(Box::new((site, other))),
    };
    let site_asserts: Vec<&String> = site.keys().filter(|k| !is_annotation(k)).collect();
    if site_asserts.is_empty() {
        let mut out = t;
        out.extend(site);
        return Ok(Value::Object(out));
    }
    let target_asserts: Vec<&String> = t.keys().filter(|k| !is_annotation(k)).collect();
    let contextual = |ks: &[&String]| ks.iter().any(|k| CONTEXTUAL.contains(&k.as_str()));
    if contextual(&site_asserts) || contextual(&target_asserts) {
        return Err(Box::new((site, Value::Object(t))));
    }
    // Keys on both sides must combine by a rule that keeps the conjunction exact.
    for k in site_asserts.iter().filter(|k| t.contains_key(k.as_str())) {
        let ok = match k.as_str() {
            "type" | "required" => true,
            "properties" => {
                let (Some(Value::Object(a)), Some(Value::Object(b))) =
                    (site.get("properties"), t.get("properties"))
                else {
                    return Err(Box::new((site, Value::Object(t))));
                };
                a.keys().all(|n| !b.contains_key(n))
            }
            _ => false,
        };
        if !ok {
            return Err(Box::new((site, Value::Object(t))));
        }
    }
    for group in GROUPS {
        let on = |m: &Map<String, Value>| {
            group.iter().filter(|g| m.contains_key(**g)).copied().collect::<Vec<_>>()
        };
        let (a, b) = (on(&site), on(&t));
        // `properties` on both sides is fine only when neither side has a sibling that reads it.
        if !a.is_empty() && !b.is_empty() && (a != ["properties"] || b != ["properties"]) {
            return Err(Box::new((site, Value::Object(t))));
        }
    }
    let mut out = t;
    for (k, v) in site {
        match (k.as_str(), out.get_mut(&k)) {
            ("type", Some(existing)) => {
                let a = type_names(existing).into_iter().map(str::to_owned).collect::<BTreeSet<_>>();
                let b = type_names(&v).into_iter().map(str::to_owned).collect::<BTreeSet<_>>();
                let both: Vec<Value> = a.intersection(&b).cloned().map(Value::String).collect();
                *existing = match both.as_slice() {
                    [one] => one.clone(),
                    _ => Value::Array(both),
                };
            }
            ("required", Some(Value::Array(existing))) => {
                for r in v.as_array().into_iter().flatten() {
                    if !existing.contains(r) {
                        existing.push(r.clone());
                    }
                }
            }
            ("properties", Some(Value::Object(existing))) => {
                if let Value::Object(extra) = v {
                    existing.extend(extra);
                }
            }
            _ => {
                out.insert(k, v);
            }
        }
    }
    Ok(Value::Object(out))
}

/// `merge_ref_site`, falling back to `allOf`: the site's annotations on the outside, the target
/// (without the annotations the site overrides) and the site's assertions as two members.
pub(crate) fn combine_ref_site(site: Map<String, Value>, target: Value) -> Value {
    match merge_ref_site(site, target) {
        Ok(v) => v,
        Err(both) => {
            let (site, target) = *both;
            let (mut outer, mut asserts) = (Map::new(), Map::new());
            for (k, v) in site {
                if is_annotation(&k) {
                    outer.insert(k, v)
                } else {
                    asserts.insert(k, v)
                };
            }
            let target = match target {
                Value::Object(mut t) => {
                    t.retain(|k, _| !outer.contains_key(k));
                    Value::Object(t)
                }
                other => other,
            };
            let mut members = vec![target];
            if !asserts.is_empty() {
                members.push(Value::Object(asserts));
            }
            outer.insert("allOf".into(), Value::Array(members));
            Value::Object(outer)
        }
    }
}

/// The range serde reads for each of schemars' integer `format`s, as JSON numbers: `int8` to
/// `int64` and `uint8` to `uint64` exactly; `int`/`uint` (`isize`/`usize`) as their 64-bit range;
/// `int128`/`uint128` as doubles, since serde_json holds no wider integer: `-2^127` is exact,
/// and each maximum is the nearest double above the type's (`2^127`, `2^128`), the one integer
/// there being the only value the bound lets through that serde refuses.
pub(crate) fn integer_format_bounds(format: &str) -> Option<(serde_json::Number, serde_json::Number)> {
    use serde_json::Number;
    let (lo, hi): (Number, Number) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0.into(), u8::MAX.into()),
        "uint16" => (0.into(), u16::MAX.into()),
        "uint32" => (0.into(), u32::MAX.into()),
        "uint64" | "uint" => (0.into(), u64::MAX.into()),
        "int128" => (Number::from_f64(-(2f64.powi(127)))?, Number::from_f64(2f64.powi(127))?),
        "uint128" => (0.into(), Number::from_f64(2f64.powi(128))?),
        _ => return None,
    };
    Some((lo, hi))
}

/// Writes the `minimum`/`maximum` an integer `format` implies (see [`integer_format_bounds`]),
/// keeping any bound already tighter; the `format` stays. Sound: serde refuses every value
/// outside the format's range. Used by the `integer-bounds` pass and by dialects that drop
/// `format`.
pub(crate) fn format_as_bounds(map: &mut Map<String, Value>) {
    let Some((lo, hi)) = map.get("format").and_then(Value::as_str).and_then(integer_format_bounds) else {
        return;
    };
    if !map.get("type").is_some_and(|t| names_type(t, "integer")) {
        return;
    }
    // Exactly, a big-integer token included (`crate::restore::Bound`).
    let (lo_b, hi_b) = (Bound::Number(lo.clone()), Bound::Number(hi.clone()));
    let tighter_min = |v: &Value| Bound::of(v).is_some_and(|m| m.compare(&lo_b).is_ge());
    let tighter_max = |v: &Value| Bound::of(v).is_some_and(|m| m.compare(&hi_b).is_le());
    if !map.get("minimum").is_some_and(tighter_min) {
        map.insert("minimum".into(), Value::Number(lo));
    }
    if !map.get("maximum").is_some_and(tighter_max) {
        map.insert("maximum".into(), Value::Number(hi));
    }
}

/// Sorts and deduplicates errors by pointer and message, for a stable report.
pub(crate) fn sort_errors(errors: &mut Vec<CapabilityError>) {
    errors.sort_by(|a, b| (a.pointer(), a.to_string()).cmp(&(b.pointer(), b.to_string())));
    errors.dedup();
}

/// Whether `pattern` is free of lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) and backreferences
/// (`\1`..`\9`, `\k<name>`): what a provider's regular-language engine can run (OpenAI's
/// "pattern (no lookarounds)", Anthropic's regex subset). An escaped parenthesis is a literal.
pub(crate) fn pattern_is_regular(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                match bytes.get(i + 1) {
                    Some(b'1'..=b'9') => return false,
                    Some(b'k') if bytes.get(i + 2) == Some(&b'<') => return false,
                    _ => {}
                }
                i += 2;
                continue;
            }
            b'(' if bytes.get(i + 1) == Some(&b'?') => {
                let rest = &bytes[i + 2..];
                if rest.starts_with(b"=")
                    || rest.starts_with(b"!")
                    || rest.starts_with(b"<=")
                    || rest.starts_with(b"<!")
                {
                    return false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    true
}

/// The numbers of every `{n}`, `{n,}` and `{n,m}` repetition in `pattern` (escaped braces are
/// literals); a number too long for a `u64` counts as `u64::MAX`.
pub(crate) fn repeat_bounds(pattern: &str) -> impl Iterator<Item = u64> + '_ {
    let bytes = pattern.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'{' => {
                let end = bytes[i + 1..].iter().position(|b| *b == b'}').map(|p| i + 1 + p);
                if let Some(end) = end {
                    let body = &pattern[i + 1..end];
                    let is_repeat = !body.is_empty()
                        && body.bytes().all(|b| b.is_ascii_digit() || b == b',')
                        && body.as_bytes()[0].is_ascii_digit();
                    if is_repeat {
                        found.extend(
                            body.split(',').filter(|n| !n.is_empty()).map(|n| n.parse().unwrap_or(u64::MAX)),
                        );
                    }
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    found.into_iter()
}

/// A [`CapabilityError::ForbiddenKeyword`] for every key of every schema object in `schema` that
/// `fields` does not list (a provider's proto reads no other), each with `hint`'s advice; the walk
/// spells a pointer only for such a key.
pub(crate) fn unknown_fields(
    dialect: &str,
    schema: &Value,
    fields: &[&str],
    max_depth: usize,
    hint: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<CapabilityError>,
) {
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |at, map| {
        for key in map.keys().filter(|k| !fields.contains(&k.as_str())) {
            errors.push(CapabilityError::ForbiddenKeyword {
                dialect: dialect.to_owned(),
                keyword: key.clone(),
                pointer: at.pointer().as_str().to_owned(),
                field: None,
                hint: hint(key),
            });
        }
    });
}

/// The hint for a keyword strict dialects refuse, naming the Rust shape to use instead.
pub(crate) fn strict_hint(keyword: &str) -> Option<String> {
    crate::hint::for_keyword(keyword, crate::hint::Origin::Rust)
}

#[cfg(test)]
mod tests;
