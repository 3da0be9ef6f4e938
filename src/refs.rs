//! Local `$ref` resolution: `#`, `#/$defs/Name`, and any JSON pointer into the same document.
//!
//! A `$ref` is a URI reference; a local one is a fragment (`#...`) holding a JSON pointer, itself
//! percent-encoded as URI fragments are (schemars writes `#/$defs/Foo%3CT%3E` for `Foo<T>`).
//! Decoding is percent-decoding first, then the pointer's `~1`/`~0` escapes, in that order
//! (RFC 6901 §6).
//!
//! ```
//! use serde_json::json;
//! use toolschema::refs::{parse_local, resolve};
//! let root = json!({"$defs": {"a/b": {"type": "string"}}});
//! assert_eq!(parse_local("#/$defs/a~1b").unwrap(), ["$defs", "a/b"]);
//! assert_eq!(resolve(&root, "#/$defs/a~1b"), Some(&json!({"type": "string"})));
//! ```

use serde_json::Value;

/// Why a `$ref` cannot be followed locally.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefError {
    /// The reference points outside this document (another file, a URL, an `$id`).
    #[error("reference `{0}` points outside this document; only local references (`#/...`) can be resolved")]
    External(String),
    /// The fragment is not a JSON pointer, or holds an invalid `%` or `~` escape.
    #[error("reference `{0}` is not a valid local JSON pointer (bad `~` or `%` escape, or no leading `/`)")]
    Malformed(String),
    /// The pointer names nothing in the document.
    #[error("reference `{0}` points at nothing in this document")]
    Missing(String),
}

/// Decodes a local reference into pointer tokens.
///
/// # Errors
/// [`RefError::External`] for anything but a fragment, [`RefError::Malformed`] for a bad escape.
pub fn parse_local(reference: &str) -> Result<Vec<String>, RefError> {
    let Some(fragment) = reference.strip_prefix('#') else {
        return Err(RefError::External(reference.to_owned()));
    };
    if let Some(tokens) = plain_tokens(fragment) {
        return tokens.map(|t| Ok(t.to_owned())).collect();
    }
    let decoded = percent_decode(fragment).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
    let tokens = crate::pointer::tokens(&decoded).ok_or_else(|| RefError::Malformed(reference.to_owned()))?;
    Ok(tokens.into_iter().map(std::borrow::Cow::into_owned).collect())
}

/// The tokens of a fragment that needs no decoding (no `%`, no `~`), borrowed; `None` when it
/// needs decoding or is not a pointer (the slow path then says which).
///
/// Nearly every `$ref` a generator writes (`#/$defs/Name`) takes this path, which allocates
/// nothing; passes resolve references at every use.
fn plain_tokens(fragment: &str) -> Option<impl Iterator<Item = &str>> {
    if fragment.bytes().any(|b| b == b'%' || b == b'~') {
        return None;
    }
    let rest = if fragment.is_empty() { None } else { Some(fragment.strip_prefix('/')?) };
    Some(rest.into_iter().flat_map(|r| r.split('/')))
}

/// `(map, name)` for a reference to a root definition that needs no decoding:
/// `#/$defs/Name` or `#/definitions/Name` with no `%`, `~` or further `/` in the name. `None` for
/// anything else, where the caller uses [`parse_local`]. Borrowed: passes that meet a `$ref` at
/// every use of a type allocate nothing for it.
pub(crate) fn plain_definition(reference: &str) -> Option<(&'static str, &str)> {
    let (map, name) = if let Some(name) = reference.strip_prefix("#/$defs/") {
        ("$defs", name)
    } else {
        ("definitions", reference.strip_prefix("#/definitions/")?)
    };
    (!name.bytes().any(|b| matches!(b, b'%' | b'~' | b'/'))).then_some((map, name))
}

/// Follows decoded tokens from `root`.
pub(crate) fn lookup<'v>(root: &'v Value, tokens: &[String]) -> Option<&'v Value> {
    tokens.iter().try_fold(root, |cur, tok| step(cur, tok))
}

fn step<'v>(cur: &'v Value, tok: &str) -> Option<&'v Value> {
    match cur {
        Value::Object(map) => map.get(tok),
        Value::Array(items) => {
            if tok.len() > 1 && tok.starts_with('0') {
                return None;
            }
            items.get(tok.parse::<usize>().ok()?)
        }
        _ => None,
    }
}

/// Follows a JSON pointer (`~` escapes only, no percent-decoding: a pointer built from decoded
/// tokens, not a URI fragment) from `root`.
pub(crate) fn lookup_pointer<'v>(root: &'v Value, pointer: &str) -> Option<&'v Value> {
    crate::pointer::tokens(pointer)?.iter().try_fold(root, |cur, tok| step(cur, tok))
}

/// The schema a local reference points at, or `None` if it is not local or names nothing.
pub fn resolve<'v>(root: &'v Value, reference: &str) -> Option<&'v Value> {
    let fragment = reference.strip_prefix('#')?;
    match plain_tokens(fragment) {
        Some(mut tokens) => tokens.try_fold(root, step),
        None => lookup(root, &parse_local(reference).ok()?),
    }
}

/// Percent-decodes a URI fragment; `None` for a bad `%` escape or bytes that are not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decodes_percent_then_tilde() {
        assert_eq!(parse_local("#/$defs/Foo%3CT%3E").unwrap(), ["$defs", "Foo<T>"]);
        // `%7E1` decodes to `~1`, which the pointer then reads as `/`.
        assert_eq!(parse_local("#/$defs/a%7E1b").unwrap(), ["$defs", "a/b"]);
        assert_eq!(parse_local("#").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn refuses_external_and_malformed_references() {
        assert!(matches!(parse_local("other.json#/a"), Err(RefError::External(_))));
        assert!(matches!(parse_local("#/a~2"), Err(RefError::Malformed(_))));
        assert!(matches!(parse_local("#/a%zz"), Err(RefError::Malformed(_))));
        assert!(matches!(parse_local("#a"), Err(RefError::Malformed(_))));
    }

    proptest::proptest! {
        // Law: the allocation-free path for plain references reads them exactly as the decoding
        // path does (tokens, and what they resolve to).
        #[test]
        fn plain_references_read_as_the_decoding_path_reads_them(
            reference in "#?(/(\\$defs|properties|items|0|01|a|a b|%41|~0|~1|~2|%zz|))*"
        ) {
            let root = json!({"$defs": {"a": {"items": [1, {"a": 2}]}, "": {"0": 3}, "a b": 4, "A": 5},
                              "properties": {"~": 6, "/": 7, "a": {"0": 8}}, "items": [9]});
            let slow = reference.strip_prefix('#').and_then(|f| {
                let decoded = percent_decode(f)?;
                crate::pointer::tokens(&decoded).map(|t| t.into_iter().map(std::borrow::Cow::into_owned).collect::<Vec<_>>())
            });
            let fast = parse_local(&reference).ok();
            proptest::prop_assert_eq!(&fast, &slow);
            let want = slow.as_deref().and_then(|t| lookup(&root, t));
            proptest::prop_assert_eq!(resolve(&root, &reference), want);
        }
    }

    proptest::proptest! {
        // Law: a plain definition reference reads as the decoding path reads it.
        #[test]
        fn plain_definitions_read_as_parse_local_reads_them(
            reference in "#?(/(\\$defs|definitions|properties|a|A b|%41|~0|~1|))*"
        ) {
            if let Some((map, name)) = plain_definition(&reference) {
                let tokens = parse_local(&reference).unwrap();
                proptest::prop_assert_eq!(tokens, vec![map.to_owned(), name.to_owned()]);
            }
        }
    }

    #[test]
    fn plain_definition_takes_only_undecorated_two_token_references() {
        assert_eq!(plain_definition("#/$defs/Foo"), Some(("$defs", "Foo")));
        assert_eq!(plain_definition("#/definitions/"), Some(("definitions", "")));
        for other in
            ["#/$defs/a~1b", "#/$defs/a%20b", "#/$defs/A/properties/x", "#/properties/a", "#", "x#/$defs/A"]
        {
            assert_eq!(plain_definition(other), None, "{other}");
        }
    }

    #[test]
    fn resolves_any_local_pointer() {
        let root = json!({"properties": {"a": {"items": [{"type": "x"}]}}});
        assert_eq!(resolve(&root, "#/properties/a/items/0"), Some(&json!({"type": "x"})));
        assert_eq!(resolve(&root, "#/properties/a/items/01"), None);
        assert_eq!(resolve(&root, "#"), Some(&root));
    }
}
