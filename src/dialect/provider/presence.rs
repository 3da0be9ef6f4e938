//! Presence rules: an object's `anyOf` or `oneOf` whose every branch only says which properties
//! are present ("at least one of `a`, `b`", "exactly one of", "`a` without `b`"), recognised and
//! moved into a restore check stated in the description, as no provider can write it as a union
//! it enforces exactly.

use super::describe::finish_description;
use super::{Built, Engine, Style};
use crate::dialect::support::{admits_null, is_annotation};
use crate::pointer::Pointer;
use crate::restore::{AdaptationKind, Check, KeysPresent, Presence};
use serde_json::{Map, Value};

impl Engine<'_> {
    /// An object whose `anyOf` or `oneOf` only says which properties are present ("at least one
    /// of `a`, `b`", "exactly one of"): the object without it, and a restore check stated in its
    /// description.
    pub(super) fn required_alternatives(
        &mut self,
        m: &Map<String, Value>,
        presence: Presence,
        ptr: &mut Pointer,
        depth: usize,
    ) -> Built {
        let keyword = presence.keyword();
        let how_many = if presence.exactly_one { "exactly one" } else { "at least one" };
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::MovedCheck,
            keyword,
            &format!("the provider cannot say that {how_many} of several properties must be present"),
            "check it in code, or use the reversible mode (the default), which checks it on restore",
        ) {
            return (Value::Bool(true), None);
        }
        let names = presence.names();
        // Every property required, a named one that admits null sends null for a present null
        // and for absent alike: the check then counts it present. That only ever adds a key "at
        // least one of" wants; any other check ("exactly one of", "without `x`") would refuse
        // arguments the original takes.
        let monotone = !presence.exactly_one && presence.branches.iter().all(|b| b.not_all.is_empty());
        let props = m.get("properties").and_then(Value::as_object);
        if self.p.require_all && !monotone {
            for name in &names {
                if props.and_then(|p| p.get(name)).is_some_and(|s| admits_null(s, self.root)) {
                    self.refuse(
                        keyword,
                        ptr.as_str(),
                        format!(
                            "`{name}` is named by {how_many} of several properties, every property must be \
                             present here, and its schema accepts null: a null for absent would count as present"
                        ),
                        Some("make the property's schema refuse null, or state the rule in the description"),
                    );
                    return (Value::Bool(true), None);
                }
            }
        }
        let mut rest = m.clone();
        rest.remove(keyword);
        self.alternatives = names.into_iter().collect();
        let check = Check::Presence(presence);
        let (mut out, id) = self.schema(&Value::Object(rest), ptr, depth + 1);
        self.alternatives.clear();
        if let Value::Object(o) = &mut out {
            // Stated with the keys the provider is told.
            let decode = id.map(|id| &self.nodes[id].decode);
            let words = check.with_sent_keys(|k| decode.map_or(k, |d| d.sent_key(k)).to_owned()).describe();
            finish_description(o, &[words], &[]);
        }
        let id = match id {
            Some(id) => id,
            None => self.alloc(),
        };
        self.nodes[id].checks.push(check);
        (out, Some(id))
    }
}

/// The presence rule of an object schema's `anyOf` or `oneOf` whose every branch says only
/// which properties are present: `"anyOf": [{"required": ["a"]}, {"required": ["b"]}]` beside
/// `properties` (a common MCP spelling of "at least one of"), the same with `oneOf` ("exactly
/// one of"), and branches with `"not": {"required": [..]}` or `"not": {"anyOf": [{"required":
/// [..]}, ..]}` ("`a` without `b`"). `None` for any other schema.
fn required_alternatives(m: &Map<String, Value>) -> Option<Presence> {
    let object = m.get("type") == Some(&Value::String("object".into()))
        || m.get("type").is_none() && m.contains_key("properties");
    if !object || ["$ref", "allOf"].iter().any(|k| m.contains_key(*k)) {
        return None;
    }
    let (branches, exactly_one) = match (m.get("anyOf"), m.get("oneOf")) {
        (Some(Value::Array(b)), None) => (b, false),
        (None, Some(Value::Array(b))) => (b, true),
        _ => return None,
    };
    if branches.is_empty() {
        return None;
    }
    let branches = branches.iter().map(keys_present).collect::<Option<Vec<_>>>()?;
    Some(Presence { exactly_one, branches })
}

/// The presence rule of `m` (see [`required_alternatives`]) where it becomes a restore check in
/// this style: always in JSON Schema's terms (OpenAI, Anthropic); in Gemini's only where its
/// union cannot be written (`oneOf`, `not`), as an "at least one of" is written as a union of
/// the object with each list required, which Gemini enforces itself.
pub(super) fn moved_presence(m: &Map<String, Value>, style: Style) -> Option<Presence> {
    required_alternatives(m).filter(|p| {
        style == Style::NullType || p.exactly_one || p.branches.iter().any(|b| !b.not_all.is_empty())
    })
}

/// One branch of a presence rule: `required`, `not` of `required` (or of an `anyOf` of them), or
/// both; annotations beside.
fn keys_present(b: &Value) -> Option<KeysPresent> {
    let only = |m: &Map<String, Value>, keys: &[&str]| {
        m.keys().all(|k| keys.contains(&k.as_str()) || is_annotation(k))
    };
    let names = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?.iter().map(|n| n.as_str().map(str::to_owned)).collect()
    };
    let b = b.as_object()?;
    if !only(b, &["required", "not"]) || !(b.contains_key("required") || b.contains_key("not")) {
        return None;
    }
    let all = b.get("required").map_or(Some(Vec::new()), names)?;
    let not_all = match b.get("not") {
        None => Vec::new(),
        Some(Value::Object(n)) if only(n, &["required"]) => vec![names(n.get("required")?)?],
        Some(Value::Object(n)) if only(n, &["anyOf"]) => n
            .get("anyOf")?
            .as_array()
            .filter(|a| !a.is_empty())?
            .iter()
            .map(|x| x.as_object().filter(|x| only(x, &["required"])).and_then(|x| names(x.get("required")?)))
            .collect::<Option<Vec<_>>>()?,
        Some(_) => return None,
    };
    Some(KeysPresent { all, not_all })
}
