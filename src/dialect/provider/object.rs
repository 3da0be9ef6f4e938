//! Objects: declared properties closed where the provider needs it, every property required
//! where it demands it (`null` standing for absent), keys the provider refuses renamed, and
//! further keys beside named properties kept as a map or sent as a list of entries. Together
//! because all of them decide what an object's keys become; a map without named properties is
//! `map.rs`'s, a presence rule `presence.rs`'s.

use super::describe::{finish_description, names_list, note_default};
use super::map::plain_keys;
use super::{DROPPED, Draft, Engine, Style};
use crate::dialect::support::{admits_null, is_annotation};
use crate::hint::Advice;
use crate::pointer::Pointer;
use crate::restore::RenamedKey;
use crate::restore::rewrite::absent::{with_null, without_null};
use crate::restore::rewrite::entries::{self, EXTRA};
use crate::restore::rewrite::keys;
use crate::restore::{AdaptationKind, Check, Decode, Node, Prop};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// An object's named properties as written: the provider's `properties` and `required`, and
/// the plan's entries.
struct Written {
    props: Map<String, Value>,
    required: Vec<Value>,
    plan: Vec<Prop>,
}

/// What an object does with keys beyond its named properties.
enum Rest {
    /// Any key, each value as the schema written here (a map the provider takes as it is).
    Kept(Value),
    /// Sent as a list of entries beside the properties.
    Entries,
    /// None (`additionalProperties: false`).
    Closed,
    /// Any key, ignored by the code that reads the object (a struct).
    Open,
}

impl Engine<'_> {
    /// A free-form object: no declared properties and open. The root is the exception: a tool
    /// without arguments is closed exactly.
    pub(super) fn is_free_form(&self, m: &Map<String, Value>, ptr: &Pointer) -> bool {
        let no_props = m.get("properties").and_then(Value::as_object).is_none_or(Map::is_empty);
        let open = matches!(m.get("additionalProperties"), None | Some(Value::Bool(true)));
        let no_pattern = !m.contains_key("patternProperties");
        let is_root = ptr.as_str().is_empty() && !self.wrapped;
        let nothing_required = m.get("required").and_then(Value::as_array).is_none_or(Vec::is_empty);
        // `maxProperties: 0` admits only `{}`: closed, as Gemini writes a closed empty object.
        let empty_only = m.get("maxProperties").and_then(Value::as_u64) == Some(0);
        no_props && open && no_pattern && !is_root && nothing_required && !empty_only
    }

    /// The object keywords of a schema whose type is `object`: its named properties, a map of
    /// further keys beside them, and the object closed in the provider's terms. A map with no
    /// named properties is [`Engine::map`]'s. `true` where the object became a list of entries
    /// (an array), which the caller writes as its type.
    pub(super) fn object(
        &mut self,
        m: &Map<String, Value>,
        draft: &mut Draft,
        ptr: &mut Pointer,
        depth: usize,
    ) -> bool {
        let empty = Map::new();
        let props = m.get("properties").and_then(Value::as_object).unwrap_or(&empty);
        let additional = m.get("additionalProperties");
        let patterns = m.get("patternProperties").and_then(Value::as_object).filter(|p| !p.is_empty());
        // `additionalProperties: true` said outright beside named properties is a map of further
        // keys the reader takes (`#[serde(flatten)] rest: BTreeMap<String, Value>`, pydantic's
        // `extra="allow"`); left out, it is a struct that ignores them, and closing it is exact.
        let map_like = matches!(additional, Some(Value::Object(_)))
            || additional == Some(&Value::Bool(true)) && !props.is_empty()
            || patterns.is_some();
        // A provider that takes `additionalProperties` as a schema gets the map as it is, where
        // its keys need no check (a key constraint goes the entries' way, where restore checks
        // each key).
        let kept_map = map_like
            && self.p.keeps_maps
            && (props.is_empty() || self.p.maps_beside_properties)
            && patterns.is_none()
            && plain_keys(m);
        if map_like && !kept_map {
            if props.is_empty() {
                return self.map(m, additional, patterns, draft, ptr, depth);
            }
            if patterns.is_some() || props.contains_key(EXTRA) {
                self.refuse(
                    "additionalProperties",
                    ptr.as_str(),
                    "an object with both named properties and a map of further keys cannot be written here",
                    Some(Advice::Map.text(self.origin)),
                );
                return false;
            }
        }
        if m.contains_key("propertyNames") && !props.is_empty() {
            self.refuse(
                "propertyNames",
                ptr.as_str(),
                "`propertyNames` beside named properties cannot be expressed",
                None,
            );
        }
        let renames = self.renamed_keys(props, map_like && !kept_map, ptr);
        let mut written = self.properties(m, props, kept_map, map_like, ptr, depth);
        let rest = match additional {
            Some(value) if kept_map => Rest::Kept(self.kept_rest(value, &mut draft.node, ptr, depth)),
            // Named properties and a map of further keys (`#[serde(flatten)]` of a map).
            Some(value) if map_like => {
                self.further_entries(props, value, &mut written, &mut draft.node, ptr, depth);
                Rest::Entries
            }
            Some(Value::Bool(false)) => Rest::Closed,
            _ => Rest::Open,
        };
        let required = self.write_properties(written, renames, kept_map, draft);
        self.close(props, rest, required, draft, ptr);
        false
    }

    /// An object's named properties, each as the provider is told it, with the plan's entries;
    /// a name `required` lists that no property declares is refused where the object is closed.
    fn properties(
        &mut self,
        m: &Map<String, Value>,
        props: &Map<String, Value>,
        kept_map: bool,
        map_like: bool,
        ptr: &mut Pointer,
        depth: usize,
    ) -> Written {
        // Properties where `null` is a value of their own, not "absent": those named by moved
        // `required` alternatives, and those another property's presence requires
        // (`dependentRequired`, `dependencies`), which a restore check counts.
        let mut alternatives = std::mem::take(&mut self.alternatives);
        for key in ["dependentRequired", "dependencies"] {
            for names in m.get(key).and_then(Value::as_object).into_iter().flat_map(Map::values) {
                alternatives.extend(
                    names.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned),
                );
            }
        }
        let required: BTreeSet<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut written = Written { props: Map::new(), required: Vec::new(), plan: Vec::new() };
        for name in &required {
            if kept_map && !props.contains_key(*name) {
                // A key the map must hold: `required` says it, as it does beside properties.
                written.required.push(Value::String((*name).to_owned()));
                continue;
            }
            if !props.contains_key(*name) && !map_like {
                self.refuse(
                    "required",
                    ptr.as_str(),
                    format!("`{name}` is required but not declared in `properties`; a closed object would refuse it"),
                    Some("declare the property"),
                );
            }
        }
        for (name, schema) in props {
            let (child, prop, is_required) =
                self.property(name, schema, &required, &alternatives, ptr, depth, kept_map);
            if is_required {
                written.required.push(Value::String(name.clone()));
            }
            written.props.insert(name.clone(), child);
            written.plan.extend(prop);
        }
        written
    }

    /// The schema of a map's further keys, where the provider takes `additionalProperties` as a
    /// schema: written as it is, its plan the node's `rest`.
    #[inline(never)]
    fn kept_rest(&mut self, value: &Value, node: &mut Node, ptr: &mut Pointer, depth: usize) -> Value {
        let mark = ptr.push("additionalProperties");
        let (rest, plan) = self.schema(value, ptr, depth + 1);
        ptr.truncate(mark);
        node.rest = plan;
        rest
    }

    /// Further keys beside named properties, where the provider closes every object: a list of
    /// entries under [`EXTRA`], always required (an empty list for none), so the object stays
    /// closable in every provider's terms. A frame of its own, off the recursion through the
    /// properties (a debug build's frames add up along a schema's depth).
    #[inline(never)]
    fn further_entries(
        &mut self,
        props: &Map<String, Value>,
        value: &Value,
        written: &mut Written,
        node: &mut Node,
        ptr: &mut Pointer,
        depth: usize,
    ) {
        let (entries, plan, keys) =
            self.entries(&serde_json::json!({"type": "string"}), value, ptr, depth, "additionalProperties");
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::MapAsEntries,
            "additionalProperties",
            "every object must be closed, and this one also holds a map whose keys are not known in advance",
            Advice::Map.text(self.origin),
        ) {
            return;
        }
        let mut entries = entries;
        if let Value::Object(e) = &mut entries {
            finish_description(e, &[], &[entries::note_extra(&names_list(props))]);
        }
        written.props.insert(EXTRA.into(), entries);
        written.required.push(Value::String(EXTRA.into()));
        let mut declared: Vec<String> = props.keys().cloned().collect();
        declared.sort();
        node.decode = Decode::ExtraEntries(EXTRA.into(), declared, keys);
        node.rest = plan;
    }

    /// `properties` and `required` written (under the names the provider is told), the plan's
    /// properties in name order; the number of required keys.
    fn write_properties(
        &mut self,
        written: Written,
        renames: Vec<(String, String)>,
        kept_map: bool,
        draft: &mut Draft,
    ) -> usize {
        let Written { props: mut out_props, required: mut out_required, plan: mut plan_props } = written;
        plan_props.sort_by(|a, b| a.name.cmp(&b.name));
        draft.node.props = plan_props;
        if !renames.is_empty() {
            out_props = send_renamed(renames, out_props, &mut out_required, &mut draft.node);
        }
        out_required.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        if !(kept_map && out_props.is_empty()) {
            draft.out.insert("properties".into(), Value::Object(out_props));
        }
        let required = out_required.len();
        if !out_required.is_empty() || self.p.require_all {
            draft.out.insert("required".into(), Value::Array(out_required));
        }
        required
    }

    /// The object closed (or left open) in the provider's terms: `additionalProperties` where it
    /// has the keyword, `maxProperties` where it has not (Gemini), and where neither can say it a
    /// restore check that only the named keys are sent.
    fn close(
        &mut self,
        props: &Map<String, Value>,
        rest: Rest,
        required: usize,
        draft: &mut Draft,
        ptr: &Pointer,
    ) {
        let out = &mut draft.out;
        let all_required = required == out.get("properties").and_then(Value::as_object).map_or(0, Map::len);
        match (self.p.style, rest) {
            (Style::NullType, Rest::Kept(schema)) => {
                out.insert("additionalProperties".into(), schema);
            }
            (Style::NullType, _) => {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            // With optional properties `maxProperties` cannot close it: it stays open, and
            // restore refuses a key sent beside the entries (the rule is the same with or without
            // `required`).
            (Style::NullableFlag, Rest::Entries) => {
                if all_required {
                    out.insert("maxProperties".into(), Value::from(required));
                }
            }
            (Style::NullableFlag, Rest::Closed) => {
                if all_required {
                    let count = required as u64;
                    let tighter = out.get("maxProperties").and_then(Value::as_u64).is_some_and(|m| m <= count);
                    if !tighter {
                        out.insert("maxProperties".into(), Value::from(count));
                    }
                } else if self.encode(
                    ptr.as_str(),
                    AdaptationKind::MovedCheck,
                    "additionalProperties",
                    "a closed object with optional properties cannot be described: Gemini has no \
                     `additionalProperties`, and `maxProperties` only closes an object whose properties are all required",
                    Advice::OpenObject.text(self.origin),
                ) {
                    let keys: Vec<String> = props.keys().cloned().collect();
                    draft.node.checks.push(Check::OnlyKeys(keys));
                }
            }
            (Style::NullableFlag, Rest::Kept(_) | Rest::Open) => {}
        }
    }

    /// One named property of an object: its schema as the provider is told it, its plan entry
    /// (when restore or the forward map has something to do there), and whether it is sent as
    /// required. A frame of its own, off the recursion's hot path through [`Engine::object`]
    /// (a debug build's frames add up along a schema's depth).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn property(
        &mut self,
        name: &String,
        schema: &Value,
        required: &BTreeSet<&str>,
        alternatives: &BTreeSet<String>,
        ptr: &mut Pointer,
        depth: usize,
        kept_map: bool,
    ) -> (Value, Option<Prop>, bool) {
        let mut is_required = false;
        let mark = ptr.push("properties");
        ptr.push(name);
        let (mut child, plan) = self.schema(schema, ptr, depth + 1);
        let mut null_is_absent = false;
        let mut null_dropped = false;
        let mut null_refused = false;
        if required.contains(name.as_str()) || !self.p.require_all {
            if required.contains(name.as_str()) {
                is_required = true;
            } else if self.p.absent_for_null
                && !alternatives.contains(name)
                && schema.get("default").is_none_or(Value::is_null)
                && !accepts_anything(schema, self.root)
                && admits_null(schema, self.root)
                && let Some(folded) = without_null(&child)
            {
                // Optional, and its null reads as absent: absent stands for it (and a
                // default of null says nothing the type still admits).
                child = folded;
                if let Value::Object(c) = &mut child
                    && c.get("default").is_some_and(Value::is_null)
                {
                    c.remove("default");
                }
                null_dropped = true;
                self.adapt_note(ptr.as_str(), AdaptationKind::AbsentForNull, "type");
            }
        } else if admits_null(schema, self.root) {
            // `Option<T>`: null stands for absent, as serde reads it; a default other than null
            // is what absent means, and the model can send it.
            is_required = true;
            match schema.get("default") {
                Some(d) if !d.is_null() => note_default(&mut child, d),
                // Named by a moved "at least one of": `null` is the property present, and
                // the check counts it (absent is sent as null too, and comes back as null,
                // which the property admits).
                _ if alternatives.contains(name) => {}
                _ => null_is_absent = true,
            }
            // Any value as JSON text (the whole schema or one branch of a union, where the
            // original admitted null): a JSON `null` is the text "null", and null itself
            // stands for absent. Null is written unless the written schema surely admits it:
            // a reference into a definition still being written (a cycle) is unsure, and a
            // second null branch costs nothing where absent must be sendable.
            if accepts_anything(schema, self.root) || self.written_null(&child) != Some(true) {
                child = with_null(child, self.p.style);
                null_is_absent = true;
            }
            self.adapt_note(ptr.as_str(), AdaptationKind::NullForAbsent, "required");
        } else if self.encode(
            ptr.as_str(),
            AdaptationKind::NullForAbsent,
            "required",
            &format!(
                "`{name}` may be left out, OpenAI strict mode requires every property, and its schema does \
                 not accept null; requiring it would refuse what the code reads when it is absent"
            ),
            Advice::OptionalField.text(self.origin),
        ) {
            if let Some(d) = schema.get("default") {
                note_default(&mut child, d);
            }
            child = with_null(child, self.p.style);
            is_required = true;
            null_is_absent = true;
            null_refused = true;
        }
        ptr.truncate(mark);
        // What absent means, for the forward map: the declared default, which the model sends
        // to say "absent" where null is a value of its own.
        let default = (self.p.require_all && !null_is_absent && !required.contains(name.as_str()))
            .then(|| {
                let absent = alternatives.contains(name.as_str()).then_some(Value::Null);
                schema.get("default").cloned().or(absent)
            })
            .flatten()
            // A required property with a default: a discriminator's tag (required here, as
            // its readers require it, and optional in the member that gives it the default),
            // which a value the original accepts may leave out; the forward map sends the
            // default. (A property the original itself requires is never absent.)
            .or_else(|| required.contains(name.as_str()).then(|| schema.get("default").cloned()).flatten());
        // Beside a map's plan every declared property is listed: the map's plan is for
        // further keys only.
        let prop =
            (plan.is_some() || null_is_absent || null_dropped || default.is_some() || kept_map).then(|| {
                Prop { name: name.clone(), node: plan, null_is_absent, null_dropped, default, null_refused }
            });
        (child, prop, is_required)
    }

    /// The new name of each key of `props` the provider's rule refuses, `(sent, original)`
    /// (none without a rule, none below the top level where the rule holds there only, and none
    /// in exact mode, which refuses each instead); `entries`: the
    /// object also holds its further keys as entries under [`EXTRA`], a name no key may take.
    #[inline(never)]
    fn renamed_keys(
        &mut self,
        props: &Map<String, Value>,
        entries: bool,
        ptr: &mut Pointer,
    ) -> Vec<(String, String)> {
        let Some(rule) = self.p.keys else { return Vec::new() };
        let top_level = ptr.as_str().is_empty() && !self.wrapped;
        if rule.top_level_only && !top_level || props.keys().all(|k| rule.accepts(k)) {
            return Vec::new();
        }
        let renames = keys::write(rule, props.keys().map(String::as_str).chain(entries.then_some(EXTRA)));
        let mut kept = Vec::with_capacity(renames.len());
        for (sent, original) in renames {
            let mark = ptr.push("properties");
            ptr.push(&original);
            let allowed = self.encode(
                ptr.as_str(),
                AdaptationKind::RenamedKey,
                "properties",
                &format!(
                    "the provider refuses the property key `{original}`: a key must match `{}`",
                    rule.pattern
                ),
                Advice::PropertyKey.text(self.origin),
            );
            if allowed {
                self.renamed.push(RenamedKey {
                    pointer: ptr.as_str().to_owned(),
                    original: original.clone(),
                    sent: sent.clone(),
                });
                kept.push((sent, original));
            }
            ptr.truncate(mark);
        }
        kept
    }
}

/// The provider is told the new names: in `properties` (in their order) and in `required`;
/// restore renames them back before anything reads the object. Apart from `object`, which
/// recurses: its frame stays small.
#[inline(never)]
fn send_renamed(
    renames: Vec<(String, String)>,
    props: Map<String, Value>,
    required: &mut [Value],
    node: &mut Node,
) -> Map<String, Value> {
    let props = props.into_iter().map(|(k, v)| (keys::sent(&renames, &k).to_owned(), v)).collect();
    for name in required {
        if let Value::String(n) = name {
            *n = keys::sent(&renames, n).to_owned();
        }
    }
    node.decode = Decode::Keys(renames, Box::new(std::mem::take(&mut node.decode)));
    props
}

/// Whether a schema asserts nothing (`true`, or only annotations), through references: the
/// provider gets it as JSON text, a string, which does not admit `null` by itself.
fn accepts_anything(schema: &Value, root: &Value) -> bool {
    let mut s = schema;
    for _ in 0..32 {
        match s {
            Value::Bool(b) => return *b,
            Value::Object(m) => match m.get("$ref").and_then(Value::as_str) {
                Some(r) if m.keys().all(|k| k == "$ref" || is_annotation(k)) => {
                    match crate::refs::resolve(root, r) {
                        Some(t) => s = t,
                        None => return false,
                    }
                }
                _ => {
                    return m
                        .keys()
                        .all(|k| is_annotation(k) || DROPPED.contains(&k.as_str()) || k.starts_with("x-"));
                }
            },
            _ => return false,
        }
    }
    false
}
