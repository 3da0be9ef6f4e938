//! A schema of one JSON type: its keywords sorted into kept, moved into restore, encoded,
//! dropped or refused (the keyword tables and the order moved checks are stated in), `format` as
//! bounds, `enum`/`const` values (written as text where the provider cannot list them), and any
//! value as JSON text. Here because every keyword of a typed schema passes through one loop.

use super::describe::{finish_description, join_description};
use super::{Built, Engine, Enums, MAP_MARK, Style};
use crate::dialect::support::{format_as_bounds, type_names};
use crate::hint::{Advice, for_keyword};
use crate::pointer::Pointer;
use crate::restore::rewrite::enum_text::{self, Listed};
use crate::restore::rewrite::{case_fold, json_text, schema_text};
use crate::restore::{AdaptationKind, Bound, Check, Decode, Node, TypeSet};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The order moved checks are stated in: bounds before lengths before the rest.
fn check_rank(keyword: &str) -> usize {
    const ORDER: &[&str] = &[
        "minimum",
        "exclusiveMinimum",
        "maximum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "additionalProperties",
        "dependentRequired",
        "anyOf",
        "pattern",
        "format",
    ];
    ORDER.iter().position(|k| *k == keyword).unwrap_or(ORDER.len())
}

impl Engine<'_> {
    /// A schema of one JSON type (and maybe null).
    pub(super) fn typed(
        &mut self,
        m: &Map<String, Value>,
        t: &str,
        nullable: bool,
        ptr: &mut Pointer,
        depth: usize,
    ) -> Built {
        let integer_format = t == "integer"
            && m.get("format")
                .and_then(Value::as_str)
                .and_then(crate::dialect::support::integer_format_bounds)
                .is_some();
        // Only an integer with a format the bounds come from needs its own copy.
        let bounded;
        let m = if t == "integer" && m.contains_key("format") {
            let mut copy = m.clone();
            format_as_bounds(&mut copy);
            bounded = copy;
            &bounded
        } else {
            m
        };
        if t == "object" && self.is_free_form(m, ptr) {
            let types = if nullable {
                TypeSet::of_type(&serde_json::json!(["object", "null"]))
            } else {
                TypeSet::of_type(&"object".into())
            };
            return self.json_text(m, types, ptr);
        }
        let mut notes = Vec::new();
        let mut out = self.annotations(m);
        let mut node = Node { integer: t == "integer", integer_format, ..Node::default() };
        let (silent, mut out_type) = self.typed_keywords(m, t, nullable, &mut out, &mut node, ptr);
        match t {
            "object" => {
                self.object(m, &mut out, &mut node, &mut notes, ptr, depth);
                if out.remove(MAP_MARK).is_some() {
                    out_type = Value::String("array".into());
                }
            }
            "array" if self.array(m, &mut out, &mut node, &mut notes, ptr, depth) => {
                out_type = Value::String("object".into());
            }
            _ => {}
        }
        self.finish_typed(out, node, &notes, silent, out_type, t, nullable, ptr)
    }

    /// The keywords of a schema of one type: each kept, moved into restore or dropped, the listed
    /// values written; the checks restore runs without stating them, and the type to write. A
    /// frame of its own, off the recursion through [`Engine::typed`] (a debug build's frames add
    /// up along a schema's depth).
    #[inline(never)]
    fn typed_keywords(
        &mut self,
        m: &Map<String, Value>,
        t: &str,
        nullable: bool,
        out: &mut Map<String, Value>,
        node: &mut Node,
        ptr: &mut Pointer,
    ) -> (Vec<Check>, Value) {
        let mut checks = Vec::new();
        // Checks restore runs that the description need not state (the provider enforces them).
        let mut silent = Vec::new();
        let mut out_type = Value::String(t.to_owned());
        for (kw, value) in m {
            let kw = kw.as_str();
            if skipped(kw) {
                continue;
            }
            if !applies(kw, t) {
                continue;
            }
            match kw {
                "format" => {
                    if value.as_str().is_some_and(|f| self.p.formats.contains(&f)) {
                        out.insert(kw.into(), value.clone());
                    } else if t == "string"
                        && listed_values(m).is_none()
                        && let Some(found) = Check::from_keyword(kw, value)
                    {
                        // A format the code's reader enforces (`IpAddr`, pydantic's `date`):
                        // stated and checked by restore, in exact mode too, as the check changes
                        // nothing the code reads. Any other format is an annotation, dropped.
                        self.adapt_note(ptr.as_str(), AdaptationKind::MovedCheck, kw);
                        checks.extend(found);
                    }
                }
                "pattern" => {
                    if value.as_str().is_some_and(self.p.pattern_ok) {
                        out.insert(kw.into(), value.clone());
                        // Checked in exact mode too: a check undoes nothing, and the provider's
                        // SDK may move the pattern into the description.
                        if self.p.check_kept_patterns
                            && let Some(found) = Check::from_keyword(kw, value)
                        {
                            silent.extend(found);
                        }
                    } else {
                        // Lookaround, a backreference, a large range: stated in the description
                        // and run by restore's backtracking engine, within its step bound.
                        self.move_check(kw, value, ptr, &mut checks);
                    }
                }
                "minItems"
                    if self.p.max_min_items.is_some_and(|max| value.as_u64().is_none_or(|n| n > max)) =>
                {
                    self.move_check(kw, value, ptr, &mut checks);
                }
                "exclusiveMinimum" | "exclusiveMaximum"
                    if !self.p.keep.contains(&kw) && t == "integer" && value.as_i64().is_some() =>
                {
                    // An integer's exclusive bound is the inclusive one next to it: exact.
                    let step = if kw == "exclusiveMinimum" { 1 } else { -1 };
                    let inclusive = if kw == "exclusiveMinimum" { "minimum" } else { "maximum" };
                    match value.as_i64().and_then(|v| v.checked_add(step)) {
                        Some(v) if self.p.keep.contains(&inclusive) => {
                            // Exactly, a big-integer token included (`crate::restore::Bound`).
                            let tighter = m.get(inclusive).and_then(Bound::of).is_some_and(|x| {
                                let order = x.compare(&Bound::from(v));
                                if step > 0 { order.is_ge() } else { order.is_le() }
                            });
                            if !tighter {
                                out.insert(inclusive.into(), Value::from(v));
                            }
                        }
                        _ => self.move_check(kw, value, ptr, &mut checks),
                    }
                }
                "enum" | "const" => {}
                // Not an object: the keyword does not apply.
                "dependencies" if t != "object" => {}
                "dependencies" => {
                    let all_lists = value.as_object().is_some_and(|d| d.values().all(Value::is_array));
                    if all_lists {
                        self.move_check("dependentRequired", value, ptr, &mut checks);
                    } else {
                        self.refuse(
                            "dependencies",
                            ptr.as_str(),
                            "schema dependencies cannot be expressed, and restore cannot check them without a validator",
                            Some(Advice::PlainShape.text(self.origin)),
                        );
                    }
                }
                _ if self.p.keep.contains(&kw) => {
                    out.insert(kw.into(), value.clone());
                }
                // A keyword draft 2020-12 does not define is an annotation (pydantic's
                // `json_schema_extra`, `unit: "%"`): dropped, as the provider does not know it.
                _ if !ASSERTIONS.contains(&kw) => {}
                _ => self.move_check(kw, value, ptr, &mut checks),
            }
        }
        // Values: `const` and `enum`, those of this type and within the numeric bounds beside
        // them (a listed value the type or a bound refuses is never valid, so leaving it out is
        // exact, and the bounds can go where numbers are written as text).
        let values = listed_values(m).map(|vs| admitted(m, vs, t, nullable));
        if values.as_ref().is_some_and(Vec::is_empty) {
            self.refuse(
                if m.contains_key("const") { "const" } else { "enum" },
                ptr.as_str(),
                "no listed value has this type within its bounds: this schema accepts no value, which the provider cannot say",
                Some("remove the position, or list a value it accepts"),
            );
        }
        if let Some(values) = values
            && let Some(decode) = self.enum_values(m, &values, nullable, out, &mut out_type, ptr)
        {
            // Written as text: the listed values say all, and a keyword that judges numbers or
            // names a string `format` would judge the text instead.
            for kw in NUMERIC_BOUNDS.iter().chain(&["format"]) {
                out.remove(*kw);
            }
            node.decode = decode;
            node.integer = false;
            node.integer_format = false;
        } else if self.p.case_insensitive_enums
            && !self.exact
            && let Some(members) = listed_values(m).and_then(|v| case_fold::write(&v))
        {
            node.decode = Decode::CaseFold(members);
        }
        node.checks = checks;
        (silent, out_type)
    }

    /// The type written, Gemini's null-only schema as text, the description finished, the node
    /// pushed: the end of [`Engine::typed`], in a frame of its own.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn finish_typed(
        &mut self,
        mut out: Map<String, Value>,
        mut node: Node,
        notes: &[String],
        silent: Vec<Check>,
        out_type: Value,
        t: &str,
        nullable: bool,
        ptr: &mut Pointer,
    ) -> Built {
        self.write_type(&mut out, out_type, nullable);
        if t == "null"
            && self.p.style == Style::NullableFlag
            && self.encode(
                ptr.as_str(),
                AdaptationKind::EnumAsText,
                "type",
                "a schema that only admits null cannot be written: the provider has no null type",
                "give the position a type other than null, or leave it out",
            )
        {
            // Gemini has no null type: the one value as its JSON text, as other values it cannot
            // list are written.
            if let Some(written) = enum_text::write(&[Value::Null], |_| Listed::Text) {
                out.remove("const");
                out.insert("type".into(), Value::String("string".into()));
                out.insert("enum".into(), Value::Array(written.strings));
                node.decode = Decode::EnumText(written.table);
            }
        }
        if node.decode != Decode::None {
            // A default in the original's terms would contradict the encoded schema.
            out.remove("default");
        }
        node.checks.sort_by_key(|c| check_rank(c.keyword()));
        let constraints = describe_checks(&node);
        finish_description(&mut out, &constraints, notes);
        node.checks.extend(silent);
        let id = self.push(node);
        (Value::Object(out), id)
    }

    fn write_type(&self, out: &mut Map<String, Value>, t: Value, nullable: bool) {
        if !nullable {
            out.insert("type".into(), t);
            return;
        }
        match self.p.style {
            Style::NullType => {
                out.insert("type".into(), Value::Array(vec![t, "null".into()]));
                if let Some(Value::Array(values)) = out.get_mut("enum")
                    && !values.contains(&Value::Null)
                {
                    values.push(Value::Null);
                }
            }
            Style::NullableFlag => {
                out.insert("type".into(), t);
                out.insert("nullable".into(), Value::Bool(true));
            }
        }
    }

    /// Moves an assertion into restore, or refuses it in exact mode.
    fn move_check(&mut self, kw: &str, value: &Value, ptr: &Pointer, checks: &mut Vec<Check>) {
        let Some(found) = Check::from_keyword(kw, value) else {
            self.refuse(
                kw,
                ptr.as_str(),
                format!("`{kw}` cannot be expressed, and restore cannot check it"),
                None,
            );
            return;
        };
        let hint = self.hint(kw);
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::MovedCheck,
            kw,
            &format!("the provider does not enforce `{kw}`, and exact mode refuses to move it into restore"),
            &hint,
        ) {
            return;
        }
        checks.extend(found);
    }

    fn hint(&self, kw: &str) -> String {
        match kw {
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                Advice::Bounds.text(self.origin).into()
            }
            "minItems" | "maxItems" => Advice::ArrayLength.text(self.origin).into(),
            _ => for_keyword(kw, self.origin).unwrap_or_else(|| {
                "use the reversible mode (the default), which checks it on restore".to_owned()
            }),
        }
    }

    /// Any value (or a free-form object) as a string of JSON text.
    pub(super) fn json_text(&mut self, m: &Map<String, Value>, types: TypeSet, ptr: &mut Pointer) -> Built {
        let (keyword, reason, hint) = if types == TypeSet::ALL {
            (
                "type",
                "every schema needs a `type`, and this one has none (it accepts any value)",
                Advice::AnyValue.text(self.origin),
            )
        } else {
            (
                "additionalProperties",
                "a free-form object (no declared properties) cannot be closed without refusing every key the code accepts",
                Advice::FreeForm.text(self.origin),
            )
        };
        let nullable = types != TypeSet::ALL && types.contains(&Value::Null);
        if !self.encode(ptr.as_str(), AdaptationKind::JsonText, keyword, reason, hint) {
            return (Value::Bool(true), None);
        }
        let mut out = self.annotations(m);
        out.remove("default");
        let mut checks = Vec::new();
        for (kw, value) in m {
            if let Some(found) = Check::from_keyword(kw, value) {
                checks.extend(found);
            }
        }
        checks.sort_by_key(|c| check_rank(c.keyword()));
        let text = json_text::write(types, &checks);
        self.write_type(&mut out, "string".into(), nullable);
        let existing = out.get("description").and_then(Value::as_str).map(str::to_owned);
        out.insert("description".into(), Value::String(join_description(existing.as_deref(), &[text])));
        let node = Node { decode: Decode::JsonText(types), checks, ..Node::default() };
        let id = self.push(node);
        (Value::Object(out), id)
    }

    /// A cut past a provider's limit (a [`schema_text::mark`]): a string of JSON text whose
    /// description states the original subschema, which restore checks the parsed value against.
    pub(super) fn schema_text(&mut self, m: &Map<String, Value>, ptr: &mut Pointer) -> Built {
        let Some(cut) = self.original.clone().and_then(|doc| schema_text::SchemaText::from_mark(doc, m))
        else {
            self.refuse(
                "$ref",
                ptr.as_str(),
                "a cut of a recursion without the schema it was cut from",
                None,
            );
            return (Value::Bool(true), None);
        };
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::SchemaText,
            "$ref",
            "the provider cannot express recursion",
            "use the reversible mode (the default), which sends the levels past the recursion depth as JSON text",
        ) {
            return (Value::Bool(true), None);
        }
        let mut out = self.annotations(m);
        out.remove("default");
        let text = schema_text::write(&cut);
        self.write_type(&mut out, "string".into(), false);
        let existing = out.get("description").and_then(Value::as_str).map(str::to_owned);
        out.insert("description".into(), Value::String(join_description(existing.as_deref(), &[text])));
        let node = Node { decode: Decode::SchemaText(Box::new(cut)), ..Node::default() };
        let id = self.push(node);
        (Value::Object(out), id)
    }

    /// `enum`/`const` in the provider's terms. Returns the decode when values had to be written
    /// as text.
    fn enum_values(
        &mut self,
        m: &Map<String, Value>,
        values: &[Value],
        nullable: bool,
        out: &mut Map<String, Value>,
        out_type: &mut Value,
        ptr: &Pointer,
    ) -> Option<Decode> {
        let listable = |v: &Value| match self.p.enums {
            Enums::Any => true,
            Enums::Primitive => !v.is_object() && !v.is_array(),
            // Gemini refuses an empty string in `enum` ("cannot be empty"): written as its JSON text.
            Enums::Strings => v.as_str().is_some_and(|s| !s.is_empty()) || v.is_null() && nullable,
            Enums::StringsAndNumbers => v.is_string() || v.is_number() || v.is_null(),
        };
        if values.iter().all(listable) {
            match (self.p.enums, m.get("const")) {
                (Enums::Strings, _) => {
                    let strings: Vec<Value> = values.iter().filter(|v| v.is_string()).cloned().collect();
                    out.insert("enum".into(), Value::Array(strings));
                }
                // No `const`: a one-value `enum` says the same.
                (Enums::StringsAndNumbers, _) => {
                    out.insert("enum".into(), Value::Array(values.to_vec()));
                }
                (_, Some(c)) => {
                    out.insert("const".into(), c.clone());
                }
                _ => {
                    out.insert("enum".into(), Value::Array(values.to_vec()));
                }
            }
            return None;
        }
        // Write every value the provider cannot list as its JSON text; strings stay themselves.
        let written = enum_text::write(values, |v| match v {
            Value::String(s) if !s.is_empty() || self.p.enums != Enums::Strings => Listed::Itself,
            Value::Null if self.p.style == Style::NullableFlag && nullable => Listed::Omitted,
            _ => Listed::Text,
        });
        let Some(written) = written else {
            self.refuse(
                "enum",
                ptr.as_str(),
                "these values cannot be listed, and writing them as text would make two of them the same string",
                Some("use a string-valued enum (unit variants)"),
            );
            return None;
        };
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::EnumAsText,
            if m.contains_key("const") { "const" } else { "enum" },
            "the provider lists only some kinds of values, and these would have to be written as text",
            "use a string-valued enum (unit variants), or a plain number field",
        ) {
            return None;
        }
        out.remove("const");
        out.insert("enum".into(), Value::Array(written.strings));
        *out_type = Value::String("string".into());
        Some(Decode::EnumText(written.table))
    }
}

/// The words of a node's checks, with the keys the provider is told. Apart from `typed`, which
/// recurses: its frame stays small.
#[inline(never)]
fn describe_checks(node: &Node) -> Vec<String> {
    node.checks.iter().map(|c| c.with_sent_keys(|k| node.decode.sent_key(k).to_owned()).describe()).collect()
}

/// The assertion keywords of draft 2020-12 (and draft-07's `dependencies`) that `typed` may meet:
/// any other keyword it meets is an annotation.
const ASSERTIONS: &[&str] = &[
    "const",
    "contains",
    "dependencies",
    "dependentRequired",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "maxContains",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minContains",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "pattern",
    "uniqueItems",
];

/// Keywords the walk handles itself.
#[cfg(test)]
pub(super) const STRUCTURAL: &[&str] = &[
    "$defs",
    "$ref",
    "additionalItems",
    "additionalProperties",
    "allOf",
    "anyOf",
    "definitions",
    "items",
    "oneOf",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "required",
    "type",
    "unevaluatedItems",
    "unevaluatedProperties",
];

/// Whether `typed` leaves a keyword to another step: an annotation, a keyword the walk handles
/// itself, one with no assertion, an extension. One `match` on the name (the compiler compares
/// lengths first) instead of a scan of each list.
pub(super) fn skipped(kw: &str) -> bool {
    match kw {
        // `walk::META_DATA`
        "$comment" | "default" | "deprecated" | "description" | "examples" | "readOnly" | "title"
        | "writeOnly" => true,
        // STRUCTURAL
        "$defs"
        | "$ref"
        | "additionalItems"
        | "additionalProperties"
        | "allOf"
        | "anyOf"
        | "definitions"
        | "items"
        | "oneOf"
        | "patternProperties"
        | "prefixItems"
        | "properties"
        | "propertyNames"
        | "required"
        | "type"
        | "unevaluatedItems"
        | "unevaluatedProperties" => true,
        // DROPPED
        "$anchor" | "$dynamicAnchor" | "$id" | "$schema" | "$vocabulary" | "contentEncoding"
        | "contentMediaType" | "contentSchema" | "discriminator" | "example" | "nullable"
        | "propertyOrdering" => true,
        _ => kw.starts_with("x-"),
    }
}

/// Which JSON type a keyword constrains (`None`: every type).
fn applies(kw: &str, t: &str) -> bool {
    let family = match kw {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "minLength" | "maxLength" | "pattern" | "format" => "string",
        "minItems" | "maxItems" | "uniqueItems" => "array",
        "minProperties" | "maxProperties" | "dependentRequired" => "object",
        _ => return true,
    };
    family == t || family == "number" && t == "integer" || kw == "format" && matches!(t, "integer" | "number")
}

/// The types a schema declares, from `type`, else from its `const`/`enum` values, else from the
/// keywords it uses (`properties` reads as an object); `None` when nothing says.
pub(super) fn declared_types(m: &Map<String, Value>) -> Option<BTreeSet<&'static str>> {
    const ALL: [&str; 7] = ["array", "boolean", "integer", "null", "number", "object", "string"];
    const OBJECT: &[&str] =
        &["properties", "additionalProperties", "patternProperties", "required", "propertyNames"];
    const ARRAY: &[&str] = &["items", "prefixItems"];
    if let Some(t) = m.get("type") {
        let names = type_names(t);
        let mut set: BTreeSet<&'static str> = ALL.iter().copied().filter(|a| names.contains(a)).collect();
        if set.contains("number") {
            set.remove("integer");
        }
        // Beside `enum` or `const`, a type no listed value has admits nothing: `null` in
        // `type` beside `enum: [1, 2]` must not become a null branch.
        if let Some(values) = listed_values(m) {
            set.retain(|t| values.iter().any(|v| has_type(v, t)));
        }
        return Some(set);
    }
    if let Some(values) = listed_values(m) {
        let mut set: BTreeSet<&'static str> = values.iter().map(crate::dialect::support::json_type).collect();
        if set.contains("number") {
            set.remove("integer");
        }
        return Some(set);
    }
    if OBJECT.iter().any(|k| m.contains_key(*k)) {
        return Some(BTreeSet::from(["object"]));
    }
    if ARRAY.iter().any(|k| m.contains_key(*k)) {
        return Some(BTreeSet::from(["array"]));
    }
    None
}

/// The keywords that judge only numbers.
const NUMERIC_BOUNDS: &[&str] = &["exclusiveMaximum", "exclusiveMinimum", "maximum", "minimum", "multipleOf"];

/// The listed `values` a schema of type `t` (with null when `nullable`) and its numeric bounds
/// admit.
fn admitted(m: &Map<String, Value>, mut values: Vec<Value>, t: &str, nullable: bool) -> Vec<Value> {
    let bounds: Vec<Check> = NUMERIC_BOUNDS
        .iter()
        .filter_map(|kw| m.get(*kw).and_then(|v| Check::from_keyword(kw, v)))
        .flatten()
        .collect();
    values.retain(|v| {
        (has_type(v, t) || v.is_null() && (nullable || t == "null")) && bounds.iter().all(|c| c.passes(v))
    });
    values
}

pub(super) fn listed_values(m: &Map<String, Value>) -> Option<Vec<Value>> {
    if let Some(c) = m.get("const") {
        return Some(vec![c.clone()]);
    }
    m.get("enum").and_then(Value::as_array).filter(|v| !v.is_empty()).cloned()
}

/// Whether `v` is of the JSON Schema type `t` (an integral float is an `integer`, an integer a
/// `number`).
pub(super) fn has_type(v: &Value, t: &str) -> bool {
    match (v, t) {
        (Value::Number(_), "number") => true,
        (Value::Number(n), "integer") => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => crate::dialect::support::json_type(v) == t,
    }
}

/// A union of one branch per JSON type, among them a free-form object, a string and an array:
/// the object would be written as JSON text, a string like the string branch's, and as a list of
/// entries ([`free_form_as_map`]) it would be an array like the array branch's (`[]` is both the
/// empty map and the empty list), so restore could tell neither apart (codemcp's
/// `str | dict | list | None`). Written whole as one JSON text instead, for a provider that does
/// not keep maps: restore parses it and finds a value of one of the branches' types,
/// and the branches' own assertions each judge values of their branch's type only, so together
/// they are the checks of the parsed value, exactly. `None` where the union is not of that kind
/// (a reference, a branch sharing a type with another, an `enum`, declared properties, any
/// keyword restore does not check): the union is built branch by branch.
///
/// `own` is the union's own assertions, which hold in every branch.
pub(super) fn text_union(
    own: &Map<String, Value>,
    branches: &[Value],
) -> Option<(Map<String, Value>, TypeSet)> {
    let none = TypeSet::of_type(&Value::Array(Vec::new()));
    let mut types = none;
    let mut checks: Map<String, Value> = Map::new();
    let (mut object, mut string, mut array) = (false, false, false);
    for branch in branches {
        let Value::Object(b) = branch else { return None };
        let t = match b.get("type").or_else(|| own.get("type")) {
            Some(Value::String(t)) => t.as_str(),
            _ => return None,
        };
        let mine = TypeSet::of_type(&Value::String(t.to_owned()));
        if types.intersection(mine) != none {
            return None;
        }
        types = types.union(mine);
        for (kw, v) in own.iter().chain(b.iter()) {
            let kw = kw.as_str();
            if kw == "type" || crate::dialect::support::is_annotation(kw) {
                continue;
            }
            // A keyword of another type's family says nothing of this branch's values.
            if !applies(kw, t) {
                continue;
            }
            let fits = match (kw, t) {
                ("properties", "object") => v.as_object().is_some_and(Map::is_empty),
                ("required", "object") => v.as_array().is_some_and(Vec::is_empty),
                ("additionalProperties", "object") => v == &Value::Bool(true),
                ("maxProperties", "object") => v.as_u64().is_some_and(|n| n > 0),
                ("items", "array") => v == &Value::Bool(true) || v.as_object().is_some_and(Map::is_empty),
                // An annotation in draft 2020-12, which a provider that cannot list it drops too.
                ("format", "string") => true,
                ("enum" | "const" | "dependentRequired", _) => false,
                _ => Check::from_keyword(kw, v).is_some(),
            };
            if !fits {
                return None;
            }
            if Check::from_keyword(kw, v).is_some() {
                if checks.get(kw).is_some_and(|old| old != v) {
                    return None;
                }
                checks.insert(kw.to_owned(), v.clone());
            }
        }
        object |= t == "object";
        string |= t == "string";
        array |= t == "array";
    }
    (object && string && array).then_some((checks, types))
}

/// A free-form object (`type: object`, no declared properties, none required, further keys
/// open, nothing else but counts of keys, annotations and other types' keywords) as the map of
/// any values it is (`additionalProperties: {}`), for a union where another
/// branch admits strings: alone the object would be JSON text, a string like that branch's; as a
/// map it is written as a list of entries (or kept as a map), which no string is. Exact: both admit
/// every object. `None` for any other branch.
pub(super) fn free_form_as_map(branch: &Value) -> Option<Value> {
    let Value::Object(b) = branch else { return None };
    let free = b.get("type") == Some(&Value::String("object".into()))
        && b.iter().all(|(k, v)| match k.as_str() {
            "type" | "minProperties" => true,
            "properties" => v.as_object().is_some_and(Map::is_empty),
            "required" => v.as_array().is_some_and(Vec::is_empty),
            "additionalProperties" => v == &Value::Bool(true),
            "maxProperties" => v.as_u64().is_some_and(|n| n > 0),
            // A keyword of another type's family (a `type` list's `maxLength`, split into this
            // branch) says nothing of an object.
            k => crate::dialect::support::is_annotation(k) || !applies(k, "object"),
        });
    free.then(|| {
        let mut map = b.clone();
        map.retain(|k, _| applies(k, "object"));
        map.remove("properties");
        map.insert("additionalProperties".into(), Value::Object(Map::new()));
        Value::Object(map)
    })
}
