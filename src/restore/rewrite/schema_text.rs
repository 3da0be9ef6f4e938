//! A part of a schema past a provider's limit (a recursion cut at the depth the caller set, a level
//! past the provider's nesting limit), sent as a string of JSON text: the provider is told a
//! string whose description states, compactly, the schema the text must follow; restore parses
//! the text and checks the value against the *original* subschema with
//! [`validate`](crate::restore::validate), every fault pointed into the value the text holds.
//!
//! Both laws hold where the provider's schema language cannot go: any value the original accepts,
//! however deep, can be sent (the forward map writes its JSON text), and restore refuses what the
//! original refuses (the whole subschema is checked, references followed in the original
//! document, not only what a rewrite would have undone).
//!
//! The API, for any place in the engine that meets a limit:
//!
//! - [`SchemaText::new`]: the original document (shared by every cut of one plan) and the schema
//!   inside it the value must follow (a `{"$ref": ...}` with the assertions that stood beside
//!   it, or any subschema whose references point into the document);
//! - [`write`]: the note for the description (the caller writes `"type": "string"`);
//! - [`SchemaText::with_plan`]: the subschema's own restore plan (the plan of a dialect that
//!   changes no shape: an integral float turned into the integer where the subschema reads an
//!   integer), which the engine builds, so that a value sent as text restores to what it would
//!   have restored to had the provider's schema expressed it;
//! - [`restore`] / [`encode`]: the inverse and the forward map; the plan node is
//!   [`Decode::SchemaText`](super::Decode::SchemaText).
//!
//! Where the adaptation runs before the engine's walk (recursion unrolled), the cut is a [`mark`]
//! in the schema: an object holding the key [`MARK`] (the reference as written) and the keywords
//! that stood beside the reference; the engine reads it back with [`SchemaText::from_mark`].
//! Where a cut is a union's branch beside a branch that may be a string (or beside another
//! cut), the two texts could not be told apart: the engine cuts the whole union instead, its
//! schema the union with each mark turned back into its reference ([`unmarked`]).

use super::{Faults, TextPlan, normalised, pointed};
use crate::restore::validate::validate_in;
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::Arc;

/// The key of a cut's mark: no JSON Schema keyword, and a NUL no real schema spells.
pub(crate) const MARK: &str = "\u{0}schema-text";

/// References followed to gather the definitions a note states.
const MAX_DEFS: usize = 256;

/// What the text at a cut must hold: a value `schema` accepts, `schema`'s references resolved in
/// `doc` (the original schema); restored through `plan`, `schema`'s own restore.
#[derive(Debug, Clone)]
pub(crate) struct SchemaText {
    doc: Arc<Value>,
    schema: Value,
    plan: TextPlan,
}

impl PartialEq for SchemaText {
    fn eq(&self, other: &Self) -> bool {
        // The plan is a function of the document and the schema.
        (Arc::ptr_eq(&self.doc, &other.doc) || self.doc == other.doc) && self.schema == other.schema
    }
}

impl SchemaText {
    /// A value that must pass `schema`, a schema inside the document `doc` (restored through
    /// no plan until [`with_plan`](Self::with_plan) gives it one).
    pub(crate) fn new(doc: Arc<Value>, schema: Value) -> Self {
        SchemaText { doc, schema, plan: TextPlan::default() }
    }

    /// `self`, its values restored through `plan` once checked: the plan of [`schema`](Self::schema)
    /// in [`doc`](Self::doc) (an integral float turned into the integer where it reads one).
    pub(crate) fn with_plan(mut self, plan: TextPlan) -> Self {
        self.plan = plan;
        self
    }

    /// The schema the value must pass.
    pub(crate) fn schema(&self) -> &Value {
        &self.schema
    }

    /// The schema a [`mark`] stands for: the reference it holds, with the keywords beside it.
    pub(crate) fn from_mark(doc: Arc<Value>, m: &Map<String, Value>) -> Option<Self> {
        let reference = m.get(MARK)?.as_str()?.to_owned();
        let mut schema: Map<String, Value> =
            m.iter().filter(|(k, _)| k.as_str() != MARK).map(|(k, v)| (k.clone(), v.clone())).collect();
        schema.insert("$ref".into(), Value::String(reference));
        Some(SchemaText::new(doc, Value::Object(schema)))
    }

    /// The schema the note states: the schema itself, with the definitions it reaches under
    /// `$defs` (or `definitions`), where every reference it reaches names one (or the root,
    /// which is then the whole document); `None` for a reference elsewhere.
    fn stated(&self) -> Option<Value> {
        let Value::Object(own) = &self.schema else { return Some(self.schema.clone()) };
        let mut own: Map<String, Value> = own
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "description" | "title" | "default" | "examples"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        // A reference to a place that is no definition (a level cut for depth): that place's
        // schema itself, stated in full.
        if let Some(Value::String(r)) = own.get("$ref")
            && r != "#"
            && crate::refs::plain_definition(r).is_none()
            && own.len() == 1
            && let Some(Value::Object(target)) = crate::refs::resolve(&self.doc, r)
        {
            own = target
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "$defs" | "definitions"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
        }
        let mut seen = BTreeSet::new();
        let mut todo = Vec::new();
        references(&Value::Object(own.clone()), &mut todo);
        let mut defs: Vec<(&'static str, String)> = Vec::new();
        while let Some(r) = todo.pop() {
            if !seen.insert(r.clone()) {
                continue;
            }
            if seen.len() > MAX_DEFS {
                return None;
            }
            if r == "#" {
                // The root: stated whole, when the schema is the root's reference alone.
                return (own.len() == 1).then(|| (*self.doc).clone());
            }
            let (map, name) = crate::refs::plain_definition(&r)?;
            let target = self.doc.get(map)?.get(name)?;
            references(target, &mut todo);
            defs.push((map, name.to_owned()));
        }
        defs.sort();
        for (map, name) in defs {
            let target = self.doc.get(map).and_then(|m| m.get(&name)).cloned().unwrap_or(Value::Bool(true));
            let entry = own.entry(map).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(entries) = entry {
                entries.insert(name, target);
            }
        }
        Some(Value::Object(own))
    }
}

/// The references `schema` holds anywhere (its `$defs` aside), as written.
fn references(schema: &Value, out: &mut Vec<String>) {
    let _ = crate::walk::visit_all(schema, crate::walk::Depth::DEFAULT_MAX, &mut |ptr, node| {
        if ptr.as_str().split('/').any(|t| t == "$defs" || t == "definitions") {
            return false;
        }
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            out.push(r.to_owned());
        }
        true
    });
}

/// The mark of a cut in a schema: the reference `reference` (as written) and the keywords that
/// stood beside it.
pub(crate) fn mark(reference: &str, mut beside: Map<String, Value>) -> Value {
    beside.insert(MARK.into(), Value::String(reference.to_owned()));
    Value::Object(beside)
}

/// Whether `schema` is the [`mark`] of a cut.
pub(crate) fn is_mark(schema: &Value) -> bool {
    schema.get(MARK).is_some()
}

/// `schema` with every [`mark`] in it the reference it stands for (with the keywords that stood
/// beside it): a part of a schema holding cuts, as a schema of the original document (a union
/// with a cut branch, sent whole as one text). `None` past `max_depth` levels.
pub(crate) fn unmarked(schema: &Value, max_depth: usize) -> Option<Value> {
    let mut out = schema.clone();
    crate::walk::visit_all_mut(
        &mut out,
        max_depth,
        &mut |_, node| {
            if let Value::Object(m) = node
                && let Some(Value::String(reference)) = m.remove(MARK)
            {
                m.insert("$ref".into(), Value::String(reference));
                return Ok(false);
            }
            Ok(true)
        },
        &|_| (),
    )
    .ok()?;
    Some(out)
}

/// Forward: the note that tells the model what the string holds: the JSON text of a value the
/// stated schema accepts, the schema in compact JSON.
pub(crate) fn write(text: &SchemaText) -> String {
    match text.stated() {
        Some(schema) => format!(
            "Written as a string holding the JSON text of a value valid against this JSON Schema: {}",
            crate::canonical::to_string(&schema)
        ),
        None => format!(
            "Written as a string holding the JSON text of a value valid against `{}` in this JSON Schema: {}",
            text.schema.get("$ref").and_then(Value::as_str).unwrap_or("#"),
            crate::canonical::to_string(&text.doc)
        ),
    }
}

/// Inverse: the value the text holds, which must pass the original subschema, restored through
/// the subschema's plan; each fault is reported at its place inside that value.
pub(crate) fn restore(text: &SchemaText, sent: String, faults: &mut impl Faults) -> Value {
    let value = match serde_json::from_str::<Value>(&sent) {
        Ok(v) => v,
        Err(e) => {
            faults.fault(format!(
                "must be the JSON text of a value valid against its schema, and it does not parse: {e}"
            ));
            return Value::String(sent);
        }
    };
    let found = validate_in(&text.doc, &text.schema, &value);
    if found.is_empty() {
        // Restored as the subschema's own plan restores it where the provider expresses it.
        return normalised(text.plan.get(&text.doc, &text.schema), value, faults)
            .unwrap_or(Value::String(sent));
    }
    pointed(faults, found);
    crate::walk::drop_any_depth(value);
    Value::String(sent)
}

/// Forward map: the value's JSON text (a `null` too: the provider's schema takes a string only).
pub(crate) fn encode(value: &Value) -> Value {
    Value::String(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    fn tree() -> Arc<Value> {
        Arc::new(json!({
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {
                "Node": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                    "required": ["name"]},
                "Unused": {"type": "integer"}
            }
        }))
    }

    #[test]
    fn the_note_states_the_subschema_with_the_definitions_it_reaches() {
        let cut =
            SchemaText::from_mark(tree(), mark("#/$defs/Node", Map::new()).as_object().unwrap()).unwrap();
        assert_eq!(
            write(&cut),
            "Written as a string holding the JSON text of a value valid against this JSON Schema: \
             {\"$defs\":{\"Node\":{\"properties\":{\"children\":{\"items\":{\"$ref\":\"#/$defs/Node\"},\"type\":\"array\"},\
             \"name\":{\"type\":\"string\"}},\"required\":[\"name\"],\"type\":\"object\"}},\"$ref\":\"#/$defs/Node\"}"
        );
        // A reference to the root states the whole document.
        let root = Arc::new(json!({"type": "object", "properties": {"next": {"$ref": "#"}}}));
        let cut = SchemaText::new(root, json!({"$ref": "#"}));
        assert!(write(&cut).ends_with("{\"properties\":{\"next\":{\"$ref\":\"#\"}},\"type\":\"object\"}"));
    }

    #[test]
    fn unmarked_turns_each_mark_back_into_its_reference() {
        let union = json!({"anyOf": [{"type": "string"}, mark("#/$defs/Node", Map::from_iter([("description".to_owned(), json!("d"))])),
            {"type": "array", "items": mark("#/$defs/Node", Map::new())}], "description": "u"});
        assert_eq!(
            unmarked(&union, 16),
            Some(json!({"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Node", "description": "d"},
                {"type": "array", "items": {"$ref": "#/$defs/Node"}}], "description": "u"}))
        );
        assert!(is_mark(&union["anyOf"][1]) && !is_mark(&union));
        assert_eq!(unmarked(&union, 1), None);
    }

    #[test]
    fn encode_then_restore_gives_the_value_back_however_deep() {
        let cut = SchemaText::new(tree(), json!({"$ref": "#/$defs/Node"}));
        let mut value = json!({"name": "leaf"});
        for i in 0..20 {
            value = json!({"name": format!("n{i}"), "children": [value, {"name": "x"}]});
        }
        let mut faults = Collect::default();
        let Value::String(sent) = encode(&value) else { panic!("not text") };
        assert_eq!(restore(&cut, sent, &mut faults), value);
        assert!(faults.0.is_empty(), "{:?}", faults.0);
        // `null` is text too.
        assert_eq!(encode(&Value::Null), json!("null"));
    }

    #[test]
    fn restore_gives_what_the_subschemas_own_plan_gives() {
        let doc = Arc::new(json!({"$defs": {"Node": {"type": "object", "properties": {
            "n": {"type": "integer", "format": "uint64", "minimum": 0},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}));
        let schema = json!({"$ref": "#/$defs/Node"});
        let plan = TextPlan::new(crate::dialect::provider::integer_plan_in, 64);
        let cut = SchemaText::new(doc, schema).with_plan(plan);
        let mut faults = Collect::default();
        let back = restore(&cut, r#"{"n": 1.0, "kids": [{"n": 2.0}]}"#.into(), &mut faults);
        assert_eq!(back, json!({"n": 1, "kids": [{"n": 2}]}));
        assert!(back["kids"][0]["n"].is_u64(), "{back}");
        assert!(faults.0.is_empty(), "{:?}", faults.0);
        // The plan's faults are pointed into the value too.
        let mut faults = Collect::default();
        restore(&cut, r#"{"kids": [{"n": 1e17}]}"#.into(), &mut faults);
        assert_eq!(faults.0.len(), 1, "{:?}", faults.0);
        assert!(
            faults.0[0].starts_with("/kids/0/n: must be an integer within the 64-bit range"),
            "{:?}",
            faults.0
        );
    }

    #[test]
    fn restore_refuses_what_the_original_refuses_pointed_into_the_value() {
        let cut = SchemaText::new(tree(), json!({"$ref": "#/$defs/Node"}));
        let mut faults = Collect::default();
        let sent = json!({"name": "a", "children": [{"name": "b"}, {"children": [{"name": 3}]}]}).to_string();
        assert_eq!(restore(&cut, sent.clone(), &mut faults), Value::String(sent));
        assert_eq!(
            faults.0,
            vec![
                "/children/1: must have the key `name`",
                "/children/1/children/0/name: must be of type string, got integer"
            ]
        );
        let mut faults = Collect::default();
        assert_eq!(restore(&cut, "{".into(), &mut faults), json!("{"));
        assert!(
            faults.0[0].starts_with(
                "must be the JSON text of a value valid against its schema, and it does not parse"
            )
        );
        // The keywords beside the reference are checked too.
        let cut = SchemaText::from_mark(
            tree(),
            mark("#/$defs/Node", Map::from_iter([("maxProperties".to_owned(), json!(1))]))
                .as_object()
                .unwrap(),
        )
        .unwrap();
        let mut faults = Collect::default();
        restore(&cut, json!({"name": "a", "children": []}).to_string(), &mut faults);
        assert_eq!(faults.0, vec!["must be at most 1 key, got 2 keys"]);
    }
}
