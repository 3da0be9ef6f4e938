//! RFC 8785 (JSON Canonicalization Scheme) bytes of a [`serde_json::Value`].
//!
//! Two values that are equal as JSON give the same bytes, on every machine and whatever serde_json
//! features the build has; that is what makes [`schema_hash`](crate::schema_hash) a cache key any
//! language can reproduce with an RFC 8785 library and a SHA-256 tool.
//!
//! ```
//! use serde_json::json;
//! let v = json!({"b": [1.0, 1e20, -0.0], "a": "\u{e9}\n"});
//! assert_eq!(
//!     toolschema::canonical::to_string(&v),
//!     r#"{"a":"é\n","b":[1,100000000000000000000,0]}"#,
//! );
//! ```
//!
//! # The rules
//! - Object keys are sorted by their UTF-16 code units (RFC 8785 §3.2.3), not by UTF-8 bytes and
//!   not by the map's iteration order: `serde_json`'s `preserve_order` feature, which any crate in
//!   a build can switch on, changes nothing here.
//! - Strings are written as UTF-8 with the minimal escaping of §3.2.2.2: `\"`, `\\`, the short
//!   forms `\b \t \n \f \r`, and `\u00xx` (lowercase hex) for the other control characters.
//! - Numbers follow ECMAScript's `Number.prototype.toString` (§3.2.2.3): `1.0` is `1`, `1e20` is
//!   `100000000000000000000`, `1e21` is `1e+21`, `0.000001` stays, `1e-7` is `1e-7`, `-0.0` is `0`.
//! - **One extension:** an integer that serde_json holds as `u64` or `i64` is written with its exact
//!   digits even beyond ±2^53, where an f64 (and so a strict RFC 8785 implementation) would round
//!   it. Inside ±2^53 the two agree. Schemas carry such integers in `maximum` for `u64` fields, and
//!   rounding them would change what the schema accepts.
//! - No whitespace.
//!
//! # How it works
//! The writer is iterative: an explicit stack of open arrays and objects on the heap, so a value of
//! any depth is written without recursion. Output goes to a [`Sink`], which is a `Vec<u8>` or,
//! through [`crate::hash`], a SHA-256 state fed in blocks, with no intermediate copy of the
//! document.

use serde_json::{Map, Number, Value};
use std::cmp::Ordering;

/// Where canonical bytes go.
pub trait Sink {
    /// Appends bytes.
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// The RFC 8785 bytes of `value`.
pub fn to_vec(value: &Value) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    write(value, &mut out);
    out
}

/// The RFC 8785 text of `value`.
pub fn to_string(value: &Value) -> String {
    // The writer emits only valid UTF-8: keys and strings come from `String`s and the rest is ASCII.
    String::from_utf8(to_vec(value)).unwrap_or_default()
}

/// Compares two strings by their UTF-16 code units, as RFC 8785 orders object keys.
///
/// UTF-8 byte order equals code point order, which differs from UTF-16 order only between a
/// character at U+E000..=U+FFFF and one above U+FFFF (a surrogate pair sorts below U+E000).
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    // Fast path: find the first differing byte; only the characters there decide.
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let Some(i) = ab.iter().zip(bb).position(|(x, y)| x != y) else {
        return ab.len().cmp(&bb.len());
    };
    if ab[i] < 0x80 && bb[i] < 0x80 {
        return ab[i].cmp(&bb[i]);
    }
    // Back up to the start of the character containing byte i (same prefix in both strings).
    let mut start = i;
    while start > 0 && !a.is_char_boundary(start) {
        start -= 1;
    }
    let ca = a[start..].chars().next().map_or(0, utf16_rank);
    let cb = b[start..].chars().next().map_or(0, utf16_rank);
    ca.cmp(&cb)
}

/// A rank that orders characters as their UTF-16 code units do.
fn utf16_rank(c: char) -> u32 {
    let c = c as u32;
    match c {
        0..=0xD7FF => c,
        0x1_0000.. => 0xD800 + (c - 0x1_0000),
        _ => c + 0x10_0000,
    }
}

enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>),
    Sorted(std::vec::IntoIter<(&'a String, &'a Value)>),
    InOrder(serde_json::map::Iter<'a>),
}

/// Writes the RFC 8785 bytes of `value` into `out`.
pub fn write(value: &Value, out: &mut dyn Sink) {
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut first = true;
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null => out.put(b"null"),
                Value::Bool(true) => out.put(b"true"),
                Value::Bool(false) => out.put(b"false"),
                Value::Number(n) => write_number(n, out),
                Value::String(s) => write_string(s, out),
                Value::Array(items) => {
                    out.put(b"[");
                    stack.push(Frame::Array(items.iter()));
                    first = true;
                }
                Value::Object(map) => {
                    out.put(b"{");
                    stack.push(object_frame(map));
                    first = true;
                }
            }
        }
        // Find the next value to write, closing finished containers.
        let Some(top) = stack.last_mut() else { return };
        let item = match top {
            Frame::Array(it) => it.next().map(|v| (None, v)),
            Frame::Sorted(it) => it.next().map(|(k, v)| (Some(k), v)),
            Frame::InOrder(it) => it.next().map(|(k, v)| (Some(k), v)),
        };
        match item {
            Some((key, v)) => {
                if !first {
                    out.put(b",");
                }
                first = false;
                if let Some(k) = key {
                    write_string(k, out);
                    out.put(b":");
                }
                next = Some(v);
            }
            None => {
                let closing: &[u8] = if matches!(top, Frame::Array(_)) { b"]" } else { b"}" };
                out.put(closing);
                stack.pop();
                first = false;
            }
        }
    }
}

fn object_frame(map: &Map<String, Value>) -> Frame<'_> {
    // With serde_json's default BTreeMap the keys usually come sorted already (UTF-8 order agrees
    // with UTF-16 order unless a key holds a character at U+E000 or above); check before sorting.
    let mut prev: Option<&String> = None;
    let sorted = map.keys().all(|k| {
        let ok = prev.is_none_or(|p| cmp_utf16(p, k) == Ordering::Less);
        prev = Some(k);
        ok
    });
    if sorted {
        Frame::InOrder(map.iter())
    } else {
        let mut entries: Vec<(&String, &Value)> = map.iter().collect();
        entries.sort_by(|a, b| cmp_utf16(a.0, b.0));
        Frame::Sorted(entries.into_iter())
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

fn write_string(s: &str, out: &mut dyn Sink) {
    out.put(b"\"");
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0A => b"\\n",
            0x0C => b"\\f",
            0x0D => b"\\r",
            0x00..=0x1F => &[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]],
            _ => continue,
        };
        if start < i {
            out.put(&bytes[start..i]);
        }
        out.put(esc);
        start = i + 1;
    }
    if start < bytes.len() {
        out.put(&bytes[start..]);
    }
    out.put(b"\"");
}

fn write_number(n: &Number, out: &mut dyn Sink) {
    if let Some(u) = n.as_u64() {
        let mut buf = itoa_buf();
        out.put(fmt_u64(u, &mut buf));
    } else if let Some(i) = n.as_i64() {
        // Negative: as_u64 failed.
        out.put(b"-");
        let mut buf = itoa_buf();
        out.put(fmt_u64(i.unsigned_abs(), &mut buf));
    } else if let Some(f) = n.as_f64() {
        write_f64(f, out);
    } else {
        // Only reachable with serde_json's `arbitrary_precision`: its text is the best we have.
        out.put(n.to_string().as_bytes());
    }
}

fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

fn fmt_u64(mut u: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    &buf[i..]
}

/// ECMAScript `Number.prototype.toString` for a finite f64.
fn write_f64(f: f64, out: &mut dyn Sink) {
    if f == 0.0 || !f.is_finite() {
        // serde_json never holds NaN or infinities; -0 is written as 0.
        out.put(b"0");
        return;
    }
    if f < 0.0 {
        out.put(b"-");
    }
    // Rust's `{:e}` gives the shortest digits that round-trip, as ECMAScript requires.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n = exp + 1; // value = 0.digits × 10^n
    let d = digits.as_bytes();
    if k <= n && n <= 21 {
        out.put(d);
        for _ in 0..(n - k) {
            out.put(b"0");
        }
    } else if 0 < n && n <= 21 {
        out.put(&d[..n as usize]);
        out.put(b".");
        out.put(&d[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.put(b"0.");
        for _ in 0..(-n) {
            out.put(b"0");
        }
        out.put(d);
    } else {
        out.put(&d[..1]);
        if k > 1 {
            out.put(b".");
            out.put(&d[1..]);
        }
        let e = n - 1;
        out.put(if e < 0 { b"e-" } else { b"e+" });
        let mut buf = itoa_buf();
        out.put(fmt_u64(u64::from(e.unsigned_abs()), &mut buf));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn num(text: &str) -> String {
        to_string(&serde_json::from_str::<Value>(text).unwrap())
    }

    #[test]
    fn numbers_follow_ecmascript() {
        for (input, want) in [
            ("1.0", "1"),
            ("-0.0", "0"),
            ("1e20", "100000000000000000000"),
            ("1e21", "1e+21"),
            ("1e-6", "0.000001"),
            ("1e-7", "1e-7"),
            ("333333333.33333329", "333333333.3333333"),
            ("123.456", "123.456"),
            ("-1.5e-10", "-1.5e-10"),
            ("4.5e300", "4.5e+300"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("0.1", "0.1"),
            ("100", "100"),
            ("-100", "-100"),
        ] {
            assert_eq!(num(input), want, "{input}");
        }
    }

    #[test]
    fn integers_beyond_2_pow_53_keep_their_digits() {
        assert_eq!(to_string(&json!(u64::MAX)), "18446744073709551615");
        assert_eq!(to_string(&json!(i64::MIN)), "-9223372036854775808");
        assert_eq!(to_string(&json!(9007199254740993_u64)), "9007199254740993");
    }

    #[test]
    fn strings_use_minimal_escaping() {
        let v = json!("\"\\\u{8}\t\n\u{c}\r\u{1}\u{1f}\u{7f}\u{2028}é😂/");
        assert_eq!(to_string(&v), "\"\\\"\\\\\\b\\t\\n\\f\\r\\u0001\\u001f\u{7f}\u{2028}é😂/\"");
    }

    #[test]
    fn keys_sort_by_utf16_code_units() {
        // RFC 8785's own example of why UTF-16 order differs from UTF-8 order.
        let v: Value = serde_json::from_str(r#"{"\ufb33":1,"\ud83d\ude02":2,"a":0,"":3}"#).unwrap();
        assert_eq!(to_string(&v), "{\"\":3,\"a\":0,\"\u{1f602}\":2,\"\u{fb33}\":1}");
        assert_eq!(cmp_utf16("\u{fb33}", "\u{1f602}"), Ordering::Greater);
        assert_eq!(cmp_utf16("ab", "abc"), Ordering::Less);
        assert_eq!(cmp_utf16("é", "e"), Ordering::Greater);
    }

    #[test]
    fn nesting_and_empties() {
        let v = json!({"z": [], "y": {}, "x": [[{}], {"b": null, "a": true}], "w": false});
        assert_eq!(to_string(&v), r#"{"w":false,"x":[[{}],{"a":true,"b":null}],"y":{},"z":[]}"#);
        assert_eq!(to_string(&json!([])), "[]");
        assert_eq!(to_string(&json!(null)), "null");
    }

    #[test]
    fn very_deep_values_do_not_recurse() {
        let mut v = json!(1);
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        let out = to_vec(&v);
        assert_eq!(out.len(), 200_001);
        // Dismantle iteratively: serde_json's own drop of this value would recurse.
        let mut cur = v;
        while let Value::Array(mut items) = cur {
            cur = items.pop().unwrap_or(Value::Null);
        }
    }
}
