//! Numbers in RFC 8785's terms (ECMAScript's `Number.prototype.toString`): an integer serde_json
//! holds as `u64` or `i64` with its exact digits, an f64 by the two short paths schemas are full of
//! (an integral value below 2^53, a short decimal) or else by `ryu-js`. Apart from the writer
//! because this is arithmetic, not layout: why each path gives ECMAScript's bytes is stated here.

use serde_json::Number;

pub(super) fn write_number(n: &Number, buf: &mut Vec<u8>) {
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
#[allow(clippy::float_cmp, reason = "an exact round trip is what is asked")]
pub(super) fn write_f64(f: f64, out: &mut Vec<u8>) {
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
#[allow(clippy::float_cmp, reason = "an exact round trip is what is asked")]
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
