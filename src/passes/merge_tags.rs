//! [`MergeTags`]: an internally tagged newtype variant whose content judges unknown keys gets
//! its tag among the content's `properties`.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Merges the tag of an internally tagged newtype variant into the content's `properties`, where
/// the content judges keys it does not declare; refuses what it cannot merge exactly.
///
/// For `#[serde(tag = "t")] enum Tagged { V(Extra) }` schemars writes the variant as the tag
/// beside a reference to the content: `{"$ref": "#/$defs/Extra", "properties": {"t": {"const":
/// "V", ..}}, "required": ["t"], "type": "object"}`. serde takes the tag out before it reads
/// `Extra`, but in JSON Schema every keyword of `Extra` applies to the whole object, tag
/// included. Where `Extra` judges undeclared keys (`struct Extra { id: u8, #[serde(flatten)]
/// rest: BTreeMap<String, u8> }` gives `additionalProperties: {"type": "integer", ..}`), the tag
/// `"V"` fails that judgement and serde's own output `{"id": 1, "t": "V"}` is refused.
/// (schemars itself inlines the content when it is closed, `additionalProperties: false`, but not
/// when it is a map.)
///
/// This pass replaces such a variant by a copy of the content with the tag among its
/// `properties` and `required`: keys other than the declared ones (tag included) are judged as
/// serde judges them. It refuses, with [`SchemaGenerationError::Unrepresentable`], what it
/// cannot merge exactly: a content with `propertyNames`, `unevaluatedProperties`, a property
/// count, a `patternProperties` pattern it cannot rule out for the tag, a field of the tag's
/// name, or a part (`allOf`, `anyOf`, `oneOf`, `$ref`) that judges undeclared keys. A content
/// that judges no undeclared key is left behind its `$ref`.
///
/// Runs only on schemas generated from a Rust type ([`PassContext::from_rust`]): elsewhere the
/// shape means what JSON Schema says, not what serde reads.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({
///     "oneOf": [{"$ref": "#/$defs/Extra", "type": "object", "required": ["t"],
///                "properties": {"t": {"type": "string", "const": "V"}}}],
///     "$defs": {"Extra": {"type": "object", "properties": {"id": {"type": "integer"}},
///                         "additionalProperties": {"type": "integer"}, "required": ["id"]}}
/// });
/// let mut cx = PassContext::new(Some("Tagged"));
/// cx.from_rust = true;
/// toolschema::passes::MergeTags.run(&mut s, &mut cx).unwrap();
/// assert_eq!(s["oneOf"][0], json!({
///     "type": "object", "required": ["id", "t"], "additionalProperties": {"type": "integer"},
///     "properties": {"t": {"type": "string", "const": "V"}, "id": {"type": "integer"}}
/// }));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct MergeTags;

/// At most this many variants are merged in one schema: each copies its content, and a copy may
/// hold more variants to merge. The copies together may also hold no more JSON values than the
/// schema itself plus 65,536, counted before each copy is made.
pub const MAX_MERGES: usize = 1024;

/// Follows at most this many `$ref` hops when asking whether a content judges undeclared keys.
const MAX_HOPS: usize = 32;

/// The pattern schemars writes for a map with unsigned (signed) integer keys: they match only
/// keys made of digits (and a leading `-`).
const DIGIT_PATTERNS: [&str; 2] = [r"^\d+$", r"^-?\d+$"];

/// Keywords that judge keys an object schema does not declare in `properties`.
const JUDGES_UNDECLARED: &[&str] = &[
    "additionalProperties",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "maxProperties",
    "minProperties",
];

impl Pass for MergeTags {
    fn name(&self) -> &'static str {
        "merge-tags"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        // FindTags, in the pipeline's first walk, found none (taken: a context serves one schema).
        if !cx.from_rust || cx.tag_sites.take() == Some(false) {
            return Ok(());
        }
        // A look without copying first: nearly every variant judges no undeclared key.
        let mut needed = false;
        let walked = crate::walk::visit_objects(schema, cx.max_depth, &mut |_, node| {
            needed = needed || (is_tag_site(node) && !matches!(plan(node, schema), Plan::Leave));
        });
        if let Err(pointer) = walked {
            return Err(cx.too_deep(pointer));
        }
        if !needed {
            return Ok(());
        }
        // References resolve against the schema as it was (CheckNesting has bounded every value,
        // so the copy cannot exhaust the stack); each merged copy is visited after it is written,
        // so variants inside it are merged too.
        let before = schema.clone();
        let (mut merges, mut copied) = (0usize, 0usize);
        // The copies together may hold as many values as the schema itself, and 64 Ki more.
        let copy_budget = count_values(std::iter::once(&before), usize::MAX).saturating_add(1 << 16);
        let (max_depth, type_name) = (cx.max_depth, cx.type_name);
        let declaration_order = cx.declaration_order;
        let field = |pointer: &str| type_name.and_then(|t| crate::pointer::field_path(Some(t), pointer));
        let result = crate::walk::visit_objects_mut(
            schema,
            max_depth,
            &mut |at: &Location<'_>, node: &mut Map<String, Value>| {
                if !is_tag_site(node) {
                    return Ok(());
                }
                match plan(node, &before) {
                    Plan::Leave => Ok(()),
                    Plan::Refuse(reason) => {
                        let pointer = at.pointer().as_str().to_owned();
                        Err(SchemaGenerationError::Unrepresentable {
                            field: field(&pointer),
                            pointer,
                            reason,
                        })
                    }
                    Plan::Merge(target) => {
                        merges += 1;
                        copied = copied.saturating_add(count_values(target.values(), copy_budget));
                        if merges > MAX_MERGES || copied > copy_budget {
                            let pointer = at.pointer().as_str().to_owned();
                            let reason = format!(
                                "giving each internally tagged variant its tag would copy more than \
                                 {MAX_MERGES} contents or more values than the schema holds; split the type"
                            );
                            return Err(SchemaGenerationError::Unrepresentable {
                                field: field(&pointer),
                                pointer,
                                reason,
                            });
                        }
                        let Some(Value::Object(tags)) = super::member(node, "properties") else {
                            return Ok(());
                        };
                        let mut value = Value::Object(merge(node, tags, target));
                        let mut sort_cx = PassContext::new(None);
                        sort_cx.declaration_order = declaration_order;
                        super::SortKeys.run(&mut value, &mut sort_cx)?;
                        if let Value::Object(map) = value {
                            *node = map;
                        }
                        Ok(())
                    }
                }
            },
            &|pointer| SchemaGenerationError::TooDeep { field: field(&pointer), pointer, max_depth },
        );
        crate::walk::drop_any_depth(before);
        result
    }
}

/// The JSON values in and under `start` (without recursion), counted up to just past `limit`.
fn count_values<'v>(start: impl Iterator<Item = &'v Value>, limit: usize) -> usize {
    let mut stack: Vec<&Value> = start.collect();
    let mut count = 0usize;
    while let Some(value) = stack.pop() {
        count += 1;
        if count > limit {
            break;
        }
        match value {
            Value::Object(map) => stack.extend(map.values()),
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    count
}

/// What to do with a tag site.
enum Plan<'r> {
    /// Right as it is (its content judges no undeclared key), or not ours to judge.
    Leave,
    /// Merge the tags into a copy of this content (checked: the merge is exact).
    Merge(&'r Map<String, Value>),
    /// Why no exact merge exists.
    Refuse(String),
}

/// Whether `node` is schemars' spelling of an internally tagged newtype variant: a `$ref` beside
/// `properties` that are all tags (`const`), with nothing else but `type`, `required`,
/// annotations and definitions (which judge no value: a root with definitions nothing names is
/// the same site once they are pruned, and gets the same verdict).
pub(super) fn is_tag_site(node: &Map<String, Value>) -> bool {
    let (Some(Value::String(_)), Some(Value::Object(props))) =
        (super::member(node, "$ref"), super::member(node, "properties"))
    else {
        return false;
    };
    !props.is_empty()
        && props.values().all(|p| p.get("const").is_some_and(Value::is_string))
        && node.keys().all(|k| {
            matches!(k.as_str(), "$ref" | "properties" | "type" | "required" | "$defs" | "definitions")
                || crate::walk::is_meta_data(k)
        })
}

fn plan<'r>(site: &Map<String, Value>, root: &'r Value) -> Plan<'r> {
    let Some(Value::String(reference)) = super::member(site, "$ref") else { return Plan::Leave };
    let Some(Value::Object(target)) = crate::refs::resolve(root, reference) else { return Plan::Leave };
    let Some(Value::Object(tags)) = super::member(site, "properties") else { return Plan::Leave };
    let judges_here = JUDGES_UNDECLARED.iter().any(|k| judges(target.get(*k)));
    if !judges_here {
        return if parts_judge(target, root, MAX_HOPS) {
            Plan::Refuse(format!(
                "the content of this internally tagged variant (`{reference}`) has a part that judges \
                 keys it does not declare, which would judge the tag too, while serde reads the tag \
                 apart; give the variant's content a plain struct"
            ))
        } else {
            Plan::Leave
        };
    }
    match mergeable(tags, target) {
        Ok(()) => Plan::Merge(target),
        Err(why) => Plan::Refuse(format!(
            "serde reads the tag of this internally tagged variant apart from its content \
             (`{reference}`), which judges keys it does not declare; {why}"
        )),
    }
}

/// Whether a keyword's value judges something: present, and neither the schema `true` nor an
/// empty object (the schema `{}`, or no patterns).
fn judges(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Bool(true)) => false,
        Some(Value::Object(map)) => !map.is_empty(),
        Some(_) => true,
    }
}

/// Whether a part of `schema` (an `allOf`/`anyOf`/`oneOf` member, or a `$ref` target, at any
/// depth through them) judges undeclared keys.
fn parts_judge(schema: &Map<String, Value>, root: &Value, hops: usize) -> bool {
    if hops == 0 {
        return true;
    }
    let members = ["allOf", "anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_object);
    let target = schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| crate::refs::resolve(root, r))
        .and_then(Value::as_object);
    members.chain(target).any(|part| {
        JUDGES_UNDECLARED.iter().any(|k| judges(part.get(*k))) || parts_judge(part, root, hops - 1)
    })
}

/// Whether the tags merge exactly into `target`'s `properties`, and if not, why.
fn mergeable(tags: &Map<String, Value>, target: &Map<String, Value>) -> Result<(), String> {
    for (k, v) in target {
        match k.as_str() {
            "type" | "properties" | "required" | "additionalProperties" => {}
            "patternProperties" => {
                let Some(patterns) = v.as_object() else {
                    return Err("its `patternProperties` is malformed".into());
                };
                for pattern in patterns.keys() {
                    let digits_only = DIGIT_PATTERNS.contains(&pattern.as_str());
                    if !digits_only {
                        return Err(format!(
                            "its key pattern `{pattern}` may match the tag; give the map's keys another type"
                        ));
                    }
                    if let Some(tag) =
                        tags.keys().find(|t| t.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
                    {
                        return Err(format!(
                            "its key pattern `{pattern}` matches the tag `{tag}`; rename the tag"
                        ));
                    }
                }
            }
            other if crate::walk::is_meta_data(other) => {}
            other => {
                return Err(format!(
                    "its `{other}` cannot be merged with the tag exactly; give the variant's content a plain struct"
                ));
            }
        }
    }
    match target.get("properties") {
        None => {}
        Some(Value::Object(own)) => {
            if let Some(tag) = tags.keys().find(|t| own.contains_key(t.as_str())) {
                return Err(format!("it has a field named `{tag}`, the tag's name; rename one of them"));
            }
        }
        Some(_) => return Err("its `properties` is malformed".into()),
    }
    if target.get("type").is_some_and(|t| !crate::dialect::support::names_type(t, "object")) {
        return Err("its type is not an object".into());
    }
    if target.get("required").is_some_and(|r| !r.is_array()) {
        return Err("its `required` is malformed".into());
    }
    Ok(())
}

/// The content (checked by [`mergeable`]) with the tags first in its `properties`, the site's
/// `required` joined to its own, its `type` narrowed to the site's, and the site's annotations.
fn merge(
    site: &Map<String, Value>,
    tags: &Map<String, Value>,
    target: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = target.clone();
    let mut properties = tags.clone();
    if let Some(Value::Object(own)) = out.remove("properties") {
        properties.extend(own);
    }
    out.insert("properties".into(), Value::Object(properties));
    if let Some(site_type) = site.get("type") {
        let narrowed = match out.get("type") {
            None => site_type.clone(),
            Some(t) => {
                let site_types = crate::dialect::support::type_names(site_type);
                let both: Vec<Value> = crate::dialect::support::type_names(t)
                    .intersection(&site_types)
                    .map(|t| Value::String((*t).to_owned()))
                    .collect();
                match <[Value; 1]>::try_from(both) {
                    Ok([one]) => one,
                    Err(many) => Value::Array(many),
                }
            }
        };
        out.insert("type".into(), narrowed);
    }
    let mut required: Vec<Value> = Vec::new();
    for list in [out.get("required"), site.get("required")].into_iter().flatten() {
        required.extend(list.as_array().into_iter().flatten().cloned());
    }
    if !required.is_empty() {
        let order = |a: &Value, b: &Value| {
            crate::canonical::cmp_utf16(a.as_str().unwrap_or(""), b.as_str().unwrap_or(""))
        };
        required.sort_by(order);
        required.dedup();
        out.insert("required".into(), Value::Array(required));
    }
    // The variant's own annotations win over the content's, and its definitions stay where the
    // references in the document resolve them.
    for (k, v) in site {
        if crate::walk::is_meta_data(k) || matches!(k.as_str(), "$defs" | "definitions") {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(mut s: Value) -> Result<Value, SchemaGenerationError> {
        let mut cx = PassContext::new(Some("T"));
        cx.from_rust = true;
        MergeTags.run(&mut s, &mut cx).map(|()| s)
    }

    fn site(def: &str) -> Value {
        json!({"$ref": format!("#/$defs/{def}"), "type": "object", "required": ["t"],
               "properties": {"t": {"type": "string", "const": "V"}}})
    }

    #[test]
    fn a_content_that_judges_no_undeclared_key_stays_behind_its_ref() {
        let s = json!({"oneOf": [site("P")], "$defs": {"P": {"type": "object", "properties": {"a": {"type": "string"}}}}});
        assert_eq!(run(s.clone()).unwrap(), s);
        // Not from a Rust type: untouched whatever it holds.
        let s = json!({"oneOf": [site("M")], "$defs": {"M": {"type": "object", "additionalProperties": {"type": "integer"}}}});
        let mut copy = s.clone();
        MergeTags.run(&mut copy, &mut PassContext::new(None)).unwrap();
        assert_eq!(copy, s);
    }

    #[test]
    fn a_map_content_gets_the_tag_among_its_properties() {
        let s = json!({"oneOf": [site("M")], "$defs": {"M": {"type": "object", "additionalProperties": {"type": "integer"}}}});
        let out = run(s).unwrap();
        assert_eq!(
            out["oneOf"][0],
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "required": ["t"],
                   "properties": {"t": {"type": "string", "const": "V"}}})
        );
    }

    #[test]
    fn a_site_beside_definitions_is_a_site_and_keeps_them() {
        // At the root, with the definitions the merged copy still refers to.
        let mut s = site("M");
        s["$defs"] = json!({"M": {"type": "object", "additionalProperties": {"$ref": "#/$defs/N"}},
                            "N": {"type": "integer"}});
        let out = run(s).unwrap();
        assert_eq!(out["properties"]["t"], json!({"type": "string", "const": "V"}));
        assert_eq!(out["additionalProperties"], json!({"$ref": "#/$defs/N"}));
        assert_eq!(out["$defs"]["N"], json!({"type": "integer"}));
        // A root that is its own content: refused whether or not unused definitions stand beside it.
        let mut own = site("M");
        own["$ref"] = json!("#");
        let with_defs = {
            let mut s = own.clone();
            s["$defs"] = json!({"U": {"type": "string"}});
            s
        };
        for s in [own, with_defs] {
            let err = run(s.clone()).unwrap_err();
            assert_eq!(err.pointer(), Some(""), "{s}");
        }
    }

    #[test]
    fn what_cannot_be_merged_exactly_is_refused_with_its_pointer() {
        let cases = [
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "properties": {"t": {"type": "string"}}}),
            json!({"type": "object", "patternProperties": {"^t": {"type": "integer"}}}),
            json!({"type": "object", "propertyNames": {"maxLength": 3}}),
            json!({"type": "object", "allOf": [{"additionalProperties": {"type": "integer"}}]}),
            json!({"type": "object", "additionalProperties": {"type": "integer"}, "oneOf": [{"required": ["a"]}]}),
        ];
        for def in cases {
            let s = json!({"oneOf": [site("M")], "$defs": {"M": def}});
            let err = run(s).unwrap_err();
            assert!(matches!(err, SchemaGenerationError::Unrepresentable { .. }), "{def}: {err}");
            assert_eq!(err.pointer(), Some("/oneOf/0"), "{def}");
            assert_eq!(err.field(), Some("T"), "{def}");
        }
    }

    #[test]
    fn variants_inside_a_merged_copy_are_merged_too() {
        // `A` is a map content with a field holding another variant, over the map `B`.
        let s = json!({
            "oneOf": [site("A")],
            "$defs": {
                "A": {"type": "object", "additionalProperties": {"type": "string"},
                      "properties": {"inner": {"oneOf": [site("B")]}}},
                "B": {"type": "object", "additionalProperties": {"type": "integer"}}
            }
        });
        let out = run(s).unwrap();
        let tag = json!({"t": {"type": "string", "const": "V"}});
        assert_eq!(out["oneOf"][0]["properties"]["t"], tag["t"]);
        assert_eq!(out["oneOf"][0]["properties"]["inner"]["oneOf"][0]["properties"], tag);
        assert_eq!(out["$defs"]["A"]["properties"]["inner"]["oneOf"][0]["properties"], tag);
        assert_eq!(out["$defs"]["A"]["properties"]["inner"]["oneOf"][0].get("$ref"), None);
    }

    #[test]
    fn a_doubling_graph_of_variants_is_refused_before_its_copies_grow() {
        // Each content holds two variants over the next: 2^30 copies if nothing stopped it.
        let mut defs = serde_json::Map::new();
        for i in 0..30 {
            let next = site(&format!("D{}", i + 1));
            defs.insert(
                format!("D{i}"),
                json!({"type": "object", "additionalProperties": {"type": "string"},
                       "properties": {"l": {"oneOf": [next.clone()]}, "r": {"oneOf": [next]}}}),
            );
        }
        defs.insert("D30".into(), json!({"type": "object", "additionalProperties": {"type": "string"}}));
        let s = json!({"oneOf": [site("D0")], "$defs": defs});
        let err = run(s).unwrap_err();
        assert!(matches!(err, SchemaGenerationError::Unrepresentable { .. }), "{err}");
        assert!(err.to_string().contains("1024"), "{err}");
    }

    #[test]
    fn a_cycle_of_variants_stops_at_the_budget() {
        // `A`'s copy holds a variant over `A`: each merge writes another one, one level deeper.
        let s = json!({
            "oneOf": [site("A")],
            "$defs": {"A": {"type": "object", "additionalProperties": {"type": "string"},
                            "properties": {"inner": {"oneOf": [site("A")]}}}}
        });
        let err = run(s).unwrap_err();
        assert!(matches!(err, SchemaGenerationError::TooDeep { .. }), "{err}");
    }
}
