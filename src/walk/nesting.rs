//! How deeply a JSON value may nest (every array and object, not only subschemas), the check of
//! it without recursion, and dropping a value of any depth without overflowing the stack.

use super::*;

/// How deeply any JSON value in a schema may nest, counting every array and object (not only
/// subschemas): far beyond what a real tool schema holds (the default subschema budget of 128 is
/// about 260 levels of JSON), and shallow enough that serde_json's own recursive `Clone` and
/// `Drop` of such a value stay within a small thread stack.
pub const MAX_NESTING: usize = 512;

/// The nesting limit for a depth budget of `max_depth` subschema levels: [`MAX_NESTING`], or four
/// levels per unit of `max_depth` if that is more (a deeper budget is the caller's promise of a
/// deeper stack; a subschema level is at most two levels of JSON).
pub fn nesting_limit(max_depth: usize) -> usize {
    MAX_NESTING.max(max_depth.saturating_mul(4))
}

/// The pointer of the first place (in document order) where `value` nests deeper than `limit`
/// levels of arrays and objects, if it does; `const`, `default` and every other value count, not
/// only subschemas. Iterative, and stops at the first such place: memory stays within `limit`
/// frames.
pub(crate) fn nesting_exceeds(value: &Value, limit: usize) -> Option<String> {
    enum Frame<'a> {
        Array(std::iter::Enumerate<std::slice::Iter<'a, Value>>, usize),
        Object(serde_json::map::Iter<'a>, &'a str),
    }
    fn frame(v: &Value) -> Option<Frame<'_>> {
        match v {
            Value::Array(items) => Some(Frame::Array(items.iter().enumerate(), 0)),
            Value::Object(map) => Some(Frame::Object(map.iter(), "")),
            _ => None,
        }
    }
    // Nearly every value fits: answer that with a plain recursion (bounded by `limit`, at most a
    // few hundred small frames), and search iteratively, with the pointer, only when it does not.
    fn fits(value: &Value, budget: usize) -> bool {
        let deeper = |v: &Value| !matches!(v, Value::Array(_) | Value::Object(_)) || fits(v, budget - 1);
        match value {
            Value::Array(items) => budget > 0 && items.iter().all(deeper),
            Value::Object(map) => budget > 0 && map.values().all(deeper),
            _ => true,
        }
    }
    if limit <= MAX_NESTING && fits(value, limit) {
        return None;
    }
    let mut stack: Vec<Frame<'_>> = frame(value).into_iter().collect();
    if limit == 0 && !stack.is_empty() {
        return Some(String::new());
    }
    while let Some(top) = stack.last_mut() {
        let child = match top {
            Frame::Array(items, at) => items.next().map(|(i, v)| {
                *at = i;
                v
            }),
            Frame::Object(entries, at) => entries.next().map(|(k, v)| {
                *at = k.as_str();
                v
            }),
        };
        let Some(child) = child else {
            stack.pop();
            continue;
        };
        let Some(next) = frame(child) else { continue };
        if stack.len() >= limit {
            let mut pointer = crate::pointer::Pointer::root();
            for f in &stack {
                match f {
                    Frame::Array(_, i) => pointer.push_index(*i),
                    Frame::Object(_, k) => pointer.push(k),
                };
            }
            return Some(pointer.as_str().to_owned());
        }
        stack.push(next);
    }
    None
}

/// Frees a value of any depth without deep recursion: serde_json's own `Drop` recurses once per
/// level of arrays and objects, which a value built in code can nest past any thread's stack.
/// Whatever the crate removes or refuses goes through here.
///
/// Each array or object more than 32 levels below the one being freed is moved onto a heap
/// stack (its place left `null`), and what is left, at most that deep, goes to serde_json's own
/// `Drop`, which frees each node where it lies; then each value on the stack the same way. Only
/// a value nested that deep is ever moved, so a schema of ordinary depth costs one read of its
/// containers and the ordinary free.
///
/// ```
/// use serde_json::{Map, Value};
/// let mut deep = Value::Null;
/// for _ in 0..100_000 {
///     deep = Value::Object(Map::from_iter([("k".to_owned(), deep)]));
/// }
/// toolschema::walk::drop_any_depth(deep);
/// ```
pub fn drop_any_depth(mut value: Value) {
    let mut deep = Vec::new();
    loop {
        cut_below(&mut value, DROP_LEVELS, &mut deep);
        drop(value);
        match deep.pop() {
            Some(next) => value = next,
            None => return,
        }
    }
}

/// How many levels of arrays and objects [`drop_any_depth`] leaves to serde_json's recursive
/// `Drop` (and its own walk recurses): few enough for any thread's stack, enough that an ordinary
/// tool schema is not moved.
const DROP_LEVELS: usize = 32;

/// Moves every array and object `levels` levels below `value` onto `deep`, leaving `null`.
fn cut_below(value: &mut Value, levels: usize, deep: &mut Vec<Value>) {
    let mut visit = |child: &mut Value| {
        if matches!(child, Value::Array(_) | Value::Object(_)) {
            match levels.checked_sub(1) {
                Some(below) => cut_below(child, below, deep),
                None => deep.push(std::mem::take(child)),
            }
        }
    };
    match value {
        Value::Array(items) => items.iter_mut().for_each(&mut visit),
        Value::Object(map) => map.values_mut().for_each(&mut visit),
        _ => {}
    }
}
