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

fn write_number(n: &Number, buf: &mut Vec<u8>) {
    if let Some(u) = n.as_u64() {
        write_u64(u, buf);
    } else if let Some(i) = n.as_i64() {
        // Negative: as_u64 failed.
        buf.push(b'-');
        write_u64(i.unsigned_abs(), buf);
    } else if let Some(f) = n.as_f64() {
        write_f64(f, buf);
    } else {
        // Only reachable with serde_json's `arbitrary_precision`: its text is the best we have.
        buf.extend_from_slice(n.to_string().as_bytes());
    }
}

/// `00`, `01`, ..., `99`: decimal digits two at a time.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// The decimal digits of `u`, at the end of `buf`.
#[inline]
fn u64_digits(mut u: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    while u >= 100 {
        let pair = (u % 100) as usize * 2;
        u /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    }
    if u >= 10 {
        let pair = u as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + u as u8;
    }
    &buf[i..]
}

#[inline]
fn write_u64(u: u64, out: &mut Vec<u8>) {
    if u < 10 {
        out.push(b'0' + u as u8);
    } else {
        out.extend_from_slice(u64_digits(u, &mut [0; 20]));
    }
}

/// 2^53: every integer of smaller magnitude is an f64, and no two of them are the same f64.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// ECMAScript `Number.prototype.toString` for a finite f64.
///
/// The shortest digits that round-trip, with ECMAScript's tie rule (the closer candidate, else the
/// even one): `-1035849256835417.25` is `-1035849256835417.2`, as JavaScript and Python print it,
/// where Rust's `{:e}` writes `…417.3`. `ryu-js` implements that algorithm exactly, and is the
/// general path. The numbers schemas are full of take a shorter path to the same bytes (ryu's
/// digit loop costs most on them, one division per digit it drops):
/// - An integral value below 2^53 in magnitude (`1e6`, `255.0`) is written as that integer. No
///   other integer is the same f64 there, and a decimal with fewer significant digits would be a
///   multiple of ten, so another integer: its digits are the shortest.
/// - A value with at most six fraction digits and fifteen significant ones (`0.5`, `-1.25`,
///   `99.99`): [`write_short_decimal`].
fn write_f64(f: f64, out: &mut Vec<u8>) {
    if f.abs() < EXACT_INTEGERS {
        // Exact: |f| < 2^53, and `as` truncates toward zero.
        let i = f as i64;
        if i as f64 == f {
            // -0 is written as 0.
            if i < 0 {
                out.push(b'-');
            }
            return write_u64(i.unsigned_abs(), out);
        }
        if write_short_decimal(f, out) {
            return;
        }
    }
    if !f.is_finite() {
        // serde_json never holds NaN or infinities.
        out.push(b'0');
        return;
    }
    let mut buf = ryu_js::Buffer::new();
    out.extend_from_slice(buf.format_finite(f).as_bytes());
}

/// The fraction digits [`write_short_decimal`] looks for, as a power of ten.
const SHORT_SCALE: f64 = 1e6;
const SHORT_FRACTION_DIGITS: i32 = 6;

/// Writes a finite, non-integral `f` below 2^53 in magnitude as ECMAScript does, when a decimal of
/// at most six fraction digits and fifteen significant ones parses to it; says whether it did
/// (otherwise it writes nothing).
///
/// Why these are ECMAScript's bytes: a decimal of at most 15 significant digits that parses to `f`
/// is the only one. Two such decimals are at least 10^-15 of the smaller apart (both are
/// multiples of 10^(E-14), 10^E the power of ten at or below the smaller), and the reals that
/// round to `f` span at most one unit in its last place, 2^-52 of `f`. So it is the shortest
/// decimal that parses to `f`, and no tie arises. The candidate is `m / 10^6`, `m` the integer
/// nearest `f * 10^6`; it is checked exactly: `m` (below 10^15) and 10^6 are f64s, and IEEE
/// division rounds `m / 10^6` correctly, as a parser of that decimal does. Its digits are `m`'s
/// without their trailing zeros; at least one fraction digit stays (an integer below 2^53 parses
/// to itself, and `f` is none), and the first digit sits at 10^-6 or above, where ECMAScript writes
/// no exponent.
#[inline]
fn write_short_decimal(f: f64, out: &mut Vec<u8>) -> bool {
    let scaled = (f * SHORT_SCALE).round();
    if scaled.abs() >= 1e15 {
        return false;
    }
    let m = scaled as i64;
    if m == 0 || m as f64 / SHORT_SCALE != f {
        return false;
    }
    let (mut digits, mut fraction) = (m.unsigned_abs(), SHORT_FRACTION_DIGITS);
    while fraction > 0 && digits % 10 == 0 {
        digits /= 10;
        fraction -= 1;
    }
    if fraction == 0 {
        // Not reached (see above); the general path writes integers too.
        return false;
    }
    let mut buf = [0; 20];
    let digits = u64_digits(digits, &mut buf);
    if m < 0 {
        out.push(b'-');
    }
    // Digits before the decimal point: at most 9 (`m` is below 10^15), at least -5.
    let whole = digits.len() as i32 - fraction;
    if whole > 0 {
        let (int, frac) = digits.split_at(whole as usize);
        out.extend_from_slice(int);
        out.push(b'.');
        out.extend_from_slice(frac);
    } else {
        out.extend_from_slice(b"0.");
        out.extend_from_slice(b"00000".get(..whole.unsigned_abs() as usize).unwrap_or_default());
        out.extend_from_slice(digits);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn num(text: &str) -> String {
        to_string(&serde_json::from_str::<Value>(text).unwrap())
    }

    #[test]
    fn the_exact_text_is_the_canonical_text_without_spare_capacity_at_any_size() {
        let small = json!({"b": [1, "x"], "a": {"\u{e000}": null, "z": true}});
        let large =
            json!({"list": vec!["a schema long enough to pass the scratch limit"; 2 * SCRATCH_KEEP / 40]});
        // Twice each, in turns: the thread's buffer is reused and must not carry text over.
        for value in [&small, &large, &small, &large] {
            let text = to_string_exact(value);
            assert_eq!(text, to_string(value));
        }
        assert_eq!(to_string_exact(&small).capacity(), to_string(&small).len());
        assert!(to_string_exact(&large).len() > SCRATCH_KEEP);
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
            // A tie between two shortest candidates goes to the even digit, as in JavaScript.
            ("-1035849256835417.25", "-1035849256835417.2"),
            ("0.1", "0.1"),
            ("100", "100"),
            ("-100", "-100"),
            // Integral f64s below 2^53 (the integer path), and past it (the general path).
            ("1e6", "1000000"),
            ("-1e6", "-1000000"),
            ("255.0", "255"),
            ("9007199254740991.0", "9007199254740991"),
            ("9007199254740993.0", "9007199254740992"),
            ("4503599627370496.5", "4503599627370496"),
            ("18446744073709551615.0", "18446744073709552000"),
            // Short decimals (the six-fraction-digit path), and just past what it takes.
            ("0.5", "0.5"),
            ("-0.25", "-0.25"),
            ("1.15", "1.15"),
            ("99.99", "99.99"),
            ("0.000001", "0.000001"),
            ("-0.0000015", "-0.0000015"),
            ("123456789.123456", "123456789.123456"),
            ("1234567890.5", "1234567890.5"),
            ("0.0000001", "1e-7"),
        ] {
            assert_eq!(num(input), want, "{input}");
        }
    }

    #[test]
    fn every_short_decimal_is_written_as_the_general_path_writes_it() {
        // Every number of up to four digits with up to seven of them after the point, and its
        // neighbouring f64s: the integer and short-decimal paths against `ryu-js` alone.
        let general = |f: f64| ryu_js::Buffer::new().format_finite(f).to_owned();
        for m in (-9_999i32..=9_999).filter(|&m| m != 0) {
            for fraction in 0..=7 {
                let f = f64::from(m) / 10f64.powi(fraction);
                for f in [f.next_down(), f, f.next_up()] {
                    let mut ours = Vec::new();
                    write_f64(f, &mut ours);
                    assert_eq!(String::from_utf8(ours).unwrap(), general(f), "{m}e-{fraction}");
                }
            }
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
        // serde_json's own drop of this value would recurse.
        crate::walk::drop_any_depth(v);
    }

    /// The escaping rules of RFC 8785 §3.2.2.2 one byte at a time: the reference the chunked
    /// writer is checked against.
    fn escape_slowly(s: &str) -> Vec<u8> {
        let mut out = vec![b'"'];
        for c in s.chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\u{8}' => out.extend_from_slice(b"\\b"),
                '\t' => out.extend_from_slice(b"\\t"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\u{c}' => out.extend_from_slice(b"\\f"),
                '\r' => out.extend_from_slice(b"\\r"),
                c if (c as u32) < 0x20 => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
                c => out.extend_from_slice(c.to_string().as_bytes()),
            }
        }
        out.push(b'"');
        out
    }

    /// Strings that stress the escaper and the key order: runs of plain ASCII longer than a
    /// word, every escaped byte, and characters on both sides of U+E000 and U+FFFF.
    fn tricky_string() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            "[a-z]{0,12}",
            Just("\"".to_owned()),
            Just("\\".to_owned()),
            (0u32..0x20).prop_map(|c| char::from_u32(c).map(String::from).unwrap_or_default()),
            Just("\u{7f}\u{80}\u{7ff}\u{800}".to_owned()),
            Just("\u{d7ff}\u{e000}\u{fb33}\u{ffff}".to_owned()),
            Just("\u{10000}\u{1f602}\u{10ffff}".to_owned()),
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..8).prop_map(|v| v.concat())
    }

    proptest! {
        // Law: the chunked escaper writes exactly what the one-character-at-a-time rules write.
        #[test]
        fn chunked_string_escaping_matches_the_byte_by_byte_rules(s in tricky_string()) {
            let mut fast = Vec::new();
            write_string(&s, &mut fast);
            prop_assert_eq!(fast, escape_slowly(&s));
        }

        // Law: the word test for characters at U+E000 or above agrees with a byte scan.
        #[test]
        fn the_high_key_test_agrees_with_a_byte_scan(s in tricky_string()) {
            prop_assert_eq!(has_byte_from_ee(s.as_bytes()), s.bytes().any(|b| b >= 0xEE));
        }

        // Law: the lowest escape mark of a word is its first byte that needs escaping, and a word
        // has a mark exactly when some byte needs escaping.
        #[test]
        fn the_lowest_escape_mark_is_the_first_byte_that_needs_escaping(bytes in near_escape_bytes()) {
            let marks = escape_marks(u64::from_le_bytes(bytes));
            let first = bytes.iter().position(|&b| ESCAPE[usize::from(b)] != 0);
            prop_assert_eq!((marks != 0).then(|| (marks.trailing_zeros() / 8) as usize), first);
        }

        // Law: the iterative writer (used below the recursion limit) writes what the recursive
        // one writes.
        #[test]
        fn the_iterative_writer_writes_the_same_bytes_as_the_recursive_one(v in tricky_value()) {
            let mut deep = Vec::new();
            write_deep(&v, &mut deep, usize::MAX, |_| {});
            prop_assert_eq!(deep, to_vec(&v));
        }

        // Law: a value nested around the recursion limit, where the writer hands over to the
        // iterative one, is written as its wrappers around its own RFC 8785 bytes.
        #[test]
        fn values_across_the_recursion_limit_keep_their_bytes(
            v in tricky_value(),
            depth in RECURSION_LEVELS - 3..RECURSION_LEVELS + 3,
            in_objects in any::<bool>(),
        ) {
            let inner = serde_json_canonicalizer::to_vec(&v).unwrap();
            let (open, close): (&[u8], &[u8]) = if in_objects { (b"{\"k\":", b"}") } else { (b"[", b"]") };
            let mut want = open.repeat(depth as usize);
            want.extend_from_slice(&inner);
            want.extend_from_slice(&close.repeat(depth as usize));
            let mut wrapped = v;
            for _ in 0..depth {
                wrapped = if in_objects { json!({"k": wrapped}) } else { json!([wrapped]) };
            }
            prop_assert_eq!(to_vec(&wrapped), want);
        }

        // Law: the whole-string check says "needs escaping" exactly when some byte does.
        #[test]
        fn the_word_check_finds_exactly_the_bytes_that_need_escaping(s in tricky_string()) {
            let slow = s.bytes().any(|b| ESCAPE[usize::from(b)] != 0);
            prop_assert_eq!(needs_escape(s.as_bytes()), slow);
        }

        // Law: key order is the order of the strings' UTF-16 code units.
        #[test]
        fn key_order_is_utf16_code_unit_order(a in tricky_string(), b in tricky_string()) {
            prop_assert_eq!(cmp_utf16(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
            prop_assert_eq!(cmp_utf16(&a, &a), Ordering::Equal);
        }

        // Law: a finite f64 is written as ECMAScript's Number.prototype.toString writes it (the
        // RFC 8785 crate serde_json_canonicalizer, through ryu-js, is the reference).
        #[test]
        fn floats_match_an_independent_ecmascript_formatter(bits in any::<u64>()) {
            let f = f64::from_bits(bits);
            prop_assume!(f.is_finite());
            let v = json!(f);
            prop_assert_eq!(to_vec(&v), serde_json_canonicalizer::to_vec(&v).unwrap());
        }

        // Law: the integer and short-decimal paths write what the general path (ECMAScript's
        // algorithm) writes: decimals of up to 16 digits with up to 8 fraction digits, integers
        // past 2^53, and the f64s next to each.
        #[test]
        fn short_numbers_match_an_independent_ecmascript_formatter(
            m in -(1i64 << 54)..(1i64 << 54),
            shift in 0u32..40,
            fraction in 0i32..9,
            step in -1i32..2,
        ) {
            let f = (m >> shift) as f64 / 10f64.powi(fraction);
            let f = match step {
                -1 => f.next_down(),
                1 => f.next_up(),
                _ => f,
            };
            let v = json!(f);
            prop_assert_eq!(to_vec(&v), serde_json_canonicalizer::to_vec(&v).unwrap());
        }

        // Law: whole values are written as an independent RFC 8785 implementation writes them
        // (integers kept inside ±2^53, where the two agree by definition).
        #[test]
        fn values_match_an_independent_rfc8785_writer(v in tricky_value()) {
            prop_assert_eq!(to_vec(&v), serde_json_canonicalizer::to_vec(&v).unwrap());
            let mut via_sink = Vec::new();
            write(&v, &mut via_sink);
            prop_assert_eq!(via_sink, to_vec(&v));
        }
    }

    /// Eight bytes, mostly at the edges of the escape tests: control characters, the bytes just
    /// above `0x20`, `"` and `\\`, and high bytes.
    fn near_escape_bytes() -> impl Strategy<Value = [u8; 8]> {
        let byte = prop_oneof![0u8..0x22, 0x20u8..0x24, 0x5Bu8..0x5E, 0x7Eu8..=0xFF, any::<u8>()];
        proptest::array::uniform8(byte)
    }

    #[test]
    fn escapes_next_to_bytes_just_above_them_are_found_at_every_offset() {
        // A borrow in the word test marks bytes just above an escaped one (`\n` then a space,
        // `"` then `#`): the writer must trust only the lowest mark.
        for e in (0u8..0x20).chain([b'"', b'\\']) {
            for next in 0u8..0x80 {
                for offset in 0..10 {
                    let s = format!(
                        "{}{}{}tail of some length",
                        "p".repeat(offset),
                        char::from(e),
                        char::from(next)
                    );
                    let mut fast = Vec::new();
                    write_string(&s, &mut fast);
                    assert_eq!(fast, escape_slowly(&s), "{s:?}");
                }
            }
        }
    }

    fn tricky_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-(1i64 << 53)..(1i64 << 53)).prop_map(|i| json!(i)),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
            tricky_string().prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                proptest::collection::vec((tricky_string(), inner), 0..8)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn a_large_value_reaches_a_sink_in_blocks_with_the_same_bytes() {
        let big = json!({"s": "x".repeat(3 * FLUSH_AT), "list": (0..5000).collect::<Vec<_>>()});
        struct Pieces(Vec<usize>, Vec<u8>);
        impl Sink for Pieces {
            fn put(&mut self, bytes: &[u8]) {
                self.0.push(bytes.len());
                self.1.extend_from_slice(bytes);
            }
        }
        let mut sink = Pieces(Vec::new(), Vec::new());
        write(&big, &mut sink);
        assert_eq!(sink.1, to_vec(&big));
        assert!(sink.0.len() > 1, "written in one piece: {:?}", sink.0);
    }
}
