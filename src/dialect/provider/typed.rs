//! A schema of one JSON type: its keywords sorted into kept, moved into restore, encoded,
//! dropped or refused (the keyword tables and the order moved checks are stated in), `format` as
//! bounds, `enum`/`const` values (written as text where the provider cannot list them), and any
//! value as JSON text. Here because every keyword of a typed schema passes through one loop.

use super::describe::{finish_description, join_description};
use super::keywords::{ASSERTIONS, NUMERIC_BOUNDS, admitted, applies, check_rank, listed_values, skipped};
use super::{Built, Draft, Engine, Enums, Style};
use crate::dialect::support::format_as_bounds;
use crate::hint::{Advice, for_keyword};
use crate::pointer::Pointer;
use crate::restore::rewrite::enum_text::{self, Listed};
use crate::restore::rewrite::{TextPlan, case_fold, json_text, schema_text};
use crate::restore::{AdaptationKind, Bound, Check, Decode, Node, TypeSet};
use serde_json::{Map, Value};

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
        let mut draft = Draft {
            out: self.annotations(m),
            node: Node { integer: t == "integer", integer_format, ..Node::default() },
            notes: Vec::new(),
        };
        let (silent, mut out_type) = self.typed_keywords(m, t, nullable, &mut draft, ptr);
        match t {
            // A map written as a list of entries.
            "object" if self.object(m, &mut draft, ptr, depth) => {
                out_type = Value::String("array".into());
            }
            // A tuple written as an object.
            "array" if self.array(m, &mut draft, ptr, depth) => {
                out_type = Value::String("object".into());
            }
            _ => {}
        }
        self.finish_typed(draft, silent, out_type, t, nullable, ptr)
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
        draft: &mut Draft,
        ptr: &mut Pointer,
    ) -> (Vec<Check>, Value) {
        let Draft { out, node, .. } = draft;
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
                "minLength" | "maxLength"
                    if !self.p.lengths_beside_pattern
                        && m.get("pattern").and_then(Value::as_str).is_some_and(self.p.pattern_ok) =>
                {
                    // The provider would read the lengths and drop the pattern beside them.
                    self.move_check(kw, value, ptr, &mut checks);
                }
                "minItems"
                    if self.p.max_min_items.is_some_and(|max| value.as_u64().is_none_or(|n| n > max)) =>
                {
                    self.move_check(kw, value, ptr, &mut checks);
                }
                "exclusiveMinimum" | "exclusiveMaximum"
                    if !self.p.keep.contains(&kw) && t == "integer" && value.as_i64().is_some() =>
                {
                    self.integer_exclusive_bound(kw, value, m, out, ptr, &mut checks);
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
                // A numeric bound is kept where it is a JSON number the provider enforces
                // exactly; a big-integer token (`crate::restore::bound`, an integer past the
                // 64-bit range) never is: no provider documents reading one exactly, and a
                // float keeps it only approximately (Gemini's `Schema` holds a `double`), so it
                // is moved into restore, which compares it exactly.
                _ if self.p.keep.contains(&kw)
                    && (!NUMERIC_BOUNDS.contains(&kw)
                        || (value.is_number() && (self.p.bound_ok)(kw, t, value))) =>
                {
                    out.insert(kw.into(), value.clone());
                }
                // A keyword draft 2020-12 does not define is an annotation (pydantic's
                // `json_schema_extra`, `unit: "%"`): dropped, as the provider does not know it.
                _ if !ASSERTIONS.contains(&kw) => {}
                _ => self.move_check(kw, value, ptr, &mut checks),
            }
        }
        node.checks = checks;
        self.listed(m, t, nullable, draft, &mut out_type, ptr);
        (silent, out_type)
    }

    /// An integer's exclusive bound the provider does not keep (`exclusiveMinimum` or
    /// `exclusiveMaximum`, an `i64`): the inclusive one next to it, exact, where the provider keeps
    /// that and the schema has no tighter one; else moved into restore.
    fn integer_exclusive_bound(
        &mut self,
        kw: &str,
        value: &Value,
        m: &Map<String, Value>,
        out: &mut Map<String, Value>,
        ptr: &mut Pointer,
        checks: &mut Vec<Check>,
    ) {
        let step = if kw == "exclusiveMinimum" { 1 } else { -1 };
        let inclusive = if kw == "exclusiveMinimum" { "minimum" } else { "maximum" };
        match value.as_i64().and_then(|v| v.checked_add(step)) {
            Some(v)
                if self.p.keep.contains(&inclusive)
                    && (self.p.bound_ok)(inclusive, "integer", &Value::from(v)) =>
            {
                // Exactly, a big-integer token included (`crate::restore::Bound`).
                let tighter = m.get(inclusive).and_then(Bound::of).is_some_and(|x| {
                    let order = x.compare(&Bound::from(v));
                    if step > 0 { order.is_ge() } else { order.is_le() }
                });
                if !tighter {
                    out.insert(inclusive.into(), Value::from(v));
                }
            }
            _ => self.move_check(kw, value, ptr, checks),
        }
    }

    /// `const` and `enum`: those of this type and within the numeric bounds beside them (a
    /// listed value the type or a bound refuses is never valid, so leaving it out is exact, and
    /// the bounds can go where numbers are written as text), listed as the provider can.
    fn listed(
        &mut self,
        m: &Map<String, Value>,
        t: &str,
        nullable: bool,
        draft: &mut Draft,
        out_type: &mut Value,
        ptr: &Pointer,
    ) {
        let Draft { out, node, .. } = draft;
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
            && let Some(decode) = self.enum_values(m, &values, nullable, out, out_type, ptr)
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
    }

    /// The type written, Gemini's null-only schema as text, the description finished, the node
    /// pushed: the end of [`Engine::typed`], in a frame of its own.
    #[inline(never)]
    fn finish_typed(
        &mut self,
        draft: Draft,
        silent: Vec<Check>,
        out_type: Value,
        t: &str,
        nullable: bool,
        ptr: &mut Pointer,
    ) -> Built {
        let Draft { mut out, mut node, notes } = draft;
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
        finish_description(&mut out, &constraints, &notes);
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
        let cut = self.original.clone().and_then(|doc| schema_text::SchemaText::from_mark(doc, m));
        self.text_at_cut(cut, m, "$ref", ptr)
    }

    /// A union one of whose branches is a cut beside another that may be a string, or another
    /// cut: the cut's text could not be told from the string (or the other cut's text), so the
    /// whole union, `m`, is one JSON text checked against the union in the original.
    pub(super) fn union_as_schema_text(
        &mut self,
        m: &Map<String, Value>,
        keyword: &str,
        ptr: &mut Pointer,
    ) -> Built {
        let doc = self.original.clone();
        let whole = schema_text::unmarked(&Value::Object(m.clone()), self.max_depth);
        let cut = doc.zip(whole).map(|(doc, whole)| schema_text::SchemaText::new(doc, whole));
        self.text_at_cut(cut, m, keyword, ptr)
    }

    /// `cut` written: a string whose description states its schema (the annotations of `m`
    /// kept), and the plan node that parses, checks and restores it.
    fn text_at_cut(
        &mut self,
        cut: Option<schema_text::SchemaText>,
        m: &Map<String, Value>,
        keyword: &str,
        ptr: &mut Pointer,
    ) -> Built {
        let Some(cut) = cut else {
            self.refuse(
                keyword,
                ptr.as_str(),
                "a cut of a recursion without the schema it was cut from",
                None,
            );
            return (Value::Bool(true), None);
        };
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::SchemaText,
            keyword,
            "the provider cannot express recursion",
            "use the reversible mode (the default), which sends the levels past the recursion depth as JSON text",
        ) {
            return (Value::Bool(true), None);
        }
        let mut out = self.annotations(m);
        out.remove("default");
        let cut = self.with_text_plan(cut);
        let text = schema_text::write(&cut);
        self.write_type(&mut out, "string".into(), false);
        let existing = out.get("description").and_then(Value::as_str).map(str::to_owned);
        out.insert("description".into(), Value::String(join_description(existing.as_deref(), &[text])));
        let node = Node { decode: Decode::SchemaText(Box::new(cut)), ..Node::default() };
        let id = self.push(node);
        (Value::Object(out), id)
    }

    /// `cut` with its subschema's own restore plan (an integral float turned into the integer
    /// where the subschema reads one), made on the first restore that needs it and shared by
    /// the cuts of one schema.
    pub(super) fn with_text_plan(&mut self, cut: schema_text::SchemaText) -> schema_text::SchemaText {
        let key = crate::canonical::to_string(cut.schema());
        let max_depth = self.max_depth;
        let plan = self
            .text_plans
            .entry(key)
            .or_insert_with(|| TextPlan::new(super::integer_plan_in, max_depth))
            .clone();
        cut.with_plan(plan)
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
