//! The passes of the [pipeline](crate::pipeline), one type per file, in pipeline order.
//!
//! Each pass implements [`Pass`](crate::pipeline::Pass) and can be run alone on any schema value.

mod merge_docs;
pub use merge_docs::{DocWarning, DocWarningKind, MergeDocs};
mod drop_titles;
pub use drop_titles::DropTitles;
mod index_refs;
pub use index_refs::IndexRefs;
pub(crate) use index_refs::RefIndex;
mod exclude;
pub use exclude::Exclude;
mod prune_defs;
pub use prune_defs::PruneDefs;
mod reject_any;
pub use reject_any::RejectAny;
mod sort_required;
pub use sort_required::SortRequired;
mod sort_keys;
pub use sort_keys::{SortKeys, map_preserves_order};
