//! [`CheckNesting`]: refuses values nested deeper than any tool schema needs, before anything
//! copies them.

use crate::error::SchemaGenerationError;
use crate::pass::{Pass, PassContext};
use serde_json::Value;

/// Refuses a schema holding any value (a `const`, a `default`, an `enum` member, anything) nested
/// more than [`walk::nesting_limit`](crate::walk::nesting_limit) levels of arrays and objects deep
/// (512 at the default `max_depth`).
///
/// The walks count subschema levels against `max_depth`, but a `default` or `const` is a plain
/// value and can nest without limit in a value built in code. Later passes and dialects copy and
/// free such values with serde_json's own `Clone` and `Drop`, which recurse once per level; this
/// pass makes sure they never meet one deep enough to exhaust a thread's stack. It walks without
/// recursion and stops at the first such place.
///
/// ```
/// # use serde_json::{json, Map, Value};
/// # use toolschema::pipeline::{Pass, PassContext};
/// let mut deep = json!(0);
/// for _ in 0..600 {
///     deep = Value::Array(vec![deep]);
/// }
/// let mut s = Value::Object(Map::from_iter([("default".to_owned(), deep)]));
/// let err = toolschema::passes::CheckNesting.run(&mut s, &mut PassContext::new(None)).unwrap_err();
/// assert!(err.to_string().contains("nests deeper than 512 levels"), "{err}");
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckNesting;

impl Pass for CheckNesting {
    fn name(&self) -> &'static str {
        "check-nesting"
    }

    fn run(&self, schema: &mut Value, cx: &mut PassContext<'_>) -> Result<(), SchemaGenerationError> {
        let limit = crate::walk::nesting_limit(cx.max_depth);
        match crate::walk::nesting_exceeds(schema, limit) {
            None => Ok(()),
            Some(pointer) => Err(SchemaGenerationError::Malformed {
                pointer,
                message: format!(
                    "a value here nests deeper than {limit} levels of arrays and objects; no tool \
                     schema needs that (the limit keeps copying and freeing it within the stack)"
                ),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::walk::MAX_NESTING;
    use serde_json::{Map, json};

    fn nested(levels: usize) -> Value {
        let mut v = json!("leaf");
        for _ in 0..levels {
            v = Value::Object(Map::from_iter([("k".to_owned(), v)]));
        }
        v
    }

    #[test]
    fn a_value_at_the_limit_passes_and_one_level_more_is_refused_with_its_pointer() {
        let mut ok = json!({"const": nested(MAX_NESTING - 1)});
        assert_eq!(CheckNesting.run(&mut ok, &mut PassContext::new(None)), Ok(()));
        let mut deep = json!({"const": nested(MAX_NESTING)});
        let err = CheckNesting.run(&mut deep, &mut PassContext::new(None)).unwrap_err();
        let expected = format!("/const{}", "/k".repeat(MAX_NESTING - 1));
        assert_eq!(err.pointer(), Some(expected.as_str()));
        crate::walk::drop_any_depth(deep);
    }

    #[test]
    fn a_larger_depth_budget_raises_the_limit() {
        let mut s = json!({"default": nested(MAX_NESTING + 10)});
        let mut cx = PassContext::new(None);
        cx.max_depth = MAX_NESTING;
        assert_eq!(CheckNesting.run(&mut s, &mut cx), Ok(()));
        crate::walk::drop_any_depth(s);
    }
}
