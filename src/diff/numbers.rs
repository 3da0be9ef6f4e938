//! Bounds and steps: `minimum`, `maximum`, their exclusive forms (draft 4's booleans too) and
//! `multipleOf`, and the count bounds of the other families (`minLength`, `maxItems`,
//! `minProperties`, `minContains`, ...), which compare the same way.

use super::{Differ, Mode, Raw, canon};
use crate::pointer::Pointer;
use serde_json::Value;
use std::cmp::Ordering;

impl Differ<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bound(
        &mut self,
        key: &str,
        lower: bool,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        mode: Mode,
    ) {
        // The value that means "no limit", where the keyword has one.
        let default = match key {
            "minLength" | "minItems" | "minProperties" => Some(Value::from(0)),
            "minContains" => Some(Value::from(1)),
            _ => None,
        };
        let a = a.or(default.as_ref());
        let b = b.or(default.as_ref());
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        // Draft-4 boolean `exclusiveMinimum`/`exclusiveMaximum`: `true` excludes the bound.
        let order = match (a, b) {
            (Some(Value::Bool(x)), Some(Value::Bool(y))) => Some(if lower { x.cmp(y) } else { y.cmp(x) }),
            (Some(Value::Bool(_)), None) => Some(if lower { Ordering::Greater } else { Ordering::Less }),
            (None, Some(Value::Bool(_))) => Some(if lower { Ordering::Less } else { Ordering::Greater }),
            (Some(Value::Number(x)), Some(Value::Number(y))) => cmp_numbers(x, y),
            (None, Some(Value::Number(_))) => Some(if lower { Ordering::Less } else { Ordering::Greater }),
            (Some(Value::Number(_)), None) => Some(if lower { Ordering::Greater } else { Ordering::Less }),
            (None, None) => Some(Ordering::Equal),
            _ => None,
        };
        let (kind, verb) = match (order, lower) {
            // The same bound written differently (`1` and `1.0`, or absent and its default).
            (Some(Ordering::Equal), _) => return,
            (Some(Ordering::Less), true) => (Raw::Narrow, "raised"),
            (Some(Ordering::Greater), true) => (Raw::Widen, "lowered"),
            (Some(Ordering::Less), false) => (Raw::Widen, "raised"),
            (Some(Ordering::Greater), false) => (Raw::Narrow, "lowered"),
            (None, _) => (Raw::Unknown, "changed (not compared)"),
        };
        let msg = format!("`{key}` {verb} from {} to {}", show(a), show(b));
        self.at(ptr, key, mode, kind, msg);
    }

    pub(super) fn multiple_of(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        mode: Mode,
    ) {
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let whole = |x: f64| x.is_finite() && x != 0.0 && (x - x.round()).abs() < 1e-9;
        let kind = match (a.and_then(Value::as_f64), b.and_then(Value::as_f64)) {
            (None, Some(_)) if a.is_none() => Raw::Narrow,
            (Some(_), None) if b.is_none() => Raw::Widen,
            // Every multiple of `y` is a multiple of `x` when `y / x` is whole.
            (Some(x), Some(y)) if x > 0.0 && y > 0.0 && whole(y / x) && !whole(x / y) => Raw::Narrow,
            (Some(x), Some(y)) if x > 0.0 && y > 0.0 && whole(x / y) && !whole(y / x) => Raw::Widen,
            _ => Raw::Unknown,
        };
        let msg = format!("`multipleOf` changed from {} to {}", show(a), show(b));
        self.at(ptr, "multipleOf", mode, kind, msg);
    }
}

fn cmp_numbers(x: &serde_json::Number, y: &serde_json::Number) -> Option<Ordering> {
    let int = |n: &serde_json::Number| n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    match (int(x), int(y)) {
        (Some(a), Some(b)) => Some(a.cmp(&b)),
        _ => x.as_f64()?.partial_cmp(&y.as_f64()?),
    }
}
