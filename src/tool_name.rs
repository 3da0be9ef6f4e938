//! Tool names a provider accepts, for tools named by someone else.
//!
//! MCP allows names a provider refuses (`github.repo/list`, `fetch:url`, 200 characters), and
//! one refused name fails every request of a conversation. Each provider's rule:
//!
//! | rule | dialects | a name is |
//! | --- | --- | --- |
//! | [`NameRule::OpenAi`] | `openai-strict`, `openai-agents-mcp` | `^[a-zA-Z0-9_-]{1,64}$` |
//! | [`NameRule::Anthropic`] | `anthropic-strict` | `^[a-zA-Z0-9_-]{1,128}$` |
//! | [`NameRule::Gemini`] | `gemini`, `gemini-ordered`, `gemini-json-schema` | a letter or `_`, then letters, digits, `_ . : -`; at most 64 |
//!
//! [`ToolNames`] gives each name of a set one the rule accepts: a name the provider takes stays
//! as it is; any other becomes a readable transform (each refused character an `_`, and for
//! Gemini a leading `_` where the name starts with neither a letter nor `_`), and where that is
//! too long, or already taken by another tool of the set, it is cut and ends in `_` and eight hex
//! digits of a hash of the original name. The map is deterministic (names are handled in sorted
//! order, and a name added later never takes one already given) and collision-free both ways, so
//! a call under the provider's name maps back to exactly one tool.
//!
//! ```
//! use toolschema::tool_name::{NameRule, ToolNames};
//! let rule = NameRule::for_dialect("openai-strict").unwrap();
//! assert!(!rule.accepts("github.repo/list"));
//! let names = ToolNames::from_names(rule, ["github.repo/list", "github_repo_list", "search"]);
//! // The readable form is taken by a tool of that very name: a hash suffix tells them apart.
//! let mapped = names.provider_name("github.repo/list");
//! assert!(mapped.starts_with("github_repo_list_") && mapped.len() == 25, "{mapped}");
//! assert_eq!(names.provider_name("search"), "search");
//! assert_eq!(names.original_name(mapped), "github.repo/list");
//! assert!(names.renamed().all(|(_, to)| rule.accepts(to)));
//! ```

use std::collections::{BTreeMap, BTreeSet};

/// A provider's rule for tool (function) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$`.
    OpenAi,
    /// `^[a-zA-Z0-9_-]{1,128}$`.
    Anthropic,
    /// Starts with a letter or `_`; letters, digits, `_`, `.`, `:`, `-`; at most 64 characters.
    Gemini,
}

/// The length of the hash suffix: `_` and eight hex digits.
const SUFFIX: usize = 9;

impl NameRule {
    /// The rule of a built-in dialect's provider, by the dialect's name; `None` for a dialect
    /// that is no provider's (`json-schema`, `mcp`, ...).
    pub fn for_dialect(dialect: &str) -> Option<NameRule> {
        match dialect {
            "openai-strict" | "openai-agents-mcp" => Some(NameRule::OpenAi),
            "anthropic-strict" => Some(NameRule::Anthropic),
            "gemini" | "gemini-ordered" | "gemini-json-schema" => Some(NameRule::Gemini),
            _ => None,
        }
    }

    /// The longest name the provider takes, in characters.
    pub fn max_len(self) -> usize {
        match self {
            NameRule::OpenAi | NameRule::Gemini => 64,
            NameRule::Anthropic => 128,
        }
    }

    /// The pattern, as the provider documents it.
    pub fn pattern(self) -> &'static str {
        match self {
            NameRule::OpenAi => "^[a-zA-Z0-9_-]{1,64}$",
            NameRule::Anthropic => "^[a-zA-Z0-9_-]{1,128}$",
            NameRule::Gemini => "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
        }
    }

    fn allowed(self, c: char) -> bool {
        c.is_ascii_alphanumeric()
            || c == '_'
            || c == '-'
            || (self == NameRule::Gemini && (c == '.' || c == ':'))
    }

    fn starts_well(self, name: &str) -> bool {
        self != NameRule::Gemini || name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
    }

    /// Whether the provider takes `name` as it is.
    pub fn accepts(self, name: &str) -> bool {
        !name.is_empty()
            && name.len() <= self.max_len()
            && name.chars().all(|c| self.allowed(c))
            && self.starts_well(name)
    }

    /// `name` with each character the provider refuses as `_` (and, for Gemini, a leading `_`
    /// where needed): readable, not yet cut to length nor made unique.
    fn readable(self, name: &str) -> String {
        let mut out: String = name.chars().map(|c| if self.allowed(c) { c } else { '_' }).collect();
        if out.is_empty() || !self.starts_well(&out) {
            out.insert(0, '_');
        }
        out
    }

    /// `readable` cut to leave room for the suffix, then `_` and the hash of `(original, salt)`.
    fn suffixed(self, readable: &str, original: &str, salt: u32) -> String {
        // `readable` is ASCII: any byte index is a character boundary.
        let keep = readable.len().min(self.max_len() - SUFFIX);
        let mut hash = fnv1a(original.as_bytes());
        if salt > 0 {
            hash = fnv1a_continue(hash, &salt.to_le_bytes());
        }
        format!("{}_{hash:08x}", &readable[..keep])
    }
}

/// 32-bit FNV-1a: a short, stable hash (the same on every machine and build) for the suffix;
/// collisions are resolved by the caller.
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    fnv1a_continue(0x811c_9dc5, bytes)
}

pub(crate) fn fnv1a_continue(mut hash: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// A set of tool names mapped to names a provider accepts (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolNames {
    rule: NameRule,
    /// Original name to provider name, for the names that change.
    to_provider: BTreeMap<String, String>,
    /// Provider name to original name, for the names that change.
    to_original: BTreeMap<String, String>,
    /// Every provider name given out, changed or not.
    taken: BTreeSet<String>,
}

impl ToolNames {
    /// An empty map under `rule`.
    pub fn new(rule: NameRule) -> Self {
        ToolNames { rule, to_provider: BTreeMap::new(), to_original: BTreeMap::new(), taken: BTreeSet::new() }
    }

    /// The map of a set of names.
    pub fn from_names<'a>(rule: NameRule, names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut map = ToolNames::new(rule);
        map.add(names);
        map
    }

    /// The rule the names follow.
    pub fn rule(&self) -> NameRule {
        self.rule
    }

    /// Adds names (a later page of a listing, a listing after a change). A name already known
    /// keeps its provider name; the names the provider accepts are kept first, then the others
    /// are mapped in sorted order to names nothing holds yet.
    pub fn add<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        let known = |map: &Self, n: &str| {
            map.to_provider.contains_key(n) || (map.taken.contains(n) && !map.to_original.contains_key(n))
        };
        let new: BTreeSet<&str> = names.into_iter().filter(|n| !known(self, n)).collect();
        let mut remap = Vec::new();
        for name in new {
            // A name the provider accepts is its own, unless an earlier mapping gave it out:
            // then it is mapped like a refused one.
            if self.rule.accepts(name) && !self.taken.contains(name) {
                self.taken.insert(name.to_owned());
            } else {
                remap.push(name);
            }
        }
        let rule = self.rule;
        for name in remap {
            let readable = rule.readable(name);
            let mut candidate = readable.clone();
            let mut salt = 0;
            while candidate.len() > rule.max_len() || self.taken.contains(&candidate) {
                candidate = rule.suffixed(&readable, name, salt);
                salt += 1;
            }
            self.taken.insert(candidate.clone());
            self.to_original.insert(candidate.clone(), name.to_owned());
            self.to_provider.insert(name.to_owned(), candidate);
        }
    }

    /// The name the provider is told for `original` (itself when unchanged or unknown).
    pub fn provider_name<'a>(&'a self, original: &'a str) -> &'a str {
        self.to_provider.get(original).map_or(original, String::as_str)
    }

    /// The tool a name the provider was told stands for (itself when unchanged or unknown).
    pub fn original_name<'a>(&'a self, provider: &'a str) -> &'a str {
        self.to_original.get(provider).map_or(provider, String::as_str)
    }

    /// Each changed name as `(original, provider)`, in the originals' order.
    pub fn renamed(&self) -> impl Iterator<Item = (&str, &str)> {
        self.to_provider.iter().map(|(a, b)| (a.as_str(), b.as_str()))
    }

    /// Whether no name changes.
    pub fn is_empty(&self) -> bool {
        self.to_provider.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: [NameRule; 3] = [NameRule::OpenAi, NameRule::Anthropic, NameRule::Gemini];

    /// The documented pattern, checked by hand (no regex engine in the library).
    fn matches_pattern(rule: NameRule, name: &str) -> bool {
        let n = name.chars().count();
        let body = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        match rule {
            NameRule::OpenAi => (1..=64).contains(&n) && name.chars().all(body),
            NameRule::Anthropic => (1..=128).contains(&n) && name.chars().all(body),
            NameRule::Gemini => {
                (1..=64).contains(&n)
                    && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| body(c) || c == '.' || c == ':')
            }
        }
    }

    #[test]
    fn every_mapped_name_matches_the_providers_pattern_and_maps_back() {
        let long = "x".repeat(200);
        let names = [
            "github.repo/list",
            "github_repo_list",
            "fetch:url",
            "1st",
            "",
            "é",
            "_",
            "a b",
            "a_b",
            "a-b",
            long.as_str(),
            &long[..129],
            "ok",
        ];
        for rule in RULES {
            let map = ToolNames::from_names(rule, names);
            let mut seen = BTreeSet::new();
            for name in names {
                let to = map.provider_name(name);
                assert!(matches_pattern(rule, to), "{rule:?}: `{name}` -> `{to}`");
                assert!(rule.accepts(to));
                assert_eq!(map.original_name(to), name, "{rule:?}");
                assert!(seen.insert(to.to_owned()), "{rule:?}: `{to}` given twice");
                if rule.accepts(name) {
                    assert_eq!(to, name, "{rule:?}: an accepted name is kept");
                }
            }
        }
    }

    #[test]
    fn the_readable_form_is_used_when_free_and_the_hash_only_on_collision_or_overflow() {
        let map = ToolNames::from_names(NameRule::OpenAi, ["github.repo/list", "fetch:url"]);
        assert_eq!(map.provider_name("github.repo/list"), "github_repo_list");
        assert_eq!(map.provider_name("fetch:url"), "fetch_url");
        let gemini = ToolNames::from_names(NameRule::Gemini, ["fetch:url", "1st", "a/b"]);
        assert_eq!(gemini.provider_name("fetch:url"), "fetch:url");
        assert_eq!(gemini.provider_name("1st"), "_1st");
        assert_eq!(gemini.provider_name("a/b"), "a_b");
        let long = "y".repeat(70);
        let to = ToolNames::from_names(NameRule::OpenAi, [long.as_str()]).provider_name(&long).to_owned();
        assert_eq!(to.len(), 64);
        assert_eq!(&to[..55], &long[..55]);
        assert_eq!(to, format!("{}_{:08x}", &long[..55], fnv1a(long.as_bytes())));
        // Anthropic takes 70 characters.
        assert!(ToolNames::from_names(NameRule::Anthropic, [long.as_str()]).is_empty());
    }

    #[test]
    fn the_map_does_not_depend_on_the_order_names_come_in() {
        let names = ["a.b", "a/b", "a_b", "a:b", "z.z"];
        let forward = ToolNames::from_names(NameRule::OpenAi, names);
        let backward = ToolNames::from_names(NameRule::OpenAi, names.iter().rev().copied());
        assert_eq!(forward, backward);
        assert_eq!(forward.provider_name("a_b"), "a_b");
    }

    #[test]
    fn names_added_later_keep_the_earlier_map() {
        let mut map = ToolNames::from_names(NameRule::OpenAi, ["b.x"]);
        assert_eq!(map.provider_name("b.x"), "b_x");
        // A later page holds a tool whose own name is `b_x`, and one whose readable form is too.
        map.add(["b_x", "b/x"]);
        assert_eq!(map.provider_name("b.x"), "b_x", "an earlier name keeps its mapping");
        let (own, slash) = (map.provider_name("b_x").to_owned(), map.provider_name("b/x").to_owned());
        assert!(own != "b_x" && slash != "b_x" && own != slash, "{own} {slash}");
        for (name, to) in [("b.x", "b_x"), ("b_x", own.as_str()), ("b/x", slash.as_str())] {
            assert_eq!(map.original_name(to), name);
        }
    }
}
