//! JSON pointers (RFC 6901) for error locations, and the Rust field path they correspond to.
//!
//! ```
//! use toolschema::pointer::{escape_token, field_path};
//! assert_eq!(escape_token("a/b~c"), "a~1b~0c");
//! assert_eq!(
//!     field_path(Some("Itinerary"), "/properties/stops/items/properties/extra").as_deref(),
//!     Some("Itinerary.stops[].extra"),
//! );
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

/// A JSON pointer built while walking: push a token before descending, truncate after.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pointer {
    text: String,
}

impl Pointer {
    /// The root pointer, `""`.
    pub fn root() -> Self {
        Pointer::default()
    }

    /// The pointer as text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Appends a reference token (escaped here) and returns the length to truncate back to.
    pub fn push(&mut self, token: &str) -> usize {
        let mark = self.text.len();
        self.text.push('/');
        // Bytes, not chars: `~` and `/` are ASCII and never part of a multi-byte character.
        if token.bytes().any(|b| b == b'~' || b == b'/') {
            self.text.push_str(&escape_token(token));
        } else {
            self.text.push_str(token);
        }
        mark
    }

    /// The pointer made of `tokens`, each escaped.
    pub(crate) fn from_tokens<T: AsRef<str>>(tokens: &[T]) -> Self {
        let mut pointer = Pointer::root();
        for token in tokens {
            pointer.push(token.as_ref());
        }
        pointer
    }

    /// Appends an array index.
    pub fn push_index(&mut self, index: usize) -> usize {
        let mark = self.text.len();
        self.text.push('/');
        // Digits by hand: this runs for every array item of every walk.
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut n = index;
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.text.extend(digits[i..].iter().map(|&d| char::from(d)));
        mark
    }

    /// Truncates back to a mark returned by [`Pointer::push`].
    pub fn truncate(&mut self, mark: usize) {
        self.text.truncate(mark);
    }
}

impl std::fmt::Display for Pointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// Escapes one reference token: `~` as `~0`, `/` as `~1`.
pub fn escape_token(token: &str) -> Cow<'_, str> {
    if token.contains(['~', '/']) {
        Cow::Owned(token.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(token)
    }
}

/// One reference token as a URI fragment holds it (`#/$defs/<token>`): `~` and `/` escaped as
/// [`escape_token`] does, then every byte a fragment may not hold as it is percent-encoded (`%`
/// itself, a space, `#`, `"`, non-ASCII), so that reading the reference back (percent-decoding,
/// then `~`) gives the token.
///
/// ```
/// use toolschema::pointer::fragment_token;
/// assert_eq!(fragment_token("Name"), "Name");
/// assert_eq!(fragment_token("a b/c%d"), "a%20b~1c%25d");
/// ```
pub fn fragment_token(token: &str) -> Cow<'_, str> {
    // RFC 3986: a fragment holds unreserved characters, sub-delims, `:`, `@`, `/` and `?`.
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@?".contains(&b);
    let escaped = escape_token(token);
    if escaped.bytes().all(plain) {
        return escaped;
    }
    let mut out = String::with_capacity(escaped.len() + 8);
    for b in escaped.bytes() {
        if plain(b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    Cow::Owned(out)
}

/// Decodes one reference token; `None` for an invalid escape (`~` not followed by `0` or `1`).
pub(crate) fn unescape_token(token: &str) -> Option<Cow<'_, str>> {
    if !token.contains('~') {
        return Some(Cow::Borrowed(token));
    }
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(Cow::Owned(out))
}

/// Splits a pointer into decoded tokens; `None` if it does not start with `/` (and is not `""`)
/// or holds an invalid escape.
pub fn tokens(pointer: &str) -> Option<Vec<Cow<'_, str>>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/').map(unescape_token).collect()
}

/// The Rust field path for a pointer into a schema generated from a type named `root_name`.
///
/// `properties/x` reads `.x`, array `items` reads `[]`, a tuple's `prefixItems/N` reads `.N`, map
/// values (`additionalProperties`, `patternProperties/*`) read `{}`, and a pointer into
/// `$defs/Name` starts again at `Name`. Union branches and other keywords add nothing. `None` when
/// the pointer is malformed; the root gives the type name (or `""` when unknown).
pub fn field_path(root_name: Option<&str>, pointer: &str) -> Option<String> {
    let toks = tokens(pointer)?;
    let mut path = root_name.unwrap_or("").to_owned();
    let mut i = 0;
    while i < toks.len() {
        let tok = toks[i].as_ref();
        let next = toks.get(i + 1).map(AsRef::as_ref);
        match (tok, next) {
            ("$defs" | "definitions", Some(name)) => {
                name.clone_into(&mut path);
                i += 2;
            }
            ("properties", Some(name)) => {
                path.push('.');
                path.push_str(name);
                i += 2;
            }
            ("prefixItems", Some(n)) => {
                path.push('.');
                path.push_str(n);
                i += 2;
            }
            ("patternProperties", Some(_)) => {
                path.push_str("{}");
                i += 2;
            }
            ("items", Some(n)) if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() => {
                // draft-7 array form of `items`: a tuple position.
                path.push('.');
                path.push_str(n);
                i += 2;
            }
            ("items", _) => {
                path.push_str("[]");
                i += 1;
            }
            ("additionalProperties", _) => {
                path.push_str("{}");
                i += 1;
            }
            ("anyOf" | "oneOf" | "allOf", Some(_)) => i += 2,
            _ => i += 1,
        }
    }
    Some(path.trim_start_matches('.').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_escapes_and_truncate_restores() {
        let mut p = Pointer::root();
        let m = p.push("properties");
        p.push("a/b");
        assert_eq!(p.as_str(), "/properties/a~1b");
        p.truncate(m);
        assert_eq!(p.as_str(), "");
        p.push_index(3);
        assert_eq!(p.as_str(), "/3");
    }

    #[test]
    fn indexes_are_written_in_decimal() {
        for i in [0, 7, 10, 12_345, usize::MAX] {
            let mut p = Pointer::root();
            p.push("anyOf");
            let m = p.push_index(i);
            assert_eq!(p.as_str(), format!("/anyOf/{i}"));
            p.truncate(m);
            assert_eq!(p.as_str(), "/anyOf");
        }
        let mut p = Pointer::root();
        p.push("é/~ü");
        assert_eq!(p.as_str(), "/é~1~0ü");
    }

    #[test]
    fn unescape_rejects_bad_escapes() {
        assert_eq!(unescape_token("a~1b~0").as_deref(), Some("a/b~"));
        assert_eq!(unescape_token("a~2"), None);
        assert_eq!(unescape_token("a~"), None);
        assert_eq!(tokens("x"), None);
        assert_eq!(tokens("").unwrap().len(), 0);
    }

    #[test]
    fn field_paths_read_like_rust() {
        let f = |p| field_path(Some("Itinerary"), p).unwrap();
        assert_eq!(f(""), "Itinerary");
        assert_eq!(f("/properties/stops/items/properties/extra"), "Itinerary.stops[].extra");
        assert_eq!(f("/$defs/Waypoint/properties/city"), "Waypoint.city");
        assert_eq!(f("/properties/m/additionalProperties"), "Itinerary.m{}");
        assert_eq!(f("/properties/t/prefixItems/1"), "Itinerary.t.1");
        assert_eq!(f("/properties/o/anyOf/0/properties/x"), "Itinerary.o.x");
        assert_eq!(field_path(None, "/properties/a").unwrap(), "a");
    }
}
