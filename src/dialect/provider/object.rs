//! Objects: declared properties closed where the provider needs it, every property required
//! where it demands it (`null` standing for absent), `required` alternatives as a restore check,
//! and a map (`additionalProperties: S`, one key pattern, or further keys beside named properties)
//! as a list of entries. Together because all of them decide what an object's keys become.

use super::describe::{finish_description, names_list, note_default};
use super::{Built, DROPPED, Engine, MAP_MARK, Style};
use crate::dialect::support::{admits_null, is_annotation};
use crate::hint::Advice;
use crate::pointer::Pointer;
use crate::restore::RenamedKey;
use crate::restore::rewrite::absent::{with_null, without_null};
use crate::restore::rewrite::entries::{self, EXTRA};
use crate::restore::rewrite::keys;
use crate::restore::{AdaptationKind, Check, Decode, KeysPresent, Node, NodeId, Presence, Prop};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// What [`Engine::object`] built of an object's properties, for [`Engine::finish_object`].
struct ObjectParts<'m> {
    props: &'m Map<String, Value>,
    additional: Option<&'m Value>,
    kept_map: bool,
    map_like: bool,
    renames: Vec<(String, String)>,
    out_props: Map<String, Value>,
    out_required: Vec<Value>,
    plan_props: Vec<Prop>,
}

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

    /// The object keywords of a schema whose type is `object`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn object(
        &mut self,
        m: &Map<String, Value>,
        out: &mut Map<String, Value>,
        node: &mut Node,
        notes: &mut Vec<String>,
        ptr: &mut Pointer,
        depth: usize,
    ) {
        let empty = Map::new();
        let props = m.get("properties").and_then(Value::as_object).unwrap_or(&empty);
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
        let kept_map = map_like && self.p.keeps_maps && patterns.is_none() && plain_keys(m);
        if map_like && !kept_map {
            if props.is_empty() {
                self.map(m, additional, patterns, out, node, notes, ptr, depth);
                return;
            }
            if patterns.is_some() || props.contains_key(EXTRA) {
                self.refuse(
                    "additionalProperties",
                    ptr.as_str(),
                    "an object with both named properties and a map of further keys cannot be written here",
                    Some(Advice::Map.text(self.origin)),
                );
                return;
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
        let required: BTreeSet<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut out_props = Map::new();
        let mut out_required: Vec<Value> = Vec::new();
        let mut plan_props = Vec::new();
        for name in &required {
            if kept_map && !props.contains_key(*name) {
                // A key the map must hold: `required` says it, as it does beside properties.
                out_required.push(Value::String((*name).to_owned()));
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
                out_required.push(Value::String(name.clone()));
            }
            out_props.insert(name.clone(), child);
            plan_props.extend(prop);
        }
        self.finish_object(
            ObjectParts {
                props,
                additional,
                kept_map,
                map_like,
                renames,
                out_props,
                out_required,
                plan_props,
            },
            out,
            node,
            ptr,
            depth,
        );
    }

    /// The end of [`Engine::object`]: a map of further keys beside the properties, the renamed
    /// keys, `properties` and `required` written, the object closed in the provider's terms. A
    /// frame of its own, off the recursion through the properties (a debug build's frames add up
    /// along a schema's depth).
    #[inline(never)]
    fn finish_object(
        &mut self,
        parts: ObjectParts<'_>,
        out: &mut Map<String, Value>,
        node: &mut Node,
        ptr: &mut Pointer,
        depth: usize,
    ) {
        let ObjectParts {
            props,
            additional,
            kept_map,
            map_like,
            renames,
            mut out_props,
            mut out_required,
            mut plan_props,
        } = parts;
        let mut closed = additional == Some(&Value::Bool(false));
        let mut kept_rest = None;
        if kept_map && let Some(value) = additional {
            let mark = ptr.push("additionalProperties");
            let (rest, plan) = self.schema(value, ptr, depth + 1);
            ptr.truncate(mark);
            kept_rest = Some(rest);
            node.rest = plan;
        } else if map_like && let Some(value) = additional {
            // Named properties and a map of further keys (`#[serde(flatten)]` of a map).
            let (entries, plan, keys) = self.entries(
                &serde_json::json!({"type": "string"}),
                value,
                ptr,
                depth,
                "additionalProperties",
            );
            if self.encode(
                ptr.as_str(),
                AdaptationKind::MapAsEntries,
                "additionalProperties",
                "every object must be closed, and this one also holds a map whose keys are not known in advance",
                Advice::Map.text(self.origin),
            ) {
                let mut entries = entries;
                if let Value::Object(e) = &mut entries {
                    finish_description(e, &[], &[entries::note_extra(&names_list(props))]);
                }
                out_props.insert(EXTRA.into(), entries);
                // Always required (an empty list for none): the object stays closable in every
                // provider's terms.
                out_required.push(Value::String(EXTRA.into()));
                let mut declared: Vec<String> = props.keys().cloned().collect();
                declared.sort();
                node.decode = Decode::ExtraEntries(EXTRA.into(), declared, keys);
                node.rest = plan;
            }
            closed = true;
        }
        plan_props.sort_by(|a, b| a.name.cmp(&b.name));
        node.props = plan_props;
        if !renames.is_empty() {
            out_props = send_renamed(renames, out_props, &mut out_required, node);
        }
        out_required.sort_by(|a, b| a.as_str().cmp(&b.as_str()));
        if !(kept_map && out_props.is_empty()) {
            out.insert("properties".into(), Value::Object(out_props));
        }
        if !out_required.is_empty() || self.p.require_all {
            out.insert("required".into(), Value::Array(out_required.clone()));
        }
        match self.p.style {
            Style::NullType if kept_map => {
                out.insert("additionalProperties".into(), kept_rest.unwrap_or(Value::Bool(true)));
            }
            Style::NullType => {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            Style::NullableFlag if closed && map_like => {
                let all_required = out_required.len()
                    == out.get("properties").and_then(Value::as_object).map_or(0, Map::len);
                // With optional properties `maxProperties` cannot close it: it stays open, and
                // restore refuses a key sent beside the entries (the rule is the same with or
                // without `required`).
                if all_required {
                    out.insert("maxProperties".into(), Value::from(out_required.len()));
                }
            }
            Style::NullableFlag if closed => {
                let all_required = out_required.len()
                    == out.get("properties").and_then(Value::as_object).map_or(0, Map::len);
                if all_required {
                    let count = out_required.len() as u64;
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
                    node.checks.push(Check::OnlyKeys(keys));
                }
            }
            Style::NullableFlag => {}
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

    /// A map: `additionalProperties: S` or one `patternProperties` entry, as a list of entries.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn map(
        &mut self,
        m: &Map<String, Value>,
        additional: Option<&Value>,
        patterns: Option<&Map<String, Value>>,
        out: &mut Map<String, Value>,
        node: &mut Node,
        notes: &mut Vec<String>,
        ptr: &mut Pointer,
        depth: usize,
    ) {
        let mut key = serde_json::json!({"type": "string"});
        let value = match (patterns, additional) {
            (None, Some(v)) => v,
            (Some(p), None | Some(Value::Bool(false))) if p.len() == 1 => {
                let (pattern, v) = p.iter().next().unwrap_or_else(|| unreachable!("one entry"));
                key["pattern"] = Value::String(pattern.clone());
                v
            }
            _ => {
                self.refuse(
                    "patternProperties",
                    ptr.as_str(),
                    "a map with several key patterns cannot be written as one list of entries",
                    Some(Advice::Map.text(self.origin)),
                );
                return;
            }
        };
        if let Some(Value::Object(names)) = m.get("propertyNames") {
            for (k, v) in names {
                match k.as_str() {
                    "type" if v == "string" => {}
                    "pattern" if key.get("pattern").is_none() => key["pattern"] = v.clone(),
                    // Two patterns on one key: exact only where the names' pattern admits nothing
                    // the key pattern refuses (an integer-keyed map: schemars' `^\d+$` and the
                    // serde spelling map-keys writes beside it).
                    "pattern"
                        if v.as_str()
                            .zip(key.get("pattern").and_then(Value::as_str))
                            .is_some_and(|(names, keys)| digits_within(names, keys)) =>
                    {
                        key["pattern"] = v.clone();
                    }
                    "minLength" | "maxLength" | "enum" | "format" => {
                        key[k.as_str()] = v.clone();
                    }
                    _ if is_annotation(k) => {}
                    _ => {
                        self.refuse(
                            "propertyNames",
                            ptr.as_str(),
                            format!("a map's key constraint `{k}` cannot be expressed beside its pattern"),
                            None,
                        );
                        return;
                    }
                }
            }
        }
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::MapAsEntries,
            if patterns.is_some() { "patternProperties" } else { "additionalProperties" },
            "every object must be closed (`additionalProperties: false`), and this one is a map whose keys \
             are not known in advance; closing it would refuse every key the code accepts",
            Advice::Map.text(self.origin),
        ) {
            return;
        }
        let (entries, plan, keys) = self.entries(
            &key,
            value,
            ptr,
            depth,
            if patterns.is_some() { "patternProperties" } else { "additionalProperties" },
        );
        let Value::Object(entries) = entries else { return };
        out.remove("properties");
        for (k, v) in entries {
            if k != "description" {
                out.insert(k, v);
            }
        }
        notes.push(entries::NOTE.into());
        for kw in ["minProperties", "maxProperties"] {
            if let Some(v) = m.get(kw)
                && let Some(found) = Check::from_keyword(kw, v)
            {
                node.checks.extend(found);
            }
        }
        node.decode = Decode::Entries(keys);
        node.rest = plan;
        // The caller writes `type: object`; this node is an array now.
        out.insert("type".into(), "array".into());
        out.insert(MAP_MARK.into(), Value::Bool(true));
    }

    /// `{"type": "array", "items": {"key": K, "value": V}}`, the value's plan, and the checks a
    /// key must pass that the provider could not enforce.
    fn entries(
        &mut self,
        key: &Value,
        value: &Value,
        ptr: &mut Pointer,
        depth: usize,
        keyword: &str,
    ) -> (Value, Option<NodeId>, Vec<Check>) {
        let mark = ptr.push("propertyNames");
        let (key_out, key_plan) = self.schema(key, ptr, depth + 1);
        ptr.truncate(mark);
        let key_checks = key_plan.map(|id| self.nodes[id].checks.clone()).unwrap_or_default();
        let mark = ptr.push(keyword);
        let (value_out, plan) = self.schema(value, ptr, depth + 1);
        ptr.truncate(mark);
        (entries::write(key_out, value_out, self.p.style), plan, key_checks)
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

/// Whether a map's keys need no check: no `propertyNames`, or one that only says they are strings.
fn plain_keys(m: &Map<String, Value>) -> bool {
    match m.get("propertyNames") {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(names)) => {
            names.iter().all(|(k, v)| k == "type" && v == "string" || is_annotation(k))
        }
        Some(_) => false,
    }
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

/// Whether every string `names` matches is matched by `keys`, for `keys` one of schemars' two
/// integer-key patterns (`^\d+$`, `^-?\d+$`): `names` is anchored, spells only digits (and a
/// minus sign where `keys` allows one), and needs a digit. Conservative: `false` when unsure.
pub(super) fn digits_within(names: &str, keys: &str) -> bool {
    let signed = match keys {
        "^\\d+$" => false,
        "^-?\\d+$" => true,
        _ => return false,
    };
    let Some(body) = names.strip_prefix('^').and_then(|n| n.strip_suffix('$')) else { return false };
    // Digit classes (`[0-9]`, `[1-9]`, `\d`) stand for one digit each.
    let mut rest = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let class: String = chars.by_ref().take_while(|c| *c != ']').collect();
                let digits = class.chars().all(|c| c.is_ascii_digit() || c == '-')
                    && !class.starts_with('-')
                    && !class.ends_with('-');
                if !digits {
                    return false;
                }
                rest.push('0');
            }
            '\\' if chars.peek() == Some(&'d') => {
                chars.next();
                rest.push('0');
            }
            other => rest.push(other),
        }
    }
    let allowed = |c: char| c.is_ascii_digit() || "()?:|*+{},".contains(c) || signed && c == '-';
    // Every alternative must start (after a sign) with a digit that is not optional: not
    // followed by `*`, `?` or `{0`.
    let needs_digit = |part: &str| {
        let part = part.strip_prefix("-?").or_else(|| part.strip_prefix('-')).unwrap_or(part);
        let mut cs = part.chars();
        let first_is_digit = cs.next().is_some_and(|c| c.is_ascii_digit());
        let after: String = cs.take(2).collect();
        first_is_digit && !after.starts_with('*') && !after.starts_with('?') && !after.starts_with("{0")
    };
    let parts_have_digits = rest.trim_start_matches("(?:").trim_end_matches(')').split('|').all(needs_digit);
    rest.chars().all(allowed) && parts_have_digits
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
