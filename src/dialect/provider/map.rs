//! Maps: `additionalProperties: S` or one `patternProperties` entry written as a list of
//! `{"key": K, "value": V}` entries, where the provider closes every object or has no map of its
//! own; the key's constraints go with the key, where restore checks each.

use super::{Draft, Engine};
use crate::dialect::support::is_annotation;
use crate::hint::Advice;
use crate::pointer::Pointer;
use crate::restore::rewrite::entries;
use crate::restore::{AdaptationKind, Check, Decode, NodeId};
use serde_json::{Map, Value};

impl Engine<'_> {
    /// A map: `additionalProperties: S` or one `patternProperties` entry, as a list of entries.
    /// `true` where it was written so (the caller writes `type: array`); `false` where it was
    /// refused.
    pub(super) fn map(
        &mut self,
        m: &Map<String, Value>,
        additional: Option<&Value>,
        patterns: Option<&Map<String, Value>>,
        draft: &mut Draft,
        ptr: &mut Pointer,
        depth: usize,
    ) -> bool {
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
                return false;
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
                        return false;
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
            return false;
        }
        let (entries, plan, keys) = self.entries(
            &key,
            value,
            ptr,
            depth,
            if patterns.is_some() { "patternProperties" } else { "additionalProperties" },
        );
        let Value::Object(entries) = entries else { return false };
        draft.out.remove("properties");
        for (k, v) in entries {
            if k != "description" {
                draft.out.insert(k, v);
            }
        }
        draft.notes.push(entries::NOTE.into());
        for kw in ["minProperties", "maxProperties"] {
            if let Some(v) = m.get(kw)
                && let Some(found) = Check::from_keyword(kw, v)
            {
                draft.node.checks.extend(found);
            }
        }
        draft.node.decode = Decode::Entries(keys);
        draft.node.rest = plan;
        draft.out.insert("type".into(), "array".into());
        true
    }

    /// `{"type": "array", "items": {"key": K, "value": V}}`, the value's plan, and the checks a
    /// key must pass that the provider could not enforce.
    pub(super) fn entries(
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

/// Whether a map's keys need no check: no `propertyNames`, or one that only says they are strings.
pub(super) fn plain_keys(m: &Map<String, Value>) -> bool {
    match m.get("propertyNames") {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(names)) => {
            names.iter().all(|(k, v)| k == "type" && v == "string" || is_annotation(k))
        }
        Some(_) => false,
    }
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
