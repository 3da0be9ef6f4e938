//! Exact numeric bounds, integers past the 64-bit range included.
//!
//! serde_json holds a number as an `i64`, a `u64` or an `f64`: an integer past the 64-bit range
//! (`2**70` in Python, whose `int` has no bound) has no exact place in a [`Value`]. serde_json's
//! `arbitrary_precision` feature would give it one, but a feature changes serde_json for every
//! crate of a build (features unify), so the library does not turn it on for its users. Instead a
//! caller that has such an integer writes it as a *big-integer token*: a string of
//! [`BIG_INTEGER_MARK`] (U+FDD1, a noncharacter no text meant for interchange holds) followed by
//! the integer's decimal digits, `"\u{FDD1}1180591620717411303424"` ([`big_integer_token`]).
//!
//! The library reads a token as the integer it stands for wherever it reads a numeric bound
//! (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`): restore's checks
//! compare exactly (a [`Bound`] against a number or another token, by digits, never through a
//! float), a check's wording writes the digits, and a dialect that rewrites a bound (an exclusive
//! one made inclusive, a format's range) compares it exactly too. No provider dialect keeps such
//! a bound, as no provider documents reading one exactly (Gemini's `Schema` holds a `double`,
//! llguidance reads an `f64`): each moves it into the description and restore; the dialects that pass the schema on as it is (`json-schema`,
//! `mcp`, ...) keep it, and restore checks it there too. In a model's arguments a token
//! is the integer: restore's bound checks read it, a string check (`pattern`, `minLength`) does
//! not apply to it, and [`validate`](super::validate()) reads it as an `integer`. Everywhere else
//! it is the string it is, passed through untouched: the caller turns tokens back into its own
//! integers on the way out (the Python package does, in its schemas, canonical JSON, hashes and
//! restored arguments). JSON text a dialect has the model send for a value (any value, a
//! free-form object) is read with tokens for such integers by
//! [`RestorePlan::restore_big_integers`](super::RestorePlan::restore_big_integers), and the
//! forward map writes a token in such text as its digits. The CLI, [`RestorePlan::restore`](super::RestorePlan::restore)
//! and serde_json's own parser never make a token.

use serde_json::{Number, Value};
use std::cmp::Ordering;
use std::fmt;

/// The character that starts a big-integer token (see the [module docs](self)).
pub const BIG_INTEGER_MARK: char = '\u{FDD1}';

/// The most digits a token may hold: Python's own limit for turning an `int` into text
/// (`sys.get_int_max_str_digits()`); a longer string is not a token. Keeps every comparison and
/// remainder within a small budget.
pub const MAX_DIGITS: usize = 4300;

/// The token for an integer written in decimal (`-` and digits, no leading zeros but for `0`),
/// or `None` when `digits` is not one.
pub fn big_integer_token(digits: &str) -> Option<Value> {
    BigInt::parse(digits).map(|_| Value::String(format!("{BIG_INTEGER_MARK}{digits}")))
}

/// `text` (JSON) with every integer literal past the 64-bit range written as a big-integer
/// token (a JSON string), for serde_json to read exactly: `Ok(None)` where it holds none (the
/// text is read as it is), `Err(())` where it holds U+FDD1 itself, raw or escaped (a string that
/// would read as a token). Strings are skipped with their escapes; what is not JSON is left for
/// serde_json to refuse.
pub(crate) fn tokenize_big_integers(text: &str) -> Result<Option<String>, ()> {
    let lower = text.to_ascii_lowercase();
    if text.contains(BIG_INTEGER_MARK) || lower.contains("\\ufdd1") {
        return Err(());
    }
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let fraction = i < bytes.len() && matches!(bytes[i], b'.' | b'e' | b'E');
                while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
                    i += 1;
                }
                let literal = &text[start..i];
                let big = !fraction && literal.parse::<i64>().is_err() && literal.parse::<u64>().is_err();
                if let Some(Value::String(token)) = big.then(|| big_integer_token(literal)).flatten() {
                    let out = out.get_or_insert_with(|| String::with_capacity(text.len() + 16));
                    out.push_str(&text[copied..start]);
                    out.push('"');
                    out.push_str(&token);
                    out.push('"');
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    Ok(out.map(|mut out| {
        out.push_str(&text[copied..]);
        out
    }))
}

/// JSON text (as serde_json writes it: U+FDD1 raw) with every big-integer token string written
/// as its integer's digits.
pub(crate) fn untokenize(text: String) -> String {
    let needle = format!("\"{BIG_INTEGER_MARK}");
    if !text.contains(&needle) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(&needle) {
        out.push_str(&rest[..at]);
        let after = &rest[at + needle.len()..];
        let end = after.find('"').unwrap_or(after.len());
        let digits = &after[..end];
        if big_integer_token(digits).is_some() && end < after.len() {
            out.push_str(digits);
            rest = &after[end + 1..];
        } else {
            out.push_str(&needle);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// An integer of any size, read from a big-integer token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BigInt {
    negative: bool,
    /// Decimal digits, most significant first, no leading zero (`"0"` for zero).
    digits: String,
}

impl BigInt {
    /// The integer a token stands for, or `None` when `value` is not a token.
    pub fn of_token(value: &Value) -> Option<BigInt> {
        let Value::String(s) = value else { return None };
        BigInt::parse(s.strip_prefix(BIG_INTEGER_MARK)?)
    }

    /// `-` and decimal digits, without leading zeros (`-0` is refused).
    fn parse(text: &str) -> Option<BigInt> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let canonical = !digits.is_empty()
            && digits.len() <= MAX_DIGITS
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'))
            && !(negative && digits == "0");
        canonical.then(|| BigInt { negative, digits: digits.to_owned() })
    }

    /// The integer of an integral, finite `f64`, exactly (`1e21` is `1000000000000000000000`).
    fn of_integral_float(f: f64) -> BigInt {
        // `{:.0}` writes a float's exact value, rounded to no fraction: exact for an integral one.
        let text = format!("{:.0}", f.abs());
        BigInt { negative: f < 0.0 && text != "0", digits: text }
    }

    fn of_i128(x: i128) -> BigInt {
        BigInt { negative: x < 0, digits: x.unsigned_abs().to_string() }
    }

    fn is_zero(&self) -> bool {
        self.digits == "0"
    }

    /// The magnitude's order against another's.
    fn cmp_magnitude(&self, other: &BigInt) -> Ordering {
        self.digits.len().cmp(&other.digits.len()).then_with(|| self.digits.cmp(&other.digits))
    }

    /// `x mod |d|` is zero, by long division over the digits (`d` not zero).
    fn is_multiple_of(&self, d: &BigInt) -> bool {
        let divisor: Vec<u8> = d.digits.bytes().map(|b| b - b'0').collect();
        // The remainder, most significant digit first, always below the divisor.
        let mut rem: Vec<u8> = Vec::with_capacity(divisor.len() + 1);
        for b in self.digits.bytes() {
            if !(rem.is_empty() && b == b'0') {
                rem.push(b - b'0');
            }
            while cmp_digits(&rem, &divisor).is_ge() {
                sub_digits(&mut rem, &divisor);
            }
        }
        rem.is_empty()
    }
}

impl Ord for BigInt {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

impl PartialOrd for BigInt {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for BigInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        f.write_str(&self.digits)
    }
}

/// Digit vectors without leading zeros (empty for zero), compared as numbers.
fn cmp_digits(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// `a -= b`, for `a >= b`; leading zeros of the result removed.
fn sub_digits(a: &mut Vec<u8>, b: &[u8]) {
    let mut borrow = 0u8;
    let offset = a.len() - b.len();
    for i in (0..a.len()).rev() {
        let sub = if i >= offset { b[i - offset] } else { 0 } + borrow;
        if a[i] >= sub {
            a[i] -= sub;
            borrow = 0;
        } else {
            a[i] = a[i] + 10 - sub;
            borrow = 1;
        }
    }
    let zeros = a.iter().take_while(|&&d| d == 0).count();
    a.drain(..zeros);
}

/// A numeric bound of a check, or a number of a model's arguments: a JSON number, or an integer
/// past the 64-bit range from a big-integer token.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// A number serde_json holds.
    Number(Number),
    /// An integer past the 64-bit range.
    Big(BigInt),
}

impl Bound {
    /// The bound a keyword's value gives: a number, or a big-integer token.
    pub fn of(value: &Value) -> Option<Bound> {
        match value {
            Value::Number(n) => Some(Bound::Number(n.clone())),
            other => BigInt::of_token(other).map(Bound::Big),
        }
    }

    /// Whether the bound is above zero.
    pub fn is_positive(&self) -> bool {
        match self {
            Bound::Number(n) => n.as_f64().is_some_and(|f| f > 0.0),
            Bound::Big(b) => !b.negative && !b.is_zero(),
        }
    }

    /// The bound as an integer of any size, where it is one (an integral float is).
    fn integer(&self) -> Option<BigInt> {
        match self {
            Bound::Big(b) => Some(b.clone()),
            Bound::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => Some(BigInt::of_i128(i128::from(i))),
                (_, Some(u), _) => Some(BigInt::of_i128(i128::from(u))),
                (_, _, Some(f)) if f.is_finite() && f.fract() == 0.0 => Some(BigInt::of_integral_float(f)),
                _ => None,
            },
        }
    }

    /// Compares two numbers exactly: JSON numbers by value (an integer against a float by the
    /// float's exact value), a big integer by its digits against an integer or an integral float,
    /// and by its sign against a fraction (a float with a fraction lies within ±2^53, inside every
    /// big integer's magnitude).
    pub fn compare(&self, other: &Bound) -> Ordering {
        match (self, other) {
            (Bound::Number(a), Bound::Number(b)) => super::check::cmp(a, b),
            (Bound::Big(a), Bound::Big(b)) => a.cmp(b),
            (Bound::Big(a), Bound::Number(_)) => match other.integer() {
                Some(b) => a.cmp(&b),
                None if a.negative => Ordering::Less,
                None => Ordering::Greater,
            },
            (Bound::Number(_), Bound::Big(_)) => other.compare(self).reverse(),
        }
    }

    /// Whether `self` is a multiple of `d` (a positive bound): exactly where both are integers,
    /// as restore's checks compare floats otherwise.
    pub fn is_multiple_of(&self, d: &Bound) -> bool {
        if let (Bound::Number(x), Bound::Number(n)) = (self, d) {
            return super::check::multiple_of(x, n);
        }
        match (self.integer(), d.integer()) {
            (Some(x), Some(d)) => !d.is_zero() && x.is_multiple_of(&d),
            // A big integer against a fractional divisor, or a fraction against a big divisor
            // (never a multiple: it is below the divisor and not zero).
            (None, _) => false,
            (Some(x), None) => {
                let (Some(xf), Some(df)) = (float_of(&Bound::Big(x)), d.as_f64()) else { return false };
                let q = xf / df;
                q.is_finite() && (q - q.round()).abs() <= f64::EPSILON * q.abs().max(1.0)
            }
        }
    }

    fn as_f64(&self) -> Option<f64> {
        float_of(self)
    }
}

fn float_of(b: &Bound) -> Option<f64> {
    match b {
        Bound::Number(n) => n.as_f64(),
        Bound::Big(b) => b.to_string().parse().ok(),
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Number(n) => write!(f, "{n}"),
            Bound::Big(b) => write!(f, "{b}"),
        }
    }
}

impl From<Number> for Bound {
    fn from(n: Number) -> Self {
        Bound::Number(n)
    }
}

macro_rules! bound_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Bound {
            fn from(n: $t) -> Self {
                Bound::Number(Number::from(n))
            }
        }
    )*};
}
bound_from_int!(i32, i64, u32, u64);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn big(digits: &str) -> Bound {
        Bound::of(&big_integer_token(digits).unwrap()).unwrap()
    }

    #[test]
    fn tokens_are_canonical_integers_only() {
        for bad in ["", "-", "01", "-0", "1.5", "1e3", "+1", " 1"] {
            assert_eq!(big_integer_token(bad), None, "{bad:?}");
        }
        assert_eq!(big_integer_token("-12"), Some(json!("\u{FDD1}-12")));
        assert_eq!(Bound::of(&json!("1180591620717411303424")), None);
        assert_eq!(big("1180591620717411303424").to_string(), "1180591620717411303424");
        assert_eq!(big_integer_token(&"9".repeat(MAX_DIGITS + 1)), None);
    }

    #[test]
    fn big_integers_compare_exactly_with_every_number() {
        let two70 = big("1180591620717411303424");
        let above = big("1180591620717411303425");
        let below = big("1180591620717411303423");
        assert_eq!(above.compare(&two70), Ordering::Greater);
        assert_eq!(below.compare(&two70), Ordering::Less);
        assert_eq!(big("-1180591620717411303425").compare(&big("-1180591620717411303424")), Ordering::Less);
        // 2^70 is exact as a float; 2^70 + 1 is not, and the float does not stand for it.
        let float = Bound::Number(Number::from_f64(1_180_591_620_717_411_303_424.0).unwrap());
        assert_eq!(two70.compare(&float), Ordering::Equal);
        assert_eq!(above.compare(&float), Ordering::Greater);
        assert_eq!(below.compare(&float), Ordering::Less);
        assert_eq!(two70.compare(&Bound::from(u64::MAX)), Ordering::Greater);
        assert_eq!(big("-9223372036854775809").compare(&Bound::from(i64::MIN)), Ordering::Less);
        assert_eq!(two70.compare(&Bound::Number(Number::from_f64(0.5).unwrap())), Ordering::Greater);
        assert_eq!(Bound::from(3).compare(&two70), Ordering::Less);
    }

    #[test]
    fn multiples_are_exact_for_big_integers() {
        let two65 = big("36893488147419103232");
        assert!(big("1180591620717411303424").is_multiple_of(&two65));
        assert!(!big("1180591620717411303425").is_multiple_of(&two65));
        assert!(Bound::from(0).is_multiple_of(&two65));
        assert!(!Bound::from(7).is_multiple_of(&two65));
        assert!(big("-73786976294838206464").is_multiple_of(&two65));
        assert!(big("1180591620717411303424").is_multiple_of(&Bound::from(1024)));
        assert!(!big("1180591620717411303425").is_multiple_of(&Bound::from(3)));
        assert!(big("1180591620717411303425").is_multiple_of(&Bound::from(25)));
        assert!(!Bound::Number(Number::from_f64(0.5).unwrap()).is_multiple_of(&two65));
    }

    #[test]
    fn a_dialect_moves_a_big_bound_and_restore_checks_it_exactly() {
        use crate::dialect::{self, ANTHROPIC_STRICT, AdaptContext};
        let token = |d: &str| big_integer_token(d).unwrap();
        let schema = json!({"type": "object", "required": ["n"], "properties": {"n": {
            "type": "integer", "maximum": token("1180591620717411303424"),
            "minimum": token("-1180591620717411303424"), "multipleOf": token("36893488147419103232")}}});
        let adapted = dialect::adapt(&ANTHROPIC_STRICT, schema, &AdaptContext::default()).unwrap();
        let description = adapted.schema["properties"]["n"]["description"].as_str().unwrap();
        assert!(description.contains("at most 1180591620717411303424"), "{description}");
        assert!(description.contains("a multiple of 36893488147419103232"), "{description}");
        let ok = json!({"n": token("1180591620717411303424")});
        assert_eq!(adapted.plan.restore(ok.clone()).unwrap(), ok);
        assert_eq!(adapted.plan.restore(json!({"n": 0})).unwrap(), json!({"n": 0}));
        let err = adapted.plan.restore(json!({"n": token("1180591620717411303425")})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the arguments do not fit the tool's schema:\n- `/n`: must be at most 1180591620717411303424, got \
             1180591620717411303425\n- `/n`: must be a multiple of 36893488147419103232, got 1180591620717411303425"
        );
        assert!(adapted.plan.restore(json!({"n": token("-1180591620717411303425")})).is_err());
        assert!(adapted.plan.restore(json!({"n": 7})).is_err());
    }

    #[test]
    fn json_text_is_read_with_tokens_for_big_integers_and_written_back_with_digits() {
        let text = r#"{"a": [1180591620717411303425, -9223372036854775809, 18446744073709551615], "b": "12345678901234567890123", "c": 1e30, "d": 123456789012345678901.5}"#;
        let tokenized = tokenize_big_integers(text).unwrap().unwrap();
        let value: Value = serde_json::from_str(&tokenized).unwrap();
        assert_eq!(value["a"][0], big_integer_token("1180591620717411303425").unwrap());
        assert_eq!(value["a"][1], big_integer_token("-9223372036854775809").unwrap());
        assert_eq!(value["a"][2], json!(18_446_744_073_709_551_615u64));
        assert_eq!(value["b"], "12345678901234567890123");
        assert!(value["c"].is_f64() && value["d"].is_f64());
        assert_eq!(tokenize_big_integers(r#"{"n": [1, -2, 3.5, "x\"9"]}"#), Ok(None));
        assert_eq!(tokenize_big_integers("\"\u{FDD1}1\""), Err(()));
        assert_eq!(tokenize_big_integers(r#""\uFDD1""#), Err(()));
        assert_eq!(
            untokenize(value.to_string()),
            r#"{"a":[1180591620717411303425,-9223372036854775809,18446744073709551615],"b":"12345678901234567890123","c":1e+30,"d":1.2345678901234568e+20}"#
        );
        assert_eq!(untokenize("[\"\u{FDD1}x\",\"\u{FDD1}12\"]".to_owned()), "[\"\u{FDD1}x\",12]");
    }

    #[test]
    fn a_plan_reads_big_integers_in_json_text_exactly_when_asked() {
        use crate::dialect::{self, AdaptContext, OPENAI_STRICT};
        let schema = json!({"type": "object", "required": ["x"], "properties": {"x": {}}});
        let adapted = dialect::adapt(&OPENAI_STRICT, schema, &AdaptContext::default()).unwrap();
        let sent = json!({"x": "{\"n\": 1180591620717411303425}"});
        let exact = adapted.plan.restore_big_integers(sent.clone()).unwrap();
        assert_eq!(exact, json!({"x": {"n": big_integer_token("1180591620717411303425").unwrap()}}));
        // Without asking, serde_json reads it as the nearest float, as it always has.
        assert!(adapted.plan.restore(sent).unwrap()["x"]["n"].is_f64());
        assert_eq!(adapted.plan.encode(exact.clone()), json!({"x": "{\"n\":1180591620717411303425}"}));
        let marked = json!({"x": "[\"\u{FDD1}1\"]"});
        assert!(adapted.plan.restore_big_integers(marked.clone()).is_err());
        assert_eq!(adapted.plan.restore(marked).unwrap(), json!({"x": ["\u{FDD1}1"]}));
    }

    /// A model's `big: int = Field(le=2**70, ge=-2**70, multiple_of=2**65)` as the Python package
    /// writes it: bounds as big-integer tokens.
    #[cfg(feature = "hash")]
    fn big_bounds_schema() -> Value {
        let token = |d: &str| big_integer_token(d).unwrap();
        json!({"type": "object", "required": ["big"], "properties": {
            "big": {"type": "integer", "maximum": token("1180591620717411303424"),
                "minimum": token("-1180591620717411303424"), "multipleOf": token("36893488147419103232")},
            "n": {"type": "integer", "default": 3, "exclusiveMaximum": token("18446744073709551616")}}})
    }

    /// Whether a big-integer token stands anywhere in `value`.
    #[cfg(feature = "hash")]
    fn holds_token(value: &Value) -> bool {
        match value {
            Value::String(_) => BigInt::of_token(value).is_some(),
            Value::Array(items) => items.iter().any(holds_token),
            Value::Object(m) => m.values().any(holds_token),
            _ => false,
        }
    }

    #[test]
    #[cfg(feature = "hash")]
    fn restore_compares_a_big_bound_exactly_in_every_dialect() {
        use crate::SchemaOptions;
        use crate::dialect::builtin;
        let token = |d: &str| big_integer_token(d).unwrap();
        for d in builtin() {
            let name = d.name();
            let built = SchemaOptions::new().dialect(*d).normalize(big_bounds_schema()).unwrap();
            let schema = built.as_value();
            let as_it_is = ["json-schema", "strict-subset", "inline-refs", "mcp", "mcp-self-contained"];
            if as_it_is.contains(&name) {
                // Told as it is (the digits, once the caller turns tokens back), checked by restore.
                assert_eq!(schema["properties"]["big"]["maximum"], token("1180591620717411303424"), "{name}");
            } else {
                // No provider reads such a bound exactly (Gemini's `Schema` holds a `double`):
                // stated in the description instead.
                assert!(!holds_token(schema), "{name}: {schema}");
                let description = schema["properties"]["big"]["description"].as_str().unwrap_or_default();
                for stated in [
                    "at most 1180591620717411303424",
                    "at least -1180591620717411303424",
                    "a multiple of 36893488147419103232",
                ] {
                    assert!(description.contains(stated), "{name}: {description}");
                }
            }
            for good in ["1180591620717411303424", "-1180591620717411303424", "1143698132569992200192"] {
                let ok = json!({"big": token(good), "n": token("-18446744073709551616")});
                assert_eq!(built.restore(ok.clone()).unwrap(), ok, "{name}");
            }
            assert_eq!(built.restore(json!({"big": 0})).unwrap(), json!({"big": 0}), "{name}");
            let err = built.restore(json!({"big": token("1180591620717411303425")})).unwrap_err();
            assert_eq!(
                err.to_string(),
                "the arguments do not fit the tool's schema:\n- `/big`: must be at most 1180591620717411303424, got \
                 1180591620717411303425\n- `/big`: must be a multiple of 36893488147419103232, got 1180591620717411303425",
                "{name}"
            );
            for bad in [
                json!({"big": token("-1180591620717411303425")}),
                json!({"big": 7}),
                json!({"big": 0, "n": token("18446744073709551616")}),
            ] {
                assert!(built.restore(bad.clone()).is_err(), "{name}: {bad}");
            }
        }
    }
}
