//! Property keys a provider refuses (Anthropic: `^[a-zA-Z0-9_.-]{1,64}$` for every key of a
//! tool's top-level `properties`): each such key is sent under another name, and restore maps it
//! back.
//!
//! The original says `"filter[id]": {...}`; the provider is told `"filter_id_": {...}`, with
//! `required` (and every rule that names the key, stated in the description) following the new
//! name; restore renames `filter_id_` back to `filter[id]` before anything else reads the object.
//!
//! A new name is readable and deterministic: each character the rule refuses becomes `_`, and
//! where that is longer than the rule allows, or already a key of the same object (kept as it is,
//! or given to another key), it is cut and ends in `_` and eight hex digits of a hash of the
//! original key (salted until free). Keys the rule accepts keep their names and are never given
//! out; the refused ones are named in sorted order, so the names do not depend on the order the
//! keys come in. The same rule and hash as tool names ([`crate::tool_name`]).

use super::{Faults, Stop};
use crate::tool_name::{fnv1a, fnv1a_continue};
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A provider's rule for property keys: ASCII letters and digits, the characters of `extra`, at
/// least one and at most `max_len`; for the keys of the tool's top-level `properties` only, or at
/// every depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyRule {
    pub(crate) max_len: usize,
    pub(crate) extra: &'static str,
    /// The rule as the provider words it.
    pub(crate) pattern: &'static str,
    /// Whether the provider checks the top-level `properties` only (a nested object's keys, an
    /// array's items' and a definition's pass as they are).
    pub(crate) top_level_only: bool,
    /// Whether every character past ASCII that is not a control character is allowed too.
    pub(crate) non_ascii: bool,
}

/// Anthropic's (and Amazon Bedrock's, for Claude): `^[a-zA-Z0-9_.-]{1,64}$`, on the top-level
/// `properties` only (measured on Bedrock: a refused key nested in an object, in `items` or in a
/// definition passes).
pub(crate) const ANTHROPIC: KeyRule = KeyRule {
    max_len: 64,
    extra: "_.-",
    pattern: "^[a-zA-Z0-9_.-]{1,64}$",
    top_level_only: true,
    non_ascii: false,
};

/// The length of the hash suffix: `_` and eight hex digits.
const SUFFIX: usize = 9;

impl KeyRule {
    fn allowed(self, c: char) -> bool {
        c.is_ascii_alphanumeric()
            || self.extra.contains(c)
            || self.non_ascii && !c.is_ascii() && !c.is_control()
    }

    /// Whether the provider takes `key` as it is.
    pub(crate) fn accepts(self, key: &str) -> bool {
        !key.is_empty() && key.len() <= self.max_len && key.chars().all(|c| self.allowed(c))
    }

    /// `key` with each refused character as `_` (an empty key is `_`).
    fn readable(self, key: &str) -> String {
        let out: String = key.chars().map(|c| if self.allowed(c) { c } else { '_' }).collect();
        if out.is_empty() { "_".into() } else { out }
    }

    /// `readable` cut to leave room for the suffix, then `_` and the hash of `(key, salt)`.
    fn suffixed(self, readable: &str, key: &str, salt: u32) -> String {
        // `readable` is ASCII: any byte index is a character boundary.
        let keep = readable.len().min(self.max_len.saturating_sub(SUFFIX));
        let mut hash = fnv1a(key.as_bytes());
        if salt > 0 {
            hash = fnv1a_continue(hash, &salt.to_le_bytes());
        }
        format!("{}_{hash:08x}", &readable[..keep])
    }
}

/// Forward: the new name of each key of one object that `rule` refuses, as `(sent, original)`
/// sorted by the sent name; empty when every key is taken as it is.
pub(crate) fn write<'a>(rule: KeyRule, keys: impl IntoIterator<Item = &'a str>) -> Vec<(String, String)> {
    let keys: BTreeSet<&str> = keys.into_iter().collect();
    let mut taken: BTreeSet<String> =
        keys.iter().filter(|k| rule.accepts(k)).map(|k| (*k).to_owned()).collect();
    let mut out = Vec::new();
    for key in keys.into_iter().filter(|k| !rule.accepts(k)) {
        let readable = rule.readable(key);
        let mut candidate = readable.clone();
        let mut salt = 0;
        while candidate.len() > rule.max_len || taken.contains(&candidate) {
            candidate = rule.suffixed(&readable, key, salt);
            salt += 1;
        }
        taken.insert(candidate.clone());
        out.push((candidate, key.to_owned()));
    }
    out.sort();
    out
}

/// The name `original` is sent under (itself where it is not renamed).
pub(crate) fn sent<'a>(renames: &'a [(String, String)], original: &'a str) -> &'a str {
    renames.iter().find(|(_, o)| o == original).map_or(original, |(s, _)| s.as_str())
}

/// Inverse: each sent name back to its original key. A key the object holds under its original
/// name as well is a fault (the provider's closed object never sends one; an open one would hand
/// it to the map of further keys).
pub(crate) fn restore(
    renames: &[(String, String)],
    mut m: Map<String, Value>,
    faults: &mut impl Faults,
) -> Value {
    for (sent, original) in renames {
        if m.contains_key(original) {
            faults.fault(format!("must not have the key `{original}`: it is sent as `{sent}`"));
            return Value::Object(m);
        }
    }
    for (sent, original) in renames {
        if let Some(v) = m.remove(sent) {
            m.insert(original.clone(), v);
        }
    }
    Value::Object(m)
}

/// [`restore`] over a borrowed value: decode does not follow a renamed object, restore does.
pub(crate) fn read(_m: &Map<String, Value>) -> Result<(), Stop> {
    Err(Stop::Subtree)
}

/// Forward map: each original key under its sent name.
pub(crate) fn encode(renames: &[(String, String)], value: Value) -> Value {
    let Value::Object(mut m) = value else { return value };
    for (sent, original) in renames {
        if let Some(v) = m.remove(original) {
            m.insert(sent.clone(), v);
        }
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::restore::rewrite::tests::Collect;
    use serde_json::json;

    /// The documented pattern, checked by hand.
    fn matches_pattern(key: &str) -> bool {
        (1..=64).contains(&key.chars().count())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    }

    fn renamed(keys: &[&str]) -> Vec<(String, String)> {
        write(ANTHROPIC, keys.iter().copied())
    }

    #[test]
    fn refused_keys_get_readable_names_and_accepted_ones_stay() {
        let keys = [
            "filter[id]",
            "rule_name[]",
            "$top",
            "@microsoft.graph.conflictBehavior",
            "Account Number",
            "ok.key-1",
        ];
        let map = renamed(&keys);
        let to = |k: &str| sent(&map, k).to_owned();
        assert_eq!(to("filter[id]"), "filter_id_");
        assert_eq!(to("rule_name[]"), "rule_name__");
        assert_eq!(to("$top"), "_top");
        assert_eq!(to("@microsoft.graph.conflictBehavior"), "_microsoft.graph.conflictBehavior");
        assert_eq!(to("Account Number"), "Account_Number");
        assert_eq!(to("ok.key-1"), "ok.key-1");
        assert_eq!(map.len(), 5);
        assert!(renamed(&["a", "b_c", "x.y"]).is_empty());
    }

    #[test]
    fn a_collision_or_an_overflow_takes_a_hash_suffix() {
        // `a_b` is a key of the object: `a b` cannot take it.
        let map = renamed(&["a b", "a_b", "a/b"]);
        let (space, slash) = (sent(&map, "a b").to_owned(), sent(&map, "a/b").to_owned());
        assert_eq!(sent(&map, "a_b"), "a_b");
        assert_eq!(space, format!("a_b_{:08x}", fnv1a(b"a b")));
        assert_eq!(slash, format!("a_b_{:08x}", fnv1a(b"a/b")));
        assert_ne!(space, slash);
        // Two refused keys with one readable form: the first in sorted order takes it.
        let map = renamed(&["a[b]", "a]b["]);
        assert_eq!(sent(&map, "a[b]"), "a_b_");
        assert_eq!(sent(&map, "a]b["), format!("a_b__{:08x}", fnv1a(b"a]b[")));
        // 70 characters: cut to 55 and the suffix.
        let long = "k".repeat(70);
        let map = renamed(&[long.as_str()]);
        assert_eq!(sent(&map, &long), format!("{}_{:08x}", &long[..55], fnv1a(long.as_bytes())));
        assert_eq!(sent(&map, "").len(), 0, "not renamed: not a key of this object");
        assert_eq!(sent(&renamed(&[""]), ""), "_");
    }

    #[test]
    fn every_new_name_matches_the_pattern_is_unique_and_maps_back() {
        let long = "é".repeat(40);
        let keys = ["", "_", "__", "a b", "a_b", "a-b", "a.b", "a/b", "é", "_0", long.as_str(), &long[..4]];
        let map = renamed(&keys);
        let mut seen = BTreeSet::new();
        for key in keys {
            let to = sent(&map, key);
            assert!(matches_pattern(to), "`{key}` -> `{to}`");
            assert!(seen.insert(to.to_owned()), "`{to}` given twice");
        }
        // The order the keys come in does not matter.
        let mut reversed = keys;
        reversed.reverse();
        assert_eq!(renamed(&reversed), map);
    }

    #[test]
    fn restore_and_encode_undo_each_other_and_refuse_a_key_sent_twice() {
        let map = renamed(&["filter[id]", "$top", "plain"]);
        let original = json!({"filter[id]": "7", "$top": 3, "plain": true});
        let sent_value = encode(&map, original.clone());
        assert_eq!(sent_value, json!({"filter_id_": "7", "_top": 3, "plain": true}));
        let mut faults = Collect::default();
        let Value::Object(m) = sent_value else { unreachable!() };
        assert_eq!(restore(&map, m, &mut faults), original);
        assert!(faults.0.is_empty());
        let both = json!({"filter_id_": "7", "filter[id]": "8"}).as_object().unwrap().clone();
        restore(&map, both, &mut faults);
        assert_eq!(faults.0, ["must not have the key `filter[id]`: it is sent as `filter_id_`"]);
        assert!(matches!(read(&Map::new()), Err(Stop::Subtree)));
        assert_eq!(encode(&map, json!([1])), json!([1]));
    }
}
