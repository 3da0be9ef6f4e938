//! Past a provider's count limits, the last declared properties of the root object folded into
//! one property holding their JSON text (the rewrite `restore/rewrite/fold.rs`), as few as
//! bring every count within its limit.
//!
//! A profile that counts (Anthropic's optional and union properties, OpenAI's properties and
//! enum values) gives its counts of an output schema and their limits; where its output is past
//! them and nothing else is wrong, [`past_limits`] chooses the properties, rewrites the
//! original, adapts it again and adds the fold to the plan. Which properties, deterministically:
//! those of the root that add to a count past its limit, the last declared first (the map's
//! order: declaration order where the map keeps it, else key order), optional ones before
//! required ones; then any other, the last declared first. How many: the fewest each
//! property's own part of the counts allows (where they add up, the fewest there are; a
//! definition only folded properties named may have left room for fewer), confirmed by adapting
//! the folded schema, with more folded (doubling, then halving back) where that falls short (a
//! definition a folded property shares with a kept one still counts). The work is a few
//! adaptations of the schema: the first, the folded one, and one more for each doubling.
//!
//! What is not folded, and stays refused: a root that is not an object with properties, or
//! that says more about its keys than `properties`, `required` and `additionalProperties:
//! false` (a map beside the properties, `patternProperties`, a combinator); a schema with a
//! reference that is not to a definition (`#`, `#/properties/...`), which the folded
//! properties' check could not resolve; and exact mode, which refuses every encoding.

use super::Adapted;
use crate::error::CapabilityError;
use crate::restore::rewrite::{TextPlan, fold};
use serde_json::{Map, Value, json};

/// A profile's counts of an output schema, with their limits.
pub(crate) struct Counts<'a> {
    /// Each count's limit, in the order [`count`](Self::count) gives them.
    pub(crate) max: &'a [usize],
    /// The counts of an output schema.
    pub(crate) count: &'a dyn Fn(&Value) -> Vec<usize>,
    /// Whether [`count`](Self::count) follows references (then a property's part is counted
    /// beside the output's definitions, where its references find them).
    pub(crate) through_refs: bool,
}

/// At least as many properties as the output of `schema` can have: its own, two for each map
/// (its entries' `key` and `value`), one for each tuple member, and a wrapped root's `value`.
pub(crate) fn property_bound(schema: &Value, max_depth: usize) -> usize {
    let mut n = 1;
    let _ = crate::walk::visit_objects(schema, max_depth, &mut |_, m| {
        n += m.get("properties").and_then(Value::as_object).map_or(0, Map::len);
        n += 2 * ["additionalProperties", "patternProperties", "items"]
            .iter()
            .filter(|k| m.contains_key(**k))
            .count();
        for tuple in ["prefixItems", "items"] {
            n += m.get(tuple).and_then(Value::as_array).map_or(0, Vec::len);
        }
    });
    n
}

/// The root keywords a fold leaves meaning what they meant.
const ROOT_KEYWORDS: &[&str] = &[
    "$comment",
    "$defs",
    "$id",
    "$schema",
    "additionalProperties",
    "definitions",
    "description",
    "properties",
    "required",
    "title",
    "type",
];

/// The schema `schema` (normalised, the original) with the fewest of its root properties folded
/// that brings the counts of its output within their limits: `first` is its output with the
/// counts unchecked, `adapt` adapts a schema and checks them (its errors are counts only where
/// `is_count` says so of each); `max_depth` bounds the folded properties' restore plan. `None` where no fold comes within them, or the root cannot be
/// folded (see the [module docs](self)).
pub(crate) fn past_limits(
    schema: &Value,
    first: Adapted,
    counts: &Counts<'_>,
    adapt: &dyn Fn(Value) -> Result<Adapted, Vec<CapabilityError>>,
    is_count: &dyn Fn(&CapabilityError) -> bool,
    max_depth: usize,
) -> Option<Adapted> {
    let root = foldable(schema)?;
    let total = (counts.count)(&first.schema);
    let mut mini = Mini::new(&first.schema, counts);
    let order = candidates(root, &first, &total, &mut mini, counts);
    let n = order.len();
    let names: Vec<String> = order.iter().map(|(name, _)| name.clone()).collect();
    // The estimate, from each property's own part, is the fewest where the counts add up (no
    // definition shared with a folded property).
    let estimated = estimate(&total, root, &order, &mut mini, counts);
    // The first output is read no more: freed before the tries adapt the folded schema, so that
    // at most two outputs are held at once.
    drop(mini);
    drop(order);
    drop(first);
    let attempt = |k: usize| -> Result<Adapted, bool> {
        let (folded, fold) = fold::write(root, &names[..k], schema).ok_or(false)?;
        match adapt(Value::Object(folded)) {
            Ok(a) => Ok(Adapted { plan: a.plan.folding(fold).ok_or(false)?, schema: a.schema }),
            // Still past a count: more to fold; anything else: no fold helps.
            Err(errors) => Err(errors.iter().all(is_count)),
        }
    };
    // The estimate is taken where it is within the limits, else more are folded (doubling), then
    // halving back between the last two tries.
    let mut k = n.min(estimated.max(1));
    let mut failed = None;
    loop {
        match attempt(k) {
            Ok(done) => {
                let done = match failed {
                    Some(failed) => search(failed, k, done, &attempt),
                    None => done,
                };
                // The folded properties' own restore, made once for the fold taken.
                let plan =
                    done.plan.with_fold_plan(TextPlan::new(super::provider::integer_plan_in, max_depth));
                return Some(Adapted { plan, schema: done.schema });
            }
            Err(true) if k < n => {
                failed = Some(k);
                k = (k * 2).min(n);
            }
            Err(_) => return None,
        }
    }
}

/// The fewest folded in `(failed, passed]`, given the adapted schema folding `passed`.
fn search(
    mut failed: usize,
    mut passed: usize,
    mut done: Adapted,
    attempt: &dyn Fn(usize) -> Result<Adapted, bool>,
) -> Adapted {
    while passed - failed > 1 {
        let mid = failed + (passed - failed) / 2;
        match attempt(mid) {
            Ok(a) => {
                done = a;
                passed = mid;
            }
            Err(_) => failed = mid,
        }
    }
    done
}

/// The root object's keywords, where a fold of its properties keeps their meaning.
fn foldable(schema: &Value) -> Option<&Map<String, Value>> {
    let root = schema.as_object()?;
    let props = root.get("properties")?.as_object()?;
    if props.is_empty()
        || root.keys().any(|k| !ROOT_KEYWORDS.contains(&k.as_str()))
        || root.get("type").is_some_and(|t| t != "object")
        || root.get("additionalProperties").is_some_and(|a| a != &Value::Bool(false))
        || !refs_to_definitions(schema)
    {
        return None;
    }
    Some(root)
}

/// Whether every `$ref` in `schema` names a definition (`#/$defs/...`, `#/definitions/...`),
/// which the folded properties' check resolves as the original does.
fn refs_to_definitions(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(r) = m.get("$ref")
                    && !r
                        .as_str()
                        .is_some_and(|r| r.starts_with("#/$defs/") || r.starts_with("#/definitions/"))
                {
                    return false;
                }
                stack.extend(m.values());
            }
            Value::Array(xs) => stack.extend(xs),
            _ => {}
        }
    }
    true
}

/// An object with one property at a time, closed (beside the output's definitions where the
/// count follows references): what a property adds to the counts is the counts of
/// this with it less those without it.
struct Mini {
    schema: Value,
    base: Vec<usize>,
}

impl Mini {
    fn new(out: &Value, counts: &Counts<'_>) -> Mini {
        let mut m = Map::new();
        m.insert("type".into(), "object".into());
        m.insert("properties".into(), Value::Object(Map::new()));
        m.insert("additionalProperties".into(), Value::Bool(false));
        for defs in ["$defs", "definitions"].into_iter().filter(|_| counts.through_refs) {
            if let Some(d) = out.get(defs) {
                m.insert(defs.into(), d.clone());
            }
        }
        let schema = Value::Object(m);
        let base = (counts.count)(&schema);
        Mini { schema, base }
    }

    /// What the property `key` (`sub`, required or not) adds to the counts.
    fn part(&mut self, key: &str, sub: &Value, required: bool, counts: &Counts<'_>) -> Vec<usize> {
        self.schema["properties"][key] = sub.clone();
        if required {
            self.schema["required"] = json!([key]);
        }
        let with = (counts.count)(&self.schema);
        if let Some(m) = self.schema.as_object_mut() {
            m.remove("required");
            if let Some(Value::Object(p)) = m.get_mut("properties") {
                p.clear();
            }
        }
        with.iter().zip(&self.base).map(|(a, b)| a.saturating_sub(*b)).collect()
    }
}

/// The output's own part of each count for each root property of the original, by the
/// original's names (a key the provider renamed is found under its sent name).
fn parts(
    root: &Map<String, Value>,
    first: &Adapted,
    mini: &mut Mini,
    counts: &Counts<'_>,
) -> Vec<(String, Vec<usize>)> {
    let out = &first.schema;
    let out_required = out.as_object().map(required).unwrap_or_default();
    let sent = |name: &str| -> String {
        let pointer = format!("/properties/{}", crate::pointer::escape_token(name));
        first
            .plan
            .renamed_keys()
            .iter()
            .find(|r| r.pointer == pointer)
            .map_or_else(|| name.to_owned(), |r| r.sent.clone())
    };
    let names = root.get("properties").and_then(Value::as_object).into_iter().flat_map(Map::keys);
    names
        .map(|name| {
            let key = sent(name);
            let part = match out.get("properties").and_then(|p| p.get(&key)) {
                Some(sub) => mini.part(&key, sub, out_required.contains(&key.as_str()), counts),
                None => vec![0; counts.max.len()],
            };
            (name.clone(), part)
        })
        .collect()
}

/// The root's properties in the order they are folded (see the [module docs](self)), each
/// with its own part of the counts.
fn candidates(
    root: &Map<String, Value>,
    first: &Adapted,
    total: &[usize],
    mini: &mut Mini,
    counts: &Counts<'_>,
) -> Vec<(String, Vec<usize>)> {
    let past: Vec<bool> = total.iter().zip(counts.max).map(|(t, m)| t > m).collect();
    let required = required(root);
    let parts = parts(root, first, mini, counts);
    let adds = |part: &[usize]| part.iter().zip(&past).any(|(n, p)| *p && *n > 0);
    let mut order = Vec::with_capacity(parts.len());
    for (pass_required, pass_adds) in [(false, true), (true, true), (false, false), (true, false)] {
        for (name, part) in parts.iter().rev() {
            if required.contains(&name.as_str()) == pass_required && adds(part) == pass_adds {
                order.push((name.clone(), part.clone()));
            }
        }
    }
    order
}

fn required(object: &Map<String, Value>) -> Vec<&str> {
    object.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect()
}

/// The fewest of `order` whose folding the properties' own parts say brings every count within
/// its limit (all of them where none does).
fn estimate(
    total: &[usize],
    root: &Map<String, Value>,
    order: &[(String, Vec<usize>)],
    mini: &mut Mini,
    counts: &Counts<'_>,
) -> usize {
    let string = json!({"type": "string"});
    let cost_optional = mini.part(fold::KEY, &string, false, counts);
    let cost_required = mini.part(fold::KEY, &string, true, counts);
    let required = required(root);
    let mut left = total.to_vec();
    let mut any_required = false;
    for (k, (name, part)) in order.iter().enumerate() {
        for (l, p) in left.iter_mut().zip(part) {
            *l = l.saturating_sub(*p);
        }
        any_required |= required.contains(&name.as_str());
        let cost = if any_required { &cost_required } else { &cost_optional };
        if left.iter().zip(cost).zip(counts.max).all(|((l, c), m)| l.saturating_add(*c) <= *m) {
            return k + 1;
        }
    }
    order.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_root_that_says_more_about_its_keys_or_refers_elsewhere_is_not_folded() {
        let ok = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}});
        assert!(foldable(&ok).is_some());
        for bad in [
            json!({"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}),
            json!({"type": "object", "properties": {"a": {}}, "patternProperties": {"x": {}}}),
            json!({"type": "object", "properties": {"a": {"$ref": "#"}}}),
            json!({"type": "object", "properties": {}}),
            json!({"type": "array", "properties": {"a": {}}}),
        ] {
            assert!(foldable(&bad).is_none(), "{bad}");
        }
    }
}
