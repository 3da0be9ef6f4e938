//! The writer's unit tests: key order, escaping, numbers, depth, and the buffered paths.

use super::number::write_f64;
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
#[allow(clippy::unreadable_literal, reason = "the digits are the text expected")]
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
                let s =
                    format!("{}{}{}tail of some length", "p".repeat(offset), char::from(e), char::from(next));
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
    struct Pieces(Vec<usize>, Vec<u8>);
    impl Sink for Pieces {
        fn put(&mut self, bytes: &[u8]) {
            self.0.push(bytes.len());
            self.1.extend_from_slice(bytes);
        }
    }
    let big = json!({"s": "x".repeat(3 * FLUSH_AT), "list": (0..5000).collect::<Vec<_>>()});
    let mut sink = Pieces(Vec::new(), Vec::new());
    write(&big, &mut sink);
    assert_eq!(sink.1, to_vec(&big));
    assert!(sink.0.len() > 1, "written in one piece: {:?}", sink.0);
}
