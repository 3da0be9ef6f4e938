//! [`MapKeys`]: the key spelling serde reads, for maps with integer keys; and [`key_names`],
//! the exact key constraint for a map whose key type you name.

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value, json};

/// The pattern schemars writes for a map with unsigned integer keys (`u8` .. `u128`, `usize`).
const SCHEMARS_UNSIGNED: &str = r"^\d+$";
/// The pattern schemars writes for a map with signed integer keys (`i8` .. `i128`, `isize`).
const SCHEMARS_SIGNED: &str = r"^-?\d+$";

/// The keys serde_json reads as an unsigned integer: canonical decimal digits (no sign, no
/// leading zero, ASCII only).
pub const UNSIGNED_KEY: &str = "^(?:0|[1-9][0-9]*)$";
/// The keys serde_json reads as a signed integer: canonical decimal digits with an optional `-`
/// (no `+`, no leading zero, no `-0`, ASCII only). serde_json also reads `-0` as an `i128` key
/// (as no narrower one); it never writes it, and this pattern refuses it.
pub const SIGNED_KEY: &str = "^(?:0|-?[1-9][0-9]*)$";

/// Adds `propertyNames` to a map with integer keys, so that its keys are the spellings serde
/// reads.
///
/// schemars describes `BTreeMap<u8, V>` as `{"patternProperties": {"^\\d+$": V},
/// "additionalProperties": false}`: that accepts `"01"`, and, in validators whose `\d` is
/// Unicode-aware (Python's `re`, Rust's `regex`), digits of other scripts; serde_json's map-key
/// reader takes only canonical decimal digits. This pass adds `{"propertyNames": {"pattern":
/// UNSIGNED_KEY}}` (or [`SIGNED_KEY`], which also refuses `"-0"`).
///
/// What the schema cannot tell, the pass cannot add: schemars writes the same pattern for every
/// unsigned width (so a `BTreeMap<u8, V>` still accepts the key `"256"`), and writes a map with
/// `char` or `bool` keys as a map with `String` keys. [`key_names`] gives the exact constraint
/// for a key type you name, for `#[schemars(extend(...))]` on the field; a map that already has
/// `propertyNames` is left as it is.
///
/// Runs only on schemas generated from a Rust type ([`PassContext::from_rust`]).
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "object", "additionalProperties": false,
///                    "patternProperties": {"^\\d+$": {"type": "string"}}});
/// let mut cx = PassContext::new(None);
/// cx.from_rust = true;
/// toolschema::passes::MapKeys.run(&mut s, &mut cx).unwrap();
/// assert_eq!(s["propertyNames"], json!({"pattern": "^(?:0|[1-9][0-9]*)$"}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct MapKeys;

impl NodePass for MapKeys {
    fn name(&self) -> &'static str {
        "map-keys"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        _at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        if !cx.from_rust {
            return Ok(());
        }
        let Some(Value::Object(patterns)) = super::member(node, "patternProperties") else { return Ok(()) };
        // Exactly schemars' map of integer keys: one pattern, nothing else admitted, no declared
        // property (a struct that flattens such a map would need its own names admitted too).
        let pattern = match patterns.keys().next().map(String::as_str) {
            Some(SCHEMARS_UNSIGNED) if patterns.len() == 1 => UNSIGNED_KEY,
            Some(SCHEMARS_SIGNED) if patterns.len() == 1 => SIGNED_KEY,
            _ => return Ok(()),
        };
        if super::member(node, "additionalProperties") != Some(&Value::Bool(false))
            || super::has_member(node, "properties")
            || super::has_member(node, "propertyNames")
        {
            return Ok(());
        }
        node.insert("propertyNames".to_owned(), json!({ "pattern": pattern }));
        Ok(())
    }
}

/// A map key type serde_json reads from a JSON object's keys, with the exact set of keys it reads
/// as a `propertyNames` schema (see [`key_names`]).
pub trait MapKey {
    /// The `propertyNames` schema: exactly the keys serde_json reads as this type.
    fn property_names() -> Value;
}

/// The exact `propertyNames` schema for maps keyed by `K`: the keys serde_json reads as a `K`.
///
/// Integers get a pattern of their exact range (canonical decimal digits, no `+`, no leading
/// zero, no `-0` but for `i128`, whose key reader takes it); `isize`/`usize` the 64-bit range; `char` exactly one character
/// (`minLength`/`maxLength` count characters, as serde does); `bool` `"true"` and `"false"`.
/// Put it on the field, where the [`MapKeys`] pass cannot know the key type:
///
/// ```
/// use std::collections::BTreeMap;
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Inventory {
///     #[schemars(extend("propertyNames" = toolschema::passes::key_names::<u8>()))]
///     by_shelf: BTreeMap<u8, String>,
///     #[schemars(extend("propertyNames" = toolschema::passes::key_names::<char>()))]
///     by_letter: BTreeMap<char, u32>,
/// }
/// let s = toolschema::schema_for::<Inventory>().unwrap();
/// let shelf = &s.as_value()["properties"]["by_shelf"]["propertyNames"]["pattern"];
/// assert_eq!(shelf, "^(?:0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$");
/// ```
pub fn key_names<K: MapKey>() -> Value {
    K::property_names()
}

macro_rules! unsigned_keys {
    ($($t:ty => $max:expr),* $(,)?) => {$(
        impl MapKey for $t {
            fn property_names() -> Value {
                json!({ "pattern": format!("^(?:{})$", up_to($max).join("|")) })
            }
        }
    )*};
}

macro_rules! signed_keys {
    ($($t:ty => ($max:expr, $min_abs:expr, $minus_zero:expr)),* $(,)?) => {$(
        impl MapKey for $t {
            fn property_names() -> Value {
                let positive = up_to($max);
                let negative = up_to($min_abs);
                // serde_json reads `-0` as an `i128` key, and as no narrower one.
                let negative: Vec<&str> =
                    negative.iter().map(String::as_str).filter(|a| $minus_zero || *a != "0").collect();
                json!({ "pattern": format!("^(?:{}|-(?:{}))$", positive.join("|"), negative.join("|")) })
            }
        }
    )*};
}

unsigned_keys! {
    u8 => "255",
    u16 => "65535",
    u32 => "4294967295",
    u64 => "18446744073709551615",
    usize => "18446744073709551615",
    u128 => "340282366920938463463374607431768211455",
}

signed_keys! {
    i8 => ("127", "128", false),
    i16 => ("32767", "32768", false),
    i32 => ("2147483647", "2147483648", false),
    i64 => ("9223372036854775807", "9223372036854775808", false),
    isize => ("9223372036854775807", "9223372036854775808", false),
    i128 => ("170141183460469231731687303715884105727", "170141183460469231731687303715884105728", true),
}

impl MapKey for char {
    fn property_names() -> Value {
        json!({ "minLength": 1, "maxLength": 1 })
    }
}

impl MapKey for bool {
    fn property_names() -> Value {
        json!({ "enum": ["false", "true"] })
    }
}

impl MapKey for String {
    fn property_names() -> Value {
        json!({})
    }
}

/// Alternatives of a regular expression for exactly the canonical decimals `0..=max` (`max` in
/// canonical digits, at least two of them): `0`; every shorter number; then, digit by digit, the
/// numbers of `max`'s length that first fall below it there (at the last digit, up to it).
fn up_to(max: &str) -> Vec<String> {
    let digits: Vec<u8> = max.bytes().map(|b| b - b'0').collect();
    let len = digits.len();
    let class = |lo: u8, hi: u8| if lo == hi { lo.to_string() } else { format!("[{lo}-{hi}]") };
    let any = |n: usize| match n {
        0 => String::new(),
        1 => "[0-9]".to_owned(),
        n => format!("[0-9]{{{n}}}"),
    };
    let mut alternatives = vec!["0".to_owned()];
    match len {
        0 | 1 => {}
        2 => alternatives.push("[1-9]".to_owned()),
        3 => alternatives.push("[1-9][0-9]?".to_owned()),
        _ => alternatives.push(format!("[1-9][0-9]{{0,{}}}", len - 2)),
    }
    for (i, &d) in digits.iter().enumerate() {
        let lo = u8::from(i == 0);
        if i + 1 == len {
            alternatives.push(format!("{}{}", &max[..i], class(lo, d)));
        } else if d > lo {
            alternatives.push(format!("{}{}{}", &max[..i], class(lo, d - 1), any(len - i - 1)));
        }
    }
    alternatives
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;

    fn run(mut s: Value, from_rust: bool) -> Value {
        let mut cx = PassContext::new(None);
        cx.from_rust = from_rust;
        MapKeys.run(&mut s, &mut cx).unwrap();
        s
    }

    #[test]
    fn schemars_integer_maps_get_the_canonical_key_pattern() {
        let map =
            |p: &str| json!({"type": "object", "additionalProperties": false, "patternProperties": {p: {}}});
        assert_eq!(run(map(r"^\d+$"), true)["propertyNames"], json!({"pattern": UNSIGNED_KEY}));
        assert_eq!(run(map(r"^-?\d+$"), true)["propertyNames"], json!({"pattern": SIGNED_KEY}));
        // Not schemars' integer map, or not from a Rust type: untouched.
        for s in [
            map("^x"),
            json!({"type": "object", "additionalProperties": true, "patternProperties": {r"^\d+$": {}}}),
            json!({"type": "object", "additionalProperties": false, "properties": {"id": {}}, "patternProperties": {r"^\d+$": {}}}),
            json!({"additionalProperties": false, "patternProperties": {r"^\d+$": {}}, "propertyNames": {"maxLength": 3}}),
        ] {
            assert_eq!(run(s.clone(), true), s);
        }
        assert_eq!(run(map(r"^\d+$"), false), map(r"^\d+$"));
    }

    #[test]
    fn the_range_alternatives_of_u8_and_i8() {
        assert_eq!(up_to("255"), ["0", "[1-9][0-9]?", "1[0-9]{2}", "2[0-4][0-9]", "25[0-5]"]);
        assert_eq!(up_to("10"), ["0", "[1-9]", "10"]);
        assert_eq!(up_to("1000"), ["0", "[1-9][0-9]{0,2}", "1000"]);
        assert_eq!(key_names::<u8>()["pattern"], "^(?:0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$");
        assert_eq!(
            key_names::<i8>()["pattern"],
            "^(?:0|[1-9][0-9]?|1[0-1][0-9]|12[0-7]|-(?:[1-9][0-9]?|1[0-1][0-9]|12[0-8]))$"
        );
    }
}
