//! `OUTLINES`: the JSON Schema outlines-core turns into a regular expression, for self-hosted
//! models whose server constrains decoding with it (`outlines`, vLLM's and SGLang's `outlines`
//! guided-decoding backend, TGI's grammars).
//!
//! outlines-core (`build_regex_from_schema`, version 0.2.11) reports nothing: a keyword it does not
//! read is ignored, silently. The rules, read from its code ([OC-SRC]
//! `dottxt-ai/outlines-core:src/json_schema/parsing.rs` and `types.rs` at 0.2.11) and its errors
//! ([OC-RUN], recorded in `tests/provider_rules`):
//! - one keyword decides what a schema is, the first present of `properties`, `allOf`, `anyOf`,
//!   `oneOf`, `prefixItems`, `enum`, `const`, `$ref`, `type`; everything beside it is ignored
//!   (`type` and `additionalProperties` beside `properties`, `items` and the item counts beside
//!   `prefixItems`) [OC-SRC] `to_regex`;
//! - objects with `properties`: closed, in the order of `properties`, optional properties
//!   optional; a property key is written into the regex unescaped for JSON (a key holding `"`,
//!   `\` or a control character produces text that is not JSON, or another key); without
//!   `properties`, `additionalProperties` is the values' schema (`false` is an error,
//!   "Unsupported JSON Schema structure"), `minProperties`/`maxProperties` count the pairs
//!   written, a repeated key included;
//! - strings: `minLength`/`maxLength` (then `pattern` and `format` are ignored), else `pattern`
//!   (matched against the string's JSON text between its quotes, whole: `^` and `$` are dropped
//!   only where both are there), else `format` of `date-time`, `date`, `time`, `uuid`, `uri`,
//!   `email`, each an approximation (`date-time` and `time` without an offset and `Z` optional,
//!   `time`'s fraction a literal backslash and any character, `date` with Unicode digits and any
//!   day up to 31, `uuid` and `email` lower case only, `uri` only `http`, `https`, `ftp`, `urn`);
//!   any other format is an error ("Format binary is not supported"); a string holds no escape
//!   but `\"` and `\\` and no character U+007F to U+009F;
//! - numbers and integers: any, every bound ignored (`minimum`, `maximum`, `exclusiveMinimum`,
//!   `exclusiveMaximum`, `multipleOf`); an exponent needs its sign (`1e+5`);
//! - arrays: `items`, `minItems`, `maxItems`; `uniqueItems` and `contains` ignored; `prefixItems`
//!   exactly as many items as it lists; `items: false` an error;
//! - `enum`/`const`: strings, numbers, booleans, null ("Unsupported data type in enum");
//! - `anyOf` and `oneOf` as alternatives (`oneOf` not exclusive), `allOf` as its branches'
//!   texts one after the other (two objects make `{...}{...}`), `not` and `if` ignored where a
//!   keyword above decides and an error otherwise ("Unsupported JSON Schema structure", as for
//!   `{}` with an annotation);
//! - `$ref`: local only, at most four nested (a property past that is left out, silently).
//!
//! ```
//! use serde_json::json;
//! use toolschema::dialect::{self, AdaptContext, OUTLINES};
//! let schema = json!({"type": "object", "properties": {
//!     "code": {"type": "string", "pattern": "^[A-Z]{2}$", "maxLength": 2},
//!     "qty": {"type": "integer", "minimum": 1},
//!     "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}
//! }, "required": ["code", "qty", "tags"]});
//! let adapted = dialect::adapt(&OUTLINES, schema, &AdaptContext::default()).unwrap();
//! let props = &adapted.schema["properties"];
//! // outlines-core runs an anchored pattern, and ignores it beside a length: the length goes
//! // into restore, stated in the description.
//! assert_eq!(props["code"]["pattern"], "^[A-Z]{2}$");
//! assert!(props["code"].get("maxLength").is_none());
//! // It ignores every numeric bound and `uniqueItems`: restore checks them.
//! assert!(props["qty"].get("minimum").is_none());
//! assert!(adapted.plan.restore(json!({"code": "AB", "qty": 0, "tags": []})).is_err());
//! assert!(adapted.plan.restore(json!({"code": "AB", "qty": 1, "tags": ["a", "a"]})).is_err());
//! ```
//!
//! # How it works
//! The provider engine (`src/dialect/provider/`) with this profile:
//! - **kept** (outlines-core enforces them): `type` (a list with `"null"` included),
//!   `properties`, `required` (optional properties stay optional), `additionalProperties` of a
//!   map without named properties, `items`, `prefixItems` of a tuple of fixed length, `anyOf`,
//!   `const` and `enum` of primitive values, `minItems`, `maxItems`, `minLength`, `maxLength`,
//!   and a `pattern` outlines-core runs as ECMA-262 reads it and only ever writes JSON with
//!   (anchored at both ends, no `|` outside a group, no `.`, negated class, `\s` or range that
//!   could match a quote, a backslash or a control character; checked by restore as well, where
//!   `\d` and `\w` are ASCII); annotations `description`, `title`, `default`;
//! - **moved into restore** (stated in the description, checked on restore): every numeric
//!   bound, `uniqueItems`, `minProperties`, `maxProperties`, `dependentRequired`, every `format`
//!   restore checks, lengths beside a kept pattern, and a pattern outlines-core would run
//!   otherwise;
//! - **encoded**: references inlined (recursion written out to the depth asked for, deeper
//!   levels as JSON text), free-form objects and untyped values as JSON text, a map beside named
//!   properties or with a key constraint as a list of `{"key", "value"}` entries, a property key
//!   with `"`, `\` or a control character under another name, a root that is not an object as
//!   `{"value": ...}`;
//! - `oneOf` as `anyOf` where the branches are provably disjoint, `allOf` merged where exact;
//! - **refused**: `not`, `if`/`then`/`else`, `contains`, `dependentSchemas`, overlapping `oneOf`,
//!   a tuple whose length is not fixed, and anything a final check over the output finds that
//!   outlines-core would read otherwise than JSON Schema does.

use super::provider::{self, Enums, KeyRule, Profile, Refs, Style};
use super::support::{sort_errors, unsupported};
use super::{AdaptContext, Adapted, SchemaDialect};
use crate::error::CapabilityError;
use crate::hint::Origin;
use serde_json::{Map, Value};

/// outlines-core's JSON Schema (see the module docs). Its name is `outlines`.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Outlines;

/// The [`Outlines`] dialect.
pub static OUTLINES: Outlines = Outlines;

const NAME: &str = "outlines";

/// The keywords the engine may write for outlines-core: those it reads, and the annotations.
const FIELDS: &[&str] = &[
    "additionalProperties",
    "anyOf",
    "const",
    "default",
    "description",
    "enum",
    "items",
    "maxItems",
    "maxLength",
    "minItems",
    "minLength",
    "pattern",
    "prefixItems",
    "properties",
    "required",
    "title",
    "type",
];

/// Property keys outlines-core writes into its regex as they are: no `"`, `\` or control
/// character, which a JSON string would escape.
const KEYS: KeyRule = KeyRule {
    max_len: usize::MAX,
    extra: " !#$%&'()*+,-./:;<=>?@[]^_`{|}~",
    pattern: "^[^\"\\\\\\u0000-\\u001f\\u007f-\\u009f]+$",
    top_level_only: false,
    non_ascii: true,
};

/// The engine's parameters for outlines-core ([OC-SRC]).
pub(crate) static PROFILE: Profile = Profile {
    name: NAME,
    refs: Refs::Inline,
    style: Style::NullType,
    require_all: false,
    keep: &["maxItems", "maxLength", "minItems", "minLength", "pattern"],
    annotations: &["default", "description", "title"],
    formats: &[],
    enums: Enums::Primitive,
    max_min_items: None,
    pattern_ok,
    bound_ok: |_, _, _| false,
    lengths_beside_pattern: false,
    maps_beside_properties: false,
    case_insensitive_enums: false,
    check_kept_patterns: true,
    keeps_maps: true,
    keeps_tuples: true,
    absent_for_null: false,
    keys: Some(KEYS),
};

/// Whether outlines-core runs `pattern` as ECMA-262 reads it and only ever writes JSON with it:
/// anchored at both ends with no `|` outside a group (outlines-core drops the anchors and matches
/// the whole string), and nothing that could match `"`, `\` or a control character (outlines-core
/// puts the pattern between the string's quotes as it is): no `.`, no negated class, no `\s`,
/// `\S`, `\D`, `\W`, a class's ranges clear of them; groups only `(...)` and `(?:...)`; escapes
/// only `\d`, `\w` and punctuation. Any other is moved into restore.
pub(crate) fn pattern_ok(pattern: &str) -> bool {
    let Some(inner) = pattern.strip_prefix('^').and_then(|p| p.strip_suffix('$')) else { return false };
    if inner.ends_with('\\') && inner.chars().rev().take_while(|c| *c == '\\').count() % 2 == 1 {
        return false; // the `$` is escaped
    }
    let chars: Vec<char> = inner.chars().collect();
    let (mut i, mut depth) = (0, 0usize);
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                if !escape_ok(chars.get(i + 1).copied(), true) {
                    return false;
                }
                i += 2;
                continue;
            }
            '[' => match class_end(&chars, i + 1) {
                Some(end) => i = end,
                None => return false,
            },
            '(' => {
                if chars.get(i + 1) == Some(&'?') && chars.get(i + 2) != Some(&':') {
                    return false;
                }
                depth += 1;
            }
            ')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            '|' if depth == 0 => return false,
            '{' => {
                let close = chars[i..].iter().position(|c| *c == '}').map(|p| i + p);
                let Some(close) = close else { return false };
                let body: String = chars[i + 1..close].iter().collect();
                let mut parts = body.splitn(2, ',');
                let lo = parts.next().unwrap_or_default();
                let hi = parts.next();
                let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
                if !digits(lo) || hi.is_some_and(|h| !h.is_empty() && !digits(h)) {
                    return false;
                }
                i = close;
            }
            '.' | '^' | '$' | ']' | '}' | '"' => return false,
            c if c.is_control() => return false,
            _ => {}
        }
        i += 1;
    }
    depth == 0
}

/// Whether `\c` can only match characters a JSON string holds unescaped (`class`: outside a class,
/// where `\b` is a word boundary rather than a character).
fn escape_ok(c: Option<char>, outside: bool) -> bool {
    match c {
        Some('d' | 'w') => true,
        Some(c) => c.is_ascii_punctuation() && c != '"' && c != '\\' && (outside || c != '^'),
        None => false,
    }
}

/// Where the class opened before `start` ends (the index of its `]`), where every character it
/// admits is one a JSON string holds unescaped; `None` otherwise (a negated class, a set
/// operation, an unsafe range or character).
fn class_end(chars: &[char], start: usize) -> Option<usize> {
    if matches!(chars.get(start), Some('^' | ']')) {
        return None;
    }
    let mut i = start;
    let mut prev: Option<char> = None;
    while i < chars.len() {
        let (c, next) = match chars[i] {
            ']' => return Some(i),
            '[' | '"' => return None,
            '&' | '~' | '-' if chars.get(i + 1) == Some(&chars[i]) => return None,
            '\\' => match chars.get(i + 1).copied() {
                Some('d' | 'w') => (None, i + 2),
                c if escape_ok(c, false) => (c, i + 2),
                _ => return None,
            },
            '-' if prev.is_some() && chars.get(i + 1).is_some_and(|c| *c != ']') => {
                let lo = prev.take()?;
                let (hi, next) = match chars.get(i + 1) {
                    Some('\\') if escape_ok(chars.get(i + 2).copied(), false) => {
                        (chars.get(i + 2).copied().filter(|c| !matches!(c, 'd' | 'w'))?, i + 3)
                    }
                    Some('\\' | '[' | '"') | None => return None,
                    Some(c) => (*c, i + 2),
                };
                if hi < lo || (lo..=hi).contains(&'"') || (lo..=hi).contains(&'\\') || !char_ok(lo) {
                    return None;
                }
                if (lo..=hi).any(char::is_control) {
                    return None;
                }
                i = next;
                continue;
            }
            c => (Some(c), i + 1),
        };
        if c.is_some_and(|c| !char_ok(c)) {
            return None;
        }
        prev = c;
        i = next;
    }
    None
}

/// A character a JSON string holds unescaped and outlines-core's string class admits.
fn char_ok(c: char) -> bool {
    c != '"' && c != '\\' && !c.is_control()
}

impl SchemaDialect for Outlines {
    fn name(&self) -> &str {
        NAME
    }

    /// What outlines-core ignores or misreads: the engine never writes them, and the scan after
    /// `adapt` makes sure of it.
    fn forbidden_keywords(&self) -> &[&str] {
        &[
            "$defs",
            "$dynamicRef",
            "$ref",
            "allOf",
            "contains",
            "dependentRequired",
            "dependentSchemas",
            "else",
            "exclusiveMaximum",
            "exclusiveMinimum",
            "format",
            "if",
            "maxContains",
            "maxProperties",
            "maximum",
            "minContains",
            "minProperties",
            "minimum",
            "multipleOf",
            "not",
            "oneOf",
            "patternProperties",
            "propertyNames",
            "then",
            "unevaluatedItems",
            "unevaluatedProperties",
            "uniqueItems",
        ]
    }

    fn hint_for(&self, keyword: &str, origin: Origin) -> Option<String> {
        crate::hint::for_keyword(keyword, origin)
    }

    fn adapt(&self, schema: Value, cx: &AdaptContext<'_>) -> Result<Adapted, Vec<CapabilityError>> {
        let mut adapted = provider::adapt(&PROFILE, schema, cx)?;
        let mut errors = Vec::new();
        let hint = |key: &str| self.hint_for(key, cx.origin);
        super::support::unknown_fields(NAME, &adapted.schema, FIELDS, cx.max_depth, &hint, &mut errors);
        finish(&mut adapted.schema, String::new(), cx.max_depth, &mut errors);
        if errors.is_empty() {
            Ok(adapted)
        } else {
            sort_errors(&mut errors);
            Err(errors)
        }
    }
}

/// The output as outlines-core reads it: a closed object without properties gets
/// `"properties": {}` (outlines-core cannot compile `additionalProperties: false` alone; the two
/// mean the same), and whatever outlines-core would read otherwise than JSON Schema does is an
/// error (the engine should never write it): keywords beside the one that decides, a tuple whose
/// length is not fixed, a key it would write unescaped, a length beside a pattern.
fn finish(schema: &mut Value, at: String, budget: usize, errors: &mut Vec<CapabilityError>) {
    let Value::Object(m) = schema else {
        if schema.is_boolean() {
            errors.push(misread(&at, "a boolean schema", "outlines-core compiles no boolean schema"));
        }
        return;
    };
    let Some(budget) = budget.checked_sub(1) else {
        errors.push(super::support::too_deep(NAME, 0, at));
        return;
    };
    let is_object = m.get("type").and_then(Value::as_str) == Some("object");
    if is_object
        && m.get("additionalProperties") == Some(&Value::Bool(false))
        && !m.contains_key("properties")
    {
        m.insert("properties".into(), Value::Object(Map::new()));
    }
    check_node(m, &at, errors);
    for (key, child) in m.iter_mut() {
        match (key.as_str(), child) {
            ("properties", Value::Object(props)) => {
                for (name, s) in props.iter_mut() {
                    let at = format!("{at}/properties/{}", crate::pointer::fragment_token(name));
                    finish(s, at, budget, errors);
                }
            }
            ("anyOf" | "prefixItems", Value::Array(items)) => {
                for (i, s) in items.iter_mut().enumerate() {
                    finish(s, format!("{at}/{key}/{i}"), budget, errors);
                }
            }
            ("items" | "additionalProperties", s) if !s.is_boolean() || key == "items" => {
                finish(s, format!("{at}/{key}"), budget, errors);
            }
            _ => {}
        }
    }
}

/// One schema's keywords against outlines-core's reading of them ([`finish`]).
fn check_node(m: &Map<String, Value>, at: &str, errors: &mut Vec<CapabilityError>) {
    let deciding = ["properties", "anyOf", "prefixItems", "enum", "const"];
    let present: Vec<&str> = deciding.iter().copied().filter(|k| m.contains_key(*k)).collect();
    if present.len() > 1 && present != ["enum", "const"] {
        errors.push(misread(at, present[1], "outlines-core reads only the first of these keywords"));
    }
    if m.contains_key("anyOf")
        && m.keys().any(|k| !matches!(k.as_str(), "anyOf" | "description" | "title" | "default"))
    {
        errors.push(misread(at, "anyOf", "outlines-core ignores every keyword beside `anyOf`"));
    }
    if m.contains_key("properties") {
        if !matches!(m.get("additionalProperties"), None | Some(Value::Bool(false))) {
            errors.push(misread(
                at,
                "additionalProperties",
                "outlines-core closes an object with properties",
            ));
        }
        let keys = m.get("properties").and_then(Value::as_object).into_iter().flat_map(Map::keys);
        for key in keys.filter(|k| !k.chars().all(char_ok)) {
            errors.push(misread(at, "properties", format!("outlines-core writes the key `{key}` unescaped")));
        }
    }
    if (m.contains_key("properties") || m.contains_key("prefixItems"))
        && m.get("type").is_some_and(Value::is_array)
    {
        errors.push(misread(at, "type", "outlines-core ignores `type` beside properties or prefixItems"));
    }
    if let Some(prefix) = m.get("prefixItems").and_then(Value::as_array) {
        let n = prefix.len() as u64;
        let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let closed = m.get("maxItems").and_then(Value::as_u64).is_some_and(|max| max <= n)
            || m.get("items") == Some(&Value::Bool(false));
        if min < n || !closed {
            errors.push(misread(
                at,
                "prefixItems",
                "outlines-core writes exactly the items `prefixItems` lists",
            ));
        }
    }
    if m.contains_key("pattern") && (m.contains_key("minLength") || m.contains_key("maxLength")) {
        errors.push(misread(at, "pattern", "outlines-core ignores a pattern beside minLength or maxLength"));
    }
    if m.get("type").and_then(Value::as_str) == Some("object")
        && !m.contains_key("properties")
        && !m.get("additionalProperties").is_some_and(Value::is_object)
    {
        errors.push(misread(at, "type", "outlines-core reads an object without properties as any values"));
    }
}

fn misread(at: &str, keyword: &str, reason: impl Into<String>) -> CapabilityError {
    unsupported(NAME, keyword, at, reason, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(s: Value) -> Result<Adapted, Vec<CapabilityError>> {
        OUTLINES.adapt(s, &AdaptContext::new(128, Some("T")))
    }

    #[test]
    fn only_anchored_patterns_that_write_json_are_kept() {
        for ok in
            ["^[A-Z]{2}$", "^\\d+(\\.\\d+)?$", "^[a-z0-9_-]+$", "^(?:ab|cd)*$", "^[\\-\\]a]{1,3}$", "^é+$"]
        {
            assert!(pattern_ok(ok), "{ok}");
        }
        for bad in [
            "abc",
            "^abc",
            "^a|b$",
            "^.+$",
            "^[^x]+$",
            "^\\s+$",
            "^a\"$",
            "^[ -~]+$",
            "^[!-#]$",
            "^(?=a)a$",
            "^a\\$",
            "^\\\\$",
            "^a{1,$",
            "^[a-z&&b]$",
            "^(a$",
            "^\\n$",
        ] {
            assert!(!pattern_ok(bad), "{bad}");
        }
    }

    #[test]
    fn what_outlines_core_ignores_is_moved_into_restore() {
        let s = json!({"type": "object", "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]+$", "minLength": 2},
            "word": {"type": "string", "pattern": "cat", "maxLength": 8},
            "at": {"type": "string", "format": "date-time"},
            "n": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
            "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": true, "maxItems": 3}
        }, "required": ["code", "word", "at", "n", "ids"]});
        let out = run(s).unwrap();
        let p = &out.schema["properties"];
        assert_eq!(p["code"]["pattern"], "^[A-Z]+$");
        assert!(p["code"].get("minLength").is_none(), "{}", p["code"]);
        // An unanchored pattern goes; the length beside it stays.
        assert!(p["word"].get("pattern").is_none());
        assert_eq!(p["word"]["maxLength"], 8);
        assert!(p["at"].get("format").is_none());
        assert!(p["n"].get("exclusiveMinimum").is_none() && p["n"].get("multipleOf").is_none());
        assert_eq!(p["ids"]["maxItems"], 3);
        assert!(p["ids"].get("uniqueItems").is_none());
        let good =
            json!({"code": "AB", "word": "a cat", "at": "2024-01-02T03:04:05Z", "n": 1.5, "ids": [1, 2]});
        assert_eq!(out.plan.restore(good.clone()).unwrap(), good);
        for (key, bad) in [
            ("code", json!("A")),
            ("word", json!("dog")),
            ("at", json!("2024-13-02T03:04:05Z")),
            ("n", json!(0)),
            ("n", json!(1.25)),
            ("ids", json!([1, 1])),
        ] {
            let mut v = good.clone();
            v[key] = bad;
            assert!(out.plan.restore(v).is_err(), "{key}");
        }
    }

    #[test]
    fn keys_outlines_core_would_write_unescaped_are_renamed_and_maps_beside_properties_are_entries() {
        let s = json!({"type": "object", "properties": {
            "say \"hi\"": {"type": "string"},
            "名前": {"type": "string"},
            "extra": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"],
                "additionalProperties": {"type": "integer"}},
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "empty": {"type": "object", "properties": {}, "additionalProperties": false}
        }, "required": ["say \"hi\"", "名前", "extra", "counts", "empty"]});
        let out = run(s).unwrap();
        let p = &out.schema["properties"];
        assert!(p.get("say \"hi\"").is_none() && p.get("say _hi_").is_some(), "{p}");
        assert!(p.get("名前").is_some());
        assert_eq!(p["counts"]["additionalProperties"], json!({"type": "integer"}));
        assert!(!p["extra"]["additionalProperties"].is_object(), "{}", p["extra"]);
        assert_eq!(p["empty"]["properties"], json!({}));
        let v = json!({"say \"hi\"": "x", "名前": "y", "extra": {"a": 1, "b": 2}, "counts": {"k": 1}, "empty": {}});
        let sent = out.plan.encode(v.clone());
        assert!(sent.get("say _hi_").is_some(), "{sent}");
        assert_eq!(out.plan.restore(sent).unwrap(), v);
    }

    #[test]
    fn references_are_inlined_and_what_outlines_core_cannot_compile_is_refused() {
        let s = json!({"$defs": {"P": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
            "type": "object", "properties": {"a": {"$ref": "#/$defs/P"}, "b": {"$ref": "#/$defs/P"}},
            "required": ["a", "b"]});
        let out = run(s).unwrap();
        assert!(out.schema.get("$defs").is_none());
        assert_eq!(out.schema["properties"]["a"]["properties"]["x"], json!({"type": "integer"}));
        for s in [
            json!({"type": "object", "properties": {"x": {"not": {"type": "string"}}}}),
            json!({"type": "object", "properties": {"x": {"oneOf": [{"type": "integer"}, {"type": "number"}]}}}),
            json!({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "string"}],
                "items": {"type": "integer"}}}}),
        ] {
            assert!(run(s.clone()).is_err(), "{s}");
        }
    }
}
