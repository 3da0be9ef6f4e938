//! `sha256:` hashes of canonical bytes.
//!
//! ```
//! use serde_json::json;
//! let a = toolschema::schema_hash(&json!({"b": 1, "a": 2}));
//! let b = toolschema::schema_hash(&json!({"a": 2, "b": 1.0}));
//! assert_eq!(a, b);
//! assert_eq!(a.to_string().len(), "sha256:".len() + 64);
//! ```
//!
//! [`schema_hash`] is exactly `sha256:` followed by the lowercase hex of SHA-256 over the value's
//! [RFC 8785 bytes](crate::canonical): any language reproduces it with an RFC 8785 library and any
//! SHA-256 tool (for integers inside ±2^53; see the canonical module for the one extension).

use crate::canonical;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// A SHA-256 digest that displays as `sha256:<64 lowercase hex>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SchemaHash([u8; 32]);

impl SchemaHash {
    /// The raw digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The digest from raw bytes.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        SchemaHash(bytes)
    }

    /// The 64 lowercase hex digits, without the `sha256:` prefix.
    pub fn hex(&self) -> String {
        let mut s = String::with_capacity(64);
        for b in self.0 {
            s.push(char::from(HEX[usize::from(b >> 4)]));
            s.push(char::from(HEX[usize::from(b & 0xF)]));
        }
        s
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl fmt::Display for SchemaHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256:{}", self.hex())
    }
}

impl fmt::Debug for SchemaHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SchemaHash({self})")
    }
}

/// Why a string is not a `sha256:<hex>` hash.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseHashError {
    /// The `sha256:` prefix is missing.
    #[error("a schema hash starts with `sha256:`")]
    MissingPrefix,
    /// Not 64 lowercase hex digits after the prefix.
    #[error("a schema hash has 64 lowercase hex digits after `sha256:`")]
    BadDigits,
}

impl FromStr for SchemaHash {
    type Err = ParseHashError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let hex = s.strip_prefix("sha256:").ok_or(ParseHashError::MissingPrefix)?;
        let digit = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        if hex.len() != 64 {
            return Err(ParseHashError::BadDigits);
        }
        let mut out = [0u8; 32];
        for (i, pair) in hex.as_bytes().chunks_exact(2).enumerate() {
            let hi = digit(pair[0]).ok_or(ParseHashError::BadDigits)?;
            let lo = digit(pair[1]).ok_or(ParseHashError::BadDigits)?;
            out[i] = hi << 4 | lo;
        }
        Ok(SchemaHash(out))
    }
}

/// Feeds SHA-256 in blocks of about [`BLOCK`] bytes, so the canonical bytes are never held whole.
pub(crate) struct HashSink {
    hasher: Sha256,
    buf: Vec<u8>,
}

const BLOCK: usize = canonical::FLUSH_AT;

impl HashSink {
    pub(crate) fn new() -> Self {
        HashSink { hasher: Sha256::new(), buf: Vec::with_capacity(BLOCK + 256) }
    }

    /// Appends raw bytes.
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        if self.buf.len() + bytes.len() > BLOCK {
            self.hasher.update(&self.buf);
            self.buf.clear();
            if bytes.len() > BLOCK {
                self.hasher.update(bytes);
                return;
            }
        }
        self.buf.extend_from_slice(bytes);
    }

    /// Appends the canonical bytes of `value`, written straight into the block buffer.
    pub(crate) fn value(&mut self, value: &Value) {
        let hasher = &mut self.hasher;
        canonical::write_buffered(value, &mut self.buf, BLOCK, |b| {
            hasher.update(&b[..]);
            b.clear();
        });
    }

    pub(crate) fn finish(mut self) -> SchemaHash {
        self.hasher.update(&self.buf);
        SchemaHash(self.hasher.finalize().into())
    }
}

/// `sha256:` + lowercase hex of SHA-256 over the RFC 8785 bytes of `value`.
pub fn schema_hash(value: &Value) -> SchemaHash {
    let mut sink = HashSink::new();
    sink.value(value);
    sink.finish()
}

/// SHA-256 of the canonical bytes of `{"dialect": <name>, "schema": <schema>}`, given the
/// schema's canonical bytes, without building that object. This is what
/// [`ToolSchema::hash`](crate::ToolSchema::hash) returns.
pub(crate) fn envelope_hash(dialect: &str, exact: bool, canonical_schema: &[u8]) -> SchemaHash {
    let mut sink = HashSink::new();
    sink.put(b"{\"dialect\":");
    sink.value(&Value::String(dialect.to_owned()));
    // Keys in RFC 8785 order: `dialect`, `exact`, `schema`.
    if exact {
        sink.put(b",\"exact\":true");
    }
    sink.put(b",\"schema\":");
    sink.put(canonical_schema);
    sink.put(b"}");
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_object_hash_matches_sha256_of_braces() {
        // sha256("{}"), as `printf '{}' | sha256sum` prints it.
        assert_eq!(
            schema_hash(&json!({})).to_string(),
            "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
    }

    #[test]
    fn display_round_trips_through_from_str() {
        let h = schema_hash(&json!({"a": [1, 2]}));
        assert_eq!(h.to_string().parse::<SchemaHash>(), Ok(h));
        assert_eq!("sha1:00".parse::<SchemaHash>(), Err(ParseHashError::MissingPrefix));
        assert_eq!("sha256:XY".parse::<SchemaHash>(), Err(ParseHashError::BadDigits));
    }

    #[test]
    fn envelope_hash_is_the_hash_of_the_envelope_object() {
        let schema = json!({"type": "object", "properties": {"b": {}, "a": {}}});
        let direct = schema_hash(&json!({"dialect": "json-schema", "schema": schema}));
        let bytes = canonical::to_vec(&schema);
        assert_eq!(envelope_hash("json-schema", false, &bytes), direct);
        assert_ne!(envelope_hash("other", false, &bytes), direct);
        let exact = schema_hash(&json!({"dialect": "json-schema", "exact": true, "schema": schema}));
        assert_eq!(envelope_hash("json-schema", true, &bytes), exact);
    }

    #[test]
    fn large_values_hash_across_block_boundaries() {
        let big = json!({"s": "x".repeat(3 * BLOCK + 17), "t": "y".repeat(BLOCK - 3)});
        let mut h = Sha256::new();
        h.update(canonical::to_vec(&big));
        let want = SchemaHash(h.finalize().into());
        assert_eq!(schema_hash(&big), want);
    }
}
