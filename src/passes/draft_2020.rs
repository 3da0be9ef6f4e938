//! [`Draft2020`]: a schema written in draft-04, -06, -07 or 2019-09, rewritten as draft 2020-12
//! says the same thing.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};

/// Rewrites the keywords of earlier drafts as draft 2020-12 spells them, so that everything after
/// it (the passes, the dialects, and whoever reads the output) reads one dialect, and refuses a
/// schema that declares a dialect it does not know.
///
/// The root's `$schema` says how the schema is read: draft-03 and draft-04 (read as draft-04),
/// draft-06, draft-07, 2019-09 and 2020-12, each `http://` or `https://`, with or without the
/// trailing `#`; no `$schema` is read as 2020-12. Any other `$schema` (another URI, or a value
/// that is not a string) is refused, naming it: reading a schema by rules it does not follow
/// would be a guess.
///
/// At every schema object:
/// - **`definitions`** is merged into `$defs`. A name both hold with different schemas keeps its
///   `$defs` entry, and the `definitions` entry takes the first free name of `Name_1`, `Name_2`,
///   ... (the same schema under both is one entry).
/// - **`dependencies`** is split: a list of property names goes to `dependentRequired`, a schema
///   to `dependentSchemas` (beside an existing entry of the same name: the lists joined, the
///   schemas under `allOf`).
/// - **A tuple**, `items: [A, B]` (draft-04 to 2019-09), becomes `prefixItems: [A, B]`, and
///   `additionalItems` becomes `items`; `additionalItems` beside no tuple never applied, and goes.
/// - **Boolean exclusive bounds** (draft-04): `maximum: 5, exclusiveMaximum: true` becomes
///   `exclusiveMaximum: 5`; `exclusiveMaximum: false`, or `true` with no `maximum`, said nothing
///   and goes. The same for `exclusiveMinimum`.
/// - **`$recursiveRef: "#"`** (2019-09) becomes `$ref: "#"`, and `$recursiveAnchor` goes: in a
///   document with no nested `$id` there is one resource, and a recursive reference to `#` always
///   lands on its root. Any other recursive reference, or one under a nested `$id`, is refused.
/// - **`id`** (draft-03/04 only; a property named `id` is no keyword, and stays) becomes `$id`.
/// - **`$ref` beside other keywords** (draft-07 and earlier): the reference alone applied, so the
///   keywords beside it go, except annotations and definition maps.
/// - **A nested `$schema`** goes; so does the root's when it names an earlier draft (the output
///   is 2020-12, the dialect a schema without `$schema` is read in).
///
/// The forms that mean nothing in 2020-12 (a tuple under `items`, `dependencies`, a boolean bound,
/// `definitions`, `additionalItems`, `$recursiveRef`) are rewritten whatever the schema declares:
/// a schema without `$schema` that uses them was written in an earlier draft.
///
/// Every `$ref` that points through a rewritten place is pointed at where it now is
/// (`#/definitions/A/properties/b` becomes `#/$defs/A/properties/b`, `#/properties/t/items/0`
/// becomes `#/properties/t/prefixItems/0`), wherever the `definitions` or the tuple sits.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({
///     "$schema": "http://json-schema.org/draft-07/schema#",
///     "definitions": {"P": {"type": "string"}},
///     "properties": {"a": {"$ref": "#/definitions/P"}},
///     "dependencies": {"a": ["b"]}
/// });
/// toolschema::passes::Draft2020.run(&mut s, &mut PassContext::new(None)).unwrap();
/// assert_eq!(s, json!({
///     "$defs": {"P": {"type": "string"}},
///     "properties": {"a": {"$ref": "#/$defs/P"}},
///     "dependentRequired": {"a": ["b"]}
/// }));
///
/// let mut unknown = json!({"$schema": "https://example.com/my-dialect"});
/// let err = toolschema::passes::Draft2020.run(&mut unknown, &mut PassContext::new(None)).unwrap_err();
/// assert_eq!(err.pointer(), Some("/$schema"));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Draft2020;

impl Pass for Draft2020 {
    fn name(&self) -> &'static str {
        "draft-2020-12"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        translate(schema, cx.max_depth, cx.type_name)
    }
}

/// The dialect a schema's root `$schema` declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declared {
    /// draft-03 or draft-04: `id`, boolean exclusive bounds, `$ref` alone.
    Draft04,
    /// draft-06 or draft-07: `$ref` alone.
    Draft07,
    /// 2019-09.
    Draft2019,
    /// 2020-12, or no `$schema`.
    Draft2020,
}

impl Declared {
    /// Reads the root's `$schema`; an error for one that names no dialect this pass knows.
    fn of(root: &Map<String, Value>) -> Result<Declared, SchemaGenerationError> {
        let Some(declared) = super::member(root, "$schema") else { return Ok(Declared::Draft2020) };
        let unknown = |what: String| SchemaGenerationError::Malformed {
            pointer: "/$schema".into(),
            message: format!(
                "`$schema` declares {what}, a JSON Schema dialect this crate does not read; write the \
                 schema in draft 2020-12 (`\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"`, \
                 or no `$schema`), or declare the draft it is written in if that is draft-04, \
                 draft-06, draft-07 or 2019-09"
            ),
        };
        let Value::String(uri) = declared else {
            return Err(unknown(format!("{} (not a URI)", super::WellFormed::kind_of(declared))));
        };
        let rest = uri.strip_prefix("http://").or_else(|| uri.strip_prefix("https://")).unwrap_or("");
        let rest = rest.strip_suffix('#').unwrap_or(rest);
        Ok(match rest {
            "json-schema.org/draft-03/schema" | "json-schema.org/draft-04/schema" => Declared::Draft04,
            "json-schema.org/draft-06/schema" | "json-schema.org/draft-07/schema" => Declared::Draft07,
            "json-schema.org/draft/2019-09/schema" => Declared::Draft2019,
            "json-schema.org/draft/2020-12/schema" => Declared::Draft2020,
            _ => return Err(unknown(format!("`{uri}`"))),
        })
    }
}

/// Rewrites `schema` as draft 2020-12 (see [`Draft2020`]) within the depth budget.
fn translate(
    schema: &mut Value,
    max_depth: usize,
    type_name: Option<&str>,
) -> Result<(), SchemaGenerationError> {
    let Value::Object(root) = schema else { return Ok(()) };
    let declared = Declared::of(root)?;
    let too_deep = |pointer: String| SchemaGenerationError::TooDeep {
        field: type_name.and_then(|t| crate::pointer::field_path(Some(t), &pointer)),
        pointer,
        max_depth,
    };
    // One read-only walk: whether anything is to be rewritten, and whether any place a reference
    // may point through moves.
    let (mut work, mut moves, mut refs, mut nested_id) = (false, false, false, false);
    crate::walk::visit_objects(schema, max_depth, &mut |at, node| {
        let plan = Plan::of(node, at.is_root(), declared);
        work |= plan.any();
        moves |= plan.moves();
        refs |= node.contains_key("$ref");
        nested_id |= !at.is_root() && node.get("$id").is_some_and(crate::inline::draft::changes_base);
    })
    .map_err(too_deep)?;
    if !work {
        return Ok(());
    }
    // Where each moved place went, by the pointer of the object that held it.
    let mut renames: HashMap<String, Vec<Rename>> = HashMap::new();
    if moves && refs {
        crate::walk::visit_all(schema, max_depth, &mut |pointer, node| {
            if let Value::Object(node) = node {
                let found = Plan::of(node, pointer.as_str().is_empty(), declared).renames(node);
                if !found.is_empty() {
                    renames.insert(pointer.as_str().to_owned(), found);
                }
            }
            true
        })
        .map_err(too_deep)?;
    }
    crate::walk::visit_objects_mut(
        schema,
        max_depth,
        &mut |at: &Location<'_>, node: &mut Map<String, Value>| {
            let plan = Plan::of(node, at.is_root(), declared);
            plan.apply(node, at, nested_id)?;
            if !renames.is_empty()
                && let Some(Value::String(reference)) = node.get_mut("$ref")
                && let Some(moved) = repoint(reference, &renames)
            {
                *reference = moved;
            }
            Ok(())
        },
        &too_deep,
    )
}

/// What one schema object needs, read from the object before any change.
#[derive(Debug, Clone, Copy, Default)]
#[allow(clippy::struct_excessive_bools, reason = "one flag per rewrite, each read once")]
struct Plan {
    /// Drop the keywords beside `$ref` (draft-07 and earlier).
    legacy_ref: bool,
    /// `id` to `$id`.
    id: bool,
    /// Remove `$schema` (nested, or an earlier draft's at the root).
    schema: bool,
    definitions: bool,
    dependencies: bool,
    /// `items: [..]` to `prefixItems`, `additionalItems` to `items`.
    tuple: bool,
    /// `additionalItems` beside no tuple: removed.
    stray_additional: bool,
    exclusive: bool,
    recursive: bool,
}

impl Plan {
    fn of(node: &Map<String, Value>, root: bool, declared: Declared) -> Plan {
        let has = |k: &str| super::has_member(node, k);
        let tuple = matches!(super::member(node, "items"), Some(Value::Array(_))) && !has("prefixItems");
        Plan {
            legacy_ref: matches!(declared, Declared::Draft04 | Declared::Draft07)
                && has("$ref")
                && node.keys().any(|k| !crate::inline::draft::kept_beside_legacy_ref(k)),
            id: declared == Declared::Draft04 && matches!(super::member(node, "id"), Some(Value::String(_))),
            schema: has("$schema") && (!root || declared != Declared::Draft2020),
            definitions: matches!(super::member(node, "definitions"), Some(Value::Object(_))),
            dependencies: super::member(node, "dependencies").is_some_and(dependencies_well_formed),
            tuple,
            stray_additional: !tuple
                && has("additionalItems")
                && !matches!(super::member(node, "items"), Some(Value::Array(_))),
            exclusive: ["exclusiveMaximum", "exclusiveMinimum"]
                .iter()
                .any(|k| matches!(super::member(node, k), Some(Value::Bool(_)))),
            recursive: has("$recursiveRef") || has("$recursiveAnchor"),
        }
    }

    fn any(self) -> bool {
        self.legacy_ref
            || self.id
            || self.schema
            || self.definitions
            || self.dependencies
            || self.tuple
            || self.stray_additional
            || self.exclusive
            || self.recursive
    }

    /// Whether a place a reference may point at moves.
    fn moves(self) -> bool {
        self.definitions || self.dependencies || self.tuple
    }

    /// Where the moved places of `node` go (see [`Rename`]).
    fn renames(self, node: &Map<String, Value>) -> Vec<Rename> {
        let mut out = Vec::new();
        if self.tuple {
            out.push(Rename::keyword("items", &["prefixItems"]));
            out.push(Rename::keyword("additionalItems", &["items"]));
        }
        if self.definitions
            && let Some(Value::Object(definitions)) = super::member(node, "definitions")
        {
            out.push(Rename::keyword("definitions", &["$defs"]));
            let defs = match super::member(node, "$defs") {
                Some(Value::Object(defs)) => Some(defs),
                _ => None,
            };
            for (name, to) in definition_names(definitions, defs) {
                out.push(Rename { keyword: "definitions", name: Some(name), to: vec!["$defs".into(), to] });
            }
        }
        if self.dependencies
            && let Some(Value::Object(dependencies)) = super::member(node, "dependencies")
        {
            for (name, value) in dependencies {
                let to = if value.is_array() {
                    vec!["dependentRequired".into(), name.clone()]
                } else if matches!(super::member(node, "dependentSchemas"), Some(Value::Object(m)) if m.contains_key(name))
                {
                    vec!["dependentSchemas".into(), name.clone(), "allOf".into(), "1".into()]
                } else {
                    vec!["dependentSchemas".into(), name.clone()]
                };
                out.push(Rename { keyword: "dependencies", name: Some(name.clone()), to });
            }
        }
        out
    }

    fn apply(
        self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        nested_id: bool,
    ) -> Result<(), SchemaGenerationError> {
        if !self.any() {
            return Ok(());
        }
        if self.legacy_ref {
            node.retain(|k, _| crate::inline::draft::kept_beside_legacy_ref(k));
        }
        if self.schema {
            node.remove("$schema");
        }
        if self.id
            && let Some(id) = node.remove("id")
            && !node.contains_key("$id")
        {
            node.insert("$id".into(), id);
        }
        if self.recursive {
            recursive_ref(node, at, nested_id)?;
        }
        if self.definitions
            && let Some(Value::Object(definitions)) = node.remove("definitions")
        {
            let mut defs = match node.remove("$defs") {
                Some(Value::Object(defs)) => defs,
                Some(other) => {
                    // Not a map: WellFormed refuses it; leave both as they were.
                    node.insert("$defs".into(), other);
                    node.insert("definitions".into(), Value::Object(definitions));
                    self.apply_rest(node);
                    return Ok(());
                }
                None => Map::new(),
            };
            let names: HashMap<String, String> =
                definition_names(&definitions, Some(&defs)).into_iter().collect();
            for (name, schema) in definitions {
                let to = names.get(&name).cloned().unwrap_or(name);
                defs.entry(to).or_insert(schema);
            }
            node.insert("$defs".into(), Value::Object(defs));
        }
        self.apply_rest(node);
        Ok(())
    }

    fn apply_rest(self, node: &mut Map<String, Value>) {
        if self.dependencies
            && let Some(Value::Object(dependencies)) = node.remove("dependencies")
        {
            for (name, value) in dependencies {
                match value {
                    Value::Array(names) => {
                        let into = object_member(node, "dependentRequired");
                        match into.get_mut(&name) {
                            Some(Value::Array(existing)) => {
                                for n in names {
                                    if !existing.contains(&n) {
                                        existing.push(n);
                                    }
                                }
                            }
                            _ => {
                                into.insert(name, Value::Array(names));
                            }
                        }
                    }
                    schema => {
                        let into = object_member(node, "dependentSchemas");
                        match into.remove(&name) {
                            Some(existing) => {
                                into.insert(name, serde_json::json!({"allOf": [existing, schema]}));
                            }
                            None => {
                                into.insert(name, schema);
                            }
                        }
                    }
                }
            }
        }
        if self.tuple
            && let Some(tuple) = node.remove("items")
        {
            node.insert("prefixItems".into(), tuple);
            if let Some(rest) = node.remove("additionalItems") {
                node.insert("items".into(), rest);
            }
        }
        if self.stray_additional {
            node.remove("additionalItems");
        }
        if self.exclusive {
            for (exclusive, inclusive) in [("exclusiveMaximum", "maximum"), ("exclusiveMinimum", "minimum")] {
                if let Some(Value::Bool(set)) = node.get(exclusive) {
                    let set = *set;
                    node.remove(exclusive);
                    if set && let Some(bound @ Value::Number(_)) = node.get(inclusive) {
                        let bound = bound.clone();
                        node.remove(inclusive);
                        node.insert(exclusive.into(), bound);
                    }
                }
            }
        }
    }
}

/// The object under `key` in `node`, made one if absent or not an object (it is where
/// `dependencies` entries go; a non-object there is malformed and is replaced only when empty).
fn object_member<'m>(node: &'m mut Map<String, Value>, key: &str) -> &'m mut Map<String, Value> {
    if !matches!(node.get(key), Some(Value::Object(_))) {
        node.insert(key.into(), Value::Object(Map::new()));
    }
    match node.get_mut(key) {
        Some(Value::Object(m)) => m,
        _ => unreachable!("inserted above"),
    }
}

/// Whether a `dependencies` value is one this pass can split: a map whose values are lists of
/// strings or schemas (anything else is left for `WellFormed` to refuse).
fn dependencies_well_formed(value: &Value) -> bool {
    let Value::Object(entries) = value else { return false };
    entries
        .values()
        .all(|v| crate::walk::is_schema(v) || v.as_array().is_some_and(|a| a.iter().all(Value::is_string)))
}

/// The `$defs` name each `definitions` entry takes: its own, unless `$defs` holds that name with
/// another schema; then the first of `Name_1`, `Name_2`, ... that neither map holds nor an
/// earlier entry took. In key order, so the choice is the same whatever the maps' order.
fn definition_names(
    definitions: &Map<String, Value>,
    defs: Option<&Map<String, Value>>,
) -> Vec<(String, String)> {
    let mut taken: BTreeSet<String> = definitions.keys().cloned().collect();
    taken.extend(defs.into_iter().flat_map(|d| d.keys().cloned()));
    let mut names: Vec<&String> = definitions.keys().collect();
    names.sort();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let clash = defs.and_then(|d| d.get(name)).is_some_and(|there| Some(there) != definitions.get(name));
        if !clash {
            out.push((name.clone(), name.clone()));
            continue;
        }
        // Among `taken.len() + 1` candidates one is free.
        let free = (1..=taken.len() + 1)
            .map(|i| format!("{name}_{i}"))
            .find(|n| !taken.contains(n))
            .unwrap_or_default();
        taken.insert(free.clone());
        out.push((name.clone(), free));
    }
    out
}

/// `$recursiveRef: "#"` as `$ref: "#"`, and `$recursiveAnchor` removed; refused where that would
/// change what it points at.
fn recursive_ref(
    node: &mut Map<String, Value>,
    at: &Location<'_>,
    nested_id: bool,
) -> Result<(), SchemaGenerationError> {
    node.remove("$recursiveAnchor");
    let Some(reference) = node.remove("$recursiveRef") else { return Ok(()) };
    let refuse = |why: &str| SchemaGenerationError::Malformed {
        pointer: format!("{at}/$recursiveRef"),
        message: format!(
            "`$recursiveRef` (draft 2019-09) {why}; draft 2020-12 has no such keyword: write `\"$ref\": \"#\"` \
             for a reference to the root, or a `$ref` to a definition under `$defs`"
        ),
    };
    if reference.as_str() != Some("#") {
        return Err(refuse(&format!(
            "is {reference}, and only `\"#\"` can be read as a reference to the root"
        )));
    }
    if nested_id {
        return Err(refuse(
            "stands in a document with a nested `$id`, where the root it lands on depends on the path taken",
        ));
    }
    if node.contains_key("$ref") {
        return Err(refuse("stands beside a `$ref`; put one of them under `allOf`"));
    }
    node.insert("$ref".into(), Value::String("#".into()));
    Ok(())
}

/// One moved place under a schema object: `keyword` (with `name`, for a map's entry, or every
/// entry when `None`) is now at `to`.
#[derive(Debug)]
struct Rename {
    keyword: &'static str,
    name: Option<String>,
    to: Vec<String>,
}

impl Rename {
    fn keyword(keyword: &'static str, to: &[&str]) -> Rename {
        Rename { keyword, name: None, to: to.iter().map(|&t| t.to_owned()).collect() }
    }
}

/// The reference pointed at where its target now is, or `None` when it did not move (or is no
/// local reference: WellFormed says so).
fn repoint(reference: &str, renames: &HashMap<String, Vec<Rename>>) -> Option<String> {
    let tokens = crate::refs::parse_local(reference).ok()?;
    let mut out: Vec<String> = Vec::with_capacity(tokens.len() + 2);
    let mut old = crate::pointer::Pointer::root();
    let mut moved = false;
    let mut i = 0;
    while i < tokens.len() {
        let here = renames.get(old.as_str()).and_then(|found| {
            let named = tokens.get(i + 1).and_then(|next| {
                found.iter().find(|r| r.keyword == tokens[i] && r.name.as_deref() == Some(next.as_str()))
            });
            named
                .map(|r| (r, 2))
                .or_else(|| found.iter().find(|r| r.keyword == tokens[i] && r.name.is_none()).map(|r| (r, 1)))
        });
        match here {
            Some((rename, used)) => {
                out.extend(rename.to.iter().cloned());
                for t in &tokens[i..i + used] {
                    old.push(t);
                }
                i += used;
                moved = true;
            }
            None => {
                out.push(tokens[i].clone());
                old.push(&tokens[i]);
                i += 1;
            }
        }
    }
    moved.then(|| {
        let mut s = String::from("#");
        for t in &out {
            s.push('/');
            s.push_str(&crate::pointer::fragment_token(t));
        }
        s
    })
}

#[cfg(test)]
mod tests;
