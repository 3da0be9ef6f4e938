//! The passes of the [pipeline](crate::pipeline), one type per file, in pipeline order.
//!
//! Each pass implements [`Pass`](crate::pipeline::Pass) and can be run alone on any schema value.

mod draft_2020;
pub use draft_2020::Draft2020;
mod drop_empty_branches;
pub use drop_empty_branches::DropEmptyBranches;
mod well_formed;
pub use well_formed::WellFormed;
mod merge_docs;
pub use crate::pass::{DocWarning, DocWarningKind};
pub use merge_docs::MergeDocs;
mod drop_titles;
pub use drop_titles::DropTitles;
mod integer_bounds;
pub use integer_bounds::IntegerBounds;
mod map_keys;
pub use map_keys::{MapKey, MapKeys, SIGNED_KEY, UNSIGNED_KEY, key_names};
mod find_tags;
pub use find_tags::FindTags;
mod check_nesting;
pub use check_nesting::CheckNesting;
mod check_refs;
pub use check_refs::CheckRefs;
mod merge_tags;
pub use merge_tags::{MAX_MERGES, MergeTags};
mod exclude;
pub use exclude::Exclude;
mod prune_defs;
pub use prune_defs::PruneDefs;
mod reject_any;
pub use reject_any::RejectAny;
mod sort_required;
pub use sort_required::SortRequired;
mod sort_keys;
pub use sort_keys::{SortKeys, sort_keys};

/// The value of `key` in a schema object, found by going through its keys and comparing lengths
/// first. A schema object holds a handful of keywords: this costs less than a search of the map
/// (a string comparison per step, or with `preserve_order` a hash of the key), and a whole walk
/// that asks a few keys per object stays linear in the keys it visits.
#[inline]
pub(crate) fn member<'m>(
    map: &'m serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'m serde_json::Value> {
    map.iter().find_map(|(k, v)| (k == key).then_some(v))
}

/// [`member`], to change the value.
#[inline]
pub(crate) fn member_mut<'m>(
    map: &'m mut serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'m mut serde_json::Value> {
    map.iter_mut().find_map(|(k, v)| (k == key).then_some(v))
}

/// Whether a schema object has `key` (see [`member`]).
#[inline]
pub(crate) fn has_member(map: &serde_json::Map<String, serde_json::Value>, key: &str) -> bool {
    map.keys().any(|k| k == key)
}
