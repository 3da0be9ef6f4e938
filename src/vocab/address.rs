//! Addresses as keys: a walk that reads a schema without changing it names a subschema (a
//! definition) by where it is in memory, and hashes that by a multiplication.

/// Where a value is in memory: while a pass reads a schema without changing it, this names one
/// subschema (a definition) for the whole walk, and hashes cheaply.
pub(crate) fn address(def: &serde_json::Value) -> usize {
    std::ptr::from_ref(def).addr()
}

/// A set of [`address`]es.
pub(crate) type AddressSet = std::collections::HashSet<usize, std::hash::BuildHasherDefault<AddressHasher>>;

/// Hashes an address by a multiplication (SipHash, the default, costs more than the rest of a
/// lookup here; addresses are not chosen by an adversary).
#[derive(Default)]
pub(crate) struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // Fold the well-mixed high half into the low bits too: the table picks buckets by the low
        // bits, and an address's own low bits are always zero.
        let x = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = x ^ (x >> 32);
    }
}
