//! How a reference site meets its definition here ([`combine`]): the foreign caller's combine
//! rules, which the engine's null collapse uses too.

use super::*;

/// Keywords that read each other and must stay side by side in one schema object.
pub(super) fn family(key: &str) -> &str {
    match key {
        "properties" | "patternProperties" | "additionalProperties" => "properties",
        "prefixItems" | "items" | "additionalItems" => "items",
        "if" | "then" | "else" => "if",
        "contains" | "minContains" | "maxContains" => "contains",
        "minimum" | "exclusiveMinimum" => "minimum",
        "maximum" | "exclusiveMaximum" => "maximum",
        other => other,
    }
}

#[inline]
pub(super) fn has_unevaluated(m: &Map<String, Value>) -> bool {
    m.contains_key("unevaluatedProperties") || m.contains_key("unevaluatedItems")
}

/// `site` (a reference site's keywords, or a union's own) combined with `d` (the definition, or
/// the union's one real member) so that the result accepts exactly what both accept together.
///
/// Annotations from the site win. `required` lists are joined, `allOf` lists concatenated. Any
/// other keyword only one side has is written beside the other's; one both have with the same
/// value is written once. Where the two sides hold different values for one family of keywords
/// that read each other (`properties` with `additionalProperties`, `items` with `prefixItems`,
/// ...), the definition's keywords of that family go into an `allOf` member of their own, where
/// they apply exactly as they did in the definition, and the site's stay in its place: so no
/// subschema of the output sits deeper than the levels the depth budget counted for it.
/// `unevaluated*` on either side reads everything around it, so then the whole definition goes
/// into `allOf` instead.
pub(super) fn combine(site: Map<String, Value>, d: Value) -> Value {
    let mut d = match d {
        Value::Bool(false) => return Value::Bool(false),
        Value::Bool(true) if site.is_empty() => return Value::Bool(true),
        Value::Bool(true) => return Value::Object(site),
        Value::Object(m) => m,
        other => return other,
    };
    if site.is_empty() {
        return Value::Object(d);
    }
    if has_unevaluated(&site) || has_unevaluated(&d) {
        let mut out = site;
        push_all_of(&mut out, Value::Object(d));
        return Value::Object(out);
    }
    let conflicting: Vec<String> = site
        .iter()
        .filter(|(k, _)| !is_annotation(k) && !matches!(k.as_str(), "required" | "allOf"))
        .map(|(k, _)| family(k))
        .filter(|f| {
            let site_keys = site.iter().filter(|(k, _)| family(k) == *f);
            let d_has_family = d.keys().any(|k| family(k) == *f);
            d_has_family && site_keys.clone().any(|(k, v)| d.get(k) != Some(v))
        })
        .map(str::to_owned)
        .collect();
    // The definition's keywords of a conflicting family move into the `allOf` member and the
    // site's take their place, not the other way round: the definition's were counted a level
    // down (behind a `$ref` hop, or in a union member), so in the member they sit no deeper than
    // the depth budget counted them, where the site's would sit a level deeper than counted.
    let mut rest = Map::new();
    if !conflicting.is_empty() {
        let moved: Vec<String> =
            d.keys().filter(|k| conflicting.iter().any(|f| f == family(k))).cloned().collect();
        for k in moved {
            if let Some(v) = d.remove(&k) {
                rest.insert(k, v);
            }
        }
    }
    for (k, v) in site {
        if is_annotation(&k) {
            d.insert(k, v);
            continue;
        }
        match (k.as_str(), d.get_mut(&k), v) {
            ("required", Some(Value::Array(names)), Value::Array(more)) => {
                for name in more {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            ("allOf", Some(Value::Array(members)), Value::Array(more)) => members.extend(more),
            (_, Some(existing), v) if *existing == v => {}
            (_, _, v) => {
                d.insert(k, v);
            }
        }
    }
    if !rest.is_empty() {
        push_all_of(&mut d, Value::Object(rest));
    }
    Value::Object(d)
}

pub(super) fn push_all_of(m: &mut Map<String, Value>, member: Value) {
    match m.get_mut("allOf") {
        Some(Value::Array(members)) => members.push(member),
        _ => {
            m.insert("allOf".to_owned(), Value::Array(vec![member]));
        }
    }
}
