//! Assertions a provider cannot enforce: moved out of the provider's schema, stated in its
//! description, and checked by [`restore`](super::RestorePlan::restore).
//!
//! Each [`Check`] is one JSON Schema keyword with its draft 2020-12 meaning, including which
//! values it applies to (`minimum` says nothing about a string). The wording a check puts in the
//! description ([`Check::describe`]) and the one it puts in an error ([`Check::failure`]) are
//! the one documented wording: "at least 0", "at most 64 characters", "unique items".

use super::bound::{BigInt, Bound};
use super::format::Format;
use super::pattern::{Outcome, Pattern};
use serde_json::{Map, Number, Value};
use std::fmt::Write as _;

/// One assertion of the original schema, checked after the arguments are restored.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Check {
    /// `minimum`: a number at least this.
    Minimum(Bound),
    /// `maximum`: a number at most this.
    Maximum(Bound),
    /// `exclusiveMinimum`: a number greater than this.
    ExclusiveMinimum(Bound),
    /// `exclusiveMaximum`: a number less than this.
    ExclusiveMaximum(Bound),
    /// `multipleOf`: a number that is a multiple of this.
    MultipleOf(Bound),
    /// `minLength`: a string of at least this many characters (Unicode scalar values).
    MinLength(u64),
    /// `maxLength`: a string of at most this many characters.
    MaxLength(u64),
    /// `minItems`: an array of at least this many items.
    MinItems(u64),
    /// `maxItems`: an array of at most this many items.
    MaxItems(u64),
    /// `uniqueItems: true`: no two items equal (as JSON Schema compares: `1` equals `1.0`).
    UniqueItems,
    /// `minProperties`: an object with at least this many keys.
    MinProperties(u64),
    /// `maxProperties`: an object with at most this many keys.
    MaxProperties(u64),
    /// `additionalProperties: false` where the provider cannot close an object: no key but these.
    OnlyKeys(Vec<String>),
    /// `dependentRequired`: when the key is present, these must be too.
    DependentRequired(String, Vec<String>),
    /// `pattern`: a string with a match (run with a step bound, see [`Pattern`]).
    Pattern(Pattern),
    /// `anyOf` or `oneOf` beside the properties whose branches only say which keys are present
    /// (`required`, and `not` of `required`): at least one branch holds, or exactly one.
    Presence(Presence),
    /// `format`, one restore checks (see [`Format`]): a string written in that format.
    Format(Format),
    /// `enum` (or `const`, one value) where the provider gets the value as JSON text: one of
    /// these values (as JSON Schema compares: `1` equals `1.0`).
    OneOf(Vec<Value>),
}

/// Which keys an object holds, as a union of branches that say only that: "at least one of
/// `a`, `b`" (`"anyOf": [{"required": ["a"]}, {"required": ["b"]}]`) or "exactly one of" (the
/// same as `oneOf`, or with `not` of `required` in each branch).
#[derive(Debug, Clone, PartialEq)]
pub struct Presence {
    /// `oneOf`: exactly one branch holds; `anyOf`: at least one.
    pub exactly_one: bool,
    /// The branches, in the schema's order.
    pub branches: Vec<KeysPresent>,
}

/// One branch of a [`Presence`]: every key of `all` present (`required`), and, for each list of
/// `not_all`, not every key of it (`"not": {"required": [..]}`; `"not": {"anyOf": [{"required":
/// ["x"]}, {"required": ["y"]}]}` is the lists `[x]` and `[y]`: neither present).
#[derive(Debug, Clone, PartialEq)]
pub struct KeysPresent {
    /// Keys that must all be present.
    pub all: Vec<String>,
    /// Lists of keys that must not all be present.
    pub not_all: Vec<Vec<String>>,
}

impl KeysPresent {
    /// Whether the keys of `m` satisfy this branch.
    fn holds(&self, m: &Map<String, Value>) -> bool {
        let all_in = |names: &[String]| names.iter().all(|n| m.contains_key(n));
        all_in(&self.all) && self.not_all.iter().all(|names| !all_in(names))
    }

    /// `` `a` `` or `` all of (`a`, `b`) ``, then what must not be there: `` without `x` or `y` ``
    /// (neither), `` without both `x` and `y` ``, `` without all of (`x`, `y`, `z`) ``, joined
    /// by "and".
    fn describe(&self, out: &mut String) {
        let group = |names: &[String]| {
            let mut s = String::new();
            if names.len() > 1 {
                s.push_str("all of (");
                list(&mut s, names);
                s.push(')');
            } else {
                list(&mut s, names);
            }
            s
        };
        let mut clauses = Vec::new();
        let singles: Vec<String> =
            self.not_all.iter().filter(|n| n.len() == 1).map(|n| format!("`{}`", n[0])).collect();
        if let [rest @ .., last] = singles.as_slice() {
            clauses.push(match rest {
                [] => format!("without {last}"),
                _ => format!("without {} or {last}", rest.join(", ")),
            });
        }
        for names in self.not_all.iter().filter(|n| n.len() != 1) {
            clauses.push(match names.as_slice() {
                [a, b] => format!("without both `{a}` and `{b}`"),
                _ => format!("without {}", group(names)),
            });
        }
        let mut parts = Vec::new();
        if !self.all.is_empty() || clauses.is_empty() {
            parts.push(group(&self.all));
        }
        if !clauses.is_empty() {
            parts.push(clauses.join(" and "));
        }
        out.push_str(&parts.join(" "));
    }
}

impl Presence {
    /// The keyword the rule was written with: `oneOf` for "exactly one of", `anyOf` otherwise.
    pub fn keyword(&self) -> &'static str {
        if self.exactly_one { "oneOf" } else { "anyOf" }
    }

    fn holds(&self, m: &Map<String, Value>) -> bool {
        let mut holding = self.branches.iter().filter(|b| b.holds(m));
        if self.exactly_one {
            holding.next().is_some() && holding.next().is_none()
        } else {
            holding.next().is_some()
        }
    }

    /// Every key a branch names, each once, in order of first mention.
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for b in &self.branches {
            for n in b.all.iter().chain(b.not_all.iter().flatten()) {
                if !out.contains(n) {
                    out.push(n.clone());
                }
            }
        }
        out
    }
}

impl Check {
    /// The check for one keyword and its value, when it is one this module knows.
    pub fn from_keyword(keyword: &str, value: &Value) -> Option<Vec<Check>> {
        let count = || value.as_u64();
        let number = || Bound::of(value);
        Some(vec![match keyword {
            "minimum" => Check::Minimum(number()?),
            "maximum" => Check::Maximum(number()?),
            "exclusiveMinimum" => Check::ExclusiveMinimum(number()?),
            "exclusiveMaximum" => Check::ExclusiveMaximum(number()?),
            "multipleOf" => Check::MultipleOf(number().filter(Bound::is_positive)?),
            "minLength" => Check::MinLength(count()?),
            "maxLength" => Check::MaxLength(count()?),
            "minItems" => Check::MinItems(count()?),
            "maxItems" => Check::MaxItems(count()?),
            "uniqueItems" => match value {
                Value::Bool(true) => Check::UniqueItems,
                Value::Bool(false) => return Some(Vec::new()),
                _ => return None,
            },
            "pattern" => Check::Pattern(Pattern::new(value.as_str()?)?),
            "format" => Check::Format(Format::from_name(value.as_str()?)?),
            "minProperties" => Check::MinProperties(count()?),
            "maxProperties" => Check::MaxProperties(count()?),
            "enum" => Check::OneOf(value.as_array()?.clone()),
            "const" => Check::OneOf(vec![value.clone()]),
            "dependentRequired" => {
                let Value::Object(deps) = value else { return None };
                let mut out = Vec::new();
                for (key, names) in deps {
                    let names: Option<Vec<String>> =
                        names.as_array()?.iter().map(|n| n.as_str().map(str::to_owned)).collect();
                    out.push(Check::DependentRequired(key.clone(), names?));
                }
                return Some(out);
            }
            _ => return None,
        }])
    }

    /// The keyword this check comes from.
    pub fn keyword(&self) -> &'static str {
        match self {
            Check::Minimum(_) => "minimum",
            Check::Maximum(_) => "maximum",
            Check::ExclusiveMinimum(_) => "exclusiveMinimum",
            Check::ExclusiveMaximum(_) => "exclusiveMaximum",
            Check::MultipleOf(_) => "multipleOf",
            Check::MinLength(_) => "minLength",
            Check::MaxLength(_) => "maxLength",
            Check::MinItems(_) => "minItems",
            Check::MaxItems(_) => "maxItems",
            Check::UniqueItems => "uniqueItems",
            Check::MinProperties(_) => "minProperties",
            Check::MaxProperties(_) => "maxProperties",
            Check::OnlyKeys(_) => "additionalProperties",
            Check::DependentRequired(..) => "dependentRequired",
            Check::Pattern(_) => "pattern",
            Check::Format(_) => "format",
            Check::Presence(p) => p.keyword(),
            Check::OneOf(_) => "enum",
        }
    }

    /// This check with each key it names as `sent` gives it: the rule in the words of a provider
    /// that is told some keys under other names (restore runs the check itself on the original
    /// names, after it has renamed them back).
    pub(crate) fn with_sent_keys(&self, sent: impl Fn(&str) -> String) -> Check {
        let names = |v: &[String]| v.iter().map(|n| sent(n)).collect::<Vec<_>>();
        match self {
            Check::OnlyKeys(keys) => Check::OnlyKeys(names(keys)),
            Check::DependentRequired(key, deps) => Check::DependentRequired(sent(key), names(deps)),
            Check::Presence(p) => Check::Presence(Presence {
                exactly_one: p.exactly_one,
                branches: p
                    .branches
                    .iter()
                    .map(|b| KeysPresent {
                        all: names(&b.all),
                        not_all: b.not_all.iter().map(|n| names(n)).collect(),
                    })
                    .collect(),
            }),
            other => other.clone(),
        }
    }

    /// The constraint in words, as the provider's description states it: `at least 0`.
    pub fn describe(&self) -> String {
        match self {
            Check::Minimum(n) => format!("at least {n}"),
            Check::Maximum(n) => format!("at most {n}"),
            Check::ExclusiveMinimum(n) => format!("greater than {n}"),
            Check::ExclusiveMaximum(n) => format!("less than {n}"),
            Check::MultipleOf(n) => format!("a multiple of {n}"),
            Check::MinLength(n) => format!("at least {n} {}", plural(*n, "character")),
            Check::MaxLength(n) => format!("at most {n} {}", plural(*n, "character")),
            Check::MinItems(n) => format!("at least {n} {}", plural(*n, "item")),
            Check::MaxItems(n) => format!("at most {n} {}", plural(*n, "item")),
            Check::UniqueItems => "no two items equal".into(),
            Check::MinProperties(n) => format!("at least {n} {}", plural(*n, "key")),
            Check::MaxProperties(n) => format!("at most {n} {}", plural(*n, "key")),
            Check::OnlyKeys(keys) => {
                let mut s = "no keys but ".to_owned();
                list(&mut s, keys);
                s
            }
            Check::DependentRequired(key, names) => {
                let mut s = format!("with `{key}`, also ");
                list(&mut s, names);
                s
            }
            Check::Pattern(p) => format!("a string matching the pattern `{}`", p.source()),
            Check::Format(f) => f.describe().to_owned(),
            Check::OneOf(values) => {
                let mut s = "one of ".to_owned();
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "`{v}`");
                }
                s
            }
            Check::Presence(p) => {
                let mut s = if p.exactly_one { "exactly one of " } else { "at least one of " }.to_owned();
                for (i, branch) in p.branches.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    branch.describe(&mut s);
                }
                s
            }
        }
    }

    /// Whether `value` passes. A check that does not apply to the value's type passes (JSON
    /// Schema's rule: `minimum` ignores strings).
    pub fn passes(&self, value: &Value) -> bool {
        match (self, value) {
            (Check::Minimum(n), v) => Bound::of(v).is_none_or(|v| v.compare(n).is_ge()),
            (Check::Maximum(n), v) => Bound::of(v).is_none_or(|v| v.compare(n).is_le()),
            (Check::ExclusiveMinimum(n), v) => Bound::of(v).is_none_or(|v| v.compare(n).is_gt()),
            (Check::ExclusiveMaximum(n), v) => Bound::of(v).is_none_or(|v| v.compare(n).is_lt()),
            (Check::MultipleOf(n), v) => Bound::of(v).is_none_or(|v| v.is_multiple_of(n)),
            // A big-integer token is a number, not a string (see `super::bound`).
            (check, Value::String(_))
                if !matches!(check, Check::OneOf(_)) && BigInt::of_token(value).is_some() =>
            {
                true
            }
            (Check::MinLength(n), Value::String(s)) => s.chars().count() as u64 >= *n,
            (Check::MaxLength(n), Value::String(s)) => s.chars().count() as u64 <= *n,
            (Check::MinItems(n), Value::Array(a)) => a.len() as u64 >= *n,
            (Check::MaxItems(n), Value::Array(a)) => a.len() as u64 <= *n,
            (Check::UniqueItems, Value::Array(a)) => unique(a),
            (Check::MinProperties(n), Value::Object(m)) => m.len() as u64 >= *n,
            (Check::MaxProperties(n), Value::Object(m)) => m.len() as u64 <= *n,
            (Check::OnlyKeys(keys), Value::Object(m)) => m.keys().all(|k| keys.contains(k)),
            (Check::DependentRequired(key, names), Value::Object(m)) => {
                !m.contains_key(key) || names.iter().all(|n| m.contains_key(n))
            }
            (Check::Pattern(p), Value::String(s)) => p.run(s) == Outcome::Match,
            (Check::Format(f), Value::String(s)) => f.accepts(s),
            (Check::Presence(p), Value::Object(m)) => p.holds(m),
            (Check::OneOf(values), v) => values.iter().any(|x| json_equal(x, v)),
            _ => true,
        }
    }

    /// What is wrong with `value`, for an error the model reads: `must be at least 0, got -1`.
    pub fn failure(&self, value: &Value) -> String {
        let got = match (self, value) {
            (Check::MinLength(_) | Check::MaxLength(_), Value::String(s)) => {
                format!("{} {}", s.chars().count(), plural(s.chars().count() as u64, "character"))
            }
            (Check::MinItems(_) | Check::MaxItems(_), Value::Array(a)) => {
                format!("{} {}", a.len(), plural(a.len() as u64, "item"))
            }
            (Check::MinProperties(_) | Check::MaxProperties(_), Value::Object(m)) => {
                format!("{} {}", m.len(), plural(m.len() as u64, "key"))
            }
            (Check::UniqueItems, _) => "repeated items".into(),
            (Check::Pattern(p), Value::String(s)) if p.run(s) == Outcome::OutOfSteps => {
                return format!(
                    "could not be checked against the pattern `{}` within its step budget; send a \
                     shorter or simpler string",
                    p.source()
                );
            }
            (Check::Presence(_), Value::Object(m)) => {
                // Sorted: the same words whatever order the map keeps (`preserve_order`).
                let mut keys: Vec<String> = m.keys().cloned().collect();
                keys.sort();
                let mut s = "keys ".to_owned();
                list(&mut s, &keys);
                s
            }
            (Check::OnlyKeys(keys), Value::Object(m)) => {
                let mut extra: Vec<String> = m.keys().filter(|k| !keys.contains(k)).cloned().collect();
                extra.sort();
                let mut s = String::new();
                list(&mut s, &extra);
                s
            }
            (Check::DependentRequired(_, names), Value::Object(m)) => {
                let missing: Vec<String> = names.iter().filter(|n| !m.contains_key(*n)).cloned().collect();
                let mut s = "no ".to_owned();
                list(&mut s, &missing);
                s
            }
            _ => short(value),
        };
        format!("must be {}, got {got}", self.describe())
    }
}

fn plural(n: u64, word: &str) -> String {
    if n == 1 { word.to_owned() } else { format!("{word}s") }
}

fn list(out: &mut String, names: &[String]) {
    if names.is_empty() {
        out.push_str("none");
    }
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "`{n}`");
    }
}

/// A value for an error message: itself when short, else its kind.
pub(crate) fn short(value: &Value) -> String {
    if let Some(big) = BigInt::of_token(value) {
        return big.to_string();
    }
    let text = value.to_string();
    if text.chars().count() <= 40 {
        text
    } else {
        format!("{} of {} bytes", crate::vocab::json_type::kind(value), text.len())
    }
}

/// Compares two JSON numbers by value, exactly: integers as integers, a float against an integer
/// by the float's exact value (`1.8446744073709552e19`, which is 2^64, is above `u64::MAX`).
pub(crate) fn cmp(a: &Number, b: &Number) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (int_of(a), int_of(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => cmp_int_float(x, b.as_f64().unwrap_or(f64::NAN)),
        (None, Some(y)) => cmp_int_float(y, a.as_f64().unwrap_or(f64::NAN)).reverse(),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(f64::NAN), b.as_f64().unwrap_or(f64::NAN));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// A JSON integer as an `i128`, which holds every `i64` and `u64`.
fn int_of(n: &Number) -> Option<i128> {
    n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from))
}

/// An integer against a float, by the float's exact value.
fn cmp_int_float(x: i128, f: f64) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    // Every `i128` lies strictly within ±2^127; a float outside decides at once.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f.is_nan() {
        return Ordering::Equal;
    }
    if f >= LIMIT {
        return Ordering::Less;
    }
    if f < -LIMIT {
        return Ordering::Greater;
    }
    // Within that range `f.floor()` is an integer an `i128` holds exactly.
    let whole = f.floor() as i128;
    match x.cmp(&whole) {
        Ordering::Equal if f.fract() != 0.0 => Ordering::Less,
        other => other,
    }
}

pub(super) fn multiple_of(v: &Number, n: &Number) -> bool {
    if let (Some(x), Some(d)) = (v.as_i64(), n.as_i64()) {
        return d != 0 && x % d == 0;
    }
    if let (Some(x), Some(d)) = (v.as_u64(), n.as_u64()) {
        return d != 0 && x % d == 0;
    }
    let (Some(x), Some(d)) = (v.as_f64(), n.as_f64()) else { return false };
    let q = x / d;
    q.is_finite() && (q - q.round()).abs() <= f64::EPSILON * q.abs().max(1.0)
}

/// Whether no two items are equal under JSON Schema's equality (numbers by value).
fn unique(items: &[Value]) -> bool {
    items.iter().enumerate().all(|(i, a)| items[i + 1..].iter().all(|b| !json_equal(a, b)))
}

/// JSON Schema's instance equality: numbers equal by value (`1` and `1.0`), objects by keys.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp(x, y).is_eq(),
        // A big-integer token equals a float of its exact value.
        (Value::Number(_) | Value::String(_), Value::Number(_) | Value::String(_))
            if Bound::of(a).is_some() && Bound::of(b).is_some() =>
        {
            Bound::of(a).zip(Bound::of(b)).is_some_and(|(x, y)| x.compare(&y).is_eq())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => objects_equal(x, y),
        _ => a == b,
    }
}

fn objects_equal(x: &Map<String, Value>, y: &Map<String, Value>) -> bool {
    x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numeric_checks_compare_exactly_and_ignore_other_types() {
        let min = Check::Minimum(0.into());
        assert!(min.passes(&json!(0)) && !min.passes(&json!(-1)) && min.passes(&json!("x")));
        assert!(!Check::Maximum(u32::MAX.into()).passes(&json!(4_294_967_296u64)));
        assert!(Check::Maximum(i64::MAX.into()).passes(&json!(i64::MAX)));
        assert!(!Check::Maximum(i64::MAX.into()).passes(&json!(u64::MAX)));
        assert!(Check::Minimum(i64::MIN.into()).passes(&json!(u64::MAX)));
        // 2^64 as a float is above `u64::MAX`, though `u64::MAX as f64` rounds to it.
        assert!(!Check::Maximum(u64::MAX.into()).passes(&json!(18_446_744_073_709_551_616.0)));
        assert!(Check::Minimum(1.into()).passes(&json!(1.0)));
        assert!(!Check::Minimum(2.into()).passes(&json!(1.5)));
        assert!(Check::Maximum(2.into()).passes(&json!(1.5)));
        assert!(Check::MultipleOf(Number::from_f64(0.5).unwrap().into()).passes(&json!(1.5)));
        assert!(!Check::MultipleOf(3.into()).passes(&json!(7)));
        assert!(Check::ExclusiveMaximum(1.into()).passes(&json!(0.5)));
        assert!(!Check::ExclusiveMaximum(1.into()).passes(&json!(1)));
    }

    #[test]
    fn lengths_count_characters_and_uniqueness_compares_numbers_by_value() {
        assert!(Check::MaxLength(1).passes(&json!("é")));
        assert!(!Check::MaxLength(1).passes(&json!("ab")));
        assert!(!Check::UniqueItems.passes(&json!([1, 1.0])));
        assert!(Check::UniqueItems.passes(&json!([{"a": 1}, {"a": 2}])));
        assert!(!Check::UniqueItems.passes(&json!([{"a": 1, "b": [1]}, {"b": [1.0], "a": 1}])));
    }

    #[test]
    fn every_check_reads_as_its_one_wording() {
        assert_eq!(Check::Minimum(0.into()).failure(&json!(-1)), "must be at least 0, got -1");
        assert_eq!(
            Check::MaxLength(1).failure(&json!("ab")),
            "must be at most 1 character, got 2 characters"
        );
        assert_eq!(
            Check::OnlyKeys(vec!["a".into()]).failure(&json!({"a": 1, "b": 2})),
            "must be no keys but `a`, got `b`"
        );
        assert_eq!(Check::from_keyword("uniqueItems", &json!(false)), Some(vec![]));
        assert_eq!(Check::from_keyword("minimum", &json!("x")), None);
    }

    #[test]
    fn presence_rules_count_the_branches_that_hold_and_say_each_in_words() {
        let names = |n: &[&str]| n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let branch = |all: &[&str], not_all: &[&[&str]]| KeysPresent {
            all: names(all),
            not_all: not_all.iter().map(|n| names(n)).collect(),
        };
        let rule = |exactly_one| {
            Check::Presence(Presence {
                exactly_one,
                branches: vec![
                    branch(&["a", "b"], &[]),
                    branch(&["c"], &[&["x"], &["y"], &["z"], &["p", "q"], &["u", "v", "w"]]),
                    branch(&[], &[&["a"]]),
                ],
            })
        };
        let (any, one) = (rule(false), rule(true));
        assert_eq!(
            one.describe(),
            "exactly one of all of (`a`, `b`), `c` without `x`, `y` or `z` and without both `p` and `q` \
             and without all of (`u`, `v`, `w`), without `a`"
        );
        assert_eq!((any.keyword(), one.keyword()), ("anyOf", "oneOf"));
        // `{a, b}` holds the first branch only; `{c}` the second and the third; `{c, x}` the third.
        for (v, at_least, exactly) in [
            (json!({"a": 1, "b": 2}), true, true),
            (json!({"c": 1}), true, false),
            (json!({"c": 1, "x": 2}), true, true),
            (json!({"a": 1}), false, false),
            (json!("not an object"), true, true),
        ] {
            assert_eq!((any.passes(&v), one.passes(&v)), (at_least, exactly), "{v}");
        }
        assert_eq!(
            one.failure(&json!({"a": 1, "z": 0})),
            format!("must be {}, got keys `a`, `z`", one.describe())
        );
    }
}
