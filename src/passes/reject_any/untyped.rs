//! Whether a schema is untyped (accepts every value, or every value but for a union), through
//! references, within a hop budget.

use super::*;

/// Identifiers and dialect declarations: they name a schema but accept every value.
pub(super) const IDENTIFIERS: &[&str] = &["$anchor", "$dynamicAnchor", "$id", "$schema", "$vocabulary"];

/// Whether `keyword` never constrains, so that a schema made only of such keywords accepts anything:
/// the meta-data and content vocabularies ([`walk::META_DATA`](crate::walk::META_DATA),
/// [`walk::CONTENT`](crate::walk::CONTENT)) and identifiers.
pub(super) fn is_annotation(keyword: &str) -> bool {
    crate::walk::is_meta_data(keyword)
        || crate::walk::CONTENT.contains(&keyword)
        || IDENTIFIERS.contains(&keyword)
}

/// Follows at most this many `$ref` hops when deciding whether a schema is untyped.
pub(super) const MAX_REF_HOPS: usize = 32;

/// Whether `schema` accepts every JSON value: `true`, an object of annotations only, or a `$ref` to
/// such a schema. A union with an untyped member is judged member by member instead, so the error
/// points at the member.
pub(super) fn is_untyped(schema: &Value, doc: &Document<'_>) -> bool {
    is_untyped_hops(schema, doc, MAX_REF_HOPS, Unions::No)
}

/// Like [`is_untyped`], and also true for a union with an untyped member (`Option<Value>` spells
/// itself `anyOf: [{}, {"type": "null"}]`): the judgement of where the model must send a value
/// its type leaves open. A `oneOf` counts here, as a position that is as good as untyped.
pub(super) fn accepts_anything(schema: &Value, doc: &Document<'_>) -> bool {
    is_untyped_hops(schema, doc, MAX_REF_HOPS, Unions::AnyOfAndOneOf)
}

/// Like [`accepts_anything`], but only an `anyOf` with an untyped member counts: the judgement of
/// which optional property may be written as `{}`. `oneOf: [{}, X]` accepts exactly what `X`
/// refuses, so written as `{}` it would let through every value of `X`.
pub(super) fn accepts_every_value(schema: &Value, doc: &Document<'_>) -> bool {
    is_untyped_hops(schema, doc, MAX_REF_HOPS, Unions::AnyOf)
}

/// Which unions with an untyped member [`is_untyped_hops`] takes as untyped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Unions {
    No,
    AnyOf,
    AnyOfAndOneOf,
}

pub(super) fn is_untyped_hops(schema: &Value, doc: &Document<'_>, hops: usize, unions: Unions) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => {
            // Nearly every schema says its type: no need to look at each key.
            if crate::passes::has_member(map, "type") {
                return false;
            }
            // Definitions constrain nothing where they stand: `{"$ref": .., "$defs": ..}` is as
            // untyped as the schema it points to.
            let mut constraining =
                map.keys().filter(|k| !is_annotation(k) && !DEF_MAPS.contains(&k.as_str()));
            match (constraining.next(), constraining.next()) {
                (None, _) => true,
                (Some(k), None) if k == "$ref" => {
                    hops > 0
                        && crate::passes::member(map, "$ref")
                            .and_then(Value::as_str)
                            .and_then(|r| doc.resolve(r))
                            .is_some_and(|t| is_untyped_hops(t, doc, hops - 1, unions))
                }
                (Some(k), None)
                    if k == "anyOf" && unions != Unions::No
                        || k == "oneOf" && unions == Unions::AnyOfAndOneOf =>
                {
                    crate::passes::member(map, k).and_then(Value::as_array).is_some_and(|members| {
                        members.iter().any(|m| is_untyped_hops(m, doc, hops.saturating_sub(1), unions))
                    })
                }
                _ => false,
            }
        }
        _ => false,
    }
}
