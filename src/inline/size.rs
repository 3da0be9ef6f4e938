//! Sizes of JSON without writing it: compact, exact ([`json_len`]) and a cheaper upper bound
//! ([`json_bound`]), and canonical ([`canonical_len`]), all safe at any depth.

use super::*;
use crate::canonical;

/// Bytes of a string in compact JSON, quotes and escapes included.
pub(crate) fn string_len(s: &str) -> u64 {
    let plain = s.len() as u64 + 2;
    // Eight bytes at a time for the common case of nothing to escape.
    if !canonical::needs_escape(s.as_bytes()) {
        return plain;
    }
    let mut n = plain;
    for b in s.bytes() {
        n += match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
            0..=0x1f => 5,
            _ => 0,
        };
    }
    n
}

/// Bytes of `value` as `serde_json::to_vec` writes it; any depth is fine.
pub(crate) fn json_len(value: &Value) -> u64 {
    size_at::<true>(value, 0, &mut false)
}

/// At least [`json_len`], and cheaper: a string counts as if each of its bytes took a six-byte
/// escape (`\u0001`), an integer as 20 bytes and a float as 24, the longest that `serde_json`
/// writes (`-9223372036854775808`, `-2.2250738585072014e-308`), so no string is read and no
/// number formatted.
#[inline]
pub(crate) fn json_bound(value: &Value) -> u64 {
    match value {
        Value::Array(_) | Value::Object(_) => size_at::<false>(value, 0, &mut false),
        scalar => scalar_size::<false>(scalar),
    }
}

/// How deep [`size_at`] recurses before it hands a value to the iterative [`json_size`].
pub(crate) const SIZE_RECURSION: usize = 32;

/// [`json_len`] when `EXACT`, else [`json_bound`]: recursive (no allocation) for the first
/// [`SIZE_RECURSION`] levels, iterative below; `deep` is set when it goes below.
pub(crate) fn size_at<const EXACT: bool>(value: &Value, depth: usize, deep: &mut bool) -> u64 {
    match value {
        Value::Array(items) if depth < SIZE_RECURSION => {
            let punctuation = 2 + items.len().saturating_sub(1) as u64;
            items
                .iter()
                .fold(punctuation, |n, item| n.saturating_add(size_at::<EXACT>(item, depth + 1, deep)))
        }
        Value::Object(map) if depth < SIZE_RECURSION => {
            let punctuation = 2 + map.len().saturating_sub(1) as u64;
            map.iter().fold(punctuation, |n, (key, v)| {
                n.saturating_add(key_size::<EXACT>(key) + 1).saturating_add(size_at::<EXACT>(
                    v,
                    depth + 1,
                    deep,
                ))
            })
        }
        Value::Array(_) | Value::Object(_) => {
            *deep = true;
            json_size::<EXACT>(value)
        }
        scalar => scalar_size::<EXACT>(scalar),
    }
}

/// The size of a key, quotes included, colon not.
#[inline]
pub(crate) fn key_size<const EXACT: bool>(key: &str) -> u64 {
    if EXACT { string_len(key) } else { 6 * key.len() as u64 + 2 }
}

/// The size of a value that is not a container (a container counts as its punctuation alone).
#[inline]
pub(crate) fn scalar_size<const EXACT: bool>(v: &Value) -> u64 {
    struct Count(u64);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len() as u64;
            Ok(())
        }
    }
    match v {
        Value::Null | Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) if !EXACT => 20 + 4 * u64::from(n.is_f64()),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                u64::from(u.checked_ilog10().unwrap_or(0)) + 1
            } else if let Some(i) = n.as_i64() {
                u64::from(i.unsigned_abs().checked_ilog10().unwrap_or(0)) + 2
            } else {
                let mut c = Count(0);
                let _ = std::fmt::write(&mut c, format_args!("{n}"));
                c.0
            }
        }
        Value::String(s) if !EXACT => 6 * s.len() as u64 + 2,
        Value::String(s) => string_len(s),
        Value::Array(items) => 2 + items.len().saturating_sub(1) as u64,
        Value::Object(map) => 2 + map.len().saturating_sub(1) as u64,
    }
}

/// [`size_at`] without recursion, for values of any depth.
pub(crate) fn json_size<const EXACT: bool>(value: &Value) -> u64 {
    total_size(value, scalar_size::<EXACT>, key_size::<EXACT>)
}

/// Bytes of `value` as [`canonical::to_vec`] writes it (RFC 8785): [`json_len`], with each
/// number that is no integer spelled as ECMAScript spells it (`1e6` is `1000000`, `1e21` is
/// `1e+21`). Iterative, so any depth is fine.
pub(crate) fn canonical_len(value: &Value) -> u64 {
    let scalar = |v: &Value| match v {
        Value::Number(n) if n.is_f64() => canonical::to_vec(v).len() as u64,
        v => scalar_size::<true>(v),
    };
    total_size(value, scalar, string_len)
}

/// The bytes of `value` with each scalar and key counted by `scalar` and `key` (a container
/// counts as its punctuation, a key its colon too), without recursion.
fn total_size(value: &Value, scalar: impl Fn(&Value) -> u64, key: impl Fn(&str) -> u64) -> u64 {
    let mut total = scalar(value);
    let mut stack: Vec<&Value> = Vec::new();
    let mut next = Some(value);
    while let Some(v) = next {
        match v {
            Value::Array(items) => {
                for item in items {
                    total = total.saturating_add(scalar(item));
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push(item);
                    }
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    total = total.saturating_add(key(k) + 1).saturating_add(scalar(item));
                    if matches!(item, Value::Array(_) | Value::Object(_)) {
                        stack.push(item);
                    }
                }
            }
            _ => {}
        }
        next = stack.pop();
    }
    total
}
