//! [`Draft`]: how the draft a foreign schema declares in its root `$schema` changes the way it is
//! read.
//!
//! Three things differ between the drafts tool schemas are written in, and the engine reads each
//! by the input's own declaration where its caller reads foreign schemas
//! ([`Policy::FOREIGN_READING`](super::Policy::FOREIGN_READING)): the dialects read the
//! pipeline's output, which is 2020-12 and has no `$schema` left.
//!
//! - **`$ref` beside other keywords.** Up to draft-07, a schema object holding `$ref` *is* the
//!   reference: every other keyword beside it is ignored. From 2019-09 on, the keywords beside it
//!   apply too. So `{"$ref": "#/definitions/Pos", "maximum": 10}` accepts `20` under draft-07 and
//!   refuses it under 2020-12.
//! - **`id`.** Draft-04 spells `$id` as `id`; either changes the base URI the `$ref`s under it
//!   resolve against.
//! - **An empty `required`.** Draft-04 requires a `required` list to hold at least one name;
//!   later drafts allow `[]`.
//!
//! A root without `$schema`, or with one this crate does not know, is read as draft 2020-12 (what
//! a validator given no `$schema` assumes, and what the rest of the crate writes).
//!
//! For example, zod-to-json-schema writes `"$schema": "http://json-schema.org/draft-07/schema#"`:
//! [`Draft::of`] reads it as [`Draft::Draft07`], whose `$ref` ignores its siblings.

use serde_json::Value;

/// The JSON Schema draft a foreign schema declares, as far as it changes how the foreign
/// functions read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Draft {
    /// `http://json-schema.org/draft-03/schema#` or `draft-04`: `$ref` ignores its siblings, `id`
    /// (not `$id`) is the base-URI keyword, `required` may not be empty.
    Draft04,
    /// `draft-06` or `draft-07`: `$ref` ignores its siblings.
    Draft07,
    /// 2019-09, 2020-12, no `$schema`, or one not listed above: the keywords beside `$ref` apply.
    Modern,
}

impl Draft {
    /// The draft `schema`'s root `$schema` names (see [`Draft::named`]).
    #[inline]
    pub(crate) fn of(schema: &Value) -> Draft {
        match schema.get("$schema") {
            Some(Value::String(uri)) => Draft::named(uri),
            _ => Draft::Modern,
        }
    }

    /// The draft a `$schema` URI names: `http://` or `https://`, `json-schema.org/draft-0N/schema`,
    /// with or without the trailing `#`. Anything else is [`Draft::Modern`].
    pub(crate) fn named(uri: &str) -> Draft {
        let rest = uri.strip_prefix("http://").or_else(|| uri.strip_prefix("https://")).unwrap_or("");
        let rest = rest.strip_suffix('#').unwrap_or(rest);
        match rest {
            "json-schema.org/draft-03/schema" | "json-schema.org/draft-04/schema" => Draft::Draft04,
            "json-schema.org/draft-06/schema" | "json-schema.org/draft-07/schema" => Draft::Draft07,
            _ => Draft::Modern,
        }
    }

    /// Whether a schema object holding `$ref` is the reference alone (draft-07 and earlier).
    #[inline]
    pub(crate) fn ref_ignores_siblings(self) -> bool {
        self != Draft::Modern
    }

    /// The keyword that sets a base URI: `id` up to draft-04, `$id` from draft-06 on.
    #[inline]
    pub(crate) fn id_keyword(self) -> &'static str {
        if self == Draft::Draft04 { "id" } else { "$id" }
    }

    /// Whether `required` may be an empty list (draft-06 on).
    #[inline]
    pub(crate) fn allows_empty_required(self) -> bool {
        self != Draft::Draft04
    }
}

/// Whether a keyword stays in a schema object that holds `$ref` where the draft ignores the
/// reference's siblings: the annotations (which never decide what is accepted, so keeping them
/// is exact), `$schema` (which says how the output is read), and the definition maps (which only
/// references reach, and which the output drops).
#[inline]
pub(crate) fn kept_beside_legacy_ref(key: &str) -> bool {
    crate::walk::is_meta_data(key) || matches!(key, "$ref" | "$schema" | "$defs" | "definitions")
}

/// Whether a schema object's `$id` (or, under draft-04, `id`) changes the base URI that the
/// references at and under it resolve against: a string with more than a fragment (`"#foo"`
/// under draft-06/07 names an anchor, `""` is the current base). A value that is no string is
/// no URI, and changes nothing.
#[inline]
pub(crate) fn changes_base(id: &Value) -> bool {
    matches!(id, Value::String(s) if !s.is_empty() && !s.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_draft_is_named_with_or_without_its_fragment_and_over_either_scheme() {
        for (uri, draft) in [
            ("http://json-schema.org/draft-04/schema#", Draft::Draft04),
            ("https://json-schema.org/draft-04/schema", Draft::Draft04),
            ("http://json-schema.org/draft-03/schema#", Draft::Draft04),
            ("http://json-schema.org/draft-06/schema#", Draft::Draft07),
            ("http://json-schema.org/draft-07/schema#", Draft::Draft07),
            ("https://json-schema.org/draft-07/schema", Draft::Draft07),
            ("https://json-schema.org/draft/2019-09/schema", Draft::Modern),
            ("https://json-schema.org/draft/2020-12/schema", Draft::Modern),
            ("https://example.com/my-meta-schema", Draft::Modern),
            ("json-schema.org/draft-07/schema", Draft::Modern),
        ] {
            assert_eq!(Draft::named(uri), draft, "{uri}");
        }
        assert_eq!(Draft::of(&json!({})), Draft::Modern);
        assert_eq!(Draft::of(&json!({"$schema": 7})), Draft::Modern);
        assert_eq!(Draft::of(&json!([])), Draft::Modern);
    }

    #[test]
    fn only_an_id_with_more_than_a_fragment_changes_the_base() {
        assert!(changes_base(&json!("http://example.com/sub")));
        assert!(changes_base(&json!("sub.json")));
        assert!(!changes_base(&json!("#foo")));
        assert!(!changes_base(&json!("")));
        assert!(!changes_base(&json!({"type": "string"})));
    }
}
