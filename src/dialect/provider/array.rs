//! Arrays: `items` as they are, and a tuple of fixed length as an object with keys `"0"`, `"1"`,
//! and so on. Apart because a tuple is the one array the engine re-shapes.

use super::{Draft, Engine};
use crate::hint::Advice;
use crate::pointer::Pointer;
use crate::restore::rewrite::tuple;
use crate::restore::{AdaptationKind, Check, Decode, Node};
use serde_json::{Map, Value};

impl Engine<'_> {
    /// The array keywords of a schema whose type is `array`. Returns `true` when the array was
    /// written as an object (a tuple).
    pub(super) fn array(
        &mut self,
        m: &Map<String, Value>,
        draft: &mut Draft,
        ptr: &mut Pointer,
        depth: usize,
    ) -> bool {
        let Draft { out, node, notes } = draft;
        let prefix = match (m.get("prefixItems"), m.get("items")) {
            (Some(Value::Array(p)), _) => Some((p, "prefixItems")),
            (None, Some(Value::Array(p))) => Some((p, "items")),
            _ => None,
        };
        if let Some((members, keyword)) = prefix {
            if self.p.keeps_tuples {
                self.prefix_items(m, members, keyword, out, node, ptr, depth);
                return false;
            }
            return self.tuple(m, members, keyword, out, node, notes, ptr, depth);
        }
        // An array without `items` holds any values: OpenAI refuses it ("array schema missing
        // items"), Gemini too ("items: missing field"), so its items are written as every
        // untyped value is.
        // An `enum` or `const` of arrays already says every item, and its values are sent as
        // they are: items written as JSON text would contradict them.
        let any = Value::Bool(true);
        let items = match m.get("items") {
            Some(items) => items,
            None if m.contains_key("enum") || m.contains_key("const") => return false,
            None => &any,
        };
        let mark = ptr.push("items");
        let (child, plan) = self.schema(items, ptr, depth + 1);
        ptr.truncate(mark);
        out.insert("items".into(), child);
        node.items = plan;
        false
    }

    /// Leading items (`prefixItems`, or draft 7's `items` list) as `prefixItems`, for a provider
    /// that takes it; the items after them (`items`, draft 7's `additionalItems`) as `items`, or
    /// `maxItems` where there are none.
    #[allow(clippy::too_many_arguments)]
    fn prefix_items(
        &mut self,
        m: &Map<String, Value>,
        members: &[Value],
        keyword: &str,
        out: &mut Map<String, Value>,
        node: &mut Node,
        ptr: &mut Pointer,
        depth: usize,
    ) {
        let mut written = Vec::with_capacity(members.len());
        let mut prefix = Vec::with_capacity(members.len());
        for (i, member) in members.iter().enumerate() {
            let mark = ptr.push(keyword);
            ptr.push_index(i);
            let (child, plan) = self.schema(member, ptr, depth + 1);
            ptr.truncate(mark);
            written.push(child);
            prefix.push(plan);
        }
        out.insert("prefixItems".into(), Value::Array(written));
        let rest_keyword = if keyword == "prefixItems" { "items" } else { "additionalItems" };
        let n = members.len() as u64;
        let within = m.get("maxItems").and_then(Value::as_u64).is_some_and(|max| max <= n);
        match m.get(rest_keyword) {
            // No items past the leading ones: `maxItems` says it.
            Some(Value::Bool(false)) => {
                if !within {
                    out.insert("maxItems".into(), n.into());
                }
            }
            None if within => {}
            rest => {
                let any = Value::Bool(true);
                let mark = ptr.push(rest_keyword);
                let (child, plan) = self.schema(rest.unwrap_or(&any), ptr, depth + 1);
                ptr.truncate(mark);
                out.insert("items".into(), child);
                node.items = plan;
            }
        }
        node.prefix = prefix;
    }

    /// A tuple (`prefixItems` of fixed length) as an object with keys `"0"`, `"1"`, ...
    #[allow(clippy::too_many_arguments)]
    fn tuple(
        &mut self,
        m: &Map<String, Value>,
        members: &[Value],
        keyword: &str,
        out: &mut Map<String, Value>,
        node: &mut Node,
        notes: &mut Vec<String>,
        ptr: &mut Pointer,
        depth: usize,
    ) -> bool {
        let n = members.len() as u64;
        let rest_closed = match (keyword, m.get("items"), m.get("additionalItems")) {
            ("prefixItems", Some(Value::Bool(false)), _) | ("items", _, Some(Value::Bool(false))) => true,
            _ => m.get("maxItems").and_then(Value::as_u64).is_some_and(|max| max <= n),
        };
        let fixed = rest_closed && m.get("minItems").and_then(Value::as_u64).is_some_and(|min| min >= n);
        if !fixed {
            self.refuse(
                keyword,
                ptr.as_str(),
                "a tuple whose length is not fixed cannot be written",
                Some(Advice::Tuple.text(self.origin)),
            );
            return false;
        }
        if !self.encode(
            ptr.as_str(),
            AdaptationKind::TupleAsObject,
            keyword,
            "a tuple cannot be expressed",
            Advice::Tuple.text(self.origin),
        ) {
            return false;
        }
        let mut written = Vec::with_capacity(members.len());
        let mut prefix = Vec::new();
        for (i, member) in members.iter().enumerate() {
            let mark = ptr.push(keyword);
            ptr.push_index(i);
            let (child, plan) = self.schema(member, ptr, depth + 1);
            ptr.truncate(mark);
            written.push(child);
            prefix.push(plan);
        }
        for kw in ["minItems", "maxItems", "items", "prefixItems", "additionalItems", "uniqueItems"] {
            out.remove(kw);
        }
        if m.get("uniqueItems") == Some(&Value::Bool(true)) {
            node.checks.push(Check::UniqueItems);
        }
        notes.push(tuple::write(written, out, self.p.style));
        node.decode = Decode::Tuple(members.len());
        node.prefix = prefix;
        true
    }
}
