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
//! The first 48 levels of arrays and objects are written by recursion (a few KiB of stack, the
//! fastest way through the shallow trees schemas are); a subtree below that is handed to an
//! iterative writer, an explicit stack of open arrays and objects on the heap, so a value of any
//! depth is written without overflowing the stack. Everything is written into one `Vec<u8>`: the
//! output of [`to_vec`], or a block buffer that [`crate::hash`] drains into SHA-256 every 8 KiB
//! (and [`write()`] into a [`Sink`]), so the document is never held whole.
//!
//! Key order costs nothing in the common case. Whether this build's `serde_json::Map` sorts its
//! keys is probed once at run time; if it does (a `BTreeMap`, byte order), byte order is UTF-16
//! order up to the first key holding a character at U+E000 or above, and only the keys from there
//! on are sorted. With `preserve_order` each object's order is checked, and the object sorted when
//! it is out of order. Strings are scanned 8 bytes at a time: a word test marks the bytes that need
//! escaping, its lowest mark says where the next escape is, and the run before it is copied whole.
//! f64 goes through `ryu-js`, which implements ECMAScript's `Number.prototype.toString` exactly,
//! except the two kinds schemas are full of, whose shortest digits are known without it: an
//! integral value below 2^53 (`1e6`) is written as its integer, and one with at most six fraction
//! digits and fifteen significant ones (`0.5`) from the integer nearest a million times it (the
//! reason these are the same bytes is at `write_f64`).

mod number;
#[cfg(test)]
mod tests;

use number::write_number;
use serde_json::{Map, Value};
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
    write_buffered(value, &mut out, usize::MAX, |_| {});
    out
}

/// [`to_string_exact`]'s per-thread scratch buffer is kept while its capacity is at most this;
/// past it, the text takes the buffer itself, so no thread keeps more than this.
const SCRATCH_KEEP: usize = 64 * 1024;

/// The RFC 8785 text of `value` in an allocation of exactly its length, for text that lives as
/// long as its schema (the pipeline's, kept in the cache too).
///
/// It is written in a buffer each thread keeps (of at most [`SCRATCH_KEEP`] bytes) and copied out once:
/// growing a fresh buffer would cost a chain of reallocations (each a new block and a copy) and
/// leave spare capacity behind, and with glibc each new block past 1 KiB also sweeps the small
/// free blocks the caller's next allocations would have reused. Longer text takes the buffer
/// itself. Where the thread's buffer cannot be had (during thread teardown), a fresh one.
pub(crate) fn to_string_exact(value: &Value) -> String {
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let written = SCRATCH.try_with(|scratch| {
        let mut buf = scratch.try_borrow_mut().ok()?;
        buf.clear();
        write_buffered(value, &mut buf, usize::MAX, |_| {});
        Some(if buf.capacity() > SCRATCH_KEEP { std::mem::take(&mut *buf) } else { buf.as_slice().to_vec() })
    });
    let bytes = written.ok().flatten().unwrap_or_else(|| to_vec(value));
    // The writer emits only valid UTF-8: keys and strings come from `String`s and the rest is ASCII.
    String::from_utf8(bytes).unwrap_or_default()
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
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let Some(i) = first_difference(ab, bb) else {
        return ab.len().cmp(&bb.len());
    };
    let (x, y) = (ab[i], bb[i]);
    // Only lead bytes are 0xEE or more: 0xEE and 0xEF start U+E000..=U+FFFF, 0xF0..=0xF4 a
    // character above U+FFFF. The same prefix precedes both, so a differing continuation byte
    // (0x80..=0xBF) compares characters of one class, where the orders agree.
    if x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0) {
        return y.cmp(&x);
    }
    x.cmp(&y)
}

/// Eight bytes as a little-endian word (`bytes` has exactly eight).
#[inline]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(<[u8; 8]>::try_from(bytes).unwrap_or_default())
}

/// The index of the first byte where `a` and `b` differ, comparing 8 bytes at a time.
fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let (x, y) = (word(x), word(y));
        if x != y {
            // Little-endian words: the lowest differing byte is the first.
            return Some(i + ((x ^ y).trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    a[i..].iter().zip(&b[i..]).position(|(x, y)| x != y).map(|p| i + p)
}

/// Writes the RFC 8785 bytes of `value` into `out`, in pieces of about 8 KiB.
pub fn write(value: &Value, out: &mut dyn Sink) {
    let mut buf = Vec::with_capacity(FLUSH_AT + 256);
    write_buffered(value, &mut buf, FLUSH_AT, |b| {
        out.put(b);
        b.clear();
    });
    out.put(&buf);
}

/// How full [`write`]'s buffer gets before it goes to the sink.
pub(crate) const FLUSH_AT: usize = 8 * 1024;

/// How many levels of arrays and objects [`write_buffered`] writes by recursion; a subtree deeper
/// than that is written by the iterative writer ([`write_deep`]), so the stack used is bounded
/// (a few KiB) whatever the depth of the value.
const RECURSION_LEVELS: u32 = 48;

/// Appends the RFC 8785 bytes of `value` to `buf`. Between two values, once `buf` holds `flush_at`
/// bytes or more, calls `flush`, which takes what it wants and normally clears `buf`.
///
/// All writing goes straight into the `Vec`; the sink sees blocks, not the dozens of small pieces
/// one schema is made of.
pub(crate) fn write_buffered(
    value: &Value,
    buf: &mut Vec<u8>,
    flush_at: usize,
    flush: impl FnMut(&mut Vec<u8>),
) {
    // serde_json's default map iterates in UTF-8 byte order, which is RFC 8785's order for every
    // key below U+E000: its objects are written as they come. With `preserve_order` each object's
    // order is checked first.
    let byte_sorted_maps = !crate::vocab::map_order::map_preserves_order();
    Writer { buf, flush_at, flush, byte_sorted_maps }.value(value, RECURSION_LEVELS);
}

/// The recursive writer: the fast path for the first [`RECURSION_LEVELS`] levels.
struct Writer<'b, F> {
    buf: &'b mut Vec<u8>,
    flush_at: usize,
    flush: F,
    byte_sorted_maps: bool,
}

impl<F: FnMut(&mut Vec<u8>)> Writer<'_, F> {
    /// Writes `v`; `levels` is how many more levels may be entered by recursion.
    fn value(&mut self, v: &Value, levels: u32) {
        match v {
            Value::Null => self.buf.extend_from_slice(b"null"),
            Value::Bool(true) => self.buf.extend_from_slice(b"true"),
            Value::Bool(false) => self.buf.extend_from_slice(b"false"),
            Value::Number(n) => write_number(n, self.buf),
            Value::String(s) => write_string(s, self.buf),
            Value::Array(items) => match items.split_first() {
                None => self.buf.extend_from_slice(b"[]"),
                // The depth is checked before descending: what lies below is written without
                // recursion.
                Some(_) if levels == 0 => write_deep(v, self.buf, self.flush_at, &mut self.flush),
                Some((head, tail)) => {
                    self.buf.push(b'[');
                    self.value(head, levels - 1);
                    for item in tail {
                        self.buf.push(b',');
                        self.value(item, levels - 1);
                    }
                    self.buf.push(b']');
                }
            },
            Value::Object(map) if map.is_empty() => self.buf.extend_from_slice(b"{}"),
            Value::Object(_) if levels == 0 => write_deep(v, self.buf, self.flush_at, &mut self.flush),
            Value::Object(map) => {
                self.buf.push(b'{');
                if self.byte_sorted_maps {
                    self.byte_sorted_object(map, levels - 1);
                } else {
                    self.any_order_object(map, levels - 1);
                }
                self.buf.push(b'}');
            }
        }
        if self.buf.len() >= self.flush_at {
            (self.flush)(self.buf);
        }
    }

    /// One member, preceded by a comma unless it is the first.
    #[inline]
    fn member(&mut self, first: &mut bool, key: &str, value: &Value, levels: u32) {
        if !*first {
            self.buf.push(b',');
        }
        *first = false;
        write_key(key, self.buf);
        self.value(value, levels);
    }

    /// The members of a map whose keys come in UTF-8 byte order (serde_json's default map).
    fn byte_sorted_object(&mut self, map: &Map<String, Value>, levels: u32) {
        let mut first = true;
        let mut members = map.iter();
        while let Some((k, v)) = members.next() {
            let before = self.buf.len();
            if !first {
                self.buf.push(b',');
            }
            // Byte order is UTF-16 order up to the first key holding a character at U+E000 or
            // above (see `Frame::InOrder`); from that key on, the rest is sorted. The key is
            // written first, since its scan tells whether it is ASCII; a key at U+E000 or above
            // is taken back (nothing is flushed inside a key) and written in sorted order.
            if !write_key(k, self.buf) && has_byte_from_ee(k.as_bytes()) {
                self.buf.truncate(before);
                let mut rest: Vec<(&String, &Value)> =
                    std::iter::once((k, v)).chain(members.by_ref()).collect();
                rest.sort_by(|a, b| cmp_utf16(a.0, b.0));
                for (k, v) in rest {
                    self.member(&mut first, k, v, levels);
                }
                return;
            }
            first = false;
            self.value(v, levels);
        }
    }

    /// The members of a map in any order (`preserve_order`): checked, and sorted when out of order.
    fn any_order_object(&mut self, map: &Map<String, Value>, levels: u32) {
        let mut first = true;
        if keys_in_utf16_order(map) {
            for (k, v) in map {
                self.member(&mut first, k, v, levels);
            }
        } else {
            for (k, v) in sorted_members(map) {
                self.member(&mut first, k, v, levels);
            }
        }
    }
}

/// An open array or object of [`write_deep`]: the members still to write.
enum Frame<'a> {
    Array(std::slice::Iter<'a, Value>),
    Sorted(std::vec::IntoIter<(&'a String, &'a Value)>),
    InOrder(serde_json::map::Iter<'a>),
}

/// Appends the RFC 8785 bytes of `value` to `buf` without recursion: an explicit stack of open
/// arrays and objects on the heap, for values deeper than [`RECURSION_LEVELS`]. Flushes as
/// [`write_buffered`] does.
fn write_deep(value: &Value, buf: &mut Vec<u8>, flush_at: usize, mut flush: impl FnMut(&mut Vec<u8>)) {
    let byte_sorted_maps = !crate::vocab::map_order::map_preserves_order();
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut first = true;
    let mut next = Some(value);
    loop {
        if let Some(v) = next.take() {
            match v {
                Value::Null => buf.extend_from_slice(b"null"),
                Value::Bool(true) => buf.extend_from_slice(b"true"),
                Value::Bool(false) => buf.extend_from_slice(b"false"),
                Value::Number(n) => write_number(n, buf),
                Value::String(s) => write_string(s, buf),
                Value::Array(items) if items.is_empty() => buf.extend_from_slice(b"[]"),
                Value::Object(map) if map.is_empty() => buf.extend_from_slice(b"{}"),
                Value::Array(items) => {
                    buf.push(b'[');
                    stack.push(Frame::Array(items.iter()));
                    first = true;
                }
                Value::Object(map) => {
                    buf.push(b'{');
                    stack.push(if byte_sorted_maps { Frame::InOrder(map.iter()) } else { object_frame(map) });
                    first = true;
                }
            }
            if buf.len() >= flush_at {
                flush(buf);
            }
        }
        // Find the next value to write, closing finished containers.
        let Some(top) = stack.last_mut() else { return };
        let item = match top {
            Frame::Array(it) => it.next().map(|v| (None, v)),
            Frame::Sorted(it) => it.next().map(|(k, v)| (Some(k), v)),
            Frame::InOrder(it) => match it.next() {
                // Keys in byte order are in UTF-16 order up to the first key holding a character
                // at U+E000 or above (lead byte 0xEE or more): no earlier key can sort after a
                // later one, since that needs lead bytes 0xEE or more on both sides where they
                // first differ. From that key on, the rest is sorted.
                Some((k, v)) if has_byte_from_ee(k.as_bytes()) => {
                    let mut rest: Vec<(&String, &Value)> =
                        std::iter::once((k, v)).chain(it.by_ref()).collect();
                    rest.sort_by(|a, b| cmp_utf16(a.0, b.0));
                    let mut rest = rest.into_iter();
                    let item = rest.next().map(|(k, v)| (Some(k), v));
                    *top = Frame::Sorted(rest);
                    item
                }
                other => other.map(|(k, v)| (Some(k), v)),
            },
        };
        match item {
            Some((key, v)) => {
                if !first {
                    buf.push(b',');
                }
                first = false;
                if let Some(k) = key {
                    write_key(k, buf);
                }
                next = Some(v);
            }
            None => {
                buf.push(if matches!(top, Frame::Array(_)) { b']' } else { b'}' });
                stack.pop();
                first = false;
            }
        }
    }
}

/// Whether some byte is 0xEE or more: the key holds a character at U+E000 or above.
#[inline]
fn has_byte_from_ee(bytes: &[u8]) -> bool {
    // ASCII keys (nearly all) are ruled out a word at a time.
    let chunks = bytes.chunks_exact(8);
    let ascii = chunks.clone().fold(tail_word(chunks.remainder()), |acc, w| acc | word(w)) & HIGHS == 0;
    !ascii && bytes.iter().any(|&b| b >= 0xEE)
}

fn object_frame(map: &Map<String, Value>) -> Frame<'_> {
    if keys_in_utf16_order(map) {
        Frame::InOrder(map.iter())
    } else {
        Frame::Sorted(sorted_members(map).into_iter())
    }
}

/// Whether a map's keys already come in UTF-16 order. With serde_json's default BTreeMap they come
/// sorted by UTF-8 bytes, which agrees unless a key holds a character at U+E000 or above.
fn keys_in_utf16_order(map: &Map<String, Value>) -> bool {
    let mut keys = map.keys();
    let mut prev = keys.next();
    keys.all(|k| {
        let ok = prev.is_some_and(|p| cmp_utf16(p, k) == Ordering::Less);
        prev = Some(k);
        ok
    })
}

/// A map's members in UTF-16 key order.
fn sorted_members(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut members: Vec<(&String, &Value)> = map.iter().collect();
    members.sort_by(|a, b| cmp_utf16(a.0, b.0));
    members
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// For each byte, what follows the backslash when it is escaped, or 0 when it is written as is.
static ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b'u';
        b += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;
/// Eight bytes that need no escaping.
const PLAIN: u64 = ONES * b'a' as u64;

/// Marks (high bit set) the bytes of `word` that are a control character, `"` or `\`. The lowest
/// mark is exact, and there is one whenever some byte needs escaping; above the lowest, a byte
/// that needs none may be marked too (a borrow of the subtractions).
#[inline]
fn escape_marks(word: u64) -> u64 {
    let control = word.wrapping_sub(ONES * 0x20);
    let quote = (word ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (word ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    // `"` and `\` are below 0x80, so `word`'s high bits stand for the XORed words' too.
    (control | quote | backslash) & !word & HIGHS
}

/// Up to seven bytes as one word for [`escape_marks`] and the ASCII test: every byte of the word
/// is a byte of `tail` (some read twice) or, for tails under four bytes, padding that needs no
/// escaping. Built from loads, not by copying into a buffer (which stalls the load that follows).
#[inline]
fn tail_word(tail: &[u8]) -> u64 {
    let n = tail.len();
    let u32_at = |i: usize| tail.get(i..i + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let u16_at = |i: usize| tail.get(i..i + 2).map_or(0, |b| u16::from_le_bytes([b[0], b[1]]));
    match n {
        4.. => u64::from(u32_at(0)) | u64::from(u32_at(n - 4)) << 32,
        2..=3 => u64::from(u16_at(0)) | u64::from(u16_at(n - 2)) << 16 | PLAIN << 32,
        1 => u64::from(tail[0]) | PLAIN << 8,
        0 => PLAIN,
    }
}

/// Whether any byte of `bytes` needs escaping.
pub(crate) fn needs_escape(bytes: &[u8]) -> bool {
    let chunks = bytes.chunks_exact(8);
    let tail = escape_marks(tail_word(chunks.remainder()));
    chunks.fold(tail, |acc, w| acc | escape_marks(word(w))) != 0
}

/// Writes the escape sequence of a byte that needs one.
#[cold]
fn write_escape(b: u8, buf: &mut Vec<u8>) {
    match ESCAPE[usize::from(b)] {
        b'u' => buf.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 0xF)],
        ]),
        esc => buf.extend_from_slice(&[b'\\', esc]),
    }
}

/// Writes a string value.
fn write_string(s: &str, buf: &mut Vec<u8>) {
    write_quoted(s.as_bytes(), buf, b"\"");
}

/// Writes an object key and its colon; says whether the key is all ASCII.
fn write_key(k: &str, buf: &mut Vec<u8>) -> bool {
    write_quoted(k.as_bytes(), buf, b"\":")
}

/// Writes `"`, `bytes` escaped, then `close`; says whether `bytes` is all ASCII.
#[inline(always)]
fn write_quoted(bytes: &[u8], buf: &mut Vec<u8>, close: &[u8]) -> bool {
    buf.reserve(bytes.len() + 3);
    buf.push(b'"');
    // Runs that need no escaping are copied whole; the escapes are found 8 bytes at a time. Every
    // byte is in some word read, and `seen` gathers their high bits.
    let mut seen = 0;
    let mut start = 0;
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let w = word(chunk);
        seen |= w;
        let marks = escape_marks(w);
        if marks == 0 {
            i += 8;
            continue;
        }
        let at = i + (marks.trailing_zeros() / 8) as usize;
        buf.extend_from_slice(bytes.get(start..at).unwrap_or_default());
        write_escape(bytes[at], buf);
        start = at + 1;
        i = start;
    }
    let tail = bytes.get(i..).unwrap_or_default();
    let w = tail_word(tail);
    seen |= w;
    if escape_marks(w) != 0 {
        for (at, &b) in (i..).zip(tail) {
            if ESCAPE[usize::from(b)] != 0 {
                buf.extend_from_slice(bytes.get(start..at).unwrap_or_default());
                write_escape(b, buf);
                start = at + 1;
            }
        }
    }
    buf.extend_from_slice(bytes.get(start..).unwrap_or_default());
    buf.extend_from_slice(close);
    seen & HIGHS == 0
}
