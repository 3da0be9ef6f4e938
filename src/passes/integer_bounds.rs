//! [`IntegerBounds`]: the range serde reads for an integer, as `minimum`/`maximum`.

use crate::error::SchemaGenerationError;
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Writes the `minimum` and `maximum` that schemars' integer `format` implies, keeping a bound
/// that is already tighter; the `format` stays.
///
/// In draft 2020-12 `format` is an annotation: `{"type": "integer", "format": "uint32"}` accepts
/// `4294967296`, which serde refuses for a `u32`. schemars writes bounds for 8- and 16-bit
/// integers only (and `minimum: 0` for unsigned ones); this pass writes them for every width,
/// so that every dialect sees them:
///
/// | `format` (Rust type) | `minimum` | `maximum` |
/// | --- | --- | --- |
/// | `int8` .. `int64` (`i8` .. `i64`) | the type's `MIN` | the type's `MAX` |
/// | `uint8` .. `uint64` (`u8` .. `u64`) | `0` | the type's `MAX` |
/// | `int` / `uint` (`isize` / `usize`) | as `int64` / `uint64`: the range on 64-bit targets | |
/// | `int128` (`i128`) | `-2^127` | `2^127` (a double: serde_json holds no wider integer) |
/// | `uint128` (`u128`) | `0` | `2^128` (a double) |
///
/// The 128-bit maximums are the nearest doubles above the type's maximum, so the one integer at
/// the bound (`2^127`, `2^128`) passes the schema and fails serde; every value serde reads passes.
///
/// Runs only on schemas generated from a Rust type ([`PassContext::from_rust`]): in a schema
/// from elsewhere `format` may mean something else, and the pass would narrow it.
///
/// ```
/// # use serde_json::json;
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut s = json!({"type": "integer", "format": "uint32", "minimum": 0});
/// let mut cx = PassContext::new(None);
/// cx.from_rust = true;
/// toolschema::passes::IntegerBounds.run(&mut s, &mut cx).unwrap();
/// assert_eq!(s, json!({"type": "integer", "format": "uint32", "minimum": 0, "maximum": 4_294_967_295_u32}));
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct IntegerBounds;

impl NodePass for IntegerBounds {
    fn name(&self) -> &'static str {
        "integer-bounds"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        _at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        if cx.from_rust && super::has_member(node, "format") {
            crate::dialect::support::format_as_bounds(node);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use serde_json::json;

    fn run(mut s: Value) -> Value {
        let mut cx = PassContext::new(None);
        cx.from_rust = true;
        IntegerBounds.run(&mut s, &mut cx).unwrap();
        s
    }

    #[test]
    fn every_integer_format_gets_the_range_serde_reads() {
        let table = [
            ("int8", json!(-128), json!(127)),
            ("int16", json!(-32768), json!(32767)),
            ("int32", json!(i32::MIN), json!(i32::MAX)),
            ("int64", json!(i64::MIN), json!(i64::MAX)),
            ("int", json!(i64::MIN), json!(i64::MAX)),
            ("uint8", json!(0), json!(255)),
            ("uint16", json!(0), json!(65535)),
            ("uint32", json!(0), json!(u32::MAX)),
            ("uint64", json!(0), json!(u64::MAX)),
            ("uint", json!(0), json!(u64::MAX)),
            ("int128", json!(-(2f64.powi(127))), json!(2f64.powi(127))),
            ("uint128", json!(0), json!(2f64.powi(128))),
        ];
        for (format, lo, hi) in table {
            let out = run(json!({"type": ["integer", "null"], "format": format}));
            assert_eq!((&out["minimum"], &out["maximum"]), (&lo, &hi), "{format}");
            assert_eq!(out["format"], format);
        }
    }

    #[test]
    fn a_tighter_bound_stays_and_other_schemas_are_untouched() {
        // NonZeroU8: schemars writes `minimum: 1`.
        assert_eq!(
            run(json!({"type": "integer", "format": "uint8", "minimum": 1, "maximum": 255})),
            json!({"type": "integer", "format": "uint8", "minimum": 1, "maximum": 255})
        );
        for s in [
            json!({"type": "number", "format": "double"}),
            json!({"type": "string", "format": "uint32"}),
            json!({"type": "integer", "format": "date"}),
        ] {
            assert_eq!(run(s.clone()), s);
        }
    }

    #[test]
    fn a_schema_not_from_a_rust_type_keeps_its_format_an_annotation() {
        let mut s = json!({"type": "integer", "format": "int32"});
        IntegerBounds.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s, json!({"type": "integer", "format": "int32"}));
    }
}
