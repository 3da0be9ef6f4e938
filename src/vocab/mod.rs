//! The crate's vocabulary, at the bottom of the module graph: what the modules above all speak
//! of. Nothing here imports anything of the crate outside `vocab`: `grep -rn "crate::" src/vocab`
//! finds doc links only.

pub(crate) mod address;
pub(crate) mod graph;
pub(crate) mod json_type;
pub(crate) mod keyword;
pub(crate) mod map_order;
